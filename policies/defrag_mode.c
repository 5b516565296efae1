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
	bool compaction_suitable_wmark; /* 1/5 (in v6_15 too) */
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
	   "callers' (in 6.15 whatever vm.defrag_mode says, so also v6_15's): compaction_suitable() takes the "
	   "caller's watermark and adds low - min for costly orders; compaction_ready() asks for high + gap + "
	   "(low - min), kcompactd under 5/5 the same; no: 6.14's checks"),
	SW(nofragment, "yes", "3/5 'mm: page_alloc: defrag_mode': ALLOC_NOFRAGMENT on every allocation, fast "
	   "and slow path; no fallback below pageblock order until the retry before OOM"),
	SW(kswapd_pageblock, "yes", "4/5 'mm: page_alloc: defrag_mode kswapd/kcompactd assistance': kswapd "
	   "(and through it kcompactd) is woken at pageblock order at least"),
	SW(free_blocks_wmark, "yes", "5/5 'mm: page_alloc: defrag_mode kswapd/kcompactd watermarks': kswapd "
	   "for a high order, and kcompactd, work until the high watermark is met in whole free blocks "
	   "(NR_FREE_PAGES_BLOCKS); kcompactd checks its targets at the high watermark"),
	SW(fix_retry_oom, "yes", "fix 'mm: page_alloc: fix defrag_mode's retry & OOM path' (6.15-rc1): the "
	   "retry before the OOM killer clears ALLOC_NOFRAGMENT and is taken once; no: as 3/5 was posted, its "
	   "mask keeps only ALLOC_NOFRAGMENT and it is taken on every pass, the OOM killer never reached (the "
	   "model bounds that loop and fails the request)"),
	SW(fix_kswapd_exit, "yes", "fix 'mm: vmscan: fix kswapd exit condition in defrag_mode' (6.15-rc3): "
	   "pgdat_balanced() counts whole free blocks only for a high order, so once kswapd_shrink_node() has "
	   "dropped to order 0 after compact_gap pages, all free pages balance the node and kcompactd takes "
	   "over; no: as 5/5 was posted, free blocks at order 0 too, kswapd reclaims until they are there"),
	{ NULL },
};

static inline const struct defrag_mode *D(const struct mm_policy *p)
{
	return p->priv;
}

/* 5/5: kcompactd is done when the high watermark is met in whole free
 * blocks; direct compaction's rule is the base's (3/5 leaves compaction
 * alone) */
static bool defrag_mode_compact_finished(const struct mm_policy *p, const struct compact_control *cc)
{
	if (!cc->direct_compaction)
		return zone_watermark_ok_free(cc->zone, (unsigned)cc->order, high_wmark_pages(cc->zone),
		                              cc->highest_zoneidx, 0, zone_free_pages_blocks(cc->zone));
	return BASE(p)->compact_finished(p, cc);
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
	unsigned f = v6_15_policy_ops.features;

	if (!d->defrag_mode && (!d->fix_retry_oom || !d->fix_kswapd_exit)) {
		snprintf(err, errlen, "policy %s: the fixes' switches need defrag_mode", p->ops.name);
		return -1;
	}
	p->ops.compact_finished = d->defrag_mode && d->free_blocks_wmark ? defrag_mode_compact_finished : NULL;
	p->ops.compaction_wmark = d->defrag_mode && d->free_blocks_wmark ? defrag_mode_compaction_wmark : NULL;
	/* 1/5 is in the 6.15 base whatever vm.defrag_mode says */
	if (!d->compaction_suitable_wmark)
		f &= ~(unsigned)MMF_COMPACTION_SUITABLE_CALLER_WMARK;
	if (d->defrag_mode) {
		if (d->nofragment)
			f |= MMF_ALLOC_NOFRAGMENT | (d->fix_retry_oom ? 0 : MMF_NOFRAGMENT_RETRY_UNFIXED);
		if (d->kswapd_pageblock)
			f |= MMF_KSWAPD_WAKE_PAGEBLOCK;
		if (d->free_blocks_wmark)
			f |= MMF_KSWAPD_BALANCE_FREE_BLOCKS | MMF_KCOMPACTD_FREE_BLOCKS |
			     (d->fix_kswapd_exit ? 0 : MMF_KSWAPD_FREE_BLOCKS_ORDER0);
	}
	p->ops.features = f;
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
