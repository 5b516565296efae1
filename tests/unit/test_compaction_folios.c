/* test_compaction_folios.c - 6.9's compaction of large folios below the
 * target order ("mm/compaction: enable compacting >0 order folios",
 * MMF_COMPACT_LARGE_FOLIOS, set by v6_15 and so defrag_mode; v6.2's
 * policies skip every compound page and split their targets to order 0).
 *
 * The machines: one DMA32 zone, no watermarks, [kernel] large_folios with
 * a small readahead window, so that a file read sequentially is cached in
 * order-2 folios (or, with a large window, in folios of growing order up
 * to 9, as test_large_folios.c's ramp).  Everything else is plugged with
 * kernel pages, which compaction cannot move; then the plugs of the
 * folios' blocks are freed (all of them, or as elsewhere), and in every
 * other block all plugs but one in 16: the free memory is there, in
 * pieces of orders 0-3, but no block can be emptied except by moving the
 * folios.  The unit tests are found by tests/CMakeLists.txt's glob.
 */
#include "testlib.h"

#define RA_SMALL_KB 16          /* a 4-page window: order-2 folios */

struct fixture {
	struct machine *m;
	struct address_space *as;
	unsigned long file_pages;       /* read from its start */
	unsigned long nr_folios;        /* of order > 0 */
	uint32_t *heads;                /* their head pfns, in file order */
};

static void note_folios(struct fixture *f)
{
	f->nr_folios = 0;
	for (unsigned long i = 0; i < f->file_pages;) {
		struct page *h = tl_folio_at(f->m, f->as, i);
		assert_non_null(h);
		if (PageHead(h))
			f->heads[f->nr_folios++] = (uint32_t)tl_pfn(f->m, h);
		i += folio_nr_pages(h);
	}
}

/* the file read, every other page plugged, the folios' blocks' plugs
 * freed and one plug in 16 kept elsewhere */
static void build(struct fixture *f, const char *policy, unsigned long blocks, unsigned ra_kb,
                  unsigned long file_size, unsigned long read_to, unsigned long chunk, bool plug_all_blocks)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct pglist_data *pgdat;
	struct zone *z;
	uint32_t *plugs;
	unsigned long nr_plugs = 0, progress;
	bool *folio_block;

	memset(f, 0, sizeof(*f));
	s.large_folios = true;
	s.read_ahead_kb = ra_kb;
	f->m = tl_boot_dma32(policy, NULL, blocks, &s);
	pgdat = &f->m->pgdat;
	z = tl_zone(f->m, ZONE_DMA32);
	pgdat->debug_check_interval = 0;        /* thousands of allocations: checked at the end */
	f->as = inode_create(pgdat, file_size, false);
	assert_non_null(f->as);
	for (unsigned long i = 0; i < read_to; i += chunk)
		assert_int_equal(filemap_read(pgdat, &f->m->ctx, f->as, i, chunk), 0);
	/* what readahead brought: the file's first pages */
	f->file_pages = f->as->nrpages;
	for (unsigned long i = 0; i < f->file_pages; i++)
		assert_true(entry_present(f->as->i_pages[i]));
	f->heads = calloc(f->file_pages, sizeof(*f->heads));
	assert_non_null(f->heads);
	note_folios(f);
	assert_true(f->nr_folios > 0);

	/* plug the rest, both types, below the watermarks */
	plugs = calloc(pgdat->node_spanned_pages, sizeof(*plugs));
	assert_non_null(plugs);
	do {
		progress = nr_plugs;
		for (int t = 0; t < 2; t++) {
			struct page *p;
			while ((p = alloc_pages(pgdat, &f->m->ctx,
			                        GFP_NOWAIT | __GFP_NOWARN | __GFP_MEMALLOC | (t ? 0 : __GFP_MOVABLE),
			                        0)))
				plugs[nr_plugs++] = (uint32_t)tl_pfn(f->m, p);
		}
		drain_all_pages(pgdat);
	} while (nr_plugs != progress);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), 0);

	folio_block = calloc(pgdat->node_spanned_pages >> pageblock_order, sizeof(*folio_block));
	assert_non_null(folio_block);
	for (unsigned long i = 0; i < f->nr_folios; i++)
		folio_block[f->heads[i] >> pageblock_order] = true;
	for (unsigned long i = 0; i < nr_plugs; i++)
		if ((folio_block[plugs[i] >> pageblock_order] && !plug_all_blocks) || (plugs[i] & 15))
			tl_free(f->m, tl_page(f->m, plugs[i]), 0);
	drain_all_pages(pgdat);
	free(folio_block);
	free(plugs);
	/* no free page of pageblock order: compaction must make one */
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		assert_int_equal(z->free_area[o].nr_free, 0);
	/* enough free pages for compaction_suitable() (compact_gap(9)) */
	assert_true(zone_page_state(z, NR_FREE_PAGES) > 2 * (long)pageblock_nr_pages);
	tl_check(f->m);
	pgdat->debug_check_interval = 1;
}

