/* kcompactd.c - the kcompactd daemon actor (kcompactd() of mm/compaction.c,
 * v6.2).
 *
 * kcompactd sleeps on its wait queue with a timeout of 500 ms
 * (HPAGE_FRAG_CHECK_INTERVAL_MSEC).  Woken by wakeup_kcompactd() (kswapd
 * going to sleep, or a wakeup_kswapd() on a balanced node), it runs
 * kcompactd_do_work() for the order and zone asked.  On the timeout it
 * runs proactive compaction when vm.compaction_proactiveness is set and
 * the node's fragmentation score is above its high mark, and backs off
 * 64 times longer when that did not improve the score.
 *
 * Waking follows kswapd's pattern: pgdat->kcompactd_sleeping is "on the
 * wait queue"; the notifier releases the semaphore only then, and clears
 * the flag first, so the semaphore never holds more than the one token
 * that wakes it.  A whole kcompactd_do_work() is one C call; its kernel
 * time then runs on the host's cores, the share of it spent under the
 * zone's and the LRU lock first, with those locks held for the other
 * actors (mm_spend_held(), sim/mm/sched.c), then the rest.
 */
#include <simgrid/actor.h>
#include <simgrid/semaphore.h>
#include "engine_internal.h"

#define KCOMPACTD_TIMEOUT_S 0.5         /* HPAGE_FRAG_CHECK_INTERVAL_MSEC */

void engine_kcompactd_wake(struct pglist_data *pgdat)
{
	struct engine *e = pgdat->host;

	if (!pgdat->kcompactd_sleeping)
		return;
	pgdat->kcompactd_sleeping = false;
	sg_sem_release(e->kcompactd_sem);
}

/* the run's locked share with the locks held, then the rest */
static void kcompactd_charge(struct engine *e, struct mm_ctx *ctx)
{
	e->kcompactd_cpu_ns += ctx->kernel_ns;
	mm_spend_held(e->pgdat, ctx);
	engine_charge(ctx->kernel_ns - ctx->kernel_done_ns);
	ctx->kernel_ns = 0;
	ctx->kernel_done_ns = 0;
	ctx->io_wait_ns = 0;
}

void kcompactd_main(int argc, char **argv)
{
	struct engine *e = engine_self();
	struct pglist_data *pgdat = e->pgdat;
	struct mm_ctx ctx = { .cpu = 0, .flags = PF_KTHREAD };
	double timeout = KCOMPACTD_TIMEOUT_S;

	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	/* a periodic timer keeps the clock going: stop when no process can
	 * ever run again, so that SimGrid reports the deadlock */
	while (!engine_stalled(e)) {
		/* wait_event_freezable_timeout(kcompactd_work_requested) */
		if (pgdat->kcompactd_max_order <= 0) {
			pgdat->kcompactd_sleeping = true;
			if (sg_sem_acquire_timeout(e->kcompactd_sem, timeout) != 0 && !pgdat->kcompactd_sleeping)
				sg_sem_acquire(e->kcompactd_sem);       /* woken as the timer fired */
			pgdat->kcompactd_sleeping = false;
		}
		if (pgdat->kcompactd_max_order > 0) {
			kcompactd_do_work(pgdat, &ctx);
			kcompactd_charge(e, &ctx);
			timeout = KCOMPACTD_TIMEOUT_S;
			continue;
		}
		timeout = KCOMPACTD_TIMEOUT_S;
		if (should_proactive_compact_node(pgdat)) {
			bool no_progress = proactive_compact_node(pgdat, &ctx);
			kcompactd_charge(e, &ctx);
			if (no_progress)
				timeout = KCOMPACTD_TIMEOUT_S * (1 << COMPACT_MAX_DEFER_SHIFT);
		}
	}
}
