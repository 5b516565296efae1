/* kbuild_int.h - the kbuild workload's private header: its state and what
 * its files share.  kbuild.c is the module (parameters, start, results,
 * iterations); kbuild_synth.c the synthetic tree, kbuild_measured.c a
 * measured one (kbuild_names.c its namespace, kbuild_cpu.c its whole
 * CPU), kbuild_make.c make, kbuild_job.c the jobs, kbuild_files.c their
 * file system calls, kbuild_warm.c a warm start; kbuild_data.c reads the
 * measured datasets. */
#ifndef MMSIM_KBUILD_INT_H
#define MMSIM_KBUILD_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "exec.h"
#include "kbuild.h"
#include "kbuild_data.h"
#include "mmsim/dcache.h"
#include "mmsim/slab.h"

/* fixed shapes of the tree's file sizes (lognormal sigmas) */
#define SOURCE_SIGMA      0.8
#define HEADER_SIGMA      1.0
#define OBJECT_SIGMA      0.8
#define NR_HEADERS_SIGMA  0.3
/* ext4 with 4 KiB blocks: 256-byte inodes, 16 to an inode-table block;
 * directory entries of kernel file names, about 32 to a block */
#define INODES_PER_BLOCK  16
#define DIRENTS_PER_BLOCK 32
#define JOURNAL_PAGES     8192          /* the part of the jbd2 journal the build cycles through */
/* seed entities beyond the units: the tree, the archive steps, the link */
#define ENTITY_TREE       (1ull << 40)
#define ENTITY_ARCHIVE    (2ull << 40)
#define ENTITY_LINK       (3ull << 40)
#define ENTITY_TREE_SIZES (4ull << 40)

enum kb_status { ST_PENDING, ST_RUNNING, ST_DONE, ST_FAILED, ST_OOM };
enum kb_kind { KB_CC1, KB_AS, KB_AR, KB_LD };

struct kb_slot {
	struct task *t;
	unsigned step;
	unsigned proc;                  /* measured tree: the step's process running (chain index) */
};

struct kbuild {
	/* parameters */
	char tree_name[PATH_MAX];       /* a dataset of workloads/data/kbuild, a path, or synthetic */
	bool synthetic;
	unsigned jobs;                  /* 0: auto (the machine's CPUs) */
	unsigned units;
	double scale;
	double user_mean, user_sigma;   /* ns, lognormal sigma */
	double rss_mean, rss_sigma;     /* pages */
	double rss_corr, ramp_min, touch, parse_fraction;
	unsigned headers;
	double header_kib, headers_per_unit, zipf;
	double source_kib, object_kib;
	unsigned vmas;
	unsigned long make_rss;         /* pages */
	double make_target_ns, poll;
	unsigned archives;
	double ar_ns;
	unsigned long ar_rss;
	double link_ns;
	unsigned long link_rss, vmlinux_pages;
	unsigned tree_files;
	double tree_kib;
	bool warm;                      /* the tree is in the page cache at the start */
	bool cpu_whole;                 /* cpu_time = whole (kb_step_cpu) */
	unsigned builds;                /* builds side by side, each its own tree and make */

	/* builds = N: build 0 is the workload's (w->priv) and holds the
	 * others (sib[1..N-1]); each build is a copy of build 0's
	 * parameters made before its tree, sharing only the dataset */
	unsigned idx;                   /* this build's index */
	struct kbuild *first;           /* build 0 */
	struct kbuild **sib;            /* build 0's: every build, sib[0] == build 0 */
	unsigned nr_done;               /* build 0's: builds whose make is done */
	bool done;                      /* this build's make has finished or died */
	uint32_t root;                  /* measured tree: the build's "/" (its container's) */

	/* the tree (after scale) */
	unsigned nr_units, nr_archives, nr_jobs, nr_steps;
	double *zipf_cdf;               /* headers entries */
	struct address_space **src, **hdr, **obj, **arc, *vmlinux, *bdev;
	struct address_space **tree;    /* the files make only stats */
	unsigned nr_tree, tree_next;
	unsigned long bdev_dirs, bdev_bitmap, bdev_journal, journal_next;
	unsigned long dir_blocks;       /* bdev_bitmap - bdev_dirs */

	/* the measured tree (NULL: synthetic): files, step outputs, and per
	 * slot the compiler's temporaries (/tmp/ccXXXXXX.s, a host tool's
	 * object), reused by the slot's next step */
	struct kbuild_dataset *ds;
	/* cpu_time = whole: per step, the CPU its first process runs beyond
	 * its own measured time (the gcc driver's own, the unrecorded
	 * processes' share), ns */
	double *step_extra_user, *step_extra_sys;
	struct address_space **file, **out, **scratch;
	uint8_t *reaped;                /* per step */
	struct kbuild_proc_trace *trace;        /* per process of the steps, ds->procs order */
	unsigned nr_cc;                 /* cc steps run (the "units") */
	/* the measured tree's names (dcache.h): the build's directory, each
	 * file's name, where each of gcc's failed tries for a header ends
	 * (neg[neg_off[f] .. neg_off[f + 1]]), each step's output's name */
	uint32_t cwd;
	uint32_t *file_name, *neg_off, *neg, *out_name;
	unsigned long tmp_seq;          /* mkstemps' names, /tmp/ccXXXXXX */
	unsigned long failed_lookups;   /* this iteration's: opens that found no file */

