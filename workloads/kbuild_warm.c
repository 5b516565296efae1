/* kbuild_warm.c - a warm start (kbuild.cache = warm).  Part of the kbuild
 * workload (kbuild.c).
 *
 * cache = warm: the machine has read the tree before (a checkout, an
 * earlier build), so the files are in the page cache and their dentries
 * and inodes in the slab caches when make starts, as far as memory
 * allows, as on any machine that has been up for a while: free memory is
 * near the watermarks and the build's memory comes out of reclaim.  The
 * files are read in the order of a previous build's last use: the tree's
 * other files first (the oldest, use-once), then the sources, then the
 * headers from the least to the most popular.  Reading stops when the
 * file would take a zone's free memory below twice its high watermark,
 * so that no reclaim runs before the measured window (which opens after
 * start()).  The reads' disk time and CPU belong to that earlier
 * activity: the disk is idle again when the build starts.
 */
#include "kbuild_int.h"

/* The free pages the file pages may take before their zone falls to
 * twice its high watermark: the allocator takes from the first populated
 * zone of the zonelist (gfp_zone(GFP_HIGHUSER_MOVABLE) downwards) until
 * that zone is at its low watermark, so the room is that zone's (its
 * lowmem reserve for such a request counted).  All free pages against
 * the sum of the high marks, as before, let a small machine's fill run
 * into direct reclaim (16,000 pages scanned before the window on 64M:
 * ZONE_DMA's free pages counted, which the fill does not get first). */
static long warm_room(const struct pglist_data *pgdat)
{
	int hz = gfp_zone(GFP_HIGHUSER_MOVABLE);

	for (int z = hz; z >= 0; z--) {
		const struct zone *zone = &pgdat->node_zones[z];

		if (populated_zone(zone))
			return zone_page_state(zone, NR_FREE_PAGES) - zone->lowmem_reserve[hz] -
			       2 * (long)high_wmark_pages(zone);
	}
	return 0;
}

static bool warm_read(struct kbuild *kb, struct mm_ctx *ctx, struct address_space *as, uint32_t id)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	slab_obj_t filp;

	/* the file, its metadata blocks and slab objects, with room to spare */
	if (warm_room(pgdat) < (long)(as->size + 8))
		return false;
	if ((filp = kb_open(kb, ctx, as, id)) == SLAB_OBJ_NONE)
		return false;
	filemap_read(pgdat, ctx, as, 0, as->size);
	kb_close(kb, ctx, filp);
	return true;
}

void kb_warm_fill(struct kbuild *kb)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct mm_ctx ctx = { 0 };
	struct blockdev disk = pgdat->disk;

	for (unsigned f = 0; f < kb->nr_tree; f++)
		if (!warm_read(kb, &ctx, kb->tree[f], tree_id(kb, f)))
			goto out;
	if (kb->ds) {
		/* the files the build reads, the last first used first: the
		 * headers every unit includes are read last */
		for (unsigned f = kb->ds->nr_files; f-- > 0;)
			if (!warm_read(kb, &ctx, kb->file[f], f))
				goto out;
		goto out;
	}
	for (unsigned i = 0; i < kb->nr_units; i++)
		if (!warm_read(kb, &ctx, kb->src[i], src_id(kb, i)))
			goto out;
	for (unsigned h = kb->headers; h-- > 0;)
		if (!warm_read(kb, &ctx, kb->hdr[h], hdr_id(kb, h)))
			goto out;
out:
	pgdat->disk = disk;
}
