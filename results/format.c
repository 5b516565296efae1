/* format.c - printing a results_table (compare.c computes it).
 *
 * One function per output; each reads the same data, so another output is
 * one more formatter.  The text layout is the cover letter's, which the
 * golden tests check byte for byte: the row name in 40 columns, then per
 * column a 23-character cell "%10.2f (%+9.2f%)", the cells after the first
 * preceded by a space.  With --stats the change of a column whose
 * difference from the baseline is significant (Welch's test, p < 0.05) is
 * framed by asterisks instead of parentheses, as mmtests' compare-kernels
 * marks it, and lines under each row give the standard deviation, the
 * 95 % interval and the test.  A cell no run of its column measured
 * prints n/a; the rows of an extra group (metrics.h RESULTS_ROWS_*)
 * print only when asked for (compare_opts.extra_rows).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results.h"

#define NAME_WIDTH 40
#define CELL_WIDTH 23

/* ------------------------------------------------------------------ text */

/* where a variant's label (mmsim ablate: "-zonelist_suitable_targets_only")
 * too long for its cell breaks: after the last '_' that fits, else at the
 * cell's width; the length of the first line's part (0: one line) */
static size_t label_break(const char *key)
{
	size_t n = strlen(key), b;

	if (n <= CELL_WIDTH)
		return 0;
	for (b = CELL_WIDTH; b > 1 && key[b - 1] != '_'; b--)
		;
	return b > 1 ? b : CELL_WIDTH;
}

/* the columns of mmsim ablate (by "variant"): their labels as they are,
 * a long one over two lines (the second line bottom-aligned with the
 * short ones) */
static void print_variant_header(FILE *out, const struct results_table *t)
{
	int two = 0;

	for (size_t i = 0; i < t->nr_col; i++)
		two |= label_break(t->col[i].key) > 0;
	if (two) {
		fprintf(out, "%-*s", NAME_WIDTH, "");
		for (size_t i = 0; i < t->nr_col; i++) {
			size_t b = label_break(t->col[i].key);
			fprintf(out, "%*.*s", CELL_WIDTH + (i > 0), (int)b, t->col[i].key);
		}
		fputc('\n', out);
	}
	fprintf(out, "%-*s", NAME_WIDTH, "");
	for (size_t i = 0; i < t->nr_col; i++) {
		const char *k = t->col[i].key + label_break(t->col[i].key);
		fprintf(out, "%*.*s", CELL_WIDTH + (i > 0), CELL_WIDTH, k);
	}
}

static void print_header(FILE *out, const struct results_table *t)
{
	if (t->by && !strcmp(t->by, "variant")) {
		print_variant_header(out, t);
		goto runs;
	}
	fprintf(out, "%-*s", NAME_WIDTH, "");
	for (size_t i = 0; i < t->nr_col; i++) {
		char name[128];
		size_t n;

		/* a real kernel's column (mmsim import) is named as it is,
		 * real:POLICY: it is no mmtests run of a simulated kernel */
		if (!strncmp(t->col[i].key, "real:", 5))
			snprintf(name, sizeof(name), "%s", t->col[i].key);
		else {
			n = (size_t)snprintf(name, sizeof(name), "HUGEALLOC-%s", t->col[i].key);
			for (size_t k = 10; k < n && k < sizeof(name); k++)
				name[k] = (char)toupper((unsigned char)name[k]);
		}
		/* a name wider than its cell still keeps a space before it */
		fprintf(out, "%s%*s", i ? " " : "", CELL_WIDTH, name);
	}
runs:
	fprintf(out, "\n%-*s", NAME_WIDTH, "Runs");
	for (size_t i = 0; i < t->nr_col; i++)
		fprintf(out, "%*ld", CELL_WIDTH + (i > 0), t->col[i].nr_runs);
	fputc('\n', out);
}

/* a statistic in a 10-character field, "-" where it is undefined */
static void num10(FILE *out, const char *fmt, double v)
{
	if (isnan(v))
		fprintf(out, "%10s", "-");
	else
		fprintf(out, fmt, v);
}

/* "min .. max" in column i's 23 characters, "-" when no run measured it */
static void minmax(FILE *out, size_t i, double lo, double hi)
{
	if (isnan(lo))
		fprintf(out, "%s%10s    %9s", i ? " " : "", "-", "");
	else
		fprintf(out, "%s%10.2f .. %9.2f", i ? " " : "", lo, hi);
}

