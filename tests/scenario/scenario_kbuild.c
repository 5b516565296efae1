/* scenario_kbuild.c - a small kernel build (the kbuild workload at a
 * fraction of its size) on a small machine: every unit runs, the measured
 * window closes, the user time is the drawn CPU time, the page cache,
 * slab and page tables are used, and the seed alone decides the jobs.
 * Each simulation is a scenario run by the library's run driver
 * (<mmsim/run.h>) in a child (engine_fork_run), reporting through
 * shared memory; the invariant checker runs during every simulation. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/policy.h"
#include "mmsim/run.h"
#include "kbuild.h"
#include "workload.h"

#define MAX_STEPS 256

struct result {
	int status;                     /* 0, or where the child failed */
	char err[256];
	double t;
	bool measured_end;              /* on_measured_end ran */
	struct kbuild_stats stats;
	double step_utime[MAX_STEPS];
	long max_file_pages, max_pagetables, max_slab_unreclaimable, max_slab_reclaimable;
	unsigned long check_failures;
	long start_file_pages, start_free, start_high;     /* when the window opens */
	unsigned long start_pgscan;
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
};

struct job {
	const char *policy;
	uint64_t seed;
	const char *const *params;      /* key, value, ..., NULL */
	struct result *res;
};

/* a 1 GiB, 2-CPU guest with 512 MiB of swap; the build at 2% of its size
 * (54 units), its other parameters at their defaults */
static const char *const small_build[] = {
	"scale", "0.02",
	"jobs", "2",
	NULL,
};

/* The scenario of a run: the machine, kbuild alone with the given
 * parameters, the seed and policy; the library's run driver boots it,
 * runs it and keeps its measured window. */
static int child(void *arg)
{
	struct job *sc = arg;
	struct result *r = sc->res;
	struct scenario *s = scenario_new();
	const struct workload *w;
	struct run *run;
	char kv[128];

	if (scenario_load_string(s, "[machine]\nram = 1G\ncpus = 2\nswap = 512M\n"
	                         "[workload]\nnames = kbuild\n", "scenario_kbuild", r->err, sizeof(r->err)))
		return 10;
	snprintf(kv, sizeof(kv), "policy.name=%s", sc->policy);
	if (scenario_set(s, kv, r->err, sizeof(r->err)))
		return 11;
	snprintf(kv, sizeof(kv), "run.seed=%llu", (unsigned long long)sc->seed);
	if (scenario_set(s, kv, r->err, sizeof(r->err)))
		return 12;
	for (const char *const *p = sc->params; p && *p; p += 2) {
		snprintf(kv, sizeof(kv), "kbuild.%s=%s", p[0], p[1]);
		if (scenario_set(s, kv, r->err, sizeof(r->err)))
			return 13;
	}
	if (scenario_resolve(s, r->err, sizeof(r->err)))
		return 14;
	if (!(run = run_create(s, 200000, r->err, sizeof(r->err))))
		return 15;
	if (run_execute(run, r->err, sizeof(r->err)))
		return 16;
	w = run->set->w[0];
	r->measured_end = run->whole.closed;
	/* the machine when the window opened */
	r->start_file_pages = run->whole.start.node_stat[NR_FILE_PAGES];
	r->start_free = run->whole.start.zone_stat[NR_FREE_PAGES];
	for (int z = 0; z < MAX_NR_ZONES; z++)
		r->start_high += (long)high_wmark_pages(&run->pgdat.node_zones[z]);
	r->start_pgscan = run->whole.start.vm_events[PGSCAN_KSWAPD] + run->whole.start.vm_events[PGSCAN_DIRECT];
	r->t = run->sim_seconds;
	kbuild_get_stats(w, &r->stats);
	for (unsigned i = 0; i < MAX_STEPS && i < r->stats.units + r->stats.archives + 1; i++)
		r->step_utime[i] = kbuild_step_utime(w, i);
	for (size_t i = 0; i < run->e.nr_samples; i++) {
		const struct sample *smp = &run->e.samples[i];
#define MAX_OF(field, item) if (smp->node_stat[item] > r->field) r->field = smp->node_stat[item]
		MAX_OF(max_file_pages, NR_FILE_PAGES);
		MAX_OF(max_pagetables, NR_PAGETABLE);
		MAX_OF(max_slab_unreclaimable, NR_SLAB_UNRECLAIMABLE_B);
		MAX_OF(max_slab_reclaimable, NR_SLAB_RECLAIMABLE_B);
#undef MAX_OF
	}
	memcpy(r->vm_events, run->pgdat.vm_events, sizeof(r->vm_events));
	r->check_failures = check_pgdat(&run->pgdat, "scenario end");
	/* the process ends here (engine_fork_run) */
	return 0;
}

