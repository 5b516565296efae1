/* query.c - the queries of mmsim plot and mmsim report (query.h).
 *
 * Every statement is prepared, bound, stepped and finalized here; the
 * callers see rows as C values.  One loop (each_row) steps them all, so
 * that a failure anywhere is reported the same way: "PATH: what: why".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "results.h"
#include "results_int.h"

struct results_reader {
	sqlite3 *db;
	const char *path;
	char err[1024];
};

/* A run's line, as mmsim compare's column by policy (compare.c,
 * mmsim_column): the policy for a simulation, real:POLICY for a real
 * kernel's run, whose series are drawn beside the simulations' where it has
 * the data (a real run has no census, no pageblock map and no THP fault
 * samples). */
#define SERIES_OF(r) "(CASE WHEN " r ".source = 'real' THEN 'real:' || " r ".policy" \
                     " ELSE " r ".policy END)"

/* ------------------------------------------------------------ the reader */

/* "PATH: what: SQLite's message"; -1 */
static int fail(struct results_reader *r, const char *what)
{
	results_seterr(r->err, sizeof(r->err), r->path, "%s: %s", what, sqlite3_errmsg(r->db));
	return -1;
}

static sqlite3_stmt *prepare(struct results_reader *r, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

static const char *text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	return s ? s : "";
}

static double real_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Step st to its end, row(st, arg) for each row; then finalize it.  0, the
 * first non-zero return of row, or -1 (what failed: what). */
static int each_row(struct results_reader *r, sqlite3_stmt *st, const char *what,
                    int (*row)(sqlite3_stmt *st, void *arg), void *arg)
{
	int step, rc = 0;

	if (!st)
		return fail(r, what);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		if ((rc = row(st, arg)))
			break;
	if (!rc && step != SQLITE_DONE)
		rc = fail(r, what);
	sqlite3_finalize(st);
	return rc;
}

/* mmsim plot's checks, in its words: the tables it reads present, any
 * version it knows (1.., the series need nothing of versions 2 and 3) */
static int check_series(struct results_reader *r, char *err, size_t errlen)
{
	static const char *const tables[] = {
		"runs", "params", "vmstat", "metrics", "samples", "block_census", "blockmap", NULL,
	};
	sqlite3_stmt *st;
	int version = -1;

	/* a file that is not SQLite fails here, at the first read */
	st = prepare(r, "PRAGMA user_version");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0) {
		results_seterr(err, errlen, r->path, "not an mmsim results database (%s)",
		               sqlite3_errmsg(r->db));
		return -1;
	}
	if (version < 1 || version > RESULTS_SCHEMA_VERSION) {
		results_seterr(err, errlen, r->path, "not an mmsim results database (schema version %d,"
		               " expected 1..%d)", version, RESULTS_SCHEMA_VERSION);
		return -1;
	}
	for (int i = 0; tables[i]; i++) {
		int has = results_has_table(r->db, "main", tables[i]);

		if (has < 0) {
			results_seterr(err, errlen, r->path, "reading the schema: %s", sqlite3_errmsg(r->db));
			return -1;
		}
		if (!has) {
			results_seterr(err, errlen, r->path, "not an mmsim results database (no table '%s')",
			               tables[i]);
			return -1;
		}
	}
	return 0;
}

int results_reader_open(struct results_reader **out, const char *path, enum results_read_check check,
                        char *err, size_t errlen)
{
	struct results_reader *r;
	struct stat sb;
	int rc = -1;

	*out = NULL;
	if (check == RESULTS_READ_SERIES) {
		if (stat(path, &sb)) {
			results_seterr(err, errlen, path, "%s", strerror(errno));
			return -2;
		}
		if (!S_ISREG(sb.st_mode)) {
			results_seterr(err, errlen, path, "not an mmsim results database (not a regular file)");
			return -1;
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		results_seterr(err, errlen, path, "out of memory");
		return -1;
	}
	r->path = path;
	if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		const char *why = r->db ? sqlite3_errmsg(r->db) : "out of memory";

		results_seterr(err, errlen, path, "%s", why);
		rc = -2;
		goto fail;
	}
	if (check == RESULTS_READ_SERIES && check_series(r, err, errlen))
		goto fail;
	/* a version-2 file: its runs read with source 'sim' */
	if (results_compat_view(r->db, path, err, errlen))
		goto fail;
	*out = r;
	return 0;
fail:
	results_reader_close(r);
	return rc;
}

