/* testlib.h - shared helpers for the unit tests (header only).
 *
 * Include after nothing else: it pulls in cmocka (with the headers cmocka
 * needs before it) and the model's internal header.
 *
 * A test boots a small machine with tl_boot() (a policy by name, optional
 * "switch=value" strings, a layout, CPUs, sysctls).  Every machine booted
 * here runs the invariant checker after every allocator operation
 * (debug_check_interval = 1) and is registered, so that tl_teardown() frees
 * it even when an assertion longjmp()s out of the test: register tests with
 * cmocka_unit_test_teardown(fn, tl_teardown).
 */
#ifndef MMSIM_TESTLIB_H
#define MMSIM_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "mmsim/census.h"

struct machine {
	struct pglist_data pgdat;
	struct mm_policy *policy;
	struct mm_ctx ctx;              /* cpu 0, no PF_ flags */
};

#define TL_MAX_MACHINES 8
static struct machine *tl_live[TL_MAX_MACHINES];

/* ------------------------------------------------------------------ */
/* configuration */

static inline struct vm_sysctl tl_sysctl(void)
{
	struct vm_sysctl s;
	vm_sysctl_defaults(&s);
	/* the tests' machines of a few pageblocks keep grouping by mobility
	 * (the kernel's rule would turn it off below 2,560 pages:
	 * test_mobility.c tests that rule) */
	s.group_by_mobility = GROUP_BY_MOBILITY_ON;
	return s;
}

/* min == low == high == 0 on any zone under 10000 pages: vm.min_free_kbytes
 * = 0 and the smallest watermark_scale_factor the kernel accepts (1). */
static inline struct vm_sysctl tl_sysctl_nowmark(void)
{
	struct vm_sysctl s = tl_sysctl();
	s.user_min_free_kbytes = 0;
	s.watermark_scale_factor = 1;
	return s;
}

#define TL_DMA32_START 4096ul

/* One DMA32 zone of nr_blocks pageblocks, all RAM managed, from 16 MiB. */
static inline struct mm_layout tl_layout_dma32(unsigned long nr_blocks)
{
	struct mm_layout l;
	memset(&l, 0, sizeof(l));
	l.zone[ZONE_DMA32] = (struct zone_layout){
		.start_pfn = TL_DMA32_START, .spanned = nr_blocks * pageblock_nr_pages,
		.present = nr_blocks * pageblock_nr_pages, .managed_start = TL_DMA32_START,
		.managed = nr_blocks * pageblock_nr_pages,
	};
	return l;
}

/* DMA32 and Normal, nr_blocks pageblocks each, back to back. */
static inline struct mm_layout tl_layout_dma32_normal(unsigned long dma32_blocks,
                                                      unsigned long normal_blocks)
{
	struct mm_layout l = tl_layout_dma32(dma32_blocks);
	unsigned long start = TL_DMA32_START + dma32_blocks * pageblock_nr_pages;
	l.zone[ZONE_NORMAL] = (struct zone_layout){
		.start_pfn = start, .spanned = normal_blocks * pageblock_nr_pages,
		.present = normal_blocks * pageblock_nr_pages, .managed_start = start,
		.managed = normal_blocks * pageblock_nr_pages,
	};
	return l;
}

/* ------------------------------------------------------------------ */
/* machines */

static inline void tl_register(struct machine *m)
{
	for (int i = 0; i < TL_MAX_MACHINES; i++)
		if (!tl_live[i]) {
			tl_live[i] = m;
			return;
		}
	fail_msg("testlib: more than %d live machines", TL_MAX_MACHINES);
}

/* Create a policy, apply "key=value" switches (NULL-terminated list, or
 * NULL), validate, boot.  Any error fails the test with its message. */
static inline struct machine *tl_boot(const char *policy, const char *const *switches,
                                      const struct mm_layout *layout, unsigned nr_cpus,
                                      const struct vm_sysctl *sysctl)
{
	char err[512] = "";
	struct machine *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	if (mm_policy_create(policy, &m->policy, err, sizeof(err))) {
		free(m);
		fail_msg("mm_policy_create(%s): %s", policy, err);
	}
	for (const char *const *sw = switches; sw && *sw; sw++) {
		char key[128];
		const char *eq = strchr(*sw, '=');
		if (!eq || (size_t)(eq - *sw) >= sizeof(key)) {
			mm_policy_destroy(m->policy);
			free(m);
			fail_msg("testlib: bad switch '%s'", *sw);
		}
		memcpy(key, *sw, (size_t)(eq - *sw));
		key[eq - *sw] = 0;
		if (mm_policy_set(m->policy, key, eq + 1, err, sizeof(err))) {
			mm_policy_destroy(m->policy);
			free(m);
			fail_msg("mm_policy_set(%s): %s", *sw, err);
		}
	}
	if (mm_policy_validate(m->policy, err, sizeof(err))) {
		mm_policy_destroy(m->policy);
		free(m);
		fail_msg("mm_policy_validate: %s", err);
	}
	if (pgdat_init(&m->pgdat, layout, nr_cpus, sysctl, m->policy, err, sizeof(err))) {
		mm_policy_destroy(m->policy);
		free(m);
		fail_msg("pgdat_init: %s", err);
	}
	m->pgdat.debug_check_interval = 1;
	tl_register(m);
	assert_int_equal(check_pgdat(&m->pgdat, "boot"), 0);
	return m;
}

