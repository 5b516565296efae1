/* cmd_ablate.c - mmsim ablate: a policy's patches one at a time.
 *
 * The variants - "all", then each switch on by default turned off, with
 * the fewest others it needs - are the experiment layer's
 * (ablate_variants(), sim/experiment/ablate.c).
 *
 * Nothing here simulates: the runs are a sweep (sweep_execute(), its
 * manifest, lock, identity, resumption and merge, DIR/sweep.db) whose
 * variants are lists of overrides; each run's overrides name every
 * boolean switch of the policy, so the manifest line and the stored
 * scenario say which variant a run is.
 *
 * How the table tells the variants apart: by the switches each run's
 * stored scenario holds (its params rows policy.P.SWITCH), not by a label
 * written beside the run.  A column is an SQL condition on those rows
 * (results_table_compute()'s given columns), so a run counts in a column
 * exactly when it ran with that column's switches - also a run of
 * another sweep merged in, or a run made by hand with the same --set; a
 * label would be a second, unchecked statement of what the params
 * already say, and `mmsim compare`'s grouping by policy name cannot see
 * the switches at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "results.h"

#define BLOCK_COLUMNS 4                 /* text: variants per block beside "all" */

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim ablate SCENARIO --policy P [--seeds N] [-j JOBS] [-o DIR]\n"
	        "                    [--set SECTION.KEY=V]... [--force-new] [--format FMT]\n"
	        "                    [--spread] [--stats]\n\n"
	        "Per-patch ablation: runs SCENARIO with policy P and all its switches at\n"
	        "their defaults (\"all\"), then once per boolean switch of P that is on by\n"
	        "default with that switch off (\"-SWITCH\"), seeds 1..N each: a sweep\n"
	        "(DIR/manifest, DIR/run-NNNN.db, merged into DIR/sweep.db; run again, it\n"
	        "skips the runs already complete).  Prints the cover letter's table with\n"
	        "one column per variant, \"all\" the baseline of the changes.  A switch that\n"
	        "others need is turned off with them (the legend says which); a variant\n"
	        "that makes P decide as its base does is the \"baseline\" column.  The\n"
	        "switches: 'mmsim list policies'.\n\n"
	        "  --policy P            the policy (one with switches on by default:\n"
	        "                        hugealloc_rfc, defrag_mode)\n"
	        "  --seeds N             seeds 1..N per variant (default 3)\n"
	        "  -j, --jobs JOBS       runs at a time (default 1; each run uses one core)\n"
	        "  -o, --output DIR      the sweep's directory (default out/ablate-P)\n"
	        "  --set KEY=VALUE       an override common to all runs (repeatable);\n"
	        "                        not policy.name or P's switches, which ablate sets\n"
	        "  --force-new           DIR holds another sweep: move it aside and start again\n"
	        "  --format FMT          text (default; blocks of %d variants beside \"all\"),\n"
	        "                        csv, json, html, values: as mmsim compare\n"
	        "  --spread, --stats     as mmsim compare (text)\n\n"
	        "Exit status: 0 when every run is complete and the table printed; 70 if a\n"
	        "run failed (named, with its log); 64 bad usage; 66 missing scenario; 78 an\n"
	        "unknown policy, a policy with no switch to turn off, or a bad --set; 73/74\n"
	        "output; 75 another sweep holds DIR.\n", BLOCK_COLUMNS);
}

/* text: the table in blocks of BLOCK_COLUMNS variants, each beside "all" */
static int print_blocks(FILE *out, const struct results_table *t, const struct compare_opts *co)
{
	struct results_column cols[BLOCK_COLUMNS + 1];
	int rc = 0;

	for (size_t i = 1; i < t->nr_col && !rc; i += BLOCK_COLUMNS) {
		struct results_table sub = { .by = t->by, .col = cols };
		cols[0] = t->col[0];
		sub.nr_col = 1;
		for (size_t k = i; k < t->nr_col && k < i + BLOCK_COLUMNS; k++)
			cols[sub.nr_col++] = t->col[k];
		if (i > 1)
			fputc('\n', out);
		rc = results_table_print(out, &sub, co);
	}
	if (t->nr_col == 1)
		rc = results_table_print(out, t, co);
	return rc;
}

