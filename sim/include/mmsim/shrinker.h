/* shrinker.h - the shrinkers reclaim asks for memory that is not on the
 * LRU lists (include/linux/shrinker.h).
 *
 * shrink_slab() (slab.c) calls every registered shrinker with v6.2's
 * do_shrink_slab(): count_objects() says how many objects it could free,
 * a share of them (freeable >> priority, times 4 / seeks, plus deferred
 * work) is asked for in batches of `batch` through scan_objects(), which
 * sets *nr_scanned to the objects it looked at and returns those it
 * freed, or SHRINK_STOP.  slabs_scanned counts every batch's nr_scanned.
 * The superblock shrinker (dentries and inodes, slab.c) and i915's
 * (i915_gem.h) are the model's two.
 */
#ifndef MMSIM_SHRINKER_H
#define MMSIM_SHRINKER_H

#include "mmsim/mm.h"

#define SHRINK_STOP   (~0ul)
#define SHRINK_BATCH  128               /* include/linux/shrinker.h */
#define DEFAULT_SEEKS 2

struct shrinker {
	unsigned long (*count_objects)(struct pglist_data *pgdat, struct shrinker *s);
	unsigned long (*scan_objects)(struct pglist_data *pgdat, struct mm_ctx *ctx, struct shrinker *s,
	                              unsigned long nr_to_scan, unsigned long *nr_scanned);
	long batch;                     /* 0: SHRINK_BATCH */
	int seeks;                      /* DEFAULT_SEEKS; 0: freeable / 2 a call */
	long nr_deferred;               /* work not done yet (nr_deferred[nid]) */
	void *priv;
	struct shrinker *next;          /* pgdat->shrinkers */
};

/* register_shrinker() / unregister_shrinker(): added at the list's end */
void register_shrinker(struct pglist_data *pgdat, struct shrinker *s);
void unregister_shrinker(struct pglist_data *pgdat, struct shrinker *s);

#endif
