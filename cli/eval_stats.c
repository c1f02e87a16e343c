/* eval_stats.c — intervals, Elo and the SPRT for `arbiter eval`
 * (eval_stats.h, docs/evaluation.md). */
#include "eval_stats.h"

#include "arb_limits.h"

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
        /* no spread seen, no interval (eval_stats.h) */
        if (m.sd > 0)
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

void es_penta_add(es_penta *p, int result0, int result1)
{
    int k = (result0 > 0) - (result0 < 0) + (result1 > 0) - (result1 < 0) + 2;   /* 4 × the pair score */
    p->count[k]++;
    p->n++;
}

void es_penta_stats(const es_penta *p, double *mean, double *var)
{
    double m = 0, v = 0;
    for (int k = 0; k < ES_PENTA && p->n; k++)
        m += k / 4.0 * (double)p->count[k] / (double)p->n;
    for (int k = 0; k < ES_PENTA && p->n; k++)
        v += (k / 4.0 - m) * (k / 4.0 - m) * (double)p->count[k] / (double)p->n;
    *mean = m;
    *var = v;
}

es_elo_est es_elo_of(const es_penta *p)
{
    es_elo_est e = {.n = p->n, .se = NAN, .lo = NAN, .hi = NAN, .why = ES_CI_OK};
    double var;
    es_penta_stats(p, &e.score, &var);
    e.elo = p->n ? es_elo(e.score) : NAN;
    double sd = p->n >= 2 ? sqrt(var * (double)p->n / (double)(p->n - 1)) : NAN;
    if (p->n >= 2)
        e.se = sd / sqrt((double)p->n);
    if (p->n < ARB_EVAL_MIN_PAIRS)
        e.why = ES_CI_FEW;
    else if (!(sd > 0))
        e.why = ES_CI_NO_SPREAD;
    if (e.why != ES_CI_OK)
        return e;
    double half = es_t975(p->n - 1) * e.se;
    e.lo = es_elo(e.score - half);
    e.hi = es_elo(e.score + half);
    return e;
}

/* The regularised distribution (eval_stats.h): p[k] and the total N. */
static double penta_pdf(const es_penta *p, double pdf[ES_PENTA])
{
    double total = 0;
    for (int k = 0; k < ES_PENTA; k++) {
        pdf[k] = p->count[k] ? (double)p->count[k] : ES_REGULARISE;
        total += pdf[k];
    }
    for (int k = 0; k < ES_PENTA; k++)
        pdf[k] /= total;
    return total;
}

/* λ for the distribution of mean `target` closest to pdf: the root of
 * f(λ) = Σ p_k d_k / (1 + λ d_k), d_k = k/4 − target. Every p_k is
 * positive and d runs from −target < 0 to 1 − target > 0, so f falls
 * from +∞ to −∞ on (−1/(1 − target), 1/target), where every 1 + λ d_k > 0:
 * one root. Newton from λ = 0, a step that would leave the bracket
 * replaced by bisection. */
static double secular_root(const double pdf[ES_PENTA], double target)
{
    double lo = -1 / (1 - target), hi = 1 / target, x = 0;
    for (int it = 0; it < 200; it++) {
        double f = 0, df = 0;
        for (int k = 0; k < ES_PENTA; k++) {
            double d = k / 4.0 - target, q = 1 + x * d;
            f += pdf[k] * d / q;
            df -= pdf[k] * d * d / (q * q);
        }
        if (f == 0)
            return x;
        if (f > 0)
            lo = x;
        else
            hi = x;
        double next = x - f / df;
        if (!(next > lo && next < hi))
            next = (lo + hi) / 2;
        if (fabs(next - x) <= 1e-15 * (1 + fabs(x)))
            return next;
        x = next;
    }
    return x;
}

double es_llr(const es_penta *p, double elo0, double elo1)
{
    if (p->n == 0)
        return 0;
    double pdf[ES_PENTA], total = penta_pdf(p, pdf);
    double s0 = es_score(elo0), s1 = es_score(elo1);
    double l0 = secular_root(pdf, s0), l1 = secular_root(pdf, s1), sum = 0;
    for (int k = 0; k < ES_PENTA; k++)
        sum += pdf[k] * (log1p(l0 * (k / 4.0 - s0)) - log1p(l1 * (k / 4.0 - s1)));
    return total * sum;
}

double es_llr_approx(const es_penta *p, double elo0, double elo1)
{
    if (p->n == 0)
        return 0;
    double pdf[ES_PENTA], total = penta_pdf(p, pdf), mean = 0, var = 0;
    for (int k = 0; k < ES_PENTA; k++)
        mean += pdf[k] * k / 4.0;
    for (int k = 0; k < ES_PENTA; k++)
        var += pdf[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
    double s0 = es_score(elo0), s1 = es_score(elo1);
    return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

void es_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}

void es_sprt_init(es_sprt *t, double elo0, double elo1, double alpha, double beta)
{
    t->elo0 = elo0;
    t->elo1 = elo1;
    t->alpha = alpha;
    t->beta = beta;
    es_sprt_bounds(alpha, beta, &t->lower, &t->upper);
}

int es_sprt_decide(const es_sprt *t, const es_penta *p, double *llr)
{
    *llr = es_llr(p, t->elo0, t->elo1);
    if (p->n < ARB_EVAL_MIN_PAIRS)
        return 0;
    return *llr >= t->upper ? 1 : *llr <= t->lower ? -1 : 0;
}
