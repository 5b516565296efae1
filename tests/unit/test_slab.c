/* test_slab.c - the SLUB model (sim/mm/slab.c): slab pages, their orders
 * and migratetypes, when they are given back, allocate_slab()'s two steps,
 * and the superblock shrinker's LRU walk and do_shrink_slab() arithmetic.
 *
 * Every test boots a 256 MiB guest (DMA and DMA32 only) with 4 CPUs under
 * the vanilla policy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "mmsim/slab.h"

/* ------------------------------------------------------------------ */
/* the page cache's side of the shrinker: a recording stub             */

struct eviction {
	enum kmem_cache_id cache;
	uint32_t owner;
};
static struct eviction *evictions;
static size_t nr_evictions, cap_evictions;

static void record_evicted(struct pglist_data *pgdat, struct mm_ctx *ctx, int cache, uint32_t owner)
{
	(void)pgdat;
	(void)ctx;
	if (nr_evictions == cap_evictions) {
		cap_evictions = cap_evictions ? cap_evictions * 2 : 1024;
		evictions = realloc(evictions, cap_evictions * sizeof(*evictions));
		assert_non_null(evictions);
	}
	evictions[nr_evictions++] = (struct eviction){ cache, owner };
}

/* ------------------------------------------------------------------ */
/* the machine                                                          */

struct machine {
	struct pglist_data pgdat;
	struct mm_policy *policy;
	struct mm_ctx ctx;
};

static int boot(void **state)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct mm_layout layout;
	struct vm_sysctl sysctl;
	char err[256];

	assert_non_null(m);
	if (mm_layout_qemu(256ull << 20, 9542, &layout, err, sizeof(err)))
		fail_msg("layout: %s", err);
	vm_sysctl_defaults(&sysctl);
	sysctl.vfs_cache_pressure = 100;        /* the kernel's default */
	if (mm_policy_create("vanilla", &m->policy, err, sizeof(err)) ||
	    mm_policy_validate(m->policy, err, sizeof(err)))
		fail_msg("policy: %s", err);
	if (pgdat_init(&m->pgdat, &layout, 4, &sysctl, m->policy, err, sizeof(err)))
		fail_msg("pgdat_init: %s", err);
	m->pgdat.slab_evicted = record_evicted;    /* pgdat_init ran slab_init */
	m->pgdat.slab_isolate = NULL;               /* no dcache: the plain second chance */
	assert_non_null(m->pgdat.slab);
	m->pgdat.debug_check_interval = 1;
	m->ctx = (struct mm_ctx){ .cpu = 0 };
	nr_evictions = 0;
	*state = m;
	return 0;
}

static int shutdown_machine(void **state)
{
	struct machine *m = *state;

	m->pgdat.debug_check_interval = 0;
	slab_destroy(&m->pgdat);
	slab_destroy(&m->pgdat);                /* twice is harmless */
	pgdat_destroy(&m->pgdat);
	mm_policy_destroy(m->policy);
	free(m);
	free(evictions);
	evictions = NULL;
	nr_evictions = cap_evictions = 0;
	return 0;
}

static unsigned long free_pages_after_drain(struct pglist_data *pgdat)
{
	unsigned long n = 0;

	drain_all_pages(pgdat);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		n += (unsigned long)zone_page_state(&pgdat->node_zones[z], NR_FREE_PAGES);
	return n;
}

static unsigned long cache_slabs(struct pglist_data *pgdat, enum kmem_cache_id c)
{
	unsigned long objects, slabs;
	slab_cache_usage(pgdat, c, &objects, &slabs);
	return slabs;
}

static unsigned long cache_objects(struct pglist_data *pgdat, enum kmem_cache_id c)
{
	unsigned long objects, slabs;
	slab_cache_usage(pgdat, c, &objects, &slabs);
	return objects;
}

/* the object's slab page, found through the page flags: the head page
 * with PG_slab whose mapping is the cache, and whose in-use count is
 * private.  The test knows which pfn by allocating into a fresh cache. */
