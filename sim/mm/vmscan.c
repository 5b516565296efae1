/* vmscan.c - page reclaim (mm/vmscan.c of v6.2, without MGLRU and memcg).
 *
 * One lruvec per node.  shrink_node() sets the scan balance
 * (prepare_scan_count, get_scan_count), shrink_lruvec() walks the lists in
 * SWAP_CLUSTER_MAX batches, shrink_inactive_list() isolates pages from the
 * tail and decides with the referenced check whether to activate, keep or
 * reclaim them; shrink_active_list() deactivates.  Direct reclaim runs the
 * priority loop in the caller and yields after each round of batches
 * (cond_resched(), sched.c: the others run, the lists are read anew);
 * kswapd runs balance_pgdat() one priority step at a time, so that its
 * actor charges each step's CPU time before the next.  Costs per page
 * scanned, unmapped and written are charged to the reclaimer's context;
 * the scanning under the LRU lock also counts as lock-held time, and each
 * batch as isolated pages while its time is spent (too_many_isolated()).
 *
 * Simplifications, each documented in docs/model.md: no isolation batch
 * (pages are handled one at a time, which is the same in one thread), no
 * writeback throttling or congestion waits, dirty file pages are written
 * by kswapd the second time it meets them (PG_reclaim), not by direct
 * reclaim, as v6.2 does; pages above the reclaim zone are rotated.
 */
#include <string.h>
#include "internal.h"
#include "mmsim/slab.h"

#define DEF_PRIORITY         12
#define DEACTIVATE_ANON      1u
#define DEACTIVATE_FILE      2u

struct scan_control {
	struct mm_ctx *ctx;
	unsigned long nr_to_reclaim;
	gfp_t gfp_mask;
	int order;
	int priority;
	enum zone_type reclaim_idx;
	bool may_writepage, may_unmap, may_swap;
	bool kswapd;
	unsigned may_deactivate;
	bool force_deactivate, skipped_deactivate;
	bool cache_trim_mode, file_is_tiny;
	bool compaction_ready;
	unsigned long anon_cost, file_cost;
	unsigned long nr_scanned, nr_reclaimed;
};

enum page_references { PAGEREF_RECLAIM, PAGEREF_RECLAIM_CLEAN, PAGEREF_KEEP, PAGEREF_ACTIVATE };

static inline bool test_clear(struct page *p, enum pageflags f)
{
	bool was = PageTest(p, f);
	ClearPageFlag(p, f);
	return was;
}

