/* plan.c — the rounds of each tournament format (plan.h).
 *
 * Round robin and gauntlet are one round holding every table. Swiss pairs
 * round by round from the standings. Knockouts (single elimination, and the
 * knockout after groups) are rebuilt from the recorded results every time:
 * the alive entrants in seed order, the top seeds given the byes a round
 * needs, tables filled in a serpentine so top seeds meet late, the best
 * `advance` of each table going on. Every random choice comes from the
 * tournament seed; nothing depends on timing or on which worker played. */
#include "plan.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tournament's rules, built as every match builds them (the match
 * template's preset, then its options), in memory the caller frees; NULL
 * when they do not build (the loader checked them: a file changed under us). */
static void *build_rules(const tn_config *cfg)
{
    const arb_game *g = cfg->match.game;
    void *rules = calloc(1, g->rules_size);
    char why[256];
    if (!rules || match_rules_build(g, cfg->match.preset, cfg->match.options, rules, why, sizeof why) != 0) {
        free(rules);
        return NULL;
    }
    return rules;
}

/* Seats at a table: the game's, for these rules (0 when they do not build). */
static int seats_of(const tn_config *cfg)
{
    void *rules = build_rules(cfg);
    int k = rules ? cfg->match.game->seats(rules) : 0;
    free(rules);
    return k;
}

/* What a format pairs (tournament.h, tn_units): teams in partnership
 * play, else entrants; a table holds ku of them (units_k): the game's
 * sides, or its seats. */
static int units_k(const tn_config *cfg)
{
    return cfg->nteams > 0 ? cfg->sides : seats_of(cfg);
}

static uint32_t unit_seed(const tn_config *cfg, int u)
{
    return cfg->nteams > 0 ? cfg->teams[u].seed : cfg->entrants[u].seed;
}

static const char *unit_name(const tn_config *cfg, int u)
{
    return cfg->nteams > 0 ? cfg->teams[u].name : cfg->entrants[u].name;
}

/* The seats' teams when the game fixes them before anything is played
 * (Da Bang: 0+2 against 1+3): the team_of each seat in a fresh deal, into
 * team[]. false when a seat has no team yet (Dou Dizhu: the landlord is
 * not known before the bidding), or the rules do not build. */
static bool seat_teams(const tn_config *cfg, int k, int *team)
{
    void *rules = build_rules(cfg);
    const arb_game *g = cfg->match.game;
    void *state = rules ? calloc(1, g->state_size) : NULL;
    bool fixed = state && g->deal(state, rules, 0) == 0;
    for (int s = 0; fixed && s < k; s++)
        fixed = (team[s] = g->team_of(state, s)) >= 0;
    free(state);
    free(rules);
    return fixed;
}

int plan_seat_sides(const tn_config *cfg, int *seats, int side_of_seat[ARB_MAX_SEATS])
{
    *seats = seats_of(cfg);
    if (*seats < 2 || *seats > ARB_MAX_SEATS)
        return -1;
    if (!seat_teams(cfg, *seats, side_of_seat))
        return 0;
    int sides = 0;
    for (int s = 0; s < *seats; s++)
        if (side_of_seat[s] + 1 > sides)
            sides = side_of_seat[s] + 1;
    return sides;
}

/* Partners (entrants of the same `team:`) on seats of the same team: a
 * seating that splits them is never chosen. seat_team NULL: the game has
 * no fixed teams, every seating is allowed. */
static bool keeps_partners(const tn_entrant *ent, const int *seat_team, const int *e, const int *perm, int k)
{
    if (!seat_team || !ent)
        return true;
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            const char *ta = ent[e[perm[a]]].team, *tb = ent[e[perm[b]]].team;
            if (ta[0] && strcmp(ta, tb) == 0 && seat_team[a] != seat_team[b])
                return false;
        }
    return true;
}

/* Seat balance: each entrant should sit each seat about equally often
 * (every seat is a different position: who bids first, who plays after
 * whom). A local search: table by table, take out the table's seats and
 * put them back in the permutation that adds least to the squares of the
 * counts; a few passes settle it (k! <= 24 permutations a table). In a
 * game of fixed teams (seat_team), only seatings that keep partners
 * together are considered (keeps_partners); a table where none does keeps
 * the balance alone. */
