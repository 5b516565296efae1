/* stress_random.c - a million mixed-order, mixed-type allocations and frees
 * per policy and machine, with the invariant checker run regularly.
 *
 * For every policy of mm_policy_table and every scenario below (machine
 * size, CPUs, occupancy), random_alloc runs with check_every set (each
 * check walks the whole node; a failing one is counted in
 * stats.check_failures) and keep=1.  Then, with the load still in memory:
 * the checker, page conservation (free + per-cpu + live == managed) and the
 * event counters against the workload's own count of live pages, and the
 * policy's promises (vanilla never creates MIGRATE_FREE blocks; hygiene
 * with its default switches falls back into free blocks only, claiming
 * each, below pageblock order only in a free block that is partly reserved
 * (checked event by event through the extfrag trace hook), never boosts,
 * never reserves highatomic blocks).  Then everything is freed and
 * the per-cpu lists drained, and the node must be back where it booted:
 *
 *   every policy: each zone's NR_FREE_PAGES is its boot value, per-cpu lists
 *       are empty, and below pageblock order buddyinfo is the boot
 *       buddyinfo (all pages are free, and merging below pageblock order
 *       ignores migratetypes, so the decomposition is the canonical one);
 *   hygiene: every pageblock without reserved pages is MIGRATE_FREE again
 *       (RFC 11/26) and buddyinfo equals the boot buddyinfo at every order;
 *   vanilla: highatomic blocks stay reserved (nothing unreserves them
 *       without direct reclaim) and v6.2 does not merge them with their
 *       neighbours at pageblock order, so only the free page count and the
 *       lower orders must match; every pair of fully managed, mergeable
 *       (Unmovable/Movable/Reclaimable) pageblocks is merged to order 10.
 *
 * MMSIM_STRESS_SCALE (environment, a positive number) multiplies the
 * attempts, for longer runs by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "stress_common.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

struct scenario {
	const char *name;
	uint64_t ram;
	unsigned cpus;
	double occupancy;
	unsigned long ops;              /* allocation attempts */
	unsigned long check_every;      /* check_pgdat every N attempts */
	uint64_t seed;
};

/* At least a million attempts per scenario, in every build: the whole
 * executable takes seconds in Release and well under a minute under
 * ASan+UBSan, so nothing is scaled down for MMSIM_DEBUG_VM. */
static const struct scenario scenarios[] = {
	{ "512M-4cpu-occ0.85", 512 * MiB, 4, 0.85, 1000000, 50000, 1 },
	{ "512M-2cpu-occ0.97", 512 * MiB, 2, 0.97, 1000000, 50000, 2 },
	{ "4G-4cpu-occ0.85",   4 * GiB,   4, 0.85, 2500000, 100000, 3 },
	{ "4G-8cpu-occ0.97",   4 * GiB,   8, 0.97, 1000000, 100000, 4 },
	{ "64M-1cpu-occ0.97",  64 * MiB,  1, 0.97, 1000000, 50000, 5 },
};
#define NR_SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))
#define MIN_ATTEMPTS_PER_POLICY 1000000ul

struct run {
	const struct mm_policy_ops *policy;
	const struct scenario *sc;
	char name[96];
	/* for the teardown, which cleans up after a failed assertion too */
	struct machine m;
	bool booted, loaded;
	/* mm_page_alloc_extfrag events seen by the trace hook */
	struct {
		const struct pglist_data *pgdat;
		unsigned long events, fragmenting_partial, bad;
		char first_bad[160];
	} trace;
};

/* per policy: totals over its scenarios.  Pages allocated and freed are
 * the allocator's own counts (PGALLOC_*, PGFREE), not the workload's, so
 * that "everything allocated was freed" is a finding, not a sum. */
struct totals {
	unsigned long runs;             /* scenarios that ran to the end */
	unsigned long attempts, allocated;      /* the workload's allocations */
	unsigned long pages_allocated, pages_freed;
	long free_pages_delta;          /* NR_FREE_PAGES after the release - at boot */
};
static struct totals totals[16];

