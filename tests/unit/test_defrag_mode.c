/* test_defrag_mode.c - Linux 6.15's base (policy v6_15) and vm.defrag_mode
 * (policy defrag_mode), switch by switch: each test shows the mechanism of
 * one patch in counters or states, against the same machine with the
 * switch off (or against v6_15 / vanilla).
 *
 * The fixture: DMA32 blocks all claimed MOVABLE by order-0 LRU pages, a
 * sixteenth of block 0's pages freed (scattered, no free block anywhere),
 * so that any unmovable request must fall back into a movable block.
 */
#include "testlib.h"

#define Z32 ZONE_DMA32
#define BLOCK(i) (TL_DMA32_START + (unsigned long)(i) * pageblock_nr_pages)
#define NBLOCKS 4

static struct page *pages[16 * 512];

static struct machine *boot(const char *policy, const char *const *sw, unsigned long nr_blocks)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32(policy, sw, nr_blocks, &s);
	m->pgdat.debug_check_interval = 0;
	return m;
}

/* every page movable and on the LRU; then every 16th of block 0 freed */
static unsigned long fragment(struct machine *m, unsigned long nr_blocks)
{
	unsigned long n = nr_blocks * pageblock_nr_pages, freed = 0;

	for (unsigned long i = 0; i < n; i++) {
		assert_non_null(pages[i] = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
		tl_mark_lru(pages[i]);
	}
	for (unsigned long i = 0; i < pageblock_nr_pages; i += 16) {
		pages[i]->flags &= ~(1u << PG_lru);
		tl_free(m, pages[i], 0);
		freed++;
	}
	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_MOVABLE), nr_blocks);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), (long)freed);
	assert_int_equal(zone_free_pages_blocks(tl_zone(m, Z32)), 0);
	return freed;
}

/* ------------------------------------------------------------------ */
/* the 6.15 base: 6.10's freelist hygiene, 6.15's claim/steal split */

/* An unmovable page from a movable block with too few free pages to
 * claim: v6.2 moves the block's free pages to the unmovable lists and
 * takes one (the rest stay there, in a movable block); 6.15 steals one
 * page and leaves the others on the block's own lists. */
static void test_claim_or_steal(void **state)
{
	static const char *const policies[] = { "vanilla", "v6_15" };
	long on_unmovable[2];
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot(policies[i], NULL, NBLOCKS);
		unsigned long freed = fragment(m, NBLOCKS);

		assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
		assert_int_equal(m->pgdat.extfrag.events, 1);
		assert_int_equal(m->pgdat.extfrag.change_ownership, 0);
		assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_MOVABLE);
		on_unmovable[i] = (long)tl_list_pages(m, Z32, MIGRATE_UNMOVABLE);
		assert_int_equal(tl_list_pages(m, Z32, MIGRATE_MOVABLE) + (unsigned long)on_unmovable[i], freed - 1);
		tl_check(m);
		tl_destroy(m);
	}
	assert_int_equal(on_unmovable[0], (long)(pageblock_nr_pages / 16 - 1));
	assert_int_equal(on_unmovable[1], 0);
}

/* rmqueue_bulk()'s mode (enum rmqueue_mode, in Debian's 6.12 as in 6.15):
 * a pcp refill that had to steal steals the rest of its batch at once.
 * Each __rmqueue() that tries and fails to claim a block below pageblock
 * order boosts the watermarks, so without the mode a refill of eight
 * unmovable pages from the fixture's movable block boosts eight times;
 * with it, once. */
static void test_bulk_steal_mode(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct zone *z;
	(void)state;

	s.user_min_free_kbytes = 0;
	s.watermark_boost_factor = 10000000;    /* cap: high (4) x 1000 = 4000 pages */
	m = tl_boot_dma32("v6_15", NULL, NBLOCKS, &s);
	m->pgdat.debug_check_interval = 0;
	z = tl_zone(m, Z32);
	fragment(m, NBLOCKS);
	assert_int_equal(z->watermark_boost, 0);
	for (unsigned c = 0; c < m->pgdat.nr_cpus; c++)
		z->per_cpu_pageset[c].batch = 8;
	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	/* eight pages stolen, one each, none claimed */
	assert_int_equal(m->pgdat.extfrag.events, 8);
	assert_int_equal(m->pgdat.extfrag.change_ownership, 0);
	assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_MOVABLE);
	/* one failed claim: one boost of a pageblock */
	assert_int_equal(z->watermark_boost, pageblock_nr_pages);
	tl_check(m);
	tl_destroy(m);
}

