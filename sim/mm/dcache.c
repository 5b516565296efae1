/* dcache.c - names, dentries and in-core inodes (fs/dcache.c, fs/namei.c,
 * fs/inode.c of v6.2), for the slab memory they hold: what exists is in
 * dcache.h; here how.
 *
 * Names.  Every name is a struct dname in one array, found by (parent,
 * component) through an open hash (chained through hash_next): that is
 * the dcache's d_hash, kept for every name the namespace has, cached or
 * not, so that a walk finds its way without building strings.  A name's
 * dentry, if cached, is a handle of the `dentry` slab cache whose owner is
 * the name's index; a file's inode (address_space.inode) is a handle of
 * ext4_inode_cache whose owner is its inode number.
 *
 * Counts.  d_count is what holds a dentry: its cached children and pins
 * (a cwd).  A cached dentry with d_count 0 is on the dentry LRU; its
 * inode, held by it, is off the inode LRU.  The kernel takes objects off
 * its LRUs lazily (the isolate callbacks drop those in use); the model
 * takes them off when they come into use, so the LRUs hold what is unused
 * (dentry-state's nr_unused).  A walk's intermediate components are held
 * by their children; the RCU walk takes no reference on a cached
 * component, so only the final dentry of an open is put (dput ->
 * retain_dentry: DCACHE_REFERENCED if it was on the LRU); a negative
 * dentry the RCU walk meets is never put, so never marked referenced.
 *
 * Not modelled: hard links (a file has one name), mounts, renames,
 * lazily-kept LRU entries, the shadow-node shrinker (an inode whose
 * mapping keeps an xarray node of shadow entries stays off the inode LRU,
 * as it would in the kernel until that shrinker freed the node).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mmsim/dcache.h"
#include "mmsim/slab.h"

#define DN_PINNED 0x1u
#define DN_DIR    0x2u                  /* names a directory */

struct dname {
	uint32_t parent;                /* DNAME_NONE: the root, or a file opened by handle */
	uint32_t hash_next;
	uint32_t name_off;              /* in the pool */
	uint16_t name_len;
	uint16_t flags;
	uint32_t dentry;                /* SLAB_OBJ_NONE: not in the dcache */
	uint32_t d_count;               /* cached children + pins */
	uint32_t ino;                   /* what it names (a file or a directory); DNAME_NONE: nothing */
};

struct dcache {
	struct dname *n;
	uint32_t nr, cap;
	uint32_t *hash;                 /* heads, hash_mask + 1 of them */
	uint32_t hash_mask;
	char *pool;
	size_t pool_len, pool_cap;
	uint32_t root;
	long nr_negative;               /* cached negative dentries */
};

static struct dcache *dc_get(struct pglist_data *pgdat)
{
	struct dcache *dc = pgdat->dcache;

	if (dc)
		return dc;
	dc = calloc(1, sizeof(*dc));
	if (!dc)
		abort();
	dc->hash_mask = 1023;
	dc->hash = malloc((dc->hash_mask + 1) * sizeof(*dc->hash));
	if (!dc->hash)
		abort();
	memset(dc->hash, 0xff, (dc->hash_mask + 1) * sizeof(*dc->hash));
	dc->root = DNAME_NONE;
	pgdat->dcache = dc;
	return dc;
}

static inline struct dname *dn(const struct pglist_data *pgdat, uint32_t i)
{
	return &pgdat->dcache->n[i];
}

static inline bool valid(const struct pglist_data *pgdat, uint32_t i)
{
	return pgdat->dcache && i < pgdat->dcache->nr;
}

static uint32_t name_hash(uint32_t parent, const char *s, size_t len)
{
	uint32_t h = 2166136261u ^ parent;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h ^ (h >> 15);
}

static void hash_insert(struct dcache *dc, uint32_t i)
{
	struct dname *d = &dc->n[i];
	uint32_t b = name_hash(d->parent, dc->pool + d->name_off, d->name_len) & dc->hash_mask;

	d->hash_next = dc->hash[b];
	dc->hash[b] = i;
}

