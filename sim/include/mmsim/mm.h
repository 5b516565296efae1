/* mm.h - what the rest of mmsim calls: building a node and the page
 * allocator's entry points, named after the kernel functions they model.
 *
 * Every entry point takes the calling context (struct mm_ctx, the model's
 * `current`): the CPU it runs on, because per-cpu lists are per CPU, and an
 * accumulator of the kernel time the call cost, which the actor charges.
 */
#ifndef MMSIM_MM_H
#define MMSIM_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mmsim/gfp.h"
#include "mmsim/mmzone.h"

/* Physical layout of one zone, as the firmware map and early boot leave it. */
struct zone_layout {
	unsigned long start_pfn;
	unsigned long spanned;          /* pfns from start_pfn, holes included */
	unsigned long present;          /* RAM pages in the span (reported only) */
	unsigned long managed_start;    /* first pfn given to the buddy allocator */
	unsigned long managed;          /* pages given to the buddy allocator */
};
struct mm_layout {
	struct zone_layout zone[MAX_NR_ZONES];
};

/* Lay out RAM as QEMU's pc machine does for an x86-64 guest: below 4 GiB
 * up to 3 GiB once RAM reaches 3.5 GiB (gigabyte alignment), the rest above
 * 4 GiB.  The kernel keeps the first 1 MiB, its image and early
 * allocations (kernel_reserved pages at 16 MiB, where x86-64 loads it) and
 * the memmap (64 bytes per present page, from the top of memory).
 * Returns 0, or -1 with a message in err. */
int mm_layout_qemu(uint64_t ram_bytes, unsigned long kernel_reserved,
                   struct mm_layout *out, char *err, size_t errlen);

void vm_sysctl_defaults(struct vm_sysctl *s);
void mm_costs_defaults(struct mm_costs *c);

/* Boot a node: memmap, pageblocks, zones, all managed memory freed to the
 * buddy lists in the policy's boot migratetype, watermarks, lowmem reserve
 * and pcp limits.  Returns 0, or -1 with a message in err. */
int pgdat_init(struct pglist_data *pgdat, const struct mm_layout *layout,
               unsigned nr_cpus, const struct vm_sysctl *sysctl,
               struct mm_policy *policy, char *err, size_t errlen);
void pgdat_destroy(struct pglist_data *pgdat);

/* Watermarks and reserves (mm/page_alloc.c of v6.2; later mm/mm_init.c). */
void calculate_min_free_kbytes(struct pglist_data *pgdat);
void set_recommended_min_free_kbytes(struct pglist_data *pgdat);   /* khugepaged */
void setup_per_zone_wmarks(struct pglist_data *pgdat);
void setup_per_zone_lowmem_reserve(struct pglist_data *pgdat);
unsigned long nr_free_buffer_pages(const struct pglist_data *pgdat);

/* The calling context: the model's `current`. */
#define PF_MEMALLOC  0x1u               /* in reclaim: no recursion into it */
#define PF_KSWAPD    0x2u
struct mm_ctx {
	unsigned cpu;
	unsigned flags;                 /* PF_* */
	double kernel_ns;               /* kernel time accumulated by calls */
};

/* The page allocator.  alloc_pages() returns NULL when the request cannot
 * be met after the slow path; order must be < MAX_ORDER. */
struct page *alloc_pages(struct pglist_data *pgdat, struct mm_ctx *ctx,
                         gfp_t gfp, unsigned order);
void __free_pages(struct pglist_data *pgdat, struct mm_ctx *ctx,
                  struct page *page, unsigned order);
void drain_local_pages(struct pglist_data *pgdat, unsigned cpu);
void drain_all_pages(struct pglist_data *pgdat);

bool zone_watermark_ok(struct pglist_data *pgdat, struct zone *z, unsigned order,
                       unsigned long mark, enum zone_type highest_zoneidx,
                       unsigned alloc_flags);

/* vmscan.c: record a kswapd wake request as wakeup_kswapd() does */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, enum zone_type highest_zoneidx);

/* Counting */
static inline void count_vm_events(struct pglist_data *pgdat, enum vm_event_item i, unsigned long n)
{
	pgdat->vm_events[i] += n;
}
long global_zone_page_state(const struct pglist_data *pgdat, enum zone_stat_item i);

#endif