static void balance(store_table *t, int nt, int n, int k, const tn_entrant *ent, const int *seat_team)
{
    uint32_t *count = calloc((size_t)n * (size_t)k, sizeof *count);
    if (!count)
        return;
    int perms[24][ARB_MAX_SEATS], np = 0, p[ARB_MAX_SEATS];
    for (int i = 0; i < k; i++)
        p[i] = i;
    for (;;) {   /* all permutations of 0..k-1, in lexicographic order */
        memcpy(perms[np++], p, sizeof p);
        int i = k - 2;
        while (i >= 0 && p[i] > p[i + 1])
            i--;
        if (i < 0)
            break;
        int j = k - 1;
        while (p[j] < p[i])
            j--;
        int x = p[i]; p[i] = p[j]; p[j] = x;
        for (int a = i + 1, b = k - 1; a < b; a++, b--) {
            x = p[a]; p[a] = p[b]; p[b] = x;
        }
    }
    for (int i = 0; i < nt; i++)
        for (int s = 0; s < k; s++)
            count[t[i].entrant[s] * k + s]++;
    for (int pass = 0; pass < 8; pass++)
        for (int i = 0; i < nt; i++) {
            int e[ARB_MAX_SEATS];
            memcpy(e, t[i].entrant, sizeof e);
            for (int s = 0; s < k; s++)
                count[e[s] * k + s]--;
            int best = 0;
            uint64_t best_cost = UINT64_MAX;
            bool any = false;
            for (int q = 0; q < np; q++)
                any = any || keeps_partners(ent, seat_team, e, perms[q], k);
            for (int q = 0; q < np; q++) {
                if (any && !keeps_partners(ent, seat_team, e, perms[q], k))
                    continue;
                uint64_t cost = 0;
                for (int s = 0; s < k; s++) {
                    uint64_t c = count[e[perms[q][s]] * k + s];
                    cost += 2 * c + 1;   /* (c+1)^2 - c^2 */
                }
                if (cost < best_cost) {
                    best_cost = cost;
                    best = q;
                }
            }
            for (int s = 0; s < k; s++) {
                t[i].entrant[s] = e[perms[best][s]];
                count[t[i].entrant[s] * k + s]++;
            }
        }
    free(count);
}

static void shuffle_tables(store_table *t, int nt, uint64_t seed, const char *label)
{
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(seed, label));
    for (int i = nt - 1; i > 0; i--) {
        int j = (int)arb_rng_below(&rng, (uint64_t)i + 1);
        store_table x = t[i];
        t[i] = t[j];
        t[j] = x;
    }
}