static uint32_t new_name(struct dcache *dc, uint32_t parent, const char *s, size_t len)
{
	struct dname *d;

	if (dc->nr == dc->cap) {
		uint32_t cap = dc->cap ? dc->cap * 2 : 1024;
		struct dname *n = realloc(dc->n, cap * sizeof(*n));
		if (!n)
			return DNAME_NONE;
		dc->n = n;
		dc->cap = cap;
	}
	if (dc->pool_len + len > dc->pool_cap) {
		size_t cap = dc->pool_cap ? dc->pool_cap * 2 : 65536;
		char *p;
		while (cap < dc->pool_len + len)
			cap *= 2;
		if (!(p = realloc(dc->pool, cap)))
			return DNAME_NONE;
		dc->pool = p;
		dc->pool_cap = cap;
	}
	if (len)
		memcpy(dc->pool + dc->pool_len, s, len);
	d = &dc->n[dc->nr];
	*d = (struct dname){ .parent = parent, .name_off = (uint32_t)dc->pool_len, .name_len = (uint16_t)len,
	                     .dentry = SLAB_OBJ_NONE, .ino = DNAME_NONE, .hash_next = DNAME_NONE };
	dc->pool_len += len;
	return dc->nr++;
}

/* d_hash lookup of (parent, component), interned if absent */
static uint32_t d_name(struct dcache *dc, uint32_t parent, const char *s, size_t len)
{
	uint32_t b = name_hash(parent, s, len) & dc->hash_mask, i;

	for (i = dc->hash[b]; i != DNAME_NONE; i = dc->n[i].hash_next)
		if (dc->n[i].parent == parent && dc->n[i].name_len == len &&
		    !memcmp(dc->pool + dc->n[i].name_off, s, len))
			return i;
	if ((i = new_name(dc, parent, s, len)) == DNAME_NONE)
		return i;
	hash_insert(dc, i);
	if (dc->nr > dc->hash_mask + 1) {
		/* grow: twice the buckets, every name again */
		uint32_t *h = malloc(2 * (size_t)(dc->hash_mask + 1) * sizeof(*h));
		if (h) {
			free(dc->hash);
			dc->hash = h;
			dc->hash_mask = 2 * dc->hash_mask + 1;
			memset(dc->hash, 0xff, (dc->hash_mask + 1) * sizeof(*h));
			for (uint32_t k = 0; k < dc->nr; k++)
				if (dc->n[k].name_len)
					hash_insert(dc, k);
		}
	}
	return i;
}

uint32_t d_root(struct pglist_data *pgdat)
{
	struct dcache *dc = dc_get(pgdat);

	if (dc->root == DNAME_NONE) {
		struct address_space *as = inode_create(pgdat, 0, false);
		if (!as || (dc->root = new_name(dc, DNAME_NONE, "/", 1)) == DNAME_NONE)
			return DNAME_NONE;
		dc->n[dc->root].ino = as->ino;
		dc->n[dc->root].flags |= DN_PINNED | DN_DIR;
		dc->n[dc->root].d_count = 1;
		as->dname = dc->root;
	}
	return dc->root;
}

/* (parent, component) in d_hash; intern: added if absent */
static uint32_t d_name_find(struct dcache *dc, uint32_t parent, const char *s, size_t len, bool intern)
{
	uint32_t b = name_hash(parent, s, len) & dc->hash_mask;

	for (uint32_t i = dc->hash[b]; i != DNAME_NONE; i = dc->n[i].hash_next)
		if (dc->n[i].parent == parent && dc->n[i].name_len == len &&
		    !memcmp(dc->pool + dc->n[i].name_off, s, len))
			return i;
	return intern ? d_name(dc, parent, s, len) : DNAME_NONE;
}

static uint32_t name_path(struct pglist_data *pgdat, uint32_t base, const char *path, bool intern)
{
	struct dcache *dc = dc_get(pgdat);
	uint32_t at = base;

	if (*path == '/') {
		at = d_root(pgdat);
		while (*path == '/')
			path++;
	}
	if (at == DNAME_NONE || !valid(pgdat, at))
		return DNAME_NONE;
	while (*path) {
		const char *e = strchr(path, '/');
		size_t len = e ? (size_t)(e - path) : strlen(path);

		if (!len || len > 255)
			return DNAME_NONE;
		if (!(len == 1 && path[0] == '.')) {
			if ((at = d_name_find(dc, at, path, len, intern)) == DNAME_NONE)
				return DNAME_NONE;
		}
		path += len;
		if (*path == '/')
			path++;
	}
	return at;
}

uint32_t d_name_path(struct pglist_data *pgdat, uint32_t base, const char *path)
{
	return name_path(pgdat, base, path, true);
}

uint32_t d_name_lookup(struct pglist_data *pgdat, uint32_t base, const char *path)
{
	return name_path(pgdat, base, path, false);
}

