/* page_alloc.c - the buddy allocator of Linux v6.2 (mm/page_alloc.c).
 *
 * Control flow, names and decisions follow v6.2.  Where the RFC changes a
 * decision the core asks the node's policy (policy.h); MIGRATE_FREE blocks
 * (RFC 11/26) are handled here wherever they appear, and appear only when
 * the policy creates them.  Free pages are counted where they enter and
 * leave the free lists, per migratetype, for every policy (RFC 06/26 and
 * 12/26, which change no behaviour).
 *
 * Kernel time: every operation adds its cost to the calling context
 * (cur_ctx, set for the duration of an entry point: the model runs on one
 * thread, SimGrid's maestro); see struct mm_costs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* the context of the entry point running now: the model's `current` */
static struct mm_ctx *cur_ctx;

struct mm_ctx *mm_current(void)
{
	return cur_ctx;
}

void mm_set_current(struct mm_ctx *ctx)
{
	cur_ctx = ctx;
}

/* an allocating process stalls: direct reclaim or direct compaction has
 * run; the time it took passes for the others before the process looks
 * at the free lists again (the host's stall) */
static void alloc_stall(struct pglist_data *pgdat)
{
	struct mm_ctx *cur = cur_ctx;

	if (!cur)
		return;
	cond_resched_end(pgdat, cur);   /* the locked share, with its locks held */
	if (!mm_host_op(pgdat, stall) || !cur->stalls || cur->kernel_ns <= cur->kernel_done_ns)
		return;
	pgdat->host_ops->stall(pgdat, cur);
	mm_set_current(cur);            /* a simcall: others ran */
}

static inline void charge(double ns)
{
	if (cur_ctx)
		cur_ctx->kernel_ns += ns;
}

/* ------------------------------------------------------------------ */
/* free lists: accounting where pages enter and leave them (RFC 06/26) */

static inline void account_freepages(struct zone *zone, long nr_pages, int mt)
{
	if (is_migrate_isolate(mt))
		return;
	zone->vm_stat[NR_FREE_PAGES] += nr_pages;
	zone->vm_stat[NR_FREE_UNMOVABLE + mt] += nr_pages;
}

/* the free-list primitives are inline here (the allocator's loops call
 * them for every page); del_page_from_free_list is exported for
 * compaction and the policies */
static inline void __add_to_free_list(struct zone *zone, unsigned long pfn, unsigned order, int mt,
                                      bool tail)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct page *page = &pgdat->mem_map[pfn];

	VM_BUG_ON(PageBuddy(page) || PagePcp(page) || PageReserved(page));
	VM_BUG_ON(pfn & ((1ul << order) - 1));
	SetPageFlag(page, PG_buddy);
	set_page_order(page, order);
	pgdat->buddy_tag[pfn] = buddy_tag(order, zone->idx);
	page->private = (uint32_t)mt;
	list_add_pfn(pgdat, (uint32_t)pfn, zone->free_area[order].free_list[mt], tail);
	zone->free_area[order].nr_free++;
	account_freepages(zone, 1l << order, mt);
}

static inline void __del_page_from_free_list(struct zone *zone, unsigned long pfn, unsigned order)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct page *page = &pgdat->mem_map[pfn];

	VM_BUG_ON(!PageBuddy(page) || page_order(page) != order);
	if ((int)page->private != get_pageblock_migratetype(pgdat, pfn))
		pgdat->sched_stats.freelist_type_mismatch++;
	list_del_pfn(pgdat, (uint32_t)pfn);
	ClearPageFlag(page, PG_buddy);
	pgdat->buddy_tag[pfn] = 0;
	account_freepages(zone, -(1l << order), (int)page->private);
	page->private = 0;
	zone->free_area[order].nr_free--;
}

void del_page_from_free_list(struct zone *zone, unsigned long pfn, unsigned order)
{
	__del_page_from_free_list(zone, pfn, order);
}

/* v6.2 moves to the tail of the new list (list_move_tail) */
void move_to_free_list(struct zone *zone, unsigned long pfn, unsigned order, int mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct page *page = &pgdat->mem_map[pfn];

	VM_BUG_ON(!PageBuddy(page) || page_order(page) != order);
	list_del_pfn(pgdat, (uint32_t)pfn);
	account_freepages(zone, -(1l << order), (int)page->private);
	page->private = (uint32_t)mt;
	list_add_pfn(pgdat, (uint32_t)pfn, zone->free_area[order].free_list[mt], true);
	account_freepages(zone, 1l << order, mt);
}

static inline unsigned long first_free_pfn(const struct zone *zone, unsigned order, int mt)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;
	uint32_t head = zone->free_area[order].free_list[mt];
	uint32_t first = pgdat->mem_map[head].next;
	return first == head ? PFN_NONE : first;
}

void change_pageblock_range(struct pglist_data *pgdat, unsigned long pfn, unsigned order, int mt)
{
	unsigned long nr = order >= pageblock_order ? 1ul << (order - pageblock_order) : 1;
	for (; nr; nr--, pfn += pageblock_nr_pages)
		set_pageblock_migratetype(pgdat, pfn, mt);
}

/* ------------------------------------------------------------------ */
/* freeing into the buddy lists */

/* PageBuddy(buddy) && page_order(buddy) == order && page_zonenum(buddy)
 * == zone->idx, from the buddy tag (internal.h) */
static inline bool page_is_buddy(const struct zone *zone, unsigned long buddy_pfn, unsigned order)
{
	if (!zone_spans_pfn(zone, buddy_pfn))
		return false;
	return zone->zone_pgdat->buddy_tag[buddy_pfn] == buddy_tag(order, zone->idx);
}

/* buddy_merge_likely(): if the buddy of the next order up is free, put this
 * page at the tail, so that it is less likely to be allocated before its
 * buddy is freed and the two merge. */
static inline bool buddy_merge_likely(const struct zone *zone, unsigned long pfn,
                                      unsigned long buddy_pfn, unsigned order)
{
	unsigned long higher;

	/* no merge at the zone's last order (MAX_ORDER - 2 but in TAO's
	 * ZONE_NOMERGE, zone_max_order()) */
	if (order + 1 >= zone->max_order)
		return false;
	higher = buddy_pfn & pfn;
	return page_is_buddy(zone, higher ^ (1ul << (order + 1)), order + 1);
}

#define FPI_NONE    0u
#define FPI_TO_TAIL 1u

static inline void expand(struct zone *zone, unsigned long pfn, unsigned low, unsigned high, int mt);

/* task_capc(): the capture control of the task freeing into this zone,
 * while its direct compaction runs there and has captured nothing yet */
struct capture_control *task_capc(const struct zone *zone)
{
	struct capture_control *capc = cur_ctx ? cur_ctx->capture_control : NULL;

	if (!capc || (cur_ctx->flags & PF_KTHREAD) || capc->page != PFN_NONE || capc->zone != zone)
		return NULL;
	return capc;
}

/* v6.2's compaction_capture() test: a page of exactly the order compaction
 * works for, never a piece of a movable block smaller than the block */
int __compaction_capture(const struct mm_policy *p, const struct capture_control *capc, unsigned order, int mt)
{
	(void)p;
	if ((int)order != capc->compact_order)
		return -1;
	/* do not let lower order allocations pollute a movable pageblock */
	if (order < pageblock_order && mt == MIGRATE_MOVABLE)
		return -1;
	return mt;
}

/* v6.2's done_merging: a merged buddy keeps the type it was freed as */
int free_one_page_migratetype(const struct mm_policy *p, unsigned order, int mt)
{
	(void)p, (void)order;
	return mt;
}

/* compaction_capture(): hand a freed page of the order compaction works
 * for to the task (the policy says which pages qualify); a larger page is
 * split down to the request (RFC 22/26) */
static bool compaction_capture(struct zone *zone, struct capture_control *capc, unsigned long pfn,
                               unsigned order, int mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int new_mt;

	if (is_migrate_isolate(mt) || mt == MIGRATE_HIGHATOMIC)
		return false;
	new_mt = pol(pgdat)->compaction_capture(pgdat->policy, capc, order, mt);
	if (new_mt < 0)
		return false;
	if (order >= pageblock_order && new_mt != mt)
		change_pageblock_range(pgdat, pfn, order, new_mt);
	if (order > capc->order)
		expand(zone, pfn, capc->order, order, new_mt);
	capc->page = pfn;
	return true;
}

/* always inline: free_pcppages_bulk calls it for every page it frees */
static inline __attribute__((always_inline))
void __free_one_page(struct zone *zone, unsigned long pfn, unsigned order, int mt, unsigned fpi_flags)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	const struct mm_policy_ops *ops = pol(pgdat);
	unsigned long buddy_pfn = pfn ^ (1ul << order);
	int new_mt;
	bool to_tail;

	struct capture_control *capc = task_capc(zone);

	charge(pgdat->costs.buddy_ns);
	/* zone_max_order(): TAO's ZONE_NOMERGE merges no buddy above its
	 * order; every other zone up to MAX_ORDER - 1 */
	while (order < zone->max_order) {
		if (capc && compaction_capture(zone, capc, pfn, order, mt))
			return;
		buddy_pfn = pfn ^ (1ul << order);
		if (!page_is_buddy(zone, buddy_pfn, order))
			break;
		if (order >= pageblock_order) {
			/* do not merge a block without fallbacks (highatomic,
			 * isolate) with a normal one */
			int buddy_mt = get_pageblock_migratetype(pgdat, buddy_pfn);
			if (mt != buddy_mt &&
			    (!migratetype_is_mergeable(mt) || !migratetype_is_mergeable(buddy_mt)))
				break;
			/* 6.10 ("fix up block types when merging compatible
			 * blocks"): the buddy's blocks take the freed page's
			 * type, so that a later expand() puts the pieces on
			 * the lists of their blocks' type.  v6.2 leaves them
			 * as they were: the merged page goes to mt's list
			 * with blocks of another type inside */
			if (buddy_mt != mt && mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE))
				change_pageblock_range(pgdat, buddy_pfn, order, mt);
		}
		__del_page_from_free_list(zone, buddy_pfn, order);
		pfn &= buddy_pfn;
		order++;
		charge(pgdat->costs.buddy_per_order_ns);
	}
	/* done_merging: RFC 11/26 returns wholly free blocks to MIGRATE_FREE */
	new_mt = ops->free_one_page_migratetype(pgdat->policy, order, mt);
	if (new_mt != mt) {
		change_pageblock_range(pgdat, pfn, order, new_mt);
		mt = new_mt;
	}
	to_tail = (fpi_flags & FPI_TO_TAIL) || buddy_merge_likely(zone, pfn, buddy_pfn, order);
	__add_to_free_list(zone, pfn, order, mt, to_tail);
}

