/* kbuild_job.c - one process of the build beyond make (cc1, as, ar, ld):
 * what each quantum of it reads, grows, writes and maps.  Part of the
 * kbuild workload (kbuild.c). */
#include <stdlib.h>
#include "kbuild_int.h"

struct address_space *kb_job_input(const struct kb_job *j, unsigned k, uint32_t *id)
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
unsigned long kb_job_input_weight(const struct kb_job *j, const struct address_space *as)
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
		struct address_space *as = kb_job_input(j, j->next_input, &id);
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
		j->read_pages += kb_job_input_weight(j, as);
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

const struct task_ops kb_job_ops = {
	.quantum = job_quantum,
	.exit = job_exit,
};
