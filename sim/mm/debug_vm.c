/* debug_vm.c - the model's CONFIG_DEBUG_VM: BUG(), dump_page() and a
 * whole-state invariant checker.
 *
 * check_pgdat() walks every populated zone of the node and enforces the
 * rules below.  The kernel checks pieces of them on the fly (VM_BUG_ON_PAGE
 * in __free_one_page, check_new_pages, __isolate_free_page ...); the model
 * can afford to check all of them at once in test and debug runs.  The walk
 * is linear in the number of pages: two bitmaps over the pfns, one pass over
 * the free lists, one over the pcp lists and one over the zone's pfns.
 *
 *  (a) Free lists.  Every entry of free_area[order].free_list[mt] is a real
 *      pfn in the zone (not a sentinel), PageBuddy, page_order() == order,
 *      aligned to 1 << order, private == mt (the list it is on), in the
 *      zone's memmap, and whole: [pfn, pfn + 2^order) lies in the zone.  The
 *      prev links mirror the next links, and a buddy is on one list only.
 *      Entries per order == free_area[order].nr_free.  Pages per
 *      migratetype == NR_FREE_<TYPE> (RFC 12/26; MIGRATE_ISOLATE has no
 *      counter) and their sum == NR_FREE_PAGES (isolated pages are not free
 *      pages, RFC 06/26).  Under 6.10's freelist hygiene
 *      (MMF_FREELIST_HYGIENE) every block a free buddy covers has the type
 *      of the list it is on, unless the block is MIGRATE_ISOLATE, whose
 *      free pages the kernel moves after it sets the type; other
 *      policies' buddies on another type's list are only counted
 *      (freelist_type_mismatches()).
 *  (b) Pages.  A PageBuddy page is on a free list.  The pages of a free
 *      buddy are not PG_reserved; those after the head have no PG_buddy or
 *      PG_pcp and a zero refcount.  No page is both PG_buddy and PG_pcp, or
 *      PG_buddy with references.  Pages that belong to the allocator carry
 *      the zone's number (page_zone() of a freed page finds its zone).
 *  (c) Merging.  A free buddy of order o < MAX_ORDER-1 whose buddy is free
 *      with the same order was merged by __free_one_page(), unless v6.2's
 *      rule kept them apart: o >= pageblock_order and the two blocks have
 *      different migratetypes, one of which is not mergeable
 *      (migratetype_is_mergeable(): HIGHATOMIC, ISOLATE); the type a page
 *      was freed as may also be its stale pcp type (see check_merged()).
 *      With a highatomic reserve, pairs at pageblock order and above are
 *      not checked: unreserving a block leaves them apart in v6.2 too.
 *  (d) Per-cpu lists.  Entries of per_cpu_pageset[cpu].lists[i] are PG_pcp,
 *      not PG_buddy, in the zone, aligned, of the order the list holds
 *      (i / MIGRATE_PCPTYPES, or pageblock_order for the THP list), with a
 *      zero refcount (page.h), on one list only, with no list links
 *      (next = prev = PFN_NONE: the ring holds them); their pages sum to
 *      pcp->count; a ring's length is within its capacity.  A PG_pcp
 *      page that is on no pcp list is a leak.
 *  (e) Pageblocks.  Every block's migratetype < MIGRATE_TYPES.  A
 *      MIGRATE_FREE block holds free buddy pages only (its PG_reserved
 *      pages excepted: RFC 11/26 types every block FREE at boot, also the
 *      ones that hold the kernel image or a hole).  nr_reserved_highatomic
 *      == pageblock_nr_pages * the zone's MIGRATE_HIGHATOMIC blocks.
 *  (f) Reverse maps.  Every page on an LRU list is PG_lru, not isolated,
 *      and is what its owner's entry points at: an anonymous page the pte
 *      of its process at its index (a THP: every pte of its pmd, in
 *      order), or, unmapped, the swap slot it caches; a page cache page
 *      the i_pages slot of its inode.  Migration and reclaim rewrite these
 *      entries; a stale one is a use-after-free in the making.  A large
 *      page-cache folio ([kernel] large_folios) is a regular file's, of
 *      order 1..9, aligned in the file and inside it, unmapped and clean;
 *      each tail is PG_tail, points at the head, is on no list, carries
 *      the file and its index, and its slot points at it; each inode's
 *      count of large folios is the number of its heads on the lists.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

/* Violations printed in full; the rest are only counted. */
#define CHECK_PRINT_MAX 10

/* The five per-migratetype free counters follow the migratetypes. */
_Static_assert(NR_FREE_FREE - NR_FREE_UNMOVABLE == MIGRATE_FREE - MIGRATE_UNMOVABLE,
               "NR_FREE_<type> must follow enum migratetype up to MIGRATE_FREE");
_Static_assert(MIGRATE_ISOLATE == MIGRATE_FREE + 1 && MIGRATE_TYPES == MIGRATE_ISOLATE + 1,
               "MIGRATE_ISOLATE is the last migratetype and has no free counter");

void mm_bug(const char *file, int line, const char *cond)
{
	fflush(stdout);
	fprintf(stderr, "mmsim: BUG at %s:%d: %s\n", file, line, cond);
	fflush(stderr);
	abort();
}