uint32_t d_parent(const struct pglist_data *pgdat, uint32_t name)
{
	return valid(pgdat, name) ? dn(pgdat, name)->parent : DNAME_NONE;
}

bool d_exists(const struct pglist_data *pgdat, uint32_t name)
{
	return valid(pgdat, name) && dn(pgdat, name)->ino != DNAME_NONE;
}

bool d_is_file(const struct pglist_data *pgdat, uint32_t name)
{
	return d_exists(pgdat, name) && !(dn(pgdat, name)->flags & DN_DIR);
}

uint32_t d_walk_end(const struct pglist_data *pgdat, uint32_t name)
{
	uint32_t end = name;

	for (uint32_t i = name; i != DNAME_NONE; i = dn(pgdat, i)->parent)
		if (dn(pgdat, i)->ino == DNAME_NONE)
			end = i;
	return end;
}

/* ------------------------------------------------------------------ */
/* inodes                                                              */

static inline bool dentry_cached(const struct pglist_data *pgdat, uint32_t name)
{
	return name != DNAME_NONE && dn(pgdat, name)->dentry != SLAB_OBJ_NONE;
}

bool d_dentry_cached(const struct pglist_data *pgdat, uint32_t name)
{
	return valid(pgdat, name) && dentry_cached(pgdat, name);
}

bool mapping_shrinkable(const struct address_space *as)
{
	/* no page, and no xarray node (a one-page file keeps its entry,
	 * page or shadow, in xa_head: a shadow there is shrinkable) */
	return as->nrpages == 0 && as->nr_xa_nodes == 0;
}

static bool mapping_empty(const struct address_space *as)
{
	return mapping_shrinkable(as) && (as->size == 0 || as->i_pages[0] == 0);
}

/* iget: the inode of a file a positive dentry now holds: the cached one
 * (off the inode LRU: i_count), or a new one read from the disk */
static int inode_get(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                     struct d_walk_stats *st)
{
	slab_obj_t obj;

	if (as->inode != SLAB_OBJ_NONE) {
		kmem_cache_lru_del(pgdat, INODE_CACHE, as->inode);
		return 0;
	}
	obj = kmem_cache_alloc(pgdat, ctx, INODE_CACHE, GFP_KERNEL, as->ino);
	if (obj == SLAB_OBJ_NONE)
		return -ENOMEM;
	/* the allocation may sleep in reclaim, and the file be read meanwhile */
	if (as->inode != SLAB_OBJ_NONE) {
		kmem_cache_free(pgdat, ctx, INODE_CACHE, obj);
		kmem_cache_lru_del(pgdat, INODE_CACHE, as->inode);
		return 0;
	}
	kmem_cache_lru_del(pgdat, INODE_CACHE, obj);
	as->inode = obj;
	if (st)
		st->igets++;
	return 0;
}

/* inode_add_lru(): unused (no dentry holds it) and shrinkable */
void inode_add_lru(struct pglist_data *pgdat, struct address_space *as)
{
	if (as->bdev || as->inode == SLAB_OBJ_NONE || !pgdat->slab)
		return;
	if (pgdat->dcache && as->dname != DNAME_NONE && dentry_cached(pgdat, as->dname))
		return;
	if (mapping_shrinkable(as))
		kmem_cache_lru_add(pgdat, INODE_CACHE, as->inode);
}

/* ------------------------------------------------------------------ */
/* dentries                                                            */

/* dget / dput of a cached dentry: held, it is off the LRU; unused
 * again, it goes back (retain_dentry: d_lru_add) */
static void d_get(struct pglist_data *pgdat, uint32_t i)
{
	struct dname *d = dn(pgdat, i);

	if (d->d_count++ == 0)
		kmem_cache_lru_del(pgdat, DENTRY_CACHE, d->dentry);
}

static void d_put(struct pglist_data *pgdat, uint32_t i)
{
	struct dname *d = dn(pgdat, i);

	VM_BUG_ON(!d->d_count);
	if (--d->d_count == 0)
		kmem_cache_lru_add(pgdat, DENTRY_CACHE, d->dentry);
}

/* lookup_slow(): d_alloc_parallel + ->lookup + d_splice_alias, a dentry
 * for a name whose parent's dentry is cached: positive with its inode,
 * or negative.  The walker holds the parent meanwhile (the allocations
 * may sleep in reclaim, where the shrinker runs); the new dentry keeps
 * that reference. */
