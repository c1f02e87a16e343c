/* test_eval_stats.c — the statistics of `arbiter eval` (cli/eval_stats.h)
 * against known values: Wilson intervals, Student's t quantiles, Elo from
 * a score, the SPRT bounds, and the GSPRT's log-likelihood ratio against
 * fishtest's formula computed independently (docs/evaluation.md). */
#include "eval_stats.h"
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

    /* A pentanomial sample (deal pairs scoring 0, ¼, ½, ¾, 1 counted 10,
     * 40, 100, 60, 20): mean 0.5434783, variance 0.0578922; the exact
     * GSPRT (fishtest LLRcalc: the MLE under each hypothesis by its
     * secular equation) and the LLR_alt approximation, computed apart. */
    es_sample s = {0};
    static const double v[5] = {0, 0.25, 0.5, 0.75, 1};
    static const int c[5] = {10, 40, 100, 60, 20};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < c[i]; k++)
            CHECK(es_sample_add(&s, v[i]) == 0);
    double mean, var;
    es_sample_stats(&s, &mean, &var);
    CHECK(s.n == 230 && s.nvalues == 5);
    CHECK(NEAR(mean, 0.5434782608695652, 1e-12) && NEAR(var, 0.057892249527410206, 1e-12));
    es_elo_est el = es_elo_of(&s);
    CHECK(NEAR(el.elo, 30.288285575247322, 1e-9) && NEAR(el.se, 0.01586522715651656, 1e-12));
    CHECK(NEAR(el.lo, es_elo(mean - ES_Z95 * el.se), 1e-9) && el.lo < el.elo && el.hi > el.elo);
    double llr = es_llr(&s, 0, 10);
    CHECKF(NEAR(llr, 2.0165049095, 1e-6), "%.10f", llr);
    llr = es_llr(&s, 0, 50);
    CHECKF(NEAR(llr, 2.1246566142, 1e-6), "%.10f", llr);
    llr = es_llr(&s, -5, 5);
    CHECKF(NEAR(llr, 2.3935899939, 1e-6), "%.10f", llr);
    llr = es_llr_approx(&s, 0, 10);
    CHECKF(NEAR(llr, 2.0739886564, 1e-6), "%.10f", llr);
    /* Symmetry: the sample mirrored (x -> 1 - x) with the hypotheses
     * mirrored gives the same LLR. */
    es_sample r = {0};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < c[i]; k++)
            es_sample_add(&r, 1 - v[i]);
    CHECK(NEAR(es_llr(&r, 0, -10), es_llr(&s, 0, 10), 1e-9));
    /* No variance, no evidence. */
    es_sample one = {0};
    es_sample_add(&one, 1);
    es_sample_add(&one, 1);
    CHECK(es_llr(&one, 0, 10) == 0);
    return TEST_DONE("eval-stats");
}
