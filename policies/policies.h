/* policies.h - what the policy modules share (not a public header). */
#ifndef MMSIM_POLICIES_H
#define MMSIM_POLICIES_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/policy.h"

/* vanilla's v6.2 hooks, which hugealloc_rfc reuses where a switch is off */
long vanilla_zone_free_pages(const struct mm_policy *, const struct zone *, unsigned alloc_flags);
bool vanilla_watermark_area_ok(const struct mm_policy *, const struct free_area *, unsigned alloc_flags);

long vanilla_compaction_free_pages(const struct mm_policy *, const struct zone *);
bool vanilla_suitable_migration_source(const struct mm_policy *, const struct compact_control *, int block_mt);
bool vanilla_suitable_migration_target(const struct mm_policy *, const struct compact_control *, int block_mt,
                                       unsigned buddy_order);
bool vanilla_compact_finished(const struct mm_policy *, const struct compact_control *);
unsigned long vanilla_compaction_wmark(const struct mm_policy *, const struct zone *, bool direct,
                                       unsigned alloc_flags);

#endif
