/* kbuild_cpu.c - a measured tree's CPU time beyond its chain processes
 * (kbuild.cpu_time = whole).  Part of the kbuild workload (kbuild.c). */
#include <stdio.h>
#include <stdlib.h>
#include "kbuild_int.h"

/*
 * cpu_time = whole: the build's CPU as make's rusage counted it.  The
 * model runs a step's chain (cc1, as, ld, ar) for their measured user
 * time; the rest of what the build ran on the CPU is charged here, as
 * measured: each chain process's system time (exec, syscalls, VFS: the
 * kernel work the model has no mechanism for; the model's own mm work,
 * faults and reclaim, comes on top, and the measured system time of a
 * build on an unpressed machine holds its faults too: the overlap is the
 * model's system time of such a build, a few percent), the top-level
 * processes' own time beyond their chain (the gcc driver, collect2), and
 * what make's recipes ran unrecorded (sh, fixdep, objtool, scripts): the
 * dataset's rusage totals less every recorded top-level process, spread
 * evenly over the steps.  All of it runs in the step's first process.
 */
int kb_step_cpu(struct kbuild *kb, char *err, size_t errlen)
{
	const struct kbuild_dataset *d = kb->ds;
	double rec_user = 0, rec_sys = 0, un_user, un_sys;

	free(kb->step_extra_user);
	free(kb->step_extra_sys);
	kb->step_extra_user = calloc(d->nr_steps ? d->nr_steps : 1, sizeof(double));
	kb->step_extra_sys = calloc(d->nr_steps ? d->nr_steps : 1, sizeof(double));
	if (!kb->step_extra_user || !kb->step_extra_sys) {
		snprintf(err, errlen, "kbuild: out of memory");
		return -1;
	}
	for (uint32_t s = 0; s < d->nr_steps; s++) {
		const struct kbd_step *st = &d->steps[s];
		double top_u = 0, top_s = 0, chain_u = 0, chain_s = 0;
		bool gcc = false, collect2 = false;

		for (uint32_t i = 0; i < st->nr_procs; i++) {
			uint8_t t = d->procs[st->proc_off + i].tool;
			gcc |= t == KBD_GCC;
			collect2 |= t == KBD_COLLECT2;
		}
		for (uint32_t i = 0; i < st->nr_procs; i++) {
			const struct kbd_proc *p = &d->procs[st->proc_off + i];
			/* wait4 of the top level counts its children: gcc holds
			 * cc1, as, collect2 and collect2's ld; ar, and an ld
			 * outside gcc, are their own */
			bool top = p->tool == KBD_GCC || p->tool == KBD_TOOL_AR || p->tool == KBD_OTHER ||
			           (p->tool == KBD_TOOL_LD && !collect2) ||
			           (!gcc && p->tool != KBD_TOOL_LD);
			if (top) {
				top_u += p->user_us * 1e3;
				top_s += p->sys_us * 1e3;
			}
			if (kb_chain_tool(p->tool)) {
				chain_u += p->user_us * 1e3;
				chain_s += p->sys_us * 1e3;
			}
		}
		rec_user += top_u;
		rec_sys += top_s;
		kb->step_extra_user[s] = top_u > chain_u ? top_u - chain_u : 0;
		kb->step_extra_sys[s] = top_s > chain_s ? top_s - chain_s : 0;
	}
	un_user = d->rusage_user_s * 1e9 > rec_user ? d->rusage_user_s * 1e9 - rec_user : 0;
	un_sys = d->rusage_sys_s * 1e9 > rec_sys ? d->rusage_sys_s * 1e9 - rec_sys : 0;
	for (uint32_t s = 0; d->nr_steps && s < d->nr_steps; s++) {
		kb->step_extra_user[s] += un_user / d->nr_steps;
		kb->step_extra_sys[s] += un_sys / d->nr_steps;
	}
	return 0;
}
