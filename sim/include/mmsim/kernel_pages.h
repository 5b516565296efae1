/* kernel_pages.h - the kernel's own page allocations outside slab: the
 * stacks of kernel threads, page tables, vmalloc and per-cpu chunks, as
 * a booted machine holds them (workloads/system.c allocates them at boot).
 *
 * Each is an order-0 GFP_KERNEL allocation (unmovable pageblocks, as
 * THREADINFO_GFP, GFP_PGTABLE_USER, vmalloc's GFP_KERNEL and the per-cpu
 * allocator's pcpu_alloc_pages() ask), its page's owner set, and the
 * counter /proc/vmstat keeps for it: nr_kernel_stack (KiB) for stacks,
 * nr_page_table_pages for page tables.  vmalloc and per-cpu pages have
 * no /proc/vmstat counter (meminfo's VmallocUsed and Percpu count them
 * elsewhere); their pages are PGOWN_KMEM.  kmalloc_large pages are
 * PGOWN_KMEM too: v6.2 counts them in nr_slab_unreclaimable, the model
 * keeps that counter for slab pages only (its slab invariant checks it),
 * so they are not counted there.  A GPU's buffer objects are not kernel
 * pages but shmem pages on the LRU (i915_gem.h).
 */
#ifndef MMSIM_KERNEL_PAGES_H
#define MMSIM_KERNEL_PAGES_H

#include "mmsim/mm.h"

enum kernel_page_kind {
	KPAGE_STACK,            /* a 16 KiB thread stack is 4 of them (vmalloc'd: order 0) */
	KPAGE_PAGETABLE,
	KPAGE_VMALLOC,
	KPAGE_PERCPU,
	KPAGE_KMALLOC_LARGE,    /* kmalloc() of more than 8 KiB: pages straight from the buddy */
};

/* 2^order pages (order > 0: one compound page, as kmalloc_large's);
 * NULL when the allocator cannot give them */
struct page *kernel_page_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx,
                               enum kernel_page_kind kind, unsigned order);
void kernel_page_free(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *page,
                      enum kernel_page_kind kind, unsigned order);

#endif
