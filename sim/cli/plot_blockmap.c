/* plot_blockmap.c - mmsim plot's pageblock maps (plot.h): the migratetype
 * of each group of pageblocks over time, of the first seed of each policy
 * (or of one run, --run), as a grid gnuplot's `with image` draws. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include "cli.h"
#include "plot.h"
#include "mmsim/quote.h"

static const char *const mt_names[] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Free", "Isolate",
};
#define MT_NONE 6                       /* no row: white in blockmap.gp */
#define MT_MIXED 7                      /* "Movable mixed": code 7 + the type's code */
#define MAX_MAP_COLUMNS 4096            /* times drawn; more are resampled */
#define MAX_MAP_CELLS (64L << 20)

/* "Movable" -> 1; "Movable mixed" (a group holding foreign pages or
 * blocks of several types: census.h's PAGEBLOCK_MAP_MIXED) -> 7 + 1 */
static int mt_code(const char *s)
{
	size_t len = s ? strcspn(s, " ") : 0;
	int mixed = s && !strcmp(s + len, " mixed");

	if (s && s[len] && !mixed)
		return -1;
	for (int i = 0; i < (int)(sizeof(mt_names) / sizeof(mt_names[0])); i++)
		if (s && strlen(mt_names[i]) == len && !strncmp(s, mt_names[i], len))
			return mixed ? MT_MIXED + i : i;
	return -1;
}

/* the stored map: T[nt] the times, cell[i * ngrp + g] the code of group
 * gmin + g at T[i] */
struct map {
	double *T;
	signed char *cell;
	long gmin, ngrp, nt, i, unknown;
};

static int map_cell(void *arg, double t, long grp, const char *migratetype)
{
	struct map *m = arg;
	int code = mt_code(migratetype);

	if (m->i < 0 || t != m->T[m->i]) {
		if (m->i + 1 >= m->nt)          /* cannot happen: counted before */
			return 0;
		m->T[++m->i] = t;
	}
	if (code < 0)
		m->unknown++;
	else
		m->cell[m->i * m->ngrp + grp - m->gmin] = (signed char)code;
	return 0;
}

/* The map of one run as a regular grid (`with image` needs one): every
 * stored time is a column when the sampling interval is constant;
 * otherwise columns are spaced by the smallest interval and each shows the
 * latest map at or before its time. */
