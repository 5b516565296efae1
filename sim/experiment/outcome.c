/* outcome.c - what became of a sweep's runs: the complete ones merged
 * into DIR/sweep.db, the failed ones named with their policy, seed, log
 * and error (and, for a Slurm job, the task's state).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "experiment_int.h"
#include "mmsim/scenario.h"
#include "results.h"

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
int merge_report(const char *dir, unsigned long nr_runs, const char *jobid,
                 unsigned long ran, unsigned long skipped)
{
	char merged[PATH_MAX], err[512];
	const char **inputs = calloc(nr_runs, sizeof(*inputs));
	unsigned long *failed = calloc(nr_runs, sizeof(*failed));
	size_t nr_inputs = 0, nr_failed = 0, nr_missing = 0;
	int rc = EX_OK;

	if (!inputs || !failed) {
		free(inputs);
		free(failed);
		exp_error("out of memory");
		return EX_SOFTWARE;
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
		exp_error("%s", err);
		rc = EX_CANTCREAT;
	}
	if (nr_failed) {
		exp_error("sweep: %zu of %lu runs failed (%zu stored with status 'failed' in %s, %zu "
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
		rc = EX_SOFTWARE;
	} else if (rc == EX_OK) {
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
