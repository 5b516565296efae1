/* vanilla.c - the page allocator of Linux v6.2, as the baseline. */
#include <stdio.h>
#include "internal.h"
#include "policies.h"

static int vanilla_validate(struct mm_policy *p, char *err, size_t errlen)
{
	(void)p, (void)err, (void)errlen;
	return 0;
}

static int vanilla_boot_pageblock_migratetype(const struct mm_policy *p)
{
	(void)p;
	return MIGRATE_MOVABLE;
}

static const int *vanilla_fallbacks(const struct mm_policy *p, int start_mt, unsigned alloc_flags)
{
	(void)p, (void)alloc_flags;
	return v62_fallbacks(start_mt);
}

static bool vanilla_can_steal_fallback(const struct mm_policy *p, unsigned order, int start_mt,
                                       int fallback_mt)
{
	(void)p, (void)fallback_mt;
	return v62_can_steal_fallback(order, start_mt);
}

static int vanilla_free_one_page_migratetype(const struct mm_policy *p, unsigned order, int mt)
{
	(void)p, (void)order;
	return mt;
}

/* __zone_watermark_unusable_free(): callers without ALLOC_HARDER may not
 * count the highatomic reserve (over-estimated: the whole reservation) */
long vanilla_zone_free_pages(const struct mm_policy *p, const struct zone *z, unsigned alloc_flags)
{
	long free_pages = zone_page_state(z, NR_FREE_PAGES);
	(void)p;
	if (!(alloc_flags & (ALLOC_HARDER | ALLOC_OOM)))
		free_pages -= (long)z->nr_reserved_highatomic;
	return free_pages;
}

bool vanilla_watermark_area_ok(const struct mm_policy *p, const struct free_area *area,
                               unsigned alloc_flags)
{
	const struct pglist_data *pgdat = p->pgdat;
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		if (!list_empty_pfn(pgdat, area->free_list[mt]))
			return true;
	if ((alloc_flags & (ALLOC_HARDER | ALLOC_OOM)) && p->ops.reserve_highatomic_pageblock &&
	    !list_empty_pfn(pgdat, area->free_list[MIGRATE_HIGHATOMIC]))
		return true;
	return false;
}

static unsigned long vanilla_wmark_gap(const struct mm_policy *p, const struct zone *z,
                                       unsigned long gap)
{
	(void)p, (void)z;
	return gap;
}

static unsigned vanilla_order(const struct mm_policy *p, unsigned order)
{
	(void)p;
	return order;
}

static bool vanilla_last_resort_fallback(const struct mm_policy *p)
{
	(void)p;
	return false;           /* v6.2 falls back on the first attempt already */
}

/* v6.2 block/bdev.c: the block-device cache is GFP_USER, unmovable */
static gfp_t vanilla_bdev_mapping_gfp(const struct mm_policy *p)
{
	(void)p;
	return GFP_USER;
}

static bool vanilla_reclaim_retry_defers(const struct mm_policy *p)
{
	(void)p;
	return false;
}

/* v6.2 compaction_suitable() and __isolate_free_page() check the order-0
 * watermark against NR_FREE_PAGES less what __zone_watermark_ok() calls
 * unusable (the highatomic reserve) */
long vanilla_compaction_free_pages(const struct mm_policy *p, const struct zone *z)
{
	return vanilla_zone_free_pages(p, z, ALLOC_CMA);
}

bool vanilla_suitable_migration_source(const struct mm_policy *p, const struct compact_control *cc,
                                       int block_mt)
{
	(void)p;
	return v62_suitable_migration_source(cc, block_mt);
}

bool vanilla_suitable_migration_target(const struct mm_policy *p, const struct compact_control *cc,
                                       int block_mt, unsigned buddy_order)
{
	(void)p;
	return v62_suitable_migration_target(cc, block_mt, buddy_order);
}

static bool vanilla_false(const struct mm_policy *p)
{
	(void)p;
	return false;
}

