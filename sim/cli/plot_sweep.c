/* plot_sweep.c - mmsim plot's sweep plot (plot.h): a per-run value
 * against a swept parameter, per policy, the mean and the spread over the
 * runs (seeds) at each value. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include "cli.h"
#include "plot.h"
#include "mmsim/quote.h"

struct sweep_pt {
	int pol;
	char *label;                    /* the param value as stored */
	struct results_point p;         /* p.x: the value, or its rank */
};

struct sweep {
	struct plot_ctx *c;
	struct sweep_pt *pts;
	size_t npts, cap;
};

/* "THP fault fail rate %" -> "thp-fault-fail-rate-pct" */
static void metric_slug(char *out, size_t n, const char *in)
{
	size_t i = 0;
	int dash = 0;

	for (; *in && i + 4 < n; in++) {
		char c = *in;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '%') {
			if (dash && i > 0)
				out[i++] = '-';
			dash = 0;
			if (c == '%')
				i += (size_t)snprintf(out + i, n - i, "pct");
			else
				out[i++] = c;
		} else {
			dash = 1;
		}
	}
	out[i] = '\0';
	if (i == 0)
		snprintf(out, n, "metric");
}

static int cmp_pt(const void *a, const void *b)
{
	const struct sweep_pt *p = a, *q = b;

	if (p->pol != q->pol)
		return p->pol - q->pol;
	return (p->p.x > q->p.x) - (p->p.x < q->p.x);
}

/* the sort key of a value: a number, a size (2G), else NAN (compared as text) */
static double value_key(const char *s, int *numeric)
{
	char *end;
	uint64_t sz;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end != s && !*end && !errno && isfinite(d)) {
		*numeric = 1;
		return d;
	}
	*numeric = 0;
	if (!parse_size(s, &sz))
		return (double)sz;
	return NAN;
}

static int cmp_label(const void *a, const void *b)
{
	const char *s = *(const char *const *)a, *t = *(const char *const *)b;
	int n1, n2;
	double x = value_key(s, &n1), y = value_key(t, &n2);

	if (!isnan(x) && !isnan(y) && x != y)
		return (x > y) - (x < y);
	return strcmp(s, t);
}

struct swept {
	char *key;
	size_t n;
	char list[1024];
	int found;
};

static int swept_key(void *arg, const char *k)
{
	struct swept *s = arg;
	size_t len = strlen(s->list);

	if (!s->found)
		snprintf(s->key, s->n, "%s", k);
	snprintf(s->list + len, sizeof(s->list) - len, "%s%s", len ? ", " : "", k);
	s->found++;
	return 0;
}

/* Which params key is swept: 1 and key set, 0 none or several (noted,
 * *rc 0) or a failure (*rc the exit code). */
static int detect_param(struct plot_ctx *c, char *key, size_t n, int *rc)
{
	struct swept s = { .key = key, .n = n };

	*rc = 0;
	if (results_swept_keys(c->r, swept_key, &s)) {
		*rc = plot_read_fail(c);
		return 0;
	}
	if (s.found == 0)
		plot_note("no parameter varies across the runs of a policy (not a sweep): sweep plot skipped");
	else if (s.found > 1)
		plot_note("several parameters vary (%s): choose one with --param; sweep plot skipped", s.list);
	return s.found == 1;
}

static int sweep_point(void *arg, const struct results_point *p)
{
	struct sweep *s = arg;
	int pol = plot_policy_index(s->c, p->policy);

	if (pol < 0)
		return 0;
	if (s->npts == s->cap) {
		struct sweep_pt *np = realloc(s->pts, sizeof(*s->pts) * (s->cap = s->cap ? 2 * s->cap : 16));
		if (!np)
			return EX_SOFTWARE;
		s->pts = np;
	}
	s->pts[s->npts] = (struct sweep_pt){ .pol = pol, .label = strdup(p->label), .p = *p };
	if (!s->pts[s->npts].label)
		return EX_SOFTWARE;
	s->pts[s->npts].p.label = s->pts[s->npts].label;
	s->pts[s->npts].p.policy = NULL;        /* not kept: the query's */
	s->npts++;
	return 0;
}

