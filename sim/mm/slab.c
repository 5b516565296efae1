/* slab.c - slab caches as SLUB keeps them (mm/slub.c of v6.2), for what they
 * do to pageblocks, and the superblock shrinker that frees dentries and
 * inodes under memory pressure (fs/super.c, fs/dcache.c, fs/inode.c,
 * mm/vmscan.c do_shrink_slab).
 *
 * What is modelled
 *
 *   Slab pages.  A slab is one compound allocation of the cache's order
 *   (oo) or, when that fails, of its minimum order (min, the smallest order
 *   that holds one object), as allocate_slab() does.  Its head page carries
 *   PG_slab, page->owner (PGOWN_SLAB_RECLAIMABLE for SLAB_RECLAIM_ACCOUNT
 *   caches, PGOWN_SLAB_UNRECLAIMABLE otherwise), page->mapping = the cache
 *   id and page->private = the objects in use on it (slab->inuse).  Its
 *   page->next/prev link it on its cache's partial or full list, as the
 *   kernel's slab_list overlays page->lru: a slab page is never on an LRU.
 *   nr_slab_reclaimable / nr_slab_unreclaimable count slab pages (the
 *   kernel's NR_SLAB_*_B counters are bytes, shown in pages by /proc/vmstat).
 *
 *   Objects have no contents: a handle is an index into the cache's object
 *   table, whose entry records the object's slab (head pfn), its owner and
 *   its LRU links.  Free handles are kept on a stack, so alloc and free are
 *   O(1).  Which slot of its slab an object occupies is not recorded: only
 *   the count per slab matters for when the slab page can go.
 *
 *   Partial slabs.  SLUB allocates from its per-cpu slab, then its per-cpu
 *   partial slabs, then the node's partial list, then a new slab.  The model
 *   keeps one partial list per cache (no per-cpu slabs): an allocation takes
 *   the first partial slab; a new slab and a full slab that gets an object
 *   back go to the front (the per-cpu partial list is used most recently
 *   first); a full slab leaves the list (SLUB keeps full slabs on no list;
 *   the model lists them to free them at slab_destroy).  A slab whose last
 *   object is freed is discarded unless the partial list holds fewer than
 *   min_partial slabs, counting itself (__slab_free: `!new.inuse &&
 *   n->nr_partial >= s->min_partial`); a kept empty slab stays where it is.
 *   min_partial = ilog2(size) / 2 clamped to [MIN_PARTIAL 5, MAX_PARTIAL 10]
 *   (kmem_cache_open -> set_min_partial).
 *
 *   The shrinker.  v6.2 has one shrinker per superblock, counting the
 *   dentry and inode LRUs together (super_cache_count, scaled by
 *   vfs_cache_pressure) and splitting each batch between them in
 *   proportion (super_cache_scan: dentries first, then inodes).  The model
 *   has one filesystem, so one such shrinker, with v6.2's do_shrink_slab():
 *   delta = (freeable >> priority) * 4 / DEFAULT_SEEKS, plus deferred work
 *   (nr_deferred >> priority), capped at 2 * freeable, scanned in batches
 *   of SHRINK_BATCH while total_scan >= batch or >= freeable; work not done
 *   is deferred to the next call (capped at 2 * freeable).  slabs_scanned
 *   counts each batch's nr_to_scan, as the kernel counts
 *   shrinkctl->nr_scanned (which the sb shrinker leaves as set).
 *   The LRU walk is list_lru_walk's: from the cold end, each object is
 *   put to its owner's isolate callback (pgdat->slab_isolate: the
 *   dcache's dentry_lru_isolate / inode_lru_isolate, dcache.c), which
 *   says LRU_REMOVED (in use: off the LRU), LRU_ROTATE (referenced: the
 *   bit is cleared and the object goes to the hot end, walked again only
 *   after the rest of the list), LRU_RETRY (changed under us: the walk
 *   meets it again) or LRU_FREE; without a callback a referenced object
 *   rotates and the others are freed.  The owner is told of each object
 *   freed (pgdat->slab_evicted).
 *
 *   LRU placement.  Dentries and inodes enter their LRU at the hot end
 *   without the referenced bit (d_lru_add at the first dput, inode_lru_list_add).
 *   kmem_cache_touch() sets the referenced bit and leaves the object where
 *   it is: retain_dentry() and inode_lru_list_add() only set
 *   DCACHE_REFERENCED / I_REFERENCED on an object already on the LRU; the
 *   rotation happens when the shrinker meets it (second chance).
 *
 *   Objects in use (a dentry with children, an inode its dentry holds)
 *   are taken off the LRU by their owner (kmem_cache_lru_del) and put
 *   back when unused (kmem_cache_lru_add); kmem_cache_alloc() puts a new
 *   one on, as the first dput/iput would.
 *
 *   Not modelled: per-cpu slabs and per-cpu partial lists.
 *
 * Costs: slab_object_ns per kmem_cache_alloc and kmem_cache_free (the
 * shrinker's frees included), shrinker_object_ns per object the shrinker
 * walks; page allocation and freeing charge their own costs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mmsim/shrinker.h"
#include "mmsim/slab.h"

/* The page cache (filemap.c) is told of every dentry or inode the
 * shrinker freed: the handle is already free when this is called, and the
 * owner must forget it, not free it. */

