/* scenario.h - a run described by an INI file (docs/scenario.md).
 *
 * Sections are named after the kernel interfaces they stand for: [vm] is
 * /proc/sys/vm, [transparent_hugepage] is /sys/kernel/mm/transparent_hugepage,
 * [kernel] the kernel's build configuration; [machine] is the guest,
 * [policy] and [policy.NAME] the allocator policy and its switches,
 * [workload] and [workload.NAME] the workloads and their parameters, [run]
 * the simulation itself.  Every fixed key has a default and a help text in
 * one table (scenario.c); the keys of [policy.NAME] and [workload.NAME] are
 * the modules' own parameter tables (struct param, mmsim/param.h).
 *
 * A scenario is built in layers: defaults, then a file, then --set
 * overrides, each value checked when it is set so that a message can name
 * the file and line (or the --set argument).  scenario_resolve() then
 * checks what only the whole can tell (does the policy accept this
 * combination of switches, is a duration given when nothing is measured)
 * and fills the typed configuration.  Its canonical text, every key with
 * its value in a fixed order, is what a run stores and re-reads.
 *
 * Nothing here prints: every function returns 0, or -1 with a message in
 * err ("FILE:LINE: unknown key 'x' in [vm]", "--set vm.x: ...").
 */
#ifndef MMSIM_SCENARIO_H
#define MMSIM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mmsim/mmzone.h"

#define SCENARIO_MAX_WORKLOADS 8

/* The typed values of a resolved scenario. */
struct scenario_config {
	/* [machine] */
	uint64_t ram, swap;             /* bytes */
	unsigned cpus;
	double swap_latency;            /* seconds */
	uint64_t swap_bandwidth;        /* bytes per second */
	unsigned long kernel_reserved;  /* pages */
	/* [vm], [transparent_hugepage], [kernel] */
	struct vm_sysctl sysctl;
	/* [system] */
	char system_profile[256];       /* "none", a profile name or a path */
	/* [policy] */
	char policy[32];
	/* [workload]; with a [system] profile, "system" comes first */
	char workloads[SCENARIO_MAX_WORKLOADS][32];
	unsigned nr_workloads;
	/* [run] */
	uint64_t seed;
	unsigned iterations;            /* the measured workloads run this many times (1) */
	unsigned warmup;                /* and this many times before, unrecorded (0) */
	int drop_caches;                /* vm.drop_caches before each iteration but the first (0: none) */
	bool compact_memory;            /* vm.compact_memory after it, before the pool */
	unsigned long nr_hugepages;     /* the huge page pool held during each iteration but the first */
	bool prepare_first;             /* the three above before the first iteration too */
	bool hugepages_at_rest;         /* after the last window: caches dropped, compacted, the pool grown as far as it goes */
	double duration;                /* seconds; 0: auto (until the measured workloads end) */
	double quantum, sample_interval, census_interval;   /* seconds; intervals 0: off */
	bool cpu_heap;                  /* [run] cpu_sharing = heap (sim/engine/cpu.c) */
	unsigned blockmap_groups;
	char name[64];                  /* "" until resolved; then the run's name */
};

struct scenario;

struct scenario *scenario_new(void);
void scenario_free(struct scenario *s);

/* Read an INI file or text; origin names it in messages. */
int scenario_load_file(struct scenario *s, const char *path, char *err, size_t errlen);
int scenario_load_string(struct scenario *s, const char *text, const char *origin,
                         char *err, size_t errlen);
/* One override, "SECTION.KEY=VALUE": any key of the file; also
 * POLICY.SWITCH (hugealloc_rfc.no_fallback; a policy's
 * alias names it too: hygiene.no_fallback) for [policy.POLICY] and
 * WORKLOAD.PARAM for [workload.WORKLOAD].  Messages start "--set KEY: ". */
int scenario_set(struct scenario *s, const char *kv, char *err, size_t errlen);
/* Set SECTION.KEY to VALUE (as scenario_set, message prefix given). */
int scenario_set_key(struct scenario *s, const char *key, const char *value, const char *where,
                     char *err, size_t errlen);

/* Check the whole and fill the typed values. */
int scenario_resolve(struct scenario *s, char *err, size_t errlen);
const struct scenario_config *scenario_config(const struct scenario *s);

/* After resolve: the canonical text (owned by s), its hash (FNV-1a 64,
 * 16 hex digits, of the text and of the contents of the files its
 * workloads read: the system profile, a kbuild dataset; an edited file is
 * another scenario), and its keys as "section.key" = value pairs, in the
 * text's order (the params table of the results). */
const char *scenario_text(const struct scenario *s);
const char *scenario_hash(const struct scenario *s);
size_t scenario_nr_params(const struct scenario *s);
void scenario_param(const struct scenario *s, size_t i, const char **key, const char **value);

/* For the messages of what is built from the scenario (the policy and
 * the workloads, sim/run/build.c): the value given for SECTION.KEY, NULL
 * if it has its default, and *where it was given ("FILE:LINE",
 * "--set KEY"; NULL with it); the file last loaded ("scenario" if none). */
const char *scenario_given(const struct scenario *s, const char *section, const char *key,
                           const char **where);
const char *scenario_origin(const struct scenario *s);

/* FNV-1a 64 of a string, as 16 lower-case hex digits */
void scenario_fnv1a(const char *text, char out[17]);

/* The help listing: every fixed key, its default and meaning. */
void scenario_print_keys(FILE *f);

/* For the machine options of demo/show/bench (--set vm.X=V): apply one
 * sysctl-like key ([vm], [transparent_hugepage], [kernel]) to a struct
 * vm_sysctl.  Returns 1 if applied, 0 if the key is not one of those
 * sections', -1 on a bad value (message "--set KEY: ..." in err). */
int scenario_apply_sysctl(struct vm_sysctl *sysctl, const char *key, const char *value,
                          char *err, size_t errlen);

#endif
