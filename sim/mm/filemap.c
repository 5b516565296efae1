/* filemap.c - the page cache (mm/filemap.c, mm/page-writeback.c, the
 * dcache/icache as far as memory goes).
 *
 * Files are read and written through the page cache with read()/write()
 * semantics: hits are copies, misses allocate a page with the mapping's
 * gfp mask, check the shadow entry for a refault, and read from the disk
 * (the reader waits).  A read marks every page it returns accessed, the
 * pages its misses just added included (v6.2 filemap_read()); a write
 * marks the pages it finds.  Regular files use
 * GFP_HIGHUSER_MOVABLE; the block-device cache (filesystem metadata) uses
 * the policy's bdev mapping gfp, GFP_USER in v6.2 (RFC 01/26 makes it
 * movable), and carries a buffer_head per page.  Opening a file the first
 * time, or after the shrinkers dropped its dentry and inode, allocates
 * them from the reclaimable slab caches.
 *
 * Dirty pages are queued in dirtying order; the flusher writes back those
 * older than vm.dirty_expire_centisecs.
 *
 * With [kernel] large_folios (ext4 from 6.16), read() of a regular file
 * goes through readahead as 6.12's mm/readahead.c does it: a window per
 * file that ramps up to read_ahead_kb, read in folios of growing order
 * (page_cache_ra_order()), up to PMD order; [kernel] readahead_order says
 * whether the order comes from the marked folio (6.12) or from the state
 * (file_ra_state's order, the running 6.18).  Without it, a read reads
 * the pages it asks for, at order 0, and nothing ahead (the model before
 * large folios; docs/model.md, "Readahead and large folios"). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mmsim/hugetlb.h"
#include "mmsim/dcache.h"
#include "mmsim/i915_gem.h"
#include "mmsim/slab.h"

struct dirty_entry {
	uint32_t ino, index;
	double t;
};
struct dirty_ring {
	struct dirty_entry *e;
	size_t head, len, cap;
};

static void dirty_push(struct pglist_data *pgdat, uint32_t ino, uint32_t index)
{
	struct dirty_ring *r = pgdat->dirty;

	if (!r) {
		r = pgdat->dirty = calloc(1, sizeof(*r));
		if (!r)
			abort();
	}
	if (r->len == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct dirty_entry *n = malloc(cap * sizeof(*n));
		if (!n)
			abort();
		for (size_t i = 0; i < r->len; i++)
			n[i] = r->e[(r->head + i) % r->cap];
		free(r->e);
		r->e = n;
		r->head = 0;
		r->cap = cap;
	}
	r->e[(r->head + r->len++) % r->cap] = (struct dirty_entry){ ino, index, pgdat_now(pgdat) };
}

/* The xarray's leaf nodes (struct xa_node, radix_tree_node slab): one per
 * 64 slots in use (XA_CHUNK_SHIFT 6), allocated when the first entry of
 * its range is stored and kept while any entry, page or shadow, remains;
 * a file of one page keeps its entry in xa_head.  The upper levels of
 * files over 4096 pages are not counted, nor does the model have the
 * shadow-node shrinker (workingset_shadow_shrinker): slots never empty
 * (nothing truncates), so nodes are never freed before teardown. */
#define XA_CHUNK_SHIFT 6

static unsigned long xa_nr_chunks(unsigned long size)
{
	return (size + (1ul << XA_CHUNK_SHIFT) - 1) >> XA_CHUNK_SHIFT;
}

static void xa_nodes_grow(struct address_space *as, unsigned long old_size, unsigned long size)
{
	unsigned long from = as->xa_nodes ? xa_nr_chunks(old_size) : 0, to = xa_nr_chunks(size);

	if (size <= 1 || (as->xa_nodes && to <= from))
		return;
	as->xa_nodes = realloc(as->xa_nodes, to * sizeof(uint32_t));
	if (!as->xa_nodes)
		abort();
	for (unsigned long c = from; c < to; c++)
		as->xa_nodes[c] = SLAB_OBJ_NONE;
}

/* xas_nomem(): the node for this index, allocated (with the mapping's
 * reclaim flags) if the range has none yet.  The allocation may sleep in
 * reclaim and another reader allocate it meanwhile: ours goes back. */
static int xa_node_get(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                       unsigned long index)
{
	unsigned long c = index >> XA_CHUNK_SHIFT;
	slab_obj_t obj;

	if (!as->xa_nodes || as->xa_nodes[c] != SLAB_OBJ_NONE)
		return 0;
	obj = kmem_cache_alloc(pgdat, ctx, RADIX_TREE_NODE_CACHE, as->bdev ? GFP_NOFS : GFP_KERNEL, as->ino);
	if (obj == SLAB_OBJ_NONE)
		return -1;
	if (as->xa_nodes[c] == SLAB_OBJ_NONE) {
		as->xa_nodes[c] = obj;
		as->nr_xa_nodes++;
	} else
		kmem_cache_free(pgdat, ctx, RADIX_TREE_NODE_CACHE, obj);
	return 0;
}

/* file_ra_state_init(): no window, no read yet (prev_pos = -1) */
static void file_ra_state_init(struct file_ra_state *ra)
{
	*ra = (struct file_ra_state){ .prev_index = ULONG_MAX, .mark_index = RA_NO_MARK, .mark_pfn = RA_NO_MARK };
}

struct address_space *inode_create(struct pglist_data *pgdat, unsigned long size_pages, bool bdev)
{
	struct address_space *as = calloc(1, sizeof(*as));

