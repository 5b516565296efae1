/* test_fallback_vanilla.c - v6.2's fallback decisions, one by one, on the
 * vanilla policy: __rmqueue_fallback (largest order first, the
 * find_smallest retreat of movable requests, the fallback table),
 * steal_suitable_fallback (ownership for orders >= pageblock_order, the
 * half-block claim rule with free and alike pages, watermark boosting and
 * the kswapd wake), the highatomic reserve, and ALLOC_NOFRAGMENT.
 *
 * Most tests run on one DMA32 zone of a few pageblocks with the watermarks
 * at zero (vm.min_free_kbytes=0, watermark_scale_factor=1), where the pcp
 * batch is 1: every allocation below moves exactly the pages it asks for.
 */
#include "testlib.h"

#define MOVC     (GFP_HIGHUSER_MOVABLE | __GFP_COMP)
#define RECL     (GFP_KERNEL | __GFP_RECLAIMABLE)
#define Z32      ZONE_DMA32
#define BLOCK(i) (TL_DMA32_START + (unsigned long)(i) * pageblock_nr_pages)

static struct machine *boot_small(unsigned long nr_blocks)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, nr_blocks, &s);
	const struct zone *z = tl_zone(m, Z32);

	assert_int_equal(z->_watermark[WMARK_HIGH], 0);
	assert_int_equal(z->per_cpu_pageset[0].batch, 1);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_MOVABLE), nr_blocks);
	return m;
}

static void reset_kswapd(struct machine *m)
{
	m->pgdat.kswapd_wakeups = 0;
	m->pgdat.kswapd_order = 0;
	m->pgdat.kswapd_highest_zoneidx = MAX_NR_ZONES;
}

/* ------------------------------------------------------------------ */
/* (a) whole free blocks are taken over */

/* An unmovable request on a node of MOVABLE blocks falls back to the
 * largest free page, an order-10 buddy, and takes both of its blocks. */
static void test_steal_whole_block(void **state)
{
	struct mm_layout l;
	char err[256];
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct zone *z;
	struct page *p;
	unsigned long pfn, first = PFN_NONE;
	int batch;
	(void)state;

	assert_int_equal(mm_layout_qemu(128ull << 20, 0, &l, err, sizeof(err)), 0);
	m = tl_boot("vanilla", NULL, &l, 2, &s);
	z = tl_zone(m, Z32);
	batch = z->per_cpu_pageset[0].batch;
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_UNMOVABLE), 0);

	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	pfn = tl_pfn(m, p);
	assert_int_equal(page_zonenum(p), Z32);
	/* both blocks of the order-10 buddy are now UNMOVABLE, nothing else */
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_UNMOVABLE), 2);
	for (unsigned long b = z->zone_start_pfn; b < zone_end_pfn(z); b += pageblock_nr_pages)
		if (tl_block_mt(m, b) == MIGRATE_UNMOVABLE && first == PFN_NONE)
			first = b;
	assert_int_equal(first & 1023, 0);
	assert_int_equal(tl_block_mt(m, first + 512), MIGRATE_UNMOVABLE);
	assert_true(pfn >= first && pfn < first + 1024);
	assert_int_equal(tl_count_blocks(m, ZONE_DMA, MIGRATE_UNMOVABLE), 0);
	/* one fallback event, a change of ownership, not fragmenting */
	assert_int_equal(m->pgdat.extfrag.events, 1);
	assert_int_equal(m->pgdat.extfrag.change_ownership, 1);
	assert_int_equal(m->pgdat.extfrag.fragmenting, 0);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	/* the whole buddy went to the unmovable lists; the batch came from it */
	assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), 1024 - batch);
	assert_int_equal(tl_pcp_count(m, Z32, 0), batch - 1);
	/* no boost below: the fallback was not below pageblock order */
	assert_int_equal(z->watermark_boost, 0);
	assert_int_equal(m->pgdat.kswapd_wakeups, 0);

	/* more unmovable requests are served from the stolen blocks */
	for (int i = 0; i < 50; i++) {
		struct page *q = tl_alloc(m, GFP_KERNEL, 0);
		assert_non_null(q);
		assert_int_equal(tl_block_mt(m, tl_pfn(m, q)), MIGRATE_UNMOVABLE);
	}
	assert_int_equal(m->pgdat.extfrag.events, 1);

	/* a reclaimable request takes another order-10 buddy for itself */
	p = tl_alloc_cpu(m, 1, RECL, 0);
	assert_non_null(p);
	assert_int_equal(tl_block_mt(m, tl_pfn(m, p)), MIGRATE_RECLAIMABLE);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_RECLAIMABLE), 2);
	assert_int_equal(m->pgdat.extfrag.by_type[MIGRATE_RECLAIMABLE][MIGRATE_MOVABLE], 1);
	assert_int_equal(m->pgdat.extfrag.change_ownership, 2);
}

