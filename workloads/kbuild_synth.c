/* kbuild_synth.c - the synthetic tree (tree = synthetic): the generator
 * that draws its files and units, the tree it creates, and make's
 * fork+exec of one of its steps.  Part of the kbuild workload (kbuild.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include "kbuild_int.h"

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
int kb_create_files(struct pglist_data *pgdat, gsl_rng *r, struct address_space **as, unsigned n,
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

gsl_rng *kb_rng_for(const struct workload *w, uint64_t entity)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);

	if (!r)
		abort();
	gsl_rng_set(r, (unsigned long)workload_seed(w, entity));
	return r;
}

/* a build's own streams: build 0's are the workload's (builds = 1 draws
 * what it always drew), build i's the same entities xor i << 48 */
gsl_rng *kb_rng(const struct kbuild *kb, uint64_t entity)
{
	return kb_rng_for(kb->w, entity ^ ((uint64_t)kb->idx << 48));
}

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
		return unit < kb->nr_steps ? kb_measured_unit(kb, unit, u) : -1;
	if (unit >= kb->nr_units)
		return -1;
	headers = malloc((kb->headers + 1) * sizeof(uint32_t));
	if (!headers)
		return -1;
	r = kb_rng_for(w, unit);
	draw_unit(kb, r, u, headers);
	gsl_rng_free(r);
	free(headers);
	return 0;
}

/* The synthetic tree: sources and headers drawn from the generator. */
int kb_create_synthetic_tree(struct kbuild *kb)
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
	if (!kb->src || !kb->obj || !kb->hdr || !kb->arc || kb_alloc_steps(kb))
		return -1;
	kb->nr_tree = (unsigned)ceil(kb->tree_files * kb->scale);
	kb->tree = calloc(kb->nr_tree ? kb->nr_tree : 1, sizeof(*kb->tree));
	if (!kb->tree || kb_create_bdev(kb, tree_id(kb, kb->nr_tree)))
		return -1;

	/* sources: the first draw of each unit's stream is its size */
	for (unsigned i = 0; i < kb->nr_units; i++) {
		struct kbuild_unit u;
		r = kb_rng(kb, i);
		draw_unit(kb, r, &u, NULL);
		gsl_rng_free(r);
		if (!(kb->src[i] = inode_create(pgdat, u.source_pages, false)))
			return -1;
	}
	/* headers, most popular first */
	if (kb_create_files(pgdat, kb_rng(kb, ENTITY_TREE), kb->hdr, kb->headers, kb->header_kib))
		return -1;

	if (kb->warm) {
		/* the tree's other files, with their sizes (their own stream, so
		 * that a cold start draws what it always drew) */
		if (kb_create_files(pgdat, kb_rng(kb, ENTITY_TREE_SIZES), kb->tree, kb->nr_tree, kb->tree_kib))
			return -1;
		kb_warm_fill(kb);
	}
	return 0;
}

/* make's fork+exec of one step */
struct task *kb_spawn_step(struct kbuild *kb, unsigned step)
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
		j->rng = kb_rng(kb, step);
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
		j->rng = kb_rng(kb, ENTITY_ARCHIVE + a);
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
		j->rng = kb_rng(kb, ENTITY_LINK);
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
		struct address_space *as = kb_job_input(j, k, &id);
		if (as)
			j->input_pages += kb_job_input_weight(j, as);
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
