/* test_tao.c - TAO's policy zones (policy tao; "[LSF/MM/BPF TOPIC] TAO:
 * THP Allocator Optimizations", Yu Zhao, 2024, chapter one "THP zones:
 * the use cases of policy zones"): each test shows one mechanism, and
 * fails with the code of that mechanism undone (named in its comment).
 *
 * The machine: one DMA32 zone of 16 pageblocks (8192 pages from pfn 4096),
 * watermarks off (tl_sysctl_nowmark).  nosplit_percent=50 gives kernelcore
 * 4096 pages, so ZONE_NOSPLIT is pfns 8192..12287 (8 blocks) and DMA32
 * keeps 4096..8191.
 */
#include "testlib.h"

#define NBLOCKS 16
#define SPLIT_START (TL_DMA32_START + 4096ul)

static struct machine *boot(const char *policy, const char *const *sw)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	return tl_boot_dma32(policy, sw, NBLOCKS, &s);
}

static const char *const half_nosplit[] = { "nosplit_percent=50", NULL };

/* the zone a page came from */
#define zone_of(m, p) ((void)(m), page_zonenum(p))

/* find_virt_zones() (mm_init.c): nosplit=50%,9 carves the top half of the
 * only physical zone into ZONE_NOSPLIT, aligned to MAX_ORDER_NR_PAGES,
 * with TAO's small min watermark (zones above ZONE_NORMAL); vanilla's
 * kernel has four zones.  Undone (no carving): ZONE_NOSPLIT is empty. */
static void test_boot_carves_nosplit(void **state)
{
	struct machine *m = boot("tao", half_nosplit);
	struct zone *z = tl_zone(m, ZONE_NOSPLIT), *d = tl_zone(m, ZONE_DMA32);
	(void)state;

	assert_int_equal(m->pgdat.kernel_nr_zones, MAX_NR_ZONES);
	assert_int_equal(m->pgdat.zone_nosplit_order, 9);
	assert_int_equal(m->pgdat.zone_nomerge_order, 0);
	assert_int_equal(z->zone_start_pfn, SPLIT_START);
	assert_int_equal(z->spanned_pages, 4096);
	assert_int_equal(z->managed_pages, 4096);
	assert_int_equal(z->order, 9);
	assert_int_equal(z->max_order, MAX_ORDER - 1);
	assert_int_equal(tl_stat(m, ZONE_NOSPLIT, NR_FREE_PAGES), 4096);
	assert_int_equal(d->spanned_pages, 4096);
	assert_int_equal(d->managed_pages, 4096);
	assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), 4096);
	/* zones above ZONE_NORMAL get the small clamped min */
	assert_int_equal(z->_watermark[WMARK_MIN], 32);
	assert_false(populated_zone(tl_zone(m, ZONE_NOMERGE)));
	tl_destroy(m);

	m = boot("vanilla", NULL);
	assert_int_equal(m->pgdat.kernel_nr_zones, ZONE_MOVABLE + 1);
	assert_false(populated_zone(tl_zone(m, ZONE_NOSPLIT)));
	assert_int_equal(tl_zone(m, ZONE_DMA32)->managed_pages, 8192);
	tl_destroy(m);

	/* a size of 0: no zone, the order stays (the kernel's globals) */
	{
		static const char *const none[] = { "nosplit_percent=0", NULL };
		m = boot("tao", none);
		assert_false(populated_zone(tl_zone(m, ZONE_NOSPLIT)));
		assert_int_equal(tl_zone(m, ZONE_DMA32)->managed_pages, 8192);
		assert_int_equal(m->pgdat.zone_nosplit_order, 9);
		tl_destroy(m);
	}
}

/* The carving on a QEMU layout: a 512 MiB guest gives ZONE_NOSPLIT the
 * top quarter of DMA32, 32768 pages from pfn 98304, the memmap reserved
 * at the top of memory inside it (30720 managed); on a 64 MiB guest the
 * cut falls below the kernel's reservations at 16 MiB, and DMA32 keeps no
 * managed page (find_virt_zones() counts all present memory, reserved or
 * not).  Undone (the managed range not clamped at the cut): the 64 MiB
 * boot fails with an inconsistent layout. */
static void test_boot_qemu_layouts(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct mm_layout l;
	struct machine *m;
	char err[256];
	(void)state;

	assert_int_equal(mm_layout_qemu(512ull << 20, 9542, &l, err, sizeof(err)), 0);
	m = tl_boot("tao", NULL, &l, 2, &s);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->zone_start_pfn, 98304);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->spanned_pages, 32768);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->managed_pages, 30720);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->spanned_pages, 98304 - 4096);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->managed_pages, 98304 - 4096 - 9542);
	tl_destroy(m);

	assert_int_equal(mm_layout_qemu(64ull << 20, 9542, &l, err, sizeof(err)), 0);
	m = tl_boot("tao", NULL, &l, 1, &s);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->zone_start_pfn, 12288);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->managed_pages, 16384 - 256 - 13638);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->managed_pages, 0);
	tl_destroy(m);
}

