/* test_blockmap.c - the pageblock map shows mixing (census.h): on a small
 * vanilla machine, movable LRU pages fill the zone, every other one is
 * freed, then unmovable kernel pages fall back into the movable blocks
 * and mix them - the cover letter's case.  With one cell per pageblock,
 * the cells marked mixed are exactly the blocks the census counts as
 * mixed; a group of several blocks is marked when any of them is mixed or
 * they are of several types, so the map is not one colour. */
#include "testlib.h"
#include "mmsim/census.h"

static void test_map_shows_mixed_blocks(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 4, &s);
	unsigned long nb = m->pgdat.nr_pageblocks, flagged = 0, census_mixed = 0;
	unsigned char *map = calloc(nb, 1), one;
	struct page *pg[2048];
	struct block_census c;
	int n = 0;

	(void)state;
	assert_non_null(map);
	/* before: nothing allocated, nothing mixed */
	pageblock_map(&m->pgdat, (unsigned)nb, map);
	for (unsigned long b = 0; b < nb; b++)
		assert_false(map[b] & PAGEBLOCK_MAP_MIXED);

	for (int i = 0; i < 2048; i++) {
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
		if (!p)
			break;
		tl_mark_lru(p);
		pg[n++] = p;
	}
	for (int i = 0; i < n; i += 2)
		tl_free(m, pg[i], 0);
	drain_all_pages(&m->pgdat);
	for (int i = 0; i < 32; i++) {
		struct page *p = tl_alloc(m, GFP_KERNEL, 0);
		if (p)
			p->owner = PGOWN_KMEM;
	}

	pageblock_census(&m->pgdat, &c);
	for (int t = 0; t < MIGRATE_TYPES; t++)
		census_mixed += c.mixed_blocks[t];
	assert_true(census_mixed > 0);          /* the known mixed block */

	pageblock_map(&m->pgdat, (unsigned)nb, map);
	for (unsigned long b = 0; b < nb; b++) {
		assert_int_equal(map[b] & ~PAGEBLOCK_MAP_MIXED, tl_block_mt(m, b << pageblock_order));
		flagged += !!(map[b] & PAGEBLOCK_MAP_MIXED);
	}
	assert_int_equal(flagged, census_mixed);

	/* one group of all the blocks: mixed, whatever its majority type */
	pageblock_map(&m->pgdat, 1, &one);
	assert_true(one & PAGEBLOCK_MAP_MIXED);
	free(map);
}

/* The census's spread counts: blocks holding slab pages, per type, and
 * blocks holding any kernel page (slab or other unmovable/reclaimable
 * memory) with those pages' number, counted from every allocated page,
 * not only the ones that make a block mixed (a slab page in an unmovable
 * block counts too). */
static void test_census_counts_kernel_spread(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 4, &s);
	unsigned long nb = m->pgdat.nr_pageblocks;
	unsigned char *kern = calloc(nb, 1), *slab = calloc(nb, 1);
	unsigned long want_kblocks = 0, want_mslab = 0, want_uslab = 0, kpages = 0;
	struct page *pg[2048];
	struct block_census c;
	int n = 0;

	(void)state;
	assert_non_null(kern);
	assert_non_null(slab);
	pageblock_census(&m->pgdat, &c);
	assert_int_equal(c.kernel_blocks, 0);
	assert_int_equal(c.kernel_pages, 0);

	for (int i = 0; i < 2048; i++) {
		struct page *p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
		if (!p)
			break;
		tl_mark_lru(p);
		pg[n++] = p;
	}
	for (int i = 0; i < n; i += 2)
		tl_free(m, pg[i], 0);
	drain_all_pages(&m->pgdat);
	/* kernel pages, every other one a slab page: they fall back into
	 * the movable blocks and also take unmovable ones */
	for (int i = 0; i < 64; i++) {
		struct page *p = tl_alloc(m, i % 2 ? GFP_KERNEL : GFP_KERNEL | __GFP_RECLAIMABLE, 0);
		unsigned long b;
		if (!p)
			continue;
		if (i % 2) {
			p->owner = PGOWN_KMEM;
		} else {
			SetPageFlag(p, PG_slab);
			p->owner = PGOWN_SLAB_RECLAIMABLE;
		}
		b = tl_pfn(m, p) >> pageblock_order;
		kpages++;
		if (!kern[b]++)
			want_kblocks++;
		if (!(i % 2) && !slab[b]++) {
			int mt = tl_block_mt(m, b << pageblock_order);
			want_mslab += mt == MIGRATE_MOVABLE;
			want_uslab += mt != MIGRATE_MOVABLE;
		}
	}
	/* and a slab page in a movable block for sure: one of the LRU pages
	 * left there becomes one */
	{
		struct page *p = pg[1];
		unsigned long b = tl_pfn(m, p) >> pageblock_order;
		assert_int_equal(tl_block_mt(m, b << pageblock_order), MIGRATE_MOVABLE);
		ClearPageFlag(p, PG_lru);
		SetPageFlag(p, PG_slab);
		p->owner = PGOWN_SLAB_UNRECLAIMABLE;
		kpages++;
		if (!kern[b]++)
			want_kblocks++;
		if (!slab[b]++)
			want_mslab++;
	}
	assert_true(kpages > 1);
	pageblock_census(&m->pgdat, &c);
	assert_int_equal(c.kernel_pages, kpages);
	assert_int_equal(c.kernel_blocks, want_kblocks);
	assert_int_equal(c.slab_blocks[MIGRATE_MOVABLE], want_mslab);
	assert_int_equal(c.slab_blocks[MIGRATE_UNMOVABLE] + c.slab_blocks[MIGRATE_RECLAIMABLE], want_uslab);
	free(kern);
	free(slab);
}

