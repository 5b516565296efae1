/* cmd_report.c - mmsim report DB -o DIR: a static HTML report of a results
 * database, to open from the file system (DIR/report.html).
 *
 * No server, no network, no script: the compare table with its statistics
 * (results_table_print, HTML), every plot `mmsim plot` draws, inline as
 * SVG (drawn into DIR/plots by plot_draw, then copied into the page), the
 * row definitions, the per-seed values, each run's provenance (the runs
 * table: scenario text and parameters, hash, version, git revision, seed,
 * wall and simulated time) and the block census at the end of each run in
 * the cover letter's layout.  The numbers are those of `mmsim compare`:
 * the same computed table, another formatter.
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "results.h"

static void report_usage(FILE *f)
{
	fprintf(f, "usage: mmsim report DB -o DIR [--by KEY] [--baseline NAME] [--where SQL]\n"
	           "                    [--extra-rows cadence] [--allow-mixed]\n\n"
	           "Writes DIR/report.html, a static page (no server, no network, no script)\n"
	           "with the compare table and its statistics (mean, sd, 95%% interval over\n"
	           "seeds, Welch's t-test against the baseline; significant changes marked\n"
	           "*change*), every plot of mmsim plot inline as SVG (also in DIR/plots),\n"
	           "the row definitions, each seed's values, each run's provenance and the\n"
	           "block census at the end of each run (a real kernel's run, mmsim import:\n"
	           "its /proc snapshots instead).\n\n"
	           "  -o, --output DIR      where to write (created if missing)\n"
	           "  --by, --baseline, --where, --extra-rows, --allow-mixed   as for mmsim compare\n");
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	return s ? s : "";
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;margin:0.5em 0 1.5em}"
	"th,td{border:1px solid #ccc;padding:2px 6px;font-size:13px}"
	"td{text-align:right;font-variant-numeric:tabular-nums}"
	"tbody th{text-align:left;font-weight:normal}"
	"td.sig{font-weight:bold;background:#fff3c4}"
	".n{font-weight:normal;color:#666}"
	"pre{background:#f6f6f6;padding:6px;font-size:12px;overflow:auto}"
	"figure.plot{display:block;max-width:920px;margin:0 0 1em;border:1px solid #ddd}"
	"figure.plot svg{display:block;width:100%;height:auto}"
	"figcaption{font-size:12px;color:#555;padding:2px 6px}";

/* the SVG files of dir, inline (from "<svg": no XML prolog, no doctype) */
static int inline_plots(FILE *f, const char *dir)
{
	char pattern[PATH_MAX + 16];
	glob_t g;
	int n = 0;

	snprintf(pattern, sizeof(pattern), "%s/*.svg", dir);
	if (glob(pattern, 0, NULL, &g) != 0) {
		fputs("<p>No plots (see mmsim's standard error).</p>\n", f);
		return 0;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *in = fopen(g.gl_pathv[i], "r");
		char *buf = NULL, *svg;
		size_t len = 0;
		const char *base = strrchr(g.gl_pathv[i], '/');

		if (!in)
			continue;
		{
			FILE *m = open_memstream(&buf, &len);
			char chunk[65536];
			size_t k;
			while (m && (k = fread(chunk, 1, sizeof(chunk), in)) > 0)
				fwrite(chunk, 1, k, m);
			if (m)
				fclose(m);
		}
		fclose(in);
		if (buf && (svg = strstr(buf, "<svg"))) {
			fputs("<figure class=\"plot\">\n", f);
			fputs(svg, f);
			fputs("\n<figcaption>", f);
			results_html_escape(f, base ? base + 1 : g.gl_pathv[i]);
			fputs("</figcaption></figure>\n", f);
			n++;
		}
		free(buf);
	}
	globfree(&g);
	return n;
}