static unsigned long find_slab_pages(const struct pglist_data *pgdat, enum kmem_cache_id c,
                                     unsigned long *pfns, unsigned long max)
{
	unsigned long n = 0;

	for (unsigned long pfn = 0; pfn < pgdat->node_spanned_pages; pfn++) {
		const struct page *p = &pgdat->mem_map[pfn];
		if (PageSlab(p) && p->mapping == (uint32_t)c) {
			if (n < max)
				pfns[n] = pfn;
			n++;
		}
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* the table against v6.2's calculate_order()                          */

static unsigned get_order(unsigned size)
{
	unsigned order = 0;
	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

static unsigned fls_u(unsigned x)
{
	unsigned r = 0;
	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

/* calc_slab_order(): slub_min_order 0 */
static unsigned calc_slab_order(unsigned size, unsigned min_objects, unsigned max_order,
                                unsigned fract_leftover)
{
	unsigned order;

	for (order = get_order(min_objects * size); order <= max_order; order++) {
		unsigned slab_size = PAGE_SIZE << order;
		if (slab_size % size <= slab_size / fract_leftover)
			break;
	}
	return order;
}

/* calculate_order(): slub_max_order 3, slub_min_objects 0 */
static unsigned calculate_order(unsigned size, unsigned nr_cpus)
{
	unsigned min_objects = 4 * (fls_u(nr_cpus) + 1);
	unsigned max_objects = (PAGE_SIZE << 3) / size;

	if (min_objects > max_objects)
		min_objects = max_objects;
	while (min_objects > 1) {
		for (unsigned fraction = 16; fraction >= 4; fraction /= 2) {
			unsigned order = calc_slab_order(size, min_objects, 3, fraction);
			if (order <= 3)
				return order;
		}
		min_objects--;
	}
	return calc_slab_order(size, 1, 3, 1);
}

static void test_table_is_calculate_order(void **state)
{
	(void)state;
	for (int c = 0; c < NR_KMEM_CACHES; c++) {
		const struct kmem_cache_info *ci = &kmem_cache_info[c];
		unsigned order = calculate_order(ci->object_size, 16);

		assert_non_null(ci->name);
		assert_int_equal(ci->order, order);
		assert_int_equal(ci->objs_per_slab, (PAGE_SIZE << order) / ci->object_size);
		assert_int_equal(ci->min_order, get_order(ci->object_size));
		assert_true(ci->min_order <= ci->order);
		/* the caches v6.2 creates with SLAB_RECLAIM_ACCOUNT */
		assert_int_equal(ci->reclaimable, c == DENTRY_CACHE || c == INODE_CACHE ||
		                                  c == BUFFER_HEAD_CACHE || c == RADIX_TREE_NODE_CACHE);
	}
	/* the rows the brief names */
	assert_int_equal(kmem_cache_info[KMALLOC_64].objs_per_slab, 64);
	assert_int_equal(kmem_cache_info[KMALLOC_64].order, 0);
	assert_int_equal(kmem_cache_info[KMALLOC_512].objs_per_slab, 32);
	assert_int_equal(kmem_cache_info[KMALLOC_512].order, 2);
	assert_int_equal(kmem_cache_info[TASK_STRUCT_CACHE].order, 3);
	assert_int_equal(kmem_cache_info[DENTRY_CACHE].objs_per_slab, 42);
	assert_int_equal(kmem_cache_info[DENTRY_CACHE].order, 1);
	assert_int_equal(kmem_cache_info[RADIX_TREE_NODE_CACHE].order, 2);
	assert_int_equal(kmem_cache_info[BUFFER_HEAD_CACHE].order, 0);
}

/* ------------------------------------------------------------------ */
/* slab pages                                                          */

static void test_fill_slab_then_new_page(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	slab_obj_t objs[65];
	unsigned long pfns[4];

	for (int i = 0; i < 64; i++) {
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL, (uint32_t)i);
		assert_int_not_equal(objs[i], SLAB_OBJ_NONE);
		assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 1);
	}
	assert_int_equal(cache_objects(pgdat, KMALLOC_64), 64);
	assert_int_equal(find_slab_pages(pgdat, KMALLOC_64, pfns, 4), 1);
	{
		const struct page *p = &pgdat->mem_map[pfns[0]];
		assert_true(PageSlab(p));
		assert_false(PageLRU(p));
		assert_int_equal(page_order(p), 0);
		assert_int_equal(p->owner, PGOWN_SLAB_UNRECLAIMABLE);
		assert_int_equal(p->mapping, KMALLOC_64);
		assert_int_equal(p->private, 64);          /* objects in use */
		assert_int_equal(p->refcount, 1);
	}
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 1);

	objs[64] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL, 64);
	assert_int_not_equal(objs[64], SLAB_OBJ_NONE);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 2);
	assert_int_equal(cache_objects(pgdat, KMALLOC_64), 65);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 2);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 0);

	/* an order-1 cache: 40 vm_area_structs per 2-page compound slab */
	for (int i = 0; i < 41; i++)
		assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, VM_AREA_CACHE, GFP_KERNEL, 0),
		                     SLAB_OBJ_NONE);
	assert_int_equal(cache_slabs(pgdat, VM_AREA_CACHE), 2);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 2 + 2 * 2);
	assert_int_equal(find_slab_pages(pgdat, VM_AREA_CACHE, pfns, 4), 2);
	for (int i = 0; i < 2; i++) {
		const struct page *p = &pgdat->mem_map[pfns[i]];
		assert_int_equal(page_order(p), 1);
		assert_true(PageHead(p));
		assert_true(PageTail(p + 1));
		assert_int_equal(p[1].next, pfns[i]);       /* the tail names its head */
		assert_false(PageSlab(p + 1));             /* PG_slab is on the head */
	}
}

