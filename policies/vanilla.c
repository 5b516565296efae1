/* vanilla.c - the page allocator of Linux v6.2, as the baseline. */
#include <stdio.h>
#include "internal.h"
#include "policies.h"

static int vanilla_set_param(struct mm_policy *p, const char *key, const char *value,
                             char *err, size_t errlen)
{
	(void)p;
	(void)value;
	snprintf(err, errlen, "policy vanilla has no switch '%s'", key);
	return -1;
}

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

const struct mm_policy_ops vanilla_policy_ops = {
	.name = "vanilla",
	.desc = "Linux v6.2 page allocator: fallbacks, highatomic reserves, watermark boosting",
	.params = NULL,
	.set_param = vanilla_set_param,
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
};
