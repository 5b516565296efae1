/* test_hugealloc_rfc.c - the RFC's pageblock hygiene ("mm: reliable huge page
 * allocator"): MIGRATE_FREE blocks at boot, claimed whole by their first
 * allocation and neutral again once wholly free (RFC 11/26); no fallback
 * into another type's blocks (cover letter), and the last-resort switch;
 * watermarks counted on free blocks (RFC 22/26); no highatomic reserve
 * (RFC 23/26) and no watermark boosting (RFC 24/26); the switches and their
 * validation; CONFIG_COMPACTION=n keeping v6.2's fallbacks and counts.
 */
#include "testlib.h"
#include "random_alloc.h"

#define MOVC (GFP_HIGHUSER_MOVABLE | __GFP_COMP)
#define RECL (GFP_KERNEL | __GFP_RECLAIMABLE)
#define Z32  ZONE_DMA32
#define BLOCK(i) (TL_DMA32_START + (unsigned long)(i) * pageblock_nr_pages)

static struct machine *boot_small(const char *policy, const char *const *sw, unsigned long nr_blocks)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32(policy, sw, nr_blocks, &s);
	assert_int_equal(tl_zone(m, Z32)->_watermark[WMARK_HIGH], 0);
	assert_int_equal(tl_zone(m, Z32)->per_cpu_pageset[0].batch, 1);
	return m;
}

/* ------------------------------------------------------------------ */
/* RFC 11/26: MIGRATE_FREE */

static void test_boot_free_blocks(void **state)
{
	struct mm_layout l;
	char err[256];
	struct vm_sysctl s = tl_sysctl();
	struct machine *h, *v;
	(void)state;

	assert_int_equal(mm_layout_qemu(128ull << 20, 0, &l, err, sizeof(err)), 0);
	h = tl_boot("hygiene", NULL, &l, 2, &s);
	v = tl_boot("vanilla", NULL, &l, 2, &s);
	for (int zi = ZONE_DMA; zi <= ZONE_DMA32; zi++) {
		enum zone_type z = (enum zone_type)zi;
		unsigned long blocks = tl_zone_blocks(h, z);
		assert_true(blocks > 0);
		assert_int_equal(tl_count_blocks(h, z, MIGRATE_FREE), blocks);
		assert_int_equal(tl_count_blocks(v, z, MIGRATE_MOVABLE), blocks);
		assert_int_equal(tl_count_blocks(v, z, MIGRATE_FREE), 0);
		assert_int_equal(tl_stat(h, z, NR_FREE_FREE), (long)tl_zone(h, z)->managed_pages);
		assert_int_equal(tl_stat(h, z, NR_FREE_PAGES), (long)tl_zone(h, z)->managed_pages);
		assert_int_equal(tl_stat(h, z, NR_FREE_MOVABLE), 0);
		assert_int_equal(tl_stat(v, z, NR_FREE_FREE), 0);
		assert_int_equal(tl_stat(v, z, NR_FREE_MOVABLE), (long)tl_zone(v, z)->managed_pages);
	}
	/* every block of the node, also those without managed pages */
	for (unsigned long b = 0; b < h->pgdat.nr_pageblocks; b++)
		assert_int_equal(tl_block_mt(h, b << pageblock_order), MIGRATE_FREE);
	/* RFC 23/26, 24/26: the features are compiled out */
	assert_null(h->policy->ops.reserve_highatomic_pageblock);
	assert_null(h->policy->ops.unreserve_highatomic_pageblock);
	assert_null(h->policy->ops.boost_watermark);
	assert_non_null(v->policy->ops.reserve_highatomic_pageblock);
	assert_non_null(v->policy->ops.boost_watermark);
}

/* The first allocation of each type claims a free order-10 buddy: both
 * of its blocks become that type; nothing else changes type. */
