/* test_policy.c - the policy interface: a hook a policy leaves unset is
 * v6.2's decision, a switch that is off leaves its hooks and features
 * unset, features add up along a chain of bases, and every registered
 * policy resolves to a table without holes.
 */
#include "testlib.h"
#include "random_alloc.h"

/* a policy that states nothing */
static const struct mm_policy_ops nothing_ops = { .name = "nothing", .desc = "changes nothing" };

/* one that changes a single decision and builds on another policy */
static int movable_first(const struct mm_policy *p)
{
	(void)p;
	return MIGRATE_UNMOVABLE;
}
static const struct mm_policy_ops child_ops = {
	.name = "child", .base = &nothing_ops, .features = MMF_NO_WATERMARK_BOOST,
	.boot_pageblock_migratetype = movable_first,
};

/* the hooks of a resolved table, as an array of pointers */
#define HOOK_PTRS(o) { \
	(const void *)(o)->policy_zones, (const void *)(o)->boot_pageblock_migratetype, (const void *)(o)->fallbacks, \
	(const void *)(o)->can_steal_fallback, (const void *)(o)->free_one_page_migratetype, \
	(const void *)(o)->zone_free_pages, (const void *)(o)->watermark_area_ok, (const void *)(o)->wmark_gap, \
	(const void *)(o)->reclaim_order, (const void *)(o)->compact_order, \
	(const void *)(o)->compaction_suitable_free_pages, (const void *)(o)->isolate_free_page_free_pages, \
	(const void *)(o)->suitable_migration_source, (const void *)(o)->suitable_migration_target, \
	(const void *)(o)->compact_finished, (const void *)(o)->compaction_wmark, \
	(const void *)(o)->compaction_capture, (const void *)(o)->wakeup_kswapd_wakes_kcompactd, \
	(const void *)(o)->bdev_mapping_gfp }
#define NR_HOOKS 19

static void assert_v6_2(const struct mm_policy *p)
{
	const void *a[NR_HOOKS] = HOOK_PTRS(&p->ops), *b[NR_HOOKS] = HOOK_PTRS(&mm_v6_2_ops);
	for (int i = 0; i < NR_HOOKS; i++)
		if (a[i] != b[i])
			fail_msg("%s: hook %d is not v6.2's", p->ops.name, i);
	assert_int_equal(p->ops.features, 0);
	assert_ptr_equal(p->ops.reserve_highatomic_pageblock, mm_v6_2_ops.reserve_highatomic_pageblock);
	assert_ptr_equal(p->ops.boost_watermark, mm_v6_2_ops.boost_watermark);
}

static void test_unset_is_v6_2(void **state)
{
	char err[256];
	struct mm_policy *p, *v;
	(void)state;

	assert_int_equal(mm_policy_create_ops(&nothing_ops, &p, err, sizeof(err)), 0);
	assert_v6_2(p);
	assert_int_equal(mm_policy_create("vanilla", &v, err, sizeof(err)), 0);
	assert_v6_2(v);
	mm_policy_destroy(p);
	mm_policy_destroy(v);
}

/* a child's own hook and feature, the rest its base's (and so v6.2's);
 * the compiled-out feature's hook is gone, the base keeps it */
static void test_base_chain(void **state)
{
	char err[256];
	struct mm_policy *p;
	(void)state;

	assert_int_equal(mm_policy_create_ops(&child_ops, &p, err, sizeof(err)), 0);
	assert_ptr_equal(p->ops.boot_pageblock_migratetype, movable_first);
	assert_ptr_equal(p->base->boot_pageblock_migratetype, mm_v6_2_ops.boot_pageblock_migratetype);
	assert_ptr_equal(p->ops.fallbacks, mm_v6_2_ops.fallbacks);
	assert_true(mm_policy_has(p, MMF_NO_WATERMARK_BOOST));
	assert_null(p->ops.boost_watermark);
	assert_non_null(p->ops.reserve_highatomic_pageblock);
	mm_policy_destroy(p);
}

/* every registered policy, at its defaults: no hook left NULL */
static void test_registry_resolves(void **state)
{
	char err[256];
	(void)state;

	for (int i = 0; mm_policy_table[i]; i++) {
		struct mm_policy *p;
		assert_int_equal(mm_policy_create(mm_policy_table[i]->name, &p, err, sizeof(err)), 0);
		{
			const void *a[NR_HOOKS] = HOOK_PTRS(&p->ops);
			for (int h = 0; h < NR_HOOKS; h++)
				if (!a[h])
					fail_msg("%s: hook %d unresolved", p->ops.name, h);
		}
		mm_policy_destroy(p);
	}
}

