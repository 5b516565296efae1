/* mmzone.h - node, zones, free areas, per-cpu lists (include/linux/mmzone.h).
 *
 * One node (pglist_data) with the zones of an x86-64 guest.  The structures
 * are public, as in the kernel, because the allocator, reclaim, compaction,
 * the invariant checker and the /proc formatters all walk them; only the
 * functions in mm.h change them.
 */
#ifndef MMSIM_MMZONE_H
#define MMSIM_MMZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mmsim/mm_host.h"
#include "mmsim/mm_types.h"
#include "mmsim/page.h"

enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,               /* the number of types on the pcp lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_FREE,                   /* the RFC's neutral block (RFC 11/26); vanilla never sets it */
	MIGRATE_ISOLATE,
	MIGRATE_TYPES
};

/* The physical zones of an x86-64 guest, ZONE_MOVABLE (empty: no
 * kernelcore=/movablecore=), and the two policy zones of TAO's chapter
 * one ("THP zones: the use cases of policy zones", Yu Zhao, 2024), which
 * only a kernel with that series has: pgdat->kernel_nr_zones says how
 * many of these the booted kernel knows (ZONE_MOVABLE + 1 for v6.2).
 * ZONE_NOSPLIT serves only allocations of at least its order,
 * ZONE_NOMERGE only those of exactly its order (policies/README.md, "tao"). */
enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_MOVABLE, ZONE_NOSPLIT, ZONE_NOMERGE,
                 MAX_NR_ZONES };
#define LAST_PHYS_ZONE (ZONE_MOVABLE - 1)
#define LAST_VIRT_ZONE ZONE_NOMERGE
enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

enum zone_stat_item {
#define ZONE_STAT(id, name) id,
#include "mmsim/vmstat_items.def"
	NR_VM_ZONE_STAT_ITEMS
};
enum node_stat_item {
#define NODE_STAT(id, name) id,
#include "mmsim/vmstat_items.def"
	NR_VM_NODE_STAT_ITEMS
};
enum vm_event_item {
#define VM_EVENT(id, name) id,
#include "mmsim/vmstat_items.def"
	NR_VM_EVENT_ITEMS
};

/* Tracepoints the real harness counts (real/README.md, wakes.tsv), counted
 * here by order where the kernel fires them: who asked kswapd and
 * kcompactd, and who stalled, which /proc/vmstat does not say. */
enum mm_trace_event {
	TRACE_WAKEUP_KSWAPD,            /* mm_vmscan_wakeup_kswapd: a sleeping kswapd woken */
	TRACE_KSWAPD_WAKE,              /* mm_vmscan_kswapd_wake: balance_pgdat() begins */
	TRACE_WAKEUP_KCOMPACTD,         /* mm_compaction_wakeup_kcompactd: a sleeping kcompactd woken */
	TRACE_KCOMPACTD_WAKE,           /* mm_compaction_kcompactd_wake: kcompactd_do_work() begins */
	TRACE_DIRECT_RECLAIM_BEGIN,     /* mm_vmscan_direct_reclaim_begin */
	TRACE_TRY_TO_COMPACT_PAGES,     /* mm_compaction_try_to_compact_pages */
	NR_MM_TRACE_EVENTS
};

/* Whose request a tracepoint that prints gfp_flags fired for, told by the
 * flags alone (gfp_trace_class(), gfp.h), at orders 1-10: a THP fault
 * (GFP_TRANSHUGE*), a page-cache write (__GFP_WRITE), a page-cache read
 * (readahead_gfp_mask(): movable with __GFP_NORETRY), anything else.
 * `mmsim import` reads the same classes off a real trace's printed flags
 * (results/import_real.c), so the two can be held side by side. */
enum trace_gfp_class {
	TRACE_GFP_THP, TRACE_GFP_READAHEAD, TRACE_GFP_WRITE, TRACE_GFP_OTHER,
	NR_TRACE_GFP_CLASSES
};
extern const char *const trace_gfp_class_names[NR_TRACE_GFP_CLASSES];