/* A block that is half free is claimed whole by both (the claim rule did
 * not change), and its free pages go to the request's lists. */
static void test_claim_half_free_block(void **state)
{
	struct machine *m = boot("v6_15", NULL, NBLOCKS);
	(void)state;

	fragment(m, NBLOCKS);
	for (unsigned long i = 1; i < pageblock_nr_pages; i += 2) {
		pages[i]->flags &= ~(1u << PG_lru);
		tl_free(m, pages[i], 0);
	}
	drain_all_pages(&m->pgdat);
	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_int_equal(m->pgdat.extfrag.change_ownership, 1);
	assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_UNMOVABLE);
	assert_int_equal(tl_list_pages(m, Z32, MIGRATE_MOVABLE), 0);
	tl_check(m);
	tl_destroy(m);
}

/* the free side of 6.10's hygiene (MMF_FREELIST_HYGIENE): a free page is
 * on the list of its block's type */

/* the type of the list that holds the free buddy containing pfn, -1 if
 * pfn is not free */
static int free_list_type_of(struct machine *m, unsigned long pfn)
{
	for (unsigned o = 0; o < MAX_ORDER; o++) {
		const struct page *h = tl_page(m, pfn & ~((1ul << o) - 1));
		if (PageBuddy(h) && page_order(h) >= o)
			return (int)h->private;
	}
	return -1;
}

/* all of the zone's blocks allocated as order-9 pages; pages[i] is block i */
static void alloc_blocks(struct machine *m, unsigned long nr_blocks)
{
	for (unsigned long i = 0; i < nr_blocks; i++) {
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, pageblock_order);
		assert_non_null(p);
		assert_int_equal((tl_pfn(m, p) - BLOCK(0)) % pageblock_nr_pages, 0);
		pages[(tl_pfn(m, p) - BLOCK(0)) / pageblock_nr_pages] = p;
	}
	assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 0);
}

/* "fix up block types when merging compatible blocks" (6.10): a free
 * movable block merges with its free buddy block, which is unmovable.
 * v6.2 puts the order-10 page on the movable list and leaves the buddy
 * block unmovable, so the split that follows puts that block's pages on
 * the movable lists of an unmovable block; 6.10 retypes the buddy block. */
static void test_merge_retypes_buddy_block(void **state)
{
	static const char *const policies[] = { "vanilla", "v6_15" };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot(policies[i], NULL, NBLOCKS);
		bool hygiene = i == 1;

		alloc_blocks(m, NBLOCKS);
		set_pageblock_migratetype(&m->pgdat, BLOCK(1), MIGRATE_UNMOVABLE);     /* no free pages */
		tl_free(m, pages[1], pageblock_order);
		drain_all_pages(&m->pgdat);
		assert_int_equal(tl_list_len(m, Z32, pageblock_order, MIGRATE_UNMOVABLE), 1);
		tl_free(m, pages[0], pageblock_order);
		drain_all_pages(&m->pgdat);

		/* both merge into one order-10 page on the freed page's list */
		assert_int_equal(tl_list_len(m, Z32, pageblock_order + 1, MIGRATE_MOVABLE), 1);
		assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_MOVABLE);
		assert_int_equal(tl_block_mt(m, BLOCK(1)), hygiene ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE);
		assert_int_equal(freelist_type_mismatches(&m->pgdat), hygiene ? 0 : 1);

		/* a movable allocation splits it: block 1 goes whole to the
		 * movable list, in an unmovable block under v6.2 */
		assert_non_null(tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
		assert_int_equal(free_list_type_of(m, BLOCK(1)), MIGRATE_MOVABLE);
		assert_int_equal(freelist_type_mismatches(&m->pgdat), hygiene ? 0 : 1);
		tl_check(m);
		tl_destroy(m);
	}
}

