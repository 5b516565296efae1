/* dcache.h - names, dentries and in-core inodes as fs/dcache.c, fs/namei.c
 * and fs/inode.c of v6.2 keep them, for the memory they take and give back.
 *
 * A name is a component under a parent directory (a name of the
 * filesystem's namespace, interned once, found again through a hash of
 * (parent, component)); it names a file or a directory (an address_space,
 * its inode) or nothing.  Workloads build the namespace they use at start
 * (d_name_path, d_bind, d_mkdir) and walk it at run time (d_walk): a
 * component not in the dcache gets a dentry from the `dentry` cache,
 * positive with its inode (from the inode cache, or a new one of
 * ext4_inode_cache) if the name exists, negative if it does not, and the
 * walk stops at the first name that does not exist, as path_lookupat()
 * does.  A file opened without a name (an executable, a daemon's log)
 * gets a dentry of its own, with no parent.
 *
 * What holds what (d_lockref.count, i_count): a dentry holds its parent
 * and, when positive, its inode.  A dentry nothing holds is on the dentry
 * LRU (unused: a leaf, positive or negative); an inode no dentry holds is
 * on the inode LRU only when its mapping is shrinkable (no page cache:
 * v5.16's "keep inodes with page cache off the inode shrinker LRU"), and
 * goes there when its last page leaves.  The superblock shrinker (slab.c)
 * frees unused dentries, and with each the parents it leaves unused
 * (shrink_dentry_list's __dput_to_list), then unused inodes.
 */
#ifndef MMSIM_DCACHE_H
#define MMSIM_DCACHE_H

#include <stdbool.h>
#include <stdint.h>
#include "mmsim/mm.h"

#define DNAME_NONE UINT32_MAX

/* /proc/sys/fs/dentry-state */
struct dentry_state {
	long nr_dentry, nr_unused, age_limit, want_pages, nr_negative, dummy;
};
/* /proc/sys/fs/inode-state (inodes_stat): nr_inodes, nr_free_inodes */
struct inodes_stat {
	long nr_inodes, nr_unused;
};

/* the root directory "/" (its dentry is always held) */
uint32_t d_root(struct pglist_data *pgdat);
/* the name of path (components split at '/'; a leading '/' starts at the
 * root, otherwise at base), interned with its ancestors; no dentry is
 * made.  DNAME_NONE when out of memory or path has an empty component. */
uint32_t d_name_path(struct pglist_data *pgdat, uint32_t base, const char *path);
/* the same, without interning: DNAME_NONE if a component was never named */
uint32_t d_name_lookup(struct pglist_data *pgdat, uint32_t base, const char *path);
/* the namespace on disk: name is this file (its ancestors become
 * directories); d_mkdir: name is a directory.  A name whose dentry is
 * cached negative turns positive (d_instantiate).  0, or -1 (no memory,
 * or a name that is already another file). */
int  d_bind(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, struct address_space *as);
int  d_mkdir(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name);
bool d_exists(const struct pglist_data *pgdat, uint32_t name);
bool d_is_file(const struct pglist_data *pgdat, uint32_t name);
/* a held name (a process's cwd): its dentry never goes unused */
void d_pin(struct pglist_data *pgdat, uint32_t name);
/* where a walk to name stops: its first ancestor (or itself) that does not exist */
uint32_t d_walk_end(const struct pglist_data *pgdat, uint32_t name);
uint32_t d_parent(const struct pglist_data *pgdat, uint32_t name);
bool d_dentry_cached(const struct pglist_data *pgdat, uint32_t name);

/* what a walk did beyond dcache hits: dentries made (the filesystem's
 * ->lookup: ext4_lookup reads the directory's block) and inodes read
 * (ext4_iget: the inode-table block) */
struct d_walk_stats {
	unsigned long lookups, igets;
};
/* A path walk to name.  open: the walk ends in an open file, whose
 * dentry's last dput marks it referenced if it was unused (a cached
 * negative dentry met by the RCU walk is not marked).  0 (the name
 * exists), -ENOENT, or -ENOMEM.  st may be NULL. */
int  d_walk(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, bool open, struct d_walk_stats *st);
/* open(O_CREAT) of a name that does not exist: the walk (a negative
 * dentry), then the new inode of as instantiates it.  0, -EEXIST, -ENOMEM. */
int  d_create(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t name, struct address_space *as,
              struct d_walk_stats *st);
/* unlink(): the walk, then d_delete(): the dentry turns negative and
 * stays, the inode is evicted (i_nlink 0).  A file never opened loses its
 * inode only. */
void d_unlink(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as);
/* open() of a file by handle (no name): the file's own dentry and inode */
int  d_open_file(struct pglist_data *pgdat, struct mm_ctx *ctx, struct address_space *as,
                 struct d_walk_stats *st);

/* the page cache's side: the mapping has no pages and no xarray node
 * (mapping_shrinkable on a 64-bit kernel); inode_add_lru() after a
 * page left it */
bool mapping_shrinkable(const struct address_space *as);
void inode_add_lru(struct pglist_data *pgdat, struct address_space *as);

void dentry_state(const struct pglist_data *pgdat, struct dentry_state *ds);
void inodes_stat(const struct pglist_data *pgdat, struct inodes_stat *is);
unsigned long d_nr_names(const struct pglist_data *pgdat);

/* the shrinker's hooks (pgdat->slab_isolate, slab_evicted) */
int  dcache_lru_isolate(struct pglist_data *pgdat, struct mm_ctx *ctx, int cache, uint32_t owner,
                        bool referenced);
void dcache_evicted(struct pglist_data *pgdat, struct mm_ctx *ctx, int cache, uint32_t owner);
/* free every dentry and the names (machine teardown, before the inodes) */
void dcache_destroy(struct pglist_data *pgdat);

#endif
