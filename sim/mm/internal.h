/* internal.h - what the files of sim/mm share and nothing else sees
 * (mm/internal.h): alloc flags, the allocation context, free-list and
 * pageblock primitives.
 */
#ifndef MMSIM_MM_INTERNAL_H
#define MMSIM_MM_INTERNAL_H

#include "mmsim/debug_vm.h"
#include "mmsim/mm.h"
#include "mmsim/policy.h"

/* alloc_flags, with v6.2's values (mm/internal.h) */
#define ALLOC_WMARK_MIN      WMARK_MIN
#define ALLOC_WMARK_LOW      WMARK_LOW
#define ALLOC_WMARK_HIGH     WMARK_HIGH
#define ALLOC_NO_WATERMARKS  0x04u
#define ALLOC_WMARK_MASK     (ALLOC_NO_WATERMARKS - 1)
#define ALLOC_OOM            0x08u
#define ALLOC_HARDER         0x10u
#define ALLOC_HIGH           0x20u   /* == __GFP_HIGH */
#define ALLOC_CPUSET         0x40u
#define ALLOC_CMA            0x80u
#define ALLOC_NOFRAGMENT     0x100u
#define ALLOC_KSWAPD         0x800u  /* == __GFP_KSWAPD_RECLAIM */
/* model-only: the policy's last-resort pass before OOM may fall back */
#define ALLOC_LAST_RESORT    0x10000u

_Static_assert(ALLOC_HIGH == __GFP_HIGH, "v6.2 relies on ALLOC_HIGH == __GFP_HIGH");
_Static_assert(ALLOC_KSWAPD == __GFP_KSWAPD_RECLAIM, "v6.2 relies on ALLOC_KSWAPD == __GFP_KSWAPD_RECLAIM");

struct alloc_context {
	enum zone_type highest_zoneidx;
	int migratetype;
};

static inline const struct mm_policy_ops *pol(const struct pglist_data *pgdat)
{
	return &pgdat->policy->ops;
}

/* v6.2's decisions where a policy may differ: the hooks' defaults
 * (mm_v6_2_ops, policy_v6_2.c), each beside the code that asks */
/* page_alloc.c */
const int *fallbacks(const struct mm_policy *, int start_mt, unsigned alloc_flags);
bool can_steal_fallback(const struct mm_policy *, unsigned order, int start_mt, int fallback_mt);
int  free_one_page_migratetype(const struct mm_policy *, unsigned order, int mt);
long zone_free_pages(const struct mm_policy *, const struct zone *, unsigned alloc_flags);
bool watermark_area_ok(const struct mm_policy *, const struct free_area *, unsigned alloc_flags);
unsigned requested_order(const struct mm_policy *, unsigned order);
int  __compaction_capture(const struct mm_policy *, const struct capture_control *, unsigned order, int mt);
/* mm_init.c */
unsigned long wmark_gap(const struct mm_policy *, const struct zone *, unsigned long gap);
int  memmap_init_migratetype(const struct mm_policy *);
bool no_policy_zones(const struct mm_policy *, struct virt_zone_param p[2]);
/* compaction.c */
long compaction_free_pages(const struct mm_policy *, const struct zone *);
bool suitable_migration_source(const struct mm_policy *, const struct compact_control *, int block_mt);
bool __suitable_migration_target(const struct mm_policy *, const struct compact_control *, int block_mt,
                                 unsigned buddy_order);
bool compact_finished(const struct mm_policy *, const struct compact_control *);
unsigned long compaction_wmark(const struct mm_policy *, const struct zone *, bool direct, unsigned alloc_flags);
/* vmscan.c */
bool wakeup_kswapd_wakes_kcompactd(const struct mm_policy *, gfp_t gfp);
/* filemap.c */
gfp_t bdev_mapping_gfp(const struct mm_policy *);

/* NR_FREE_PAGES_BLOCKS (6.15) and a watermark check against a given count */
long zone_free_pages_blocks(const struct zone *z);
bool zone_watermark_ok_free(const struct zone *z, unsigned order, unsigned long mark,
                            enum zone_type highest_zoneidx, unsigned alloc_flags, long free_pages);

