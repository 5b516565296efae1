/* kbuild_files.c - the build's file system calls: open() with its path
 * walk, gcc's include search, creat(), and the ext4 metadata they read and
 * write through the block-device cache.  Part of the kbuild workload
 * (kbuild.c). */
#include <errno.h>
#include "kbuild_int.h"

/* What a path walk read from the disk: each component not in the dcache
 * (ext4_lookup) reads a block of its directory, each inode not cached
 * (ext4_iget) a block of the inode table, through the block-device
 * cache.  A file's directory entry and inode are at its number's place;
 * a name that exists nowhere (a failed try) at its name's. */
static int kb_lookup_io(struct kbuild *kb, struct mm_ctx *ctx, const struct d_walk_stats *st,
                        unsigned long dir_block, unsigned long inode_block)
{
	struct pglist_data *pgdat = kb->w->pgdat;

	if (st->lookups && filemap_read(pgdat, ctx, kb->bdev, kb->bdev_dirs + dir_block % kb->dir_blocks, 1))
		return -1;
	if (st->igets && filemap_read(pgdat, ctx, kb->bdev, inode_block, 1))
		return -1;
	return 0;
}

/* open(): the path walk to the file (dcache.h: a dentry per component
 * not cached, the inode if not cached), then the struct file lives while
 * the file is read (kmalloc-256 stands for the filp cache) */
slab_obj_t kb_open(struct kbuild *kb, struct mm_ctx *ctx, struct address_space *as, uint32_t id)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct d_walk_stats st = { 0 };
	int rc;

	if (as->dname != DNAME_NONE)
		rc = d_walk(pgdat, ctx, as->dname, true, &st);
	else
		rc = d_open_file(pgdat, ctx, as, &st);
	if (rc || kb_lookup_io(kb, ctx, &st, id / DIRENTS_PER_BLOCK, id / INODES_PER_BLOCK))
		return SLAB_OBJ_NONE;
	return kmem_cache_alloc(pgdat, ctx, KMALLOC_256, GFP_KERNEL, id);
}

void kb_close(struct kbuild *kb, struct mm_ctx *ctx, slab_obj_t filp)
{
	kmem_cache_free(kb->w->pgdat, ctx, KMALLOC_256, filp);
}

/* gcc's include search for header f (libcpp's find_file_in_dir): an
 * open() of the header's name in each -I directory before the one that
 * holds it, each failing (ENOENT) at the first component that does not
 * exist, whose negative dentry stays in the dcache */
int kb_include_search(struct kbuild *kb, struct mm_ctx *ctx, uint32_t f)
{
	struct pglist_data *pgdat = kb->w->pgdat;

	for (uint32_t k = kb->neg_off[f]; k < kb->neg_off[f + 1]; k++) {
		struct d_walk_stats st = { 0 };
		int rc = d_walk(pgdat, ctx, kb->neg[k], false, &st);

		if (rc == -ENOMEM)
			return -1;
		kb->failed_lookups++;
		if (kb_lookup_io(kb, ctx, &st, kb->neg[k] / DIRENTS_PER_BLOCK, 0))
			return -1;
	}
	return 0;
}

/* creat(): ext4_create dirties the inode-table block, the directory
 * block and the inode and block bitmaps, and jbd2 writes the transaction
 * to the journal: all block-device cache pages.  A named file is looked
 * up first (a negative dentry, instantiated with the new inode). */
struct address_space *kb_create(struct kbuild *kb, struct mm_ctx *ctx, uint32_t id, uint32_t name)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct address_space *as;

	if (filemap_write(pgdat, ctx, kb->bdev, id / INODES_PER_BLOCK, 1) ||
	    filemap_write(pgdat, ctx, kb->bdev, kb->bdev_dirs + id / DIRENTS_PER_BLOCK, 1) ||
	    filemap_write(pgdat, ctx, kb->bdev, kb->bdev_bitmap, 2) ||
	    filemap_write(pgdat, ctx, kb->bdev, kb->bdev_journal + kb->journal_next, 1))
		return NULL;
	kb->journal_next = (kb->journal_next + 1) % JOURNAL_PAGES;
	as = inode_create(pgdat, 0, false);
	if (as && name != DNAME_NONE) {
		int rc = d_create(pgdat, ctx, name, as, NULL);
		/* a name made twice in one build (an output two steps write)
		 * keeps its first file; the second is left without a name */
		if (rc && rc != -EEXIST)
			return NULL;
	}
	return as;
}

/* the filesystem's metadata: inode table, directories, bitmaps and the
 * journal, one block-device inode sized for `files` file numbers */
int kb_create_bdev(struct kbuild *kb, unsigned long files)
{
	unsigned long itable = (files + INODES_PER_BLOCK - 1) / INODES_PER_BLOCK;

	kb->bdev_dirs = itable;
	kb->bdev_bitmap = kb->bdev_dirs + (files + DIRENTS_PER_BLOCK - 1) / DIRENTS_PER_BLOCK;
	kb->bdev_journal = kb->bdev_bitmap + 2;
	kb->dir_blocks = kb->bdev_bitmap - kb->bdev_dirs;
	kb->bdev = inode_create(kb->w->pgdat, kb->bdev_journal + JOURNAL_PAGES, true);
	return kb->bdev ? 0 : -1;
}
