/* test_compare.c - the cover letter's table from a hand-built database:
 * 2 policies x 2 seeds (and a failed run that must not count), numbers
 * chosen so that every rule shows: per-run ratios averaged (not the ratio
 * of the means), direct = total - daemon scanning, Alloc stall summed over
 * zones, and the percent column's formats. */
#include <math.h>
#include "tresults.h"
#include "metrics.h"
#include "mmsim/gfp.h"

struct counter {
	const char *name;
	int64_t v1, v2, h1, h2;         /* vanilla s1, s2; hygiene s1, s2 */
};

/* Expected means (vanilla / hygiene), by hand:
 *   THP fault fail rate %: v 10/(90+10)=10, 300/(100+300)=75 -> 42.50
 *     (the ratio of the means would be 155/250 = 62); h 1, 2 -> 1.50
 *   Direct compact success rate %: v 20/200=10, 20/100=20 -> 15.00
 *     (ratio of means 20/150 = 13.33); h 304/400=76, 304/608=50 -> 63.00
 *   Compact direct scanned migrate: v 1000-100, 2000-300 -> 1300; h 400, 200 -> 300
 *   Compact migrate scanned daemon %: v 10, 15 -> 12.50; h 60, 80 -> 70.00
 *   Compact free scanned daemon %: v 0/0 -> 0; h 50, 25 -> 37.50 (base 0: inf)
 *   Alloc stall: v 1+2+3+4=10, 10+20=30 -> 20; h 5, 1+2=3 -> 4 */
static const struct counter vmstat[] = {
	{ "thp_fault_alloc", 90, 100, 198, 196 },
	{ "thp_fault_fallback", 10, 300, 2, 4 },
	{ "compact_stall", 200, 100, 400, 608 },
	{ "compact_fail", 180, 80, 96, 304 },
	{ "compact_success", 20, 20, 304, 304 },
	{ "compact_daemon_migrate_scanned", 100, 300, 600, 800 },
	{ "compact_migrate_scanned", 1000, 2000, 1000, 1000 },
	{ "compact_daemon_free_scanned", 0, 0, 50, 50 },
	{ "compact_free_scanned", 0, 0, 100, 200 },
	{ "allocstall_dma", 1, 0, 0, 0 },
	{ "allocstall_dma32", 2, 10, 0, 1 },
	{ "allocstall_normal", 3, 20, 5, 2 },
	{ "allocstall_movable", 4, 0, 0, 0 },
	{ "pgscan_kswapd", 600, 200, 900, 900 },
	{ "pgsteal_kswapd", 300, 300, 330, 330 },
	{ "pgscan_direct", 400, 800, 100, 100 },
	/* pgsteal_direct: not recorded, reads as 0 */
	{ "pswpout", 0, 0, 0, 0 },
	{ "pswpin", 0, 0, 7, 7 },
	{ "workingset_refault_file", 1000, 3000, 500, 700 },
	{ "nr_free_pages", 1, 2, 3, 4 },         /* not a row: ignored */
};

static const struct {
	const char *name;
	double v1, v2, h1, h2;
} metrics[] = {
	{ "real_time", 100, 110, 106.22, 106.22 },
	{ "user_time", 1000, 1000, 1000, 1000 },
	{ "system_time", 400, 500, 300, 330 },
};

static const char *db_path;

static void add_run(struct results_db *db, const char *id, const char *policy, uint64_t seed,
                    const char *status, int which, const char *ram)
{
	struct run_record r = tr_run(id, policy, seed, status);

	assert_int_equal(results_add_run(db, &r), 0);
	assert_int_equal(results_add_param(db, id, "machine.ram", ram), 0);
	for (size_t i = 0; i < sizeof(vmstat) / sizeof(vmstat[0]); i++) {
		const struct counter *c = &vmstat[i];
		int64_t v = which == 0 ? c->v1 : which == 1 ? c->v2 : which == 2 ? c->h1
		          : which == 3 ? c->h2 : 999999;
		assert_int_equal(results_add_vmstat(db, id, c->name, v), 0);
	}
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		double v = which == 0 ? metrics[i].v1 : which == 1 ? metrics[i].v2
		         : which == 2 ? metrics[i].h1 : which == 3 ? metrics[i].h2 : 999999;
		assert_int_equal(results_add_metric(db, id, metrics[i].name, v), 0);
	}
}

