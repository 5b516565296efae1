/*
 * hugetlb_hold - maps N pages of the hugetlb pool and holds them until
 * SIGTERM/SIGINT, so that the pool real/harness reserved to size the free
 * memory stays in use: lowering nr_hugepages cannot hand it back to the
 * buddy allocator behind the harness's back (a hugetlb page in use is not
 * freed), and nothing else can take it.
 *
 *   hugetlb_hold --pages N [--status FILE]
 *                [--release-pfn START-END --release-count R] [--once]
 *
 * It maps N huge pages of the default size (Hugepagesize of /proc/meminfo)
 * with MAP_HUGETLB and writes one byte in each, so every page is faulted in
 * (mmap fails with ENOMEM when the pool has fewer than N free pages).
 *
 * --release-pfn/--release-count: where one zone's memory is wanted free (the
 * harness's --free-zone), the harness first reserves nearly all memory; the
 * holder then reads each page's frame number in /proc/self/pagemap (root
 * only) and munmaps up to R pages whose PFN is in [START, END) (the zone's
 * range from /proc/zoneinfo).  Those pages go back to the pool's free list,
 * the only free pages of the pool, so lowering nr_hugepages by the count
 * released gives exactly them back to the buddy allocator: the free memory
 * is in that zone.
 *
 * When ready it writes "held=K released=R hugepage_kb=S" to FILE (through a
 * temporary file and rename, so a reader never sees half a line) and
 * stdout, then waits for a signal (--once: exits at once, for the tests).  Exit 0 on SIGTERM/SIGINT (the pages
 * return to the pool when the process exits), 1 on failure with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

static unsigned long hugepage_bytes(void)
{
	char line[256];
	unsigned long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb << 10;
}

/* the frame number backing addr, or -1 (not present, or not root: the
 * kernel reports PFN 0 to unprivileged readers) */
static long long pfn_of(int pagemap, const void *addr)
{
	uint64_t e;
	off_t off = (off_t)((uintptr_t)addr / (uintptr_t)sysconf(_SC_PAGESIZE)) * 8;

	if (pread(pagemap, &e, sizeof(e), off) != sizeof(e))
		return -1;
	if (!(e >> 63))
		return -1;
	e &= (1ULL << 55) - 1;
	return e ? (long long)e : -1;
}

static int write_status(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -1;
	if (!(f = fopen(tmp, "w")))
		return -1;
	fputs(text, f);
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, path);
}

static void usage(void)
{
	fprintf(stderr, "usage: hugetlb_hold --pages N [--status FILE] "
		"[--release-pfn START-END --release-count R] [--once]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long pages = 0, release = 0, released = 0;
	unsigned long long pfn_lo = 0, pfn_hi = 0;
	int have_pages = 0, have_range = 0, once = 0;
	const char *status = NULL;
	struct sigaction sa;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;
		if (!strcmp(a, "--once")) {
			once = 1;
			continue;
		}
		if (!v)
			usage();
		if (!strcmp(a, "--pages")) {
			pages = strtoul(v, &end, 10);
			if (end == v || *end) {
				fprintf(stderr, "hugetlb_hold: --pages %s: a count\n", v);
				return 2;
			}
			have_pages = 1;
		} else if (!strcmp(a, "--status")) {
			status = v;
		} else if (!strcmp(a, "--release-pfn")) {
			if (sscanf(v, "%llu-%llu", &pfn_lo, &pfn_hi) != 2 || pfn_hi <= pfn_lo) {
				fprintf(stderr, "hugetlb_hold: --release-pfn %s: START-END, END > START\n", v);
				return 2;
			}
			have_range = 1;
		} else if (!strcmp(a, "--release-count")) {
			release = strtoul(v, &end, 10);
			if (end == v || *end) {
				fprintf(stderr, "hugetlb_hold: --release-count %s: a count\n", v);
				return 2;
			}
		} else {
			usage();
		}
		i++;
	}
	if (!have_pages)
		usage();
	if (release && !have_range) {
		fprintf(stderr, "hugetlb_hold: --release-count needs --release-pfn\n");
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	unsigned long hp = hugepage_bytes();
	if (!hp) {
		fprintf(stderr, "hugetlb_hold: no Hugepagesize in /proc/meminfo\n");
		return 1;
	}
	char *base = NULL;
	if (pages) {
		base = mmap(NULL, pages * hp, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (base == MAP_FAILED) {
			fprintf(stderr, "hugetlb_hold: mmap of %lu huge pages of %lu kB: %s "
				"(fewer free in the pool? see HugePages_Free in /proc/meminfo)\n",
				pages, hp >> 10, strerror(errno));
			return 1;
		}
		/* fault every page in: the reservation alone is not a use */
		for (unsigned long i = 0; i < pages; i++)
			base[i * hp] = 1;
	}
	if (release) {
		int pm = open("/proc/self/pagemap", O_RDONLY);
		if (pm < 0) {
			fprintf(stderr, "hugetlb_hold: /proc/self/pagemap: %s\n", strerror(errno));
			return 1;
		}
		for (unsigned long i = 0; i < pages && released < release; i++) {
			long long pfn = pfn_of(pm, base + i * hp);
			if (pfn < 0) {
				fprintf(stderr, "hugetlb_hold: no frame numbers in pagemap (root is needed)\n");
				return 1;
			}
			if ((unsigned long long)pfn >= pfn_lo && (unsigned long long)pfn < pfn_hi) {
				if (munmap(base + i * hp, hp) < 0) {
					fprintf(stderr, "hugetlb_hold: munmap: %s\n", strerror(errno));
					return 1;
				}
				released++;
			}
		}
		close(pm);
	}

	char text[256];
	snprintf(text, sizeof(text), "held=%lu released=%lu hugepage_kb=%lu\n",
		 pages - released, released, hp >> 10);
	fputs(text, stdout);
	fflush(stdout);
	if (status && write_status(status, text) < 0) {
		fprintf(stderr, "hugetlb_hold: %s: %s\n", status, strerror(errno));
		return 1;
	}
	while (!stopping && !once)
		pause();
	return 0;
}
