/*
 * thp_faulter - the simulator's thp_faulter workload (workloads/thp_faulter.c)
 * as a real program, run beside the real kernel build by real/harness.
 *
 * One process that, until SIGTERM: mmaps an anonymous region,
 * madvise(MADV_HUGEPAGE)s it, writes every 4 KiB page (each 2 MiB range
 * faults a THP or, failing that, 4 KiB pages), holds it, munmaps it, pauses,
 * and starts again.  After touching, it reads AnonHugePages of
 * /proc/self/smaps_rollup: how many of the region's 2 MiB ranges came as
 * THPs (the process maps no other anonymous huge page).
 *
 *   thp_faulter [--region SIZE] [--hold SECONDS] [--pause SECONDS] [--cycles N]
 *
 * SIZE takes a K/M/G suffix (default 256M, the workload's default), hold 1,
 * pause 0.1 (the workload's defaults).  --cycles N stops after N cycles
 * (0, the default: until SIGTERM; the tests use a few).  Output, one line per
 * cycle and one at the end (the harness keeps it as faulter.log):
 *
 *   cycle=N ranges=R thp=T touch_s=S
 *   total cycles=N ranges=R thp=T
 *
 * SIGTERM while touching stops the touch, unmaps and exits without counting
 * the cycle; while holding or pausing, it unmaps (the cycle counts) and
 * exits: as the workload does when the measured build has finished.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE_4K 4096UL
#define RANGE_2M (2UL << 20)

static volatile sig_atomic_t stopping;

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* sleeps s seconds or until SIGTERM (nanosleep returns EINTR then) */
static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	while (!stopping && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int parse_size(const char *s, unsigned long *out)
{
	char *end;
	double v = strtod(s, &end);
	double mul = 1;

	if (end == s || v < 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': mul = 1024.0; end++; break;
	case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
	case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
	}
	if (*end == 'i' || *end == 'B')         /* 256MiB, 256MB */
		end += (end[0] == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end)
		return -1;
	*out = (unsigned long)(v * mul);
	return 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	*out = strtod(s, &end);
	return (end == s || *end || *out < 0) ? -1 : 0;
}

/* AnonHugePages of smaps_rollup in KiB, -1 if unreadable */
static long anon_huge_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void usage(void)
{
	fprintf(stderr, "usage: thp_faulter [--region SIZE] [--hold SECONDS] "
		"[--pause SECONDS] [--cycles N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long region = 256UL << 20, max_cycles = 0;
	double hold = 1, pause = 0.1;
	unsigned long cycles = 0, ranges_total = 0, thp_total = 0;
	struct sigaction sa;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			usage();
		if (!strcmp(a, "--region")) {
			if (parse_size(v, &region) || region < RANGE_2M) {
				fprintf(stderr, "thp_faulter: --region %s: a size of at least 2M\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--hold")) {
			if (parse_double(v, &hold)) {
				fprintf(stderr, "thp_faulter: --hold %s: seconds >= 0\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--pause")) {
			if (parse_double(v, &pause)) {
				fprintf(stderr, "thp_faulter: --pause %s: seconds >= 0\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--cycles")) {
			char *end;
			max_cycles = strtoul(v, &end, 10);
			if (end == v || *end) {
				fprintf(stderr, "thp_faulter: --cycles %s: a count\n", v);
				return 2;
			}
		} else {
			usage();
		}
		i++;
	}
	/* whole 2 MiB ranges, as the model's region is counted */
	region &= ~(RANGE_2M - 1);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;        /* no SA_RESTART: sleeps end at once */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	while (!stopping && (!max_cycles || cycles < max_cycles)) {
		/* map 2 MiB more and trim, so that every range is aligned and can
		 * be a THP whatever the kernel's placement of the mapping */
		size_t len = region + RANGE_2M;
		char *raw = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED) {
			fprintf(stderr, "thp_faulter: mmap %lu bytes: %s\n", region, strerror(errno));
			return 1;
		}
		char *base = (char *)(((uintptr_t)raw + RANGE_2M - 1) & ~(RANGE_2M - 1));
		if (base > raw)
			munmap(raw, (size_t)(base - raw));
		if (base + region < raw + len)
			munmap(base + region, (size_t)(raw + len - (base + region)));
		if (madvise(base, region, MADV_HUGEPAGE) < 0)
			fprintf(stderr, "thp_faulter: madvise(MADV_HUGEPAGE): %s\n", strerror(errno));

		/* write every 4 KiB page, as the workload's touch (a memset) */
		double t0 = now_s();
		unsigned long touched = 0;
		while (touched < region && !stopping) {
			memset(base + touched, (int)(cycles + 1), PAGE_4K);
			touched += PAGE_4K;
		}
		double touch_s = now_s() - t0;
		long kb = anon_huge_kb();
		unsigned long ranges = touched / RANGE_2M;
		unsigned long thp = kb > 0 ? (unsigned long)kb / (RANGE_2M >> 10) : 0;

		if (touched < region) {
			/* stopped while touching: no cycle, as the workload */
			munmap(base, region);
			break;
		}
		sleep_s(hold);
		munmap(base, region);
		cycles++;
		ranges_total += ranges;
		thp_total += thp;
		printf("cycle=%lu ranges=%lu thp=%lu touch_s=%.3f\n", cycles, ranges, thp, touch_s);
		if (!stopping && (!max_cycles || cycles < max_cycles))
			sleep_s(pause);
	}
	printf("total cycles=%lu ranges=%lu thp=%lu\n", cycles, ranges_total, thp_total);
	return 0;
}
