/* rmap.c - reverse mapping of file pages (mm/rmap.c): the areas that map
 * a file (its i_mmap), the mapcount of its pages, and the walks reclaim
 * and migration make over them: folio_referenced(), try_to_unmap() and
 * the remapping after a migration.
 *
 * An anonymous page is mapped once, by the process and virtual page its
 * mapping/index name, so its walk is one lookup (mm_page_fold_young).  A
 * file page (text of an executable, a shared library) may be mapped by
 * many processes: the kernel walks the file's i_mmap interval tree over
 * the areas covering the page's offset and looks at each one's pte
 * (page_vma_mapped_walk), stopping once it has found as many ptes as the
 * page's mapcount.  The model keeps i_mmap as an array of areas and does
 * the same; each area visited costs rmap_one_ns of the walker's time
 * (the interval tree step, the page-table walk to the pte, the accessed
 * bit's test-and-clear).  The array is scanned whole (simulator time, not
 * kernel time): a file has at most a few hundred areas, one per process
 * mapping it. */
#include <stdlib.h>
#include "internal.h"

void i_mmap_insert(struct address_space *as, const struct file_vma *vma)
{
	if (as->nr_i_mmap == as->cap_i_mmap) {
		unsigned cap = as->cap_i_mmap ? as->cap_i_mmap * 2 : 8;
		struct file_vma *n = realloc(as->i_mmap, cap * sizeof(*n));
		if (!n)
			abort();
		as->i_mmap = n;
		as->cap_i_mmap = cap;
	}
	as->i_mmap[as->nr_i_mmap++] = *vma;
}

/* the entry of process mm's area starting at start leaves i_mmap; the
 * order of the others is kept (walks visit areas in mapping order, and
 * the same seed must give the same walk) */
void i_mmap_remove(struct address_space *as, uint32_t mm, unsigned long start)
{
	for (unsigned i = 0; i < as->nr_i_mmap; i++) {
		if (as->i_mmap[i].mm != mm || as->i_mmap[i].start != start)
			continue;
		for (unsigned j = i + 1; j < as->nr_i_mmap; j++)
			as->i_mmap[j - 1] = as->i_mmap[j];
		as->nr_i_mmap--;
		return;
	}
	VM_BUG_ON(1);
}

/* page_add_file_rmap() / page_remove_rmap(): nr_mapped counts pages
 * mapped at least once */
void page_add_file_rmap(struct pglist_data *pgdat, struct page *p)
{
	VM_BUG_ON(p->mapcount == UINT16_MAX);
	if (p->mapcount++ == 0)
		mod_node_page_state(pgdat, NR_FILE_MAPPED, 1);
}

void page_remove_file_rmap(struct pglist_data *pgdat, struct page *p)
{
	VM_BUG_ON(!p->mapcount);
	if (--p->mapcount == 0)
		mod_node_page_state(pgdat, NR_FILE_MAPPED, -1);
}

/* the virtual page of area a that maps file offset index, if its pte maps
 * pfn; NULL otherwise (not faulted in there, or the process is gone) */
static struct mm_struct *vma_maps(const struct pglist_data *pgdat, const struct file_vma *a,
                                  uint32_t index, unsigned long pfn, unsigned long *v)
{
	struct mm_struct *mm;

	if (index < a->pgoff || index - a->pgoff >= a->nr || a->mm >= pgdat->nr_mms ||
	    !(mm = pgdat->mms[a->mm]))
		return NULL;
	*v = a->start + (index - a->pgoff);
	return mm->pte[*v] == (ENTRY_PRESENT | (uint32_t)pfn) ? mm : NULL;
}

static inline bool covers(const struct file_vma *a, uint32_t index)
{
	return index >= a->pgoff && index - a->pgoff < a->nr;
}

int folio_referenced(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *p, unsigned *vm_flags)
{
	struct address_space *as;
	unsigned mapcount = p->mapcount;
	int referenced = 0;

	*vm_flags = 0;
	if (!mapcount)
		return 0;
	if (p->owner == PGOWN_ANON) {
		/* one mapping, found without a walk: its pte bit joins
		 * PG_young, which the caller tests and clears */
		mm_page_fold_young(pgdat, p);
		if (PageTest(p, PG_young)) {
			ClearPageFlag(p, PG_young);
			referenced = 1;
		}
		return referenced;
	}
	if (p->owner != PGOWN_FILE || !(as = inode_lookup(pgdat, p->mapping)))
		return 0;
	for (unsigned i = 0; i < as->nr_i_mmap && mapcount; i++) {
		const struct file_vma *a = &as->i_mmap[i];
		struct mm_struct *mm;
		unsigned long v;

		if (!covers(a, p->index))
			continue;
		ctx->kernel_ns += pgdat->costs.rmap_one_ns;
		if (!(mm = vma_maps(pgdat, a, p->index, page_to_pfn(pgdat, p), &v)))
			continue;
		mapcount--;
		if (mm_young_test_clear(mm, v, 1)) {
			referenced++;
			*vm_flags |= a->vm_flags;
		}
	}
	return referenced;
}

unsigned try_to_unmap(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];
	struct address_space *as = inode_lookup(pgdat, p->mapping);
	unsigned unmapped = 0;

	VM_BUG_ON(p->owner != PGOWN_FILE || !as);
	for (unsigned i = 0; i < as->nr_i_mmap && p->mapcount; i++) {
		const struct file_vma *a = &as->i_mmap[i];
		struct mm_struct *mm;
		unsigned long v;

		if (!covers(a, p->index))
			continue;
		ctx->kernel_ns += pgdat->costs.rmap_one_ns;
		if (!(mm = vma_maps(pgdat, a, p->index, pfn, &v)))
			continue;
		/* the pte goes, with its accessed bit; a later touch faults
		 * the page back in (from the page cache, or from the disk
		 * once reclaim has dropped it) */
		set_pte(mm, v, 0);
		mm_young_test_clear(mm, v, 1);
		mm->rss_file--;
		page_remove_file_rmap(pgdat, p);
		ctx->kernel_ns += pgdat->costs.unmap_ns;
		unmapped++;
	}
	VM_BUG_ON(p->mapcount);
	return unmapped;
}

void remove_migration_ptes_file(struct pglist_data *pgdat, unsigned long src, unsigned long dst)
{
	const struct page *old = &pgdat->mem_map[src];
	struct address_space *as = inode_lookup(pgdat, old->mapping);
	unsigned left = old->mapcount;

	for (unsigned i = 0; as && i < as->nr_i_mmap && left; i++) {
		struct mm_struct *mm;
		unsigned long v;

		if (!(mm = vma_maps(pgdat, &as->i_mmap[i], old->index, src, &v)))
			continue;
		set_pte(mm, v, ENTRY_PRESENT | (uint32_t)dst);
		left--;
	}
	VM_BUG_ON(left);
}

unsigned long page_mapcount_walk(const struct pglist_data *pgdat, unsigned long pfn)
{
	const struct page *p = &pgdat->mem_map[pfn];
	const struct address_space *as = inode_lookup(pgdat, p->mapping);
	unsigned long n = 0, v;

	for (unsigned i = 0; as && i < as->nr_i_mmap; i++)
		if (vma_maps(pgdat, &as->i_mmap[i], p->index, pfn, &v))
			n++;
	return n;
}
