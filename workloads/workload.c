/* workload.c - the workload registry and what every workload shares:
 * creation with defaults, parameters, the measured window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workload.h"

extern const struct workload_ops kbuild_ops;
extern const struct workload_ops thp_faulter_ops;
extern const struct workload_ops system_ops;
extern const struct workload_ops streamer_ops;

const struct workload_ops *const workload_table[] = {
	&kbuild_ops,
	&thp_faulter_ops,
	&system_ops,
	&streamer_ops,
	NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	for (const struct workload_ops *const *o = workload_table; *o; o++)
		if (!strcmp((*o)->name, name))
			return *o;
	return NULL;
}

const char *workload_names(void)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = 0;
	for (const struct workload_ops *const *o = workload_table; *o; o++)
		if (!(*o)->implicit)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? ", " : "", (*o)->name);
	return buf;
}

int workload_create(const char *name, struct workload **out, char *err, size_t errlen)
{
	const struct workload_ops *ops = workload_find(name);
	struct workload *w;

	*out = NULL;
	if (!ops) {
		snprintf(err, errlen, "unknown workload '%s' (valid: %s)", name, workload_names());
		return -1;
	}
	w = calloc(1, sizeof(*w));
	if (!w || !(w->priv = calloc(1, ops->priv_size ? ops->priv_size : 1))) {
		free(w);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	w->ops = ops;
	w->t_end = -1;
	if (param_set_defaults(ops->params, w->priv, err, errlen)) {
		workload_destroy(w);
		return -1;
	}
	*out = w;
	return 0;
}

int workload_set_param(struct workload *w, const char *key, const char *value, char *err, size_t errlen)
{
	const struct param *p = param_find(w->ops->params, key);
	char names[256];

	if (!p) {
		param_names(w->ops->params, names, sizeof(names));
		snprintf(err, errlen, "workload %s has no parameter '%s' (valid: %s)", w->ops->name, key,
		         names[0] ? names : "none");
		return -1;
	}
	return param_set(p, w->priv, value, err, errlen);
}

int workload_validate(struct workload *w, char *err, size_t errlen)
{
	return w->ops->validate ? w->ops->validate(w, err, errlen) : 0;
}

void workload_destroy(struct workload *w)
{
	if (!w)
		return;
	if (w->ops->fini)
		w->ops->fini(w);
	free(w->priv);
	free(w);
}

int workload_set_add(struct workload_set *s, struct workload *w)
{
	if (s->n == MAX_WORKLOADS)
		return -1;
	w->index = s->n;
	w->set = s;
	s->w[s->n++] = w;
	return 0;
}

int workload_set_start(struct workload_set *s, struct engine *e, struct pglist_data *pgdat,
                       uint64_t seed, char *err, size_t errlen)
{
	for (unsigned i = 0; i < s->n; i++) {
		struct workload *w = s->w[i];
		w->engine = e;
		w->pgdat = pgdat;
		w->seed = seed;
		w->t_start = engine_now();
		if (w->ops->start(w, err, errlen))
			return -1;
	}
	return 0;
}

int workload_restart(struct workload *w, unsigned iteration, char *err, size_t errlen)
{
	int rc;

	if (!w->ops->restart) {
		snprintf(err, errlen, "workload %s cannot run more than once ([run] iterations)", w->ops->name);
		return -1;
	}
	rc = w->ops->restart(w, iteration, err, errlen);
	if (rc)
		return rc;
	w->finished = false;
	w->t_start = engine_now();
	w->t_end = -1;
	return 0;
}

void workload_finished(struct workload *w)
{
	struct workload_set *s = w->set;

	if (w->finished)
		return;
	w->finished = true;
	w->t_end = engine_now();
	if (!s || !w->ops->measured || s->stopping)
		return;
	for (unsigned i = 0; i < s->n; i++)
		if (s->w[i]->ops->measured && !s->w[i]->finished)
			return;
	s->stopping = true;
	if (s->on_measured_end)
		s->on_measured_end(s, s->arg);
}

/* splitmix64 over (seed, index, entity) */
uint64_t workload_seed(const struct workload *w, uint64_t entity)
{
	uint64_t z = w->seed * 0x9e3779b97f4a7c15ull + ((uint64_t)w->index << 40) + entity + 1;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
