/* ddz_game.c — Dou Dizhu's adapter to the generic game interface (game.h)
 * and its registration. The adapter is thin: every rule lives in ddz_*.c. */
#include "game.h"
#include "ddz.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int dz_rules_preset(void *rules, const char *preset) { return ddz_rules_preset(rules, preset); }
static int dz_rules_set(void *rules, const char *k, const char *v, char *err, size_t n) { return ddz_rules_set(rules, k, v, err, n); }
static int dz_rules_check(const void *rules, char *err, size_t n) { return ddz_rules_check(rules, err, n); }
static size_t dz_rules_describe(const void *rules, char *buf, size_t n) { return ddz_rules_describe(rules, buf, n); }
static const char *const *dz_presets(void) { return ddz_rules_presets(); }
static int dz_seats(const void *rules) { return ((const ddz_rules *)rules)->players; }
static int dz_deal(void *state, const void *rules, uint64_t seed) { return ddz_deal_init(state, rules, seed); }

static int dz_deal_ordered(void *state, const void *rules, uint64_t seed, const uint8_t *order, size_t n)
{
    return ddz_deal_ordered(state, rules, seed, order, n);
}

/* Seat i was dealt positions i*hand_size.., the kitty the rest (DDZ-1..3). */
static int dz_deal_cards(const void *state, arb_deal_cards *out)
{
    const ddz_state *s = state;
    memset(out, 0, sizeof *out);
    out->ncards = (uint16_t)(54 * s->rules->packs);
    memcpy(out->order, s->deck, out->ncards);
    out->nseats = s->nseats;
    for (int i = 0; i < s->nseats; i++)
        out->hand[i][0] = s->dealt[i];
    out->kitty[0] = s->kitty;
    return 0;
}

static int dz_team_of(const void *state, int seat)
{
    const ddz_state *s = state;
    if (s->landlord == DDZ_NONE)
        return -1;
    return seat == s->landlord ? 0 : 1;
}

static int dz_to_act(const void *state)
{
    const ddz_state *s = state;
    return s->phase == DDZ_PHASE_OVER ? -1 : s->to_act;
}

static const uint8_t decision_of_phase[] = {
    [DDZ_PHASE_BID] = DDZ_DEC_BID, [DDZ_PHASE_CALL] = DDZ_DEC_CALL,
    [DDZ_PHASE_ROB] = DDZ_DEC_ROB, [DDZ_PHASE_DOUBLE] = DDZ_DEC_DOUBLE,
    [DDZ_PHASE_SHOW] = DDZ_DEC_SHOW, [DDZ_PHASE_CLAIM] = DDZ_DEC_CLAIM,
    [DDZ_PHASE_PLAY] = ARB_DEC_PLAY, [DDZ_PHASE_OVER] = ARB_DEC_NONE,
};

_Static_assert((int)DDZ_DEC_BID == (int)ARB_DEC_GAME, "Dou Dizhu's decisions follow the generic ones");

static arb_decision dz_decision(const void *state)
{
    return (arb_decision)decision_of_phase[((const ddz_state *)state)->phase];
}

static int phase_of_decision(int d)
{
    for (int p = 0; p <= DDZ_PHASE_OVER; p++)
        if (decision_of_phase[p] == d)
            return p;
    return -1;
}

/* A play as a generic action: cards[0] the cards played, cards[1] what they
 * stand for when wild cards are read as other ranks (0 otherwise). */
static void move_to_action(const ddz_state *s, const ddz_move *m, arb_action *a)
{
    memset(a, 0, sizeof *a);
    a->decision = ARB_DEC_PLAY;
    a->kind = m->kind;
    a->rank = m->rank;
    a->len = m->len;
    a->ncards = m->ncards;
    a->cards[0] = m->cards;
    a->cards[1] = m->subst ? ddz_move_represented(m, s->wild_ranks) : 0;
    a->primary[0] = ddz_move_primary(m);
}