/* ------------------------------------------------------------------ */
/* dump_page                                                           */

static const char *const pageflag_names[] = {
	[PG_buddy] = "buddy",
	[PG_pcp] = "pcp",
	[PG_reserved] = "reserved",
	[PG_head] = "head",
	[PG_tail] = "tail",
	[PG_lru] = "lru",
	[PG_active] = "active",
	[PG_referenced] = "referenced",
	[PG_dirty] = "dirty",
	[PG_writeback] = "writeback",
	[PG_swapbacked] = "swapbacked",
	[PG_unevictable] = "unevictable",
	[PG_mlocked] = "mlocked",
	[PG_slab] = "slab",
	[PG_movable] = "movable",
	[PG_isolated] = "isolated",
	[PG_pinned] = "pinned",
	[PG_young] = "young",
	[PG_workingset] = "workingset",
	[PG_reclaim] = "reclaim",
};
_Static_assert(sizeof(pageflag_names) / sizeof(pageflag_names[0]) == NR_PAGEFLAGS,
               "every PG_ flag needs a name in pageflag_names[]");

static const char *migratetype_name(int mt)
{
	return mt >= 0 && mt < MIGRATE_TYPES ? migratetype_names[mt] : "?";
}

static const char *zone_name_of(unsigned zonenum)
{
	return zonenum < MAX_NR_ZONES ? zone_names[zonenum] : "?";
}

/* "buddy|reserved", as %pGp prints page flags */
static void print_pageflags(FILE *f, uint32_t flags)
{
	bool first = true;

	for (int i = 0; i < NR_PAGEFLAGS; i++) {
		if (!(flags & (1u << i)))
			continue;
		fprintf(f, "%s%s", first ? "" : "|", pageflag_names[i]);
		first = false;
	}
}

/* __dump_page(), in the model's fields */
void dump_page(const struct pglist_data *pgdat, unsigned long pfn, const char *reason)
{
	const struct page *p;

	if (pfn >= pgdat->node_spanned_pages) {
		fprintf(stderr, "page: pfn:%#lx beyond the node's %lu pages (a list sentinel?)\n",
		        pfn, pgdat->node_spanned_pages);
		if (reason)
			fprintf(stderr, "page dumped because: %s\n", reason);
		return;
	}
	p = pfn_to_page(pgdat, pfn);
	fprintf(stderr, "page: pfn:%#lx refcount:%" PRIu32 " mapcount:%u mapping:%#" PRIx32
	        " index:%#" PRIx32 "\n",
	        pfn, p->refcount, (unsigned)p->mapcount, p->mapping, p->index);
	fprintf(stderr, "order:%u zone:%s private:%#" PRIx32 " next:%#" PRIx32
	        " prev:%#" PRIx32 " owner:%s\n",
	        page_order(p), zone_name_of(page_zonenum(p)), p->private, p->next, p->prev,
	        page_owner_name((enum page_owner_kind)p->owner));
	fprintf(stderr, "flags: %#" PRIx32 "(", p->flags);
	print_pageflags(stderr, p->flags & ((1u << NR_PAGEFLAGS) - 1));
	fprintf(stderr, ")\n");
	fprintf(stderr, "pageblock: pfn:%#lx migratetype:%s skip:%d\n",
	        pageblock_start_pfn(pfn),
	        migratetype_name(get_pageblock_migratetype(pgdat, pfn)),
	        get_pageblock_skip(pgdat, pfn) ? 1 : 0);
	if (reason)
		fprintf(stderr, "page dumped because: %s\n", reason);
}

/* ------------------------------------------------------------------ */
/* check_pgdat                                                         */

struct vm_checker {
	const struct pglist_data *pgdat;
	const char *what;
	unsigned long violations;
	uint64_t *on_free_list;         /* pfn is the head of a buddy on a free list */
	uint64_t *on_pcp_list;          /* pfn is on a per-cpu list */
	bool hygiene;                   /* MMF_FREELIST_HYGIENE: (a)'s type rule holds */
};

static bool test_bit_pfn(const uint64_t *map, unsigned long pfn)
{
	return (map[pfn / 64] >> (pfn % 64)) & 1u;
}

static void set_bit_pfn(uint64_t *map, unsigned long pfn)
{
	map[pfn / 64] |= (uint64_t)1 << (pfn % 64);
}

/* No pfn: the violation concerns a zone or a counter, not a page. */
#define NO_PFN ULONG_MAX

/*
 * Count a violation; print the first CHECK_PRINT_MAX of them with the state
 * of the page involved.
 */