void free_one_page(struct zone *zone, unsigned long pfn, unsigned order, int mt)
{
	__free_one_page(zone, pfn, order, mt, FPI_NONE);
}

/* split_large_buddy() (6.10's free path, MMF_FREELIST_HYGIENE): a page
 * of more than one pageblock is freed block by block, each as its own
 * block's type; blocks of mergeable types merge again in
 * __free_one_page(), which gives them one type.  v6.2 frees the whole
 * page as its first block's type, whatever the others are. */
static void split_large_buddy(struct zone *zone, unsigned long pfn, unsigned order)
{
	unsigned long end = pfn + (1ul << order);

	if (order > pageblock_order)
		order = pageblock_order;
	for (; pfn < end; pfn += 1ul << order)
		__free_one_page(zone, pfn, order, get_pageblock_migratetype(zone->zone_pgdat, pfn), FPI_NONE);
}

/* __free_pages_core(): boot memory goes to the tail of the free lists
 * (FPI_TO_TAIL, since v5.10), so that allocations start at low pfns */
void free_boot_page(struct zone *zone, unsigned long pfn, unsigned order, int mt)
{
	__free_one_page(zone, pfn, order, mt, FPI_TO_TAIL);
}

/* ------------------------------------------------------------------ */
/* per-cpu lists */

static inline bool pcp_allowed_order(unsigned order)
{
	/* CONFIG_TRANSPARENT_HUGEPAGE: pageblock-order pages have a list too */
	return order <= PAGE_ALLOC_COSTLY_ORDER || order == pageblock_order;
}

static inline unsigned order_to_pindex(int mt, unsigned order)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return NR_LOWORDER_PCP_LISTS;       /* one THP list for every type */
	return MIGRATE_PCPTYPES * order + (unsigned)mt;
}

static inline unsigned pindex_to_order(unsigned pindex)
{
	return pindex == NR_LOWORDER_PCP_LISTS ? pageblock_order : pindex / MIGRATE_PCPTYPES;
}

/* pcp_list_grow(): a full ring doubles (amortised O(1) per add; a list
 * holds at most about pcp->high + pcp->batch pages, so this is rare) */
void pcp_list_grow(struct pcp_list *l)
{
	uint32_t cap = l->mask + 1, *pfns = malloc(2 * (size_t)cap * sizeof(uint32_t));

	if (!pfns) {
		fprintf(stderr, "mmsim: out of memory for a per-cpu list\n");
		abort();
	}
	for (uint32_t i = 0; i < l->len; i++)
		pfns[i] = pcp_list_at(l, i);
	free(l->pfns);
	l->pfns = pfns;
	l->first = 0;
	l->mask = 2 * cap - 1;
}

/* how far ahead free_pcppages_bulk prefetches: the struct page of the
 * page it will free PCP_PREFETCH pages later, that page's buddy (tag and
 * struct page: __free_one_page reads the tag, and unlinks the buddy if it
 * is free), as the kernel's prefetch_buddy() does */
#define PCP_PREFETCH 12
static void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp, int pindex)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	/* 6.10 ("remove pcppage migratetype caching"): a page goes back as
	 * its block's type now; v6.2 as the type cached when it went onto
	 * the pcp list, which is stale once the block changed type */
	bool block_type = mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE);
	int min_pindex = 0, max_pindex = NR_PCP_LISTS - 1;

	if (count > pcp->count)
		count = pcp->count;
	pindex = pindex - 1;            /* drain the requested list first */
	while (count > 0) {
		struct pcp_list *l;
		unsigned order;

		/* round-robin over the lists */
		for (;;) {
			if (++pindex > max_pindex)
				pindex = min_pindex;
			l = &pcp->lists[pindex];
			if (l->len)
				break;
			if (pindex == max_pindex)
				max_pindex--;
			if (pindex == min_pindex)
				min_pindex++;
		}
		order = pindex_to_order((unsigned)pindex);
		do {
			uint32_t pfn = pcp_list_pop_last(l);            /* list_last_entry */
			struct page *page = &pgdat->mem_map[pfn];
			int mt = block_type ? get_pageblock_migratetype(pgdat, pfn)
			                    : (int)page->private;        /* get_pcppage_migratetype */

			/* the pages go from the tail: the one PCP_PREFETCH
			 * later is at len - 1 - PCP_PREFETCH now (the list is
			 * not changed by __free_one_page) */
			if (l->len > PCP_PREFETCH) {
				uint32_t ahead = pcp_list_at(l, l->len - 1 - PCP_PREFETCH);
				uint32_t buddy = ahead ^ (1u << order);
				prefetch_pfn(pgdat, ahead);
				if (buddy < pgdat->node_spanned_pages) {
					prefetch_addr(&pgdat->buddy_tag[buddy]);
					prefetch_pfn(pgdat, buddy);
				}
			}

			ClearPageFlag(page, PG_pcp);
			page->private = 0;
			count -= 1 << order;
			pcp->count -= 1 << order;
			__free_one_page(zone, pfn, order, mt, FPI_NONE);
		} while (count > 0 && l->len);
	}
}

static int nr_pcp_free(struct per_cpu_pages *pcp, int high, int batch, bool free_high)
{
	int min_nr_free, max_nr_free;

	if (free_high)
		return pcp->count;
	if (high < batch)
		return 1;
	min_nr_free = batch;
	max_nr_free = high - batch;
	/* double the batch each time frees come without allocations */
	batch <<= pcp->free_factor;
	if (batch < max_nr_free)
		pcp->free_factor++;
	if (batch < min_nr_free)
		batch = min_nr_free;
	if (batch > max_nr_free)
		batch = max_nr_free;
	return batch;
}

static int nr_pcp_high(const struct per_cpu_pages *pcp, const struct zone *zone, bool free_high)
{
	int high = pcp->high;

	if (!high || free_high)
		return 0;
	if (!(zone->flags & (1ul << ZONE_RECLAIM_ACTIVE)))
		return high;
	/* under reclaim, keep less on the lists */
	return pcp->batch << 2 < high ? pcp->batch << 2 : high;
}

static void free_unref_page_commit(struct zone *zone, struct per_cpu_pages *pcp, unsigned long pfn,
                                   int pcpmt, unsigned order)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct page *page = &pgdat->mem_map[pfn];
	unsigned pindex = order_to_pindex(pcpmt, order);
	bool free_high;
	int high;

	charge(pgdat->costs.pcp_free_ns);
	SetPageFlag(page, PG_pcp);
	set_page_order(page, order);
	page->next = page->prev = PFN_NONE;     /* on no linked list: the ring holds it */
	pcp_list_add(&pcp->lists[pindex], (uint32_t)pfn, false);
	pcp->count += 1 << order;
	/* high-order pages other than THP leave quickly when freeing in bulk */
	free_high = pcp->free_factor && order && order <= PAGE_ALLOC_COSTLY_ORDER;
	high = nr_pcp_high(pcp, zone, free_high);
	if (pcp->count >= high)
		free_pcppages_bulk(zone, nr_pcp_free(pcp, high, pcp->batch, free_high), pcp, (int)pindex);
}

static void free_unref_page(struct pglist_data *pgdat, unsigned cpu, unsigned long pfn, unsigned order)
{
	struct zone *zone = page_zone(pgdat, &pgdat->mem_map[pfn]);
	/* free_unref_page_prepare: the block's type now is the page's pcp type */
	int mt = get_pageblock_migratetype(pgdat, pfn);
	int pcpmt = mt;

	pgdat->mem_map[pfn].private = (uint32_t)mt;
	if (mt >= MIGRATE_PCPTYPES) {
		/* isolated and (RFC 11/26) free blocks bypass the lists;
		 * highatomic pages ride the movable list */
		if (is_migrate_isolate(mt) || mt == MIGRATE_FREE) {
			pgdat->mem_map[pfn].private = 0;
			free_one_page(zone, pfn, order, mt);
			return;
		}
		pcpmt = MIGRATE_MOVABLE;
	}
	free_unref_page_commit(zone, &zone->per_cpu_pageset[cpu], pfn, pcpmt, order);
}

void drain_local_pages(struct pglist_data *pgdat, unsigned cpu)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		if (zone->per_cpu_pageset && zone->per_cpu_pageset[cpu].count)
			free_pcppages_bulk(zone, zone->per_cpu_pageset[cpu].count,
			                   &zone->per_cpu_pageset[cpu], 0);
	}
}

void drain_all_pages(struct pglist_data *pgdat)
{
	for (unsigned cpu = 0; cpu < pgdat->nr_cpus; cpu++)
		drain_local_pages(pgdat, cpu);
}

/* ------------------------------------------------------------------ */
/* taking pages off the buddy lists */

/* expand(): split a page of order high down to low, the unused halves go
 * to the free list of the request's migratetype */
static inline void expand(struct zone *zone, unsigned long pfn, unsigned low, unsigned high, int mt)
{
	while (high > low) {
		high--;
		__add_to_free_list(zone, pfn + (1ul << high), high, mt, false);
		charge(zone->zone_pgdat->costs.buddy_per_order_ns);
	}
}

