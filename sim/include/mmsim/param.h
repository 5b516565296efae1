/* param.h - one typed description of a parameter, for every input of
 * mmsim that sets a value: scenario keys, policy switches and workload
 * parameters (docs/scenario.md, "Parameters").
 *
 * A module's parameters are a table of struct param, each naming its
 * kind (the syntax and the unit of its text), its range, its default
 * text, its help, and where the value goes (an offset into the module's
 * private struct, whose C type PARAM_AT() records).  One function per
 * kind parses, checks the range and stores; the same table prints the
 * help (`mmsim list`, `--help`) and the defaults.  Adding a parameter is
 * one entry in the table: nothing else parses it.
 *
 * The one rounding rule: a size given in bytes and kept in pages
 * (PARAM_PAGES) is rounded up to whole pages, as mmap() rounds a length
 * (PAGE_ALIGN); no other kind rounds (an integer kind refuses "2.5").
 *
 * Messages: param_set() writes only the tail ("'300' is not an integer
 * in 0..200"); the caller puts the place in front (FILE:LINE: [section]
 * key, or --set KEY), so that every module's errors read alike.
 */
#ifndef MMSIM_PARAM_H
#define MMSIM_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum param_kind {
	PARAM_BOOL,             /* yes/no, y/n, true/false, 1/0, on/off */
	PARAM_INT,              /* a decimal integer in [min, max] */
	PARAM_DOUBLE,           /* a real number in [min, max] ((min, max] with PARAM_GT_MIN) */
	PARAM_SIZE,             /* bytes: digits with K/M/G/T (powers of 1024), optional "iB"/"B" */
	PARAM_PAGES,            /* a size, kept as pages rounded up (the one rounding rule) */
	PARAM_ENUM,             /* one of choices[]: its index is stored */
	PARAM_STRING,           /* text of at most the field's size - 1, one line */
	PARAM_CUSTOM,           /* parsed by set() (lists, names that need a registry) */
};

/* the C type of the field a value is stored in (PARAM_AT() finds it) */
enum param_store {
	PARAM_ST_BOOL, PARAM_ST_INT, PARAM_ST_UINT, PARAM_ST_ULONG, PARAM_ST_DOUBLE, PARAM_ST_CHARS,
	PARAM_ST_NONE,          /* PARAM_CUSTOM: set() stores */
};

/* flags */
#define PARAM_GT_MIN    0x1     /* the lower bound is exclusive: (min, max] */
#define PARAM_OR_ZERO   0x2     /* 0 (none, never) or a number in [min, max]: min is the
                                 * floor of a period, below which the simulated cost of
                                 * the events is absurd (PARAM_PERIOD_FLOOR) */
#define PARAM_TEXT_IF_SET 0x4   /* a scenario key written into the resolved text (and its
                                 * params) only when its value is not the default: a key
                                 * added later leaves the texts and hashes of scenarios
                                 * that do not use it as they were */

/* The shortest period of a timer, a poll or a record: one jiffy at
 * HZ=1000.  A period below it costs events without measuring anything
 * more (a make polling every 1e-300 s never reached the end of the run). */
#define PARAM_PERIOD_FLOOR 0.001

/* The upper bound of the workloads' size parameters (kbuild's, the
 * system profile's, the streamer's file size), in bytes: 16 TiB. */
#define PARAM_SIZE_MAX (16.0 * (1ull << 40))

struct param {
	const char *name;
	enum param_kind kind;
	const char *unit;               /* what a number means: "seconds", "bytes", "KiB"; NULL for none */
	double min, max;                /* the range, in the text's unit (sizes: bytes); both 0: the field's */
	const char *def;                /* the default, as text (set like any value) */
	const char *help;
	/* where the value goes: PARAM_AT(struct owner, field) */
	size_t off, size;
	enum param_store store;
	unsigned flags;
	double scale;                   /* numbers: stored = text x scale (seconds -> ns); 0: 1 */
	const char *word;               /* a word accepted instead of a number ("auto", "wait") */
	double word_value;              /* ... stored as this */
	const char *const *choices;     /* PARAM_ENUM: NULL-terminated */
	/* a rule beyond the range, after the value is stored: NULL, or the
	 * message tail (may use buf) */
	const char *(*check)(const void *owner, const char *value, char *buf, size_t len);
	/* PARAM_CUSTOM: parse and store; 0, or -1 with the message tail */
	int (*set)(void *owner, const char *value, char *err, size_t errlen);
};

#define PARAM_STORE_OF(x) _Generic((x), \
	bool: PARAM_ST_BOOL, int: PARAM_ST_INT, unsigned: PARAM_ST_UINT, \
	unsigned long: PARAM_ST_ULONG, double: PARAM_ST_DOUBLE, char *: PARAM_ST_CHARS)
#define PARAM_AT(type, field) \
	.off = offsetof(type, field), .size = sizeof(((type *)0)->field), \
	.store = PARAM_STORE_OF(((type *)0)->field)

/* Parse value as p says and store it in owner; 0, or -1 with the tail. */
int param_set(const struct param *p, void *owner, const char *value, char *err, size_t errlen);
/* Every parameter of the NULL-name-terminated table at its default. */
int param_set_defaults(const struct param *table, void *owner, char *err, size_t errlen);
/* The entry named name, or NULL. */
const struct param *param_find(const struct param *table, const char *name);
/* "a, b, c": the table's names, for messages listing the valid ones */
void param_names(const struct param *table, char *buf, size_t len);
/* The expected form of a value ("an integer in 0..200"), for messages and help */
void param_expect(const struct param *p, char *buf, size_t len);
/* The help listing of a table: "    PREFIXname = default\n        help (expect)\n" */
void param_print_table(FILE *f, const struct param *table, const char *prefix);

#endif
