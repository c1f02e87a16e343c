/* eval_stats.c — intervals, Elo and the SPRT for `arbiter eval`
 * (eval_stats.h, docs/evaluation.md). */
#include "eval_stats.h"

#include <math.h>

void es_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
    if (n == 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double centre = p + z2 / (2 * nn);
    double spread = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    double denom = 1 + z2 / nn;
    *lo = (centre - spread) / denom;
    *hi = (centre + spread) / denom;
    if (*lo < 0)
        *lo = 0;
    if (*hi > 1)
        *hi = 1;
}

double es_t975(uint64_t df)
{
    static const double table[31] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                                     2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
                                     2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df >= 1 && df <= 30)
        return table[df];
    double z = ES_Z95, v = (double)df;
    return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

es_mean es_mean_of(const double *x, size_t n)
{
    es_mean m = {.n = n, .sd = NAN, .half = NAN};
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    m.mean = n ? sum / (double)n : 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m.mean) * (x[i] - m.mean);
    if (n >= 2) {
        m.sd = sqrt(ss / (double)(n - 1));
        m.half = es_t975(n - 1) * m.sd / sqrt((double)n);
    }
    return m;
}

double es_elo(double s)
{
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return -400 * log10(1 / s - 1);
}

double es_score(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

int es_sample_add(es_sample *s, double value)
{
    for (int i = 0; i < s->nvalues; i++)
        if (fabs(s->value[i] - value) < 1e-12) {
            s->count[i]++;
            s->n++;
            return 0;
        }
    if (s->nvalues >= ES_MAX_VALUES)
        return -1;
    s->value[s->nvalues] = value;
    s->count[s->nvalues++] = 1;
    s->n++;
    return 0;
}

void es_sample_stats(const es_sample *s, double *mean, double *var)
{
    double m = 0, v = 0;
    for (int i = 0; i < s->nvalues && s->n; i++)
        m += s->value[i] * (double)s->count[i] / (double)s->n;
    for (int i = 0; i < s->nvalues && s->n; i++)
        v += (s->value[i] - m) * (s->value[i] - m) * (double)s->count[i] / (double)s->n;
    *mean = m;
    *var = v;
}

es_elo_est es_elo_of(const es_sample *s)
{
    es_elo_est e;
    double var;
    es_sample_stats(s, &e.score, &var);
    e.se = s->n ? sqrt(var / (double)s->n) : NAN;
    e.elo = es_elo(e.score);
    e.lo = es_elo(e.score - ES_Z95 * e.se);
    e.hi = es_elo(e.score + ES_Z95 * e.se);
    return e;
}

/* λ for the distribution of mean `target` closest to the sample: the root
 * of f(λ) = Σ p_j d_j / (1 + λ d_j), d_j = x_j − target, which decreases in
 * λ on the interval where every 1 + λ d_j > 0 (bisection on it). */
static double mle_lambda(const es_sample *s, double target)
{
    double dmin = 0, dmax = 0;
    for (int i = 0; i < s->nvalues; i++) {
        double d = s->value[i] - target;
        if (d < dmin)
            dmin = d;
        if (d > dmax)
            dmax = d;
    }
    /* Both signs are needed for a root (target strictly inside the range). */
    double lo = -1 / dmax, hi = -1 / dmin;
    for (int it = 0; it < 200; it++) {
        double mid = (lo + hi) / 2, f = 0;
        for (int i = 0; i < s->nvalues; i++) {
            double d = s->value[i] - target;
            f += (double)s->count[i] / (double)s->n * d / (1 + mid * d);
        }
        if (f > 0)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double es_llr(const es_sample *s, double elo0, double elo1)
{
    double mean, var;
    es_sample_stats(s, &mean, &var);
    if (s->n == 0 || var <= 0)
        return 0;
    double s0 = es_score(elo0), s1 = es_score(elo1);
    double vmin = s->value[0], vmax = s->value[0];
    for (int i = 1; i < s->nvalues; i++) {
        vmin = fmin(vmin, s->value[i]);
        vmax = fmax(vmax, s->value[i]);
    }
    /* A hypothesis outside the sample's range is infinitely unlikely; the
     * bounds are crossed long before in any real test. */
    if (s0 <= vmin || s1 >= vmax || s1 <= vmin || s0 >= vmax)
        return es_llr_approx(s, elo0, elo1);
    double l0 = mle_lambda(s, s0), l1 = mle_lambda(s, s1), sum = 0;
    for (int i = 0; i < s->nvalues; i++) {
        double p = (double)s->count[i] / (double)s->n;
        sum += p * (log1p(l0 * (s->value[i] - s0)) - log1p(l1 * (s->value[i] - s1)));
    }
    return (double)s->n * sum;
}

double es_llr_approx(const es_sample *s, double elo0, double elo1)
{
    double mean, var;
    es_sample_stats(s, &mean, &var);
    if (s->n == 0 || var <= 0)
        return 0;
    double s0 = es_score(elo0), s1 = es_score(elo1);
    return (double)s->n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

void es_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