__attribute__((format(printf, 4, 5)))
static void violation(struct vm_checker *c, const struct zone *z, unsigned long pfn,
                      const char *fmt, ...)
{
	va_list ap;

	if (++c->violations > CHECK_PRINT_MAX)
		return;
	if (z)
		fprintf(stderr, "%s: zone %s: ", c->what, zone_name_of((unsigned)(z - c->pgdat->node_zones)));
	else
		fprintf(stderr, "%s: ", c->what);
	if (pfn != NO_PFN)
		fprintf(stderr, "pfn %#lx: ", pfn);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (pfn != NO_PFN && pfn < c->pgdat->node_spanned_pages) {
		const struct page *p = pfn_to_page(c->pgdat, pfn);

		fprintf(stderr, " [flags ");
		if (p->flags & ((1u << NR_PAGEFLAGS) - 1))
			print_pageflags(stderr, p->flags & ((1u << NR_PAGEFLAGS) - 1));
		else
			fputs("none", stderr);
		fprintf(stderr, " order %u zone %u private %" PRIu32 " refcount %" PRIu32
		        " block %s]", page_order(p), page_zonenum(p), p->private, p->refcount,
		        migratetype_name(get_pageblock_migratetype(c->pgdat, pfn)));
	}
	fputc('\n', stderr);
}

/* (a) under 6.10's hygiene: the first block of [pfn, pfn + 2^order) whose
 * type is not mt, the list the buddy is on; -1 if there is none.  An
 * isolated block is not held to it (the kernel sets MIGRATE_ISOLATE
 * before it moves the block's free pages). */
static long buddy_block_type_mismatch(const struct pglist_data *pgdat, unsigned long pfn,
                                      unsigned order, int mt)
{
	const unsigned long end = pfn + (1ul << order);

	if (is_migrate_isolate(mt))
		return -1;
	for (unsigned long b = pfn; b < end; b = pageblock_start_pfn(b) + pageblock_nr_pages) {
		int bmt = get_pageblock_migratetype(pgdat, b);
		if (bmt != mt && !is_migrate_isolate(bmt))
			return (long)b;
	}
	return -1;
}

/* (a): one free list.  Returns the number of entries that were walked. */
static unsigned long check_free_list(struct vm_checker *c, const struct zone *z,
                                     unsigned order, int mt, unsigned long *pages)
{
	const struct pglist_data *pgdat = c->pgdat;
	const struct page *m = pgdat->mem_map;
	const unsigned long nr_pages = 1ul << order;
	uint32_t head = z->free_area[order].free_list[mt];
	uint32_t prev = head, e;
	unsigned long n = 0;

	if (head < pgdat->node_spanned_pages) {
		violation(c, z, NO_PFN, "free_list[order %u][%s] head %#" PRIx32
		          " is a real pfn, not a sentinel", order, migratetype_name(mt), head);
		return 0;
	}
	for (e = m[head].next; e != head; prev = e, e = m[e].next) {
		const struct page *p;

		/* A link that leaves the memmap, or reaches a sentinel that is
		 * not this list's head, cannot be followed safely: stop. */
		if (e >= pgdat->node_spanned_pages) {
			violation(c, z, prev, "free_list[order %u][%s]: next %#" PRIx32
			          " is neither a pfn nor this list's head", order,
			          migratetype_name(mt), e);
			return n;
		}
		/* A buddy seen before is on two lists, or this list loops. */
		if (test_bit_pfn(c->on_free_list, e)) {
			violation(c, z, e, "free_list[order %u][%s]: buddy already on a free list",
			          order, migratetype_name(mt));
			return n;
		}
		set_bit_pfn(c->on_free_list, e);
		n++;
		*pages += nr_pages;

		p = &m[e];
		if (p->prev != prev)
			violation(c, z, e, "free_list[order %u][%s]: prev %#" PRIx32
			          " but reached from %#" PRIx32, order, migratetype_name(mt),
			          p->prev, prev);
		if (!zone_spans_pfn(z, e) || e + nr_pages > zone_end_pfn(z))
			violation(c, z, e, "free_list[order %u][%s]: buddy not inside the zone",
			          order, migratetype_name(mt));
		if (!PageBuddy(p))
			violation(c, z, e, "free_list[order %u][%s]: not PageBuddy",
			          order, migratetype_name(mt));
		if (page_order(p) != order)
			violation(c, z, e, "free_list[order %u][%s]: page_order %u",
			          order, migratetype_name(mt), page_order(p));
		if (e & (nr_pages - 1))
			violation(c, z, e, "free_list[order %u][%s]: not aligned to its order",
			          order, migratetype_name(mt));
		if (p->private != (uint32_t)mt)
			violation(c, z, e, "free_list[order %u][%s]: private %" PRIu32
			          " is not the list's migratetype", order, migratetype_name(mt),
			          p->private);
		if (c->hygiene && e + nr_pages <= pgdat->node_spanned_pages) {
			long b = buddy_block_type_mismatch(pgdat, e, order, mt);
			if (b >= 0)
				violation(c, z, e, "free_list[order %u][%s]: covers block %#lx of type %s "
				          "(6.10's freelist hygiene: a free page is on its block's type's list)",
				          order, migratetype_name(mt), pageblock_start_pfn((unsigned long)b),
				          migratetype_name(get_pageblock_migratetype(pgdat, (unsigned long)b)));
		}
	}
	if (m[head].prev != prev)
		violation(c, z, NO_PFN, "free_list[order %u][%s]: head's prev %#" PRIx32
		          ", last entry %#" PRIx32, order, migratetype_name(mt), m[head].prev, prev);
	return n;
}

