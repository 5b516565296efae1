/* streamer.c - the `streamer` file reader on a real machine: the same
 * files, the same access sequence (workloads/streamer_pattern.c, the
 * code the simulated workload runs), the same rate limiting, read with
 * pread() through the page cache.  It never needs root.
 *
 *   streamer --dir D --prepare [--files N --file-size S]   lay out, drop their cache, exit
 *   streamer --dir D [options]                            read until done, --duration or SIGTERM
 *
 * Files are D/streamer.0 .. D/streamer.N-1.  --layout cold (the default)
 * creates the missing ones (written, fsync'ed), then drops every file's
 * pages from the page cache with posix_fadvise(POSIX_FADV_DONTNEED) before
 * reading; --layout written writes every file anew at the start through
 * the page cache and fsyncs it (fio's layout with create_fsync), leaving
 * it cached.  Counters go to standard output on exit (SIGTERM and SIGINT
 * end the reading cleanly), one `name value` line each, named as the
 * simulated workload's metrics. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "streamer_pattern.h"

#define MAX_PROCS 64
#define WRITE_CHUNK (1u << 20)

struct opts {
	const char *dir;
	struct sp_config c;
	double rate;                    /* MiB/s, 0: unlimited */
	bool written;                   /* --layout written */
	uint64_t seed;
	double start, duration;         /* seconds; duration 0: no limit */
	bool prepare;
};

/* per process, in memory shared with the parent */
struct counters {
	uint64_t bytes_read, reads, passes, layout_bytes;
	uint64_t rchar, read_bytes;     /* /proc/self/io at exit */
	double user_s, sys_s, read_seconds;
	int error;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* sleep until the monotonic time t, or until a signal asks to stop */
static void sleep_until(double t)
{
	while (!stop) {
		double d = t - now_s();
		struct timespec ts;
		if (d <= 0)
			return;
		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult = 1;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': mult = 1ull << 10; end++; break;
	case 'm': case 'M': mult = 1ull << 20; end++; break;
	case 'g': case 'G': mult = 1ull << 30; end++; break;
	case 't': case 'T': mult = 1ull << 40; end++; break;
	}
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end)
		return -1;
	*out = (uint64_t)(v * (double)mult);
	return 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end || !(*out >= 0) ? -1 : 0;
}

static int parse_yesno(const char *s, bool *out)
{
	if (!strcmp(s, "yes")) *out = true;
	else if (!strcmp(s, "no")) *out = false;
	else return -1;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: streamer --dir D [--files N] [--file-size S] [--rate MIBPS] [--pattern seq|random]\n"
	        "                [--block B] [--reread yes|no] [--layout cold|written] [--seed N]\n"
	        "                [--start S] [--duration S] [--procs N] [--prepare]\n"
	        "  sizes take K/M/G/T (powers of 1024); --rate is MiB/s over all processes, 0 = unlimited;\n"
	        "  --block defaults to 128K for seq, 4K for random; --prepare lays the files out, drops\n"
	        "  their cache and exits; without --duration it reads until done (--reread no) or SIGTERM\n");
}

static void file_path(const struct opts *o, unsigned f, char *buf, size_t len)
{
	snprintf(buf, len, "%s/streamer.%u", o->dir, f);
}

/* write file f whole (a deterministic pattern), fsync it; returns bytes
 * written, or -1 */
static int64_t write_file(const struct opts *o, unsigned f, char *buf)
{
	char path[4096];
	uint64_t off = 0;
	int fd;

	file_path(o, f, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "streamer: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (off < o->c.file_size && !stop) {
		size_t n = o->c.file_size - off < WRITE_CHUNK ? (size_t)(o->c.file_size - off) : WRITE_CHUNK;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0) {
			fprintf(stderr, "streamer: %s: write: %s\n", path, w < 0 ? strerror(errno) : "short");
			close(fd);
			return -1;
		}
		off += (uint64_t)w;
	}
	if (fsync(fd)) {
		fprintf(stderr, "streamer: %s: fsync: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return (int64_t)off;
}

/* the files process proc reads: written anew (layout written, or
 * missing / of another size), then, for a cold layout, dropped from the
 * page cache; returns bytes written or -1 */
static int64_t lay_out(const struct opts *o, unsigned proc, bool cold)
{
	char *buf = malloc(WRITE_CHUNK), path[4096];
	int64_t total = 0;

	if (!buf)
		return -1;
	for (size_t i = 0; i < WRITE_CHUNK; i++)
		buf[i] = (char)(i * 131 + 7);
	for (unsigned f = proc; f < o->c.files && !stop; f += o->c.procs) {
		struct stat st;
		int fd;

		file_path(o, f, path, sizeof(path));
		if (!cold || stat(path, &st) || (uint64_t)st.st_size != o->c.file_size) {
			int64_t w = write_file(o, f, buf);
			if (w < 0) {
				free(buf);
				return -1;
			}
			total += w;
		}
		if (!cold)
			continue;
		fd = open(path, O_RDONLY);
		if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
			fprintf(stderr, "streamer: %s: cannot drop its cache: %s\n", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			free(buf);
			return -1;
		}
		close(fd);
	}
	free(buf);
	return total;
}

/* /proc/self/io: rchar (bytes read by syscalls) and read_bytes (bytes
 * the process caused to be fetched from storage: its page cache misses) */
static void read_proc_io(struct counters *k)
{
	FILE *f = fopen("/proc/self/io", "r");
	char line[128];
	unsigned long long v;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "rchar: %llu", &v) == 1)
			k->rchar = v;
		else if (sscanf(line, "read_bytes: %llu", &v) == 1)
			k->read_bytes = v;
	}
	fclose(f);
}