/* "remove pcppage migratetype caching" (6.10): a page freed onto a pcp
 * list while its block is movable; the block is then taken by unmovable
 * allocations (retyped, its free pages moved).  When the pcp list is
 * drained, v6.2 frees the page as the type it cached (movable, onto a
 * movable list in an unmovable block); 6.10 as the block's type now. */
static void test_pcp_free_block_type(void **state)
{
	static const char *const policies[] = { "vanilla", "v6_15" };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot(policies[i], NULL, NBLOCKS);
		bool hygiene = i == 1;
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
		struct page *q = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);   /* p's buddy, kept */
		unsigned long pfn;

		assert_non_null(p);
		assert_non_null(q);
		pfn = tl_pfn(m, p);
		assert_int_equal(pageblock_start_pfn(pfn), BLOCK(0));
		assert_int_equal(tl_pfn(m, q), pfn ^ 1);
		tl_free(m, p, 0);
		assert_true(PagePcp(p));
		tl_retype_block(m, BLOCK(0), MIGRATE_UNMOVABLE);
		drain_all_pages(&m->pgdat);

		assert_int_equal(free_list_type_of(m, pfn), hygiene ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE);
		if (hygiene) {
			assert_int_equal(freelist_type_mismatches(&m->pgdat), 0);
			assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), (long)pageblock_nr_pages - 1);
		} else {
			assert_true(freelist_type_mismatches(&m->pgdat) > 0);
		}
		tl_check(m);
		tl_destroy(m);
	}
}

/* split_large_buddy() (6.10's free_one_page()): an order-10 page over a
 * movable and an unmovable block is freed block by block, each as its
 * block's type, and the two merge as the second one's type.  v6.2 frees
 * it whole as its first block's type. */
static void test_free_multi_block_page(void **state)
{
	static const char *const policies[] = { "vanilla", "v6_15" };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot(policies[i], NULL, NBLOCKS);
		bool hygiene = i == 1;
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, pageblock_order + 1);

		assert_non_null(p);
		set_pageblock_migratetype(&m->pgdat, tl_pfn(m, p) + pageblock_nr_pages, MIGRATE_UNMOVABLE);
		tl_free(m, p, pageblock_order + 1);
		assert_int_equal(free_list_type_of(m, tl_pfn(m, p)),
		                 hygiene ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE);
		assert_int_equal(tl_block_mt(m, tl_pfn(m, p)), hygiene ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE);
		assert_int_equal(freelist_type_mismatches(&m->pgdat), hygiene ? 0 : 1);
		tl_check(m);
		tl_destroy(m);
	}
}

/* __isolate_free_page() of half a block (compaction's free scanner) makes
 * the block movable; 6.10 moves the block's other free pages with it,
 * v6.2 leaves them on the unmovable lists. */
static void test_isolate_half_block(void **state)
{
	static const char *const policies[] = { "vanilla", "v6_15" };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot(policies[i], NULL, NBLOCKS);
		bool hygiene = i == 1;
		unsigned long half = BLOCK(0) + pageblock_nr_pages / 2;
		long unmovable;

		assert_non_null(tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
		drain_all_pages(&m->pgdat);     /* block 0: one page used, the rest free in pieces */
		tl_retype_block(m, BLOCK(0), MIGRATE_UNMOVABLE);
		unmovable = tl_stat(m, Z32, NR_FREE_UNMOVABLE);
		assert_int_equal(unmovable, (long)pageblock_nr_pages - 1);
		assert_true(PageBuddy(tl_page(m, half)) && page_order(tl_page(m, half)) == pageblock_order - 1);

		assert_int_equal(__isolate_free_page(tl_zone(m, Z32), half, pageblock_order - 1),
		                 pageblock_nr_pages / 2);
		assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_MOVABLE);
		assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE),
		                 hygiene ? 0 : unmovable - (long)pageblock_nr_pages / 2);
		assert_int_equal(freelist_type_mismatches(&m->pgdat), hygiene ? 0 : pageblock_order - 1);
		tl_check(m);
		tl_destroy(m);
	}
}

