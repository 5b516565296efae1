/* kbuild_data.c - reads a measured kernel build (workloads/data/kbuild/,
 * written by collect.py there): a gzip-compressed text file of tagged,
 * tab-separated lines.  Only what the workload uses is kept: file sizes,
 * steps, their header lists and dependencies, their processes. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "kbuild_data.h"
#include "mmsim/ini.h"

/* The source tree this module was built from (CMakeLists.txt defines it). */
#ifndef MMSIM_SOURCE_DIR
#define MMSIM_SOURCE_DIR ""
#endif
#define DATA_DIR "workloads/data/kbuild"

int kbuild_dataset_find(const char *name, char *out, size_t n, char *err, size_t errlen)
{
	char exe[PATH_MAX], *dir;
	ssize_t len;

	if (strchr(name, '/')) {
		char why[PATH_MAX + 128];

		snprintf(out, n, "%s", name);
		/* a regular file: a directory passed access() and failed the
		 * run (70); /dev/zero or a FIFO never ended */
		if (mmsim_check_input(out, why, sizeof(why)) == 0)
			return 0;
		snprintf(err, errlen, "kbuild.tree: %s", why);
		return -1;
	}
	if (MMSIM_SOURCE_DIR[0]) {
		snprintf(out, n, "%s/%s/%s.tsv.gz", MMSIM_SOURCE_DIR, DATA_DIR, name);
		if (access(out, R_OK) == 0)
			return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		dir = dirname(exe);
		for (int up = 0; up <= 3; up++) {
			snprintf(out, n, "%s/%s/%s.tsv.gz", dir, DATA_DIR, name);
			if (access(out, R_OK) == 0)
				return 0;
			dir = dirname(dir);
		}
	}
	snprintf(err, errlen, "kbuild.tree: no dataset '%s': %s%s%s/%s.tsv.gz is missing and none is "
	         "found above the executable (tree = synthetic needs none; a path names a file)",
	         name, MMSIM_SOURCE_DIR, MMSIM_SOURCE_DIR[0] ? "/" : "", DATA_DIR, name);
	return -1;
}

/* growable arrays */
#define PUSH(arr, nr, cap, val)                                                   \
	do {                                                                      \
		if ((nr) == (cap)) {                                              \
			(cap) = (cap) ? 2 * (cap) : 1024;                         \
			(arr) = realloc((arr), (cap) * sizeof(*(arr)));           \
			if (!(arr))                                               \
				abort();                                          \
		}                                                                 \
		(arr)[(nr)++] = (val);                                            \
	} while (0)

/* one line of any length; NULL at the end */
static char *read_line(gzFile f, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		if (*cap - len < 2) {
			*cap = *cap ? 2 * *cap : 65536;
			*buf = realloc(*buf, *cap);
			if (!*buf)
				abort();
		}
		if (!gzgets(f, *buf + len, (int)(*cap - len)))
			return len ? *buf : NULL;
		len += strlen(*buf + len);
		if (len && (*buf)[len - 1] == '\n') {
			(*buf)[len - 1] = '\0';
			return *buf;
		}
	}
}

