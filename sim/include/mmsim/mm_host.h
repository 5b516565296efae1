/* mm_host.h - what the mm model asks of the host that runs it.
 *
 * The model (sim/mm) does a task's memory work as plain C calls at one
 * instant.  Time, sleeping, the daemons and the scheduler belong to
 * whoever runs it: the engine (sim/engine), which gives the node one
 * table of operations and one context pointer when it attaches to it
 * (engine_init: pgdat->host_ops, pgdat->host) and takes them back when
 * it detaches (engine_destroy: both NULL), as a filesystem gives the
 * page cache its struct address_space_operations.
 *
 * Without a host (pgdat->host_ops NULL: a node booted by the unit tests,
 * the fuzzer, the command line's show and demo), and for any operation
 * a host leaves NULL, the model goes on without it: no clock (time 0),
 * no waits, no daemons to wake, nobody to tell.  Each operation below
 * says what that means.  The operations take the node; the host finds
 * its own state in pgdat->host.
 *
 * The model keeps the calling context current (mm_current()) across a
 * call: an operation that lets other actors run (a SimGrid simcall) may
 * leave theirs current, and the caller sets its own again after it.
 */
#ifndef MMSIM_MM_HOST_H
#define MMSIM_MM_HOST_H

#include <stdbool.h>

struct pglist_data;
struct mm_ctx;
struct mm_struct;

struct mm_host_ops {
	/* The virtual clock, in seconds (pgdat_now()).  Called anywhere,
	 * often; must not block.  NULL: time is 0 and nothing waits for it
	 * (swap writeback completes at once). */
	double (*clock)(const struct pglist_data *pgdat);

	/* wakeup_kswapd() recorded a request (pgdat->kswapd_order,
	 * kswapd_highest_zoneidx) on a node that is not balanced: wake
	 * kswapd if it sleeps (pgdat->kswapd_sleeping, which the host keeps).
	 * Called from an allocating context; must not block (a request made
	 * while kswapd works stays in the node, which kswapd reads before it
	 * sleeps).  NULL: no kswapd; the request is only recorded
	 * (pgdat->kswapd_wakeups counts it). */
	void (*kswapd_wake)(struct pglist_data *pgdat);

	/* wakeup_kcompactd() recorded work (pgdat->kcompactd_max_order,
	 * kcompactd_highest_zoneidx) and kcompactd sleeps
	 * (pgdat->kcompactd_sleeping, which the host keeps): wake it.
	 * Must not block.  NULL: the work is only recorded. */
	void (*kcompactd_wake)(struct pglist_data *pgdat);

	/* out_of_memory() chose victim and its reaper has freed its memory:
	 * stop the process that owns it (victim->owner), which then calls
	 * mmput() once.  NULL: nobody is told (the victim's mm stays,
	 * marked oom_victim). */
	void (*oom_notify)(struct pglist_data *pgdat, struct mm_struct *victim);

	/* Block the calling actor for seconds of virtual time: reclaim
	 * throttled on swap writeback, a process catching up with its I/O
	 * waits before a request (blockdev_io_wait).  Returns at once
	 * outside an actor.  NULL: no wait. */
	void (*sleep)(struct pglist_data *pgdat, double seconds);

	/* An allocating process stalled in direct reclaim or compaction
	 * (ctx->stalls): spend on its CPU now the kernel time it has run up
	 * and not yet spent (ctx->kernel_ns - ctx->kernel_done_ns), and set
	 * ctx->kernel_done_ns, so that kswapd, kcompactd and the other CPUs
	 * go on meanwhile.  Called before the process looks at the free
	 * lists again and before it is throttled.  NULL: no clock; the
	 * quantum's time is spent at its end. */
	void (*stall)(struct pglist_data *pgdat, struct mm_ctx *ctx);

	/* cond_resched() (sched.c), and a process catching up with the clock
	 * before an I/O: spend ns of ctx's pending kernel time on its CPU
	 * now, adding it to ctx->kernel_done_ns; the other actors run
	 * meanwhile.  Called once pgdat->resched_ns has run up, with the
	 * locks the work held marked held.  NULL: no clock (cond_resched()
	 * does nothing). */
	void (*resched)(struct pglist_data *pgdat, struct mm_ctx *ctx, double ns);

	/* need_resched(): would the scheduler take the CPU from this task
	 * now?  Asked by async compaction (ctx->stalls) between pageblocks
	 * and zones.  NULL: never. */
	bool (*need_resched)(struct pglist_data *pgdat, struct mm_ctx *ctx);

	/* reclaim_throttle(VMSCAN_THROTTLE_ISOLATED): the task (ctx->stalls,
	 * its pending time already spent through stall) sleeps at most
	 * timeout seconds, or until throttle_wake.  Returns at once for a
	 * context that cannot sleep.  NULL: reclaim is never throttled on
	 * isolated pages. */
	void (*throttle)(struct pglist_data *pgdat, struct mm_ctx *ctx, double timeout);

	/* wake_throttle_isolated(): end the sleep of every task throttled
	 * by throttle.  Must not block.  NULL: nothing to wake. */
	void (*throttle_wake)(struct pglist_data *pgdat);
};

/* The host's operation op of the node, or NULL if it has no host or the
 * host does not provide it. */
#define mm_host_op(pgdat, op) ((pgdat)->host_ops ? (pgdat)->host_ops->op : NULL)

#endif
