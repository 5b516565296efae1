/* run.c - the run driver (see run.h).
 *
 * The order of things, and why:
 *   1. the results file is created first: a target that cannot be written
 *      fails in a second, not after an hour of simulation;
 *   2. the machine is booted from the resolved scenario, the engine
 *      started, the observers (census, free pageblocks) registered;
 *   3. the measured window opens with a copy of the counters, then the
 *      workloads start; it closes when the last measured workload has
 *      finished (workload_set's on_measured_end) or when [run] duration
 *      has passed, whichever comes first;
 *   4. the background workloads are then asked to stop and the machine
 *      runs on (at most RUN_DRAIN_SECONDS) until every process has ended,
 *      so that the last census sees an idle machine after the build, as
 *      the cover letter's did;
 *   5. the invariant checker looks at the final state; then everything is
 *      written in one transaction and committed.
 * Any failure aborts the results: nothing is left at the target.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "run.h"
#include "mmsim/census.h"
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "mmsim/version.h"
#include "results.h"
#include "workload.h"

/* The time series stored as samples rows, by /proc/vmstat name (events,
 * node or zone stats, whichever has the name), plus free_pageblocks,
 * which the run counts itself.  A name the model does not keep is
 * skipped. */
static const char *const sample_names[] = {
	"thp_fault_alloc", "thp_fault_fallback",
	"compact_stall", "compact_success", "compact_fail",
	"compact_migrate_scanned", "compact_free_scanned",
	"compact_daemon_migrate_scanned", "compact_daemon_free_scanned",
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"allocstall_movable", "pswpout", "pswpin", "workingset_refault_file",
	"nr_free_pages", "nr_free_free", "nr_anon_pages", "nr_mapped", "nr_file_pages",
	"nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_page_table_pages", "slabs_scanned",
	NULL,
};

struct census_snap {
	double t;
	struct block_census c;
	unsigned char *map;             /* blockmap_groups migratetypes */
};

struct run_state {
	const struct scenario_config *cfg;
	struct pglist_data pgdat;
	struct mm_policy *policy;
	struct engine e;
	struct workload_set set;
	struct sample win_start, win_end;
	bool window_closed;
	/* free pageblocks at the sampler's times */
	struct { double t, blocks; } *freeblocks;
	size_t nr_freeblocks, cap_freeblocks;
	struct census_snap *census;
	size_t nr_census, cap_census;
	unsigned groups;                /* blockmap rows actually used */
};

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void iso_time(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
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


static void close_window(struct run_state *r)
{
	if (r->window_closed)
		return;
	sample_counters(&r->pgdat, &r->win_end);
	r->window_closed = true;
}

static void on_measured_end(struct workload_set *s, void *arg)
{
	(void)s;
	close_window(arg);
}

/* wholly free pageblocks: free buddies of pageblock order and above */
static double free_pageblocks(const struct pglist_data *pgdat)
{
	unsigned long n = 0;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
			n += pgdat->node_zones[z].free_area[o].nr_free << (o - pageblock_order);
	return (double)n;
}

static void record_freeblocks(struct run_state *r, double t)
{
	if (r->nr_freeblocks && r->freeblocks[r->nr_freeblocks - 1].t >= t)
		return;
	r->freeblocks = grow(r->freeblocks, &r->cap_freeblocks, r->nr_freeblocks, sizeof(*r->freeblocks));
	r->freeblocks[r->nr_freeblocks].t = t;
	r->freeblocks[r->nr_freeblocks].blocks = free_pageblocks(&r->pgdat);
	r->nr_freeblocks++;
}

static void freeblocks_tick(struct engine *e, void *arg)
{
	(void)e;
	record_freeblocks(arg, engine_now());
}

/* The pageblock map: blocks split into r->groups consecutive groups,
 * each shown as its most common migratetype (ties: the lower type). */
static void blockmap(const struct run_state *r, unsigned char *map)
{
	const struct pglist_data *pgdat = &r->pgdat;
	unsigned long nb = pgdat->nr_pageblocks;

	for (unsigned g = 0; g < r->groups; g++) {
		unsigned long from = g * nb / r->groups, to = (g + 1) * nb / r->groups;
		unsigned long count[MIGRATE_TYPES] = { 0 };
		int best = 0;
		for (unsigned long b = from; b < to; b++)
			count[get_pageblock_migratetype(pgdat, b << pageblock_order)]++;
		for (int mt = 1; mt < MIGRATE_TYPES; mt++)
			if (count[mt] > count[best])
				best = mt;
		map[g] = (unsigned char)best;
	}
}

static void record_census(struct run_state *r, double t)
{
	struct census_snap *c;

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
		blockmap(r, c->map);
	}
}

