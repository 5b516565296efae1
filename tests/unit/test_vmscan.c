/* test_vmscan.c - reclaim's accounting: of transparent huge pages, of
 * allocation stalls, of refaults.
 *
 * A THP sits on the anon LRU as one entry of 512 pages.  v6.2's
 * isolate_lru_folios() counts folio_nr_pages() against nr_to_scan and in
 * pgscan, so one THP fills a SWAP_CLUSTER_MAX batch; shrink_folio_list()
 * splits a THP it cannot swap whole and reclaims the tail pages in the
 * same pass (split_folio_to_list()), without scanning them again.
 */
#include "testlib.h"

#define BLOCKS 32
#define THPS   8

struct thp_machine {
	struct machine *m;
	struct mm_struct *mm;
};

/* a machine with swap and one process that faulted THPS huge pages */
static void build(struct thp_machine *t)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct pglist_data *pgdat;
	char err[256];
	unsigned long nr = THPS * PTRS_PER_PTE;

	memset(t, 0, sizeof(*t));
	t->m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
	pgdat = &t->m->pgdat;
	pgdat->debug_check_interval = 0;
	assert_int_equal(swap_setup(pgdat, 16384, 100e-6, 1e9, err, sizeof(err)), 0);
	t->mm = mm_alloc(pgdat, &t->m->ctx);
	assert_non_null(t->mm);
	assert_int_equal(mm_mmap(t->mm, nr), 0);
	mm_madvise_hugepage(t->mm, 0, nr);
	assert_int_equal(mm_access(pgdat, &t->m->ctx, t->mm, 0, nr, true), 0);
	assert_int_equal(pgdat->vm_events[THP_FAULT_ALLOC], THPS);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) + lruvec_lru_size(pgdat, LRU_ACTIVE_ANON),
	                 THPS * PTRS_PER_PTE);
	assert_int_equal(check_pgdat(pgdat, "THPs faulted"), 0);
}

