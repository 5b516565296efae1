/* defrag_mode.c - Linux 6.15 with vm.defrag_mode=1: the 2025 posting
 * "[PATCH 0/5] mm: reliable huge page allocator" (Johannes Weiner) as
 * merged, on the 6.15 base (v6_15.c), with the fixes that went into 6.15
 * before its release.  Each behaviour-changing patch and each fix is a
 * switch (policies/README.md); 2/5 only adds a trace point.  With
 * defrag_mode=no the policy is v6_15 exactly. */
#include <stdio.h>
#include "internal.h"
#include "policies.h"

extern const struct mm_policy_ops v6_15_policy_ops;

struct defrag_mode {
	bool defrag_mode;               /* vm.defrag_mode */
	bool compaction_suitable_wmark; /* 1/5 */
	bool nofragment;                /* 3/5 */
	bool kswapd_pageblock;          /* 4/5 */
	bool free_blocks_wmark;         /* 5/5 */
	bool fix_retry_oom;             /* "mm: page_alloc: fix defrag_mode's retry & OOM path" */
	bool fix_kswapd_exit;           /* "mm: vmscan: fix kswapd exit condition in defrag_mode" */
};

#define SW(field, def_, help_) \
	{ #field, PARAM_BOOL, .def = def_, .help = help_, PARAM_AT(struct defrag_mode, field) }

static const struct param defrag_mode_params[] = {
	SW(defrag_mode, "yes", "vm.defrag_mode: with no, the policy is v6_15 (the baseline)"),
	SW(compaction_suitable_wmark, "yes", "1/5 'mm: compaction: push watermark into compaction_suitable() "
	   "callers': the migration-target check uses the caller's watermark (no low-watermark boost for "
	   "costly orders)"),
	SW(nofragment, "yes", "3/5 'mm: page_alloc: defrag_mode': ALLOC_NOFRAGMENT on every allocation, fast "
	   "and slow path; no fallback below pageblock order until the retry before OOM; compaction is "
	   "done only by a fallback the allocation may take"),
	SW(kswapd_pageblock, "yes", "4/5 'mm: page_alloc: defrag_mode kswapd/kcompactd assistance': kswapd "
	   "(and through it kcompactd) is woken at pageblock order at least"),
	SW(free_blocks_wmark, "yes", "5/5 'mm: page_alloc: defrag_mode kswapd/kcompactd watermarks': kswapd "
	   "and kcompactd work until the high watermark is met in whole free blocks (NR_FREE_PAGES_BLOCKS)"),
	SW(fix_retry_oom, "yes", "fix 'mm: page_alloc: fix defrag_mode's retry & OOM path' (in 6.15): the "
	   "retry without ALLOC_NOFRAGMENT comes before the OOM killer and clears the flag; no: after the "
	   "OOM killer, keeping it"),
	SW(fix_kswapd_exit, "yes", "fix 'mm: vmscan: fix kswapd exit condition in defrag_mode' (in 6.15): "
	   "kswapd drops to order 0 after compact_gap pages and leaves whole blocks to kcompactd; no: it "
	   "reclaims until the blocks are there"),
	{ NULL },
};

static inline const struct defrag_mode *D(const struct mm_policy *p)
{
	return p->priv;
}

/* 3/5: a fallback counts as "done" only where ALLOC_NOFRAGMENT lets the
 * allocation take it, whole blocks; 5/5: kcompactd is done when the high
 * watermark is met in whole free blocks */
static bool defrag_mode_compact_finished(const struct mm_policy *p, const struct compact_control *cc)
{
	const struct pglist_data *pgdat = cc->zone->zone_pgdat;

	if (!cc->direct_compaction && D(p)->free_blocks_wmark)
		return zone_watermark_ok_free(cc->zone, (unsigned)cc->order, high_wmark_pages(cc->zone),
		                              cc->highest_zoneidx, 0, zone_free_pages_blocks(cc->zone));
	if (!D(p)->nofragment)
		return BASE(p)->compact_finished(p, cc);
	for (unsigned order = (unsigned)cc->order; order < MAX_ORDER; order++) {
		const struct free_area *area = &cc->zone->free_area[order];
		if (!list_empty_pfn(pgdat, area->free_list[cc->migratetype]))
			return true;
		if (order >= pageblock_order &&
		    compact_find_suitable_fallback(pgdat, area, order, cc->migratetype) != -1)
			return true;
	}
	return false;
}

/* 5/5: kcompactd checks the high watermark */
static unsigned long defrag_mode_compaction_wmark(const struct mm_policy *p, const struct zone *z, bool direct,
                                                  unsigned alloc_flags)
{
	if (direct)
		return BASE(p)->compaction_wmark(p, z, direct, alloc_flags);
	return high_wmark_pages(z);
}

static int defrag_mode_validate(struct mm_policy *p, char *err, size_t errlen)
{
	const struct defrag_mode *d = D(p);
	unsigned f = 0;

	if (!d->defrag_mode && (!d->fix_retry_oom || !d->fix_kswapd_exit)) {
		snprintf(err, errlen, "policy %s: the fixes' switches need defrag_mode", p->ops.name);
		return -1;
	}
	p->ops.compact_finished = d->defrag_mode && (d->nofragment || d->free_blocks_wmark)
	                          ? defrag_mode_compact_finished : NULL;
	p->ops.compaction_wmark = d->defrag_mode && d->free_blocks_wmark ? defrag_mode_compaction_wmark : NULL;
	if (d->defrag_mode) {
		if (d->compaction_suitable_wmark)
			f |= MMF_COMPACTION_SUITABLE_CALLER_WMARK;
		if (d->nofragment)
			f |= MMF_ALLOC_NOFRAGMENT | (d->fix_retry_oom ? 0 : MMF_NOFRAGMENT_RETRY_UNFIXED);
		if (d->kswapd_pageblock)
			f |= MMF_KSWAPD_WAKE_PAGEBLOCK;
		if (d->free_blocks_wmark)
			f |= MMF_KSWAPD_BALANCE_FREE_BLOCKS | MMF_KCOMPACTD_FREE_BLOCKS |
			     (d->fix_kswapd_exit ? 0 : MMF_KSWAPD_NO_ORDER_DROP);
	}
	p->ops.features = v6_15_policy_ops.features | f;
	return 0;
}

const struct mm_policy_ops defrag_mode_policy_ops = {
	.name = "defrag_mode",
	.desc = "Linux 6.15 with vm.defrag_mode=1 (2025 'mm: reliable huge page allocator'): no fallback "
	        "below pageblock order, kswapd/kcompactd to the high watermark in whole free blocks",
	.base = &v6_15_policy_ops,
	.params = defrag_mode_params,
	.priv_size = sizeof(struct defrag_mode),
	.validate = defrag_mode_validate,
};