static unsigned long scaled_ops(unsigned long ops)
{
	const char *s = getenv("MMSIM_STRESS_SCALE");
	double f = s ? strtod(s, NULL) : 1.0;
	return f > 0 ? (unsigned long)((double)ops * f) : ops;
}

struct boot_state {
	long nr_free_pages[MAX_NR_ZONES];
	unsigned long nr_free[MAX_NR_ZONES][MAX_ORDER];
};

static void snapshot(const struct pglist_data *pgdat, struct boot_state *b)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];
		b->nr_free_pages[z] = zone->vm_stat[NR_FREE_PAGES];
		for (int o = 0; o < MAX_ORDER; o++)
			b->nr_free[z][o] = zone->free_area[o].nr_free;
	}
}

/* Does the block starting at pfn hold only pages of this zone that are not
 * PG_reserved (i.e. was all of it given to the buddy allocator)? */
static bool block_fully_managed(const struct pglist_data *pgdat, const struct zone *z,
                                unsigned long block)
{
	if (block < z->zone_start_pfn || block + pageblock_nr_pages > zone_end_pfn(z))
		return false;
	for (unsigned long pfn = block; pfn < block + pageblock_nr_pages; pfn++)
		if (PageReserved(&pgdat->mem_map[pfn]))
			return false;
	return true;
}

/* the hygiene policy as the CLI boots it: every switch at its default */
static bool policy_is_hygiene(const struct mm_policy *p)
{
	return !strcmp(p->ops.name, "hugealloc_rfc");    /* formerly "hygiene" */
}

static bool block_fully_managed(const struct pglist_data *pgdat, const struct zone *z,
                                unsigned long block);

/*
 * The extfrag tracepoint, for hygiene with its default switches: every
 * fallback takes a MIGRATE_FREE page and claims its block; a fallback below
 * pageblock order (the tracepoint's "fragmenting") may only take a piece of
 * a free block that is partly reserved (a hole or the kernel image: patch
 * RFC 11/26 types every block FREE at boot, and such a block never frees whole).
 * Nothing is asserted here, in the middle of the allocator: violations are
 * counted and the first one described.
 */
static void hygiene_extfrag_trace(void *arg, unsigned long pfn, unsigned alloc_order,
                                  unsigned fallback_order, int alloc_mt, int fallback_mt,
                                  bool change_ownership)
{
	struct run *r = arg;
	const struct pglist_data *pgdat = r->trace.pgdat;
	const struct zone *z = &pgdat->node_zones[page_zonenum(&pgdat->mem_map[pfn])];
	const char *why = NULL;

	r->trace.events++;
	if (fallback_mt != MIGRATE_FREE)
		why = "fallback into a block that is not free";
	else if (!change_ownership)
		why = "free block not claimed";
	else if (fallback_order < pageblock_order) {
		if (block_fully_managed(pgdat, z, pageblock_start_pfn(pfn)))
			why = "fragmenting fallback into a wholly managed free block";
		else
			r->trace.fragmenting_partial++;
	}
	if (why && !r->trace.bad++)
		snprintf(r->trace.first_bad, sizeof(r->trace.first_bad),
		         "%s: pfn %#lx order %u from order %u, %s <- %s", why, pfn, alloc_order,
		         fallback_order, migratetype_names[alloc_mt], migratetype_names[fallback_mt]);
}