static void test_pageblock_migratetype(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	unsigned long pfn = 0;

	/* vanilla boots every block MOVABLE: the first reclaimable slab
	 * falls back and claims a block for MIGRATE_RECLAIMABLE */
	assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, DENTRY_CACHE, GFP_KERNEL, 1), SLAB_OBJ_NONE);
	assert_int_equal(find_slab_pages(pgdat, DENTRY_CACHE, &pfn, 1), 1);
	assert_int_equal(get_pageblock_migratetype(pgdat, pfn), MIGRATE_RECLAIMABLE);
	assert_int_equal(pgdat->mem_map[pfn].owner, PGOWN_SLAB_RECLAIMABLE);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 2);

	assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, BUFFER_HEAD_CACHE, GFP_NOFS, 1), SLAB_OBJ_NONE);
	assert_int_equal(find_slab_pages(pgdat, BUFFER_HEAD_CACHE, &pfn, 1), 1);
	assert_int_equal(get_pageblock_migratetype(pgdat, pfn), MIGRATE_RECLAIMABLE);

	/* unmovable caches take unmovable blocks; the caller's mobility bits
	 * do not reach the page allocator (new_slab masks them) */
	assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL | __GFP_MOVABLE, 1),
	                     SLAB_OBJ_NONE);
	assert_int_equal(find_slab_pages(pgdat, KMALLOC_64, &pfn, 1), 1);
	assert_int_equal(get_pageblock_migratetype(pgdat, pfn), MIGRATE_UNMOVABLE);
	assert_int_equal(pgdat->mem_map[pfn].owner, PGOWN_SLAB_UNRECLAIMABLE);

	assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, TASK_STRUCT_CACHE, GFP_KERNEL, 1), SLAB_OBJ_NONE);
	assert_int_equal(find_slab_pages(pgdat, TASK_STRUCT_CACHE, &pfn, 1), 1);
	assert_int_equal(page_order(&pgdat->mem_map[pfn]), 3);
	assert_int_equal(get_pageblock_migratetype(pgdat, pfn), MIGRATE_UNMOVABLE);
}

static void test_slab_freed_with_last_object(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	slab_obj_t objs[640];

	/* 10 full slabs: handles 64k..64k+63 share slab k */
	for (int i = 0; i < 640; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL, (uint32_t)i);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 10);

	/* one object back from each of slabs 0..5: six partial slabs */
	for (int k = 0; k < 6; k++)
		kmem_cache_free(pgdat, &m->ctx, KMALLOC_64, objs[64 * k]);
	/* slab 6 loses all but one object: still there */
	for (int i = 64 * 6; i < 64 * 7 - 1; i++)
		kmem_cache_free(pgdat, &m->ctx, KMALLOC_64, objs[i]);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 10);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 10);
	assert_int_equal(find_slab_pages(pgdat, KMALLOC_64, NULL, 0), 10);
	/* its last object: the partial list holds 7 >= min_partial 5 */
	kmem_cache_free(pgdat, &m->ctx, KMALLOC_64, objs[64 * 7 - 1]);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 9);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 9);
	assert_int_equal(find_slab_pages(pgdat, KMALLOC_64, NULL, 0), 9);
	assert_int_equal(cache_objects(pgdat, KMALLOC_64), 640 - 6 - 64);
}

