/* rating_g2.c — Glicko-2 and Elo (rating.h).
 *
 * Glicko-2 follows Glickman's paper ("Example of the Glicko-2 system",
 * 2022 revision of the volatility iteration) step by step, in the order
 * the JavaScript glicko2 library (1.2) computes it, so that both agree to
 * the last few bits: the scale 173.7178 around the default rating, the
 * Illinois iteration for the volatility with tolerance 1e-7 (its
 * `newprocedure`, with `<=` in the bracketing test), then the
 * pre-period RD from the new volatility. A player without a game in a
 * period only has RD^2 grow by vol^2. */
#include "rating.h"

#include <math.h>

#define G2_SCALE 173.7178
#define G2_EPSILON 0.0000001

void g2_defaults(g2_params *p)
{
    p->rating = 1500;
    p->rd = 350;
    p->vol = 0.06;
    p->tau = 0.5;
}

static double g2_g(double phi)
{
    return 1 / sqrt(1 + 3 * phi * phi / (M_PI * M_PI));
}

static double g2_e(double mu, double mu_j, double phi_j)
{
    return 1 / (1 + exp(-1 * g2_g(phi_j) * (mu - mu_j)));
}

/* Step 5's f(x), around a = ln(sigma^2). */
static double g2_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x);
    return ex * (delta * delta - phi * phi - v - ex) / (2 * pow(phi * phi + v + ex, 2)) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility (the Illinois algorithm). */
static double g2_volatility(double sigma, double phi, double v, double delta, double tau)
{
    double a = log(sigma * sigma), A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (g2_f(a - k * tau, delta, phi, v, a, tau) < 0)
            k++;
        B = a - k * tau;
    }
    double fA = g2_f(A, delta, phi, v, a, tau), fB = g2_f(B, delta, phi, v, a, tau);
    while (fabs(B - A) > G2_EPSILON) {
        double C = A + (A - B) * fA / (fB - fA), fC = g2_f(C, delta, phi, v, a, tau);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA = fA / 2;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2);
}

void g2_update(const g2_params *p, g2_rating self, const g2_rating *before, const g2_game *games, int ngames,
               g2_rating *out)
{
    double mu = (self.rating - p->rating) / G2_SCALE, phi = self.rd / G2_SCALE, sigma = self.vol;
    if (ngames <= 0) {
        out->rating = self.rating;
        out->rd = sqrt(phi * phi + sigma * sigma) * G2_SCALE;
        out->vol = sigma;
        return;
    }
    double vsum = 0, dsum = 0;
    for (int i = 0; i < ngames; i++) {
        const g2_rating *o = &before[games[i].opponent];
        double mu_j = (o->rating - p->rating) / G2_SCALE, phi_j = o->rd / G2_SCALE;
        double e = g2_e(mu, mu_j, phi_j), g = g2_g(phi_j);
        vsum += g * g * e * (1 - e);
        dsum += g * (games[i].score - e);
    }
    double v = 1 / vsum, delta = v * dsum;
    double vol = g2_volatility(sigma, phi, v, delta, p->tau);
    double phi_star = sqrt(phi * phi + vol * vol);
    double phi_new = 1 / sqrt(1 / (phi_star * phi_star) + 1 / v);
    out->rating = (mu + phi_new * phi_new * dsum) * G2_SCALE + p->rating;
    out->rd = phi_new * G2_SCALE;
    out->vol = vol;
}

double elo_expected(double ra, double rb)
{
    return 1 / (1 + pow(10, (rb - ra) / 400));
}

void elo_update(double *ra, double *rb, double score_a, double k)
{
    double ea = elo_expected(*ra, *rb), eb = elo_expected(*rb, *ra);
    *ra += k * (score_a - ea);
    *rb += k * ((1 - score_a) - eb);
}
