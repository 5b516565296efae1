/* policy.h - the allocator policy interface.
 *
 * The core (sim/mm) is Linux v6.2's control flow.  Where a kernel version
 * makes a different decision, the core calls a hook of the node's policy,
 * named after the kernel function whose behaviour differs.  The table of
 * hooks, which kernel function each stands for, and which patch changes it
 * is policies/README.md.
 *
 * A policy states only what it changes:
 * - a hook it leaves NULL is its base's (.base; NULL: v6.2, whose decisions
 *   live in sim/mm beside the code that asks for them);
 * - a change that is a yes/no in the kernel's code is a declared feature
 *   (.features, MMF_*), read by the core where the kernel reads it;
 * - validate() may trim the instance's copy (clear a hook so that a switch
 *   that is off means "as the base does", add or drop features), and
 *   attach() may once the kernel configuration is known (CONFIG_COMPACTION).
 * Adding a policy is one file in policies/ and one line in policy.c.
 */
#ifndef MMSIM_POLICY_H
#define MMSIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/gfp.h"
#include "mmsim/mmzone.h"
#include "mmsim/param.h"

/* Declared features: kernel behaviour that differs from v6.2 by a yes/no
 * in the code.  Unset: as v6.2.  The patch each stands for is in
 * policies/README.md. */
enum mm_policy_feature {
	/* should_reclaim_retry(): skip the zones' "would reclaiming everything
	 * help" check, leave retrying to compaction (RFC 22/26) */
	MMF_RECLAIM_RETRY_DEFERS_TO_COMPACTION = 1u << 0,
	/* fast_find_migrateblock(): direct compaction for any request type
	 * searches the free lists for a source block (RFC 22/26) */
	MMF_FAST_FIND_MIGRATEBLOCK_ANY_TYPE    = 1u << 1,
	/* should_compact_retry(): no smaller budget and priority floor for
	 * costly orders (RFC 22/26) */
	MMF_NO_COMPACT_RETRY_COSTLY_LIMITS     = 1u << 2,
	/* should_compact_retry(): three outcomes instead of five (RFC 14/26) */
	MMF_COMPACT_RETRY_THREE_OUTCOMES       = 1u << 3,
	/* compaction_zonelist_suitable(): the migration-target check alone
	 * (RFC 19/26) */
	MMF_ZONELIST_SUITABLE_TARGETS_ONLY     = 1u << 4,
	/* shrink_zones(): stop before shrinking when any zone is
	 * compaction-ready (RFC 21/26) */
	MMF_COMPACTION_READY_BEFORE_ZONES      = 1u << 5,
	/* __alloc_pages_direct_compact(): GFP_NOFS at the highest priority
	 * takes from the reserves (RFC 02/26) */
	MMF_DIRECT_COMPACT_NOFS_RESERVES       = 1u << 6,
	/* pgdat_balanced()/kswapd_shrink_node(): a zone where compaction can
	 * go on is balanced; no order-0 drop (RFC 20/26) */
	MMF_KSWAPD_COMPACTION_SUITABLE         = 1u << 7,
	/* proactive_compact_node() counts in compact_daemon_* too (v6.3) */
	MMF_PROACTIVE_COMPACT_COUNTS_DAEMON    = 1u << 8,
	/* one pass that may fall back before OOM (upstream defrag_mode's
	 * final retry, on the RFC) */
	MMF_LAST_RESORT_FALLBACK               = 1u << 9,
	/* the highatomic reserve is compiled out (RFC 23/26) */
	MMF_NO_HIGHATOMIC                      = 1u << 10,
	/* watermark boosting is compiled out (RFC 24/26) */
	MMF_NO_WATERMARK_BOOST                 = 1u << 11,