static void test_first_allocation_claims(void **state)
{
	struct machine *m = boot_small("hygiene", NULL, 8);
	const struct extfrag_stats *ef = &m->pgdat.extfrag;
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE, RECL };
	static const int mts[] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE };
	(void)state;

	for (int i = 0; i < 3; i++) {
		struct page *p = tl_alloc(m, gfps[i], 0);
		unsigned long pfn;

		assert_non_null(p);
		pfn = tl_pfn(m, p);
		assert_int_equal(tl_block_mt(m, pfn), mts[i]);
		assert_int_equal(tl_block_mt(m, pfn ^ pageblock_nr_pages), mts[i]);
		assert_int_equal(tl_count_blocks(m, Z32, mts[i]), 2);
		assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 8 - 2 * (i + 1));
		assert_int_equal(ef->events, (unsigned long)i + 1);
		assert_int_equal(ef->change_ownership, (unsigned long)i + 1);
		assert_int_equal(ef->by_type[mts[i]][MIGRATE_FREE], 1);
		assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 4096 - 1024 * (i + 1));
		assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE + mts[i]), 1023);
		/* the second allocation of the type stays in its blocks */
		p = tl_alloc(m, gfps[i], 0);
		assert_non_null(p);
		assert_int_equal(tl_block_mt(m, tl_pfn(m, p)), mts[i]);
		assert_int_equal(ef->events, (unsigned long)i + 1);
	}
	assert_int_equal(ef->fragmenting, 0);
}

/* A block whose pages are all freed (pcp drained) is FREE again. */
static void test_freed_block_returns_to_free(void **state)
{
	struct machine *m = boot_small("hygiene", NULL, 4);
	struct page *a, *b, *big;
	unsigned long block;
	(void)state;

	a = tl_alloc(m, GFP_KERNEL, 0);
	b = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(a);
	assert_non_null(b);
	block = pageblock_start_pfn(tl_pfn(m, a));
	assert_int_equal(pageblock_start_pfn(tl_pfn(m, b)), block);
	assert_int_equal(tl_block_mt(m, block), MIGRATE_UNMOVABLE);

	tl_free(m, a, 0);
	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_block_mt(m, block), MIGRATE_UNMOVABLE);    /* b still there */

	tl_free(m, b, 0);
	assert_true(PagePcp(b));
	assert_int_equal(tl_block_mt(m, block), MIGRATE_UNMOVABLE);    /* on the pcp list */
	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 4);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 2048);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), 0);
	assert_int_equal(tl_list_len(m, Z32, 10, MIGRATE_FREE), 2);

	/* orders that bypass the pcp lists return the block at once; a
	 * pageblock-order page goes through the pcp list and the drain */
	big = tl_alloc(m, RECL, 10);
	assert_non_null(big);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_RECLAIMABLE), 2);
	tl_free(m, big, 10);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 4);
	big = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 9);
	assert_non_null(big);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_MOVABLE), 2);
	tl_free(m, big, 9);
	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 4);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 2048);
}

/* A FREE block that is not wholly managed (reserved pages at the zone's
 * start, as around the kernel image) has only small free buddies; it is
 * claimed all the same, by any request type, even a movable order-0 one
 * that could not steal another type's block (can_steal_fallback). */
static void test_claim_partial_free_block(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32(5);
	struct machine *m;
	struct page *p;
	(void)state;

	l.zone[ZONE_DMA32].managed_start = TL_DMA32_START + 504;
	l.zone[ZONE_DMA32].managed = 8 + 4 * 512;
	m = tl_boot("hygiene", NULL, &l, 1, &s);
	assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_FREE);
	assert_int_equal(tl_list_first(m, Z32, 3, MIGRATE_FREE), TL_DMA32_START + 504);
	/* the whole blocks are claimed by movable pages */
	assert_non_null(tl_alloc(m, MOVC, 10));
	assert_non_null(tl_alloc(m, MOVC, 9));
	assert_non_null(tl_alloc(m, MOVC, 9));
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 8);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 1);

	p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_int_equal(tl_pfn(m, p), TL_DMA32_START + 504);
	assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_MOVABLE);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 0);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 0);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_MOVABLE), 7);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_MOVABLE][MIGRATE_FREE], 4);

	/* freed again, its pages merge back only to order 3 (the reserved
	 * pages are not free): below pageblock order nothing returns the
	 * block to FREE, in the model as in RFC 11/26's __free_one_page */
	tl_free(m, p, 0);
	drain_all_pages(&m->pgdat);
	assert_true(PageBuddy(p) && page_order(p) == 3);
	assert_int_equal(tl_block_mt(m, BLOCK(0)), MIGRATE_MOVABLE);
}

