/* test_compaction.c - compaction on constructed memory.
 *
 * Every test builds the same kind of machine: one DMA32 zone of 16
 * pageblocks (no watermarks, so every page is usable), a process whose
 * anonymous pages fill all but four blocks, those plugged with kernel
 * allocations, then three anonymous pages in four unmapped, scattered:
 * every block holds movable pages and free pages in small pieces, and no
 * free page of pageblock order exists.  What happens next is compaction's
 * doing alone (there is no swap: reclaim frees nothing).
 */
#include "testlib.h"

#define BLOCKS 16

struct fragmented {
	struct machine *m;
	struct mm_struct *mm;
	unsigned long nr;               /* virtual pages of the area */
};

static struct zone *dma32(struct fragmented *f)
{
	return tl_zone(f->m, ZONE_DMA32);
}

static void build(struct fragmented *f, const char *policy)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct pglist_data *pgdat;
	unsigned long base;

	memset(f, 0, sizeof(*f));
	f->m = tl_boot_dma32(policy, NULL, BLOCKS, &s);
	pgdat = &f->m->pgdat;
	pgdat->debug_check_interval = 0;        /* checked at the end of each step */
	f->mm = mm_alloc(pgdat, &f->m->ctx);
	assert_non_null(f->mm);
	/* anonymous memory over all but four blocks (page tables and fork's
	 * objects take a little of those) */
	f->nr = (unsigned long)zone_page_state(dma32(f), NR_FREE_PAGES) - 4 * pageblock_nr_pages;
	base = mm_mmap(f->mm, f->nr);
	assert_int_equal(base, 0);
	assert_int_equal(mm_access(pgdat, &f->m->ctx, f->mm, 0, f->nr, true), 0);
	drain_all_pages(pgdat);
	/* plug what is left with kernel memory, largest pieces first, of
	 * both types (so that no policy's placement rule leaves a hole),
	 * below the watermarks (__GFP_MEMALLOC) */
	for (int t = 0; t < 2; t++)
		for (int order = MAX_ORDER - 1; order >= 0; order--)
			while (alloc_pages(pgdat, &f->m->ctx,
			                   GFP_NOWAIT | __GFP_NOWARN | __GFP_MEMALLOC | (t ? 0 : __GFP_MOVABLE),
			                   (unsigned)order))
				;
	drain_all_pages(pgdat);
	assert_int_equal(zone_page_state(dma32(f), NR_FREE_PAGES), 0);
	/* three pages in four go, in a scattered pattern (a regular one
	 * would hide every free page from async compaction's strided scan) */
	for (unsigned long v = 0; v < f->nr; v++)
		if (((uint32_t)(v * 2654435761u) >> 12) % 4)
			mm_unmap(pgdat, &f->m->ctx, f->mm, v, 1);
	drain_all_pages(pgdat);
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		assert_int_equal(dma32(f)->free_area[o].nr_free, 0);
	assert_true(zone_page_state(dma32(f), NR_FREE_PAGES) > 4 * (long)pageblock_nr_pages);
	assert_int_equal(check_pgdat(pgdat, "fragmented"), 0);
}

/* every mapped page is where its pte says, and knows it */
static void assert_rmap(struct fragmented *f)
{
	struct pglist_data *pgdat = &f->m->pgdat;
	unsigned long mapped = 0;

	for (unsigned long v = 0; v < f->mm->nr_vpages; v++) {
		uint32_t e = f->mm->pte[v];
		struct page *p;
		if (!entry_present(e))
			continue;
		p = &pgdat->mem_map[entry_pfn(e)];
		assert_int_equal(p->owner, PGOWN_ANON);
		assert_int_equal(p->mapping, f->mm->id);
		assert_int_equal(p->index, v);
		assert_true(PageLRU(p));
		mapped++;
	}
	assert_int_equal(mapped, f->mm->rss_anon);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) + lruvec_lru_size(pgdat, LRU_ACTIVE_ANON),
	                 mapped);
	assert_int_equal(check_pgdat(pgdat, "after compaction"), 0);
}

/* a long-term pin (FOLL_LONGTERM) on the first mapped page of each block */
static void pin_one_per_block(struct fragmented *f)
{
	struct pglist_data *pgdat = &f->m->pgdat;
	unsigned long last_block = ~0ul;

	for (unsigned long v = 0; v < f->mm->nr_vpages; v++) {
		uint32_t e = f->mm->pte[v];
		if (!entry_present(e) || entry_pfn(e) >> pageblock_order == last_block)
			continue;
		last_block = entry_pfn(e) >> pageblock_order;
		SetPageFlag(&pgdat->mem_map[entry_pfn(e)], PG_pinned);
	}
}