/* the context of the allocator entry point running now (page_alloc.c);
 * an actor that blocks inside the model puts its own back on waking */
struct mm_ctx *mm_current(void);
void mm_set_current(struct mm_ctx *ctx);

/* ---- sched.c: the scheduler as reclaim and compaction meet it ---- */
/* at a v6.2 cond_resched() point: spend the pending kernel time if it is
 * worth an event (the others run meanwhile; re-validate after it) */
void cond_resched(struct pglist_data *pgdat, struct mm_ctx *ctx);
/* before a stall ends: spend the locked share with its locks held (the
 * caller spends the rest), and forget what the work held */
void cond_resched_end(struct pglist_data *pgdat, struct mm_ctx *ctx);
bool need_resched(struct pglist_data *pgdat, struct mm_ctx *ctx);
bool reclaim_throttle_isolated(struct pglist_data *pgdat, struct mm_ctx *ctx);
void wake_throttle_isolated(struct pglist_data *pgdat);
/* fatal_signal_pending(current): the OOM killer chose the task */
static inline bool fatal_signal_pending(const struct mm_ctx *ctx)
{
	return ctx && ctx->mm && ctx->mm->oom_victim;
}

/* The buddy tag: a byte per pfn, mem_map's PageBuddy, page_order and
 * page_zonenum of a free buddy's head, 0 for every other page.  It is
 * what page_is_buddy() reads: the buddy it asks about, and the one of the
 * next order up (buddy_merge_likely), are rarely in cache, and a byte per
 * pfn puts 64 pfns in a cache line where struct page puts 2 (512 KiB for
 * 2 GiB, which stays in L2).  __add_to_free_list and __del_page_from_free_list
 * (page_alloc.c), the only places PG_buddy changes, keep it; debug_vm checks it. */
static inline uint8_t buddy_tag(unsigned order, unsigned zonenum)
{
	return (uint8_t)(0x80u | zonenum << 4 | order);
}

/* TAO chapter one's policy zones (policies/README.md, "tao").  With no
 * policy zone (every kernel but TAO's: zone orders 0, zones empty) these
 * decide as v6.2 does. */

/* folio_nr_pages(): the pages of the folio whose head is p (a THP or a
 * large page-cache folio is one LRU entry of 2^order pages) */
static inline unsigned long folio_nr_pages(const struct page *p)
{
	return PageHead(p) ? 1ul << page_order(p) : 1;
}

/* zone_is_suitable(): may this zone serve a request of this order?  A
 * physical zone serves every order; ZONE_NOSPLIT only orders of at least
 * its order (no split below it), ZONE_NOMERGE only its order */
static inline bool zone_is_suitable(const struct zone *z, unsigned order)
{
	if (z->idx < ZONE_NOSPLIT)
		return true;
	if (!z->order)
		return false;
	return (z->idx == ZONE_NOSPLIT && order >= z->order) ||
	       (z->idx == ZONE_NOMERGE && order == z->order);
}

/* zone_can_frag(): may the zone hold pages of mixed orders (every zone
 * but the policy zones)?  Direct compaction, kcompactd's suitability test,
 * proactive compaction and compact_memory leave the policy zones out (the
 * fragmentation score counts them) */
static inline bool zone_can_frag(const struct zone *z)
{
	return z->idx < ZONE_NOSPLIT;
}

/* gfp_order_zone(): the highest zone a request may use.  __gfp_zone()
 * gives a GFP_HIGHUSER_MOVABLE request (ZONE_MOVABLE in v6.2's table)
 * the last policy zone; a request not of ZONE_NOMERGE's order stops
 * below it, one below ZONE_NOSPLIT's order below that.  So only large
 * movable user requests (THP faults) enter the policy zones, and the
 * zonelist walk falls back from them to ZONE_MOVABLE and the physical
 * zones; small requests never go up. */
