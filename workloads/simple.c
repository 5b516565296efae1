/* simple.c - see simple.h. */
#include <gsl/gsl_rng.h>
#include <string.h>
#include "simple.h"

static double quantum_ns(const struct task *t)
{
	return t->engine->cfg.quantum * 1e9;
}

/* ------------------------------------------------------------ cpu_burner */

void cpu_burner_init(struct cpu_burner *b, double total_ns)
{
	memset(b, 0, sizeof(*b));
	b->total_ns = total_ns;
}

static double cpu_burner_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct cpu_burner *b = arg;
	double run = b->total_ns - b->done_ns;

	(void)ctx;
	if (run <= 0)
		return -1;
	if (run > quantum_ns(t))
		run = quantum_ns(t);
	b->done_ns += run;
	return run;
}

const struct task_ops cpu_burner_ops = { .quantum = cpu_burner_quantum };

/* ------------------------------------------------------------ anon_hog */

/* splitmix64: a seed per (seed, index) pair, independent of the order in
 * which processes run */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void anon_hog_init(struct anon_hog *h, unsigned long target, unsigned long rate, unsigned long hot,
                   double duration, uint64_t seed, unsigned long index)
{
	memset(h, 0, sizeof(*h));
	h->target = target;
	h->rate = rate ? rate : 1;
	h->hot = hot;
	h->duration = duration;
	h->seed = seed;
	h->index = index;
	h->grown_at = -1;
}

static double anon_hog_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct anon_hog *h = arg;
	struct pglist_data *pgdat = t->engine->pgdat;

	if (!h->rng) {
		h->rng = gsl_rng_alloc(gsl_rng_taus2);
		gsl_rng_set(h->rng, (unsigned long)mix64(h->seed ^ mix64(h->index)));
	}
	if (h->grown < h->target) {
		unsigned long n = h->target - h->grown, v;
		if (n > h->rate)
			n = h->rate;
		v = mm_grow(t->mm, n);
		if (!h->grown)
			h->base = v;
		/* mm_grow() extends one area: the pages are base .. base+grown */
		h->grown += n;
		if (mm_access(pgdat, ctx, t->mm, v, n, true))
			h->fault_failures++;
		if (h->grown == h->target)
			h->grown_at = engine_now();
		return quantum_ns(t);
	}
	if (h->grown_at < 0)
		h->grown_at = engine_now();     /* target 0 */
	if (engine_now() - h->grown_at >= h->duration)
		return -1;
	if (h->hot && h->grown) {
		unsigned long n = h->hot < h->grown ? h->hot : h->grown;
		unsigned long off = 0;
		if (h->grown > n)
			off = gsl_rng_uniform_int(h->rng, h->grown - n + 1);
		if (mm_access(pgdat, ctx, t->mm, h->base + off, n, h->hot_write))
			h->fault_failures++;
	}
	return quantum_ns(t);
}

static void anon_hog_exit(struct task *t, void *arg)
{
	struct anon_hog *h = arg;

	(void)t;
	if (h->rng)
		gsl_rng_free(h->rng);
	h->rng = NULL;
}

const struct task_ops anon_hog_ops = { .quantum = anon_hog_quantum, .exit = anon_hog_exit };

/* ------------------------------------------------------------ file_reader */

void file_reader_init(struct file_reader *r, struct address_space **files, unsigned nr_files,
                      unsigned long chunk, unsigned passes, double user_ns_per_page)
{
	memset(r, 0, sizeof(*r));
	r->files = files;
	r->nr_files = nr_files;
	r->chunk = chunk ? chunk : 1;
	r->passes = passes;
	r->user_ns_per_page = user_ns_per_page;
}

static double file_reader_quantum(struct task *t, struct mm_ctx *ctx, void *arg)
{
	struct file_reader *r = arg;
	struct pglist_data *pgdat = t->engine->pgdat;
	struct address_space *as;
	unsigned long n;

	/* skip finished (or empty) files and passes */
	while (r->pass < r->passes && r->nr_files) {
		if (r->file < r->nr_files && r->index < r->files[r->file]->size)
			break;
		r->index = 0;
		if (++r->file >= r->nr_files) {
			r->file = 0;
			r->pass++;
		}
	}
	if (r->pass >= r->passes || !r->nr_files)
		return -1;
	as = r->files[r->file];
	n = as->size - r->index;
	if (n > r->chunk)
		n = r->chunk;
	if (filemap_read(pgdat, ctx, as, r->index, n))
		r->read_failures++;
	r->index += n;
	r->pages_read += n;
	return (double)n * r->user_ns_per_page;
}

const struct task_ops file_reader_ops = { .quantum = file_reader_quantum };
