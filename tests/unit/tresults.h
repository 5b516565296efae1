/* tresults.h - helpers for the results tests (header only): a scratch
 * directory, writing a small run, reading a database back. */
#ifndef MMSIM_TRESULTS_H
#define MMSIM_TRESULTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "results.h"

static char tr_dir[256];

/* a fresh directory under $TMPDIR for each test */
static inline int tr_setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(tr_dir, sizeof(tr_dir), "%s/mmsim-results-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(tr_dir) ? 0 : -1;
}

static inline int tr_teardown(void **state)
{
	DIR *d = opendir(tr_dir);
	struct dirent *e;
	char p[512];

	(void)state;
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", tr_dir, e->d_name);
			chmod(p, 0700);
			unlink(p);
			rmdir(p);
		}
	closedir(d);
	rmdir(tr_dir);
	return 0;
}

/* a path in the scratch directory (static buffers, 32 in rotation: a
 * test holds a handful at a time) */
static inline const char *tr_path(const char *name)
{
	static char buf[32][512];
	static int i;
	char *p = buf[i++ & 31];

	snprintf(p, sizeof(buf[0]), "%s/%s", tr_dir, name);
	return p;
}

static inline int tr_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* entries in the scratch directory */
static inline int tr_nr_files(void)
{
	DIR *d = opendir(tr_dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static inline void tr_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline struct run_record tr_run(const char *run_id, const char *policy, uint64_t seed,
                                       const char *status)
{
	struct run_record r = {
		.name = "kbuild-test", .policy = policy, .workload = "kbuild+thp_faulter",
		.seed = seed, .config = "[machine]\nram = 1G\n", .config_hash = "0123abcd",
		.mmsim_version = "0.1.0", .git_commit = "deadbeef", .build_type = "Release",
		.started_at = "2024-01-01T00:00:00Z", .finished_at = "2024-01-01T00:01:00Z",
		.wall_seconds = 60, .sim_seconds = 265.04, .status = status,
	};
	snprintf(r.run_id, sizeof(r.run_id), "%s", run_id);
	return r;
}

/* One committed run file: a run, two params, vmstat, a metric, samples,
 * a census and a block map. */
static inline void tr_make_run_file(const char *path, const char *run_id, const char *policy,
                                    uint64_t seed)
{
	struct results_db *db;
	struct run_record r = tr_run(run_id, policy, seed, "ok");
	char err[512];

	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r), 0);
	assert_int_equal(results_add_param(db, run_id, "machine.ram", "1G"), 0);
	assert_int_equal(results_add_param(db, run_id, "policy.name", policy), 0);
	assert_int_equal(results_add_vmstat(db, run_id, "thp_fault_alloc", 1000 + (int64_t)seed), 0);
	assert_int_equal(results_add_vmstat(db, run_id, "compact_stall", -3), 0);
	assert_int_equal(results_add_metric(db, run_id, "real_time", 265.04), 0);
	for (int t = 0; t < 5; t++)
		assert_int_equal(results_add_sample(db, run_id, t, "nr_free_pages", 1000.0 - t), 0);
	assert_int_equal(results_add_census(db, run_id, 10.0, "Movable", 100, 3, 1, 2, 3, 4), 0);
	assert_int_equal(results_add_blockmap(db, run_id, 10.0, 0, "Unmovable"), 0);
	assert_int_equal(results_add_blockmap(db, run_id, 10.0, 1, "Movable"), 0);
	if (results_commit(db, err, sizeof(err)))
		fail_msg("commit: %s", err);
}

static inline sqlite3 *tr_open(const char *path)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		fail_msg("open %s: %s", path, sqlite3_errmsg(db));
	return db;
}

/* the first column of the first row of a query, as an integer */
static inline int64_t tr_int(const char *path, const char *sql)
{
	sqlite3 *db = tr_open(path);
	sqlite3_stmt *st;
	int64_t v;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

#endif
