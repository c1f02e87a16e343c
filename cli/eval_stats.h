/* eval_stats.h — the statistics of `arbiter eval` (docs/evaluation.md):
 * win percentages with Wilson intervals, means with Student's t intervals,
 * and the deal pairs' pentanomial: its Elo with a t interval and the
 * generalized SPRT as fishtest computes it (LLRcalc.LLR_logistic). Pure
 * code: no I/O, no allocation. */
#ifndef ARB_EVAL_STATS_H
#define ARB_EVAL_STATS_H
#include <stddef.h>
#include <stdbool.h>
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
 * interval of n values. half = NAN (no interval) below two values, and
 * also when the sample's deviation is 0: n equal values say nothing of
 * the spread, and a zero-width interval ([-1.000, -1.000]) would claim a
 * certainty the sample cannot give. sd = NAN below two values. */
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

/* The pentanomial of deal pairs. A deal played in both roles is one
 * pair; A's result in each role is 1 (win), ½ (draw) or 0 (loss), and the
 * pair scores their mean: 0, ¼, ½, ¾ or 1. count[k] is how many pairs
 * scored k/4. The pair, not the deal, is the unit: the two roles of one
 * deal share its cards and are not independent (fishtest's game pairs). */
#define ES_PENTA 5
typedef struct es_penta {
    uint64_t count[ES_PENTA];
    uint64_t n;                  /* pairs: the sum of count */
} es_penta;
/* Add a pair from A's results in its two roles, each 1, 0 or -1 (win,
 * draw, loss). */
void es_penta_add(es_penta *p, int result0, int result1);
/* Mean and variance (over n, not n − 1) of the pair scores as counted. */
void es_penta_stats(const es_penta *p, double *mean, double *var);

/* Elo of A over B from the pairs, with a Student's t 95% interval on the
 * mean pair score (n − 1 degrees of freedom) mapped through es_elo. The
 * interval is given only when it means something: why says otherwise. */
typedef enum es_ci_why {
    ES_CI_OK = 0,
    ES_CI_FEW,          /* fewer than ARB_EVAL_MIN_PAIRS pairs */
    ES_CI_NO_SPREAD,    /* every pair scored the same: no variance seen */
} es_ci_why;
typedef struct es_elo_est {
    uint64_t  n;        /* pairs */
    double    score;    /* mean pair score */
    double    se;       /* its standard error, sd / √n (NAN below two) */
    double    elo;      /* es_elo(score) */
    double    lo, hi;   /* the 95% interval (NAN unless why is ES_CI_OK) */
    es_ci_why why;
} es_elo_est;
es_elo_est es_elo_of(const es_penta *p);

/* The pentanomial as fishtest reads it (LLRcalc.results_to_pdf): a count
 * of 0 becomes 1e-3 (a mild prior, so that every outcome is possible and
 * the MLE exists), N is the regularised total and p_k = count_k / N. */
#define ES_REGULARISE 1e-3
/* The generalized log-likelihood ratio of H1: elo = elo1 against H0:
 * elo = elo0 (logistic Elo), fishtest's LLR_logistic: with
 * s_i = es_score(elo_i), the distribution of mean s_i closest to p is
 * p_k / (1 + λ_i (a_k − s_i)), a_k = k/4, λ_i the root of the secular
 * equation Σ p_k (a_k − s_i) / (1 + λ (a_k − s_i)) = 0 (safeguarded
 * Newton); then LLR = N Σ p_k [ln(1 + λ0 (a_k − s0)) − ln(1 + λ1 (a_k − s1))].
 * 0 for an empty sample. */
double es_llr(const es_penta *p, double elo0, double elo1);
/* The normal approximation N (s1 − s0)(2 mean − s0 − s1) / (2 var) over
 * the same regularised distribution (fishtest's LLR_alt2), for tests. */
double es_llr_approx(const es_penta *p, double elo0, double elo1);

/* An SPRT of H0: elo = elo0 against H1: elo = elo1 with error rates alpha
 * (H1 accepted when elo ≤ elo0) and beta (H0 accepted when elo ≥ elo1). */
typedef struct es_sprt {
    double elo0, elo1, alpha, beta;
    double lower, upper;         /* es_sprt_bounds of alpha and beta */
} es_sprt;
/* The SPRT's bounds: accept H0 at LLR ≤ ln(β/(1−α)), H1 at
 * LLR ≥ ln((1−β)/α). */
void es_sprt_bounds(double alpha, double beta, double *lower, double *upper);
/* Fill t from its four figures (bounds included). */
void es_sprt_init(es_sprt *t, double elo0, double elo1, double alpha, double beta);
/* The verdict on the pairs so far: 1 H1, -1 H0, 0 none yet; none before
 * ARB_EVAL_MIN_PAIRS pairs whatever the LLR. The LLR into *llr. */
int es_sprt_decide(const es_sprt *t, const es_penta *p, double *llr);

#endif
