/* machine.c - a machine from command-line options (demo, show, bench):
 * layout, sysctls and the policy with its switches, booted by the
 * library's machine_boot() (<mmsim/run.h>).  Every bad value is reported
 * with the option and the value; nothing is booted until all are valid. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "mmsim/parse.h"
#include "mmsim/scenario.h"

void error(const char *fmt, ...)
{
	va_list ap;
	fputs("mmsim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int parse_jobs(const char *s, unsigned long *jobs)
{
	if (parse_ulong(s, jobs) || *jobs < 1 || *jobs > 1024) {
		error("-j: '%s' is not a number of jobs (1..1024)", s);
		return -1;
	}
	return 0;
}

int parse_seeds(const char *s, unsigned long *seeds)
{
	if (parse_ulong(s, seeds) || *seeds < 1 || *seeds > 100000) {
		error("--seeds: '%s' is not a number of seeds (1..100000)", s);
		return -1;
	}
	return 0;
}

int add_set(char **sets, int *nr_sets, char *arg)
{
	if (*nr_sets == MAX_SETS) {
		error("--set: more than %d settings", MAX_SETS);
		return -1;
	}
	sets[(*nr_sets)++] = arg;
	return 0;
}

int parse_ulong(const char *s, unsigned long *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > (unsigned long long)~0ul)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	return mmsim_parse_size(s, out);
}

void machine_opts_defaults(struct machine_opts *m)
{
	struct machine_desc d;

	machine_desc_defaults(&d);
	memset(m, 0, sizeof(*m));
	m->ram = d.ram;
	m->cpus = d.cpus;
	m->kernel_reserved = d.kernel_reserved;
}

int machine_opt(struct machine_opts *m, const char *opt, const char *arg)
{
	unsigned long v;

	if (!strcmp(opt, "ram")) {
		if (parse_size(arg, &m->ram)) {
			error("--ram: '%s' is not a size (e.g. 2G, 512M)", arg);
			return -1;
		}
		return 1;
	}
	if (!strcmp(opt, "swap")) {
		if (parse_size(arg, &m->swap)) {
			error("--swap: '%s' is not a size (e.g. 2G, 512M)", arg);
			return -1;
		}
		return 1;
	}
	if (!strcmp(opt, "cpus")) {
		if (parse_ulong(arg, &v) || v < 1 || v > 1024) {
			error("--cpus: '%s' is not a number of CPUs (1..1024)", arg);
			return -1;
		}
		m->cpus = (unsigned)v;
		return 1;
	}
	if (!strcmp(opt, "check-every")) {
		if (parse_ulong(arg, &m->check_every)) {
			error("--check-every: '%s' is not a number", arg);
			return -1;
		}
		return 1;
	}
	if (!strcmp(opt, "set")) {
		if (!strchr(arg, '=')) {
			error("--set: '%s' is not KEY=VALUE", arg);
			return -1;
		}
		if (m->nr_sets == MAX_SETS) {
			error("--set: more than %d settings", MAX_SETS);
			return -1;
		}
		m->sets[m->nr_sets++] = arg;
		return 1;
	}
	return 0;
}

/* Apply one KEY=VALUE: sysctl-like keys through the scenario's key table
 * (the same names, ranges and messages as a scenario file's [vm],
 * [transparent_hugepage] and [kernel]); policy switches go to the policy
 * named before the dot. */
static int apply_set(const char *kv, struct vm_sysctl *s, struct mm_policy *policy)
{
	char key[128], err[1280];
	const char *val = strchr(kv, '=') + 1;
	size_t klen = (size_t)(val - 1 - kv);
	int rc;

	if (klen >= sizeof(key)) {
		error("--set: key too long in '%s'", kv);
		return -1;
	}
	memcpy(key, kv, klen);
	key[klen] = 0;
	rc = scenario_apply_sysctl(s, key, val, err, sizeof(err));
	if (rc < 0) {
		error("%s", err);
		return -1;
	}
	if (rc > 0)
		return 0;
	{
		const char *dot = strchr(key, '.');
		if (dot && mm_policy_find(key) == NULL) {
			char pname[64];
			size_t n = (size_t)(dot - key);
			if (n < sizeof(pname)) {
				memcpy(pname, key, n);
				pname[n] = 0;
				if (mm_policy_find(pname)) {
					/* by name or alias */
					if (mm_policy_find(pname) != mm_policy_find(policy->ops.name))
						return 0;       /* a switch of another policy */
					if (mm_policy_set(policy, dot + 1, val, err, sizeof(err))) {
						error("--set %s: %s", key, err);
						return -1;
					}
					return 0;
				}
			}
		}
	}
	error("--set: unknown key '%s' (see 'mmsim help demo')", key);
	return -1;
}

int machine_opts_boot(const struct machine_opts *m, const char *policy_name,
                      struct pglist_data *pgdat, struct mm_policy **policy)
{
	struct machine_desc d;
	char err[1280];

	machine_desc_defaults(&d);
	d.ram = m->ram;
	d.cpus = m->cpus;
	d.kernel_reserved = m->kernel_reserved;
	d.swap = m->swap;
	d.check_every = m->check_every;
	{
		/* the layout first: a bad --ram is named before anything else */
		struct mm_layout layout;
		if (mm_layout_qemu(m->ram, m->kernel_reserved, &layout, err, sizeof(err))) {
			error("--ram: %s", err);
			return -1;
		}
	}
	if (mm_policy_create(policy_name, policy, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	for (int i = 0; i < m->nr_sets; i++)
		if (apply_set(m->sets[i], &d.sysctl, *policy))
			goto fail;
	if (mm_policy_validate(*policy, err, sizeof(err))) {
		error("%s", err);
		goto fail;
	}
	if (machine_boot(pgdat, &d, *policy, err, sizeof(err))) {
		/* "[machine] swap: ..." is --swap's here */
		if (!strncmp(err, "[machine] ", 10))
			error("--%s", err + 10);
		else
			error("%s", err);
		goto fail;
	}
	return 0;
fail:
	mm_policy_destroy(*policy);
	*policy = NULL;
	return -1;
}
