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
#include "plan_internal.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <stdarg.h>
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
int seats_of(const tn_config *cfg)
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
bool seat_teams(const tn_config *cfg, int k, int *team)
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
bool keeps_partners(const tn_entrant *ent, const int *seat_team, const int *e, const int *perm, int k)
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
void balance(store_table *t, int nt, int n, int k, const tn_entrant *ent, const int *seat_team)
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

void shuffle_tables(store_table *t, int nt, uint64_t seed, const char *label)
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

int all_tables(const tn_config *cfg, int k, int hero, store_table *out, int cap)
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
int knockout_tables(const int *alive, int m, int k, int a, store_table *out, int cap, int *nbyes, bool *final_rr)
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

/* ---- ties and placement (docs/rules/placement.md) --------------------- */

/* The match points of place p at table t of a round: k-1 for the first
 * place down to 0, tied places sharing theirs evenly (the record's
 * match_seats.points). */
static double place_points(const plan_round *pr, int t, int p, int k)
{
    if (!pr->rank)
        return k - 1 - p;
    int lo = p, hi = p;
    while (lo > 0 && pr->rank[t][lo - 1] == pr->rank[t][p])
        lo--;
    while (hi + 1 < pr->order[t].nslots && pr->rank[t][hi + 1] == pr->rank[t][p])
        hi++;
    double sum = 0;
    for (int q = lo; q <= hi; q++)
        sum += k - 1 - q;
    return sum / (hi - lo + 1);
}


/* The most units tied at once: at a table (its seats), or in a final
 * round robin (fewer than two tables' worth). */
#define ARB_MAX_TN_TIE (2 * ARB_MAX_SEATS)

/* What a knockout replay notes besides who is alive: per unit the round
 * it was last seated in (or given a bye), the round it went out in (0:
 * not out) and its place then (0 best: at its table, or in the final
 * round robin); the ties settled; and, when buf is set, the bracket as
 * text. Heap-allocated (ko_track_new): its arrays are large. */
typedef struct ko_track {
    int    seen_round[ARB_TN_MAX_ENTRANTS];
    int    out_round[ARB_TN_MAX_ENTRANTS];
    int    out_place[ARB_TN_MAX_ENTRANTS];
    int    final_round;          /* the round that left one unit (0: not yet) */
    int    nties;
    char   ties[64][STORE_NOTE_MAX]; /* the first 64 (a draw of thousands notes no more) */
    char  *buf;
    size_t len, used;
} ko_track;

static void ko_note_tie(ko_track *tr, const char *note)
{
    if (!tr || !note[0] || tr->nties >= 64)
        return;
    size_t n = strnlen(note, STORE_NOTE_MAX - 1);   /* a long note is cut: the record keeps STORE_NOTE_MAX */
    memcpy(tr->ties[tr->nties], note, n);
    tr->ties[tr->nties++][n] = 0;
}

static void ko_print(ko_track *tr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ko_print(ko_track *tr, const char *fmt, ...)
{
    if (!tr || !tr->buf || tr->used >= tr->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tr->buf + tr->used, tr->len - tr->used, fmt, ap);
    va_end(ap);
    if (k > 0)
        tr->used += (size_t)k;
}

/* A draw among units u[0..m) (rule P2's last link): a key per unit from
 * the tournament's draw seed (plan_seed: keyed with its secret) and the
 * label, dealt in the order of the units' indices so that the seats they
 * sat in change nothing; the lowest key is placed first. */
static void draw_keys(const tn_config *cfg, const plan_record *rec, const char *label, const int *u, int m,
                      uint64_t *key)
{
    int idx[ARB_MAX_TN_TIE];
    for (int i = 0; i < m; i++)
        idx[i] = i;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && u[idx[j]] < u[idx[j - 1]]; j--) {
            int x = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = x;
        }
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(plan_seed(cfg, rec), label));
    for (int i = 0; i < m; i++)
        key[idx[i]] = arb_rng_next(&rng);
}

/* Units tied at table t of round r (u[0..m), from place p0) put in order
 * by the chain of rule P2 after the game's verdict: head-to-head (each
 * one's summed score at the earlier tables of this tournament where all
 * of them sat; more first), then the draw. note: what was done. */