/* (a): all free lists of a zone, against nr_free and the counters */
static void check_free_area(struct vm_checker *c, const struct zone *z)
{
	unsigned long mt_pages[MIGRATE_TYPES] = { 0 };
	unsigned long free_pages = 0;

	for (unsigned order = 0; order < MAX_ORDER; order++) {
		unsigned long entries = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			entries += check_free_list(c, z, order, mt, &mt_pages[mt]);
		if (entries != z->free_area[order].nr_free)
			violation(c, z, NO_PFN, "order %u: %lu buddies on the lists, nr_free %lu",
			          order, entries, z->free_area[order].nr_free);
		/* TAO: ZONE_NOMERGE merges no free page above its order
		 * (zone_max_order()) */
		if (order > z->max_order && entries)
			violation(c, z, NO_PFN, "order %u: %lu free buddies above the zone's last order %u",
			          order, entries, z->max_order);
	}
	/* TAO's zone orders: only the policy zones have one, ZONE_NOMERGE's
	 * is its merge limit, and each is the kernel's zone_*_order */
	{
		const struct pglist_data *pgdat = c->pgdat;
		unsigned want = z->idx == ZONE_NOSPLIT ? pgdat->zone_nosplit_order :
		                z->idx == ZONE_NOMERGE ? pgdat->zone_nomerge_order : 0;
		unsigned want_max = z->idx == ZONE_NOMERGE && z->order ? z->order : MAX_ORDER - 1;

		if (z->order != want || z->max_order != want_max)
			violation(c, z, NO_PFN, "zone order %u (want %u), max_order %u (want %u)",
			          z->order, want, z->max_order, want_max);
		if (z->idx > ZONE_MOVABLE && z->idx >= (enum zone_type)pgdat->kernel_nr_zones)
			violation(c, z, NO_PFN, "populated policy zone in a kernel of %u zones",
			          pgdat->kernel_nr_zones);
	}
	for (int mt = MIGRATE_UNMOVABLE; mt <= MIGRATE_FREE; mt++) {
		enum zone_stat_item item = (enum zone_stat_item)(NR_FREE_UNMOVABLE + mt);

		if ((long)mt_pages[mt] != z->vm_stat[item])
			violation(c, z, NO_PFN, "%lu pages on the %s lists, %s %ld",
			          mt_pages[mt], migratetype_name(mt), zone_stat_names[item],
			          z->vm_stat[item]);
		free_pages += mt_pages[mt];
	}
	if ((long)free_pages != z->vm_stat[NR_FREE_PAGES])
		violation(c, z, NO_PFN, "%lu pages on the free lists (%lu more isolated), "
		          "nr_free_pages %ld", free_pages, mt_pages[MIGRATE_ISOLATE],
		          z->vm_stat[NR_FREE_PAGES]);
}

/* (d): the order a pcp list holds (order_to_pindex() inverted) */
static unsigned pcp_list_order(int pindex)
{
	return pindex == NR_LOWORDER_PCP_LISTS ? pageblock_order
	                                       : (unsigned)pindex / MIGRATE_PCPTYPES;
}

/* (d): every per-cpu list of a zone */
static void check_pcp_lists(struct vm_checker *c, const struct zone *z)
{
	const struct pglist_data *pgdat = c->pgdat;
	const struct page *m = pgdat->mem_map;

	if (!z->per_cpu_pageset) {
		violation(c, z, NO_PFN, "populated zone without per-cpu lists");
		return;
	}
	for (unsigned cpu = 0; cpu < pgdat->nr_cpus; cpu++) {
		const struct per_cpu_pages *pcp = &z->per_cpu_pageset[cpu];
		long pages = 0;

		for (int i = 0; i < NR_PCP_LISTS; i++) {
			const unsigned order = pcp_list_order(i);
			const unsigned long nr_pages = 1ul << order;
			const struct pcp_list *l = &pcp->lists[i];

			if (!l->pfns || ((l->mask + 1) & l->mask) || l->len > l->mask + 1) {
				violation(c, z, NO_PFN, "cpu %u pcp list %d: ring of %" PRIu32
				          " entries, capacity %" PRIu32 " (not a power of two?)",
				          cpu, i, l->len, l->mask + 1);
				continue;
			}
			for (uint32_t k = 0; k < l->len; k++) {
				const uint32_t e = pcp_list_at(l, k);
				const struct page *p;

				if (e >= pgdat->node_spanned_pages) {
					violation(c, z, NO_PFN, "cpu %u pcp list %d: entry %" PRIu32
					          " is %#" PRIx32 ", not a pfn", cpu, i, k, e);
					break;
				}
				if (test_bit_pfn(c->on_pcp_list, e)) {
					violation(c, z, e, "cpu %u pcp list %d: page already on a pcp list",
					          cpu, i);
					break;
				}
				set_bit_pfn(c->on_pcp_list, e);
				pages += (long)nr_pages;

				p = &m[e];
				if (p->next != PFN_NONE || p->prev != PFN_NONE)
					violation(c, z, e, "cpu %u pcp list %d: list links %#" PRIx32
					          " %#" PRIx32 " on a page the ring holds", cpu, i,
					          p->next, p->prev);
				if (!zone_spans_pfn(z, e) || e + nr_pages > zone_end_pfn(z))
					violation(c, z, e, "cpu %u pcp list %d: page not inside the zone",
					          cpu, i);
				if (!PagePcp(p))
					violation(c, z, e, "cpu %u pcp list %d: not PG_pcp", cpu, i);
				if (PageBuddy(p))
					violation(c, z, e, "cpu %u pcp list %d: PG_buddy", cpu, i);
				if (page_order(p) != order)
					violation(c, z, e, "cpu %u pcp list %d: page_order %u, list order %u",
					          cpu, i, page_order(p), order);
				if (e & (nr_pages - 1))
					violation(c, z, e, "cpu %u pcp list %d: not aligned to its order",
					          cpu, i);
				if (p->refcount)
					violation(c, z, e, "cpu %u pcp list %d: refcount %" PRIu32,
					          cpu, i, p->refcount);
				if (p->private >= MIGRATE_TYPES)
					violation(c, z, e, "cpu %u pcp list %d: migratetype %" PRIu32,
					          cpu, i, p->private);
			}
		}
		if (pages != pcp->count)
			violation(c, z, NO_PFN, "cpu %u: %ld pages on the pcp lists, count %d",
			          cpu, pages, pcp->count);
	}
}