static void test_thp_counts_its_pages(void **state)
{
	struct thp_machine t;
	struct pglist_data *pgdat;
	unsigned long scanned, split;
	(void)state;

	build(&t);
	pgdat = &t.m->pgdat;
	/* direct reclaim until something is written out: the first passes
	 * find the THPs young from their fault (kept, then referenced) */
	for (int i = 0; i < 8 && !pgdat->vm_events[PSWPOUT]; i++)
		try_to_free_pages(pgdat, &t.m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	scanned = pgdat->vm_events[PGSCAN_DIRECT];
	split = pgdat->vm_events[THP_SWPOUT_FALLBACK];
	/* THPs were scanned as 512 pages each; the only order-0 pages
	 * scanned are written-out tails back on the list (this machine has
	 * no clock: a write completes at once), each of them freed */
	assert_true(scanned > 0);
	assert_true(pgdat->vm_events[PGSTEAL_DIRECT] > 0);
	assert_int_equal((scanned - pgdat->vm_events[PGSTEAL_DIRECT]) % PTRS_PER_PTE, 0);
	assert_int_equal(pgdat->vm_events[PGSCAN_ANON], scanned);
	/* each THP split for swap had all its 512 pages written in the pass
	 * that split it, and no more THPs were split than were scanned */
	assert_true(split > 0);
	assert_int_equal(pgdat->vm_events[PSWPOUT], split * PTRS_PER_PTE);
	assert_int_equal(pgdat->vm_events[THP_SPLIT_PAGE], split);
	assert_true(split * PTRS_PER_PTE <= scanned);
	assert_int_equal(check_pgdat(pgdat, "after reclaim"), 0);
}

/* Reclaim for a request that only lower zones can serve rotates the LRU
 * pages of higher zones instead of scanning them; when every page on the
 * lists is of a higher zone, reclaim must end with nothing scanned (it
 * once went round the list for ever). */
static void test_skipped_zone_ends(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct mm_layout l = tl_layout_dma32_normal(4, 8);
	struct machine *m = tl_boot("vanilla", NULL, &l, 1, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct mm_struct *mm;
	char err[256];
	unsigned long nr, normal;
	(void)state;

	pgdat->debug_check_interval = 0;
	assert_int_equal(swap_setup(pgdat, 16384, 100e-6, 1e9, err, sizeof(err)), 0);
	/* anonymous pages: the Normal zone serves them first; take no more
	 * than it has, so that every LRU page is a Normal one */
	normal = (unsigned long)zone_page_state(tl_zone(m, ZONE_NORMAL), NR_FREE_PAGES);
	nr = normal / 2;
	mm = mm_alloc(pgdat, &m->ctx);
	assert_non_null(mm);
	assert_int_equal(mm_mmap(mm, nr), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, mm, 0, nr, true), 0);
	for (unsigned long v = 0; v < nr; v++)
		assert_int_equal(page_zonenum(&pgdat->mem_map[entry_pfn(mm->pte[v])]), ZONE_NORMAL);
	/* a DMA32 request's reclaim: nothing it may scan */
	try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	assert_int_equal(pgdat->vm_events[PGSCAN_DIRECT], 0);
	assert_int_equal(pgdat->vm_events[PGSTEAL_DIRECT], 0);
	assert_int_equal(check_pgdat(pgdat, "after reclaim"), 0);
}

/* A costly request's direct reclaim, with one zone compaction-ready
 * (DMA32, free) and one not (Normal, full): v6.2's shrink_zones() skips
 * the ready zone, shrinks the node once for the other and stops; RFC
 * 21/26 (hygiene) stops before shrinking anything. */
static void test_compaction_ready_zone(void **state)
{
	(void)state;

	for (int hygiene = 0; hygiene < 2; hygiene++) {
		struct vm_sysctl s = tl_sysctl_nowmark();
		/* Normal large enough that a pass at DEF_PRIORITY scans
		 * something (lru size >> 12) */
		struct mm_layout l = tl_layout_dma32_normal(4, 128);
		struct machine *m = tl_boot(hygiene ? "hygiene" : "vanilla", NULL, &l, 1, &s);
		struct pglist_data *pgdat = &m->pgdat;
		struct zone *normal = tl_zone(m, ZONE_NORMAL);
		struct mm_struct *mm;
		char err[256];
		unsigned long nr, got, lru;

		pgdat->debug_check_interval = 0;
		assert_int_equal(swap_setup(pgdat, 16384, 100e-6, 1e9, err, sizeof(err)), 0);
		/* anonymous pages in the Normal zone, which serves them first:
		 * all of it under vanilla; under hygiene three quarters, the
		 * rest plugged with kernel memory (claiming its free blocks, as
		 * anonymous memory would, without running out of them) */
		nr = (unsigned long)zone_page_state(normal, NR_FREE_PAGES) - 700;
		if (hygiene)
			nr = nr / 4 * 3;
		mm = mm_alloc(pgdat, &m->ctx);
		assert_non_null(mm);
		assert_int_equal(mm_mmap(mm, nr), 0);
		assert_int_equal(mm_access(pgdat, &m->ctx, mm, 0, nr, true), 0);
		/* (what the per-cpu lists give back can merge into free
		 * blocks again: plug until none is left after a drain) */
		while (hygiene && zone_page_state(normal, NR_FREE_FREE) > 0) {
			while (zone_page_state(normal, NR_FREE_FREE) > 0)
				assert_non_null(alloc_pages(pgdat, &m->ctx, GFP_KERNEL | __GFP_MEMALLOC, 0));
			drain_all_pages(pgdat);
		}
		drain_all_pages(pgdat);
		/* Normal cannot serve the request nor compact for it */
		assert_int_equal(zone_page_state(normal, NR_FREE_FREE), 0);
		lru = lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) + lruvec_lru_size(pgdat, LRU_ACTIVE_ANON);
		assert_true(lru >= 4096);
		/* Normal: too few free pages to compact in; DMA32: a free block */
		assert_true(pol(pgdat)->compaction_suitable_free_pages(pgdat->policy, normal) <
		            (long)compact_gap(pageblock_order));
		assert_true(tl_zone(m, ZONE_DMA32)->free_area[pageblock_order].nr_free +
		            tl_zone(m, ZONE_DMA32)->free_area[pageblock_order + 1].nr_free > 0);
		got = try_to_free_pages(pgdat, &m->ctx, pageblock_order, GFP_HIGHUSER_MOVABLE, ZONE_NORMAL);
		assert_true(got > 0);
		if (hygiene) {
			assert_int_equal(pgdat->vm_events[PGSCAN_DIRECT], 0);
		} else {
			/* one pass at DEF_PRIORITY (lru >> 12 pages), then the stop */
			assert_true(pgdat->vm_events[PGSCAN_DIRECT] > 0);
			assert_true(pgdat->vm_events[PGSCAN_DIRECT] <= 2 * (lru >> 12) + 32);
		}
		assert_int_equal(check_pgdat(pgdat, "after reclaim"), 0);
		tl_destroy(m);
	}
}