/* __rmqueue_smallest() up to the split: take the first free page of the
 * smallest order >= order that mt's lists hold, off its list; its order
 * goes to *block_order.  Every list of mt below that order is empty. */
static unsigned long __rmqueue_smallest_block(struct zone *zone, unsigned order, int mt,
                                              unsigned *block_order)
{
	for (unsigned o = order; o < MAX_ORDER; o++) {
		unsigned long pfn = first_free_pfn(zone, o, mt);
		if (pfn == PFN_NONE)
			continue;
		__del_page_from_free_list(zone, pfn, o);
		{
			/* the next allocation from this list writes the
			 * successor of its new first page: prefetch it */
			const struct page *m = zone->zone_pgdat->mem_map;
			uint32_t h = zone->free_area[o].free_list[mt], f = m[h].next;
			if (f != h)
				prefetch_pfn(zone->zone_pgdat, m[f].next);
		}
		*block_order = o;
		return pfn;
	}
	return PFN_NONE;
}

static unsigned long __rmqueue_smallest(struct zone *zone, unsigned order, int mt)
{
	unsigned o;
	unsigned long pfn = __rmqueue_smallest_block(zone, order, mt, &o);

	if (pfn == PFN_NONE)
		return PFN_NONE;
	expand(zone, pfn, order, o, mt);
	zone->zone_pgdat->mem_map[pfn].private = (uint32_t)mt;   /* set_pcppage_migratetype */
	return pfn;
}

/* move_freepages(): move the free buddies in [start, end] to mt's lists,
 * counting pages that look movable (LRU or __PageMovable) on the way;
 * mt < 0 only counts (6.10's prep_move_freepages_block) */
static int move_freepages(struct zone *zone, unsigned long start, unsigned long end, int mt,
                          int *num_movable)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int moved = 0;

	for (unsigned long pfn = start; pfn <= end;) {
		const struct page *page = &pgdat->mem_map[pfn];

		charge(pgdat->costs.pfn_scan_ns);
		if (!PageBuddy(page)) {
			if (num_movable) {
				/* PageLRU() of a tail page asks its head */
				const struct page *head = PageTail(page) ? &pgdat->mem_map[page->next] : page;
				if (PageLRU(head) || __PageMovable(head))
					(*num_movable)++;
			}
			pfn++;
			continue;
		}
		if (mt >= 0)
			move_to_free_list(zone, pfn, page_order(page), mt);
		moved += 1 << page_order(page);
		pfn += 1ul << page_order(page);
	}
	return moved;
}

/* prep_move_freepages_block() of 6.10: may a block's free pages be moved
 * with its type?  Not if the block straddles the zone's start or end
 * (the DMA zone starts at pfn 1): v6.2's move_freepages_block() then
 * moves the free pages from pfn on, and the rest of the block's stay on
 * the old type's lists */
static bool block_in_zone(const struct zone *zone, unsigned long pfn)
{
	return zone_spans_pfn(zone, pageblock_start_pfn(pfn)) &&
	       zone_spans_pfn(zone, pageblock_end_pfn(pfn) - 1);
}

int move_freepages_block(struct zone *zone, unsigned long pfn, int mt, int *num_movable)
{
	unsigned long start = pageblock_start_pfn(pfn), end = pageblock_end_pfn(pfn) - 1;

	if (num_movable)
		*num_movable = 0;
	/* do not cross zone boundaries */
	if (!zone_spans_pfn(zone, start))
		start = pfn;
	if (!zone_spans_pfn(zone, end))
		return 0;
	return move_freepages(zone, start, end, mt, num_movable);
}

/* v6.2's fallback table: the order in which other types' lists are tried */
static const int v62_fallback_rows[MIGRATE_TYPES][3] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,   MIGRATE_TYPES },
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, MIGRATE_TYPES },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE,   MIGRATE_TYPES },
};

const int *fallbacks(const struct mm_policy *p, int start_mt, unsigned alloc_flags)
{
	(void)p, (void)alloc_flags;
	return v62_fallback_rows[start_mt];
}

/* can_steal_fallback() of v6.2: when stealing from another type's block,
 * take the whole block's free pages?  Large orders, and unmovable or
 * reclaimable requests (which would otherwise scatter), do. */
bool can_steal_fallback(const struct mm_policy *p, unsigned order, int start_mt, int fallback_mt)
{
	(void)p, (void)fallback_mt;
	if (order >= pageblock_order)
		return true;
	if (order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE ||
	    start_mt == MIGRATE_UNMOVABLE)
		return true;
	return false;
}

/* boost_watermark(): a fallback raised the watermarks, so that kswapd
 * reclaims (and kcompactd compacts) before more fallbacks happen */
bool boost_watermark(struct zone *zone)
{
	unsigned long max_boost;
	int factor = zone->zone_pgdat->sysctl.watermark_boost_factor;

	if (!factor)
		return false;
	/* not on zones too small to produce results */
	if (pageblock_nr_pages * 4 > zone->managed_pages)
		return false;
	max_boost = zone->_watermark[WMARK_HIGH] / 10000 * (unsigned long)factor +
	            zone->_watermark[WMARK_HIGH] % 10000 * (unsigned long)factor / 10000;
	if (!max_boost)
		return false;
	if (max_boost < pageblock_nr_pages)
		max_boost = pageblock_nr_pages;
	zone->watermark_boost += pageblock_nr_pages;
	if (zone->watermark_boost > max_boost)
		zone->watermark_boost = max_boost;
	return true;
}

static void steal_suitable_fallback(struct zone *zone, unsigned long pfn, unsigned alloc_flags,
                                    int start_type, bool whole_block)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	const struct mm_policy_ops *ops = pol(pgdat);
	unsigned current_order = page_order(&pgdat->mem_map[pfn]);
	int old_block_type = get_pageblock_migratetype(pgdat, pfn);
	int free_pages, movable_pages, alike_pages;

	/* highatomic accounting must not break */
	if (is_migrate_highatomic(old_block_type))
		goto single_page;

	/* take ownership for orders >= pageblock_order */
	if (current_order >= pageblock_order) {
		change_pageblock_range(pgdat, pfn, current_order, start_type);
		goto single_page;
	}

	/* boost the watermarks so that reclaim reduces future fallbacks;
	 * kswapd is woken from rmqueue() (RFC 24/26 removes this) */
	if (ops->boost_watermark && ops->boost_watermark(zone) && (alloc_flags & ALLOC_KSWAPD))
		zone->flags |= 1ul << ZONE_BOOSTED_WATERMARK;

	if (!whole_block)
		goto single_page;

	free_pages = move_freepages_block(zone, pfn, start_type, &movable_pages);

	/* RFC 11/26: the first allocation in a free block claims all of it */
	if (old_block_type == MIGRATE_FREE) {
		set_pageblock_migratetype(pgdat, pfn, start_type);
		if (!free_pages)
			goto single_page;
		return;
	}

	/* how many pages are compatible with the allocation?  movable:
	 * the movable ones; unmovable/reclaimable falling back to a movable
	 * block: every non-movable page; between those two: none known */
	if (start_type == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (old_block_type == MIGRATE_MOVABLE)
		alike_pages = (int)pageblock_nr_pages - (free_pages + movable_pages);
	else
		alike_pages = 0;

	/* moving the whole block can fail at zone boundaries */
	if (!free_pages)
		goto single_page;

	/* claim the block when half of it is free or alike */
	if (free_pages + alike_pages >= (int)(pageblock_nr_pages >> 1))
		set_pageblock_migratetype(pgdat, pfn, start_type);
	return;

single_page:
	move_to_free_list(zone, pfn, current_order, start_type);
}

static int find_suitable_fallback(const struct pglist_data *pgdat, const struct free_area *area,
                                  unsigned order, int mt, unsigned alloc_flags, bool *can_steal)
{
	const struct mm_policy_ops *ops = pol(pgdat);
	const int *row;

	if (!area->nr_free)
		return -1;
	*can_steal = false;
	row = ops->fallbacks(pgdat->policy, mt, alloc_flags);
	for (int i = 0; row[i] != MIGRATE_TYPES; i++) {
		int fallback_mt = row[i];
		if (list_empty_pfn(pgdat, area->free_list[fallback_mt]))
			continue;
		if (ops->can_steal_fallback(pgdat->policy, order, mt, fallback_mt))
			*can_steal = true;
		return fallback_mt;             /* only_stealable == false */
	}
	return -1;
}

/* find_suitable_fallback(..., only_stealable = true), for compaction's
 * finish check: a fallback whose block could be claimed */
int compact_find_suitable_fallback(const struct pglist_data *pgdat, const struct free_area *area,
                                   unsigned order, int mt)
{
	const struct mm_policy_ops *ops = pol(pgdat);
	const int *row;

	if (!area->nr_free)
		return -1;
	row = ops->fallbacks(pgdat->policy, mt, 0);
	for (int i = 0; row[i] != MIGRATE_TYPES; i++) {
		int fallback_mt = row[i];
		if (list_empty_pfn(pgdat, area->free_list[fallback_mt]))
			continue;
		if (ops->can_steal_fallback(pgdat->policy, order, mt, fallback_mt))
			return fallback_mt;
	}
	return -1;
}

/* __isolate_free_page(): compaction takes a free page as a migration
 * target, if the order-0 min watermark holds with the page gone */
