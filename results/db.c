/* db.c - one run's results file, written so that it is whole or absent.
 *
 * Everything goes into TARGET.tmp.PID inside one transaction; commit
 * closes it, fsync()s it and rename()s it over TARGET.  rename(2) is atomic
 * within a file system, so a reader (a sweep's --skip-existing, merge) sees
 * the old TARGET or the new one, never a half-written file; a run killed
 * half way leaves at most the .tmp file, which no one reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
#include "results_int.h"
#include "mmsim/results_schema.h"       /* results_schema_sql[], generated */

const char *const results_schema = results_schema_sql;

enum { ST_RUN, ST_PARAM, ST_VMSTAT, ST_METRIC, ST_SAMPLE, ST_CENSUS, ST_BLOCKMAP,
       ST_ITER, ST_ITER_VMSTAT, ST_ITER_METRIC, ST_SNAPSHOT, NR_ST };

static const char *const stmt_sql[NR_ST] = {
	[ST_RUN] = "INSERT INTO runs (run_id, name, sweep_id, policy, workload, seed, config,"
	           " config_hash, mmsim_version, git_commit, build_type, started_at, finished_at,"
	           " wall_seconds, sim_seconds, status, error, sweep_line, source)"
	           " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19)",
	[ST_PARAM] = "INSERT INTO params (run_id, key, value) VALUES (?1, ?2, ?3)",
	[ST_VMSTAT] = "INSERT INTO vmstat (run_id, name, value) VALUES (?1, ?2, ?3)",
	[ST_METRIC] = "INSERT INTO metrics (run_id, name, value) VALUES (?1, ?2, ?3)",
	[ST_SAMPLE] = "INSERT INTO samples (run_id, t, name, value) VALUES (?1, ?2, ?3, ?4)",
	[ST_CENSUS] = "INSERT INTO block_census (run_id, t, migratetype, blocks, mixed_blocks,"
	              " pages_lru, pages_slab, pages_kmem, pages_other)"
	              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[ST_BLOCKMAP] = "INSERT INTO blockmap (run_id, t, grp, migratetype) VALUES (?1, ?2, ?3, ?4)",
	[ST_ITER] = "INSERT INTO iterations (run_id, iteration, t_start, t_end) VALUES (?1, ?2, ?3, ?4)",
	[ST_ITER_VMSTAT] = "INSERT INTO iteration_vmstat (run_id, iteration, name, value)"
	                   " VALUES (?1, ?2, ?3, ?4)",
	[ST_ITER_METRIC] = "INSERT INTO iteration_metrics (run_id, iteration, name, value)"
	                   " VALUES (?1, ?2, ?3, ?4)",
	[ST_SNAPSHOT] = "INSERT INTO snapshots (run_id, name, text) VALUES (?1, ?2, ?3)",
};

static const char *const stmt_table[NR_ST] = {
	"runs", "params", "vmstat", "metrics", "samples", "block_census", "blockmap",
	"iterations", "iteration_vmstat", "iteration_metrics", "snapshots",
};

struct results_db {
	sqlite3 *sql;
	char *path;                     /* the target */
	char *tmp;                      /* where it is written: path.tmp.PID */
	int lock_fd;                    /* holds tmp's lock byte: "being written" (tmpfile.c) */
	sqlite3_stmt *st[NR_ST];
	int failed;                     /* an add_* failed: commit refuses */
	char err[512];
};

/* ------------------------------------------------------------------ */
/* shared helpers (results_int.h) */