static enum compact_result compact(struct fragmented *f, enum compact_priority prio,
                                   struct capture_control *capc)
{
	return tl_compact_thp(f->m, pageblock_order, prio, capc);
}

/* hand a page the test took off the free lists back to the allocator
 * (the allocator's prep_new_page() did not run on it) */
static void release_page(struct fragmented *f, unsigned long pfn, unsigned order)
{
	struct page *p = &f->m->pgdat.mem_map[pfn];
	p->refcount = 1;
	set_page_order(p, order);
	__free_pages(&f->m->pgdat, &f->m->ctx, p, order);
}

/* hand a captured block back */
static void release_captured(struct fragmented *f, unsigned long pfn)
{
	release_page(f, pfn, pageblock_order);
}

/* movable pages scattered over every block: a THP fault's async direct
 * compaction empties a block, and the freed block is captured */
static void test_direct_compaction_assembles_thp(void **state)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	struct page *thp;
	(void)state;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	thp = alloc_pages(pgdat, &f.m->ctx, GFP_TRANSHUGE, pageblock_order);
	assert_non_null(thp);
	assert_int_equal(tl_pfn(f.m, thp) % pageblock_nr_pages, 0);
	assert_int_equal(pgdat->vm_events[COMPACTSTALL], 1);
	assert_int_equal(pgdat->vm_events[COMPACTSUCCESS], 1);
	assert_int_equal(pgdat->vm_events[COMPACTFAIL], 0);
	/* async compaction came first: no reclaim was tried */
	assert_int_equal(pgdat->vm_events[ALLOCSTALL_DMA32] + pgdat->vm_events[ALLOCSTALL_MOVABLE], 0);
	/* a quarter block's worth of pages moved at least */
	assert_true(pgdat->vm_events[PGMIGRATE_SUCCESS] >= pageblock_nr_pages / 4);
	assert_true(pgdat->vm_events[COMPACTISOLATED] >= 2 * pgdat->vm_events[PGMIGRATE_SUCCESS]);
	assert_true(pgdat->vm_events[COMPACTMIGRATE_SCANNED] > 0);
	assert_true(pgdat->vm_events[COMPACTFREE_SCANNED] > 0);
	assert_int_equal(pgdat->vm_events[KCOMPACTD_MIGRATE_SCANNED], 0);
	assert_rmap(&f);
	__free_pages(pgdat, &f.m->ctx, thp, pageblock_order);
	assert_int_equal(check_pgdat(pgdat, "thp freed"), 0);
}

/* the block compaction frees goes to the compacting task, not the lists */
static void test_capture_hands_over_the_block(void **state)
{
	struct fragmented f;
	struct capture_control capc;
	enum compact_result r;
	long free_before;
	(void)state;

	build(&f, "vanilla");
	free_before = zone_page_state(dma32(&f), NR_FREE_PAGES);
	r = compact(&f, COMPACT_PRIO_ASYNC, &capc);
	assert_int_equal(r, COMPACT_SUCCESS);
	assert_int_not_equal(capc.page, PFN_NONE);
	assert_int_equal(capc.page % pageblock_nr_pages, 0);
	assert_false(PageBuddy(&f.m->pgdat.mem_map[capc.page]));
	/* nothing of pageblock order reached the free lists */
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		assert_int_equal(dma32(&f)->free_area[o].nr_free, 0);
	/* the captured block is off the free counts; migration moved pages
	 * without changing how much is free (once the sources left on this
	 * CPU's pcp list are drained) */
	drain_all_pages(&f.m->pgdat);
	assert_int_equal(zone_page_state(dma32(&f), NR_FREE_PAGES), free_before - (long)pageblock_nr_pages);
	release_captured(&f, capc.page);
	assert_rmap(&f);
}

/* a pinned page in every block: nothing can be freed whole, compaction
 * fails, the fault falls back, and compaction of the zone is deferred */
static void test_pinned_page_in_every_block_fails_and_defers(void **state)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	(void)state;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	pin_one_per_block(&f);
	assert_null(alloc_pages(pgdat, &f.m->ctx, GFP_TRANSHUGE, pageblock_order));
	assert_true(pgdat->vm_events[COMPACTSTALL] >= 1);
	assert_int_equal(pgdat->vm_events[COMPACTSUCCESS], 0);
	assert_int_equal(pgdat->vm_events[COMPACTFAIL], pgdat->vm_events[COMPACTSTALL]);
	/* the sync-light pass after reclaim scanned the zone and deferred */
	assert_true(dma32(&f)->compact_defer_shift >= 1);
	assert_true(dma32(&f)->compact_order_failed <= (int)pageblock_order);
	assert_true(compaction_deferred(dma32(&f), pageblock_order));
	/* pinned pages stayed where they were */
	for (unsigned long v = 0; v < f.mm->nr_vpages; v++) {
		uint32_t e = f.mm->pte[v];
		if (entry_present(e) && PageTest(&pgdat->mem_map[entry_pfn(e)], PG_pinned))
			assert_int_equal(pgdat->mem_map[entry_pfn(e)].index, v);
	}
	assert_rmap(&f);
}

