/* cmd_ablate.c - mmsim ablate: a policy's patches one at a time.
 *
 * A policy is a set of patches, each a boolean switch of its param table
 * (mm_policy_ops.params, the files of policies/).  The ablation runs the policy
 * with every switch at its default ("all") and then, for each switch that
 * is on by default, a variant with that switch turned off: the column of
 * "-no_fallback" against "all" is what RFC 25/26 contributes on this
 * scenario, given the others.
 *
 * A switch may need another (validate(): hugealloc_rfc's wmark_free_blocks
 * needs migrate_free; defrag_mode's fixes need defrag_mode).  Its variant
 * then turns off, with it, the fewest other switches that make the policy
 * valid again (said in the legend).  A variant that leaves the policy
 * deciding everything as its base does (mm_policy_is_base(): defrag_mode
 * with defrag_mode=no is v6_15) is the "baseline" column.
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

#define MAX_SWITCHES 64
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

/* the policy's boolean switches */
struct switches {
	const struct mm_policy_ops *ops;
	const struct param *sw[MAX_SWITCHES];   /* every PARAM_BOOL of the table */
	bool def[MAX_SWITCHES];                 /* its default */
	int n;
	int on[MAX_SWITCHES];                   /* indices into sw of the defaults that are on */
	int nr_on;
};

struct variant {
	char label[64];
	char note[2048];                        /* the legend line ("": none) */
	uint64_t off;                           /* bits over on[]: the switches turned off */
	struct sweep_variant sv;
	char setbuf[MAX_SWITCHES][160];
	char *where;                            /* the column's condition */
};

static bool switch_value(const struct mm_policy *p, const struct param *d)
{
	return *(const bool *)((const char *)p->priv + d->off);
}

/* P with the switches of mask off: 0 if it validates (*is_base: it
 * decides as its base does), else -1 with validate()'s message */
static int try_off(const struct switches *s, uint64_t mask, bool *is_base, char *err, size_t errlen)
{
	struct mm_policy *p;
	int rc = 0;

	if (mm_policy_create(s->ops->name, &p, err, errlen))
		return -1;
	for (int i = 0; i < s->nr_on && !rc; i++)
		if (mask & (1ull << i))
			rc = mm_policy_set(p, s->sw[s->on[i]]->name, "no", err, errlen);
	if (!rc)
		rc = mm_policy_validate(p, err, errlen);
	if (!rc && is_base)
		*is_base = mm_policy_is_base(p);
	mm_policy_destroy(p);
	return rc;
}

/* the fewest other switches to turn off with switch x so that P is
 * valid, in table order among equals; *found 0 if none is */
static uint64_t closure(const struct switches *s, int x, int *found)
{
	int others[MAX_SWITCHES], n = 0;
	char err[512];

	for (int i = 0; i < s->nr_on; i++)
		if (i != x)
			others[n++] = i;
	*found = 1;
	for (int k = 1; k <= n; k++) {
		int c[MAX_SWITCHES];
		for (int i = 0; i < k; i++)
			c[i] = i;
		for (;;) {
			uint64_t m = 1ull << x;
			for (int i = 0; i < k; i++)
				m |= 1ull << others[c[i]];
			if (!try_off(s, m, NULL, err, sizeof(err)))
				return m;
			/* the next k-combination of n, lexicographic */
			int i = k - 1;
			while (i >= 0 && c[i] == n - k + i)
				i--;
			if (i < 0)
				break;
			c[i]++;
			for (int j = i + 1; j < k; j++)
				c[j] = c[j - 1] + 1;
		}
	}
	*found = 0;
	return 0;
}

static const char *const bool_yes = "('yes', 'y', 'true', '1', 'on')";
static const char *const bool_no = "('no', 'n', 'false', '0', 'off')";

/* the variant's overrides (every boolean switch of P, named) and its
 * column's condition on a run's stored switches */
