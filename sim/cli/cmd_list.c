/* cmd_list.c - mmsim list policies: the policies and their switches. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cmd_list(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *f = argc < 2 ? stderr : stdout;
		fprintf(f, "usage: mmsim list policies\n");
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "policies")) {
		error("list: unknown list '%s' (valid: policies)", argv[1]);
		return EXIT_USAGE;
	}
	for (int i = 0; mm_policy_table[i]; i++) {
		const struct mm_policy_ops *o = mm_policy_table[i];
		printf("%s\n    %s\n", o->name, o->desc);
		for (const struct param_desc *d = o->params; d && d->name; d++)
			printf("    %s.%s = %s\n        %s\n", o->name, d->name, d->def, d->help);
	}
	return EXIT_OK;
}