static unsigned long int_sqrt_ul(unsigned long x)
{
	unsigned long r = 0;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

static bool can_reclaim_anon_pages(const struct pglist_data *pgdat, const struct scan_control *sc)
{
	return sc->may_swap && get_nr_swap_pages(pgdat) > 0;
}

/* inactive_is_low(): the inactive list should hold 1/sqrt(10*GB) of the
 * type's pages */
static bool inactive_is_low(const struct pglist_data *pgdat, enum lru_list inactive_lru)
{
	unsigned long inactive = lruvec_lru_size(pgdat, inactive_lru);
	unsigned long active = lruvec_lru_size(pgdat, inactive_lru + 1);
	unsigned long gb = (inactive + active) >> (30 - PAGE_SHIFT);
	unsigned long ratio = gb ? int_sqrt_ul(10 * gb) : 1;

	return inactive * ratio < active;
}

/* folio_check_references(): folio_referenced() counts the mappings whose
 * pte was young (clearing them) and the flags of their areas.  A page
 * referenced through its ptes is marked referenced and kept for another
 * trip round the inactive list, or activated if it was referenced before,
 * is mapped young by more than one process, or is executable file text
 * (activated after its first use).  An unmapped page cache page
 * referenced once through read() is reclaimed (clean). */
static enum page_references folio_check_references(struct pglist_data *pgdat, struct page *p,
                                                   struct scan_control *sc)
{
	unsigned vm_flags;
	int referenced_ptes = folio_referenced(pgdat, sc->ctx, p, &vm_flags);
	bool referenced_page = test_clear(p, PG_referenced);
	bool file = !PageTest(p, PG_swapbacked);

	if (referenced_ptes) {
		SetPageFlag(p, PG_referenced);
		if (referenced_page || referenced_ptes > 1)
			return PAGEREF_ACTIVATE;
		if ((vm_flags & VM_EXEC) && file)
			return PAGEREF_ACTIVATE;
		return PAGEREF_KEEP;
	}
	if (referenced_page && file)
		return PAGEREF_RECLAIM_CLEAN;
	return PAGEREF_RECLAIM;
}


static void putback(struct pglist_data *pgdat, unsigned long pfn, bool active)
{
	struct page *p = &pgdat->mem_map[pfn];
	if (active) {
		SetPageFlag(p, PG_active);
		count_vm_events(pgdat, PGACTIVATE, folio_nr_pages(p));   /* in pages, as v6.2 */
		/* move_folios_to_lru(): an active page put back ages the
		 * workingset clock */
		workingset_age_nonresident(pgdat, folio_nr_pages(p));
	}
	lruvec_add_page(pgdat, pfn, false);
}

/* isolate_lru_folios(), one page at a time: the oldest page of the list,
 * or LRU_EMPTY; a page of a zone above the reclaim index is rotated to the
 * head instead and LRU_SKIPPED returned */
#define LRU_EMPTY   PFN_NONE
#define LRU_SKIPPED (PFN_NONE - 1)
static uint32_t isolate_lru_page(struct pglist_data *pgdat, enum lru_list lru, struct scan_control *sc)
{
	uint32_t head = pgdat->lruvec.lists[lru];
	uint32_t pfn = pgdat->mem_map[head].prev;

	if (pfn == head)
		return LRU_EMPTY;
	lruvec_del_page(pgdat, pfn);
	/* the next isolation from this list writes the predecessor of its
	 * new tail: prefetch it (no effect on the model) */
	if (pgdat->mem_map[head].prev != head)
		prefetch_pfn(pgdat, pgdat->mem_map[pgdat->mem_map[head].prev].prev);
	if (page_zonenum(&pgdat->mem_map[pfn]) > sc->reclaim_idx) {
		lruvec_add_page(pgdat, pfn, false);
		return LRU_SKIPPED;
	}
	sc->ctx->kernel_ns += pgdat->costs.lru_scan_ns;
	/* isolate_lru_folios() runs under the LRU lock */
	sc->ctx->locked_ns += pgdat->costs.lru_scan_ns;
	sc->ctx->lru_locked = true;
	return pfn;
}

/*
 * shrink_folio_list() for one isolated page: activate, keep, write out or
 * free it.  Returns the pages freed: 1, or a large file folio's pages.
 * A THP that has to be swapped is split first (no THP swap cluster in
 * this model: add_to_swap() fails for the folio); split_folio_to_list() puts its tail pages on the
 * list being reclaimed, so they are reclaimed in this same pass without
 * being scanned again (their scan was counted with the THP's 512 pages):
 * the caller's *tail is set to the first tail pfn.
 */
static unsigned long shrink_page(struct pglist_data *pgdat, unsigned long pfn, bool file,
                                 struct scan_control *sc, unsigned long *nr_pageout,
                                 unsigned long *tail)
{
	const struct mm_costs *c = &pgdat->costs;
	struct page *p = &pgdat->mem_map[pfn];
	enum page_references ref = folio_check_references(pgdat, p, sc);

	if (ref == PAGEREF_ACTIVATE) {
		putback(pgdat, pfn, true);
		return 0;
	}
	if (ref == PAGEREF_KEEP) {
		putback(pgdat, pfn, false);
		return 0;
	}
	if (PageTest(p, PG_writeback)) {
		/* still being written (a swap cache page mapped back before
		 * its write ended): never a second write; mark it for
		 * reclaim and activate it, as v6.2 does */
		putback(pgdat, pfn, true);
		return 0;
	}
	if (p->owner == PGOWN_SHMEM) {
		/* pageout() -> shmem_writepage(): to the swap cache, written;
		 * once written it comes back to the tail and is freed then
		 * (not with !may_writepage: kept; no swap: activated) */
		if (!sc->may_writepage) {
			putback(pgdat, pfn, false);
			return 0;
		}
		if (!shmem_writepage(pgdat, pfn)) {
			putback(pgdat, pfn, true);
			return 0;
		}
		sc->ctx->kernel_ns += c->pageout_ns;
		(*nr_pageout)++;
		return 0;
	}
	if (!file && !p->mapcount) {
		/* a clean swap cache page whose write has completed (rotated
		 * to the tail by end_page_writeback): drop it from the swap
		 * cache and free it */
		swap_cache_delete(pgdat, pfn);
		pgdat->swap.fate.reclaimed++;
		goto free;
	}
	if (!file) {
		if (PageHead(p) && sc->may_swap && sc->may_unmap) {
			split_huge_page(pgdat, pfn);
			count_vm_events(pgdat, THP_SWPOUT_FALLBACK, 1);
			*tail = pfn + 1;
		}
		/* add_to_swap(), try_to_unmap(), pageout(): the page stays
		 * under writeback; once written it comes back to the tail of
		 * this list and is freed then */
		if (!sc->may_swap || !sc->may_unmap || !try_to_swap_out(pgdat, pfn, ctx_delay(sc->ctx))) {
			putback(pgdat, pfn, true);
			return 0;
		}
		sc->ctx->kernel_ns += c->unmap_ns + c->pageout_ns;
		(*nr_pageout)++;
		return 0;
	}
	/* a mapped file page: try_to_unmap() clears the pte of every
	 * process that maps it before the page can go */
	if (p->mapcount) {
		if (!sc->may_unmap) {
			putback(pgdat, pfn, false);
			return 0;
		}
		try_to_unmap(pgdat, sc->ctx, pfn);
	}
	if (PageTest(p, PG_dirty)) {
		/* only kswapd writes file pages, and only those it met dirty
		 * before; the others are marked and activated */
		if (sc->kswapd && sc->may_writepage && PageTest(p, PG_reclaim)) {
			ClearPageFlag(p, PG_reclaim);
			file_page_written(pgdat, pfn);
			mod_node_page_state(pgdat, NR_VMSCAN_WRITE, 1);
			sc->ctx->kernel_ns += c->pageout_ns;
			(*nr_pageout)++;
			putback(pgdat, pfn, false);
		} else {
			SetPageFlag(p, PG_reclaim);
			putback(pgdat, pfn, true);
		}
		return 0;
	}
	ClearPageFlag(p, PG_reclaim);
	remove_mapping(pgdat, pfn, true);
	if (PageHead(p)) {
		/* a large page-cache folio (never mapped or dirty in the
		 * model) goes whole: its pages are reclaimed together */
		unsigned long nr = folio_nr_pages(p);

		filemap_free_folio(pgdat, sc->ctx, p);
		return nr;
	}
free:
	__free_pages(pgdat, sc->ctx, p, 0);
	return 1;
}

/* too_many_isolated(): more pages isolated from this type's LRU by the
 * direct reclaimers and compactors at work than it has inactive pages
 * (an eighth of them for a request that may do IO and FS: such callers
 * must not block GFP_NOIO/NOFS reclaimers).  kswapd is never throttled.
 * The isolated pages are the batches the other tasks are spending the
 * time of (sched.c). */
static bool too_many_isolated(struct pglist_data *pgdat, bool file, const struct scan_control *sc)
{
	unsigned long inactive, isolated;
	bool too_many;

	if (sc->kswapd)
		return false;
	inactive = lruvec_lru_size(pgdat, file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON);
	isolated = (unsigned long)node_page_state(pgdat, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON);
	if ((sc->gfp_mask & (__GFP_IO | __GFP_FS)) == (__GFP_IO | __GFP_FS))
		inactive >>= 3;
	too_many = isolated > inactive;
	if (!too_many)
		wake_throttle_isolated(pgdat);
	return too_many;
}

/* shrink_inactive_list(): isolate_lru_folios() takes pages from the tail
 * until nr_to_scan pages are scanned, a THP counting its 512 (so one THP
 * fills a SWAP_CLUSTER_MAX batch), then shrink_folio_list() */
static unsigned long shrink_inactive_list(struct pglist_data *pgdat, unsigned long nr_to_scan,
                                          enum lru_list lru, struct scan_control *sc)
{
	bool file = is_file_lru(lru);
	unsigned long nr_taken = 0, nr_reclaimed = 0, nr_pageout = 0;
	/* pages of zones above reclaim_idx are rotated, not scanned: once
	 * the whole list has gone by, stop (the kernel sets them aside, so
	 * its list runs out) */
	unsigned long skip_budget = lruvec_lru_size(pgdat, lru);
	bool stalled = false;

	/* other reclaimers hold many pages: wait once for them, then give up */
	while (too_many_isolated(pgdat, file, sc)) {
		if (stalled)
			return 0;
		stalled = true;
		reclaim_throttle_isolated(pgdat, sc->ctx);
		if (fatal_signal_pending(sc->ctx))
			return SWAP_CLUSTER_MAX;
	}
	while (nr_taken < nr_to_scan) {
		uint32_t pfn = isolate_lru_page(pgdat, lru, sc);
		unsigned long tail = 0;

		if (pfn == LRU_EMPTY)
			break;
		if (pfn == LRU_SKIPPED) {
			if (!skip_budget--)
				break;
			continue;
		}
		nr_taken += folio_nr_pages(&pgdat->mem_map[pfn]);
		nr_reclaimed += shrink_page(pgdat, pfn, file, sc, &nr_pageout, &tail);
		/* a split THP's tails, on the list being reclaimed */
		for (unsigned long t = 0; tail && t < PTRS_PER_PTE - 1; t++)
			nr_reclaimed += shrink_page(pgdat, tail + t, file, sc, &nr_pageout, &(unsigned long){ 0 });
	}
	sc->ctx->isolated[file] = nr_taken;        /* the batch, while its time is spent */
	count_vm_events(pgdat, sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, nr_taken);
	count_vm_events(pgdat, file ? PGSCAN_FILE : PGSCAN_ANON, nr_taken);
	count_vm_events(pgdat, sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, nr_reclaimed);
	count_vm_events(pgdat, file ? PGSTEAL_FILE : PGSTEAL_ANON, nr_reclaimed);
	sc->nr_scanned += nr_taken;
	lru_note_cost(pgdat, file, nr_pageout, nr_taken > nr_reclaimed ? nr_taken - nr_reclaimed : 0);
	return nr_reclaimed;
}

/* shrink_active_list(): the oldest active pages lose their accessed bits
 * (folio_referenced) and go to the inactive list, except referenced
 * executable file pages, which go round the active list once more so that
 * program text survives moderate pressure (anon VM_EXEC pages do not get
 * this) */
static void shrink_active_list(struct pglist_data *pgdat, unsigned long nr_to_scan,
                               enum lru_list lru, struct scan_control *sc)
{
	unsigned long nr_taken = 0, nr_deactivate = 0, nr_rotated = 0, skip_budget = lruvec_lru_size(pgdat, lru);
	bool file = is_file_lru(lru);

	while (nr_taken < nr_to_scan) {
		uint32_t pfn = isolate_lru_page(pgdat, lru, sc);
		unsigned vm_flags;
		struct page *p;

		if (pfn == LRU_EMPTY)
			break;
		if (pfn == LRU_SKIPPED) {
			if (!skip_budget--)         /* see shrink_inactive_list() */
				break;
			continue;
		}
		p = &pgdat->mem_map[pfn];
		nr_taken += folio_nr_pages(p);
		if (folio_referenced(pgdat, sc->ctx, p, &vm_flags) && (vm_flags & VM_EXEC) && file) {
			nr_rotated += folio_nr_pages(p);
			lruvec_add_page(pgdat, pfn, false);
			workingset_age_nonresident(pgdat, folio_nr_pages(p));   /* move_folios_to_lru() */
			continue;
		}
		ClearPageFlag(p, PG_young);         /* an unmapped page's, if any */
		ClearPageFlag(p, PG_active);
		SetPageFlag(p, PG_workingset);
		lruvec_add_page(pgdat, pfn, false);
		nr_deactivate += folio_nr_pages(p);
	}
	sc->ctx->isolated[is_file_lru(lru)] = nr_taken;
	count_vm_events(pgdat, PGREFILL, nr_taken);
	count_vm_events(pgdat, PGDEACTIVATE, nr_deactivate);
	if (nr_rotated)
		lru_note_cost(pgdat, file, 0, nr_rotated);
}

/* one shrink_active_list() call as direct reclaim makes it: for tests,
 * which cannot otherwise run it alone (reclaim goes on to the inactive
 * list and to other priorities) */
void shrink_active_list_direct(struct pglist_data *pgdat, struct mm_ctx *ctx, enum lru_list lru,
                               unsigned long nr_to_scan)
{
	struct scan_control sc = { .ctx = ctx, .gfp_mask = GFP_KERNEL, .reclaim_idx = MAX_NR_ZONES - 1,
	                           .may_unmap = true, .may_swap = true, .priority = DEF_PRIORITY };

	shrink_active_list(pgdat, nr_to_scan, lru, &sc);
}

static unsigned long shrink_list(struct pglist_data *pgdat, enum lru_list lru, unsigned long nr_to_scan,
                                 struct scan_control *sc)
{
	if (is_active_lru(lru)) {
		if (sc->may_deactivate & (1u << is_file_lru(lru)))
			shrink_active_list(pgdat, nr_to_scan, lru, sc);
		else
			sc->skipped_deactivate = true;
		return 0;
	}
	return shrink_inactive_list(pgdat, nr_to_scan, lru, sc);
}

enum scan_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

static void get_scan_count(struct pglist_data *pgdat, struct scan_control *sc, unsigned long nr[NR_LRU_LISTS])
{
	int swappiness = pgdat->sysctl.swappiness;
	unsigned long fraction[2] = { 0, 0 }, denominator = 0;
	enum scan_balance balance;

	if (!can_reclaim_anon_pages(pgdat, sc))
		balance = SCAN_FILE;
	else if (!sc->priority && swappiness)
		balance = SCAN_EQUAL;           /* close to OOM: no cleverness */
	else if (sc->file_is_tiny)
		balance = SCAN_ANON;
	else if (sc->cache_trim_mode)
		balance = SCAN_FILE;
	else {
		/* the type whose reclaim costs less IO gets more pressure */
		unsigned long total = sc->anon_cost + sc->file_cost;
		unsigned long anon_cost = total + sc->anon_cost, file_cost = total + sc->file_cost;
		unsigned long ap, fp;
		total = anon_cost + file_cost;
		ap = (unsigned long)swappiness * (total + 1) / (anon_cost + 1);
		fp = (unsigned long)(200 - swappiness) * (total + 1) / (file_cost + 1);
		fraction[0] = ap;
		fraction[1] = fp;
		denominator = ap + fp;
		balance = SCAN_FRACT;
	}
	for (int lru = 0; lru < LRU_UNEVICTABLE; lru++) {
		bool file = is_file_lru((enum lru_list)lru);
		unsigned long scan = lruvec_lru_size(pgdat, (enum lru_list)lru) >> sc->priority;

		switch (balance) {
		case SCAN_EQUAL:
			break;
		case SCAN_FRACT:
			scan = denominator ? (scan * fraction[file] + denominator - 1) / denominator : 0;
			break;
		case SCAN_FILE:
		case SCAN_ANON:
			if ((balance == SCAN_FILE) != file)
				scan = 0;
			break;
		}
		nr[lru] = scan;
	}
}

static void shrink_lruvec(struct pglist_data *pgdat, struct scan_control *sc)
{
	unsigned long nr[NR_LRU_LISTS] = { 0 }, targets[NR_LRU_LISTS];
	unsigned long nr_reclaimed = 0, nr_to_reclaim = sc->nr_to_reclaim;
	bool proportional_reclaim;

	get_scan_count(pgdat, sc, nr);
	memcpy(targets, nr, sizeof(nr));
	/* direct reclaim at DEF_PRIORITY does a batch of work at once */
	proportional_reclaim = !sc->kswapd && sc->priority == DEF_PRIORITY;

	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		unsigned long nr_anon, nr_file, percentage, nr_scanned;
		int lru;

		for (lru = 0; lru < LRU_UNEVICTABLE; lru++) {
			if (nr[lru]) {
				unsigned long n = nr[lru] < SWAP_CLUSTER_MAX ? nr[lru] : SWAP_CLUSTER_MAX;
				nr[lru] -= n;
				nr_reclaimed += shrink_list(pgdat, (enum lru_list)lru, n, sc);
			}
		}
		/* v6.2's cond_resched() after each round of batches: the
		 * others allocate and reclaim meanwhile; the lists are read
		 * again by the next round */
		cond_resched(pgdat, sc->ctx);
		/* the pass lasts its kernel time: the swap writes that have
		 * completed by this point of it are at the tail of the
		 * inactive list for the next round to free, as v6.2's
		 * end_page_writeback() -> folio_rotate_reclaimable() puts them
		 * while the pass goes on (else kswapd's pass, at one instant,
		 * wrote a priority's whole budget before freeing any) */
		if (pgdat->swap.wb_len)
			swap_writeback_complete_by(pgdat, pgdat_now(pgdat) + ctx_delay(sc->ctx), false);
		if (nr_reclaimed < nr_to_reclaim || proportional_reclaim)
			continue;
		/* enough reclaimed: stop the smaller type, scale the other to
		 * the share of its target already scanned */
		nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
		nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		if (nr_file > nr_anon) {
			percentage = nr_anon * 100 / (targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1);
			lru = LRU_INACTIVE_ANON;
		} else {
			percentage = nr_file * 100 / (targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1);
			lru = LRU_INACTIVE_FILE;
		}
		nr[lru] = nr[lru + 1] = 0;
		lru = lru == LRU_INACTIVE_FILE ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
		for (int k = lru; k <= lru + 1; k++) {
			nr_scanned = targets[k] - nr[k];
			nr[k] = targets[k] * (100 - percentage) / 100;
			nr[k] -= nr[k] < nr_scanned ? nr[k] : nr_scanned;
		}
	}
	sc->nr_reclaimed += nr_reclaimed;
	/* age the anon lists even when not reclaiming from them */
	if (can_reclaim_anon_pages(pgdat, sc) && inactive_is_low(pgdat, LRU_INACTIVE_ANON))
		shrink_active_list(pgdat, SWAP_CLUSTER_MAX, LRU_ACTIVE_ANON, sc);
}