static int setup(void **state)
{
	struct results_db *db;
	char err[512];

	if (tr_setup(state))
		return -1;
	db_path = tr_path("sweep.db");
	if (results_create(&db, db_path, err, sizeof(err)))
		return -1;
	/* hygiene first: the baseline's place must not come from the order
	 * of insertion */
	add_run(db, "h1", "hygiene", 1, "ok", 2, "1G");
	add_run(db, "h2", "hygiene", 2, "ok", 3, "2G");
	add_run(db, "h3", "hygiene", 3, "failed", 4, "1G");
	add_run(db, "v1", "vanilla", 1, "ok", 0, "1G");
	add_run(db, "v2", "vanilla", 2, "ok", 1, "2G");
	return results_commit(db, err, sizeof(err));
}

/* the table as text; NULL (and err set) on failure.  The fixture's RFC
 * runs ran on two RAM sizes (for --by machine.ram): its columns by
 * policy mix scenarios, which compare refuses unless allowed
 * (test_mixed_refused) */
static char *compare(const struct compare_opts *o, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_opts mixed = o ? *o : (struct compare_opts){ 0 };
	int rc;

	assert_non_null(f);
	mixed.allow_mixed = 1;
	rc = results_compare(f, db_path, &mixed, err, errlen);
	fclose(f);
	if (rc) {
		assert_int_equal(len, 0);       /* nothing printed on error */
		free(buf);
		return NULL;
	}
	return buf;
}

/* some line of text is exactly `expect` */
static void assert_line(const char *text, const char *expect)
{
	size_t n = strlen(expect);

	for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
		if (strcspn(p, "\n") == n && !strncmp(p, expect, n))
			return;
	fail_msg("no line\n'%s'\nin\n%s", expect, text);
}

/* a column whose runs ran different scenarios is an error naming the key
 * they differ in and the --by that separates them; nothing is printed */
static void test_mixed_refused(void **state)
{
	char err[512];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	(void)state;

	assert_non_null(f);
	assert_int_equal(results_compare(f, db_path, NULL, err, sizeof(err)), -1);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
	assert_non_null(strstr(err, "column hugealloc_rfc holds runs of different scenarios"));
	assert_non_null(strstr(err, "machine.ram=1G"));
	assert_non_null(strstr(err, "--by machine.ram"));
}

static void test_rows(void **state)
{
	char err[512];
	char *t = compare(NULL, err, sizeof(err));

	(void)state;
	if (!t)
		fail_msg("compare: %s", err);
	/* the runs stored the RFC policy's former name, "hygiene": they
	 * compare as the policy's name now */
	assert_line(t, "                                              HUGEALLOC-VANILLA HUGEALLOC-HUGEALLOC_RFC");
	assert_line(t, "Runs                                                          2                       2");
	assert_line(t, "Real time                                   105.00 (    +0.00%)     106.22 (    +1.16%)");
	assert_line(t, "User time                                  1000.00 (    +0.00%)    1000.00 (    +0.00%)");
	assert_line(t, "System time                                 450.00 (    +0.00%)     315.00 (   -30.00%)");
	assert_line(t, "THP fault alloc                              95.00 (    +0.00%)     197.00 (  +107.37%)");
	assert_line(t, "THP fault fail rate %                        42.50 (    +0.00%)       1.50 (   -96.47%)");
	assert_line(t, "Direct compact success                       20.00 (    +0.00%)     304.00 ( +1420.00%)");
	assert_line(t, "Direct compact success rate %                15.00 (    +0.00%)      63.00 (  +320.00%)");
	assert_line(t, "Compact direct scanned migrate             1300.00 (    +0.00%)     300.00 (   -76.92%)");
	assert_line(t, "Compact direct scanned free                   0.00 (    +0.00%)     100.00 (     +inf%)");
	assert_line(t, "Compact migrate scanned daemon %             12.50 (    +0.00%)      70.00 (  +460.00%)");
	assert_line(t, "Compact free scanned daemon %                 0.00 (    +0.00%)      37.50 (     +inf%)");
	assert_line(t, "Alloc stall                                  20.00 (    +0.00%)       4.00 (   -80.00%)");
	assert_line(t, "Pages scanned kswapd %                       40.00 (    +0.00%)      90.00 (  +125.00%)");
	assert_line(t, "Pages direct reclaimed                        0.00 (    +0.00%)       0.00 (    +0.00%)");
	assert_line(t, "Swap out                                      0.00 (    +0.00%)       0.00 (    +0.00%)");
	assert_line(t, "Swap in                                       0.00 (    +0.00%)       7.00 (     +inf%)");
	assert_line(t, "File refaults                              2000.00 (    +0.00%)     600.00 (   -70.00%)");
	free(t);
}

