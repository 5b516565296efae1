/* random_alloc.h - a randomized allocation load on the allocator alone.
 *
 * Objects of the classes the kernel allocates (anonymous and file pages,
 * reclaimable and unmovable slab, page tables, atomic buffers, THPs) are
 * allocated with their GFP flags and owner marks and freed after an
 * exponentially distributed lifetime, keeping memory near a target
 * occupancy.  No reclaim exists at this level: a request that fails is
 * counted and dropped.  Pages carry the flags the census reads (PG_lru,
 * PG_slab, the owner) but are not put on the LRU lists or into slab
 * caches: nothing reclaims them.  It drives the demonstration, the stress
 * tests and the allocator benchmarks.
 */
#ifndef MMSIM_RANDOM_ALLOC_H
#define MMSIM_RANDOM_ALLOC_H

#include <stdint.h>
#include "mmsim/mm.h"

enum ra_class { RA_ANON, RA_FILE, RA_SLAB_RECLAIMABLE, RA_SLAB_UNMOVABLE, RA_PAGETABLE,
                RA_ATOMIC, RA_THP, NR_RA_CLASSES };

struct random_alloc_params {
	uint64_t seed;
	unsigned long ops;          /* allocation attempts */
	double occupancy;           /* fraction of managed pages kept allocated */
	unsigned long check_every;  /* run check_pgdat every N attempts (0: never) */
};

struct random_alloc_stats {
	unsigned long attempts[NR_RA_CLASSES];
	unsigned long failures[NR_RA_CLASSES];
	unsigned long live_objects;
	unsigned long live_pages;
	unsigned long check_failures;
};

extern const char *const ra_class_names[NR_RA_CLASSES];

void random_alloc_defaults(struct random_alloc_params *p);
/* Runs the load; frees everything it still holds unless keep is set (then
 * the state stays for inspection and random_alloc_release frees it). */
int random_alloc_run(struct pglist_data *pgdat, const struct random_alloc_params *p,
                     struct random_alloc_stats *st, int keep);
void random_alloc_release(struct pglist_data *pgdat);

#endif
