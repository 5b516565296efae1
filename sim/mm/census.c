/* census.c - the block analysis of the RFC's cover letter (see census.h). */
#include <string.h>
#include "internal.h"
#include "mmsim/census.h"

static enum census_kind page_census_kind(const struct page *head)
{
	if (PageLRU(head))
		return CENSUS_LRU;
	if (PageSlab(head))
		return CENSUS_SLAB;
	switch (head->owner) {
	case PGOWN_PAGETABLE:
	case PGOWN_KSTACK:
	case PGOWN_KMEM:
		return CENSUS_KMEM;
	default:
		return CENSUS_OTHER;
	}
}

/* Does a page of this kind pollute a block of type mt? */
static bool pollutes(int mt, enum census_kind k, const struct page *head)
{
	switch (mt) {
	case MIGRATE_UNMOVABLE:
		/* LRU pages and reclaimable slab belong elsewhere */
		return k == CENSUS_LRU || (k == CENSUS_SLAB && head->owner == PGOWN_SLAB_RECLAIMABLE);
	case MIGRATE_MOVABLE:
		/* a huge page of the pool was allocated movable, as LRU pages are */
		return k != CENSUS_LRU && head->owner != PGOWN_HUGETLB;
	case MIGRATE_RECLAIMABLE:
		return k != CENSUS_SLAB;
	default:
		return false;
	}
}

/* The pages of the block [start, end) of type mt that pollute it, by
 * kind, added to pages[]; true if there is any.  With all non-NULL, every
 * allocated page of the block is also counted there by kind. */
static bool block_pages(const struct pglist_data *pgdat, unsigned long start, unsigned long end,
                        int mt, unsigned long pages[NR_CENSUS_KINDS], unsigned long *all)
{
	bool mixed = false;

	/* the second half of a free buddy above pageblock order: the whole
	 * block is free (its head lies in the block before) */
	for (unsigned o = pageblock_order + 1; o < MAX_ORDER; o++) {
		unsigned long head = start & ~((1ul << o) - 1);
		if (head != start && head >= pgdat->node_zones[page_zonenum(&pgdat->mem_map[start])].zone_start_pfn &&
		    PageBuddy(&pgdat->mem_map[head]) && page_order(&pgdat->mem_map[head]) >= o)
			return false;
	}
	for (unsigned long pfn = start; pfn < end;) {
		const struct page *p = &pgdat->mem_map[pfn];
		const struct page *head;
		unsigned long n = 1;
		enum census_kind k;

		if (PageBuddy(p)) {
			pfn += 1ul << page_order(p);
			continue;
		}
		if (PagePcp(p) || PageReserved(p) || (!PageTail(p) && !p->refcount)) {
			pfn++;
			continue;
		}
		head = PageTail(p) ? &pgdat->mem_map[p->next] : p;
		/* the rest of a compound page (a THP, a pool page) at once:
		 * each of its pages counts as its head's kind */
		if (PageHead(head)) {
			unsigned long last = page_to_pfn(pgdat, head) + (1ul << page_order(head));
			n = (last < end ? last : end) - pfn;
		}
		k = page_census_kind(head);
		if (all)
			all[k] += n;
		if (pollutes(mt, k, head)) {
			pages[k] += n;
			mixed = true;
		}
		pfn += n;
	}
	return mixed;
}

static bool block_foreign_pages(const struct pglist_data *pgdat, unsigned long start,
                                unsigned long end, int mt, unsigned long pages[NR_CENSUS_KINDS])
{
	return block_pages(pgdat, start, end, mt, pages, NULL);
}

void pageblock_census(const struct pglist_data *pgdat, struct block_census *c)
{
	memset(c, 0, sizeof(*c));
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];
		if (!populated_zone(z))
			continue;
		for (unsigned long start = pageblock_start_pfn(z->zone_start_pfn); start < zone_end_pfn(z);
		     start += pageblock_nr_pages) {
			int mt = get_pageblock_migratetype(pgdat, start);
			unsigned long pages[NR_CENSUS_KINDS] = { 0 }, all[NR_CENSUS_KINDS] = { 0 };
			unsigned long end = start + pageblock_nr_pages;
			unsigned long kernel;
			bool mixed;

			if (start < z->zone_start_pfn && zi > 0)
				continue;       /* counted with the zone below */
			c->blocks[mt]++;
			mixed = block_pages(pgdat, start, end < zone_end_pfn(z) ? end : zone_end_pfn(z),
			                    mt, pages, all);
			if (all[CENSUS_SLAB])
				c->slab_blocks[mt]++;
			kernel = all[CENSUS_SLAB] + all[CENSUS_KMEM];
			if (kernel) {
				c->kernel_blocks++;
				c->kernel_pages += kernel;
			}
			if (mixed) {
				c->mixed_blocks[mt]++;
				for (int k = 0; k < NR_CENSUS_KINDS; k++)
					c->mixed_pages[mt][k] += pages[k];
			}
		}
	}
}