/* gfp_order_zone() and the zonelist walk: a THP fault's request is served
 * from ZONE_NOSPLIT while it can meet its watermark (min 32: seven of the
 * eight THPs), then falls back to DMA32.  Undone (gfp_zone() as v6.2):
 * every THP comes from DMA32. */
static void test_thp_from_nosplit_then_fallback(void **state)
{
	struct machine *m = boot("tao", half_nosplit);
	struct page *p;
	(void)state;

	for (int i = 0; i < 7; i++) {
		assert_non_null(p = tl_alloc(m, GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER));
		assert_int_equal(zone_of(m, p), ZONE_NOSPLIT);
	}
	assert_non_null(p = tl_alloc(m, GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER));
	assert_int_equal(zone_of(m, p), ZONE_DMA32);
	/* counted in pgalloc_movable (the v6.2 lines: the model's choice) */
	assert_int_equal(m->pgdat.vm_events[PGALLOC_MOVABLE], 7ul << HPAGE_PMD_ORDER);
	assert_int_equal(m->pgdat.vm_events[PGALLOC_DMA32], 1ul << HPAGE_PMD_ORDER);
	tl_check(m);
}

/* A small request never enters ZONE_NOSPLIT (gfp_order_zone() stops it at
 * ZONE_MOVABLE): DMA32 fills up to
 * its last page while all of ZONE_NOSPLIT stays free; then reclaim finds
 * nothing (allocstall), the OOM killer nothing to kill, the request fails.
 * Undone (gfp_order_zone() no longer stopping small requests and
 * zone_is_suitable() taking every order, both, since either keeps them
 * out): the next 4096 pages come from ZONE_NOSPLIT. */
static void test_small_never_enters_nosplit(void **state)
{
	struct machine *m = boot("tao", half_nosplit);
	unsigned long n = 0;
	struct page *p;
	(void)state;

	m->pgdat.debug_check_interval = 0;
	while ((p = tl_alloc(m, GFP_KERNEL, 0))) {
		assert_int_equal(zone_of(m, p), ZONE_DMA32);
		n++;
		assert_true(n <= 4096);
	}
	assert_int_equal(n, 4096);
	assert_null(tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
	assert_null(tl_alloc(m, GFP_KERNEL, 2));
	assert_int_equal(tl_stat(m, ZONE_NOSPLIT, NR_FREE_PAGES), 4096);
	assert_true(m->pgdat.vm_events[ALLOCSTALL_NORMAL] > 0);
	assert_true(m->pgdat.vm_events[ALLOCSTALL_MOVABLE] > 0);
	assert_int_equal(m->pgdat.vm_events[OOM_KILL], 0);
	/* the THP still has its zone */
	assert_non_null(p = tl_alloc(m, GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER));
	assert_int_equal(zone_of(m, p), ZONE_NOSPLIT);
	tl_check(m);
}

/* The small-page partition reclaims on its own: DMA32 full of clean page
 * cache, a small request reclaims it directly (pgsteal_direct, allocstall
 * in the movable line), though ZONE_NOSPLIT has 4096 free pages.  Vanilla
 * on the same RAM has room left and reclaims nothing.  Undone (no zone
 * carved by find_virt_zones(), or small requests let into ZONE_NOSPLIT
 * as above): no direct reclaim in tao either. */
static void test_small_partition_reclaims(void **state)
{
	static const char *const policies[] = { "tao", "vanilla" };
	(void)state;

	for (int i = 0; i < 2; i++) {
		const char *const *sw = i == 0 ? half_nosplit : NULL;
		struct machine *m = boot(policies[i], sw);
		struct address_space *as;
		struct page *p;

		m->pgdat.debug_check_interval = 0;
		as = inode_create(&m->pgdat, 4000, false);
		assert_non_null(as);
		assert_int_equal(filemap_read(&m->pgdat, &m->ctx, as, 0, 4000), 0);
		m->pgdat.vm_events[PGSTEAL_DIRECT] = 0;
		m->pgdat.vm_events[ALLOCSTALL_MOVABLE] = 0;
		for (int k = 0; k < 200; k++) {
			assert_non_null(p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
			assert_int_equal(zone_of(m, p), ZONE_DMA32);
		}
		if (i == 0) {
			assert_true(m->pgdat.vm_events[PGSTEAL_DIRECT] > 0);
			assert_true(m->pgdat.vm_events[ALLOCSTALL_MOVABLE] > 0);
			assert_int_equal(tl_stat(m, ZONE_NOSPLIT, NR_FREE_PAGES), 4096);
		} else {
			assert_int_equal(m->pgdat.vm_events[PGSTEAL_DIRECT], 0);
			assert_int_equal(m->pgdat.vm_events[ALLOCSTALL_MOVABLE], 0);
		}
		tl_check(m);
		tl_destroy(m);
	}
}

/* ZONE_NOSPLIT of order 4: an order-4 request splits a free page down to
 * order 4 and no lower; order 2 and order 0 never come from it
 * (gfp_order_zone()).  Undone (gfp_zone() as v6.2): the order-4 request
 * comes from DMA32 (and with the small requests let up, they would split
 * ZONE_NOSPLIT's pages below its order). */
static void test_nosplit_no_split_below_order(void **state)
{
	static const char *const sw[] = { "nosplit_percent=50", "nosplit_order=4", NULL };
	struct machine *m = boot("tao", sw);
	struct zone *z = tl_zone(m, ZONE_NOSPLIT);
	struct page *p;
	(void)state;

	assert_non_null(p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 4));
	assert_int_equal(zone_of(m, p), ZONE_NOSPLIT);
	for (unsigned o = 0; o < 4; o++)
		assert_int_equal(z->free_area[o].nr_free, 0);
	assert_int_equal(z->free_area[4].nr_free, 1);
	assert_non_null(p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 2));
	assert_int_equal(zone_of(m, p), ZONE_DMA32);
	assert_non_null(p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0));
	assert_int_equal(zone_of(m, p), ZONE_DMA32);
	for (unsigned o = 0; o < 4; o++)
		assert_int_equal(z->free_area[o].nr_free, 0);
	assert_int_equal(tl_stat(m, ZONE_NOSPLIT, NR_FREE_PAGES), 4096 - 16);
	/* an unmovable order-4 request does not go up either (gfp_zone()
	 * is ZONE_NORMAL) */
	assert_non_null(p = tl_alloc(m, GFP_KERNEL, 4));
	assert_int_equal(zone_of(m, p), ZONE_DMA32);
	tl_check(m);
}

