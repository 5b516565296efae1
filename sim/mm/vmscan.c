/* vmscan.c - page reclaim (mm/vmscan.c).
 *
 * For now only the wake-up side exists: wakeup_kswapd() records what the
 * allocator asks of kswapd, and calls the node's kswapd_wake notifier,
 * through which the actor layer wakes its kswapd actor.  The balanced-node
 * check and the kcompactd hand-off come with kswapd itself.
 */
#include "internal.h"

void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, enum zone_type highest_zoneidx)
{
	struct pglist_data *pgdat = zone->zone_pgdat;

	(void)gfp;
	if (!populated_zone(zone))
		return;
	if (pgdat->kswapd_highest_zoneidx == MAX_NR_ZONES ||
	    pgdat->kswapd_highest_zoneidx < highest_zoneidx)
		pgdat->kswapd_highest_zoneidx = highest_zoneidx;
	if (pgdat->kswapd_order < order)
		pgdat->kswapd_order = order;
	pgdat->kswapd_wakeups++;
	if (pgdat->kswapd_wake)
		pgdat->kswapd_wake(pgdat, pgdat->kswapd_wake_arg);
}
