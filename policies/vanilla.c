/* vanilla.c - the page allocator of Linux v6.2, the baseline.  It changes
 * nothing: every hook is v6.2's own (sim/mm/policy_v6_2.c). */
#include "mmsim/policy.h"

const struct mm_policy_ops vanilla_policy_ops = {
	.name = "vanilla",
	.desc = "Linux v6.2 page allocator: fallbacks, highatomic reserves, watermark boosting",
};