/* Every k-subset of pool[0..n) (lexicographic), as tables. */
static int subsets(const int *pool, int n, int k, store_table *out, int cap, int fixed)
{
    int idx[ARB_MAX_SEATS], count = 0, m = k - (fixed >= 0);
    for (int i = 0; i < m; i++)
        idx[i] = i;
    if (m > n)
        return 0;
    for (;;) {
        if (count >= cap)
            return ARB_ENOSPC;
        store_table *t = &out[count++];
        t->nslots = k;
        int s = 0;
        if (fixed >= 0)
            t->entrant[s++] = fixed;
        for (int i = 0; i < m; i++)
            t->entrant[s++] = pool[idx[i]];
        int i = m - 1;
        while (i >= 0 && idx[i] == n - m + i)
            i--;
        if (i < 0)
            return count;
        idx[i]++;
        for (int j = i + 1; j < m; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

static int all_tables(const tn_config *cfg, int k, int hero, store_table *out, int cap)
{
    int n = tn_units(cfg), pool[ARB_TN_MAX_ENTRANTS], np = 0;
    for (int i = 0; i < n; i++)
        if (i != hero)
            pool[np++] = i;
    int total = 0;
    for (uint32_t c = 0; c < cfg->cycles; c++) {
        int got = subsets(pool, np, k, out + total, cap - total, hero);
        if (got < 0)
            return got;
        total += got;
    }
    return total;
}

/* The seed of the tournament's draws (seeding order, table shuffles):
 * keyed with the tournament's secret like the deals (docs/rng.md), so that
 * nobody computes the draw from the public seed before the secret is
 * revealed; the bare tournament seed when there is no record or no secret
 * (the unit tests). Same secret, same draw: a resume redraws nothing new. */
static uint64_t plan_seed(const tn_config *cfg, const plan_record *rec)
{
    if (!rec || !rec->has_secret)
        return cfg->seed;
    char label[64];
    snprintf(label, sizeof label, "plan|%" PRIu64, cfg->seed);
    return arb_seed_keyed(rec->secret, label);
}

/* Round r's results into order[0..nt): tables the record does not have
 * (not created, or past what it holds) are empty. */
static void round_order(const plan_record *rec, int r, store_table *order, int nt)
{
    memset(order, 0, (size_t)nt * sizeof *order);
    if (!rec || r < 1 || r > rec->nrounds)
        return;
    const plan_round *pr = &rec->rounds[r - 1];
    memcpy(order, pr->order, (size_t)(pr->ntables < nt ? pr->ntables : nt) * sizeof *order);
}

/* Seed order: seeded entrants by rank, then the rest in an order drawn
 * from the draw seed (plan_seed). */
static void seed_order(const tn_config *cfg, uint64_t pseed, int *order)
{
    int n = tn_units(cfg);
    for (int i = 0; i < n; i++)
        order[i] = i;
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(pseed, "seeding"));
    for (int i = n - 1; i > 0; i--) {
        int j = (int)arb_rng_below(&rng, (uint64_t)i + 1);
        int x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    /* stable: seeded first by rank, unseeded keep the drawn order */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            uint32_t a = unit_seed(cfg, order[j - 1]), b = unit_seed(cfg, order[j]);
            bool swap = b && (!a || b < a);
            if (!swap)
                break;
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
}

/* One knockout round over `alive` (in seed order). Tables of k send their
 * best `a` on; the top seeds take byes. The number of tables is chosen so
 * that the next round still fills a table (or has a single survivor): a
 * table cannot be played short-handed. When not even one such table fits
 * (k < m < 2k, say), the last m play a final round robin, ranked by points
 * (*final_rr). */
static int knockout_tables(const int *alive, int m, int k, int a, store_table *out, int cap, int *nbyes, bool *final_rr)
{
    *final_rr = false;
    *nbyes = 0;
    if (m == k) {
        out[0].nslots = k;
        memcpy(out[0].entrant, alive, (size_t)k * sizeof *alive);
        return 1;
    }
    int nt = m / k;
    int keep = (m - k) / (k - a);   /* tables that leave at least k alive */
    if (keep < nt)
        nt = keep;
    if (nt < 1) {
        *final_rr = true;
        return subsets(alive, m, k, out, cap, -1);
    }
    int byes = m - nt * k;
    *nbyes = byes;
    if (nt > cap)
        return ARB_ENOSPC;
    for (int t = 0; t < nt; t++)
        out[t].nslots = 0;
    for (int i = byes, row = 0; i < m; row++)
        for (int c = 0; c < nt && i < m; c++, i++) {
            int t = row % 2 == 0 ? c : nt - 1 - c;
            out[t].entrant[out[t].nslots++] = alive[i];
        }
    return nt;
}

/* Replay a knockout from round `first` to `last`: who is alive now (in
 * seed order). Returns the count (1: a champion, alive[0]). */
static int knockout_alive(const tn_config *cfg, const plan_record *rec, int k, const int *start, int nstart, int first,
                          int last, int *alive, store_table *scratch, int cap)
{
    int m = nstart;
    memcpy(alive, start, (size_t)m * sizeof *alive);
    int rank[ARB_TN_MAX_ENTRANTS];
    for (int i = 0; i < nstart; i++)
        rank[start[i]] = i;
    for (int r = first; r <= last && m > 1; r++) {
        int byes;
        bool final_rr;
        int nt = knockout_tables(alive, m, k, (int)cfg->advance, scratch, cap, &byes, &final_rr);
        if (nt < 0)
            return nt;
        store_table *order = calloc((size_t)nt, sizeof *order);
        if (!order)
            return ARB_ENOMEM;
        round_order(rec, r, order, nt);
        int next[ARB_TN_MAX_ENTRANTS], nn = 0;
        if (final_rr || m == k) {
            /* the final: most places won (k-1 for a first place, ...) */
            double pts[ARB_TN_MAX_ENTRANTS] = {0};
            for (int t = 0; t < nt; t++)
                for (int p = 0; p < order[t].nslots; p++)
                    pts[order[t].entrant[p]] += k - 1 - p;
            int best = alive[0];
            for (int i = 1; i < m; i++)
                if (pts[alive[i]] > pts[best])
                    best = alive[i];
            next[nn++] = best;
        } else {
            for (int i = 0; i < byes; i++)
                next[nn++] = alive[i];
            for (int t = 0; t < nt; t++)
                for (int p = 0; p < (int)cfg->advance && p < order[t].nslots; p++)
                    next[nn++] = order[t].entrant[p];
        }
        free(order);
        /* keep seed order: top seeds stay apart */
        for (int i = 1; i < nn; i++)
            for (int j = i; j > 0 && rank[next[j]] < rank[next[j - 1]]; j--) {
                int x = next[j];
                next[j] = next[j - 1];
                next[j - 1] = x;
            }
        memcpy(alive, next, (size_t)nn * sizeof *alive);
        m = nn;
    }
    return m;
}

/* The entrants in standings order (the record's, best first). */
static int standings_order(const plan_record *rec, int n, int *order)
{
    int got = rec ? (rec->nstandings < n ? rec->nstandings : n) : 0;
    for (int i = 0; i < got; i++)
        order[i] = rec->standings[i].entrant;
    return got;
}

/* Groups: entrants dealt into groups in a serpentine of seed order. */
static void groups_of(const tn_config *cfg, uint64_t pseed, int *group)
{
    int order[ARB_TN_MAX_ENTRANTS], g = (int)cfg->groups;
    seed_order(cfg, pseed, order);
    for (int i = 0; i < tn_units(cfg); i++) {
        int row = i / g, c = i % g;
        group[order[i]] = row % 2 == 0 ? c : g - 1 - c;
    }
}

/* Who has met whom, sparse: a sorted list of pairs (lo << 32 | hi), one
 * entry per meeting. A dense n x n matrix would be 200 MB at 10,000
 * entrants; this is a few hundred KB for a few rounds. */
typedef struct met_set {
    uint64_t *pair;
    size_t n, cap;
} met_set;

static int met_add(met_set *m, int a, int b)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        uint64_t *p = realloc(m->pair, cap * sizeof *p);
        if (!p)
            return ARB_ENOMEM;
        m->pair = p;
        m->cap = cap;
    }
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    m->pair[m->n++] = (uint64_t)lo << 32 | hi;
    return 0;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* How often a and b met (the list sorted). */
static int met_count(const met_set *m, int a, int b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    uint64_t key = (uint64_t)lo << 32 | hi;
    size_t l = 0, r = m->n;
    while (l < r) {
        size_t mid = (l + r) / 2;
        if (m->pair[mid] < key)
            l = mid + 1;
        else
            r = mid;
    }
    int c = 0;
    while (l < m->n && m->pair[l] == key) {
        c++;
        l++;
    }
    return c;
}

/* Repeat meetings inside one table. */
static int table_cost(const store_table *t, const met_set *met)
{
    int c = 0;
    for (int a = 0; a < t->nslots; a++)
        for (int b = a + 1; b < t->nslots; b++)
            c += met_count(met, t->entrant[a], t->entrant[b]);
    return c;
}

/* Swiss pairing (pure): `order` is the standings, best first; `played` the
 * matches each entrant has played; `met` who met whom (sorted). From the
 * top down, each table takes the highest entrant not yet placed and the
 * next ones it has met least (fewest repeat meetings, then the closest in
 * the standings). The n mod k lowest-placed entrants who have played most
 * (have not sat out) sit out. Returns the number of tables. */
static int swiss_pair(int n, int k, const int *order, const int *played, int round, const met_set *met,
                      store_table *out, int cap)
{
    bool *placed = calloc((size_t)n, sizeof *placed);
    if (!placed)
        return ARB_ENOMEM;
    int byes = n % k;
    for (int i = n - 1; i >= 0 && byes > 0; i--)
        if (played[order[i]] == round - 1) {
            placed[order[i]] = true;
            byes--;
        }
    for (int i = n - 1; i >= 0 && byes > 0; i--)
        if (!placed[order[i]]) {
            placed[order[i]] = true;
            byes--;
        }
    int nt = 0, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        int top = order[i];
        if (placed[top])
            continue;
        if (nt >= cap) {
            rc = ARB_ENOSPC;
            break;
        }
        store_table *t = &out[nt++];
        t->nslots = 0;
        t->entrant[t->nslots++] = top;
        placed[top] = true;
        while (t->nslots < k) {
            int best = -1, best_cost = 1 << 30;
            for (int j = i + 1; j < n; j++) {
                int e = order[j];
                if (placed[e])
                    continue;
                int cost = 0;
                for (int a = 0; a < t->nslots; a++)
                    cost += met_count(met, t->entrant[a], e);
                if (cost < best_cost) {
                    best = e;
                    best_cost = cost;
                }
                if (cost == 0)
                    break;
            }
            if (best < 0)
                break;
            t->entrant[t->nslots++] = best;
            placed[best] = true;
        }
    }
    free(placed);
    if (rc)
        return rc;
    /* Repair: the greedy pass can strand the last entrants with old
     * table-mates. Swap an entrant of a table with a repeat meeting for one
     * at another table whenever that lowers the repeats of the two. */
    for (int pass = 0; pass < 4; pass++) {
        bool improved = false;
        for (int i = 0; i < nt; i++) {
            if (table_cost(&out[i], met) == 0)
                continue;
            for (int x = 0; x < out[i].nslots && table_cost(&out[i], met) > 0; x++)
                for (int j = nt - 1; j >= 0; j--) {
                    if (j == i)
                        continue;
                    int before = table_cost(&out[i], met) + table_cost(&out[j], met), done = 0;
                    for (int y = 0; y < out[j].nslots; y++) {
                        int e = out[i].entrant[x];
                        out[i].entrant[x] = out[j].entrant[y];
                        out[j].entrant[y] = e;
                        if (table_cost(&out[i], met) + table_cost(&out[j], met) < before) {
                            improved = true;
                            done = 1;
                            break;
                        }
                        out[j].entrant[y] = out[i].entrant[x];
                        out[i].entrant[x] = e;
                    }
                    if (done)
                        break;
                }
        }
        if (!improved)
            break;
    }
    return nt;
}

static int swiss_round(const tn_config *cfg, const plan_record *rec, int k, int round, store_table *out, int cap)
{
    int n = tn_units(cfg), rc = 0;
    int *order = calloc((size_t)n, sizeof *order);
    int *played = calloc((size_t)n, sizeof *played);
    met_set met = {0};
    if (!order || !played) {
        rc = ARB_ENOMEM;
        goto out;
    }
    if (round == 1) {
        seed_order(cfg, plan_seed(cfg, rec), order);
    } else if (standings_order(rec, n, order) != n) {
        rc = ARB_EIO;
        goto out;
    }
    for (int r = 1; r < round; r++) {
        if (r > rec->nrounds) {
            rc = ARB_EIO;   /* the record lacks a round it should have */
            goto out;
        }
        const store_table *res = rec->rounds[r - 1].order;
        for (int t = 0; t < rec->rounds[r - 1].ntables; t++)
            for (int a = 0; a < res[t].nslots; a++) {
                played[res[t].entrant[a]]++;
                for (int b = a + 1; b < res[t].nslots; b++)
                    met_add(&met, res[t].entrant[a], res[t].entrant[b]);
            }
    }
    if (met.n)   /* none met yet (round 1): met.pair is NULL, which qsort may not take */
        qsort(met.pair, met.n, sizeof *met.pair, cmp_u64);
    rc = swiss_pair(n, k, order, played, round, &met, out, cap);
out:
    free(order);
    free(played);
    free(met.pair);
    return rc;
}

int plan_bench_swiss(int n, int k, int rounds_before, uint64_t seed, int *ntables)
{
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    int *order = calloc((size_t)n, sizeof *order), *played = calloc((size_t)n, sizeof *played);
    store_table *t = calloc((size_t)(n / k + 1), sizeof *t);
    met_set met = {0};
    int rc = ARB_ENOMEM;
    if (!order || !played || !t)
        goto out;
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* earlier rounds: random tables, every entrant once a round */
    for (int r = 0; r < rounds_before; r++) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)arb_rng_below(&rng, (uint64_t)i + 1), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        for (int i = 0; i + k <= n; i += k)
            for (int a = 0; a < k; a++) {
                played[order[i + a]]++;
                for (int b = a + 1; b < k; b++)
                    met_add(&met, order[i + a], order[i + b]);
            }
    }
    if (met.n)   /* none met yet (round 1): met.pair is NULL, which qsort may not take */
        qsort(met.pair, met.n, sizeof *met.pair, cmp_u64);
    /* standings: a random order stands for the scores */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)arb_rng_below(&rng, (uint64_t)i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    rc = swiss_pair(n, k, order, played, rounds_before + 1, &met, t, n / k + 1);
    if (rc >= 0) {
        *ntables = rc;
        rc = 0;
    }
out:
    free(order);
    free(played);
    free(t);
    free(met.pair);
    return rc;
}

