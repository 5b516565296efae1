/* experiment.h - many runs of one scenario as one experiment
 * (sim/experiment/): a plan (the varied keys, the seeds, the variants of
 * a policy), its manifest and identity in a directory, the directory's
 * lock, and its execution here by a pool of child processes or on a
 * Slurm cluster as a job array, merged into DIR/sweep.db.
 *
 * The command line's sweep, reproduce and ablate are option parsing and
 * printing around this.  The functions return the command line's exit
 * codes (sysexits.h: they are mmsim's, docs/mmsim.1.md) and print their
 * own messages on stderr as the command line does ("mmsim: error: ...",
 * "mmsim: sweep: ...", the progress of the runs): an experiment runs for
 * hours, and says what it does while it does it.
 */
#ifndef MMSIM_EXPERIMENT_H
#define MMSIM_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sysexits.h>

struct scenario;
struct param;
struct mm_policy_ops;

#define SWEEP_MAX_SETS 64               /* --set overrides common to all runs */
#define SWEEP_MAX_VARY 16
#define SWEEP_MAX_VALUES 64
#define SWEEP_MAX_VARIANT_SETS 64
#define SLURM_MAX_SBATCH_ARGS 32

/* ------------------------------------------------------------ the plan */

struct sweep_vary {
	char *key;                      /* SECTION.KEY */
	char *values[SWEEP_MAX_VALUES];
	int n;
};
/* A named set of overrides (mmsim ablate: one per switch turned off).
 * The variants are not a product of keys: each is its own list of
 * SECTION.KEY=VALUE, applied after the common sets. */
struct sweep_variant {
	const char *label;              /* for messages only: the manifest holds the sets */
	const char *sets[SWEEP_MAX_VARIANT_SETS];
	int nr_sets;
};

