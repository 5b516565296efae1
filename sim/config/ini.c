/* ini.c - the INI reader and the opening of input files (mmsim/ini.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mmsim/ini.h"

static char *lskip(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static char *rstrip(char *s)
{
	char *p = s + strlen(s);

	while (p > s && isspace((unsigned char)p[-1]))
		*--p = '\0';
	return s;
}

/* The first of chars in s, or an inline comment (a ; after a blank), or
 * the end of s. */
static char *find_chars_or_comment(char *s, const char *chars)
{
	bool was_space = false;

	while (*s && (!chars || !strchr(chars, *s)) && !(was_space && *s == ';')) {
		was_space = isspace((unsigned char)*s);
		s++;
	}
	return s;
}

/* "...": the value between the quotes, in place, with \\ \" \n \r \t
 * undone; after the closing quote only blanks or a comment.  NULL: not
 * a quoted value (unterminated, an unknown escape, text after it). */
static char *unquote(char *s)
{
	char *out = s + 1, *w = out, *r = out;

	for (; *r && *r != '"'; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		switch (*++r) {
		case '\\': *w++ = '\\'; break;
		case '"': *w++ = '"'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		default: return NULL;
		}
	}
	if (*r != '"')
		return NULL;
	r = lskip(r + 1);
	if (*r && *r != ';' && *r != '#')
		return NULL;
	*w = '\0';
	return out;
}

int mmsim_ini_parse(ini_reader next, void *stream, ini_handler handler, void *user)
{
	char *section = strdup(""), *prev = strdup(""), *line;
	int lineno = 0, error = 0;

	if (!section || !prev) {
		free(section);
		free(prev);
		return -1;
	}
	while ((line = next(stream))) {
		char *start = line, *end, *name, *value;

		if (++lineno == 1 && !strncmp(start, "\xEF\xBB\xBF", 3))
			start += 3;
		start = lskip(rstrip(start));
		if (*start == ';' || *start == '#')
			continue;
		if (*prev && *start && start > line) {
			/* indented: the previous value's continuation */
			if (!handler(user, section, prev, start) && !error)
				error = lineno;
		} else if (*start == '[') {
			end = find_chars_or_comment(start + 1, "]");
			if (*end == ']') {
				*end = '\0';
				free(section);
				section = strdup(start + 1);
				prev[0] = '\0';
				if (!section) {
					free(prev);
					return -1;
				}
			} else if (!error) {
				error = lineno;
			}
		} else if (*start) {
			end = find_chars_or_comment(start, "=:");
			if (*end != '=' && *end != ':') {
				if (!error)
					error = lineno;
				continue;
			}
			*end = '\0';
			name = rstrip(start);
			value = lskip(end + 1);
			if (*value == '"') {
				/* a quoted value: all of it, escapes undone */
				if (!(value = unquote(value)) && !error)
					error = lineno;
				if (!value)
					continue;
			} else {
				end = find_chars_or_comment(value, NULL);
				*end = '\0';
				value = rstrip(value);
			}
			free(prev);
			if (!(prev = strdup(name))) {
				free(section);
				return -1;
			}
			if (!handler(user, section, name, value) && !error)
				error = lineno;
		}
	}
	free(section);
	free(prev);
	return error;
}

long mmsim_read_line(FILE *f, const char *origin, int *line, char **buf, size_t *cap,
                     char *err, size_t errlen)
{
	ssize_t n = getline(buf, cap, f);

	if (n < 0)
		return -1;
	++*line;
	if ((size_t)n != strlen(*buf)) {
		snprintf(err, errlen, "%s:%d: a NUL byte (byte %zu of the line): not a text file", origin, *line,
		         strlen(*buf) + 1);
		return -2;
	}
	if (n && (*buf)[n - 1] == '\n')
		(*buf)[--n] = '\0';
	return n;
}

static int regular(int fd, const char *path, char *err, size_t errlen)
{
	struct stat sb;

	if (fstat(fd, &sb)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(sb.st_mode))
		return 0;
	snprintf(err, errlen, "cannot read %s: %s", path,
	         S_ISDIR(sb.st_mode) ? strerror(EISDIR) :
	         S_ISFIFO(sb.st_mode) ? "a FIFO, not a regular file" :
	         S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device, not a regular file" :
	         "not a regular file");
	return -1;
}

FILE *mmsim_open_input(const char *path, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO would wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (regular(fd, path, err, errlen)) {
		close(fd);
		return NULL;
	}
	if (fcntl(fd, F_SETFL, 0) || !(f = fdopen(fd, "r"))) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return f;
}

int mmsim_check_input(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	rc = regular(fd, path, err, errlen);
	close(fd);
	return rc;
}