void results_reader_close(struct results_reader *r)
{
	if (!r)
		return;
	sqlite3_close(r->db);
	free(r);
}

const char *results_reader_errmsg(const struct results_reader *r)
{
	return r->err;
}

/* ------------------------------------------------------------------ runs */

/* a callback of one string column */
struct str_cb {
	int (*cb)(void *arg, const char *s);
	void *arg;
};

static int str_row(sqlite3_stmt *st, void *arg)
{
	struct str_cb *s = arg;
	const char *v = (const char *)sqlite3_column_text(st, 0);

	return v ? s->cb(s->arg, v) : 0;
}

int results_policies(struct results_reader *r, int (*cb)(void *arg, const char *policy), void *arg)
{
	struct str_cb s = { cb, arg };

	return each_row(r, prepare(r, "SELECT DISTINCT " SERIES_OF("r") " AS p FROM runs r"
	                              " WHERE status = 'ok' ORDER BY p"),
	                "reading runs", str_row, &s);
}

int results_run_exists(struct results_reader *r, const char *run_id)
{
	sqlite3_stmt *st = prepare(r, "SELECT 1 FROM runs WHERE run_id = ?1");
	int step;

	if (!st)
		return fail(r, "reading runs");
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return fail(r, "reading runs");
	return step == SQLITE_ROW;
}

struct run_cb {
	int (*cb)(void *arg, const struct results_run *run);
	void *arg;
};

static int run_row(sqlite3_stmt *st, void *arg)
{
	struct run_cb *c = arg;
	struct results_run run = {
		.run_id = text(st, 0), .name = text(st, 1), .policy = text(st, 2),
		.workload = text(st, 3), .seed = sqlite3_column_int64(st, 4),
		.config_hash = text(st, 5), .mmsim_version = text(st, 6), .git_commit = text(st, 7),
		.build_type = text(st, 8), .started_at = text(st, 9),
		.wall_seconds = real_or_nan(st, 10), .sim_seconds = real_or_nan(st, 11),
		.status = text(st, 12), .error = text(st, 13), .config = text(st, 14),
		.sweep_id = text(st, 15), .source = text(st, 16),
	};

	return c->cb(c->arg, &run);
}

int results_runs_each(struct results_reader *r, int (*cb)(void *arg, const struct results_run *run),
                      void *arg)
{
	struct run_cb c = { cb, arg };

	return each_row(r, prepare(r, "SELECT run_id, name, " SERIES_OF("runs") ", workload, seed,"
	                              " config_hash, mmsim_version, git_commit, build_type, started_at,"
	                              " wall_seconds, sim_seconds, status, error, config, sweep_id,"
	                              " source FROM runs ORDER BY source, policy, seed, run_id"),
	                "reading runs", run_row, &c);
}

/* a callback of two string columns */
struct pair_cb {
	int (*cb)(void *arg, const char *a, const char *b);
	void *arg;
};

static int pair_row(sqlite3_stmt *st, void *arg)
{
	struct pair_cb *p = arg;

	return p->cb(p->arg, text(st, 0), text(st, 1));
}

/* the rows of sql (?1: run_id) as pairs; what: for the message */
static int pairs_of_run(struct results_reader *r, const char *sql, const char *what, const char *run_id,
                        int (*cb)(void *arg, const char *a, const char *b), void *arg)
{
	struct pair_cb p = { cb, arg };
	sqlite3_stmt *st = prepare(r, sql);

	if (st)
		sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	return each_row(r, st, what, pair_row, &p);
}