/* every row of the cover letter, in its order, and nothing else */
static void test_row_order(void **state)
{
	static const char *const names[] = {
		"Real time", "User time", "System time", "THP fault alloc", "THP fault fallback",
		"THP fault fail rate %", "Direct compact stall", "Direct compact fail",
		"Direct compact success", "Direct compact success rate %",
		"Compact daemon scanned migrate", "Compact daemon scanned free",
		"Compact direct scanned migrate", "Compact direct scanned free",
		"Compact migrate scanned daemon %", "Compact free scanned daemon %", "Alloc stall",
		"Pages kswapd scanned", "Pages kswapd reclaimed", "Pages direct scanned",
		"Pages direct reclaimed", "Pages scanned kswapd %", "Swap out", "Swap in",
		"File refaults", NULL,
	};
	char err[512];
	char *t = compare(NULL, err, sizeof(err)), *line, *save = NULL;
	int i = 0;

	(void)state;
	assert_non_null(t);
	line = strtok_r(t, "\n", &save);                /* the header */
	line = strtok_r(NULL, "\n", &save);             /* Runs */
	while ((line = strtok_r(NULL, "\n", &save))) {
		assert_non_null(names[i]);
		assert_int_equal(strncmp(line, names[i], strlen(names[i])), 0);
		assert_true(line[strlen(names[i])] == ' ');
		assert_int_equal(strlen(line), 40 + 23 + 24);
		i++;
	}
	assert_null(names[i]);
	free(t);
}

static void test_baseline_by_where(void **state)
{
	struct compare_opts o = { .baseline = "hygiene" };
	char err[512];
	char *t;

	(void)state;
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "                                        HUGEALLOC-HUGEALLOC_RFC       HUGEALLOC-VANILLA");
	assert_line(t, "Real time                                   106.22 (    +0.00%)     105.00 (    -1.15%)");
	free(t);

	/* a runs column: no "vanilla" among the values, the first sorts first */
	o = (struct compare_opts){ .by = "seed" };
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "                                                    HUGEALLOC-1             HUGEALLOC-2");
	assert_line(t, "Runs                                                          2                       2");
	/* (100 + 106.22) / 2 = 103.11, (110 + 106.22) / 2 = 108.11 */
	assert_line(t, "Real time                                   103.11 (    +0.00%)     108.11 (    +4.85%)");
	free(t);

	/* a params key */
	o = (struct compare_opts){ .by = "machine.ram", .baseline = "2G" };
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "                                                   HUGEALLOC-2G            HUGEALLOC-1G");
	assert_line(t, "Real time                                   108.11 (    +0.00%)     103.11 (    -4.62%)");
	free(t);

	o = (struct compare_opts){ .where = "seed = 1" };
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "Runs                                                          1                       1");
	assert_line(t, "Real time                                   100.00 (    +0.00%)     106.22 (    +6.22%)");
	assert_line(t, "THP fault fail rate %                        10.00 (    +0.00%)       1.00 (   -90.00%)");
	free(t);
}

static void test_spread(void **state)
{
	struct compare_opts o = { .spread = 1 };
	char err[512];
	char *t = compare(&o, err, sizeof(err));
	const char *p;

	(void)state;
	assert_non_null(t);
	p = strstr(t, "\nReal time ");
	assert_non_null(p);
	p = strchr(p + 1, '\n') + 1;
	assert_memory_equal(p, "  min..max                                  100.00 ..    110.00"
	                       "     106.22 ..    106.22\n", 88);
	p = strstr(t, "\nTHP fault fail rate % ");
	p = strchr(p + 1, '\n') + 1;
	assert_memory_equal(p, "  min..max                                   10.00 ..     75.00"
	                       "       1.00 ..      2.00\n", 88);
	free(t);
}