/* ------------------------------------------------------------------ */
/* the caches
 *
 * object_size is s->size (the object with its metadata and alignment), as
 * /proc/slabinfo's objsize column shows it; order and objs_per_slab are
 * what v6.2's calculate_order() gives for that size (below); min_order is
 * oo_min's order, get_order(size).
 *
 * Orders: calculate_order() takes min_objects = 4 * (fls(nr_cpus) + 1),
 * capped at the objects that fit a slub_max_order (3) slab, and picks the
 * smallest order >= get_order(min_objects * size) whose leftover is at
 * most 1/16 of the slab (then 1/8, 1/4; then fewer objects).  The table is
 * for a guest with 16..31 CPUs (min_objects 24); objs_per_slab =
 * (PAGE_SIZE << order) / size, as order_objects() computes it.  With 8..15
 * CPUs (min_objects 20) vm_area_struct, cred_jar and dentry would be order
 * 0 with 20, 21 and 21 objects; the kmalloc rows are the same from 8 to 63
 * CPUs.  tests/unit/test_slab.c recomputes every row with that rule.
 *
 * Sizes: the kmalloc caches are their names.  The other sizes are
 * representative of a distribution-configured v6.2 x86-64 kernel (they
 * vary with the config and, for task_struct, with the CPU's xsave area):
 * task_struct 6720 (the fpstate is allocated at the end of task_struct:
 * about 6-7 KiB for a guest CPU without AVX-512), mm_struct and
 * signal_cache 1152, vm_area_struct 200, files_cache 704, cred_jar 192,
 * anon_vma 104, radix_tree_node 576 (struct xa_node), dentry 192,
 * ext4_inode_cache 1080, buffer_head 104.  They are estimates, not read
 * from one machine's /proc/slabinfo.
 */
const struct kmem_cache_info kmem_cache_info[NR_KMEM_CACHES] = {
	/*                   name                size objs order min  reclaimable */
	[KMALLOC_64]     = { "kmalloc-64",         64,  64,  0,   0,  false },
	[KMALLOC_128]    = { "kmalloc-128",       128,  32,  0,   0,  false },
	[KMALLOC_256]    = { "kmalloc-256",       256,  32,  1,   0,  false },
	[KMALLOC_512]    = { "kmalloc-512",       512,  32,  2,   0,  false },
	[KMALLOC_1K]     = { "kmalloc-1k",       1024,  32,  3,   0,  false },
	[KMALLOC_2K]     = { "kmalloc-2k",       2048,  16,  3,   0,  false },
	[KMALLOC_4K]     = { "kmalloc-4k",       4096,   8,  3,   0,  false },
	[KMALLOC_8K]     = { "kmalloc-8k",       8192,   4,  3,   1,  false },
	[TASK_STRUCT_CACHE] = { "task_struct",   6720,   4,  3,   1,  false },
	[MM_STRUCT_CACHE]   = { "mm_struct",     1152,  28,  3,   0,  false },
	[VM_AREA_CACHE]     = { "vm_area_struct", 200,  40,  1,   0,  false },
	[FILES_CACHE]       = { "files_cache",    704,  46,  3,   0,  false },
	[SIGNAL_CACHE]      = { "signal_cache",  1152,  28,  3,   0,  false },
	[CRED_CACHE]        = { "cred_jar",       192,  42,  1,   0,  false },
	[ANON_VMA_CACHE]    = { "anon_vma",       104,  39,  0,   0,  false },
	/* SLAB_RECLAIM_ACCOUNT in radix_tree_init(); the page cache's xarray
	 * nodes (filemap.c xa_node_get) */
	[RADIX_TREE_NODE_CACHE] = { "radix_tree_node", 576, 28, 2, 0, true },
	[DENTRY_CACHE]      = { "dentry",         192,  42,  1,   0,  true },
	[INODE_CACHE]       = { "ext4_inode_cache", 1080, 30, 3,  0,  true },
	[BUFFER_HEAD_CACHE] = { "buffer_head",    104,  39,  0,   0,  true },
};

#define MIN_PARTIAL    5                /* mm/slub.c */
#define MAX_PARTIAL    10

/* new_slab(): the caller's flags that reach the page allocator
 * (GFP_RECLAIM_MASK | GFP_CONSTRAINT_MASK of v6.2's mm/internal.h) */
#define GFP_RECLAIM_MASK (__GFP_RECLAIM | __GFP_HIGH | __GFP_IO | __GFP_FS | __GFP_NOWARN | \
                          __GFP_RETRY_MAYFAIL | __GFP_NOFAIL | __GFP_NORETRY | __GFP_MEMALLOC | \
                          __GFP_NOMEMALLOC | __GFP_ATOMIC)
#define GFP_CONSTRAINT_MASK (__GFP_HARDWALL | __GFP_THISNODE)

/* object flags */
#define OBJ_INUSE      0x1u
#define OBJ_REFERENCED 0x2u
#define OBJ_ON_LRU     0x4u

struct slab_object {
	uint32_t slab;                  /* head pfn of its slab page */
	uint32_t owner;
	uint32_t prev, next;            /* LRU links; next: free stack link */
	uint8_t flags;
};

/* a list of objects (the LRU): first is the cold end */
struct obj_list {
	uint32_t first, last;
	unsigned long nr;
};

/* a list of slab pages through the head pages' next/prev */
struct slab_list {
	uint32_t first, last;
	unsigned long nr;
};

struct kmem_cache {
	const struct kmem_cache_info *info;     /* the table's row, or own_info */
	struct kmem_cache_info own_info;        /* a created cache's geometry (kmem_cache_create) */
	char name[32];
	enum kmem_cache_id id;
	gfp_t allocflags;               /* __GFP_COMP if order > 0, __GFP_RECLAIMABLE */
	unsigned min_partial;
	bool has_lru;                   /* dentries and inodes: on the sb shrinker's LRUs */

