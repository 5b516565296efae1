/* test_large_folios.c - readahead and large page-cache folios
 * ([kernel] large_folios, [machine] read_ahead_kb; sim/mm/filemap.c).
 *
 * With large folios a sequential reader's readahead window ramps up to
 * read_ahead_kb (get_init_ra_size, get_next_ra_size), each window read in
 * folios two orders above the last (page_cache_ra_order), up to PMD order;
 * a folio that cannot be allocated leaves the rest of its window to
 * order-0 pages.  Reclaim, drop_caches and unlink free a folio whole;
 * reclaim leaves its shadow in every slot, and reading it back is one
 * refault of all its pages.  The model maps and dirties no large folio:
 * a write splits the folios of its range, a fault of a mapped file all
 * of the file's, and read() of a mapped file makes order-0 pages.
 * Without large folios a read brings exactly the pages it asks for. */
#include "testlib.h"

#define BLOCKS 32

static struct machine *boot(bool large, unsigned read_ahead_kb, unsigned long blocks)
{
	struct vm_sysctl s = tl_sysctl_nowmark();

	s.large_folios = large;
	s.read_ahead_kb = read_ahead_kb;
	return tl_boot_dma32("vanilla", NULL, blocks, &s);
}

/* the order of the folio holding file page i; -1: not cached */
static int order_at(struct machine *m, struct address_space *as, unsigned long i)
{
	struct page *p = tl_folio_at(m, as, i);

	if (!p)
		return -1;
	return PageHead(p) ? (int)page_order(p) : 0;
}

static void assert_orders(struct machine *m, struct address_space *as, unsigned long from,
                          unsigned long to, int order)
{
	for (unsigned long i = from; i < to; i++)
		if (order_at(m, as, i) != order)
			fail_msg("file page %lu: folio of order %d, expected %d", i, order_at(m, as, i), order);
}

static void read_seq(struct machine *m, struct address_space *as, unsigned long from, unsigned long to,
                     unsigned long chunk)
{
	for (unsigned long i = from; i < to; i += chunk)
		assert_int_equal(filemap_read(&m->pgdat, &m->ctx, as, i, chunk), 0);
}

/* 29 reads of 128 KiB from the start of a 16 MiB file, read_ahead_kb
 * 8192 (2,048 pages).  Windows: [0,128) at order 2 (the first, 4 times
 * the read), then each started by the read reaching the marked folio:
 * [128,384) order 4, [384,896) order 6, [896,1920) order 8, [1920,3968)
 * order 9; a window's first and last folios are smaller where its start
 * is not aligned or its end comes first. */
static void test_readahead_ramp(void **state)
{
	struct machine *m = boot(true, 8192, BLOCKS);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 4096, false);
	long file0 = node_page_state(pgdat, NR_FILE_PAGES);
	(void)state;

	assert_non_null(as);
	read_seq(m, as, 0, 928, 32);
	assert_orders(m, as, 0, 128, 2);
	assert_orders(m, as, 128, 384, 4);
	assert_orders(m, as, 384, 896, 6);
	assert_orders(m, as, 896, 1024, 7);             /* 896 is 128-aligned */
	assert_orders(m, as, 1024, 1792, 8);
	assert_orders(m, as, 1792, 1920, 7);            /* the window ends at 1920 */
	assert_orders(m, as, 1920, 2048, 7);
	assert_orders(m, as, 2048, 3584, 9);
	assert_orders(m, as, 3584, 3840, 8);
	assert_orders(m, as, 3840, 3968, 7);
	assert_orders(m, as, 3968, 4096, -1);
	assert_int_equal(as->nrpages, 3968);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES) - file0, 3968);
	assert_int_equal(as->nr_large_folios, 32 + 16 + 8 + 5 + 6);
	assert_int_equal(pgdat->disk.reads, 3968);
	/* the LRU holds the folios' pages */
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 3968);
	/* the next window's mark: the first folio of the last window */
	assert_int_equal(as->ra.mark_index, 1920);
	assert_int_equal(as->ra.start, 1920);
	assert_int_equal(as->ra.size, 2048);
	/* accessed once per folio and read: the order-6 folio at 384 was
	 * read by two reads, the second starting where the first ended
	 * (pos_same_folio): referenced, not activated; a folio only read
	 * ahead is not referenced */
	assert_true(PageTest(tl_folio_at(m, as, 384), PG_referenced));
	assert_false(PageTest(tl_folio_at(m, as, 384), PG_active));
	assert_true(PageTest(tl_folio_at(m, as, 0), PG_referenced));
	assert_false(PageTest(tl_folio_at(m, as, 2048), PG_referenced));
	tl_check(m);
	tl_destroy(m);
}

