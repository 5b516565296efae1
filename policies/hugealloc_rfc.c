/* hugealloc_rfc.c - the RFC "mm: reliable huge page allocator" (Johannes
 * Weiner, April 2023) on v6.2; named after the posting (policies/README.md),
 * formerly "hygiene", which is still read as an alias.
 *
 * Each behaviour-changing patch is a switch, so that an ablation can turn
 * them on one by one; all are on by default (the RFC as posted), except
 * last_resort_fallback, which is the later upstream form (defrag_mode).
 * Switches that depend on another are rejected without it, as the series
 * was never run that way.  Where CONFIG_COMPACTION is off, patch 009 keeps
 * the old watermarks and reclaim orders, and fallbacks stay allowed.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "policies.h"

struct hugealloc_rfc {
	bool bdev_cache_movable;    /* 002: block-device page cache is movable */
	bool migrate_free;          /* 005: MIGRATE_FREE neutral blocks */
	bool wmark_free_blocks;     /* 009: watermarks on free blocks, reclaim/compaction to pageblock order */
	bool no_highatomic;         /* 010: kill the highatomic reserve */
	bool no_watermark_boost;    /* 011: kill watermark boosting */
	bool no_fallback;           /* cover letter: no fallback into other types' blocks */
	bool last_resort_fallback;  /* one fallback pass before OOM (upstream defrag_mode) */
	bool kswapd_compaction_suitable; /* RFC 20/26: kswapd stops where compaction can go on */
};

#define SW(field, def_, help_) \
	{ #field, PARAM_BOOL, .def = def_, .help = help_, PARAM_AT(struct hugealloc_rfc, field) }

/* The switches: one line each (mmsim/param.h); their fields above. */
static const struct param hugealloc_rfc_params[] = {
	SW(bdev_cache_movable, "yes", "patch 002: allocate block-device page cache GFP_USER|__GFP_MOVABLE"),
	SW(migrate_free, "yes", "patch 005: empty pageblocks are MIGRATE_FREE, claimed by their first allocation"),
	SW(wmark_free_blocks, "yes", "patch 009: watermarks count free pageblocks; reclaim and compaction work "
	   "toward pageblock order"),
	SW(no_highatomic, "yes", "patch 010: remove the highatomic reserve"),
	SW(no_watermark_boost, "yes", "patch 011: remove watermark boosting"),
	SW(no_fallback, "yes", "cover letter: no fallback into blocks of another type (with compaction)"),
	SW(last_resort_fallback, "no", "allow one fallback pass before OOM (the later upstream defrag_mode)"),
	SW(kswapd_compaction_suitable, "yes", "RFC patch 20: kswapd is balanced once compaction_suitable() says "
	   "compaction can go on, and hands over to kcompactd (no order-0 drop; it sleeps at the order it "
	   "balanced for)"),
	{ NULL },
};

static inline const struct hugealloc_rfc *H(const struct mm_policy *p)
{
	return p->priv;
}

static int hugealloc_rfc_validate(struct mm_policy *p, char *err, size_t errlen)
{
	const struct hugealloc_rfc *h = H(p);

	if (h->wmark_free_blocks && !h->migrate_free) {
		snprintf(err, errlen, "policy hugealloc_rfc: wmark_free_blocks (009) needs migrate_free (005)");
		return -1;
	}
	if (h->no_fallback && !h->migrate_free) {
		snprintf(err, errlen, "policy hugealloc_rfc: no_fallback needs migrate_free (005)");
		return -1;
	}
	if ((h->no_highatomic || h->no_watermark_boost) && !h->wmark_free_blocks) {
		snprintf(err, errlen, "policy hugealloc_rfc: no_highatomic (010) and no_watermark_boost (011) "
		         "need wmark_free_blocks (009)");
		return -1;
	}
	if (h->last_resort_fallback && !h->no_fallback) {
		snprintf(err, errlen, "policy hugealloc_rfc: last_resort_fallback only makes sense with no_fallback");
		return -1;
	}
	/* the deleted features leave the table */
	p->ops.reserve_highatomic_pageblock = h->no_highatomic ? NULL : reserve_highatomic_pageblock;
	p->ops.unreserve_highatomic_pageblock = h->no_highatomic ? NULL : unreserve_highatomic_pageblock;
	p->ops.boost_watermark = h->no_watermark_boost ? NULL : boost_watermark;
	return 0;
}

static int hugealloc_rfc_boot_pageblock_migratetype(const struct mm_policy *p)
{
	return H(p)->migrate_free ? MIGRATE_FREE : MIGRATE_MOVABLE;
}

/* patch 005: free blocks are the first fallback of every type */
static const int free_first[MIGRATE_PCPTYPES][4] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_FREE, MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,   MIGRATE_TYPES },
	[MIGRATE_MOVABLE]     = { MIGRATE_FREE, MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, MIGRATE_TYPES },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_FREE, MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE,   MIGRATE_TYPES },
};
static const int free_only[2] = { MIGRATE_FREE, MIGRATE_TYPES };