unsigned long __isolate_free_page(struct zone *zone, unsigned long pfn, unsigned order)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int mt = get_pageblock_migratetype(pgdat, pfn);

	if (!is_migrate_isolate(mt)) {
		long free_pages = pol(pgdat)->isolate_free_page_free_pages(pgdat->policy, zone);
		long watermark = (long)min_wmark_pages(zone) + (1l << order);
		if (free_pages <= watermark + zone->lowmem_reserve[0])
			return 0;
	}
	del_page_from_free_list(zone, pfn, order);
	/* at least half a block: the block becomes movable; under 6.10's
	 * hygiene with its other free pages (move_freepages_block), which
	 * v6.2 leaves on the old type's lists */
	if (order >= pageblock_order - 1) {
		bool hygiene = mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE);
		for (unsigned long p = pfn; p < pfn + (1ul << order); p += pageblock_nr_pages) {
			int bmt = get_pageblock_migratetype(pgdat, p);
			if (!migratetype_is_mergeable(bmt))
				continue;
			if (hygiene) {  /* 6.10 walks the block whatever its type */
				if (!block_in_zone(zone, p))
					continue;
				move_freepages_block(zone, p, MIGRATE_MOVABLE, NULL);
			}
			if (bmt != MIGRATE_MOVABLE)
				set_pageblock_migratetype(pgdat, p, MIGRATE_MOVABLE);
		}
	}
	return 1ul << order;
}

static bool __rmqueue_fallback(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int current_order, min_order = (int)order, fallback_mt = -1;
	bool can_steal = false;
	unsigned long pfn;

	/* with ALLOC_NOFRAGMENT, do not steal from other types' partially
	 * used blocks; the zonelist is retried without it if need be */
	if (alloc_flags & ALLOC_NOFRAGMENT)
		min_order = pageblock_order;

	/* the largest free page approximates the emptiest block */
	for (current_order = MAX_ORDER - 1; current_order >= min_order; current_order--) {
		fallback_mt = find_suitable_fallback(pgdat, &zone->free_area[current_order],
		                                     (unsigned)current_order, start_mt, alloc_flags,
		                                     &can_steal);
		if (fallback_mt == -1)
			continue;
		/* a movable request that cannot take the block splits the
		 * smallest page instead: no permanent fragmentation */
		if (!can_steal && start_mt == MIGRATE_MOVABLE && current_order > (int)order)
			goto find_smallest;
		goto do_steal;
	}
	return false;

find_smallest:
	for (current_order = (int)order; current_order < MAX_ORDER; current_order++) {
		fallback_mt = find_suitable_fallback(pgdat, &zone->free_area[current_order],
		                                     (unsigned)current_order, start_mt, alloc_flags,
		                                     &can_steal);
		if (fallback_mt != -1)
			break;
	}
	VM_BUG_ON(current_order == MAX_ORDER);

do_steal:
	pfn = first_free_pfn(zone, (unsigned)current_order, fallback_mt);
	steal_suitable_fallback(zone, pfn, alloc_flags, start_mt, can_steal);

	/* trace_mm_page_alloc_extfrag() */
	{
		struct extfrag_stats *ef = &pgdat->extfrag;
		bool change_ownership = start_mt == get_pageblock_migratetype(pgdat, pfn);
		ef->events++;
		if (current_order < (int)pageblock_order)
			ef->fragmenting++;
		if (change_ownership)
			ef->change_ownership++;
		ef->by_type[start_mt][fallback_mt]++;
		if (ef->trace)
			ef->trace(ef->trace_arg, pfn, order, (unsigned)current_order, start_mt,
			          fallback_mt, change_ownership);
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* fallbacks as Linux 6.10's freelist hygiene and 6.15 take them
 * (MMF_RMQUEUE_CLAIM_STEAL): a free page stays on the list of its block's
 * type; a block is claimed whole or not at all (__rmqueue_claim, largest
 * page first); failing that, one page is stolen, smallest first, its
 * remainder left on the block's own lists (__rmqueue_steal) */

static void count_extfrag(struct zone *zone, unsigned long pfn, unsigned order, unsigned current_order,
                          int start_mt, int fallback_mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct extfrag_stats *ef = &pgdat->extfrag;
	bool change_ownership = start_mt == get_pageblock_migratetype(pgdat, pfn);

	ef->events++;
	if (current_order < pageblock_order)
		ef->fragmenting++;
	if (change_ownership)
		ef->change_ownership++;
	ef->by_type[start_mt][fallback_mt]++;
	if (ef->trace)
		ef->trace(ef->trace_arg, pfn, order, current_order, start_mt, fallback_mt, change_ownership);
}

/* try_to_claim_block(): take the block for start_type if the free page
 * is a whole block, or if half of the block is free or alike; else leave
 * it alone (v6.2 moved its free pages to start_type's lists regardless) */
static bool try_to_claim_block(struct zone *zone, unsigned long pfn, unsigned current_order, int start_type,
                               unsigned alloc_flags)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int block_type = get_pageblock_migratetype(pgdat, pfn);
	int free_pages, movable_pages, alike_pages;

	if (is_migrate_highatomic(block_type))
		return false;
	if (current_order >= pageblock_order) {
		change_pageblock_range(pgdat, pfn, current_order, start_type);
		move_to_free_list(zone, pfn, current_order, start_type);
		return true;
	}
	if (pol(pgdat)->boost_watermark && pol(pgdat)->boost_watermark(zone) && (alloc_flags & ALLOC_KSWAPD))
		zone->flags |= 1ul << ZONE_BOOSTED_WATERMARK;
	/* a block that straddles the zone's start or end is not claimed */
	if (mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE) && !block_in_zone(zone, pfn))
		return false;
	free_pages = move_freepages_block(zone, pfn, -1, &movable_pages);
	if (!free_pages)
		return false;           /* the block crosses the zone's end */
	if (start_type == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (block_type == MIGRATE_MOVABLE)
		alike_pages = (int)pageblock_nr_pages - (free_pages + movable_pages);
	else
		alike_pages = 0;
	if (free_pages + alike_pages < (int)(pageblock_nr_pages >> 1))
		return false;
	move_freepages_block(zone, pfn, start_type, NULL);
	set_pageblock_migratetype(pgdat, pfn, start_type);
	return true;
}

/* __rmqueue_claim(): true once a block's free pages are on start_mt's lists */
static bool __rmqueue_claim(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int min_order = (int)order;
	bool can_steal;

	if (order < pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		min_order = pageblock_order;
	for (int current_order = MAX_ORDER - 1; current_order >= min_order; current_order--) {
		int fallback_mt = find_suitable_fallback(pgdat, &zone->free_area[current_order],
		                                         (unsigned)current_order, start_mt, alloc_flags, &can_steal);
		unsigned long pfn;

		if (fallback_mt == -1)
			continue;
		if (!can_steal)
			break;
		pfn = first_free_pfn(zone, (unsigned)current_order, fallback_mt);
		if (try_to_claim_block(zone, pfn, (unsigned)current_order, start_mt, alloc_flags)) {
			count_extfrag(zone, pfn, order, (unsigned)current_order, start_mt, fallback_mt);
			return true;
		}
	}
	return false;
}

/* __rmqueue_steal(): one page of the order, split off the smallest
 * fallback page; the rest stays on its block's lists */
static unsigned long __rmqueue_steal(struct zone *zone, unsigned order, int start_mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	bool can_steal;

	for (unsigned current_order = order; current_order < MAX_ORDER; current_order++) {
		int fallback_mt = find_suitable_fallback(pgdat, &zone->free_area[current_order], current_order,
		                                         start_mt, 0, &can_steal);
		unsigned long pfn;

		if (fallback_mt == -1)
			continue;
		pfn = first_free_pfn(zone, current_order, fallback_mt);
		__del_page_from_free_list(zone, pfn, current_order);
		expand(zone, pfn, order, current_order, fallback_mt);
		count_extfrag(zone, pfn, order, current_order, start_mt, fallback_mt);
		return pfn;
	}
	return PFN_NONE;
}

/* enum rmqueue_mode (MMF_RMQUEUE_CLAIM_STEAL): where the last __rmqueue()
 * of a rmqueue_bulk() found its page.  The zone lock is held over the
 * batch, so the lists do not change under it: once a page had to be
 * stolen, the next calls of the batch steal at once, without searching
 * the request's own lists or trying to claim a block again (each failed
 * claim below pageblock order boosts the watermarks); once a block was
 * claimed, they stay with the request's lists.  A single allocation
 * starts from RMQUEUE_NORMAL.  (The kernel's RMQUEUE_CMA has no CMA
 * area to serve here, and it never stores RMQUEUE_CLAIM.) */
enum rmqueue_mode {
	RMQUEUE_NORMAL,
	RMQUEUE_STEAL,
};

/* __rmqueue() up to the split (see __rmqueue_smallest_block) */
static unsigned long __rmqueue_block(struct zone *zone, unsigned order, int mt, unsigned alloc_flags,
                                     unsigned *block_order, enum rmqueue_mode *mode)
{
	unsigned long pfn;

	charge(zone->zone_pgdat->costs.buddy_ns);
	if (mm_policy_has(zone->zone_pgdat->policy, MMF_RMQUEUE_CLAIM_STEAL)) {
		if (*mode == RMQUEUE_NORMAL) {
			pfn = __rmqueue_smallest_block(zone, order, mt, block_order);
			if (pfn != PFN_NONE)
				return pfn;
			/* a claimed block's free pages are on mt's lists now */
			if (__rmqueue_claim(zone, order, mt, alloc_flags))
				return __rmqueue_smallest_block(zone, order, mt, block_order);
		}
		if (alloc_flags & ALLOC_NOFRAGMENT)
			return PFN_NONE;
		*block_order = order;   /* a stolen page comes split */
		pfn = __rmqueue_steal(zone, order, mt);
		if (pfn != PFN_NONE)
			*mode = RMQUEUE_STEAL;
		return pfn;
	}
	for (;;) {
		pfn = __rmqueue_smallest_block(zone, order, mt, block_order);
		if (pfn != PFN_NONE)
			return pfn;
		if (!__rmqueue_fallback(zone, order, mt, alloc_flags))
			return pfn;
	}
}

static unsigned long __rmqueue(struct zone *zone, unsigned order, int mt, unsigned alloc_flags)
{
	unsigned o;
	enum rmqueue_mode mode = RMQUEUE_NORMAL;
	unsigned long pfn = __rmqueue_block(zone, order, mt, alloc_flags, &o, &mode);

	if (pfn == PFN_NONE)
		return PFN_NONE;
	expand(zone, pfn, order, o, mt);
	zone->zone_pgdat->mem_map[pfn].private = (uint32_t)mt;   /* set_pcppage_migratetype */
	return pfn;
}

#define BULK_PREFETCH 16

/* rmqueue_bulk(): count calls of __rmqueue, the pages to the pcp list.
 *
 * When __rmqueue splits a block of order o > order, mt's lists below o
 * were empty, so the calls that follow take the rest of that block, in
 * ascending pfn order: each splits the lowest piece left (the piece at
 * offset t, in units of the request, has order order + ctz(t)) until the
 * block is used up.  Those calls are done here at once, without laying
 * out and taking back the pieces in between: the same pages, taken in
 * the same order, the same charges in the same order, and the pieces left
 * (the binary decomposition of the rest of the block, one per order, each
 * alone on its list) in the same state. */
static __attribute__((noinline))       /* once per pcp->batch allocations: off the fast path */
int rmqueue_bulk(struct zone *zone, unsigned order, int count, struct pcp_list *list, int mt,
                 unsigned alloc_flags)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int i = 0;
	enum rmqueue_mode mode = RMQUEUE_NORMAL;

	while (i < count) {
		unsigned o;
		unsigned long block = __rmqueue_block(zone, order, mt, alloc_flags, &o, &mode), units, n, start;

		if (block == PFN_NONE)
			break;
		units = 1ul << (o - order);
		n = (unsigned long)(count - i) < units ? (unsigned long)(count - i) : units;
		for (unsigned long t = 0; t < n; t++) {
			unsigned long pfn = block + (t << order);
			struct page *page = &pgdat->mem_map[pfn];
			unsigned splits = t ? (unsigned)__builtin_ctzl(t) : o - order;

			/* the block's struct pages, in order: a few ahead */
			if (t + BULK_PREFETCH < n)
				prefetch_addr(page + (BULK_PREFETCH << order));
			if (t)
				charge(pgdat->costs.buddy_ns);          /* its __rmqueue */
			while (splits--)
				charge(pgdat->costs.buddy_per_order_ns); /* expand() */
			page->private = (uint32_t)mt;                   /* set_pcppage_migratetype */
			/* pages arrive in physical order: add at the tail */
			SetPageFlag(page, PG_pcp);
			set_page_order(page, order);
			page->next = page->prev = PFN_NONE;
			pcp_list_add(list, (uint32_t)pfn, true);
		}
		i += (int)n;
		/* the pieces left: [block + (n << order), block + (1 << o)) */
		start = block + (n << order);
		for (unsigned j = order; j < o; j++) {
			if ((units - n) & (1ul << (j - order))) {
				__add_to_free_list(zone, start, j, mt, false);
				start += 1ul << j;
			}
		}
	}
	return i;
}

/* rmqueue_pcplist, rmqueue, zone_watermark_fast: always inline into the
 * allocation fast path (each is a call per page otherwise) */
static inline __attribute__((always_inline))
unsigned long rmqueue_pcplist(struct zone *zone, unsigned cpu, unsigned order, int mt,
                              unsigned alloc_flags)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];
	struct pcp_list *list;
	uint32_t pfn;

	charge(pgdat->costs.pcp_alloc_ns);
	/* allocating: fewer pages freed per batch (see nr_pcp_free) */
	pcp->free_factor >>= 1;
	list = &pcp->lists[order_to_pindex(mt, order)];
	if (!list->len) {
		int batch = pcp->batch;
		/* scale the batch to the order when the lists hold pages */
		if (batch > 1) {
			batch >>= order;
			if (batch < 2)
				batch = 2;
		}
		pcp->count += rmqueue_bulk(zone, order, batch, list, mt, alloc_flags) << order;
		if (!list->len)
			return PFN_NONE;
	}
	pfn = pcp_list_pop_first(list);
	/* the allocation after the next one writes the page after the new
	 * first one: prefetch it (no effect on the model) */
	if (list->len > 1)
		prefetch_pfn(pgdat, pcp_list_at(list, 1));
	ClearPageFlag(&pgdat->mem_map[pfn], PG_pcp);
	pcp->count -= 1 << order;
	return pfn;
}

