/* rating_wl.c — Weng–Lin ratings (the OpenSkill family) as the openskill
 * library, version 5, computes them: Plackett–Luce, and Bradley–Terry and
 * Thurstone–Mosteller with full pairing. Pure code: no I/O, no allocation
 * (a match's teams fit the stack, WL_MAX_TEAMS).
 *
 * Agreement with the library to 1e-9 (tests/unit/test_rating_wl.c checks
 * it against a fixture the library made; every value is in fact equal)
 * rests on doing what it does in the order it does it: teams sorted by
 * rank with a stable sort, ranks turned into the index of the first team
 * of each tie, every sum taken in that sorted order, the expressions
 * grouped as the library groups them, and exp and erf computed as
 * JavaScript computes them (below: Thurstone–Mosteller turns last-bit
 * differences into visible ones). */
#include "rating.h"
#include "arb_error.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

void wl_defaults(wl_params *p, wl_model model)
{
    p->model = model;
    p->mu = 25.0;
    p->sigma = 25.0 / 3.0;
    p->beta = 25.0 / 6.0;
    p->kappa = 0.0001;
    p->tau = 25.0 / 300.0;
    p->epsilon = 0.1;
}

static const char *const model_names[WL_NMODELS] = {
    [WL_PLACKETT_LUCE] = "plackett-luce",
    [WL_BRADLEY_TERRY] = "bradley-terry",
    [WL_THURSTONE_MOSTELLER] = "thurstone-mosteller",
};

const char *wl_model_name(wl_model m)
{
    return (unsigned)m < WL_NMODELS ? model_names[m] : "unknown";
}

int wl_model_parse(const char *s, wl_model *out)
{
    for (int m = 0; m < WL_NMODELS; m++)
        if (strcmp(s, model_names[m]) == 0) {
            *out = (wl_model)m;
            return 0;
        }
    return ARB_EINVAL;
}

/* ---- the normal distribution and the truncated-Gaussian corrections ----
 * openskill's statistics module, approximations included: when the
 * probability in a denominator is too small to divide by, v, w, vt and wt
 * take the limits the library takes (they are what keeps an upset between
 * far-apart ratings from producing infinities). */

/* exp and erf as the library computes them: JavaScript's Math.exp in V8
 * and @stdlib/math-base-special-erf (0.2.6, which has its own exp) are
 * both FreeBSD's e_exp.c and s_erf.c, transcribed here. Why not libm's:
 * glibc's exp rounds the last bit differently about one time in ten, and
 * Thurstone–Mosteller amplifies such differences — far in a tail, 1 +
 * erf(x) cancels, the update divides by it, and near the library's
 * thresholds for tiny probabilities a last-bit difference picks the other
 * branch; over a season of matches the gap grows past any tolerance. With
 * the same exp and erf the results are the library's, bit for bit in the
 * fixture. The polynomials are in Horner form, grouped as there, and the
 * scheduler's library is compiled with -ffp-contract=off: JavaScript
 * never fuses a multiply and an add, so neither may the compiler here.
 *
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 * Developed at SunPro, a Sun Microsystems, Inc. business. Permission to
 * use, copy, modify, and distribute this software is freely granted,
 * provided that this notice is preserved. */
static double js_exp(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10,
                        log2_e = 1.44269504088896338700e+00, overflow = 7.09782712893383973096e+02,
                        underflow = -7.45133219101941108420e+02, near_zero = 1.0 / (1 << 28);
    if (isnan(x) || x == INFINITY)
        return x;
    if (x == -INFINITY)
        return 0.0;
    if (x > overflow)
        return INFINITY;
    if (x < underflow)
        return 0.0;
    if (x > -near_zero && x < near_zero)
        return 1.0 + x;
    double k = x < 0.0 ? trunc((log2_e * x) - 0.5) : trunc((log2_e * x) + 0.5);
    double hi = x - (k * ln2_hi), lo = k * ln2_lo;
    double r = hi - lo, t = r * r;
    double p = 0.16666666666666602 +
               (t * (-0.0027777777777015593 +
                     (t * (0.00006613756321437934 + (t * (-0.0000016533902205465252 + (t * 4.1381367970572385e-8)))))));
    double c = r - (t * p);
    double y = 1.0 - (lo - ((r * c) / (2.0 - c)) - hi);
    return ldexp(y, (int)k);
}

