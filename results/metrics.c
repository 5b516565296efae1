/* metrics.c - the definition of every row of the compare table (metrics.h).
 *
 * One place: the name, the unit, the formula (as text, for
 * `mmsim compare --list-metrics`, docs/schema.md and the report, and as
 * the function that computes it), the value when a ratio's denominator is
 * 0, and what depends on the kernel version the model follows.  The
 * table, the sweep plot, the report and scripts/validate.sh all compute
 * the rows here; none has a formula of its own.
 */
#include <math.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "metrics.h"

const char *const results_src_name[SRC_NR] = {
	"real_time", "user_time", "system_time", "nr_free_pages_median",
	/* sums over orders: no metric has these names (results_src_bucket) */
	"mm_vmscan_wakeup_kswapd_order0", "mm_vmscan_wakeup_kswapd_order1-8",
	"mm_vmscan_wakeup_kswapd_order9-10", "mm_vmscan_kswapd_wake_order1-10",
	"mm_compaction_wakeup_kcompactd_order1-10", "mm_vmscan_direct_reclaim_begin_order1-10",
	"mm_compaction_try_to_compact_pages_order1-8", "mm_compaction_try_to_compact_pages_order9-10",
	/* metrics by these names (the class of the gfp_flags, orders 1-10) */
	"mm_compaction_try_to_compact_pages_gfp_thp", "mm_compaction_try_to_compact_pages_gfp_readahead",
	"mm_compaction_try_to_compact_pages_gfp_write", "mm_vmscan_direct_reclaim_begin_gfp_thp",
	"mm_vmscan_direct_reclaim_begin_gfp_readahead", "mm_vmscan_direct_reclaim_begin_gfp_write",
	"mm_vmscan_wakeup_kswapd_gfp_thp", "mm_vmscan_wakeup_kswapd_gfp_readahead",
	"mm_vmscan_wakeup_kswapd_gfp_write",
	"thp_fault_alloc", "thp_fault_fallback",
	"compact_stall", "compact_fail", "compact_success",
	"compact_daemon_migrate_scanned", "compact_daemon_free_scanned",
	"compact_migrate_scanned", "compact_free_scanned",
	"allocstall_dma", "allocstall_dma32", "allocstall_normal", "allocstall_movable",
	"pgscan_kswapd", "pgsteal_kswapd", "pgscan_direct", "pgsteal_direct",
	"pswpout", "pswpin", "workingset_refault_file",
	"pageoutrun", "kswapd_low_wmark_hit_quickly", "kswapd_high_wmark_hit_quickly",
	"compact_daemon_wake", "kswapd_inodesteal",
};

/* The one zero-denominator rule of every ratio: a run whose denominator
 * is 0 did nothing of the kind (no THP fault, no compaction stall, no
 * scanning), and its ratio is 0, not NaN: the run still counts in the
 * mean, in the table, the plot and the report alike, as mmtests'
 * compare-kernels treats such ratios.  A rate of 0 there is "none
 * failed / none succeeded / none by kcompactd". */
#define ZERO_DEN "0 (the run did nothing of the kind; it still counts in the mean)"

static double pct(double num, double den)
{
	return den != 0 ? 100.0 * num / den : 0.0;
}

/* The measured workload's elapsed time, which it records as -1 when the
 * measured window ([run] duration) ended before it did: then the run has
 * no real time, and the row is NaN for it ("not measured"), which every
 * reader leaves out of that row's mean and statistics (compare.c), and
 * the plot leaves out of its line.  Averaging the -1 as data would make
 * a cut-short build look faster. */
static double real_time(const double *v)
{
	return v[SRC_REAL_TIME] >= 0 ? v[SRC_REAL_TIME] : NAN;
}

