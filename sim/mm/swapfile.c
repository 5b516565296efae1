/* swapfile.c - the swap area and the block devices (mm/swapfile.c,
 * mm/page_io.c, the block layer reduced to a queue).
 *
 * Swap slots come from a stack of free slots (O(1)); each slot keeps the
 * workingset shadow of its page (the kernel keeps it in the swap cache's
 * xarray).  The swap cache holds only written-out pages (slot_page): one
 * stays there, under writeback and then clean on the inactive list, until
 * reclaim frees it, a fault maps it back, or its process unmaps the slot;
 * a page read back leaves the slot (it is freed on swap-in: v6.2 keeps a
 * clean copy after a read fault while swap is less than half full, which
 * the model does not).  A device serves requests in order:
 * each takes its latency plus its size over the bandwidth, after the ones
 * queued before it.  Writes (pageout) are asynchronous: the reclaimer only
 * queues them; reads make the faulting task wait. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void blockdev_setup(struct blockdev *dev, double latency_s, double bandwidth_bps)
{
	dev->latency = latency_s;
	dev->bandwidth = bandwidth_bps;
	dev->busy_until = 0;
	dev->reads = dev->writes = 0;
	memset(dev->stats, 0, sizeof(dev->stats));
	dev->nr_far_ahead = 0;
}

static void blockdev_account(struct blockdev *dev, bool write, double wait)
{
	struct blockdev_stats *st = &dev->stats[write];

	st->requests++;
	st->wait_total += wait;
	if (wait > st->wait_max)
		st->wait_max = wait;
	if (wait > BLOCKDEV_LONG_WAIT)
		st->long_waits++;
}

/* Returns how long after it is issued (now + issue_delay) the request
 * completes.
 *
 * The device serves its requests in issue order, one at a time.  The
 * order in which callers get here is the engine's clock, but a process
 * batches a quantum's calls (sim/engine/README.md): a request it makes
 * is issued at the clock plus what the quantum has run up before it
 * (issue_delay: kernel time not yet spent, I/O waits not yet slept), so
 * issue times are not monotonic here.  A request issued ahead of the
 * clock must not make the device idle until its issue time for the
 * callers that come after it with earlier issue times: the queue's end
 * (busy_until) advances by the request's own transfer, from where the
 * queue stands at the clock, never to the request's issue time.  The
 * request itself starts at its issue time or when the queue ahead of it
 * drains, whichever is later.  Two errors remain, both bounded
 * (docs/model.md, "The block devices"): a request waits for the
 * transfers of requests issued after it in virtual time but made before
 * it by the engine (each adds only its size over the bandwidth), and a
 * request issued ahead of the clock does not wait for requests issued
 * before it in virtual time that the engine has not made yet. */
double blockdev_io(struct pglist_data *pgdat, struct blockdev *dev, unsigned long pages, bool write,
                   double issue_delay)
{
	double clock = pgdat_now(pgdat), issue = clock + issue_delay;
	double queued = dev->busy_until > clock ? dev->busy_until : clock;
	double start = queued > issue ? queued : issue;
	double transfer = (double)pages * PAGE_SIZE / dev->bandwidth;

	dev->busy_until = queued + transfer;
	blockdev_account(dev, write, start - issue);
	if (issue_delay > BLOCKDEV_FAR_AHEAD)
		dev->nr_far_ahead++;
	if (write)
		dev->writes += pages;
	else
		dev->reads += pages;
	return start + transfer + dev->latency - issue;
}

/* A process's quantum is done at one instant and spent on the clock
 * after (sim/engine/README.md): before it issues a request it will wait
 * for, a process whose quantum has run up more than io_ahead_max (1 ms)
 * spends its kernel time on its CPU (the host's resched, as cond_resched()
 * does) and sleeps its I/O waits so far (the host's sleep), so that its requests are issued at most that
 * far ahead of the clock.  At most one catch-up per io_ahead_max of a
 * process's I/O wait and kernel time, not one per request. */
static void task_catch_up(struct pglist_data *pgdat, struct mm_ctx *ctx)
{
	struct mm_ctx *cur = mm_current();
	double cpu = ctx->kernel_ns - ctx->kernel_done_ns, io = ctx->io_wait_ns - ctx->io_done_ns;

	/* the others run as themselves: current is theirs while we wait */
	mm_set_current(NULL);
	if (mm_host_op(pgdat, resched) && cpu > 0)
		pgdat->host_ops->resched(pgdat, ctx, cpu);
	if (mm_host_op(pgdat, sleep) && io > 0) {
		ctx->io_done_ns = ctx->io_wait_ns;
		pgdat->host_ops->sleep(pgdat, io * 1e-9);
	}
	mm_set_current(cur);
	pgdat->sched_stats.io_catch_ups++;
}