static int dz_legal(const void *state, arb_action *out, size_t cap)
{
    const ddz_state *s = state;
    if (s->phase == DDZ_PHASE_OVER)
        return 0;
    if (s->phase != DDZ_PHASE_PLAY) {
        int8_t vals[16];
        int n = ddz_values(s, vals, sizeof vals);
        if (n < 0 || (size_t)n > cap)
            return n < 0 ? n : ARB_ENOSPC;
        for (int i = 0; i < n; i++) {
            memset(&out[i], 0, sizeof out[i]);
            out[i].decision = decision_of_phase[s->phase];
            out[i].value = vals[i];
        }
        return n;
    }
    /* Plays are enumerated straight into the caller's array, viewed as the
     * smaller ddz_move (16 bytes against 40), then widened in place from the
     * last to the first: action i only overwrites moves i..2.5i, which are
     * already converted (or, for i itself, copied out first). Bytes move
     * with memcpy, so no pointer aliases two types. */
    size_t room = cap * sizeof(arb_action) / sizeof(ddz_move);
    int n = ddz_plays(s, (ddz_move *)(void *)out, room);
    if (n < 0)
        return n;
    if ((size_t)n > cap)
        return ARB_ENOSPC;
    for (int i = n - 1; i >= 0; i--) {
        ddz_move m;
        arb_action a;
        memcpy(&m, (char *)out + (size_t)i * sizeof m, sizeof m);
        move_to_action(s, &m, &a);
        memcpy(&out[i], &a, sizeof a);
    }
    return n;
}

static void to_ddz_action(const ddz_state *s, const arb_action *a, ddz_action *d)
{
    memset(d, 0, sizeof *d);
    int p = phase_of_decision(a->decision);
    d->phase = (uint8_t)(p < 0 ? DDZ_PHASE_OVER : p);
    d->value = a->value;
    d->move.cards = a->cards[0];
    d->move.kind = a->kind;
    d->move.rank = a->rank;
    d->move.len = a->len;
    d->move.ncards = a->ncards;
    d->primary = a->primary[0];
    d->represented = a->cards[1];
    /* What the wild cards stand for, so the play kept as "the play to
     * beat" still reads as it was played ("T=2", not "T"): every wild card
     * is listed, a wild card standing for its own rank too (the engine's
     * convention, ddz_move_represented), so the substitution is the
     * represented cards less the natural cards of ranks that are not wild. */
    if (a->cards[1]) {
        uint32_t subst = 0;
        int shift = 0;
        for (int x = 0; x < DDZ_NRANKS && shift < 32; x++) {
            unsigned nat = (s->wild_ranks >> x & 1) ? 0 : ddz_count(a->cards[0], x), rep = ddz_count(a->cards[1], x);
            for (unsigned k = nat < rep ? rep - nat : 0; k > 0 && shift < 32; k--, shift += 4)
                subst |= (uint32_t)(x + 1) << shift;
        }
        d->move.subst = subst;
    }
}

static void from_ddz_action(const ddz_state *s, const ddz_action *d, arb_action *a)
{
    if (d->phase == DDZ_PHASE_PLAY) {
        move_to_action(s, &d->move, a);
        return;
    }
    memset(a, 0, sizeof *a);
    a->decision = decision_of_phase[d->phase];
    a->value = d->value;
}

static int dz_check(const void *state, const arb_action *a, arb_action *fixed, char *why, size_t whylen)
{
    ddz_action d, f;
    to_ddz_action(state, a, &d);
    int rc = ddz_check(state, &d, &f, why, whylen);
    if (rc == 0)
        from_ddz_action(state, &f, fixed);
    return rc;
}

static int dz_apply(void *state, const arb_action *a)
{
    ddz_action d;
    to_ddz_action(state, a, &d);
    return ddz_apply(state, &d);
}