static void prepare_scan_count(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct lruvec *l = &pgdat->lruvec;
	unsigned long file, free = 0, total_high_wmark = 0;

	sc->anon_cost = l->anon_cost;
	sc->file_cost = l->file_cost;
	if (!sc->force_deactivate) {
		/* refaults mean a new workingset: deactivate stale pages */
		if ((unsigned long)node_page_state(pgdat, WORKINGSET_ACTIVATE_ANON) != l->refaults[0] ||
		    inactive_is_low(pgdat, LRU_INACTIVE_ANON))
			sc->may_deactivate |= DEACTIVATE_ANON;
		else
			sc->may_deactivate &= ~DEACTIVATE_ANON;
		if ((unsigned long)node_page_state(pgdat, WORKINGSET_ACTIVATE_FILE) != l->refaults[1] ||
		    inactive_is_low(pgdat, LRU_INACTIVE_FILE))
			sc->may_deactivate |= DEACTIVATE_FILE;
		else
			sc->may_deactivate &= ~DEACTIVATE_FILE;
	} else {
		sc->may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
	}
	/* plenty of inactive cache that is not thrashing: trim it first */
	file = lruvec_lru_size(pgdat, LRU_INACTIVE_FILE);
	sc->cache_trim_mode = (file >> sc->priority) && !(sc->may_deactivate & DEACTIVATE_FILE);
	/* the cache trap: a tiny thrashing file LRU is no better target */
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];
		if (!populated_zone(zone))
			continue;
		total_high_wmark += high_wmark_pages(zone);
		free += (unsigned long)zone_page_state(zone, NR_FREE_PAGES);
	}
	file = lruvec_lru_size(pgdat, LRU_ACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_INACTIVE_FILE);
	sc->file_is_tiny = file + free <= total_high_wmark && !(sc->may_deactivate & DEACTIVATE_ANON) &&
	                   (lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) >> sc->priority);
}