/* [run] iterations: a run of two iterations counts as the mean of its
 * iterations' rows, each computed from that iteration's counters (its
 * fail rate is (10 + 75) / 2 = 42.50, not 310 / 500 = 62 from the summed
 * vmstat rows); a run of one iteration (no iteration rows) as itself;
 * then the mean over runs.  --iteration-spread: min..max over all the
 * iterations. */
static void test_iterations(void **state)
{
	static const struct { const char *name; int64_t it1, it2, single; } c[] = {
		{ "thp_fault_alloc", 90, 100, 50 },
		{ "thp_fault_fallback", 10, 300, 50 },
	};
	const char *path = tr_path("iter.db");
	const char *saved = db_path;
	struct results_db *db;
	struct run_record r1 = tr_run("i1", "vanilla", 1, "ok"), r2 = tr_run("i2", "vanilla", 2, "ok");
	struct compare_opts o = { .iteration_spread = 1 };
	char err[512], *t;
	const char *p;

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r1), 0);
	assert_int_equal(results_add_run(db, &r2), 0);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(results_add_vmstat(db, "i1", c[i].name, c[i].it1 + c[i].it2), 0);
		assert_int_equal(results_add_iteration_vmstat(db, "i1", 1, c[i].name, c[i].it1), 0);
		assert_int_equal(results_add_iteration_vmstat(db, "i1", 2, c[i].name, c[i].it2), 0);
		assert_int_equal(results_add_vmstat(db, "i2", c[i].name, c[i].single), 0);
	}
	assert_int_equal(results_add_iteration(db, "i1", 1, 0, 100), 0);
	assert_int_equal(results_add_iteration(db, "i1", 2, 100, 300), 0);
	assert_int_equal(results_add_iteration_metric(db, "i1", 1, "real_time", 100), 0);
	assert_int_equal(results_add_iteration_metric(db, "i1", 2, "real_time", 200), 0);
	assert_int_equal(results_add_metric(db, "i1", "real_time", 200), 0);     /* the last's */
	assert_int_equal(results_add_metric(db, "i2", "real_time", 120), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);

	db_path = path;
	t = compare(&o, err, sizeof(err));
	db_path = saved;
	if (!t)
		fail_msg("compare: %s", err);
	assert_line(t, "Runs                                                          2");
	assert_line(t, "Real time                                   135.00 (    +0.00%)");
	assert_line(t, "THP fault alloc                              72.50 (    +0.00%)");
	assert_line(t, "THP fault fail rate %                        46.25 (    +0.00%)");
	p = strstr(t, "\nTHP fault fail rate % ");
	assert_non_null(p);
	p = strchr(p + 1, '\n') + 1;
	assert_memory_equal(p, "  min..max of iterations                     10.00 ..     75.00\n", 64);
	p = strstr(t, "\nReal time ");
	p = strchr(p + 1, '\n') + 1;
	assert_memory_equal(p, "  min..max of iterations                    100.00 ..    200.00\n", 64);
	free(t);
}

