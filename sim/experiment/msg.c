/* msg.c - the library's messages, worded and prefixed as the command
 * line's (sim/cli's error()): what a sweep says is the same whichever
 * layer says it. */
#include <stdarg.h>
#include <stdio.h>
#include "experiment_int.h"

void exp_error(const char *fmt, ...)
{
	va_list ap;
	fputs("mmsim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
