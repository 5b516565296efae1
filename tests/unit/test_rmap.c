/* test_rmap.c - file pages mapped into processes (mm_mmap_file): faults
 * through the page cache, mapcount and nr_mapped, exit, and what v6.2's
 * reclaim does with mapped pages (folio_check_references(),
 * shrink_active_list()'s VM_EXEC rule, try_to_unmap()).
 */
#include "testlib.h"
#include "exec.h"

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

/* forget the accessed bits of every pte of mm (pages mapped long ago and
 * not touched since) */
static void age_ptes(struct mm_struct *mm)
{
	memset(mm->young, 0, mm->cap_vpages / 64 * sizeof(uint64_t));
}

/* Reclaim meets, oldest first, an executable file mapped and touched once
 * (text), a data file mapped and touched once, and a file read once
 * through read().  v6.2's folio_check_references(): the text is
 * activated after its first use (VM_EXEC), the mapped data kept on the
 * inactive list (referenced, for another trip), the read-once file
 * reclaimed. */
static void test_exec_survives_reclaim(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *text = inode_create(pgdat, 64, false);
	struct address_space *data = inode_create(pgdat, 64, false);
	struct address_space *once = inode_create(pgdat, 512, false);
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx);
	unsigned long vt, vd, stolen, age;
	(void)state;

	vt = mm_mmap_file(a, text, 0, 64, VM_READ | VM_EXEC);
	vd = mm_mmap_file(a, data, 0, 64, VM_READ);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, vt, 64, false), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, vd, 64, false), 0);
	assert_int_equal(filemap_read(pgdat, &m->ctx, once, 0, 512), 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE), 640);

	age = pgdat->lruvec.nonresident_age;
	try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	stolen = pgdat->vm_events[PGSTEAL_DIRECT];
	/* each eviction and each page activated ticks the clock */
	assert_int_equal(pgdat->lruvec.nonresident_age - age, stolen + pgdat->vm_events[PGACTIVATE]);
	assert_true(stolen > 0);
	/* the scan reached past text and data into the read-once file */
	assert_true(pgdat->vm_events[PGSCAN_DIRECT] > 128);
	assert_int_equal(once->nrpages, 512 - stolen);
	for (unsigned long i = 0; i < 64; i++) {
		struct page *t = file_page(m, text, i), *d = file_page(m, data, i);
		assert_true(PageTest(t, PG_active));
		assert_int_equal(t->mapcount, 1);
		assert_false(PageTest(d, PG_active));
		assert_true(PageTest(d, PG_referenced));
		assert_int_equal(d->mapcount, 1);
	}
	assert_true(pgdat->vm_events[PGACTIVATE] >= 64);
	assert_int_equal(nr_mapped(m), 128);
	assert_int_equal(a->rss_file, 128);
	assert_int_equal(check_pgdat(pgdat, "after reclaim"), 0);
}

/* A mapped page that is reclaimed is first unmapped from every process
 * mapping it: their ptes cleared, their rss and its mapcount down,
 * nr_mapped down; a touch afterwards faults it back from the disk. */
static void test_reclaim_unmaps_every_mapper(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 128, false);
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx), *b = mm_alloc(pgdat, &m->ctx);
	unsigned long va, vb, gone = 0, maj;
	(void)state;

	va = mm_mmap_file(a, as, 0, 128, VM_READ);
	vb = mm_mmap_file(b, as, 0, 128, VM_READ);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va, 128, false), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, b, vb, 128, false), 0);
	age_ptes(a);
	age_ptes(b);
	try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	assert_true(pgdat->vm_events[PGSTEAL_DIRECT] > 0);
	for (unsigned long i = 0; i < 128; i++) {
		if (entry_present(as->i_pages[i])) {
			assert_int_equal(file_page(m, as, i)->mapcount, 2);
			assert_int_equal(a->pte[va + i], as->i_pages[i]);
			assert_int_equal(b->pte[vb + i], as->i_pages[i]);
			continue;
		}
		gone++;
		assert_int_equal(a->pte[va + i], 0);
		assert_int_equal(b->pte[vb + i], 0);
	}
	assert_int_equal(gone, pgdat->vm_events[PGSTEAL_DIRECT]);
	assert_int_equal(a->rss_file, 128 - gone);
	assert_int_equal(b->rss_file, 128 - gone);
	assert_int_equal(nr_mapped(m), 128 - gone);
	assert_int_equal(check_pgdat(pgdat, "after reclaim"), 0);
	/* the next touch reads them again */
	maj = pgdat->vm_events[PGMAJFAULT];
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va, 128, false), 0);
	assert_true(pgdat->vm_events[PGMAJFAULT] > maj);
	assert_int_equal(a->rss_file, 128);
	assert_int_equal(check_pgdat(pgdat, "after refault"), 0);
}

