/* compaction.c - memory compaction (mm/compaction.c).
 *
 * So far only what reclaim asks of it: compaction_suitable() and the
 * fragmentation index, in v6.2's form.  compact_zone, kcompactd and
 * capture come with the compaction model. */
#include "internal.h"

/* __fragmentation_index(): 0 means a request fails for lack of memory,
 * 1000 for fragmentation; -1000 when a suitable page is free */
static int fragmentation_index(const struct zone *zone, unsigned order)
{
	unsigned long total = 0, free_pages = 0, suitable = 0;

	for (unsigned o = 0; o < MAX_ORDER; o++) {
		unsigned long n = zone->free_area[o].nr_free;
		total += n;
		free_pages += n << o;
		if (o >= order)
			suitable += n << (o - order);
	}
	if (!total)
		return 0;
	if (suitable)
		return -1000;
	return 1000 - (int)((1000 + free_pages * 1000 / (1ul << order)) / total);
}

enum compact_result compaction_suitable(struct zone *zone, unsigned order, unsigned alloc_flags,
                                        enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long watermark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);
	enum compact_result ret;

	/* the high-order watermark is met already: nothing to do */
	if (zone_watermark_ok(pgdat, zone, order, watermark, highest_zoneidx, alloc_flags))
		return COMPACT_SUCCESS;
	/* order-0 pages must be there for migration targets, plus the gap;
	 * costly orders ask for the low watermark */
	watermark = (order > PAGE_ALLOC_COSTLY_ORDER ? low_wmark_pages(zone) : min_wmark_pages(zone)) +
	            compact_gap(order);
	if (!zone_watermark_ok(pgdat, zone, 0, watermark, highest_zoneidx, ALLOC_CMA))
		return COMPACT_SKIPPED;
	ret = COMPACT_CONTINUE;
	/* costly orders: only compact when failure would be fragmentation */
	if (order > PAGE_ALLOC_COSTLY_ORDER) {
		int fragindex = fragmentation_index(zone, order);
		if (fragindex >= 0 && fragindex <= pgdat->sysctl.extfrag_threshold)
			ret = COMPACT_NOT_SUITABLE_ZONE;
	}
	return ret;
}