static inline enum zone_type gfp_order_zone(const struct pglist_data *pgdat, gfp_t gfp, unsigned order)
{
	enum zone_type zid = (enum zone_type)gfp_zone(gfp);

	if (zid != ZONE_MOVABLE || !(pgdat->zone_nosplit_order | pgdat->zone_nomerge_order))
		return zid;
	zid = LAST_VIRT_ZONE;
	if (!pgdat->zone_nomerge_order || order != pgdat->zone_nomerge_order)
		zid = ZONE_NOMERGE - 1;
	if (zid == ZONE_NOSPLIT && (!pgdat->zone_nosplit_order || order < pgdat->zone_nosplit_order))
		zid = ZONE_NOSPLIT - 1;
	return zid;
}

/* The zone-indexed events (pgalloc_*, allocstall_*) have lines for the
 * v6.2 zones; the model counts a policy zone's in the movable line (a
 * TAO kernel has lines of their own: policies/README.md) */
static inline unsigned zone_event_idx(unsigned zid)
{
	return zid > ZONE_MOVABLE ? ZONE_MOVABLE : zid;
}

/* free-list primitives (page_alloc.c) */
void del_page_from_free_list(struct zone *zone, unsigned long pfn, unsigned order);
void move_to_free_list(struct zone *zone, unsigned long pfn, unsigned order, int mt);
int  move_freepages_block(struct zone *zone, unsigned long pfn, int mt, int *num_movable);
void change_pageblock_range(struct pglist_data *pgdat, unsigned long pfn, unsigned order, int mt);
void free_one_page(struct zone *zone, unsigned long pfn, unsigned order, int mt);
void free_boot_page(struct zone *zone, unsigned long pfn, unsigned order, int mt);

/* prefetch a struct page for writing (no effect on the model: the hot
 * per-page loops are bound by cache misses on mem_map, and prefetching a
 * few pages ahead overlaps them); PFN_NONE is ignored.
 *
 * On x86-64 an asm statement, not __builtin_prefetch: GCC 12 at -O2
 * deletes __builtin_prefetch here as dead code (tree-dce, after IPA
 * pure-const/modref analysis), so memory.c and page_alloc.c had no
 * prefetch instruction at all.  The asm only names the address; it reads
 * nothing the compiler must order against. */
static inline void prefetch_addr(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1);
#endif
}
static inline void prefetch_pfn(const struct pglist_data *pgdat, uint32_t pfn)
{
	if (pfn != PFN_NONE)
		prefetch_addr(&pgdat->mem_map[pfn]);
}

/* sentinel list helpers (mm_init.c lays the sentinels out) */
static inline bool list_empty_pfn(const struct pglist_data *pgdat, uint32_t head)
{
	return pgdat->mem_map[head].next == head;
}
static inline void list_add_pfn(struct pglist_data *pgdat, uint32_t pfn, uint32_t head, bool tail)
{
	struct page *m = pgdat->mem_map;
	uint32_t prev = tail ? m[head].prev : head;
	uint32_t next = m[prev].next;
	m[pfn].prev = prev;
	m[pfn].next = next;
	m[prev].next = pfn;
	m[next].prev = pfn;
}
static inline void list_del_pfn(struct pglist_data *pgdat, uint32_t pfn)
{
	struct page *m = pgdat->mem_map;
	m[m[pfn].prev].next = m[pfn].next;
	m[m[pfn].next].prev = m[pfn].prev;
	m[pfn].next = m[pfn].prev = PFN_NONE;
}

/* per-cpu list rings (struct pcp_list and pcp_list_at(), mmzone.h) */
void pcp_list_grow(struct pcp_list *l);         /* doubles the ring (page_alloc.c) */
static inline void pcp_list_add(struct pcp_list *l, uint32_t pfn, bool tail)
{
	if (l->len > l->mask)
		pcp_list_grow(l);
	if (tail) {
		l->pfns[(l->first + l->len) & l->mask] = pfn;
	} else {
		l->first--;
		l->pfns[l->first & l->mask] = pfn;
	}
	l->len++;
}
static inline uint32_t pcp_list_pop_first(struct pcp_list *l)
{
	uint32_t pfn = l->pfns[l->first & l->mask];
	l->first++;
	l->len--;
	return pfn;
}
static inline uint32_t pcp_list_pop_last(struct pcp_list *l)
{
	l->len--;
	return l->pfns[(l->first + l->len) & l->mask];
}