	if (!as)
		return NULL;
	if (pgdat->nr_inodes == pgdat->cap_inodes) {
		uint32_t cap = pgdat->cap_inodes ? pgdat->cap_inodes * 2 : 256;
		struct address_space **t = realloc(pgdat->inodes, cap * sizeof(*t));
		if (!t) {
			free(as);
			return NULL;
		}
		pgdat->inodes = t;
		pgdat->cap_inodes = cap;
	}
	as->i_pages = calloc(size_pages ? size_pages : 1, sizeof(uint32_t));
	if (!as->i_pages) {
		free(as);
		return NULL;
	}
	as->ino = pgdat->nr_inodes;
	xa_nodes_grow(as, 0, size_pages);
	as->size = size_pages;
	as->bdev = bdev;
	as->dname = DNAME_NONE;
	as->inode = SLAB_OBJ_NONE;
	file_ra_state_init(&as->ra);
	pgdat->inodes[pgdat->nr_inodes++] = as;
	return as;
}

struct address_space *inode_lookup(const struct pglist_data *pgdat, uint32_t ino)
{
	return ino < pgdat->nr_inodes ? pgdat->inodes[ino] : NULL;
}

struct address_space *inode_get_named(struct pglist_data *pgdat, const char *name, unsigned long size_pages)
{
	struct address_space *as;

	for (uint32_t i = 0; i < pgdat->nr_inodes; i++)
		if (pgdat->inodes[i]->name && !strcmp(pgdat->inodes[i]->name, name))
			return pgdat->inodes[i];
	if ((as = inode_create(pgdat, size_pages, false)))
		as->name = name;
	return as;
}

/* open(): the path walk to the file (dcache.c): its dentry and inode are
 * cached, or made again */
static int file_open(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as)
{
	if (as->bdev)
		return 0;
	return d_open_file(pgdat, ctx, as, NULL);
}

static void file_grow(struct address_space *as, unsigned long size)
{
	if (size <= as->size)
		return;
	as->i_pages = realloc(as->i_pages, size * sizeof(uint32_t));
	if (!as->i_pages)
		abort();
	memset(as->i_pages + as->size, 0, (size - as->size) * sizeof(uint32_t));
	xa_nodes_grow(as, as->size, size);
	as->size = size;
}

/* a page allocated for the page cache and not inserted goes back */
static void page_cache_discard(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                               struct page *p)
{
	if (as->bdev)
		kmem_cache_free(pgdat, ctx, BUFFER_HEAD_CACHE, p->private);
	p->private = 0;
	p->owner = PGOWN_NONE;
	p->mapping = p->index = 0;
	__free_pages(pgdat, ctx, p, 0);
}

/* v6.2 block/bdev.c bdev_alloc_inode(): the block-device cache is
 * GFP_USER, unmovable */
gfp_t bdev_mapping_gfp(const struct mm_policy *p)
{
	(void)p;
	return GFP_USER;
}

/* filemap_add_folio() + folio_add_lru(), with the refault check, which
 * v6.2 skips for a page allocated to be written (__GFP_WRITE): data about
 * to be overwritten is no workingset refault */
static struct page *page_cache_alloc(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                     struct address_space *as, unsigned long index, bool write)
{
	gfp_t gfp = as->bdev ? pol(pgdat)->bdev_mapping_gfp(pgdat->policy) : GFP_HIGHUSER_MOVABLE;
	struct page *p = alloc_pages(pgdat, ctx, gfp, 0);
	unsigned long pfn;
	uint32_t e;

	if (!p)
		return NULL;
	pfn = page_to_pfn(pgdat, p);
	p->owner = as->bdev ? PGOWN_BDEV : PGOWN_FILE;
	p->mapping = as->ino;
	p->index = (uint32_t)index;
	if (as->bdev) {
		/* create_empty_buffers(): the buffer_head describing the block */
		slab_obj_t bh = kmem_cache_alloc(pgdat, ctx, BUFFER_HEAD_CACHE, GFP_NOFS, (uint32_t)pfn);
		if (bh == SLAB_OBJ_NONE) {
			__free_pages(pgdat, ctx, p, 0);
			return NULL;
		}
		p->private = bh;
	}
	/* the slot's xarray node */
	if (xa_node_get(pgdat, ctx, as, index)) {
		page_cache_discard(pgdat, ctx, as, p);
		return NULL;
	}
	/* the allocations may have slept (reclaim throttling), and another
	 * reader added the page meanwhile: filemap_add_folio() fails with
	 * -EEXIST and the caller uses that page (a read marks it accessed as
	 * it marks every page it reads; readahead and a write do not) */
	e = as->i_pages[index];
	if (entry_present(e)) {
		page_cache_discard(pgdat, ctx, as, p);
		return &pgdat->mem_map[entry_pfn(e)];
	}
	if (entry_nonres(e) && !write)
		workingset_refault(pgdat, p, e & ENTRY_VAL_MASK, true, 1);
	as->i_pages[index] = ENTRY_PRESENT | (uint32_t)pfn;
	as->nrpages++;
	mod_node_page_state(pgdat, NR_FILE_PAGES, 1);
	lruvec_add_page(pgdat, pfn, false);
	ctx->kernel_ns += pgdat->costs.pagecache_add_ns;
	return p;
}

/* ------------------------------------------------------------------ */
/* large folios and readahead (mm/readahead.c) */

/* MAX_PAGECACHE_ORDER on x86-64: PMD order (PREFERRED_MAX_PAGECACHE_ORDER) */
#define MAX_PAGECACHE_ORDER HPAGE_PMD_ORDER

/* the bdi's ra_pages: read_ahead_kb in pages */
static unsigned long ra_max_pages(const struct pglist_data *pgdat)
{
	unsigned long n = pgdat->sysctl.read_ahead_kb >> (PAGE_SHIFT - 10);

	return n ? n : 1;
}

