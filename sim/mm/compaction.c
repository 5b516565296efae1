/* compaction.c - memory compaction (mm/compaction.c of v6.2).
 *
 * compact_zone() runs two scanners toward each other: the migrate scanner
 * from the zone's start isolates movable pages (isolate_migratepages_block),
 * the free scanner from the zone's end isolates free pages in movable
 * blocks (isolate_freepages_block) as targets, and migrate_page() moves
 * the former into the latter.  The freed sources merge in the buddy lists
 * behind the migrate scanner, until a page of the requested order exists
 * (compact_finished) or the scanners meet.  Where policies differ, the
 * node's policy decides: which blocks the migrate scanner may take
 * (suitable_migration_source), when the work is done (compact_finished),
 * against which watermark, and what a task may capture.
 *
 * Sharing the machine (sched.c): direct compaction yields where v6.2
 * calls cond_resched() and no source page is isolated (between the
 * migrate scanner's pageblocks, after each migrate_pages() batch), and
 * other tasks run meanwhile; everything it reads afterwards is read anew
 * (block types, skip bits, free lists), its scanner positions are its
 * own as in the kernel.  Async compaction's trylocks
 * (compact_lock_irqsave()) fail while another task spends the time of
 * work it did under the zone's lock or the LRU lock: cc->contended, and
 * compact_finished() then ends it with COMPACT_CONTENDED, as does
 * too_many_isolated() for async compaction and a fatal signal (the OOM
 * killer) for any.  The free scanner does not yield: it runs inside
 * migrate_pages() while sources are isolated, and a model page holds no
 * reference that would keep an isolated source alive if its owner freed
 * it meanwhile.  Scanned pfns are counted as the kernel counts them, so
 * compact_*_scanned compares with /proc/vmstat.
 *
 * Time: every pfn a scanner looks at costs compact_scan_ns, every page
 * migrated migrate_page_ns, charged to the compacting task.
 */
#include <limits.h>
#include <stdlib.h>
#include "internal.h"

static inline void charge(struct compact_control *cc, double ns)
{
	cc->ctx->kernel_ns += ns;
}

/* work done under a lock: the time counts as lock-held when it is spent */
static inline void charge_locked(struct compact_control *cc, double ns, bool zone_lock)
{
	cc->ctx->kernel_ns += ns;
	cc->ctx->locked_ns += ns;
	if (zone_lock)
		cc->ctx->locked_zone = cc->zone;
	else
		cc->ctx->lru_locked = true;
}

/* compact_lock_irqsave(): async compaction trylocks, and notes a lock
 * that another task holds (it takes the lock anyway and finishes the
 * block; compact_finished() then ends the run) */
static void compact_lock(struct compact_control *cc, bool zone_lock)
{
	int holders = zone_lock ? cc->zone->lock_holders : cc->zone->zone_pgdat->lru_lock_holders;

	if (cc->mode == MIGRATE_ASYNC && !cc->contended && holders > 0)
		cc->contended = true;
}

/* ------------------------------------------------------------------ */
/* fragmentation: the index and the score */

struct contig_page_info {
	unsigned long free_pages, free_blocks_total, free_blocks_suitable;
};

static void fill_contig_page_info(const struct zone *zone, unsigned order, struct contig_page_info *info)
{
	*info = (struct contig_page_info){ 0, 0, 0 };
	for (unsigned o = 0; o < MAX_ORDER; o++) {
		unsigned long blocks = zone->free_area[o].nr_free;
		info->free_blocks_total += blocks;
		info->free_pages += blocks << o;
		if (o >= order)
			info->free_blocks_suitable += blocks << (o - order);
	}
}

/* __fragmentation_index(): 0 means a request fails for lack of memory,
 * 1000 for fragmentation; -1000 when a suitable page is free */
static int fragmentation_index(const struct zone *zone, unsigned order)
{
	struct contig_page_info info;

	fill_contig_page_info(zone, order, &info);
	if (!info.free_blocks_total)
		return 0;
	if (info.free_blocks_suitable)
		return -1000;
	return 1000 - (int)((1000 + info.free_pages * 1000 / (1ul << order)) / info.free_blocks_total);
}

/* extfrag_for_order(): % of free memory unusable for an order */
static unsigned extfrag_for_order(const struct zone *zone, unsigned order)
{
	struct contig_page_info info;

	fill_contig_page_info(zone, order, &info);
	if (!info.free_pages)
		return 0;
	return (unsigned)((info.free_pages - (info.free_blocks_suitable << order)) * 100 / info.free_pages);
}

static unsigned fragmentation_score_zone(const struct zone *zone)
{
	return extfrag_for_order(zone, COMPACTION_HPAGE_ORDER);
}

static unsigned fragmentation_score_zone_weighted(const struct zone *zone)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long node_present = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		node_present += pgdat->node_zones[i].present_pages;
	return (unsigned)(zone->present_pages * fragmentation_score_zone(zone) / (node_present + 1));
}

unsigned fragmentation_score_node(const struct pglist_data *pgdat)
{
	unsigned score = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (populated_zone(&pgdat->node_zones[i]))
			score += fragmentation_score_zone_weighted(&pgdat->node_zones[i]);
	return score;
}

static unsigned fragmentation_score_wmark(const struct pglist_data *pgdat, bool low)
{
	int p = pgdat->sysctl.compaction_proactiveness;
	unsigned wmark_low = 100u - (unsigned)p > 5u ? 100u - (unsigned)p : 5u;

	return low ? wmark_low : (wmark_low + 10 < 100 ? wmark_low + 10 : 100);
}

/* ------------------------------------------------------------------ */
/* deferral */

void defer_compaction(struct zone *zone, int order)
{
	zone->compact_considered = 0;
	zone->compact_defer_shift++;
	if (order < zone->compact_order_failed)
		zone->compact_order_failed = order;
	if (zone->compact_defer_shift > COMPACT_MAX_DEFER_SHIFT)
		zone->compact_defer_shift = COMPACT_MAX_DEFER_SHIFT;
}

bool compaction_deferred(struct zone *zone, int order)
{
	unsigned long defer_limit = 1ul << zone->compact_defer_shift;

	if (order < zone->compact_order_failed)
		return false;
	if (++zone->compact_considered >= defer_limit) {
		zone->compact_considered = (unsigned)defer_limit;
		return false;
	}
	return true;
}

void compaction_defer_reset(struct zone *zone, int order, bool alloc_success)
{
	if (alloc_success) {
		zone->compact_considered = 0;
		zone->compact_defer_shift = 0;
	}
	if (order >= zone->compact_order_failed)
		zone->compact_order_failed = order + 1;
}

static bool compaction_restarting(const struct zone *zone, int order)
{
	if (order < zone->compact_order_failed)
		return false;
	return zone->compact_defer_shift == COMPACT_MAX_DEFER_SHIFT &&
	       zone->compact_considered >= 1u << zone->compact_defer_shift;
}

/* ------------------------------------------------------------------ */
/* skip bits and cached scanner positions */

void reset_cached_positions(struct zone *zone)
{
	zone->compact_cached_migrate_pfn[0] = zone->zone_start_pfn;
	zone->compact_cached_migrate_pfn[1] = zone->zone_start_pfn;
	zone->compact_cached_free_pfn = pageblock_start_pfn(zone_end_pfn(zone) - 1);
	zone->compact_init_migrate_pfn = zone->zone_start_pfn;
	zone->compact_init_free_pfn = zone->compact_cached_free_pfn;
}

/* __reset_isolation_suitable(): clear every skip bit of the zone */
static void __reset_isolation_suitable(struct zone *zone)
{
	struct pglist_data *pgdat = zone->zone_pgdat;

	for (unsigned long pfn = pageblock_start_pfn(zone->zone_start_pfn); pfn < zone_end_pfn(zone);
	     pfn += pageblock_nr_pages)
		set_pageblock_skip(pgdat, pfn, false);
	zone->compact_blockskip_flush = false;
	reset_cached_positions(zone);
}

void reset_isolation_suitable(struct pglist_data *pgdat)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		if (populated_zone(zone) && zone->compact_blockskip_flush)
			__reset_isolation_suitable(zone);
	}
}

static bool isolation_suitable(const struct compact_control *cc, unsigned long pfn)
{
	if (cc->ignore_skip_hint)
		return true;
	return !get_pageblock_skip(cc->zone->zone_pgdat, pfn);
}

static void update_cached_migrate(struct compact_control *cc, unsigned long pfn)
{
	struct zone *zone = cc->zone;

	pfn = (pfn + pageblock_nr_pages - 1) & ~(unsigned long)(pageblock_nr_pages - 1);  /* align up */
	if (cc->no_set_skip_hint)
		return;
	if (pfn > zone->compact_cached_migrate_pfn[0])
		zone->compact_cached_migrate_pfn[0] = pfn;
	if (cc->mode != MIGRATE_ASYNC && pfn > zone->compact_cached_migrate_pfn[1])
		zone->compact_cached_migrate_pfn[1] = pfn;
}

static void update_pageblock_skip(struct compact_control *cc, unsigned long pfn)
{
	struct zone *zone = cc->zone;

	if (cc->no_set_skip_hint)
		return;
	set_pageblock_skip(zone->zone_pgdat, pfn, true);
	if (pfn < zone->compact_cached_free_pfn)
		zone->compact_cached_free_pfn = pfn;
}

