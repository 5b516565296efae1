/* test_watermarks.c - min_free_kbytes, the per-zone watermarks, lowmem
 * reserves and pcp limits (v6.2's calculate_min_free_kbytes,
 * __setup_per_zone_wmarks, setup_per_zone_lowmem_reserve, khugepaged's
 * set_recommended_min_free_kbytes, zone_batchsize/zone_highsize), patch
 * RFC 22/26's pageblock-aligned watermark gap, and mm_layout_qemu().
 *
 * The kernel fixture is a 24 GiB, 2-CPU QEMU guest running v6.2 with THP
 * enabled; its /proc/zoneinfo reads:
 *   managed  DMA 3840   DMA32 772794   Normal 5394258
 *   min/low/high  DMA 10/13/16  DMA32 2115/2887/3659  Normal 14769/20163/25557
 *   protection  DMA (0, 3018, 24090, 24090)  DMA32 (0, 0, 21071, 21071)
 * and vm.min_free_kbytes is 67584.
 */
#include "testlib.h"

#define GiB (1024ull * 1024 * 1024)
#define MiB (1024ull * 1024)

/* the kernel's mult_frac(x, n, d) */
static unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d)
{
	return x / d * n + x % d * n / d;
}

/* the kernel's int_sqrt(), by bisection (independent of the model's) */
static unsigned long ref_int_sqrt(unsigned long x)
{
	unsigned long lo = 0, hi = 1ul << 32;
	while (hi - lo > 1) {
		unsigned long mid = lo + (hi - lo) / 2;
		if (mid * mid <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static struct mm_layout fixture_layout(void)
{
	struct mm_layout l;
	memset(&l, 0, sizeof(l));
	l.zone[ZONE_DMA] = (struct zone_layout){
		.start_pfn = 1, .spanned = 4095, .present = 3998, .managed_start = 256, .managed = 3840,
	};
	l.zone[ZONE_DMA32] = (struct zone_layout){
		.start_pfn = 4096, .spanned = 1044480, .present = 782336,
		.managed_start = 4096 + (782336 - 772794), .managed = 772794,
	};
	l.zone[ZONE_NORMAL] = (struct zone_layout){
		.start_pfn = 1048576, .spanned = 5505024, .present = 5505024,
		.managed_start = 1048576, .managed = 5394258,
	};
	return l;
}

static struct machine *boot_fixture(const char *policy, const char *const *switches,
                                    const struct vm_sysctl *s)
{
	struct mm_layout l = fixture_layout();
	struct machine *m = tl_boot(policy, switches, &l, 2, s);
	m->pgdat.debug_check_interval = 0;      /* no operations here; a walk costs 6M pfns */
	return m;
}

static void assert_wmarks(struct machine *m, enum zone_type zi, unsigned long min,
                          unsigned long low, unsigned long high)
{
	const struct zone *z = tl_zone(m, zi);
	if (z->_watermark[WMARK_MIN] != min || z->_watermark[WMARK_LOW] != low ||
	    z->_watermark[WMARK_HIGH] != high)
		fail_msg("zone %s: min/low/high %lu/%lu/%lu, expected %lu/%lu/%lu", z->name,
		         z->_watermark[WMARK_MIN], z->_watermark[WMARK_LOW], z->_watermark[WMARK_HIGH],
		         min, low, high);
	assert_int_equal(z->watermark_boost, 0);
}

/* The watermarks __setup_per_zone_wmarks computes from min_free_kbytes,
 * written out independently of the model; align: RFC 22/26's ALIGN(gap,
 * pageblock_nr_pages). */
static void assert_wmarks_formula(struct machine *m, unsigned long min_free_kbytes, unsigned wsf,
                                  bool align)
{
	unsigned long pages_min = min_free_kbytes >> 2, lowmem = 0;

	for (int zi = ZONE_DMA; zi <= ZONE_NORMAL; zi++)
		lowmem += tl_zone(m, (enum zone_type)zi)->managed_pages;
	for (int zi = ZONE_DMA; zi <= ZONE_NORMAL; zi++) {
		const struct zone *z = tl_zone(m, (enum zone_type)zi);
		unsigned long min = (unsigned long)((unsigned long long)pages_min * z->managed_pages / lowmem);
		unsigned long gap = mult_frac(z->managed_pages, wsf, 10000);
		if (min / 4 > gap)
			gap = min / 4;
		if (align)
			gap = (gap + 511) / 512 * 512;
		if (!z->managed_pages)
			continue;
		assert_wmarks(m, (enum zone_type)zi, min, min + gap, min + 2 * gap);
	}
	/* an empty ZONE_MOVABLE: min clamped to SWAP_CLUSTER_MAX, no gap */
	assert_wmarks(m, ZONE_MOVABLE, 32, 32, 32);
}

/* vanilla v6.2 on the fixture: exactly the numbers of the real guest */
static void test_kernel_fixture(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	(void)state;

	assert_true(s.thp_enabled);
	m = boot_fixture("vanilla", NULL, &s);
	assert_int_equal(tl_zone(m, ZONE_DMA)->managed_pages, 3840);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->managed_pages, 772794);
	assert_int_equal(tl_zone(m, ZONE_NORMAL)->managed_pages, 5394258);
	assert_int_equal(m->pgdat.sysctl.min_free_kbytes, 67584);
	assert_int_equal(m->pgdat.sysctl.user_min_free_kbytes, -1);
	assert_wmarks(m, ZONE_DMA, 10, 13, 16);
	assert_wmarks(m, ZONE_DMA32, 2115, 2887, 3659);
	assert_wmarks(m, ZONE_NORMAL, 14769, 20163, 25557);
	assert_wmarks(m, ZONE_MOVABLE, 32, 32, 32);
	assert_wmarks_formula(m, 67584, 10, false);
	{
		static const long dma[MAX_NR_ZONES] = { 0, 3018, 24090, 24090 };
		static const long dma32[MAX_NR_ZONES] = { 0, 0, 21071, 21071 };
		static const long zero[MAX_NR_ZONES] = { 0, 0, 0, 0 };
		/* the four zones of the v6.2 kernel (/proc/zoneinfo's protection) */
		assert_int_equal(m->pgdat.kernel_nr_zones, ZONE_MOVABLE + 1);
		for (int j = 0; j < (int)m->pgdat.kernel_nr_zones; j++) {
			assert_int_equal(tl_zone(m, ZONE_DMA)->lowmem_reserve[j], dma[j]);
			assert_int_equal(tl_zone(m, ZONE_DMA32)->lowmem_reserve[j], dma32[j]);
			assert_int_equal(tl_zone(m, ZONE_NORMAL)->lowmem_reserve[j], zero[j]);
			assert_int_equal(tl_zone(m, ZONE_MOVABLE)->lowmem_reserve[j], zero[j]);
		}
	}
	/* zone_batchsize / zone_highsize (2 CPUs, high = low / 2) */
	assert_int_equal(tl_zone(m, ZONE_DMA)->per_cpu_pageset[1].batch, 1);
	assert_int_equal(tl_zone(m, ZONE_DMA)->per_cpu_pageset[1].high, 6);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->per_cpu_pageset[0].batch, 63);
	assert_int_equal(tl_zone(m, ZONE_DMA32)->per_cpu_pageset[0].high, 2887 / 2);
	assert_int_equal(tl_zone(m, ZONE_NORMAL)->per_cpu_pageset[1].batch, 63);
	assert_int_equal(tl_zone(m, ZONE_NORMAL)->per_cpu_pageset[1].high, 20163 / 2);
	/* every page boots free */
	assert_int_equal(global_zone_page_state(&m->pgdat, NR_FREE_PAGES), 3840 + 772794 + 5394258);
}

/* Without THP, min_free_kbytes is the square-root rule:
 * int_sqrt(lowmem_kbytes * 16), clamped to [128, 262144]. */
static void test_min_free_kbytes_sqrt_rule(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	unsigned long lowmem_kbytes = (3840ul + 772794 + 5394258) * 4, expect;
	struct machine *m;
	(void)state;

	s.thp_enabled = false;
	m = boot_fixture("vanilla", NULL, &s);
	expect = ref_int_sqrt(lowmem_kbytes * 16);
	assert_int_equal(expect, 19873);
	assert_int_equal(m->pgdat.sysctl.min_free_kbytes, (int)expect);
	assert_wmarks_formula(m, expect, 10, false);
	tl_destroy(m);

	/* a tiny machine: the rule gives less than 128 kB, the clamp wins */
	{
		struct mm_layout l = tl_layout_dma32(1);
		l.zone[ZONE_DMA32].managed = 200;
		l.zone[ZONE_DMA32].present = 200;
		m = tl_boot("vanilla", NULL, &l, 1, &s);
		assert_true(ref_int_sqrt(200 * 4 * 16) < 128);
		assert_int_equal(m->pgdat.sysctl.min_free_kbytes, 128);
		assert_int_equal(tl_zone(m, ZONE_DMA32)->_watermark[WMARK_MIN], 32);
	}
}

/* vm.min_free_kbytes written by the user wins over both rules. */
static void test_user_min_free_kbytes(void **state)
{
	static const int values[] = { 4096, 100000 };
	(void)state;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct vm_sysctl s = tl_sysctl();
		struct machine *m;

		s.user_min_free_kbytes = values[i];
		m = boot_fixture("vanilla", NULL, &s);
		assert_int_equal(m->pgdat.sysctl.min_free_kbytes, values[i]);
		assert_int_equal(m->pgdat.sysctl.user_min_free_kbytes, values[i]);
		assert_wmarks_formula(m, (unsigned long)values[i], 10, false);
		tl_destroy(m);
	}
}

