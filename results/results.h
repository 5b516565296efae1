/* results.h - runs stored in SQLite (schema: results/schema.sql, docs/schema.md).
 *
 * One run writes one database file.  Everything goes into a temporary
 * file next to the target (TARGET.tmp.PID) inside one transaction;
 * results_commit() commits, closes and renames it into place, so a run
 * that is interrupted leaves no TARGET and at most a stray .tmp file.
 * Files of many runs are combined by results_merge(), idempotently (rows
 * are keyed by run_id).
 *
 * Every function returns 0, or -1 with a message naming the file in err.
 */
#ifndef MMSIM_RESULTS_H
#define MMSIM_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct results_db;

/* PRAGMA user_version of schema.sql (version 2 added the sweep line and
 * the iteration tables together; version 3 runs.source and the snapshots
 * table).  Files are written in this version only; readers (compare, plot,
 * report, merge's inputs) also read RESULTS_SCHEMA_READ_MIN, whose runs
 * are all simulations (results_compat_view()). */
#define RESULTS_SCHEMA_VERSION 3
#define RESULTS_SCHEMA_READ_MIN 2

/* A run's identity and outcome (the runs table). */
struct run_record {
	char run_id[40];                 /* results_new_run_id(): unique, stable once written */
	const char *name;                /* e.g. "kbuild-vanilla-s1" */
	const char *sweep_id;            /* NULL outside a sweep */
	const char *policy;
	const char *workload;            /* "kbuild+thp_faulter" */
	uint64_t seed;
	const char *config;              /* the fully resolved scenario text */
	const char *config_hash;         /* hex digest of config */
	const char *mmsim_version, *git_commit, *build_type;
	const char *started_at, *finished_at;    /* ISO 8601 UTC */
	double wall_seconds, sim_seconds;
	const char *status;              /* "ok", "failed", "bug" */
	const char *error;               /* NULL if none */
	unsigned long sweep_line;        /* the line of the sweep's manifest (0: none;
	                                    see results_set_sweep_line()) */
	const char *source;              /* "sim" (NULL: the same) or "real" (mmsim import) */
};

/* The manifest line of the runs this process writes (mmsim run --manifest
 * F --index N): results_add_run() stores it with a run that has a sweep_id
 * and no sweep_line of its own.  A sweep's line is merged once, whatever
 * reruns happened (results_merge()). */
void results_set_sweep_line(unsigned long line);

/* a fresh run id (time, pid and a counter: unique across parallel runs) */
void results_new_run_id(char out[40]);

int  results_create(struct results_db **db, const char *path, char *err, size_t errlen);
int  results_add_run(struct results_db *db, const struct run_record *r);
/* params: the resolved scenario's key=value pairs (section.key) */
int  results_add_param(struct results_db *db, const char *run_id, const char *key, const char *value);
/* vmstat: a /proc/vmstat counter's delta over the measured window */
int  results_add_vmstat(struct results_db *db, const char *run_id, const char *name, int64_t value);
/* metrics: workload results (real_time, user_time, system_time, ...) */
int  results_add_metric(struct results_db *db, const char *run_id, const char *name, double value);
/* samples: a time series value at virtual time t */
int  results_add_sample(struct results_db *db, const char *run_id, double t, const char *name, double value);
/* block_census: the pageblock census at virtual time t, per migratetype:
 * blocks, mixed blocks, and pages in mixed blocks by kind */
int  results_add_census(struct results_db *db, const char *run_id, double t, const char *migratetype,
                        long blocks, long mixed_blocks, long pages_lru, long pages_slab,
                        long pages_kmem, long pages_other);
/* pageblock map: the migratetype of block group `group` at time t
 * (for the plot; one row per group of blocks and sample) */
int  results_add_blockmap(struct results_db *db, const char *run_id, double t, long group,
                          const char *migratetype);
/* [run] iterations > 1: iteration i (from 1), its window [t_start, t_end],
 * a vmstat counter's delta over it, a workload metric of it */
int  results_add_iteration(struct results_db *db, const char *run_id, long iteration, double t_start,
                           double t_end);
int  results_add_iteration_vmstat(struct results_db *db, const char *run_id, long iteration,
                                  const char *name, int64_t value);
int  results_add_iteration_metric(struct results_db *db, const char *run_id, long iteration,
                                  const char *name, double value);
/* snapshots: text kept verbatim beside a run (a real run's /proc files,
 * by file name: "pagetypeinfo.before", ...) */
int  results_add_snapshot(struct results_db *db, const char *run_id, const char *name,
                          const char *text);
const char *results_errmsg(const struct results_db *db);
/* commit, close, rename into place; on failure nothing is left at path */
int  results_commit(struct results_db *db, char *err, size_t errlen);
/* roll back, close, remove the temporary file */
void results_abort(struct results_db *db);

/* May path be replaced by a results file?  Yes (0) if it does not exist,
 * is empty, or is a results database of this schema version; otherwise
 * -1 with a message: an output name never destroys a scenario, a log or
 * a database of another version.  results_create() and results_merge()
 * check their target with it. */
int  results_check_target(const char *path, char *err, size_t errlen);

/* Remove the leftovers of processes that died writing target: files
 * TARGET.tmp.PID (and their -journal) whose writer no longer holds their
 * lock (tmpfile.c; safe on NFS with locking).  Returns how many. */