/* The entrants of a knockout in seed order, and its first round: everyone
 * from round 1 (single elimination), or the best of each group from round
 * 2 (groups then knockout: group winners first, then runners-up, ...). */
static int knockout_start(const tn_config *cfg, const plan_record *rec, int *start, int *first)
{
    int n = tn_units(cfg);
    uint64_t pseed = plan_seed(cfg, rec);
    if (cfg->format == TN_SINGLE_ELIM) {
        seed_order(cfg, pseed, start);
        *first = 1;
        return n;
    }
    int group[ARB_TN_MAX_ENTRANTS], order[ARB_TN_MAX_ENTRANTS], ns = 0;
    groups_of(cfg, pseed, group);
    int got = standings_order(rec, n, order);
    for (uint32_t place = 0; place < cfg->advance; place++)
        for (uint32_t g = 0; g < cfg->groups; g++) {
            uint32_t seen = 0;
            for (int i = 0; i < got; i++)
                if (group[order[i]] == (int)g && seen++ == place)
                    start[ns++] = order[i];
        }
    *first = 2;
    return ns;
}

/* C(n, k), saturating well past any cap that matters. */
static uint64_t choose(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    uint64_t c = 1;
    for (int i = 1; i <= k; i++) {
        c = c * (uint64_t)(n - k + i) / (uint64_t)i;   /* exact: a product of i consecutive integers */
        if (c > ((uint64_t)1 << 40))
            return (uint64_t)1 << 40;
    }
    return c;
}

