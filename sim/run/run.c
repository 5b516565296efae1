/* run.c - the run driver (see run.h for the order of a run and why). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/debug_vm.h"
#include "mmsim/hugetlb.h"
#include "mmsim/limits.h"
#include "mmsim/run.h"
#include "build.h"
#include "workload.h"

static bool create_failed_engine;

bool run_create_failed_engine(void)
{
	return create_failed_engine;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(p, *cap * size);
	if (!p) {
		fputs("mmsim: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* ------------------------------------------------------------ observers */

static void record_freeblocks(struct run *r, double t)
{
	if (r->nr_freeblocks && r->freeblocks[r->nr_freeblocks - 1].t >= t)
		return;
	r->freeblocks = grow(r->freeblocks, &r->cap_freeblocks, r->nr_freeblocks, sizeof(*r->freeblocks));
	r->freeblocks[r->nr_freeblocks].t = t;
	r->freeblocks[r->nr_freeblocks].value = (double)free_pageblocks(&r->pgdat);
	r->nr_freeblocks++;
}

static void freeblocks_tick(struct engine *e, void *arg)
{
	(void)e;
	record_freeblocks(arg, engine_now());
}

static void record_census(struct run *r, double t)
{
	struct run_census *c;

	if (r->nr_census && r->census[r->nr_census - 1].t >= t)
		return;
	r->census = grow(r->census, &r->cap_census, r->nr_census, sizeof(*r->census));
	c = &r->census[r->nr_census++];
	c->t = t;
	pageblock_census(&r->pgdat, &c->c);
	c->map = NULL;
	if (r->groups) {
		c->map = malloc(r->groups);
		if (!c->map) {
			fputs("mmsim: out of memory\n", stderr);
			abort();
		}
		pageblock_map(&r->pgdat, r->groups, c->map);
	}
}

static void census_tick(struct engine *e, void *arg)
{
	struct run *r = arg;

	(void)e;
	/* none in the drain: the census at the window's close stays the last */
	if (!r->census_at_end)
		record_census(r, engine_now());
}

/* ------------------------------------------------------------ windows */

static void open_window(struct run *r)
{
	struct run_window *w = &r->windows[r->iteration];

	sample_counters(&r->pgdat, &w->start);
	if (!r->iteration)
		r->whole.start = w->start;
}

/* Close the open window; the last one closes the whole. */
static void close_window(struct run *r)
{
	struct run_window *w;

	if (r->iteration >= r->nr_windows)
		return;
	w = &r->windows[r->iteration];
	sample_counters(&r->pgdat, &w->end);
	w->closed = true;
	/* the measured workloads' metrics of this iteration (a restart
	 * starts their counters again) */
	for (unsigned i = 0; i < r->set->n; i++) {
		const struct workload *wl = r->set->w[i];
		struct metric m[RUN_WINDOW_METRICS];
		size_t n;

		if (!wl->ops->measured || !wl->ops->report)
			continue;
		n = wl->ops->report(wl, m, RUN_WINDOW_METRICS - w->nr_metrics);
		for (size_t k = 0; k < n; k++, w->nr_metrics++) {
			memcpy(w->metrics[w->nr_metrics].name, m[k].name, sizeof(w->metrics[0].name));
			w->metrics[w->nr_metrics].name[sizeof(w->metrics[0].name) - 1] = 0;
			w->metrics[w->nr_metrics].value = m[k].value;
		}
	}
	r->iteration++;
	if (r->iteration == r->nr_windows) {
		r->whole.end = w->end;
		r->whole.closed = true;
		/* the block census after the last iteration: the machine idle
		 * but alive (its base system and background workloads still
		 * hold their memory), as the cover letter's block analysis
		 * looked at a running machine after its build load; after the
		 * drain every process has exited and freed its pages */
		record_census(r, engine_now());
		r->census_at_end = true;
	}
}

/* A measured workload failed (make died): no further iteration. */
static bool set_failed(const struct run *r)
{
	for (unsigned i = 0; i < r->set->n; i++) {
		const struct workload *w = r->set->w[i];
		if (w->ops->measured && w->ops->failure && w->ops->failure(w, NULL, 0))
			return true;
	}
	return false;
}

