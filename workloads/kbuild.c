/* kbuild.c - make -jN over a synthetic kernel source tree: the measured
 * workload of the RFC's experiment (a kernel build under memory pressure
 * beside a THP faulter).  docs/workloads.md describes the model, each
 * parameter, the defaults and where they come from.
 *
 * Processes:
 *   make   one small, long-lived process.  Each quantum it reaps the jobs
 *          that exited (wait4: their user and system time go to the
 *          build's totals, as `time make` counts them), starts new ones
 *          while fewer than `jobs` run (fork+exec: engine_spawn()), and
 *          when it has nothing to start sleeps in wait4() until a job
 *          exits (SIGCHLD), or `poll` seconds if set.  Order:
 *          every compile unit, then the archive steps (ar of built-in.a),
 *          then the final link; when the link is reaped the build is
 *          finished (workload_finished()).
 *   cc1    one per compile unit, parameters drawn from (seed, unit index):
 *          reads its .c and its headers through the page cache during the
 *          parsing part of its run (path lookups read the filesystem's
 *          metadata through the block-device cache when the dentry is not
 *          cached), grows its anonymous memory (brk) to its peak and keeps
 *          re-touching part of it, writes its .o at the end (creating the
 *          file writes inode, directory, bitmap and journal blocks of the
 *          block-device cache), and exits.
 *   ar     stats a share of the objects, writes a thin archive (no symbol index).
 *   ld     reads every object, grows a large anonymous footprint, writes
 *          vmlinux.
 *
 * Every job runs a full quantum of user time per quantum (its drawn CPU
 * time, a quantum at a time) and performs the memory events that belong to
 * that much progress: the user time of the build does not depend on the
 * policy, its real and system time do. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "exec.h"
#include "kbuild.h"
#include "kbuild_data.h"
#include "mmsim/dcache.h"
#include "mmsim/parse.h"
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

#define DEFAULT_TREE "linux-6.1-defconfig"

/* tree = synthetic, a dataset name or a path: the dataset is loaded
 * (and checked) by kb_validate and kb_load */
static int kb_set_tree(void *owner, const char *value, char *err, size_t errlen)
{
	struct kbuild *kb = owner;

	if (!*value) {
		snprintf(err, errlen, "'' is not synthetic, a dataset name or a path");
		return -1;
	}
	if (strlen(value) >= sizeof(kb->tree_name)) {
		snprintf(err, errlen, "a path of %zu characters, longer than PATH_MAX - 1", strlen(value));
		return -1;
	}
	snprintf(kb->tree_name, sizeof(kb->tree_name), "%s", value);
	kb->synthetic = !strcmp(value, "synthetic");
	kbuild_dataset_free(kb->ds);
	kb->ds = NULL;
	return 0;
}

static const char *const kb_cache_choices[] = { "cold", "warm", NULL };
static const char *const kb_cpu_choices[] = { "chain", "whole", NULL };

#define KB(field) PARAM_AT(struct kbuild, field)
#define TIB16 (16.0 * (1ull << 40))

/* The parameters: one entry each (mmsim/param.h): name, kind, unit,
 * range, default, help, field; .scale converts the text's unit to the
 * field's (seconds to ns), .word is a word accepted instead of a number. */
static const struct param kbuild_params[] = {
	{ "tree", PARAM_CUSTOM, NULL, 0, 0, DEFAULT_TREE, "the build: a measured one (a dataset name of "
	  "workloads/data/kbuild, or a path) or synthetic (the generator and its parameters)",
	  .store = PARAM_ST_NONE, .set = kb_set_tree },
	{ "jobs", PARAM_INT, NULL, 1, 4096, "auto", "make -j: compile jobs running at most at once; auto = the "
	  "machine's CPUs", KB(jobs), .word = "auto", .word_value = 0 },
	{ "units", PARAM_INT, NULL, 1, 1000000, "2700", "compile units (cc1 jobs) of the whole build (x86-64 "
	  "defconfig: about 2,700)", KB(units) },
	{ "scale", PARAM_DOUBLE, NULL, 0, 1, "1", "fraction of the build to run: units, archive steps, link "
	  "time, link memory and vmlinux size scale with it (headers do not)", KB(scale), .flags = PARAM_GT_MIN },
	{ "user_time_mean", PARAM_DOUBLE, "seconds", 0, 1e4, "0.4", "mean CPU seconds of one compile unit "
	  "(lognormal)", KB(user_mean), .flags = PARAM_GT_MIN, .scale = 1e9 },
	{ "user_time_sigma", PARAM_DOUBLE, NULL, 0, 3, "1.0", "lognormal sigma of a unit's CPU time", KB(user_sigma) },
	{ "rss_mean", PARAM_PAGES, "bytes", 4096, TIB16, "90M", "mean peak anonymous memory of a compile unit "
	  "(lognormal)", KB(rss_mean) },
	{ "rss_sigma", PARAM_DOUBLE, NULL, 0, 3, "0.45", "lognormal sigma of a unit's peak anonymous memory",
	  KB(rss_sigma) },
	{ "rss_time_corr", PARAM_DOUBLE, NULL, -1, 1, "0.5", "correlation of a unit's peak memory with its CPU "
	  "time", KB(rss_corr) },
	{ "ramp_min", PARAM_DOUBLE, NULL, 0, 1, "0.3", "a unit's memory grows linearly to its peak by a fraction "
	  "of its run drawn uniformly from [ramp_min, 1]", KB(ramp_min), .flags = PARAM_GT_MIN },
	{ "touch", PARAM_DOUBLE, NULL, 0, 1, "0.25", "fraction of its anonymous memory a job re-accesses each "
	  "quantum", KB(touch) },
	{ "parse_fraction", PARAM_DOUBLE, NULL, 0, 1, "0.3", "fraction of a unit's run over which it reads its "
	  "source and headers", KB(parse_fraction) },
	{ "headers", PARAM_INT, NULL, 1, 1000000, "4000", "header files in the tree", KB(headers) },
	{ "header_kib", PARAM_DOUBLE, "KiB", 0, 1e6, "8", "mean header size (lognormal, sigma 1)", KB(header_kib),
	  .flags = PARAM_GT_MIN },
	{ "headers_per_unit", PARAM_DOUBLE, NULL, 0, 1e6, "400", "mean number of distinct headers a unit reads "
	  "(lognormal, sigma 0.3)", KB(headers_per_unit) },
	{ "zipf", PARAM_DOUBLE, NULL, 0, 10, "1.0", "Zipf exponent of header popularity (0: uniform)", KB(zipf) },
	{ "source_kib", PARAM_DOUBLE, "KiB", 0, 1e6, "20", "mean .c size (lognormal, sigma 0.8)", KB(source_kib),
	  .flags = PARAM_GT_MIN },
	{ "object_kib", PARAM_DOUBLE, "KiB", 0, 1e6, "32", "mean .o size (lognormal, sigma 0.8)", KB(object_kib),
	  .flags = PARAM_GT_MIN },
	{ "vmas", PARAM_INT, NULL, 0, 65536, "60", "vm_area_structs an exec'ed job maps beyond fork's (binary, "
	  "libraries, stack)", KB(vmas) },
	{ "make_rss", PARAM_PAGES, "bytes", 0, TIB16, "32M", "make's anonymous memory", KB(make_rss) },
	{ "make_target_ms", PARAM_DOUBLE, "milliseconds", 0, 1e6, "2", "make's CPU milliseconds per job it "
	  "starts (rules, recipe, fork+exec)", KB(make_target_ns), .scale = 1e6 },
	{ "poll", PARAM_DOUBLE, "seconds", PARAM_PERIOD_FLOOR, 10, "wait", "what make does when it has nothing "
	  "to start or reap: wait (sleep in wait4() until a job exits) or seconds to sleep and look again",
	  KB(poll), .word = "wait", .word_value = 0 },
	{ "archives", PARAM_INT, NULL, 0, 100000, "16", "ar steps (built-in.a), each naming (stat, no read) its "
	  "share of the objects", KB(archives) },
	{ "ar_time", PARAM_DOUBLE, "seconds", 0, 1e4, "0.05", "CPU seconds of one ar step", KB(ar_ns), .scale = 1e9 },
	{ "ar_rss", PARAM_PAGES, "bytes", 0, TIB16, "8M", "anonymous memory of one ar step", KB(ar_rss) },
	{ "link_time", PARAM_DOUBLE, "seconds", 0, 1e5, "20", "CPU seconds of the final link (ld passes, "
	  "kallsyms, modpost)", KB(link_ns), .scale = 1e9 },
	{ "link_rss", PARAM_PAGES, "bytes", 0, TIB16, "400M", "peak anonymous memory of the final link",
	  KB(link_rss) },
	{ "vmlinux_size", PARAM_PAGES, "bytes", 0, TIB16, "60M", "size of the linked vmlinux", KB(vmlinux_pages) },
	{ "tree_files", PARAM_INT, NULL, 0, 10000000, "70000", "files of the tree make stats beyond those "
	  "compiled (prerequisites, Makefiles, Kconfig, the other headers), times scale: each brings a dentry "
	  "and an inode into the slab caches", KB(tree_files) },
	{ "tree_kib", PARAM_DOUBLE, "KiB", 0.1, 1048576, "14", "mean size of those files (lognormal, sigma 1); "
	  "read only by a warm start", KB(tree_kib) },
	{ "cache", PARAM_ENUM, NULL, 0, 0, "cold", "the page cache at the start: cold (nothing cached) or warm "
	  "(the tree read before the build, as far as memory allows)", KB(warm), .choices = kb_cache_choices },
	{ "cpu_time", PARAM_ENUM, NULL, 0, 0, "chain", "a measured tree's CPU time: chain (each recorded "
	  "compiler, assembler, linker and archiver process's user time; the kernel time is the model's "
	  "mm work) or whole (also each one's measured system time, the gcc driver's own time and the rest "
	  "of make's children as the dataset's rusage totals give them: the build's whole CPU)",
	  KB(cpu_whole), .choices = kb_cpu_choices },
	{ NULL },
};


/* the keys of the synthetic generator: a measured tree gives these values
 * itself, and setting one (to other than its default) beside it is an
 * error (kb_validate) */
static const char *const synth_keys[] = {
	"units", "user_time_mean", "user_time_sigma", "rss_mean", "rss_sigma", "rss_time_corr",
	"headers", "header_kib", "headers_per_unit", "zipf", "source_kib", "object_kib", "archives",
	"ar_time", "ar_rss", "link_time", "link_rss", "vmlinux_size", "tree_files", "tree_kib", NULL,
};