/* ------------------------------------------------------------------ */
/* (b) the half-block claim rule */

/* A 4-block zone entirely allocated in order-7 compound movable pages;
 * in block 0, pieces in lru_mask are marked PG_lru (movable for
 * move_freepages) and pieces in free_mask are freed.  Returns nothing:
 * all other blocks stay fully allocated. */
static void arrange_block0(struct machine *m, unsigned lru_mask, unsigned free_mask)
{
	struct page *piece[16] = { 0 };

	for (int i = 0; i < 16; i++) {
		struct page *p = tl_alloc(m, MOVC, 7);
		unsigned long idx;
		assert_non_null(p);
		idx = (tl_pfn(m, p) - TL_DMA32_START) >> 7;
		assert_true(idx < 16 && !piece[idx]);
		piece[idx] = p;
	}
	assert_null(tl_alloc(m, MOVC, 0));
	assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 0);
	for (int j = 0; j < 4; j++)
		if (lru_mask & (1u << j))
			tl_mark_lru(piece[j]);
	for (int j = 0; j < 4; j++)
		if (free_mask & (1u << j))
			tl_free(m, piece[j], 7);
}

static void claim_case(unsigned lru_mask, unsigned free_mask, bool claimed)
{
	struct machine *m = boot_small(4);
	const struct extfrag_stats *ef = &m->pgdat.extfrag;
	long nr_free;
	struct page *p;

	arrange_block0(m, lru_mask, free_mask);
	nr_free = tl_stat(m, Z32, NR_FREE_PAGES);
	assert_int_equal(nr_free, 128 * __builtin_popcount(free_mask));

	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_true(tl_pfn(m, p) >= BLOCK(0) && tl_pfn(m, p) < BLOCK(1));
	if (tl_block_mt(m, BLOCK(0)) != (claimed ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE))
		fail_msg("lru %#x free %#x: block is %s, expected %s", lru_mask, free_mask,
		         migratetype_names[tl_block_mt(m, BLOCK(0))],
		         claimed ? "Unmovable" : "Movable");
	assert_int_equal(ef->events, 1);
	assert_int_equal(ef->fragmenting, 1);
	assert_int_equal(ef->change_ownership, claimed ? 1 : 0);
	assert_int_equal(ef->by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	/* claimed or not, move_freepages_block moved every free page of the
	 * block to the unmovable lists */
	assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), nr_free - 1);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_MOVABLE), 0);
	for (int b = 1; b < 4; b++)
		assert_int_equal(tl_block_mt(m, BLOCK(b)), MIGRATE_MOVABLE);

	/* the next unmovable request needs no fallback */
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_true(tl_pfn(m, p) < BLOCK(1));
	assert_int_equal(ef->events, 1);
	tl_destroy(m);
}

/* 128 free pages, 384 LRU pages: free + alike = 128 < 256, the block stays
 * MOVABLE (a fragmenting fallback without change of ownership). */
static void test_claim_rule_not_claimed(void **state)
{
	(void)state;
	claim_case(0x7, 0x8, false);
}

/* Claimed with at least half the block free or alike (>= 256 of 512). */
static void test_claim_rule_claimed(void **state)
{
	(void)state;
	claim_case(0x3, 0x8, true);     /* 128 free + 128 alike (non-LRU) = 256 */
	claim_case(0x0, 0x8, true);     /* 128 free + 384 alike */
	claim_case(0x3, 0xc, true);     /* exactly half free, the rest LRU */
	claim_case(0x1, 0xe, true);     /* more than half free */
}

/* ------------------------------------------------------------------ */
/* (c) movable requests that cannot steal take the smallest page */

