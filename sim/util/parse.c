/* parse.c - see mmsim/parse.h. */
#include <math.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include "mmsim/parse.h"

int mmsim_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 0: break;
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	default: return -1;
	}
	if (*end == 'i' && shift)
		end++;
	if (*end == 'B' && shift)
		end++;
	if (*end || (shift && v > (~0ull >> shift)))
		return -1;
	*bytes = v << shift;
	return 0;
}

int mmsim_parse_ulong(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int mmsim_decimal_text(const char *s)
{
	return *s && s[strspn(s, "0123456789+-.eE")] == '\0';
}

int mmsim_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!mmsim_decimal_text(s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