/* ------------------------------------------------------------------ */
/* type mixing: the same requests on both policies */

struct seq_result {
	unsigned long movable_ok, unmovable_ok, unmovable_failed;
	bool two_types_in_a_block;      /* pages of two request types in one block */
	bool page_off_type;             /* a page in a block of another type */
	unsigned long census_mixed;
};

/* A 4-block zone: movable order-0 pages (LRU) until memory or the
 * watermark runs out; every other one freed; then 32 unmovable pages. */
static void run_sequence(struct machine *m, struct seq_result *r)
{
	enum { MAXP = 2048 + 64 };
	struct page **pg = calloc(MAXP, sizeof(*pg));
	int *mt = calloc(MAXP, sizeof(*mt));
	unsigned char *types = calloc(m->pgdat.nr_pageblocks, 1);
	unsigned n = 0, n1;
	struct block_census c;

	assert_non_null(pg);
	assert_non_null(mt);
	assert_non_null(types);
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 2048; i++) {
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
		if (!p)
			break;
		tl_mark_lru(p);
		pg[n] = p;
		mt[n++] = MIGRATE_MOVABLE;
	}
	r->movable_ok = n1 = n;
	for (unsigned i = 0; i < n1; i += 2) {
		tl_free(m, pg[i], 0);
		pg[i] = NULL;
	}
	drain_all_pages(&m->pgdat);
	for (int i = 0; i < 32; i++) {
		struct page *p = tl_alloc(m, GFP_KERNEL, 0);
		if (!p) {
			r->unmovable_failed++;
			continue;
		}
		p->owner = PGOWN_KMEM;
		pg[n] = p;
		mt[n++] = MIGRATE_UNMOVABLE;
		r->unmovable_ok++;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned long pfn;
		if (!pg[i])
			continue;
		pfn = tl_pfn(m, pg[i]);
		types[pfn >> pageblock_order] |= (unsigned char)(1u << mt[i]);
		if (tl_block_mt(m, pfn) != mt[i])
			r->page_off_type = true;
	}
	for (unsigned long b = 0; b < m->pgdat.nr_pageblocks; b++)
		if (__builtin_popcount(types[b]) > 1)
			r->two_types_in_a_block = true;
	pageblock_census(&m->pgdat, &c);
	for (int t = 0; t < MIGRATE_TYPES; t++)
		r->census_mixed += c.mixed_blocks[t];
	free(pg);
	free(mt);
	free(types);
}

static void test_mixing_vanilla_vs_hygiene(void **state)
{
	struct seq_result v, h;
	(void)state;

	run_sequence(boot_small("vanilla", NULL, 4), &v);
	run_sequence(boot_small("hygiene", NULL, 4), &h);

	/* vanilla: every page allocated, the unmovable ones fell back into
	 * a block holding LRU pages and claimed it */
	assert_int_equal(v.movable_ok, 2048);
	assert_int_equal(v.unmovable_ok, 32);
	assert_true(v.page_off_type);
	assert_true(v.two_types_in_a_block);
	assert_true(v.census_mixed > 0);

	/* hygiene: the movable requests stopped when no FREE page was left
	 * above the (zero) watermark: the 1025th claimed the second buddy.
	 * Its one page was freed again, so that buddy was FREE for the first
	 * unmovable request; the other 31 failed instead of falling back.
	 * No block holds two types; every page is in a block of its type. */
	assert_int_equal(h.movable_ok, 1025);
	assert_int_equal(h.unmovable_ok, 1);
	assert_int_equal(h.unmovable_failed, 31);
	assert_false(h.two_types_in_a_block);
	assert_false(h.page_off_type);
	assert_int_equal(h.census_mixed, 0);
}

/* A randomized mixed load (workloads/random_alloc): hygiene leaves no
 * mixed block, and once everything is freed every block is FREE again;
 * both policies return every page.  (Whether vanilla mixes under this
 * load depends on the seed: the directed test above shows that it does.) */