/* split s at tabs into at most max fields; returns the count */
static int split(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static int num(const char *s, long long lo, long long hi, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

/* a comma-separated list of indices below limit ("-": empty) appended to
 * *arr; -1 on a bad entry */
static int index_list(char *s, uint32_t limit, uint32_t **arr, uint32_t *nr, size_t *cap)
{
	if (!strcmp(s, "-"))
		return 0;
	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		long long v;
		if (num(tok, 0, (long long)limit - 1, &v))
			return -1;
		PUSH(*arr, *nr, *cap, (uint32_t)v);
	}
	return 0;
}

static enum kbd_tool tool_of(const char *s)
{
	static const char *const names[] = { "gcc", "cc1", "as", "collect2", "ld", "ar" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (enum kbd_tool)i;
	return KBD_OTHER;
}

struct kbuild_dataset *kbuild_dataset_load(const char *path, char *err, size_t errlen)
{
	struct kbuild_dataset *d = calloc(1, sizeof(*d));
	size_t cap_files = 0, cap_paths = 0, cap_outs = 0, cap_steps = 0, cap_hdrs = 0, cap_deps = 0, cap_procs = 0, bufcap = 0;
	char *buf = NULL, *line, *f[12];
	unsigned long lineno = 0;
	const char *what = NULL;
	gzFile g;

	if (!d)
		abort();
	d->path = strdup(path);
	if (!(g = gzopen(path, "rb"))) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		kbuild_dataset_free(d);
		return NULL;
	}
	gzbuffer(g, 1 << 17);
	for (unsigned t = 0; t <= KBD_OTHER; t++)
		d->min_rss_kib[t] = UINT32_MAX;
	while ((line = read_line(g, &buf, &bufcap))) {
		long long v[8];
		int n;

		lineno++;
		if (!line[0] || line[0] == '#')
			continue;
		n = split(line, f, 12);
		if (!strcmp(f[0], "M")) {
			if (n != 3) {
				what = "an M line is: M key value";
				break;
			}
			if (!strncmp(f[1], "rss_file_kib.", 13) && num(f[2], 0, UINT32_MAX, v) == 0)
				d->rss_file_kib[tool_of(f[1] + 13)] = (uint32_t)v[0];
			else if (!strcmp(f[1], "tree_files") && num(f[2], 0, 1ll << 40, v) == 0)
				d->tree_files = (uint64_t)v[0];
			else if (!strcmp(f[1], "tree_bytes") && num(f[2], 0, 1ll << 50, v) == 0)
				d->tree_bytes = (uint64_t)v[0];
			else if (!strcmp(f[1], "rusage_user_s") || !strcmp(f[1], "rusage_sys_s")) {
				char *end;
				double x = strtod(f[2], &end);
				if (end == f[2] || *end || !(x >= 0 && x < 1e9)) {
					what = "M rusage_user_s / rusage_sys_s: seconds, a number in 0..1e9";
					break;
				}
				*(f[1][7] == 'u' ? &d->rusage_user_s : &d->rusage_sys_s) = x;
			}
		} else if (!strcmp(f[0], "F")) {
			if (n != 3 || num(f[1], 0, 1ll << 40, v) || !f[2][0]) {
				what = "an F line is: F size path";
				break;
			}
			{
				uint32_t nr = d->nr_files;
				char *fpath = strdup(f[2]);
				if (!fpath)
					abort();
				PUSH(d->file_path, nr, cap_paths, fpath);
			}
			PUSH(d->file_bytes, d->nr_files, cap_files, (uint64_t)v[0]);
		} else if (!strcmp(f[0], "S")) {
			struct kbd_step s = { 0 };
			if (n != 11 || num(f[1], d->nr_steps, d->nr_steps, v) ||
			    (strcmp(f[2], "cc") && strcmp(f[2], "ar") && strcmp(f[2], "ld")) ||
			    num(f[3], 0, 1ll << 40, v + 1) || num(f[4], 0, 1ll << 40, v + 2) ||
			    num(f[6], -1, 1ll << 40, v + 3) || num(f[7], -1, (long long)d->nr_files - 1, v + 4) ||
			    num(f[8], 0, 1 << 24, v + 5)) {
				what = "an S line is: S step(next in order) cc|ar|ld start_us wall_us out "
				       "out_bytes src(-1 or a file above) nr_hdrs hdrs deps";
				break;
			}
			s.kind = !strcmp(f[2], "cc") ? KBD_CC : !strcmp(f[2], "ar") ? KBD_AR : KBD_LD;
			s.start_ms = (uint32_t)(v[1] / 1000);
			s.wall_ms = (uint32_t)(v[2] / 1000);
			s.out_bytes = v[3];
			s.src = (int32_t)v[4];
			s.hdr_off = d->nr_hdrs;
			if (index_list(f[9], d->nr_files, &d->hdrs, &d->nr_hdrs, &cap_hdrs) ||
			    d->nr_hdrs - s.hdr_off != (uint32_t)v[5]) {
				what = "the header list names a file not listed above, or not nr_hdrs of them";
				break;
			}
			s.nr_hdrs = (uint32_t)v[5];
			s.dep_off = d->nr_deps;
			if (index_list(f[10], d->nr_steps, &d->deps, &d->nr_deps, &cap_deps)) {
				what = "the dependency list names a step not listed above";
				break;
			}
			s.nr_deps = d->nr_deps - s.dep_off;
			s.proc_off = d->nr_procs;
			{
				uint32_t nr = d->nr_steps;
				char *out = strdup(f[5]);
				if (!out)
					abort();
				PUSH(d->step_out, nr, cap_outs, out);
			}
			PUSH(d->steps, d->nr_steps, cap_steps, s);
		} else if (!strcmp(f[0], "P")) {
			struct kbd_proc p = { 0 };
			if (n != 7 || !d->nr_steps || num(f[1], d->nr_steps - 1, d->nr_steps - 1, v) ||
			    num(f[3], 0, UINT32_MAX, v + 1) || num(f[4], 0, UINT32_MAX, v + 2) ||
			    num(f[5], 0, UINT32_MAX, v + 3) || num(f[6], -1, 1ll << 40, v + 4)) {
				what = "a P line is: P step(the last S) tool user_us sys_us maxrss_kib out_bytes";
				break;
			}
			p.tool = (uint8_t)tool_of(f[2]);
			p.user_us = (uint32_t)v[1];
			p.sys_us = (uint32_t)v[2];
			p.maxrss_kib = (uint32_t)v[3];
			p.out_bytes = v[4];
			PUSH(d->procs, d->nr_procs, cap_procs, p);
			d->steps[d->nr_steps - 1].nr_procs++;
			if (p.maxrss_kib && p.maxrss_kib < d->min_rss_kib[p.tool])
				d->min_rss_kib[p.tool] = p.maxrss_kib;
		} else if (!strcmp(f[0], "C")) {
			/* the slab diff of the whole build: documentation */
		} else {
			what = "unknown line tag (M, F, S, P, C)";
			break;
		}
	}
	if (!what && !gzeof(g)) {
		int zerr;
		snprintf(err, errlen, "%s: read error: %s", path, gzerror(g, &zerr));
		what = "";
	} else if (what)
		snprintf(err, errlen, "%s:%lu: %s", path, lineno, what);
	else if (!d->nr_steps) {
		snprintf(err, errlen, "%s: no steps (S lines)", path);
		what = "";
	}
	free(buf);
	gzclose(g);
	if (what) {
		kbuild_dataset_free(d);
		return NULL;
	}
	for (unsigned t = 0; t <= KBD_OTHER; t++) {
		if (d->min_rss_kib[t] == UINT32_MAX)
			d->min_rss_kib[t] = 0;
		d->base_rss_kib[t] = d->rss_file_kib[t] ? d->rss_file_kib[t] : d->min_rss_kib[t];
	}
	return d;
}

void kbuild_dataset_free(struct kbuild_dataset *d)
{
	if (!d)
		return;
	free(d->path);
	for (uint32_t i = 0; d->file_path && i < d->nr_files; i++)
		free(d->file_path[i]);
	for (uint32_t i = 0; d->step_out && i < d->nr_steps; i++)
		free(d->step_out[i]);
	free(d->file_path);
	free(d->step_out);
	free(d->file_bytes);
	free(d->steps);
	free(d->hdrs);
	free(d->deps);
	free(d->procs);
	free(d);
}

const struct kbd_proc *kbd_step_proc(const struct kbuild_dataset *d, uint32_t s, enum kbd_tool tool)
{
	const struct kbd_step *st = &d->steps[s];

	for (uint32_t i = 0; i < st->nr_procs; i++)
		if (d->procs[st->proc_off + i].tool == tool)
			return &d->procs[st->proc_off + i];
	return NULL;
}
