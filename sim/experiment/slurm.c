/* slurm.c - a sweep's runs as a Slurm job array (mmsim sweep --slurm).
 *
 * Task N of the array runs `mmsim run --manifest DIR/manifest --index N`,
 * the same command the local runner forks, so a line runs and is checked
 * (sweep.id: binary and resolved scenario hash) the same way wherever it
 * runs, and writes its file atomically: after any failure the files
 * present are complete runs.  Only the submitting or collecting mmsim
 * holds DIR/lock; the tasks take no lock.
 *
 * Slurm is driven through its commands (sbatch, squeue, scontrol), run
 * with fork and exec (no shell: paths are never quoted twice), so that
 * mmsim links no Slurm library and works with any installed version.
 * The job's id and the lines it runs are kept in DIR/slurm.job, so that
 * a later call (a resume, --collect) finds a job still in the queue and
 * waits for it instead of submitting its lines a second time.
 *
 * Waiting polls squeue: one call every few seconds (1 s at first, then
 * up to 30 s), cheap for the controller.  No accounting database is
 * needed (sacct is not used): a job that left squeue is finished.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "experiment_int.h"
#include "mmsim/outfile.h"
#include "mmsim/quote.h"

/* Run argv (PATH lookup), collecting stdout and stderr.  Returns the
 * exit status, 127 if the command cannot be executed, 128+N if killed
 * by signal N, -1 if it could not be started. */
static int run_cmd(char *const argv[], char *out, size_t outlen, char *err, size_t errlen)
{
	int po[2], pe[2], status;
	size_t no = 0, ne = 0;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC))
		return -1;
	if (pipe2(pe, O_CLOEXEC)) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot execute %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	{
		struct pollfd fds[2] = { { .fd = po[0], .events = POLLIN }, { .fd = pe[0], .events = POLLIN } };
		int open_fds = 2;
		while (open_fds) {
			if (poll(fds, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (int i = 0; i < 2; i++) {
				char buf[4096], *dst = i ? err : out;
				size_t *n = i ? &ne : &no, len = i ? errlen : outlen;
				ssize_t r;
				if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				r = read(fds[i].fd, buf, sizeof(buf));
				if (r <= 0) {
					close(fds[i].fd);
					fds[i].fd = -1;
					open_fds--;
					continue;
				}
				for (ssize_t k = 0; k < r; k++)
					if (*n + 1 < len)
						dst[(*n)++] = buf[k];
			}
		}
	}
	if (outlen)
		out[no < outlen ? no : outlen - 1] = 0;
	if (errlen)
		err[ne < errlen ? ne : errlen - 1] = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* the text without its trailing newlines, one line (for messages) */
static char *trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
	for (char *p = s; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return s;
}

/* "1-3,5,7-9": the indices (sorted, from 1) as an array range list */
static char *range_list(const unsigned long *idx, size_t n)
{
	size_t cap = n * 24 + 1, at = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && idx[j + 1] == idx[j] + 1)
			j++;
		at += (size_t)snprintf(s + at, cap - at, "%s%lu", at ? "," : "", idx[i]);
		if (j > i)
			at += (size_t)snprintf(s + at, cap - at, "-%lu", idx[j]);
		i = j + 1;
	}
	return s;
}

static int write_atomic(const char *path, const char *text, mode_t mode)
{
	struct outfile o;

	if (!outfile_open(&o, path, mode))
		return -1;
	fputs(text, o.f);
	return outfile_commit(&o);
}