/* the head pfn of the folio that page-cache entry e points into */
static inline unsigned long entry_folio(const struct pglist_data *pgdat, uint32_t e)
{
	const struct page *p = &pgdat->mem_map[entry_pfn(e)];

	return PageTail(p) ? p->next : entry_pfn(e);
}

/* a page-cache folio that left its file (or never entered it) goes back:
 * prep_new_page() rewrites only the tails' flags, so their owner, mapping
 * and index are cleared here */
void filemap_free_folio(struct pglist_data *pgdat, struct mm_ctx *ctx, struct page *p)
{
	unsigned order = PageHead(p) ? page_order(p) : 0;

	for (unsigned long i = 1; i < (1ul << order); i++) {
		p[i].owner = PGOWN_NONE;
		p[i].mapping = p[i].index = 0;
	}
	p->owner = PGOWN_NONE;
	p->mapping = p->index = 0;
	__free_pages(pgdat, ctx, p, order);
}

/* what one read()'s readahead brought in: pages (one request to the
 * disk) and, of them, those whose slot held a shadow entry */
struct ra_io {
	unsigned long pages, shadowed;
};

enum { RA_OK, RA_ENOMEM, RA_EEXIST };

/* ra_alloc_folio() + filemap_add_folio(): a folio of 2^order pages at
 * index (aligned to its order), allocated with readahead_gfp_mask(), the
 * mapping's GFP_HIGHUSER_MOVABLE with __GFP_NORETRY | __GFP_NOWARN (and
 * __GFP_COMP above order 0), less __GFP_FS (memalloc_nofs_save()), goes into the page cache and on the inactive
 * file list (its head: the LRU code sizes an entry by its order).  Every
 * slot of its range points at its page (the xarray's multi-index entry,
 * one slot per page here).  A slot already holding a page fails the add
 * (-EEXIST) after the allocation, as in the kernel; over shadow entries
 * the folio is one refault of nr pages (the kernel looks at the last
 * shadow of the range; a folio evicted whole left the same one in each).
 * It carries PG_readahead if mark falls in it. */
static int ra_alloc_folio(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                          unsigned long index, unsigned order, unsigned long mark, struct ra_io *io)
{
	/* readahead runs under memalloc_nofs_save() (page_cache_ra_order(),
	 * page_cache_ra_unbounded()): the allocation loses __GFP_FS, as the
	 * real 6.18's mm_vmscan_wakeup_kswapd shows for the streamer's folios
	 * (GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|
	 * __GFP_COMP|__GFP_HARDWALL, real/README.md "The traced pair"): its
	 * direct compaction migrates no file page and its direct reclaim runs
	 * no fs shrinker */
	gfp_t gfp = (GFP_HIGHUSER_MOVABLE & ~__GFP_FS) | __GFP_NORETRY | __GFP_NOWARN |
	            (order ? __GFP_COMP : 0);
	unsigned long nr = 1ul << order, pfn, shadowed = 0;
	uint32_t shadow = 0;
	struct page *p = alloc_pages(pgdat, ctx, gfp, order);

	if (!p)
		return RA_ENOMEM;
	pfn = page_to_pfn(pgdat, p);
	for (unsigned long i = 0; i < nr; i++) {
		p[i].owner = PGOWN_FILE;
		p[i].mapping = as->ino;
		p[i].index = (uint32_t)(index + i);
	}
	/* the xarray nodes of the range (a node holds 64 slots) */
	for (unsigned long c = index >> XA_CHUNK_SHIFT; c <= (index + nr - 1) >> XA_CHUNK_SHIFT; c++)
		if (xa_node_get(pgdat, ctx, as, c << XA_CHUNK_SHIFT)) {
			filemap_free_folio(pgdat, ctx, p);
			return RA_ENOMEM;
		}
	/* the allocations may have slept: another reader may have added a
	 * page of the range meanwhile (xas_for_each_conflict) */
	for (unsigned long i = index; i < index + nr; i++) {
		uint32_t e = as->i_pages[i];

		if (entry_present(e)) {
			filemap_free_folio(pgdat, ctx, p);
			return RA_EEXIST;
		}
		if (entry_nonres(e)) {
			shadow = e;
			shadowed++;
		}
	}
	if (shadow)
		workingset_refault(pgdat, p, shadow & ENTRY_VAL_MASK, true, nr);
	for (unsigned long i = 0; i < nr; i++)
		as->i_pages[index + i] = ENTRY_PRESENT | (uint32_t)(pfn + i);
	as->nrpages += nr;
	mod_node_page_state(pgdat, NR_FILE_PAGES, (long)nr);
	if (order)
		as->nr_large_folios++;
	lruvec_add_page(pgdat, pfn, false);
	ctx->kernel_ns += pgdat->costs.pagecache_add_ns;
	/* folio_set_readahead() on the folio that holds the mark */
	if (mark != ULONG_MAX && index == (mark & ~(nr - 1))) {
		as->ra.mark_index = (uint32_t)index;
		as->ra.mark_pfn = (uint32_t)pfn;
	}
	io->pages += nr;
	io->shadowed += shadowed;
	return RA_OK;
}

/* do_page_cache_ra() / page_cache_ra_unbounded(): order-0 pages over
 * [index, end), the cached ones skipped; a failed allocation ends it */
static void do_page_cache_ra(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                             unsigned long index, unsigned long end, unsigned long mark, struct ra_io *io)
{
	if (end > as->size)
		end = as->size;
	for (unsigned long i = index; i < end; i++) {
		if (entry_present(as->i_pages[i]))
			continue;
		if (fatal_signal_pending(ctx))
			break;
		if (ra_alloc_folio(pgdat, ctx, as, i, 0, mark, io) == RA_ENOMEM)
			break;
	}
}