/* in_reclaim_compaction() and should_continue_reclaim(): reclaim for a
 * high-order request goes on until compaction could run */
static bool should_continue_reclaim(struct pglist_data *pgdat, unsigned long nr_reclaimed,
                                    struct scan_control *sc)
{
	unsigned long inactive;

	if (!pgdat->config_compaction || !sc->order ||
	    !(sc->order > PAGE_ALLOC_COSTLY_ORDER || sc->priority < DEF_PRIORITY - 2))
		return false;
	if (!nr_reclaimed)
		return false;
	for (int z = 0; z <= (int)sc->reclaim_idx; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		if (!populated_zone(zone))
			continue;
		switch (compaction_suitable(zone, sc->order, 0, sc->reclaim_idx)) {
		case COMPACT_SUCCESS:
		case COMPACT_CONTINUE:
			return false;
		default:
			break;
		}
	}
	inactive = lruvec_lru_size(pgdat, LRU_INACTIVE_FILE);
	if (can_reclaim_anon_pages(pgdat, sc))
		inactive += lruvec_lru_size(pgdat, LRU_INACTIVE_ANON);
	return inactive > compact_gap((unsigned)sc->order);
}

/* reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK): with more pages under
 * writeback than the reclaimer is asked to free, it waits (at most HZ/10)
 * until enough of them have completed.  In the kernel the pages under
 * writeback stay on the LRU, and a reclaimer that meets them again
 * throttles; the model keeps them aside, so it bounds the writes in flight
 * by what the reclaimer is after. */
