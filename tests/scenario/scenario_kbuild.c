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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/policy.h"
#include "mmsim/run.h"
#include "kbuild.h"
#include "mmsim/dcache.h"
#include "kbuild_data.h"
#include "workload.h"

#define MAX_STEPS 256

struct result {
	int status;                     /* 0, or where the child failed */
	char err[256];
	double t;
	bool measured_end;              /* on_measured_end ran */
	struct kbuild_stats stats;
	double step_utime[MAX_STEPS];
	struct kbuild_proc_trace trace[MAX_STEPS][3];   /* measured tree: cc1, as, ... */
	int traced[MAX_STEPS][3];
	struct kbuild_unit unit[MAX_STEPS];             /* measured tree: kbuild_unit_params */
	int unit_ok[MAX_STEPS];
	long max_file_pages, max_pagetables, max_slab_unreclaimable, max_slab_reclaimable;
	unsigned long check_failures;
	long start_file_pages, start_free, start_high;     /* when the window opens */
	unsigned long start_pgscan;
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	struct dentry_state dentry;     /* at the end */
};

struct job {
	const char *policy;
	uint64_t seed;
	const char *const *params;      /* key, value, ..., NULL */
	struct result *res;
};

/* a 1 GiB, 2-CPU guest with 512 MiB of swap; the synthetic build at 2% of
 * its size (54 units), its other parameters at their defaults */