static void test_random_load_census(void **state)
{
	static const char *const policies[] = { "vanilla", "hygiene" };
	unsigned long mixed[2] = { 0, 0 };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct vm_sysctl s = tl_sysctl();
		struct mm_layout l = tl_layout_dma32(16);
		struct machine *m = tl_boot(policies[i], NULL, &l, 2, &s);
		struct random_alloc_params p;
		struct random_alloc_stats st;
		struct block_census c;

		m->pgdat.debug_check_interval = 211;
		random_alloc_defaults(&p);
		p.seed = 7;
		p.ops = 30000;
		p.occupancy = 0.8;
		p.check_every = 0;
		assert_int_equal(random_alloc_run(&m->pgdat, &p, &st, 1), 0);
		assert_true(st.live_pages > 0);
		tl_check(m);
		pageblock_census(&m->pgdat, &c);
		for (int t = 0; t < MIGRATE_TYPES; t++)
			mixed[i] += c.mixed_blocks[t];
		random_alloc_release(&m->pgdat);
		drain_all_pages(&m->pgdat);
		tl_check(m);
		assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 16 * 512);
		if (i == 1) {
			assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 16);
			assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 16 * 512);
		}
		tl_destroy(m);
	}
	assert_int_equal(mixed[1], 0);
}

/* ------------------------------------------------------------------ */
/* no fallback into other types' blocks, and the last resort */

/* Four blocks, all claimed MOVABLE by movable pages of orders 8, 9 and 10:
 * one order-8 buddy (256 pages) stays free in a MOVABLE block, no FREE
 * block is left and no unmovable space.  Returns the free buddy's pfn. */
static unsigned long claim_all_movable(struct machine *m)
{
	unsigned long pfn;

	assert_non_null(tl_alloc(m, MOVC, 8));
	assert_non_null(tl_alloc(m, MOVC, 9));
	assert_non_null(tl_alloc(m, MOVC, 10));
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_MOVABLE), 4);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 0);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_MOVABLE), 256);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), 0);
	assert_int_equal(tl_pcp_count(m, Z32, 0), 0);
	pfn = tl_list_first(m, Z32, 8, MIGRATE_MOVABLE);
	assert_true(pfn != PFN_NONE);
	return pfn;
}

/* Default switches: the unmovable request fails, even for a reclaimer
 * that may ignore the watermarks (PF_MEMALLOC): no fallback. */
static void test_no_fallback(void **state)
{
	struct machine *m = boot_small("hygiene", NULL, 4);
	struct mm_ctx memalloc = { .cpu = 0, .flags = PF_MEMALLOC };
	(void)state;

	claim_all_movable(m);
	assert_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_null(tl_alloc(m, RECL, 0));
	assert_null(alloc_pages(&m->pgdat, &memalloc, GFP_KERNEL, 0));
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 0);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_RECLAIMABLE][MIGRATE_MOVABLE], 0);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_MOVABLE), 4);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_MOVABLE), 256);
	/* the reserves pass may still use the own-type space */
	assert_non_null(alloc_pages(&m->pgdat, &memalloc, GFP_HIGHUSER_MOVABLE, 0));
}

/* With watermarks on all free pages (RFC 22/26 off), the fallback rule alone
 * decides: fails without the last resort, succeeds with it. */
static void test_last_resort_fallback_wmark_all(void **state)
{
	static const char *const off[] = { "wmark_free_blocks=no", "no_highatomic=no",
	                                   "no_watermark_boost=no", NULL };
	static const char *const on[] = { "wmark_free_blocks=no", "no_highatomic=no",
	                                  "no_watermark_boost=no", "last_resort_fallback=yes", NULL };
	struct machine *m;
	struct page *p;
	unsigned long pfn;
	(void)state;

	m = boot_small("hygiene", off, 4);
	claim_all_movable(m);
	assert_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_int_equal(m->pgdat.extfrag.events, 2);   /* the two FREE claims */
	tl_destroy(m);

	m = boot_small("hygiene", on, 4);
	pfn = claim_all_movable(m);
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(tl_pfn(m, p), pfn);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
}

/* The RFC's default switches plus last_resort_fallback=yes: when no FREE
 * block and no own-type space is left, the last-resort pass falls back
 * into a MOVABLE block instead of failing. */
