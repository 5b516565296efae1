/* hugealloc_rfc.c - the RFC "mm: reliable huge page allocator" (Johannes
 * Weiner, April 2023, 26 patches) on v6.2; named after the posting
 * (policies/README.md), formerly "hygiene", which is still read as an
 * alias.
 *
 * Each behaviour-changing patch of the posting is a switch, named in its
 * help by the posting's number (RFC NN/26), so that an ablation can turn
 * them off one by one; all are on by default (the RFC as posted), except
 * last_resort_fallback, which is the later upstream form (defrag_mode),
 * and kswapd_balance_free_blocks, the storm ablation.  A switch that is
 * off leaves its hooks unset: v6.2's decision.  Switches that depend on
 * another are rejected without it, as the series was never run that way.
 * Where CONFIG_COMPACTION is off, RFC 22/26 keeps the old watermarks and
 * reclaim orders, and fallbacks stay allowed.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "policies.h"

struct hugealloc_rfc {
	bool bdev_cache_movable;    /* RFC 01/26: block-device page cache is movable */
	bool nofs_compact_reserves; /* RFC 02/26: GFP_NOFS compaction may use the reserves */
	bool capture_claim_block;   /* RFC 08/26: a captured whole block becomes the request's type */
	bool capture_larger;        /* RFC 10/26: capture pages larger than the request */
	bool migrate_free;          /* RFC 11/26: MIGRATE_FREE neutral blocks */
	bool compact_retry_three_outcomes; /* RFC 14/26 */
	bool compaction_suitable_movable;  /* RFC 16/26: migration targets are free movable pages */
	bool zonelist_suitable_targets_only; /* RFC 19/26 */
	bool kswapd_compaction_suitable; /* RFC 20/26: kswapd stops where compaction can go on */
	bool compaction_ready_before_zones; /* RFC 21/26 */
	bool wmark_free_blocks;     /* RFC 22/26: watermarks on free blocks, reclaim/compaction to pageblock order */
	bool no_highatomic;         /* RFC 23/26: kill the highatomic reserve */
	bool no_watermark_boost;    /* RFC 24/26: kill watermark boosting */
	bool no_fallback;           /* RFC 25/26: no fallback into other types' blocks */
	bool last_resort_fallback;  /* one fallback pass before OOM (upstream defrag_mode) */
	bool kswapd_balance_free_blocks; /* storm ablation: defrag_mode 5/5's balance check instead of RFC 20's */
};

