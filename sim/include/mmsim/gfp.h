/* gfp.h - GFP flags as Linux v6.2 defines them (include/linux/gfp_types.h).
 *
 * The bit values are the kernel's, so a developer can read a gfp mask from a
 * trace and feed it to the model unchanged.  Only the composites the model's
 * callers use are spelled out; any other combination of the bits works.
 */
#ifndef MMSIM_GFP_H
#define MMSIM_GFP_H

#include <stdint.h>
#include "mmsim/mmzone.h"

typedef uint32_t gfp_t;

#define __GFP_DMA            0x01u
#define __GFP_HIGHMEM        0x02u
#define __GFP_DMA32          0x04u
#define __GFP_MOVABLE        0x08u
#define __GFP_RECLAIMABLE    0x10u
#define __GFP_HIGH           0x20u
#define __GFP_IO             0x40u
#define __GFP_FS             0x80u
#define __GFP_ZERO           0x100u
#define __GFP_ATOMIC         0x200u
#define __GFP_DIRECT_RECLAIM 0x400u
#define __GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_WRITE          0x1000u
#define __GFP_NOWARN         0x2000u
#define __GFP_RETRY_MAYFAIL  0x4000u
#define __GFP_NOFAIL         0x8000u
#define __GFP_NORETRY        0x10000u
#define __GFP_MEMALLOC       0x20000u
#define __GFP_COMP           0x40000u
#define __GFP_NOMEMALLOC     0x80000u
#define __GFP_HARDWALL       0x100000u
#define __GFP_THISNODE       0x200000u
#define __GFP_ACCOUNT        0x400000u

#define __GFP_RECLAIM        (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ZONEMASK         (__GFP_DMA | __GFP_HIGHMEM | __GFP_DMA32 | __GFP_MOVABLE)
#define GFP_MOVABLE_MASK     (__GFP_RECLAIMABLE | __GFP_MOVABLE)
#define GFP_MOVABLE_SHIFT    3

#define GFP_ATOMIC           (__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL           (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT   (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT           (__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO             (__GFP_RECLAIM)
#define GFP_NOFS             (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER             (__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA              __GFP_DMA
#define GFP_DMA32            __GFP_DMA32
#define GFP_HIGHUSER         (GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE (GFP_HIGHUSER | __GFP_MOVABLE)
#define GFP_TRANSHUGE_LIGHT  ((GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOMEMALLOC | \
                               __GFP_NOWARN) & ~__GFP_RECLAIM)
#define GFP_TRANSHUGE        (GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

/* gfp_migratetype(): the two mobility bits are the migratetype (v6.2) */
static inline int gfp_migratetype(gfp_t gfp)
{
	return (int)((gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT);
}

/* gfp_zone() on x86-64 (no highmem): the highest zone a request may use. */
static inline int gfp_zone(gfp_t gfp)
{
	/* x86-64 has no highmem: __GFP_HIGHMEM alone means ZONE_NORMAL, and
	 * with __GFP_MOVABLE it means ZONE_MOVABLE (the GFP_ZONE_TABLE of
	 * v6.2).  Inline: every allocation asks. */
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32;
	if ((gfp & (__GFP_HIGHMEM | __GFP_MOVABLE)) == (__GFP_HIGHMEM | __GFP_MOVABLE))
		return ZONE_MOVABLE;
	return ZONE_NORMAL;
}

/* The class of a request a tracepoint prints the flags of (enum
 * trace_gfp_class): the same test import_real.c makes on the names. */
static inline int gfp_trace_class(gfp_t gfp)
{
	if (gfp & __GFP_WRITE)
		return TRACE_GFP_WRITE;
	if ((gfp & GFP_TRANSHUGE_LIGHT) == GFP_TRANSHUGE_LIGHT)
		return TRACE_GFP_THP;
	if ((gfp & (__GFP_MOVABLE | __GFP_NORETRY)) == (__GFP_MOVABLE | __GFP_NORETRY))
		return TRACE_GFP_READAHEAD;
	return TRACE_GFP_OTHER;
}

/* count_trace_event() of a tracepoint that prints gfp_flags */
static inline void count_trace_event_gfp(struct pglist_data *pgdat, enum mm_trace_event ev, int order,
                                         gfp_t gfp)
{
	count_trace_event(pgdat, ev, order);
	if (order > 0 && order < MAX_ORDER)
		pgdat->trace_gfp[ev][gfp_trace_class(gfp)]++;
}

#endif