static void census_tick(struct engine *e, void *arg)
{
	(void)e;
	record_census(arg, engine_now());
}

/* ------------------------------------------------------------ boot */

static int boot(struct run_state *r, unsigned long check_every, const struct scenario *s)
{
	const struct scenario_config *c = r->cfg;
	struct mm_layout layout;
	char err[256];

	if (scenario_create_policy(s, &r->policy, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	if (mm_layout_qemu(c->ram, c->kernel_reserved, &layout, err, sizeof(err)) ||
	    pgdat_init(&r->pgdat, &layout, c->cpus, &c->sysctl, r->policy, err, sizeof(err))) {
		error("boot: %s", err);
		mm_policy_destroy(r->policy);
		r->policy = NULL;
		return -1;
	}
	if (swap_setup(&r->pgdat, (unsigned long)(c->swap / PAGE_SIZE), c->swap_latency,
	               (double)c->swap_bandwidth, err, sizeof(err))) {
		error("[machine] swap: %s", err);
		return -1;
	}
	r->pgdat.debug_check_interval = check_every;
	return 0;
}

/* ------------------------------------------------------------ results */

static int lookup_sample(const char *name, int *kind, int *idx)
{
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if (!strcmp(vm_event_names[i], name))
			return *kind = 0, *idx = i, 0;
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		if (!strcmp(node_stat_names[i], name))
			return *kind = 1, *idx = i, 0;
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (!strcmp(zone_stat_names[i], name))
			return *kind = 2, *idx = i, 0;
	return -1;
}

static double sample_value(const struct sample *s, int kind, int idx)
{
	return kind == 0 ? (double)s->vm_events[idx] : kind == 1 ? (double)s->node_stat[idx]
	                                                         : (double)s->zone_stat[idx];
}

static int write_results(struct results_db *db, struct run_state *r, const struct scenario *s,
                         const struct run_record *rec)
{
	const char *id = rec->run_id;
	const struct scenario_config *c = r->cfg;
	struct metric m[64];

	if (results_add_run(db, rec))
		return -1;
	for (size_t i = 0; i < scenario_nr_params(s); i++) {
		const char *k, *v;
		scenario_param(s, i, &k, &v);
		if (results_add_param(db, id, k, v))
			return -1;
	}
	/* every event counter, as its delta over the measured window */
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if (results_add_vmstat(db, id, vm_event_names[i],
		                       (int64_t)(r->win_end.vm_events[i] - r->win_start.vm_events[i])))
			return -1;
	/* the node counters that only grow (in /proc/vmstat beside the
	 * events: workingset_refault_file is the cover letter's "File
	 * refaults"), as deltas too */
	{
		static const enum node_stat_item monotonic[] = {
			WORKINGSET_REFAULT_ANON, WORKINGSET_REFAULT_FILE, WORKINGSET_ACTIVATE_ANON,
			WORKINGSET_ACTIVATE_FILE, NR_VMSCAN_WRITE, NR_DIRTIED, NR_WRITTEN,
		};
		for (size_t i = 0; i < sizeof(monotonic) / sizeof(monotonic[0]); i++)
			if (results_add_vmstat(db, id, node_stat_names[monotonic[i]],
			                       (int64_t)(r->win_end.node_stat[monotonic[i]] -
			                                 r->win_start.node_stat[monotonic[i]])))
				return -1;
	}
	/* workload metrics, then the run's own */
	for (unsigned w = 0; w < r->set.n; w++) {
		const struct workload *wl = r->set.w[w];
		size_t n = wl->ops->report ? wl->ops->report(wl, m, sizeof(m) / sizeof(m[0])) : 0;
		for (size_t i = 0; i < n; i++)
			if (results_add_metric(db, id, m[i].name, m[i].value))
				return -1;
	}
	/* mm_page_alloc_extfrag, tallied over the whole run (a trace, not a
	 * /proc counter): how often and from where allocations fell back */
	{
		const struct extfrag_stats *ef = &r->pgdat.extfrag;
		char name[64];
		if (results_add_metric(db, id, "extfrag_events", (double)ef->events) ||
		    results_add_metric(db, id, "extfrag_fragmenting", (double)ef->fragmenting) ||
		    results_add_metric(db, id, "extfrag_change_ownership", (double)ef->change_ownership))
			return -1;
		for (int a = 0; a < MIGRATE_TYPES; a++)
			for (int f = 0; f < MIGRATE_TYPES; f++) {
				if (!ef->by_type[a][f])
					continue;
				snprintf(name, sizeof(name), "extfrag_%s_from_%s", migratetype_names[a],
				         migratetype_names[f]);
				if (results_add_metric(db, id, name, (double)ef->by_type[a][f]))
					return -1;
			}
	}
	if (results_add_metric(db, id, "window_seconds", r->win_end.t - r->win_start.t) ||
	    results_add_metric(db, id, "sim_seconds", rec->sim_seconds) ||
	    results_add_metric(db, id, "sim_wall_ratio",
	                       rec->wall_seconds > 0 ? rec->sim_seconds / rec->wall_seconds : 0))
		return -1;
	/* time series */
	for (const char *const *name = sample_names; *name; name++) {
		int kind, idx;
		if (lookup_sample(*name, &kind, &idx))
			continue;
		for (size_t i = 0; i < r->e.nr_samples; i++) {
			/* the engine's last sample is at the clock, which a run with
			 * a duration leaves past the end: it is the end state */
			double t = r->e.samples[i].t;
			if (t > rec->sim_seconds) {
				if (i && r->e.samples[i - 1].t >= rec->sim_seconds)
					break;
				t = rec->sim_seconds;
			}
			if (results_add_sample(db, id, t, *name, sample_value(&r->e.samples[i], kind, idx)))
				return -1;
		}
	}
	for (size_t i = 0; i < r->nr_freeblocks; i++)
		if (results_add_sample(db, id, r->freeblocks[i].t, "free_pageblocks", r->freeblocks[i].blocks))
			return -1;
	/* censuses and maps */
	for (size_t i = 0; i < r->nr_census; i++) {
		const struct census_snap *cs = &r->census[i];
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			const unsigned long *p = cs->c.mixed_pages[mt];
			if (!cs->c.blocks[mt])
				continue;
			if (results_add_census(db, id, cs->t, migratetype_names[mt], (long)cs->c.blocks[mt],
			                       (long)cs->c.mixed_blocks[mt], (long)p[CENSUS_LRU],
			                       (long)p[CENSUS_SLAB], (long)p[CENSUS_KMEM], (long)p[CENSUS_OTHER]))
				return -1;
		}
		for (unsigned g = 0; cs->map && g < r->groups; g++)
			if (results_add_blockmap(db, id, cs->t, (long)g, migratetype_names[cs->map[g]]))
				return -1;
	}
	(void)c;
	return 0;
}

/* ------------------------------------------------------------ the run */

static void free_state(struct run_state *r)
{
	for (size_t i = 0; i < r->nr_census; i++)
		free(r->census[i].map);
	free(r->census);
	free(r->freeblocks);
	for (unsigned i = 0; i < r->set.n; i++)
		workload_destroy(r->set.w[i]);
	r->set.n = 0;
}

int run_scenario(const struct scenario *s, const struct run_opts *o)
{
	static struct run_state r;      /* large (struct sample x 2); one run per process */
	const struct scenario_config *c = scenario_config(s);
	struct results_db *db = NULL;
	struct engine_config ecfg;
	struct run_record rec;
	char err[512], started[32], finished[32], workloads[256] = "";
	double wall0 = wall_now(), sim;
	int rc = EXIT_SOFTWARE;

	memset(&r, 0, sizeof(r));
	r.cfg = c;
	iso_time(started, sizeof(started));
	if (results_create(&db, o->out, err, sizeof(err))) {
		error("%s", err);
		return EXIT_CANTCREAT;
	}
	if (boot(&r, o->check_every, s))
		goto fail;
	for (unsigned i = 0; i < c->nr_workloads; i++) {
		struct workload *w;
		if (scenario_create_workload(s, i, &w, err, sizeof(err))) {
			error("%s", err);
			goto fail;
		}
		workload_set_add(&r.set, w);
		snprintf(workloads + strlen(workloads), sizeof(workloads) - strlen(workloads), "%s%s",
		         i ? "+" : "", c->workloads[i]);
	}
	r.set.on_measured_end = on_measured_end;
	r.set.arg = &r;

	engine_config_defaults(&ecfg);
	ecfg.cpus = c->cpus;
	ecfg.quantum = c->quantum;
	ecfg.sample_interval = c->sample_interval;
	if (engine_init(&r.e, &r.pgdat, &ecfg, NULL, NULL, err, sizeof(err))) {
		error("engine: %s", err);
		goto fail;
	}
	r.groups = c->blockmap_groups;
	if (r.groups > r.pgdat.nr_pageblocks)
		r.groups = (unsigned)r.pgdat.nr_pageblocks;
	if ((c->census_interval > 0 && engine_every(&r.e, "census", c->census_interval, census_tick, &r)) ||
	    (c->sample_interval > 0 && engine_every(&r.e, "freeblocks", c->sample_interval, freeblocks_tick, &r))) {
		error("engine: cannot start the observers");
		goto fail_engine;
	}

	/* the window opens before the first process runs, after start()
	 * has set up the workloads' files (a warm start's page cache is the
	 * machine's state before the experiment, not part of it) */
	if (workload_set_start(&r.set, &r.e, &r.pgdat, c->seed, err, sizeof(err))) {
		error("%s", err);
		goto fail_engine;
	}
	sample_counters(&r.pgdat, &r.win_start);
	record_census(&r, engine_now());
	if (c->sample_interval > 0)
		record_freeblocks(&r, engine_now());

	if (c->duration > 0) {
		engine_run(&r.e, c->duration);
		/* the window closes at the duration if nothing measured ended
		 * it before; background workloads see workload_stopping() */
		close_window(&r);
		r.set.stopping = true;
		sim = engine_run(&r.e, c->duration + RUN_DRAIN_SECONDS);
		/* simgrid_run_until() leaves the clock at its limit even when
		 * the last process ended before: the run ended then */
		if (!r.e.nr_live_tasks && r.e.last_exit < sim)
			sim = r.e.last_exit > c->duration ? r.e.last_exit : c->duration;
	} else {
		sim = engine_run(&r.e, 0);
		if (r.e.nr_live_tasks) {
			error("the simulation deadlocked: %lu processes never ended", r.e.nr_live_tasks);
			goto fail_engine;
		}
		if (!r.window_closed) {
			error("the measured workloads ended without closing the measured window");
			goto fail_engine;
		}
	}
	/* the last census and free-block count, on the machine at rest */
	record_census(&r, sim);
	if (c->sample_interval > 0)
		record_freeblocks(&r, sim);
	if (check_pgdat(&r.pgdat, "end of run")) {
		error("invariant violation at the end of the run (see above); nothing recorded");
		goto fail_engine;
	}

	iso_time(finished, sizeof(finished));
	memset(&rec, 0, sizeof(rec));
	results_new_run_id(rec.run_id);
	rec.name = c->name[0] ? c->name : c->policy;
	rec.sweep_id = o->sweep_id;
	rec.policy = c->policy;
	rec.workload = workloads;
	rec.seed = c->seed;
	rec.config = scenario_text(s);
	rec.config_hash = scenario_hash(s);
	rec.mmsim_version = MMSIM_VERSION;
	rec.git_commit = MMSIM_GIT_REVISION;
	rec.build_type = MMSIM_BUILD_TYPE;
	rec.started_at = started;
	rec.finished_at = finished;
	rec.sim_seconds = sim;
	rec.wall_seconds = wall_now() - wall0;
	rec.status = "ok";
	rec.error = NULL;
	if (write_results(db, &r, s, &rec)) {
		error("%s: %s", o->out, results_errmsg(db));
		rc = EXIT_CANTCREAT;
		goto fail_engine;
	}
	if (results_commit(db, err, sizeof(err))) {
		db = NULL;
		error("%s", err);
		rc = EXIT_CANTCREAT;
		goto fail_engine;
	}
	db = NULL;
	if (!o->quiet)
		fprintf(stderr, "mmsim: run: %s: %s, seed %llu, %.1f s simulated in %.1f s -> %s\n",
		        rec.name, workloads, (unsigned long long)c->seed, sim, rec.wall_seconds, o->out);
	rc = EXIT_OK;
fail_engine:
	if (rc != EXIT_OK) {
		/* SimGrid cannot be torn down with actors that never ran (the
		 * daemons, processes a failed start left behind), and at exit
		 * LeakSanitizer's scan of their stacks crashes: a failed run
		 * ends its process here, with nothing at the target. */
		if (db)
			results_abort(db);
		fflush(NULL);
		_exit(rc);
	}
	engine_destroy(&r.e);
fail:
	if (db)
		results_abort(db);
	free_state(&r);
	if (r.policy)
		machine_shutdown(&r.pgdat, r.policy);
	return rc;
}
