/*
 * recorder: runs one build tool and appends one line to $KB_LOG with the
 * tool's own resource usage (wait4: user and system CPU time, peak RSS),
 * its wall-clock start/end and its argv.  Used by measure.sh in two ways:
 *
 *  - as gcc's "-wrapper": gcc runs "recorder /path/to/cc1 args..." (also
 *    for as and collect2), so every cc1 and as process is measured on its
 *    own, even when -pipe makes them run side by side;
 *  - through symlinks named gcc, ld, ar in a directory put first in PATH:
 *    argv[0]'s basename names the real tool, looked up in /usr/bin; for
 *    gcc the recorder adds "-wrapper <itself>".
 *
 * Line format (tab-separated): parent pid, pid, tool, user us, system us,
 * peak RSS KiB, start ns, end ns (CLOCK_MONOTONIC), exit status, size in
 * bytes of the file named by "-o" after the tool exited (-1 if none; for
 * cc1 this is the temporary .s file that as reads next, gone later), and the
 * argv joined by spaces.  One write(2) with O_APPEND per line keeps lines
 * whole when make -j runs many recorders at once.
 *
 * With KB_RSS_LOG set, the recorder also samples the tool's
 * /proc/PID/status every 5 ms and appends "tool maxrss_kib rss_anon_kib
 * rss_file_kib" (the largest RssAnon and RssFile seen) to that file: how
 * much of the peak RSS is the mapped binary and libraries (measure.sh
 * does this for a few units after the build).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sample_status(pid_t pid, long *anon, long *file)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		long v;
		if (sscanf(line, "RssAnon: %ld", &v) == 1 && v > *anon)
			*anon = v;
		else if (sscanf(line, "RssFile: %ld", &v) == 1 && v > *file)
			*file = v;
	}
	fclose(f);
}

static void append(char **buf, size_t *len, size_t *cap, const char *s,
		   int raw)
{
	size_t n = strlen(s);
	if (*len + n + 2 > *cap) {
		*cap = (*len + n + 2) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			exit(127);
	}
	for (size_t i = 0; i < n; i++)
		(*buf)[(*len)++] = (!raw && (s[i] == '\t' || s[i] == '\n')) ? ' ' : s[i];
	(*buf)[*len] = 0;
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	char **cmd;
	char self[4096];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl < 0)
		return 127;
	self[sl] = 0;

	if (strcmp(base, "recorder") == 0) {
		if (argc < 2)
			return 127;
		cmd = argv + 1;
	} else {
		/* symlink mode: the real tool of the same name in /usr/bin */
		int extra = strcmp(base, "gcc") == 0 ? 2 : 0;
		cmd = calloc(argc + extra + 1, sizeof(*cmd));
		static char real[4096];
		snprintf(real, sizeof(real), "/usr/bin/%s", base);
		cmd[0] = real;
		int k = 1;
		if (extra) {
			char *rec = malloc(strlen(self) + 16);
			strcpy(rec, self);
			strcpy(strrchr(rec, '/') + 1, "recorder");
			cmd[k++] = "-wrapper";
			cmd[k++] = rec;
		}
		for (int i = 1; i < argc; i++)
			cmd[k++] = argv[i];
		cmd[k] = NULL;
	}

	long long t0 = now_ns();
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		execv(cmd[0], cmd);
		if (errno == ENOENT && !strchr(cmd[0], '/'))
			execvp(cmd[0], cmd);
		_exit(127);
	}
	int status;
	struct rusage ru;
	const char *rsslog = getenv("KB_RSS_LOG");
	long anon = 0, file = 0;
	if (rsslog) {
		for (;;) {
			pid_t r = wait4(pid, &status, WNOHANG, &ru);
			if (r == pid)
				break;
			if (r < 0 && errno != EINTR)
				return 127;
			sample_status(pid, &anon, &file);
			usleep(5000);
		}
	} else {
		while (wait4(pid, &status, 0, &ru) < 0)
			if (errno != EINTR)
				return 127;
	}
	long long t1 = now_ns();

	const char *log = getenv("KB_LOG");
	if (log) {
		char *buf = NULL;
		size_t len = 0, cap = 0;
		char head[512];
		long long osize = -1;
		for (char **a = cmd + 1; *a; a++)
			if (strcmp(*a, "-o") == 0 && a[1]) {
				struct stat st;
				if (stat(a[1], &st) == 0)
					osize = st.st_size;
			}
		const char *tb = strrchr(cmd[0], '/');
		tb = tb ? tb + 1 : cmd[0];
		snprintf(head, sizeof(head),
			 "%d\t%d\t%s\t%ld\t%ld\t%ld\t%lld\t%lld\t%d\t%lld\t",
			 (int)getppid(), (int)pid, tb,
			 (long)(ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec),
			 (long)(ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec),
			 ru.ru_maxrss, t0, t1,
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128, osize);
		append(&buf, &len, &cap, head, 1);
		for (char **a = cmd + 1; *a; a++) {
			append(&buf, &len, &cap, *a, 0);
			if (a[1])
				append(&buf, &len, &cap, " ", 1);
		}
		append(&buf, &len, &cap, "\n", 1);
		int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
		if (fd >= 0) {
			if (write(fd, buf, len) != (ssize_t)len) { /* best effort */ }
			close(fd);
		}
		free(buf);
	}
	if (rsslog) {
		char line[256];
		const char *tb = strrchr(cmd[0], '/');
		int fd = open(rsslog, O_WRONLY | O_APPEND | O_CREAT, 0644);
		int n = snprintf(line, sizeof(line), "%s\t%ld\t%ld\t%ld\n", tb ? tb + 1 : cmd[0],
				 ru.ru_maxrss, anon, file);
		if (fd >= 0) {
			if (write(fd, line, (size_t)n) != n) { /* best effort */ }
			close(fd);
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
