/* test_dcache.c - path walks make positive and negative dentries as the
 * kernel does (dcache.h), counted in /proc/sys/fs/dentry-state; the
 * superblock shrinker frees the unused ones with the parents they leave
 * unused, then the unused inodes, and a walk again makes them again; an
 * inode with page cache stays off the inode LRU (v5.16+), and goes when its
 * last page left, its shadow entry invalidated (pginodesteal counts the
 * pages invalidated: none on a 64-bit kernel). */
#include "testlib.h"
#include <errno.h>
#include "mmsim/dcache.h"
#include "mmsim/slab.h"

#define BLOCKS 32

static struct machine *boot(void)
{
	struct vm_sysctl s = tl_sysctl_nowmark();
	return tl_boot_dma32("vanilla", NULL, BLOCKS, &s);
}

static struct dentry_state state_of(struct pglist_data *pgdat)
{
	struct dentry_state ds;
	dentry_state(pgdat, &ds);
	return ds;
}

/* shrink_slab until nothing more goes (priority 0: the whole LRU a call) */
static void shrink_all(struct machine *m)
{
	for (int i = 0; i < 8; i++)
		shrink_slab(&m->pgdat, &m->ctx, 0);
}

static void test_walks_make_positive_and_negative_dentries(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	uint32_t root = d_root(pgdat), file, miss, missdir;
	struct address_space *as = inode_create(pgdat, 1, false);
	struct d_walk_stats st = { 0 };
	struct dentry_state ds;
	(void)state;

	file = d_name_path(pgdat, root, "src/include/linux/kernel.h");
	assert_int_equal(d_bind(pgdat, NULL, file, as), 0);
	assert_true(d_exists(pgdat, d_parent(pgdat, file)));
	/* nothing is cached before a walk */
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_dentry, 0);
	assert_int_equal(ds.age_limit, 45);

	/* "/", src, include, linux, kernel.h: five lookups, five inodes read */
	assert_int_equal(d_walk(pgdat, &m->ctx, file, true, &st), 0);
	assert_int_equal(st.lookups, 5);
	assert_int_equal(st.igets, 5);
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_dentry, 5);
	/* the root is held, the directories by their children: only the
	 * file's dentry is unused */
	assert_int_equal(ds.nr_unused, 1);
	assert_int_equal(ds.nr_negative, 0);
	assert_true(as->inode != SLAB_OBJ_NONE);
	assert_false(kmem_cache_on_lru(pgdat, INODE_CACHE, as->inode));

	/* a hit makes nothing */
	st = (struct d_walk_stats){ 0 };
	assert_int_equal(d_walk(pgdat, &m->ctx, file, true, &st), 0);
	assert_int_equal(st.lookups, 0);

	/* gcc's failed try src/arch/include/linux/kernel.h: the walk stops
	 * at "arch", which does not exist: one negative dentry */
	miss = d_name_path(pgdat, root, "src/arch/include/linux/kernel.h");
	missdir = d_walk_end(pgdat, miss);
	assert_int_equal(missdir, d_name_path(pgdat, root, "src/arch"));
	st = (struct d_walk_stats){ 0 };
	assert_int_equal(d_walk(pgdat, &m->ctx, miss, false, &st), -ENOENT);
	assert_int_equal(st.lookups, 1);
	/* another header in the same missing directory fails at the same
	 * cached negative dentry */
	st = (struct d_walk_stats){ 0 };
	assert_int_equal(d_walk(pgdat, &m->ctx, d_name_path(pgdat, root, "src/arch/include/linux/types.h"),
	                        false, &st), -ENOENT);
	assert_int_equal(st.lookups, 0);
	/* a missing file in an existing directory: a negative dentry there */
	assert_int_equal(d_walk(pgdat, &m->ctx, d_name_path(pgdat, root, "src/include/linux/nosuch.h"),
	                        false, NULL), -ENOENT);
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_dentry, 7);
	assert_int_equal(ds.nr_negative, 2);
	assert_int_equal(ds.nr_unused, 3);
	tl_check(m);
	tl_destroy(m);
}

/* the shrinker frees unused dentries (the negative ones, never marked
 * referenced by the RCU walk, first), the directories they leave
 * unused, then the inodes no dentry holds; a walk makes them again */
static void test_shrinker_frees_and_walk_makes_again(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	uint32_t root = d_root(pgdat), file, neg;
	struct address_space *as = inode_create(pgdat, 0, false);
	struct d_walk_stats st = { 0 };
	struct dentry_state ds;
	struct inodes_stat is;
	unsigned long scanned0;
	(void)state;

	file = d_name_path(pgdat, root, "a/b/c.h");
	neg = d_name_path(pgdat, root, "a/b/missing.h");
	assert_int_equal(d_bind(pgdat, NULL, file, as), 0);
	assert_int_equal(d_walk(pgdat, &m->ctx, file, true, NULL), 0);
	assert_int_equal(d_walk(pgdat, &m->ctx, neg, false, NULL), -ENOENT);
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_dentry, 5);
	assert_int_equal(ds.nr_negative, 1);

	/* one pass of three objects: the two unused dentries go, and with
	 * the last child of b goes b, then a (shrink_dentry_list's
	 * __dput_to_list), in the same pass; the root stays held */
	scanned0 = pgdat->vm_events[SLABS_SCANNED];
	shrink_slab(pgdat, &m->ctx, 0);
	assert_true(pgdat->vm_events[SLABS_SCANNED] > scanned0);
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_negative, 0);
	assert_int_equal(ds.nr_dentry, 1);

	shrink_all(m);
	/* c.h went, and with it b and a (held by nothing else); the root
	 * stays held; the file's inode (no page cache) went after its dentry */
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_dentry, 1);
	assert_int_equal(ds.nr_unused, 0);
	assert_false(d_dentry_cached(pgdat, d_name_path(pgdat, root, "a")));
	assert_int_equal(as->inode, SLAB_OBJ_NONE);
	inodes_stat(pgdat, &is);
	assert_int_equal(is.nr_unused, 0);

	/* the walk again: a, b, c.h looked up, their inodes (the two
	 * directories' went with their dentries too) read again */
	assert_int_equal(d_walk(pgdat, &m->ctx, file, true, &st), 0);
	assert_int_equal(st.lookups, 3);
	assert_int_equal(st.igets, 3);
	assert_true(as->inode != SLAB_OBJ_NONE);
	assert_int_equal(state_of(pgdat).nr_dentry, 4);
	tl_check(m);
	tl_destroy(m);
}