static int d_alloc_name(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t i, struct d_walk_stats *st)
{
	uint32_t parent = dn(pgdat, i)->parent;
	slab_obj_t obj;
	int rc = 0;

	if (parent != DNAME_NONE)
		d_get(pgdat, parent);
	obj = kmem_cache_alloc(pgdat, ctx, DENTRY_CACHE, GFP_KERNEL, i);
	if (obj == SLAB_OBJ_NONE) {
		rc = -ENOMEM;
	} else if (dn(pgdat, i)->dentry != SLAB_OBJ_NONE) {
		/* another walker made it while we slept in reclaim */
		kmem_cache_free(pgdat, ctx, DENTRY_CACHE, obj);
	} else {
		if (st)
			st->lookups++;
		if (dn(pgdat, i)->ino != DNAME_NONE) {
			if (inode_get(pgdat, ctx, inode_lookup(pgdat, dn(pgdat, i)->ino), st)) {
				kmem_cache_free(pgdat, ctx, DENTRY_CACHE, obj);
				rc = -ENOMEM;
				goto out;
			}
		} else {
			pgdat->dcache->nr_negative++;
		}
		dn(pgdat, i)->dentry = obj;
		if (dn(pgdat, i)->d_count)
			kmem_cache_lru_del(pgdat, DENTRY_CACHE, obj);
		return 0;
	}
out:
	if (parent != DNAME_NONE)
		d_put(pgdat, parent);
	return rc;
}

int d_walk(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, bool open, struct d_walk_stats *st)
{
	uint32_t end, chain[64];
	unsigned n = 0;
	int rc = 0;

	if (!valid(pgdat, name))
		return -ENOENT;
	if (dentry_cached(pgdat, name)) {
		/* the fast path: every ancestor is cached (held by it) */
		if (dn(pgdat, name)->ino == DNAME_NONE)
			return -ENOENT;
		if (open)
			kmem_cache_touch(pgdat, DENTRY_CACHE, dn(pgdat, name)->dentry);
		return 0;
	}
	end = d_walk_end(pgdat, name);
	if (end != name && dentry_cached(pgdat, end))
		return -ENOENT;         /* a cached negative component */
	for (uint32_t i = end; i != DNAME_NONE && !dentry_cached(pgdat, i); i = dn(pgdat, i)->parent) {
		if (n == sizeof(chain) / sizeof(chain[0]))
			return -ENOENT;         /* deeper than any path of the model */
		chain[n++] = i;
	}
	/* from the first uncached component down; each new dentry is held
	 * by the next one's walk, the last one is put unused */
	while (n && !rc)
		rc = d_alloc_name(pgdat, ctx, chain[--n], st);
	if (rc)
		return rc;
	return d_exists(pgdat, end) ? 0 : -ENOENT;
}

/* d_instantiate of a name that exists now (creat, mkdir): a cached
 * negative dentry turns positive and takes the inode */
static int d_instantiate(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, struct address_space *as)
{
	struct dname *d = dn(pgdat, name);

	if (d->ino != DNAME_NONE)
		return d->ino == as->ino ? 0 : -1;
	if (as->dname != DNAME_NONE && as->dname != name)
		return -1;
	d->ino = as->ino;
	as->dname = name;
	if (d->dentry != SLAB_OBJ_NONE) {
		pgdat->dcache->nr_negative--;
		/* an allocation may sleep, and other tasks add names (the
		 * array moves): d is not used after it */
		if (inode_get(pgdat, ctx, as, NULL)) {
			/* no inode for it: the dentry goes (d_drop) */
			kmem_cache_free(pgdat, ctx, DENTRY_CACHE, dn(pgdat, name)->dentry);
			dcache_evicted(pgdat, ctx, DENTRY_CACHE, name);
			return -1;
		}
	}
	return 0;
}

int d_mkdir(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name)
{
	uint32_t up[64], i;
	unsigned n = 0;

	if (!valid(pgdat, name))
		return -1;

	for (i = name; i != DNAME_NONE && !d_exists(pgdat, i); i = dn(pgdat, i)->parent) {
		if (n == sizeof(up) / sizeof(up[0]))
			return -1;
		up[n++] = i;
	}
	if (i != DNAME_NONE && !(dn(pgdat, i)->flags & DN_DIR))
		return -1;              /* a file cannot hold names */
	while (n) {
		struct address_space *as = inode_create(pgdat, 0, false);
		if (!as || d_instantiate(pgdat, ctx, up[--n], as))
			return -1;
		dn(pgdat, up[n])->flags |= DN_DIR;
	}
	return 0;
}