static void test_last_resort_fallback(void **state)
{
	static const char *const on[] = { "last_resort_fallback=yes", NULL };
	struct machine *m;
	struct page *p;
	unsigned long pfn;
	(void)state;

	m = boot_small("hygiene", on, 4);
	assert_true(mm_policy_has(m->policy, MMF_LAST_RESORT_FALLBACK));
	pfn = claim_all_movable(m);
	p = tl_alloc(m, GFP_KERNEL, 0);
	if (!p)
		fail_msg("last_resort_fallback=yes: the unmovable request failed with %ld free "
		         "MOVABLE pages; the last-resort pass is still checked against "
		         "NR_FREE_FREE (0) by hygiene_zone_free_pages",
		         tl_stat(m, Z32, NR_FREE_MOVABLE));
	assert_int_equal(tl_pfn(m, p), pfn);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
}

/* ------------------------------------------------------------------ */
/* RFC 22/26: watermarks on free blocks */

static void test_watermarks_count_free_blocks(void **state)
{
	struct machine *m = boot_small("hygiene", NULL, 8);
	struct zone *z = tl_zone(m, Z32);
	long free_free, free_all;
	(void)state;

	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	free_free = tl_stat(m, Z32, NR_FREE_FREE);
	free_all = tl_stat(m, Z32, NR_FREE_PAGES);
	assert_int_equal(free_free, 3072);
	assert_int_equal(free_all, 4095);
	assert_true(zone_watermark_ok(&m->pgdat, z, 0, (unsigned long)free_free - 1, Z32, ALLOC_WMARK_MIN));
	assert_false(zone_watermark_ok(&m->pgdat, z, 0, (unsigned long)free_free, Z32, ALLOC_WMARK_MIN));
	assert_false(zone_watermark_ok(&m->pgdat, z, 0, (unsigned long)free_all - 1, Z32, ALLOC_WMARK_MIN));
	/* a high-order check finds a FREE buddy of the order */
	assert_true(zone_watermark_ok(&m->pgdat, z, 10, 0, Z32, ALLOC_WMARK_MIN));
	tl_destroy(m);

	/* vanilla counts every free page */
	m = boot_small("vanilla", NULL, 8);
	z = tl_zone(m, Z32);
	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_true(zone_watermark_ok(&m->pgdat, z, 0, (unsigned long)free_all - 1, Z32, ALLOC_WMARK_MIN));
	assert_false(zone_watermark_ok(&m->pgdat, z, 0, (unsigned long)free_all, Z32, ALLOC_WMARK_MIN));
	tl_destroy(m);

	/* so hygiene fails an allocation once no FREE page is above min,
	 * though pages of the type's own blocks are free */
	m = boot_small("hygiene", NULL, 4);
	claim_all_movable(m);
	assert_null(tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
}

/* RFC 20/26 with RFC 17/26's compaction_suitable(): kswapd is balanced for
 * a THP once compaction has migration targets (free pages in movable
 * blocks above low + compact_gap), even though the order is free at the
 * min watermark.  v6.2's compaction_suitable() answers SUCCESS there
 * ("can already succeed"), which is not CONTINUE: kswapd reclaimed on,
 * and hygiene runs evicted the page cache and swapped in storms. */
static void kswapd_case(struct machine *m, struct page **pages)
{
	struct zone *z = tl_zone(m, Z32);
	unsigned long n = 0;

	/* 8 of the 16 blocks movable, three pages in four of them freed:
	 * 3072 free movable pages, no movable block wholly free */
	for (unsigned i = 0; i < 8 * pageblock_nr_pages; i++)
		assert_non_null(pages[i] = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
	for (unsigned i = 0; i < 8 * pageblock_nr_pages; i++)
		if (i % 4 != 3) {
			tl_free(m, pages[i], 0);
			n++;
		}
	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_MOVABLE), 8);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_MOVABLE), (long)n);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 8 * pageblock_nr_pages);
	/* min 2 blocks, low 3, high 9: the free blocks (8) are under high */
	z->_watermark[WMARK_MIN] = 2 * pageblock_nr_pages;
	z->_watermark[WMARK_LOW] = 3 * pageblock_nr_pages;
	z->_watermark[WMARK_HIGH] = 9 * pageblock_nr_pages;
	assert_true(n > low_wmark_pages(z) + compact_gap(pageblock_order));
	assert_false(zone_watermark_ok(&m->pgdat, z, pageblock_order, high_wmark_pages(z), Z32, 0));
	assert_true(zone_watermark_ok(&m->pgdat, z, pageblock_order, min_wmark_pages(z), Z32, 0));
}

