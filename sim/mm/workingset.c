/* workingset.c - refault detection (mm/workingset.c).
 *
 * The node keeps a clock, nonresident_age, that ticks on every eviction
 * and activation.  An evicted page leaves a shadow entry holding the clock
 * at its eviction and whether it was in the workingset (PG_workingset: it
 * had been active), as pack_shadow() does; when it is faulted back, the
 * refault distance (how many pages were evicted or activated meanwhile)
 * tells whether it would have stayed resident with the active list's share
 * of memory: if so it starts on the active list (workingset_activate_*),
 * and if it had been active it is a workingset page restored
 * (workingset_restore_*), whose refault is what reclaiming its type cost
 * (lru_note_cost).  Shadows keep 30 bits of the clock; distances are
 * taken modulo 2^30 as the kernel's are modulo its EVICTION_MASK. */
#include "internal.h"

#define SHADOW_WORKINGSET       (1u << 30)
#define SHADOW_EVICTION_MASK    (SHADOW_WORKINGSET - 1)

/* the shadow of a folio of nr_pages evicted now: the clock before the
 * eviction, which ticks by the folio's pages (workingset_age_nonresident
 * with folio_nr_pages) */
uint32_t workingset_eviction(struct pglist_data *pgdat, unsigned long pfn, unsigned long nr_pages)
{
	bool workingset = PageTest(&pgdat->mem_map[pfn], PG_workingset);
	uint32_t shadow = (uint32_t)(pgdat->lruvec.nonresident_age & SHADOW_EVICTION_MASK) |
	                  (workingset ? SHADOW_WORKINGSET : 0);

	pgdat->lruvec.nonresident_age += nr_pages;
	return shadow;
}

void workingset_activation(struct pglist_data *pgdat, unsigned long nr_pages)
{
	pgdat->lruvec.nonresident_age += nr_pages;
}

/* workingset_age_nonresident(): pages put back on an active list by
 * reclaim (move_folios_to_lru) tick the clock too */
void workingset_age_nonresident(struct pglist_data *pgdat, unsigned long nr_pages)
{
	pgdat->lruvec.nonresident_age += nr_pages;
}

/* a folio of nr_pages added over a shadow entry: counted in pages, as
 * the kernel counts it (folio_nr_pages) */
bool workingset_refault(struct pglist_data *pgdat, struct page *page, uint32_t shadow, bool file,
                        unsigned long nr_pages)
{
	unsigned long refault = pgdat->lruvec.nonresident_age & SHADOW_EVICTION_MASK;
	unsigned long distance = (refault - (shadow & SHADOW_EVICTION_MASK)) & SHADOW_EVICTION_MASK;
	unsigned long workingset_size;

	mod_node_page_state(pgdat, file ? WORKINGSET_REFAULT_FILE : WORKINGSET_REFAULT_ANON, (long)nr_pages);
	/* the workingset the page competed with: the active file list, plus,
	 * for anon, the inactive file list; plus anon lists while swap exists */
	workingset_size = lruvec_lru_size(pgdat, LRU_ACTIVE_FILE);
	if (!file)
		workingset_size += lruvec_lru_size(pgdat, LRU_INACTIVE_FILE);
	if (get_nr_swap_pages(pgdat) > 0) {
		workingset_size += lruvec_lru_size(pgdat, LRU_ACTIVE_ANON);
		if (file)
			workingset_size += lruvec_lru_size(pgdat, LRU_INACTIVE_ANON);
	}
	if (distance > workingset_size)
		return false;
	SetPageFlag(page, PG_active);
	mod_node_page_state(pgdat, file ? WORKINGSET_ACTIVATE_FILE : WORKINGSET_ACTIVATE_ANON, (long)nr_pages);
	workingset_activation(pgdat, nr_pages);
	/* it had been active before its eviction: a workingset page whose
	 * refault is the IO cost of having reclaimed its type */
	if (shadow & SHADOW_WORKINGSET) {
		SetPageFlag(page, PG_workingset);
		lru_note_cost_refault(pgdat, file, nr_pages);
		mod_node_page_state(pgdat, file ? WORKINGSET_RESTORE_FILE : WORKINGSET_RESTORE_ANON, (long)nr_pages);
	}
	return true;
}
