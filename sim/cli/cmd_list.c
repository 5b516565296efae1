/* cmd_list.c - mmsim list policies|workloads: the modules and their
 * parameters, printed from their tables (mmsim/param.h). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "workload.h"

int cmd_list(int argc, char **argv)
{
	if (argc < 2) {
		error("list: no list given (valid: policies, workloads)");
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: mmsim list policies|workloads\n");
		return EX_OK;
	}
	if (!strcmp(argv[1], "workloads")) {
		for (int i = 0; workload_table[i]; i++) {
			const struct workload_ops *o = workload_table[i];
			char prefix[64];
			if (o->implicit)
				continue;       /* set by its own section ([system] profile) */
			snprintf(prefix, sizeof(prefix), "%s.", o->name);
			printf("%s\n    %s\n", o->name, o->desc);
			param_print_table(stdout, o->params, prefix);
		}
		return EX_OK;
	}
	if (strcmp(argv[1], "policies")) {
		error("list: unknown list '%s' (valid: policies, workloads)", argv[1]);
		return EX_USAGE;
	}
	for (int i = 0; mm_policy_table[i]; i++) {
		const struct mm_policy_ops *o = mm_policy_table[i];
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "%s.", o->name);
		printf("%s\n    %s\n", o->name, o->desc);
		for (const char *const *a = o->aliases; a && *a; a++)
			printf("    (also read as '%s')\n", *a);
		param_print_table(stdout, o->params, prefix);
	}
	return EX_OK;
}
