/* cmd_bench.c - micro-benchmarks of the allocator model.  Not a test:
 * numbers depend on the machine; docs/benchmarks.md records them. */
#include <getopt.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "mmsim/parse.h"
#include "mmsim/debug_vm.h"
#include "mmsim/engine.h"
#include "simple.h"
#include "workload.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define BATCH 64

/* alloc BATCH pages then free them, repeatedly: the pcp lists stay warm */
static double bench_fixed(struct pglist_data *pgdat, gfp_t gfp, unsigned order, unsigned long pairs)
{
	struct mm_ctx ctx = { .cpu = 0 };
	struct page *held[BATCH];
	double t0 = now();

	for (unsigned long done = 0; done < pairs; done += BATCH) {
		for (int i = 0; i < BATCH; i++)
			held[i] = alloc_pages(pgdat, &ctx, gfp, order);
		for (int i = 0; i < BATCH; i++)
			if (held[i])
				__free_pages(pgdat, &ctx, held[i], order);
	}
	return (double)pairs / (now() - t0);
}

/* orders 0-3 and the three types, from a precomputed random sequence, with
 * a pool of live pages so that frees come out of allocation order */
static double bench_mixed(struct pglist_data *pgdat, unsigned long pairs, uint64_t seed)
{
	enum { POOL = 4096, SEQ = 1 << 16 };
	static const gfp_t gfps[3] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE, GFP_KERNEL | __GFP_RECLAIMABLE };
	struct mm_ctx ctx = { .cpu = 0 };
	struct { struct page *p; unsigned order; } pool[POOL] = { { NULL, 0 } };
	static uint16_t slot[SEQ];
	static uint8_t ord[SEQ], typ[SEQ];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
	double t0;

	gsl_rng_set(rng, (unsigned long)seed);
	for (int i = 0; i < SEQ; i++) {
		slot[i] = (uint16_t)gsl_rng_uniform_int(rng, POOL);
		ord[i] = (uint8_t)gsl_rng_uniform_int(rng, 4);
		typ[i] = (uint8_t)gsl_rng_uniform_int(rng, 3);
	}
	gsl_rng_free(rng);
	t0 = now();
	for (unsigned long i = 0; i < pairs; i++) {
		unsigned s = slot[i % SEQ];
		if (pool[s].p)
			__free_pages(pgdat, &ctx, pool[s].p, pool[s].order);
		pool[s].order = ord[i % SEQ];
		pool[s].p = alloc_pages(pgdat, &ctx, gfps[typ[i % SEQ]], pool[s].order);
	}
	t0 = now() - t0;
	for (int s = 0; s < POOL; s++)
		if (pool[s].p)
			__free_pages(pgdat, &ctx, pool[s].p, pool[s].order);
	return (double)pairs / t0;
}

/* The memory-pressure benchmark: 8 CPUs, 4 GiB, 4 GiB of swap, eight
 * processes of 600 MiB each touching random 20 MiB windows of their memory
 * for a minute: free memory sits at the watermarks, kswapd is busy,
 * allocations stall in direct reclaim, swap is in use.  Beside them the
 * THP faulter (the thp_faulter workload: 1 GiB regions, madvise
 * (MADV_HUGEPAGE), touched, held 0.1 s, unmapped, 2 s pauses in which the
 * hogs' swap-ins and reclaim scatter pages over the blocks it freed) asks
 * for order-9 pages, so that direct compaction and kcompactd work; it
 * stops when the hogs end. */
struct pressure {
	const struct machine_opts *m;
	const char *policy;
	double seconds;
	double below_low, below_high;   /* share of samples below the watermarks */
};

struct hogs_watch {
	struct task *hogs[8];
	struct workload_set *set;
};

/* the hogs are the measured part: when they have all exited, the
 * background faulter is told to stop (workload_stopping) */
static void watch_hogs(struct engine *e, void *arg)
{
	struct hogs_watch *w = arg;
	(void)e;
	for (unsigned i = 0; i < 8; i++)
		if (w->hogs[i] && !w->hogs[i]->exited)
			return;
	w->set->stopping = true;
}