void results_seterr(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return;
	n = snprintf(err, errlen, "%s: ", path ? path : "(null)");
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

int results_has_table(sqlite3 *db, const char *schema, const char *table)
{
	char sql[128];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql),
	         "SELECT 1 FROM \"%s\".sqlite_master WHERE type = 'table' AND name = ?1", schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int results_check(sqlite3 *db, const char *schema, const char *path,
                  const char *const *tables, int min_version, char *err, size_t errlen)
{
	char sql[64];
	sqlite3_stmt *st;
	int version;

	/* the first read of the file: where "file is not a database" shows */
	snprintf(sql, sizeof(sql), "PRAGMA \"%s\".user_version", schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		results_seterr(err, errlen, path, "not an mmsim results database (%s)",
		               sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < min_version || version > RESULTS_SCHEMA_VERSION) {
		if (min_version == RESULTS_SCHEMA_VERSION && version >= RESULTS_SCHEMA_READ_MIN &&
		    version < RESULTS_SCHEMA_VERSION)
			results_seterr(err, errlen, path,
			               "not an mmsim results database (schema version %d, expected %d;"
			               " mmsim merge -o NEW.db copies it into version %d)",
			               version, RESULTS_SCHEMA_VERSION, RESULTS_SCHEMA_VERSION);
		else if (min_version == RESULTS_SCHEMA_VERSION)
			results_seterr(err, errlen, path,
			               "not an mmsim results database (schema version %d, expected %d)",
			               version, RESULTS_SCHEMA_VERSION);
		else
			results_seterr(err, errlen, path,
			               "not an mmsim results database (schema version %d, expected %d..%d)",
			               version, min_version, RESULTS_SCHEMA_VERSION);
		return -1;
	}
	for (; tables && *tables; tables++)
		if (results_has_table(db, schema, *tables) != 1) {
			results_seterr(err, errlen, path,
			               "not an mmsim results database (no table '%s')", *tables);
			return -1;
		}
	return 0;
}

sqlite3 *results_open_ro(const char *path, const char *const *tables, int min_version,
                         char *err, size_t errlen)
{
	sqlite3 *db = NULL;

	/* SQLite's "unable to open database file" says less than errno */
	if (!path || access(path, R_OK)) {
		results_seterr(err, errlen, path, "%s", path ? strerror(errno) : "no file name");
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		results_seterr(err, errlen, path, "%s", sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	if (results_check(db, "main", path, tables, min_version, err, errlen) ||
	    results_compat_view(db, path, err, errlen)) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* 1 if table of schema has the column, 0 if not, -1 on error */
int results_has_column(sqlite3 *db, const char *schema, const char *table, const char *column)
{
	char *sql = sqlite3_mprintf("SELECT 1 FROM pragma_table_info(%Q, %Q) WHERE name = %Q",
	                            table, schema, column);
	sqlite3_stmt *st = NULL;
	int found = -1;

	if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
		found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return found;
}

/* A version-2 file has no runs.source: every run in it is a simulation.
 * A temporary view of that name takes precedence over main's table for
 * every unqualified name (SQLite looks in temp first), so the readers'
 * SQL, --where conditions included, reads `source` in every version.
 * The view lives in the connection's temp database: the file, opened
 * read-only, is never written. */
int results_compat_view(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char *msg = NULL;
	int has = results_has_column(db, "main", "runs", "source");

	if (has == 1)
		return 0;
	if (has == 0 && sqlite3_exec(db, "CREATE TEMP VIEW IF NOT EXISTS runs AS"
	                             " SELECT *, 'sim' AS source FROM main.runs",
	                             NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	results_seterr(err, errlen, path, "cannot read its runs table: %s",
	               msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* ------------------------------------------------------------------ */
/* run ids */

/* Per-process salt: time and pid alone may repeat across the hosts of a
 * cluster sweep. */
static uint32_t run_id_salt(void)
{
	uint32_t salt = 0;
	char host[256] = "";

	if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) == (ssize_t)sizeof(salt) && salt)
		return salt;
	gethostname(host, sizeof(host) - 1);
	salt = 2166136261u;             /* FNV-1a */
	for (const char *c = host; *c; c++)
		salt = (salt ^ (unsigned char)*c) * 16777619u;
	return salt | 1;
}

void results_new_run_id(char out[40])
{
	static _Atomic uint32_t salt;
	static _Atomic unsigned counter;
	struct timespec ts;
	unsigned long long ns;

	if (!salt)
		salt = run_id_salt();
	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
	/* 16 + 1 + 8 + 1 + 8 + 1 + 4 = 39 characters and the NUL */
	snprintf(out, 40, "%016llx-%08x-%08x-%04x", ns, (unsigned)getpid() & 0xffffffffu,
	         (unsigned)salt, counter++ & 0xffffu);
}

/* ------------------------------------------------------------------ */
/* writing a run */

static void db_close(struct results_db *db)
{
	for (int i = 0; i < NR_ST; i++) {
		sqlite3_finalize(db->st[i]);
		db->st[i] = NULL;
	}
	sqlite3_close(db->sql);
	db->sql = NULL;
}

static void db_free(struct results_db *db, int remove_tmp)
{
	db_close(db);
	if (remove_tmp && db->tmp)
		unlink(db->tmp);
	/* after the rename or the unlink: until then the lock says "being
	 * written" to results_clean_stale() */
	if (db->lock_fd >= 0)
		close(db->lock_fd);
	free(db->path);
	free(db->tmp);
	free(db);
}

static int db_exec(struct results_db *db, const char *sql, const char *what)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sql, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	results_seterr(db->err, sizeof(db->err), db->path, "%s: %s", what,
	               msg ? msg : sqlite3_errmsg(db->sql));
	sqlite3_free(msg);
	return -1;
}

static int db_open(struct results_db *db)
{
	if (sqlite3_open_v2(db->tmp, &db->sql, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	                    NULL) != SQLITE_OK) {
		results_seterr(db->err, sizeof(db->err), db->path, "cannot create %s: %s", db->tmp,
		               db->sql ? sqlite3_errmsg(db->sql) : "out of memory");
		return -1;
	}
	/* The file is private until the rename and removed on any failure, so
	 * it needs no rollback journal on disk and no fsync per transaction:
	 * commit fsync()s it once, before the rename. */
	if (db_exec(db, "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF", "pragmas") ||
	    db_exec(db, results_schema, "schema") ||
	    db_exec(db, "BEGIN", "begin"))
		return -1;
	for (int i = 0; i < NR_ST; i++)
		if (sqlite3_prepare_v2(db->sql, stmt_sql[i], -1, &db->st[i], NULL) != SQLITE_OK) {
			results_seterr(db->err, sizeof(db->err), db->path, "%s: %s", stmt_table[i],
			               sqlite3_errmsg(db->sql));
			return -1;
		}
	return 0;
}

int results_create(struct results_db **out, const char *path, char *err, size_t errlen)
{
	struct results_db *db;

	if (!out) {
		results_seterr(err, errlen, path, "no handle to return");
		return -1;
	}
	*out = NULL;
	if (!path || !*path) {
		results_seterr(err, errlen, path, "empty file name");
		return -1;
	}
	/* -o names a file to replace: never one that is not ours */
	if (results_check_target(path, err, errlen))
		return -1;
	db = calloc(1, sizeof(*db));
	if (db)
		db->lock_fd = -1;
	if (db && (db->path = strdup(path)) && (db->tmp = malloc(strlen(path) + 32)))
		sprintf(db->tmp, "%s.tmp.%ld", path, (long)getpid());
	if (!db || !db->tmp) {
		results_seterr(err, errlen, path, "out of memory");
		if (db)
			db_free(db, 0);
		return -1;
	}
	results_clean_stale(path);      /* leftovers of writers that died */
	unlink(db->tmp);                /* left by an earlier process with our pid */
	if ((db->lock_fd = results_tmp_create(db->tmp, path, err, errlen)) < 0) {
		db_free(db, 0);
		return -1;
	}
	if (db_open(db)) {
		if (err && errlen)
			snprintf(err, errlen, "%s", db->err);
		db_free(db, 1);
		return -1;
	}
	*out = db;
	return 0;
}

/* step an INSERT; on failure remember the first error, and refuse to commit */
static int db_step(struct results_db *db, int i)
{
	sqlite3_stmt *st = db->st[i];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (!db->failed)
		results_seterr(db->err, sizeof(db->err), db->path, "%s: %s", stmt_table[i],
		               sqlite3_errmsg(db->sql));
	db->failed = 1;
	return -1;
}

static int db_usable(struct results_db *db, const char *run_id)
{
	if (!db || !db->sql)
		return 0;
	if (!run_id || !*run_id) {
		if (!db->failed)
			results_seterr(db->err, sizeof(db->err), db->path, "empty run_id");
		db->failed = 1;
		return 0;
	}
	return 1;
}

#define BIND_TEXT(st, i, s)  sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT)

static unsigned long process_sweep_line;

void results_set_sweep_line(unsigned long line)
{
	process_sweep_line = line;
}

int results_add_run(struct results_db *db, const struct run_record *r)
{
	sqlite3_stmt *st;
	unsigned long line;

	if (!r || !db_usable(db, r->run_id))
		return -1;
	st = db->st[ST_RUN];
	BIND_TEXT(st, 1, r->run_id);
	BIND_TEXT(st, 2, r->name);
	BIND_TEXT(st, 3, r->sweep_id);
	BIND_TEXT(st, 4, r->policy);
	BIND_TEXT(st, 5, r->workload);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)r->seed);
	BIND_TEXT(st, 7, r->config);
	BIND_TEXT(st, 8, r->config_hash);
	BIND_TEXT(st, 9, r->mmsim_version);
	BIND_TEXT(st, 10, r->git_commit);
	BIND_TEXT(st, 11, r->build_type);
	BIND_TEXT(st, 12, r->started_at);
	BIND_TEXT(st, 13, r->finished_at);
	sqlite3_bind_double(st, 14, r->wall_seconds);
	sqlite3_bind_double(st, 15, r->sim_seconds);
	BIND_TEXT(st, 16, r->status);
	BIND_TEXT(st, 17, r->error);
	line = r->sweep_line ? r->sweep_line : r->sweep_id ? process_sweep_line : 0;
	if (line)
		sqlite3_bind_int64(st, 18, (sqlite3_int64)line);
	else
		sqlite3_bind_null(st, 18);
	BIND_TEXT(st, 19, r->source ? r->source : "sim");
	return db_step(db, ST_RUN);
}

int results_add_param(struct results_db *db, const char *run_id, const char *key, const char *value)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_PARAM], 1, run_id);
	BIND_TEXT(db->st[ST_PARAM], 2, key);
	BIND_TEXT(db->st[ST_PARAM], 3, value);
	return db_step(db, ST_PARAM);
}

int results_add_vmstat(struct results_db *db, const char *run_id, const char *name, int64_t value)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_VMSTAT], 1, run_id);
	BIND_TEXT(db->st[ST_VMSTAT], 2, name);
	sqlite3_bind_int64(db->st[ST_VMSTAT], 3, value);
	return db_step(db, ST_VMSTAT);
}