/* pageblock_skip_persistent(): a block that a huge page fills is never
 * worth scanning */
static bool pageblock_skip_persistent(const struct pglist_data *pgdat, unsigned long pfn)
{
	const struct page *p = &pgdat->mem_map[pfn];

	if (PageTail(p))
		p = &pgdat->mem_map[p->next];
	return PageHead(p) && page_order(p) >= pageblock_order;
}

/* ------------------------------------------------------------------ */
/* v6.2's decisions where a policy may differ (policies/README.md) */

bool suitable_migration_source(const struct mm_policy *p, const struct compact_control *cc, int block_mt)
{
	(void)p;
	/* only async direct compaction is choosy: blocks of the request's
	 * type (movable requests take CMA too) */
	if (cc->mode != MIGRATE_ASYNC || !cc->direct_compaction)
		return true;
	return block_mt == cc->migratetype;
}

/* the tail of __compact_finished(): is a page of the order free in the
 * request's lists, or could the allocation steal one? */
bool compact_finished(const struct mm_policy *p, const struct compact_control *cc)
{
	const struct pglist_data *pgdat = cc->zone->zone_pgdat;

	(void)p;
	for (unsigned order = (unsigned)cc->order; order < MAX_ORDER; order++) {
		const struct free_area *area = &cc->zone->free_area[order];
		if (!list_empty_pfn(pgdat, area->free_list[cc->migratetype]))
			return true;
		if (compact_find_suitable_fallback(pgdat, area, order, cc->migratetype) != -1)
			return true;
	}
	return false;
}

/* v6.2 suitable_migration_target(): free pages of movable blocks (of any
 * block at the highest priority), never a free page of pageblock order or
 * more (that would undo compaction's work) */
bool __suitable_migration_target(const struct mm_policy *p, const struct compact_control *cc, int block_mt,
                                 unsigned buddy_order)
{
	(void)p;
	if (buddy_order >= pageblock_order)
		return false;
	if (cc->ignore_block_suitable)
		return true;
	return block_mt == MIGRATE_MOVABLE;
}

/* v6.2 compaction_suitable() and __isolate_free_page() check the order-0
 * watermark against NR_FREE_PAGES less what __zone_watermark_ok() calls
 * unusable (the highatomic reserve) */
long compaction_free_pages(const struct mm_policy *p, const struct zone *z)
{
	return zone_free_pages(p, z, ALLOC_CMA);
}

/* v6.2: direct compaction checks the request's watermark, kcompactd (no
 * alloc_flags) the min watermark */
unsigned long compaction_wmark(const struct mm_policy *p, const struct zone *z, bool direct,
                               unsigned alloc_flags)
{
	(void)p, (void)direct;
	return wmark_pages(z, alloc_flags & ALLOC_WMARK_MASK);
}

static bool suitable_migration_target(const struct compact_control *cc, unsigned long pfn)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	const struct page *p = &pgdat->mem_map[pfn];

	return pol(pgdat)->suitable_migration_target(pgdat->policy, cc, get_pageblock_migratetype(pgdat, pfn),
	                                             PageBuddy(p) ? page_order(p) : 0);
}

/* ------------------------------------------------------------------ */
/* compaction_suitable */

/* "the allocation can already succeed" at the policy's compaction mark;
 * kcompactd under defrag_mode 5/5 counts NR_FREE_PAGES_BLOCKS */
static bool compaction_wmark_ok(struct zone *zone, int order, bool direct, unsigned alloc_flags,
                                enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long mark = pol(pgdat)->compaction_wmark(pgdat->policy, zone, direct, alloc_flags);

	if (!direct && mm_policy_has(pgdat->policy, MMF_KCOMPACTD_FREE_BLOCKS))
		return zone_watermark_ok_free(zone, (unsigned)order, mark, highest_zoneidx, alloc_flags,
		                              zone_free_pages_blocks(zone));
	return zone_watermark_ok(pgdat, zone, (unsigned)order, mark, highest_zoneidx, alloc_flags);
}

/* the migration-target check: order-0 pages must be there for migration
 * targets, plus the gap (the pages in flight); costly orders ask for the
 * low watermark.  RFC 17/26 leaves only this in __compaction_suitable()
 * and moves the "can already succeed" check out to the callers.
 * defrag_mode 1/5 (unconditional in 6.15): the caller passes its
 * watermark, and costly orders add the low-min distance on top of it;
 * for the callers that pass min (direct compaction, reclaim's checks)
 * that is v6.2's low + gap, for those that pass high (compaction_ready(),
 * kcompactd under 5/5) it is high + gap + (low - min). */
static enum compact_result compaction_targets_ok(struct zone *zone, int order, enum zone_type highest_zoneidx,
                                                 long wmark_target, unsigned long mark)
{
	unsigned long watermark;
	long min;

	/* the kernel asks __zone_watermark_ok() at order 0, which TAO's
	 * policy zones never meet (zone_is_suitable): no migration targets
	 * there, compaction skips them */
	if (!zone_is_suitable(zone, 0))
		return COMPACT_SKIPPED;
	if (mm_policy_has(zone->zone_pgdat->policy, MMF_COMPACTION_SUITABLE_CALLER_WMARK)) {
		watermark = mark;
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			watermark += low_wmark_pages(zone) - min_wmark_pages(zone);
	} else {
		watermark = order > PAGE_ALLOC_COSTLY_ORDER ? low_wmark_pages(zone) : min_wmark_pages(zone);
	}
	watermark += compact_gap((unsigned)order);
	min = (long)watermark + zone->lowmem_reserve[highest_zoneidx];
	if (wmark_target <= min)
		return COMPACT_SKIPPED;
	return COMPACT_CONTINUE;
}

static enum compact_result __compaction_suitable(struct zone *zone, int order, unsigned alloc_flags,
                                                 enum zone_type highest_zoneidx, long wmark_target)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long watermark;

	if (is_via_compact_memory(order))
		return COMPACT_CONTINUE;
	watermark = pol(pgdat)->compaction_wmark(pgdat->policy, zone, true, alloc_flags);
	if (zone_watermark_ok(pgdat, zone, (unsigned)order, watermark, highest_zoneidx, alloc_flags))
		return COMPACT_SUCCESS;
	return compaction_targets_ok(zone, order, highest_zoneidx, wmark_target, watermark);
}

/* costly orders: only compact when failure would be fragmentation; a
 * zone that is not suitable is reported as skipped (v6.2) */
static enum compact_result compaction_fragindex_ok(struct zone *zone, int order, enum compact_result ret)
{
	if (ret == COMPACT_CONTINUE && order > PAGE_ALLOC_COSTLY_ORDER) {
		int fragindex = fragmentation_index(zone, (unsigned)order);
		if (fragindex >= 0 && fragindex <= zone->zone_pgdat->sysctl.extfrag_threshold)
			ret = COMPACT_NOT_SUITABLE_ZONE;
	}
	if (ret == COMPACT_NOT_SUITABLE_ZONE)
		ret = COMPACT_SKIPPED;
	return ret;
}

enum compact_result compaction_suitable(struct zone *zone, int order, unsigned alloc_flags,
                                        enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	long free_pages = pol(pgdat)->compaction_suitable_free_pages(pgdat->policy, zone);

	return compaction_fragindex_ok(zone, order,
	                               __compaction_suitable(zone, order, alloc_flags, highest_zoneidx, free_pages));
}

/* compaction_suitable() as RFC 17/26 leaves it: are there migration
 * targets (and is a costly failure fragmentation)?  Without the "can
 * already succeed" check, which its callers make with their own marks.
 * mark: the caller's watermark, read under 1/5 (compaction_targets_ok) */
enum compact_result compaction_suitable_targets(struct zone *zone, int order, enum zone_type highest_zoneidx,
                                                unsigned long mark)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	long free_pages = pol(pgdat)->compaction_suitable_free_pages(pgdat->policy, zone);

	if (is_via_compact_memory(order))
		return COMPACT_CONTINUE;
	return compaction_fragindex_ok(zone, order,
	                               compaction_targets_ok(zone, order, highest_zoneidx, free_pages, mark));
}

/* compaction_zonelist_suitable(): is compaction worth retrying after
 * reclaim?  Assumes reclaim frees a share of the reclaimable pages. */
