/* thp_faulter.c - the RFC's concurrent THP faulter: one process that, for
 * the whole run, mmaps a region, madvise(MADV_HUGEPAGE)s it, touches every
 * page (each 2 MiB range faults a THP or, failing that, 4 KiB pages),
 * holds it, and munmaps it.  Background workload: it stops when the
 * measured workload has finished.
 *
 * Parameters (sizes in bytes with K/M/G suffix, times in seconds):
 *   region    size of each mapping (256M)
 *   hold      seconds the touched region is kept before munmap (1)
 *   pause     seconds between munmap and the next mmap (0.1)
 *   touch_ns  user time per 4 KiB touched (memset at ~10 GB/s: 400)
 */
#include <stdio.h>
#include <string.h>
#include "mmsim/limits.h"
#include "workload.h"

struct thp_faulter {
	/* parameters */
	unsigned long region;           /* pages */
	double hold, pause, touch_ns;
	/* progress */
	enum { TF_MAP, TF_TOUCH, TF_HOLD, TF_UNMAP } state;
	unsigned long base, touched;
	unsigned long cycles;
	struct task *task;
	struct workload *w;
};

/* region: its page tables are host memory, a pte per page (mm_grow):
 * bounded here with a message, not by an abort when the mapping is made */
static const char *tf_check_region(const void *owner, const char *value, char *buf, size_t len)
{
	const struct thp_faulter *f = owner;
	(void)value;
	if (mmsim_host_memory_check((uint64_t)f->region * MMSIM_BYTES_PER_PTE, buf, len))
		return buf;
	return NULL;
}

/* The parameters: one entry each (mmsim/param.h).  region's 4T bound
 * keeps its page index within the model's 32 bits. */
static const struct param thp_faulter_params[] = {
	{ "region", PARAM_PAGES, "bytes", 2 << 20, 4.0 * (1ull << 40), "256M",
	  "size of each mapping (at most 4T, within the model's 32-bit page index)",
	  PARAM_AT(struct thp_faulter, region), .check = tf_check_region },
	{ "hold", PARAM_DOUBLE, "seconds", 0, 1e6, "1", "seconds a touched region is held before munmap",
	  PARAM_AT(struct thp_faulter, hold) },
	{ "pause", PARAM_DOUBLE, "seconds", 0, 1e6, "0.1", "seconds between munmap and the next mmap",
	  PARAM_AT(struct thp_faulter, pause) },
	{ "touch_ns", PARAM_DOUBLE, "ns", 0, 1e9, "400", "user ns to write one 4 KiB page",
	  PARAM_AT(struct thp_faulter, touch_ns) },
	{ NULL },
};

/* one quantum: fault and write pages until the quantum's CPU time is used */
static double tf_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct thp_faulter *f = arg;
	struct pglist_data *pgdat = f->w->pgdat;
	double quantum_ns = t->engine->cfg.quantum * 1e9, user = 0;

	if (workload_stopping(f->w) && f->state != TF_UNMAP && f->state != TF_HOLD)
		return -1;
	switch (f->state) {
	case TF_MAP:
		f->base = mm_mmap(t->mm, f->region);
		mm_madvise_hugepage(t->mm, f->base, f->region);
		f->touched = 0;
		f->state = TF_TOUCH;
		/* fall through */
	case TF_TOUCH:
		/* a 2 MiB step at a time: a THP fault or 512 small ones */
		while (f->touched < f->region && user + ctx->kernel_ns < quantum_ns) {
			unsigned long n = f->region - f->touched;
			if (n > PTRS_PER_PTE)
				n = PTRS_PER_PTE;
			if (mm_access(pgdat, ctx, t->mm, f->base + f->touched, n, true))
				return -1;      /* OOM victim */
			f->touched += n;
			user += n * f->touch_ns;
		}
		if (f->touched == f->region) {
			f->state = TF_HOLD;
			t->sleep = f->hold;
		}
		return user;
	case TF_HOLD:
		f->state = TF_UNMAP;
		/* fall through */
	case TF_UNMAP:
		mm_unmap(pgdat, ctx, t->mm, f->base, f->region);
		f->cycles++;
		f->state = TF_MAP;
		if (workload_stopping(f->w))
			return -1;
		t->sleep = f->pause;
		return 0;
	}
	return -1;
}

static void tf_exit(struct task *t, void *arg)
{
	(void)t;
	(void)arg;
}

static const struct task_ops thp_faulter_task_ops = {
	.quantum = tf_quantum,
	.exit = tf_exit,
};

static int tf_start(struct workload *w, char *err, size_t errlen)
{
	struct thp_faulter *f = w->priv;

	f->w = w;
	f->task = engine_spawn(w->engine, "thp_faulter", &thp_faulter_task_ops, f);
	if (!f->task) {
		snprintf(err, errlen, "thp_faulter: cannot spawn its process");
		return -1;
	}
	return 0;
}

static size_t tf_report(const struct workload *w, struct metric *out, size_t n)
{
	const struct thp_faulter *f = w->priv;
	size_t i = 0;

	if (i < n) {
		snprintf(out[i].name, sizeof(out[i].name), "thp_faulter_cycles");
		out[i++].value = (double)f->cycles;
	}
	return i;
}

const struct workload_ops thp_faulter_ops = {
	.name = "thp_faulter",
	.desc = "mmap a region, madvise(MADV_HUGEPAGE), touch, hold, munmap; repeat for the whole run",
	.params = thp_faulter_params,
	.priv_size = sizeof(struct thp_faulter),
	.measured = false,
	.report = tf_report,
	.start = tf_start,
};
