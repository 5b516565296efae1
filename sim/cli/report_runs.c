/* report_runs.c - the section Runs of mmsim report's page (cmd_report.c):
 * each run's provenance as results/ reads it (query.h: the runs table,
 * the resolved scenario and its parameters, hash, version, git revision,
 * seed, wall and simulated time) and the block census at the end of the
 * run in the cover letter's layout, or a real kernel's /proc snapshots.
 * Every text from the database goes through results_html_escape(). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "results.h"

/* the cover letter's block analysis at the last census of a run */
struct census {
	FILE *f;
	double t;
	int any;
	struct results_census kind[3];  /* Unmovable, Movable, Reclaimable: the numbers
	                                   (a row's strings end with its callback) */
};

static int census_row(void *arg, const struct results_census *row)
{
	static const char *const kinds[] = { "Unmovable", "Movable", "Reclaimable" };
	struct census *c = arg;
	char lower[64];
	size_t k;

	if (!c->any)
		fputs("<pre class=\"census\">", c->f);
	c->t = row->t;
	c->any = 1;
	for (k = 0; row->migratetype[k] && k + 1 < sizeof(lower); k++)
		lower[k] = (char)(row->migratetype[k] >= 'A' && row->migratetype[k] <= 'Z' ?
		                  row->migratetype[k] + 32 : row->migratetype[k]);
	lower[k] = '\0';
	results_html_escape(c->f, lower);
	fprintf(c->f, " %ld\n", row->blocks);
	for (int i = 0; i < 3; i++)
		if (!strcmp(row->migratetype, kinds[i]))
			c->kind[i] = *row;
	return 0;
}

static void census(FILE *f, struct results_reader *r, const char *run_id)
{
	struct census c = { .f = f };
	const struct results_census *u = &c.kind[0], *m = &c.kind[1], *rc = &c.kind[2];

	/* a file without the table (it is not required) has nothing to say */
	if (results_census_last(r, run_id, census_row, &c) && !c.any)
		return;
	if (c.any) {
		fprintf(f, "unmovable blocks with slab/lru pages: %ld ({'slab': %ld, 'lru': %ld} pages)\n",
		        u->mixed_blocks, u->pages_slab, u->pages_lru);
		fprintf(f, "movable blocks with non-LRU pages: %ld ({'slab': %ld, 'kmem': %ld, 'other': %ld} pages)\n",
		        m->mixed_blocks, m->pages_slab, m->pages_kmem, m->pages_other);
		fprintf(f, "reclaimable blocks with non-slab pages: %ld ({'lru': %ld, 'kmem': %ld, 'other': %ld} pages)\n",
		        rc->mixed_blocks, rc->pages_lru, rc->pages_kmem, rc->pages_other);
		fprintf(f, "(at t = %.1f s)", c.t);
	} else {
		fputs("<pre class=\"census\">no census stored", f);
	}
	fputs("</pre>\n", f);
}

/* a real kernel's run (mmsim import) has no census: the /proc files
 * captured before and after it, verbatim (a file of schema version 2
 * has no snapshots, and no real run) */
static int snapshot(void *arg, const char *name, const char *text)
{
	FILE *f = arg;

	fputs("<details><summary>", f);
	results_html_escape(f, name);
	fputs("</summary><pre>", f);
	results_html_escape(f, text);
	fputs("</pre></details>\n", f);
	return 0;
}

static int param(void *arg, const char *key, const char *value)
{
	FILE *f = arg;

	results_html_escape(f, key);
	fputs(" = ", f);
	results_html_escape(f, value);
	fputc('\n', f);
	return 0;
}

struct runs {
	FILE *f;
	struct results_reader *r;
};

/* a run's line in the table of runs */
static int run_line(void *arg, const struct results_run *run)
{
	const char *const text[] = { run->policy, run->workload, NULL, run->status, run->config_hash,
	                             run->mmsim_version, run->git_commit, run->build_type,
	                             run->started_at };
	FILE *f = ((struct runs *)arg)->f;

	fputs("<tr><th><a href=\"#run-", f);
	results_html_escape(f, run->run_id);
	fputs("\">", f);
	results_html_escape(f, run->name);
	fputs("</a></th>", f);
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		fputs("<td>", f);
		if (text[i])
			results_html_escape(f, text[i]);
		else
			fprintf(f, "%lld", run->seed);
		fputs("</td>", f);
	}
	fputs("<td>", f);
	if (!isnan(run->wall_seconds))
		fprintf(f, "%.1f", run->wall_seconds);
	fputs("</td><td>", f);
	if (!isnan(run->sim_seconds))
		fprintf(f, "%.1f", run->sim_seconds);
	fputs("</td></tr>\n", f);
	return 0;
}

/* a run's section: census (or snapshots), scenario, parameters */
static int run_section(void *arg, const struct results_run *run)
{
	struct runs *a = arg;
	FILE *f = a->f;

	fputs("<section class=\"run\" id=\"run-", f);
	results_html_escape(f, run->run_id);
	fputs("\"><h3>", f);
	results_html_escape(f, run->name);
	fputs(" <span class=\"n\">(run ", f);
	results_html_escape(f, run->run_id);
	if (*run->sweep_id) {
		fputs(", sweep ", f);
		results_html_escape(f, run->sweep_id);
	}
	fputs(")</span></h3>\n", f);
	if (*run->error) {
		fputs("<p>error: ", f);
		results_html_escape(f, run->error);
		fputs("</p>\n", f);
	}
	if (!strcmp(run->source, "real")) {
		/* the kernel keeps no census: n/a, not an empty one */
		fputs("<p>Block census: n/a (a real kernel's run). Its /proc files before and after"
		      " the build:</p>\n", f);
		results_snapshots_each(a->r, run->run_id, snapshot, f);
		fputs("<details><summary>provenance</summary><pre>", f);
	} else {
		fputs("<p>Block census at the end of the run:</p>\n", f);
		census(f, a->r, run->run_id);
		fputs("<details><summary>scenario (resolved)</summary><pre>", f);
	}
	results_html_escape(f, run->config);
	fputs("</pre></details>\n<details><summary>parameters</summary><pre>", f);
	if (results_params_each(a->r, run->run_id, param, f))
		return -1;
	fputs("</pre></details></section>\n", f);
	return 0;
}

/* the section Runs of the page: a table of the runs, then each run's section */
int report_runs(FILE *f, const char *db_path)
{
	struct runs a = { .f = f };
	char err[1024];
	int rc;

	if (results_reader_open(&a.r, db_path, RESULTS_READ_ANY, err, sizeof(err))) {
		error("report: %s", err);
		return -1;
	}
	fputs("<table class=\"runs\"><thead><tr><th>run</th><th>policy</th><th>workload</th><th>seed</th>"
	      "<th>status</th><th>config hash</th><th>mmsim</th><th>git</th><th>build</th>"
	      "<th>started</th><th>wall s</th><th>simulated s</th></tr></thead><tbody>\n", f);
	rc = results_runs_each(a.r, run_line, &a);
	if (!rc) {
		fputs("</tbody></table>\n", f);
		rc = results_runs_each(a.r, run_section, &a);
	}
	if (rc)
		error("report: %s", results_reader_errmsg(a.r));
	results_reader_close(a.r);
	return rc ? -1 : 0;
}