static void print_row(FILE *out, const struct results_table *t, size_t r, const struct compare_opts *o)
{
	fprintf(out, "%-*s", NAME_WIDTH, results_metrics[r].name);
	for (size_t i = 0; i < t->nr_col; i++) {
		const struct results_cell *c = &t->col[i].cell[r];
		int mark = o->stats && i > 0 && c->w.valid && c->w.significant;

		if (isnan(c->mean))     /* no run of the column measured the row */
			fprintf(out, "%s%10s (%9s )", i ? " " : "", "n/a", "-");
		else if (isnan(c->change))      /* ... only the baseline's did not */
			fprintf(out, "%s%10.2f (%9s )", i ? " " : "", c->mean, "-");
		else
			fprintf(out, "%s%10.2f %c%+9.2f%%%c", i ? " " : "", c->mean, mark ? '*' : '(',
			        c->change, mark ? '*' : ')');
	}
	fputc('\n', out);
	if (o->spread) {
		fprintf(out, "%-*s", NAME_WIDTH, "  min..max");
		for (size_t i = 0; i < t->nr_col; i++)
			/* " .. " keeps a space between seven-digit bounds */
			minmax(out, i, t->col[i].cell[r].min, t->col[i].cell[r].max);
		fputc('\n', out);
	}
	if (o->iteration_spread) {
		fprintf(out, "%-*s", NAME_WIDTH, "  min..max of iterations");
		for (size_t i = 0; i < t->nr_col; i++)
			minmax(out, i, t->col[i].cell[r].imin, t->col[i].cell[r].imax);
		fputc('\n', out);
	}
	if (!o->stats)
		return;
	fprintf(out, "%-*s", NAME_WIDTH, "  stddev over seeds");
	for (size_t i = 0; i < t->nr_col; i++) {
		fputs(i ? " " : "", out);
		num10(out, "%10.2f", t->col[i].cell[r].s.sd);
		fprintf(out, "%13s", "");
	}
	fprintf(out, "\n%-*s", NAME_WIDTH, "  95% CI of the mean");
	for (size_t i = 0; i < t->nr_col; i++) {
		const struct results_summary *s = &t->col[i].cell[r].s;
		fputs(i ? " " : "", out);
		if (isnan(s->ci_lo))
			fprintf(out, "%10s    %9s", "-", "");
		else
			fprintf(out, "%10.2f .. %9.2f", s->ci_lo, s->ci_hi);
	}
	fprintf(out, "\n%-*s", NAME_WIDTH, "  Welch t, df");
	for (size_t i = 0; i < t->nr_col; i++) {
		const struct results_welch *w = &t->col[i].cell[r].w;
		fputs(i ? " " : "", out);
		if (!w->valid)
			fprintf(out, "%10s    %9s", "", "");
		else
			fprintf(out, "%10.3f df %9.2f", w->t, w->df);
	}
	fprintf(out, "\n%-*s", NAME_WIDTH, "  Welch p (two-sided)");
	for (size_t i = 0; i < t->nr_col; i++) {
		const struct results_welch *w = &t->col[i].cell[r].w;
		fputs(i ? " " : "", out);
		if (!w->valid)
			fprintf(out, "%10s%13s", "", "");
		else
			fprintf(out, "%10.4f%13s", w->p, w->significant ? "  significant" : "");
	}
	fputc('\n', out);
}

static void print_text(FILE *out, const struct results_table *t, const struct compare_opts *o)
{
	print_header(out, t);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++)
		if (results_metric_shown(r, o->extra_rows))
			print_row(out, t, r, o);
	if (o->stats)
		fprintf(out, "\n*...*: the change against %s is significant (Welch's t-test, two-sided,"
		        " p < %.2f;\nunit of replication: the seed)\n", t->col[0].key, RESULTS_ALPHA);
}

/* --------------------------------------------------------- CSV and JSON */

/* a number of CSV or JSON: "%.10g", empty (CSV) or null (JSON) if not finite */
static void num(FILE *out, double v, int json)
{
	if (isfinite(v))
		fprintf(out, "%.10g", v);
	else if (json)
		fputs(isnan(v) ? "null" : v > 0 ? "\"inf\"" : "\"-inf\"", out);
	else if (!isnan(v))
		fputs(v > 0 ? "inf" : "-inf", out);
}

