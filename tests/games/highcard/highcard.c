/* highcard.c — "high card", a tiny game that shows what adding a game is:
 * an engine behind game.h and its registration, nothing else. Twelve
 * cards 2..K; each player gets `hand` of them (3); the leader plays a
 * card, then each player in turn; the highest card takes the trick and
 * leads the next. Two players, or four in partnerships (seats 0+2 against
 * 1+3). A deal scores, per seat, the tricks its side took less the
 * other side's. The match carries the points of each player (each side)
 * from deal to deal and who leads next (whoever took the last trick); it
 * ends when a side reaches `goal` points, or after its deals.
 *
 * Registered from a constructor, so that a program built with this file
 * (arbiter-testgames) knows the game without games/game.c naming it.
 *
 * Protocol (schemas/bot-protocol.md, the game's part): at a deal's start
 * a seat gets "hand 38K" and "lead SEAT"; the request is "play" with the
 * legal cards listed; a reply is "play K" or "K"; every seat then sees
 * "play SEAT CARD" and, when a trick is complete, "trick SEAT". */
#include "game.h"
#include "arb_error.h"
#include "arb_rng.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define HC_CARDS 12
static const char hc_chars[] = "23456789TJQK";

typedef struct hc_rules {
    int players;   /* 2, or 4 in partnerships */
    int hand;      /* cards per player */
    int goal;      /* match points that end the match */
} hc_rules;

typedef struct hc_state {
    hc_rules rules;         /* a copy: the state stays a plain value */
    uint16_t hand[4];       /* bit r: card r held */
    uint16_t dealt[4];
    int8_t   trick[4];      /* the card each seat put on this trick, -1 none */
    int8_t   leader, to_act;
    uint8_t  played;        /* cards on the trick */
    uint8_t  tricks[2];     /* per side (seat % 2) */
    uint8_t  tricks_left;
    int8_t   last_winner;   /* seat that took the last trick, -1 none */
} hc_state;

typedef struct hc_match {
    int      players, goal, nteams;
    uint32_t played, limit;
    int64_t  points[4];     /* per player */
    int64_t  side[2];       /* per side: with partners, per team; else per player */
    int8_t   next_leader;   /* the player who leads the next deal */
} hc_match;

static int popcount16(uint16_t x) { return __builtin_popcount(x); }

/* ---- Rules ---------------------------------------------------------- */

static const char *const presets[] = {"short", "pairs", NULL};
static const char *const *hc_presets(void) { return presets; }

static int hc_rules_preset(void *rules, const char *preset)
{
    hc_rules *r = rules;
    if (strcmp(preset, "short") == 0)
        *r = (hc_rules){.players = 2, .hand = 3, .goal = 5};
    else if (strcmp(preset, "pairs") == 0)
        *r = (hc_rules){.players = 4, .hand = 3, .goal = 7};
    else
        return ARB_ENOTFOUND;
    return 0;
}

static int hc_rules_set(void *rules, const char *key, const char *value, char *err, size_t errlen)
{
    hc_rules *r = rules;
    int v;
    char tail;
    if (sscanf(value, "%d%c", &v, &tail) != 1) {
        snprintf(err, errlen, "option %s: expected a number, got \"%s\"", key, value);
        return ARB_EPARSE;
    }
    if (strcmp(key, "players") == 0)
        r->players = v;
    else if (strcmp(key, "hand") == 0)
        r->hand = v;
    else if (strcmp(key, "goal") == 0)
        r->goal = v;
    else {
        snprintf(err, errlen, "unknown option \"%s\" (players, hand, goal)", key);
        return ARB_ENOTFOUND;
    }
    return 0;
}

static int hc_rules_check(const void *rules, char *err, size_t errlen)
{
    const hc_rules *r = rules;
    if (r->players != 2 && r->players != 4) {
        snprintf(err, errlen, "players: 2 or 4, not %d", r->players);
        return ARB_ERANGE;
    }
    if (r->hand < 1 || r->hand * r->players > HC_CARDS) {
        snprintf(err, errlen, "hand: 1..%d cards each for %d players", HC_CARDS / r->players, r->players);
        return ARB_ERANGE;
    }
    if (r->goal < 1 || r->goal > 1000000) {
        snprintf(err, errlen, "goal: 1..1000000 points");
        return ARB_ERANGE;
    }
    return 0;
}

