/* test_mobility.c - grouping pages by mobility switched off, and the
 * count of buddies on a free list of another type than their block's.
 *
 * [kernel] group_by_mobility = no (the kernel's
 * page_group_by_mobility_disabled): every request is MIGRATE_UNMOVABLE,
 * so a movable request steals a whole block and retypes it unmovable, and
 * no block is given a type below MIGRATE_PCPTYPES other than unmovable;
 * the boot blocks keep memmap_init's type.  auto switches it off, as
 * build_all_zonelists() does, on a machine of fewer than
 * pageblock_nr_pages * MIGRATE_TYPES pages.  freelist_type_mismatch
 * counts a buddy taken off a list of another type than its block's (what
 * 6.10's hygiene warns of), and changes nothing. */
#include "testlib.h"

static struct machine *boot(unsigned long blocks, int mobility)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	s.group_by_mobility = mobility;
	return tl_boot_dma32("vanilla", NULL, blocks, &s);
}

static void test_movable_request_goes_unmovable_when_off(void **state)
{
	struct machine *on = boot(32, GROUP_BY_MOBILITY_ON), *off = boot(32, GROUP_BY_MOBILITY_OFF);
	struct page *p, *q;
	(void)state;

	assert_false(on->pgdat.page_group_by_mobility_disabled);
	assert_true(off->pgdat.page_group_by_mobility_disabled);
	/* the boot blocks: movable in both, as memmap_init made them */
	assert_int_equal(tl_count_blocks(off, ZONE_DMA32, MIGRATE_MOVABLE), 32);
	p = tl_alloc(on, GFP_HIGHUSER_MOVABLE, 0);
	q = tl_alloc(off, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_non_null(q);
	assert_int_equal(tl_block_mt(on, tl_pfn(on, p)), MIGRATE_MOVABLE);
	/* off: an unmovable request, which stole the block it fell back to */
	assert_int_equal(tl_block_mt(off, tl_pfn(off, q)), MIGRATE_UNMOVABLE);
	assert_int_equal(tl_count_blocks(on, ZONE_DMA32, MIGRATE_UNMOVABLE), 0);
	assert_true(tl_count_blocks(off, ZONE_DMA32, MIGRATE_UNMOVABLE) >= 1);
	/* no block becomes movable or reclaimable while it is off */
	set_pageblock_migratetype(&off->pgdat, tl_pfn(off, q), MIGRATE_RECLAIMABLE);
	assert_int_equal(tl_block_mt(off, tl_pfn(off, q)), MIGRATE_UNMOVABLE);
	tl_free(on, p, 0);
	tl_free(off, q, 0);
	tl_check(on);
	tl_check(off);
}

static void test_auto_is_the_kernels_rule(void **state)
{
	/* 4 blocks: 2048 pages, fewer than 512 * 5 */
	struct machine *small = boot(4, GROUP_BY_MOBILITY_AUTO), *big = boot(32, GROUP_BY_MOBILITY_AUTO);
	(void)state;

	assert_true(small->pgdat.page_group_by_mobility_disabled);
	assert_false(big->pgdat.page_group_by_mobility_disabled);
}

static void test_freelist_type_mismatch_is_counted(void **state)
{
	struct machine *m = boot(8, GROUP_BY_MOBILITY_ON);
	struct page *p;
	(void)state;

	p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_int_equal(m->pgdat.sched_stats.freelist_type_mismatch, 0);
	tl_free(m, p, 0);
	drain_all_pages(&m->pgdat);
	/* every block retyped, its free pages left on the movable lists (as
	 * v6.2 leaves pages a retype did not move): the next buddy taken
	 * off a movable list lies in an unmovable block */
	for (unsigned long pfn = TL_DMA32_START; pfn < TL_DMA32_START + 8 * pageblock_nr_pages;
	     pfn += pageblock_nr_pages)
		set_pageblock_migratetype(&m->pgdat, pfn, MIGRATE_UNMOVABLE);
	p = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_true(m->pgdat.sched_stats.freelist_type_mismatch >= 1);
	tl_free(m, p, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_movable_request_goes_unmovable_when_off, tl_teardown),
		cmocka_unit_test_teardown(test_auto_is_the_kernels_rule, tl_teardown),
		cmocka_unit_test_teardown(test_freelist_type_mismatch_is_counted, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
