/* mm_init.c - booting a node: the physical layout, the memmap, the buddy
 * lists filled with all managed memory, watermarks, lowmem reserves and
 * per-cpu list limits.  The formulas are v6.2's (mm/page_alloc.c, moved to
 * mm/mm_init.c in later kernels) and are checked in tests/unit/test_watermarks.c
 * against a real guest's /proc/zoneinfo.
 */
#include <math.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mmsim/dcache.h"
#include "mmsim/limits.h"
#include "mmsim/slab.h"

#define SZ_1M (1024u * 1024u)
#define GiB   (1024ull * 1024 * 1024)
#define MiB   (1024ull * 1024)

uint64_t mm_layout_host_bytes(const struct mm_layout *layout, uint64_t ram, uint64_t swap)
{
	uint64_t spanned = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (layout->zone[z].spanned && layout->zone[z].start_pfn + layout->zone[z].spanned > spanned)
			spanned = layout->zone[z].start_pfn + layout->zone[z].spanned;
	return spanned * (sizeof(struct page) + 1) + ram / PAGE_SIZE * MMSIM_BYTES_PER_PTE +
	       swap / PAGE_SIZE * (MMSIM_BYTES_PER_SWAP_SLOT + MMSIM_BYTES_PER_PTE);
}

/* A machine's RAM as --ram and [machine] ram write it: "32M", "5T";
 * bytes when no suffix fits. */
