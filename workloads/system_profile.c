/* system_profile.c - reading a base-system profile (system_profile.h).
 *
 * A profile is an INI file:
 *
 *   [kernel]           kernel_threads, vmalloc, percpu, kmalloc_large
 *   [slab]             one line per cache, as /proc/slabinfo has it:
 *                      NAME = OBJSIZE OBJPERSLAB PAGESPERSLAB ACTIVE NUM reclaimable|unreclaimable
 *   [daemon.NAME]      anon, file, cache, page_tables, gem, gem_objects, gem_pinned,
 *                      gem_churn, threads,
 *                      interval, cpu, touch, log, log_file, churn
 *
 * Every value is checked as it is read; the first error ends the load
 * with "FILE:LINE: [SECTION] KEY: what is wrong".
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mmsim/ini.h"
#include "mmsim/msg.h"
#include "mmsim/param.h"
#include "mmsim/parse.h"
#include "system_profile.h"

#ifndef MMSIM_SOURCE_DIR
#define MMSIM_SOURCE_DIR ""
#endif

#define PROFILE_DIR "configs/system"
#define SYS_PAGE_SIZE 4096ul
#define MAX_SLAB_ORDER 10               /* MAX_ORDER - 1: a slab is one buddy allocation */

/* ------------------------------------------------------------ finding it */

static bool plain_name(const char *name)
{
	if (!*name)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '-' || *c == '_'))
			return false;
	return true;
}

