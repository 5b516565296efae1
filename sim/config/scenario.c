/* scenario.c - scenario files: one table of keys, parsing (mmsim/ini.h),
 * overrides, resolution and the canonical text (see scenario.h and
 * docs/scenario.md).
 *
 * The scenario keeps the values that were set explicitly, as text, in the
 * order they were first set; a key that was never set has its table
 * default.  Each value is checked when it is set, by parsing it into a
 * scratch configuration (fixed keys) or by handing it to a scratch
 * instance of the module that owns it (policy switches, workload
 * parameters), so that the message can name where it came from.  The
 * workloads, and building the policy and the workloads from the scenario,
 * are above this floor: they are reached through scenario_modules
 * (mmsim/scenario_modules.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/ini.h"
#include <sys/stat.h>
#include "mmsim/limits.h"
#include "mmsim/mm.h"
#include "mmsim/msg.h"
#include "mmsim/policy.h"
#include "mmsim/param.h"
#include "mmsim/parse.h"
#include "mmsim/scenario.h"
#include "mmsim/scenario_modules.h"

/* ------------------------------------------------------------ the table */

/* A fixed key: its section and its description (mmsim/param.h), the same
 * kind of entry as a policy switch or a workload parameter; the fields
 * are those of struct scenario_config. */
struct key_desc {
	const char *section;
	struct param p;
};

static const char *const thp_enabled_choices[] = { "always", "madvise", "never", NULL };
static const char *const mobility_choices[] = { "no", "yes", "auto", NULL };   /* GROUP_BY_MOBILITY_* */
static const char *const cpu_sharing_choices[] = { "simgrid", "heap", NULL };
static const char *const ra_order_choices[] = { "marked_folio", "file_ra_state", NULL };   /* RA_ORDER_* */
static const char *const thp_defrag_choices[] = { "always", "defer", "defer+madvise", "madvise", "never", NULL };

static const char *check_pcp_fraction(const void *owner, const char *value, char *buf, size_t len)
{
	const struct scenario_config *c = owner;
	int v = c->sysctl.percpu_pagelist_high_fraction;
	(void)value, (void)buf, (void)len;
	return v != 0 && v < 8 ? "must be 0 or at least 8 (as the kernel requires)" : NULL;
}

/* the keys whose values need more than a kind: lists, registries, files */
static int set_ratio4(void *owner, const char *v, char *err, size_t errlen);
static int set_policy(void *owner, const char *v, char *err, size_t errlen);
static int set_workloads(void *owner, const char *v, char *err, size_t errlen);
static int set_profile(void *owner, const char *v, char *err, size_t errlen);

#define CFG(f) PARAM_AT(struct scenario_config, f)
#define SYS(f) .off = offsetof(struct scenario_config, sysctl) + offsetof(struct vm_sysctl, f), \
	.size = sizeof(((struct vm_sysctl *)0)->f), .store = PARAM_STORE_OF(((struct vm_sysctl *)0)->f)

/* The canonical order of the resolved text is the order of this table
 * (with [policy.NAME] after [policy], [workload.NAME] after [workload]).
 * Defaults of [vm], [transparent_hugepage] and [kernel] are the kernel's,
 * the same as vm_sysctl_defaults() (tests/unit/test_scenario.c checks). */