/* the first synthetic-only key whose value is not its default, or NULL */
static const char *synth_key_set(const struct kbuild *kb)
{
	static struct kbuild def;       /* the defaults, parsed once */
	static bool have_def;
	char err[256];

	if (!have_def) {
		for (int i = 0; synth_keys[i]; i++) {
			const struct param *p = param_find(kbuild_params, synth_keys[i]);
			if (param_set(p, &def, p->def, err, sizeof(err)))
				return NULL;
		}
		have_def = true;
	}
	for (int i = 0; synth_keys[i]; i++) {
		const struct param *p = param_find(kbuild_params, synth_keys[i]);
		if (memcmp((const char *)kb + p->off, (const char *)&def + p->off, p->size))
			return synth_keys[i];
	}
	return NULL;
}

static int kb_validate(struct workload *w, char *err, size_t errlen)
{
	struct kbuild *kb = w->priv;

	/* the Zipf table depends on headers and zipf: built again at start */
	free(kb->zipf_cdf);
	kb->zipf_cdf = NULL;
	if (!kb->synthetic) {
		char path[4096];
		const char *key = synth_key_set(kb);
		if (key) {
			snprintf(err, errlen, "kbuild.%s: only for tree = synthetic (tree = %s "
			         "measured it)", key, kb->tree_name);
			return -1;
		}
		return kbuild_dataset_find(kb->tree_name, path, sizeof(path), err, errlen);
	}
	if (kb->cpu_whole) {
		snprintf(err, errlen, "kbuild.cpu_time: whole needs a measured tree (tree = synthetic "
		         "has no measured times)");
		return -1;
	}
	if (kb->headers_per_unit > kb->headers) {
		snprintf(err, errlen, "kbuild: headers_per_unit (%g) exceeds headers (%u)",
		         kb->headers_per_unit, kb->headers);
		return -1;
	}
	return 0;
}

/*
 * cpu_time = whole: the build's CPU as make's rusage counted it.  The
 * model runs a step's chain (cc1, as, ld, ar) for their measured user
 * time; the rest of what the build ran on the CPU is charged here, as
 * measured: each chain process's system time (exec, syscalls, VFS: the
 * kernel work the model has no mechanism for; the model's own mm work,
 * faults and reclaim, comes on top, and the measured system time of a
 * build on an unpressed machine holds its faults too: the overlap is the
 * model's system time of such a build, a few percent), the top-level
 * processes' own time beyond their chain (the gcc driver, collect2), and
 * what make's recipes ran unrecorded (sh, fixdep, objtool, scripts): the
 * dataset's rusage totals less every recorded top-level process, spread
 * evenly over the steps.  All of it runs in the step's first process.
 */
static bool chain_tool(uint8_t tool);

static int kb_step_cpu(struct kbuild *kb, char *err, size_t errlen)
{
	const struct kbuild_dataset *d = kb->ds;
	double rec_user = 0, rec_sys = 0, un_user, un_sys;

	free(kb->step_extra_user);
	free(kb->step_extra_sys);
	kb->step_extra_user = calloc(d->nr_steps ? d->nr_steps : 1, sizeof(double));
	kb->step_extra_sys = calloc(d->nr_steps ? d->nr_steps : 1, sizeof(double));
	if (!kb->step_extra_user || !kb->step_extra_sys) {
		snprintf(err, errlen, "kbuild: out of memory");
		return -1;
	}
	for (uint32_t s = 0; s < d->nr_steps; s++) {
		const struct kbd_step *st = &d->steps[s];
		double top_u = 0, top_s = 0, chain_u = 0, chain_s = 0;
		bool gcc = false, collect2 = false;

		for (uint32_t i = 0; i < st->nr_procs; i++) {
			uint8_t t = d->procs[st->proc_off + i].tool;
			gcc |= t == KBD_GCC;
			collect2 |= t == KBD_COLLECT2;
		}
		for (uint32_t i = 0; i < st->nr_procs; i++) {
			const struct kbd_proc *p = &d->procs[st->proc_off + i];
			/* wait4 of the top level counts its children: gcc holds
			 * cc1, as, collect2 and collect2's ld; ar, and an ld
			 * outside gcc, are their own */
			bool top = p->tool == KBD_GCC || p->tool == KBD_TOOL_AR || p->tool == KBD_OTHER ||
			           (p->tool == KBD_TOOL_LD && !collect2) ||
			           (!gcc && p->tool != KBD_TOOL_LD);
			if (top) {
				top_u += p->user_us * 1e3;
				top_s += p->sys_us * 1e3;
			}
			if (chain_tool(p->tool)) {
				chain_u += p->user_us * 1e3;
				chain_s += p->sys_us * 1e3;
			}
		}
		rec_user += top_u;
		rec_sys += top_s;
		kb->step_extra_user[s] = top_u > chain_u ? top_u - chain_u : 0;
		kb->step_extra_sys[s] = top_s > chain_s ? top_s - chain_s : 0;
	}
	un_user = d->rusage_user_s * 1e9 > rec_user ? d->rusage_user_s * 1e9 - rec_user : 0;
	un_sys = d->rusage_sys_s * 1e9 > rec_sys ? d->rusage_sys_s * 1e9 - rec_sys : 0;
	for (uint32_t s = 0; d->nr_steps && s < d->nr_steps; s++) {
		kb->step_extra_user[s] += un_user / d->nr_steps;
		kb->step_extra_sys[s] += un_sys / d->nr_steps;
	}
	return 0;
}

/* the measured tree, loaded once */
static int kb_load(struct kbuild *kb, char *err, size_t errlen)
{
	char path[4096];

	if (kb->synthetic || kb->ds)
		return 0;
	if (kbuild_dataset_find(kb->tree_name, path, sizeof(path), err, errlen))
		return -1;
	kb->ds = kbuild_dataset_load(path, err, errlen);
	if (!kb->ds)
		return -1;
	return kb->cpu_whole ? kb_step_cpu(kb, err, errlen) : 0;
}

/* the build's size after scale; a measured tree runs the first `scale`
 * of its steps in their measured order (a prefix of the real build) */
static void kb_size(struct kbuild *kb)
{
	if (kb->ds) {
		long n = lround(kb->ds->nr_steps * kb->scale);
		kb->nr_steps = n < 1 ? 1 : (unsigned)n;
		kb->nr_units = kb->nr_archives = 0;
		for (unsigned i = 0; i < kb->nr_steps; i++) {
			kb->nr_units += kb->ds->steps[i].kind == KBD_CC;
			kb->nr_archives += kb->ds->steps[i].kind == KBD_AR;
		}
		return;
	}
	kb->nr_units = (unsigned)lround(kb->units * kb->scale);
	if (kb->nr_units < 1)
		kb->nr_units = 1;
	kb->nr_archives = (unsigned)ceil(kb->archives * kb->scale);
	if (kb->nr_archives > kb->nr_units)
		kb->nr_archives = kb->nr_units;
	kb->nr_steps = kb->nr_units + kb->nr_archives + 1;
}

/* ------------------------------------------------------------ drawing */

static unsigned long kib_pages(double kib)
{
	double p = ceil(kib * 1024 / PAGE_SIZE);
	return p < 1 ? 1 : (unsigned long)p;
}

/* lognormal with the given mean */
static double lognormal_mean(gsl_rng *r, double mean, double sigma)
{
	return mean * exp(sigma * gsl_ran_ugaussian(r) - sigma * sigma / 2);
}

/* n files of the tree with lognormal sizes (mean kib, sigma HEADER_SIGMA)
 * drawn in order from r, which is freed; -1 if one cannot be created */
static int create_files(struct pglist_data *pgdat, gsl_rng *r, struct address_space **as, unsigned n,
                        double kib)
{
	int ret = 0;

	for (unsigned i = 0; i < n && !ret; i++)
		if (!(as[i] = inode_create(pgdat, kib_pages(lognormal_mean(r, kib, HEADER_SIGMA)), false)))
			ret = -1;
	gsl_rng_free(r);
	return ret;
}

static int zipf_prepare(struct kbuild *kb)
{
	double sum = 0;

	if (kb->zipf_cdf)
		return 0;
	kb->zipf_cdf = malloc(kb->headers * sizeof(double));
	if (!kb->zipf_cdf)
		return -1;
	for (unsigned h = 0; h < kb->headers; h++)
		kb->zipf_cdf[h] = sum += pow(h + 1.0, -kb->zipf);
	for (unsigned h = 0; h < kb->headers; h++)
		kb->zipf_cdf[h] /= sum;
	return 0;
}

/* header index of a uniform variate: the first h with cdf[h] > u */
static uint32_t zipf_pick(const struct kbuild *kb, double u)
{
	unsigned lo = 0, hi = kb->headers - 1;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (kb->zipf_cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A unit's parameters from its own generator, always in this order.  The
 * source size comes first: start() draws only that to create the file.
 * headers (nr_headers entries), if given, receives the distinct headers
 * in include order: Zipf draws, repeats skipped; after 32 draws per
 * header wanted, the least popular missing ones fill the list. */
static void draw_unit(struct kbuild *kb, gsl_rng *r, struct kbuild_unit *u, uint32_t *headers)
{
	double zt, zr, rho = kb->rss_corr;
	uint64_t hash = 1469598103934665603ull;
	unsigned long draws = 0;
	uint8_t *seen;
	unsigned n = 0;

	memset(u, 0, sizeof(*u));
	u->source_pages = kib_pages(lognormal_mean(r, kb->source_kib, SOURCE_SIGMA));
	zt = gsl_ran_ugaussian(r);
	zr = gsl_ran_ugaussian(r);
	u->user_ns = kb->user_mean * exp(kb->user_sigma * zt - kb->user_sigma * kb->user_sigma / 2);
	zr = rho * zt + sqrt(1 - rho * rho) * zr;
	u->peak_pages = (unsigned long)ceil(kb->rss_mean * exp(kb->rss_sigma * zr -
	                                                       kb->rss_sigma * kb->rss_sigma / 2));
	u->ramp = kb->ramp_min + (1 - kb->ramp_min) * gsl_rng_uniform(r);
	u->nr_headers = (unsigned)lround(lognormal_mean(r, kb->headers_per_unit, NR_HEADERS_SIGMA));
	if (u->nr_headers > kb->headers)
		u->nr_headers = kb->headers;
	u->object_pages = kib_pages(lognormal_mean(r, kb->object_kib, OBJECT_SIGMA));
	if (!headers || zipf_prepare(kb))
		return;
	seen = calloc(kb->headers / 8 + 1, 1);
	if (!seen)
		abort();
	while (n < u->nr_headers && draws++ < 32ul * u->nr_headers) {
		uint32_t h = zipf_pick(kb, gsl_rng_uniform(r));
		if (seen[h / 8] & (1u << (h % 8)))
			continue;
		seen[h / 8] |= (uint8_t)(1u << (h % 8));
		headers[n++] = h;
	}
	for (uint32_t h = kb->headers; n < u->nr_headers && h-- > 0;)
		if (!(seen[h / 8] & (1u << (h % 8))))
			headers[n++] = h;
	free(seen);
	for (unsigned i = 0; i < n; i++)
		hash = (hash ^ headers[i]) * 1099511628211ull;
	u->headers_hash = hash;
}

static gsl_rng *rng_for(const struct workload *w, uint64_t entity)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);

	if (!r)
		abort();
	gsl_rng_set(r, (unsigned long)workload_seed(w, entity));
	return r;
}

