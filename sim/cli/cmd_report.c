/* cmd_report.c - mmsim report DB -o DIR: a static HTML report of a results
 * database, to open from the file system (DIR/report.html).
 *
 * No server, no network, no script: the compare table with its statistics
 * (results_table_print, HTML), every plot `mmsim plot` draws, inline as
 * SVG (drawn into DIR/plots by plot_draw, then copied into the page), the
 * row definitions, the per-seed values, and each run's provenance and the
 * block census at the end of each run in the cover letter's layout
 * (report_runs.c, reading through results/: no SQL here).  The numbers
 * are those of `mmsim compare`: the same computed table, another
 * formatter.
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "mmsim/outfile.h"
#include "results.h"

static void report_usage(FILE *f)
{
	fprintf(f, "usage: mmsim report DB -o DIR [--by KEY] [--baseline NAME] [--where SQL]\n"
	           "                    [--extra-rows cadence|wakes] [--allow-mixed]\n\n"
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

/* The report of o->db into dir/report.html (plots into dir/plots); the
 * path written in out (may be NULL).  EX_OK, or an exit code with the
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
	int rc, prc = EX_OK;
	FILE *f;

	rc = make_dir(dir);
	if (rc)
		return rc;
	if (results_table_compute(&t, db, co, err, sizeof(err))) {
		error("report: %s", err);
		return EX_DATAERR;
	}
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (lstat(plots, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		/* a link planted there would take the plots elsewhere */
		error("report: '%s' exists and is not a directory (a symbolic link is not followed)", plots);
		results_table_free(t);
		return EX_CANTCREAT;
	}
	if (draw)
		prc = plot_draw(&(struct plot_opts){ .db = db, .dir = plots, .svg = 1, .quiet = 1,
		                                     .no_sweep = !sweep });
	snprintf(path, sizeof(path), "%s/report.html", dir);
	f = outfile_open(&o, path, 0666);
	if (!f) {
		results_table_free(t);
		return EX_CANTCREAT;
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
	if (report_runs(f, db))
		rc = EX_DATAERR;
	fputs("</body></html>\n", f);
	if (outfile_commit(&o))
		rc = EX_IOERR;
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
				error("report: unknown --extra-rows '%s' (valid: cadence, wakes)", optarg);
				return EX_USAGE;
			}
			break;
		case 'h':
			report_usage(stdout);
			return EX_OK;
		default:
			report_usage(stderr);
			return EX_USAGE;
		}
	}
	if (argc - optind != 1 || !dir) {
		error("report: %s", optind == argc ? "no database given (mmsim report DB -o DIR)"
		                    : argc - optind > 1 ? "one database only (mmsim report DB -o DIR)"
		                    : "no output directory given (-o DIR)");
		return EX_USAGE;
	}
	db = argv[optind];
	if (access(db, R_OK)) {
		error("report: %s: %s", db, strerror(errno));
		return EX_NOINPUT;
	}
	rc = report_write(db, dir, &co, 1, 1, path, sizeof(path));
	if (rc == EX_OK || access(path, R_OK) == 0)
		printf("%s\n", path);
	return rc;
}