/* One order-10 buddy allocated; the other (x) carved up by movable
 * allocations until only two free buddies remain, both in block x+512,
 * which then gets other_mt: small, an order-1 and an order-3 buddy;
 * otherwise an order-8 and an order-3 buddy.  Returns x. */
static unsigned long carve(struct machine *m, int other_mt, bool small)
{
	unsigned long x;
	struct page *p;

	assert_non_null(tl_alloc(m, MOVC, 10));
	x = tl_list_first(m, Z32, 10, MIGRATE_MOVABLE);
	assert_true(x != PFN_NONE);
	p = tl_alloc(m, MOVC, 9);
	assert_int_equal(tl_pfn(m, p), x);
	p = tl_alloc(m, MOVC, 4);
	assert_int_equal(tl_pfn(m, p), x + 512);
	/* free now: order 8 @768, 7 @640, 6 @576, 5 @544, 4 @528 */
	for (unsigned o = 7; o >= 5; o--)
		assert_non_null(tl_alloc(m, MOVC, o));
	if (small) {
		/* order 8 goes too; order 4 is split by an order-1 and an
		 * order-2 page: free order 1 @530 and order 3 @536 */
		assert_non_null(tl_alloc(m, MOVC, 8));
		p = tl_alloc(m, MOVC, 1);
		assert_int_equal(tl_pfn(m, p), x + 528);
		p = tl_alloc(m, MOVC, 2);
		assert_int_equal(tl_pfn(m, p), x + 532);
		assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 2 + 8);
		assert_true(PageBuddy(tl_page(m, x + 530)) && page_order(tl_page(m, x + 530)) == 1);
	} else {
		/* order 4 is split by an order-3 page: free order 8 @768 and
		 * order 3 @536 */
		p = tl_alloc(m, MOVC, 3);
		assert_int_equal(tl_pfn(m, p), x + 528);
		assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 256 + 8);
		assert_true(PageBuddy(tl_page(m, x + 768)) && page_order(tl_page(m, x + 768)) == 8);
	}
	assert_true(PageBuddy(tl_page(m, x + 536)) && page_order(tl_page(m, x + 536)) == 3);
	assert_int_equal(tl_pcp_count(m, Z32, 0), 0);
	tl_retype_block(m, x + 512, other_mt);
	assert_int_equal(tl_list_pages(m, Z32, MIGRATE_MOVABLE), 0);
	assert_int_equal(tl_list_pages(m, Z32, other_mt), small ? 10 : 264);
	return x;
}

/* The largest other-type page is of order 3 (< pageblock_order / 2): a
 * movable order-0 request cannot steal, so it splits the smallest page,
 * the order-1 buddy, and the block keeps its type. */
static void find_smallest_case(int other_mt)
{
	struct machine *m = boot_small(4);
	const struct extfrag_stats *ef = &m->pgdat.extfrag;
	unsigned long x = carve(m, other_mt, true);
	struct page *p;

	p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_int_equal(tl_pfn(m, p), x + 530);
	assert_int_equal(tl_block_mt(m, x + 512), other_mt);
	/* the order-3 buddy is untouched, still on the other type's list */
	assert_true(PageBuddy(tl_page(m, x + 536)) && page_order(tl_page(m, x + 536)) == 3);
	assert_int_equal(tl_list_first(m, Z32, 3, other_mt), x + 536);
	/* the other half of the order-1 buddy is on the movable list */
	assert_int_equal(tl_stat(m, Z32, NR_FREE_MOVABLE), 1);
	assert_int_equal(tl_list_first(m, Z32, 0, MIGRATE_MOVABLE), x + 531);
	assert_int_equal(ef->events, 1);
	assert_int_equal(ef->fragmenting, 1);
	assert_int_equal(ef->change_ownership, 0);
	assert_int_equal(ef->by_type[MIGRATE_MOVABLE][other_mt], 1);

	/* the next movable request uses that half: no new fallback */
	p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_int_equal(tl_pfn(m, p), x + 531);
	assert_int_equal(ef->events, 1);
	tl_destroy(m);
}

/* The largest other-type page is of order 8 (>= pageblock_order / 2):
 * can_steal_fallback() says yes whatever the request's order, so the
 * largest page is taken with its block (264 free pages >= 256), and the
 * request is then served from the smallest page now on the movable lists. */