static int measured_unit(struct kbuild *kb, unsigned step, struct kbuild_unit *u);

int kbuild_unit_params(const struct workload *w, unsigned unit, struct kbuild_unit *u)
{
	struct kbuild *kb = w->priv;
	uint32_t *headers;
	gsl_rng *r;
	char err[256];

	if (strcmp(w->ops->name, "kbuild") || kb_load(kb, err, sizeof(err)))
		return -1;
	kb_size(kb);
	if (kb->ds)
		return unit < kb->nr_steps ? measured_unit(kb, unit, u) : -1;
	if (unit >= kb->nr_units)
		return -1;
	headers = malloc((kb->headers + 1) * sizeof(uint32_t));
	if (!headers)
		return -1;
	r = rng_for(w, unit);
	draw_unit(kb, r, u, headers);
	gsl_rng_free(r);
	free(headers);
	return 0;
}

/* ------------------------------------------------------------ files */

/* file numbers, for their place in the metadata */
static uint32_t src_id(const struct kbuild *kb, unsigned i) { (void)kb; return i; }
static uint32_t hdr_id(const struct kbuild *kb, unsigned h) { return kb->nr_units + h; }
static uint32_t obj_id(const struct kbuild *kb, unsigned i) { return kb->nr_units + kb->headers + i; }
static uint32_t arc_id(const struct kbuild *kb, unsigned a) { return 2 * kb->nr_units + kb->headers + a; }
static uint32_t vmlinux_id(const struct kbuild *kb) { return 2 * kb->nr_units + kb->headers + kb->nr_archives; }
/* a measured tree: its files, then the steps' outputs, the slots' temporaries */
static uint32_t ds_out_id(const struct kbuild *kb, unsigned s) { return kb->ds->nr_files + s; }
static uint32_t ds_scratch_id(const struct kbuild *kb, unsigned k)
{
	return kb->ds->nr_files + kb->ds->nr_steps + k;
}
static uint32_t tree_id(const struct kbuild *kb, unsigned i)
{
	if (kb->ds)
		return ds_scratch_id(kb, 2 * kb->nr_jobs) + i;
	return vmlinux_id(kb) + 1 + i;
}

/* What a path walk read from the disk: each component not in the dcache
 * (ext4_lookup) reads a block of its directory, each inode not cached
 * (ext4_iget) a block of the inode table, through the block-device
 * cache.  A file's directory entry and inode are at its number's place;
 * a name that exists nowhere (a failed try) at its name's. */
static int kb_lookup_io(struct kbuild *kb, struct mm_ctx *ctx, const struct d_walk_stats *st,
                        unsigned long dir_block, unsigned long inode_block)
{
	struct pglist_data *pgdat = kb->w->pgdat;

	if (st->lookups && filemap_read(pgdat, ctx, kb->bdev, kb->bdev_dirs + dir_block % kb->dir_blocks, 1))
		return -1;
	if (st->igets && filemap_read(pgdat, ctx, kb->bdev, inode_block, 1))
		return -1;
	return 0;
}

/* open(): the path walk to the file (dcache.h: a dentry per component
 * not cached, the inode if not cached), then the struct file lives while
 * the file is read (kmalloc-256 stands for the filp cache) */
static slab_obj_t kb_open(struct kbuild *kb, struct mm_ctx *ctx, struct address_space *as, uint32_t id)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct d_walk_stats st = { 0 };
	int rc;

	if (as->dname != DNAME_NONE)
		rc = d_walk(pgdat, ctx, as->dname, true, &st);
	else
		rc = d_open_file(pgdat, ctx, as, &st);
	if (rc || kb_lookup_io(kb, ctx, &st, id / DIRENTS_PER_BLOCK, id / INODES_PER_BLOCK))
		return SLAB_OBJ_NONE;
	return kmem_cache_alloc(pgdat, ctx, KMALLOC_256, GFP_KERNEL, id);
}

static void kb_close(struct kbuild *kb, struct mm_ctx *ctx, slab_obj_t filp)
{
	kmem_cache_free(kb->w->pgdat, ctx, KMALLOC_256, filp);
}

/* gcc's include search for header f (libcpp's find_file_in_dir): an
 * open() of the header's name in each -I directory before the one that
 * holds it, each failing (ENOENT) at the first component that does not
 * exist, whose negative dentry stays in the dcache */
static int kb_include_search(struct kbuild *kb, struct mm_ctx *ctx, uint32_t f)
{
	struct pglist_data *pgdat = kb->w->pgdat;

	for (uint32_t k = kb->neg_off[f]; k < kb->neg_off[f + 1]; k++) {
		struct d_walk_stats st = { 0 };
		int rc = d_walk(pgdat, ctx, kb->neg[k], false, &st);

		if (rc == -ENOMEM)
			return -1;
		kb->failed_lookups++;
		if (kb_lookup_io(kb, ctx, &st, kb->neg[k] / DIRENTS_PER_BLOCK, 0))
			return -1;
	}
	return 0;
}

/* creat(): ext4_create dirties the inode-table block, the directory
 * block and the inode and block bitmaps, and jbd2 writes the transaction
 * to the journal: all block-device cache pages.  A named file is looked
 * up first (a negative dentry, instantiated with the new inode). */
static struct address_space *kb_create(struct kbuild *kb, struct mm_ctx *ctx, uint32_t id, uint32_t name)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct address_space *as;

	if (filemap_write(pgdat, ctx, kb->bdev, id / INODES_PER_BLOCK, 1) ||
	    filemap_write(pgdat, ctx, kb->bdev, kb->bdev_dirs + id / DIRENTS_PER_BLOCK, 1) ||
	    filemap_write(pgdat, ctx, kb->bdev, kb->bdev_bitmap, 2) ||
	    filemap_write(pgdat, ctx, kb->bdev, kb->bdev_journal + kb->journal_next, 1))
		return NULL;
	kb->journal_next = (kb->journal_next + 1) % JOURNAL_PAGES;
	as = inode_create(pgdat, 0, false);
	if (as && name != DNAME_NONE) {
		int rc = d_create(pgdat, ctx, name, as, NULL);
		/* a name made twice in one build (an output two steps write)
		 * keeps its first file; the second is left without a name */
		if (rc && rc != -EEXIST)
			return NULL;
	}
	return as;
}

/* ------------------------------------------------------------ jobs */

static struct address_space *job_input(const struct kb_job *j, unsigned k, uint32_t *id)
{
	const struct kbuild *kb = j->kb;
	unsigned first;

	if (j->in) {
		*id = j->in_id[k];
		return j->in[k];
	}
	switch (j->kind) {
	case KB_CC1:
		if (k == 0) {
			*id = src_id(kb, j->step);
			return kb->src[j->step];
		}
		*id = hdr_id(kb, j->headers[k - 1]);
		return kb->hdr[j->headers[k - 1]];
	case KB_AR:
		first = (unsigned)((unsigned long)(j->step - kb->nr_units) * kb->nr_units / kb->nr_archives);
		*id = obj_id(kb, first + k);
		return kb->obj[first + k];
	case KB_LD:
		*id = obj_id(kb, k);
		return kb->obj[k];
	case KB_AS:
		break;
	}
	return NULL;
}

/* what one input counts toward a job's reading progress: its pages, or
 * for ar, which reads none, one per member */
static unsigned long job_input_weight(const struct kb_job *j, const struct address_space *as)
{
	return j->kind == KB_AR ? 1 : as->size;
}

/* read the inputs up to the share of them this progress calls for; each
 * file is read whole in one go (a few pages: one readahead window) */
static int job_read(struct kb_job *j, struct mm_ctx *ctx, double p)
{
	struct pglist_data *pgdat = j->kb->w->pgdat;
	bool all = p >= j->read_fraction;
	double target = all ? 0 : j->input_pages * p / j->read_fraction;

	while (j->next_input < j->nr_inputs && (all || j->read_pages < target)) {
		uint32_t id;
		struct address_space *as = job_input(j, j->next_input, &id);
		slab_obj_t filp;

		j->next_input++;
		if (!as)
			continue;       /* an object whose compile failed */
		/* a header (not the source, the first input) is searched for */
		if (j->include_search && (j->next_input > 1 || j->kb->ds->steps[j->step].src < 0) &&
		    kb_include_search(j->kb, ctx, id))
			return -1;
		if ((filp = kb_open(j->kb, ctx, as, id)) == SLAB_OBJ_NONE)
			return -1;
		/* kbuild's `ar cDPrST` (thin, no symbol index: the S) only
		 * names its members: it stats them and reads none of them */
		if (j->kind != KB_AR && as->size && filemap_read(pgdat, ctx, as, 0, as->size)) {
			kb_close(j->kb, ctx, filp);
			return -1;
		}
		kb_close(j->kb, ctx, filp);
		j->read_pages += job_input_weight(j, as);
	}
	return 0;
}

/* grow the anonymous memory (brk, written) to the share of the peak this
 * progress calls for, then re-access a window of it (the compiler walks
 * its trees and its garbage collector marks) */