static void definitions(FILE *f, unsigned extra_rows)
{
	fputs("<table class=\"defs\"><thead><tr><th>row</th><th>unit</th><th>formula (vmstat deltas, "
	      "workload metrics)</th><th>denominator 0</th><th>kernel version</th></tr></thead><tbody>\n",
	      f);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++) {
		const struct results_metric *m = &results_metrics[r];
		if (!results_metric_shown(r, extra_rows))
			continue;
		fputs("<tr><th>", f);
		results_html_escape(f, m->name);
		fputs("</th><td>", f);
		results_html_escape(f, m->unit);
		fputs("</td><td style=\"text-align:left\"><code>", f);
		results_html_escape(f, m->formula);
		fputs("</code></td><td style=\"text-align:left\">", f);
		results_html_escape(f, m->zero_den ? m->zero_den : "");
		fputs("</td><td style=\"text-align:left\">", f);
		results_html_escape(f, m->kernel ? m->kernel : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* each seed's value of each row: the spread the statistics summarise */
static void per_seed(FILE *f, const struct results_table *t, unsigned extra_rows)
{
	fputs("<table class=\"seeds\"><thead><tr><th>row</th>", f);
	for (size_t i = 0; i < t->nr_col; i++) {
		fputs("<th>", f);
		results_html_escape(f, t->col[i].key);
		fputs(" <span class=\"n\">seeds ", f);
		for (size_t s = 0; s < t->col[i].nr_seeds; s++)
			fprintf(f, "%s%lld", s ? ", " : "", t->col[i].seed[s]);
		fputs("</span></th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++) {
		if (!results_metric_shown(r, extra_rows))
			continue;
		fputs("<tr><th>", f);
		results_html_escape(f, results_metrics[r].name);
		fputs("</th>", f);
		for (size_t i = 0; i < t->nr_col; i++) {
			fputs("<td>", f);
			for (size_t s = 0; s < t->col[i].nr_seeds; s++) {
				double v = t->col[i].seed_value[s * RESULTS_NR_METRICS + r];
				if (isnan(v))   /* not measured: as in the table */
					fprintf(f, "%sn/a", s ? " " : "");
				else
					fprintf(f, "%s%.2f", s ? " " : "", v);
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* the cover letter's block analysis at the last census of a run */
static int census(FILE *f, sqlite3 *db, const char *run_id)
{
	static const char *const kinds[] = { "Unmovable", "Movable", "Reclaimable" };
	sqlite3_stmt *st;
	long blocks[3] = { 0 }, mixed[3] = { 0 }, lru[3] = { 0 }, slab[3] = { 0 }, kmem[3] = { 0 },
	     other[3] = { 0 };
	double t = NAN;
	int any = 0;

	if (sqlite3_prepare_v2(db, "SELECT t, migratetype, blocks, mixed_blocks, pages_lru, pages_slab,"
	                           " pages_kmem, pages_other FROM block_census WHERE run_id = ?1 AND"
	                           " t = (SELECT MAX(t) FROM block_census WHERE run_id = ?1)"
	                           " ORDER BY migratetype", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	fputs("<pre class=\"census\">", f);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *mt = col_text(st, 1);
		char lower[64];
		size_t k;

		t = sqlite3_column_double(st, 0);
		any = 1;
		for (k = 0; mt[k] && k + 1 < sizeof(lower); k++)
			lower[k] = (char)(mt[k] >= 'A' && mt[k] <= 'Z' ? mt[k] + 32 : mt[k]);
		lower[k] = '\0';
		results_html_escape(f, lower);
		fprintf(f, " %lld\n", (long long)sqlite3_column_int64(st, 2));
		for (int i = 0; i < 3; i++)
			if (!strcmp(mt, kinds[i])) {
				blocks[i] = sqlite3_column_int64(st, 2);
				mixed[i] = sqlite3_column_int64(st, 3);
				lru[i] = sqlite3_column_int64(st, 4);
				slab[i] = sqlite3_column_int64(st, 5);
				kmem[i] = sqlite3_column_int64(st, 6);
				other[i] = sqlite3_column_int64(st, 7);
			}
	}
	sqlite3_finalize(st);
	(void)blocks;
	if (any) {
		fprintf(f, "unmovable blocks with slab/lru pages: %ld ({'slab': %ld, 'lru': %ld} pages)\n",
		        mixed[0], slab[0], lru[0]);
		fprintf(f, "movable blocks with non-LRU pages: %ld ({'slab': %ld, 'kmem': %ld, 'other': %ld} pages)\n",
		        mixed[1], slab[1], kmem[1], other[1]);
		fprintf(f, "reclaimable blocks with non-slab pages: %ld ({'lru': %ld, 'kmem': %ld, 'other': %ld} pages)\n",
		        mixed[2], lru[2], kmem[2], other[2]);
		fprintf(f, "(at t = %.1f s)", t);
	} else {
		fputs("no census stored", f);
	}
	fputs("</pre>\n", f);
	return 0;
}

/* a real kernel's run (mmsim import) has no census: the /proc files
 * captured before and after it, verbatim (a file of schema version 2
 * has no snapshots table, and no real run) */
static void snapshots(FILE *f, sqlite3 *db, const char *run_id)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, "SELECT name, text FROM snapshots WHERE run_id = ?1 ORDER BY name",
	                       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		fputs("<details><summary>", f);
		results_html_escape(f, col_text(st, 0));
		fputs("</summary><pre>", f);
		results_html_escape(f, col_text(st, 1));
		fputs("</pre></details>\n", f);
	}
	sqlite3_finalize(st);
}

static int provenance(FILE *f, const char *db_path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL, *pst = NULL;
	char err[512] = "";
	int rc = -1;

	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		goto out;
	if (results_compat_view(db, db_path, err, sizeof(err))) {
		error("report: %s", err);
		sqlite3_close(db);
		return -1;
	}
	if (sqlite3_prepare_v2(db, "SELECT run_id, name, CASE WHEN source = 'real' THEN 'real:' || policy"
	                           " ELSE policy END, workload, seed, config_hash,"
	                           " mmsim_version, git_commit, build_type, started_at, wall_seconds,"
	                           " sim_seconds, status, error, config, sweep_id, source FROM runs"
	                           " ORDER BY source, policy, seed, run_id", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT key, value FROM params WHERE run_id = ?1 ORDER BY key", -1,
	                       &pst, NULL) != SQLITE_OK)
		goto out;
	fputs("<table class=\"runs\"><thead><tr><th>run</th><th>policy</th><th>workload</th><th>seed</th>"
	      "<th>status</th><th>config hash</th><th>mmsim</th><th>git</th><th>build</th>"
	      "<th>started</th><th>wall s</th><th>simulated s</th></tr></thead><tbody>\n", f);
	while (sqlite3_step(st) == SQLITE_ROW) {
		fputs("<tr><th><a href=\"#run-", f);
		results_html_escape(f, col_text(st, 0));
		fputs("\">", f);
		results_html_escape(f, col_text(st, 1));
		fputs("</a></th>", f);
		for (int i = 2; i <= 12; i++) {
			static const int order[] = { 2, 3, 4, 12, 5, 6, 7, 8, 9, 10, 11 };
			int c = order[i - 2];
			fputs("<td>", f);
			if (c == 10 || c == 11) {
				if (sqlite3_column_type(st, c) != SQLITE_NULL)
					fprintf(f, "%.1f", sqlite3_column_double(st, c));
			} else {
				results_html_escape(f, col_text(st, c));
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	sqlite3_reset(st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *id = col_text(st, 0);
		fputs("<section class=\"run\" id=\"run-", f);
		results_html_escape(f, id);
		fputs("\"><h3>", f);
		results_html_escape(f, col_text(st, 1));
		fputs(" <span class=\"n\">(run ", f);
		results_html_escape(f, id);
		if (*col_text(st, 15)) {
			fputs(", sweep ", f);
			results_html_escape(f, col_text(st, 15));
		}
		fputs(")</span></h3>\n", f);
		if (*col_text(st, 13)) {
			fputs("<p>error: ", f);
			results_html_escape(f, col_text(st, 13));
			fputs("</p>\n", f);
		}
		if (!strcmp(col_text(st, 16), "real")) {
			/* the kernel keeps no census: n/a, not an empty one */
			fputs("<p>Block census: n/a (a real kernel's run). Its /proc files before and after"
			      " the build:</p>\n", f);
			snapshots(f, db, id);
			fputs("<details><summary>provenance</summary><pre>", f);
		} else {
			fputs("<p>Block census at the end of the run:</p>\n", f);
			census(f, db, id);
			fputs("<details><summary>scenario (resolved)</summary><pre>", f);
		}
		results_html_escape(f, col_text(st, 14));
		fputs("</pre></details>\n<details><summary>parameters</summary><pre>", f);
		sqlite3_bind_text(pst, 1, id, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(pst) == SQLITE_ROW) {
			results_html_escape(f, col_text(pst, 0));
			fputs(" = ", f);
			results_html_escape(f, col_text(pst, 1));
			fputc('\n', f);
		}
		sqlite3_reset(pst);
		fputs("</pre></details></section>\n", f);
	}
	rc = 0;
out:
	if (rc)
		error("report: %s: %s", db_path, db ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_finalize(st);
	sqlite3_finalize(pst);
	sqlite3_close(db);
	return rc;
}

/* The report of o->db into dir/report.html (plots into dir/plots); the
 * path written in out (may be NULL).  EXIT_OK, or an exit code with the
 * message printed; a plot that could not be drawn is said so on stderr and
 * in the exit code, the page is still written. */
int report_write(const char *db, const char *dir, const struct compare_opts *co, int draw,
                 int sweep, char *out, size_t outlen)
{
	char plots[PATH_MAX], path[PATH_MAX], err[1024];
	struct outfile o;
	struct stat sb;
	struct results_table *t = NULL;
	struct compare_opts html = *co;
	int rc, prc = EXIT_OK;
	FILE *f;

	rc = make_dir(dir);
	if (rc)
		return rc;
	if (results_table_compute(&t, db, co, err, sizeof(err))) {
		error("report: %s", err);
		return EXIT_DATAERR;
	}
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (lstat(plots, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		/* a link planted there would take the plots elsewhere */
		error("report: '%s' exists and is not a directory (a symbolic link is not followed)", plots);
		results_table_free(t);
		return EXIT_CANTCREAT;
	}
	if (draw)
		prc = plot_draw(&(struct plot_opts){ .db = db, .dir = plots, .svg = 1, .quiet = 1,
		                                     .no_sweep = !sweep });
	snprintf(path, sizeof(path), "%s/report.html", dir);
	f = outfile_open(&o, path, 0666);
	if (!f) {
		results_table_free(t);
		return EXIT_CANTCREAT;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>mmsim report: ", f);
	results_html_escape(f, db);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>mmsim report</h1>\n<p>Database <code>", style);
	results_html_escape(f, db);
	fprintf(f, "</code>: %zu columns by <code>", t->nr_col);
	results_html_escape(f, t->by);
	fputs("</code>, baseline <b>", f);
	results_html_escape(f, t->col[0].key);
	fputs("</b>. The same numbers as <code>mmsim compare</code> (with <code>--stats</code>): "
	      "mean over runs, change against the baseline, standard deviation and 95&nbsp;% "
	      "confidence interval over seeds (Student t; a seed's iterations and runs are averaged "
	      "first). A change framed by asterisks is significant (Welch's t-test, two-sided, "
	      "p&nbsp;&lt;&nbsp;0.05; hover for t, df and p).</p>\n<h2 id=\"table\">The table</h2>\n", f);
	html.format = RESULTS_FMT_HTML;
	results_table_print(f, t, &html);
	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	inline_plots(f, plots);
	fputs("<h2 id=\"seeds\">Per-seed values</h2>\n", f);
	per_seed(f, t, co->extra_rows);
	fputs("<h2 id=\"definitions\">Row definitions</h2>\n", f);
	definitions(f, co->extra_rows);
	fputs("<h2 id=\"runs\">Runs</h2>\n", f);
	if (provenance(f, db))
		rc = EXIT_DATAERR;
	fputs("</body></html>\n", f);
	if (outfile_commit(&o))
		rc = EXIT_IOERR;
	results_table_free(t);
	if (out)
		snprintf(out, outlen, "%s", path);
	return rc ? rc : prc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "by", required_argument, NULL, 'b' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "where", required_argument, NULL, 'w' },
		{ "extra-rows", required_argument, NULL, 'x' },
		{ "allow-mixed", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts co = { .stats = 1 };
	const char *dir = NULL, *db;
	char path[PATH_MAX];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'b': co.by = optarg; break;
		case 'B': co.baseline = optarg; break;
		case 'w': co.where = optarg; break;
		case 'M': co.allow_mixed = 1; break;
		case 'x':
			if (!(co.extra_rows |= results_rows_group(optarg))) {
				error("report: unknown --extra-rows '%s' (valid: cadence)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			report_usage(stdout);
			return EXIT_OK;
		default:
			report_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || !dir) {
		error("report: %s", argc - optind != 1 ? "one database (mmsim report DB -o DIR)"
		                                       : "no output directory given (-o DIR)");
		return EXIT_USAGE;
	}
	db = argv[optind];
	if (access(db, R_OK)) {
		error("report: %s: %s", db, strerror(errno));
		return EXIT_NOINPUT;
	}
	rc = report_write(db, dir, &co, 1, 1, path, sizeof(path));
	if (rc == EXIT_OK || access(path, R_OK) == 0)
		printf("%s\n", path);
	return rc;
}
