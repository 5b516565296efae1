/* reproduce.c - the plan of mmsim reproduce, the RFC experiment: one
 * scenario (configs/hugealloc.ini of the source tree unless named) over
 * two or more policies, the first the baseline column, and seeds 1..N -
 * a sweep over policy.name whose table, plots and report the verb
 * prints (sim/cli/cmd_reproduce.c).
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "experiment_int.h"
#include "mmsim/policy.h"

/* The source tree this binary was built from (CMakeLists.txt defines it
 * for this file), where the default scenario lives. */
#ifndef MMSIM_SOURCE_DIR
#define MMSIM_SOURCE_DIR ""
#endif

/* 1 if path names a readable file */
static int readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* A file of the source tree (rel, e.g. configs/hugealloc.ini): first in
 * the tree the binary was built from (the path is compiled in), else - a
 * tree moved or copied since - in the executable's directory or up to
 * three directories above it (build/release/mmsim -> the tree's root).
 * 0, or -1 (nothing said). */
static int find_in_tree(const char *rel, char *out, size_t n)
{
	char exe[PATH_MAX], *dir;
	ssize_t len;

	if (MMSIM_SOURCE_DIR[0]) {
		snprintf(out, n, "%s/%s", MMSIM_SOURCE_DIR, rel);
		if (readable(out))
			return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		dir = dirname(exe);
		for (int up = 0; up <= 3; up++) {
			snprintf(out, n, "%s/%s", dir, rel);
			if (readable(out))
				return 0;
			dir = dirname(dir);
		}
	}
	return -1;
}

/* The default scenario (find_in_tree).  0, or -1 with a message. */
int reproduce_default_scenario(char *out, size_t n)
{
	if (!find_in_tree(REPRODUCE_DEFAULT_SCENARIO, out, n))
		return 0;
	exp_error("reproduce: no default scenario: %s%s%s is missing and no %s is found above "
	          "the executable; name the scenario file (mmsim reproduce SCENARIO)",
	          MMSIM_SOURCE_DIR, MMSIM_SOURCE_DIR[0] ? "/" : "", REPRODUCE_DEFAULT_SCENARIO,
	          REPRODUCE_DEFAULT_SCENARIO);
	return -1;
}

/* --posting NAME|FILE: a file as named if it has a '/' or ends in
 * .posting, else configs/postings/NAME.posting of the source tree
 * (find_in_tree).  0, or -1 with a message. */
int reproduce_posting_path(const char *name, char *out, size_t n)
{
	char rel[PATH_MAX];
	size_t len = strlen(name);

	if (strchr(name, '/') || (len > 8 && !strcmp(name + len - 8, ".posting"))) {
		snprintf(out, n, "%s", name);
		return 0;
	}
	snprintf(rel, sizeof(rel), "%s/%s.posting", REPRODUCE_POSTINGS_DIR, name);
	if (!find_in_tree(rel, out, n))
		return 0;
	exp_error("reproduce: --posting %s: no %s in the source tree (%s) or above the executable; "
	          "`mmsim list postings` names them", name, rel,
	          MMSIM_SOURCE_DIR[0] ? MMSIM_SOURCE_DIR : "unknown");
	return -1;
}

/* The postings' directory of the source tree (find_in_tree).  0, or -1. */
int reproduce_postings_dir(char *out, size_t n)
{
	char probe[PATH_MAX];

	if (find_in_tree(REPRODUCE_POSTINGS_DIR "/README.md", probe, sizeof(probe)))
		return -1;
	snprintf(out, n, "%s", dirname(probe));
	return 0;
}

/* reproduce chooses the policy and the seed of every run itself: an
 * override of either would make both columns the same policy or every
 * seed the same run */
int reproduce_own_key(const char *set)
{
	static const char *const keys[] = { "policy.name", "run.seed", NULL };
	size_t len = strcspn(set, "=");

	for (const char *const *k = keys; *k; k++)
		if (len == strlen(*k) && !strncmp(set, *k, len))
			return 1;
	return 0;
}

/* --policies P,Q,...: two or more known policies (an alias is stored as
 * its canonical name, as a run stores it), none twice; the first is the
 * baseline column.  The names are copied to static storage (the sweep's
 * values are char *) and, joined with "and", to what for the log line.
 * 0, or -1 with a message. */
int reproduce_policies(const char *arg, struct sweep_vary *v, char *what, size_t whatlen)
{
	static char buf[1024];
	char *save = NULL, *tok;
	int n = 0;

	if (strlen(arg) >= sizeof(buf)) {
		exp_error("--policies: the list is too long");
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct mm_policy_ops *ops = mm_policy_find(tok);
		if (!ops) {
			exp_error("--policies: unknown policy '%s' (valid: %s)", tok, mm_policy_names());
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (!strcmp(v->values[i], ops->name)) {
				exp_error("--policies: %s is named twice", ops->name);
				return -1;
			}
		if (n == SWEEP_MAX_VALUES) {
			exp_error("--policies: more than %d policies", SWEEP_MAX_VALUES);
			return -1;
		}
		v->values[n++] = (char *)ops->name;
	}
	if (n < 2) {
		exp_error("--policies: '%s': two policies at least (the first is the baseline)", arg);
		return -1;
	}
	v->n = n;
	what[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(what + strlen(what), whatlen - strlen(what), "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
		         v->values[i]);
	return 0;
}