bool vanilla_compact_finished(const struct mm_policy *p, const struct compact_control *cc)
{
	(void)p;
	return v62_compact_finished(cc);
}

/* v6.2: direct compaction checks the request's watermark, kcompactd (no
 * alloc_flags) the min watermark */
unsigned long vanilla_compaction_wmark(const struct mm_policy *p, const struct zone *z, bool direct,
                                       unsigned alloc_flags)
{
	(void)p, (void)direct;
	return wmark_pages(z, alloc_flags & ALLOC_WMARK_MASK);
}

static int vanilla_compaction_capture(const struct mm_policy *p, const struct capture_control *capc,
                                      unsigned order, int mt)
{
	(void)p;
	return v62_compaction_capture(capc, order, mt);
}

static bool vanilla_compact_retry_costly_limits(const struct mm_policy *p)
{
	(void)p;
	return true;
}

/* v6.2 wakeup_kswapd(): a balanced node wakes kcompactd only for requests
 * that cannot compact by themselves */
static bool vanilla_wakeup_kswapd_wakes_kcompactd(const struct mm_policy *p, gfp_t gfp)
{
	(void)p;
	return !(gfp & __GFP_DIRECT_RECLAIM);
}

/* v6.2 kswapd: balanced only by the watermark; after compact_gap pages it
 * drops to order 0 */
static bool vanilla_kswapd_compaction_suitable(const struct mm_policy *p)
{
	(void)p;
	return false;
}

const struct mm_policy_ops vanilla_policy_ops = {
	.name = "vanilla",
	.desc = "Linux v6.2 page allocator: fallbacks, highatomic reserves, watermark boosting",
	.params = NULL,
	.validate = vanilla_validate,
	.boot_pageblock_migratetype = vanilla_boot_pageblock_migratetype,
	.fallbacks = vanilla_fallbacks,
	.can_steal_fallback = vanilla_can_steal_fallback,
	.free_one_page_migratetype = vanilla_free_one_page_migratetype,
	.reserve_highatomic_pageblock = reserve_highatomic_pageblock,
	.unreserve_highatomic_pageblock = unreserve_highatomic_pageblock,
	.boost_watermark = boost_watermark,
	.zone_free_pages = vanilla_zone_free_pages,
	.watermark_area_ok = vanilla_watermark_area_ok,
	.wmark_gap = vanilla_wmark_gap,
	.reclaim_order = vanilla_order,
	.compact_order = vanilla_order,
	.last_resort_fallback = vanilla_last_resort_fallback,
	.bdev_mapping_gfp = vanilla_bdev_mapping_gfp,
	.reclaim_retry_defers_to_compaction = vanilla_reclaim_retry_defers,
	.compaction_suitable_free_pages = vanilla_compaction_free_pages,
	.isolate_free_page_free_pages = vanilla_compaction_free_pages,
	.suitable_migration_source = vanilla_suitable_migration_source,
	.suitable_migration_target = vanilla_suitable_migration_target,
	.fast_find_migrateblock_any_type = vanilla_false,
	.compact_finished = vanilla_compact_finished,
	.compaction_wmark = vanilla_compaction_wmark,
	.compaction_capture = vanilla_compaction_capture,
	.compact_retry_costly_limits = vanilla_compact_retry_costly_limits,
	.compact_retry_three_outcomes = vanilla_false,
	.zonelist_suitable_targets_only = vanilla_false,
	.compaction_ready_before_zones = vanilla_false,
	.direct_compact_nofs_reserves = vanilla_false,
	.wakeup_kswapd_wakes_kcompactd = vanilla_wakeup_kswapd_wakes_kcompactd,
	.kswapd_compaction_suitable = vanilla_kswapd_compaction_suitable,
	/* v6.2 counts proactive scanning in compact_*_scanned only */
	.proactive_compact_counts_daemon = vanilla_false,
};
