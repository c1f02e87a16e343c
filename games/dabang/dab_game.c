/* dab_game.c — Da Bang behind the game interface (game.h): actions as
 * text and as arb_action values, what each seat sees, and the match of
 * many deals. The rules themselves are dab_cards.c and dab_deal.c.
 *
 * Actions (arb_action): `cards` packs the cards shown, given or played
 * (dab_pack); `value` is the declaring option's bit (-1: pass), the card
 * given or buried, or the joker buried (-1: pass) with the card taken back
 * in `rank` and `primary`; `kind` is a play's shape.
 *
 * Text (the bot protocol; docs/rules/notation.md): a declaration is the
 * cards shown ("5H", "5H5H", "RJ") and, for three jokers, the suit named
 * ("BJBJBJ:S", one word like every item; "BJBJBJ S" is read too); a tribute, return or burial is one card ("AS"); a joker
 * burial is the joker and the card taken back ("RJ 3S"); a play is its
 * cards ("5H5H"); "pass" declines where that is allowed. */
#include "dabang.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "arb_error.h"
#include "arb_limits.h"
#include "game.h"

static const char suit_chars[] = "SHCD";
static const char level_chars[] = "3456789T";

/* ---- Rules --------------------------------------------------------------- */

static const char *const *g_presets(void) { return dab_presets(); }
static int g_rules_preset(void *r, const char *p) { return dab_rules_preset(r, p); }
static int g_rules_set(void *r, const char *k, const char *v, char *e, size_t n) { return dab_rules_set(r, k, v, e, n); }
static int g_rules_check(const void *r, char *e, size_t n) { return dab_rules_check(r, e, n); }
static size_t g_rules_describe(const void *r, char *b, size_t n) { return dab_rules_describe(r, b, n); }
static int g_seats(const void *r) { (void)r; return DAB_SEATS; }
static int g_team_of(const void *s, int seat) { (void)s; return seat >= 0 && seat < DAB_SEATS ? dab_team(seat) : -1; }

static int g_teams(const void *r, int8_t *team_of_seat)
{
    (void)r;
    for (int s = 0; s < DAB_SEATS; s++)
        team_of_seat[s] = (int8_t)dab_team(s);
    return 2;
}

/* ---- The match ------------------------------------------------------------ */

static int g_match_init(void *m, const void *r, uint32_t limit)
{
    dab_match_init(m, r, limit);
    return 0;
}

static int g_deal_setup(void *state, const void *mstate, const uint8_t *player_at)
{
    dab_context ctx;
    for (int s = 0; s < DAB_SEATS; s++)
        if (player_at[s] >= DAB_SEATS)
            return ARB_EINVAL;
    dab_match_context(mstate, player_at, &ctx);
    return dab_setup(state, &ctx);
}

/* DB-72: the offender's team loses the stake, the other side gains it. */
static int g_forfeit(const void *m, int seat, int64_t stake, int64_t *scores)
{
    (void)m;
    if (seat < 0 || seat >= DAB_SEATS)
        return ARB_EINVAL;
    for (int s = 0; s < DAB_SEATS; s++)
        scores[s] = dab_team(s) == dab_team(seat) ? -stake : stake;
    return 0;
}

static int g_match_deal_done(void *m, const void *state, const uint8_t *player_at, const int64_t *scores,
                             int forfeit_seat)
{
    (void)scores;
    for (int s = 0; s < DAB_SEATS; s++)
        if (player_at[s] >= DAB_SEATS)
            return ARB_EINVAL;
    dab_match_fold(m, state, player_at, forfeit_seat);
    return 0;
}

static bool g_match_over(const void *m) { return dab_match_over(m); }

/* DB-73: a team's score is its level as a number (3..10; 11 once it passed
 * 10 — a special ending won at 10 is not passing); the winner, once there
 * is one, is named (passing 10, a special ending, DB-71's limit). */
static int g_match_result(const void *mstate, arb_standing *out)
{
    const dab_match *m = mstate;
    memset(out, 0, sizeof *out);
    out->nteams = 2;
    int w = dab_match_winner(m);
    for (int t = 0; t < 2; t++)
        out->team_score[t] = m->level[t] + 3 + m->passed[t];   /* 11: passed 10 */
    for (int p = 0; p < DAB_SEATS; p++) {
        out->team[p] = (int8_t)(p % 2);
        out->score[p] = out->team_score[p % 2];
    }
    out->decided = w >= 0;
    out->winner_team = (int8_t)w;
    return 0;
}

