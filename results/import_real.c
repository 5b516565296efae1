/* import_real.c - a real-kernel harness's run directories into a results
 * database (import_real.h; the format is docs/schema.md's "Real runs").
 *
 * Each complete run directory (its file `status` present) becomes one run
 * of source 'real'.  Every file is checked as it is read, and a file that
 * is not what the format says stops the import with a message naming the
 * file, the line and the key: nothing of a series is imported unless all
 * of it reads.  The runs are written into a run file of their own in a
 * temporary directory (results_create: whole or absent) and merged into
 * the output (results_merge: INSERT OR IGNORE, a new output built aside).
 * A run's run_id is a digest of what identifies it (its start time, label
 * and kernel), so a second import of the same directory adds nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import_real.h"
#include "stats.h"
#include "results.h"
#include "results_int.h"

/* the model's policy registry (mmsim/policy.h) and the scenario digest
 * (mmsim/scenario.h), declared here: those headers' enums would clash
 * with nothing here, but results/ keeps to its own headers */
const char *mm_policy_canonical(const char *name);
const char *mm_policy_names(void);
void scenario_fnv1a(const char *text, char out[17]);

#define MAX_FILE_BYTES (64u << 20)      /* a /proc copy is kilobytes; refuse what is not one */

struct ctx {
	enum import_error kind;
	char *err;
	size_t errlen;
};

static int fail(struct ctx *c, enum import_error kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct ctx *c, enum import_error kind, const char *fmt, ...)
{
	va_list ap;

	c->kind = kind;
	if (c->err && c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* files and lines */

/* dir/name into path; -1 if it does not fit */
static int join(struct ctx *c, char *path, size_t n, const char *dir, const char *name)
{
	if ((size_t)snprintf(path, n, "%s/%s", dir, name) >= n)
		return fail(c, IMPORT_NOINPUT, "%s/%s: path too long", dir, name);
	return 0;
}

/* The whole text of path into *out (free() it).  A file that is absent
 * is an error if required, else *out stays NULL. */
static int read_text(struct ctx *c, const char *path, int required, char **out)
{
	FILE *f;
	struct stat sb;
	char *buf = NULL;
	size_t len = 0, cap = 0, k;

	*out = NULL;
	if (!(f = fopen(path, "r"))) {
		if (errno == ENOENT && !required)
			return 0;
		return fail(c, IMPORT_NOINPUT, "%s: %s", path, strerror(errno));
	}
	if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
		fclose(f);
		return fail(c, IMPORT_BADINPUT, "%s: not a regular file", path);
	}
	do {
		if (len + 4096 + 1 > cap) {
			char *n;
			cap = cap ? 2 * cap : 8192;
			if (cap > MAX_FILE_BYTES + 8192 || !(n = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				return fail(c, IMPORT_BADINPUT, "%s: larger than %u MiB: not a copy of a /proc"
				            " file or a harness's record", path, MAX_FILE_BYTES >> 20);
			}
			buf = n;
		}
		k = fread(buf + len, 1, cap - len - 1, f);
		len += k;
	} while (k > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return fail(c, IMPORT_NOINPUT, "%s: read error", path);
	}
	fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		size_t at = strlen(buf);
		free(buf);
		return fail(c, IMPORT_BADINPUT, "%s: not a text file (a NUL byte at offset %zu)", path, at);
	}
	*out = buf;
	return 0;
}

struct lines {
	char *p;
	unsigned no;                    /* the line returned last, from 1 */
};

/* the next line, cut in place (without its newline); NULL at the end */
static char *next_line(struct lines *l)
{
	char *s = l->p, *nl;

	if (!s || !*s)
		return NULL;
	if ((nl = strchr(s, '\n'))) {
		*nl = '\0';
		l->p = nl + 1;
	} else {
		l->p = s + strlen(s);
	}
	l->no++;
	return s;
}

/* a number of seconds or a sample's value: a finite decimal, all of s */
static int parse_real(const char *s, double *v)
{
	char *end;

	if (!*s || strchr(" \t", *s))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return *end || errno == ERANGE || !isfinite(*v) ? -1 : 0;
}

/* a /proc/vmstat value: an unsigned decimal, all of s */
static int parse_count(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno == ERANGE ? -1 : 0;
}

static int name_ok(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* provenance: key=value lines */

struct kv {
	const char *key, *value;
};

struct provenance {
	const char *path;
	char *text;                     /* verbatim: the run's config */
	char *buf;                      /* a copy, cut into the keys and values */
	struct kv *kv;
	size_t n;
};

static void provenance_free(struct provenance *p)
{
	free(p->text);
	free(p->buf);
	free(p->kv);
}

static const char *prov_get(const struct provenance *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->kv[i].key, key))
			return p->kv[i].value;
	return NULL;
}

/* keys are lowercase and dotted (sysctl.vm.defrag_mode); a value is the
 * rest of the line after the first '=', as it is (it may be empty) */
