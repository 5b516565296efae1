/* swap.c - the LRU lists (mm/swap.c): adding and removing pages with
 * their counters, mark_page_accessed, activation, and lru_note_cost, the
 * reclaim cost record that steers the anon/file scan balance.
 * Lists are per node (one lruvec, no memcg); a page is on one list, linked
 * through next/prev like the free lists; the head is the newest, the tail
 * the oldest.  A THP is one entry of 512 pages. */
#include "internal.h"

static inline long nr_pages_of(const struct page *p)
{
	return 1l << page_order(p);
}

unsigned long lruvec_lru_size(const struct pglist_data *pgdat, enum lru_list lru)
{
	return (unsigned long)pgdat->vm_node_stat[NR_INACTIVE_ANON + lru];
}

/* folio_activate(): move an inactive LRU page to the active list */
void activate_page(struct pglist_data *pgdat, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];

	if (!PageLRU(p) || PageTest(p, PG_active) || PageTest(p, PG_unevictable))
		return;
	lruvec_del_page(pgdat, pfn);
	SetPageFlag(p, PG_active);
	lruvec_add_page(pgdat, pfn, false);
	count_vm_events(pgdat, PGACTIVATE, (unsigned long)nr_pages_of(p));
	workingset_activation(pgdat, (unsigned long)nr_pages_of(p));
}

/* folio_mark_accessed(): inactive,unreferenced -> inactive,referenced ->
 * active,unreferenced (used by read() and write() hits) */
void folio_mark_accessed(struct pglist_data *pgdat, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];

	if (!PageTest(p, PG_referenced)) {
		SetPageFlag(p, PG_referenced);
	} else if (!PageTest(p, PG_active) && PageLRU(p) && !PageTest(p, PG_unevictable)) {
		activate_page(pgdat, pfn);
		ClearPageFlag(p, PG_referenced);
	}
}

/* lru_note_cost(): the cost of reclaiming a type, a floating average
 * halved when it grows past a quarter of the LRU pages.  v6.2 counts IO
 * alone (pageouts and workingset refaults, a page each); 6.12's
 * (MMF_LRU_COST_ROTATIONS) counts an IO as SWAP_CLUSTER_MAX and adds the
 * rotations, the pages reclaim scanned without reclaiming them, as a
 * secondary CPU cost: a type whose pages keep being used costs more to
 * scan even when it costs no IO. */
void lru_note_cost(struct pglist_data *pgdat, bool file, unsigned long nr_io, unsigned long nr_rotated)
{
	struct lruvec *l = &pgdat->lruvec;
	unsigned long lrusize = lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) +
	                        lruvec_lru_size(pgdat, LRU_ACTIVE_ANON) +
	                        lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) +
	                        lruvec_lru_size(pgdat, LRU_ACTIVE_FILE);
	unsigned long cost = nr_io;

	if (pgdat->policy && mm_policy_has(pgdat->policy, MMF_LRU_COST_ROTATIONS))
		cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated;
	if (file)
		l->file_cost += cost;
	else
		l->anon_cost += cost;
	if (l->file_cost + l->anon_cost > lrusize / 4) {
		l->file_cost /= 2;
		l->anon_cost /= 2;
	}
}

/* lru_note_cost_refault(): a workingset page faulted back is IO */
void lru_note_cost_refault(struct pglist_data *pgdat, bool file, unsigned long nr_pages)
{
	lru_note_cost(pgdat, file, nr_pages, 0);
}
