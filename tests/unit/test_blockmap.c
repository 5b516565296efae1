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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_shows_mixed_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, tl_teardown);
}