/* page_cache_ra_order(): the window ra describes, in folios of new_order
 * (at most MAX_PAGECACHE_ORDER and ilog2 of the window), smaller where
 * the index is not aligned to it or the folio would pass the end of the
 * window or of the file.  6.12 takes the order the caller names and adds
 * 2 to it here; with file_ra_state's order (readahead_order =
 * file_ra_state) the callers have set ra->order, the cap is stored back
 * into it, before the loop, so that a failed allocation leaves it where
 * it was.  A folio that cannot be had (the allocation failed, or a page
 * of its range is cached) ends the loop, and the rest of the window is
 * read at order 0 (the fallback, as is a file without large folio
 * support: the model's mapped files, see filemap_split_folios(); and in
 * 6.12 a window under 4 pages) */
static void page_cache_ra_order(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                                unsigned new_order, struct ra_io *io)
{
	/* the window as it is now: the allocations may sleep, and another
	 * reader of the file change the state meanwhile */
	struct file_ra_state *ra = &as->ra;
	unsigned long index = ra->start, end = ra->start + ra->size, mark = end - ra->async_size, limit;
	bool ra_state = pgdat->sysctl.readahead_order == RA_ORDER_FILE_RA_STATE;

	if (!ra->size || ra->start >= as->size)
		return;
	if (ra_state && as->nr_i_mmap)
		ra->order = 0;
	if (!as->nr_i_mmap && (ra_state || ra->size >= 4)) {
		limit = as->size - 1;
		if (limit > index + ra->size - 1)
			limit = index + ra->size - 1;
		if (ra_state)
			new_order = ra->order;
		else if (new_order < MAX_PAGECACHE_ORDER)
			new_order += 2;
		if (new_order > MAX_PAGECACHE_ORDER)
			new_order = MAX_PAGECACHE_ORDER;
		if (new_order > (unsigned)(63 - __builtin_clzl(ra->size)))       /* ilog2 */
			new_order = (unsigned)(63 - __builtin_clzl(ra->size));
		if (ra_state)
			ra->order = new_order;
		while (index <= limit) {
			unsigned order = new_order;

			if (index & ((1ul << order) - 1))
				order = (unsigned)__builtin_ctzl(index);         /* __ffs */
			while (order > 0 && index + (1ul << order) - 1 > limit)
				order--;
			if (fatal_signal_pending(ctx) || ra_alloc_folio(pgdat, ctx, as, index, order, mark, io))
				break;
			index += 1ul << order;
		}
		if (index > limit)
			return;
	}
	do_page_cache_ra(pgdat, ctx, as, index, end, mark, io);
}

/* get_init_ra_size(): the first window, 2 or 4 times the read rounded up
 * to a power of two, or the maximum */
static unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = 1;

	while (newsize < size)
		newsize <<= 1;          /* roundup_pow_of_two */
	if (newsize <= max / 32)
		return newsize * 4;
	if (newsize <= max / 4)
		return newsize * 2;
	return max;
}

