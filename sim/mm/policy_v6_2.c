/* policy_v6_2.c - Linux v6.2's decisions where a policy may differ: the
 * table every policy's chain of bases ends in (policies/policy.c fills a
 * hook a policy leaves NULL from it).  Each function lives beside the code
 * that asks for it; this file only lists them.  v6.2 declares no feature
 * (MMF_*): every yes/no of mmsim/policy.h is "no" here. */
#include "internal.h"

const struct mm_policy_ops mm_v6_2_ops = {
	.name = "v6.2",
	.desc = "Linux v6.2",
	.features = 0,
	.policy_zones = no_policy_zones,
	.boot_pageblock_migratetype = memmap_init_migratetype,
	.fallbacks = fallbacks,
	.can_steal_fallback = can_steal_fallback,
	.free_one_page_migratetype = free_one_page_migratetype,
	.zone_free_pages = zone_free_pages,
	.watermark_area_ok = watermark_area_ok,
	.wmark_gap = wmark_gap,
	.reclaim_order = requested_order,
	.compact_order = requested_order,
	.compaction_suitable_free_pages = compaction_free_pages,
	.isolate_free_page_free_pages = compaction_free_pages,
	.suitable_migration_source = suitable_migration_source,
	.suitable_migration_target = __suitable_migration_target,
	.compact_finished = compact_finished,
	.compaction_wmark = compaction_wmark,
	.compaction_capture = __compaction_capture,
	.wakeup_kswapd_wakes_kcompactd = wakeup_kswapd_wakes_kcompactd,
	.bdev_mapping_gfp = bdev_mapping_gfp,
	/* the kernel's own, present unless a feature compiles them out */
	.reserve_highatomic_pageblock = reserve_highatomic_pageblock,
	.unreserve_highatomic_pageblock = unreserve_highatomic_pageblock,
	.boost_watermark = boost_watermark,
};
