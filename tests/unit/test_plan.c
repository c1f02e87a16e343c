/* test_plan.c — the formats' pure logic on its own (no database): round
 * robin and gauntlet tables, seat balance, knockout rounds for every field
 * size, Swiss pairing. plan_int.h reaches plan's internals (plan__*);
 * the database-backed parts are covered end to end by
 * tests/integration/test_tournament.sh. */
#include "plan_int.h"
#include "ddz.h"
#include "dabang.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

static uint64_t binom(int n, int k)
{
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

static tn_config make_cfg(int n, uint64_t seed)
{
    static tn_entrant e[64];
    tn_config c;
    memset(&c, 0, sizeof c);
    match_config_init(&c.match, &arb_game_doudizhu);   /* preset standard */
    c.cycles = 1;
    c.advance = 1;
    c.seed = seed;
    c.nentrants = n;
    c.entrants = e;
    for (int i = 0; i < n; i++) {
        memset(&e[i], 0, sizeof e[i]);
        snprintf(e[i].name, sizeof e[i].name, "e%d", i);
    }
    return c;
}

/* Round robin: every k-subset exactly `cycles` times; gauntlet: the hero
 * with every (k-1)-subset of the others. */
static void test_round_robin(void)
{
    static store_table t[20000];
    for (int n = 3; n <= 14; n++)
        for (uint32_t cycles = 1; cycles <= 2; cycles++) {
            tn_config c = make_cfg(n, 5);
            c.cycles = cycles;
            int nt = plan__all_tables(&c, 3, -1, t, 20000);
            CHECKF((uint64_t)nt == cycles * binom(n, 3), "n=%d cycles=%u: %d tables", n, cycles, nt);
            /* each triple as often as cycles: count by a canonical key */
            static uint32_t seen[16 * 16 * 16];
            memset(seen, 0, sizeof seen);
            bool distinct_seats = true;
            for (int i = 0; i < nt; i++) {
                int a = t[i].entrant[0], b = t[i].entrant[1], d = t[i].entrant[2], x;
                distinct_seats &= a != b && b != d && a != d;
                if (a > b) { x = a; a = b; b = x; }
                if (b > d) { x = b; b = d; d = x; }
                if (a > b) { x = a; a = b; b = x; }
                seen[(a * 16 + b) * 16 + d]++;
            }
            bool exact = true;
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++)
                    for (int d = b + 1; d < n; d++)
                        exact &= seen[(a * 16 + b) * 16 + d] == cycles;
            CHECKF(exact && distinct_seats, "n=%d: every triple %u times", n, cycles);
            /* seats balanced */
            plan__balance(t, nt, n, 3, NULL, NULL);
            int spread = 0;
            for (int e = 0; e < n; e++) {
                int cnt[3] = {0, 0, 0};
                for (int i = 0; i < nt; i++)
                    for (int s = 0; s < 3; s++)
                        cnt[s] += t[i].entrant[s] == e;
                int hi = cnt[0] > cnt[1] ? cnt[0] : cnt[1], lo = cnt[0] < cnt[1] ? cnt[0] : cnt[1];
                hi = hi > cnt[2] ? hi : cnt[2];
                lo = lo < cnt[2] ? lo : cnt[2];
                if (hi - lo > spread)
                    spread = hi - lo;
            }
            CHECKF(spread <= 2, "n=%d cycles=%u: seat spread %d", n, cycles, spread);
        }
    tn_config c = make_cfg(9, 5);
    int nt = plan__all_tables(&c, 3, 4, t, 20000);
    bool hero = true;
    for (int i = 0; i < nt; i++)
        hero &= t[i].entrant[0] == 4 && t[i].entrant[1] != 4 && t[i].entrant[2] != 4;
    CHECK(nt == (int)binom(8, 2) && hero);
    /* determinism of the order: the same seed, the same order; another, another */
    static store_table u[200], v[200];
    tn_config c1 = make_cfg(8, 1), c2 = make_cfg(8, 2);
    int n1 = plan__all_tables(&c1, 3, -1, u, 200), n2 = plan__all_tables(&c2, 3, -1, v, 200);
    plan__shuffle_tables(u, n1, 1, "round-robin");
    plan__shuffle_tables(v, n2, 2, "round-robin");
    CHECK(n1 == n2 && memcmp(u, v, (size_t)n1 * sizeof *u) != 0);
    plan__all_tables(&c2, 3, -1, v, 200);
    plan__shuffle_tables(v, n2, 1, "round-robin");
    CHECK(memcmp(u, v, (size_t)n1 * sizeof *u) == 0);
}