static void steal_largest_case(int other_mt)
{
	struct machine *m = boot_small(4);
	const struct extfrag_stats *ef = &m->pgdat.extfrag;
	unsigned long x = carve(m, other_mt, false);
	struct page *p;

	p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_int_equal(tl_block_mt(m, x + 512), MIGRATE_MOVABLE);
	assert_int_equal(tl_pfn(m, p), x + 536);
	assert_int_equal(tl_list_first(m, Z32, 8, MIGRATE_MOVABLE), x + 768);
	assert_int_equal(tl_list_pages(m, Z32, other_mt), 0);
	assert_int_equal(ef->events, 1);
	assert_int_equal(ef->fragmenting, 1);
	assert_int_equal(ef->change_ownership, 1);
	assert_int_equal(ef->by_type[MIGRATE_MOVABLE][other_mt], 1);
	tl_destroy(m);
}

static void test_movable_find_smallest(void **state)
{
	(void)state;
	find_smallest_case(MIGRATE_UNMOVABLE);
	find_smallest_case(MIGRATE_RECLAIMABLE);
	steal_largest_case(MIGRATE_UNMOVABLE);
	steal_largest_case(MIGRATE_RECLAIMABLE);
}

/* ------------------------------------------------------------------ */
/* (d) the fallback table */