static const int *hugealloc_rfc_fallbacks(const struct mm_policy *p, int start_mt, unsigned alloc_flags)
{
	const struct hugealloc_rfc *h = H(p);

	if (!h->migrate_free)
		return v62_fallbacks(start_mt);
	if (h->no_fallback && p->pgdat->config_compaction && !(alloc_flags & ALLOC_LAST_RESORT))
		return free_only;
	return free_first[start_mt];
}

static bool hugealloc_rfc_can_steal_fallback(const struct mm_policy *p, unsigned order, int start_mt,
                                       int fallback_mt)
{
	(void)p;
	/* the first allocation in a free block must claim it */
	if (fallback_mt == MIGRATE_FREE)
		return true;
	return v62_can_steal_fallback(order, start_mt);
}

static int hugealloc_rfc_free_one_page_migratetype(const struct mm_policy *p, unsigned order, int mt)
{
	/* patch 005: freed whole pageblocks become neutral again */
	if (H(p)->migrate_free && order >= pageblock_order && migratetype_is_mergeable(mt))
		return MIGRATE_FREE;
	return mt;
}

/* patch 009: __zone_free_pages() - watermarks are met by free blocks */
static long hugealloc_rfc_zone_free_pages(const struct mm_policy *p, const struct zone *z,
                                    unsigned alloc_flags)
{
	long free_pages;

	if (!H(p)->wmark_free_blocks)
		return vanilla_zone_free_pages(p, z, alloc_flags);
	free_pages = zone_page_state(z, NR_FREE_FREE);
	if (alloc_flags & (ALLOC_HARDER | ALLOC_OOM))
		free_pages += zone_page_state(z, NR_FREE_HIGHATOMIC);
	/* without compaction: count everything, best-effort grouping; the
	 * last-resort pass before OOM (upstream defrag_mode's final retry)
	 * checks watermarks against all free pages too */
	if (!p->pgdat->config_compaction || (alloc_flags & ALLOC_LAST_RESORT)) {
		free_pages += zone_page_state(z, NR_FREE_UNMOVABLE);
		free_pages += zone_page_state(z, NR_FREE_MOVABLE);
		free_pages += zone_page_state(z, NR_FREE_RECLAIMABLE);
	}
	return free_pages;
}

static bool hugealloc_rfc_watermark_area_ok(const struct mm_policy *p, const struct free_area *area,
                                      unsigned alloc_flags)
{
	/* patch 005: a free block's page serves any type */
	if (H(p)->migrate_free && !list_empty_pfn(p->pgdat, area->free_list[MIGRATE_FREE]))
		return true;
	return vanilla_watermark_area_ok(p, area, alloc_flags);
}

static bool blocks_mode(const struct mm_policy *p)
{
	return H(p)->wmark_free_blocks && p->pgdat->config_compaction;
}

/* patch 009: the watermark distances are whole pageblocks, the unit
 * reclaim and compaction produce */
static unsigned long hugealloc_rfc_wmark_gap(const struct mm_policy *p, const struct zone *z,
                                       unsigned long gap)
{
	(void)z;
	if (!blocks_mode(p))
		return gap;
	return (gap + pageblock_nr_pages - 1) & ~(unsigned long)(pageblock_nr_pages - 1);
}

/* patch 009: reclaim and compaction produce neutral blocks */
static unsigned hugealloc_rfc_order(const struct mm_policy *p, unsigned order)
{
	if (!blocks_mode(p))
		return order;
	return order > pageblock_order ? order : pageblock_order;
}

static bool hugealloc_rfc_last_resort_fallback(const struct mm_policy *p)
{
	return H(p)->last_resort_fallback;
}

/* patch 002: the block-device cache is movable (it can be migrated) */
static gfp_t hugealloc_rfc_bdev_mapping_gfp(const struct mm_policy *p)
{
	return H(p)->bdev_cache_movable ? GFP_USER | __GFP_MOVABLE : GFP_USER;
}

