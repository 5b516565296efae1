/* results_int.h - what db.c, merge.c, compare.c and query.c share (not an API). */
#ifndef MMSIM_RESULTS_INT_H
#define MMSIM_RESULTS_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <sqlite3.h>

/* "path: message" into err (truncated, always terminated; err may be NULL) */
void results_seterr(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Open an existing results file read-only and check that it is one:
 * SQLite, PRAGMA user_version min_version..RESULTS_SCHEMA_VERSION
 * (RESULTS_SCHEMA_VERSION for a file to be replaced, RESULTS_SCHEMA_READ_MIN
 * for a reader), and the tables listed (NULL-terminated) present; an older
 * version is read through results_compat_view().  NULL with a message on
 * failure. */
sqlite3 *results_open_ro(const char *path, const char *const *tables, int min_version,
                         char *err, size_t errlen);

/* A reader's connection to a file of an older schema version
 * (RESULTS_SCHEMA_READ_MIN..): a temporary view `runs` that adds the
 * column source = 'sim' shadows the file's runs table, so that the same
 * SQL reads every version.  Nothing is written to the file.  0, or -1
 * with a message naming path. */
int results_compat_view(sqlite3 *db, const char *path, char *err, size_t errlen);

/* Same check on a database already open on db under the schema name
 * (e.g. "main" or an ATTACH name). */
int results_check(sqlite3 *db, const char *schema, const char *path,
                  const char *const *tables, int min_version, char *err, size_t errlen);

/* 1 if table of schema has the column, 0 if not, -1 on error */
int results_has_column(sqlite3 *db, const char *schema, const char *table, const char *column);

/* 1 if schema (e.g. "main", "src") has the table, 0 if not, -1 on error */
int results_has_table(sqlite3 *db, const char *schema, const char *table);
/* Create the temporary file tmp (O_EXCL) for target path and lock it as
 * "being written" (tmpfile.c); the lock's fd, or -1 with a message. */
int results_tmp_create(const char *tmp, const char *path, char *err, size_t errlen);


/* the schema (results/schema.sql, embedded at build time) */
extern const char *const results_schema;

#endif
