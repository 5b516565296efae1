/* cmd_list.c - mmsim list policies|workloads|postings: the modules and
 * their parameters, printed from their tables (mmsim/param.h), and the
 * postings whose tables mmsim reproduce --posting prints (results/posting.h). */
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "posting.h"
#include "workload.h"

/* every configs/postings/NAME.posting of the source tree: its name, title,
 * what it compares and the key its columns vary; a file that does not
 * read is named with its error */
static int list_postings(void)
{
	char dir[PATH_MAX], pattern[PATH_MAX + 16], err[1024];
	glob_t g;
	int rc = EX_OK;

	if (reproduce_postings_dir(dir, sizeof(dir))) {
		error("list: no " REPRODUCE_POSTINGS_DIR " in the source tree or above the executable");
		return EX_NOINPUT;
	}
	snprintf(pattern, sizeof(pattern), "%s/*.posting", dir);
	if (glob(pattern, 0, NULL, &g))
		return EX_OK;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i], *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		struct posting *p;

		printf("%.*s\n", (int)(strlen(base) - 8), base);
		if (posting_load(&p, path, err, sizeof(err))) {
			error("%s", err);
			rc = EX_CONFIG;
			continue;
		}
		printf("    %s (%s%s%s)\n", p->title, p->author ? p->author : "", p->date ? ", " : "",
		       p->date ? p->date : "");
		if (p->compares)
			printf("    compares: %s\n", p->compares);
		printf("    mmsim reproduce --posting %.*s: %s, %s =", (int)(strlen(base) - 8), base,
		       strrchr(p->scenario, '/') ? strrchr(p->scenario, '/') + 1 : p->scenario, p->vary_key);
		for (int k = 0; k < p->nr_cols; k++)
			printf("%s %s", k ? "," : "", p->vary_value[k]);
		printf("; %d rows\n", p->nr_rows);
		posting_free(p);
	}
	globfree(&g);
	return rc;
}

int cmd_list(int argc, char **argv)
{
	if (argc < 2) {
		error("list: no list given (valid: policies, workloads, postings)");
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: mmsim list policies|workloads|postings\n");
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
	if (!strcmp(argv[1], "postings"))
		return list_postings();
	if (strcmp(argv[1], "policies")) {
		error("list: unknown list '%s' (valid: policies, workloads, postings)", argv[1]);
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