static void reclaim_throttle(struct pglist_data *pgdat, struct scan_control *sc)
{
	unsigned long in_flight = pgdat->swap.wb_len;
	double wait;

	if (in_flight <= sc->nr_to_reclaim)
		return;
	wait = swap_writeback_wait(pgdat, in_flight - sc->nr_to_reclaim);
	if (wait > 0.1)
		wait = 0.1;
	if (mm_host_op(pgdat, sleep) && wait > 0) {
		struct mm_ctx *cur = mm_current();
		pgdat->host_ops->sleep(pgdat, wait);
		mm_set_current(cur);
	}
	swap_writeback_complete(pgdat, false);
}

static void shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	unsigned long nr_reclaimed;
	bool reclaimable = false;

	swap_writeback_complete(pgdat, false);
	do {
		nr_reclaimed = sc->nr_reclaimed;
		prepare_scan_count(pgdat, sc);
		shrink_lruvec(pgdat, sc);
		/* the shrinkers need __GFP_FS; slab pages freed count as reclaimed */
		if (sc->gfp_mask & __GFP_FS)
			sc->nr_reclaimed += shrink_slab(pgdat, sc->ctx, sc->priority);
		if (sc->nr_reclaimed - nr_reclaimed)
			reclaimable = true;
		reclaim_throttle(pgdat, sc);
	} while (should_continue_reclaim(pgdat, sc->nr_reclaimed - nr_reclaimed, sc));
	if (reclaimable)
		pgdat->kswapd_failures = 0;
}