static int pressure_child(void *arg)
{
	struct pressure *pr = arg;
	static struct pglist_data pgdat;
	static struct anon_hog hogs[8];
	static struct workload_set set;
	static struct hogs_watch watch;
	struct workload *faulter;
	struct mm_policy *policy;
	struct engine e;
	struct engine_config cfg;
	char err[256];
	int argc = 1;
	char *argv[] = { "mmsim", NULL };
	double t0, wall, sim;
	unsigned long events = 0, scanned;

	if (machine_opts_boot(pr->m, pr->policy, &pgdat, &policy))
		return EX_CONFIG;
	engine_config_defaults(&cfg);
	cfg.cpus = pr->m->cpus;
	cfg.sample_interval = 0.1;
	if (engine_init(&e, &pgdat, &cfg, &argc, argv, err, sizeof(err))) {
		error("%s", err);
		return EX_SOFTWARE;
	}
	for (unsigned i = 0; i < 8; i++) {
		anon_hog_init(&hogs[i], 153600, 1000, 5120, pr->seconds, 1, i);
		watch.hogs[i] = engine_spawn(&e, "hog", &anon_hog_ops, &hogs[i]);
	}
	if (workload_create("thp_faulter", &faulter, err, sizeof(err)) ||
	    workload_set_param(faulter, "region", "1G", err, sizeof(err)) ||
	    workload_set_param(faulter, "hold", "0.1", err, sizeof(err)) ||
	    workload_set_param(faulter, "pause", "2", err, sizeof(err)) ||
	    workload_validate(faulter, err, sizeof(err)) ||
	    workload_set_add(&set, faulter) || workload_set_start(&set, &e, &pgdat, 1, err, sizeof(err))) {
		error("%s", err);
		return EX_SOFTWARE;
	}
	watch.set = &set;
	if (engine_every(&e, "hogs_watch", 0.05, watch_hogs, &watch)) {
		error("bench --pressure: cannot watch the hogs");
		return EX_SOFTWARE;
	}
	t0 = now();
	sim = engine_run(&e, 0);
	wall = now() - t0;
	if (e.error) {
		error("%s", e.error_msg);
		return EX_CONFIG;     /* the child ends: SimGrid cannot go on */
	}
	for (int i = PGALLOC_DMA; i <= PGALLOC_MOVABLE; i++)
		events += pgdat.vm_events[i];
	scanned = pgdat.vm_events[PGSCAN_KSWAPD] + pgdat.vm_events[PGSCAN_DIRECT] + pgdat.vm_events[PGREFILL];
	events += pgdat.vm_events[PGFREE] + scanned + pgdat.vm_events[PGFAULT];
	{
		/* the share of samples with free memory below the high and the
		 * low watermarks, while the processes run */
		unsigned long low = 0, high = 0, below_low = 0, below_high = 0, n = 0;
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			low += low_wmark_pages(&pgdat.node_zones[z]);
			high += high_wmark_pages(&pgdat.node_zones[z]);
		}
		for (size_t i = 0; i < e.nr_samples; i++) {
			if (e.samples[i].t > pr->seconds)
				break;
			n++;
			below_low += e.samples[i].zone_stat[NR_FREE_PAGES] < (long)low;
			below_high += e.samples[i].zone_stat[NR_FREE_PAGES] < (long)high;
		}
		pr->below_low = n ? (double)below_low / (double)n : 0;
		pr->below_high = n ? (double)below_high / (double)n : 0;

	}
	printf("%-10s %8.2f %8.3f %10.1f %14.0f %9.0f%% %9.0f%%   kswapd scanned %lu, direct scanned %lu, "
	       "allocstall %lu, pswpout %lu, pswpin %lu, oom_kill %lu\n",
	       pr->policy, sim, wall, sim / wall, (double)events / wall, 100 * pr->below_high,
	       100 * pr->below_low,
	       pgdat.vm_events[PGSCAN_KSWAPD],
	       pgdat.vm_events[PGSCAN_DIRECT], pgdat.vm_events[ALLOCSTALL_MOVABLE],
	       pgdat.vm_events[PSWPOUT], pgdat.vm_events[PSWPIN], pgdat.vm_events[OOM_KILL]);
	{
		const unsigned long *v = pgdat.vm_events;
		unsigned long faults = v[THP_FAULT_ALLOC] + v[THP_FAULT_FALLBACK];
		struct metric met[4];
		double cycles = faulter->ops->report(faulter, met, 4) > 0 ? met[0].value : 0;

		printf("%-10s thp_fault_alloc %lu, thp_fault_fallback %lu (fail rate %.2f%%, %.0f faulter cycles); "
		       "compact_stall %lu, compact_success %lu, compact_fail %lu, compact_migrate_scanned %lu, "
		       "compact_free_scanned %lu, compact_daemon_wake %lu, compact_daemon_migrate_scanned %lu, "
		       "compact_daemon_free_scanned %lu, pgmigrate_success %lu; kcompactd cpu %.3f s\n",
		       "", v[THP_FAULT_ALLOC], v[THP_FAULT_FALLBACK],
		       faults ? 100.0 * (double)v[THP_FAULT_FALLBACK] / (double)faults : 0.0, cycles,
		       v[COMPACTSTALL], v[COMPACTSUCCESS], v[COMPACTFAIL], v[COMPACTMIGRATE_SCANNED],
		       v[COMPACTFREE_SCANNED], v[KCOMPACTD_WAKE], v[KCOMPACTD_MIGRATE_SCANNED],
		       v[KCOMPACTD_FREE_SCANNED], v[PGMIGRATE_SUCCESS], e.kcompactd_cpu_ns * 1e-9);
	}
	workload_destroy(faulter);
	return check_pgdat(&pgdat, "bench --pressure") ? EX_SOFTWARE : EX_OK;
}

