/* parse.h - the syntax of sizes and numbers that mmsim's typed inputs
 * share: every typed parameter (sim/config/param.c: scenario keys, --set,
 * workload and policy parameters), the command line's sizes,
 * MMSIM_HOST_MEMORY (limits.c) and the fields of a [system] profile's
 * lines (workloads/system_profile.c). */
#ifndef MMSIM_PARSE_H
#define MMSIM_PARSE_H

#include <stdint.h>

/* a size in bytes: digits with an optional K, M, G or T suffix (powers of
 * 1024), optionally followed by "i" and/or "B" ("2G", "512MiB");
 * 0, or -1 if s is not one */
int mmsim_parse_size(const char *s, uint64_t *bytes);
/* an unsigned decimal integer within [lo, hi], as strtoul() reads it
 * (leading blanks and a '+' allowed, a '-' not); 0, or -1 if s is not
 * one */
int mmsim_parse_ulong(const char *s, unsigned long lo, unsigned long hi, unsigned long *out);
/* whether s is written as a decimal number may be ("0.5", "1e-9"):
 * strtod() also takes hex floats ("0x10"), inf and nan, which no input
 * of mmsim means */
int mmsim_decimal_text(const char *s);
/* a finite decimal number, as strtod() reads it but written as
 * mmsim_decimal_text() allows; 0, or -1 if s is not one (the command
 * line's plain numbers: the scenario's go through the typed parameters) */
int mmsim_parse_double(const char *s, double *out);

#endif
