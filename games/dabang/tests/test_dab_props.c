/* test_dab_props.c — properties of Da Bang over many seeded random deals,
 * played as whole matches with random choices at every decision (random
 * declaring, tribute, burying, jokers, plays): the 162 cards are conserved
 * at every step, every enumerated play validates, the points add up to 300
 * with the kitty, every deal ends within a bound, the outcome, the levels
 * and the blood are what DB-31, DB-32, DB-50, DB-51 and DB-60..DB-64 say of
 * the deal and its context, the same seed gives the same bytes, and every
 * match ends with a winner (DB-70, DB-71). Most deals run on the engine's
 * own API with its random follow (fast); every 20th match runs through the
 * arb_game interface with the full legal lists, each action checked and
 * its text read back. Usage: test_dab_props [DEALS] */
#include "dabang.h"
#include "test_num.h"
#include "arb_error.h"
#include "arb_rng.h"
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

enum { DECISION_BOUND = 1200 };

typedef struct stats {
    long deals, first_deals, redealt, declared, flipped, kitty_named;
    long tribute_deals, tribute_cards, short_tribute, dry, dajia_jokers, others_jokers, take_choices, kitty_shown_jokers;
    long kase[5], specials, three_jokers, passed10, max_decisions, full_enum, roundtrips;
    long matches, match_by_limit, match_outright, same_seed, forfeits;
} stats;

static stats st;
static int shown;

#define FAILF(...) do { t_failed++; if (shown++ < 30) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* ---- Conservation (DB-1..DB-3) ------------------------------------------ */

/* Cards everywhere: the hands, the kitty, the undrawn deck, the cards
 * played (`played`: finished tricks and the current one). */
static void conserved(const dab_state *s, const dab_hand *played, bool per_card, const char *where)
{
    int total = played->total + s->kitty.total + (DAB_DECK - DAB_KITTY - s->drawn);
    for (int p = 0; p < DAB_SEATS; p++)
        total += s->hand[p].total;
    if (total != DAB_DECK)
        FAILF("%s: seed %llu phase %d: %d cards", where, (unsigned long long)s->seed, s->phase, total);
    if (!per_card)
        return;
    int n[DAB_NCARDS] = {0};
    for (int c = 0; c < DAB_NCARDS; c++) {
        n[c] = played->n[c] + s->kitty.n[c];
        for (int p = 0; p < DAB_SEATS; p++)
            n[c] += s->hand[p].n[c];
    }
    for (int i = s->drawn; i < DAB_DECK - DAB_KITTY; i++)
        n[s->deck[i]]++;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (n[c] != DAB_COPIES) {
            FAILF("%s: seed %llu phase %d: card %d is there %d times", where, (unsigned long long)s->seed, s->phase,
                  c, n[c]);
            return;
        }
    /* the current trick's plays are among the played cards */
    dab_hand cur = {0};
    for (int i = 0; i < s->ntrick; i++)
        for (int j = 0; j < s->trick[i].n; j++)
            cur.n[s->trick[i].c[j]]++;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (cur.n[c] > played->n[c])
            FAILF("%s: the trick holds cards not played", where);
}

/* ---- The outcome against the rules (DB-30..DB-32, DB-50, DB-51, DB-60..DB-64) */