/* ---- The deal ----------------------------------------------------------------- */

static int g_deal(void *state, const void *rules, uint64_t seed) { return dab_deal(state, rules, seed); }
static int g_to_act(const void *state) { return dab_to_act(state); }

static int g_deal_ordered(void *state, const void *rules, uint64_t seed, const uint8_t *order, size_t n)
{
    return dab_deal_ordered(state, rules, seed, order, n);
}

/* The draw (DB-40, DB-41): card i of the shuffle goes to the seat
 * (first drawer + i) mod 4, the last DAB_KITTY cards are the kitty. */
static int g_deal_cards(const void *state, arb_deal_cards *out)
{
    const dab_state *s = state;
    dab_hand h[DAB_SEATS], k;
    memset(out, 0, sizeof *out);
    memset(h, 0, sizeof h);
    memset(&k, 0, sizeof k);
    out->ncards = DAB_DECK;
    memcpy(out->order, s->deck, DAB_DECK);
    out->nseats = DAB_SEATS;
    for (int i = 0; i < DAB_DECK; i++) {
        dab_hand *to = i < DAB_DECK - DAB_KITTY ? &h[(s->first_drawer + i) % DAB_SEATS] : &k;
        to->n[s->deck[i]]++;
        to->total++;
    }
    for (int p = 0; p < DAB_SEATS; p++)
        dab_pack(&h[p], out->hand[p]);
    dab_pack(&k, out->kitty);
    return 0;
}
static arb_decision g_decision(const void *state) { return dab_decision(state); }
static bool g_over(const void *state) { return ((const dab_state *)state)->phase == DAB_PH_OVER; }

static const char *g_decision_name(arb_decision d)
{
    switch (d) {
    case ARB_DEC_NONE: return "none";
    case ARB_DEC_PLAY: return "play";
    case DAB_DEC_DECLARE: return "declare";
    case DAB_DEC_TRIBUTE: return "tribute";
    case DAB_DEC_RETURN: return "return";
    case DAB_DEC_BURY: return "bury";
    case DAB_DEC_JOKER: return "joker";
    case DAB_DEC_TAKE: return "takeback";
    default: return NULL;
    }
}

static void one_card(arb_action *a, int decision, int c)
{
    dab_hand h = {0};
    memset(a, 0, sizeof *a);
    a->decision = (uint8_t)decision;
    a->value = (int8_t)c;
    h.n[c] = 1;
    h.total = 1;
    dab_pack(&h, a->cards);
    a->ncards = 1;
}

/* The cards a declaring option shows. */
static void decl_cards(const dab_state *s, const dab_decl *d, dab_hand *h)
{
    memset(h, 0, sizeof *h);
    if (d->kind == DAB_DECL_LEVEL)
        h->n[s->level * 4 + d->suit] = (uint8_t)d->count;
    else if (d->kind == DAB_DECL_BJ3)
        h->n[DAB_BJ] = 3;
    else if (d->kind == DAB_DECL_RJ3)
        h->n[DAB_RJ] = 3;
    else if (d->kind == DAB_DECL_BIGJOKER)
        h->n[DAB_RJ] = 1;
    h->total = (uint8_t)(d->kind == DAB_DECL_NONE ? 0 : d->count);
}

static void declare_action(const dab_state *s, int bit, arb_action *a)
{
    memset(a, 0, sizeof *a);
    a->decision = DAB_DEC_DECLARE;
    a->value = (int8_t)bit;
    if (bit < 0)
        return;
    dab_decl d;
    dab_hand h;
    dab_decl_of_bit(bit, &d);
    decl_cards(s, &d, &h);
    dab_pack(&h, a->cards);
    a->ncards = h.total;
    a->len = (uint8_t)d.count;
}

static void joker_action(int joker, arb_action *a)
{
    if (joker < 0) {
        memset(a, 0, sizeof *a);
        a->decision = DAB_DEC_JOKER;
        a->value = -1;
        return;
    }
    one_card(a, DAB_DEC_JOKER, joker);
}

/* A play's packing (dab_pack's) straight from its cards: legal lists
 * every lead and follow this way, so it does not go through a hand. */
