/* kcompactd.c - the kcompactd daemon actor.
 *
 * A STUB until compaction exists in the mm model (a later issue).  It only
 * sleeps as kcompactd() of v6.2 does: wait_event_freezable_timeout() on
 * its wait queue with a timeout of HZ_PROACTIVE_COMPACT / 2 ... here half
 * a second, or until wakeup_kcompactd() (from kswapd_try_to_sleep())
 * releases e->kcompactd_sem.  What is to come here:
 *   - when woken: kcompactd_do_work() for the order and zone kswapd asked
 *     for, a compact_zone() per zone, each step charged as one execution
 *     as kswapd does;
 *   - on timeout: proactive compaction when compaction_proactiveness is
 *     set and the fragmentation score is above the threshold.
 */
#include <simgrid/actor.h>
#include <simgrid/semaphore.h>
#include "engine_internal.h"

#define KCOMPACTD_TIMEOUT_S 0.5

void kcompactd_main(int argc, char **argv)
{
	struct engine *e = engine_self();

	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	/* a periodic timer keeps the clock going: stop when no process can
	 * ever run again, so that SimGrid reports the deadlock */
	while (!engine_stalled(e)) {
		if (sg_sem_acquire_timeout(e->kcompactd_sem, KCOMPACTD_TIMEOUT_S) == 0) {
			/* woken by wakeup_kcompactd(): kcompactd_do_work() comes
			 * with compaction */
		}
	}
}
