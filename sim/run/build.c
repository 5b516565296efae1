/* build.c - the policy and the workloads of a resolved scenario, built
 * with its values (see build.h), and the table through which the scenario
 * reader checks them (mmsim/scenario_modules.h): config is below the
 * workloads and below the run, so the run driver hands it what it needs
 * of both. */
#include <stdio.h>
#include <string.h>
#include "mmsim/msg.h"
#include "mmsim/scenario_modules.h"
#include "build.h"
#include "workload.h"

/* A module's refusal of its values taken together (its validate()), as
 * "WHERE: [SECTION] KEY: ..." when it names one of its keys first
 * ("kbuild.tree: ...") and that key was given: WHERE is the key's file and
 * line, or its --set; else "ORIGIN: [SECTION]: ...", ORIGIN the scenario's
 * file. */
static void module_msg(const struct scenario *s, const char *section, const char *name,
                       const struct param *params, const char *m, char *err, size_t errlen)
{
	size_t n = strlen(name);

	if (!strncmp(m, name, n) && m[n] == '.')
		for (const struct param *p = params; p && p->name; p++) {
			size_t k = strlen(p->name);
			const char *w;
			if (strncmp(m + n + 1, p->name, k) || strncmp(m + n + 1 + k, ": ", 2))
				continue;
			if (scenario_given(s, section, p->name, &w)) {
				mmsim_msg(err, errlen, "%s: [%s] %s: %s", w, section, p->name, m + n + 1 + k + 2);
				return;
			}
			break;
		}
	mmsim_msg(err, errlen, "%s: [%s]: %s", scenario_origin(s), section, m);
}

int build_policy(const struct scenario *s, struct mm_policy **out, char *err, size_t errlen)
{
	const struct scenario_config *c = scenario_config(s);
	char m[256], section[64];

	if (mm_policy_create(c->policy, out, m, sizeof(m))) {
		mmsim_msg(err, errlen, "%s: %s", scenario_origin(s), m);
		return -1;
	}
	snprintf(section, sizeof(section), "policy.%s", c->policy);
	for (const struct param *p = (*out)->ops.params; p && p->name; p++) {
		const char *where, *v = scenario_given(s, section, p->name, &where);
		if (v && mm_policy_set(*out, p->name, v, m, sizeof(m))) {
			mmsim_msg(err, errlen, "%s: [%s] %s: %s", where, section, p->name, m);
			goto fail;
		}
	}
	if (mm_policy_validate(*out, m, sizeof(m))) {
		module_msg(s, section, (*out)->ops.name, (*out)->ops.params, m, err, errlen);
		goto fail;
	}
	return 0;
fail:
	mm_policy_destroy(*out);
	*out = NULL;
	return -1;
}

int build_workload(const struct scenario *s, unsigned i, struct workload **out, char *err, size_t errlen)
{
	const struct scenario_config *c = scenario_config(s);
	char m[256], section[64];

	if (workload_create(c->workloads[i], out, m, sizeof(m))) {
		mmsim_msg(err, errlen, "%s: %s", scenario_origin(s), m);
		return -1;
	}
	if (!strcmp(c->workloads[i], "system")) {
		/* its one parameter is [system] profile */
		if (workload_set_param(*out, "profile", c->system_profile, m, sizeof(m))) {
			mmsim_msg(err, errlen, "%s: [system]: %s", scenario_origin(s), m);
			goto fail;
		}
		return 0;
	}
	snprintf(section, sizeof(section), "workload.%s", c->workloads[i]);
	for (const struct param *p = (*out)->ops->params; p && p->name; p++) {
		const char *where, *v = scenario_given(s, section, p->name, &where);
		if (v && workload_set_param(*out, p->name, v, m, sizeof(m))) {
			mmsim_msg(err, errlen, "%s: [%s] %s: %s", where, section, p->name, m);
			goto fail;
		}
	}
	if (workload_validate(*out, m, sizeof(m))) {
		module_msg(s, section, c->workloads[i], (*out)->ops->params, m, err, errlen);
		goto fail;
	}
	return 0;
fail:
	workload_destroy(*out);
	*out = NULL;
	return -1;
}

/* ------------------------------------------------------------ scenario_modules */

static bool registry_workload(unsigned i, struct scenario_workload *out)
{
	const struct workload_ops *o = workload_table[i];

	if (!o)
		return false;
	*out = (struct scenario_workload){ .name = o->name, .params = o->params, .implicit = o->implicit,
	                                   .measured = o->measured, .restartable = o->restart != NULL };
	return true;
}

static int check_policy(const struct scenario *s, char *err, size_t errlen)
{
	struct mm_policy *p;

	if (build_policy(s, &p, err, errlen))
		return -1;
	mm_policy_destroy(p);
	return 0;
}

static int check_workload(const struct scenario *s, unsigned i, void (*input)(const char *path, void *arg),
                          void *arg, char *err, size_t errlen)
{
	struct workload *w;

	if (build_workload(s, i, &w, err, errlen))
		return -1;
	if (w->ops->inputs)
		w->ops->inputs(w, input, arg);
	workload_destroy(w);
	return 0;
}

const struct scenario_modules scenario_modules = {
	.registry = registry_workload,
	.names = workload_names,
	.scratch_create = workload_create,
	.scratch_set = workload_set_param,
	.scratch_destroy = workload_destroy,
	.check_policy = check_policy,
	.check_workload = check_workload,
};