/* get_next_ra_size(): each window 4 then 2 times the last, up to max */
static unsigned long get_next_ra_size(unsigned long cur, unsigned long max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* page_cache_sync_ra(): a read of req_count pages misses at index.  At
 * the start of the file, after the previous read (index - prev_index <=
 * 1) or for a read larger than the window, a new window starts at index;
 * any other miss is a small random read of just the pages asked for, at
 * order 0, which leaves the state alone.  Left out: page_cache_prev_miss()'s
 * look at the cached history before index (a miss that follows cached
 * pages the reader did not read through this file's state), and
 * ractl_max_pages()'s io_pages for reads over the window. */
static void page_cache_sync_ra(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                               unsigned long index, unsigned long req_count, struct ra_io *io)
{
	struct file_ra_state *ra = &as->ra;
	unsigned long max = ra_max_pages(pgdat);

	if (!index || req_count > max || index - ra->prev_index <= 1ul) {
		ra->start = index;
		ra->size = get_init_ra_size(req_count, max);
		ra->async_size = ra->size > req_count ? ra->size - req_count : ra->size >> 1;
		/* the model keeps one mark per file: a new window's replaces
		 * the old one's */
		ra->mark_index = ra->mark_pfn = RA_NO_MARK;
		ra->order = 0;          /* file_ra_state: a new stream starts at order 0 */
		page_cache_ra_order(pgdat, ctx, as, 0, io);
		return;
	}
	do_page_cache_ra(pgdat, ctx, as, index, index + req_count, ULONG_MAX, io);
}

/* page_cache_async_ra(): the read reached the folio marked PG_readahead
 * (head pfn, at index, of order), req_count pages from index to the end
 * of the read.  The mark is cleared; if it is where the window put it,
 * the next window follows this one, ramped up, all of it read ahead, in
 * folios two orders above the marked one (6.12) or above the last
 * window's (file_ra_state: then the window's end is also rounded down to
 * that order, up to the largest power of two dividing ra_pages, when
 * something is left).  Left out: a marked folio out of step with the
 * state (interleaved reads: the kernel guesses a window from
 * page_cache_next_miss()), which one mark per file cannot give. */
static void page_cache_async_ra(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                                unsigned long index, unsigned order, struct ra_io *io)
{
	struct file_ra_state *ra = &as->ra;
	unsigned long max = ra_max_pages(pgdat), next;

	ra->mark_index = ra->mark_pfn = RA_NO_MARK;
	if (index != ((ra->start + ra->size - ra->async_size) & ~((1ul << order) - 1)))
		return;
	ra->start += ra->size;
	next = get_next_ra_size(ra->size, max);
	if (next > ra->size)
		ra->size = next;
	if (pgdat->sysctl.readahead_order == RA_ORDER_FILE_RA_STATE) {
		unsigned max_align = (unsigned)__builtin_ctzl(max);     /* ffs(max_pages) - 1 */
		unsigned long align, end, aligned_end;

		ra->order += 2;
		align = 1ul << (ra->order < max_align ? ra->order : max_align);
		end = ra->start + ra->size;
		aligned_end = end & ~(align - 1);
		if (aligned_end > ra->start)
			ra->size -= end - aligned_end;
	}
	ra->async_size = ra->size;
	page_cache_ra_order(pgdat, ctx, as, order, io);
}

/* __split_huge_page() of a page-cache folio (head pfn): its pages
 * become order-0 pages of the file, each at its index, with the head's
 * LRU and reclaim flags (and PG_isolated when extra says so); the file
 * has one large folio less.  Leaves the LRU to the caller. */
static void split_folio_pages(struct pglist_data *pgdat, struct address_space *as, unsigned long head,
                              uint32_t extra)
{
	struct page *h = &pgdat->mem_map[head];
	unsigned long nr = 1ul << page_order(h);
	uint32_t keep = h->flags & ((1u << PG_active) | (1u << PG_referenced) | (1u << PG_young) |
	                            (1u << PG_workingset) | (1u << PG_reclaim) | extra | PAGE_ZONE_MASK);
	uint32_t index = h->index;

	for (unsigned long i = 0; i < nr; i++) {
		struct page *p = h + i;
		p->flags = keep;
		p->owner = PGOWN_FILE;
		p->mapping = as->ino;
		p->index = index + (uint32_t)i;
		p->refcount = 1;
		p->mapcount = 0;
		p->private = 0;
		p->next = p->prev = PFN_NONE;
	}
	as->nr_large_folios--;
}

/* split a large page-cache folio (head pfn) into order-0 pages, as
 * split_huge_page() of a file folio does: each keeps its slot and goes
 * on the LRU list the folio was on, after it, in order, with its flags */
static void split_file_folio(struct pglist_data *pgdat, struct address_space *as, unsigned long head)
{
	struct page *h = &pgdat->mem_map[head];
	unsigned long nr = 1ul << page_order(h);
	bool on_lru = PageLRU(h);

	VM_BUG_ON(!PageHead(h) || h->mapcount || PageTest(h, PG_dirty) || PageTest(h, PG_isolated));
	if (on_lru)
		lruvec_del_page(pgdat, head);
	split_folio_pages(pgdat, as, head, 0);
	for (unsigned long i = 0; on_lru && i < nr; i++)
		lruvec_add_page(pgdat, head + i, false);
}

/* split_folio_to_list() of a large page-cache folio compaction has
 * isolated (6.12's migrate_pages_batch() when no target of its order is
 * left): as split_file_folio(), but its pages stay isolated, off the LRU,
 * for the caller to migrate or put back one by one */
void filemap_split_isolated_folio(struct pglist_data *pgdat, unsigned long head)
{
	struct page *h = &pgdat->mem_map[head];

	VM_BUG_ON(!PageHead(h) || PageLRU(h) || !PageTest(h, PG_isolated) || h->owner != PGOWN_FILE ||
	          h->mapcount || PageTest(h, PG_dirty));
	split_folio_pages(pgdat, pgdat->inodes[h->mapping], head, 1u << PG_isolated);
}

void filemap_split_folios(struct pglist_data *pgdat, struct address_space *as, unsigned long index,
                          unsigned long nr)
{
	unsigned long end = index + nr < as->size ? index + nr : as->size;

	for (unsigned long i = index; as->nr_large_folios && i < end; i++) {
		uint32_t e = as->i_pages[i];
		unsigned long head;

		if (!entry_present(e) || !(PageHead(&pgdat->mem_map[entry_pfn(e)]) ||
		                           PageTail(&pgdat->mem_map[entry_pfn(e)])))
			continue;
		head = entry_folio(pgdat, e);
		i = pgdat->mem_map[head].index + (1ul << page_order(&pgdat->mem_map[head])) - 1;
		split_file_folio(pgdat, as, head);
	}
}

/* filemap_read() with large folios: filemap_get_pages() looks the read's
 * folios up in order; a missing one starts synchronous readahead
 * (page_cache_sync_ra()) and, if readahead did not bring it (a failed
 * allocation), filemap_create_folio() adds an order-0 page with the
 * mapping's gfp.  Each folio of the read is marked accessed once, on its
 * head, except a large first folio when the previous read of the file
 * ended in it (pos_same_folio(): the model's reads are whole pages, so
 * an order-0 page is always marked, as without large folios).  The state
 * is the inode's, not the open file's, so a read from index 0 is taken
 * as one from a fresh open (prev_pos -1): kbuild's jobs open a file and
 * read it whole, and a small file read again by the next job is one
 * folio its previous reader ended in.  Reaching the folio marked
 * PG_readahead starts the next window (page_cache_async_ra(), after the
 * mark here: the kernel's reference keeps the folio, the model's reclaim
 * could free it meanwhile).  What the call brought in goes out as one
 * request, which the reader waits for, the pages read ahead included. */
static int filemap_read_ra(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                           unsigned long index, unsigned long nr, struct filemap_read_stat *st)
{
	unsigned long end = index + nr < as->size ? index + nr : as->size, i = index;
	unsigned long prev_index = as->ra.prev_index, last = ULONG_MAX;
	struct ra_io io = { 0 };
	int ret = 0;

	while (i < end) {
		uint32_t e = as->i_pages[i];
		unsigned long head, next;
		unsigned order;
		struct page *h;

		if (fatal_signal_pending(ctx)) {
			ret = -1;
			break;
		}
		if (!entry_present(e)) {
			page_cache_sync_ra(pgdat, ctx, as, i, end - i, &io);
			e = as->i_pages[i];
		}
		if (!entry_present(e)) {
			/* filemap_create_folio(): the page alone, which may
			 * reclaim and retry as the mapping's gfp allows */
			bool shadow = entry_nonres(e);

			if (!page_cache_alloc(pgdat, ctx, as, i, false)) {
				ret = -1;
				break;
			}
			io.pages++;
			io.shadowed += shadow;
			e = as->i_pages[i];
		}
		head = entry_folio(pgdat, e);
		h = &pgdat->mem_map[head];
		order = PageHead(h) ? page_order(h) : 0;
		next = h->index + (1ul << order);
		if (!(last == ULONG_MAX && order && index && prev_index != ULONG_MAX &&
		      i >> order == (prev_index - 1) >> order))
			folio_mark_accessed(pgdat, head);
		if (as->ra.mark_index == h->index && as->ra.mark_pfn == head)
			page_cache_async_ra(pgdat, ctx, as, h->index, order, &io);
		last = next < end ? next : end;
		ctx->kernel_ns += pgdat->costs.pagecache_hit_ns * (double)(last - i);
		i = last;
	}
	if (last != ULONG_MAX)
		as->ra.prev_index = last;
	if (io.pages) {
		blockdev_io_wait(pgdat, ctx, &pgdat->disk, io.pages, false);
		count_vm_events(pgdat, PGPGIN, io.pages * (PAGE_SIZE >> 10));
	}
	if (st) {
		st->missed += io.pages;
		st->shadowed += io.shadowed;
	}
	return ret;
}

static int filemap_rw(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                      unsigned long index, unsigned long nr, bool write, struct filemap_read_stat *st)
{
	unsigned long misses = 0;
	int ret = 0;

	if (file_open(pgdat, ctx, as))
		return -1;
	if (!write && !as->bdev && pgdat->sysctl.large_folios)
		return filemap_read_ra(pgdat, ctx, as, index, nr, st);
	if (write)
		file_grow(as, index + nr);
	/* the model never dirties a large folio: the write's range is split
	 * into order-0 pages first */
	if (write && as->nr_large_folios)
		filemap_split_folios(pgdat, as, index, nr);
	for (unsigned long i = index; i < index + nr && i < as->size; i++) {
		uint32_t e = as->i_pages[i];
		struct page *p;

		if (ctx->mm && ctx->mm->oom_victim) {
			ret = -1;
			break;
		}
		if (entry_present(e)) {
			p = &pgdat->mem_map[entry_pfn(e)];
			if (write)
				folio_mark_accessed(pgdat, entry_pfn(e));
		} else {
			bool shadow = entry_nonres(e);

			p = page_cache_alloc(pgdat, ctx, as, i, write);
			if (!p) {
				ret = -1;
				break;
			}
			/* a write of a whole new page needs no read */
			if (!write)
				misses++;
			if (st && !write && shadow)
				st->shadowed++;
		}
		/* v6.2 filemap_read(): filemap_get_pages() returns the read's
		 * pages in batches, those a miss just added to the page cache
		 * included (page_cache_sync_readahead() or filemap_create_folio()
		 * add them with filemap_add_folio(), on the inactive list
		 * unless a refault activated them, and the batch is looked up
		 * again), and every folio of a batch is marked accessed once:
		 * fbatch.folios[0] unless pos_same_folio() (the read starts in
		 * the folio where this open file's previous read ended), the
		 * others always.  The model's reads are whole pages of a fresh
		 * read, so every page is marked: a page first read is
		 * referenced, read again it is activated (folio_mark_accessed). */
		if (!write)
			folio_mark_accessed(pgdat, page_to_pfn(pgdat, p));
		ctx->kernel_ns += pgdat->costs.pagecache_hit_ns;
		if (write && !PageTest(p, PG_dirty)) {
			SetPageFlag(p, PG_dirty);
			mod_node_page_state(pgdat, NR_FILE_DIRTY, 1);
			mod_node_page_state(pgdat, NR_DIRTIED, 1);
			dirty_push(pgdat, as->ino, (uint32_t)i);
		}
	}
	if (misses) {
		/* the readahead window goes out as one request; the reader waits */
		blockdev_io_wait(pgdat, ctx, &pgdat->disk, misses, false);
		count_vm_events(pgdat, PGPGIN, misses * (PAGE_SIZE >> 10));
	}
	if (st)
		st->missed += misses;
	return ret;
}

int filemap_read(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                 unsigned long index, unsigned long nr)
{
	return filemap_rw(pgdat, ctx, as, index, nr, false, NULL);
}

int filemap_read_stat(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                      unsigned long index, unsigned long nr, struct filemap_read_stat *st)
{
	return filemap_rw(pgdat, ctx, as, index, nr, false, st);
}

int filemap_write(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                  unsigned long index, unsigned long nr)
{
	return filemap_rw(pgdat, ctx, as, index, nr, true, NULL);
}

/* filemap_write_and_wait_range() (fsync of a range): the range's dirty
 * pages go out as one write request, which the caller waits for.  Their
 * entries in the dirty ring stay and are skipped by the flusher, as
 * pages cleaned by reclaim are. */
unsigned long filemap_write_and_wait_range(struct pglist_data *pgdat, struct mm_ctx *ctx,
                                           struct address_space *as, unsigned long index,
                                           unsigned long nr)
{
	unsigned long written = 0;

	for (unsigned long i = index; i < index + nr && i < as->size; i++) {
		uint32_t e = as->i_pages[i];
		struct page *p;

		if (!entry_present(e))
			continue;
		p = &pgdat->mem_map[entry_pfn(e)];
		if (!PageTest(p, PG_dirty))
			continue;
		ClearPageFlag(p, PG_dirty);
		mod_node_page_state(pgdat, NR_FILE_DIRTY, -1);
		mod_node_page_state(pgdat, NR_WRITTEN, 1);
		count_vm_events(pgdat, PGPGOUT, PAGE_SIZE >> 10);
		ctx->kernel_ns += pgdat->costs.pageout_ns;
		written++;
	}
	if (written)
		blockdev_io_wait(pgdat, ctx, &pgdat->disk, written, true);
	return written;
}

/* do_sync_mmap_readahead()'s read-around: ra_pages ([machine]
 * read_ahead_kb, 128 KiB by default: 32 pages) centred on the faulting
 * index, as page_cache_ra_order() reads them: the missing pages are
 * allocated and go out as one read, which the faulting task waits for;
 * pages already cached are not touched (a fault does not mark them
 * accessed).  Always order-0 pages, also with large folios (the model
 * maps no large file folio) */
int filemap_fault_read(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                       unsigned long index)
{
	unsigned long ra_pages = ra_max_pages(pgdat);
	unsigned long start = index > ra_pages / 2 ? index - ra_pages / 2 : 0;
	unsigned long end = start + ra_pages < as->size ? start + ra_pages : as->size;
	unsigned long misses = 0;

	for (unsigned long i = start; i < end; i++) {
		if (entry_present(as->i_pages[i]))
			continue;
		if (ctx->mm && ctx->mm->oom_victim)
			break;
		/* readahead is best effort: a failed page ends the window
		 * (the faulting page then fails the fault if it is missing) */
		if (!page_cache_alloc(pgdat, ctx, as, i, false))
			break;
		misses++;
	}
	if (misses) {
		blockdev_io_wait(pgdat, ctx, &pgdat->disk, misses, false);
		count_vm_events(pgdat, PGPGIN, misses * (PAGE_SIZE >> 10));
	}
	return entry_present(as->i_pages[index]) ? 0 : -1;
}

/* clear a page's dirty state after its write was queued */
void file_page_written(struct pglist_data *pgdat, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];

	ClearPageFlag(p, PG_dirty);
	mod_node_page_state(pgdat, NR_FILE_DIRTY, -1);
	mod_node_page_state(pgdat, NR_WRITTEN, 1);
	count_vm_events(pgdat, PGPGOUT, PAGE_SIZE >> 10);
	blockdev_io(pgdat, &pgdat->disk, 1, true, 0);
}

/* the dirty ring's pages dirtied at or before expire, oldest first, up
 * to nr of them, written */
static unsigned long writeback_ring(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long nr,
                                    double expire)
{
	struct dirty_ring *r = pgdat->dirty;
	unsigned long written = 0;

	while (r && r->len && written < nr) {
		struct dirty_entry d = r->e[r->head];
		struct address_space *as;
		uint32_t e;

		if (d.t > expire)
			break;
		r->head = (r->head + 1) % r->cap;
		r->len--;
		as = inode_lookup(pgdat, d.ino);
		if (!as || d.index >= as->size)
			continue;
		e = as->i_pages[d.index];
		if (!entry_present(e) || !PageTest(&pgdat->mem_map[entry_pfn(e)], PG_dirty))
			continue;       /* cleaned or reclaimed since */
		file_page_written(pgdat, entry_pfn(e));
		ctx->kernel_ns += pgdat->costs.pageout_ns;
		written++;
	}
	return written;
}

unsigned long writeback_dirty_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long nr)
{
	return writeback_ring(pgdat, ctx, nr, pgdat_now(pgdat) - pgdat->sysctl.dirty_expire_centisecs / 100.0);
}