static int variant_fill(const struct switches *s, struct variant *v)
{
	size_t len = 256 + (size_t)s->n * 256, at;

	if (!(v->where = malloc(len)))
		return -1;
	at = (size_t)snprintf(v->where, len, "mmsim_policy(policy) = '%s'", s->ops->name);
	v->sv.label = v->label;
	v->sv.nr_sets = 0;
	for (int i = 0; i < s->n; i++) {
		bool val = s->def[i];
		for (int j = 0; j < s->nr_on; j++)
			if (s->on[j] == i && (v->off & (1ull << j)))
				val = false;
		snprintf(v->setbuf[i], sizeof(v->setbuf[i]), "policy.%s.%s=%s", s->ops->name,
		         s->sw[i]->name, val ? "yes" : "no");
		v->sv.sets[v->sv.nr_sets++] = v->setbuf[i];
		at += (size_t)snprintf(v->where + at, len - at,
		                       " AND EXISTS (SELECT 1 FROM params WHERE params.run_id = runs.run_id"
		                       " AND params.key = 'policy.%s.%s' AND lower(params.value) IN %s)",
		                       s->ops->name, s->sw[i]->name, val ? bool_yes : bool_no);
	}
	return 0;
}

/* "hugealloc_rfc, defrag_mode": the policies with a switch on by default */
static void ablatable(char *buf, size_t len)
{
	buf[0] = 0;
	for (int i = 0; mm_policy_table[i]; i++) {
		const struct mm_policy_ops *o = mm_policy_table[i];
		struct mm_policy *p;
		char err[256];
		int on = 0;

		if (mm_policy_create(o->name, &p, err, sizeof(err)))
			continue;
		for (const struct param *d = o->params; d && d->name; d++)
			on |= d->kind == PARAM_BOOL && switch_value(p, d);
		mm_policy_destroy(p);
		if (on)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", o->name);
	}
}

/* The variants: v[0] "all", then one per switch on by default (table
 * order).  Their number, or -1 after the message (*rc the exit code). */
static int make_variants(const char *policy, struct switches *s, struct variant **out, int *rc)
{
	struct mm_policy *p;
	struct variant *v;
	char err[1024], names[256];
	int n = 0;

	*rc = EXIT_CONFIG;
	memset(s, 0, sizeof(*s));
	if (!(s->ops = mm_policy_find(policy))) {
		error("ablate: unknown policy '%s' (valid: %s)", policy, mm_policy_names());
		return -1;
	}
	if (mm_policy_create(s->ops->name, &p, err, sizeof(err))) {
		error("ablate: %s", err);
		return -1;
	}
	for (const struct param *d = s->ops->params; d && d->name; d++) {
		if (d->kind != PARAM_BOOL)
			continue;
		if (s->n == MAX_SWITCHES) {
			mm_policy_destroy(p);
			error("ablate: policy %s has more than %d switches", s->ops->name, MAX_SWITCHES);
			*rc = EXIT_SOFTWARE;
			return -1;
		}
		s->def[s->n] = switch_value(p, d);
		if (s->def[s->n])
			s->on[s->nr_on++] = s->n;
		s->sw[s->n++] = d;
	}
	mm_policy_destroy(p);
	if (!s->nr_on) {
		ablatable(names, sizeof(names));
		error("ablate: policy %s has no switch that is on by default: nothing to turn off "
		      "(policies with switches: %s; see 'mmsim list policies')", s->ops->name, names);
		return -1;
	}
	if (!(v = calloc((size_t)s->nr_on + 1, sizeof(*v)))) {
		error("out of memory");
		*rc = EXIT_SOFTWARE;
		return -1;
	}
	snprintf(v[n].label, sizeof(v[n].label), "all");
	n++;
	for (int x = 0; x < s->nr_on; x++) {
		const char *name = s->sw[s->on[x]]->name;
		struct variant *w = &v[n];
		bool is_base = false;
		char why[1024];
		int found = 1, dup = -1;

		w->off = 1ull << x;
		if (try_off(s, w->off, &is_base, why, sizeof(why))) {
			w->off = closure(s, x, &found);
			if (!found) {
				fprintf(stderr, "mmsim: ablate: no variant without %s: %s, whatever else is "
				        "turned off\n", name, why);
				continue;
			}
			try_off(s, w->off, &is_base, err, sizeof(err));
		}
		for (int k = 1; k < n; k++)
			if (v[k].off == w->off)
				dup = k;
		if (dup > 0) {
			fprintf(stderr, "mmsim: ablate: %s off is variant '%s' (the same switches off)\n",
			        name, v[dup].label);
			continue;
		}
		snprintf(w->label, sizeof(w->label), "%s%s", is_base ? "" : "-", is_base ? "baseline" : name);
		if (w->off != 1ull << x || is_base) {
			char also[768] = "";
			for (int i = 0; i < s->nr_on; i++)
				if (i != x && (w->off & (1ull << i)))
					snprintf(also + strlen(also), sizeof(also) - strlen(also), "%s%s",
					         also[0] ? ", " : "", s->sw[s->on[i]]->name);
			snprintf(w->note, sizeof(w->note), "%s: %s off%s%s%s%s%s%s%s", w->label, name,
			         also[0] ? ", and with it " : "", also, also[0] ? " (" : "",
			         also[0] ? why : "", also[0] ? ")" : "",
			         is_base ? ": the policy decides as its base, " : "",
			         is_base ? (s->ops->base ? s->ops->base->name : "v6.2") : "");
		}
		n++;
	}
	for (int i = 0; i < n; i++)
		if (variant_fill(s, &v[i])) {
			error("out of memory");
			*rc = EXIT_SOFTWARE;
			for (int k = 0; k < i; k++)
				free(v[k].where);
			free(v);
			return -1;
		}
	*out = v;
	*rc = EXIT_OK;
	return n;
}