	struct slab_object *objs;       /* the object table, by handle */
	uint32_t nr_objs, cap_objs;     /* entries used so far, allocated */
	uint32_t free_objs;             /* free handle stack (through next) */

	struct slab_list partial;       /* slabs with free objects (kept empty ones too) */
	struct slab_list full;
	struct obj_list lru;

	unsigned long objects;          /* in use */
	unsigned long slabs;
	unsigned long pages;
	/* SLUB's stat items (CONFIG_SLUB_STATS), for diagnostics */
	unsigned long alloc_slab, free_slab, order_fallback;
};

struct slab_state {
	struct kmem_cache caches[MAX_KMEM_CACHES];
	unsigned nr_caches;             /* NR_KMEM_CACHES built in, then created ones */
	struct shrinker sb_shrinker;    /* the superblock's (super_cache_count/scan) */
	unsigned long pages_freed;      /* slab pages given back, ever */
	unsigned long check_ops;        /* debug_check_interval counter */
};

static struct mm_ctx fallback_ctx;      /* for callers without a context */

static inline void charge(struct mm_ctx *ctx, double ns)
{
	if (ctx)
		ctx->kernel_ns += ns;
}

static inline struct kmem_cache *cache_of(struct pglist_data *pgdat, enum kmem_cache_id id)
{
	VM_BUG_ON(!pgdat->slab || (unsigned)id >= pgdat->slab->nr_caches);
	return &pgdat->slab->caches[id];
}

static inline unsigned slab_capacity(const struct kmem_cache_info *ci, unsigned order)
{
	return order == ci->order ? ci->objs_per_slab : (PAGE_SIZE << order) / ci->object_size;
}

static inline enum node_stat_item cache_vmstat_idx(const struct kmem_cache *s)
{
	return s->info->reclaimable ? NR_SLAB_RECLAIMABLE_B : NR_SLAB_UNRECLAIMABLE_B;
}

/* ------------------------------------------------------------------ */
/* list helpers                                                        */

static void slab_list_add(struct pglist_data *pgdat, struct slab_list *l, uint32_t pfn, bool tail)
{
	struct page *m = pgdat->mem_map;

	if (tail) {
		m[pfn].prev = l->last;
		m[pfn].next = PFN_NONE;
		if (l->last != PFN_NONE)
			m[l->last].next = pfn;
		else
			l->first = pfn;
		l->last = pfn;
	} else {
		m[pfn].next = l->first;
		m[pfn].prev = PFN_NONE;
		if (l->first != PFN_NONE)
			m[l->first].prev = pfn;
		else
			l->last = pfn;
		l->first = pfn;
	}
	l->nr++;
}

static void slab_list_del(struct pglist_data *pgdat, struct slab_list *l, uint32_t pfn)
{
	struct page *m = pgdat->mem_map;
	uint32_t prev = m[pfn].prev, next = m[pfn].next;

	if (prev != PFN_NONE)
		m[prev].next = next;
	else
		l->first = next;
	if (next != PFN_NONE)
		m[next].prev = prev;
	else
		l->last = prev;
	m[pfn].next = m[pfn].prev = 0;
	VM_BUG_ON(l->nr == 0);
	l->nr--;
}

/* the LRU: added at the hot end (last), walked from the cold end (first) */
static void lru_add_tail(struct kmem_cache *s, uint32_t h)
{
	struct slab_object *o = &s->objs[h];

	o->prev = s->lru.last;
	o->next = SLAB_OBJ_NONE;
	if (s->lru.last != SLAB_OBJ_NONE)
		s->objs[s->lru.last].next = h;
	else
		s->lru.first = h;
	s->lru.last = h;
	o->flags |= OBJ_ON_LRU;
	s->lru.nr++;
}

static void lru_del(struct kmem_cache *s, uint32_t h)
{
	struct slab_object *o = &s->objs[h];

	if (o->prev != SLAB_OBJ_NONE)
		s->objs[o->prev].next = o->next;
	else
		s->lru.first = o->next;
	if (o->next != SLAB_OBJ_NONE)
		s->objs[o->next].prev = o->prev;
	else
		s->lru.last = o->prev;
	o->prev = o->next = SLAB_OBJ_NONE;
	o->flags &= (uint8_t)~OBJ_ON_LRU;
	VM_BUG_ON(s->lru.nr == 0);
	s->lru.nr--;
}

/* ------------------------------------------------------------------ */
/* the debug check                                                     */

static void slab_bug(const struct pglist_data *pgdat, const struct kmem_cache *s, unsigned long pfn,
                     const char *what)
{
	fprintf(stderr, "mmsim: slab: %s: %s", s->info->name, what);
	if (pfn != PFN_NONE) {
		fprintf(stderr, " (slab pfn %#lx)\n", pfn);
		dump_page(pgdat, pfn, what);
	} else {
		fputc('\n', stderr);
	}
	mm_bug(__FILE__, __LINE__, what);
}

