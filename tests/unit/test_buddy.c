/* test_buddy.c - the buddy allocator proper: split on allocation (expand),
 * merge on free (__free_one_page), alignment, the per-cpu lists (refill by
 * batch, free up to high, free_pcppages_bulk, drain), bad input, and the
 * pgalloc_* / pgfree counters.
 *
 * Machine: a 128 MiB QEMU guest (DMA 3840 managed pages, DMA32 28160:
 * 27 order-10 buddies and one order-9 buddy at boot), 2 CPUs, vanilla.
 * Its DMA32 pcp batch is 7 and high is low/2.  Orders 4..8 and 10 bypass
 * the per-cpu lists, so their buddy arithmetic is exact; orders 0..3 and 9
 * go through them.
 */
#include "testlib.h"

#define MOV (GFP_KERNEL | __GFP_MOVABLE)        /* movable, DMA32 on this guest */

static struct machine *boot128(void)
{
	struct mm_layout l;
	char err[256];
	struct vm_sysctl s = tl_sysctl();

	assert_int_equal(mm_layout_qemu(128ull << 20, 0, &l, err, sizeof(err)), 0);
	return tl_boot("vanilla", NULL, &l, 2, &s);
}

/* the smallest order >= order with a free MOVABLE buddy in the zone */
static unsigned smallest_source(struct machine *m, enum zone_type zi, unsigned order)
{
	for (unsigned o = order; o < MAX_ORDER; o++)
		if (tl_list_first(m, zi, o, MIGRATE_MOVABLE) != PFN_NONE)
			return o;
	fail_msg("no free movable buddy of order >= %u", order);
	return MAX_ORDER;
}

/* The buddy allocator's split: one page of `order` taken from a free buddy
 * of order src leaves one free buddy at each order order..src-1. */
static void assert_split(const struct tl_snap *before, const struct tl_snap *after,
                         unsigned order, unsigned src)
{
	for (unsigned o = 0; o < MAX_ORDER; o++) {
		long delta = (long)after->nr_free[o] - (long)before->nr_free[o];
		long want = o == src ? -1 : (o >= order && o < src) ? 1 : 0;
		if (delta != want)
			fail_msg("order %u alloc from an order-%u buddy: nr_free[%u] changed by %ld, "
			         "expected %ld", order, src, o, delta, want);
	}
}

/* Orders that bypass the pcp lists: exact split arithmetic, page taken
 * from the head of the smallest suitable list, naturally aligned. */
static void test_split_bypass_orders(void **state)
{
	static const unsigned orders[] = { 4, 5, 6, 7, 8, 10 };
	(void)state;

	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		struct machine *m = boot128();
		unsigned order = orders[i];
		unsigned src = smallest_source(m, ZONE_DMA32, order);
		unsigned long head = tl_list_first(m, ZONE_DMA32, src, MIGRATE_MOVABLE);
		struct tl_snap before = tl_snapshot(m, ZONE_DMA32), after;
		struct page *p;

		/* pristine DMA32: one order-9 buddy, the rest order 10 */
		assert_int_equal(src, order <= 9 ? 9 : 10);
		p = tl_alloc(m, MOV, order);
		assert_non_null(p);
		after = tl_snapshot(m, ZONE_DMA32);
		assert_split(&before, &after, order, src);
		assert_int_equal(tl_pfn(m, p), head);
		assert_int_equal(tl_pfn(m, p) & ((1ul << order) - 1), 0);
		assert_int_equal(page_zonenum(p), ZONE_DMA32);
		assert_int_equal(page_order(p), order);
		assert_int_equal(p->refcount, 1);
		assert_false(PageBuddy(p));
		assert_int_equal(after.stat[NR_FREE_PAGES], before.stat[NR_FREE_PAGES] - (1l << order));
		assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), 0);
		/* the split halves are free buddies of their order, in the zone */
		for (unsigned o = order; o < src; o++) {
			struct page *half = tl_page(m, tl_pfn(m, p) + (1ul << o));
			assert_true(PageBuddy(half));
			assert_int_equal(page_order(half), o);
		}
		tl_free(m, p, order);
		after = tl_snapshot(m, ZONE_DMA32);
		tl_assert_snap_equal(&before, &after);
		tl_destroy(m);
	}
}