/* blocks that an unmovable fallback claimed still hold movable pages:
 * async direct compaction of a movable request leaves those blocks alone,
 * sync compaction takes pages from them */
static unsigned long claim_even_blocks_unmovable(struct fragmented *f, unsigned long *pfns, unsigned long cap)
{
	struct pglist_data *pgdat = &f->m->pgdat;
	struct zone *z = dma32(f);
	unsigned long n = 0;

	for (unsigned long pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn += pageblock_nr_pages)
		if ((pfn / pageblock_nr_pages) % 2 == 0 && get_pageblock_migratetype(pgdat, pfn) == MIGRATE_MOVABLE) {
			move_freepages_block(z, pfn, MIGRATE_UNMOVABLE, NULL);
			set_pageblock_migratetype(pgdat, pfn, MIGRATE_UNMOVABLE);
		}
	/* the mapped pages in those blocks */
	for (unsigned long v = 0; v < f->mm->nr_vpages && n < cap; v++) {
		uint32_t e = f->mm->pte[v];
		if (entry_present(e) && get_pageblock_migratetype(pgdat, entry_pfn(e)) == MIGRATE_UNMOVABLE)
			pfns[n++] = v;
	}
	return n;
}

static unsigned long moved_from_unmovable_blocks(struct fragmented *f, const unsigned long *vpages,
                                                 unsigned long n)
{
	struct pglist_data *pgdat = &f->m->pgdat;
	unsigned long moved = 0;

	for (unsigned long i = 0; i < n; i++) {
		uint32_t e = f->mm->pte[vpages[i]];
		if (get_pageblock_migratetype(pgdat, entry_pfn(e)) != MIGRATE_UNMOVABLE)
			moved++;
	}
	return moved;
}

static void test_async_skips_blocks_sync_scans(void **state)
{
	static unsigned long vp[BLOCKS * pageblock_nr_pages];
	struct fragmented a, s;
	struct capture_control capc;
	unsigned long na, ns, scanned_async, scanned_sync;
	(void)state;

	build(&a, "vanilla");
	na = claim_even_blocks_unmovable(&a, vp, BLOCKS * pageblock_nr_pages);
	assert_true(na > 0);
	compact(&a, COMPACT_PRIO_ASYNC, &capc);
	scanned_async = a.m->pgdat.vm_events[COMPACTMIGRATE_SCANNED];
	assert_int_equal(moved_from_unmovable_blocks(&a, vp, na), 0);
	if (capc.page != PFN_NONE)
		release_captured(&a, capc.page);
	assert_rmap(&a);
	tl_destroy(a.m);

	build(&s, "vanilla");
	ns = claim_even_blocks_unmovable(&s, vp, BLOCKS * pageblock_nr_pages);
	assert_int_equal(ns, na);
	/* the whole zone, no skip hints: the scanners meet */
	compact(&s, MIN_COMPACT_PRIORITY, &capc);
	scanned_sync = s.m->pgdat.vm_events[COMPACTMIGRATE_SCANNED];
	assert_true(moved_from_unmovable_blocks(&s, vp, ns) > 0);
	assert_true(scanned_sync > scanned_async);
	if (capc.page != PFN_NONE)
		release_captured(&s, capc.page);
	assert_rmap(&s);
}

/* the same, under hygiene: movable blocks are clean, so compaction scans
 * only them, whatever its mode (the cover letter) */
static void test_hygiene_scans_only_movable_blocks(void **state)
{
	static unsigned long vp[BLOCKS * pageblock_nr_pages];
	struct fragmented h;
	struct capture_control capc;
	unsigned long n;
	(void)state;

	build(&h, "hygiene");
	n = claim_even_blocks_unmovable(&h, vp, BLOCKS * pageblock_nr_pages);
	assert_true(n > 0);
	compact(&h, MIN_COMPACT_PRIORITY, &capc);
	assert_int_equal(moved_from_unmovable_blocks(&h, vp, n), 0);
	assert_true(h.m->pgdat.vm_events[PGMIGRATE_SUCCESS] > 0);
	if (capc.page != PFN_NONE)
		release_captured(&h, capc.page);
	assert_rmap(&h);
}

