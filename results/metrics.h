/* metrics.h - the compare table's rows, each defined once (metrics.c).
 *
 * Every reader of a row - `mmsim compare` (text, CSV, JSON, HTML), the
 * sweep plot of `mmsim plot`, `mmsim report` and scripts/validate.sh
 * (through `mmsim compare --format values`) - computes it with
 * results_metric_value() from one run's sources: the workload metrics
 * (metrics table) and the /proc/vmstat deltas (vmstat table) of the run,
 * or of one iteration of it.  `mmsim compare --list-metrics` prints the
 * definitions.
 */
#ifndef MMSIM_RESULTS_METRICS_H
#define MMSIM_RESULTS_METRICS_H

#include <stddef.h>

/* what a run provides: workload metrics, then /proc/vmstat counters */
enum results_src {
	SRC_REAL_TIME, SRC_USER_TIME, SRC_SYSTEM_TIME, SRC_NR_FREE_PAGES_MEDIAN,
	/* the tracepoints real/harness counts (RESULTS_ROWS_WAKES): each the
	 * sum of the metrics <tracepoint>_order<N> over a range of orders
	 * (results_src_bucket) */
	SRC_WAKEUP_KSWAPD_O0, SRC_WAKEUP_KSWAPD_O1_8, SRC_WAKEUP_KSWAPD_O9_10,
	SRC_KSWAPD_WAKE_O1_10, SRC_WAKEUP_KCOMPACTD, SRC_DIRECT_RECLAIM_O1_10,
	SRC_TRY_TO_COMPACT_O1_8, SRC_TRY_TO_COMPACT_O9_10,
	/* and by the class of the request's gfp_flags, orders 1-10: the
	 * metrics <tracepoint>_gfp_<class> (results_gfp_class_of()) */
	SRC_TRY_TO_COMPACT_THP, SRC_TRY_TO_COMPACT_READAHEAD, SRC_TRY_TO_COMPACT_WRITE,
	SRC_DIRECT_RECLAIM_THP, SRC_DIRECT_RECLAIM_READAHEAD, SRC_DIRECT_RECLAIM_WRITE,
	SRC_WAKEUP_KSWAPD_THP, SRC_WAKEUP_KSWAPD_READAHEAD, SRC_WAKEUP_KSWAPD_WRITE,
	SRC_NR_METRIC,
	SRC_THP_FAULT_ALLOC = SRC_NR_METRIC, SRC_THP_FAULT_FALLBACK,
	SRC_COMPACT_STALL, SRC_COMPACT_FAIL, SRC_COMPACT_SUCCESS,
	SRC_COMPACT_DAEMON_MIGRATE_SCANNED, SRC_COMPACT_DAEMON_FREE_SCANNED,
	SRC_COMPACT_MIGRATE_SCANNED, SRC_COMPACT_FREE_SCANNED,
	SRC_ALLOCSTALL_DMA, SRC_ALLOCSTALL_DMA32, SRC_ALLOCSTALL_NORMAL, SRC_ALLOCSTALL_MOVABLE,
	SRC_PGSCAN_KSWAPD, SRC_PGSTEAL_KSWAPD, SRC_PGSCAN_DIRECT, SRC_PGSTEAL_DIRECT,
	SRC_PSWPOUT, SRC_PSWPIN, SRC_WORKINGSET_REFAULT_FILE,
	/* the kswapd and kcompactd cadence (RESULTS_ROWS_CADENCE) */
	SRC_PAGEOUTRUN, SRC_KSWAPD_LOW_WMARK_HIT_QUICKLY, SRC_KSWAPD_HIGH_WMARK_HIT_QUICKLY,
	SRC_COMPACT_DAEMON_WAKE, SRC_KSWAPD_INODESTEAL,
	SRC_NR
};

/* the name of a source: a metrics name (src < SRC_NR_METRIC) or a
 * /proc/vmstat counter name */
extern const char *const results_src_name[SRC_NR];

struct results_metric {
	const char *name;               /* the cover letter's row name */
	const char *unit;               /* "s", "events", "pages", "%" */
	const char *formula;            /* over the sources, by their names */
	const char *zero_den;           /* the value when the denominator is 0, and why
	                                   (NULL: no denominator) */
	const char *kernel;             /* where the meaning depends on the kernel
	                                   version modelled (NULL: none) */
	double (*fn)(const double *v);  /* v[SRC_NR]: a run's sources */
	unsigned group;                 /* 0: the cover letter's; else RESULTS_ROWS_*, printed on
	                                   request (compare_opts.extra_rows) */
};

/* groups of rows beyond the cover letter's, printed on request
 * (mmsim compare --extra-rows NAME) */
#define RESULTS_ROWS_CADENCE 1u         /* "cadence": how often kswapd and kcompactd ran */
#define RESULTS_ROWS_WAKES 2u           /* "wakes": who woke them, and who stalled, by order */

extern const struct results_metric results_metrics[];
/* the cover letter's 25 rows, then the groups' */
#define RESULTS_NR_METRICS 48

/* is row m printed when the groups extra_rows are asked for? */
static inline int results_metric_shown(size_t m, unsigned extra_rows);
/* the group named name ("cadence", "wakes"), or 0 */
unsigned results_rows_group(const char *name);
/* the group's name, for messages and --list-metrics */
const char *results_rows_group_name(unsigned group);

/* the row's value for one run (or one iteration) whose sources are v;
 * NaN where the run did not measure it (Real time of a build that the
 * window cut short): readers leave it out of that row */
double results_metric_value(size_t m, const double *v);
/* the row named name (case-insensitive), or -1 */
int results_metric_find(const char *name);
/* source index of a metrics name (vmstat 0) or vmstat name (vmstat 1), or -1 */
int results_src_find(const char *name, int vmstat);
/* the source a metric <tracepoint>_order<N> adds to, or -1 (not one, or
 * an order no row counts) */
int results_src_bucket(const char *name);
/* the tracepoints real/harness counts (its wakes.tsv), in the model's
 * order (enum mm_trace_event), stored as <tracepoint>_order<N>, N from 0
 * to RESULTS_TRACE_ORDERS - 1 */
#define RESULTS_NR_TRACE_EVENTS 6
#define RESULTS_TRACE_ORDERS 11         /* orders 0..10, the model's MAX_ORDER */
extern const char *const results_trace_events[RESULTS_NR_TRACE_EVENTS];
/* the classes of a request's gfp_flags the trace is counted by (the
 * model's enum trace_gfp_class, in its order), stored as
 * <tracepoint>_gfp_<class> for the tracepoints that print gfp_flags */
enum results_gfp_class { RESULTS_GFP_THP, RESULTS_GFP_READAHEAD, RESULTS_GFP_WRITE, RESULTS_GFP_OTHER,
                         RESULTS_NR_GFP_CLASSES };
extern const char *const results_gfp_classes[RESULTS_NR_GFP_CLASSES];
/* does the tracepoint print gfp_flags (wakeup_kswapd, direct reclaim,
 * direct compaction)? */
int results_trace_event_has_gfp(const char *event);
/* the class of flags as the kernel prints them ("GFP_TRANSHUGE|__GFP_NORETRY"):
 * write (__GFP_WRITE), thp (GFP_TRANSHUGE, GFP_TRANSHUGE_LIGHT), readahead
 * (__GFP_MOVABLE or a *_MOVABLE composite, with __GFP_NORETRY), other */
int results_gfp_class_of(const char *flags);

static inline int results_metric_shown(size_t m, unsigned extra_rows)
{
	return !results_metrics[m].group || (results_metrics[m].group & extra_rows);
}

#endif