/* the reserves and boosting of v6.2, used by the vanilla policy's table */
void reserve_highatomic_pageblock(struct zone *zone, unsigned long pfn, unsigned order);
bool unreserve_highatomic_pageblock(struct pglist_data *pgdat, int migratetype,
                                    enum zone_type highest_zoneidx, bool force);
bool boost_watermark(struct zone *zone);


/* set_pte_at(): every write of a pte goes through here, which keeps the
 * pmd's count of present ptes (mm->pmd_present) and the pte's present bit
 * (mm->present); the invariant checker recounts both.  A caller that
 * holds the old entry already (zap_range) passes it in: its second read,
 * after the calls that freed the page, is not needed */
static inline void set_pte_old(struct mm_struct *mm, unsigned long v, uint32_t old, uint32_t e)
{
	bool was = entry_present(old), now = entry_present(e);

	mm->pmd_present[v / PTRS_PER_PTE] += (uint16_t)((int)now - (int)was);
	mm->present[v / 64] ^= (uint64_t)(was ^ now) << (v % 64);
	mm->pte[v] = e;
}
static inline void set_pte(struct mm_struct *mm, unsigned long v, uint32_t e)
{
	set_pte_old(mm, v, mm->pte[v], e);
}

/* ---- the ptes' accessed bits (memory.c) ----
 *
 * PG_young is "the accessed bit of the pte mapping it".  mm_access() sets
 * it for every present page it touches (about 2 G times in a 16-job kernel
 * build), and doing that on the struct page costs a cache miss per touch.
 * So the bit is kept where the hardware keeps it, in the page table: one
 * bit per virtual page in mm->young, set by a sequential pass over the
 * ptes.  A page's PG_young is then the OR of its own flag and the bits of
 * the ptes that map it; the few readers (reclaim's folio_referenced, the
 * split of a THP) call mm_page_fold_young() first, which moves the pte
 * bits into PG_young and clears them.  Results are the same as setting
 * PG_young on every touch.  Invariant: a bit is set only for a present
 * pte (they are cleared where a pte stops being present). */
static inline bool mm_young_test_clear(struct mm_struct *mm, unsigned long v, unsigned long n)
{
	bool any = false;

	if (n == 1) {
		uint64_t bit = 1ull << (v % 64);
		any = mm->young[v / 64] & bit;
		mm->young[v / 64] &= ~bit;
		return any;
	}
	for (unsigned long i = v; i < v + n; i++) {     /* n: a THP, 64-aligned */
		any |= mm->young[i / 64] != 0;
		mm->young[i / 64] = 0;
		i += 63;
	}
	return any;
}
static inline void mm_page_fold_young(struct pglist_data *pgdat, struct page *p)
{
	struct mm_struct *mm;

	if (p->owner != PGOWN_ANON || !p->mapcount || p->mapping >= pgdat->nr_mms ||
	    !(mm = pgdat->mms[p->mapping]))
		return;
	if (mm_young_test_clear(mm, p->index, PageHead(p) ? 1ul << page_order(p) : 1))
		SetPageFlag(p, PG_young);
}

/* ---- LRU lists (swap.c) ---- */
static inline enum lru_list page_lru_base(const struct page *p)
{
	return PageTest(p, PG_swapbacked) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
}
static inline enum lru_list page_lru(const struct page *p)
{
	if (PageTest(p, PG_unevictable))
		return LRU_UNEVICTABLE;
	return page_lru_base(p) + (PageTest(p, PG_active) ? 1 : 0);
}
/* adding and removing pages with their counters: inline, as the fault,
 * exit and reclaim loops call them for every page */