static const struct key_desc keys[] = {
	{ "machine", { "ram", PARAM_SIZE, "bytes", 0, 0, "2G",
	  "guest RAM (K/M/G/T suffix), laid out as QEMU's pc machine does", CFG(ram) } },
	{ "machine", { "cpus", PARAM_INT, NULL, 1, 1024, "4",
	  "CPUs: cores of the simulated host, one set of per-cpu page lists each", CFG(cpus) } },
	{ "machine", { "swap", PARAM_SIZE, "bytes", 0, 0, "0", "size of the swap area (0: no swap)", CFG(swap) } },
	{ "machine", { "swap_latency", PARAM_DOUBLE, "seconds", 0, 10, "0.0001",
	  "seconds of device latency per swap I/O", CFG(swap_latency) } },
	{ "machine", { "swap_bandwidth", PARAM_SIZE, "bytes", 1, 0, "1000000000",
	  "swap device bandwidth, bytes per second (K/M/G suffix)", CFG(swap_bandwidth) } },
	{ "machine", { "kernel_reserved", PARAM_INT, "pages", 0, 1e12, "9542",
	  "pages the kernel image and early boot keep (never managed)", CFG(kernel_reserved) } },
	{ "machine", { "read_ahead_kb", PARAM_INT, "KiB", 4, 1 << 20, "128",
	  "/sys/block/DEV/queue/read_ahead_kb of the disk: the readahead window's maximum (ra_pages), "
	  "also the mmap fault read-around; 128 is the kernel's default", SYS(read_ahead_kb),
	  .flags = PARAM_TEXT_IF_SET } },

	{ "vm", { "min_free_kbytes", PARAM_INT, NULL, 128, 1 << 30, "auto",
	  "vm.min_free_kbytes; auto: computed at boot as the kernel does", SYS(user_min_free_kbytes),
	  .word = "auto", .word_value = -1 } },
	{ "vm", { "watermark_scale_factor", PARAM_INT, NULL, 1, 3000, "10",
	  "vm.watermark_scale_factor (distance between watermarks, 1/10000 of memory)", SYS(watermark_scale_factor) } },
	{ "vm", { "watermark_boost_factor", PARAM_INT, NULL, 0, 1 << 30, "15000",
	  "vm.watermark_boost_factor (0: no boosting)", SYS(watermark_boost_factor) } },
	{ "vm", { "extfrag_threshold", PARAM_INT, NULL, 0, 1000, "500",
	  "vm.extfrag_threshold (compaction vs reclaim, fragmentation index x1000)", SYS(extfrag_threshold) } },
	{ "vm", { "compaction_proactiveness", PARAM_INT, NULL, 0, 100, "20",
	  "vm.compaction_proactiveness (kcompactd's proactive compaction, 0: off)", SYS(compaction_proactiveness) } },
	{ "vm", { "swappiness", PARAM_INT, NULL, 0, 200, "60", "vm.swappiness (anon vs file reclaim)",
	  SYS(swappiness) } },
	{ "vm", { "vfs_cache_pressure", PARAM_INT, NULL, 0, 10000, "100",
	  "vm.vfs_cache_pressure (dentry and inode reclaim)", SYS(vfs_cache_pressure) } },
	{ "vm", { "percpu_pagelist_high_fraction", PARAM_INT, NULL, 0, 1 << 30, "0",
	  "vm.percpu_pagelist_high_fraction (0: default pcp high)", SYS(percpu_pagelist_high_fraction),
	  .check = check_pcp_fraction } },
	{ "vm", { "lowmem_reserve_ratio", PARAM_CUSTOM, NULL, 0, 0, "256 256 32 0",
	  "vm.lowmem_reserve_ratio, one ratio per zone", .set = set_ratio4 } },

	{ "transparent_hugepage", { "enabled", PARAM_ENUM, NULL, 0, 0, "madvise",
	  "/sys/kernel/mm/transparent_hugepage/enabled", SYS(thp_enabled_mode), .choices = thp_enabled_choices } },
	{ "transparent_hugepage", { "defrag", PARAM_ENUM, NULL, 0, 0, "madvise",
	  "/sys/kernel/mm/transparent_hugepage/defrag", SYS(thp_defrag), .choices = thp_defrag_choices } },

	{ "kernel", { "config_compaction", PARAM_BOOL, NULL, 0, 0, "yes", "CONFIG_COMPACTION of the kernel booted",
	  SYS(config_compaction) } },
	{ "kernel", { "config_numa", PARAM_BOOL, NULL, 0, 0, "yes",
	  "CONFIG_NUMA of the kernel booted (x86-64 distribution kernels: yes); "
	  "a THP fault tries the local node alone first, also on a one-node machine", SYS(config_numa) } },
	{ "kernel", { "group_by_mobility", PARAM_ENUM, NULL, 0, 0, "auto", "grouping pages by mobility "
	  "(2007): no gives every request and block MIGRATE_UNMOVABLE (page_group_by_mobility_disabled); "
	  "auto is the kernel's rule, off below pageblock_nr_pages * MIGRATE_TYPES pages of memory",
	  SYS(group_by_mobility), .choices = mobility_choices } },
	{ "kernel", { "large_folios", PARAM_BOOL, NULL, 0, 0, "no", "the file system's page cache takes "
	  "large folios (ext4 from Linux 6.16, xfs from 5.18): read()'s readahead allocates folios of order "
	  "above 0 (page_cache_ra_order), up to PMD order; no: order-0 pages, only the pages a read asks for",
	  SYS(large_folios), .flags = PARAM_TEXT_IF_SET } },
	{ "kernel", { "readahead_order", PARAM_ENUM, NULL, 0, 0, "marked_folio", "with large_folios, where "
	  "a readahead window's folio order comes from: marked_folio, two above the folio whose PG_readahead "
	  "started the window (6.12: a cold read starts at order 2, a window after a failed allocation at 2 "
	  "again); file_ra_state, two above the last window's order, kept in struct file_ra_state (the "
	  "running 6.18, 'mm/readahead: Store folio order in struct file_ra_state', 2025: a cold read starts "
	  "at order 0, a failed allocation does not lower it, the window's end is aligned to it)",
	  SYS(readahead_order), .choices = ra_order_choices, .flags = PARAM_TEXT_IF_SET } },

	{ "system", { "profile", PARAM_CUSTOM, NULL, 0, 0, "none", "the base system booted before the workloads: "
	  "none, a profile name (configs/system/NAME.ini) or a path", .set = set_profile } },

	{ "policy", { "name", PARAM_CUSTOM, NULL, 0, 0, "vanilla", "the allocator policy (see 'mmsim list policies')",
	  .set = set_policy } },

	{ "workload", { "names", PARAM_CUSTOM, NULL, 0, 0, "kbuild, thp_faulter",
	  "the workloads, comma-separated, started in this order", .set = set_workloads } },

	{ "run", { "seed", PARAM_INT, NULL, 0, 0, "1", "the run's seed (every workload's generators derive from it)",
	  CFG(seed) } },
	{ "run", { "iterations", PARAM_INT, NULL, 1, 1000, "1", "times the measured workloads run one after "
	  "another on the one booted machine (mmtests' iterations: a clean tree each time, the page cache as "
	  "it is); each iteration's window is stored and tables show the mean over iterations", CFG(iterations) } },
	{ "run", { "warmup", PARAM_INT, NULL, 0, 100, "0", "iterations of the measured workloads run before "
	  "the measured ones and not recorded (mmtests' warmup): the machine's history before the experiment",
	  CFG(warmup) } },
	{ "run", { "drop_caches", PARAM_INT, NULL, 0, 3, "0", "sync, then vm.drop_caches written, before "
	  "each iteration but the first, after the build's make clean (real/harness writes 3 before each "
	  "run, after sync; 0: neither)", CFG(drop_caches) } },
	{ "run", { "compact_memory", PARAM_BOOL, NULL, 0, 0, "no", "vm.compact_memory written before each "
	  "iteration but the first, after drop_caches and before the huge page pool (real/harness "
	  "--compact-first): every zone compacted whole, once", CFG(compact_memory) } },
	{ "run", { "nr_hugepages", PARAM_INT, "pages", 0, 1e9, "0", "vm.nr_hugepages set before each iteration "
	  "but the first, after drop_caches, and 0 at its end: the 2 MiB pool real/harness holds during a run "
	  "to size the experiment's free memory (0: no pool)", CFG(nr_hugepages) } },
	{ "run", { "prepare_first", PARAM_BOOL, NULL, 0, 0, "no", "drop_caches, compact_memory and the pool "
	  "also before the first iteration (a warmup one, if any): the run before the measured one, as "
	  "real/harness's, then runs under the pool, and the measured one starts among what it left",
	  CFG(prepare_first) } },
	{ "run", { "hugepages_at_rest", PARAM_BOOL, NULL, 0, 0, "no", "after the last window, on the machine at "
	  "rest: sync, vm.drop_caches=3, vm.compact_memory (if the kernel has compaction), then vm.nr_hugepages raised "
	  "to all of RAM; the pool it reached stored (metrics hugepages_at_rest, hugepages_at_rest_pct): huge "
	  "pages allocatable after the workload, as the 2007 grouping-by-mobility series measured",
	  CFG(hugepages_at_rest) } },
	{ "run", { "duration", PARAM_DOUBLE, "seconds", 0, 1e7, "auto",
	  "seconds of virtual time measured; auto: until every measured workload ends", CFG(duration),
	  .flags = PARAM_GT_MIN, .word = "auto", .word_value = 0 } },
	{ "run", { "quantum", PARAM_DOUBLE, "seconds", 1e-6, 1, "0.005", "seconds a process runs between its "
	  "memory events", CFG(quantum) } },
	{ "run", { "cpu_sharing", PARAM_ENUM, NULL, 0, 0, "heap", "how the CPUs are shared among the "
	  "runnable actors (the same processor sharing, min(1, CPUs/runnable) of a CPU each): heap, the "
	  "engine's own (sim/engine/cpu.c, O(log executions) per event); simgrid, SimGrid's CPU model (its "
	  "max-min solver, O(executions) per event), the default before 2026-12-06; they differ by rounding",
	  CFG(cpu_heap), .choices = cpu_sharing_choices } },
	{ "run", { "sample_interval", PARAM_DOUBLE, "seconds", PARAM_PERIOD_FLOOR, 1e6, "1",
	  "seconds between samples of the counters (0: none)", CFG(sample_interval), .flags = PARAM_OR_ZERO } },
	{ "run", { "census_interval", PARAM_DOUBLE, "seconds", PARAM_PERIOD_FLOOR, 1e6, "10",
	  "seconds between pageblock censuses and maps (0: only at the end)", CFG(census_interval),
	  .flags = PARAM_OR_ZERO } },
	{ "run", { "blockmap_groups", PARAM_INT, NULL, 0, 100000, "64", "rows of the pageblock map (0: no map)",
	  CFG(blockmap_groups) } },
	{ "run", { "name", PARAM_STRING, NULL, 0, 0, "", "the run's name in the results (empty: the policy's name)",
	  CFG(name) } },
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const fixed_sections[] = {
	"machine", "vm", "transparent_hugepage", "kernel", "system", "policy", "workload", "run", NULL,
};

/* ------------------------------------------------------------ state */

struct entry {
	char *section, *key, *value;
	char *where;                    /* where it was given: "FILE:LINE", "--set KEY", "--seed" */
};

struct scenario {
	struct entry *e;
	size_t n, cap;
	char *origin;                   /* the last file loaded, for messages of resolve */
	struct scenario_config cfg;
	bool resolved;
	char *text;
	char hash[17];
	char **pkeys, **pvalues;
	size_t nparams, cap_params;
	/* the contents of the files the workloads read (profiles,
	 * datasets): FNV-1a 64 of each, in order, hashed with the text */
	char inputs[17 * 8 + 1];
};


static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fputs("mmsim: out of memory\n", stderr);
		abort();
	}
	return d;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("mmsim: out of memory\n", stderr);
		abort();
	}
	return p;
}

