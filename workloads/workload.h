/* workload.h - workloads as modules behind one interface.
 *
 * A workload is a table of operations (struct workload_ops) and a private
 * state of priv_size bytes.  The run creates it by name from the registry
 * (workload.c), sets its parameters from text (scenario file or --set),
 * validates them, then start() creates its files and spawns its processes
 * on the engine.  Processes touch memory only through mm.h; they never see
 * zones.  Randomness comes from GSL generators seeded from (run seed,
 * entity index), never from actor ids, so that the same seed gives the
 * same jobs under every policy.
 *
 * Measured and background workloads: a measured workload (the kernel
 * build) defines the measured window, from its start to the moment it
 * calls workload_finished().  When every measured workload has finished,
 * the set is "stopping": background workloads (the THP faulter) see
 * workload_stopping() and end their processes, and the run's
 * on_measured_end callback takes the closing counter snapshot.
 *
 * Adding a workload: write NAME.c with a `const struct workload_ops
 * NAME_ops`, add it to workload_table[] in workload.c.  Nothing else.
 */
#ifndef MMSIM_WORKLOADS_WORKLOAD_H
#define MMSIM_WORKLOADS_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mmsim/engine.h"
#include "mmsim/param.h"

struct workload;
struct workload_set;

/* A workload result: (name, value), stored in the results' metrics table. */
struct metric {
	char name[48];
	double value;
};

struct workload_ops {
	const char *name;
	const char *desc;
	/* the parameters: a table (mmsim/param.h) whose fields are in priv;
	 * adding a parameter is one entry there.  NULL-name terminated */
	const struct param *params;
	size_t priv_size;
	bool measured;                           /* defines the measured window (see above) */
	bool implicit;                           /* started by a scenario key of its own ([system]
	                                          * profile), never named in [workload] names */

	/* all parameters set: reject combinations that cannot run (and
	 * derive what the parameters determine) */
	int    (*validate)(struct workload *w, char *err, size_t errlen);
	/* create files and spawn processes (w->engine, w->pgdat are set) */
	int    (*start)(struct workload *w, char *err, size_t errlen);
	/* after the run: up to n metrics into out; returns how many */
	size_t (*report)(const struct workload *w, struct metric *out, size_t n);
	/* free what start() and set_param() allocated (priv itself is freed by the core) */
	void   (*fini)(struct workload *w);
	/* optional, measured workloads: is the outcome no result (make died,
	 * nothing built)?  true with the reason in why (why may be NULL);
	 * the run is then stored with status 'failed' */
	bool   (*failure)(const struct workload *w, char *why, size_t len);
	/* optional, measured workloads ([run] iterations > 1): called by the
	 * run driver after iteration `iteration` - 1 finished, to run again
	 * on the machine as it is (iteration counts from 0).  0: restarted;
	 * 1: not yet (its processes of the iteration before have not all
	 * ended; called again later); -1 with a message on failure */
	int    (*restart)(struct workload *w, unsigned iteration, char *err, size_t errlen);
	/* optional, after validate(): the files the workload will read
	 * (datasets, profiles), fn called once for each path; a run's
	 * identity covers their contents (the scenario's hash) */
	void   (*inputs)(const struct workload *w, void (*fn)(const char *path, void *arg), void *arg);
};

struct workload {
	const struct workload_ops *ops;
	void *priv;                              /* priv_size bytes, zeroed, defaults applied */
	unsigned index;                          /* position in the run (seeds: (seed, index, entity)) */
	uint64_t seed;                           /* the run's seed */
	struct pglist_data *pgdat;
	struct engine *engine;
	struct workload_set *set;
	double t_start, t_end;                   /* virtual seconds; t_end < 0 until finished */
	bool finished;
};

#define MAX_WORKLOADS 8
struct workload_set {
	struct workload *w[MAX_WORKLOADS];
	unsigned n;
	bool stopping;                           /* every measured workload has finished */
	void (*on_measured_end)(struct workload_set *, void *arg);
	void *arg;
};

/* registry */
extern const struct workload_ops *const workload_table[];
const struct workload_ops *workload_find(const char *name);
const char *workload_names(void);                 /* "kbuild, thp_faulter, ..." */

/* create with every parameter at its default (the table's def) */
int  workload_create(const char *name, struct workload **out, char *err, size_t errlen);
/* set one parameter through the table; -1 with the message tail ("'x' is
 * not ...", "workload W has no parameter 'k' (valid: ...)") */
int  workload_set_param(struct workload *w, const char *key, const char *value, char *err, size_t errlen);
int  workload_validate(struct workload *w, char *err, size_t errlen);
void workload_destroy(struct workload *w);

/* add to a set; starts nothing */
int  workload_set_add(struct workload_set *s, struct workload *w);
/* start every workload of the set on the engine, in order */
int  workload_set_start(struct workload_set *s, struct engine *e, struct pglist_data *pgdat,
                        uint64_t seed, char *err, size_t errlen);
/* run a finished measured workload again (ops->restart; see there): on
 * 0 it is unfinished again, its t_start now; -1 with a message if it has
 * no restart */
int  workload_restart(struct workload *w, unsigned iteration, char *err, size_t errlen);
/* a measured workload is done: records t_end; the last one sets
 * s->stopping and calls on_measured_end */
void workload_finished(struct workload *w);
static inline bool workload_stopping(const struct workload *w)
{
	return w->set && w->set->stopping;
}

/* GSL seeding helper: a seed from (run seed, workload index, entity), mixed
 * (splitmix64) so that neighbouring entities get unrelated streams */
uint64_t workload_seed(const struct workload *w, uint64_t entity);

#endif
