/* machine.c - booting a machine (see machine.h): the one place where a
 * layout, the sysctls, swap and the invariant checker's interval become
 * a node, for every verb, benchmark and test. */
#include <stdio.h>
#include <string.h>
#include "mmsim/limits.h"
#include "mmsim/machine.h"
#include "mmsim/scenario.h"

void machine_desc_defaults(struct machine_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->ram = 2ull << 30;
	d->cpus = 4;
	/* kernel image and early reservations of the guest whose zoneinfo
	 * tests/unit/test_watermarks.c uses: present 782336 - managed 772794 */
	d->kernel_reserved = 9542;
	d->swap_latency = 100e-6;
	d->swap_bandwidth = 1e9;
	vm_sysctl_defaults(&d->sysctl);
}

void machine_desc_from_scenario(struct machine_desc *d, const struct scenario_config *c)
{
	machine_desc_defaults(d);
	d->ram = c->ram;
	d->cpus = c->cpus;
	d->kernel_reserved = c->kernel_reserved;
	d->swap = c->swap;
	d->swap_latency = c->swap_latency;
	d->swap_bandwidth = (double)c->swap_bandwidth;
	d->sysctl = c->sysctl;
}

int machine_boot(struct pglist_data *pgdat, const struct machine_desc *d, struct mm_policy *policy,
                 char *err, size_t errlen)
{
	struct mm_layout layout;
	char msg[256];

	if (mm_layout_qemu(d->ram, d->kernel_reserved, &layout, msg, sizeof(msg))) {
		snprintf(err, errlen, "[machine] ram: %s", msg);
		return -1;
	}
	/* the host's bound, for every verb that boots (a scenario's run has
	 * checked it already, naming its file and line) */
	if (mmsim_host_memory_env_check(err, errlen))
		return -1;
	if (mmsim_host_memory_check(mm_layout_host_bytes(&layout, d->ram, 0), msg, sizeof(msg))) {
		snprintf(err, errlen, "[machine] ram: %s", msg);
		return -1;
	}
	if (mmsim_host_memory_check(mm_layout_host_bytes(&layout, d->ram, d->swap), msg, sizeof(msg))) {
		snprintf(err, errlen, "[machine] swap: %s", msg);
		return -1;
	}
	if (pgdat_init(pgdat, &layout, d->cpus, &d->sysctl, policy, msg, sizeof(msg))) {
		snprintf(err, errlen, "boot: %s", msg);
		return -1;
	}
	if (swap_setup(pgdat, (unsigned long)(d->swap / PAGE_SIZE), d->swap_latency, d->swap_bandwidth,
	               msg, sizeof(msg))) {
		snprintf(err, errlen, "[machine] swap: %s", msg);
		pgdat_destroy(pgdat);
		return -1;
	}
	pgdat->debug_check_interval = d->check_every;
	return 0;
}

void machine_shutdown(struct pglist_data *pgdat, struct mm_policy *policy)
{
	pgdat_destroy(pgdat);
	if (policy)
		mm_policy_destroy(policy);
}
