/* test_import_real.c - mmsim import (results/import_real.c) on the
 * fixture tests/fixtures/real/series: copies of this development
 * machine's /proc files with hand-written provenance, times and status.
 * The stored values are checked against the files as this test reads
 * them itself (the vmstat deltas recomputed here), a second import adds
 * nothing, malformed files are refused with the exact message, real runs
 * are columns of the compare table (real:POLICY, as the baseline too, n/a
 * where a real kernel lacks a counter), and a file of schema version 2 is
 * still read and merged. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <math.h>
#include "tresults.h"
#include "import_real.h"

#define SERIES MMSIM_SOURCE_DIR "/tests/fixtures/real/series"
#define RUN1 SERIES "/runs/0001-dm0"
#define ID1 "real-bd5cd560c27b81a3"     /* FNV-1a of run 1's started_at, label, release */
/* the query of run ID1's metric NAME */
#define METRIC1(name) "SELECT value FROM metrics WHERE run_id = '" ID1 "' AND name = '" name "'"

/* ------------------------------------------------------------------ */
/* helpers */

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb; (void)flag; (void)f;
	return remove(path);
}

/* the scratch directory may hold directories (copied runs): remove all */
static int teardown(void **state)
{
	(void)state;
	nftw(tr_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	for (int ch; (ch = fgetc(f)) != EOF;)
		fputc(ch, m);
	fclose(m);
	fclose(f);
	return buf;
}

/* the flat run directory src copied to the scratch directory as name */
static const char *copy_run(const char *src, const char *name)
{
	static const char *const files[] = {
		"provenance", "status", "times", "samples.tsv", "faulter.log",
		"vmstat.before", "vmstat.after", "pagetypeinfo.before", "pagetypeinfo.after",
		"buddyinfo.before", "buddyinfo.after", "zoneinfo.before", "zoneinfo.after",
		"meminfo.before", "meminfo.after", NULL,
	};
	const char *dst = tr_path(name);
	char from[512], to[512];

	assert_int_equal(mkdir(dst, 0755), 0);
	for (const char *const *f = files; *f; f++) {
		char *text;
		snprintf(from, sizeof(from), "%s/%s", src, *f);
		if (!(text = slurp(from)))
			continue;
		snprintf(to, sizeof(to), "%s/%s", dst, *f);
		tr_write_file(to, text);
		free(text);
	}
	return dst;
}

/* in dir/file, replace the first occurrence of old by new */
static void edit(const char *dir, const char *file, const char *old, const char *new)
{
	char path[512], *text, *at;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = slurp(path);
	assert_non_null(text);
	at = strstr(text, old);
	if (!at)
		fail_msg("%s: no '%s'", path, old);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(text, 1, (size_t)(at - text), f);
	fputs(new, f);
	fputs(at + strlen(old), f);
	fclose(f);
	free(text);
}

/* the line number of the line of dir/file that starts with prefix */
static unsigned line_of(const char *dir, const char *file, const char *prefix)
{
	char path[512], line[4096];
	unsigned no = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_non_null(f = fopen(path, "r"));
	while (fgets(line, sizeof(line), f)) {
		no++;
		if (!strncmp(line, prefix, strlen(prefix))) {
			fclose(f);
			return no;
		}
	}
	fclose(f);
	fail_msg("%s: no line '%s'", path, prefix);
	return 0;
}

/* /proc/vmstat as this test reads it: name and value per line */
struct vm {
	char name[64];
	unsigned long long v;
};

static size_t read_vmstat(const char *path, struct vm *out, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	assert_non_null(f);
	while (n < max && fscanf(f, "%63s %llu", out[n].name, &out[n].v) == 2)
		n++;
	fclose(f);
	return n;
}

static int import(const char *dir, const char *out, struct import_summary *sum, char *err,
                  size_t errlen)
{
	return (int)results_import_real(dir, out, "test", sum, NULL, err, errlen);
}

static double tr_real(const char *path, const char *sql)
{
	sqlite3 *db = tr_open(path);
	sqlite3_stmt *st;
	double v;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static char *tr_text(const char *path, const char *sql)
{
	sqlite3 *db = tr_open(path);
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void assert_text(const char *db, const char *sql, const char *expected)
{
	char *v = tr_text(db, sql);
	if (!v || strcmp(v, expected))
		fail_msg("%s: '%s', expected '%s'", sql, v ? v : "(null)", expected);
	free(v);
}

/* ------------------------------------------------------------------ */

/* The import of the series yields exactly what its files hold. */
static void test_values(void **state)
{
	const char *db = tr_path("real.db");
	struct import_summary sum;
	struct vm before[512], after[512];
	size_t nb, na, counters = 0;
	char err[1024], sql[1024], *text;
	FILE *f;
	char line[512];
	int rows = 0;

	(void)state;
	assert_int_equal(import(SERIES, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_int_equal(sum.runs, 3);          /* 0001 ok, 0002 ok, 0003 invalid */
	assert_int_equal(sum.failed, 1);
	assert_int_equal(sum.incomplete, 1);    /* 0004: no status */
	assert_int_equal(sum.added, 3);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM runs"), 3);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM runs WHERE source = 'real'"), 3);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM runs WHERE name = 'real-dm1-s4'"), 0);

	/* the runs row */
	assert_text(db, "SELECT run_id FROM runs WHERE seed = 1", ID1);
	assert_text(db, "SELECT name || ' ' || policy || ' ' || workload || ' ' || status || ' '"
	                " || git_commit || ' ' || started_at || ' ' || finished_at"
	                " FROM runs WHERE run_id = '" ID1 "'",
	            "real-dm0-s1 v6_15 kbuild+thp_faulter ok v0.1-fixture 2026-12-05T01:32:10Z"
	            " 2026-12-05T01:32:15Z");
	assert_text(db, "SELECT policy FROM runs WHERE seed = 2", "defrag_mode");
	assert_text(db, "SELECT status || ': ' || error FROM runs WHERE seed = 3",
	            "failed: watchdog breach: MemAvailable below the limit, group killed");
	assert_true(isnan(tr_real(db, "SELECT wall_seconds FROM runs WHERE seed = 3")));
	assert_true(isnan(tr_real(db, "SELECT sim_seconds FROM runs WHERE seed = 1")));
	assert_true(tr_real(db, "SELECT wall_seconds FROM runs WHERE seed = 1") == 4.46);
	text = slurp(RUN1 "/provenance");
	{
		char *config = tr_text(db, "SELECT config FROM runs WHERE run_id = '" ID1 "'");
		assert_string_equal(config, text);
		free(config);
	}
	/* params: one per provenance line, real.KEY */
	f = fopen(RUN1 "/provenance", "r");
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');
		line[strcspn(line, "\n")] = '\0';
		*eq = '\0';
		snprintf(sql, sizeof(sql), "SELECT value FROM params WHERE run_id = '" ID1 "'"
		         " AND key = 'real.%.200s'", line);
		assert_text(db, sql, eq + 1);
		rows++;
	}
	fclose(f);
	free(text);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM params WHERE run_id = '" ID1 "'"), rows);

	/* vmstat: after - before, recomputed here; every counter stored, no
	 * gauge (nr_* but the growing ones, workingset_nodes) */
	nb = read_vmstat(RUN1 "/vmstat.before", before, 512);
	na = read_vmstat(RUN1 "/vmstat.after", after, 512);
	assert_int_equal(nb, na);
	assert_true(nb > 100);
	for (size_t i = 0; i < na; i++) {
		int gauge = (!strncmp(after[i].name, "nr_", 3) && strcmp(after[i].name, "nr_dirtied") &&
		             strcmp(after[i].name, "nr_written") && strcmp(after[i].name, "nr_vmscan_write") &&
		             strcmp(after[i].name, "nr_vmscan_immediate_reclaim") &&
		             strcmp(after[i].name, "nr_throttled_written") &&
		             strcmp(after[i].name, "nr_foll_pin_acquired") &&
		             strcmp(after[i].name, "nr_foll_pin_released")) ||
		            !strcmp(after[i].name, "workingset_nodes");
		assert_string_equal(before[i].name, after[i].name);
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM vmstat WHERE run_id = '" ID1 "'"
		         " AND name = '%.60s'", after[i].name);
		assert_int_equal(tr_int(db, sql), !gauge);
		if (gauge)
			continue;
		snprintf(sql, sizeof(sql), "SELECT value FROM vmstat WHERE run_id = '" ID1 "'"
		         " AND name = '%.60s'", after[i].name);
		assert_int_equal(tr_int(db, sql), (int64_t)(after[i].v - before[i].v));
		counters++;
	}
	assert_int_equal(tr_int(db, "SELECT count(*) FROM vmstat WHERE run_id = '" ID1 "'"), counters);
	/* the fixture's counters moved: a delta of 0 everywhere would prove little */
	assert_true(tr_int(db, "SELECT value FROM vmstat WHERE run_id = '" ID1 "' AND name = 'pgfault'") > 1000);
	/* the invalid run has no after files: no counters */
	assert_int_equal(tr_int(db, "SELECT count(*) FROM vmstat v JOIN runs r USING (run_id)"
	                            " WHERE r.seed = 3"), 0);

	/* metrics from times */
	assert_true(tr_real(db, "SELECT value FROM metrics WHERE run_id = '" ID1 "' AND name = 'real_time'") == 4.46);
	assert_true(tr_real(db, "SELECT value FROM metrics WHERE run_id = '" ID1 "' AND name = 'user_time'") == 1.23);
	assert_true(tr_real(db, "SELECT value FROM metrics WHERE run_id = '" ID1 "' AND name = 'system_time'") == 0.85);
	/* the invalid run has no times; its samples give it the median of free memory only */
	assert_int_equal(tr_int(db, "SELECT count(*) FROM metrics m JOIN runs r USING (run_id) WHERE r.seed = 3"
	                            " AND m.name != 'nr_free_pages_median'"), 0);

	/* samples: every value of samples.tsv, under its column's name */
	f = fopen(RUN1 "/samples.tsv", "r");
	assert_non_null(fgets(line, sizeof(line), f));  /* the header */
	rows = 0;
	while (fgets(line, sizeof(line), f)) {
		double t, v[9];
		assert_int_equal(sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &t, &v[0], &v[1],
		                        &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]), 10);
		snprintf(sql, sizeof(sql), "SELECT value FROM samples WHERE run_id = '" ID1 "'"
		         " AND name = 'nr_free_pages' AND t = %.17g", t);
		assert_true(tr_real(db, sql) == v[0]);
		snprintf(sql, sizeof(sql), "SELECT value FROM samples WHERE run_id = '" ID1 "'"
		         " AND name = 'MemAvailable_kB' AND t = %.17g", t);
		assert_true(tr_real(db, sql) == v[7]);
		rows++;
	}
	fclose(f);
	assert_int_equal(rows, 4);
	/* the median of nr_free_pages over the samples (4: the mean of the middle two) */
	{
		double fp[4], med;
		int n = 0;
		f = fopen(RUN1 "/samples.tsv", "r");
		assert_non_null(fgets(line, sizeof(line), f));
		while (n < 4 && fgets(line, sizeof(line), f))
			assert_int_equal(sscanf(line, "%*f %lf", &fp[n++]), 1);
		fclose(f);
		for (int i = 0; i < 4; i++)             /* sort the four */
			for (int j = i + 1; j < 4; j++)
				if (fp[j] < fp[i]) {
					double x = fp[i];
					fp[i] = fp[j], fp[j] = x;
				}
		med = (fp[1] + fp[2]) / 2;
		assert_true(tr_real(db, METRIC1("nr_free_pages_median")) == med);
	}
	assert_int_equal(tr_int(db, "SELECT count(*) FROM samples WHERE run_id = '" ID1 "'"), rows * 9);

	/* snapshots: the /proc files verbatim */
	{
		static const char *const names[] = { "pagetypeinfo.before", "buddyinfo.after",
		                                     "zoneinfo.before", "meminfo.after", "vmstat.after",
		                                     "faulter.log", NULL };
		for (const char *const *n = names; *n; n++) {
			char path[512], *want, *got;
			snprintf(path, sizeof(path), "%s/%s", RUN1, *n);
			want = slurp(path);
			snprintf(sql, sizeof(sql), "SELECT text FROM snapshots WHERE run_id = '" ID1 "'"
			         " AND name = '%s'", *n);
			got = tr_text(db, sql);
			assert_non_null(want);
			assert_non_null(got);
			assert_string_equal(got, want);
			free(want);
			free(got);
		}
	}
	assert_int_equal(tr_int(db, "SELECT count(*) FROM snapshots WHERE run_id = '" ID1 "'"), 11);
}

