/* tmpfile.c - the temporary files that make results whole or absent, the
 * leftovers of processes that died writing one, and the check that keeps
 * an output name from destroying a file that is not a results database.
 *
 * A writer creates TARGET.tmp.PID (O_EXCL) and holds a record lock on one
 * byte of it, far beyond anything SQLite locks, until the file is renamed
 * or removed.  The kernel drops the lock when the process dies, however
 * it dies (SIGKILL, the OOM killer; a node lost: the NFS server drops a
 * dead client's locks when its lease ends), so a temporary file nobody
 * holds a lock on is a leftover, whatever host wrote it; F_OFD_GETLK
 * tells, on a local file system and on NFS (NFSv4, or NFSv3 with the lock
 * manager: not the `nolock` mount option) alike.  A pid alone could not:
 * it means nothing on another host.
 *
 * The lock is an open file description lock (F_OFD_SETLK), not a classic
 * POSIX one: those belong to the process, and SQLite drops them all when
 * it unlocks the file (F_UNLCK from byte 0 to the end) or closes its own
 * descriptor of it.  An OFD lock belongs to our descriptor alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "results_int.h"

/* the byte locked: SQLite's own locks are at 1 GiB (its pending byte and
 * the shared range after it), far below this */
#define TMP_LOCK_BYTE ((off_t)0x7fff0000)

int results_tmp_create(const char *tmp, const char *path, char *err, size_t errlen)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = TMP_LOCK_BYTE, .l_len = 1 };
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0) {
		results_seterr(err, errlen, path, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (fcntl(fd, F_OFD_SETLK, &fl)) {
		results_seterr(err, errlen, path, "cannot lock %s: %s (a file system without POSIX locks?)",
		               tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	return fd;
}

/* Is the temporary file f a leftover: nobody holds its lock byte? */
static int tmp_is_stale(const char *f)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = TMP_LOCK_BYTE, .l_len = 1 };
	int fd = open(f, O_RDWR | O_CLOEXEC | O_NOFOLLOW), stale = 0;

	if (fd < 0)
		return 0;
	if (fcntl(fd, F_OFD_GETLK, &fl) == 0)
		stale = fl.l_type == F_UNLCK;
	close(fd);
	return stale;
}

/* NAME is BASE.tmp.PID or BASE.tmp.PID-journal (SQLite's journal of it);
 * the pid, or 0 if the name is not one of those */
static long tmp_pid(const char *name, const char *base, int *journal)
{
	size_t n = strlen(base);
	const char *p;
	char *end;
	long pid;

	if (strncmp(name, base, n) || strncmp(name + n, ".tmp.", 5))
		return 0;
	p = name + n + 5;
	if (*p < '0' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	*journal = !strcmp(end, "-journal");
	return (*end && !*journal) ? 0 : pid;
}

int results_clean_stale(const char *target)
{
	char *c1 = strdup(target), *c2 = strdup(target), path[4096];
	const char *dir, *base;
	struct dirent *e;
	DIR *d;
	int removed = 0, journal;

	if (!c1 || !c2) {
		free(c1);
		free(c2);
		return 0;
	}
	dir = dirname(c1);
	base = basename(c2);
	if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			long pid = tmp_pid(e->d_name, base, &journal);
			/* our own pid: a file of this process, or of an earlier
			 * one that had our pid (results_create() removes it) */
			if (!pid || pid == (long)getpid())
				continue;
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
				continue;
			if (journal) {
				/* the journal of a temporary file goes with it */
				char main_file[4096];
				snprintf(main_file, sizeof(main_file), "%s/%s.tmp.%ld", dir, base, pid);
				if (access(main_file, F_OK) == 0 && !tmp_is_stale(main_file))
					continue;
			} else if (!tmp_is_stale(path)) {
				continue;
			}
			if (unlink(path) == 0)
				removed++;
		}
		closedir(d);
	}
	free(c1);
	free(c2);
	return removed;
}

int results_check_target(const char *path, char *err, size_t errlen)
{
	static const char *const tables[] = { "runs", NULL };
	struct stat sb;
	sqlite3 *db;
	char why[512];

	if (lstat(path, &sb)) {
		if (errno == ENOENT)
			return 0;
		results_seterr(err, errlen, path, "%s", strerror(errno));
		return -1;
	}
	if (S_ISLNK(sb.st_mode) && stat(path, &sb)) {
		results_seterr(err, errlen, path, "a dangling symbolic link; not overwritten");
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		results_seterr(err, errlen, path, "exists and is not a regular file; not overwritten");
		return -1;
	}
	if (sb.st_size == 0)
		return 0;               /* nothing in it to lose */
	if (!(db = results_open_ro(path, tables, RESULTS_SCHEMA_VERSION, why, sizeof(why)))) {
		const char *tail = strncmp(why, path, strlen(path)) ? why : why + strlen(path) + 2;
		results_seterr(err, errlen, path,
		               "exists and is %s; not overwritten (remove it or choose another name)",
		               !strncmp(tail, "not an mmsim results database", 29) ? tail : "not readable");
		return -1;
	}
	sqlite3_close(db);
	return 0;
}
