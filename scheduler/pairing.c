/* pairing.c — tournament formats as pure functions of their arguments and the
 * tournament seed (pairing.h): seat balancing, round robin, gauntlet, Swiss,
 * knockout, double elimination, groups. */
#include "pairing.h"
#include "arb_error.h"
#include "arb_rng.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ----------------------------------------------------- */

static void shuffle_tables(pr_table *t, size_t nt, uint64_t seed, const char *label)
{
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(seed, label));
    for (size_t i = nt; i > 1; i--) {
        size_t j = (size_t)arb_rng_below(&rng, i);
        pr_table x = t[i - 1];
        t[i - 1] = t[j];
        t[j] = x;
    }
}

/* C(n, k), saturating at SIZE_MAX. Multiplying before dividing stays exact
 * (each prefix product is itself a binomial times i!/...); the 128-bit
 * intermediate keeps it from overflowing for every n <= PR_MAX_ENTRANTS. */
static size_t binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    __extension__ typedef unsigned __int128 u128;
    u128 c = 1;
    for (int i = 1; i <= k; i++) {
        c = c * (u128)(n - k + i) / (u128)i;
        if (c > SIZE_MAX)
            return SIZE_MAX;
    }
    return (size_t)c;
}

static size_t sat_mul(size_t a, size_t b)
{
    if (a && b > SIZE_MAX / a)
        return SIZE_MAX;
    return a * b;
}

/* All permutations of 0..k-1 in lexicographic order (identity first);
 * returns how many (k! <= 24). */
static int permutations(int k, uint8_t perms[24][ARB_MAX_SEATS])
{
    uint8_t p[ARB_MAX_SEATS];
    int np = 0;
    for (int i = 0; i < k; i++)
        p[i] = (uint8_t)i;
    for (;;) {
        memcpy(perms[np++], p, sizeof p);
        int i = k - 2;
        while (i >= 0 && p[i] > p[i + 1])
            i--;
        if (i < 0)
            return np;
        int j = k - 1;
        while (p[j] < p[i])
            j--;
        uint8_t x = p[i]; p[i] = p[j]; p[j] = x;
        for (int lo = i + 1, hi = k - 1; lo < hi; lo++, hi--) {
            x = p[lo]; p[lo] = p[hi]; p[hi] = x;
        }
    }
}

/* ---- seat balancing ---------------------------------------------------- */

typedef struct balancer {
    pr_table *t;
    int k;
    uint32_t *count;        /* n*k */
    size_t *off;            /* n+1: entrant e's tables are tab[off[e]..off[e+1]) */
    size_t *tab;
    uint32_t *stamp;        /* per table: the walk that last visited it */
    size_t *path;
    uint32_t walk;
} balancer;

/* One Kempe repair for entrant v, which sits seat a at least twice more
 * than seat b: follow v's a-seat table to its b-seat entrant w; if w has
 * more b than a, swapping a and b along the path moves one of v's a seats
 * to b and one of w's b seats to a, everyone in between keeping their
 * counts (they are entered on a b seat and left on an a seat). Otherwise
 * continue from w along an a-seat table not yet on the path. Returns
 * whether it flipped; false when no unvisited a-seat table is left (only
 * possible with counts from earlier rounds). */
static bool kempe(balancer *bl, int v, int a, int b)
{
    int k = bl->k;
    size_t len = 0;
    int cur = v;
    bl->walk++;
    for (;;) {
        size_t found = SIZE_MAX;
        for (size_t i = bl->off[cur]; i < bl->off[cur + 1]; i++) {
            size_t t = bl->tab[i];
            if (bl->t[t].seat[a] == cur && bl->stamp[t] != bl->walk) {
                found = t;
                break;
            }
        }
        if (found == SIZE_MAX)
            return false;
        bl->stamp[found] = bl->walk;
        bl->path[len++] = found;
        int w = bl->t[found].seat[b];
        if (w != v && bl->count[(size_t)w * k + b] > bl->count[(size_t)w * k + a]) {
            for (size_t i = 0; i < len; i++) {
                pr_table *t = &bl->t[bl->path[i]];
                uint16_t x = t->seat[a];
                t->seat[a] = t->seat[b];
                t->seat[b] = x;
            }
            bl->count[(size_t)v * k + a]--;
            bl->count[(size_t)v * k + b]++;
            bl->count[(size_t)w * k + a]++;
            bl->count[(size_t)w * k + b]--;
            return true;
        }
        cur = w;
    }
}

