/* oom_kill.c - the OOM killer (mm/oom_kill.c).
 *
 * The victim is the process with the highest badness: its resident anon
 * pages, swap entries and page tables, adjusted by oom_score_adj in
 * thousandths of memory.  The OOM reaper frees its anonymous memory and
 * swap at once; its process stops at its next quantum and exits, freeing
 * the rest.  A victim already reaped is skipped (MMF_OOM_SKIP). */
#include "internal.h"

static long oom_badness(const struct pglist_data *pgdat, const struct mm_struct *mm, unsigned long totalpages)
{
	(void)pgdat;
	long points = (long)(mm->rss_anon + mm->rss_file + mm->swapents + mm->nr_pgtables + 1);
	return points + (long)mm->oom_score_adj * (long)(totalpages / 1000);
}

bool out_of_memory(struct pglist_data *pgdat, struct mm_ctx *ctx, gfp_t gfp, unsigned order)
{
	unsigned long totalpages = pgdat->swap.pages;
	struct mm_struct *victim = NULL;
	long best = 0;

	(void)ctx, (void)order;
	/* no IO-less OOM kills: the caller may not have done real reclaim */
	if (!(gfp & __GFP_FS))
		return true;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		totalpages += pgdat->node_zones[z].managed_pages;
	for (uint32_t i = 0; i < pgdat->nr_mms; i++) {
		struct mm_struct *mm = pgdat->mms[i];
		long points;
		if (!mm || mm->oom_victim || mm->oom_score_adj <= -1000)
			continue;
		points = oom_badness(pgdat, mm, totalpages);
		/* ties go to the task found later, as select_bad_process does */
		if (!victim || points >= best) {
			victim = mm;
			best = points;
		}
	}
	if (!victim)
		return false;
	count_vm_events(pgdat, OOM_KILL, 1);
	oom_reap_mm(pgdat, victim);
	if (mm_host_op(pgdat, oom_notify)) {
		struct mm_ctx *cur = mm_current();     /* a simcall may run others */
		pgdat->host_ops->oom_notify(pgdat, victim);
		mm_set_current(cur);
	}
	return true;
}