static bool dz_over(const void *state) { return ((const ddz_state *)state)->phase == DDZ_PHASE_OVER; }

static int dz_score(const void *state, int64_t *scores, int nseats)
{
    int64_t sc[DDZ_MAX_SEATS];
    int rc = ddz_scores(state, sc);
    for (int i = 0; i < nseats && i < DDZ_MAX_SEATS; i++)
        scores[i] = sc[i];
    return rc;
}

/* Action text: "pass", "play CARDS", "bid N", "call", "rob", "double",
 * "show", "claim", "no" (decline a value decision). docs/rules/notation.md. */
static int dz_parse_action(const void *state, const char *text, arb_action *a, char *err, size_t errlen)
{
    const ddz_state *s = state;
    memset(a, 0, sizeof *a);
    a->decision = decision_of_phase[s->phase];
    if (strlen(text) > ARB_MAX_PLAY_TEXT) {
        snprintf(err, errlen, "action longer than %d bytes", ARB_MAX_PLAY_TEXT);
        return ARB_ETOOBIG;
    }
    if (s->phase == DDZ_PHASE_PLAY) {
        const char *p = text;
        if (strncasecmp(p, "play ", 5) == 0)
            p += 5;
        ddz_cards cards, represented, primary;
        int rc = ddz_play_parse_w(s->rules, p, &cards, &represented, &primary);
        if (rc) {
            snprintf(err, errlen, "cannot read a play from \"%s\": %s", text, arb_strerror(rc));
            return rc;
        }
        a->cards[0] = cards;
        a->cards[1] = represented;
        a->primary[0] = primary == (represented ? represented : cards) ? 0 : primary;
        a->ncards = (uint8_t)ddz_total(cards);
        return 0;
    }
    static const char *const yes_words[] = {
        [DDZ_PHASE_CALL] = "call", [DDZ_PHASE_ROB] = "rob", [DDZ_PHASE_DOUBLE] = "double",
        [DDZ_PHASE_SHOW] = "show", [DDZ_PHASE_CLAIM] = "claim",
    };
    if (strcasecmp(text, "pass") == 0 || strcasecmp(text, "no") == 0) {
        a->value = 0;
        return 0;
    }
    if (s->phase == DDZ_PHASE_BID) {
        int v;
        char tail;
        /* "bid 2", or the bare legal item "2" (bot-protocol.md). */
        const char *num = strncasecmp(text, "bid ", 4) == 0 ? text + 4 : text;
        if (num[0] >= '0' && num[0] <= '9' && sscanf(num, "%d%c", &v, &tail) == 1 && v >= 0 && v <= 9) {
            a->value = (int8_t)v;
            return 0;
        }
        snprintf(err, errlen, "expected \"bid N\" or \"pass\", got \"%s\"", text);
        return ARB_EPARSE;
    }
    if (s->phase < sizeof yes_words / sizeof yes_words[0] && yes_words[s->phase]
        && strcasecmp(text, yes_words[s->phase]) == 0) {
        a->value = 1;
        return 0;
    }
    snprintf(err, errlen, "expected \"%s\" or \"pass\", got \"%s\"",
             s->phase < sizeof yes_words / sizeof yes_words[0] && yes_words[s->phase]
                 ? yes_words[s->phase] : "?", text);
    return ARB_EPARSE;
}