int pr_balance_seats(pr_table *t, size_t nt, int n, uint32_t *seat_count)
{
    if (nt == 0)
        return 0;
    if (!t || !seat_count || n < 1 || n > PR_MAX_ENTRANTS)
        return ARB_EINVAL;
    int k = t[0].k;
    if (k < 2 || k > ARB_MAX_SEATS)
        return ARB_EINVAL;
    for (size_t i = 0; i < nt; i++) {
        if (t[i].k != k)
            return ARB_EINVAL;
        for (int s = 0; s < k; s++)
            if (t[i].seat[s] >= n)
                return ARB_EINVAL;
    }
    uint8_t perms[24][ARB_MAX_SEATS];
    int np = permutations(k, perms);
    /* Greedy, per table: the permutation whose worst entrant (largest
     * max - min of its seat counts once seated) is best, then the smallest
     * sum of squared excesses (an entrant's count on a seat minus its count
     * on its least-used seat). A plain sum of counts, the obvious choice,
     * let Swiss rounds drift to spreads of 3: it is the same for every
     * permutation once each entrant's own minimum is taken out. */
    for (size_t i = 0; i < nt; i++) {
        uint16_t e[ARB_MAX_SEATS];
        uint32_t least[ARB_MAX_SEATS];
        memcpy(e, t[i].seat, sizeof e);
        for (int x = 0; x < k; x++) {
            const uint32_t *c = seat_count + (size_t)e[x] * k;
            least[x] = c[0];
            for (int s = 1; s < k; s++)
                least[x] = c[s] < least[x] ? c[s] : least[x];
        }
        int best = 0;
        uint64_t best_cost = UINT64_MAX;
        for (int q = 0; q < np; q++) {
            uint64_t cost = 0, worst = 0;
            for (int s = 0; s < k; s++) {
                int x = perms[q][s];
                const uint32_t *c = seat_count + (size_t)e[x] * k;
                uint64_t excess = c[s] - least[x];
                cost += excess * excess;
                /* the entrant's spread once seated: max - min of its counts */
                uint32_t hi = c[s] + 1, lo = UINT32_MAX;
                for (int z = 0; z < k; z++) {
                    uint32_t v = c[z] + (z == s);
                    hi = v > hi ? v : hi;
                    lo = v < lo ? v : lo;
                }
                worst = hi - lo > worst ? hi - lo : worst;
            }
            cost += worst << 32;
            if (cost < best_cost) {
                best_cost = cost;
                best = q;
            }
        }
        for (int s = 0; s < k; s++) {
            t[i].seat[s] = e[perms[best][s]];
            seat_count[(size_t)t[i].seat[s] * k + s]++;
        }
    }

    balancer bl = { .t = t, .k = k, .count = seat_count };
    int rc = 0;
    bl.off = calloc((size_t)n + 1, sizeof *bl.off);
    bl.tab = malloc(nt * (size_t)k * sizeof *bl.tab);
    bl.stamp = calloc(nt, sizeof *bl.stamp);
    bl.path = malloc(nt * sizeof *bl.path);
    if (!bl.off || !bl.tab || !bl.stamp || !bl.path) {
        rc = ARB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < nt; i++)
        for (int s = 0; s < k; s++)
            bl.off[t[i].seat[s] + 1]++;
    for (int e = 0; e < n; e++)
        bl.off[e + 1] += bl.off[e];
    /* fill each entrant's list, walking off[] up, then shift it back */
    for (size_t i = 0; i < nt; i++)
        for (int s = 0; s < k; s++) {
            int e = t[i].seat[s];
            bl.tab[bl.off[e]++] = i;
        }
    for (int e = n; e > 0; e--)
        bl.off[e] = bl.off[e - 1];
    bl.off[0] = 0;
    /* Every flip lowers the sum of squared counts, so this ends. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int v = 0; v < n; v++)
            for (int a = 0; a < k; a++)
                for (int b = 0; b < k; b++) {
                    if (a == b)
                        continue;
                    while (seat_count[(size_t)v * k + a] >= seat_count[(size_t)v * k + b] + 2) {
                        if (!kempe(&bl, v, a, b))
                            break;
                        changed = true;
                    }
                }
    }
out:
    free(bl.off);
    free(bl.tab);
    free(bl.stamp);
    free(bl.path);
    return rc;
}

/* ---- round robin and gauntlet ------------------------------------------ */

/* Every m-subset of pool[0..np) in lexicographic order, each `cycles` times,
 * with `hero` (if >= 0) in front; written to out (room checked by caller). */
static size_t subsets(const int *pool, int np, int m, int hero, uint32_t cycles, pr_table *out)
{
    int idx[ARB_MAX_SEATS];
    size_t count = 0;
    int k = m + (hero >= 0);
    for (int i = 0; i < m; i++)
        idx[i] = i;
    if (m > np)
        return 0;
    for (;;) {
        pr_table tb;
        memset(&tb, 0, sizeof tb);
        tb.k = (uint8_t)k;
        int s = 0;
        if (hero >= 0)
            tb.seat[s++] = (uint16_t)hero;
        for (int i = 0; i < m; i++)
            tb.seat[s++] = (uint16_t)pool[idx[i]];
        for (uint32_t c = 0; c < cycles; c++)
            out[count++] = tb;
        int i = m - 1;
        while (i >= 0 && idx[i] == np - m + i)
            i--;
        if (i < 0)
            return count;
        idx[i]++;
        for (int j = i + 1; j < m; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

size_t pr_round_robin_count(int n, int k, uint32_t cycles)
{
    if (k < 2 || k > ARB_MAX_SEATS || n < k || n > PR_MAX_ENTRANTS || cycles < 1)
        return 0;
    return sat_mul(binomial(n, k), cycles);
}

size_t pr_gauntlet_count(int n, int k, uint32_t cycles)
{
    if (k < 2 || k > ARB_MAX_SEATS || n < k || n > PR_MAX_ENTRANTS || cycles < 1)
        return 0;
    return sat_mul(binomial(n - 1, k - 1), cycles);
}

static int all_tables(int n, int k, int hero, uint32_t cycles, uint64_t seed, const char *label,
                      pr_table *out, size_t cap)
{
    size_t count = hero >= 0 ? pr_gauntlet_count(n, k, cycles) : pr_round_robin_count(n, k, cycles);
    if (count == 0 || (cap && !out))
        return ARB_EINVAL;
    if (count > INT_MAX)
        return ARB_ERANGE;
    if (count > cap)
        return ARB_ENOSPC;
    int *pool = malloc((size_t)n * sizeof *pool);
    uint32_t *counts = calloc((size_t)n * (size_t)k, sizeof *counts);
    int rc = ARB_ENOMEM;
    if (!pool || !counts)
        goto out;
    int np = 0;
    for (int i = 0; i < n; i++)
        if (i != hero)
            pool[np++] = i;
    subsets(pool, np, hero >= 0 ? k - 1 : k, hero, cycles, out);
    shuffle_tables(out, count, seed, label);
    rc = pr_balance_seats(out, count, n, counts);
    if (rc == 0)
        rc = (int)count;
out:
    free(pool);
    free(counts);
    return rc;
}

int pr_round_robin(int n, int k, uint32_t cycles, uint64_t seed, pr_table *out, size_t cap)
{
    return all_tables(n, k, -1, cycles, seed, "pairing/round-robin", out, cap);
}

int pr_gauntlet(int n, int k, int hero, uint32_t cycles, uint64_t seed, pr_table *out, size_t cap)
{
    if (hero < 0 || hero >= n)
        return ARB_EINVAL;
    return all_tables(n, k, hero, cycles, seed, "pairing/gauntlet", out, cap);
}

/* ---- meetings ---------------------------------------------------------- */

/* Open addressing, linear probing, kept at most half full. key 0 = empty;
 * a pair (lo, hi) is stored as lo << 32 | hi, plus 1. */
struct pr_met {
    int n;
    size_t cap, used;
    uint64_t *key;
    uint32_t *count;
};

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t pair_key(int a, int b)
{
    uint64_t lo = (uint64_t)(a < b ? a : b), hi = (uint64_t)(a < b ? b : a);
    return (lo << 32 | hi) + 1;
}

pr_met *pr_met_new(int n)
{
    if (n < 1 || n > PR_MAX_ENTRANTS)
        return NULL;
    pr_met *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n = n;
    m->cap = 64;
    m->key = calloc(m->cap, sizeof *m->key);
    m->count = calloc(m->cap, sizeof *m->count);
    if (!m->key || !m->count) {
        pr_met_free(m);
        return NULL;
    }
    return m;
}

void pr_met_free(pr_met *m)
{
    if (!m)
        return;
    free(m->key);
    free(m->count);
    free(m);
}

static size_t met_slot(const pr_met *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = (size_t)mix64(key) & mask;
    while (m->key[i] && m->key[i] != key)
        i = (i + 1) & mask;
    return i;
}

static int met_grow(pr_met *m)
{
    size_t ncap = m->cap * 2;
    pr_met bigger = { .n = m->n, .cap = ncap };
    bigger.key = calloc(ncap, sizeof *bigger.key);
    bigger.count = calloc(ncap, sizeof *bigger.count);
    if (!bigger.key || !bigger.count) {
        free(bigger.key);
        free(bigger.count);
        return ARB_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i]) {
            size_t j = met_slot(&bigger, m->key[i]);
            bigger.key[j] = m->key[i];
            bigger.count[j] = m->count[i];
        }
    free(m->key);
    free(m->count);
    m->key = bigger.key;
    m->count = bigger.count;
    m->cap = ncap;
    return 0;
}

int pr_met_add(pr_met *m, int a, int b)
{
    if (!m || a == b || a < 0 || b < 0 || a >= m->n || b >= m->n)
        return ARB_EINVAL;
    if (2 * (m->used + 1) > m->cap && met_grow(m) != 0)
        return ARB_ENOMEM;
    uint64_t key = pair_key(a, b);
    size_t i = met_slot(m, key);
    if (!m->key[i]) {
        m->key[i] = key;
        m->used++;
    }
    if (m->count[i] < UINT32_MAX)
        m->count[i]++;
    return 0;
}

int pr_met_add_table(pr_met *m, const pr_table *t)
{
    if (!m || !t || t->k > ARB_MAX_SEATS)
        return ARB_EINVAL;
    for (int i = 0; i < t->k; i++)
        for (int j = i + 1; j < t->k; j++) {
            int rc = pr_met_add(m, t->seat[i], t->seat[j]);
            if (rc != 0)
                return rc;
        }
    return 0;
}

uint32_t pr_met_count(const pr_met *m, int a, int b)
{
    if (!m || a == b || a < 0 || b < 0 || a >= m->n || b >= m->n)
        return 0;
    size_t i = met_slot(m, pair_key(a, b));
    return m->key[i] ? m->count[i] : 0;
}

/* ---- Swiss ------------------------------------------------------------- */

typedef struct ranked {
    int64_t score, tie;     /* higher first */
    uint64_t draw;          /* lower first */
    int idx;
} ranked;

static int cmp_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->tie != b->tie)
        return a->tie > b->tie ? -1 : 1;
    if (a->draw != b->draw)
        return a->draw < b->draw ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Sorts entrants by score (desc), tie (desc), a draw from rng. */
static int rank_entrants(int n, const int64_t *score, const int64_t *tie, arb_rng *rng, int *order)
{
    ranked *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return ARB_ENOMEM;
    for (int i = 0; i < n; i++) {
        r[i].score = score ? score[i] : 0;
        r[i].tie = tie ? tie[i] : 0;
        r[i].draw = arb_rng_next(rng);
        r[i].idx = i;
    }
    qsort(r, (size_t)n, sizeof *r, cmp_ranked);
    for (int i = 0; i < n; i++)
        order[i] = r[i].idx;
    free(r);
    return 0;
}

/* Repeat meetings at a table: the sum over its pairs of earlier meetings. */
static uint64_t table_cost(const pr_table *t, const pr_met *met)
{
    uint64_t c = 0;
    for (int i = 0; i < t->k; i++)
        for (int j = i + 1; j < t->k; j++)
            c += pr_met_count(met, t->seat[i], t->seat[j]);
    return c;
}

/* Highest minus lowest score at a table. */
static int64_t table_spread(const pr_table *t, const int64_t *score)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < t->k; i++) {
        int64_t v = score[t->seat[i]];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return hi - lo;
}

/* Repair: the greedy alone leaves repeats at the bottom, where the last
 * entrants have no choice left, and in the lowest score group, whose
 * members have mostly played each other already. For each table with a
 * repeat, take the swap of two entrants (with a table at most
 * PR_SWISS_SPAN away) that removes the most repeats, and among those the
 * one that widens the two tables' score spreads least — as in FIDE's
 * rules, avoiding a repeat outranks keeping score groups, which is why an
 * entrant may "float" to another group. */
static void swiss_repair(pr_table *t, int nt, const int64_t *score, const pr_met *met)
{
    int k = nt ? t[0].k : 0;
    for (int pass = 0; pass < PR_SWISS_PASSES; pass++) {
        bool improved = false;
        for (int x = 0; x < nt; x++) {
            uint64_t cx = table_cost(&t[x], met);
            if (cx == 0)
                continue;
            int64_t sx = table_spread(&t[x], score);
            int lo = x - PR_SWISS_SPAN < 0 ? 0 : x - PR_SWISS_SPAN;
            int hi = x + PR_SWISS_SPAN >= nt ? nt - 1 : x + PR_SWISS_SPAN;
            int by = -1, bi = 0, bj = 0;
            uint64_t best_gain = 0;
            int64_t best_widen = INT64_MAX;
            for (int y = lo; y <= hi; y++) {
                if (y == x)
                    continue;
                uint64_t cy = table_cost(&t[y], met);
                int64_t sy = table_spread(&t[y], score);
                for (int i = 0; i < k; i++)
                    for (int j = 0; j < k; j++) {
                        uint16_t ex = t[x].seat[i], ey = t[y].seat[j];
                        t[x].seat[i] = ey;
                        t[y].seat[j] = ex;
                        uint64_t after = table_cost(&t[x], met) + table_cost(&t[y], met);
                        if (after < cx + cy) {
                            uint64_t gain = cx + cy - after;
                            int64_t widen = table_spread(&t[x], score) + table_spread(&t[y], score) - sx - sy;
                            if (gain > best_gain || (gain == best_gain && widen < best_widen)) {
                                best_gain = gain;
                                best_widen = widen;
                                by = y;
                                bi = i;
                                bj = j;
                            }
                        }
                        t[x].seat[i] = ex;
                        t[y].seat[j] = ey;
                    }
            }
            if (by >= 0) {
                uint16_t ex = t[x].seat[bi];
                t[x].seat[bi] = t[by].seat[bj];
                t[by].seat[bj] = ex;
                improved = true;
            }
        }
        if (!improved)
            break;
    }
}

typedef struct table_key {
    int best;       /* rank of the table's best-ranked entrant */
    pr_table t;
} table_key;

static int cmp_table_key(const void *x, const void *y)
{
    const table_key *a = x, *b = y;
    return (a->best > b->best) - (a->best < b->best);
}

/* Seats in rank order, tables by their best-ranked entrant: so the best
 * at each table scores at least as much as anyone at a later table. */
static int swiss_sort(pr_table *t, int nt, int n, const int *order)
{
    int *rank = malloc((size_t)n * sizeof *rank);
    table_key *keys = malloc((size_t)(nt ? nt : 1) * sizeof *keys);
    if (!rank || !keys) {
        free(rank);
        free(keys);
        return ARB_ENOMEM;
    }
    for (int i = 0; i < n; i++)
        rank[order[i]] = i;
    for (int x = 0; x < nt; x++) {
        pr_table *tb = &t[x];
        for (int i = 1; i < tb->k; i++)
            for (int j = i; j > 0 && rank[tb->seat[j]] < rank[tb->seat[j - 1]]; j--) {
                uint16_t e = tb->seat[j];
                tb->seat[j] = tb->seat[j - 1];
                tb->seat[j - 1] = e;
            }
        keys[x] = (table_key){ rank[tb->seat[0]], *tb };
    }
    qsort(keys, (size_t)nt, sizeof *keys, cmp_table_key);     /* bests are distinct */
    for (int x = 0; x < nt; x++)
        t[x] = keys[x].t;
    free(rank);
    free(keys);
    return 0;
}

int pr_swiss(int n, int k, const int64_t *score, const pr_met *met, const uint32_t *bye_count,
             uint32_t round, uint64_t seed, pr_table *out, size_t cap, int *byes, int *nbyes)
{
    if (n < 1 || n > PR_MAX_ENTRANTS || k < 2 || k > ARB_MAX_SEATS || !score || !byes || !nbyes)
        return ARB_EINVAL;
    if (met && met->n != n)
        return ARB_EINVAL;
    int nt = n / k, r = n % k;
    if ((size_t)nt > cap || (nt && !out))
        return ARB_ENOSPC;
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_childn(seed, "pairing/swiss", round));
    int *order = malloc((size_t)n * sizeof *order);
    uint8_t *seated = calloc((size_t)n, 1);
    int rc = ARB_ENOMEM;
    if (!order || !seated)
        goto out;
    rc = rank_entrants(n, score, NULL, &rng, order);
    if (rc != 0)
        goto out;

    /* Byes: fewest so far, then lowest ranked — scan from the bottom. */
    *nbyes = 0;
    for (int b = 0; b < r; b++) {
        int pick = -1;
        for (int i = n - 1; i >= 0; i--) {
            int e = order[i];
            if (seated[e])
                continue;
            if (pick < 0 || (bye_count ? bye_count[e] : 0) < (bye_count ? bye_count[pick] : 0))
                pick = e;
        }
        seated[pick] = 1;
        byes[(*nbyes)++] = pick;
    }

    /* Tables from the top: leader, then the least-repeating of a window. */
    int first = 0;      /* first position in order[] possibly unseated */
    for (int t = 0; t < nt; t++) {
        while (seated[order[first]])
            first++;
        pr_table *tb = &out[t];
        memset(tb, 0, sizeof *tb);
        tb->k = (uint8_t)k;
        tb->seat[0] = (uint16_t)order[first];
        seated[order[first]] = 1;
        for (int s = 1; s < k; s++) {
            int best = -1, seen = 0;
            uint64_t best_cost = UINT64_MAX;
            for (int i = first + 1; i < n && seen < PR_SWISS_WINDOW; i++) {
                int e = order[i];
                if (seated[e])
                    continue;
                seen++;
                uint64_t c = 0;
                for (int q = 0; q < s; q++)
                    c += pr_met_count(met, e, tb->seat[q]);
                if (c < best_cost) {
                    best_cost = c;
                    best = e;
                    if (c == 0)
                        break;
                }
            }
            tb->seat[s] = (uint16_t)best;
            seated[best] = 1;
        }
    }
    if (met) {
        swiss_repair(out, nt, score, met);
        rc = swiss_sort(out, nt, n, order);
        if (rc != 0)
            goto out;
    }
    rc = nt;
out:
    free(order);
    free(seated);
    return rc;
}