/* zone->flags bits */
enum zone_flags {
	ZONE_BOOSTED_WATERMARK,         /* boost_watermark() asked for a kswapd wake */
	ZONE_RECLAIM_ACTIVE,            /* kswapd or direct reclaim is working here */
};

/* A free list is a circular list through struct page's next/prev; its head
 * is a sentinel entry of the memmap (see page.h), named by its index. */
struct free_area {
	uint32_t free_list[MIGRATE_TYPES];
	unsigned long nr_free;          /* free buddies of this order, all types */
};

/* v6.2: MIGRATE_PCPTYPES lists for each order 0..PAGE_ALLOC_COSTLY_ORDER,
 * plus one list for pageblock-order (THP) pages of every type. */
#define NR_LOWORDER_PCP_LISTS (MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
#define NR_PCP_LISTS          (NR_LOWORDER_PCP_LISTS + 1)

/* A per-cpu list: a ring of pfns, first entry at pfns[first & mask].  The
 * kernel's pcp lists are only ever added to and taken from at their ends
 * (free: head; refill: tail; allocation: head; bulk free: tail), so a
 * ring keeps their order exactly, without writing a neighbour's struct
 * page per add and take, and lets free_pcppages_bulk see the pages it will
 * free next (and prefetch them and their buddies) without walking links. */
struct pcp_list {
	uint32_t *pfns;
	uint32_t first;                 /* wraps: only (first & mask) is an index */
	uint32_t len;                   /* entries (pages of the list's order) */
	uint32_t mask;                  /* capacity - 1; capacity a power of two, grown when full */
};

/* entry i of a pcp list, counted from its head */
static inline uint32_t pcp_list_at(const struct pcp_list *l, uint32_t i)
{
	return l->pfns[(l->first + i) & l->mask];
}

struct per_cpu_pages {
	int count;                      /* pages on the lists */
	int high;                       /* free down when count reaches this */
	int batch;                      /* chunk moved to and from the buddy lists */
	short free_factor;              /* batch scaling while freeing without allocating */
	struct pcp_list lists[NR_PCP_LISTS];
};

struct pglist_data;

struct zone {
	unsigned long _watermark[NR_WMARK];
	unsigned long watermark_boost;
	unsigned long nr_reserved_highatomic;
	long lowmem_reserve[MAX_NR_ZONES];

	struct pglist_data *zone_pgdat;
	struct per_cpu_pages *per_cpu_pageset;   /* one per CPU */
	const char *name;
	enum zone_type idx;
	/* TAO's zone->order: the order a policy zone serves (0 elsewhere) */
	unsigned order;
	/* zone_max_order(): __free_one_page() merges while the order is below
	 * it: MAX_ORDER - 1, ZONE_NOMERGE's order there (TAO) */
	unsigned max_order;

	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	unsigned long present_pages;
	unsigned long managed_pages;
	unsigned long managed_start_pfn;         /* the managed range is contiguous here */

	unsigned long flags;
	struct free_area free_area[MAX_ORDER];
	long vm_stat[NR_VM_ZONE_STAT_ITEMS];

	/* compaction (mm/compaction.c): where the scanners resume, and
	 * deferral after failures */
	unsigned long compact_cached_free_pfn;
	unsigned long compact_cached_migrate_pfn[2];     /* [0] async, [1] sync */
	unsigned long compact_init_migrate_pfn;
	unsigned long compact_init_free_pfn;
	unsigned compact_considered;
	unsigned compact_defer_shift;
	int compact_order_failed;
	bool compact_blockskip_flush;
	/* zone->lock as the other tasks see it: how many tasks are spending
	 * the time of work they did under it (sched.c) */
	int lock_holders;
};

static inline unsigned long zone_end_pfn(const struct zone *z)
{
	return z->zone_start_pfn + z->spanned_pages;
}
static inline bool populated_zone(const struct zone *z) { return z->managed_pages != 0; }
static inline bool zone_spans_pfn(const struct zone *z, unsigned long pfn)
{
	return pfn >= z->zone_start_pfn && pfn < zone_end_pfn(z);
}
static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks w)
{
	return z->_watermark[w] + z->watermark_boost;
}
static inline unsigned long min_wmark_pages(const struct zone *z)  { return wmark_pages(z, WMARK_MIN); }
static inline unsigned long low_wmark_pages(const struct zone *z)  { return wmark_pages(z, WMARK_LOW); }
static inline unsigned long high_wmark_pages(const struct zone *z) { return wmark_pages(z, WMARK_HIGH); }
static inline long zone_page_state(const struct zone *z, enum zone_stat_item i) { return z->vm_stat[i]; }

