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
#include "mmsim/mm_types.h"
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

/* Host memory the model's state of such a machine takes: struct page and
 * the pageblock bits per spanned frame, a pte per page a process can map,
 * and per swap slot its maps and the pte of the page it holds (bytes;
 * the bound of mmsim/limits.h is checked against it). */
uint64_t mm_layout_host_bytes(const struct mm_layout *layout, uint64_t ram, uint64_t swap);

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
#define PF_KTHREAD   0x4u               /* kcompactd: never captures */
struct capture_control;
struct mm_ctx {
	unsigned cpu;
	unsigned flags;                 /* PF_* */
	double kernel_ns;               /* kernel CPU time accumulated by calls */
	double kernel_done_ns;          /* of it, already spent on the CPU (stalls) */
	bool stalls;                    /* a process: its direct reclaim and compaction stall it */
	double io_wait_ns;              /* time blocked on I/O (swap-in, reads): a sleep, not CPU */
	double io_done_ns;              /* of it, already slept (a task caught up with the clock) */
	struct mm_struct *mm;           /* the task's memory, if any (OOM victim check) */
	struct capture_control *capture_control;   /* current->capture_control (compaction) */
	/* cond_resched() (sched.c): what the work run up since the last
	 * yield holds while its time is spent on the CPU.  Reclaim and
	 * compaction do their page work at one instant; the time it takes
	 * is spent at the next yield, and during that time the locks and
	 * pages it used count as held by this task for the other tasks. */
	double locked_ns;               /* of the pending kernel time, spent under a lock */
	struct zone *locked_zone;       /* zone->lock taken (compaction's free scanner), or NULL */
	bool lru_locked;                /* the LRU lock taken (reclaim, the migrate scanner) */
	unsigned long isolated[2];      /* its current batch isolated from the LRU: anon, file */
};

/* A daemon's step of work is over: spend now the share of its pending
 * kernel time done under the LRU or a zone's lock, with those locks and
 * its last isolated batch held for the others (ctx->kernel_done_ns
 * grows by it); the caller spends the rest.  No-op without an engine. */
void mm_spend_held(struct pglist_data *pgdat, struct mm_ctx *ctx);

/* The page allocator.  alloc_pages() returns NULL when the request cannot
 * be met after the slow path; order must be < MAX_ORDER. */
struct page *alloc_pages(struct pglist_data *pgdat, struct mm_ctx *ctx,
                         gfp_t gfp, unsigned order);
void __free_pages(struct pglist_data *pgdat, struct mm_ctx *ctx,
                  struct page *page, unsigned order);
void drain_local_pages(struct pglist_data *pgdat, unsigned cpu);
void drain_all_pages(struct pglist_data *pgdat);
/* echo mode > /proc/sys/vm/drop_caches (drop_caches.c): 1 the clean
 * unmapped page cache, 2 the shrinkers' objects, 3 both; returns the page
 * cache pages dropped */
unsigned long drop_caches(struct pglist_data *pgdat, struct mm_ctx *ctx, int mode);
/* echo 1 > /proc/sys/vm/compact_memory (compaction.c, compact_nodes()):
 * every zone of the node compacted whole, synchronously */
void compact_nodes(struct pglist_data *pgdat, struct mm_ctx *ctx);

bool zone_watermark_ok(struct pglist_data *pgdat, struct zone *z, unsigned order,
                       unsigned long mark, enum zone_type highest_zoneidx,
                       unsigned alloc_flags);

/* ---- the machine's memory users ---- */

/* Devices and swap: set before use; swap_pages 0 means no swap. */
int  swap_setup(struct pglist_data *pgdat, unsigned long swap_pages, double latency_s,
                double bandwidth_bps, char *err, size_t errlen);
void blockdev_setup(struct blockdev *dev, double latency_s, double bandwidth_bps);

/* memory.c: processes.  mm_alloc() is fork's share of memory (task and mm
 * structures from slab, a kernel stack); NULL when it cannot be had.
 * mmput() is exit's: everything is freed. */
