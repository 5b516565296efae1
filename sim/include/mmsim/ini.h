/* ini.h - the INI reader of scenario files and system profiles, and the
 * opening of the files mmsim reads.
 *
 * The syntax is inih's as Debian 12 builds it (the reader used before):
 * [section] lines; KEY = VALUE or KEY : VALUE, both trimmed; whole-line
 * comments starting with ; or #, inline comments starting with a ; after
 * a blank; an indented line continues the previous value (the callers
 * refuse it); a UTF-8 BOM at the start skipped; and a value in double
 * quotes is the text between them, with \\, \", \n, \r and \t undone
 * (mmsim's own: the canonical dump quotes a value the plain syntax would
 * cut at a ; or trim, so that it reads back the same).  Unlike that inih, whose
 * lines are at most 200 bytes (a longer one was cut and its rest read as
 * a line of its own: a comment's tail became a setting), a line has any
 * length: the reader returns whole lines.
 */
#ifndef MMSIM_INI_H
#define MMSIM_INI_H

#include <stddef.h>
#include <stdio.h>

/* The next whole line (its newline removed; the buffer writable and the
 * reader's until the next call), or NULL at the end or on an error the
 * reader reports itself. */
typedef char *(*ini_reader)(void *stream);
/* One KEY = VALUE of section (also a continuation line: name is the
 * previous key); nonzero to go on, 0 for an error at this line. */
typedef int (*ini_handler)(void *user, const char *section, const char *name, const char *value);

/* Read every line; 0, the first line in error (a syntax error, or the
 * handler's 0), or -1 out of memory. */
int mmsim_ini_parse(ini_reader next, void *stream, ini_handler handler, void *user);

/* Lines of f of any length, for an ini_reader: *buf and *cap are the
 * caller's (getline()'s), *line counts them.  A NUL byte in a line is
 * refused: -2 with "ORIGIN:LINE: a NUL byte (...)" in err; -1 at the end
 * or on a read error (ferror(f)); else the line's length. */
long mmsim_read_line(FILE *f, const char *origin, int *line, char **buf, size_t *cap,
                     char *err, size_t errlen);

/* Open path for reading if it is a regular file (a directory, a device
 * such as /dev/zero, a FIFO or a socket is refused: reading one would
 * fail, never end or block); NULL with "cannot read PATH: why" in err. */
FILE *mmsim_open_input(const char *path, char *err, size_t errlen);
/* The same check on a path opened by other means (gzopen): 0, or -1. */
int mmsim_check_input(const char *path, char *err, size_t errlen);

#endif