static int reader(const struct opts *o, unsigned proc, struct counters *k)
{
	unsigned nf = sp_files_of(&o->c, proc);
	int *fds = calloc(nf, sizeof(int));
	char *buf = NULL, path[4096];
	double rate = o->rate * (double)(1u << 20) / o->c.procs, t0, end;
	struct sp_state s;
	struct sp_io io;
	struct rusage ru0, ru;
	int64_t laid;

	if (!fds || posix_memalign((void **)&buf, 4096, o->c.block))
		return -1;
	if (o->start > 0)
		sleep_until(now_s() + o->start);
	laid = lay_out(o, proc, !o->written);
	if (laid < 0)
		return -1;
	k->layout_bytes = (uint64_t)laid;
	for (unsigned i = 0; i < nf; i++) {
		file_path(o, proc + i * o->c.procs, path, sizeof(path));
		if ((fds[i] = open(path, O_RDONLY)) < 0) {
			fprintf(stderr, "streamer: %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	sp_init(&s, &o->c, proc, o->seed);
	/* the reading's CPU only: the layout's is not counted */
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_s();
	end = o->duration > 0 ? t0 + o->duration : 0;
	while (!stop && sp_next(&s, &io)) {
		ssize_t n;

		/* rate: the bytes read so far are due at t0 + bytes / rate */
		if (rate > 0) {
			double due = t0 + (double)k->bytes_read / rate;
			if (end > 0 && due >= end)
				break;
			sleep_until(due);
		}
		if (stop || (end > 0 && now_s() >= end))
			break;
		n = pread(fds[io.file / o->c.procs], buf, io.len, (off_t)io.offset);
		if (n < 0) {
			if (errno == EINTR)
				break;
			fprintf(stderr, "streamer: read of file %u: %s\n", io.file, strerror(errno));
			return -1;
		}
		k->bytes_read += (uint64_t)n;
		k->reads++;
	}
	k->read_seconds = now_s() - t0;
	k->passes = s.pass + (s.done ? 1 : 0);
	for (unsigned i = 0; i < nf; i++)
		close(fds[i]);
	free(fds);
	free(buf);
	read_proc_io(k);
	getrusage(RUSAGE_SELF, &ru);
	k->user_s = (double)(ru.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
	            (ru.ru_utime.tv_usec - ru0.ru_utime.tv_usec) * 1e-6;
	k->sys_s = (double)(ru.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
	           (ru.ru_stime.tv_usec - ru0.ru_stime.tv_usec) * 1e-6;
	return 0;
}

static void print_counters(const struct opts *o, const struct counters *k, unsigned n)
{
	struct counters t = { 0 };

	for (unsigned i = 0; i < n; i++) {
		t.bytes_read += k[i].bytes_read;
		t.reads += k[i].reads;
		t.passes += k[i].passes;
		t.layout_bytes += k[i].layout_bytes;
		t.rchar += k[i].rchar;
		t.read_bytes += k[i].read_bytes;
		t.user_s += k[i].user_s;
		t.sys_s += k[i].sys_s;
		if (k[i].read_seconds > t.read_seconds)
			t.read_seconds = k[i].read_seconds;
	}
	printf("streamer_bytes_read %llu\n", (unsigned long long)t.bytes_read);
	printf("streamer_reads %llu\n", (unsigned long long)t.reads);
	printf("streamer_pages_read %llu\n", (unsigned long long)((t.bytes_read + 4095) / 4096));
	printf("streamer_passes %llu\n", (unsigned long long)t.passes);
	printf("streamer_layout_bytes %llu\n", (unsigned long long)t.layout_bytes);
	printf("streamer_read_seconds %.6f\n", t.read_seconds);
	printf("streamer_rate_mibs %.3f\n", t.read_seconds > 0 ? t.bytes_read / t.read_seconds / (1 << 20) : 0);
	printf("streamer_user_seconds %.6f\n", t.user_s);
	printf("streamer_system_seconds %.6f\n", t.sys_s);
	printf("streamer_cpu_ns_per_page %.1f\n",
	       t.bytes_read ? (t.user_s + t.sys_s) * 1e9 / ((double)t.bytes_read / 4096) : 0);
	printf("proc_io_rchar %llu\n", (unsigned long long)t.rchar);
	printf("proc_io_read_bytes %llu\n", (unsigned long long)t.read_bytes);
	(void)o;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "files", required_argument, NULL, 'n' },
		{ "file-size", required_argument, NULL, 's' },
		{ "rate", required_argument, NULL, 'r' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "block", required_argument, NULL, 'b' },
		{ "reread", required_argument, NULL, 'R' },
		{ "layout", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 'S' },
		{ "start", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'D' },
		{ "procs", required_argument, NULL, 'P' },
		{ "prepare", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .c = { .files = 1, .file_size = 1ull << 30, .order = SP_SEQ, .reread = true, .procs = 1 },
	                  .seed = 1 };
	struct counters *k;
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t pids[MAX_PROCS];
	char err[256];
	int opt, rc = 0;
	uint64_t v;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		bool bad = false;
		switch (opt) {
		case 'd': o.dir = optarg; break;
		case 'n': bad = parse_size(optarg, &v) || v < 1 || v > 1000000; o.c.files = (unsigned)v; break;
		case 's': bad = parse_size(optarg, &o.c.file_size) || !o.c.file_size; break;
		case 'r': bad = parse_double(optarg, &o.rate); break;
		case 'p':
			if (!strcmp(optarg, "seq")) o.c.order = SP_SEQ;
			else if (!strcmp(optarg, "random")) o.c.order = SP_RANDOM;
			else bad = true;
			break;
		case 'b': bad = parse_size(optarg, &o.c.block) || o.c.block < 4096 || o.c.block % 4096 ||
		                o.c.block > (1ull << 30); break;
		case 'R': bad = parse_yesno(optarg, &o.c.reread); break;
		case 'l':
			if (!strcmp(optarg, "cold")) o.written = false;
			else if (!strcmp(optarg, "written")) o.written = true;
			else bad = true;
			break;
		case 'S': bad = parse_size(optarg, &o.seed); break;
		case 't': bad = parse_double(optarg, &o.start); break;
		case 'D': bad = parse_double(optarg, &o.duration); break;
		case 'P': bad = parse_size(optarg, &v) || v < 1 || v > MAX_PROCS; o.c.procs = (unsigned)v; break;
		case 'x': o.prepare = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 64;
		}
		if (bad) {
			const struct option *l = longopts;
			while (l->val != opt)
				l++;
			fprintf(stderr, "streamer: --%s: bad value '%s' (see --help)\n", l->name, optarg);
			return 64;
		}
	}
	if (optind < argc || !o.dir) {
		usage(stderr);
		return 64;
	}
	if (!o.c.block)
		o.c.block = sp_default_block(o.c.order);
	if (sp_check(&o.c, err, sizeof(err))) {
		fprintf(stderr, "streamer: %s\n", err);
		return 64;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (o.prepare) {
		for (unsigned p = 0; p < o.c.procs; p++)
			if (lay_out(&o, p, true) < 0)
				return 1;
		return 0;
	}
	k = mmap(NULL, sizeof(*k) * o.c.procs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (k == MAP_FAILED) {
		perror("streamer: mmap");
		return 1;
	}
	memset(k, 0, sizeof(*k) * o.c.procs);
	if (o.c.procs == 1) {
		rc = reader(&o, 0, &k[0]) ? 1 : 0;
	} else {
		for (unsigned p = 0; p < o.c.procs; p++) {
			pids[p] = fork();
			if (pids[p] == 0)
				_exit(reader(&o, p, &k[p]) ? 1 : 0);
			if (pids[p] < 0) {
				perror("streamer: fork");
				o.c.procs = p;
				stop = 1;
				rc = 1;
				break;
			}
		}
		/* wait for every child; a signal to us is passed on to them */
		for (unsigned p = 0; p < o.c.procs; p++) {
			int status = 0;
			while (waitpid(pids[p], &status, 0) < 0) {
				if (errno != EINTR)
					break;
				for (unsigned q = 0; q < o.c.procs; q++)
					kill(pids[q], SIGTERM);
			}
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				rc = 1;
		}
	}
	print_counters(&o, k, o.c.procs);
	return rc;
}