static void snapshot_refaults(struct pglist_data *pgdat)
{
	pgdat->lruvec.refaults[0] = (unsigned long)node_page_state(pgdat, WORKINGSET_ACTIVATE_ANON);
	pgdat->lruvec.refaults[1] = (unsigned long)node_page_state(pgdat, WORKINGSET_ACTIVATE_FILE);
}

/* compaction_ready(): does this zone have room for a costly request's
 * compaction, so that reclaiming for it can stop? */
static bool compaction_ready(struct zone *zone, struct scan_control *sc)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	enum compact_result suitable = compaction_suitable(zone, sc->order, 0, sc->reclaim_idx);
	unsigned long watermark;

	/* the allocation should succeed already: do not reclaim */
	if (suitable == COMPACT_SUCCESS)
		return true;
	/* compaction cannot proceed yet: reclaim */
	if (suitable == COMPACT_SKIPPED)
		return false;
	/* defrag_mode 1/5 (6.15): the two checks are one compaction_suitable()
	 * at the high watermark, so costly orders add the low-min distance to
	 * high + gap */
	if (mm_policy_has(pgdat->policy, MMF_COMPACTION_SUITABLE_CALLER_WMARK))
		return compaction_suitable_targets(zone, sc->order, sc->reclaim_idx, high_wmark_pages(zone)) ==
		       COMPACT_CONTINUE;
	/* compaction could run; reclaim on to the high watermark plus the
	 * gap, counted in the free pages compaction can migrate to (v6.2: all
	 * of them; RFC 16/26: those in movable blocks) */
	watermark = high_wmark_pages(zone) + compact_gap((unsigned)sc->order);
	return pol(pgdat)->compaction_suitable_free_pages(pgdat->policy, zone) >
	       (long)watermark + zone->lowmem_reserve[sc->reclaim_idx];
}

/* shrink_zones(): a costly request skips the zones that are
 * compaction-ready and shrinks the node for the others (v6.2: once, the
 * pass after which do_try_to_free_pages() stops); RFC 21/26 checks every
 * zone first and does not shrink at all when one is ready */
static void shrink_zones(struct pglist_data *pgdat, struct scan_control *sc)
{
	bool any_ready = false, all_ready = false;

	if (pgdat->config_compaction && sc->order > PAGE_ALLOC_COSTLY_ORDER) {
		all_ready = true;
		for (int z = 0; z <= (int)sc->reclaim_idx; z++) {
			struct zone *zone = &pgdat->node_zones[z];
			if (!populated_zone(zone))
				continue;
			if (compaction_ready(zone, sc))
				any_ready = true;
			else
				all_ready = false;
		}
	}
	if (any_ready)
		sc->compaction_ready = true;
	if (all_ready || (any_ready && mm_policy_has(pgdat->policy, MMF_COMPACTION_READY_BEFORE_ZONES)))
		return;
	shrink_node(pgdat, sc);
}

static unsigned long do_try_to_free_pages(struct pglist_data *pgdat, struct scan_control *sc)
{
	int initial_priority = sc->priority;

retry:
	/* every pass counts, the forced-deactivation retry too (v6.2) */
	count_vm_events(pgdat, ALLOCSTALL_DMA + zone_event_idx(sc->reclaim_idx), 1);
	do {
		sc->nr_scanned = 0;
		shrink_zones(pgdat, sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
		if (sc->compaction_ready)
			break;
		/* stuck: write dirty pages too */
		if (sc->priority < DEF_PRIORITY - 2)
			sc->may_writepage = true;
	} while (--sc->priority >= 0);
	snapshot_refaults(pgdat);
	if (sc->nr_reclaimed)
		return sc->nr_reclaimed;
	if (sc->compaction_ready)
		return 1;
	/* nothing reclaimed and active lists were left alone: once more,
	 * deactivating */
	if (sc->skipped_deactivate) {
		sc->priority = initial_priority;
		sc->force_deactivate = true;
		sc->skipped_deactivate = false;
		goto retry;
	}
	return 0;
}

unsigned long try_to_free_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned order,
                                gfp_t gfp, enum zone_type highest_zoneidx)
{
	struct scan_control sc = {
		.ctx = ctx,
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp_mask = gfp,
		.order = (int)order,
		.priority = DEF_PRIORITY,
		.reclaim_idx = highest_zoneidx,
		.may_writepage = true,
		.may_unmap = true,
		.may_swap = true,
	};
	unsigned saved = ctx->flags;
	unsigned long nr;

	count_trace_event_gfp(pgdat, TRACE_DIRECT_RECLAIM_BEGIN, (int)order, gfp);
	ctx->flags |= PF_MEMALLOC;
	nr = do_try_to_free_pages(pgdat, &sc);
	ctx->flags = saved;
	return nr;
}

