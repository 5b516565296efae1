/* kbuild.c - placeholder until the kernel-build workload lands */
#include <stdio.h>
#include "workload.h"

static int kb_set_param(struct workload *w, const char *key, const char *value, char *err, size_t errlen)
{
	(void)w;
	(void)value;
	snprintf(err, errlen, "unknown parameter '%s' of workload kbuild", key);
	return -1;
}

static int kb_start(struct workload *w, char *err, size_t errlen)
{
	(void)w;
	snprintf(err, errlen, "kbuild: not implemented yet");
	return -1;
}

const struct workload_ops kbuild_ops = {
	.name = "kbuild",
	.desc = "make -jN over a synthetic kernel tree (not implemented yet)",
	.measured = true,
	.set_param = kb_set_param,
	.start = kb_start,
};