int  results_clean_stale(const char *target);

/* Is path a complete run file (exists, opens, has a runs row with status)?
 * Used by sweeps to skip runs already done. */
int  results_is_complete(const char *path);

/* Did the run stored in path fail (a status other than 'ok': make died,
 * nothing built)?  1 with its policy, seed and stored error; 0 if every
 * run in it is ok; -1 if it cannot be read.  A sweep names such runs. */
int  results_run_failure(const char *path, char *policy, size_t plen, long long *seed,
                         char *why, size_t wlen);

/* Merge run files (or merged files) into out (created if missing);
 * rows already present are kept, so merging twice changes nothing.  out
 * is rewritten as a whole, under the lock out.lock (merge.c); -2 when
 * another merge held that lock too long. */
int  results_merge(const char *out, const char *const *inputs, size_t n, char *err, size_t errlen);

/* The cover letter's table (compare.c computes it, format.c prints it;
 * metrics.h defines the rows, stats.h the statistics). */
enum results_format {
	RESULTS_FMT_TEXT,                /* the cover letter's layout (default) */
	RESULTS_FMT_CSV,                 /* one line per row and column, every statistic */
	RESULTS_FMT_JSON,                /* the whole table, definitions and per-seed values */
	RESULTS_FMT_HTML,                /* a <table> element (mmsim report) */
	RESULTS_FMT_VALUES,              /* CSV: metric,column,seed,value (per seed) */
};

struct compare_opts {
	const char *by;                  /* column key: "policy" (default: by source and
	                                    policy, a real run's column "real:POLICY") */
	const char *baseline;            /* first column (default: the registry's first policy
	                                    if present, else the first value) */
	const char *where;               /* an SQL condition on runs, e.g. "seed < 5" (NULL: all) */
	int spread;                      /* add min/max over seeds (0/1) */
	int iteration_spread;            /* add min/max over the iterations of every run (0/1) */
	int stats;                       /* text: sd, 95 % interval, Welch's test; marks (0/1) */
	enum results_format format;
	/* Columns given one by one instead of by a key (mmsim ablate): column
	 * i is labelled col_label[i] and holds the runs matching the SQL
	 * condition col_where[i] on the runs table (and `where`, if set), in
	 * this order, the first the baseline; `by` names what the labels are
	 * ("variant").  nr_cols 0: columns by `by`. */
	const char *const *col_label;
	const char *const *col_where;
	size_t nr_cols;
	/* groups of rows printed after the cover letter's (metrics.h
	 * RESULTS_ROWS_*, or-ed; 0: the cover letter's rows only) */
	unsigned extra_rows;
	/* where to say which columns (or runs of a column) are left out for
	 * their status, one line each (NULL: not said) */
	FILE *notes;
	/* average runs of different scenarios in one column (by a key); else
	 * such a column is an error naming the key they differ in (0/1) */
	int allow_mixed;
};

#include "metrics.h"
#include "stats.h"
#include "query.h"

struct results_cell {
	double mean;                     /* over the runs: the cover letter's number */
	double change;                   /* mean / baseline's mean - 1, in % (+-inf from 0) */
	double min, max;                 /* over the runs */
	double imin, imax;               /* over the iterations of the runs */
	struct results_summary s;        /* over the seeds (runs of a seed averaged first) */
	struct results_welch w;          /* against column 0 (not valid in column 0) */
};

struct results_column {
	char *key;                       /* the value of the `by` key */
	long nr_runs, nr_iters;
	size_t nr_seeds;
	long long *seed;                 /* [nr_seeds], ascending */
	double *seed_value;              /* [nr_seeds * RESULTS_NR_METRICS]: per seed, per row */
	struct results_cell cell[RESULTS_NR_METRICS];
};

struct results_table {
	char *by;
	size_t nr_col;
	struct results_column *col;      /* the baseline first */
};

/* Compute the table (nothing printed); *t to results_table_free(). */
int  results_table_compute(struct results_table **t, const char *db_path,
                           const struct compare_opts *o, char *err, size_t errlen);
void results_table_free(struct results_table *t);
/* Print t in o->format (o->spread, ->iteration_spread, ->stats for text);
 * 0, or -1 if out fails. */
int  results_table_print(FILE *out, const struct results_table *t, const struct compare_opts *o);
/* compute, then print: `mmsim compare` */
int  results_compare(FILE *out, const char *db_path, const struct compare_opts *o, char *err, size_t errlen);
/* s as HTML text or a quoted attribute value (&lt; &gt; &amp; &quot; &#39;): the
 * table's HTML and mmsim report's page; the one HTML escaping function */
void results_html_escape(FILE *out, const char *s);
/* the definitions of the rows (`mmsim compare --list-metrics`) */
void results_metrics_print(FILE *out);

/* Every 'ok' run's row values x[RESULTS_NR_METRICS] (a run of several
 * iterations: the means of its iterations' values), as the table counts
 * them: cb(arg, run_id, x) for each; a non-zero return stops.  For the
 * sweep plot and the report. */
int  results_run_values(const char *db_path, int (*cb)(void *arg, const char *run_id, const double *x),
                        void *arg, char *err, size_t errlen);

#endif