/* a CSV field: quoted when it holds a comma, a quote or a line break */
static void csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(FILE *out, const struct results_table *t, unsigned extra_rows)
{
	fputs("metric,unit,column,runs,seeds,mean,change_pct,min,max,sd,ci95_lo,ci95_hi,"
	      "welch_t,welch_df,welch_p,significant\n", out);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++)
		for (size_t i = 0; results_metric_shown(r, extra_rows) && i < t->nr_col; i++) {
			const struct results_cell *c = &t->col[i].cell[r];
			const double v[] = { c->mean, c->change, c->min, c->max, c->s.sd, c->s.ci_lo,
			                     c->s.ci_hi, c->w.t, c->w.df, c->w.p };

			csv_str(out, results_metrics[r].name);
			fprintf(out, ",%s,", results_metrics[r].unit);
			csv_str(out, t->col[i].key);
			fprintf(out, ",%ld,%zu", t->col[i].nr_runs, t->col[i].nr_seeds);
			for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
				fputc(',', out);
				num(out, v[k], 0);
			}
			fprintf(out, ",%s\n", i && c->w.valid ? (c->w.significant ? "1" : "0") : "");
		}
}

static void print_values(FILE *out, const struct results_table *t, unsigned extra_rows)
{
	fputs("metric,column,seed,value\n", out);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++)
		for (size_t i = 0; results_metric_shown(r, extra_rows) && i < t->nr_col; i++)
			for (size_t s = 0; s < t->col[i].nr_seeds; s++) {
				csv_str(out, results_metrics[r].name);
				fputc(',', out);
				csv_str(out, t->col[i].key);
				fprintf(out, ",%lld,", t->col[i].seed[s]);
				num(out, t->col[i].seed_value[s * RESULTS_NR_METRICS + r], 0);
				fputc('\n', out);
			}
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < ' ')
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void json_key_num(FILE *out, const char *key, double v)
{
	fprintf(out, "\"%s\": ", key);
	num(out, v, 1);
}

static void print_json(FILE *out, const struct results_table *t, unsigned extra_rows)
{
	int first = 1;

	fputs("{\n  \"by\": ", out);
	json_str(out, t->by);
	fprintf(out, ",\n  \"alpha\": %.2f,\n  \"test\": \"welch\",\n  \"columns\": [", RESULTS_ALPHA);
	for (size_t i = 0; i < t->nr_col; i++) {
		const struct results_column *c = &t->col[i];
		fprintf(out, "%s\n    {\"key\": ", i ? "," : "");
		json_str(out, c->key);
		fprintf(out, ", \"runs\": %ld, \"iterations\": %ld, \"seeds\": [", c->nr_runs, c->nr_iters);
		for (size_t s = 0; s < c->nr_seeds; s++)
			fprintf(out, "%s%lld", s ? ", " : "", c->seed[s]);
		fputs("]}", out);
	}
	fputs("\n  ],\n  \"metrics\": [", out);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++) {
		const struct results_metric *m = &results_metrics[r];
		if (!results_metric_shown(r, extra_rows))
			continue;
		fprintf(out, "%s\n    {\"name\": ", first ? "" : ",");
		first = 0;
		json_str(out, m->name);
		fputs(", \"unit\": ", out);
		json_str(out, m->unit);
		fputs(", \"formula\": ", out);
		json_str(out, m->formula);
		fputs(", \"zero_denominator\": ", out);
		if (m->zero_den)
			json_str(out, m->zero_den);
		else
			fputs("null", out);
		fputs(", \"kernel\": ", out);
		if (m->kernel)
			json_str(out, m->kernel);
		else
			fputs("null", out);
		fputs(",\n     \"cells\": [", out);
		for (size_t i = 0; i < t->nr_col; i++) {
			const struct results_column *col = &t->col[i];
			const struct results_cell *c = &col->cell[r];
			fprintf(out, "%s\n       {", i ? "," : "");
			json_key_num(out, "mean", c->mean);
			fputs(", ", out);
			json_key_num(out, "change_pct", c->change);
			fputs(", ", out);
			json_key_num(out, "min", c->min);
			fputs(", ", out);
			json_key_num(out, "max", c->max);
			fputs(", ", out);
			json_key_num(out, "sd", c->s.sd);
			fputs(", \"ci95\": [", out);
			num(out, c->s.ci_lo, 1);
			fputs(", ", out);
			num(out, c->s.ci_hi, 1);
			fputs("], ", out);
			if (i && c->w.valid) {
				fputs("\"welch\": {", out);
				json_key_num(out, "t", c->w.t);
				fputs(", ", out);
				json_key_num(out, "df", c->w.df);
				fputs(", ", out);
				json_key_num(out, "p", c->w.p);
				fprintf(out, ", \"significant\": %s}, ", c->w.significant ? "true" : "false");
			} else {
				fputs("\"welch\": null, ", out);
			}
			fputs("\"per_seed\": [", out);
			for (size_t s = 0; s < col->nr_seeds; s++) {
				fputs(s ? ", " : "", out);
				num(out, col->seed_value[s * RESULTS_NR_METRICS + r], 1);
			}
			fputs("]}", out);
		}
		fputs("\n     ]}", out);
	}
	fputs("\n  ]\n}\n", out);
}

