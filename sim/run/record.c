/* record.c - a run's results into a results database (see run.h and
 * docs/schema.md for what each table holds). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/run.h"
#include "results.h"
#include "stats.h"
#include "workload.h"

/* The time series stored as samples rows, by /proc/vmstat name (events,
 * node or zone stats, whichever has the name), plus free_pageblocks,
 * which the run counts itself.  A name the model does not keep is
 * skipped. */
static const char *const sample_names[] = {
	"thp_fault_alloc", "thp_fault_fallback",
	"compact_stall", "compact_success", "compact_fail",
	"compact_migrate_scanned", "compact_free_scanned",
	"compact_daemon_migrate_scanned", "compact_daemon_free_scanned",
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"allocstall_movable", "pswpout", "pswpin", "workingset_refault_file",
	"nr_free_pages", "nr_free_free", "nr_anon_pages", "nr_mapped", "nr_file_pages",
	"nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_page_table_pages", "slabs_scanned",
	"dentry_nr_dentry", "dentry_nr_unused", "dentry_nr_negative", "inode_nr_inodes", "inode_nr_unused",
	NULL,
};

/* the node counters that only grow (in /proc/vmstat beside the events:
 * workingset_refault_file is the cover letter's "File refaults"), stored
 * as deltas too */
static const enum node_stat_item monotonic[] = {
	WORKINGSET_REFAULT_ANON, WORKINGSET_REFAULT_FILE, WORKINGSET_ACTIVATE_ANON,
	WORKINGSET_ACTIVATE_FILE, WORKINGSET_RESTORE_ANON, WORKINGSET_RESTORE_FILE,
	NR_VMSCAN_WRITE, NR_DIRTIED, NR_WRITTEN,
};

int run_window_deltas(const struct run_window *w,
                      int (*fn)(const char *name, int64_t delta, void *arg), void *arg)
{
	int rc;

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if ((rc = fn(vm_event_names[i], (int64_t)(w->end.vm_events[i] - w->start.vm_events[i]), arg)))
			return rc;
	for (size_t i = 0; i < sizeof(monotonic) / sizeof(monotonic[0]); i++)
		if ((rc = fn(node_stat_names[monotonic[i]],
		             (int64_t)(w->end.node_stat[monotonic[i]] - w->start.node_stat[monotonic[i]]), arg)))
			return rc;
	return 0;
}

static int lookup_sample(const char *name, int *kind, int *idx)
{
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if (!strcmp(vm_event_names[i], name))
			return *kind = 0, *idx = i, 0;
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		if (!strcmp(node_stat_names[i], name))
			return *kind = 1, *idx = i, 0;
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (!strcmp(zone_stat_names[i], name))
			return *kind = 2, *idx = i, 0;
	for (int i = 0; i < NR_SAMPLE_FS; i++)
		if (!strcmp(sample_fs_names[i], name))
			return *kind = 3, *idx = i, 0;
	return -1;
}

static double sample_value(const struct sample *s, int kind, int idx)
{
	return kind == 0 ? (double)s->vm_events[idx] : kind == 1 ? (double)s->node_stat[idx]
	       : kind == 2 ? (double)s->zone_stat[idx] : (double)s->fs_stat[idx];
}

struct vmstat_sink {
	struct results_db *db;
	const char *id;
};

static int add_vmstat(const char *name, int64_t delta, void *arg)
{
	struct vmstat_sink *k = arg;
	return results_add_vmstat(k->db, k->id, name, delta);
}

struct iter_sink {
	struct results_db *db;
	const char *id;
	long iteration;
};

static int add_iteration_vmstat(const char *name, int64_t delta, void *arg)
{
	struct iter_sink *k = arg;
	return results_add_iteration_vmstat(k->db, k->id, k->iteration, name, delta);
}

