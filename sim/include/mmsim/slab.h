/* slab.h - slab caches as SLUB keeps them (mm/slub.c), for what they do
 * to pageblocks: which pages they take, of which order and migratetype,
 * and when a page can be given back (only once every object on it is free).
 *
 * Objects have no contents; a handle names one object (its slab page and
 * slot) and each object records an owner (an inode number, a pfn, a
 * process id) given at allocation.  The dentry and inode caches keep their
 * objects on an LRU, and shrink_slab() frees the least recently used
 * unreferenced ones under memory pressure, as the dcache and icache
 * shrinkers do, asking the dcache (dcache.c) what each object is
 * (internal.h).  buffer_heads are reclaimable slab too, but have no
 * shrinker: they go when the block-device page they describe is reclaimed.
 */
#ifndef MMSIM_SLAB_H
#define MMSIM_SLAB_H

#include <stdint.h>
#include "mmsim/mm.h"

enum kmem_cache_id {
	KMALLOC_64, KMALLOC_128, KMALLOC_256, KMALLOC_512, KMALLOC_1K, KMALLOC_2K, KMALLOC_4K,
	KMALLOC_8K,
	TASK_STRUCT_CACHE, MM_STRUCT_CACHE, VM_AREA_CACHE, FILES_CACHE, SIGNAL_CACHE, CRED_CACHE,
	ANON_VMA_CACHE, RADIX_TREE_NODE_CACHE,
	DENTRY_CACHE, INODE_CACHE, BUFFER_HEAD_CACHE,      /* reclaimable (SLAB_RECLAIM_ACCOUNT) */
	NR_KMEM_CACHES
};

typedef uint32_t slab_obj_t;           /* an object handle */
#define SLAB_OBJ_NONE UINT32_MAX

struct kmem_cache_info {
	const char *name;                  /* as /proc/slabinfo names it */
	unsigned object_size;              /* bytes, as allocated (with metadata) */
	unsigned objs_per_slab;
	unsigned order;                    /* the preferred (oo) order */
	unsigned min_order;                /* the fallback (min) order */
	bool reclaimable;                  /* SLAB_RECLAIM_ACCOUNT: __GFP_RECLAIMABLE pages */
};
extern const struct kmem_cache_info kmem_cache_info[NR_KMEM_CACHES];

/* The built-in caches, then those kmem_cache_create() made. */
#define MAX_KMEM_CACHES 384

/* Create the caches of a node (empty); slab_destroy frees every page. */
int  slab_init(struct pglist_data *pgdat);
void slab_destroy(struct pglist_data *pgdat);

/* kmem_cache_create(): a cache with a measured geometry (a /proc/slabinfo
 * row: objsize, objperslab, pagesperslab as an order; SLAB_RECLAIM_ACCOUNT
 * or not), for the kernel memory of a booted machine (workloads/system.c).
 * A name the model already has (dentry, kmalloc-512) gives that cache the
 * geometry, as long as it holds no slab yet (the booted kernel's caches are
 * the ones the build then uses), and returns its id; a new name creates a
 * cache.  Returns the id (an enum kmem_cache_id value or above), or -1: a
 * geometry no slab can have, a cache already in use with another one, or
 * MAX_KMEM_CACHES reached. */
int kmem_cache_create(struct pglist_data *pgdat, const char *name, unsigned object_size,
                      unsigned objs_per_slab, unsigned order, bool reclaimable);
/* a cache by its /proc/slabinfo name: its id, or -1 */
int kmem_cache_find(const struct pglist_data *pgdat, const char *name);

/* kmem_cache_alloc(): an object from a partial slab, or a new slab page:
 * SLUB's allocate_slab() first tries the cache's order with the caller's
 * flags less direct reclaim, plus __GFP_NOWARN|__GFP_NORETRY, then min_order
 * with the caller's flags.  SLAB_OBJ_NONE if both fail. */
slab_obj_t kmem_cache_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx,
                            enum kmem_cache_id cache, gfp_t gfp, uint32_t owner);
void kmem_cache_free(struct pglist_data *pgdat, struct mm_ctx *ctx,
                     enum kmem_cache_id cache, slab_obj_t obj);
/* a reclaimable object was used: it moves to the LRU's hot end and is
 * marked referenced (a dentry lookup hit) */
void kmem_cache_touch(struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj);

/* The dentry and inode caches' LRUs (list_lru): an object in use (a
 * dentry with children, an inode a dentry holds) is taken off, and put
 * back (at the hot end, unreferenced: list_lru_add) when it is unused
 * again; kmem_cache_alloc() puts a new one on.  add/del return whether
 * they changed anything. */
bool kmem_cache_lru_add(struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj);
bool kmem_cache_lru_del(struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj);
bool kmem_cache_on_lru(const struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj);
unsigned long kmem_cache_lru_count(const struct pglist_data *pgdat, enum kmem_cache_id cache);

/* What the LRU walk does with an object (enum lru_status of list_lru.h,
 * plus LRU_FREE: isolated to be freed), as pgdat->slab_isolate says;
 * without that hook a referenced object rotates and the others go. */
enum lru_status { LRU_FREE, LRU_REMOVED, LRU_ROTATE, LRU_RETRY };

/* shrink_slab(): ask the reclaimable caches' shrinkers for objects in
 * proportion to the LRU pages scanned (v6.2 do_shrink_slab: freeable >>
 * priority, times 4 / DEFAULT_SEEKS, in batches of SHRINK_BATCH); counts
 * slabs_scanned; returns slab pages freed. */
unsigned long shrink_slab(struct pglist_data *pgdat, struct mm_ctx *ctx, int priority);

/* objects and slab pages in use, per cache */
void slab_cache_usage(const struct pglist_data *pgdat, enum kmem_cache_id cache,
                      unsigned long *objects, unsigned long *slabs);

#endif
