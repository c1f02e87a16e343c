/* test_rating_wl.c — Weng–Lin ratings (scheduler/rating_wl.c) against the
 * openskill library, version 5: the values its own test suite publishes,
 * a fixture it made (tests/data/ratings/, gen_openskill.cjs: ~300 random
 * matches per model, ties included, and matches between extreme ratings),
 * both to 1e-9; then properties that hold whatever the numbers. The
 * argument is the fixture's directory. */
#include "rating.h"
#include "arb_error.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-9

static bool near(double a, double b)
{
    return fabs(a - b) <= TOL;
}

/* ---- openskill's published values --------------------------------------
 * From the library's test suite (the models' tests in src/models/__tests__ and
 * src/__tests__/rate.test.ts of philihp/openskill.js), each checked against
 * the npm package 5.0.1. The models' own tests call the model without
 * rate()'s tau: they run here with tau 0. */

#define MAXP 16
typedef struct published {
    const char *what;
    wl_model model;
    double tau;                 /* < 0: the default */
    int nteams;
    int size[8];
    int rank[8];
    wl_rating before[MAXP];     /* {0, 0}: the default rating */
    wl_rating after[MAXP];
} published;

#define D {0, 0}
static const published cases[] = {
    {"plackett-luce 2p", WL_PLACKETT_LUCE, 0, 2, {1, 1}, {1, 2}, {D, D},
     {{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
    {"plackett-luce 5p", WL_PLACKETT_LUCE, 0, 5, {1, 1, 1, 1, 1}, {1, 2, 3, 4, 5}, {D, D, D, D, D},
     {{27.666666666666668, 8.290556877154474}, {26.833333333333332, 8.240145629781066},
      {25.72222222222222, 8.179996679645559}, {24.055555555555557, 8.111796013701358},
      {20.72222222222222, 8.111796013701358}}},
    {"plackett-luce 3 teams 3-1-2", WL_PLACKETT_LUCE, 0, 3, {3, 1, 2}, {1, 2, 3}, {D, D, D, D, D, D},
     {{25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456},
      {25.939870821784513, 8.247641552260456}, {27.21366020491262, 8.274321317985242},
      {21.84646897330287, 8.213058173195341}, {21.84646897330287, 8.213058173195341}}},
    {"bradley-terry 2p", WL_BRADLEY_TERRY, 0, 2, {1, 1}, {1, 2}, {D, D},
     {{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
    {"bradley-terry 5p", WL_BRADLEY_TERRY, 0, 5, {1, 1, 1, 1, 1}, {1, 2, 3, 4, 5}, {D, D, D, D, D},
     {{35.5409255338946, 7.202515895247076}, {30.2704627669473, 7.202515895247076}, {25.0, 7.202515895247076},
      {19.729537233052703, 7.202515895247076}, {14.4590744661054, 7.202515895247076}}},
    {"bradley-terry 3 teams 3-1-2", WL_BRADLEY_TERRY, 0, 3, {3, 1, 2}, {1, 2, 3}, {D, D, D, D, D, D},
     {{25.992743915179297, 8.19709997489984}, {25.992743915179297, 8.19709997489984},
      {25.992743915179297, 8.19709997489984}, {28.48909130001799, 8.220848339985736},
      {20.518164784802714, 8.127515465304823}, {20.518164784802714, 8.127515465304823}}},
    {"thurstone-mosteller 2p", WL_THURSTONE_MOSTELLER, 0, 2, {1, 1}, {1, 2}, {D, D},
     {{29.230718708993216, 7.630934718709003}, {20.769281291006784, 7.630934718709003}}},
    {"thurstone-mosteller 5p", WL_THURSTONE_MOSTELLER, 0, 5, {1, 1, 1, 1, 1}, {1, 2, 3, 4, 5}, {D, D, D, D, D},
     {{41.92287483597286, 4.958964145006544}, {33.46143741798643, 4.958964145006544}, {25, 4.958964145006544},
      {16.53856258201357, 4.958964145006544}, {8.077125164027137, 4.958964145006544}}},
    {"thurstone-mosteller 3 teams 3-1-2", WL_THURSTONE_MOSTELLER, 0, 3, {3, 1, 2}, {1, 2, 3}, {D, D, D, D, D, D},
     {{25.729796801442728, 8.153169236399172}, {25.729796801442728, 8.153169236399172},
      {25.729796801442728, 8.153169236399172}, {34.02513843037207, 7.757460494129447},
      {15.245064768185204, 7.372121080126496}, {15.245064768185204, 7.372121080126496}}},
    {"thurstone-mosteller ties in ranks", WL_THURSTONE_MOSTELLER, 0, 5, {1, 1, 1, 1, 1}, {1, 2, 2, 4, 5},
     {D, D, D, D, D},
     {{41.92287483597286, 4.958964145006544}, {29.230718708993216, 4.270448833386869},
      {29.230718708993216, 4.270448833386869}, {16.53856258201357, 4.958964145006544},
      {8.077125164027137, 4.958964145006544}}},
    /* rate(): tau added first */
    {"rate: plackett-luce by default", WL_PLACKETT_LUCE, -1, 4, {1, 1, 1, 1}, {1, 2, 3, 4},
     {{29.182, 4.782}, {27.174, 4.922}, {16.672, 6.217}, D},
     {{30.210227447000438, 4.765617924939384}, {27.644725221915632, 4.883479590134575},
      {17.4036218889969, 6.101259408259549}, {19.21460876538932, 7.854669920480409}}},
    {"rate: tau 0.01", WL_PLACKETT_LUCE, 0.01, 4, {1, 1, 1, 1}, {1, 2, 3, 4},
     {{29.182, 4.782}, {27.174, 4.922}, {16.672, 6.217}, D},
     {{30.20997558824299, 4.764909330988368}, {27.64461002009721, 4.882799245921361},
      {17.403587237635527, 6.100731158882956}, {19.21478808745494, 7.854267281042293}}},
    {"rate: teams", WL_PLACKETT_LUCE, -1, 2, {2, 2}, {1, 2},
     {{29.182, 4.782}, {27.174, 4.922}, {16.672, 6.217}, D},
     {{29.607340941337068, 4.755311788972862}, {27.624602782532037, 4.892807828777459},
      {15.953170429143093, 6.125902065139878}, {23.70858117648013, 8.111707446126035}}},
    {"rate: reverses rank", WL_PLACKETT_LUCE, -1, 2, {1, 1}, {2, 1}, {D, D},
     {{22.364610506859503, 8.06590141354368}, {27.635389493140497, 8.06590141354368}}},
    {"rate: misordered rank", WL_PLACKETT_LUCE, -1, 4, {1, 1, 1, 1}, {2, 1, 4, 3}, {D, D, D, D},
     {{26.55291815138952, 8.17961798837266}, {27.795252672501135, 8.263571791259416},
      {20.962412806387245, 8.084127880168786}, {24.689416369722096, 8.084127880168786}}},
    {"rate: rank ordering", WL_PLACKETT_LUCE, -1, 4, {1, 1, 1, 1}, {1, 3, 4, 2},
     {{15, 25 / 3.0}, {20, 25 / 3.0}, {25, 25 / 3.0}, {30, 25 / 3.0}},
     {{18.131120980297805, 8.283536573151807}, {20.405169039419135, 8.107860440531121},
      {20.65583040714804, 8.082574596348321}, {30.80787957313502, 8.155100416275928}}},
    {"rate: teams in rating order", WL_PLACKETT_LUCE, -1, 3, {2, 2, 2}, {3, 1, 2},
     {{29.182, 4.782}, D, {27.174, 4.922}, D, {16.672, 6.217}, D},
     {{27.857622571955794, 4.744504197327133}, {20.97892943330433, 8.129851804000902},
      {27.990904891666695, 4.901705733959291}, {27.341233554297506, 8.2314516336455},
      {17.607030910762578, 6.141282638892306}, {26.67983701239816, 8.149157818911323}}},
    {"rate: ties", WL_PLACKETT_LUCE, -1, 3, {1, 1, 1}, {1, 2, 2}, {{10, 8}, {5, 10}, {0, 12}},
     {{11.942996666741225, 7.926888197620324}, {2.9381178546315034, 9.653804487570165},
      {-1.4024317012198733, 11.323641575516767}}},
    {"rate: four-way tie", WL_PLACKETT_LUCE, -1, 4, {1, 1, 1, 1}, {1, 1, 1, 1}, {D, D, D, D},
     {{25, 8.263571791259416}, {25, 8.263571791259416}, {25, 8.263571791259416}, {25, 8.263571791259416}}},
    {"rate: fixes orders of ties", WL_PLACKETT_LUCE, -1, 4, {1, 1, 1, 1}, {2, 4, 2, 1},
     {{15, 25 / 3.0}, {20, 25 / 3.0}, {25, 25 / 3.0}, {30, 25 / 3.0}},
     {{15.340043358359136, 8.213141619804967}, {18.007678675484204, 8.189033933813437},
      {24.25801928251219, 8.166918055585525}, {32.39425868364447, 8.247687230833794}}},
    /* score [100, 84, 100, 72] is rank [-100, -84, -100, -72] */
    {"rate: thurstone-mosteller ties for first", WL_THURSTONE_MOSTELLER, -1, 4, {1, 1, 1, 1}, {-100, -84, -100, -72},
     {D, D, D, D},
     {{33.46194304822656, 5.426947616252378}, {20.76902847588672, 5.9839100819896975},
      {33.46194304822656, 5.426947616252378}, {12.307085427660162, 5.9839100819896975}}},
    {"rate: tau 0.3", WL_PLACKETT_LUCE, 0.3, 2, {1, 1}, {1, 2}, {{25, 3}, {25, 3}},
     {{25.624880438870754, 2.9879993738476953}, {24.375119561129246, 2.9879993738476953}}},
};

static void test_published(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const published *k = &cases[c];
        wl_params p;
        wl_defaults(&p, k->model);
        if (k->tau >= 0)
            p.tau = k->tau;
        wl_rating r[MAXP];
        int first[8], n = 0;
        for (int t = 0; t < k->nteams; t++) {
            first[t] = n;
            n += k->size[t];
        }
        for (int i = 0; i < n; i++)
            r[i] = k->before[i].sigma == 0 ? (wl_rating){p.mu, p.sigma} : k->before[i];
        CHECKF(wl_rate(&p, r, first, k->size, k->rank, k->nteams) == 0, "%s", k->what);
        for (int i = 0; i < n; i++)
            CHECKF(near(r[i].mu, k->after[i].mu) && near(r[i].sigma, k->after[i].sigma),
                   "%s: player %d: %.17g %.17g, openskill %.17g %.17g", k->what, i, r[i].mu, r[i].sigma,
                   k->after[i].mu, k->after[i].sigma);
    }
}

/* ---- the fixture made by the library ------------------------------------ */

#define FIX_PLAYERS 256

static int check_trace(const char *dir, wl_model model)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/openskill-%s.trace", dir, wl_model_name(model));
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        t_failed++;
        return -1;
    }
    wl_params p;
    wl_defaults(&p, model);
    wl_rating store[FIX_PLAYERS];
    for (int i = 0; i < FIX_PLAYERS; i++)
        store[i] = (wl_rating){p.mu, p.sigma};
    char line[1024];
    int lineno = 0, matches = 0, worst_line = 0;
    double worst = 0;
    /* the match being read: its teams' players (ids), then their ratings */
    int ids[WL_MAX_TEAMS * 4], first[WL_MAX_TEAMS], size[WL_MAX_TEAMS], rank[WL_MAX_TEAMS];
    int nteams = 0, want = 0, np = 0, checked = 0;
    wl_rating r[WL_MAX_TEAMS * 4];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line, *end;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (line[0] == 'i') {
            long id = strtol(s + 1, &end, 10);
            double mu = strtod(end, &end), sigma = strtod(end, &end);
            if (id < 0 || id >= FIX_PLAYERS)
                goto bad;
            store[id] = (wl_rating){mu, sigma};
        } else if (line[0] == 'm') {
            want = (int)strtol(s + 1, &end, 10);
            nteams = np = checked = 0;
            if (want < 2 || want > WL_MAX_TEAMS)
                goto bad;
        } else if (line[0] == 't') {
            if (nteams >= want)
                goto bad;
            rank[nteams] = (int)strtol(s + 1, &end, 10);
            first[nteams] = np;
            for (s = end; *s && *s != '\n';) {
                long id = strtol(s, &end, 10);
                if (end == s || id < 0 || id >= FIX_PLAYERS || np >= WL_MAX_TEAMS * 4)
                    goto bad;
                ids[np] = (int)id;
                r[np] = store[id];
                np++;
                s = end;
                while (*s == ' ')
                    s++;
            }
            size[nteams] = np - first[nteams];
            if (++nteams == want) {
                CHECKF(wl_rate(&p, r, first, size, rank, nteams) == 0, "%s:%d", path, lineno);
                matches++;
            }
        } else if (line[0] == 'p') {
            long id = strtol(s + 1, &end, 10);
            double mu = strtod(end, &end), sigma = strtod(end, &end);
            if (nteams != want || checked >= np || ids[checked] != id)
                goto bad;
            double diff = fmax(fabs(r[checked].mu - mu), fabs(r[checked].sigma - sigma));
            if (diff > worst) {
                worst = diff;
                worst_line = lineno;
            }
            CHECKF(diff <= TOL, "%s:%d: player %ld: %.17g %.17g, openskill %.17g %.17g", path, lineno, id,
                   r[checked].mu, r[checked].sigma, mu, sigma);
            store[id] = r[checked];
            checked++;
        } else {
            goto bad;
        }
    }
    fclose(f);
    printf("%s: %d matches, largest difference %.3g (line %d)\n", path, matches, worst, worst_line);
    CHECKF(matches >= 300, "%s: only %d matches", path, matches);
    return 0;
bad:
    fprintf(stderr, "%s:%d: cannot read this line\n", path, lineno);
    t_failed++;
    fclose(f);
    return -1;
}

/* ---- properties ---------------------------------------------------------- */

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static int pick(int lo, int hi)
{
    return lo + (int)(uniform() * (hi - lo + 1));
}

/* A random match: nteams of 1..max_size players with random ratings (mu
 * in 25 +- spread) and ranks. */
typedef struct match {
    int nteams, np;
    int first[WL_MAX_TEAMS], size[WL_MAX_TEAMS], rank[WL_MAX_TEAMS];
    wl_rating r[WL_MAX_TEAMS * 3];
} match;

static void random_match_in(match *m, int nteams, int max_size, double spread)
{
    m->nteams = nteams;
    m->np = 0;
    for (int t = 0; t < nteams; t++) {
        m->first[t] = m->np;
        m->size[t] = pick(1, max_size);
        m->rank[t] = pick(1, nteams);
        for (int k = 0; k < m->size[t]; k++)
            m->r[m->np++] = (wl_rating){25 + spread * (2 * uniform() - 1), 0.5 + 9 * uniform()};
    }
}

static void random_match(match *m, int nteams)
{
    random_match_in(m, nteams, 3, 15);
}

/* Relabeling the teams (a permutation of their order, each keeping its
 * rank and players) changes nobody's rating. Ties keep their relative
 * order through the stable sort only up to the order of a sum: 1e-12. */
static void test_symmetry(wl_model model)
{
    wl_params p;
    wl_defaults(&p, model);
    for (int trial = 0; trial < 200; trial++) {
        match a, b;
        random_match(&a, pick(2, 8));
        int perm[WL_MAX_TEAMS];
        for (int t = 0; t < a.nteams; t++)
            perm[t] = t;
        for (int t = a.nteams - 1; t > 0; t--) {
            int j = pick(0, t), x = perm[t];
            perm[t] = perm[j];
            perm[j] = x;
        }
        b.nteams = a.nteams;
        b.np = 0;
        for (int t = 0; t < a.nteams; t++) {
            int s = perm[t];
            b.first[t] = b.np;
            b.size[t] = a.size[s];
            b.rank[t] = a.rank[s];
            for (int k = 0; k < a.size[s]; k++)
                b.r[b.np++] = a.r[a.first[s] + k];
        }
        CHECK(wl_rate(&p, a.r, a.first, a.size, a.rank, a.nteams) == 0);
        CHECK(wl_rate(&p, b.r, b.first, b.size, b.rank, b.nteams) == 0);
        bool same = true;
        for (int t = 0; t < a.nteams; t++)
            for (int k = 0; k < b.size[t]; k++) {
                wl_rating x = b.r[b.first[t] + k], y = a.r[a.first[perm[t]] + k];
                same = same && fabs(x.mu - y.mu) <= 1e-12 && fabs(x.sigma - y.sigma) <= 1e-12;
            }
        CHECKF(same, "%s: relabeled teams rate differently (trial %d)", wl_model_name(model), trial);
    }
}

/* Two teams, a winner and a loser: the winner's players gain, the loser's
 * lose, in every model; a tie between equals moves nobody's mu. */
static void test_two_teams(wl_model model)
{
    wl_params p;
    wl_defaults(&p, model);
    bool ok = true;
    for (int trial = 0; trial < 500; trial++) {
        match m;
        random_match(&m, 2);
        m.rank[0] = 1;
        m.rank[1] = 2;
        wl_rating before[WL_MAX_TEAMS * 3];
        memcpy(before, m.r, sizeof before);
        CHECK(wl_rate(&p, m.r, m.first, m.size, m.rank, 2) == 0);
        for (int i = 0; i < m.np; i++)
            ok = ok && (i < m.size[0] ? m.r[i].mu > before[i].mu : m.r[i].mu < before[i].mu);
    }
    CHECKF(ok, "%s: a winner lost mu or a loser gained", wl_model_name(model));
    wl_rating eq[2] = {{p.mu, p.sigma}, {p.mu, p.sigma}};
    int first[2] = {0, 1}, size[2] = {1, 1}, rank[2] = {1, 1};
    CHECK(wl_rate(&p, eq, first, size, rank, 2) == 0);
    CHECKF(fabs(eq[0].mu - p.mu) < 1e-12 && fabs(eq[1].mu - p.mu) < 1e-12, "%s: a tie between equals moved mu",
           wl_model_name(model));
}

/* sigma after a match is never above its tau-inflated value, and never
 * below sqrt(kappa) of it; with a large kappa the floor is reached, and
 * then sigma is exactly the floor. Thurstone–Mosteller's first bound
 * holds as the library computes it only while teams are within about 7
 * c of each other: further apart, v(v + x) cancels (and wt beyond the
 * library's cut-off for ties exceeds 1), an upset makes delta negative
 * and sigma grows (docs/ratings.md). The fixture checks the library's
 * behaviour there; the bound is checked here where it holds: single
 * players within 25 +- 10, at most 3.5 c apart. */
static void test_sigma_bounds(wl_model model)
{
    wl_params p;
    wl_defaults(&p, model);
    bool below_inflated = true, above_floor = true;
    for (int trial = 0; trial < 500; trial++) {
        match m;
        if (model == WL_THURSTONE_MOSTELLER)
            random_match_in(&m, pick(2, 8), 1, 10);
        else
            random_match(&m, pick(2, 8));
        double inflated[WL_MAX_TEAMS * 3];
        for (int i = 0; i < m.np; i++)
            inflated[i] = sqrt(m.r[i].sigma * m.r[i].sigma + p.tau * p.tau);
        CHECK(wl_rate(&p, m.r, m.first, m.size, m.rank, m.nteams) == 0);
        for (int i = 0; i < m.np; i++) {
            below_inflated = below_inflated && m.r[i].sigma <= inflated[i];
            above_floor = above_floor && m.r[i].sigma >= inflated[i] * sqrt(p.kappa) * (1 - 1e-15);
        }
    }
    CHECKF(below_inflated, "%s: sigma rose above its inflated value", wl_model_name(model));
    CHECKF(above_floor, "%s: sigma fell below the kappa floor", wl_model_name(model));

    /* kappa 0.99: almost any information hits the floor */
    p.kappa = 0.99;
    int hit = 0;
    bool exact = true, never_below = true;
    for (int trial = 0; trial < 200; trial++) {
        match m;
        random_match(&m, pick(2, 8));
        double inflated[WL_MAX_TEAMS * 3];
        for (int i = 0; i < m.np; i++)
            inflated[i] = sqrt(m.r[i].sigma * m.r[i].sigma + p.tau * p.tau);
        CHECK(wl_rate(&p, m.r, m.first, m.size, m.rank, m.nteams) == 0);
        for (int i = 0; i < m.np; i++) {
            double floor = inflated[i] * sqrt(p.kappa);
            never_below = never_below && m.r[i].sigma >= floor * (1 - 1e-15);
            if (fabs(m.r[i].sigma - floor) <= 1e-12 * floor)
                hit++;
            else
                exact = exact && m.r[i].sigma > floor;
        }
    }
    CHECKF(hit > 0, "%s: kappa 0.99 never reached", wl_model_name(model));
    CHECKF(exact && never_below, "%s: sigma under the kappa floor", wl_model_name(model));
}

static void test_api(void)
{
    wl_params p;
    wl_defaults(&p, WL_PLACKETT_LUCE);
    CHECK(p.mu == 25 && p.sigma == 25.0 / 3 && p.beta == 25.0 / 6 && p.kappa == 0.0001 && p.tau == 25.0 / 300 &&
          p.epsilon == 0.1);
    for (int m = 0; m < WL_NMODELS; m++) {
        wl_model back;
        CHECK(wl_model_parse(wl_model_name((wl_model)m), &back) == 0 && back == (wl_model)m);
    }
    wl_model x;
    CHECK(wl_model_parse("plackett", &x) == ARB_EINVAL);
    CHECK(wl_model_parse("", &x) == ARB_EINVAL);
    CHECK(wl_ordinal((wl_rating){25, 25.0 / 3}) == 0);

    wl_rating r[WL_MAX_TEAMS + 1];
    int first[WL_MAX_TEAMS + 1], size[WL_MAX_TEAMS + 1], rank[WL_MAX_TEAMS + 1];
    for (int i = 0; i <= WL_MAX_TEAMS; i++) {
        r[i] = (wl_rating){25, 25.0 / 3};
        first[i] = i;
        size[i] = 1;
        rank[i] = i + 1;
    }
    CHECK(wl_rate(&p, r, first, size, rank, 1) == ARB_EINVAL);
    CHECK(wl_rate(&p, r, first, size, rank, WL_MAX_TEAMS + 1) == ARB_EINVAL);
    size[1] = 0;
    CHECK(wl_rate(&p, r, first, size, rank, 2) == ARB_EINVAL);
    CHECK(r[0].mu == 25 && r[0].sigma == 25.0 / 3);       /* refused: nothing changed */
    size[1] = 1;
    CHECK(wl_rate(&p, r, first, size, rank, WL_MAX_TEAMS) == 0);
    bool finite = true, ordered = true;
    for (int i = 0; i < WL_MAX_TEAMS; i++) {
        finite = finite && isfinite(r[i].mu) && isfinite(r[i].sigma);
        ordered = ordered && (i == 0 || r[i].mu < r[i - 1].mu);
    }
    CHECK(finite && ordered);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_rating_wl DIR (tests/data/ratings)\n");
        return 2;
    }
    test_api();
    test_published();
    for (int m = 0; m < WL_NMODELS; m++) {
        check_trace(argv[1], (wl_model)m);
        test_symmetry((wl_model)m);
        test_two_teams((wl_model)m);
        test_sigma_bounds((wl_model)m);
    }
    return TEST_DONE("rating_wl");
}
