/* show_mem.c - the node's state in the text formats of /proc (mm/vmstat.c).
 *
 * Each function writes what the /proc file of the same name shows on a
 * Linux v6.2 kernel (x86-64, CONFIG_MEMORY_ISOLATION, no CONFIG_CMA, one
 * node) whose allocator is in the model's state.  The format strings are
 * the kernel's, field widths and trailing blanks included, so that scripts
 * written for the real files (mmtests' monitors, awk one-liners) read ours
 * unchanged.  Where the model keeps no state behind a kernel line, the line
 * is left out rather than printed with an invented value:
 *
 *   zoneinfo:   "per-node stats" (no node counters yet), the NUMA event
 *               counters, "vm stats threshold" (the model's counters are
 *               exact, it has no per-cpu deltas) and "node_unreclaimable"
 *               (kswapd_failures is not modelled);
 *   pagetypeinfo: the CONFIG_PAGE_OWNER mixed-block table;
 *   vmstat:     the NUMA, node and dirty-threshold items.
 *
 * MIGRATE_FREE (RFC 11/26's) is a column only for policies that
 * create free blocks; other migratetypes print as on the real kernel.
 */
#include <stdio.h>
#include "internal.h"
#include "mmsim/show_mem.h"

/* mmsim models one node; the kernel prints its node_id. */
#define SHOW_NODE_ID 0

/* pagetypeinfo_showfree_print() stops counting a free list at this many
 * entries and prints ">100000": it walks the lists under zone->lock.  The
 * model mirrors the cap so that the text is the kernel's. */
#define PAGETYPEINFO_FREECOUNT_CAP 100000ul

static const char *zone_name(const struct pglist_data *pgdat, const struct zone *z)
{
	if (z->name)
		return z->name;
	return zone_names[z - pgdat->node_zones];
}

/*
 * Does this node's policy ever create MIGRATE_FREE blocks?  RFC 11/26 makes
 * every pageblock MIGRATE_FREE at boot (memmap_init_zone_range), so the
 * policy's boot type says it; no policy is recognised by name.
 */
static bool policy_has_free_blocks(const struct pglist_data *pgdat)
{
	return pgdat->policy && pol(pgdat)->boot_pageblock_migratetype &&
	       pol(pgdat)->boot_pageblock_migratetype(pgdat->policy) == MIGRATE_FREE;
}

/* The migratetypes the real kernel would list for this policy. */
static bool show_migratetype(const struct pglist_data *pgdat, int mt)
{
	return mt != MIGRATE_FREE || policy_has_free_blocks(pgdat);
}

/* zone_page_state() of an SMP kernel never reports a negative count. */
static unsigned long zone_stat_clamped(const struct zone *z, enum zone_stat_item i)
{
	long x = zone_page_state(z, i);

	return x < 0 ? 0 : (unsigned long)x;
}

/* global_zone_page_state(): the node-wide sum, clamped the same way. */
static unsigned long global_stat_clamped(const struct pglist_data *pgdat, enum zone_stat_item i)
{
	long x = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		x += pgdat->node_zones[z].vm_stat[i];
	return x < 0 ? 0 : (unsigned long)x;
}

/*
 * Entries on one free list, as list_for_each() counts them: the list is
 * circular through mem_map[].next and its head is a sentinel entry.
 */
static unsigned long free_list_count(const struct pglist_data *pgdat, uint32_t head,
                                     bool *overflow)
{
	unsigned long n = 0;

	*overflow = false;
	for (uint32_t e = pgdat->mem_map[head].next; e != head; e = pgdat->mem_map[e].next) {
		if (++n >= PAGETYPEINFO_FREECOUNT_CAP) {
			*overflow = true;
			break;
		}
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* /proc/pagetypeinfo                                                  */

/* pagetypeinfo_showfree(): free buddies per order, per migratetype */
static void pagetypeinfo_showfree(FILE *f, const struct pglist_data *pgdat)
{
	fprintf(f, "%-43s ", "Free pages count per migrate type at order");
	for (int order = 0; order < MAX_ORDER; order++)
		fprintf(f, "%6d ", order);
	fputc('\n', f);

	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			if (!show_migratetype(pgdat, mt))
				continue;
			fprintf(f, "Node %4d, zone %8s, type %12s ", SHOW_NODE_ID,
			        zone_name(pgdat, z), migratetype_names[mt]);
			for (int order = 0; order < MAX_ORDER; order++) {
				bool overflow;
				unsigned long n = free_list_count(pgdat,
				                                  z->free_area[order].free_list[mt],
				                                  &overflow);

				fprintf(f, "%s%6lu ", overflow ? ">" : "", n);
			}
			fputc('\n', f);
		}
	}
}

/*
 * pagetypeinfo_showblockcount_print(): pageblocks per migratetype.  A block
 * belongs to the zone that holds its first in-zone pfn; blocks wholly in a
 * hole (PG_reserved pages only) are counted too, as the kernel counts every
 * block it has a memmap for.
 */
static void pagetypeinfo_showblockcount_print(FILE *f, const struct pglist_data *pgdat,
                                              const struct zone *z)
{
	unsigned long count[MIGRATE_TYPES] = { 0 };
	unsigned long start = z->zone_start_pfn, end = zone_end_pfn(z);

	for (unsigned long pfn = pageblock_start_pfn(start); pfn < end;
	     pfn += pageblock_nr_pages) {
		unsigned long first = pfn < start ? start : pfn;
		int mt = get_pageblock_migratetype(pgdat, first);

		if (mt < MIGRATE_TYPES)
			count[mt]++;
	}

	fprintf(f, "Node %d, zone %8s ", SHOW_NODE_ID, zone_name(pgdat, z));
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		if (show_migratetype(pgdat, mt))
			fprintf(f, "%12lu ", count[mt]);
	fputc('\n', f);
}

