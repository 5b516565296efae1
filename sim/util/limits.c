/* limits.c - see mmsim/limits.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mmsim/limits.h"
#include "mmsim/parse.h"

uint64_t mmsim_host_memory_allowed(void)
{
	const char *v = getenv("MMSIM_HOST_MEMORY");
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	uint64_t bytes;

	if (v && *v && !mmsim_parse_size(v, &bytes))
		return bytes;
	if (pages <= 0 || size <= 0)
		return (uint64_t)4 << 30;       /* unknown host: 4 GiB */
	return (uint64_t)pages * (uint64_t)size / 2;
}

int mmsim_host_memory_env_check(char *err, size_t errlen)
{
	const char *v = getenv("MMSIM_HOST_MEMORY");
	uint64_t bytes;

	if (!v || !*v)
		return 0;
	/* strtoull would read "-1" as 2^64 - 1: a sign is no size */
	if (strchr(v, '-') || mmsim_parse_size(v, &bytes) || !bytes) {
		snprintf(err, errlen, "MMSIM_HOST_MEMORY='%s' in the environment is not a size (a "
		         "positive number with an optional K, M, G or T suffix, e.g. 16G): unset it to "
		         "allow half of this host's memory", v);
		return -1;
	}
	return 0;
}

/* "1.5 GiB", "37 MiB", "256 KiB", "1 bytes": never a 0 that is not 0 */
static const char *human(uint64_t b, char *buf, size_t len)
{
	if (b >= (uint64_t)1 << 30)
		snprintf(buf, len, "%.1f GiB", (double)b / (double)(1u << 30));
	else if (b >= (uint64_t)1 << 20)
		snprintf(buf, len, "%.0f MiB", (double)b / (double)(1u << 20));
	else if (b >= 1024)
		snprintf(buf, len, "%.0f KiB", (double)b / 1024.0);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)b);
	return buf;
}

int mmsim_host_memory_check(uint64_t need, char *err, size_t errlen)
{
	uint64_t allowed = mmsim_host_memory_allowed();
	const char *v = getenv("MMSIM_HOST_MEMORY");
	char a[32], b[32];

	if (need <= allowed)
		return 0;
	snprintf(err, errlen, "needs about %s of host memory for the model's state, more than "
	         "the %s allowed (%s); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the "
	         "environment to allow more on purpose", human(need, a, sizeof(a)), human(allowed, b, sizeof(b)),
	         v && *v ? "MMSIM_HOST_MEMORY" : "half of this host's memory");
	return -1;
}

unsigned long mmsim_max_samples(void)
{
	const char *v = getenv("MMSIM_MAX_SAMPLES");
	char *end;
	unsigned long n;

	if (v && *v) {
		n = strtoul(v, &end, 10);
		if (!*end && n > 0)
			return n;
	}
	return 100000;
}

bool mmsim_check_at_end(void)
{
#ifdef MMSIM_DEBUG_VM
	return true;                    /* a debug build always checks */
#else
	const char *v = getenv("MMSIM_CHECK_AT_END");
	return !(v && !strcmp(v, "0"));
#endif
}

int mmsim_check_at_end_env_check(char *err, size_t errlen)
{
	const char *v = getenv("MMSIM_CHECK_AT_END");

	if (!v || !*v || !strcmp(v, "0") || !strcmp(v, "1"))
		return 0;
	snprintf(err, errlen, "MMSIM_CHECK_AT_END='%s' in the environment is neither 0 nor 1: unset "
	         "it to check the invariants at the end of every run", v);
	return -1;
}
