/* posting.h - a posting's table as data, and the simulated table beside it.
 *
 * A kernel posting (a cover letter, a changelog) measures kernels against
 * each other on some load and prints a table.  configs/postings/NAME.posting
 * stores that table as the posting printed it, the scenario mmsim runs for
 * it and the key whose values stand for the posting's columns (a policy, or
 * a switch such as kernel.group_by_mobility); `mmsim reproduce --posting
 * NAME` runs the sweep and prints the posting's table beside the simulated
 * one (posting_print), row by row, with whether each row moves the same way.
 * The file's format: configs/postings/README.md.
 */
#ifndef MMSIM_RESULTS_POSTING_H
#define MMSIM_RESULTS_POSTING_H

#include <stddef.h>
#include <stdio.h>

#define POSTING_MAX_COLS 8
#define POSTING_MAX_ROWS 64
#define POSTING_MAX_TEXT 16             /* conclusion: and note: lines */
#define POSTING_MAX_SETS 16

/* what a row's simulated value is read from */
enum posting_measure {
	POSTING_NONE,                   /* not modelled: the posting's value alone */
	POSTING_ROW,                    /* a row of mmsim compare (its definition) */
	POSTING_METRIC,                 /* a run's metric (the metrics table) */
	POSTING_VMSTAT,                 /* a /proc/vmstat counter's change over the run */
	POSTING_CENSUS,                 /* the last block census: MIGRATETYPE:blocks|mixed_blocks */
};

struct posting_row {
	char *label;                    /* the posting's row name */
	enum posting_measure kind;
	char *what;                     /* the row, metric, counter or migratetype */
	int field;                      /* POSTING_ROW: the row's index; CENSUS: 0 blocks, 1 mixed */
	double posted[POSTING_MAX_COLS]; /* NaN: the posting gives none */
	double sim[POSTING_MAX_COLS];    /* means over the runs (NaN: none measured it) */
	long nr_sim[POSTING_MAX_COLS];   /* runs that measured it */
};

struct posting {
	char *path;                     /* the file read */
	char *title, *author, *date, *source, *compares, *load;
	char *conclusion[POSTING_MAX_TEXT];
	char *note[POSTING_MAX_TEXT];
	int nr_conclusion, nr_note;
	char *scenario;                 /* resolved against the file's directory */
	char *vary_key;                 /* e.g. policy.name */
	char *vary_value[POSTING_MAX_COLS];
	char *column[POSTING_MAX_COLS]; /* the posting's column names, in the same order */
	int nr_cols;
	char *set[POSTING_MAX_SETS];    /* SECTION.KEY=VALUE, applied to every run */
	int nr_sets;
	unsigned long seeds;            /* 0: the caller's default */
	struct posting_row row[POSTING_MAX_ROWS];
	int nr_rows;
	long nr_runs[POSTING_MAX_COLS]; /* 'ok' runs per column (posting_compute) */
};

/* Read path.  0, or -1 with "PATH:LINE: key: why" in err; *p to posting_free(). */
int  posting_load(struct posting **p, const char *path, char *err, size_t errlen);
void posting_free(struct posting *p);
/* The simulated means of every row from the runs of db, a run's column
 * being its value of p->vary_key.  0, or -1 with "DB: why" in err. */
int  posting_compute(struct posting *p, const char *db, char *err, size_t errlen);
/* The posting's table beside the simulated one, and the rows that move the
 * same way counted (a change under 5 % of the larger mean counts as
 * level).  0, or -1 if out fails. */
int  posting_print(FILE *out, const struct posting *p);
/* -1, 0 or +1: the way a moves to b (level: a change under 5 % of the
 * larger magnitude); 2 if either is NaN */
int  posting_way(double a, double b);

#endif