struct scenario *scenario_new(void)
{
	struct scenario *s = calloc(1, sizeof(*s));
	if (!s) {
		fputs("mmsim: out of memory\n", stderr);
		abort();
	}
	return s;
}

static void clear_resolved(struct scenario *s)
{
	free(s->text);
	s->text = NULL;
	for (size_t i = 0; i < s->nparams; i++) {
		free(s->pkeys[i]);
		free(s->pvalues[i]);
	}
	s->nparams = 0;
	s->resolved = false;
}

void scenario_free(struct scenario *s)
{
	if (!s)
		return;
	clear_resolved(s);
	free(s->pkeys);
	free(s->pvalues);
	for (size_t i = 0; i < s->n; i++) {
		free(s->e[i].section);
		free(s->e[i].key);
		free(s->e[i].value);
		free(s->e[i].where);
	}
	free(s->e);
	free(s->origin);
	free(s);
}

static const char *lookup(const struct scenario *s, const char *section, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].section, section) && !strcmp(s->e[i].key, key))
			return s->e[i].value;
	return NULL;
}

/* where a key's value was given, for the messages of resolve: the file
 * and line, or the option; fallback if the key has its default */
static const char *where_of(const struct scenario *s, const char *section, const char *key,
                            const char *fallback)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].section, section) && !strcmp(s->e[i].key, key))
			return s->e[i].where;
	return fallback;
}

static void store(struct scenario *s, const char *section, const char *key, const char *value,
                  const char *where)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].section, section) && !strcmp(s->e[i].key, key)) {
			free(s->e[i].value);
			free(s->e[i].where);
			s->e[i].value = xstrdup(value);
			s->e[i].where = xstrdup(where ? where : "scenario");
			clear_resolved(s);
			return;
		}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 32;
		s->e = xrealloc(s->e, s->cap * sizeof(*s->e));
	}
	s->e[s->n].section = xstrdup(section);
	s->e[s->n].key = xstrdup(key);
	s->e[s->n].value = xstrdup(value);
	s->e[s->n].where = xstrdup(where ? where : "scenario");
	s->n++;
	clear_resolved(s);
}

/* ------------------------------------------------------------ values */

/* workload NAME of the registry into *out; false if there is none */
static bool find_workload(const char *name, struct scenario_workload *out)
{
	for (unsigned i = 0; scenario_modules.registry(i, out); i++)
		if (!strcmp(out->name, name))
			return true;
	return false;
}

/* Split a comma-separated name list; -1 with a message if a name is
 * unknown or repeated or there are too many. */
static int parse_workloads(const char *v, struct scenario_config *c, char *err, size_t errlen)
{
	struct scenario_workload wd;
	char buf[512], *save = NULL, *tok;

	if (strlen(v) >= sizeof(buf)) {
		mmsim_msg(err, errlen, "'%s' is too long", v);
		return -1;
	}
	strcpy(buf, v);
	c->nr_workloads = 0;
	for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		bool known = find_workload(tok, &wd);
		if (known && wd.implicit) {
			mmsim_msg(err, errlen, "workload '%s' is not named here: its own section starts it "
			    "([system] profile)", tok);
			return -1;
		}
		if (!known) {
			mmsim_msg(err, errlen, "unknown workload '%s' (valid: %s)", tok, scenario_modules.names());
			return -1;
		}
		for (unsigned i = 0; i < c->nr_workloads; i++)
			if (!strcmp(c->workloads[i], tok)) {
				mmsim_msg(err, errlen, "workload '%s' named twice", tok);
				return -1;
			}
		if (c->nr_workloads == SCENARIO_MAX_WORKLOADS) {
			mmsim_msg(err, errlen, "more than %d workloads", SCENARIO_MAX_WORKLOADS);
			return -1;
		}
		snprintf(c->workloads[c->nr_workloads++], sizeof(c->workloads[0]), "%s", tok);
	}
	if (!c->nr_workloads) {
		mmsim_msg(err, errlen, "no workload named (valid: %s)", scenario_modules.names());
		return -1;
	}
	return 0;
}

/* Parse v for key d into c; on error the message tail ("'x' is not ...") */
static int parse_value(const struct key_desc *d, const char *v, struct scenario_config *c,
                       char *err, size_t errlen)
{
	return param_set(&d->p, c, v, err, errlen);
}

