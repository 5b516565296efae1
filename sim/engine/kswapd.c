/* kswapd.c - the kswapd daemon actor (kswapd() and kswapd_try_to_sleep()
 * of mm/vmscan.c, v6.2).
 *
 * The reclaim itself is the mm model's balance_pgdat(), taken one pass of
 * its priority loop at a time (balance_pgdat_begin/step/end): after each
 * step the actor runs the step's kernel time as one CPU execution, so
 * kswapd competes for the cores with the processes while it works, and
 * the allocations made meanwhile see the memory it has freed so far.  One
 * execution per page would cost a SimGrid event per page; one execution
 * per run would free the whole run's pages at one instant and hide its
 * CPU time from the processes that wait for it.
 *
 * Sleeping and waking.  kswapd sleeps on a semaphore.
 * pgdat->kswapd_sleeping is the model of "kswapd is on its wait queue"
 * (waitqueue_active): the wake notifier (engine_kswapd_wake, called from
 * wakeup_kswapd() in an allocating actor) releases the semaphore only when
 * kswapd sleeps, and clears the flag first, so the semaphore never holds
 * more than the one token that wakes it.  A request made while kswapd is
 * awake is not lost: wakeup_kswapd() records it in
 * pgdat->kswapd_order/kswapd_highest_zoneidx, and kswapd looks at those
 * before it sleeps, as the kernel's kswapd does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>
#include "engine_internal.h"

#define KSWAPD_NAP_S 0.1                /* schedule_timeout(HZ/10) */

/* kswapd_highest_zoneidx(): the zone asked for, or prev if none was */
static enum zone_type kswapd_highest_zoneidx(const struct pglist_data *pgdat, enum zone_type prev)
{
	enum zone_type curr = pgdat->kswapd_highest_zoneidx;
	return curr == MAX_NR_ZONES ? prev : curr;
}

/* prepare_kswapd_sleep(): kswapd may sleep if the node is balanced for
 * the order, or if it is hopeless (too many runs reclaimed nothing; direct
 * reclaim that makes progress resets kswapd_failures). */
static bool prepare_kswapd_sleep(struct pglist_data *pgdat, int order, enum zone_type highest_zoneidx)
{
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES)
		return true;
	return pgdat_balanced(pgdat, order, highest_zoneidx);
}

/* kswapd_try_to_sleep(): a short nap first (HZ/10); woken during it, kswapd
 * goes back to work at once (kswapd_low_wmark_hit_quickly).  If the node is
 * still balanced after the nap, a full sleep until the next wake;
 * otherwise back to work (kswapd_high_wmark_hit_quickly). */
static void kswapd_try_to_sleep(struct engine *e, int alloc_order, int reclaim_order,
                                enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = e->pgdat;
	bool woken = false;

	if (prepare_kswapd_sleep(pgdat, reclaim_order, highest_zoneidx)) {
		/* the skip bits direct compaction asked to flush are cleared,
		 * and kcompactd gets the order kswapd reclaimed for */
		reset_isolation_suitable(pgdat);
		wakeup_kcompactd(pgdat, alloc_order, highest_zoneidx);
		pgdat->kswapd_sleeping = true;
		if (sg_sem_acquire_timeout(e->kswapd_sem, KSWAPD_NAP_S) == 0) {
			woken = true;
		} else if (!pgdat->kswapd_sleeping) {
			/* a wake came as the timeout fired: its token is in the
			 * semaphore; take it now, or it would wake us later */
			sg_sem_acquire(e->kswapd_sem);
			woken = true;
		}
		if (woken) {
			pgdat->kswapd_highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
			if (pgdat->kswapd_order < reclaim_order)
				pgdat->kswapd_order = reclaim_order;
		}
	}
	if (!woken && prepare_kswapd_sleep(pgdat, reclaim_order, highest_zoneidx)) {
		pgdat->kswapd_sleeping = true;
		sg_sem_acquire(e->kswapd_sem);  /* the waker cleared kswapd_sleeping */
	} else {
		pgdat->kswapd_sleeping = false;
		count_vm_events(pgdat, woken ? KSWAPD_LOW_WMARK_HIT_QUICKLY
		                             : KSWAPD_HIGH_WMARK_HIT_QUICKLY, 1);
	}
}

/* balance_pgdat(), a step at a time; returns the order reclaimed for
 * (r.order as balance_pgdat_end() leaves it: balance_pgdat's sc.order). */
static int kswapd_balance(struct engine *e, struct mm_ctx *ctx, int order,
                          enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = e->pgdat;
	struct kswapd_run r;
	unsigned long idle_steps = 0;

	balance_pgdat_begin(pgdat, &r, order, highest_zoneidx);
	e->kswapd_runs++;
	e->kswapd_order0_runs += order == 0;
	count_trace_event(pgdat, TRACE_KSWAPD_WAKE, order);
	while (!r.done) {
		ctx->kernel_ns = 0;
		ctx->io_wait_ns = 0;
		ctx->kernel_done_ns = 0;
		balance_pgdat_step(pgdat, ctx, &r);
		e->kswapd_cpu_ns += ctx->kernel_ns;
		mm_spend_held(pgdat, ctx);      /* the LRU lock's share first */
		engine_charge(ctx->kernel_ns - ctx->kernel_done_ns);
		if (ctx->io_wait_ns > 0)
			sg_actor_sleep_for(ctx->io_wait_ns * 1e-9);
		if (ctx->kernel_ns > 0 || ctx->io_wait_ns > 0) {
			idle_steps = 0;
		} else if (++idle_steps > 100000) {
			/* the priority loop is bounded (DEF_PRIORITY passes): a
			 * step that never costs anything and never ends would
			 * spin at one instant of virtual time */
			fprintf(stderr, "mmsim: kswapd: balance_pgdat_step made no progress "
			        "in %lu steps at t=%.6f\n", idle_steps, simgrid_get_clock());
			abort();
		}
	}
	balance_pgdat_end(pgdat, &r);
	return r.order;
}

void kswapd_main(int argc, char **argv)
{
	struct engine *e = engine_self();
	struct pglist_data *pgdat = e->pgdat;
	struct mm_ctx ctx = { .cpu = 0, .flags = PF_KSWAPD | PF_MEMALLOC };
	enum zone_type highest_zoneidx = MAX_NR_ZONES - 1;
	int alloc_order, reclaim_order;

	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	/* kswapd's pcp lists: the kernel runs kswapd on any CPU of its node;
	 * the model needs one, and takes CPU 0's. */
	alloc_order = 0;
	for (;;) {
		/* v6.2 looks at the pending request again here: 0 unless a
		 * wake came during the balance, so after a high-order balance
		 * kswapd tries to sleep at order 0.  RFC 20/26 keeps the
		 * order it balanced for (balance_pgdat no longer drops to 0),
		 * so it sleeps where compaction can go on and kcompactd gets
		 * that order. */
		if (!kswapd_keeps_order(pgdat)) {
			alloc_order = pgdat->kswapd_order;
			highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
		}
		reclaim_order = alloc_order;
try_sleep:
		kswapd_try_to_sleep(e, alloc_order, reclaim_order, highest_zoneidx);

		/* read the new order and zone, and reset them */
		{
			enum zone_type z;
			kswapd_take_request(pgdat, &alloc_order, &z);
			if (z != MAX_NR_ZONES)
				highest_zoneidx = z;
		}
		reclaim_order = kswapd_balance(e, &ctx, alloc_order, highest_zoneidx);
		if (reclaim_order < alloc_order)
			goto try_sleep;
	}
}
