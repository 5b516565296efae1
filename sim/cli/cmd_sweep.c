/* cmd_sweep.c - mmsim sweep: a manifest of runs (the cartesian product of
 * the varied keys and the seeds), run here by a pool of child processes
 * or on Slurm (--slurm), then merged into DIR/sweep.db.  The sweep itself
 * - its plan, manifest, identity, lock, job pool and Slurm backend - is
 * the experiment layer's (sim/experiment/, <mmsim/experiment.h>:
 * sweep_execute(), which reproduce and ablate call too); this is its
 * options and usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define MAX_VARY SWEEP_MAX_VARY
#define MAX_VALUES SWEEP_MAX_VALUES

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [--seeds N]\n"
	        "                   [--set SECTION.KEY=V]... [-j JOBS] -o DIR [--force-new]\n"
	        "                   [--slurm [--partition P] [--time T] [--sbatch-arg OPT]...\n"
	        "                            [--mmsim PATH] [--no-wait]]\n"
	        "       mmsim sweep --collect DIR [--no-wait]\n\n"
	        "Write DIR/manifest, one line per run: every combination of the varied\n"
	        "values, each with seeds 1..N.  Run the lines not yet complete in JOBS\n"
	        "child processes (`mmsim run --manifest DIR/manifest --index N`; logs in\n"
	        "DIR/run-NNNN.log), then merge the run files into DIR/sweep.db.  A sweep\n"
	        "stopped midway continues where it stopped when run again.\n\n"
	        "  --vary KEY=V1,V2,...  a scenario key and its values (repeatable)\n"
	        "  --seeds N             seeds 1..N for every combination (default 1)\n"
	        "  --set KEY=VALUE       an override common to all runs (repeatable)\n"
	        "  -j, --jobs JOBS       runs at a time (default 1; each run uses one core)\n"
	        "  -o, --output DIR      the sweep's directory (created if missing)\n"
	        "  --force-new           DIR holds a sweep of another scenario, settings or\n"
	        "                        binary: move it aside (DIR/superseded-TIME/) and\n"
	        "                        start again (without it such a resume is refused)\n\n"
	        "On a Slurm cluster (DIR, the scenario and mmsim on a file system the nodes\n"
	        "share, at the same paths):\n"
	        "  --slurm               submit the lines not yet complete as a job array\n"
	        "                        (DIR/sweep.sbatch; task N runs line N), wait, merge\n"
	        "  --partition P         sbatch --partition (default: the cluster's)\n"
	        "  --time T              sbatch --time, each task's limit (e.g. 30:00)\n"
	        "  --sbatch-arg OPT      one more sbatch option, e.g. --sbatch-arg=--mem=4G\n"
	        "                        (repeatable); -j JOBS caps the tasks running at once\n"
	        "  --mmsim PATH          the mmsim the nodes run (default: this one's path)\n"
	        "  --no-wait             submit and return; collect later with --collect DIR\n"
	        "  --collect DIR         wait for DIR's job, merge, name the failed lines\n\n"
	        "Exit status: 0 if every run is complete and merged, 70 if a run failed\n"
	        "(they are named), 64/66/78 for bad usage, input or configuration, 69 if\n"
	        "Slurm's commands fail, 75 if another sweep (or its Slurm job) is running\n"
	        "on DIR.\n");
}

/* Split "KEY=V1,V2" into v (strings point into a copy). */
static int parse_vary(const char *arg, struct sweep_vary *v)
{
	char *copy = strdup(arg), *eq, *save = NULL, *t;

	if (!copy)
		return -1;
	eq = strchr(copy, '=');
	if (!eq || eq == copy || !eq[1]) {
		error("--vary: '%s' is not KEY=V1,V2,...", arg);
		free(copy);
		return -1;
	}
	*eq = 0;
	v->key = copy;
	v->n = 0;
	for (t = strtok_r(eq + 1, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (v->n == MAX_VALUES) {
			error("--vary %s: more than %d values", copy, MAX_VALUES);
			return -1;
		}
		if (strchr(t, '\t') || strchr(t, '\n')) {
			error("--vary %s: a value may not hold a tab or a newline", copy);
			return -1;
		}
		v->values[v->n++] = t;
	}
	if (!v->n) {
		error("--vary %s: no values", copy);
		return -1;
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "vary", required_argument, NULL, 'V' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "set", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "force-new", no_argument, NULL, 'F' },
		{ "slurm", no_argument, NULL, 'L' },
		{ "partition", required_argument, NULL, 'P' },
		{ "time", required_argument, NULL, 'T' },
		{ "sbatch-arg", required_argument, NULL, 'B' },
		{ "mmsim", required_argument, NULL, 'X' },
		{ "no-wait", no_argument, NULL, 'W' },
		{ "collect", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct sweep_vary vary[MAX_VARY];
	static struct slurm_opts so;
	int force_new = 0, slurm = 0, jobs_given = 0, slurm_only = 0;
	const char *collect = NULL;
	char *sets[MAX_SETS];
	const char *dir = NULL;
	unsigned long jobs = 1, seeds = 1;
	int nr_vary = 0, nr_sets = 0, c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'V':
			if (nr_vary == MAX_VARY) {
				error("--vary: more than %d keys", MAX_VARY);
				return EX_USAGE;
			}
			if (parse_vary(optarg, &vary[nr_vary]))
				return EX_USAGE;
			nr_vary++;
			break;
		case 'n':
			if (parse_seeds(optarg, &seeds))
				return EX_USAGE;
			break;
		case 'S':
			if (add_set(sets, &nr_sets, optarg))
				return EX_USAGE;
			break;
		case 'j':
			if (parse_jobs(optarg, &jobs))
				return EX_USAGE;
			jobs_given = 1;
			break;
		case 'L':
			slurm = 1;
			break;
		case 'P':
			so.partition = optarg;
			slurm_only = 1;
			break;
		case 'T':
			so.time = optarg;
			slurm_only = 1;
			break;
		case 'B':
			if (so.nr_sbatch_args == SLURM_MAX_SBATCH_ARGS) {
				error("--sbatch-arg: more than %d options", SLURM_MAX_SBATCH_ARGS);
				return EX_USAGE;
			}
			so.sbatch_args[so.nr_sbatch_args++] = optarg;
			slurm_only = 1;
			break;
		case 'X':
			if (optarg[0] != '/') {
				error("--mmsim: '%s' is not an absolute path (the path the nodes see)", optarg);
				return EX_USAGE;
			}
			so.mmsim = optarg;
			slurm_only = 1;
			break;
		case 'W':
			so.no_wait = 1;
			break;
		case 'C':
			collect = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'F':
			force_new = 1;
			break;
		case 'h':
			usage(stdout);
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (collect) {
		if (optind != argc || dir || slurm || slurm_only || nr_vary || nr_sets || force_new) {
			error("sweep --collect DIR takes no scenario, -o, --vary, --set, --slurm or "
			      "--force-new (DIR has them)");
			return EX_USAGE;
		}
		return sweep_collect(collect, so.no_wait);
	}
	if ((slurm_only || so.no_wait) && !slurm) {
		error("--partition, --time, --sbatch-arg, --mmsim and --no-wait go with --slurm");
		return EX_USAGE;
	}
	so.throttle = jobs_given ? jobs : 0;
	if (optind + 1 != argc || !dir) {
		error(optind + 1 != argc ? "sweep: give one scenario file" : "sweep: no output directory (-o DIR)");
		usage(stderr);
		return EX_USAGE;
	}
	rc = sweep_execute(&(struct sweep_spec){
		.scenario = argv[optind], .sets = sets, .nr_sets = nr_sets, .vary = vary,
		.nr_vary = nr_vary, .seeds = seeds, .jobs = jobs, .dir = dir, .force_new = force_new,
		.slurm = slurm ? &so : NULL });
	for (int i = 0; i < nr_vary; i++)
		free(vary[i].key);
	return rc;
}