/* An order-0 allocation refills the pcp list with `batch` pages; once the
 * pcp list is drained, the buddy lists show the split of one buddy. */
static void test_split_order0_through_pcp(void **state)
{
	struct machine *m = boot128();
	struct zone *z = tl_zone(m, ZONE_DMA32);
	int batch = z->per_cpu_pageset[0].batch;
	unsigned src = smallest_source(m, ZONE_DMA32, 0);
	unsigned long head = tl_list_first(m, ZONE_DMA32, src, MIGRATE_MOVABLE);
	struct tl_snap boot = tl_snapshot(m, ZONE_DMA32), now;
	struct page *p;
	(void)state;

	assert_int_equal(batch, 7);
	assert_int_equal(src, 9);
	p = tl_alloc(m, MOV, 0);
	assert_non_null(p);
	assert_int_equal(tl_pfn(m, p), head);               /* first of the batch */
	assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), batch - 1);
	assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 1), 0);
	assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), boot.stat[NR_FREE_PAGES] - batch);
	/* the rest of the batch sits on cpu 0's movable order-0 list */
	for (unsigned long pfn = head + 1; pfn < head + (unsigned long)batch; pfn++)
		assert_true(PagePcp(tl_page(m, pfn)));
	assert_false(PagePcp(tl_page(m, head + (unsigned long)batch)));

	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), 0);
	now = tl_snapshot(m, ZONE_DMA32);
	assert_split(&boot, &now, 0, src);
	assert_int_equal(now.stat[NR_FREE_PAGES], boot.stat[NR_FREE_PAGES] - 1);

	/* the free goes to the pcp list first, the drain merges it back */
	tl_free(m, p, 0);
	assert_true(PagePcp(p));
	assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), 1);
	assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), boot.stat[NR_FREE_PAGES] - 1);
	drain_all_pages(&m->pgdat);
	now = tl_snapshot(m, ZONE_DMA32);
	tl_assert_snap_equal(&boot, &now);
	assert_true(PageBuddy(tl_page(m, head)));
	assert_int_equal(page_order(tl_page(m, head)), src);
}

/* Two buddies: freeing one leaves it alone at its order, freeing the
 * other merges the pair and everything above back to the boot state. */
static void test_merge_buddies(void **state)
{
	struct machine *m = boot128();
	struct tl_snap boot = tl_snapshot(m, ZONE_DMA32), now;
	struct page *a, *b;
	(void)state;

	a = tl_alloc(m, MOV, 4);
	b = tl_alloc(m, MOV, 4);
	assert_non_null(a);
	assert_non_null(b);
	/* the second request takes the first one's split-off buddy */
	assert_int_equal(tl_pfn(m, b), tl_pfn(m, a) ^ 16);

	tl_free(m, a, 4);
	assert_true(PageBuddy(a));
	assert_int_equal(page_order(a), 4);
	now = tl_snapshot(m, ZONE_DMA32);
	assert_int_equal(now.nr_free[4], boot.nr_free[4] + 1);

	tl_free(m, b, 4);
	assert_false(PageBuddy(a) && page_order(a) == 4);
	now = tl_snapshot(m, ZONE_DMA32);
	tl_assert_snap_equal(&boot, &now);
}

/* Many allocations of every order on both CPUs: each is naturally aligned,
 * inside a managed range, disjoint from the others; freeing them all (in
 * another order) and draining restores buddyinfo and the counters of both
 * zones exactly. */