/* allocstall_* counts every pass of do_try_to_free_pages(), as v6.2
 * counts it after its retry label: dirty file pages, which direct reclaim
 * never writes, half of them active and the inactive list not low, so the
 * first pass leaves the active list alone (skipped_deactivate), reclaims
 * nothing, and runs again with forced deactivation: two stalls for one
 * call.  A clean file's pages are reclaimed at once: one. */
static void test_allocstall_counts_each_pass(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 8, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as;
	(void)state;

	pgdat->debug_check_interval = 0;
	as = inode_create(pgdat, 64, false);
	assert_non_null(as);
	assert_int_equal(filemap_write(pgdat, &m->ctx, as, 0, 64), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 32), 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 32);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE), 32);
	assert_int_equal(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32), 0);
	assert_int_equal(pgdat->vm_events[PGSTEAL_DIRECT], 0);
	assert_true(pgdat->vm_events[PGSCAN_DIRECT] > 0);
	assert_int_equal(pgdat->vm_events[ALLOCSTALL_DMA32], 2);
	tl_destroy(m);

	m = tl_boot_dma32("vanilla", NULL, 8, &s);
	pgdat = &m->pgdat;
	pgdat->debug_check_interval = 0;
	as = inode_create(pgdat, 64, false);
	assert_non_null(as);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 64), 0);
	assert_true(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32) > 0);
	assert_int_equal(pgdat->vm_events[ALLOCSTALL_DMA32], 1);
	tl_destroy(m);
}

/* workingset_refault_file counts pages read back after eviction (a shadow
 * entry in their slot); v6.2's filemap_add_folio() skips the check for a
 * page allocated to be written (__GFP_WRITE): no refault, no activation */
static void test_write_over_shadow_is_no_refault(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 8, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct address_space *as;
	(void)state;

	pgdat->debug_check_interval = 0;
	as = inode_create(pgdat, 64, false);
	assert_non_null(as);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 64), 0);
	/* reclaim the clean pages: shadows stay in their slots */
	while (as->nrpages)
		assert_true(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32) > 0);
	assert_true(entry_nonres(as->i_pages[0]));
	assert_int_equal(filemap_write(pgdat, &m->ctx, as, 0, 32), 0);
	assert_int_equal(node_page_state(pgdat, WORKINGSET_REFAULT_FILE), 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 0);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 32, 32), 0);
	assert_int_equal(node_page_state(pgdat, WORKINGSET_REFAULT_FILE), 32);
	tl_destroy(m);
}

/* a refault within the workingset's reach is activated; only a page that
 * had been active before its eviction (PG_workingset in its shadow, as
 * pack_shadow() keeps it) is a workingset restore, comes back with
 * PG_workingset, and counts as the IO cost of reclaiming its type: a
 * page each in v6.2, SWAP_CLUSTER_MAX each from 6.12 on
 * (MMF_LRU_COST_ROTATIONS), which also counts rotations */
