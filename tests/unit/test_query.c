/* test_query.c - results/query.h, the reads of mmsim plot and mmsim
 * report: what a reader refuses to open and how it says so, the rows each
 * query gives back, and a callback that stops a query. */
#include <math.h>
#include "tresults.h"

/* two runs of two policies, merged, and a failed one of a third */
static const char *make_db(void)
{
	const char *a = tr_path("a.db"), *b = tr_path("b.db"), *f = tr_path("f.db");
	const char *all = tr_path("all.db");
	struct results_db *db;
	struct run_record r = tr_run("f1", "failing", 1, "failed");
	char err[512];

	tr_make_run_file(a, "r1", "vanilla", 1);
	tr_make_run_file(b, "r2", "hugealloc_rfc", 2);
	assert_int_equal(results_create(&db, f, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r), 0);
	assert_int_equal(results_add_blockmap(db, "f1", 0, 0, "Movable"), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);
	if (results_merge(all, (const char *[]){ a, b, f }, 3, err, sizeof(err)))
		fail_msg("merge: %s", err);
	return all;
}

static struct results_reader *open_ok(const char *path)
{
	struct results_reader *r;
	char err[512];

	if (results_reader_open(&r, path, RESULTS_READ_SERIES, err, sizeof(err)))
		fail_msg("open: %s", err);
	return r;
}