static void check_loaded_state(const struct run *r, struct machine *m,
                               const struct random_alloc_stats *st)
{
	struct pglist_data *pgdat = &m->pgdat;
	unsigned long attempts = 0, failures = 0, pgalloc = 0;
	long free_pages = 0, pcp = node_pcp_pages(pgdat);

	for (int c = 0; c < NR_RA_CLASSES; c++) {
		attempts += st->attempts[c];
		failures += st->failures[c];
	}
	assert_int_equal(attempts, r->sc->ops);
	assert_true(failures < attempts);
	assert_int_equal(st->check_failures, 0);
	assert_int_equal(check_pgdat(pgdat, r->name), 0);

	/* page conservation: every managed page is free, on a per-cpu list,
	 * or held by the load */
	for (int z = 0; z < MAX_NR_ZONES; z++)
		free_pages += pgdat->node_zones[z].vm_stat[NR_FREE_PAGES];
	assert_int_equal((unsigned long)free_pages + (unsigned long)pcp + st->live_pages,
	                 node_managed_pages(pgdat));
	/* the allocator's event counters agree with the load's book-keeping */
	for (int z = PGALLOC_DMA; z <= PGALLOC_MOVABLE; z++)   /* the policy zones count as movable */
		pgalloc += pgdat->vm_events[z];
	assert_int_equal(pgalloc - pgdat->vm_events[PGFREE], st->live_pages);

	if (!policy_is_hygiene(m->policy)) {
		/* vanilla never creates MIGRATE_FREE blocks */
		for (unsigned long b = 0; b < pgdat->nr_pageblocks; b++)
			assert_int_not_equal(get_pageblock_migratetype(pgdat, b << pageblock_order),
			                     MIGRATE_FREE);
		for (int z = 0; z < MAX_NR_ZONES; z++)
			assert_int_equal(pgdat->node_zones[z].vm_stat[NR_FREE_FREE], 0);
	} else {
		/* hygiene, defaults: fallbacks only into free blocks, each
		 * claiming its block; no boosting, no highatomic reserve */
		const struct extfrag_stats *ef = &pgdat->extfrag;
		unsigned long from_free = 0;
		for (int a = 0; a < MIGRATE_TYPES; a++)
			from_free += ef->by_type[a][MIGRATE_FREE];
		assert_int_equal(from_free, ef->events);
		assert_int_equal(ef->change_ownership, ef->events);
		if (r->trace.bad)
			fail_msg("%s: %lu of %lu extfrag events break the rule; first: %s", r->name,
			         r->trace.bad, r->trace.events, r->trace.first_bad);
		assert_int_equal(r->trace.events, ef->events);
		/* "fragmenting" (fallback below pageblock order) only where a
		 * free block is partly reserved: boot made it FREE too */
		assert_int_equal(r->trace.fragmenting_partial, ef->fragmenting);
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			assert_int_equal(pgdat->node_zones[z].watermark_boost, 0);
			assert_int_equal(pgdat->node_zones[z].nr_reserved_highatomic, 0);
		}
	}
}