static void settle_tie(const tn_config *cfg, const plan_record *rec, int r, int t, int p0, int64_t each, int *u, int m,
                       char *note, size_t notelen)
{
    int64_t h2h[ARB_MAX_TN_TIE] = {0};
    uint64_t key[ARB_MAX_TN_TIE];
    int met = 0;
    for (int r2 = 1; r2 < r; r2++) {
        const plan_round *pr = &rec->rounds[r2 - 1];
        for (int t2 = 0; pr->total && t2 < pr->ntables; t2++) {
            const store_table *o = &pr->order[t2];
            int at[ARB_MAX_TN_TIE], found = 0;
            for (int i = 0; i < m; i++)
                for (int p = 0; p < o->nslots; p++)
                    if (o->entrant[p] == u[i]) {
                        at[i] = p;
                        found++;
                        break;
                    }
            if (found != m)
                continue;
            met++;
            for (int i = 0; i < m; i++)
                h2h[i] += pr->total[t2][at[i]];
        }
    }
    char label[64];
    snprintf(label, sizeof label, "tiebreak/round/%d/table/%d", r, t);
    draw_keys(cfg, rec, label, u, m, key);
    int before[ARB_MAX_TN_TIE];
    memcpy(before, u, (size_t)m * sizeof *u);
    int64_t hb[ARB_MAX_TN_TIE];
    memcpy(hb, h2h, sizeof hb);
    bool drawn = false;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0; j--) {
            bool swap = h2h[j] > h2h[j - 1] || (h2h[j] == h2h[j - 1] && key[j] < key[j - 1]);
            if (!swap)
                break;
            int x = u[j]; u[j] = u[j - 1]; u[j - 1] = x;
            int64_t y = h2h[j]; h2h[j] = h2h[j - 1]; h2h[j - 1] = y;
            uint64_t z = key[j]; key[j] = key[j - 1]; key[j - 1] = z;
        }
    for (int i = 1; i < m; i++)
        drawn = drawn || h2h[i] == h2h[i - 1];
    size_t k = (size_t)snprintf(note, notelen, "round %d table %d: ", r, t + 1);
    for (int i = 0; i < m && k < notelen; i++)
        k += (size_t)snprintf(note + k, notelen - k, "%s%s", i ? ", " : "", unit_name(cfg, before[i]));
    if (k < notelen)
        k += (size_t)snprintf(note + k, notelen - k, " tied at place %d (%+" PRId64 " each); head-to-head ", p0 + 1, each);
    if (met == 0 && k < notelen)
        k += (size_t)snprintf(note + k, notelen - k, "none (never met)");
    for (int i = 0; met > 0 && i < m && k < notelen; i++)
        k += (size_t)snprintf(note + k, notelen - k, "%s%s %+" PRId64, i ? ", " : "", unit_name(cfg, before[i]), hb[i]);
    if (k < notelen && drawn)
        k += (size_t)snprintf(note + k, notelen - k, "%s; then the seeded draw", met ? " over the earlier tables" : "");
    if (k < notelen)
        k += (size_t)snprintf(note + k, notelen - k, ": ");
    for (int i = 0; i < m && k < notelen; i++)
        k += (size_t)snprintf(note + k, notelen - k, "%s%s", i ? " > " : "", unit_name(cfg, u[i]));
}

/* Table t of round r in the order the knockouts take it: the game's
 * places (rank), every tie (equal ranks) settled by settle_tie. *out is
 * empty for a table without a result; note "" when nothing was tied. */
