/* test_sprt_errors.c — the error rates of `arbiter eval --sprt`
 * (cli/eval_stats.c es_sprt_decide) measured by simulation: thousands of
 * SPRTs of two agents of equal strength on synthetic pentanomial samples,
 * the verdict looked at after every deal pair (more often than eval does,
 * so the harder case), must accept H1 no more often than alpha; and the
 * same test where A really is elo1 better must accept H0 no more often
 * than beta (a test that never decides would pass the first check alone).
 * The figures go to docs/evaluation.md. */
#include "arb_limits.h"
#include "eval_stats.h"
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* Runs per distribution, and the pairs after which a run with no verdict
 * is cut off (counted as no verdict: it never stops falsely). */
#define RUNS 3000
#define MAX_PAIRS 20000

/* splitmix64: a fixed stream, so that the figures are the same each run. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static double uniform(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* A pair's results for A (1, 0, -1 in each role) drawn from the
 * pentanomial probabilities pr[0..4] of the pair scores 0, ¼, ½, ¾, 1. */
static void draw_pair(const double pr[5], int *r0, int *r1)
{
    static const int a[5] = {-1, -1, 1, 1, 1}, b[5] = {-1, 0, -1, 0, 1};
    double u = uniform(), acc = 0;
    int k = 4;
    for (int i = 0; i < 5; i++) {
        acc += pr[i];
        if (u < acc) {
            k = i;
            break;
        }
    }
    *r0 = a[k];
    *r1 = b[k];
}

typedef struct outcome {
    int h1, h0, none;
    double mean_pairs;
} outcome;

static outcome run_many(const es_sprt *t, const double pr[5])
{
    outcome o = {0};
    double pairs = 0;
    for (int run = 0; run < RUNS; run++) {
        es_penta p = {0};
        int verdict = 0;
        double llr;
        while (p.n < MAX_PAIRS && verdict == 0) {
            int r0, r1;
            draw_pair(pr, &r0, &r1);
            es_penta_add(&p, r0, r1);
            verdict = es_sprt_decide(t, &p, &llr);
        }
        pairs += (double)p.n;
        if (verdict > 0)
            o.h1++;
        else if (verdict < 0)
            o.h0++;
        else
            o.none++;
    }
    o.mean_pairs = pairs / RUNS;
    return o;
}

/* Two roles won independently: A wins its first role with probability w0
 * and its second with w1 (no draws): pair scores 0, ½, 1 only. */
static void independent_roles(double w0, double w1, double pr[5])
{
    pr[0] = (1 - w0) * (1 - w1);
    pr[1] = 0;
    pr[2] = w0 * (1 - w1) + (1 - w0) * w1;
    pr[3] = 0;
    pr[4] = w0 * w1;
}

/* The distribution of mean `target` nearest pr in the exponential family
 * pr_k e^(θ k/4) (θ by bisection): the same shape, A a little stronger. */
static void tilt(const double pr[5], double target, double out[5])
{
    double lo = -50, hi = 50;
    for (int it = 0; it < 200; it++) {
        double th = (lo + hi) / 2, z = 0, m = 0;
        for (int k = 0; k < 5; k++) {
            out[k] = pr[k] * exp(th * k / 4);
            z += out[k];
        }
        for (int k = 0; k < 5; k++) {
            out[k] /= z;
            m += out[k] * k / 4;
        }
        if (m < target)
            lo = th;
        else
            hi = th;
    }
}

int main(void)
{
    es_sprt t;
    es_sprt_init(&t, 0, 50, 0.05, 0.05);
    double shift = es_score(t.elo1) - 0.5;   /* a pair score ahead by this is elo1 */
    /* Equal strength: the mean pair score is ½ (Elo 0 = elo0). */
    struct {
        const char *name;
        double pr[5], pr_elo1[5];
    } dist[3] = {
        /* Dou Dizhu-like: the landlord wins 35% whoever plays it */
        {"independent roles, landlord wins 35%", {0}, {0}},
        /* Da Bang-like: draws in a role, some pairs split */
        {"flat with draws", {0.1, 0.2, 0.4, 0.2, 0.1}, {0}},
        /* duplicate deals that mostly decide the pair: 90% split */
        {"mostly split pairs", {0.01, 0.04, 0.9, 0.04, 0.01}, {0}},
    };
    independent_roles(0.35, 0.65, dist[0].pr);
    independent_roles(0.35 + shift, 0.65 + shift, dist[0].pr_elo1);
    for (int d = 1; d < 3; d++)
        tilt(dist[d].pr, es_score(t.elo1), dist[d].pr_elo1);
    for (int d = 0; d < 3; d++) {
        double m0 = 0, m1 = 0;
        for (int k = 0; k < 5; k++) {
            CHECK(dist[d].pr[k] >= 0 && dist[d].pr_elo1[k] >= 0);
            m0 += dist[d].pr[k] * k / 4;
            m1 += dist[d].pr_elo1[k] * k / 4;
        }
        CHECKF(fabs(m0 - 0.5) < 1e-12 && fabs(m1 - es_score(t.elo1)) < 1e-12, "%s: means %.6f %.6f", dist[d].name,
               m0, m1);
        outcome same = run_many(&t, dist[d].pr);
        outcome better = run_many(&t, dist[d].pr_elo1);
        double fp = (double)same.h1 / RUNS, fn = (double)better.h0 / RUNS;
        printf("%-38s equal: H1 %4d of %d (%.2f%%), H0 %4d, none %d, %.0f pairs on average; "
               "A +%g Elo: H0 %4d (%.2f%%), H1 %4d, %.0f pairs\n",
               dist[d].name, same.h1, RUNS, 100 * fp, same.h0, same.none, same.mean_pairs, t.elo1, better.h0,
               100 * fn, better.h1, better.mean_pairs);
        CHECKF(fp <= t.alpha, "%s: false positives %.4f above alpha %.2f", dist[d].name, fp, t.alpha);
        /* The promise is the false-positive rate: at most alpha, measured.
         * The power is a check that the test decides at all: the GSPRT's
         * beta is nominal (Wald's bounds are approximate), so within three
         * standard errors of the simulation. */
        double se = sqrt(t.beta * (1 - t.beta) / RUNS);
        CHECKF(fn <= t.beta + 3 * se, "%s: false negatives %.4f above beta %.2f", dist[d].name, fn, t.beta);
        /* the minimum sample holds: no verdict before it */
        CHECK(same.mean_pairs >= ARB_EVAL_MIN_PAIRS && better.mean_pairs >= ARB_EVAL_MIN_PAIRS);
    }
    return TEST_DONE("sprt-errors");
}