static void test_min_partial_keeps_empty_slabs(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	slab_obj_t objs[640];
	unsigned long before;

	for (int i = 0; i < 640; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL, (uint32_t)i);
	/* emptying slab after slab: an empty slab stays while the partial
	 * list (itself included) holds fewer than min_partial (5) slabs, so
	 * slabs 0..3 stay and 4..9 go */
	for (int i = 0; i < 640; i++)
		kmem_cache_free(pgdat, &m->ctx, KMALLOC_64, objs[i]);
	assert_int_equal(cache_objects(pgdat, KMALLOC_64), 0);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 4);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 4);

	/* the kept slabs serve the next allocations: no new page until
	 * they are full */
	before = pgdat->vm_events[PGALLOC_DMA] + pgdat->vm_events[PGALLOC_DMA32];
	for (int i = 0; i < 4 * 64; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL, (uint32_t)i);
	assert_int_equal(pgdat->vm_events[PGALLOC_DMA] + pgdat->vm_events[PGALLOC_DMA32], before);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 4);
	objs[256] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_64, GFP_KERNEL, 256);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_64), 5);

	/* handles are reused */
	for (int i = 0; i <= 256; i++)
		assert_true(objs[i] < 640);
}

static void test_node_stats_in_pages(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	slab_obj_t objs[31];

	/* ext4_inode_cache: 30 per order-3 slab */
	for (int i = 0; i < 31; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, INODE_CACHE, GFP_NOFS, (uint32_t)i);
	assert_int_equal(cache_slabs(pgdat, INODE_CACHE), 2);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 16);
	/* both stay: two partial slabs < min_partial */
	for (int i = 0; i < 31; i++)
		kmem_cache_free(pgdat, &m->ctx, INODE_CACHE, objs[i]);
	assert_int_equal(cache_objects(pgdat, INODE_CACHE), 0);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 16);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 0);
}

/* the page cache's xarray: a node (radix_tree_node) per 64 slots in use,
 * none for a one-page file (xa_head); a page reclaimed leaves a shadow
 * entry in its slot, so its node stays, and reading the file again
 * allocates none */
static void evict_file(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as)
{
	for (unsigned long j = 0; j < as->size; j++)
		if (entry_present(as->i_pages[j])) {
			unsigned long pfn = entry_pfn(as->i_pages[j]);
			lruvec_del_page(pgdat, pfn);
			remove_mapping(pgdat, pfn, true);
			__free_pages(pgdat, ctx, &pgdat->mem_map[pfn], 0);
		}
	assert_int_equal(as->nrpages, 0);
}

static void test_page_cache_xarray_nodes(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	static const unsigned long sizes[] = { 1, 3, 64, 65, 130 };     /* nodes: 0, 1, 1, 2, 3 */
	struct address_space *as[5];

	for (int i = 0; i < 5; i++) {
		as[i] = inode_create(pgdat, sizes[i], false);
		assert_non_null(as[i]);
		assert_int_equal(filemap_read(pgdat, &m->ctx, as[i], 0, sizes[i]), 0);
	}
	assert_int_equal(cache_objects(pgdat, RADIX_TREE_NODE_CACHE), 7);
	for (int i = 0; i < 5; i++)
		evict_file(pgdat, &m->ctx, as[i]);
	assert_int_equal(cache_objects(pgdat, RADIX_TREE_NODE_CACHE), 7);
	for (int i = 0; i < 5; i++)
		assert_int_equal(filemap_read(pgdat, &m->ctx, as[i], 0, sizes[i]), 0);
	assert_int_equal(cache_objects(pgdat, RADIX_TREE_NODE_CACHE), 7);
	/* reclaimable slab pages: one order-2 slab holds them */
	assert_int_equal(cache_slabs(pgdat, RADIX_TREE_NODE_CACHE), 1);
}

static void test_destroy_returns_every_page(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	unsigned long free0 = free_pages_after_drain(pgdat);

	for (int c = 0; c < NR_KMEM_CACHES; c++)
		for (int i = 0; i < 100; i++)
			assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, (enum kmem_cache_id)c,
			                                      GFP_KERNEL, (uint32_t)i), SLAB_OBJ_NONE);
	assert_true(free_pages_after_drain(pgdat) < free0);
	assert_true(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B) > 0);
	slab_destroy(pgdat);
	assert_null(pgdat->slab);
	assert_int_equal(free_pages_after_drain(pgdat), free0);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 0);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 0);
	assert_int_equal(find_slab_pages(pgdat, DENTRY_CACHE, NULL, 0), 0);
	assert_int_equal(check_pgdat(pgdat, "after slab_destroy"), 0);
	assert_int_equal(slab_init(pgdat), 0);
}

