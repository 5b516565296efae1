/* lock.c - one sweep per directory at a time, and an old sweep moved
 * aside (--force-new).
 *
 * DIR/lock holds a POSIX record lock (fcntl F_SETLK) for the sweep's
 * life, and says who holds it.  The kernel drops the lock when the
 * process dies however it dies, so there is no stale lock to detect; on
 * NFS the lock goes through the server (NFSv4 byte-range locks, or
 * NFSv3's lock manager), so two sweeps on two hosts of a cluster exclude
 * each other too, and a dead client's lock ends with its lease.  (A lock
 * file made with O_EXCL would survive a killed sweep, and would need a
 * host and pid check that cannot be done from another host.)  It does
 * not work on a mount with `nolock`, where locks are local to each host:
 * the message of a refused lock says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "experiment_int.h"

/* Take DIR/lock for this sweep; the descriptor (kept open: closing it
 * would drop the lock), or after the message -2 if another sweep holds
 * it, -1 if it cannot be taken. */
int lock_dir(const char *dir)
{
	char path[PATH_MAX], host[256] = "", owner[512] = "", line[600];
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat sb;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/lock", dir);
	/* created with O_EXCL, or an existing one opened with O_NOFOLLOW and
	 * checked: a link, or another file linked there, would have its
	 * target truncated and written */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		exp_error("cannot create %s: %s", path, errno == ELOOP ? "it is a symbolic link; not followed"
		                                                       : strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_nlink != 1) {
		exp_error("cannot use %s: %s; remove it", path, !S_ISREG(sb.st_mode) ? "not a regular file"
		          : "it has other hard links (a file linked there would be overwritten)");
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETLK, &fl)) {
		int e = errno;
		/* the holder writes its line just after it takes the lock: a
		 * sweep started at the same moment can read the file before
		 * that, empty; give the line half a second to come */
		for (int tries = 0; tries < 50; tries++) {
			n = pread(fd, owner, sizeof(owner) - 1, 0);
			if ((e != EACCES && e != EAGAIN) || (n > 0 && memchr(owner, '\n', (size_t)n)))
				break;
			usleep(10000);
		}
		owner[n > 0 ? n : 0] = 0;
		owner[strcspn(owner, "\n")] = 0;
		close(fd);
		if (e == EACCES || e == EAGAIN) {
			exp_error("%s is in use by another sweep (%s): two sweeps on one directory would both "
			          "run every line; wait for it, or use another -o DIR", dir,
			          owner[0] ? owner : "owner unknown");
			return -2;
		}
		exp_error("cannot lock %s: %s (the file system must support POSIX locks; NFS without "
		          "the nolock mount option does)", path, strerror(e));
		return -1;
	}
	gethostname(host, sizeof(host) - 1);
	{
		/* the start as a reader reads it, in UTC: "since 2026-12-05T04:41:30Z" */
		time_t now = time(NULL);
		struct tm tm;
		char when[32] = "?";
		if (gmtime_r(&now, &tm))
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		snprintf(line, sizeof(line), "pid %ld on host %s, since %s\n", (long)getpid(), host, when);
	}
	if (ftruncate(fd, 0) == 0 && pwrite(fd, line, strlen(line), 0) < 0) {
		/* the message is a courtesy; the lock is what counts */
	}
	return fd;
}

/* --force-new: move the old sweep's files into DIR/superseded-TIME/ */
int supersede(const char *dir)
{
	static const char *const names[] = { "manifest", "sweep.id", "sweep.db", "slurm.job",
	                                     "sweep.sbatch", NULL };
	enum { NR_NAMES = 5 };
	char aside[PATH_MAX], from[PATH_MAX], to[PATH_MAX + 64], stamp[32];
	struct stat sb;
	time_t now = time(NULL);
	struct tm tm;
	int moved = 0;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(aside, sizeof(aside), "%s/superseded-%s", dir, stamp);
	for (unsigned long k = 0; k < 2 * 100000 + NR_NAMES; k++) {
		char name[32];
		if (k < NR_NAMES)
			snprintf(name, sizeof(name), "%s", names[k]);
		else
			snprintf(name, sizeof(name), "run-%04lu.%s", (k - NR_NAMES) / 2 + 1,
			         (k - NR_NAMES) % 2 ? "log" : "db");
		snprintf(from, sizeof(from), "%s/%s", dir, name);
		if (access(from, F_OK))
			continue;
		if (!moved++ && mkdir(aside, 0755) && (errno != EEXIST || lstat(aside, &sb) ||
		                                       !S_ISDIR(sb.st_mode))) {
			/* a link planted there would take the old sweep elsewhere */
			exp_error("cannot create %s: %s", aside, errno == EEXIST ? "exists and is not a directory"
			                                                         : strerror(errno));
			return -1;
		}
		snprintf(to, sizeof(to), "%s/%s", aside, name);
		if (rename(from, to)) {
			exp_error("cannot move %s to %s: %s", from, aside, strerror(errno));
			return -1;
		}
	}
	if (moved)
		fprintf(stderr, "mmsim: sweep: --force-new: the previous sweep's %d files moved to %s\n",
		        moved, aside);
	return 0;
}