/* wakeup_kswapd() records the request (order, zone) always; past its
 * waitqueue_active() test (kswapd sleeping) it asks the host to wake
 * kswapd on a node below its watermarks, and the tracepoint
 * mm_vmscan_wakeup_kswapd (trace_events[TRACE_WAKEUP_KSWAPD]) counts it.
 * While kswapd works it returns before the balance test: the host is not
 * called, nothing is traced, and a balanced node wakes no kcompactd. */
static unsigned long fake_kswapd_wakes;

static void fake_kswapd_wake(struct pglist_data *pgdat)
{
	(void)pgdat;
	fake_kswapd_wakes++;
}

static const struct mm_host_ops kswapd_host = { .kswapd_wake = fake_kswapd_wake };

static void test_wakeup_kswapd_returns_while_kswapd_works(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct pglist_data *pgdat;
	(void)state;

	s.user_min_free_kbytes = 60000;         /* the watermarks above all 32 MiB */
	m = tl_boot_dma32("vanilla", NULL, 16, &s);
	pgdat = &m->pgdat;
	assert_false(pgdat_balanced(pgdat, 0, ZONE_DMA32));
	pgdat->host_ops = &kswapd_host;
	fake_kswapd_wakes = 0;

	pgdat->kswapd_sleeping = false;
	wakeup_kswapd(tl_zone(m, ZONE_DMA32), GFP_NOWAIT, 3, ZONE_DMA32);
	assert_int_equal(pgdat->kswapd_order, 3);
	assert_int_equal(pgdat->kswapd_highest_zoneidx, ZONE_DMA32);
	assert_int_equal(fake_kswapd_wakes, 0);
	assert_int_equal(pgdat->kswapd_wakeups, 0);
	assert_int_equal(pgdat->trace_events[TRACE_WAKEUP_KSWAPD][3], 0);

	pgdat->kswapd_sleeping = true;
	wakeup_kswapd(tl_zone(m, ZONE_DMA32), GFP_NOWAIT, 3, ZONE_DMA32);
	assert_int_equal(fake_kswapd_wakes, 1);
	assert_int_equal(pgdat->trace_events[TRACE_WAKEUP_KSWAPD][3], 1);
	pgdat->host_ops = NULL;
}

static void test_wakeup_kswapd_balanced_wakes_kcompactd_only_if_asleep(void **state)
{
	struct vm_sysctl s = tl_sysctl();
	struct machine *m;
	struct pglist_data *pgdat;
	(void)state;

	m = tl_boot_dma32("vanilla", NULL, 16, &s);
	pgdat = &m->pgdat;
	assert_true(pgdat_balanced(pgdat, 0, ZONE_DMA32));
	pgdat->host_ops = &kswapd_host;
	fake_kswapd_wakes = 0;

	pgdat->kswapd_sleeping = false;
	wakeup_kswapd(tl_zone(m, ZONE_DMA32), GFP_NOWAIT, 2, ZONE_DMA32);
	assert_int_equal(pgdat->kcompactd_max_order, 0);
	assert_int_equal(pgdat->kswapd_order, 2);

	pgdat->kswapd_sleeping = true;
	wakeup_kswapd(tl_zone(m, ZONE_DMA32), GFP_NOWAIT, 2, ZONE_DMA32);
	assert_int_equal(pgdat->kcompactd_max_order, 2);
	assert_int_equal(fake_kswapd_wakes, 0);    /* balanced: kswapd not woken */
	pgdat->host_ops = NULL;
}