/* ------------------------------------------------------------------ */
/* kswapd */

bool pgdat_balanced(struct pglist_data *pgdat, int order, enum zone_type highest_zoneidx)
{
	bool any = false;

	/* any eligible zone at its high watermark balances the node */
	for (int i = 0; i <= (int)highest_zoneidx && i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		if (!populated_zone(zone))
			continue;
		any = true;
		/* defrag_mode 5/5: a high order is balanced only by whole free
		 * blocks (NR_FREE_PAGES_BLOCKS); as 5/5 was posted, order 0 too,
		 * so that kswapd, once kswapd_shrink_node() has dropped the
		 * order, still reclaimed until the blocks were there ("fix
		 * kswapd exit condition in defrag_mode" counts all free pages
		 * at order 0) */
		if ((order || mm_policy_has(pgdat->policy, MMF_KSWAPD_FREE_BLOCKS_ORDER0)) &&
		    mm_policy_has(pgdat->policy, MMF_KSWAPD_BALANCE_FREE_BLOCKS)) {
			if (zone_watermark_ok_free(zone, (unsigned)order, high_wmark_pages(zone), highest_zoneidx, 0,
			                           zone_free_pages_blocks(zone)))
				return true;
		} else if (zone_watermark_ok(pgdat, zone, (unsigned)order, high_wmark_pages(zone), highest_zoneidx, 0))
			return true;
		/* RFC 20/26: the allocation can't succeed, but there is
		 * enough order-0 memory for compaction to go on (RFC 17/26's
		 * compaction_suitable(): the migration targets alone; the
		 * v6.2 form says SUCCESS whenever the order is free at the
		 * min watermark, and kswapd would reclaim on) */
		if (order && mm_policy_has(pgdat->policy, MMF_KSWAPD_COMPACTION_SUITABLE) &&
		    compaction_suitable_targets(zone, order, highest_zoneidx, min_wmark_pages(zone)) == COMPACT_CONTINUE)
			return true;
	}
	return !any;
}

static bool pgdat_watermark_boosted(const struct pglist_data *pgdat, enum zone_type highest_zoneidx)
{
	for (int i = (int)highest_zoneidx; i >= 0; i--)
		if (pgdat->node_zones[i].watermark_boost)
			return true;
	return false;
}

/* v6.2 wakeup_kswapd(): a balanced node wakes kcompactd only for requests
 * that cannot compact by themselves */
bool wakeup_kswapd_wakes_kcompactd(const struct mm_policy *p, gfp_t gfp)
{
	(void)p;
	return !(gfp & __GFP_DIRECT_RECLAIM);
}

void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = zone->zone_pgdat;

	if (!populated_zone(zone))
		return;
	if (pgdat->kswapd_highest_zoneidx == MAX_NR_ZONES ||
	    pgdat->kswapd_highest_zoneidx < highest_zoneidx)
		pgdat->kswapd_highest_zoneidx = highest_zoneidx;
	if (pgdat->kswapd_order < order)
		pgdat->kswapd_order = order;
	/* kswapd at work (not on its wait queue: !waitqueue_active()) reads
	 * the order and zone just recorded before it sleeps; nothing more is
	 * done here, not even the balance test that may wake kcompactd.  A
	 * pgdat without a host has no kswapd actor: it is always "asleep". */
	if (mm_host_op(pgdat, kswapd_wake) && !pgdat->kswapd_sleeping)
		return;
	/* hopeless, or balanced and not boosted: there may be plenty of free
	 * memory, too fragmented for the order: kcompactd may help */
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES ||
	    (pgdat_balanced(pgdat, order, highest_zoneidx) &&
	     !(pol(pgdat)->boost_watermark && pgdat_watermark_boosted(pgdat, highest_zoneidx)))) {
		if (pol(pgdat)->wakeup_kswapd_wakes_kcompactd(pgdat->policy, gfp))
			wakeup_kcompactd(pgdat, order, highest_zoneidx);
		return;
	}
	pgdat->kswapd_wakeups++;
	count_trace_event_gfp(pgdat, TRACE_WAKEUP_KSWAPD, order, gfp);
	if (mm_host_op(pgdat, kswapd_wake)) {
		/* a wake-up is a SimGrid simcall: other actors may run before
		 * this one resumes, and leave their context current */
		struct mm_ctx *cur = mm_current();
		pgdat->host_ops->kswapd_wake(pgdat);
		mm_set_current(cur);
	}
}

bool kswapd_keeps_order(const struct pglist_data *pgdat)
{
	return mm_policy_has(pgdat->policy, MMF_KSWAPD_COMPACTION_SUITABLE);
}

void kswapd_take_request(struct pglist_data *pgdat, int *order, enum zone_type *highest_zoneidx)
{
	*order = pgdat->kswapd_order;
	*highest_zoneidx = pgdat->kswapd_highest_zoneidx;
	pgdat->kswapd_order = 0;
	pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
}

