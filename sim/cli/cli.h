/* cli.h - what the verbs of the mmsim command share. */
#ifndef MMSIM_CLI_H
#define MMSIM_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "mmsim/mm.h"
#include "mmsim/policy.h"
#include "mmsim/run.h"

/* exit codes (sysexits.h), documented in docs/mmsim.1.md */
#define EXIT_OK       0
#define EXIT_USAGE    64
#define EXIT_DATAERR  65              /* bad or incompatible database */
#define EXIT_NOINPUT  66              /* missing input file */
#define EXIT_SOFTWARE 70
#define EXIT_CANTCREAT 73             /* cannot create the output */
#define EXIT_UNAVAILABLE 69           /* a program mmsim needs is missing or refused (sbatch) */
#define EXIT_IOERR    74              /* an output could not be written (stdout: a full disk) */
#define EXIT_TEMPFAIL 75              /* try again later: another sweep holds the directory */
#define EXIT_CONFIG   78

#define MAX_SETS 64

/* A machine as the command line describes it. */
struct machine_opts {
	uint64_t ram;                   /* bytes */
	uint64_t swap;                  /* bytes of swap (0: none) */
	unsigned cpus;
	unsigned long kernel_reserved;  /* pages */
	unsigned long check_every;      /* debug_vm: check the state every N ops */
	const char *sets[MAX_SETS];     /* KEY=VALUE overrides, in order */
	int nr_sets;
};

void machine_opts_defaults(struct machine_opts *m);
/* Handle a machine option (--ram, --cpus, --set, --check-every); returns
 * 1 if it was one, 0 if not, -1 on a bad value (message printed). */
int machine_opt(struct machine_opts *m, const char *opt, const char *arg);
/* Boot a node with the named policy through the library's machine_boot()
 * (<mmsim/run.h>); -1 with a message printed.  machine_shutdown() ends it. */
int machine_opts_boot(const struct machine_opts *m, const char *policy_name,
                      struct pglist_data *pgdat, struct mm_policy **policy);

int parse_size(const char *s, uint64_t *out);
int parse_ulong(const char *s, unsigned long *out);
/* -j JOBS and --seeds N of sweep, reproduce and ablate: 1..1024 and
 * 1..100000, message printed on error */
int parse_jobs(const char *s, unsigned long *jobs);
int parse_seeds(const char *s, unsigned long *seeds);
/* --set SECTION.KEY=VALUE of run, sweep, reproduce and ablate: appended to
 * sets (MAX_SETS entries), message printed when it is full */
int add_set(char **sets, int *nr_sets, char *arg);
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define MACHINE_OPTIONS_HELP \
	"  --ram SIZE            guest RAM, with K/M/G/T suffix (default 2G)\n" \
	"  --cpus N              CPUs, one set of per-cpu lists each (default 4)\n" \
	"  --swap SIZE           swap area on a 100 us, 1 GB/s device (default 0: none)\n" \
	"  --set KEY=VALUE       vm.min_free_kbytes, vm.watermark_scale_factor,\n" \
	"                        vm.watermark_boost_factor, vm.percpu_pagelist_high_fraction,\n" \
	"                        vm.lowmem_reserve_ratio (\"256 256 32 0\"),\n" \
	"                        transparent_hugepage.enabled (always|madvise|never),\n" \
	"                        kernel.config_compaction (yes|no), kernel.config_numa (yes|no),\n" \
	"                        or POLICY.SWITCH\n" \
	"                        (see 'mmsim list policies'); repeatable\n" \
	"  --check-every N       run the invariant checker every N allocator operations\n"

/* the getopt_long entries of the machine options (val 0: machine_opt) */
#define MACHINE_LONG_OPTIONS \
	{ "ram", required_argument, NULL, 0 }, \
	{ "swap", required_argument, NULL, 0 }, \
	{ "cpus", required_argument, NULL, 0 }, \
	{ "set", required_argument, NULL, 0 }, \
	{ "check-every", required_argument, NULL, 0 }

