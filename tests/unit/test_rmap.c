/* test_rmap.c - file pages mapped into processes (mm_mmap_file): faults
 * through the page cache, mapcount and nr_mapped, exit, and what v6.2's
 * reclaim does with mapped pages (folio_check_references(),
 * shrink_active_list()'s VM_EXEC rule, try_to_unmap()).
 */
#include "testlib.h"

#define BLOCKS 32

static struct machine *boot(void)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);

	m->pgdat.debug_check_interval = 0;
	return m;
}

static long nr_mapped(struct machine *m)
{
	return node_page_state(&m->pgdat, NR_FILE_MAPPED);
}

static struct page *file_page(struct machine *m, struct address_space *as, unsigned long i)
{
	assert_true(entry_present(as->i_pages[i]));
	return &m->pgdat.mem_map[entry_pfn(as->i_pages[i])];
}

/* Two processes map one file: the first faults it in from the disk (major
 * faults, read-around), the second finds it cached (minor faults, 16 pages
 * a fault); each pte maps the page cache page; exit drops the mapcount and
 * leaves the pages cached, marked accessed by their young ptes. */
static void test_map_fault_exit(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 256, false);
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx), *b = mm_alloc(pgdat, &m->ctx);
	unsigned long va, vb, maj, flt;
	(void)state;

	assert_non_null(as);
	assert_non_null(a);
	assert_non_null(b);
	/* an anonymous area first: the file area starts on its own 2 MiB */
	assert_int_equal(mm_grow(a, 10), 0);
	va = mm_mmap_file(a, as, 0, 256, VM_READ | VM_EXEC);
	assert_int_equal(va % PTRS_PER_PTE, 0);
	assert_int_equal(a->nr_vpages % PTRS_PER_PTE, 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va, 256, false), 0);
	maj = pgdat->vm_events[PGMAJFAULT];
	/* read-around (32 pages centred on the miss) reads each page once */
	assert_true(maj > 0 && maj <= 256 / 16);
	assert_int_equal(pgdat->disk.reads, 256);
	assert_int_equal(as->nrpages, 256);
	assert_int_equal(a->rss_file, 256);
	assert_int_equal(nr_mapped(m), 256);
	for (unsigned long i = 0; i < 256; i++) {
		assert_int_equal(a->pte[va + i], as->i_pages[i]);
		assert_int_equal(file_page(m, as, i)->mapcount, 1);
	}
	/* anon memory after it: a new 2 MiB range, never the file's */
	assert_int_equal(mm_grow(a, 1) % PTRS_PER_PTE, 0);

	flt = pgdat->vm_events[PGFAULT];
	vb = mm_mmap_file(b, as, 0, 256, VM_READ | VM_EXEC);
	assert_int_equal(mm_access(pgdat, &m->ctx, b, vb, 256, false), 0);
	assert_int_equal(pgdat->vm_events[PGMAJFAULT], maj);        /* all cached */
	assert_int_equal(pgdat->vm_events[PGFAULT] - flt, 256 / 16); /* fault-around */
	assert_int_equal(nr_mapped(m), 256);
	for (unsigned long i = 0; i < 256; i++)
		assert_int_equal(file_page(m, as, i)->mapcount, 2);
	assert_int_equal(check_pgdat(pgdat, "mapped twice"), 0);

	/* exit: the mapcount drops, the pages stay; a young pte marks its
	 * page accessed (zap_pte_range), twice activates it */
	mmput(pgdat, &m->ctx, a);
	assert_int_equal(nr_mapped(m), 256);
	for (unsigned long i = 0; i < 256; i++) {
		assert_int_equal(file_page(m, as, i)->mapcount, 1);
		assert_true(PageTest(file_page(m, as, i), PG_referenced));
	}
	mmput(pgdat, &m->ctx, b);
	assert_int_equal(nr_mapped(m), 0);
	assert_int_equal(as->nrpages, 256);
	assert_int_equal(as->nr_i_mmap, 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 256);
	for (unsigned long i = 0; i < 256; i++)
		assert_int_equal(file_page(m, as, i)->mapcount, 0);
	assert_int_equal(check_pgdat(pgdat, "after exit"), 0);
}

/* munmap of part of a file area: its ptes go, the rest stays mapped */
static void test_partial_unmap(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 64, false);
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx);
	unsigned long va;
	(void)state;

	va = mm_mmap_file(a, as, 0, 64, VM_READ);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va, 64, false), 0);
	mm_unmap(pgdat, &m->ctx, a, va + 16, 16);
	assert_int_equal(nr_mapped(m), 48);
	assert_int_equal(a->rss_file, 48);
	assert_int_equal(as->nr_i_mmap, 2);
	for (unsigned long i = 0; i < 64; i++)
		assert_int_equal(file_page(m, as, i)->mapcount, i >= 16 && i < 32 ? 0 : 1);
	/* the hole faults no more (no area), the rest still maps */
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va + 40, 1, false), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va + 20, 1, false), -1);
	assert_int_equal(check_pgdat(pgdat, "partial unmap"), 0);
	mmput(pgdat, &m->ctx, a);
	assert_int_equal(nr_mapped(m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_map_fault_exit, tl_teardown),
		cmocka_unit_test_teardown(test_partial_unmap, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