static int job_grow(struct kb_job *j, struct task *t, struct mm_ctx *ctx, double p)
{
	struct pglist_data *pgdat = j->kb->w->pgdat;
	unsigned long target = p >= j->ramp ? j->peak : (unsigned long)(j->peak * p / j->ramp);
	unsigned long hot;

	if (target > j->grown) {
		unsigned long n = target - j->grown, v = mm_grow(t->mm, n);
		if (!j->grown)
			j->base = v;
		j->grown += n;
		if (mm_access(pgdat, ctx, t->mm, v, n, true))
			return -1;
	}
	hot = (unsigned long)(j->grown * j->kb->touch);
	if (hot) {
		unsigned long off = 0;
		if (j->grown > hot)
			off = gsl_rng_uniform_int(j->rng, j->grown - hot + 1);
		if (mm_access(pgdat, ctx, t->mm, j->base + off, hot, false))
			return -1;
	}
	return 0;
}

/* write the output from write_from to the end of the run; the first write
 * creates the file */
static int job_write(struct kb_job *j, struct mm_ctx *ctx, double p)
{
	struct pglist_data *pgdat = j->kb->w->pgdat;
	unsigned long target;

	if (p < j->write_from)
		return 0;
	target = p >= 1 ? j->out_pages
	         : (unsigned long)(j->out_pages * (p - j->write_from) / (1 - j->write_from));
	if (!*j->out && !(*j->out = kb_create(j->kb, ctx, j->out_id, j->out_name)))
		return -1;
	if (target > j->written) {
		if (filemap_write(pgdat, ctx, *j->out, j->written, target - j->written))
			return -1;
		j->written = target;
	}
	return 0;
}

/* exec's mappings (binary, loader, libraries, stack: vm_area_structs) */
static int job_exec(struct kb_job *j, struct task *t, struct mm_ctx *ctx)
{
	struct pglist_data *pgdat = j->kb->w->pgdat;

	j->vmas = malloc((j->kb->vmas + 1) * sizeof(slab_obj_t));
	if (!j->vmas)
		abort();
	for (unsigned i = 0; i < j->kb->vmas; i++) {
		j->vmas[i] = kmem_cache_alloc(pgdat, ctx, VM_AREA_CACHE, GFP_KERNEL, t->mm->id);
		if (j->vmas[i] == SLAB_OBJ_NONE)
			return -1;
		j->nr_vmas++;
	}
	/* the programs' text, mapped from the page cache */
	return exec_prog(pgdat, ctx, t->mm,
	                 j->kind == KB_CC1 ? PROG_CC1 : j->kind == KB_AS ? PROG_AS : j->kind == KB_AR ? PROG_AR : PROG_LD,
	                 &j->exec);
}

static void job_unmap_vmas(struct kb_job *j, struct mm_ctx *ctx)
{
	while (j->nr_vmas)
		kmem_cache_free(j->kb->w->pgdat, ctx, VM_AREA_CACHE, j->vmas[--j->nr_vmas]);
}

static double job_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct kb_job *j = arg;
	double q = t->engine->cfg.quantum * 1e9, run, p;

	if (j->ended) {
		job_unmap_vmas(j, ctx);         /* exit_mmap's remove_vma, charged at exit */
		return -1;
	}
	if (!j->started) {
		j->started = true;
		if (j->trace)
			j->trace->start = engine_now();
		if (job_exec(j, t, ctx))
			goto fail;
	}
	run = j->user_ns - j->done_ns;
	if (run > q)
		run = q;
	if (run < 0)
		run = 0;
	j->done_ns += run;
	/* its measured kernel time outside mm, spent along with its user time */
	if (j->sys_ns > 0 && j->user_ns > 0)
		ctx->kernel_ns += j->sys_ns * run / j->user_ns;
	if (j->user_ns - j->done_ns < 0.5) {
		j->ended = true;
		p = 1;
	} else
		p = j->done_ns / j->user_ns;
	if (job_read(j, ctx, p) || job_grow(j, t, ctx, p) || job_write(j, ctx, p) ||
	    exec_run(j->kb->w->pgdat, ctx, t->mm, &j->exec))
		goto fail;
	if (t->mm->rss_anon > j->hiwater)
		j->hiwater = t->mm->rss_anon;
	return run;
fail:
	j->failed = true;
	job_unmap_vmas(j, ctx);
	return -1;
}

static void job_exit(struct task *t, void *arg)
{
	struct kb_job *j = arg;
	struct kbuild *kb = j->kb;
	struct mm_ctx ctx = { .cpu = t->cpu, .mm = t->mm };

	/* an OOM kill stops the job between quanta: its kernel objects go now
	 * (this kernel time is not charged: a few objects) */
	job_unmap_vmas(j, &ctx);
	if (t->oom_killed || (t->mm && t->mm->oom_victim))
		kb->status[j->step] = ST_OOM;
	else if (!t->mm || j->failed || !j->ended)
		kb->status[j->step] = ST_FAILED;
	else
		kb->status[j->step] = ST_DONE;
	if (j->unlink && *j->unlink) {
		inode_unlink(kb->w->pgdat, &ctx, *j->unlink);
		*j->unlink = NULL;
	}
	if (j->trace) {
		j->trace->ran = true;
		j->trace->end = engine_now();
		j->trace->utime_ns = t->utime_ns;
		j->trace->hiwater_pages = j->hiwater;
	}
	gsl_rng_free(j->rng);
	free(j->vmas);
	free(j->headers);
	free(j->in);
	free(j->in_id);
	free(j);
}

static const struct task_ops kb_job_ops = {
	.quantum = job_quantum,
	.exit = job_exit,
};

/* make's fork+exec of one step */
static struct task *spawn_step(struct kbuild *kb, unsigned step)
{
	struct workload *w = kb->w;
	struct kb_job *j = calloc(1, sizeof(*j));
	const char *name;
	struct task *t;

	if (!j)
		abort();
	j->kb = kb;
	j->step = step;
	j->out_name = DNAME_NONE;       /* the synthetic tree's files have no names */
	if (step < kb->nr_units) {
		struct kbuild_unit u;
		j->kind = KB_CC1;
		name = "cc1";
		j->headers = malloc((kb->headers + 1) * sizeof(uint32_t));
		if (!j->headers)
			abort();
		j->rng = rng_for(w, step);
		draw_unit(kb, j->rng, &u, j->headers);
		j->user_ns = u.user_ns;
		j->peak = u.peak_pages;
		j->ramp = u.ramp;
		j->read_fraction = kb->parse_fraction;
		j->write_from = 0.9;            /* the assembler's share, writing the .o */
		j->nr_inputs = 1 + u.nr_headers;
		j->out = &kb->obj[step];
		j->out_id = obj_id(kb, step);
		j->out_pages = u.object_pages;
	} else if (step < kb->nr_units + kb->nr_archives) {
		unsigned a = step - kb->nr_units;
		unsigned first = (unsigned)((unsigned long)a * kb->nr_units / kb->nr_archives);
		unsigned end = (unsigned)((unsigned long)(a + 1) * kb->nr_units / kb->nr_archives);
		j->kind = KB_AR;
		name = "ar";
		j->rng = rng_for(w, ENTITY_ARCHIVE + a);
		j->user_ns = kb->ar_ns;
		j->peak = kb->ar_rss;
		j->ramp = 0.5;
		j->read_fraction = 0.8;
		j->write_from = 0.8;
		j->nr_inputs = end - first;
		j->out = &kb->arc[a];
		j->out_id = arc_id(kb, a);
		/* a thin archive: the symbol index and member names */
		j->out_pages = 1 + j->nr_inputs / 8;
	} else {
		j->kind = KB_LD;
		name = "ld";
		j->rng = rng_for(w, ENTITY_LINK);
		j->user_ns = kb->link_ns * kb->scale;
		j->peak = (unsigned long)ceil(kb->link_rss * kb->scale);
		j->ramp = 0.7;
		j->read_fraction = 0.3;
		j->write_from = 0.8;
		j->nr_inputs = kb->nr_units;
		j->out = &kb->vmlinux;
		j->out_id = vmlinux_id(kb);
		j->out_pages = (unsigned long)ceil(kb->vmlinux_pages * kb->scale);
	}
	for (unsigned k = 0; k < j->nr_inputs; k++) {
		uint32_t id;
		struct address_space *as = job_input(j, k, &id);
		if (as)
			j->input_pages += job_input_weight(j, as);
	}
	t = engine_spawn(w->engine, name, &kb_job_ops, j);
	if (t)
		t->parent = kb->make;           /* make reaps it: SIGCHLD */
	if (!t) {
		gsl_rng_free(j->rng);
		free(j->headers);
		free(j);
	}
	return t;
}

/* ------------------------------------------------------------ a measured step */

/* The processes a measured step runs one after another, each its own
 * fork+exec with its own memory: for a compile, cc1, then as (reading the
 * .s cc1 wrote to a temporary file: kbuild does not pass -pipe), then, for
 * a host program, ld (run by collect2); an ar or ld step is its one
 * process.  The gcc driver and collect2 that wait for them are not
 * processes here (their own CPU is a few per cent of cc1's). */
static bool chain_tool(uint8_t tool)
{
	return tool == KBD_CC1 || tool == KBD_AS || tool == KBD_TOOL_LD || tool == KBD_TOOL_AR;
}

/* the index in ds->procs of the k-th process of step's chain, or -1 */
static int chain_proc(const struct kbuild *kb, unsigned step, unsigned k)
{
	const struct kbd_step *st = &kb->ds->steps[step];

	for (uint32_t i = 0; i < st->nr_procs; i++)
		if (chain_tool(kb->ds->procs[st->proc_off + i].tool) && k-- == 0)
			return (int)(st->proc_off + i);
	return -1;
}

static unsigned long bytes_pages(int64_t bytes)
{
	return bytes > 0 ? (unsigned long)((bytes + PAGE_SIZE - 1) / PAGE_SIZE) : 0;
}

/* a process's anonymous memory: its measured peak RSS less what the
 * tool's binary and libraries map (measured RssFile, else the tool's
 * smallest peak in the build) */
static unsigned long anon_peak_pages(const struct kbuild_dataset *d, const struct kbd_proc *p)
{
	uint32_t base = d->base_rss_kib[p->tool];

	return p->maxrss_kib > base ? bytes_pages((int64_t)(p->maxrss_kib - base) * 1024) : 0;
}

static void job_add_input(struct kb_job *j, struct address_space *as, uint32_t id, unsigned cap)
{
	if (j->nr_inputs < cap) {
		j->in[j->nr_inputs] = as;
		j->in_id[j->nr_inputs++] = id;
	}
}

/* what the link reads: its inputs' outputs; a thin archive's members are
 * read through it (the archive and, recursively, its members) */
