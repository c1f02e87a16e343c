/* eval_stats.h — the statistics of `arbiter eval` (docs/evaluation.md):
 * win percentages with Wilson intervals, means with Student's t intervals,
 * Elo from a score fraction with its interval, and the generalized SPRT
 * as fishtest computes it. Pure code: no I/O, no allocation. */
#ifndef ARB_EVAL_STATS_H
#define ARB_EVAL_STATS_H
#include <stddef.h>
#include <stdint.h>

/* The two-sided 95% normal quantile. */
#define ES_Z95 1.959963984540054

/* Wilson's score interval for k successes in n trials at quantile z:
 * (p + z²/2n ± z √(p(1−p)/n + z²/4n²)) / (1 + z²/n), p = k/n. n = 0 gives
 * [0, 1]. */
void es_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/* The 0.975 quantile of Student's t with df degrees of freedom (df ≥ 1):
 * a table to 30, then the Cornish–Fisher expansion (error below 0.001). */
double es_t975(uint64_t df);

/* Mean, sample standard deviation and the half width of the 95% t
 * interval of n values (half = NAN and sd = NAN below two values). */
typedef struct es_mean {
    uint64_t n;
    double   mean, sd, half;
} es_mean;
es_mean es_mean_of(const double *x, size_t n);

/* Logistic Elo of a score fraction s in (0, 1): −400 log10(1/s − 1);
 * ±INFINITY at 1 and 0. And back: the expected score of an Elo
 * difference, 1 / (1 + 10^(−elo/400)). */
double es_elo(double s);
double es_score(double elo);

/* A sample of outcomes, each a score in [0, 1] (a deal pair's mean), as
 * an empirical distribution: values and their counts. */
#define ES_MAX_VALUES 16
typedef struct es_sample {
    int      nvalues;
    double   value[ES_MAX_VALUES];
    uint64_t count[ES_MAX_VALUES];
    uint64_t n;
} es_sample;
/* Add one outcome (values are merged when equal to 1e-12). Returns -1
 * when there are more than ES_MAX_VALUES distinct values. */
int es_sample_add(es_sample *s, double value);
/* Mean and variance (over n, not n − 1) of the sample. */
void es_sample_stats(const es_sample *s, double *mean, double *var);

/* Elo with its 95% interval from the sample: the mean score s and its
 * standard error √(var/n) give elo(s) and [elo(s − z·se), elo(s + z·se)]
 * (the interval's ends clipped to (0, 1): ±INFINITY). */
typedef struct es_elo_est {
    double score, se, elo, lo, hi;
} es_elo_est;
es_elo_est es_elo_of(const es_sample *s);

/* The generalized log-likelihood ratio of H1: elo = elo1 against H0:
 * elo = elo0 (logistic Elo) for the sample, as fishtest's LLRcalc
 * computes it (LLR_logistic with the exact MLE): with s_i = es_score(elo_i)
 * and the empirical distribution p_j over values x_j, the distribution of
 * mean s closest to p is p_j / (1 + λ (x_j − s)), λ the root of
 * Σ p_j (x_j − s) / (1 + λ (x_j − s)) = 0; then
 *     LLR = n Σ p_j [ln(1 + λ0 (x_j − s0)) − ln(1 + λ1 (x_j − s1))].
 * 0 when the sample has fewer than two distinct values (fishtest returns
 * 0 until every outcome that can occur is "regularised"; we return 0
 * until the variance is positive). */
double es_llr(const es_sample *s, double elo0, double elo1);
/* The cruder approximation LLR ≈ n (s1 − s0)(2 mean − s0 − s1) / (2 var)
 * (fishtest's LLR_alt, cutechess's), for comparison and tests. */
double es_llr_approx(const es_sample *s, double elo0, double elo1);

/* The SPRT's bounds: accept H0 at LLR ≤ ln(β/(1−α)), H1 at
 * LLR ≥ ln((1−β)/α). */
void es_sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