/* The invariant checker holds a 6.10+ policy to it: a block retyped
 * without moving its free pages is a violation under v6_15, only counted
 * under vanilla; an isolated block is not held to it (the kernel sets
 * MIGRATE_ISOLATE before it moves the free pages). */
static void test_checker_type_mismatch(void **state)
{
	static const char *const policies[] = { "vanilla", "v6_15" };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot(policies[i], NULL, NBLOCKS);
		bool hygiene = i == 1;

		/* at boot blocks 0 and 1 are one free order-10 page */
		set_pageblock_migratetype(&m->pgdat, BLOCK(1), MIGRATE_UNMOVABLE);
		assert_int_equal(freelist_type_mismatches(&m->pgdat), 1);
		assert_int_equal(check_pgdat(&m->pgdat, "planted mismatch"), hygiene ? 1 : 0);
		set_pageblock_migratetype(&m->pgdat, BLOCK(1), MIGRATE_ISOLATE);
		assert_int_equal(freelist_type_mismatches(&m->pgdat), 0);
		tl_check(m);
		set_pageblock_migratetype(&m->pgdat, BLOCK(1), MIGRATE_MOVABLE);
		tl_check(m);
		tl_destroy(m);
	}
}

/* ------------------------------------------------------------------ */
/* 1/5: compaction_suitable() at the caller's watermark */

/* 1/5 (in 6.15 whatever vm.defrag_mode says): the caller's watermark,
 * and costly orders add low - min on top.  For a caller that passes min
 * (direct compaction, reclaim's checks) that is v6.2's low + gap; for one
 * that passes high (compaction_ready(), kcompactd under 5/5) it is high +
 * gap + (low - min).  All 8192 pages free: over low + gap (3072), not
 * over high + gap + (low - min) (8192). */
static void test_compaction_suitable_wmark(void **state)
{
	static const char *const off[] = { "compaction_suitable_wmark=no", NULL };
	const char *pol[4] = { "v6_15", "defrag_mode", "defrag_mode", "vanilla" };
	const char *const *sw[4] = { NULL, NULL, off, NULL };
	enum compact_result want_high[4] = { COMPACT_SKIPPED, COMPACT_SKIPPED, COMPACT_CONTINUE, COMPACT_CONTINUE };
	(void)state;

	for (int i = 0; i < 4; i++) {
		struct machine *m = boot(pol[i], sw[i], 16);
		struct zone *z = tl_zone(m, Z32);

		z->_watermark[WMARK_MIN] = 2 * pageblock_nr_pages;
		z->_watermark[WMARK_LOW] = 4 * pageblock_nr_pages;
		z->_watermark[WMARK_HIGH] = 12 * pageblock_nr_pages;
		assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 16 * (long)pageblock_nr_pages);
		/* min callers: the same rule before and after */
		assert_int_equal(compaction_suitable_targets(z, pageblock_order, Z32, min_wmark_pages(z)),
		                 COMPACT_CONTINUE);
		assert_int_equal(compaction_suitable_targets(z, pageblock_order, Z32, high_wmark_pages(z)),
		                 want_high[i]);
		tl_destroy(m);
	}
}

/* ------------------------------------------------------------------ */
/* 3/5: ALLOC_NOFRAGMENT everywhere */

/* An atomic unmovable page with only partly used movable blocks free:
 * the 6.15 baseline falls back below pageblock order; defrag_mode does
 * not, and GFP_ATOMIC cannot reclaim or compact: it fails (the case the
 * later "fix defrag_mode for non-reclaimable allocations" addresses). */
static void test_nofragment(void **state)
{
	static const char *const off[] = { "nofragment=no", NULL };
	struct machine *m;
	(void)state;

	m = boot("defrag_mode", NULL, NBLOCKS);
	fragment(m, NBLOCKS);
	assert_null(tl_alloc(m, GFP_ATOMIC, 0));
	assert_int_equal(m->pgdat.extfrag.events, 0);
	tl_destroy(m);

	m = boot("defrag_mode", off, NBLOCKS);
	fragment(m, NBLOCKS);
	assert_non_null(tl_alloc(m, GFP_ATOMIC, 0));
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
	tl_destroy(m);

	m = boot("v6_15", NULL, NBLOCKS);
	fragment(m, NBLOCKS);
	assert_non_null(tl_alloc(m, GFP_ATOMIC, 0));
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
	tl_destroy(m);
}