static void link_inputs(struct kbuild *kb, struct kb_job *j, unsigned step, uint8_t *seen, unsigned cap)
{
	const struct kbd_step *st = &kb->ds->steps[step];

	for (uint32_t i = 0; i < st->nr_deps; i++) {
		unsigned d = kb->ds->deps[st->dep_off + i];
		if (seen[d])
			continue;
		seen[d] = 1;
		job_add_input(j, kb->out[d], ds_out_id(kb, d), cap);
		if (kb->ds->steps[d].kind == KBD_AR)
			link_inputs(kb, j, d, seen, cap);
	}
}

static unsigned link_inputs_count(const struct kbuild *kb, unsigned step, uint8_t *seen)
{
	const struct kbd_step *st = &kb->ds->steps[step];
	unsigned n = 0;

	for (uint32_t i = 0; i < st->nr_deps; i++) {
		unsigned d = kb->ds->deps[st->dep_off + i];
		if (seen[d])
			continue;
		seen[d] = 1;
		n++;
		if (kb->ds->steps[d].kind == KBD_AR)
			n += link_inputs_count(kb, d, seen);
	}
	return n;
}

/* the gcc driver's temporary: make_temp_file()'s /tmp/ccXXXXXX.SUFFIX,
 * a new name each time (mkstemps draws six random characters; a count
 * in base 36 stands for them) */
static uint32_t tmp_name(struct kbuild *kb, const char *suffix)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	char path[32] = "/tmp/cc";
	unsigned long n = kb->tmp_seq++;

	for (int i = 12; i >= 7; i--, n /= 36)
		path[i] = digits[n % 36];
	snprintf(path + 13, sizeof(path) - 13, ".%s", suffix);
	return d_name_path(kb->w->pgdat, DNAME_NONE, path);
}

/* fork+exec of process k of measured step `step` in slot s */
static struct task *spawn_measured(struct kbuild *kb, struct kb_slot *s, unsigned step, unsigned k)
{
	const struct kbuild_dataset *d = kb->ds;
	const struct kbd_step *st = &d->steps[step];
	int pi = chain_proc(kb, step, k);
	unsigned si = (unsigned)(s - kb->slots), cap;
	bool last = chain_proc(kb, step, k + 1) < 0;
	const struct kbd_proc *p;
	const char *name;
	struct kb_job *j;
	struct task *t;
	uint8_t *seen = NULL;

	if (pi < 0)
		return NULL;
	p = &d->procs[pi];
	if (!(j = calloc(1, sizeof(*j))))
		abort();
	j->kb = kb;
	j->out_name = DNAME_NONE;
	j->step = step;
	j->trace = &kb->trace[pi];
	/* the process's own stream: cc1's growth shape, every job's touch window */
	j->rng = rng_for(kb->w, ((uint64_t)step << 3) | k);
	j->user_ns = p->user_us * 1e3;
	if (kb->cpu_whole) {
		j->sys_ns = p->sys_us * 1e3;
		if (k == 0) {
			j->user_ns += kb->step_extra_user[step];
			j->sys_ns += kb->step_extra_sys[step];
		}
	}
	j->peak = anon_peak_pages(d, p);
	j->out = &kb->out[step];
	j->out_id = ds_out_id(kb, step);
	j->out_name = kb->out_name[step];
	j->out_pages = bytes_pages(st->out_bytes);
	switch (p->tool) {
	case KBD_CC1:
		cap = (st->src >= 0) + st->nr_hdrs;
		break;
	case KBD_TOOL_LD:
		if (st->kind == KBD_CC && k) {
			cap = 1;
			break;
		}
		if (!(seen = calloc(d->nr_steps, 1)))
			abort();
		cap = link_inputs_count(kb, step, seen);
		memset(seen, 0, d->nr_steps);
		break;
	case KBD_TOOL_AR:
		cap = st->nr_deps;
		break;
	default:
		cap = 1;
	}
	j->in = malloc((cap + 1) * sizeof(*j->in));
	j->in_id = malloc((cap + 1) * sizeof(*j->in_id));
	if (!j->in || !j->in_id)
		abort();
	switch (p->tool) {
	case KBD_CC1:
		/* preprocessing and parsing read the source and its headers; the
		 * assembly comes out at the end, into the temporary .s */
		j->kind = KB_CC1;
		name = "cc1";
		j->ramp = kb->ramp_min + (1 - kb->ramp_min) * gsl_rng_uniform(j->rng);
		j->read_fraction = kb->parse_fraction;
		j->write_from = 0.9;
		j->include_search = true;
		if (st->src >= 0)
			job_add_input(j, kb->file[st->src], (uint32_t)st->src, cap);
		for (uint32_t h = 0; h < st->nr_hdrs; h++) {
			uint32_t f = d->hdrs[st->hdr_off + h];
			job_add_input(j, kb->file[f], f, cap);
		}
		if (!last) {
			j->out = &kb->scratch[2 * si];
			j->out_id = ds_scratch_id(kb, 2 * si);
			j->out_name = tmp_name(kb, "s");
			j->out_pages = bytes_pages(p->out_bytes);
		}
		break;
	case KBD_AS:
		j->kind = KB_AS;
		name = "as";
		j->ramp = 0.5;
		j->read_fraction = 0.8;
		j->write_from = 0.8;
		job_add_input(j, kb->scratch[2 * si], ds_scratch_id(kb, 2 * si), cap);
		/* the driver deletes the .s when as has exited */
		j->unlink = &kb->scratch[2 * si];
		if (!last) {
			j->out = &kb->scratch[2 * si + 1];
			j->out_id = ds_scratch_id(kb, 2 * si + 1);
			j->out_name = tmp_name(kb, "o");
			j->out_pages = bytes_pages(p->out_bytes);
		}
		break;
	case KBD_TOOL_AR:
		j->kind = KB_AR;
		name = "ar";
		j->ramp = 0.5;
		j->read_fraction = 0.8;
		j->write_from = 0.8;
		for (uint32_t i = 0; i < st->nr_deps; i++) {
			unsigned dep = d->deps[st->dep_off + i];
			job_add_input(j, kb->out[dep], ds_out_id(kb, dep), cap);
		}
		break;
	default:
		j->kind = KB_LD;
		name = "ld";
		j->ramp = 0.7;
		j->read_fraction = 0.3;
		j->write_from = 0.8;
		if (seen)
			link_inputs(kb, j, step, seen, cap);
		else
			job_add_input(j, kb->scratch[2 * si + 1], ds_scratch_id(kb, 2 * si + 1), cap);
		break;
	}
	free(seen);
	for (unsigned i = 0; i < j->nr_inputs; i++)
		if (j->in[i])
			j->input_pages += job_input_weight(j, j->in[i]);
	t = engine_spawn(kb->w->engine, name, &kb_job_ops, j);
	if (t)
		t->parent = kb->make;
	else {
		gsl_rng_free(j->rng);
		free(j->in);
		free(j->in_id);
		free(j);
	}
	return t;
}

/* ------------------------------------------------------------ make */

/* a compile unit: make stats its share of the tree before starting it */
static bool step_is_unit(const struct kbuild *kb, unsigned step)
{
	return kb->ds ? kb->ds->steps[step].kind == KBD_CC : step < kb->nr_units;
}

/* a step is over (reaped, or never started): what waits on it may start */
static void step_gone(struct kbuild *kb, unsigned step)
{
	if (kb->ds)
		kb->reaped[step] = 1;
	else if (step < kb->nr_units)
		kb->units_reaped++;
	else if (step < kb->nr_units + kb->nr_archives)
		kb->archives_reaped++;
}

static bool step_ready(const struct kbuild *kb, unsigned step)
{
	if (kb->ds) {
		/* an archive or link waits for the steps whose outputs it names */
		const struct kbd_step *st = &kb->ds->steps[step];
		for (uint32_t i = 0; i < st->nr_deps; i++)
			if (!kb->reaped[kb->ds->deps[st->dep_off + i]])
				return false;
		return true;
	}
	if (step < kb->nr_units)
		return true;
	if (step < kb->nr_units + kb->nr_archives)
		return kb->units_reaped == kb->nr_units;
	return kb->units_reaped == kb->nr_units && kb->archives_reaped == kb->nr_archives;
}

/* The next step make starts at or after from: the first pending one, in
 * the recorded order, whose prerequisites are done; nr_steps if none is.
 * make -j over kbuild's recursive makes does not stop at a target that is
 * not ready: an archive waiting for its directory's objects holds no job
 * slot, and the other directories' compiles go on (each sub-make works on
 * whichever of its targets is ready, all sharing the jobserver's -j
 * slots).  Only the final link, which needs every archive, drains them. */
static unsigned next_ready_step(const struct kbuild *kb, unsigned from)
{
	for (unsigned i = from; i < kb->nr_steps; i++)
		if (kb->status[i] == ST_PENDING && step_ready(kb, i))
			return i;
	return kb->nr_steps;
}

/* wait4(): the child's times go to the build's (RUSAGE_CHILDREN) */
static void reap(struct kbuild *kb, struct kb_slot *s)
{
	struct task *c = s->t;
	enum kb_status st = kb->status[s->step];

	kb->user_ns += c->utime_ns;
	kb->system_ns += c->stime_ns;
	if (kb->step_utime[s->step] < 0)
		kb->step_utime[s->step] = 0;
	kb->step_utime[s->step] += c->utime_ns;
	if (kb->ds && st == ST_DONE && chain_proc(kb, s->step, s->proc + 1) >= 0) {
		/* the driver runs the step's next process (cc1, then as) */
		s->proc++;
		kb->status[s->step] = ST_RUNNING;
		if ((s->t = spawn_measured(kb, s, s->step, s->proc)))
			return;
		st = kb->status[s->step] = ST_FAILED;
	}
	if (st == ST_DONE && step_is_unit(kb, s->step))
		kb->units_done++;
	if (st == ST_OOM)
		kb->oom_killed++;
	if (st != ST_DONE)
		kb->jobs_failed++;
	step_gone(kb, s->step);
	s->t = NULL;
	kb->nr_running--;
}

/* make stats the prerequisites of the next target: its share of the
 * tree's files that no job reads (a path lookup, then the dentry and the
 * inode in the caches: filemap_read of nothing is an open) */