/* shrink_active_list(): active pages whose ptes are young lose the bit
 * and go to the inactive list, except executable file pages, which stay
 * active for another round (the VM_EXEC rule); the unreferenced text is
 * deactivated too.  pgdeactivate counts only the pages deactivated. */
static void test_active_exec_stays_active(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *text = inode_create(pgdat, 64, false);
	struct address_space *cold = inode_create(pgdat, 64, false);
	struct address_space *data = inode_create(pgdat, 64, false);
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx);
	unsigned long vt, vc, vd, age;
	(void)state;

	vt = mm_mmap_file(a, text, 0, 64, VM_READ | VM_EXEC);
	vc = mm_mmap_file(a, cold, 0, 64, VM_READ | VM_EXEC);
	vd = mm_mmap_file(a, data, 0, 64, VM_READ);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, vt, 64, false), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, vc, 64, false), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, vd, 64, false), 0);
	/* all three active (read twice through read(): folio_mark_accessed) */
	for (int k = 0; k < 2; k++) {
		assert_int_equal(filemap_read(pgdat, &m->ctx, text, 0, 64), 0);
		assert_int_equal(filemap_read(pgdat, &m->ctx, cold, 0, 64), 0);
		assert_int_equal(filemap_read(pgdat, &m->ctx, data, 0, 64), 0);
	}
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 192);
	/* the cold text's ptes are old; the others young */
	for (unsigned long i = 0; i < 64; i++)
		mm_young_test_clear(a, vc + i, 1);
	age = pgdat->lruvec.nonresident_age;
	shrink_active_list_direct(pgdat, &m->ctx, LRU_ACTIVE_FILE, 192);
	/* the rotated text aged the workingset clock (move_folios_to_lru) */
	assert_int_equal(pgdat->lruvec.nonresident_age - age, 64);
	assert_int_equal(pgdat->vm_events[PGREFILL], 192);
	assert_int_equal(pgdat->vm_events[PGDEACTIVATE], 128);
	for (unsigned long i = 0; i < 64; i++) {
		assert_true(PageTest(file_page(m, text, i), PG_active));
		assert_false(PageTest(file_page(m, cold, i), PG_active));
		assert_false(PageTest(file_page(m, data, i), PG_active));
		/* folio_referenced() cleared the bits */
		assert_false(mm_young_test_clear(a, vt + i, 1));
		assert_false(mm_young_test_clear(a, vd + i, 1));
	}
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 64);
	assert_int_equal(check_pgdat(pgdat, "after shrink_active_list"), 0);
}

