/* cmd_sweep.c - mmsim sweep: a manifest of runs (the cartesian product of
 * the varied keys and the seeds), run here by a pool of child processes,
 * then merged into DIR/sweep.db.
 *
 * Each run is its own process (`mmsim run --manifest DIR/manifest --index
 * N`, exec'ed from /proc/self/exe): SimGrid can be initialised once per
 * process, and a run that crashes takes nobody else with it.  A run
 * writes its file atomically, so after a kill the files present are
 * complete runs and the next sweep skips exactly those
 * (results_is_complete): nothing is lost or run twice.  The children die
 * with the sweep (PR_SET_PDEATHSIG), so no orphan finishes a run that the
 * next sweep starts again.  The same manifest runs elsewhere line by line
 * (GNU parallel, a Slurm job array: --slurm submits one, slurm.c).
 *
 * A sweep's identity (DIR/sweep.id): the binary (version, git revision
 * and a hash of the executable's bytes) and every line's resolved
 * scenario hash.  A resume whose binary or scenario differs would merge
 * runs of two configurations into one comparison: it is refused, as is a
 * manifest line run by another binary or on an edited scenario
 * (sweep_check_line()).  --force-new moves the old sweep aside.
 *
 * One sweep per directory at a time: DIR/lock holds a POSIX record lock
 * (fcntl F_SETLK) for the sweep's life, and says who holds it.  The
 * kernel drops the lock when the process dies however it dies, so there
 * is no stale lock to detect; on NFS the lock goes through the server
 * (NFSv4 byte-range locks, or NFSv3's lock manager), so two sweeps on two
 * hosts of a cluster exclude each other too, and a dead client's lock
 * ends with its lease.  (A lock file made with O_EXCL would survive a
 * killed sweep, and would need a host and pid check that cannot be done
 * from another host.)  It does not work on a mount with `nolock`, where
 * locks are local to each host: the message of a refused lock says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "run.h"
#include "results.h"
#include "mmsim/version.h"

#define MAX_VARY SWEEP_MAX_VARY
#define MAX_VALUES SWEEP_MAX_VALUES

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [--seeds N]\n"
	        "                   [--set SECTION.KEY=V]... [-j JOBS] -o DIR [--force-new]\n"
	        "                   [--slurm [--partition P] [--time T] [--sbatch-arg OPT]...\n"
	        "                            [--mmsim PATH] [--no-wait]]\n"
	        "       mmsim sweep --collect DIR [--no-wait]\n\n"
	        "Write DIR/manifest, one line per run: every combination of the varied\n"
	        "values, each with seeds 1..N.  Run the lines not yet complete in JOBS\n"
	        "child processes (`mmsim run --manifest DIR/manifest --index N`; logs in\n"
	        "DIR/run-NNNN.log), then merge the run files into DIR/sweep.db.  A sweep\n"
	        "stopped midway continues where it stopped when run again.\n\n"
	        "  --vary KEY=V1,V2,...  a scenario key and its values (repeatable)\n"
	        "  --seeds N             seeds 1..N for every combination (default 1)\n"
	        "  --set KEY=VALUE       an override common to all runs (repeatable)\n"
	        "  -j, --jobs JOBS       runs at a time (default 1; each run uses one core)\n"
	        "  -o, --output DIR      the sweep's directory (created if missing)\n"
	        "  --force-new           DIR holds a sweep of another scenario, settings or\n"
	        "                        binary: move it aside (DIR/superseded-TIME/) and\n"
	        "                        start again (without it such a resume is refused)\n\n"
	        "On a Slurm cluster (DIR, the scenario and mmsim on a file system the nodes\n"
	        "share, at the same paths):\n"
	        "  --slurm               submit the lines not yet complete as a job array\n"
	        "                        (DIR/sweep.sbatch; task N runs line N), wait, merge\n"
	        "  --partition P         sbatch --partition (default: the cluster's)\n"
	        "  --time T              sbatch --time, each task's limit (e.g. 30:00)\n"
	        "  --sbatch-arg OPT      one more sbatch option, e.g. --sbatch-arg=--mem=4G\n"
	        "                        (repeatable); -j JOBS caps the tasks running at once\n"
	        "  --mmsim PATH          the mmsim the nodes run (default: this one's path)\n"
	        "  --no-wait             submit and return; collect later with --collect DIR\n"
	        "  --collect DIR         wait for DIR's job, merge, name the failed lines\n\n"
	        "Exit status: 0 if every run is complete and merged, 70 if a run failed\n"
	        "(they are named), 64/66/78 for bad usage, input or configuration, 69 if\n"
	        "Slurm's commands fail, 75 if another sweep (or its Slurm job) is running\n"
	        "on DIR.\n");
}

/* Split "KEY=V1,V2" into v (strings point into a copy). */
static int parse_vary(const char *arg, struct sweep_vary *v)
{
	char *copy = strdup(arg), *eq, *save = NULL, *t;

	if (!copy)
		return -1;
	eq = strchr(copy, '=');
	if (!eq || eq == copy || !eq[1]) {
		error("--vary: '%s' is not KEY=V1,V2,...", arg);
		free(copy);
		return -1;
	}
	*eq = 0;
	v->key = copy;
	v->n = 0;
	for (t = strtok_r(eq + 1, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (v->n == MAX_VALUES) {
			error("--vary %s: more than %d values", copy, MAX_VALUES);
			return -1;
		}
		if (strchr(t, '\t') || strchr(t, '\n')) {
			error("--vary %s: a value may not hold a tab or a newline", copy);
			return -1;
		}
		v->values[v->n++] = t;
	}
	if (!v->n) {
		error("--vary %s: no values", copy);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ the manifest */

struct plan {
	char *scenario;                 /* absolute path */
	char *const *sets;
	int nr_sets;
	const struct sweep_variant *variants;   /* NULL: none */
	int nr_variants;
	struct sweep_vary *vary;
	int nr_vary;
	unsigned long seeds;
	unsigned long nr_runs;
};

/* combination k (0-based) of the product: the variant (slowest), the
 * value index of each vary, the last varying fastest, then the seed */
static const struct sweep_variant *combination(const struct plan *p, unsigned long k, int *idx,
                                               unsigned long *seed)
{
	*seed = k % p->seeds + 1;
	k /= p->seeds;
	for (int i = p->nr_vary - 1; i >= 0; i--) {
		idx[i] = (int)(k % (unsigned long)p->vary[i].n);
		k /= (unsigned long)p->vary[i].n;
	}
	return p->variants ? &p->variants[k] : NULL;
}

/* Every line is checked the way the run will check it, before anything
 * is written: a sweep with a bad value fails at once, not after hours. */
static int check_plan(const struct plan *p, char (*hashes)[17])
{
	for (unsigned long k = 0; k < p->nr_runs; k++) {
		char *sets[MAX_SETS + SWEEP_MAX_VARIANT_SETS + MAX_VARY], seed[32], buf[MAX_VARY][512];
		int idx[MAX_VARY], n = 0, rc;
		unsigned long sd;
		struct scenario *s;
		const struct sweep_variant *var = combination(p, k, idx, &sd);

		for (int i = 0; i < p->nr_sets; i++)
			sets[n++] = p->sets[i];
		for (int i = 0; var && i < var->nr_sets; i++)
			sets[n++] = (char *)var->sets[i];
		for (int i = 0; i < p->nr_vary; i++) {
			snprintf(buf[i], sizeof(buf[i]), "%s=%s", p->vary[i].key, p->vary[i].values[idx[i]]);
			sets[n++] = buf[i];
		}
		snprintf(seed, sizeof(seed), "%lu", sd);
		rc = run_build_scenario(p->scenario, sets, n, NULL, seed, &s);
		if (rc) {
			if (var)
				error("sweep: variant '%s' is refused (see above)", var->label);
			return rc;
		}
		snprintf(hashes[k], 17, "%s", scenario_hash(s));
		scenario_free(s);
	}
	return EXIT_OK;
}

static int write_manifest(const struct plan *p, const char *path)
{
	struct outfile o;
	FILE *f = outfile_open(&o, path, 0666);

	if (!f)
		return -1;
	for (unsigned long k = 0; k < p->nr_runs; k++) {
		int idx[MAX_VARY];
		unsigned long seed;
		const struct sweep_variant *var = combination(p, k, idx, &seed);

		fprintf(f, "%s\trun-%04lu.db\t%lu", p->scenario, k + 1, seed);
		for (int i = 0; i < p->nr_sets; i++)
			fprintf(f, "\t%s", p->sets[i]);
		for (int i = 0; var && i < var->nr_sets; i++)
			fprintf(f, "\t%s", var->sets[i]);
		for (int i = 0; i < p->nr_vary; i++)
			fprintf(f, "\t%s=%s", p->vary[i].key, p->vary[i].values[idx[i]]);
		fputc('\n', f);
	}
	return outfile_commit(&o);
}

/* An existing manifest must be this sweep's: the run files are named by
 * line, so a different manifest would mix runs of two sweeps. */
static int same_file_text(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int same = fa && fb, ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* ------------------------------------------------------------ identity */

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

static char *identity_text(const struct plan *p, char (*hashes)[17])
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

static char *read_text(const char *path)
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
static void identity_diff(const char *dir, const char *old, const char *new, char *msg, size_t len)
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

static int write_file_atomic(const char *path, const char *text)
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
	int rc = EXIT_OK;

	if (!copy)
		return EXIT_SOFTWARE;
	snprintf(path, sizeof(path), "%s/sweep.id", dirname(copy));
	free(copy);
	if (!(text = read_text(path)))
		return EXIT_OK;         /* a manifest written by hand: nothing recorded */
	binary_id(bin, sizeof(bin));
	snprintf(key, sizeof(key), "line %lu", index);
	if ((v = id_field(text, "binary")) && strcmp(v, bin)) {
		error("%s: the sweep was started by another mmsim binary (%s; this one is %s); run its "
		      "lines with that binary, or start the sweep again (mmsim sweep --force-new)",
		      manifest, v, bin);
		rc = EXIT_CONFIG;
	} else if ((v = id_field(text, key)) && strcmp(v, config_hash)) {
		error("%s:%lu: the resolved scenario has changed since the sweep was started (hash %s, "
		      "now %s: the scenario or a file it reads was edited?); start the sweep again (mmsim sweep "
		      "--force-new) or restore the scenario", manifest, index, v, config_hash);
		rc = EXIT_CONFIG;
	}
	free(text);
	return rc;
}

/* ------------------------------------------------------------ the lock */

/* Take DIR/lock for this sweep; the descriptor (kept open: closing it
 * would drop the lock), or after the message -2 if another sweep holds
 * it, -1 if it cannot be taken. */
static int lock_dir(const char *dir)
{
	char path[PATH_MAX], host[256] = "", owner[512] = "", line[600];
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat sb;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/lock", dir);
	/* created with O_EXCL, or an existing one opened with O_NOFOLLOW and
	 * checked: a link, or another file linked there, would have its
	 * target truncated and written */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		error("cannot create %s: %s", path, errno == ELOOP ? "it is a symbolic link; not followed"
		                                                   : strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_nlink != 1) {
		error("cannot use %s: %s; remove it", path, !S_ISREG(sb.st_mode) ? "not a regular file"
		      : "it has other hard links (a file linked there would be overwritten)");
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETLK, &fl)) {
		int e = errno;
		n = pread(fd, owner, sizeof(owner) - 1, 0);
		owner[n > 0 ? n : 0] = 0;
		owner[strcspn(owner, "\n")] = 0;
		close(fd);
		if (e == EACCES || e == EAGAIN) {
			error("%s is in use by another sweep (%s): two sweeps on one directory would both "
			      "run every line; wait for it, or use another -o DIR", dir,
			      owner[0] ? owner : "owner unknown");
			return -2;
		}
		error("cannot lock %s: %s (the file system must support POSIX locks; NFS without "
		      "the nolock mount option does)", path, strerror(e));
		return -1;
	}
	gethostname(host, sizeof(host) - 1);
	{
		/* the start as a reader reads it, in UTC: "since 2026-12-05T04:41:30Z" */
		time_t now = time(NULL);
		struct tm tm;
		char when[32] = "?";
		if (gmtime_r(&now, &tm))
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		snprintf(line, sizeof(line), "pid %ld on host %s, since %s\n", (long)getpid(), host, when);
	}
	if (ftruncate(fd, 0) == 0 && pwrite(fd, line, strlen(line), 0) < 0) {
		/* the message is a courtesy; the lock is what counts */
	}
	return fd;
}

/* --force-new: move the old sweep's files into DIR/superseded-TIME/ */
static int supersede(const char *dir)
{
	static const char *const names[] = { "manifest", "sweep.id", "sweep.db", "slurm.job",
	                                     "sweep.sbatch", NULL };
	enum { NR_NAMES = 5 };
	char aside[PATH_MAX], from[PATH_MAX], to[PATH_MAX + 64], stamp[32];
	struct stat sb;
	time_t now = time(NULL);
	struct tm tm;
	int moved = 0;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(aside, sizeof(aside), "%s/superseded-%s", dir, stamp);
	for (unsigned long k = 0; k < 2 * 100000 + NR_NAMES; k++) {
		char name[32];
		if (k < NR_NAMES)
			snprintf(name, sizeof(name), "%s", names[k]);
		else
			snprintf(name, sizeof(name), "run-%04lu.%s", (k - NR_NAMES) / 2 + 1,
			         (k - NR_NAMES) % 2 ? "log" : "db");
		snprintf(from, sizeof(from), "%s/%s", dir, name);
		if (access(from, F_OK))
			continue;
		if (!moved++ && mkdir(aside, 0755) && (errno != EEXIST || lstat(aside, &sb) ||
		                                       !S_ISDIR(sb.st_mode))) {
			/* a link planted there would take the old sweep elsewhere */
			error("cannot create %s: %s", aside, errno == EEXIST ? "exists and is not a directory"
			                                                     : strerror(errno));
			return -1;
		}
		snprintf(to, sizeof(to), "%s/%s", aside, name);
		if (rename(from, to)) {
			error("cannot move %s to %s: %s", from, aside, strerror(errno));
			return -1;
		}
	}
	if (moved)
		fprintf(stderr, "mmsim: sweep: --force-new: the previous sweep's %d files moved to %s\n",
		        moved, aside);
	return 0;
}

/* ------------------------------------------------------------ the keys */

/* a key as the scenario spells it: thp_faulter.region and
 * workload.thp_faulter.region are the same key */
static const char *plain_key(const char *k, size_t *len)
{
	static const char *const prefixes[] = { "workload.", "policy.", NULL };
	size_t n = strcspn(k, "=");

	for (const char *const *p = prefixes; *p; p++) {
		size_t m = strlen(*p);
		if (n > m && !strncmp(k, *p, m) && memchr(k + m, '.', n - m)) {
			k += m;
			n -= m;
			break;
		}
	}
	*len = n;
	return k;
}

static int same_key(const char *a, const char *b)
{
	size_t na, nb;
	a = plain_key(a, &na);
	b = plain_key(b, &nb);
	return na == nb && !strncmp(a, b, na);
}

/* Keys a sweep cannot take: run.seed (the seeds are --seeds 1..N, the
 * manifest's seed field: a varied or set seed would be overridden, and
 * every run of a combination the same), a key varied twice or both set
 * and varied (one would silently win), a value listed twice (the same
 * run twice). */
static int check_keys(const struct sweep_spec *sp)
{
	for (int i = 0; i < sp->nr_vary; i++) {
		const struct sweep_vary *v = &sp->vary[i];
		if (same_key(v->key, "run.seed")) {
			error("--vary %s: a sweep's seeds are --seeds N (seeds 1..N for every combination); "
			      "run.seed cannot be varied", v->key);
			return EXIT_USAGE;
		}
		for (int j = 0; j < i; j++)
			if (same_key(v->key, sp->vary[j].key)) {
				error("--vary %s: the key is varied twice (--vary %s too): give its values in "
				      "one --vary KEY=V1,V2,...", v->key, sp->vary[j].key);
				return EXIT_USAGE;
			}
		for (int j = 0; j < sp->nr_sets; j++)
			if (same_key(v->key, sp->sets[j])) {
				error("--vary %s: the key is also set (--set %s): one would override the other",
				      v->key, sp->sets[j]);
				return EXIT_USAGE;
			}
		for (int a = 0; a < v->n; a++)
			for (int b = 0; b < a; b++)
				if (!strcmp(v->values[a], v->values[b])) {
					error("--vary %s: the value '%s' is given twice", v->key, v->values[a]);
					return EXIT_USAGE;
				}
	}
	for (int v = 0; v < sp->nr_variants; v++)
		for (int i = 0; i < sp->variants[v].nr_sets; i++) {
			const char *vs = sp->variants[v].sets[i];
			if (strchr(vs, '\t') || strchr(vs, '\n') || same_key(vs, "run.seed")) {
				error("variant '%s': '%s' cannot be set", sp->variants[v].label, vs);
				return EXIT_USAGE;
			}
			for (int j = 0; j < sp->nr_sets; j++)
				if (same_key(vs, sp->sets[j])) {
					error("--set %s: variant '%s' sets the key itself (%s)", sp->sets[j],
					      sp->variants[v].label, vs);
					return EXIT_USAGE;
				}
			for (int j = 0; j < sp->nr_vary; j++)
				if (same_key(vs, sp->vary[j].key)) {
					error("--vary %s: variant '%s' sets the key itself (%s)", sp->vary[j].key,
					      sp->variants[v].label, vs);
					return EXIT_USAGE;
				}
		}
	for (int i = 0; i < sp->nr_sets; i++) {
		if (same_key(sp->sets[i], "run.seed")) {
			error("--set %s: a sweep's seeds are --seeds N (seeds 1..N); run.seed cannot be set",
			      sp->sets[i]);
			return EXIT_USAGE;
		}
		for (int j = 0; j < i; j++)
			if (same_key(sp->sets[i], sp->sets[j])) {
				error("--set %s: the key is set twice (--set %s too)", sp->sets[i], sp->sets[j]);
				return EXIT_USAGE;
			}
	}
	return EXIT_OK;
}

/* ------------------------------------------------------------ running */

struct job {
	pid_t pid;
	unsigned long index;
};

static pid_t start_run(const char *manifest, const char *dir, unsigned long index)
{
	char idx[32], log[PATH_MAX];
	pid_t parent = getpid(), pid;

	snprintf(idx, sizeof(idx), "%lu", index);
	snprintf(log, sizeof(log), "%s/run-%04lu.log", dir, index);
	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid;
	/* the child: dies with the sweep, logs to its file */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(EXIT_SOFTWARE);
	{
		/* a new file: never written through a link planted there */
		int fd = create_fresh(log, 0666);
		if (fd < 0) {
			fprintf(stderr, "mmsim: error: cannot create '%s': %s\n", log, strerror(errno));
			_exit(EXIT_CANTCREAT);
		}
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	execl("/proc/self/exe", "mmsim", "run", "--manifest", manifest, "--index", idx, (char *)NULL);
	fprintf(stderr, "mmsim: error: cannot exec /proc/self/exe: %s\n", strerror(errno));
	_exit(EXIT_SOFTWARE);
}

struct progress {
	bool tty;
	unsigned long total, done, skipped, failed, running;
};

static void show_progress(const struct progress *pr, unsigned long index, const char *what)
{
	if (pr->tty) {
		enum { W = 30 };
		unsigned long fin = pr->done + pr->skipped + pr->failed;
		int fill = pr->total ? (int)(W * fin / pr->total) : W;
		fprintf(stderr, "\r[%.*s%*s] %lu/%lu done, %lu running, %lu failed ",
		        fill, "##############################", W - fill, "", fin, pr->total,
		        pr->running, pr->failed);
		if (fin == pr->total && !pr->running)
			fputc('\n', stderr);
	} else if (what) {
		fprintf(stderr, "mmsim: sweep: run %lu/%lu %s\n", index, pr->total, what);
	}
}

/* stop after K completed runs, as a kill would (tests only: resumption) */
static long stop_after(void)
{
	const char *v = getenv("MMSIM_SWEEP_KILL_AFTER");
	return v && *v ? strtol(v, NULL, 10) : -1;
}

/* ------------------------------------------------------------ failures */

/* The policy and seed manifest line k runs (its resolved scenario), or
 * "?" when the line can no longer be resolved (the message says why). */
static void line_policy_seed(const char *dir, unsigned long k, char *policy, size_t plen,
                             char *seed, size_t slen)
{
	char manifest[PATH_MAX + 16], err[512];
	struct manifest_line ml;
	struct scenario *s;

	snprintf(policy, plen, "?");
	snprintf(seed, slen, "?");
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	if (manifest_read(manifest, k, &ml, err, sizeof(err)))
		return;
	snprintf(seed, slen, "%s", ml.seed);
	if (!run_build_scenario(ml.scenario, ml.sets, ml.nr_sets, NULL, ml.seed, &s)) {
		snprintf(policy, plen, "%s", scenario_config(s)->policy);
		scenario_free(s);
	}
	manifest_line_free(&ml);
}

/* The run's own word on why it failed: the last "mmsim: error: " line of
 * its log (else the log's last line), without the prefix. */
static void log_error(const char *log, char *buf, size_t len)
{
	FILE *f = fopen(log, "r");
	char *line = NULL, last[1024] = "";
	size_t cap = 0;
	ssize_t n;
	int have_error = 0;

	snprintf(buf, len, "%s", f ? "no error in its log" : "no log");
	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) >= 0) {
		const char *e = strstr(line, "mmsim: error: ");
		line[strcspn(line, "\r\n")] = 0;
		if (e) {
			snprintf(last, sizeof(last), "%s", e + strlen("mmsim: error: "));
			have_error = 1;
		} else if (!have_error && line[0]) {
			snprintf(last, sizeof(last), "%s", line);
		}
	}
	free(line);
	fclose(f);
	if (last[0])
		snprintf(buf, len, "%s", last);
}

/* Merge every complete run file of DIR's nr_runs lines into DIR/sweep.db,
 * then name every line whose run failed: a run stored with a status
 * other than 'ok' (make died: the run is complete, and fails again with
 * the same scenario and seed) or a line without a complete run (the
 * process failed or did not run: the same sweep command runs it again),
 * each with its policy, seed, log and error; with jobid, Slurm's state
 * of the task.  The exit code: 0, 70 if a run failed, 73 if the merge
 * failed. */
static int merge_report(const char *dir, unsigned long nr_runs, const char *jobid,
                        unsigned long ran, unsigned long skipped)
{
	char merged[PATH_MAX], err[512];
	const char **inputs = calloc(nr_runs, sizeof(*inputs));
	unsigned long *failed = calloc(nr_runs, sizeof(*failed));
	size_t nr_inputs = 0, nr_failed = 0, nr_missing = 0;
	int rc = EXIT_OK;

	if (!inputs || !failed) {
		free(inputs);
		free(failed);
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	snprintf(merged, sizeof(merged), "%s/sweep.db", dir);
	for (unsigned long k = 1; k <= nr_runs; k++) {
		char out[PATH_MAX], *copy;
		snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
		if (results_is_complete(out) && (copy = strdup(out))) {
			char pol[64], why[8];
			long long sd;
			inputs[nr_inputs++] = copy;
			if (results_run_failure(out, pol, sizeof(pol), &sd, why, sizeof(why)) == 1)
				failed[nr_failed++] = k;
		} else {
			failed[nr_failed++] = k;
			nr_missing++;
		}
	}
	if (nr_inputs && results_merge(merged, inputs, nr_inputs, err, sizeof(err))) {
		error("%s", err);
		rc = EXIT_CANTCREAT;
	}
	if (nr_failed) {
		error("sweep: %zu of %lu runs failed (%zu stored with status 'failed' in %s, %zu "
		      "without a complete run):", nr_failed, nr_runs, nr_failed - nr_missing, merged,
		      nr_missing);
		for (size_t i = 0; i < nr_failed; i++) {
			char out[PATH_MAX], log[PATH_MAX], pol[128], seed[32], why[1024], state[160] = "";
			long long sd;
			unsigned long k = failed[i];

			snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
			snprintf(log, sizeof(log), "%s/run-%04lu.log", dir, k);
			if (results_run_failure(out, pol, sizeof(pol), &sd, why, sizeof(why)) == 1) {
				fprintf(stderr, "mmsim: error:   manifest line %lu: policy %s, seed %lld, log %s: "
				        "stored as failed: %s\n", k, pol, sd, log, why);
				continue;
			}
			line_policy_seed(dir, k, pol, sizeof(pol), seed, sizeof(seed));
			log_error(log, why, sizeof(why));
			if (jobid)
				slurm_task_state(jobid, k, state, sizeof(state));
			fprintf(stderr, "mmsim: error:   manifest line %lu: policy %s, seed %s, log %s: "
			        "no complete run%s%s: %s\n", k, pol, seed, log, state[0] ? "; " : "", state,
			        why);
		}
		if (nr_missing)
			fprintf(stderr, "mmsim: sweep: the same sweep command runs again the line%s "
			        "without a complete run\n", nr_missing > 1 ? "s" : "");
		if (nr_missing < nr_failed)
			fprintf(stderr, "mmsim: sweep: a run stored as failed is complete: it fails again "
			        "with the same scenario and seed (SELECT name, seed, error FROM runs "
			        "WHERE status = 'failed')\n");
		rc = EXIT_SOFTWARE;
	} else if (rc == EXIT_OK) {
		if (jobid && (ran || skipped))   /* a job this call submitted */
			fprintf(stderr, "mmsim: sweep: %lu runs (%lu run by Slurm job %s, %lu already "
			        "complete) merged into %s\n", nr_runs, ran, jobid, skipped, merged);
		else if (!jobid && (ran || skipped))    /* the local runner */
			fprintf(stderr, "mmsim: sweep: %lu runs (%lu run now, %lu already complete) "
			        "merged into %s\n", nr_runs, ran, skipped, merged);
		else
			fprintf(stderr, "mmsim: sweep: %lu runs merged into %s\n", nr_runs, merged);
	}
	for (size_t i = 0; i < nr_inputs; i++)
		free((char *)inputs[i]);
	free(inputs);
	free(failed);
	return rc;
}

/* ------------------------------------------------------------ on Slurm */

/* The lines not complete as a Slurm job array (or, when the job that
 * ran them is still queued, that job), waited for and merged. */
static int sweep_slurm(const struct slurm_opts *o, const char *dir_arg, unsigned long nr_runs,
                       const char *queued_job)
{
	char dir[PATH_MAX], jobid[64] = "";
	unsigned long *todo, n = 0, skipped = 0;
	int rc;

	if (!realpath(dir_arg, dir)) {
		error("cannot resolve %s: %s", dir_arg, strerror(errno));
		return EXIT_CANTCREAT;
	}
	if (queued_job) {
		snprintf(jobid, sizeof(jobid), "%s", queued_job);
		fprintf(stderr, "mmsim: sweep: Slurm job %s of this sweep is still in the queue: %s\n",
		        jobid, o->no_wait ? "nothing submitted (mmsim sweep --collect DIR waits for it)"
		                          : "waiting for it (nothing submitted)");
		if (o->no_wait)
			return EXIT_OK;
		if (slurm_wait(jobid))
			return EXIT_UNAVAILABLE;
		return merge_report(dir, nr_runs, jobid, 0, 0);
	}
	if (!(todo = calloc(nr_runs, sizeof(*todo)))) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	for (unsigned long k = 1; k <= nr_runs; k++) {
		char out[PATH_MAX + 32];
		snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
		if (results_is_complete(out))
			skipped++;
		else
			todo[n++] = k;
	}
	if (!n) {
		free(todo);
		fprintf(stderr, "mmsim: sweep: every run is complete: nothing submitted\n");
		return merge_report(dir, nr_runs, NULL, 0, skipped);
	}
	rc = slurm_submit(o, dir, todo, n, jobid, sizeof(jobid));
	free(todo);
	if (rc)
		return rc;
	fprintf(stderr, "mmsim: sweep: %lu runs submitted as Slurm job %s (%lu already complete; "
	        "script %s/sweep.sbatch, logs %s/run-NNNN.log)\n", n, jobid, skipped, dir, dir);
	if (o->no_wait) {
		fprintf(stderr, "mmsim: sweep: not waiting: mmsim sweep --collect %s merges the runs "
		        "when the job has finished\n", dir);
		return EXIT_OK;
	}
	if (slurm_wait(jobid))
		return EXIT_UNAVAILABLE;
	return merge_report(dir, nr_runs, jobid, n, skipped);
}

/* A Slurm job recorded in DIR/slurm.job with tasks still queued: its id
 * in jobid and 1; 0 if none; -1 if squeue cannot tell (message printed). */
static int queued_job(const char *dir, char *jobid, size_t len)
{
	int n;

	if (!slurm_job_read(dir, jobid, len))
		return 0;
	n = slurm_job_active(jobid);
	if (n < 0)
		fprintf(stderr, "mmsim: sweep: warning: %s/slurm.job names Slurm job %s, and squeue "
		        "cannot say whether it still runs\n", dir, jobid);
	return n > 0 ? 1 : n;
}

/* mmsim sweep --collect DIR: wait for the sweep's Slurm job (if it is
 * still queued) and merge; the lock held meanwhile. */
static int sweep_collect(const char *dir_arg, int no_wait)
{
	char dir[PATH_MAX], manifest[PATH_MAX + 16], merged[PATH_MAX + 16], jobid[64];
	long nr_runs;
	int lock_fd, q, rc;

	if (!realpath(dir_arg, dir)) {
		error("cannot open %s: %s", dir_arg, strerror(errno));
		return EXIT_NOINPUT;
	}
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	if ((nr_runs = manifest_count(manifest)) < 0) {
		error("cannot read %s: %s (not a sweep's directory?)", manifest, strerror(errno));
		return EXIT_NOINPUT;
	}
	if ((lock_fd = lock_dir(dir)) < 0)
		return lock_fd == -2 ? EXIT_TEMPFAIL : EXIT_CANTCREAT;
	snprintf(merged, sizeof(merged), "%s/sweep.db", dir);
	results_clean_stale(merged);
	q = queued_job(dir, jobid, sizeof(jobid));
	if (q < 0) {
		rc = EXIT_UNAVAILABLE;
	} else if (q && no_wait) {
		error("Slurm job %s of %s still has tasks in the queue; collect again later", jobid, dir);
		rc = EXIT_TEMPFAIL;
	} else if (q && slurm_wait(jobid)) {
		rc = EXIT_UNAVAILABLE;
	} else {
		rc = merge_report(dir, (unsigned long)nr_runs,
		                  slurm_job_read(dir, jobid, sizeof(jobid)) ? jobid : NULL, 0, 0);
	}
	close(lock_fd);
	return rc;
}

/* Run a sweep: check every line, write DIR/manifest (DIR and its parents
 * created if missing), run what is not yet complete, merge into
 * DIR/sweep.db (mmsim sweep; mmsim reproduce).  Returns the exit code,
 * the message printed. */
int sweep_execute(const struct sweep_spec *sp)
{
	char manifest[PATH_MAX], newman[PATH_MAX], merged[PATH_MAX];
	char scenario[PATH_MAX];
	const char *dir = sp->dir;
	unsigned long jobs = sp->jobs ? sp->jobs : 1;
	int rc = EXIT_OK;
	struct plan p;
	struct job *running = NULL;
	struct progress pr = { .tty = isatty(STDERR_FILENO) };
	unsigned long next = 1;
	long kill_after = stop_after(), completed = 0;
	char (*hashes)[17] = NULL, *id = NULL, *old_id = NULL, idpath[PATH_MAX];
	char jobid[64] = "";
	int lock_fd = -1, slurm_queued = 0;

	rc = check_keys(sp);
	if (rc)
		return rc;
	for (int i = 0; i < sp->nr_sets; i++)
		if (strchr(sp->sets[i], '\t') || strchr(sp->sets[i], '\n')) {
			error("--set: a value may not hold a tab or a newline");
			return EXIT_USAGE;
		}
	if (!realpath(sp->scenario, scenario)) {
		error("cannot open %s: %s", sp->scenario, strerror(errno));
		return EXIT_NOINPUT;
	}

	p = (struct plan){ .scenario = scenario, .sets = sp->sets, .nr_sets = sp->nr_sets,
	                   .variants = sp->nr_variants ? sp->variants : NULL,
	                   .nr_variants = sp->nr_variants, .vary = sp->vary, .nr_vary = sp->nr_vary,
	                   .seeds = sp->seeds, .nr_runs = sp->seeds };
	if (p.variants) {
		if (p.nr_runs > 100000 / (unsigned long)p.nr_variants) {
			error("sweep: more than 100000 runs");
			return EXIT_USAGE;
		}
		p.nr_runs *= (unsigned long)p.nr_variants;
	}
	for (int i = 0; i < sp->nr_vary; i++) {
		if (p.nr_runs > 100000 / (unsigned long)sp->vary[i].n) {
			error("sweep: more than 100000 runs");
			return EXIT_USAGE;
		}
		p.nr_runs *= (unsigned long)sp->vary[i].n;
	}
	if (!(hashes = calloc(p.nr_runs, sizeof(*hashes)))) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	rc = check_plan(&p, hashes);
	if (rc) {
		free(hashes);
		return rc;
	}
	id = identity_text(&p, hashes);
	free(hashes);
	if (!id) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}

	/* only now that every line is valid: a bad sweep writes nothing */
	if (make_dir(dir)) {
		free(id);
		return EXIT_CANTCREAT;
	}
	if ((lock_fd = lock_dir(dir)) < 0) {
		free(id);
		return lock_fd == -2 ? EXIT_TEMPFAIL : EXIT_CANTCREAT;
	}
	/* a Slurm job of this directory still queued: its tasks write the
	 * run files, so nothing else may run its lines or move them aside */
	switch (queued_job(dir, jobid, sizeof(jobid))) {
	case 1:
		if (!sp->slurm || sp->force_new) {
			error("%s: its Slurm job %s still has tasks in the queue: wait for it (mmsim sweep "
			      "--collect %s) or cancel it (scancel %s)", dir, jobid, dir, jobid);
			rc = EXIT_TEMPFAIL;
			goto out;
		}
		slurm_queued = 1;
		break;
	case -1:
		if (sp->slurm) {
			error("cannot tell whether Slurm job %s still runs this sweep's lines: nothing "
			      "submitted", jobid);
			rc = EXIT_UNAVAILABLE;
			goto out;
		}
		break;
	}
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	snprintf(newman, sizeof(newman), "%s/manifest.new", dir);
	snprintf(merged, sizeof(merged), "%s/sweep.db", dir);
	snprintf(idpath, sizeof(idpath), "%s/sweep.id", dir);
	/* leftovers of a sweep killed while writing these (we hold the lock:
	 * nobody else writes them) */
	unlink(newman);
	results_clean_stale(newman);
	results_clean_stale(idpath);
	results_clean_stale(manifest);
	rc = EXIT_OK;
	if (write_manifest(&p, newman)) {
		rc = EXIT_CANTCREAT;
		goto out;
	}
	old_id = access(manifest, F_OK) == 0 ? read_text(idpath) : NULL;
	if (access(manifest, F_OK) == 0 &&
	    (!same_file_text(manifest, newman) || !old_id || strcmp(old_id, id))) {
		char why[PATH_MAX + 1024];
		if (!same_file_text(manifest, newman))
			snprintf(why, sizeof(why), "%s holds another sweep's manifest (another scenario "
			         "path, --vary, --set or --seeds)", manifest);
		else if (!old_id)
			snprintf(why, sizeof(why), "%s: the sweep has no sweep.id (started by an older "
			         "mmsim): its binary and scenario cannot be checked", dir);
		else
			identity_diff(dir, old_id, id, why, sizeof(why));
		if (!sp->force_new) {
			unlink(newman);
			error("%s; use another -o DIR, or --force-new to move the old sweep aside and "
			      "start again", why);
			rc = EXIT_USAGE;
			goto out;
		}
		fprintf(stderr, "mmsim: sweep: %s\n", why);
		if (supersede(dir)) {
			unlink(newman);
			rc = EXIT_CANTCREAT;
			goto out;
		}
	}
	/* the identity first: a manifest is never there without its id */
	if (write_file_atomic(idpath, id)) {
		unlink(newman);
		rc = EXIT_CANTCREAT;
		goto out;
	}
	if (rename(newman, manifest)) {
		error("cannot write %s: %s", manifest, strerror(errno));
		rc = EXIT_CANTCREAT;
		goto out;
	}
	results_clean_stale(merged);
	for (unsigned long k = 1; k <= p.nr_runs; k++) {
		char out[PATH_MAX];
		snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
		results_clean_stale(out);
	}
	if (sp->slurm) {
		rc = sweep_slurm(sp->slurm, dir, p.nr_runs, slurm_queued ? jobid : NULL);
		goto out;
	}

	running = calloc(jobs, sizeof(*running));
	if (!running) {
		error("out of memory");
		rc = EXIT_SOFTWARE;
		goto out;
	}
	pr.total = p.nr_runs;
	show_progress(&pr, 0, NULL);
	for (;;) {
		/* start runs while there are slots */
		while (pr.running < jobs && next <= p.nr_runs) {
			char out[PATH_MAX];
			unsigned long k = next++;
			snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
			if (results_is_complete(out)) {
				pr.skipped++;
				show_progress(&pr, k, "already complete");
				continue;
			}
			for (unsigned long j = 0; j < jobs; j++)
				if (!running[j].pid) {
					running[j].pid = start_run(manifest, dir, k);
					running[j].index = k;
					if (running[j].pid < 0) {
						error("fork: %s", strerror(errno));
						running[j].pid = 0;
						pr.failed++;
					} else {
						pr.running++;
					}
					break;
				}
			show_progress(&pr, k, "started");
		}
		if (!pr.running)
			break;
		{
			int status;
			pid_t pid = wait(&status);
			if (pid < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (unsigned long j = 0; j < jobs; j++)
				if (running[j].pid == pid) {
					unsigned long k = running[j].index;
					running[j].pid = 0;
					pr.running--;
					char out[PATH_MAX], pol[8], why[512], what[600];
					long long sd;
					snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
					if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
					    results_run_failure(out, pol, sizeof(pol), &sd, why, sizeof(why)) == 1) {
						/* complete, stored as failed (make died) */
						pr.done++;
						pr.failed++;
						snprintf(what, sizeof(what), "FAILED: %s", why);
						show_progress(&pr, k, what);
					} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
						pr.done++;
						show_progress(&pr, k, "done");
						if (kill_after >= 0 && ++completed >= kill_after)
							raise(SIGKILL);
					} else {
						pr.failed++;
						snprintf(what, sizeof(what), "FAILED (%s %d)",
						         WIFEXITED(status) ? "exit" : "signal",
						         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
						show_progress(&pr, k, what);
					}
				}
		}
	}

	/* merge every complete run file of the manifest; name the failed */
	rc = merge_report(dir, p.nr_runs, NULL, pr.done, pr.skipped);
out:
	free(running);
	free(id);
	free(old_id);
	close(lock_fd);                 /* the lock ends with it */
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "vary", required_argument, NULL, 'V' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "set", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "force-new", no_argument, NULL, 'F' },
		{ "slurm", no_argument, NULL, 'L' },
		{ "partition", required_argument, NULL, 'P' },
		{ "time", required_argument, NULL, 'T' },
		{ "sbatch-arg", required_argument, NULL, 'B' },
		{ "mmsim", required_argument, NULL, 'X' },
		{ "no-wait", no_argument, NULL, 'W' },
		{ "collect", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct sweep_vary vary[MAX_VARY];
	static struct slurm_opts so;
	int force_new = 0, slurm = 0, jobs_given = 0, slurm_only = 0;
	const char *collect = NULL;
	char *sets[MAX_SETS];
	const char *dir = NULL;
	unsigned long jobs = 1, seeds = 1;
	int nr_vary = 0, nr_sets = 0, c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'V':
			if (nr_vary == MAX_VARY) {
				error("--vary: more than %d keys", MAX_VARY);
				return EXIT_USAGE;
			}
			if (parse_vary(optarg, &vary[nr_vary]))
				return EXIT_USAGE;
			nr_vary++;
			break;
		case 'n':
			if (parse_seeds(optarg, &seeds))
				return EXIT_USAGE;
			break;
		case 'S':
			if (add_set(sets, &nr_sets, optarg))
				return EXIT_USAGE;
			break;
		case 'j':
			if (parse_jobs(optarg, &jobs))
				return EXIT_USAGE;
			jobs_given = 1;
			break;
		case 'L':
			slurm = 1;
			break;
		case 'P':
			so.partition = optarg;
			slurm_only = 1;
			break;
		case 'T':
			so.time = optarg;
			slurm_only = 1;
			break;
		case 'B':
			if (so.nr_sbatch_args == SLURM_MAX_SBATCH_ARGS) {
				error("--sbatch-arg: more than %d options", SLURM_MAX_SBATCH_ARGS);
				return EXIT_USAGE;
			}
			so.sbatch_args[so.nr_sbatch_args++] = optarg;
			slurm_only = 1;
			break;
		case 'X':
			if (optarg[0] != '/') {
				error("--mmsim: '%s' is not an absolute path (the path the nodes see)", optarg);
				return EXIT_USAGE;
			}
			so.mmsim = optarg;
			slurm_only = 1;
			break;
		case 'W':
			so.no_wait = 1;
			break;
		case 'C':
			collect = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'F':
			force_new = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (collect) {
		if (optind != argc || dir || slurm || slurm_only || nr_vary || nr_sets || force_new) {
			error("sweep --collect DIR takes no scenario, -o, --vary, --set, --slurm or "
			      "--force-new (DIR has them)");
			return EXIT_USAGE;
		}
		return sweep_collect(collect, so.no_wait);
	}
	if ((slurm_only || so.no_wait) && !slurm) {
		error("--partition, --time, --sbatch-arg, --mmsim and --no-wait go with --slurm");
		return EXIT_USAGE;
	}
	so.throttle = jobs_given ? jobs : 0;
	if (optind + 1 != argc || !dir) {
		error(optind + 1 != argc ? "sweep: give one scenario file" : "sweep: no output directory (-o DIR)");
		usage(stderr);
		return EXIT_USAGE;
	}
	rc = sweep_execute(&(struct sweep_spec){
		.scenario = argv[optind], .sets = sets, .nr_sets = nr_sets, .vary = vary,
		.nr_vary = nr_vary, .seeds = seeds, .jobs = jobs, .dir = dir, .force_new = force_new,
		.slurm = slurm ? &so : NULL });
	for (int i = 0; i < nr_vary; i++)
		free(vary[i].key);
	return rc;
}