static void test_refault_restores_only_the_workingset(void **state)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 8, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct lruvec *l = &pgdat->lruvec;
	struct address_space *as;
	struct page *old[2], *new[2];
	uint32_t shadow[2];
	unsigned long cost;
	(void)state;

	pgdat->debug_check_interval = 0;
	as = inode_create(pgdat, 1024, false);
	assert_non_null(as);
	/* read twice: an active file list for refaults to compete with */
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 1024), 0);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 1024), 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE), 1024);
	for (int i = 0; i < 2; i++) {
		assert_non_null(old[i] = tl_alloc(m, GFP_KERNEL, 0));
		assert_non_null(new[i] = tl_alloc(m, GFP_KERNEL, 0));
	}
	SetPageFlag(old[0], PG_workingset);
	for (int i = 0; i < 2; i++)
		shadow[i] = workingset_eviction(pgdat, tl_pfn(m, old[i]), 1);
	l->anon_cost = l->file_cost = 0;

	assert_true(workingset_refault(pgdat, new[1], shadow[1], true, 1));
	assert_true(PageTest(new[1], PG_active));
	assert_false(PageTest(new[1], PG_workingset));
	assert_int_equal(node_page_state(pgdat, WORKINGSET_ACTIVATE_FILE), 1);
	assert_int_equal(node_page_state(pgdat, WORKINGSET_RESTORE_FILE), 0);
	assert_int_equal(l->file_cost, 0);

	assert_true(workingset_refault(pgdat, new[0], shadow[0], true, 1));
	assert_true(PageTest(new[0], PG_active));
	assert_true(PageTest(new[0], PG_workingset));
	assert_int_equal(node_page_state(pgdat, WORKINGSET_RESTORE_FILE), 1);
	assert_int_equal(l->file_cost, 1);
	assert_int_equal(l->anon_cost, 0);

	/* v6.2: rotations cost nothing */
	lru_note_cost(pgdat, false, 0, 10);
	assert_int_equal(l->anon_cost, 0);
	/* 6.12: an IO weighs SWAP_CLUSTER_MAX, a rotation one */
	pgdat->policy->ops.features |= MMF_LRU_COST_ROTATIONS;
	cost = l->file_cost;
	lru_note_cost_refault(pgdat, true, 1);
	assert_int_equal(l->file_cost, cost + SWAP_CLUSTER_MAX);
	lru_note_cost(pgdat, false, 2, 10);
	assert_int_equal(l->anon_cost, 2 * SWAP_CLUSTER_MAX + 10);
	/* a floating average: halved past a quarter of the LRU pages */
	assert_int_equal(lruvec_lru_size(pgdat, LRU_ACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_INACTIVE_FILE), 1024);
	lru_note_cost(pgdat, false, 0, 1024);
	assert_int_equal(l->anon_cost, (2 * SWAP_CLUSTER_MAX + 10 + 1024) / 2);
	assert_int_equal(l->file_cost, (1 + SWAP_CLUSTER_MAX) / 2);
	for (int i = 0; i < 2; i++) {
		ClearPageFlag(new[i], PG_active);
		ClearPageFlag(new[i], PG_workingset);
		ClearPageFlag(old[i], PG_workingset);
		tl_free(m, old[i], 0);
		tl_free(m, new[i], 0);
	}
	tl_destroy(m);
}

/* a clock that stands still unless the test moves it: reclaim's pass
 * runs at one instant, as it does on the engine */
static double clock_now;
static double test_clock(const struct pglist_data *pgdat)
{
	(void)pgdat;
	return clock_now;
}
static const struct mm_host_ops test_host = { .clock = test_clock };

/* a process of NR_SWAP small anon pages, none of them young (their pte's
 * accessed bit and PG_young cleared, so that reclaim's first look swaps
 * them), on a machine whose clock stands at 0 and whose swap device has
 * this latency (1 GB/s) */