static int dz_format_action(const void *state, const arb_action *a, char *buf, size_t len)
{
    const ddz_state *s = state;
    static const char *const yes_words[] = {
        [DDZ_DEC_CALL] = "call", [DDZ_DEC_ROB] = "rob", [DDZ_DEC_DOUBLE] = "double",
        [DDZ_DEC_SHOW] = "show", [DDZ_DEC_CLAIM] = "claim",
    };
    switch (a->decision) {
    case ARB_DEC_PLAY: {
        ddz_move m = {a->cards[0], a->kind, a->rank, a->len, a->ncards, 0};
        if (a->cards[0] == 0)
            return snprintf(buf, len, "pass");
        if (len < 6)
            return ARB_ENOSPC;
        memcpy(buf, "play ", 5);
        if (a->cards[1]) {
            /* Wild cards read as other ranks: "ACTUAL=REPRESENTED+KICKERS". */
            ddz_move rep = m;
            rep.cards = a->cards[1];
            int n = ddz_cards_format(a->cards[0], buf + 5, len - 5);
            if ((size_t)(5 + n + 2) >= len)
                return ARB_ENOSPC;
            buf[5 + n] = '=';
            return 6 + n + ddz_move_format_reading(&rep, buf + 6 + n, len - 6 - (size_t)n);
        }
        (void)s;
        return 5 + ddz_move_format_reading(&m, buf + 5, len - 5);
    }
    case DDZ_DEC_BID:
        return a->value ? snprintf(buf, len, "bid %d", a->value) : snprintf(buf, len, "pass");
    case DDZ_DEC_CALL: case DDZ_DEC_ROB: case DDZ_DEC_DOUBLE: case DDZ_DEC_SHOW: case DDZ_DEC_CLAIM:
        return snprintf(buf, len, "%s", a->value ? yes_words[a->decision] : "pass");
    default:
        return snprintf(buf, len, "none");
    }
}

static int dz_format_cards(const uint64_t cards[2], char *buf, size_t len)
{
    return ddz_cards_format(cards[0], buf, len);
}

/* ---- What a seat sees (bot-protocol.md, Events and Requests) ---------- */

static void wild_text(uint16_t wild, char *buf)
{
    int n = 0;
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (wild >> x & 1)
            buf[n++] = ddz_rank_chars[x];
    buf[n] = 0;
}

/* The landlord is known: who, the stake, the kitty turned up, and wild
 * ranks drawn after the auction. */
static void landlord_events(const ddz_state *s, uint16_t wild_before, arb_emit_fn emit, void *ctx)
{
    char cards[2 * DDZ_MAX_CARDS + 2];
    arb_emitf(emit, ctx, "landlord %d %lld", s->landlord, (long long)ddz_stake(s));
    ddz_cards_format(s->kitty, cards, sizeof cards);
    arb_emitf(emit, ctx, "kitty %s", s->kitty ? cards : "-");
    if (s->wild_ranks != wild_before) {
        wild_text(s->wild_ranks, cards);
        arb_emitf(emit, ctx, "wild %s", cards);
    }
}

static int dz_start_events(const void *state, int seat, arb_emit_fn emit, void *ctx)
{
    const ddz_state *s = state;
    if (seat < 0 || seat >= s->nseats)
        return ARB_EINVAL;
    char cards[2 * DDZ_MAX_CARDS + 2];
    ddz_cards_format(s->dealt[seat], cards, sizeof cards);
    arb_emitf(emit, ctx, "hand %s", cards);
    if (s->landlord != DDZ_NONE) {
        /* No auction (a fixed landlord): the table is set at once. Wild
         * ranks drawn before or after it are all in force now. */
        landlord_events(s, 0, emit, ctx);
        return 0;
    }
    if (s->wild_ranks) {
        wild_text(s->wild_ranks, cards);
        arb_emitf(emit, ctx, "wild %s", cards);
    }
    arb_emitf(emit, ctx, "first %d", s->first_bidder);
    return 0;
}

static const char *const value_words[] = {
    [DDZ_DEC_BID] = "bid", [DDZ_DEC_CALL] = "call", [DDZ_DEC_ROB] = "rob",
    [DDZ_DEC_DOUBLE] = "double", [DDZ_DEC_SHOW] = "show", [DDZ_DEC_CLAIM] = "claim",
};

static const char *dz_decision_name(arb_decision d)
{
    if (d == ARB_DEC_NONE)
        return "none";
    if (d == ARB_DEC_PLAY)
        return "play";
    return d > 0 && (size_t)d < sizeof value_words / sizeof value_words[0] ? value_words[d] : NULL;
}

