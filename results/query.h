/* query.h - reading a results database for mmsim plot and mmsim report.
 *
 * results/ alone knows the schema: the verbs open a reader, call these
 * queries and print what comes back; no SQL outside results/.  Each query
 * is one statement on the reader's read-only connection (the file is never
 * written; the sweep's per-run rows go to a temporary table, in memory).
 *
 * A run belongs to the line of its policy as mmsim compare's columns by
 * policy name it: the policy for a simulation, "real:POLICY" for a real
 * kernel's run (mmsim import); "policy" below is that name.  The policies,
 * the series and the sweep are of the runs with status 'ok' only: a failed
 * run's series stop early and would bend the means.  What is asked of a
 * run by its id is read whatever its status.
 *
 * Queries that call back (cb) call it once per row, in order, with strings
 * that live until it returns; a non-zero return stops the query and is
 * returned as is (an exit code, say).  Else
 * they return 0, or -1 with "PATH: what was read: why" in
 * results_reader_errmsg().
 */
#ifndef MMSIM_RESULTS_QUERY_H
#define MMSIM_RESULTS_QUERY_H

#include <stddef.h>

struct results_reader;

/* results_reader_open()'s check, before anything is read */
enum results_read_check {
	/* none: the file was checked already (mmsim report reads it with
	 * results_table_compute() first); errors "PATH: why" */
	RESULTS_READ_ANY,
	/* a regular file, schema version 1..RESULTS_SCHEMA_VERSION, with the
	 * tables the plots read (runs, params, vmstat, metrics, samples,
	 * block_census, blockmap): mmsim plot, whose messages these are */
	RESULTS_READ_SERIES,
};

/* Open path read-only.  0; -1 if it is not a results database (or not one
 * this mmsim reads); -2 if it cannot be opened (missing, unreadable).  The
 * message, naming path, in err; *r to results_reader_close(). */
int  results_reader_open(struct results_reader **r, const char *path, enum results_read_check check,
                         char *err, size_t errlen);
void results_reader_close(struct results_reader *r);
/* the last failure's message: "PATH: what was read: why" */
const char *results_reader_errmsg(const struct results_reader *r);

/* ---------------------------------------------------------------- runs */

/* the policies of the 'ok' runs, sorted by name (as SQLite compares) */
int results_policies(struct results_reader *r, int (*cb)(void *arg, const char *policy), void *arg);
/* 1 if a run of that id is stored (whatever its status), 0 if not, -1 */
int results_run_exists(struct results_reader *r, const char *run_id);

/* A run's provenance, the runs table's row (text NULL in the file: "";
 * a time not stored: NaN). */
struct results_run {
	const char *run_id, *name, *policy, *workload, *status, *error;
	const char *config_hash, *mmsim_version, *git_commit, *build_type, *started_at;
	const char *config;              /* the resolved scenario (a real run: its provenance) */
	const char *sweep_id, *source;
	long long seed;
	double wall_seconds, sim_seconds;
};
/* every run, whatever its status, by source, policy, seed and run id */
int results_runs_each(struct results_reader *r, int (*cb)(void *arg, const struct results_run *run),
                      void *arg);
/* a run's parameters (params: section.key = value), by key */
int results_params_each(struct results_reader *r, const char *run_id,
                        int (*cb)(void *arg, const char *key, const char *value), void *arg);
/* a run's snapshots (a real run's /proc files), by name; a file of
 * schema version 2 has none (no table: 0, nothing called) */
int results_snapshots_each(struct results_reader *r, const char *run_id,
                           int (*cb)(void *arg, const char *name, const char *text), void *arg);

/* A row of the block census (block_census, per migratetype). */
struct results_census {
	double t;
	const char *migratetype;
	long blocks, mixed_blocks, pages_lru, pages_slab, pages_kmem, pages_other;
};
/* the census at the last census time of a run, by migratetype */
int results_census_last(struct results_reader *r, const char *run_id,
                        int (*cb)(void *arg, const struct results_census *row), void *arg);

