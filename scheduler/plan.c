/* plan.c — the rounds of each tournament format (plan.h).
 *
 * Round robin and gauntlet are one round holding every table. Swiss pairs
 * round by round from the standings. Knockouts (single elimination, and the
 * knockout after groups) are rebuilt from the recorded results every time:
 * the alive entrants in seed order, the top seeds given the byes a round
 * needs, tables filled in a serpentine so top seeds meet late, the best
 * `advance` of each table going on. Every random choice comes from the
 * tournament seed; nothing depends on timing or on which worker played.
 *
 * This file keeps the dispatcher (plan_next), the size check and what
 * every format shares: the seats and sides of a table, seat balance, the
 * draw's seed and the seed order. Each format is in its own file
 * (plan_rr.c, plan_swiss.c, plan_knockout.c, plan_de.c, plan_groups.c),
 * the tie-breaks and placement in plan_ties.c, the ASCII bracket in
 * plan_draw.c; plan_int.h declares what they share. */
#include "plan_int.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
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
int plan__seats_of(const tn_config *cfg)
{
    void *rules = build_rules(cfg);
    int k = rules ? cfg->match.game->seats(rules) : 0;
    free(rules);
    return k;
}

/* What a format pairs (tournament.h, tn_units): teams in partnership
 * play, else entrants; a table holds ku of them (units_k): the game's
 * sides, or its seats. */
int plan__units_k(const tn_config *cfg)
{
    return cfg->nteams > 0 ? cfg->sides : plan__seats_of(cfg);
}

static uint32_t unit_seed(const tn_config *cfg, int u)
{
    return cfg->nteams > 0 ? cfg->teams[u].seed : cfg->entrants[u].seed;
}

const char *plan__unit_name(const tn_config *cfg, int u)
{
    return cfg->nteams > 0 ? cfg->teams[u].name : cfg->entrants[u].name;
}

/* The seats' teams when the game fixes them before anything is played
 * (Da Bang: 0+2 against 1+3): the team_of each seat in a fresh deal, into
 * team[]. false when a seat has no team yet (Dou Dizhu: the landlord is
 * not known before the bidding), or the rules do not build. */
