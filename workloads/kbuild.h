/* kbuild.h - what the kernel-build workload shows outside its module: the
 * parameters drawn for a compile unit and the build's totals, for tests
 * and reports.  The model itself is described in kbuild.c and in
 * docs/workloads.md. */
#ifndef MMSIM_WORKLOADS_KBUILD_H
#define MMSIM_WORKLOADS_KBUILD_H

#include <stdbool.h>
#include <stdint.h>
#include "workload.h"

/* One compile unit (a cc1 job): with tree = synthetic drawn from (run
 * seed, workload index, unit index), the same under every policy; with a
 * measured tree, its measured values (the as fields only there). */
struct kbuild_unit {
	double user_ns;                 /* CPU time of the job */
	unsigned long peak_pages;       /* peak anonymous memory */
	double ramp;                    /* fraction of its run by which it reaches the peak */
	unsigned long source_pages;     /* its .c file */
	unsigned long object_pages;     /* the .o it writes */
	unsigned nr_headers;            /* distinct headers it reads */
	uint64_t headers_hash;          /* of the ordered header list */
	unsigned long asm_pages;        /* measured: the .s cc1 writes and as reads */
	double as_user_ns;              /* measured: as's CPU time */
	unsigned long as_peak_pages;    /* measured: as's anonymous memory */
};

/* Draw unit `unit` (0 .. units-1 after scale) of a kbuild workload whose
 * parameters are set; w->seed and w->index must be those of the run.
 * With a measured tree, `unit` is a step index (0 .. steps-1 after
 * scale) and the values are the measured ones; -1 for a step that is not
 * a compile (an archive, a link).  0, or -1 if w is not kbuild, unit is
 * out of range or the dataset cannot be read. */
int kbuild_unit_params(const struct workload *w, unsigned unit, struct kbuild_unit *u);

/* with builds = N, every count and time is the sum over the N builds */
struct kbuild_stats {
	unsigned units;                 /* compile units (scale applied) */
	unsigned archives;
	unsigned jobs;                  /* make -j, resolved */
	unsigned units_done;            /* cc1 jobs that ran to their end */
	unsigned jobs_failed;           /* failed forks, failed faults/reads, OOM kills */
	unsigned oom_killed;
	bool finished, build_failed;    /* build_failed: make itself died */
	double real_time;               /* seconds, start to workload_finished() */
	double user_ns, system_ns;      /* make, cc1, ar and ld, as reaped */
	double make_user_ns;
	unsigned long header_pages_cached;  /* header pages in the page cache now */
	unsigned long bdev_pages;       /* size of the filesystem-metadata inode */
	unsigned long failed_lookups;   /* measured tree: gcc's include tries that found no file */
};
int kbuild_get_stats(const struct workload *w, struct kbuild_stats *s);

/* The life of one process of a measured tree's step, as the simulation
 * ran it: k counts the step's processes in order (cc1, as, ...). */
struct kbuild_proc_trace {
	bool ran;                       /* started and exited */
	char tool[8];                   /* "cc1", "as", "ld", "ar" */
	double start, end;              /* virtual seconds */
	double utime_ns;
	unsigned long hiwater_pages;    /* largest anonymous RSS */
};
/* 0 and *out filled, or -1 (not kbuild, synthetic, no such process) */
int kbuild_proc_trace(const struct workload *w, unsigned step, unsigned k, struct kbuild_proc_trace *out);

/* user time of step `step` as reaped by make (units first, then archives,
 * then the link); -1 if not reaped (yet) */
double kbuild_step_utime(const struct workload *w, unsigned step);

#endif
