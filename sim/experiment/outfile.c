/* outfile.c - files created without following a planted link (outfile.h),
 * and the directories they go in (make_dir). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "experiment_int.h"
#include "mmsim/outfile.h"

FILE *outfile_open(struct outfile *o, const char *path, mode_t mode)
{
	int fd = -1;

	o->f = NULL;
	o->tmp[0] = '\0';
	if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >= sizeof(o->path)) {
		exp_error("cannot create '%s': %s", path, strerror(ENAMETOOLONG));
		return NULL;
	}
	/* PATH.tmp.PID, the name the commands' leftovers have always had
	 * (results_clean_stale); this process writes one file of a name at a
	 * time, so what has that name is a leftover of a process that had
	 * our pid, or a link planted there: removed (unlink removes a link,
	 * not its target), and O_EXCL never opens what exists */
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld", path, (long)getpid());
	for (int tries = 0; fd < 0 && tries < 3; tries++) {
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && (errno != EEXIST || unlink(o->tmp)))
			break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		exp_error("cannot create '%s': %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		o->tmp[0] = '\0';
		return NULL;
	}
	return o->f;
}

int outfile_commit(struct outfile *o)
{
	int bad = ferror(o->f), e = 0;

	errno = 0;

	if (fflush(o->f) || bad || fsync(fileno(o->f)))
		e = errno ? errno : EIO;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (!e && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		exp_error("cannot write '%s': %s", o->path, strerror(e));
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
}

int create_fresh(const char *path, mode_t mode)
{
	if (unlink(path) && errno != ENOENT)
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

int make_dir(const char *dir)
{
	char path[4096];
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(path)) {
		exp_error("cannot create '%s': bad directory name", dir);
		return EX_CANTCREAT;
	}
	memcpy(path, dir, len + 1);
	/* mkdir -p */
	for (char *p = path + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char saved = *p;
			*p = '\0';
			if (mkdir(path, 0777) && errno != EEXIST) {
				exp_error("cannot create '%s': %s", path, strerror(errno));
				return EX_CANTCREAT;
			}
			*p = saved;
			if (!saved)
				break;
		}
	}
	struct stat sb;
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		exp_error("cannot create '%s': not a directory", dir);
		return EX_CANTCREAT;
	}
	return 0;
}
