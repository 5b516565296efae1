/* v6_15.c - Linux 6.15's page allocator with vm.defrag_mode=0: the
 * baseline defrag_mode is compared with.  What it changes against v6.2 is
 * what the model carries of the kernels between (policies/README.md,
 * "v6_15 and defrag_mode"):
 * - 6.3: proactive compaction counts as daemon work;
 * - 6.5: should_compact_retry() with three outcomes and
 *   compaction_zonelist_suitable() asking only for migration targets (the
 *   RFC's 14/26 and 19/26 as merged);
 * - 6.10 freelist hygiene with 6.15's fallback split: a block is claimed
 *   whole or not at all, else one page is stolen and its remainder stays on
 *   its block's lists; and its free side: a free page is always on its
 *   block's type's list (a merged buddy's blocks take the freed page's
 *   type, the pcp lists cache no type);
 * - 6.12's compaction scanners counting a skipped compound page or
 *   free buddy as all its pages (MMF_COMPACT_SCANNED_COUNTS_SKIPPED);
 * - 6.9's compaction of folios below the target order ("mm/compaction:
 *   enable compacting >0 order folios"): the migrate scanner takes a
 *   large page-cache folio whole, the free scanner keeps its targets
 *   whole by order (MMF_COMPACT_LARGE_FOLIOS);
 * - 6.12's lru_note_cost() with rotations as a secondary cost
 *   (MMF_LRU_COST_ROTATIONS);
 * - 6.15's "mm: compaction: push watermark into compaction_suitable()
 *   callers" (the 2025 posting's 1/5, which does not depend on
 *   vm.defrag_mode): compaction_ready() asks for high + gap + (low - min)
 *   for costly orders.
 * Everything else is v6.2's: the table states nothing more. */
#include "mmsim/policy.h"

const struct mm_policy_ops v6_15_policy_ops = {
	.name = "v6_15",
	.desc = "Linux 6.15 with vm.defrag_mode=0: v6.2 plus freelist hygiene (block claim/steal, free pages "
	        "on their block's type's list), "
	        "6.5's compaction retry rules, 6.3's proactive daemon counting, 6.9's compaction of folios "
	        "below the target order, 6.15's compaction_suitable() at the caller's watermark",
	.features = MMF_PROACTIVE_COMPACT_COUNTS_DAEMON | MMF_COMPACT_RETRY_THREE_OUTCOMES |
	            MMF_ZONELIST_SUITABLE_TARGETS_ONLY | MMF_RMQUEUE_CLAIM_STEAL |
	            MMF_COMPACTION_SUITABLE_CALLER_WMARK | MMF_FREELIST_HYGIENE |
	            MMF_COMPACT_SCANNED_COUNTS_SKIPPED | MMF_LRU_COST_ROTATIONS | MMF_COMPACT_LARGE_FOLIOS,
};