int d_bind(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, struct address_space *as)
{
	if (!valid(pgdat, name) || as->bdev || (dn(pgdat, name)->flags & DN_DIR))
		return -1;
	if (dn(pgdat, name)->parent != DNAME_NONE && d_mkdir(pgdat, ctx, dn(pgdat, name)->parent))
		return -1;
	return d_instantiate(pgdat, ctx, name, as);
}

void d_pin(struct pglist_data *pgdat, uint32_t name)
{
	struct dname *d;

	if (!valid(pgdat, name))
		return;
	d = dn(pgdat, name);
	if (d->flags & DN_PINNED)
		return;
	d->flags |= DN_PINNED;
	if (d->d_count++ == 0 && d->dentry != SLAB_OBJ_NONE)
		kmem_cache_lru_del(pgdat, DENTRY_CACHE, d->dentry);
}

int d_create(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, struct address_space *as,
             struct d_walk_stats *st)
{
	int rc;

	if (!valid(pgdat, name))
		return -ENOENT;
	if (dn(pgdat, name)->parent != DNAME_NONE && d_mkdir(pgdat, ctx, dn(pgdat, name)->parent))
		return -ENOMEM;
	rc = d_walk(pgdat, ctx, name, false, st);
	if (rc == 0)
		return -EEXIST;
	if (rc != -ENOENT)
		return rc;
	/* ext4_create: a new inode */
	if (as->inode == SLAB_OBJ_NONE) {
		slab_obj_t obj = kmem_cache_alloc(pgdat, ctx, INODE_CACHE, GFP_KERNEL, as->ino);
		if (obj == SLAB_OBJ_NONE)
			return -ENOMEM;
		as->inode = obj;
	}
	if (d_instantiate(pgdat, ctx, name, as))
		return -ENOMEM;
	/* the new dentry holds it (or, if the shrinker took the dentry
	 * while the inode was allocated, it is an unused inode) */
	if (dentry_cached(pgdat, name))
		kmem_cache_lru_del(pgdat, INODE_CACHE, as->inode);
	else
		inode_add_lru(pgdat, as);
	return 0;
}

/* a file opened by handle: a name of its own, with no parent */
int d_open_file(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                struct d_walk_stats *st)
{
	if (as->dname == DNAME_NONE) {
		struct dcache *dc = dc_get(pgdat);
		uint32_t i = new_name(dc, DNAME_NONE, "", 0);
		if (i == DNAME_NONE)
			return -ENOMEM;
		dc->n[i].ino = as->ino;
		as->dname = i;
	}
	return d_walk(pgdat, ctx, as->dname, true, st) ? -1 : 0;
}

void d_unlink(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as)
{
	uint32_t name = as->dname;

	if (name != DNAME_NONE && valid(pgdat, name) && dn(pgdat, name)->ino == as->ino) {
		/* do_unlinkat's lookup; a dentry that cannot be had is only
		 * forgotten (the name is gone either way) */
		bool cached = d_walk(pgdat, ctx, name, false, NULL) == 0;
		struct dname *d = dn(pgdat, name);

		d->ino = DNAME_NONE;
		if (cached && d->dentry != SLAB_OBJ_NONE)
			pgdat->dcache->nr_negative++;  /* d_delete: dentry_unlink_inode */
	}
	as->dname = DNAME_NONE;
	/* iput_final with i_nlink 0: evict() */
	if (as->inode != SLAB_OBJ_NONE && pgdat->slab) {
		kmem_cache_free(pgdat, ctx, INODE_CACHE, as->inode);
		as->inode = SLAB_OBJ_NONE;
	}
}

/* ------------------------------------------------------------------ */
/* the shrinker's side                                                 */