/* __free_one_page()'s test at order >= pageblock_order: may a buddy freed
 * as mt merge with a free buddy in a block of buddy_mt? */
static bool may_merge(int mt, int buddy_mt)
{
	return mt == buddy_mt || (migratetype_is_mergeable(mt) && migratetype_is_mergeable(buddy_mt));
}

/*
 * (c): was this free buddy merged as far as __free_one_page() merges?  Only
 * the lower of the two buddies reports a pair, so it is reported once.
 *
 * At order >= pageblock_order __free_one_page() compares the type the page
 * was freed as with the buddy's block type.  The type a page is freed as is
 * its block's type, or the type cached when it went to a pcp list
 * (get_pcppage_migratetype), which may be stale: a page freed while its
 * block was HIGHATOMIC comes back as HIGHATOMIC after the block was
 * unreserved.  That type is the list the merged buddy went to, i.e. its
 * private.  The pair is accepted if either buddy, freed last as its block
 * type or its list type, would have been refused.
 *
 * v6.2 also leaves a pair unmerged that a HIGHATOMIC block kept apart and
 * unreserve_highatomic_pageblock() has since retyped (move_freepages_block()
 * moves free pages without merging them); nothing in the state records it.
 * So with a highatomic reserve in the policy, pairs at pageblock order and
 * above are not checked; below pageblock order merging ignores types and
 * the rule is strict for every policy.
 */
static void check_merged(struct vm_checker *c, const struct zone *z, unsigned long pfn,
                         unsigned order)
{
	const struct pglist_data *pgdat = c->pgdat;
	const struct page *p = pfn_to_page(pgdat, pfn), *b;
	unsigned long buddy;
	int mt, buddy_mt;

	if (order >= MAX_ORDER - 1)
		return;
	buddy = pfn ^ (1ul << order);
	if (buddy < pfn || !zone_spans_pfn(z, buddy) || buddy >= pgdat->node_spanned_pages)
		return;
	b = pfn_to_page(pgdat, buddy);
	if (!PageBuddy(b) || page_order(b) != order || !test_bit_pfn(c->on_free_list, buddy))
		return;
	if (page_zonenum(b) != page_zonenum(p))
		return;                 /* page_is_buddy(): zones differ */

	if (order >= pageblock_order && pgdat->policy->ops.unreserve_highatomic_pageblock)
		return;                 /* see above: unreserve leaves such pairs */
	mt = get_pageblock_migratetype(pgdat, pfn);
	buddy_mt = get_pageblock_migratetype(pgdat, buddy);
	if (order >= pageblock_order &&
	    (!may_merge(mt, buddy_mt) ||
	     !may_merge((int)p->private, buddy_mt) ||
	     !may_merge((int)b->private, mt)))
		return;                 /* kept apart on purpose (v6.2 __free_one_page) */
	violation(c, z, pfn, "free buddy of order %u not merged with its free buddy %#lx "
	          "(blocks %s, %s)", order, buddy, migratetype_name(mt),
	          migratetype_name(buddy_mt));
}

/*
 * (b), (c) and (e): one pass over the zone's pfns, pageblock by pageblock.
 * A pageblock belongs to the zone that holds its first in-zone pfn, as in
 * /proc/pagetypeinfo.
 */
