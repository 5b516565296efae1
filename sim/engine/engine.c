/* engine.c - the machine in motion: SimGrid set-up, processes as actors
 * running in quanta, and the host operations through which the mm model
 * reaches the actor layer (mm_host.h: the clock, kswapd's wake-up, the OOM
 * killer's notice, stalls and sleeps).
 *
 * The choices (raw contexts, 256 KiB stacks with guard pages, a CPU id
 * per process, one execution per quantum) are explained in README.md in
 * this directory, and the SimGrid behaviours behind them (cited as P1..P13)
 * in its "SimGrid pitfalls" section.
 *
 * One engine per process: SimGrid cannot be initialised twice in one
 * process, nor torn down and started again.  Tests that need several
 * simulations run each in a child process with engine_fork_run().
 */
#define _GNU_SOURCE                     /* memfd_create */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <xbt/config.h>
#include <xbt/log.h>
#include "engine_internal.h"

/* A process as the engine keeps it: the public struct task, and what
 * task_wait() needs. */
struct task_priv {
	struct task t;
	unsigned long index;            /* spawn order, from 0 */
	sg_sem_t wake_sem;              /* this task's own, while in task_wait() (lazily made) */
	struct task_priv *waiting_for;  /* the child it waits for, NULL if none */
	struct task_priv *waiters;      /* the tasks waiting for this one ... */
	struct task_priv *next_waiter;  /* ... linked through this */
	unsigned long child_exits;      /* children exited since its last wait_child */
	bool waiting_child;             /* asleep in wait_child */
	sg_sem_t throttle_sem;          /* reclaim_throttle()'s wait (lazily made) */
	struct task_priv *next_throttled;
	bool throttled;                 /* on eng.throttled, until woken or timed out */
};

/* The process-wide state: there is one SimGrid per process. */
static struct {
	bool simgrid_started;
	struct engine *e;
	sg_host_t host;
	struct task_priv **tasks;
	size_t nr_tasks, cap_tasks;
	unsigned long nr_waiting;       /* live tasks blocked in task_wait() */
	struct task_priv *throttled;    /* tasks in reclaim_throttle(VMSCAN_THROTTLE_ISOLATED) */
} eng;