static void test_errors(void **state)
{
	struct compare_opts o = { .where = "no_such_column = 1" };
	char err[512] = "";
	const char *garbage = tr_path("garbage.db");

	(void)state;
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, db_path));
	assert_non_null(strstr(err, "no_such_column"));

	o.where = "1); DROP TABLE runs; SELECT (1";
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "--where"));
	assert_int_equal(tr_int(db_path, "SELECT count(*) FROM runs"), 5);
	/* closes the query early and starts a second statement */
	o.where = "1)) WHERE g IS NOT NULL; DELETE FROM runs; SELECT ((1";
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "--where"));
	assert_int_equal(tr_int(db_path, "SELECT count(*) FROM runs"), 5);
	o.where = "seed = 1; DELETE FROM runs";
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "one SQL expression"));

	/* --where cannot widen the status filter (issue 12): "1) OR (1" would
	 * have made it status = 'ok' AND (1) OR (1), every run, the failed
	 * one too; nor can a comment hide the closing parenthesis */
	o.where = "1) OR (1";
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "status filter"));
	o.where = "1 /* ) OR (1 */";
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "comment"));
	o.where = "1 -- ";
	assert_null(compare(&o, err, sizeof(err)));
	/* parentheses inside quotes are text, and balanced ones are fine */
	o.where = "(name <> ')' AND name <> 'it''s (') OR (seed = 2)";
	{
		char *t = compare(&o, err, sizeof(err));
		if (!t)
			fail_msg("%s", err);
		/* 2 + 2 runs: the failed run is still left out */
		assert_non_null(strstr(t, "Runs                                                          2"));
		free(t);
	}

	o.where = "seed > 100";
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "no runs"));

	o = (struct compare_opts){ .baseline = "tao" };
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "'tao'"));
	assert_non_null(strstr(err, "hugealloc_rfc, vanilla"));

	o = (struct compare_opts){ .by = "no.such.key" };
	assert_null(compare(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "no.such.key"));

	tr_write_file(garbage, "not a database at all, but long enough to look like one at first\n");
	assert_int_equal(results_compare(stdout, garbage, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, garbage));
	assert_int_equal(results_compare(stdout, tr_path("missing.db"), NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing.db"));
}

/* The statistics against a hand-computed example.  A = {2, 4, 6},
 * B = {8, 9, 13}:
 *   mean A = 4, sd A = sqrt((4 + 0 + 4) / 2) = 2
 *   mean B = 10, sd B = sqrt((4 + 1 + 9) / 2) = sqrt(7) = 2.6458
 *   t(0.975, df 2) = (2q - 1) / sqrt(2q(1 - q)), q = 0.975: 4.302653
 *   95 % CI A = 4 -+ 4.302653 * 2 / sqrt(3) = -0.97 .. 8.97
 *   95 % CI B = 10 -+ 4.302653 * sqrt(7) / sqrt(3) = 3.43 .. 16.57
 *   Welch: sA^2/nA = 4/3, sB^2/nB = 7/3, se = sqrt(11/3) = 1.914854
 *     t = 6 / 1.914854 = 3.133
 *     df = (11/3)^2 / ((4/3)^2 / 2 + (7/3)^2 / 2) = 121/9 / (65/18) = 3.72
 *     p = I_{df / (df + t^2)}(df / 2, 1 / 2) (two-sided) = 0.0387 < 0.05 */
static void test_stats_by_hand(void **state)
{
	static const double a[] = { 2, 4, 6 }, b[] = { 8, 9, 13 };
	struct results_summary sa, sb, s1;
	struct results_welch w;
	char buf[256];

	(void)state;
	results_summarize(a, 3, &sa);
	results_summarize(b, 3, &sb);
	snprintf(buf, sizeof(buf), "%.2f %.2f %.2f %.2f", sa.mean, sa.sd, sa.ci_lo, sa.ci_hi);
	assert_string_equal(buf, "4.00 2.00 -0.97 8.97");
	snprintf(buf, sizeof(buf), "%.2f %.4f %.2f %.2f", sb.mean, sb.sd, sb.ci_lo, sb.ci_hi);
	assert_string_equal(buf, "10.00 2.6458 3.43 16.57");
	results_welch_test(&sa, &sb, &w);
	assert_true(w.valid);
	snprintf(buf, sizeof(buf), "%.3f %.2f %.4f %d", w.t, w.df, w.p, w.significant);
	assert_string_equal(buf, "3.133 3.72 0.0387 1");
	/* one seed: no spread, no interval, no test */
	results_summarize(a, 1, &s1);
	assert_true(isnan(s1.sd) && isnan(s1.ci_lo));
	results_welch_test(&s1, &sb, &w);
	assert_false(w.valid);
	/* no spread on either side: equal means are no difference */
	{
		static const double c[] = { 5, 5, 5 };
		struct results_summary sc;
		results_summarize(c, 3, &sc);
		results_welch_test(&sc, &sc, &w);
		assert_true(w.valid && w.p == 1 && !w.significant);
	}
}

/* The same numbers through the table: real_time per seed A for vanilla,
 * B for hygiene, where vanilla's seed 3 is a run of two iterations (5 and
 * 7: the seed's value is their mean, 6) and hygiene's seed 1 has two runs
 * (7 and 9: the seed's value is 8), so the seed is the unit of
 * replication.  The default table has no marks and no extra lines;
 * --stats marks the significant change as compare-kernels does. */
static void test_stats_table(void **state)
{
	const char *path = tr_path("stats.db");
	const char *saved = db_path;
	struct results_db *db;
	struct compare_opts o = { .stats = 1 };
	static const struct { const char *id, *pol; int seed; double rt; } runs[] = {
		{ "a1", "vanilla", 1, 2 }, { "a2", "vanilla", 2, 4 }, { "a3", "vanilla", 3, 6 },
		{ "b1", "hygiene", 1, 7 }, { "b1x", "hygiene", 1, 9 }, { "b2", "hygiene", 2, 9 },
		{ "b3", "hygiene", 3, 13 },
	};
	char err[512], *t;
	const char *p;

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct run_record r = tr_run(runs[i].id, runs[i].pol, (uint64_t)runs[i].seed, "ok");
		assert_int_equal(results_add_run(db, &r), 0);
		assert_int_equal(results_add_metric(db, runs[i].id, "real_time", runs[i].rt), 0);
	}
	assert_int_equal(results_add_iteration(db, "a3", 1, 0, 5), 0);
	assert_int_equal(results_add_iteration(db, "a3", 2, 5, 12), 0);
	assert_int_equal(results_add_iteration_metric(db, "a3", 1, "real_time", 5), 0);
	assert_int_equal(results_add_iteration_metric(db, "a3", 2, "real_time", 7), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);

	db_path = path;
	t = compare(&(struct compare_opts){ 0 }, err, sizeof(err));
	assert_non_null(t);
	/* the cover letter's mean is over the runs: (7 + 9 + 9 + 13) / 4 */
	assert_line(t, "Real time                                     4.00 (    +0.00%)       9.50 (  +137.50%)");
	assert_null(strstr(t, "stddev"));
	assert_null(strchr(t, '*'));
	free(t);

	t = compare(&o, err, sizeof(err));
	db_path = saved;
	if (!t)
		fail_msg("compare: %s", err);
	assert_line(t, "Real time                                     4.00 (    +0.00%)       9.50 *  +137.50%*");
	p = strstr(t, "\nReal time ");
	assert_non_null(p);
	p = strchr(p + 1, '\n') + 1;
	assert_memory_equal(p,
		"  stddev over seeds                           2.00                    2.65             \n"
		"  95% CI of the mean                         -0.97 ..      8.97       3.43 ..     16.57\n"
		"  Welch t, df                                                        3.133 df      3.72\n"
		"  Welch p (two-sided)                                               0.0387  significant\n",
		4 * 88);
	/* a row without spread on both sides and the same value: no mark */
	assert_line(t, "User time                                     0.00 (    +0.00%)       0.00 (    +0.00%)");
	free(t);
}

