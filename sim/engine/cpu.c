/* cpu.c - the machine's CPUs as processor sharing kept by the engine
 * ([run] cpu_sharing = heap), instead of SimGrid's CPU model.
 *
 * What is modelled is the same in both: n runnable actors on C CPUs each
 * progress at min(1, C/n) of a CPU (SimGrid's max-min sharing on one host
 * of C cores, each execution bounded by one core).  What it costs is not:
 * SimGrid solves its max-min system over every running execution at each
 * start and end (O(n) per event, and a machine scaled k times has k times
 * the executions: docs/benchmarks.md, "Machine and workload scaled").
 * Here every execution progresses at the same rate, so the one that ends
 * first is the one with the least work left, always: with V the CPU time
 * each runnable actor has received since the start (it grows at
 * min(1, C/n) per second), an execution of w seconds started at V0 ends
 * when V reaches V0 + w.  A binary heap on that end keeps the next end at
 * its top: O(log n) per start and end.  One daemon actor ("cpus") sleeps
 * until the top's end, releases what has ended and sleeps again; a start
 * that changes the next end (the sharing rate, or a new top) wakes it.
 *
 * Results are those of SimGrid's model up to rounding (SimGrid ends an
 * action when what remains is below its precision; here at 1 ns), so the
 * two are not bit-identical: docs/benchmarks.md has the comparison. */
#include <stdlib.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>
#include "engine_internal.h"

#define CPU_EPS 1e-9    /* seconds of CPU: an end within this is reached */

struct cpu_job {
	double end;             /* V at which it has received its work */
	unsigned long seq;      /* start order: equal ends end in it */
	sg_sem_t done;
};

static struct {
	bool on;
	unsigned cores, n;      /* the CPUs; the executions running */
	double v, t_last;       /* V, and the clock when it was last advanced */
	struct cpu_job **heap;
	unsigned len, cap;
	unsigned long seq;
	sg_sem_t wake;
	bool poked;             /* a wake is pending: the daemon will look again */
	struct cpu_job **spare; /* jobs of ended executions, their semaphores at 0 */
	unsigned nr_spare, cap_spare;
} ps;

static double rate(unsigned n)
{
	return n <= ps.cores ? 1.0 : (double)ps.cores / n;
}

/* V at the clock now, before n changes */
static void advance(double now)
{
	if (now > ps.t_last) {
		ps.v += (now - ps.t_last) * rate(ps.n);
		ps.t_last = now;
	}
}

static bool before(const struct cpu_job *a, const struct cpu_job *b)
{
	return a->end < b->end || (a->end == b->end && a->seq < b->seq);
}

static void heap_push(struct cpu_job *j)
{
	unsigned i;

	if (ps.len == ps.cap) {
		ps.cap = ps.cap ? 2 * ps.cap : 64;
		if (!(ps.heap = realloc(ps.heap, ps.cap * sizeof(*ps.heap))))
			abort();
	}
	for (i = ps.len++; i && before(j, ps.heap[(i - 1) / 2]); i = (i - 1) / 2)
		ps.heap[i] = ps.heap[(i - 1) / 2];
	ps.heap[i] = j;
}

static struct cpu_job *heap_pop(void)
{
	struct cpu_job *top = ps.heap[0], *last = ps.heap[--ps.len];
	unsigned i = 0;

	for (;;) {
		unsigned c = 2 * i + 1;
		if (c >= ps.len)
			break;
		if (c + 1 < ps.len && before(ps.heap[c + 1], ps.heap[c]))
			c++;
		if (!before(ps.heap[c], last))
			break;
		ps.heap[i] = ps.heap[c];
		i = c;
	}
	if (ps.len)
		ps.heap[i] = last;
	return top;
}

static void poke(void)
{
	if (!ps.poked) {
		ps.poked = true;
		sg_sem_release(ps.wake);
	}
}

/* the daemon: end what has ended, sleep until the next end or a wake */
static void cpus_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		advance(simgrid_get_clock());
		ps.poked = false;
		while (ps.len && ps.heap[0]->end <= ps.v + CPU_EPS) {
			struct cpu_job *j = heap_pop();
			ps.n--;
			sg_sem_release(j->done);
		}
		if (!ps.len)
			sg_sem_acquire(ps.wake);
		else
			sg_sem_acquire_timeout(ps.wake, (ps.heap[0]->end - ps.v) / rate(ps.n));
	}
}

void cpu_sharing_start(struct engine *e)
{
	ps.on = true;
	ps.cores = e->cfg.cpus;
	ps.wake = sg_sem_init(0);
	engine_start_daemon(e, "cpus", cpus_main);
}

bool cpu_sharing_on(void)
{
	return ps.on;
}

/* Run ns of CPU on the calling actor's share of the CPUs.  The job and
 * its semaphore (back at 0 when the execution has ended) are kept for the
 * next execution: one SimGrid object per execution otherwise, a million a
 * default run.  Not on the actor's stack: the heap would point into the
 * stack of an actor stopped inside its execution (a run that ends on an
 * error parks such actors), and the sanitizer build reported the job's
 * stack redzone at an actor's end (ASan across SimGrid's context
 * switches: scenario_engine, test_recording_bound_returns_error). */
void cpu_execute(double ns)
{
	struct cpu_job *j;
	bool was_shared = ps.n >= ps.cores;     /* the rate changes with n */

	if (ps.nr_spare) {
		j = ps.spare[--ps.nr_spare];
	} else if ((j = malloc(sizeof(*j)))) {
		j->done = sg_sem_init(0);
	} else {
		abort();
	}
	j->seq = ps.seq++;
	advance(simgrid_get_clock());
	j->end = ps.v + ns * 1e-9;
	heap_push(j);
	ps.n++;
	if (was_shared || ps.heap[0] == j)
		poke();
	sg_sem_acquire(j->done);
	if (ps.nr_spare == ps.cap_spare) {
		ps.cap_spare = ps.cap_spare ? 2 * ps.cap_spare : 64;
		if (!(ps.spare = realloc(ps.spare, ps.cap_spare * sizeof(*ps.spare))))
			abort();
	}
	ps.spare[ps.nr_spare++] = j;
}