int results_params_each(struct results_reader *r, const char *run_id,
                        int (*cb)(void *arg, const char *key, const char *value), void *arg)
{
	return pairs_of_run(r, "SELECT key, value FROM params WHERE run_id = ?1 ORDER BY key",
	                    "reading params", run_id, cb, arg);
}

int results_snapshots_each(struct results_reader *r, const char *run_id,
                           int (*cb)(void *arg, const char *name, const char *text), void *arg)
{
	int has = results_has_table(r->db, "main", "snapshots");

	if (has <= 0)
		return has ? fail(r, "reading snapshots") : 0;
	return pairs_of_run(r, "SELECT name, text FROM snapshots WHERE run_id = ?1 ORDER BY name",
	                    "reading snapshots", run_id, cb, arg);
}

struct census_cb {
	int (*cb)(void *arg, const struct results_census *row);
	void *arg;
};

static int census_row(sqlite3_stmt *st, void *arg)
{
	struct census_cb *c = arg;
	struct results_census row = {
		.t = sqlite3_column_double(st, 0), .migratetype = text(st, 1),
		.blocks = (long)sqlite3_column_int64(st, 2), .mixed_blocks = (long)sqlite3_column_int64(st, 3),
		.pages_lru = (long)sqlite3_column_int64(st, 4), .pages_slab = (long)sqlite3_column_int64(st, 5),
		.pages_kmem = (long)sqlite3_column_int64(st, 6), .pages_other = (long)sqlite3_column_int64(st, 7),
	};

	return c->cb(c->arg, &row);
}

int results_census_last(struct results_reader *r, const char *run_id,
                        int (*cb)(void *arg, const struct results_census *row), void *arg)
{
	struct census_cb c = { cb, arg };
	sqlite3_stmt *st = prepare(r, "SELECT t, migratetype, blocks, mixed_blocks, pages_lru, pages_slab,"
	                              " pages_kmem, pages_other FROM block_census WHERE run_id = ?1 AND"
	                              " t = (SELECT MAX(t) FROM block_census WHERE run_id = ?1)"
	                              " ORDER BY migratetype");

	if (st)
		sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	return each_row(r, st, "reading block_census", census_row, &c);
}

/* ---------------------------------------------------------------- series */

/* Samples are cumulative counters: a run's rate in an interval is taken
 * between consecutive sample times; the mean at t is over the runs that
 * faulted in that interval. */
static const char thp_sql[] =
	"WITH s AS ("
	"  SELECT " SERIES_OF("r") " AS policy, x.run_id AS run_id, x.t AS t,"
	"         MAX(CASE WHEN x.name = 'thp_fault_alloc' THEN x.value END) AS a,"
	"         MAX(CASE WHEN x.name = 'thp_fault_fallback' THEN x.value END) AS f"
	"  FROM samples x JOIN runs r ON r.run_id = x.run_id"
	"  WHERE r.status = 'ok' AND x.name IN ('thp_fault_alloc', 'thp_fault_fallback')"
	"  GROUP BY x.run_id, x.t),"
	" d AS ("
	"  SELECT policy, t, a - LAG(a) OVER w AS da, f - LAG(f) OVER w AS df"
	"  FROM s WINDOW w AS (PARTITION BY run_id ORDER BY t)),"
	" q AS (SELECT policy, t, 100.0 * da / (da + df) AS rate FROM d WHERE da + df > 0)"
	" SELECT policy, t, AVG(rate), MIN(rate), MAX(rate), COUNT(*) FROM q"
	" GROUP BY policy, t ORDER BY policy <> ?1, policy, t";

/* Wholly free pageblocks for every policy, whatever its migratetypes: the
 * free_pageblocks sample (free_pageblocks() in sim/mm/census.c: buddy
 * blocks of pageblock order and more, counted in pageblocks) at or before
 * the census time; only a file without that sample falls back to the
 * census row of a 'Free' migratetype (which only some policies have). */
