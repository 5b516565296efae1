/* build.h - the policy and the workloads of a resolved scenario, built
 * with its values (sim/run/build.c).  scenario_resolve() builds them the
 * same way through scenario_modules (mmsim/scenario_modules.h) and frees
 * them: what resolves, builds.  0, or -1 with the whole message in err,
 * starting with where the blamed key was given (FILE:LINE or --set KEY)
 * or with the scenario's file. */
#ifndef MMSIM_RUN_BUILD_H
#define MMSIM_RUN_BUILD_H

#include <stddef.h>
#include "mmsim/policy.h"
#include "mmsim/scenario.h"

struct workload;

/* the policy with the scenario's switches, validated */
int build_policy(const struct scenario *s, struct mm_policy **out, char *err, size_t errlen);
/* workload i of the resolved [workload] names with its parameters, validated */
int build_workload(const struct scenario *s, unsigned i, struct workload **out, char *err, size_t errlen);

#endif
