/* vmstat.c - counter names (mm/vmstat.c) and node-wide sums. */
#include "internal.h"

const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS] = {
#define ZONE_STAT(id, name) [id] = name,
#include "mmsim/vmstat_items.def"
};

const char *const node_stat_names[NR_VM_NODE_STAT_ITEMS] = {
#define NODE_STAT(id, name) [id] = name,
#include "mmsim/vmstat_items.def"
};

const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
#define VM_EVENT(id, name) [id] = name,
#include "mmsim/vmstat_items.def"
};

const char *const mm_trace_event_names[NR_MM_TRACE_EVENTS] = {
	[TRACE_WAKEUP_KSWAPD] = "mm_vmscan_wakeup_kswapd",
	[TRACE_KSWAPD_WAKE] = "mm_vmscan_kswapd_wake",
	[TRACE_WAKEUP_KCOMPACTD] = "mm_compaction_wakeup_kcompactd",
	[TRACE_KCOMPACTD_WAKE] = "mm_compaction_kcompactd_wake",
	[TRACE_DIRECT_RECLAIM_BEGIN] = "mm_vmscan_direct_reclaim_begin",
	[TRACE_TRY_TO_COMPACT_PAGES] = "mm_compaction_try_to_compact_pages",
};

const char *const trace_gfp_class_names[NR_TRACE_GFP_CLASSES] = {
	[TRACE_GFP_THP] = "thp", [TRACE_GFP_READAHEAD] = "readahead",
	[TRACE_GFP_WRITE] = "write", [TRACE_GFP_OTHER] = "other",
};

const char *const migratetype_names[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = "Unmovable",
	[MIGRATE_MOVABLE] = "Movable",
	[MIGRATE_RECLAIMABLE] = "Reclaimable",
	[MIGRATE_HIGHATOMIC] = "HighAtomic",
	[MIGRATE_FREE] = "Free",
	[MIGRATE_ISOLATE] = "Isolate",
};

const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal", "Movable", "NoSplit", "NoMerge" };

static const char *const page_owner_names[NR_PGOWN] = {
	[PGOWN_NONE] = "none",
	[PGOWN_ANON] = "anon",
	[PGOWN_FILE] = "file",
	[PGOWN_BDEV] = "bdev",
	[PGOWN_SHMEM] = "shmem",
	[PGOWN_SLAB_RECLAIMABLE] = "slab_reclaimable",
	[PGOWN_SLAB_UNRECLAIMABLE] = "slab_unreclaimable",
	[PGOWN_PAGETABLE] = "pagetable",
	[PGOWN_KSTACK] = "kernel_stack",
	[PGOWN_KMEM] = "kmem",
	[PGOWN_HUGETLB] = "hugetlb",
};

const char *page_owner_name(enum page_owner_kind k)
{
	return (unsigned)k < NR_PGOWN ? page_owner_names[k] : "?";
}

long global_zone_page_state(const struct pglist_data *pgdat, enum zone_stat_item i)
{
	long sum = 0;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		sum += pgdat->node_zones[z].vm_stat[i];
	return sum;
}