int plan_check_size(const tn_config *cfg, char *err, size_t errlen)
{
    int k = units_k(cfg), n = tn_units(cfg);
    uint64_t tables = 0;
    const char *what = NULL;
    if (cfg->format == TN_ROUND_ROBIN) {
        tables = choose(n, k) * cfg->cycles;
        what = "a round robin";
    } else if (cfg->format == TN_GAUNTLET) {
        tables = choose(n - 1, k - 1) * cfg->cycles;
        what = "a gauntlet";
    } else if (cfg->format == TN_GROUPS_KNOCKOUT && cfg->groups) {
        int g = (int)cfg->groups, big = n % g;   /* serpentine: n % g groups hold one more */
        tables = (uint64_t)big * choose(n / g + 1, k) + (uint64_t)(g - big) * choose(n / g, k);
        what = "the group stage";
    }
    if (tables <= ARB_MAX_TABLES)
        return 0;
    snprintf(err, errlen, "%d entrants make %s%" PRIu64 " tables of %d in %s's one round, more than %d",
             n, tables >= ((uint64_t)1 << 40) ? "over " : "", tables, k, what, ARB_MAX_TABLES);
    return ARB_ETOOBIG;
}

/* Double elimination, for two-sided tables (two players, or two teams):
 * nobody is out before losing twice. The state is each unit's losses,
 * replayed from the recorded rounds; each round pairs, in seed order (top
 * seeds take the byes, tables in a serpentine as in single elimination),
 * the units without a loss (the winners' bracket) and, beside them, those
 * with one (the losers' bracket, where each winners' round drops its
 * losers). When one unit without a loss and one with a loss are left,
 * they meet in the grand final; if the losers' bracket's unit wins it,
 * both have lost once and they meet again (the reset). A round's tables
 * are its winners' tables first, then its losers'. */