/* anonymous pages per block */
static void anon_per_block(struct fragmented *f, unsigned long *nr)
{
	struct pglist_data *pgdat = &f->m->pgdat;
	struct zone *z = dma32(f);

	for (unsigned long pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn++) {
		if (pfn % pageblock_nr_pages == 0)
			nr[(pfn - z->zone_start_pfn) / pageblock_nr_pages] = 0;
		if (pgdat->mem_map[pfn].owner == PGOWN_ANON && !PageBuddy(&pgdat->mem_map[pfn]))
			nr[(pfn - z->zone_start_pfn) / pageblock_nr_pages]++;
	}
}

/* v6.2 fast_find_migrateblock(): a costly request's compaction looks on
 * the movable free lists (orders 3 to 8) for a block in the lower half of
 * the zone with free pages, marks it skipped and moves the migrate
 * scanner there; isolate_migratepages_block() then gives up on the
 * skipped block, so the scanner passes it with its pages in place */
static void test_fast_find_migrateblock_passes_the_block_found(void **state)
{
	struct fragmented f;
	struct capture_control capc;
	struct pglist_data *pgdat;
	struct zone *z;
	unsigned long before[BLOCKS], after[BLOCKS];
	bool candidate[BLOCKS] = { false };
	unsigned long passed = 0, nr_candidates = 0;
	(void)state;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	z = dma32(&f);
	/* blocks of the lower half with a movable free page of order 3-8 */
	for (unsigned long pfn = z->zone_start_pfn; pfn < z->zone_start_pfn + BLOCKS / 2 * pageblock_nr_pages; pfn++) {
		struct page *p = &pgdat->mem_map[pfn];
		if (PageBuddy(p) && page_order(p) >= PAGE_ALLOC_COSTLY_ORDER && page_order(p) < pageblock_order &&
		    get_pageblock_migratetype(pgdat, pfn) == MIGRATE_MOVABLE) {
			unsigned long b = (pfn - z->zone_start_pfn) / pageblock_nr_pages;
			nr_candidates += !candidate[b];
			candidate[b] = true;
		}
		if (PageBuddy(p))
			pfn += (1ul << page_order(p)) - 1;
	}
	assert_true(nr_candidates > 0);
	for (unsigned long b = 0; b < BLOCKS; b++)
		assert_false(get_pageblock_skip(pgdat, z->zone_start_pfn + b * pageblock_nr_pages));
	anon_per_block(&f, before);
	compact(&f, DEF_COMPACT_PRIORITY, &capc);
	anon_per_block(&f, after);
	for (unsigned long b = 0; b < BLOCKS; b++)
		if (candidate[b] && get_pageblock_skip(pgdat, z->zone_start_pfn + b * pageblock_nr_pages) &&
		    after[b] == before[b] && before[b] > 0)
			passed++;
	assert_true(passed > 0);
	if (capc.page != PFN_NONE)
		release_captured(&f, capc.page);
	assert_rmap(&f);
}

/* the free scanner's targets at the highest priority: v6.2 sets
 * ignore_block_suitable and takes free pages of any block, so movable
 * pages land in unmovable blocks; the RFC (15/26, 25/26) takes free pages
 * of movable blocks only */
static void test_free_scanner_targets_at_min_priority(void **state)
{
	static unsigned long vp[BLOCKS * pageblock_nr_pages];
	static uint32_t held[BLOCKS * pageblock_nr_pages][2];
	struct fragmented f;
	struct capture_control capc;
	unsigned long n, nr_held, gained, before[BLOCKS], after[BLOCKS];
	(void)state;

	for (int hygiene = 0; hygiene < 2; hygiene++) {
		struct pglist_data *pgdat;
		struct zone *z;

		build(&f, hygiene ? "hygiene" : "vanilla");
		pgdat = &f.m->pgdat;
		z = dma32(&f);
		n = claim_even_blocks_unmovable(&f, vp, BLOCKS * pageblock_nr_pages);
		assert_true(n > 0);
		/* the free pages of the upper movable blocks are taken away:
		 * coming down from the zone's end, the free scanner finds
		 * free pages in unmovable blocks first, in movable blocks
		 * only in the lower half (enough of them for compaction to
		 * be suitable under hygiene, whose compaction_suitable()
		 * counts NR_FREE_MOVABLE) */
		nr_held = 0;
		for (unsigned long pfn = z->zone_start_pfn + BLOCKS / 2 * pageblock_nr_pages; pfn < zone_end_pfn(z); pfn++) {
			struct page *p = &pgdat->mem_map[pfn];
			if (PageBuddy(p) && get_pageblock_migratetype(pgdat, pfn) == MIGRATE_MOVABLE) {
				unsigned order = page_order(p);
				assert_int_equal(__isolate_free_page(z, pfn, order), 1ul << order);
				held[nr_held][0] = (uint32_t)pfn;
				held[nr_held++][1] = order;
				pfn += (1ul << order) - 1;
			}
		}
		assert_true(nr_held > 0);
		anon_per_block(&f, before);
		compact(&f, MIN_COMPACT_PRIORITY, &capc);
		anon_per_block(&f, after);
		/* pages migrated into unmovable blocks */
		gained = 0;
		for (unsigned long b = 0; b < BLOCKS; b++)
			if (tl_block_mt(f.m, z->zone_start_pfn + b * pageblock_nr_pages) == MIGRATE_UNMOVABLE &&
			    after[b] > before[b])
				gained += after[b] - before[b];
		assert_true(pgdat->vm_events[PGMIGRATE_SUCCESS] > 0);
		if (hygiene)
			assert_int_equal(gained, 0);
		else
			assert_true(gained > 0);
		if (capc.page != PFN_NONE)
			release_captured(&f, capc.page);
		for (unsigned long i = 0; i < nr_held; i++)
			release_page(&f, held[i][0], held[i][1]);
		assert_rmap(&f);
		tl_destroy(f.m);
	}
}

