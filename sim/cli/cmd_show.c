/* cmd_show.c - mmsim show FILE: boot a machine, optionally run the
 * random_alloc load on it, and print one /proc file (or the census). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "mmsim/census.h"
#include "mmsim/show_mem.h"
#include "random_alloc.h"

static const char *const files[] = { "pagetypeinfo", "buddyinfo", "vmstat", "zoneinfo", "census", NULL };

static void show_usage(FILE *f)
{
	fprintf(f, "usage: mmsim show pagetypeinfo|buddyinfo|vmstat|zoneinfo|census\n"
	           "                  [--policy NAME] [--ops N] [--seed N] [machine options]\n\n"
	           "Boots a machine with the policy (default vanilla), runs N attempts of the\n"
	           "random_alloc load (default 0: the freshly booted state) and prints the file.\n\n"
	           "  --policy NAME         the allocator policy (see 'mmsim list policies')\n"
	           "  --ops N               random_alloc attempts before printing (default 0)\n"
	           "  --seed N              random seed (default 1)\n"
	           MACHINE_OPTIONS_HELP);
}

int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "ops", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		MACHINE_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct machine_opts m;
	struct random_alloc_params rp;
	struct random_alloc_stats st;
	struct pglist_data pgdat;
	struct mm_policy *policy;
	const char *policy_name = "vanilla", *file;
	int c, idx, which = -1;
	unsigned long v;

	machine_opts_defaults(&m);
	random_alloc_defaults(&rp);
	rp.ops = 0;
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
			policy_name = optarg;
			break;
		case 'n':
			if (parse_ulong(optarg, &rp.ops)) {
				error("--ops: '%s' is not a number", optarg);
				return EX_CONFIG;
			}
			break;
		case 's':
			if (parse_ulong(optarg, &v)) {
				error("--seed: '%s' is not a number", optarg);
				return EX_CONFIG;
			}
			rp.seed = v;
			break;
		case 'h':
			show_usage(stdout);
			return EX_OK;
		default:
			show_usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind == argc) {
		error("show: no file given (valid: pagetypeinfo, buddyinfo, vmstat, zoneinfo, census)");
		return EX_USAGE;
	}
	if (optind < argc - 1) {
		error("show: unexpected argument '%s'", argv[optind + 1]);
		return EX_USAGE;
	}
	file = argv[optind];
	for (int i = 0; files[i]; i++)
		if (!strcmp(files[i], file))
			which = i;
	if (which < 0) {
		error("show: unknown file '%s' (valid: pagetypeinfo, buddyinfo, vmstat, zoneinfo, census)", file);
		return EX_USAGE;
	}
	if (machine_opts_boot(&m, policy_name, &pgdat, &policy))
		return EX_CONFIG;
	if (rp.ops)
		random_alloc_run(&pgdat, &rp, &st, 1);
	switch (which) {
	case 0: show_pagetypeinfo(stdout, &pgdat); break;
	case 1: show_buddyinfo(stdout, &pgdat); break;
	case 2: show_vmstat(stdout, &pgdat); break;
	case 3: show_zoneinfo(stdout, &pgdat); break;
	default: {
		struct block_census census;
		pageblock_census(&pgdat, &census);
		show_census(stdout, &pgdat, &census);
	}
	}
	if (rp.ops)
		random_alloc_release(&pgdat);
	machine_shutdown(&pgdat, policy);
	return EX_OK;
}