static void test_kswapd_compaction_suitable(void **state)
{
	static struct page *pages[8 * 512];
	const char *const off[] = { "kswapd_compaction_suitable=no", NULL };
	struct machine *m;
	(void)state;

	m = boot_small("hygiene", NULL, 16);
	kswapd_case(m, pages);
	assert_int_equal(compaction_suitable(tl_zone(m, Z32), pageblock_order, 0, Z32), COMPACT_SUCCESS);
	assert_int_equal(compaction_suitable_targets(tl_zone(m, Z32), pageblock_order, Z32,
	                                             min_wmark_pages(tl_zone(m, Z32))),
	                 COMPACT_CONTINUE);
	assert_true(pgdat_balanced(&m->pgdat, pageblock_order, Z32));
	/* order 0 is balanced on the free blocks alone: 8 > 9? no */
	assert_false(pgdat_balanced(&m->pgdat, 0, Z32));

	/* and its loop tries to sleep at the order it balanced for */
	assert_true(kswapd_keeps_order(&m->pgdat));
	tl_destroy(m);

	/* without RFC 20/26 kswapd reclaims on, and looks at the pending
	 * request (0 after a run) before it tries to sleep, as v6.2 */
	m = boot_small("hygiene", off, 16);
	kswapd_case(m, pages);
	assert_false(pgdat_balanced(&m->pgdat, pageblock_order, Z32));
	assert_false(kswapd_keeps_order(&m->pgdat));
	tl_destroy(m);
	m = boot_small("vanilla", NULL, 16);
	assert_false(kswapd_keeps_order(&m->pgdat));
}

/* The storm ablation (kswapd_balance_free_blocks): RFC 20/26's kswapd
 * replaced by defrag_mode's.  Two of the eight free blocks retyped
 * MOVABLE (free whole, but not MIGRATE_FREE): the high watermark is met in
 * whole free blocks of any type (NR_FREE_PAGES_BLOCKS, 5/5) but not in
 * MIGRATE_FREE blocks (RFC 22/26's count, which v6.2's check reads under
 * the RFC); RFC 20/26 calls it balanced by compaction_suitable(). */
static void test_kswapd_balance_free_blocks(void **state)
{
	static struct page *pages[8 * 512];
	const char *const ablation[] = { "kswapd_balance_free_blocks=yes", NULL };
	const char *const rfc20_off[] = { "kswapd_compaction_suitable=no", NULL };
	const char *const *sw[3] = { NULL, ablation, rfc20_off };
	bool balanced[3] = { true, true, false }, keeps_order[3] = { true, false, false };
	(void)state;

	for (int i = 0; i < 3; i++) {
		struct machine *m = boot_small("hugealloc_rfc", sw[i], 16);
		struct zone *z = tl_zone(m, Z32);

		kswapd_case(m, pages);
		tl_retype_block(m, BLOCK(8), MIGRATE_MOVABLE);
		tl_retype_block(m, BLOCK(9), MIGRATE_MOVABLE);
		assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 6 * pageblock_nr_pages);
		assert_int_equal(zone_free_pages_blocks(z), 8 * pageblock_nr_pages);
		z->_watermark[WMARK_HIGH] = 7 * pageblock_nr_pages;
		assert_int_equal(pgdat_balanced(&m->pgdat, pageblock_order, Z32), balanced[i]);
		assert_int_equal(kswapd_keeps_order(&m->pgdat), keeps_order[i]);
		tl_destroy(m);
	}
	/* it replaces RFC 20/26, so it needs it */
	{
		const char *const bad[] = { "kswapd_compaction_suitable=no", "kswapd_balance_free_blocks=yes", NULL };
		struct mm_policy *p;
		char err[512];
		assert_int_equal(mm_policy_create("hugealloc_rfc", &p, err, sizeof(err)), 0);
		for (int k = 0; bad[k]; k++) {
			char key[64];
			const char *eq = strchr(bad[k], '=');
			memcpy(key, bad[k], (size_t)(eq - bad[k]));
			key[eq - bad[k]] = 0;
			assert_int_equal(mm_policy_set(p, key, eq + 1, err, sizeof(err)), 0);
		}
		assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "kswapd_compaction_suitable"));
		mm_policy_destroy(p);
	}
}

