/* msg.c - see mmsim/msg.h. */
#include <stdio.h>
#include "mmsim/msg.h"

void mmsim_vmsg(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (!err || !errlen)
		return;
	vsnprintf(err, errlen, fmt, ap);
}

void mmsim_msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mmsim_vmsg(err, errlen, fmt, ap);
	va_end(ap);
}