static void test_alignment_and_merge_restore(void **state)
{
	struct machine *m = boot128();
	struct tl_snap boot32 = tl_snapshot(m, ZONE_DMA32), bootdma = tl_snapshot(m, ZONE_DMA), now;
	unsigned long spanned = m->pgdat.node_spanned_pages;
	unsigned char *owned = calloc(spanned, 1);
	struct { struct page *p; unsigned order; unsigned cpu; } a[160];
	unsigned n = 0;
	(void)state;

	assert_non_null(owned);
	for (unsigned round = 0; round < 8; round++) {
		for (unsigned order = 0; order < MAX_ORDER && n < 160; order++) {
			unsigned cpu = (round + order) & 1;
			gfp_t gfp = (round % 4 == 3) ? (GFP_DMA | __GFP_MOVABLE) : MOV;
			struct page *p = tl_alloc_cpu(m, cpu, gfp, order);
			unsigned long pfn;
			struct zone *z;

			if (!p)
				continue;       /* DMA is small: high orders may fail there */
			pfn = tl_pfn(m, p);
			z = page_zone(&m->pgdat, p);
			if (pfn & ((1ul << order) - 1))
				fail_msg("order-%u page at pfn %#lx is not aligned", order, pfn);
			assert_int_equal(page_order(p), order);
			assert_true(pfn >= z->managed_start_pfn &&
			            pfn + (1ul << order) <= z->managed_start_pfn + z->managed_pages);
			if (gfp & __GFP_DMA)
				assert_int_equal(z->idx, ZONE_DMA);
			for (unsigned long i = 0; i < (1ul << order); i++) {
				if (owned[pfn + i])
					fail_msg("pfn %#lx handed out twice", pfn + i);
				owned[pfn + i] = 1;
			}
			a[n].p = p;
			a[n].order = order;
			a[n].cpu = cpu;
			n++;
		}
	}
	assert_true(n >= 70);
	/* free in an interleaved order, from the other CPU */
	for (unsigned step = 0; step < 3; step++)
		for (unsigned i = step; i < n; i += 3)
			tl_free_cpu(m, m->pgdat.nr_cpus - 1 - a[i].cpu, a[i].p, a[i].order);
	drain_all_pages(&m->pgdat);
	now = tl_snapshot(m, ZONE_DMA32);
	tl_assert_snap_equal(&boot32, &now);
	now = tl_snapshot(m, ZONE_DMA);
	tl_assert_snap_equal(&bootdma, &now);
	free(owned);
}

/* rmqueue_pcplist: the refill is batch pages scaled down by the order,
 * at least 2 (batch > 1), for the pcp orders 0..3 and pageblock order. */
static void test_pcp_refill_by_order(void **state)
{
	static const unsigned orders[] = { 0, 1, 2, 3, 9 };
	struct machine *m = boot128();
	struct zone *z = tl_zone(m, ZONE_DMA32);
	int batch = z->per_cpu_pageset[1].batch;
	(void)state;

	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		unsigned order = orders[i];
		int n = batch >> order < 2 ? 2 : batch >> order;
		int count = tl_pcp_count(m, ZONE_DMA32, 1);
		long free_before = tl_stat(m, ZONE_DMA32, NR_FREE_PAGES);
		struct page *p = tl_alloc_cpu(m, 1, MOV, order);

		assert_non_null(p);
		assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 1) - count, (n - 1) << order);
		assert_int_equal(free_before - tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), (long)n << order);
		/* the next request of that order is a pcp hit: no buddy change */
		free_before = tl_stat(m, ZONE_DMA32, NR_FREE_PAGES);
		assert_non_null(tl_alloc_cpu(m, 1, MOV, order));
		assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), free_before);
		assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 1) - count, (n - 2) << order);
	}
	assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), 0);
}

/* free_unref_page_commit: frees stay on the pcp list until count reaches
 * high; then free_pcppages_bulk returns batch << free_factor pages, the
 * factor growing with every bulk free that comes without allocations.
 * A high-order (1..3) free while free_factor is set drains the lot. */
