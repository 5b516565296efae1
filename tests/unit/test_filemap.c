/* test_filemap.c - unlink of a file (inode_unlink(), make clean's rm
 * between two builds of [run] iterations): the file's page cache, dirty
 * pages included, goes back to the free lists with no shadow entries left
 * behind, its dentry, inode and xarray nodes go back to their caches, and
 * the flusher has nothing of it left to write. */
#include "testlib.h"
#include "mmsim/dcache.h"
#include "mmsim/slab.h"

#define BLOCKS 32
#define PAGES  200

static void test_unlink_frees_the_file(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as;
	long file0, dirty0, free0, free1;
	struct dentry_state ds;
	uint32_t name;
	(void)state;

	file0 = pgdat->vm_node_stat[NR_FILE_PAGES];
	dirty0 = pgdat->vm_node_stat[NR_FILE_DIRTY];
	free0 = global_zone_page_state(pgdat, NR_FREE_PAGES);
	as = inode_create(pgdat, 0, false);
	assert_non_null(as);
	/* written: dirty, in the page cache, with a dentry, an inode and
	 * xarray nodes */
	assert_int_equal(filemap_write(pgdat, &m->ctx, as, 0, PAGES), 0);
	assert_int_equal(as->nrpages, PAGES);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_PAGES] - file0, PAGES);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_DIRTY] - dirty0, PAGES);
	assert_true(d_dentry_cached(pgdat, as->dname) && as->inode != SLAB_OBJ_NONE);
	name = as->dname;
	assert_true(global_zone_page_state(pgdat, NR_FREE_PAGES) < free0 - PAGES / 2);
	tl_check(m);
	drain_all_pages(pgdat);
	free1 = global_zone_page_state(pgdat, NR_FREE_PAGES);

	inode_unlink(pgdat, &m->ctx, as);
	assert_int_equal(as->nrpages, 0);
	assert_int_equal(as->size, 0);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_PAGES], file0);
	assert_int_equal(pgdat->vm_node_stat[NR_FILE_DIRTY], dirty0);
	/* d_delete: the dentry stays, negative (dentry-state's nr_negative);
	 * the inode is evicted */
	assert_true(as->dname == DNAME_NONE && as->inode == SLAB_OBJ_NONE);
	assert_true(d_dentry_cached(pgdat, name) && !d_exists(pgdat, name));
	dentry_state(pgdat, &ds);
	assert_int_equal(ds.nr_negative, 1);
	/* no LRU page of it left: the lists hold nothing of a file */
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 0);
	/* every page of it is free again (the slab caches keep their slabs
	 * for later objects) */
	drain_all_pages(pgdat);
	assert_true(global_zone_page_state(pgdat, NR_FREE_PAGES) >= free1 + PAGES);
	assert_true(global_zone_page_state(pgdat, NR_FREE_PAGES) <= free0);
	/* the flusher finds nothing to write: the dirty pages were dropped */
	assert_int_equal(writeback_dirty_pages(pgdat, &m->ctx, ~0ul), 0);
	assert_int_equal(pgdat->vm_node_stat[NR_WRITTEN], 0);
	tl_check(m);
	tl_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unlink_frees_the_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