/* Knockout: simulated to the end for every field size: every table full,
 * never a round that cannot fill a table, byes to the top seeds, a single
 * champion, and every entrant placed (alive or out) exactly once. */
static void test_knockout(void)
{
    arb_rng rng;
    arb_rng_seed(&rng, 99);
    static store_table t[4096];
    for (int k = 3; k <= 4; k++)
        for (int a = 1; a < k; a++)
            for (int n = k; n <= 60; n++) {
                int alive[64], m = n, rounds = 0;
                for (int i = 0; i < n; i++)
                    alive[i] = i;   /* seed order = index */
                bool full = true, legal_counts = true, top_byes = true, once = true;
                while (m > 1 && rounds < 64) {
                    int byes;
                    bool final_rr;
                    int nt = plan__knockout_tables(alive, m, k, a, t, 4096, &byes, &final_rr);
                    int seen[64] = {0};
                    for (int i = 0; i < byes; i++)
                        seen[alive[i]]++;
                    for (int i = 0; i < nt; i++) {
                        full &= t[i].nslots == k;
                        if (!final_rr)
                            for (int s = 0; s < t[i].nslots; s++) {
                                seen[t[i].entrant[s]]++;
                                /* a bye goes to a better seed (lower index)
                                 * than anyone who has to play */
                                for (int b = 0; b < byes; b++)
                                    top_byes &= alive[b] < t[i].entrant[s];
                            }
                    }
                    if (!final_rr)
                        for (int i = 0; i < m; i++)
                            once &= seen[alive[i]] == 1;
                    int next[64], nn = 0;
                    if (final_rr || m == k) {
                        next[nn++] = alive[(int)arb_rng_below(&rng, (uint64_t)m)];
                    } else {
                        for (int i = 0; i < byes; i++)
                            next[nn++] = alive[i];
                        for (int i = 0; i < nt; i++) {
                            /* a random finishing order at each table */
                            int order[4];
                            memcpy(order, t[i].entrant, sizeof order);
                            for (int s = k - 1; s > 0; s--) {
                                int j = (int)arb_rng_below(&rng, (uint64_t)s + 1), x = order[s];
                                order[s] = order[j];
                                order[j] = x;
                            }
                            for (int p = 0; p < a; p++)
                                next[nn++] = order[p];
                        }
                        legal_counts &= nn == 1 || nn >= k;
                        /* seed order again */
                        for (int i = 1; i < nn; i++)
                            for (int j = i; j > 0 && next[j] < next[j - 1]; j--) {
                                int x = next[j];
                                next[j] = next[j - 1];
                                next[j - 1] = x;
                            }
                    }
                    memcpy(alive, next, (size_t)nn * sizeof *alive);
                    m = nn;
                    rounds++;
                }
                CHECKF(full && legal_counts && top_byes && once && m == 1,
                       "k=%d a=%d n=%d: full %d counts %d once %d champion %d", k, a, n, full, legal_counts, once, m == 1);
            }
}

/* Swiss: everyone placed once (byes aside), byes = n mod k and to those
 * who have not sat out, and no repeat meeting when none is forced. */