static void check_outcome(const dab_state *s)
{
    const dab_outcome *o = &s->out;
    const dab_rules *r = &s->rules;
    int dteam = dab_team(s->dajia), ateam = 1 - dteam;
    for (int p = 0; p < DAB_SEATS; p++)
        CHECK(s->hand[p].total == 0);                              /* DB-29 */
    CHECK(s->kitty.total == DAB_KITTY);
    int kp = dab_hand_points(&s->kitty);
    CHECK(o->kitty_points == kp);
    CHECKF(s->points[0] + s->points[1] + kp == 300, "points %d + %d + kitty %d", s->points[0], s->points[1], kp);
    bool dug = dab_team(s->last_winner) == ateam;                   /* DB-31 */
    CHECK(o->dug == dug);
    int a = s->points[ateam] + (dug ? kp * r->kitty_multiplier : 0);
    CHECKF(o->points == a, "attackers %d, expected %d", o->points, a);
    int kase = a < 120 ? (dug ? 2 : 1) : (dug ? 4 : 3);            /* DB-32 */
    CHECK(o->kase == kase);
    st.kase[kase]++;
    int nrj = s->dry ? 0 : s->kitty.n[DAB_RJ], nbj = s->dry ? 0 : s->kitty.n[DAB_BJ];
    bool enjoy = kase != 2;                                        /* DB-51 */
    int jokers = enjoy ? 2 * nrj + nbj : 0;
    uint8_t before[2] = {s->ctx.level[0], s->ctx.level[1]};
    if (s->ctx.first)
        before[0] = before[1] = r->start_level;
    uint8_t after[2] = {before[0], before[1]};
    int rise_team = kase == 1 ? dteam : kase == 4 ? ateam : -1;    /* DB-32, DB-61 */
    CHECK(o->rise_team == rise_team);
    if (rise_team >= 0) {
        int rise = r->base_step + jokers;
        CHECK(o->rise == rise);
        if (rise_team == dteam && before[rise_team] == r->goal_level)
            after[rise_team] = DAB_LEVEL_PASSED;                    /* DB-62 */
        else
            after[rise_team] = (uint8_t)(before[rise_team] + rise > r->goal_level ? r->goal_level
                                                                                  : before[rise_team] + rise);
    }
    CHECKF(o->level_after[0] == after[0] && o->level_after[1] == after[1], "levels %d %d, expected %d %d (case %d)",
           o->level_after[0], o->level_after[1], after[0], after[1], kase);
    /* the deal's level is the declarers' (DB-44, 混牌) */
    CHECK(s->level == before[dteam]);
    int next = kase <= 2 ? (r->next_same ? s->dajia : (s->dajia + 2) % 4) : (s->dajia + 1) % 4;   /* DB-60 */
    CHECK(o->next_dajia == next);
    int tens = a / 10 * 10, blood = a < 120 ? (120 - tens) / 10 : a > 160 ? (tens - 160) / 10 : 0;   /* DB-50 */
    blood += jokers;                                               /* DB-51 */
    CHECKF(o->blood_next == (r->tribute ? blood : 0), "blood %d, expected %d", o->blood_next, blood);
    int winner = -1;
    if (rise_team >= 0 && after[rise_team] == DAB_LEVEL_PASSED) {
        winner = rise_team;
        st.passed10++;
    }
    if (r->special_endings && (a == 0 || a >= 400)) {              /* DB-63 */
        winner = a == 0 ? dteam : ateam;
        st.specials++;
    }
    if (r->three_jokers_end && (nrj == 3 || nbj == 3) && (kase == 1 || kase == 4)) {   /* DB-64 */
        winner = kase == 1 ? dteam : ateam;
        st.three_jokers++;
    }
    CHECKF(o->winner == winner, "winner %d, expected %d", o->winner, winner);
    /* scores: zero-sum, the rising side's levels */
    int64_t sc[DAB_SEATS];
    const arb_game *g = arb_game_find("dabang");
    CHECK(g->score(s, sc, DAB_SEATS) == 0);
    CHECK(sc[0] + sc[1] + sc[2] + sc[3] == 0);
    for (int p = 0; p < DAB_SEATS; p++)
        CHECK(sc[p] == (rise_team < 0 ? 0 : dab_team(p) == rise_team ? o->rise : -o->rise));
}

/* ---- Playing a deal -------------------------------------------------------- */