/* sync(2): ksys_sync() writes every dirty page, whatever its age, and
 * waits for it; the pages are clean when it returns (a later drop_caches
 * frees them) */
unsigned long sync_dirty_pages(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	return writeback_ring(pgdat, ctx, ~0ul, INFINITY);
}

/* __remove_mapping(): a clean file folio leaves the page cache; reclaim
 * (reclaimed) leaves a shadow entry in its slots (one shadow, in every
 * slot of a large folio), an invalidation (drop_caches) empty ones */
void remove_mapping(struct pglist_data *pgdat, unsigned long pfn, bool reclaimed)
{
	struct page *p = &pgdat->mem_map[pfn];
	struct address_space *as = pgdat->inodes[p->mapping];
	unsigned long nr = folio_nr_pages(p);
	uint32_t e = reclaimed ? ENTRY_NONRES | workingset_eviction(pgdat, pfn, nr) : 0;

	for (unsigned long i = 0; i < nr; i++)
		as->i_pages[p->index + i] = e;
	as->nrpages -= nr;
	if (nr > 1)
		as->nr_large_folios--;
	mod_node_page_state(pgdat, NR_FILE_PAGES, -(long)nr);
	if (as->bdev) {
		struct mm_ctx ctx = { 0 };
		kmem_cache_free(pgdat, &ctx, BUFFER_HEAD_CACHE, p->private);
		p->private = 0;
	} else if (!as->nrpages) {
		/* the last page: an unused inode may go on the inode LRU */
		inode_add_lru(pgdat, as);
	}
}