static void test_pcp_high_and_bulk_free(void **state)
{
	struct machine *m = boot128();
	struct zone *z = tl_zone(m, ZONE_DMA32);
	struct per_cpu_pages *pcp = &z->per_cpu_pageset[0];
	const int batch = pcp->batch, high = pcp->high;
	const unsigned N = 1000;
	struct page **pages = calloc(N, sizeof(*pages));
	int drains = 0;
	long boot_free = tl_stat(m, ZONE_DMA32, NR_FREE_PAGES);
	(void)state;

	assert_non_null(pages);
	assert_int_equal(high, (int)(low_wmark_pages(z) / 2));
	assert_true(high > batch * 4 && (unsigned)high + 3 * (unsigned)batch < N);
	for (unsigned i = 0; i < N; i++) {
		pages[i] = tl_alloc(m, MOV, 0);
		assert_non_null(pages[i]);
		assert_true(pcp->count < batch);
	}
	assert_int_equal(pcp->free_factor, 0);
	for (unsigned i = 0; i < N; i++) {
		int before = pcp->count;
		long free_before = tl_stat(m, ZONE_DMA32, NR_FREE_PAGES);

		tl_free(m, pages[i], 0);
		if (before + 1 < high) {
			/* onto the pcp list, the buddy lists untouched */
			assert_int_equal(pcp->count, before + 1);
			assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), free_before);
			continue;
		}
		/* count reached high: bulk free of batch << drains */
		assert_int_equal(pcp->count, high - (batch << drains));
		assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES) - free_before, batch << drains);
		drains++;
		assert_int_equal(pcp->free_factor, drains);
		if (drains == 3)
			break;
	}
	assert_int_equal(drains, 3);

	/* an allocation halves the factor; an order-3 free with the factor
	 * still set (free_high) frees the whole pcp */
	{
		struct page *p3 = tl_alloc(m, MOV, 3);
		assert_non_null(p3);
		assert_int_equal(pcp->free_factor, 1);
		tl_free(m, p3, 3);
		assert_int_equal(pcp->count, 0);
	}
	for (unsigned i = 0; i < N; i++)
		if (pages[i] && pages[i]->refcount)
			tl_free(m, pages[i], 0);
	drain_all_pages(&m->pgdat);
	assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), boot_free);
	free(pages);
}

/* drain_all_pages empties every CPU's lists of every zone; the free
 * counters and buddyinfo return to their boot values. */
static void test_drain_all_pages(void **state)
{
	static const unsigned orders[] = { 0, 1, 2, 3, 9, 0, 0, 2 };
	struct machine *m = boot128();
	struct tl_snap boot32 = tl_snapshot(m, ZONE_DMA32), bootdma = tl_snapshot(m, ZONE_DMA), now;
	long boot_total = global_zone_page_state(&m->pgdat, NR_FREE_PAGES);
	struct page *p[2][8];
	(void)state;

	for (unsigned cpu = 0; cpu < 2; cpu++)
		for (unsigned i = 0; i < 8; i++) {
			gfp_t gfp = i == 7 ? (GFP_DMA | __GFP_MOVABLE) : (cpu ? GFP_KERNEL : MOV);
			p[cpu][i] = tl_alloc_cpu(m, cpu, gfp, orders[i]);
			assert_non_null(p[cpu][i]);
		}
	for (unsigned cpu = 0; cpu < 2; cpu++)
		for (unsigned i = 0; i < 8; i++)
			tl_free_cpu(m, 1 - cpu, p[cpu][i], orders[i]);
	assert_true(tl_pcp_count(m, ZONE_DMA32, 0) > 0);
	assert_true(tl_pcp_count(m, ZONE_DMA32, 1) > 0);
	assert_true(tl_pcp_count(m, ZONE_DMA, 0) > 0);
	assert_true(global_zone_page_state(&m->pgdat, NR_FREE_PAGES) < boot_total);

	drain_all_pages(&m->pgdat);
	for (int zi = 0; zi < MAX_NR_ZONES; zi++)
		for (unsigned cpu = 0; cpu < 2; cpu++)
			assert_int_equal(tl_pcp_count(m, (enum zone_type)zi, cpu), 0);
	assert_int_equal(global_zone_page_state(&m->pgdat, NR_FREE_PAGES), boot_total);
	now = tl_snapshot(m, ZONE_DMA);
	tl_assert_snap_equal(&bootdma, &now);
	/* the unmovable pages stole a DMA32 block: counts per order return,
	 * per-type counters need not (the block stays unmovable) */
	now = tl_snapshot(m, ZONE_DMA32);
	for (int o = 0; o < MAX_ORDER; o++)
		assert_int_equal(now.nr_free[o], boot32.nr_free[o]);
	assert_int_equal(now.stat[NR_FREE_PAGES], boot32.stat[NR_FREE_PAGES]);
}