void blockdev_io_wait(struct pglist_data *pgdat, struct mm_ctx *ctx, struct blockdev *dev,
                      unsigned long pages, bool write)
{
	if (ctx->stalls && pgdat->io_ahead_max > 0 && ctx_delay(ctx) > pgdat->io_ahead_max)
		task_catch_up(pgdat, ctx);
	ctx->io_wait_ns += 1e9 * blockdev_io(pgdat, dev, pages, write, ctx_delay(ctx));
}

int swap_setup(struct pglist_data *pgdat, unsigned long swap_pages, double latency_s,
               double bandwidth_bps, char *err, size_t errlen)
{
	struct swap_info *si = &pgdat->swap;

	free(si->free_slots);
	free(si->slot_shadow);
	free(si->slot_page);
	free(si->wb);
	si->free_slots = si->slot_shadow = si->slot_page = NULL;
	si->wb = NULL;
	si->wb_head = si->wb_len = si->wb_cap = 0;
	si->pages = si->inuse = si->nr_free_slots = 0;
	memset(&si->fate, 0, sizeof(si->fate));
	if (swap_pages >= ENTRY_VAL_MASK) {
		snprintf(err, errlen, "swap of %lu pages is too large", swap_pages);
		return -1;
	}
	if (!(latency_s >= 0) || !(bandwidth_bps > 0)) {
		snprintf(err, errlen, "swap device latency and bandwidth must be positive");
		return -1;
	}
	blockdev_setup(&si->dev, latency_s, bandwidth_bps);
	if (!swap_pages)
		return 0;
	si->free_slots = malloc(swap_pages * sizeof(uint32_t));
	si->slot_shadow = calloc(swap_pages, sizeof(uint32_t));
	si->slot_page = calloc(swap_pages, sizeof(uint32_t));
	if (!si->free_slots || !si->slot_shadow || !si->slot_page) {
		snprintf(err, errlen, "out of memory for %lu swap slots", swap_pages);
		return -1;
	}
	si->pages = swap_pages;
	/* low slots first, as the kernel's cluster allocator tends to */
	for (unsigned long i = 0; i < swap_pages; i++)
		si->free_slots[i] = (uint32_t)(swap_pages - 1 - i);
	si->nr_free_slots = swap_pages;
	return 0;
}

uint32_t get_swap_page(struct pglist_data *pgdat)
{
	struct swap_info *si = &pgdat->swap;
	uint32_t slot;

	if (!si->nr_free_slots)
		return UINT32_MAX;
	slot = si->free_slots[--si->nr_free_slots];
	si->inuse++;
	return slot;
}

void swap_free(struct pglist_data *pgdat, struct mm_ctx *ctx, uint32_t slot)
{
	struct swap_info *si = &pgdat->swap;

	VM_BUG_ON(slot >= si->pages || !si->inuse);
	/* free_swap_and_cache(): a written, unmapped swap cache page of the
	 * slot goes now; one still being written goes when its write ends */
	if (si->slot_page[slot]) {
		si->fate.unmapped++;
		unsigned long pfn = si->slot_page[slot] - 1;
		struct page *p = &pgdat->mem_map[pfn];
		if (PageLRU(p) && !PageTest(p, PG_writeback) && !p->mapcount && p->owner == PGOWN_ANON &&
		    PageTest(p, PG_swapbacked) && p->private == slot) {
			lruvec_del_page(pgdat, pfn);
			p->private = 0;
			si->slot_page[slot] = 0;
			__free_pages(pgdat, ctx, p, 0);
		}
	}
	si->slot_page[slot] = 0;
	si->free_slots[si->nr_free_slots++] = slot;
	si->inuse--;
}

void swap_set_shadow(struct pglist_data *pgdat, uint32_t slot, uint32_t shadow)
{
	pgdat->swap.slot_shadow[slot] = shadow;
}

uint32_t swap_get_shadow(const struct pglist_data *pgdat, uint32_t slot)
{
	return pgdat->swap.slot_shadow[slot];
}

/* ---- writeback of swapped-out pages ----
 *
 * The kernel frees a swapped-out page after its write completes
 * (end_page_writeback rotates it to the inactive tail, then reclaim finds
 * it clean).  The model keeps the page allocated, off the LRU, PG_writeback
 * and counted in nr_writeback, until its completion time on the device's
 * FIFO queue, then puts it at the inactive tail for reclaim to free.  A
 * fault on the slot meanwhile finds it in the swap cache and maps it back
 * without I/O.  Completions come in ring order. */

