/* test_results.c - the results store: a run file is whole or absent,
 * and merging is idempotent and never leaves part of a bad input. */
#include "tresults.h"

/* ------------------------------------------------------------------ */
/* writing a run */

static void test_write_read_back(void **state)
{
	const char *path = tr_path("run.db");
	sqlite3 *db;
	sqlite3_stmt *st;

	(void)state;
	tr_make_run_file(path, "r1", "vanilla", 7);
	assert_int_equal(tr_nr_files(), 1);             /* no .tmp left behind */
	assert_int_equal(tr_int(path, "PRAGMA user_version"), RESULTS_SCHEMA_VERSION);
	assert_int_equal(tr_int(path, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(tr_int(path, "SELECT seed FROM runs WHERE run_id = 'r1'"), 7);
	assert_int_equal(tr_int(path, "SELECT count(*) FROM params WHERE run_id = 'r1'"), 2);
	assert_int_equal(tr_int(path, "SELECT value FROM vmstat WHERE name = 'thp_fault_alloc'"), 1007);
	assert_int_equal(tr_int(path, "SELECT value FROM vmstat WHERE name = 'compact_stall'"), -3);
	assert_int_equal(tr_int(path, "SELECT count(*) FROM samples"), 5);
	assert_int_equal(tr_int(path, "SELECT min(value) FROM samples"), 996);
	assert_int_equal(tr_int(path, "SELECT pages_other FROM block_census"), 4);
	assert_int_equal(tr_int(path, "SELECT count(*) FROM blockmap"), 2);
	assert_int_equal(tr_int(path, "SELECT error IS NULL AND sweep_id IS NULL FROM runs"), 1);

	db = tr_open(path);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT policy, status, config, sim_seconds FROM runs",
	                                    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "vanilla");
	assert_string_equal((const char *)sqlite3_column_text(st, 1), "ok");
	assert_string_equal((const char *)sqlite3_column_text(st, 2), "[machine]\nram = 1G\n");
	assert_true(sqlite3_column_double(st, 3) == 265.04);
	sqlite3_finalize(st);
	sqlite3_close(db);
	assert_int_equal(results_is_complete(path), 1);
}

static void test_abort_leaves_nothing(void **state)
{
	const char *path = tr_path("run.db");
	struct results_db *db;
	struct run_record r = tr_run("r1", "vanilla", 1, "ok");
	char err[512];

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(tr_nr_files(), 1);             /* the .tmp file */
	assert_int_equal(results_add_run(db, &r), 0);
	results_abort(db);
	assert_false(tr_exists(path));
	assert_int_equal(tr_nr_files(), 0);
	results_abort(NULL);                            /* harmless */
}

/* a rewrite replaces the old file whole: old or new, never a mix */
static void test_commit_replaces(void **state)
{
	const char *path = tr_path("run.db");
	struct results_db *db;
	struct run_record r = tr_run("r2", "hygiene", 2, "ok");
	char err[512];

	(void)state;
	tr_make_run_file(path, "r1", "vanilla", 1);
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r), 0);
	/* until the commit, readers see the old file */
	assert_int_equal(tr_int(path, "SELECT count(*) FROM runs WHERE run_id = 'r1'"), 1);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);
	assert_int_equal(tr_int(path, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(tr_int(path, "SELECT count(*) FROM runs WHERE run_id = 'r2'"), 1);
	assert_int_equal(tr_nr_files(), 1);
}

static void test_unwritable_target(void **state)
{
	struct results_db *db = (struct results_db *)1;
	const char *path = tr_path("no/such/dir/run.db");
	char err[512] = "";

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), -1);
	assert_null(db);
	assert_non_null(strstr(err, path));
	assert_int_equal(tr_nr_files(), 0);

	/* a read-only directory (root writes anyway: nothing to test then) */
	if (geteuid() != 0) {
		const char *ro = tr_path("ro");
		char target[512];

		assert_int_equal(mkdir(ro, 0500), 0);
		snprintf(target, sizeof(target), "%s/run.db", ro);
		err[0] = 0;
		assert_int_equal(results_create(&db, target, err, sizeof(err)), -1);
		assert_non_null(strstr(err, target));
		assert_false(tr_exists(target));
	}
}

