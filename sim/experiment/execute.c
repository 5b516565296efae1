/* execute.c - a plan executed in its directory: the lock taken, the
 * manifest and the identity written (or a different sweep there refused,
 * or moved aside), the lines not yet complete run here (pool.c) or on
 * Slurm (slurm_sweep.c), the complete runs merged (outcome.c).  The same
 * manifest runs elsewhere line by line too (GNU parallel: any runner of
 * `mmsim run --manifest DIR/manifest --index N`).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "experiment_int.h"
#include "mmsim/outfile.h"
#include "results.h"

int sweep_plan_execute(struct sweep_plan *p)
{
	const struct sweep_spec *sp = p->spec;
	char manifest[PATH_MAX], newman[PATH_MAX], merged[PATH_MAX];
	const char *dir = sp->dir, *id = p->id;
	unsigned long jobs = sp->jobs ? sp->jobs : 1, done, skipped;
	int rc = EX_OK;
	char *old_id = NULL, idpath[PATH_MAX];
	char jobid[64] = "";
	int lock_fd = -1, slurm_queued = 0;

	/* only now that every line is valid: a bad sweep writes nothing */
	if (make_dir(dir))
		return EX_CANTCREAT;
	if ((lock_fd = lock_dir(dir)) < 0)
		return lock_fd == -2 ? EX_TEMPFAIL : EX_CANTCREAT;
	/* a Slurm job of this directory still queued: its tasks write the
	 * run files, so nothing else may run its lines or move them aside */
	switch (queued_job(dir, jobid, sizeof(jobid))) {
	case 1:
		if (!sp->slurm || sp->force_new) {
			exp_error("%s: its Slurm job %s still has tasks in the queue: wait for it (mmsim sweep "
			          "--collect %s) or cancel it (scancel %s)", dir, jobid, dir, jobid);
			rc = EX_TEMPFAIL;
			goto out;
		}
		slurm_queued = 1;
		break;
	case -1:
		if (sp->slurm) {
			exp_error("cannot tell whether Slurm job %s still runs this sweep's lines: nothing "
			          "submitted", jobid);
			rc = EX_UNAVAILABLE;
			goto out;
		}
		break;
	}
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	snprintf(newman, sizeof(newman), "%s/manifest.new", dir);
	snprintf(merged, sizeof(merged), "%s/sweep.db", dir);
	snprintf(idpath, sizeof(idpath), "%s/sweep.id", dir);
	/* leftovers of a sweep killed while writing these (we hold the lock:
	 * nobody else writes them) */
	unlink(newman);
	results_clean_stale(newman);
	results_clean_stale(idpath);
	results_clean_stale(manifest);
	rc = EX_OK;
	if (manifest_write(p, newman)) {
		rc = EX_CANTCREAT;
		goto out;
	}
	old_id = access(manifest, F_OK) == 0 ? read_text(idpath) : NULL;
	if (access(manifest, F_OK) == 0 &&
	    (!same_file_text(manifest, newman) || !old_id || strcmp(old_id, id))) {
		char why[PATH_MAX + 1024];
		if (!same_file_text(manifest, newman))
			snprintf(why, sizeof(why), "%s holds another sweep's manifest (another scenario "
			         "path, --vary, --set or --seeds)", dir);
		else if (!old_id)
			snprintf(why, sizeof(why), "%s: the sweep has no sweep.id (started by an older "
			         "mmsim): its binary and scenario cannot be checked", dir);
		else
			identity_diff(dir, old_id, id, why, sizeof(why));
		if (!sp->force_new) {
			unlink(newman);
			exp_error("%s; use another -o DIR, or --force-new to move the old sweep aside and "
			          "start again", why);
			rc = EX_USAGE;
			goto out;
		}
		fprintf(stderr, "mmsim: sweep: %s\n", why);
		if (supersede(dir)) {
			unlink(newman);
			rc = EX_CANTCREAT;
			goto out;
		}
	}
	/* the identity first: a manifest is never there without its id */
	if (write_file_atomic(idpath, id)) {
		unlink(newman);
		rc = EX_CANTCREAT;
		goto out;
	}
	if (rename(newman, manifest)) {
		exp_error("cannot write %s: %s", manifest, strerror(errno));
		rc = EX_CANTCREAT;
		goto out;
	}
	results_clean_stale(merged);
	for (unsigned long k = 1; k <= p->nr_runs; k++) {
		char out[PATH_MAX];
		snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
		results_clean_stale(out);
	}
	if (sp->slurm) {
		rc = sweep_slurm(sp->slurm, dir, p->nr_runs, slurm_queued ? jobid : NULL);
		goto out;
	}
	rc = pool_run(manifest, dir, p->nr_runs, jobs, &done, &skipped);
	if (rc)
		goto out;
	/* merge every complete run file of the manifest; name the failed */
	rc = merge_report(dir, p->nr_runs, NULL, done, skipped);
out:
	free(old_id);
	close(lock_fd);                 /* the lock ends with it */
	return rc;
}

int sweep_execute(const struct sweep_spec *sp)
{
	struct sweep_plan *p;
	int rc = sweep_plan_build(sp, &p);

	if (rc)
		return rc;
	rc = sweep_plan_execute(p);
	sweep_plan_free(p);
	return rc;
}
