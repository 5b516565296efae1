/* migrate.c - page migration (mm/migrate.c): moving a page's contents and
 * every reference to it to another page.
 *
 * An anonymous page names its process and virtual page (mapping/index),
 * a page cache page its inode and offset, and a swap cache page its slot
 * (private); a mapped page cache page is found in the ptes of the areas
 * of its file's i_mmap (rmap.c).  Migration rewrites the entries that
 * point at the page, copies the page's state
 * (folio_migrate_flags: active, referenced, young, dirty, workingset...),
 * and puts the new page on the LRU list the old one was isolated from, at
 * its head, as putback after migration does.
 */
#include "internal.h"

/* the checks of isolate_migratepages_block() on an LRU page */
bool page_migratable(const struct pglist_data *pgdat, const struct page *p, gfp_t gfp)
{
	(void)pgdat;
	/* long-term pinned pages cannot move (page_count > mapcount) */
	if (PageTest(p, PG_pinned))
		return false;
	/* under writeback: the model keeps such pages off the LRU anyway */
	if (PageTest(p, PG_writeback))
		return false;
	/* GFP_NOFS callers migrate only anonymous pages (no fs locks) */
	if (!(gfp & __GFP_FS) && (p->owner == PGOWN_FILE || p->owner == PGOWN_BDEV))
		return false;
	return true;
}

void migrate_page(struct pglist_data *pgdat, unsigned long src, unsigned long dst)
{
	struct page *old = &pgdat->mem_map[src], *new = &pgdat->mem_map[dst];
	uint32_t keep = new->flags & PAGE_ZONE_MASK;
	uint32_t entry = ENTRY_PRESENT | (uint32_t)dst;
	bool movable = __PageMovable(old);

	VM_BUG_ON(PageBuddy(old) || PagePcp(old) || PageLRU(old) || PageHead(old) || PageTail(old));
	/* folio_migrate_flags() and the mapping's fields */
	new->flags = keep | (old->flags & ~(PAGE_ZONE_MASK | PAGE_ORDER_MASK | (1u << PG_isolated)));
	new->private = old->private;
	new->mapping = old->mapping;
	new->index = old->index;
	new->owner = old->owner;
	new->mapcount = old->mapcount;
	new->aux = old->aux;
	new->refcount = 1;
	set_page_order(new, 0);

	switch (old->owner) {
	case PGOWN_ANON: {
		/* a swap cache page of no process (a shmem page written out) has none */
		struct mm_struct *mm = old->mapping < pgdat->nr_mms ? pgdat->mms[old->mapping] : NULL;
		if (old->mapcount && mm)
			set_pte(mm, old->index, entry);         /* remove_migration_ptes() */
		/* a swap cache page: the slot now holds the new page */
		if (PageTest(old, PG_swapbacked) && pgdat->swap.slot_page &&
		    pgdat->swap.slot_page[old->private] == src + 1)
			pgdat->swap.slot_page[old->private] = (uint32_t)dst + 1;
		break;
	}
	case PGOWN_FILE:
	case PGOWN_BDEV: {
		/* folio_migrate_mapping(): the page cache slot; a bdev page's
		 * buffer_heads (private) move with it */
		struct address_space *as = pgdat->inodes[old->mapping];
		if (as && as->i_pages[old->index] == (ENTRY_PRESENT | (uint32_t)src))
			as->i_pages[old->index] = entry;
		/* folio_migrate_flags(): PG_readahead moves with the page (the
		 * model keeps the mark as the file's index and pfn) */
		if (as && as->ra.mark_pfn == src && as->ra.mark_index == old->index)
			as->ra.mark_pfn = (uint32_t)dst;
		/* a mapped page: every process's pte follows (rmap walk) */
		if (old->mapcount)
			remove_migration_ptes_file(pgdat, src, dst);
		break;
	}
	case PGOWN_SHMEM:
		shmem_migrate_page(pgdat, src, dst);
		break;
	default:
		break;
	}
	/* the old page keeps only its reference, for the caller to drop */
	old->flags &= PAGE_ZONE_MASK;
	set_page_order(old, 0);
	old->private = old->mapping = old->index = 0;
	old->owner = PGOWN_NONE;
	old->mapcount = 0;
	old->refcount = 1;
	if (!movable)
		lruvec_add_page(pgdat, dst, false);
	else
		ClearPageFlag(new, PG_isolated);
}

/* folio_migrate_mapping() and folio_migrate_flags() for a large
 * page-cache folio (the model's only LRU folios below PMD order; never
 * mapped, dirty or under writeback, debug_vm.c (f)): the head's state and
 * order, each tail's PG_tail, head pointer, file and index, every slot of
 * the folio's range, the readahead mark (PG_readahead moves with the
 * folio), and the head on the LRU list the folio was isolated from.  The
 * counters do not change: the same pages of the same file, elsewhere. */
void migrate_folio(struct pglist_data *pgdat, unsigned long src, unsigned long dst)
{
	struct page *old = &pgdat->mem_map[src], *new = &pgdat->mem_map[dst];
	unsigned order = page_order(old);
	unsigned long nr = 1ul << order;
	struct address_space *as = old->mapping < pgdat->nr_inodes ? pgdat->inodes[old->mapping] : NULL;

	VM_BUG_ON(!PageHead(old) || PageLRU(old) || PageBuddy(new) || PagePcp(new) || PageLRU(new) ||
	          old->owner != PGOWN_FILE || old->mapcount || PageTest(old, PG_dirty) || !as ||
	          (dst & (nr - 1)));
	new->flags = (new->flags & PAGE_ZONE_MASK) |
	             (old->flags & ~(PAGE_ZONE_MASK | PAGE_ORDER_MASK | (1u << PG_isolated)));
	set_page_order(new, order);
	new->private = old->private;
	new->mapping = old->mapping;
	new->index = old->index;
	new->owner = old->owner;
	new->mapcount = 0;
	new->aux = old->aux;
	new->refcount = 1;
	for (unsigned long i = 0; i < nr; i++) {
		struct page *o = old + i, *n = new + i;

		if (i) {
			n->flags = (n->flags & PAGE_ZONE_MASK) | (1u << PG_tail);
			n->next = (uint32_t)dst;
			n->private = 0;
			n->mapcount = 0;
			n->owner = o->owner;
			n->mapping = o->mapping;
			n->index = o->index;
			n->aux = o->aux;
			/* the old tail stays a tail of the old head (__free_pages
			 * clears it), without its file */
			o->owner = PGOWN_NONE;
			o->mapping = o->index = 0;
		}
		if (as->i_pages[new->index + i] == (ENTRY_PRESENT | (uint32_t)(src + i)))
			as->i_pages[new->index + i] = ENTRY_PRESENT | (uint32_t)(dst + i);
	}
	if (as->ra.mark_pfn == src && as->ra.mark_index == new->index)
		as->ra.mark_pfn = (uint32_t)dst;
	/* the old head keeps its order and PG_head, and its reference */
	old->flags = (old->flags & PAGE_ZONE_MASK) | (1u << PG_head);
	set_page_order(old, order);
	old->private = old->mapping = old->index = 0;
	old->owner = PGOWN_NONE;
	old->mapcount = 0;
	old->refcount = 1;
	lruvec_add_page(pgdat, dst, false);
}