static unsigned long rmqueue_buddy(struct zone *zone, unsigned order, int mt, unsigned alloc_flags)
{
	const struct mm_policy_ops *ops = pol(zone->zone_pgdat);
	unsigned long pfn = PFN_NONE;

	/* high-order atomic requests may use the highatomic reserve first */
	if (order > 0 && (alloc_flags & ALLOC_HARDER) && ops->reserve_highatomic_pageblock)
		pfn = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (pfn == PFN_NONE)
		pfn = __rmqueue(zone, order, mt, alloc_flags);
	return pfn;
}

static inline __attribute__((always_inline))
unsigned long rmqueue(struct zone *zone, unsigned cpu, unsigned order, int mt, unsigned alloc_flags)
{
	unsigned long pfn = PFN_NONE;

	/* TAO: a policy zone never serves an order it does not take */
	VM_BUG_ON(!zone_is_suitable(zone, order));
	if (pcp_allowed_order(order))
		pfn = rmqueue_pcplist(zone, cpu, order, mt, alloc_flags);
	if (pfn == PFN_NONE)
		pfn = rmqueue_buddy(zone, order, mt, alloc_flags);
	if (pfn != PFN_NONE)
		count_vm_events(zone->zone_pgdat, PGALLOC_DMA + zone_event_idx(zone->idx), 1ul << order);

	/* a fallback boosted the watermarks: wake kswapd now, as the node
	 * may look balanced and kswapd would not wake by itself */
	if (zone->flags & (1ul << ZONE_BOOSTED_WATERMARK)) {
		zone->flags &= ~(1ul << ZONE_BOOSTED_WATERMARK);
		wakeup_kswapd(zone, 0, 0, zone->idx);
	}
	return pfn;
}

/* ------------------------------------------------------------------ */
/* the highatomic reserve (removed by RFC 23/26) */

void reserve_highatomic_pageblock(struct zone *zone, unsigned long pfn, unsigned order)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long max_managed;
	int mt;

	/* one pageblock or roughly 1% of the zone */
	max_managed = zone->managed_pages / 100 + pageblock_nr_pages;
	if (zone->nr_reserved_highatomic >= max_managed)
		return;
	mt = get_pageblock_migratetype(pgdat, pfn);
	/* only normal pageblocks (the ones that can merge with others) */
	if (!migratetype_is_mergeable(mt))
		return;
	/* 6.10's hygiene: a page of pageblock order or more is reserved
	 * with all its blocks (v6.2: its first block) */
	if (mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE)) {
		if (order >= pageblock_order) {
			change_pageblock_range(pgdat, pfn, order, MIGRATE_HIGHATOMIC);
			zone->nr_reserved_highatomic += 1ul << order;
			return;
		}
		if (!block_in_zone(zone, pfn))
			return;         /* move_freepages_block() refuses it */
	}
	zone->nr_reserved_highatomic += pageblock_nr_pages;
	set_pageblock_migratetype(pgdat, pfn, MIGRATE_HIGHATOMIC);
	move_freepages_block(zone, pfn, MIGRATE_HIGHATOMIC, NULL);
}

bool unreserve_highatomic_pageblock(struct pglist_data *pgdat, int migratetype,
                                    enum zone_type highest_zoneidx, bool force)
{
	bool hygiene = mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE);

	for (int zi = (int)highest_zoneidx; zi >= 0; zi--) {
		struct zone *zone = &pgdat->node_zones[zi];

		if (!populated_zone(zone))
			continue;
		/* keep one pageblock unless pressure is really high */
		if (!force && zone->nr_reserved_highatomic <= pageblock_nr_pages)
			continue;
		for (unsigned order = 0; order < MAX_ORDER; order++) {
			unsigned long pfn = first_free_pfn(zone, order, MIGRATE_HIGHATOMIC);
			int ret;

			if (pfn == PFN_NONE)
				continue;
			if (is_migrate_highatomic(get_pageblock_migratetype(pgdat, pfn))) {
				/* 6.10's hygiene: a buddy of two highatomic
				 * blocks gives both back (v6.2: one block) */
				unsigned long size = pageblock_nr_pages;
				if (hygiene && (1ul << order) > size)
					size = 1ul << order;
				zone->nr_reserved_highatomic -= zone->nr_reserved_highatomic < size
				                                ? zone->nr_reserved_highatomic : size;
			}
			/* convert to the caller's type, bypassing the stealing
			 * heuristics: the caller needs the pages.  6.10's
			 * hygiene retypes every block of a multi-block buddy
			 * (v6.2 only the first, and move_freepages_block()
			 * takes the whole buddy to the caller's list) */
			if (hygiene && order >= pageblock_order) {
				move_to_free_list(zone, pfn, order, migratetype);
				change_pageblock_range(pgdat, pfn, order, migratetype);
				return true;
			}
			set_pageblock_migratetype(pgdat, pfn, migratetype);
			ret = move_freepages_block(zone, pfn, migratetype, NULL);
			if (ret)
				return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* watermarks */

/* v6.2: the free pages less __zone_watermark_unusable_free(): callers
 * without ALLOC_HARDER may not count the highatomic reserve
 * (over-estimated: the whole reservation) */
long zone_free_pages(const struct mm_policy *p, const struct zone *z, unsigned alloc_flags)
{
	long free_pages = zone_page_state(z, NR_FREE_PAGES);
	(void)p;
	if (!(alloc_flags & (ALLOC_HARDER | ALLOC_OOM)))
		free_pages -= (long)z->nr_reserved_highatomic;
	return free_pages;
}

/* v6.2's tail of __zone_watermark_ok(): a page on a PCPTYPES list, or on
 * the highatomic list for ALLOC_HARDER (while the reserve exists) */
bool watermark_area_ok(const struct mm_policy *p, const struct free_area *area, unsigned alloc_flags)
{
	const struct pglist_data *pgdat = p->pgdat;
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		if (!list_empty_pfn(pgdat, area->free_list[mt]))
			return true;
	if ((alloc_flags & (ALLOC_HARDER | ALLOC_OOM)) && p->ops.reserve_highatomic_pageblock &&
	    !list_empty_pfn(pgdat, area->free_list[MIGRATE_HIGHATOMIC]))
		return true;
	return false;
}

static bool __zone_watermark_ok(const struct zone *z, unsigned order, unsigned long mark,
                                enum zone_type highest_zoneidx, unsigned alloc_flags, long free_pages)
{
	const struct pglist_data *pgdat = z->zone_pgdat;
	const struct mm_policy_ops *ops = pol(pgdat);
	long min = (long)mark;

	/* TAO: a policy zone meets no watermark for an order it does not serve */
	if (!zone_is_suitable(z, order))
		return false;
	free_pages -= (1l << order) - 1;
	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & (ALLOC_HARDER | ALLOC_OOM)) {
		/* OOM victims dig deeper than ALLOC_HARDER */
		if (alloc_flags & ALLOC_OOM)
			min -= min / 2;
		else
			min -= min / 4;
	}
	/* the order-0 watermark must hold for any order */
	if (free_pages <= min + z->lowmem_reserve[highest_zoneidx])
		return false;
	if (!order)
		return true;
	/* a high-order request needs a suitable free page too */
	for (unsigned o = order; o < MAX_ORDER; o++) {
		const struct free_area *area = &z->free_area[o];
		if (area->nr_free && ops->watermark_area_ok(pgdat->policy, area, alloc_flags))
			return true;
	}
	return false;
}

/* NR_FREE_PAGES_BLOCKS (6.15, defrag_mode 5/5): the free pages in buddies
 * of pageblock order or more, which no fallback has broken into; summed
 * over those orders' counts here (the kernel keeps it in the freelist
 * helpers) */
long zone_free_pages_blocks(const struct zone *z)
{
	long nr = 0;
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		nr += (long)z->free_area[o].nr_free << o;
	return nr;
}

/* __zone_watermark_ok() against a given count of free pages */
bool zone_watermark_ok_free(const struct zone *z, unsigned order, unsigned long mark,
                            enum zone_type highest_zoneidx, unsigned alloc_flags, long free_pages)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags, free_pages);
}

