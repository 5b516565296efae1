/* test_hugetlb.c - the huge page pool and drop_caches: what real/harness
 * does to a machine between two runs, and the twin does between two
 * iterations ([run] nr_hugepages, drop_caches).
 *
 * vm.nr_hugepages takes whole 2 MiB pages from the buddy allocator as
 * compound order-9 pages the census does not count against their movable
 * blocks, counts htlb_buddy_alloc_success for each, stops at the first it
 * cannot have (htlb_buddy_alloc_fail), and gives them back when lowered.
 * drop_caches 1 frees the clean page cache no process maps and leaves
 * dirty and mapped pages, with no shadow entry (a read again is no
 * refault); 2 empties the shrinkers' caches. */
#include "testlib.h"
#include <errno.h>
#include "mmsim/dcache.h"
#include "mmsim/hugetlb.h"
#include "mmsim/slab.h"

#define BLOCKS 32

static struct machine *boot(void)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	return tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
}

/* free pages, the per-cpu lists' drained into the buddy lists first */
static long free_pages(struct machine *m)
{
	drain_all_pages(&m->pgdat);
	return global_zone_page_state(&m->pgdat, NR_FREE_PAGES);
}

static void test_pool_takes_whole_huge_pages_and_gives_them_back(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	long free0 = free_pages(m);
	struct block_census c;
	(void)state;

	assert_int_equal(set_max_huge_pages(pgdat, &m->ctx, 10), 10);
	assert_int_equal(nr_huge_pages(pgdat), 10);
	assert_int_equal(free0 - free_pages(m), 10 * 512);
	assert_int_equal(pgdat->vm_events[HTLB_BUDDY_PGALLOC], 10);
	assert_int_equal(pgdat->vm_events[HTLB_BUDDY_PGALLOC_FAIL], 0);
	/* each a held compound page of the pool, in a movable block that
	 * the census does not call mixed */
	for (unsigned long pfn = TL_DMA32_START; pfn < TL_DMA32_START + BLOCKS * 512; pfn += 512) {
		const struct page *p = tl_page(m, pfn);
		if (p->owner != PGOWN_HUGETLB)
			continue;
		assert_true(PageHead(p));
		assert_int_equal(page_order(p), 9);
		assert_int_equal(tl_block_mt(m, pfn), MIGRATE_MOVABLE);
	}
	pageblock_census(pgdat, &c);
	assert_int_equal(c.mixed_blocks[MIGRATE_MOVABLE], 0);
	tl_check(m);

	/* lowered: the pages go back */
	assert_int_equal(set_max_huge_pages(pgdat, &m->ctx, 4), 4);
	assert_int_equal(free0 - free_pages(m), 4 * 512);
	assert_int_equal(set_max_huge_pages(pgdat, &m->ctx, 0), 0);
	assert_int_equal(free_pages(m), free0);
	tl_check(m);
}

static void test_pool_growth_ends_at_the_first_failure(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	long free0 = free_pages(m);
	unsigned long got;
	(void)state;

	/* more than the machine has: every 2 MiB page it can give, then one
	 * failed attempt, which ends the growth */
	got = set_max_huge_pages(pgdat, &m->ctx, 4 * BLOCKS);
	assert_true(got > 0 && got <= BLOCKS);
	/* the last free 2 MiB may stay behind the watermark check */
	assert_true(got + 1 >= (unsigned long)(free0 / 512));
	assert_int_equal(pgdat->vm_events[HTLB_BUDDY_PGALLOC], got);
	assert_int_equal(pgdat->vm_events[HTLB_BUDDY_PGALLOC_FAIL], 1);
	tl_check(m);
	assert_int_equal(set_max_huge_pages(pgdat, &m->ctx, 0), 0);
	assert_int_equal(free_pages(m), free0);
}