static inline void update_lru_size(struct pglist_data *pgdat, unsigned long pfn, enum lru_list lru, long n)
{
	struct zone *zone = page_zone(pgdat, &pgdat->mem_map[pfn]);
	pgdat->vm_node_stat[NR_INACTIVE_ANON + lru] += n;
	zone->vm_stat[NR_ZONE_INACTIVE_ANON + lru] += n;
}
static inline void lruvec_add_page(struct pglist_data *pgdat, unsigned long pfn, bool tail)
{
	struct page *p = &pgdat->mem_map[pfn];
	enum lru_list lru = page_lru(p);

	VM_BUG_ON(PageLRU(p));
	SetPageFlag(p, PG_lru);
	list_add_pfn(pgdat, (uint32_t)pfn, pgdat->lruvec.lists[lru], tail);
	update_lru_size(pgdat, pfn, lru, 1l << page_order(p));
}
static inline void lruvec_del_page(struct pglist_data *pgdat, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];

	VM_BUG_ON(!PageLRU(p));
	list_del_pfn(pgdat, (uint32_t)pfn);
	ClearPageFlag(p, PG_lru);
	update_lru_size(pgdat, pfn, page_lru(p), -(1l << page_order(p)));
}
void folio_mark_accessed(struct pglist_data *pgdat, unsigned long pfn);
void activate_page(struct pglist_data *pgdat, unsigned long pfn);
void lru_note_cost(struct pglist_data *pgdat, bool file, unsigned long nr_io, unsigned long nr_rotated);
void lru_note_cost_refault(struct pglist_data *pgdat, bool file, unsigned long nr_pages);
unsigned long lruvec_lru_size(const struct pglist_data *pgdat, enum lru_list lru);

/* ---- workingset.c ---- */
/* the shadow entry of a folio of nr_pages evicted now */
uint32_t workingset_eviction(struct pglist_data *pgdat, unsigned long pfn, unsigned long nr_pages);
/* a refault of a folio of nr_pages evicted with this shadow: counts (in
 * pages), and returns true if the folio is to start on the active list */
bool workingset_refault(struct pglist_data *pgdat, struct page *page, uint32_t shadow, bool file,
                        unsigned long nr_pages);
void workingset_activation(struct pglist_data *pgdat, unsigned long nr_pages);
void workingset_age_nonresident(struct pglist_data *pgdat, unsigned long nr_pages);

/* ---- swapfile.c ---- */
uint32_t get_swap_page(struct pglist_data *pgdat);   /* UINT32_MAX: none */
/* the write of a swapped-out page was queued: it stays in memory under
 * writeback until its completion time */
void swap_writeback_start(struct pglist_data *pgdat, unsigned long pfn, uint32_t slot, double done);
/* end_page_writeback for every write completed by now (all if force): a
 * written page goes back to the tail of the inactive anon list, a clean
 * swap cache page that reclaim frees; one whose slot was freed meanwhile
 * (its process exited) is freed at once.  Returns the pages freed. */
unsigned long swap_writeback_complete(struct pglist_data *pgdat, bool force);
/* the same for the writes completed by virtual time t: a reclaimer's pass
 * runs at one instant but lasts its kernel time, and the writes it queued
 * early in the pass complete (end_page_writeback) while it goes on */
unsigned long swap_writeback_complete_by(struct pglist_data *pgdat, double t, bool force);
/* __delete_from_swap_cache for an unmapped swap cache page reclaim frees */
void swap_cache_delete(struct pglist_data *pgdat, unsigned long pfn);
/* seconds until nr more writes have completed (-1: none in flight) */
double swap_writeback_wait(const struct pglist_data *pgdat, unsigned long nr);
/* the page of a slot still in memory (a swap cache hit) or PFN_NONE */
unsigned long swap_cache_take(struct pglist_data *pgdat, uint32_t slot);
void swap_free(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t slot);
void swap_set_shadow(struct pglist_data *pgdat, uint32_t slot, uint32_t shadow);
uint32_t swap_get_shadow(const struct pglist_data *pgdat, uint32_t slot);
static inline unsigned long get_nr_swap_pages(const struct pglist_data *pgdat)
{
	return pgdat->swap.nr_free_slots;
}
/* queue I/O on a device; returns the seconds until it completes */
double blockdev_io(struct pglist_data *pgdat, struct blockdev *dev, unsigned long pages, bool write,
                   double issue_delay);