int plot_sweep(struct plot_ctx *c, const struct results_value *v, const char *param)
{
	const char *metric = v->name;
	char key[256], mslug[128], name[160], extra[1024];
	struct sweep s = { .c = c };
	struct sweep_pt *pts;
	const char **labels = NULL;
	size_t npts, nlabels = 0;
	int rc = 0, categorical = 0;
	double xmin = 0, xmax = 0;

	if (v->src == RESULTS_VALUE_NONE) {
		plot_note("no vmstat or metrics rows: sweep plot skipped");
		return 0;
	}

	if (param) {
		snprintf(key, sizeof(key), "%s", param);
	} else if (!detect_param(c, key, sizeof(key), &rc)) {
		return rc;
	}
	rc = results_sweep_query(c->r, v, key, sweep_point, &s);
	pts = s.pts;
	npts = s.npts;
	if (rc < 0) {
		rc = plot_read_fail(c);
		goto out;
	} else if (rc) {
		error("out of memory reading the sweep");
		goto out;
	}
	if (npts == 0) {
		plot_note("no runs with parameter '%s' and metric '%s': sweep plot skipped", key, metric);
		goto out;
	}

	/* x: the value itself when every value is a number, else its rank
	 * among the distinct values (sizes by size, others by name) */
	labels = malloc(sizeof(*labels) * npts);
	if (!labels) {
		error("out of memory reading the sweep");
		rc = EX_SOFTWARE;
		goto out;
	}
	for (size_t i = 0; i < npts; i++) {
		int numeric;
		value_key(pts[i].label, &numeric);
		if (!numeric)
			categorical = 1;
		labels[i] = pts[i].label;
	}
	qsort(labels, npts, sizeof(*labels), cmp_label);
	for (size_t i = 0; i < npts; i++)
		if (i == 0 || strcmp(labels[i], labels[nlabels - 1]))
			labels[nlabels++] = labels[i];
	for (size_t i = 0; i < npts; i++) {
		int numeric;
		pts[i].p.x = value_key(pts[i].label, &numeric);
		if (categorical)
			for (size_t k = 0; k < nlabels; k++)
				if (!strcmp(labels[k], pts[i].label))
					pts[i].p.x = (double)k;
	}
	qsort(pts, npts, sizeof(*pts), cmp_pt);
	for (size_t i = 0; i < npts; i++) {
		xmin = i == 0 || pts[i].p.x < xmin ? pts[i].p.x : xmin;
		xmax = i == 0 || pts[i].p.x > xmax ? pts[i].p.x : xmax;
	}

	metric_slug(mslug, sizeof(mslug), metric);
	snprintf(name, sizeof(name), "sweep-%s", mslug);
	{
		struct plot_dat d;
		char header[1024];

		/* the names as given, quoted, on one comment line each */
		FILE *h = fmemopen(header, sizeof(header), "w");
		if (!h) {
			rc = EX_SOFTWARE;
			goto out;
		}
		fputs("# metric ", h);
		gp_quote(h, metric);
		fputs("\n# against the parameter ", h);
		gp_quote(h, key);
		fprintf(h, ", per policy: mean, min and max over\n"
			"# the runs (seeds) at each value (ratios are per run, then averaged)\n"
			"# columns: x mean min max runs \"value\"%s\n",
			categorical ? "  (x is the rank of the value)" : "");
		fputc('\0', h);
		fclose(h);
		header[sizeof(header) - 1] = '\0';
		plot_dat_init(&d, name, "sweep.gp", header);
		for (size_t i = 0; i < npts; i++)
			if ((rc = plot_dat_point(c, &d, pts[i].pol, &pts[i].p)))
				goto out;
		FILE *vf = fmemopen(extra, sizeof(extra), "w");
		if (!vf) {
			outfile_abort(&d.out);
			rc = EX_SOFTWARE;
			goto out;
		}
		fprintf(vf, "metric = ");
		gp_quote(vf, metric);
		fprintf(vf, "\nparam = ");
		gp_quote(vf, key);
		fprintf(vf, "\ncategorical = %d\nnvalues = %zu\nxmin = %.9g\nxmax = %.9g\n",
		        categorical, nlabels, xmin, xmax);
		fputc('\0', vf);
		fclose(vf);
		extra[sizeof(extra) - 1] = '\0';
		rc = plot_series_finish(c, &d, extra);
	}
out:
	for (size_t i = 0; i < s.npts; i++)
		free(s.pts[i].label);
	free(s.pts);
	free(labels);
	return rc;
}