static int bench_pressure(const struct machine_opts *m, double seconds)
{
	int rc = EX_OK;

	printf("memory-pressure benchmark: %u CPUs, %lu MiB RAM, %lu MiB swap, 8 x 600 MiB processes, "
	       "%.0f s of touching, a THP faulter (1 GiB regions, madvise)\n", m->cpus,
	       (unsigned long)(m->ram >> 20), (unsigned long)(m->swap >> 20), seconds);
	printf("%-10s %8s %8s %10s %14s %10s %10s\n", "policy", "sim s", "wall s", "sim/wall", "mem events/s",
	       "< high", "< low");
	for (int i = 0; mm_policy_table[i] && rc == EX_OK; i++) {
		struct pressure pr = { .m = m, .policy = mm_policy_table[i]->name, .seconds = seconds };
		/* SimGrid runs once per process: one child per simulation */
		rc = engine_fork_run(pressure_child, &pr);
	}
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pairs", required_argument, NULL, 'n' },
		{ "pressure", no_argument, NULL, 'P' },
		{ "seconds", required_argument, NULL, 'S' },
		MACHINE_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct machine_opts m;
	unsigned long pairs = 20000000;
	int c, idx, pressure = 0;
	double seconds = 60;
	bool ram_set = false;

	machine_opts_defaults(&m);
	m.ram = 4ull << 30;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", opts, &idx)) != -1) {
		switch (c) {
		case 0:
			if (machine_opt(&m, opts[idx].name, optarg) < 0)
				return EX_CONFIG;
			ram_set |= !strcmp(opts[idx].name, "ram");
			break;
		case 'P':
			pressure = 1;
			break;
		case 'S': {
			if (mmsim_parse_double(optarg, &seconds) || !(seconds > 0 && seconds < 1e6)) {
				error("--seconds: '%s' is not a duration in seconds", optarg);
				return EX_CONFIG;
			}
			break;
		}
		case 'n':
			if (parse_ulong(optarg, &pairs) || pairs < BATCH) {
				error("--pairs: '%s' is not a number of at least %d", optarg, BATCH);
				return EX_CONFIG;
			}
			break;
		case 'h':
			printf("usage: mmsim bench [--pairs N] [machine options]\n"
			       "       mmsim bench --pressure [--seconds S] [machine options]\n\n"
			       "Allocation+free pairs per second of wall time, per policy, on one core:\n"
			       "order-0 through the per-cpu lists, mixed orders 0-3 and types, and\n"
			       "order-9 (THP); and bytes of model state per simulated page.\n"
			       "Defaults: 4G RAM, 20000000 pairs.\n"
			       "With --pressure: the memory-pressure scenario on the virtual clock (8 CPUs,\n"
			       "4G RAM, 4G swap by default): eight anonymous hogs and a THP faulter;\n"
			       "simulated seconds per wall second, memory events (allocations, frees,\n"
			       "faults, pages scanned) per wall second, THP fault and compaction counters.\n\n"
			       "  --pairs N             pairs per order-0 measurement (others scale down)\n"
			       "  --pressure            run the memory-pressure benchmark instead\n"
			       "  --seconds S           its duration of touching (default 60)\n"
			       MACHINE_OPTIONS_HELP);
			return EX_OK;
		default:
			return EX_USAGE;
		}
	}
	if (pressure) {
		if (!ram_set)
			m.ram = 4ull << 30;
		m.cpus = m.cpus == 4 ? 8 : m.cpus;
		if (!m.swap)
			m.swap = 4ull << 30;
		return bench_pressure(&m, seconds);
	}
	for (int i = 0; mm_policy_table[i]; i++) {
		struct pglist_data pgdat;
		struct mm_policy *policy;
		double o0, mixed, o9;

		if (machine_opts_boot(&m, mm_policy_table[i]->name, &pgdat, &policy))
			return EX_CONFIG;
		/* the header once the machine is known to boot: a refused
		 * --ram or --swap prints nothing on stdout */
		if (i == 0)
			printf("%-10s %18s %18s %18s\n", "policy", "order-0 pairs/s", "mixed 0-3 pairs/s",
			       "order-9 pairs/s");
		o0 = bench_fixed(&pgdat, GFP_KERNEL, 0, pairs);
		mixed = bench_mixed(&pgdat, pairs / 4, 1);
		o9 = bench_fixed(&pgdat, GFP_TRANSHUGE_LIGHT, 9, pairs / 40);
		printf("%-10s %18.0f %18.0f %18.0f\n", mm_policy_table[i]->name, o0, mixed, o9);
		if (i == 0) {
			double pages = (double)pgdat.node_spanned_pages;
			/* struct page, the buddy tag byte per pfn (page_is_buddy's
			 * index) and the pageblock flags byte per block, for every
			 * spanned pfn: the PCI hole's too */
			double bytes = pages * (sizeof(struct page) + 1) + (double)pgdat.nr_pageblocks;
			double ram = 0;
			for (int z = 0; z < MAX_NR_ZONES; z++)
				ram += (double)pgdat.node_zones[z].present_pages;
			printf("(model state: %zu bytes of struct page + 1 byte of buddy tag + %.4f bytes "
			       "of pageblock flags = %.3f bytes per spanned pfn, %.3f per page of RAM)\n",
			       sizeof(struct page), (double)pgdat.nr_pageblocks / pages, bytes / pages,
			       bytes / ram);
		}
		machine_shutdown(&pgdat, policy);
	}
	return EX_OK;
}