static void settled_order(const tn_config *cfg, const plan_record *rec, int r, int t, store_table *out, char *note,
                          size_t notelen)
{
    note[0] = 0;
    memset(out, 0, sizeof *out);
    if (!rec || r < 1 || r > rec->nrounds || t >= rec->rounds[r - 1].ntables)
        return;
    const plan_round *pr = &rec->rounds[r - 1];
    *out = pr->order[t];
    if (!pr->rank || !pr->total)
        return;
    size_t used = 0;
    for (int i = 0; i < out->nslots;) {
        int j = i + 1;
        while (j < out->nslots && pr->rank[t][j] == pr->rank[t][i])
            j++;
        if (j - i >= 2 && j - i <= ARB_MAX_TN_TIE && used + 2 < notelen) {
            if (used)
                used += (size_t)snprintf(note + used, notelen - used, "; ");
            settle_tie(cfg, rec, r, t, i, pr->total[t][i], out->entrant + i, j - i, note + used, notelen - used);
            used += strlen(note + used);
        }
        i = j;
    }
}

static void ko_print_names(ko_track *tr, const tn_config *cfg, const store_table *o, const char *sep)
{
    for (int e = 0; e < o->nslots; e++)
        ko_print(tr, "%s%s", e ? sep : "", unit_name(cfg, o->entrant[e]));
}

/* Replay a knockout from round `first` to `last`: who is alive now (in
 * seed order). Returns the count (1: a champion, alive[0]). Every table's
 * order is settled_order's; tr (NULL: none) notes who went out where, the
 * ties, and the bracket. */
