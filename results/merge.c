/* merge.c - combine run files (or merged files) into one.
 *
 * Every row carries its run_id and every table has a primary key, so a
 * merge is INSERT OR IGNORE of each table of each input: rows already in
 * the output are kept, and merging the same files again changes nothing.
 * Each input is copied in one transaction, so an input that turns out bad
 * half way leaves nothing of itself behind; the inputs before it stay
 * merged (and merging them again is harmless).  The first bad input stops
 * the merge.
 */
#include <errno.h>
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
	if (results_check(db, "main", out, tables, err, errlen))
		return -1;
	/* an output of an older schema gets the tables added since (the
	 * schema's statements are CREATE ... IF NOT EXISTS and its version) */
	if (exec(db, "BEGIN IMMEDIATE", out, "cannot upgrade", err, errlen))
		return -1;
	if (exec(db, results_schema, out, "cannot upgrade", err, errlen) ||
	    exec(db, "COMMIT", out, "cannot upgrade", err, errlen)) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
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

static int copy_tables(sqlite3 *db, const char *out, const char *in, const char *const *tables,
                       char *err, size_t errlen)
{
	char sql[256], what[128];

	if (exec(db, "BEGIN IMMEDIATE", out, "begin", err, errlen))
		return -1;
	for (; *tables; tables++) {
		if (results_has_table(db, "src", *tables) == 0)
			continue;       /* an older schema's file: it has none of these rows */
		snprintf(sql, sizeof(sql), "INSERT OR IGNORE INTO main.\"%s\" SELECT * FROM src.\"%s\"",
		         *tables, *tables);
		snprintf(what, sizeof(what), "merging table %s into %s", *tables, out);
		if (exec(db, sql, in, what, err, errlen)) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return exec(db, "COMMIT", out, "commit", err, errlen);
}

/* the same file as out: nothing to do (and attaching it would deadlock
 * against our own write lock) */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int merge_one(sqlite3 *db, const char *out, const char *in, const char *const *tables,
                     char *err, size_t errlen)
{
	int rc;

	if (same_file(out, in))
		return 0;
	if (attach(db, in, err, errlen))
		return -1;
	rc = results_check(db, "src", in, tables, err, errlen);
	if (rc == 0)
		rc = copy_tables(db, out, in, tables, err, errlen);
	sqlite3_exec(db, "DETACH DATABASE src", NULL, NULL, NULL);
	return rc;
}

int results_merge(const char *out, const char *const *inputs, size_t n, char *err, size_t errlen)
{
	char names[MAX_TABLES][64];
	const char *tables[MAX_TABLES + 1];
	int created, rc = 0;
	size_t i;
	sqlite3 *db;

	if (!out || !*out) {
		results_seterr(err, errlen, out, "empty file name");
		return -1;
	}
	if (schema_tables(names, tables) <= 0) {
		results_seterr(err, errlen, out, "cannot read the built-in schema");
		return -1;
	}
	created = access(out, F_OK) != 0;
	if (!(db = open_out(out, tables, err, errlen))) {
		if (created)
			unlink(out);
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((rc = merge_one(db, out, inputs[i], tables, err, errlen)))
			break;
	sqlite3_close(db);
	/* a new output that received nothing would only mislead */
	if (rc && created && i == 0)
		unlink(out);
	return rc;
}
