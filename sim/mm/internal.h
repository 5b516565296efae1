/* internal.h - what the files of sim/mm share and nothing else sees
 * (mm/internal.h): alloc flags, the allocation context, free-list and
 * pageblock primitives.
 */
#ifndef MMSIM_MM_INTERNAL_H
#define MMSIM_MM_INTERNAL_H

#include "mmsim/debug_vm.h"
#include "mmsim/mm.h"
#include "mmsim/policy.h"

/* alloc_flags, with v6.2's values (mm/internal.h) */
#define ALLOC_WMARK_MIN      WMARK_MIN
#define ALLOC_WMARK_LOW      WMARK_LOW
#define ALLOC_WMARK_HIGH     WMARK_HIGH
#define ALLOC_NO_WATERMARKS  0x04u
#define ALLOC_WMARK_MASK     (ALLOC_NO_WATERMARKS - 1)
#define ALLOC_OOM            0x08u
#define ALLOC_HARDER         0x10u
#define ALLOC_HIGH           0x20u   /* == __GFP_HIGH */
#define ALLOC_CPUSET         0x40u
#define ALLOC_CMA            0x80u
#define ALLOC_NOFRAGMENT     0x100u
#define ALLOC_KSWAPD         0x800u  /* == __GFP_KSWAPD_RECLAIM */
/* model-only: the policy's last-resort pass before OOM may fall back */
#define ALLOC_LAST_RESORT    0x10000u

_Static_assert(ALLOC_HIGH == __GFP_HIGH, "v6.2 relies on ALLOC_HIGH == __GFP_HIGH");
_Static_assert(ALLOC_KSWAPD == __GFP_KSWAPD_RECLAIM, "v6.2 relies on ALLOC_KSWAPD == __GFP_KSWAPD_RECLAIM");

struct alloc_context {
	enum zone_type highest_zoneidx;
	int migratetype;
	bool spread_dirty_pages;
};

static inline const struct mm_policy_ops *pol(const struct pglist_data *pgdat)
{
	return &pgdat->policy->ops;
}

/* free-list primitives (page_alloc.c) */
void add_to_free_list(struct zone *zone, unsigned long pfn, unsigned order, int mt, bool tail);
void del_page_from_free_list(struct zone *zone, unsigned long pfn, unsigned order);
void move_to_free_list(struct zone *zone, unsigned long pfn, unsigned order, int mt);
int  move_freepages_block(struct zone *zone, unsigned long pfn, int mt, int *num_movable);
void change_pageblock_range(struct pglist_data *pgdat, unsigned long pfn, unsigned order, int mt);
void free_one_page(struct zone *zone, unsigned long pfn, unsigned order, int mt);
void free_boot_page(struct zone *zone, unsigned long pfn, unsigned order, int mt);

/* sentinel list helpers (mm_init.c lays the sentinels out) */
static inline bool list_empty_pfn(const struct pglist_data *pgdat, uint32_t head)
{
	return pgdat->mem_map[head].next == head;
}
static inline void list_add_pfn(struct pglist_data *pgdat, uint32_t pfn, uint32_t head, bool tail)
{
	struct page *m = pgdat->mem_map;
	uint32_t prev = tail ? m[head].prev : head;
	uint32_t next = m[prev].next;
	m[pfn].prev = prev;
	m[pfn].next = next;
	m[prev].next = pfn;
	m[next].prev = pfn;
}
static inline void list_del_pfn(struct pglist_data *pgdat, uint32_t pfn)
{
	struct page *m = pgdat->mem_map;
	m[m[pfn].prev].next = m[pfn].next;
	m[m[pfn].next].prev = m[pfn].prev;
	m[pfn].next = m[pfn].prev = PFN_NONE;
}

/* the reserves and boosting of v6.2, used by the vanilla policy's table */
void reserve_highatomic_pageblock(struct zone *zone, unsigned long pfn, unsigned order);
bool unreserve_highatomic_pageblock(struct pglist_data *pgdat, int migratetype,
                                    enum zone_type highest_zoneidx, bool force);
bool boost_watermark(struct zone *zone);

#endif