static void test_fallback_table(void **state)
{
	static const int rows[MIGRATE_PCPTYPES][2] = {
		[MIGRATE_UNMOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
		[MIGRATE_MOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
		[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
	};
	(void)state;

	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		const int *row = mm_v6_2_ops.fallbacks(NULL, mt, 0);
		assert_int_equal(row[0], rows[mt][0]);
		assert_int_equal(row[1], rows[mt][1]);
		assert_int_equal(row[2], MIGRATE_TYPES);
	}
	/* can_steal_fallback: unmovable/reclaimable always, movable from
	 * pageblock_order / 2, everyone at pageblock order */
	for (unsigned o = 0; o < MAX_ORDER; o++) {
		assert_true(mm_v6_2_ops.can_steal_fallback(NULL, o, MIGRATE_UNMOVABLE, MIGRATE_MOVABLE));
		assert_true(mm_v6_2_ops.can_steal_fallback(NULL, o, MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE));
		assert_int_equal(mm_v6_2_ops.can_steal_fallback(NULL, o, MIGRATE_MOVABLE, MIGRATE_UNMOVABLE), o >= 4);
	}
}

/* Which list a request falls back to when two types have equal-order
 * free pages: the row's first. */
static void table_case(gfp_t gfp, int start_mt, int first_mt, int second_mt)
{
	struct machine *m = boot_small(4);
	struct page *p;

	/* chunk A (blocks 0-1) of type first_mt, chunk B (blocks 2-3) second_mt */
	for (int b = 0; b < 4; b++)
		tl_retype_block(m, BLOCK(b), b < 2 ? first_mt : second_mt);
	p = tl_alloc(m, gfp, 0);
	assert_non_null(p);
	assert_true(tl_pfn(m, p) < BLOCK(2));
	assert_int_equal(m->pgdat.extfrag.by_type[start_mt][first_mt], 1);
	assert_int_equal(m->pgdat.extfrag.by_type[start_mt][second_mt], 0);
	/* an order-10 fallback changes the owner of both blocks */
	assert_int_equal(tl_block_mt(m, BLOCK(0)), start_mt);
	assert_int_equal(tl_block_mt(m, BLOCK(1)), start_mt);
	assert_int_equal(tl_block_mt(m, BLOCK(2)), second_mt);
	assert_int_equal(tl_block_mt(m, BLOCK(3)), second_mt);
	tl_destroy(m);
}

static void test_fallback_order(void **state)
{
	(void)state;
	table_case(GFP_KERNEL, MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE);
	table_case(RECL, MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, MIGRATE_MOVABLE);
	/* movable: an order-10 page may always be stolen (and is, whole) */
	table_case(GFP_HIGHUSER_MOVABLE, MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE);
}

/* The order comes before the table: a larger free page of a later type
 * wins over a smaller one of an earlier type. */
static void test_largest_order_first(void **state)
{
	struct machine *m = boot_small(4);
	const struct extfrag_stats *ef = &m->pgdat.extfrag;
	unsigned long a;
	struct page *p;
	(void)state;

	tl_retype_block(m, BLOCK(0), MIGRATE_RECLAIMABLE);
	tl_retype_block(m, BLOCK(1), MIGRATE_RECLAIMABLE);
	a = tl_list_first(m, Z32, 10, MIGRATE_RECLAIMABLE);
	assert_int_equal(a, BLOCK(0));
	/* reclaimable allocations carve chunk A down to one order-4 buddy */
	p = tl_alloc(m, RECL, 9);
	assert_int_equal(tl_pfn(m, p), a);
	for (unsigned o = 8; o >= 4; o--)
		assert_non_null(tl_alloc(m, RECL, o));
	assert_int_equal(tl_list_pages(m, Z32, MIGRATE_RECLAIMABLE), 16);
	assert_int_equal(ef->events, 0);

	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_true(tl_pfn(m, p) >= BLOCK(2));
	assert_int_equal(ef->by_type[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	assert_int_equal(ef->by_type[MIGRATE_UNMOVABLE][MIGRATE_RECLAIMABLE], 0);
	assert_int_equal(tl_list_pages(m, Z32, MIGRATE_RECLAIMABLE), 16);
	assert_int_equal(tl_block_mt(m, BLOCK(2)), MIGRATE_UNMOVABLE);
}

/* ------------------------------------------------------------------ */
/* (e) the highatomic reserve */

static void test_highatomic_reserve(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct zone *z;
	struct page *p, *q;
	unsigned long block;
	int n = 0;
	(void)state;

	s.user_min_free_kbytes = 512;           /* min 128 pages */
	s.watermark_boost_factor = 0;
	m = tl_boot_dma32("vanilla", NULL, 16, &s);
	z = tl_zone(m, Z32);
	assert_int_equal(z->_watermark[WMARK_MIN], 128);
	assert_int_equal(z->_watermark[WMARK_LOW], 160);
	assert_int_equal(z->per_cpu_pageset[0].batch, 1);

	/* fill with movable order-7 pages until the min watermark stops it */
	while (tl_alloc(m, MOVC, 7))
		n++;
	assert_int_equal(n, 63);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 128);

	/* GFP_ATOMIC order 2: the fast path (low) fails, the slow path
	 * (min, ALLOC_HIGH|ALLOC_HARDER) succeeds and reserves the block */
	p = tl_alloc(m, GFP_ATOMIC, 2);
	assert_non_null(p);
	block = pageblock_start_pfn(tl_pfn(m, p));
	assert_int_equal(z->nr_reserved_highatomic, 512);
	assert_int_equal(tl_block_mt(m, block), MIGRATE_HIGHATOMIC);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_HIGHATOMIC), 1);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_HIGHATOMIC), 124);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), 0);

	/* watermark checks of normal requests subtract the reserve */
	assert_false(zone_watermark_ok(&m->pgdat, z, 0, 0, Z32, ALLOC_WMARK_MIN));
	assert_true(zone_watermark_ok(&m->pgdat, z, 0, 0, Z32, ALLOC_WMARK_MIN | ALLOC_HARDER));
	assert_true(zone_watermark_ok(&m->pgdat, z, 2, 0, Z32, ALLOC_WMARK_MIN | ALLOC_HARDER));
	/* so a normal request fails although 124 pages are free (without
	 * direct reclaim: a reclaiming request would, before OOM, release
	 * the reserve in should_reclaim_retry) */
	assert_null(tl_alloc(m, GFP_NOWAIT, 0));
	assert_null(tl_alloc(m, GFP_NOWAIT | __GFP_MOVABLE, 0));
	/* order-0 atomic requests do not use it either (rmqueue_buddy) */
	assert_null(tl_alloc(m, GFP_ATOMIC, 0));

	/* a later high-order atomic request is served from the reserve */
	q = tl_alloc(m, GFP_ATOMIC, 2);
	assert_non_null(q);
	assert_int_equal(pageblock_start_pfn(tl_pfn(m, q)), block);
	assert_int_equal(z->nr_reserved_highatomic, 512);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_HIGHATOMIC), 120);

	/* unreserving keeps the last block unless forced */
	assert_false(unreserve_highatomic_pageblock(&m->pgdat, MIGRATE_UNMOVABLE, Z32, false));
	assert_int_equal(z->nr_reserved_highatomic, 512);
	assert_true(unreserve_highatomic_pageblock(&m->pgdat, MIGRATE_UNMOVABLE, Z32, true));
	tl_check(m);
	assert_int_equal(z->nr_reserved_highatomic, 0);
	assert_int_equal(tl_block_mt(m, block), MIGRATE_UNMOVABLE);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_HIGHATOMIC), 0);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_UNMOVABLE), 120);
	/* and the pages serve a normal unmovable request again */
	assert_non_null(tl_alloc(m, GFP_KERNEL | __GFP_HIGH, 0));
}

