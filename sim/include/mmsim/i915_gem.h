/* i915_gem.h - a GPU's buffer objects as i915 keeps them in system memory
 * (drivers/gpu/drm/i915/gem/i915_gem_shmem.c, i915_gem_shrinker.c), for
 * what they do to the allocator and to reclaim.
 *
 * An object's backing store is a shmem file: its pages come from
 * shmem_read_mapping_page_gfp() with the mapping's gfp mask, which i915
 * sets to GFP_HIGHUSER | __GFP_RECLAIMABLE (shmem_object_init): reclaimable
 * pageblocks.  They are shmem pages: swap-backed, counted in nr_shmem and
 * nr_file_pages, on the LRU.  While the object holds its pages
 * (i915_gem_object_get_pages(): shmem_get_pages -> shmem_sg_alloc_table)
 * its mapping is unevictable (mapping_set_unevictable), so they sit on
 * the unevictable list (nr_unevictable) where reclaim never scans, and the
 * sg table's reference keeps compaction from moving them (PG_pinned).
 *
 * i915's shrinker ("drm-i915_gem", DEFAULT_SEEKS, batch 4096 then two
 * objects' worth) counts the pages of the objects on its shrink list and,
 * asked to scan, walks that list oldest first: an object in use (the
 * model's stand-in for a framebuffer the display scans out, which
 * i915_gem_shrink() skips) is passed over; any other is unbound and its
 * pages put (__i915_gem_object_put_pages -> shmem_sg_free_table): the
 * mapping becomes evictable again, the pages dirty and marked accessed
 * move to the inactive anon list (check_move_unevictable_pages), and from
 * then on reclaim treats them as any shmem page: pageout() ->
 * shmem_writepage() moves a page to the swap cache and writes it (pswpout,
 * nr_shmem down), and the written page is freed (pgsteal_anon).  Without
 * swap the shrinker releases nothing (can_release_pages: no purgeable
 * objects in the model).  Getting the pages back reads swapped ones in
 * (shmem_swapin_folio: pswpin).  Freeing an object truncates its file.
 *
 * Not modelled: the GPU's own use of objects (active objects, waits),
 * purgeable objects (I915_MADV_DONTNEED), kswapd's second shrinker pass
 * with I915_SHRINK_WRITEBACK (it would release only objects the first
 * pass released already: the rest are in use), huge pages (gemfs).
 */
#ifndef MMSIM_I915_GEM_H
#define MMSIM_I915_GEM_H

#include <stdbool.h>
#include "mmsim/mm.h"

struct drm_i915_gem_object;

/* an object of nr_pages (no pages yet); in_use: never released by the
 * shrinker while it holds its pages.  NULL when out of host memory. */
struct drm_i915_gem_object *i915_gem_object_create(struct pglist_data *pgdat, unsigned long nr_pages,
                                                   bool in_use);
/* shmem_get_pages(): read every page of the object's shmem file (new,
 * cached or swapped) and pin them.  0, or -1 if a page could not be had
 * (what was got is put back: the object holds no pages). */
int  i915_gem_object_get_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, struct drm_i915_gem_object *obj);
/* the last reference dropped: pages and swap slots freed */
void i915_gem_object_put(struct pglist_data *pgdat, struct mm_ctx *ctx, struct drm_i915_gem_object *obj);
bool i915_gem_object_has_pages(const struct drm_i915_gem_object *obj);

/* what the driver has done, for the run's metrics */
struct i915_gem_stats {
	unsigned long objects;          /* objects that exist */
	unsigned long shrink_count;     /* objects on the shrink list (holding pages) */
	unsigned long shrink_pages;     /* their pages (shrink_memory >> PAGE_SHIFT) */
	unsigned long pinned_pages;     /* pages of objects in use */
	unsigned long released_objects; /* objects the shrinker released, ever */
	unsigned long released_pages;   /* their pages */
	unsigned long swapin_pages;     /* pages read back from swap by get_pages */
};
void i915_gem_stats(const struct pglist_data *pgdat, struct i915_gem_stats *st);

/* machine teardown: every object freed */
void i915_gem_teardown(struct pglist_data *pgdat);

#endif
