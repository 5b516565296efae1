/* cmd_run.c - mmsim run: simulate one scenario into one database file,
 * or one line of a sweep's manifest (read and checked against the sweep's
 * identity by the experiment layer, <mmsim/experiment.h>). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run.h"
#include "results.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim run SCENARIO [--set KEY=VALUE]... [--seed N] [--policy NAME] -o RUN.db\n"
	        "                 [--check-every N]\n"
	        "       mmsim run SCENARIO [--set KEY=VALUE]... [--seed N] [--policy NAME] --dump-config\n"
	        "       mmsim run --manifest FILE --index N [--check-every N]\n\n"
	        "Simulate the machine and workloads of a scenario file (docs/scenario.md) and\n"
	        "store the run in a new SQLite database: the resolved scenario, the vmstat\n"
	        "counters over the measured window, the workloads' metrics, time series,\n"
	        "pageblock censuses.  The file appears only when the run is complete.\n\n"
	        "  -o, --output FILE     the run's database (must not be left half-written: it is\n"
	        "                        written under a temporary name and renamed at the end)\n"
	        "  --set SECTION.KEY=V   override a key of the scenario (repeatable); also vm.KEY,\n"
	        "                        transparent_hugepage.KEY, POLICY.SWITCH, WORKLOAD.PARAM\n"
	        "  --seed N              [run] seed\n"
	        "  --policy NAME         [policy] name\n"
	        "  --dump-config         print the resolved scenario and exit\n"
	        "  --manifest FILE       run line N of a sweep manifest (see mmsim sweep) ...\n"
	        "  --index N             ... this line, from 1\n"
	        "  --check-every N       run the invariant checker every N allocator operations\n\n"
	        "Scenario keys and defaults:\n");
	scenario_print_keys(f);
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'p' },
		{ "dump-config", no_argument, NULL, 'D' },
		{ "manifest", required_argument, NULL, 'M' },
		{ "index", required_argument, NULL, 'I' },
		{ "check-every", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *sets[MAX_SETS];
	int nr_sets = 0, c, rc, dump = 0;
	const char *out = NULL, *seed = NULL, *policy = NULL, *manifest = NULL, *index_arg = NULL;
	struct run_opts ro = { 0 };
	struct manifest_line ml = { 0 };
	struct scenario *s;
	unsigned long index = 0;
	char err[1536], sweep_id_buf[40];

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 's': seed = optarg; break;
		case 'p': policy = optarg; break;
		case 'D': dump = 1; break;
		case 'M': manifest = optarg; break;
		case 'I': index_arg = optarg; break;
		case 'S':
			if (add_set(sets, &nr_sets, optarg))
				return EX_USAGE;
			break;
		case 'C':
			if (parse_ulong(optarg, &ro.check_every)) {
				error("--check-every: '%s' is not a number", optarg);
				return EX_CONFIG;
			}
			break;
		case 'h':
			usage(stdout);
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}

	if (manifest || index_arg) {
		if (!manifest || !index_arg || optind != argc || out || nr_sets || seed || policy) {
			error("--manifest FILE --index N takes no scenario, -o, --set, --seed or --policy "
			      "(the manifest line has them)");
			return EX_USAGE;
		}
		if (parse_ulong(index_arg, &index) || index < 1) {
			error("--index: '%s' is not a line number (from 1)", index_arg);
			return EX_USAGE;
		}
		rc = manifest_read(manifest, index, &ml, err, sizeof(err));
		if (rc) {
			error("%s", err);
			return rc == -2 ? EX_NOINPUT : EX_CONFIG;
		}
		rc = run_build_scenario(ml.scenario, ml.sets, ml.nr_sets, NULL, ml.seed, &s);
		if (!rc && (rc = sweep_check_line(manifest, index, scenario_hash(s))))
			scenario_free(s);       /* another binary, an edited scenario */
		if (rc) {
			manifest_line_free(&ml);
			return rc;
		}
		results_set_sweep_line(index);  /* merged once, whatever reruns */
		/* every line of one sweep, wherever it runs, carries the same id */
		sweep_id(manifest, sweep_id_buf);
		ro.out = ml.out_path;
		ro.sweep_id = sweep_id_buf;
		rc = run_scenario(s, &ro);
		scenario_free(s);
		manifest_line_free(&ml);
		return rc;
	}

	if (optind + 1 != argc) {
		if (optind == argc)
			error("run: no scenario file given");
		else
			error("run: one scenario file, not '%s' too", argv[optind + 1]);
		usage(stderr);
		return EX_USAGE;
	}
	if (!dump && !out) {
		error("run: no output file (-o RUN.db)");
		return EX_USAGE;
	}
	rc = run_build_scenario(argv[optind], sets, nr_sets, policy, seed, &s);
	if (rc)
		return rc;
	if (dump) {
		fputs(scenario_text(s), stdout);
		scenario_free(s);
		return EX_OK;
	}
	ro.out = out;
	rc = run_scenario(s, &ro);
	scenario_free(s);
	return rc;
}
