#!/usr/bin/env python3
"""sprt_reference.py — the reference figures of test_eval_stats.c, computed
apart from arbiter's C code from the published formulas of fishtest's
LLRcalc.py (official-stockfish/fishtest, server/fishtest/stats/LLRcalc.py):
regularize (a zero count becomes 1e-3), results_to_pdf, secular (the root
of sum_i p_i a_i / (1 + x a_i) = 0, here by plain bisection in place of
scipy's brentq: a different solver on purpose), MLE_expected, LLR and
LLR_logistic; LLR_alt2 for the normal approximation. Python floats only.
Run it to print the figures that the C test hard-codes."""
import math


def regularize(counts):
    return [c if c else 1e-3 for c in counts]


def results_to_pdf(results):
    results = regularize(results)
    n = sum(results)
    k = len(results)
    return n, [(i / (k - 1), results[i] / n) for i in range(k)]


def stats(pdf):
    s = sum(a * p for a, p in pdf)
    var = sum(p * (a - s) ** 2 for a, p in pdf)
    return s, var


def secular(pdf):
    """The root x of sum p*a/(1+x*a) = 0 with 1 + x*a > 0 for every a."""
    v = min(a for a, _ in pdf)
    w = max(a for a, _ in pdf)
    assert v * w < 0
    lo, hi = -1 / w + 1e-12, -1 / v - 1e-12
    f = lambda x: sum(p * a / (1 + x * a) for a, p in pdf)
    for _ in range(400):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_expected(pdfhat, s):
    x = secular([(a - s, p) for a, p in pdfhat])
    pdf = [(a, p / (1 + x * (a - s))) for a, p in pdfhat]
    assert abs(stats(pdf)[0] - s) < 1e-9
    return pdf


def llr(pdf, s0, s1):
    pdf0, pdf1 = mle_expected(pdf, s0), mle_expected(pdf, s1)
    return sum(pdf[i][1] * (math.log(pdf1[i][1]) - math.log(pdf0[i][1])) for i in range(len(pdf)))


def L(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr_logistic(elo0, elo1, results):
    n, pdf = results_to_pdf(results)
    return n * llr(pdf, L(elo0), L(elo1))


def llr_alt2(elo0, elo1, results):
    n, pdf = results_to_pdf(results)
    s, var = stats(pdf)
    s0, s1 = L(elo0), L(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / var / 2


CASES = [
    ([10, 40, 100, 60, 20], 0, 10),
    ([10, 40, 100, 60, 20], 0, 50),
    ([10, 40, 100, 60, 20], -5, 5),
    ([0, 0, 1, 2, 0], 0, 50),          # the 3 pairs that once read "H1 accepted"
    ([0, 0, 0, 0, 3], 0, 50),          # three sweeps: no zero variance, no infinity
    ([0, 0, 30, 0, 0], 0, 50),         # thirty even pairs: evidence for H0
    ([120, 410, 930, 390, 150], 0, 5),
    ([3, 25, 60, 21, 1], -10, 40),
]

if __name__ == "__main__":
    for results, e0, e1 in CASES:
        print("%-28s %4g %4g  LLR_logistic %.10f  LLR_alt2 %.10f"
              % (results, e0, e1, llr_logistic(e0, e1, results), llr_alt2(e0, e1, results)))
