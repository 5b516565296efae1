/* policies.h - what the policy modules share (not a public header). */
#ifndef MMSIM_POLICIES_H
#define MMSIM_POLICIES_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/policy.h"

/* the decision of the kernel a policy builds on, for a hook that is the
 * base's in some cases only: BASE(p)->hook(p, ...) */
#define BASE(p) ((p)->base)

#endif