/* policy.name and P's switches are the variants' */
static const char *own_key(const struct switches *s, const char *set)
{
	static char why[256];
	size_t len = strcspn(set, "=");
	char key[160];

	snprintf(key, sizeof(key), "%.*s", (int)(len < sizeof(key) ? len : sizeof(key) - 1), set);
	if (!strcmp(key, "policy.name"))
		return "ablate sets policy.name (--policy)";
	for (int i = 0; i < s->n; i++) {
		char a[160], b[170];
		snprintf(a, sizeof(a), "%s.%s", s->ops->name, s->sw[i]->name);
		snprintf(b, sizeof(b), "policy.%s", a);
		if (!strcmp(key, a) || !strcmp(key, b)) {
			snprintf(why, sizeof(why), "ablate sets %s's switches (their defaults, then each "
			         "one off)", s->ops->name);
			return why;
		}
	}
	return NULL;
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
	struct switches sw;
	struct variant *v = NULL;
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
				return EXIT_USAGE;
			break;
		case 'S':
			if (add_set(sets, &nr_sets, optarg))
				return EXIT_USAGE;
			break;
		case 'j':
			if (parse_jobs(optarg, &jobs))
				return EXIT_USAGE;
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
				return EXIT_USAGE;
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
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !policy) {
		error(optind + 1 != argc ? "ablate: give one scenario file" : "ablate: no policy (--policy P)");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (access(argv[optind], R_OK)) {
		error("cannot open %s: %s", argv[optind], strerror(errno));
		return EXIT_NOINPUT;
	}
	if ((nv = make_variants(policy, &sw, &v, &rc)) < 0)
		return rc;
	for (int i = 0; i < nr_sets; i++) {
		const char *why = own_key(&sw, sets[i]);
		if (why) {
			error("--set %s: %s", sets[i], why);
			rc = EXIT_USAGE;
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
		rc = EXIT_SOFTWARE;
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
	if (rc == EXIT_SOFTWARE)
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
		rc = EXIT_DATAERR;
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
		rc = EXIT_IOERR;
	}
	results_table_free(t);
out:
	for (int i = 0; i < nv; i++)
		free(v[i].where);
	free(v);
	free(sv);
	free(labels);
	free(wheres);
	return rc;
}