static int set_ratio4(void *owner, const char *v, char *err, size_t errlen)
{
	struct scenario_config *c = owner;
	int r[4];
	char tail;

	if (sscanf(v, "%d %d %d %d %c", &r[0], &r[1], &r[2], &r[3], &tail) != 4 ||
	    r[0] < 0 || r[1] < 0 || r[2] < 0 || r[3] < 0) {
		mmsim_msg(err, errlen, "'%s' is not four non-negative integers", v);
		return -1;
	}
	memcpy(c->sysctl.lowmem_reserve_ratio, r, sizeof(r));
	return 0;
}

/* a policy name or alias: the canonical name is stored */
static int set_policy(void *owner, const char *v, char *err, size_t errlen)
{
	struct scenario_config *c = owner;
	const struct mm_policy_ops *o = mm_policy_find(v);

	if (!o) {
		mmsim_msg(err, errlen, "unknown policy '%s' (valid: %s)", v, mm_policy_names());
		return -1;
	}
	snprintf(c->policy, sizeof(c->policy), "%s", o->name);
	return 0;
}

static int set_workloads(void *owner, const char *v, char *err, size_t errlen)
{
	return parse_workloads(v, owner, err, errlen);
}

/* [system] profile is the one parameter of the implicit workload "system"
 * (resolve puts it first): a scratch instance reads the profile now, so
 * that a bad profile is refused where it is named */
static int set_profile(void *owner, const char *v, char *err, size_t errlen)
{
	struct scenario_config *c = owner;
	struct workload *w;
	int rc;

	if (strlen(v) >= sizeof(c->system_profile)) {
		mmsim_msg(err, errlen, "'%.40s...' is longer than %zu characters", v, sizeof(c->system_profile) - 1);
		return -1;
	}
	if (strcmp(v, "none")) {
		if (scenario_modules.scratch_create("system", &w, err, errlen))
			return -1;
		rc = scenario_modules.scratch_set(w, "profile", v, err, errlen);
		scenario_modules.scratch_destroy(w);
		if (rc)
			return -1;
	}
	snprintf(c->system_profile, sizeof(c->system_profile), "%s", v);
	return 0;
}

static const struct key_desc *find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < NR_KEYS; i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].p.name, key))
			return &keys[i];
	return NULL;
}

static bool fixed_section(const char *section)
{
	for (int i = 0; fixed_sections[i]; i++)
		if (!strcmp(fixed_sections[i], section))
			return true;
	return false;
}

/* "policy.NAME" / "workload.NAME": the module's name, or NULL */
static const char *module_of(const char *section, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(section, prefix, n) || section[n] != '.')
		return NULL;
	return section + n + 1;
}

/* "policy.hygiene" -> "policy.hugealloc_rfc": a section of a policy
 * alias is the canonical policy's (other sections as they are) */
static void canonical_section(const char *section, char *out, size_t len)
{
	const char *name = module_of(section, "policy");
	const struct mm_policy_ops *o = name ? mm_policy_find(name) : NULL;

	if (o)
		snprintf(out, len, "policy.%s", o->name);
	else
		snprintf(out, len, "%s", section);
}

/* The place and the key in front of a message tail: a file location
 * gets "[section] key" added; --set KEY, --seed and --policy name it */
static void place_msg(char *err, size_t errlen, const char *where, const char *section, const char *key,
                      const char *m)
{
	if (where[0] == '-')
		mmsim_msg(err, errlen, "%s: %s", where, m);
	else
		mmsim_msg(err, errlen, "%s: [%s] %s: %s", where, section, key, m);
}

/* Check one value of a [policy.NAME] or [workload.NAME] section on a
 * scratch instance of the module.  where: the message prefix. */
static int check_module_value(const char *section, const char *key, const char *value,
                              const char *where, char *err, size_t errlen)
{
	const char *name;
	char m[1280], names[1024];

	if ((name = module_of(section, "policy"))) {
		const struct mm_policy_ops *ops = mm_policy_find(name);
		struct mm_policy *p;
		int rc;

		if (!ops) {
			mmsim_msg(err, errlen, "%s: unknown policy '%s' in [%s] (valid: %s)", where, name, section,
			    mm_policy_names());
			return -1;
		}
		if (!param_find(ops->params, key)) {
			param_names(ops->params, names, sizeof(names));
			mmsim_msg(err, errlen, "%s: unknown key '%s' in [%s] (valid: %s)", where, key, section,
			    names[0] ? names : "none");
			return -1;
		}
		if (mm_policy_create(name, &p, m, sizeof(m))) {
			mmsim_msg(err, errlen, "%s: %s", where, m);
			return -1;
		}
		rc = mm_policy_set(p, key, value, m, sizeof(m));
		mm_policy_destroy(p);
		if (rc) {
			place_msg(err, errlen, where, section, key, m);
			return -1;
		}
		return 0;
	}
	if ((name = module_of(section, "workload"))) {
		struct scenario_workload wd;
		bool known = find_workload(name, &wd);
		struct workload *w;
		int rc;

		if (known && wd.implicit) {
			mmsim_msg(err, errlen, "%s: [%s]: this workload is set by its own section ([system] profile)",
			    where, section);
			return -1;
		}
		if (!known) {
			mmsim_msg(err, errlen, "%s: unknown workload '%s' in [%s] (valid: %s)", where, name, section,
			    scenario_modules.names());
			return -1;
		}
		if (!param_find(wd.params, key)) {
			param_names(wd.params, names, sizeof(names));
			mmsim_msg(err, errlen, "%s: unknown key '%s' in [%s] (valid: %s)", where, key, section,
			    names[0] ? names : "none");
			return -1;
		}
		if (scenario_modules.scratch_create(name, &w, m, sizeof(m))) {
			mmsim_msg(err, errlen, "%s: %s", where, m);
			return -1;
		}
		rc = scenario_modules.scratch_set(w, key, value, m, sizeof(m));
		scenario_modules.scratch_destroy(w);
		if (rc) {
			place_msg(err, errlen, where, section, key, m);
			return -1;
		}
		return 0;
	}
	mmsim_msg(err, errlen, "%s: unknown section [%s]", where, section);
	return -1;
}

