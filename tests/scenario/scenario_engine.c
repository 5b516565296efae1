/* scenario_engine.c - the engine's own life cycle on the virtual clock:
 * a run stopped at its time limit, with processes still blocked, is torn
 * down cleanly; an exited process's actor (its stack) is freed when it
 * exits, not kept until the engine ends; a run stopped by the recording
 * bound returns its error to the caller.  Each simulation runs in a child
 * (engine_fork_run); the child's exit status is the verdict (134 =
 * SIGABRT from SimGrid). */
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "mmsim/engine.h"
#include "mmsim/policy.h"
#include "mmsim/machine.h"
#include "simple.h"

/* A 256 MiB, 2-CPU vanilla machine and its engine; nonzero on failure */
static int boot_small(struct pglist_data *pgdat, struct mm_policy **policy, struct engine *e)
{
	struct machine_desc md;
	char err[256];

	machine_desc_defaults(&md);
	md.ram = 256ull << 20;
	md.cpus = 2;
	if (mm_policy_create("vanilla", policy, err, sizeof(err)) ||
	    machine_boot(pgdat, &md, *policy, err, sizeof(err)) ||
	    engine_init(e, pgdat, NULL, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

/* A parent that starts one long child and then waits for it, the way
 * make waits for its jobs: either with wait_child (wait4(-1), SIGCHLD) or
 * with task_wait() on that child. */
struct waiter {
	struct cpu_burner child;
	struct task *child_task;
	bool use_task_wait;
	bool spawned;
};

static double waiter_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct waiter *w = arg;

	(void)ctx;
	if (w->spawned)
		return -1;              /* the child ended: so does the parent */
	w->spawned = true;
	w->child_task = engine_spawn(t->engine, "child", &cpu_burner_ops, &w->child);
	if (!w->child_task)
		return -1;
	w->child_task->parent = t;
	if (w->use_task_wait)
		task_wait(w->child_task);
	else
		t->wait_child = true;
	return 1000;
}

static const struct task_ops waiter_ops = { .quantum = waiter_quantum };

static int blocked_at_limit(void *arg)
{
	static struct pglist_data pgdat;
	static struct waiter w[2];
	struct mm_policy *policy;
	struct engine e;
	double t;

	(void)arg;
	if (boot_small(&pgdat, &policy, &e))
		return 10;
	for (int i = 0; i < 2; i++) {
		cpu_burner_init(&w[i].child, 100e9);    /* 100 s of CPU: beyond the limit */
		w[i].use_task_wait = i == 1;
		if (!engine_spawn(&e, "parent", &waiter_ops, &w[i]))
			return 12;
	}
	t = engine_run(&e, 2.0);
	/* stopped at the limit: both parents asleep on their wake
	 * semaphores, both children between executions */
	if (t < 2.0 || e.nr_live_tasks != 4)
		return 13;
	engine_destroy(&e);             /* aborted here before the fix */
	machine_shutdown(&pgdat, policy);
	return 0;
}

/* engine_destroy() with processes still blocked in wait_child and in
 * task_wait() at the time limit: SimGrid aborted ("Cannot destroy
 * semaphore since someone is still using it") when the engine destroyed
 * their wake semaphores. */
static void test_destroy_with_blocked_tasks(void **state)
{
	(void)state;
	assert_int_equal(engine_fork_run(blocked_at_limit, NULL), 0);
}

/* A parent that runs NR_SPAWNS short children one after another, waiting
 * for each, as make runs its jobs: at most two processes live at once. */
#define NR_SPAWNS 400
struct spawner {
	struct cpu_burner child;
	struct task *last;
	unsigned spawned;
	bool actor_kept;                /* an exited child still held its actor */
};

static double spawner_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct spawner *s = arg;
	struct task *c;

	(void)ctx;
	if (s->last && s->last->actor)
		s->actor_kept = true;
	if (s->spawned == NR_SPAWNS)
		return -1;
	cpu_burner_init(&s->child, 1e6);        /* 1 ms of CPU */
	if (!(c = engine_spawn(t->engine, "child", &cpu_burner_ops, &s->child)))
		return -1;
	s->spawned++;
	s->last = c;
	c->parent = t;
	task_wait(c);
	return 1000;
}

static const struct task_ops spawner_ops = { .quantum = spawner_quantum };

static int spawn_many(void *arg)
{
	static struct pglist_data pgdat;
	static struct spawner s;
	struct mm_policy *policy;
	struct engine e;
	size_t heap0, heap;

	(void)arg;
	if (boot_small(&pgdat, &policy, &e))
		return 10;
	heap0 = mallinfo2().arena + mallinfo2().hblkhd;
	if (!engine_spawn(&e, "make", &spawner_ops, &s))
		return 12;
	engine_run(&e, 0);
	heap = mallinfo2().arena + mallinfo2().hblkhd;
	if (s.spawned != NR_SPAWNS || e.nr_live_tasks)
		return 13;
	if (s.actor_kept)
		return 14;
	/* 400 stacks of stack_kib (256 KiB) kept would be 100 MiB; a few
	 * live at a time, and the engine's own tables, stay far below 16 */
	if (heap > heap0 && heap - heap0 > (16u << 20)) {
		fprintf(stderr, "heap grew by %zu KiB over %u processes\n", (heap - heap0) >> 10, NR_SPAWNS);
		return 15;
	}
	engine_destroy(&e);
	machine_shutdown(&pgdat, policy);
	return 0;
}

/* Before 8158a51 engine_spawn() kept a reference to every actor until
 * engine_destroy(), and with it the actor's context and stack: the
 * default reproduction's 14,600 processes held 237 MB of RSS. */
static void test_exited_actor_freed(void **state)
{
	(void)state;
	assert_int_equal(engine_fork_run(spawn_many, NULL), 0);
}

/* Memory allocated before the clock starts, outside any actor (a
 * workload's set-up, in SimGrid's maestro), that runs into direct
 * reclaim: a file of twice the machine's RAM read through the page cache
 * by a context that is no task.  The reclaim's cond_resched() and stall
 * reached the engine's hooks, whose sg_actor_execute() outside an actor
 * crashed (SIGSEGV: kbuild's warm start on 64M, issue 26); they do
 * nothing there now, and the clock then runs as usual. */
static int reclaim_before_clock(void *arg)
{
	static struct pglist_data pgdat;
	struct mm_policy *policy;
	struct mm_ctx ctx = { 0 };
	struct address_space *as;
	struct engine e;
	unsigned long pages;

	(void)arg;
	if (boot_small(&pgdat, &policy, &e))
		return 10;
	pages = 2 * pgdat.node_spanned_pages;
	if (!(as = inode_create(&pgdat, pages, false)))
		return 11;
	if (filemap_read(&pgdat, &ctx, as, 0, pages))
		return 12;
	if (pgdat.vm_events[PGSCAN_DIRECT] == 0)
		return 13;              /* the test did not reach direct reclaim */
	if (engine_run(&e, 1.0) < 1.0)
		return 14;
	engine_destroy(&e);
	machine_shutdown(&pgdat, policy);
	return 0;
}

static void test_reclaim_before_clock(void **state)
{
	(void)state;
	assert_int_equal(engine_fork_run(reclaim_before_clock, NULL), 0);
}

/* An auto-duration run whose sampler reaches MMSIM_MAX_SAMPLES (5 here,
 * one sample a second) with processes still running and blocked: the
 * engine stops the run and engine_run() returns with e.error set; the
 * library no longer ends the process itself (it did, _exit(78)). */
static int stopped_by_bound(void *arg)
{
	static struct pglist_data pgdat;
	static struct waiter w[2];
	struct mm_policy *policy;
	struct engine e;
	double t;

	(void)arg;
	if (setenv("MMSIM_MAX_SAMPLES", "5", 1))
		return 9;
	if (boot_small(&pgdat, &policy, &e))
		return 10;
	for (int i = 0; i < 2; i++) {
		cpu_burner_init(&w[i].child, 100e9);    /* 100 s of CPU: beyond the bound */
		w[i].use_task_wait = i == 1;
		if (!engine_spawn(&e, "parent", &waiter_ops, &w[i]))
			return 12;
	}
	t = engine_run(&e, 0);
	if (e.error != -E2BIG || !strstr(e.error_msg, "the sampler would record more than 5 times"))
		return 13;
	if (t < 4.0 || t > 5.5 || e.nr_live_tasks != 4)
		return 14;
	/* a second call runs nothing */
	if (engine_run(&e, 0) != t)
		return 15;
	return 0;               /* the process ends: the killed actors' state stays as it was */
}

static void test_recording_bound_returns_error(void **state)
{
	(void)state;
	assert_int_equal(engine_fork_run(stopped_by_bound, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_destroy_with_blocked_tasks),
		cmocka_unit_test(test_exited_actor_freed),
		cmocka_unit_test(test_reclaim_before_clock),
		cmocka_unit_test(test_recording_bound_returns_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