bool zone_watermark_ok(struct pglist_data *pgdat, struct zone *z, unsigned order,
                       unsigned long mark, enum zone_type highest_zoneidx, unsigned alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags,
	                           pol(pgdat)->zone_free_pages(pgdat->policy, z, alloc_flags));
}

static inline __attribute__((always_inline))
bool zone_watermark_fast(const struct zone *z, unsigned order, unsigned long mark,
                         enum zone_type highest_zoneidx, unsigned alloc_flags, gfp_t gfp)
{
	const struct pglist_data *pgdat = z->zone_pgdat;
	long free_pages;

	if (!zone_is_suitable(z, order))
		return false;
	free_pages = pol(pgdat)->zone_free_pages(pgdat->policy, z, alloc_flags);
	charge(pgdat->costs.zone_check_ns);
	/* fast check for order-0 only */
	if (!order && free_pages > (long)mark + z->lowmem_reserve[highest_zoneidx])
		return true;
	if (__zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags, free_pages))
		return true;
	/* GFP_ATOMIC order-0 ignores the boost at the min watermark */
	if (!order && (gfp & __GFP_ATOMIC) && z->watermark_boost &&
	    (alloc_flags & ALLOC_WMARK_MASK) == WMARK_MIN)
		return __zone_watermark_ok(z, order, z->_watermark[WMARK_MIN], highest_zoneidx,
		                           alloc_flags, free_pages);
	return false;
}

/* ------------------------------------------------------------------ */
/* the allocation paths */

/* always inline: every allocation ends here; the compound loop is rare */
static inline __attribute__((always_inline))
void prep_new_page(struct pglist_data *pgdat, unsigned long pfn, unsigned order, gfp_t gfp)
{
	struct page *page = &pgdat->mem_map[pfn];

	page->flags &= PAGE_ZONE_MASK;
	set_page_order(page, order);
	page->refcount = 1;
	page->private = 0;
	page->owner = PGOWN_NONE;
	page->mapcount = 0;             /* a freed anon page keeps its count */
	page->mapping = page->index = 0;
	if ((gfp & __GFP_COMP) && order) {
		/* prep_compound_page(): every tail points at its head */
		SetPageFlag(page, PG_head);
		for (unsigned long i = 1; i < (1ul << order); i++) {
			struct page *tail = page + i;
			tail->flags = (tail->flags & PAGE_ZONE_MASK) | (1u << PG_tail);
			tail->next = (uint32_t)pfn;
		}
	}
}

/* alloc_flags_nofragment(): on a node whose Normal zone has DMA32 below
 * it, the first pass must not fall back into other types' blocks below
 * pageblock order; DMA32 is tried first.  Small guests (no Normal zone)
 * never set it. */
static unsigned alloc_flags_nofragment(const struct zone *preferred, gfp_t gfp)
{
	unsigned alloc_flags = gfp & __GFP_KSWAPD_RECLAIM;

	/* defrag_mode 3/5: no fallback below pageblock order, anywhere */
	if (preferred && mm_policy_has(preferred->zone_pgdat->policy, MMF_ALLOC_NOFRAGMENT))
		return alloc_flags | ALLOC_NOFRAGMENT;

	if (!preferred || preferred->idx != ZONE_NORMAL)
		return alloc_flags;
	return alloc_flags | ALLOC_NOFRAGMENT;
}

/* always inline into alloc_pages (its fast path: every page fault goes
 * through it); the slow path calls the copy below */
static inline __attribute__((always_inline))
unsigned long __get_page_from_freelist(struct pglist_data *pgdat, gfp_t gfp, unsigned order,
                                       unsigned alloc_flags, const struct alloc_context *ac)
{
	const struct mm_policy_ops *ops = pol(pgdat);
	bool no_fallback;

retry:
	no_fallback = alloc_flags & ALLOC_NOFRAGMENT;
	for (int zi = pgdat->first_populated_zone[ac->highest_zoneidx]; zi >= 0; zi--) {
		struct zone *zone = &pgdat->node_zones[zi];
		unsigned long mark, pfn;

		/* TAO: zones above the request's own are skipped
		 * (zone_is_suitable) on the way down the zonelist */
		if (!populated_zone(zone) || !zone_is_suitable(zone, order))
			continue;
		mark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);
		if (!(alloc_flags & ALLOC_NO_WATERMARKS) &&
		    !zone_watermark_fast(zone, order, mark, ac->highest_zoneidx, alloc_flags, gfp))
			continue;       /* node_reclaim is off on a single node */

		pfn = rmqueue(zone, cur_ctx->cpu, order, ac->migratetype, alloc_flags);
		if (pfn != PFN_NONE) {
			prep_new_page(pgdat, pfn, order, gfp);
			/* a high-order atomic allocation may reserve its block */
			if (order && (alloc_flags & ALLOC_HARDER) && ops->reserve_highatomic_pageblock)
				ops->reserve_highatomic_pageblock(zone, pfn, order);
			return pfn;
		}
	}
	/* all zones fragmented: allow fallbacks below pageblock order
	 * (defrag_mode 3/5: only on the slow path's last attempt) */
	if (no_fallback && !mm_policy_has(pgdat->policy, MMF_ALLOC_NOFRAGMENT)) {
		alloc_flags &= ~ALLOC_NOFRAGMENT;
		goto retry;
	}
	return PFN_NONE;
}

static unsigned long get_page_from_freelist(struct pglist_data *pgdat, gfp_t gfp, unsigned order,
                                            unsigned alloc_flags, const struct alloc_context *ac)
{
	return __get_page_from_freelist(pgdat, gfp, order, alloc_flags, ac);
}

/* v6.2: reclaim and compaction work for the order requested */
unsigned requested_order(const struct mm_policy *p, unsigned order)
{
	(void)p;
	return order;
}

static unsigned gfp_to_alloc_flags(const struct pglist_data *pgdat, gfp_t gfp, const struct alloc_context *ac)
{
	unsigned alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	alloc_flags |= gfp & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM);
	if (gfp & __GFP_ATOMIC) {
		if (!(gfp & __GFP_NOMEMALLOC))
			alloc_flags |= ALLOC_HARDER;
		alloc_flags &= ~ALLOC_CPUSET;
	}
	/* TAO (android15-6.6's gfp_to_alloc_flags()): a request for the
	 * policy zones that cannot reclaim directly still wakes kswapd */
	if (!(gfp & __GFP_DIRECT_RECLAIM) && ac->highest_zoneidx > ZONE_MOVABLE &&
	    mm_policy_has(pgdat->policy, MMF_POLICY_ZONE_WAKES_KSWAPD))
		alloc_flags |= ALLOC_KSWAPD;
	return alloc_flags;
}

static void wake_all_kswapds(struct pglist_data *pgdat, unsigned order, gfp_t gfp,
                             const struct alloc_context *ac)
{
	/* RFC 22/26: reclaim to produce neutral blocks */
	order = pol(pgdat)->reclaim_order(pgdat->policy, order);
	/* defrag_mode 4/5: kswapd and kcompactd work for whole blocks */
	if (order < pageblock_order && mm_policy_has(pgdat->policy, MMF_KSWAPD_WAKE_PAGEBLOCK))
		order = pageblock_order;
	/* one node: the first populated zone of the zonelist names it */
	for (int zi = (int)ac->highest_zoneidx; zi >= 0; zi--) {
		if (populated_zone(&pgdat->node_zones[zi])) {
			wakeup_kswapd(&pgdat->node_zones[zi], gfp, (int)order, ac->highest_zoneidx);
			return;
		}
	}
}

