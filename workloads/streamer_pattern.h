/* streamer_pattern.h - which file and which offset the streamer reads
 * next: the access sequence of the `streamer` file reader, shared by the
 * simulated workload (workloads/streamer.c) and the real program
 * (real/streamer.c), so that both read the same blocks in the same order
 * for the same seed.  Plain C, no SimGrid, no GSL: nothing but this file
 * and its .c is needed to build the real program.
 *
 * The files are numbered 0..files-1, each file_size bytes, read in
 * blocks of `block` bytes (a file's last block is shorter when the size
 * is not a multiple).  With procs > 1 process p reads the files f with
 * f % procs == p (fio's numjobs, each job with its own files).  A pass
 * reads every block of the process's files once:
 *   seq     file by file, each from its first block to its last;
 *   random  the same blocks in a random order without repetition (fio's
 *           random map): a keyed bijection of the block numbers, new key
 *           each pass, O(1) memory whatever the files' size.
 * With reread the passes go on forever; without, the sequence ends after
 * the first. */
#ifndef MMSIM_STREAMER_PATTERN_H
#define MMSIM_STREAMER_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sp_order { SP_SEQ, SP_RANDOM };

struct sp_config {
	unsigned files;                 /* every process's files together */
	uint64_t file_size;             /* bytes, each */
	uint64_t block;                 /* bytes per read */
	enum sp_order order;
	bool reread;
	unsigned procs;
};

/* one read: pread(fd of file, buf, len, offset) */
struct sp_io {
	unsigned file;
	uint64_t offset, len;
};

struct sp_state {
	struct sp_config c;
	unsigned proc;
	uint64_t seed;
	unsigned nfiles;                /* this process's files */
	uint64_t blocks_per_file, nblocks;
	uint64_t pass, pos;             /* the pass, the next block's place in it */
	unsigned half_bits;             /* random: the bijection's domain is 2^(2 half_bits) */
	uint64_t key;                   /* random: this pass's key */
	bool done;
};

/* The default block for an order: 128 KiB sequential (the kernel's
 * default readahead window, read_ahead_kb = 128: one read, one readahead
 * request), 4 KiB random (a page: random readers' usual unit). */
uint64_t sp_default_block(enum sp_order order);
/* Is the configuration readable?  0, or -1 with the reason in err. */
int sp_check(const struct sp_config *c, char *err, size_t errlen);
/* Process proc's sequence for the run seed `seed`. */
void sp_init(struct sp_state *s, const struct sp_config *c, unsigned proc, uint64_t seed);
/* The next read; false when the sequence has ended (no reread, the pass
 * read). */
bool sp_next(struct sp_state *s, struct sp_io *io);
/* The files process proc reads (its share of c->files). */
unsigned sp_files_of(const struct sp_config *c, unsigned proc);

#endif