bool compaction_zonelist_suitable(struct pglist_data *pgdat, const struct alloc_context *ac, int order,
                                  unsigned alloc_flags)
{
	for (int zi = (int)ac->highest_zoneidx; zi >= 0; zi--) {
		struct zone *zone = &pgdat->node_zones[zi];
		long available;

		if (!populated_zone(zone))
			continue;
		available = pol(pgdat)->compaction_suitable_free_pages(pgdat->policy, zone);
		available += (long)((zone_page_state(zone, NR_ZONE_INACTIVE_FILE) +
		                     zone_page_state(zone, NR_ZONE_ACTIVE_FILE) +
		                     (get_nr_swap_pages(pgdat) ? zone_page_state(zone, NR_ZONE_INACTIVE_ANON) +
		                                                 zone_page_state(zone, NR_ZONE_ACTIVE_ANON) : 0)) /
		                    (order ? order : 1));
		/* RFC 19/26: the targets alone; v6.2 also runs the "already
		 * succeeds" check, and a zone that passes it does not count */
		if (mm_policy_has(pgdat->policy, MMF_ZONELIST_SUITABLE_TARGETS_ONLY)
		    ? compaction_targets_ok(zone, order, ac->highest_zoneidx, available, min_wmark_pages(zone)) ==
		      COMPACT_CONTINUE
		    : __compaction_suitable(zone, order, alloc_flags, ac->highest_zoneidx, available) ==
		      COMPACT_CONTINUE)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* the free scanner */

static void push_freepage(struct compact_control *cc, unsigned long pfn)
{
	if (cc->nr_freepages == cc->cap_freepages) {
		unsigned cap = cc->cap_freepages ? cc->cap_freepages * 2 : 1024;
		uint32_t *n = realloc(cc->freepages, cap * sizeof(*n));
		if (!n)
			abort();
		cc->freepages = n;
		cc->cap_freepages = cap;
	}
	cc->freepages[cc->nr_freepages++] = (uint32_t)pfn;
}

/* 6.9 on (MMF_COMPACT_LARGE_FOLIOS): compaction migrates folios below
 * the target order, and keeps its free targets whole */
static inline bool compact_large_folios(const struct compact_control *cc)
{
	return mm_policy_has(cc->zone->zone_pgdat->policy, MMF_COMPACT_LARGE_FOLIOS);
}

/* a free page of 2^order pages at pfn, off the buddy lists, onto the
 * per-order target list (the kernel's list_add_tail(&page->lru,
 * &cc->freepages[order]) with set_page_private(page, order)); only its
 * first page carries anything: the order, and the reference
 * release_freepages() drops */
static void push_freepage_order(struct compact_control *cc, unsigned long pfn, unsigned order)
{
	struct page *p = &cc->zone->zone_pgdat->mem_map[pfn];

	if (cc->nr_freepages_order[order] == cc->cap_freepages_order[order]) {
		unsigned cap = cc->cap_freepages_order[order] ? cc->cap_freepages_order[order] * 2 : 64;
		uint32_t *n = realloc(cc->freepages_order[order], cap * sizeof(*n));
		if (!n)
			abort();
		cc->freepages_order[order] = n;
		cc->cap_freepages_order[order] = cap;
	}
	p->flags &= PAGE_ZONE_MASK;
	set_page_order(p, order);
	p->refcount = 1;
	p->private = 0;
	p->owner = PGOWN_NONE;
	cc->freepages_order[order][cc->nr_freepages_order[order]++] = (uint32_t)pfn;
	cc->nr_freepages += 1u << order;
}

/* isolate_freepages_block(): take the free pages of [*start, end),
 * splitting them to order 0, until enough; advances *start */
static unsigned long isolate_freepages_block(struct compact_control *cc, unsigned long *start_pfn,
                                             unsigned long end_pfn, unsigned stride)
{
	struct zone *zone = cc->zone;
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long blockpfn = *start_pfn, nr_scanned = 0, nr_skipped = 0, total_isolated = 0;
	bool locked = false, count_skipped = mm_policy_has(pgdat->policy, MMF_COMPACT_SCANNED_COUNTS_SKIPPED);

	for (; blockpfn < end_pfn; blockpfn += stride) {
		struct page *page = &pgdat->mem_map[blockpfn];
		unsigned long isolated;
		unsigned order;

		nr_scanned++;
		if (PageHead(page) || PageTail(page)) {
			const struct page *head = PageTail(page) ? &pgdat->mem_map[page->next] : page;
			unsigned long head_pfn = page_to_pfn(pgdat, head);
			unsigned long last = head_pfn + (1ul << page_order(head)) - 1;

			/* 6.12 counts a head that fits the range as all its pages;
			 * the tails it would look at one stride at a time */
			if (count_skipped) {
				if (PageHead(page) && last < end_pfn)
					nr_skipped += last - blockpfn;
				else
					nr_skipped += ((last < end_pfn ? last : end_pfn - 1) - blockpfn) / stride;
			}
			blockpfn = last;
			continue;
		}
		if (!PageBuddy(page))
			continue;
		if (!locked) {
			compact_lock(cc, true);
			locked = true;
		}
		order = page_order(page);
		isolated = __isolate_free_page(zone, blockpfn, order);
		if (!isolated)
			break;
		/* 6.9: kept whole, on the list of its order */
		if (compact_large_folios(cc))
			push_freepage_order(cc, blockpfn, order);
		/* split_map_pages(): order-0 pages for the migration */
		else for (unsigned long i = 0; i < isolated; i++) {
			struct page *p = &pgdat->mem_map[blockpfn + i];
			p->flags &= PAGE_ZONE_MASK;
			p->refcount = 1;
			p->private = 0;
			p->owner = PGOWN_NONE;
			push_freepage(cc, blockpfn + i);
		}
		nr_scanned += isolated - 1;
		total_isolated += isolated;
		if (cc->nr_migrate_pages <= cc->nr_freepages) {
			blockpfn += isolated;
			break;
		}
		blockpfn += isolated - 1;
	}
	if (blockpfn > end_pfn)
		blockpfn = end_pfn;
	*start_pfn = blockpfn;
	cc->total_free_scanned += nr_scanned + nr_skipped;
	/* a skipped compound page was looked at once */
	charge_locked(cc, (double)nr_scanned * pgdat->costs.compact_scan_ns, true);
	if (total_isolated)
		count_vm_events(pgdat, COMPACTISOLATED, total_isolated);
	return total_isolated;
}

/* freelist_scan_limit(): how many free list entries a fast search looks
 * at, fewer after each failure */
static unsigned freelist_scan_limit(const struct compact_control *cc)
{
	unsigned shift = cc->fast_search_fail < 63 ? cc->fast_search_fail : 63;
	return shift >= 32 ? 1 : (COMPACT_CLUSTER_MAX >> shift) + 1;
}

/* next_search_order(): orders below cc->order, wrapping around once */
static int next_search_order(struct compact_control *cc, int order)
{
	order--;
	if (order < 0)
		order = cc->order - 1;
	if (order == cc->search_order) {
		cc->search_order--;
		if (cc->search_order < 0)
			cc->search_order = cc->order - 1;
		return -1;
	}
	return order;
}

/* move_freelist_head(): rotate a free list so that pfn comes first, and a
 * later search starts past the entries just looked at (O(1), as the
 * kernel's list_cut_before + list_splice_tail) */
static void move_freelist_head(struct pglist_data *pgdat, uint32_t head, uint32_t pfn)
{
	struct page *m = pgdat->mem_map;
	uint32_t first = m[head].next, last = m[head].prev, before = m[pfn].prev;

	if (first == pfn)
		return;
	/* [first .. before] goes after last */
	m[head].next = pfn;
	m[pfn].prev = head;
	m[last].next = first;
	m[first].prev = last;
	m[before].next = head;
	m[head].prev = before;
}

/* move_freelist_tail(): rotate a free list so that the entries up to and
 * including pfn go to its end (the kernel's list_cut_position +
 * list_splice_tail): the entry after pfn comes first */
static void move_freelist_tail(struct pglist_data *pgdat, uint32_t head, uint32_t pfn)
{
	uint32_t after = pgdat->mem_map[pfn].next;

	if (after != head)
		move_freelist_head(pgdat, head, after);
}

static void isolate_freepages_block_around(struct compact_control *cc, unsigned long pfn);

/* fast_isolate_freepages(): look for targets on the movable free lists,
 * preferring pfns in the top quarter of the space between the scanners,
 * before scanning blocks linearly */
static void fast_isolate_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned limit = freelist_scan_limit(cc) >> 1 ? freelist_scan_limit(cc) >> 1 : 1;
	unsigned long nr_scanned = 0, low_pfn, min_pfn, highest = 0, distance, page = PFN_NONE;
	bool scan_start = false;

	if (cc->order <= 0)
		return;
	/* starting the scan: search deeper, and take the highest pfn found */
	if (cc->free_pfn >= zone->compact_init_free_pfn) {
		limit = pageblock_nr_pages >> 1;
		scan_start = true;
	}
	distance = cc->free_pfn - cc->migrate_pfn;
	low_pfn = pageblock_start_pfn(cc->free_pfn - (distance >> 2));
	min_pfn = pageblock_start_pfn(cc->free_pfn - (distance >> 1));
	if (min_pfn > low_pfn)
		low_pfn = min_pfn;
	if (cc->search_order > cc->order - 1)
		cc->search_order = cc->order - 1;
	for (int order = cc->search_order; page == PFN_NONE && order >= 0; order = next_search_order(cc, order)) {
		struct free_area *area = &zone->free_area[order];
		uint32_t head = area->free_list[MIGRATE_MOVABLE], freepage = PFN_NONE;
		unsigned order_scanned = 0;
		unsigned long high_pfn = 0;

		if (!area->nr_free)
			continue;
		for (uint32_t pfn = pgdat->mem_map[head].prev; pfn != head; pfn = pgdat->mem_map[pfn].prev) {
			order_scanned++;
			nr_scanned++;
			freepage = pfn;
			if (pfn >= highest)
				highest = pageblock_start_pfn(pfn) > zone->zone_start_pfn ? pageblock_start_pfn(pfn)
				                                                            : zone->zone_start_pfn;
			if (pfn >= low_pfn) {
				cc->fast_search_fail = 0;
				cc->search_order = order;
				page = pfn;
				break;
			}
			if (pfn >= min_pfn && pfn > high_pfn) {
				high_pfn = pfn;
				limit >>= 1;    /* a candidate: shorten the scan */
			}
			if (order_scanned >= limit)
				break;
		}
		if (page == PFN_NONE && high_pfn) {
			page = high_pfn;
			freepage = (uint32_t)high_pfn;
		}
		if (freepage != PFN_NONE)
			move_freelist_head(pgdat, head, freepage);
		if (page != PFN_NONE) {
			unsigned long isolated = __isolate_free_page(zone, page, (unsigned)order);
			if (isolated && compact_large_folios(cc)) {
				push_freepage_order(cc, page, (unsigned)order);
				nr_scanned += isolated - 1;
				count_vm_events(pgdat, COMPACTISOLATED, isolated);
			} else if (isolated) {
				for (unsigned long i = 0; i < isolated; i++) {
					struct page *p = &pgdat->mem_map[page + i];
					p->flags &= PAGE_ZONE_MASK;
					p->refcount = 1;
					p->private = 0;
					push_freepage(cc, page + i);
				}
				nr_scanned += isolated - 1;
				count_vm_events(pgdat, COMPACTISOLATED, isolated);
			} else {
				/* isolation failed: abort the search */
				order = cc->search_order + 1;
				page = PFN_NONE;
			}
		}
		if (cc->nr_freepages >= cc->nr_migrate_pages)
			break;
		limit = limit >> 1 ? limit >> 1 : 1;
	}
	if (page == PFN_NONE) {
		cc->fast_search_fail++;
		if (scan_start) {
			/* the highest pfn found above min, or be pessimistic */
			if (highest >= min_pfn) {
				page = highest;
				cc->free_pfn = highest;
			} else if (cc->direct_compaction && min_pfn >= zone->zone_start_pfn) {
				page = min_pfn;
				cc->free_pfn = min_pfn;
			}
		}
	}
	if (highest && highest >= zone->compact_cached_free_pfn) {
		highest -= pageblock_nr_pages;
		zone->compact_cached_free_pfn = highest;
	}
	cc->total_free_scanned += nr_scanned;
	charge_locked(cc, (double)nr_scanned * pgdat->costs.compact_scan_ns, true);
	if (page != PFN_NONE)
		isolate_freepages_block_around(cc, page);
}

/* fast_isolate_around(): more targets from the block of the one found */
static void isolate_freepages_block_around(struct compact_control *cc, unsigned long pfn)
{
	struct zone *zone = cc->zone;
	unsigned long start_pfn, end_pfn;

	if (cc->nr_freepages >= cc->nr_migrate_pages)
		return;
	/* minimise scanning during async compaction */
	if (cc->direct_compaction && cc->mode == MIGRATE_ASYNC)
		return;
	start_pfn = pageblock_start_pfn(pfn) > zone->zone_start_pfn ? pageblock_start_pfn(pfn) : zone->zone_start_pfn;
	end_pfn = pageblock_end_pfn(pfn) < zone_end_pfn(zone) ? pageblock_end_pfn(pfn) : zone_end_pfn(zone);
	isolate_freepages_block(cc, &start_pfn, end_pfn, 1);
	/* the block is (nearly) full: skip it in the future */
	if (start_pfn == end_pfn)
		set_pageblock_skip(zone->zone_pgdat, pfn, true);
}

/* isolate_freepages(): from the cached free pfn down, block by block, to
 * the migrate scanner's block */
static void isolate_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long isolate_start_pfn = cc->free_pfn;
	unsigned long block_start_pfn = pageblock_start_pfn(isolate_start_pfn);
	unsigned long block_end_pfn = block_start_pfn + pageblock_nr_pages;
	unsigned long low_pfn = pageblock_end_pfn(cc->migrate_pfn);
	unsigned stride = cc->mode == MIGRATE_ASYNC ? COMPACT_CLUSTER_MAX : 1;

	/* a small search of the free lists first */
	fast_isolate_freepages(cc);
	if (cc->nr_freepages)
		return;
	isolate_start_pfn = cc->free_pfn;
	block_start_pfn = pageblock_start_pfn(isolate_start_pfn);
	block_end_pfn = block_start_pfn + pageblock_nr_pages;
	if (block_end_pfn > zone_end_pfn(zone))
		block_end_pfn = zone_end_pfn(zone);
	for (; block_start_pfn >= low_pfn; block_end_pfn = block_start_pfn,
	     block_start_pfn -= pageblock_nr_pages, isolate_start_pfn = block_start_pfn) {
		unsigned long nr_isolated;

		if (block_start_pfn < zone->zone_start_pfn)
			break;
		if (!suitable_migration_target(cc, block_start_pfn))
			continue;
		if (!isolation_suitable(cc, block_start_pfn))
			continue;
		nr_isolated = isolate_freepages_block(cc, &isolate_start_pfn, block_end_pfn, stride);
		if (isolate_start_pfn == block_end_pfn)
			update_pageblock_skip(cc, block_start_pfn);
		if (cc->nr_freepages >= cc->nr_migrate_pages) {
			/* restart at the previous block next time if this one
			 * was used up */
			if (isolate_start_pfn >= block_end_pfn)
				isolate_start_pfn = block_start_pfn - pageblock_nr_pages;
			break;
		} else if (isolate_start_pfn < block_end_pfn) {
			break;          /* isolation failed early */
		}
		if (nr_isolated) {
			stride = 1;
			continue;
		}
		stride = stride << 1 < COMPACT_CLUSTER_MAX ? stride << 1 : COMPACT_CLUSTER_MAX;
		if (block_start_pfn < pageblock_nr_pages)
			break;
	}
	cc->free_pfn = isolate_start_pfn;
}