static const char blocks_sql[] =
	"WITH b AS ("
	"  SELECT " SERIES_OF("r") " AS policy, x.t AS t,"
	"         COALESCE((SELECT s.value FROM samples s WHERE s.run_id = x.run_id"
	"                   AND s.name = 'free_pageblocks' AND s.t <= x.t ORDER BY s.t DESC LIMIT 1),"
	"                  SUM(CASE WHEN x.migratetype = 'Free' THEN x.blocks END)) AS free,"
	"         SUM(x.mixed_blocks) AS mixed"
	"  FROM block_census x JOIN runs r ON r.run_id = x.run_id"
	"  WHERE r.status = 'ok' GROUP BY x.run_id, x.t)"
	" SELECT policy, t, AVG(free), AVG(mixed), COUNT(*) FROM b"
	" GROUP BY policy, t ORDER BY policy <> ?1, policy, t";

/* The cover letter's three mixed counts over time: unmovable blocks with
 * LRU or reclaimable slab pages, reclaimable blocks with non-slab pages,
 * movable blocks with non-LRU pages (block_census.mixed_blocks of each
 * type, classified by pageblock_census()). */
static const char census_sql[] =
	"WITH c AS ("
	"  SELECT " SERIES_OF("r") " AS policy, x.t AS t,"
	"         SUM(CASE WHEN x.migratetype = 'Unmovable' THEN x.mixed_blocks ELSE 0 END) AS u,"
	"         SUM(CASE WHEN x.migratetype = 'Reclaimable' THEN x.mixed_blocks ELSE 0 END) AS rc,"
	"         SUM(CASE WHEN x.migratetype = 'Movable' THEN x.mixed_blocks ELSE 0 END) AS m"
	"  FROM block_census x JOIN runs r ON r.run_id = x.run_id"
	"  WHERE r.status = 'ok' GROUP BY x.run_id, x.t)"
	" SELECT policy, t, AVG(u), MIN(u), MAX(u), AVG(rc), MIN(rc), MAX(rc), AVG(m), MIN(m), MAX(m),"
	"        COUNT(*) FROM c GROUP BY policy, t ORDER BY policy <> ?1, policy, t";

static const struct {
	const char *sql, *what;
	int ny;
} series[] = {
	[RESULTS_SERIES_THP_SUCCESS] = { thp_sql, "reading samples", 3 },
	[RESULTS_SERIES_BLOCKS] = { blocks_sql, "reading block_census", 2 },
	[RESULTS_SERIES_CENSUS] = { census_sql, "reading block_census", 9 },
};

struct point_cb {
	results_point_fn cb;
	void *arg;
	int ny;
	int labelled;                   /* column 1 is a label (a sweep), not x */
};

/* columns: policy, x (or label), ny values, count */
static int point_row(sqlite3_stmt *st, void *arg)
{
	struct point_cb *c = arg;
	struct results_point p = { .policy = (const char *)sqlite3_column_text(st, 0), .ny = c->ny };

	if (c->labelled) {
		p.x = NAN;
		p.label = (const char *)sqlite3_column_text(st, 1);
		if (!p.label)
			return 0;
	} else {
		p.x = sqlite3_column_double(st, 1);
	}
	if (!p.policy)
		return 0;
	for (int i = 0; i < c->ny; i++)
		p.y[i] = real_or_nan(st, 2 + i);
	p.runs = sqlite3_column_int(st, 2 + c->ny);
	return c->cb(c->arg, &p);
}

int results_series_query(struct results_reader *r, enum results_series s, const char *first,
                         results_point_fn cb, void *arg)
{
	struct point_cb c = { .cb = cb, .arg = arg, .ny = series[s].ny };
	sqlite3_stmt *st = prepare(r, series[s].sql);

	if (st && first)
		sqlite3_bind_text(st, 1, first, -1, SQLITE_TRANSIENT);
	return each_row(r, st, series[s].what, point_row, &c);
}

/* ----------------------------------------------------------------- sweep */

/* 1 if name is in table (vmstat or metrics), -1 on error; *any |= the
 * table has rows */
static int has_name(struct results_reader *r, const char *table, const char *name, int *any)
{
	char sql[128];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM %s WHERE name = ?1),"
	                           " EXISTS (SELECT 1 FROM %s)", table, table);
	st = prepare(r, sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		found = sqlite3_column_int(st, 0);
		*any |= sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return found;
}

