/* limits.h - what a run may ask of the host: bounds that turn a value
 * that would exhaust the host's memory or fill its disk (a 4T machine, a
 * sample every nanosecond) into a clear error before the run starts,
 * and the way to lift them on purpose.  They change no result: they are
 * read from the environment, not from the scenario (whose text and hash
 * stay the same). */
#ifndef MMSIM_LIMITS_H
#define MMSIM_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Host memory a run's model state may take: MMSIM_HOST_MEMORY (a size,
 * K/M/G/T suffix) if set, else half of the host's physical memory. */
uint64_t mmsim_host_memory_allowed(void);
/* 0 if need bytes of model state fit; else -1 with the message tail
 * ("needs about 33 GiB ...; ... MMSIM_HOST_MEMORY=SIZE ...") in err. */
int mmsim_host_memory_check(uint64_t need, char *err, size_t errlen);
/* 0 if MMSIM_HOST_MEMORY is unset or a positive size; else -1 with a
 * message naming the variable (a malformed bound is refused, never
 * ignored: it would be cited as the limit's source). */
int mmsim_host_memory_env_check(char *err, size_t errlen);

/* Records of one time series a run may store (the sampler's, the
 * census's): MMSIM_MAX_SAMPLES if set, else 100000. */
unsigned long mmsim_max_samples(void);

/* Does a run end with check_pgdat() over the whole node?  Always in a
 * debug build; in a release build unless MMSIM_CHECK_AT_END=0 (the walk
 * is O(RAM): 4 % of a 128 GiB run, docs/benchmarks.md).  It changes no
 * result, only whether a violation is caught before the run is recorded. */
bool mmsim_check_at_end(void);
/* 0 if MMSIM_CHECK_AT_END is unset, 0 or 1; else -1 with a message. */
int mmsim_check_at_end_env_check(char *err, size_t errlen);

/* Model state per page frame spanned (struct page, pageblock bits) and
 * per page a process can map (its pte), for mmsim_host_memory_check()'s
 * callers. */
#define MMSIM_BYTES_PER_SWAP_SLOT 12u   /* swapfile.c: three uint32_t arrays */
#define MMSIM_BYTES_PER_PTE        5u   /* memory.c: pte, page table, young bit */

#endif