/* compaction_alloc(): a target page for one migration */
static unsigned long compaction_alloc(struct compact_control *cc)
{
	if (!cc->nr_freepages) {
		isolate_freepages(cc);
		if (!cc->nr_freepages)
			return PFN_NONE;
	}
	return cc->freepages[--cc->nr_freepages];
}

/* 6.9's compaction_alloc() (MMF_COMPACT_LARGE_FOLIOS): a free page of
 * the source folio's order, from the smallest non-empty target list at
 * or above it, the rest split down onto the lower lists; with none, the
 * free scanner runs once more.  The pages allocated for come off
 * nr_migrate_pages, as 6.12 takes them off cc->nr_migratepages, so a
 * later free scan looks for what is left of the batch. */
static unsigned long compaction_alloc_order(struct compact_control *cc, unsigned order)
{
	bool isolated = false;
	unsigned long pfn;
	unsigned o;

	for (;;) {
		for (o = order; o < MAX_ORDER && !cc->nr_freepages_order[o]; o++)
			;
		if (o < MAX_ORDER)
			break;
		if (isolated)
			return PFN_NONE;
		isolate_freepages(cc);
		isolated = true;
	}
	pfn = cc->freepages_order[o][--cc->nr_freepages_order[o]];
	cc->nr_freepages -= 1u << o;
	while (o > order) {
		o--;
		push_freepage_order(cc, pfn + (1ul << o), o);
	}
	cc->nr_migrate_pages -= 1u << order;
	return pfn;
}

/* release_freepages(): give back unused targets; returns the highest pfn */
static unsigned long release_freepages(struct compact_control *cc)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	unsigned long high_pfn = 0;

	/* 6.12's release_free_list(): every piece with its order */
	if (compact_large_folios(cc)) {
		for (unsigned order = 0; order < MAX_ORDER; order++)
			while (cc->nr_freepages_order[order]) {
				unsigned long pfn = cc->freepages_order[order][--cc->nr_freepages_order[order]];
				cc->nr_freepages -= 1u << order;
				__free_pages(pgdat, cc->ctx, &pgdat->mem_map[pfn], order);
				if (pfn > high_pfn)
					high_pfn = pfn;
			}
		return high_pfn;
	}
	while (cc->nr_freepages) {
		unsigned long pfn = cc->freepages[--cc->nr_freepages];
		__free_pages(pgdat, cc->ctx, &pgdat->mem_map[pfn], 0);
		if (pfn > high_pfn)
			high_pfn = pfn;
	}
	return high_pfn;
}

/* ------------------------------------------------------------------ */
/* the migrate scanner */

static void putback_movable_pages(struct compact_control *cc)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;

	for (unsigned i = 0; i < cc->nr_migratepages; i++) {
		unsigned long pfn = cc->migratepages[i];
		ClearPageFlag(&pgdat->mem_map[pfn], PG_isolated);
		if (!__PageMovable(&pgdat->mem_map[pfn]))
			lruvec_add_page(pgdat, pfn, false);
	}
	cc->nr_migratepages = 0;
	cc->nr_migrate_pages = 0;
}

/* skip_isolation_on_order() (6.9): a folio at or above the target order
 * stays (a free page of the order would already be there, or migrating
 * it could not make one), and so does one of pageblock order or more,
 * for compact_memory too (order -1) */
static bool skip_isolation_on_order(int order, int target_order)
{
	if (!is_via_compact_memory(target_order) && order >= target_order)
		return true;
	return order >= (int)pageblock_order;
}

/* may the migrate scanner take this large folio whole (6.9)?  An LRU
 * folio below the target order that page_migratable() allows; of the
 * model's LRU folios only the page cache's come in orders below PMD
 * order (anonymous THPs and hugetlb pages are pageblock order), and
 * migrate_folio() moves those */
