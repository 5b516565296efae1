/* cmd_plot.c - mmsim plot DB -o DIR: draw a results database with gnuplot.
 *
 * For each plot the data is read through results/ (query.h: the database
 * is only read) and written to DIR/NAME.dat with a comment header saying
 * what the columns are; DIR/NAME.gp is a complete gnuplot script (a few
 * variables, then plots/common.gp and plots/NAME.gp, compiled into mmsim),
 * so that a plot can be restyled and redrawn by hand:
 *     cd DIR && gnuplot -e 'fmt="svg"' NAME.gp
 * gnuplot runs once per format, in DIR.  plot_write.c writes every file
 * (and keeps the database's text out of gnuplot's reach);
 * plot_blockmap.c and plot_sweep.c make those two plots, this file the
 * verb and the series over time.
 *
 * Only runs with status 'ok' are read: a failed run's series stop early
 * and would bend the means.  A plot whose data is absent is skipped with a
 * note on stderr; the files written are listed on stdout.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include "cli.h"
#include "plot.h"

static const char DEFAULT_METRIC[] = "THP fault fail rate %";

static void plot_usage(FILE *f)
{
	fprintf(f, "usage: mmsim plot DB -o DIR [--format png|svg|both] [--metric NAME]\n"
	           "                  [--param KEY] [--run ID]\n\n"
	           "Reads the results database DB (read-only) and draws with gnuplot into DIR\n"
	           "(created if missing), each plot as NAME.dat (the data), NAME.gp (the\n"
	           "script) and NAME.png / NAME.svg:\n"
	           "  thp_success              THP fault success rate over time, per policy\n"
	           "  blocks                   free and mixed pageblocks over time, per policy\n"
	           "  census                   blocks holding foreign pages over time, per type\n"
	           "                           and policy, with the spread over seeds\n"
	           "  blockmap-POLICY-seedN    the pageblock map of the first seed of each policy\n"
	           "  sweep-METRIC             METRIC against a swept parameter, per policy\n\n"
	           "  -o, --output DIR      where to write (required)\n"
	           "  --format FMT          png, svg or both (default both)\n"
	           "  --metric NAME         the sweep plot's metric: a compare row (\"THP fault\n"
	           "                        fail rate %%\", the default) or a vmstat or metrics name\n"
	           "  --param KEY           the swept parameter (default: the one params key\n"
	           "                        that varies within a policy, seeds aside)\n"
	           "  --run ID              draw the pageblock map of this run only\n");
}

/* ------------------------------------------------------- series over time */

static const struct {
	enum results_series s;
	const char *name, *tmpl, *header, *skipped;
} over_time[] = {
	{ RESULTS_SERIES_THP_SUCCESS, "thp_success", "thp_success.gp",
	  "# THP fault success rate in each sample interval, percent:\n"
	  "#   100 * d(thp_fault_alloc) / (d(thp_fault_alloc) + d(thp_fault_fallback))\n"
	  "# from the cumulative samples of each run; intervals without THP faults\n"
	  "# are skipped; then mean, min and max over the runs (seeds) at each t.\n"
	  "# columns: t_s success_pct_mean success_pct_min success_pct_max runs\n",
	  "no thp_fault_alloc/thp_fault_fallback samples with faults: thp_success skipped" },
	{ RESULTS_SERIES_BLOCKS, "blocks", "blocks.gp",
	  "# pageblocks, mean over the runs (seeds) at each census time t:\n"
	  "# free = wholly free pageblocks (the free_pageblocks sample at or\n"
	  "# before t, for every policy; a file without it: the census row of a\n"
	  "# 'Free' migratetype; NaN without either),\n"
	  "# mixed = mixed_blocks summed over the migratetypes\n"
	  "# columns: t_s free_blocks mixed_blocks runs\n",
	  "no block_census rows: blocks skipped" },
	{ RESULTS_SERIES_CENSUS, "census", "census.gp",
	  "# blocks holding foreign pages (block_census.mixed_blocks), over the\n"
	  "# runs (seeds) at each census time: mean, min, max of\n"
	  "#   unmovable blocks with LRU or reclaimable slab pages,\n"
	  "#   reclaimable blocks with non-slab pages,\n"
	  "#   movable blocks with non-LRU pages\n"
	  "# columns: t_s unmov_mean unmov_min unmov_max recl_mean recl_min recl_max\n"
	  "#          mov_mean mov_min mov_max runs\n",
	  "no block_census rows: census skipped" },
};