int pr_swiss_buchholz(const pr_met *met, int n, const int64_t *score, int64_t *out)
{
    if (n < 1 || !score || !out || (met && met->n != n))
        return ARB_EINVAL;
    memset(out, 0, (size_t)n * sizeof *out);
    if (!met)
        return 0;
    for (size_t i = 0; i < met->cap; i++) {
        if (!met->key[i])
            continue;
        uint64_t key = met->key[i] - 1;
        int lo = (int)(key >> 32), hi = (int)(key & 0xffffffffu);
        out[lo] += (int64_t)met->count[i] * score[hi];
        out[hi] += (int64_t)met->count[i] * score[lo];
    }
    return 0;
}

int pr_swiss_rank(int n, const int64_t *score, const int64_t *buchholz, uint64_t seed, int *order)
{
    if (n < 1 || n > PR_MAX_ENTRANTS || !score || !order)
        return ARB_EINVAL;
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(seed, "pairing/swiss-rank"));
    return rank_entrants(n, score, buchholz, &rng, order);
}

/* ---- seed order -------------------------------------------------------- */

int pr_seed_order(int n, const uint32_t *seeding_rank, uint64_t seed, const char *label, int *order)
{
    if (n < 1 || n > PR_MAX_ENTRANTS || !label || !order)
        return ARB_EINVAL;
    int64_t *key = malloc((size_t)n * sizeof *key);
    if (!key)
        return ARB_ENOMEM;
    /* ranked by -rank (higher first), unseeded below every rank */
    for (int i = 0; i < n; i++) {
        uint32_t r = seeding_rank ? seeding_rank[i] : 0;
        key[i] = r ? -(int64_t)r : INT64_MIN;
    }
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(seed, label));
    int rc = rank_entrants(n, key, NULL, &rng, order);
    free(key);
    return rc;
}