static unsigned long check_slab_list(const struct pglist_data *pgdat, const struct kmem_cache *s,
                                     const struct slab_list *l, bool full, unsigned long *inuse,
                                     unsigned long *pages)
{
	unsigned long n = 0;
	uint32_t prev = PFN_NONE;

	for (uint32_t pfn = l->first; pfn != PFN_NONE; pfn = pgdat->mem_map[pfn].next) {
		const struct page *p = &pgdat->mem_map[pfn];
		unsigned order = page_order(p);
		unsigned cap = slab_capacity(s->info, order);

		if (pfn >= pgdat->node_spanned_pages || ++n > l->nr)
			slab_bug(pgdat, s, pfn, "slab list runs past its count");
		if (!PageSlab(p) || PageTail(p) || PageBuddy(p) || PagePcp(p) || !p->refcount)
			slab_bug(pgdat, s, pfn, "slab list entry is not an allocated slab head");
		if (p->mapping != (uint32_t)s->id)
			slab_bug(pgdat, s, pfn, "slab page's mapping is not its cache");
		if (p->owner != (s->info->reclaimable ? PGOWN_SLAB_RECLAIMABLE : PGOWN_SLAB_UNRECLAIMABLE))
			slab_bug(pgdat, s, pfn, "slab page's owner does not match its cache");
		if (order != s->info->order && order != s->info->min_order)
			slab_bug(pgdat, s, pfn, "slab page of neither the cache's order nor its min order");
		if (p->prev != prev)
			slab_bug(pgdat, s, pfn, "slab list prev link broken");
		if (p->private > cap || (full != (p->private == cap)))
			slab_bug(pgdat, s, pfn, full ? "slab on the full list has free objects"
			                             : "slab on the partial list is full");
		*inuse += p->private;
		*pages += 1ul << order;
		prev = pfn;
	}
	if (n != l->nr || l->last != prev)
		slab_bug(pgdat, s, PFN_NONE, "slab list count or tail wrong");
	return n;
}

/* the whole slab state: lists, counts, objects, LRUs, node stats */
static void check_slab_state(const struct pglist_data *pgdat)
{
	const struct slab_state *ss = pgdat->slab;
	unsigned long stat_pages[2] = { 0, 0 };

	for (int id = 0; id < (int)ss->nr_caches; id++) {
		const struct kmem_cache *s = &ss->caches[id];
		unsigned long inuse = 0, pages = 0, slabs, objects = 0, on_lru = 0, free = 0;

		slabs = check_slab_list(pgdat, s, &s->partial, false, &inuse, &pages);
		slabs += check_slab_list(pgdat, s, &s->full, true, &inuse, &pages);
		if (slabs != s->slabs || pages != s->pages || inuse != s->objects)
			slab_bug(pgdat, s, PFN_NONE, "slab, page or object counts disagree with the lists");
		for (uint32_t h = 0; h < s->nr_objs; h++) {
			const struct slab_object *o = &s->objs[h];
			if (!(o->flags & OBJ_INUSE))
				continue;
			objects++;
			if (o->slab >= pgdat->node_spanned_pages || !PageSlab(&pgdat->mem_map[o->slab]) ||
			    pgdat->mem_map[o->slab].mapping != (uint32_t)id)
				slab_bug(pgdat, s, o->slab, "object's slab is not a slab page of its cache");
			/* a dentry or inode in use (a dentry with children, an
			 * inode its dentry holds) is off the LRU */
			if ((o->flags & OBJ_ON_LRU) && !s->has_lru)
				slab_bug(pgdat, s, PFN_NONE, "object LRU membership wrong");
		}
		for (uint32_t h = s->free_objs; h != SLAB_OBJ_NONE; h = s->objs[h].next) {
			if (h >= s->nr_objs || (s->objs[h].flags & OBJ_INUSE) || ++free > s->nr_objs)
				slab_bug(pgdat, s, PFN_NONE, "free handle stack broken");
		}
		if (objects != s->objects || objects + free != s->nr_objs)
			slab_bug(pgdat, s, PFN_NONE, "object table counts wrong");
		{
			uint32_t prev = SLAB_OBJ_NONE;
			for (uint32_t h = s->lru.first; h != SLAB_OBJ_NONE; h = s->objs[h].next) {
				if (h >= s->nr_objs || !(s->objs[h].flags & OBJ_ON_LRU) ||
				    s->objs[h].prev != prev || ++on_lru > s->lru.nr)
					slab_bug(pgdat, s, PFN_NONE, "LRU broken");
				prev = h;
			}
			if (on_lru != s->lru.nr || prev != s->lru.last || on_lru > s->objects ||
			    (!s->has_lru && on_lru))
				slab_bug(pgdat, s, PFN_NONE, "LRU count wrong");
		}
		stat_pages[s->info->reclaimable] += pages;
	}
	if ((long)stat_pages[1] != node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B) ||
	    (long)stat_pages[0] != node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B)) {
		fprintf(stderr, "mmsim: slab: nr_slab_reclaimable %ld (slabs hold %lu), "
		        "nr_slab_unreclaimable %ld (slabs hold %lu)\n",
		        node_page_state(pgdat, NR_SLAB_RECLAIMABLE_B), stat_pages[1],
		        node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B), stat_pages[0]);
		mm_bug(__FILE__, __LINE__, "slab node stats disagree with the slab pages");
	}
}

static inline void slab_tick(struct pglist_data *pgdat)
{
	if (pgdat->debug_check_interval &&
	    ++pgdat->slab->check_ops % pgdat->debug_check_interval == 0)
		check_slab_state(pgdat);
}

/* ------------------------------------------------------------------ */
/* slab pages                                                          */

/* allocate_slab() of v6.2: the preferred order without reclaim when a
 * smaller order can serve, then the minimum order with the caller's flags */