static int dz_action_events(const void *before, const void *after, int actor, const arb_action *a,
                            int seat, arb_emit_fn emit, void *ctx)
{
    const ddz_state *b = before, *s = after;
    char text[4 * DDZ_MAX_CARDS + 16];
    if (a->decision == ARB_DEC_PLAY) {
        if (a->cards[0] == 0) {
            arb_emitf(emit, ctx, "pass %d", actor);
        } else {
            dz_format_action(after, a, text, sizeof text);   /* "play READING" */
            arb_emitf(emit, ctx, "play %d %s %s", actor, text + 5, ddz_kind_name((ddz_kind)a->kind));
        }
        if (a->cards[0]) {
            char counts[64];
            int n = snprintf(counts, sizeof counts, "counts");
            for (int i = 0; i < s->nseats; i++)
                n += snprintf(counts + n, sizeof counts - (size_t)n, " %u", ddz_total(s->hand[i]));
            emit(ctx, counts);
        }
        return 0;
    }
    if (a->decision >= sizeof value_words / sizeof value_words[0] || !value_words[a->decision])
        return ARB_EINVAL;
    arb_emitf(emit, ctx, "%s %d %d", value_words[a->decision], actor, a->value);
    if (a->decision == DDZ_DEC_SHOW && a->value) {
        ddz_cards_format(s->hand[actor], text, sizeof text);
        arb_emitf(emit, ctx, "shown %d %s", actor, text);
    }
    if (s->redeals != b->redeals && s->phase != DDZ_PHASE_OVER) {
        arb_emitf(emit, ctx, "redeal %d", s->redeals);
        return dz_start_events(after, seat, emit, ctx);
    }
    if (b->landlord == DDZ_NONE && s->landlord != DDZ_NONE)
        landlord_events(s, b->wild_ranks, emit, ctx);
    return 0;
}

static int dz_request(const void *state, char *buf, size_t len)
{
    const ddz_state *s = state;
    if (s->phase == DDZ_PHASE_OVER)
        return ARB_ESTATE;
    if (s->phase != DDZ_PHASE_PLAY)
        return snprintf(buf, len, "%s", value_words[decision_of_phase[s->phase]]);
    const ddz_move *prev = ddz_to_beat(s);
    if (!prev)
        return snprintf(buf, len, "play");
    arb_action a;
    move_to_action(s, prev, &a);
    char text[4 * DDZ_MAX_CARDS + 16];
    dz_format_action(state, &a, text, sizeof text);
    return snprintf(buf, len, "play beat %d %s %s", s->last_seat, text + 5, ddz_kind_name((ddz_kind)prev->kind));
}

static int dz_format_item(const void *state, const arb_action *a, char *buf, size_t len)
{
    if (a->decision == ARB_DEC_PLAY) {
        int n = dz_format_action(state, a, buf, len);
        if (n > 5 && strncmp(buf, "play ", 5) == 0) {
            memmove(buf, buf + 5, (size_t)n - 4);
            n -= 5;
        }
        return n;
    }
    if (a->decision == DDZ_DEC_BID)
        return a->value ? snprintf(buf, len, "%d", a->value) : snprintf(buf, len, "pass");
    return dz_format_action(state, a, buf, len);
}

static bool dz_items_on_request(const void *state)
{
    return ((const ddz_state *)state)->phase != DDZ_PHASE_PLAY;
}

static int dz_fallback(const void *state, const arb_action *legal, int n)
{
    (void)state;
    int best = 0;
    for (int i = 0; i < n; i++) {
        bool pass = legal[i].decision == ARB_DEC_PLAY ? legal[i].cards[0] == 0 : legal[i].value == 0;
        if (pass)
            return i;
        if (legal[i].ncards < legal[best].ncards
            || (legal[i].ncards == legal[best].ncards && legal[i].rank < legal[best].rank))
            best = i;
    }
    return best;
}