/* the virtual time a task's request is issued at: now plus what the task
 * has run up in this quantum and not yet spent on the clock */
static inline double ctx_delay(const struct mm_ctx *ctx)
{
	return (ctx->kernel_ns - ctx->kernel_done_ns + ctx->io_wait_ns - ctx->io_done_ns) * 1e-9;
}
/* a request the task waits for (a read, a synced write), issued at its
 * virtual time (ctx_delay), its wait added to ctx->io_wait_ns; a process
 * whose quantum ran more than pgdat->io_ahead_max ahead of the clock
 * catches up with it first (so other actors may run: an OOM kill
 * meanwhile shows in mm->oom_victim) */
void blockdev_io_wait(struct pglist_data *pgdat, struct mm_ctx *ctx, struct blockdev *dev,
                      unsigned long pages, bool write);

/* ---- i915_gem.c: shmem pages of GPU buffer objects ---- */
/* is this PGOWN_SHMEM page the one its object's file holds? */
bool shmem_page_cached(const struct pglist_data *pgdat, unsigned long pfn);
/* pageout() of an isolated, evictable shmem page: shmem_writepage()
 * moves it to the swap cache and queues its write; false without swap */
bool shmem_writepage(struct pglist_data *pgdat, unsigned long pfn);
/* migrate_page(): the file's entry follows the page to dst */
void shmem_migrate_page(struct pglist_data *pgdat, unsigned long src, unsigned long dst);

/* ---- rmap.c: file pages mapped into processes ---- */
void i_mmap_insert(struct address_space *as, const struct file_vma *vma);
void i_mmap_remove(struct address_space *as, uint32_t mm, unsigned long start);
void page_add_file_rmap(struct pglist_data *pgdat, struct page *p);
void page_remove_file_rmap(struct pglist_data *pgdat, struct page *p);
/* folio_referenced(): the number of mappings whose accessed bit was set
 * (cleared now), and in *vm_flags the flags of those areas; the walk's
 * time goes to ctx */
int folio_referenced(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *p, unsigned *vm_flags);
/* try_to_unmap() of a mapped file page: every pte mapping it is cleared;
 * returns how many */
unsigned try_to_unmap(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long pfn);
/* migration moved mapped file page src to dst: its ptes follow */
void remove_migration_ptes_file(struct pglist_data *pgdat, unsigned long src, unsigned long dst);
/* the ptes that map file page pfn, counted by a walk (the invariant checker) */
unsigned long page_mapcount_walk(const struct pglist_data *pgdat, unsigned long pfn);

/* vmscan.c: one shrink_active_list() call, as direct reclaim makes it (tests) */
void shrink_active_list_direct(struct pglist_data *pgdat, struct mm_ctx *ctx, enum lru_list lru,
                               unsigned long nr_to_scan);

/* ---- memory.c, filemap.c: unmapping for reclaim ---- */
/* reclaim an anon page: swap it out, the write issued issue_delay seconds
 * from now (the reclaimer's place in its pass); false if it cannot be (no
 * swap) */
bool try_to_swap_out(struct pglist_data *pgdat, unsigned long pfn, double issue_delay);
/* drop a clean file folio (its head pfn) from its page cache, leaving a
 * shadow entry in each of its slots if reclaimed */
void remove_mapping(struct pglist_data *pgdat, unsigned long pfn, bool reclaimed);
/* free a page-cache folio (order 0 or a large folio's head) that left its file */
void filemap_free_folio(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *p);
/* split the large folios over file pages [index, index + nr) into order-0
 * pages (the model maps and dirties no large file folio) */
void filemap_split_folios(struct pglist_data *pgdat, struct address_space *as, unsigned long index,
                          unsigned long nr);
void file_page_written(struct pglist_data *pgdat, unsigned long pfn);
/* filemap_fault()'s read of a missing page: the mmap read-around window
 * around index goes into the page cache, one read; 0, or -1 when the page
 * at index could not be had */
int filemap_fault_read(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                       unsigned long index);
void mm_teardown(struct pglist_data *pgdat);
/* huge_memory.c's part in memory.c: split a THP into order-0 pages */
#define HPAGE_PMD_ORDER pageblock_order