#define NR_SWAP 2048
static struct machine *cold_anon(double latency_s, struct mm_struct **mmp)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, 16, &s);
	struct pglist_data *pgdat = &m->pgdat;
	struct mm_struct *mm;
	char err[256];

	pgdat->debug_check_interval = 0;
	assert_int_equal(swap_setup(pgdat, 16384, latency_s, 1e9, err, sizeof(err)), 0);
	mm = mm_alloc(pgdat, &m->ctx);
	assert_non_null(mm);
	assert_int_equal(mm_mmap(mm, NR_SWAP), 0);
	assert_int_equal(mm_access(pgdat, &m->ctx, mm, 0, NR_SWAP, true), 0);
	assert_int_equal(pgdat->vm_events[THP_FAULT_ALLOC], 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_ANON), NR_SWAP);
	mm_young_test_clear(mm, 0, NR_SWAP);
	for (unsigned long v = 0; v < NR_SWAP; v++)
		ClearPageFlag(&pgdat->mem_map[entry_pfn(mm->pte[v])], PG_young);
	clock_now = 0;
	pgdat->host_ops = &test_host;
	m->ctx.kernel_ns = m->ctx.kernel_done_ns = 0;
	if (mmp)
		*mmp = mm;
	return m;
}

/* What makes pswpout exceed pgsteal_anon on configs/hugealloc.ini (docs/
 * model.md, "Swap-out and pgsteal_anon"): a page reclaim wrote to swap,
 * which end_page_writeback() put back clean on the inactive list, is
 * freed by reclaim's next look (pgsteal_anon) only if reclaim looks again
 * before its process unmaps it.  The munmap frees it as v6.2 does,
 * without shrink_folio_list(): zap_pte_range() -> free_swap_and_cache()
 * -> __try_to_reclaim_swap(TTRS_UNMAPPED) -> folio_free_swap() ->
 * delete_from_swap_cache(), the page going with its last reference; one
 * still being written goes when its write ends.  Counted in pswpout when
 * written, in no pgsteal_* ever; the run's swapout_* metrics tally each
 * fate. */
static void test_unmap_frees_written_swap_cache(void **state)
{
	struct mm_struct *mm;
	struct machine *m = cold_anon(100e-6, &mm);
	struct pglist_data *pgdat = &m->pgdat;
	const struct swap_info *si = &pgdat->swap;
	unsigned long written, freed;
	(void)state;

	/* reclaim writes pages out; a second later the writes are done and
	 * the next reclaim frees written pages from the inactive tail */
	try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	assert_true(pgdat->vm_events[PSWPOUT] > 32);
	clock_now = 1.0;
	swap_writeback_complete(pgdat, false);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), 0);
	assert_true(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32) >= 32);
	written = pgdat->vm_events[PSWPOUT];
	freed = pgdat->vm_events[PGSTEAL_ANON];
	assert_true(freed >= 32 && freed < written);
	assert_int_equal(si->inuse, written);
	assert_int_equal(mm->rss_anon, NR_SWAP - written);
	assert_int_equal(si->fate.written, written);
	assert_int_equal(si->fate.reclaimed, freed);

	/* faults on two swapped pages (v6.2's do_swap_page()): one whose
	 * page reclaim freed is read back (swap_readpage(): pswpin, a major
	 * fault); one still in the swap cache is mapped back without I/O
	 * (swap_cache_get_folio(): neither) */
	{
		unsigned long gone = NR_SWAP, cached = NR_SWAP;
		for (unsigned long v = 0; v < NR_SWAP; v++) {
			uint32_t e = mm->pte[v];
			if (!entry_nonres(e))
				continue;
			if (si->slot_page[e & ENTRY_VAL_MASK])
				cached = cached < NR_SWAP ? cached : v;
			else
				gone = gone < NR_SWAP ? gone : v;
		}
		assert_true(gone < NR_SWAP && cached < NR_SWAP);
		assert_int_equal(mm_access(pgdat, &m->ctx, mm, gone, 1, true), 0);
		assert_int_equal(pgdat->vm_events[PSWPIN], 1);
		assert_int_equal(pgdat->vm_events[PGMAJFAULT], 1);
		assert_int_equal(mm_access(pgdat, &m->ctx, mm, cached, 1, true), 0);
		assert_int_equal(pgdat->vm_events[PSWPIN], 1);
		assert_int_equal(pgdat->vm_events[PGMAJFAULT], 1);
		assert_int_equal(si->fate.mapped_back, 1);
		assert_int_equal(si->inuse, written - 2);
	}

	/* the process unmaps everything: the written pages left in the swap
	 * cache go with their slots (those still being written when their
	 * write ends), the mapped ones with their ptes; no reclaim counts
	 * them */
	mm_unmap(pgdat, &m->ctx, mm, 0, NR_SWAP);
	clock_now = 2.0;
	swap_writeback_complete(pgdat, false);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), 0);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) + lruvec_lru_size(pgdat, LRU_ACTIVE_ANON), 0);
	assert_int_equal(si->inuse, 0);
	assert_int_equal(pgdat->vm_events[PSWPOUT], written);
	assert_int_equal(pgdat->vm_events[PGSTEAL_ANON], freed);
	assert_int_equal(si->fate.unmapped, written - freed - 1);
	assert_int_equal(si->fate.written, si->fate.reclaimed + si->fate.unmapped + si->fate.mapped_back);
	assert_int_equal(check_pgdat(pgdat, "after munmap"), 0);
	tl_destroy(m);
}