/* RFC patch 20 ("mm: vmscan: use compaction_suitable() check in kswapd"):
 * kswapd's balance check accepts a zone where compaction can go on, and
 * the open-coded order-0 drop after compact_gap goes */
static bool hugealloc_rfc_kswapd_compaction_suitable(const struct mm_policy *p)
{
	return H(p)->kswapd_compaction_suitable && p->pgdat->config_compaction;
}

static bool hugealloc_rfc_reclaim_retry_defers(const struct mm_policy *p)
{
	return blocks_mode(p);
}

/* the RFC's compaction_suitable() (the form patch 008 refactors): the
 * migration targets are free pages in movable blocks */
static long hugealloc_rfc_compaction_suitable_free_pages(const struct mm_policy *p, const struct zone *z)
{
	if (!blocks_mode(p))
		return vanilla_compaction_free_pages(p, z);
	return zone_page_state(z, NR_FREE_MOVABLE);
}

/* patch 009 __isolate_free_page(): a lid on concurrent compaction, against
 * all free pages (free blocks alone are what compaction is producing) */
static long hugealloc_rfc_isolate_free_page_free_pages(const struct mm_policy *p, const struct zone *z)
{
	if (!blocks_mode(p))
		return vanilla_compaction_free_pages(p, z);
	return zone_page_state(z, NR_FREE_PAGES);
}

/* cover letter: with no fallbacks, only movable blocks hold movable pages,
 * so compaction scans only those and skips the rest, in every mode */
static bool hugealloc_rfc_suitable_migration_source(const struct mm_policy *p, const struct compact_control *cc,
                                              int block_mt)
{
	if (!H(p)->no_fallback || !p->pgdat->config_compaction)
		return vanilla_suitable_migration_source(p, cc, block_mt);
	return block_mt == MIGRATE_MOVABLE;
}

/* RFC 15/26 and 25/26: the free scanner takes free pages of movable
 * blocks only, at any priority (free blocks are not migration targets) */
static bool hugealloc_rfc_suitable_migration_target(const struct mm_policy *p, const struct compact_control *cc,
                                              int block_mt, unsigned buddy_order)
{
	if (!H(p)->no_fallback || !p->pgdat->config_compaction)
		return vanilla_suitable_migration_target(p, cc, block_mt, buddy_order);
	return block_mt == MIGRATE_MOVABLE;
}

/* patch 009 __compact_finished(): done when the watermarks are restored
 * (against free blocks): the request's for direct compaction, the high
 * watermark for kcompactd */
static bool hugealloc_rfc_compact_finished(const struct mm_policy *p, const struct compact_control *cc)
{
	unsigned long mark;

	if (!blocks_mode(p))
		return vanilla_compact_finished(p, cc);
	mark = p->ops.compaction_wmark(p, cc->zone, cc->direct_compaction, cc->alloc_flags);
	return zone_watermark_ok(p->pgdat, cc->zone, (unsigned)cc->order, mark, cc->highest_zoneidx,
	                         cc->alloc_flags);
}

/* patch 009: kcompactd works toward the high watermark */
static unsigned long hugealloc_rfc_compaction_wmark(const struct mm_policy *p, const struct zone *z, bool direct,
                                              unsigned alloc_flags)
{
	if (!blocks_mode(p) || direct)
		return vanilla_compaction_wmark(p, z, direct, alloc_flags);
	return high_wmark_pages(z);
}

/* RFC 08/26 ("claim blocks during compaction capturing") and 10/26
 * ("allow compaction capturing from larger blocks"), with patch 009's
 * capc->order: a freed page of at least the request's order is captured
 * (split down by the caller); a whole block becomes the request's type;
 * a smaller piece of a movable block is never captured, whatever the
 * request ("do not let lower order allocations pollute a movable
 * pageblock"), so an order-0 request's compaction goes on until its
 * pages merge into a whole block */
static int hugealloc_rfc_compaction_capture(const struct mm_policy *p, const struct capture_control *capc,
                                      unsigned order, int mt)
{
	if (!blocks_mode(p))
		return v62_compaction_capture(capc, order, mt);
	if (order < capc->order)
		return -1;
	if (order >= pageblock_order)
		return capc->migratetype;
	if (mt == MIGRATE_MOVABLE)
		return -1;
	return mt;
}

static bool hugealloc_rfc_compact_retry_costly_limits(const struct mm_policy *p)
{
	return !blocks_mode(p);
}