/* an add that fails poisons the file: commit refuses, and leaves nothing */
static void test_failed_add_refuses_commit(void **state)
{
	const char *path = tr_path("run.db");
	struct results_db *db;
	struct run_record r = tr_run("r1", "vanilla", 1, "ok");
	struct run_record bad = tr_run("r2", "vanilla", 1, "running");
	char err[512];

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r), 0);
	assert_int_equal(results_add_vmstat(db, "r1", "pgscan_kswapd", 1), 0);
	assert_int_equal(results_add_vmstat(db, "r1", "pgscan_kswapd", 2), -1);
	assert_non_null(strstr(results_errmsg(db), path));
	assert_non_null(strstr(results_errmsg(db), "vmstat"));
	assert_int_equal(results_add_run(db, &bad), -1);        /* CHECK (status IN ...) */
	assert_int_equal(results_add_metric(db, "", "real_time", 1), -1);
	assert_int_equal(results_commit(db, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "UNIQUE"));                 /* the first error */
	assert_false(tr_exists(path));
	assert_int_equal(tr_nr_files(), 0);
	assert_int_equal(results_add_metric(NULL, "r1", "real_time", 1), -1);
}

static void test_is_complete(void **state)
{
	const char *path = tr_path("run.db");
	const char *garbage = tr_path("garbage.db");
	const char *empty = tr_path("empty.db");
	struct results_db *db;
	struct run_record r = tr_run("r1", "vanilla", 1, "ok");
	char err[512], tmp[600];

	(void)state;
	/* partial: the temporary file of a run still being written */
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	assert_true(tr_exists(tmp));
	assert_int_equal(results_is_complete(tmp), 0);
	assert_int_equal(results_is_complete(path), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);
	assert_int_equal(results_is_complete(path), 1);

	tr_write_file(garbage, "this is not an SQLite database, not even close\n");
	assert_int_equal(results_is_complete(garbage), 0);
	tr_write_file(empty, "");
	assert_int_equal(results_is_complete(empty), 0);
	assert_int_equal(results_is_complete(tr_path("missing.db")), 0);
	assert_int_equal(results_is_complete(NULL), 0);

	/* the schema but no run: a merge output that received nothing */
	assert_int_equal(results_create(&db, tr_path("norun.db"), err, sizeof(err)), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);
	assert_int_equal(results_is_complete(tr_path("norun.db")), 0);
}

static void test_run_ids_unique(void **state)
{
	enum { N = 2000 };
	static char ids[N][40];

	(void)state;
	for (int i = 0; i < N; i++) {
		results_new_run_id(ids[i]);
		assert_int_equal(strlen(ids[i]), 39);
	}
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N; j++)
			if (!strcmp(ids[i], ids[j]))
				fail_msg("run id %s repeated", ids[i]);
}

/* ------------------------------------------------------------------ */
/* merging */