	/* ---- post-v6.2 code paths (the 6.15 base, defrag_mode) ---- */
	/* __rmqueue(): 6.10's freelist hygiene and 6.15's claim/steal split:
	 * a block is claimed whole or not at all, else one page is stolen
	 * and the rest stays on the block's lists */
	MMF_RMQUEUE_CLAIM_STEAL                = 1u << 12,
	/* compaction_suitable(): the caller's watermark, costly orders adding
	 * low - min on top (v6.2: min, low for costly orders); so
	 * compaction_ready() asks for high + gap + (low - min) and kcompactd
	 * under 5/5 for the same (defrag_mode 1/5, in 6.15 whatever
	 * vm.defrag_mode says) */
	MMF_COMPACTION_SUITABLE_CALLER_WMARK   = 1u << 13,
	/* ALLOC_NOFRAGMENT on every allocation, not dropped by
	 * get_page_from_freelist(); dropped once before OOM (defrag_mode 3/5,
	 * with "fix defrag_mode's retry & OOM path") */
	MMF_ALLOC_NOFRAGMENT                   = 1u << 14,
	/* defrag_mode 3/5 as posted: the retry before the OOM killer keeps
	 * ALLOC_NOFRAGMENT (its mask drops every other flag) and is taken on
	 * every pass, so the OOM killer is never reached (what the retry &
	 * OOM fix corrects) */
	MMF_NOFRAGMENT_RETRY_UNFIXED           = 1u << 15,
	/* wake_all_kswapds(): kswapd (and so kcompactd) woken at pageblock
	 * order at least (defrag_mode 4/5) */
	MMF_KSWAPD_WAKE_PAGEBLOCK              = 1u << 16,
	/* pgdat_balanced(): for order > 0, the high watermark must be met by
	 * NR_FREE_PAGES_BLOCKS (defrag_mode 5/5; hugealloc_rfc's storm
	 * ablation) */
	MMF_KSWAPD_BALANCE_FREE_BLOCKS         = 1u << 17,
	/* kcompactd works until the high watermark is met by
	 * NR_FREE_PAGES_BLOCKS (defrag_mode 5/5) */
	MMF_KCOMPACTD_FREE_BLOCKS              = 1u << 18,
	/* pgdat_balanced(): NR_FREE_PAGES_BLOCKS at order 0 too, so that
	 * kswapd's drop to order 0 after compact_gap pages does not end its
	 * work (defrag_mode 5/5 as posted; "fix kswapd exit condition in
	 * defrag_mode" counts all free pages at order 0) */
	MMF_KSWAPD_FREE_BLOCKS_ORDER0          = 1u << 19,
	/* the free side of 6.10's freelist hygiene: a free page is always on
	 * the list of its block's type.  __free_one_page() retypes a merged
	 * buddy's blocks to the freed page's type ("fix up block types when
	 * merging compatible blocks"); free_pcppages_bulk() frees a page as
	 * its block's type now ("remove pcppage migratetype caching");
	 * free_one_page() frees a multi-block page block by block
	 * (split_large_buddy); __isolate_free_page() moves the block's free
	 * pages with its type; the highatomic reserve types a multi-block
	 * buddy's blocks together; a block straddling its zone's start or
	 * end is not claimed, reserved or retyped (prep_move_freepages_block).
	 * check_pgdat() enforces the invariant */
	MMF_FREELIST_HYGIENE                   = 1u << 20,
	/* compact_{migrate,free}_scanned count a compound page or a free
	 * buddy the scanners step over as all its pages, as 6.12's
	 * isolate_freepages_block() and isolate_migratepages_block() do
	 * (v6.1/v6.2 count it as one).  Counting only: the CPU charged is
	 * still per struct page looked at */
	MMF_COMPACT_SCANNED_COUNTS_SKIPPED     = 1u << 21,
	/* lru_note_cost(): an IO costs SWAP_CLUSTER_MAX and the pages
	 * reclaim scanned without reclaiming (shrink_inactive_list's) or
	 * kept active (shrink_active_list's referenced executable file
	 * pages) add one each, as in Debian's 6.12 mm/swap.c and vmscan.c
	 * (v6.2: IO alone, a page each) */
	MMF_LRU_COST_ROTATIONS                 = 1u << 22,
	/* 6.9, "mm/compaction: enable compacting >0 order folios":
	 * isolate_migratepages_block() migrates a folio below the target
	 * order (skip_isolation_on_order(); any order below pageblock_order
	 * for compact_memory), and compaction_alloc() gives it a free page of
	 * its order from per-order target lists: the free scanner keeps each
	 * isolated buddy whole, the smallest order at least the folio's is
	 * split down, the rest goes back to the buddy allocator with its
	 * order (v6.2: compound pages skipped, targets split to order 0) */
	MMF_COMPACT_LARGE_FOLIOS               = 1u << 24,

	/* ---- TAO (2024, on v6.2) ---- */
	/* gfp_to_alloc_flags(): a request whose highest zone is a policy
	 * zone (ZONE_NOSPLIT, ZONE_NOMERGE) and that cannot reclaim directly
	 * wakes kswapd (ALLOC_KSWAPD) even without __GFP_KSWAPD_RECLAIM, as
	 * android15-6.6's backport of TAO does */
	MMF_POLICY_ZONE_WAKES_KSWAPD           = 1u << 23,
};