/* A second import of the same directory, and of one of its runs alone,
 * adds nothing and changes nothing. */
static void test_idempotent(void **state)
{
	const char *db = tr_path("real.db");
	struct import_summary sum;
	char err[1024];
	int64_t rows;

	(void)state;
	assert_int_equal(import(SERIES, db, &sum, err, sizeof(err)), IMPORT_OK);
	rows = tr_int(db, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM vmstat) +"
	                  " (SELECT count(*) FROM samples) + (SELECT count(*) FROM snapshots) +"
	                  " (SELECT count(*) FROM params) + (SELECT count(*) FROM metrics)");
	assert_int_equal(import(SERIES, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_int_equal(sum.runs, 3);
	assert_int_equal(sum.added, 0);
	assert_int_equal(import(RUN1, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_int_equal(sum.runs, 1);
	assert_int_equal(sum.added, 0);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM runs"), 3);
	assert_int_equal(tr_int(db, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM vmstat) +"
	                            " (SELECT count(*) FROM samples) + (SELECT count(*) FROM snapshots) +"
	                            " (SELECT count(*) FROM params) + (SELECT count(*) FROM metrics)"),
	                 rows);
}

/* Each malformed input is refused with a message naming the file, the
 * line and the key, of the right kind, and nothing is written. */
static void test_malformed(void **state)
{
	struct {
		const char *file, *old, *new;   /* the edit (file NULL: remove old) */
		enum import_error kind;
		const char *msg;                /* after "DIR/"; %u: the line of `line` in file */
		const char *line;
	} cases[] = {
		{ "vmstat.after", "\npgfault ", "\npgfault x", IMPORT_BADINPUT,
		  "vmstat.after:%u: pgfault: 'x", "pgfault" },
		{ "vmstat.after", "\npgfault ", "\npgfault 1\npgfault_x ", IMPORT_BADINPUT,
		  "vmstat.after:%u: pgfault: 1 is less than ", "pgfault " },
		{ "vmstat.after", "\nthp_fault_alloc ", "\nthp_fault_alloc 1 2\nx ", IMPORT_BADINPUT,
		  "vmstat.after:%u: expected 'name value' as in /proc/vmstat, got 'thp_fault_alloc 1 2'",
		  "thp_fault_alloc" },
		{ "vmstat.after", "\npswpin ", "\npswpin_gone ", IMPORT_BADINPUT,
		  "vmstat.before:%u: pswpin: not in ", "pswpin " },
		{ "times", "user=1.23", "user=abc", IMPORT_BADINPUT,
		  "times:1: user: 'abc' is not a number of seconds", NULL },
		{ "times", " exit=0", "", IMPORT_BADINPUT,
		  "times:1: expected 'real=SECONDS user=SECONDS sys=SECONDS exit=CODE', got"
		  " 'real=4.46 user=1.23 sys=0.85'", NULL },
		{ "times", "exit=0", "exit=2", IMPORT_BADINPUT, "times:1: exit: 2, but ", NULL },
		{ "times", NULL, NULL, IMPORT_NOINPUT, "times: No such file or directory", NULL },
		{ "vmstat.before", NULL, NULL, IMPORT_NOINPUT, "vmstat.before: No such file or directory",
		  NULL },
		{ "provenance", "policy=v6_15", "policy=v6_16", IMPORT_BADINPUT,
		  "provenance:%u: policy: 'v6_16' is not a policy of the model (valid: ", "policy=" },
		{ "provenance", "policy=v6_15\n", "", IMPORT_BADINPUT, "provenance: key 'policy' missing",
		  NULL },
		{ "provenance", "run.seq=1", "run.seq=one", IMPORT_BADINPUT,
		  "provenance:%u: run.seq: 'one' is not a run number", "run.seq=" },
		{ "provenance", "cpu.count=2", "CPU count", IMPORT_BADINPUT,
		  "provenance:%u: expected key=value, got 'CPU count'", "CPU count" },
		{ "provenance", "cpu.count=2", "cpu.Count=2", IMPORT_BADINPUT,
		  "provenance:%u: key 'cpu.Count': keys are lowercase", "cpu.Count" },
		{ "samples.tsv", "\n2.112\t880237\t", "\n2.112\t880237\t1\t", IMPORT_BADINPUT,
		  "samples.tsv:%u: more fields, the header has 10", "2.112" },
		{ "samples.tsv", "\n2.112\t880237\t", "\n2.112\t88o237\t", IMPORT_BADINPUT,
		  "samples.tsv:%u: nr_free_pages: '88o237' is not a number", "2.112" },
		{ "samples.tsv", "\n3.304\t", "\n2.000\t", IMPORT_BADINPUT,
		  "samples.tsv:%u: t: 2.000 is not after the line before's 2.112", "2.000" },
		{ "status", "ok", "done", IMPORT_BADINPUT,
		  "status:1: expected 'ok' or 'invalid REASON', got 'done'", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32], dbname[40], want[1024], err[1024], path[512];
		struct import_summary sum;
		const char *dir, *db;
		int kind;

		snprintf(name, sizeof(name), "run%zu", i);
		dir = copy_run(RUN1, name);
		snprintf(dbname, sizeof(dbname), "%s.db", name);
		db = tr_path(dbname);
		if (cases[i].old) {
			edit(dir, cases[i].file, cases[i].old, cases[i].new);
		} else {
			snprintf(path, sizeof(path), "%s/%s", dir, cases[i].file);
			assert_int_equal(unlink(path), 0);
		}
		/* the line is looked up in the file the message names first */
		snprintf(path, sizeof(path), "%.*s", (int)strcspn(cases[i].msg, ":"), cases[i].msg);
		snprintf(want, sizeof(want), "%s/", dir);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), cases[i].msg,
		         cases[i].line ? line_of(dir, path, cases[i].line) : 0);
		kind = import(dir, db, &sum, err, sizeof(err));
		if (kind != (int)cases[i].kind || strncmp(err, want, strlen(want)))
			fail_msg("case %zu: kind %d, '%s'; expected %d, '%s...'", i, kind, err,
			         (int)cases[i].kind, want);
		assert_false(tr_exists(db));    /* nothing written */
	}
}

