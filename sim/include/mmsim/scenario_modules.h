/* scenario_modules.h - what the scenario reader knows of the modules that
 * are built from a scenario on the floors above it: the workloads, and
 * the policy and workloads as the run driver builds them.
 *
 * [workload] names, every [workload.NAME] value and [system] profile are
 * checked when they are given, and the policy and the workloads as a
 * whole at scenario_resolve(), so that a message names the file and line
 * (or the --set argument) of the value it refuses.  The workloads are a
 * floor above config, and building from a scenario is the run driver's
 * (docs/architecture.md): config reaches both through this one table,
 * which the run driver defines (sim/run/build.c), as policies/ defines
 * the policy registry mm reads (mmsim/policy.h).  Config includes no
 * header above its floor; a workload instance is opaque here.
 */
#ifndef MMSIM_SCENARIO_MODULES_H
#define MMSIM_SCENARIO_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/param.h"

struct scenario;
struct workload;

/* one workload of the registry, as the scenario reads it */
struct scenario_workload {
	const char *name;
	const struct param *params;     /* the keys of [workload.NAME] */
	bool implicit;                  /* started by a key of its own ([system] profile), never named
	                                 * in [workload] names */
	bool measured;                  /* defines the measured window */
	bool restartable;               /* can run again: [run] iterations, warmup */
};

struct scenario_modules {
	/* workload i of the registry, in its order, into *out; called with
	 * i = 0, 1, ... until it returns false */
	bool (*registry)(unsigned i, struct scenario_workload *out);
	/* "kbuild, thp_faulter, ...": the workloads [workload] names may name */
	const char *(*names)(void);
	/* a scratch workload, to check one value as the run will set it:
	 * created with its defaults, one parameter set (-1 with the message
	 * tail), destroyed */
	int  (*scratch_create)(const char *name, struct workload **out, char *err, size_t errlen);
	int  (*scratch_set)(struct workload *w, const char *key, const char *value, char *err, size_t errlen);
	void (*scratch_destroy)(struct workload *w);
	/* scenario_resolve(): the policy, and workload i of the resolved
	 * [workload] names, built from s as the run builds them, then freed;
	 * -1 with the whole message.  check_workload calls input(path, arg)
	 * for each file the workload will read (the hash covers them) */
	int  (*check_policy)(const struct scenario *s, char *err, size_t errlen);
	int  (*check_workload)(const struct scenario *s, unsigned i, void (*input)(const char *path, void *arg),
	                       void *arg, char *err, size_t errlen);
};

extern const struct scenario_modules scenario_modules;

#endif
