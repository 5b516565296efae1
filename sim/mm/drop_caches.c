/* drop_caches.c - echo N > /proc/sys/vm/drop_caches (fs/drop_caches.c).
 *
 * real/harness writes 3 before each run, after `sync`, so that each
 * build starts from the same cold page cache; the twin does it between
 * its iterations.  1: drop_pagecache_sb() for every superblock, the block
 * device's included: invalidate_mapping_pages() frees every page-cache
 * page it can without waiting: clean, not under writeback, mapped by no
 * process (mapping_evict_folio); the slot is left empty, with no shadow
 * entry (__remove_mapping with reclaimed false: a later read is no
 * refault); a large folio goes whole.  Swap cache, shmem and anonymous
 * pages stay.  2: drop_slab():
 * every shrinker at priority 0 (all its objects), again while the pass
 * before freed much (v6.2: while (freed >> shift++) > 1).  Each counts
 * its vmstat event.  The time it takes is charged to ctx. */
#include "internal.h"
#include "mmsim/slab.h"

static unsigned long drop_pagecache(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	static const enum lru_list lists[] = { LRU_INACTIVE_FILE, LRU_ACTIVE_FILE };
	unsigned long dropped = 0, looked = 0;

	for (unsigned k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		uint32_t head = pgdat->lruvec.lists[lists[k]];
		uint32_t pfn = pgdat->mem_map[head].next;

		while (pfn != head) {
			struct page *p = &pgdat->mem_map[pfn];
			uint32_t next = p->next;

			looked++;
			if (!p->mapcount && !PageTest(p, PG_dirty) && !PageTest(p, PG_writeback) &&
			    (p->owner == PGOWN_FILE || p->owner == PGOWN_BDEV)) {
				unsigned long nr = PageHead(p) ? 1ul << page_order(p) : 1;

				lruvec_del_page(pgdat, pfn);
				remove_mapping(pgdat, pfn, false);
				filemap_free_folio(pgdat, ctx, p);
				dropped += nr;
			}
			pfn = next;
		}
	}
	ctx->kernel_ns += (double)looked * pgdat->costs.lru_scan_ns;
	return dropped;
}

static void drop_slab(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	unsigned long freed;
	int shift = 0;

	do
		freed = shrink_slab(pgdat, ctx, 0);
	while ((freed >> shift++) > 1);
}

unsigned long drop_caches(struct pglist_data *pgdat, struct mm_ctx *ctx, int mode)
{
	unsigned long dropped = 0;

	if (mode & 1) {
		dropped = drop_pagecache(pgdat, ctx);
		count_vm_events(pgdat, DROP_PAGECACHE, 1);
	}
	if (mode & 2) {
		drop_slab(pgdat, ctx);
		count_vm_events(pgdat, DROP_SLAB, 1);
	}
	return dropped;
}