int cmd_ablate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "set", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "force-new", no_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "spread", no_argument, NULL, 's' },
		{ "stats", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts co = { .by = "variant" };
	struct ablate_switches sw;
	struct ablate_variant *v = NULL;
	struct sweep_variant *sv = NULL;
	const char **labels = NULL, **wheres = NULL;
	struct results_table *t = NULL;
	char *sets[MAX_SETS + 1], dirbuf[PATH_MAX], db[PATH_MAX + 16], err[1024], setpol[160];
	const char *policy = NULL, *dir = NULL;
	unsigned long seeds = 3, jobs = 1;
	int nr_sets = 0, force_new = 0, c, rc, nv;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			policy = optarg;
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
			break;
		case 'o':
			dir = optarg;
			break;
		case 'F':
			force_new = 1;
			break;
		case 'f': {
			static const char *const fmts[] = { "text", "csv", "json", "html", "values", NULL };
			int k;
			for (k = 0; fmts[k] && strcmp(fmts[k], optarg); k++)
				;
			if (!fmts[k]) {
				error("ablate: unknown format '%s' (valid: text, csv, json, html, values)", optarg);
				return EX_USAGE;
			}
			co.format = (enum results_format)k;
			break;
		}
		case 's':
			co.spread = 1;
			break;
		case 'T':
			co.stats = 1;
			break;
		case 'h':
			usage(stdout);
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind + 1 != argc || !policy) {
		error(optind + 1 != argc ? "ablate: give one scenario file" : "ablate: no policy (--policy P)");
		usage(stderr);
		return EX_USAGE;
	}
	if (access(argv[optind], R_OK)) {
		error("cannot open %s: %s", argv[optind], strerror(errno));
		return EX_NOINPUT;
	}
	if ((nv = ablate_variants(policy, &sw, &v, &rc)) < 0)
		return rc;
	for (int i = 0; i < nr_sets; i++) {
		const char *why = ablate_own_key(&sw, sets[i]);
		if (why) {
			error("ablate: --set %s: %s", sets[i], why);
			rc = EX_USAGE;
			goto out;
		}
	}
	snprintf(setpol, sizeof(setpol), "policy.name=%s", sw.ops->name);
	sets[nr_sets++] = setpol;
	if (!dir) {
		snprintf(dirbuf, sizeof(dirbuf), "out/ablate-%s", sw.ops->name);
		dir = dirbuf;
	}
	sv = calloc((size_t)nv, sizeof(*sv));
	labels = calloc((size_t)nv, sizeof(*labels));
	wheres = calloc((size_t)nv, sizeof(*wheres));
	if (!sv || !labels || !wheres) {
		error("out of memory");
		rc = EX_SOFTWARE;
		goto out;
	}
	fprintf(stderr, "mmsim: ablate: %s, policy %s, %d variants (", argv[optind], sw.ops->name, nv);
	for (int i = 0; i < nv; i++) {
		sv[i] = v[i].sv;
		labels[i] = v[i].label;
		wheres[i] = v[i].where;
		fprintf(stderr, "%s%s", i ? " " : "", v[i].label);
	}
	fprintf(stderr, "), seeds 1..%lu: %lu runs, %lu at a time, in %s\n", seeds,
	        (unsigned long)nv * seeds, jobs, dir);
	for (int i = 0; i < nv; i++)
		if (v[i].note[0])
			fprintf(stderr, "mmsim: ablate: %s\n", v[i].note);

	rc = sweep_execute(&(struct sweep_spec){
		.scenario = argv[optind], .sets = sets, .nr_sets = nr_sets, .variants = sv,
		.nr_variants = nv, .seeds = seeds, .jobs = jobs, .dir = dir, .force_new = force_new });
	if (rc == EX_SOFTWARE)
		error("ablate: no table while runs are missing (the same command runs only what is "
		      "missing)");
	if (rc)
		goto out;

	snprintf(db, sizeof(db), "%s/sweep.db", dir);
	co.col_label = labels;
	co.col_where = wheres;
	co.nr_cols = (size_t)nv;
	if (results_table_compute(&t, db, &co, err, sizeof(err))) {
		error("ablate: %s", err);
		rc = EX_DATAERR;
		goto out;
	}
	if (co.format == RESULTS_FMT_TEXT) {
		printf("Ablation of %s on %s (all: every switch at its default, -SWITCH: that "
		       "switch off, the changes against all)\n\n", sw.ops->name, argv[optind]);
		rc = print_blocks(stdout, t, &co);
		for (int i = 0, first = 1; i < nv && !rc; i++)
			if (v[i].note[0]) {
				printf("%s%s\n", first ? "\n" : "", v[i].note);
				first = 0;
			}
		if (!rc)
			printf("\nDatabase: %s\n", db);
	} else {
		rc = results_table_print(stdout, t, &co);
	}
	if (rc) {
		error("ablate: cannot write the table");
		rc = EX_IOERR;
	}
	results_table_free(t);
out:
	ablate_variants_free(v, nv);
	free(sv);
	free(labels);
	free(wheres);
	return rc;
}