unsigned long census_foreign_pages(const struct block_census *c, int mt, unsigned long by_kind[NR_CENSUS_KINDS])
{
	unsigned long sum = 0;

	for (int k = 0; k < NR_CENSUS_KINDS; k++) {
		sum += c->mixed_pages[mt][k];
		if (by_kind)
			by_kind[k] = c->mixed_pages[mt][k];
	}
	return sum;
}

void show_census(FILE *f, const struct pglist_data *pgdat, const struct block_census *c)
{
	static const char *const lower[MIGRATE_TYPES] = {
		"unmovable", "movable", "reclaimable", "highatomic", "free", "isolate",
	};
	const unsigned long (*mp)[NR_CENSUS_KINDS] = c->mixed_pages;

	(void)pgdat;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		if (c->blocks[mt] || mt < MIGRATE_PCPTYPES)
			fprintf(f, "%s %lu\n", lower[mt], c->blocks[mt]);
	fprintf(f, "unmovable blocks with slab/lru pages: %lu ({'slab': %lu, 'lru': %lu} pages)\n",
	        c->mixed_blocks[MIGRATE_UNMOVABLE], mp[MIGRATE_UNMOVABLE][CENSUS_SLAB],
	        mp[MIGRATE_UNMOVABLE][CENSUS_LRU]);
	fprintf(f, "movable blocks with non-LRU pages: %lu ({'slab': %lu, 'kmem': %lu, 'other': %lu} pages)\n",
	        c->mixed_blocks[MIGRATE_MOVABLE], mp[MIGRATE_MOVABLE][CENSUS_SLAB],
	        mp[MIGRATE_MOVABLE][CENSUS_KMEM], mp[MIGRATE_MOVABLE][CENSUS_OTHER]);
	fprintf(f, "reclaimable blocks with non-slab pages: %lu ({'lru': %lu, 'kmem': %lu, 'other': %lu} pages)\n",
	        c->mixed_blocks[MIGRATE_RECLAIMABLE], mp[MIGRATE_RECLAIMABLE][CENSUS_LRU],
	        mp[MIGRATE_RECLAIMABLE][CENSUS_KMEM], mp[MIGRATE_RECLAIMABLE][CENSUS_OTHER]);
}

unsigned long free_pageblocks(const struct pglist_data *pgdat)
{
	unsigned long n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
			n += pgdat->node_zones[z].free_area[o].nr_free << (o - pageblock_order);
	return n;
}

void pageblock_map(const struct pglist_data *pgdat, unsigned groups, unsigned char *map)
{
	unsigned long nb = pgdat->nr_pageblocks;

	for (unsigned g = 0; g < groups; g++) {
		unsigned long from = g * nb / groups, to = (g + 1) * nb / groups;
		unsigned long count[MIGRATE_TYPES] = { 0 };
		int best = 0, types = 0;
		bool foreign = false;

		for (unsigned long b = from; b < to; b++) {
			unsigned long start = b << pageblock_order, end = start + pageblock_nr_pages;
			unsigned long pages[NR_CENSUS_KINDS] = { 0 };
			int mt = get_pageblock_migratetype(pgdat, start);

			count[mt]++;
			/* a block holding pages of another kind (the census's rule) */
			if (!foreign && block_foreign_pages(pgdat, start, end < pgdat->node_spanned_pages ?
			                                    end : pgdat->node_spanned_pages, mt, pages))
				foreign = true;
		}
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			types += count[mt] > 0;
			if (count[mt] > count[best])
				best = mt;
		}
		map[g] = (unsigned char)(best | (foreign || types > 1 ? PAGEBLOCK_MAP_MIXED : 0));
	}
}