#define SW(field, def_, help_) \
	{ #field, PARAM_BOOL, .def = def_, .help = help_, PARAM_AT(struct hugealloc_rfc, field) }

/* The switches: one line each (mmsim/param.h); their fields above. */
static const struct param hugealloc_rfc_params[] = {
	SW(bdev_cache_movable, "yes", "RFC 01/26: allocate block-device page cache GFP_USER|__GFP_MOVABLE"),
	SW(nofs_compact_reserves, "yes", "RFC 02/26: a GFP_NOFS request whose compaction failed at the highest "
	   "priority may use the reserves (ALLOC_NO_WATERMARKS)"),
	SW(capture_claim_block, "yes", "RFC 08/26: a whole block captured during compaction becomes the "
	   "request's migratetype"),
	SW(capture_larger, "yes", "RFC 10/26: compaction captures any freed page of at least the request's "
	   "order (split down), not only one of exactly the order compaction works for"),
	SW(migrate_free, "yes", "RFC 11/26: empty pageblocks are MIGRATE_FREE, claimed by their first allocation"),
	SW(compact_retry_three_outcomes, "yes", "RFC 14/26: should_compact_retry() knows three outcomes "
	   "(progress, skipped, failed) instead of five"),
	SW(compaction_suitable_movable, "yes", "RFC 16/26: compaction_suitable() and compaction_ready() count "
	   "free pages in movable blocks (the migration targets), not all free pages"),
	SW(zonelist_suitable_targets_only, "yes", "RFC 19/26: compaction_zonelist_suitable() asks only for "
	   "migration targets"),
	SW(kswapd_compaction_suitable, "yes", "RFC 20/26: kswapd is balanced once compaction_suitable() says "
	   "compaction can go on, and hands over to kcompactd (no order-0 drop; it sleeps at the order it "
	   "balanced for)"),
	SW(compaction_ready_before_zones, "yes", "RFC 21/26: direct reclaim stops before shrinking when any "
	   "zone is compaction-ready"),
	SW(wmark_free_blocks, "yes", "RFC 22/26: watermarks count free pageblocks; reclaim and compaction work "
	   "toward pageblock order"),
	SW(no_highatomic, "yes", "RFC 23/26: remove the highatomic reserve"),
	SW(no_watermark_boost, "yes", "RFC 24/26: remove watermark boosting"),
	SW(no_fallback, "yes", "RFC 25/26: no fallback into blocks of another type (with compaction); "
	   "compaction scans movable blocks only"),
	SW(last_resort_fallback, "no", "not in the RFC: allow one fallback pass before OOM (the later upstream "
	   "defrag_mode)"),
	SW(kswapd_balance_free_blocks, "no", "storm ablation, not in the RFC: replaces RFC 20/26's kswapd with "
	   "defrag_mode's (6.15): balanced for a high order only when the high watermark is met in whole free "
	   "blocks (NR_FREE_PAGES_BLOCKS, 5/5), the order-0 drop after compact_gap pages kept"),
	{ NULL },
};

static inline const struct hugealloc_rfc *H(const struct mm_policy *p)
{
	return p->priv;
}

static bool blocks_mode(const struct mm_policy *p)
{
	return H(p)->wmark_free_blocks && p->pgdat->config_compaction;
}

/* ---- RFC 11/26: MIGRATE_FREE ---- */

static int hugealloc_rfc_boot_pageblock_migratetype(const struct mm_policy *p)
{
	(void)p;
	return MIGRATE_FREE;
}

/* free blocks are the first fallback of every type */
static const int free_first[MIGRATE_PCPTYPES][4] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_FREE, MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,   MIGRATE_TYPES },
	[MIGRATE_MOVABLE]     = { MIGRATE_FREE, MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, MIGRATE_TYPES },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_FREE, MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE,   MIGRATE_TYPES },
};
static const int free_only[2] = { MIGRATE_FREE, MIGRATE_TYPES };

static const int *hugealloc_rfc_fallbacks(const struct mm_policy *p, int start_mt, unsigned alloc_flags)
{
	/* RFC 25/26 */
	if (H(p)->no_fallback && p->pgdat->config_compaction && !(alloc_flags & ALLOC_LAST_RESORT))
		return free_only;
	return free_first[start_mt];
}

static bool hugealloc_rfc_can_steal_fallback(const struct mm_policy *p, unsigned order, int start_mt,
                                             int fallback_mt)
{
	/* the first allocation in a free block must claim it */
	if (fallback_mt == MIGRATE_FREE)
		return true;
	return BASE(p)->can_steal_fallback(p, order, start_mt, fallback_mt);
}

static int hugealloc_rfc_free_one_page_migratetype(const struct mm_policy *p, unsigned order, int mt)
{
	(void)p;
	/* freed whole pageblocks become neutral again */
	if (order >= pageblock_order && migratetype_is_mergeable(mt))
		return MIGRATE_FREE;
	return mt;
}

static bool hugealloc_rfc_watermark_area_ok(const struct mm_policy *p, const struct free_area *area,
                                            unsigned alloc_flags)
{
	/* a free block's page serves any type */
	if (!list_empty_pfn(p->pgdat, area->free_list[MIGRATE_FREE]))
		return true;
	return BASE(p)->watermark_area_ok(p, area, alloc_flags);
}

/* ---- RFC 22/26: free memory managed in whole pageblocks ---- */

