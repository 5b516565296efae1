/* kbuild_data.h - a measured kernel build (workloads/data/kbuild/): the
 * files it read, its make-level steps in the order they started, and the
 * processes of each step with their measured CPU time, peak RSS and output
 * size.  The format and how it was measured: workloads/data/kbuild/README.md. */
#ifndef MMSIM_WORKLOADS_KBUILD_DATA_H
#define MMSIM_WORKLOADS_KBUILD_DATA_H

#include <stddef.h>
#include <stdint.h>

enum kbd_kind { KBD_CC, KBD_AR, KBD_LD };
enum kbd_tool { KBD_GCC, KBD_CC1, KBD_AS, KBD_COLLECT2, KBD_TOOL_LD, KBD_TOOL_AR, KBD_OTHER };

struct kbd_proc {
	uint8_t tool;                   /* enum kbd_tool */
	uint32_t user_us, sys_us;       /* wait4 rusage: ru_utime, ru_stime */
	uint32_t maxrss_kib;            /* ru_maxrss */
	int64_t out_bytes;              /* its -o file after it exited; -1 if none */
};

struct kbd_step {
	uint8_t kind;                   /* enum kbd_kind */
	uint32_t start_ms, wall_ms;     /* measured, from the first process's start */
	int32_t src;                    /* file index of the source (cc), or -1 */
	int64_t out_bytes;              /* the step's output (.o, archive, vmlinux) */
	uint32_t hdr_off, nr_hdrs;      /* kbuild_dataset.hdrs: file indices, gcc -MD's order */
	uint32_t dep_off, nr_deps;      /* kbuild_dataset.deps: earlier steps whose output it takes */
	uint32_t proc_off, nr_procs;    /* kbuild_dataset.procs, in the order they ran */
};

struct kbuild_dataset {
	char *path;
	uint32_t nr_files;
	uint64_t *file_bytes;           /* sources and headers read, by index */
	char **file_path;               /* their paths (relative to the tree, or absolute) */
	uint32_t nr_steps;
	struct kbd_step *steps;
	char **step_out;                /* per step: its output's path ("-": none) */
	uint32_t *hdrs, *deps;
	struct kbd_proc *procs;
	uint32_t nr_hdrs, nr_deps, nr_procs;
	uint64_t tree_files, tree_bytes;        /* the pristine source tree */
	/* the whole build's CPU as make's wait4() rusage measured it (M
	 * rusage_user_s, rusage_sys_s): its recorded processes and the
	 * others (make's shells, fixdep, objtool, scripts); 0 if not given */
	double rusage_user_s, rusage_sys_s;
	/* What a tool's binary and libraries map, subtracted from its peak
	 * RSS to get a process's anonymous growth: RssFile measured for a
	 * few units (M rss_file_kib.TOOL), else the smallest peak RSS of the
	 * tool in the build (cc1 of an empty input, as of an empty file) */
	uint32_t rss_file_kib[KBD_OTHER + 1];
	uint32_t min_rss_kib[KBD_OTHER + 1];
	uint32_t base_rss_kib[KBD_OTHER + 1];
};

/* The file of a dataset name: a path (contains '/') is taken as is; a name
 * is NAME.tsv.gz in workloads/data/kbuild of the source tree this binary
 * was built from, else of a tree up to three directories above the
 * executable.  0, or -1 with a message naming where it looked. */
int kbuild_dataset_find(const char *name, char *out, size_t n, char *err, size_t errlen);

/* Read a dataset (gzip-compressed or plain).  NULL with "FILE:LINE: what"
 * in err on bad input. */
struct kbuild_dataset *kbuild_dataset_load(const char *path, char *err, size_t errlen);
void kbuild_dataset_free(struct kbuild_dataset *d);

/* the first process of step s with this tool, or NULL */
const struct kbd_proc *kbd_step_proc(const struct kbuild_dataset *d, uint32_t s, enum kbd_tool tool);

#endif