int scenario_set_key(struct scenario *s, const char *skey, const char *value, const char *where,
                     char *err, size_t errlen)
{
	/* skey is "section.key"; the key is after the last dot */
	const char *dot = strrchr(skey, '.');
	char section[192], m[256], canon_name[32];
	const struct key_desc *d;
	struct scenario_workload wd;
	size_t n;

	if (!dot || dot == skey || !dot[1]) {
		mmsim_msg(err, errlen, "%s: '%s' is not SECTION.KEY", where, skey);
		return -1;
	}
	n = (size_t)(dot - skey);
	if (n >= sizeof(section)) {
		mmsim_msg(err, errlen, "%s: section too long", where);
		return -1;
	}
	memcpy(section, skey, n);
	section[n] = 0;
	/* POLICY.SWITCH and WORKLOAD.PARAM, as demo's --set spells them */
	if (!fixed_section(section) && !strchr(section, '.')) {
		char full[192];
		if (mm_policy_find(section))
			snprintf(full, sizeof(full), "policy.%.150s", mm_policy_canonical(section));
		else if (find_workload(section, &wd))
			snprintf(full, sizeof(full), "workload.%.150s", section);
		else {
			mmsim_msg(err, errlen, "%s: unknown section [%s]", where, section);
			return -1;
		}
		snprintf(section, sizeof(section), "%s", full);
	} else {
		char full[192];
		canonical_section(section, full, sizeof(full));
		snprintf(section, sizeof(section), "%s", full);
	}
	if (fixed_section(section)) {
		struct scenario_config scratch;
		if (!(d = find_key(section, dot + 1))) {
			mmsim_msg(err, errlen, "%s: unknown key '%s' in [%s]", where, dot + 1, section);
			return -1;
		}
		memset(&scratch, 0, sizeof(scratch));
		if (parse_value(d, value, &scratch, m, sizeof(m))) {
			place_msg(err, errlen, where, section, dot + 1, m);
			return -1;
		}
		/* a policy's alias is stored as its name: the text a run keeps
		 * names the policy as new runs do */
		if (d->p.set == set_policy) {
			snprintf(canon_name, sizeof(canon_name), "%s", scratch.policy);
			value = canon_name;
		}
	} else if (check_module_value(section, dot + 1, value, where, err, errlen)) {
		return -1;
	}
	store(s, section, dot + 1, value, where);
	return 0;
}

int scenario_set(struct scenario *s, const char *kv, char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	char key[160], where[200];
	size_t n;

	if (!eq || eq == kv) {
		mmsim_msg(err, errlen, "--set: '%s' is not KEY=VALUE", kv);
		return -1;
	}
	n = (size_t)(eq - kv);
	if (n >= sizeof(key)) {
		mmsim_msg(err, errlen, "--set: key too long in '%s'", kv);
		return -1;
	}
	memcpy(key, kv, n);
	key[n] = 0;
	snprintf(where, sizeof(where), "--set %s", key);
	return scenario_set_key(s, key, eq + 1, where, err, errlen);
}

/* ------------------------------------------------------------ files */

/* where a section or a key was first seen in the file being parsed */
struct seen {
	char *name;                     /* "section" or "section.key" */
	int line;
};

struct parse_ctx {
	struct scenario *s;
	const char *origin;
	int line;                       /* of the text the reader last returned */
	int lines_done;
	bool indented;                  /* that line starts with blanks */
	const char *str;                /* scenario_load_string's input */
	FILE *f;
	char *buf;                      /* the line read (whole, any length) */
	size_t cap;
	char *err;
	size_t errlen;
	bool failed;
	/* a file that sets a key twice, or has a section twice, is a mistake
	 * (two values, one silently lost): both are refused */
	struct seen *seen;
	size_t nr_seen, cap_seen;
};

static int seen_line(const struct parse_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->nr_seen; i++)
		if (!strcmp(c->seen[i].name, name))
			return c->seen[i].line;
	return 0;
}

static void see(struct parse_ctx *c, const char *name)
{
	if (c->nr_seen == c->cap_seen) {
		c->cap_seen = c->cap_seen ? 2 * c->cap_seen : 32;
		c->seen = xrealloc(c->seen, c->cap_seen * sizeof(*c->seen));
	}
	c->seen[c->nr_seen].name = xstrdup(name);
	c->seen[c->nr_seen].line = c->line;
	c->nr_seen++;
}

/* A section header "[name]" on this raw line: noted, and refused if the
 * file had it before (inih would merge the two silently). */
static void check_section_line(struct parse_ctx *c, const char *buf)
{
	const char *p = buf + strspn(buf, " \t"), *end;
	char name[200], key[210];
	size_t n;
	int first;

	if (*p != '[' || !(end = strchr(p, ']')))
		return;
	p++;
	n = (size_t)(end - p);          /* not trimmed: inih does not trim it */
	if (n >= sizeof(name))
		return;
	memcpy(name, p, n);
	name[n] = 0;
	snprintf(key, sizeof(key), "[%s]", name);
	if ((first = seen_line(c, key))) {
		mmsim_msg(c->err, c->errlen, "%s:%d: section [%s] appears twice (first at line %d): "
		    "give each key once, in one section", c->origin, c->line, name, first);
		c->failed = true;
		return;
	}
	see(c, key);
}

/* Readers that count lines, so that the handler knows where it is; they
 * return whole lines (mmsim/ini.h: the inih used before cut them at 200
 * bytes, and read a long comment's tail as a setting). */
static char *count_line(struct parse_ctx *c, char *buf)
{
	c->line = ++c->lines_done;
	c->indented = (buf[0] == ' ' || buf[0] == '\t') && buf[strspn(buf, " \t\r\n")] &&
	              !strchr(";#", buf[strspn(buf, " \t")]);
	if (!c->failed)
		check_section_line(c, buf);
	return c->failed ? NULL : buf;  /* NULL: stop reading at the first error */
}

static char *file_reader(void *stream)
{
	struct parse_ctx *c = stream;
	int line = c->lines_done;
	long n;

	if (c->failed)
		return NULL;
	n = mmsim_read_line(c->f, c->origin, &line, &c->buf, &c->cap, c->err, c->errlen);
	if (n == -2)
		c->failed = true;       /* a NUL byte: the message is in err */
	return n < 0 ? NULL : count_line(c, c->buf);
}

static char *string_reader(void *stream)
{
	struct parse_ctx *c = stream;
	const char *nl;
	size_t n;

	if (!*c->str || c->failed)
		return NULL;
	nl = strchr(c->str, '\n');
	n = nl ? (size_t)(nl - c->str) : strlen(c->str);
	if (n + 1 > c->cap) {
		c->cap = n + 1;
		c->buf = xrealloc(c->buf, c->cap);
	}
	memcpy(c->buf, c->str, n);
	c->buf[n] = 0;
	c->str += n + (nl != NULL);
	return count_line(c, c->buf);
}