static double js_erf(double x)
{
    static const double tiny = 1.0e-300, very_tiny = 2.848094538889218e-306, small = 3.725290298461914e-9,
                        erx = 8.45062911510467529297e-1, efx = 1.28379167095512586316e-1,
                        efx8 = 1.02703333676410069053, ppc = 1.28379167095512558561e-1,
                        pac = -2.36211856075265944077e-3, rac = -9.86494403484714822705e-3,
                        rbc = -9.86494292470009928597e-3;
    if (isnan(x))
        return x;
    if (x == INFINITY)
        return 1.0;
    if (x == -INFINITY)
        return -1.0;
    if (x == 0.0)
        return x;
    bool negative = x < 0.0;
    double ax = negative ? -x : x;
    if (ax < 0.84375) {
        if (ax < small) {
            if (ax < very_tiny)
                return 0.125 * ((8.0 * x) + (efx8 * x));
            return x + (efx * x);
        }
        double z = x * x;
        double pp = -0.3250421072470015 +
                    (z * (-0.02848174957559851 + (z * (-0.005770270296489442 + (z * -0.000023763016656650163)))));
        double qq = 0.39791722395915535 +
                    (z * (0.0650222499887673 +
                          (z * (0.005081306281875766 + (z * (0.00013249473800432164 + (z * -0.000003960228278775368)))))));
        double r = ppc + (z * pp), s = 1.0 + (z * qq);
        double y = r / s;
        return x + (x * y);
    }
    if (ax < 1.25) {
        double s = ax - 1.0;
        double pa = 0.41485611868374833 +
                    (s * (-0.3722078760357013 +
                          (s * (0.31834661990116175 +
                                (s * (-0.11089469428239668 + (s * (0.035478304325618236 + (s * -0.002166375594868791)))))))));
        double qa = 0.10642088040084423 +
                    (s * (0.540397917702171 +
                          (s * (0.07182865441419627 +
                                (s * (0.12617121980876164 + (s * (0.01363708391202905 + (s * 0.011984499846799107)))))))));
        double p = pac + (s * pa), q = 1.0 + (s * qa);
        return negative ? -erx - (p / q) : erx + (p / q);
    }
    if (ax >= 6.0)
        return negative ? tiny - 1.0 : 1.0 - tiny;
    double s = 1.0 / (ax * ax), r;
    if (ax < 2.857142857142857) {
        double ra = -0.6938585727071818 +
                    (s * (-10.558626225323291 +
                          (s * (-62.375332450326006 +
                                (s * (-162.39666946257347 +
                                      (s * (-184.60509290671104 + (s * (-81.2874355063066 + (s * -9.814329344169145)))))))))));
        double sa = 19.651271667439257 +
                    (s * (137.65775414351904 +
                          (s * (434.56587747522923 +
                                (s * (645.3872717332679 +
                                      (s * (429.00814002756783 +
                                            (s * (108.63500554177944 + (s * (6.570249770319282 + (s * -0.0604244152148581)))))))))))));
        r = rac + (s * ra);
        s = 1.0 + (s * sa);
    } else {
        double rb = -0.799283237680523 +
                    (s * (-17.757954917754752 +
                          (s * (-160.63638485582192 +
                                (s * (-637.5664433683896 + (s * (-1025.0951316110772 + (s * -483.5191916086514)))))))));
        double sb = 30.33806074348246 +
                    (s * (325.7925129965739 +
                          (s * (1536.729586084437 +
                                (s * (3199.8582195085955 +
                                      (s * (2553.0504064331644 + (s * (474.52854120695537 + (s * -22.44095244658582)))))))))));
        r = rbc + (s * rb);
        s = 1.0 + (s * sb);
    }
    /* z: ax with the low word of its significand cleared */
    uint64_t bits;
    memcpy(&bits, &ax, sizeof bits);
    bits &= 0xffffffff00000000ull;
    double z;
    memcpy(&z, &bits, sizeof z);
    r = js_exp(-(z * z) - 0.5625) * js_exp(((z - ax) * (z + ax)) + (r / s));
    return negative ? (r / ax) - 1.0 : 1.0 - (r / ax);
}