static void destroy(struct fixture *f)
{
	free(f->heads);
	f->heads = NULL;
	tl_destroy(f->m);
}

/* direct compaction for a THP (try_to_compact_pages() as the slow path
 * calls it), capturing the page it frees */
static enum compact_result compact_order(struct fixture *f, unsigned order, enum compact_priority prio,
                                         struct capture_control *capc)
{
	return tl_compact_thp(f->m, order, prio, capc);
}

static enum compact_result compact(struct fixture *f, enum compact_priority prio, struct capture_control *capc)
{
	return compact_order(f, pageblock_order, prio, capc);
}

/* the captured block back to the allocator (prep_new_page() did not run) */
static void release_captured_order(struct fixture *f, unsigned long pfn, unsigned order)
{
	struct page *p = tl_page(f->m, pfn);

	p->refcount = 1;
	set_page_order(p, order);
	__free_pages(&f->m->pgdat, &f->m->ctx, p, order);
}

static void release_captured(struct fixture *f, unsigned long pfn)
{
	release_captured_order(f, pfn, pageblock_order);
}

/* times pfn is on the LRU lists */
static unsigned long lru_count(struct machine *m, unsigned long pfn)
{
	const struct pglist_data *pgdat = &m->pgdat;
	unsigned long n = 0;

	for (int l = 0; l < NR_LRU_LISTS; l++) {
		uint32_t head = pgdat->lruvec.lists[l];
		for (uint32_t e = pgdat->mem_map[head].next; e != head; e = pgdat->mem_map[e].next)
			if (e == pfn)
				n++;
	}
	return n;
}

/* every page of the file is cached, in a folio that is whole: the head
 * on the LRU once and not isolated, its tails pointing at it with the
 * file and their index, each slot holding its own page */
static void assert_file_intact(struct fixture *f)
{
	struct machine *m = f->m;
	struct address_space *as = f->as;

	for (unsigned long i = 0; i < f->file_pages;) {
		struct page *h = tl_folio_at(m, as, i);
		unsigned long head, nr;

		assert_non_null(h);
		head = tl_pfn(m, h);
		nr = folio_nr_pages(h);
		assert_int_equal(h->index, i);
		assert_int_equal(h->owner, PGOWN_FILE);
		assert_int_equal(h->mapping, as->ino);
		assert_true(PageLRU(h));
		assert_false(PageTest(h, PG_isolated));
		assert_false(PageTail(h));
		assert_int_equal(lru_count(m, head), 1);
		for (unsigned long k = 0; k < nr; k++) {
			struct page *p = tl_page(m, head + k);
			assert_int_equal(as->i_pages[i + k], ENTRY_PRESENT | (uint32_t)(head + k));
			if (!k)
				continue;
			assert_true(PageTail(p));
			assert_false(PageHead(p) || PageLRU(p) || PageBuddy(p));
			assert_int_equal(p->next, head);
			assert_int_equal(p->owner, PGOWN_FILE);
			assert_int_equal(p->mapping, as->ino);
			assert_int_equal(p->index, i + k);
		}
		i += nr;
	}
}