/* The huge page pool of real/harness: held from the start of an
 * iteration (but the first) to its end */
static void release_pool(struct run *r)
{
	struct mm_ctx ctx = { 0 };

	if (nr_huge_pages(&r->pgdat))
		set_max_huge_pages(&r->pgdat, &ctx, 0);
}

/* What real/harness does between two runs, after the build's make clean
 * (the measured workloads' restart): sync and vm.drop_caches (real/README.md:
 * "`sync` and `echo 3 > /proc/sys/vm/drop_caches`"), vm.compact_memory
 * (--compact-first), then the huge page pool reserved again.  The sync
 * writes what make clean left dirty (the outputs it unlinked are gone
 * already), so that drop_caches frees it.  The time it takes is charged to
 * no process: it is outside the measured windows, as the harness's is. */
static bool between_iterations(struct run *r)
{
	struct mm_ctx ctx = { 0 };

	if (r->cfg->drop_caches) {
		sync_dirty_pages(&r->pgdat, &ctx);
		drop_caches(&r->pgdat, &ctx, r->cfg->drop_caches);
	}
	if (r->cfg->compact_memory)
		compact_nodes(&r->pgdat, &ctx);
	if (r->cfg->nr_hugepages)
		r->hugetlb_pool = set_max_huge_pages(&r->pgdat, &ctx, r->cfg->nr_hugepages);
	return r->cfg->drop_caches || r->cfg->compact_memory || r->cfg->nr_hugepages;
}

/* [run] hugepages_at_rest: what the 2007 grouping-by-mobility series
 * measured, huge pages allocatable once the workload is over.  On the
 * machine at rest, after the last window and its census: sync (the
 * series' test flushed the page cache by writing, reading and deleting a
 * file of RAM's size; real/harness syncs before drop_caches), echo 3 >
 * drop_caches, echo 1 > compact_memory (a no-op without compaction),
 * echo <all of RAM> > nr_hugepages; the pool reached is the result (a
 * write stops at its first failed allocation, set_max_huge_pages()).
 * Without the sync the build's last 30 s of output (dirty, younger than
 * vm.dirty_expire_centisecs) stays scattered over the movable blocks. */
static void hugepages_at_rest(struct run *r)
{
	struct mm_ctx ctx = { 0 };

	sync_dirty_pages(&r->pgdat, &ctx);
	drop_caches(&r->pgdat, &ctx, 3);
	compact_nodes(&r->pgdat, &ctx);
	r->hugepages_at_rest = set_max_huge_pages(&r->pgdat, &ctx, r->cfg->ram >> (pageblock_order + PAGE_SHIFT));
}

/* Every measured workload finished iteration r->iteration.  The next
 * iteration (if any) opens at once, consecutive with this one; its
 * workloads restart from the iteration observer, outside the process
 * that finished (it is still on its way out).  A warmup iteration has
 * no window: the first measured one opens when its workloads restart. */
static void on_measured_end(struct workload_set *s, void *arg)
{
	struct run *r = arg;

	if (r->warm_done < r->cfg->warmup) {
		r->warm_done++;
		if (set_failed(r)) {
			/* no measured window: the run is failed (check_outcome) */
			r->whole.end = r->whole.start;
			r->whole.closed = true;
			r->nr_windows = 0;
			return;
		}
		release_pool(r);
		s->stopping = false;
		r->restart_pending = r->reopen_pending = true;
		return;
	}
	close_window(r);
	release_pool(r);
	if (r->iteration >= r->nr_windows)
		return;
	if (set_failed(r)) {
		/* the windows left are never measured: the whole ends here */
		r->whole.end = r->windows[r->iteration - 1].end;
		r->whole.closed = true;
		r->nr_windows = r->iteration;
		return;
	}
	open_window(r);
	s->stopping = false;            /* the background workloads go on */
	r->restart_pending = true;
}

/* The restarts are done: the harness's work between runs, and the
 * window starts again after it (or, after the warmup, for the first
 * time) */