/* ---- The match: N deals, scores summed ------------------------------- */

/* Nothing passes from deal to deal but the totals: the match is its deal
 * limit of deals, whatever happens in them. */
typedef struct dz_match {
    int      nseats;
    uint32_t played, limit;
    int64_t  total[DDZ_MAX_SEATS];   /* per player */
} dz_match;

static int dz_teams(const void *rules, int8_t *team_of_seat)
{
    (void)rules; (void)team_of_seat;
    return 0;   /* the landlord's side is chosen in each deal */
}

static int dz_match_init(void *mstate, const void *rules, uint32_t deal_limit)
{
    dz_match *m = mstate;
    memset(m, 0, sizeof *m);
    m->nseats = dz_seats(rules);
    m->limit = deal_limit;
    return m->nseats >= 1 && m->nseats <= DDZ_MAX_SEATS ? 0 : ARB_EINVAL;
}

/* The offender pays the stake to every other seat. */
static int dz_forfeit(const void *mstate, int seat, int64_t stake, int64_t *scores)
{
    const dz_match *m = mstate;
    if (seat < 0 || seat >= m->nseats)
        return ARB_EINVAL;
    for (int s = 0; s < m->nseats; s++)
        scores[s] = s == seat ? -(int64_t)(m->nseats - 1) * stake : stake;
    return 0;
}

static int dz_match_deal_done(void *mstate, const void *state, const uint8_t *player_at, const int64_t *scores,
                              int forfeit_seat)
{
    (void)state; (void)forfeit_seat;
    dz_match *m = mstate;
    for (int s = 0; s < m->nseats; s++) {
        if (player_at[s] >= m->nseats)
            return ARB_EINVAL;
        m->total[player_at[s]] += scores[s];
    }
    m->played++;
    return 0;
}

static bool dz_match_over(const void *mstate)
{
    const dz_match *m = mstate;
    return m->played >= m->limit;
}

static int dz_match_result(const void *mstate, arb_standing *out)
{
    const dz_match *m = mstate;
    memset(out, 0, sizeof *out);
    for (int p = 0; p < m->nseats; p++) {
        out->score[p] = m->total[p];
        out->team[p] = -1;
    }
    return 0;
}

const arb_game arb_game_doudizhu = {
    .name = "doudizhu",
    .title = "Dou Dizhu (斗地主)",
    .rules_size = sizeof(ddz_rules),
    .default_preset = "standard",
    .presets = dz_presets,
    .state_size = sizeof(ddz_state),
    .rules_preset = dz_rules_preset,
    .rules_set = dz_rules_set,
    .rules_check = dz_rules_check,
    .rules_describe = dz_rules_describe,
    .seats = dz_seats,
    .team_of = dz_team_of,
    .teams = dz_teams,
    .match_state_size = sizeof(dz_match),
    .default_forfeit_points = 6,
    .match_ends_early = false,
    .match_init = dz_match_init,
    .forfeit = dz_forfeit,
    .match_deal_done = dz_match_deal_done,
    .match_over = dz_match_over,
    .match_result = dz_match_result,
    .deal = dz_deal,
    .to_act = dz_to_act,
    .decision = dz_decision,
    .decision_name = dz_decision_name,
    .legal = dz_legal,
    .check = dz_check,
    .apply = dz_apply,
    .over = dz_over,
    .score = dz_score,
    .parse_action = dz_parse_action,
    .format_action = dz_format_action,
    .format_cards = dz_format_cards,
    .deal_cards = dz_deal_cards,
    .deal_ordered = dz_deal_ordered,
    .start_events = dz_start_events,
    .action_events = dz_action_events,
    .request = dz_request,
    .format_item = dz_format_item,
    .items_on_request = dz_items_on_request,
    .fallback = dz_fallback,
};