static int make_stat_tree(struct kbuild *kb, struct mm_ctx *ctx)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	unsigned per = (kb->nr_tree + kb->nr_units - 1) / (kb->nr_units ? kb->nr_units : 1);

	for (unsigned i = 0; i < per && kb->tree_next < kb->nr_tree; i++) {
		unsigned f = kb->tree_next++;
		slab_obj_t filp;

		if (!kb->tree[f] && !(kb->tree[f] = inode_create(pgdat, 0, false)))
			return -1;
		if ((filp = kb_open(kb, ctx, kb->tree[f], tree_id(kb, f))) == SLAB_OBJ_NONE)
			return -1;
		if (filemap_read(pgdat, ctx, kb->tree[f], 0, 0)) {
			kb_close(kb, ctx, filp);
			return -1;
		}
		kb_close(kb, ctx, filp);
	}
	return 0;
}

static double make_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct kbuild *kb = arg;
	double user = 0;

	if (!kb->make_grown) {
		/* make's own memory: the parsed Makefiles, rules and variables */
		kb->make_grown = true;
		if (exec_prog(kb->w->pgdat, ctx, t->mm, PROG_MAKE, &kb->make_exec))
			return -1;
		if (kb->make_rss) {
			unsigned long v = mm_grow(t->mm, kb->make_rss);
			if (mm_access(kb->w->pgdat, ctx, t->mm, v, kb->make_rss, true))
				return -1;
		}
	}
	if (exec_run(kb->w->pgdat, ctx, t->mm, &kb->make_exec))
		return -1;
	for (unsigned i = 0; i < kb->nr_jobs; i++)
		if (kb->slots[i].t && kb->slots[i].t->exited)
			reap(kb, &kb->slots[i]);
	/* next_step: the first step not yet started */
	while (kb->next_step < kb->nr_steps && kb->status[kb->next_step] != ST_PENDING)
		kb->next_step++;
	for (unsigned i = 0, from = kb->next_step; i < kb->nr_jobs && from < kb->nr_steps; i++) {
		struct kb_slot *s = &kb->slots[i];
		unsigned step;
		if (s->t)
			continue;
		if ((step = next_ready_step(kb, from)) == kb->nr_steps)
			break;
		if (step_is_unit(kb, step) && make_stat_tree(kb, ctx))
			return -1;
		s->step = step;
		from = step + 1;
		s->proc = 0;
		kb->status[s->step] = ST_RUNNING;
		user += kb->make_target_ns;
		if (kb->ds && chain_proc(kb, s->step, 0) < 0) {
			/* a step with no process of its own (measured: none) */
			kb->status[s->step] = ST_DONE;
			kb->units_done += step_is_unit(kb, s->step);
			step_gone(kb, s->step);
			continue;
		}
		if (!(s->t = kb->ds ? spawn_measured(kb, s, s->step, 0) : spawn_step(kb, s->step))) {
			/* fork failed for want of a task: counted, the build goes on */
			kb->status[s->step] = ST_FAILED;
			kb->jobs_failed++;
			step_gone(kb, s->step);
			continue;
		}
		kb->nr_running++;
	}
	if (kb->next_step == kb->nr_steps && !kb->nr_running) {
		kb->make_user_ns = t->utime_ns + user;
		kb->user_ns += kb->make_user_ns;
		kb->system_ns += t->stime_ns + ctx->kernel_ns;
		workload_finished(kb->w);
		return -1;
	}
	/* nothing to start: wait4() until a job exits (a job is running:
	 * make only gets here with a slot busy or a step not ready, which
	 * running jobs make ready), or poll; with no job running (a step
	 * not ready and nothing to wait for, which the step order rules
	 * out) it looks again a millisecond later rather than wait for ever */
	if (kb->poll > 0 || !kb->nr_running)
		t->sleep = kb->poll > 0 ? kb->poll : 0.001;
	else
		t->wait_child = true;
	return user;
}

static void make_exit(struct task *t, void *arg)
{
	struct kbuild *kb = arg;

	if (!kb->w->finished) {
		/* make died (OOM kill or failed fork): the build is over */
		kb->build_failed = true;
		kb->make_user_ns = t->utime_ns;
		kb->user_ns += t->utime_ns;
		kb->system_ns += t->stime_ns;
		workload_finished(kb->w);
	}
}

static const struct task_ops kb_make_ops = {
	.quantum = make_quantum,
	.exit = make_exit,
};

/* ------------------------------------------------------------ a warm start */

/*
 * cache = warm: the machine has read the tree before (a checkout, an
 * earlier build), so the files are in the page cache and their dentries
 * and inodes in the slab caches when make starts, as far as memory
 * allows, as on any machine that has been up for a while: free memory is
 * near the watermarks and the build's memory comes out of reclaim.  The
 * files are read in the order of a previous build's last use: the tree's
 * other files first (the oldest, use-once), then the sources, then the
 * headers from the least to the most popular.  Reading stops when the
 * file would take a zone's free memory below twice its high watermark,
 * so that no reclaim runs before the measured window (which opens after
 * start()).  The reads' disk time and CPU belong to that earlier
 * activity: the disk is idle again when the build starts.
 */

/* The free pages the file pages may take before their zone falls to
 * twice its high watermark: the allocator takes from the first populated
 * zone of the zonelist (gfp_zone(GFP_HIGHUSER_MOVABLE) downwards) until
 * that zone is at its low watermark, so the room is that zone's (its
 * lowmem reserve for such a request counted).  All free pages against
 * the sum of the high marks, as before, let a small machine's fill run
 * into direct reclaim (16,000 pages scanned before the window on 64M:
 * ZONE_DMA's free pages counted, which the fill does not get first). */
static long warm_room(const struct pglist_data *pgdat)
{
	int hz = gfp_zone(GFP_HIGHUSER_MOVABLE);

	for (int z = hz; z >= 0; z--) {
		const struct zone *zone = &pgdat->node_zones[z];

		if (populated_zone(zone))
			return zone_page_state(zone, NR_FREE_PAGES) - zone->lowmem_reserve[hz] -
			       2 * (long)high_wmark_pages(zone);
	}
	return 0;
}

static bool warm_read(struct kbuild *kb, struct mm_ctx *ctx, struct address_space *as, uint32_t id)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	slab_obj_t filp;

	/* the file, its metadata blocks and slab objects, with room to spare */
	if (warm_room(pgdat) < (long)(as->size + 8))
		return false;
	if ((filp = kb_open(kb, ctx, as, id)) == SLAB_OBJ_NONE)
		return false;
	filemap_read(pgdat, ctx, as, 0, as->size);
	kb_close(kb, ctx, filp);
	return true;
}

static void warm_fill(struct kbuild *kb)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct mm_ctx ctx = { 0 };
	struct blockdev disk = pgdat->disk;

	for (unsigned f = 0; f < kb->nr_tree; f++)
		if (!warm_read(kb, &ctx, kb->tree[f], tree_id(kb, f)))
			goto out;
	if (kb->ds) {
		/* the files the build reads, the last first used first: the
		 * headers every unit includes are read last */
		for (unsigned f = kb->ds->nr_files; f-- > 0;)
			if (!warm_read(kb, &ctx, kb->file[f], f))
				goto out;
		goto out;
	}
	for (unsigned i = 0; i < kb->nr_units; i++)
		if (!warm_read(kb, &ctx, kb->src[i], src_id(kb, i)))
			goto out;
	for (unsigned h = kb->headers; h-- > 0;)
		if (!warm_read(kb, &ctx, kb->hdr[h], hdr_id(kb, h)))
			goto out;
out:
	pgdat->disk = disk;
}

/* ------------------------------------------------------------ the module */

/* the filesystem's metadata: inode table, directories, bitmaps and the
 * journal, one block-device inode sized for `files` file numbers */
static int create_bdev(struct kbuild *kb, unsigned long files)
{
	unsigned long itable = (files + INODES_PER_BLOCK - 1) / INODES_PER_BLOCK;

	kb->bdev_dirs = itable;
	kb->bdev_bitmap = kb->bdev_dirs + (files + DIRENTS_PER_BLOCK - 1) / DIRENTS_PER_BLOCK;
	kb->bdev_journal = kb->bdev_bitmap + 2;
	kb->dir_blocks = kb->bdev_bitmap - kb->bdev_dirs;
	kb->bdev = inode_create(kb->w->pgdat, kb->bdev_journal + JOURNAL_PAGES, true);
	return kb->bdev ? 0 : -1;
}

/* make's per-step state, common to both trees */
static int alloc_steps(struct kbuild *kb)
{
	kb->slots = calloc(kb->nr_jobs, sizeof(*kb->slots));
	kb->status = calloc(kb->nr_steps, 1);
	kb->step_utime = malloc(kb->nr_steps * sizeof(double));
	if (!kb->slots || !kb->status || !kb->step_utime)
		return -1;
	for (unsigned i = 0; i < kb->nr_steps; i++)
		kb->step_utime[i] = -1;
	return 0;
}

/* gcc's include path.  A kernel object's compile (an in-tree build:
 * NOSTDINC_FLAGS -nostdinc, then LINUXINCLUDE and USERINCLUDE of the top
 * Makefile, in this order); a host program's (the files read by absolute
 * path) uses gcc's own directories: its include dir (found among the
 * files read), /usr/local/include, the multiarch dir, /usr/include. */
static const char *const kernel_include[] = {
	"arch/x86/include", "arch/x86/include/generated", "include", "arch/x86/include/uapi",
	"arch/x86/include/generated/uapi", "include/uapi", "include/generated/uapi",
};
#define NR_KERNEL_INCLUDE (sizeof(kernel_include) / sizeof(kernel_include[0]))
#define NR_SYSTEM_INCLUDE 4

/* The directory of the path list that found header `path` and the tries
 * before it.  The dataset has each compile's headers (its .cmd's deps_)
 * but not the #include lines, so the name a header was included by is
 * derived: of the list's directories that are a prefix of its path, the
 * most specific one that no earlier directory shadows (an earlier
 * directory holding a file of the same relative name would have been
 * found first: include/uapi/linux/types.h is <uapi/linux/types.h> through
 * include/, since <linux/types.h> finds include/linux/types.h).  The tries
 * before it fail, each at its first component that does not exist.  A
 * header under none of them (a quoted include beside its includer, a
 * Makefile's -I of its own directory) costs no failed try.  Returns the
 * number of ends written to neg (at most nr). */