static void check_released_state(const struct run *r, struct machine *m,
                                  const struct boot_state *boot)
{
	struct pglist_data *pgdat = &m->pgdat;

	assert_int_equal(check_pgdat(pgdat, r->name), 0);
	assert_int_equal(node_pcp_pages(pgdat), 0);
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		const struct zone *z = &pgdat->node_zones[zi];
		unsigned long high_boot = 0, high_now = 0;

		assert_int_equal(z->vm_stat[NR_FREE_PAGES], boot->nr_free_pages[zi]);
		if (!populated_zone(z))
			continue;
		for (unsigned o = 0; o < pageblock_order; o++)
			assert_int_equal(z->free_area[o].nr_free, boot->nr_free[zi][o]);
		for (unsigned o = pageblock_order; o < MAX_ORDER; o++) {
			high_boot += boot->nr_free[zi][o] << (o - pageblock_order);
			high_now += z->free_area[o].nr_free << (o - pageblock_order);
		}
		assert_int_equal(high_now, high_boot);

		if (policy_is_hygiene(m->policy)) {
			for (int o = 0; o < MAX_ORDER; o++)
				assert_int_equal(z->free_area[o].nr_free, boot->nr_free[zi][o]);
			for (unsigned long b = pageblock_start_pfn(z->zone_start_pfn); b < zone_end_pfn(z);
			     b += pageblock_nr_pages) {
				if (!block_fully_managed(pgdat, z, b))
					continue;
				if (get_pageblock_migratetype(pgdat, b) != MIGRATE_FREE)
					fail_msg("%s: zone %s: pageblock %#lx is %s after everything was freed",
					         r->name, z->name, b,
					         migratetype_names[get_pageblock_migratetype(pgdat, b)]);
			}
			/* and their pages are on the FREE lists */
			{
				unsigned long full = 0;
				for (unsigned long b = pageblock_start_pfn(z->zone_start_pfn);
				     b < zone_end_pfn(z); b += pageblock_nr_pages)
					if (block_fully_managed(pgdat, z, b))
						full += pageblock_nr_pages;
				assert_true((unsigned long)z->vm_stat[NR_FREE_FREE] >= full);
			}
		} else {
			/* two fully managed, mergeable pageblocks that are order-10
			 * buddies form one free page of order 10 */
			const unsigned long pair = 1ul << (MAX_ORDER - 1);
			for (unsigned long lo = z->zone_start_pfn & ~(pair - 1); lo < zone_end_pfn(z);
			     lo += pair) {
				unsigned long hi = lo + pageblock_nr_pages;
				int mt_lo, mt_hi;
				const struct page *p;

				if (!block_fully_managed(pgdat, z, lo) || !block_fully_managed(pgdat, z, hi))
					continue;
				mt_lo = get_pageblock_migratetype(pgdat, lo);
				mt_hi = get_pageblock_migratetype(pgdat, hi);
				if (mt_lo >= MIGRATE_PCPTYPES || mt_hi >= MIGRATE_PCPTYPES)
					continue;
				p = &pgdat->mem_map[lo];
				if (!PageBuddy(p) || page_order(p) != MAX_ORDER - 1)
					fail_msg("%s: zone %s: free pageblocks %#lx (%s) and %#lx (%s) not merged",
					         r->name, z->name, lo, migratetype_names[mt_lo], hi,
					         migratetype_names[mt_hi]);
			}
		}
	}
}

static void test_random_load(void **state)
{
	struct random_alloc_params p;
	struct random_alloc_stats st;
	struct boot_state boot;
	struct run *r = *state;
	struct machine *m = &r->m;
	unsigned long allocated = 0, attempts = 0, pgalloc = 0;
	long free_boot = 0, free_end = 0;
	double t0, t_run;

	machine_boot_or_fail(m, r->policy->name, r->sc->ram, r->sc->cpus);
	r->booted = true;
	assert_int_equal(check_pgdat(&m->pgdat, "boot"), 0);
	snapshot(&m->pgdat, &boot);
	memset(&r->trace, 0, sizeof(r->trace));
	if (policy_is_hygiene(m->policy)) {
		r->trace.pgdat = &m->pgdat;
		m->pgdat.extfrag.trace = hygiene_extfrag_trace;
		m->pgdat.extfrag.trace_arg = r;
	}

	random_alloc_defaults(&p);
	p.seed = r->sc->seed;
	p.ops = r->sc->ops;
	p.occupancy = r->sc->occupancy;
	p.check_every = r->sc->check_every;
	t0 = stress_now();
	r->loaded = true;
	random_alloc_run(&m->pgdat, &p, &st, 1);
	t_run = stress_now() - t0;

	for (int c = 0; c < NR_RA_CLASSES; c++) {
		attempts += st.attempts[c];
		allocated += st.attempts[c] - st.failures[c];
	}
	print_message("%-28s %lu attempts, %lu allocated (%.1f%% failed), %lu freed during the run, "
	              "%lu live pages, %lu extfrag events, %.2f s\n",
	              r->name, attempts, allocated,
	              100.0 * (double)(attempts - allocated) / (double)attempts,
	              allocated - st.live_objects, st.live_pages, m->pgdat.extfrag.events, t_run);
	check_loaded_state(r, m, &st);

	random_alloc_release(&m->pgdat);
	r->loaded = false;
	drain_all_pages(&m->pgdat);
	check_released_state(r, m, &boot);

	for (int z = PGALLOC_DMA; z <= PGALLOC_MOVABLE; z++)
		pgalloc += m->pgdat.vm_events[z];
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		free_boot += boot.nr_free_pages[z];
		free_end += m->pgdat.node_zones[z].vm_stat[NR_FREE_PAGES];
	}
	for (int i = 0; mm_policy_table[i]; i++)
		if (mm_policy_table[i] == r->policy) {
			totals[i].runs++;
			totals[i].attempts += attempts;
			totals[i].allocated += allocated;
			totals[i].pages_allocated += pgalloc;
			totals[i].pages_freed += m->pgdat.vm_events[PGFREE];
			totals[i].free_pages_delta += free_end - free_boot;
		}
}