int results_add_metric(struct results_db *db, const char *run_id, const char *name, double value)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_METRIC], 1, run_id);
	BIND_TEXT(db->st[ST_METRIC], 2, name);
	sqlite3_bind_double(db->st[ST_METRIC], 3, value);
	return db_step(db, ST_METRIC);
}

int results_add_sample(struct results_db *db, const char *run_id, double t, const char *name, double value)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_SAMPLE], 1, run_id);
	sqlite3_bind_double(db->st[ST_SAMPLE], 2, t);
	BIND_TEXT(db->st[ST_SAMPLE], 3, name);
	sqlite3_bind_double(db->st[ST_SAMPLE], 4, value);
	return db_step(db, ST_SAMPLE);
}

int results_add_census(struct results_db *db, const char *run_id, double t, const char *migratetype,
                       long blocks, long mixed_blocks, long pages_lru, long pages_slab,
                       long pages_kmem, long pages_other)
{
	sqlite3_stmt *st;

	if (!db_usable(db, run_id))
		return -1;
	st = db->st[ST_CENSUS];
	BIND_TEXT(st, 1, run_id);
	sqlite3_bind_double(st, 2, t);
	BIND_TEXT(st, 3, migratetype);
	sqlite3_bind_int64(st, 4, blocks);
	sqlite3_bind_int64(st, 5, mixed_blocks);
	sqlite3_bind_int64(st, 6, pages_lru);
	sqlite3_bind_int64(st, 7, pages_slab);
	sqlite3_bind_int64(st, 8, pages_kmem);
	sqlite3_bind_int64(st, 9, pages_other);
	return db_step(db, ST_CENSUS);
}

