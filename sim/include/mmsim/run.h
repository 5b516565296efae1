/* run.h - the run driver: a machine booted, a resolved scenario run on it
 * on the virtual clock, measured, and stored.
 *
 * Two layers, for the command line (mmsim run, the sweep's child runs,
 * reproduce), the benchmarks and the tests alike:
 *
 *   machine_boot()   a node from a machine description (RAM, CPUs, swap,
 *                    sysctls) with a policy (<mmsim/machine.h>): every
 *                    verb and test that needs a machine boots it there;
 *   run_create() ... run_execute() ... run_store() ... run_destroy()
 *                    a scenario's run: boot, engine, observers (census,
 *                    free pageblocks), the measured window(s), the drain,
 *                    the last census; then its results into a database.
 *
 * The order of a run, and why:
 *   1. the machine is booted from the resolved scenario, the engine
 *      started, the observers registered (run_create);
 *   2. the workloads start (their files are created: a warm start's page
 *      cache is the machine's state before the experiment); the measured
 *      window opens with a copy of the counters before the first process
 *      runs; it closes when the last measured workload has finished
 *      (workload_set's on_measured_end) or when [run] duration has
 *      passed, whichever comes first;
 *      with [run] iterations = N, the measured workloads run N times in a
 *      row (workload_ops.restart), each in its own window, consecutive
 *      with the one before; the background workloads go on meanwhile;
 *      [run] warmup = W runs them W times before, with no window (the
 *      machine's history); between two iterations the driver does what
 *      real/harness does between two runs ([run] drop_caches and
 *      nr_hugepages: caches dropped, the huge page pool reserved) and
 *      the window starts after that;
 *   3. the background workloads are then asked to stop and the machine
 *      runs on (at most RUN_DRAIN_SECONDS) until every process has ended,
 *      so that the last census sees an idle machine after the build, as
 *      the cover letter's did;
 *   4. the invariant checker looks at the final state.
 *
 * SimGrid can be initialised once per process: one run_create() per
 * process (tests fork, with engine_fork_run()).  Nothing here prints:
 * every function returns 0, or -1 with a message in err.
 */
#ifndef MMSIM_RUN_H
#define MMSIM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mmsim/census.h"
#include "mmsim/engine.h"
#include "mmsim/machine.h"
#include "mmsim/policy.h"
#include "mmsim/scenario.h"

struct workload;
struct workload_set;
struct results_db;
struct run_record;

/* ------------------------------------------------------------ runs */

/* The virtual seconds a run goes on after its measured window closed,
 * for the background workloads to stop and the machine to go idle
 * before the last census. */
#define RUN_DRAIN_SECONDS 60.0

/* How often, in virtual seconds, the driver looks whether the measured
 * workloads of the iteration before have ended, to start the next (the
 * gap between two iterations is below this). */
#define RUN_ITERATION_POLL 0.01

/* One measured window: the counters at its start and at its end (their
 * t fields are its times), and the measured workloads' report() when it
 * closed (their metrics of this iteration). */
#define RUN_WINDOW_METRICS 32
struct run_window {
	struct sample start, end;
	bool closed;
	struct { char name[48]; double value; } metrics[RUN_WINDOW_METRICS];
	unsigned nr_metrics;
};

struct run_census {
	double t;
	struct block_census c;
	unsigned char *map;             /* groups migratetypes, or NULL */
};

struct run_point {
	double t, value;
};

/* A run.  Read its fields; change none. */
struct run {
	const struct scenario *scenario;
	const struct scenario_config *cfg;
	struct pglist_data pgdat;
	struct mm_policy *policy;
	struct engine e;
	struct workload_set *set;
	char workloads[256];            /* "kbuild+thp_faulter" */

	/* the measured windows: one per iteration of the measured workloads
	 * (consecutive: each opens where the one before closed); whole is
	 * from the first's start to the last's end */
	struct run_window *windows;
	unsigned nr_windows;            /* the iterations asked for */
	unsigned iteration;             /* the window open now (nr_windows once all closed) */
	struct run_window whole;
	bool restart_pending;           /* iteration k finished, k+1 not yet started */
	unsigned warm_done;             /* [run] warmup iterations finished (no window) */
	bool reopen_pending;            /* the window open now starts again after the restart */
	unsigned long hugetlb_pool;     /* the pool the last iteration's start reserved */
	unsigned long hugepages_at_rest;        /* [run] hugepages_at_rest: the pool reached at the end */

	/* free pageblocks at the sampler's times, censuses and maps */
	struct run_point *freeblocks;
	size_t nr_freeblocks, cap_freeblocks;
	struct run_census *census;
	size_t nr_census, cap_census;
	unsigned groups;                /* pageblock map rows actually used */
	bool census_at_end;             /* the last census is the one at the whole window's close */

	double sim_seconds;             /* when the run ended (run_execute) */
	bool engine_started;            /* once true, end the process after a failure (_exit):
	                                 * SimGrid cannot be torn down or started again */
	/* a workload whose outcome is no result (the build lost every job,
	 * make died): the run is stored with status 'failed' and this reason */
	char failure[256];
	bool failed;
};

/* Boot the scenario's machine, create its workloads, start the engine and
 * the observers.  NULL with a message in err on failure; if SimGrid had
 * been started by then, run_create_failed_engine() is true and the
 * process should end (_exit). */
struct run *run_create(const struct scenario *s, unsigned long check_every, char *err, size_t errlen);
/* Start the workloads, run the measured window(s) (the last census when
 * the last closes, the background workloads still running), the drain,
 * the invariant check; sets sim_seconds and the failure.  0, or with a
 * message in err: -E2BIG if the engine stopped the run because a time
 * series would have recorded more than mmsim_max_samples() times (the
 * scenario's intervals are too short for it: a configuration error),
 * -1 on any other failure.  Either way the process should end then. */
int  run_execute(struct run *r, char *err, size_t errlen);
/* The run's rows (rec: its identity and outcome, written first) into db:
 * params, the vmstat deltas of the whole window, workload metrics,
 * series, censuses, maps, and with iterations > 1 each iteration's. */
int  run_store(const struct run *r, struct results_db *db, const struct run_record *rec,
               char *err, size_t errlen);
/* Tear down: engine (if started), workloads, machine, the run. */
void run_destroy(struct run *r);

/* Whether the last run_create() failed after SimGrid had started (the
 * process must end then, with _exit: see engine.h). */
bool run_create_failed_engine(void);

/* The vmstat deltas of a window, as stored: every event counter, then
 * the node counters that only grow (workingset_refault_file, ...).
 * Calls fn(name, delta, arg) for each; stops at fn's first non-zero. */
int  run_window_deltas(const struct run_window *w,
                       int (*fn)(const char *name, int64_t delta, void *arg), void *arg);

#endif