/* watermark_scale_factor: the kswapd distance is the larger of min/4 and
 * mult_frac(managed, watermark_scale_factor, 10000). */
static void test_watermark_scale_factor(void **state)
{
	static const int factors[] = { 1, 100, 1000 };
	(void)state;

	for (size_t i = 0; i < sizeof(factors) / sizeof(factors[0]); i++) {
		struct vm_sysctl s = tl_sysctl();
		struct machine *m;

		s.watermark_scale_factor = factors[i];
		m = boot_fixture("vanilla", NULL, &s);
		/* the scale factor does not move min */
		assert_int_equal(m->pgdat.sysctl.min_free_kbytes, 67584);
		assert_int_equal(tl_zone(m, ZONE_NORMAL)->_watermark[WMARK_MIN], 14769);
		assert_wmarks_formula(m, 67584, (unsigned)factors[i], false);
		if (factors[i] == 1000) {
			/* the share dominates: a tenth of the zone per step */
			assert_wmarks(m, ZONE_NORMAL, 14769, 14769 + 539425, 14769 + 2 * 539425);
			assert_wmarks(m, ZONE_DMA, 10, 10 + 384, 10 + 768);
		}
		if (factors[i] == 1)
			/* min/4 dominates */
			assert_wmarks(m, ZONE_DMA32, 2115, 2115 + 528, 2115 + 1056);
		tl_destroy(m);
	}
}