#define SRC(name, S) static double name(const double *v) { return v[S]; }
SRC(user_time, SRC_USER_TIME)
SRC(system_time, SRC_SYSTEM_TIME)
SRC(thp_fault_alloc, SRC_THP_FAULT_ALLOC)
SRC(thp_fault_fallback, SRC_THP_FAULT_FALLBACK)
SRC(compact_stall, SRC_COMPACT_STALL)
SRC(compact_fail, SRC_COMPACT_FAIL)
SRC(compact_success, SRC_COMPACT_SUCCESS)
SRC(daemon_migrate, SRC_COMPACT_DAEMON_MIGRATE_SCANNED)
SRC(daemon_free, SRC_COMPACT_DAEMON_FREE_SCANNED)
SRC(pgscan_kswapd, SRC_PGSCAN_KSWAPD)
SRC(pgsteal_kswapd, SRC_PGSTEAL_KSWAPD)
SRC(pgscan_direct, SRC_PGSCAN_DIRECT)
SRC(pgsteal_direct, SRC_PGSTEAL_DIRECT)
SRC(pswpout, SRC_PSWPOUT)
SRC(pswpin, SRC_PSWPIN)
SRC(refault_file, SRC_WORKINGSET_REFAULT_FILE)
SRC(pageoutrun, SRC_PAGEOUTRUN)
SRC(low_wmark_quickly, SRC_KSWAPD_LOW_WMARK_HIT_QUICKLY)
SRC(high_wmark_quickly, SRC_KSWAPD_HIGH_WMARK_HIT_QUICKLY)
SRC(kcompactd_wake, SRC_COMPACT_DAEMON_WAKE)
SRC(kswapd_inodesteal, SRC_KSWAPD_INODESTEAL)
SRC(free_median, SRC_NR_FREE_PAGES_MEDIAN)
SRC(wakeup_kswapd_o0, SRC_WAKEUP_KSWAPD_O0)
SRC(wakeup_kswapd_o1_8, SRC_WAKEUP_KSWAPD_O1_8)
SRC(wakeup_kswapd_o9_10, SRC_WAKEUP_KSWAPD_O9_10)
SRC(kswapd_wake_o1_10, SRC_KSWAPD_WAKE_O1_10)
SRC(wakeup_kcompactd, SRC_WAKEUP_KCOMPACTD)
SRC(direct_reclaim_o1_10, SRC_DIRECT_RECLAIM_O1_10)
SRC(compact_o1_8, SRC_TRY_TO_COMPACT_O1_8)
SRC(compact_o9_10, SRC_TRY_TO_COMPACT_O9_10)
SRC(compact_thp, SRC_TRY_TO_COMPACT_THP)
SRC(compact_readahead, SRC_TRY_TO_COMPACT_READAHEAD)
SRC(compact_write, SRC_TRY_TO_COMPACT_WRITE)
SRC(reclaim_thp, SRC_DIRECT_RECLAIM_THP)
SRC(reclaim_readahead, SRC_DIRECT_RECLAIM_READAHEAD)
SRC(reclaim_write, SRC_DIRECT_RECLAIM_WRITE)
SRC(wakeup_kswapd_thp, SRC_WAKEUP_KSWAPD_THP)
SRC(wakeup_kswapd_readahead, SRC_WAKEUP_KSWAPD_READAHEAD)
SRC(wakeup_kswapd_write, SRC_WAKEUP_KSWAPD_WRITE)
#undef SRC

static double thp_fail_rate(const double *v)
{
	return pct(v[SRC_THP_FAULT_FALLBACK], v[SRC_THP_FAULT_ALLOC] + v[SRC_THP_FAULT_FALLBACK]);
}

static double compact_success_rate(const double *v)
{
	return pct(v[SRC_COMPACT_SUCCESS], v[SRC_COMPACT_STALL]);
}

/* the kernel counts all scanning in compact_*_scanned and kcompactd's
 * share again in compact_daemon_*_scanned: direct = total - daemon */
static double direct_migrate_scanned(const double *v)
{
	return v[SRC_COMPACT_MIGRATE_SCANNED] - v[SRC_COMPACT_DAEMON_MIGRATE_SCANNED];
}

static double direct_free_scanned(const double *v)
{
	return v[SRC_COMPACT_FREE_SCANNED] - v[SRC_COMPACT_DAEMON_FREE_SCANNED];
}

static double migrate_daemon_pct(const double *v)
{
	return pct(v[SRC_COMPACT_DAEMON_MIGRATE_SCANNED], v[SRC_COMPACT_MIGRATE_SCANNED]);
}

static double free_daemon_pct(const double *v)
{
	return pct(v[SRC_COMPACT_DAEMON_FREE_SCANNED], v[SRC_COMPACT_FREE_SCANNED]);
}