static void iteration_started(struct run *r)
{
	if (between_iterations(r) || r->reopen_pending)
		open_window(r);
	r->reopen_pending = false;
}

/* Restart the measured workloads once their processes of the iteration
 * before have ended (restart() returns 1 until then). */
static void iteration_tick(struct engine *e, void *arg)
{
	struct run *r = arg;
	char err[200];

	(void)e;
	if (!r->restart_pending)
		return;
	for (unsigned i = 0; i < r->set->n; i++) {
		struct workload *w = r->set->w[i];
		if (!w->ops->measured || !w->finished)
			continue;
		int rc = workload_restart(w, r->iteration, err, sizeof(err));
		if (rc > 0)
			return;         /* not yet: at the next tick */
		if (rc < 0) {
			/* the iteration cannot start: the run is failed, the
			 * windows left are not measured */
			snprintf(r->failure, sizeof(r->failure), "iteration %u: %s", r->iteration + 1, err);
			r->failed = true;
			r->restart_pending = false;
			r->windows[r->iteration].end = r->windows[r->iteration].start;
			r->nr_windows = r->iteration;
			r->whole.end = r->iteration ? r->windows[r->iteration - 1].end : r->whole.start;
			r->whole.closed = true;
			r->set->stopping = true;
			return;
		}
	}
	r->restart_pending = false;
	iteration_started(r);
}

/* ------------------------------------------------------------ the run */

struct run *run_create(const struct scenario *s, unsigned long check_every, char *err, size_t errlen)
{
	const struct scenario_config *c = scenario_config(s);
	struct machine_desc md;
	struct engine_config ecfg;
	struct run *r;
	char msg[512];

	create_failed_engine = false;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->set = calloc(1, sizeof(*r->set)))) {
		free(r);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->scenario = s;
	r->cfg = c;
	r->nr_windows = c->iterations ? c->iterations : 1;
	r->windows = calloc(r->nr_windows, sizeof(*r->windows));
	if (!r->windows) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (build_policy(s, &r->policy, err, errlen))
		goto fail;
	machine_desc_from_scenario(&md, c);
	md.check_every = check_every;
	if (machine_boot(&r->pgdat, &md, r->policy, err, errlen)) {
		mm_policy_destroy(r->policy);
		r->policy = NULL;
		goto fail;
	}
	for (unsigned i = 0; i < c->nr_workloads; i++) {
		struct workload *w;
		size_t len = strlen(r->workloads);
		if (build_workload(s, i, &w, err, errlen))
			goto fail;
		if (workload_set_add(r->set, w)) {
			workload_destroy(w);
			snprintf(err, errlen, "more than %d workloads", MAX_WORKLOADS);
			goto fail;
		}
		snprintf(r->workloads + len, sizeof(r->workloads) - len, "%s%s", i ? "+" : "", c->workloads[i]);
	}
	r->set->on_measured_end = on_measured_end;
	r->set->arg = r;

	engine_config_defaults(&ecfg);
	ecfg.cpus = c->cpus;
	ecfg.quantum = c->quantum;
	ecfg.cpu_heap = c->cpu_heap;
	ecfg.sample_interval = c->sample_interval;
	if (engine_init(&r->e, &r->pgdat, &ecfg, NULL, NULL, msg, sizeof(msg))) {
		snprintf(err, errlen, "engine: %s", msg);
		create_failed_engine = true;
		goto fail;
	}
	r->engine_started = true;
	r->groups = c->blockmap_groups;
	if (r->groups > r->pgdat.nr_pageblocks)
		r->groups = (unsigned)r->pgdat.nr_pageblocks;
	if ((c->census_interval > 0 && engine_every(&r->e, "census", c->census_interval, census_tick, r)) ||
	    (c->sample_interval > 0 && engine_every(&r->e, "freeblocks", c->sample_interval, freeblocks_tick, r)) ||
	    /* the iterations' observer only when there are several: a run
	     * of one iteration has the actors it always had */
	    (r->nr_windows + c->warmup > 1 && engine_poll_every(&r->e, "iterations", RUN_ITERATION_POLL, iteration_tick, r))) {
		snprintf(err, errlen, "engine: cannot start the observers");
		create_failed_engine = true;
		goto fail;
	}
	return r;
fail:
	if (r->engine_started)
		return NULL;            /* the process ends (run.h): nothing is freed */
	run_destroy(r);
	return NULL;
}