static uint32_t allocate_slab(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kmem_cache *s,
                              gfp_t flags)
{
	const struct kmem_cache_info *ci = s->info;
	struct page *page;
	gfp_t alloc_gfp;
	unsigned order = ci->order;
	uint32_t pfn;

	flags = (flags & (GFP_RECLAIM_MASK | GFP_CONSTRAINT_MASK)) | s->allocflags;
	alloc_gfp = (flags | __GFP_NOWARN | __GFP_NORETRY) & ~__GFP_NOFAIL;
	if ((alloc_gfp & __GFP_DIRECT_RECLAIM) && ci->order > ci->min_order)
		alloc_gfp = (alloc_gfp | __GFP_NOMEMALLOC) & ~__GFP_RECLAIM;
	page = alloc_pages(pgdat, ctx, alloc_gfp, order);
	if (!page) {
		order = ci->min_order;
		page = alloc_pages(pgdat, ctx, flags, order);
		if (!page)
			return PFN_NONE;
		s->order_fallback++;
	}
	pfn = (uint32_t)page_to_pfn(pgdat, page);
	/* __folio_set_slab(), account_slab() */
	SetPageFlag(page, PG_slab);
	page->owner = ci->reclaimable ? PGOWN_SLAB_RECLAIMABLE : PGOWN_SLAB_UNRECLAIMABLE;
	page->mapping = (uint32_t)s->id;
	page->index = 0;
	page->private = 0;              /* slab->inuse */
	mod_node_page_state(pgdat, cache_vmstat_idx(s), 1l << order);
	s->slabs++;
	s->pages += 1ul << order;
	s->alloc_slab++;
	return pfn;
}

/* discard_slab(): the slab is on no list any more */
static void discard_slab(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kmem_cache *s,
                         uint32_t pfn)
{
	struct page *page = &pgdat->mem_map[pfn];
	unsigned order = page_order(page);

	VM_BUG_ON(!PageSlab(page) || page->private != 0);
	mod_node_page_state(pgdat, cache_vmstat_idx(s), -(1l << order));
	s->slabs--;
	s->pages -= 1ul << order;
	s->free_slab++;
	pgdat->slab->pages_freed += 1ul << order;
	ClearPageFlag(page, PG_slab);
	page->next = page->prev = 0;
	__free_pages(pgdat, ctx, page, order);
}

/* ------------------------------------------------------------------ */
/* the object table                                                    */

static uint32_t get_handle(struct kmem_cache *s)
{
	uint32_t h = s->free_objs;

	if (h != SLAB_OBJ_NONE) {
		s->free_objs = s->objs[h].next;
		return h;
	}
	if (s->nr_objs == s->cap_objs) {
		uint32_t cap = s->cap_objs ? s->cap_objs * 2 : 256;
		struct slab_object *n;

		if (s->cap_objs >= SLAB_OBJ_NONE / 2)
			return SLAB_OBJ_NONE;
		n = realloc(s->objs, (size_t)cap * sizeof(*n));
		if (!n)
			return SLAB_OBJ_NONE;
		s->objs = n;
		s->cap_objs = cap;
	}
	return s->nr_objs++;
}

static void put_handle(struct kmem_cache *s, uint32_t h)
{
	s->objs[h].flags = 0;
	s->objs[h].prev = SLAB_OBJ_NONE;
	s->objs[h].next = s->free_objs;
	s->free_objs = h;
}

/* ------------------------------------------------------------------ */
/* kmem_cache_alloc / kmem_cache_free                                  */

slab_obj_t kmem_cache_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx,
                            enum kmem_cache_id cache, gfp_t gfp, uint32_t owner)
{
	struct kmem_cache *s = cache_of(pgdat, cache);
	struct slab_object *o;
	struct page *page;
	uint32_t pfn, h;

	if (!ctx)
		ctx = &fallback_ctx;
	charge(ctx, pgdat->costs.slab_object_ns);
	h = get_handle(s);
	if (h == SLAB_OBJ_NONE)
		return SLAB_OBJ_NONE;
	pfn = s->partial.first;
	if (pfn == PFN_NONE) {
		pfn = allocate_slab(pgdat, ctx, s, gfp);
		if (pfn == PFN_NONE) {
			put_handle(s, h);
			return SLAB_OBJ_NONE;
		}
		slab_list_add(pgdat, &s->partial, pfn, false);
	}
	page = &pgdat->mem_map[pfn];
	page->private++;
	if (page->private == slab_capacity(s->info, page_order(page))) {
		slab_list_del(pgdat, &s->partial, pfn);
		slab_list_add(pgdat, &s->full, pfn, true);
	}
	s->objects++;

	o = &s->objs[h];
	o->slab = pfn;
	o->owner = owner;
	o->flags = OBJ_INUSE;
	o->prev = o->next = SLAB_OBJ_NONE;
	if (s->has_lru)
		lru_add_tail(s, h);
	slab_tick(pgdat);
	return h;
}

/* __slab_free(): the object goes back to its slab; a full slab becomes
 * partial, an empty one is discarded if the partial list is long enough */
static void __kmem_cache_free(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kmem_cache *s,
                              uint32_t h)
{
	struct slab_object *o = &s->objs[h];
	uint32_t pfn = o->slab;
	struct page *page = &pgdat->mem_map[pfn];
	unsigned cap = slab_capacity(s->info, page_order(page));
	bool was_full = page->private == cap;

	charge(ctx, pgdat->costs.slab_object_ns);
	if (o->flags & OBJ_ON_LRU)
		lru_del(s, h);
	put_handle(s, h);
	s->objects--;
	VM_BUG_ON(!PageSlab(page) || page->private == 0);
	page->private--;

	if (page->private == 0 && s->partial.nr >= s->min_partial) {
		slab_list_del(pgdat, was_full ? &s->full : &s->partial, pfn);
		discard_slab(pgdat, ctx, s, pfn);
		return;
	}
	if (was_full) {
		slab_list_del(pgdat, &s->full, pfn);
		slab_list_add(pgdat, &s->partial, pfn, false);
	}
}

