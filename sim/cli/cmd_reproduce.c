/* cmd_reproduce.c - mmsim reproduce: the RFC experiment in one command.
 *
 * The cover letter of "mm: reliable huge page allocator" compares the
 * vanilla allocator with the patched one on the same workload over
 * several runs.  This verb is that comparison: a sweep of one scenario
 * (configs/hugealloc.ini unless named) over policy.name=vanilla,hugealloc_rfc
 * (or the policies --policies names, the first the baseline: the 2025
 * posting's cover letter compared vm.defrag_mode=0 with =1, --policies
 * v6_15,defrag_mode) and seeds 1..N (sweep_execute: resumable, one process
 * per run), then the cover letter's table of the merged database
 * (results_compare, the baseline first) on stdout, the plots (plot_draw) in DIR/plots and the HTML
 * report (report_write) in DIR/report.html.
 *
 * Nothing here simulates: it only strings together what sweep, compare
 * and plot already do, so that the experiment is the same whichever way
 * it is run.  Its plan (the default scenario, the policies, the keys it
 * sets itself) is the experiment layer's (sim/experiment/reproduce.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "posting.h"
#include "results.h"

#define DEFAULT_SCENARIO REPRODUCE_DEFAULT_SCENARIO
#define DEFAULT_SEEDS REPRODUCE_DEFAULT_SEEDS
#define DEFAULT_DIR REPRODUCE_DEFAULT_DIR

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim reproduce [SCENARIO] [--posting NAME | --policies P,Q...] [--seeds N]\n"
	        "                       [-j JOBS] [-o DIR] [--set SECTION.KEY=V]... [--force-new]\n\n"
	        "The RFC experiment: runs SCENARIO with policy.name=vanilla and =hugealloc_rfc,\n"
	        "seeds 1..N each (a sweep: DIR/manifest, DIR/run-NNNN.db, merged into\n"
	        "DIR/sweep.db), prints the cover letter's table (vanilla, then hugealloc_rfc),\n"
	        "draws the plots into DIR/plots and writes the HTML report DIR/report.html\n"
	        "(its path printed), and the 2023 cover letter's own table beside the\n"
	        "simulated one, row by row (configs/postings/rfc-2023.posting).  Run again,\n"
	        "it skips the runs already complete (a stopped reproduction resumes where\n"
	        "it stopped).\n\n"
	        "  --posting NAME        another posting's experiment: its scenario, the key\n"
	        "                        its columns vary, its settings and its table, from\n"
	        "                        configs/postings/NAME.posting (or a FILE.posting);\n"
	        "                        `mmsim list postings` names them; none: no posting's\n"
	        "                        table (SCENARIO, if named, replaces the posting's)\n"
	        "  SCENARIO              the scenario file (default: " DEFAULT_SCENARIO " of the\n"
	        "                        source tree mmsim was built from)\n"
	        "  --policies P,Q...     the policies compared, the first the baseline column\n"
	        "                        (default vanilla,hugealloc_rfc; upstream's defrag_mode\n"
	        "                        against its own baseline, as its cover letter did:\n"
	        "                        v6_15,defrag_mode; `mmsim list` names them); no\n"
	        "                        posting's table is printed unless --posting names one\n"
	        "  --seeds N             seeds 1..N per column (default: the posting's, else %d;\n"
	        "                        the validation uses 10)\n"
	        "  -j, --jobs JOBS       runs at a time (default: the online CPUs, here %ld)\n"
	        "  -o, --output DIR      where the runs, the database and the plots go\n"
	        "                        (default " DEFAULT_DIR ", created if missing)\n"
	        "  --set KEY=VALUE       an override common to all runs (repeatable);\n"
	        "                        not policy.name or run.seed, which reproduce sets\n"
	        "  --force-new           DIR holds runs of another scenario, settings or mmsim\n"
	        "                        binary (a resume of those is refused): move them\n"
	        "                        aside (DIR/superseded-TIME/) and start again\n\n"
	        "Exit status: 0 when every run is complete, the table printed and the plots\n"
	        "drawn; 70 if a run failed (named, with its log), 69 without gnuplot (after\n"
	        "the table), 64/66/73/78 for bad usage, input, output or configuration, 74\n"
	        "if standard output cannot be written, 75 if another sweep holds DIR.\n",
	        DEFAULT_SEEDS, sysconf(_SC_NPROCESSORS_ONLN));
}

/* where the plots are: the images drawn, one a line */
static void list_plots(const char *plots)
{
	char pattern[PATH_MAX + 16];
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/*.png", plots);
	printf("Plots:    %s/\n", plots);
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			printf("          %s\n", g.gl_pathv[i]);
		globfree(&g);
	}
	printf("          (each also as .svg, with its .dat data and .gp script; plots/README.md)\n");
}

/* The posting's experiment: the key and values its columns vary (policies
 * checked and named as --policies would), the compare table by that key
 * with its first value the baseline, and its settings before the command
 * line's.  EX_OK, or an exit code after the message. */
static int reproduce_from_posting(const struct posting *p, struct sweep_vary *v, char *names, size_t len,
                                  struct compare_opts *co, char **sets, int *nr_sets)
{
	char list[1024] = "";
	char *own[MAX_SETS];
	int n = *nr_sets;

	for (int i = 0; i < p->nr_cols; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "," : "", p->vary_value[i]);
	if (!strcmp(p->vary_key, "policy.name")) {
		if (reproduce_policies(list, v, names, len)) {
			error("reproduce: %s: vary: (above)", p->path);
			return EX_CONFIG;
		}
	} else {
		if (reproduce_own_key(p->vary_key)) {
			error("reproduce: %s: vary: %s is set by reproduce", p->path, p->vary_key);
			return EX_CONFIG;
		}
		v->key = p->vary_key;
		v->n = p->nr_cols;
		for (int i = 0; i < p->nr_cols; i++)
			v->values[i] = p->vary_value[i];
		snprintf(names, len, "%s", list);
		co->by = p->vary_key;
	}
	co->baseline = v->values[0];
	/* the posting's settings first: the command line's --set overrides them */
	for (int i = 0; i < n; i++)
		own[i] = sets[i];
	*nr_sets = 0;
	for (int i = 0; i < p->nr_sets; i++) {
		if (reproduce_own_key(p->set[i])) {
			error("reproduce: %s: set: %s: policy.name and run.seed are set by reproduce", p->path,
			      p->set[i]);
			return EX_CONFIG;
		}
		if (add_set(sets, nr_sets, p->set[i]))
			return EX_CONFIG;
	}
	for (int i = 0; i < n; i++)
		if (add_set(sets, nr_sets, own[i]))
			return EX_USAGE;
	return EX_OK;
}

int cmd_reproduce(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seeds", required_argument, NULL, 'n' },
		{ "policies", required_argument, NULL, 'P' },
		{ "set", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "force-new", no_argument, NULL, 'F' },
		{ "posting", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int force_new = 0;
	static char key[] = "policy.name", vanilla[] = "vanilla", rfc[] = "hugealloc_rfc";
	struct sweep_vary policies = { .key = key, .values = { vanilla, rfc }, .n = 2 };
	struct compare_opts co = { .baseline = "vanilla" };
	char names[1024] = "vanilla and hugealloc_rfc";
	char *sets[MAX_SETS], scenario[PATH_MAX], db[PATH_MAX], plots[PATH_MAX], err[1024];
	const char *dir = DEFAULT_DIR;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long seeds = DEFAULT_SEEDS, jobs = cpus > 0 ? (unsigned long)cpus : 1;
	int nr_sets = 0, c, rc, policies_given = 0, seeds_given = 0, posting_given;
	const char *posting_name = NULL;
	struct posting *posting = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_seeds(optarg, &seeds))
				return EX_USAGE;
			seeds_given = 1;
			break;
		case 'P':
			if (reproduce_policies(optarg, &policies, names, sizeof(names)))
				return EX_USAGE;
			co.baseline = policies.values[0];
			policies_given = 1;
			break;
		case 'T':
			posting_name = optarg;
			break;
		case 'S':
			if (reproduce_own_key(optarg)) {
				error("reproduce: --set %s: policy.name (--policies) and run.seed (1..N) are "
				      "set by reproduce", optarg);
				return EX_USAGE;
			}
			if (add_set(sets, &nr_sets, optarg))
				return EX_USAGE;
			break;
		case 'j':
			if (parse_jobs(optarg, &jobs))
				return EX_USAGE;
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
	if (argc - optind > 1) {
		error("reproduce: one scenario file at most");
		usage(stderr);
		return EX_USAGE;
	}
	if (posting_name && policies_given) {
		error("reproduce: --posting and --policies: the posting names its columns (vary: in its file)");
		return EX_USAGE;
	}
	if (jobs > 1024)
		jobs = 1024;
	posting_given = posting_name != NULL;
	if (!posting_name && !policies_given)
		posting_name = REPRODUCE_DEFAULT_POSTING;
	if (posting_name && strcmp(posting_name, "none")) {
		char path[PATH_MAX];
		/* the default's table is a bonus: a binary without its tree
		 * still reproduces, and says nothing of the missing file */
		bool bonus = !strcmp(posting_name, REPRODUCE_DEFAULT_POSTING) && !posting_given;
		if (bonus && reproduce_postings_dir(path, sizeof(path))) {
			/* no configs/postings: no posting's table */
		} else if (reproduce_posting_path(posting_name, path, sizeof(path))) {
			return EX_NOINPUT;
		} else if (posting_load(&posting, path, err, sizeof(err))) {
			error("reproduce: %s", err);
			return access(path, R_OK) ? EX_NOINPUT : EX_CONFIG;
		}
	}
	rc = posting ? reproduce_from_posting(posting, &policies, names, sizeof(names), &co, sets, &nr_sets)
	             : EX_OK;
	if (rc)
		goto out;
	if (posting && !seeds_given && posting->seeds)
		seeds = posting->seeds;
	if (optind < argc)
		snprintf(scenario, sizeof(scenario), "%s", argv[optind]);
	else if (posting)
		snprintf(scenario, sizeof(scenario), "%s", posting->scenario);
	else if (reproduce_default_scenario(scenario, sizeof(scenario))) {
		rc = EX_NOINPUT;
		goto out;
	}
	if (access(scenario, R_OK)) {
		error("cannot open %s: %s", scenario, strerror(errno));
		rc = EX_NOINPUT;
		goto out;
	}
	snprintf(db, sizeof(db), "%s/sweep.db", dir);
	snprintf(plots, sizeof(plots), "%s/plots", dir);

	fprintf(stderr, "mmsim: reproduce: %s, %s %s, seeds 1..%lu: "
	        "%lu runs, %lu at a time, in %s\n", scenario,
	        strcmp(policies.key, "policy.name") ? policies.key : "policies", names, seeds,
	        (unsigned long)policies.n * seeds, jobs, dir);
	rc = sweep_execute(&(struct sweep_spec){
		.scenario = scenario, .sets = sets, .nr_sets = nr_sets, .vary = &policies,
		.nr_vary = 1, .seeds = seeds, .jobs = jobs, .dir = dir, .force_new = force_new });
	if (rc == EX_SOFTWARE)
		/* the sweep named the failed runs; a table of the others would
		 * compare unequal sets of seeds */
		error("reproduce: no table, plots or report while runs failed (named above, "
		      "with their logs)");
	if (rc)
		goto out;

	{
		struct results_table *t;
		if (results_table_compute(&t, db, &co, err, sizeof(err))) {
			error("reproduce: %s: %s", db, err);
			rc = EX_DATAERR;
			goto out;
		}
		rc = results_table_print(stdout, t, &co) || fflush(stdout);
		results_table_free(t);
		if (rc) {
			rc = EX_IOERR;        /* main names the write error */
			goto out;
		}
	}
	if (posting) {
		/* the posting's own table beside the simulated one */
		if (posting_compute(posting, db, err, sizeof(err))) {
			error("reproduce: %s: %s", posting->path, err);
			rc = EX_DATAERR;
			goto out;
		}
		if (posting_print(stdout, posting) || fflush(stdout)) {
			rc = EX_IOERR;
			goto out;
		}
	}

	rc = plot_draw(&(struct plot_opts){
		.db = db, .dir = plots, .png = 1, .svg = 1, .no_sweep = 1, .quiet = 1 });
	printf("\nDatabase: %s   (mmsim compare %s --spread: min..max over seeds)\n", db, db);
	if (rc == EX_OK)
		list_plots(plots);
	else
		error("reproduce: the plots in %s are incomplete (see above)", plots);
	{
		/* the HTML report beside the plots (DIR/report.html, the SVGs of
		 * DIR/plots drawn just above inline) */
		char page[PATH_MAX];
		int rrc = report_write(db, dir, &(struct compare_opts){ .by = co.by, .baseline = co.baseline,
		                                                         .stats = 1 },
		                       0, 0, page, sizeof(page));
		if (rrc == EX_OK || access(page, R_OK) == 0)
			printf("Report:   %s\n", page);
		if (!rc)
			rc = rrc;
	}
out:
	posting_free(posting);
	return rc;
}
