/* main.c - the mmsim command: a verb table in the manner of git and perf. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "mmsim/limits.h"
#include "mmsim/version.h"

static const struct verb {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} verbs[] = {
	{ "demo",  cmd_demo,  "randomized allocation load on each policy, with /proc-style state" },
	{ "show",  cmd_show,  "boot a machine (optionally load it) and print a /proc file" },
	{ "bench", cmd_bench, "allocator micro-benchmarks (pairs per second; not a test)" },
	{ "list",  cmd_list,  "list policies, workloads or postings, with their switches" },
	{ "plot",  cmd_plot,  "draw a results database with gnuplot (png, svg)" },
	{ "run",   cmd_run,   "simulate one scenario file into a results database" },
	{ "sweep", cmd_sweep, "run a scenario over varied keys and seeds, merge the results" },
	{ "merge", cmd_merge, "merge results databases: mmsim merge -o OUT.db IN.db..." },
	{ "import", cmd_import, "a real kernel's runs (harness run directories) into a results database" },
	{ "compare", cmd_compare, "the RFC cover letter's table from a results database" },
	{ "report", cmd_report, "a static HTML report of a results database (table, statistics, plots)" },
	{ "ablate", cmd_ablate, "a policy's switches one at a time: all, then each off; one column each" },
	{ "reproduce", cmd_reproduce, "the RFC experiment: vanilla and hugealloc_rfc over seeds, table and plots" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mmsim [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (const struct verb *v = verbs; v->name; v++)
		fprintf(f, "   %-9s %s\n", v->name, v->help);
	fprintf(f, "\nSee 'mmsim help COMMAND' or 'mmsim COMMAND --help' for a command's options.\n"
	           "Exit codes: 0 success, 64 bad usage, 65 bad database, 66 missing input,\n"
	           "70 internal error or invariant violation, 73 cannot create the output,\n"
	           "74 cannot write the output (standard output included), 75 busy (another\n"
	           "sweep on the directory), 78 bad configuration value.\n");
}

/* What a verb printed must have reached its file: stdio reports a write
 * error (a full disk, a closed pipe's EIO, /dev/full) only at a flush or
 * on ferror(), so without this check a table lost on the way would exit
 * 0.  A write error turns success into 74 (EX_IOERR). */
static int finish(int rc)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;

	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		error("cannot write standard output: %s", strerror(e ? e : EIO));
		if (rc == EX_OK)
			rc = EX_IOERR;
	}
	return rc;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
	return finish(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return EX_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("mmsim %s (%s)\n", MMSIM_VERSION, MMSIM_GIT_REVISION);
		return EX_OK;
	}
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			usage(stdout);
			return EX_OK;
		}
		for (const struct verb *v = verbs; v->name; v++)
			if (!strcmp(v->name, argv[2])) {
				char *args[] = { argv[2], "--help", NULL };
				return v->fn(2, args);
			}
		error("help: '%s' is not an mmsim command (see 'mmsim --help')", argv[2]);
		return EX_USAGE;
	}
	for (const struct verb *v = verbs; v->name; v++)
		if (!strcmp(v->name, cmd)) {
			/* a malformed limit is refused before any input is read,
			 * so that no key is blamed for it */
			char m[320];
			if (mmsim_host_memory_env_check(m, sizeof(m)) ||
			    mmsim_check_at_end_env_check(m, sizeof(m))) {
				error("%s", m);
				return EX_CONFIG;
			}
			return v->fn(argc - 1, argv + 1);
		}
	error("'%s' is not an mmsim command (see 'mmsim --help')", cmd);
	return EX_USAGE;
}