/* buddyinfo against the free lists and NR_FREE_PAGES against both */
static void assert_free_consistent(struct machine *m)
{
	struct zone *z = tl_zone(m, ZONE_DMA32);
	long pages = 0;

	for (unsigned o = 0; o < MAX_ORDER; o++) {
		unsigned long n = 0;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			n += tl_list_len(m, ZONE_DMA32, o, mt);
		assert_int_equal(n, z->free_area[o].nr_free);
		pages += (long)(n << o);
	}
	assert_int_equal(pages, zone_page_state(z, NR_FREE_PAGES));
}

/* (a) a block of order-2 page-cache folios and the free memory in small
 * pieces elsewhere: 6.15's order-9 compaction moves the folios out, the
 * block is freed and captured (the THP allocation succeeds); v6.2 steps
 * over every compound page and cannot */
static void test_folio_block_emptied_v6_15_not_vanilla(void **state)
{
	struct fixture f;
	struct capture_control capc;
	unsigned long block;
	enum compact_result r;
	(void)state;

	/* v6_15 */
	build(&f, "v6_15", 8, RA_SMALL_KB, 512, 512, 4, false);
	assert_int_equal(f.nr_folios, 128);
	block = f.heads[0] >> pageblock_order;
	for (unsigned long i = 0; i < f.nr_folios; i++) {
		assert_int_equal(page_order(tl_page(f.m, f.heads[i])), 2);
		assert_int_equal(f.heads[i] >> pageblock_order, block);
	}
	r = compact(&f, COMPACT_PRIO_SYNC_LIGHT, &capc);
	assert_int_equal(r, COMPACT_SUCCESS);
	assert_int_equal(capc.page, block << pageblock_order);
	assert_int_equal(f.m->pgdat.vm_events[PGMIGRATE_SUCCESS], 512);
	assert_int_equal(f.m->pgdat.vm_events[PGMIGRATE_FAIL], 0);
	/* every page of the file left the block, in folios that are whole;
	 * most went as order-2 folios (those that found no order-2 target
	 * were split and went page by page, as 6.12 splits them) */
	for (unsigned long i = 0; i < f.file_pages; i++)
		assert_int_not_equal(entry_pfn(f.as->i_pages[i]) >> pageblock_order, block);
	assert_file_intact(&f);
	note_folios(&f);
	assert_int_equal(f.nr_folios, f.as->nr_large_folios);
	assert_true(f.nr_folios >= 64);
	for (unsigned long i = 0; i < f.nr_folios; i++)
		assert_int_equal(page_order(tl_page(f.m, f.heads[i])), 2);
	release_captured(&f, capc.page);
	tl_check(f.m);
	destroy(&f);

	/* vanilla: the same machine, nothing moves, nothing is freed whole */
	build(&f, "vanilla", 8, RA_SMALL_KB, 512, 512, 4, false);
	assert_int_equal(f.nr_folios, 128);
	block = f.heads[0] >> pageblock_order;
	r = compact(&f, COMPACT_PRIO_SYNC_LIGHT, &capc);
	assert_int_not_equal(r, COMPACT_SUCCESS);
	assert_int_equal(capc.page, PFN_NONE);
	assert_int_equal(f.m->pgdat.vm_events[PGMIGRATE_SUCCESS], 0);
	for (unsigned o = pageblock_order; o < MAX_ORDER; o++)
		assert_int_equal(tl_zone(f.m, ZONE_DMA32)->free_area[o].nr_free, 0);
	for (unsigned long i = 0; i < f.nr_folios; i++)
		assert_int_equal(f.heads[i] >> pageblock_order, block);
	tl_check(f.m);
	destroy(&f);
}

