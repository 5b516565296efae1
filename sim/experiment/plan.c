/* plan.c - a sweep as a plan: the product of its variants, varied keys
 * and seeds, every line checked and resolved before anything is written,
 * and the keys a sweep cannot take refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "experiment_int.h"
#include "mmsim/scenario.h"

int run_build_scenario(const char *path, char *const *sets, int nr_sets, const char *policy,
                       const char *seed, struct scenario **out)
{
	struct scenario *s = scenario_new();
	char err[1536];
	int rc;

	*out = NULL;
	rc = scenario_load_file(s, path, err, sizeof(err));
	if (rc) {
		exp_error("%s", err);
		scenario_free(s);
		return rc == -2 ? EX_NOINPUT : EX_CONFIG;
	}
	for (int i = 0; i < nr_sets; i++)
		if (scenario_set(s, sets[i], err, sizeof(err)))
			goto bad;
	if (policy && scenario_set_key(s, "policy.name", policy, "--policy", err, sizeof(err)))
		goto bad;
	if (seed && scenario_set_key(s, "run.seed", seed, "--seed", err, sizeof(err)))
		goto bad;
	if (scenario_resolve(s, err, sizeof(err)))
		goto bad;
	*out = s;
	return EX_OK;
bad:
	exp_error("%s", err);
	scenario_free(s);
	return EX_CONFIG;
}

/* ------------------------------------------------------------ the keys */

/* a key as the scenario spells it: thp_faulter.region and
 * workload.thp_faulter.region are the same key */
static const char *plain_key(const char *k, size_t *len)
{
	static const char *const prefixes[] = { "workload.", "policy.", NULL };
	size_t n = strcspn(k, "=");

	for (const char *const *p = prefixes; *p; p++) {
		size_t m = strlen(*p);
		if (n > m && !strncmp(k, *p, m) && memchr(k + m, '.', n - m)) {
			k += m;
			n -= m;
			break;
		}
	}
	*len = n;
	return k;
}

static int same_key(const char *a, const char *b)
{
	size_t na, nb;
	a = plain_key(a, &na);
	b = plain_key(b, &nb);
	return na == nb && !strncmp(a, b, na);
}

/* Keys a sweep cannot take: run.seed (the seeds are --seeds 1..N, the
 * manifest's seed field: a varied or set seed would be overridden, and
 * every run of a combination the same), a key varied twice or both set
 * and varied (one would silently win), a value listed twice (the same
 * run twice). */
static int check_keys(const struct sweep_spec *sp)
{
	for (int i = 0; i < sp->nr_vary; i++) {
		const struct sweep_vary *v = &sp->vary[i];
		if (same_key(v->key, "run.seed")) {
			exp_error("--vary %s: a sweep's seeds are --seeds N (seeds 1..N for every combination); "
			          "run.seed cannot be varied", v->key);
			return EX_USAGE;
		}
		for (int j = 0; j < i; j++)
			if (same_key(v->key, sp->vary[j].key)) {
				exp_error("--vary %s: the key is varied twice (--vary %s too): give its values in "
				          "one --vary KEY=V1,V2,...", v->key, sp->vary[j].key);
				return EX_USAGE;
			}
		for (int j = 0; j < sp->nr_sets; j++)
			if (same_key(v->key, sp->sets[j])) {
				exp_error("--vary %s: the key is also set (--set %s): one would override the other",
				          v->key, sp->sets[j]);
				return EX_USAGE;
			}
		for (int a = 0; a < v->n; a++)
			for (int b = 0; b < a; b++)
				if (!strcmp(v->values[a], v->values[b])) {
					exp_error("--vary %s: the value '%s' is given twice", v->key, v->values[a]);
					return EX_USAGE;
				}
	}
	for (int v = 0; v < sp->nr_variants; v++)
		for (int i = 0; i < sp->variants[v].nr_sets; i++) {
			const char *vs = sp->variants[v].sets[i];
			if (strchr(vs, '\t') || strchr(vs, '\n') || same_key(vs, "run.seed")) {
				exp_error("variant '%s': '%s' cannot be set", sp->variants[v].label, vs);
				return EX_USAGE;
			}
			for (int j = 0; j < sp->nr_sets; j++)
				if (same_key(vs, sp->sets[j])) {
					exp_error("--set %s: variant '%s' sets the key itself (%s)", sp->sets[j],
					          sp->variants[v].label, vs);
					return EX_USAGE;
				}
			for (int j = 0; j < sp->nr_vary; j++)
				if (same_key(vs, sp->vary[j].key)) {
					exp_error("--vary %s: variant '%s' sets the key itself (%s)", sp->vary[j].key,
					          sp->variants[v].label, vs);
					return EX_USAGE;
				}
		}
	for (int i = 0; i < sp->nr_sets; i++) {
		if (same_key(sp->sets[i], "run.seed")) {
			exp_error("--set %s: a sweep's seeds are --seeds N (seeds 1..N); run.seed cannot be set",
			          sp->sets[i]);
			return EX_USAGE;
		}
		for (int j = 0; j < i; j++)
			if (same_key(sp->sets[i], sp->sets[j])) {
				exp_error("--set %s: the key is set twice (--set %s too)", sp->sets[i], sp->sets[j]);
				return EX_USAGE;
			}
	}
	return EX_OK;
}

