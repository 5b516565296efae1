/* scenario_thp.c - the THP fault path and compaction on a running machine:
 * the thp_faulter workload (mmap, madvise(MADV_HUGEPAGE), touch, hold,
 * munmap) alone on an idle guest, and beside a small kernel build that
 * fragments memory under the vanilla allocator.  Asserts:
 *   (a) alone, nearly every THP fault succeeds without compaction, and
 *       nr_anon_transparent_hugepages returns to 0 once the faulter ends;
 *   (b) beside the build, faults fall back, and the pageblock census shows
 *       why (unmovable/reclaimable blocks, mixed blocks);
 *   (c) the compaction counters agree with one another (stall = success +
 *       fail, daemon scanning within all scanning, no daemon work when
 *       nothing wakes kcompactd, migrations when compaction succeeded);
 *   (d) the same seed gives the same vm_events;
 *   (e) with CONFIG_COMPACTION off, no compaction counter moves.
 * Each simulation is a scenario run by the library's run driver
 * (<mmsim/run.h>; without a build, [run] duration ends the faulter's
 * measured time) in a child (engine_fork_run), reporting through shared
 * memory; the invariant checker runs during every simulation.
 * Machines are small (1 GiB, 2 CPUs) so that the file stays fast under
 * ASan too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "mmsim/census.h"
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/policy.h"
#include "mmsim/run.h"
#include "kbuild.h"
#include "workload.h"

struct result {
	int status;                     /* 0, or where the child failed */
	char err[256];
	double t;
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	long node_stat[NR_VM_NODE_STAT_ITEMS];      /* at the end */
	long max_anon_thps;             /* over the sampler's records */
	double faulter_cycles;
	double kcompactd_cpu_ns;        /* kcompactd's work, woken or proactive */
	struct kbuild_stats kbuild;
	bool kbuild_ran;
	struct block_census census;     /* at the end */
	unsigned long check_failures;
};

struct thp_case {
	const char *policy;
	uint64_t ram;
	unsigned cpus;
	unsigned long swap_pages;
	bool no_compaction;             /* kernel.config_compaction = no */
	int proactiveness;              /* vm.compaction_proactiveness; -1: default (20) */
	const char *region;             /* thp_faulter.region */
	const char *const *kbuild;      /* kbuild parameters (key, value, ..., NULL); NULL: no build */
	double seconds;                 /* without a build: how long the faulter runs */
	uint64_t seed;
	struct result *res;
};

static void sample_max(const struct engine *e, struct result *r)
{
	for (size_t i = 0; i < e->nr_samples; i++)
		if (e->samples[i].node_stat[NR_ANON_THPS] > r->max_anon_thps)
			r->max_anon_thps = e->samples[i].node_stat[NR_ANON_THPS];
}

/* The machine and workloads as a scenario, run by the library's run
 * driver: with a build, the build is measured and the faulter stops when
 * it ends; without one, the faulter runs for `seconds` ([run] duration)
 * and then stops.  Every process ends (the drain) before the counters
 * and the census are read. */
static int child(void *arg)
{
	struct thp_case *sc = arg;
	struct result *r = sc->res;
	struct run *run;
	struct metric m[4];
	char text[1024], kv[160];
	int n;
	struct scenario *s;

	n = snprintf(text, sizeof(text),
	             "[machine]\nram = %llu\ncpus = %u\nswap = %llu\n"
	             "[kernel]\nconfig_compaction = %s\n"
	             "[workload]\nnames = %s\n"
	             "[workload.thp_faulter]\nregion = %s\n"
	             "[policy]\nname = %s\n"
	             "[run]\nseed = %llu\nsample_interval = 0.1\nduration = %s\n",
	             (unsigned long long)sc->ram, sc->cpus,
	             (unsigned long long)sc->swap_pages * PAGE_SIZE, sc->no_compaction ? "no" : "yes",
	             sc->kbuild ? "kbuild, thp_faulter" : "thp_faulter", sc->region, sc->policy,
	             (unsigned long long)sc->seed, sc->kbuild ? "auto" : "");
	if (!sc->kbuild)
		snprintf(text + n - 1, sizeof(text) - (size_t)n + 1, "%g\n", sc->seconds);
	s = scenario_new();
	if (scenario_load_string(s, text, "scenario_thp", r->err, sizeof(r->err)))
		return 10;
	if (sc->proactiveness >= 0) {
		snprintf(kv, sizeof(kv), "vm.compaction_proactiveness=%d", sc->proactiveness);
		if (scenario_set(s, kv, r->err, sizeof(r->err)))
			return 11;
	}
	for (const char *const *p = sc->kbuild; p && *p; p += 2) {
		snprintf(kv, sizeof(kv), "kbuild.%s=%s", p[0], p[1]);
		if (scenario_set(s, kv, r->err, sizeof(r->err)))
			return 12;
	}
	if (scenario_resolve(s, r->err, sizeof(r->err)))
		return 13;
	if (!(run = run_create(s, 200000, r->err, sizeof(r->err))))
		return 14;
	if (run_execute(run, r->err, sizeof(r->err)))
		return 15;
	r->t = run->sim_seconds;
	sample_max(&run->e, r);
	for (unsigned i = 0; i < run->set->n; i++) {
		const struct workload *w = run->set->w[i];
		if (!strcmp(w->ops->name, "thp_faulter") && w->ops->report(w, m, 4) > 0)
			r->faulter_cycles = m[0].value;
		if (!strcmp(w->ops->name, "kbuild")) {
			kbuild_get_stats(w, &r->kbuild);
			r->kbuild_ran = true;
		}
	}
	r->kcompactd_cpu_ns = run->e.kcompactd_cpu_ns;
	memcpy(r->vm_events, run->pgdat.vm_events, sizeof(r->vm_events));
	memcpy(r->node_stat, run->pgdat.vm_node_stat, sizeof(r->node_stat));
	pageblock_census(&run->pgdat, &r->census);
	r->check_failures = check_pgdat(&run->pgdat, "scenario end");
	/* the process ends here (engine_fork_run) */
	return 0;
}

