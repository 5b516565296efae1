/* scenario_run.c - the run driver (<mmsim/run.h>) through its library
 * API: the measured window (its counter deltas start when the workloads
 * have started and end when the build ends, not at the end of the
 * drain), the drain after it, the clipping of the engine's last sample
 * to the end of the run, a failed build's status; [run] iterations.  Each run is a child
 * process (SimGrid once per process) reporting through shared memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sqlite3.h>
#include <cmocka.h>
#include "mmsim/run.h"
#include "kbuild.h"
#include "results.h"
#include "workload.h"

#define MAX_ITER 4

struct result {
	int status;
	char err[512];
	struct run_window whole, windows[MAX_ITER];
	unsigned nr_windows;
	double sim_seconds;
	double build_t_start, build_t_end;      /* the last iteration's */
	struct kbuild_stats stats;
	struct sample final;                    /* the counters when the run ended */
	bool failed;
	char failure[256];
	/* the census: how many, the last one's time */
	size_t nr_census;
	double last_census_t;
	/* from the stored database */
	double stored_max_t;                    /* samples */
	long stored_at_end;                     /* samples rows at t = sim_seconds, one name */
	long long stored_pgfree;                /* vmstat */
	long long stored_pageoutrun, stored_kcompactd_wake;     /* vmstat */
	/* metrics: the tracepoints' sums over orders, and how many rows */
	double stored_kswapd_wake, stored_kcompactd_trace, stored_trace_rows;
	char stored_status[16];
	long long stored_iterations;            /* rows of iteration_vmstat for pgfree (-1: no table) */
	long long stored_iter_pgfree[MAX_ITER], stored_iter_pgpgin[MAX_ITER];
	double stored_iter_user[MAX_ITER], stored_iter_units[MAX_ITER];
};