/* RFC 08/26: a smaller piece of a movable block is never captured, even
 * for a movable request, so an order-0 request's compaction (RFC 22/26:
 * at pageblock order, capturing at the request's) goes on until a whole
 * block is free, claims it and takes one page; the rest of the block
 * goes back to the free lists */
static void test_hygiene_order0_capture_takes_a_block(void **state)
{
	struct fragmented h;
	struct pglist_data *pgdat;
	struct alloc_context ac = { .highest_zoneidx = ZONE_DMA32, .migratetype = MIGRATE_MOVABLE };
	struct capture_control capc = { .order = 0, .compact_order = pageblock_order,
	                                .migratetype = MIGRATE_MOVABLE, .page = PFN_NONE };
	struct mm_ctx ctx = { .cpu = 0 };
	unsigned long block, free_in_block = 0;
	(void)state;

	build(&h, "hygiene");
	pgdat = &h.m->pgdat;
	ctx.capture_control = &capc;
	mm_set_current(&ctx);
	try_to_compact_pages(pgdat, &ctx, GFP_HIGHUSER_MOVABLE, pageblock_order, ALLOC_WMARK_MIN, &ac,
	                     MIN_COMPACT_PRIORITY, &capc);
	mm_set_current(NULL);
	assert_true(capc.page != PFN_NONE);
	drain_all_pages(pgdat);
	block = capc.page & ~(pageblock_nr_pages - 1);
	for (unsigned long pfn = block; pfn < block + pageblock_nr_pages; pfn++)
		free_in_block += PageBuddy(&pgdat->mem_map[pfn]) ? 1ul << page_order(&pgdat->mem_map[pfn]) : 0;
	assert_int_equal(free_in_block, pageblock_nr_pages - 1);
	assert_int_equal(tl_block_mt(h.m, block), MIGRATE_MOVABLE);
	/* the captured page back */
	release_page(&h, capc.page, 0);
	assert_rmap(&h);
	assert_int_equal(check_pgdat(pgdat, "after the order-0 capture"), 0);
}

/* RFC 22/26: kcompactd compacts until the high watermark of free blocks
 * is met.  With one free block, the order is free at the min watermark,
 * and v6.2's compaction_suitable() answered SUCCESS ("can already
 * succeed" at min): hygiene's kcompactd gave up between min and high.
 * RFC 17/26's form asks only for migration targets. */
static void test_hygiene_kcompactd_works_to_high(void **state)
{
	struct fragmented h;
	struct capture_control capc;
	struct pglist_data *pgdat;
	struct zone *z;
	struct mm_ctx kctx = { .cpu = 0, .flags = PF_KTHREAD };
	long free_blocks;
	(void)state;

	build(&h, "hygiene");
	pgdat = &h.m->pgdat;
	z = dma32(&h);
	/* one free block: a direct compaction's, handed back */
	compact(&h, MIN_COMPACT_PRIORITY, &capc);
	assert_true(capc.page != PFN_NONE);
	release_captured(&h, capc.page);
	drain_all_pages(pgdat);
	free_blocks = zone_page_state(z, NR_FREE_FREE);
	assert_int_equal(free_blocks, pageblock_nr_pages);
	/* min 0, high four blocks: an order-9 request succeeds at min, the
	 * node is below its high watermark, migration targets abound */
	z->_watermark[WMARK_HIGH] = 4 * pageblock_nr_pages;
	assert_true(zone_watermark_ok(pgdat, z, pageblock_order, min_wmark_pages(z), ZONE_DMA32, 0));
	assert_false(zone_watermark_ok(pgdat, z, pageblock_order, high_wmark_pages(z), ZONE_DMA32, 0));
	assert_int_equal(compaction_suitable(z, pageblock_order, 0, ZONE_DMA32), COMPACT_SUCCESS);
	assert_int_equal(compaction_suitable_targets(z, pageblock_order, ZONE_DMA32, min_wmark_pages(z)),
	                 COMPACT_CONTINUE);
	pgdat->kcompactd_max_order = pageblock_order;
	pgdat->kcompactd_highest_zoneidx = ZONE_DMA32;
	kcompactd_do_work(pgdat, &kctx);
	drain_all_pages(pgdat);
	assert_true(pgdat->vm_events[KCOMPACTD_MIGRATE_SCANNED] > 0);
	assert_true(zone_page_state(z, NR_FREE_FREE) > free_blocks);
	assert_rmap(&h);
	assert_int_equal(check_pgdat(pgdat, "after kcompactd"), 0);
}

