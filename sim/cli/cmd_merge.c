/* cmd_merge.c - mmsim merge -o OUT.db IN.db...: run files into one database. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "results.h"

static void merge_usage(FILE *f)
{
	fprintf(f, "usage: mmsim merge -o OUT.db IN.db...\n\n"
	           "Copies every run of the inputs (run files or merged files) into OUT.db,\n"
	           "creating it if missing.  Rows already there are kept: merging the same\n"
	           "files again changes nothing.  Each input is copied in one transaction; the\n"
	           "first bad input stops the merge, and nothing of it is left in OUT.db.\n"
	           "OUT.db is never written in place: the merge writes a copy and renames it\n"
	           "over OUT.db, under the lock OUT.db.lock (a merge into the same OUT.db waits\n"
	           "for it), so that a killed merge leaves OUT.db as it was.\n\n"
	           "  -o, --output FILE     the merged database (required)\n");
}

/* Can out be created?  Checked first so that the exit code can tell a
 * missing permission (73) from a bad database (65). */
static int out_creatable(const char *out)
{
	char *copy;
	int ok;

	if (!access(out, F_OK))
		return !access(out, W_OK);
	if (!(copy = strdup(out)))
		return 0;
	ok = !access(dirname(copy), W_OK);
	free(copy);
	return ok;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	char err[1024];
	size_t len;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			merge_usage(stdout);
			return EX_OK;
		default:
			merge_usage(stderr);
			return EX_USAGE;
		}
	}
	if (!out || optind == argc) {
		error("merge: %s", !out ? "no output file (-o OUT.db)" : "no input files");
		return EX_USAGE;
	}
	for (int i = optind; i < argc; i++)
		if (access(argv[i], R_OK)) {
			error("merge: %s: %s", argv[i], strerror(errno));
			return EX_NOINPUT;
		}
	if (!out_creatable(out)) {
		error("merge: %s: cannot create or write: %s", out, strerror(errno));
		return EX_CANTCREAT;
	}
	rc = results_merge(out, (const char *const *)argv + optind, (size_t)(argc - optind),
	                   err, sizeof(err));
	if (rc == -2) {
		error("merge: %s", err);
		return EX_TEMPFAIL;
	}
	if (rc) {
		error("merge: %s", err);
		len = strlen(out);
		/* the message names the file at fault: the output (unwritable, or
		 * not a results database) or an input */
		return !strncmp(err, out, len) && err[len] == ':' && access(out, F_OK)
		       ? EX_CANTCREAT : EX_DATAERR;
	}
	return EX_OK;
}