/* zone_reclaimable_pages(): what reclaim could free in this zone */
static unsigned long zone_reclaimable_pages(const struct zone *zone)
{
	unsigned long nr = (unsigned long)(zone_page_state(zone, NR_ZONE_INACTIVE_FILE) +
	                                   zone_page_state(zone, NR_ZONE_ACTIVE_FILE));
	if (get_nr_swap_pages(zone->zone_pgdat) > 0)
		nr += (unsigned long)(zone_page_state(zone, NR_ZONE_INACTIVE_ANON) +
		                      zone_page_state(zone, NR_ZONE_ACTIVE_ANON));
	/* pages under writeback sit on the kernel's LRU; the model keeps
	 * them aside until their write completes */
	return nr + (unsigned long)zone_page_state(zone, NR_ZONE_WRITE_PENDING);
}

static bool unreserve_highatomic(struct pglist_data *pgdat, const struct alloc_context *ac, bool force)
{
	const struct mm_policy_ops *ops = pol(pgdat);
	return ops->unreserve_highatomic_pageblock &&
	       ops->unreserve_highatomic_pageblock(pgdat, ac->migratetype, ac->highest_zoneidx, force);
}

/* should_reclaim_retry(): keep reclaiming while reclaiming everything
 * reclaimable could meet the min watermark, at most MAX_RECLAIM_RETRIES
 * times without progress; RFC 22/26 leaves the decision to compaction */
static bool should_reclaim_retry(struct pglist_data *pgdat, unsigned order, const struct alloc_context *ac,
                                 unsigned alloc_flags, bool did_some_progress, int *no_progress_loops)
{
	const struct mm_policy_ops *ops = pol(pgdat);

	/* costly orders may progress without their order getting any closer */
	if (did_some_progress && order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress_loops = 0;
	else
		(*no_progress_loops)++;
	if (*no_progress_loops > MAX_RECLAIM_RETRIES)
		return unreserve_highatomic(pgdat, ac, true);
	if (!mm_policy_has(pgdat->policy, MMF_RECLAIM_RETRY_DEFERS_TO_COMPACTION)) {
		for (int zi = (int)ac->highest_zoneidx; zi >= 0; zi--) {
			struct zone *zone = &pgdat->node_zones[zi];
			long available;
			if (!populated_zone(zone))
				continue;
			available = ops->zone_free_pages(pgdat->policy, zone, alloc_flags) +
			            (long)zone_reclaimable_pages(zone);
			if (__zone_watermark_ok(zone, order, min_wmark_pages(zone), ac->highest_zoneidx,
			                        alloc_flags, available))
				return true;
		}
	}
	return unreserve_highatomic(pgdat, ac, true);
}

/* __alloc_pages_direct_reclaim(): reclaim, then try again; on failure
 * once more after releasing the highatomic reserve and the pcp lists */
static unsigned long __alloc_pages_direct_reclaim(struct pglist_data *pgdat, gfp_t gfp, unsigned order,
                                                  unsigned alloc_flags, const struct alloc_context *ac,
                                                  unsigned long *did_some_progress)
{
	unsigned reclaim_order = pol(pgdat)->reclaim_order(pgdat->policy, order);
	unsigned long pfn = PFN_NONE;
	bool drained = false;

	*did_some_progress = try_to_free_pages(pgdat, cur_ctx, reclaim_order, gfp, ac->highest_zoneidx);
	alloc_stall(pgdat);
	if (!*did_some_progress)
		return PFN_NONE;
	for (;;) {
		pfn = get_page_from_freelist(pgdat, gfp, order, alloc_flags, ac);
		if (pfn != PFN_NONE || drained)
			return pfn;
		unreserve_highatomic(pgdat, ac, false);
		drain_all_pages(pgdat);
		drained = true;
	}
}

/* __alloc_pages_direct_compact(): compact, capturing a page freed for the
 * request (RFC 07/26: the capture control is the allocator's), then try
 * the free lists; counts compact_stall/success/fail as v6.2 does */
static unsigned long __alloc_pages_direct_compact(struct pglist_data *pgdat, gfp_t gfp, unsigned order,
                                                  unsigned alloc_flags, const struct alloc_context *ac,
                                                  enum compact_priority prio,
                                                  enum compact_result *compact_result)
{
	const struct mm_policy_ops *ops = pol(pgdat);
	unsigned compact_order = ops->compact_order(pgdat->policy, order);
	struct capture_control capc = {
		.order = order,
		.compact_order = (int)compact_order,
		.migratetype = ac->migratetype,
		.page = PFN_NONE,
	};
	struct capture_control *saved_capc = cur_ctx->capture_control;
	unsigned saved_flags = cur_ctx->flags;
	unsigned long pfn;

	*compact_result = COMPACT_SKIPPED;
	if (!compact_order || !pgdat->config_compaction)
		return PFN_NONE;
	cur_ctx->capture_control = &capc;
	cur_ctx->flags |= PF_MEMALLOC;  /* memalloc_noreclaim_save() */
	*compact_result = try_to_compact_pages(pgdat, cur_ctx, gfp, compact_order, alloc_flags, ac, prio, &capc);
	cur_ctx->flags = saved_flags;
	cur_ctx->capture_control = saved_capc;
	pfn = capc.page;
	if (pfn == PFN_NONE && *compact_result == COMPACT_SKIPPED)
		return PFN_NONE;
	/* compaction ran in at least one zone: a stall (the captured page,
	 * if any, is ours while others run) */
	count_vm_events(pgdat, COMPACTSTALL, 1);
	alloc_stall(pgdat);
	if (pfn != PFN_NONE) {
		prep_new_page(pgdat, pfn, order, gfp);
	} else {
		/* RFC 02/26: a GFP_NOFS request may have only file pages to
		 * migrate, which it must not touch; at the highest priority it
		 * takes from the reserves */
		if (prio == MIN_COMPACT_PRIORITY && !(gfp & __GFP_FS) &&
		    mm_policy_has(pgdat->policy, MMF_DIRECT_COMPACT_NOFS_RESERVES))
			alloc_flags |= ALLOC_NO_WATERMARKS;
		pfn = get_page_from_freelist(pgdat, gfp, order, alloc_flags, ac);
	}
	if (pfn != PFN_NONE) {
		struct zone *zone = page_zone(pgdat, &pgdat->mem_map[pfn]);
		zone->compact_blockskip_flush = false;
		compaction_defer_reset(zone, (int)order, true);   /* the request's order, as v6.2 */
		count_vm_events(pgdat, COMPACTSUCCESS, 1);
		return pfn;
	}
	count_vm_events(pgdat, COMPACTFAIL, 1);
	return PFN_NONE;
}

/* should_compact_retry(): retry after compaction that made progress, or
 * with a higher priority after one that failed or backed off */
static bool should_compact_retry(struct pglist_data *pgdat, const struct alloc_context *ac, unsigned order,
                                 unsigned alloc_flags, enum compact_result compact_result,
                                 enum compact_priority *compact_priority, int *compaction_retries)
{
	const struct mm_policy_ops *ops = pol(pgdat);
	bool costly_limits = !mm_policy_has(pgdat->policy, MMF_NO_COMPACT_RETRY_COSTLY_LIMITS);
	int max_retries = MAX_COMPACT_RETRIES, min_priority;

	if (!pgdat->config_compaction)
		return false;
	/* RFC 22/26: compaction works toward pageblocks for every order */
	order = ops->compact_order(pgdat->policy, order);
	if (!order)
		return false;
	/* RFC 14/26: progress retries up to MAX_COMPACT_RETRIES (the costly
	 * quarter it computes goes unused), a skip retries if reclaim can
	 * help, anything else raises the priority */
	if (mm_policy_has(pgdat->policy, MMF_COMPACT_RETRY_THREE_OUTCOMES)) {
		if (compact_result == COMPACT_SUCCESS)
			return ++(*compaction_retries) <= MAX_COMPACT_RETRIES;
		if (compact_result == COMPACT_SKIPPED)
			return compaction_zonelist_suitable(pgdat, ac, (int)order, alloc_flags);
		goto check_priority;
	}
	if (compact_result == COMPACT_SUCCESS)
		(*compaction_retries)++;
	/* all zones scanned and still nothing: only more priority can help */
	if (compact_result == COMPACT_COMPLETE)
		goto check_priority;
	/* not enough order-0 pages to work with: retry if reclaim can help */
	if (compact_result == COMPACT_SKIPPED)
		return compaction_zonelist_suitable(pgdat, ac, (int)order, alloc_flags);
	/* deferred, contended or a partial scan: retry harder */
	if (compact_result == COMPACT_DEFERRED || compact_result == COMPACT_CONTENDED ||
	    compact_result == COMPACT_PARTIAL_SKIPPED)
		goto check_priority;
	if (costly_limits && order > PAGE_ALLOC_COSTLY_ORDER)
		max_retries /= 4;
	if (*compaction_retries <= max_retries)
		return true;
check_priority:
	min_priority = costly_limits && order > PAGE_ALLOC_COSTLY_ORDER ? MIN_COMPACT_COSTLY_PRIORITY
	                                                                : MIN_COMPACT_PRIORITY;
	if ((int)*compact_priority > min_priority) {
		(*compact_priority)--;
		*compaction_retries = 0;
		return true;
	}
	return false;
}

/* __alloc_pages_may_oom(): a last high-watermark attempt, then the OOM
 * killer, except for requests that may fail */
static unsigned long __alloc_pages_may_oom(struct pglist_data *pgdat, gfp_t gfp, unsigned order,
                                           const struct alloc_context *ac, unsigned long *did_some_progress)
{
	unsigned long pfn;

	*did_some_progress = 0;
	pfn = get_page_from_freelist(pgdat, (gfp | __GFP_HARDWALL) & ~__GFP_DIRECT_RECLAIM, order,
	                             ALLOC_WMARK_HIGH | ALLOC_CPUSET, ac);
	if (pfn != PFN_NONE)
		return pfn;
	/* no OOM kills for costly orders, for lowmem, or for requests that
	 * may fail */
	if (order > PAGE_ALLOC_COSTLY_ORDER || ac->highest_zoneidx < ZONE_NORMAL ||
	    (gfp & (__GFP_RETRY_MAYFAIL | __GFP_THISNODE)))
		return PFN_NONE;
	if (out_of_memory(pgdat, cur_ctx, gfp, order))
		*did_some_progress = 1;
	return PFN_NONE;
}

/* The slow path of v6.2: wake kswapd, the min watermark, async direct
 * compaction for costly and non-movable high-order requests, direct
 * reclaim, direct compaction at the current priority, the retry rules of
 * reclaim and compaction, the OOM killer. */
static unsigned long __alloc_pages_slowpath(struct pglist_data *pgdat, gfp_t gfp, unsigned order,
                                            struct alloc_context *ac)
{
	bool can_direct_reclaim = gfp & __GFP_DIRECT_RECLAIM;
	bool costly_order = order > PAGE_ALLOC_COSTLY_ORDER;
	unsigned alloc_flags = gfp_to_alloc_flags(pgdat, gfp, ac);
	unsigned long pfn, did_some_progress = 0;
	int no_progress_loops = 0, compaction_retries = 0, unfixed_retries = 0;
	enum compact_priority compact_priority = DEF_COMPACT_PRIORITY;
	enum compact_result compact_result = COMPACT_SKIPPED;
	bool last_resort_tried = false;
	bool pfmemalloc = !(gfp & __GFP_NOMEMALLOC) &&
	                  ((gfp & __GFP_MEMALLOC) || (cur_ctx->flags & PF_MEMALLOC));

	/* defrag_mode 3/5: the slow path keeps to whole blocks too */
	if (mm_policy_has(pgdat->policy, MMF_ALLOC_NOFRAGMENT))
		alloc_flags |= ALLOC_NOFRAGMENT;
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(pgdat, order, gfp, ac);
	pfn = get_page_from_freelist(pgdat, gfp, order, alloc_flags, ac);
	if (pfn != PFN_NONE)
		return pfn;
	/* costly orders, and non-movable high orders (compaction keeps them
	 * from fragmenting more blocks), try async compaction first: there
	 * may be enough base pages already */
	if (can_direct_reclaim && !pfmemalloc &&
	    (costly_order || (order > 0 && ac->migratetype != MIGRATE_MOVABLE))) {
		pfn = __alloc_pages_direct_compact(pgdat, gfp, order, alloc_flags, ac, INIT_COMPACT_PRIORITY,
		                                   &compact_result);
		if (pfn != PFN_NONE)
			return pfn;
		if (costly_order && (gfp & __GFP_NORETRY)) {
			/* whole pageblocks with compaction skipped or deferred:
			 * give up; otherwise stay with async compaction */
			if (compact_result == COMPACT_SKIPPED || compact_result == COMPACT_DEFERRED)
				return PFN_NONE;
			compact_priority = INIT_COMPACT_PRIORITY;
		}
	}
retry:
	/* keep kswapd awake while looping */
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(pgdat, order, gfp, ac);
	/* __gfp_pfmemalloc_flags(): reclaimers may use the reserves */
	if (!(gfp & __GFP_NOMEMALLOC) && ((gfp & __GFP_MEMALLOC) || (cur_ctx->flags & PF_MEMALLOC))) {
		pfn = get_page_from_freelist(pgdat, gfp, order,
		                             ALLOC_NO_WATERMARKS | (alloc_flags & ALLOC_KSWAPD), ac);
		if (pfn != PFN_NONE)
			return pfn;
	} else {
		pfn = get_page_from_freelist(pgdat, gfp, order, alloc_flags, ac);
		if (pfn != PFN_NONE)
			return pfn;
	}
	if (!can_direct_reclaim || (cur_ctx->flags & PF_MEMALLOC))
		return PFN_NONE;
	/* an OOM victim does not loop; its memory is going away */
	if (cur_ctx->mm && cur_ctx->mm->oom_victim)
		return PFN_NONE;

	pfn = __alloc_pages_direct_reclaim(pgdat, gfp, order, alloc_flags, ac, &did_some_progress);
	if (pfn != PFN_NONE)
		return pfn;
	pfn = __alloc_pages_direct_compact(pgdat, gfp, order, alloc_flags, ac, compact_priority,
	                                   &compact_result);
	if (pfn != PFN_NONE)
		return pfn;
	if (gfp & __GFP_NORETRY)
		return PFN_NONE;
	if (costly_order && !(gfp & __GFP_RETRY_MAYFAIL))
		return PFN_NONE;
	if (should_reclaim_retry(pgdat, order, ac, alloc_flags, did_some_progress > 0, &no_progress_loops))
		goto retry;
	/* compaction needs order-0 reclaim to make progress first */
	if (did_some_progress > 0 &&
	    should_compact_retry(pgdat, ac, order, alloc_flags, compact_result, &compact_priority,
	                         &compaction_retries))
		goto retry;

	/* the policy's last resort before OOM: one pass that may fall back
	 * into other types' blocks (the later upstream form of the RFC) */
	if (!last_resort_tried && mm_policy_has(pgdat->policy, MMF_LAST_RESORT_FALLBACK)) {
		last_resort_tried = true;
		pfn = get_page_from_freelist(pgdat, gfp, order, alloc_flags | ALLOC_LAST_RESORT, ac);
		if (pfn != PFN_NONE)
			return pfn;
	}
	/* defrag_mode: reclaim and compaction could not avoid the fallback;
	 * retry once without ALLOC_NOFRAGMENT before the OOM killer */
	if ((alloc_flags & ALLOC_NOFRAGMENT) && mm_policy_has(pgdat->policy, MMF_ALLOC_NOFRAGMENT) &&
	    !mm_policy_has(pgdat->policy, MMF_NOFRAGMENT_RETRY_UNFIXED)) {
		alloc_flags &= ~ALLOC_NOFRAGMENT;
		goto retry;
	}
	/* defrag_mode 3/5 as posted: the mask keeps ALLOC_NOFRAGMENT and
	 * drops every other flag, and nothing stops the retry from being
	 * taken again: the kernel loops here and never reaches the OOM
	 * killer.  The model bounds the loop (MAX_RECLAIM_RETRIES passes)
	 * and then fails the request, without an OOM kill. */
	if (mm_policy_has(pgdat->policy, MMF_ALLOC_NOFRAGMENT) &&
	    mm_policy_has(pgdat->policy, MMF_NOFRAGMENT_RETRY_UNFIXED)) {
		if (++unfixed_retries > MAX_RECLAIM_RETRIES)
			return PFN_NONE;
		alloc_flags &= ALLOC_NOFRAGMENT;
		goto retry;
	}
	pfn = __alloc_pages_may_oom(pgdat, gfp, order, ac, &did_some_progress);
	if (pfn != PFN_NONE)
		return pfn;
	if (cur_ctx->mm && cur_ctx->mm->oom_victim)
		return PFN_NONE;
	/* retry as long as the OOM killer makes progress */
	if (did_some_progress) {
		no_progress_loops = 0;
		goto retry;
	}
	return PFN_NONE;
}

struct page *alloc_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp, unsigned order)
{
	struct alloc_context ac;
	struct mm_ctx *saved = cur_ctx;
	unsigned alloc_flags = ALLOC_WMARK_LOW;
	unsigned long pfn;

