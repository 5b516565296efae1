/* identity.c - a sweep's identity (DIR/sweep.id): the binary (version,
 * git revision and a hash of the executable's bytes) and every line's
 * resolved scenario hash.  A resume whose binary or scenario differs
 * would merge runs of two configurations into one comparison: it is
 * refused, as is a manifest line run by another binary or on an edited
 * scenario (sweep_check_line()).  The sweep id every run of the sweep
 * stores is a hash of the manifest and this identity (sweep_id()).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "experiment_int.h"
#include "mmsim/outfile.h"
#include "mmsim/scenario.h"
#include "mmsim/version.h"

/* FNV-1a 64 of the running executable's bytes: a rebuild with any change
 * gives another binary, whatever `git describe` says */
static const char *exe_hash(void)
{
	static char hex[17];
	unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ull;
	ssize_t n;
	int fd;

	if (hex[0])
		return hex;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return strcpy(hex, "unknown");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	close(fd);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	return hex;
}

/* "mmsim VERSION (REVISION) exe HASH": the binary line of sweep.id */
static void binary_id(char *buf, size_t len)
{
	snprintf(buf, len, "mmsim %s (%s) exe %s", MMSIM_VERSION, MMSIM_GIT_REVISION, exe_hash());
}

#define ID_HEADER "# mmsim sweep identity: the binary and each manifest line's resolved scenario hash\n"

char *identity_text(const struct sweep_plan *p, char (*hashes)[17])
{
	char bin[256];
	size_t len = strlen(ID_HEADER) + 300 + p->nr_runs * 48, at;
	char *t = malloc(len);

	if (!t)
		return NULL;
	binary_id(bin, sizeof(bin));
	at = (size_t)snprintf(t, len, "%sbinary %s\n", ID_HEADER, bin);
	for (unsigned long k = 0; k < p->nr_runs; k++)
		at += (size_t)snprintf(t + at, len - at, "line %lu %s\n", k + 1, hashes[k]);
	return t;
}

char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&text, &cap, 0, f);
	fclose(f);
	if (n < 0) {
		free(text);
		return strdup("");
	}
	return text;
}

/* the value after "KEY " on the line starting so, in text (static buffer) */
static const char *id_field(const char *text, const char *key)
{
	static char val[256];
	size_t n = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, n) && l[n] == ' ') {
			size_t m = strcspn(l + n + 1, "\n");
			snprintf(val, sizeof(val), "%.*s", (int)(m < sizeof(val) ? m : sizeof(val) - 1), l + n + 1);
			return val;
		}
	return NULL;
}

/* Why the recorded identity old differs from new, as a message */
void identity_diff(const char *dir, const char *old, const char *new, char *msg, size_t len)
{
	char ob[256], key[32];
	const char *o = id_field(old, "binary"), *n;

	snprintf(ob, sizeof(ob), "%s", o ? o : "(none)");
	n = id_field(new, "binary");
	if (strcmp(ob, n ? n : "")) {
		snprintf(msg, len, "%s was started by another mmsim binary (%s; this one is %s): its "
		         "runs and this binary's would be merged into one comparison", dir, ob, n ? n : "?");
		return;
	}
	for (unsigned long k = 1;; k++) {
		snprintf(key, sizeof(key), "line %lu", k);
		o = id_field(old, key);
		snprintf(ob, sizeof(ob), "%s", o ? o : "");
		n = id_field(new, key);
		if (!o && !n)
			break;
		if (!o || !n || strcmp(ob, n)) {
			snprintf(msg, len, "%s: the resolved scenario of manifest line %lu has changed since "
			         "the sweep was started (hash %s, now %s: the scenario or a file it reads was edited?): its "
			         "runs and the new ones would be merged into one comparison", dir, k,
			         o ? ob : "none", n ? n : "none");
			return;
		}
	}
	snprintf(msg, len, "%s/sweep.id differs from this sweep's", dir);
}

int write_file_atomic(const char *path, const char *text)
{
	struct outfile o;

	if (!outfile_open(&o, path, 0666))
		return -1;
	fputs(text, o.f);
	return outfile_commit(&o);
}

int sweep_check_line(const char *manifest, unsigned long index, const char *config_hash)
{
	char path[PATH_MAX], key[32], bin[256], *copy = strdup(manifest), *text;
	const char *v;
	int rc = EX_OK;

	if (!copy)
		return EX_SOFTWARE;
	snprintf(path, sizeof(path), "%s/sweep.id", dirname(copy));
	free(copy);
	if (!(text = read_text(path)))
		return EX_OK;         /* a manifest written by hand: nothing recorded */
	binary_id(bin, sizeof(bin));
	snprintf(key, sizeof(key), "line %lu", index);
	if ((v = id_field(text, "binary")) && strcmp(v, bin)) {
		exp_error("%s: the sweep was started by another mmsim binary (%s; this one is %s); run its "
		          "lines with that binary, or start the sweep again (mmsim sweep --force-new)",
		          manifest, v, bin);
		rc = EX_CONFIG;
	} else if ((v = id_field(text, key)) && strcmp(v, config_hash)) {
		exp_error("%s:%lu: the resolved scenario has changed since the sweep was started (hash %s, "
		          "now %s: the scenario or a file it reads was edited?); start the sweep again (mmsim sweep "
		          "--force-new) or restore the scenario", manifest, index, v, config_hash);
		rc = EX_CONFIG;
	}
	free(text);
	return rc;
}

/* The sweep's id: the manifest's content and its identity (sweep.id
 * beside it: the binary and every line's resolved scenario hash, file
 * contents included), so that every line of one sweep, wherever it runs,
 * carries the same id, and two sweeps of one manifest on an edited
 * scenario do not */
void sweep_id(const char *manifest, char *id)
{
	char idpath[PATH_MAX + 16], *copy = strdup(manifest);
	const char *paths[2] = { manifest, idpath };
	char *all = NULL;
	size_t len = 0;

	snprintf(idpath, sizeof(idpath), "%s/sweep.id", copy ? dirname(copy) : ".");
	free(copy);
	for (int k = 0; k < 2; k++) {
		FILE *f = fopen(paths[k], "r");
		char *text = NULL, *n;
		size_t cap = 0;
		ssize_t got = f ? getdelim(&text, &cap, 0, f) : -1;
		if (f)
			fclose(f);
		if (got > 0 && (n = realloc(all, len + (size_t)got + 1))) {
			all = n;
			memcpy(all + len, text, (size_t)got);
			len += (size_t)got;
			all[len] = 0;
		}
		free(text);
	}
	scenario_fnv1a(all ? all : "", id);
	free(all);
}
