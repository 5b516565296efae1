/* experiment_int.h - what the files of sim/experiment/ share (not an API;
 * <mmsim/experiment.h> is). */
#ifndef MMSIM_EXPERIMENT_INT_H
#define MMSIM_EXPERIMENT_INT_H

#include <limits.h>
#include <stddef.h>
#include "mmsim/experiment.h"

/* "mmsim: error: MESSAGE" on stderr: the command line's error(), which
 * the library cannot call (it sits below the command line) */
void exp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* plan.c: a sweep as the product of its variants, varied keys and seeds */
struct sweep_plan {
	const struct sweep_spec *spec;
	char scenario[PATH_MAX];         /* absolute path */
	char *const *sets;
	int nr_sets;
	const struct sweep_variant *variants;   /* NULL: none */
	int nr_variants;
	struct sweep_vary *vary;
	int nr_vary;
	unsigned long seeds;
	unsigned long nr_runs;
	char *id;                       /* DIR/sweep.id's text (identity.c) */
};
/* combination k (0-based) of the product: the variant (slowest), the
 * value index of each vary, the last varying fastest, then the seed */
const struct sweep_variant *plan_combination(const struct sweep_plan *p, unsigned long k, int *idx,
                                             unsigned long *seed);

/* manifest.c */
int manifest_write(const struct sweep_plan *p, const char *path);
/* 1 if the two files hold the same text */
int same_file_text(const char *a, const char *b);

/* identity.c: DIR/sweep.id, the binary and each line's scenario hash */
char *identity_text(const struct sweep_plan *p, char (*hashes)[17]);
/* Why the recorded identity old differs from new, as a message */
void identity_diff(const char *dir, const char *old, const char *new, char *msg, size_t len);
/* the whole file as a string ("" if empty), NULL if it cannot be read */
char *read_text(const char *path);
int write_file_atomic(const char *path, const char *text);

/* lock.c: DIR/lock, and DIR's old sweep moved aside */
/* the descriptor (kept open: closing it drops the lock), or after the
 * message -2 if another sweep holds it, -1 if it cannot be taken */
int lock_dir(const char *dir);
/* --force-new: move the old sweep's files into DIR/superseded-TIME/ */
int supersede(const char *dir);

/* pool.c: run DIR's lines 1..nr_runs not yet complete here, jobs at a
 * time, one child process each; how many ran to completion in *done and
 * were complete before in *skipped */
int pool_run(const char *manifest, const char *dir, unsigned long nr_runs, unsigned long jobs,
             unsigned long *done, unsigned long *skipped);

/* outcome.c: merge DIR's complete runs into DIR/sweep.db and name the
 * failed lines (ran, skipped: what this call ran, for the message;
 * jobid: the Slurm job that ran them, or NULL).  The exit code. */
int merge_report(const char *dir, unsigned long nr_runs, const char *jobid,
                 unsigned long ran, unsigned long skipped);

/* slurm.c: a sweep's lines as a Slurm job array */
/* Write DIR/sweep.sbatch and submit it as an array of the manifest lines
 * idx[0..n) (sorted); the job id in jobid, recorded in DIR/slurm.job.
 * DIR is absolute.  EX_OK, or the exit code after the message. */
int slurm_submit(const struct slurm_opts *o, const char *dir, const unsigned long *idx, size_t n,
                 char *jobid, size_t len);
/* DIR/slurm.job's job id: 1 if there is one, else 0 */
int slurm_job_read(const char *dir, char *jobid, size_t len);
/* tasks of the job still queued or running (0: finished), -1 if squeue fails */
int slurm_job_active(const char *jobid);
/* wait until no task of the job is queued or running (progress on
 * stderr); 0, or -1 after the message when squeue keeps failing */
int slurm_wait(const char *jobid);
/* "task JOB_N FAILED, exit code 0:9" as scontrol tells it, or "" */
void slurm_task_state(const char *jobid, unsigned long index, char *buf, size_t len);

/* slurm_sweep.c: the plan's lines on Slurm */
/* A Slurm job recorded in DIR/slurm.job with tasks still queued: its id
 * in jobid and 1; 0 if none; -1 if squeue cannot tell (message printed). */
int queued_job(const char *dir, char *jobid, size_t len);
int sweep_slurm(const struct slurm_opts *o, const char *dir_arg, unsigned long nr_runs,
                const char *queued);

#endif
