/* exec.h - executable images mapped into processes: the text of a program
 * and of the shared libraries it links, mapped VM_READ | VM_EXEC from one
 * file each, shared by every process that runs it (mm_mmap_file).
 *
 * An image is a file of the machine (inode_get_named: one per name, so
 * that every workload mapping libc maps the same page cache pages) and
 * the executable PT_LOAD segment of it.  exec_prog() maps a program's
 * images as execve() and the dynamic loader do, and touches its hot text
 * (faults it in); exec_run() is a quantum of running: the hot text's
 * ptes are young again.  The hot text is a fixed share of each image's
 * 16-page windows (fault-around's size), the same windows in every
 * process (every cc1 runs the same parser and passes); docs/workloads.md
 * gives the sizes and shares and how they were measured. */
#ifndef MMSIM_WORKLOADS_EXEC_H
#define MMSIM_WORKLOADS_EXEC_H

#include <stdbool.h>
#include "mmsim/mm.h"

struct exec_image {
	const char *name;               /* the file, e.g. "/usr/lib/x86_64-linux-gnu/libc.so.6" */
	unsigned long file_pages;       /* the whole file */
	unsigned long pgoff, pages;     /* the executable segment */
	double hot;                     /* share of the segment a running process touches */
};

/* the programs of a kernel build */
enum exec_prog { PROG_MAKE, PROG_SH, PROG_GCC, PROG_CC1, PROG_AS, PROG_AR, PROG_LD, NR_EXEC_PROGS };

#define EXEC_MAX_MAPS 10
struct exec_maps {
	unsigned n;
	struct {
		const struct exec_image *img;
		unsigned long vpage;    /* first virtual page of its area */
		bool running;           /* touched every quantum (else only at exec) */
	} m[EXEC_MAX_MAPS];
};

/* the image of this name in the table of known images, or NULL */
const struct exec_image *exec_image_find(const char *name);
/* map one image into mm (opening its file), touch its hot text; running:
 * (img may be one of the table, exec_image_find(), or the caller's own)
 * exec_run() touches it again each quantum.  0, or -1 (no memory, the
 * task is an OOM victim, or maps is full). */
int exec_map_image(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                   const struct exec_image *img, bool running, struct exec_maps *maps);
/* execve() of a build program: its images (see exec.c for which) */
int exec_prog(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
              enum exec_prog prog, struct exec_maps *maps);
/* a quantum of running: the running images' hot text is touched */
int exec_run(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
             const struct exec_maps *maps);

#endif