/* ------------------------------------------------------------ the plan */

const struct sweep_variant *plan_combination(const struct sweep_plan *p, unsigned long k, int *idx,
                                             unsigned long *seed)
{
	*seed = k % p->seeds + 1;
	k /= p->seeds;
	for (int i = p->nr_vary - 1; i >= 0; i--) {
		idx[i] = (int)(k % (unsigned long)p->vary[i].n);
		k /= (unsigned long)p->vary[i].n;
	}
	return p->variants ? &p->variants[k] : NULL;
}

/* Every line is checked the way the run will check it, before anything
 * is written: a sweep with a bad value fails at once, not after hours. */
static int check_plan(const struct sweep_plan *p, char (*hashes)[17])
{
	for (unsigned long k = 0; k < p->nr_runs; k++) {
		char *sets[SWEEP_MAX_SETS + SWEEP_MAX_VARIANT_SETS + SWEEP_MAX_VARY], seed[32], buf[SWEEP_MAX_VARY][512];
		int idx[SWEEP_MAX_VARY], n = 0, rc;
		unsigned long sd;
		struct scenario *s;
		const struct sweep_variant *var = plan_combination(p, k, idx, &sd);

		for (int i = 0; i < p->nr_sets; i++)
			sets[n++] = p->sets[i];
		for (int i = 0; var && i < var->nr_sets; i++)
			sets[n++] = (char *)var->sets[i];
		for (int i = 0; i < p->nr_vary; i++) {
			snprintf(buf[i], sizeof(buf[i]), "%s=%s", p->vary[i].key, p->vary[i].values[idx[i]]);
			sets[n++] = buf[i];
		}
		snprintf(seed, sizeof(seed), "%lu", sd);
		rc = run_build_scenario(p->scenario, sets, n, NULL, seed, &s);
		if (rc) {
			/* variants are ablate's (mmsim/experiment.h) */
			if (var)
				exp_error("ablate: variant '%s' is refused (see above)", var->label);
			return rc;
		}
		snprintf(hashes[k], 17, "%s", scenario_hash(s));
		scenario_free(s);
	}
	return EX_OK;
}

int sweep_plan_build(const struct sweep_spec *sp, struct sweep_plan **out)
{
	struct sweep_plan *p;
	char (*hashes)[17];
	int rc;

	*out = NULL;
	rc = check_keys(sp);
	if (rc)
		return rc;
	for (int i = 0; i < sp->nr_sets; i++)
		if (strchr(sp->sets[i], '\t') || strchr(sp->sets[i], '\n')) {
			exp_error("--set: a value may not hold a tab or a newline");
			return EX_USAGE;
		}
	if (!(p = calloc(1, sizeof(*p)))) {
		exp_error("out of memory");
		return EX_SOFTWARE;
	}
	if (!realpath(sp->scenario, p->scenario)) {
		exp_error("cannot open %s: %s", sp->scenario, strerror(errno));
		free(p);
		return EX_NOINPUT;
	}

	p->spec = sp;
	p->sets = sp->sets;
	p->nr_sets = sp->nr_sets;
	p->variants = sp->nr_variants ? sp->variants : NULL;
	p->nr_variants = sp->nr_variants;
	p->vary = sp->vary;
	p->nr_vary = sp->nr_vary;
	p->seeds = sp->seeds;
	p->nr_runs = sp->seeds;
	rc = EX_USAGE;
	if (p->variants) {
		if (p->nr_runs > 100000 / (unsigned long)p->nr_variants)
			goto too_many;
		p->nr_runs *= (unsigned long)p->nr_variants;
	}
	for (int i = 0; i < sp->nr_vary; i++) {
		if (p->nr_runs > 100000 / (unsigned long)sp->vary[i].n)
			goto too_many;
		p->nr_runs *= (unsigned long)sp->vary[i].n;
	}
	if (!(hashes = calloc(p->nr_runs, sizeof(*hashes)))) {
		exp_error("out of memory");
		free(p);
		return EX_SOFTWARE;
	}
	rc = check_plan(p, hashes);
	if (!rc && !(p->id = identity_text(p, hashes))) {
		exp_error("out of memory");
		rc = EX_SOFTWARE;
	}
	free(hashes);
	if (rc) {
		free(p);
		return rc;
	}
	*out = p;
	return EX_OK;
too_many:
	exp_error("sweep: more than 100000 runs");
	free(p);
	return rc;
}

unsigned long sweep_plan_runs(const struct sweep_plan *p)
{
	return p->nr_runs;
}

void sweep_plan_free(struct sweep_plan *p)
{
	if (p)
		free(p->id);
	free(p);
}