static int provenance_read(struct ctx *c, const char *path, struct provenance *p)
{
	struct lines l;
	char *line;
	size_t cap = 0;

	memset(p, 0, sizeof(*p));
	p->path = path;
	if (read_text(c, path, 1, &p->text))
		return -1;
	if (!(p->buf = strdup(p->text)))
		return fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
	l = (struct lines){ p->buf, 0 };
	while ((line = next_line(&l))) {
		char *eq = strchr(line, '=');

		if (!*line)
			continue;       /* a blank line */
		if (!eq)
			return fail(c, IMPORT_BADINPUT, "%s:%u: expected key=value, got '%s'", path, l.no, line);
		*eq = '\0';
		if (!name_ok(line, "._-"))
			return fail(c, IMPORT_BADINPUT, "%s:%u: key '%s': keys are lowercase, dotted"
			            " ([a-z0-9._-])", path, l.no, line);
		if (prov_get(p, line))
			return fail(c, IMPORT_BADINPUT, "%s:%u: key '%s' given twice", path, l.no, line);
		if (p->n == cap) {
			struct kv *n = realloc(p->kv, (cap = cap ? 2 * cap : 64) * sizeof(*n));
			if (!n)
				return fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
			p->kv = n;
		}
		p->kv[p->n++] = (struct kv){ line, eq + 1 };
	}
	return 0;
}

/* a key the import needs */
static int prov_need(struct ctx *c, const struct provenance *p, const char *key, const char **v)
{
	if (!(*v = prov_get(p, key)) || !**v)
		return fail(c, IMPORT_BADINPUT, "%s: key '%s' %s", p->path, key,
		            *v ? "is empty" : "missing");
	return 0;
}

/* the line of key in the provenance, for a message about its value */
static unsigned prov_line(const struct provenance *p, const char *key)
{
	struct lines l = { p->text, 0 };
	char *copy = strdup(p->text), *line;
	size_t klen = strlen(key);
	unsigned no = 0;

	if (!copy)
		return 0;
	l.p = copy;
	while ((line = next_line(&l)))
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			no = l.no;
			break;
		}
	free(copy);
	return no;
}

/* ------------------------------------------------------------------ */
/* /proc/vmstat */

struct counter {
	const char *name;
	unsigned long long value;
	unsigned line;
};

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct counter *)a)->name, ((const struct counter *)b)->name);
}

/* /proc/vmstat mixes counters (events, and node counters that only grow)
 * with gauges (nr_free_pages, nr_anon_pages, ..., workingset_nodes).  The
 * vmstat table holds counters' deltas, as a simulation's does (sim/run/
 * record.c: events and the monotonic node counters); a gauge's values
 * before and after are in the snapshots. */
static int is_gauge(const char *name)
{
	static const char *const growing[] = {
		"nr_vmscan_write", "nr_vmscan_immediate_reclaim", "nr_dirtied", "nr_written",
		"nr_throttled_written", "nr_foll_pin_acquired", "nr_foll_pin_released", NULL,
	};

	if (!strcmp(name, "workingset_nodes"))
		return 1;
	if (strncmp(name, "nr_", 3))
		return 0;
	for (const char *const *g = growing; *g; g++)
		if (!strcmp(name, *g))
			return 0;
	return 1;
}

/* "name value" lines, sorted by name into *out */
static int vmstat_read(struct ctx *c, const char *path, char *buf, struct counter **out, size_t *n)
{
	struct lines l = { buf, 0 };
	struct counter *v = NULL;
	size_t cap = 0;
	char *line;

	*n = 0;
	while ((line = next_line(&l))) {
		char *sp = strchr(line, ' ');
		unsigned long long x;

		if (!sp || sp == line || strchr(sp + 1, ' '))
			goto bad;
		*sp = '\0';
		if (!name_ok(line, "_"))
			goto bad;
		if (parse_count(sp + 1, &x)) {
			free(v);
			return fail(c, IMPORT_BADINPUT, "%s:%u: %s: '%s' is not a count", path, l.no, line,
			            sp + 1);
		}
		if (*n == cap) {
			struct counter *m = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*m));
			if (!m) {
				free(v);
				return fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
			}
			v = m;
		}
		v[(*n)++] = (struct counter){ line, x, l.no };
		continue;
bad:
		free(v);
		return fail(c, IMPORT_BADINPUT, "%s:%u: expected 'name value' as in /proc/vmstat, got '%s'",
		            path, l.no, line);
	}
	if (!*n) {
		free(v);
		return fail(c, IMPORT_BADINPUT, "%s: no counters (empty)", path);
	}
	qsort(v, *n, sizeof(*v), cmp_counter);
	for (size_t i = 1; i < *n; i++)
		if (!strcmp(v[i].name, v[i - 1].name)) {
			unsigned no = v[i].line > v[i - 1].line ? v[i].line : v[i - 1].line;
			/* the message before the free: the name points into buf,
			 * but v is where it is found */
			fail(c, IMPORT_BADINPUT, "%s:%u: %s: given twice", path, no, v[i].name);
			free(v);
			return -1;
		}
	*out = v;
	return 0;
}

/* after - before of every counter into the vmstat table: both files must
 * list the same names, and no counter may go backwards */