static size_t hc_rules_describe(const void *rules, char *buf, size_t len)
{
    const hc_rules *r = rules;
    int n = snprintf(buf, len, "players=%d\nhand=%d\ngoal=%d", r->players, r->hand, r->goal);
    return n < 0 ? 0 : (size_t)n;
}

static int hc_seats(const void *rules) { return ((const hc_rules *)rules)->players; }

static int hc_team_of(const void *state, int seat)
{
    const hc_state *s = state;
    return s->rules.players == 4 ? seat % 2 : seat;
}

static int hc_teams(const void *rules, int8_t *team_of_seat)
{
    const hc_rules *r = rules;
    if (r->players != 4)
        return 0;   /* two players: each its own side, no partners */
    for (int s = 0; s < 4; s++)
        team_of_seat[s] = (int8_t)(s % 2);
    return 2;
}

/* ---- A deal --------------------------------------------------------- */

static int hc_deal(void *state, const void *rules, uint64_t seed)
{
    hc_state *s = state;
    memset(s, 0, sizeof *s);
    s->rules = *(const hc_rules *)rules;
    uint8_t deck[HC_CARDS];
    for (int i = 0; i < HC_CARDS; i++)
        deck[i] = (uint8_t)i;
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    arb_rng_shuffle_u8(&rng, deck, HC_CARDS);
    for (int p = 0; p < s->rules.players; p++)
        for (int k = 0; k < s->rules.hand; k++)
            s->hand[p] |= (uint16_t)(1u << deck[p * s->rules.hand + k]);
    memcpy(s->dealt, s->hand, sizeof s->hand);
    memset(s->trick, -1, sizeof s->trick);
    s->tricks_left = (uint8_t)s->rules.hand;
    s->last_winner = -1;
    return 0;
}

/* The match decides who leads: the player who took the previous deal's
 * last trick. */
static int hc_deal_setup(void *state, const void *mstate, const uint8_t *player_at)
{
    hc_state *s = state;
    const hc_match *m = mstate;
    for (int seat = 0; seat < s->rules.players; seat++)
        if (player_at[seat] == m->next_leader)
            s->leader = s->to_act = (int8_t)seat;
    return 0;
}

static bool hc_over(const void *state) { return ((const hc_state *)state)->tricks_left == 0; }
static int hc_to_act(const void *state) { return hc_over(state) ? -1 : ((const hc_state *)state)->to_act; }
static arb_decision hc_decision(const void *state) { return hc_over(state) ? ARB_DEC_NONE : ARB_DEC_PLAY; }

static const char *hc_decision_name(arb_decision d)
{
    return d == ARB_DEC_PLAY ? "play" : d == ARB_DEC_NONE ? "none" : NULL;
}

static void card_action(int card, arb_action *a)
{
    memset(a, 0, sizeof *a);
    a->decision = ARB_DEC_PLAY;
    a->rank = (uint8_t)card;
    a->ncards = 1;
    a->cards[0] = 1u << card;
}

static int hc_legal(const void *state, arb_action *out, size_t cap)
{
    const hc_state *s = state;
    if (hc_over(s))
        return 0;
    int n = 0;
    for (int c = 0; c < HC_CARDS; c++)
        if (s->hand[s->to_act] >> c & 1) {
            if ((size_t)n >= cap)
                return ARB_ENOSPC;
            card_action(c, &out[n++]);
        }
    return n;
}

static int hc_check(const void *state, const arb_action *a, arb_action *fixed, char *why, size_t whylen)
{
    const hc_state *s = state;
    if (hc_over(s) || a->decision != ARB_DEC_PLAY) {
        snprintf(why, whylen, "nothing to decide but a play");
        return ARB_EILLEGAL;
    }
    if (a->cards[1] || a->cards[0] == 0 || a->cards[0] >= 1u << HC_CARDS || popcount16((uint16_t)a->cards[0]) != 1) {
        snprintf(why, whylen, "play exactly one card");
        return ARB_EILLEGAL;
    }
    int card = __builtin_ctzll(a->cards[0]);
    if (!(s->hand[s->to_act] >> card & 1)) {
        snprintf(why, whylen, "%c is not in hand", hc_chars[card]);
        return ARB_EILLEGAL;
    }
    card_action(card, fixed);
    return 0;
}