static double alloc_stall(const double *v)
{
	return v[SRC_ALLOCSTALL_DMA] + v[SRC_ALLOCSTALL_DMA32] + v[SRC_ALLOCSTALL_NORMAL] +
	       v[SRC_ALLOCSTALL_MOVABLE];
}

static double kswapd_scan_pct(const double *v)
{
	return pct(v[SRC_PGSCAN_KSWAPD], v[SRC_PGSCAN_KSWAPD] + v[SRC_PGSCAN_DIRECT]);
}

/* kcompactd's counters: the model follows v6.2, where they count the
 * compaction kcompactd does when woken by kswapd (kcompactd_do_work);
 * proactive compaction (vm.compaction_proactiveness) is counted in them
 * only from v6.3 on.  A trace of a later kernel compares with them only
 * where proactive compaction is off. */
#define DAEMON_V62 "v6.2 (the model): compact_daemon_* count only kcompactd_do_work()'s " \
	"scanning, so proactive compaction lands in the direct rows; from v6.3 on it counts " \
	"as daemon work"

const struct results_metric results_metrics[RESULTS_NR_METRICS] = {
	{ "Real time", "s", "real_time (the measured workload's elapsed time; not measured, and left "
	  "out of the row, for a run whose window ended before the workload did)", NULL, NULL, real_time, 0 },
	{ "User time", "s", "user_time", NULL, NULL, user_time, 0 },
	{ "System time", "s", "system_time", NULL, NULL, system_time, 0 },
	{ "THP fault alloc", "events", "thp_fault_alloc", NULL, NULL, thp_fault_alloc, 0 },
	{ "THP fault fallback", "events", "thp_fault_fallback", NULL, NULL, thp_fault_fallback, 0 },
	{ "THP fault fail rate %", "%",
	  "100 * thp_fault_fallback / (thp_fault_alloc + thp_fault_fallback)", ZERO_DEN, NULL,
	  thp_fail_rate, 0 },
	{ "Direct compact stall", "events", "compact_stall", NULL, NULL, compact_stall, 0 },
	{ "Direct compact fail", "events", "compact_fail", NULL, NULL, compact_fail, 0 },
	{ "Direct compact success", "events", "compact_success", NULL, NULL, compact_success, 0 },
	{ "Direct compact success rate %", "%", "100 * compact_success / compact_stall", ZERO_DEN,
	  NULL, compact_success_rate, 0 },
	{ "Compact daemon scanned migrate", "pages", "compact_daemon_migrate_scanned", NULL,
	  DAEMON_V62, daemon_migrate, 0 },
	{ "Compact daemon scanned free", "pages", "compact_daemon_free_scanned", NULL, DAEMON_V62,
	  daemon_free, 0 },
	{ "Compact direct scanned migrate", "pages",
	  "compact_migrate_scanned - compact_daemon_migrate_scanned", NULL, DAEMON_V62,
	  direct_migrate_scanned, 0 },
	{ "Compact direct scanned free", "pages",
	  "compact_free_scanned - compact_daemon_free_scanned", NULL, DAEMON_V62,
	  direct_free_scanned, 0 },
	{ "Compact migrate scanned daemon %", "%",
	  "100 * compact_daemon_migrate_scanned / compact_migrate_scanned", ZERO_DEN, DAEMON_V62,
	  migrate_daemon_pct, 0 },
	{ "Compact free scanned daemon %", "%",
	  "100 * compact_daemon_free_scanned / compact_free_scanned", ZERO_DEN, DAEMON_V62,
	  free_daemon_pct, 0 },
	{ "Alloc stall", "events",
	  "allocstall_dma + allocstall_dma32 + allocstall_normal + allocstall_movable", NULL, NULL,
	  alloc_stall, 0 },
	{ "Pages kswapd scanned", "pages", "pgscan_kswapd", NULL, NULL, pgscan_kswapd, 0 },
	{ "Pages kswapd reclaimed", "pages", "pgsteal_kswapd", NULL, NULL, pgsteal_kswapd, 0 },
	{ "Pages direct scanned", "pages", "pgscan_direct", NULL, NULL, pgscan_direct, 0 },
	{ "Pages direct reclaimed", "pages", "pgsteal_direct", NULL, NULL, pgsteal_direct, 0 },
	{ "Pages scanned kswapd %", "%", "100 * pgscan_kswapd / (pgscan_kswapd + pgscan_direct)",
	  ZERO_DEN, NULL, kswapd_scan_pct, 0 },
	{ "Swap out", "pages", "pswpout", NULL, NULL, pswpout, 0 },
	{ "Swap in", "pages", "pswpin", NULL, NULL, pswpin, 0 },
	{ "File refaults", "pages", "workingset_refault_file", NULL, NULL, refault_file, 0 },
	/* the cadence: how often kswapd and kcompactd were woken and went back
	 * to sleep, beside how much they did (--extra-rows cadence); the rows
	 * are named as the counters are in /proc/vmstat */
	{ "pageoutrun", "events", "pageoutrun (balance_pgdat() runs)", NULL, NULL,
	  pageoutrun, RESULTS_ROWS_CADENCE },
	{ "kswapd_low_wmark_hit_quickly", "events",
	  "kswapd_low_wmark_hit_quickly (kswapd_try_to_sleep(): woken again before its short nap ended)",
	  NULL, NULL, low_wmark_quickly, RESULTS_ROWS_CADENCE },
	{ "kswapd_high_wmark_hit_quickly", "events",
	  "kswapd_high_wmark_hit_quickly (kswapd_try_to_sleep(): the node not balanced after the nap)",
	  NULL, NULL, high_wmark_quickly, RESULTS_ROWS_CADENCE },
	{ "Median free pages", "pages",
	  "nr_free_pages_median (nr_free_pages sampled every second over the measured window; a real "
	  "run: over its build)", NULL, NULL, free_median, RESULTS_ROWS_CADENCE },
	{ "compact_daemon_wake", "events", "compact_daemon_wake (kcompactd_do_work() runs)", NULL, NULL,
	  kcompactd_wake, RESULTS_ROWS_CADENCE },
	{ "kswapd_inodesteal", "pages",
	  "kswapd_inodesteal (page cache dropped with the inodes kswapd's shrinking freed)", NULL,
	  "v6.2 on a 64-bit kernel keeps an inode that has page cache off the inode LRU "
	  "(mapping_shrinkable()), so this is 0 there, as in the model", kswapd_inodesteal,
	  RESULTS_ROWS_CADENCE },
	/* the wakes: who woke kswapd and kcompactd, and who stalled, by order
	 * (--extra-rows wakes); a real run counts them with the harness's
	 * --trace-wakes (wakes.tsv), the model where the kernel fires the
	 * tracepoints (enum mm_trace_event); n/a for a real run without */
	{ "mm_vmscan_wakeup_kswapd order 0", "events",
	  "mm_vmscan_wakeup_kswapd at order 0 (wakeup_kswapd() woke a sleeping kswapd)", NULL, NULL,
	  wakeup_kswapd_o0, RESULTS_ROWS_WAKES },
	{ "mm_vmscan_wakeup_kswapd order 1-8", "events",
	  "mm_vmscan_wakeup_kswapd at orders 1 to 8 (slab pages, kmalloc, page-cache folios, ...)",
	  NULL, NULL, wakeup_kswapd_o1_8, RESULTS_ROWS_WAKES },
	{ "mm_vmscan_wakeup_kswapd order 9-10", "events",
	  "mm_vmscan_wakeup_kswapd at orders 9 and 10 (THP, the huge page pool)", NULL, NULL,
	  wakeup_kswapd_o9_10, RESULTS_ROWS_WAKES },
	{ "mm_vmscan_kswapd_wake order 1-10", "events",
	  "mm_vmscan_kswapd_wake at orders above 0 (balance_pgdat() runs for a high order)", NULL, NULL,
	  kswapd_wake_o1_10, RESULTS_ROWS_WAKES },
	{ "mm_compaction_wakeup_kcompactd", "events",
	  "mm_compaction_wakeup_kcompactd, all orders (a sleeping kcompactd woken, "
	  "kcompactd_node_suitable() passed)", NULL, NULL, wakeup_kcompactd, RESULTS_ROWS_WAKES },
	{ "mm_vmscan_direct_reclaim_begin order 1-10", "events",
	  "mm_vmscan_direct_reclaim_begin at orders above 0 (tasks in direct reclaim for a high order)",
	  NULL, NULL, direct_reclaim_o1_10, RESULTS_ROWS_WAKES },
	{ "mm_compaction_try_to_compact_pages order 1-8", "events",
	  "mm_compaction_try_to_compact_pages at orders 1 to 8 (direct compaction below THP)", NULL,
	  NULL, compact_o1_8, RESULTS_ROWS_WAKES },
	{ "mm_compaction_try_to_compact_pages order 9-10", "events",
	  "mm_compaction_try_to_compact_pages at orders 9 and 10 (direct compaction for THP)", NULL,
	  NULL, compact_o9_10, RESULTS_ROWS_WAKES },
	/* the same by whose request, told by its gfp_flags (orders 1-10) */
	{ "try_to_compact_pages: THP faults", "events",
	  "mm_compaction_try_to_compact_pages_gfp_thp (orders 1-10, gfp_flags GFP_TRANSHUGE*)", NULL,
	  NULL, compact_thp, RESULTS_ROWS_WAKES },
	{ "try_to_compact_pages: page-cache reads", "events",
	  "mm_compaction_try_to_compact_pages_gfp_readahead (orders 1-10, movable with __GFP_NORETRY: "
	  "readahead_gfp_mask())", NULL,
	  "the page cache has large folios from 6.16 (ext4; the model's [kernel] large_folios)",
	  compact_readahead, RESULTS_ROWS_WAKES },
	{ "try_to_compact_pages: page-cache writes", "events",
	  "mm_compaction_try_to_compact_pages_gfp_write (orders 1-10, __GFP_WRITE)", NULL,
	  "write folios above order 0 from 6.16 (ext4); the model writes order-0 pages",
	  compact_write, RESULTS_ROWS_WAKES },
	{ "direct_reclaim_begin: THP faults", "events",
	  "mm_vmscan_direct_reclaim_begin_gfp_thp (orders 1-10, GFP_TRANSHUGE*)", NULL, NULL,
	  reclaim_thp, RESULTS_ROWS_WAKES },
	{ "direct_reclaim_begin: page-cache reads", "events",
	  "mm_vmscan_direct_reclaim_begin_gfp_readahead (orders 1-10, readahead_gfp_mask())", NULL, NULL,
	  reclaim_readahead, RESULTS_ROWS_WAKES },
	{ "direct_reclaim_begin: page-cache writes", "events",
	  "mm_vmscan_direct_reclaim_begin_gfp_write (orders 1-10, __GFP_WRITE)", NULL, NULL,
	  reclaim_write, RESULTS_ROWS_WAKES },
	{ "wakeup_kswapd: THP faults", "events",
	  "mm_vmscan_wakeup_kswapd_gfp_thp (orders 1-10, GFP_TRANSHUGE*)", NULL, NULL,
	  wakeup_kswapd_thp, RESULTS_ROWS_WAKES },
	{ "wakeup_kswapd: page-cache reads", "events",
	  "mm_vmscan_wakeup_kswapd_gfp_readahead (orders 1-10, readahead_gfp_mask())", NULL, NULL,
	  wakeup_kswapd_readahead, RESULTS_ROWS_WAKES },
	{ "wakeup_kswapd: page-cache writes", "events",
	  "mm_vmscan_wakeup_kswapd_gfp_write (orders 1-10, __GFP_WRITE)", NULL, NULL,
	  wakeup_kswapd_write, RESULTS_ROWS_WAKES },
};