/* after every run, passed or failed: random_alloc keeps its live objects
 * in a static heap, which must be empty before the next run starts */
static int teardown_run(void **state)
{
	struct run *r = *state;

	if (r->loaded)
		random_alloc_release(&r->m.pgdat);
	if (r->booted)
		machine_destroy(&r->m);
	r->loaded = r->booted = false;
	return 0;
}

/* over every scenario of each policy: every scenario ran to the end, at
 * least a million allocations succeeded, every page the allocator handed
 * out came back to it (PGFREE, counted in __free_pages, equals PGALLOC_*,
 * counted in rmqueue), and the free page counts are the boot counts */
static void test_totals(void **state)
{
	(void)state;
	for (int i = 0; mm_policy_table[i]; i++) {
		const struct totals *t = &totals[i];
		print_message("%-10s total: %lu runs, %lu attempts, %lu allocations, %lu pages allocated, "
		              "%lu pages freed, free pages %+ld against boot\n", mm_policy_table[i]->name,
		              t->runs, t->attempts, t->allocated, t->pages_allocated, t->pages_freed,
		              t->free_pages_delta);
		assert_int_equal(t->runs, NR_SCENARIOS);
		assert_true(t->attempts >= MIN_ATTEMPTS_PER_POLICY);
		assert_true(t->allocated >= MIN_ATTEMPTS_PER_POLICY);
		assert_true(t->pages_allocated >= t->allocated);
		assert_int_equal(t->pages_freed, t->pages_allocated);
		assert_int_equal(t->free_pages_delta, 0);
	}
}

int main(void)
{
	static struct run runs[16 * NR_SCENARIOS];
	static struct CMUnitTest tests[16 * NR_SCENARIOS + 1];
	static struct scenario sc[NR_SCENARIOS];
	size_t n = 0;
	int nr_policies = 0;

	while (mm_policy_table[nr_policies])
		nr_policies++;
	if (nr_policies > 16) {
		fprintf(stderr, "stress_random: more than 16 policies\n");
		return 1;
	}
	for (size_t s = 0; s < NR_SCENARIOS; s++) {
		sc[s] = scenarios[s];
		sc[s].ops = scaled_ops(sc[s].ops);
	}
	for (int i = 0; i < nr_policies; i++)
		for (size_t s = 0; s < NR_SCENARIOS; s++, n++) {
			runs[n].policy = mm_policy_table[i];
			runs[n].sc = &sc[s];
			snprintf(runs[n].name, sizeof(runs[n].name), "%s/%s", mm_policy_table[i]->name,
			         sc[s].name);
			tests[n] = (struct CMUnitTest){ runs[n].name, test_random_load, NULL, teardown_run,
			                                 &runs[n] };
		}
	tests[n++] = (struct CMUnitTest){ "totals", test_totals, NULL, NULL, NULL };
	return _cmocka_run_group_tests("stress_random", tests, n, NULL, NULL);
}