	/* make */
	struct workload *w;
	struct task *make;
	struct exec_maps make_exec;     /* make's text (exec.h) */
	struct kb_slot *slots;
	unsigned nr_running, next_step, units_reaped, archives_reaped;
	bool make_grown;
	uint8_t *status;                /* per step */
	double *step_utime;             /* per step, as reaped */

	/* results */
	double user_ns, system_ns, make_user_ns;
	unsigned units_done, jobs_failed, oom_killed;
	bool build_failed;
};

/* one process of the build beyond make */
struct kb_job {
	struct kbuild *kb;
	enum kb_kind kind;
	unsigned step;
	double user_ns, done_ns;
	double sys_ns;                  /* cpu_time = whole: kernel CPU outside mm, spent with user_ns */
	unsigned long peak, grown, base;
	double ramp, read_fraction, write_from;
	unsigned nr_inputs, next_input;
	unsigned long input_pages, read_pages;
	uint32_t *headers;              /* cc1: header indices, in include order */
	struct address_space **out;     /* where its output inode is kept */
	struct address_space **in;      /* measured tree: its inputs (NULL: by kind) */
	uint32_t *in_id;
	struct kbuild_proc_trace *trace;        /* measured tree: where its life is recorded */
	struct address_space **unlink;  /* measured tree: the temporary it read, deleted at its exit */
	unsigned long hiwater;          /* largest rss_anon seen */
	uint32_t out_id;                /* file number of the output (metadata) */
	uint32_t out_name;              /* measured tree: the output's name, or DNAME_NONE */
	bool include_search;            /* measured cc1: its headers are searched for (-I) */
	unsigned long out_pages, written;
	slab_obj_t *vmas;
	unsigned nr_vmas;
	struct exec_maps exec;          /* its programs' text (exec.h) */
	gsl_rng *rng;
	bool started, ended, failed;
};

/* file numbers, for their place in the metadata */
static inline uint32_t src_id(const struct kbuild *kb, unsigned i) { (void)kb; return i; }
static inline uint32_t hdr_id(const struct kbuild *kb, unsigned h) { return kb->nr_units + h; }
static inline uint32_t obj_id(const struct kbuild *kb, unsigned i) { return kb->nr_units + kb->headers + i; }
static inline uint32_t arc_id(const struct kbuild *kb, unsigned a) { return 2 * kb->nr_units + kb->headers + a; }
static inline uint32_t vmlinux_id(const struct kbuild *kb) { return 2 * kb->nr_units + kb->headers + kb->nr_archives; }
/* a measured tree: its files, then the steps' outputs, the slots' temporaries */
static inline uint32_t ds_out_id(const struct kbuild *kb, unsigned s) { return kb->ds->nr_files + s; }
static inline uint32_t ds_scratch_id(const struct kbuild *kb, unsigned k)
{
	return kb->ds->nr_files + kb->ds->nr_steps + k;
}
static inline uint32_t tree_id(const struct kbuild *kb, unsigned i)
{
	if (kb->ds)
		return ds_scratch_id(kb, 2 * kb->nr_jobs) + i;
	return vmlinux_id(kb) + 1 + i;
}

/* kbuild.c */
int kb_load(struct kbuild *kb, char *err, size_t errlen);
void kb_size(struct kbuild *kb);

/* kbuild_cpu.c */
int kb_step_cpu(struct kbuild *kb, char *err, size_t errlen);

/* kbuild_synth.c */
gsl_rng *kb_rng_for(const struct workload *w, uint64_t entity);
gsl_rng *kb_rng(const struct kbuild *kb, uint64_t entity);
int kb_create_files(struct pglist_data *pgdat, gsl_rng *r, struct address_space **as, unsigned n,
                    double kib);
int kb_create_synthetic_tree(struct kbuild *kb);
struct task *kb_spawn_step(struct kbuild *kb, unsigned step);

/* kbuild_measured.c */
bool kb_chain_tool(uint8_t tool);
int kb_chain_proc(const struct kbuild *kb, unsigned step, unsigned k);
struct task *kb_spawn_measured(struct kbuild *kb, struct kb_slot *s, unsigned step, unsigned k);
int kb_create_measured_tree(struct kbuild *kb);
int kb_measured_unit(struct kbuild *kb, unsigned step, struct kbuild_unit *u);

/* kbuild_names.c */
int kb_build_names(struct kbuild *kb, char *err, size_t errlen);
uint32_t kb_name(const struct kbuild *kb, uint32_t base, const char *path);

/* kbuild_files.c */
slab_obj_t kb_open(struct kbuild *kb, struct mm_ctx *ctx, struct address_space *as, uint32_t id);
void kb_close(struct kbuild *kb, struct mm_ctx *ctx, slab_obj_t filp);
int kb_include_search(struct kbuild *kb, struct mm_ctx *ctx, uint32_t f);
struct address_space *kb_create(struct kbuild *kb, struct mm_ctx *ctx, uint32_t id, uint32_t name);
int kb_create_bdev(struct kbuild *kb, unsigned long files);

/* kbuild_job.c */
extern const struct task_ops kb_job_ops;
struct address_space *kb_job_input(const struct kb_job *j, unsigned k, uint32_t *id);
unsigned long kb_job_input_weight(const struct kb_job *j, const struct address_space *as);

/* kbuild_make.c */
extern const struct task_ops kb_make_ops;
int kb_alloc_steps(struct kbuild *kb);
int kb_spawn_make(struct kbuild *kb, char *err, size_t errlen);
void kb_build_done(struct kbuild *kb);

/* kbuild_warm.c */
void kb_warm_fill(struct kbuild *kb);

#endif