unsigned results_rows_group(const char *name)
{
	if (name && !strcmp(name, "cadence"))
		return RESULTS_ROWS_CADENCE;
	if (name && !strcmp(name, "wakes"))
		return RESULTS_ROWS_WAKES;
	return 0;
}

const char *results_rows_group_name(unsigned group)
{
	return group == RESULTS_ROWS_CADENCE ? "cadence" : group == RESULTS_ROWS_WAKES ? "wakes" : NULL;
}

const char *const results_trace_events[RESULTS_NR_TRACE_EVENTS] = {
	"mm_vmscan_wakeup_kswapd", "mm_vmscan_kswapd_wake", "mm_compaction_wakeup_kcompactd",
	"mm_compaction_kcompactd_wake", "mm_vmscan_direct_reclaim_begin",
	"mm_compaction_try_to_compact_pages",
};

const char *const results_gfp_classes[RESULTS_NR_GFP_CLASSES] = {
	[RESULTS_GFP_THP] = "thp", [RESULTS_GFP_READAHEAD] = "readahead",
	[RESULTS_GFP_WRITE] = "write", [RESULTS_GFP_OTHER] = "other",
};

int results_trace_event_has_gfp(const char *event)
{
	return event && (!strcmp(event, "mm_vmscan_wakeup_kswapd") ||
	                 !strcmp(event, "mm_vmscan_direct_reclaim_begin") ||
	                 !strcmp(event, "mm_compaction_try_to_compact_pages"));
}