static bool isolate_large_folio_ok(const struct compact_control *cc, const struct page *head)
{
	const struct pglist_data *pgdat = cc->zone->zone_pgdat;

	return PageHead(head) && PageLRU(head) && head->owner == PGOWN_FILE &&
	       !skip_isolation_on_order((int)page_order(head), cc->order) &&
	       page_migratable(pgdat, head, cc->gfp_mask);
}

static inline unsigned long block_end_pfn_order(unsigned long pfn, int order)
{
	unsigned long n = 1ul << (order > 0 ? order : 0);
	return (pfn + n) & ~(n - 1);
}

/* compaction's too_many_isolated(): more than half the node's LRU pages
 * isolated by the reclaimers and compactors at work (sched.c) */
static bool too_many_isolated(struct pglist_data *pgdat)
{
	unsigned long lru = 0, isolated;
	bool too_many;

	for (int l = 0; l < LRU_UNEVICTABLE; l++)
		lru += lruvec_lru_size(pgdat, (enum lru_list)l);
	isolated = (unsigned long)(node_page_state(pgdat, NR_ISOLATED_ANON) +
	                           node_page_state(pgdat, NR_ISOLATED_FILE));
	too_many = isolated > lru / 2;
	if (!too_many)
		wake_throttle_isolated(pgdat);
	return too_many;
}

/* isolate_migratepages_block(): isolate up to COMPACT_CLUSTER_MAX pages
 * of [low_pfn, end_pfn); async direct compaction gives up on an
 * order-aligned block at its first page that cannot move.  Returns 0, or
 * -1 (v6.2's -EAGAIN/-EINTR): too many pages isolated for async
 * compaction, or a fatal signal; compact_zone() ends COMPACT_CONTENDED. */
static int isolate_migratepages_block(struct compact_control *cc, unsigned long low_pfn,
                                      unsigned long end_pfn)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	unsigned long nr_scanned = 0, nr_skipped = 0, nr_isolated = 0, next_skip_pfn = 0;
	bool skip_on_failure = false, valid_page = false, locked = false;
	bool count_skipped = mm_policy_has(pgdat->policy, MMF_COMPACT_SCANNED_COUNTS_SKIPPED);
	bool large_folios = compact_large_folios(cc);
	unsigned long valid_pfn = 0, iso_pfn, iso_nr;

	/* others have isolated many pages: async gives up, sync waits for
	 * them (a context that cannot sleep, kcompactd, goes on: it would
	 * spin in the kernel until they are put back) */
	while (too_many_isolated(pgdat)) {
		if (cc->nr_migratepages || cc->mode == MIGRATE_ASYNC)
			return -1;
		if (!reclaim_throttle_isolated(pgdat, cc->ctx))
			break;
		if (fatal_signal_pending(cc->ctx))
			return -1;
	}
	if (fatal_signal_pending(cc->ctx)) {
		cc->contended = true;
		return -1;
	}
	if (cc->direct_compaction && cc->mode == MIGRATE_ASYNC) {
		skip_on_failure = true;
		next_skip_pfn = block_end_pfn_order(low_pfn, cc->order);
	}
	for (; low_pfn < end_pfn; low_pfn++) {
		struct page *page = &pgdat->mem_map[low_pfn];

		iso_pfn = low_pfn;
		iso_nr = 1;
		if (skip_on_failure && low_pfn >= next_skip_pfn) {
			if (nr_isolated)
				break;
			next_skip_pfn = block_end_pfn_order(low_pfn, cc->order);
		}
		nr_scanned++;
		if (!valid_page && (low_pfn & (pageblock_nr_pages - 1)) == 0) {
			if (!isolation_suitable(cc, low_pfn)) {
				low_pfn = end_pfn;
				goto out;
			}
			valid_page = true;
			valid_pfn = low_pfn;
		}
		if (PageBuddy(page)) {
			unsigned order = page_order(page);
			if (order > 0 && order < MAX_ORDER) {
				low_pfn += (1ul << order) - 1;
				if (count_skipped)
					nr_skipped += (1ul << order) - 1;
			}
			continue;
		}
		/* compound pages (THP, hugetlb) are not compacted; from 6.9
		 * a folio below the target order is, whole */
		if (PageHead(page) || PageTail(page)) {
			const struct page *head = PageTail(page) ? &pgdat->mem_map[page->next] : page;
			unsigned long last = page_to_pfn(pgdat, head) + (1ul << page_order(head)) - 1;

			if (large_folios && isolate_large_folio_ok(cc, page)) {
				if (!locked) {
					compact_lock(cc, false);
					locked = true;
				}
				iso_nr = 1ul << page_order(page);
				lruvec_del_page(pgdat, low_pfn);
				SetPageFlag(page, PG_isolated);
				/* 6.12: nr_scanned += folio_nr_pages(folio) - 1
				 * (counted; the CPU charged is per page looked at) */
				if (count_skipped)
					nr_skipped += iso_nr - 1;
				low_pfn = last;
				goto isolate_success;
			}

			/* 6.12 counts what it steps over: a tail at a time, or a
			 * whole head (pages past the range are not scanned) */
			if (count_skipped)
				nr_skipped += (last < end_pfn ? last : end_pfn - 1) - low_pfn;
			low_pfn = last;
			goto isolate_fail;
		}
		if (!PageLRU(page)) {
			/* non-LRU movable pages (zsmalloc, balloon) */
			if (__PageMovable(page) && !PageTest(page, PG_isolated) && !PageTest(page, PG_pinned)) {
				SetPageFlag(page, PG_isolated);
				goto isolate_success;
			}
			goto isolate_fail;
		}
		if (!page_migratable(pgdat, page, cc->gfp_mask))
			goto isolate_fail;
		if (!locked) {
			compact_lock(cc, false);
			locked = true;
		}
		lruvec_del_page(pgdat, low_pfn);
		SetPageFlag(page, PG_isolated);
isolate_success:
		cc->migratepages[cc->nr_migratepages++] = (uint32_t)iso_pfn;
		cc->nr_migrate_pages += (unsigned)iso_nr;
		nr_isolated += iso_nr;
		/* contended: isolate quickly, to be done with the lock */
		if (cc->nr_migrate_pages >= COMPACT_CLUSTER_MAX && !cc->finish_pageblock && !cc->contended) {
			low_pfn++;
			break;
		}
		continue;
isolate_fail:
		if (!skip_on_failure)
			continue;
		/* the order-aligned block cannot be freed: give back what was
		 * isolated in it and skip to the next */
		if (nr_isolated) {
			putback_movable_pages(cc);
			nr_isolated = 0;
		}
		if (low_pfn < next_skip_pfn) {
			low_pfn = next_skip_pfn - 1;
			next_skip_pfn += 1ul << cc->order;
		}
	}
	if (low_pfn > end_pfn)
		low_pfn = end_pfn;
out:
	/* a block scanned to its end with nothing isolated (or rescanned)
	 * is skipped until the skip bits are reset */
	if (low_pfn == end_pfn && (!nr_isolated || cc->finish_pageblock)) {
		if (valid_page)
			set_pageblock_skip(pgdat, valid_pfn, true);
		update_cached_migrate(cc, low_pfn);
	}
	cc->total_migrate_scanned += nr_scanned + nr_skipped;
	if (locked)
		charge_locked(cc, (double)nr_scanned * pgdat->costs.compact_scan_ns, false);
	else
		charge(cc, (double)nr_scanned * pgdat->costs.compact_scan_ns);
	if (nr_isolated)
		count_vm_events(pgdat, COMPACTISOLATED, nr_isolated);
	cc->migrate_pfn = low_pfn;
	return 0;
}

enum isolate_migrate_t { ISOLATE_ABORT, ISOLATE_NONE, ISOLATE_SUCCESS };

static void update_fast_start_pfn(struct compact_control *cc, unsigned long pfn)
{
	if (cc->fast_start_pfn == ULONG_MAX)
		return;
	if (!cc->fast_start_pfn || pfn < cc->fast_start_pfn)
		cc->fast_start_pfn = pfn;
}

/* reinit_migrate_pfn(): after a failed fast search, the linear scan
 * starts at the lowest free page a search found (once) */
static unsigned long reinit_migrate_pfn(struct compact_control *cc)
{
	if (!cc->fast_start_pfn || cc->fast_start_pfn == ULONG_MAX)
		return cc->migrate_pfn;
	cc->migrate_pfn = cc->fast_start_pfn;
	cc->fast_start_pfn = ULONG_MAX;
	return cc->migrate_pfn;
}

/* fast_find_migrateblock(): for costly orders, at a block boundary, look
 * on the movable free lists (orders below the request's, down to
 * PAGE_ALLOC_COSTLY_ORDER) for a block in the lower part of the search
 * space that has free pages already, so that fewer pages need migrating.
 * v6.2 marks the block it finds as skipped, and isolate_migratepages_block()
 * gives up on a skipped block at its first pfn: the scanner moves past the
 * block found (the "fix set skip" change that would have scanned it was
 * reverted for 6.2); the linear scan that follows a failed search starts
 * at the lowest free page found, inside the first such block. */
