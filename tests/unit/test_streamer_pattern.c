/* test_streamer_pattern.c - the streamer's access sequence
 * (workloads/streamer_pattern.c), which the simulated workload and the
 * real program share: seq reads every block of every file once per pass,
 * in order, the last block short; random reads every block once per pass
 * in an order that depends on the seed and changes from pass to pass;
 * the same seed gives the same sequence; reread = no ends after one pass;
 * processes read disjoint shares of the files that cover them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "streamer_pattern.h"

/* 5 files of 10 blocks and a half: 11 blocks each, the last of 2 KiB */
static struct sp_config cfg(enum sp_order order, bool reread, unsigned procs)
{
	return (struct sp_config){ .files = 5, .file_size = 10 * 4096 + 2048, .block = 4096,
	                           .order = order, .reread = reread, .procs = procs };
}

#define BPF 11u

/* one pass of process proc: marks seen[file * BPF + block]; returns reads */
static unsigned one_pass(struct sp_state *s, const struct sp_config *c, unsigned *seen, struct sp_io *log)
{
	struct sp_io io;
	unsigned n = 0;
	uint64_t pass = s->pass;

	while (s->pass == pass && !s->done && sp_next(s, &io)) {
		assert_true(io.file < c->files);
		assert_int_equal(io.file % c->procs, s->proc);
		assert_int_equal(io.offset % c->block, 0);
		assert_true(io.offset < c->file_size);
		assert_int_equal(io.len, io.offset / c->block == BPF - 1 ? 2048 : 4096);
		seen[io.file * BPF + io.offset / c->block]++;
		if (log)
			log[n] = io;
		n++;
	}
	return n;
}

static void test_seq_covers_in_order(void **state)
{
	struct sp_config c = cfg(SP_SEQ, true, 1);
	unsigned seen[5 * BPF] = { 0 };
	struct sp_io log[5 * BPF];
	struct sp_state s;
	(void)state;

	sp_init(&s, &c, 0, 1);
	for (int pass = 1; pass <= 3; pass++) {
		assert_int_equal(one_pass(&s, &c, seen, log), 5 * BPF);
		for (unsigned i = 0; i < 5 * BPF; i++) {
			assert_int_equal(seen[i], pass);
			/* file by file, block by block */
			assert_int_equal(log[i].file, i / BPF);
			assert_int_equal(log[i].offset, (uint64_t)(i % BPF) * 4096);
		}
	}
	assert_int_equal(s.pass, 3);
}

static void test_random_each_block_once_per_pass(void **state)
{
	struct sp_config c = cfg(SP_RANDOM, true, 1);
	unsigned seen[5 * BPF] = { 0 };
	struct sp_io first[5 * BPF], second[5 * BPF];
	struct sp_state s;
	unsigned in_order = 0, same = 0;
	(void)state;

	sp_init(&s, &c, 0, 7);
	assert_int_equal(one_pass(&s, &c, seen, first), 5 * BPF);
	for (unsigned i = 0; i < 5 * BPF; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(one_pass(&s, &c, seen, second), 5 * BPF);
	for (unsigned i = 0; i < 5 * BPF; i++) {
		assert_int_equal(seen[i], 2);
		in_order += first[i].file == i / BPF && first[i].offset == (uint64_t)(i % BPF) * 4096;
		same += first[i].file == second[i].file && first[i].offset == second[i].offset;
	}
	/* a shuffled order, and another one in the next pass */
	assert_true(in_order < 10);
	assert_true(same < 10);
}

/* a large file set: the bijection holds beyond small counts (a count
 * just above a power of four, where cycle walking does the most) */
static void test_random_large(void **state)
{
	struct sp_config c = { .files = 3, .file_size = 87382ull * 4096, .block = 4096, .order = SP_RANDOM,
	                       .reread = false, .procs = 1 };
	uint64_t n = 3 * 87382ull;      /* 262146 = 2^18 + 2 */
	unsigned char *seen = calloc(n, 1);
	struct sp_state s;
	struct sp_io io;
	uint64_t reads = 0;
	(void)state;

	assert_non_null(seen);
	sp_init(&s, &c, 0, 3);
	while (sp_next(&s, &io)) {
		uint64_t g = io.file * 87382ull + io.offset / 4096;
		assert_true(g < n);
		assert_int_equal(seen[g], 0);
		seen[g] = 1;
		reads++;
	}
	assert_int_equal(reads, n);
	free(seen);
}

static void test_same_seed_same_sequence(void **state)
{
	struct sp_config c = cfg(SP_RANDOM, true, 2);
	struct sp_state a, b, d;
	struct sp_io x, y, z;
	unsigned differ = 0;
	(void)state;

	sp_init(&a, &c, 1, 42);
	sp_init(&b, &c, 1, 42);
	sp_init(&d, &c, 1, 43);
	for (int i = 0; i < 1000; i++) {
		assert_true(sp_next(&a, &x));
		assert_true(sp_next(&b, &y));
		assert_true(sp_next(&d, &z));
		assert_memory_equal(&x, &y, sizeof(x));
		differ += x.file != z.file || x.offset != z.offset;
	}
	assert_true(differ > 500);
}

static void test_once_then_stop(void **state)
{
	for (int order = SP_SEQ; order <= SP_RANDOM; order++) {
		struct sp_config c = cfg((enum sp_order)order, false, 1);
		unsigned seen[5 * BPF] = { 0 };
		struct sp_state s;
		struct sp_io io;
		(void)state;

		sp_init(&s, &c, 0, 1);
		assert_int_equal(one_pass(&s, &c, seen, NULL), 5 * BPF);
		assert_true(s.done);
		assert_false(sp_next(&s, &io));
		assert_false(sp_next(&s, &io));
	}
}

/* process p reads files p, p + procs, ...: together, every block once */
static void test_procs_share_files(void **state)
{
	for (int order = SP_SEQ; order <= SP_RANDOM; order++) {
		struct sp_config c = cfg((enum sp_order)order, false, 2);
		unsigned seen[5 * BPF] = { 0 };
		(void)state;

		assert_int_equal(sp_files_of(&c, 0), 3);
		assert_int_equal(sp_files_of(&c, 1), 2);
		for (unsigned p = 0; p < 2; p++) {
			struct sp_state s;
			sp_init(&s, &c, p, 5);
			assert_int_equal(one_pass(&s, &c, seen, NULL), sp_files_of(&c, p) * BPF);
		}
		for (unsigned i = 0; i < 5 * BPF; i++)
			assert_int_equal(seen[i], 1);
	}
}

static void test_check(void **state)
{
	struct sp_config c = cfg(SP_SEQ, true, 6);
	char err[128];
	(void)state;

	assert_int_equal(sp_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "files (5) must be at least procs (6)"));
	c.procs = 5;
	assert_int_equal(sp_check(&c, err, sizeof(err)), 0);
	assert_int_equal(sp_default_block(SP_SEQ), 128 << 10);
	assert_int_equal(sp_default_block(SP_RANDOM), 4 << 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_covers_in_order),
		cmocka_unit_test(test_random_each_block_once_per_pass),
		cmocka_unit_test(test_random_large),
		cmocka_unit_test(test_same_seed_same_sequence),
		cmocka_unit_test(test_once_then_stop),
		cmocka_unit_test(test_procs_share_files),
		cmocka_unit_test(test_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