/* [kernel] readahead_order = file_ra_state (the running 6.18): the same
 * reads from the start of a file of 16,384 pages, read_ahead_kb 8192.
 * The order is the state's, not the marked folio's: the cold window
 * [0,128) is order 0, each next one two above the last, its end rounded
 * down to that order (up to ra_pages' 2,048): [128,384) order 2,
 * [384,896) 4, [896,1920) 6, [1920,3840) 8 (its first folio order 7),
 * [3840,5120) 9 (the first order 8), [5120,6144), then windows of 2,048
 * aligned to it.  A window whose first folio cannot be had (here a page
 * of its range already cached: -EEXIST, as a failed allocation) is read
 * at order 0 with the mark on its first page, and the next window is
 * order 9 again: the state kept its order (6.12 would start it at 2). */
static void test_readahead_order_state(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m;
	struct pglist_data *pgdat;
	struct address_space *as;
	(void)state;

	s.large_folios = true;
	s.read_ahead_kb = 8192;
	s.readahead_order = RA_ORDER_FILE_RA_STATE;
	m = tl_boot_dma32("vanilla", NULL, 64, &s);
	pgdat = &m->pgdat;
	as = inode_create(pgdat, 16384, false);
	assert_non_null(as);
	pgdat->debug_check_interval = 0;        /* thousands of allocations */
	read_seq(m, as, 0, 6176, 32);
	assert_orders(m, as, 0, 128, 0);
	assert_orders(m, as, 128, 384, 2);
	assert_orders(m, as, 384, 896, 4);
	assert_orders(m, as, 896, 1920, 6);
	assert_orders(m, as, 1920, 2048, 7);
	assert_orders(m, as, 2048, 3840, 8);
	assert_orders(m, as, 3840, 4096, 8);
	assert_orders(m, as, 4096, 10240, 9);
	assert_orders(m, as, 10240, 10241, -1);
	assert_int_equal(as->ra.start, 8192);
	assert_int_equal(as->ra.size, 2048);
	assert_int_equal(as->ra.order, 9);
	assert_int_equal(as->ra.mark_index, 8192);
	/* a small random read caches page 10340 alone and leaves the state */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 10340, 1), 0);
	assert_orders(m, as, 10340, 10341, 0);
	assert_int_equal(as->ra.mark_index, 8192);
	/* reaching 8192: the window [10240,12288) cannot have its first
	 * folio; it is read at order 0, marked at 10240, the order kept */
	read_seq(m, as, 6176, 8224, 32);
	assert_orders(m, as, 10240, 12288, 0);
	assert_int_equal(as->ra.order, 9);
	assert_int_equal(as->ra.mark_index, 10240);
	/* reaching 10240: the next window is order 9 again */
	read_seq(m, as, 8224, 10272, 32);
	assert_orders(m, as, 12288, 14336, 9);
	assert_orders(m, as, 14336, 14337, -1);
	pgdat->debug_check_interval = 1;
	tl_check(m);
	tl_destroy(m);
}

/* PG_readahead moves with a migrated page (folio_migrate_flags()): the
 * order-0 page that holds a window's mark, migrated as compaction does
 * it, keeps the mark, and the reader reaching it starts the next window.
 * (The model keeps the mark as the file's index and pfn; before the fix
 * a migrated order-0 mark was lost, and the stream began again from a
 * cold window at the next miss.) */
static void test_readahead_mark_migrates(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m;
	struct pglist_data *pgdat;
	struct address_space *as;
	struct page *dst;
	unsigned long src;
	(void)state;

	s.large_folios = true;
	s.read_ahead_kb = 128;
	s.readahead_order = RA_ORDER_FILE_RA_STATE;     /* a cold window is order 0 */
	m = tl_boot_dma32("vanilla", NULL, 8, &s);
	pgdat = &m->pgdat;
	as = inode_create(pgdat, 256, false);
	assert_non_null(as);
	/* a read of 8 pages: the window [0,16) at order 0, marked at 8 */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 8), 0);
	assert_orders(m, as, 0, 16, 0);
	assert_orders(m, as, 16, 17, -1);
	assert_int_equal(as->ra.mark_index, 8);
	src = entry_pfn(as->i_pages[8]);
	assert_int_equal(as->ra.mark_pfn, src);
	/* isolate_migratepages_block() and migrate_pages() of that page */
	dst = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(dst);
	lruvec_del_page(pgdat, src);
	SetPageFlag(&pgdat->mem_map[src], PG_isolated);
	migrate_page(pgdat, src, tl_pfn(m, dst));
	tl_free(m, &pgdat->mem_map[src], 0);
	assert_int_equal(entry_pfn(as->i_pages[8]), tl_pfn(m, dst));
	assert_int_equal(as->ra.mark_pfn, tl_pfn(m, dst));
	/* the reader reaches the mark: the next window is read ahead */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 8, 8), 0);
	assert_true(order_at(m, as, 16) >= 0);
	tl_check(m);
	tl_destroy(m);
}