enum { DE_WINNERS, DE_LOSERS, DE_FINAL, DE_RESET };
static const char *const de_bracket_names[] = {"winners", "losers", "grand final", "grand final reset"};

static int de_tables(const int *order, int n, const uint8_t *losses, store_table *out, uint8_t *bracket, int cap,
                     const char **stage)
{
    int w[ARB_TN_MAX_ENTRANTS], l[ARB_TN_MAX_ENTRANTS], nw = 0, nl = 0, nt = 0, byes;
    bool rr;
    for (int i = 0; i < n; i++) {
        if (losses[order[i]] == 0)
            w[nw++] = order[i];
        else if (losses[order[i]] == 1)
            l[nl++] = order[i];
    }
    if (nw + nl <= 1)
        return 0;
    if (cap < 1)
        return ARB_ENOSPC;
    if (nw <= 1 && nl <= 2 && nw + nl == 2) {   /* the grand final, or its reset */
        out[0].nslots = 2;
        out[0].entrant[0] = nw ? w[0] : l[0];
        out[0].entrant[1] = l[nw ? 0 : 1];
        bracket[0] = nw ? DE_FINAL : DE_RESET;
        *stage = nw ? "final" : "reset";
        return 1;
    }
    *stage = "knockout";
    if (nw >= 2) {
        int got = knockout_tables(w, nw, 2, 1, out, cap, &byes, &rr);
        if (got < 0)
            return got;
        for (int t = 0; t < got; t++)
            bracket[nt + t] = DE_WINNERS;
        nt += got;
    }
    if (nl >= 2) {
        int got = knockout_tables(l, nl, 2, 1, out + nt, cap - nt, &byes, &rr);
        if (got < 0)
            return got;
        for (int t = 0; t < got; t++)
            bracket[nt + t] = DE_LOSERS;
        nt += got;
    }
    return nt;
}

/* Replay rounds 1..last: each unit's losses after them (a table without a
 * result yet changes nothing). With draw, each round's tables are written
 * out as the bracket shows them. Returns the units left (with fewer than
 * two losses), or < 0. */
static int de_replay(const tn_config *cfg, const plan_record *rec, const int *order, int last, uint8_t *losses,
                     store_table *scratch, uint8_t *bracket, int cap, char *buf, size_t len, size_t *used)
{
    int n = tn_units(cfg);
    memset(losses, 0, (size_t)n);
    for (int r = 1; r <= last; r++) {
        const char *stage;
        int nt = de_tables(order, n, losses, scratch, bracket, cap, &stage);
        if (nt <= 0)
            return nt < 0 ? nt : ARB_EIO;   /* the record has a round the format would not make */
        const plan_round *pr = r <= rec->nrounds ? &rec->rounds[r - 1] : NULL;
        if (buf && *used < len)
            *used += (size_t)snprintf(buf + *used, len - *used, "round %d%s\n", r, pr && pr->in_play ? " (in play)" : "");
        for (int t = 0; t < nt; t++) {
            const store_table *o = pr && t < pr->ntables ? &pr->order[t] : NULL;
            bool decided = o && o->nslots == 2;
            if (decided)
                losses[o->entrant[1]]++;
            if (buf && *used < len)
                *used += (size_t)snprintf(buf + *used, len - *used, "  %-17s %s %s %s\n", de_bracket_names[bracket[t]],
                                          unit_name(cfg, decided ? o->entrant[0] : scratch[t].entrant[0]),
                                          decided ? ">" : "vs",
                                          unit_name(cfg, decided ? o->entrant[1] : scratch[t].entrant[1]));
        }
    }
    int left = 0;
    for (int i = 0; i < n; i++)
        left += losses[i] < 2;
    return left;
}

