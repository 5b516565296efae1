/* stats.h - the statistics of the compare table (stats.c, with GSL).
 *
 * The unit of replication is the seed: iterations of one run share a
 * booted machine and are not independent, so they are averaged within
 * their run first, and runs of one seed within a column are averaged
 * before these functions see the values.
 */
#ifndef MMSIM_RESULTS_STATS_H
#define MMSIM_RESULTS_STATS_H

#include <stddef.h>

/* the significance level of the table's marks (two-sided) */
#define RESULTS_ALPHA 0.05

struct results_summary {
	size_t n;
	double mean;
	double sd;                      /* sample standard deviation (n - 1); NaN if n < 2 */
	double ci_lo, ci_hi;            /* 95 % interval of the mean, Student t with n - 1
	                                   degrees of freedom; NaN if n < 2 */
};

struct results_welch {
	int valid;                      /* 0 if either side has fewer than 2 values */
	double t, df, p;                /* statistic, Welch-Satterthwaite df, two-sided p */
	int significant;                /* p < RESULTS_ALPHA */
};

void results_summarize(const double *x, size_t n, struct results_summary *s);
/* the median of x[0..n-1] (sorted in place); NaN if n is 0 */
double results_median(double *x, size_t n);
/* Welch's unequal-variance t-test of b against a (t > 0: b's mean is larger) */
void results_welch_test(const struct results_summary *a, const struct results_summary *b,
                        struct results_welch *w);

#endif
