/* outfile.h - the files the commands create (plots, scripts, logs, the
 * report, a sweep's manifest and lock), never written through a symbolic
 * link planted under their name: a file is written as a temporary file
 * created with O_EXCL | O_NOFOLLOW beside it and renamed over the name
 * (rename replaces a link, never its target), or, where it is written as
 * it goes (a run's log), created afresh with O_EXCL | O_NOFOLLOW. */
#ifndef MMSIM_OUTFILE_H
#define MMSIM_OUTFILE_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct outfile {
	FILE *f;
	char path[PATH_MAX];            /* the name it gets at outfile_commit */
	char tmp[PATH_MAX + 32];        /* PATH.tmp.PID, while it is written */
};

/* Start writing path (mode before the umask, 0644 for most); o->f, or
 * NULL with "cannot create 'PATH': why" printed. */
FILE *outfile_open(struct outfile *o, const char *path, mode_t mode);
/* Flush, sync and close o->f and rename the file to o->path; 0, or -1
 * with "cannot write 'PATH': why" printed and the temporary removed. */
int outfile_commit(struct outfile *o);
/* Close and remove the temporary file (an error path). */
void outfile_abort(struct outfile *o);

/* A new file at path, opened for writing: an old file or link of that
 * name is removed first (unlink removes a link, not its target), then
 * path is created with O_EXCL | O_NOFOLLOW.  The descriptor, or -1 with
 * errno set. */
int create_fresh(const char *path, mode_t mode);

/* mkdir -p DIR; 0, or EX_CANTCREAT (sysexits.h) with the message printed */
int make_dir(const char *dir);

#endif