/* -------------------------------------------------------------- series */

/* One point of a series: a policy's value at x, over its runs (seeds). */
#define RESULTS_POINT_MAX_Y 9
struct results_point {
	const char *policy;
	double x;                        /* time in s; NaN in a sweep (its x is the label's) */
	const char *label;               /* a sweep: the parameter's value as stored; else NULL */
	double y[RESULTS_POINT_MAX_Y];   /* NaN: no value (SQL NULL) */
	int ny;
	int runs;                        /* the runs averaged */
};
typedef int (*results_point_fn)(void *arg, const struct results_point *p);

/* The series over time, per policy and t, the policy named first then
 * the others by name (first: NULL for none), each by t: */
enum results_series {
	/* the THP fault success rate of each sample interval, percent:
	 * 100 d(thp_fault_alloc) / (d(thp_fault_alloc) + d(thp_fault_fallback))
	 * between consecutive samples of a run (intervals without THP faults
	 * have no rate: skipped, not 0 or 100 %); y: mean, min, max */
	RESULTS_SERIES_THP_SUCCESS,
	/* at each census time, means: y[0] the wholly free pageblocks (the
	 * free_pageblocks sample at or before t; a file without it: the census
	 * row of a 'Free' migratetype; NaN without either), y[1] mixed_blocks
	 * summed over the migratetypes */
	RESULTS_SERIES_BLOCKS,
	/* at each census time, mean, min, max of the mixed blocks of the
	 * Unmovable, the Reclaimable and the Movable type (y[0..8]) */
	RESULTS_SERIES_CENSUS,
};
int results_series_query(struct results_reader *r, enum results_series s, const char *first,
                         results_point_fn cb, void *arg);

/* ---------------------------------------------------------------- sweep */

/* A per-run value by name: a compare row (metrics.h, computed from its one
 * definition as the table counts it), else a vmstat counter, else a
 * workload metric (in that order). */
enum results_value_src { RESULTS_VALUE_NONE, RESULTS_VALUE_ROW, RESULTS_VALUE_VMSTAT,
                         RESULTS_VALUE_METRIC };
struct results_value {
	enum results_value_src src;
	const char *name;                /* a row's own name, else the name given */
	int row;                         /* RESULTS_VALUE_ROW: the row (metrics.h) */
};
/* Find name: v->src NONE if it is nowhere; *any set to whether the
 * vmstat or metrics table has any row (a name that is nowhere in a file
 * that has them is misspelt). */
int results_value_find(struct results_reader *r, const char *name, struct results_value *v, int *any);
/* The params keys swept: more than one value within a policy (a key that
 * only follows the policy is no sweep), seeds, policy names and a real
 * run's provenance (real.*) aside; by key. */
int results_swept_keys(struct results_reader *r, int (*cb)(void *arg, const char *key), void *arg);
/* v against the parameter key: per policy and value of key (label), the
 * mean, min and max over the runs (y[0..2]) of v's per-run values; runs
 * without v left out.  In SQLite's order: the caller sorts. */
int results_sweep_query(struct results_reader *r, const struct results_value *v, const char *key,
                        results_point_fn cb, void *arg);

/* -------------------------------------------------------- pageblock map */

/* The run whose map is drawn: only_run if it has one (whatever its
 * status), else every 'ok' run with a map, the policy named first then
 * the others by name, each by seed and run id. */
int results_blockmap_runs(struct results_reader *r, const char *only_run, const char *first,
                          int (*cb)(void *arg, const char *run_id, const char *policy, long long seed),
                          void *arg);
/* a run's map: its groups gmin..gmax and how many times (0: no map) */
int results_blockmap_extent(struct results_reader *r, const char *run_id, long *gmin, long *gmax,
                            long *nt);
/* a run's map, cell by cell, by t and group: the migratetype as stored
 * ("Movable", "Movable mixed"; NULL if none) */
int results_blockmap_each(struct results_reader *r, const char *run_id,
                          int (*cb)(void *arg, double t, long grp, const char *migratetype), void *arg);

#endif
