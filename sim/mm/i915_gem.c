/* i915_gem.c - a GPU's buffer objects in shmem and i915's shrinker (see
 * i915_gem.h).
 *
 * An object's shmem file is an array of entries, as its i_pages: a page
 * in the page cache (ENTRY_PRESENT | pfn), a swap entry (ENTRY_NONRES |
 * slot) once shmem_writepage() has moved the page to swap, or nothing.
 * A page of the file is PGOWN_SHMEM, swap-backed, with page->mapping the
 * object's id and page->index its offset.  shmem_writepage() hands the
 * page to the swap cache as the anonymous swap-out path leaves its pages
 * (PGOWN_ANON, unmapped, page->private its slot), so the write's
 * completion, the freeing of the written page, a swap cache hit and the
 * freeing of a slot are the model's one swap cache (swapfile.c).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mmsim/i915_gem.h"
#include "mmsim/shrinker.h"

#define I915_SHMEM_GFP  (GFP_HIGHUSER | __GFP_RECLAIMABLE)     /* shmem_object_init() */
#define I915_BATCH      4096                                  /* i915_gem_driver_register__shrinker() */

struct drm_i915_gem_object {
	uint32_t id;                    /* page->mapping of its pages */
	unsigned long nr_pages;
	uint32_t *entries;              /* the shmem file's i_pages */
	bool in_use;                    /* i915_gem_shrink() passes it over */
	bool has_pages;                 /* obj->mm.pages: pinned, unevictable, on the shrink list */
	struct drm_i915_gem_object *prev, *next;        /* the shrink list (obj->mm.link) */
};

struct i915_gem {
	struct drm_i915_gem_object **objs;      /* by id; NULL once freed */
	uint32_t nr_objs, cap_objs;
	struct drm_i915_gem_object shrink_list; /* sentinel: next is the oldest */
	unsigned long shrink_count, shrink_pages, pinned_pages, objects;
	unsigned long released_objects, released_pages, swapin_pages;
	struct shrinker shrinker;
};

static void list_del_obj(struct drm_i915_gem_object *o)
{
	o->prev->next = o->next;
	o->next->prev = o->prev;
	o->prev = o->next = NULL;
}

static void list_add_tail_obj(struct drm_i915_gem_object *head, struct drm_i915_gem_object *o)
{
	o->prev = head->prev;
	o->next = head;
	head->prev->next = o;
	head->prev = o;
}

static unsigned long i915_gem_shrink(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long target,
                                     unsigned long *nr_scanned);

/* i915_gem_shrinker_count(): the pages of the objects on the shrink
 * list; the next batch is about two objects' worth, at least SHRINK_BATCH */
static unsigned long i915_gem_shrinker_count(struct pglist_data *pgdat, struct shrinker *s)
{
	struct i915_gem *g = pgdat->i915;

	if (g->shrink_count) {
		long avg = (long)(2 * g->shrink_pages / g->shrink_count);
		long b = (s->batch + avg) >> 1;
		s->batch = b > SHRINK_BATCH ? b : SHRINK_BATCH;
	}
	return g->shrink_pages;
}

static unsigned long i915_gem_shrinker_scan(struct pglist_data *pgdat, struct mm_ctx *ctx, struct shrinker *s,
                                            unsigned long nr_to_scan, unsigned long *nr_scanned)
{
	unsigned long freed;

	(void)s;
	*nr_scanned = 0;
	freed = i915_gem_shrink(pgdat, ctx, nr_to_scan, nr_scanned);
	return *nr_scanned ? freed : SHRINK_STOP;
}

static struct i915_gem *i915_gem_init(struct pglist_data *pgdat)
{
	struct i915_gem *g;

	if (pgdat->i915)
		return pgdat->i915;
	if (!(g = calloc(1, sizeof(*g))))
		return NULL;
	g->shrink_list.prev = g->shrink_list.next = &g->shrink_list;
	g->shrinker.count_objects = i915_gem_shrinker_count;
	g->shrinker.scan_objects = i915_gem_shrinker_scan;
	g->shrinker.seeks = DEFAULT_SEEKS;
	g->shrinker.batch = I915_BATCH;
	pgdat->i915 = g;
	register_shrinker(pgdat, &g->shrinker);   /* i915_gem_driver_register__shrinker() */
	return g;
}