static int plot_blockmap_run(struct plot_ctx *c, const char *run_id, const char *policy, long seed)
{
	struct map m = { .i = -1 };
	double *T, dt = 1;
	long gmax, nt, ngrp, ncol;
	int rc = 0, regular = 1;
	char pol[64], idslug[64], name[128], vars[1024];
	struct plot_dat d;
	FILE *f;

	if (results_blockmap_extent(c->r, run_id, &m.gmin, &gmax, &m.nt))
		return plot_read_fail(c);
	nt = m.nt;
	plot_slug(pol, sizeof(pol), policy);
	plot_slug(idslug, sizeof(idslug), run_id);
	snprintf(name, sizeof(name), "blockmap-%s-seed%ld", pol, seed);
	if (nt == 0) {
		plot_note("run %s has no blockmap rows: %s skipped", run_id, name);
		return 0;
	}
	/* in double: a garbage grp must not overflow */
	if ((double)gmax - (double)m.gmin + 1 > (double)(MAX_MAP_CELLS / nt)) {
		plot_note("run %s: blockmap too large (%ld times, groups %ld..%ld): %s skipped",
		          run_id, nt, m.gmin, gmax, name);
		return 0;
	}
	ngrp = m.ngrp = gmax - m.gmin + 1;

	/* the stored times, then the cells */
	T = m.T = malloc(sizeof(*T) * (size_t)nt);
	m.cell = malloc((size_t)(nt * ngrp));
	if (!T || !m.cell) {
		error("out of memory for the blockmap of run %s", run_id);
		rc = EX_SOFTWARE;
		goto out;
	}
	memset(m.cell, MT_NONE, (size_t)(nt * ngrp));
	if (results_blockmap_each(c->r, run_id, map_cell, &m)) {
		rc = plot_read_fail(c);
		goto out;
	}
	if (m.unknown)
		plot_note("run %s: %ld blockmap rows of unknown migratetypes drawn as 'no data'", run_id,
		          m.unknown);

	/* the grid's columns */
	ncol = nt;
	if (nt > 1) {
		dt = T[1] - T[0];
		for (long i = 1; i + 1 < nt; i++)
			if (T[i + 1] - T[i] < dt)
				dt = T[i + 1] - T[i];
		for (long i = 0; i + 1 < nt; i++)
			if (fabs(T[i + 1] - T[i] - dt) > 1e-6 * dt)
				regular = 0;
		if (!regular) {
			double span = T[nt - 1] - T[0], cols = span / dt + 1.5;

			if (cols > MAX_MAP_COLUMNS) {
				ncol = MAX_MAP_COLUMNS;
				dt = span / (double)(ncol - 1);
			} else {
				ncol = (long)cols;
			}
		}
	}

	plot_dat_init(&d, name, "blockmap.gp", "");
	f = plot_dat_open(c, &d);
	if (!f) {
		rc = EX_CANTCREAT;
		goto out;
	}
	fprintf(f, "# pageblock map of run %s (policy %s, seed %ld), from the blockmap table\n"
	           "# codes: 0 Unmovable, 1 Movable, 2 Reclaimable, 3 HighAtomic, 4 Free,\n"
	           "#        5 Isolate, 6 no data; 7 + a type's code: a mixed group of that\n"
	           "#        majority type (blocks holding foreign pages or of several types)\n",
	        idslug, pol, seed);
	if (!regular)
		fprintf(f, "# sample times are irregular: columns every %.6g s, each showing\n"
		           "# the latest map at or before its time\n", dt);
	if (nt == 1 || ngrp == 1)
		fprintf(f, "# padded with 'no data' to the 2 x 2 cells gnuplot's image needs\n");
	fprintf(f, "# columns: t_s group code (a blank line between times)\n");
	for (long j = 0, i = 0; j < (ncol > 1 ? ncol : 2); j++) {
		double x = regular ? (j < nt ? T[j] : T[0] + 1) : T[0] + (double)j * dt;

		if (!regular)
			while (i + 1 < nt && T[i + 1] <= x + 1e-6 * dt)
				i++;
		else
			i = j;
		for (long g = 0; g < (ngrp > 1 ? ngrp : 2); g++)
			fprintf(f, "%.9g %ld %d\n", x, m.gmin + g,
			        (i < nt && g < ngrp) ? m.cell[i * ngrp + g] : MT_NONE);
		fputc('\n', f);
	}
	rc = plot_dat_close(c, &d);
	if (rc)
		goto out;

	{
		FILE *v = fmemopen(vars, sizeof(vars), "w");
		char title[300];

		if (!v) {
			rc = EX_SOFTWARE;
			goto out;
		}
		snprintf(title, sizeof(title), "Pageblock map: %s, seed %ld (run %s)", policy, seed, run_id);
		fprintf(v, "datafile = ");
		gp_quote(v, d.file);
		fprintf(v, "\ntitle_text = ");
		gp_quote(v, title);
		fputc('\n', v);
		fputc('\0', v);
		fclose(v);
		vars[sizeof(vars) - 1] = '\0';
	}
	rc = plot_draw_gp(c, name, "blockmap.gp", vars);
out:
	free(T);
	free(m.cell);
	return rc;
}

struct blockmaps {
	struct plot_ctx *c;
	char last[256];                 /* the policy drawn last */
	int n;
};

/* per policy the lowest seed that has a map (the runs come by policy and seed) */
static int blockmap_of(void *arg, const char *run_id, const char *policy, long long seed)
{
	struct blockmaps *b = arg;

	if (!strcmp(policy, b->last))
		return 0;
	snprintf(b->last, sizeof(b->last), "%s", policy);
	b->n++;
	return plot_blockmap_run(b->c, run_id, policy, (long)seed);
}

int plot_blockmaps(struct plot_ctx *c, const char *only_run)
{
	struct blockmaps b = { .c = c };
	int rc = results_blockmap_runs(c->r, only_run, c->nr_policies ? c->policy[0] : NULL,
	                               blockmap_of, &b);

	if (rc < 0)
		return plot_read_fail(c);
	if (!rc && b.n == 0) {
		if (only_run)
			plot_note("run %s has no blockmap rows: blockmap skipped", only_run);
		else
			plot_note("no blockmap rows: blockmap skipped");
	}
	return rc;
}