int dcache_lru_isolate(struct pglist_data *pgdat, struct mm_ctx *ctx, int cache, uint32_t owner,
                       bool referenced)
{
	if (cache == DENTRY_CACHE && valid(pgdat, owner)) {
		/* dentry_lru_isolate() */
		if (dn(pgdat, owner)->d_count)
			return LRU_REMOVED;
		return referenced ? LRU_ROTATE : LRU_FREE;
	}
	if (cache == INODE_CACHE) {
		struct address_space *as = inode_lookup(pgdat, owner);
		unsigned long reap = 0;

		if (!as || as->inode == SLAB_OBJ_NONE)
			return referenced ? LRU_ROTATE : LRU_FREE;
		/* inode_lru_isolate(): in use, or page cache came back */
		if ((as->dname != DNAME_NONE && pgdat->dcache && dentry_cached(pgdat, as->dname)) ||
		    !mapping_shrinkable(as))
			return LRU_REMOVED;
		if (referenced)
			return LRU_ROTATE;
		if (!mapping_empty(as)) {
			/* invalidate_mapping_pages(): the clean, unmapped pages
			 * go, counted as inode steals, and the shadow entries.
			 * A shrinkable mapping has no page without CONFIG_HIGHMEM,
			 * so on this 64-bit kernel only the shadow in xa_head
			 * goes and reap stays 0, as in v6.2. */
			reap = as->nrpages;
			VM_BUG_ON(reap);
			if (as->size)
				as->i_pages[0] = 0;
			count_vm_events(pgdat, ctx && (ctx->flags & PF_KSWAPD) ? KSWAPD_INODESTEAL : PGINODESTEAL,
			                reap);
			return LRU_RETRY;
		}
		return LRU_FREE;
	}
	return referenced ? LRU_ROTATE : LRU_FREE;
}

/* the shrinker freed a dentry or an inode (the handle is free already) */
void dcache_evicted(struct pglist_data *pgdat, struct mm_ctx *ctx, int cache, uint32_t owner)
{
	if (cache == INODE_CACHE) {
		struct address_space *as = inode_lookup(pgdat, owner);
		if (as)
			as->inode = SLAB_OBJ_NONE;
		return;
	}
	if (cache != DENTRY_CACHE)
		return;
	/* __dentry_kill(), then the parents it leaves unused
	 * (shrink_dentry_list's __dput_to_list) */
	while (valid(pgdat, owner)) {
		struct dname *d = dn(pgdat, owner);
		uint32_t parent = d->parent;

		d->dentry = SLAB_OBJ_NONE;
		if (d->ino == DNAME_NONE) {
			pgdat->dcache->nr_negative--;
		} else {
			/* dentry_unlink_inode -> iput */
			struct address_space *as = inode_lookup(pgdat, d->ino);
			if (as)
				inode_add_lru(pgdat, as);
		}
		if (parent == DNAME_NONE)
			return;
		d = dn(pgdat, parent);
		VM_BUG_ON(!d->d_count || d->dentry == SLAB_OBJ_NONE);
		if (--d->d_count)
			return;
		kmem_cache_free(pgdat, ctx, DENTRY_CACHE, d->dentry);
		owner = parent;
	}
}

/* ------------------------------------------------------------------ */
/* /proc/sys/fs                                                        */

void dentry_state(const struct pglist_data *pgdat, struct dentry_state *ds)
{
	unsigned long objects = 0;

	memset(ds, 0, sizeof(*ds));
	slab_cache_usage(pgdat, DENTRY_CACHE, &objects, NULL);
	ds->nr_dentry = (long)objects;
	ds->nr_unused = (long)kmem_cache_lru_count(pgdat, DENTRY_CACHE);
	ds->age_limit = 45;             /* dentry_stat's constant */
	ds->want_pages = 0;
	ds->nr_negative = pgdat->dcache ? pgdat->dcache->nr_negative : 0;
}

void inodes_stat(const struct pglist_data *pgdat, struct inodes_stat *is)
{
	unsigned long objects = 0;

	slab_cache_usage(pgdat, INODE_CACHE, &objects, NULL);
	is->nr_inodes = (long)objects;
	is->nr_unused = (long)kmem_cache_lru_count(pgdat, INODE_CACHE);
}

unsigned long d_nr_names(const struct pglist_data *pgdat)
{
	return pgdat->dcache ? pgdat->dcache->nr : 0;
}

void dcache_destroy(struct pglist_data *pgdat)
{
	struct dcache *dc = pgdat->dcache;
	struct mm_ctx ctx = { 0 };

	if (!dc)
		return;
	for (uint32_t i = 0; pgdat->slab && i < dc->nr; i++)
		if (dc->n[i].dentry != SLAB_OBJ_NONE)
			kmem_cache_free(pgdat, &ctx, DENTRY_CACHE, dc->n[i].dentry);
	free(dc->n);
	free(dc->hash);
	free(dc->pool);
	free(dc);
	pgdat->dcache = NULL;
}