int system_profile_path(const char *name, char *out, size_t n, char *err, size_t errlen)
{
	char exe[PATH_MAX], *dir;
	ssize_t len;
	size_t nl = strlen(name);

	if (strchr(name, '/') || (nl > 4 && !strcmp(name + nl - 4, ".ini"))) {
		snprintf(out, n, "%s", name);
		if (access(out, R_OK)) {
			mmsim_msg(err, errlen, "cannot read profile %s: %s", name, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!plain_name(name)) {
		mmsim_msg(err, errlen, "'%s' is not a profile name (letters, digits, '-', '_'; or a path to an .ini file)",
		    name);
		return -1;
	}
	if (MMSIM_SOURCE_DIR[0]) {
		snprintf(out, n, "%s/%s/%s.ini", MMSIM_SOURCE_DIR, PROFILE_DIR, name);
		if (!access(out, R_OK))
			return 0;
	}
	snprintf(out, n, "%s/%s.ini", PROFILE_DIR, name);
	if (!access(out, R_OK))
		return 0;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = 0;
		dir = dirname(exe);
		for (int up = 0; up <= 3; up++) {
			snprintf(out, n, "%s/%s/%s.ini", dir, PROFILE_DIR, name);
			if (!access(out, R_OK))
				return 0;
			dir = dirname(dir);
		}
	}
	mmsim_msg(err, errlen, "no profile '%s': no %s/%s.ini in the source tree (%s), the current directory "
	    "or above the executable", name, PROFILE_DIR, name, MMSIM_SOURCE_DIR[0] ? MMSIM_SOURCE_DIR : "unknown");
	return -1;
}

/* ------------------------------------------------------------ parsing */

struct pctx {
	struct system_profile *p;
	FILE *f;
	int line;
	char *buf;                      /* the line read (whole, any length) */
	size_t cap;
	char *err;
	size_t errlen;
	bool failed;
	unsigned cap_slab, cap_daemon;
};

/* whole lines of any length (mmsim/ini.h); a NUL byte stops the read */
static char *reader(void *stream)
{
	struct pctx *c = stream;
	long n;

	if (c->failed)
		return NULL;
	n = mmsim_read_line(c->f, c->p->path, &c->line, &c->buf, &c->cap, c->err, c->errlen);
	if (n == -2)
		c->failed = true;
	return n < 0 ? NULL : c->buf;
}

static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	unsigned long v;

	if (mmsim_parse_ulong(s, lo, hi, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* NAME = OBJSIZE OBJPERSLAB PAGESPERSLAB ACTIVE NUM reclaimable|unreclaimable */
static const char *parse_slab(const char *name, const char *value, struct sys_slab *s)
{
	char buf[256], *tok[7], *save = NULL;
	int n = 0;
	unsigned order = 0;

	if (strlen(name) >= sizeof(s->name))
		return "cache name longer than 31 characters";
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(buf, sizeof(buf), "%s", value);
	for (char *t = strtok_r(buf, " \t", &save); t && n < 7; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	if (n != 6)
		return "expected OBJSIZE OBJPERSLAB PAGESPERSLAB ACTIVE_OBJS NUM_OBJS reclaimable|unreclaimable";
	if (parse_uint(tok[0], 8, 1u << 22, &s->object_size))
		return "OBJSIZE: not an integer in 8..4194304";
	if (parse_uint(tok[1], 1, 1u << 16, &s->objs_per_slab))
		return "OBJPERSLAB: not an integer in 1..65536";
	if (parse_uint(tok[2], 1, 1u << MAX_SLAB_ORDER, &s->pages_per_slab))
		return "PAGESPERSLAB: not an integer in 1..1024";
	while ((1u << order) < s->pages_per_slab)
		order++;
	if ((1u << order) != s->pages_per_slab)
		return "PAGESPERSLAB: not a power of two (a slab is one buddy allocation)";
	if ((unsigned long)s->objs_per_slab * s->object_size > s->pages_per_slab * SYS_PAGE_SIZE)
		return "OBJPERSLAB objects of OBJSIZE bytes do not fit PAGESPERSLAB pages";
	if (mmsim_parse_ulong(tok[3], 0, 1ul << 28, &s->active_objs))
		return "ACTIVE_OBJS: not an integer in 0..2^28";
	if (mmsim_parse_ulong(tok[4], 0, 1ul << 28, &s->num_objs))
		return "NUM_OBJS: not an integer in 0..2^28";
	if (s->active_objs > s->num_objs)
		return "ACTIVE_OBJS is larger than NUM_OBJS";
	if (!strcmp(tok[5], "reclaimable"))
		s->reclaimable = true;
	else if (!strcmp(tok[5], "unreclaimable"))
		s->reclaimable = false;
	else
		return "the last field must be 'reclaimable' (SLAB_RECLAIM_ACCOUNT) or 'unreclaimable'";
	return NULL;
}

/* churn = CACHE:COUNT[, CACHE:COUNT...] */
static const char *parse_churn(const char *value, struct sys_daemon *d)
{
	char buf[512], *save = NULL;

	d->nr_churn = 0;
	snprintf(buf, sizeof(buf), "%s", value);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *colon, *end;
		struct sys_churn *c;

		while (*t == ' ' || *t == '\t')
			t++;
		end = t + strlen(t);
		while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = 0;
		if (!*t)
			continue;
		colon = strrchr(t, ':');
		if (!colon || colon == t)
			return "expected CACHE:COUNT, comma-separated";
		*colon = 0;
		if (d->nr_churn == SYS_MAX_CHURN)
			return "more than 8 caches";
		c = &d->churn[d->nr_churn];
		if (strlen(t) >= sizeof(c->cache))
			return "cache name longer than 31 characters";
		snprintf(c->cache, sizeof(c->cache), "%s", t);
		if (parse_uint(colon + 1, 1, 1u << 20, &c->count))
			return "COUNT: not an integer in 1..1048576";
		d->nr_churn++;
	}
	return NULL;
}

/* churn: a PARAM_CUSTOM entry (a list of CACHE:COUNT) */
static int set_churn(void *owner, const char *value, char *err, size_t errlen)
{
	const char *why = parse_churn(value, owner);

	if (why)
		mmsim_msg(err, errlen, "'%s': %s", value, why);
	return why ? -1 : 0;
}

/* log_file: a log smaller than a page could not wrap */
static const char *check_log_file(const void *owner, const char *value, char *buf, size_t len)
{
	(void)value; (void)buf; (void)len;
	return ((const struct sys_daemon *)owner)->log_file < SYS_PAGE_SIZE ? "is smaller than a page (4K)" : NULL;
}

#define D(field) PARAM_AT(struct sys_daemon, field)
#define K(field) PARAM_AT(struct system_profile, field)

/* [daemon.NAME]: one entry per key (mmsim/param.h); a daemon starts from
 * the defaults */
static const struct param daemon_params[] = {
	{ "anon", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "anonymous memory (smaps Anonymous)", D(anon) },
	{ "file", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "mapped file pages: its binary and libraries (RssFile)",
	  D(file) },
	{ "cache", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "other page cache it keeps (files it reads)", D(cache) },
	{ "page_tables", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "page tables (VmPTE)", D(page_tables) },
	{ "gem", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "GPU buffer objects it holds (i915 GEM shmem pages)",
	  D(gem) },
	{ "gem_objects", PARAM_INT, NULL, 1, 1000000, "1", "how many objects they are (the in-use one included)",
	  D(gem_objects) },
	{ "gem_pinned", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "of them in use: one object i915's shrinker passes over",
	  D(gem_pinned) },
	{ "gem_churn", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "of them, freed and allocated again per wake-up",
	  D(gem_churn) },
	{ "threads", PARAM_INT, NULL, 1, 100000, "1", "threads: one kernel stack each", D(threads) },
	{ "interval", PARAM_DOUBLE, "seconds", PARAM_PERIOD_FLOOR, 1e6, "5", "between wake-ups (0: never wakes)",
	  D(interval), .flags = PARAM_OR_ZERO },
	{ "cpu", PARAM_DOUBLE, "seconds", 0, 10, "0.0002", "CPU per wake-up", D(cpu) },
	{ "touch", PARAM_DOUBLE, NULL, 0, 1, "0.1", "share of its anonymous memory used per wake-up", D(touch) },
	{ "log", PARAM_SIZE, "bytes per second", 0, PARAM_SIZE_MAX, "0", "appended to its log file", D(log) },
	{ "log_file", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "64M", "the log's size before it wraps (rotation)",
	  D(log_file), .check = check_log_file },
	{ "churn", PARAM_CUSTOM, NULL, 0, 0, "", "CACHE:COUNT[, ...]: objects allocated at a wake-up, freed at "
	  "the next", .store = PARAM_ST_NONE, .set = set_churn },
	{ NULL },
};

/* [kernel] */
static const struct param kernel_params[] = {
	{ "kernel_threads", PARAM_INT, NULL, 0, 1000000, "0", "kthreads: one 16 KiB stack each",
	  K(kernel_threads) },
	{ "vmalloc", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "VmallocUsed less the stacks", K(vmalloc) },
	{ "percpu", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "Percpu", K(percpu) },
	{ "kmalloc_large", PARAM_SIZE, "bytes", 0, PARAM_SIZE_MAX, "0", "SUnreclaim less the unreclaimable caches' slabs",
	  K(kmalloc_large) },
	{ NULL },
};

#undef D
#undef K

/* key = value of a section whose keys are table's: "" when the key is
 * unknown, else NULL or the message tail */
static const char *set_key(const struct param *table, void *owner, const char *key, const char *value,
                           char *buf, size_t len)
{
	const struct param *p = param_find(table, key);

	if (!p)
		return "";
	return param_set(p, owner, value, buf, len) ? buf : NULL;
}

static void daemon_defaults(struct sys_daemon *d, const char *name)
{
	char err[200];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	param_set_defaults(daemon_params, d, err, sizeof(err));
}

static int fail(struct pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct pctx *c, const char *fmt, ...)
{
	char m[400];
	va_list ap;

	va_start(ap, fmt);
	mmsim_vmsg(m, sizeof(m), fmt, ap);
	va_end(ap);
	mmsim_msg(c->err, c->errlen, "%s:%d: %s", c->p->path, c->line, m);
	c->failed = true;
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct pctx *c = user;
	struct system_profile *p = c->p;
	const char *why;
	char buf[300], names[300];

	if (c->failed)
		return 1;
	if (!strcmp(section, "kernel")) {
		why = set_key(kernel_params, p, key, value, buf, sizeof(buf));
		param_names(kernel_params, names, sizeof(names));
		if (why && !*why)
			return fail(c, "unknown key '%s' in [kernel] (valid: %s)", key, names);
		if (why)
			return fail(c, "[kernel] %s: %s", key, why);
		return 1;
	}
	if (!strcmp(section, "slab")) {
		struct sys_slab s;

		for (unsigned i = 0; i < p->nr_slab; i++)
			if (!strcmp(p->slab[i].name, key))
				return fail(c, "[slab] %s: named twice", key);
		if ((why = parse_slab(key, value, &s)))
			return fail(c, "[slab] %s: '%s': %s", key, value, why);
		if (p->nr_slab == c->cap_slab) {
			unsigned cap = c->cap_slab ? 2 * c->cap_slab : 64;
			struct sys_slab *n = realloc(p->slab, cap * sizeof(*n));
			if (!n)
				return fail(c, "out of memory");
			p->slab = n;
			c->cap_slab = cap;
		}
		p->slab[p->nr_slab++] = s;
		return 1;
	}
	if (!strncmp(section, "daemon.", 7) && section[7]) {
		const char *name = section + 7;
		struct sys_daemon *d = NULL;

		if (strlen(name) >= sizeof(d->name))
			return fail(c, "[%s]: daemon name longer than 31 characters", section);
		for (unsigned i = 0; i < p->nr_daemon; i++)
			if (!strcmp(p->daemon[i].name, name))
				d = &p->daemon[i];
		if (!d) {
			if (p->nr_daemon == c->cap_daemon) {
				unsigned cap = c->cap_daemon ? 2 * c->cap_daemon : 16;
				struct sys_daemon *n = realloc(p->daemon, cap * sizeof(*n));
				if (!n)
					return fail(c, "out of memory");
				p->daemon = n;
				c->cap_daemon = cap;
			}
			d = &p->daemon[p->nr_daemon++];
			daemon_defaults(d, name);
		}
		why = set_key(daemon_params, d, key, value, buf, sizeof(buf));
		param_names(daemon_params, names, sizeof(names));
		if (why && !*why)
			return fail(c, "unknown key '%s' in [%s] (valid: %s)", key, section, names);
		if (why)
			return fail(c, "[%s] %s: %s", section, key, why);
		if (!strcmp(key, "gem_objects"))
			d->line_gem_objects = c->line;
		else if (!strcmp(key, "gem_pinned"))
			d->line_gem_pinned = c->line;
		else if (!strcmp(key, "gem_churn"))
			d->line_gem_churn = c->line;
		else if (!strcmp(key, "churn"))
			d->line_churn = c->line;
		return 1;
	}
	if (!*section)
		return fail(c, "key '%s' outside any section", key);
	return fail(c, "unknown section [%s] (valid: [kernel], [slab], [daemon.NAME])", section);
}

/* every churn cache must exist: in [slab], or one the model has */
static const char *const model_caches[] = {
	"kmalloc-64", "kmalloc-128", "kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k",
	"kmalloc-4k", "kmalloc-8k", "task_struct", "mm_struct", "vm_area_struct", "files_cache",
	"signal_cache", "cred_jar", "anon_vma", "radix_tree_node", "dentry", "ext4_inode_cache",
	"buffer_head", NULL,
};

static bool cache_known(const struct system_profile *p, const char *name)
{
	for (unsigned i = 0; i < p->nr_slab; i++)
		if (!strcmp(p->slab[i].name, name))
			return true;
	for (int i = 0; model_caches[i]; i++)
		if (!strcmp(model_caches[i], name))
			return true;
	return false;
}

/* the caches whose objects the superblock shrinker frees (slab.c): a
 * daemon's churn could not free its own objects after it */
static bool cache_shrinkable(const char *name)
{
	return !strcmp(name, "dentry") || !strcmp(name, "ext4_inode_cache");
}

/* "PATH:LINE" of a key the profile set, "PATH" for a default */
static const char *at_line(const struct system_profile *p, int line, char *buf, size_t len)
{
	if (line)
		snprintf(buf, len, "%s:%d", p->path, line);
	else
		snprintf(buf, len, "%s", p->path);
	return buf;
}

int system_profile_load(const char *name, struct system_profile **out, char *err, size_t errlen)
{
	struct system_profile *p = calloc(1, sizeof(*p));
	struct pctx c = { .p = p, .err = err, .errlen = errlen };
	char at[sizeof(p->path) + 16];
	int rc;

	*out = NULL;
	if (!p) {
		mmsim_msg(err, errlen, "out of memory");
		return -1;
	}
	if (system_profile_path(name, p->path, sizeof(p->path), err, errlen))
		goto bad;
	/* a regular file: a directory read as an empty profile, /dev/zero
	 * or a FIFO never ended */
	if (!(c.f = mmsim_open_input(p->path, err, errlen)))
		goto bad;
	rc = mmsim_ini_parse(reader, &c, handler, &c);
	fclose(c.f);
	free(c.buf);
	if (c.failed)
		goto bad;
	if (rc) {
		mmsim_msg(err, errlen, "%s:%d: syntax error (expected [SECTION] or KEY = VALUE)", p->path, rc);
		goto bad;
	}
	for (unsigned i = 0; i < p->nr_daemon; i++) {
		const struct sys_daemon *d = &p->daemon[i];
		unsigned long free_pages = (unsigned long)((d->gem - d->gem_pinned + SYS_PAGE_SIZE - 1) / SYS_PAGE_SIZE);
		unsigned free_objs = d->gem_objects - (d->gem_pinned ? 1 : 0);

		if (d->gem_churn > d->gem) {
			mmsim_msg(err, errlen, "%s: [daemon.%s] gem_churn: larger than gem",
			          at_line(p, d->line_gem_churn, at, sizeof(at)), d->name);
			goto bad;
		}
		if (d->gem_pinned > d->gem) {
			mmsim_msg(err, errlen, "%s: [daemon.%s] gem_pinned: larger than gem",
			          at_line(p, d->line_gem_pinned, at, sizeof(at)), d->name);
			goto bad;
		}
		/* the in-use object, then the others sharing the rest */
		if (d->gem && (free_objs > free_pages || (free_pages && !free_objs))) {
			mmsim_msg(err, errlen, "%s: [daemon.%s] gem_objects: %u cannot hold gem less gem_pinned (%lu "
			    "pages) in objects of a page or more, beside the in-use one",
			    at_line(p, d->line_gem_objects, at, sizeof(at)), d->name,
			    d->gem_objects, free_pages);
			goto bad;
		}
	}
	for (unsigned i = 0; i < p->nr_daemon; i++)
		for (unsigned j = 0; j < p->daemon[i].nr_churn; j++) {
			const char *cache = p->daemon[i].churn[j].cache;
			if (cache_shrinkable(cache)) {
				mmsim_msg(err, errlen, "%s: [daemon.%s] churn: '%s' objects belong to the shrinker's LRU; "
				    "churn another cache", at_line(p, p->daemon[i].line_churn, at, sizeof(at)),
				    p->daemon[i].name, cache);
				goto bad;
			}
			if (!cache_known(p, cache)) {
				mmsim_msg(err, errlen, "%s: [daemon.%s] churn: no cache '%s' in [slab] or in the model",
				    at_line(p, p->daemon[i].line_churn, at, sizeof(at)), p->daemon[i].name, cache);
				goto bad;
			}
		}
	*out = p;
	return 0;
bad:
	system_profile_free(p);
	return -1;
}

void system_profile_free(struct system_profile *p)
{
	if (!p)
		return;
	free(p->slab);
	free(p->daemon);
	free(p);
}

void system_profile_slab_pages(const struct system_profile *p, unsigned long *reclaimable,
                               unsigned long *unreclaimable)
{
	*reclaimable = *unreclaimable = 0;
	for (unsigned i = 0; i < p->nr_slab; i++) {
		const struct sys_slab *s = &p->slab[i];
		unsigned long pages = (s->num_objs + s->objs_per_slab - 1) / s->objs_per_slab * s->pages_per_slab;
		*(s->reclaimable ? reclaimable : unreclaimable) += pages;
	}
}