/* The exact messages of a few, in full. */
static void test_messages(void **state)
{
	const char *dir = copy_run(RUN1, "run"), *db = tr_path("run.db");
	struct import_summary sum;
	char err[1024], want[1024];
	unsigned no;

	(void)state;
	/* a counter that goes backwards: the file, its line, the counter */
	edit(dir, "vmstat.after", "\npgmajfault ", "\npgmajfault 0\nx_pgmajfault ");
	no = line_of(dir, "vmstat.after", "pgmajfault ");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	{
		struct vm b[512];
		size_t n = read_vmstat(RUN1 "/vmstat.before", b, 512), k;
		for (k = 0; k < n && strcmp(b[k].name, "pgmajfault"); k++)
			;
		assert_true(k < n && b[k].v > 0);
		snprintf(want, sizeof(want), "%s/vmstat.after:%u: pgmajfault: 0 is less than %llu in"
		         " %s/vmstat.before: a counter cannot go backwards", dir, no, b[k].v, dir);
	}
	assert_string_equal(err, want);
	/* a counter given twice: named, after the counters were freed (the
	 * ASan pass checks the message is read before the free) */
	edit(dir, "vmstat.after", "\npgmajfault 0\n", "\npgfault 1\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	assert_non_null(strstr(err, ": pgfault: given twice"));
	/* a directory that is neither */
	assert_int_equal(import(tr_dir, db, &sum, err, sizeof(err)), IMPORT_NOINPUT);
	snprintf(want, sizeof(want), "%s: neither a run directory (no provenance) nor a series"
	         " (no runs/)", tr_dir);
	assert_string_equal(err, want);
	assert_false(tr_exists(db));
}

/* wakes.tsv: the harness's tracepoint counts, summed by event and order
 * into metrics <tracepoint>_order<N> (every event and order, zeros
 * included, as the simulator stores its own); a malformed line is refused
 * naming the file, the line and the field */
#define WAKES_HEAD "# real/harness: tracepoint counts over the build\n" \
	"# lines 9, lost_events 0, unparsed 0, markers both\n" \
	"event\torder\tdetail\ttask\tcount\n"

static void test_wakes(void **state)
{
	const char *dir = copy_run(RUN1, "run"), *db = tr_path("run.db");
	struct import_summary sum;
	char path[512], err[1024], want[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/wakes.tsv", dir);
	tr_write_file(path, WAKES_HEAD
	              "mm_vmscan_wakeup_kswapd\t0\tGFP_HIGHUSER_MOVABLE|__GFP_COMP\tcc1\t40\n"
	              "mm_vmscan_wakeup_kswapd\t0\tGFP_KERNEL\tkworker\t2\n"
	              "mm_vmscan_wakeup_kswapd\t3\tGFP_KERNEL|__GFP_NORETRY\tcc1\t7\n"
	              "mm_compaction_wakeup_kcompactd\t9\tNormal\tkswapd0\t5\n"
	              "mm_compaction_try_to_compact_pages\t9\tGFP_TRANSHUGE_LIGHT;priority=2\tthp_faulter\t11\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_true(tr_real(db, METRIC1("mm_vmscan_wakeup_kswapd_order0")) == 42);
	assert_true(tr_real(db, METRIC1("mm_vmscan_wakeup_kswapd_order3")) == 7);
	assert_true(tr_real(db, METRIC1("mm_compaction_wakeup_kcompactd_order9")) == 5);
	assert_true(tr_real(db, METRIC1("mm_compaction_try_to_compact_pages_order9")) == 11);
	assert_true(tr_real(db, METRIC1("mm_vmscan_kswapd_wake_order10")) == 0);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM metrics WHERE run_id = '" ID1 "'"
	                        " AND name GLOB 'mm_*_order[0-9]*'"), 6 * 11);
	/* by the class of the flags, orders 1-10: the order-0 wakes are in
	 * none; a zone (kcompactd's detail) is no gfp_flags */
	assert_true(tr_real(db, METRIC1("mm_compaction_try_to_compact_pages_gfp_thp")) == 11);
	assert_true(tr_real(db, METRIC1("mm_vmscan_wakeup_kswapd_gfp_other")) == 7);
	assert_true(tr_real(db, METRIC1("mm_vmscan_wakeup_kswapd_gfp_readahead")) == 0);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM metrics WHERE run_id = '" ID1 "'"
	                        " AND name GLOB 'mm_*_gfp_*'"), 3 * 4);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM metrics WHERE run_id = '" ID1 "'"
	                        " AND name GLOB 'mm_compaction_wakeup_kcompactd_gfp_*'"), 0);
	remove(db);

	/* an order the model does not have */
	tr_write_file(path, WAKES_HEAD "mm_vmscan_wakeup_kswapd\t11\tGFP_KERNEL\tcc1\t1\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	snprintf(want, sizeof(want), "%s:4: order: '11' is not an order 0..10", path);
	assert_string_equal(err, want);
	/* an event the harness does not trace */
	tr_write_file(path, WAKES_HEAD "mm_page_alloc\t0\t-\tcc1\t1\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	snprintf(want, sizeof(want), "%s:4: event: 'mm_page_alloc' is not one of the harness's tracepoints",
	         path);
	assert_string_equal(err, want);
	/* a count that is not one */
	tr_write_file(path, WAKES_HEAD "mm_vmscan_wakeup_kswapd\t0\tGFP_KERNEL\tcc1\tmany\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	snprintf(want, sizeof(want), "%s:4: count: 'many' is not a count", path);
	assert_string_equal(err, want);
	/* no header */
	tr_write_file(path, "mm_vmscan_wakeup_kswapd\t0\tGFP_KERNEL\tcc1\t1\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	snprintf(want, sizeof(want), "%s:1: expected the header 'event<TAB>order<TAB>detail<TAB>task<TAB>count'",
	         path);
	assert_string_equal(err, want);
	assert_false(tr_exists(db));
}

/* mm_page_alloc_extfrag in wakes.tsv: stored as the simulator stores its
 * tally (extfrag_events, _fragmenting, _change_ownership,
 * extfrag_<Type>_from_<Type>), the kernel's migratetype numbers named by
 * the run's pagetypeinfo columns; a series that did not enable it has no
 * extfrag metric, one that did and saw none has zeros */
static void test_wakes_extfrag(void **state)
{
	const char *dir = copy_run(RUN1, "run"), *db = tr_path("run.db");
	struct import_summary sum;
	char path[512], err[1024], want[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/wakes.tsv", dir);
	tr_write_file(path, "# real/harness: tracepoint counts over the build\n"
	              "# enabled: vmscan/mm_vmscan_wakeup_kswapd kmem/mm_page_alloc_extfrag\n"
	              "event\torder\tdetail\ttask\tcount\n"
	              "mm_page_alloc_extfrag\t0\t0<-1;fragmenting=1;change_ownership=0\tcc1\t30\n"
	              "mm_page_alloc_extfrag\t0\t2<-1;fragmenting=0;change_ownership=1\tkworker\t4\n"
	              "mm_page_alloc_extfrag\t1\t0<-1;fragmenting=1;change_ownership=1\tcc1\t2\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_true(tr_real(db, METRIC1("extfrag_events")) == 36);
	assert_true(tr_real(db, METRIC1("extfrag_fragmenting")) == 32);
	assert_true(tr_real(db, METRIC1("extfrag_change_ownership")) == 6);
	assert_true(tr_real(db, METRIC1("extfrag_Unmovable_from_Movable")) == 32);
	assert_true(tr_real(db, METRIC1("extfrag_Reclaimable_from_Movable")) == 4);
	remove(db);

	/* enabled, none seen: zeros */
	tr_write_file(path, "# enabled: kmem/mm_page_alloc_extfrag\nevent\torder\tdetail\ttask\tcount\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_true(tr_real(db, METRIC1("extfrag_events")) == 0);
	remove(db);

	/* not enabled: none */
	tr_write_file(path, "event\torder\tdetail\ttask\tcount\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_OK);
	assert_int_equal(tr_int(db, "SELECT count(*) FROM metrics WHERE name GLOB 'extfrag_*'"), 0);
	remove(db);

	/* a detail that is not one */
	tr_write_file(path, "event\torder\tdetail\ttask\tcount\n"
	              "mm_page_alloc_extfrag\t0\t0<-1;fragmenting=yes\tcc1\t1\n");
	assert_int_equal(import(dir, db, &sum, err, sizeof(err)), IMPORT_BADINPUT);
	snprintf(want, sizeof(want), "%s:2: detail: '0<-1;fragmenting=yes' is not "
	         "ALLOC<-FALLBACK;fragmenting=N;change_ownership=N", path);
	assert_string_equal(err, want);
	assert_false(tr_exists(db));
}

/* compare: the real runs of a policy are the column real:POLICY, the
 * baseline if asked; a counter the real kernel lacks is n/a, not 0 */
static void test_compare_columns(void **state)
{
	const char *real = tr_path("real.db"), *sim = tr_path("sim.db"), *all = tr_path("all.db");
	const char *dir = copy_run(RUN1, "run");
	struct compare_opts o = { .baseline = "real:v6_15", .extra_rows = RESULTS_ROWS_CADENCE };
	struct import_summary sum;
	char err[1024], *t = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* this "kernel" has no kswapd_inodesteal */
	edit(dir, "vmstat.before", "\nkswapd_inodesteal 0", "");
	edit(dir, "vmstat.after", "\nkswapd_inodesteal 0", "");
	assert_int_equal(import(dir, real, &sum, err, sizeof(err)), IMPORT_OK);
	tr_make_run_file(sim, "s1", "v6_15", 1);
	assert_int_equal(results_merge(all, (const char *[]){ real, sim }, 2, err, sizeof(err)), 0);
	f = open_memstream(&t, &len);
	assert_int_equal(results_compare(f, all, &o, err, sizeof(err)), 0);
	fclose(f);
	/* the real column first, then the simulation of the same policy */
	assert_non_null(strstr(t, "                                                     real:v6_15"
	                          "         HUGEALLOC-V6_15\n"));
	assert_non_null(strstr(t, "\nReal time                                     4.46 (    +0.00%)"
	                          "     265.04 ( +5842.60%)\n"));
	assert_non_null(strstr(t, "\nkswapd_inodesteal                              n/a (        - )"
	                          "       0.00 (        - )\n"));
	assert_non_null(strstr(t, "\npageoutrun                                    0.00 (    +0.00%)"));
	free(t);
	/* without --extra-rows: the cover letter's 25 rows only */
	o.extra_rows = 0;
	t = NULL;
	f = open_memstream(&t, &len);
	assert_int_equal(results_compare(f, all, &o, err, sizeof(err)), 0);
	fclose(f);
	assert_null(strstr(t, "pageoutrun"));
	free(t);
	/* an unknown real column */
	o.baseline = "real:vanilla";
	f = open_memstream(&t, &len);
	assert_int_equal(results_compare(f, all, &o, err, sizeof(err)), -1);
	fclose(f);
	free(t);
	assert_non_null(strstr(err, "baseline 'real:vanilla' is not a value of policy (values: "
	                            "real:v6_15, v6_15)"));
}

/* A file of schema version 2 (no runs.source, no snapshots) is read as
 * simulations, merges into a version-3 output beside real runs, and is
 * refused as an output (its version is never changed). */
static void test_schema_v2(void **state)
{
	const char *v2 = tr_path("v2.db"), *real = tr_path("real.db"), *all = tr_path("all.db");
	struct compare_opts o = { .baseline = "real:v6_15" };
	struct import_summary sum;
	char err[1024], *schema, *t = NULL;
	size_t len = 0;
	sqlite3 *db;
	FILE *f;

	(void)state;
	schema = slurp(MMSIM_SOURCE_DIR "/tests/fixtures/results-schema-v2.sql");
	assert_non_null(schema);
	assert_int_equal(sqlite3_open(v2, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, schema, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO runs (run_id, name, policy, workload, seed, config, config_hash,"
		" mmsim_version, status) VALUES ('old1', 'kbuild-v6_15-s1', 'v6_15', 'kbuild', 1,"
		" '', 'x', '0.1.0', 'ok');"
		"INSERT INTO metrics VALUES ('old1', 'real_time', 300);"
		"INSERT INTO vmstat VALUES ('old1', 'thp_fault_alloc', 7);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	free(schema);
	assert_int_equal(tr_int(v2, "PRAGMA user_version"), 2);

	/* read as it is */
	f = open_memstream(&t, &len);
	assert_int_equal(results_compare(f, v2, &(struct compare_opts){ 0 }, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(t, "\nReal time                                   300.00 (    +0.00%)\n"));
	free(t);
	/* merged into version 3 beside the real runs: source 'sim' */
	assert_int_equal(import(RUN1, real, &sum, err, sizeof(err)), IMPORT_OK);
	assert_int_equal(results_merge(all, (const char *[]){ real, v2 }, 2, err, sizeof(err)), 0);
	assert_int_equal(tr_int(all, "PRAGMA user_version"), RESULTS_SCHEMA_VERSION);
	assert_text(all, "SELECT source FROM runs WHERE run_id = 'old1'", "sim");
	assert_text(all, "SELECT source FROM runs WHERE run_id = '" ID1 "'", "real");
	t = NULL;
	f = open_memstream(&t, &len);
	assert_int_equal(results_compare(f, all, &o, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(t, "\nTHP fault alloc                            "));
	assert_non_null(strstr(t, "       7.00 ("));
	free(t);
	/* a version-2 output is not written into: how to copy it is said */
	assert_int_equal(results_merge(v2, (const char *[]){ real }, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schema version 2, expected 3; mmsim merge -o NEW.db copies it"));
	assert_int_equal(import(RUN1, v2, &sum, err, sizeof(err)), IMPORT_BADOUTPUT);
	assert_int_equal(tr_int(v2, "PRAGMA user_version"), 2);
	assert_int_equal(tr_int(v2, "SELECT count(*) FROM runs"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_values, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_idempotent, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_messages, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakes, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakes_extfrag, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_columns, tr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_schema_v2, tr_setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