void swap_writeback_start(struct pglist_data *pgdat, unsigned long pfn, uint32_t slot, double done)
{
	struct swap_info *si = &pgdat->swap;
	struct page *p = &pgdat->mem_map[pfn];

	if (si->wb_len == si->wb_cap) {
		unsigned long cap = si->wb_cap ? si->wb_cap * 2 : 1024;
		struct wb_entry *n = malloc(cap * sizeof(*n));
		if (!n)
			abort();
		for (unsigned long i = 0; i < si->wb_len; i++)
			n[i] = si->wb[(si->wb_head + i) % si->wb_cap];
		free(si->wb);
		si->wb = n;
		si->wb_head = 0;
		si->wb_cap = cap;
	}
	si->wb[(si->wb_head + si->wb_len++) % si->wb_cap] = (struct wb_entry){ (uint32_t)pfn, done };
	SetPageFlag(p, PG_writeback);
	SetPageFlag(p, PG_reclaim);
	p->private = slot;
	si->slot_page[slot] = (uint32_t)pfn + 1;
	mod_node_page_state(pgdat, NR_WRITEBACK, 1);
	page_zone(pgdat, p)->vm_stat[NR_ZONE_WRITE_PENDING]++;
}

unsigned long swap_writeback_complete(struct pglist_data *pgdat, bool force)
{
	return swap_writeback_complete_by(pgdat, pgdat_now(pgdat), force);
}

unsigned long swap_writeback_complete_by(struct pglist_data *pgdat, double now, bool force)
{
	struct swap_info *si = &pgdat->swap;
	unsigned long freed = 0;

	while (si->wb_len && (force || !mm_host_op(pgdat, clock) || si->wb[si->wb_head].done <= now)) {
		struct wb_entry w = si->wb[si->wb_head];
		struct page *p = &pgdat->mem_map[w.pfn];

		/* completions come in bursts: prefetch the page of the write
		 * 8 entries on (no effect on the model) */
		if (si->wb_len > 8)
			prefetch_pfn(pgdat, si->wb[(si->wb_head + 8) % si->wb_cap].pfn);
		si->wb_head = (si->wb_head + 1) % si->wb_cap;
		si->wb_len--;
		ClearPageFlag(p, PG_writeback);
		mod_node_page_state(pgdat, NR_WRITEBACK, -1);
		page_zone(pgdat, p)->vm_stat[NR_ZONE_WRITE_PENDING]--;
		if (!PageTest(p, PG_reclaim))
			continue;               /* mapped back meanwhile */
		ClearPageFlag(p, PG_reclaim);
		if (force || si->slot_page[p->private] != w.pfn + 1) {
			/* the slot is gone (its process exited) */
			struct mm_ctx ctx = { 0 };
			if (si->slot_page[p->private] == w.pfn + 1)
				si->slot_page[p->private] = 0;
			p->private = 0;
			__free_pages(pgdat, &ctx, p, 0);
			freed++;
			continue;
		}
		/* folio_rotate_reclaimable(): to the tail, for reclaim to free */
		ClearPageFlag(p, PG_active);
		lruvec_add_page(pgdat, w.pfn, true);
	}
	return freed;
}

void swap_cache_delete(struct pglist_data *pgdat, unsigned long pfn)
{
	struct page *p = &pgdat->mem_map[pfn];

	if (pgdat->swap.slot_page && pgdat->swap.slot_page[p->private] == pfn + 1)
		pgdat->swap.slot_page[p->private] = 0;
	p->private = 0;
}

double swap_writeback_wait(const struct pglist_data *pgdat, unsigned long nr)
{
	const struct swap_info *si = &pgdat->swap;
	double wait;

	if (!si->wb_len)
		return -1;
	if (nr > si->wb_len)
		nr = si->wb_len;
	wait = si->wb[(si->wb_head + nr - 1) % si->wb_cap].done - pgdat_now(pgdat);
	return wait > 0 ? wait : 0;
}

unsigned long swap_cache_take(struct pglist_data *pgdat, uint32_t slot)
{
	struct swap_info *si = &pgdat->swap;
	unsigned long pfn;
	struct page *p;

	if (!si->slot_page[slot])
		return PFN_NONE;
	pfn = si->slot_page[slot] - 1;
	p = &pgdat->mem_map[pfn];
	si->slot_page[slot] = 0;
	si->fate.mapped_back++;
	/* under writeback: its completion only clears the flag; written and
	 * on the LRU: it comes off to be mapped again */
	ClearPageFlag(p, PG_reclaim);
	if (PageLRU(p))
		lruvec_del_page(pgdat, pfn);
	p->private = 0;
	return pfn;
}