/* ---- text output ------------------------------------------------------- */

typedef struct text {
    char *buf;
    size_t len, pos;
} text;

__attribute__((format(printf, 2, 3)))
static void put(text *tx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = tx->pos < tx->len ? tx->buf + tx->pos : NULL;
    size_t room = tx->pos < tx->len ? tx->len - tx->pos : 0;
    int w = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (w > 0)
        tx->pos += (size_t)w;
}

static void put_name(text *tx, const char *const *names, int e)
{
    if (names && names[e])
        put(tx, "%s", names[e]);
    else
        put(tx, "#%d", e);
}

/* ---- knockout ---------------------------------------------------------- */

struct pr_bracket {
    int n, k, a, nrounds, final_size, current, champion;
    int *pos;               /* n: place in seed order (0 = top seed) */
    int *alive;             /* entrants alive at the start of `current` */
    int nalive;
    int *ntables, *nbyes;   /* per round 1..nrounds */
    size_t *first_table, *first_bye;
    pr_table *tables;       /* every round's tables, as dealt (seat order) */
    pr_table *result;       /* same index: finish order once reported */
    uint8_t *reported;
    int *byes;
    int *out_round, *out_place;     /* n; out_round 0 = still in */
    uint32_t *seat_count;   /* n*k */
};

void pr_knockout_free(pr_bracket *b)
{
    if (!b)
        return;
    free(b->pos);
    free(b->alive);
    free(b->ntables);
    free(b->nbyes);
    free(b->first_table);
    free(b->first_bye);
    free(b->tables);
    free(b->result);
    free(b->reported);
    free(b->byes);
    free(b->out_round);
    free(b->out_place);
    free(b->seat_count);
    free(b);
}