struct drm_i915_gem_object *i915_gem_object_create(struct pglist_data *pgdat, unsigned long nr_pages,
                                                   bool in_use)
{
	struct i915_gem *g = i915_gem_init(pgdat);
	struct drm_i915_gem_object *o;

	if (!g || !nr_pages || !(o = calloc(1, sizeof(*o))))
		return NULL;
	if (!(o->entries = calloc(nr_pages, sizeof(uint32_t)))) {
		free(o);
		return NULL;
	}
	if (g->nr_objs == g->cap_objs) {
		uint32_t cap = g->cap_objs ? g->cap_objs * 2 : 64;
		struct drm_i915_gem_object **t = realloc(g->objs, cap * sizeof(*t));
		if (!t) {
			free(o->entries);
			free(o);
			return NULL;
		}
		g->objs = t;
		g->cap_objs = cap;
	}
	o->id = g->nr_objs;
	o->nr_pages = nr_pages;
	o->in_use = in_use;
	g->objs[g->nr_objs++] = o;
	g->objects++;
	return o;
}

bool i915_gem_object_has_pages(const struct drm_i915_gem_object *obj)
{
	return obj->has_pages;
}

/* a page leaves the shmem file (shmem_delete_from_page_cache, truncation) */
static void shmem_page_uncache(struct pglist_data *pgdat)
{
	mod_node_page_state(pgdat, NR_SHMEM, -1);
	mod_node_page_state(pgdat, NR_FILE_PAGES, -1);
}

/* a page joins the shmem file as page index of obj */
static void shmem_page_cache(struct pglist_data *pgdat, struct drm_i915_gem_object *obj, unsigned long i,
                             unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];

	p->owner = PGOWN_SHMEM;
	p->mapping = obj->id;
	p->index = (uint32_t)i;
	p->mapcount = 0;
	p->private = 0;
	SetPageFlag(p, PG_swapbacked);
	obj->entries[i] = ENTRY_PRESENT | (uint32_t)pfn;
	mod_node_page_state(pgdat, NR_SHMEM, 1);
	mod_node_page_state(pgdat, NR_FILE_PAGES, 1);
}

/* shmem_sg_alloc_table()'s allocation: first without reclaim (its own
 * objects are shrunk after a failure), then with the mapping's full mask
 * and __GFP_RETRY_MAYFAIL: reclaim, but no OOM kill */
static struct page *shmem_alloc_page(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long want)
{
	const gfp_t noreclaim = (I915_SHMEM_GFP & ~__GFP_RECLAIM) | __GFP_NORETRY | __GFP_NOWARN;
	struct page *p = alloc_pages(pgdat, ctx, noreclaim, 0);

	if (!p) {
		i915_gem_shrink(pgdat, ctx, 2 * want, NULL);
		p = alloc_pages(pgdat, ctx, noreclaim, 0);
	}
	if (!p)
		p = alloc_pages(pgdat, ctx, I915_SHMEM_GFP | __GFP_RETRY_MAYFAIL | __GFP_NOWARN, 0);
	return p;
}

/* shmem_read_mapping_page_gfp() for page i: the cached page, the swap
 * cache's, one read back from swap, or a new zeroed page.  PFN_NONE when
 * no page could be had. */
static unsigned long shmem_read_page(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                     struct drm_i915_gem_object *obj, unsigned long i)
{
	uint32_t e = obj->entries[i];
	struct page *p;
	unsigned long pfn;

	if (entry_present(e)) {
		pfn = entry_pfn(e);
		ctx->kernel_ns += pgdat->costs.pagecache_hit_ns;
		if (PageLRU(&pgdat->mem_map[pfn]))
			lruvec_del_page(pgdat, pfn);
		return pfn;
	}
	if (entry_nonres(e)) {
		uint32_t slot = e & ENTRY_VAL_MASK;

		/* still in the swap cache: no I/O */
		pfn = swap_cache_take(pgdat, slot);
		if (pfn != PFN_NONE) {
			swap_free(pgdat, ctx, slot);
			ctx->kernel_ns += pgdat->costs.pagecache_hit_ns;
			shmem_page_cache(pgdat, obj, i, pfn);
			return pfn;
		}
		/* shmem_swapin_folio(): read it and wait */
		if (!(p = shmem_alloc_page(pgdat, ctx, obj->nr_pages)))
			return PFN_NONE;
		pfn = page_to_pfn(pgdat, p);
		workingset_refault(pgdat, p, swap_get_shadow(pgdat, slot), false, 1);
		blockdev_io_wait(pgdat, ctx, &pgdat->swap.dev, 1, false);
		swap_free(pgdat, ctx, slot);
		count_vm_events(pgdat, PSWPIN, 1);
		count_vm_events(pgdat, PGPGIN, PAGE_SIZE >> 10);
		ctx->kernel_ns += pgdat->costs.swapin_ns;
		pgdat->i915->swapin_pages++;
		shmem_page_cache(pgdat, obj, i, pfn);
		return pfn;
	}
	if (!(p = shmem_alloc_page(pgdat, ctx, obj->nr_pages)))
		return PFN_NONE;
	pfn = page_to_pfn(pgdat, p);
	ctx->kernel_ns += pgdat->costs.clear_page_ns + pgdat->costs.pagecache_add_ns;
	shmem_page_cache(pgdat, obj, i, pfn);
	return pfn;
}

