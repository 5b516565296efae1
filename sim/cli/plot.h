/* plot.h - what the parts of mmsim plot share: cmd_plot.c (the verb and
 * the series over time), plot_blockmap.c and plot_sweep.c (those plots),
 * plot_write.c (the one writer of every .dat, .gp and image).  The data
 * comes from results/ (query.h): nothing here knows the schema. */
#ifndef MMSIM_CLI_PLOT_H
#define MMSIM_CLI_PLOT_H

#include <stdio.h>
#include "mmsim/outfile.h"
#include "results.h"

#define PLOT_MAX_POLICIES 16

struct plot_ctx {
	struct results_reader *r;
	const char *db_path;
	const char *dir;
	int png, svg;                   /* formats to draw */
	/* the policies of the 'ok' runs, the registry's first first: policy
	 * i is drawn with line type i+1 in every plot */
	char *policy[PLOT_MAX_POLICIES];
	int nr_policies;
	int gnuplot_failed;             /* a plot failed to draw; go on with the others */
	int quiet;                      /* do not list the files written */
};

/* "mmsim: plot: ..." on stderr: a plot skipped, and why */
void plot_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* a name safe in a file name and as a gnuplot word: [A-Za-z0-9._+-] */
void plot_slug(char *out, size_t n, const char *in);
/* the index of a policy of c (its line type - 1), -1 if it is not drawn */
int plot_policy_index(const struct plot_ctx *c, const char *name);
/* a query of c->r failed: its message printed; EX_DATAERR */
int plot_read_fail(struct plot_ctx *c);

/* A data file DIR/NAME.dat: a comment header saying what the columns are,
 * then (a series) one block per policy, separated by two blank lines, as
 * gnuplot's index reads them. */
struct plot_dat {
	struct outfile out;
	FILE *f;                        /* NULL until the first row */
	const char *name;               /* "thp_success" */
	const char *tmpl;               /* the template drawing it, "thp_success.gp" */
	const char *header;             /* comment lines, each "# ...\n" */
	char file[256];                 /* "thp_success.dat" */
	int cur;                        /* policy of the current block, -1 none */
	unsigned long with_y0;          /* bit p: policy p has a point with a value in y[0] */
	char policies[PLOT_MAX_POLICIES * 64], ltypes[PLOT_MAX_POLICIES * 4];
};

void plot_dat_init(struct plot_dat *d, const char *name, const char *tmpl, const char *header);
/* create the file and write its header; NULL with the error printed */
FILE *plot_dat_open(struct plot_ctx *c, struct plot_dat *d);
/* A point of policy p's series ("x y... runs", with the label of a
 * sweep), in p's block, begun if this is its first point; the file
 * created at the first point.  0, or EX_CANTCREAT after the message. */
int plot_dat_point(struct plot_ctx *c, struct plot_dat *d, int p, const struct results_point *pt);
/* rename into place and list it; EX_IOERR if the writes failed */
int plot_dat_close(struct plot_ctx *c, struct plot_dat *d);
/* a series' .dat closed and drawn with its template; extra: more gnuplot
 * variables (assignments, one a line) or "" */
int plot_series_finish(struct plot_ctx *c, struct plot_dat *d, const char *extra);
/* Write DIR/NAME.gp (vars, common.gp, the template) and draw NAME.png
 * and/or NAME.svg with gnuplot.  An exit code; a drawing that fails sets
 * c->gnuplot_failed and the others go on. */
int plot_draw_gp(struct plot_ctx *c, const char *name, const char *tmpl, const char *vars);
/* is gnuplot in PATH? */
int plot_find_gnuplot(void);

/* the pageblock maps (plot_blockmap.c); the sweep (plot_sweep.c) of the
 * value v, against param (NULL: the one swept key) */
int plot_blockmaps(struct plot_ctx *c, const char *only_run);
int plot_sweep(struct plot_ctx *c, const struct results_value *v, const char *param);

#endif