static void test_drop_caches_frees_clean_unmapped_page_cache(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *clean = inode_create(pgdat, 100, false);
	struct address_space *dirty = inode_create(pgdat, 50, false);
	long file0 = pgdat->vm_node_stat[NR_FILE_PAGES], free0, refault0;
	unsigned long dropped;
	(void)state;

	assert_int_equal(filemap_read(pgdat, &m->ctx, clean, 0, 100), 0);
	assert_int_equal(filemap_write(pgdat, &m->ctx, dirty, 0, 50), 0);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_PAGES] - file0, 150);
	free0 = free_pages(m);

	dropped = drop_caches(pgdat, &m->ctx, 1);
	/* the clean file's pages go (and the block device's clean metadata
	 * pages the reads brought in), the dirty ones stay */
	assert_true(dropped >= 100);
	assert_int_equal(clean->nrpages, 0);
	assert_int_equal(dirty->nrpages, 50);
	assert_int_equal(free_pages(m) - free0, (long)dropped);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_PAGES] - file0, 150 - (long)dropped);
	assert_int_equal(pgdat->vm_events[DROP_PAGECACHE], 1);
	assert_int_equal(pgdat->vm_events[DROP_SLAB], 0);
	/* empty slots, no shadow entries: reading again is no refault */
	for (unsigned long i = 0; i < 100; i++)
		assert_int_equal(clean->i_pages[i], 0);
	refault0 = pgdat->vm_node_stat[WORKINGSET_REFAULT_FILE];
	assert_int_equal(filemap_read(pgdat, &m->ctx, clean, 0, 100), 0);
	assert_int_equal(pgdat->vm_node_stat[WORKINGSET_REFAULT_FILE], refault0);
	assert_int_equal(clean->nrpages, 100);
	tl_check(m);
}

/* sync(2) writes every dirty page whatever its age (the flusher only
 * those older than vm.dirty_expire_centisecs): drop_caches then frees
 * them too */
static void test_sync_lets_drop_caches_free_dirty_pages(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *dirty = inode_create(pgdat, 50, false);
	long written0 = pgdat->vm_node_stat[NR_WRITTEN];
	(void)state;

	assert_int_equal(filemap_write(pgdat, &m->ctx, dirty, 0, 50), 0);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_DIRTY], 50);
	/* just dirtied: the flusher leaves them */
	assert_int_equal(writeback_dirty_pages(pgdat, &m->ctx, ~0ul), 0);
	assert_int_equal(sync_dirty_pages(pgdat, &m->ctx), 50);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_DIRTY], 0);
	assert_int_equal(pgdat->vm_node_stat[NR_WRITTEN] - written0, 50);
	assert_int_equal(sync_dirty_pages(pgdat, &m->ctx), 0);
	drop_caches(pgdat, &m->ctx, 1);
	assert_int_equal(dirty->nrpages, 0);
	tl_check(m);
}

static void test_drop_caches_2_empties_the_dentry_cache(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	uint32_t root = d_root(pgdat);
	struct address_space *as = inode_create(pgdat, 1, false);
	uint32_t file = d_name_path(pgdat, root, "src/a.c");
	uint32_t miss = d_name_path(pgdat, root, "src/missing.h");
	struct d_walk_stats st = { 0 };
	struct dentry_state ds;
	(void)state;

	assert_int_equal(d_bind(pgdat, NULL, file, as), 0);
	assert_int_equal(d_walk(pgdat, &m->ctx, file, true, &st), 0);
	assert_int_equal(d_walk(pgdat, &m->ctx, miss, false, &st), -ENOENT);
	dentry_state(pgdat, &ds);
	assert_true(ds.nr_dentry >= 4);
	assert_true(ds.nr_negative >= 1);

	drop_caches(pgdat, &m->ctx, 2);
	dentry_state(pgdat, &ds);
	/* the root stays (held); every unused dentry went */
	assert_int_equal(ds.nr_unused, 0);
	assert_int_equal(ds.nr_negative, 0);
	assert_int_equal(pgdat->vm_events[DROP_SLAB], 1);
	tl_check(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pool_takes_whole_huge_pages_and_gives_them_back, tl_teardown),
		cmocka_unit_test_teardown(test_pool_growth_ends_at_the_first_failure, tl_teardown),
		cmocka_unit_test_teardown(test_drop_caches_frees_clean_unmapped_page_cache, tl_teardown),
		cmocka_unit_test_teardown(test_sync_lets_drop_caches_free_dirty_pages, tl_teardown),
		cmocka_unit_test_teardown(test_drop_caches_2_empties_the_dentry_cache, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