struct series_arg {
	struct plot_ctx *c;
	struct plot_dat *d;
};

static int series_point(void *arg, const struct results_point *p)
{
	struct series_arg *a = arg;
	int i = plot_policy_index(a->c, p->policy);

	return i < 0 ? 0 : plot_dat_point(a->c, a->d, i, p);
}

/* one of over_time: a block per policy in its .dat, drawn */
static int plot_over_time(struct plot_ctx *c, size_t k)
{
	struct plot_dat d;
	struct series_arg a = { c, &d };
	char vars[512] = "";
	int rc;

	plot_dat_init(&d, over_time[k].name, over_time[k].tmpl, over_time[k].header);
	rc = results_series_query(c->r, over_time[k].s, c->nr_policies ? c->policy[0] : NULL,
	                          series_point, &a);
	if (rc) {
		outfile_abort(&d.out);
		return rc < 0 ? plot_read_fail(c) : rc;
	}
	if (!d.f) {
		plot_note("%s", over_time[k].skipped);
		return 0;
	}
	if (over_time[k].s == RESULTS_SERIES_BLOCKS) {
		/* the 1-based indices of the policies that have free blocks: the
		 * others get no "free" line (not an empty one) */
		size_t n = (size_t)snprintf(vars, sizeof(vars), "has_free = %d\nfree_policies = \"",
		                            d.with_y0 != 0);
		if (!d.with_y0)
			plot_note("no free_pageblocks samples (nor 'Free' census rows): blocks shows mixed blocks only");
		for (int p = 0; p < 64 && n < sizeof(vars) - 8; p++)
			if (d.with_y0 & (1ul << p))
				n += (size_t)snprintf(vars + n, sizeof(vars) - n, "%s%d",
				                      n && vars[n - 1] != '"' ? " " : "", p + 1);
		snprintf(vars + n, sizeof(vars) - n, "\"\n");
	}
	return plot_series_finish(c, &d, vars);
}

/* ------------------------------------------------------------ the policies */

static int add_policy(void *arg, const char *name)
{
	struct plot_ctx *c = arg;

	if (c->nr_policies == PLOT_MAX_POLICIES) {
		plot_note("more than %d policies: the others are not drawn", PLOT_MAX_POLICIES);
		return 1;
	}
	/* kept as stored: plot_slug() is for file names only (and 63
	 * characters are enough to tell policies apart) */
	c->policy[c->nr_policies] = strndup(name, 63);
	if (!c->policy[c->nr_policies])
		return 1;
	c->nr_policies++;
	return 0;
}

/* the policies of the 'ok' runs, the registry's first (the baseline)
 * first, the others sorted: the line types of every plot */
static int read_policies(struct plot_ctx *c)
{
	const char *names = mm_policy_names();
	size_t n = strcspn(names, ",");

	if (results_policies(c->r, add_policy, c) < 0)
		return plot_read_fail(c);
	for (int i = 1; i < c->nr_policies; i++)
		if (strlen(c->policy[i]) == n && !strncmp(c->policy[i], names, n)) {
			char *first = c->policy[i];
			memmove(&c->policy[1], &c->policy[0], sizeof(c->policy[0]) * (size_t)i);
			c->policy[0] = first;
			break;
		}
	return 0;
}

