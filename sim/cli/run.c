/* run.c - mmsim run's driver call: one resolved scenario simulated by
 * the library's run driver (sim/run/, <mmsim/run.h>) into one database
 * file, with the command line's messages and exit codes.
 *
 * The results file is created first: a target that cannot be written
 * fails in a second, not after an hour of simulation.  Everything is
 * written in one transaction and committed at the end; any failure
 * aborts the results: nothing is left at the target.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "run.h"
#include "mmsim/run.h"
#include "mmsim/version.h"
#include "results.h"

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

/* SimGrid cannot be torn down with actors that never ran (the daemons,
 * processes a failed start left behind), and at exit LeakSanitizer's
 * scan of their stacks crashes: a run that fails once the engine has
 * started ends its process here, with nothing at the target. */
static void __attribute__((noreturn)) end_process(struct results_db *db, int rc)
{
	if (db)
		results_abort(db);
	fflush(NULL);
	_exit(rc);
}

int run_scenario(const struct scenario *s, const struct run_opts *o)
{
	const struct scenario_config *c = scenario_config(s);
	struct results_db *db = NULL;
	struct run_record rec;
	struct run *r;
	int rc;
	char err[1536], started[32], finished[32];
	double wall0 = wall_now();

	iso_time(started, sizeof(started));
	if (results_create(&db, o->out, err, sizeof(err))) {
		error("%s", err);
		return EX_CANTCREAT;
	}
	r = run_create(s, o->check_every, err, sizeof(err));
	if (!r) {
		error("%s", err);
		if (run_create_failed_engine())
			end_process(db, EX_SOFTWARE);
		results_abort(db);
		return EX_SOFTWARE;
	}
	rc = run_execute(r, err, sizeof(err));
	if (rc) {
		error("%s", err);
		/* -E2BIG: the scenario's intervals are too short for the run */
		end_process(db, rc == -E2BIG ? EX_CONFIG : EX_SOFTWARE);
	}

	iso_time(finished, sizeof(finished));
	memset(&rec, 0, sizeof(rec));
	results_new_run_id(rec.run_id);
	rec.name = c->name[0] ? c->name : c->policy;
	rec.sweep_id = o->sweep_id;
	rec.policy = c->policy;
	rec.workload = r->workloads;
	rec.seed = c->seed;
	rec.config = scenario_text(s);
	rec.config_hash = scenario_hash(s);
	rec.mmsim_version = MMSIM_VERSION;
	rec.git_commit = MMSIM_GIT_REVISION;
	rec.build_type = MMSIM_BUILD_TYPE;
	rec.started_at = started;
	rec.finished_at = finished;
	rec.sim_seconds = r->sim_seconds;
	rec.wall_seconds = wall_now() - wall0;
	/* a workload whose outcome is no result (make died, nothing built)
	 * is kept, as 'failed': out of the tables, there to be looked at */
	rec.status = r->failed ? "failed" : "ok";
	rec.error = r->failed ? r->failure : NULL;
	/* the file was created above: what fails now is a write (a full
	 * disk, a file size limit), 74 as the docs say, not 73 */
	if (run_store(r, db, &rec, err, sizeof(err))) {
		error("%s: %s", o->out, err);
		end_process(db, EX_IOERR);
	}
	if (results_commit(db, err, sizeof(err))) {
		error("%s", err);
		end_process(NULL, EX_IOERR);
	}
	if (!o->quiet)
		fprintf(stderr, "mmsim: run: %s: %s, seed %llu, %.1f s simulated in %.1f s -> %s%s%s\n",
		        rec.name, r->workloads, (unsigned long long)c->seed, r->sim_seconds, rec.wall_seconds,
		        o->out, r->failed ? "; failed: " : "", r->failed ? r->failure : "");
	run_destroy(r);
	return EX_OK;
}