static void pagetypeinfo_showblockcount(FILE *f, const struct pglist_data *pgdat)
{
	fprintf(f, "\n%-23s", "Number of blocks type ");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		if (show_migratetype(pgdat, mt))
			fprintf(f, "%12s ", migratetype_names[mt]);
	fputc('\n', f);

	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (populated_zone(z))
			pagetypeinfo_showblockcount_print(f, pgdat, z);
	}
}

void show_pagetypeinfo(FILE *f, const struct pglist_data *pgdat)
{
	fprintf(f, "Page block order: %d\n", pageblock_order);
	fprintf(f, "Pages per block:  %lu\n", (unsigned long)pageblock_nr_pages);
	fputc('\n', f);
	pagetypeinfo_showfree(f, pgdat);
	pagetypeinfo_showblockcount(f, pgdat);
}

/* ------------------------------------------------------------------ */
/* /proc/buddyinfo                                                     */

/* frag_show_print(): free buddies per order, all migratetypes */
void show_buddyinfo(FILE *f, const struct pglist_data *pgdat)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		fprintf(f, "Node %d, zone %8s ", SHOW_NODE_ID, zone_name(pgdat, z));
		for (int order = 0; order < MAX_ORDER; order++)
			fprintf(f, "%6lu ", z->free_area[order].nr_free);
		fputc('\n', f);
	}
}

/* ------------------------------------------------------------------ */
/* /proc/vmstat                                                        */

/* vmstat_show(): the zone items summed over the node, the node items,
 * then the events, in vmstat_items.def order */
void show_vmstat(FILE *f, const struct pglist_data *pgdat)
{
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		fprintf(f, "%s %lu\n", zone_stat_names[i],
		        global_stat_clamped(pgdat, (enum zone_stat_item)i));
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		fprintf(f, "%s %lu\n", node_stat_names[i],
		        pgdat->vm_node_stat[i] > 0 ? (unsigned long)pgdat->vm_node_stat[i] : 0ul);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		fprintf(f, "%s %lu\n", vm_event_names[i], pgdat->vm_events[i]);
}

/* ------------------------------------------------------------------ */
/* /proc/zoneinfo                                                      */

/* zoneinfo_show_print(): every zone, populated or not (lowmem_reserve_ratio
 * is written for all of them, so userspace must see all of them) */
static void zoneinfo_show_print(FILE *f, const struct pglist_data *pgdat, const struct zone *z)
{
	fprintf(f, "Node %d, zone %8s", SHOW_NODE_ID, zone_name(pgdat, z));
	fprintf(f,
	        "\n  pages free     %lu"
	        "\n        boost    %lu"
	        "\n        min      %lu"
	        "\n        low      %lu"
	        "\n        high     %lu"
	        "\n        spanned  %lu"
	        "\n        present  %lu"
	        "\n        managed  %lu"
	        "\n        cma      %lu",
	        zone_stat_clamped(z, NR_FREE_PAGES),
	        z->watermark_boost,
	        min_wmark_pages(z),
	        low_wmark_pages(z),
	        high_wmark_pages(z),
	        z->spanned_pages,
	        z->present_pages,
	        z->managed_pages,
	        0ul);                   /* no CMA areas in the model */

	fprintf(f, "\n        protection: (%ld", z->lowmem_reserve[0]);
	for (int i = 1; i < (int)pgdat->kernel_nr_zones; i++)
		fprintf(f, ", %ld", z->lowmem_reserve[i]);
	fputc(')', f);

	/* If unpopulated, no other information is useful (the kernel's words) */
	if (!populated_zone(z)) {
		fputc('\n', f);
		return;
	}

	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		fprintf(f, "\n      %-12s %lu", zone_stat_names[i],
		        zone_stat_clamped(z, (enum zone_stat_item)i));

	fprintf(f, "\n  pagesets");
	for (unsigned cpu = 0; z->per_cpu_pageset && cpu < pgdat->nr_cpus; cpu++) {
		const struct per_cpu_pages *pcp = &z->per_cpu_pageset[cpu];

		fprintf(f,
		        "\n    cpu: %u"
		        "\n              count: %d"
		        "\n              high:  %d"
		        "\n              batch: %d",
		        cpu, pcp->count, pcp->high, pcp->batch);
	}
	fprintf(f, "\n  start_pfn:           %lu", z->zone_start_pfn);
	fputc('\n', f);
}

void show_zoneinfo(FILE *f, const struct pglist_data *pgdat)
{
	/* the zones of the booted kernel: v6.2's four, TAO's six */
	for (int zi = 0; zi < (int)pgdat->kernel_nr_zones; zi++)
		zoneinfo_show_print(f, pgdat, &pgdat->node_zones[zi]);
}

/* ------------------------------------------------------------------ */
/* mm_page_alloc_extfrag, summarised                                   */

/*
 * No /proc file: a summary of the tracepoint's events as a developer would
 * tally them from trace_pipe.  "Unmovable <- Movable: 12" means that twelve
 * unmovable allocations took pages from a movable free list.
 */
void show_extfrag(FILE *f, const struct pglist_data *pgdat)
{
	const struct extfrag_stats *s = &pgdat->extfrag;

	fprintf(f, "extfrag events %lu fragmenting %lu change_ownership %lu\n",
	        s->events, s->fragmenting, s->change_ownership);
	for (int alloc = 0; alloc < MIGRATE_TYPES; alloc++)
		for (int fb = 0; fb < MIGRATE_TYPES; fb++)
			if (s->by_type[alloc][fb])
				fprintf(f, "  %s <- %s: %lu\n", migratetype_names[alloc],
				        migratetype_names[fb], s->by_type[alloc][fb]);
}