void kmem_cache_free(struct pglist_data *pgdat, struct mm_ctx *ctx,
                     enum kmem_cache_id cache, slab_obj_t obj)
{
	struct kmem_cache *s = cache_of(pgdat, cache);

	VM_BUG_ON(obj >= s->nr_objs || !(s->objs[obj].flags & OBJ_INUSE));
	if (obj >= s->nr_objs || !(s->objs[obj].flags & OBJ_INUSE))
		return;                 /* a double free: ignored without DEBUG_VM */
	__kmem_cache_free(pgdat, ctx ? ctx : &fallback_ctx, s, obj);
	slab_tick(pgdat);
}

void kmem_cache_touch(struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj)
{
	struct kmem_cache *s = cache_of(pgdat, cache);

	VM_BUG_ON(obj >= s->nr_objs || !(s->objs[obj].flags & OBJ_INUSE));
	if (obj >= s->nr_objs)
		return;
	/* retain_dentry() / inode_lru_list_add(): already on the LRU, so
	 * only the referenced bit is set */
	if (s->objs[obj].flags & OBJ_ON_LRU)
		s->objs[obj].flags |= OBJ_REFERENCED;
}

bool kmem_cache_lru_add(struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj)
{
	struct kmem_cache *s = cache_of(pgdat, cache);

	VM_BUG_ON(obj >= s->nr_objs || !(s->objs[obj].flags & OBJ_INUSE) || !s->has_lru);
	if (obj >= s->nr_objs || !s->has_lru || (s->objs[obj].flags & OBJ_ON_LRU))
		return false;
	/* list_lru_add(): at the hot end, without the referenced bit */
	s->objs[obj].flags &= (uint8_t)~OBJ_REFERENCED;
	lru_add_tail(s, obj);
	return true;
}

bool kmem_cache_lru_del(struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj)
{
	struct kmem_cache *s = cache_of(pgdat, cache);

	VM_BUG_ON(obj >= s->nr_objs || !(s->objs[obj].flags & OBJ_INUSE));
	if (obj >= s->nr_objs || !(s->objs[obj].flags & OBJ_ON_LRU))
		return false;
	lru_del(s, obj);
	return true;
}

bool kmem_cache_on_lru(const struct pglist_data *pgdat, enum kmem_cache_id cache, slab_obj_t obj)
{
	const struct kmem_cache *s = &pgdat->slab->caches[cache];

	return obj < s->nr_objs && (s->objs[obj].flags & OBJ_ON_LRU);
}

unsigned long kmem_cache_lru_count(const struct pglist_data *pgdat, enum kmem_cache_id cache)
{
	if (!pgdat->slab || (unsigned)cache >= pgdat->slab->nr_caches)
		return 0;
	return pgdat->slab->caches[cache].lru.nr;
}

/* ------------------------------------------------------------------ */
/* the superblock shrinker                                             */

/* mult_frac(x, n, d) without overflow of x * n */
static inline unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d)
{
	return (x / d) * n + ((x % d) * n) / d;
}

/* prune_dcache_sb() / prune_icache_sb(): list_lru_walk of nr_to_walk
 * objects from the cold end */
static void prune_lru(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kmem_cache *s,
                      unsigned long nr_to_walk)
{
	while (nr_to_walk && s->lru.first != SLAB_OBJ_NONE) {
		uint32_t h = s->lru.first;
		struct slab_object *o = &s->objs[h];
		bool referenced = o->flags & OBJ_REFERENCED;
		enum lru_status st = referenced ? LRU_ROTATE : LRU_FREE;
		uint32_t owner = o->owner;

		nr_to_walk--;
		charge(ctx, pgdat->costs.shrinker_object_ns);
		/* dentry_lru_isolate() / inode_lru_isolate(): the owner's say */
		if (pgdat->slab_isolate)
			st = (enum lru_status)pgdat->slab_isolate(pgdat, ctx, (int)s->id, owner, referenced);
		switch (st) {
		case LRU_REMOVED:
			/* in use after all: off the LRU, not freed */
			lru_del(s, h);
			continue;
		case LRU_ROTATE:
			/* a second chance */
			o->flags &= (uint8_t)~OBJ_REFERENCED;
			lru_del(s, h);
			lru_add_tail(s, h);
			continue;
		case LRU_RETRY:
			/* the owner dropped a lock and changed it (an inode's
			 * mapping invalidated): the walk starts again at the
			 * cold end, where it still is */
			continue;
		case LRU_FREE:
			break;
		}
		__kmem_cache_free(pgdat, ctx, s, h);
		if (pgdat->slab_evicted)
			pgdat->slab_evicted(pgdat, ctx, (int)s->id, owner);
	}
}

/* super_cache_count(): both LRUs, scaled by vfs_cache_pressure */
static unsigned long super_cache_count(struct pglist_data *pgdat, struct shrinker *sh)
{
	const struct slab_state *ss = pgdat->slab;
	unsigned long total = ss->caches[DENTRY_CACHE].lru.nr + ss->caches[INODE_CACHE].lru.nr;
	int pressure = pgdat->sysctl.vfs_cache_pressure;

	(void)sh;
	if (!total || pressure <= 0)
		return 0;
	return mult_frac(total, (unsigned long)pressure, 100);   /* vfs_pressure_ratio() */
}

