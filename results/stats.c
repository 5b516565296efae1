/* stats.c - mean, standard deviation, 95 % interval and Welch's t-test.
 *
 * Why Welch's t-test: a sweep has a handful of seeds per policy (3 by
 * default, 10 in the validation), the two policies' spreads differ (one
 * policy may be almost deterministic where the other is not), and
 * Student's pooled test assumes equal variances.  Welch's test does not,
 * and with 3..10 values it has far more power than a rank test:
 * Mann-Whitney U cannot reach p < 0.05 at all with 3 seeds a side (its
 * smallest two-sided p is 2/20 = 0.1).  Mann-Whitney would be the better
 * choice with larger samples (say 10+ seeds a side) of a row far from
 * normal: a row dominated by rare outliers (a seed whose kbuild hits a
 * reclaim storm), or bounded rates piled against 0 % or 100 %.
 */
#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

void results_summarize(const double *x, size_t n, struct results_summary *s)
{
	s->n = n;
	s->mean = n ? gsl_stats_mean(x, 1, n) : NAN;
	s->sd = s->ci_lo = s->ci_hi = NAN;
	if (n >= 2) {
		double half;

		s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
		half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * s->sd / sqrt((double)n);
		s->ci_lo = s->mean - half;
		s->ci_hi = s->mean + half;
	}
}

void results_welch_test(const struct results_summary *a, const struct results_summary *b,
                        struct results_welch *w)
{
	double va, vb, se2, d;

	w->valid = 0;
	w->t = w->df = w->p = NAN;
	w->significant = 0;
	if (a->n < 2 || b->n < 2)
		return;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	d = b->mean - a->mean;
	w->valid = 1;
	if (se2 == 0) {
		/* both sides without spread (a deterministic row): the same
		 * value is no difference, another one is a certain one */
		w->t = d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY;
		w->df = (double)(a->n + b->n - 2);
		w->p = d == 0 ? 1 : 0;
	} else {
		w->t = d / sqrt(se2);
		w->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
		w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	}
	w->significant = w->p < RESULTS_ALPHA;
}

double results_median(double *x, size_t n)
{
	if (!n)
		return NAN;
	gsl_sort(x, 1, n);
	return gsl_stats_median_from_sorted_data(x, 1, n);
}