/* A sweep's lines as a Slurm job array (slurm.c) */
struct slurm_opts {
	const char *partition;          /* --partition (NULL: the cluster's default) */
	const char *time;               /* --time limit of each task (NULL: the partition's) */
	const char *mmsim;              /* the mmsim the nodes run (NULL: this one's real path) */
	const char *sbatch_args[SLURM_MAX_SBATCH_ARGS]; /* more sbatch options, as given */
	int nr_sbatch_args;
	unsigned long throttle;         /* tasks at a time (--array=...%N; 0: no limit) */
	int no_wait;                    /* submit and return; mmsim sweep --collect DIR later */
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

struct sweep_plan;

/* Check the keys and resolve every run of sp the way the run will
 * (nothing is written: a sweep with a bad value fails at once, not after
 * hours); the plan and its identity in *out.  sp and what it points to
 * must outlive the plan.  EX_OK, or the exit code after the message. */
int sweep_plan_build(const struct sweep_spec *sp, struct sweep_plan **out);
unsigned long sweep_plan_runs(const struct sweep_plan *p);
void sweep_plan_free(struct sweep_plan *p);

/* Execute a plan in sp->dir (made, with its parents, if missing: only
 * now, so that a plan that fails to build leaves nothing behind): take
 * DIR/lock, write
 * DIR/manifest and DIR/sweep.id (a different sweep there is refused, or
 * moved aside with force_new), run the lines not yet complete here with
 * sp->jobs child processes or as a Slurm job array, merge the complete
 * runs into DIR/sweep.db and name the failed ones.  The exit code
 * (EX_OK; EX_SOFTWARE when a run failed), after the messages. */
int sweep_plan_execute(struct sweep_plan *p);
/* Build, execute and free the plan of sp: mmsim sweep, reproduce and
 * ablate.  The exit code, after the messages. */
int sweep_execute(const struct sweep_spec *sp);

/* mmsim sweep --collect DIR: wait for DIR's Slurm job (unless no_wait),
 * merge, name the failed lines; the lock held meanwhile.  The exit code. */
int sweep_collect(const char *dir, int no_wait);

/* Build and resolve a scenario: the file, then the overrides in order,
 * then policy and seed (NULL: not given).  EX_OK with *out set, or the
 * exit code (EX_NOINPUT, EX_CONFIG) after the message. */
int run_build_scenario(const char *path, char *const *sets, int nr_sets, const char *policy,
                       const char *seed, struct scenario **out);

/* ------------------------------------------------------------ ablation */

/* The variants of a policy (ablate.c): "all" (every switch at its
 * default), then each boolean switch that is on by default turned off,
 * with the fewest others it needs. */
#define ABLATE_MAX_SWITCHES 64
/* the policy's boolean switches */
struct ablate_switches {
	const struct mm_policy_ops *ops;
	const struct param *sw[ABLATE_MAX_SWITCHES];    /* every PARAM_BOOL of the table */
	bool def[ABLATE_MAX_SWITCHES];                  /* its default */
	int n;
	int on[ABLATE_MAX_SWITCHES];    /* indices into sw of the defaults that are on */
	int nr_on;
};
struct ablate_variant {
	char label[64];
	char note[2048];                        /* the legend line ("": none) */
	uint64_t off;                           /* bits over on[]: the switches turned off */
	struct sweep_variant sv;                /* its overrides: every switch, named */
	char setbuf[ABLATE_MAX_SWITCHES][160];
	char *where;                            /* the column's condition on a run's params */
};
/* The variants of policy: v[0] "all", then one per switch on by default
 * (table order), in *out.  Their number, or -1 after the message (*rc
 * the exit code). */
int ablate_variants(const char *policy, struct ablate_switches *s, struct ablate_variant **out,
                    int *rc);
void ablate_variants_free(struct ablate_variant *v, int n);
/* NULL, or why the override set is the variants' own key (policy.name, a
 * switch of the policy) */
const char *ablate_own_key(const struct ablate_switches *s, const char *set);

/* ------------------------------------------------------------ reproduction */

/* mmsim reproduce (reproduce.c): the RFC experiment, a sweep of one
 * scenario over policy.name and seeds 1..N */
#define REPRODUCE_DEFAULT_SCENARIO "configs/hugealloc.ini"
#define REPRODUCE_DEFAULT_SEEDS 3
#define REPRODUCE_DEFAULT_DIR "out/reproduce"
/* the postings' tables (configs/postings/NAME.posting, results/posting.h);
 * reproduce without --posting or --policies prints the 2023 RFC's */
#define REPRODUCE_POSTINGS_DIR "configs/postings"
#define REPRODUCE_DEFAULT_POSTING "rfc-2023"
/* The default scenario: first in the source tree the binary was built
 * from, else above the executable.  0, or -1 with a message. */
int reproduce_default_scenario(char *out, size_t n);
/* --posting NAME|FILE: the posting file's path.  0, or -1 with a message. */
int reproduce_posting_path(const char *name, char *out, size_t n);
/* configs/postings of the source tree.  0, or -1 if not found. */
int reproduce_postings_dir(char *out, size_t n);
/* 1 if the override is a key reproduce sets itself (policy.name, run.seed) */
int reproduce_own_key(const char *set);
/* --policies P,Q,...: two or more known policies, none twice, the first
 * the baseline, as v's values; joined with "and" into what.  0, or -1
 * with a message. */
int reproduce_policies(const char *arg, struct sweep_vary *v, char *what, size_t whatlen);

/* ------------------------------------------------------------ manifests */

/* Sweep manifests (DIR/manifest): one run per line, tab-separated:
 *   SCENARIO <TAB> OUTPUT <TAB> SEED [<TAB> SECTION.KEY=VALUE]...
 * SCENARIO is an absolute path, OUTPUT is relative to the manifest's
 * directory.  Lines are numbered from 1. */
struct manifest_line {
	char *scenario, *out, *seed;    /* point into buf */
	char *sets[64];
	int nr_sets;
	char *buf;
	char *out_path;                 /* OUTPUT joined to the manifest's directory */
};
/* line index of path: 0, -2 if it cannot be opened, -1 if there is no
 * such line or it is malformed; err says which */
int  manifest_read(const char *path, unsigned long index, struct manifest_line *l, char *err, size_t errlen);
void manifest_line_free(struct manifest_line *l);
/* lines in the manifest, or -1 if it cannot be read */
long manifest_count(const char *path);

/* ------------------------------------------------------------ identity */

/* mmsim run --manifest F --index N: was line N recorded (DIR/sweep.id)
 * with this binary and this resolved scenario hash?  EX_OK (also when
 * nothing is recorded), or EX_CONFIG after the message. */
int sweep_check_line(const char *manifest, unsigned long index, const char *config_hash);
/* The sweep id every line of the manifest's sweep carries (17 bytes):
 * a hash of the manifest and its identity (sweep.id beside it). */
void sweep_id(const char *manifest, char *id);

#endif