/* the RFC's changes to compaction and direct reclaim that patch 009's
 * compaction at pageblock order goes with: 14/26 and 19/26 (the retry
 * logic), 21/26 (direct reclaim stops before the zone loop), 009's own
 * removal of fast_find_migrateblock()'s movable-only rule; on with 009 */
static bool hugealloc_rfc_compaction_series(const struct mm_policy *p)
{
	return blocks_mode(p);
}

/* RFC 02/26: GFP_NOFS compactors use the reserves at the highest priority */
static bool hugealloc_rfc_direct_compact_nofs_reserves(const struct mm_policy *p)
{
	(void)p;
	return true;
}

static bool hugealloc_rfc_false(const struct mm_policy *p)
{
	(void)p;
	return false;
}

/* patch 009 wakeup_kswapd(): a balanced node always wakes kcompactd */
static bool hugealloc_rfc_wakeup_kswapd_wakes_kcompactd(const struct mm_policy *p, gfp_t gfp)
{
	return blocks_mode(p) || !(gfp & __GFP_DIRECT_RECLAIM);
}

const struct mm_policy_ops hugealloc_rfc_policy_ops = {
	.name = "hugealloc_rfc",
	/* its name until 2026: it collided with Linux 6.10's "freelist
	 * hygiene", a different, merged series (policies/README.md) */
	.aliases = (const char *const[]){ "hygiene", NULL },
	.desc = "the 2023 RFC 'mm: reliable huge page allocator' (formerly 'hygiene'): MIGRATE_FREE "
	        "blocks, no fallbacks, watermarks on free blocks, no highatomic, no boosting",
	.params = hugealloc_rfc_params,
	.priv_size = sizeof(struct hugealloc_rfc),
	.validate = hugealloc_rfc_validate,
	.boot_pageblock_migratetype = hugealloc_rfc_boot_pageblock_migratetype,
	.fallbacks = hugealloc_rfc_fallbacks,
	.can_steal_fallback = hugealloc_rfc_can_steal_fallback,
	.free_one_page_migratetype = hugealloc_rfc_free_one_page_migratetype,
	.reserve_highatomic_pageblock = NULL,
	.unreserve_highatomic_pageblock = NULL,
	.boost_watermark = NULL,
	.zone_free_pages = hugealloc_rfc_zone_free_pages,
	.watermark_area_ok = hugealloc_rfc_watermark_area_ok,
	.wmark_gap = hugealloc_rfc_wmark_gap,
	.reclaim_order = hugealloc_rfc_order,
	.compact_order = hugealloc_rfc_order,
	.last_resort_fallback = hugealloc_rfc_last_resort_fallback,
	.bdev_mapping_gfp = hugealloc_rfc_bdev_mapping_gfp,
	.reclaim_retry_defers_to_compaction = hugealloc_rfc_reclaim_retry_defers,
	.compaction_suitable_free_pages = hugealloc_rfc_compaction_suitable_free_pages,
	.isolate_free_page_free_pages = hugealloc_rfc_isolate_free_page_free_pages,
	.suitable_migration_source = hugealloc_rfc_suitable_migration_source,
	.suitable_migration_target = hugealloc_rfc_suitable_migration_target,
	.fast_find_migrateblock_any_type = hugealloc_rfc_compaction_series,
	.compact_finished = hugealloc_rfc_compact_finished,
	.compaction_wmark = hugealloc_rfc_compaction_wmark,
	.compaction_capture = hugealloc_rfc_compaction_capture,
	.compact_retry_costly_limits = hugealloc_rfc_compact_retry_costly_limits,
	.compact_retry_three_outcomes = hugealloc_rfc_compaction_series,
	.zonelist_suitable_targets_only = hugealloc_rfc_compaction_series,
	.compaction_ready_before_zones = hugealloc_rfc_compaction_series,
	.direct_compact_nofs_reserves = hugealloc_rfc_direct_compact_nofs_reserves,
	.wakeup_kswapd_wakes_kcompactd = hugealloc_rfc_wakeup_kswapd_wakes_kcompactd,
	.kswapd_compaction_suitable = hugealloc_rfc_kswapd_compaction_suitable,
	/* the RFC's tree is v6.2's: its mm/compaction.c before the series is
	 * the blob v6.2 has, without v6.3's proactive daemon counting
	 * (docs/experiment.md) */
	.proactive_compact_counts_daemon = hugealloc_rfc_false,
};