static unsigned long fast_find_migrateblock(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned limit = freelist_scan_limit(cc), nr_scanned = 0;
	unsigned long pfn = cc->migrate_pfn, distance, high_pfn;
	bool found_block = false;

	/* skip hints are what keeps fast searches from repeating */
	if (cc->ignore_skip_hint || cc->finish_pageblock)
		return pfn;
	/* a continuation of a block the scanner is in */
	if (pfn != zone->zone_start_pfn && pfn != pageblock_start_pfn(pfn))
		return pfn;
	if (cc->order <= (int)PAGE_ALLOC_COSTLY_ORDER)
		return pfn;
	if (cc->direct_compaction && cc->migratetype != MIGRATE_MOVABLE &&
	    !mm_policy_has(pgdat->policy, MMF_FAST_FIND_MIGRATEBLOCK_ANY_TYPE))
		return pfn;
	/* the first half of the search space when starting, then the
	 * first eighth (a target block should not become a source) */
	distance = (cc->free_pfn - cc->migrate_pfn) >> 1;
	if (cc->migrate_pfn != zone->zone_start_pfn)
		distance >>= 2;
	high_pfn = pageblock_start_pfn(cc->migrate_pfn + distance);
	for (int order = cc->order - 1; order >= (int)PAGE_ALLOC_COSTLY_ORDER && !found_block && nr_scanned < limit;
	     order--) {
		struct free_area *area = &zone->free_area[order];
		uint32_t head = area->free_list[MIGRATE_MOVABLE];

		if (!area->nr_free)
			continue;
		for (uint32_t freepage = pgdat->mem_map[head].next; freepage != head;
		     freepage = pgdat->mem_map[freepage].next) {
			if (nr_scanned++ >= limit) {
				move_freelist_tail(pgdat, head, freepage);
				break;
			}
			if (freepage >= high_pfn)
				continue;
			/* skipped recently */
			if (get_pageblock_skip(pgdat, freepage))
				continue;
			move_freelist_tail(pgdat, head, freepage);
			update_fast_start_pfn(cc, freepage);
			pfn = pageblock_start_pfn(freepage);
			if (pfn < zone->zone_start_pfn)
				pfn = zone->zone_start_pfn;
			cc->fast_search_fail = 0;
			found_block = true;
			set_pageblock_skip(pgdat, freepage, true);
			break;
		}
	}
	cc->total_migrate_scanned += nr_scanned;
	charge(cc, (double)nr_scanned * pgdat->costs.compact_scan_ns);
	if (!found_block) {
		cc->fast_search_fail++;
		pfn = reinit_migrate_pfn(cc);
	}
	return pfn;
}

/* isolate_migratepages(): the next block the scanner may take pages from */
static enum isolate_migrate_t isolate_migratepages(struct compact_control *cc)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	unsigned long low_pfn = fast_find_migrateblock(cc);
	unsigned long block_start_pfn = pageblock_start_pfn(low_pfn);
	unsigned long block_end_pfn = pageblock_end_pfn(low_pfn);
	/* the block found was marked skipped by the search: not checked here
	 * (isolate_migratepages_block() checks it) */
	bool fast_find_block = low_pfn != cc->migrate_pfn && !cc->fast_search_fail;

	if (block_start_pfn < cc->zone->zone_start_pfn)
		block_start_pfn = cc->zone->zone_start_pfn;
	for (; block_end_pfn <= cc->free_pfn;
	     fast_find_block = false, cc->migrate_pfn = low_pfn = block_end_pfn, block_start_pfn = block_end_pfn,
	     block_end_pfn += pageblock_nr_pages) {
		unsigned long end = block_end_pfn < zone_end_pfn(cc->zone) ? block_end_pfn : zone_end_pfn(cc->zone);

		/* v6.2's cond_resched() between blocks: the block's type and
		 * skip bit are read after it */
		cond_resched(pgdat, cc->ctx);
		if ((low_pfn & (pageblock_nr_pages - 1)) == 0 && !fast_find_block && !isolation_suitable(cc, low_pfn))
			continue;
		if (pageblock_skip_persistent(pgdat, block_start_pfn) ||
		    !pol(pgdat)->suitable_migration_source(pgdat->policy, cc,
		                                           get_pageblock_migratetype(pgdat, block_start_pfn))) {
			update_cached_migrate(cc, block_end_pfn);
			continue;
		}
		if (isolate_migratepages_block(cc, low_pfn, end))
			return ISOLATE_ABORT;
		break;
	}
	return cc->nr_migratepages ? ISOLATE_SUCCESS : ISOLATE_NONE;
}

/* migrate_pages() with compaction_alloc(): every isolated page to a free
 * target; with no target left, the rest go back (-ENOMEM).  Returns the
 * pages that failed. */
static unsigned migrate_folios(struct compact_control *cc);

static unsigned migrate_pages(struct compact_control *cc)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	unsigned nr_succeeded = 0, nr_failed = 0;

	if (compact_large_folios(cc))
		return migrate_folios(cc);
	/* the batch counts as isolated while the time of its migration is
	 * spent (sched.c) */
	cc->ctx->isolated[0] = cc->ctx->isolated[1] = 0;
	for (unsigned i = 0; i < cc->nr_migratepages; i++)
		cc->ctx->isolated[!PageTest(&pgdat->mem_map[cc->migratepages[i]], PG_swapbacked)]++;
	for (unsigned i = 0; i < cc->nr_migratepages; i++) {
		unsigned long src = cc->migratepages[i];
		unsigned long dst = compaction_alloc(cc);

		if (dst == PFN_NONE) {
			/* put the rest back */
			for (unsigned j = i; j < cc->nr_migratepages; j++) {
				unsigned long pfn = cc->migratepages[j];
				ClearPageFlag(&pgdat->mem_map[pfn], PG_isolated);
				if (!__PageMovable(&pgdat->mem_map[pfn]))
					lruvec_add_page(pgdat, pfn, false);
			}
			nr_failed = cc->nr_migratepages - i;
			break;
		}
		migrate_page(pgdat, src, dst);
		charge(cc, pgdat->costs.migrate_page_ns);
		/* the old page is freed as the kernel frees it: to this CPU's
		 * pcp list, whence check_drain merges it */
		__free_pages(pgdat, cc->ctx, &pgdat->mem_map[src], 0);
		nr_succeeded++;
	}
	cc->nr_migratepages = 0;
	cc->nr_migrate_pages = 0;
	count_vm_events(pgdat, PGMIGRATE_SUCCESS, nr_succeeded);
	count_vm_events(pgdat, PGMIGRATE_FAIL, nr_failed);
	return nr_failed;
}

/* migrate_pages() of 6.9 on (MMF_COMPACT_LARGE_FOLIOS): each isolated
 * folio to a target of its order (compaction_alloc_order); the events
 * count pages, the time is migrate_page_ns a page.  A large folio that
 * finds no target is split, as 6.12's migrate_pages_batch() splits it on
 * -ENOMEM, and its pages are migrated one by one after the rest of the
 * batch (one pass; those left without a target go back to the LRU); an
 * order-0 page that finds none ends the batch, and what is left of it,
 * split pages included, goes back (-ENOMEM).  The old folios are freed,
 * in order, once the batch has moved: while a large folio of the batch is
 * isolated its file's count of large folios is not what the LRU lists
 * hold, which the invariant checker run by every free would report (the
 * kernel frees each after its move; the freed sources go to the pcp
 * lists either way, where neither scanner looks).  Returns 0 when every
 * page moved (6.12 too, when a split folio's pages all moved), else the
 * folios and pages that did not. */
static unsigned migrate_folios(struct compact_control *cc)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	struct page *mem_map = pgdat->mem_map;
	uint32_t done[pageblock_nr_pages], split[pageblock_nr_pages];
	unsigned nr_done = 0, nr_split = 0, nr_failed = 0, i;
	unsigned long nr_succeeded = 0, nr_failed_pages = 0;
	bool enomem = false;

	cc->ctx->isolated[0] = cc->ctx->isolated[1] = 0;
	for (i = 0; i < cc->nr_migratepages; i++) {
		const struct page *p = &mem_map[cc->migratepages[i]];
		cc->ctx->isolated[!PageTest(p, PG_swapbacked)] += folio_nr_pages(p);
	}
	for (i = 0; i < cc->nr_migratepages; i++) {
		unsigned long src = cc->migratepages[i];
		unsigned order = PageHead(&mem_map[src]) ? page_order(&mem_map[src]) : 0;
		unsigned long dst = compaction_alloc_order(cc, order);

		if (dst == PFN_NONE && order) {
			/* try_split_folio(): its pages go after the batch */
			filemap_split_isolated_folio(pgdat, src);
			for (unsigned long k = 0; k < 1ul << order; k++)
				split[nr_split++] = (uint32_t)(src + k);
			continue;
		}
		if (dst == PFN_NONE) {
			enomem = true;
			break;
		}
		if (order)
			migrate_folio(pgdat, src, dst);
		else
			migrate_page(pgdat, src, dst);
		charge(cc, pgdat->costs.migrate_page_ns * (double)(1ul << order));
		nr_succeeded += 1ul << order;
		done[nr_done++] = (uint32_t)src;
	}
	/* -ENOMEM: the rest of the batch goes back, the split pages too */
	for (unsigned j = i; enomem && j < cc->nr_migratepages; j++) {
		unsigned long pfn = cc->migratepages[j];
		nr_failed_pages += folio_nr_pages(&mem_map[pfn]);
		nr_failed++;
		ClearPageFlag(&mem_map[pfn], PG_isolated);
		if (!__PageMovable(&mem_map[pfn]))
			lruvec_add_page(pgdat, pfn, false);
	}
	for (unsigned j = 0; j < nr_split; j++) {
		unsigned long src = split[j], dst = enomem ? PFN_NONE : compaction_alloc_order(cc, 0);

		if (dst == PFN_NONE) {
			/* no target: this page and the rest go back to the
			 * LRU (the split pass ends at -ENOMEM); one failure */
			if (!enomem) {
				enomem = true;
				nr_failed++;
			}
			nr_failed_pages++;
			ClearPageFlag(&mem_map[src], PG_isolated);
			lruvec_add_page(pgdat, src, false);
			continue;
		}
		migrate_page(pgdat, src, dst);
		charge(cc, pgdat->costs.migrate_page_ns);
		nr_succeeded++;
		done[nr_done++] = (uint32_t)src;
	}
	/* the old folios, to this CPU's pcp lists (or the buddy lists for
	 * an order without one), whence check_drain merges them */
	for (unsigned j = 0; j < nr_done; j++) {
		struct page *old = &mem_map[done[j]];
		__free_pages(pgdat, cc->ctx, old, PageHead(old) ? page_order(old) : 0);
	}
	cc->nr_migratepages = 0;
	cc->nr_migrate_pages = 0;
	count_vm_events(pgdat, PGMIGRATE_SUCCESS, nr_succeeded);
	count_vm_events(pgdat, PGMIGRATE_FAIL, nr_failed_pages);
	return nr_failed;
}

