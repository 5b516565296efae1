/* kbuild_names.c - a measured tree's namespace in the dcache: the build's
 * directory, every file at its path, gcc's include directories and where
 * each header's failed tries end.  Part of the kbuild workload (kbuild.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kbuild_int.h"

/* gcc's include path.  A kernel object's compile (an in-tree build:
 * NOSTDINC_FLAGS -nostdinc, then LINUXINCLUDE and USERINCLUDE of the top
 * Makefile, in this order); a host program's (the files read by absolute
 * path) uses gcc's own directories: its include dir (found among the
 * files read), /usr/local/include, the multiarch dir, /usr/include. */
static const char *const kernel_include[] = {
	"arch/x86/include", "arch/x86/include/generated", "include", "arch/x86/include/uapi",
	"arch/x86/include/generated/uapi", "include/uapi", "include/generated/uapi",
};
#define NR_KERNEL_INCLUDE (sizeof(kernel_include) / sizeof(kernel_include[0]))
#define NR_SYSTEM_INCLUDE 4

/* The directory of the path list that found header `path` and the tries
 * before it.  The dataset has each compile's headers (its .cmd's deps_)
 * but not the #include lines, so the name a header was included by is
 * derived: of the list's directories that are a prefix of its path, the
 * most specific one that no earlier directory shadows (an earlier
 * directory holding a file of the same relative name would have been
 * found first: include/uapi/linux/types.h is <uapi/linux/types.h> through
 * include/, since <linux/types.h> finds include/linux/types.h).  The tries
 * before it fail, each at its first component that does not exist.  A
 * header under none of them (a quoted include beside its includer, a
 * Makefile's -I of its own directory) costs no failed try.  Returns the
 * number of ends written to neg (at most nr). */
static unsigned include_tries(struct pglist_data *pgdat, const uint32_t *dirs, char *const *dir_paths,
                              unsigned nr, uint32_t base, const char *path, uint32_t *neg)
{
	int best = -1;
	size_t best_len = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < nr; i++) {
		size_t len = strlen(dir_paths[i]);
		const char *rel = path + len + 1;
		bool shadowed = false;

		if (strncmp(path, dir_paths[i], len) || path[len] != '/' || len < best_len)
			continue;
		for (unsigned k = 0; k < i && !shadowed; k++) {
			uint32_t other = d_name_lookup(pgdat, dirs[k], rel);
			shadowed = other != DNAME_NONE && d_exists(pgdat, other) && d_is_file(pgdat, other);
		}
		if (!shadowed) {
			best = (int)i;
			best_len = len;
		}
	}
	(void)base;
	for (int k = 0; k < best; k++) {
		uint32_t cand = d_name_path(pgdat, dirs[k], path + best_len + 1);
		if (cand == DNAME_NONE)
			return n;
		neg[n++] = d_walk_end(pgdat, cand);
	}
	return n;
}

/* A name in the build's namespace: build 0 lives in "/", build i (of
 * builds = N) in its own root "/buildI", as a container's files do, so
 * that its absolute paths (system headers, /tmp) are its own. */
uint32_t kb_name(const struct kbuild *kb, uint32_t base, const char *path)
{
	if (kb->idx && path[0] == '/')
		return d_name_path(kb->w->pgdat, kb->root, path + 1);
	return d_name_path(kb->w->pgdat, base, path);
}

/* The measured tree's namespace (dcache.h): the build's directory (the
 * make's cwd, held), every file read at its path, the include
 * directories, and where each header's failed tries end. */