	/* the kernel warns and fails such a request */
	if (order >= MAX_ORDER || ctx->cpu >= pgdat->nr_cpus)
		return NULL;
	cur_ctx = ctx;
	/* writes completed by now have freed their pages */
	if (pgdat->swap.wb_len)
		swap_writeback_complete(pgdat, false);
	ac.highest_zoneidx = gfp_order_zone(pgdat, gfp, order);
	ac.migratetype = pgdat_gfp_migratetype(pgdat, gfp);
	{
		int zi = pgdat->first_populated_zone[ac.highest_zoneidx];
		alloc_flags |= alloc_flags_nofragment(zi < 0 ? NULL : &pgdat->node_zones[zi], gfp);
	}
	pfn = __get_page_from_freelist(pgdat, gfp, order, alloc_flags, &ac);
	if (pfn == PFN_NONE)
		pfn = __alloc_pages_slowpath(pgdat, gfp, order, &ac);
	cur_ctx = saved;
	debug_vm_tick(pgdat, "alloc_pages");
	return pfn == PFN_NONE ? NULL : &pgdat->mem_map[pfn];
}

void __free_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *page, unsigned order)
{
	unsigned long pfn = page_to_pfn(pgdat, page);
	struct mm_ctx *saved = cur_ctx;

	VM_BUG_ON(pfn >= pgdat->node_spanned_pages || PageBuddy(page) || PagePcp(page) ||
	          PageReserved(page) || PageTail(page));
	VM_BUG_ON(page->refcount == 0 || page_order(page) != order);
	/* PAGE_FLAGS_CHECK_AT_FREE: a page still on an LRU list */
	VM_BUG_ON(PageLRU(page));
	if (--page->refcount)           /* put_page_testzero() */
		return;
	cur_ctx = ctx;
	if (PageHead(page))
		for (unsigned long i = 1; i < (1ul << order); i++)
			page[i].flags &= PAGE_ZONE_MASK, page[i].next = 0;
	page->flags &= PAGE_ZONE_MASK;
	page->owner = PGOWN_NONE;
	page->mapping = page->index = page->private = 0;
	count_vm_events(pgdat, PGFREE, 1ul << order);
	if (pcp_allowed_order(order)) {
		free_unref_page(pgdat, ctx->cpu, pfn, order);
	} else if (mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE)) {
		split_large_buddy(page_zone(pgdat, page), pfn, order);    /* 6.10's free_one_page() */
	} else {
		/* __free_pages_ok() */
		free_one_page(page_zone(pgdat, page), pfn, order, get_pageblock_migratetype(pgdat, pfn));
	}
	cur_ctx = saved;
	debug_vm_tick(pgdat, "__free_pages");
}