/* RFC 22/26: the low-min and high-low distances are whole pageblocks,
 * with CONFIG_COMPACTION; min itself is v6.2's. */
static void test_hygiene_gap_aligned(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	(void)state;

	m = boot_fixture("hygiene", NULL, &s);
	assert_int_equal(m->pgdat.sysctl.min_free_kbytes, 67584);
	assert_wmarks(m, ZONE_DMA, 10, 10 + 512, 10 + 1024);
	assert_wmarks(m, ZONE_DMA32, 2115, 2115 + 1024, 2115 + 2048);
	assert_wmarks(m, ZONE_NORMAL, 14769, 14769 + 5632, 14769 + 11264);
	assert_wmarks_formula(m, 67584, 10, true);
	tl_destroy(m);

	/* without wmark_free_blocks (RFC 22/26), v6.2's distances */
	{
		static const char *const sw[] = { "wmark_free_blocks=no", "no_highatomic=no",
		                                  "no_watermark_boost=no", NULL };
		m = boot_fixture("hygiene", sw, &s);
		assert_wmarks(m, ZONE_DMA32, 2115, 2887, 3659);
		assert_wmarks_formula(m, 67584, 10, false);
		tl_destroy(m);
	}
	/* without CONFIG_COMPACTION, RFC 22/26 keeps v6.2's distances */
	s.config_compaction = false;
	m = boot_fixture("hygiene", NULL, &s);
	assert_wmarks(m, ZONE_NORMAL, 14769, 20163, 25557);
	assert_wmarks_formula(m, 67584, 10, false);
}