/* The zero-denominator rule: a run without compact stalls has a success
 * rate of 0 and counts in the mean, in the table's per-seed values and in
 * results_run_values() (what the sweep plot and the report read) alike. */
static int collect(void *arg, const char *run_id, const double *x)
{
	if (!strcmp(run_id, "v2"))
		*(double *)arg = x[results_metric_find("Direct compact success rate %")];
	return 0;
}

static void test_zero_denominator(void **state)
{
	const char *path = tr_path("zero.db");
	struct results_db *db;
	struct run_record r1 = tr_run("v1", "vanilla", 1, "ok"), r2 = tr_run("v2", "vanilla", 2, "ok");
	struct compare_opts o = { .format = RESULTS_FMT_VALUES };
	const char *saved = db_path;
	double x = -1;
	char err[512], *t;

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &r1), 0);
	assert_int_equal(results_add_run(db, &r2), 0);
	assert_int_equal(results_add_vmstat(db, "v1", "compact_stall", 10), 0);
	assert_int_equal(results_add_vmstat(db, "v1", "compact_success", 5), 0);
	assert_int_equal(results_add_vmstat(db, "v2", "compact_stall", 0), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);
	db_path = path;
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "Direct compact success rate %,vanilla,1,50");
	assert_line(t, "Direct compact success rate %,vanilla,2,0");
	free(t);
	o = (struct compare_opts){ 0 };
	t = compare(&o, err, sizeof(err));
	db_path = saved;
	assert_non_null(t);
	assert_line(t, "Direct compact success rate %                25.00 (    +0.00%)");
	free(t);
	assert_int_equal(results_run_values(path, collect, &x, err, sizeof(err)), 0);
	assert_true(x == 0);
}

