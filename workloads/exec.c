/* exec.c - executable images mapped into processes (exec.h).
 *
 * The table gives each file's size and executable PT_LOAD segment as
 * Debian 12's x86-64 packages ship them (gcc-12 12.2.0, binutils 2.40,
 * make 4.3, dash 0.5.12, libc6 2.36), read with `readelf -lW FILE`
 * (offset and file size of the LOAD segment with flags R E, rounded to
 * pages) and `ls -l FILE`.  The hot shares are the text Rss of a running
 * process over its segment, from /proc/PID/smaps (docs/workloads.md has
 * the commands): cc1 0.83 and as 0.63 compiling a 1,300-line C file at
 * -O2, libc 0.77 in that cc1, make and ld.so 1.0 in a running make;
 * ld.bfd, libbfd, gcc's driver, dash and ar are not measured (0.8, 0.8,
 * 0.5, 1.0, 1.0: estimates).  Fault-around maps 16 pages a fault, so the
 * Rss is the touched windows, which is what the model touches. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"

#define WINDOW 16ul                     /* fault_around_bytes / PAGE_SIZE */

static const struct exec_image images[] = {
	{ "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", 8141, 561, 5060, 0.83 },
	{ "/usr/bin/x86_64-linux-gnu-as", 225, 46, 79, 0.63 },
	{ "/usr/bin/x86_64-linux-gnu-ld.bfd", 327, 14, 66, 0.8 },
	{ "/usr/bin/x86_64-linux-gnu-ar", 13, 2, 6, 1.0 },
	{ "/usr/bin/gcc-12", 318, 3, 153, 0.5 },
	{ "/usr/bin/make", 59, 9, 36, 1.0 },
	{ "/usr/bin/dash", 31, 4, 19, 1.0 },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 471, 38, 342, 0.77 },
	{ "/usr/lib/x86_64-linux-gnu/libbfd-2.40-system.so", 370, 62, 228, 0.8 },
	{ "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 53, 1, 38, 1.0 },
};
#define NR_IMAGES (sizeof(images) / sizeof(images[0]))

const struct exec_image *exec_image_find(const char *name)
{
	for (size_t i = 0; i < NR_IMAGES; i++)
		if (!strcmp(images[i].name, name))
			return &images[i];
	return NULL;
}

/* is window w of the image hot?  A hash of (name, w), the same in every
 * process and every run; name_hash() once per image and call */
static uint64_t name_hash(const struct exec_image *img)
{
	uint64_t h = 1469598103934665603ull;

	for (const char *c = img->name; *c; c++)
		h = (h ^ (uint8_t)*c) * 1099511628211ull;
	return h;
}

static bool window_hot(const struct exec_image *img, uint64_t h, unsigned long w)
{
	h ^= w + 0x9e3779b97f4a7c15ull;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	h ^= h >> 31;
	return (double)(h >> 11) * 0x1.0p-53 < img->hot;
}

/* the image's hot text as runs of consecutive hot windows: [start, end)
 * in pages of its segment; out NULL counts them */
static unsigned hot_runs(const struct exec_image *img, uint32_t (*out)[2])
{
	unsigned long nw = (img->pages + WINDOW - 1) / WINDOW, run = 0;
	uint64_t h = name_hash(img);
	unsigned n = 0;

	for (unsigned long w = 0; w <= nw; w++) {
		if (w < nw && window_hot(img, h, w)) {
			run++;
			continue;
		}
		if (run) {
			if (out) {
				out[n][0] = (uint32_t)((w - run) * WINDOW);
				out[n][1] = (uint32_t)(w * WINDOW < img->pages ? w * WINDOW : img->pages);
			}
			n++;
			run = 0;
		}
	}
	return n;
}

/* the table's images' runs, found once (they are the same in every
 * process and every run: the touch runs every quantum of every job) */
static struct {
	unsigned n;
	uint32_t (*runs)[2];
} table_runs[NR_IMAGES];

/* touch the hot windows, a run of consecutive hot windows at a time (one
 * mm_access() each) */
static int touch_hot(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                     const struct exec_image *img, unsigned long vpage)
{
	size_t i = (size_t)(img - images);
	uint32_t (*runs)[2], (*own)[2] = NULL;
	unsigned n;
	int ret = 0;

	if (img >= images && img < images + NR_IMAGES) {
		if (!table_runs[i].runs) {
			table_runs[i].n = hot_runs(img, NULL);
			if (!(table_runs[i].runs = malloc((table_runs[i].n + 1) * sizeof(*runs))))
				abort();
			hot_runs(img, table_runs[i].runs);
		}
		runs = table_runs[i].runs;
		n = table_runs[i].n;
	} else {                        /* an image of the caller's own */
		n = hot_runs(img, NULL);
		if (!(own = runs = malloc((n + 1) * sizeof(*runs))))
			abort();
		hot_runs(img, runs);
	}
	for (unsigned r = 0; r < n && !ret; r++)
		if (mm_access(pgdat, ctx, mm, vpage + runs[r][0], runs[r][1] - runs[r][0], false))
			ret = -1;
	free(own);
	return ret;
}