/* The sysctls the allocator reads, by their /proc/sys/vm names. */
enum { THP_ENABLED_ALWAYS, THP_ENABLED_MADVISE, THP_ENABLED_NEVER };
enum { THP_DEFRAG_ALWAYS, THP_DEFRAG_DEFER, THP_DEFRAG_DEFER_MADVISE, THP_DEFRAG_MADVISE,
       THP_DEFRAG_NEVER };

/* [kernel] group_by_mobility: off, on, or the kernel's rule */
enum { GROUP_BY_MOBILITY_OFF, GROUP_BY_MOBILITY_ON, GROUP_BY_MOBILITY_AUTO };

/* [kernel] readahead_order: a readahead window's folio order two above
 * the folio whose PG_readahead started it (6.12), or two above the last
 * window's, kept in file_ra_state (the running 6.18) */
enum { RA_ORDER_MARKED_FOLIO, RA_ORDER_FILE_RA_STATE };

struct vm_sysctl {
	int  min_free_kbytes;           /* computed at boot unless set (user_min_free_kbytes) */
	int  user_min_free_kbytes;      /* -1: not set by the user */
	int  watermark_scale_factor;    /* 10 */
	int  watermark_boost_factor;    /* 15000 */
	int  lowmem_reserve_ratio[MAX_NR_ZONES];  /* 256 256 32 0 */
	int  percpu_pagelist_high_fraction;       /* 0 */
	bool thp_enabled;               /* transparent_hugepage/enabled is always or madvise */
	int  thp_enabled_mode;          /* THP_ENABLED_*: always, madvise (default), never */
	int  thp_defrag;                /* THP_DEFRAG_*: transparent_hugepage/defrag (madvise) */
	int  compaction_proactiveness;  /* vm.compaction_proactiveness, 20 */
	bool config_compaction;         /* not a sysctl: CONFIG_COMPACTION of the kernel booted */
	bool config_numa;               /* not a sysctl: CONFIG_NUMA of the kernel booted */
	int  group_by_mobility;         /* not a sysctl: GROUP_BY_MOBILITY_* ([kernel] group_by_mobility) */
	bool large_folios;              /* not a sysctl: the file system's page cache takes large folios
	                                 * (ext4 from Linux 6.16): read()'s readahead allocates folios
	                                 * above order 0 ([kernel] large_folios, no) */
	int  readahead_order;           /* not a sysctl: RA_ORDER_*, where a readahead window's folio
	                                 * order comes from ([kernel] readahead_order, marked_folio) */
	unsigned read_ahead_kb;         /* /sys/block/DEV/queue/read_ahead_kb: the bdi's ra_pages in KiB
	                                 * ([machine] read_ahead_kb, 128) */
	int  swappiness;                /* vm.swappiness, 60 */
	int  vfs_cache_pressure;        /* vm.vfs_cache_pressure, 100 */
	int  dirty_expire_centisecs;    /* vm.dirty_expire_centisecs, 3000 */
	int  extfrag_threshold;         /* vm.extfrag_threshold, 500 */
};

/* Kernel time, in ns, that the allocator's operations cost.  The callers
 * (actors) charge the sum as system time; see docs/model.md for sources. */
