/* system_profile.h - a booted machine's base system, read from a profile
 * file (configs/system/NAME.ini; the format is docs/workloads.md, "The
 * base system"): the kernel's own memory (slab caches with their
 * /proc/slabinfo geometry and object counts, kernel threads' stacks,
 * vmalloc and per-cpu pages) and the daemons (their anonymous, mapped and
 * cached memory, page tables, threads, and what they do when they wake).
 * workloads/system.c allocates it at boot; the scenario's [system] profile
 * names it. */
#ifndef MMSIM_WORKLOADS_SYSTEM_PROFILE_H
#define MMSIM_WORKLOADS_SYSTEM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* one /proc/slabinfo row */
struct sys_slab {
	char name[32];
	unsigned object_size, objs_per_slab, pages_per_slab;
	unsigned long active_objs, num_objs;
	bool reclaimable;               /* SLAB_RECLAIM_ACCOUNT */
};

#define SYS_MAX_CHURN 8
struct sys_churn {
	char cache[32];                 /* a cache of [slab] or of the model */
	unsigned count;                 /* objects per wake-up */
};

struct sys_daemon {
	char name[32];
	uint64_t anon;                  /* bytes: smaps Anonymous (RssAnon) */
	uint64_t file;                  /* bytes: file-backed Rss (RssFile): its binary and libraries */
	uint64_t cache;                 /* bytes of other page cache it keeps (files it reads) */
	uint64_t page_tables;           /* bytes: VmPTE */
	uint64_t gem;                   /* bytes of GPU buffer objects it holds (i915 GEM: shmem pages
	                                 * in reclaimable pageblocks, i915_gem.h) */
	unsigned gem_objects;           /* how many objects they are */
	uint64_t gem_pinned;            /* bytes of them in use (one object the shrinker passes over) */
	uint64_t gem_churn;             /* bytes of them freed and allocated again per wake-up */
	unsigned threads;               /* Threads: one kernel stack each */
	double interval;                /* seconds between wake-ups (0: never wakes) */
	double cpu;                     /* seconds of CPU per wake-up */
	double touch;                   /* share of its anonymous memory used per wake-up */
	double log;                     /* bytes per second appended to its log file */
	uint64_t log_file;              /* the log's size before it wraps (rotation) */
	struct sys_churn churn[SYS_MAX_CHURN];  /* objects allocated at a wake-up, freed at the next */
	unsigned nr_churn;
	/* the profile's lines that set the keys checked together after
	 * reading (0: the default), for the messages */
	int line_gem_objects, line_gem_pinned, line_gem_churn, line_churn;
};

struct system_profile {
	char path[512];
	/* [kernel] */
	unsigned kernel_threads;        /* kthreads: one 16 KiB stack each */
	uint64_t vmalloc;               /* bytes: VmallocUsed less the stacks */
	uint64_t percpu;                /* bytes: Percpu */
	uint64_t kmalloc_large;         /* bytes: SUnreclaim less the unreclaimable caches' slabs */
	/* [slab] */
	struct sys_slab *slab;
	unsigned nr_slab;
	/* [daemon.NAME] */
	struct sys_daemon *daemon;
	unsigned nr_daemon;
};

/* The file a profile name stands for: NAME (letters, digits, '-', '_') is
 * configs/system/NAME.ini of the source tree the binary was built from,
 * else of the current directory, else of the executable's directory or up
 * to three above it; a name with a '/' or ending in .ini is a path.
 * 0, or -1 with a message. */
int system_profile_path(const char *name, char *out, size_t n, char *err, size_t errlen);

/* Read and check a profile; messages name the file, the line and the key
 * ("configs/system/x.ini:12: [kernel] vmalloc: ..."). */
int system_profile_load(const char *name, struct system_profile **out, char *err, size_t errlen);
void system_profile_free(struct system_profile *p);

/* the profile's totals, in pages: slab pages (num_objs / objs_per_slab
 * slabs of pages_per_slab, rounded up), reclaimable and not */
void system_profile_slab_pages(const struct system_profile *p, unsigned long *reclaimable,
                               unsigned long *unreclaimable);

#endif
