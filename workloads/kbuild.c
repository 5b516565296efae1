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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kbuild_int.h"

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
	{ "rss_mean", PARAM_PAGES, "bytes", 4096, PARAM_SIZE_MAX, "90M", "mean peak anonymous memory of a compile unit "
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
	{ "make_rss", PARAM_PAGES, "bytes", 0, PARAM_SIZE_MAX, "32M", "make's anonymous memory", KB(make_rss) },
	{ "make_target_ms", PARAM_DOUBLE, "milliseconds", 0, 1e6, "2", "make's CPU milliseconds per job it "
	  "starts (rules, recipe, fork+exec)", KB(make_target_ns), .scale = 1e6 },
	{ "poll", PARAM_DOUBLE, "seconds", PARAM_PERIOD_FLOOR, 10, "wait", "what make does when it has nothing "
	  "to start or reap: wait (sleep in wait4() until a job exits) or seconds to sleep and look again",
	  KB(poll), .word = "wait", .word_value = 0 },
	{ "archives", PARAM_INT, NULL, 0, 100000, "16", "ar steps (built-in.a), each naming (stat, no read) its "
	  "share of the objects", KB(archives) },
	{ "ar_time", PARAM_DOUBLE, "seconds", 0, 1e4, "0.05", "CPU seconds of one ar step", KB(ar_ns), .scale = 1e9 },
	{ "ar_rss", PARAM_PAGES, "bytes", 0, PARAM_SIZE_MAX, "8M", "anonymous memory of one ar step", KB(ar_rss) },
	{ "link_time", PARAM_DOUBLE, "seconds", 0, 1e5, "20", "CPU seconds of the final link (ld passes, "
	  "kallsyms, modpost)", KB(link_ns), .scale = 1e9 },
	{ "link_rss", PARAM_PAGES, "bytes", 0, PARAM_SIZE_MAX, "400M", "peak anonymous memory of the final link",
	  KB(link_rss) },
	{ "vmlinux_size", PARAM_PAGES, "bytes", 0, PARAM_SIZE_MAX, "60M", "size of the linked vmlinux", KB(vmlinux_pages) },
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
	{ "builds", PARAM_INT, NULL, 1, 256, "1", "builds side by side, a build farm's load: each its own "
	  "tree in its own root (a container's: its own files, names and page cache) and its own make with "
	  "`jobs` slots; the build's rows sum over them, its real time is until the last one ends",
	  KB(builds) },
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

/* the measured tree, loaded once */
int kb_load(struct kbuild *kb, char *err, size_t errlen)
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
void kb_size(struct kbuild *kb)
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

/* one build's tree, names and make */
static int kb_start_build(struct kbuild *kb, char *err, size_t errlen)
{
	if (kb->ds ? kb_create_measured_tree(kb) : kb_create_synthetic_tree(kb)) {
		snprintf(err, errlen, "kbuild: out of memory creating the tree");
		return -1;
	}
	if (kb->ds && kb_build_names(kb, err, errlen))
		return -1;
	return kb_spawn_make(kb, err, errlen);
}

static int kb_start(struct workload *w, char *err, size_t errlen)
{
	struct kbuild *kb = w->priv;

	kb->w = w;
	if (kb_load(kb, err, errlen))
		return -1;
	kb_size(kb);
	kb->nr_jobs = kb->jobs ? kb->jobs : w->engine->cfg.cpus;
	kb->first = kb;
	if (!(kb->sib = calloc(kb->builds, sizeof(*kb->sib)))) {
		snprintf(err, errlen, "kbuild: out of memory");
		return -1;
	}
	/* every build a copy of build 0 before its tree: the parameters,
	 * the sizes and the shared dataset, nothing of a tree */
	kb->sib[0] = kb;
	for (unsigned b = 1; b < kb->builds; b++) {
		if (!(kb->sib[b] = malloc(sizeof(*kb)))) {
			snprintf(err, errlen, "kbuild: out of memory");
			return -1;
		}
		*kb->sib[b] = *kb;
		kb->sib[b]->idx = b;
		kb->sib[b]->sib = NULL;
	}
	for (unsigned b = 0; b < kb->builds; b++)
		if (kb_start_build(kb->sib[b], err, errlen))
			return -1;
	return 0;
}

/* A build's make finished or died: the workload is finished when every
 * build's is */
void kb_build_done(struct kbuild *kb)
{
	if (kb->done)
		return;
	kb->done = true;
	if (++kb->first->nr_done == kb->first->builds)
		workload_finished(kb->w);
}

/* each build of the workload, build 0 first */
#define for_each_build(first, b) \
	for (unsigned b##_i = 0; b##_i < ((first)->sib ? (first)->builds : 1) && \
	     ((b) = (first)->sib ? (first)->sib[b##_i] : (first)); b##_i++)

static unsigned long build_header_pages_cached(const struct kbuild *kb)
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

/* kbuild_get_stats(): what the builds have together, their counters
 * summed (build 0's alone with builds = 1) */
int kbuild_get_stats(const struct workload *w, struct kbuild_stats *s)
{
	const struct kbuild *first = w->priv, *b;

	if (strcmp(w->ops->name, "kbuild"))
		return -1;
	memset(s, 0, sizeof(*s));
	for_each_build(first, b) {
		s->units += b->nr_units;
		s->archives += b->nr_archives;
		s->jobs += b->nr_jobs;
		s->units_done += b->units_done;
		s->jobs_failed += b->jobs_failed;
		s->oom_killed += b->oom_killed;
		s->build_failed |= b->build_failed;
		s->user_ns += b->user_ns;
		s->system_ns += b->system_ns;
		s->make_user_ns += b->make_user_ns;
		s->header_pages_cached += build_header_pages_cached(b);
		s->bdev_pages += b->bdev ? b->bdev->size : 0;
		s->failed_lookups += b->failed_lookups;
	}
	s->finished = w->finished;
	s->real_time = w->t_end >= 0 ? w->t_end - w->t_start : -1;
	return 0;
}

int kbuild_proc_trace(const struct workload *w, unsigned step, unsigned k, struct kbuild_proc_trace *out)
{
	const struct kbuild *kb = w->priv;
	static const char *const tools[] = { "gcc", "cc1", "as", "collect2", "ld", "ar", "other" };
	int pi;

	if (strcmp(w->ops->name, "kbuild") || !kb->ds || !kb->trace || step >= kb->nr_steps ||
	    (pi = kb_chain_proc(kb, step, k)) < 0)
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
	struct kbuild_stats t;

	kbuild_get_stats(w, &t);
	const struct { const char *name; double value; } m[] = {
		{ "real_time", t.real_time },
		{ "user_time", t.user_ns * 1e-9 },
		{ "system_time", t.system_ns * 1e-9 },
		{ "units", t.units },
		{ "units_done", t.units_done },
		{ "jobs", t.jobs },
		{ "jobs_failed", t.jobs_failed },
		{ "oom_killed", t.oom_killed },
		{ "build_failed", t.build_failed },
		{ "failed_lookups", (double)t.failed_lookups },
	};
	size_t i;

	for (i = 0; i < n && i < sizeof(m) / sizeof(m[0]); i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", m[i].name);
		out[i].value = m[i].value;
	}
	return i;
}

/* the inodes belong to the node (pgdat teardown frees them); the make
 * and job structures are freed by their processes.  Build 0 owns the
 * dataset and the CPU tables computed from it (kb_load); the others
 * share them. */
static void kb_free_build(struct kbuild *kb, bool owner)
{
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
	if (owner) {
		free(kb->step_extra_user);
		free(kb->step_extra_sys);
		kbuild_dataset_free(kb->ds);
	}
	kb->step_extra_user = kb->step_extra_sys = NULL;
	kb->ds = NULL;
	kb->zipf_cdf = NULL;
	kb->src = kb->obj = kb->hdr = kb->arc = NULL;
	kb->slots = NULL;
	kb->status = NULL;
	kb->step_utime = NULL;
}

static void kb_fini(struct workload *w)
{
	struct kbuild *kb = w->priv;

	for (unsigned b = 1; kb->sib && b < kb->builds; b++)
		if (kb->sib[b]) {
			kb_free_build(kb->sib[b], false);
			free(kb->sib[b]);
		}
	free(kb->sib);
	kb->sib = NULL;
	kb_free_build(kb, true);
}

/* A build whose make died (OOM kill, failed fork) or that built no unit
 * (every job lost to the OOM killer) measured no build: the run is
 * failed.  A build that lost some jobs is a result (jobs_failed says). */
static bool kb_failure(const struct workload *w, char *why, size_t len)
{
	struct kbuild_stats t;

	kbuild_get_stats(w, &t);
	if (t.build_failed) {
		if (why)
			snprintf(why, len, "make died (%u of %u units built)", t.units_done, t.units);
		return true;
	}
	if (w->finished && t.units && !t.units_done) {
		if (why)
			snprintf(why, len, "no unit built (%u jobs failed, %u OOM-killed)", t.jobs_failed,
			         t.oom_killed);
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
static int kb_restart_build(struct kbuild *kb, char *err, size_t errlen);

static int kb_restart(struct workload *w, unsigned iteration, char *err, size_t errlen)
{
	struct kbuild *first = w->priv, *kb;

	(void)iteration;
	for_each_build(first, kb)
		if ((kb->make && !kb->make->exited) || kb->nr_running)
			return 1;
	first->nr_done = 0;
	for_each_build(first, kb)
		if (kb_restart_build(kb, err, errlen))
			return -1;
	return 0;
}

/* make clean and make again on one build's tree */
static int kb_restart_build(struct kbuild *kb, char *err, size_t errlen)
{
	struct pglist_data *pgdat = kb->w->pgdat;
	struct mm_ctx ctx = { 0 };

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
	kb->done = false;
	if (!(kb->make = engine_spawn(kb->w->engine, "make", &kb_make_ops, kb))) {
		snprintf(err, errlen, "kbuild: cannot spawn make");
		return -1;
	}
	return 0;
}