/* allocate_slab()'s second step: with no free page of order 3 anywhere
 * (every other pfn allocated), kmalloc-1k and ext4_inode_cache fall back
 * to order 0, with (PAGE_SIZE << 0) / size objects per slab */
static void test_min_order_fallback(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	uint32_t *held;
	unsigned long nr_held = 0, cap = pgdat->node_spanned_pages;
	unsigned long pfns[8], n, free0 = free_pages_after_drain(pgdat);
	slab_obj_t objs[5];
	struct page *p;

	pgdat->debug_check_interval = 0;
	held = malloc(cap * sizeof(*held));
	assert_non_null(held);
	/* take every page, the reserves included */
	while ((p = alloc_pages(pgdat, &m->ctx, GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOWARN, 0)))
		held[nr_held++] = (uint32_t)page_to_pfn(pgdat, p);
	assert_int_equal(nr_held, free0);
	/* give back the even pfns: no two buddies are free together */
	for (unsigned long i = 0; i < nr_held; i++) {
		if (!(held[i] & 1)) {
			__free_pages(pgdat, &m->ctx, &pgdat->mem_map[held[i]], 0);
			held[i] = PFN_NONE;
		}
	}
	drain_all_pages(pgdat);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned o = 1; o < MAX_ORDER; o++)
			assert_int_equal(pgdat->node_zones[z].free_area[o].nr_free, 0);
	assert_int_equal(check_pgdat(pgdat, "fragmented"), 0);
	pgdat->debug_check_interval = 1;

	for (int i = 0; i < 4; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_1K, GFP_KERNEL, (uint32_t)i);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_1K), 1);
	n = find_slab_pages(pgdat, KMALLOC_1K, pfns, 8);
	assert_int_equal(n, 1);
	assert_int_equal(page_order(&pgdat->mem_map[pfns[0]]), 0);
	assert_int_equal(pgdat->mem_map[pfns[0]].private, 4);      /* full at 4096 / 1024 */
	objs[4] = kmem_cache_alloc(pgdat, &m->ctx, KMALLOC_1K, GFP_KERNEL, 4);
	assert_int_not_equal(objs[4], SLAB_OBJ_NONE);
	assert_int_equal(cache_slabs(pgdat, KMALLOC_1K), 2);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), 2);

	/* a reclaimable cache: ext4_inode_cache at order 0 holds 3 */
	for (int i = 0; i < 4; i++)
		assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, INODE_CACHE, GFP_NOFS, (uint32_t)i),
		                     SLAB_OBJ_NONE);
	assert_int_equal(cache_slabs(pgdat, INODE_CACHE), 2);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 2);
	n = find_slab_pages(pgdat, INODE_CACHE, pfns, 8);
	assert_int_equal(n, 2);
	for (unsigned long i = 0; i < n; i++) {
		assert_int_equal(page_order(&pgdat->mem_map[pfns[i]]), 0);
		assert_int_equal(pgdat->mem_map[pfns[i]].owner, PGOWN_SLAB_RECLAIMABLE);
	}

	/* a cache whose minimum order is 1 fails: no order-1 page is free
	 * (GFP_NOWAIT: no reclaim or OOM to wait for) */
	assert_int_equal(kmem_cache_alloc(pgdat, &m->ctx, TASK_STRUCT_CACHE, GFP_NOWAIT, 0), SLAB_OBJ_NONE);
	assert_int_equal(cache_slabs(pgdat, TASK_STRUCT_CACHE), 0);
	assert_int_equal(cache_objects(pgdat, TASK_STRUCT_CACHE), 0);

	pgdat->debug_check_interval = 0;
	for (unsigned long i = 0; i < nr_held; i++)
		if (held[i] != PFN_NONE)
			__free_pages(pgdat, &m->ctx, &pgdat->mem_map[held[i]], 0);
	free(held);
}

/* ------------------------------------------------------------------ */
/* the shrinker                                                        */

