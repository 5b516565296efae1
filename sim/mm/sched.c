/* sched.c - the scheduler as direct reclaim and direct compaction meet it:
 * cond_resched(), need_resched(), the locks other tasks hold, and
 * reclaim_throttle() on isolated pages (v6.2: sched/core.c's
 * cond_resched(), mm/vmscan.c's reclaim_throttle()).
 *
 * The model does a task's page work as plain C calls, at one instant of
 * virtual time, and adds what the work costs to ctx->kernel_ns.  Direct
 * reclaim and compaction call cond_resched() where v6.2 calls it or drops
 * a lock (shrink_lruvec()'s SWAP_CLUSTER_MAX batches, the migrate
 * scanner's pageblocks, compact_zone()'s COMPACT_CLUSTER_MAX migrations):
 * there, once the pending time is worth a SimGrid event
 * (pgdat->resched_ns), the task spends it on its CPU (the host's resched), and
 * the other tasks, kswapd and kcompactd run meanwhile: they allocate, free,
 * and change the free lists, LRUs and pageblocks the caller then
 * re-validates, as the kernel does after it retakes a lock.
 *
 * What the work held while its time is spent.  The time spent at a yield
 * is the time of the work just done, so during it the task holds what
 * that work held in the kernel: the share of it spent scanning under the
 * LRU lock (reclaim's isolation, the migrate scanner) or a zone's lock
 * (the free scanner) holds those locks (ctx->locked_ns), and the batch it
 * last isolated counts in NR_ISOLATED_ANON/FILE (ctx->isolated).  Other
 * tasks see them: async compaction's trylock fails on a held lock
 * (COMPACT_CONTENDED), and too_many_isolated() counts every task's batch.
 * The locked share is spent first, with both marks, then the rest with
 * the isolated pages alone: two executions per yield at most.
 *
 * Processes (ctx->stalls) yield.  kswapd runs balance_pgdat() a
 * priority pass at a time and kcompactd a kcompactd_do_work() at a time
 * (sim/engine); each spends its pass's or run's locked share with its
 * locks and last batch held (mm_spend_held()), then the rest.  kcompactd
 * does not yield inside compact_zone(): with it yielding, kswapd scanned
 * twice as many pages for the same reclaim in the default scenario, which
 * is not yet traced (docs/model.md).
 */
#include "internal.h"

/* spend the pending time's locked share with the locks and the batch
 * marked held, then (all) the rest with the batch alone */
static void spend(struct pglist_data *pgdat, struct mm_ctx *ctx, bool all)
{
	double pending = ctx->kernel_ns - ctx->kernel_done_ns;
	double locked = ctx->locked_ns < pending ? ctx->locked_ns : pending;
	struct zone *zone = ctx->locked_zone;
	bool lru = ctx->lru_locked;
	long iso_anon = (long)ctx->isolated[0], iso_file = (long)ctx->isolated[1];
	struct mm_ctx *cur = mm_current();

	ctx->locked_ns = 0;
	ctx->locked_zone = NULL;
	ctx->lru_locked = false;
	ctx->isolated[0] = ctx->isolated[1] = 0;
	if (!(zone || lru))
		locked = 0;
	/* the others run as themselves: current is theirs while we wait */
	mm_set_current(NULL);
	mod_node_page_state(pgdat, NR_ISOLATED_ANON, iso_anon);
	mod_node_page_state(pgdat, NR_ISOLATED_FILE, iso_file);
	if (locked > 0) {
		if (zone)
			zone->lock_holders++;
		if (lru)
			pgdat->lru_lock_holders++;
		pgdat->host_ops->resched(pgdat, ctx, locked);
		if (zone)
			zone->lock_holders--;
		if (lru)
			pgdat->lru_lock_holders--;
		pending -= locked;
	}
	if (all && pending > 0)
		pgdat->host_ops->resched(pgdat, ctx, pending);
	mod_node_page_state(pgdat, NR_ISOLATED_ANON, -iso_anon);
	mod_node_page_state(pgdat, NR_ISOLATED_FILE, -iso_file);
	mm_set_current(cur);
	pgdat->sched_stats.yields++;
}

void cond_resched(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	if (!mm_host_op(pgdat, resched) || !ctx || !ctx->stalls)
		return;
	if (ctx->kernel_ns - ctx->kernel_done_ns < pgdat->resched_ns)
		return;
	spend(pgdat, ctx, true);
}

void mm_spend_held(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	cond_resched_end(pgdat, ctx);
}

void cond_resched_end(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	if (!mm_host_op(pgdat, resched) || !ctx || ctx->kernel_ns <= ctx->kernel_done_ns) {
		if (ctx) {
			ctx->locked_ns = 0;
			ctx->locked_zone = NULL;
			ctx->lru_locked = false;
			ctx->isolated[0] = ctx->isolated[1] = 0;
		}
		return;
	}
	spend(pgdat, ctx, false);
}

bool need_resched(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	bool ret;
	struct mm_ctx *cur = mm_current();

	if (!mm_host_op(pgdat, need_resched) || !ctx || !ctx->stalls)
		return false;
	ret = pgdat->host_ops->need_resched(pgdat, ctx);
	mm_set_current(cur);
	return ret;
}

/* reclaim_throttle(): kthreads other than kswapd never sleep here (v6.2:
 * they may be what reclaim waits for); VMSCAN_THROTTLE_ISOLATED waits at
 * most HZ/50, or until a reclaimer finds the isolated pages below the
 * limit (wake_throttle_isolated()).  False: the context did not sleep. */
bool reclaim_throttle_isolated(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	struct mm_ctx *cur = mm_current();

	if ((ctx->flags & PF_KTHREAD) && !(ctx->flags & PF_KSWAPD))
		return false;
	if (!mm_host_op(pgdat, throttle) || !ctx->stalls)
		return false;
	/* the time run up so far is spent first: the task sleeps after it */
	cond_resched_end(pgdat, ctx);
	if (pgdat->host_ops->stall && ctx->kernel_ns > ctx->kernel_done_ns)
		pgdat->host_ops->stall(pgdat, ctx);
	pgdat->sched_stats.throttled_isolated++;
	mm_set_current(NULL);
	pgdat->host_ops->throttle(pgdat, ctx, 0.02);
	mm_set_current(cur);
	return true;
}

void wake_throttle_isolated(struct pglist_data *pgdat)
{
	struct mm_ctx *cur = mm_current();

	if (!mm_host_op(pgdat, throttle_wake))
		return;
	pgdat->host_ops->throttle_wake(pgdat);
	mm_set_current(cur);
}