static struct result *run(struct thp_case sc)
{
	struct result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;

	assert_true(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	sc.res = r;
	status = engine_fork_run(child, &sc);
	if (status)
		fprintf(stderr, "child failed (%d): %s\n", status, r->err);
	assert_int_equal(status, 0);
	assert_int_equal(r->check_failures, 0);
	return r;
}

#define EV(r, i) ((r)->vm_events[i])

static void show(const char *what, const struct result *r)
{
	print_message("%s: t %.2f s, cycles %.0f, thp_fault_alloc %lu, thp_fault_fallback %lu, "
	              "compact_stall %lu (success %lu, fail %lu), compact_migrate_scanned %lu, "
	              "compact_free_scanned %lu, compact_daemon_wake %lu, daemon migrate %lu, free %lu, "
	              "pgmigrate_success %lu, allocstall %lu, pswpout %lu, oom_kill %lu, "
	              "max nr_anon_thps %ld, end nr_anon_thps %ld\n",
	              what, r->t, r->faulter_cycles, EV(r, THP_FAULT_ALLOC), EV(r, THP_FAULT_FALLBACK),
	              EV(r, COMPACTSTALL), EV(r, COMPACTSUCCESS), EV(r, COMPACTFAIL),
	              EV(r, COMPACTMIGRATE_SCANNED), EV(r, COMPACTFREE_SCANNED), EV(r, KCOMPACTD_WAKE),
	              EV(r, KCOMPACTD_MIGRATE_SCANNED), EV(r, KCOMPACTD_FREE_SCANNED),
	              EV(r, PGMIGRATE_SUCCESS), EV(r, ALLOCSTALL_MOVABLE), EV(r, PSWPOUT), EV(r, OOM_KILL),
	              r->max_anon_thps, r->node_stat[NR_ANON_THPS]);
	if (r->kbuild_ran)
		print_message("%s: census unmovable %lu (mixed %lu), reclaimable %lu (mixed %lu), "
		              "movable %lu (mixed %lu); build units %u/%u, real %.2f s\n", what,
		              r->census.blocks[MIGRATE_UNMOVABLE], r->census.mixed_blocks[MIGRATE_UNMOVABLE],
		              r->census.blocks[MIGRATE_RECLAIMABLE], r->census.mixed_blocks[MIGRATE_RECLAIMABLE],
		              r->census.blocks[MIGRATE_MOVABLE], r->census.mixed_blocks[MIGRATE_MOVABLE],
		              r->kbuild.units_done, r->kbuild.units, r->kbuild.real_time);
}

/* (c) what must hold between the compaction counters of any run */
static void assert_compaction_consistent(const struct result *r)
{
	assert_int_equal(EV(r, COMPACTSUCCESS) + EV(r, COMPACTFAIL), EV(r, COMPACTSTALL));
	assert_true(EV(r, KCOMPACTD_MIGRATE_SCANNED) <= EV(r, COMPACTMIGRATE_SCANNED));
	assert_true(EV(r, KCOMPACTD_FREE_SCANNED) <= EV(r, COMPACTFREE_SCANNED));
	/* a direct compaction that succeeded, or kcompactd's, moved pages;
	 * a success by capture alone may not have: only the sum is asked */
	if (EV(r, COMPACTSUCCESS) > 0)
		assert_true(EV(r, PGMIGRATE_SUCCESS) > 0);
}

/* the idle machine: a 1 GiB, 2-CPU guest, no swap; the faulter maps 64 MiB
 * at a time for 4 virtual seconds */
static struct thp_case idle(int proactiveness)
{
	return (struct thp_case){ .policy = "vanilla", .ram = 1ull << 30, .cpus = 2,
	                          .proactiveness = proactiveness, .region = "512M", .seconds = 4,
	                          .seed = 1 };
}

/* (a) alone, the faulter's THP faults succeed from free pageblocks */
static void test_idle_faults_succeed(void **state)
{
	struct result *r;
	unsigned long alloc, fallback;
	(void)state;

	/* with nothing to wake kcompactd and no proactive compaction */
	r = run(idle(0));
	show("idle, proactiveness 0", r);
	alloc = EV(r, THP_FAULT_ALLOC);
	fallback = EV(r, THP_FAULT_FALLBACK);
	assert_true(r->faulter_cycles >= 2);
	assert_true(alloc >= 32 * 2);                   /* 32 THPs a cycle */
	assert_true(fallback * 100 < (alloc + fallback) * 5);
	assert_true(r->max_anon_thps > 0);
	assert_int_equal(r->node_stat[NR_ANON_THPS], 0);
	assert_true(EV(r, COMPACTSTALL) <= 1);
	assert_compaction_consistent(r);
	/* (c) no kcompactd work: nothing woke it, proactive compaction off */
	/* kswapd may wake it once or twice going to sleep after a THP's
	 * wakeup; it then finds compaction unsuitable or the order already
	 * there, and scans nothing */
	assert_true(EV(r, KCOMPACTD_WAKE) <= 2);
	assert_int_equal(EV(r, KCOMPACTD_MIGRATE_SCANNED), 0);
	assert_int_equal(EV(r, KCOMPACTD_FREE_SCANNED), 0);
	/* no reclaim either: the machine is idle */
	assert_int_equal(EV(r, ALLOCSTALL_MOVABLE), 0);

	/* the default proactiveness changes nothing of that on an idle machine */
	r = run(idle(-1));
	show("idle, proactiveness 20", r);
	alloc = EV(r, THP_FAULT_ALLOC);
	fallback = EV(r, THP_FAULT_FALLBACK);
	assert_true(alloc >= 32 * 2);
	assert_true(fallback * 100 < (alloc + fallback) * 5);
	assert_int_equal(r->node_stat[NR_ANON_THPS], 0);
	assert_true(EV(r, COMPACTSTALL) <= 1);
	assert_compaction_consistent(r);
}

/* the fragmenting load: a kernel build at 4% of its size (108 units)
 * with 12 jobs on 2 CPUs of a 1 GiB guest with 512 MiB of swap: cc1 jobs
 * of ~90 MiB each (about 1 GiB wanted at once), page cache, slab, page
 * tables, swapping; beside it, the faulter with hugealloc.ini's 512 MiB
 * region.  Direct compaction seldom fails here (a stalled fault lets
 * kcompactd run meanwhile): at 2% of the build none of its 23 attempts
 * did, at 4% one in a hundred does. */
static const char *const build12[] = { "tree", "synthetic", "scale", "0.04", "jobs", "12", NULL };
/* the same with 8 jobs */
static const char *const build8[] = { "tree", "synthetic", "scale", "0.02", "jobs", "8", NULL };

static struct thp_case busy(const char *const *build, int proactiveness)
{
	return (struct thp_case){ .policy = "vanilla", .ram = 1ull << 30, .cpus = 2, .swap_pages = 131072,
	                          .proactiveness = proactiveness, .region = "512M", .kbuild = build,
	                          .seed = 1 };
}

static void assert_census_explains(const struct block_census *c)
{
	unsigned long mixed = 0, polluting = 0;

	/* kernel memory has blocks of its own types ... */
	assert_true(c->blocks[MIGRATE_UNMOVABLE] + c->blocks[MIGRATE_RECLAIMABLE] > 0);
	/* ... and some of them (or movable ones) hold pages of other kinds */
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		mixed += c->mixed_blocks[mt];
		for (int k = 0; k < NR_CENSUS_KINDS; k++)
			polluting += c->mixed_pages[mt][k];
	}
	assert_true(mixed > 0);
	assert_true(polluting > 0);
}