static void test_swiss(void)
{
    static store_table t[400];
    for (int n = 9; n <= 100; n += 7) {
        int order[100], played[100] = {0};
        met_set met = {0};
        for (int i = 0; i < n; i++)
            order[i] = i;
        bool ok_once = true, ok_repeat = true, ok_byes = true;
        int byes_had[100] = {0};
        for (int round = 1; round <= 4; round++) {
            int nt = plan__swiss_pair(n, 3, order, played, round, &met, t, 400);
            int seen[100] = {0};
            for (int i = 0; i < nt; i++)
                for (int s = 0; s < t[i].nslots; s++)
                    seen[t[i].entrant[s]]++;
            int byes = 0;
            for (int e = 0; e < n; e++) {
                ok_once &= seen[e] <= 1;
                if (!seen[e]) {
                    byes++;
                    byes_had[e]++;
                }
            }
            ok_byes &= byes == n % 3;
            if (round <= 2)
                for (int i = 0; i < nt; i++)
                    for (int x = 0; x < 3; x++)
                        for (int y = x + 1; y < 3; y++)
                            ok_repeat &= plan__met_count(&met, t[i].entrant[x], t[i].entrant[y]) == 0;
            for (int i = 0; i < nt; i++)
                for (int x = 0; x < 3; x++) {
                    played[t[i].entrant[x]]++;
                    for (int y = x + 1; y < 3; y++)
                        plan__met_add(&met, t[i].entrant[x], t[i].entrant[y]);
                }
            qsort(met.pair, met.n, sizeof *met.pair, plan__cmp_u64);
            /* new standings: reverse order, a crude but different ranking */
            for (int i = 0; i < n / 2; i++) {
                int x = order[i];
                order[i] = order[n - 1 - i];
                order[n - 1 - i] = x;
            }
        }
        int most = 0;
        for (int e = 0; e < n; e++)
            most = byes_had[e] > most ? byes_had[e] : most;
        CHECKF(ok_once && ok_byes && ok_repeat && most <= 1, "swiss n=%d: once %d byes %d no-repeat %d most-byes %d",
               n, ok_once, ok_byes, ok_repeat, most);
        free(met.pair);
    }
    /* a first round of 10,000 (the size `arbiter bench tournament` pairs):
     * 3,333 tables, one sitting out */
    static int big_order[10000], big_played[10000];
    static store_table big[3334];
    for (int i = 0; i < 10000; i++)
        big_order[i] = i;
    met_set none = {0};
    CHECK(plan__swiss_pair(10000, 3, big_order, big_played, 1, &none, big, 3334) == 3333);
}

/* plan_next is a function of the config and a record passed in as data:
 * a single elimination of nine played out from made-up results (the
 * first seated wins every table) ends with the winner of the final; the
 * same record gives the same round, another secret another draw. */
static void test_pure_knockout(void)
{
    tn_config c = make_cfg(9, 5);
    c.format = TN_SINGLE_ELIM;
    static store_table tables[64];
    static plan_round rounds[8];
    static store_table orders[8][64];
    plan_record rec = {.rounds = rounds};
    int nt = 0, champion = -1;
    const char *stage;
    bool done = false;
    for (int r = 1; r <= 8 && !done; r++) {
        int rc = plan_next(&c, &rec, tables, 64, &nt, &stage, &done, NULL, 0);
        CHECKF(rc == 0, "round %d: rc %d", r, rc);
        if (rc || done)
            break;
        int again = 0;
        static store_table twice[64];
        bool d2;
        CHECK(plan_next(&c, &rec, twice, 64, &again, &stage, &d2, NULL, 0) == 0 && again == nt
              && memcmp(twice, tables, (size_t)nt * sizeof *tables) == 0);
        memcpy(orders[r - 1], tables, (size_t)nt * sizeof *tables);   /* seat order = finishing order */
        rounds[r - 1] = (plan_round){.ntables = nt, .order = orders[r - 1]};
        rec.nrounds = r;
        if (nt == 1)
            champion = tables[0].entrant[0];
    }
    CHECKF(done && rec.nrounds == 2 && champion >= 0, "rounds %d, champion %d", rec.nrounds, champion);
    char draw[4096], want[64];
    plan_draw(&c, &rec, draw, sizeof draw);
    snprintf(want, sizeof want, "champion: e%d\n", champion);
    CHECKF(strstr(draw, want) != NULL, "draw:\n%s", draw);
    /* the first round's draw depends on the secret */
    plan_record none = {0}, keyed = {.has_secret = true};
    memset(keyed.secret, 7, sizeof keyed.secret);
    static store_table a[64], b[64];
    int na, nb;
    CHECK(plan_next(&c, &none, a, 64, &na, &stage, &done, NULL, 0) == 0
          && plan_next(&c, &keyed, b, 64, &nb, &stage, &done, NULL, 0) == 0 && na == nb
          && memcmp(a, b, (size_t)na * sizeof *a) != 0);
}