int results_add_blockmap(struct results_db *db, const char *run_id, double t, long group,
                         const char *migratetype)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_BLOCKMAP], 1, run_id);
	sqlite3_bind_double(db->st[ST_BLOCKMAP], 2, t);
	sqlite3_bind_int64(db->st[ST_BLOCKMAP], 3, group);
	BIND_TEXT(db->st[ST_BLOCKMAP], 4, migratetype);
	return db_step(db, ST_BLOCKMAP);
}

int results_add_iteration(struct results_db *db, const char *run_id, long iteration, double t_start,
                          double t_end)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_ITER], 1, run_id);
	sqlite3_bind_int64(db->st[ST_ITER], 2, iteration);
	sqlite3_bind_double(db->st[ST_ITER], 3, t_start);
	sqlite3_bind_double(db->st[ST_ITER], 4, t_end);
	return db_step(db, ST_ITER);
}

int results_add_iteration_vmstat(struct results_db *db, const char *run_id, long iteration,
                                 const char *name, int64_t value)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_ITER_VMSTAT], 1, run_id);
	sqlite3_bind_int64(db->st[ST_ITER_VMSTAT], 2, iteration);
	BIND_TEXT(db->st[ST_ITER_VMSTAT], 3, name);
	sqlite3_bind_int64(db->st[ST_ITER_VMSTAT], 4, value);
	return db_step(db, ST_ITER_VMSTAT);
}