static void play_action(const dab_play *p, arb_action *a)
{
    memset(a, 0, sizeof *a);
    a->decision = ARB_DEC_PLAY;
    for (int i = 0; i < p->n; i++)
        a->cards[p->c[i] / 32] += (uint64_t)1 << (2 * (p->c[i] % 32));
    a->ncards = p->n;
    a->kind = (uint8_t)dab_play_shape(p);
}

static int g_legal(const void *state, arb_action *out, size_t cap)
{
    const dab_state *s = state;
    size_t n = 0;
#define PUT(expr) do { if (n >= cap) return ARB_ENOSPC; expr; n++; } while (0)
    switch (dab_decision(s)) {
    case DAB_DEC_DECLARE: {
        uint32_t m = dab_declare_options(s, s->to_act);
        PUT(declare_action(s, -1, &out[n]));
        for (int b = 0; b < 32; b++)
            if (m >> b & 1u)
                PUT(declare_action(s, b, &out[n]));
        break;
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY:
    case DAB_DEC_TAKE: {
        dab_hand h;
        dab_card_options(s, &h);
        for (int c = 0; c < DAB_NCARDS; c++)
            if (h.n[c])
                PUT(one_card(&out[n], dab_decision(s), c));
        break;
    }
    case DAB_DEC_JOKER: {
        dab_hand j;
        dab_joker_options(s, &j);
        PUT(joker_action(-1, &out[n]));
        for (int c = DAB_BJ; c <= DAB_RJ; c++)
            if (j.n[c])
                PUT(joker_action(c, &out[n]));
        break;
    }
    case ARB_DEC_PLAY: {
        dab_play plays[DAB_MAX_PLAYS];
        int k = s->ntrick ? dab_follows(&s->trump, &s->hand[s->to_act], &s->trick[0], plays, DAB_MAX_PLAYS)
                          : dab_leads(&s->trump, &s->hand[s->to_act], plays, DAB_MAX_PLAYS);
        if (k < 0)
            return k;
        for (int i = 0; i < k; i++)
            PUT(play_action(&plays[i], &out[n]));
        break;
    }
    default:
        return 0;
    }
#undef PUT
    return (int)n;
}

static int g_check(const void *state, const arb_action *a, arb_action *fixed, char *why, size_t whylen)
{
    const dab_state *s = state;
    int d = dab_decision(s);
    if (a->decision != d) {
        snprintf(why, whylen, "the decision asked is %s", g_decision_name(d) ? g_decision_name(d) : "none");
        return ARB_EILLEGAL;
    }
    dab_hand h;
    switch (d) {
    case DAB_DEC_DECLARE: {
        if (a->value < 0) {
            declare_action(s, -1, fixed);
            return 0;
        }
        if (a->value > 20 || !(dab_declare_options(s, s->to_act) >> a->value & 1u)) {
            snprintf(why, whylen, "not a declaration you can make now (DB-42..DB-45)");
            return ARB_EILLEGAL;
        }
        declare_action(s, a->value, fixed);
        return 0;
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY:
    case DAB_DEC_TAKE:
        dab_card_options(s, &h);
        if (a->value < 0 || a->value >= DAB_NCARDS || !h.n[a->value]) {
            snprintf(why, whylen, "%s",
                     d == DAB_DEC_TRIBUTE ? "give your highest card that is not a point card (DB-52)"
                     : d == DAB_DEC_RETURN ? "give back a card you hold (DB-53)"
                     : d == DAB_DEC_TAKE ? "take back one of the kitty's smallest cards that are neither point "
                                          "cards nor jokers (DB-59)"
                     : "bury a card you hold; a small joker only without a big joker (DB-57)");
            return ARB_EILLEGAL;
        }
        one_card(fixed, d, a->value);
        return 0;
    case DAB_DEC_JOKER: {
        if (a->value < 0) {
            joker_action(-1, fixed);
            return 0;
        }
        dab_hand j;
        dab_joker_options(s, &j);
        if (a->value >= DAB_NCARDS || !j.n[a->value]) {
            snprintf(why, whylen, "bury a big joker before a small one (DB-57, DB-59)");
            return ARB_EILLEGAL;
        }
        joker_action(a->value, fixed);
        return 0;
    }
    case ARB_DEC_PLAY: {
        dab_play p;
        if (dab_unpack(a->cards, &h) || dab_play_from_hand(&h, &p)) {
            snprintf(why, whylen, "a play is one, two or three cards (DB-20)");
            return ARB_EILLEGAL;
        }
        int rc = dab_check_play(&s->trump, &s->hand[s->to_act], s->ntrick ? &s->trick[0] : NULL, &p, why, whylen);
        if (rc)
            return rc;
        play_action(&p, fixed);
        return 0;
    }
    default:
        snprintf(why, whylen, "the deal is over");
        return ARB_EILLEGAL;
    }
}

static int g_apply(void *state, const arb_action *a)
{
    dab_state *s = state;
    char why[160];
    switch (a->decision) {
    case DAB_DEC_DECLARE: {
        dab_decl d = {DAB_DECL_NONE, 0, -1};
        if (a->value >= 0)
            dab_decl_of_bit(a->value, &d);
        return dab_do_declare(s, &d, why, sizeof why);
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY:
    case DAB_DEC_TAKE:
        if (a->decision != dab_decision(s))
            return ARB_EILLEGAL;
        return dab_do_card(s, a->value, why, sizeof why);
    case DAB_DEC_JOKER:
        return dab_do_joker(s, a->value, why, sizeof why);
    case ARB_DEC_PLAY: {
        dab_hand h;
        dab_play p;
        if (dab_unpack(a->cards, &h) || dab_play_from_hand(&h, &p))
            return ARB_EILLEGAL;
        return dab_do_play(s, &p, why, sizeof why);
    }
    default:
        return ARB_EILLEGAL;
    }
}

/* Deal scores per seat: the levels gained by the side that went up, and
 * as many lost by the other (zero-sum), 0 when nobody went up. */
static int g_score(const void *state, int64_t *scores, int nseats)
{
    const dab_state *s = state;
    if (s->phase != DAB_PH_OVER || nseats < DAB_SEATS)
        return ARB_ESTATE;
    for (int i = 0; i < DAB_SEATS; i++)
        scores[i] = s->out.rise_team < 0 ? 0 : dab_team(i) == s->out.rise_team ? s->out.rise : -s->out.rise;
    return 0;
}

/* ---- Text ----------------------------------------------------------------------- */

static const char *skip_word(const char *t, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(t, word, n) == 0 && t[n] == ' ')
        return t + n + 1;
    return t;
}

static int parse_one(const char *t, int *card)
{
    const char *p = t;
    int c = dab_parse_card(&p);
    if (c < 0 || *p)
        return ARB_EPARSE;
    *card = c;
    return 0;
}

static int g_parse_action(const void *state, const char *text, arb_action *a, char *err, size_t errlen)
{
    const dab_state *s = state;
    int d = dab_decision(s);
    memset(a, 0, sizeof *a);
    a->decision = (uint8_t)d;
    if (strlen(text) > ARB_MAX_PLAY_TEXT) {
        snprintf(err, errlen, "action longer than %d bytes", ARB_MAX_PLAY_TEXT);
        return ARB_ETOOBIG;
    }
    const char *name = g_decision_name(d);
    const char *t = name ? skip_word(text, name) : text;
    char buf[ARB_MAX_PLAY_TEXT + 1];
    snprintf(buf, sizeof buf, "%s", t);
    char *sp = strchr(buf, ' ');
    if (!sp && d == DAB_DEC_DECLARE)
        sp = strchr(buf, ':');      /* three jokers and a suit, one word: BJBJBJ:S */
    char *second = NULL;
    if (sp) {
        *sp = 0;
        second = sp + 1;
    }
    bool pass = strcasecmp(buf, "pass") == 0 && !second;
    dab_hand h = {0};
    char why[128];
    switch (d) {
    case DAB_DEC_DECLARE: {
        if (pass) {
            a->value = -1;
            return 0;
        }
        if (dab_parse_cards(buf, 3, &h, why, sizeof why))
            goto bad;
        dab_decl want = {DAB_DECL_NONE, 0, -1};
        if (h.total == 1 && h.n[DAB_RJ] == 1 && s->ctx.first && !second)
            want = (dab_decl){DAB_DECL_BIGJOKER, 1, -1};
        else if ((h.n[DAB_BJ] == 3 || h.n[DAB_RJ] == 3) && second) {
            int u = dab_suit_parse(second);
            if (u < 0)
                goto bad;
            want = (dab_decl){(int8_t)(h.n[DAB_BJ] == 3 ? DAB_DECL_BJ3 : DAB_DECL_RJ3), 3, (int8_t)u};
        } else if (!second && h.total > 0) {
            /* one to three identical level cards; no cards is not a declaration */
            for (int c = 0; c < DAB_BJ; c++)
                if (h.n[c] == h.total && dab_rank(c) == s->level)
                    want = (dab_decl){DAB_DECL_LEVEL, (int8_t)h.total, (int8_t)dab_suit(c)};
        }
        if (want.kind == DAB_DECL_NONE)
            goto bad;
        declare_action(s, dab_decl_bit(&want), a);
        return 0;
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY:
    case DAB_DEC_TAKE: {
        int c;
        if (second || parse_one(buf, &c))
            goto bad;
        one_card(a, d, c);
        return 0;
    }
    case DAB_DEC_JOKER: {
        if (pass) {
            a->value = -1;
            return 0;
        }
        int j;
        if (second || parse_one(buf, &j) || !dab_joker(j))
            goto bad;
        joker_action(j, a);
        return 0;
    }
    case ARB_DEC_PLAY: {
        dab_play p;
        if (second || dab_parse_cards(buf, DAB_MAX_PLAY, &h, why, sizeof why) || dab_play_from_hand(&h, &p))
            goto bad;
        play_action(&p, a);
        return 0;
    }
    default:
        snprintf(err, errlen, "the deal is over");
        return ARB_ESTATE;
    }
bad:
    snprintf(err, errlen, "cannot read \"%s\" as a %s (%s)", text, name ? name : "decision",
             d == DAB_DEC_DECLARE ? "level cards like 5H5H, BJBJBJ:S, RJ, or pass"
             : d == DAB_DEC_JOKER ? "a joker, RJ or BJ, or pass"
             : d == ARB_DEC_PLAY ? "one to three cards like 5H5H"
                                 : "one card like AS");
    return ARB_EPARSE;
}

/* snprintf(buf, len, "%s", s) without the formatter: an item is written
 * for every seat on every action. */
static int copy_text(char *buf, size_t len, const char *s)
{
    size_t n = strlen(s);
    if (len) {
        size_t k = n < len - 1 ? n : len - 1;
        memcpy(buf, s, k);
        buf[k] = 0;
    }
    return (int)n;
}

/* dab_format_hand of the cards dab_pack packed, read from the packing
 * itself (each card's 2-bit count, lowest card first) rather than through a
 * hand of every card: an action's cards are formatted for every seat.
 * -1 when the packing is not one (dab_unpack's refusal), -2 when the text
 * does not fit. */
static int format_packed(const uint64_t cards[2], char *buf, size_t len)
{
    size_t at = 0;
    if (cards[1] >> (2 * (DAB_NCARDS - 32)))
        return -1;
    for (int w = 0; w < 2; w++)
        for (uint64_t x = cards[w]; x;) {
            int shift = __builtin_ctzll(x) & ~1;
            int c = w * 32 + shift / 2;
            for (unsigned k = (unsigned)(x >> shift) & 3u; k > 0; k--) {
                if (at + 3 > len)
                    return -2;
                dab_format_card(c, buf + at, len - at);
                at += 2;
            }
            x &= ~((uint64_t)3 << shift);
        }
    buf[at] = 0;
    return (int)at;
}

static int g_format_item(const void *state, const arb_action *a, char *buf, size_t len)
{
    (void)state;
    char cards[3 * 2 * DAB_MAX_PLAY + 8];
    int n = format_packed(a->cards, cards, sizeof cards);
    if (n == -1)
        return ARB_EINVAL;
    if (n < 0)
        return ARB_ENOSPC;
    switch (a->decision) {
    case DAB_DEC_DECLARE: {
        if (a->value < 0)
            return copy_text(buf, len, "pass");
        dab_decl d;
        dab_decl_of_bit(a->value, &d);
        if (d.kind == DAB_DECL_BJ3 || d.kind == DAB_DECL_RJ3)
            return snprintf(buf, len, "%s:%c", cards, suit_chars[d.suit & 3]);
        return copy_text(buf, len, cards);
    }
    case DAB_DEC_JOKER:
        if (a->value < 0)
            return copy_text(buf, len, "pass");
        return copy_text(buf, len, cards);
    default:
        return copy_text(buf, len, cards);
    }
}

static int g_format_action(const void *state, const arb_action *a, char *buf, size_t len)
{
    char item[64];
    if (g_format_item(state, a, item, sizeof item) < 0)
        return ARB_EINVAL;
    const char *name = g_decision_name(a->decision);
    if (!name)
        return ARB_EINVAL;
    if (strcmp(item, "pass") == 0)
        return snprintf(buf, len, "pass");
    return snprintf(buf, len, "%s %s", name, item);
}

static int g_format_cards(const uint64_t cards[2], char *buf, size_t len)
{
    dab_hand h;
    if (dab_unpack(cards, &h))
        return ARB_EINVAL;
    int n = dab_format_hand(&h, buf, len);
    return n < 0 ? ARB_ENOSPC : n;
}

/* ---- What each seat sees ------------------------------------------------------- */

/* The lines sent for nearly every action — a play, a card drawn, a trick
 * gathered, each to every seat that sees it — are put together word by
 * word: formatted through vsnprintf they were the largest single cost of
 * judging an action (a profile of `arbiter replay`). The bytes are the
 * same as arb_emitf's. */
typedef struct line_buf {
    char text[128];
    size_t len;     /* at most sizeof text - 1: a longer line is cut, as vsnprintf would */
} line_buf;

static void lb_str(line_buf *l, const char *s)
{
    while (*s && l->len < sizeof l->text - 1)
        l->text[l->len++] = *s++;
}

static void lb_int(line_buf *l, int v)
{
    char digits[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < (int)sizeof digits);
    if (v < 0)
        lb_str(l, "-");
    while (n > 0 && l->len < sizeof l->text - 1)
        l->text[l->len++] = digits[--n];
}

/* "WORD N" and, when item is not NULL, " ITEM": an action as the seats see
 * it ("play 2 5H5H", "bury 1"). */
static void emit_act(arb_emit_fn emit, void *ctx, const char *word, int seat, const char *item)
{
    line_buf l = {.len = 0};
    lb_str(&l, word);
    lb_str(&l, " ");
    lb_int(&l, seat);
    if (item) {
        lb_str(&l, " ");
        lb_str(&l, item);
    }
    l.text[l.len] = 0;
    emit(ctx, l.text);
}

static void cards_of(const uint8_t *ids, int n, char *buf, size_t len)
{
    dab_hand h = {0};
    for (int i = 0; i < n; i++)
        h.n[ids[i]]++;
    if (dab_format_hand(&h, buf, len) < 0 && len)
        buf[0] = 0;
}

static const char *trump_how[] = {"declared", "flip", "kitty"};

/* Everything that happened without a decision between two states, as seat
 * `seat` may see it: its own draws, the trump suit, the kitty shown or
 * taken, tricks gathered, the deal's end. */
static void progress(const dab_state *b, const dab_state *a, int seat, arb_emit_fn emit, void *ctx)
{
    char cards[DAB_DECK * 2 + 8];
    int from = b->drawn;
    bool trump_before = b->trump_known;
    if (a->redeals != b->redeals) {
        arb_emitf(emit, ctx, "redeal %d", a->redeals);
        from = 0;
        trump_before = false;
    }
    /* One line per card drawn: lines in batches would break wherever
     * someone was asked to declare, and show the others that he was, and
     * so what he holds, though he passed (DB-48). */
    for (int p = from; p < a->drawn; p++)
        if ((a->first_drawer + p) % DAB_SEATS == seat) {
            char line[8] = "draw ";
            dab_format_card(a->deck[p], line + 5, sizeof line - 5);
            emit(ctx, line);
        }
    if (!trump_before && a->trump_known) {
        if (a->trump_from == 1) {
            uint8_t f[4];
            for (int i = 0; i < 4; i++)
                f[i] = (uint8_t)a->flips[i];
            char c4[4][4];
            for (int i = 0; i < 4; i++)
                dab_format_card(f[i], c4[i], sizeof c4[i]);
            arb_emitf(emit, ctx, "flip %s %s %s %s", c4[0], c4[1], c4[2], c4[3]);
        }
        arb_emitf(emit, ctx, "trump %c level %c dajia %d by %s", suit_chars[a->trump.suit], level_chars[a->level],
              a->dajia, trump_how[a->trump_from]);
    }
    /* DB-55: the kitty shown once the tribute is done */
    if ((!trump_before || b->phase <= DAB_PH_RETURN) && a->phase > DAB_PH_RETURN && a->kitty_shown) {
        cards_of(a->kitty_orig, DAB_KITTY, cards, sizeof cards);
        arb_emitf(emit, ctx, "kitty %s", cards);
    }
    /* DB-57: the 打家 takes the kitty (only he sees it unless shown) */
    if (b->phase < DAB_PH_BURY && a->phase >= DAB_PH_BURY && !a->dry) {
        if (seat == a->dajia) {
            cards_of(a->kitty_orig, DAB_KITTY, cards, sizeof cards);
            arb_emitf(emit, ctx, "take %s", cards);
        } else {
            arb_emitf(emit, ctx, "take %d", a->dajia);
        }
    }
    if (!b->dry && a->dry)
        arb_emitf(emit, ctx, "dry");
    /* DB-58, DB-59: a kitty with a joker buried is shown to all */
    if (!b->kitty_public && a->kitty_public) {
        dab_format_hand(&a->kitty, cards, sizeof cards);
        arb_emitf(emit, ctx, "buried %s", cards);
    }
    if (a->tricks_done > b->tricks_done) {
        int pts = 0;
        for (int i = 0; i < DAB_SEATS; i++)
            pts += dab_play_points(&a->last_trick[i]);
        line_buf l = {.len = 0};
        lb_str(&l, "trick ");
        lb_int(&l, a->last_winner);
        lb_str(&l, " ");
        lb_int(&l, pts);
        lb_str(&l, " points ");
        lb_int(&l, a->points[0]);
        lb_str(&l, " ");
        lb_int(&l, a->points[1]);
        l.text[l.len] = 0;
        emit(ctx, l.text);
    }
    if (b->phase != DAB_PH_OVER && a->phase == DAB_PH_OVER) {
        const dab_outcome *o = &a->out;
        dab_format_hand(&a->kitty, cards, sizeof cards);
        arb_emitf(emit, ctx, "result points %d kitty %s dug %d case %d rise %d %d levels %c %c next %d blood %d winner %d",
              o->points, cards, o->dug, o->kase, o->rise_team, o->rise,
              o->level_after[0] > DAB_LEVEL_MAX ? 'W' : level_chars[o->level_after[0]],
              o->level_after[1] > DAB_LEVEL_MAX ? 'W' : level_chars[o->level_after[1]], o->next_dajia, o->blood_next,
              o->winner);
    }
}

static int g_start_events(const void *state, int seat, arb_emit_fn emit, void *ctx)
{
    const dab_state *s = state;
    if (seat < 0 || seat >= DAB_SEATS)
        return ARB_EINVAL;
    if (s->ctx.first)
        arb_emitf(emit, ctx, "deal seat %d first drawer %d level %c", seat, s->first_drawer, level_chars[s->level]);
    else
        arb_emitf(emit, ctx, "deal seat %d dajia %d level %c levels %c %c blood %d", seat, s->ctx.dajia,
              level_chars[s->level], level_chars[s->ctx.level[0]], level_chars[s->ctx.level[1]],
              s->rules.tribute ? s->ctx.blood : 0);
    dab_state start;
    memset(&start, 0, sizeof start);
    start.redeals = s->redeals;
    start.phase = DAB_PH_DRAW;
    progress(&start, s, seat, emit, ctx);
    return 0;
}

static int g_action_events(const void *before, const void *after, int actor, const arb_action *fixed, int seat,
                           arb_emit_fn emit, void *ctx)
{
    const dab_state *b = before, *a = after;
    char item[64];
    if (g_format_item(before, fixed, item, sizeof item) < 0)
        return ARB_EINVAL;
    const char *name = g_decision_name(fixed->decision);
    if (!name)
        return ARB_EINVAL;
    bool pass = strcmp(item, "pass") == 0;
    switch (fixed->decision) {
    case DAB_DEC_JOKER:
        if (!pass) {
            /* DB-59: the joker, the kitty shown with it, the card taken
             * back when there was no choice among equals */
            emit_act(emit, ctx, name, actor, item);
            if (!b->kitty_public) {
                dab_hand k = a->kitty;
                if (a->phase != DAB_PH_TAKE && a->took >= 0)
                    k.n[a->took]++;
                char cards[DAB_KITTY * 2 + 8];
                dab_format_hand(&k, cards, sizeof cards);
                arb_emitf(emit, ctx, "buried %s", cards);
            }
            if (a->phase != DAB_PH_TAKE && a->took >= 0) {
                char c[4];
                dab_format_card(a->took, c, sizeof c);
                arb_emitf(emit, ctx, "takeback %d %s", actor, c);
            }
            dab_state told = *b;
            told.kitty_public = true;
            progress(&told, a, seat, emit, ctx);
            return 0;
        }
        /* a pass is the actor's own, as below */
        __attribute__((fallthrough));
    case DAB_DEC_DECLARE:
        /* being asked shows what one holds: a pass is the actor's own */
        if (!pass || seat == actor)
            emit_act(emit, ctx, name, actor, item);   /* a pass: "declare 2 pass" */
        break;
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
        emit_act(emit, ctx, name, actor, seat == b->dajia || seat == (b->dajia + 3) % DAB_SEATS ? item : NULL);
        break;
    case DAB_DEC_BURY:
        emit_act(emit, ctx, name, actor, seat == actor ? item : NULL);
        break;
    default:
        emit_act(emit, ctx, name, actor, item);
    }
    progress(b, a, seat, emit, ctx);
    return 0;
}

static int g_request(const void *state, char *buf, size_t len)
{
    const dab_state *s = state;
    int d = dab_decision(s);
    if (d == ARB_DEC_NONE)
        return ARB_ESTATE;
    if (d == ARB_DEC_PLAY && s->ntrick) {
        char led[16];
        dab_format_play(&s->trick[0], led, sizeof led);
        char win[16];
        int w = s->winner_idx >= 0 ? s->winner_idx : 0;
        dab_format_play(&s->trick[w], win, sizeof win);
        return snprintf(buf, len, "play follow %d %s winner %d %s", s->leader, led, (s->leader + w) % DAB_SEATS,
                        win);
    }
    return snprintf(buf, len, "%s", g_decision_name(d));
}

static bool g_items_on_request(const void *state) { return dab_decision(state) != ARB_DEC_PLAY; }

/* Pass where one may; else the lowest card or play (by power, then fewer
 * cards). */
static int g_fallback(const void *state, const arb_action *legal, int n)
{
    const dab_state *s = state;
    int best = 0, best_key = 1 << 30;
    for (int i = 0; i < n; i++) {
        if ((legal[i].decision == DAB_DEC_DECLARE || legal[i].decision == DAB_DEC_JOKER) && legal[i].value < 0)
            return i;
        dab_hand h;
        dab_unpack(legal[i].cards, &h);
        int key = 0;
        for (int c = 0; c < DAB_NCARDS; c++)
            if (h.n[c])
                key += h.n[c] * (s->trump_known ? s->trump.power[c] + 50 * dab_is_trump(&s->trump, c) : c);
        if (key < best_key) {
            best_key = key;
            best = i;
        }
    }
    return best;
}

const arb_game arb_game_dabang = {
    .name = "dabang",
    .title = "Da Bang (打棒)",
    .rules_size = sizeof(dab_rules),
    .state_size = sizeof(dab_state),
    .default_preset = "standard",
    .presets = g_presets,
    .rules_preset = g_rules_preset,
    .rules_set = g_rules_set,
    .rules_check = g_rules_check,
    .rules_describe = g_rules_describe,
    .seats = g_seats,
    .team_of = g_team_of,
    .teams = g_teams,
    .match_state_size = sizeof(dab_match),
    .default_forfeit_points = 1,
    .match_ends_early = true,
    .match_init = g_match_init,
    .deal_setup = g_deal_setup,
    .forfeit = g_forfeit,
    .match_deal_done = g_match_deal_done,
    .match_over = g_match_over,
    .match_result = g_match_result,
    .deal = g_deal,
    .to_act = g_to_act,
    .decision = g_decision,
    .decision_name = g_decision_name,
    .legal = g_legal,
    .check = g_check,
    .apply = g_apply,
    .over = g_over,
    .score = g_score,
    .parse_action = g_parse_action,
    .format_action = g_format_action,
    .format_cards = g_format_cards,
    .deal_cards = g_deal_cards,
    .deal_ordered = g_deal_ordered,
    .start_events = g_start_events,
    .action_events = g_action_events,
    .request = g_request,
    .format_item = g_format_item,
    .items_on_request = g_items_on_request,
    .fallback = g_fallback,
};
