/* kbuild_measured.c - a measured tree (a dataset of workloads/data/kbuild):
 * its files, each step's chain of processes and their inputs, a compile
 * step's values.  Part of the kbuild workload (kbuild.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kbuild_int.h"

/* The processes a measured step runs one after another, each its own
 * fork+exec with its own memory: for a compile, cc1, then as (reading the
 * .s cc1 wrote to a temporary file: kbuild does not pass -pipe), then, for
 * a host program, ld (run by collect2); an ar or ld step is its one
 * process.  The gcc driver and collect2 that wait for them are not
 * processes here (their own CPU is a few per cent of cc1's). */
bool kb_chain_tool(uint8_t tool)
{
	return tool == KBD_CC1 || tool == KBD_AS || tool == KBD_TOOL_LD || tool == KBD_TOOL_AR;
}

/* the index in ds->procs of the k-th process of step's chain, or -1 */
int kb_chain_proc(const struct kbuild *kb, unsigned step, unsigned k)
{
	const struct kbd_step *st = &kb->ds->steps[step];

	for (uint32_t i = 0; i < st->nr_procs; i++)
		if (kb_chain_tool(kb->ds->procs[st->proc_off + i].tool) && k-- == 0)
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
	return kb_name(kb, DNAME_NONE, path);
}

/* fork+exec of process k of measured step `step` in slot s */
struct task *kb_spawn_measured(struct kbuild *kb, struct kb_slot *s, unsigned step, unsigned k)
{
	const struct kbuild_dataset *d = kb->ds;
	const struct kbd_step *st = &d->steps[step];
	int pi = kb_chain_proc(kb, step, k);
	unsigned si = (unsigned)(s - kb->slots), cap;
	bool last = kb_chain_proc(kb, step, k + 1) < 0;
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
	j->rng = kb_rng(kb, ((uint64_t)step << 3) | k);
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
			j->input_pages += kb_job_input_weight(j, j->in[i]);
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

/* The measured tree: every file the build read (sources and headers) with
 * its measured size, and the tree's other files, as many as the measured
 * tree held beyond those, with their mean size. */
int kb_create_measured_tree(struct kbuild *kb)
{
	const struct kbuild_dataset *d = kb->ds;
	struct pglist_data *pgdat = kb->w->pgdat;
	uint64_t read_bytes = 0, rest_files, rest_bytes;

	kb->file = calloc(d->nr_files ? d->nr_files : 1, sizeof(*kb->file));
	kb->out = calloc(d->nr_steps, sizeof(*kb->out));
	kb->scratch = calloc(2 * kb->nr_jobs, sizeof(*kb->scratch));
	kb->reaped = calloc(d->nr_steps, 1);
	kb->trace = calloc(d->nr_procs ? d->nr_procs : 1, sizeof(*kb->trace));
	if (!kb->file || !kb->out || !kb->scratch || !kb->reaped || !kb->trace || kb_alloc_steps(kb))
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
	if (!kb->tree || kb_create_bdev(kb, tree_id(kb, kb->nr_tree)))
		return -1;
	if (kb->warm) {
		if (kb_create_files(pgdat, kb_rng(kb, ENTITY_TREE_SIZES), kb->tree, kb->nr_tree, kb->tree_kib))
			return -1;
		kb_warm_fill(kb);
	}
	return 0;
}

/* a measured compile step's values, as kb_spawn_measured() uses them */
int kb_measured_unit(struct kbuild *kb, unsigned step, struct kbuild_unit *u)
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