int results_value_find(struct results_reader *r, const char *name, struct results_value *v, int *any)
{
	int in_vmstat, in_metrics;

	*any = 0;
	*v = (struct results_value){ .src = RESULTS_VALUE_NONE, .name = name,
	                             .row = results_metric_find(name) };
	if (v->row >= 0) {
		v->src = RESULTS_VALUE_ROW;
		v->name = results_metrics[v->row].name;
		return 0;
	}
	in_vmstat = has_name(r, "vmstat", name, any);
	in_metrics = has_name(r, "metrics", name, any);
	if (in_vmstat < 0 || in_metrics < 0)
		return fail(r, "reading vmstat and metrics");
	if (in_vmstat)
		v->src = RESULTS_VALUE_VMSTAT;
	else if (in_metrics)
		v->src = RESULTS_VALUE_METRIC;
	return 0;
}

int results_swept_keys(struct results_reader *r, int (*cb)(void *arg, const char *key), void *arg)
{
	static const char sql[] =
		"SELECT DISTINCT p.key FROM params p JOIN runs r ON r.run_id = p.run_id"
		" WHERE r.status = 'ok'"
		"   AND p.key NOT IN ('seed', 'policy', 'run.seed', 'policy.name')"
		"   AND p.key NOT LIKE '%.seed'"
		"   AND p.key NOT LIKE 'real.%'"        /* a real run's provenance: its times vary */
		" GROUP BY " SERIES_OF("r") ", p.key HAVING COUNT(DISTINCT p.value) > 1 ORDER BY p.key";
	struct str_cb s = { cb, arg };

	return each_row(r, prepare(r, sql), "reading params", str_row, &s);
}

/* A compare row's per-run values, computed by compare.c from its one
 * definition (metrics.c) exactly as the table counts them (iterations
 * averaged, the zero-denominator rule), into a temporary table the sweep
 * query reads: the plot has no formula of its own.  (A value NaN, not
 * measured, is bound as NULL and left out.) */
struct row_fill {
	sqlite3_stmt *ins;
	int row;
};

static int row_fill_one(void *arg, const char *run_id, const double *x)
{
	struct row_fill *f = arg;

	sqlite3_bind_text(f->ins, 1, run_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(f->ins, 2, x[f->row]);
	if (sqlite3_step(f->ins) != SQLITE_DONE)
		return 1;
	sqlite3_reset(f->ins);
	return 0;
}

static int fill_row_values(struct results_reader *r, int row)
{
	struct row_fill f = { .row = row };
	int rc;

	if (sqlite3_exec(r->db, "CREATE TEMP TABLE IF NOT EXISTS row_values"
	                        " (run_id TEXT PRIMARY KEY, value REAL); DELETE FROM temp.row_values",
	                 NULL, NULL, NULL) != SQLITE_OK)
		return fail(r, "preparing the sweep");
	f.ins = prepare(r, "INSERT INTO temp.row_values VALUES (?1, ?2)");
	if (!f.ins)
		return fail(r, "preparing the sweep");
	rc = results_run_values(r->path, row_fill_one, &f, r->err, sizeof(r->err));
	sqlite3_finalize(f.ins);
	return rc ? -1 : 0;
}

int results_sweep_query(struct results_reader *r, const struct results_value *v, const char *key,
                        results_point_fn cb, void *arg)
{
	static const char *const expr[] = {
		[RESULTS_VALUE_ROW] = "(SELECT value FROM temp.row_values x WHERE x.run_id = r.run_id)",
		[RESULTS_VALUE_VMSTAT] = "(SELECT value FROM vmstat x WHERE x.run_id = r.run_id AND x.name = ?2)",
		[RESULTS_VALUE_METRIC] = "(SELECT value FROM metrics x WHERE x.run_id = r.run_id AND x.name = ?2)",
	};
	struct point_cb c = { .cb = cb, .arg = arg, .ny = 3, .labelled = 1 };
	char sql[2048];
	sqlite3_stmt *st;

	if (v->src == RESULTS_VALUE_NONE)
		return 0;
	if (v->src == RESULTS_VALUE_ROW && fill_row_values(r, v->row))
		return -1;
	snprintf(sql, sizeof(sql),
		"SELECT policy, value, AVG(m), MIN(m), MAX(m), COUNT(m) FROM ("
		"  SELECT " SERIES_OF("r") " AS policy, p.value AS value, %s AS m"
		"  FROM runs r JOIN params p ON p.run_id = r.run_id AND p.key = ?1"
		"  WHERE r.status = 'ok')"
		" WHERE m IS NOT NULL GROUP BY policy, value", expr[v->src]);
	st = prepare(r, sql);
	if (st) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
		if (v->src != RESULTS_VALUE_ROW)
			sqlite3_bind_text(st, 2, v->name, -1, SQLITE_TRANSIENT);
	}
	return each_row(r, st, "reading the sweep", point_row, &c);
}