static int scenario_ini_handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	char where[300], key[300], canon[200];

	if (c->failed)
		return 1;               /* only the first error is reported */
	snprintf(where, sizeof(where), "%s:%d", c->origin, c->line);
	if (!*section) {
		mmsim_msg(c->err, c->errlen, "%s: key '%s' outside any section", where, name);
		c->failed = true;
		return 0;
	}
	if (!fixed_section(section) && !module_of(section, "policy") && !module_of(section, "workload")) {
		mmsim_msg(c->err, c->errlen, "%s: unknown section [%s]", where, section);
		c->failed = true;
		return 0;
	}
	if (fixed_section(section) && !find_key(section, name)) {
		mmsim_msg(c->err, c->errlen, "%s: unknown key '%s' in [%s]", where, name, section);
		c->failed = true;
		return 0;
	}
	if (c->indented) {
		/* inih reads an indented line as the previous value's
		 * continuation: a key meant to be set would be lost in it */
		mmsim_msg(c->err, c->errlen, "%s: an indented line (inih would append it to the value of "
		    "'%s'); values are one line: remove the indentation", where, name);
		c->failed = true;
		return 0;
	}
	/* [policy.OLDNAME] is the policy's section: a key in both is set twice */
	canonical_section(section, canon, sizeof(canon));
	snprintf(key, sizeof(key), "%s.%s", canon, name);
	{
		int first = seen_line(c, key);
		if (first) {
			mmsim_msg(c->err, c->errlen, "%s: [%s] %s: set twice (first at line %d)", where, canon,
			    name, first);
			c->failed = true;
			return 0;
		}
	}
	if (scenario_set_key(c->s, key, value, where, c->err, c->errlen)) {
		c->failed = true;
		return 0;
	}
	see(c, key);
	return 1;
}

static int finish_parse(struct parse_ctx *c, int rc)
{
	free(c->buf);
	c->buf = NULL;
	for (size_t i = 0; i < c->nr_seen; i++)
		free(c->seen[i].name);
	free(c->seen);
	c->seen = NULL;
	c->nr_seen = 0;
	if (c->failed)
		return -1;
	if (rc > 0) {
		mmsim_msg(c->err, c->errlen, "%s:%d: syntax error (expected [SECTION] or KEY = VALUE)", c->origin, rc);
		return -1;
	}
	if (rc < 0) {
		mmsim_msg(c->err, c->errlen, "%s: cannot parse (out of memory)", c->origin);
		return -1;
	}
	free(c->s->origin);
	c->s->origin = xstrdup(c->origin);
	return 0;
}

int scenario_load_file(struct scenario *s, const char *path, char *err, size_t errlen)
{
	struct parse_ctx c = { .s = s, .origin = path, .err = err, .errlen = errlen };
	int rc;

	/* a regular file: a directory read as an empty scenario ran the
	 * defaults without a word; /dev/zero or a FIFO never ended */
	c.f = mmsim_open_input(path, err, errlen);
	if (!c.f)
		return -2;
	rc = mmsim_ini_parse(file_reader, &c, scenario_ini_handler, &c);
	if (ferror(c.f) && !c.failed) {
		mmsim_msg(err, errlen, "cannot read %s: %s", path, strerror(errno));
		fclose(c.f);
		finish_parse(&c, 0);
		return -2;
	}
	fclose(c.f);
	return finish_parse(&c, rc);
}

int scenario_load_string(struct scenario *s, const char *text, const char *origin,
                         char *err, size_t errlen)
{
	struct parse_ctx c = { .s = s, .origin = origin, .str = text, .err = err, .errlen = errlen };
	return finish_parse(&c, mmsim_ini_parse(string_reader, &c, scenario_ini_handler, &c));
}

/* ------------------------------------------------------------ resolve */

static const char *value_of(const struct scenario *s, const struct key_desc *d)
{
	const char *v = lookup(s, d->section, d->p.name);
	return v ? v : d->p.def;
}

static const char *module_value(const struct scenario *s, const char *section, const struct param *p)
{
	const char *v = lookup(s, section, p->name);
	return v ? v : (p->def ? p->def : "");
}

/* the canonical text and the params, built together */
struct textbuf {
	char *buf;
	size_t len, cap;
};

static void tb_add(struct textbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_add(struct textbuf *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < t->cap - t->len) {
			t->len += (size_t)n;
			return;
		}
		t->cap = t->cap * 2 + (size_t)n + 64;
		t->buf = xrealloc(t->buf, t->cap);
	}
}

static void add_param(struct scenario *s, struct textbuf *t, const char *section, const char *key,
                      const char *value)
{
	char full[300];

	if (value[0] == ' ' || value[0] == '\t' || value[0] == '"' || strpbrk(value, ";#\n\r") ||
	    (*value && strchr(" \t", value[strlen(value) - 1]))) {
		/* a value the reader would cut or trim, written quoted
		 * (mmsim/ini.h), so that the text reads back to this value */
		tb_add(t, "%s = \"", key);
		for (const char *c = value; *c; c++)
			tb_add(t, "%s", *c == '"' ? "\\\"" : *c == '\\' ? "\\\\" : *c == '\n' ? "\\n" :
			           *c == '\r' ? "\\r" : *c == '\t' ? "\\t" : (char[2]){ *c, 0 });
		tb_add(t, "\"\n");
	} else {
		tb_add(t, "%s = %s\n", key, value);
	}
	if (s->nparams == s->cap_params) {
		s->cap_params = s->cap_params ? 2 * s->cap_params : 64;
		s->pkeys = xrealloc(s->pkeys, s->cap_params * sizeof(*s->pkeys));
		s->pvalues = xrealloc(s->pvalues, s->cap_params * sizeof(*s->pvalues));
	}
	snprintf(full, sizeof(full), "%s.%s", section, key);
	s->pkeys[s->nparams] = xstrdup(full);
	s->pvalues[s->nparams] = xstrdup(value);
	s->nparams++;
}

/* a PARAM_TEXT_IF_SET key whose resolved value is its default's */
static bool at_default(const struct scenario *s, const struct key_desc *d)
{
	struct scenario_config def;
	char m[256];

	memset(&def, 0, sizeof(def));
	if (d->p.store == PARAM_ST_NONE || param_set(&d->p, &def, d->p.def, m, sizeof(m)))
		return false;
	return !memcmp((const char *)&s->cfg + d->p.off, (const char *)&def + d->p.off, d->p.size);
}