/* A build its measured window cut short records real_time -1: the run
 * has no Real time, and the row leaves it out (mean of the others, not
 * their mean with -1 averaged in); the run's other rows still count.  A
 * column none of whose runs measured the row prints "n/a". */
static void test_cut_short(void **state)
{
	const char *path = tr_path("cut.db");
	struct results_db *db;
	struct run_record v1 = tr_run("v1", "vanilla", 1, "ok"), v2 = tr_run("v2", "vanilla", 2, "ok"),
	                  h1 = tr_run("h1", "hugealloc_rfc", 1, "ok");
	struct compare_opts o = { .spread = 1 };
	const char *saved = db_path;
	char err[512], *t;

	(void)state;
	assert_int_equal(results_create(&db, path, err, sizeof(err)), 0);
	assert_int_equal(results_add_run(db, &v1), 0);
	assert_int_equal(results_add_run(db, &v2), 0);
	assert_int_equal(results_add_run(db, &h1), 0);
	assert_int_equal(results_add_metric(db, "v1", "real_time", 100), 0);
	assert_int_equal(results_add_metric(db, "v2", "real_time", -1), 0);
	assert_int_equal(results_add_metric(db, "h1", "real_time", -1), 0);
	assert_int_equal(results_add_metric(db, "v1", "user_time", 10), 0);
	assert_int_equal(results_add_metric(db, "v2", "user_time", 30), 0);
	assert_int_equal(results_add_metric(db, "h1", "user_time", 40), 0);
	assert_int_equal(results_commit(db, err, sizeof(err)), 0);
	db_path = path;
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "Real time                                   100.00 (    +0.00%)        n/a (        - )");
	assert_line(t, "  min..max                                  100.00 ..    100.00          -             ");
	assert_line(t, "User time                                    20.00 (    +0.00%)      40.00 (  +100.00%)");
	free(t);
	o = (struct compare_opts){ .format = RESULTS_FMT_VALUES };
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "Real time,vanilla,1,100");
	assert_line(t, "Real time,vanilla,2,");
	free(t);
	db_path = saved;
}

/* every output carries the same numbers: CSV and JSON of the fixture */
static void test_formats(void **state)
{
	struct compare_opts o = { .format = RESULTS_FMT_CSV };
	char err[512], *t;

	(void)state;
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_line(t, "metric,unit,column,runs,seeds,mean,change_pct,min,max,sd,ci95_lo,ci95_hi,"
	               "welch_t,welch_df,welch_p,significant");
	assert_non_null(strstr(t, "\nTHP fault fail rate %,%,vanilla,2,2,42.5,0,10,75,"));
	assert_non_null(strstr(t, "\nTHP fault fail rate %,%,hugealloc_rfc,2,2,1.5,"));
	free(t);
	o.format = RESULTS_FMT_JSON;
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_non_null(strstr(t, "\"name\": \"THP fault fail rate %\", \"unit\": \"%\""));
	assert_non_null(strstr(t, "\"mean\": 42.5, \"change_pct\": 0"));
	assert_non_null(strstr(t, "\"per_seed\": [10, 75]"));
	free(t);
	o.format = RESULTS_FMT_HTML;
	t = compare(&o, err, sizeof(err));
	assert_non_null(t);
	assert_non_null(strstr(t, "data-column=\"hugealloc_rfc\">1.50</td>"));
	free(t);
}

/* The wake rows' sources: a tracepoint's metric at one order adds to
 * its range's source; the orders no row counts, and names that only look
 * like one, add to none. */