static void check_zone_pages(struct vm_checker *c, const struct zone *z)
{
	const struct pglist_data *pgdat = c->pgdat;
	const unsigned long start = z->zone_start_pfn, end = zone_end_pfn(z);
	const unsigned zonenum = (unsigned)(z - pgdat->node_zones);
	unsigned long buddy_end = 0;    /* end of the free buddy the walk is in */
	unsigned long buddy_head = 0;
	unsigned long pcp_end = 0;      /* end of the pcp page the walk is in */
	unsigned long nr_highatomic = 0;

	if (end > pgdat->node_spanned_pages) {
		violation(c, z, NO_PFN, "zone ends at %#lx, beyond the node's memmap (%#lx)",
		          end, pgdat->node_spanned_pages);
		return;
	}
	for (unsigned long block = pageblock_start_pfn(start); block < end;
	     block += pageblock_nr_pages) {
		const unsigned long lo = block < start ? start : block;
		const unsigned long hi = block + pageblock_nr_pages < end ?
		                         block + pageblock_nr_pages : end;
		const int block_mt = get_pageblock_migratetype(pgdat, lo);
		bool all_free = true;

		if (block_mt >= MIGRATE_TYPES)
			violation(c, z, lo, "pageblock migratetype %d out of range", block_mt);
		if (block_mt == MIGRATE_HIGHATOMIC)
			nr_highatomic++;

		for (unsigned long pfn = lo; pfn < hi; pfn++) {
			const struct page *p = pfn_to_page(pgdat, pfn);
			const bool buddy = PageBuddy(p), pcp = PagePcp(p);

			if (buddy && pcp)
				violation(c, z, pfn, "both PG_buddy and PG_pcp");
			if (buddy && p->refcount)
				violation(c, z, pfn, "PG_buddy with refcount %" PRIu32, p->refcount);
			if (pcp && !test_bit_pfn(c->on_pcp_list, pfn))
				violation(c, z, pfn, "PG_pcp but on no per-cpu list");
			if (!PageReserved(p) && page_zonenum(p) != zonenum)
				violation(c, z, pfn, "zone number %u in the page flags",
				          page_zonenum(p));
			if (pgdat->buddy_tag[pfn] != (buddy ? buddy_tag(page_order(p), page_zonenum(p)) : 0))
				violation(c, z, pfn, "buddy tag %#x does not match the page flags",
				          pgdat->buddy_tag[pfn]);

			if (buddy) {
				if (!test_bit_pfn(c->on_free_list, pfn))
					violation(c, z, pfn, "PageBuddy but on no free list");
				else if (pfn < buddy_end)
					violation(c, z, pfn, "PageBuddy inside the free buddy at %#lx",
					          buddy_head);
				else {
					buddy_head = pfn;
					buddy_end = pfn + (1ul << page_order(p));
					check_merged(c, z, pfn, page_order(p));
				}
			} else if (pfn < buddy_end) {
				if (pcp)
					violation(c, z, pfn, "PG_pcp inside the free buddy at %#lx",
					          buddy_head);
				if (p->refcount)
					violation(c, z, pfn, "refcount %" PRIu32
					          " inside the free buddy at %#lx", p->refcount, buddy_head);
			}
			if (pfn < buddy_end && PageReserved(p))
				violation(c, z, pfn, "PG_reserved in the free buddy at %#lx", buddy_head);

			if (pcp && test_bit_pfn(c->on_pcp_list, pfn)) {
				if (pfn < pcp_end)
					violation(c, z, pfn, "pcp page inside another pcp page");
				else
					pcp_end = pfn + (1ul << page_order(p));
			} else if (pfn < pcp_end && buddy) {
				violation(c, z, pfn, "PageBuddy inside a page on a pcp list");
			}

			if (pfn >= buddy_end && !PageReserved(p))
				all_free = false;
		}
		if (block_mt == MIGRATE_FREE && !all_free)
			violation(c, z, lo, "MIGRATE_FREE pageblock holds pages that are not free");
	}
	if (z->nr_reserved_highatomic != nr_highatomic * pageblock_nr_pages)
		violation(c, z, NO_PFN, "nr_reserved_highatomic %lu, %lu MIGRATE_HIGHATOMIC blocks",
		          z->nr_reserved_highatomic, nr_highatomic);
}

static void check_lru_lists(struct vm_checker *c);

/* Each process's count of present ptes per pmd (mm->pmd_present, which
 * mm_access trusts to skip reading a fully mapped pmd's ptes) is the
 * count of its present ptes, and each pte's bit in mm->present (which
 * mm_access reads instead of the ptes) says whether it is present. */
static void check_pmd_present(struct vm_checker *c)
{
	const struct pglist_data *pgdat = c->pgdat;

	for (uint32_t id = 0; id < pgdat->nr_mms; id++) {
		const struct mm_struct *mm = pgdat->mms[id];
		if (!mm)
			continue;
		for (unsigned long pmd = 0; pmd < mm->cap_vpages / PTRS_PER_PTE; pmd++) {
			unsigned n = 0;
			for (unsigned long v = pmd * PTRS_PER_PTE; v < (pmd + 1) * PTRS_PER_PTE; v++) {
				bool bit = (mm->present[v / 64] >> (v % 64)) & 1;
				n += entry_present(mm->pte[v]);
				if (bit != entry_present(mm->pte[v]))
					violation(c, NULL, NO_PFN, "mm %u vpage %lu: pte %#x, present bit %d",
					          (unsigned)id, v, mm->pte[v], (int)bit);
			}
			if (n != mm->pmd_present[pmd])
				violation(c, NULL, NO_PFN, "mm %u pmd %lu: %u present ptes, pmd_present %u",
				          (unsigned)id, pmd, n, (unsigned)mm->pmd_present[pmd]);
		}
	}
}