static void errmsg(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

void engine_config_defaults(struct engine_config *c)
{
	memset(c, 0, sizeof(*c));
	c->cpus = 0;                    /* the node's nr_cpus */
	c->quantum = 0.005;
	c->sample_interval = 1.0;
	c->dirty_writeback_interval = 5.0;
	c->stack_kib = 256;
	c->resched_ns = 100000;         /* 0.1 ms: see README.md, "Stalls in steps" */
	c->io_ahead = 0.001;            /* 1 ms: see README.md, "I/O issued ahead of the clock" */
	c->cpu_heap = true;             /* the CPUs shared by cpu.c, as [run] cpu_sharing by default */
}

double engine_now(void)
{
	return simgrid_get_clock();
}

sg_host_t engine_host(void)
{
	return eng.host;
}

bool engine_stalled(const struct engine *e)
{
	return e->nr_live_tasks > 0 && eng.nr_waiting == e->nr_live_tasks;
}

/* ------------------------------------------------------------ mm host */

static double engine_clock(const struct pglist_data *pgdat)
{
	(void)pgdat;
	return simgrid_get_clock();
}

/* kswapd_wake: called by wakeup_kswapd() from an allocation path,
 * inside whichever actor allocates.  It never blocks.  The semaphore gets
 * a token only when kswapd is asleep on it (pgdat->kswapd_sleeping), so
 * tokens never pile up while it works; a request made while it is awake
 * waits in pgdat->kswapd_order/kswapd_highest_zoneidx, which kswapd reads
 * before it goes to sleep. */
static void engine_kswapd_wake(struct pglist_data *pgdat)
{
	struct engine *e = pgdat->host;

	if (!pgdat->kswapd_sleeping)
		return;
	pgdat->kswapd_sleeping = false;
	sg_sem_release(e->kswapd_sem);
}

/* Take a task off the waiters of the task it waits for, and let it run. */
static void task_stop_waiting(struct task_priv *w)
{
	struct task_priv **pp;

	if (!w->waiting_for)
		return;
	for (pp = &w->waiting_for->waiters; *pp; pp = &(*pp)->next_waiter) {
		if (*pp == w) {
			*pp = w->next_waiter;
			break;
		}
	}
	w->next_waiter = NULL;
	w->waiting_for = NULL;
	eng.nr_waiting--;
	sg_sem_release(w->wake_sem);
}

/* The mm host operations below run the calling actor on the virtual clock.  Memory
 * is also allocated outside any actor, before the clock starts: a
 * workload's set-up (kbuild's warm page cache, the base system's fill) in
 * SimGrid's maestro, where there is no task to stall, sleep or
 * reschedule and SimGrid cannot execute (this_actor::execute there
 * crashed).  That work takes no simulated time: it stands for what the
 * machine did before the measured run, and the operations do nothing. */
static bool in_actor(void)
{
	sg_actor_t self = sg_actor_self();

	/* maestro is an actor to SimGrid once the engine exists; the
	 * engine's own actors carry data (a task's task_priv, a daemon's
	 * engine), maestro none */
	return self && sg_actor_get_data(self);
}

/* sleep: reclaim_throttle() inside an allocation or kswapd, or a process
 * catching up with its I/O waits: the calling actor waits on the virtual
 * clock */
static void engine_mm_sleep(struct pglist_data *pgdat, double seconds)
{
	(void)pgdat;
	if (seconds > 0 && in_actor())
		sg_actor_sleep_for(seconds);
}

/* stall: the process spends on its CPU the kernel time it has run up in
 * this quantum and not yet spent (task_main spends the rest, and counts
 * all of it as system time, when the quantum ends) */
static void engine_mm_stall(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	double ns = ctx->kernel_ns - ctx->kernel_done_ns;

	if (ns <= 0 || !in_actor())
		return;
	ctx->kernel_done_ns = ctx->kernel_ns;
	engine_execute(pgdat->host, ns);
}

/* resched: cond_resched() in direct reclaim or compaction (sim/mm/
 * sched.c) spends ns of the kernel time run up so far; the other actors
 * run meanwhile */
static void engine_mm_resched(struct pglist_data *pgdat, struct mm_ctx *ctx, double ns)
{
	if (ns <= 0 || !in_actor())
		return;
	ctx->kernel_done_ns += ns;
	engine_execute(pgdat->host, ns);
}

/* need_resched: would CFS take the CPU from this task now?  The
 * engine knows how many actors are runnable (executing: e->nr_running,
 * plus the caller); with no more of them than cores nobody waits for a
 * CPU.  Otherwise the task is preempted once it has run its slice, which
 * v6.2's CFS computes from sysctl_sched_latency (6 ms) and
 * sched_min_granularity (0.75 ms), both scaled by 1 + log2(CPUs, at most
 * 8): the period is the latency, or min_granularity per task when more
 * than latency/min_granularity (8) tasks share a CPU, and the slice is
 * the period over the tasks per CPU.  What the task has run is the
 * kernel time of its current quantum (a quantum starts when it got the
 * CPU back from a sleep or the previous quantum). */
static bool engine_mm_need_resched(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	struct engine *e = pgdat->host;
	unsigned cpus = e->cfg.cpus, factor = 1;
	double runnable = (double)e->nr_running + 1, per_cpu, period;

	if (runnable <= cpus || !in_actor())
		return false;
	for (unsigned c = cpus < 8 ? cpus : 8; c > 1; c >>= 1)
		factor++;
	per_cpu = runnable / cpus;
	period = per_cpu > 8 ? per_cpu * 0.75e6 * factor : 6e6 * factor;
	return ctx->kernel_ns >= period / per_cpu;
}

/* throttle: reclaim_throttle(VMSCAN_THROTTLE_ISOLATED) of a process:
 * sleep until woken by throttle_wake, at most timeout seconds.  A wake
 * that comes as the timer fires leaves its token: taken at once. */
static void engine_mm_throttle(struct pglist_data *pgdat, struct mm_ctx *ctx, double timeout)
{
	struct task_priv *self, **pp;

	(void)pgdat, (void)ctx;
	if (!in_actor())
		return;
	self = sg_actor_self_get_data();
	if (!self->throttle_sem)
		self->throttle_sem = sg_sem_init(0);
	self->throttled = true;
	self->next_throttled = eng.throttled;
	eng.throttled = self;
	if (sg_sem_acquire_timeout(self->throttle_sem, timeout) == 0)
		return;
	if (!self->throttled) {
		sg_sem_acquire(self->throttle_sem);
		return;
	}
	for (pp = &eng.throttled; *pp; pp = &(*pp)->next_throttled) {
		if (*pp == self) {
			*pp = self->next_throttled;
			break;
		}
	}
	self->throttled = false;
	self->next_throttled = NULL;
}

/* throttle_wake: wake_throttle_isolated(): every throttled task */
static void engine_mm_throttle_wake(struct pglist_data *pgdat)
{
	(void)pgdat;
	while (eng.throttled) {
		struct task_priv *p = eng.throttled;
		eng.throttled = p->next_throttled;
		p->next_throttled = NULL;
		p->throttled = false;
		sg_sem_release(p->throttle_sem);
	}
}

/* A child's exit, as SIGCHLD: wake a parent asleep in wait_child, or
 * leave the exit pending for its next wait.  Also ends that sleep for an
 * OOM-killed parent (no child exit counted). */
static void task_child_exited(struct task_priv *parent, bool count)
{
	if (count)
		parent->child_exits++;
	if (!parent->waiting_child)
		return;
	parent->waiting_child = false;
	eng.nr_waiting--;
	sg_sem_release(parent->wake_sem);
}

/* wait4(-1) for a task that asked with t->wait_child */
static void task_wait_child(struct task_priv *self)
{
	if (self->child_exits || self->t.oom_killed) {
		self->child_exits = 0;
		return;
	}
	if (!self->wake_sem)
		self->wake_sem = sg_sem_init(0);
	self->waiting_child = true;
	eng.nr_waiting++;
	/* the waker clears waiting_child and releases the semaphore once */
	sg_sem_acquire(self->wake_sem);
	self->child_exits = 0;
}

/* oom_notify: the OOM killer chose victim (and its reaper already freed
 * the victim's memory).  The process stops at the end of its current
 * quantum, or at once if it is blocked in task_wait(); it then calls
 * mmput() once, which frees what the reaper left. */
static void engine_oom_notify(struct pglist_data *pgdat, struct mm_struct *victim)
{
	struct task_priv *p = victim->owner;

	(void)pgdat;
	if (!p)
		return;                 /* not a process of this engine (or not started yet) */
	p->t.oom_killed = true;
	task_stop_waiting(p);
	task_child_exited(p, false);
}

/* what the engine does for the mm model (mm_host.h); its state is the
 * struct engine, pgdat->host */
static const struct mm_host_ops engine_host_ops = {
	.clock          = engine_clock,
	.kswapd_wake    = engine_kswapd_wake,
	.kcompactd_wake = engine_kcompactd_wake,
	.oom_notify     = engine_oom_notify,
	.sleep          = engine_mm_sleep,
	.stall          = engine_mm_stall,
	.resched        = engine_mm_resched,
	.need_resched   = engine_mm_need_resched,
	.throttle       = engine_mm_throttle,
	.throttle_wake  = engine_mm_throttle_wake,
};

/* ------------------------------------------------------------ platform */

static int load_platform(unsigned cores, char *err, size_t errlen)
{
	char buf[512], path[64];
	int fd, n;

	n = snprintf(buf, sizeof(buf),
	             "<?xml version='1.0'?>\n"
	             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	             "<platform version=\"4.1\"><zone id=\"world\" routing=\"Full\">"
	             "<host id=\"cpu\" speed=\"1Gf\" core=\"%u\"/>"
	             "</zone></platform>\n", cores);
	fd = memfd_create("mmsim-platform.xml", 0);
	if (fd < 0) {
		errmsg(err, errlen, "memfd_create failed for the platform file");
		return -1;
	}
	if (write(fd, buf, (size_t)n) != n) {
		close(fd);
		errmsg(err, errlen, "cannot write the platform file");
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	simgrid_load_platform(path);
	close(fd);
	eng.host = sg_host_by_name("cpu");
	if (!eng.host) {
		errmsg(err, errlen, "the platform has no host \"cpu\"");
		return -1;
	}
	return 0;
}

void engine_start_daemon(struct engine *e, const char *name, xbt_main_func_t fn)
{
	sg_actor_t a = sg_actor_init(name, eng.host);

	sg_actor_set_data(a, e);
	sg_actor_start(a, fn, 0, NULL);
}

int engine_init(struct engine *e, struct pglist_data *pgdat, const struct engine_config *cfg,
                int *argc, char **argv, char *err, size_t errlen)
{
	static char prog[] = "mmsim";
	char *fake_argv[] = { prog, NULL };
	int fake_argc = 1;
	bool user_log = false;

	if (eng.simgrid_started) {
		errmsg(err, errlen, "the engine can be initialised once per process "
		       "(SimGrid cannot restart): run each simulation in its own process");
		return -1;
	}
	memset(e, 0, sizeof(*e));
	if (cfg)
		e->cfg = *cfg;
	else
		engine_config_defaults(&e->cfg);
	if (!e->cfg.cpus)
		e->cfg.cpus = pgdat->nr_cpus;
	if (e->cfg.cpus != pgdat->nr_cpus) {
		if (err && errlen)
			snprintf(err, errlen, "the engine has %u CPUs but the node was booted with %u "
			         "(one set of per-cpu lists per CPU)", e->cfg.cpus, pgdat->nr_cpus);
		return -1;
	}
	if (!(e->cfg.quantum > 0)) {
		errmsg(err, errlen, "the quantum must be positive");
		return -1;
	}
	if (e->cfg.sample_interval < 0 || e->cfg.dirty_writeback_interval < 0) {
		errmsg(err, errlen, "intervals must not be negative");
		return -1;
	}
	if (e->cfg.stack_kib < 64) {
		errmsg(err, errlen, "actor stacks below 64 KiB are too small");
		return -1;
	}
	e->pgdat = pgdat;

	if (!argc || !argv) {
		argc = &fake_argc;
		argv = fake_argv;
	}
	for (int i = 1; i < *argc; i++)
		if (!strncmp(argv[i], "--log=", 6))
			user_log = true;
	/* contexts/factory is left at its default, raw: it can only be set
	 * before simgrid_init (pitfall P1), e.g. with --cfg=contexts/factory:X
	 * in argv.  guard-size stays at its default of one page (P4). */
	simgrid_init(argc, argv);
	eng.simgrid_started = true;
	if (!user_log)
		xbt_log_control_set("root.thres:critical");
	sg_cfg_set_int("contexts/stack-size", (int)e->cfg.stack_kib);   /* an int option (P1b) */
	if (load_platform(e->cfg.cpus, err, errlen))
		return -1;

	eng.e = e;
	e->kswapd_sem = sg_sem_init(0);
	e->kcompactd_sem = sg_sem_init(0);
	pgdat->kswapd_sleeping = true;  /* until its actor first runs */

	pgdat->host_ops = &engine_host_ops;
	pgdat->host = e;
	pgdat->resched_ns = e->cfg.resched_ns;
	pgdat->io_ahead_max = e->cfg.io_ahead;

	if (e->cfg.cpu_heap)
		cpu_sharing_start(e);
	engine_start_daemon(e, "kswapd0", kswapd_main);
	engine_start_daemon(e, "kcompactd0", kcompactd_main);
	if (e->cfg.dirty_writeback_interval > 0)
		engine_start_daemon(e, "flush", flusher_main);
	if (e->cfg.sample_interval > 0 && engine_sample_every(e, e->cfg.sample_interval)) {
		errmsg(err, errlen, "cannot start the sampler");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ processes */

static void task_main(int argc, char **argv)
{
	struct task_priv *p = sg_actor_self_get_data();
	struct task *t = &p->t;
	struct engine *e = t->engine;
	struct pglist_data *pgdat = e->pgdat;
	struct mm_ctx ctx = { .cpu = t->cpu, .stalls = true };

	(void)argc;
	(void)argv;
	t->start = simgrid_get_clock();
	/* fork's share of memory; its kernel time is charged with the first
	 * quantum's.  NULL is a failed fork (the allocator's slow path, OOM
	 * included, has run): the process ends without running. */
	t->mm = mm_alloc(pgdat, &ctx);
	if (t->mm) {
		t->mm->owner = p;
		for (;;) {
			double user;

			ctx.mm = t->mm;
			user = t->ops->quantum(t, &ctx, t->arg);
			if (user < 0 || t->oom_killed || t->mm->oom_victim)
				break;          /* the quantum's kernel time is charged at exit */
			t->utime_ns += user;
			t->stime_ns += ctx.kernel_ns;
			if (user + ctx.kernel_ns - ctx.kernel_done_ns > 0)   /* skip 0 (P11) */
				engine_execute(e, user + ctx.kernel_ns - ctx.kernel_done_ns);
			t->iowait_ns += ctx.io_wait_ns;
			if (ctx.io_wait_ns > ctx.io_done_ns)   /* what it did not sleep yet (blockdev_io_wait) */
				sg_actor_sleep_for((ctx.io_wait_ns - ctx.io_done_ns) * 1e-9);
			if (t->wait_child) {
				task_wait_child(p);
				t->wait_child = false;
			} else if (t->sleep > 0) {
				sg_actor_sleep_for(t->sleep);
			}
			t->sleep = 0;
			t->nr_quanta++;
			ctx.kernel_ns = 0;
			ctx.kernel_done_ns = 0;
			ctx.io_wait_ns = 0;
			ctx.io_done_ns = 0;
		}
	}

	/* exit: the workload's cleanup, then exit_mm()'s mmput(), whose kernel
	 * time is system time of the process like any other.  An OOM victim's
	 * memory was freed by the reaper; mmput() frees the rest. */
	if (t->ops->exit)
		t->ops->exit(t, t->arg);
	if (t->mm) {
		ctx.mm = t->mm;
		mmput(pgdat, &ctx, t->mm);
		t->mm = NULL;
	}
	t->stime_ns += ctx.kernel_ns;
	if (ctx.kernel_ns - ctx.kernel_done_ns > 0)
		engine_execute(e, ctx.kernel_ns - ctx.kernel_done_ns);
	t->iowait_ns += ctx.io_wait_ns;
	if (ctx.io_wait_ns > ctx.io_done_ns)
		sg_actor_sleep_for((ctx.io_wait_ns - ctx.io_done_ns) * 1e-9);

	t->end = simgrid_get_clock();
	t->exited = true;
	e->nr_live_tasks--;
	if (t->end > e->last_exit)
		e->last_exit = t->end;
	while (p->waiters)
		task_stop_waiting(p->waiters);
	if (t->parent && !t->parent->exited)
		task_child_exited((struct task_priv *)t->parent, true);
	/* our reference kept the actor, its context and its stack, until
	 * engine_destroy(): 14,600 stacks of 256 KiB in the default run,
	 * each new one in fresh memory (a page fault per stack page it
	 * touched).  Dropped here, SimGrid frees the stack when the actor
	 * ends and the next spawn reuses it. */
	sg_actor_unref(t->actor);
	t->actor = NULL;
}

struct task *engine_spawn(struct engine *e, const char *name, const struct task_ops *ops, void *arg)
{
	struct task_priv *p;
	sg_actor_t a;

	if (!ops || !ops->quantum)
		return NULL;
	if (eng.nr_tasks == eng.cap_tasks) {
		size_t cap = eng.cap_tasks ? eng.cap_tasks * 2 : 64;
		struct task_priv **n = realloc(eng.tasks, cap * sizeof(*n));
		if (!n)
			return NULL;
		eng.tasks = n;
		eng.cap_tasks = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->index = eng.nr_tasks;
	snprintf(p->t.name, sizeof(p->t.name), "%s", name ? name : "task");
	/* SimGrid does not tell which core runs an actor (P13): the per-cpu
	 * lists a process uses are fixed here, round-robin. */
	p->t.cpu = e->next_cpu++ % e->cfg.cpus;
	p->t.ops = ops;
	p->t.arg = arg;
	p->t.engine = e;
	p->t.start = simgrid_get_clock();
	eng.tasks[eng.nr_tasks++] = p;
	e->nr_tasks++;
	e->nr_live_tasks++;

	a = sg_actor_init(p->t.name, eng.host);
	sg_actor_ref(a);                /* kept in t->actor beyond the actor's life (P7) */
	p->t.actor = a;
	sg_actor_set_data(a, p);
	sg_actor_start(a, task_main, 0, NULL);
	return &p->t;
}

void task_wait(struct task *child)
{
	struct task_priv *self = sg_actor_self_get_data();
	struct task_priv *cp = (struct task_priv *)child;   /* t is the first member */

	if (child->exited || self->t.oom_killed)
		return;
	if (!self->wake_sem)
		self->wake_sem = sg_sem_init(0);
	self->waiting_for = cp;
	self->next_waiter = cp->waiters;
	cp->waiters = self;
	eng.nr_waiting++;
	/* the waker (the child's exit, or the OOM killer) unlinks us and
	 * releases our semaphore: a token is never left behind */
	sg_sem_acquire(self->wake_sem);
}

/* ------------------------------------------------------------ running */

double engine_run(struct engine *e, double until)
{
	if (e->error)
		return simgrid_get_clock();
	if (until > 0)
		simgrid_run_until(until);
	else
		simgrid_run();
	if (e->error)
		return simgrid_get_clock();     /* stopped: no deadlock, no last sample */
	/* A deadlock is no error code (P6): SimGrid kills the blocked actors
	 * and returns; the count of live processes tells. */
	if (until <= 0 && e->nr_live_tasks) {
		unsigned shown = 0;
		fprintf(stderr, "mmsim: engine: %lu of %lu processes never ended (deadlock):",
		        e->nr_live_tasks, e->nr_tasks);
		for (size_t i = 0; i < eng.nr_tasks && shown < 8; i++) {
			if (!eng.tasks[i]->t.exited) {
				fprintf(stderr, " %s", eng.tasks[i]->t.name);
				shown++;
			}
		}
		fprintf(stderr, "%s\n", e->nr_live_tasks > shown ? " ..." : "");
	}
	if (e->cfg.sample_interval > 0 &&
	    (!e->nr_samples || e->samples[e->nr_samples - 1].t < simgrid_get_clock()))
		engine_take_sample(e);
	return simgrid_get_clock();
}

/* A run that stopped at a time limit leaves processes that never ended:
 * blocked in task_wait() or wait_child on their wake semaphore, asleep, or
 * between two executions.  SimGrid refuses (it aborts) to destroy a
 * semaphore an actor still waits on, and such an actor still holds its
 * task_priv as its data and on its stack.  SimGrid cannot be torn down
 * or run again in this process, so these actors never run again: their
 * task_priv and semaphore are parked here, alive and reachable, for the
 * rest of the process.  Only the tasks that exited are freed. */
static struct task_priv **parked;
static size_t nr_parked;
/* The daemons' semaphores, for the same reason: kswapd and kcompactd may
 * be blocked on them at a time limit.  Kept reachable here (the engine
 * is the caller's, often on its stack): dropped with it, they were a
 * leak on every run, which ASan's exit code made a failed run. */
static sg_sem_t *parked_sems;
static size_t nr_parked_sems;

static void park_sem(sg_sem_t s)
{
	sg_sem_t *n;

	if (!s)
		return;
	n = realloc(parked_sems, (nr_parked_sems + 1) * sizeof(*n));
	if (!n)
		return;         /* no room: leaked unlisted, as before */
	parked_sems = n;
	parked_sems[nr_parked_sems++] = s;
}

void engine_destroy(struct engine *e)
{
	size_t live = 0;

	for (size_t i = 0; i < eng.nr_tasks; i++)
		live += !eng.tasks[i]->t.exited;
	if (live) {
		struct task_priv **n = realloc(parked, (nr_parked + live) * sizeof(*n));
		if (n)
			parked = n;
		else
			live = 0;       /* no room to park: leak them unlisted (still never freed) */
	}
	for (size_t i = 0; i < eng.nr_tasks; i++) {
		struct task_priv *p = eng.tasks[i];
		if (!p->t.exited) {
			if (live)
				parked[nr_parked++] = p;
			continue;
		}
		if (p->wake_sem)
			sg_sem_destroy(p->wake_sem);
		if (p->throttle_sem)
			sg_sem_destroy(p->throttle_sem);
		if (p->t.actor)
			sg_actor_unref(p->t.actor);
		free(p);
	}
	free(eng.tasks);
	eng.tasks = NULL;
	eng.nr_tasks = eng.cap_tasks = 0;
	eng.nr_waiting = 0;
	eng.throttled = NULL;
	free(e->samples);
	e->samples = NULL;
	e->nr_samples = e->cap_samples = 0;
	if (e->pgdat) {
		struct pglist_data *pgdat = e->pgdat;
		pgdat->host_ops = NULL;
		pgdat->host = NULL;
		pgdat->kcompactd_sleeping = false;
		pgdat->io_ahead_max = 0;
	}
	/* the daemons' semaphores stay (they may still be blocked on them
	 * if the run stopped at a time limit), parked */
	park_sem(e->kswapd_sem);
	park_sem(e->kcompactd_sem);
	e->kswapd_sem = e->kcompactd_sem = NULL;
	eng.e = NULL;
}

/* ------------------------------------------------------------ tests */

int engine_fork_run(int (*fn)(void *), void *arg)
{
	pid_t pid;
	int status;

	fflush(NULL);                   /* no buffered output written twice */
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int rc = fn(arg);
		fflush(NULL);
		_exit(rc & 0xff);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}