static int vmstat_deltas(struct ctx *c, struct results_db *db, const char *id, const char *dir)
{
	char pb[PATH_MAX], pa[PATH_MAX], *tb = NULL, *ta = NULL;
	struct counter *b = NULL, *a = NULL;
	size_t nb = 0, na = 0, i = 0, j = 0;
	int rc = -1;

	if (join(c, pb, sizeof(pb), dir, "vmstat.before") || join(c, pa, sizeof(pa), dir, "vmstat.after") ||
	    read_text(c, pb, 1, &tb) || read_text(c, pa, 1, &ta))
		goto out;
	if (vmstat_read(c, pb, tb, &b, &nb) || vmstat_read(c, pa, ta, &a, &na))
		goto out;
	while (i < nb || j < na) {
		int d = i == nb ? 1 : j == na ? -1 : strcmp(b[i].name, a[j].name);

		if (d < 0) {
			fail(c, IMPORT_BADINPUT, "%s:%u: %s: not in %s", pb, b[i].line, b[i].name, pa);
			goto out;
		}
		if (d > 0) {
			fail(c, IMPORT_BADINPUT, "%s:%u: %s: not in %s", pa, a[j].line, a[j].name, pb);
			goto out;
		}
		if (!is_gauge(a[j].name)) {
			if (a[j].value < b[i].value) {
				fail(c, IMPORT_BADINPUT, "%s:%u: %s: %llu is less than %llu in %s: a counter"
				     " cannot go backwards", pa, a[j].line, a[j].name, a[j].value, b[i].value, pb);
				goto out;
			}
			if (a[j].value - b[i].value > INT64_MAX) {
				fail(c, IMPORT_BADINPUT, "%s:%u: %s: a delta above 2^63", pa, a[j].line, a[j].name);
				goto out;
			}
			if (results_add_vmstat(db, id, a[j].name, (int64_t)(a[j].value - b[i].value))) {
				fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
				goto out;
			}
		}
		i++;
		j++;
	}
	rc = 0;
out:
	free(a);
	free(b);
	free(ta);
	free(tb);
	return rc;
}

/* ------------------------------------------------------------------ */
/* times, status, samples */

/* one line: real=SECONDS user=SECONDS sys=SECONDS exit=CODE */
static int times_read(struct ctx *c, const char *dir, double t[3], long *exit_code)
{
	static const char *const keys[] = { "real", "user", "sys", "exit" };
	char path[PATH_MAX], *text = NULL, *line, *tok, *save = NULL, *copy = NULL;
	struct lines l;
	int k = 0, rc = -1;

	if (join(c, path, sizeof(path), dir, "times") || read_text(c, path, 1, &text))
		return -1;
	l = (struct lines){ text, 0 };
	if (!(line = next_line(&l))) {
		fail(c, IMPORT_BADINPUT, "%s: empty (expected 'real=SECONDS user=SECONDS sys=SECONDS"
		     " exit=CODE')", path);
		goto out;
	}
	if (!(copy = strdup(line))) {
		fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
		goto out;
	}
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save), k++) {
		size_t kl = k < 4 ? strlen(keys[k]) : 0;
		char *end;

		if (k >= 4 || strncmp(tok, keys[k], kl) || tok[kl] != '=') {
			fail(c, IMPORT_BADINPUT, "%s:1: expected 'real=SECONDS user=SECONDS sys=SECONDS"
			     " exit=CODE', got '%s'", path, copy);
			goto out;
		}
		if (k < 3 && (parse_real(tok + kl + 1, &t[k]) || t[k] < 0)) {
			fail(c, IMPORT_BADINPUT, "%s:1: %s: '%s' is not a number of seconds", path, keys[k],
			     tok + kl + 1);
			goto out;
		}
		if (k == 3) {
			errno = 0;
			*exit_code = strtol(tok + kl + 1, &end, 10);
			if (!tok[kl + 1] || *end || errno) {
				fail(c, IMPORT_BADINPUT, "%s:1: exit: '%s' is not an exit code", path, tok + kl + 1);
				goto out;
			}
		}
	}
	if (k != 4) {
		fail(c, IMPORT_BADINPUT, "%s:1: expected 'real=SECONDS user=SECONDS sys=SECONDS exit=CODE',"
		     " got '%s'", path, copy);
		goto out;
	}
	if ((line = next_line(&l))) {
		fail(c, IMPORT_BADINPUT, "%s:%u: one line expected, got '%s'", path, l.no, line);
		goto out;
	}
	rc = 0;
out:
	free(copy);
	free(text);
	return rc;
}

/* one line: "ok", or "invalid REASON"; *reason is NULL for ok (free() it) */
static int status_read(struct ctx *c, const char *dir, char **reason)
{
	char path[PATH_MAX], *text = NULL, *line, *more;
	struct lines l;
	int rc = -1;

	*reason = NULL;
	if (join(c, path, sizeof(path), dir, "status") || read_text(c, path, 1, &text))
		return -1;
	l = (struct lines){ text, 0 };
	line = next_line(&l);
	if (line && (more = next_line(&l)))
		fail(c, IMPORT_BADINPUT, "%s:%u: one line expected, got '%s'", path, l.no, more);
	else if (line && !strcmp(line, "ok"))
		rc = 0;
	else if (line && !strncmp(line, "invalid ", 8) && line[8] && line[8] != ' ')
		rc = (*reason = strdup(line + 8)) ? 0 : fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
	else
		fail(c, IMPORT_BADINPUT, "%s:1: expected 'ok' or 'invalid REASON', got '%s'", path,
		     line ? line : "");
	free(text);
	return rc;
}