/* ------------------------------------------------------------------ */
/* compact_zone */

static bool compact_scanners_met(const struct compact_control *cc)
{
	return (cc->free_pfn >> pageblock_order) <= (cc->migrate_pfn >> pageblock_order);
}

static enum compact_result __compact_finished(struct compact_control *cc)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;

	if (compact_scanners_met(cc)) {
		/* let the next compaction start anew; kswapd going to sleep
		 * will clear the skip bits direct compaction set */
		reset_cached_positions(cc->zone);
		if (cc->direct_compaction)
			cc->zone->compact_blockskip_flush = true;
		return cc->whole_zone ? COMPACT_COMPLETE : COMPACT_PARTIAL_SKIPPED;
	}
	if (cc->proactive_compaction) {
		if (pgdat->kswapd_running)
			return COMPACT_PARTIAL_SKIPPED;
		if (fragmentation_score_zone(cc->zone) <= fragmentation_score_wmark(pgdat, true))
			return COMPACT_SUCCESS;
		return cc->contended || fatal_signal_pending(cc->ctx) ? COMPACT_CONTENDED : COMPACT_CONTINUE;
	}
	if (is_via_compact_memory(cc->order))
		return COMPACT_CONTINUE;
	/* always finish a pageblock, to reduce later fallbacks */
	if (cc->migrate_pfn & (pageblock_nr_pages - 1))
		return COMPACT_CONTINUE;
	if (pol(pgdat)->compact_finished(pgdat->policy, cc))
		return COMPACT_SUCCESS;
	/* COMPACT_NO_SUITABLE_PAGE: go on, unless a lock was contended or
	 * a fatal signal came */
	if (cc->contended || fatal_signal_pending(cc->ctx))
		return COMPACT_CONTENDED;
	return COMPACT_CONTINUE;
}

static enum compact_result compact_zone(struct compact_control *cc, struct capture_control *capc)
{
	struct zone *zone = cc->zone;
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long start_pfn = zone->zone_start_pfn, end_pfn = zone_end_pfn(zone);
	unsigned long last_migrated_pfn = 0;
	bool sync = cc->mode != MIGRATE_ASYNC, update_cached;
	enum compact_result ret;

	cc->total_migrate_scanned = cc->total_free_scanned = 0;
	cc->nr_migratepages = cc->nr_migrate_pages = cc->nr_freepages = 0;
	cc->search_order = cc->order;
	cc->fast_search_fail = 0;
	cc->fast_start_pfn = 0;
	cc->migratetype = pgdat_gfp_migratetype(cc->zone->zone_pgdat, cc->gfp_mask);
	if (!is_via_compact_memory(cc->order)) {
		/* the allocation can already succeed: nothing to do (at the
		 * policy's mark: kcompactd works to the high watermark under
		 * RFC 22/26); then, as RFC 17/26 splits it, are there
		 * migration targets? */
		if (compaction_wmark_ok(zone, cc->order, cc->direct_compaction, cc->alloc_flags,
		                        cc->highest_zoneidx))
			return COMPACT_SUCCESS;
		ret = compaction_suitable_targets(zone, cc->order, cc->highest_zoneidx,
		                                  pol(pgdat)->compaction_wmark(pgdat->policy, zone,
		                                                               cc->direct_compaction, cc->alloc_flags));
		if (ret == COMPACT_SKIPPED)
			return ret;
	}
	/* failures recently, about to retry after deferral: rescan all */
	if (compaction_restarting(zone, cc->order))
		__reset_isolation_suitable(zone);
	if (cc->whole_zone) {
		cc->migrate_pfn = start_pfn;
		cc->free_pfn = pageblock_start_pfn(end_pfn - 1);
	} else {
		cc->migrate_pfn = zone->compact_cached_migrate_pfn[sync];
		cc->free_pfn = zone->compact_cached_free_pfn;
		if (cc->free_pfn < start_pfn || cc->free_pfn >= end_pfn) {
			cc->free_pfn = pageblock_start_pfn(end_pfn - 1);
			zone->compact_cached_free_pfn = cc->free_pfn;
		}
		if (cc->migrate_pfn < start_pfn || cc->migrate_pfn >= end_pfn) {
			cc->migrate_pfn = start_pfn;
			zone->compact_cached_migrate_pfn[0] = zone->compact_cached_migrate_pfn[1] = start_pfn;
		}
		if (cc->migrate_pfn <= zone->compact_init_migrate_pfn)
			cc->whole_zone = true;
	}
	/* keep async and sync positions together until a block yields pages */
	update_cached = !sync && zone->compact_cached_migrate_pfn[0] == zone->compact_cached_migrate_pfn[1];

	while ((ret = __compact_finished(cc)) == COMPACT_CONTINUE) {
		unsigned long iteration_start_pfn = cc->migrate_pfn;

		/* a block met twice in a row is scanned whole, then skipped */
		cc->finish_pageblock = pageblock_start_pfn(last_migrated_pfn) ==
		                       pageblock_start_pfn(iteration_start_pfn);
rescan:
		switch (isolate_migratepages(cc)) {
		case ISOLATE_ABORT:
			ret = COMPACT_CONTENDED;
			goto out;       /* the isolated pages are put back there */
		case ISOLATE_NONE:
			if (update_cached)
				zone->compact_cached_migrate_pfn[1] = zone->compact_cached_migrate_pfn[0];
			goto check_drain;
		case ISOLATE_SUCCESS:
			break;
		}
		update_cached = false;
		last_migrated_pfn = iteration_start_pfn;
		if (migrate_pages(cc)) {
			/* targets ran out: the scanners have met, or are about to */
			if (!compact_scanners_met(cc)) {
				ret = COMPACT_CONTENDED;
				goto out;
			}
			if ((cc->migrate_pfn & (pageblock_nr_pages - 1)) && !cc->ignore_skip_hint &&
			    !cc->finish_pageblock && cc->mode < MIGRATE_SYNC) {
				cc->finish_pageblock = true;
				if (cc->order == COMPACTION_HPAGE_ORDER)
					last_migrated_pfn = 0;
				goto rescan;
			}
		}
		/* a captured page ends the compaction */
		if (capc && capc->page != PFN_NONE) {
			ret = COMPACT_SUCCESS;
			break;
		}
		/* after a batch of migrations (nothing isolated but the free
		 * targets, which only this task sees) */
		cond_resched(pgdat, cc->ctx);
check_drain:
		/* the scanner left the order-aligned block it migrated from:
		 * flush this CPU's freed pages so they merge (and are
		 * captured), and compact_finished sees them */
		if (cc->order > 0 && last_migrated_pfn) {
			unsigned long current_block_start = cc->migrate_pfn & ~((1ul << cc->order) - 1);
			if (last_migrated_pfn < current_block_start) {
				drain_local_pages(pgdat, cc->ctx->cpu);
				last_migrated_pfn = 0;
				if (capc && capc->page != PFN_NONE) {
					ret = COMPACT_SUCCESS;
					break;
				}
			}
		}
	}
out:
	if (cc->nr_migratepages)
		putback_movable_pages(cc);
	if (cc->nr_freepages) {
		unsigned long free_pfn = pageblock_start_pfn(release_freepages(cc));
		/* only go back, never forward */
		if (free_pfn > zone->compact_cached_free_pfn)
			zone->compact_cached_free_pfn = free_pfn;
	}
	free(cc->freepages);
	cc->freepages = NULL;
	cc->cap_freepages = 0;
	for (unsigned o = 0; o < MAX_ORDER; o++) {
		free(cc->freepages_order[o]);
		cc->freepages_order[o] = NULL;
		cc->cap_freepages_order[o] = 0;
	}
	if (ret == COMPACT_CONTENDED)
		pgdat->sched_stats.compact_contended++;
	count_vm_events(pgdat, COMPACTMIGRATE_SCANNED, cc->total_migrate_scanned);
	count_vm_events(pgdat, COMPACTFREE_SCANNED, cc->total_free_scanned);
	return ret;
}

/* ------------------------------------------------------------------ */
/* direct compaction */