/* (b) folios of orders 2-9 (the readahead ramp; one plug in 16 kept in
 * every block, so no free page above order 3, and a folio pinned in
 * each aligned 256 pages, so none can be emptied): an order-8 compaction takes no
 * folio of order 8 or 9, an order-9 one no order-9 folio, and
 * compact_memory (order -1) none of pageblock order, while each moves
 * smaller ones (skip_isolation_on_order(); a block an order-9 folio fills
 * is also passed over whole, pageblock_skip_persistent()) */
static void test_folio_at_target_order_never_isolated(void **state)
{
	static const int target[] = { 8, 9, -1 };
	struct fixture f;
	struct capture_control capc;
	struct mm_ctx ctx = { .cpu = 0 };
	uint32_t *index, *pfn, *order;
	unsigned long nr, nr_order[MAX_ORDER] = { 0 }, captured[3] = { PFN_NONE, PFN_NONE, PFN_NONE };
	(void)state;

	build(&f, "v6_15", 32, 8192, 4096, 928, 32, true);
	f.m->pgdat.debug_check_interval = 0;    /* thousands of frees: checked after */
	for (unsigned o = 4; o < MAX_ORDER; o++)
		assert_int_equal(tl_zone(f.m, ZONE_DMA32)->free_area[o].nr_free, 0);
	nr = f.nr_folios;
	index = calloc(nr, sizeof(*index));
	pfn = calloc(nr, sizeof(*pfn));
	order = calloc(nr, sizeof(*order));
	assert_true(index && pfn && order);
	for (unsigned long i = 0; i < nr; i++) {
		pfn[i] = f.heads[i];
		index[i] = tl_page(f.m, pfn[i])->index;
		order[i] = page_order(tl_page(f.m, pfn[i]));
		nr_order[order[i]]++;
	}
	assert_int_equal(nr_order[9], 3);
	assert_true(nr_order[8] > 0);
	/* a long-term pin on the first folio below order 8 of each aligned
	 * 256 pages: no page of order 8 can be freed by moving folios below
	 * it, so every compaction scans the whole zone and reaches every
	 * folio */
	for (unsigned long i = 0, last = ~0ul; i < nr; i++)
		if (order[i] < 8 && pfn[i] >> 8 != last) {
			last = pfn[i] >> 8;
			SetPageFlag(tl_page(f.m, pfn[i]), PG_pinned);
		}

	for (unsigned t = 0; t < sizeof(target) / sizeof(target[0]); t++) {
		unsigned long migrated = f.m->pgdat.vm_events[PGMIGRATE_SUCCESS], moved = 0;
		int keep = target[t] < 0 ? (int)pageblock_order : target[t];

		if (target[t] < 0) {
			compact_nodes(&f.m->pgdat, &ctx);      /* compact_memory */
		} else {
			/* direct compaction at the highest priority: the whole
			 * zone, no skip hints */
			compaction_defer_reset(tl_zone(f.m, ZONE_DMA32), target[t], true);
			compact_order(&f, (unsigned)target[t], COMPACT_PRIO_SYNC_FULL, &capc);
			/* held to the end, so that the next order cannot
			 * already succeed */
			captured[t] = capc.page;
		}
		tl_check(f.m);
		assert_file_intact(&f);
		for (unsigned long i = 0; i < nr; i++) {
			struct page *h = tl_folio_at(f.m, f.as, index[i]);
			if ((int)order[i] < keep) {
				/* moved whole, or split for want of a target */
				moved += tl_pfn(f.m, h) != pfn[i];
				pfn[i] = (uint32_t)tl_pfn(f.m, h);
				order[i] = PageHead(h) ? page_order(h) : 0;
				continue;
			}
			/* a folio at or above the target order stays where it was, whole */
			if (tl_pfn(f.m, h) != pfn[i] || !PageHead(h) || page_order(h) != order[i])
				fail_msg("target order %d: the order-%u folio at index %u moved or was split", target[t],
				         order[i], index[i]);
		}
		/* the smaller ones moved: the scanners went over them */
		if (!moved || f.m->pgdat.vm_events[PGMIGRATE_SUCCESS] == migrated)
			fail_msg("target order %d: no folio below it moved", target[t]);
	}
	for (unsigned t = 0; t < 2; t++)
		if (captured[t] != PFN_NONE)
			release_captured_order(&f, captured[t], (unsigned)target[t]);
	tl_check(f.m);
	free(index);
	free(pfn);
	free(order);
	destroy(&f);
}

