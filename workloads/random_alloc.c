/* random_alloc.c - see random_alloc.h. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/debug_vm.h"
#include "random_alloc.h"

const char *const ra_class_names[NR_RA_CLASSES] = {
	"anon", "file", "slab_reclaimable", "slab_unmovable", "pagetable", "atomic", "thp",
};

/* What each class is: its gfp mask, orders, share of allocations and mean
 * lifetime (in allocation attempts, scaled by the load).  Unmovable kernel
 * memory lives longest, which is what scatters it over the blocks. */
static const struct ra_class_desc {
	gfp_t gfp;
	unsigned min_order, max_order;
	double weight;
	double life;
	enum page_owner_kind owner;
	enum pageflags flag;        /* PG_lru or PG_slab, NR_PAGEFLAGS for none */
} ra_classes[NR_RA_CLASSES] = {
	[RA_ANON] = { GFP_HIGHUSER_MOVABLE, 0, 0, 60, 1.0, PGOWN_ANON, PG_lru },
	[RA_FILE] = { GFP_HIGHUSER_MOVABLE, 0, 0, 20, 2.0, PGOWN_FILE, PG_lru },
	[RA_SLAB_RECLAIMABLE] = { GFP_KERNEL | __GFP_RECLAIMABLE | __GFP_COMP, 0, 1, 8, 3.0,
	                          PGOWN_SLAB_RECLAIMABLE, PG_slab },
	[RA_SLAB_UNMOVABLE] = { GFP_KERNEL | __GFP_COMP, 0, 3, 5, 6.0, PGOWN_SLAB_UNRECLAIMABLE, PG_slab },
	[RA_PAGETABLE] = { GFP_KERNEL, 0, 0, 4, 1.0, PGOWN_PAGETABLE, NR_PAGEFLAGS },
	[RA_ATOMIC] = { GFP_ATOMIC | __GFP_COMP, 1, 3, 1, 0.1, PGOWN_KMEM, NR_PAGEFLAGS },
	[RA_THP] = { GFP_TRANSHUGE, 9, 9, 0.2, 1.0, PGOWN_ANON, PG_lru },
};

struct ra_obj {
	double death;
	struct page *page;
	uint8_t order;
	uint8_t cls;
	uint16_t cpu;
};

/* a binary min-heap of live objects by death time */
static struct ra_obj *heap;
static size_t heap_len, heap_cap;

static void heap_push(struct ra_obj o)
{
	size_t i;
	if (heap_len == heap_cap) {
		heap_cap = heap_cap ? heap_cap * 2 : 4096;
		heap = realloc(heap, heap_cap * sizeof(*heap));
		if (!heap)
			abort();
	}
	i = heap_len++;
	while (i && heap[(i - 1) / 2].death > o.death) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = o;
}

static struct ra_obj heap_pop(void)
{
	struct ra_obj top = heap[0], last = heap[--heap_len];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= heap_len)
			break;
		if (c + 1 < heap_len && heap[c + 1].death < heap[c].death)
			c++;
		if (heap[c].death >= last.death)
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (heap_len)
		heap[i] = last;
	return top;
}

static void ra_free(struct pglist_data *pgdat, struct ra_obj o, struct random_alloc_stats *st)
{
	struct mm_ctx ctx = { .cpu = o.cpu };
	ClearPageFlag(o.page, PG_lru);      /* off its (pretend) LRU: __free_pages refuses LRU pages */
	__free_pages(pgdat, &ctx, o.page, o.order);
	st->live_objects--;
	st->live_pages -= 1ul << o.order;
}

void random_alloc_defaults(struct random_alloc_params *p)
{
	*p = (struct random_alloc_params){ .seed = 1, .ops = 2000000, .occupancy = 0.85, .check_every = 0 };
}

int random_alloc_run(struct pglist_data *pgdat, const struct random_alloc_params *p,
                     struct random_alloc_stats *st, int keep)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
	double weights[NR_RA_CLASSES], t = 0;
	gsl_ran_discrete_t *pick;
	unsigned long managed = 0, target;

	memset(st, 0, sizeof(*st));
	gsl_rng_set(rng, (unsigned long)p->seed);
	for (int c = 0; c < NR_RA_CLASSES; c++)
		weights[c] = ra_classes[c].weight;
	pick = gsl_ran_discrete_preproc(NR_RA_CLASSES, weights);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		managed += pgdat->node_zones[z].managed_pages;
	target = (unsigned long)(p->occupancy * (double)managed);
	/* lifetimes in attempts: long enough that memory fills to the target */
	double scale = (double)target;

	for (unsigned long i = 0; i < p->ops; i++) {
		int c = (int)gsl_ran_discrete(rng, pick);
		const struct ra_class_desc *d = &ra_classes[c];
		unsigned order = d->min_order + (unsigned)gsl_rng_uniform_int(rng, d->max_order - d->min_order + 1);
		struct ra_obj o = { .order = (uint8_t)order, .cls = (uint8_t)c,
		                    .cpu = (uint16_t)gsl_rng_uniform_int(rng, pgdat->nr_cpus) };
		struct mm_ctx ctx = { .cpu = o.cpu };

		t += 1.0;
		/* the dead go first; above the target, the oldest-to-die too */
		while (heap_len && (heap[0].death <= t || st->live_pages + (1ul << order) > target))
			ra_free(pgdat, heap_pop(), st);

		st->attempts[c]++;
		o.page = alloc_pages(pgdat, &ctx, d->gfp, order);
		if (!o.page) {
			st->failures[c]++;
		} else {
			o.page->owner = (uint8_t)d->owner;
			if (d->flag != NR_PAGEFLAGS)
				SetPageFlag(o.page, d->flag);
			/* the load holds its pages by pointer and keeps no
			 * reverse map, and its "LRU" pages are on no list:
			 * compaction must not move them (pinned) */
			if (d->flag == PG_lru)
				SetPageFlag(o.page, PG_pinned);
			o.death = t + gsl_ran_exponential(rng, d->life * scale);
			heap_push(o);
			st->live_objects++;
			st->live_pages += 1ul << order;
		}
		if (p->check_every && (i + 1) % p->check_every == 0 && check_pgdat(pgdat, "random_alloc"))
			st->check_failures++;
	}
	gsl_ran_discrete_free(pick);
	gsl_rng_free(rng);
	if (!keep)
		random_alloc_release(pgdat);
	return 0;
}

void random_alloc_release(struct pglist_data *pgdat)
{
	struct random_alloc_stats dummy = { .live_objects = heap_len, .live_pages = ~0ul };
	while (heap_len)
		ra_free(pgdat, heap_pop(), &dummy);
	free(heap);
	heap = NULL;
	heap_cap = 0;
}