/* Checks made once the tribute is over (the first state seen past it). */
static void check_tribute(const dab_state *s)
{
    int owed = s->ctx.first || !s->rules.tribute ? 0 : s->ctx.blood;
    CHECKF(s->ntribute <= owed, "%d tribute cards for %d blood", s->ntribute, owed);
    if (s->ntribute < owed) {
        /* DB-52: only when the giver has no non-point card left */
        const dab_hand *h = &s->hand[(s->dajia + 3) % 4];
        for (int c = 0; c < DAB_NCARDS; c++)
            if (h->n[c] && !dab_card_points(c)) {
                FAILF("seed %llu: tribute stopped at %d of %d with non-point cards held",
                      (unsigned long long)s->seed, s->ntribute, owed);
                break;
            }
        st.short_tribute++;
    }
    if (s->ntribute) {
        st.tribute_deals++;
        st.tribute_cards += s->ntribute;
    }
    CHECK(s->trump_known && s->dajia >= 0 && s->dajia < 4);
    CHECK(s->trump.level == s->level);
    if (!s->ctx.first)
        CHECK(s->dajia == s->ctx.dajia);                           /* DB-44 */
    /* DB-55, DB-46: the kitty is shown exactly when a declaration named
     * the suit (not a flip, not a kitty card) */
    CHECK(s->kitty_shown == (s->trump_from == 0));
    if (s->trump_from == 0)
        st.declared++;
    else if (s->trump_from == 1)
        st.flipped++;
    else
        st.kitty_named++;
    if (s->dry) {
        st.dry++;
        CHECK(!s->ctx.first && s->kitty_shown);                    /* DB-56 */
    }
    if (s->redeals)
        st.redealt++;
}

/* DB-52: the tribute options are the giver's highest non-point cards. */
static void check_tribute_options(const dab_state *s, const dab_hand *opts)
{
    const dab_hand *h = &s->hand[s->to_act];
    int best = -1;
    CHECK(s->to_act == (s->dajia + 3) % 4);
    for (int c = 0; c < DAB_NCARDS; c++)
        if (h->n[c] && !dab_card_points(c)) {
            int k = dab_is_trump(&s->trump, c) ? 100 + s->trump.power[c] : dab_rank(c);
            best = k > best ? k : best;
        }
    for (int c = 0; c < DAB_NCARDS; c++)
        if (opts->n[c]) {
            int k = dab_is_trump(&s->trump, c) ? 100 + s->trump.power[c] : dab_rank(c);
            CHECK(h->n[c] && !dab_card_points(c) && k == best);
        }
}

static int pick_bit(uint32_t m, arb_rng *rng)
{
    int bits[32], n = 0;
    for (int b = 0; b < 32; b++)
        if (m >> b & 1u)
            bits[n++] = b;
    return n ? bits[arb_rng_below(rng, (uint64_t)n)] : -1;
}

static int pick_card(const dab_hand *h, arb_rng *rng)
{
    int ids[DAB_NCARDS], n = 0;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (h->n[c])
            ids[n++] = c;
    return n ? ids[arb_rng_below(rng, (uint64_t)n)] : -1;
}

static dab_play plays[DAB_MAX_PLAYS];