/* shmem_sg_free_table(): the mapping evictable again, every page moved
 * to the LRU its flags choose (check_move_unevictable_pages), marked
 * accessed (mark_page_accessed: the object is I915_MADV_WILLNEED) and no
 * longer held by the sg table */
static void shmem_put_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, struct drm_i915_gem_object *obj,
                            unsigned long upto)
{
	for (unsigned long i = 0; i < upto; i++) {
		unsigned long pfn;
		struct page *p;

		if (!entry_present(obj->entries[i]))
			continue;
		pfn = entry_pfn(obj->entries[i]);
		p = &pgdat->mem_map[pfn];
		if (PageLRU(p))
			lruvec_del_page(pgdat, pfn);
		ClearPageFlag(p, PG_unevictable);
		ClearPageFlag(p, PG_pinned);
		SetPageFlag(p, PG_referenced);
		lruvec_add_page(pgdat, pfn, false);
		ctx->kernel_ns += pgdat->costs.lru_scan_ns;
	}
}

int i915_gem_object_get_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, struct drm_i915_gem_object *obj)
{
	struct i915_gem *g = pgdat->i915;

	if (obj->has_pages)
		return 0;
	for (unsigned long i = 0; i < obj->nr_pages; i++) {
		unsigned long pfn = shmem_read_page(pgdat, ctx, obj, i);
		struct page *p;

		if (pfn == PFN_NONE) {
			shmem_put_pages(pgdat, ctx, obj, i);
			return -1;
		}
		/* mapping_set_unevictable() and the sg table's reference */
		p = &pgdat->mem_map[pfn];
		SetPageFlag(p, PG_unevictable);
		SetPageFlag(p, PG_pinned);
		lruvec_add_page(pgdat, pfn, false);
	}
	/* __i915_gem_object_set_pages(): on the shrink list */
	obj->has_pages = true;
	list_add_tail_obj(&g->shrink_list, obj);
	g->shrink_count++;
	g->shrink_pages += obj->nr_pages;
	if (obj->in_use)
		g->pinned_pages += obj->nr_pages;
	return 0;
}

/* __i915_gem_object_put_pages(): off the shrink list, pages let go */
static void i915_gem_object_put_pages(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                      struct drm_i915_gem_object *obj)
{
	struct i915_gem *g = pgdat->i915;

	if (!obj->has_pages)
		return;
	list_del_obj(obj);
	g->shrink_count--;
	g->shrink_pages -= obj->nr_pages;
	if (obj->in_use)
		g->pinned_pages -= obj->nr_pages;
	obj->has_pages = false;
	shmem_put_pages(pgdat, ctx, obj, obj->nr_pages);
}

/* i915_gem_shrink(I915_SHRINK_BOUND | I915_SHRINK_UNBOUND): objects from
 * the head of the shrink list until target pages are released; an
 * object in use is passed over (uncounted), every other one is released
 * and counted scanned.  Without swap nothing can be released
 * (can_release_pages).  Returns the pages released. */
static unsigned long i915_gem_shrink(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long target,
                                     unsigned long *nr_scanned)
{
	struct i915_gem *g = pgdat->i915;
	struct drm_i915_gem_object still = { 0 }, *o;
	unsigned long count = 0, scanned = 0;

	if (!g || !get_nr_swap_pages(pgdat))
		return 0;
	still.prev = still.next = &still;
	while (count < target && (o = g->shrink_list.next) != &g->shrink_list) {
		list_del_obj(o);
		ctx->kernel_ns += pgdat->costs.shrinker_object_ns;
		if (o->in_use) {
			list_add_tail_obj(&still, o);
			continue;
		}
		/* it leaves the list with its pages */
		list_add_tail_obj(&still, o);
		i915_gem_object_put_pages(pgdat, ctx, o);
		count += o->nr_pages;
		scanned += o->nr_pages;
		g->released_objects++;
		g->released_pages += o->nr_pages;
	}
	/* list_splice_tail(&still_in_list, phase->list) */
	while ((o = still.next) != &still) {
		list_del_obj(o);
		list_add_tail_obj(&g->shrink_list, o);
	}
	if (nr_scanned)
		*nr_scanned += scanned;
	return count;
}

