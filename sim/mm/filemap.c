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
 * older than vm.dirty_expire_centisecs. */
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
		workingset_refault(pgdat, p, e & ENTRY_VAL_MASK, true);
	as->i_pages[index] = ENTRY_PRESENT | (uint32_t)pfn;
	as->nrpages++;
	mod_node_page_state(pgdat, NR_FILE_PAGES, 1);
	lruvec_add_page(pgdat, pfn, false);
	ctx->kernel_ns += pgdat->costs.pagecache_add_ns;
	return p;
}

static int filemap_rw(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                      unsigned long index, unsigned long nr, bool write, struct filemap_read_stat *st)
{
	unsigned long misses = 0;
	int ret = 0;

	if (file_open(pgdat, ctx, as))
		return -1;
	if (write)
		file_grow(as, index + nr);
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

/* do_sync_mmap_readahead()'s read-around: ra_pages (read_ahead_kb = 128
 * KiB) centred on the faulting index, as page_cache_ra_order() reads them:
 * the missing pages are allocated and go out as one read, which the
 * faulting task waits for; pages already cached are not touched (a
 * fault does not mark them accessed) */
#define MMAP_RA_PAGES 32
int filemap_fault_read(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                       unsigned long index)
{
	unsigned long start = index > MMAP_RA_PAGES / 2 ? index - MMAP_RA_PAGES / 2 : 0;
	unsigned long end = start + MMAP_RA_PAGES < as->size ? start + MMAP_RA_PAGES : as->size;
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

unsigned long writeback_dirty_pages(struct pglist_data *pgdat, struct mm_ctx *ctx, unsigned long nr)
{
	struct dirty_ring *r = pgdat->dirty;
	double expire = pgdat_now(pgdat) - pgdat->sysctl.dirty_expire_centisecs / 100.0;
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

/* __remove_mapping(): a clean file page leaves the page cache; reclaim
 * (reclaimed) leaves a shadow entry in its slot, an invalidation
 * (drop_caches) an empty one */
void remove_mapping(struct pglist_data *pgdat, unsigned long pfn, bool reclaimed)
{
	struct page *p = &pgdat->mem_map[pfn];
	struct address_space *as = pgdat->inodes[p->mapping];

	as->i_pages[p->index] = reclaimed ? ENTRY_NONRES | workingset_eviction(pgdat, pfn) : 0;
	as->nrpages--;
	mod_node_page_state(pgdat, NR_FILE_PAGES, -1);
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
			unsigned long pfn = entry_pfn(e);
			struct page *p = &pgdat->mem_map[pfn];

			if (PageTest(p, PG_dirty)) {
				ClearPageFlag(p, PG_dirty);
				mod_node_page_state(pgdat, NR_FILE_DIRTY, -1);
			}
			lruvec_del_page(pgdat, pfn);
			as->nrpages--;
			mod_node_page_state(pgdat, NR_FILE_PAGES, -1);
			p->owner = PGOWN_NONE;
			p->mapping = p->index = 0;
			__free_pages(pgdat, ctx, p, 0);
		}
		as->i_pages[j] = 0;
	}
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
				unsigned long pfn = entry_pfn(e);
				if (PageTest(&pgdat->mem_map[pfn], PG_dirty))
					mod_node_page_state(pgdat, NR_FILE_DIRTY, -1);
				lruvec_del_page(pgdat, pfn);
				remove_mapping(pgdat, pfn, false);
				__free_pages(pgdat, &ctx, &pgdat->mem_map[pfn], 0);
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