/* One decision through the engine's API. */
static void step_direct(dab_state *s, arb_rng *rng, dab_hand *played, bool full)
{
    char why[200] = "";
    int rc = 0;
    switch (dab_decision(s)) {
    case DAB_DEC_DECLARE: {
        uint32_t m = dab_declare_options(s, s->to_act);
        CHECK(m != 0);                                             /* DB-48: asked only with something to declare */
        dab_decl d = {DAB_DECL_NONE, 0, -1};
        if (arb_rng_below(rng, 5) < 2)
            dab_decl_of_bit(pick_bit(m, rng), &d);
        rc = dab_do_declare(s, &d, why, sizeof why);
        break;
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY: {
        dab_hand opts;
        dab_card_options(s, &opts);
        CHECK(opts.total > 0);
        if (dab_decision(s) == DAB_DEC_TRIBUTE)
            check_tribute_options(s, &opts);
        if (dab_decision(s) == DAB_DEC_BURY && opts.n[DAB_BJ])
            CHECK(s->hand[s->dajia].n[DAB_RJ] == 0);               /* DB-57 */
        /* bury jokers often enough that DB-58, DB-59 and DB-64 occur */
        int c = pick_card(&opts, rng);
        if (dab_decision(s) == DAB_DEC_BURY && arb_rng_below(rng, 16) == 0)
            c = opts.n[DAB_RJ] ? DAB_RJ : opts.n[DAB_BJ] ? DAB_BJ : c;
        rc = dab_do_card(s, c, why, sizeof why);
        break;
    }
    case DAB_DEC_JOKER: {
        dab_hand j;
        dab_joker_options(s, &j);
        CHECK(j.total == 1);                                       /* DB-59: asked only when he may */
        int joker = -1;
        if (arb_rng_below(rng, 2)) {
            joker = pick_card(&j, rng);
            st.others_jokers++;
        }
        int seat = s->to_act;
        dab_hand kitty = s->kitty;
        rc = dab_do_joker(s, joker, why, sizeof why);
        if (joker >= 0 && rc == 0) {
            /* DB-59: shown, and a card taken back at once unless he
             * chooses among equals */
            CHECK(s->kitty_public && s->kitty.n[joker] == kitty.n[joker] + 1);
            if (s->phase == DAB_PH_TAKE) {
                CHECK(s->to_act == seat);
                st.take_choices++;
            } else {
                CHECK(s->took >= 0 && !dab_card_points(s->took) && !dab_joker(s->took));
                CHECK(s->kitty.n[s->took] + 1 == kitty.n[s->took] && s->kitty.total == DAB_KITTY);
            }
        }
        break;
    }
    case DAB_DEC_TAKE: {
        dab_hand t;
        dab_card_options(s, &t);
        CHECK(t.total >= 2);                                       /* a choice among equals */
        int take = pick_card(&t, rng);
        CHECK(!dab_card_points(take) && !dab_joker(take));
        rc = dab_do_card(s, take, why, sizeof why);
        CHECK(rc != 0 || (s->took == take && s->kitty.total == DAB_KITTY));
        break;
    }
    case ARB_DEC_PLAY: {
        const dab_hand *h = &s->hand[s->to_act];
        dab_play p;
        const dab_play *led = s->ntrick ? &s->trick[0] : NULL;
        if (full) {
            int n = led ? dab_follows(&s->trump, h, led, plays, DAB_MAX_PLAYS)
                        : dab_leads(&s->trump, h, plays, DAB_MAX_PLAYS);
            CHECK(n > 0);
            for (int i = 0; i < n; i++)
                if (dab_check_play(&s->trump, h, led, &plays[i], why, sizeof why))
                    FAILF("enumerated play does not validate: %s", why);
            p = plays[arb_rng_below(rng, (uint64_t)n)];
        } else if (led) {
            dab_random_follow(&s->trump, h, led, rng, &p);
        } else {
            dab_random_lead(&s->trump, h, rng, &p);
        }
        for (int i = 0; i < p.n; i++) {
            played->n[p.c[i]]++;
            played->total++;
        }
        rc = dab_do_play(s, &p, why, sizeof why);
        break;
    }
    default:
        CHECK(!"a decision");
        return;
    }
    if (rc)
        FAILF("seed %llu: decision %d refused: %s", (unsigned long long)s->seed, dab_decision(s), why);
}

/* Play the deal set up in *s to its end; 0, or -1 past the bound. */
static int play_direct(dab_state *s, arb_rng *rng, bool full, bool per_card)
{
    dab_hand played = {0};
    bool tribute_seen = false;
    int redeals = s->redeals;
    long decisions = 0;
    while (s->phase != DAB_PH_OVER) {
        if (s->redeals != redeals) {
            memset(&played, 0, sizeof played);
            redeals = s->redeals;
        }
        if (!tribute_seen && s->phase > DAB_PH_TRIBUTE) {
            tribute_seen = true;
            check_tribute(s);
            conserved(s, &played, true, "after the tribute");
        }
        if (s->phase == DAB_PH_JOKERS && s->buried == DAB_KITTY && (s->kitty.n[DAB_RJ] || s->kitty.n[DAB_BJ]))
            CHECK(s->kitty_public);                               /* DB-58 */
        step_direct(s, rng, &played, full);
        conserved(s, &played, per_card, "step");
        if (++decisions > DECISION_BOUND) {
            FAILF("seed %llu: no end after %ld decisions", (unsigned long long)s->seed, decisions);
            return -1;
        }
    }
    if (!tribute_seen)
        check_tribute(s);
    if (decisions > st.max_decisions)
        st.max_decisions = decisions;
    conserved(s, &played, true, "end");
    if (!s->dry && (s->kitty.n[DAB_RJ] || s->kitty.n[DAB_BJ])) {
        st.dajia_jokers++;
        CHECK(s->kitty_public);
    }
    return 0;
}

/* ---- Through the game interface ---------------------------------------------- */

static arb_action acts[DAB_MAX_PLAYS + 64];

static void step_game(const arb_game *g, void *state, arb_rng *rng)
{
    int n = g->legal(state, acts, sizeof acts / sizeof acts[0]);
    CHECK(n > 0);
    if (n <= 0)
        return;
    int tries = n <= 48 ? n : 48;
    for (int k = 0; k < n; k++) {
        arb_action fixed, again, fixed2;
        char why[200] = "", text[64], err[200] = "";
        if (g->check(state, &acts[k], &fixed, why, sizeof why)) {
            FAILF("legal action %d of %d refused: %s", k, n, why);
            continue;
        }
        /* the text round trip on a sample (all of a short list) */
        if (k >= tries && arb_rng_below(rng, (uint64_t)n) >= 48)
            continue;
        if (g->format_item(state, &fixed, text, sizeof text) < 0) {
            FAILF("format_item failed");
            continue;
        }
        if (g->parse_action(state, text, &again, err, sizeof err)) {
            FAILF("\"%s\" does not read back: %s", text, err);
            continue;
        }
        if (g->check(state, &again, &fixed2, why, sizeof why) || memcmp(&fixed, &fixed2, sizeof fixed) != 0)
            FAILF("\"%s\" reads back as another action (%s)", text, why);
        st.roundtrips++;
    }
    arb_action fixed;
    char why[200];
    int k = (int)arb_rng_below(rng, (uint64_t)n);
    /* the others bury jokers and the 打家 buries them: often enough */
    if (acts[0].decision == DAB_DEC_JOKER && n > 1 && arb_rng_below(rng, 2))
        k = 1 + (int)arb_rng_below(rng, (uint64_t)(n - 1));
    CHECK(g->check(state, &acts[k], &fixed, why, sizeof why) == 0);
    CHECK(g->apply(state, &fixed) == 0);
}

/* ---- Matches --------------------------------------------------------------------- */

/* Partners opposite in every deal: players p and p + 2 at seats of one parity. */
static void seating(arb_rng *rng, uint8_t *player_at)
{
    int x = (int)arb_rng_below(rng, 4), y = ((x + 1) % 2) + 2 * (int)arb_rng_below(rng, 2);
    player_at[0] = (uint8_t)x;
    player_at[2] = (uint8_t)((x + 2) % 4);
    player_at[1] = (uint8_t)y;
    player_at[3] = (uint8_t)((y + 2) % 4);
}

static void check_match_end(const dab_match *m, const arb_game *g)
{
    CHECK(dab_match_over(m));
    int w = dab_match_winner(m);
    CHECK(w == 0 || w == 1);
    if (m->winner >= 0) {
        CHECK(w == m->winner);
        st.match_outright++;
    } else {
        CHECK(m->played >= m->limit);                              /* DB-71 */
        int exp = m->level[0] != m->level[1] ? (m->level[0] > m->level[1] ? 0 : 1) : m->stage_team;
        CHECKF(w == exp, "winner %d, levels %d %d, stage %d", w, m->level[0], m->level[1], m->stage_team);
        st.match_by_limit++;
    }
    arb_standing out;
    CHECK(g->match_result(m, &out) == 0);
    CHECK(out.decided && out.winner_team == w && out.nteams == 2);
    for (int p = 0; p < DAB_SEATS; p++)
        CHECK(out.team[p] == p % 2 && out.score[p] == out.team_score[p % 2]);
    for (int t = 0; t < 2; t++) {
        CHECK(out.team_score[t] >= 3 && out.team_score[t] <= 11);
        /* DB-73: 11 only for a team that played through the goal */
        CHECK((out.team_score[t] == 11) == m->passed[t]);
        CHECK(!m->passed[t] || (w == t && m->level[t] == m->rules.goal_level));
    }
    st.matches++;
}

/* What a deal must do to the match (DB-60..DB-62, DB-70). */
static void check_fold(const dab_match *before, const dab_match *after, const dab_state *s, const uint8_t *player_at)
{
    const dab_outcome *o = &s->out;
    CHECK(after->played == before->played + 1);
    for (int seat = 0; seat < 2; seat++) {
        int team = player_at[seat] % 2;
        int lv = o->level_after[seat] > after->rules.goal_level ? after->rules.goal_level : o->level_after[seat];
        CHECK(after->level[team] == lv);
        CHECK(after->level[team] >= before->level[team]);          /* levels never go down */
    }
    CHECK(after->dajia_player == player_at[o->next_dajia]);
    CHECK(after->blood == o->blood_next);
    CHECK(after->winner == (o->winner >= 0 ? player_at[o->winner] % 2 : before->winner));
}

/* DB-72: a forfeited deal — the other side wins it by the base step, no
 * jokers, no blood; the stage goes to (or stays with) the winners. */
static void forfeit(dab_match *m, const dab_state *s, const uint8_t *player_at, int seat)
{
    dab_match before = *m;
    int win = 1 - player_at[seat] % 2;
    int64_t sc[DAB_SEATS];
    const arb_game *g = arb_game_find("dabang");
    CHECK(g->forfeit(m, seat, 2, sc) == 0 && sc[0] + sc[1] + sc[2] + sc[3] == 0 && sc[seat] == -2);
    dab_match_fold(m, s, player_at, seat);
    CHECK(m->played == before.played + 1 && m->blood == 0);
    CHECK(m->stage_team == win && m->dajia_player >= 0 && m->dajia_player % 2 == win);
    CHECK(m->level[1 - win] == before.level[1 - win]);
    if (before.stage_team == win && before.level[win] == m->rules.goal_level) {
        CHECK(m->winner == win);                                   /* DB-62: the declarers play through */
    } else {
        int lv = before.level[win] + m->rules.base_step;
        CHECK(m->level[win] == (lv > m->rules.goal_level ? m->rules.goal_level : lv));
        CHECK(m->winner == before.winner);
    }
    st.forfeits++;
}

static const char *const variants[][3] = {
    {"standard", NULL, NULL},
    {"standard", NULL, NULL},
    {"standard", NULL, NULL},
    {"short", NULL, NULL},
    {"standard", "kitty_multiplier", "4"},
    {"standard", "next_same", "true"},
    {"standard", "base_step", "3"},
    {"standard", "dry_pot", "false"},
    {"standard", "tribute", "false"},
    {"short", "deal_limit", "12"},
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

static void rules_of(int v, dab_rules *r)
{
    char err[200];
    dab_rules_preset(r, variants[v][0]);
    if (variants[v][1])
        CHECK(dab_rules_set(r, variants[v][1], variants[v][2], err, sizeof err) == 0);
    CHECK(dab_rules_check(r, err, sizeof err) == 0);
}

/* A match on the engine's API; deals counted into *deals. */
static void match_direct(uint64_t mseed, long *deals)
{
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(mseed, "choices"));
    dab_rules r;
    rules_of((int)(mseed % NVARIANTS), &r);
    dab_match m;
    dab_match_init(&m, &r, 0);
    static dab_state s, again;
    for (uint32_t d = 0; !dab_match_over(&m); d++) {
        uint8_t player_at[DAB_SEATS];
        seating(&rng, player_at);
        dab_context ctx;
        dab_match_context(&m, player_at, &ctx);
        CHECK(ctx.first == (d == 0));
        uint64_t seed = arb_seed_childn(mseed, "deal", d);
        CHECK(dab_deal(&s, &r, seed) == 0 && dab_setup(&s, &ctx) == 0);
        if (ctx.first)
            st.first_deals++;
        if (arb_rng_below(&rng, 60) == 0) {
            forfeit(&m, &s, player_at, (int)arb_rng_below(&rng, DAB_SEATS));
            continue;
        }
        uint64_t cseed = arb_rng_next(&rng);
        arb_rng crng;
        arb_rng_seed(&crng, cseed);
        bool full = *deals % 50 == 0, per_card = *deals % 8 == 0;
        if (full)
            st.full_enum++;
        if (play_direct(&s, &crng, full, per_card))
            return;
        check_outcome(&s);
        if (*deals % 97 == 0) {
            /* same seed, same choices: the same bytes */
            CHECK(dab_deal(&again, &r, seed) == 0 && dab_setup(&again, &ctx) == 0);
            arb_rng_seed(&crng, cseed);
            play_direct(&again, &crng, full, false);
            CHECK(memcmp(&s, &again, sizeof s) == 0);
            st.same_seed++;
        }
        dab_match before = m;
        dab_match_fold(&m, &s, player_at, -1);
        check_fold(&before, &m, &s, player_at);
        (*deals)++;
        st.deals++;
    }
    check_match_end(&m, arb_game_find("dabang"));
}

/* A match through the arb_game table, as the referee runs one. */
static void match_game(uint64_t mseed, long *deals)
{
    const arb_game *g = arb_game_find("dabang");
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(mseed, "choices"));
    _Alignas(16) static unsigned char rules[256], mstate[256], state[4096];
    CHECK(g->rules_size <= sizeof rules && g->match_state_size <= sizeof mstate && g->state_size <= sizeof state);
    memset(rules, 0, sizeof rules);
    rules_of((int)(mseed % NVARIANTS), (dab_rules *)rules);
    CHECK(g->match_init(mstate, rules, 0) == 0);
    for (uint32_t d = 0; !g->match_over(mstate); d++) {
        uint8_t player_at[DAB_SEATS];
        seating(&rng, player_at);
        CHECK(g->deal(state, rules, arb_seed_childn(mseed, "deal", d)) == 0);
        CHECK(g->deal_setup(state, mstate, player_at) == 0);
        long decisions = 0;
        bool tribute_seen = false;
        while (!g->over(state)) {
            const dab_state *s = (const dab_state *)state;
            if (!tribute_seen && s->phase > DAB_PH_TRIBUTE) {
                tribute_seen = true;
                check_tribute(s);
            }
            CHECK(g->to_act(state) == s->to_act);
            step_game(g, state, &rng);
            if (++decisions > DECISION_BOUND) {
                FAILF("match %llu deal %u: no end", (unsigned long long)mseed, d);
                return;
            }
        }
        const dab_state *s = (const dab_state *)state;
        if (!tribute_seen)
            check_tribute(s);
        check_outcome(s);
        int64_t sc[DAB_SEATS];
        CHECK(g->score(state, sc, DAB_SEATS) == 0);
        dab_match before = *(dab_match *)mstate;
        CHECK(g->match_deal_done(mstate, state, player_at, sc, -1) == 0);
        check_fold(&before, (dab_match *)mstate, s, player_at);
        (*deals)++;
        st.deals++;
        st.full_enum++;
    }
    check_match_end((dab_match *)mstate, g);
}