void i915_gem_object_put(struct pglist_data *pgdat, struct mm_ctx *ctx, struct drm_i915_gem_object *obj)
{
	struct i915_gem *g = pgdat->i915;

	if (!obj)
		return;
	i915_gem_object_put_pages(pgdat, ctx, obj);
	/* shmem_truncate_range(): pages and swap entries go */
	for (unsigned long i = 0; i < obj->nr_pages; i++) {
		uint32_t e = obj->entries[i];

		if (entry_present(e)) {
			unsigned long pfn = entry_pfn(e);
			struct page *p = &pgdat->mem_map[pfn];
			if (PageLRU(p))
				lruvec_del_page(pgdat, pfn);
			shmem_page_uncache(pgdat);
			p->owner = PGOWN_NONE;
			p->mapping = p->index = 0;
			ClearPageFlag(p, PG_swapbacked);
			ClearPageFlag(p, PG_active);
			ClearPageFlag(p, PG_referenced);
			ClearPageFlag(p, PG_workingset);
			__free_pages(pgdat, ctx, p, 0);
		} else if (entry_nonres(e)) {
			swap_free(pgdat, ctx, e & ENTRY_VAL_MASK);
		}
	}
	g->objs[obj->id] = NULL;
	g->objects--;
	free(obj->entries);
	free(obj);
}

/* ---- what reclaim, migration and the checker ask ---- */

struct drm_i915_gem_object *shmem_page_object(const struct pglist_data *pgdat, const struct page *p)
{
	const struct i915_gem *g = pgdat->i915;

	if (!g || p->owner != PGOWN_SHMEM || p->mapping >= g->nr_objs)
		return NULL;
	return g->objs[p->mapping];
}

bool shmem_page_cached(const struct pglist_data *pgdat, unsigned long pfn)
{
	const struct page *p = &pgdat->mem_map[pfn];
	const struct drm_i915_gem_object *o = shmem_page_object(pgdat, p);

	return o && p->index < o->nr_pages && o->entries[p->index] == (ENTRY_PRESENT | (uint32_t)pfn);
}

bool shmem_writepage(struct pglist_data *pgdat, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];
	struct drm_i915_gem_object *o = shmem_page_object(pgdat, p);
	uint32_t slot;

	VM_BUG_ON(!o || PageTest(p, PG_unevictable));
	/* no swap: redirtied and activated (AOP_WRITEPAGE_ACTIVATE) */
	if (!o || (slot = get_swap_page(pgdat)) == UINT32_MAX)
		return false;
	/* add_to_swap_cache() and shmem_delete_from_page_cache(): the file
	 * keeps the swap entry; the page is the swap cache's alone */
	o->entries[p->index] = ENTRY_NONRES | slot;
	shmem_page_uncache(pgdat);
	swap_set_shadow(pgdat, slot, workingset_eviction(pgdat, pfn, 1));
	p->owner = PGOWN_ANON;
	p->mapping = p->index = 0;
	ClearPageFlag(p, PG_referenced);
	ClearPageFlag(p, PG_young);
	/* swap_writepage() */
	mod_node_page_state(pgdat, NR_VMSCAN_WRITE, 1);
	count_vm_events(pgdat, PSWPOUT, 1);
	count_vm_events(pgdat, PGPGOUT, PAGE_SIZE >> 10);
	swap_writeback_start(pgdat, pfn, slot, pgdat_now(pgdat) + blockdev_io(pgdat, &pgdat->swap.dev, 1, true, 0));
	return true;
}

void shmem_migrate_page(struct pglist_data *pgdat, unsigned long src, unsigned long dst)
{
	struct drm_i915_gem_object *o = shmem_page_object(pgdat, &pgdat->mem_map[dst]);
	uint32_t idx = pgdat->mem_map[dst].index;

	if (o && idx < o->nr_pages && o->entries[idx] == (ENTRY_PRESENT | (uint32_t)src))
		o->entries[idx] = ENTRY_PRESENT | (uint32_t)dst;
}

void i915_gem_stats(const struct pglist_data *pgdat, struct i915_gem_stats *st)
{
	const struct i915_gem *g = pgdat->i915;

	memset(st, 0, sizeof(*st));
	if (!g)
		return;
	st->objects = g->objects;
	st->shrink_count = g->shrink_count;
	st->shrink_pages = g->shrink_pages;
	st->pinned_pages = g->pinned_pages;
	st->released_objects = g->released_objects;
	st->released_pages = g->released_pages;
	st->swapin_pages = g->swapin_pages;
}

void i915_gem_teardown(struct pglist_data *pgdat)
{
	struct i915_gem *g = pgdat->i915;
	struct mm_ctx ctx = { 0 };

	if (!g)
		return;
	for (uint32_t i = 0; i < g->nr_objs; i++)
		if (g->objs[i])
			i915_gem_object_put(pgdat, &ctx, g->objs[i]);
	unregister_shrinker(pgdat, &g->shrinker);
	free(g->objs);
	free(g);
	pgdat->i915 = NULL;
}
