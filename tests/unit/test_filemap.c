/* test_filemap.c - the page cache of read() and unlink().
 *
 * Unlink of a file (inode_unlink(), make clean's rm between two builds of
 * [run] iterations): the file's page cache, dirty pages included, goes
 * back to the free lists with no shadow entries left behind, its dentry,
 * inode and xarray nodes go back to their caches, and the flusher has
 * nothing of it left to write.
 *
 * read() marks what it reads accessed as v6.2's filemap_read() does:
 * every page of the read, those its own misses just brought in included,
 * once per read; a page read once is referenced, read twice active. */
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

static bool flag(struct machine *m, unsigned long pfn, int f)
{
	return PageTest(&m->pgdat.mem_map[pfn], f);
}

/* the flags of every cached page of [first, first + nr) */
static void assert_pages(struct machine *m, struct address_space *as, unsigned long first,
                         unsigned long nr, bool referenced, bool active)
{
	for (unsigned long i = first; i < first + nr; i++) {
		uint32_t e = as->i_pages[i];
		assert_true(entry_present(e));
		assert_true(PageLRU(&m->pgdat.mem_map[entry_pfn(e)]));
		assert_int_equal(flag(m, entry_pfn(e), PG_referenced), referenced);
		assert_int_equal(flag(m, entry_pfn(e), PG_active), active);
	}
}

/* v6.2 filemap_read(): the pages a read's misses add go on the inactive
 * list (filemap_add_folio(), folio_add_lru()) and come back in the
 * read's batch, where folio_mark_accessed() references them; the second
 * read activates them (folio_activate(), the referenced bit cleared),
 * the third references them on the active list */
static void test_read_marks_accessed(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 16, false), *part = inode_create(pgdat, 16, false);
	unsigned long inactive0 = lruvec_lru_size(pgdat, LRU_INACTIVE_FILE);
	unsigned long active0 = lruvec_lru_size(pgdat, LRU_ACTIVE_FILE);
	(void)state;

	assert_non_null(as);
	assert_non_null(part);
	/* first read: every page missed, read from disk, referenced */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 16), 0);
	assert_int_equal(pgdat->disk.reads, 16);
	assert_pages(m, as, 0, 16, true, false);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) - inactive0, 16);
	/* second read: all hits, activated */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 16), 0);
	assert_int_equal(pgdat->disk.reads, 16);
	assert_pages(m, as, 0, 16, false, true);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE) - active0, 16);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) - inactive0, 0);
	/* third read: referenced on the active list */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 16), 0);
	assert_pages(m, as, 0, 16, true, true);

	/* a read over a range half cached: the cached half is activated,
	 * the half it brings in is referenced */
	assert_int_equal(filemap_read(pgdat, &m->ctx, part, 0, 8), 0);
	assert_int_equal(filemap_read(pgdat, &m->ctx, part, 0, 16), 0);
	assert_pages(m, part, 0, 8, false, true);
	assert_pages(m, part, 8, 8, true, false);
	tl_check(m);
	tl_destroy(m);
}

/* a fault's read-around (do_sync_mmap_readahead()) adds pages without
 * marking them: the fault maps them, and the pte's accessed bit is what
 * reclaim looks at */
static void test_fault_readahead_does_not_mark(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 64, false);
	(void)state;

	assert_non_null(as);
	assert_int_equal(filemap_fault_read(pgdat, &m->ctx, as, 0), 0);
	assert_pages(m, as, 0, 32, false, false);
	tl_check(m);
	tl_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unlink_frees_the_file),
		cmocka_unit_test_teardown(test_read_marks_accessed, tl_teardown),
		cmocka_unit_test_teardown(test_fault_readahead_does_not_mark, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
