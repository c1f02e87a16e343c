/* test_rating_g2.c — Glicko-2 and Elo (scheduler/rating_g2.c) against
 * published values and properties; `arbiter rate --system glicko2`
 * against the JavaScript glicko2 library is tests/integration/test_rate.sh. */
#include "rating.h"
#include "test_util.h"

#include <math.h>

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* Glickman, "Example of the Glicko-2 system" (boston.edu, 2022): a player
 * rated 1500, RD 200, volatility 0.06 (tau 0.5) beats a 1400/30 and loses
 * to a 1550/100 and a 1700/300: r' = 1464.06, RD' = 151.52, sigma' =
 * 0.05999 as the paper rounds its intermediate steps; unrounded, the
 * JavaScript glicko2 library (1.2.2) gives 1464.0506705393013,
 * 151.51652412385727, 0.059995984286488495, which we match to 1e-9. */
static void test_glickman(void)
{
    g2_params p;
    g2_defaults(&p);
    CHECK(p.rating == 1500 && p.rd == 350 && p.vol == 0.06 && p.tau == 0.5);
    g2_rating self = {1500, 200, 0.06}, opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}}, out;
    g2_game games[3] = {{0, 1}, {1, 0}, {2, 0}};
    g2_update(&p, self, opp, games, 3, &out);
    CHECKF(NEAR(out.rating, 1464.06, 0.01) && NEAR(out.rd, 151.52, 0.005) && NEAR(out.vol, 0.05999, 0.00001),
           "%.6f %.6f %.8f", out.rating, out.rd, out.vol);
    CHECKF(NEAR(out.rating, 1464.0506705393013, 1e-9) && NEAR(out.rd, 151.51652412385727, 1e-9)
           && NEAR(out.vol, 0.059995984286488495, 1e-12), "%.17g %.17g %.17g", out.rating, out.rd, out.vol);
    /* the paper's intermediate figures, in Glicko-2's scale: mu' = -0.2069,
     * phi' = 0.8722 */
    CHECK(NEAR((out.rating - 1500) / 173.7178, -0.2069, 0.00005) && NEAR(out.rd / 173.7178, 0.8722, 0.00005));
    /* sitting out: RD^2 grows by sigma^2 on Glicko-2's scale, nothing else */
    g2_update(&p, self, NULL, NULL, 0, &out);
    double phi = 200 / 173.7178;
    CHECK(out.rating == 1500 && out.vol == 0.06 && NEAR(out.rd, sqrt(phi * phi + 0.06 * 0.06) * 173.7178, 1e-9));
}

/* Properties: a win raises and a loss lowers; a draw between equals
 * changes no rating; the order of a period's games does not matter; RD
 * falls after playing. */
static void test_glicko_properties(void)
{
    g2_params p;
    g2_defaults(&p);
    g2_rating a = {1500, 350, 0.06}, b = {1500, 350, 0.06}, both[2] = {a, b}, out;
    g2_update(&p, a, both, (g2_game[]){{1, 1}}, 1, &out);
    CHECK(out.rating > 1500 && out.rd < 350);
    g2_rating win = out;
    g2_update(&p, b, both, (g2_game[]){{0, 0}}, 1, &out);
    CHECK(out.rating < 1500 && NEAR(out.rating - 1500, 1500 - win.rating, 1e-9) && NEAR(out.rd, win.rd, 1e-9));
    g2_update(&p, a, both, (g2_game[]){{1, 0.5}}, 1, &out);
    CHECK(NEAR(out.rating, 1500, 1e-9));
    g2_rating field[4] = {{1500, 200, 0.06}, {1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}}, x, y;
    g2_update(&p, field[0], field, (g2_game[]){{1, 1}, {2, 0}, {3, 0.5}}, 3, &x);
    g2_update(&p, field[0], field, (g2_game[]){{3, 0.5}, {1, 1}, {2, 0}}, 3, &y);
    CHECK(NEAR(x.rating, y.rating, 1e-9) && NEAR(x.rd, y.rd, 1e-9) && NEAR(x.vol, y.vol, 1e-12));
}

/* Elo: the expected score of equals is a half; 400 points ahead is 10:1;
 * an update is zero-sum with K = 32 and moves 16 points between equals. */
static void test_elo(void)
{
    CHECK(elo_expected(1500, 1500) == 0.5);
    CHECK(NEAR(elo_expected(1900, 1500), 10.0 / 11, 1e-12) && NEAR(elo_expected(1500, 1900), 1.0 / 11, 1e-12));
    double a = 1500, b = 1500;
    elo_update(&a, &b, 1, 32);
    CHECK(a == 1516 && b == 1484);
    a = 1613, b = 1477;
    double sum = a + b;
    elo_update(&a, &b, 0.5, 32);
    CHECK(NEAR(a + b, sum, 1e-9) && a < 1613 && b > 1477);
    /* Wikipedia's worked example: 1613 against 1609 (E = 0.506), a loss
     * costs 32 * 0.506 = 16.2 */
    a = 1613, b = 1609;
    elo_update(&a, &b, 0, 32);
    CHECKF(NEAR(1613 - a, 16.2, 0.05), "%.4f", 1613 - a);
}

int main(void)
{
    test_glickman();
    test_glicko_properties();
    test_elo();
    return TEST_DONE("rating-g2");
}