/* A game of fixed teams (seats 0+2 against 1+3): tables of two
 * partnerships are seated with partners opposite, every time, and each
 * partnership still sits both sides. */
static void test_partners(void)
{
    static tn_entrant e[8];
    const char *teams[8] = {"a", "b", "a", "c", "b", "d", "c", "d"};
    for (int i = 0; i < 8; i++) {
        memset(&e[i], 0, sizeof e[i]);
        snprintf(e[i].team, sizeof e[i].team, "%s", teams[i]);
    }
    /* every pair of partnerships meets, seated badly: partners side by side */
    static const int pairs[4][2] = {{0, 2}, {1, 4}, {3, 6}, {5, 7}};
    store_table t[12];
    int nt = 0;
    for (int x = 0; x < 4; x++)
        for (int y = x + 1; y < 4; y++, nt++)
            t[nt] = (store_table){4, {pairs[x][0], pairs[x][1], pairs[y][0], pairs[y][1]}};
    int seat_team[4] = {0, 1, 0, 1};
    plan__balance(t, nt, 8, 4, e, seat_team);
    bool opposite = true;
    int side0[8] = {0};
    for (int i = 0; i < nt; i++) {
        opposite = opposite && strcmp(e[t[i].entrant[0]].team, e[t[i].entrant[2]].team) == 0
                   && strcmp(e[t[i].entrant[1]].team, e[t[i].entrant[3]].team) == 0;
        side0[t[i].entrant[0]]++;
        side0[t[i].entrant[2]]++;
    }
    bool both_sides = true;
    for (int i = 0; i < 8; i++)
        both_sides = both_sides && side0[i] > 0 && side0[i] < 3;
    CHECK(opposite && both_sides);
    /* without fixed teams the same tables may split them (balance alone) */
    int before[4];
    memcpy(before, t[0].entrant, sizeof before);
    CHECK(plan__keeps_partners(e, seat_team, before, (int[]){0, 1, 2, 3}, 4)
          && !plan__keeps_partners(e, seat_team, before, (int[]){0, 2, 1, 3}, 4)
          && plan__keeps_partners(e, NULL, before, (int[]){0, 2, 1, 3}, 4));
    /* Dou Dizhu's teams are not fixed before the bidding */
    tn_config c = make_cfg(6, 1);
    int team[ARB_MAX_SEATS];
    CHECK(plan__seats_of(&c) == 3 && !plan__seat_teams(&c, 3, team));
}

/* Partnership play: n teams of two (Da Bang), each team the unit its
 * format pairs. A table of two teams becomes four seats, the partners
 * opposite (seats 0+2, 1+3). */