/* ---------------------------------------------------------------- the verb */

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "metric", required_argument, NULL, 'm' },
		{ "param", required_argument, NULL, 'k' },
		{ "run", required_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct plot_opts o = { .png = 1, .svg = 1 };
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.dir = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "png") || !strcmp(optarg, "svg") || !strcmp(optarg, "both")) {
				o.png = strcmp(optarg, "svg") != 0;
				o.svg = strcmp(optarg, "png") != 0;
			} else {
				error("plot: unknown format '%s' (valid: png, svg, both)", optarg);
				return EX_USAGE;
			}
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'k':
			o.param = optarg;
			break;
		case 'r':
			o.run = optarg;
			break;
		case 'd':
			o.db = optarg;
			break;
		case 'h':
			plot_usage(stdout);
			return EX_OK;
		default:
			plot_usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind < argc && !o.db)
		o.db = argv[optind++];
	if (optind < argc) {
		error("plot: unexpected argument '%s'", argv[optind]);
		return EX_USAGE;
	}
	if (!o.db || !o.dir) {
		error("plot: %s", !o.db ? "no database given (mmsim plot DB -o DIR)"
		                             : "no output directory given (-o DIR)");
		return EX_USAGE;
	}
	return plot_draw(&o);
}

/* mmsim plot's work, also reproduce's: the plots of o->db into o->dir */
int plot_draw(const struct plot_opts *o)
{
	struct plot_ctx c = { .db_path = o->db, .png = o->png, .svg = o->svg, .quiet = o->quiet };
	const char *metric = o->metric ? o->metric : DEFAULT_METRIC, *run = o->run;
	struct results_value v;
	char dir[4096], err[1024];
	int rc, any;

	snprintf(dir, sizeof(dir), "%s", o->dir);
	/* "-o out/" and "-o out" name the same files */
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	c.dir = dir;

	/* 66 if DB does not exist, 65 if it is not a results database */
	rc = results_reader_open(&c.r, c.db_path, RESULTS_READ_SERIES, err, sizeof(err));
	if (rc) {
		error("plot: %s", err);
		return rc == -2 ? EX_NOINPUT : EX_DATAERR;
	}
	rc = read_policies(&c);
	if (rc)
		goto out;
	if (run && (rc = results_run_exists(c.r, run)) <= 0) {
		if (rc < 0) {
			rc = plot_read_fail(&c);
			goto out;
		}
		error("plot: no run '%s' in %s", run, c.db_path);
		rc = EX_USAGE;
		goto out;
	}
	/* the sweep's metric, checked before anything is drawn, so that a
	 * misspelt name fails alone */
	if (results_value_find(c.r, metric, &v, &any)) {
		rc = plot_read_fail(&c);
		goto out;
	}
	if (v.src == RESULTS_VALUE_NONE && any) {
		error("plot: unknown metric '%s' (a compare row such as '%s', or a name in the "
		      "vmstat or metrics table of %s)", metric, DEFAULT_METRIC, c.db_path);
		rc = EX_USAGE;
		goto out;
	}
	if (!plot_find_gnuplot()) {
		error("plot: gnuplot not found in PATH (install gnuplot-nox: scripts/install-deps.sh)");
		rc = EX_UNAVAILABLE;
		goto out;
	}
	rc = make_dir(c.dir);
	if (rc)
		goto out;
	if (c.nr_policies == 0)
		plot_note("'%s' has no runs with status 'ok': nothing to draw", c.db_path);

	for (size_t k = 0; !rc && k < sizeof(over_time) / sizeof(over_time[0]); k++)
		rc = plot_over_time(&c, k);
	if (!rc)
		rc = plot_blockmaps(&c, run);
	if (!rc && !o->no_sweep)
		rc = plot_sweep(&c, &v, o->param);
	if (!rc && c.gnuplot_failed)
		rc = EX_SOFTWARE;
out:
	for (int i = 0; i < c.nr_policies; i++)
		free(c.policy[i]);
	results_reader_close(c.r);
	return rc;
}