static int knockout_alive(const tn_config *cfg, const plan_record *rec, int k, const int *start, int nstart, int first,
                          int last, int *alive, store_table *scratch, int cap, ko_track *tr)
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
        const plan_round *pr = rec && r <= rec->nrounds ? &rec->rounds[r - 1] : NULL;
        ko_print(tr, "round %d%s%s\n", r, final_rr ? " (the final, a round robin)" : m == k ? " (the final)" : "",
                 pr && pr->in_play ? " (in play)" : "");
        if (byes > 0) {
            ko_print(tr, "  byes: ");
            for (int i = 0; i < byes; i++)
                ko_print(tr, "%s%s", i ? ", " : "", unit_name(cfg, alive[i]));
            ko_print(tr, "\n");
        }
        for (int i = 0; tr && i < m; i++)
            tr->seen_round[alive[i]] = r;
        for (int t = 0; t < nt; t++) {
            char note[STORE_NOTE_MAX * 2];
            settled_order(cfg, rec, r, t, &order[t], note, sizeof note);
            if (final_rr)   /* the final round robin counts points, tied places sharing theirs: nothing settled */
                note[0] = 0;
            ko_note_tie(tr, note);
            ko_print(tr, "  ");
            if (order[t].nslots)
                ko_print_names(tr, cfg, &order[t], " > ");
            else
                ko_print_names(tr, cfg, &scratch[t], " vs ");
            ko_print(tr, "%s%s\n", note[0] ? "    tie: " : "", note);
        }
        int next[ARB_TN_MAX_ENTRANTS], nn = 0;
        if (final_rr || m == k) {
            /* the final: most places won (k-1 for a first place, ...),
             * then the score in the final, then the draw */
            double pts[ARB_TN_MAX_ENTRANTS] = {0};
            int64_t tot[ARB_TN_MAX_ENTRANTS] = {0};
            for (int t = 0; pr && t < pr->ntables; t++)
                for (int p = 0; p < pr->order[t].nslots; p++)
                    pts[pr->order[t].entrant[p]] += place_points(pr, t, p, k);
            for (int t = 0; pr && pr->total && t < pr->ntables; t++)
                for (int p = 0; p < pr->order[t].nslots; p++)
                    tot[pr->order[t].entrant[p]] += pr->total[t][p];
            int fo[ARB_TN_MAX_ENTRANTS];
            uint64_t key[ARB_TN_MAX_ENTRANTS];
            memcpy(fo, alive, (size_t)m * sizeof *fo);
            bool drawn = false;
            if (final_rr && m <= ARB_MAX_TN_TIE) {
                char label[64];
                snprintf(label, sizeof label, "tiebreak/round/%d/final", r);
                draw_keys(cfg, rec, label, fo, m, key);
                for (int i = 1; i < m; i++)
                    for (int j = i; j > 0; j--) {
                        int a = fo[j - 1], b = fo[j];
                        bool swap = pts[b] > pts[a] || (pts[b] == pts[a] && (tot[b] > tot[a]
                                    || (tot[b] == tot[a] && key[j] < key[j - 1])));
                        if (!swap)
                            break;
                        fo[j - 1] = b;
                        fo[j] = a;
                        uint64_t z = key[j]; key[j] = key[j - 1]; key[j - 1] = z;
                    }
                for (int i = 1; i < m; i++)
                    drawn = drawn || (pts[fo[i]] == pts[fo[i - 1]] && tot[fo[i]] == tot[fo[i - 1]]);
            } else if (m == k) {
                memcpy(fo, order[0].entrant, (size_t)order[0].nslots * sizeof *fo);
            }
            bool decided = pr && !pr->in_play;
            if (m == k && order[0].nslots != m)
                memcpy(fo, alive, (size_t)m * sizeof *fo);   /* a void final: the top seed, as before */
            if (final_rr && decided) {
                ko_print(tr, "  the final's order (points, then score, then the draw): ");
                for (int i = 0; i < m; i++)
                    ko_print(tr, "%s%s %.0f (%+" PRId64 ")", i ? " > " : "", unit_name(cfg, fo[i]), pts[fo[i]], tot[fo[i]]);
                ko_print(tr, "\n");
                if (drawn && tr) {
                    char note[STORE_NOTE_MAX];
                    size_t u = (size_t)snprintf(note, sizeof note, "round %d, the final round robin: level on points and "
                                                "score, the seeded draw: ", r);
                    for (int i = 0; i < m && u < sizeof note; i++)
                        u += (size_t)snprintf(note + u, sizeof note - u, "%s%s", i ? " > " : "", unit_name(cfg, fo[i]));
                    ko_note_tie(tr, note);
                }
            }
            if (decided) {
                next[nn++] = fo[0];
                for (int i = 1; tr && i < m; i++) {
                    tr->out_round[fo[i]] = r;
                    tr->out_place[fo[i]] = i;
                }
                if (tr)
                    tr->final_round = r;
            } else {
                memcpy(next, alive, (size_t)m * sizeof *next);   /* in play: nobody is out yet */
                nn = m;
            }
        } else {
            for (int i = 0; i < byes; i++)
                next[nn++] = alive[i];
            for (int t = 0; t < nt; t++) {
                for (int p = 0; p < (int)cfg->advance && p < order[t].nslots; p++)
                    next[nn++] = order[t].entrant[p];
                for (int p = (int)cfg->advance; tr && p < order[t].nslots; p++) {
                    tr->out_round[order[t].entrant[p]] = r;
                    tr->out_place[order[t].entrant[p]] = p;
                }
            }
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

/* The group stage's standings (round 1 alone: what the knockout rounds
 * add changes no group's order), best first: match points, score, tables
 * won, then the unit's index — the order of the `standings` view. */
static int group_standings(const tn_config *cfg, const plan_record *rec, int *order)
{
    int n = tn_units(cfg), k = units_k(cfg);
    if (!rec || rec->nrounds < 1)
        return 0;
    struct { double pts[ARB_TN_MAX_ENTRANTS]; int64_t score[ARB_TN_MAX_ENTRANTS]; int wins[ARB_TN_MAX_ENTRANTS]; }
        *g = calloc(1, sizeof *g);
    if (!g)
        return 0;
    double *pts = g->pts;
    int64_t *score = g->score;
    int *wins = g->wins;
    const plan_round *pr = &rec->rounds[0];
    for (int t = 0; t < pr->ntables; t++)
        for (int p = 0; p < pr->order[t].nslots; p++) {
            int u = pr->order[t].entrant[p];
            if (u < 0 || u >= n)
                continue;
            pts[u] += place_points(pr, t, p, k);
            score[u] += pr->total ? pr->total[t][p] : 0;
            wins[u] += pr->rank ? pr->rank[t][p] == 1 : p == 0;
        }
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            bool swap = pts[b] > pts[a] || (pts[b] == pts[a] && (score[b] > score[a]
                        || (score[b] == score[a] && (wins[b] > wins[a] || (wins[b] == wins[a] && b < a)))));
            if (!swap)
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    free(g);
    return n;
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

int met_add(met_set *m, int a, int b)
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
int met_count(const met_set *m, int a, int b)
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
int swiss_pair(int n, int k, const int *order, const int *played, int round, const met_set *met,
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
    int got = group_standings(cfg, rec, order);
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
 * result yet changes nothing; a tie is settled as in every knockout,
 * settled_order). tr (NULL: none) notes the round each unit went out in,
 * the ties and, with its buf, each round's tables as the bracket shows
 * them. Returns the units left (with fewer than two losses), or < 0. */
static int de_replay(const tn_config *cfg, const plan_record *rec, const int *order, int last, uint8_t *losses,
                     store_table *scratch, uint8_t *bracket, int cap, ko_track *tr)
{
    int n = tn_units(cfg);
    memset(losses, 0, (size_t)n);
    for (int r = 1; r <= last; r++) {
        const char *stage;
        int nt = de_tables(order, n, losses, scratch, bracket, cap, &stage);
        if (nt <= 0)
            return nt < 0 ? nt : ARB_EIO;   /* the record has a round the format would not make */
        const plan_round *pr = r <= rec->nrounds ? &rec->rounds[r - 1] : NULL;
        ko_print(tr, "round %d%s\n", r, pr && pr->in_play ? " (in play)" : "");
        for (int t = 0; t < nt; t++) {
            store_table o;
            char note[STORE_NOTE_MAX * 2];
            settled_order(cfg, rec, r, t, &o, note, sizeof note);
            bool decided = o.nslots == 2;
            if (decided && ++losses[o.entrant[1]] == 2 && tr)
                tr->out_round[o.entrant[1]] = r;
            for (int e = 0; tr && e < 2; e++)
                tr->seen_round[scratch[t].entrant[e]] = r;
            ko_note_tie(tr, note);
            ko_print(tr, "  %-17s %s %s %s%s%s\n", de_bracket_names[bracket[t]],
                     unit_name(cfg, decided ? o.entrant[0] : scratch[t].entrant[0]), decided ? ">" : "vs",
                     unit_name(cfg, decided ? o.entrant[1] : scratch[t].entrant[1]), note[0] ? "    tie: " : "", note);
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
        int m = knockout_alive(cfg, rec, k, order, n, 1, last_round, alive, tables, cap, NULL);
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
        int m = knockout_alive(cfg, rec, k, start, ns, first, last_round, alive, tables, cap, NULL);
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
        int left = de_replay(cfg, rec, order, last_round, losses, tables, bracket, cap, NULL);
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

/* Replay the knockout part of a format into tr (ko_track): the units in
 * it (*in_ko per unit), in seed order into start[0..*ns), and those left
 * (alive[0..return)). 0 units left with *ns 0: no knockout to show (other
 * formats, or the group stage not over). */
static int ko_replay(const tn_config *cfg, const plan_record *rec, ko_track *tr, int *start, int *ns, int *alive)
{
    int k = units_k(cfg), first;
    static store_table scratch[ARB_TN_MAX_ENTRANTS];
    *ns = 0;
    if (cfg->format == TN_DOUBLE_ELIM) {
        if (k != 2)
            return 0;
        uint8_t losses[ARB_TN_MAX_ENTRANTS];
        static uint8_t bracket[ARB_TN_MAX_ENTRANTS];
        seed_order(cfg, plan_seed(cfg, rec), start);
        *ns = tn_units(cfg);
        int left = de_replay(cfg, rec, start, rec->nrounds, losses, scratch, bracket, ARB_TN_MAX_ENTRANTS, tr);
        if (left < 0)
            return left;
        int m = 0;
        for (int i = 0; i < *ns; i++)
            if (losses[start[i]] < 2)
                alive[m++] = start[i];
        if (m == 1)
            tr->final_round = rec->nrounds;
        return m;
    }
    if (cfg->format != TN_SINGLE_ELIM && cfg->format != TN_GROUPS_KNOCKOUT)
        return 0;
    if (cfg->format == TN_GROUPS_KNOCKOUT && (rec->nrounds < 1 || rec->rounds[0].in_play))
        return 0;
    *ns = knockout_start(cfg, rec, start, &first);
    return knockout_alive(cfg, rec, k, start, *ns, first, rec->nrounds, alive, scratch, ARB_TN_MAX_ENTRANTS, tr);
}

/* The stage a unit went out in, counted back from the final once there
 * is a champion. */
static void reached_name(const ko_track *tr, int u, bool champion, char *out, size_t len)
{
    static const char *const back[] = {"final", "semi-final", "quarter-final"};
    int r = tr->out_round[u];
    if (champion)
        snprintf(out, len, "champion");
    else if (r == 0)
        snprintf(out, len, "still in (round %d)", tr->seen_round[u]);
    else if (tr->final_round && tr->final_round - r < 3)
        snprintf(out, len, "%s", back[tr->final_round - r]);
    else
        snprintf(out, len, "round %d", r);
}

int plan_placement(const tn_config *cfg, const plan_record *rec, store_place *out, int cap,
                   char (*ties)[STORE_NOTE_MAX], int tcap, int *nties)
{
    *nties = 0;
    ko_track *tr = calloc(1, sizeof *tr);
    int *start = malloc(3 * ARB_TN_MAX_ENTRANTS * sizeof *start);
    int rc = ARB_ENOMEM;
    if (!tr || !start)
        goto out;
    int *alive = start + ARB_TN_MAX_ENTRANTS, *order = alive + ARB_TN_MAX_ENTRANTS, ns;
    int left = ko_replay(cfg, rec, tr, start, &ns, alive);
    rc = left < 0 ? left : 0;
    if (left < 0 || ns == 0)
        goto out;
    int n = tn_units(cfg);
    /* the tie-breaks after the stage: the standings (points, score, wins) */
    int srank[ARB_TN_MAX_ENTRANTS], seed[ARB_TN_MAX_ENTRANTS], gplace[ARB_TN_MAX_ENTRANTS] = {0};
    bool in_ko[ARB_TN_MAX_ENTRANTS] = {false};
    for (int i = 0; i < n; i++)
        srank[i] = seed[i] = n;
    for (int i = 0; i < rec->nstandings; i++)
        if (rec->standings[i].entrant >= 0 && rec->standings[i].entrant < n)
            srank[rec->standings[i].entrant] = i;
    for (int i = 0; i < ns; i++) {
        in_ko[start[i]] = true;
        seed[start[i]] = i;
    }
    if (cfg->format == TN_GROUPS_KNOCKOUT) {   /* place in the group, from the group stage's standings */
        int group[ARB_TN_MAX_ENTRANTS], seen[ARB_TN_MAX_ENTRANTS] = {0}, gorder[ARB_TN_MAX_ENTRANTS];
        groups_of(cfg, plan_seed(cfg, rec), group);
        int got = group_standings(cfg, rec, gorder);
        for (int i = 0; i < got; i++)
            gplace[gorder[i]] = seen[group[gorder[i]]]++;
    }
    bool champion = left == 1 && tr->final_round > 0;
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* in the knockout before out of it; not out before out; out later
     * before out sooner; a better place at the table first; then the
     * group place (out in the group stage); then the standings */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            long ka[5] = {in_ko[a] ? 0 : 1, tr->out_round[a] == 0 ? 0 : 1, tr->out_round[a] == 0 ? -tr->seen_round[a]
                          : -tr->out_round[a], tr->out_round[a] == 0 ? seed[a] : tr->out_place[a], gplace[a]};
            long kb[5] = {in_ko[b] ? 0 : 1, tr->out_round[b] == 0 ? 0 : 1, tr->out_round[b] == 0 ? -tr->seen_round[b]
                          : -tr->out_round[b], tr->out_round[b] == 0 ? seed[b] : tr->out_place[b], gplace[b]};
            int c = 0;
            for (int q = 0; q < 5 && !c; q++)
                c = kb[q] < ka[q] ? -1 : kb[q] > ka[q] ? 1 : 0;
            if (c > 0 || (c == 0 && srank[b] >= srank[a]))
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    int placed = n < cap ? n : cap;
    for (int i = 0; i < placed; i++) {
        int u = order[i];
        out[i] = (store_place){.unit = u, .place = i + 1};
        if (in_ko[u])
            reached_name(tr, u, champion && i == 0, out[i].reached, sizeof out[i].reached);
        else
            snprintf(out[i].reached, sizeof out[i].reached, "group stage");
        /* the unit's own tie, if any: the notes name it */
        for (int t = 0; t < tr->nties && !out[i].tiebreak[0]; t++) {
            const char *name = unit_name(cfg, u), *hit = tr->ties[t];
            size_t ln = strlen(name);
            while ((hit = strstr(hit, name)) != NULL) {
                bool whole = (hit == tr->ties[t] || strchr(" ,>", hit[-1])) && strchr(" ,>()", hit[ln] ? hit[ln] : ' ');
                if (whole) {
                    memcpy(out[i].tiebreak, tr->ties[t], sizeof out[i].tiebreak);
                    break;
                }
                hit += ln;
            }
        }
    }
    for (int t = 0; t < tr->nties && t < tcap; t++)
        memcpy(ties[(*nties)++], tr->ties[t], STORE_NOTE_MAX);
    rc = placed;
out:
    free(tr);
    free(start);
    return rc;
}

size_t plan_draw(const tn_config *cfg, const plan_record *rec, char *buf, size_t len)
{
    if (len == 0)
        return 0;
    buf[0] = 0;
    int k = units_k(cfg), n = tn_units(cfg);
    bool de = cfg->format == TN_DOUBLE_ELIM && k == 2;
    if (!de && cfg->format != TN_SINGLE_ELIM && cfg->format != TN_GROUPS_KNOCKOUT)
        return 0;
    ko_track *tr = calloc(1, sizeof *tr);
    int *start = malloc(2 * ARB_TN_MAX_ENTRANTS * sizeof *start);
    if (!tr || !start) {
        free(tr);
        free(start);
        return 0;
    }
    tr->buf = buf;
    tr->len = len;
    if (cfg->format == TN_GROUPS_KNOCKOUT && rec->nrounds >= 1) {
        /* the group stage: each group in its standings order, those going on marked */
        int group[ARB_TN_MAX_ENTRANTS], gorder[ARB_TN_MAX_ENTRANTS];
        groups_of(cfg, plan_seed(cfg, rec), group);
        int ngo = group_standings(cfg, rec, gorder);
        ko_print(tr, "group stage (round 1%s): %u groups, the first %u of each go on (*)\n",
                 rec->rounds[0].in_play ? ", in play" : "", cfg->groups, cfg->advance);
        for (uint32_t g = 0; g < cfg->groups; g++) {
            ko_print(tr, "  group %u:", g + 1);
            uint32_t seen = 0;
            for (int i = 0; i < ngo; i++) {
                int u = gorder[i];
                if (group[u] == (int)g)
                    ko_print(tr, " %s%s", seen++ < cfg->advance && !rec->rounds[0].in_play ? "*" : "", unit_name(cfg, u));
            }
            ko_print(tr, "\n");
        }
    }
    if (de)
        ko_print(tr, "double elimination of %d %s (out after two losses; top seeds take the byes)\n", n,
                 cfg->nteams ? "teams" : "entrants");
    else if (cfg->format == TN_SINGLE_ELIM || (rec->nrounds >= 1 && !rec->rounds[0].in_play))
        ko_print(tr, "knockout of %d %s(tables of %d, the first %u go on; top seeds take the byes; a tie at a table: "
                 "head-to-head, then the seeded draw)\n", cfg->format == TN_SINGLE_ELIM ? n : (int)(cfg->groups * cfg->advance),
                 cfg->nteams ? "teams " : "", k, cfg->advance);
    int ns, left = ko_replay(cfg, rec, tr, start, &ns, start + ARB_TN_MAX_ENTRANTS);
    if (left == 1 && tr->final_round)
        ko_print(tr, "champion: %s\n", unit_name(cfg, start[ARB_TN_MAX_ENTRANTS]));
    size_t used = tr->used < len ? tr->used : len - 1;
    free(tr);
    free(start);
    return used;
}