/* A reclaim pass runs at one instant of virtual time but lasts its kernel
 * time (2.15 us a page it swaps out: isolating, unmapping, submitting);
 * the swap writes it queued early complete while it goes on, and v6.2's
 * end_page_writeback() rotates them to the inactive tail, where the
 * pass's next batches free them.  The pass frees its own written pages,
 * but none before the device has written it (100 us latency, 4.1 us a
 * page at 1 GB/s); with a device slower than the pass it frees none.
 * Without the completions inside the pass, kswapd wrote a priority's whole
 * budget before freeing any (126,523 pages written and 99 freed in one
 * pass on configs/hugealloc.ini), the written rest left to the faulter's
 * munmap (docs/model.md, "Swap-out and pgsteal_anon"). */
static void test_pass_frees_its_completed_writes(void **state)
{
	struct machine *m = cold_anon(100e-6, NULL);
	struct pglist_data *pgdat = &m->pgdat;
	unsigned long written, freed;
	(void)state;

	assert_true(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32) >= 32);
	written = pgdat->vm_events[PSWPOUT];
	freed = pgdat->vm_events[PGSTEAL_ANON];
	assert_true(freed >= 32);
	assert_true(freed < written);
	/* every page freed was written by the time the pass had got there */
	assert_true(100e-6 + (double)freed * PAGE_SIZE / 1e9 <= ctx_delay(&m->ctx));
	/* the rest is still being written, or written and on the list */
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK) + lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) +
	                         lruvec_lru_size(pgdat, LRU_ACTIVE_ANON) + freed,
	                 NR_SWAP);
	assert_int_equal(check_pgdat(pgdat, "after the pass"), 0);
	tl_destroy(m);

	/* a device slower than the whole pass: everything it wrote is still
	 * under writeback at its end, nothing freed */
	m = cold_anon(10.0, NULL);
	pgdat = &m->pgdat;
	assert_int_equal(try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32), 0);
	assert_true(pgdat->vm_events[PSWPOUT] > 0);
	assert_int_equal(pgdat->vm_events[PGSTEAL_ANON], 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), pgdat->vm_events[PSWPOUT]);
	tl_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compaction_ready_zone),
		cmocka_unit_test_teardown(test_thp_counts_its_pages, tl_teardown),
		cmocka_unit_test_teardown(test_skipped_zone_ends, tl_teardown),
		cmocka_unit_test_teardown(test_allocstall_counts_each_pass, tl_teardown),
		cmocka_unit_test_teardown(test_write_over_shadow_is_no_refault, tl_teardown),
		cmocka_unit_test_teardown(test_refault_restores_only_the_workingset, tl_teardown),
		cmocka_unit_test_teardown(test_wakeup_kswapd_returns_while_kswapd_works, tl_teardown),
		cmocka_unit_test_teardown(test_wakeup_kswapd_balanced_wakes_kcompactd_only_if_asleep, tl_teardown),
		cmocka_unit_test_teardown(test_unmap_frees_written_swap_cache, tl_teardown),
		cmocka_unit_test_teardown(test_pass_frees_its_completed_writes, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
