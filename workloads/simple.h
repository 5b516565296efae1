/* simple.h - simple processes for the engine's tests and benchmarks.
 *
 * Each is a struct task_ops and a per-process state struct, passed as the
 * arg of engine_spawn() (one struct per process: it holds the process's
 * progress).  Fill the parameters, call the *_init() function, spawn.
 * Work is sized by the engine's quantum (t->engine->cfg.quantum).
 */
#ifndef MMSIM_WORKLOADS_SIMPLE_H
#define MMSIM_WORKLOADS_SIMPLE_H

#include <stdint.h>
#include "mmsim/engine.h"

/* (a) cpu_burner: total_ns of user time, a full quantum at a time; no
 * memory beyond what fork gives it. */
struct cpu_burner {
	double total_ns;                /* parameter */
	double done_ns;                 /* progress */
};
void cpu_burner_init(struct cpu_burner *b, double total_ns);
extern const struct task_ops cpu_burner_ops;

/* (b) anon_hog: grows its anonymous memory by rate pages a quantum (brk and
 * a write to each new page) up to target pages, then for duration seconds
 * of virtual time touches a hot set each quantum: a window of hot pages at
 * a random place in its memory.  Every quantum is a full quantum of user
 * time.  The random stream is GSL's, seeded from (seed, index): give each
 * process its own index (never an actor id). */
struct anon_hog {
	/* parameters */
	unsigned long target;           /* pages */
	unsigned long rate;             /* pages grown per quantum */
	unsigned long hot;              /* pages touched per quantum once grown */
	double duration;                /* seconds of touching once grown */
	bool hot_write;                 /* the touches write (default: they read) */
	uint64_t seed;
	unsigned long index;
	/* progress */
	unsigned long base, grown;
	double grown_at;                /* virtual time the target was reached (-1: not yet) */
	unsigned long fault_failures;   /* quanta whose mm_access failed */
	void *rng;                      /* gsl_rng */
};
void anon_hog_init(struct anon_hog *h, unsigned long target, unsigned long rate, unsigned long hot,
                   double duration, uint64_t seed, unsigned long index);
extern const struct task_ops anon_hog_ops;

/* (c) file_reader: reads the files in order, chunk pages a quantum
 * (a chunk stops at the end of a file), passes times over the whole set,
 * with user_ns_per_page of user time per page read. */
struct file_reader {
	/* parameters */
	struct address_space **files;
	unsigned nr_files;
	unsigned long chunk;
	unsigned passes;
	double user_ns_per_page;
	/* progress */
	unsigned pass, file;
	unsigned long index;
	unsigned long pages_read;
	unsigned long read_failures;
};
void file_reader_init(struct file_reader *r, struct address_space **files, unsigned nr_files,
                      unsigned long chunk, unsigned passes, double user_ns_per_page);
extern const struct task_ops file_reader_ops;

#endif