/* (c) after the compaction of (a): the folios are whole where they went,
 * the file's and the node's counters are what they were, the sources
 * went back to the buddy allocator, and the free counts agree */
static void test_migrated_folios_intact(void **state)
{
	struct fixture f;
	struct capture_control capc;
	struct pglist_data *pgdat;
	struct zone *z;
	long free_before, file_before, lru_file_before;
	unsigned long large_before;
	(void)state;

	build(&f, "v6_15", 8, RA_SMALL_KB, 512, 512, 4, false);
	pgdat = &f.m->pgdat;
	z = tl_zone(f.m, ZONE_DMA32);
	assert_file_intact(&f);
	free_before = zone_page_state(z, NR_FREE_PAGES);
	file_before = node_page_state(pgdat, NR_FILE_PAGES);
	lru_file_before = (long)(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE));
	large_before = f.as->nr_large_folios;

	assert_int_equal(compact(&f, COMPACT_PRIO_SYNC_LIGHT, &capc), COMPACT_SUCCESS);
	assert_int_not_equal(capc.page, PFN_NONE);
	drain_all_pages(pgdat);
	tl_check(f.m);
	assert_file_intact(&f);
	assert_int_equal(f.as->nrpages, 512);
	/* the folios that moved whole, and those split for want of a target */
	note_folios(&f);
	assert_int_equal(f.as->nr_large_folios, f.nr_folios);
	assert_true(f.nr_folios > 0 && f.nr_folios <= large_before);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), file_before);
	assert_int_equal((long)(lruvec_lru_size(pgdat, LRU_INACTIVE_FILE) + lruvec_lru_size(pgdat, LRU_ACTIVE_FILE)),
	                 lru_file_before);
	assert_int_equal(node_page_state(pgdat, NR_ISOLATED_FILE), 0);
	/* migration moved pages without changing how much is free: the
	 * captured block is all that left the free counts */
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), free_before - (long)pageblock_nr_pages);
	assert_free_consistent(f.m);
	release_captured(&f, capc.page);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), free_before);
	assert_free_consistent(f.m);
	tl_check(f.m);
	destroy(&f);
}

/* the features: the 6.15 policies have it, the v6.2 ones do not */
static void test_feature_set_by_6_15_policies_only(void **state)
{
	static const struct {
		const char *name;
		bool has;
	} want[] = {
		{ "vanilla", false }, { "hugealloc_rfc", false }, { "tao", false },
		{ "v6_15", true }, { "defrag_mode", true },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct mm_policy *p;
		char err[256];
		assert_int_equal(mm_policy_create(want[i].name, &p, err, sizeof(err)), 0);
		assert_int_equal(mm_policy_validate(p, err, sizeof(err)), 0);
		if (mm_policy_has(p, MMF_COMPACT_LARGE_FOLIOS) != want[i].has)
			fail_msg("policy %s: MMF_COMPACT_LARGE_FOLIOS %s", want[i].name, want[i].has ? "unset" : "set");
		mm_policy_destroy(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_folio_block_emptied_v6_15_not_vanilla, tl_teardown),
		cmocka_unit_test_teardown(test_folio_at_target_order_never_isolated, tl_teardown),
		cmocka_unit_test_teardown(test_migrated_folios_intact, tl_teardown),
		cmocka_unit_test_teardown(test_feature_set_by_6_15_policies_only, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