static double phi_major(double x)
{
    return 0.5 * (1.0 + js_erf(x / sqrt(2.0)));
}

static double phi_minor(double x)
{
    return js_exp(x * x / -2.0) / sqrt(2.0 * M_PI);
}

static double wl_v(double x, double t)
{
    double xt = x - t;
    double denom = phi_major(xt);
    return denom < DBL_EPSILON ? -xt : phi_minor(xt) / denom;
}

static double wl_w(double x, double t)
{
    double xt = x - t;
    double denom = phi_major(xt);
    if (denom < DBL_EPSILON)
        return x < 0 ? 1.0 : 0.0;
    return wl_v(x, t) * (wl_v(x, t) + xt);
}

static double wl_vt(double x, double t)
{
    double xx = fabs(x);
    double b = phi_major(t - xx) - phi_major(-t - xx);
    if (b < 1e-5)
        return x < 0 ? -x - t : -x + t;
    double a = phi_minor(-t - xx) - phi_minor(t - xx);
    return (x < 0 ? -a : a) / b;
}

static double wl_wt(double x, double t)
{
    double xx = fabs(x);
    double b = phi_major(t - xx) - phi_major(-t - xx);
    if (b < DBL_EPSILON)
        return 1.0;
    return ((t - xx) * phi_minor(t - xx) + (t + xx) * phi_minor(-t - xx)) / b + wl_vt(x, t) * wl_vt(x, t);
}

/* ---- one match ----------------------------------------------------------- */

/* A team in rank order: its index in the caller's arrays, the sums the
 * models use, its tie-aware rank (the position of the first team it ties
 * with), and what the model makes of it: the change of the team's mu
 * (omega) and the shrink factor of its variance (delta). */
typedef struct wl_team {
    int index;
    double mu, sigma_sq;
    int rank;
    double omega, delta;
} wl_team;

/* Bradley–Terry's and Plackett–Luce's score of i against q: 1 won, 0 lost,
 * 0.5 tied (a lower rank is better). */
static double pair_score(int q_rank, int i_rank)
{
    if (q_rank < i_rank)
        return 0.0;
    if (q_rank > i_rank)
        return 1.0;
    return 0.5;
}

static void plackett_luce(const wl_params *p, wl_team *t, int n)
{
    double beta_sq = p->beta * p->beta;
    double c_sq = 0.0;
    for (int i = 0; i < n; i++)
        c_sq += t[i].sigma_sq + beta_sq;
    double c = sqrt(c_sq);
    /* sum_q: the strength of the teams placed at or below q; a: how many
     * teams share q's place. */
    double sum_q[WL_MAX_TEAMS];
    int a[WL_MAX_TEAMS];
    for (int q = 0; q < n; q++) {
        sum_q[q] = 0.0;
        a[q] = 0;
        for (int i = 0; i < n; i++) {
            if (t[i].rank >= t[q].rank)
                sum_q[q] += js_exp(t[i].mu / c);
            a[q] += t[i].rank == t[q].rank;
        }
    }
    for (int i = 0; i < n; i++) {
        double i_mu_over_ce = js_exp(t[i].mu / c);
        double omega_sum = 0.0, delta_sum = 0.0;
        for (int q = 0; q < n; q++) {
            if (t[q].rank > t[i].rank)
                continue;
            double quotient = i_mu_over_ce / sum_q[q];
            omega_sum += (i == q ? 1 - quotient : -quotient) / a[q];
            delta_sum += quotient * (1 - quotient) / a[q];
        }
        double gamma = sqrt(t[i].sigma_sq) / c;
        t[i].omega = omega_sum * (t[i].sigma_sq / c);
        t[i].delta = delta_sum * (t[i].sigma_sq / (c * c)) * gamma;
    }
}

static void bradley_terry(const wl_params *p, wl_team *t, int n)
{
    double two_beta_sq = 2 * (p->beta * p->beta);
    for (int i = 0; i < n; i++) {
        double omega = 0.0, delta = 0.0;
        for (int q = 0; q < n; q++) {
            if (q == i)
                continue;
            double ciq = sqrt(t[i].sigma_sq + t[q].sigma_sq + two_beta_sq);
            double piq = 1 / (1 + js_exp((t[q].mu - t[i].mu) / ciq));
            double eta = t[i].sigma_sq / ciq;
            double gamma = sqrt(t[i].sigma_sq) / ciq;
            omega += eta * (pair_score(t[q].rank, t[i].rank) - piq);
            delta += gamma * eta / ciq * piq * (1 - piq);
        }
        t[i].omega = omega;
        t[i].delta = delta;
    }
}

