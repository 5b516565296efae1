/* cmd_import.c - mmsim import DIR -o DB: a real kernel's runs (a
 * harness's run directories) into a results database, as runs of source
 * 'real' beside the simulations (results/import_real.c does the work). */
#include <getopt.h>
#include <stdio.h>
#include "cli.h"
#include "import_real.h"
#include "mmsim/version.h"

static void import_usage(FILE *f)
{
	fprintf(f, "usage: mmsim import DIR -o DB\n\n"
	           "Reads a real-kernel harness's series (DIR/runs/NNNN-LABEL/) or one run\n"
	           "directory and adds each complete run (its file status present) to the\n"
	           "results database DB (created if missing) as a run of source 'real': policy\n"
	           "from its provenance, seed = run.seq, the provenance as config and as\n"
	           "parameters real.KEY, /proc/vmstat's counters as after - before, the build's\n"
	           "times as real_time, user_time and system_time, samples.tsv as the time\n"
	           "series, the /proc files as snapshots.  A run the harness marked invalid is\n"
	           "stored with status 'failed'.  Importing the same directory again adds\n"
	           "nothing.  Any malformed file (named with its line and key) imports nothing.\n"
	           "mmsim compare shows the real runs of a policy as the column real:POLICY.\n"
	           "The format: docs/schema.md, \"Real runs\".\n\n"
	           "  -o, --output DB       the results database (required)\n");
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const int exit_code[] = {
		[IMPORT_OK] = EX_OK, [IMPORT_NOINPUT] = EX_NOINPUT, [IMPORT_BADINPUT] = EX_DATAERR,
		[IMPORT_BADOUTPUT] = EX_DATAERR, [IMPORT_CANTCREAT] = EX_CANTCREAT,
	};
	struct import_summary sum;
	const char *out = NULL;
	enum import_error rc;
	char err[2048];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			import_usage(stdout);
			return EX_OK;
		default:
			import_usage(stderr);
			return EX_USAGE;
		}
	}
	if (!out || argc - optind != 1) {
		error("import: %s", !out ? "no output database (-o DB)"
		                         : optind == argc ? "no directory given" : "one directory only");
		return EX_USAGE;
	}
	rc = results_import_real(argv[optind], out, MMSIM_VERSION, &sum, stderr, err, sizeof(err));
	if (rc != IMPORT_OK) {
		error("import: %s", err);
		return exit_code[rc];
	}
	printf("%s: %u runs (%u marked invalid: status failed), %u new in %s", argv[optind], sum.runs,
	       sum.failed, sum.added, out);
	if (sum.incomplete)
		printf("; %u incomplete skipped", sum.incomplete);
	putchar('\n');
	return EX_OK;
}