static unsigned include_tries(struct pglist_data *pgdat, const uint32_t *dirs, char *const *dir_paths,
                              unsigned nr, uint32_t base, const char *path, uint32_t *neg)
{
	int best = -1;
	size_t best_len = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < nr; i++) {
		size_t len = strlen(dir_paths[i]);
		const char *rel = path + len + 1;
		bool shadowed = false;

		if (strncmp(path, dir_paths[i], len) || path[len] != '/' || len < best_len)
			continue;
		for (unsigned k = 0; k < i && !shadowed; k++) {
			uint32_t other = d_name_lookup(pgdat, dirs[k], rel);
			shadowed = other != DNAME_NONE && d_exists(pgdat, other) && d_is_file(pgdat, other);
		}
		if (!shadowed) {
			best = (int)i;
			best_len = len;
		}
	}
	(void)base;
	for (int k = 0; k < best; k++) {
		uint32_t cand = d_name_path(pgdat, dirs[k], path + best_len + 1);
		if (cand == DNAME_NONE)
			return n;
		neg[n++] = d_walk_end(pgdat, cand);
	}
	return n;
}

/* The measured tree's namespace (dcache.h): the build's directory (the
 * make's cwd, held), every file read at its path, the include
 * directories, and where each header's failed tries end. */
static int build_names(struct kbuild *kb, char *err, size_t errlen)
{
	const struct kbuild_dataset *d = kb->ds;
	struct pglist_data *pgdat = kb->w->pgdat;
	uint32_t root = d_root(pgdat), kdirs[NR_KERNEL_INCLUDE], sdirs[NR_SYSTEM_INCLUDE];
	char *kpaths[NR_KERNEL_INCLUDE], *spaths[NR_SYSTEM_INCLUDE], gccinc[256] = "";
	unsigned nr_sys = 0;
	size_t cap = 0, nr = 0;

	kb->cwd = d_name_path(pgdat, root, "usr/src/linux");
	if (kb->cwd == DNAME_NONE || d_mkdir(pgdat, NULL, kb->cwd))
		goto nomem;
	d_pin(pgdat, kb->cwd);
	kb->file_name = malloc((d->nr_files + 1) * sizeof(uint32_t));
	kb->neg_off = calloc(d->nr_files + 1, sizeof(uint32_t));
	kb->out_name = malloc((d->nr_steps + 1) * sizeof(uint32_t));
	if (!kb->file_name || !kb->neg_off || !kb->out_name)
		goto nomem;
	for (uint32_t f = 0; f < d->nr_files; f++) {
		const char *path = d->file_path[f];
		const char *inc = strstr(path, "/include/");

		kb->file_name[f] = d_name_path(pgdat, path[0] == '/' ? root : kb->cwd, path);
		if (kb->file_name[f] == DNAME_NONE || d_bind(pgdat, NULL, kb->file_name[f], kb->file[f])) {
			snprintf(err, errlen, "kbuild: %s: file %u (%s): not a path the model can name (an empty "
			         "component, or a file and a directory at once)", d->path, f, path);
			return -1;
		}
		if (!gccinc[0] && !strncmp(path, "/usr/lib/gcc/", 13) && inc &&
		    (size_t)(inc - path) + 8 < sizeof(gccinc))
			snprintf(gccinc, sizeof(gccinc), "%.*s", (int)(inc - path) + 8, path);
	}
	for (unsigned i = 0; i < NR_KERNEL_INCLUDE; i++) {
		kpaths[i] = (char *)kernel_include[i];
		kdirs[i] = d_name_path(pgdat, kb->cwd, kpaths[i]);
		if (kdirs[i] == DNAME_NONE || d_mkdir(pgdat, NULL, kdirs[i]))
			goto nomem;
	}
	if (gccinc[0])
		spaths[nr_sys++] = gccinc;
	spaths[nr_sys++] = "/usr/local/include";
	spaths[nr_sys++] = "/usr/include/x86_64-linux-gnu";
	spaths[nr_sys++] = "/usr/include";
	for (unsigned i = 0; i < nr_sys; i++) {
		sdirs[i] = d_name_path(pgdat, root, spaths[i]);
		if (sdirs[i] == DNAME_NONE || d_mkdir(pgdat, NULL, sdirs[i]))
			goto nomem;
	}
	for (uint32_t f = 0; f < d->nr_files; f++) {
		const char *path = d->file_path[f];
		bool abs = path[0] == '/';
		uint32_t tries[NR_KERNEL_INCLUDE + NR_SYSTEM_INCLUDE];
		unsigned n = include_tries(pgdat, abs ? sdirs : kdirs, abs ? spaths : kpaths,
		                           abs ? nr_sys : (unsigned)NR_KERNEL_INCLUDE, abs ? root : kb->cwd,
		                           path, tries);

		kb->neg_off[f] = (uint32_t)nr;
		for (unsigned k = 0; k < n; k++) {
			if (nr == cap) {
				uint32_t *t;
				cap = cap ? 2 * cap : 4096;
				if (!(t = realloc(kb->neg, cap * sizeof(*t))))
					goto nomem;
				kb->neg = t;
			}
			kb->neg[nr++] = tries[k];
		}
	}
	kb->neg_off[d->nr_files] = (uint32_t)nr;
	for (uint32_t s = 0; s < d->nr_steps; s++)
		kb->out_name[s] = strcmp(d->step_out[s], "-") ?
		                  d_name_path(pgdat, d->step_out[s][0] == '/' ? root : kb->cwd, d->step_out[s]) :
		                  DNAME_NONE;
	if (d_mkdir(pgdat, NULL, d_name_path(pgdat, root, "tmp")))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "kbuild: out of memory naming the tree's files");
	return -1;
}

/* The measured tree: every file the build read (sources and headers) with
 * its measured size, and the tree's other files, as many as the measured
 * tree held beyond those, with their mean size. */
static int create_measured_tree(struct kbuild *kb)
{
	const struct kbuild_dataset *d = kb->ds;
	struct pglist_data *pgdat = kb->w->pgdat;
	uint64_t read_bytes = 0, rest_files, rest_bytes;

	kb->file = calloc(d->nr_files ? d->nr_files : 1, sizeof(*kb->file));
	kb->out = calloc(d->nr_steps, sizeof(*kb->out));
	kb->scratch = calloc(2 * kb->nr_jobs, sizeof(*kb->scratch));
	kb->reaped = calloc(d->nr_steps, 1);
	kb->trace = calloc(d->nr_procs ? d->nr_procs : 1, sizeof(*kb->trace));
	if (!kb->file || !kb->out || !kb->scratch || !kb->reaped || !kb->trace || alloc_steps(kb))
		return -1;
	for (uint32_t f = 0; f < d->nr_files; f++) {
		read_bytes += d->file_bytes[f];
		if (!(kb->file[f] = inode_create(pgdat, bytes_pages((int64_t)d->file_bytes[f]), false)))
			return -1;
	}
	/* the files make only stats (and a warm start reads): the tree's
	 * others (system headers read by host tools are counted among the
	 * files read, a few hundred) */
	rest_files = d->tree_files > d->nr_files ? d->tree_files - d->nr_files : 0;
	rest_bytes = d->tree_bytes > read_bytes ? d->tree_bytes - read_bytes : 0;
	kb->nr_tree = (unsigned)ceil(rest_files * kb->scale);
	kb->tree_kib = rest_files ? rest_bytes / 1024.0 / rest_files : 1;
	kb->tree = calloc(kb->nr_tree ? kb->nr_tree : 1, sizeof(*kb->tree));
	if (!kb->tree || create_bdev(kb, tree_id(kb, kb->nr_tree)))
		return -1;
	if (kb->warm) {
		if (create_files(pgdat, rng_for(kb->w, ENTITY_TREE_SIZES), kb->tree, kb->nr_tree, kb->tree_kib))
			return -1;
		warm_fill(kb);
	}
	return 0;
}

/* The synthetic tree: sources and headers drawn from the generator. */
static int create_synthetic_tree(struct kbuild *kb)
{
	struct workload *w = kb->w;
	struct pglist_data *pgdat = w->pgdat;
	gsl_rng *r;

	if (zipf_prepare(kb))
		return -1;
	kb->src = calloc(kb->nr_units, sizeof(*kb->src));
	kb->obj = calloc(kb->nr_units, sizeof(*kb->obj));
	kb->hdr = calloc(kb->headers, sizeof(*kb->hdr));
	kb->arc = calloc(kb->nr_archives + 1, sizeof(*kb->arc));
	if (!kb->src || !kb->obj || !kb->hdr || !kb->arc || alloc_steps(kb))
		return -1;
	kb->nr_tree = (unsigned)ceil(kb->tree_files * kb->scale);
	kb->tree = calloc(kb->nr_tree ? kb->nr_tree : 1, sizeof(*kb->tree));
	if (!kb->tree || create_bdev(kb, tree_id(kb, kb->nr_tree)))
		return -1;

	/* sources: the first draw of each unit's stream is its size */
	for (unsigned i = 0; i < kb->nr_units; i++) {
		struct kbuild_unit u;
		r = rng_for(w, i);
		draw_unit(kb, r, &u, NULL);
		gsl_rng_free(r);
		if (!(kb->src[i] = inode_create(pgdat, u.source_pages, false)))
			return -1;
	}
	/* headers, most popular first */
	if (create_files(pgdat, rng_for(w, ENTITY_TREE), kb->hdr, kb->headers, kb->header_kib))
		return -1;

	if (kb->warm) {
		/* the tree's other files, with their sizes (their own stream, so
		 * that a cold start draws what it always drew) */
		if (create_files(pgdat, rng_for(w, ENTITY_TREE_SIZES), kb->tree, kb->nr_tree, kb->tree_kib))
			return -1;
		warm_fill(kb);
	}
	return 0;
}

/* make, started on the tree as it is */
static int spawn_make(struct kbuild *kb, char *err, size_t errlen)
{
	if (!(kb->make = engine_spawn(kb->w->engine, "make", &kb_make_ops, kb))) {
		snprintf(err, errlen, "kbuild: cannot spawn make");
		return -1;
	}
	return 0;
}

static int kb_start(struct workload *w, char *err, size_t errlen)
{
	struct kbuild *kb = w->priv;

	kb->w = w;
	if (kb_load(kb, err, errlen))
		return -1;
	kb_size(kb);
	kb->nr_jobs = kb->jobs ? kb->jobs : w->engine->cfg.cpus;
	if (kb->ds ? create_measured_tree(kb) : create_synthetic_tree(kb)) {
		snprintf(err, errlen, "kbuild: out of memory creating the tree");
		return -1;
	}
	if (kb->ds && build_names(kb, err, errlen))
		return -1;
	return spawn_make(kb, err, errlen);
}