/* FNV-1a over every row of every table, in primary-key order */
static uint64_t content_hash(const char *path, int64_t *rows)
{
	static const char *const tables[] = {
		"runs", "params", "vmstat", "metrics", "samples", "block_census", "blockmap", NULL,
	};
	uint64_t h = 14695981039346656037ull;
	sqlite3 *db = tr_open(path);

	*rows = 0;
	for (const char *const *t = tables; *t; t++) {
		char sql[128];
		sqlite3_stmt *st;

		snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY 1, 2, 3", *t);
		if (!strcmp(*t, "runs"))
			snprintf(sql, sizeof(sql), "SELECT * FROM runs ORDER BY run_id");
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
		while (sqlite3_step(st) == SQLITE_ROW) {
			(*rows)++;
			for (int c = 0; c < sqlite3_column_count(st); c++) {
				const unsigned char *s = sqlite3_column_text(st, c);
				for (; s && *s; s++)
					h = (h ^ *s) * 1099511628211ull;
				h = (h ^ 0xff) * 1099511628211ull;      /* column separator */
			}
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return h;
}

static void make_three_runs(void)
{
	tr_make_run_file(tr_path("a.db"), "ra", "vanilla", 1);
	tr_make_run_file(tr_path("b.db"), "rb", "vanilla", 2);
	tr_make_run_file(tr_path("c.db"), "rc", "hygiene", 1);
}

static void test_merge_idempotent(void **state)
{
	const char *out = tr_path("all.db"), *out2 = tr_path("all2.db");
	const char *in[3];
	char err[512];
	int64_t rows1, rows2, rows3;
	uint64_t h1, h2, h3;

	(void)state;
	make_three_runs();
	in[0] = tr_path("a.db"); in[1] = tr_path("b.db"); in[2] = tr_path("c.db");
	if (results_merge(out, in, 3, err, sizeof(err)))
		fail_msg("merge: %s", err);
	assert_int_equal(tr_int(out, "SELECT count(*) FROM runs"), 3);
	assert_int_equal(tr_int(out, "SELECT count(*) FROM samples"), 15);
	h1 = content_hash(out, &rows1);
	assert_int_equal(rows1, 3 * (1 + 2 + 2 + 1 + 5 + 1 + 2));

	/* the same files again, and the output into itself: nothing changes */
	if (results_merge(out, in, 3, err, sizeof(err)))
		fail_msg("merge again: %s", err);
	in[0] = out;
	if (results_merge(out, in, 1, err, sizeof(err)))
		fail_msg("merge into itself: %s", err);
	h2 = content_hash(out, &rows2);
	assert_int_equal(rows2, rows1);
	assert_true(h2 == h1);

	/* a merged file merges like the run files it came from */
	assert_int_equal(results_merge(out2, in, 1, err, sizeof(err)), 0);
	h3 = content_hash(out2, &rows3);
	assert_int_equal(rows3, rows1);
	assert_true(h3 == h1);
	assert_int_equal(results_is_complete(out), 1);
}

static void test_merge_garbage(void **state)
{
	const char *out = tr_path("all.db"), *garbage = tr_path("garbage.db");
	const char *in[2];
	char err[512] = "";
	int64_t rows;

	(void)state;
	make_three_runs();
	tr_write_file(garbage, "SQLite format 3? no: garbage, long enough to have a header......\n"
	                       "................................................................\n");
	/* a bad first input into a new output: error, and no output at all */
	in[0] = garbage;
	assert_int_equal(results_merge(out, in, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, garbage));
	assert_false(tr_exists(out));

	/* a good input, then a bad one: the good one is in, the bad one named */
	in[0] = tr_path("a.db");
	in[1] = garbage;
	err[0] = 0;
	assert_int_equal(results_merge(out, in, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, garbage));
	assert_int_equal(tr_int(out, "SELECT count(*) FROM runs"), 1);
	content_hash(out, &rows);
	assert_int_equal(rows, 1 + 2 + 2 + 1 + 5 + 1 + 2);

	/* a missing input is named too */
	in[0] = tr_path("missing.db");
	err[0] = 0;
	assert_int_equal(results_merge(out, in, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, in[0]));
	assert_false(tr_exists(in[0]));                 /* not created by ATTACH */
}

static void exec_sql(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	char *msg = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
	sqlite3_close(db);
}

static void test_merge_bad_schema(void **state)
{
	const char *out = tr_path("all.db"), *old = tr_path("old.db"), *bare = tr_path("bare.db");
	const char *broken = tr_path("broken.db");
	const char *in[1];
	char err[512] = "";
	int64_t rows_before, rows_after;
	uint64_t h_before, h_after;

	(void)state;
	make_three_runs();
	in[0] = tr_path("a.db");
	assert_int_equal(results_merge(out, in, 1, err, sizeof(err)), 0);
	h_before = content_hash(out, &rows_before);

	/* another schema version */
	exec_sql(old, "CREATE TABLE runs (run_id TEXT); PRAGMA user_version = 7");
	in[0] = old;
	assert_int_equal(results_merge(out, in, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, old));
	assert_non_null(strstr(err, "version 7"));

	/* the right version, but tables missing */
	exec_sql(bare, "PRAGMA user_version = 1");
	in[0] = bare;
	assert_int_equal(results_merge(out, in, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, bare));
	assert_non_null(strstr(err, "no table"));

	/* a file whose runs table copies and whose vmstat table does not: the
	 * input's transaction is rolled back, its run does not appear */
	tr_make_run_file(broken, "rbroken", "vanilla", 9);
	exec_sql(broken, "DROP TABLE vmstat; CREATE TABLE vmstat (run_id TEXT, name TEXT)");
	in[0] = broken;
	assert_int_equal(results_merge(out, in, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, broken));
	assert_non_null(strstr(err, "vmstat"));
	h_after = content_hash(out, &rows_after);
	assert_int_equal(rows_after, rows_before);
	assert_true(h_after == h_before);
	assert_int_equal(tr_int(out, "SELECT count(*) FROM runs WHERE run_id = 'rbroken'"), 0);

	/* an output that is not a results database is refused, untouched */
	in[0] = tr_path("b.db");
	assert_int_equal(results_merge(old, in, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, old));
	assert_int_equal(tr_int(old, "PRAGMA user_version"), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_read_back, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_abort_leaves_nothing, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_commit_replaces, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_target, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_failed_add_refuses_commit, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_is_complete, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_run_ids_unique, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_merge_idempotent, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_merge_garbage, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_merge_bad_schema, tr_setup, tr_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
