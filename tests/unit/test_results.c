/* test_results.c - the results store: a run file is whole or absent,
 * and merging is idempotent and never leaves part of a bad input. */
#include <signal.h>
#include <sys/wait.h>
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
	{
		char sql[64];
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", RESULTS_SCHEMA_VERSION);
		exec_sql(bare, sql);
	}
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


/* ------------------------------------------------------------------ */
/* targets, leftovers, sweep lines (issue 12) */

/* -o names a file to replace: a scenario, a log or a database of another
 * schema is refused and left as it was; a results database is replaced */
static void test_target_not_ours(void **state)
{
	const char *text = tr_path("scenario.ini"), *old = tr_path("old.db"), *run = tr_path("run.db");
	struct results_db *db;
	char err[512];
	sqlite3 *sq;

	(void)state;
	tr_write_file(text, "[machine]\nram = 1G\n");
	assert_int_equal(results_create(&db, text, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not overwritten"));
	assert_non_null(strstr(err, text));
	{
		FILE *f = fopen(text, "r");
		char line[64] = "";
		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		assert_string_equal(line, "[machine]\n");
	}
	assert_int_equal(sqlite3_open(old, &sq), SQLITE_OK);
	assert_int_equal(sqlite3_exec(sq, "CREATE TABLE runs (run_id TEXT); PRAGMA user_version = 1",
	                              NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(sq);
	assert_int_equal(results_create(&db, old, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schema version 1"));
	assert_int_equal(results_merge(text, (const char *[]){ old }, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not overwritten"));
	/* a directory */
	assert_int_equal(results_create(&db, tr_dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a regular file"));
	/* a results database of this schema, and an empty file, are replaced */
	tr_make_run_file(run, "r1", "vanilla", 1);
	tr_make_run_file(run, "r2", "vanilla", 2);
	assert_int_equal(tr_int(run, "SELECT count(*) FROM runs WHERE run_id = 'r2'"), 1);
	tr_write_file(tr_path("empty.db"), "");
	tr_make_run_file(tr_path("empty.db"), "r3", "vanilla", 3);
}

/* A process that dies writing a run leaves TARGET.tmp.PID; the next
 * results_create() or results_clean_stale() of that target removes it,
 * but never the file of a writer still alive (its lock tells). */
static void test_stale_tmp_cleaned(void **state)
{
	const char *path = tr_path("run.db");
	int go[2], ready[2];
	char tmp[600], c = 0, err[512];
	struct results_db *db;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (results_create(&db, path, err, sizeof(err)))
			_exit(1);
		(void)!write(ready[1], "x", 1);
		(void)!read(go[0], &c, 1);      /* until killed */
		_exit(0);
	}
	assert_int_equal(read(ready[0], &c, 1), 1);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)pid);
	assert_true(tr_exists(tmp));
	/* alive: kept */
	assert_int_equal(results_clean_stale(path), 0);
	assert_true(tr_exists(tmp));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_true(tr_exists(tmp));            /* what a kill leaves */
	assert_false(tr_exists(path));
	/* the next writer of the target cleans it up */
	tr_make_run_file(path, "r1", "vanilla", 1);
	assert_false(tr_exists(tmp));
	/* an unlocked leftover of another file name is not touched */
	tr_write_file(tr_path("other.db.tmp.12345"), "x");
	assert_int_equal(results_clean_stale(path), 0);
	assert_true(tr_exists(tr_path("other.db.tmp.12345")));
	assert_int_equal(results_clean_stale(tr_path("other.db")), 1);
	close(go[0]); close(go[1]); close(ready[0]); close(ready[1]);
}

static void make_line_run(const char *path, const char *run_id, unsigned long line,
                          const char *finished, int64_t alloc)
{
	struct results_db *db;
	struct run_record r = tr_run(run_id, "vanilla", 1, "ok");
	char err[512];

	r.sweep_id = "sweep-a";
	r.sweep_line = line;
	r.finished_at = finished;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r), 0);
	assert_int_equal(results_add_vmstat(db, run_id, "thp_fault_alloc", alloc), 0);
	assert_int_equal(results_add_metric(db, run_id, "real_time", 1.0), 0);
	if (results_commit(db, err, sizeof(err)))
		fail_msg("commit: %s", err);
}

/* A sweep's line that ran twice (run --manifest F --index N again) is in
 * the merged database once, with the rows of the run that finished last,
 * whatever the order of the merges. */
static void test_merge_sweep_line_once(void **state)
{
	const char *first = tr_path("first.db"), *again = tr_path("again.db"), *other = tr_path("l2.db");
	const char *out1 = tr_path("m1.db"), *out2 = tr_path("m2.db");
	char err[512];
	int64_t r1, r2;

	(void)state;
	make_line_run(first, "run-first", 1, "2024-01-01T00:01:00Z", 100);
	make_line_run(again, "run-again", 1, "2024-01-01T00:09:00Z", 200);
	make_line_run(other, "run-line2", 2, "2024-01-01T00:02:00Z", 300);
	/* merged as a sweep does: the first files, then again after a rerun */
	assert_int_equal(results_merge(out1, (const char *[]){ first, other }, 2, err, sizeof(err)), 0);
	assert_int_equal(results_merge(out1, (const char *[]){ again, other }, 2, err, sizeof(err)), 0);
	assert_int_equal(tr_int(out1, "SELECT count(*) FROM runs"), 2);
	assert_int_equal(tr_int(out1, "SELECT count(*) FROM runs WHERE sweep_line = 1"), 1);
	assert_int_equal(tr_int(out1, "SELECT count(*) FROM runs WHERE run_id = 'run-again'"), 1);
	assert_int_equal(tr_int(out1, "SELECT count(*) FROM vmstat"), 2);
	assert_int_equal(tr_int(out1, "SELECT sum(value) FROM vmstat"), 500);
	assert_int_equal(tr_int(out1, "SELECT count(*) FROM metrics WHERE run_id = 'run-first'"), 0);
	/* the other order, and the older file merged once more: the same */
	assert_int_equal(results_merge(out2, (const char *[]){ again, first, other, first }, 4,
	                               err, sizeof(err)), 0);
	assert_true(content_hash(out1, &r1) == content_hash(out2, &r2));
	assert_int_equal(r1, r2);
	/* a run of no sweep (sweep_line NULL) is not keyed so */
	assert_int_equal(tr_int(first, "SELECT sweep_line FROM runs"), 1);
}

/* A merge into a new output that is killed half way leaves no output:
 * the input here is a FIFO nobody writes, so the merge blocks opening it,
 * as a merge busy copying would be when killed. */
static void test_merge_killed_leaves_nothing(void **state)
{
	const char *out = tr_path("merged.db"), *fifo = tr_path("blocked.db"), *in = tr_path("a.db");
	char err[512];
	pid_t pid;

	(void)state;
	tr_make_run_file(in, "ra", "vanilla", 1);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(results_merge(out, (const char *[]){ in, fifo }, 2, err, sizeof(err)) ? 1 : 0);
	/* until the child is blocked on the FIFO, past the first input */
	for (int i = 0; i < 500; i++) {
		char tmp[600];
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", out, (long)pid);
		if (tr_exists(tmp) || tr_exists(out))
			break;
		usleep(10000);
	}
	usleep(200000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_false(tr_exists(out));
	unlink(fifo);
	/* the next merge into it cleans the leftover and works */
	assert_int_equal(results_merge(out, (const char *[]){ in }, 1, err, sizeof(err)), 0);
	assert_int_equal(tr_int(out, "SELECT count(*) FROM runs"), 1);
	/* the input, the output and the output's lock (kept: merge.c) */
	assert_int_equal(tr_nr_files(), 3);
	assert_true(tr_exists(tr_path("merged.db.lock")));
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
		cmocka_unit_test_setup_teardown(test_target_not_ours, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_stale_tmp_cleaned, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_merge_sweep_line_once, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_merge_killed_leaves_nothing, tr_setup, tr_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