static double query_d(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	double v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

struct job {
	const char *text;
	const char *const *sets;
	struct result *res;
};

static long long query_ll(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int child(void *arg)
{
	struct job *j = arg;
	struct result *r = j->res;
	struct scenario *s = scenario_new();
	struct results_db *db;
	struct run_record rec;
	struct run *run;
	char path[64];
	sqlite3 *rdb;
	sqlite3_stmt *st;

	if (scenario_load_string(s, j->text, "test", r->err, sizeof(r->err)))
		return 10;
	for (const char *const *kv = j->sets; kv && *kv; kv++)
		if (scenario_set(s, *kv, r->err, sizeof(r->err)))
			return 11;
	if (scenario_resolve(s, r->err, sizeof(r->err)))
		return 12;
	if (!(run = run_create(s, 200000, r->err, sizeof(r->err))))
		return 13;
	if (run_execute(run, r->err, sizeof(r->err)))
		return 14;
	r->whole = run->whole;
	r->nr_windows = run->nr_windows;
	for (unsigned i = 0; i < run->nr_windows && i < MAX_ITER; i++)
		r->windows[i] = run->windows[i];
	r->sim_seconds = run->sim_seconds;
	r->build_t_start = run->set->w[0]->t_start;
	r->build_t_end = run->set->w[0]->t_end;
	kbuild_get_stats(run->set->w[0], &r->stats);
	sample_counters(&run->pgdat, &r->final);
	r->failed = run->failed;
	snprintf(r->failure, sizeof(r->failure), "%s", run->failure);
	r->nr_census = run->nr_census;
	r->last_census_t = run->nr_census ? run->census[run->nr_census - 1].t : -1;

	/* store it, read it back */
	snprintf(path, sizeof(path), "/tmp/mmsim-scenario-run-%d.db", (int)getpid());
	unlink(path);
	if (results_create(&db, path, r->err, sizeof(r->err)))
		return 15;
	memset(&rec, 0, sizeof(rec));
	results_new_run_id(rec.run_id);
	rec.name = "test";
	rec.policy = run->cfg->policy;
	rec.workload = run->workloads;
	rec.config = scenario_text(s);
	rec.config_hash = scenario_hash(s);
	rec.mmsim_version = "test";
	rec.sim_seconds = run->sim_seconds;
	rec.status = run->failed ? "failed" : "ok";
	rec.error = run->failed ? run->failure : NULL;
	if (run_store(run, db, &rec, r->err, sizeof(r->err)) || results_commit(db, r->err, sizeof(r->err)))
		return 16;
	if (sqlite3_open_v2(path, &rdb, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return 17;
	r->stored_max_t = -1;
	if (sqlite3_prepare_v2(rdb, "SELECT max(t) FROM samples", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		r->stored_max_t = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	{
		char sql[160];
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM samples WHERE name = 'nr_free_pages' AND t = %.17g",
		         run->sim_seconds);
		r->stored_at_end = (long)query_ll(rdb, sql);
	}
	r->stored_pgfree = query_ll(rdb, "SELECT value FROM vmstat WHERE name = 'pgfree'");
	r->stored_pageoutrun = query_ll(rdb, "SELECT value FROM vmstat WHERE name = 'pageoutrun'");
	r->stored_kcompactd_wake = query_ll(rdb, "SELECT value FROM vmstat WHERE name = 'compact_daemon_wake'");
	r->stored_kswapd_wake = query_d(rdb, "SELECT sum(value) FROM metrics"
	                                " WHERE name GLOB 'mm_vmscan_kswapd_wake_order[0-9]*'");
	r->stored_kcompactd_trace = query_d(rdb, "SELECT sum(value) FROM metrics"
	                                    " WHERE name GLOB 'mm_compaction_kcompactd_wake_order[0-9]*'");
	r->stored_trace_rows = query_d(rdb, "SELECT count(*) FROM metrics WHERE name GLOB 'mm_*_order[0-9]*'");
	if (sqlite3_prepare_v2(rdb, "SELECT status FROM runs", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		snprintf(r->stored_status, sizeof(r->stored_status), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	r->stored_iterations = query_ll(rdb, "SELECT count(*) FROM iteration_vmstat WHERE name = 'pgfree'");
	for (unsigned i = 0; i < MAX_ITER; i++) {
		char sql[128];
		snprintf(sql, sizeof(sql), "SELECT value FROM iteration_vmstat WHERE name = 'pgfree' AND iteration = %u",
		         i + 1);
		r->stored_iter_pgfree[i] = query_ll(rdb, sql);
		snprintf(sql, sizeof(sql), "SELECT value FROM iteration_vmstat WHERE name = 'pgpgin' AND iteration = %u",
		         i + 1);
		r->stored_iter_pgpgin[i] = query_ll(rdb, sql);
		snprintf(sql, sizeof(sql), "SELECT value FROM iteration_metrics WHERE name = 'user_time' AND iteration = %u",
		         i + 1);
		r->stored_iter_user[i] = query_d(rdb, sql);
		snprintf(sql, sizeof(sql), "SELECT value FROM iteration_metrics WHERE name = 'units_done' AND iteration = %u",
		         i + 1);
		r->stored_iter_units[i] = query_d(rdb, sql);
	}
	sqlite3_close(rdb);
	unlink(path);
	/* the process ends here (engine_fork_run): SimGrid is not torn down */
	return 0;
}

static struct result *run(const char *text, const char *const *sets)
{
	struct result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct job j = { text, sets, r };
	int status;

	assert_true(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	status = engine_fork_run(child, &j);
	if (status)
		fprintf(stderr, "child failed (%d): %s\n", status, r->err);
	assert_int_equal(status, 0);
	return r;
}

/* a 1 GiB, 2-CPU guest with swap; 2% of the build (54 units) with 2 jobs
 * from a warm tree, and the THP faulter beside it; a census every 20 ms,
 * so that ticks fall in the drain after the window (about 60 ms) */
static const char small[] =
	"[machine]\nram = 1G\ncpus = 2\nswap = 512M\n"
	"[workload]\nnames = kbuild, thp_faulter\n"
	"[workload.kbuild]\ntree = synthetic\nscale = 0.02\njobs = 2\ncache = warm\n"
	"[workload.thp_faulter]\nregion = 128M\nhold = 0.5\npause = 0.1\n"
	"[run]\nseed = 1\ncensus_interval = 0.02\nblockmap_groups = 16\n";

#define EV(s, i) ((s).vm_events[i])

/* The window starts when the workloads have started (the warm tree's
 * page cache is before it) and ends when the build ends; the faulter
 * stops in the drain after it, whose frees are outside the window. */
static void test_measured_window(void **state)
{
	struct result *r = run(small, NULL);
	(void)state;

	assert_false(r->failed);
	assert_string_equal(r->stored_status, "ok");
	assert_int_equal(r->stats.units_done, 54);
	assert_int_equal(r->nr_windows, 1);
	assert_true(r->whole.closed);
	/* start: at the build's start, after the warm read */
	assert_true(r->whole.start.t == r->build_t_start);
	assert_true(r->whole.start.node_stat[NR_FILE_PAGES] > 10000);
	/* end: at the build's end, not at the run's */
	assert_true(r->whole.end.t == r->build_t_end);
	assert_true(r->whole.end.t < r->sim_seconds);
	/* the drain: the faulter unmapped its region after the window */
	assert_true(EV(r->final, PGFREE) > EV(r->whole.end, PGFREE));
	/* the stored delta is the window's, not the run's */
	assert_int_equal(r->stored_pgfree, (long long)(EV(r->whole.end, PGFREE) - EV(r->whole.start, PGFREE)));
	assert_true(r->stored_pgfree > 0);
	/* the last census is the machine's when the build has ended, its
	 * faulter still running (it unmaps in the drain, after it) */
	assert_true(r->nr_census > 2);
	assert_true(r->last_census_t == r->whole.end.t);
	assert_true(r->last_census_t < r->sim_seconds);
	/* without a duration, no sample is past the end */
	assert_true(r->stored_max_t <= r->sim_seconds);
}

/* The tracepoints the model counts (real/harness's wakes.tsv), stored over
 * the measured window: kswapd traces each balance_pgdat() it begins
 * (pageoutrun counts them), kcompactd each kcompactd_do_work()
 * (compact_daemon_wake); every event and order is stored, as the import
 * stores a real run's.  512 MiB and a 256 MiB faulter, so that kswapd and
 * kcompactd have work (639 and 9 runs at seed 1). */
static void test_trace_counts(void **state)
{
	static const char *const sets[] = { "machine.ram=512M", "workload.thp_faulter.region=256M", NULL };
	struct result *r = run(small, sets);
	(void)state;

	assert_string_equal(r->stored_status, "ok");
	assert_true(r->stored_pageoutrun > 0);
	assert_true(r->stored_kcompactd_wake > 0);
	assert_true(r->stored_kswapd_wake == (double)r->stored_pageoutrun);
	assert_true(r->stored_kcompactd_trace == (double)r->stored_kcompactd_wake);
	assert_true(r->stored_trace_rows == NR_MM_TRACE_EVENTS * MAX_ORDER);
	/* the model's names are the import's, event for event */
	for (int ev = 0; ev < NR_MM_TRACE_EVENTS; ev++)
		assert_string_equal(mm_trace_event_names[ev], results_trace_events[ev]);
}

/* With [run] duration past the build's end, the run ends when its last
 * process does (not at the drain's limit); the engine's last sample,
 * taken at the limit, is stored once, at the end of the run. */
static void test_sample_clipping(void **state)
{
	static const char *const sets[] = { "run.duration=200", NULL };
	struct result *r = run(small, sets);
	(void)state;

	assert_true(r->whole.end.t == r->build_t_end);
	assert_true(r->build_t_end < 200);
	/* every process ended in the drain: the run ends at the duration */
	assert_true(r->sim_seconds == 200);
	assert_true(r->stored_max_t == r->sim_seconds);
	assert_int_equal(r->stored_at_end, 1);
}

/* A build that cannot build anything (every cc1 job needs more memory
 * than the machine and swap have: the OOM killer takes each) is stored
 * with status 'failed' and its reason, not 'ok'. */
static void test_failed_build_status(void **state)
{
	static const char *const sets[] = { "workload.names=kbuild", "machine.swap=0",
	                                    "machine.ram=512M", "kbuild.rss_mean=2G",
	                                    "kbuild.rss_sigma=0", NULL };
	struct result *r = run(small, sets);
	(void)state;

	assert_int_equal(r->stats.units_done, 0);
	assert_true(r->failed);
	assert_string_equal(r->stored_status, "failed");
	assert_non_null(strstr(r->failure, "kbuild"));
}

/* [run] iterations = 2 on one booted machine: two consecutive windows
 * whose deltas sum to the whole (stored: iteration_vmstat and vmstat); the
 * same build twice (the same user time), the second from the first's
 * page cache (sources and headers cached: far fewer pages read from
 * disk), after make clean; the census after the last iteration, on the
 * idle machine.  The faulter runs through both and stops after. */
static void test_two_iterations(void **state)
{
	static const char *const sets[] = { "run.iterations=2", "kbuild.cache=cold", NULL };
	struct result *r = run(small, sets);
	const struct run_window *w = r->windows;
	(void)state;

	assert_false(r->failed);
	assert_int_equal(r->nr_windows, 2);
	assert_true(w[0].closed && w[1].closed && r->whole.closed);
	/* consecutive, covering the whole */
	assert_true(w[0].start.t == r->whole.start.t);
	assert_true(w[0].end.t == w[1].start.t);
	assert_true(w[1].end.t == r->whole.end.t);
	assert_true(w[0].end.t > w[0].start.t && w[1].end.t > w[1].start.t);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		assert_true(EV(w[0].end, i) - EV(w[0].start, i) + EV(w[1].end, i) - EV(w[1].start, i) ==
		            EV(r->whole.end, i) - EV(r->whole.start, i));
	/* stored: one row per iteration, summing to the vmstat row */
	assert_int_equal(r->stored_iterations, 2);
	assert_int_equal(r->stored_iter_pgfree[0] + r->stored_iter_pgfree[1], r->stored_pgfree);
	assert_int_equal(r->stored_iter_pgfree[2], -1);
	/* the build ran twice, whole, the same units */
	assert_true(r->stored_iter_units[0] == 54 && r->stored_iter_units[1] == 54);
	assert_true(r->stored_iter_user[0] == r->stored_iter_user[1]);
	assert_true(r->build_t_end == w[1].end.t);
	assert_true(r->build_t_start >= w[1].start.t && r->build_t_start < w[1].start.t + 0.1);
	/* the second from the first's page cache: a cold start read every
	 * source and header from disk, the second build far less */
	assert_true(w[0].start.node_stat[NR_FILE_PAGES] < 1000);
	assert_true(w[1].start.node_stat[NR_FILE_PAGES] > 10000);
	assert_true(r->stored_iter_pgpgin[1] * 2 < r->stored_iter_pgpgin[0]);
	/* the census after the last iteration, when it ended (the faulter
	 * still running), not after the drain */
	assert_true(r->last_census_t == w[1].end.t);
	assert_true(r->last_census_t < r->sim_seconds);
	assert_true(EV(r->final, PGFREE) > EV(r->whole.end, PGFREE));
}

/* The iterations' poll (every RUN_ITERATION_POLL of virtual time) stores
 * nothing, so MMSIM_MAX_SAMPLES, the bound on what a run records, does not
 * end a run whose iterations outlast max x RUN_ITERATION_POLL: with the
 * bound at 200 (2 s of polls) a two-iteration run of some 30 s, sampled
 * every 1 s and censused every 5 s, is complete.  (The poll used to count
 * as a record: the default scenario's three 400 s builds exited 78.) */
static void test_iterations_poll_is_not_a_record(void **state)
{
	static const char *const sets[] = { "run.iterations=2", "kbuild.cache=cold", "run.census_interval=5", NULL };
	struct result *r;
	(void)state;

	setenv("MMSIM_MAX_SAMPLES", "200", 1);
	r = run(small, sets);
	unsetenv("MMSIM_MAX_SAMPLES");
	assert_false(r->failed);
	assert_int_equal(r->nr_windows, 2);
	assert_true(r->sim_seconds > 200 * RUN_ITERATION_POLL * 4);
	assert_true(r->sim_seconds < 200);      /* the samples stay under the bound */
	assert_int_equal(r->stored_iterations, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured_window),
		cmocka_unit_test(test_trace_counts),
		cmocka_unit_test(test_sample_clipping),
		cmocka_unit_test(test_failed_build_status),
		cmocka_unit_test(test_two_iterations),
		cmocka_unit_test(test_iterations_poll_is_not_a_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