static void set_reclaim_active(struct pglist_data *pgdat, enum zone_type highest, bool on)
{
	for (int i = 0; i <= (int)highest; i++) {
		if (on)
			pgdat->node_zones[i].flags |= 1ul << ZONE_RECLAIM_ACTIVE;
		else
			pgdat->node_zones[i].flags &= ~(1ul << ZONE_RECLAIM_ACTIVE);
	}
}

void balance_pgdat_begin(struct pglist_data *pgdat, struct kswapd_run *r, int order,
                         enum zone_type highest_zoneidx)
{
	memset(r, 0, sizeof(*r));
	if (highest_zoneidx >= MAX_NR_ZONES)
		highest_zoneidx = MAX_NR_ZONES - 1;
	r->order = r->alloc_order = order;
	r->highest_zoneidx = highest_zoneidx;
	r->priority = DEF_PRIORITY;
	count_vm_events(pgdat, PAGEOUTRUN, 1);
	/* watermark boost: reclaim what the boost asks, without IO */
	for (int i = 0; i <= (int)highest_zoneidx; i++) {
		r->zone_boosts[i] = pgdat->node_zones[i].watermark_boost;
		r->nr_boost_reclaim += r->zone_boosts[i];
	}
	r->boosted = r->nr_boost_reclaim != 0;
	set_reclaim_active(pgdat, highest_zoneidx, true);
	pgdat->kswapd_running = true;
}

void balance_pgdat_step(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kswapd_run *r)
{
	struct scan_control sc = {
		.ctx = ctx,
		.gfp_mask = GFP_KERNEL,
		.order = r->order,
		.priority = r->priority,
		.may_unmap = true,
		.kswapd = true,
	};
	bool balanced, raise_priority = true;
	unsigned long nr_reclaimed;

	if (r->done)
		return;
	/* the highest populated zone the request may use */
	sc.reclaim_idx = r->highest_zoneidx;
	while (sc.reclaim_idx > 0 && !populated_zone(&pgdat->node_zones[sc.reclaim_idx]))
		sc.reclaim_idx--;

	balanced = pgdat_balanced(pgdat, sc.order, r->highest_zoneidx);
	if (!balanced && r->nr_boost_reclaim) {
		/* the node needs real reclaim: drop the boost restriction */
		r->nr_boost_reclaim = 0;
		r->priority = sc.priority = DEF_PRIORITY;
	}
	if (!r->nr_boost_reclaim && balanced) {
		r->done = true;
		return;
	}
	/* boosted reclaim does not go deep enough to write */
	if (r->nr_boost_reclaim && sc.priority == DEF_PRIORITY - 2)
		raise_priority = false;
	sc.may_writepage = !r->nr_boost_reclaim;
	sc.may_swap = !r->nr_boost_reclaim;
	/* background aging of the anon lists */
	if (can_reclaim_anon_pages(pgdat, &sc) && inactive_is_low(pgdat, LRU_INACTIVE_ANON))
		shrink_active_list(pgdat, SWAP_CLUSTER_MAX, LRU_ACTIVE_ANON, &sc);
	if (sc.priority < DEF_PRIORITY - 2)
		sc.may_writepage = true;

	/* kswapd_shrink_node(): the high watermarks' worth of pages */
	sc.nr_to_reclaim = 0;
	for (int z = 0; z <= (int)sc.reclaim_idx; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		if (populated_zone(zone))
			sc.nr_to_reclaim += high_wmark_pages(zone) > SWAP_CLUSTER_MAX ? high_wmark_pages(zone)
			                                                              : SWAP_CLUSTER_MAX;
	}
	shrink_node(pgdat, &sc);
	/* fragmentation may keep a high order out of reach: once twice
	 * the request is reclaimed, balance for order 0 */
	nr_reclaimed = sc.nr_reclaimed;
	r->nr_reclaimed += nr_reclaimed;
	if (r->order && r->nr_reclaimed >= compact_gap((unsigned)r->order) &&
	    !mm_policy_has(pgdat->policy, MMF_KSWAPD_COMPACTION_SUITABLE))
		r->order = 0;
	if (sc.nr_scanned >= sc.nr_to_reclaim)
		raise_priority = false;

	r->nr_boost_reclaim -= r->nr_boost_reclaim < nr_reclaimed ? r->nr_boost_reclaim : nr_reclaimed;
	if (r->nr_boost_reclaim && !nr_reclaimed) {
		r->done = true;         /* boosting made no progress */
		return;
	}
	if (raise_priority || !nr_reclaimed)
		r->priority--;
	if (r->priority < 1)
		r->done = true;
}

void balance_pgdat_end(struct pglist_data *pgdat, struct kswapd_run *r)
{
	if (!r->nr_reclaimed)
		pgdat->kswapd_failures++;
	set_reclaim_active(pgdat, r->highest_zoneidx, false);
	pgdat->kswapd_running = false;
	/* the boost is paid off by what was reclaimed; kcompactd is woken at
	 * pageblock order to defragment what the fallback that boosted broke
	 * up (v6.2 balance_pgdat) */
	if (r->boosted) {
		for (int i = 0; i <= (int)r->highest_zoneidx; i++) {
			struct zone *zone = &pgdat->node_zones[i];
			zone->watermark_boost -= zone->watermark_boost < r->zone_boosts[i] ? zone->watermark_boost
			                                                                   : r->zone_boosts[i];
		}
		wakeup_kcompactd(pgdat, pageblock_order, r->highest_zoneidx);
	}
	snapshot_refaults(pgdat);
}
