/* parse.h - the value syntax every input of mmsim shares (command line,
 * scenario files, workload and policy parameters). */
#ifndef MMSIM_PARSE_H
#define MMSIM_PARSE_H

#include <stdint.h>

/* a size in bytes: digits with an optional K, M, G or T suffix (powers of
 * 1024), optionally followed by "i" and/or "B" ("2G", "512MiB");
 * 0, or -1 if s is not one */
int mmsim_parse_size(const char *s, uint64_t *bytes);
/* a real number within [lo, hi]; 0, or -1 */
int mmsim_parse_double(const char *s, double lo, double hi, double *out);
/* whether s is written as a decimal number may be ("0.5", "1e-9"):
 * strtod() also takes hex floats ("0x10"), inf and nan, which no input
 * of mmsim means */
int mmsim_decimal_text(const char *s);

#endif
