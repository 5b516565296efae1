/* msg.h - an error message into a caller's buffer: the convention of the
 * library's functions that take (char *err, size_t errlen). */
#ifndef MMSIM_MSG_H
#define MMSIM_MSG_H

#include <stdarg.h>
#include <stddef.h>

/* vsnprintf into err; nothing if err is NULL or errlen 0 (a caller that
 * does not want the message) */
void mmsim_msg(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void mmsim_vmsg(char *err, size_t errlen, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

#endif