static unsigned long header_pages_cached(const struct kbuild *kb)
{
	unsigned long n = 0;

	if (kb->ds) {
		for (uint32_t f = 0; kb->file && f < kb->ds->nr_files; f++)
			if (kb->file[f])
				n += kb->file[f]->nrpages;
		return n;
	}

	for (unsigned h = 0; kb->hdr && h < kb->headers; h++)
		if (kb->hdr[h])
			n += kb->hdr[h]->nrpages;
	return n;
}

int kbuild_get_stats(const struct workload *w, struct kbuild_stats *s)
{
	const struct kbuild *kb = w->priv;

	if (strcmp(w->ops->name, "kbuild"))
		return -1;
	memset(s, 0, sizeof(*s));
	s->units = kb->nr_units;
	s->archives = kb->nr_archives;
	s->jobs = kb->nr_jobs;
	s->units_done = kb->units_done;
	s->jobs_failed = kb->jobs_failed;
	s->oom_killed = kb->oom_killed;
	s->finished = w->finished;
	s->build_failed = kb->build_failed;
	s->real_time = w->t_end >= 0 ? w->t_end - w->t_start : -1;
	s->user_ns = kb->user_ns;
	s->system_ns = kb->system_ns;
	s->make_user_ns = kb->make_user_ns;
	s->header_pages_cached = header_pages_cached(kb);
	s->bdev_pages = kb->bdev ? kb->bdev->size : 0;
	s->failed_lookups = kb->failed_lookups;
	return 0;
}

/* a measured compile step's values, as spawn_measured() uses them */
static int measured_unit(struct kbuild *kb, unsigned step, struct kbuild_unit *u)
{
	const struct kbuild_dataset *d = kb->ds;
	const struct kbd_step *st = &d->steps[step];
	const struct kbd_proc *cc1 = kbd_step_proc(d, step, KBD_CC1), *as = kbd_step_proc(d, step, KBD_AS);
	uint64_t hash = 1469598103934665603ull;

	memset(u, 0, sizeof(*u));
	if (st->kind != KBD_CC || !cc1)
		return -1;
	u->user_ns = cc1->user_us * 1e3;
	u->peak_pages = anon_peak_pages(d, cc1);
	u->source_pages = st->src >= 0 ? bytes_pages((int64_t)d->file_bytes[st->src]) : 0;
	u->object_pages = bytes_pages(st->out_bytes);
	u->nr_headers = st->nr_hdrs;
	for (uint32_t i = 0; i < st->nr_hdrs; i++)
		hash = (hash ^ d->hdrs[st->hdr_off + i]) * 1099511628211ull;
	u->headers_hash = hash;
	if (as) {
		u->asm_pages = bytes_pages(cc1->out_bytes);
		u->as_user_ns = as->user_us * 1e3;
		u->as_peak_pages = anon_peak_pages(d, as);
	}
	return 0;
}

int kbuild_proc_trace(const struct workload *w, unsigned step, unsigned k, struct kbuild_proc_trace *out)
{
	const struct kbuild *kb = w->priv;
	static const char *const tools[] = { "gcc", "cc1", "as", "collect2", "ld", "ar", "other" };
	int pi;

	if (strcmp(w->ops->name, "kbuild") || !kb->ds || !kb->trace || step >= kb->nr_steps ||
	    (pi = chain_proc(kb, step, k)) < 0)
		return -1;
	*out = kb->trace[pi];
	snprintf(out->tool, sizeof(out->tool), "%s", tools[kb->ds->procs[pi].tool]);
	return 0;
}

double kbuild_step_utime(const struct workload *w, unsigned step)
{
	const struct kbuild *kb = w->priv;

	if (strcmp(w->ops->name, "kbuild") || !kb->step_utime || step >= kb->nr_steps)
		return -1;
	return kb->step_utime[step];
}

static size_t kb_report(const struct workload *w, struct metric *out, size_t n)
{
	const struct kbuild *kb = w->priv;
	const struct { const char *name; double value; } m[] = {
		{ "real_time", w->t_end >= 0 ? w->t_end - w->t_start : -1 },
		{ "user_time", kb->user_ns * 1e-9 },
		{ "system_time", kb->system_ns * 1e-9 },
		{ "units", kb->nr_units },
		{ "units_done", kb->units_done },
		{ "jobs", kb->nr_jobs },
		{ "jobs_failed", kb->jobs_failed },
		{ "oom_killed", kb->oom_killed },
		{ "build_failed", kb->build_failed },
		{ "failed_lookups", (double)kb->failed_lookups },
	};
	size_t i;

	for (i = 0; i < n && i < sizeof(m) / sizeof(m[0]); i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", m[i].name);
		out[i].value = m[i].value;
	}
	return i;
}

/* the inodes belong to the node (pgdat teardown frees them); the make
 * and job structures are freed by their processes */
static void kb_fini(struct workload *w)
{
	struct kbuild *kb = w->priv;

	free(kb->zipf_cdf);
	free(kb->src);
	free(kb->obj);
	free(kb->hdr);
	free(kb->arc);
	free(kb->tree);
	kb->tree = NULL;
	free(kb->slots);
	free(kb->status);
	free(kb->step_utime);
	free(kb->file);
	free(kb->out);
	free(kb->scratch);
	free(kb->reaped);
	free(kb->trace);
	free(kb->file_name);
	free(kb->neg_off);
	free(kb->neg);
	free(kb->out_name);
	kb->file_name = kb->neg_off = kb->neg = kb->out_name = NULL;
	kb->file = kb->out = kb->scratch = NULL;
	kb->reaped = NULL;
	kb->trace = NULL;
	free(kb->step_extra_user);
	free(kb->step_extra_sys);
	kbuild_dataset_free(kb->ds);
	kb->ds = NULL;
	kb->zipf_cdf = NULL;
	kb->src = kb->obj = kb->hdr = kb->arc = NULL;
	kb->slots = NULL;
	kb->status = NULL;
	kb->step_utime = NULL;
}

/* A build whose make died (OOM kill, failed fork) or that built no unit
 * (every job lost to the OOM killer) measured no build: the run is
 * failed.  A build that lost some jobs is a result (jobs_failed says). */
static bool kb_failure(const struct workload *w, char *why, size_t len)
{
	const struct kbuild *kb = w->priv;

	if (kb->build_failed) {
		if (why)
			snprintf(why, len, "make died (%u of %u units built)", kb->units_done, kb->nr_units);
		return true;
	}
	if (w->finished && kb->nr_units && !kb->units_done) {
		if (why)
			snprintf(why, len, "no unit built (%u jobs failed, %u OOM-killed)", kb->jobs_failed,
			         kb->oom_killed);
		return true;
	}
	return false;
}

static int kb_restart(struct workload *w, unsigned iteration, char *err, size_t errlen);

/* the measured tree's dataset file */
static void kb_inputs(const struct workload *w, void (*fn)(const char *path, void *arg), void *arg)
{
	const struct kbuild *kb = w->priv;
	char path[4096], err[256];

	if (!kb->synthetic && !kbuild_dataset_find(kb->tree_name, path, sizeof(path), err, sizeof(err)))
		fn(path, arg);
}

const struct workload_ops kbuild_ops = {
	.name = "kbuild",
	.desc = "make -jN over a synthetic kernel tree: cc1 jobs reading headers through the page cache, "
	        "growing anonymous memory and writing objects; archives and the vmlinux link",
	.params = kbuild_params,
	.priv_size = sizeof(struct kbuild),
	.measured = true,
	.validate = kb_validate,
	.start = kb_start,
	.report = kb_report,
	.fini = kb_fini,
	.failure = kb_failure,
	.restart = kb_restart,
	.inputs = kb_inputs,
};

/* ------------------------------------------------------------ iterations */

/*
 * The next iteration ([run] iterations > 1), as mmtests runs a kernel
 * build again: `make clean` (the objects, the archives and vmlinux are
 * unlinked: their page cache, dirty or not, is freed, their dentries and
 * inodes too), then make again on the same tree, whose sources and
 * headers stay in the page cache as far as reclaim left them.  The units
 * are the same as the first time (each unit's stream is its own).  The
 * build's counters start again, so that report() gives this iteration's.
 * The unlinks are the harness's work, between two measured builds: their
 * time is charged to no process.  1 until make of the iteration before
 * has exited.
 */
static int kb_restart(struct workload *w, unsigned iteration, char *err, size_t errlen)
{
	struct kbuild *kb = w->priv;
	struct pglist_data *pgdat = w->pgdat;
	struct mm_ctx ctx = { 0 };

	(void)iteration;
	if ((kb->make && !kb->make->exited) || kb->nr_running)
		return 1;
	if (kb->ds) {
		/* a measured tree: every step's output and the slots' temporaries */
		for (unsigned i = 0; i < kb->ds->nr_steps; i++)
			if (kb->out[i]) {
				inode_unlink(pgdat, &ctx, kb->out[i]);
				kb->out[i] = NULL;
			}
		for (unsigned i = 0; i < 2 * kb->nr_jobs; i++)
			if (kb->scratch[i]) {
				inode_unlink(pgdat, &ctx, kb->scratch[i]);
				kb->scratch[i] = NULL;
			}
		memset(kb->reaped, 0, kb->ds->nr_steps);
		memset(kb->trace, 0, kb->ds->nr_procs * sizeof(*kb->trace));
	}
	for (unsigned i = 0; kb->obj && i < kb->nr_units; i++)
		if (kb->obj[i]) {
			inode_unlink(pgdat, &ctx, kb->obj[i]);
			kb->obj[i] = NULL;
		}
	for (unsigned a = 0; kb->arc && a <= kb->nr_archives; a++)
		if (kb->arc[a]) {
			inode_unlink(pgdat, &ctx, kb->arc[a]);
			kb->arc[a] = NULL;
		}
	if (kb->vmlinux) {
		inode_unlink(pgdat, &ctx, kb->vmlinux);
		kb->vmlinux = NULL;
	}
	kb->next_step = kb->units_reaped = kb->archives_reaped = kb->tree_next = 0;
	kb->make_grown = false;
	memset(kb->status, ST_PENDING, kb->nr_steps);
	for (unsigned i = 0; i < kb->nr_steps; i++)
		kb->step_utime[i] = -1;
	kb->user_ns = kb->system_ns = kb->make_user_ns = 0;
	kb->units_done = kb->jobs_failed = kb->oom_killed = 0;
	kb->failed_lookups = 0;
	kb->build_failed = false;
	if (!(kb->make = engine_spawn(w->engine, "make", &kb_make_ops, kb))) {
		snprintf(err, errlen, "kbuild: cannot spawn make");
		return -1;
	}
	return 0;
}
