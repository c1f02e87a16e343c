/* test_eval_stats.c — the statistics of `arbiter eval` (cli/eval_stats.h)
 * against known values: Wilson intervals, Student's t quantiles, Elo from
 * a score, the SPRT bounds, and the GSPRT's log-likelihood ratio against
 * fishtest's formula computed independently (docs/evaluation.md). */
#include "eval_stats.h"
#include "arb_limits.h"
#include "test_util.h"

#include <math.h>

#define NEAR(x, y, eps) (fabs((x) - (y)) < (eps))

int main(void)
{
    double lo, hi;
    /* Wilson's interval for 7 of 10 at z = 1.96: [0.3968, 0.8922]. */
    es_wilson(7, 10, ES_Z95, &lo, &hi);
    CHECKF(NEAR(lo, 0.3967781474611453, 1e-12) && NEAR(hi, 0.8922087325936988, 1e-12), "%.16f %.16f", lo, hi);
    es_wilson(0, 10, ES_Z95, &lo, &hi);
    CHECKF(lo == 0 && NEAR(hi, 0.2775327998628892, 1e-12), "%.16f %.16f", lo, hi);
    es_wilson(55, 60, ES_Z95, &lo, &hi);
    CHECKF(NEAR(lo, 0.8193105798166559, 1e-12) && NEAR(hi, 0.9638795433982693, 1e-12), "%.16f %.16f", lo, hi);
    es_wilson(0, 0, ES_Z95, &lo, &hi);
    CHECK(lo == 0 && hi == 1);

    /* t quantiles: the table and the expansion beyond it. */
    CHECK(NEAR(es_t975(1), 12.706, 1e-9));
    CHECK(NEAR(es_t975(9), 2.262, 1e-9));
    CHECK(NEAR(es_t975(30), 2.042, 1e-9));
    CHECK(NEAR(es_t975(60), 2.000298, 1e-3));
    CHECK(NEAR(es_t975(120), 1.979930, 1e-3));
    CHECK(NEAR(es_t975(100000), 1.959985, 1e-4));

    /* Mean and t interval: 1..5, mean 3, sd √2.5, half 2.776·sd/√5. */
    double x[5] = {1, 2, 3, 4, 5};
    es_mean m = es_mean_of(x, 5);
    CHECK(NEAR(m.mean, 3, 1e-12) && NEAR(m.sd, sqrt(2.5), 1e-12) && NEAR(m.half, 2.776 * sqrt(2.5) / sqrt(5), 1e-12));
    m = es_mean_of(x, 1);
    CHECK(m.mean == 1 && isnan(m.half));

    /* Elo: a 75% score is 190.85 Elo; 100 Elo scores 0.6400650. */
    CHECK(NEAR(es_elo(0.75), 190.848501887865, 1e-9));
    CHECK(NEAR(es_elo(0.5), 0, 1e-12));
    CHECK(NEAR(es_score(100), 0.6400649998028851, 1e-12));
    CHECK(NEAR(es_elo(es_score(-237.5)), -237.5, 1e-9));
    CHECK(isinf(es_elo(1)) && es_elo(1) > 0 && isinf(es_elo(0)) && es_elo(0) < 0);

    /* SPRT bounds for α = β = 0.05: ±2.944439. */
    double lb, ub;
    es_sprt_bounds(0.05, 0.05, &lb, &ub);
    CHECK(NEAR(lb, -2.9444389791664403, 1e-12) && NEAR(ub, 2.9444389791664403, 1e-12));

    /* The pentanomial of deal pairs: A's results in the two roles. */
    es_penta s = {0};
    static const int c[5] = {10, 40, 100, 60, 20};
    static const int r0[5] = {-1, -1, 1, 1, 1}, r1[5] = {-1, 0, -1, 0, 1};   /* 0, ¼, ½, ¾, 1 */
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < c[i]; k++)
            es_penta_add(&s, r0[i], r1[i]);
    for (int i = 0; i < 5; i++)
        CHECKF(s.count[i] == (uint64_t)c[i], "count[%d] %llu", i, (unsigned long long)s.count[i]);
    double mean, var;
    es_penta_stats(&s, &mean, &var);
    CHECK(s.n == 230);
    CHECK(NEAR(mean, 0.5434782608695652, 1e-12) && NEAR(var, 0.057892249527410206, 1e-12));
    /* Elo with a t interval on 229 degrees of freedom: se = sd/√n with the
     * n − 1 deviation. */
    es_elo_est el = es_elo_of(&s);
    double se = sqrt(var * 230 / 229) / sqrt(230);
    CHECKF(el.why == ES_CI_OK && NEAR(el.elo, 30.288285575247322, 1e-9) && NEAR(el.se, se, 1e-12), "%.12f", el.se);
    CHECK(NEAR(el.lo, es_elo(mean - es_t975(229) * se), 1e-9) && NEAR(el.hi, es_elo(mean + es_t975(229) * se), 1e-9));

    /* The LLR against fishtest's LLR_logistic and LLR_alt2, computed apart
     * by tests/unit/sprt_reference.py (Python floats, bisection for the
     * secular equation where this code uses Newton; run it to see the
     * figures): pentanomial counts, elo0, elo1, LLR_logistic, LLR_alt2. */
    static const struct {
        int count[5];
        double elo0, elo1, llr, alt2;
    } ref[] = {
        {{10, 40, 100, 60, 20}, 0, 10, 2.0165049095, 2.0739886564},
        {{10, 40, 100, 60, 20}, 0, 50, 2.1246566142, 2.1994101612},
        {{10, 40, 100, 60, 20}, -5, 5, 2.3935899939, 2.4856804729},
        {{0, 0, 1, 2, 0}, 0, 50, 0.4003476270, 1.9865444877},   /* once "H1 accepted" */
        {{0, 0, 0, 0, 3}, 0, 50, 0.4010216014, 159.5705299345},
        {{0, 0, 30, 0, 0}, 0, 50, -4.6184432604, -3678.0041527834},
        {{120, 410, 930, 390, 150}, 0, 5, 0.3439593338, 0.3436631127},
        {{3, 25, 60, 21, 1}, -10, 40, -8.4375004333, -8.9598003245},
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        es_penta p = {0};
        for (int k = 0; k < 5; k++) {
            p.count[k] = (uint64_t)ref[i].count[k];
            p.n += p.count[k];
        }
        double llr = es_llr(&p, ref[i].elo0, ref[i].elo1), alt = es_llr_approx(&p, ref[i].elo0, ref[i].elo1);
        CHECKF(NEAR(llr, ref[i].llr, 1e-8), "case %zu: LLR %.10f, fishtest %.10f", i, llr, ref[i].llr);
        CHECKF(NEAR(alt, ref[i].alt2, 1e-6 * (1 + fabs(ref[i].alt2))), "case %zu: LLR_alt2 %.10f, fishtest %.10f",
               i, alt, ref[i].alt2);
    }
    /* Symmetry: the sample mirrored (x -> 1 - x) with the hypotheses
     * mirrored gives the same LLR. */
    es_penta r = {0};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < c[i]; k++)
            es_penta_add(&r, -r0[i], -r1[i]);
    CHECK(NEAR(es_llr(&r, 0, -10), es_llr(&s, 0, 10), 1e-9));
    CHECK(es_llr(&(es_penta){0}, 0, 10) == 0);

    /* A few pairs decide nothing, whatever they say: the old code accepted
     * H1 on these three (LLR 4.59 from an approximation); now the LLR is
     * small and the verdict waits for ARB_EVAL_MIN_PAIRS pairs. */
    es_sprt t;
    es_sprt_init(&t, 0, 50, 0.05, 0.05);
    es_penta three = {.count = {0, 0, 1, 2, 0}, .n = 3};
    double llr;
    CHECK(es_sprt_decide(&t, &three, &llr) == 0 && llr < t.upper);
    es_penta sweeps = {.count = {0, 0, 0, 0, ARB_EVAL_MIN_PAIRS - 1}, .n = ARB_EVAL_MIN_PAIRS - 1};
    CHECK(es_sprt_decide(&t, &sweeps, &llr) == 0);
    es_penta even = {.count = {0, 0, 30, 0, 0}, .n = 30};
    CHECKF(es_sprt_decide(&t, &even, &llr) == -1, "%.4f", llr);

    /* Intervals: too few pairs, or no spread, give none (never a zero
     * width); the ADP's t interval likewise. */
    el = es_elo_of(&three);
    CHECK(el.why == ES_CI_FEW && isnan(el.lo) && isnan(el.hi));
    el = es_elo_of(&even);
    CHECK(el.why == ES_CI_NO_SPREAD && isnan(el.lo) && NEAR(el.elo, 0, 1e-12));
    double same[4] = {-1, -1, -1, -1};
    m = es_mean_of(same, 4);
    CHECK(m.mean == -1 && m.sd == 0 && isnan(m.half));
    return TEST_DONE("eval-stats");
}