/* samples.tsv: a header "t<TAB>name..." then a line per sample; each
 * value becomes a samples row under its column's name: the /proc/vmstat
 * names (nr_free_pages, nr_file_pages, nr_anon_pages: the names the
 * simulator's sampler stores) and /proc/meminfo's fields with their unit
 * (MemAvailable_kB, SwapFree_kB).  t: seconds since the build's start. */
static int samples_read(struct ctx *c, struct results_db *db, const char *id, const char *dir,
                        int required)
{
	char path[PATH_MAX], *text = NULL, *line, **name = NULL;
	struct lines l;
	size_t nf = 0, cap = 0, nfree = 0, capfree = 0, col_free = 0;
	double *free_v = NULL;
	double t_prev = -INFINITY;
	int rc = -1;

	if (join(c, path, sizeof(path), dir, "samples.tsv") || read_text(c, path, required, &text))
		return -1;
	if (!text)
		return 0;
	l = (struct lines){ text, 0 };
	if (!(line = next_line(&l))) {
		fail(c, IMPORT_BADINPUT, "%s: empty (expected a header line t<TAB>name...)", path);
		goto out;
	}
	for (char *f = line, *tab; f; f = tab ? tab + 1 : NULL) {
		if ((tab = strchr(f, '\t')))
			*tab = '\0';
		if (nf == cap) {
			char **n = realloc(name, (cap = cap ? 2 * cap : 16) * sizeof(*n));
			if (!n) {
				fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
				goto out;
			}
			name = n;
		}
		if (nf == 0 && strcmp(f, "t")) {
			fail(c, IMPORT_BADINPUT, "%s:1: the first column is 't', not '%s'", path, f);
			goto out;
		}
		if (nf > 0 && !name_ok(f, "_ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
			fail(c, IMPORT_BADINPUT, "%s:1: column %zu: '%s' is not a /proc/vmstat or"
			     " /proc/meminfo name", path, nf + 1, f);
			goto out;
		}
		for (size_t k = 0; k < nf; k++)
			if (!strcmp(name[k], f)) {
				fail(c, IMPORT_BADINPUT, "%s:1: column '%s' given twice", path, f);
				goto out;
			}
		if (!strcmp(f, "nr_free_pages"))
			col_free = nf;
		name[nf++] = f;
	}
	while ((line = next_line(&l))) {
		char *f = line, *tab;
		double t = 0, v;

		for (size_t k = 0; k < nf || f; k++, f = tab ? tab + 1 : NULL) {
			if (k >= nf || !f) {
				fail(c, IMPORT_BADINPUT, "%s:%u: %s fields, the header has %zu", path, l.no,
				     k >= nf ? "more" : "fewer", nf);
				goto out;
			}
			if ((tab = strchr(f, '\t')))
				*tab = '\0';
			if (parse_real(f, &v)) {
				fail(c, IMPORT_BADINPUT, "%s:%u: %s: '%s' is not a number", path, l.no, name[k], f);
				goto out;
			}
			if (k == 0) {
				if (v <= t_prev) {
					fail(c, IMPORT_BADINPUT, "%s:%u: t: %s is not after the line before's %g",
					     path, l.no, f, t_prev);
					goto out;
				}
				t = t_prev = v;
			} else if (results_add_sample(db, id, t, name[k], v)) {
				fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
				goto out;
			}
			if (k && k == col_free) {
				if (nfree == capfree) {
					double *n = realloc(free_v, (capfree = capfree ? 2 * capfree : 1024) * sizeof(*n));
					if (!n) {
						fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
						goto out;
					}
					free_v = n;
				}
				free_v[nfree++] = v;
			}
		}
	}
	/* the median of free memory over the build, as the simulator
	 * stores it for its measured window */
	if (nfree && results_add_metric(db, id, "nr_free_pages_median", results_median(free_v, nfree))) {
		fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	free(free_v);
	free(name);
	free(text);
	return rc;
}

/* wakes.tsv (real/README.md): the harness's counts of six tracepoints
 * over the build, by event, order, detail (gfp flags, zone) and task.
 * Stored summed by event and order as the simulator stores its own:
 * metrics <tracepoint>_order<N>, every event and order, zeros included;
 * and, for the events that print gfp_flags, orders 1-10 summed by the
 * class of the flags (results_gfp_class_of()): <tracepoint>_gfp_<class>.
 * A run without the file (a series that did not trace) has none. */

/* mm_page_alloc_extfrag lines of wakes.tsv (the harness traces it since
 * 2026-12-05): the allocations that fell back to another migratetype's
 * free list, stored under the names the simulator tallies its own
 * (sim/run/record.c): extfrag_events, extfrag_fragmenting,
 * extfrag_change_ownership and extfrag_<Type>_from_<Type> */
#define EXTFRAG_TYPES 8
struct extfrag_tally {
	int traced;                             /* the event was enabled */
	unsigned long long events, fragmenting, change_ownership;
	unsigned long long by[EXTFRAG_TYPES][EXTFRAG_TYPES];    /* [asked][fell back to] */
};

/* detail "A<-F;fragmenting=X;change_ownership=Y" (the kernel's numbers) */
static int extfrag_line(struct ctx *c, const char *path, unsigned no, const char *detail, unsigned long long n,
                        struct extfrag_tally *t)
{
	int a, f, frag, own, end = 0;

	if (sscanf(detail, "%d<-%d;fragmenting=%d;change_ownership=%d%n", &a, &f, &frag, &own, &end) != 4 ||
	    detail[end] || a < 0 || a >= EXTFRAG_TYPES || f < 0 || f >= EXTFRAG_TYPES) {
		fail(c, IMPORT_BADINPUT, "%s:%u: detail: '%s' is not ALLOC<-FALLBACK;fragmenting=N;"
		     "change_ownership=N", path, no, detail);
		return -1;
	}
	t->events += n;
	t->fragmenting += frag ? n : 0;
	t->change_ownership += own ? n : 0;
	t->by[a][f] += n;
	return 0;
}

/* the migratetypes' names in the kernel's order: the columns of the run's
 * /proc/pagetypeinfo ("Number of blocks type  Unmovable  Movable ...") */
static int extfrag_type_names(struct ctx *c, const char *dir, char names[EXTFRAG_TYPES][32])
{
	static const char *const dflt[] = { "Unmovable", "Movable", "Reclaimable", "HighAtomic" };
	char path[PATH_MAX], *text = NULL, *p;
	int n = 0;

	for (int i = 0; i < EXTFRAG_TYPES; i++)
		snprintf(names[i], 32, "%s", i < 4 ? dflt[i] : "type");
	if (join(c, path, sizeof(path), dir, "pagetypeinfo.before") || read_text(c, path, 0, &text))
		return -1;
	if (text && (p = strstr(text, "Number of blocks type"))) {
		char *eol = strchr(p, '\n'), *tok, *save = NULL;
		if (eol)
			*eol = '\0';
		for (tok = strtok_r(p + strlen("Number of blocks type"), " \t", &save); tok && n < EXTFRAG_TYPES;
		     tok = strtok_r(NULL, " \t", &save))
			snprintf(names[n++], 32, "%s", tok);
	}
	free(text);
	return 0;
}

static int extfrag_store(struct ctx *c, struct results_db *db, const char *id, const char *dir,
                         const struct extfrag_tally *t)
{
	char names[EXTFRAG_TYPES][32], name[96];

	if (!t->traced)
		return 0;
	if (extfrag_type_names(c, dir, names))
		return -1;
	if (results_add_metric(db, id, "extfrag_events", (double)t->events) ||
	    results_add_metric(db, id, "extfrag_fragmenting", (double)t->fragmenting) ||
	    results_add_metric(db, id, "extfrag_change_ownership", (double)t->change_ownership))
		goto dberr;
	for (int a = 0; a < EXTFRAG_TYPES; a++)
		for (int f = 0; f < EXTFRAG_TYPES; f++) {
			if (!t->by[a][f])
				continue;
			snprintf(name, sizeof(name), "extfrag_%.31s_from_%.31s", names[a], names[f]);
			if (results_add_metric(db, id, name, (double)t->by[a][f]))
				goto dberr;
		}
	return 0;
dberr:
	fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
	return -1;
}

static int wakes_read(struct ctx *c, struct results_db *db, const char *id, const char *dir)
{
	static const char *const header = "event\torder\tdetail\ttask\tcount";
	char path[PATH_MAX], *text = NULL, *line;
	unsigned long long count[RESULTS_NR_TRACE_EVENTS][RESULTS_TRACE_ORDERS] = { { 0 } };
	unsigned long long by_gfp[RESULTS_NR_TRACE_EVENTS][RESULTS_NR_GFP_CLASSES] = { { 0 } };
	struct extfrag_tally ef = { 0 };
	struct lines l;
	int rc = -1, seen_header = 0;

	if (join(c, path, sizeof(path), dir, "wakes.tsv") || read_text(c, path, 0, &text))
		return -1;
	if (!text)
		return 0;
	l = (struct lines){ text, 0 };
	while ((line = next_line(&l))) {
		char *f[5], *tab;
		size_t nf = 0, ev;
		unsigned long long order, n;

		if (line[0] == '#') {
			if (!strncmp(line, "# enabled:", 10) && strstr(line, "mm_page_alloc_extfrag"))
				ef.traced = 1;
			continue;
		}
		if (!seen_header) {
			if (strcmp(line, header)) {
				fail(c, IMPORT_BADINPUT, "%s:%u: expected the header '%s'", path, l.no,
				     "event<TAB>order<TAB>detail<TAB>task<TAB>count");
				goto out;
			}
			seen_header = 1;
			continue;
		}
		for (char *x = line; x && nf < 5; x = tab ? tab + 1 : NULL) {
			if ((tab = strchr(x, '\t')))
				*tab = '\0';
			f[nf++] = x;
			if (nf == 5 && tab) {
				fail(c, IMPORT_BADINPUT, "%s:%u: more than 5 fields", path, l.no);
				goto out;
			}
		}
		if (nf != 5) {
			fail(c, IMPORT_BADINPUT, "%s:%u: %zu fields, expected event, order, detail, task, count",
			     path, l.no, nf);
			goto out;
		}
		if (!strcmp(f[0], "mm_page_alloc_extfrag")) {
			if (parse_count(f[4], &n)) {
				fail(c, IMPORT_BADINPUT, "%s:%u: count: '%s' is not a count", path, l.no, f[4]);
				goto out;
			}
			ef.traced = 1;
			if (extfrag_line(c, path, l.no, f[2], n, &ef))
				goto out;
			continue;
		}
		for (ev = 0; ev < RESULTS_NR_TRACE_EVENTS && strcmp(f[0], results_trace_events[ev]); ev++)
			;
		if (ev == RESULTS_NR_TRACE_EVENTS) {
			fail(c, IMPORT_BADINPUT, "%s:%u: event: '%s' is not one of the harness's tracepoints",
			     path, l.no, f[0]);
			goto out;
		}
		if (parse_count(f[1], &order) || order >= RESULTS_TRACE_ORDERS) {
			fail(c, IMPORT_BADINPUT, "%s:%u: order: '%s' is not an order 0..%d", path, l.no, f[1],
			     RESULTS_TRACE_ORDERS - 1);
			goto out;
		}
		if (parse_count(f[4], &n)) {
			fail(c, IMPORT_BADINPUT, "%s:%u: count: '%s' is not a count", path, l.no, f[4]);
			goto out;
		}
		count[ev][order] += n;
		if (order > 0 && results_trace_event_has_gfp(f[0]))
			by_gfp[ev][results_gfp_class_of(f[2])] += n;
	}
	if (!seen_header) {
		fail(c, IMPORT_BADINPUT, "%s: no header line (event<TAB>order<TAB>detail<TAB>task<TAB>count)",
		     path);
		goto out;
	}
	for (size_t ev = 0; ev < RESULTS_NR_TRACE_EVENTS; ev++)
		for (int o = 0; o < RESULTS_TRACE_ORDERS; o++) {
			char name[80];
			snprintf(name, sizeof(name), "%s_order%d", results_trace_events[ev], o);
			if (results_add_metric(db, id, name, (double)count[ev][o])) {
				fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
				goto out;
			}
		}
	for (size_t ev = 0; ev < RESULTS_NR_TRACE_EVENTS; ev++) {
		if (!results_trace_event_has_gfp(results_trace_events[ev]))
			continue;
		for (int k = 0; k < RESULTS_NR_GFP_CLASSES; k++) {
			char name[96];
			snprintf(name, sizeof(name), "%s_gfp_%s", results_trace_events[ev], results_gfp_classes[k]);
			if (results_add_metric(db, id, name, (double)by_gfp[ev][k])) {
				fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
				goto out;
			}
		}
	}
	if (extfrag_store(c, db, id, dir, &ef))
		goto out;
	rc = 0;
out:
	free(text);
	return rc;
}

/* ------------------------------------------------------------------ */
/* one run */

/* the /proc files kept verbatim beside the run, as far as it has them */
static const char *const snapshot_files[] = {
	"vmstat.before", "vmstat.after", "pagetypeinfo.before", "pagetypeinfo.after", "buddyinfo.before", "buddyinfo.after",
	"zoneinfo.before", "zoneinfo.after", "meminfo.before", "meminfo.after", "faulter.log", NULL,
};

/* the canonical name of a policy of the model's registry, or NULL */
static const char *known_policy(const char *name)
{
	const char *canon = mm_policy_canonical(name), *list = mm_policy_names();
	size_t n = strlen(canon);

	for (const char *p = list; (p = strstr(p, canon)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return canon;
	return NULL;
}

/* the workloads the provenance describes, as a simulation names its own */
static void workload_of(const struct provenance *p, char *out, size_t n)
{
	static const char *const parts[][2] = {
		{ "build.", "kbuild" }, { "faulter.", "thp_faulter" }, { "streamer.", "streamer" },
	};

	out[0] = '\0';
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++)
		for (size_t i = 0; i < p->n; i++)
			if (!strncmp(p->kv[i].key, parts[k][0], strlen(parts[k][0]))) {
				snprintf(out + strlen(out), n - strlen(out), "%s%s", *out ? "+" : "", parts[k][1]);
				break;
			}
	if (!*out)
		snprintf(out, n, "real");
}

/* does dir/name exist? (a file an invalid run may lack) */
static int has_file(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) < sizeof(path) &&
	       access(path, F_OK) == 0;
}

struct seen {
	char (*id)[40];
	char **dir;
	size_t n, cap;
};

static int import_run(struct ctx *c, struct results_db *db, const char *dir,
                      const char *mmsim_version, struct seen *seen, struct import_summary *sum)
{
	char path[PATH_MAX], id[40], key[512], name[256], workload[64], digest[17], hash[17];
	const char *policy, *label, *seq_s, *started, *release;
	struct provenance p = { 0 };
	struct run_record r;
	char *reason = NULL, *ident = NULL, *end;
	double t[3] = { 0, 0, 0 };
	long exit_code = 0;
	long long seq;
	int rc = -1, ok, times;

	if (join(c, path, sizeof(path), dir, "provenance") || provenance_read(c, path, &p))
		goto out;
	if (status_read(c, dir, &reason))
		goto out;
	ok = !reason;
	if (prov_need(c, &p, "policy", &policy) || prov_need(c, &p, "run.label", &label) ||
	    prov_need(c, &p, "run.seq", &seq_s) || prov_need(c, &p, "run.started_at", &started) ||
	    prov_need(c, &p, "kernel.release", &release))
		goto out;
	if (!known_policy(policy)) {
		fail(c, IMPORT_BADINPUT, "%s:%u: policy: '%s' is not a policy of the model (valid: %s)",
		     path, prov_line(&p, "policy"), policy, mm_policy_names());
		goto out;
	}
	errno = 0;
	seq = strtoll(seq_s, &end, 10);
	if (*end || errno || seq < 0 || *seq_s < '0' || *seq_s > '9') {
		fail(c, IMPORT_BADINPUT, "%s:%u: run.seq: '%s' is not a run number", path,
		     prov_line(&p, "run.seq"), seq_s);
		goto out;
	}
	/* what identifies the run: the same directory imported again is the
	 * same run_id, which the merge keeps once */
	if (!(ident = malloc(strlen(started) + strlen(label) + strlen(release) + 3))) {
		fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
		goto out;
	}
	sprintf(ident, "%s\n%s\n%s", started, label, release);
	scenario_fnv1a(ident, digest);
	snprintf(id, sizeof(id), "real-%s", digest);
	for (size_t i = 0; i < seen->n; i++)
		if (!strcmp(seen->id[i], id)) {
			fail(c, IMPORT_BADINPUT, "%s: the same run (run.started_at, run.label, kernel.release)"
			     " as %s", path, seen->dir[i]);
			goto out;
		}
	if (seen->n == seen->cap) {
		size_t cap = seen->cap ? 2 * seen->cap : 16;
		void *a = realloc(seen->id, cap * sizeof(*seen->id)), *b;
		if (a)
			seen->id = a;
		b = a ? realloc(seen->dir, cap * sizeof(*seen->dir)) : NULL;
		if (!b) {
			fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
			goto out;
		}
		seen->dir = b;
		seen->cap = cap;
	}
	if (!(seen->dir[seen->n] = strdup(dir))) {
		fail(c, IMPORT_BADINPUT, "%s: out of memory", path);
		goto out;
	}
	snprintf(seen->id[seen->n++], 40, "%s", id);

	/* a run the harness stopped (invalid) may lack its times and its
	 * counters: what it has is imported, and checked as strictly */
	times = ok || has_file(dir, "times");
	if (times && times_read(c, dir, t, &exit_code))
		goto out;
	if (ok && exit_code != 0) {
		fail(c, IMPORT_BADINPUT, "%s/times:1: exit: %ld, but %s/status says ok", dir, exit_code, dir);
		goto out;
	}
	scenario_fnv1a(p.text, hash);
	snprintf(name, sizeof(name), "real-%s-s%lld", label, seq);
	workload_of(&p, workload, sizeof(workload));
	r = (struct run_record){
		.name = name, .policy = known_policy(policy), .workload = workload,
		.seed = (uint64_t)seq, .config = p.text, .config_hash = hash,
		.mmsim_version = mmsim_version, .git_commit = prov_get(&p, "harness.version"),
		.started_at = started, .finished_at = prov_get(&p, "run.finished_at"),
		/* NULL (NaN) where not known: nothing was simulated */
		.wall_seconds = times ? t[0] : NAN, .sim_seconds = NAN,
		.status = ok ? "ok" : "failed", .error = reason, .source = "real",
	};
	snprintf(r.run_id, sizeof(r.run_id), "%s", id);
	if (results_add_run(db, &r)) {
		fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
		goto out;
	}
	for (size_t i = 0; i < p.n; i++) {
		snprintf(key, sizeof(key), "real.%s", p.kv[i].key);
		if (results_add_param(db, id, key, p.kv[i].value)) {
			fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
			goto out;
		}
	}
	if ((ok || (has_file(dir, "vmstat.before") && has_file(dir, "vmstat.after"))) &&
	    vmstat_deltas(c, db, id, dir))
		goto out;
	if (times) {
		static const char *const m[] = { "real_time", "user_time", "system_time" };
		for (int k = 0; k < 3; k++)
			if (results_add_metric(db, id, m[k], t[k])) {
				fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
				goto out;
			}
	}
	if (samples_read(c, db, id, dir, 0) || wakes_read(c, db, id, dir))
		goto out;
	for (const char *const *f = snapshot_files; *f; f++) {
		char sp[PATH_MAX], *text = NULL;
		if (join(c, sp, sizeof(sp), dir, *f) || read_text(c, sp, 0, &text))
			goto out;
		if (text && results_add_snapshot(db, id, *f, text)) {
			free(text);
			fail(c, IMPORT_CANTCREAT, "%s", results_errmsg(db));
			goto out;
		}
		free(text);
	}
	sum->runs++;
	sum->failed += !ok;
	rc = 0;
out:
	free(ident);
	free(reason);
	provenance_free(&p);
	return rc;
}

/* ------------------------------------------------------------------ */
/* a series or a run directory */

static int is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int skip_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* the runs in the database out (0 if it does not exist yet) */
static long count_runs(const char *out)
{
	static const char *const tables[] = { "runs", NULL };
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	long n = 0;

	if (access(out, F_OK) || !(db = results_open_ro(out, tables, RESULTS_SCHEMA_VERSION, NULL, 0)))
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* every complete run of dir into db: a run directory (its provenance
 * present) is one run and must be complete; a series (dir/runs/) gives
 * each of its directories in name order (NNNN-LABEL: run order), a
 * directory without status being skipped (a run still going, or killed) */
static int import_dir(struct ctx *c, struct results_db *db, const char *dir,
                      const char *mmsim_version, struct import_summary *sum, FILE *notes)
{
	char runs[PATH_MAX], run[PATH_MAX];
	struct dirent **e = NULL;
	struct seen seen = { 0 };
	int n, rc = 0;

	if (!is_dir(dir))
		return fail(c, IMPORT_NOINPUT, "%s: %s", dir, access(dir, F_OK) ? strerror(errno)
		                                                                 : "not a directory");
	if (has_file(dir, "provenance")) {
		if (!has_file(dir, "status"))
			return fail(c, IMPORT_NOINPUT, "%s/status: %s (the run is not complete)", dir,
			            strerror(ENOENT));
		rc = import_run(c, db, dir, mmsim_version, &seen, sum);
		goto out;
	}
	if (join(c, runs, sizeof(runs), dir, "runs"))
		return -1;
	if (!is_dir(runs))
		return fail(c, IMPORT_NOINPUT, "%s: neither a run directory (no provenance) nor a series"
		            " (no runs/)", dir);
	if ((n = scandir(runs, &e, skip_dot, alphasort)) < 0)
		return fail(c, IMPORT_NOINPUT, "%s: %s", runs, strerror(errno));
	for (int i = 0; i < n; i++) {
		if (!rc && !join(c, run, sizeof(run), runs, e[i]->d_name) && is_dir(run)) {
			if (!has_file(run, "status")) {
				sum->incomplete++;
				if (notes)
					fprintf(notes, "mmsim: import: %s: no status file (not complete): skipped\n",
					        run);
			} else {
				rc = import_run(c, db, run, mmsim_version, &seen, sum);
			}
		} else if (!rc && c->kind) {
			rc = -1;
		}
		free(e[i]);
	}
	free(e);
	if (!rc && !sum->runs)
		rc = fail(c, IMPORT_NOINPUT, "%s: no complete run (no %s/*/status)", dir, runs);
out:
	for (size_t i = 0; i < seen.n; i++)
		free(seen.dir[i]);
	free(seen.dir);
	free(seen.id);
	return rc;
}

enum import_error results_import_real(const char *dir, const char *out, const char *mmsim_version,
                                      struct import_summary *sum, FILE *notes,
                                      char *err, size_t errlen)
{
	struct ctx c = { IMPORT_OK, err, errlen };
	struct results_db *db = NULL;
	const char *tmpdir = getenv("TMPDIR");
	char stage[PATH_MAX], file[PATH_MAX + 16], why[1024];
	long before;

	memset(sum, 0, sizeof(*sum));
	if (err && errlen)
		err[0] = '\0';
	/* an output that is not ours is refused before any work */
	if (results_check_target(out, why, sizeof(why))) {
		fail(&c, IMPORT_BADOUTPUT, "%s", why);
		return c.kind;
	}
	/* the runs go into a run file of their own first, aside */
	if ((size_t)snprintf(stage, sizeof(stage), "%s/mmsim-import-XXXXXX",
	                     tmpdir && *tmpdir ? tmpdir : "/tmp") >= sizeof(stage) || !mkdtemp(stage)) {
		fail(&c, IMPORT_CANTCREAT, "%s: cannot create a temporary directory: %s", stage,
		     strerror(errno));
		return c.kind;
	}
	snprintf(file, sizeof(file), "%s/runs.db", stage);
	if (results_create(&db, file, why, sizeof(why))) {
		fail(&c, IMPORT_CANTCREAT, "%s", why);
		goto out;
	}
	if (import_dir(&c, db, dir, mmsim_version, sum, notes)) {
		results_abort(db);
		goto out;
	}
	if (results_commit(db, why, sizeof(why))) {
		fail(&c, IMPORT_CANTCREAT, "%s", why);
		goto out;
	}
	before = count_runs(out);
	if (results_merge(out, (const char *const[]){ file }, 1, why, sizeof(why))) {
		size_t n = strlen(out);
		/* the output at fault: not writable (73) or not a database (65) */
		fail(&c, !strncmp(why, out, n) && why[n] == ':' && access(out, F_OK) == 0
		         ? IMPORT_BADOUTPUT : IMPORT_CANTCREAT, "%s", why);
		goto out;
	}
	sum->added = (unsigned)(count_runs(out) - before);
out:
	unlink(file);
	rmdir(stage);
	return c.kind;
}
