/* flusher.c - the writeback flusher daemon actor (wb_workfn's periodic,
 * kupdate-style writeback, every dirty_writeback_centisecs).
 *
 * Every cfg.dirty_writeback_interval seconds it calls
 * writeback_dirty_pages() with no page limit (~0ul) and runs the kernel
 * time that cost as one execution.  The model writes back only the pages
 * that have been dirty for longer than vm.dirty_expire_centisecs
 * (pgdat->sysctl, read on the virtual clock), oldest first, as the
 * kernel's periodic writeback does.  Background writeback above
 * dirty_background_ratio and dirty throttling are not modelled yet.
 */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "engine_internal.h"

void flusher_main(int argc, char **argv)
{
	struct engine *e = engine_self();
	struct pglist_data *pgdat = e->pgdat;
	double interval = e->cfg.dirty_writeback_interval;
	double next = simgrid_get_clock() + interval;
	/* the flusher's pcp lists: CPU 0's, like kswapd's */
	struct mm_ctx ctx = { .cpu = 0 };

	(void)argc;
	(void)argv;
	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		double now;

		sg_actor_sleep_until(next);
		if (engine_stalled(e))
			return;         /* let SimGrid see the deadlock (P6) */
		ctx.kernel_ns = 0;
		ctx.io_wait_ns = 0;
		writeback_dirty_pages(pgdat, &ctx, ~0ul);
		e->flusher_cpu_ns += ctx.kernel_ns;
		engine_charge(ctx.kernel_ns);
		if (ctx.io_wait_ns > 0)
			sg_actor_sleep_for(ctx.io_wait_ns * 1e-9);
		now = simgrid_get_clock();
		next += interval;
		if (next <= now)
			next = now + interval;
	}
}