struct mm_policy;
struct compact_control;         /* sim/mm/internal.h */

/* A policy zone as the boot command line asks for it (TAO's nosplit=X,Y
 * and nomerge=X,Y, kernelcore= style): X as pages or as a percentage of
 * memory, Y the zone's order.  find_virt_zones() (mm_init.c) carves it. */
struct virt_zone_param {
	unsigned long nr_pages;         /* X in pages (X given as a size) */
	unsigned percent;               /* X as nn% (wins over nr_pages when set) */
	unsigned order;                 /* Y: 0 = no such zone */
};
struct capture_control;

struct mm_policy_ops {
	const char *name;
	/* names the policy was known by before, read as this one (scenario
	 * files, --policy, [policy.OLD] sections, databases); NULL-terminated */
	const char *const *aliases;
	const char *desc;
	/* the policy this one changes; NULL: v6.2 (the core's decisions) */
	const struct mm_policy_ops *base;
	/* MMF_* this policy adds to its base's */
	unsigned features;
	/* the switches: a table (mmsim/param.h) whose fields are in priv;
	 * adding a switch is one entry there.  NULL-name terminated */
	const struct param *params;
	size_t priv_size;

	/* Every hook below is optional: NULL is the base's decision. */

	/* called once all switches are set: reject combinations never run,
	 * trim the instance's table to the switches */
	int  (*validate)(struct mm_policy *, char *err, size_t errlen);
	/* called when the policy is attached to a node (p->pgdat set): trim
	 * what the kernel configuration compiles out */
	void (*attach)(struct mm_policy *);

	/* ---- mm_init.c: the zones at boot ---- */
	/* the policy zones the kernel has and the boot parameters that size
	 * them: fills p[0] (ZONE_NOSPLIT) and p[1] (ZONE_NOMERGE) and returns
	 * true for a kernel with TAO's policy zones; v6.2: false (no such
	 * zones, nothing filled) */
	bool (*policy_zones)(const struct mm_policy *, struct virt_zone_param p[2]);

	/* ---- page_alloc.c: where free pages come from ---- */
	/* memmap_init_zone_range(): type of every pageblock at boot */
	int  (*boot_pageblock_migratetype)(const struct mm_policy *);
	/* fallbacks[][] as find_suitable_fallback() walks it; MIGRATE_TYPES-terminated */
	const int *(*fallbacks)(const struct mm_policy *, int start_mt, unsigned alloc_flags);
	/* can_steal_fallback() */
	bool (*can_steal_fallback)(const struct mm_policy *, unsigned order, int start_mt,
	                           int fallback_mt);
	/* __free_one_page() at done_merging: the type a merged buddy of this
	 * order goes to (and its blocks become, if it differs) */
	int  (*free_one_page_migratetype)(const struct mm_policy *, unsigned order, int mt);

	/* ---- page_alloc.c: watermarks ---- */
	/* free pages a watermark check may count (__zone_watermark_unusable_free
	 * of v6.2, __zone_free_pages of RFC 22/26) */
	long (*zone_free_pages)(const struct mm_policy *, const struct zone *, unsigned alloc_flags);
	/* the tail of __zone_watermark_ok(): is a page of this order usable? */
	bool (*watermark_area_ok)(const struct mm_policy *, const struct free_area *,
	                          unsigned alloc_flags);
	/* __setup_per_zone_wmarks(): the low-min and high-low distance */
	unsigned long (*wmark_gap)(const struct mm_policy *, const struct zone *, unsigned long gap);

	/* ---- slow path: the order reclaim and compaction work toward ---- */
	unsigned (*reclaim_order)(const struct mm_policy *, unsigned order);
	unsigned (*compact_order)(const struct mm_policy *, unsigned order);