struct mm_costs {
	double pcp_alloc_ns;            /* rmqueue_pcplist hit */
	double pcp_free_ns;             /* free_unref_page_commit */
	double buddy_ns;                /* one __rmqueue or __free_one_page under zone->lock */
	double buddy_per_order_ns;      /* each split in expand() or merge step */
	double pfn_scan_ns;             /* each pfn looked at by move_freepages() */
	double zone_check_ns;           /* one zone_watermark check in the zonelist walk */
	double fault_ns;                /* an anonymous fault of a 4 KiB page, zeroing included */
	double swapin_ns;               /* CPU side of a swap-in fault (I/O waits apart) */
	double pagecache_hit_ns;        /* a page cache lookup and 4 KiB copy (read/write) */
	double pagecache_add_ns;        /* adding a new page to the page cache and LRU */
	double lru_scan_ns;             /* isolating and checking one LRU page in reclaim */
	double unmap_ns;                /* unmapping one mapped page (rmap walk, TLB flush share) */
	double rmap_one_ns;             /* each area an rmap walk of a file page visits */
	double pageout_ns;              /* preparing and submitting one page of write I/O */
	double slab_object_ns;          /* one kmem_cache_alloc or kmem_cache_free */
	double shrinker_object_ns;      /* one object looked at by a slab shrinker */
	double fork_ns;                 /* fork/exec bookkeeping beyond the memory it allocates */
	double clear_page_ns;           /* zeroing one 4 KiB page (clear_huge_page: 512 of them) */
	double compact_scan_ns;         /* one pfn looked at by a compaction scanner */
	double migrate_page_ns;         /* unmapping, copying and remapping one 4 KiB page */
};

/* mm_page_alloc_extfrag, counted: every fallback __rmqueue_fallback takes. */
struct extfrag_stats {
	unsigned long events;
	unsigned long fragmenting;      /* fallback_order < pageblock_order */
	unsigned long change_ownership; /* block now belongs to the allocating type */
	unsigned long by_type[MIGRATE_TYPES][MIGRATE_TYPES];   /* [alloc][fallback] */
	/* optional tracepoint: called for every event when set */
	void (*trace)(void *arg, unsigned long pfn, unsigned alloc_order, unsigned fallback_order,
	              int alloc_mt, int fallback_mt, bool change_ownership);
	void *trace_arg;
};

struct mm_policy;
struct mm_ctx;
struct shrinker;
struct i915_gem;
struct hstate;

struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	/* MAX_NR_ZONES of the booted kernel: ZONE_MOVABLE + 1 for v6.2,
	 * MAX_NR_ZONES for a kernel with TAO's policy zones (the /proc files
	 * show that many) */
	unsigned kernel_nr_zones;
	/* the zonelist's first populated zone for a request whose highest
	 * zone is i (-1: none): which zones have pages is fixed at boot, and
	 * each allocation would otherwise step over the empty ones */
	int8_t first_populated_zone[MAX_NR_ZONES];
	/* TAO's zone_nosplit_order and zone_nomerge_order (nosplit=X,Y and
	 * nomerge=X,Y): 0 when the kernel has no such zone */
	unsigned zone_nosplit_order;
	unsigned zone_nomerge_order;
	unsigned nr_cpus;
	unsigned long node_spanned_pages;        /* pfns 0 .. node_spanned_pages-1 */
	struct page *mem_map;                    /* indexed by pfn; sentinels follow */
	unsigned long mem_map_entries;           /* pfns and sentinels: the host mapping's size */
	uint8_t *pageblock_flags;                /* one byte per pageblock: see pageblock helpers */
	uint8_t *buddy_tag;                      /* one byte per pfn: PageBuddy, order, zone (page_alloc.c) */
	unsigned long nr_pageblocks;

	struct mm_policy *policy;
	struct vm_sysctl sysctl;
	struct mm_costs costs;
	bool config_compaction;                  /* CONFIG_COMPACTION (the RFC's switches key on it) */
	bool config_numa;                        /* CONFIG_NUMA: vma_alloc_folio()'s THP attempts */
	/* page_group_by_mobility_disabled: every request and every block is
	 * MIGRATE_UNMOVABLE (the 2007 grouping by mobility switched off, as
	 * build_all_zonelists() does itself on a machine of fewer than
	 * pageblock_nr_pages * MIGRATE_TYPES pages) */
	bool page_group_by_mobility_disabled;

	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	struct extfrag_stats extfrag;

	/* the host that runs the model (mm_host.h: its clock, its daemons,
	 * its scheduler) and its state; NULL: none */
	const struct mm_host_ops *host_ops;
	void *host;

	/* kswapd requests (wakeup_kswapd); the host's kswapd sleeps on them */
	int kswapd_order;
	enum zone_type kswapd_highest_zoneidx;   /* MAX_NR_ZONES: none pending */
	unsigned long kswapd_wakeups;            /* wakes of a sleeping kswapd (the
	                                          * trace point mm_vmscan_wakeup_kswapd) */
	unsigned long trace_events[NR_MM_TRACE_EVENTS][MAX_ORDER];  /* by order */
	/* orders 1-10 by gfp class, for the events that print gfp_flags */
	unsigned long trace_gfp[NR_MM_TRACE_EVENTS][NR_TRACE_GFP_CLASSES];
	bool kswapd_sleeping;           /* on its wait queue (waitqueue_active);
	                                 * the host keeps it */

	/* kcompactd requests (wakeup_kcompactd); the host's kcompactd sleeps on them */
	int kcompactd_max_order;
	enum zone_type kcompactd_highest_zoneidx;
	bool kcompactd_sleeping;        /* on its wait queue (wq_has_sleeper) */
	bool kswapd_running;            /* kswapd_is_running(): in balance_pgdat */

	/* reclaim (vmscan.c, swap.c, workingset.c) */
	struct lruvec lruvec;
	long vm_node_stat[NR_VM_NODE_STAT_ITEMS];
	int kswapd_failures;            /* balance_pgdat runs that reclaimed nothing */

	/* what the memory holds: processes, files, slab (memory.c, filemap.c, slab.c) */
	struct mm_struct **mms;         /* by id; NULL once exited */
	uint32_t nr_mms, cap_mms;
	struct address_space **inodes;  /* by inode number */
	uint32_t nr_inodes, cap_inodes;
	struct slab_state *slab;
	struct shrinker *shrinkers;     /* shrink_slab() calls them in turn (shrinker.h) */
	struct i915_gem *i915;          /* a GPU's buffer objects, if any (i915_gem.h) */
	/* the superblock shrinker's LRU walk met an object (dentry_lru_isolate,
	 * inode_lru_isolate: dcache.c): enum lru_status; NULL: referenced
	 * ones rotate, the others are freed */
	int (*slab_isolate)(struct pglist_data *, struct mm_ctx *, int cache, uint32_t owner, bool referenced);
	/* a shrinker freed an object: tell its owner (dcache.c) */
	void (*slab_evicted)(struct pglist_data *, struct mm_ctx *, int cache, uint32_t owner);
	struct dcache *dcache;          /* names and dentries (dcache.c) */
	struct hstate *hstate;          /* the huge page pool, once vm.nr_hugepages was set (hugetlb.c) */
	struct swap_info swap;          /* the swap area (swapfile.c) */
	struct blockdev disk;           /* where files live */
	struct dirty_ring *dirty;       /* dirtied file pages, oldest first (filemap.c) */

	double resched_ns;              /* pending kernel time worth a yield (host_ops->resched) */
	/* a process about to issue an I/O it waits for first catches up
	 * with the clock (spends its pending kernel time, sleeps its pending
	 * I/O waits: resched and sleep) when its quantum has run more than
	 * this many seconds ahead of it (blockdev_io_wait); 0: never */
	double io_ahead_max;
	int lru_lock_holders;           /* the LRU lock as others see it (sched.c) */
	struct {                        /* not /proc/vmstat counters: the model's own */
		/* a buddy taken off a free list of one migratetype inside a
		 * pageblock of another: what 6.10's freelist hygiene warns of
		 * in __del_page_from_free_list() ("page type is %lu, passed
		 * migratetype is %d"); counted, nothing changed */
		unsigned long freelist_type_mismatch;
		unsigned long yields;               /* cond_resched() that spent time */
		unsigned long compact_contended;    /* compact_zone() ended COMPACT_CONTENDED (lock, isolated, signal) */
		unsigned long throttled_isolated;   /* reclaim_throttle(VMSCAN_THROTTLE_ISOLATED) sleeps */
		unsigned long io_catch_ups;         /* tasks that caught up with the clock before an I/O (blockdev_io_wait) */
	} sched_stats;

	/* debug_vm: check the whole state every N operations (0: never) */
	unsigned long debug_check_interval;
	unsigned long debug_ops;
};

