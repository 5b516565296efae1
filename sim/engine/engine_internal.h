/* engine_internal.h - what the engine's actors (engine.c, kswapd.c,
 * kcompactd.c, flusher.c, sampler.c) share and nothing else sees. */
#ifndef MMSIM_ENGINE_INTERNAL_H
#define MMSIM_ENGINE_INTERNAL_H

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include "mmsim/engine.h"

/* the one host, "cpu" */
sg_host_t engine_host(void);

/* Start a daemon actor running fn, with the engine as its data.  The
 * actor daemonizes itself first thing, so it is killed when the last
 * process ends. */
void engine_start_daemon(struct engine *e, const char *name, xbt_main_func_t fn);

/* The engine of the running daemon (its actor data). */
static inline struct engine *engine_self(void)
{
	return sg_actor_self_get_data();
}

/* True when every live process is blocked in task_wait() on a process
 * that is itself waiting: nothing but the periodic daemons' timers would
 * ever happen again.  Those daemons then return, so that SimGrid sees the
 * deadlock (pitfall P6) instead of advancing the clock forever. */
bool engine_stalled(const struct engine *e);

/* Run ns on the calling actor's CPU, counted among the runnable actors
 * (e->nr_running, what need_resched() reads) while it executes. */
void cpu_sharing_start(struct engine *e);     /* cpu.c: [run] cpu_sharing = heap */
bool cpu_sharing_on(void);
void cpu_execute(double ns);

static inline void engine_execute(struct engine *e, double ns)
{
	e->nr_running++;
	if (cpu_sharing_on())
		cpu_execute(ns);
	else
		sg_actor_execute(ns);
	e->nr_running--;
}

/* Charge kernel CPU time of a daemon: one execution (skipped at 0, P11). */
static inline void engine_charge(double ns)
{
	if (ns > 0)
		engine_execute(engine_self(), ns);
}

/* the daemons (one file each) */
void kswapd_main(int argc, char **argv);
void kcompactd_main(int argc, char **argv);
void flusher_main(int argc, char **argv);
/* the sampler: engine_take_sample() at the start and every period, a
 * periodic observer (periodic.c) */
int engine_sample_every(struct engine *e, double period);
/* A time series would run past mmsim_max_samples(): stop the run.  Sets
 * e->error (-E2BIG) and e->error_msg and kills every other actor; the
 * caller, a daemon, returns at once, and engine_run() returns. */
void engine_too_many_records(struct engine *e, const char *what, double period);

/* kcompactd's wake notifier (mm_host_ops.kcompactd_wake) */
void engine_kcompactd_wake(struct pglist_data *pgdat);
/* the sampler's record, also taken at the end of engine_run() */
void engine_take_sample(struct engine *e);

#endif
