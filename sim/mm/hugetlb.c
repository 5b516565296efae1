/* hugetlb.c - the persistent huge page pool (see hugetlb.h). */
#include <stdlib.h>
#include "internal.h"
#include "mmsim/hugetlb.h"

struct hstate {
	uint32_t *pfns;                 /* the pool's head pages, in the order they came */
	unsigned long nr_huge_pages, cap;
	bool noretry;                   /* node_alloc_noretry: the last attempt failed */
};

static struct hstate *hstate_get(struct pglist_data *pgdat)
{
	if (!pgdat->hstate)
		pgdat->hstate = calloc(1, sizeof(struct hstate));
	return pgdat->hstate;
}

/* alloc_buddy_hugetlb_folio() */
static struct page *alloc_buddy_hugetlb_folio(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                              struct hstate *h)
{
	gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_THISNODE | __GFP_COMP | __GFP_NOWARN;
	bool try_hard = !h->noretry;
	struct page *p;

	if (try_hard)
		gfp |= __GFP_RETRY_MAYFAIL;
	p = alloc_pages(pgdat, ctx, gfp, HPAGE_PMD_ORDER);
	if (p && !try_hard)
		h->noretry = false;
	if (!p && try_hard)
		h->noretry = true;
	count_vm_events(pgdat, p ? HTLB_BUDDY_PGALLOC : HTLB_BUDDY_PGALLOC_FAIL, 1);
	return p;
}

unsigned long set_max_huge_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long count)
{
	struct hstate *h = hstate_get(pgdat);

	if (!h)
		return 0;
	if (count > h->cap) {
		uint32_t *n = realloc(h->pfns, count * sizeof(*n));
		if (!n)
			return h->nr_huge_pages;
		h->pfns = n;
		h->cap = count;
	}
	while (h->nr_huge_pages < count) {
		struct page *p = alloc_buddy_hugetlb_folio(pgdat, ctx, h);
		if (!p)
			break;          /* the first page it cannot have ends the growth */
		/* held by the pool's holder: a reference, and the owner the
		 * census and the checker know it by */
		p->owner = PGOWN_HUGETLB;
		h->pfns[h->nr_huge_pages++] = (uint32_t)page_to_pfn(pgdat, p);
	}
	/* the newest pages go back first (the kernel's order depends on
	 * how the holder unmapped them: not modelled) */
	while (h->nr_huge_pages > count) {
		uint32_t pfn = h->pfns[--h->nr_huge_pages];
		struct page *p = &pgdat->mem_map[pfn];
		p->owner = PGOWN_NONE;
		__free_pages(pgdat, ctx, p, HPAGE_PMD_ORDER);
	}
	return h->nr_huge_pages;
}

unsigned long nr_huge_pages(const struct pglist_data *pgdat)
{
	return pgdat->hstate ? pgdat->hstate->nr_huge_pages : 0;
}

void hugetlb_teardown(struct pglist_data *pgdat)
{
	struct mm_ctx ctx = { 0 };

	if (!pgdat->hstate)
		return;
	set_max_huge_pages(pgdat, &ctx, 0);
	free(pgdat->hstate->pfns);
	free(pgdat->hstate);
	pgdat->hstate = NULL;
}