unsigned long check_pgdat(const struct pglist_data *pgdat, const char *what)
{
	const size_t words = (pgdat->node_spanned_pages + 63) / 64;
	struct vm_checker c = {
		.pgdat = pgdat,
		.what = what ? what : "check_pgdat",
		.hygiene = pgdat->policy && mm_policy_has(pgdat->policy, MMF_FREELIST_HYGIENE),
	};

	c.on_free_list = calloc(words ? words : 1, sizeof(uint64_t));
	c.on_pcp_list = calloc(words ? words : 1, sizeof(uint64_t));
	if (!c.on_free_list || !c.on_pcp_list) {
		/* Not a verdict on the state; but a check that cannot run
		 * must not pass silently. */
		violation(&c, NULL, NO_PFN, "out of memory for the checker's bitmaps");
		goto out;
	}

	/* The lists first: the page walk needs both bitmaps complete. */
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		check_free_area(&c, z);
		check_pcp_lists(&c, z);
	}
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (populated_zone(z))
			check_zone_pages(&c, z);
	}
	check_lru_lists(&c);
	check_pmd_present(&c);
	if (c.violations > CHECK_PRINT_MAX)
		fprintf(stderr, "%s: %lu more violations not shown\n", c.what,
		        c.violations - CHECK_PRINT_MAX);
out:
	free(c.on_free_list);
	free(c.on_pcp_list);
	return c.violations;
}

unsigned long freelist_type_mismatches(const struct pglist_data *pgdat)
{
	const struct page *m = pgdat->mem_map;
	unsigned long n = 0;

	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		for (unsigned order = 0; order < MAX_ORDER; order++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				uint32_t head = z->free_area[order].free_list[mt];
				unsigned long walked = 0;
				for (uint32_t e = m[head].next; e != head; e = m[e].next) {
					/* a corrupt list is check_pgdat()'s to report */
					if (e >= pgdat->node_spanned_pages || ++walked > pgdat->node_spanned_pages ||
					    e + (1ul << order) > pgdat->node_spanned_pages)
						break;
					if (buddy_block_type_mismatch(pgdat, e, order, mt) >= 0)
						n++;
				}
			}
	}
	return n;
}

/* (f) a large page-cache folio at pfn, whose head's slot holds it */
static void check_file_folio(struct vm_checker *c, const struct address_space *as, unsigned long pfn)
{
	const struct pglist_data *pgdat = c->pgdat;
	const struct page *p = &pgdat->mem_map[pfn];
	unsigned order = page_order(p);
	unsigned long nr = 1ul << order;

	if (p->owner != PGOWN_FILE || as->bdev || order < 1 || order > HPAGE_PMD_ORDER) {
		violation(c, NULL, pfn, "large page-cache folio of order %u owned by %s", order,
		          page_owner_name((enum page_owner_kind)p->owner));
		return;
	}
	if ((p->index & (nr - 1)) || p->index + nr > as->size)
		violation(c, NULL, pfn, "large page-cache folio at index %u of order %u: unaligned or past the "
		          "end of inode %u (%lu pages)", p->index, order, p->mapping, as->size);
	else if (p->mapcount || PageTest(p, PG_dirty) || PageTest(p, PG_writeback))
		violation(c, NULL, pfn, "large page-cache folio mapped (%u) or dirty", (unsigned)p->mapcount);
	else if (!as->nr_large_folios)
		violation(c, NULL, pfn, "large page-cache folio of inode %u, which counts none", p->mapping);
	else
		for (unsigned long i = 1; i < nr; i++) {
			const struct page *t = p + i;

			if (!PageTail(t) || t->next != pfn || PageLRU(t) || PageHead(t)) {
				violation(c, NULL, pfn + i, "page-cache folio tail: not a tail of head %#lx", pfn);
				break;
			}
			if (t->owner != PGOWN_FILE || t->mapping != p->mapping || t->index != p->index + i) {
				violation(c, NULL, pfn + i, "page-cache folio tail: owner %s inode %u index %u, "
				          "head's inode %u index %u", page_owner_name((enum page_owner_kind)t->owner),
				          t->mapping, t->index, p->mapping, p->index);
				break;
			}
			if (as->i_pages[p->index + i] != (ENTRY_PRESENT | (uint32_t)(pfn + i))) {
				violation(c, NULL, pfn + i, "page-cache folio tail: i_pages[%lu] of inode %u does "
				          "not hold it", (unsigned long)p->index + i, p->mapping);
				break;
			}
		}
}