/* __zone_free_pages(): watermarks are met by free blocks */
static long hugealloc_rfc_zone_free_pages(const struct mm_policy *p, const struct zone *z,
                                          unsigned alloc_flags)
{
	long free_pages = zone_page_state(z, NR_FREE_FREE);

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

/* the watermark distances are whole pageblocks, the unit reclaim and
 * compaction produce */
static unsigned long hugealloc_rfc_wmark_gap(const struct mm_policy *p, const struct zone *z,
                                             unsigned long gap)
{
	if (!blocks_mode(p))
		return BASE(p)->wmark_gap(p, z, gap);
	return (gap + pageblock_nr_pages - 1) & ~(unsigned long)(pageblock_nr_pages - 1);
}

/* reclaim and compaction produce neutral blocks */
static unsigned hugealloc_rfc_order(const struct mm_policy *p, unsigned order)
{
	if (!blocks_mode(p))
		return order;
	return order > pageblock_order ? order : pageblock_order;
}

/* __isolate_free_page(): a lid on concurrent compaction, against all free
 * pages (free blocks alone are what compaction is producing) */
static long hugealloc_rfc_isolate_free_page_free_pages(const struct mm_policy *p, const struct zone *z)
{
	if (!blocks_mode(p))
		return BASE(p)->isolate_free_page_free_pages(p, z);
	return zone_page_state(z, NR_FREE_PAGES);
}

/* __compact_finished(): done when the watermarks are restored (against
 * free blocks): the request's for direct compaction, the high watermark
 * for kcompactd */
static bool hugealloc_rfc_compact_finished(const struct mm_policy *p, const struct compact_control *cc)
{
	unsigned long mark;

	if (!blocks_mode(p))
		return BASE(p)->compact_finished(p, cc);
	mark = p->ops.compaction_wmark(p, cc->zone, cc->direct_compaction, cc->alloc_flags);
	return zone_watermark_ok(p->pgdat, cc->zone, (unsigned)cc->order, mark, cc->highest_zoneidx,
	                         cc->alloc_flags);
}

/* kcompactd works toward the high watermark */
static unsigned long hugealloc_rfc_compaction_wmark(const struct mm_policy *p, const struct zone *z,
                                                    bool direct, unsigned alloc_flags)
{
	if (!blocks_mode(p) || direct)
		return BASE(p)->compaction_wmark(p, z, direct, alloc_flags);
	return high_wmark_pages(z);
}

/* wakeup_kswapd(): a balanced node always wakes kcompactd */
static bool hugealloc_rfc_wakeup_kswapd_wakes_kcompactd(const struct mm_policy *p, gfp_t gfp)
{
	return blocks_mode(p) || BASE(p)->wakeup_kswapd_wakes_kcompactd(p, gfp);
}

/* ---- the compaction patches ---- */

/* RFC 16/26 (the form RFC 17/26 refactors): the migration targets are
 * free pages in movable blocks */
static long hugealloc_rfc_compaction_suitable_free_pages(const struct mm_policy *p, const struct zone *z)
{
	if (!p->pgdat->config_compaction)
		return BASE(p)->compaction_suitable_free_pages(p, z);
	return zone_page_state(z, NR_FREE_MOVABLE);
}

/* RFC 25/26: with no fallbacks, only movable blocks hold movable pages,
 * so compaction scans only those and skips the rest, in every mode */
static bool hugealloc_rfc_suitable_migration_source(const struct mm_policy *p, const struct compact_control *cc,
                                                    int block_mt)
{
	if (!p->pgdat->config_compaction)
		return BASE(p)->suitable_migration_source(p, cc, block_mt);
	return block_mt == MIGRATE_MOVABLE;
}

/* RFC 25/26 (with 15/26's free-block check, which MIGRATE_FREE makes
 * redundant): the free scanner takes free pages of movable blocks only,
 * at any priority (free blocks are not migration targets) */
static bool hugealloc_rfc_suitable_migration_target(const struct mm_policy *p, const struct compact_control *cc,
                                                    int block_mt, unsigned buddy_order)
{
	if (!p->pgdat->config_compaction)
		return BASE(p)->suitable_migration_target(p, cc, block_mt, buddy_order);
	return block_mt == MIGRATE_MOVABLE;
}

/* RFC 08/26 ("claim blocks during compaction capturing") and 10/26
 * ("allow compaction capturing from larger blocks"): with 10, a freed
 * page of at least the request's order is captured (split down by the
 * caller), else only one of the order compaction works for (v6.2); with
 * 08, a whole block becomes the request's type; a smaller piece of a
 * movable block is never captured, whatever the request ("do not let
 * lower order allocations pollute a movable pageblock"), so an order-0
 * request's compaction at pageblock order (22) goes on until its pages
 * merge into a whole block */
static int hugealloc_rfc_compaction_capture(const struct mm_policy *p, const struct capture_control *capc,
                                            unsigned order, int mt)
{
	const struct hugealloc_rfc *h = H(p);

	if (!p->pgdat->config_compaction)
		return BASE(p)->compaction_capture(p, capc, order, mt);
	if (h->capture_larger ? order < capc->order : (int)order != capc->compact_order)
		return -1;
	if (order >= pageblock_order)
		return h->capture_claim_block ? capc->migratetype : mt;
	if (mt == MIGRATE_MOVABLE)
		return -1;
	return mt;
}

/* RFC 01/26: the block-device cache is movable (it can be migrated) */
static gfp_t hugealloc_rfc_bdev_mapping_gfp(const struct mm_policy *p)
{
	(void)p;
	return GFP_USER | __GFP_MOVABLE;
}

/* ---- the switches to the instance's table ---- */

#define HOOK(on, hook, fn) (p->ops.hook = (on) ? (fn) : NULL)

static int hugealloc_rfc_validate(struct mm_policy *p, char *err, size_t errlen)
{
	const struct hugealloc_rfc *h = H(p);
	unsigned f = 0;

	if (h->wmark_free_blocks && !h->migrate_free) {
		snprintf(err, errlen, "policy hugealloc_rfc: wmark_free_blocks (RFC 22/26) needs migrate_free (RFC 11/26)");
		return -1;
	}
	if (h->no_fallback && !h->migrate_free) {
		snprintf(err, errlen, "policy hugealloc_rfc: no_fallback (RFC 25/26) needs migrate_free (RFC 11/26)");
		return -1;
	}
	if ((h->no_highatomic || h->no_watermark_boost) && !h->wmark_free_blocks) {
		snprintf(err, errlen, "policy hugealloc_rfc: no_highatomic (RFC 23/26) and no_watermark_boost "
		         "(RFC 24/26) need wmark_free_blocks (RFC 22/26)");
		return -1;
	}
	if (h->last_resort_fallback && !h->no_fallback) {
		snprintf(err, errlen, "policy hugealloc_rfc: last_resort_fallback only makes sense with no_fallback");
		return -1;
	}
	if (h->kswapd_balance_free_blocks && !h->kswapd_compaction_suitable) {
		snprintf(err, errlen, "policy hugealloc_rfc: kswapd_balance_free_blocks replaces RFC 20/26's check: "
		         "it needs kswapd_compaction_suitable");
		return -1;
	}
	HOOK(h->bdev_cache_movable, bdev_mapping_gfp, hugealloc_rfc_bdev_mapping_gfp);
	HOOK(h->capture_claim_block || h->capture_larger, compaction_capture, hugealloc_rfc_compaction_capture);
	HOOK(h->migrate_free, boot_pageblock_migratetype, hugealloc_rfc_boot_pageblock_migratetype);
	HOOK(h->migrate_free, fallbacks, hugealloc_rfc_fallbacks);
	HOOK(h->migrate_free, can_steal_fallback, hugealloc_rfc_can_steal_fallback);
	HOOK(h->migrate_free, free_one_page_migratetype, hugealloc_rfc_free_one_page_migratetype);
	HOOK(h->migrate_free, watermark_area_ok, hugealloc_rfc_watermark_area_ok);
	HOOK(h->compaction_suitable_movable, compaction_suitable_free_pages,
	     hugealloc_rfc_compaction_suitable_free_pages);
	HOOK(h->wmark_free_blocks, zone_free_pages, hugealloc_rfc_zone_free_pages);
	HOOK(h->wmark_free_blocks, wmark_gap, hugealloc_rfc_wmark_gap);
	HOOK(h->wmark_free_blocks, reclaim_order, hugealloc_rfc_order);
	HOOK(h->wmark_free_blocks, compact_order, hugealloc_rfc_order);
	HOOK(h->wmark_free_blocks, isolate_free_page_free_pages, hugealloc_rfc_isolate_free_page_free_pages);
	HOOK(h->wmark_free_blocks, compact_finished, hugealloc_rfc_compact_finished);
	HOOK(h->wmark_free_blocks, compaction_wmark, hugealloc_rfc_compaction_wmark);
	HOOK(h->wmark_free_blocks, wakeup_kswapd_wakes_kcompactd, hugealloc_rfc_wakeup_kswapd_wakes_kcompactd);
	HOOK(h->no_fallback, suitable_migration_source, hugealloc_rfc_suitable_migration_source);
	HOOK(h->no_fallback, suitable_migration_target, hugealloc_rfc_suitable_migration_target);

	if (h->nofs_compact_reserves)
		f |= MMF_DIRECT_COMPACT_NOFS_RESERVES;
	if (h->compact_retry_three_outcomes)
		f |= MMF_COMPACT_RETRY_THREE_OUTCOMES;
	if (h->zonelist_suitable_targets_only)
		f |= MMF_ZONELIST_SUITABLE_TARGETS_ONLY;
	if (h->kswapd_compaction_suitable)
		f |= h->kswapd_balance_free_blocks ? MMF_KSWAPD_BALANCE_FREE_BLOCKS : MMF_KSWAPD_COMPACTION_SUITABLE;
	if (h->compaction_ready_before_zones)
		f |= MMF_COMPACTION_READY_BEFORE_ZONES;
	if (h->wmark_free_blocks)
		f |= MMF_RECLAIM_RETRY_DEFERS_TO_COMPACTION | MMF_FAST_FIND_MIGRATEBLOCK_ANY_TYPE |
		     MMF_NO_COMPACT_RETRY_COSTLY_LIMITS;
	if (h->no_highatomic)
		f |= MMF_NO_HIGHATOMIC;
	if (h->no_watermark_boost)
		f |= MMF_NO_WATERMARK_BOOST;
	if (h->last_resort_fallback)
		f |= MMF_LAST_RESORT_FALLBACK;
	p->ops.features = f;
	return 0;
}

/* CONFIG_COMPACTION=n compiles out the compaction patches' changes to
 * reclaim and the retry logic */
static void hugealloc_rfc_attach(struct mm_policy *p)
{
	if (!p->pgdat->config_compaction)
		p->ops.features &= ~(unsigned)(MMF_COMPACT_RETRY_THREE_OUTCOMES | MMF_ZONELIST_SUITABLE_TARGETS_ONLY |
		                               MMF_KSWAPD_COMPACTION_SUITABLE | MMF_KSWAPD_BALANCE_FREE_BLOCKS |
		                               MMF_COMPACTION_READY_BEFORE_ZONES |
		                               MMF_RECLAIM_RETRY_DEFERS_TO_COMPACTION |
		                               MMF_FAST_FIND_MIGRATEBLOCK_ANY_TYPE | MMF_NO_COMPACT_RETRY_COSTLY_LIMITS);
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
	.attach = hugealloc_rfc_attach,
	/* the RFC's tree is v6.2's: its mm/compaction.c before the series is
	 * the blob v6.2 has, without v6.3's proactive daemon counting
	 * (docs/experiment.md): no MMF_PROACTIVE_COMPACT_COUNTS_DAEMON */
};