/* is the flag name one of the '|'-separated names of flags? */
static int has_flag(const char *flags, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = flags; (p = strstr(p, name)); p += len)
		if ((p == flags || p[-1] == '|') && (p[len] == '\0' || p[len] == '|' || p[len] == ';'))
			return 1;
	return 0;
}

int results_gfp_class_of(const char *flags)
{
	if (has_flag(flags, "__GFP_WRITE"))
		return RESULTS_GFP_WRITE;
	if (has_flag(flags, "GFP_TRANSHUGE") || has_flag(flags, "GFP_TRANSHUGE_LIGHT"))
		return RESULTS_GFP_THP;
	if (has_flag(flags, "__GFP_NORETRY") &&
	    (has_flag(flags, "__GFP_MOVABLE") || has_flag(flags, "GFP_HIGHUSER_MOVABLE")))
		return RESULTS_GFP_READAHEAD;
	return RESULTS_GFP_OTHER;
}

/* The rows by range of orders: which source a tracepoint's order adds to.
 * kswapd at order 0 is the common case, woken by its own row; a
 * balance_pgdat() at order 0 is pageoutrun's; kcompactd_do_work() is
 * compact_daemon_wake's; compaction at order 0 does not happen. */
int results_src_bucket(const char *name)
{
	static const struct {
		const char *event;
		int lo[3], hi[3], src[3];
	} b[] = {
		{ "mm_vmscan_wakeup_kswapd", { 0, 1, 9 }, { 0, 8, 10 },
		  { SRC_WAKEUP_KSWAPD_O0, SRC_WAKEUP_KSWAPD_O1_8, SRC_WAKEUP_KSWAPD_O9_10 } },
		{ "mm_vmscan_kswapd_wake", { 1, 1, 1 }, { 10, 0, 0 }, { SRC_KSWAPD_WAKE_O1_10, -1, -1 } },
		{ "mm_compaction_wakeup_kcompactd", { 0, 1, 1 }, { 10, 0, 0 }, { SRC_WAKEUP_KCOMPACTD, -1, -1 } },
		{ "mm_vmscan_direct_reclaim_begin", { 1, 1, 1 }, { 10, 0, 0 },
		  { SRC_DIRECT_RECLAIM_O1_10, -1, -1 } },
		{ "mm_compaction_try_to_compact_pages", { 1, 9, 1 }, { 8, 10, 0 },
		  { SRC_TRY_TO_COMPACT_O1_8, SRC_TRY_TO_COMPACT_O9_10, -1 } },
	};

	for (size_t i = 0; name && i < sizeof(b) / sizeof(b[0]); i++) {
		size_t len = strlen(b[i].event);
		const char *n;
		char *end;
		long order;

		if (strncmp(name, b[i].event, len) || strncmp(name + len, "_order", 6))
			continue;
		n = name + len + 6;
		if (*n < '0' || *n > '9')
			return -1;
		order = strtol(n, &end, 10);
		if (*end)
			return -1;
		for (int k = 0; k < 3; k++)
			if (b[i].src[k] >= 0 && order >= b[i].lo[k] && order <= b[i].hi[k])
				return b[i].src[k];
		return -1;
	}
	return -1;
}

double results_metric_value(size_t m, const double *v)
{
	return results_metrics[m].fn(v);
}

int results_metric_find(const char *name)
{
	for (int m = 0; m < RESULTS_NR_METRICS; m++)
		if (name && !strcasecmp(results_metrics[m].name, name))
			return m;
	return -1;
}

int results_src_find(const char *name, int vmstat)
{
	int s = vmstat ? SRC_NR_METRIC : 0, end = vmstat ? SRC_NR : SRC_NR_METRIC;

	for (; name && s < end; s++)
		if (!strcmp(name, results_src_name[s]))
			return s;
	return -1;
}