static void test_open_refuses(void **state)
{
	struct results_reader *r = (void *)1;
	const char *missing = tr_path("missing.db"), *text = tr_path("text.db");
	char err[512];

	(void)state;
	/* missing: -2 (mmsim plot's 66), both checks; the path named */
	assert_int_equal(results_reader_open(&r, missing, RESULTS_READ_SERIES, err, sizeof(err)), -2);
	assert_null(r);
	assert_non_null(strstr(err, missing));
	assert_int_equal(results_reader_open(&r, missing, RESULTS_READ_ANY, err, sizeof(err)), -2);
	assert_non_null(strstr(err, missing));
	/* not SQLite, a directory: -1 (65) */
	tr_write_file(text, "this is not a database, it is text and longer than a header would be\n");
	assert_int_equal(results_reader_open(&r, text, RESULTS_READ_SERIES, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not an mmsim results database"));
	assert_int_equal(results_reader_open(&r, tr_dir, RESULTS_READ_SERIES, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a regular file"));
}

static int count_str(void *arg, const char *s)
{
	(void)s;
	++*(int *)arg;
	return 0;
}

static int count_pair(void *arg, const char *a, const char *b)
{
	(void)a;
	(void)b;
	++*(int *)arg;
	return 0;
}

static int stop_at_first(void *arg, const char *s)
{
	snprintf(arg, 64, "%s", s);
	return 42;
}

static void test_runs(void **state)
{
	struct results_reader *r = open_ok(make_db());
	char first[64] = "";
	int n = 0;

	(void)state;
	/* the 'ok' runs' policies, by name; a stopping callback's value back */
	assert_int_equal(results_policies(r, count_str, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(results_policies(r, stop_at_first, first), 42);
	assert_string_equal(first, "hugealloc_rfc");
	assert_int_equal(results_run_exists(r, "r2"), 1);
	assert_int_equal(results_run_exists(r, "f1"), 1);
	assert_int_equal(results_run_exists(r, "nosuch"), 0);
	n = 0;
	assert_int_equal(results_params_each(r, "r1", count_pair, &n), 0);
	assert_int_equal(n, 2);
	results_reader_close(r);
}

struct run_seen {
	int n;
	char ids[4][40];
	double sim;
};

static int run_seen(void *arg, const struct results_run *run)
{
	struct run_seen *s = arg;

	if (s->n < 4)
		snprintf(s->ids[s->n], sizeof(s->ids[0]), "%s", run->run_id);
	s->n++;
	s->sim = run->sim_seconds;
	assert_string_equal(run->source, "sim");
	assert_string_equal(run->sweep_id, "");        /* NULL in the file */
	return 0;
}

struct census_seen {
	struct results_census c;
	char migratetype[32];
};

/* (the strings of a row live until the callback returns) */
static int census_seen(void *arg, const struct results_census *c)
{
	struct census_seen *s = arg;

	s->c = *c;
	snprintf(s->migratetype, sizeof(s->migratetype), "%s", c->migratetype);
	return 0;
}

static void test_provenance(void **state)
{
	struct results_reader *r;
	struct census_seen c = { 0 };
	struct run_seen s = { 0 };
	char err[512];

	(void)state;
	assert_int_equal(results_reader_open(&r, make_db(), RESULTS_READ_ANY, err, sizeof(err)), 0);
	/* every run, whatever its status, by policy and seed */
	assert_int_equal(results_runs_each(r, run_seen, &s), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.ids[0], "f1");
	assert_string_equal(s.ids[1], "r2");
	assert_string_equal(s.ids[2], "r1");
	assert_true(s.sim == 265.04);
	assert_int_equal(results_census_last(r, "r1", census_seen, &c), 0);
	assert_string_equal(c.migratetype, "Movable");
	assert_int_equal(c.c.mixed_blocks, 3);
	assert_int_equal(c.c.pages_other, 4);
	assert_true(c.c.t == 10.0);
	results_reader_close(r);
}

static int point_seen(void *arg, const struct results_point *p)
{
	struct results_point *last = arg;

	*last = *p;
	last->policy = NULL;
	last->label = NULL;
	return 0;
}

/* the THP success rate: per interval between samples, from the counters */
static void test_series(void **state)
{
	const char *path = tr_path("thp.db");
	struct results_db *db;
	struct run_record run = tr_run("t1", "vanilla", 1, "ok");
	struct results_point p = { 0 };
	struct results_reader *r;
	char err[512];

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &run), 0);
	/* 0..1: 3 of 4 faults got a THP; 1..2: no fault, no rate */
	assert_int_equal(results_add_sample(db, "t1", 0, "thp_fault_alloc", 10), 0);
	assert_int_equal(results_add_sample(db, "t1", 0, "thp_fault_fallback", 5), 0);
	assert_int_equal(results_add_sample(db, "t1", 1, "thp_fault_alloc", 13), 0);
	assert_int_equal(results_add_sample(db, "t1", 1, "thp_fault_fallback", 6), 0);
	assert_int_equal(results_add_sample(db, "t1", 2, "thp_fault_alloc", 13), 0);
	assert_int_equal(results_add_sample(db, "t1", 2, "thp_fault_fallback", 6), 0);
	assert_int_equal(results_add_census(db, "t1", 5, "Unmovable", 10, 2, 0, 0, 0, 0), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);

	r = open_ok(path);
	assert_int_equal(results_series_query(r, RESULTS_SERIES_THP_SUCCESS, "vanilla", point_seen, &p), 0);
	assert_int_equal(p.ny, 3);
	assert_true(p.x == 1 && p.y[0] == 75 && p.y[1] == 75 && p.y[2] == 75 && p.runs == 1);
	/* no free_pageblocks sample nor 'Free' row: free blocks NaN */
	assert_int_equal(results_series_query(r, RESULTS_SERIES_BLOCKS, NULL, point_seen, &p), 0);
	assert_true(p.x == 5 && isnan(p.y[0]) && p.y[1] == 2);
	assert_int_equal(results_series_query(r, RESULTS_SERIES_CENSUS, NULL, point_seen, &p), 0);
	assert_int_equal(p.ny, 9);
	assert_true(p.y[0] == 2 && p.y[3] == 0 && p.y[6] == 0);
	results_reader_close(r);
}

static void test_values(void **state)
{
	struct results_reader *r = open_ok(make_db());
	struct results_value v;
	struct results_point p = { 0 };
	int any, n = 0;

	(void)state;
	assert_int_equal(results_value_find(r, "THP fault fail rate %", &v, &any), 0);
	assert_int_equal(v.src, RESULTS_VALUE_ROW);
	assert_int_equal(results_value_find(r, "compact_stall", &v, &any), 0);
	assert_int_equal(v.src, RESULTS_VALUE_VMSTAT);
	assert_int_equal(results_value_find(r, "real_time", &v, &any), 0);
	assert_int_equal(v.src, RESULTS_VALUE_METRIC);
	assert_int_equal(results_value_find(r, "bogus", &v, &any), 0);
	assert_int_equal(v.src, RESULTS_VALUE_NONE);
	assert_int_equal(any, 1);
	/* one value of machine.ram per policy: not swept */
	assert_int_equal(results_swept_keys(r, count_str, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(results_value_find(r, "compact_stall", &v, &any), 0);
	assert_int_equal(results_sweep_query(r, &v, "machine.ram", point_seen, &p), 0);
	assert_true(p.y[0] == -3 && p.runs == 1);
	results_reader_close(r);
}

static int map_run(void *arg, const char *run_id, const char *policy, long long seed)
{
	(void)policy;
	(void)seed;
	snprintf(arg, 40, "%s", run_id);
	return 1;
}

static void test_blockmap(void **state)
{
	struct results_reader *r = open_ok(make_db());
	char id[40] = "";
	long gmin, gmax, nt;

	(void)state;
	/* the policy named first comes first; a failed run only by name */
	assert_int_equal(results_blockmap_runs(r, NULL, "vanilla", map_run, id), 1);
	assert_string_equal(id, "r1");
	assert_int_equal(results_blockmap_runs(r, NULL, NULL, map_run, id), 1);
	assert_string_equal(id, "r2");
	assert_int_equal(results_blockmap_runs(r, "f1", NULL, map_run, id), 1);
	assert_string_equal(id, "f1");
	assert_int_equal(results_blockmap_extent(r, "r1", &gmin, &gmax, &nt), 0);
	assert_true(gmin == 0 && gmax == 1 && nt == 1);
	assert_int_equal(results_blockmap_extent(r, "nosuch", &gmin, &gmax, &nt), 0);
	assert_int_equal(nt, 0);
	results_reader_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_refuses, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_runs, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_provenance, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_series, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_values, tr_setup, tr_teardown),
		cmocka_unit_test_setup_teardown(test_blockmap, tr_setup, tr_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
