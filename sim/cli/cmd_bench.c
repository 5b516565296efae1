/* cmd_bench.c - micro-benchmarks of the allocator model.  Not a test:
 * numbers depend on the machine; docs/benchmarks.md records them. */
#include <getopt.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"

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

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pairs", required_argument, NULL, 'n' },
		{ "ram", required_argument, NULL, 0 },
		{ "cpus", required_argument, NULL, 0 },
		{ "set", required_argument, NULL, 0 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct machine_opts m;
	unsigned long pairs = 20000000;
	int c, idx;

	machine_opts_defaults(&m);
	m.ram = 4ull << 30;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", opts, &idx)) != -1) {
		switch (c) {
		case 0:
			if (machine_opt(&m, opts[idx].name, optarg) < 0)
				return EXIT_CONFIG;
			break;
		case 'n':
			if (parse_ulong(optarg, &pairs) || pairs < BATCH) {
				error("--pairs: '%s' is not a number of at least %d", optarg, BATCH);
				return EXIT_CONFIG;
			}
			break;
		case 'h':
			printf("usage: mmsim bench [--pairs N] [machine options]\n\n"
			       "Allocation+free pairs per second of wall time, per policy, on one core:\n"
			       "order-0 through the per-cpu lists, mixed orders 0-3 and types, and\n"
			       "order-9 (THP); and bytes of model state per simulated page.\n"
			       "Defaults: 4G RAM, 20000000 pairs.\n\n"
			       "  --pairs N             pairs per order-0 measurement (others scale down)\n"
			       MACHINE_OPTIONS_HELP);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	printf("%-10s %18s %18s %18s\n", "policy", "order-0 pairs/s", "mixed 0-3 pairs/s", "order-9 pairs/s");
	for (int i = 0; mm_policy_table[i]; i++) {
		struct pglist_data pgdat;
		struct mm_policy *policy;
		double o0, mixed, o9;

		if (machine_boot(&m, mm_policy_table[i]->name, &pgdat, &policy))
			return EXIT_CONFIG;
		o0 = bench_fixed(&pgdat, GFP_KERNEL, 0, pairs);
		mixed = bench_mixed(&pgdat, pairs / 4, 1);
		o9 = bench_fixed(&pgdat, GFP_TRANSHUGE_LIGHT, 9, pairs / 40);
		printf("%-10s %18.0f %18.0f %18.0f\n", mm_policy_table[i]->name, o0, mixed, o9);
		if (i == 0) {
			double pages = (double)pgdat.node_spanned_pages;
			double bytes = pages * sizeof(struct page) + (double)pgdat.nr_pageblocks;
			printf("(model state: %zu bytes of struct page + %.4f bytes of pageblock flags "
			       "= %.3f bytes per simulated page)\n",
			       sizeof(struct page), (double)pgdat.nr_pageblocks / pages, bytes / pages);
		}
		machine_shutdown(&pgdat, policy);
	}
	return EXIT_OK;
}