static int store(const struct run *r, struct results_db *db, const struct run_record *rec)
{
	const char *id = rec->run_id;
	const struct scenario *s = r->scenario;
	struct vmstat_sink sink = { db, id };
	struct metric m[64];

	if (results_add_run(db, rec))
		return -1;
	for (size_t i = 0; i < scenario_nr_params(s); i++) {
		const char *k, *v;
		scenario_param(s, i, &k, &v);
		if (results_add_param(db, id, k, v))
			return -1;
	}
	/* every event counter, as its delta over the measured window */
	if (run_window_deltas(&r->whole, add_vmstat, &sink))
		return -1;
	/* [run] iterations > 1: each iteration's window, counters and
	 * workload metrics (the vmstat rows above are their sum) */
	for (unsigned k = 0; r->nr_windows > 1 && k < r->nr_windows; k++) {
		const struct run_window *w = &r->windows[k];
		struct iter_sink is = { db, id, k + 1 };

		if (results_add_iteration(db, id, k + 1, w->start.t, w->end.t) ||
		    run_window_deltas(w, add_iteration_vmstat, &is))
			return -1;
		for (unsigned i = 0; i < w->nr_metrics; i++)
			if (results_add_iteration_metric(db, id, k + 1, w->metrics[i].name, w->metrics[i].value))
				return -1;
	}
	/* workload metrics (with iterations: as they stand at the end, the
	 * last iteration's), then the run's own */
	for (unsigned w = 0; w < r->set->n; w++) {
		const struct workload *wl = r->set->w[w];
		size_t n = wl->ops->report ? wl->ops->report(wl, m, sizeof(m) / sizeof(m[0])) : 0;
		for (size_t i = 0; i < n; i++)
			if (results_add_metric(db, id, m[i].name, m[i].value))
				return -1;
	}
	/* the metrics the import makes of a real run's wakes.tsv, by the same
	 * names: the two lists are one (results/metrics.c) */
	_Static_assert(RESULTS_NR_TRACE_EVENTS == NR_MM_TRACE_EVENTS && RESULTS_TRACE_ORDERS == MAX_ORDER,
	               "results_trace_events and enum mm_trace_event differ");
	/* the tracepoints real/harness counts (its wakes.tsv), over the
	 * measured window, by order: <tracepoint>_order<N>, zeros included,
	 * as `mmsim import` stores a real run's */
	{
		const struct run_window *w = &r->whole;
		char name[80];
		for (int ev = 0; ev < NR_MM_TRACE_EVENTS; ev++)
			for (int o = 0; o < MAX_ORDER; o++) {
				snprintf(name, sizeof(name), "%s_order%d", mm_trace_event_names[ev], o);
				if (results_add_metric(db, id, name,
				                       (double)(w->end.trace_events[ev][o] - w->start.trace_events[ev][o])))
					return -1;
			}
		/* and those that print gfp_flags, orders 1-10 by the request's
		 * class: <tracepoint>_gfp_<class> */
		_Static_assert((int)RESULTS_NR_GFP_CLASSES == (int)NR_TRACE_GFP_CLASSES, "gfp classes differ");
		for (int ev = 0; ev < NR_MM_TRACE_EVENTS; ev++) {
			if (!results_trace_event_has_gfp(mm_trace_event_names[ev]))
				continue;
			for (int c = 0; c < NR_TRACE_GFP_CLASSES; c++) {
				snprintf(name, sizeof(name), "%s_gfp_%s", mm_trace_event_names[ev],
				         trace_gfp_class_names[c]);
				if (results_add_metric(db, id, name,
				                       (double)(w->end.trace_gfp[ev][c] - w->start.trace_gfp[ev][c])))
					return -1;
			}
		}
	}
	/* mm_page_alloc_extfrag, tallied over the whole run (a trace, not a
	 * /proc counter): how often and from where allocations fell back */
	{
		const struct extfrag_stats *ef = &r->pgdat.extfrag;
		char name[64];
		if (results_add_metric(db, id, "extfrag_events", (double)ef->events) ||
		    results_add_metric(db, id, "extfrag_fragmenting", (double)ef->fragmenting) ||
		    results_add_metric(db, id, "extfrag_change_ownership", (double)ef->change_ownership))
			return -1;
		for (int a = 0; a < MIGRATE_TYPES; a++)
			for (int f = 0; f < MIGRATE_TYPES; f++) {
				if (!ef->by_type[a][f])
					continue;
				snprintf(name, sizeof(name), "extfrag_%s_from_%s", migratetype_names[a],
				         migratetype_names[f]);
				if (results_add_metric(db, id, name, (double)ef->by_type[a][f]))
					return -1;
			}
	}
	/* what became of the pages written to swap, tallied over the whole
	 * run (docs/model.md, "Swap-out and pgsteal_anon") */
	{
		const struct swap_info *si = &r->pgdat.swap;
		if (results_add_metric(db, id, "swapout_written", (double)si->fate.written) ||
		    results_add_metric(db, id, "swapout_reclaimed", (double)si->fate.reclaimed) ||
		    results_add_metric(db, id, "swapout_unmapped", (double)si->fate.unmapped) ||
		    results_add_metric(db, id, "swapout_mapped_back", (double)si->fate.mapped_back))
			return -1;
	}
	/* the block devices' queues over the whole run: how long requests
	 * waited for the device before their transfer started */
	{
		const struct blockdev *dev[2] = { &r->pgdat.disk, &r->pgdat.swap.dev };
		static const char *const dev_name[2] = { "disk", "swap" };
		char name[64];
		for (int d = 0; d < 2; d++) {
			for (int w = 0; w < 2; w++) {
				const struct blockdev_stats *st = &dev[d]->stats[w];
				const struct { const char *what; double value; } v[] = {
					{ "requests", (double)st->requests },
					{ "queue_wait_seconds", st->wait_total },
					{ "queue_wait_max_seconds", st->wait_max },
					{ "long_waits", (double)st->long_waits },
				};
				for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
					snprintf(name, sizeof(name), "blockdev_%s_%s_%s", dev_name[d],
					         w ? "write" : "read", v[i].what);
					if (results_add_metric(db, id, name, v[i].value))
						return -1;
				}
			}
			snprintf(name, sizeof(name), "blockdev_%s_far_ahead", dev_name[d]);
			if (results_add_metric(db, id, name, (double)dev[d]->nr_far_ahead))
				return -1;
		}
		if (results_add_metric(db, id, "blockdev_catch_ups", (double)r->pgdat.sched_stats.io_catch_ups))
			return -1;
	}
	/* buddies taken off a free list of another type than their block's
	 * (the model's count, over the whole run: mmzone.h) */
	if (results_add_metric(db, id, "freelist_type_mismatch", (double)r->pgdat.sched_stats.freelist_type_mismatch))
		return -1;
	/* the last census (the idle machine after the last iteration): how
	 * far the kernel's pages are spread over the pageblocks */
	if (r->nr_census) {
		const struct block_census *c = &r->census[r->nr_census - 1].c;
		unsigned long blocks = 0;
		char name[64];
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			blocks += c->blocks[mt];
			if (mt >= MIGRATE_PCPTYPES && !c->slab_blocks[mt])
				continue;
			snprintf(name, sizeof(name), "census_%s_slab_blocks", migratetype_names[mt]);
			if (results_add_metric(db, id, name, (double)c->slab_blocks[mt]))
				return -1;
		}
		/* the cover letter's "reclaimable blocks with non-slab pages:
		 * 16 ({'lru': 37, 'kmem': 311, 'other': 26} pages)" */
		{
			static const char *const kind[NR_CENSUS_KINDS] = {
				[CENSUS_LRU] = "lru", [CENSUS_SLAB] = "slab", [CENSUS_KMEM] = "kmem",
				[CENSUS_OTHER] = "other",
			};
			unsigned long by_kind[NR_CENSUS_KINDS];
			unsigned long foreign = census_foreign_pages(c, MIGRATE_RECLAIMABLE, by_kind);

			if (results_add_metric(db, id, "census_Reclaimable_foreign_pages", (double)foreign) ||
			    results_add_metric(db, id, "census_Reclaimable_mixed_blocks",
			                       (double)c->mixed_blocks[MIGRATE_RECLAIMABLE]))
				return -1;
			for (int k = 0; k < NR_CENSUS_KINDS; k++) {
				if (k == CENSUS_SLAB)
					continue;       /* slab pages are a reclaimable block's own */
				snprintf(name, sizeof(name), "census_Reclaimable_foreign_%s", kind[k]);
				if (results_add_metric(db, id, name, (double)by_kind[k]))
					return -1;
			}
		}
		if (results_add_metric(db, id, "census_blocks", (double)blocks) ||
		    results_add_metric(db, id, "census_kernel_blocks", (double)c->kernel_blocks) ||
		    results_add_metric(db, id, "census_kernel_pages", (double)c->kernel_pages) ||
		    results_add_metric(db, id, "census_pages", (double)(blocks * pageblock_nr_pages)))
			return -1;
	}
	/* /proc/sys/fs/dentry-state at the end of the measured window, and
	 * what the window added (the measured build's slabinfo diff) */
	{
		const long *e = r->whole.end.fs_stat, *b = r->whole.start.fs_stat;
		if (results_add_metric(db, id, "dentry_nr_dentry", (double)e[SAMPLE_DENTRY_NR_DENTRY]) ||
		    results_add_metric(db, id, "dentry_nr_unused", (double)e[SAMPLE_DENTRY_NR_UNUSED]) ||
		    results_add_metric(db, id, "dentry_age_limit", 45) ||
		    results_add_metric(db, id, "dentry_want_pages", 0) ||
		    results_add_metric(db, id, "dentry_nr_negative", (double)e[SAMPLE_DENTRY_NR_NEGATIVE]) ||
		    results_add_metric(db, id, "dentry_nr_dentry_added",
		                       (double)(e[SAMPLE_DENTRY_NR_DENTRY] - b[SAMPLE_DENTRY_NR_DENTRY])) ||
		    results_add_metric(db, id, "dentry_nr_negative_added",
		                       (double)(e[SAMPLE_DENTRY_NR_NEGATIVE] - b[SAMPLE_DENTRY_NR_NEGATIVE])) ||
		    results_add_metric(db, id, "inode_nr_inodes", (double)e[SAMPLE_INODE_NR_INODES]) ||
		    results_add_metric(db, id, "inode_nr_unused", (double)e[SAMPLE_INODE_NR_UNUSED]))
			return -1;
	}
	/* the median of free memory over the measured window, sampled as
	 * real/harness samples it (nr_free_pages every sample_interval) */
	{
		double *v = malloc((r->e.nr_samples ? r->e.nr_samples : 1) * sizeof(*v));
		size_t n = 0;
		int kind, idx;

		if (!v || lookup_sample("nr_free_pages", &kind, &idx)) {
			free(v);
			return -1;
		}
		for (size_t i = 0; i < r->e.nr_samples; i++)
			if (r->e.samples[i].t >= r->whole.start.t && r->e.samples[i].t <= r->whole.end.t)
				v[n++] = sample_value(&r->e.samples[i], kind, idx);
		if (n && results_add_metric(db, id, "nr_free_pages_median", results_median(v, n))) {
			free(v);
			return -1;
		}
		free(v);
	}
	/* the huge page pool the harness's work between iterations reserved */
	if (r->cfg->nr_hugepages && results_add_metric(db, id, "hugetlb_pool_pages", (double)r->hugetlb_pool))
		return -1;
	/* huge pages allocatable at rest, and their share of RAM */
	if (r->cfg->hugepages_at_rest &&
	    (results_add_metric(db, id, "hugepages_at_rest", (double)r->hugepages_at_rest) ||
	     results_add_metric(db, id, "hugepages_at_rest_pct",
	                        100.0 * (double)(r->hugepages_at_rest << (pageblock_order + PAGE_SHIFT)) / (double)r->cfg->ram)))
		return -1;
	if (results_add_metric(db, id, "window_seconds", r->whole.end.t - r->whole.start.t) ||
	    results_add_metric(db, id, "sim_seconds", rec->sim_seconds) ||
	    results_add_metric(db, id, "sim_wall_ratio",
	                       rec->wall_seconds > 0 ? rec->sim_seconds / rec->wall_seconds : 0))
		return -1;
	/* time series */
	for (const char *const *name = sample_names; *name; name++) {
		int kind, idx;
		if (lookup_sample(*name, &kind, &idx))
			continue;
		for (size_t i = 0; i < r->e.nr_samples; i++) {
			/* the engine's last sample is at the clock, which a run with
			 * a duration leaves past the end: it is the end state */
			double t = r->e.samples[i].t;
			if (t > rec->sim_seconds) {
				if (i && r->e.samples[i - 1].t >= rec->sim_seconds)
					break;
				t = rec->sim_seconds;
			}
			if (results_add_sample(db, id, t, *name, sample_value(&r->e.samples[i], kind, idx)))
				return -1;
		}
	}
	for (size_t i = 0; i < r->nr_freeblocks; i++)
		if (results_add_sample(db, id, r->freeblocks[i].t, "free_pageblocks", r->freeblocks[i].value))
			return -1;
	/* censuses and maps */
	for (size_t i = 0; i < r->nr_census; i++) {
		const struct run_census *cs = &r->census[i];
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			const unsigned long *p = cs->c.mixed_pages[mt];
			if (!cs->c.blocks[mt])
				continue;
			if (results_add_census(db, id, cs->t, migratetype_names[mt], (long)cs->c.blocks[mt],
			                       (long)cs->c.mixed_blocks[mt], (long)p[CENSUS_LRU],
			                       (long)p[CENSUS_SLAB], (long)p[CENSUS_KMEM], (long)p[CENSUS_OTHER]))
				return -1;
		}
		for (unsigned g = 0; cs->map && g < r->groups; g++)
		{
			/* "Movable", or "Movable mixed" for a mixed group (census.h) */
			char mt[64];
			snprintf(mt, sizeof(mt), "%s%s", migratetype_names[cs->map[g] & ~PAGEBLOCK_MAP_MIXED],
			         cs->map[g] & PAGEBLOCK_MAP_MIXED ? " mixed" : "");
			if (results_add_blockmap(db, id, cs->t, (long)g, mt))
				return -1;
		}
	}
	return 0;
}

int run_store(const struct run *r, struct results_db *db, const struct run_record *rec,
              char *err, size_t errlen)
{
	if (store(r, db, rec)) {
		snprintf(err, errlen, "%s", results_errmsg(db));
		return -1;
	}
	return 0;
}