/* 3/5 leaves compaction alone: for an order-2 unmovable request an
 * order-3 page in a movable block is "done" (the allocation could claim
 * from it under v6.2's and 6.15's rule, find_suitable_fallback()), under
 * defrag_mode too, although ALLOC_NOFRAGMENT will not let the allocation
 * take it (the model had 3/5 narrow the rule to whole blocks; the posting
 * does not touch compaction) */
static void test_nofragment_compact_finished(void **state)
{
	static const char *const off[] = { "nofragment=no", NULL };
	const char *pol[3] = { "v6_15", "defrag_mode", "defrag_mode" };
	const char *const *sw[3] = { NULL, NULL, off };
	(void)state;

	for (int i = 0; i < 3; i++) {
		struct machine *m = boot(pol[i], sw[i], NBLOCKS);
		struct compact_control cc = { 0 };

		fragment(m, NBLOCKS);
		for (unsigned long p = 1; p < 8; p++) {
			if (p % 16 == 0)
				continue;
			pages[pageblock_nr_pages + p]->flags &= ~(1u << PG_lru);
			tl_free(m, pages[pageblock_nr_pages + p], 0);
		}
		pages[pageblock_nr_pages]->flags &= ~(1u << PG_lru);
		tl_free(m, pages[pageblock_nr_pages], 0);
		drain_all_pages(&m->pgdat);
		assert_int_equal(tl_list_len(m, Z32, 3, MIGRATE_MOVABLE), 1);
		cc.zone = tl_zone(m, Z32);
		cc.order = 2;
		cc.migratetype = MIGRATE_UNMOVABLE;
		cc.highest_zoneidx = Z32;
		cc.direct_compaction = true;
		assert_true(m->policy->ops.compact_finished(m->policy, &cc));
		tl_destroy(m);
	}
}

/* The fix "mm: page_alloc: fix defrag_mode's retry & OOM path": nothing to
 * reclaim, free pages between min and high, none in a free block.  With
 * the fix the slow path retries once without ALLOC_NOFRAGMENT before the
 * OOM killer and the page comes from a fallback.  As posted, the retry's
 * mask kept ALLOC_NOFRAGMENT and the retry was taken on every pass: the
 * kernel loops in reclaim and never reaches the OOM killer (the model
 * bounds the loop at MAX_RECLAIM_RETRIES passes and fails the request:
 * more stalls than one pass has, no OOM kill, no fallback). */
static void test_fix_retry_oom(void **state)
{
	static const char *const unfixed[] = { "fix_retry_oom=no", NULL };
	const char *const *sw[2] = { NULL, unfixed };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot("defrag_mode", sw[i], NBLOCKS);
		struct zone *z = tl_zone(m, Z32);
		struct page *p;

		fragment(m, NBLOCKS);
		z->_watermark[WMARK_MIN] = 8;
		z->_watermark[WMARK_LOW] = 16;
		z->_watermark[WMARK_HIGH] = 128;
		m->pgdat.vm_events[ALLOCSTALL_NORMAL] = 0;
		p = tl_alloc(m, GFP_KERNEL, 0);
		assert_int_equal(m->pgdat.vm_events[OOM_KILL], 0);
		if (i == 0) {
			assert_non_null(p);
			assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
			assert_true(m->pgdat.vm_events[ALLOCSTALL_NORMAL] <= 20);
		} else {
			assert_null(p);
			assert_int_equal(m->pgdat.extfrag.events, 0);
			assert_true(m->pgdat.vm_events[ALLOCSTALL_NORMAL] > 20);
		}
		tl_destroy(m);
	}
}

/* ------------------------------------------------------------------ */
/* 4/5: kswapd woken at pageblock order */

