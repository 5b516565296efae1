/* cmd_demo.c - the demonstration: the same randomized allocation load
 * (same seed, same machine) on each policy, then each node's state in the
 * kernel's formats and the cover letter's block census. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "mmsim/parse.h"
#include "mmsim/census.h"
#include "mmsim/debug_vm.h"
#include "mmsim/show_mem.h"
#include "random_alloc.h"

static void demo_usage(FILE *f)
{
	fprintf(f, "usage: mmsim demo [--policy NAME]... [--ops N] [--occupancy F] [--seed N]\n"
	           "                  [--brief] [machine options]\n\n"
	           "Runs a randomized mixed-type, mixed-order allocation load (random_alloc) on\n"
	           "each policy (default: every policy) and prints /proc/pagetypeinfo,\n"
	           "/proc/buddyinfo, /proc/vmstat, the fallback (extfrag) summary and the\n"
	           "block census of the RFC's cover letter, taken with the load still in memory.\n\n"
	           "  --policy NAME         a policy to run (repeatable; see 'mmsim list policies')\n"
	           "  --ops N               allocation attempts (default 2000000)\n"
	           "  --occupancy F         fraction of managed memory the load keeps (default 0.85)\n"
	           "  --seed N              random seed (default 1)\n"
	           "  --brief               only the summary and the census\n"
	           MACHINE_OPTIONS_HELP);
}

static int run_one(const struct machine_opts *m, const char *policy_name,
                   const struct random_alloc_params *rp, int brief)
{
	struct pglist_data pgdat;
	struct mm_policy *policy;
	struct random_alloc_stats st;
	struct block_census census;

	if (machine_opts_boot(m, policy_name, &pgdat, &policy))
		return EX_CONFIG;
	random_alloc_run(&pgdat, rp, &st, 1);
	printf("==== policy %s: %lu MiB RAM, %u CPUs, seed %llu, %lu allocation attempts ====\n",
	       policy_name, (unsigned long)(m->ram >> 20), m->cpus, (unsigned long long)rp->seed, rp->ops);
	for (int c = 0; c < NR_RA_CLASSES; c++)
		printf("%-18s attempts %9lu failed %8lu (%.2f%%)\n", ra_class_names[c], st.attempts[c],
		       st.failures[c], st.attempts[c] ? 100.0 * (double)st.failures[c] / (double)st.attempts[c] : 0.0);
	printf("live pages %lu, kswapd wake requests %lu\n\n", st.live_pages, pgdat.kswapd_wakeups);
	if (!brief) {
		printf("---- /proc/pagetypeinfo\n");
		show_pagetypeinfo(stdout, &pgdat);
		printf("\n---- /proc/buddyinfo\n");
		show_buddyinfo(stdout, &pgdat);
		printf("\n---- /proc/vmstat\n");
		show_vmstat(stdout, &pgdat);
		printf("\n");
	}
	printf("---- fallbacks (mm_page_alloc_extfrag)\n");
	show_extfrag(stdout, &pgdat);
	printf("\n---- block census\n");
	pageblock_census(&pgdat, &census);
	show_census(stdout, &pgdat, &census);
	printf("\n");
	if (check_pgdat(&pgdat, "demo")) {
		error("invariant violation after the %s run", policy_name);
		return EX_SOFTWARE;
	}
	random_alloc_release(&pgdat);
	machine_shutdown(&pgdat, policy);
	return EX_OK;
}

int cmd_demo(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "ops", required_argument, NULL, 'n' },
		{ "occupancy", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "brief", no_argument, NULL, 'b' },
		MACHINE_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct machine_opts m;
	struct random_alloc_params rp;
	const char *policies[16];
	int nr_policies = 0, brief = 0, c, idx, rc = EX_OK;
	unsigned long v;

	machine_opts_defaults(&m);
	random_alloc_defaults(&rp);
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:n:s:h", opts, &idx)) != -1) {
		switch (c) {
		case 0:
			if (machine_opt(&m, opts[idx].name, optarg) < 0)
				return EX_CONFIG;
			break;
		case 'p':
			if (!mm_policy_find(optarg)) {
				error("unknown policy '%s' (valid: %s)", optarg, mm_policy_names());
				return EX_CONFIG;
			}
			if (nr_policies < 16)
				policies[nr_policies++] = mm_policy_canonical(optarg);   /* an alias prints as the name */
			break;
		case 'n':
			if (parse_ulong(optarg, &rp.ops) || !rp.ops) {
				error("--ops: '%s' is not a positive number", optarg);
				return EX_CONFIG;
			}
			break;
		case 'o': {
			double f;
			if (mmsim_parse_double(optarg, &f) || !(f > 0.0 && f < 1.0)) {
				error("--occupancy: '%s' is not a fraction between 0 and 1", optarg);
				return EX_CONFIG;
			}
			rp.occupancy = f;
			break;
		}
		case 's':
			if (parse_ulong(optarg, &v)) {
				error("--seed: '%s' is not a number", optarg);
				return EX_CONFIG;
			}
			rp.seed = v;
			break;
		case 'b':
			brief = 1;
			break;
		case 'h':
			demo_usage(stdout);
			return EX_OK;
		default:
			demo_usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind < argc) {
		error("demo: unexpected argument '%s'", argv[optind]);
		return EX_USAGE;
	}
	if (!nr_policies)
		for (int i = 0; mm_policy_table[i] && nr_policies < 16; i++)
			policies[nr_policies++] = mm_policy_table[i]->name;
	for (int i = 0; i < nr_policies && rc == EX_OK; i++)
		rc = run_one(&m, policies[i], &rp, brief);
	return rc;
}