static void sort_by_pos(int *list, int m, const int *pos)
{
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && pos[list[j]] < pos[list[j - 1]]; j--) {
            int x = list[j];
            list[j] = list[j - 1];
            list[j - 1] = x;
        }
}

/* Deals round r from b->alive (seed order): byes to the best, serpentine
 * for the rest; the final stage is one table or a round robin. */
static int knockout_deal(pr_bracket *b, int r)
{
    int k = b->k, nt = b->ntables[r], nb = b->nbyes[r];
    pr_table *t = b->tables + b->first_table[r];
    int *bye = b->byes + b->first_bye[r];
    memcpy(bye, b->alive, (size_t)nb * sizeof *bye);
    if (r == b->nrounds && b->final_size > k) {
        subsets(b->alive, b->nalive, k, -1, 1, t);
    } else {
        for (int i = 0; i < nt; i++) {
            memset(&t[i], 0, sizeof t[i]);
            t[i].k = (uint8_t)k;
        }
        for (int i = nb, row = 0; i < b->nalive; row++)
            for (int c = 0; c < nt && i < b->nalive; c++, i++) {
                int ti = row % 2 == 0 ? c : nt - 1 - c;
                t[ti].seat[row] = (uint16_t)b->alive[i];
            }
    }
    return pr_balance_seats(t, (size_t)nt, b->n, b->seat_count);
}