static void thurstone_mosteller(const wl_params *p, wl_team *t, int n)
{
    double two_beta_sq = 2 * (p->beta * p->beta);
    for (int i = 0; i < n; i++) {
        double omega = 0.0, delta = 0.0;
        for (int q = 0; q < n; q++) {
            if (q == i)
                continue;
            double ciq = sqrt(t[i].sigma_sq + t[q].sigma_sq + two_beta_sq);
            double delta_mu = (t[i].mu - t[q].mu) / ciq;
            double eta = t[i].sigma_sq / ciq;
            double gamma = sqrt(t[i].sigma_sq) / ciq;
            double margin = p->epsilon / ciq;
            if (t[q].rank == t[i].rank) {
                omega += eta * wl_vt(delta_mu, margin);
                delta += gamma * eta / ciq * wl_wt(delta_mu, margin);
            } else {
                double sign = t[q].rank > t[i].rank ? 1.0 : -1.0;
                omega += sign * eta * wl_v(sign * delta_mu, margin);
                delta += gamma * eta / ciq * wl_w(sign * delta_mu, margin);
            }
        }
        t[i].omega = omega;
        t[i].delta = delta;
    }
}

int wl_rate(const wl_params *p, wl_rating *r, const int *first, const int *size, const int *rank, int nteams)
{
    if (nteams < 2 || nteams > WL_MAX_TEAMS || (unsigned)p->model >= WL_NMODELS)
        return ARB_EINVAL;
    for (int i = 0; i < nteams; i++)
        if (size[i] < 1 || first[i] < 0)
            return ARB_EINVAL;

    /* Dynamics: every player of the match is less certain by tau before
     * the update (only the players in the match, as the library does). */
    double tau_sq = p->tau * p->tau;
    for (int i = 0; i < nteams; i++)
        for (int k = first[i]; k < first[i] + size[i]; k++)
            r[k].sigma = sqrt(r[k].sigma * r[k].sigma + tau_sq);

    /* The teams in rank order, ties in the order given (a stable
     * insertion sort: at most WL_MAX_TEAMS of them). */
    wl_team t[WL_MAX_TEAMS];
    for (int i = 0; i < nteams; i++) {
        int j = i;
        while (j > 0 && rank[t[j - 1].index] > rank[i]) {
            t[j] = t[j - 1];
            j--;
        }
        t[j].index = i;
    }
    for (int j = 0; j < nteams; j++) {
        const int i = t[j].index;
        t[j].mu = 0.0;
        t[j].sigma_sq = 0.0;
        for (int k = first[i]; k < first[i] + size[i]; k++) {
            t[j].mu += r[k].mu;
            t[j].sigma_sq += r[k].sigma * r[k].sigma;
        }
        t[j].rank = j > 0 && rank[t[j - 1].index] == rank[i] ? t[j - 1].rank : j;
    }

    switch (p->model) {
    case WL_PLACKETT_LUCE: plackett_luce(p, t, nteams); break;
    case WL_BRADLEY_TERRY: bradley_terry(p, t, nteams); break;
    case WL_THURSTONE_MOSTELLER: thurstone_mosteller(p, t, nteams); break;
    default: return ARB_EINVAL;
    }

    /* Each player takes the team's change in proportion to its share of
     * the team's variance; the variance shrinks no further than kappa of
     * what it was. */
    for (int j = 0; j < nteams; j++) {
        const int i = t[j].index;
        for (int k = first[i]; k < first[i] + size[i]; k++) {
            double sigma_sq = r[k].sigma * r[k].sigma;
            double share = sigma_sq / t[j].sigma_sq;
            r[k].mu = r[k].mu + share * t[j].omega;
            r[k].sigma = r[k].sigma * sqrt(fmax(1 - share * t[j].delta, p->kappa));
        }
    }
    return 0;
}