static void add_fixed_section(struct scenario *s, struct textbuf *t, const char *section)
{
	/* no profile: no [system] section, so that the texts and hashes of
	 * scenarios without one are what they were before the key existed */
	if (!strcmp(section, "system") && !strcmp(s->cfg.system_profile, "none"))
		return;
	tb_add(t, "%s[%s]\n", t->len ? "\n" : "", section);
	for (size_t i = 0; i < NR_KEYS; i++)
		if (!strcmp(keys[i].section, section) &&
		    !((keys[i].p.flags & PARAM_TEXT_IF_SET) && at_default(s, &keys[i])))
			add_param(s, t, section, keys[i].p.name, value_of(s, &keys[i]));
}

static void add_module_section(struct scenario *s, struct textbuf *t, const char *section,
                               const struct param *params)
{
	tb_add(t, "\n[%s]\n", section);
	for (const struct param *p = params; p && p->name; p++)
		add_param(s, t, section, p->name, module_value(s, section, p));
}

/* was any key of this section set explicitly? */
static bool section_mentioned(const struct scenario *s, const char *section)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].section, section))
			return true;
	return false;
}

static void build_text(struct scenario *s)
{
	struct textbuf t = { .buf = xrealloc(NULL, 4096), .cap = 4096 };
	const struct scenario_config *c = &s->cfg;
	char section[64];

	t.buf[0] = 0;
	for (int i = 0; fixed_sections[i]; i++) {
		const char *sec = fixed_sections[i];
		add_fixed_section(s, &t, sec);
		if (!strcmp(sec, "policy")) {
			/* the selected policy's switches, all of them; then the
			 * sections of other policies the input gave (kept so that
			 * the text re-runs as written, not applied) */
			snprintf(section, sizeof(section), "policy.%s", c->policy);
			add_module_section(s, &t, section, mm_policy_find(c->policy)->params);
			for (int k = 0; mm_policy_table[k]; k++) {
				snprintf(section, sizeof(section), "policy.%s", mm_policy_table[k]->name);
				if (strcmp(mm_policy_table[k]->name, c->policy) && section_mentioned(s, section))
					add_module_section(s, &t, section, mm_policy_table[k]->params);
			}
		} else if (!strcmp(sec, "workload")) {
			struct scenario_workload wd;
			for (unsigned w = 0; w < c->nr_workloads; w++) {
				find_workload(c->workloads[w], &wd);
				if (wd.implicit)
					continue;       /* its section is [system] */
				snprintf(section, sizeof(section), "workload.%s", c->workloads[w]);
				add_module_section(s, &t, section, wd.params);
			}
			for (unsigned k = 0; scenario_modules.registry(k, &wd); k++) {
				bool named = wd.implicit;
				for (unsigned w = 0; w < c->nr_workloads; w++)
					named |= !strcmp(c->workloads[w], wd.name);
				snprintf(section, sizeof(section), "workload.%s", wd.name);
				if (!named && section_mentioned(s, section))
					add_module_section(s, &t, section, wd.params);
			}
		}
	}
	s->text = t.buf;
	/* the hash covers what the run reads besides the text: an edited
	 * profile or dataset is another scenario under the same text */
	{
		char *both = malloc(strlen(s->text) + sizeof(s->inputs) + 2);
		if (!both) {
			fputs("mmsim: out of memory\n", stderr);
			abort();
		}
		sprintf(both, "%s%s%s", s->text, s->inputs[0] ? "\n" : "", s->inputs);
		scenario_fnv1a(both, s->hash);
		free(both);
	}
}

/* FNV-1a 64 of a file's bytes, appended to s->inputs (at most 8 files;
 * an unreadable file counts as empty: the run's own load reports it) */
static void add_input(const char *path, void *arg)
{
	struct scenario *s = arg;
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned char buf[65536];
	size_t n, len = strlen(s->inputs);
	FILE *f = fopen(path, "rb");

	if (len + 17 >= sizeof(s->inputs))
		return;
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	if (f)
		fclose(f);
	snprintf(s->inputs + len, sizeof(s->inputs) - len, "%s%016llx", len ? " " : "", (unsigned long long)h);
}

/* What the run will ask of the host, bounded (mmsim/limits.h): the
 * model's state for the machine's page frames and swap slots, and the
 * records of the time series over a given duration (an "auto" duration
 * is bounded as the run goes, by the engine's observers). */
static int check_host_bounds(const struct scenario *s, const struct mm_layout *layout,
                             const char *where, char *err, size_t errlen)
{
	const struct scenario_config *c = &s->cfg;
	unsigned long max = mmsim_max_samples();
	char m[320];

	/* a malformed bound is refused, not ignored and then cited */
	if (mmsim_host_memory_env_check(m, sizeof(m))) {
		mmsim_msg(err, errlen, "%s", m);
		return -1;
	}
	/* RAM first, then with swap: the message names the key that tips it */
	if (mmsim_host_memory_check(mm_layout_host_bytes(layout, c->ram, 0), m, sizeof(m))) {
		mmsim_msg(err, errlen, "%s: [machine] ram: '%s' %s", where_of(s, "machine", "ram", where),
		    value_of(s, find_key("machine", "ram")), m);
		return -1;
	}
	if (mmsim_host_memory_check(mm_layout_host_bytes(layout, c->ram, c->swap), m, sizeof(m))) {
		mmsim_msg(err, errlen, "%s: [machine] swap: '%s' %s", where_of(s, "machine", "swap", where),
		    value_of(s, find_key("machine", "swap")), m);
		return -1;
	}
	if (c->duration > 0) {
		static const char *const intervals[] = { "sample_interval", "census_interval", NULL };
		const double v[] = { c->sample_interval, c->census_interval };
		for (int i = 0; intervals[i]; i++)
			if (v[i] > 0 && c->duration / v[i] > (double)max) {
				mmsim_msg(err, errlen, "%s: [run] %s: '%s' over a duration of %g s is %.0f records, "
				    "more than %lu; a longer interval, or MMSIM_MAX_SAMPLES=N in the environment "
				    "to allow more on purpose", where_of(s, "run", intervals[i], where), intervals[i],
				    value_of(s, find_key("run", intervals[i])), c->duration, c->duration / v[i], max);
				return -1;
			}
	}
	return 0;
}