/* Requests the kernel would warn about fail cleanly and change nothing. */
static void test_bad_input(void **state)
{
	struct machine *m = boot128();
	struct tl_snap boot = tl_snapshot(m, ZONE_DMA32), now;
	struct mm_ctx bad_cpu = { .cpu = 2 };
	(void)state;

	assert_null(tl_alloc(m, MOV, MAX_ORDER));
	assert_null(tl_alloc(m, MOV, MAX_ORDER + 5));
	assert_null(tl_alloc(m, GFP_KERNEL, 31));
	assert_null(alloc_pages(&m->pgdat, &bad_cpu, MOV, 0));
	bad_cpu.cpu = 1000;
	assert_null(alloc_pages(&m->pgdat, &bad_cpu, MOV, 4));
	now = tl_snapshot(m, ZONE_DMA32);
	tl_assert_snap_equal(&boot, &now);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		assert_int_equal(m->pgdat.vm_events[i], 0);
	/* and a valid request still works */
	assert_non_null(tl_alloc(m, MOV, MAX_ORDER - 1));
}

/* pgalloc_<zone> counts pages handed out (not the pcp refill), pgfree
 * pages freed (to the pcp list or the buddy lists, not the drain). */
static void test_counters(void **state)
{
	struct machine *m = boot128();
	unsigned long *ev = m->pgdat.vm_events;
	struct page *p0, *p4, *pd, *p9;
	(void)state;

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		assert_int_equal(ev[i], 0);
	p0 = tl_alloc(m, MOV, 0);
	assert_int_equal(ev[PGALLOC_DMA32], 1);
	p4 = tl_alloc(m, GFP_KERNEL, 4);
	assert_int_equal(ev[PGALLOC_DMA32], 17);
	p9 = tl_alloc(m, MOV, 9);
	assert_int_equal(ev[PGALLOC_DMA32], 17 + 512);
	pd = tl_alloc(m, GFP_DMA, 2);
	assert_non_null(p0);
	assert_non_null(p4);
	assert_non_null(p9);
	assert_non_null(pd);
	assert_int_equal(page_zonenum(pd), ZONE_DMA);
	assert_int_equal(ev[PGALLOC_DMA], 4);
	assert_int_equal(ev[PGALLOC_NORMAL], 0);
	assert_int_equal(ev[PGALLOC_MOVABLE], 0);
	assert_int_equal(ev[PGFREE], 0);

	tl_free(m, p0, 0);
	assert_int_equal(ev[PGFREE], 1);
	tl_free(m, p4, 4);
	tl_free(m, pd, 2);
	tl_free(m, p9, 9);
	assert_int_equal(ev[PGFREE], 1 + 16 + 4 + 512);
	drain_all_pages(&m->pgdat);
	assert_int_equal(ev[PGFREE], 1 + 16 + 4 + 512);
	assert_int_equal(ev[PGALLOC_DMA32], 17 + 512);
	assert_int_equal(ev[PGALLOC_DMA], 4);
	/* a failed request counts nothing */
	assert_null(tl_alloc(m, MOV, MAX_ORDER));
	assert_int_equal(ev[PGALLOC_DMA32], 17 + 512);
}

