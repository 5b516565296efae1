/* census.h - the pageblock census of the RFC's cover letter.
 *
 * For every pageblock: its migratetype, and what its allocated pages are.
 * A block is "mixed" when it holds pages its type should not: unmovable
 * blocks with LRU or reclaimable-slab pages, movable blocks with non-LRU
 * pages, reclaimable blocks with non-slab pages (the cover letter's block
 * analysis, which read /proc/kpageflags on an idle machine).
 */
#ifndef MMSIM_CENSUS_H
#define MMSIM_CENSUS_H

#include <stdio.h>
#include "mmsim/mmzone.h"

/* what an allocated page is, for the census (from its head page) */
enum census_kind { CENSUS_LRU, CENSUS_SLAB, CENSUS_KMEM, CENSUS_OTHER, NR_CENSUS_KINDS };

struct block_census {
	unsigned long blocks[MIGRATE_TYPES];          /* pageblocks per migratetype */
	unsigned long mixed_blocks[MIGRATE_TYPES];    /* of those, mixed */
	/* pages in mixed blocks that make them mixed, by kind */
	unsigned long mixed_pages[MIGRATE_TYPES][NR_CENSUS_KINDS];
	/* pageblocks per migratetype holding at least one slab page (of
	 * either kind): "movable blocks holding slab pages" */
	unsigned long slab_blocks[MIGRATE_TYPES];
	/* pageblocks of any type holding at least one unmovable or
	 * reclaimable kernel page (slab, page tables, kernel stacks, other
	 * kernel memory), and those pages: how far the kernel's memory is
	 * spread, against how much of it there is */
	unsigned long kernel_blocks, kernel_pages;
};

void pageblock_census(const struct pglist_data *pgdat, struct block_census *c);
/* The foreign pages of a type's blocks: the pages that make its mixed
 * blocks mixed, by kind in by_kind (NULL: not wanted), and their sum.
 * For MIGRATE_RECLAIMABLE these are the cover letter's "reclaimable
 * blocks with non-slab pages" (LRU, other kernel, other pages). */
unsigned long census_foreign_pages(const struct block_census *c, int mt, unsigned long by_kind[NR_CENSUS_KINDS]);
/* Wholly free pageblocks: free buddies of pageblock order and above,
 * counted in pageblocks (the run's free_pageblocks series). */
unsigned long free_pageblocks(const struct pglist_data *pgdat);

/* The pageblock map: the node's pageblocks split into `groups`
 * consecutive groups, each given as its most common migratetype (ties:
 * the lower type) in map[0..groups-1], with PAGEBLOCK_MAP_MIXED set when
 * the group is mixed: a block of it holds pages its type should not (the
 * census's rule), or its blocks are of more than one migratetype (so a
 * vanilla map is not drawn in its majority type alone).  With groups ==
 * nr_pageblocks a cell is one pageblock.  groups <= pgdat->nr_pageblocks. */
#define PAGEBLOCK_MAP_MIXED 0x80
void pageblock_map(const struct pglist_data *pgdat, unsigned groups, unsigned char *map);

/* the cover letter's text: "unmovable 50" ... "movable blocks with non-LRU
 * pages: 77 ({'slab': 4257, 'kmem': 77, 'other': 2} pages)" */
void show_census(FILE *f, const struct pglist_data *pgdat, const struct block_census *c);

#endif
