/* kbuild_make.c - make: the order it starts the steps in, wait4() of the
 * jobs, the tree it stats.  Part of the kbuild workload (kbuild.c). */
#include <stdio.h>
#include <stdlib.h>
#include "kbuild_int.h"

/* a compile unit: make stats its share of the tree before starting it */
static bool step_is_unit(const struct kbuild *kb, unsigned step)
{
	return kb->ds ? kb->ds->steps[step].kind == KBD_CC : step < kb->nr_units;
}

/* a step is over (reaped, or never started): what waits on it may start */
static void step_gone(struct kbuild *kb, unsigned step)
{
	if (kb->ds)
		kb->reaped[step] = 1;
	else if (step < kb->nr_units)
		kb->units_reaped++;
	else if (step < kb->nr_units + kb->nr_archives)
		kb->archives_reaped++;
}

static bool step_ready(const struct kbuild *kb, unsigned step)
{
	if (kb->ds) {
		/* an archive or link waits for the steps whose outputs it names */
		const struct kbd_step *st = &kb->ds->steps[step];
		for (uint32_t i = 0; i < st->nr_deps; i++)
			if (!kb->reaped[kb->ds->deps[st->dep_off + i]])
				return false;
		return true;
	}
	if (step < kb->nr_units)
		return true;
	if (step < kb->nr_units + kb->nr_archives)
		return kb->units_reaped == kb->nr_units;
	return kb->units_reaped == kb->nr_units && kb->archives_reaped == kb->nr_archives;
}

/* The next step make starts at or after from: the first pending one, in
 * the recorded order, whose prerequisites are done; nr_steps if none is.
 * make -j over kbuild's recursive makes does not stop at a target that is
 * not ready: an archive waiting for its directory's objects holds no job
 * slot, and the other directories' compiles go on (each sub-make works on
 * whichever of its targets is ready, all sharing the jobserver's -j
 * slots).  Only the final link, which needs every archive, drains them. */
static unsigned next_ready_step(const struct kbuild *kb, unsigned from)
{
	for (unsigned i = from; i < kb->nr_steps; i++)
		if (kb->status[i] == ST_PENDING && step_ready(kb, i))
			return i;
	return kb->nr_steps;
}

/* wait4(): the child's times go to the build's (RUSAGE_CHILDREN) */
static void reap(struct kbuild *kb, struct kb_slot *s)
{
	struct task *c = s->t;
	enum kb_status st = kb->status[s->step];

	kb->user_ns += c->utime_ns;
	kb->system_ns += c->stime_ns;
	if (kb->step_utime[s->step] < 0)
		kb->step_utime[s->step] = 0;
	kb->step_utime[s->step] += c->utime_ns;
	if (kb->ds && st == ST_DONE && kb_chain_proc(kb, s->step, s->proc + 1) >= 0) {
		/* the driver runs the step's next process (cc1, then as) */
		s->proc++;
		kb->status[s->step] = ST_RUNNING;
		if ((s->t = kb_spawn_measured(kb, s, s->step, s->proc)))
			return;
		st = kb->status[s->step] = ST_FAILED;
	}
	if (st == ST_DONE && step_is_unit(kb, s->step))
		kb->units_done++;
	if (st == ST_OOM)
		kb->oom_killed++;
	if (st != ST_DONE)
		kb->jobs_failed++;
	step_gone(kb, s->step);
	s->t = NULL;
	kb->nr_running--;
}

/* make stats the prerequisites of the next target: its share of the
 * tree's files that no job reads (a path lookup, then the dentry and the
 * inode in the caches: filemap_read of nothing is an open) */
static int make_stat_tree(struct kbuild *kb, struct mm_ctx *ctx)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	unsigned per = (kb->nr_tree + kb->nr_units - 1) / (kb->nr_units ? kb->nr_units : 1);

	for (unsigned i = 0; i < per && kb->tree_next < kb->nr_tree; i++) {
		unsigned f = kb->tree_next++;
		slab_obj_t filp;

		if (!kb->tree[f] && !(kb->tree[f] = inode_create(pgdat, 0, false)))
			return -1;
		if ((filp = kb_open(kb, ctx, kb->tree[f], tree_id(kb, f))) == SLAB_OBJ_NONE)
			return -1;
		if (filemap_read(pgdat, ctx, kb->tree[f], 0, 0)) {
			kb_close(kb, ctx, filp);
			return -1;
		}
		kb_close(kb, ctx, filp);
	}
	return 0;
}