/* Migration of a page two processes map: both ptes follow it */
static void test_migrate_mapped(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as = inode_create(pgdat, 32, false);
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx), *b = mm_alloc(pgdat, &m->ctx);
	unsigned long va, vb, src, dst;
	struct page *to;
	(void)state;

	va = mm_mmap_file(a, as, 0, 32, VM_READ | VM_EXEC);
	vb = mm_mmap_file(b, as, 0, 32, VM_READ | VM_EXEC);
	assert_int_equal(mm_access(pgdat, &m->ctx, a, va, 32, false), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, b, vb, 32, false), 0);
	src = entry_pfn(as->i_pages[5]);
	lruvec_del_page(pgdat, src);
	to = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(to);
	dst = tl_pfn(m, to);
	migrate_page(pgdat, src, dst);
	__free_pages(pgdat, &m->ctx, &pgdat->mem_map[src], 0);
	assert_int_equal(as->i_pages[5], ENTRY_PRESENT | dst);
	assert_int_equal(a->pte[va + 5], ENTRY_PRESENT | dst);
	assert_int_equal(b->pte[vb + 5], ENTRY_PRESENT | dst);
	assert_int_equal(pgdat->mem_map[dst].mapcount, 2);
	assert_int_equal(nr_mapped(m), 32);
	assert_int_equal(check_pgdat(pgdat, "after migration"), 0);
}

/* Two compile jobs exec cc1 (workloads/exec.c): the same files, one page
 * cache copy mapped by both; exec_run() makes the running text young
 * again, and the idle images (sh, gcc's driver) stay old */
static void test_exec_shares_text(void **state)
{
	struct vm_sysctl sc = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 128, &sc);
	struct pglist_data *pgdat = &m->pgdat;
	struct mm_struct *a = mm_alloc(pgdat, &m->ctx), *b = mm_alloc(pgdat, &m->ctx);
	struct exec_maps ea = { 0 }, eb = { 0 };
	const struct exec_image *cc1 = exec_image_find("/usr/lib/gcc/x86_64-linux-gnu/12/cc1");
	unsigned long mapped, files = pgdat->nr_inodes;
	(void)state;

	pgdat->debug_check_interval = 0;
	assert_non_null(cc1);
	assert_int_equal(exec_prog(pgdat, &m->ctx, a, PROG_CC1, &ea), 0);
	mapped = (unsigned long)nr_mapped(m);
	assert_true(a->rss_file == mapped);
	/* the hot share of cc1's text is mapped, not all of it */
	assert_true(mapped > cc1->pages / 2 && mapped < cc1->pages + 1000);
	assert_int_equal(exec_prog(pgdat, &m->ctx, b, PROG_CC1, &eb), 0);
	assert_int_equal(pgdat->nr_inodes, files + ea.n);          /* the same files */
	assert_int_equal(nr_mapped(m), mapped);
	assert_int_equal(b->rss_file, mapped);
	for (unsigned i = 0; i < ea.n; i++) {
		assert_int_equal(ea.m[i].img, eb.m[i].img);
		for (unsigned long k = 0; k < ea.m[i].img->pages; k++)
			if (entry_present(a->pte[ea.m[i].vpage + k]))
				assert_int_equal(pgdat->mem_map[entry_pfn(a->pte[ea.m[i].vpage + k])].mapcount, 2);
	}
	age_ptes(a);
	assert_int_equal(exec_run(pgdat, &m->ctx, a, &ea), 0);
	for (unsigned i = 0; i < ea.n; i++) {
		unsigned long young = 0;
		for (unsigned long k = 0; k < ea.m[i].img->pages; k++)
			young += mm_young_test_clear(a, ea.m[i].vpage + k, 1);
		assert_true(ea.m[i].running ? young > 0 : young == 0);
	}
	assert_int_equal(check_pgdat(pgdat, "two cc1"), 0);
	mmput(pgdat, &m->ctx, a);
	mmput(pgdat, &m->ctx, b);
	assert_int_equal(nr_mapped(m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_map_fault_exit, tl_teardown),
		cmocka_unit_test_teardown(test_partial_unmap, tl_teardown),
		cmocka_unit_test_teardown(test_exec_survives_reclaim, tl_teardown),
		cmocka_unit_test_teardown(test_reclaim_unmaps_every_mapper, tl_teardown),
		cmocka_unit_test_teardown(test_active_exec_stays_active, tl_teardown),
		cmocka_unit_test_teardown(test_migrate_mapped, tl_teardown),
		cmocka_unit_test_teardown(test_exec_shares_text, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
