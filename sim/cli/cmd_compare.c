/* cmd_compare.c - mmsim compare DB: the RFC cover letter's table. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "results.h"

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: mmsim compare DB [--by KEY] [--baseline NAME] [--where SQL] [--spread]\n"
	           "                     [--iteration-spread] [--stats] [--format FMT]\n"
	           "                     [--extra-rows cadence|wakes] [--allow-mixed]\n"
	           "       mmsim compare --list-metrics\n\n"
	           "Prints the RFC cover letter's table from a results database (a run file\n"
	           "or a merged one): for each row the mean over the runs of each column and\n"
	           "its change against the baseline column.  Percentage rows are computed\n"
	           "per run, then averaged.  A run of several iterations ([run] iterations)\n"
	           "counts as the mean of its iterations' values.  Only runs with status 'ok'\n"
	           "count.\n\n"
	           "  --by KEY              one column per value of KEY: a runs column (policy,\n"
	           "                        the default; seed, workload, sweep_id, source, ...)\n"
	           "                        or a parameter (e.g. machine.ram); by policy, the\n"
	           "                        real kernel's runs (mmsim import) of a policy are\n"
	           "                        a column of their own, real:POLICY\n"
	           "  --baseline NAME       the first column, the one changes are relative to\n"
	           "                        (default: vanilla if present, else the first value;\n"
	           "                        a real column too: --baseline real:v6_15)\n"
	           "  --where SQL           only runs matching this SQL condition on the runs\n"
	           "                        table, e.g. \"seed < 5\"\n"
	           "  --spread              a line under each row with the min..max over runs\n"
	           "  --iteration-spread    a line under each row with the min..max over the\n"
	           "                        iterations of every run\n"
	           "  --stats               lines under each row with the standard deviation and\n"
	           "                        the 95%% confidence interval of the mean over seeds\n"
	           "                        (Student t) and Welch's t-test against the baseline;\n"
	           "                        a significant change (p < 0.05) is marked *change*\n"
	           "                        instead of (change), as mmtests' compare-kernels does\n"
	           "  --format FMT          text (the cover letter's table, default), csv (every\n"
	           "                        statistic per row and column), json (the table with\n"
	           "                        the definitions and per-seed values), html (a table\n"
	           "                        element), values (CSV metric,column,seed,value)\n"
	           "  --extra-rows cadence  after the cover letter's rows, how often kswapd and\n"
	           "                        kcompactd ran: pageoutrun, kswapd_low_wmark_hit_quickly,\n"
	           "                        kswapd_high_wmark_hit_quickly, compact_daemon_wake,\n"
	           "                        kswapd_inodesteal (repeat the option for both)\n"
	           "  --extra-rows wakes    who woke kswapd and kcompactd, and who stalled, by\n"
	           "                        order: the tracepoints real/harness counts\n"
	           "                        (mm_vmscan_wakeup_kswapd, ...); n/a for a real run\n"
	           "                        that did not trace\n"
	           "  --allow-mixed         average a column's runs even when they ran different\n"
	           "                        scenarios (by default such a column is an error that\n"
	           "                        names the key they differ in: beside the seed and the\n"
	           "                        column's key, a column's simulated runs must agree)\n"
	           "  --list-metrics        print every row's definition: unit, formula, value\n"
	           "                        when a denominator is 0, kernel-version notes\n\n"
	           "A row a column's runs did not measure prints n/a (a real kernel's run\n"
	           "lacking a counter, a build the window cut short).\n");
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "where", required_argument, NULL, 'w' },
		{ "spread", no_argument, NULL, 's' },
		{ "iteration-spread", no_argument, NULL, 'i' },
		{ "stats", no_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "list-metrics", no_argument, NULL, 'L' },
		{ "extra-rows", required_argument, NULL, 'x' },
		{ "allow-mixed", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts o = { .notes = stderr };
	struct results_table *t;
	const char *db;
	char err[1024];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': o.by = optarg; break;
		case 'B': o.baseline = optarg; break;
		case 'w': o.where = optarg; break;
		case 's': o.spread = 1; break;
		case 'i': o.iteration_spread = 1; break;
		case 'S': o.stats = 1; break;
		case 'M': o.allow_mixed = 1; break;
		case 'x':
			if (!(o.extra_rows |= results_rows_group(optarg))) {
				error("compare: unknown --extra-rows '%s' (valid: cadence, wakes)", optarg);
				return EX_USAGE;
			}
			break;
		case 'L':
			results_metrics_print(stdout);
			return EX_OK;
		case 'f': {
			static const char *const fmts[] = { "text", "csv", "json", "html", "values", NULL };
			int k;
			for (k = 0; fmts[k] && strcmp(fmts[k], optarg); k++)
				;
			if (!fmts[k]) {
				error("compare: unknown format '%s' (valid: text, csv, json, html, values)", optarg);
				return EX_USAGE;
			}
			o.format = (enum results_format)k;
			break;
		}
		case 'h':
			compare_usage(stdout);
			return EX_OK;
		default:
			compare_usage(stderr);
			return EX_USAGE;
		}
	}
	if (argc - optind != 1) {
		error("compare: %s", optind == argc ? "no database given" : "one database only");
		return EX_USAGE;
	}
	db = argv[optind];
	if (access(db, R_OK)) {
		error("compare: %s: %s", db, strerror(errno));
		return EX_NOINPUT;
	}
	/* the whole table computed before the first byte is printed: a
	 * failure to compute is the database's (65), one to print a write
	 * error (74, the reason said by main's check of stdout) */
	if (results_table_compute(&t, db, &o, err, sizeof(err))) {
		error("compare: %s", err);
		return EX_DATAERR;
	}
	if (results_table_print(stdout, t, &o) || fflush(stdout)) {
		results_table_free(t);
		return EX_IOERR;
	}
	results_table_free(t);
	return EX_OK;
}