static double make_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct kbuild *kb = arg;
	double user = 0;

	if (!kb->make_grown) {
		/* make's own memory: the parsed Makefiles, rules and variables */
		kb->make_grown = true;
		if (exec_prog(kb->w->pgdat, ctx, t->mm, PROG_MAKE, &kb->make_exec))
			return -1;
		if (kb->make_rss) {
			unsigned long v = mm_grow(t->mm, kb->make_rss);
			if (mm_access(kb->w->pgdat, ctx, t->mm, v, kb->make_rss, true))
				return -1;
		}
	}
	if (exec_run(kb->w->pgdat, ctx, t->mm, &kb->make_exec))
		return -1;
	for (unsigned i = 0; i < kb->nr_jobs; i++)
		if (kb->slots[i].t && kb->slots[i].t->exited)
			reap(kb, &kb->slots[i]);
	/* next_step: the first step not yet started */
	while (kb->next_step < kb->nr_steps && kb->status[kb->next_step] != ST_PENDING)
		kb->next_step++;
	for (unsigned i = 0, from = kb->next_step; i < kb->nr_jobs && from < kb->nr_steps; i++) {
		struct kb_slot *s = &kb->slots[i];
		unsigned step;
		if (s->t)
			continue;
		if ((step = next_ready_step(kb, from)) == kb->nr_steps)
			break;
		if (step_is_unit(kb, step) && make_stat_tree(kb, ctx))
			return -1;
		s->step = step;
		from = step + 1;
		s->proc = 0;
		kb->status[s->step] = ST_RUNNING;
		user += kb->make_target_ns;
		if (kb->ds && kb_chain_proc(kb, s->step, 0) < 0) {
			/* a step with no process of its own (measured: none) */
			kb->status[s->step] = ST_DONE;
			kb->units_done += step_is_unit(kb, s->step);
			step_gone(kb, s->step);
			continue;
		}
		if (!(s->t = kb->ds ? kb_spawn_measured(kb, s, s->step, 0) : kb_spawn_step(kb, s->step))) {
			/* fork failed for want of a task: counted, the build goes on */
			kb->status[s->step] = ST_FAILED;
			kb->jobs_failed++;
			step_gone(kb, s->step);
			continue;
		}
		kb->nr_running++;
	}
	if (kb->next_step == kb->nr_steps && !kb->nr_running) {
		kb->make_user_ns = t->utime_ns + user;
		kb->user_ns += kb->make_user_ns;
		kb->system_ns += t->stime_ns + ctx->kernel_ns;
		kb_build_done(kb);
		return -1;
	}
	/* nothing to start: wait4() until a job exits (a job is running:
	 * make only gets here with a slot busy or a step not ready, which
	 * running jobs make ready), or poll; with no job running (a step
	 * not ready and nothing to wait for, which the step order rules
	 * out) it looks again a millisecond later rather than wait for ever */
	if (kb->poll > 0 || !kb->nr_running)
		t->sleep = kb->poll > 0 ? kb->poll : 0.001;
	else
		t->wait_child = true;
	return user;
}

static void make_exit(struct task *t, void *arg)
{
	struct kbuild *kb = arg;

	if (!kb->done) {
		/* make died (OOM kill or failed fork): the build is over */
		kb->build_failed = true;
		kb->make_user_ns = t->utime_ns;
		kb->user_ns += t->utime_ns;
		kb->system_ns += t->stime_ns;
		kb_build_done(kb);
	}
}

const struct task_ops kb_make_ops = {
	.quantum = make_quantum,
	.exit = make_exit,
};

/* make's per-step state, common to both trees */
int kb_alloc_steps(struct kbuild *kb)
{
	kb->slots = calloc(kb->nr_jobs, sizeof(*kb->slots));
	kb->status = calloc(kb->nr_steps, 1);
	kb->step_utime = malloc(kb->nr_steps * sizeof(double));
	if (!kb->slots || !kb->status || !kb->step_utime)
		return -1;
	for (unsigned i = 0; i < kb->nr_steps; i++)
		kb->step_utime[i] = -1;
	return 0;
}

/* make, started on the tree as it is */
int kb_spawn_make(struct kbuild *kb, char *err, size_t errlen)
{
	if (!(kb->make = engine_spawn(kb->w->engine, "make", &kb_make_ops, kb))) {
		snprintf(err, errlen, "kbuild: cannot spawn make");
		return -1;
	}
	return 0;
}
