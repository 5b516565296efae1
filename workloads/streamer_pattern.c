/* streamer_pattern.c - the streamer's access sequence (see the header).
 *
 * Random order without repetition: block numbers 0..n-1 of a pass are
 * mapped through a four-round Feistel network over 2h bits (a bijection
 * of [0, 2^2h), keyed by the pass), walking the cycle until the value
 * falls below n (cycle walking keeps it a bijection of [0, n)).  2^2h is
 * less than 4n, so a block costs at most a few rounds on average. */
#include <stdio.h>
#include "streamer_pattern.h"

#define SP_ROUNDS 4

static uint64_t splitmix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t sp_default_block(enum sp_order order)
{
	return order == SP_SEQ ? 128u << 10 : 4u << 10;
}

unsigned sp_files_of(const struct sp_config *c, unsigned proc)
{
	return c->files / c->procs + (proc < c->files % c->procs ? 1 : 0);
}

int sp_check(const struct sp_config *c, char *err, size_t errlen)
{
	if (c->procs < 1 || c->files < c->procs) {
		snprintf(err, errlen, "files (%u) must be at least procs (%u): each process reads its own files",
		         c->files, c->procs);
		return -1;
	}
	if (!c->file_size || !c->block) {
		snprintf(err, errlen, "file size and block must be positive");
		return -1;
	}
	return 0;
}

static void sp_new_pass(struct sp_state *s)
{
	s->pos = 0;
	s->key = splitmix64(s->seed ^ splitmix64(s->pass));
}

void sp_init(struct sp_state *s, const struct sp_config *c, unsigned proc, uint64_t seed)
{
	unsigned bits = 0;

	*s = (struct sp_state){ .c = *c, .proc = proc };
	/* the run seed and the process: unrelated streams per process */
	s->seed = splitmix64(seed * 0x9e3779b97f4a7c15ull + proc + 1);
	s->nfiles = sp_files_of(c, proc);
	s->blocks_per_file = (c->file_size + c->block - 1) / c->block;
	s->nblocks = s->nfiles * s->blocks_per_file;
	while (bits < 64 && (1ull << bits) < s->nblocks)
		bits++;
	s->half_bits = (bits + 1) / 2;
	s->done = s->nblocks == 0;
	sp_new_pass(s);
}

static uint64_t feistel(const struct sp_state *s, uint64_t x)
{
	unsigned h = s->half_bits;
	uint64_t mask = (1ull << h) - 1, l = x >> h, r = x & mask;

	for (unsigned i = 0; i < SP_ROUNDS; i++) {
		uint64_t f = splitmix64(s->key ^ ((uint64_t)i << 56) ^ r) & mask;
		uint64_t t = r;
		r = l ^ f;
		l = t;
	}
	return (l << h) | r;
}

static uint64_t permute(const struct sp_state *s, uint64_t i)
{
	uint64_t x = i;

	if (s->nblocks <= 1)
		return 0;
	do
		x = feistel(s, x);
	while (x >= s->nblocks);
	return x;
}

bool sp_next(struct sp_state *s, struct sp_io *io)
{
	uint64_t g, blk;

	if (s->done)
		return false;
	g = s->c.order == SP_SEQ ? s->pos : permute(s, s->pos);
	blk = g % s->blocks_per_file;
	io->file = s->proc + (unsigned)(g / s->blocks_per_file) * s->c.procs;
	io->offset = blk * s->c.block;
	io->len = s->c.file_size - io->offset < s->c.block ? s->c.file_size - io->offset : s->c.block;
	if (++s->pos == s->nblocks) {
		if (s->c.reread) {
			s->pass++;
			sp_new_pass(s);
		} else {
			s->done = true;
		}
	}
	return true;
}