/* ------------------------------------------------------------------ HTML */

void results_html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
}

/* The table with its statistics; the numbers are printed exactly as the
 * text table prints them (the report's test compares the two).  Classes:
 * "sig" on a significant change, data-metric/data-column for scripts. */
static void print_html(FILE *out, const struct results_table *t, unsigned extra_rows)
{
	fputs("<table class=\"compare\">\n<thead><tr><th>metric</th><th>unit</th>", out);
	for (size_t i = 0; i < t->nr_col; i++) {
		fputs("<th colspan=\"4\">", out);
		results_html_escape(out, t->col[i].key);
		fprintf(out, " <span class=\"n\">(%ld runs, %zu seeds)</span></th>", t->col[i].nr_runs,
		        t->col[i].nr_seeds);
	}
	fputs("</tr>\n<tr><th></th><th></th>", out);
	for (size_t i = 0; i < t->nr_col; i++)
		fputs("<th>mean</th><th>change</th><th>sd</th><th>95% CI</th>", out);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++) {
		const struct results_metric *m = &results_metrics[r];
		if (!results_metric_shown(r, extra_rows))
			continue;
		fputs("<tr><th title=\"", out);
		results_html_escape(out, m->formula);
		if (m->zero_den) {
			fputs("; zero denominator: ", out);
			results_html_escape(out, m->zero_den);
		}
		fputs("\">", out);
		results_html_escape(out, m->name);
		fputs("</th><td>", out);
		results_html_escape(out, m->unit);
		fputs("</td>", out);
		for (size_t i = 0; i < t->nr_col; i++) {
			const struct results_cell *c = &t->col[i].cell[r];
			int sig = i && c->w.valid && c->w.significant;

			fputs("<td class=\"mean\" data-metric=\"", out);
			results_html_escape(out, m->name);
			fputs("\" data-column=\"", out);
			results_html_escape(out, t->col[i].key);
			if (isnan(c->mean))
				fputs("\">n/a</td><td class=\"change\"", out);
			else
				fprintf(out, "\">%.2f</td><td class=\"change%s\"", c->mean, sig ? " sig" : "");
			if (i && c->w.valid)
				fprintf(out, " title=\"Welch t %.3f, df %.2f, p %.4f\"", c->w.t, c->w.df, c->w.p);
			if (isnan(c->change))
				fputs(">-</td><td>", out);
			else
				fprintf(out, ">%s%+.2f%%%s</td><td>", sig ? "*" : "", c->change, sig ? "*" : "");
			if (isnan(c->s.sd))
				fputs("-</td><td>-</td>", out);
			else
				fprintf(out, "%.2f</td><td>%.2f .. %.2f</td>", c->s.sd, c->s.ci_lo, c->s.ci_hi);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* ------------------------------------------------------------------ */

int results_table_print(FILE *out, const struct results_table *t, const struct compare_opts *o)
{
	switch (o->format) {
	case RESULTS_FMT_CSV: print_csv(out, t, o->extra_rows); break;
	case RESULTS_FMT_JSON: print_json(out, t, o->extra_rows); break;
	case RESULTS_FMT_HTML: print_html(out, t, o->extra_rows); break;
	case RESULTS_FMT_VALUES: print_values(out, t, o->extra_rows); break;
	default: print_text(out, t, o); break;
	}
	return ferror(out) ? -1 : 0;
}

void results_metrics_print(FILE *out)
{
	for (size_t r = 0; r < RESULTS_NR_METRICS; r++) {
		const struct results_metric *m = &results_metrics[r];
		fprintf(out, "%s\n  unit     %s\n  formula  %s\n", m->name, m->unit, m->formula);
		if (m->zero_den)
			fprintf(out, "  when the denominator is 0: %s\n", m->zero_den);
		if (m->kernel)
			fprintf(out, "  kernel   %s\n", m->kernel);
		if (m->group)
			fprintf(out, "  printed  with --extra-rows %s\n", results_rows_group_name(m->group));
	}
}