static struct result *run(const char *policy, uint64_t seed, const char *const *params)
{
	struct result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct job sc = { .policy = policy, .seed = seed, .params = params };
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

/* the parameters of the build as the run draws them, outside any engine */
static double drawn_units(uint64_t seed, const char *const *params, struct kbuild_unit *units, unsigned max)
{
	struct workload *w;
	struct kbuild_unit u;
	char err[256];
	double sum = 0;

	assert_int_equal(workload_create("kbuild", &w, err, sizeof(err)), 0);
	for (const char *const *p = params; *p; p += 2)
		assert_int_equal(workload_set_param(w, p[0], p[1], err, sizeof(err)), 0);
	w->seed = seed;
	w->index = 0;
	for (unsigned i = 0; kbuild_unit_params(w, i, &u) == 0; i++) {
		sum += u.user_ns;
		if (i < max)
			units[i] = u;
	}
	workload_destroy(w);
	return sum;
}

static void test_small_build(void **state)
{
	static struct kbuild_unit units[MAX_STEPS];
	struct result *r = run("vanilla", 1, small_build);
	const struct kbuild_stats *s = &r->stats;
	double drawn = drawn_units(1, small_build, units, MAX_STEPS);
	/* make: 2 ms per step started; ar: 0.05 s each; ld: 20 s scaled */
	double others = (s->units + s->archives + 1) * 2e6 + s->archives * 0.05e9 + 20e9 * 0.02;
	(void)state;

	assert_int_equal(s->units, 54);
	assert_int_equal(s->jobs, 2);
	assert_int_equal(s->units_done, 54);
	assert_int_equal(s->jobs_failed, 0);
	assert_int_equal(s->oom_killed, 0);
	assert_true(s->finished);
	assert_false(s->build_failed);
	assert_true(r->measured_end);
	assert_true(s->real_time > 0 && s->real_time <= r->t);
	/* user time: the drawn CPU time of every process, exactly (each
	 * quantum runs a full quantum, the last one the rest) */
	assert_true(fabs(s->user_ns - (drawn + others)) < 1e-6 * s->user_ns);
	for (unsigned i = 0; i < s->units && i < MAX_STEPS; i++)
		assert_true(fabs(r->step_utime[i] - units[i].user_ns) < 1.0);
	/* the jobs' kernel work is system time; two CPUs bound real time */
	assert_true(s->system_ns > 0);
	assert_true(s->real_time * 2 >= (s->user_ns + s->system_ns) * 1e-9 * 0.99);
	/* the page cache held the tree, headers are still there; slab and
	 * page tables were used */
	assert_true(r->max_file_pages > 0);
	assert_true(s->header_pages_cached > 0);
	assert_true(r->max_pagetables > 0);
	assert_true(r->max_slab_unreclaimable > 0);
	assert_true(r->max_slab_reclaimable > 0);
	assert_true(r->vm_events[PGFAULT] > 0);
	assert_true(r->vm_events[PGPGIN] > 0);
}

/* the seed decides the jobs: the same seed gives the same parameters and
 * the same user time (under either policy); another seed differs */
static void test_seed_decides_jobs(void **state)
{
	static struct kbuild_unit a[MAX_STEPS], b[MAX_STEPS], c[MAX_STEPS];
	struct result ra, rb, rc;
	(void)state;

	drawn_units(7, small_build, a, MAX_STEPS);
	drawn_units(7, small_build, b, MAX_STEPS);
	drawn_units(8, small_build, c, MAX_STEPS);
	assert_memory_equal(a, b, 54 * sizeof(a[0]));
	assert_true(memcmp(a, c, 54 * sizeof(a[0])) != 0);

	ra = *run("vanilla", 7, small_build);
	rb = *run("hygiene", 7, small_build);
	rc = *run("vanilla", 8, small_build);
	assert_true(ra.stats.user_ns == rb.stats.user_ns);
	assert_memory_equal(ra.step_utime, rb.step_utime, sizeof(ra.step_utime));
	assert_true(ra.stats.user_ns != rc.stats.user_ns);
	for (unsigned i = 0; i < 54; i++)
		assert_true(fabs(ra.step_utime[i] - a[i].user_ns) < 1.0);
}

/* cache = warm: the tree is in the page cache when make starts, read
 * before the window without reclaim, and free memory is left at twice
 * the high watermarks or more; a cold start has nothing cached.  A warm
 * build reads less from disk than a cold one. */
static void test_warm_start(void **state)
{
	static const char *const warm[] = { "scale", "0.02", "jobs", "2", "cache", "warm", NULL };
	static const char *const warm_big[] = { "scale", "0.02", "jobs", "2", "cache", "warm",
	                                        "tree_kib", "1024", NULL };
	struct result cold, hot, big;
	(void)state;

	cold = *run("vanilla", 1, small_build);
	hot = *run("vanilla", 1, warm);
	assert_int_equal(cold.start_file_pages, 0);
	/* at this scale the tree (1400 other files of 14 KiB, 54 sources,
	 * 4000 headers of 8 KiB: about 55 MiB with the metadata) fits */
	assert_true(hot.start_file_pages > 10000);
	assert_true(hot.start_free >= 2 * hot.start_high);
	assert_int_equal(hot.start_pgscan, 0);
	/* a tree larger than memory (1400 files of 1 MiB): the fill stops
	 * at the limit, most of the 1 GiB is page cache, nothing reclaimed */
	big = *run("vanilla", 1, warm_big);
	assert_true(big.start_file_pages > 150000);
	assert_true(big.start_free >= 2 * big.start_high);
	assert_int_equal(big.start_pgscan, 0);
	assert_int_equal(big.stats.units_done, 54);
	/* the same jobs ran */
	assert_true(hot.stats.user_ns == cold.stats.user_ns);
	assert_int_equal(hot.stats.units_done, 54);
}

/* bad values are refused with the key's name and what was expected */
static void test_bad_params(void **state)
{
	struct workload *w;
	char err[256];
	(void)state;

	assert_int_equal(workload_create("kbuild", &w, err, sizeof(err)), 0);
	assert_int_equal(workload_set_param(w, "jobs", "0", err, sizeof(err)), -1);
	assert_string_equal(err, "'0' is not auto or an integer in 1..4096");
	assert_int_equal(workload_set_param(w, "rss_mean", "lots", err, sizeof(err)), -1);
	assert_string_equal(err, "'lots' is not a size in 4K..16T (K/M/G/T suffix)");
	assert_int_equal(workload_set_param(w, "scale", "0", err, sizeof(err)), -1);
	assert_int_equal(workload_set_param(w, "cache", "lukewarm", err, sizeof(err)), -1);
	assert_string_equal(err, "'lukewarm' is not one of cold, warm");
	assert_int_equal(workload_set_param(w, "headers", "10", err, sizeof(err)), 0);
	assert_int_equal(workload_validate(w, err, sizeof(err)), -1);
	workload_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_small_build),
		cmocka_unit_test(test_seed_decides_jobs),
		cmocka_unit_test(test_warm_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
