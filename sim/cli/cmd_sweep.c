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
 * (GNU parallel, a Slurm job array).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
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
#include <unistd.h>
#include "cli.h"
#include "run.h"
#include "results.h"

#define MAX_VARY SWEEP_MAX_VARY
#define MAX_VALUES SWEEP_MAX_VALUES

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mmsim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [--seeds N]\n"
	        "                   [--set SECTION.KEY=V]... [-j JOBS] -o DIR\n\n"
	        "Write DIR/manifest, one line per run: every combination of the varied\n"
	        "values, each with seeds 1..N.  Run the lines not yet complete in JOBS\n"
	        "child processes (`mmsim run --manifest DIR/manifest --index N`; logs in\n"
	        "DIR/run-NNNN.log), then merge the run files into DIR/sweep.db.  A sweep\n"
	        "stopped midway continues where it stopped when run again.\n\n"
	        "  --vary KEY=V1,V2,...  a scenario key and its values (repeatable)\n"
	        "  --seeds N             seeds 1..N for every combination (default 1)\n"
	        "  --set KEY=VALUE       an override common to all runs (repeatable)\n"
	        "  -j, --jobs JOBS       runs at a time (default 1; each run uses one core)\n"
	        "  -o, --output DIR      the sweep's directory (created if missing)\n\n"
	        "Exit status: 0 if every run is complete and merged, 70 if a run failed\n"
	        "(they are named), 64/66/78 for bad usage, input or configuration.\n");
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
	struct sweep_vary *vary;
	int nr_vary;
	unsigned long seeds;
	unsigned long nr_runs;
};

/* combination k (0-based) of the product: the value index of each vary,
 * the last varying fastest, then the seed */
static void combination(const struct plan *p, unsigned long k, int *idx, unsigned long *seed)
{
	*seed = k % p->seeds + 1;
	k /= p->seeds;
	for (int i = p->nr_vary - 1; i >= 0; i--) {
		idx[i] = (int)(k % (unsigned long)p->vary[i].n);
		k /= (unsigned long)p->vary[i].n;
	}
}

/* Every line is checked the way the run will check it, before anything
 * is written: a sweep with a bad value fails at once, not after hours. */
static int check_plan(const struct plan *p)
{
	for (unsigned long k = 0; k < p->nr_runs; k++) {
		char *sets[MAX_SETS + MAX_VARY], seed[32], buf[MAX_VARY][512];
		int idx[MAX_VARY], n = 0, rc;
		unsigned long sd;
		struct scenario *s;

		combination(p, k, idx, &sd);
		for (int i = 0; i < p->nr_sets; i++)
			sets[n++] = p->sets[i];
		for (int i = 0; i < p->nr_vary; i++) {
			snprintf(buf[i], sizeof(buf[i]), "%s=%s", p->vary[i].key, p->vary[i].values[idx[i]]);
			sets[n++] = buf[i];
		}
		snprintf(seed, sizeof(seed), "%lu", sd);
		rc = run_build_scenario(p->scenario, sets, n, NULL, seed, &s);
		if (rc)
			return rc;
		scenario_free(s);
	}
	return EXIT_OK;
}

