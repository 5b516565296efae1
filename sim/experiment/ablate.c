/* ablate.c - the variants of a policy, for its per-patch ablation
 * (mmsim ablate).
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
 * The variants are a sweep's (struct sweep_variant: lists of overrides);
 * each run's overrides name every boolean switch of the policy, so the
 * manifest line and the stored scenario say which variant a run is, and
 * each variant carries its column's condition on those stored switches
 * (why a condition and not a label: cmd_ablate.c).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "experiment_int.h"
#include "mmsim/policy.h"

static bool switch_value(const struct mm_policy *p, const struct param *d)
{
	return *(const bool *)((const char *)p->priv + d->off);
}

/* P with the switches of mask off: 0 if it validates (*is_base: it
 * decides as its base does), else -1 with validate()'s message */
static int try_off(const struct ablate_switches *s, uint64_t mask, bool *is_base, char *err, size_t errlen)
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
static uint64_t closure(const struct ablate_switches *s, int x, int *found)
{
	int others[ABLATE_MAX_SWITCHES], n = 0;
	char err[512];

	for (int i = 0; i < s->nr_on; i++)
		if (i != x)
			others[n++] = i;
	*found = 1;
	for (int k = 1; k <= n; k++) {
		int c[ABLATE_MAX_SWITCHES];
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
static int variant_fill(const struct ablate_switches *s, struct ablate_variant *v)
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

int ablate_variants(const char *policy, struct ablate_switches *s, struct ablate_variant **out, int *rc)
{
	struct mm_policy *p;
	struct ablate_variant *v;
	char err[1024], names[256];
	int n = 0;

	*rc = EX_CONFIG;
	memset(s, 0, sizeof(*s));
	if (!(s->ops = mm_policy_find(policy))) {
		exp_error("ablate: unknown policy '%s' (valid: %s)", policy, mm_policy_names());
		return -1;
	}
	if (mm_policy_create(s->ops->name, &p, err, sizeof(err))) {
		exp_error("ablate: %s", err);
		return -1;
	}
	for (const struct param *d = s->ops->params; d && d->name; d++) {
		if (d->kind != PARAM_BOOL)
			continue;
		if (s->n == ABLATE_MAX_SWITCHES) {
			mm_policy_destroy(p);
			exp_error("ablate: policy %s has more than %d switches", s->ops->name, ABLATE_MAX_SWITCHES);
			*rc = EX_SOFTWARE;
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
		exp_error("ablate: policy %s has no switch that is on by default: nothing to turn off "
		          "(policies with switches: %s; see 'mmsim list policies')", s->ops->name, names);
		return -1;
	}
	if (!(v = calloc((size_t)s->nr_on + 1, sizeof(*v)))) {
		exp_error("out of memory");
		*rc = EX_SOFTWARE;
		return -1;
	}
	snprintf(v[n].label, sizeof(v[n].label), "all");
	n++;
	for (int x = 0; x < s->nr_on; x++) {
		const char *name = s->sw[s->on[x]]->name;
		struct ablate_variant *w = &v[n];
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
			exp_error("out of memory");
			*rc = EX_SOFTWARE;
			for (int k = 0; k < i; k++)
				free(v[k].where);
			free(v);
			return -1;
		}
	*out = v;
	*rc = EX_OK;
	return n;
}

const char *ablate_own_key(const struct ablate_switches *s, const char *set)
{
	static char why[256];
	size_t len = strcspn(set, "=");
	char key[160];

	snprintf(key, sizeof(key), "%.*s", (int)(len < sizeof(key) ? len : sizeof(key) - 1), set);
	if (!strcmp(key, "policy.name"))
		return "policy.name is set by ablate (--policy)";
	for (int i = 0; i < s->n; i++) {
		char a[160], b[170];
		snprintf(a, sizeof(a), "%s.%s", s->ops->name, s->sw[i]->name);
		snprintf(b, sizeof(b), "policy.%s", a);
		if (!strcmp(key, a) || !strcmp(key, b)) {
			snprintf(why, sizeof(why), "%s's switches are set by ablate (their defaults, then "
			         "each one off)", s->ops->name);
			return why;
		}
	}
	return NULL;
}


void ablate_variants_free(struct ablate_variant *v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i].where);
	free(v);
}