int slurm_submit(const struct slurm_opts *o, const char *dir, const unsigned long *idx, size_t n,
                 char *jobid, size_t len)
{
	char script[PATH_MAX], manifest[PATH_MAX], logs[PATH_MAX], chdir_opt[PATH_MAX + 16];
	char jobfile[PATH_MAX], mmsim[PATH_MAX], *list = NULL, *array = NULL, *text = NULL;
	char out[4096], err[4096];
	const char *argv[32 + SLURM_MAX_SBATCH_ARGS];
	char part[256], tim[256];
	size_t textlen = 0;
	int na = 0, st, rc = EX_UNAVAILABLE;
	FILE *f;

	if (o->mmsim)
		snprintf(mmsim, sizeof(mmsim), "%s", o->mmsim);
	else if (!realpath("/proc/self/exe", mmsim)) {
		exp_error("cannot find this mmsim's path: %s (give the path the nodes see: --mmsim PATH)",
		          strerror(errno));
		return EX_SOFTWARE;
	}
	snprintf(script, sizeof(script), "%s/sweep.sbatch", dir);
	snprintf(manifest, sizeof(manifest), "%s/manifest", dir);
	snprintf(logs, sizeof(logs), "%s/run-%%4a.log", dir);
	snprintf(chdir_opt, sizeof(chdir_opt), "--chdir=%s", dir);
	snprintf(jobfile, sizeof(jobfile), "%s/slurm.job", dir);
	list = range_list(idx, n);
	if (!list || (o->throttle ? asprintf(&array, "--array=%s%%%lu", list, o->throttle)
	                          : asprintf(&array, "--array=%s", list)) < 0) {
		exp_error("out of memory");
		array = NULL;
		rc = EX_SOFTWARE;
		goto out;
	}

	argv[na++] = "sbatch";
	argv[na++] = "--parsable";
	argv[na++] = "--job-name=mmsim-sweep";
	argv[na++] = "--ntasks=1";
	argv[na++] = chdir_opt;
	argv[na++] = "--output";
	argv[na++] = logs;
	argv[na++] = array;
	if (o->partition) {
		snprintf(part, sizeof(part), "--partition=%s", o->partition);
		argv[na++] = part;
	}
	if (o->time) {
		snprintf(tim, sizeof(tim), "--time=%s", o->time);
		argv[na++] = tim;
	}
	for (int i = 0; i < o->nr_sbatch_args; i++)
		argv[na++] = o->sbatch_args[i];
	argv[na++] = script;
	argv[na] = NULL;

	/* the script: self-contained, with the command that submitted it */
	f = open_memstream(&text, &textlen);
	if (!f) {
		exp_error("out of memory");
		rc = EX_SOFTWARE;
		goto out;
	}
	fprintf(f, "#!/bin/sh\n"
	           "# mmsim sweep as a Slurm job array, written by mmsim sweep --slurm:\n"
	           "# array task N runs line N of the manifest, into the file the line names.\n"
	           "# Submitted as:\n#  ");
	for (int i = 0; i < na; i++) {
		fputc(' ', f);
		sh_quote(f, argv[i]);
	}
	fprintf(f, "\nexec ");
	sh_quote(f, mmsim);
	fprintf(f, " run --manifest ");
	sh_quote(f, manifest);
	fprintf(f, " --index \"$SLURM_ARRAY_TASK_ID\"\n");
	if (fclose(f) || write_atomic(script, text, 0755)) {
		rc = EX_CANTCREAT;
		goto out;
	}

	st = run_cmd((char *const *)argv, out, sizeof(out), err, sizeof(err));
	trim(out);
	trim(err);
	if (st == 127 || st < 0) {
		exp_error("cannot run sbatch: %s (is Slurm installed on this host and in PATH?)",
		          err[0] ? err : strerror(errno));
		goto out;
	}
	if (st != 0) {
		exp_error("sbatch refused the job (exit %d): %s (script %s)", st, err[0] ? err : out, script);
		goto out;
	}
	/* --parsable: "JOBID" or "JOBID;CLUSTER"; warnings go to stderr */
	out[strcspn(out, ";")] = 0;
	if (!out[0] || strspn(out, "0123456789") != strlen(out)) {
		exp_error("sbatch printed no job id ('%s'; stderr '%s')", out, err);
		goto out;
	}
	snprintf(jobid, len, "%s", out);
	{
		char rec[64 + 4096];
		snprintf(rec, sizeof(rec), "%s %s\n", jobid, list);
		if (strlen(list) > 4000 || write_atomic(jobfile, rec, 0644)) {
			/* the lines are known again from the run files; the job id
			 * is what matters, written alone */
			snprintf(rec, sizeof(rec), "%s -\n", jobid);
			if (write_atomic(jobfile, rec, 0644)) {
				rc = EX_CANTCREAT;
				goto out;
			}
		}
	}
	rc = EX_OK;
out:
	free(list);
	free(array);
	free(text);
	return rc;
}