/* ZONE_NOMERGE of order 9 above a ZONE_NOSPLIT of order 4 (nosplit=25%,4
 * nomerge=25%,9: NOSPLIT pfns 8192..10239, NOMERGE 10240..12287): its
 * free pages stop merging at order 9 (zone_max_order()), at boot and
 * after two buddies are freed; it serves order 9 only, first; an order-4
 * request goes to ZONE_NOSPLIT.  Undone (merging to MAX_ORDER - 1): two
 * order-10 buddies in ZONE_NOMERGE at boot. */
static void test_nomerge_no_merge_above_order(void **state)
{
	static const char *const sw[] = { "nosplit_percent=25", "nosplit_order=4", "nomerge_percent=25",
	                                  "nomerge_order=9", NULL };
	struct machine *m = boot("tao", sw);
	struct zone *z = tl_zone(m, ZONE_NOMERGE);
	struct page *a, *b, *p;
	(void)state;

	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->zone_start_pfn, TL_DMA32_START + 4096);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->spanned_pages, 2048);
	assert_int_equal(z->zone_start_pfn, TL_DMA32_START + 6144);
	assert_int_equal(z->spanned_pages, 2048);
	assert_int_equal(z->max_order, 9);
	assert_int_equal(z->free_area[9].nr_free, 4);
	assert_int_equal(z->free_area[10].nr_free, 0);
	assert_int_equal(tl_zone(m, ZONE_NOSPLIT)->free_area[10].nr_free, 2);

	assert_non_null(a = tl_alloc(m, GFP_TRANSHUGE_LIGHT, 9));
	assert_non_null(b = tl_alloc(m, GFP_TRANSHUGE_LIGHT, 9));
	assert_int_equal(zone_of(m, a), ZONE_NOMERGE);
	assert_int_equal(zone_of(m, b), ZONE_NOMERGE);
	assert_non_null(p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 4));
	assert_int_equal(zone_of(m, p), ZONE_NOSPLIT);
	tl_free(m, a, 9);
	tl_free(m, b, 9);
	drain_all_pages(&m->pgdat);
	assert_int_equal(z->free_area[9].nr_free, 4);
	assert_int_equal(z->free_area[10].nr_free, 0);
	assert_int_equal(tl_stat(m, ZONE_NOMERGE, NR_FREE_PAGES), 2048);
	tl_check(m);
}

