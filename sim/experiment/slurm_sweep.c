/* slurm_sweep.c - a sweep's lines on a Slurm cluster: the lines not
 * complete submitted as a job array (slurm.c), or the job of an earlier
 * call still in the queue waited for instead of submitted twice; then
 * merged (outcome.c).  mmsim sweep --collect DIR does the waiting and
 * merging of a job submitted with --no-wait.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "experiment_int.h"
#include "results.h"

/* The lines not complete as a Slurm job array (or, when the job that
 * ran them is still queued, that job), waited for and merged. */
int sweep_slurm(const struct slurm_opts *o, const char *dir_arg, unsigned long nr_runs,
                const char *queued)
{
	char dir[PATH_MAX], jobid[64] = "";
	unsigned long *todo, n = 0, skipped = 0;
	int rc;

	if (!realpath(dir_arg, dir)) {
		exp_error("cannot resolve %s: %s", dir_arg, strerror(errno));
		return EX_CANTCREAT;
	}
	if (queued) {
		snprintf(jobid, sizeof(jobid), "%s", queued);
		fprintf(stderr, "mmsim: sweep: Slurm job %s of this sweep is still in the queue: %s\n",
		        jobid, o->no_wait ? "nothing submitted (mmsim sweep --collect DIR waits for it)"
		                          : "waiting for it (nothing submitted)");
		if (o->no_wait)
			return EX_OK;
		if (slurm_wait(jobid))
			return EX_UNAVAILABLE;
		return merge_report(dir, nr_runs, jobid, 0, 0);
	}
	if (!(todo = calloc(nr_runs, sizeof(*todo)))) {
		exp_error("out of memory");
		return EX_SOFTWARE;
	}
	for (unsigned long k = 1; k <= nr_runs; k++) {
		char out[PATH_MAX + 32];
		snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
		if (results_is_complete(out))
			skipped++;
		else
			todo[n++] = k;
	}
	if (!n) {
		free(todo);
		fprintf(stderr, "mmsim: sweep: every run is complete: nothing submitted\n");
		return merge_report(dir, nr_runs, NULL, 0, skipped);
	}
	rc = slurm_submit(o, dir, todo, n, jobid, sizeof(jobid));
	free(todo);
	if (rc)
		return rc;
	fprintf(stderr, "mmsim: sweep: %lu runs submitted as Slurm job %s (%lu already complete; "
	        "script %s/sweep.sbatch, logs %s/run-NNNN.log)\n", n, jobid, skipped, dir, dir);
	if (o->no_wait) {
		fprintf(stderr, "mmsim: sweep: not waiting: mmsim sweep --collect %s merges the runs "
		        "when the job has finished\n", dir);
		return EX_OK;
	}
	if (slurm_wait(jobid))
		return EX_UNAVAILABLE;
	return merge_report(dir, nr_runs, jobid, n, skipped);
}

/* A Slurm job recorded in DIR/slurm.job with tasks still queued: its id
 * in jobid and 1; 0 if none; -1 if squeue cannot tell (message printed). */
int queued_job(const char *dir, char *jobid, size_t len)
{
	int n;

	if (!slurm_job_read(dir, jobid, len))
		return 0;
	n = slurm_job_active(jobid);
	if (n < 0)
		fprintf(stderr, "mmsim: sweep: warning: %s/slurm.job names Slurm job %s, and squeue "
		        "cannot say whether it still runs\n", dir, jobid);
	return n > 0 ? 1 : n;
}

/* mmsim sweep --collect DIR: wait for the sweep's Slurm job (if it is
 * still queued) and merge; the lock held meanwhile. */
int sweep_collect(const char *dir_arg, int no_wait)
{
	char dir[PATH_MAX], manifest[PATH_MAX + 16], merged[PATH_MAX + 16], jobid[64];
	long nr_runs;
	int lock_fd, q, rc;

	if (!realpath(dir_arg, dir)) {
		exp_error("cannot open %s: %s", dir_arg, strerror(errno));
		return EX_NOINPUT;
	}
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	if ((nr_runs = manifest_count(manifest)) < 0) {
		exp_error("cannot read %s: %s (not a sweep's directory?)", manifest, strerror(errno));
		return EX_NOINPUT;
	}
	if ((lock_fd = lock_dir(dir)) < 0)
		return lock_fd == -2 ? EX_TEMPFAIL : EX_CANTCREAT;
	snprintf(merged, sizeof(merged), "%s/sweep.db", dir);
	results_clean_stale(merged);
	q = queued_job(dir, jobid, sizeof(jobid));
	if (q < 0) {
		rc = EX_UNAVAILABLE;
	} else if (q && no_wait) {
		exp_error("Slurm job %s of %s still has tasks in the queue; collect again later", jobid, dir);
		rc = EX_TEMPFAIL;
	} else if (q && slurm_wait(jobid)) {
		rc = EX_UNAVAILABLE;
	} else {
		rc = merge_report(dir, (unsigned long)nr_runs,
		                  slurm_job_read(dir, jobid, sizeof(jobid)) ? jobid : NULL, 0, 0);
	}
	close(lock_fd);
	return rc;
}