/* mm_layout_qemu(): QEMU pc machine RAM placement. */
static void test_layout_qemu(void **state)
{
	struct mm_layout l;
	char err[256];
	(void)state;

	/* 2 GiB: all RAM below 4 GiB, no Normal zone; memmap from DMA32 */
	assert_int_equal(mm_layout_qemu(2 * GiB, 9542, &l, err, sizeof(err)), 0);
	assert_int_equal(l.zone[ZONE_DMA].start_pfn, 1);
	assert_int_equal(l.zone[ZONE_DMA].managed_start, 256);
	assert_int_equal(l.zone[ZONE_DMA].managed, 3840);
	assert_int_equal(l.zone[ZONE_DMA32].start_pfn, 4096);
	assert_int_equal(l.zone[ZONE_DMA32].spanned, 524288 - 4096);
	assert_int_equal(l.zone[ZONE_DMA32].present, 524288 - 4096);
	assert_int_equal(l.zone[ZONE_DMA32].managed, 524288 - 4096 - 9542 - 8192);
	assert_int_equal(l.zone[ZONE_NORMAL].spanned, 0);
	assert_int_equal(l.zone[ZONE_NORMAL].managed, 0);
	assert_int_equal(l.zone[ZONE_MOVABLE].spanned, 0);

	/* 8 GiB: 3 GiB below the PCI hole, DMA32 spans to 4 GiB; Normal is the
	 * other 5 GiB less the memmap (64 bytes per page of all RAM) */
	assert_int_equal(mm_layout_qemu(8 * GiB, 9542, &l, err, sizeof(err)), 0);
	assert_int_equal(l.zone[ZONE_DMA32].spanned, 1048576 - 4096);
	assert_int_equal(l.zone[ZONE_DMA32].present, 786432 - 4096);
	assert_int_equal(l.zone[ZONE_DMA32].managed, 786432 - 4096 - 9542);
	assert_int_equal(l.zone[ZONE_NORMAL].start_pfn, 1048576);
	assert_int_equal(l.zone[ZONE_NORMAL].spanned, 5 * 262144);
	assert_int_equal(l.zone[ZONE_NORMAL].present, 5 * 262144);
	assert_int_equal(l.zone[ZONE_NORMAL].managed, 5 * 262144 - 8 * 262144 * 64 / 4096);

	/* 24 GiB: the fixture's zone spans and DMA32 managed pages */
	{
		struct mm_layout f = fixture_layout();
		assert_int_equal(mm_layout_qemu(24 * GiB, 9542, &l, err, sizeof(err)), 0);
		for (int zi = ZONE_DMA; zi <= ZONE_NORMAL; zi++) {
			assert_int_equal(l.zone[zi].start_pfn, f.zone[zi].start_pfn);
			assert_int_equal(l.zone[zi].spanned, f.zone[zi].spanned);
			assert_int_equal(l.zone[zi].present, f.zone[zi].present);
		}
		assert_int_equal(l.zone[ZONE_DMA32].managed_start, f.zone[ZONE_DMA32].managed_start);
		assert_int_equal(l.zone[ZONE_DMA32].managed, 772794);
	}

	/* the 3.5 GiB threshold: below it everything is low memory */
	assert_int_equal(mm_layout_qemu(3583 * MiB, 0, &l, err, sizeof(err)), 0);
	assert_int_equal(l.zone[ZONE_DMA32].present, 3583 * 256 - 4096);
	assert_int_equal(l.zone[ZONE_NORMAL].spanned, 0);
	assert_int_equal(mm_layout_qemu(3584 * MiB, 0, &l, err, sizeof(err)), 0);
	assert_int_equal(l.zone[ZONE_DMA32].present, 786432 - 4096);
	assert_int_equal(l.zone[ZONE_NORMAL].present, 512 * 256);

	/* too small, zero, not page-sized: rejected with a message */
	err[0] = 0;
	assert_int_equal(mm_layout_qemu(32 * MiB, 0, &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too small"));
	err[0] = 0;
	assert_int_equal(mm_layout_qemu(0, 0, &l, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	err[0] = 0;
	assert_int_equal(mm_layout_qemu(128 * MiB + 100, 0, &l, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	/* 64 MiB is the smallest guest */
	assert_int_equal(mm_layout_qemu(64 * MiB, 0, &l, err, sizeof(err)), 0);
}

/* pgdat_init rejects what cannot be booted. */
static void test_pgdat_init_rejects(void **state)
{
	struct mm_layout l = tl_layout_dma32(4);
	struct vm_sysctl s = tl_sysctl();
	struct pglist_data *pgdat = calloc(1, sizeof(*pgdat));
	struct mm_policy *p;
	char err[256];
	(void)state;

	assert_non_null(pgdat);
	assert_int_equal(mm_policy_create("vanilla", &p, err, sizeof(err)), 0);
	err[0] = 0;
	assert_int_equal(pgdat_init(pgdat, &l, 0, &s, p, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	l.zone[ZONE_DMA32].managed += 1;        /* managed beyond the span */
	err[0] = 0;
	assert_int_equal(pgdat_init(pgdat, &l, 1, &s, p, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	memset(&l, 0, sizeof(l));
	err[0] = 0;
	assert_int_equal(pgdat_init(pgdat, &l, 1, &s, p, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	mm_policy_destroy(p);
	free(pgdat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_kernel_fixture, tl_teardown),
		cmocka_unit_test_teardown(test_min_free_kbytes_sqrt_rule, tl_teardown),
		cmocka_unit_test_teardown(test_user_min_free_kbytes, tl_teardown),
		cmocka_unit_test_teardown(test_watermark_scale_factor, tl_teardown),
		cmocka_unit_test_teardown(test_hygiene_gap_aligned, tl_teardown),
		cmocka_unit_test_teardown(test_layout_qemu, tl_teardown),
		cmocka_unit_test_teardown(test_pgdat_init_rejects, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