/* every anonymous page pinned: a scan isolates nothing and marks every
 * block it scanned from its first pfn skip; the next scan looks at far
 * less (see below), until kswapd's reset clears the bits */
static void test_skip_bits_avoid_rescans_until_reset(void **state)
{
	struct fragmented f;
	struct capture_control capc;
	struct pglist_data *pgdat;
	unsigned long s1, s2, s3;
	(void)state;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	for (unsigned long v = 0; v < f.mm->nr_vpages; v++)
		if (entry_present(f.mm->pte[v]))
			SetPageFlag(&pgdat->mem_map[entry_pfn(f.mm->pte[v])], PG_pinned);
	assert_int_not_equal(compact(&f, COMPACT_PRIO_SYNC_LIGHT, &capc), COMPACT_SUCCESS);
	s1 = pgdat->vm_events[COMPACTMIGRATE_SCANNED];
	assert_true(s1 > BLOCKS * pageblock_nr_pages / 4);
	assert_true(dma32(&f)->compact_blockskip_flush);
	/* not deferred for the next attempt */
	compaction_defer_reset(dma32(&f), pageblock_order, true);
	dma32(&f)->compact_order_failed = MAX_ORDER;
	compact(&f, COMPACT_PRIO_SYNC_LIGHT, &capc);
	s2 = pgdat->vm_events[COMPACTMIGRATE_SCANNED] - s1;
	/* a pfn for each skipped block, the free list entries
	 * fast_find_migrateblock() looks at (counted as scanned), and the
	 * blocks the first run entered past their first pfn (the linear
	 * scan after a failed fast search starts at the free page found),
	 * which it could not mark */
	assert_true(s2 < s1 / 2);
	/* kswapd going to sleep clears them (reset_isolation_suitable) */
	reset_isolation_suitable(pgdat);
	assert_false(dma32(&f)->compact_blockskip_flush);
	compaction_defer_reset(dma32(&f), pageblock_order, true);
	dma32(&f)->compact_order_failed = MAX_ORDER;
	compact(&f, COMPACT_PRIO_SYNC_LIGHT, &capc);
	s3 = pgdat->vm_events[COMPACTMIGRATE_SCANNED] - s1 - s2;
	assert_int_equal(s3, s1);
	assert_int_equal(pgdat->vm_events[PGMIGRATE_SUCCESS], 0);
	assert_rmap(&f);
}

/* the pinned machine of the test above, with compound kernel pages taken
 * from the scattered free pages; one sync compaction's
 * compact_migrate_scanned, and what the scanner stepped over (free
 * buddies and compound pages past their first page) */
static unsigned long pinned_scan(bool count_skipped, unsigned long *stepped_over)
{
	struct fragmented f;
	struct capture_control capc;
	struct pglist_data *pgdat;
	struct zone *z;
	unsigned long scanned;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	if (count_skipped)
		pgdat->policy->ops.features |= MMF_COMPACT_SCANNED_COUNTS_SKIPPED;
	for (unsigned long v = 0; v < f.mm->nr_vpages; v++)
		if (entry_present(f.mm->pte[v]))
			SetPageFlag(&pgdat->mem_map[entry_pfn(f.mm->pte[v])], PG_pinned);
	for (int i = 0; i < 8; i++)
		assert_non_null(alloc_pages(pgdat, &f.m->ctx, GFP_NOWAIT | __GFP_NOWARN | __GFP_MEMALLOC | __GFP_COMP, 2));
	drain_all_pages(pgdat);
	z = dma32(&f);
	*stepped_over = 0;
	for (unsigned long pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn++) {
		const struct page *p = &pgdat->mem_map[pfn];
		if ((PageBuddy(p) || PageHead(p)) && page_order(p) > 0)
			*stepped_over += (1ul << page_order(p)) - 1;
	}
	assert_true(*stepped_over > 0);
	assert_int_not_equal(compact(&f, COMPACT_PRIO_SYNC_FULL, &capc), COMPACT_SUCCESS);
	assert_int_equal(pgdat->vm_events[PGMIGRATE_SUCCESS], 0);
	scanned = pgdat->vm_events[COMPACTMIGRATE_SCANNED];
	tl_destroy(f.m);
	return scanned;
}