int pr_knockout_new(int n, int k, int a, const uint32_t *seeding_rank, uint64_t seed, pr_bracket **out)
{
    if (!out)
        return ARB_EINVAL;
    *out = NULL;
    if (k < 2 || k > ARB_MAX_SEATS || a < 1 || a >= k || n < k || n > PR_MAX_ENTRANTS)
        return ARB_EINVAL;
    int d = k - a, f = k + (n - k) % d;
    /* Full sizes from the final stage backwards; 64 levels are far more
     * than any n <= PR_MAX_ENTRANTS needs (each level grows by at least
     * d*floor(Fj/a) >= 1 and mostly by a factor k/a). */
    int64_t full[64];
    int j = 0;
    full[0] = f;
    while (full[j] < n) {
        if (j + 1 >= 64)
            return ARB_ERANGE;
        full[j + 1] = full[j] + (int64_t)d * (full[j] / a);
        j++;
    }
    pr_bracket *b = calloc(1, sizeof *b);
    if (!b)
        return ARB_ENOMEM;
    int rc = ARB_ENOMEM;
    b->n = n;
    b->k = k;
    b->a = a;
    b->final_size = f;
    b->nrounds = j + 1;
    b->current = 1;
    b->champion = -1;
    int R = b->nrounds;
    b->pos = malloc((size_t)n * sizeof *b->pos);
    b->alive = malloc((size_t)n * sizeof *b->alive);
    b->ntables = calloc((size_t)R + 1, sizeof *b->ntables);
    b->nbyes = calloc((size_t)R + 1, sizeof *b->nbyes);
    b->first_table = calloc((size_t)R + 2, sizeof *b->first_table);
    b->first_bye = calloc((size_t)R + 2, sizeof *b->first_bye);
    b->out_round = calloc((size_t)n, sizeof *b->out_round);
    b->out_place = calloc((size_t)n, sizeof *b->out_place);
    b->seat_count = calloc((size_t)n * (size_t)k, sizeof *b->seat_count);
    if (!b->pos || !b->alive || !b->ntables || !b->nbyes || !b->first_table || !b->first_bye ||
        !b->out_round || !b->out_place || !b->seat_count)
        goto out;
    /* round r takes size S_r down to S_(r+1): S_1 = n, S_r = full[j-r+1] */
    int64_t size = n;
    for (int r = 1; r <= j; r++) {
        int64_t next = full[j - r];
        int nt = (int)((size - next) / d);
        b->ntables[r] = nt;
        b->nbyes[r] = (int)(size - (int64_t)k * nt);
        size = next;
    }
    b->ntables[R] = f == k ? 1 : (int)binomial(f, k);
    b->nbyes[R] = 0;
    for (int r = 1; r <= R; r++) {
        b->first_table[r + 1] = b->first_table[r] + (size_t)b->ntables[r];
        b->first_bye[r + 1] = b->first_bye[r] + (size_t)b->nbyes[r];
    }
    size_t total = b->first_table[R + 1];
    b->tables = calloc(total, sizeof *b->tables);
    b->result = calloc(total, sizeof *b->result);
    b->reported = calloc(total, 1);
    b->byes = malloc((b->first_bye[R + 1] + 1) * sizeof *b->byes);
    if (!b->tables || !b->result || !b->reported || !b->byes)
        goto out;
    rc = pr_seed_order(n, seeding_rank, seed, "pairing/knockout", b->alive);
    if (rc != 0)
        goto out;
    for (int i = 0; i < n; i++)
        b->pos[b->alive[i]] = i;
    b->nalive = n;
    rc = knockout_deal(b, 1);
out:
    if (rc != 0) {
        pr_knockout_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int pr_knockout_nrounds(const pr_bracket *b)
{
    return b ? b->nrounds : ARB_EINVAL;
}

int pr_knockout_current(const pr_bracket *b)
{
    return b ? b->current : ARB_EINVAL;
}

int pr_knockout_round(const pr_bracket *b, int round, pr_table *out, size_t cap)
{
    if (!b)
        return ARB_EINVAL;
    if (round < 1 || round > b->nrounds)
        return ARB_ERANGE;
    if (round > b->current)
        return ARB_ESTATE;
    int nt = b->ntables[round];
    if ((size_t)nt > cap || !out)
        return ARB_ENOSPC;
    memcpy(out, b->tables + b->first_table[round], (size_t)nt * sizeof *out);
    return nt;
}

int pr_knockout_byes(const pr_bracket *b, int round, int *out, size_t cap)
{
    if (!b)
        return ARB_EINVAL;
    if (round < 1 || round > b->nrounds)
        return ARB_ERANGE;
    if (round > b->current)
        return ARB_ESTATE;
    int nb = b->nbyes[round];
    if ((size_t)nb > cap || (nb && !out))
        return ARB_ENOSPC;
    if (nb)
        memcpy(out, b->byes + b->first_bye[round], (size_t)nb * sizeof *out);
    return nb;
}

typedef struct final_row {
    int e, points, wins, pos;
} final_row;

static int cmp_final(const void *x, const void *y)
{
    const final_row *a = x, *b = y;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    if (a->wins != b->wins)
        return a->wins > b->wins ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* The final stage is complete: champion and places. */
static void knockout_finish(pr_bracket *b)
{
    int R = b->nrounds, k = b->k;
    const pr_table *res = b->result + b->first_table[R];
    if (b->final_size == k) {
        for (int p = 0; p < k; p++) {
            b->out_round[res[0].seat[p]] = R;
            b->out_place[res[0].seat[p]] = p;
        }
        b->champion = res[0].seat[0];
    } else {
        final_row rows[2 * ARB_MAX_SEATS];
        int m = b->nalive;
        for (int i = 0; i < m; i++)
            rows[i] = (final_row){ .e = b->alive[i], .pos = b->pos[b->alive[i]] };
        for (int t = 0; t < b->ntables[R]; t++)
            for (int p = 0; p < k; p++)
                for (int i = 0; i < m; i++)
                    if (rows[i].e == res[t].seat[p]) {
                        rows[i].points += k - 1 - p;
                        rows[i].wins += p == 0;
                    }
        qsort(rows, (size_t)m, sizeof *rows, cmp_final);
        for (int i = 0; i < m; i++) {
            b->out_round[rows[i].e] = R;
            b->out_place[rows[i].e] = i;
        }
        b->champion = rows[0].e;
    }
    b->nalive = 1;
    b->alive[0] = b->champion;
    b->current = R + 1;
}

int pr_knockout_report(pr_bracket *b, int round, int table, const int *finish_order)
{
    if (!b || !finish_order)
        return ARB_EINVAL;
    if (round != b->current)
        return ARB_ESTATE;
    if (table < 0 || table >= b->ntables[round])
        return ARB_EINVAL;
    size_t ti = b->first_table[round] + (size_t)table;
    if (b->reported[ti])
        return ARB_ESTATE;
    const pr_table *t = &b->tables[ti];
    int k = t->k;
    for (int p = 0; p < k; p++) {
        int hits = 0;
        for (int q = 0; q < k; q++)
            hits += finish_order[q] == t->seat[p];
        if (hits != 1)
            return ARB_EINVAL;
    }
    pr_table *res = &b->result[ti];
    *res = *t;
    for (int p = 0; p < k; p++)
        res->seat[p] = (uint16_t)finish_order[p];
    b->reported[ti] = 1;
    for (int i = 0; i < b->ntables[round]; i++)
        if (!b->reported[b->first_table[round] + (size_t)i])
            return 0;
    if (round == b->nrounds) {
        knockout_finish(b);
        return 0;
    }
    /* Round complete: byes and the best a of each table go on. */
    int m = 0;
    memcpy(b->alive, b->byes + b->first_bye[round], (size_t)b->nbyes[round] * sizeof *b->alive);
    m = b->nbyes[round];
    for (int i = 0; i < b->ntables[round]; i++) {
        const pr_table *r = &b->result[b->first_table[round] + (size_t)i];
        for (int p = 0; p < k; p++) {
            if (p < b->a) {
                b->alive[m++] = r->seat[p];
            } else {
                b->out_round[r->seat[p]] = round;
                b->out_place[r->seat[p]] = p;
            }
        }
    }
    sort_by_pos(b->alive, m, b->pos);
    b->nalive = m;
    b->current = round + 1;
    return knockout_deal(b, round + 1);
}

int pr_knockout_champion(const pr_bracket *b)
{
    if (!b)
        return ARB_EINVAL;
    return b->champion >= 0 ? b->champion : ARB_ESTATE;
}

int pr_knockout_placement(const pr_bracket *b, int entrant, int *round, int *place)
{
    if (!b || entrant < 0 || entrant >= b->n || !round || !place)
        return ARB_EINVAL;
    if (!b->out_round[entrant])
        return ARB_ESTATE;
    *round = b->out_round[entrant];
    *place = b->out_place[entrant];
    return 0;
}

/* Standings order shared by knockout and double elimination: a later exit
 * first, then a better place, then a better seed. */
typedef struct standing_row {
    int e, out, place, pos;
} standing_row;

static int cmp_standing(const void *x, const void *y)
{
    const standing_row *a = x, *b = y;
    if (a->out != b->out)
        return a->out > b->out ? -1 : 1;
    if (a->place != b->place)
        return a->place < b->place ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

int pr_knockout_standings(const pr_bracket *b, int *order)
{
    if (!b || !order)
        return ARB_EINVAL;
    if (b->champion < 0)
        return ARB_ESTATE;
    standing_row *rows = malloc((size_t)b->n * sizeof *rows);
    if (!rows)
        return ARB_ENOMEM;
    for (int i = 0; i < b->n; i++)
        rows[i] = (standing_row){ i, b->out_round[i], b->out_place[i], b->pos[i] };
    qsort(rows, (size_t)b->n, sizeof *rows, cmp_standing);
    for (int i = 0; i < b->n; i++)
        order[i] = rows[i].e;
    free(rows);
    return 0;
}

size_t pr_knockout_draw(const pr_bracket *b, const char *const *names, char *buf, size_t len)
{
    text tx = { buf, buf ? len : 0, 0 };
    if (tx.len)
        buf[0] = 0;
    if (!b)
        return 0;
    int k = b->k;
    put(&tx, "knockout: %d entrants, tables of %d, best %d go on, %d round%s\n",
        b->n, k, b->a, b->nrounds, b->nrounds == 1 ? "" : "s");
    for (int r = 1; r <= b->nrounds && r <= b->current; r++) {
        bool final_rr = r == b->nrounds && b->final_size > k;
        if (r == b->nrounds)
            put(&tx, final_rr ? "final: round robin of %d (points, then tables won)\n" : "final\n",
                b->final_size);
        else
            put(&tx, "round %d: %d table%s, %d bye%s\n", r, b->ntables[r], b->ntables[r] == 1 ? "" : "s",
                b->nbyes[r], b->nbyes[r] == 1 ? "" : "s");
        if (b->nbyes[r]) {
            put(&tx, "  byes:");
            for (int i = 0; i < b->nbyes[r]; i++) {
                put(&tx, " ");
                put_name(&tx, names, b->byes[b->first_bye[r] + (size_t)i]);
            }
            put(&tx, "\n");
        }
        for (int t = 0; t < b->ntables[r]; t++) {
            size_t ti = b->first_table[r] + (size_t)t;
            put(&tx, "  [%d] ", t + 1);
            if (b->reported[ti]) {
                for (int p = 0; p < k; p++) {
                    if (p)
                        put(&tx, !final_rr && p == b->a ? " | " : " > ");
                    put_name(&tx, names, b->result[ti].seat[p]);
                }
            } else {
                for (int p = 0; p < k; p++) {
                    if (p)
                        put(&tx, ", ");
                    put_name(&tx, names, b->tables[ti].seat[p]);
                }
                put(&tx, "  (to play)");
            }
            put(&tx, "\n");
        }
    }
    if (b->champion >= 0) {
        put(&tx, "champion: ");
        put_name(&tx, names, b->champion);
        put(&tx, "\n");
    }
    return tx.pos;
}

/* ---- double elimination ------------------------------------------------ */

enum { DE_PLAYING, DE_GRAND_FINAL, DE_RESET, DE_OVER };

struct pr_double {
    int n, state, champion;
    uint16_t stage;
    uint32_t next_id;
    int *pos;               /* n: seed order position */
    uint8_t *losses;
    int *out_stage;         /* n: stage of the second loss */
    uint32_t *lbyes;        /* n: losers'-side byes */
    int *w, nw, *l, nl;     /* alive on each side, seed order */
    pr_match *cur;          /* current stage's matches */
    int *winner;            /* -1 until reported */
    int ncur;
    pr_met *met;
};

void pr_double_free(pr_double *d)
{
    if (!d)
        return;
    free(d->pos);
    free(d->losses);
    free(d->out_stage);
    free(d->lbyes);
    free(d->w);
    free(d->l);
    free(d->cur);
    free(d->winner);
    pr_met_free(d->met);
    free(d);
}

static void add_match(pr_double *d, int a, int b, pr_side side)
{
    if (d->pos[b] < d->pos[a] && side != PR_GRAND_FINAL && side != PR_RESET) {
        int x = a; a = b; b = x;
    }
    d->cur[d->ncur] = (pr_match){ .id = d->next_id++, .a = (uint16_t)a, .b = (uint16_t)b,
                                  .side = (uint8_t)side, .stage = d->stage };
    d->winner[d->ncur++] = -1;
}

/* Builds the next stage from w and l. */
static void double_deal(pr_double *d)
{
    d->stage++;
    d->ncur = 0;
    if (d->nw == 1 && d->nl == 1) {
        d->state = DE_GRAND_FINAL;
        add_match(d, d->w[0], d->l[0], PR_GRAND_FINAL);
        return;
    }
    if (d->nw >= 2) {
        /* byes (best seeds) so that a power of two is left after this round */
        int p = 1;
        while (p * 2 <= d->nw)
            p *= 2;
        int games = p == d->nw ? d->nw / 2 : d->nw - p;
        int first = d->nw - 2 * games;
        for (int i = 0; i < games; i++)
            add_match(d, d->w[first + i], d->w[d->nw - 1 - i], PR_WINNERS);
    }
    if (d->nl >= 2) {
        bool *used = calloc((size_t)d->nl, sizeof *used);
        if (!used)
            return;     /* caller checks ncur */
        if (d->nl % 2) {
            int bye = 0;
            for (int i = 1; i < d->nl; i++)
                if (d->lbyes[d->l[i]] < d->lbyes[d->l[bye]])
                    bye = i;
            used[bye] = true;
            d->lbyes[d->l[bye]]++;
        }
        for (int i = 0; i < d->nl; i++) {
            if (used[i])
                continue;
            used[i] = true;
            int pick = -1, last = -1;
            for (int j = d->nl - 1; j > i; j--) {
                if (used[j])
                    continue;
                if (last < 0)
                    last = j;
                if (pr_met_count(d->met, d->l[i], d->l[j]) == 0) {
                    pick = j;
                    break;
                }
            }
            if (pick < 0)
                pick = last;
            used[pick] = true;
            add_match(d, d->l[i], d->l[pick], PR_LOSERS);
        }
        free(used);
    }
}

int pr_double_new(int n, int k, const uint32_t *seeding_rank, uint64_t seed, pr_double **out)
{
    if (!out)
        return ARB_EINVAL;
    *out = NULL;
    if (k != 2 || n < 2 || n > PR_MAX_ENTRANTS)
        return ARB_EINVAL;
    pr_double *d = calloc(1, sizeof *d);
    if (!d)
        return ARB_ENOMEM;
    int rc = ARB_ENOMEM;
    d->n = n;
    d->champion = -1;
    d->pos = malloc((size_t)n * sizeof *d->pos);
    d->losses = calloc((size_t)n, 1);
    d->out_stage = calloc((size_t)n, sizeof *d->out_stage);
    d->lbyes = calloc((size_t)n, sizeof *d->lbyes);
    d->w = malloc((size_t)n * sizeof *d->w);
    d->l = malloc((size_t)n * sizeof *d->l);
    d->cur = malloc((size_t)n * sizeof *d->cur);     /* a stage has at most n/2 matches */
    d->winner = malloc((size_t)n * sizeof *d->winner);
    d->met = pr_met_new(n);
    if (!d->pos || !d->losses || !d->out_stage || !d->lbyes || !d->w || !d->l || !d->cur || !d->winner || !d->met)
        goto out;
    rc = pr_seed_order(n, seeding_rank, seed, "pairing/double", d->w);
    if (rc != 0)
        goto out;
    for (int i = 0; i < n; i++)
        d->pos[d->w[i]] = i;
    d->nw = n;
    d->nl = 0;
    double_deal(d);
    rc = d->ncur ? 0 : ARB_ENOMEM;
out:
    if (rc != 0) {
        pr_double_free(d);
        return rc;
    }
    *out = d;
    return 0;
}

int pr_double_next(const pr_double *d, pr_match *out, size_t cap)
{
    if (!d)
        return ARB_EINVAL;
    if (d->state == DE_OVER)
        return 0;
    size_t m = 0;
    for (int i = 0; i < d->ncur; i++)
        if (d->winner[i] < 0)
            m++;
    if (m > cap || (m && !out))
        return ARB_ENOSPC;
    m = 0;
    for (int i = 0; i < d->ncur; i++)
        if (d->winner[i] < 0)
            out[m++] = d->cur[i];
    return (int)m;
}

static void lose(pr_double *d, int e)
{
    if (++d->losses[e] == 2)
        d->out_stage[e] = d->stage;
}

int pr_double_report(pr_double *d, uint32_t id, int winner)
{
    if (!d)
        return ARB_EINVAL;
    if (d->state == DE_OVER)
        return ARB_ESTATE;
    int mi = -1;
    for (int i = 0; i < d->ncur; i++)
        if (d->cur[i].id == id)
            mi = i;
    if (mi < 0)
        return ARB_ENOTFOUND;
    if (d->winner[mi] >= 0)
        return ARB_ESTATE;
    const pr_match *m = &d->cur[mi];
    if (winner != m->a && winner != m->b)
        return ARB_EINVAL;
    d->winner[mi] = winner;
    for (int i = 0; i < d->ncur; i++)
        if (d->winner[i] < 0)
            return 0;

    /* Stage complete. */
    for (int i = 0; i < d->ncur; i++)
        pr_met_add(d->met, d->cur[i].a, d->cur[i].b);
    if (d->state == DE_GRAND_FINAL || d->state == DE_RESET) {
        int wa = d->cur[0].a, lb = d->cur[0].b, won = d->winner[0];
        int lost = won == wa ? lb : wa;
        lose(d, lost);
        if (d->state == DE_GRAND_FINAL && won == lb) {
            /* the winners'-side finalist has now lost once too: reset */
            d->state = DE_RESET;
            d->stage++;
            d->ncur = 0;
            add_match(d, wa, lb, PR_RESET);
            return 0;
        }
        d->champion = won;
        d->state = DE_OVER;
        d->ncur = 0;
        return 0;
    }
    int *nw = malloc((size_t)d->n * sizeof *nw), *nl = malloc((size_t)d->n * sizeof *nl);
    if (!nw || !nl) {
        free(nw);
        free(nl);
        return ARB_ENOMEM;
    }
    int cw = 0, cl = 0;
    /* everyone on a side who did not play this stage (byes, waiting) stays */
    uint8_t *played = calloc((size_t)d->n, 1);
    if (!played) {
        free(nw);
        free(nl);
        return ARB_ENOMEM;
    }
    for (int i = 0; i < d->ncur; i++) {
        const pr_match *m2 = &d->cur[i];
        played[m2->a] = played[m2->b] = 1;
        int won = d->winner[i], lost = won == m2->a ? m2->b : m2->a;
        lose(d, lost);
        if (m2->side == PR_WINNERS) {
            nw[cw++] = won;
            nl[cl++] = lost;
        } else {
            nl[cl++] = won;
        }
    }
    for (int i = 0; i < d->nw; i++)
        if (!played[d->w[i]])
            nw[cw++] = d->w[i];
    for (int i = 0; i < d->nl; i++)
        if (!played[d->l[i]])
            nl[cl++] = d->l[i];
    free(played);
    sort_by_pos(nw, cw, d->pos);
    sort_by_pos(nl, cl, d->pos);
    memcpy(d->w, nw, (size_t)cw * sizeof *nw);
    memcpy(d->l, nl, (size_t)cl * sizeof *nl);
    d->nw = cw;
    d->nl = cl;
    free(nw);
    free(nl);
    double_deal(d);
    return d->ncur ? 0 : ARB_ENOMEM;
}

int pr_double_champion(const pr_double *d)
{
    if (!d)
        return ARB_EINVAL;
    return d->champion >= 0 ? d->champion : ARB_ESTATE;
}

int pr_double_losses(const pr_double *d, int entrant)
{
    if (!d || entrant < 0 || entrant >= d->n)
        return ARB_EINVAL;
    return d->losses[entrant];
}

int pr_double_standings(const pr_double *d, int *order)
{
    if (!d || !order)
        return ARB_EINVAL;
    if (d->champion < 0)
        return ARB_ESTATE;
    standing_row *rows = malloc((size_t)d->n * sizeof *rows);
    if (!rows)
        return ARB_ENOMEM;
    for (int i = 0; i < d->n; i++)
        rows[i] = (standing_row){ i, i == d->champion ? INT_MAX : d->out_stage[i], 0, d->pos[i] };
    qsort(rows, (size_t)d->n, sizeof *rows, cmp_standing);
    for (int i = 0; i < d->n; i++)
        order[i] = rows[i].e;
    free(rows);
    return 0;
}

/* ---- groups ------------------------------------------------------------ */

int pr_groups(int n, int groups, const uint32_t *seeding_rank, uint64_t seed, int *group_of)
{
    if (n < 1 || n > PR_MAX_ENTRANTS || groups < 1 || groups > n || !group_of)
        return ARB_EINVAL;
    int *order = malloc((size_t)n * sizeof *order);
    if (!order)
        return ARB_ENOMEM;
    int rc = pr_seed_order(n, seeding_rank, seed, "pairing/groups", order);
    if (rc == 0)
        for (int i = 0; i < n; i++) {
            int row = i / groups, c = i % groups;
            group_of[order[i]] = row % 2 == 0 ? c : groups - 1 - c;
        }
    free(order);
    return rc;
}

int pr_groups_advance(int n, int groups, const int *group_of, const int *standing, int advance,
                      int *entrants, uint32_t *seeding_rank)
{
    if (n < 1 || n > PR_MAX_ENTRANTS || groups < 1 || groups > n || !group_of || !standing || advance < 1 ||
        !entrants || !seeding_rank)
        return ARB_EINVAL;
    int *place = calloc((size_t)n, sizeof *place);     /* place within its group */
    int *seen = calloc((size_t)groups, sizeof *seen);
    uint8_t *listed = calloc((size_t)n, 1);
    int rc = ARB_ENOMEM;
    if (!place || !seen || !listed)
        goto out;
    rc = ARB_EINVAL;
    for (int i = 0; i < n; i++) {
        int e = standing[i];
        if (e < 0 || e >= n || listed[e] || group_of[e] < 0 || group_of[e] >= groups)
            goto out;
        listed[e] = 1;
        place[e] = seen[group_of[e]]++;
    }
    int m = 0;
    for (int p = 0; p < advance; p++)
        for (int i = 0; i < n; i++)
            if (place[standing[i]] == p) {
                entrants[m] = standing[i];
                seeding_rank[m] = (uint32_t)m + 1;
                m++;
            }
    rc = m;
out:
    free(place);
    free(seen);
    free(listed);
    return rc;
}
