/* manifest.c - a sweep's manifest (DIR/manifest, <mmsim/experiment.h>):
 * one line per run, written from the plan, read back line by line by the
 * run that executes it (`mmsim run --manifest DIR/manifest --index N`,
 * here or on a Slurm node).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "experiment_int.h"
#include "mmsim/outfile.h"

long manifest_count(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int ch, last = '\n';

	if (!f)
		return -1;
	while ((ch = getc(f)) != EOF) {
		if (ch == '\n')
			n++;
		last = ch;
	}
	if (last != '\n')
		n++;
	fclose(f);
	return n;
}

int manifest_read(const char *path, unsigned long index, struct manifest_line *l, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fields[68], *save = NULL, *dir, *tmp;
	size_t cap = 0;
	ssize_t len = -1;
	int nf = 0;

	memset(l, 0, sizeof(*l));
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -2;
	}
	for (unsigned long i = 0; i < index; i++)
		if ((len = getline(&line, &cap, f)) < 0)
			break;
	fclose(f);
	if (index < 1 || len < 0) {
		free(line);
		snprintf(err, errlen, "%s: no line %lu", path, index);
		return -1;
	}
	if (len && line[len - 1] == '\n')
		line[--len] = 0;
	for (char *t = strtok_r(line, "\t", &save); t && nf < 68; t = strtok_r(NULL, "\t", &save))
		fields[nf++] = t;
	if (nf < 3 || nf > 3 + 64) {
		free(line);
		snprintf(err, errlen, "%s:%lu: not SCENARIO<TAB>OUTPUT<TAB>SEED[<TAB>KEY=VALUE]...", path, index);
		return -1;
	}
	l->buf = line;
	l->scenario = fields[0];
	l->out = fields[1];
	l->seed = fields[2];
	for (int i = 3; i < nf; i++)
		l->sets[l->nr_sets++] = fields[i];
	tmp = strdup(path);
	dir = tmp ? dirname(tmp) : ".";
	l->out_path = malloc(strlen(dir) + strlen(l->out) + 2);
	if (!l->out_path) {
		fputs("mmsim: out of memory\n", stderr);
		abort();
	}
	if (l->out[0] == '/')
		strcpy(l->out_path, l->out);
	else
		sprintf(l->out_path, "%s/%s", dir, l->out);
	free(tmp);
	return 0;
}

void manifest_line_free(struct manifest_line *l)
{
	free(l->buf);
	free(l->out_path);
	memset(l, 0, sizeof(*l));
}

int manifest_write(const struct sweep_plan *p, const char *path)
{
	struct outfile o;
	FILE *f = outfile_open(&o, path, 0666);

	if (!f)
		return -1;
	for (unsigned long k = 0; k < p->nr_runs; k++) {
		int idx[SWEEP_MAX_VARY];
		unsigned long seed;
		const struct sweep_variant *var = plan_combination(p, k, idx, &seed);

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
int same_file_text(const char *a, const char *b)
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
