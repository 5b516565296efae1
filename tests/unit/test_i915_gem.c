/* test_i915_gem.c - a GPU's buffer objects as shmem pages (i915_gem.h).
 *
 * An object holding its pages has them in reclaimable pageblocks
 * (GFP_HIGHUSER | __GFP_RECLAIMABLE), counted in nr_shmem and
 * nr_file_pages, on the unevictable list and pinned.  i915's shrinker,
 * called through shrink_slab(), releases the objects not in use: their
 * pages go to the inactive anon list, where reclaim writes them to swap
 * (shmem_writepage: pswpout, nr_shmem down) and frees them once written
 * (pgsteal_anon).  Getting the pages back reads them in (pswpin).  An
 * object in use is never released, and without swap nothing is.
 */
#include "testlib.h"
#include "mmsim/i915_gem.h"
#include "mmsim/slab.h"

#define BLOCKS  32
#define OBJ_PAGES 300

static struct machine *boot(bool swap)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	struct machine *m = tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
	char err[256];

	if (swap)
		assert_int_equal(swap_setup(&m->pgdat, 16384, 100e-6, 1e9, err, sizeof(err)), 0);
	return m;
}

static unsigned long unevictable(const struct pglist_data *pgdat)
{
	return (unsigned long)node_page_state(pgdat, NR_UNEVICTABLE);
}

/* every page of an object holding its pages: shmem, unevictable, pinned,
 * in a reclaimable pageblock */
static void test_pages_pinned_unevictable_reclaimable(void **state)
{
	struct machine *m = boot(true);
	struct pglist_data *pgdat = &m->pgdat;
	struct drm_i915_gem_object *o = i915_gem_object_create(pgdat, OBJ_PAGES, true);
	unsigned long found = 0;
	(void)state;

	assert_non_null(o);
	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, o), 0);
	assert_true(i915_gem_object_has_pages(o));
	assert_int_equal(node_page_state(pgdat, NR_SHMEM), OBJ_PAGES);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), OBJ_PAGES);
	assert_int_equal(unevictable(pgdat), OBJ_PAGES);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_ANON) + lruvec_lru_size(pgdat, LRU_ACTIVE_ANON), 0);
	for (unsigned long pfn = 0; pfn < pgdat->node_spanned_pages; pfn++) {
		const struct page *p = &pgdat->mem_map[pfn];
		if (p->owner != PGOWN_SHMEM || !PageLRU(p))
			continue;
		found++;
		assert_true(PageTest(p, PG_unevictable));
		assert_true(PageTest(p, PG_swapbacked));
		assert_false(page_migratable(pgdat, p, GFP_HIGHUSER_MOVABLE));
		assert_int_equal(get_pageblock_migratetype(pgdat, pfn), MIGRATE_RECLAIMABLE);
	}
	assert_int_equal(found, OBJ_PAGES);
	assert_int_equal(check_pgdat(pgdat, "object filled"), 0);
	/* reclaim does not touch them (the object is in use: the shrinker
	 * passes it over) */
	try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	assert_int_equal(pgdat->vm_events[PSWPOUT], 0);
	i915_gem_object_put(pgdat, &m->ctx, o);
	assert_int_equal(node_page_state(pgdat, NR_SHMEM), 0);
	assert_int_equal(unevictable(pgdat), 0);
	assert_int_equal(check_pgdat(pgdat, "object freed"), 0);
}

/* shrink_slab(): the shrinker releases the inactive object, not the one
 * in use; reclaim swaps the released pages out; get_pages reads them in */