/* gfp_migratetype() as v6.2 has it: MIGRATE_UNMOVABLE for every request
 * when grouping by mobility is off (page_group_by_mobility_disabled) */
static inline int pgdat_gfp_migratetype(const struct pglist_data *pgdat, gfp_t gfp)
{
	return pgdat->page_group_by_mobility_disabled ? MIGRATE_UNMOVABLE : gfp_migratetype(gfp);
}
void split_huge_page(struct pglist_data *pgdat, unsigned long head);
gfp_t vma_thp_gfp_mask(const struct pglist_data *pgdat, bool madvised);
/* vma_alloc_folio(): with CONFIG_NUMA a huge page is tried on the local
 * node alone first (__GFP_THISNODE | __GFP_NORETRY), then with gfp */
struct page *vma_alloc_folio(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp, unsigned order,
                             bool hugepage);
/* the OOM reaper: free a victim's anon memory and swap */
void oom_reap_mm(struct pglist_data *pgdat, struct mm_struct *mm);

/* ---- compaction.c, migrate.c ---- */
enum compact_result { COMPACT_NOT_SUITABLE_ZONE, COMPACT_SKIPPED, COMPACT_DEFERRED,
                      COMPACT_NO_SUITABLE_PAGE, COMPACT_CONTINUE, COMPACT_COMPLETE,
                      COMPACT_PARTIAL_SKIPPED, COMPACT_CONTENDED, COMPACT_SUCCESS };
enum compact_priority { COMPACT_PRIO_SYNC_FULL, MIN_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_FULL,
                        COMPACT_PRIO_SYNC_LIGHT, MIN_COMPACT_COSTLY_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
                        DEF_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
                        COMPACT_PRIO_ASYNC, INIT_COMPACT_PRIORITY = COMPACT_PRIO_ASYNC };
enum migrate_mode { MIGRATE_ASYNC, MIGRATE_SYNC_LIGHT, MIGRATE_SYNC };
#define SWAP_CLUSTER_MAX      32ul      /* reclaim batch (mm/vmscan.c), lru_note_cost()'s IO weight */
#define COMPACT_CLUSTER_MAX   32u       /* SWAP_CLUSTER_MAX */
#define MAX_COMPACT_RETRIES   16
#define COMPACTION_HPAGE_ORDER pageblock_order

static inline unsigned long compact_gap(unsigned order) { return 2ul << order; }

/* struct compact_control: one compact_zone() run */
struct compact_control {
	struct zone *zone;
	struct mm_ctx *ctx;             /* whose time it is */
	int order;                      /* -1: is_via_compact_memory (proactive) */
	int migratetype;                /* of the request (gfp_migratetype) */
	gfp_t gfp_mask;
	unsigned alloc_flags;
	enum zone_type highest_zoneidx;
	enum migrate_mode mode;
	bool direct_compaction;
	bool whole_zone, ignore_skip_hint, ignore_block_suitable, no_set_skip_hint;
	bool proactive_compaction;
	bool finish_pageblock;
	bool contended;
	int search_order;               /* fast_isolate_freepages(): where to look first */
	unsigned fast_search_fail;      /* its failures in a row: shorter searches */
	unsigned long fast_start_pfn;   /* fast_find_migrateblock(): the lowest free page it
	                                 * found, where a linear scan restarts; ULONG_MAX once used */
	unsigned long migrate_pfn, free_pfn;
	unsigned long total_migrate_scanned, total_free_scanned;
	/* the isolated pages: sources to migrate, free targets (order 0) */
	uint32_t migratepages[pageblock_nr_pages];  /* COMPACT_CLUSTER_MAX, or a
	                                             * whole block when finishing one */
	unsigned nr_migratepages;       /* entries of migratepages[] (a folio's head) */
	unsigned nr_migrate_pages;      /* their pages, what the kernel's nr_migratepages
	                                 * counts (equal to the entries but under
	                                 * MMF_COMPACT_LARGE_FOLIOS, where a folio is
	                                 * 2^order and compaction_alloc() takes off what
	                                 * it allocates for, as 6.12 does) */
	uint32_t *freepages;            /* a stack of isolated free pages (v6.2: order 0) */
	unsigned nr_freepages, cap_freepages;   /* MMF_COMPACT_LARGE_FOLIOS: nr_freepages
	                                         * counts the pages of freepages_order[] */
	/* MMF_COMPACT_LARGE_FOLIOS (6.9): the isolated free pages kept whole,
	 * a stack per order (the kernel's cc->freepages[order] lists) */
	uint32_t *freepages_order[MAX_ORDER];
	unsigned nr_freepages_order[MAX_ORDER], cap_freepages_order[MAX_ORDER];
};