struct mm_struct *mm_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx);
void mmput(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm);
/* brk/mmap: grow the anonymous area by nr pages (faulted on first touch);
 * returns the first new virtual page */
unsigned long mm_grow(struct mm_struct *mm, unsigned long nr);
/* mmap: a new anonymous area of nr pages whose start is aligned to
 * PTRS_PER_PTE pages (2 MiB), as a THP-capable mapping is; returns its
 * first virtual page */
unsigned long mm_mmap(struct mm_struct *mm, unsigned long nr);
/* mmap of a file: nr pages of as from page pgoff, with vm_flags (VM_READ,
 * VM_EXEC; a read-only private or shared mapping: writes are not modelled).
 * The area starts and ends on a 2 MiB boundary, so that its page tables
 * are its own and never a THP's.  Touching it with mm_access() faults the
 * pages in from the page cache (filemap_fault: a miss reads the mmap
 * read-around window from the disk, a major fault; fault-around maps the
 * cached pages of the 16-page window, a minor fault); each pte maps the
 * page cache page (its mapcount, nr_mapped).  mm_unmap() and mmput()
 * unmap it; the pages stay in the page cache.  Returns the first virtual
 * page. */
unsigned long mm_mmap_file(struct mm_struct *mm, struct address_space *as, unsigned long pgoff,
                           unsigned long nr, unsigned vm_flags);
/* madvise(MADV_HUGEPAGE): faults in the 2 MiB ranges wholly inside
 * [vpage, vpage + nr) try a transparent huge page first */
void mm_madvise_hugepage(struct mm_struct *mm, unsigned long vpage, unsigned long nr);
/* munmap: free the pages and swap slots of [vpage, vpage + nr), and the
 * page tables of the 2 MiB ranges it covers wholly; an area at the top of
 * the address space is given back */
void mm_unmap(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
              unsigned long vpage, unsigned long nr);
/* touch nr pages from vpage: present ones get their accessed bit, missing
 * ones are faulted in (pgfault), swapped ones read back (pgmajfault,
 * pswpin).  Returns 0, or -1 when memory could not be had (the task is
 * an OOM victim, or the fault failed). */
int  mm_access(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
               unsigned long vpage, unsigned long nr, bool write);

/* filemap.c: files.  Files are identified by their inode number. */
struct address_space *inode_create(struct pglist_data *pgdat, unsigned long size_pages, bool bdev);
struct address_space *inode_lookup(const struct pglist_data *pgdat, uint32_t ino);
/* the file named name (a static string), created with size_pages if no
 * file has that name yet: executables and libraries that several
 * workloads map.  A scan of the inodes: call it at start, not per access. */
struct address_space *inode_get_named(struct pglist_data *pgdat, const char *name, unsigned long size_pages);
/* read/write nr pages from index through the page cache: hits are copies,
 * misses allocate (refaults are detected through shadow entries) and read
 * from the disk.  Writes dirty the pages.  0, or -1 on allocation failure. */
int  filemap_read(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                  unsigned long index, unsigned long nr);
int  filemap_write(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                   unsigned long index, unsigned long nr);
/* filemap_read() telling what it found: pages not in the page cache
 * (read from the disk), and of them those whose slot held a shadow entry
 * (evicted before: workingset_refault() looked at them).  Added to *st. */
struct filemap_read_stat {
	unsigned long missed, shadowed;
};
int  filemap_read_stat(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                       unsigned long index, unsigned long nr, struct filemap_read_stat *st);
/* fsync of a range (filemap_write_and_wait_range()): its dirty pages are
 * written as one request and the caller waits for it; returns pages written */
unsigned long filemap_write_and_wait_range(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                           struct address_space *as, unsigned long index,
                                           unsigned long nr);
/* unlink a regular file no one has open: its page cache (dirty pages
 * too) and inode are freed, its dentry turns negative (dcache.h); it
 * stays an empty file */
void inode_unlink(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as);
/* the flusher: write back up to nr dirty file pages; returns pages written */
unsigned long writeback_dirty_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long nr);
/* sync(2): every dirty page written, whatever its age; the count */
unsigned long sync_dirty_pages(struct pglist_data *pgdat, struct mm_ctx *ctx);

