/* periodic.c - observers on the virtual clock: a daemon actor per
 * engine_every() that calls a function every period of virtual time, at
 * multiples of the period from its start, so that they line up across
 * runs.  The engine's sampler is one (engine_sample_every(), which also
 * records at the start); the run adds the pageblock census and the free
 * pageblock count. */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "engine_internal.h"
#include "mmsim/limits.h"

#define MAX_PERIODIC (8 + 1)           /* engine_every()'s 8, and the sampler */

static struct periodic {
	struct engine *e;
	const char *name;
	double period;
	void (*fn)(struct engine *, void *);
	void *arg;
	bool records;   /* each call stores a record: bounded by mmsim_max_samples() */
	bool at_start;  /* a call at the start too, before the first period */
} periodic[MAX_PERIODIC];
static unsigned nr_periodic;

static void periodic_main(int argc, char **argv)
{
	struct periodic *p = sg_actor_self_get_data();
	double t0 = simgrid_get_clock();
	unsigned long k = 0, calls = 0;

	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	if (p->at_start) {
		p->fn(p->e, p->arg);
		calls++;
	}
	for (;;) {
		/* multiples of the period from the start */
		sg_actor_sleep_until(t0 + (double)++k * p->period);
		if (engine_stalled(p->e))
			return;         /* let SimGrid see the deadlock (P6) */
		/* a run of "auto" duration cannot be bounded before it starts
		 * (scenario_resolve() bounds the others): stop here, before the
		 * records exhaust the host's memory and disk */
		if (p->records && calls >= mmsim_max_samples()) {
			engine_too_many_records(p->e, p->name, p->period);
			return;
		}
		p->fn(p->e, p->arg);
		calls++;
	}
}

static int start_periodic(struct engine *e, const char *name, double period,
                          void (*fn)(struct engine *, void *), void *arg, bool records, bool at_start)
{
	struct periodic *p;
	sg_actor_t a;

	if (!(period > 0) || !fn || nr_periodic == MAX_PERIODIC)
		return -1;
	p = &periodic[nr_periodic++];
	p->e = e;
	p->name = name;
	p->period = period;
	p->fn = fn;
	p->arg = arg;
	p->records = records;
	p->at_start = at_start;
	a = sg_actor_init(name, engine_host());
	sg_actor_set_data(a, p);
	sg_actor_start(a, periodic_main, 0, NULL);
	return 0;
}

int engine_every(struct engine *e, const char *name, double period,
                 void (*fn)(struct engine *, void *), void *arg)
{
	return start_periodic(e, name, period, fn, arg, true, false);
}

int engine_poll_every(struct engine *e, const char *name, double period,
                      void (*fn)(struct engine *, void *), void *arg)
{
	return start_periodic(e, name, period, fn, arg, false, false);
}

static void sample_tick(struct engine *e, void *arg)
{
	(void)arg;
	engine_take_sample(e);
}

int engine_sample_every(struct engine *e, double period)
{
	return start_periodic(e, "sampler", period, sample_tick, NULL, true, true);
}