static void test_kswapd_pageblock(void **state)
{
	static const char *const off[] = { "kswapd_pageblock=no", NULL };
	const char *pol[3] = { "v6_15", "defrag_mode", "defrag_mode" };
	const char *const *sw[3] = { NULL, NULL, off };
	int want[3] = { 0, pageblock_order, 0 };
	(void)state;

	for (int i = 0; i < 3; i++) {
		struct machine *m = boot(pol[i], sw[i], NBLOCKS);
		struct zone *z = tl_zone(m, Z32);

		fragment(m, NBLOCKS);
		z->_watermark[WMARK_MIN] = 8;
		z->_watermark[WMARK_LOW] = 128;
		z->_watermark[WMARK_HIGH] = 256;
		m->pgdat.kswapd_order = 0;
		(void)tl_alloc(m, GFP_ATOMIC, 0);
		assert_int_equal(m->pgdat.kswapd_order, want[i]);
		tl_destroy(m);
	}
}

/* ------------------------------------------------------------------ */
/* 5/5: kswapd and kcompactd to the high watermark in whole free blocks */

/* one free block and scattered pages: the high watermark is met in all
 * free pages with an order-9 page among them (v6.2's balance for a THP),
 * not in whole free blocks */
static void blocks_case(struct machine *m)
{
	struct zone *z = tl_zone(m, Z32);

	fragment(m, NBLOCKS);
	for (unsigned long i = 0; i < pageblock_nr_pages; i++) {
		pages[3 * pageblock_nr_pages + i]->flags &= ~(1u << PG_lru);
		tl_free(m, pages[3 * pageblock_nr_pages + i], 0);
	}
	for (unsigned long i = 1; i < pageblock_nr_pages; i += 2) {
		pages[pageblock_nr_pages + i]->flags &= ~(1u << PG_lru);
		tl_free(m, pages[pageblock_nr_pages + i], 0);
	}
	drain_all_pages(&m->pgdat);
	assert_int_equal(zone_free_pages_blocks(z), (long)pageblock_nr_pages);
	z->_watermark[WMARK_MIN] = 64;
	z->_watermark[WMARK_LOW] = 128;
	z->_watermark[WMARK_HIGH] = 256;
	/* __zone_watermark_ok() takes the requested page off first */
	assert_true(tl_stat(m, Z32, NR_FREE_PAGES) - (long)(pageblock_nr_pages - 1) > (long)high_wmark_pages(z));
	assert_false(zone_free_pages_blocks(z) - (long)(pageblock_nr_pages - 1) > (long)high_wmark_pages(z));
}

static void test_free_blocks_wmark(void **state)
{
	static const char *const off[] = { "free_blocks_wmark=no", NULL };
	const char *pol[3] = { "v6_15", "defrag_mode", "defrag_mode" };
	const char *const *sw[3] = { NULL, NULL, off };
	bool balanced[3] = { true, false, true };
	(void)state;

	for (int i = 0; i < 3; i++) {
		struct machine *m = boot(pol[i], sw[i], NBLOCKS);
		struct compact_control cc = { 0 };

		blocks_case(m);
		assert_int_equal(pgdat_balanced(&m->pgdat, pageblock_order, Z32), balanced[i]);
		/* order 0 is balanced by all free pages, in every mode */
		assert_true(pgdat_balanced(&m->pgdat, 0, Z32));
		/* kcompactd: done when the order is free (v6.2), or when the
		 * high watermark is met in whole free blocks (5/5) */
		cc.zone = tl_zone(m, Z32);
		cc.order = pageblock_order;
		cc.migratetype = MIGRATE_MOVABLE;
		cc.highest_zoneidx = Z32;
		cc.direct_compaction = false;
		assert_int_equal(m->policy->ops.compact_finished(m->policy, &cc), balanced[i]);
		assert_int_equal(m->policy->ops.compaction_wmark(m->policy, cc.zone, false, 0),
		                 balanced[i] ? min_wmark_pages(cc.zone) : high_wmark_pages(cc.zone));
		tl_destroy(m);
	}
}

/* The fix "mm: vmscan: fix kswapd exit condition in defrag_mode": kswapd
 * woken for a THP reclaims compact_gap pages and drops to order 0
 * (kswapd_shrink_node(), in both); with the fix order 0 is balanced by all
 * free pages, so kswapd is done and whole blocks are kcompactd's work; as
 * posted, order 0 was balanced by whole free blocks too, and kswapd
 * reclaims on. */