/* Seats from the tables of teams (partnership play): each team of a table
 * takes the seats of the side it was paired on (the side balance was
 * kept over teams, as over entrants), its members in turn — who sits
 * first on the side rotates from round to round. */
static int team_seats(const tn_config *cfg, store_table *t, int nt, int round, char *err, size_t errlen)
{
    int k = seats_of(cfg), seat_team[ARB_MAX_SEATS];
    if (!seat_teams(cfg, k, seat_team)) {
        snprintf(err, errlen, "%s: teams named, and the game fixes no teams before play", cfg->match.game->name);
        return ARB_EINVAL;
    }
    for (int i = 0; i < nt; i++) {
        store_table units = t[i];
        int used[ARB_MAX_SEATS] = {0};
        t[i].nslots = k;
        for (int s = 0; s < k; s++) {
            int side = seat_team[s];
            if (side < 0 || side >= units.nslots) {
                snprintf(err, errlen, "seat %d: side %d of a table of %d teams", s, side, units.nslots);
                return ARB_EINVAL;
            }
            const tn_team *team = &cfg->teams[units.entrant[side]];
            t[i].entrant[s] = team->member[(used[side]++ + round) % team->nmembers];
        }
    }
    return 0;
}

int plan_next(const tn_config *cfg, const plan_record *rec, store_table *tables, int cap, int *ntables,
              const char **stage, bool *done, char *err, size_t errlen)
{
    int seats = seats_of(cfg), k = units_k(cfg), n = tn_units(cfg), nt = 0, last_round = rec ? rec->nrounds : 0;
    *done = false;
    *stage = "main";
    if (seats < 2 || seats > ARB_MAX_SEATS || k < 2) {
        snprintf(err, errlen, "the rules %s do not build (or seat %d)", cfg->match.preset, seats);
        return ARB_EINVAL;
    }
    int hero = -1;
    switch ((tn_format)cfg->format) {
    case TN_GAUNTLET:
        for (int i = 0; i < n; i++)
            if (strcmp(unit_name(cfg, i), cfg->gauntlet) == 0)
                hero = i;
        /* fall through */
    case TN_ROUND_ROBIN:
        if (last_round >= 1) {
            *done = true;
            return 0;
        }
        if (plan_check_size(cfg, err, errlen))   /* the loader said so already, with a place */
            return ARB_ETOOBIG;
        nt = all_tables(cfg, k, hero, tables, cap);
        if (nt < 0) {
            snprintf(err, errlen, "more than %d tables: too many entrants for a round robin of %d-seat tables", cap, k);
            return nt;
        }
        shuffle_tables(tables, nt, plan_seed(cfg, rec), "round-robin");
        break;
    case TN_SWISS:
        if (last_round >= (int)cfg->rounds) {
            *done = true;
            return 0;
        }
        nt = swiss_round(cfg, rec, k, last_round + 1, tables, cap);
        break;
    case TN_SINGLE_ELIM: {
        int order[ARB_TN_MAX_ENTRANTS], alive[ARB_TN_MAX_ENTRANTS], byes;
        seed_order(cfg, plan_seed(cfg, rec), order);
        int m = knockout_alive(cfg, rec, k, order, n, 1, last_round, alive, tables, cap);
        if (m < 0)
            return m;
        if (m <= 1) {
            *done = true;
            return 0;
        }
        bool final_rr;
        *stage = "knockout";
        nt = knockout_tables(alive, m, k, (int)cfg->advance, tables, cap, &byes, &final_rr);
        break;
    }
    case TN_GROUPS_KNOCKOUT: {
        int group[ARB_TN_MAX_ENTRANTS];
        groups_of(cfg, plan_seed(cfg, rec), group);
        if (last_round == 0) {
            *stage = "group";
            for (uint32_t g = 0; g < cfg->groups; g++) {
                int pool[ARB_TN_MAX_ENTRANTS], np = 0;
                for (int i = 0; i < n; i++)
                    if (group[i] == (int)g)
                        pool[np++] = i;
                int got = subsets(pool, np, k, tables + nt, cap - nt, -1);
                if (got < 0)
                    return got;
                nt += got;
            }
            shuffle_tables(tables, nt, plan_seed(cfg, rec), "groups");
            break;
        }
        int start[ARB_TN_MAX_ENTRANTS], alive[ARB_TN_MAX_ENTRANTS], byes, first;
        bool final_rr;
        int ns = knockout_start(cfg, rec, start, &first);
        int m = knockout_alive(cfg, rec, k, start, ns, first, last_round, alive, tables, cap);
        if (m < 0)
            return m;
        if (m <= 1) {
            *done = true;
            return 0;
        }
        *stage = "knockout";
        nt = knockout_tables(alive, m, k, (int)cfg->advance, tables, cap, &byes, &final_rr);
        break;
    }
    case TN_DOUBLE_ELIM: {
        if (k != 2) {
            snprintf(err, errlen, "format double-elimination needs two-sided tables (%d here)", k);
            return ARB_EUNSUPPORTED;
        }
        int order[ARB_TN_MAX_ENTRANTS];
        uint8_t losses[ARB_TN_MAX_ENTRANTS], *bracket = malloc((size_t)(cap > 0 ? cap : 1));
        if (!bracket)
            return ARB_ENOMEM;
        seed_order(cfg, plan_seed(cfg, rec), order);
        size_t used = 0;
        int left = de_replay(cfg, rec, order, last_round, losses, tables, bracket, cap, NULL, 0, &used);
        if (left < 0) {
            free(bracket);
            snprintf(err, errlen, "round %d of the record is not the double elimination's", last_round);
            return left;
        }
        nt = left <= 1 ? 0 : de_tables(order, n, losses, tables, bracket, cap, stage);
        free(bracket);
        if (nt == 0) {
            *done = true;
            return 0;
        }
        break;
    }
    case TN_LADDER:
        snprintf(err, errlen, "a ladder is not planned in rounds: its matches are made as it runs (ladder.h)");
        return ARB_EINVAL;
    default:
        snprintf(err, errlen, "format %s is not known", tn_format_name((tn_format)cfg->format));
        return ARB_EUNSUPPORTED;
    }
    if (nt < 0) {
        snprintf(err, errlen, "could not pair round %d: %s", last_round + 1, arb_strerror(nt));
        return nt;
    }
    if (cfg->nteams > 0) {
        /* teams: their sides balanced as entrants' seats are, then each seated */
        balance(tables, nt, n, k, NULL, NULL);
        int rc = team_seats(cfg, tables, nt, last_round, err, errlen);
        if (rc)
            return rc;
    } else {
        int team[ARB_MAX_SEATS];
        balance(tables, nt, n, k, cfg->entrants, seat_teams(cfg, k, team) ? team : NULL);
    }
    *ntables = nt;
    return 0;
}