/* ---- reclaim (vmscan.c) ---- */

/* mm/internal.h: kswapd runs that reclaimed nothing before it gives up on
 * the node (kswapd_failures), and the slow path's retries without
 * progress (should_reclaim_retry) */
#define MAX_RECLAIM_RETRIES 16

/* wakeup_kswapd(): record the order and zone kswapd is to work for, and
 * ask the host to wake kswapd (mm_host.h) unless the node is balanced already */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, enum zone_type highest_zoneidx);
/* direct reclaim (try_to_free_pages); returns pages reclaimed */
unsigned long try_to_free_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned order,
                                gfp_t gfp, enum zone_type highest_zoneidx);

/* kswapd, one balance_pgdat() run taken a step at a time, so that the
 * actor charges each step's time before the next: */
struct kswapd_run {
	int order;                      /* sc.order: may drop to 0 (compact_gap reached) */
	int alloc_order;                /* the order kswapd was woken for */
	enum zone_type highest_zoneidx;
	int priority;
	unsigned long nr_reclaimed;     /* this run */
	unsigned long nr_boost_reclaim; /* boosted reclaim still to do */
	unsigned long zone_boosts[MAX_NR_ZONES];
	bool boosted;                   /* boosted reclaim: no swap, no writeback */
	bool done;
};
void balance_pgdat_begin(struct pglist_data *pgdat, struct kswapd_run *r, int order,
                         enum zone_type highest_zoneidx);
/* one pass of the priority loop; sets r->done when balanced or given up */
void balance_pgdat_step(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kswapd_run *r);
void balance_pgdat_end(struct pglist_data *pgdat, struct kswapd_run *r);
bool pgdat_balanced(struct pglist_data *pgdat, int order, enum zone_type highest_zoneidx);
/* kswapd's read of its request: the order and zone asked since it last
 * looked, reset to "none"; *highest_zoneidx is MAX_NR_ZONES if there was
 * no request */
void kswapd_take_request(struct pglist_data *pgdat, int *order, enum zone_type *highest_zoneidx);
/* kswapd's loop: does it go back to sleep at the order it balanced for
 * (RFC 20/26), or look at the pending request first (v6.2)? */
bool kswapd_keeps_order(const struct pglist_data *pgdat);

/* ---- compaction (compaction.c) ---- */

/* include/linux/compaction.h: a zone's compaction is deferred for at
 * most 1 << this many attempts; kcompactd's proactive compaction backs
 * off for as many of its timeouts */
#define COMPACT_MAX_DEFER_SHIFT 6

/* wakeup_kcompactd(): record the order and zone kcompactd is to compact
 * for, and ask the host to wake kcompactd if it sleeps and there is work */
void wakeup_kcompactd(struct pglist_data *pgdat, int order, enum zone_type highest_zoneidx);
/* kcompactd's work when woken (kcompactd_do_work) */
void kcompactd_do_work(struct pglist_data *pgdat, struct mm_ctx *ctx);
/* proactive compaction on kcompactd's timeout: true if it ran and the
 * fragmentation score did not improve (kcompactd then backs off) */
bool should_proactive_compact_node(struct pglist_data *pgdat);
bool proactive_compact_node(struct pglist_data *pgdat, struct mm_ctx *ctx);
/* reset_isolation_suitable(): kswapd going to sleep clears the skip bits
 * that direct compaction asked to flush */
void reset_isolation_suitable(struct pglist_data *pgdat);
/* fragmentation_score_node(): 0..100, the node's THP-order unusability */
unsigned fragmentation_score_node(const struct pglist_data *pgdat);

/* oom_kill.c: pick the task with the highest badness, free its memory
 * (the OOM reaper) and notify its owner; false if there is none */
bool out_of_memory(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp, unsigned order);

/* Counting */
static inline void count_vm_events(struct pglist_data *pgdat, enum vm_event_item i, unsigned long n)
{
	pgdat->vm_events[i] += n;
}
long global_zone_page_state(const struct pglist_data *pgdat, enum zone_stat_item i);

#endif
