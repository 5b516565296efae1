/* sampler.c - the sampler's record: a copy of the vmstat counters (events,
 * node stats, zone stats summed over zones) appended to e->samples.  A
 * periodic observer (periodic.c, engine_sample_every()) takes one at the
 * start and every cfg.sample_interval seconds of virtual time from it;
 * engine_run() adds a last one at the time it stops.  Also the bound on
 * every time series (engine_too_many_records()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <simgrid/actor.h>
#include "mmsim/dcache.h"
#include "engine_internal.h"
#include "mmsim/limits.h"

void engine_take_sample(struct engine *e)
{
	const struct pglist_data *pgdat = e->pgdat;

	if (e->nr_samples == e->cap_samples) {
		size_t cap = e->cap_samples ? e->cap_samples * 2 : 256;
		struct sample *n = realloc(e->samples, cap * sizeof(*n));
		if (!n) {
			fprintf(stderr, "mmsim: sampler: out of memory\n");
			abort();
		}
		e->samples = n;
		e->cap_samples = cap;
	}
	sample_counters(pgdat, &e->samples[e->nr_samples++]);
}

const char *const sample_fs_names[NR_SAMPLE_FS] = {
	[SAMPLE_DENTRY_NR_DENTRY] = "dentry_nr_dentry", [SAMPLE_DENTRY_NR_UNUSED] = "dentry_nr_unused",
	[SAMPLE_DENTRY_NR_NEGATIVE] = "dentry_nr_negative", [SAMPLE_INODE_NR_INODES] = "inode_nr_inodes",
	[SAMPLE_INODE_NR_UNUSED] = "inode_nr_unused",
};

void sample_counters(const struct pglist_data *pgdat, struct sample *s)
{
	struct dentry_state ds;
	struct inodes_stat is;

	s->t = engine_now();
	memcpy(s->vm_events, pgdat->vm_events, sizeof(s->vm_events));
	memcpy(s->node_stat, pgdat->vm_node_stat, sizeof(s->node_stat));
	memcpy(s->trace_events, pgdat->trace_events, sizeof(s->trace_events));
	memcpy(s->trace_gfp, pgdat->trace_gfp, sizeof(s->trace_gfp));
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		long sum = 0;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			sum += pgdat->node_zones[z].vm_stat[i];
		s->zone_stat[i] = sum;
	}
	dentry_state(pgdat, &ds);
	inodes_stat(pgdat, &is);
	s->fs_stat[SAMPLE_DENTRY_NR_DENTRY] = ds.nr_dentry;
	s->fs_stat[SAMPLE_DENTRY_NR_UNUSED] = ds.nr_unused;
	s->fs_stat[SAMPLE_DENTRY_NR_NEGATIVE] = ds.nr_negative;
	s->fs_stat[SAMPLE_INODE_NR_INODES] = is.nr_inodes;
	s->fs_stat[SAMPLE_INODE_NR_UNUSED] = is.nr_unused;
}

void engine_too_many_records(struct engine *e, const char *what, double period)
{
	if (e->error)
		return;         /* another observer stopped the run first */
	e->error = -E2BIG;
	snprintf(e->error_msg, sizeof(e->error_msg),
	         "the %s would record more than %lu times (every %g s of virtual "
	         "time): [run] sample_interval or census_interval too short for this run; a longer "
	         "interval, or MMSIM_MAX_SAMPLES=N in the environment to allow more on purpose",
	         what, mmsim_max_samples(), period);
	/* SimGrid cannot be stopped otherwise: every other actor is killed
	 * where it waits (P5: through C frames), and simgrid_run() returns
	 * once the caller has returned too */
	sg_actor_kill_all();
}