static void check_lru_rmap(struct vm_checker *c, unsigned long pfn, unsigned long *large_folios)
{
	const struct pglist_data *pgdat = c->pgdat;
	const struct page *p = &pgdat->mem_map[pfn];
	uint32_t want = ENTRY_PRESENT | (uint32_t)pfn;

	if (!PageLRU(p) || PageTest(p, PG_isolated) || PageTail(p)) {
		violation(c, NULL, pfn, "on an LRU list but not PG_lru, isolated, or a tail page");
		return;
	}
	switch (p->owner) {
	case PGOWN_ANON: {
		const struct mm_struct *mm = p->mapping < pgdat->nr_mms ? pgdat->mms[p->mapping] : NULL;
		if (!p->mapcount) {
			if (!pgdat->swap.slot_page || p->private >= pgdat->swap.pages ||
			    pgdat->swap.slot_page[p->private] != pfn + 1)
				violation(c, NULL, pfn, "unmapped anon LRU page that no swap slot caches");
			break;
		}
		if (!mm || p->index >= mm->nr_vpages) {
			violation(c, NULL, pfn, "anon LRU page of no process, or beyond its area");
			break;
		}
		for (unsigned long i = 0; i < (PageHead(p) ? 1ul << page_order(p) : 1); i++)
			if (mm->pte[p->index + i] != want + i) {
				violation(c, NULL, pfn, "anon LRU page: pte %lu of mm %u does not map it",
				          (unsigned long)p->index + i, p->mapping);
				break;
			}
		break;
	}
	case PGOWN_FILE:
	case PGOWN_BDEV: {
		const struct address_space *as = p->mapping < pgdat->nr_inodes ? pgdat->inodes[p->mapping] : NULL;
		if (!as || p->index >= as->size || as->i_pages[p->index] != want)
			violation(c, NULL, pfn, "page cache LRU page: i_pages[%u] of inode %u does not hold it",
			          p->index, p->mapping);
		else if (PageHead(p)) {
			check_file_folio(c, as, pfn);
			if (large_folios)
				large_folios[p->mapping]++;
		} else if (as->nr_i_mmap && page_mapcount_walk(pgdat, pfn) != p->mapcount)
			violation(c, NULL, pfn, "mapped file page: mapcount %u, but %lu ptes map it",
			          (unsigned)p->mapcount, page_mapcount_walk(pgdat, pfn));
		else if (!as->nr_i_mmap && p->mapcount)
			violation(c, NULL, pfn, "file page of an unmapped file has mapcount %u", (unsigned)p->mapcount);
		break;
	}
	case PGOWN_SHMEM:
		if (!shmem_page_cached(pgdat, pfn))
			violation(c, NULL, pfn, "shmem LRU page that no object's file holds");
		else if (PageTest(p, PG_unevictable) != PageTest(p, PG_pinned))
			violation(c, NULL, pfn, "shmem page: unevictable and held by its object disagree");
		break;
	default:
		violation(c, NULL, pfn, "LRU page owned by %s", page_owner_name((enum page_owner_kind)p->owner));
	}
}

static void check_lru_lists(struct vm_checker *c)
{
	const struct pglist_data *pgdat = c->pgdat;
	unsigned long *large_folios = NULL;

	/* the inodes' counts of large folios, checked if any has one */
	for (uint32_t i = 0; i < pgdat->nr_inodes && !large_folios; i++)
		if (pgdat->inodes[i] && pgdat->inodes[i]->nr_large_folios)
			large_folios = calloc(pgdat->nr_inodes, sizeof(*large_folios));
	for (int l = 0; l < NR_LRU_LISTS; l++) {
		uint32_t head = pgdat->lruvec.lists[l];
		unsigned long n = 0;
		for (uint32_t pfn = pgdat->mem_map[head].next; pfn != head; pfn = pgdat->mem_map[pfn].next) {
			if (pfn >= pgdat->node_spanned_pages || ++n > pgdat->node_spanned_pages) {
				violation(c, NULL, pfn, "LRU list %d is corrupt", l);
				break;
			}
			check_lru_rmap(c, pfn, large_folios);
		}
	}
	for (uint32_t i = 0; large_folios && i < pgdat->nr_inodes; i++)
		if (pgdat->inodes[i] && large_folios[i] != pgdat->inodes[i]->nr_large_folios)
			violation(c, NULL, NO_PFN, "inode %u counts %lu large folios, the LRU lists hold %lu", i,
			          pgdat->inodes[i]->nr_large_folios, large_folios[i]);
	free(large_folios);
}

/* The free counters of every populated zone, for the BUG report. */
static void show_free_counters(const struct pglist_data *pgdat)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		fprintf(stderr, "Node 0, zone %8s:", zone_name_of((unsigned)zi));
		for (int i = NR_FREE_PAGES; i <= NR_FREE_FREE; i++)
			fprintf(stderr, " %s:%ld", zone_stat_names[i], z->vm_stat[i]);
		fprintf(stderr, " nr_reserved_highatomic:%lu\n  nr_free:",
		        z->nr_reserved_highatomic);
		for (int order = 0; order < MAX_ORDER; order++)
			fprintf(stderr, " %lu", z->free_area[order].nr_free);
		fputc('\n', stderr);
	}
}

void check_pgdat_or_die(const struct pglist_data *pgdat, const char *what)
{
	unsigned long n = check_pgdat(pgdat, what);

	if (!n)
		return;
	fprintf(stderr, "%s: %lu violation%s of the allocator's invariants\n",
	        what ? what : "check_pgdat", n, n == 1 ? "" : "s");
	show_free_counters(pgdat);
	mm_bug(__FILE__, __LINE__, "check_pgdat() found violations");
}
