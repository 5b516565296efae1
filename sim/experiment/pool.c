/* pool.c - a sweep's lines run here by a pool of child processes.
 *
 * Each run is its own process (`mmsim run --manifest DIR/manifest --index
 * N`, exec'ed from /proc/self/exe): SimGrid can be initialised once per
 * process, and a run that crashes takes nobody else with it.  A run
 * writes its file atomically, so after a kill the files present are
 * complete runs and the next sweep skips exactly those
 * (results_is_complete): nothing is lost or run twice.  The children die
 * with the sweep (PR_SET_PDEATHSIG), so no orphan finishes a run that the
 * next sweep starts again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "experiment_int.h"
#include "mmsim/outfile.h"
#include "results.h"

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
		_exit(EX_SOFTWARE);
	{
		/* a new file: never written through a link planted there */
		int fd = create_fresh(log, 0666);
		if (fd < 0) {
			fprintf(stderr, "mmsim: error: cannot create '%s': %s\n", log, strerror(errno));
			_exit(EX_CANTCREAT);
		}
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	execl("/proc/self/exe", "mmsim", "run", "--manifest", manifest, "--index", idx, (char *)NULL);
	fprintf(stderr, "mmsim: error: cannot exec /proc/self/exe: %s\n", strerror(errno));
	_exit(EX_SOFTWARE);
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

int pool_run(const char *manifest, const char *dir, unsigned long nr_runs, unsigned long jobs,
             unsigned long *done, unsigned long *skipped)
{
	struct job *running;
	struct progress pr = { .tty = isatty(STDERR_FILENO) };
	unsigned long next = 1;
	long kill_after = stop_after(), completed = 0;

	*done = *skipped = 0;
	running = calloc(jobs, sizeof(*running));
	if (!running) {
		exp_error("out of memory");
		return EX_SOFTWARE;
	}
	pr.total = nr_runs;
	show_progress(&pr, 0, NULL);
	for (;;) {
		/* start runs while there are slots */
		while (pr.running < jobs && next <= nr_runs) {
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
						exp_error("fork: %s", strerror(errno));
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

	free(running);
	*done = pr.done;
	*skipped = pr.skipped;
	return EX_OK;
}