int scenario_resolve(struct scenario *s, char *err, size_t errlen)
{
	struct scenario_config *c = &s->cfg;
	const char *where = scenario_origin(s);
	struct mm_layout layout;
	char m[256];
	bool measured = false;

	clear_resolved(s);
	memset(c, 0, sizeof(*c));
	s->inputs[0] = 0;
	vm_sysctl_defaults(&c->sysctl);         /* the fields no key sets */
	for (size_t i = 0; i < NR_KEYS; i++) {
		if (parse_value(&keys[i], value_of(s, &keys[i]), c, m, sizeof(m))) {
			mmsim_msg(err, errlen, "%s: [%s] %s: %s", where_of(s, keys[i].section, keys[i].p.name, where),
			    keys[i].section, keys[i].p.name, m);
			return -1;
		}
	}
	c->sysctl.thp_enabled = c->sysctl.thp_enabled_mode != THP_ENABLED_NEVER;

	/* a base system: the "system" workload, first, so that its start()
	 * boots the kernel memory and the daemons before the others start */
	if (strcmp(c->system_profile, "none")) {
		if (c->nr_workloads == SCENARIO_MAX_WORKLOADS) {
			mmsim_msg(err, errlen, "%s: [workload] names: more than %d workloads with the system's",
			    where, SCENARIO_MAX_WORKLOADS - 1);
			return -1;
		}
		memmove(c->workloads[1], c->workloads[0], c->nr_workloads * sizeof(c->workloads[0]));
		snprintf(c->workloads[0], sizeof(c->workloads[0]), "system");
		c->nr_workloads++;
	}

	if (mm_layout_qemu(c->ram, c->kernel_reserved, &layout, m, sizeof(m))) {
		/* blame the key that was given: the reservation, or the RAM */
		const char *kr = lookup(s, "machine", "kernel_reserved");
		if (kr)
			mmsim_msg(err, errlen, "%s: [machine] kernel_reserved: '%s' pages: %s ([machine] ram '%s')",
			    where_of(s, "machine", "kernel_reserved", where), kr, m,
			    value_of(s, find_key("machine", "ram")));
		else
			mmsim_msg(err, errlen, "%s: [machine] ram: '%s': %s", where_of(s, "machine", "ram", where),
			    value_of(s, find_key("machine", "ram")), m);
		return -1;
	}
	if (check_host_bounds(s, &layout, where, err, errlen))
		return -1;

	/* the policy and the workloads, built as the run will build them
	 * (their messages name the file, or the key's line or --set) */
	if (scenario_modules.check_policy(s, err, errlen))
		return -1;
	for (unsigned i = 0; i < c->nr_workloads; i++) {
		struct scenario_workload wd;
		if (scenario_modules.check_workload(s, i, add_input, s, err, errlen))
			return -1;
		find_workload(c->workloads[i], &wd);
		measured |= wd.measured;
		if (c->iterations + c->warmup > 1 && wd.measured && !wd.restartable) {
			mmsim_msg(err, errlen, "%s: [run] %s: the measured workload %s runs once only; "
			    "set iterations = 1 and warmup = 0", where, c->warmup ? "warmup" : "iterations",
			    wd.name);
			return -1;
		}
	}
	if (c->warmup && c->duration > 0) {
		mmsim_msg(err, errlen, "%s: [run] warmup: needs duration = auto (a warmup ends when its build does)", where);
		return -1;
	}
	if (c->duration == 0 && !measured) {
		mmsim_msg(err, errlen, "%s: [run] duration: 'auto' needs a measured workload (such as kbuild); "
		    "give a number of seconds", where);
		return -1;
	}
	build_text(s);
	s->resolved = true;
	return 0;
}

const char *scenario_given(const struct scenario *s, const char *section, const char *key,
                           const char **where)
{
	*where = where_of(s, section, key, NULL);
	return lookup(s, section, key);
}

const char *scenario_origin(const struct scenario *s)
{
	return s->origin ? s->origin : "scenario";
}

const struct scenario_config *scenario_config(const struct scenario *s)
{
	return &s->cfg;
}

const char *scenario_text(const struct scenario *s)
{
	return s->resolved ? s->text : NULL;
}

const char *scenario_hash(const struct scenario *s)
{
	return s->resolved ? s->hash : NULL;
}

size_t scenario_nr_params(const struct scenario *s)
{
	return s->resolved ? s->nparams : 0;
}

void scenario_param(const struct scenario *s, size_t i, const char **key, const char **value)
{
	*key = s->pkeys[i];
	*value = s->pvalues[i];
}

/* FNV-1a, 64 bits: small, dependency-free, and enough to tell resolved
 * configurations apart (not a cryptographic digest). */
void scenario_fnv1a(const char *text, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void scenario_print_keys(FILE *f)
{
	const char *last = "";
	for (size_t i = 0; i < NR_KEYS; i++) {
		if (strcmp(last, keys[i].section))
			fprintf(f, "%s[%s]\n", i ? "\n" : "", keys[i].section);
		last = keys[i].section;
		fprintf(f, "  %-30s %-22s %s\n", keys[i].p.name, *keys[i].p.def ? keys[i].p.def : "\"\"", keys[i].p.help);
	}
	fprintf(f, "\n[policy.NAME]   the switches of policy NAME ('mmsim list policies')\n"
	           "[workload.NAME] the parameters of workload NAME\n");
}

/* ------------------------------------------------------------ demo's --set */

int scenario_apply_sysctl(struct vm_sysctl *sysctl, const char *key, const char *value,
                          char *err, size_t errlen)
{
	static const char *const sysctl_sections[] = { "vm", "transparent_hugepage", "kernel", NULL };
	const char *dot = strchr(key, '.');
	struct scenario_config c;
	const struct key_desc *d;
	char m[1280];
	size_t n;
	int i;

	if (!dot)
		return 0;
	n = (size_t)(dot - key);
	for (i = 0; sysctl_sections[i]; i++)
		if (strlen(sysctl_sections[i]) == n && !strncmp(sysctl_sections[i], key, n))
			break;
	if (!sysctl_sections[i])
		return 0;
	for (d = keys; d < keys + NR_KEYS; d++)
		if (!strcmp(d->section, sysctl_sections[i]) && !strcmp(d->p.name, dot + 1))
			break;
	if (d == keys + NR_KEYS) {
		mmsim_msg(err, errlen, "--set %s: unknown key '%s' in [%s]", key, dot + 1, sysctl_sections[i]);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.sysctl = *sysctl;
	if (parse_value(d, value, &c, m, sizeof(m))) {
		mmsim_msg(err, errlen, "--set %s: %s", key, m);
		return -1;
	}
	c.sysctl.thp_enabled = c.sysctl.thp_enabled_mode != THP_ENABLED_NEVER;
	*sysctl = c.sysctl;
	return 1;
}