/* unlink() of a regular file no one holds open (make clean's rm):
 * truncate_inode_pages_final() frees its page cache, dirty pages
 * included (their write is cancelled), leaving no shadow entries; the
 * xarray's nodes, the dentry and the inode go back to their caches.  The
 * struct stays (its number is never reused) as an empty file. */
void inode_unlink(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as)
{
	if (as->bdev)
		return;                 /* the block device is never unlinked */
	for (unsigned long j = 0; j < as->size; j++) {
		uint32_t e = as->i_pages[j];

		if (entry_present(e)) {
			unsigned long pfn = entry_folio(pgdat, e);
			struct page *p = &pgdat->mem_map[pfn];

			VM_BUG_ON(p->index != j);
			if (PageTest(p, PG_dirty)) {
				ClearPageFlag(p, PG_dirty);
				mod_node_page_state(pgdat, NR_FILE_DIRTY, -1);
			}
			lruvec_del_page(pgdat, pfn);
			/* the folio's slots are emptied (a large folio's first
			 * is j: the loop goes up), its pages uncounted */
			for (unsigned long i = 1; i < folio_nr_pages(p); i++)
				as->i_pages[j + i] = 0;
			as->nrpages -= folio_nr_pages(p);
			if (PageHead(p))
				as->nr_large_folios--;
			mod_node_page_state(pgdat, NR_FILE_PAGES, -(long)folio_nr_pages(p));
			filemap_free_folio(pgdat, ctx, p);
		}
		as->i_pages[j] = 0;
	}
	file_ra_state_init(&as->ra);
	for (unsigned long c = 0; as->xa_nodes && c < xa_nr_chunks(as->size); c++)
		if (as->xa_nodes[c] != SLAB_OBJ_NONE) {
			kmem_cache_free(pgdat, ctx, RADIX_TREE_NODE_CACHE, as->xa_nodes[c]);
			as->xa_nodes[c] = SLAB_OBJ_NONE;
		}
	as->nr_xa_nodes = 0;
	/* the name's dentry turns negative, the inode is evicted */
	d_unlink(pgdat, ctx, as);
	as->size = 0;
}