/* struct capture_control: a page freed during direct compaction that
 * satisfies the request goes straight to the compacting task (set up by
 * the page allocator, as RFC 07/26 moves it) */
struct capture_control {
	struct zone *zone;              /* set while compact_zone runs (capc->cc) */
	unsigned order;                 /* the request's order */
	int compact_order;              /* the order compaction works toward */
	int migratetype;                /* the request's */
	unsigned long page;             /* the captured pfn, or PFN_NONE */
};

static inline bool is_via_compact_memory(int order) { return order == -1; }

/* compaction_suitable() of v6.2: SUCCESS when the request would succeed,
 * SKIPPED without the order-0 pages migration targets need, NOT_SUITABLE
 * when the fragmentation index says failure is for lack of memory */
enum compact_result compaction_suitable(struct zone *zone, int order, unsigned alloc_flags,
                                        enum zone_type highest_zoneidx);
/* the migration-target half of it (RFC 17/26's compaction_suitable()) */
enum compact_result compaction_suitable_targets(struct zone *zone, int order, enum zone_type highest_zoneidx,
                                                unsigned long mark);
/* try_to_compact_pages(): direct compaction over the zonelist */
enum compact_result try_to_compact_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp,
                                         unsigned order, unsigned alloc_flags,
                                         const struct alloc_context *ac, enum compact_priority prio,
                                         struct capture_control *capc);
/* compaction_zonelist_suitable(): would reclaim make compaction possible? */
bool compaction_zonelist_suitable(struct pglist_data *pgdat, const struct alloc_context *ac,
                                  int order, unsigned alloc_flags);
void defer_compaction(struct zone *zone, int order);
bool compaction_deferred(struct zone *zone, int order);
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success);
void reset_cached_positions(struct zone *zone);
/* __isolate_free_page(): take a free page off the lists for compaction;
 * returns the pages taken (0: the watermark forbids it) */
unsigned long __isolate_free_page(struct zone *zone, unsigned long pfn, unsigned order);
/* find_suitable_fallback() for compaction's finish check (page_alloc.c) */
int compact_find_suitable_fallback(const struct pglist_data *pgdat, const struct free_area *area,
                                   unsigned order, int migratetype);
/* compaction_capture() in __free_one_page */
struct capture_control *task_capc(const struct zone *zone);

/* migrate.c: move an isolated page's contents and every reference to it
 * (page table, page cache, swap cache, LRU) to the free page dst;
 * the source is left with refcount 1 for the caller to free */
void migrate_page(struct pglist_data *pgdat, unsigned long src, unsigned long dst);
/* the same for an isolated large page-cache folio (head src, order > 0)
 * to the free page dst of its order (6.9's compaction,
 * MMF_COMPACT_LARGE_FOLIOS): every page's slot, the tails, the head on
 * the LRU; the old head is left a compound page of its order with
 * refcount 1, for the caller to free with that order */
void migrate_folio(struct pglist_data *pgdat, unsigned long src, unsigned long dst);
/* filemap.c: split an isolated large page-cache folio (head pfn) into
 * order-0 pages that stay isolated (compaction's split on -ENOMEM) */
void filemap_split_isolated_folio(struct pglist_data *pgdat, unsigned long head);
/* isolate_migratepages_block's test: can this LRU page be migrated now? */
bool page_migratable(const struct pglist_data *pgdat, const struct page *p, gfp_t gfp);

#endif