/* Is the outcome of the measured workloads a result?  The first failure
 * found is the run's. */
static void check_outcome(struct run *r)
{
	for (unsigned i = 0; i < r->set->n && !r->failed; i++) {
		const struct workload *w = r->set->w[i];
		char why[200];
		if (w->ops->failure && w->ops->failure(w, why, sizeof(why))) {
			snprintf(r->failure, sizeof(r->failure), "%s: %s", w->ops->name, why);
			r->failed = true;
		}
	}
}

int run_execute(struct run *r, char *err, size_t errlen)
{
	const struct scenario_config *c = r->cfg;
	double sim;

	/* the window opens before the first process runs, after start()
	 * has set up the workloads' files (a warm start's page cache is the
	 * machine's state before the experiment, not part of it) */
	if (workload_set_start(r->set, &r->e, &r->pgdat, c->seed, err, errlen))
		return -1;
	/* [run] prepare_first: the harness's work before the first
	 * iteration too, so that a warmup iteration is the run before as
	 * real/harness's was, under the pool */
	if (c->prepare_first)
		between_iterations(r);
	open_window(r);
	record_census(r, engine_now());
	if (c->sample_interval > 0)
		record_freeblocks(r, engine_now());

	if (c->duration > 0) {
		engine_run(&r->e, c->duration);
		if (r->e.error)
			goto stopped;
		/* the window closes at the duration if nothing measured ended
		 * it before; background workloads see workload_stopping().  An
		 * iteration cut short closes its window there, and the whole
		 * with it: no further iteration starts */
		if (!r->whole.closed) {
			close_window(r);
			r->nr_windows = r->iteration;
			r->whole.end = r->windows[r->iteration - 1].end;
			r->whole.closed = true;
			r->restart_pending = false;
		}
		r->set->stopping = true;
		sim = engine_run(&r->e, c->duration + RUN_DRAIN_SECONDS);
		if (r->e.error)
			goto stopped;
		/* simgrid_run_until() leaves the clock at its limit even when
		 * the last process ended before: the run ended then */
		if (!r->e.nr_live_tasks && r->e.last_exit < sim)
			sim = r->e.last_exit > c->duration ? r->e.last_exit : c->duration;
	} else {
		sim = engine_run(&r->e, 0);
		if (r->e.error)
			goto stopped;
		if (r->e.nr_live_tasks) {
			snprintf(err, errlen, "the simulation deadlocked: %lu processes never ended",
			         r->e.nr_live_tasks);
			return -1;
		}
		if (!r->whole.closed) {
			snprintf(err, errlen, "the measured workloads ended without closing the measured window");
			return -1;
		}
	}
	r->sim_seconds = sim;
	/* the last census, if no window closed normally (a failed
	 * iteration), on the machine at rest; free blocks at rest */
	if (!r->census_at_end)
		record_census(r, sim);
	if (c->sample_interval > 0)
		record_freeblocks(r, sim);
	if (c->hugepages_at_rest)
		hugepages_at_rest(r);
	if (mmsim_check_at_end() && check_pgdat(&r->pgdat, "end of run")) {
		snprintf(err, errlen, "invariant violation at the end of the run (see above); nothing recorded");
		return -1;
	}
	check_outcome(r);
	return 0;
stopped:
	snprintf(err, errlen, "%s", r->e.error_msg);
	return r->e.error;
}

void run_destroy(struct run *r)
{
	if (!r)
		return;
	if (r->engine_started)
		engine_destroy(&r->e);
	for (size_t i = 0; i < r->nr_census; i++)
		free(r->census[i].map);
	free(r->census);
	free(r->freeblocks);
	free(r->windows);
	if (r->set) {
		for (unsigned i = 0; i < r->set->n; i++)
			workload_destroy(r->set->w[i]);
		free(r->set);
	}
	if (r->policy)
		machine_shutdown(&r->pgdat, r->policy);
	free(r);
}
