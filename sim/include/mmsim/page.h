/* page.h - the per-page state array (the model's memmap).
 *
 * struct page is 32 bytes, half of the kernel's, and is the only per-page
 * state the model keeps.  Layout (fields reused by state, as the kernel's
 * unions do):
 *
 *   offset size field     free (buddy)        on a pcp list      allocated
 *   0      4    flags     PG_buddy|order|zone PG_pcp|order|zone  PG_* state|order|zone
 *   4      4    private   list migratetype    pcp migratetype    swap entry / slab objects
 *   8      4    next      free list link      PFN_NONE           LRU link; tail: head pfn
 *   12     4    prev      free list link      PFN_NONE           LRU link
 *   16     4    mapping   -                   -                  owner: mm, inode or cache id
 *   20     4    index     -                   -                  offset in the owner
 *   24     4    refcount  0                   0                  references (>= 1 on a head)
 *   28     1    owner     PGOWN_NONE          PGOWN_NONE         enum page_owner_kind
 *   29     1    aux       -                   -                  reserved (memcg/age later)
 *   30     2    mapcount  -                   -                  ptes mapping it (page_mapcount)
 *
 * flags: bits 0-19 PG_* flags, bits 20-23 order (buddy order, pcp order or
 * the order an allocation was made at, on its head page), bits 24-26 zone.
 * Page frame numbers are 32-bit: 16 TiB of 4 KiB pages, enough for any
 * machine a single simulation models.  List links are pfns; the list heads
 * are sentinel entries stored past the last real pfn (see mm_init.c), so a
 * page can be unlinked in O(1) without knowing which list it is on.  The
 * per-cpu lists are the exception: only their ends change, so they are
 * rings of pfns (struct pcp_list, mmzone.h) and their pages keep no links.
 */
#ifndef MMSIM_PAGE_H
#define MMSIM_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#define PAGE_SHIFT        12
#define PAGE_SIZE         (1u << PAGE_SHIFT)
#define MAX_ORDER         11                 /* v6.2: orders 0..MAX_ORDER-1 */
#define MAX_ORDER_NR_PAGES (1ul << (MAX_ORDER - 1))  /* pages of a largest buddy */
#define pageblock_order   9
#define pageblock_nr_pages (1u << pageblock_order)
#define PAGE_ALLOC_COSTLY_ORDER 3
#define PFN_NONE          UINT32_MAX

enum pageflags {
	PG_buddy,       /* head of a free buddy on a free list (PageBuddy) */
	PG_pcp,         /* on a per-cpu list (the kernel knows it from page->pcp_list) */
	PG_reserved,    /* never given to the allocator: holes, firmware, kernel image */
	PG_head,        /* head of a compound allocation (__GFP_COMP) */
	PG_tail,        /* tail page; next holds the head's pfn */
	PG_lru,         /* on an LRU list */
	PG_active,
	PG_referenced,
	PG_dirty,
	PG_writeback,
	PG_swapbacked,
	PG_unevictable,
	PG_mlocked,
	PG_slab,
	PG_movable,     /* non-LRU movable (__PageMovable: zsmalloc, balloon) */
	PG_isolated,    /* isolated for migration or reclaim */
	PG_pinned,      /* long-term pinned: not migratable */
	PG_young,       /* the accessed bit of the pte mapping it (folio_referenced) */
	PG_workingset,  /* was active before deactivation (refault restore) */
	PG_reclaim,     /* dirty page reclaim met once: write it when met again */
	NR_PAGEFLAGS
};

#define PAGE_ORDER_SHIFT 20
#define PAGE_ORDER_MASK  (0xfu << PAGE_ORDER_SHIFT)
#define PAGE_ZONE_SHIFT  24
#define PAGE_ZONE_MASK   (0x7u << PAGE_ZONE_SHIFT)

/* What a page holds: the census of mixed pageblocks needs it, and
 * compaction and reclaim decide from it what can move or be freed. */
enum page_owner_kind {
	PGOWN_NONE,            /* free, or allocated by a caller that did not say */
	PGOWN_ANON,            /* anonymous memory (LRU) */
	PGOWN_FILE,            /* page cache of a regular file (LRU) */
	PGOWN_BDEV,            /* block-device page cache: fs metadata (LRU) */
	PGOWN_SHMEM,           /* a shmem file's page: a GPU buffer object's (i915_gem.h; LRU) */
	PGOWN_SLAB_RECLAIMABLE,
	PGOWN_SLAB_UNRECLAIMABLE,
	PGOWN_PAGETABLE,
	PGOWN_KSTACK,
	PGOWN_KMEM,            /* other kernel allocations (kmalloc_large, vmalloc backing) */
	PGOWN_HUGETLB,         /* a page of the persistent huge page pool (hugetlb.h) */
	NR_PGOWN
};

struct page {
	uint32_t flags;
	uint32_t private;
	uint32_t next;
	uint32_t prev;
	uint32_t mapping;
	uint32_t index;
	uint32_t refcount;
	uint8_t  owner;
	uint8_t  aux;
	uint16_t mapcount;              /* a shared library's pages: one per process mapping it */
};

_Static_assert(sizeof(struct page) == 32, "struct page must stay at 32 bytes");

static inline bool PageTest(const struct page *p, enum pageflags f)
{
	return (p->flags >> f) & 1u;
}
static inline void SetPageFlag(struct page *p, enum pageflags f)   { p->flags |= 1u << f; }
static inline void ClearPageFlag(struct page *p, enum pageflags f) { p->flags &= ~(1u << f); }

static inline bool PageBuddy(const struct page *p)    { return PageTest(p, PG_buddy); }
static inline bool PagePcp(const struct page *p)      { return PageTest(p, PG_pcp); }
static inline bool PageReserved(const struct page *p) { return PageTest(p, PG_reserved); }
static inline bool PageLRU(const struct page *p)      { return PageTest(p, PG_lru); }
static inline bool PageSlab(const struct page *p)     { return PageTest(p, PG_slab); }
static inline bool PageTail(const struct page *p)     { return PageTest(p, PG_tail); }
static inline bool PageHead(const struct page *p)     { return PageTest(p, PG_head); }
static inline bool __PageMovable(const struct page *p){ return PageTest(p, PG_movable); }

static inline unsigned page_order(const struct page *p)
{
	return (p->flags & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT;
}
static inline void set_page_order(struct page *p, unsigned order)
{
	p->flags = (p->flags & ~PAGE_ORDER_MASK) | (order << PAGE_ORDER_SHIFT);
}
static inline unsigned page_zonenum(const struct page *p)
{
	return (p->flags & PAGE_ZONE_MASK) >> PAGE_ZONE_SHIFT;
}

const char *page_owner_name(enum page_owner_kind k);

#endif