/* The foreign pages of reclaimable blocks (the run's
 * census_Reclaimable_foreign_* metrics): every page in a reclaimable
 * block that is not slab, by kind: LRU pages (a GPU object's shmem pages
 * are), other kernel pages, other allocated pages.  Slab pages of either
 * kind are the block's own. */
static void test_census_reclaimable_foreign_pages(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 4, &s);
	/* what each of 12 reclaimable allocations is made */
	enum { SLAB_R, SLAB_U, LRU, KMEM, OTHER } what[12] = {
		SLAB_R, SLAB_R, LRU, SLAB_R, KMEM, SLAB_U, LRU, OTHER, SLAB_R, LRU, KMEM, SLAB_R,
	};
	unsigned long by_kind[NR_CENSUS_KINDS], blocks = 0;
	unsigned char seen[4] = { 0 };
	struct block_census c;

	(void)state;
	pageblock_census(&m->pgdat, &c);
	assert_int_equal(census_foreign_pages(&c, MIGRATE_RECLAIMABLE, NULL), 0);
	for (int i = 0; i < 12; i++) {
		struct page *p = tl_alloc(m, GFP_KERNEL | __GFP_RECLAIMABLE, 0);
		unsigned long b;

		assert_non_null(p);
		b = (tl_pfn(m, p) - TL_DMA32_START) >> pageblock_order;
		assert_int_equal(tl_block_mt(m, tl_pfn(m, p)), MIGRATE_RECLAIMABLE);
		if (!seen[b]++)
			blocks++;
		switch (what[i]) {
		case SLAB_R:
		case SLAB_U:
			SetPageFlag(p, PG_slab);
			p->owner = what[i] == SLAB_R ? PGOWN_SLAB_RECLAIMABLE : PGOWN_SLAB_UNRECLAIMABLE;
			break;
		case LRU:
			tl_mark_lru(p);
			p->owner = PGOWN_SHMEM;
			break;
		case KMEM:
			p->owner = PGOWN_KMEM;
			break;
		case OTHER:
			break;
		}
	}
	drain_all_pages(&m->pgdat);
	pageblock_census(&m->pgdat, &c);
	assert_int_equal(census_foreign_pages(&c, MIGRATE_RECLAIMABLE, by_kind), 3 + 2 + 1);
	assert_int_equal(by_kind[CENSUS_LRU], 3);
	assert_int_equal(by_kind[CENSUS_KMEM], 2);
	assert_int_equal(by_kind[CENSUS_OTHER], 1);
	assert_int_equal(by_kind[CENSUS_SLAB], 0);
	assert_int_equal(c.mixed_blocks[MIGRATE_RECLAIMABLE], blocks);
	/* no movable or unmovable block holds a foreign page */
	assert_int_equal(census_foreign_pages(&c, MIGRATE_MOVABLE, NULL), 0);
	assert_int_equal(census_foreign_pages(&c, MIGRATE_UNMOVABLE, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_shows_mixed_blocks),
		cmocka_unit_test_teardown(test_census_counts_kernel_spread, tl_teardown),
		cmocka_unit_test_teardown(test_census_reclaimable_foreign_pages, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, tl_teardown);
}