static inline double pgdat_now(const struct pglist_data *pgdat)
{
	double (*clock)(const struct pglist_data *) = mm_host_op(pgdat, clock);

	return clock ? clock(pgdat) : 0.0;
}
static inline void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item i, long n)
{
	pgdat->vm_node_stat[i] += n;
}
static inline long node_page_state(const struct pglist_data *pgdat, enum node_stat_item i)
{
	return pgdat->vm_node_stat[i];
}

static inline struct page *pfn_to_page(const struct pglist_data *pgdat, unsigned long pfn)
{
	return &pgdat->mem_map[pfn];
}
static inline unsigned long page_to_pfn(const struct pglist_data *pgdat, const struct page *p)
{
	return (unsigned long)(p - pgdat->mem_map);
}
static inline struct zone *page_zone(struct pglist_data *pgdat, const struct page *p)
{
	return &pgdat->node_zones[page_zonenum(p)];
}

/* Pageblock flags: bits 0-2 migratetype, bit 3 PB_migrate_skip. */
#define PB_MIGRATETYPE_MASK 0x7u
#define PB_MIGRATE_SKIP     0x8u

static inline int get_pageblock_migratetype(const struct pglist_data *pgdat, unsigned long pfn)
{
	return pgdat->pageblock_flags[pfn >> pageblock_order] & PB_MIGRATETYPE_MASK;
}
static inline void set_pageblock_migratetype(struct pglist_data *pgdat, unsigned long pfn, int mt)
{
	uint8_t *f = &pgdat->pageblock_flags[pfn >> pageblock_order];

	if (pgdat->page_group_by_mobility_disabled && mt < MIGRATE_PCPTYPES)
		mt = MIGRATE_UNMOVABLE;
	*f = (uint8_t)((*f & ~PB_MIGRATETYPE_MASK) | (unsigned)mt);
}
static inline bool get_pageblock_skip(const struct pglist_data *pgdat, unsigned long pfn)
{
	return pgdat->pageblock_flags[pfn >> pageblock_order] & PB_MIGRATE_SKIP;
}
static inline void set_pageblock_skip(struct pglist_data *pgdat, unsigned long pfn, bool skip)
{
	uint8_t *f = &pgdat->pageblock_flags[pfn >> pageblock_order];
	*f = skip ? (uint8_t)(*f | PB_MIGRATE_SKIP) : (uint8_t)(*f & ~PB_MIGRATE_SKIP);
}
static inline unsigned long pageblock_start_pfn(unsigned long pfn) { return pfn & ~(unsigned long)(pageblock_nr_pages - 1); }
static inline unsigned long pageblock_end_pfn(unsigned long pfn)   { return pageblock_start_pfn(pfn) + pageblock_nr_pages; }

static inline bool is_migrate_highatomic(int mt) { return mt == MIGRATE_HIGHATOMIC; }
static inline bool is_migrate_isolate(int mt)    { return mt == MIGRATE_ISOLATE; }
/* migratetype_is_mergeable(): RFC 11/26 adds MIGRATE_FREE */
static inline bool migratetype_is_mergeable(int mt)
{
	return mt < MIGRATE_PCPTYPES || mt == MIGRATE_FREE;
}

extern const char *const migratetype_names[MIGRATE_TYPES];
extern const char *const zone_names[MAX_NR_ZONES];
extern const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS];
extern const char *const node_stat_names[NR_VM_NODE_STAT_ITEMS];
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];
/* the tracepoints' names: mm_vmscan_wakeup_kswapd, ... */
extern const char *const mm_trace_event_names[NR_MM_TRACE_EVENTS];

static inline void count_trace_event(struct pglist_data *pgdat, enum mm_trace_event ev, int order)
{
	if (order >= 0 && order < MAX_ORDER)
		pgdat->trace_events[ev][order]++;
}

#endif
