/* engine.h - the machine in motion: SimGrid actors on a virtual clock.
 *
 * One host with N cores at 1 Gflop/s, so that one flop is one nanosecond of
 * CPU time.  Simulated processes are actors that advance in quanta: a
 * quantum's memory events are plain C calls into the mm model, then the
 * user time and the kernel time they cost run as one CPU execution (never
 * one SimGrid activity per page).  kswapd, kcompactd, the flusher and the
 * sampler are daemon actors.  Everything runs on SimGrid's one thread.
 */
#ifndef MMSIM_ENGINE_H
#define MMSIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include "mmsim/mm.h"

struct engine_config {
	unsigned cpus;
	double quantum;                 /* seconds of virtual time a process runs between events (5 ms) */
	double sample_interval;         /* seconds between sampler records (1 s; 0: no sampler) */
	double dirty_writeback_interval;/* the flusher's period (5 s, dirty_writeback_centisecs) */
	unsigned stack_kib;             /* actor stacks (256) */
	double resched_ns;              /* pending kernel time a cond_resched() spends (0.1 ms) */
	double io_ahead;                /* seconds a process's quantum may run ahead of the clock
	                                 * when it issues an I/O it waits for (1 ms; 0: no bound) */
	bool cpu_heap;                  /* the CPUs shared by the engine's heap (cpu.c, true), or SimGrid's model */
};
void engine_config_defaults(struct engine_config *c);

struct task;

/* What a process does.  quantum() performs the memory events of one
 * quantum through the mm.h entry points with the given context (kernel
 * time accumulates there) and returns the user CPU time, in ns, to run
 * for it; a negative value ends the process.  exit() runs once, however
 * the process ends (normal end, OOM kill), before its memory is freed. */
struct task_ops {
	double (*quantum)(struct task *t, struct mm_ctx *ctx, void *arg);
	void (*exit)(struct task *t, void *arg);
};

struct task {
	char name[32];
	unsigned cpu;                   /* the CPU whose pcp lists it uses */
	struct mm_struct *mm;
	const struct task_ops *ops;
	void *arg;
	double start, end;              /* virtual seconds */
	double utime_ns, stime_ns;      /* user and system CPU time */
	double iowait_ns;
	double sleep;                   /* set by quantum(): seconds to sleep after it (nanosleep) */
	bool wait_child;                /* set by quantum(): after it, sleep until a child exits
	                                 * (wait4(-1) woken by SIGCHLD); at once if one exited
	                                 * since the last wait */
	struct task *parent;            /* set by the spawner: told of this task's exit */
	bool exited, oom_killed;
	unsigned long nr_quanta;
	void *actor;                    /* the SimGrid actor; NULL once exited */
	struct engine *engine;
};

/* One sample of the sampler: the time and a copy of the counters. */
/* the /proc/sys/fs counters a sample holds beside /proc/vmstat's, named
 * dentry_FIELD and inode_FIELD in the results (dcache.h) */
enum sample_fs {
	SAMPLE_DENTRY_NR_DENTRY, SAMPLE_DENTRY_NR_UNUSED, SAMPLE_DENTRY_NR_NEGATIVE,
	SAMPLE_INODE_NR_INODES, SAMPLE_INODE_NR_UNUSED, NR_SAMPLE_FS
};
extern const char *const sample_fs_names[NR_SAMPLE_FS];

struct sample {
	double t;
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	long node_stat[NR_VM_NODE_STAT_ITEMS];
	long zone_stat[NR_VM_ZONE_STAT_ITEMS];      /* summed over zones */
	/* /proc/sys/fs/dentry-state and inode-state, by SAMPLE_FS_* */
	long fs_stat[NR_SAMPLE_FS];
	/* the tracepoints' counts by order (mmzone.h, enum mm_trace_event) */
	unsigned long trace_events[NR_MM_TRACE_EVENTS][MAX_ORDER];
	unsigned long trace_gfp[NR_MM_TRACE_EVENTS][NR_TRACE_GFP_CLASSES];
};

/* the counters now, as the sampler records them (zone counters summed) */
void sample_counters(const struct pglist_data *pgdat, struct sample *s);

struct engine {
	struct pglist_data *pgdat;
	struct engine_config cfg;
	unsigned next_cpu;
	unsigned long nr_tasks, nr_live_tasks;
	struct sample *samples;
	size_t nr_samples, cap_samples;
	void *kswapd_sem, *kcompactd_sem;           /* sg_sem_t */
	unsigned long kswapd_runs, kswapd_order0_runs;     /* balance_pgdat runs; of them at order 0 */
	double kswapd_cpu_ns, flusher_cpu_ns, kcompactd_cpu_ns;
	double last_exit;                           /* virtual time the last process ended */
	unsigned long nr_running;                   /* actors in an execution now (runnable) */
	/* why engine_run() stopped the run before its end, 0 if it did not:
	 * -E2BIG, a time series (the sampler's, an engine_every() observer's)
	 * would have recorded more than mmsim_max_samples() times
	 * (<mmsim/limits.h>); error_msg says which */
	int error;
	char error_msg[512];
};

/* Initialise SimGrid (argv may carry --cfg=/--log= options, consumed) and
 * the platform; attach to a booted node.  Only one engine per process. */
int  engine_init(struct engine *e, struct pglist_data *pgdat, const struct engine_config *cfg,
                 int *argc, char **argv, char *err, size_t errlen);
/* Create a process: from main before engine_run, or from a running task
 * (fork).  Its memory is mm_alloc()'ed when it starts; NULL on failure. */
struct task *engine_spawn(struct engine *e, const char *name, const struct task_ops *ops, void *arg);
/* Run until every process has ended (or until the virtual time limit, if
 * > 0); returns the virtual time reached.  A run stopped by an error
 * (e->error set) kills every actor where it waits, leaving the model as
 * they were in the middle of their work: the caller reports e->error_msg
 * and ends the process (nothing runs again); engine_run() then returns
 * at once. */
double engine_run(struct engine *e, double until);
/* Free the engine's processes and detach it from the node.  Correct with
 * processes that never ended (a run stopped at its time limit): those are
 * left as they are, blocked, and never run again. */
void engine_destroy(struct engine *e);
double engine_now(void);

/* An observer on the virtual clock: fn(e, arg) at every multiple of
 * period from now (a daemon actor, as the sampler is; it ends with the
 * last process).  fn runs in that actor and must not block.  Call after
 * engine_init(); at most 8 per engine; -1 on a bad argument. */
int engine_every(struct engine *e, const char *name, double period,
                 void (*fn)(struct engine *, void *), void *arg);
/* The same for an observer that stores nothing (it only looks, as the
 * iterations' poll does): not bounded by MMSIM_MAX_SAMPLES, which limits
 * what a run records, so a fine poll does not end a long run. */
int engine_poll_every(struct engine *e, const char *name, double period,
                      void (*fn)(struct engine *, void *), void *arg);

/* From inside a task: wait for a child to exit (make -j waiting for jobs). */
void task_wait(struct task *child);

/* For tests: SimGrid cannot be initialised twice in one process, so each
 * simulation runs in a child process.  Forks, runs fn(arg) in the child
 * and returns the child's exit status (fn's return value & 0xff; 128+N if
 * killed by signal N; -1 if fork failed). */
int engine_fork_run(int (*fn)(void *), void *arg);

#endif