/* The engine's own entry points refuse malformed decisions and leave the
 * state as it was: a declaration whose kind, count and suit do not name
 * one of the options (dab_do_declare once took a level declaration of 0 or
 * 5 cards for whatever option its bit number fell on). */
static void malformed_decisions(void)
{
    dab_rules r;
    dab_rules_preset(&r, "standard");
    int tried = 0;
    for (uint64_t seed = 1; seed < 200 && tried < 20; seed++) {
        dab_state s, copy;
        dab_context ctx = {false, (int8_t)(seed % 4), {1, 3}, 0};
        dab_deal(&s, &r, seed);
        dab_setup(&s, &ctx);
        if (dab_decision(&s) != DAB_DEC_DECLARE)
            continue;
        uint32_t m = dab_declare_options(&s, s.to_act);
        static const dab_decl bad[] = {
            {DAB_DECL_LEVEL, 0, 1}, {DAB_DECL_LEVEL, 4, 0}, {DAB_DECL_LEVEL, 5, 2}, {DAB_DECL_LEVEL, -1, 3},
            {DAB_DECL_LEVEL, 1, 4}, {DAB_DECL_LEVEL, 1, -1}, {DAB_DECL_BJ3, 1, 0}, {DAB_DECL_RJ3, 2, 1},
            {DAB_DECL_BJ3, 3, 7}, {DAB_DECL_BIGJOKER, 1, -1}, {9, 1, 0}, {-3, 1, 0},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char why[200];
            copy = s;
            int rc = dab_do_declare(&copy, &bad[i], why, sizeof why);
            CHECKF(rc == ARB_EILLEGAL && memcmp(&copy, &s, sizeof s) == 0,
                   "seed %llu: declaration {%d,%d,%d} accepted (options %#x)", (unsigned long long)seed, bad[i].kind,
                   bad[i].count, bad[i].suit, m);
        }
        /* and the options themselves are taken */
        for (int b = 0; b < 32; b++)
            if (m >> b & 1u) {
                dab_decl d;
                char why[200];
                dab_decl_of_bit(b, &d);
                copy = s;
                CHECK(dab_do_declare(&copy, &d, why, sizeof why) == 0 && copy.decl.kind == d.kind
                      && copy.decl.count == d.count && copy.decl.suit == d.suit && copy.decl_seat == s.to_act);
            }
        /* cards and jokers out of turn */
        char why[200];
        copy = s;
        CHECK(dab_do_card(&copy, 0, why, sizeof why) == ARB_EILLEGAL && dab_do_joker(&copy, DAB_RJ, why, sizeof why)
              == ARB_EILLEGAL && memcmp(&copy, &s, sizeof s) == 0);
        dab_play p = {1, {0}};
        CHECK(dab_do_play(&copy, &p, why, sizeof why) == ARB_EILLEGAL && memcmp(&copy, &s, sizeof s) == 0);
        tried++;
    }
    CHECK(tried > 0);
}