/* (b) under the build, vanilla's THP faults fall back, and the census
 * shows polluted blocks; (c) the counters agree; (d) the same seed gives
 * the same counters */
static void test_build_fragments(void **state)
{
	struct result a, *r;
	(void)state;

	a = *run(busy(build12, -1));
	r = &a;
	show("build -j12, vanilla", r);
	assert_true(r->kbuild.finished);
	/* 1 GiB with 512 MiB of swap is near its end: every unit is built
	 * or its job was OOM-killed */
	assert_true(r->kbuild.units_done + EV(r, OOM_KILL) >= r->kbuild.units);
	assert_true(r->kbuild.units_done > 0);
	assert_true(EV(r, THP_FAULT_ALLOC) > 0);
	assert_true(EV(r, THP_FAULT_FALLBACK) > 0);
	assert_true(r->max_anon_thps > 0);
	assert_int_equal(r->node_stat[NR_ANON_THPS], 0);
	assert_census_explains(&r->census);
	/* (c): direct compaction ran and failed (whether one of its stalls
	 * also succeeded is this run's course: near its end, 4 to 8 jobs
	 * OOM-killed, it had 6 successes in 147 stalls under SimGrid's CPU
	 * sharing and 0 in 4 under the heap's; the -j8 runs below hold
	 * it); kcompactd worked (proactive compaction), and as v6.2 counts
	 * it only its woken runs (kcompactd_do_work) are in
	 * compact_daemon_*: none without a compact_daemon_wake */
	assert_compaction_consistent(r);
	assert_true(EV(r, COMPACTSTALL) > 0);
	assert_true(EV(r, COMPACTFAIL) > 0);
	assert_true(r->kcompactd_cpu_ns > 0);
	if (!EV(r, KCOMPACTD_WAKE)) {
		assert_int_equal(EV(r, KCOMPACTD_MIGRATE_SCANNED), 0);
		assert_int_equal(EV(r, KCOMPACTD_FREE_SCANNED), 0);
	}
	/* (d) */
	r = run(busy(build12, -1));
	assert_memory_equal(a.vm_events, r->vm_events, sizeof(a.vm_events));
	assert_memory_equal(a.node_stat, r->node_stat, sizeof(a.node_stat));
	assert_true(a.t == r->t);
}