/* should_reclaim_retry(): a request that can reclaim, and finds nothing
 * to reclaim, releases the highatomic reserve (even the last block) before
 * it goes to the OOM killer */
static void test_highatomic_released_before_oom(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct zone *z;
	unsigned long block;
	struct page *p;
	(void)state;

	s.user_min_free_kbytes = 512;           /* min 128 pages */
	s.watermark_boost_factor = 0;
	m = tl_boot_dma32("vanilla", NULL, 16, &s);
	z = tl_zone(m, Z32);
	while (tl_alloc(m, MOVC, 7))
		;
	p = tl_alloc(m, GFP_ATOMIC, 2);
	assert_non_null(p);
	block = pageblock_start_pfn(tl_pfn(m, p));
	assert_int_equal(z->nr_reserved_highatomic, 512);
	/* no LRU pages, no processes: reclaim and the OOM killer find nothing */
	assert_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_int_equal(z->nr_reserved_highatomic, 0);
	assert_int_equal(tl_block_mt(m, block), MIGRATE_UNMOVABLE);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_HIGHATOMIC), 0);
	assert_int_equal(m->pgdat.vm_events[OOM_KILL], 0);
}

/* reserve_highatomic_pageblock: at most 1% of the zone plus one block
 * (checked before reserving, so the last block may overshoot). */
static void limit_case(unsigned long nr_blocks)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, nr_blocks, &s);
	struct zone *z = tl_zone(m, Z32);
	unsigned long limit = z->managed_pages / 100 + pageblock_nr_pages;
	unsigned long want = (limit + pageblock_nr_pages - 1) / pageblock_nr_pages;

	for (unsigned long b = 0; b < nr_blocks; b += 2) {
		unsigned long before = z->nr_reserved_highatomic;
		reserve_highatomic_pageblock(z, BLOCK(b), 2);
		tl_check(m);
		if (before < limit)
			assert_int_equal(z->nr_reserved_highatomic, before + 512);
		else
			assert_int_equal(z->nr_reserved_highatomic, before);
		if (b == 0) {
			/* a block that is already reserved is not counted twice */
			reserve_highatomic_pageblock(z, BLOCK(0), 2);
			assert_int_equal(z->nr_reserved_highatomic, 512);
		}
	}
	assert_int_equal(z->nr_reserved_highatomic, want * 512);
	assert_int_equal(tl_count_blocks(m, Z32, MIGRATE_HIGHATOMIC), want);
	tl_destroy(m);
}

static void test_highatomic_limit(void **state)
{
	(void)state;
	limit_case(16);         /* 81 + 512: two blocks */
	limit_case(256);        /* 1310 + 512: four blocks */
}

/* ------------------------------------------------------------------ */
/* (f) watermark boosting */

/* 16 blocks; every block half allocated (its upper order-8 half), so the
 * only free pages are order-8 buddies of MOVABLE blocks.  min 0, low 8,
 * high 16. */
static struct machine *boot_fragmented(int boost_factor)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct page *piece[32] = { 0 };

	s.user_min_free_kbytes = 0;
	s.watermark_boost_factor = boost_factor;
	m = tl_boot_dma32("vanilla", NULL, 16, &s);
	assert_int_equal(tl_zone(m, Z32)->_watermark[WMARK_HIGH], 16);
	for (int i = 0; i < 32; i++) {
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 8);
		assert_non_null(p);
		piece[(tl_pfn(m, p) - TL_DMA32_START) >> 8] = p;
	}
	for (int i = 0; i < 32; i += 2)
		tl_free(m, piece[i], 8);
	assert_int_equal(tl_stat(m, Z32, NR_FREE_PAGES), 4096);
	assert_int_equal(tl_zone(m, Z32)->free_area[8].nr_free, 16);
	reset_kswapd(m);
	return m;
}

