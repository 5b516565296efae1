/* kernel_pages.c - see kernel_pages.h. */
#include "internal.h"
#include "mmsim/kernel_pages.h"

static enum page_owner_kind owner_of(enum kernel_page_kind kind)
{
	switch (kind) {
	case KPAGE_STACK:
		return PGOWN_KSTACK;
	case KPAGE_PAGETABLE:
		return PGOWN_PAGETABLE;
	default:
		return PGOWN_KMEM;
	}
}

static void account(struct pglist_data *pgdat, enum kernel_page_kind kind, long pages)
{
	if (kind == KPAGE_STACK)
		mod_node_page_state(pgdat, NR_KERNEL_STACK_KB, pages * (long)(PAGE_SIZE >> 10));
	else if (kind == KPAGE_PAGETABLE)
		mod_node_page_state(pgdat, NR_PAGETABLE, pages);
}

struct page *kernel_page_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx,
                               enum kernel_page_kind kind, unsigned order)
{
	/* stacks and page tables are memcg-accounted (GFP_KERNEL_ACCOUNT):
	 * the same pageblocks as GFP_KERNEL, no memcg in the model */
	struct page *p = alloc_pages(pgdat, ctx, GFP_KERNEL_ACCOUNT | (order ? __GFP_COMP : 0), order);

	if (!p)
		return NULL;
	p->owner = (uint8_t)owner_of(kind);
	account(pgdat, kind, 1l << order);
	return p;
}

void kernel_page_free(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *page,
                      enum kernel_page_kind kind, unsigned order)
{
	account(pgdat, kind, -(1l << order));
	__free_pages(pgdat, ctx, page, order);
}