/* --------------------------------------------------------- pageblock map */

struct map_run_cb {
	int (*cb)(void *arg, const char *run_id, const char *policy, long long seed);
	void *arg;
};

static int map_run_row(sqlite3_stmt *st, void *arg)
{
	struct map_run_cb *c = arg;
	const char *id = (const char *)sqlite3_column_text(st, 0);
	const char *pol = (const char *)sqlite3_column_text(st, 1);

	return id && pol ? c->cb(c->arg, id, pol, sqlite3_column_int64(st, 2)) : 0;
}

int results_blockmap_runs(struct results_reader *r, const char *only_run, const char *first,
                          int (*cb)(void *arg, const char *run_id, const char *policy, long long seed),
                          void *arg)
{
	static const char sql[] =
		"SELECT run_id, " SERIES_OF("r") " AS policy, seed FROM runs r"
		" WHERE (?1 IS NULL AND status = 'ok' OR run_id = ?1)"
		"   AND EXISTS (SELECT 1 FROM blockmap b WHERE b.run_id = r.run_id)"
		" ORDER BY policy <> ?2, policy, seed, run_id";
	struct map_run_cb c = { cb, arg };
	sqlite3_stmt *st = prepare(r, sql);

	if (st && only_run)
		sqlite3_bind_text(st, 1, only_run, -1, SQLITE_TRANSIENT);
	if (st && first)
		sqlite3_bind_text(st, 2, first, -1, SQLITE_TRANSIENT);
	return each_row(r, st, "reading runs", map_run_row, &c);
}

int results_blockmap_extent(struct results_reader *r, const char *run_id, long *gmin, long *gmax,
                            long *nt)
{
	sqlite3_stmt *st = prepare(r, "SELECT MIN(grp), MAX(grp), COUNT(DISTINCT t) FROM blockmap"
	                              " WHERE run_id = ?1");

	if (!st)
		return fail(r, "reading blockmap");
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return fail(r, "reading blockmap");
	}
	*gmin = (long)sqlite3_column_int64(st, 0);
	*gmax = (long)sqlite3_column_int64(st, 1);
	*nt = (long)sqlite3_column_int64(st, 2);
	sqlite3_finalize(st);
	return 0;
}

struct map_cb {
	int (*cb)(void *arg, double t, long grp, const char *migratetype);
	void *arg;
};

static int map_row(sqlite3_stmt *st, void *arg)
{
	struct map_cb *c = arg;

	return c->cb(c->arg, sqlite3_column_double(st, 0), (long)sqlite3_column_int64(st, 1),
	             (const char *)sqlite3_column_text(st, 2));
}

int results_blockmap_each(struct results_reader *r, const char *run_id,
                          int (*cb)(void *arg, double t, long grp, const char *migratetype), void *arg)
{
	struct map_cb c = { cb, arg };
	sqlite3_stmt *st = prepare(r, "SELECT t, grp, migratetype FROM blockmap WHERE run_id = ?1"
	                              " ORDER BY t, grp");

	if (st)
		sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	return each_row(r, st, "reading blockmap", map_row, &c);
}