static void test_fix_kswapd_exit(void **state)
{
	static const char *const unfixed[] = { "fix_kswapd_exit=no", NULL };
	const char *const *sw[2] = { NULL, unfixed };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot("defrag_mode", sw[i], 16);
		struct pglist_data *pgdat = &m->pgdat;
		struct zone *z = tl_zone(m, Z32);
		struct address_space *as = inode_create(pgdat, 6000, false);
		struct kswapd_run r;
		unsigned long before;

		assert_non_null(as);
		assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 6000), 0);
		z->_watermark[WMARK_MIN] = 1024;
		z->_watermark[WMARK_LOW] = 2048;
		z->_watermark[WMARK_HIGH] = 4096;
		balance_pgdat_begin(pgdat, &r, pageblock_order, Z32);
		for (int step = 0; step < 64 && !r.done && r.nr_reclaimed < 2 * compact_gap(pageblock_order); step++)
			balance_pgdat_step(pgdat, &m->ctx, &r);
		assert_true(r.nr_reclaimed >= compact_gap(pageblock_order));
		assert_int_equal(r.order, 0);
		/* all free pages are over high; whole free blocks are not */
		assert_true(tl_stat(m, Z32, NR_FREE_PAGES) > (long)high_wmark_pages(z));
		assert_false(zone_free_pages_blocks(z) > (long)high_wmark_pages(z));
		assert_int_equal(pgdat_balanced(pgdat, 0, Z32), i == 0);
		before = r.nr_reclaimed;
		balance_pgdat_step(pgdat, &m->ctx, &r);
		if (i == 0) {
			assert_true(r.done);
			assert_int_equal(r.nr_reclaimed, before);
		} else {
			assert_true(r.nr_reclaimed > before);
		}
		balance_pgdat_end(pgdat, &r);
		tl_destroy(m);
	}
}

/* defrag_mode=no is v6_15: the same table */
static void test_off_is_baseline(void **state)
{
	static const char *const off[] = { "defrag_mode=no", NULL };
	struct machine *a = boot("defrag_mode", off, NBLOCKS), *b = boot("v6_15", NULL, NBLOCKS);
	(void)state;

	assert_int_equal(a->policy->ops.features, b->policy->ops.features);
	assert_ptr_equal(a->policy->ops.compact_finished, b->policy->ops.compact_finished);
	assert_ptr_equal(a->policy->ops.compaction_wmark, b->policy->ops.compaction_wmark);
	assert_true(mm_policy_has(b->policy, MMF_PROACTIVE_COMPACT_COUNTS_DAEMON));
	tl_destroy(a);
	tl_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_claim_or_steal, tl_teardown),
		cmocka_unit_test_teardown(test_bulk_steal_mode, tl_teardown),
		cmocka_unit_test_teardown(test_claim_half_free_block, tl_teardown),
		cmocka_unit_test_teardown(test_merge_retypes_buddy_block, tl_teardown),
		cmocka_unit_test_teardown(test_pcp_free_block_type, tl_teardown),
		cmocka_unit_test_teardown(test_free_multi_block_page, tl_teardown),
		cmocka_unit_test_teardown(test_isolate_half_block, tl_teardown),
		cmocka_unit_test_teardown(test_checker_type_mismatch, tl_teardown),
		cmocka_unit_test_teardown(test_compaction_suitable_wmark, tl_teardown),
		cmocka_unit_test_teardown(test_nofragment, tl_teardown),
		cmocka_unit_test_teardown(test_nofragment_compact_finished, tl_teardown),
		cmocka_unit_test_teardown(test_fix_retry_oom, tl_teardown),
		cmocka_unit_test_teardown(test_kswapd_pageblock, tl_teardown),
		cmocka_unit_test_teardown(test_free_blocks_wmark, tl_teardown),
		cmocka_unit_test_teardown(test_fix_kswapd_exit, tl_teardown),
		cmocka_unit_test_teardown(test_off_is_baseline, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