/* super_cache_scan(): the batch split between dentries and inodes in
 * proportion to their LRUs, dentries first (they pin inodes); it leaves
 * nr_scanned as the caller set it (nr_to_scan) */
static unsigned long super_cache_scan(struct pglist_data *pgdat, struct mm_ctx *ctx, struct shrinker *sh,
                                      unsigned long nr_to_scan, unsigned long *nr_scanned)
{
	struct slab_state *ss = pgdat->slab;
	unsigned long dentries = ss->caches[DENTRY_CACHE].lru.nr;
	unsigned long inodes = ss->caches[INODE_CACHE].lru.nr;
	unsigned long total = dentries + inodes + 1;
	unsigned long before = ss->caches[DENTRY_CACHE].lru.nr + ss->caches[INODE_CACHE].lru.nr;

	(void)sh;
	(void)nr_scanned;
	dentries = mult_frac(nr_to_scan, dentries, total);
	inodes = mult_frac(nr_to_scan, inodes, total);
	/* "always scan at least one object" */
	prune_lru(pgdat, ctx, &ss->caches[DENTRY_CACHE], dentries + 1);
	prune_lru(pgdat, ctx, &ss->caches[INODE_CACHE], inodes + 1);
	return before - (ss->caches[DENTRY_CACHE].lru.nr + ss->caches[INODE_CACHE].lru.nr);
}

void register_shrinker(struct pglist_data *pgdat, struct shrinker *s)
{
	struct shrinker **pp = &pgdat->shrinkers;

	while (*pp)
		pp = &(*pp)->next;
	s->next = NULL;
	s->nr_deferred = 0;
	*pp = s;
}

void unregister_shrinker(struct pglist_data *pgdat, struct shrinker *s)
{
	for (struct shrinker **pp = &pgdat->shrinkers; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			s->next = NULL;
			return;
		}
}

/* do_shrink_slab() of v6.2 for one shrinker */
static void do_shrink_slab(struct pglist_data *pgdat, struct mm_ctx *ctx, struct shrinker *sh, int priority)
{
	const long batch_size = sh->batch ? sh->batch : SHRINK_BATCH;
	long freeable, nr, delta, total_scan, scanned = 0, next_deferred;

	freeable = (long)sh->count_objects(pgdat, sh);
	if (freeable == 0)
		return;
	/* xchg_nr_deferred() */
	nr = sh->nr_deferred;
	sh->nr_deferred = 0;

	if (sh->seeks) {
		delta = (priority < (int)(8 * sizeof(long) - 1) ? freeable >> priority : 0);
		delta = delta * 4 / sh->seeks;
	} else {
		/* objects that cost nothing to make again: trim half a call */
		delta = freeable / 2;
	}

	total_scan = priority < (int)(8 * sizeof(long) - 1) ? nr >> priority : 0;
	total_scan += delta;
	if (total_scan > 2 * freeable)
		total_scan = 2 * freeable;

	/* scan at least a batch, unless the whole cache is asked for */
	while (total_scan >= batch_size || total_scan >= freeable) {
		unsigned long nr_to_scan = (unsigned long)(total_scan < batch_size ? total_scan : batch_size);
		unsigned long nr_scanned = nr_to_scan;

		if (sh->scan_objects(pgdat, ctx, sh, nr_to_scan, &nr_scanned) == SHRINK_STOP)
			break;
		count_vm_events(pgdat, SLABS_SCANNED, nr_scanned);
		total_scan -= (long)nr_scanned;
		scanned += (long)nr_scanned;
	}

	/* work not done is deferred, at most twice the freeable objects */
	next_deferred = nr + delta - scanned;
	if (next_deferred < 0)
		next_deferred = 0;
	if (next_deferred > 2 * freeable)
		next_deferred = 2 * freeable;
	sh->nr_deferred += next_deferred;     /* add_nr_deferred() */
}

unsigned long shrink_slab(struct pglist_data *pgdat, struct mm_ctx *ctx, int priority)
{
	struct slab_state *ss = pgdat->slab;
	unsigned long before;

	if (!ss)
		return 0;
	if (priority < 0)
		priority = 0;
	before = ss->pages_freed;
	for (struct shrinker *sh = pgdat->shrinkers; sh; sh = sh->next)
		do_shrink_slab(pgdat, ctx ? ctx : &fallback_ctx, sh, priority);
	slab_tick(pgdat);
	/* reclaim_state->reclaimed_slab: every slab page freed meanwhile */
	return ss->pages_freed - before;
}

/* ------------------------------------------------------------------ */
/* setup                                                               */

static unsigned ilog2_u(unsigned v)
{
	unsigned r = 0;
	while (v >>= 1)
		r++;
	return r;
}

/* kmem_cache_open(): the flags the slab pages are allocated with and
 * min_partial, from the cache's geometry */