static int hc_apply(void *state, const arb_action *a)
{
    hc_state *s = state;
    int card = __builtin_ctzll(a->cards[0]);
    int n = s->rules.players;
    if (hc_over(s) || !(s->hand[s->to_act] >> card & 1))
        return ARB_ESTATE;
    s->hand[s->to_act] &= (uint16_t)~(1u << card);
    s->trick[s->to_act] = (int8_t)card;
    s->to_act = (int8_t)((s->to_act + 1) % n);
    if (++s->played < n)
        return 0;
    int win = 0;
    for (int p = 1; p < n; p++)
        if (s->trick[p] > s->trick[win])
            win = p;
    s->tricks[win % 2]++;
    s->tricks_left--;
    s->last_winner = (int8_t)win;
    s->leader = s->to_act = (int8_t)win;
    s->played = 0;
    memset(s->trick, -1, sizeof s->trick);
    return 0;
}

static int hc_score(const void *state, int64_t *scores, int nseats)
{
    const hc_state *s = state;
    for (int p = 0; p < nseats && p < s->rules.players; p++)
        scores[p] = (int64_t)s->tricks[p % 2] - s->tricks[1 - p % 2];
    return 0;
}

/* ---- Text ----------------------------------------------------------- */

static int hc_parse_action(const void *state, const char *text, arb_action *a, char *err, size_t errlen)
{
    (void)state;
    const char *p = strncasecmp(text, "play ", 5) == 0 ? text + 5 : text;
    const char *c = p[0] && !p[1] ? strchr(hc_chars, p[0]) : NULL;
    if (!c) {
        snprintf(err, errlen, "expected \"play CARD\" with one of %s, got \"%.40s\"", hc_chars, text);
        return ARB_EPARSE;
    }
    card_action((int)(c - hc_chars), a);
    return 0;
}

static int hc_format_cards(const uint64_t cards[2], char *buf, size_t len)
{
    int n = 0;
    for (int c = 0; c < HC_CARDS; c++)
        if ((cards[0] >> c & 1) && (size_t)n + 1 < len)
            buf[n++] = hc_chars[c];
    if (len)
        buf[n] = 0;
    return n;
}

static int hc_format_item(const void *state, const arb_action *a, char *buf, size_t len)
{
    (void)state;
    return hc_format_cards(a->cards, buf, len);
}

static int hc_format_action(const void *state, const arb_action *a, char *buf, size_t len)
{
    char card[HC_CARDS + 1];
    hc_format_item(state, a, card, sizeof card);
    return snprintf(buf, len, "play %s", card);
}

