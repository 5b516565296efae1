/* merge.c - combine run files (or merged files) into one.
 *
 * Every row carries its run_id and every table has a primary key, so a
 * merge is INSERT OR IGNORE of each table of each input: rows already in
 * the output are kept, and merging the same files again changes nothing.
 * Each input is copied in one transaction, so an input that turns out bad
 * half way leaves nothing of itself behind; the inputs before it stay
 * merged (and merging them again is harmless).  The first bad input stops
 * the merge.  A sweep's runs are also keyed by (sweep_id, sweep_line): a
 * line run again is in the output once (copy_tables()).  The output is
 * built aside, under a lock, and renamed into place (results_merge()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "results_int.h"

#define MAX_TABLES 32

/* The tables of schema.sql, read from an in-memory copy, so that a table
 * added to the schema is merged without touching this file. */
static int schema_tables(char names[MAX_TABLES][64], const char *tables[MAX_TABLES + 1])
{
	sqlite3 *mem = NULL;
	sqlite3_stmt *st = NULL;
	int n = 0;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK ||
	    sqlite3_exec(mem, results_schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(mem, "SELECT name FROM sqlite_master WHERE type = 'table'"
	                       " AND name NOT LIKE 'sqlite_%' ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		n = -1;
	while (n >= 0 && n < MAX_TABLES && sqlite3_step(st) == SQLITE_ROW) {
		snprintf(names[n], 64, "%s", (const char *)sqlite3_column_text(st, 0));
		tables[n] = names[n];
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(mem);
	if (n >= 0)
		tables[n] = NULL;
	return n;
}

/* an empty database: a new file, or one a crashed merge created */
static int is_empty(sqlite3 *db)
{
	sqlite3_stmt *st;
	int empty = 0;

	if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM sqlite_master) = 0"
	                       " AND (SELECT user_version FROM pragma_user_version) = 0",
	                       -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		empty = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return empty;
}

static int exec(sqlite3 *db, const char *sql, const char *path, const char *what,
                char *err, size_t errlen)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	results_seterr(err, errlen, path, "%s: %s", what, msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* a new (empty) output gets the schema, in one transaction: the file has
 * all of it or none; an existing one must be a results database */
static int init_out(sqlite3 *db, const char *out, const char *const *tables,
                    char *err, size_t errlen)
{
	if (is_empty(db)) {
		if (exec(db, "BEGIN IMMEDIATE", out, "cannot create", err, errlen))
			return -1;
		if (exec(db, results_schema, out, "cannot create", err, errlen) ||
		    exec(db, "COMMIT", out, "cannot create", err, errlen)) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	if (results_check(db, "main", out, tables, RESULTS_SCHEMA_VERSION, err, errlen))
		return -1;
	return 0;
}

static sqlite3 *open_out(const char *out, const char *const *tables, char *err, size_t errlen)
{
	sqlite3 *db = NULL;

	/* URI names: inputs are attached with ?mode=ro, never created */
	if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
	                    NULL) != SQLITE_OK) {
		results_seterr(err, errlen, out, "cannot create: %s",
		               db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 10000);        /* another merge into the same file */
	if (init_out(db, out, tables, err, errlen)) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* "file:" + the path, percent-encoded (RFC 3986), + "?mode=ro" */
static char *ro_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri = malloc(strlen(path) * 3 + 16), *p = uri;

	if (!uri)
		return NULL;
	p += sprintf(p, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("/._-~", *c)) {
			*p++ = (char)*c;
		} else {
			*p++ = '%';
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
		}
	}
	strcpy(p, "?mode=ro");
	return uri;
}

static int attach(sqlite3 *db, const char *in, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	char *uri;
	int rc;

	if (access(in, R_OK)) {
		results_seterr(err, errlen, in, "%s", strerror(errno));
		return -1;
	}
	if (!(uri = ro_uri(in))) {
		results_seterr(err, errlen, in, "out of memory");
		return -1;
	}
	rc = sqlite3_prepare_v2(db, "ATTACH DATABASE ?1 AS src", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	if (rc != SQLITE_OK)
		results_seterr(err, errlen, in, "not an mmsim results database (%s)", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	free(uri);
	return rc == SQLITE_OK ? 0 : -1;
}

/* A sweep's line is in the output once: when the input has a run of a
 * (sweep_id, sweep_line) that the output holds under another run_id (the
 * line was run again), the run that finished last stays, with all its
 * rows, and the other goes, with all of its.  Ties (the same finish
 * time) go to the greater run_id, so any order of merges gives the same
 * database. */
static const char *const supersede_sql =
	"DELETE FROM temp.merge_skip; DELETE FROM temp.merge_drop;"
	"INSERT OR IGNORE INTO temp.merge_skip SELECT s.run_id FROM src.runs s"
	"  JOIN main.runs m ON m.sweep_id = s.sweep_id AND m.sweep_line = s.sweep_line"
	"  AND m.run_id <> s.run_id"
	"  WHERE (coalesce(m.finished_at, ''), m.run_id) > (coalesce(s.finished_at, ''), s.run_id);"
	"INSERT OR IGNORE INTO temp.merge_drop SELECT m.run_id FROM src.runs s"
	"  JOIN main.runs m ON m.sweep_id = s.sweep_id AND m.sweep_line = s.sweep_line"
	"  AND m.run_id <> s.run_id"
	"  WHERE (coalesce(m.finished_at, ''), m.run_id) < (coalesce(s.finished_at, ''), s.run_id);";

/* INSERT OR IGNORE INTO main.T (columns) SELECT ... FROM src.T: every
 * column of the output's table, taken from the input's column of that
 * name, or, for a column the input's version did not have yet, its
 * default (runs.source of a version-2 input: 'sim').  sqlite3_free() it;
 * NULL on error. */
static char *copy_sql(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st = NULL;
	char *cols = sqlite3_mprintf("%s", ""), *vals = sqlite3_mprintf("%s", ""), *sql = NULL;
	int rc = SQLITE_ERROR, n = 0;

	if (cols && vals && sqlite3_prepare_v2(db, "SELECT name, dflt_value FROM"
	                                       " pragma_table_info(?1, 'main') ORDER BY cid",
	                                       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 0);
			const char *dflt = (const char *)sqlite3_column_text(st, 1);
			int has = results_has_column(db, "src", table, name);
			char *c2, *v2;

			if (has < 0 || (!has && !dflt)) {
				rc = SQLITE_ERROR;      /* a column the input lacks and that has no default */
				break;
			}
			c2 = sqlite3_mprintf("%s%s\"%w\"", cols, n ? ", " : "", name);
			v2 = has ? sqlite3_mprintf("%s%s\"%w\"", vals, n ? ", " : "", name)
			         : sqlite3_mprintf("%s%s%s", vals, n ? ", " : "", dflt);
			sqlite3_free(cols);
			sqlite3_free(vals);
			cols = c2;
			vals = v2;
			n++;
			if (!cols || !vals)
				break;
		}
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE && n && cols && vals)
		sql = sqlite3_mprintf("INSERT OR IGNORE INTO main.\"%w\" (%s) SELECT %s FROM src.\"%w\""
		                      " WHERE run_id NOT IN (SELECT run_id FROM temp.merge_skip)",
		                      table, cols, vals, table);
	sqlite3_free(cols);
	sqlite3_free(vals);
	return sql;
}

static int copy_tables(sqlite3 *db, const char *out, const char *in, const char *const *tables,
                       char *err, size_t errlen)
{
	char sql[320], what[128];
	int rc;

	if (exec(db, "CREATE TEMP TABLE IF NOT EXISTS merge_skip (run_id TEXT PRIMARY KEY);"
	             "CREATE TEMP TABLE IF NOT EXISTS merge_drop (run_id TEXT PRIMARY KEY)",
	         out, "temporary tables", err, errlen) ||
	    exec(db, "BEGIN IMMEDIATE", out, "begin", err, errlen))
		return -1;
	if (exec(db, supersede_sql, in, "runs of the same sweep line", err, errlen))
		goto fail;
	for (const char *const *t = tables; *t; t++) {
		snprintf(sql, sizeof(sql), "DELETE FROM main.\"%s\" WHERE run_id IN"
		         " (SELECT run_id FROM temp.merge_drop)", *t);
		snprintf(what, sizeof(what), "replacing a sweep line's run in table %s of %s", *t, out);
		if (exec(db, sql, in, what, err, errlen))
			goto fail;
	}
	for (; *tables; tables++) {
		char *copy;
		int has = results_has_table(db, "src", *tables);

		if (has == 0)
			continue;       /* an older input: a table added since (checked by merge_one) */
		snprintf(what, sizeof(what), "merging table %s into %s", *tables, out);
		if (has < 0 || !(copy = copy_sql(db, *tables))) {
			results_seterr(err, errlen, in, "%s: %s", what, sqlite3_errmsg(db));
			goto fail;
		}
		rc = exec(db, copy, in, what, err, errlen);
		sqlite3_free(copy);
		if (rc)
			goto fail;
	}
	return exec(db, "COMMIT", out, "commit", err, errlen);
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* the same file as out: nothing to do (and attaching it would deadlock
 * against our own write lock) */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The tables added after version 2 and the version that added them: an
 * input of an older version lacks them (and gets none copied). */
static int table_since(const char *table)
{
	return !strcmp(table, "snapshots") ? 3 : 2;
}

/* the input attached as src: a results database of a version this mmsim
 * reads (RESULTS_SCHEMA_READ_MIN..), with every table of its version */
static int input_check(sqlite3 *db, const char *in, const char *const *tables,
                       char *err, size_t errlen)
{
	const char *need[MAX_TABLES + 1];
	sqlite3_stmt *st = NULL;
	int version = 0, n = 0;

	if (results_check(db, "src", in, NULL, RESULTS_SCHEMA_READ_MIN, err, errlen))
		return -1;
	if (sqlite3_prepare_v2(db, "PRAGMA src.user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	for (; *tables && n < MAX_TABLES; tables++)
		if (table_since(*tables) <= version)
			need[n++] = *tables;
	need[n] = NULL;
	return results_check(db, "src", in, need, RESULTS_SCHEMA_READ_MIN, err, errlen);
}

static int merge_one(sqlite3 *db, const char *out, const char *in, const char *const *tables,
                     char *err, size_t errlen)
{
	int rc;

	if (same_file(out, in))
		return 0;
	if (attach(db, in, err, errlen))
		return -1;
	rc = input_check(db, in, tables, err, errlen);
	if (rc == 0)
		rc = copy_tables(db, out, in, tables, err, errlen);
	sqlite3_exec(db, "DETACH DATABASE src", NULL, NULL, NULL);
	return rc;
}

/* an output that does not exist yet, or is empty (nothing in it to lose) */
static int out_is_new(const char *out)
{
	struct stat sb;

	return stat(out, &sb) != 0 || (S_ISREG(sb.st_mode) && sb.st_size == 0);
}

static int fsync_path(const char *path, int dir)
{
	char *copy = dir ? strdup(path) : NULL;
	int fd = open(dir ? (copy ? dirname(copy) : ".") : path,
	              dir ? O_RDONLY | O_DIRECTORY | O_CLOEXEC : O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd >= 0) {
		rc = fsync(fd);
		close(fd);
	}
	free(copy);
	return rc;
}

/* Take OUT.lock: created once and kept (removing a lock file races with
 * its next taker), opened without following a link, and held with an
 * open file description lock for the merge's life; the kernel drops it
 * when the merge dies however it dies, and on NFS it is taken at the
 * server, as the temporary files' locks (tmpfile.c).  A merge finding it
 * held waits for it, up to MERGE_LOCK_WAIT seconds.  The descriptor, -1
 * with a message, or -2 when the wait ran out. */
#define MERGE_LOCK_WAIT 600
static int lock_out(const char *out, char *err, size_t errlen)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char *path = malloc(strlen(out) + 8);
	struct stat sb;
	int fd;

	if (!path) {
		results_seterr(err, errlen, out, "out of memory");
		return -1;
	}
	sprintf(path, "%s.lock", out);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		results_seterr(err, errlen, out, "cannot take the lock %s: %s", path,
		               fd < 0 && errno == ELOOP ? "a symbolic link; not followed" :
		               fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		free(path);
		return -1;
	}
	for (long waited = 0; fcntl(fd, F_OFD_SETLK, &fl); waited += 50) {
		int e = errno;

		if ((e != EAGAIN && e != EACCES) || waited >= MERGE_LOCK_WAIT * 1000L) {
			if (e != EAGAIN && e != EACCES)
				results_seterr(err, errlen, out, "cannot lock %s: %s (a file system "
				               "without POSIX locks?)", path, strerror(e));
			else
				results_seterr(err, errlen, out, "another merge into it has held %s for "
				               "%d s; nothing merged, try again when it ends", path,
				               MERGE_LOCK_WAIT);
			close(fd);
			free(path);
			return e != EAGAIN && e != EACCES ? -1 : -2;
		}
		usleep(50 * 1000);
	}
	free(path);
	return fd;
}

/* tmp (empty, ours) becomes a copy of the database out, page for page
 * (SQLite's online backup).  out is opened read-write: a hot journal that
 * a merge of an older mmsim left beside it is rolled back first. */
static int copy_out(const char *out, const char *tmp, char *err, size_t errlen)
{
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *b;
	int rc = SQLITE_ERROR;

	if (sqlite3_open_v2(out, &src, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(src, 10000);
		if ((b = sqlite3_backup_init(dst, "main", src, "main"))) {
			sqlite3_backup_step(b, -1);
			rc = sqlite3_backup_finish(b);
		}
	}
	if (rc != SQLITE_OK)
		results_seterr(err, errlen, out, "cannot copy it to %s: %s", tmp,
		               sqlite3_errmsg(dst ? dst : src));
	sqlite3_close(src);
	sqlite3_close(dst);
	return rc == SQLITE_OK ? 0 : -1;
}

/* The output is never written in place.  Under OUT.lock (lock_out()), a
 * copy of OUT (or, for a new output, an empty file) is made as
 * OUT.tmp.PID, the inputs are merged into the copy, and the copy is
 * renamed over OUT.  So a merge killed at any point leaves OUT as it was
 * (or absent, for a new output), whole and with no hot journal beside it,
 * and merges into one OUT run one after the other, each starting from
 * the last one's result: none loses another's runs.  The copy is written
 * with its journal in memory and no syncs (a merge that dies leaves only
 * a temporary file, removed by the next), then synced once before the
 * rename. */
int results_merge(const char *out, const char *const *inputs, size_t n, char *err, size_t errlen)
{
	char names[MAX_TABLES][64], *tmp = NULL;
	const char *tables[MAX_TABLES + 1];
	int rc = 0, lock_fd = -1, out_lock;
	size_t i = 0;
	sqlite3 *db;

	if (!out || !*out) {
		results_seterr(err, errlen, out, "empty file name");
		return -1;
	}
	if (schema_tables(names, tables) <= 0) {
		results_seterr(err, errlen, out, "cannot read the built-in schema");
		return -1;
	}
	if (results_check_target(out, err, errlen))
		return -1;
	if ((out_lock = lock_out(out, err, errlen)) < 0)
		return out_lock;
	/* checked again: another merge may have written it while we waited */
	if (results_check_target(out, err, errlen)) {
		close(out_lock);
		return -1;
	}
	results_clean_stale(out);
	if (!(tmp = malloc(strlen(out) + 32))) {
		results_seterr(err, errlen, out, "out of memory");
		close(out_lock);
		return -1;
	}
	sprintf(tmp, "%s.tmp.%ld", out, (long)getpid());
	unlink(tmp);
	if ((lock_fd = results_tmp_create(tmp, out, err, errlen)) < 0) {
		free(tmp);
		close(out_lock);
		return -1;
	}
	if (!out_is_new(out) && copy_out(out, tmp, err, errlen))
		rc = -1;
	else if (!(db = open_out(tmp, tables, err, errlen))) {
		rc = -1;
		/* the message names the output, not its temporary file */
		if (!strncmp(err, tmp, strlen(tmp)))
			results_seterr(err, errlen, out, "%s", err + strlen(tmp) + 2);
	} else {
		sqlite3_exec(db, "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF", NULL, NULL, NULL);
		for (i = 0; i < n; i++)
			if ((rc = merge_one(db, out, inputs[i], tables, err, errlen)))
				break;
		sqlite3_close(db);
	}
	/* an output that received nothing stays as it was (or absent: a new
	 * one would only mislead); one that received the inputs before a bad
	 * one keeps them */
	if (rc && i == 0) {
		unlink(tmp);
	} else if (fsync(lock_fd) || rename(tmp, out)) {
		results_seterr(err, errlen, out, "cannot rename %s into place: %s", tmp, strerror(errno));
		unlink(tmp);
		rc = -1;
	} else {
		fsync_path(out, 1);
	}
	close(lock_fd);
	close(out_lock);
	free(tmp);
	return rc;
}