static tn_config make_teams(int n, uint64_t seed, tn_format format)
{
    static tn_entrant e[128];
    static tn_team t[64];
    tn_config c;
    memset(&c, 0, sizeof c);
    match_config_init(&c.match, &arb_game_dabang);
    snprintf(c.match.preset, sizeof c.match.preset, "standard");
    c.format = (uint8_t)format;
    c.cycles = 1;
    c.advance = 1;
    c.seed = seed;
    c.nentrants = 2 * n;
    c.entrants = e;
    c.nteams = n;
    c.teams = t;
    c.sides = 2;
    for (int i = 0; i < n; i++) {
        memset(&t[i], 0, sizeof t[i]);
        snprintf(t[i].name, sizeof t[i].name, "t%d", i);
        t[i].nmembers = 2;
        for (int m = 0; m < 2; m++) {
            t[i].member[m] = 2 * i + m;
            memset(&e[2 * i + m], 0, sizeof e[0]);
            snprintf(e[2 * i + m].name, sizeof e[0].name, "t%d-%d", i, m + 1);
            snprintf(e[2 * i + m].team, sizeof e[0].team, "t%d", i);
        }
    }
    return c;
}

/* The team of a seated table's side (seats s and s + 2), or -1 when the
 * partners there are not one team's two members. */
static int side_team(const tn_config *c, const store_table *t, int s)
{
    int a = t->entrant[s], b = t->entrant[s + 2];
    return a / 2 == b / 2 && a != b ? a / 2 : -1;
    (void)c;
}

/* Play a format of teams out, the winner of each table drawn from
 * `rng` (a fixed seed): returns the rounds; *champion from the draw.
 * Every table must seat two teams, partners opposite, and a team's
 * members take turns on its side's first seat. */
static int play_teams(tn_config *c, uint64_t seed, int *matches, int *losses, char *draw, size_t drawlen)
{
    static store_table tables[256];
    static plan_round rounds[64];
    static store_table orders[64][256];
    plan_record rec = {.rounds = rounds};
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    int nt = 0;
    const char *stage;
    bool done = false, seated = true;
    *matches = 0;
    memset(losses, 0, (size_t)c->nteams * sizeof *losses);
    for (int r = 1; r <= 64; r++) {
        int rc = plan_next(c, &rec, tables, 256, &nt, &stage, &done, NULL, 0);
        CHECKF(rc == 0, "round %d: rc %d", r, rc);
        if (rc || done)
            break;
        static store_table twice[256];
        int again = 0;
        bool d2;
        CHECK(plan_next(c, &rec, twice, 256, &again, &stage, &d2, NULL, 0) == 0 && again == nt
              && memcmp(twice, tables, (size_t)nt * sizeof *tables) == 0);
        for (int t = 0; t < nt; t++) {
            int a = side_team(c, &tables[t], 0), b = side_team(c, &tables[t], 1);
            seated = seated && tables[t].nslots == 4 && a >= 0 && b >= 0 && a != b;
            if (a < 0 || b < 0)
                continue;
            int w = arb_rng_below(&rng, 2) ? a : b;
            orders[r - 1][t] = (store_table){2, {w, w == a ? b : a}};
            losses[w == a ? b : a]++;
        }
        *matches += nt;
        rounds[r - 1] = (plan_round){.ntables = nt, .order = orders[r - 1]};
        rec.nrounds = r;
        /* standings: fewest losses first (Swiss reads them) */
        static store_standing st[64];
        for (int i = 0; i < c->nteams; i++)
            st[i] = (store_standing){.entrant = i, .points = -losses[i]};
        for (int i = 1; i < c->nteams; i++)
            for (int j = i; j > 0 && st[j].points > st[j - 1].points; j--) {
                store_standing x = st[j];
                st[j] = st[j - 1];
                st[j - 1] = x;
            }
        rec.standings = st;
        rec.nstandings = c->nteams;
    }
    CHECKF(seated, "a table that does not seat two teams, partners opposite");
    CHECK(done);
    plan_draw(c, &rec, draw, drawlen);
    return rec.nrounds;
}

/* Double elimination of teams, every field size from 2 to 24 and a few
 * seeds: 2n - 2 matches, or 2n - 1 with the reset; everyone but the
 * champion out after exactly two losses, the champion with at most one;
 * nobody plays after two losses; the bracket names the champion. */