/* ------------------------------------------------------------------ */
/* RFC 23/26 and 24/26: no highatomic reserve, no boosting */

static void test_no_highatomic(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct zone *z;
	struct page *p;
	int n = 0;
	(void)state;

	s.user_min_free_kbytes = 2048;          /* min 512, low/high gaps one block */
	m = tl_boot_dma32("hygiene", NULL, 16, &s);
	z = tl_zone(m, Z32);
	assert_int_equal(z->_watermark[WMARK_MIN], 512);
	assert_int_equal(z->_watermark[WMARK_LOW], 1024);
	assert_int_equal(z->per_cpu_pageset[0].batch, 1);
	while (tl_alloc(m, MOVC, 10))
		n++;
	assert_int_equal(n, 7);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_FREE), 1024);

	/* the fast path fails (1021 <= low), the ALLOC_HARDER slow path
	 * succeeds: v6.2 would reserve the block here */
	p = tl_alloc(m, GFP_ATOMIC, 2);
	assert_non_null(p);
	assert_int_equal(tl_block_mt(m, tl_pfn(m, p)), MIGRATE_UNMOVABLE);
	assert_int_equal(z->nr_reserved_highatomic, 0);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_HIGHATOMIC), 0);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_HIGHATOMIC), 0);
	assert_int_equal(z->watermark_boost, 0);
	tl_destroy(m);

	/* the contrast: vanilla (low 640 here), brought below its low
	 * watermark, reserves the block for the same request */
	m = tl_boot_dma32("vanilla", NULL, 16, &s);
	z = tl_zone(m, Z32);
	assert_int_equal(z->_watermark[WMARK_LOW], 640);
	for (int i = 0; i < 7; i++)
		assert_non_null(tl_alloc(m, MOVC, 10));
	assert_non_null(tl_alloc(m, MOVC, 9));
	assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 512);
	p = tl_alloc(m, GFP_ATOMIC, 2);
	assert_non_null(p);
	assert_int_equal(z->nr_reserved_highatomic, 512);
	assert_int_equal(tl_block_mt(m, tl_pfn(m, p)), MIGRATE_HIGHATOMIC);
}

/* ------------------------------------------------------------------ */
/* switches */