/* without large folios: order-0 pages, exactly the pages asked for, no
 * window (the model before the key existed) */
static void test_no_large_folios_reads_what_is_asked(void **state)
{
	struct machine *m = boot(false, 8192, BLOCKS);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 4096, false);
	(void)state;

	assert_non_null(as);
	read_seq(m, as, 0, 928, 32);
	assert_orders(m, as, 0, 928, 0);
	assert_orders(m, as, 928, 4096, -1);
	assert_int_equal(as->nrpages, 928);
	assert_int_equal(as->nr_large_folios, 0);
	assert_int_equal(pgdat->disk.reads, 928);
	assert_int_equal(as->ra.size, 0);
	tl_check(m);
	tl_destroy(m);
}

/* memory in order-0 pieces only (every fourth page free): the window's
 * order-2 folio cannot be had (__GFP_NORETRY: no retry, no OOM), and
 * do_page_cache_ra() reads the whole window at order 0, the pages ahead
 * of the read included, with the mark on its page */
static void test_fallback_to_order0(void **state)
{
	struct machine *m = boot(true, 128, 8);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 256, false);
	struct page **held = calloc(8 * pageblock_nr_pages, sizeof(*held));
	unsigned long n = 0;
	struct page *p;
	(void)state;

	assert_non_null(as);
	assert_non_null(held);
	pgdat->debug_check_interval = 0;        /* thousands of allocations */
	while (n < 8 * pageblock_nr_pages && (p = tl_alloc(m, 0, 0)))
		held[n++] = p;
	for (unsigned long i = 0; i < n; i++)
		if (tl_pfn(m, held[i]) % 4 == 1) {
			tl_free(m, held[i], 0);
			held[i] = NULL;
		}
	tl_check(m);
	pgdat->debug_check_interval = 1;
	/* a read of 8 pages: a window of 16 (get_init_ra_size), 8 ahead,
	 * the mark at 8 */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 8), 0);
	assert_orders(m, as, 0, 16, 0);
	assert_orders(m, as, 16, 32, -1);
	assert_int_equal(as->nrpages, 16);
	assert_int_equal(as->nr_large_folios, 0);
	assert_int_equal(pgdat->disk.reads, 16);
	assert_int_equal(as->ra.mark_index, 8);
	tl_check(m);
	for (unsigned long i = 0; i < n; i++)
		if (held[i])
			tl_free(m, held[i], 0);
	free(held);
	tl_destroy(m);
}

/* reclaim frees a large folio whole: pgsteal counts its pages, each of
 * its slots gets the one shadow, the workingset clock ticks by its
 * pages; reading it back is one refault of all its pages */
static void test_reclaim_and_refault(void **state)
{
	struct machine *m = boot(true, 8192, BLOCKS);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 256, false);
	long file0 = node_page_state(pgdat, NR_FILE_PAGES);
	unsigned long age0, steal0;
	(void)state;

	assert_non_null(as);
	/* one read of 32 pages: a window of 128 in 32 order-2 folios */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 32), 0);
	assert_orders(m, as, 0, 128, 2);
	assert_int_equal(as->nr_large_folios, 32);
	age0 = pgdat->lruvec.nonresident_age;
	steal0 = pgdat->vm_events[PGSTEAL_FILE];
	while (as->nrpages)
		assert_true(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32) > 0);
	assert_int_equal(pgdat->vm_events[PGSTEAL_FILE] - steal0, 128);
	assert_int_equal(pgdat->lruvec.nonresident_age - age0, 128);
	assert_int_equal(as->nr_large_folios, 0);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), file0);
	for (unsigned long i = 0; i < 128; i++) {
		assert_true(entry_nonres(as->i_pages[i]));
		assert_int_equal(as->i_pages[i], as->i_pages[i & ~3ul]);
	}
	assert_int_equal(as->i_pages[128], 0);
	tl_check(m);

	/* read back: the same window over the shadows, a refault per folio
	 * counting its 4 pages */
	assert_int_equal(node_page_state(pgdat, WORKINGSET_REFAULT_FILE), 0);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 32), 0);
	assert_orders(m, as, 0, 128, 2);
	assert_int_equal(node_page_state(pgdat, WORKINGSET_REFAULT_FILE), 128);
	tl_check(m);
	tl_destroy(m);
}