/* the image's file: inode_get_named() scans every inode (a kernel tree
 * has 80,000), so the inode number found is remembered per image, and
 * checked (that number has that name) before it is used, which
 * also makes it right for another machine in the same process */
static struct address_space *image_file(struct pglist_data *pgdat, const struct exec_image *img)
{
	static uint32_t ino[NR_IMAGES];         /* + 1; 0: not looked up */
	size_t i = (size_t)(img - images);
	struct address_space *as;

	if (img < images || img >= images + NR_IMAGES)         /* an image of the caller's own */
		return inode_get_named(pgdat, img->name, img->file_pages);
	if (ino[i] && (as = inode_lookup(pgdat, ino[i] - 1)) && as->name && !strcmp(as->name, img->name))
		return as;
	if ((as = inode_get_named(pgdat, img->name, img->file_pages)))
		ino[i] = as->ino + 1;
	return as;
}

int exec_map_image(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
                   const struct exec_image *img, bool running, struct exec_maps *maps)
{
	struct address_space *as;
	unsigned long v;

	if (maps->n == EXEC_MAX_MAPS || !(as = image_file(pgdat, img)))
		return -1;
	/* open(): the path lookup, dentry and inode (a read of nothing) */
	if (filemap_read(pgdat, ctx, as, 0, 0))
		return -1;
	v = mm_mmap_file(mm, as, img->pgoff, img->pages, VM_READ | VM_EXEC);
	maps->m[maps->n].img = img;
	maps->m[maps->n].vpage = v;
	maps->m[maps->n].running = running;
	maps->n++;
	return touch_hot(pgdat, ctx, mm, img, v);
}

/* what each program maps: itself, the libraries it links (cc1's small
 * ones, libisl/mpfr/gmp/mpc/z/zstd/m, left out), the loader; a compile
 * job is the recipe's processes in one (sh -c, gcc's driver waiting in
 * wait4(), cc1 and as running) */
#define LIBC   "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define LIBBFD "/usr/lib/x86_64-linux-gnu/libbfd-2.40-system.so"
#define LDSO   "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
#define SH     "/usr/bin/dash"
static const struct {
	const char *img[6];
	bool running[6];
} progs[NR_EXEC_PROGS] = {
	[PROG_MAKE] = { { "/usr/bin/make", LIBC, LDSO }, { true, true, false } },
	[PROG_SH]   = { { SH, LIBC, LDSO }, { true, true, false } },
	[PROG_GCC]  = { { "/usr/bin/gcc-12", LIBC, LDSO }, { true, true, false } },
	[PROG_CC1]  = { { SH, "/usr/bin/gcc-12", "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
	                  "/usr/bin/x86_64-linux-gnu-as", LIBC, LDSO },
	                { false, false, true, true, true, false } },
	[PROG_AS]   = { { "/usr/bin/x86_64-linux-gnu-as", LIBBFD, LIBC, LDSO }, { true, true, true, false } },
	[PROG_AR]   = { { SH, "/usr/bin/x86_64-linux-gnu-ar", LIBBFD, LIBC, LDSO },
	                { false, true, true, true, false } },
	[PROG_LD]   = { { SH, "/usr/bin/x86_64-linux-gnu-ld.bfd", LIBBFD, LIBC, LDSO },
	                { false, true, true, true, false } },
};

int exec_prog(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
              enum exec_prog prog, struct exec_maps *maps)
{
	for (unsigned i = 0; i < 6 && progs[prog].img[i]; i++)
		if (exec_map_image(pgdat, ctx, mm, exec_image_find(progs[prog].img[i]), progs[prog].running[i],
		                   maps))
			return -1;
	return 0;
}

int exec_run(struct pglist_data *pgdat, struct mm_ctx *ctx, struct mm_struct *mm,
             const struct exec_maps *maps)
{
	for (unsigned i = 0; i < maps->n; i++)
		if (maps->m[i].running && touch_hot(pgdat, ctx, mm, maps->m[i].img, maps->m[i].vpage))
			return -1;
	return 0;
}