/* v6.2 counts a free buddy or a compound page the migrate scanner steps
 * over as one page scanned; 6.12 (MMF_COMPACT_SCANNED_COUNTS_SKIPPED)
 * counts all its pages: a full scan of every block then counts what it
 * stepped over on top, and nothing else changes */
static void test_skipped_pages_count_as_scanned_from_6_12(void **state)
{
	unsigned long over_v62, over_612;
	unsigned long v62 = pinned_scan(false, &over_v62);
	unsigned long v612 = pinned_scan(true, &over_612);
	(void)state;

	assert_int_equal(over_v62, over_612);
	assert_int_equal(v612 - v62, over_612);
}

/* proactive compaction as v6.2 counts it: compact_zone() counts the scan
 * in compact_{migrate,free}_scanned, and proactive_compact_node() adds
 * nothing to the compact_daemon_* counters (kcompactd_do_work()'s alone);
 * a kernel from v6.3 on counts proactive runs there too.  Both policies
 * model a v6.2 tree. */
static void proactive_counts(const char *policy, bool v63)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	struct mm_ctx kctx = { .cpu = 0, .flags = PF_KTHREAD };

	build(&f, policy);
	pgdat = &f.m->pgdat;
	if (v63)
		pgdat->policy->ops.features |= MMF_PROACTIVE_COMPACT_COUNTS_DAEMON;
	proactive_compact_node(pgdat, &kctx);
	assert_true(pgdat->vm_events[COMPACTMIGRATE_SCANNED] > 0);
	assert_true(pgdat->vm_events[COMPACTFREE_SCANNED] > 0);
	assert_true(pgdat->vm_events[PGMIGRATE_SUCCESS] > 0);
	assert_int_equal(pgdat->vm_events[KCOMPACTD_WAKE], 0);
	if (v63) {
		assert_int_equal(pgdat->vm_events[KCOMPACTD_MIGRATE_SCANNED],
		                 pgdat->vm_events[COMPACTMIGRATE_SCANNED]);
		assert_int_equal(pgdat->vm_events[KCOMPACTD_FREE_SCANNED], pgdat->vm_events[COMPACTFREE_SCANNED]);
	} else {
		assert_int_equal(pgdat->vm_events[KCOMPACTD_MIGRATE_SCANNED], 0);
		assert_int_equal(pgdat->vm_events[KCOMPACTD_FREE_SCANNED], 0);
	}
	assert_rmap(&f);
	tl_destroy(f.m);
}

static void test_proactive_compaction_is_not_daemon_work(void **state)
{
	(void)state;
	proactive_counts("vanilla", false);
	proactive_counts("hygiene", false);
	proactive_counts("vanilla", true);
}

/* echo 1 > /proc/sys/vm/compact_memory (compact_nodes()): the fragmented
 * zone compacted whole, synchronously, once: free pageblocks appear where
 * there were none, the pages stay mapped where their ptes say, and the
 * scan is no daemon's work even where proactive compaction's is. */
static void test_compact_memory_makes_free_blocks(void **state)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	struct mm_ctx ctx = { .cpu = 0 };
	unsigned long blocks = 0;
	(void)state;

	build(&f, "v6_15");
	pgdat = &f.m->pgdat;
	assert_true(mm_policy_has(pgdat->policy, MMF_PROACTIVE_COMPACT_COUNTS_DAEMON));
	compact_nodes(pgdat, &ctx);
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		blocks += dma32(&f)->free_area[o].nr_free << (o - pageblock_order);
	assert_true(blocks >= 2);
	assert_true(pgdat->vm_events[PGMIGRATE_SUCCESS] > 0);
	assert_int_equal(pgdat->vm_events[KCOMPACTD_MIGRATE_SCANNED], 0);
	assert_int_equal(pgdat->vm_events[KCOMPACTD_FREE_SCANNED], 0);
	assert_int_equal(pgdat->vm_events[KCOMPACTD_WAKE], 0);
	assert_rmap(&f);
	tl_destroy(f.m);
}

/* CONFIG_NUMA's THP fault (vma_alloc_folio): a pinned page in every block,
 * so every compaction fails.  The local-node attempt alone
 * (__GFP_THISNODE | __GFP_NORETRY) compacts async, reclaims once, compacts
 * async again and gives up: two stalls, one reclaim, and no deferral
 * (only sync compaction defers). */