static const char *const rfc_all_off[] = {
	"bdev_cache_movable=no", "nofs_compact_reserves=no", "capture_claim_block=no", "capture_larger=no",
	"migrate_free=no", "compact_retry_three_outcomes=no", "compaction_suitable_movable=no",
	"zonelist_suitable_targets_only=no", "kswapd_compaction_suitable=no",
	"compaction_ready_before_zones=no", "wmark_free_blocks=no", "no_highatomic=no",
	"no_watermark_boost=no", "no_fallback=no", "last_resort_fallback=no", NULL,
};

/* the RFC with every switch off states nothing: its table is v6.2's */
static void test_rfc_all_off_is_v6_2(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct mm_layout l = tl_layout_dma32(8);
	struct machine *m = tl_boot("hugealloc_rfc", rfc_all_off, &l, 1, &s);
	(void)state;

	assert_v6_2(m->policy);
	tl_destroy(m);
}

/* and it runs as v6.2 does: a mixed load under pressure, same seed, the
 * same counters and the same free lists */
static void run_load(const char *policy, const char *const *sw, unsigned long *events, long *nr_free)
{
	struct vm_sysctl s = tl_sysctl();
	struct mm_layout l = tl_layout_dma32(16);
	struct machine *m = tl_boot(policy, sw, &l, 2, &s);
	struct random_alloc_params p;
	struct random_alloc_stats st;

	m->pgdat.debug_check_interval = 0;
	random_alloc_defaults(&p);
	p.seed = 3;
	p.ops = 40000;
	p.occupancy = 0.95;
	p.check_every = 0;
	assert_int_equal(random_alloc_run(&m->pgdat, &p, &st, 1), 0);
	memcpy(events, m->pgdat.vm_events, sizeof(m->pgdat.vm_events));
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		nr_free[mt] = (long)tl_list_pages(m, ZONE_DMA32, mt);
	tl_destroy(m);
}

static void test_rfc_all_off_runs_as_vanilla(void **state)
{
	static unsigned long ev_v[NR_VM_EVENT_ITEMS], ev_r[NR_VM_EVENT_ITEMS], ev_h[NR_VM_EVENT_ITEMS];
	long fr_v[MIGRATE_TYPES], fr_r[MIGRATE_TYPES], fr_h[MIGRATE_TYPES];
	(void)state;

	run_load("vanilla", NULL, ev_v, fr_v);
	run_load("hugealloc_rfc", rfc_all_off, ev_r, fr_r);
	run_load("hugealloc_rfc", NULL, ev_h, fr_h);
	assert_true(ev_v[PGALLOC_DMA32] > 0);
	assert_memory_equal(ev_v, ev_r, sizeof(ev_v));
	assert_memory_equal(fr_v, fr_r, sizeof(fr_v));
	/* the load is one the RFC changes: the comparison can fail */
	assert_true(memcmp(fr_v, fr_h, sizeof(fr_v)) != 0);
}

/* mm_policy_is_base() (mmsim ablate's "baseline" column): a policy
 * stating nothing (vanilla) is its base, v6_15 is not v6.2; the RFC and
 * defrag_mode at their defaults are not; the RFC with every switch off
 * is v6.2, defrag_mode with defrag_mode=no is v6_15, and one patch off
 * is neither */
static struct mm_policy *create_with(const char *name, const char *const *sw)
{
	struct mm_policy *p;
	char err[512];

	assert_int_equal(mm_policy_create(name, &p, err, sizeof(err)), 0);
	for (; sw && *sw; sw++) {
		char key[128];
		const char *eq = strchr(*sw, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *sw), *sw);
		assert_int_equal(mm_policy_set(p, key, eq + 1, err, sizeof(err)), 0);
	}
	assert_int_equal(mm_policy_validate(p, err, sizeof(err)), 0);
	return p;
}

static void test_is_base(void **state)
{
	static const char *const dm_off[] = { "defrag_mode=no", NULL };
	static const char *const dm_one[] = { "nofragment=no", NULL };
	static const char *const rfc_one[] = { "no_fallback=no", NULL };
	static const struct { const char *name; const char *const *sw; bool base; } cases[] = {
		{ "vanilla", NULL, true }, { "v6_15", NULL, false },
		{ "hugealloc_rfc", NULL, false }, { "hugealloc_rfc", rfc_all_off, true },
		{ "hugealloc_rfc", rfc_one, false },
		{ "defrag_mode", NULL, false }, { "defrag_mode", dm_off, true },
		{ "defrag_mode", dm_one, false },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mm_policy *p = create_with(cases[i].name, cases[i].sw);
		if (mm_policy_is_base(p) != cases[i].base)
			fail_msg("case %zu (%s): mm_policy_is_base() is %d", i, cases[i].name, !cases[i].base);
		mm_policy_destroy(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unset_is_v6_2),
		cmocka_unit_test(test_base_chain),
		cmocka_unit_test(test_registry_resolves),
		cmocka_unit_test_teardown(test_rfc_all_off_is_v6_2, tl_teardown),
		cmocka_unit_test_teardown(test_rfc_all_off_runs_as_vanilla, tl_teardown),
		cmocka_unit_test(test_is_base),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
