/* swapfile.c - the swap area and the block devices (mm/swapfile.c,
 * mm/page_io.c, the block layer reduced to a queue).
 *
 * Swap slots come from a stack of free slots (O(1)); each slot keeps the
 * workingset shadow of its page (the kernel keeps it in the swap cache's
 * xarray); the slot is freed on swap-in (the model keeps no swap cache).  A device serves requests in order:
 * each takes its latency plus its size over the bandwidth, after the ones
 * queued before it.  Writes (pageout) are asynchronous: the reclaimer only
 * queues them; reads make the faulting task wait. */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

void blockdev_setup(struct blockdev *dev, double latency_s, double bandwidth_bps)
{
	dev->latency = latency_s;
	dev->bandwidth = bandwidth_bps;
	dev->busy_until = 0;
	dev->reads = dev->writes = 0;
}

/* Returns how long after it is issued (now + issue_delay) the request
 * completes. */
double blockdev_io(struct pglist_data *pgdat, struct blockdev *dev, unsigned long pages, bool write,
                   double issue_delay)
{
	double now = pgdat_now(pgdat) + issue_delay;
	double start = dev->busy_until > now ? dev->busy_until : now;

	dev->busy_until = start + (double)pages * PAGE_SIZE / dev->bandwidth;
	if (write)
		dev->writes += pages;
	else
		dev->reads += pages;
	return dev->busy_until + dev->latency - now;
}

int swap_setup(struct pglist_data *pgdat, unsigned long swap_pages, double latency_s,
               double bandwidth_bps, char *err, size_t errlen)
{
	struct swap_info *si = &pgdat->swap;

	free(si->free_slots);
	free(si->slot_shadow);
	si->free_slots = si->slot_shadow = NULL;
	si->pages = si->inuse = si->nr_free_slots = 0;
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
	if (!si->free_slots || !si->slot_shadow) {
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

void swap_free(struct pglist_data *pgdat, uint32_t slot)
{
	struct swap_info *si = &pgdat->swap;

	VM_BUG_ON(slot >= si->pages || !si->inuse);
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