int kb_build_names(struct kbuild *kb, char *err, size_t errlen)
{
	const struct kbuild_dataset *d = kb->ds;
	struct pglist_data *pgdat = kb->w->pgdat;
	uint32_t root = d_root(pgdat), kdirs[NR_KERNEL_INCLUDE], sdirs[NR_SYSTEM_INCLUDE];
	char *kpaths[NR_KERNEL_INCLUDE], *spaths[NR_SYSTEM_INCLUDE], gccinc[256] = "";
	unsigned nr_sys = 0;
	size_t cap = 0, nr = 0;

	if (kb->idx) {
		char dir[32];
		snprintf(dir, sizeof(dir), "build%u", kb->idx);
		root = d_name_path(pgdat, root, dir);
		if (root == DNAME_NONE || d_mkdir(pgdat, NULL, root))
			goto nomem;
		d_pin(pgdat, root);
	}
	kb->root = root;
	kb->cwd = d_name_path(pgdat, root, "usr/src/linux");
	if (kb->cwd == DNAME_NONE || d_mkdir(pgdat, NULL, kb->cwd))
		goto nomem;
	d_pin(pgdat, kb->cwd);
	kb->file_name = malloc((d->nr_files + 1) * sizeof(uint32_t));
	kb->neg_off = calloc(d->nr_files + 1, sizeof(uint32_t));
	kb->out_name = malloc((d->nr_steps + 1) * sizeof(uint32_t));
	if (!kb->file_name || !kb->neg_off || !kb->out_name)
		goto nomem;
	for (uint32_t f = 0; f < d->nr_files; f++) {
		const char *path = d->file_path[f];
		const char *inc = strstr(path, "/include/");

		kb->file_name[f] = kb_name(kb, path[0] == '/' ? root : kb->cwd, path);
		if (kb->file_name[f] == DNAME_NONE || d_bind(pgdat, NULL, kb->file_name[f], kb->file[f])) {
			snprintf(err, errlen, "kbuild: %s: file %u (%s): not a path the model can name (an empty "
			         "component, or a file and a directory at once)", d->path, f, path);
			return -1;
		}
		if (!gccinc[0] && !strncmp(path, "/usr/lib/gcc/", 13) && inc &&
		    (size_t)(inc - path) + 8 < sizeof(gccinc))
			snprintf(gccinc, sizeof(gccinc), "%.*s", (int)(inc - path) + 8, path);
	}
	for (unsigned i = 0; i < NR_KERNEL_INCLUDE; i++) {
		kpaths[i] = (char *)kernel_include[i];
		kdirs[i] = d_name_path(pgdat, kb->cwd, kpaths[i]);
		if (kdirs[i] == DNAME_NONE || d_mkdir(pgdat, NULL, kdirs[i]))
			goto nomem;
	}
	if (gccinc[0])
		spaths[nr_sys++] = gccinc;
	spaths[nr_sys++] = "/usr/local/include";
	spaths[nr_sys++] = "/usr/include/x86_64-linux-gnu";
	spaths[nr_sys++] = "/usr/include";
	for (unsigned i = 0; i < nr_sys; i++) {
		sdirs[i] = kb_name(kb, root, spaths[i]);
		if (sdirs[i] == DNAME_NONE || d_mkdir(pgdat, NULL, sdirs[i]))
			goto nomem;
	}
	for (uint32_t f = 0; f < d->nr_files; f++) {
		const char *path = d->file_path[f];
		bool abs = path[0] == '/';
		uint32_t tries[NR_KERNEL_INCLUDE + NR_SYSTEM_INCLUDE];
		unsigned n = include_tries(pgdat, abs ? sdirs : kdirs, abs ? spaths : kpaths,
		                           abs ? nr_sys : (unsigned)NR_KERNEL_INCLUDE, abs ? root : kb->cwd,
		                           path, tries);

		kb->neg_off[f] = (uint32_t)nr;
		for (unsigned k = 0; k < n; k++) {
			if (nr == cap) {
				uint32_t *t;
				cap = cap ? 2 * cap : 4096;
				if (!(t = realloc(kb->neg, cap * sizeof(*t))))
					goto nomem;
				kb->neg = t;
			}
			kb->neg[nr++] = tries[k];
		}
	}
	kb->neg_off[d->nr_files] = (uint32_t)nr;
	for (uint32_t s = 0; s < d->nr_steps; s++)
		kb->out_name[s] = strcmp(d->step_out[s], "-") ?
		                  kb_name(kb, d->step_out[s][0] == '/' ? root : kb->cwd, d->step_out[s]) :
		                  DNAME_NONE;
	if (d_mkdir(pgdat, NULL, d_name_path(pgdat, root, "tmp")))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "kbuild: out of memory naming the tree's files");
	return -1;
}