static const char *ram_text(uint64_t b, char *buf, size_t len)
{
	static const char suffix[] = "TGMK";

	for (int i = 0; i < 4; i++) {
		uint64_t unit = 1ull << (10 * (4 - i));
		if (b && b % unit == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(b / unit), suffix[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu bytes", (unsigned long long)b);
	return buf;
}

int mm_layout_qemu(uint64_t ram_bytes, unsigned long kernel_reserved,
                   struct mm_layout *out, char *err, size_t errlen)
{
	uint64_t lowmem, highmem;
	unsigned long memmap;
	char t[32];

	memset(out, 0, sizeof(*out));
	/* Below 64 MiB no Linux x86-64 guest boots; beyond 4 TiB the 32-bit
	 * pfns of the model would not reach. */
	if (ram_bytes < 64 * MiB) {
		snprintf(err, errlen, "machine RAM %s is too small (at least 64M)",
		         ram_text(ram_bytes, t, sizeof(t)));
		return -1;
	}
	if (ram_bytes > 4096 * GiB) {
		snprintf(err, errlen, "machine RAM %s is too large (at most 4T)",
		         ram_text(ram_bytes, t, sizeof(t)));
		return -1;
	}
	if (ram_bytes % PAGE_SIZE) {
		snprintf(err, errlen, "machine RAM %s is not a multiple of 4K",
		         ram_text(ram_bytes, t, sizeof(t)));
		return -1;
	}
	/* QEMU pc machine: with at least 3.5 GiB, 3 GiB below the PCI hole
	 * (gigabyte alignment), the rest from 4 GiB up. */
	lowmem = ram_bytes >= 3584 * MiB ? 3 * GiB : ram_bytes;
	highmem = ram_bytes - lowmem;
	memmap = (unsigned long)(ram_bytes / PAGE_SIZE * 64 / PAGE_SIZE);

	/* ZONE_DMA: pfn 0 is not RAM (e820), 0x9f-0xff is the legacy ROM/VGA
	 * hole; x86 keeps the whole first 1 MiB (reserve_real_mode and
	 * friends), so the buddy allocator gets pfns 256..4095. */
	out->zone[ZONE_DMA] = (struct zone_layout){
		.start_pfn = 1, .spanned = 4095, .present = 4095 - 97,
		.managed_start = 256, .managed = 4096 - 256,
	};
	/* ZONE_DMA32: 16 MiB to 4 GiB; RAM up to lowmem.  The kernel image and
	 * early allocations sit at 16 MiB (CONFIG_PHYSICAL_START). */
	{
		unsigned long end = (unsigned long)(lowmem / PAGE_SIZE);
		unsigned long present = end - 4096;
		unsigned long reserved = kernel_reserved + (highmem ? 0 : memmap);
		if (reserved + 2 * pageblock_nr_pages > present) {
			snprintf(err, errlen, "machine RAM too small for the kernel's own reservations");
			return -1;
		}
		out->zone[ZONE_DMA32] = (struct zone_layout){
			.start_pfn = 4096,
			.spanned = (highmem ? (unsigned long)(4 * GiB / PAGE_SIZE) : end) - 4096,
			.present = present,
			.managed_start = 4096 + kernel_reserved,
			.managed = present - reserved,
		};
	}
	/* ZONE_NORMAL: everything from 4 GiB; the memmap is allocated from
	 * the top of memory, so it comes out of the highest zone. */
	if (highmem) {
		unsigned long present = (unsigned long)(highmem / PAGE_SIZE);
		if (memmap + pageblock_nr_pages > present)
			memmap = present > pageblock_nr_pages ? present - pageblock_nr_pages : 0;
		out->zone[ZONE_NORMAL] = (struct zone_layout){
			.start_pfn = (unsigned long)(4 * GiB / PAGE_SIZE),
			.spanned = present, .present = present,
			.managed_start = (unsigned long)(4 * GiB / PAGE_SIZE),
			.managed = present - memmap,
		};
	}
	/* ZONE_MOVABLE stays empty (no kernelcore=/movablecore=). */
	return 0;
}

void vm_sysctl_defaults(struct vm_sysctl *s)
{
	*s = (struct vm_sysctl){
		.min_free_kbytes = 0,
		.user_min_free_kbytes = -1,
		.watermark_scale_factor = 10,
		.watermark_boost_factor = 15000,
		.lowmem_reserve_ratio = { 256, 256, 32, 0 },
		.percpu_pagelist_high_fraction = 0,
		.thp_enabled = true,
		.thp_enabled_mode = THP_ENABLED_MADVISE,
		.thp_defrag = THP_DEFRAG_MADVISE,
		.compaction_proactiveness = 20,
		.config_compaction = true,
		.config_numa = true,
		.group_by_mobility = GROUP_BY_MOBILITY_AUTO,
		.large_folios = false,
		.read_ahead_kb = 128,
		.swappiness = 60,
		.vfs_cache_pressure = 100,
		.dirty_expire_centisecs = 3000,
		.extfrag_threshold = 500,
	};
}

/* Defaults are estimates for a current x86-64 server core; docs/model.md
 * gives their basis.  They are the same for every policy. */
void mm_costs_defaults(struct mm_costs *c)
{
	*c = (struct mm_costs){
		.pcp_alloc_ns = 60,
		.pcp_free_ns = 50,
		.buddy_ns = 150,
		.buddy_per_order_ns = 15,
		.pfn_scan_ns = 3,
		.zone_check_ns = 10,
		.fault_ns = 1000,
		.swapin_ns = 3000,
		.pagecache_hit_ns = 400,
		.pagecache_add_ns = 800,
		.lru_scan_ns = 150,
		.unmap_ns = 500,
		.rmap_one_ns = 200,
		.pageout_ns = 1500,
		.slab_object_ns = 50,
		.shrinker_object_ns = 100,
		.fork_ns = 50000,
		.clear_page_ns = 300,
		.compact_scan_ns = 15,
		.migrate_page_ns = 2000,
	};
}

/* int_sqrt() of the kernel: floor of the square root */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = (unsigned long)sqrt((double)x);
	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/* nr_free_zone_pages(gfp_zone(GFP_USER)): managed pages above the high
 * watermark in the zones a GFP_USER request may use. */
unsigned long nr_free_buffer_pages(const struct pglist_data *pgdat)
{
	unsigned long sum = 0;
	for (int i = 0; i <= ZONE_NORMAL; i++) {
		const struct zone *z = &pgdat->node_zones[i];
		unsigned long size = z->managed_pages, high = high_wmark_pages(z);
		if (size > high)
			sum += size - high;
	}
	return sum;
}

void calculate_min_free_kbytes(struct pglist_data *pgdat)
{
	unsigned long lowmem_kbytes = nr_free_buffer_pages(pgdat) * (PAGE_SIZE >> 10);
	long new_min = (long)int_sqrt(lowmem_kbytes * 16);

	if (new_min > pgdat->sysctl.user_min_free_kbytes) {
		if (new_min < 128)
			new_min = 128;
		if (new_min > 262144)
			new_min = 262144;
		pgdat->sysctl.min_free_kbytes = (int)new_min;
	}
}

/* v6.2 __setup_per_zone_wmarks(): the distance as the scale factor gives it */
unsigned long wmark_gap(const struct mm_policy *p, const struct zone *z, unsigned long gap)
{
	(void)p, (void)z;
	return gap;
}

/* v6.2 has no policy zones (TAO's nosplit= and nomerge= do not exist) */
bool no_policy_zones(const struct mm_policy *p, struct virt_zone_param vz[2])
{
	(void)p, (void)vz;
	return false;
}

/* Move the top of a physical zone, from pfn cut on, into an empty
 * (policy) zone: spans, present and managed pages follow the cut.  The
 * zones the policy zones are carved from are contiguous RAM (DMA32 below
 * 3.5 GiB, Normal above), so present pages are the span. */
static void cut_zone(struct zone_layout *phys, struct zone_layout *virt, unsigned long cut)
{
	unsigned long end = phys->start_pfn + phys->spanned;
	unsigned long mend = phys->managed_start + phys->managed;

	virt->start_pfn = cut;
	virt->spanned = virt->present = end - cut;
	virt->managed_start = mend > cut ? (phys->managed_start > cut ? phys->managed_start : cut) : cut;
	virt->managed = mend > virt->managed_start ? mend - virt->managed_start : 0;
	phys->spanned = phys->present = cut - phys->start_pfn;
	if (mend > cut)
		mend = cut;
	/* the kernel's own reservations may all lie above the cut: then
	 * the physical zone keeps no managed page */
	if (phys->managed_start > cut)
		phys->managed_start = cut;
	phys->managed = mend > phys->managed_start ? mend - phys->managed_start : 0;
}

/* find_virt_zones() of TAO's chapter one (mm/mm_init.c of the posting, as
 * android15-6.6 carries it): each policy zone's size is its X (a
 * percentage of all memory, or pages), rounded up to MAX_ORDER_NR_PAGES;
 * the memory not given to them is kernelcore, counted from the bottom of
 * memory.  ZONE_NOSPLIT starts where kernelcore ends, ZONE_NOMERGE after
 * it, both at MAX_ORDER_NR_PAGES alignment, both carved from the top of
 * the highest physical zone (find_usable_zone()).  An order above
 * pageblock_order drops its zone; a ZONE_NOMERGE order not above
 * ZONE_NOSPLIT's drops both (the kernel warns; tao's validate() refuses
 * such switches first).  If the policy zones would take all memory there
 * are none.  Sets the zone orders the allocator reads. */
static void find_virt_zones(struct pglist_data *pgdat, struct mm_layout *lay,
                            struct virt_zone_param vz[2])
{
	unsigned long totalpages = 0, nr[2], occupied = 0, pfn[2] = { 0, 0 };
	unsigned long node_end = 0, prev = 0;
	unsigned order[2] = { vz[0].order, vz[1].order };
	int virt_zone = -1;

	for (int i = 0; i <= LAST_PHYS_ZONE; i++) {
		totalpages += lay->zone[i].present;
		if (lay->zone[i].spanned) {
			virt_zone = i;
			node_end = lay->zone[i].start_pfn + lay->zone[i].spanned;
		}
	}
	for (int v = 0; v < 2; v++)
		if (order[v] > pageblock_order)
			order[v] = 0;
	if (order[1] && order[1] <= order[0])
		order[0] = order[1] = 0;
	for (int v = 0; v < 2; v++) {
		nr[v] = !order[v] ? 0 : vz[v].percent ? totalpages * vz[v].percent / 100 : vz[v].nr_pages;
		nr[v] = (nr[v] + MAX_ORDER_NR_PAGES - 1) / MAX_ORDER_NR_PAGES * MAX_ORDER_NR_PAGES;
		occupied += nr[v];
	}
	pgdat->zone_nosplit_order = order[0];
	pgdat->zone_nomerge_order = order[1];
	if (virt_zone < 0 || occupied >= totalpages)
		return;
	/* kernelcore: what the policy zones leave */
	occupied = totalpages - occupied;
	for (int v = 0; v < 2; v++) {
		unsigned long left = occupied;

		if (!nr[v])
			continue;
		/* find_virt_zone(): walk memory from the bottom until
		 * occupied pages are passed */
		for (int i = 0; i <= virt_zone; i++) {
			const struct zone_layout *zl = &lay->zone[i];
			if (!zl->spanned)
				continue;
			if (i < virt_zone && left >= zl->present) {
				left -= zl->present;
				continue;
			}
			pfn[v] = zl->start_pfn + (left < zl->spanned ? left : zl->spanned);
			break;
		}
		occupied += nr[v];
	}
	/* align on MAX_ORDER_NR_PAGES; a start not above the previous one or
	 * past the node's end means no such zone */
	for (int v = 0; v < 2; v++) {
		pfn[v] = (pfn[v] + MAX_ORDER_NR_PAGES - 1) / MAX_ORDER_NR_PAGES * MAX_ORDER_NR_PAGES;
		if (pfn[v] <= prev || pfn[v] >= node_end ||
		    pfn[v] <= lay->zone[virt_zone].start_pfn)
			pfn[v] = 0;
		if (pfn[v])
			prev = pfn[v];
	}
	/* ZONE_NOMERGE first: it is the top of the zone; then ZONE_NOSPLIT
	 * out of what is left below it */
	if (pfn[1])
		cut_zone(&lay->zone[virt_zone], &lay->zone[ZONE_NOMERGE], pfn[1]);
	if (pfn[0])
		cut_zone(&lay->zone[virt_zone], &lay->zone[ZONE_NOSPLIT], pfn[0]);
}

/* v6.2 memmap_init_range(): every pageblock boots MIGRATE_MOVABLE */
int memmap_init_migratetype(const struct mm_policy *p)
{
	(void)p;
	return MIGRATE_MOVABLE;
}

void setup_per_zone_wmarks(struct pglist_data *pgdat)
{
	unsigned long pages_min = (unsigned long)pgdat->sysctl.min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long lowmem_pages = 0;

	/* the pages below ZONE_HIGHMEM: the zones up to ZONE_NORMAL (TAO's
	 * form; v6.2's "not ZONE_MOVABLE" is the same on x86-64) */
	for (int i = 0; i <= ZONE_NORMAL; i++)
		lowmem_pages += pgdat->node_zones[i].managed_pages;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &pgdat->node_zones[i];
		uint64_t tmp = lowmem_pages ? (uint64_t)pages_min * z->managed_pages / lowmem_pages : 0;
		uint64_t scale;

		if (i > ZONE_NORMAL) {
			/* __GFP_HIGH and PF_MEMALLOC allocations do not need
			 * pages of the zones above ZONE_NORMAL (movable, TAO's
			 * policy zones): a small min, clamped */
			unsigned long min_pages = z->managed_pages / 1024;
			if (min_pages < 32)
				min_pages = 32;
			if (min_pages > 128)
				min_pages = 128;
			z->_watermark[WMARK_MIN] = min_pages;
		} else {
			z->_watermark[WMARK_MIN] = (unsigned long)tmp;
		}
		/* the kswapd distance: a quarter of min, or the scale factor's
		 * share of the zone, whichever is larger (mult_frac) */
		scale = (uint64_t)z->managed_pages / 10000 * pgdat->sysctl.watermark_scale_factor +
		        (uint64_t)z->managed_pages % 10000 * pgdat->sysctl.watermark_scale_factor / 10000;
		tmp = tmp >> 2 > scale ? tmp >> 2 : scale;
		tmp = pol(pgdat)->wmark_gap(pgdat->policy, z, (unsigned long)tmp);

		z->watermark_boost = 0;
		z->_watermark[WMARK_LOW] = z->_watermark[WMARK_MIN] + (unsigned long)tmp;
		z->_watermark[WMARK_HIGH] = z->_watermark[WMARK_LOW] + (unsigned long)tmp;
	}
	/* The watermarks moved: the pcp limits follow (zone_pcp_update). */
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &pgdat->node_zones[i];
		int batch, high;
		unsigned long total;

		if (!z->per_cpu_pageset)
			continue;
		/* zone_batchsize(): ~0.1% of the zone or 1 MiB, a 2^n-1 value */
		batch = (int)(z->managed_pages >> 10 < SZ_1M / PAGE_SIZE ? z->managed_pages >> 10
		                                                          : SZ_1M / PAGE_SIZE);
		batch /= 4;
		if (batch < 1)
			batch = 1;
		{
			int b = batch + batch / 2, p = 1;
			while (p * 2 <= b)
				p *= 2;
			batch = p - 1;
		}
		if (batch < 1)
			batch = 1;
		/* zone_highsize(): the low watermark split over the node's CPUs */
		if (pgdat->sysctl.percpu_pagelist_high_fraction)
			total = z->managed_pages / (unsigned long)pgdat->sysctl.percpu_pagelist_high_fraction;
		else
			total = low_wmark_pages(z);
		high = (int)(total / pgdat->nr_cpus);
		if (high < batch << 2)
			high = batch << 2;
		for (unsigned c = 0; c < pgdat->nr_cpus; c++) {
			z->per_cpu_pageset[c].batch = batch;
			z->per_cpu_pageset[c].high = high;
		}
	}
}

void setup_per_zone_lowmem_reserve(struct pglist_data *pgdat)
{
	for (int i = 0; i < MAX_NR_ZONES - 1; i++) {
		struct zone *z = &pgdat->node_zones[i];
		int ratio = pgdat->sysctl.lowmem_reserve_ratio[i];
		bool clear = !ratio || !z->managed_pages;
		unsigned long managed = 0;

		for (int j = i + 1; j < MAX_NR_ZONES; j++) {
			managed += pgdat->node_zones[j].managed_pages;
			z->lowmem_reserve[j] = clear ? 0 : (long)(managed / (unsigned long)ratio);
		}
	}
}

/* khugepaged's set_recommended_min_free_kbytes(): two free pageblocks per
 * zone, plus room for a fallback per pair of migratetypes, at most 5% of
 * lowmem. */
void set_recommended_min_free_kbytes(struct pglist_data *pgdat)
{
	unsigned long nr_zones = 0, recommended, cap;

	for (int i = 0; i <= ZONE_NORMAL; i++)
		if (populated_zone(&pgdat->node_zones[i]))
			nr_zones++;
	recommended = pageblock_nr_pages * nr_zones * 2;
	recommended += pageblock_nr_pages * nr_zones * MIGRATE_PCPTYPES * MIGRATE_PCPTYPES;
	cap = nr_free_buffer_pages(pgdat) / 20;
	if (recommended > cap)
		recommended = cap;
	recommended <<= (PAGE_SHIFT - 10);
	if (recommended > (unsigned long)pgdat->sysctl.min_free_kbytes) {
		pgdat->sysctl.min_free_kbytes = (int)recommended;
		setup_per_zone_wmarks(pgdat);
	}
}

/* Release a managed range to the buddy allocator in naturally aligned
 * chunks (__free_pages_memory -> __free_pages_core). */
static void free_boot_range(struct zone *z, unsigned long start, unsigned long end)
{
	while (start < end) {
		unsigned order = z->max_order;  /* MAX_ORDER - 1; ZONE_NOMERGE's order there */
		while (order && ((start & ((1ul << order) - 1)) || start + (1ul << order) > end))
			order--;
		free_boot_page(z, start, order, get_pageblock_migratetype(z->zone_pgdat, start));
		start += 1ul << order;
	}
}

/* calloc() on transparent huge pages where the host allows them
 * (madvise mode): mem_map is touched at random by every hot path, and with
 * 4 KiB pages most of those touches miss the TLB (a nested page walk under
 * a hypervisor).  No effect on the model.  A fresh anonymous mapping is
 * zero already: no memset, which at 128 GiB wrote the 2 GiB memmap once
 * more before memmap_init() writes it; free_huge() releases it. */
#define HUGE_ALIGN (2ul << 20)
static size_t huge_bytes(size_t n, size_t size)
{
	return (n * size + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
}

static void *calloc_huge(size_t n, size_t size)
{
	size_t bytes = huge_bytes(n, size);
	char *p, *a;

	if (n * size < HUGE_ALIGN)
		return calloc(n, size);
	/* map one huge page more and trim it to an aligned start */
	p = mmap(NULL, bytes + HUGE_ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + bytes, (size_t)(p + HUGE_ALIGN - a));
#ifdef MADV_HUGEPAGE
	madvise(a, bytes, MADV_HUGEPAGE);       /* advice only: failure is harmless */
#endif
	return a;
}

static void free_huge(void *p, size_t n, size_t size)
{
	if (!p)
		return;
	if (n * size < HUGE_ALIGN)
		free(p);
	else
		munmap(p, huge_bytes(n, size));
}

#define PCP_LIST_INITIAL 16      /* entries; a power of two */

static uint32_t new_list(struct pglist_data *pgdat, uint32_t *next_sentinel)
{
	uint32_t s = (*next_sentinel)++;
	pgdat->mem_map[s].next = pgdat->mem_map[s].prev = s;
	pgdat->mem_map[s].flags = 1u << PG_reserved;
	return s;
}

static void memmap_fill(struct page *m, unsigned long from, unsigned long to, unsigned flags)
{
	for (unsigned long pfn = from; pfn < to; pfn++)
		m[pfn].flags = flags;
}

/* The flags memmap_init_range() leaves in every struct page of [0, end),
 * each written once (the memmap is the model's largest state: three passes
 * over it were the boot's cost on a large machine): a pfn outside every
 * zone's span is reserved, one inside a span reserved with its zone's
 * number, a managed one only its zone's number (free_boot_range() frees
 * it next).  The zones' spans are disjoint and each holds its managed
 * range (mm_layout_qemu(), find_virt_zones()); they are taken in pfn
 * order. */
static void memmap_init(struct pglist_data *pgdat, const struct mm_layout *layout, unsigned long end)
{
	const unsigned reserved = 1u << PG_reserved;
	struct page *m = pgdat->mem_map;
	unsigned long pfn = 0;
	bool done[MAX_NR_ZONES] = { false };

	for (;;) {
		const struct zone_layout *zl;
		unsigned long managed_start, managed_end, span_end;
		unsigned zone;
		int next = -1;

		for (int i = 0; i < MAX_NR_ZONES; i++)
			if (!done[i] && layout->zone[i].spanned &&
			    (next < 0 || layout->zone[i].start_pfn < layout->zone[next].start_pfn))
				next = i;
		if (next < 0)
			break;
		done[next] = true;
		zl = &layout->zone[next];
		span_end = zl->start_pfn + zl->spanned;
		/* a zone with nothing managed: its whole span reserved */
		managed_start = zl->managed ? zl->managed_start : span_end;
		managed_end = managed_start + zl->managed;
		zone = (unsigned)next << PAGE_ZONE_SHIFT;
		VM_BUG_ON(zl->start_pfn < pfn || span_end > end);
		VM_BUG_ON(managed_start < zl->start_pfn || managed_end > span_end);
		memmap_fill(m, pfn, zl->start_pfn, reserved);
		memmap_fill(m, zl->start_pfn, managed_start, reserved | zone);
		memmap_fill(m, managed_start, managed_end, zone);
		memmap_fill(m, managed_end, span_end, reserved | zone);
		pfn = span_end;
	}
	memmap_fill(m, pfn, end, reserved);
}

int pgdat_init(struct pglist_data *pgdat, const struct mm_layout *phys_layout,
               unsigned nr_cpus, const struct vm_sysctl *sysctl,
               struct mm_policy *policy, char *err, size_t errlen)
{
	unsigned long end = 0, nr_sentinels;
	uint32_t next_sentinel;
	struct mm_layout lay = *phys_layout;
	const struct mm_layout *layout = &lay;
	struct virt_zone_param vz[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

	memset(pgdat, 0, sizeof(*pgdat));
	if (nr_cpus < 1 || nr_cpus > 1024) {
		snprintf(err, errlen, "number of CPUs %u out of range (1..1024)", nr_cpus);
		return -1;
	}
	/* the zones the kernel has; TAO's policy zones carved out of the
	 * physical ones by its boot parameters (nosplit=, nomerge=) */
	pgdat->kernel_nr_zones = ZONE_MOVABLE + 1;
	if (policy->ops.policy_zones(policy, vz)) {
		pgdat->kernel_nr_zones = MAX_NR_ZONES;
		find_virt_zones(pgdat, &lay, vz);
	}
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		const struct zone_layout *zl = &layout->zone[i];
		if (!zl->spanned)
			continue;
		if (zl->start_pfn < end || zl->managed_start < zl->start_pfn ||
		    zl->managed_start + zl->managed > zl->start_pfn + zl->spanned) {
			snprintf(err, errlen, "zone %s: inconsistent layout", zone_names[i]);
			return -1;
		}
		end = zl->start_pfn + zl->spanned;
	}
	if (!end) {
		snprintf(err, errlen, "no memory in the layout");
		return -1;
	}
	end = (end + pageblock_nr_pages - 1) & ~(unsigned long)(pageblock_nr_pages - 1);
	nr_sentinels = (unsigned long)MAX_NR_ZONES * MAX_ORDER * MIGRATE_TYPES + NR_LRU_LISTS;
	if (end + nr_sentinels >= PFN_NONE) {
		snprintf(err, errlen, "memory too large for 32-bit page frame numbers");
		return -1;
	}

	pgdat->policy = policy;
	pgdat->sysctl = *sysctl;
	pgdat->sysctl.user_min_free_kbytes = -1;        /* sysctl.conf is applied after boot */
	pgdat->nr_cpus = nr_cpus;
	pgdat->node_spanned_pages = end;
	pgdat->nr_pageblocks = end >> pageblock_order;
	pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
	pgdat->config_compaction = sysctl->config_compaction;
	pgdat->config_numa = sysctl->config_numa;
	mm_policy_attach(policy, pgdat);        /* the kernel's configuration is known */
	mm_costs_defaults(&pgdat->costs);
	pgdat->mem_map = calloc_huge(end + nr_sentinels, sizeof(struct page));
	pgdat->mem_map_entries = end + nr_sentinels;
	pgdat->pageblock_flags = calloc(pgdat->nr_pageblocks, 1);
	pgdat->buddy_tag = calloc_huge(end, 1);
	if (!pgdat->mem_map || !pgdat->pageblock_flags || !pgdat->buddy_tag) {
		snprintf(err, errlen, "cannot allocate the memmap for %lu pages", end);
		pgdat_destroy(pgdat);
		return -1;
	}
	next_sentinel = (uint32_t)end;

	/* memmap_init: every pfn's flags, once; every pageblock gets the
	 * boot migratetype (set_pageblock_migratetype in memmap_init_range,
	 * MIGRATE_MOVABLE in v6.2, MIGRATE_FREE with RFC 11/26) */
	memmap_init(pgdat, layout, end);
	for (unsigned long b = 0; b < pgdat->nr_pageblocks; b++)
		set_pageblock_migratetype(pgdat, b << pageblock_order,
		                          policy->ops.boot_pageblock_migratetype(policy));

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &pgdat->node_zones[i];
		const struct zone_layout *zl = &layout->zone[i];

		z->zone_pgdat = pgdat;
		z->name = zone_names[i];
		z->idx = (enum zone_type)i;
		z->order = i == ZONE_NOSPLIT ? pgdat->zone_nosplit_order :
		           i == ZONE_NOMERGE ? pgdat->zone_nomerge_order : 0;
		z->max_order = i == ZONE_NOMERGE && z->order ? z->order : MAX_ORDER - 1;
		z->zone_start_pfn = zl->start_pfn;
		z->spanned_pages = zl->spanned;
		z->present_pages = zl->present;
		z->managed_start_pfn = zl->managed_start;
		for (int o = 0; o < MAX_ORDER; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				z->free_area[o].free_list[mt] = new_list(pgdat, &next_sentinel);
		z->per_cpu_pageset = calloc(nr_cpus, sizeof(struct per_cpu_pages));
		if (!z->per_cpu_pageset) {
			snprintf(err, errlen, "out of memory for per-cpu lists");
			pgdat_destroy(pgdat);
			return -1;
		}
		for (unsigned c = 0; c < nr_cpus; c++)
			for (int l = 0; l < NR_PCP_LISTS; l++) {
				struct pcp_list *pl = &z->per_cpu_pageset[c].lists[l];
				/* a small ring; pcp_list_grow() doubles it */
				pl->mask = PCP_LIST_INITIAL - 1;
				pl->pfns = malloc(PCP_LIST_INITIAL * sizeof(uint32_t));
				if (!pl->pfns) {
					snprintf(err, errlen, "out of memory for per-cpu lists");
					pgdat_destroy(pgdat);
					return -1;
				}
			}
		z->managed_pages = zl->managed;
		free_boot_range(z, zl->managed_start, zl->managed_start + zl->managed);
	}

	for (int i = 0, top = -1; i < MAX_NR_ZONES; i++) {
		if (populated_zone(&pgdat->node_zones[i]))
			top = i;
		pgdat->first_populated_zone[i] = (int8_t)top;
	}

	/* build_all_zonelists(): grouping by mobility off on a machine too
	 * small to give each migratetype a pageblock (vm_total_pages <
	 * pageblock_nr_pages * MIGRATE_TYPES: 5 types on a kernel without
	 * CMA), or as [kernel] group_by_mobility says.  The boot blocks keep
	 * the type memmap_init gave them before the decision, as the
	 * kernel's do. */
	{
		unsigned long total = 0;
		for (int i = 0; i < MAX_NR_ZONES; i++)
			total += pgdat->node_zones[i].managed_pages;
		pgdat->page_group_by_mobility_disabled = sysctl->group_by_mobility == GROUP_BY_MOBILITY_AUTO
			? total < pageblock_nr_pages * (MIGRATE_HIGHATOMIC + 2)
			: sysctl->group_by_mobility == GROUP_BY_MOBILITY_OFF;
	}
	for (int l = 0; l < NR_LRU_LISTS; l++)
		pgdat->lruvec.lists[l] = new_list(pgdat, &next_sentinel);
	blockdev_setup(&pgdat->disk, 100e-6, 2e9);

	/* init_per_zone_wmark_min(), then khugepaged's recommendation when THP
	 * is enabled, then the sysctl the user wrote (sysctl.conf runs last) */
	calculate_min_free_kbytes(pgdat);
	setup_per_zone_wmarks(pgdat);
	setup_per_zone_lowmem_reserve(pgdat);
	if (pgdat->sysctl.thp_enabled)
		set_recommended_min_free_kbytes(pgdat);
	if (sysctl->user_min_free_kbytes >= 0) {
		pgdat->sysctl.user_min_free_kbytes = sysctl->user_min_free_kbytes;
		pgdat->sysctl.min_free_kbytes = sysctl->user_min_free_kbytes;
		setup_per_zone_wmarks(pgdat);
	}

	/* compaction starts with its scanners at the zone's ends */
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (populated_zone(&pgdat->node_zones[i]))
			reset_cached_positions(&pgdat->node_zones[i]);
	pgdat->kcompactd_highest_zoneidx = MAX_NR_ZONES - 1;

	pgdat->slab_isolate = dcache_lru_isolate;
	pgdat->slab_evicted = dcache_evicted;
	if (slab_init(pgdat)) {
		snprintf(err, errlen, "out of memory for the slab caches");
		pgdat_destroy(pgdat);
		return -1;
	}
	/* Counters start at zero once booted: runs measure from here. */
	memset(pgdat->vm_events, 0, sizeof(pgdat->vm_events));
	return 0;
}

void pgdat_destroy(struct pglist_data *pgdat)
{
	mm_teardown(pgdat);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct per_cpu_pages *pcp = pgdat->node_zones[i].per_cpu_pageset;
		for (unsigned c = 0; pcp && c < pgdat->nr_cpus; c++)
			for (int l = 0; l < NR_PCP_LISTS; l++)
				free(pcp[c].lists[l].pfns);
		free(pcp);
		pgdat->node_zones[i].per_cpu_pageset = NULL;
	}
	free_huge(pgdat->mem_map, pgdat->mem_map_entries, sizeof(struct page));
	free(pgdat->pageblock_flags);
	free_huge(pgdat->buddy_tag, pgdat->node_spanned_pages, 1);
	pgdat->mem_map = NULL;
	pgdat->pageblock_flags = NULL;
	pgdat->buddy_tag = NULL;
}
