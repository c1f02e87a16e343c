/* test_pairing.c — the tournament formats of scheduler/pairing.c on their
 * own: meetings counted exactly, seats balanced, brackets simulated to the
 * end with seeded random results, Swiss rounds checked against their rules,
 * everything reproducible from the seed. */
#include "pairing.h"
#include "arb_error.h"
#include "arb_rng.h"
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ----------------------------------------------------------- */

static bool table_ok(const pr_table *t, int k, int n)
{
    if (t->k != k)
        return false;
    for (int i = 0; i < k; i++) {
        if (t->seat[i] >= n)
            return false;
        for (int j = i + 1; j < k; j++)
            if (t->seat[i] == t->seat[j])
                return false;
    }
    return true;
}

/* Sorted seats packed base n: a key for the set of entrants at a table. */
static size_t subset_key(const int *e, int m, int n)
{
    int s[ARB_MAX_SEATS];
    memcpy(s, e, (size_t)m * sizeof *s);
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && s[j] < s[j - 1]; j--) {
            int x = s[j]; s[j] = s[j - 1]; s[j - 1] = x;
        }
    size_t key = 0;
    for (int i = 0; i < m; i++)
        key = key * (size_t)n + (size_t)s[i];
    return key;
}

static size_t ipow(size_t b, int e)
{
    size_t r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

/* Largest minus smallest seat count of any entrant. */
static uint32_t seat_spread(const uint32_t *count, int n, int k)
{
    uint32_t worst = 0;
    for (int e = 0; e < n; e++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int s = 0; s < k; s++) {
            uint32_t c = count[(size_t)e * k + s];
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        if (hi - lo > worst)
            worst = hi - lo;
    }
    return worst;
}

static void count_seats(const pr_table *t, size_t nt, int n, int k, uint32_t *count)
{
    memset(count, 0, (size_t)n * (size_t)k * sizeof *count);
    for (size_t i = 0; i < nt; i++)
        for (int s = 0; s < k; s++)
            count[(size_t)t[i].seat[s] * k + s]++;
}

/* A random finish order of a table's entrants. */
static void random_finish(arb_rng *rng, const pr_table *t, int *finish)
{
    for (int i = 0; i < t->k; i++)
        finish[i] = t->seat[i];
    for (int i = t->k; i > 1; i--) {
        int j = (int)arb_rng_below(rng, (uint64_t)i);
        int x = finish[i - 1]; finish[i - 1] = finish[j]; finish[j] = x;
    }
}

/* ---- round robin and gauntlet ------------------------------------------ */

static void check_all_tables(int n, int k, int hero, uint32_t cycles)
{
    size_t want = hero >= 0 ? pr_gauntlet_count(n, k, cycles) : pr_round_robin_count(n, k, cycles);
    pr_table *t = calloc(want + 1, sizeof *t);
    int got = hero >= 0 ? pr_gauntlet(n, k, hero, cycles, 42, t, want)
                        : pr_round_robin(n, k, cycles, 42, t, want);
    CHECKF(got == (int)want, "n=%d k=%d hero=%d cycles=%u: %d tables, want %zu", n, k, hero, cycles, got, want);
    if (got != (int)want) {
        free(t);
        return;
    }
    int m = hero >= 0 ? k - 1 : k;
    size_t keys = ipow((size_t)n, m);
    uint32_t *seen = calloc(keys, sizeof *seen);
    bool shape = true, hero_everywhere = true;
    for (int i = 0; i < got; i++) {
        shape = shape && table_ok(&t[i], k, n);
        int e[ARB_MAX_SEATS], c = 0, hero_seen = 0;
        for (int s = 0; s < k; s++) {
            if (t[i].seat[s] == hero)
                hero_seen++;
            else
                e[c++] = t[i].seat[s];
        }
        if (hero >= 0 && hero_seen != 1)
            hero_everywhere = false;
        if (c == m)
            seen[subset_key(e, m, n)]++;
    }
    CHECKF(shape, "n=%d k=%d: a table with a repeated or unknown entrant", n, k);
    CHECKF(hero_everywhere, "n=%d k=%d: the hero is missing from a table", n, k);
    /* every m-subset of the others exactly `cycles` times; with the total
     * equal to C * cycles, nothing else was made */
    bool exact = true;
    int idx[ARB_MAX_SEATS];
    int pool[256], np = 0;
    for (int i = 0; i < n; i++)
        if (i != hero)
            pool[np++] = i;
    for (int i = 0; i < m; i++)
        idx[i] = i;
    for (;;) {
        int e[ARB_MAX_SEATS];
        for (int i = 0; i < m; i++)
            e[i] = pool[idx[i]];
        if (seen[subset_key(e, m, n)] != cycles)
            exact = false;
        int i = m - 1;
        while (i >= 0 && idx[i] == np - m + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int j = i + 1; j < m; j++)
            idx[j] = idx[j - 1] + 1;
    }
    CHECKF(exact, "n=%d k=%d hero=%d cycles=%u: some table not met exactly cycles times", n, k, hero, cycles);
    uint32_t *count = calloc((size_t)n * (size_t)k, sizeof *count);
    count_seats(t, (size_t)got, n, k, count);
    uint32_t spread = seat_spread(count, n, k);
    CHECKF(spread <= 1, "n=%d k=%d hero=%d cycles=%u: seat counts differ by %u", n, k, hero, cycles, spread);
    if (cycles % (uint32_t)k == 0 && hero < 0)
        CHECKF(spread == 0, "n=%d k=%d cycles=%u: cycles a multiple of k, yet seats not equal", n, k, cycles);
    free(count);
    free(seen);
    free(t);
}

static void test_round_robin(void)
{
    static const int cases[][3] = {
        {2, 2, 1}, {3, 3, 1}, {4, 3, 1}, {5, 3, 2}, {6, 3, 3}, {7, 3, 1}, {8, 4, 1}, {9, 3, 3},
        {6, 4, 4}, {10, 2, 1}, {10, 2, 3}, {12, 3, 1}, {5, 2, 2}, {13, 3, 2}, {9, 4, 2}, {20, 3, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        check_all_tables(cases[c][0], cases[c][1], -1, (uint32_t)cases[c][2]);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        if (cases[c][0] > cases[c][1])
            check_all_tables(cases[c][0], cases[c][1], cases[c][0] / 2, (uint32_t)cases[c][2]);
    check_all_tables(4, 4, 0, 3);

    pr_table t[64];
    CHECK(pr_round_robin_count(6, 3, 2) == 40);
    CHECK(pr_gauntlet_count(6, 3, 2) == 20);
    CHECK(pr_round_robin_count(2, 3, 1) == 0);
    CHECK(pr_round_robin(6, 3, 2, 1, t, 39) == ARB_ENOSPC);
    CHECK(pr_round_robin(6, 3, 2, 1, t, 40) == 40);
    CHECK(pr_round_robin(2, 3, 1, 1, t, 64) == ARB_EINVAL);
    CHECK(pr_round_robin(6, 5, 1, 1, t, 64) == ARB_EINVAL);
    CHECK(pr_gauntlet(6, 3, 6, 1, 1, t, 64) == ARB_EINVAL);
    CHECK(pr_round_robin_count(PR_MAX_ENTRANTS, 4, UINT32_MAX) == SIZE_MAX);

    /* determinism: same seed, same tables; another seed, another order */
    size_t nt = pr_round_robin_count(9, 3, 2);
    pr_table *x = calloc(nt, sizeof *x), *y = calloc(nt, sizeof *y), *z = calloc(nt, sizeof *z);
    CHECK(pr_round_robin(9, 3, 2, 7, x, nt) == (int)nt);
    CHECK(pr_round_robin(9, 3, 2, 7, y, nt) == (int)nt);
    CHECK(pr_round_robin(9, 3, 2, 8, z, nt) == (int)nt);
    CHECK(memcmp(x, y, nt * sizeof *x) == 0);
    CHECK(memcmp(x, z, nt * sizeof *x) != 0);
    CHECK(pr_gauntlet(9, 3, 4, 2, 7, x, nt) > 0 && pr_gauntlet(9, 3, 4, 2, 7, y, nt) > 0);
    CHECK(memcmp(x, y, pr_gauntlet_count(9, 3, 2) * sizeof *x) == 0);
    free(x);
    free(y);
    free(z);
}

static void test_balance(void)
{
    /* counts carried over: the totals include every table */
    pr_table t[10];
    uint32_t count[8 * 4] = {0};
    for (int i = 0; i < 10; i++) {
        t[i] = (pr_table){ .k = 4 };
        for (int s = 0; s < 4; s++)
            t[i].seat[s] = (uint16_t)((i + s) % 8);
    }
    CHECK(pr_balance_seats(t, 10, 8, count) == 0);
    uint32_t sum = 0;
    for (int i = 0; i < 32; i++)
        sum += count[i];
    CHECK(sum == 40);
    CHECK(seat_spread(count, 8, 4) <= 1);
    CHECK(pr_balance_seats(t, 10, 8, count) == 0);   /* a second "round" */
    CHECK(seat_spread(count, 8, 4) <= 2);
    t[3].seat[0] = 9;
    CHECK(pr_balance_seats(t, 10, 8, count) == ARB_EINVAL);
    t[3].seat[0] = 1;
    t[3].k = 3;
    CHECK(pr_balance_seats(t, 10, 8, count) == ARB_EINVAL);
    CHECK(pr_balance_seats(t, 0, 8, count) == 0);
}

/* ---- knockout ---------------------------------------------------------- */

static void simulate_knockout(int n, int k, int a, uint64_t seed)
{
    /* half the field seeded (ranks scattered over the indices), half not */
    uint32_t *rank = calloc((size_t)n, sizeof *rank);
    for (int i = 0; i < n / 2; i++)
        rank[(i * 7 + 3) % n] = (uint32_t)i + 1;
    pr_bracket *b = NULL;
    int rc = pr_knockout_new(n, k, a, rank, seed, &b);
    if (n < k) {
        CHECKF(rc == ARB_EINVAL && !b, "n=%d k=%d: %d", n, k, rc);
        free(rank);
        return;
    }
    CHECKF(rc == 0, "n=%d k=%d a=%d: %s", n, k, a, arb_strerror(rc));
    if (rc != 0) {
        free(rank);
        return;
    }
    int *order = malloc((size_t)n * sizeof *order), *pos = malloc((size_t)n * sizeof *pos);
    pr_seed_order(n, rank, seed, "pairing/knockout", order);
    for (int i = 0; i < n; i++)
        pos[order[i]] = i;
    int R = pr_knockout_nrounds(b), d = k - a, f = k + (n - k) % d;
    arb_rng rng;
    arb_rng_seed(&rng, seed ^ 0x5eed);
    bool *alive = malloc((size_t)n * sizeof *alive);
    for (int i = 0; i < n; i++)
        alive[i] = true;
    int nalive = n, final_winner = -1, *points = calloc((size_t)n, sizeof *points);
    pr_table *t = calloc((size_t)n + 32, sizeof *t);
    int *byes = malloc((size_t)n * sizeof *byes);
    bool ok_cover = true, ok_byes = true, ok_apart = true, ok_full = true, ok_count = true, ok_tables = true;
    for (int r = 1; r <= R; r++) {
        CHECK(pr_knockout_current(b) == r);
        int nt = pr_knockout_round(b, r, t, (size_t)n + 32), nb = pr_knockout_byes(b, r, byes, (size_t)n);
        if (nt < 1 || nb < 0) {
            CHECKF(false, "n=%d k=%d a=%d round %d: %d tables, %d byes", n, k, a, r, nt, nb);
            break;
        }
        int *seen = calloc((size_t)n, sizeof *seen);
        for (int i = 0; i < nb; i++)
            seen[byes[i]]++;
        int worst_bye = -1, best_player = n;
        for (int i = 0; i < nb; i++)
            worst_bye = pos[byes[i]] > worst_bye ? pos[byes[i]] : worst_bye;
        for (int i = 0; i < nt; i++) {
            ok_tables = ok_tables && table_ok(&t[i], k, n);
            bool top1 = false, top2 = false;
            for (int s = 0; s < k; s++) {
                int e = t[i].seat[s];
                seen[e]++;
                best_player = pos[e] < best_player ? pos[e] : best_player;
                top1 = top1 || pos[e] == 0;
                top2 = top2 || pos[e] == 1;
            }
            if (top1 && top2 && r < R)
                ok_apart = false;
        }
        /* every entrant alive exactly once: at one table or on a bye (a
         * final round robin seats its entrants at several tables) */
        for (int e = 0; e < n; e++)
            if (r < R || f == k) {
                if (seen[e] != (alive[e] ? 1 : 0))
                    ok_cover = false;
            } else if (alive[e] != (seen[e] > 0)) {
                ok_cover = false;
            }
        free(seen);
        if (nb && worst_bye > best_player)
            ok_byes = false;
        if (r < R) {
            if (nt * k + nb != nalive)
                ok_count = false;
            if (a == 1 && r >= 2 && nb != 0)
                ok_full = false;
        } else {
            if (nalive != f || nb != 0)
                ok_count = false;
        }
        /* results random; every other round reported last table first */
        for (int ii = 0; ii < nt; ii++) {
            int i = r % 2 ? ii : nt - 1 - ii;
            int finish[ARB_MAX_SEATS];
            random_finish(&rng, &t[i], finish);
            if (ii == 0) {
                int bad[ARB_MAX_SEATS];
                memcpy(bad, finish, sizeof bad);
                bad[0] = bad[1];
                CHECK(pr_knockout_report(b, r, i, bad) == ARB_EINVAL);
                CHECK(pr_knockout_report(b, r + 1, i, finish) == ARB_ESTATE);
            }
            CHECK(pr_knockout_report(b, r, i, finish) == 0);
            if (ii == 0 && nt > 1)
                CHECK(pr_knockout_report(b, r, i, finish) == ARB_ESTATE);
            if (r == R) {
                for (int p = 0; p < k; p++)
                    points[finish[p]] += k - 1 - p;
                if (f == k)
                    final_winner = finish[0];
            } else {
                for (int p = a; p < k; p++) {
                    alive[finish[p]] = false;
                    nalive--;
                }
            }
        }
        if (r < R && a == 1 && r == 1) {
            /* after round 1 the bracket is full: f * k^(R-2) */
            if ((size_t)nalive != (size_t)f * ipow((size_t)k, R - 2))
                ok_full = false;
        }
    }
    CHECKF(ok_tables, "n=%d k=%d a=%d: a malformed table", n, k, a);
    CHECKF(ok_cover, "n=%d k=%d a=%d: tables not disjoint or someone missing", n, k, a);
    CHECKF(ok_byes, "n=%d k=%d a=%d: a bye to a worse seed than someone playing", n, k, a);
    CHECKF(ok_apart, "n=%d k=%d a=%d: the top two seeds met before the final", n, k, a);
    CHECKF(ok_full, "n=%d k=%d a=%d: byes after round 1 or bracket not full", n, k, a);
    CHECKF(ok_count, "n=%d k=%d a=%d: round sizes do not add up", n, k, a);
    int champ = pr_knockout_champion(b);
    CHECKF(champ >= 0 && pr_knockout_current(b) == R + 1, "n=%d k=%d a=%d: no champion", n, k, a);
    if (f == k) {
        CHECKF(champ == final_winner, "n=%d k=%d a=%d: champion %d, final won by %d", n, k, a, champ, final_winner);
    } else {
        bool top = champ >= 0;
        for (int e = 0; e < n && top; e++)
            top = points[e] <= points[champ];
        CHECKF(top, "n=%d k=%d a=%d: the round-robin final's champion lacks the most points", n, k, a);
    }
    /* every entrant placed exactly once; standings a permutation */
    int *st = malloc((size_t)n * sizeof *st), *inst = calloc((size_t)n, sizeof *inst);
    CHECK(pr_knockout_standings(b, st) == 0);
    bool placed = st[0] == champ, perm = true;
    int prev_round = R + 1;
    for (int i = 0; i < n; i++) {
        int rr, pl;
        if (pr_knockout_placement(b, st[i], &rr, &pl) != 0 || rr < 1 || rr > R)
            placed = false;
        else if (rr > prev_round)
            placed = false;
        else
            prev_round = rr;
        if (inst[st[i]]++)
            perm = false;
    }
    CHECKF(placed && perm, "n=%d k=%d a=%d: placements wrong", n, k, a);
    int rr, pl;
    CHECK(champ >= 0 && pr_knockout_placement(b, champ, &rr, &pl) == 0 && rr == R && pl == 0);
    /* the drawing names the champion; asking for the length works */
    char name[16];
    size_t need = pr_knockout_draw(b, NULL, NULL, 0);
    char *buf = malloc(need + 1);
    CHECK(pr_knockout_draw(b, NULL, buf, need + 1) == need && strlen(buf) == need);
    snprintf(name, sizeof name, "champion: #%d", champ);
    CHECK(strstr(buf, name) != NULL);
    char small[20];
    CHECK(pr_knockout_draw(b, NULL, small, sizeof small) == need && strlen(small) == sizeof small - 1);
    free(buf);
    free(st);
    free(inst);
    free(byes);
    free(t);
    free(points);
    free(alive);
    free(order);
    free(pos);
    free(rank);
    pr_knockout_free(b);
}

static void test_knockout(void)
{
    static const int ka[][2] = { {3, 1}, {3, 2}, {2, 1}, {4, 1}, {4, 2}, {4, 3} };
    for (size_t c = 0; c < sizeof ka / sizeof ka[0]; c++)
        for (int n = 2; n <= 40; n++)
            simulate_knockout(n, ka[c][0], ka[c][1], 1000 + (uint64_t)n);
    simulate_knockout(81, 3, 1, 5);
    simulate_knockout(64, 2, 1, 5);
    simulate_knockout(500, 3, 2, 5);

    pr_bracket *b = NULL;
    CHECK(pr_knockout_new(9, 3, 3, NULL, 1, &b) == ARB_EINVAL && !b);
    CHECK(pr_knockout_new(9, 5, 1, NULL, 1, &b) == ARB_EINVAL);
    /* 9 = 3^2 with a = 1: two rounds, no byes, seeds 1..3 at three tables */
    uint32_t rank[9] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
    CHECK(pr_knockout_new(9, 3, 1, rank, 1, &b) == 0);
    CHECK(pr_knockout_nrounds(b) == 2);
    pr_table t[3];
    int byes[9];
    CHECK(pr_knockout_round(b, 1, t, 3) == 3);
    CHECK(pr_knockout_round(b, 1, t, 2) == ARB_ENOSPC);
    CHECK(pr_knockout_round(b, 2, t, 3) == ARB_ESTATE);
    CHECK(pr_knockout_round(b, 3, t, 3) == ARB_ERANGE);
    CHECK(pr_knockout_byes(b, 1, byes, 9) == 0);
    CHECK(pr_knockout_champion(b) == ARB_ESTATE);
    int r0, p0;
    CHECK(pr_knockout_placement(b, 0, &r0, &p0) == ARB_ESTATE);
    /* serpentine: seeds 1,6,7 / 2,5,8 / 3,4,9 (entrants 8,3,2 / 7,4,1 / 6,5,0) */
    int want[3][3] = { {8, 3, 2}, {7, 4, 1}, {6, 5, 0} };
    bool serp = true;
    for (int i = 0; i < 3; i++)
        for (int e = 0; e < 3; e++) {
            bool at = false;
            for (int s = 0; s < 3; s++)
                at = at || t[i].seat[s] == want[i][e];
            serp = serp && at;
        }
    CHECK(serp);
    pr_knockout_free(b);
    /* 5 entrants, k = 3, a = 1: the top two seeds sit out round 1 */
    CHECK(pr_knockout_new(5, 3, 1, rank + 4, 1, &b) == 0);
    CHECK(pr_knockout_byes(b, 1, byes, 9) == 2 && byes[0] == 4 && byes[1] == 3);
    pr_knockout_free(b);
    /* 4 entrants, k = 3, a = 1: only a round-robin final can decide it */
    CHECK(pr_knockout_new(4, 3, 1, NULL, 1, &b) == 0);
    CHECK(pr_knockout_nrounds(b) == 1 && pr_knockout_round(b, 1, t, 3) == ARB_ENOSPC);
    pr_table t4[4];
    CHECK(pr_knockout_round(b, 1, t4, 4) == 4);
    pr_knockout_free(b);
}

/* ---- Swiss ------------------------------------------------------------- */

static int max_score(const pr_table *t, const int64_t *score)
{
    int64_t m = INT64_MIN;
    for (int s = 0; s < t->k; s++)
        m = score[t->seat[s]] > m ? score[t->seat[s]] : m;
    return (int)m;
}

static void simulate_swiss(int n, int k, int rounds, uint64_t seed)
{
    int64_t *score = calloc((size_t)n, sizeof *score);
    uint32_t *byes_had = calloc((size_t)n, sizeof *byes_had);
    uint32_t *seats = calloc((size_t)n * (size_t)k, sizeof *seats);
    pr_met *met = pr_met_new(n);
    pr_table *t = calloc((size_t)n / (size_t)k + 1, sizeof *t);
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    bool ok_shape = true, ok_byes = true, ok_order = true, ok_cover = true;
    int early_repeats = 0, all_repeats = 0, tables = 0, mixed = 0;
    for (int r = 1; r <= rounds; r++) {
        int byes[ARB_MAX_SEATS], nb = -1;
        int nt = pr_swiss(n, k, score, met, byes_had, (uint32_t)r, seed, t, (size_t)n / (size_t)k, byes, &nb);
        if (nt != n / k || nb != n % k) {
            CHECKF(false, "swiss n=%d round %d: %d tables, %d byes", n, r, nt, nb);
            break;
        }
        /* every entrant exactly once */
        int *seen = calloc((size_t)n, sizeof *seen);
        for (int i = 0; i < nt; i++) {
            ok_shape = ok_shape && table_ok(&t[i], k, n);
            for (int s = 0; s < k; s++)
                seen[t[i].seat[s]]++;
        }
        for (int i = 0; i < nb; i++)
            seen[byes[i]]++;
        for (int e = 0; e < n; e++)
            ok_cover = ok_cover && seen[e] == 1;
        free(seen);
        /* byes only to someone with the fewest byes so far */
        uint32_t fewest = UINT32_MAX;
        for (int e = 0; e < n; e++)
            fewest = byes_had[e] < fewest ? byes_had[e] : fewest;
        for (int i = 0; i < nb; i++)
            ok_byes = ok_byes && byes_had[byes[i]] == fewest;
        /* descending score order: each table's best at least anyone later */
        for (int i = 0; i + 1 < nt; i++)
            ok_order = ok_order && max_score(&t[i], score) >= max_score(&t[i + 1], score);
        /* repeats, in the rounds where everyone has met at most a third of
         * the field (so a repeat-free round surely exists) */
        int repeats = 0;
        for (int i = 0; i < nt; i++)
            for (int x = 0; x < k; x++)
                for (int y = x + 1; y < k; y++)
                    repeats += pr_met_count(met, t[i].seat[x], t[i].seat[y]) > 0;
        if ((r - 1) * (k - 1) * 3 <= n - 1)
            early_repeats += repeats;
        all_repeats += repeats;
        /* score groups: a table spanning more than one table won apart */
        for (int i = 0; i < nt; i++) {
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (int s = 0; s < k; s++) {
                lo = score[t[i].seat[s]] < lo ? score[t[i].seat[s]] : lo;
                hi = score[t[i].seat[s]] > hi ? score[t[i].seat[s]] : hi;
            }
            mixed += hi - lo > k - 1;
            tables++;
        }
        CHECK(pr_balance_seats(t, (size_t)nt, n, seats) == 0);
        for (int i = 0; i < nt; i++) {
            pr_met_add_table(met, &t[i]);
            int finish[ARB_MAX_SEATS];
            random_finish(&rng, &t[i], finish);
            for (int p = 0; p < k; p++)
                score[finish[p]] += k - 1 - p;
        }
        for (int i = 0; i < nb; i++) {
            byes_had[byes[i]]++;
            score[byes[i]] += k - 1;
        }
    }
    CHECKF(ok_shape && ok_cover, "swiss n=%d: a malformed round", n);
    CHECKF(ok_byes, "swiss n=%d: a second bye while someone had none", n);
    CHECKF(ok_order, "swiss n=%d: tables not in descending score order", n);
    /* Bounds measured on these seeded runs, with a margin: no repeat while
     * everyone has met at most a third of the field, none at all in 7
     * rounds from 30 entrants on (k = 3), and floaters (tables spanning
     * more than one table won) on at most 45% of the tables of a small
     * field, 15% from 30 entrants with k = 3. Seats: pr_balance_seats with
     * the running counts cannot move anyone to another table, and three
     * entrants short of the same seat sometimes meet: within 3, not 1. */
    CHECKF(early_repeats == 0, "swiss n=%d: %d repeat meetings in the early rounds", n, early_repeats);
    if (n >= 30 && k == 3)
        CHECKF(all_repeats == 0, "swiss n=%d: %d repeat meetings in %d rounds", n, all_repeats, rounds);
    CHECKF(mixed * 100 <= tables * (n >= 30 && k == 3 ? 15 : 45), "swiss n=%d: %d of %d tables mix score groups", n, mixed,
           tables);
    uint32_t spread = seat_spread(seats, n, k);
    CHECKF(spread <= 3, "swiss n=%d: seat counts differ by %u after %d rounds", n, spread, rounds);
    /* final standings: sorted by score, then Buchholz */
    int64_t *bh = calloc((size_t)n, sizeof *bh);
    int *order = malloc((size_t)n * sizeof *order);
    CHECK(pr_swiss_buchholz(met, n, score, bh) == 0);
    CHECK(pr_swiss_rank(n, score, bh, seed, order) == 0);
    bool sorted = true;
    for (int i = 0; i + 1 < n; i++) {
        int x = order[i], y = order[i + 1];
        sorted = sorted && (score[x] > score[y] || (score[x] == score[y] && bh[x] >= bh[y]));
    }
    CHECKF(sorted, "swiss n=%d: final standings out of order", n);
    free(bh);
    free(order);
    free(t);
    pr_met_free(met);
    free(seats);
    free(byes_had);
    free(score);
}

static void test_swiss(void)
{
    for (int n = 12; n <= 100; n++)
        simulate_swiss(n, 3, 7, 77 + (uint64_t)n);
    simulate_swiss(40, 4, 7, 3);
    simulate_swiss(30, 2, 9, 3);

    /* byes: the lowest ranked among those with the fewest */
    int64_t score[7] = { 5, 4, 3, 2, 1, 0, 6 };
    uint32_t had[7] = { 0, 0, 0, 0, 0, 1, 0 };
    pr_table t[3];
    int byes[3], nb;
    CHECK(pr_swiss(7, 3, score, NULL, had, 1, 1, t, 2, byes, &nb) == 2);
    CHECK(nb == 1 && byes[0] == 4);
    CHECK(t[0].seat[0] == 6 && t[0].seat[1] == 0 && t[0].seat[2] == 1);
    CHECK(pr_swiss(7, 3, score, NULL, had, 1, 1, t, 1, byes, &nb) == ARB_ENOSPC);
    CHECK(pr_swiss(2, 3, score, NULL, NULL, 1, 1, t, 0, byes, &nb) == 0 && nb == 2);
    /* a repeat is avoided by reaching down the ranking */
    pr_met *met = pr_met_new(7);
    pr_met_add(met, 6, 0);
    CHECK(pr_met_count(met, 0, 6) == 1 && pr_met_count(met, 1, 6) == 0 && pr_met_count(NULL, 0, 6) == 0);
    CHECK(pr_met_add(met, 3, 3) == ARB_EINVAL && pr_met_add(met, 3, 7) == ARB_EINVAL);
    CHECK(pr_swiss(7, 3, score, met, had, 1, 1, t, 2, byes, &nb) == 2);
    CHECK(t[0].seat[0] == 6 && t[0].seat[1] == 1 && t[0].seat[2] == 2);
    /* Buchholz: the sum of the opponents' scores */
    pr_met_add(met, 6, 1);
    pr_met_add(met, 6, 1);
    int64_t bh[7];
    CHECK(pr_swiss_buchholz(met, 7, score, bh) == 0);
    CHECK(bh[6] == 5 + 4 + 4 && bh[0] == 6 && bh[1] == 12 && bh[2] == 0);
    /* the met set grows past its first size and keeps its counts */
    pr_met *big = pr_met_new(1000);
    for (int i = 0; i < 999; i++)
        pr_met_add(big, i, i + 1);
    bool kept = true;
    for (int i = 0; i < 999; i++)
        kept = kept && pr_met_count(big, i + 1, i) == 1 && pr_met_count(big, i, (i + 2) % 1000) == 0;
    CHECK(kept);
    pr_met_free(big);
    pr_met_free(met);
    /* determinism */
    int64_t zero[30] = {0};
    pr_table a1[10], a2[10], a3[10];
    CHECK(pr_swiss(30, 3, zero, NULL, NULL, 1, 9, a1, 10, byes, &nb) == 10);
    CHECK(pr_swiss(30, 3, zero, NULL, NULL, 1, 9, a2, 10, byes, &nb) == 10);
    CHECK(pr_swiss(30, 3, zero, NULL, NULL, 2, 9, a3, 10, byes, &nb) == 10);
    CHECK(memcmp(a1, a2, sizeof a1) == 0 && memcmp(a1, a3, sizeof a1) != 0);
}

/* ---- double elimination ------------------------------------------------ */

static void simulate_double(int n, uint64_t seed)
{
    pr_double *d = NULL;
    CHECK(pr_double_new(n, 3, NULL, seed, &d) == ARB_EINVAL && !d);
    CHECK(pr_double_new(n, 2, NULL, seed, &d) == 0);
    if (!d)
        return;
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    pr_match *m = malloc((size_t)n * sizeof *m);
    int *losses = calloc((size_t)n, sizeof *losses);
    bool ok_disjoint = true, ok_reset = true, ok_alive = true;
    int gf_seen = 0, reset_seen = 0, gf_b_won = 0, last_id = -1, guard = 0;
    for (;;) {
        int nm = pr_double_next(d, m, (size_t)n);
        if (nm <= 0 || ++guard > 10 * n + 10)
            break;
        int *busy = calloc((size_t)n, sizeof *busy);
        for (int i = 0; i < nm; i++) {
            ok_disjoint = ok_disjoint && !busy[m[i].a]++ && !busy[m[i].b]++ && m[i].a != m[i].b;
            ok_alive = ok_alive && losses[m[i].a] < 2 && losses[m[i].b] < 2;
            CHECK((int)m[i].id > last_id);
        }
        free(busy);
        for (int i = 0; i < nm; i++)
            last_id = (int)m[i].id > last_id ? (int)m[i].id : last_id;
        CHECK(pr_double_report(d, 99999, m[0].a) == ARB_ENOTFOUND);
        CHECK(pr_double_report(d, m[0].id, n) == ARB_EINVAL);
        if (n > 2) {
            int other = 0;
            while (other == m[0].a || other == m[0].b)
                other++;
            CHECK(pr_double_report(d, m[0].id, other) == ARB_EINVAL);
        }
        for (int i = 0; i < nm; i++) {
            int w = arb_rng_below(&rng, 2) ? m[i].a : m[i].b;
            if (m[i].side == PR_GRAND_FINAL) {
                gf_seen++;
                gf_b_won = w == m[i].b;
            }
            if (m[i].side == PR_RESET) {
                reset_seen++;
                ok_reset = ok_reset && gf_b_won;
            }
            CHECK(pr_double_report(d, m[i].id, w) == 0);
            losses[w == m[i].a ? m[i].b : m[i].a]++;
        }
    }
    int champ = pr_double_champion(d);
    CHECKF(champ >= 0, "double n=%d: no champion", n);
    CHECKF(ok_disjoint && ok_alive, "double n=%d: a stage with an entrant twice or one out already", n);
    CHECKF(gf_seen == 1 && reset_seen == gf_b_won && ok_reset, "double n=%d: grand final %d, reset %d, b won %d", n,
           gf_seen, reset_seen, gf_b_won);
    bool twice = true;
    for (int e = 0; e < n; e++) {
        if (e == champ)
            twice = twice && losses[e] == (reset_seen ? 1 : 0) && pr_double_losses(d, e) == losses[e];
        else
            twice = twice && losses[e] == 2 && pr_double_losses(d, e) == 2;
    }
    CHECKF(twice, "double n=%d: not everyone but the champion lost exactly twice", n);
    int *st = malloc((size_t)n * sizeof *st);
    CHECK(pr_double_standings(d, st) == 0 && st[0] == champ);
    CHECK(pr_double_next(d, m, (size_t)n) == 0);
    free(st);
    free(losses);
    free(m);
    pr_double_free(d);
}

static void test_double(void)
{
    for (int n = 2; n <= 20; n++)
        for (uint64_t s = 1; s <= 6; s++)
            simulate_double(n, s * 31 + (uint64_t)n);
    simulate_double(100, 3);
    /* the reset, forced: the losers'-side finalist wins the first final */
    for (int bwins = 0; bwins < 2; bwins++) {
        pr_double *d = NULL;
        CHECK(pr_double_new(2, 2, NULL, 1, &d) == 0);
        pr_match m[2];
        CHECK(pr_double_next(d, m, 2) == 1 && m[0].side == PR_WINNERS);
        CHECK(pr_double_champion(d) == ARB_ESTATE);
        CHECK(pr_double_report(d, m[0].id, m[0].a) == 0);
        CHECK(pr_double_report(d, m[0].id, m[0].a) == ARB_ENOTFOUND);
        CHECK(pr_double_next(d, m, 2) == 1 && m[0].side == PR_GRAND_FINAL);
        int wa = m[0].a, lb = m[0].b;
        CHECK(pr_double_report(d, m[0].id, bwins ? lb : wa) == 0);
        if (bwins) {
            CHECK(pr_double_next(d, m, 2) == 1 && m[0].side == PR_RESET && m[0].a == wa && m[0].b == lb);
            CHECK(pr_double_report(d, m[0].id, lb) == 0);
        } else {
            CHECK(pr_double_next(d, m, 2) == 0);
        }
        CHECK(pr_double_champion(d) == (bwins ? lb : wa));
        pr_double_free(d);
    }
}

/* ---- groups ------------------------------------------------------------ */

static void test_groups(void)
{
    int g[16];
    uint32_t rank[16];
    for (int i = 0; i < 16; i++)
        rank[i] = (uint32_t)i + 1;
    CHECK(pr_groups(16, 4, rank, 1, g) == 0);
    CHECK(g[0] == 0 && g[3] == 3 && g[4] == 3 && g[7] == 0 && g[8] == 0 && g[15] == 0 && g[12] == 3);
    int size[4] = {0};
    for (int i = 0; i < 16; i++)
        size[g[i]]++;
    CHECK(size[0] == 4 && size[1] == 4 && size[2] == 4 && size[3] == 4);
    CHECK(pr_groups(16, 17, rank, 1, g) == ARB_EINVAL);
    int g2[16];
    CHECK(pr_groups(16, 4, NULL, 1, g) == 0 && pr_groups(16, 4, NULL, 1, g2) == 0);
    CHECK(memcmp(g, g2, sizeof g) == 0);

    /* 10 entrants, 3 groups; standing = index order; best 2 of each go on */
    CHECK(pr_groups(10, 3, NULL, 5, g) == 0);
    int standing[10], ent[6];
    uint32_t sr[6];
    for (int i = 0; i < 10; i++)
        standing[i] = i;
    CHECK(pr_groups_advance(10, 3, g, standing, 2, ent, sr) == 6);
    bool tiers = true;
    int wins[3] = {-1, -1, -1};
    for (int i = 0; i < 10; i++)
        if (wins[g[i]] < 0)
            wins[g[i]] = i;
    for (int i = 0; i < 3; i++)
        tiers = tiers && g[ent[i]] != g[ent[(i + 1) % 3]] && wins[g[ent[i]]] == ent[i] && sr[i] == (uint32_t)i + 1;
    for (int i = 3; i < 6; i++)
        tiers = tiers && wins[g[ent[i]]] != ent[i] && sr[i] == (uint32_t)i + 1;
    CHECK(tiers);
    standing[3] = 2;
    CHECK(pr_groups_advance(10, 3, g, standing, 2, ent, sr) == ARB_EINVAL);
    /* and a knockout of those six runs */
    for (int i = 0; i < 10; i++)
        standing[i] = i;
    pr_bracket *b = NULL;
    CHECK(pr_knockout_new(6, 2, 1, sr, 5, &b) == 0);
    pr_knockout_free(b);
}

int main(void)
{
    test_balance();
    test_round_robin();
    test_knockout();
    test_swiss();
    test_double();
    test_groups();
    return TEST_DONE("pairing");
}