int slurm_job_read(const char *dir, char *jobid, size_t len)
{
	char path[PATH_MAX], line[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/slurm.job", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	line[strcspn(line, " \n")] = 0;
	if (!line[0] || strspn(line, "0123456789") != strlen(line))
		return 0;
	snprintf(jobid, len, "%s", line);
	return 1;
}

/* How many of the job's tasks are still in the queue (pending, running,
 * completing...): >= 0, or -1 after the message when squeue fails. */
static int queued_tasks(const char *jobid, int quiet, char *states, size_t slen)
{
	char out[65536], err[1024];
	char *argv[] = { "squeue", "--noheader", "--array", "--jobs", (char *)jobid,
	                 "--format=%T", NULL };
	int st = run_cmd(argv, out, sizeof(out), err, sizeof(err)), n = 0, running = 0;

	if (st != 0) {
		trim(err);
		/* a job the controller has forgotten (MinJobAge past) is finished */
		if (strstr(err, "Invalid job id"))
			return 0;
		if (!quiet)
			exp_error("squeue --jobs %s failed (exit %d): %s", jobid, st, err);
		return -1;
	}
	for (char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (*l == '\n')
			continue;
		/* finished states (squeue shows them for MinJobAge) do not count */
		if (!strncmp(l, "COMPLETED", 9) || !strncmp(l, "FAILED", 6) ||
		    !strncmp(l, "CANCELLED", 9) || !strncmp(l, "TIMEOUT", 7) ||
		    !strncmp(l, "OUT_OF_MEMORY", 13) || !strncmp(l, "NODE_FAIL", 9) ||
		    !strncmp(l, "BOOT_FAIL", 9) || !strncmp(l, "DEADLINE", 8) ||
		    !strncmp(l, "PREEMPTED", 9))
			continue;
		n++;
		if (!strncmp(l, "RUNNING", 7))
			running++;
	}
	if (states)
		snprintf(states, slen, "%d running, %d pending", running, n - running);
	return n;
}

int slurm_job_active(const char *jobid)
{
	return queued_tasks(jobid, 1, NULL, 0);
}

int slurm_wait(const char *jobid)
{
	unsigned delay = 1, failing = 0;
	char states[64], last[64] = "";
	const char *poll_env = getenv("MMSIM_SLURM_POLL");
	unsigned max_delay = poll_env && atoi(poll_env) > 0 ? (unsigned)atoi(poll_env) : 30;

	for (;;) {
		int n = queued_tasks(jobid, failing < 9, states, sizeof(states));
		if (n == 0)
			return 0;
		if (n < 0) {
			/* a controller restarting: keep trying for about 5 minutes */
			if (++failing * max_delay > 300) {
				exp_error("squeue has failed for minutes: the job %s may still run; wait for it "
				          "again with mmsim sweep --collect DIR", jobid);
				return -1;
			}
		} else {
			failing = 0;
			if (strcmp(states, last)) {
				fprintf(stderr, "mmsim: sweep: job %s: %s\n", jobid, states);
				snprintf(last, sizeof(last), "%s", states);
			}
		}
		sleep(delay);
		if (delay < max_delay)
			delay++;
		if (delay > max_delay)
			delay = max_delay;
	}
}

void slurm_task_state(const char *jobid, unsigned long index, char *buf, size_t len)
{
	char task[64], out[8192], err[512], *p, state[64] = "", code[32] = "";
	char *argv[] = { "scontrol", "--oneliner", "show", "job", task, NULL };

	buf[0] = 0;
	snprintf(task, sizeof(task), "%s_%lu", jobid, index);
	if (run_cmd(argv, out, sizeof(out), err, sizeof(err)) != 0)
		return;
	if ((p = strstr(out, "JobState=")))
		sscanf(p + 9, "%63[^ \n]", state);
	if ((p = strstr(out, " ExitCode=")))
		sscanf(p + 10, "%31[^ \n]", code);
	if (state[0])
		snprintf(buf, len, "task %s %s%s%s", task, state, code[0] ? ", exit code " : "", code);
}