int main(int argc, char **argv)
{
    long want = argc > 1 ? test_num(argv[1], 0, LONG_MAX) : 100000;
    const arb_game *g = arb_game_find("dabang");
    CHECK(g != NULL && arb_game_missing(g) == NULL);
    CHECK(g->state_size == sizeof(dab_state) && g->match_state_size == sizeof(dab_match));
    malformed_decisions();
    long deals = 0;
    for (uint64_t mi = 0; deals < want; mi++) {
        uint64_t mseed = arb_seed_childn(7, "match", mi);
        if (mi % 20 == 0)
            match_game(mseed, &deals);
        else
            match_direct(mseed, &deals);
    }
    printf("%ld deals in %ld matches (%ld first deals, %ld through the game table); max %ld decisions a deal\n",
           st.deals, st.matches, st.first_deals, st.full_enum, st.max_decisions);
    printf("trumps: %ld declared, %ld flipped, %ld from the kitty; %ld deals redealt\n", st.declared, st.flipped,
           st.kitty_named, st.redealt);
    printf("tribute in %ld deals (%ld cards, %ld cut short); %ld dry pots; jokers buried by the dajia in %ld deals, "
           "by others %ld times\n", st.tribute_deals, st.tribute_cards, st.short_tribute, st.dry, st.dajia_jokers,
           st.others_jokers);
    printf("%ld choices among equal cards taken back\n", st.take_choices);
    printf("cases %ld %ld %ld %ld; %ld special endings, %ld three-joker endings, %ld passed 10; matches: %ld outright, "
           "%ld at the limit; %ld same-seed replays, %ld text round trips, %ld forfeits\n", st.kase[1], st.kase[2],
           st.kase[3], st.kase[4], st.specials, st.three_jokers, st.passed10, st.match_outright, st.match_by_limit,
           st.same_seed, st.roundtrips, st.forfeits);
    /* every phase and outcome occurs in the sample */
    CHECK(st.deals >= want);
    CHECK(st.declared > 0 && st.flipped > 0 && st.kitty_named > 0);
    CHECK(st.tribute_deals > 0 && st.dry > 0 && st.dajia_jokers > 0 && st.others_jokers > 0 && st.take_choices > 0);
    CHECK(st.kase[1] > 0 && st.kase[2] > 0 && st.kase[3] > 0 && st.kase[4] > 0);
    CHECK(st.passed10 > 0 && st.match_outright > 0 && st.match_by_limit > 0);
    CHECK(st.same_seed > 0 && st.roundtrips > 0 && st.forfeits > 0);
    return TEST_DONE("dab-props");
}
