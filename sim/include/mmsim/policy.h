/* policy.h - the allocator policy interface.
 *
 * The core (sim/mm) is Linux v6.2's control flow.  Where a kernel version
 * makes a different decision, the core calls a hook of the node's policy,
 * named after the kernel function whose behaviour differs.  The table of
 * hooks, which kernel function each stands for, and which RFC patch changes
 * it is policies/README.md.
 *
 * Rules: every hook is mandatory except the three that stand for kernel
 * features the RFC deletes (highatomic reserves, patch 010; watermark
 * boosting, patch 011); NULL there means the feature is compiled out.
 * mm_policy_create() rejects a table that breaks this.
 */
#ifndef MMSIM_POLICY_H
#define MMSIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/gfp.h"
#include "mmsim/mmzone.h"
#include "mmsim/param.h"


struct mm_policy;
struct compact_control;         /* sim/mm/internal.h */
struct capture_control;

struct mm_policy_ops {
	const char *name;
	/* names the policy was known by before, read as this one (scenario
	 * files, --policy, [policy.OLD] sections, databases); NULL-terminated */
	const char *const *aliases;
	const char *desc;
	/* the switches: a table (mmsim/param.h) whose fields are in priv;
	 * adding a switch is one entry there.  NULL-name terminated */
	const struct param *params;
	size_t priv_size;

	/* called once all switches are set: reject combinations never run */
	int  (*validate)(struct mm_policy *, char *err, size_t errlen);

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

	/* ---- reserves: NULL = the feature is absent ---- */
	void (*reserve_highatomic_pageblock)(struct zone *, unsigned long pfn, unsigned order);
	bool (*unreserve_highatomic_pageblock)(struct pglist_data *, int migratetype,
	                                       enum zone_type highest_zoneidx, bool force);
	bool (*boost_watermark)(struct zone *);

	/* ---- page_alloc.c: watermarks ---- */
	/* free pages a watermark check may count (__zone_watermark_unusable_free
	 * of v6.2, __zone_free_pages of patch 009) */
	long (*zone_free_pages)(const struct mm_policy *, const struct zone *, unsigned alloc_flags);
	/* the tail of __zone_watermark_ok(): is a page of this order usable? */
	bool (*watermark_area_ok)(const struct mm_policy *, const struct free_area *,
	                          unsigned alloc_flags);
	/* __setup_per_zone_wmarks(): the low-min and high-low distance */
	unsigned long (*wmark_gap)(const struct mm_policy *, const struct zone *, unsigned long gap);

	/* ---- slow path: the order reclaim and compaction work toward ---- */
	unsigned (*reclaim_order)(const struct mm_policy *, unsigned order);
	unsigned (*compact_order)(const struct mm_policy *, unsigned order);
	/* the last attempt before OOM: may fallbacks into other types' blocks
	 * be taken now?  (the later upstream form of the RFC does so) */
	bool (*last_resort_fallback)(const struct mm_policy *);
	/* should_reclaim_retry(): patch 009 skips the zones' "would reclaiming
	 * everything help" check and leaves retrying to compaction */
	bool (*reclaim_retry_defers_to_compaction)(const struct mm_policy *);

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
	/* fast_find_migrateblock(): may direct compaction for a request that
	 * is not movable look for a source block on the free lists?  (v6.2:
	 * no, so that a movable block is not freed for a small unmovable
	 * request; patch 009: yes, every request compacts toward a block) */
	bool (*fast_find_migrateblock_any_type)(const struct mm_policy *);
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
	/* should_compact_retry(): v6.2's smaller budget and priority floor
	 * for costly orders (patch 009 drops them) */
	bool (*compact_retry_costly_limits)(const struct mm_policy *);
	/* should_compact_retry(): RFC 14/26's three outcomes (progress: retry
	 * up to MAX_COMPACT_RETRIES; skipped: if reclaim can help; anything
	 * else: a higher priority) instead of v6.2's five */
	bool (*compact_retry_three_outcomes)(const struct mm_policy *);
	/* compaction_zonelist_suitable(): RFC 19/26 asks only for migration
	 * targets (v6.2 also counts a zone whose watermark is already met) */
	bool (*zonelist_suitable_targets_only)(const struct mm_policy *);
	/* shrink_zones(): RFC 21/26 stops direct reclaim before shrinking
	 * when any zone is compaction-ready (v6.2 skips the ready zones and
	 * shrinks the node once for the others) */
	bool (*compaction_ready_before_zones)(const struct mm_policy *);
	/* __alloc_pages_direct_compact(): RFC 02/26 lets a GFP_NOFS request
	 * that failed compaction at the highest priority use the reserves */
	bool (*direct_compact_nofs_reserves)(const struct mm_policy *);
	/* wakeup_kswapd() on a balanced node: wake kcompactd for this gfp?
	 * (v6.2: only requests that cannot compact themselves; patch 009: all) */
	bool (*wakeup_kswapd_wakes_kcompactd)(const struct mm_policy *, gfp_t gfp);
	/* pgdat_balanced()/kswapd_shrink_node(): v6.2 drops kswapd to order 0
	 * after compact_gap pages; RFC patch 20 instead counts a zone where
	 * compaction_suitable() says compaction can go on as balanced */
	bool (*kswapd_compaction_suitable)(const struct mm_policy *);
	/* proactive_compact_node(): does kcompactd's proactive scanning count
	 * in compact_daemon_{migrate,free}_scanned too?  (v6.2: no, only
	 * kcompactd_do_work() counts there; v6.3 added proactive runs) */
	bool (*proactive_compact_counts_daemon)(const struct mm_policy *);

	/* ---- users of memory ---- */
	/* bdev_alloc_inode()'s mapping gfp for the block-device page cache */
	gfp_t (*bdev_mapping_gfp)(const struct mm_policy *);
};

/* An instance: a copy of the registry's table that the policy's validate()
 * may trim (a switch that removes a feature clears its hook), and the
 * policy's switches. */
struct mm_policy {
	struct mm_policy_ops ops;
	struct pglist_data *pgdat;      /* set by pgdat_init */
	void *priv;                     /* the policy's switches */
};

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
/* set a switch from text through the policy's table; -1 with the message
 * tail ("'maybe' is not a boolean (yes or no)", "policy P has no switch
 * 'x' (valid: ...)") */
int  mm_policy_set(struct mm_policy *, const char *key, const char *value, char *err, size_t errlen);
int  mm_policy_validate(struct mm_policy *, char *err, size_t errlen);
void mm_policy_destroy(struct mm_policy *);

/* v6.2 decisions, exported so that a policy can build on them */
const int *v62_fallbacks(int start_mt);
bool v62_can_steal_fallback(unsigned order, int start_mt);
bool v62_compact_finished(const struct compact_control *cc);
bool v62_suitable_migration_source(const struct compact_control *cc, int block_mt);
bool v62_suitable_migration_target(const struct compact_control *cc, int block_mt, unsigned buddy_order);
int  v62_compaction_capture(const struct capture_control *capc, unsigned order, int mt);

#endif