static const char *const small_build[] = {
	"tree", "synthetic",
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
	/* a bare key is kbuild's; SECTION.KEY as given (machine.ram) */
	for (const char *const *p = sc->params; p && *p; p += 2) {
		snprintf(kv, sizeof(kv), "%s%s=%s", strchr(p[0], '.') ? "" : "kbuild.", p[0], p[1]);
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
	for (unsigned i = 0; i < MAX_STEPS; i++) {
		for (unsigned k = 0; k < 3; k++)
			r->traced[i][k] = kbuild_proc_trace(w, i, k, &r->trace[i][k]) == 0;
		r->unit_ok[i] = kbuild_unit_params((struct workload *)w, i, &r->unit[i]) == 0;
	}
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
	dentry_state(&run->pgdat, &r->dentry);
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
	static const char *const warm[] = { "tree", "synthetic", "scale", "0.02", "jobs", "2", "cache", "warm",
	                                    NULL };
	static const char *const warm_big[] = { "tree", "synthetic", "scale", "0.02", "jobs", "2", "cache", "warm",
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

/* A warm start on a machine too small for the tree (64M): the fill stops
 * with every zone the page cache may use at twice its high watermark,
 * nothing reclaimed before the window, and the run goes on.  The fill
 * runs before the clock, outside any SimGrid actor: its allocations used
 * to enter direct reclaim there (the free pages of ZONE_DMA, held back by
 * its lowmem reserve, counted as room) and the stall's execution outside
 * an actor crashed the child (issue 26). */
static void test_warm_start_small_machine(void **state)
{
	static const char *const warm_small[] = { "machine.ram", "64M", "run.duration", "0.5",
	                                          "tree", "synthetic", "scale", "0.02", "jobs", "2",
	                                          "cache", "warm", NULL };
	struct result *r;
	(void)state;

	r = run("vanilla", 1, warm_small);
	assert_true(r->start_file_pages > 1000);
	assert_int_equal(r->start_pgscan, 0);
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

/* ---- a measured tree: a small dataset written here, in the format of
 * workloads/data/kbuild/README.md: a probe (cc1 of /dev/null and as), two
 * compile units with their headers, an archive of both, a link */
/* the files, the probe and the two compiles every fixture starts with */
#define FIXTURE_COMPILES \
	"M\ttree_files\t100\n" \
	"M\ttree_bytes\t1000000\n" \
	"F\t8192\ta.c\n" \
	"F\t40960\tinclude/h1.h\n" \
	"F\t4096\tinclude/h2.h\n" \
	"F\t12288\tb.c\n" \
	"S\t0\tcc\t0\t10000\t.tmp_1/tmp\t900\t-1\t0\t-\t-\n" \
	"P\t0\tgcc\t30000\t1000\t18000\t900\n" \
	"P\t0\tcc1\t20000\t1000\t18000\t2000\n" \
	"P\t0\tas\t5000\t1000\t4000\t900\n" \
	"S\t1\tcc\t10000\t900000\ta.o\t65536\t0\t2\t1,2\t-\n" \
	"P\t1\tgcc\t545000\t30000\t118000\t65536\n" \
	"P\t1\tcc1\t500000\t20000\t118000\t409600\n" \
	"P\t1\tas\t40000\t2000\t12000\t65536\n" \
	"S\t2\tcc\t20000\t400000\tb.o\t32768\t3\t1\t1\t-\n" \
	"P\t2\tgcc\t330000\t20000\t58000\t32768\n" \
	"P\t2\tcc1\t300000\t10000\t58000\t204800\n" \
	"P\t2\tas\t20000\t1000\t8000\t32768\n"

static const char fixture[] =
	"# test fixture\n"
	FIXTURE_COMPILES
	"S\t3\tar\t950000\t5000\tbuilt-in.a\t4096\t-1\t0\t-\t1,2\n"
	"P\t3\tar\t1000\t1000\t3000\t4096\n"
	"S\t4\tld\t960000\t2000000\tvmlinux\t1048576\t-1\t0\t-\t3\n"
	"P\t4\tld\t2000000\t100000\t204800\t1048576\n"
	"C\tdentry\t100\t200\t192\t1\t5\t10\n";

static void write_file(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fputs(text, f);
	fclose(f);
}

/* the measured values run as measured: each compile is cc1 then as, two
 * processes, as starting when cc1 has exited; each reaches its measured
 * anonymous peak (peak RSS less the tool's smallest: 118000 - 18000 KiB
 * for cc1, 12000 - 4000 KiB for as) and runs its measured user time; cc1
 * reads its source and the headers its step lists; the archive waits for
 * its members, the link for the archive */
static void test_measured_tree(void **state)
{
	char path[] = "/tmp/kbuild-fixture-XXXXXX";
	const char *params[] = { "tree", path, "jobs", "2", NULL };
	struct result *r;
	const struct kbuild_stats *s;
	(void)state;

	write_file(path, fixture);
	r = run("vanilla", 1, params);
	unlink(path);
	s = &r->stats;
	assert_true(s->finished);
	assert_int_equal(s->units, 3);
	assert_int_equal(s->archives, 1);
	assert_int_equal(s->units_done, 3);
	assert_int_equal(s->jobs_failed, 0);
	/* step 1: cc1 (500 ms) then as (40 ms), their user time exactly */
	assert_true(fabs(r->step_utime[1] - (500e6 + 40e6)) < 1.0);
	assert_true(fabs(r->step_utime[2] - (300e6 + 20e6)) < 1.0);
	assert_true(r->traced[1][0] && r->traced[1][1] && !r->traced[1][2]);
	assert_string_equal(r->trace[1][0].tool, "cc1");
	assert_string_equal(r->trace[1][1].tool, "as");
	assert_true(r->trace[1][0].ran && r->trace[1][1].ran);
	assert_true(r->trace[1][1].start >= r->trace[1][0].end);
	assert_true(fabs(r->trace[1][0].utime_ns - 500e6) < 1.0);
	assert_true(fabs(r->trace[1][1].utime_ns - 40e6) < 1.0);
	assert_int_equal(r->trace[1][0].hiwater_pages, (118000 - 18000) / 4);
	assert_int_equal(r->trace[1][1].hiwater_pages, (12000 - 4000) / 4);
	assert_int_equal(r->trace[2][0].hiwater_pages, (58000 - 18000) / 4);
	assert_int_equal(r->trace[2][1].hiwater_pages, (8000 - 4000) / 4);
	/* ar after both compiles, ld after ar */
	assert_string_equal(r->trace[3][0].tool, "ar");
	assert_string_equal(r->trace[4][0].tool, "ld");
	assert_true(r->trace[3][0].start >= r->trace[1][1].end && r->trace[3][0].start >= r->trace[2][1].end);
	assert_true(r->trace[4][0].start >= r->trace[3][0].end);
	assert_true(fabs(s->user_ns - s->make_user_ns - (20e6 + 5e6 + 540e6 + 320e6 + 1e6 + 2000e6)) < 10.0);
	/* the sources and headers read, every page of them (a cold cache, no
	 * reclaim on this machine): 2 + 10 + 1 + 3 pages */
	assert_int_equal(s->header_pages_cached, 16);
	/* the unit's measured values */
	assert_true(r->unit_ok[1] && r->unit_ok[2] && !r->unit_ok[3] && !r->unit_ok[4]);
	assert_int_equal(r->unit[1].nr_headers, 2);
	assert_int_equal(r->unit[2].nr_headers, 1);
	assert_int_equal(r->unit[1].source_pages, 2);
	assert_int_equal(r->unit[1].object_pages, 16);
	assert_int_equal(r->unit[1].asm_pages, 100);
	assert_int_equal(r->unit[1].peak_pages, 25000);
	assert_int_equal(r->unit[1].as_peak_pages, 2000);
	/* gcc's include search: include/h1.h and h2.h are found in the third
	 * -I directory (include), after arch/x86/include and
	 * arch/x86/include/generated: two failed opens per header per
	 * compile (2 + 2, then 2); each leaves a negative dentry (four
	 * names), and each compile's /tmp/ccXXXXXX.s, unlinked when as is
	 * done, one more (three compiles) */
	assert_int_equal(s->failed_lookups, 6);
	assert_int_equal(r->dentry.nr_negative, 4 + 3);
	assert_true(r->dentry.nr_dentry > r->dentry.nr_negative);
}

/* cpu_time = whole: the build's CPU as make's rusage counted it.  The
 * fixture's top-level processes (gcc, which holds cc1 and as; ar; ld)
 * ran 2.906 s user and 0.152 s system; the rusage totals add 0.5 s of
 * each for what the recorder did not wrap, 0.1 s a step.  Each step's
 * first process runs its gcc driver's own time and that share too, and
 * every process its measured system time: the jobs' user time is the
 * totals exactly, their system time at least the totals (the model's
 * own mm work comes on top).  chain, the default, runs the chain's user
 * time only. */
static void test_measured_tree_whole_cpu(void **state)
{
	char path[] = "/tmp/kbuild-fixture-XXXXXX";
	const char *whole[] = { "tree", path, "jobs", "2", "cpu_time", "whole", NULL };
	const char *chain[] = { "tree", path, "jobs", "2", NULL };
	char text[sizeof(fixture) + 64];
	struct result *r;
	double sys_whole;
	(void)state;

	snprintf(text, sizeof(text), "M\trusage_user_s\t3.406\nM\trusage_sys_s\t0.652\n%s", fixture);
	write_file(path, text);
	r = run("vanilla", 1, whole);
	assert_true(r->stats.finished);
	assert_true(fabs(r->stats.user_ns - r->stats.make_user_ns - 3.406e9) < 100.0);
	/* step 1: gcc's 545 ms (cc1 500, as 40, the driver 5) and 100 ms */
	assert_true(fabs(r->step_utime[1] - 645e6) < 1.0);
	sys_whole = r->stats.system_ns;
	assert_true(sys_whole >= 0.652e9);
	r = run("vanilla", 1, chain);
	unlink(path);
	assert_true(fabs(r->stats.user_ns - r->stats.make_user_ns - 2.886e9) < 100.0);
	assert_true(fabs(r->step_utime[1] - 540e6) < 1.0);
	assert_true(r->stats.system_ns < sys_whole - 0.5e9);
}

/* make does not stop at a target that is not ready: with -j2, when b.o's
 * compile ends the archive of a.o and b.o still waits for a.o, and the
 * free slot takes the compile recorded after the archive (c.o), as
 * kbuild's recursive makes go on compiling other directories; the old
 * model waited at the archive with a slot idle until a.o was done */
static const char fixture_skip[] =
	"# test fixture: a compile after an archive\n"
	FIXTURE_COMPILES
	"S\t3\tar\t950000\t5000\tbuilt-in.a\t4096\t-1\t0\t-\t1,2\n"
	"P\t3\tar\t1000\t1000\t3000\t4096\n"
	"S\t4\tcc\t960000\t400000\tc.o\t32768\t3\t1\t1\t-\n"
	"P\t4\tgcc\t330000\t20000\t58000\t32768\n"
	"P\t4\tcc1\t300000\t10000\t58000\t204800\n"
	"P\t4\tas\t20000\t1000\t8000\t32768\n"
	"S\t5\tld\t1400000\t2000000\tvmlinux\t1048576\t-1\t0\t-\t3,4\n"
	"P\t5\tld\t2000000\t100000\t204800\t1048576\n";

static void test_make_skips_unready(void **state)
{
	char path[] = "/tmp/kbuild-fixture-XXXXXX";
	const char *params[] = { "tree", path, "jobs", "2", NULL };
	struct result *r;
	(void)state;

	write_file(path, fixture_skip);
	r = run("vanilla", 1, params);
	unlink(path);
	assert_true(r->stats.finished);
	assert_int_equal(r->stats.units_done, 4);
	assert_true(r->traced[2][1] && r->traced[4][0] && r->traced[3][0] && r->traced[5][0]);
	/* c.o's cc1 starts when b.o's as has ended, while a.o still compiles */
	assert_true(r->trace[4][0].start >= r->trace[2][1].end);
	assert_true(r->trace[4][0].start < r->trace[1][1].end);
	assert_true(r->trace[4][0].start < r->trace[3][0].start);
	/* the archive still waits for its members, the link for both */
	assert_true(r->trace[3][0].start >= r->trace[1][1].end);
	assert_true(r->trace[5][0].start >= r->trace[3][0].end && r->trace[5][0].start >= r->trace[4][1].end);
}

/* a bad dataset line is refused with the file, the line and what is wrong;
 * a synthetic-only key beside a measured tree is refused by name */
static void test_measured_tree_errors(void **state)
{
	char path[] = "/tmp/kbuild-fixture-XXXXXX", err[512], want[600];
	struct kbuild_dataset *d;
	struct workload *w;
	(void)state;

	write_file(path, "F\t10\ta.c\nS\t0\tcc\t0\t1\ta.o\t5\t0\t1\t7\t-\n");
	d = kbuild_dataset_load(path, err, sizeof(err));
	assert_null(d);
	snprintf(want, sizeof(want), "%s:2: the header list names a file not listed above, or not nr_hdrs of them",
	         path);
	assert_string_equal(err, want);
	unlink(path);
	assert_null(kbuild_dataset_load("/nonexistent/x.tsv.gz", err, sizeof(err)));

	assert_int_equal(workload_create("kbuild", &w, err, sizeof(err)), 0);
	assert_int_equal(workload_set_param(w, "rss_mean", "45M", err, sizeof(err)), 0);
	assert_int_equal(workload_validate(w, err, sizeof(err)), -1);
	assert_string_equal(err, "kbuild.rss_mean: only for tree = synthetic (tree = linux-6.1-defconfig measured it)");
	assert_int_equal(workload_set_param(w, "tree", "no-such-build", err, sizeof(err)), 0);
	assert_int_equal(workload_set_param(w, "rss_mean", "90M", err, sizeof(err)), 0);
	assert_int_equal(workload_validate(w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "kbuild.tree: no dataset 'no-such-build'"));
	workload_destroy(w);
}

/* the mapped part of a tool's RSS: the measured RssFile when the dataset
 * has it (M rss_file_kib.TOOL), else the tool's smallest peak RSS */
static void test_rss_base(void **state)
{
	char path[] = "/tmp/kbuild-fixture-XXXXXX", err[512], text[sizeof(fixture) + 64];
	struct kbuild_dataset *d;
	(void)state;

	snprintf(text, sizeof(text), "M\trss_file_kib.cc1\t25000\n%s", fixture);
	write_file(path, text);
	assert_non_null(d = kbuild_dataset_load(path, err, sizeof(err)));
	unlink(path);
	assert_int_equal(d->base_rss_kib[KBD_CC1], 25000);
	assert_int_equal(d->base_rss_kib[KBD_AS], 4000);
	assert_int_equal(d->min_rss_kib[KBD_CC1], 18000);
	kbuild_dataset_free(d);
}

/* the committed dataset loads and is the default tree: every compile of
 * a kernel object lists the headers gcc -MD recorded for it (hundreds),
 * cc1 and as have their own processes; a prefix of it runs to its end
 * with the measured user time */
static void test_default_dataset(void **state)
{
	static const char *const prefix[] = { "scale", "0.05", "jobs", "2", NULL };
	char path[4096], err[512];
	struct kbuild_dataset *d;
	unsigned units = 0, with_headers = 0, with_as = 0, n;
	double user = 0;
	struct result *r;
	(void)state;

	assert_int_equal(kbuild_dataset_find("linux-6.1-defconfig", path, sizeof(path), err, sizeof(err)), 0);
	assert_non_null(d = kbuild_dataset_load(path, err, sizeof(err)));
	assert_true(d->nr_steps > 400);
	assert_true(d->tree_files > 50000);
	for (uint32_t i = 0; i < d->nr_steps; i++) {
		const struct kbd_step *st = &d->steps[i];
		if (st->kind != KBD_CC || st->src < 0)
			continue;
		units++;
		with_headers += st->nr_hdrs >= 100;
		with_as += kbd_step_proc(d, i, KBD_CC1) && kbd_step_proc(d, i, KBD_AS);
	}
	assert_true(units > 300);
	assert_true(with_headers > units / 2);
	assert_true(with_as > units / 2);
	/* the run: the first 5% of the steps */
	n = (unsigned)lround(d->nr_steps * 0.05);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < d->steps[i].nr_procs; k++) {
			const struct kbd_proc *p = &d->procs[d->steps[i].proc_off + k];
			if (p->tool == KBD_CC1 || p->tool == KBD_AS || p->tool == KBD_TOOL_LD || p->tool == KBD_TOOL_AR)
				user += p->user_us * 1e3;
		}
	kbuild_dataset_free(d);
	r = run("vanilla", 1, prefix);
	assert_true(r->stats.finished);
	assert_int_equal(r->stats.jobs_failed, 0);
	assert_int_equal(r->stats.units_done, r->stats.units);
	assert_true(fabs(r->stats.user_ns - r->stats.make_user_ns - user) < 1e-6 * user);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured_tree),
		cmocka_unit_test(test_make_skips_unready),
		cmocka_unit_test(test_measured_tree_errors),
		cmocka_unit_test(test_rss_base),
		cmocka_unit_test(test_default_dataset),
		cmocka_unit_test(test_measured_tree_whole_cpu),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_small_build),
		cmocka_unit_test(test_seed_decides_jobs),
		cmocka_unit_test(test_warm_start),
		cmocka_unit_test(test_warm_start_small_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