/* drop_caches and unlink free large folios whole, with no shadows */
static void test_drop_caches_and_unlink(void **state)
{
	struct machine *m = boot(true, 8192, BLOCKS);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 1024, false);
	long file0 = node_page_state(pgdat, NR_FILE_PAGES);
	(void)state;

	assert_non_null(as);
	read_seq(m, as, 0, 128, 32);            /* windows [0,128) and [128,384) */
	assert_int_equal(as->nrpages, 384);
	assert_int_equal(as->nr_large_folios, 32 + 16);
	assert_true(drop_caches(pgdat, &m->ctx, 1) >= 384);      /* pages, the file's and any other */
	assert_int_equal(as->nrpages, 0);
	assert_int_equal(as->nr_large_folios, 0);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), file0);
	for (unsigned long i = 0; i < 1024; i++)
		assert_int_equal(as->i_pages[i], 0);
	tl_check(m);

	read_seq(m, as, 0, 128, 32);
	assert_int_equal(as->nr_large_folios, 32 + 16);
	inode_unlink(pgdat, &m->ctx, as);
	assert_int_equal(as->nrpages, 0);
	assert_int_equal(as->nr_large_folios, 0);
	assert_int_equal(as->size, 0);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), file0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 0);
	tl_check(m);
	tl_destroy(m);
}

/* the model's guards: a write splits the large folios of its range into
 * order-0 page-cache pages (dirtied as pages); a fault of a mapped file
 * splits all of the file's; read() of a mapped file makes order-0 pages */
static void test_split_on_write_and_fault(void **state)
{
	struct machine *m = boot(true, 8192, BLOCKS);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 512, false), *other = inode_create(pgdat, 512, false);
	struct mm_struct *mm = mm_alloc(pgdat, &m->ctx);
	unsigned long va, lru;
	(void)state;

	assert_non_null(as);
	assert_non_null(other);
	assert_non_null(mm);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 32), 0);
	assert_int_equal(as->nr_large_folios, 32);
	lru = lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE);

	assert_int_equal(filemap_write(pgdat, &m->ctx, as, 5, 1), 0);
	assert_orders(m, as, 0, 4, 2);
	assert_orders(m, as, 4, 8, 0);
	assert_orders(m, as, 8, 128, 2);
	assert_int_equal(as->nr_large_folios, 31);
	assert_true(PageTest(tl_folio_at(m, as, 5), PG_dirty));
	assert_false(PageTest(tl_folio_at(m, as, 4), PG_dirty));
	/* the split pages keep the folio's referenced bit and stay on its list */
	assert_true(PageTest(tl_folio_at(m, as, 6), PG_referenced));
	assert_true(PageLRU(tl_folio_at(m, as, 7)));
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), lru);
	assert_int_equal(as->nrpages, 128);
	tl_check(m);

	/* mmap alone splits nothing; the first fault splits every folio */
	va = mm_mmap_file(mm, as, 0, 512, VM_READ);
	assert_int_equal(as->nr_large_folios, 31);
	assert_int_equal(mm_access(pgdat, &m->ctx, mm, va, 1, false), 0);
	assert_int_equal(as->nr_large_folios, 0);
	assert_orders(m, as, 0, 128, 0);
	tl_check(m);

	/* a mapped file's readahead window is read at order 0 */
	va = mm_mmap_file(mm, other, 0, 512, VM_READ);
	assert_int_equal(filemap_read(pgdat, &m->ctx, other, 0, 32), 0);
	assert_orders(m, other, 0, 128, 0);
	assert_orders(m, other, 128, 512, -1);
	assert_int_equal(other->nr_large_folios, 0);
	mmput(pgdat, &m->ctx, mm);
	tl_check(m);
	tl_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_readahead_ramp, tl_teardown),
		cmocka_unit_test_teardown(test_readahead_order_state, tl_teardown),
		cmocka_unit_test_teardown(test_readahead_mark_migrates, tl_teardown),
		cmocka_unit_test_teardown(test_no_large_folios_reads_what_is_asked, tl_teardown),
		cmocka_unit_test_teardown(test_fallback_to_order0, tl_teardown),
		cmocka_unit_test_teardown(test_reclaim_and_refault, tl_teardown),
		cmocka_unit_test_teardown(test_drop_caches_and_unlink, tl_teardown),
		cmocka_unit_test_teardown(test_split_on_write_and_fault, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