	/* ---- compaction.c: what compaction scans, when it is done ---- */
	/* compaction_suitable(): the free pages that must cover the order-0
	 * watermark plus compact_gap (v6.2: NR_FREE_PAGES) */
	long (*compaction_suitable_free_pages)(const struct mm_policy *, const struct zone *);
	/* __isolate_free_page(): the free pages its watermark check counts */
	long (*isolate_free_page_free_pages)(const struct mm_policy *, const struct zone *);
	/* suitable_migration_source(): may the migrate scanner take pages
	 * from a block of this type? */
	bool (*suitable_migration_source)(const struct mm_policy *, const struct compact_control *,
	                                  int block_mt);
	/* suitable_migration_target(): may the free scanner take free pages
	 * from this block?  buddy_order is the order of the free page at the
	 * block's start, 0 if there is none */
	bool (*suitable_migration_target)(const struct mm_policy *, const struct compact_control *,
	                                  int block_mt, unsigned buddy_order);
	/* __compact_finished() past the scanner and pageblock checks: is the
	 * work done? */
	bool (*compact_finished)(const struct mm_policy *, const struct compact_control *);
	/* the watermark at which "the allocation can already succeed"
	 * (compact_zone, kcompactd_node_suitable, kcompactd_do_work) */
	unsigned long (*compaction_wmark)(const struct mm_policy *, const struct zone *, bool direct,
	                                  unsigned alloc_flags);
	/* compaction_capture(): the migratetype a page of this order freed
	 * during direct compaction is captured as, or -1 (not captured) */
	int  (*compaction_capture)(const struct mm_policy *, const struct capture_control *,
	                           unsigned order, int mt);
	/* wakeup_kswapd() on a balanced node: wake kcompactd for this gfp?
	 * (v6.2: only requests that cannot compact themselves) */
	bool (*wakeup_kswapd_wakes_kcompactd)(const struct mm_policy *, gfp_t gfp);

	/* ---- users of memory ---- */
	/* bdev_alloc_inode()'s mapping gfp for the block-device page cache */
	gfp_t (*bdev_mapping_gfp)(const struct mm_policy *);

	/* ---- the kernel's own functions, filled in by mm_policy_create()
	 * from the features (a policy never sets them): NULL = compiled out */
	void (*reserve_highatomic_pageblock)(struct zone *, unsigned long pfn, unsigned order);
	bool (*unreserve_highatomic_pageblock)(struct pglist_data *, int migratetype,
	                                       enum zone_type highest_zoneidx, bool force);
	bool (*boost_watermark)(struct zone *);
};

/* An instance: a copy of the registry's table that the policy's validate()
 * may trim (a switch that removes a feature clears its hook), and the
 * policy's switches. */
struct mm_policy {
	struct mm_policy_ops ops;       /* resolved: no NULL hook but the compiled-out features */
	const struct mm_policy_ops *base; /* the base's resolved table, for "as the base does" */
	struct mm_policy_ops base_ops;  /* (its storage) */
	struct pglist_data *pgdat;      /* set by mm_policy_attach */
	void *priv;                     /* the policy's switches */
};

static inline bool mm_policy_has(const struct mm_policy *p, unsigned feature)
{
	return p->ops.features & feature;
}

/* Registry: the policies mmsim knows, by name. */
extern const struct mm_policy_ops *const mm_policy_table[];
/* by its name or one of its aliases */
const struct mm_policy_ops *mm_policy_find(const char *name);
/* the canonical name of a policy name or alias; name itself if unknown
 * (so that a database's stored names compare whatever name a run used) */
const char *mm_policy_canonical(const char *name);
/* "vanilla, hugealloc_rfc": for messages that list the valid names */
const char *mm_policy_names(void);

int  mm_policy_create(const char *name, struct mm_policy **out, char *err, size_t errlen);
/* from a table that need not be in the registry (tests) */
int  mm_policy_create_ops(const struct mm_policy_ops *, struct mm_policy **out, char *err, size_t errlen);
/* set a switch from text through the policy's table; -1 with the message
 * tail ("'maybe' is not a boolean (yes or no)", "policy P has no switch
 * 'x' (valid: ...)") */
int  mm_policy_set(struct mm_policy *, const char *key, const char *value, char *err, size_t errlen);
int  mm_policy_validate(struct mm_policy *, char *err, size_t errlen);
/* Does the validated instance decide everything as its base does (the
 * same features, every hook the base's)?  defrag_mode with
 * defrag_mode=no is v6_15 (mmsim ablate's "baseline" variant). */
bool mm_policy_is_base(const struct mm_policy *);
void mm_policy_destroy(struct mm_policy *);

/* pgdat_init: the node is known, so is its kernel configuration */
void mm_policy_attach(struct mm_policy *, struct pglist_data *);

/* v6.2's decisions: the table every chain of bases ends in.  Each entry
 * lives in sim/mm beside the code that asks (page_alloc.c, compaction.c,
 * vmscan.c, mm_init.c, filemap.c). */
extern const struct mm_policy_ops mm_v6_2_ops;

#endif