/* an inode with page cache is kept off the inode LRU: the shrinker frees
 * its dentry but not it; once reclaim took its page (a shadow entry in
 * xa_head) it goes on the LRU, and the shrinker invalidates the shadow
 * (inode_lru_isolate: LRU_RETRY) and frees it: a read afterwards is no
 * refault */
static void test_inode_with_page_cache_stays(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	uint32_t root = d_root(pgdat), name;
	struct address_space *as = inode_create(pgdat, 1, false);
	unsigned long pfn;
	long refaults;
	(void)state;

	name = d_name_path(pgdat, root, "f");
	assert_int_equal(d_bind(pgdat, NULL, name, as), 0);
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 1), 0);
	assert_int_equal(as->nrpages, 1);

	shrink_all(m);
	assert_false(d_dentry_cached(pgdat, name));
	/* the inode stays, off the LRU: the mapping has a page */
	assert_true(as->inode != SLAB_OBJ_NONE);
	assert_false(kmem_cache_on_lru(pgdat, INODE_CACHE, as->inode));
	assert_int_equal(pgdat->vm_events[PGINODESTEAL] + pgdat->vm_events[KSWAPD_INODESTEAL], 0);

	/* reclaim takes the page (shrink_folio_list -> __remove_mapping):
	 * a shadow entry stays, and the inode goes on its LRU */
	pfn = entry_pfn(as->i_pages[0]);
	lruvec_del_page(pgdat, pfn);
	remove_mapping(pgdat, pfn, true);
	__free_pages(pgdat, &m->ctx, &pgdat->mem_map[pfn], 0);
	assert_true(entry_nonres(as->i_pages[0]));
	assert_true(kmem_cache_on_lru(pgdat, INODE_CACHE, as->inode));

	/* kswapd's shrinker: the shadow goes (no page to steal), the inode too */
	m->ctx.flags |= PF_KSWAPD;
	shrink_all(m);
	m->ctx.flags &= ~PF_KSWAPD;
	assert_int_equal(as->inode, SLAB_OBJ_NONE);
	assert_int_equal(as->i_pages[0], 0);
	assert_int_equal(pgdat->vm_events[PGINODESTEAL] + pgdat->vm_events[KSWAPD_INODESTEAL], 0);

	/* read again: a new inode, a cold miss, not a refault */
	refaults = pgdat->vm_node_stat[WORKINGSET_REFAULT_FILE];
	assert_int_equal(filemap_read(pgdat, &m->ctx, as, 0, 1), 0);
	assert_int_equal(pgdat->vm_node_stat[WORKINGSET_REFAULT_FILE], refaults);
	assert_true(as->inode != SLAB_OBJ_NONE);
	tl_check(m);
	tl_destroy(m);
}

/* unlink turns the dentry negative (d_delete) and evicts the inode;
 * creating the name again instantiates the negative dentry */
static void test_unlink_leaves_negative_dentry(void **state)
{
	struct machine *m = boot();
	struct pglist_data *pgdat = &m->pgdat;
	uint32_t root = d_root(pgdat), name = d_name_path(pgdat, root, "tmp/cc000001.s");
	struct address_space *as = inode_create(pgdat, 0, false), *again;
	struct dentry_state ds;
	(void)state;

	assert_int_equal(d_mkdir(pgdat, NULL, d_parent(pgdat, name)), 0);
	assert_int_equal(d_create(pgdat, &m->ctx, name, as, NULL), 0);
	assert_int_equal(state_of(pgdat).nr_negative, 0);
	assert_int_equal(filemap_write(pgdat, &m->ctx, as, 0, 2), 0);
	inode_unlink(pgdat, &m->ctx, as);
	ds = state_of(pgdat);
	assert_int_equal(ds.nr_negative, 1);
	assert_true(d_dentry_cached(pgdat, name) && !d_exists(pgdat, name));
	assert_int_equal(as->inode, SLAB_OBJ_NONE);

	again = inode_create(pgdat, 0, false);
	assert_int_equal(d_create(pgdat, &m->ctx, name, again, NULL), 0);
	assert_int_equal(state_of(pgdat).nr_negative, 0);
	assert_true(d_exists(pgdat, name) && again->dname == name);
	assert_int_equal(d_create(pgdat, &m->ctx, name, inode_create(pgdat, 0, false), NULL), -EEXIST);
	tl_check(m);
	tl_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_walks_make_positive_and_negative_dentries, tl_teardown),
		cmocka_unit_test_teardown(test_shrinker_frees_and_walk_makes_again, tl_teardown),
		cmocka_unit_test_teardown(test_inode_with_page_cache_stays, tl_teardown),
		cmocka_unit_test_teardown(test_unlink_leaves_negative_dentry, tl_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