static void cache_setup(struct kmem_cache *s, const struct kmem_cache_info *ci, int id)
{
	unsigned min_partial = ilog2_u(ci->object_size) / 2;

	s->info = ci;
	s->id = (enum kmem_cache_id)id;
	/* calculate_sizes(): compound pages for order > 0, and
	 * SLAB_RECLAIM_ACCOUNT's __GFP_RECLAIMABLE */
	s->allocflags = (ci->order ? __GFP_COMP : 0) | (ci->reclaimable ? __GFP_RECLAIMABLE : 0);
	if (min_partial < MIN_PARTIAL)
		min_partial = MIN_PARTIAL;
	if (min_partial > MAX_PARTIAL)
		min_partial = MAX_PARTIAL;
	s->min_partial = min_partial;
	s->has_lru = id == DENTRY_CACHE || id == INODE_CACHE;
	s->free_objs = SLAB_OBJ_NONE;
	s->partial.first = s->partial.last = PFN_NONE;
	s->full.first = s->full.last = PFN_NONE;
	s->lru.first = s->lru.last = SLAB_OBJ_NONE;
}

int slab_init(struct pglist_data *pgdat)
{
	struct slab_state *ss;

	if (pgdat->slab)
		return 0;
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return -1;
	for (int id = 0; id < NR_KMEM_CACHES; id++) {
		cache_setup(&ss->caches[id], &kmem_cache_info[id], id);
		snprintf(ss->caches[id].name, sizeof(ss->caches[id].name), "%s", kmem_cache_info[id].name);
	}
	ss->nr_caches = NR_KMEM_CACHES;
	pgdat->slab = ss;
	ss->sb_shrinker.count_objects = super_cache_count;
	ss->sb_shrinker.scan_objects = super_cache_scan;
	ss->sb_shrinker.seeks = DEFAULT_SEEKS;
	register_shrinker(pgdat, &ss->sb_shrinker);
	return 0;
}

int kmem_cache_find(const struct pglist_data *pgdat, const char *name)
{
	const struct slab_state *ss = pgdat->slab;

	for (unsigned id = 0; ss && id < ss->nr_caches; id++)
		if (!strcmp(ss->caches[id].name, name))
			return (int)id;
	return -1;
}

/* The geometry must be one SLUB could have made: objects that fit the
 * slab, a slab order SLUB uses (at most PAGE_ALLOC_COSTLY_ORDER unless
 * one object needs more) */
static bool geometry_ok(const struct kmem_cache_info *ci)
{
	return ci->object_size >= 8 && ci->objs_per_slab >= 1 && ci->order < MAX_ORDER &&
	       (unsigned long)ci->objs_per_slab * ci->object_size <= (PAGE_SIZE << ci->order) &&
	       ci->min_order <= ci->order;
}

int kmem_cache_create(struct pglist_data *pgdat, const char *name, unsigned object_size,
                      unsigned objs_per_slab, unsigned order, bool reclaimable)
{
	struct slab_state *ss = pgdat->slab;
	struct kmem_cache *s;
	struct kmem_cache_info ci = {
		.object_size = object_size, .objs_per_slab = objs_per_slab, .order = order,
		.reclaimable = reclaimable,
	};
	int id;

	/* oo_min: the smallest order that holds one object (get_order(size)) */
	while ((PAGE_SIZE << ci.min_order) < object_size && ci.min_order < order)
		ci.min_order++;
	if (!ss || !name || !*name || strlen(name) >= sizeof(s->name) || !geometry_ok(&ci))
		return -1;
	id = kmem_cache_find(pgdat, name);
	if (id >= 0) {
		/* the machine's own geometry for a cache the model has:
		 * only while it holds no slab */
		s = &ss->caches[id];
		if (s->slabs || s->objects)
			return -1;
		if (s->info->object_size == object_size && s->info->objs_per_slab == objs_per_slab &&
		    s->info->order == order && s->info->reclaimable == reclaimable)
			return id;
	} else {
		if (ss->nr_caches == MAX_KMEM_CACHES)
			return -1;
		id = (int)ss->nr_caches++;
		s = &ss->caches[id];
	}
	if (s->name != name)
		snprintf(s->name, sizeof(s->name), "%s", name);
	s->own_info = ci;
	s->own_info.name = s->name;
	cache_setup(s, &s->own_info, id);
	return id;
}

static void free_slab_list(struct pglist_data *pgdat, struct mm_ctx *ctx, struct kmem_cache *s,
                           struct slab_list *l)
{
	while (l->first != PFN_NONE) {
		uint32_t pfn = l->first;

		slab_list_del(pgdat, l, pfn);
		pgdat->mem_map[pfn].private = 0;
		discard_slab(pgdat, ctx, s, pfn);
	}
}

void slab_destroy(struct pglist_data *pgdat)
{
	struct slab_state *ss = pgdat->slab;
	struct mm_ctx ctx = { .cpu = 0 };

	if (!ss)
		return;
	for (int id = 0; id < (int)ss->nr_caches; id++) {
		struct kmem_cache *s = &ss->caches[id];

		free_slab_list(pgdat, &ctx, s, &s->partial);
		free_slab_list(pgdat, &ctx, s, &s->full);
		free(s->objs);
	}
	unregister_shrinker(pgdat, &ss->sb_shrinker);
	free(ss);
	pgdat->slab = NULL;
}

void slab_cache_usage(const struct pglist_data *pgdat, enum kmem_cache_id cache,
                      unsigned long *objects, unsigned long *slabs)
{
	const struct kmem_cache *s;

	if (!pgdat->slab || (unsigned)cache >= pgdat->slab->nr_caches) {
		if (objects)
			*objects = 0;
		if (slabs)
			*slabs = 0;
		return;
	}
	s = &pgdat->slab->caches[cache];
	if (objects)
		*objects = s->objects;
	if (slabs)
		*slabs = s->slabs;
}