void mm_teardown(struct pglist_data *pgdat)
{
	struct mm_ctx ctx = { 0 };

	if (!pgdat->mem_map)
		return;
	swap_writeback_complete(pgdat, true);
	for (uint32_t i = 0; i < pgdat->nr_mms; i++)
		if (pgdat->mms[i])
			mmput(pgdat, &ctx, pgdat->mms[i]);
	/* the GPU's objects: their pages and swap slots */
	i915_gem_teardown(pgdat);
	/* the huge page pool (its holder is gone with the processes) */
	hugetlb_teardown(pgdat);
	/* what is left on the anon lists is swap cache */
	for (int l = LRU_INACTIVE_ANON; l <= LRU_ACTIVE_ANON; l++) {
		uint32_t head = pgdat->lruvec.lists[l];
		while (pgdat->mem_map[head].next != head) {
			uint32_t pfn = pgdat->mem_map[head].next;
			lruvec_del_page(pgdat, pfn);
			swap_cache_delete(pgdat, pfn);
			__free_pages(pgdat, &ctx, &pgdat->mem_map[pfn], 0);
		}
	}
	/* the dentries first: they hold the inodes */
	dcache_destroy(pgdat);
	for (uint32_t i = 0; i < pgdat->nr_inodes; i++) {
		struct address_space *as = pgdat->inodes[i];
		for (unsigned long j = 0; j < as->size; j++) {
			uint32_t e = as->i_pages[j];
			if (entry_present(e)) {
				unsigned long pfn = entry_folio(pgdat, e);
				if (PageTest(&pgdat->mem_map[pfn], PG_dirty))
					mod_node_page_state(pgdat, NR_FILE_DIRTY, -1);
				lruvec_del_page(pgdat, pfn);
				remove_mapping(pgdat, pfn, false);
				filemap_free_folio(pgdat, &ctx, &pgdat->mem_map[pfn]);
			}
		}
		/* the slab objects, unless the caches went first (slab_destroy
		 * freed every slab page) */
		if (pgdat->slab && as->inode != SLAB_OBJ_NONE)
			kmem_cache_free(pgdat, &ctx, INODE_CACHE, as->inode);
		for (unsigned long c = 0; pgdat->slab && as->xa_nodes && c < xa_nr_chunks(as->size); c++)
			if (as->xa_nodes[c] != SLAB_OBJ_NONE)
				kmem_cache_free(pgdat, &ctx, RADIX_TREE_NODE_CACHE, as->xa_nodes[c]);
		free(as->xa_nodes);
		free(as->i_mmap);
		free(as->i_pages);
		free(as);
		/* the invariant checker may run (a later inode's pages are
		 * freed): it skips the inodes already gone */
		pgdat->inodes[i] = NULL;
	}
	free(pgdat->inodes);
	free(pgdat->mms);
	pgdat->inodes = NULL;
	pgdat->mms = NULL;
	pgdat->nr_inodes = pgdat->nr_mms = 0;
	if (pgdat->dirty) {
		free(pgdat->dirty->e);
		free(pgdat->dirty);
		pgdat->dirty = NULL;
	}
	slab_destroy(pgdat);
	swap_writeback_complete(pgdat, true);
	free(pgdat->swap.free_slots);
	free(pgdat->swap.slot_shadow);
	free(pgdat->swap.slot_page);
	free(pgdat->swap.wb);
	pgdat->swap.free_slots = pgdat->swap.slot_shadow = pgdat->swap.slot_page = NULL;
	pgdat->swap.wb = NULL;
}