static enum compact_result compact_zone_order(struct zone *zone, struct mm_ctx *ctx, int order, gfp_t gfp,
                                              enum compact_priority prio, unsigned alloc_flags,
                                              enum zone_type highest_zoneidx,
                                              struct capture_control *capc)
{
	struct compact_control cc = {
		.zone = zone,
		.ctx = ctx,
		.order = order,
		.gfp_mask = gfp,
		.mode = prio == COMPACT_PRIO_ASYNC ? MIGRATE_ASYNC : MIGRATE_SYNC_LIGHT,
		.alloc_flags = alloc_flags,
		.highest_zoneidx = highest_zoneidx,
		.direct_compaction = true,
		.whole_zone = prio == MIN_COMPACT_PRIORITY,
		.ignore_skip_hint = prio == MIN_COMPACT_PRIORITY,
		.ignore_block_suitable = prio == MIN_COMPACT_PRIORITY,
	};
	enum compact_result ret;

	capc->zone = zone;
	ret = compact_zone(&cc, capc);
	capc->zone = NULL;
	if (capc->page != PFN_NONE)
		ret = COMPACT_SUCCESS;
	return ret;
}

enum compact_result try_to_compact_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp,
                                         unsigned order, unsigned alloc_flags,
                                         const struct alloc_context *ac, enum compact_priority prio,
                                         struct capture_control *capc)
{
	enum compact_result rc = COMPACT_SKIPPED;

	/* compaction migrates pages, which may need I/O */
	if (!(gfp & __GFP_IO))
		return COMPACT_SKIPPED;
	count_trace_event_gfp(pgdat, TRACE_TRY_TO_COMPACT_PAGES, (int)order, gfp);
	for (int zi = (int)ac->highest_zoneidx; zi >= 0; zi--) {
		struct zone *zone = &pgdat->node_zones[zi];
		enum compact_result status;

		/* TAO: the policy zones are not compacted (zone_can_frag) */
		if (!populated_zone(zone) || !zone_can_frag(zone))
			continue;
		if (prio > MIN_COMPACT_PRIORITY && compaction_deferred(zone, (int)order)) {
			if (rc < COMPACT_DEFERRED)
				rc = COMPACT_DEFERRED;
			continue;
		}
		status = compact_zone_order(zone, ctx, (int)order, gfp, prio, alloc_flags,
		                            ac->highest_zoneidx, capc);
		if (status > rc)
			rc = status;
		if (status == COMPACT_SUCCESS) {
			/* the allocation should succeed: stop */
			compaction_defer_reset(zone, (int)order, false);
			break;
		}
		/* sync compaction that scanned everything defers the next */
		if (prio != COMPACT_PRIO_ASYNC && (status == COMPACT_COMPLETE || status == COMPACT_PARTIAL_SKIPPED))
			defer_compaction(zone, (int)order);
		/* the scheduler wants the CPU back (async), or the task is
		 * dying: no further zones */
		if ((prio == COMPACT_PRIO_ASYNC && need_resched(pgdat, ctx)) || fatal_signal_pending(ctx))
			break;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* kcompactd */

static bool kcompactd_node_suitable(struct pglist_data *pgdat)
{
	int order = pgdat->kcompactd_max_order;

	for (int zi = 0; zi <= (int)pgdat->kcompactd_highest_zoneidx; zi++) {
		struct zone *zone = &pgdat->node_zones[zi];
		if (!populated_zone(zone) || !zone_can_frag(zone))
			continue;
		/* the allocation can already succeed here */
		if (compaction_wmark_ok(zone, order, false, 0, pgdat->kcompactd_highest_zoneidx))
			continue;
		if (compaction_suitable_targets(zone, order, pgdat->kcompactd_highest_zoneidx,
		                                pol(pgdat)->compaction_wmark(pgdat->policy, zone, false, 0)) ==
		    COMPACT_CONTINUE)
			return true;
	}
	return false;
}

void wakeup_kcompactd(struct pglist_data *pgdat, int order, enum zone_type highest_zoneidx)
{
	if (!order || !pgdat->config_compaction)
		return;
	if (pgdat->kcompactd_max_order < order)
		pgdat->kcompactd_max_order = order;
	if (pgdat->kcompactd_highest_zoneidx > highest_zoneidx)
		pgdat->kcompactd_highest_zoneidx = highest_zoneidx;
	if (!pgdat->kcompactd_sleeping || !mm_host_op(pgdat, kcompactd_wake))
		return;
	if (!kcompactd_node_suitable(pgdat))
		return;
	count_trace_event(pgdat, TRACE_WAKEUP_KCOMPACTD, order);
	{
		/* a wake-up is a SimGrid simcall: other actors may run before
		 * this one resumes, and leave their context current */
		struct mm_ctx *cur = mm_current();
		pgdat->host_ops->kcompactd_wake(pgdat);
		mm_set_current(cur);
	}
}

void kcompactd_do_work(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	int order = pgdat->kcompactd_max_order;
	enum zone_type highest_zoneidx = pgdat->kcompactd_highest_zoneidx;
	struct mm_ctx *saved = mm_current();

	mm_set_current(ctx);            /* current is kcompactd */
	count_vm_events(pgdat, KCOMPACTD_WAKE, 1);
	count_trace_event(pgdat, TRACE_KCOMPACTD_WAKE, order);
	for (int zi = 0; zi <= (int)highest_zoneidx; zi++) {
		struct zone *zone = &pgdat->node_zones[zi];
		struct compact_control cc = {
			.zone = zone,
			.ctx = ctx,
			.order = order,
			.highest_zoneidx = highest_zoneidx,
			.mode = MIGRATE_SYNC_LIGHT,
			.gfp_mask = GFP_KERNEL,
		};
		enum compact_result status;

		if (!populated_zone(zone))
			continue;
		if (compaction_deferred(zone, order))
			continue;
		if (compaction_wmark_ok(zone, order, false, 0, (enum zone_type)zi))
			continue;
		if (compaction_suitable_targets(zone, order, (enum zone_type)zi,
		                                pol(pgdat)->compaction_wmark(pgdat->policy, zone, false, 0)) !=
		    COMPACT_CONTINUE)
			continue;
		status = compact_zone(&cc, NULL);
		if (status == COMPACT_SUCCESS) {
			compaction_defer_reset(zone, order, false);
		} else if (status == COMPACT_PARTIAL_SKIPPED || status == COMPACT_COMPLETE) {
			/* pages stranded on pcp lists could merge */
			drain_all_pages(pgdat);
			defer_compaction(zone, order);
		}
		count_vm_events(pgdat, KCOMPACTD_MIGRATE_SCANNED, cc.total_migrate_scanned);
		count_vm_events(pgdat, KCOMPACTD_FREE_SCANNED, cc.total_free_scanned);
	}
	/* done until woken again; keep a request that came meanwhile */
	if (pgdat->kcompactd_max_order <= order)
		pgdat->kcompactd_max_order = 0;
	if (pgdat->kcompactd_highest_zoneidx >= highest_zoneidx)
		pgdat->kcompactd_highest_zoneidx = MAX_NR_ZONES - 1;
	mm_set_current(saved);
}

bool should_proactive_compact_node(struct pglist_data *pgdat)
{
	if (!pgdat->config_compaction || !pgdat->sysctl.compaction_proactiveness || pgdat->kswapd_running)
		return false;
	return fragmentation_score_node(pgdat) > fragmentation_score_wmark(pgdat, false);
}

/* compact_node(): every zone compacted whole (order -1), by kcompactd's
 * proactive compaction (MIGRATE_SYNC_LIGHT) or by a write of
 * vm.compact_memory (MIGRATE_SYNC) */
static void compact_node(struct pglist_data *pgdat, struct mm_ctx *ctx, bool proactive)
{
	struct mm_ctx *saved = mm_current();

	mm_set_current(ctx);
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *zone = &pgdat->node_zones[zi];
		struct compact_control cc = {
			.zone = zone,
			.ctx = ctx,
			.order = -1,
			.highest_zoneidx = MAX_NR_ZONES - 1,
			.mode = proactive ? MIGRATE_SYNC_LIGHT : MIGRATE_SYNC,
			.ignore_skip_hint = true,
			.whole_zone = true,
			.gfp_mask = GFP_KERNEL,
			.proactive_compaction = proactive,
		};

		/* TAO's policy zones hold no pieces to compact (zone_can_frag) */
		if (!populated_zone(zone) || !zone_can_frag(zone))
			continue;
		compact_zone(&cc, NULL);
		/* compact_zone() counted the scan in compact_*_scanned; the
		 * daemon counters take proactive compaction's only from v6.3 on */
		if (proactive && mm_policy_has(pgdat->policy, MMF_PROACTIVE_COMPACT_COUNTS_DAEMON)) {
			count_vm_events(pgdat, KCOMPACTD_MIGRATE_SCANNED, cc.total_migrate_scanned);
			count_vm_events(pgdat, KCOMPACTD_FREE_SCANNED, cc.total_free_scanned);
		}
	}
	mm_set_current(saved);
}

bool proactive_compact_node(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	unsigned prev_score = fragmentation_score_node(pgdat);

	compact_node(pgdat, ctx, true);
	return fragmentation_score_node(pgdat) >= prev_score;
}

void compact_nodes(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	if (pgdat->config_compaction)
		compact_node(pgdat, ctx, false);
}
