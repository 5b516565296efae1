/* param.c - see mmsim/param.h: one parser per kind, one range check, one
 * store per C type. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mmsim/msg.h"
#include "mmsim/param.h"
#include "mmsim/parse.h"

#define PARAM_PAGE_SIZE 4096ull        /* mm_types.h's PAGE_SIZE, without its includes */

static bool ranged(const struct param *p)
{
	return p->min != 0 || p->max != 0;
}

/* "2M", "4T", "1000000000": the largest suffix that divides exactly */
static void size_text(double bytes, char *buf, size_t len)
{
	static const char suffix[] = "KMGT";
	unsigned long long v = (unsigned long long)bytes;
	int s = -1;

	while (s < 3 && v && v % 1024 == 0) {
		v /= 1024;
		s++;
	}
	if (s < 0)
		snprintf(buf, len, "%llu", v);
	else
		snprintf(buf, len, "%llu%c", v, suffix[s]);
}

void param_expect(const struct param *p, char *buf, size_t len)
{
	char lo[32], hi[32], of[48] = "", w[48] = "";

	if (p->word)
		snprintf(w, sizeof(w), "%s or ", p->word);
	if (p->unit)
		snprintf(of, sizeof(of), " of %s", p->unit);
	switch (p->kind) {
	case PARAM_BOOL:
		snprintf(buf, len, "a boolean (yes or no)");
		return;
	case PARAM_INT:
		if (!ranged(p))
			snprintf(buf, len, "%sa non-negative integer%s", w, of);
		else
			snprintf(buf, len, "%san integer%s in %.0f..%.0f", w, of, p->min, p->max);
		return;
	case PARAM_DOUBLE:
		if (!ranged(p))
			snprintf(buf, len, "%sa number%s", w, of);
		else if (p->flags & PARAM_GT_MIN)
			snprintf(buf, len, "%sa number%s in (%g, %g]", w, of, p->min, p->max);
		else if (p->flags & PARAM_OR_ZERO)
			snprintf(buf, len, "%s0 or a number%s in %g..%g", w, of, p->min, p->max);
		else
			snprintf(buf, len, "%sa number%s in %g..%g", w, of, p->min, p->max);
		return;
	case PARAM_SIZE:
	case PARAM_PAGES:
		if (!ranged(p)) {
			snprintf(buf, len, "%sa size (e.g. 2G, 512M)", w);
		} else if (!p->max) {
			size_text(p->min, lo, sizeof(lo));
			snprintf(buf, len, "%sa size of at least %s (K/M/G/T suffix)", w, lo);
		} else {
			size_text(p->min, lo, sizeof(lo));
			size_text(p->max, hi, sizeof(hi));
			snprintf(buf, len, "%sa size in %s..%s (K/M/G/T suffix)", w, lo, hi);
		}
		return;
	case PARAM_ENUM: {
		size_t at = (size_t)snprintf(buf, len, "one of ");
		for (int i = 0; p->choices[i] && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", p->choices[i]);
		return;
	}
	case PARAM_STRING:
		snprintf(buf, len, "a name of at most %zu characters", p->size - 1);
		return;
	case PARAM_CUSTOM:
		snprintf(buf, len, "see the help");
		return;
	}
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "y", "true", "1", "on", NULL };
	static const char *const no[] = { "no", "n", "false", "0", "off", NULL };
	for (int i = 0; yes[i]; i++) {
		if (!strcmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* the limits of the field's C type */
static void store_limits(enum param_store st, double *lo, double *hi)
{
	switch (st) {
	case PARAM_ST_INT:   *lo = -2147483648.0; *hi = 2147483647.0; return;
	case PARAM_ST_UINT:  *lo = 0; *hi = 4294967295.0; return;
	case PARAM_ST_ULONG: *lo = 0; *hi = 18446744073709551615.0; return;
	default:             *lo = -HUGE_VAL; *hi = HUGE_VAL; return;
	}
}

/* store a number in the field; integers from u when exact, else from d */
static void store_number(const struct param *p, void *owner, double d, uint64_t u, bool exact_u)
{
	char *f = (char *)owner + p->off;

	switch (p->store) {
	case PARAM_ST_BOOL:   *(bool *)f = d != 0; return;
	case PARAM_ST_INT:    *(int *)f = (int)d; return;
	case PARAM_ST_UINT:   *(unsigned *)f = exact_u ? (unsigned)u : (unsigned)d; return;
	case PARAM_ST_ULONG:  *(unsigned long *)f = exact_u ? (unsigned long)u : (unsigned long)d; return;
	case PARAM_ST_DOUBLE: *(double *)f = exact_u ? (double)u : d; return;
	default: return;
	}
}

int param_set(const struct param *p, void *owner, const char *value, char *err, size_t errlen)
{
	char expect[160], buf[200];
	double d = 0, lo, hi, scale = p->scale ? p->scale : 1;
	uint64_t u = 0;
	bool exact_u = false;
	char *end;

	if (p->kind == PARAM_CUSTOM)
		return p->set(owner, value, err, errlen);
	if (p->word && !strcmp(value, p->word)) {
		store_number(p, owner, p->word_value, 0, false);
		goto check;
	}
	switch (p->kind) {
	case PARAM_BOOL: {
		bool b;
		if (parse_bool(value, &b))
			goto bad;
		*(bool *)((char *)owner + p->off) = b;
		goto check;
	}
	case PARAM_INT:
		errno = 0;
		if (p->store == PARAM_ST_INT) {
			long long v = strtoll(value, &end, 10);
			if (errno || end == value || *end || *value == '+')
				goto bad;
			d = (double)v;
		} else {
			if (!*value || *value == '-' || *value == '+')
				goto bad;
			u = strtoull(value, &end, 10);
			if (errno || end == value || *end)
				goto bad;
			d = (double)u;
			exact_u = scale == 1;
		}
		break;
	case PARAM_DOUBLE:
		if (!mmsim_decimal_text(value))
			goto bad;
		errno = 0;
		d = strtod(value, &end);
		if (errno || end == value || *end || d != d)
			goto bad;
		break;
	case PARAM_SIZE:
	case PARAM_PAGES:
		if (mmsim_parse_size(value, &u))
			goto bad;
		d = (double)u;
		exact_u = true;
		break;
	case PARAM_ENUM:
		for (int i = 0; p->choices[i]; i++)
			if (!strcmp(value, p->choices[i])) {
				store_number(p, owner, i, (uint64_t)i, true);
				goto check;
			}
		goto bad;
	case PARAM_STRING:
		if (strlen(value) >= p->size || strpbrk(value, "\n\r"))
			goto bad;
		memcpy((char *)owner + p->off, value, strlen(value) + 1);
		goto check;
	case PARAM_CUSTOM:
		break;
	}
	/* the range, in the text's unit */
	if ((p->flags & PARAM_OR_ZERO) && d == 0)
		;
	else if (ranged(p) && ((p->flags & PARAM_GT_MIN) ? !(d > p->min) : d < p->min))
		goto bad;
	if (p->max && d > p->max)
		goto bad;
	if (p->kind == PARAM_PAGES) {
		/* the one rounding rule: up to whole pages */
		u = u / PARAM_PAGE_SIZE + (u % PARAM_PAGE_SIZE != 0);
		d = (double)u;
	}
	if (!exact_u)
		d *= scale;
	store_limits(p->store, &lo, &hi);
	if (d < lo || d > hi)
		goto bad;
	store_number(p, owner, d, u, exact_u);
check:
	if (p->check) {
		const char *m = p->check(owner, value, buf, sizeof(buf));
		if (m) {
			mmsim_msg(err, errlen, "'%s' %s", value, m);
			return -1;
		}
	}
	return 0;
bad:
	param_expect(p, expect, sizeof(expect));
	mmsim_msg(err, errlen, "'%s' is not %s", value, expect);
	return -1;
}

int param_set_defaults(const struct param *table, void *owner, char *err, size_t errlen)
{
	for (const struct param *p = table; p && p->name; p++)
		if (param_set(p, owner, p->def, err, errlen))
			return -1;
	return 0;
}

const struct param *param_find(const struct param *table, const char *name)
{
	for (const struct param *p = table; p && p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

void param_names(const struct param *table, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (const struct param *p = table; p && p->name && at < len; p++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", p->name);
}

void param_print_table(FILE *f, const struct param *table, const char *prefix)
{
	char expect[160];
	for (const struct param *p = table; p && p->name; p++) {
		fprintf(f, "    %s%s = %s\n        %s", prefix, p->name, p->def, p->help);
		if (p->kind != PARAM_CUSTOM && p->kind != PARAM_BOOL) {
			param_expect(p, expect, sizeof(expect));
			fprintf(f, " (%s)", expect);
		}
		fputc('\n', f);
	}
}