/* zone_is_suitable() in the watermark checks: a policy zone meets no
 * watermark for an order it does not serve, so with DMA32 full and all of
 * ZONE_NOSPLIT free, kswapd woken by a THP fault (highest zone
 * ZONE_NOSPLIT) finds the node unbalanced at order 0 and balanced at the
 * THP's order, and compaction finds no order-0 migration targets in
 * ZONE_NOSPLIT.  Undone (every zone suitable): order 0 balanced by
 * ZONE_NOSPLIT's free pages, compaction would go on there. */
static void test_watermarks_of_unserved_orders(void **state)
{
	struct machine *m = boot("tao", half_nosplit);
	struct zone *z = tl_zone(m, ZONE_NOSPLIT);
	(void)state;

	m->pgdat.debug_check_interval = 0;
	while (tl_alloc(m, GFP_KERNEL, 0))
		;
	assert_int_equal(tl_stat(m, ZONE_DMA32, NR_FREE_PAGES), 0);
	assert_int_equal(tl_stat(m, ZONE_NOSPLIT, NR_FREE_PAGES), 4096);
	assert_false(zone_watermark_ok(&m->pgdat, z, 0, min_wmark_pages(z), ZONE_NOSPLIT, 0));
	assert_true(zone_watermark_ok(&m->pgdat, z, HPAGE_PMD_ORDER, min_wmark_pages(z), ZONE_NOSPLIT, 0));
	assert_false(pgdat_balanced(&m->pgdat, 0, ZONE_NOSPLIT));
	assert_true(pgdat_balanced(&m->pgdat, HPAGE_PMD_ORDER, ZONE_NOSPLIT));
	assert_int_equal(compaction_suitable(z, HPAGE_PMD_ORDER - 1, 0, ZONE_NOSPLIT), COMPACT_SKIPPED);
	tl_check(m);
}

/* The switches the kernel would drop both zones for are refused. */
static void test_bad_orders_refused(void **state)
{
	struct mm_policy *p;
	char err[256];
	(void)state;

	assert_int_equal(mm_policy_create("tao", &p, err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "nomerge_percent", "10", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "nomerge_order", "9", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "must be above nosplit_order"));
	assert_int_equal(mm_policy_set(p, "nosplit_order", "4", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), 0);
	assert_int_equal(mm_policy_set(p, "nosplit_percent", "95", err, sizeof(err)), 0);
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), -1);
	mm_policy_destroy(p);
}

/* kswapd=yes (gfp_to_alloc_flags() of the android15-6.6 backport): a THP
 * request for ZONE_NOSPLIT that cannot reclaim directly and has no
 * __GFP_KSWAPD_RECLAIM (defrag=madvise, no madvise) wakes kswapd when it
 * fails the fast path; kswapd=no (v6.2's rule): it does not.  Undone: no
 * wake with kswapd=yes either. */
static void test_kswapd_switch(void **state)
{
	static const char *const off[] = { "nosplit_percent=50", "kswapd=no", NULL };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct machine *m = boot("tao", i == 0 ? half_nosplit : off);

		m->pgdat.debug_check_interval = 0;
		/* DMA32 full, then every THP ZONE_NOSPLIT gives at its
		 * watermark */
		while (tl_alloc(m, GFP_KERNEL, 0))
			;
		for (int k = 0; k < 7; k++)
			assert_non_null(tl_alloc(m, GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER));
		m->pgdat.kswapd_highest_zoneidx = MAX_NR_ZONES;
		m->pgdat.kswapd_order = 0;
		assert_null(tl_alloc(m, GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER));
		if (i == 0) {
			assert_int_equal(m->pgdat.kswapd_highest_zoneidx, ZONE_NOSPLIT);
			assert_int_equal(m->pgdat.kswapd_order, HPAGE_PMD_ORDER);
		} else {
			assert_int_equal(m->pgdat.kswapd_highest_zoneidx, MAX_NR_ZONES);
		}
		tl_destroy(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_boot_carves_nosplit, tl_teardown),
		cmocka_unit_test_teardown(test_boot_qemu_layouts, tl_teardown),
		cmocka_unit_test_teardown(test_thp_from_nosplit_then_fallback, tl_teardown),
		cmocka_unit_test_teardown(test_small_never_enters_nosplit, tl_teardown),
		cmocka_unit_test_teardown(test_small_partition_reclaims, tl_teardown),
		cmocka_unit_test_teardown(test_nosplit_no_split_below_order, tl_teardown),
		cmocka_unit_test_teardown(test_nomerge_no_merge_above_order, tl_teardown),
		cmocka_unit_test_teardown(test_watermarks_of_unserved_orders, tl_teardown),
		cmocka_unit_test_teardown(test_bad_orders_refused, tl_teardown),
		cmocka_unit_test_teardown(test_kswapd_switch, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
