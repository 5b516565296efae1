/* stress_common.h - what the stress tests share: booting a machine the way
 * the command line does (machine_boot() of <mmsim/machine.h> with a policy
 * and its default switches), the state snapshots they compare, and a hash
 * of the whole allocator state.  Included by the tests/stress C files
 * only (a header, so the CMake glob does not make an executable of it).
 *
 * Include after cmocka.h and its prerequisites.
 */
#ifndef MMSIM_STRESS_COMMON_H
#define MMSIM_STRESS_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mmsim/debug_vm.h"
#include "mmsim/mm.h"
#include "mmsim/policy.h"
#include "mmsim/machine.h"
#include "random_alloc.h"

struct machine {
	struct pglist_data pgdat;
	struct mm_policy *policy;
};

/* Boot a node with the named policy and its default switches, through
 * the library's machine_boot() as every verb does (the defaults of
 * machine_desc_defaults(): the reference guest's reserved pages, no
 * swap, the kernel's sysctls). */
static inline void machine_boot_or_fail(struct machine *m, const char *policy,
                                        uint64_t ram, unsigned cpus)
{
	struct machine_desc d;
	char err[256] = "";

	memset(m, 0, sizeof(*m));
	machine_desc_defaults(&d);
	d.ram = ram;
	d.cpus = cpus;
	if (mm_policy_create(policy, &m->policy, err, sizeof(err)))
		fail_msg("mm_policy_create(%s): %s", policy, err);
	if (mm_policy_validate(m->policy, err, sizeof(err)))
		fail_msg("mm_policy_validate(%s): %s", policy, err);
	if (machine_boot(&m->pgdat, &d, m->policy, err, sizeof(err)))
		fail_msg("machine_boot(%s, %llu): %s", policy, (unsigned long long)ram, err);
}

static inline void machine_destroy(struct machine *m)
{
	pgdat_destroy(&m->pgdat);
	mm_policy_destroy(m->policy);
	m->policy = NULL;
}

static inline unsigned long node_managed_pages(const struct pglist_data *pgdat)
{
	unsigned long n = 0;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		n += pgdat->node_zones[z].managed_pages;
	return n;
}

static inline long node_pcp_pages(const struct pglist_data *pgdat)
{
	long n = 0;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];
		for (unsigned c = 0; zone->per_cpu_pageset && c < pgdat->nr_cpus; c++)
			n += zone->per_cpu_pageset[c].count;
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* FNV-1a, 64 bit, over the allocator's whole state                    */

#define FNV64_OFFSET 0xcbf29ce484222325ull
#define FNV64_PRIME  0x100000001b3ull

static inline uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

/*
 * The memmap (every real pfn: flags, list links, owner marks), the
 * pageblock flags, every zone's counters, free-area sizes, watermarks
 * (boost included), highatomic reserve, per-cpu counts and lists, the node's
 * event counters, extfrag statistics and kswapd requests.  No pointers
 * are hashed: list links are pfns, so the hash does not depend on where
 * malloc put things.
 */
static inline uint64_t pgdat_state_hash(const struct pglist_data *pgdat)
{
	const struct extfrag_stats *ef = &pgdat->extfrag;
	uint64_t h = FNV64_OFFSET;

	_Static_assert(sizeof(struct page) == 32, "struct page has no padding to hash");
	h = fnv1a(h, pgdat->mem_map, pgdat->node_spanned_pages * sizeof(struct page));
	h = fnv1a(h, pgdat->pageblock_flags, pgdat->nr_pageblocks);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];

		h = fnv1a(h, zone->vm_stat, sizeof(zone->vm_stat));
		for (int o = 0; o < MAX_ORDER; o++)
			h = fnv1a(h, &zone->free_area[o].nr_free, sizeof(zone->free_area[o].nr_free));
		h = fnv1a(h, zone->_watermark, sizeof(zone->_watermark));
		h = fnv1a(h, &zone->watermark_boost, sizeof(zone->watermark_boost));
		h = fnv1a(h, &zone->nr_reserved_highatomic, sizeof(zone->nr_reserved_highatomic));
		h = fnv1a(h, &zone->flags, sizeof(zone->flags));
		for (unsigned c = 0; zone->per_cpu_pageset && c < pgdat->nr_cpus; c++) {
			const struct per_cpu_pages *pcp = &zone->per_cpu_pageset[c];
			h = fnv1a(h, &pcp->count, sizeof(pcp->count));
			h = fnv1a(h, &pcp->free_factor, sizeof(pcp->free_factor));
			/* the lists' order: the rings, not memmap links, hold it */
			for (int l = 0; l < NR_PCP_LISTS; l++)
				for (uint32_t i = 0; i < pcp->lists[l].len; i++) {
					uint32_t pfn = pcp_list_at(&pcp->lists[l], i);
					h = fnv1a(h, &pfn, sizeof(pfn));
				}
		}
	}
	h = fnv1a(h, pgdat->vm_events, sizeof(pgdat->vm_events));
	h = fnv1a(h, &ef->events, sizeof(ef->events));
	h = fnv1a(h, &ef->fragmenting, sizeof(ef->fragmenting));
	h = fnv1a(h, &ef->change_ownership, sizeof(ef->change_ownership));
	h = fnv1a(h, ef->by_type, sizeof(ef->by_type));
	h = fnv1a(h, &pgdat->kswapd_order, sizeof(pgdat->kswapd_order));
	h = fnv1a(h, &pgdat->kswapd_highest_zoneidx, sizeof(pgdat->kswapd_highest_zoneidx));
	h = fnv1a(h, &pgdat->kswapd_wakeups, sizeof(pgdat->kswapd_wakeups));
	return h;
}

static inline double stress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
