/* policies.h - what the policy modules share (not a public header). */
#ifndef MMSIM_POLICIES_H
#define MMSIM_POLICIES_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/policy.h"

int policy_parse_bool(const char *key, const char *value, bool *out, char *err, size_t errlen);

/* vanilla's v6.2 hooks, which hygiene reuses where a switch is off */
long vanilla_zone_free_pages(const struct mm_policy *, const struct zone *, unsigned alloc_flags);
bool vanilla_watermark_area_ok(const struct mm_policy *, const struct free_area *, unsigned alloc_flags);

#endif
