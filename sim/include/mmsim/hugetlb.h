/* hugetlb.h - the persistent huge page pool (mm/hugetlb.c): vm.nr_hugepages.
 *
 * The pool is what real/harness uses to size the experiment's free memory
 * on a large machine: it writes vm.nr_hugepages, the kernel takes that
 * many 2 MiB pages from the buddy allocator, and a holder maps them so
 * that nothing else can have them (real/README.md).  The twin of that
 * machine (configs/twin-*.ini) does the same, so that the memory left
 * free is what the real pool left: the holes of the pageblocks the
 * machine's earlier work had used, not a freshly booted zone.
 *
 * set_max_huge_pages() grows the pool as 6.18's does for a write of
 * vm.nr_hugepages: one huge page at a time, alloc_buddy_hugetlb_folio()
 * with htlb_alloc_mask() (GFP_HIGHUSER_MOVABLE: x86-64's 2 MiB pages can
 * migrate) | __GFP_COMP | __GFP_NOWARN | __GFP_THISNODE, and
 * __GFP_RETRY_MAYFAIL until an attempt fails (node_alloc_noretry: after a
 * failure the next attempts do not try hard, until one succeeds); the
 * first page it cannot have ends the growth.  Each attempt counts
 * htlb_buddy_alloc_success or htlb_buddy_alloc_fail.  Shrinking frees
 * pages back to the buddy allocator (update_and_free_hugetlb_folio).
 *
 * The pool's pages are held (mapped by the holder): compound order-9
 * pages that neither reclaim (not on an LRU) nor compaction (compound
 * pages are skipped, v6.2 and 6.18 alike, unless for alloc_contig)
 * touch.  The census does not count them against a movable block: they
 * were allocated movable.
 */
#ifndef MMSIM_HUGETLB_H
#define MMSIM_HUGETLB_H

#include "mmsim/mm.h"

/* Set the pool to count huge pages; returns the size it reached (less
 * than count when the allocator could not give more). */
unsigned long set_max_huge_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long count);
/* HugePages_Total */
unsigned long nr_huge_pages(const struct pglist_data *pgdat);
/* the pool's pages back to the buddy allocator, its state freed
 * (mm_teardown) */
void hugetlb_teardown(struct pglist_data *pgdat);

#endif