static inline struct machine *tl_boot_dma32(const char *policy, const char *const *switches,
                                            unsigned long nr_blocks, const struct vm_sysctl *sysctl)
{
	struct mm_layout l = tl_layout_dma32(nr_blocks);
	return tl_boot(policy, switches, &l, 1, sysctl);
}

static inline void tl_destroy(struct machine *m)
{
	if (!m)
		return;
	for (int i = 0; i < TL_MAX_MACHINES; i++)
		if (tl_live[i] == m)
			tl_live[i] = NULL;
	pgdat_destroy(&m->pgdat);
	mm_policy_destroy(m->policy);
	free(m);
}

static inline int tl_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < TL_MAX_MACHINES; i++)
		if (tl_live[i])
			tl_destroy(tl_live[i]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* operations */

static inline struct zone *tl_zone(struct machine *m, enum zone_type zi)
{
	return &m->pgdat.node_zones[zi];
}

static inline unsigned long tl_pfn(const struct machine *m, const struct page *p)
{
	return page_to_pfn(&m->pgdat, p);
}

/* direct compaction for a THP-class request of this order, as the slow
 * path calls try_to_compact_pages(), capturing the page it frees in capc */
static inline enum compact_result tl_compact_thp(struct machine *m, unsigned order, enum compact_priority prio,
                                                 struct capture_control *capc)
{
	struct alloc_context ac = { .highest_zoneidx = (enum zone_type)gfp_zone(GFP_TRANSHUGE),
	                            .migratetype = MIGRATE_MOVABLE };
	struct mm_ctx ctx = { .cpu = 0 };
	enum compact_result r;

	*capc = (struct capture_control){ .order = order, .compact_order = (int)order,
	                                  .migratetype = MIGRATE_MOVABLE, .page = PFN_NONE };
	ctx.capture_control = capc;
	mm_set_current(&ctx);
	r = try_to_compact_pages(&m->pgdat, &ctx, GFP_TRANSHUGE, order, ALLOC_WMARK_MIN, &ac, prio, capc);
	mm_set_current(NULL);
	return r;
}

/* the head of the page-cache folio holding file page i; NULL: not cached */
static inline struct page *tl_folio_at(struct machine *m, struct address_space *as, unsigned long i)
{
	uint32_t e = as->i_pages[i];
	struct page *p;

	if (!entry_present(e))
		return NULL;
	p = &m->pgdat.mem_map[entry_pfn(e)];
	return PageTail(p) ? &m->pgdat.mem_map[p->next] : p;
}

static inline struct page *tl_page(struct machine *m, unsigned long pfn)
{
	return pfn_to_page(&m->pgdat, pfn);
}

static inline struct page *tl_alloc_cpu(struct machine *m, unsigned cpu, gfp_t gfp, unsigned order)
{
	struct mm_ctx ctx = { .cpu = cpu };
	return alloc_pages(&m->pgdat, &ctx, gfp, order);
}

static inline struct page *tl_alloc(struct machine *m, gfp_t gfp, unsigned order)
{
	return alloc_pages(&m->pgdat, &m->ctx, gfp, order);
}

static inline void tl_free_cpu(struct machine *m, unsigned cpu, struct page *p, unsigned order)
{
	struct mm_ctx ctx = { .cpu = cpu };
	ClearPageFlag(p, PG_lru);       /* tl_mark_lru pages are on no list; __free_pages refuses LRU pages */
	__free_pages(&m->pgdat, &ctx, p, order);
}

static inline void tl_free(struct machine *m, struct page *p, unsigned order)
{
	ClearPageFlag(p, PG_lru);       /* as in tl_free_cpu */
	__free_pages(&m->pgdat, &m->ctx, p, order);
}

static inline void tl_check(struct machine *m)
{
	assert_int_equal(check_pgdat(&m->pgdat, "test"), 0);
}

/* ------------------------------------------------------------------ */
/* inspection */

static inline int tl_block_mt(const struct machine *m, unsigned long pfn)
{
	return get_pageblock_migratetype(&m->pgdat, pfn);
}

/* pageblocks of the zone (by their first pfn in the zone) of type mt */
static inline unsigned long tl_count_blocks(const struct machine *m, enum zone_type zi, int mt)
{
	const struct zone *z = &m->pgdat.node_zones[zi];
	unsigned long n = 0;

	if (!z->spanned_pages)
		return 0;
	for (unsigned long b = pageblock_start_pfn(z->zone_start_pfn); b < zone_end_pfn(z);
	     b += pageblock_nr_pages)
		if (get_pageblock_migratetype(&m->pgdat, b < z->zone_start_pfn ? z->zone_start_pfn : b) == mt)
			n++;
	return n;
}

static inline unsigned long tl_zone_blocks(const struct machine *m, enum zone_type zi)
{
	const struct zone *z = &m->pgdat.node_zones[zi];
	if (!z->spanned_pages)
		return 0;
	return (zone_end_pfn(z) - pageblock_start_pfn(z->zone_start_pfn) + pageblock_nr_pages - 1)
	       / pageblock_nr_pages;
}

static inline long tl_stat(struct machine *m, enum zone_type zi, enum zone_stat_item i)
{
	return m->pgdat.node_zones[zi].vm_stat[i];
}

/* entries on free_area[order].free_list[mt] */
static inline unsigned long tl_list_len(struct machine *m, enum zone_type zi, unsigned order, int mt)
{
	const struct page *mm = m->pgdat.mem_map;
	uint32_t head = m->pgdat.node_zones[zi].free_area[order].free_list[mt];
	unsigned long n = 0;
	for (uint32_t e = mm[head].next; e != head; e = mm[e].next)
		n++;
	return n;
}

/* the first entry of a free list, PFN_NONE if empty */
static inline unsigned long tl_list_first(struct machine *m, enum zone_type zi, unsigned order, int mt)
{
	const struct page *mm = m->pgdat.mem_map;
	uint32_t head = m->pgdat.node_zones[zi].free_area[order].free_list[mt];
	return mm[head].next == head ? PFN_NONE : mm[head].next;
}

/* free pages of type mt on the lists of a zone, all orders */
static inline unsigned long tl_list_pages(struct machine *m, enum zone_type zi, int mt)
{
	unsigned long n = 0;
	for (unsigned o = 0; o < MAX_ORDER; o++)
		n += tl_list_len(m, zi, o, mt) << o;
	return n;
}

static inline int tl_pcp_count(struct machine *m, enum zone_type zi, unsigned cpu)
{
	return m->pgdat.node_zones[zi].per_cpu_pageset[cpu].count;
}

/* buddyinfo and the free counters of one zone */
struct tl_snap {
	unsigned long nr_free[MAX_ORDER];
	long stat[NR_VM_ZONE_STAT_ITEMS];
};

static inline struct tl_snap tl_snapshot(struct machine *m, enum zone_type zi)
{
	struct tl_snap s;
	const struct zone *z = &m->pgdat.node_zones[zi];
	for (int o = 0; o < MAX_ORDER; o++)
		s.nr_free[o] = z->free_area[o].nr_free;
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		s.stat[i] = z->vm_stat[i];
	return s;
}

static inline void tl_assert_snap_equal(const struct tl_snap *a, const struct tl_snap *b)
{
	for (int o = 0; o < MAX_ORDER; o++)
		if (a->nr_free[o] != b->nr_free[o])
			fail_msg("nr_free[%d]: %lu, expected %lu", o, b->nr_free[o], a->nr_free[o]);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (a->stat[i] != b->stat[i])
			fail_msg("%s: %ld, expected %ld", zone_stat_names[i], b->stat[i], a->stat[i]);
}

/* ------------------------------------------------------------------ */
/* arranging state */

/* Give a pageblock a type and move its free pages to that type's lists,
 * as unreserve_highatomic_pageblock() does. */
static inline void tl_retype_block(struct machine *m, unsigned long pfn, int mt)
{
	struct zone *z = page_zone(&m->pgdat, tl_page(m, pfn));
	set_pageblock_migratetype(&m->pgdat, pfn, mt);
	move_freepages_block(z, pfn, mt, NULL);
	tl_check(m);
}

/* Mark an allocated page (its head) as an LRU page of an anonymous mapping. */
static inline void tl_mark_lru(struct page *p)
{
	SetPageFlag(p, PG_lru);
	p->owner = PGOWN_ANON;
}

#endif