static void test_shrink_frees_unreferenced_rotates_referenced(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	slab_obj_t objs[1024];
	unsigned long freed;

	memset(&pgdat->costs, 0, sizeof(pgdat->costs));
	pgdat->costs.slab_object_ns = 100;
	pgdat->costs.shrinker_object_ns = 10;

	/* 1024 dentries, owner i, LRU order = allocation order (cold first);
	 * the 64 coldest were used again */
	for (int i = 0; i < 1024; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, DENTRY_CACHE, GFP_KERNEL, (uint32_t)i);
	for (int i = 0; i < 64; i++)
		kmem_cache_touch(pgdat, DENTRY_CACHE, objs[i]);
	assert_int_equal(cache_slabs(pgdat, DENTRY_CACHE), 25);          /* 24 full + 16 of 42 */
	m->ctx.kernel_ns = 0;

	/* priority 2: freeable 1024, delta = (1024 >> 2) * 4 / 2 = 512:
	 * four batches of 128, each walking 127 + 1 dentries (and the empty
	 * inode LRU) */
	freed = shrink_slab(pgdat, &m->ctx, 2);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 512);
	/* the 64 referenced were rotated, the next 448 freed, coldest first */
	assert_int_equal(nr_evictions, 448);
	for (size_t i = 0; i < nr_evictions; i++) {
		assert_int_equal(evictions[i].cache, DENTRY_CACHE);
		assert_int_equal(evictions[i].owner, 64 + i);
	}
	assert_int_equal(cache_objects(pgdat, DENTRY_CACHE), 1024 - 448);
	/* slabs 2..11 emptied; 2 and 3 stay (partial list below
	 * min_partial 5), 4..11 go: 8 order-1 slabs */
	assert_int_equal(freed, 16);
	assert_int_equal(cache_slabs(pgdat, DENTRY_CACHE), 17);
	assert_int_equal(node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), 34);
	/* 512 walked, 448 freed */
	assert_true(m->ctx.kernel_ns == 512 * 10 + 448 * 100);

	/* priority 0 asks for everything: the rest of the LRU, then the
	 * rotated 64, whose referenced bit the first walk cleared */
	nr_evictions = 0;
	freed = shrink_slab(pgdat, &m->ctx, 0);
	assert_int_equal(nr_evictions, 576);
	for (size_t i = 0; i < 512; i++)
		assert_int_equal(evictions[i].owner, 512 + i);
	for (size_t i = 512; i < 576; i++)
		assert_int_equal(evictions[i].owner, i - 512);
	assert_int_equal(cache_objects(pgdat, DENTRY_CACHE), 0);
	/* 2 * freeable = 1152 scanned */
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 512 + 1152);
	assert_true(freed > 0);
	assert_true(cache_slabs(pgdat, DENTRY_CACHE) <= 5);

	/* nothing left: nothing scanned */
	assert_int_equal(shrink_slab(pgdat, &m->ctx, 0), 0);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 512 + 1152);
}

static void test_shrink_splits_between_dentries_and_inodes(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	size_t d = 0, in = 0;

	for (int i = 0; i < 512; i++) {
		kmem_cache_alloc(pgdat, &m->ctx, DENTRY_CACHE, GFP_KERNEL, (uint32_t)i);
		kmem_cache_alloc(pgdat, &m->ctx, INODE_CACHE, GFP_NOFS, (uint32_t)i);
		kmem_cache_alloc(pgdat, &m->ctx, BUFFER_HEAD_CACHE, GFP_NOFS, (uint32_t)i);
	}
	/* freeable 1024 (buffer_heads have no shrinker), delta 512: each
	 * batch of 128 gives 63 + 1 to dentries, then 63 + 1 to inodes */
	shrink_slab(pgdat, &m->ctx, 2);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 512);
	for (size_t i = 0; i < nr_evictions; i++) {
		if (evictions[i].cache == DENTRY_CACHE)
			assert_int_equal(evictions[i].owner, d++);
		else if (evictions[i].cache == INODE_CACHE)
			assert_int_equal(evictions[i].owner, in++);
		else
			fail_msg("evicted from cache %d", evictions[i].cache);
	}
	assert_int_equal(d, 256);
	assert_int_equal(in, 256);
	for (size_t i = 0; i < 64; i++)                 /* dentries first */
		assert_int_equal(evictions[i].cache, DENTRY_CACHE);
	assert_int_equal(cache_objects(pgdat, BUFFER_HEAD_CACHE), 512);
}