/* (c) without proactive compaction kcompactd scans only when kswapd wakes
 * it for an order; with it, kcompactd works more, on its own timer, and
 * (v6.2) that work is not in the compact_daemon_* counters */
static void test_no_kcompactd_work(void **state)
{
	struct result *r, off;
	(void)state;

	r = run(busy(build8, 0));
	show("build -j8, vanilla, proactiveness 0", r);
	assert_true(r->kbuild.finished);
	/* direct compaction ran, succeeded and failed */
	assert_true(EV(r, COMPACTSUCCESS) > 0);
	assert_true(EV(r, COMPACTFAIL) > 0);
	assert_compaction_consistent(r);
	if (!EV(r, KCOMPACTD_WAKE)) {
		assert_int_equal(EV(r, KCOMPACTD_MIGRATE_SCANNED), 0);
		assert_int_equal(EV(r, KCOMPACTD_FREE_SCANNED), 0);
	}
	off = *r;
	/* the same build with the default proactiveness (20) */
	r = run(busy(build8, -1));
	show("build -j8, vanilla, proactiveness 20", r);
	assert_compaction_consistent(r);
	assert_true(r->kcompactd_cpu_ns > off.kcompactd_cpu_ns);
	if (!EV(r, KCOMPACTD_WAKE)) {
		assert_int_equal(EV(r, KCOMPACTD_MIGRATE_SCANNED), 0);
		assert_int_equal(EV(r, KCOMPACTD_FREE_SCANNED), 0);
	}
}

/* (e) without CONFIG_COMPACTION, no compaction counter moves, under the
 * same build; THP faults still happen, and fall back */
static void test_no_compaction(void **state)
{
	struct thp_case sc = busy(build12, -1);
	static const enum vm_event_item items[] = {
		PGMIGRATE_SUCCESS, PGMIGRATE_FAIL, COMPACTMIGRATE_SCANNED, COMPACTFREE_SCANNED,
		COMPACTISOLATED, COMPACTSTALL, COMPACTFAIL, COMPACTSUCCESS, KCOMPACTD_WAKE,
		KCOMPACTD_MIGRATE_SCANNED, KCOMPACTD_FREE_SCANNED,
	};
	struct result *r;
	(void)state;

	sc.no_compaction = true;
	r = run(sc);
	show("build -j12, vanilla, no compaction", r);
	assert_true(r->kbuild.finished);
	assert_true(EV(r, THP_FAULT_ALLOC) > 0);
	assert_true(EV(r, THP_FAULT_FALLBACK) > 0);
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		assert_int_equal(EV(r, items[i]), 0);
	assert_compaction_consistent(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_faults_succeed),
		cmocka_unit_test(test_build_fragments),
		cmocka_unit_test(test_no_kcompactd_work),
		cmocka_unit_test(test_no_compaction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