static void test_shrinker_releases_then_swap(void **state)
{
	struct machine *m = boot(true);
	struct pglist_data *pgdat = &m->pgdat;
	struct drm_i915_gem_object *used = i915_gem_object_create(pgdat, OBJ_PAGES, true);
	struct drm_i915_gem_object *idle = i915_gem_object_create(pgdat, OBJ_PAGES, false);
	struct i915_gem_stats st;
	unsigned long scanned0, shmem_before;
	(void)state;

	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, used), 0);
	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, idle), 0);
	assert_int_equal(unevictable(pgdat), 2 * OBJ_PAGES);
	scanned0 = pgdat->vm_events[SLABS_SCANNED];
	/* priority 0: the whole count is asked for */
	shrink_slab(pgdat, &m->ctx, 0);
	assert_true(i915_gem_object_has_pages(used));
	assert_false(i915_gem_object_has_pages(idle));
	assert_int_equal(unevictable(pgdat), OBJ_PAGES);
	assert_int_equal(lruvec_lru_size(pgdat, LRU_INACTIVE_ANON), OBJ_PAGES);
	assert_true(pgdat->vm_events[SLABS_SCANNED] - scanned0 >= OBJ_PAGES);
	i915_gem_stats(pgdat, &st);
	assert_int_equal(st.released_objects, 1);
	assert_int_equal(st.released_pages, OBJ_PAGES);
	assert_int_equal(st.shrink_pages, OBJ_PAGES);
	assert_int_equal(st.pinned_pages, OBJ_PAGES);
	/* still shmem: released is not freed */
	assert_int_equal(node_page_state(pgdat, NR_SHMEM), 2 * OBJ_PAGES);
	assert_int_equal(check_pgdat(pgdat, "released"), 0);

	/* reclaim writes them to swap (this machine has no clock: the
	 * writes complete at once) and frees them */
	for (int i = 0; i < 64 && pgdat->vm_events[PGSTEAL_ANON] < OBJ_PAGES; i++)
		try_to_free_pages(pgdat, &m->ctx, 0, GFP_KERNEL, ZONE_DMA32);
	shmem_before = (unsigned long)node_page_state(pgdat, NR_SHMEM);
	assert_int_equal(shmem_before, OBJ_PAGES);
	assert_int_equal(pgdat->vm_events[PSWPOUT], OBJ_PAGES);
	assert_int_equal(pgdat->vm_events[PGSTEAL_ANON], OBJ_PAGES);
	assert_int_equal(pgdat->swap.inuse, OBJ_PAGES);
	assert_int_equal(unevictable(pgdat), OBJ_PAGES);
	assert_int_equal(check_pgdat(pgdat, "swapped"), 0);

	/* the object used again: read back, pinned again, slots freed */
	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, idle), 0);
	assert_int_equal(pgdat->vm_events[PSWPIN], OBJ_PAGES);
	assert_int_equal(node_page_state(pgdat, NR_SHMEM), 2 * OBJ_PAGES);
	assert_int_equal(unevictable(pgdat), 2 * OBJ_PAGES);
	assert_int_equal(pgdat->swap.inuse, 0);
	i915_gem_stats(pgdat, &st);
	assert_int_equal(st.swapin_pages, OBJ_PAGES);
	assert_int_equal(check_pgdat(pgdat, "read back"), 0);
}

/* without swap i915 cannot release an object (can_release_pages) */
static void test_no_swap_no_release(void **state)
{
	struct machine *m = boot(false);
	struct pglist_data *pgdat = &m->pgdat;
	struct drm_i915_gem_object *idle = i915_gem_object_create(pgdat, OBJ_PAGES, false);
	(void)state;

	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, idle), 0);
	shrink_slab(pgdat, &m->ctx, 0);
	assert_true(i915_gem_object_has_pages(idle));
	assert_int_equal(unevictable(pgdat), OBJ_PAGES);
}

/* a released page compaction moves: the object's file follows it */
static void test_released_page_migrates(void **state)
{
	struct machine *m = boot(true);
	struct pglist_data *pgdat = &m->pgdat;
	struct drm_i915_gem_object *idle = i915_gem_object_create(pgdat, 1, false);
	unsigned long src = PFN_NONE, dst;
	struct page *d;
	(void)state;

	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, idle), 0);
	shrink_slab(pgdat, &m->ctx, 0);
	for (unsigned long pfn = 0; pfn < pgdat->node_spanned_pages; pfn++)
		if (pgdat->mem_map[pfn].owner == PGOWN_SHMEM)
			src = pfn;
	assert_true(src != PFN_NONE);
	assert_true(page_migratable(pgdat, &pgdat->mem_map[src], GFP_HIGHUSER_MOVABLE));
	d = tl_alloc(m, GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(d);
	dst = tl_pfn(m, d);
	lruvec_del_page(pgdat, src);
	migrate_page(pgdat, src, dst);
	__free_pages(pgdat, &m->ctx, &pgdat->mem_map[src], 0);
	assert_int_equal(pgdat->mem_map[dst].owner, PGOWN_SHMEM);
	assert_int_equal(check_pgdat(pgdat, "migrated"), 0);
	/* got again from the page cache, no I/O */
	assert_int_equal(i915_gem_object_get_pages(pgdat, &m->ctx, idle), 0);
	assert_int_equal(pgdat->vm_events[PSWPIN], 0);
	assert_true(PageTest(&pgdat->mem_map[dst], PG_unevictable));
	assert_int_equal(check_pgdat(pgdat, "got again"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pages_pinned_unevictable_reclaimable, tl_teardown),
		cmocka_unit_test_teardown(test_shrinker_releases_then_swap, tl_teardown),
		cmocka_unit_test_teardown(test_no_swap_no_release, tl_teardown),
		cmocka_unit_test_teardown(test_released_page_migrates, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