static void emitf(arb_emit_fn emit, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void emitf(arb_emit_fn emit, void *ctx, const char *fmt, ...)
{
    char line[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    emit(ctx, line);
}

static int hc_start_events(const void *state, int seat, arb_emit_fn emit, void *ctx)
{
    const hc_state *s = state;
    char hand[HC_CARDS + 1];
    uint64_t cards[2] = {s->dealt[seat], 0};
    hc_format_cards(cards, hand, sizeof hand);
    emitf(emit, ctx, "hand %s", hand);
    emitf(emit, ctx, "lead %d", s->leader);
    return 0;
}

static int hc_action_events(const void *before, const void *after, int actor, const arb_action *a,
                            int seat, arb_emit_fn emit, void *ctx)
{
    (void)before; (void)seat;
    const hc_state *s = after;
    emitf(emit, ctx, "play %d %c", actor, hc_chars[__builtin_ctzll(a->cards[0])]);
    if (s->played == 0)
        emitf(emit, ctx, "trick %d", s->last_winner);
    return 0;
}

static int hc_request(const void *state, char *buf, size_t len)
{
    return hc_over(state) ? ARB_ESTATE : snprintf(buf, len, "play");
}

static bool hc_items_on_request(const void *state) { (void)state; return true; }

static int hc_fallback(const void *state, const arb_action *legal, int n)
{
    (void)state;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (legal[i].rank < legal[best].rank)
            best = i;
    return best;   /* the lowest card */
}

/* ---- The match: points carried to a goal ---------------------------- */

static int hc_match_init(void *mstate, const void *rules, uint32_t deal_limit)
{
    const hc_rules *r = rules;
    hc_match *m = mstate;
    memset(m, 0, sizeof *m);
    m->players = r->players;
    m->goal = r->goal;
    m->nteams = r->players == 4 ? 2 : 0;
    m->limit = deal_limit;
    return 0;
}

/* The forfeiting seat's side loses the deal: each of its seats pays the
 * stake, each other seat receives it. */
static int hc_forfeit(const void *mstate, int seat, int64_t stake, int64_t *scores)
{
    const hc_match *m = mstate;
    if (seat < 0 || seat >= m->players)
        return ARB_EINVAL;
    for (int s = 0; s < m->players; s++)
        scores[s] = s % 2 == seat % 2 ? -stake : stake;
    return 0;
}

/* Partners are player p and p + 2 (they sit in seats of one parity in
 * every deal, match_config_rules makes sure): side p % 2. */
static int hc_match_deal_done(void *mstate, const void *state, const uint8_t *player_at, const int64_t *scores,
                              int forfeit_seat)
{
    hc_match *m = mstate;
    const hc_state *s = state;
    bool counted[2] = {false, false};
    for (int seat = 0; seat < m->players; seat++) {
        int p = player_at[seat];
        if (p >= m->players)
            return ARB_EINVAL;
        m->points[p] += scores[seat];
        int side = m->nteams ? p % 2 : p;
        if (!m->nteams)
            m->side[side] += scores[seat];
        else if (!counted[side]) {
            m->side[side] += scores[seat];
            counted[side] = true;
        }
    }
    if (s && hc_over(s) && s->last_winner >= 0)
        m->next_leader = (int8_t)player_at[s->last_winner];
    else if (forfeit_seat >= 0)
        m->next_leader = (int8_t)player_at[(forfeit_seat + 1) % m->players];
    m->played++;
    return 0;
}

static bool hc_match_over(const void *mstate)
{
    const hc_match *m = mstate;
    return m->played >= m->limit || m->side[0] >= m->goal || m->side[1] >= m->goal;
}

static int hc_match_result(const void *mstate, arb_standing *out)
{
    const hc_match *m = mstate;
    memset(out, 0, sizeof *out);
    out->nteams = m->nteams;
    for (int p = 0; p < m->players; p++) {
        out->score[p] = m->points[p];
        out->team[p] = (int8_t)(m->nteams ? p % 2 : -1);
    }
    for (int t = 0; t < m->nteams; t++)
        out->team_score[t] = m->side[t];
    return 0;
}

static const arb_game highcard = {
    .name = "highcard",
    .title = "High card (a test game)",
    .rules_size = sizeof(hc_rules),
    .state_size = sizeof(hc_state),
    .default_preset = "short",
    .presets = hc_presets,
    .rules_preset = hc_rules_preset,
    .rules_set = hc_rules_set,
    .rules_check = hc_rules_check,
    .rules_describe = hc_rules_describe,
    .seats = hc_seats,
    .team_of = hc_team_of,
    .teams = hc_teams,
    .match_state_size = sizeof(hc_match),
    .default_forfeit_points = 2,
    .match_ends_early = true,
    .match_init = hc_match_init,
    .deal_setup = hc_deal_setup,
    .forfeit = hc_forfeit,
    .match_deal_done = hc_match_deal_done,
    .match_over = hc_match_over,
    .match_result = hc_match_result,
    .deal = hc_deal,
    .to_act = hc_to_act,
    .decision = hc_decision,
    .decision_name = hc_decision_name,
    .legal = hc_legal,
    .check = hc_check,
    .apply = hc_apply,
    .over = hc_over,
    .score = hc_score,
    .parse_action = hc_parse_action,
    .format_action = hc_format_action,
    .format_cards = hc_format_cards,
    .start_events = hc_start_events,
    .action_events = hc_action_events,
    .request = hc_request,
    .format_item = hc_format_item,
    .items_on_request = hc_items_on_request,
    .fallback = hc_fallback,
};

/* The registration: before main, as a game built into a program would be. */
__attribute__((constructor)) static void highcard_register(void)
{
    if (arb_game_register(&highcard) != 0)
        fprintf(stderr, "highcard: cannot register the game\n");
}