size_t plan_draw(const tn_config *cfg, const plan_record *rec, char *buf, size_t len)
{
    if (len == 0)
        return 0;
    buf[0] = 0;
    if (cfg->format == TN_DOUBLE_ELIM && units_k(cfg) == 2) {
        int order[ARB_TN_MAX_ENTRANTS], n = tn_units(cfg);
        uint8_t losses[ARB_TN_MAX_ENTRANTS];
        static store_table scratch[ARB_TN_MAX_ENTRANTS];
        static uint8_t bracket[ARB_TN_MAX_ENTRANTS];
        seed_order(cfg, plan_seed(cfg, rec), order);
        size_t used = (size_t)snprintf(buf, len, "double elimination of %d %s (out after two losses; top seeds "
                                       "take the byes)\n", n, cfg->nteams ? "teams" : "entrants");
        if (used >= len)
            return len - 1;
        int left = de_replay(cfg, rec, order, rec->nrounds, losses, scratch, bracket, ARB_TN_MAX_ENTRANTS, buf, len,
                             &used);
        if (left == 1 && used < len)
            for (int i = 0; i < n; i++)
                if (losses[i] < 2)
                    used += (size_t)snprintf(buf + used, len - used, "champion: %s\n", unit_name(cfg, i));
        return used < len ? used : len - 1;
    }
    if (cfg->format != TN_SINGLE_ELIM && cfg->format != TN_GROUPS_KNOCKOUT)
        return 0;
    int k = units_k(cfg), last = rec->nrounds, start[ARB_TN_MAX_ENTRANTS], first;
    int ns = knockout_start(cfg, rec, start, &first);
    size_t n = (size_t)snprintf(buf, len, "knockout of %d %s(tables of %d, the first %u go on; top seeds take the byes)\n",
                                ns, cfg->nteams ? "teams " : "", k, cfg->advance);
    for (int r = first; r <= last && n < len; r++) {
        const plan_round *pr = &rec->rounds[r - 1];
        n += (size_t)snprintf(buf + n, len - n, "round %d%s\n", r, pr->in_play ? " (in play)" : "");
        for (int t = 0; t < pr->ntables && n < len; t++) {
            n += (size_t)snprintf(buf + n, len - n, "  ");
            for (int e = 0; e < pr->order[t].nslots && n < len; e++)
                n += (size_t)snprintf(buf + n, len - n, "%s%s", e ? " > " : "", unit_name(cfg, pr->order[t].entrant[e]));
            if (n < len)
                n += (size_t)snprintf(buf + n, len - n, "\n");
        }
    }
    int alive[ARB_TN_MAX_ENTRANTS];
    static store_table scratch[1024];
    int m = knockout_alive(cfg, rec, k, start, ns, first, last, alive, scratch, 1024);
    if (m == 1 && n < len)
        n += (size_t)snprintf(buf + n, len - n, "champion: %s\n", unit_name(cfg, alive[0]));
    return n < len ? n : len - 1;
}