static void test_watermark_boost(void **state)
{
	/* mult_frac(16, 437500, 10000) = 700: between one and two blocks */
	struct machine *m = boot_fragmented(437500);
	struct zone *z = tl_zone(m, Z32);
	(void)state;

	assert_int_equal(z->watermark_boost, 0);
	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
	assert_int_equal(z->watermark_boost, 512);
	assert_int_equal(low_wmark_pages(z), 8 + 512);
	assert_false(z->flags & (1ul << ZONE_BOOSTED_WATERMARK));
	assert_int_equal(m->pgdat.kswapd_wakeups, 1);
	assert_int_equal(m->pgdat.kswapd_order, 0);
	assert_int_equal(m->pgdat.kswapd_highest_zoneidx, Z32);

	/* a second fragmenting fallback: capped at high * factor / 10000 */
	assert_non_null(tl_alloc(m, RECL, 0));
	assert_int_equal(m->pgdat.extfrag.fragmenting, 2);
	assert_int_equal(z->watermark_boost, 700);
	assert_int_equal(m->pgdat.kswapd_wakeups, 2);
	tl_destroy(m);

	/* the default factor: the cap is at least one pageblock */
	m = boot_fragmented(15000);
	z = tl_zone(m, Z32);
	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_non_null(tl_alloc(m, RECL, 0));
	assert_int_equal(m->pgdat.extfrag.fragmenting, 2);
	assert_int_equal(z->watermark_boost, 512);
	tl_destroy(m);

	/* a caller without __GFP_KSWAPD_RECLAIM boosts but wakes nobody */
	m = boot_fragmented(15000);
	z = tl_zone(m, Z32);
	assert_non_null(tl_alloc(m, __GFP_IO | __GFP_FS | __GFP_DIRECT_RECLAIM, 0));
	assert_int_equal(z->watermark_boost, 512);
	assert_int_equal(m->pgdat.kswapd_wakeups, 0);
	assert_int_equal(m->pgdat.kswapd_highest_zoneidx, MAX_NR_ZONES);
}

static void test_watermark_boost_disabled(void **state)
{
	struct machine *m = boot_fragmented(0);
	struct zone *z = tl_zone(m, Z32);
	(void)state;

	assert_non_null(tl_alloc(m, GFP_KERNEL, 0));
	assert_non_null(tl_alloc(m, RECL, 0));
	assert_int_equal(m->pgdat.extfrag.fragmenting, 2);
	assert_int_equal(z->watermark_boost, 0);
	assert_int_equal(m->pgdat.kswapd_wakeups, 0);
	assert_false(boost_watermark(z));
}

/* ------------------------------------------------------------------ */
/* (g) ALLOC_NOFRAGMENT */

/* DMA32 and Normal, four blocks each; fill a zone with order-8 movable
 * pages and free the lower half of every block: only order-8 MOVABLE
 * buddies stay free there. */
static void fragment_zone(struct machine *m, enum zone_type zi, gfp_t gfp)
{
	struct zone *z = tl_zone(m, zi);
	struct page *piece[8] = { 0 };

	for (int i = 0; i < 8; i++) {
		struct page *p = tl_alloc(m, gfp, 8);
		assert_non_null(p);
		assert_int_equal(page_zonenum(p), zi);
		piece[(tl_pfn(m, p) - z->zone_start_pfn) >> 8] = p;
	}
	assert_int_equal(tl_stat(m, zi, NR_FREE_PAGES), 0);
	for (int i = 0; i < 8; i += 2)
		tl_free(m, piece[i], 8);
	assert_int_equal(z->free_area[8].nr_free, 4);
	assert_int_equal(tl_list_pages(m, zi, MIGRATE_MOVABLE), 1024);
}

static struct machine *boot_two_zones(void)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32_normal(4, 4);
	struct machine *m = tl_boot("vanilla", NULL, &l, 1, &s);
	fragment_zone(m, ZONE_NORMAL, GFP_HIGHUSER_MOVABLE);
	return m;
}

