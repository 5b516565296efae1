/* cli.h - what the verbs of the mmsim command share. */
#ifndef MMSIM_CLI_H
#define MMSIM_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "mmsim/mm.h"
#include "mmsim/policy.h"
#include "mmsim/run.h"
#include "mmsim/experiment.h"
#include "mmsim/outfile.h"

/* Exit codes: one vocabulary, the names of <sysexits.h> (sysexits(3):
 * EX_OK 0, EX_USAGE 64 bad usage, EX_DATAERR 65 bad or incompatible
 * database, EX_NOINPUT 66 missing input, EX_UNAVAILABLE 69 a program
 * mmsim needs is missing or refused (sbatch), EX_SOFTWARE 70 internal
 * error, invariant violation or failed run, EX_CANTCREAT 73 cannot create
 * the output, EX_IOERR 74 an output could not be written (stdout: a full
 * disk), EX_TEMPFAIL 75 another sweep holds the directory, EX_CONFIG 78
 * bad configuration value), documented in docs/mmsim.1.md.  The system
 * header defines them and the tree defines none of its own: the
 * experiment floor (<mmsim/experiment.h>) and the plot code returned
 * these names already, git and the BSD tools use them, and a second set
 * of names for the same numbers (the EXIT_* this header and run.h once
 * had) is a second place for a number to go wrong
 * (scripts/check-defines.sh, ctest: defines). */
#include <sysexits.h>

#define MAX_SETS SWEEP_MAX_SETS

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
	"                        kernel.large_folios (yes|no),\n" \
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
/* The exit code (EX_OK; 65, 66, 69, 70, 73, 74), the message printed. */
int plot_draw(const struct plot_opts *o);
/* make_dir(): <mmsim/outfile.h> */

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