/* The per-cpu lists are rings of pfns (struct pcp_list): adds and takes at
 * both ends, across growth and wrap-around, keep a linked list's order.
 * Checked against a plain array model; then through the allocator: pages
 * freed to a pcp list come back last-freed first, the refill's pages in
 * ascending order after them. */
static void test_pcp_list_ring(void **state)
{
	struct pcp_list l = { .pfns = malloc(2 * sizeof(uint32_t)), .mask = 1 };
	uint32_t model[4096];
	unsigned lo = 2048, hi = 2048;  /* model[lo..hi) is the list, head first */
	uint32_t next = 0;
	(void)state;

	assert_non_null(l.pfns);
	for (int round = 0; round < 600; round++) {
		/* three adds, two takes, the ends chosen by the round */
		for (int k = 0; k < 3; k++) {
			bool tail = (round + k) % 3 == 0;
			pcp_list_add(&l, next, tail);
			if (tail)
				model[hi++] = next;
			else
				model[--lo] = next;
			next++;
		}
		for (int k = 0; k < 2; k++) {
			if ((round + k) % 2)
				assert_int_equal(pcp_list_pop_last(&l), model[--hi]);
			else
				assert_int_equal(pcp_list_pop_first(&l), model[lo++]);
		}
		assert_int_equal(l.len, hi - lo);
		for (uint32_t i = 0; i < l.len; i++)
			assert_int_equal(pcp_list_at(&l, i), model[lo + i]);
	}
	assert_true(l.mask + 1 >= l.len);
	free(l.pfns);

	{
		struct machine *m = boot128();
		struct page *p[5];

		for (int i = 0; i < 5; i++)
			p[i] = tl_alloc(m, MOV, 0);     /* one refill of 7: two left */
		for (int i = 0; i < 5; i++)
			assert_int_equal(tl_pfn(m, p[i]), tl_pfn(m, p[0]) + (unsigned long)i);
		tl_free(m, p[1], 0);
		tl_free(m, p[3], 0);
		tl_free(m, p[2], 0);
		assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), 5);
		assert_int_equal(tl_pfn(m, tl_alloc(m, MOV, 0)), tl_pfn(m, p[2]));
		assert_int_equal(tl_pfn(m, tl_alloc(m, MOV, 0)), tl_pfn(m, p[3]));
		assert_int_equal(tl_pfn(m, tl_alloc(m, MOV, 0)), tl_pfn(m, p[1]));
		assert_int_equal(tl_pfn(m, tl_alloc(m, MOV, 0)), tl_pfn(m, p[0]) + 5);
		assert_int_equal(tl_pfn(m, tl_alloc(m, MOV, 0)), tl_pfn(m, p[0]) + 6);
		assert_int_equal(tl_pcp_count(m, ZONE_DMA32, 0), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_split_bypass_orders, tl_teardown),
		cmocka_unit_test_teardown(test_split_order0_through_pcp, tl_teardown),
		cmocka_unit_test_teardown(test_merge_buddies, tl_teardown),
		cmocka_unit_test_teardown(test_alignment_and_merge_restore, tl_teardown),
		cmocka_unit_test_teardown(test_pcp_refill_by_order, tl_teardown),
		cmocka_unit_test_teardown(test_pcp_high_and_bulk_free, tl_teardown),
		cmocka_unit_test_teardown(test_drain_all_pages, tl_teardown),
		cmocka_unit_test_teardown(test_pcp_list_ring, tl_teardown),
		cmocka_unit_test_teardown(test_bad_input, tl_teardown),
		cmocka_unit_test_teardown(test_counters, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