bool plan__seat_teams(const tn_config *cfg, int k, int *team)
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
    *seats = plan__seats_of(cfg);
    if (*seats < 2 || *seats > ARB_MAX_SEATS)
        return -1;
    if (!plan__seat_teams(cfg, *seats, side_of_seat))
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
bool plan__keeps_partners(const tn_entrant *ent, const int *seat_team, const int *e, const int *perm, int k)
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
void plan__balance(store_table *t, int nt, int n, int k, const tn_entrant *ent, const int *seat_team)
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
                any = any || plan__keeps_partners(ent, seat_team, e, perms[q], k);
            for (int q = 0; q < np; q++) {
                if (any && !plan__keeps_partners(ent, seat_team, e, perms[q], k))
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

void plan__shuffle_tables(store_table *t, int nt, uint64_t seed, const char *label)
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

/* The seed of the tournament's draws (seeding order, table shuffles):
 * keyed with the tournament's secret like the deals (docs/rng.md), so that
 * nobody computes the draw from the public seed before the secret is
 * revealed; the bare tournament seed when there is no record or no secret
 * (the unit tests). Same secret, same draw: a resume redraws nothing new. */
uint64_t plan__seed(const tn_config *cfg, const plan_record *rec)
{
    if (!rec || !rec->has_secret)
        return cfg->seed;
    return arb_seeds_plan(rec->secret, cfg->seed);
}

/* Seed order: seeded entrants by rank, then the rest in an order drawn
 * from the draw seed (plan_seed). */
void plan__seed_order(const tn_config *cfg, uint64_t pseed, int *order)
{
    int n = tn_units(cfg);
    for (int i = 0; i < n; i++)
        order[i] = i;
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(pseed, ARB_SEEDS_SEEDING));
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

/* The entrants in standings order (the record's, best first). */
int plan__standings_order(const plan_record *rec, int n, int *order)
{
    int got = rec ? (rec->nstandings < n ? rec->nstandings : n) : 0;
    for (int i = 0; i < got; i++)
        order[i] = rec->standings[i].entrant;
    return got;
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
    int k = plan__units_k(cfg), n = tn_units(cfg);
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

/* Seats from the tables of teams (partnership play): each team of a table
 * takes the seats of the side it was paired on (the side balance was
 * kept over teams, as over entrants), its members in turn — who sits
 * first on the side rotates from round to round. */
static int team_seats(const tn_config *cfg, store_table *t, int nt, int round, char *err, size_t errlen)
{
    int k = plan__seats_of(cfg), seat_team[ARB_MAX_SEATS];
    if (!plan__seat_teams(cfg, k, seat_team)) {
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
    int seats = plan__seats_of(cfg), k = plan__units_k(cfg), n = tn_units(cfg), nt = 0, last_round = rec ? rec->nrounds : 0;
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
            if (strcmp(plan__unit_name(cfg, i), cfg->gauntlet) == 0)
                hero = i;
        /* fall through */
    case TN_ROUND_ROBIN:
        if (last_round >= 1) {
            *done = true;
            return 0;
        }
        if (plan_check_size(cfg, err, errlen))   /* the loader said so already, with a place */
            return ARB_ETOOBIG;
        nt = plan__all_tables(cfg, k, hero, tables, cap);
        if (nt < 0) {
            snprintf(err, errlen, "more than %d tables: too many entrants for a round robin of %d-seat tables", cap, k);
            return nt;
        }
        plan__shuffle_tables(tables, nt, plan__seed(cfg, rec), ARB_SEEDS_ROUND_ROBIN);
        break;
    case TN_SWISS:
        if (last_round >= (int)cfg->rounds) {
            *done = true;
            return 0;
        }
        nt = plan__swiss_round(cfg, rec, k, last_round + 1, tables, cap);
        break;
    case TN_SINGLE_ELIM: {
        int order[ARB_TN_MAX_ENTRANTS], alive[ARB_TN_MAX_ENTRANTS], byes;
        plan__seed_order(cfg, plan__seed(cfg, rec), order);
        int m = plan__knockout_alive(cfg, rec, k, order, n, 1, last_round, alive, tables, cap, NULL);
        if (m < 0)
            return m;
        if (m <= 1) {
            *done = true;
            return 0;
        }
        bool final_rr;
        *stage = "knockout";
        nt = plan__knockout_tables(alive, m, k, (int)cfg->advance, tables, cap, &byes, &final_rr);
        break;
    }
    case TN_GROUPS_KNOCKOUT: {
        int group[ARB_TN_MAX_ENTRANTS];
        plan__groups_of(cfg, plan__seed(cfg, rec), group);
        if (last_round == 0) {
            *stage = "group";
            for (uint32_t g = 0; g < cfg->groups; g++) {
                int pool[ARB_TN_MAX_ENTRANTS], np = 0;
                for (int i = 0; i < n; i++)
                    if (group[i] == (int)g)
                        pool[np++] = i;
                int got = plan__subsets(pool, np, k, tables + nt, cap - nt, -1);
                if (got < 0)
                    return got;
                nt += got;
            }
            plan__shuffle_tables(tables, nt, plan__seed(cfg, rec), ARB_SEEDS_GROUPS);
            break;
        }
        int start[ARB_TN_MAX_ENTRANTS], alive[ARB_TN_MAX_ENTRANTS], byes, first;
        bool final_rr;
        int ns = plan__knockout_start(cfg, rec, start, &first);
        int m = plan__knockout_alive(cfg, rec, k, start, ns, first, last_round, alive, tables, cap, NULL);
        if (m < 0)
            return m;
        if (m <= 1) {
            *done = true;
            return 0;
        }
        *stage = "knockout";
        nt = plan__knockout_tables(alive, m, k, (int)cfg->advance, tables, cap, &byes, &final_rr);
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
        plan__seed_order(cfg, plan__seed(cfg, rec), order);
        int left = plan__de_replay(cfg, rec, order, last_round, losses, tables, bracket, cap, NULL);
        if (left < 0) {
            free(bracket);
            snprintf(err, errlen, "round %d of the record is not the double elimination's", last_round);
            return left;
        }
        nt = left <= 1 ? 0 : plan__de_tables(order, n, losses, tables, bracket, cap, stage);
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
        plan__balance(tables, nt, n, k, NULL, NULL);
        int rc = team_seats(cfg, tables, nt, last_round, err, errlen);
        if (rc)
            return rc;
    } else {
        int team[ARB_MAX_SEATS];
        plan__balance(tables, nt, n, k, cfg->entrants, plan__seat_teams(cfg, k, team) ? team : NULL);
    }
    *ntables = nt;
    return 0;
}