static void test_switch_validation(void **state)
{
	struct mm_policy *p;
	char err[1536];
	(void)state;

	/* all on by default but the last resort */
	assert_int_equal(mm_policy_create("hygiene", &p, err, sizeof(err)), 0);
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), 0);
	assert_false(mm_policy_has(p, MMF_LAST_RESORT_FALLBACK));
	assert_null(p->ops.reserve_highatomic_pageblock);

	/* RFC 22/26 without RFC 11/26 */
	assert_int_equal(mm_policy_set(p, "migrate_free", "no", err, sizeof(err)), 0);
	err[0] = 0;
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "wmark_free_blocks"));
	assert_non_null(strstr(err, "migrate_free"));
	mm_policy_destroy(p);

	/* no_fallback without RFC 11/26 */
	assert_int_equal(mm_policy_create("hygiene", &p, err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "migrate_free", "no", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "wmark_free_blocks", "no", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "no_highatomic", "no", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "no_watermark_boost", "no", err, sizeof(err)), 0);
	err[0] = 0;
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no_fallback"));
	/* ... and with it off too, v6.2 again: all hooks back */
	assert_int_equal(mm_policy_set(p, "no_fallback", "off", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), 0);
	assert_non_null(p->ops.reserve_highatomic_pageblock);
	assert_non_null(p->ops.unreserve_highatomic_pageblock);
	assert_non_null(p->ops.boost_watermark);
	mm_policy_destroy(p);

	/* RFC 23/26 / RFC 24/26 without RFC 22/26 */
	assert_int_equal(mm_policy_create("hygiene", &p, err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "wmark_free_blocks", "no", err, sizeof(err)), 0);
	err[0] = 0;
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no_highatomic"));
	mm_policy_destroy(p);

	/* last resort without no_fallback */
	assert_int_equal(mm_policy_create("hygiene", &p, err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "no_fallback", "no", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "last_resort_fallback", "yes", err, sizeof(err)), 0);
	err[0] = 0;
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "last_resort_fallback"));

	/* unknown names list the valid ones; values must be booleans */
	err[0] = 0;
	assert_int_equal(mm_policy_set(p, "no_such_switch", "yes", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no_such_switch"));
	for (const struct param *d = p->ops.params; d->name; d++)
		if (!strstr(err, d->name))
			fail_msg("message '%s' does not list '%s'", err, d->name);
	err[0] = 0;
	assert_int_equal(mm_policy_set(p, "migrate_free", "maybe", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "maybe"));
	mm_policy_destroy(p);

	/* vanilla has no switches; unknown policies list the known ones */
	assert_int_equal(mm_policy_create("vanilla", &p, err, sizeof(err)), 0);
	err[0] = 0;
	assert_int_equal(mm_policy_set(p, "migrate_free", "yes", err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	mm_policy_destroy(p);
	err[0] = 0;
	assert_int_equal(mm_policy_create("no_such_policy", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "vanilla"));
	assert_non_null(strstr(err, "hugealloc_rfc"));
}

/* ------------------------------------------------------------------ */
/* CONFIG_COMPACTION=n */

static void test_no_compaction(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m;
	struct zone *z;
	struct page *p;
	unsigned long pfn;
	(void)state;

	s.config_compaction = false;
	m = tl_boot_dma32("hygiene", NULL, 4, &s);
	z = tl_zone(m, Z32);
	assert_false(m->pgdat.config_compaction);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_FREE), 4);     /* RFC 11/26 still on */
	pfn = claim_all_movable(m);

	/* watermarks count every free page */
	assert_true(zone_watermark_ok(&m->pgdat, z, 0, 255, Z32, ALLOC_WMARK_MIN));
	assert_false(zone_watermark_ok(&m->pgdat, z, 0, 256, Z32, ALLOC_WMARK_MIN));
	/* and the unmovable request falls back into the MOVABLE block */
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(tl_pfn(m, p), pfn);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
	/* RFC 24/26: a fragmenting fallback without boosting */
	assert_int_equal(z->watermark_boost, 0);
	assert_int_equal(m->pgdat.kswapd_wakeups, 0);
	/* the reclaim order stays the request's order (RFC 22/26 needs compaction) */
	assert_int_equal(m->policy->ops.reclaim_order(m->policy, 0), 0);
	tl_destroy(m);

	s.config_compaction = true;
	m = tl_boot_dma32("hygiene", NULL, 4, &s);
	assert_int_equal(m->policy->ops.reclaim_order(m->policy, 0), pageblock_order);
	assert_int_equal(m->policy->ops.compact_order(m->policy, 10), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_boot_free_blocks, tl_teardown),
		cmocka_unit_test_teardown(test_first_allocation_claims, tl_teardown),
		cmocka_unit_test_teardown(test_freed_block_returns_to_free, tl_teardown),
		cmocka_unit_test_teardown(test_claim_partial_free_block, tl_teardown),
		cmocka_unit_test_teardown(test_mixing_vanilla_vs_hygiene, tl_teardown),
		cmocka_unit_test_teardown(test_random_load_census, tl_teardown),
		cmocka_unit_test_teardown(test_no_fallback, tl_teardown),
		cmocka_unit_test_teardown(test_last_resort_fallback_wmark_all, tl_teardown),
		cmocka_unit_test_teardown(test_last_resort_fallback, tl_teardown),
		cmocka_unit_test_teardown(test_watermarks_count_free_blocks, tl_teardown),
		cmocka_unit_test_teardown(test_kswapd_compaction_suitable, tl_teardown),
		cmocka_unit_test_teardown(test_kswapd_balance_free_blocks, tl_teardown),
		cmocka_unit_test_teardown(test_no_highatomic, tl_teardown),
		cmocka_unit_test_teardown(test_switch_validation, tl_teardown),
		cmocka_unit_test_teardown(test_no_compaction, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