static void test_shrink_priority_12(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	const int n = 300000;

	pgdat->debug_check_interval = 0;
	for (int i = 0; i < n; i++)
		assert_int_not_equal(kmem_cache_alloc(pgdat, &m->ctx, DENTRY_CACHE, GFP_KERNEL, (uint32_t)i),
		                     SLAB_OBJ_NONE);
	/* (300000 >> 12) * 4 / 2 = 146 to scan: one batch of 128, 18 deferred */
	shrink_slab(pgdat, &m->ctx, 12);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 128);
	assert_int_equal(nr_evictions, 128);
	/* again: 18 >> 12 = 0 of the deferred work, the same batch */
	shrink_slab(pgdat, &m->ctx, 12);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 256);
	assert_int_equal(cache_objects(pgdat, DENTRY_CACHE), (unsigned long)n - 256);

	/* a small cache at priority 12: less than a batch, nothing scanned */
	pgdat->debug_check_interval = 0;
	slab_destroy(pgdat);
	assert_int_equal(slab_init(pgdat), 0);
	pgdat->vm_events[SLABS_SCANNED] = 0;
	for (int i = 0; i < 5000; i++)
		kmem_cache_alloc(pgdat, &m->ctx, DENTRY_CACHE, GFP_KERNEL, (uint32_t)i);
	for (int i = 0; i < 10; i++)
		assert_int_equal(shrink_slab(pgdat, &m->ctx, 12), 0);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 0);
}

static void test_vfs_cache_pressure(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;

	for (int i = 0; i < 1024; i++)
		kmem_cache_alloc(pgdat, &m->ctx, DENTRY_CACHE, GFP_KERNEL, (uint32_t)i);
	/* 0: the dentry and inode caches are never reclaimed */
	pgdat->sysctl.vfs_cache_pressure = 0;
	assert_int_equal(shrink_slab(pgdat, &m->ctx, 0), 0);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 0);
	/* 50: freeable 512, delta (512 >> 2) * 2 = 256 */
	pgdat->sysctl.vfs_cache_pressure = 50;
	shrink_slab(pgdat, &m->ctx, 2);
	assert_int_equal(pgdat->vm_events[SLABS_SCANNED], 256);
	assert_int_equal(nr_evictions, 256);
}

static void test_free_and_touch_of_lru_objects(void **state)
{
	struct machine *m = *state;
	struct pglist_data *pgdat = &m->pgdat;
	slab_obj_t objs[256];

	for (int i = 0; i < 256; i++)
		objs[i] = kmem_cache_alloc(pgdat, &m->ctx, INODE_CACHE, GFP_NOFS, (uint32_t)i);
	/* freed by their owner: off the LRU, the shrinker never sees them */
	for (int i = 0; i < 256; i += 2)
		kmem_cache_free(pgdat, &m->ctx, INODE_CACHE, objs[i]);
	kmem_cache_touch(pgdat, INODE_CACHE, objs[1]);
	/* freeable 128, priority 0: delta 256, capped at 2 * 128; all go */
	shrink_slab(pgdat, &m->ctx, 0);
	assert_int_equal(nr_evictions, 128);
	for (size_t i = 0; i < 127; i++)
		assert_int_equal(evictions[i].owner, 3 + 2 * i);
	assert_int_equal(evictions[127].owner, 1);       /* rotated, then freed */
	assert_int_equal(cache_objects(pgdat, INODE_CACHE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_calculate_order),
		cmocka_unit_test_setup_teardown(test_fill_slab_then_new_page, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_pageblock_migratetype, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_slab_freed_with_last_object, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_min_partial_keeps_empty_slabs, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_node_stats_in_pages, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_page_cache_xarray_nodes, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_destroy_returns_every_page, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_min_order_fallback, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_shrink_frees_unreferenced_rotates_referenced, boot,
		                                shutdown_machine),
		cmocka_unit_test_setup_teardown(test_shrink_splits_between_dentries_and_inodes, boot,
		                                shutdown_machine),
		cmocka_unit_test_setup_teardown(test_shrink_priority_12, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_vfs_cache_pressure, boot, shutdown_machine),
		cmocka_unit_test_setup_teardown(test_free_and_touch_of_lru_objects, boot, shutdown_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
