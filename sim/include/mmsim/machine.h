/* machine.h - booting a machine: the one place where a machine
 * description (the guest's RAM laid out as QEMU's pc machine does, its
 * CPUs, swap, sysctls) and a policy become a node, for every verb of the
 * command line, the run driver (<mmsim/run.h>), the benchmarks and the
 * tests.  Nothing here prints: -1 with a message in err. */
#ifndef MMSIM_MACHINE_H
#define MMSIM_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include "mmsim/mm.h"
#include "mmsim/policy.h"

struct scenario_config;

/* A machine: the guest's RAM laid out as QEMU's pc machine does, its
 * CPUs (one set of per-cpu lists each), swap, sysctls. */
struct machine_desc {
	uint64_t ram;                   /* bytes */
	unsigned cpus;
	unsigned long kernel_reserved;  /* pages never managed (kernel image, early boot) */
	uint64_t swap;                  /* bytes (0: none) */
	double swap_latency;            /* seconds per I/O */
	double swap_bandwidth;          /* bytes per second */
	struct vm_sysctl sysctl;
	unsigned long check_every;      /* debug_vm: check the state every N operations (0: never) */
};

/* 2 GiB, 4 CPUs, the reference guest's 9542 reserved pages, no swap (a
 * 100 us, 1 GB/s device if swap is set), the kernel's sysctl defaults */
void machine_desc_defaults(struct machine_desc *d);
/* the machine of a resolved scenario's [machine], [vm],
 * [transparent_hugepage] and [kernel] */
void machine_desc_from_scenario(struct machine_desc *d, const struct scenario_config *c);
/* Boot pgdat with the (validated) policy; on failure nothing is left to
 * free but the policy, which stays the caller's. */
int  machine_boot(struct pglist_data *pgdat, const struct machine_desc *d, struct mm_policy *policy,
                  char *err, size_t errlen);
/* pgdat_destroy() and the policy (NULL: none) */
void machine_shutdown(struct pglist_data *pgdat, struct mm_policy *policy);

#endif