int results_add_iteration_metric(struct results_db *db, const char *run_id, long iteration,
                                 const char *name, double value)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_ITER_METRIC], 1, run_id);
	sqlite3_bind_int64(db->st[ST_ITER_METRIC], 2, iteration);
	BIND_TEXT(db->st[ST_ITER_METRIC], 3, name);
	sqlite3_bind_double(db->st[ST_ITER_METRIC], 4, value);
	return db_step(db, ST_ITER_METRIC);
}

int results_add_snapshot(struct results_db *db, const char *run_id, const char *name,
                         const char *text)
{
	if (!db_usable(db, run_id))
		return -1;
	BIND_TEXT(db->st[ST_SNAPSHOT], 1, run_id);
	BIND_TEXT(db->st[ST_SNAPSHOT], 2, name);
	BIND_TEXT(db->st[ST_SNAPSHOT], 3, text);
	return db_step(db, ST_SNAPSHOT);
}

const char *results_errmsg(const struct results_db *db)
{
	return db ? db->err : "no results database";
}

/* ------------------------------------------------------------------ */
/* commit and abort */

static int fsync_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Make the rename itself durable.  Best effort: once rename() succeeded
 * the file is in place, and reporting a failure would claim otherwise. */
static void fsync_parent(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int results_commit(struct results_db *db, char *err, size_t errlen)
{
	int rc = -1;

	if (!db || !db->sql) {
		results_seterr(err, errlen, db ? db->path : NULL, "no open results database");
		if (db)
			db_free(db, 1);
		return -1;
	}
	if (db->failed) {
		if (err && errlen)
			snprintf(err, errlen, "%s (nothing written)", db->err);
		db_free(db, 1);
		return -1;
	}
	if (db_exec(db, "COMMIT", "commit") == 0) {
		db_close(db);
		if (db->lock_fd >= 0 ? fsync(db->lock_fd) : fsync_file(db->tmp))
			results_seterr(db->err, sizeof(db->err), db->path, "fsync %s: %s", db->tmp,
			               strerror(errno));
		else if (rename(db->tmp, db->path))
			results_seterr(db->err, sizeof(db->err), db->path, "rename from %s: %s", db->tmp,
			               strerror(errno));
		else
			rc = 0;
	}
	if (rc == 0)
		fsync_parent(db->path);
	else if (err && errlen)
		snprintf(err, errlen, "%s", db->err);
	db_free(db, rc != 0);
	return rc;
}

void results_abort(struct results_db *db)
{
	if (!db)
		return;
	if (db->sql)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	db_free(db, 1);
}

/* ------------------------------------------------------------------ */

int results_is_complete(const char *path)
{
	static const char *const tables[] = { "runs", NULL };
	/* this version only: a sweep's run file of another is run again */
	sqlite3 *db = results_open_ro(path, tables, RESULTS_SCHEMA_VERSION, NULL, 0);
	sqlite3_stmt *st = NULL;
	int complete = 0;

	if (!db)
		return 0;
	/* status is NOT NULL with a CHECK: any row is a finished run */
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM runs WHERE status IS NOT NULL", -1, &st,
	                       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		complete = sqlite3_column_int64(st, 0) > 0;
	sqlite3_finalize(st);
	sqlite3_close(db);
	return complete;
}

int results_run_failure(const char *path, char *policy, size_t plen, long long *seed,
                        char *why, size_t wlen)
{
	static const char *const tables[] = { "runs", NULL };
	sqlite3 *db = results_open_ro(path, tables, RESULTS_SCHEMA_READ_MIN, NULL, 0);
	sqlite3_stmt *st = NULL;
	int failed = 0;

	if (!db)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT policy, seed, coalesce(error, 'no reason stored') FROM runs"
	                       " WHERE status != 'ok' ORDER BY run_id LIMIT 1", -1, &st,
	                       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		failed = 1;
		snprintf(policy, plen, "%s", (const char *)sqlite3_column_text(st, 0));
		*seed = sqlite3_column_int64(st, 1);
		snprintf(why, wlen, "%s", (const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return failed;
}