/* slurm.c: a sweep's lines as a Slurm job array (mmsim sweep --slurm) */
#define SLURM_MAX_SBATCH_ARGS 32
struct slurm_opts {
	const char *partition;          /* --partition (NULL: the cluster's default) */
	const char *time;               /* --time limit of each task (NULL: the partition's) */
	const char *mmsim;              /* the mmsim the nodes run (NULL: this one's real path) */
	const char *sbatch_args[SLURM_MAX_SBATCH_ARGS]; /* more sbatch options, as given */
	int nr_sbatch_args;
	unsigned long throttle;         /* tasks at a time (--array=...%N; 0: no limit) */
	int no_wait;                    /* submit and return; mmsim sweep --collect DIR later */
};
/* Write DIR/sweep.sbatch and submit it as an array of the manifest lines
 * idx[0..n) (sorted); the job id in jobid, recorded in DIR/slurm.job.
 * DIR is absolute.  EXIT_OK, or the exit code after the message. */
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

/* cmd_sweep.c: a sweep as a data structure, for the verbs that run one
 * (sweep, reproduce) */
#define SWEEP_MAX_VARY 16
#define SWEEP_MAX_VALUES 64
struct sweep_vary {
	char *key;                      /* SECTION.KEY */
	char *values[SWEEP_MAX_VALUES];
	int n;
};
/* A named set of overrides (mmsim ablate: one per switch turned off).
 * The variants are not a product of keys: each is its own list of
 * SECTION.KEY=VALUE, applied after the common sets. */
#define SWEEP_MAX_VARIANT_SETS 64
struct sweep_variant {
	const char *label;              /* for messages only: the manifest holds the sets */
	const char *sets[SWEEP_MAX_VARIANT_SETS];
	int nr_sets;
};
struct sweep_spec {
	const char *scenario;           /* the scenario file, as given */
	char *const *sets;              /* SECTION.KEY=VALUE common to all runs */
	int nr_sets;
	/* NULL, or variants: every combination of vary and seeds runs once
	 * per variant (the variant varies slowest) */
	const struct sweep_variant *variants;
	int nr_variants;
	struct sweep_vary *vary;        /* the varied keys; the last varies fastest */
	int nr_vary;
	unsigned long seeds;            /* seeds 1..seeds for every combination */
	unsigned long jobs;             /* runs at a time */
	const char *dir;                /* DIR/manifest, DIR/run-NNNN.db, DIR/sweep.db */
	int force_new;                  /* DIR holds another sweep: move it aside, start again */
	const struct slurm_opts *slurm; /* NULL: run here; else submit a Slurm job array */
};
/* Check every run, write the manifest, run the runs not yet complete,
 * merge into DIR/sweep.db; the exit code, after printing any message. */
int sweep_execute(const struct sweep_spec *sp);
/* mmsim run --manifest F --index N: was line N recorded (DIR/sweep.id)
 * with this binary and this resolved scenario hash?  EXIT_OK (also when
 * nothing is recorded), or EXIT_CONFIG after the message. */
int sweep_check_line(const char *manifest, unsigned long index, const char *config_hash);

/* cmd_plot.c: draw a results database (mmsim plot; mmsim reproduce) */
struct plot_opts {
	const char *db;                 /* the results database, opened read-only */
	const char *dir;                /* where the plots go (created, mkdir -p) */
	int png, svg;                   /* the formats */
	const char *metric;             /* the sweep plot's metric (NULL: the default) */
	const char *param;              /* the swept parameter (NULL: detected) */
	const char *run;                /* NULL, or the one run whose blockmap is drawn */
	int no_sweep;                   /* no sweep plot (nothing but the policy varies) */
	int quiet;                      /* do not list the files written on stdout */
};
/* The exit code (EXIT_OK; 65, 66, 69, 70, 73, 74), the message printed. */
int plot_draw(const struct plot_opts *o);
/* outfile.c: mkdir -p DIR; EXIT_CANTCREAT with the message printed */
int make_dir(const char *dir);

int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
struct compare_opts;
/* mmsim report's work, also reproduce's: DIR/report.html of db, its plots
 * from DIR/plots (drawn there as SVG if draw; sweep: the sweep plot too);
 * the page's path into out. */
int report_write(const char *db, const char *dir, const struct compare_opts *co, int draw,
                 int sweep, char *out, size_t outlen);
/* report_runs.c: the page's section on the runs of db (their provenance,
 * census or snapshots) into f; 0, or -1 with the message printed */
int report_runs(FILE *f, const char *db_path);
int cmd_reproduce(int argc, char **argv);
int cmd_ablate(int argc, char **argv);

#endif