static void test_double_elimination(void)
{
    static char draw[1 << 16];
    for (int n = 2; n <= 24; n++)
        for (uint64_t seed = 1; seed <= 6; seed++) {
            tn_config c = make_teams(n, seed, TN_DOUBLE_ELIM);
            int losses[64], matches;
            int rounds = play_teams(&c, seed * 1000 + (uint64_t)n, &matches, losses, draw, sizeof draw);
            int champions = 0, champion = -1, out = 0;
            for (int i = 0; i < n; i++) {
                if (losses[i] < 2) {
                    champions++;
                    champion = i;
                }
                out += losses[i] == 2;
            }
            CHECKF(champions == 1 && out == n - 1, "n=%d seed=%" PRIu64 ": %d left, %d out", n, seed, champions, out);
            CHECKF(matches == 2 * n - 2 + (champion >= 0 && losses[champion] == 1), "n=%d: %d matches", n, matches);
            char want[64];
            snprintf(want, sizeof want, "champion: t%d\n", champion);
            CHECKF(strstr(draw, want) && strstr(draw, "grand final"), "n=%d draw:\n%s", n, draw);
            CHECKF(rounds <= 2 * n, "n=%d: %d rounds", n, rounds);
            if (losses[champion] == 1 && n > 1)
                CHECKF(strstr(draw, "grand final reset") != NULL, "n=%d: the champion lost once, no reset:\n%s", n, draw);
        }
}

/* The seed's knockout of teams (single elimination, two teams a table),
 * and the other formats over teams: round robin is every pair once,
 * Swiss pairs teams without a repeat while it can. */
static void test_team_formats(void)
{
    static char draw[1 << 16];
    int losses[64], matches;
    tn_config c = make_teams(6, 3, TN_SINGLE_ELIM);
    int rounds = play_teams(&c, 11, &matches, losses, draw, sizeof draw);
    int alive = 0;
    for (int i = 0; i < 6; i++)
        alive += losses[i] == 0;
    CHECKF(rounds == 3 && matches == 5 && alive == 1 && strstr(draw, "champion: t"), "rounds %d matches %d:\n%s",
           rounds, matches, draw);
    c = make_teams(7, 3, TN_ROUND_ROBIN);
    rounds = play_teams(&c, 12, &matches, losses, draw, sizeof draw);
    CHECK(rounds == 1 && matches == 21);
    c = make_teams(8, 3, TN_SWISS);
    c.rounds = 3;
    rounds = play_teams(&c, 13, &matches, losses, draw, sizeof draw);
    CHECK(rounds == 3 && matches == 12);
    c = make_teams(5, 3, TN_GAUNTLET);
    snprintf(c.gauntlet, sizeof c.gauntlet, "t3");
    rounds = play_teams(&c, 14, &matches, losses, draw, sizeof draw);
    CHECK(rounds == 1 && matches == 4);
    /* sides balanced: over a round robin of 7 teams each sits each side 3 times */
    c = make_teams(7, 3, TN_ROUND_ROBIN);
    static store_table t[64];
    int nt;
    const char *stage;
    bool done;
    CHECK(plan_next(&c, NULL, t, 64, &nt, &stage, &done, NULL, 0) == 0 && nt == 21);
    int side0[7] = {0};
    for (int i = 0; i < nt; i++)
        side0[t[i].entrant[0] / 2]++;
    bool balanced = true;   /* the local search settles within one of the even split */
    for (int i = 0; i < 7; i++)
        balanced = balanced && side0[i] >= 2 && side0[i] <= 4;
    CHECKF(balanced, "sides: %d %d %d %d %d %d %d", side0[0], side0[1], side0[2], side0[3], side0[4], side0[5], side0[6]);
}

int main(void)
{
    test_double_elimination();
    test_team_formats();

    test_partners();
    test_pure_knockout();
    test_round_robin();
    test_knockout();
    test_swiss();
    return TEST_DONE("plan");
}