static int write_manifest(const struct plan *p, const char *path)
{
	char tmp[PATH_MAX + 32];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		error("cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	for (unsigned long k = 0; k < p->nr_runs; k++) {
		int idx[MAX_VARY];
		unsigned long seed;

		combination(p, k, idx, &seed);
		fprintf(f, "%s\trun-%04lu.db\t%lu", p->scenario, k + 1, seed);
		for (int i = 0; i < p->nr_sets; i++)
			fprintf(f, "\t%s", p->sets[i]);
		for (int i = 0; i < p->nr_vary; i++)
			fprintf(f, "\t%s=%s", p->vary[i].key, p->vary[i].values[idx[i]]);
		fputc('\n', f);
	}
	if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path)) {
		error("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
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
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
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

/* Run a sweep: check every line, write DIR/manifest (DIR and its parents
 * created if missing), run what is not yet complete, merge into
 * DIR/sweep.db (mmsim sweep; mmsim reproduce).  Returns the exit code,
 * the message printed. */
int sweep_execute(const struct sweep_spec *sp)
{
	char manifest[PATH_MAX], newman[PATH_MAX], merged[PATH_MAX], err[512];
	char scenario[PATH_MAX];
	const char *dir = sp->dir;
	unsigned long jobs = sp->jobs ? sp->jobs : 1;
	int rc = EXIT_OK;
	struct plan p;
	struct job *running;
	struct progress pr = { .tty = isatty(STDERR_FILENO) };
	unsigned long next = 1, *failed_idx;
	long kill_after = stop_after(), completed = 0;
	const char **inputs;
	size_t nr_inputs = 0;

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
	                   .vary = sp->vary, .nr_vary = sp->nr_vary, .seeds = sp->seeds,
	                   .nr_runs = sp->seeds };
	for (int i = 0; i < sp->nr_vary; i++) {
		if (p.nr_runs > 100000 / (unsigned long)sp->vary[i].n) {
			error("sweep: more than 100000 runs");
			return EXIT_USAGE;
		}
		p.nr_runs *= (unsigned long)sp->vary[i].n;
	}
	rc = check_plan(&p);
	if (rc)
		return rc;

	/* only now that every line is valid: a bad sweep writes nothing */
	if (make_dir(dir))
		return EXIT_CANTCREAT;
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	snprintf(newman, sizeof(newman), "%s/manifest.new", dir);
	snprintf(merged, sizeof(merged), "%s/sweep.db", dir);
	if (write_manifest(&p, newman))
		return EXIT_CANTCREAT;
	if (access(manifest, F_OK) == 0 && !same_file_text(manifest, newman)) {
		unlink(newman);
		error("%s holds another sweep's manifest (use another directory)", manifest);
		return EXIT_USAGE;
	}
	if (rename(newman, manifest)) {
		error("cannot write %s: %s", manifest, strerror(errno));
		return EXIT_CANTCREAT;
	}

	running = calloc(jobs, sizeof(*running));
	failed_idx = calloc(p.nr_runs, sizeof(*failed_idx));
	inputs = calloc(p.nr_runs, sizeof(*inputs));
	if (!running || !failed_idx || !inputs) {
		error("out of memory");
		return EXIT_SOFTWARE;
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
						failed_idx[pr.failed++] = k;
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
					if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
						pr.done++;
						show_progress(&pr, k, "done");
						if (kill_after >= 0 && ++completed >= kill_after)
							raise(SIGKILL);
					} else {
						failed_idx[pr.failed++] = k;
						show_progress(&pr, k, "FAILED");
					}
				}
		}
	}

	/* merge every complete run file of the manifest */
	for (unsigned long k = 1; k <= p.nr_runs; k++) {
		char out[PATH_MAX], *copy;
		snprintf(out, sizeof(out), "%s/run-%04lu.db", dir, k);
		if (results_is_complete(out) && (copy = strdup(out)))
			inputs[nr_inputs++] = copy;
	}
	if (nr_inputs && results_merge(merged, inputs, nr_inputs, err, sizeof(err))) {
		error("%s", err);
		rc = EXIT_CANTCREAT;
	}
	if (pr.failed) {
		fprintf(stderr, "mmsim: error: %lu of %lu runs failed:", pr.failed, p.nr_runs);
		for (unsigned long i = 0; i < pr.failed; i++)
			fprintf(stderr, " %lu (%s/run-%04lu.log)", failed_idx[i], dir, failed_idx[i]);
		fputc('\n', stderr);
		rc = EXIT_SOFTWARE;
	} else if (rc == EXIT_OK) {
		fprintf(stderr, "mmsim: sweep: %lu runs (%lu run now, %lu already complete) merged into %s\n",
		        p.nr_runs, pr.done, pr.skipped, merged);
	}
	for (size_t i = 0; i < nr_inputs; i++)
		free((char *)inputs[i]);
	free(inputs);
	free(failed_idx);
	free(running);
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct sweep_vary vary[MAX_VARY];
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
			if (parse_ulong(optarg, &seeds) || seeds < 1 || seeds > 100000) {
				error("--seeds: '%s' is not a number of seeds (1..100000)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'S':
			if (nr_sets == MAX_SETS) {
				error("--set: more than %d settings", MAX_SETS);
				return EXIT_USAGE;
			}
			sets[nr_sets++] = optarg;
			break;
		case 'j':
			if (parse_jobs(optarg, &jobs))
				return EXIT_USAGE;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !dir) {
		error(optind + 1 != argc ? "sweep: give one scenario file" : "sweep: no output directory (-o DIR)");
		usage(stderr);
		return EXIT_USAGE;
	}
	rc = sweep_execute(&(struct sweep_spec){
		.scenario = argv[optind], .sets = sets, .nr_sets = nr_sets, .vary = vary,
		.nr_vary = nr_vary, .seeds = seeds, .jobs = jobs, .dir = dir });
	for (int i = 0; i < nr_vary; i++)
		free(vary[i].key);
	return rc;
}
