/* periodic.c - observers on the virtual clock: a daemon actor per
 * engine_every() that calls a function every period of virtual time, as
 * the sampler does for the counters.  The run uses it for the pageblock
 * census and the free pageblock count, which the sampler does not copy. */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "engine_internal.h"
#include "mmsim/limits.h"

#define MAX_PERIODIC 8

static struct periodic {
	struct engine *e;
	const char *name;
	double period;
	void (*fn)(struct engine *, void *);
	void *arg;
	bool records;   /* each call stores a record: bounded by mmsim_max_samples() */
} periodic[MAX_PERIODIC];
static unsigned nr_periodic;

static void periodic_main(int argc, char **argv)
{
	struct periodic *p = sg_actor_self_get_data();
	double t0 = simgrid_get_clock();
	unsigned long k = 0;

	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		/* multiples of the period from the start, as the sampler's */
		sg_actor_sleep_until(t0 + (double)++k * p->period);
		if (engine_stalled(p->e))
			return;         /* let SimGrid see the deadlock (P6) */
		if (p->records && k > mmsim_max_samples()) {
			engine_too_many_records(p->e, p->name, p->period);
			return;
		}
		p->fn(p->e, p->arg);
	}
}

static int start_periodic(struct engine *e, const char *name, double period,
                          void (*fn)(struct engine *, void *), void *arg, bool records)
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
	a = sg_actor_init(name, engine_host());
	sg_actor_set_data(a, p);
	sg_actor_start(a, periodic_main, 0, NULL);
	return 0;
}

int engine_every(struct engine *e, const char *name, double period,
                 void (*fn)(struct engine *, void *), void *arg)
{
	return start_periodic(e, name, period, fn, arg, true);
}

int engine_poll_every(struct engine *e, const char *name, double period,
                      void (*fn)(struct engine *, void *), void *arg)
{
	return start_periodic(e, name, period, fn, arg, false);
}