static void test_thisnode_noretry_attempt_is_async_only(void **state)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	(void)state;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	pin_one_per_block(&f);
	assert_null(alloc_pages(pgdat, &f.m->ctx, GFP_TRANSHUGE | __GFP_THISNODE | __GFP_NORETRY,
	                        pageblock_order));
	assert_int_equal(pgdat->vm_events[COMPACTSTALL], 2);
	assert_int_equal(pgdat->vm_events[COMPACTFAIL], 2);
	assert_int_equal(pgdat->vm_events[ALLOCSTALL_DMA32] + pgdat->vm_events[ALLOCSTALL_MOVABLE] +
	                 pgdat->vm_events[ALLOCSTALL_NORMAL], 1);
	assert_int_equal(dma32(&f)->compact_defer_shift, 0);
	assert_false(compaction_deferred(dma32(&f), pageblock_order));
	assert_rmap(&f);
}

/* a madvised THP fault that fails: with CONFIG_NUMA two slow paths (the
 * local-node NORETRY one above, then GFP_TRANSHUGE's: async compaction,
 * reclaim, sync-light compaction), without it one; one fallback either way */
static void thp_fault_fails(bool numa, unsigned long stalls, unsigned long allocstalls)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	unsigned long base;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	pgdat->config_numa = numa;
	pin_one_per_block(&f);
	base = mm_mmap(f.mm, PTRS_PER_PTE);
	mm_madvise_hugepage(f.mm, base, PTRS_PER_PTE);
	assert_int_equal(mm_access(pgdat, &f.m->ctx, f.mm, base, 1, true), 0);
	assert_false(f.mm->pmd_flags[base / PTRS_PER_PTE] & PMD_TRANS_HUGE);
	assert_int_equal(pgdat->vm_events[THP_FAULT_FALLBACK], 1);
	assert_int_equal(pgdat->vm_events[THP_FAULT_ALLOC], 0);
	assert_int_equal(pgdat->vm_events[COMPACTSTALL], stalls);
	assert_int_equal(pgdat->vm_events[COMPACTFAIL], stalls);
	assert_int_equal(pgdat->vm_events[ALLOCSTALL_DMA32] + pgdat->vm_events[ALLOCSTALL_MOVABLE] +
	                 pgdat->vm_events[ALLOCSTALL_NORMAL], allocstalls);
	/* the last compaction was sync-light: deferred */
	assert_true(compaction_deferred(dma32(&f), pageblock_order));
	assert_rmap(&f);
	tl_destroy(f.m);
}

static void test_numa_thp_fault_makes_two_attempts(void **state)
{
	(void)state;
	thp_fault_fails(true, 4, 2);
	thp_fault_fails(false, 2, 1);
}

/* without CONFIG_COMPACTION the fault falls back without compacting */
static void test_no_compaction_without_config(void **state)
{
	struct fragmented f;
	struct pglist_data *pgdat;
	(void)state;

	build(&f, "vanilla");
	pgdat = &f.m->pgdat;
	pgdat->config_compaction = false;
	assert_null(alloc_pages(pgdat, &f.m->ctx, GFP_TRANSHUGE, pageblock_order));
	assert_int_equal(pgdat->vm_events[COMPACTSTALL], 0);
	assert_int_equal(pgdat->vm_events[COMPACTMIGRATE_SCANNED], 0);
	assert_int_equal(pgdat->vm_events[PGMIGRATE_SUCCESS], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_direct_compaction_assembles_thp, tl_teardown),
		cmocka_unit_test_teardown(test_capture_hands_over_the_block, tl_teardown),
		cmocka_unit_test_teardown(test_pinned_page_in_every_block_fails_and_defers, tl_teardown),
		cmocka_unit_test_teardown(test_async_skips_blocks_sync_scans, tl_teardown),
		cmocka_unit_test_teardown(test_hygiene_scans_only_movable_blocks, tl_teardown),
		cmocka_unit_test_teardown(test_hygiene_kcompactd_works_to_high, tl_teardown),
		cmocka_unit_test(test_free_scanner_targets_at_min_priority),
		cmocka_unit_test_teardown(test_fast_find_migrateblock_passes_the_block_found, tl_teardown),
		cmocka_unit_test_teardown(test_hygiene_order0_capture_takes_a_block, tl_teardown),
		cmocka_unit_test_teardown(test_skip_bits_avoid_rescans_until_reset, tl_teardown),
		cmocka_unit_test(test_skipped_pages_count_as_scanned_from_6_12),
		cmocka_unit_test_teardown(test_no_compaction_without_config, tl_teardown),
		cmocka_unit_test_teardown(test_proactive_compaction_is_not_daemon_work, tl_teardown),
		cmocka_unit_test_teardown(test_compact_memory_makes_free_blocks, tl_teardown),
		cmocka_unit_test_teardown(test_thisnode_noretry_attempt_is_async_only, tl_teardown),
		cmocka_unit_test_teardown(test_numa_thp_fault_makes_two_attempts, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