static void test_src_bucket(void **state)
{
	(void)state;
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order0"), SRC_WAKEUP_KSWAPD_O0);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order1"), SRC_WAKEUP_KSWAPD_O1_8);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order8"), SRC_WAKEUP_KSWAPD_O1_8);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order9"), SRC_WAKEUP_KSWAPD_O9_10);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order10"), SRC_WAKEUP_KSWAPD_O9_10);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order11"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_kswapd_wake_order0"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_kswapd_wake_order3"), SRC_KSWAPD_WAKE_O1_10);
	assert_int_equal(results_src_bucket("mm_compaction_wakeup_kcompactd_order0"), SRC_WAKEUP_KCOMPACTD);
	assert_int_equal(results_src_bucket("mm_compaction_wakeup_kcompactd_order9"), SRC_WAKEUP_KCOMPACTD);
	assert_int_equal(results_src_bucket("mm_compaction_kcompactd_wake_order9"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_direct_reclaim_begin_order0"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_direct_reclaim_begin_order2"), SRC_DIRECT_RECLAIM_O1_10);
	assert_int_equal(results_src_bucket("mm_compaction_try_to_compact_pages_order3"), SRC_TRY_TO_COMPACT_O1_8);
	assert_int_equal(results_src_bucket("mm_compaction_try_to_compact_pages_order9"), SRC_TRY_TO_COMPACT_O9_10);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order3x"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd_order-1"), -1);
	assert_int_equal(results_src_bucket("mm_vmscan_wakeup_kswapd"), -1);
	assert_int_equal(results_src_bucket("pageoutrun"), -1);
	assert_int_equal(results_rows_group("wakes"), RESULTS_ROWS_WAKES);
	assert_string_equal(results_rows_group_name(RESULTS_ROWS_WAKES), "wakes");
}

/* The classes of a request's gfp_flags: the import reads them off the
 * names a real trace prints (the lines of the traced series' wakes.tsv),
 * the model off the bits; the two must agree on the same request. */
static void test_gfp_class(void **state)
{
	static const struct {
		const char *printed;
		gfp_t gfp;
		int class;
	} c[] = {
		/* the streamer's and xz's readahead under memalloc_nofs_save() */
		{ "GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP|__GFP_HARDWALL;priority=2",
		  (GFP_HIGHUSER_MOVABLE & ~__GFP_FS) | __GFP_NOWARN | __GFP_NORETRY | __GFP_COMP, TRACE_GFP_READAHEAD },
		/* the THP faulter's first, local-only try and its second */
		{ "GFP_TRANSHUGE|__GFP_NORETRY|__GFP_THISNODE", GFP_TRANSHUGE | __GFP_NORETRY | __GFP_THISNODE,
		  TRACE_GFP_THP },
		{ "GFP_TRANSHUGE", GFP_TRANSHUGE, TRACE_GFP_THP },
		{ "GFP_TRANSHUGE_LIGHT;priority=2", GFP_TRANSHUGE_LIGHT, TRACE_GFP_THP },
		/* the linker's write folios */
		{ "GFP_HIGHUSER_MOVABLE|__GFP_WRITE|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP",
		  GFP_HIGHUSER_MOVABLE | __GFP_WRITE | __GFP_NOWARN | __GFP_NORETRY | __GFP_COMP, TRACE_GFP_WRITE },
		/* kernel memory; a slab's high order (__GFP_NORETRY, not movable) */
		{ "GFP_KERNEL", GFP_KERNEL, TRACE_GFP_OTHER },
		{ "GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP", GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY | __GFP_COMP,
		  TRACE_GFP_OTHER },
		{ "GFP_HIGHUSER_MOVABLE", GFP_HIGHUSER_MOVABLE, TRACE_GFP_OTHER },
		/* a name that only contains another */
		{ "__GFP_WRITEX|GFP_KERNEL", GFP_KERNEL, TRACE_GFP_OTHER },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(results_gfp_class_of(c[i].printed), c[i].class);
		assert_int_equal(gfp_trace_class(c[i].gfp), c[i].class);
	}
	for (int k = 0; k < NR_TRACE_GFP_CLASSES; k++)
		assert_string_equal(results_gfp_classes[k], trace_gfp_class_names[k]);
	assert_true(results_trace_event_has_gfp("mm_compaction_try_to_compact_pages"));
	assert_false(results_trace_event_has_gfp("mm_compaction_wakeup_kcompactd"));
	assert_int_equal(results_src_find("mm_compaction_try_to_compact_pages_gfp_readahead", 0),
	                 SRC_TRY_TO_COMPACT_READAHEAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_gfp_class),
		cmocka_unit_test(test_mixed_refused),
		cmocka_unit_test(test_row_order),
		cmocka_unit_test(test_baseline_by_where),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_iterations),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_stats_by_hand),
		cmocka_unit_test(test_stats_table),
		cmocka_unit_test(test_zero_denominator),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_src_bucket),
	};
	return cmocka_run_group_tests(tests, setup, tr_teardown);
}