static void test_nofragment(void **state)
{
	struct machine *m;
	struct page *p;
	(void)state;

	/* DMA32 has unmovable pages: served there, Normal untouched */
	m = boot_two_zones();
	tl_retype_block(m, BLOCK(0), MIGRATE_UNMOVABLE);
	tl_retype_block(m, BLOCK(1), MIGRATE_UNMOVABLE);
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(page_zonenum(p), ZONE_DMA32);
	assert_int_equal(m->pgdat.extfrag.events, 0);
	assert_int_equal(m->pgdat.kswapd_wakeups, 0);
	assert_int_equal(tl_count_blocks(m, ZONE_NORMAL, MIGRATE_MOVABLE), 4);
	assert_int_equal(tl_stat(m, ZONE_NORMAL, NR_FREE_PAGES), 1024);
	tl_destroy(m);

	/* DMA32 has only whole free MOVABLE blocks: the first pass may take
	 * one over (pageblock order), still not fragmenting Normal */
	m = boot_two_zones();
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(page_zonenum(p), ZONE_DMA32);
	assert_int_equal(m->pgdat.extfrag.events, 1);
	assert_int_equal(m->pgdat.extfrag.fragmenting, 0);
	assert_int_equal(m->pgdat.extfrag.change_ownership, 1);
	assert_int_equal(tl_count_blocks(m, ZONE_NORMAL, MIGRATE_MOVABLE), 4);
	assert_int_equal(tl_count_blocks(m, ZONE_DMA32, MIGRATE_UNMOVABLE), 2);
	tl_destroy(m);

	/* both zones fragmented: the second pass, without ALLOC_NOFRAGMENT,
	 * falls back below pageblock order in the preferred zone */
	m = boot_two_zones();
	fragment_zone(m, ZONE_DMA32, GFP_DMA32 | __GFP_MOVABLE);
	reset_kswapd(m);
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(page_zonenum(p), ZONE_NORMAL);
	assert_int_equal(m->pgdat.extfrag.events, 1);
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
	/* served by get_page_from_freelist's retry, not the slow path */
	assert_int_equal(m->pgdat.kswapd_wakeups, 0);
	tl_destroy(m);
}

/* A node without a Normal zone (DMA and DMA32 here) never sets
 * ALLOC_NOFRAGMENT: a fragmented DMA32 takes the fragmenting fallback
 * although DMA has whole free blocks. */
static void test_no_nofragment_without_normal(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32(4);
	struct machine *m;
	struct page *p;
	(void)state;

	l.zone[ZONE_DMA] = (struct zone_layout){
		.start_pfn = 0, .spanned = 4096, .present = 4096, .managed_start = 2048, .managed = 2048,
	};
	m = tl_boot("vanilla", NULL, &l, 1, &s);
	fragment_zone(m, ZONE_DMA32, GFP_HIGHUSER_MOVABLE);
	assert_int_equal(tl_stat(m, ZONE_DMA, NR_FREE_PAGES), 2048);
	p = tl_alloc(m, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(page_zonenum(p), ZONE_DMA32);
	assert_int_equal(m->pgdat.extfrag.fragmenting, 1);
	assert_int_equal(tl_stat(m, ZONE_DMA, NR_FREE_PAGES), 2048);
	assert_int_equal(tl_count_blocks(m, ZONE_DMA, MIGRATE_UNMOVABLE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_steal_whole_block, tl_teardown),
		cmocka_unit_test_teardown(test_claim_rule_not_claimed, tl_teardown),
		cmocka_unit_test_teardown(test_claim_rule_claimed, tl_teardown),
		cmocka_unit_test_teardown(test_movable_find_smallest, tl_teardown),
		cmocka_unit_test_teardown(test_fallback_table, tl_teardown),
		cmocka_unit_test_teardown(test_fallback_order, tl_teardown),
		cmocka_unit_test_teardown(test_largest_order_first, tl_teardown),
		cmocka_unit_test_teardown(test_highatomic_reserve, tl_teardown),
		cmocka_unit_test_teardown(test_highatomic_released_before_oom, tl_teardown),
		cmocka_unit_test_teardown(test_highatomic_limit, tl_teardown),
		cmocka_unit_test_teardown(test_watermark_boost, tl_teardown),
		cmocka_unit_test_teardown(test_watermark_boost_disabled, tl_teardown),
		cmocka_unit_test_teardown(test_nofragment, tl_teardown),
		cmocka_unit_test_teardown(test_no_nofragment_without_normal, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
