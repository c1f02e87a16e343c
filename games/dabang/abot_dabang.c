/* abot_dabang.c — the Da Bang view of the C bot library (arbiter_bot.h,
 * abot_dab_*): tracks what the seat has seen from the events
 * (games/dab_game.c writes them; docs/game-interface.md "How Da Bang
 * fits"), computes the legal plays with the rules engine (dabang.h), reads
 * the legal items of the other decisions and words the replies; the
 * protocol core (abot_core.c) reads the lines and writes them. */
#include "arbiter_bot.h"
#include "abot_core.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Legal items of a non-play request: a declaration list or a hand's cards. */
#define MAX_ITEMS 256

typedef struct bot {
    abot_dab_choose choose;
    void *ctx;
    abot_dab_observe observe;

    char *reply;
    size_t reply_cap;

    dab_play *choices;          /* DAB_MAX_PLAYS */
    int8_t suits[MAX_ITEMS];
    const char **items;        /* DAB_MAX_PLAYS: the referee's text of each choice, when listed */
    abot__okey *keys;
    const abot__okey **order;  /* the keys sorted (abot__sort_keys) */          /* DAB_MAX_PLAYS: the legal list's sort keys */
    dab_play *sorted;          /* DAB_MAX_PLAYS: scratch for reordering */
    const char **texts;        /* DAB_MAX_PLAYS: each choice as a reply */
    char (*formatted)[3 * DAB_MAX_PLAY + 8];   /* DAB_MAX_PLAYS: the engine's plays as text */
    bool strict;               /* abot_dab_options.strict */

    dab_rules rules;
    dab_trump trump;
    abot_dab_view v;
    abot_dab_result *results;
    int results_cap;
} bot;

/* By abot_dab_decision: the request's word and the reply's. */
static const char *const decision_words[] = {"declare", "tribute", "return", "bury", "joker", "takeback", "play"};

/* ---- Small parsers ------------------------------------------------------ */

static bool to_seat(const char *s, int *seat) { return abot__to_int(s, 0, DAB_SEATS - 1, seat); }

static bool to_hand(const char *s, int max, dab_hand *h)
{
    char err[64];
    memset(h, 0, sizeof *h);
    if (strcmp(s, "-") == 0)
        return true;
    return dab_parse_cards(s, max, h, err, sizeof err) == 0;
}

static bool to_play(const char *s, dab_play *p)
{
    dab_hand h;
    return to_hand(s, DAB_MAX_PLAY, &h) && h.total > 0 && dab_play_from_hand(&h, p) == 0;
}

static bool to_card(const char *s, int *card)
{
    const char *p = s;
    int c = dab_parse_card(&p);
    if (c < 0 || *p)
        return false;
    *card = c;
    return true;
}

static int level_of(const char *s)
{
    static const char chars[] = "3456789T";
    const char *at = strlen(s) == 1 ? strchr(chars, s[0]) : NULL;
    return at ? (int)(at - chars) : -1;
}

static void hand_add(dab_hand *h, int c)
{
    if (h->n[c] < DAB_COPIES) {
        h->n[c]++;
        h->total++;
    }
}

/* Takes a card out; false when the hand does not hold it. */
static bool hand_remove(dab_hand *h, int c)
{
    if (!h->n[c])
        return false;
    h->n[c]--;
    h->total--;
    return true;
}

static void hand_add_all(dab_hand *h, const dab_hand *add)
{
    for (int c = 0; c < DAB_NCARDS; c++)
        for (int k = 0; k < add->n[c]; k++)
            hand_add(h, c);
}

/* ---- Tracking the view ---------------------------------------------------- */

static void reset_trick(bot *b)
{
    abot_dab_view *v = &b->v;
    v->leader = -1;
    v->ntrick = 0;
    v->winner = -1;
    v->winning = NULL;
}

/* What drawing starts from (a new deal or a redeal). */
static void reset_draw(bot *b)
{
    abot_dab_view *v = &b->v;
    memset(&v->hand, 0, sizeof v->hand);
    memset(&v->decl_cards, 0, sizeof v->decl_cards);
    memset(&v->kitty, 0, sizeof v->kitty);
    memset(&v->buried, 0, sizeof v->buried);
    memset(v->played, 0, sizeof v->played);
    memset(&v->seen, 0, sizeof v->seen);
    v->decl_seat = -1;
    v->trump_suit = -1;
    v->trump = NULL;
    v->kitty_known = v->buried_known = v->dry = false;
    v->points[0] = v->points[1] = 0;
    v->tricks = 0;
    v->last_winner = -1;
    if (v->first)
        v->dajia = -1;
    reset_trick(b);
}

static void reset_deal(bot *b, int deal, int seat)
{
    abot_dab_view *v = &b->v;
    v->deal = deal;
    v->seat = seat;
    v->partner = (seat + 2) % DAB_SEATS;
    v->redeals = 0;
    v->first = false;
    v->first_drawer = -1;
    v->dajia = -1;
    v->blood = 0;
    for (int i = 0; i < DAB_SEATS; i++)
        v->penalties[i] = 0;
    reset_draw(b);
}

static void on_play(bot *b, int s, const dab_play *p)
{
    abot_dab_view *v = &b->v;
    for (int i = 0; i < p->n; i++) {
        if (s == v->seat && !hand_remove(&v->hand, p->c[i]))
            abot__diag("played a card that is not in the tracked hand");
        hand_add(&v->played[s], p->c[i]);
        hand_add(&v->seen, p->c[i]);
    }
    if (v->ntrick >= DAB_SEATS)
        reset_trick(b);        /* a trick line missing: lying input */
    if (v->ntrick == 0) {
        v->leader = s;
        v->winner = s;
    }
    v->trick[v->ntrick] = *p;
    if (v->ntrick > 0 && v->trump && v->winning && dab_beats(v->trump, p, v->winning))
        v->winner = s;
    if (v->ntrick == 0 || v->winner == s)
        v->winning = &v->trick[v->ntrick];
    v->ntrick++;
}

static void add_result(bot *b, char **w, int n)
{
    abot_dab_view *v = &b->v;
    if (n - 1 != DAB_SEATS) {
        abot__diag("a result with %d scores for %d players", n - 1, DAB_SEATS);
        return;
    }
    if (v->nresults == 0 || v->results[v->nresults - 1].deal != v->deal) {
        /* the game's own result line did not come: start the record here */
        if (v->nresults >= ARB_MAX_DEALS)
            return;
        if (v->nresults == b->results_cap) {
            void *grown = abot__grow(b->results, &b->results_cap, sizeof *b->results);
            if (!grown)
                return;
            b->results = grown;
        }
        v->results = b->results;
        b->results[v->nresults++] = (abot_dab_result){.deal = v->deal, .seat = v->seat, .dajia = v->dajia,
                                                     .rise_team = -1};
    }
    abot_dab_result *r = &b->results[v->nresults - 1];
    for (int i = 0; i < DAB_SEATS; i++) {
        long long x;
        if (!abot__to_ll(w[i + 1], INT64_MIN / 4, INT64_MAX / 4, &x)) {
            abot__diag("cannot read the score \"%.40s\"", w[i + 1]);
            return;
        }
        r->scores[i] = x;
    }
    if (v->seat >= 0)
        v->total += r->scores[v->seat];
}

/* The game's `result points A kitty CARDS dug D case C rise TEAM N levels
 * L0 L1 next SEAT blood B winner TEAM`: opens the deal's record. */
static bool game_result(bot *b, char **w, int n)
{
    abot_dab_view *v = &b->v;
    abot_dab_result r = {.deal = v->deal, .seat = v->seat, .dajia = v->dajia, .rise_team = -1};
    for (int i = 1; i + 1 < n; i++) {
        if (strcmp(w[i], "points") == 0 && !abot__to_int(w[i + 1], 0, 10000, &r.points))
            return false;
        if (strcmp(w[i], "rise") == 0 && i + 2 < n
            && (!abot__to_int(w[i + 1], -1, 1, &r.rise_team) || !abot__to_int(w[i + 2], 0, 100, &r.rise)))
            return false;
        if (strcmp(w[i], "levels") == 0 && i + 2 < n)
            for (int t = 0; t < 2; t++) {
                int l = strcmp(w[i + 1 + t], "W") == 0 ? DAB_LEVEL_PASSED : level_of(w[i + 1 + t]);
                if (l < 0)
                    return false;
                r.levels_after[t] = l;
            }
        if (strcmp(w[i], "kitty") == 0) {
            dab_hand k;
            if (!to_hand(w[i + 1], DAB_DECK, &k))
                return false;
            v->buried = k;
            v->buried_known = true;
        }
    }
    if (v->nresults >= ARB_MAX_DEALS)
        return true;
    if (v->nresults == b->results_cap) {
        void *grown = abot__grow(b->results, &b->results_cap, sizeof *b->results);
        if (!grown)
            return true;
        b->results = grown;
    }
    b->results[v->nresults++] = r;
    v->results = b->results;
    return true;
}

/* `deal seat S first drawer F level L` or `deal seat S dajia D level L
 * levels L0 L1 blood B` (the game's line after the referee's `deal N seat S`). */
static bool game_deal(bot *b, char **w, int n)
{
    abot_dab_view *v = &b->v;
    for (int i = 1; i + 1 < n; i++) {
        if (strcmp(w[i], "drawer") == 0) {
            if (!to_seat(w[i + 1], &v->first_drawer))
                return false;
            v->first = true;
            v->dajia = -1;
        } else if (strcmp(w[i], "dajia") == 0) {
            if (!to_seat(w[i + 1], &v->dajia))
                return false;
            v->first = false;
        } else if (strcmp(w[i], "level") == 0) {
            if ((v->level = level_of(w[i + 1])) < 0)
                return false;
        } else if (strcmp(w[i], "levels") == 0 && i + 2 < n) {
            for (int t = 0; t < 2; t++)
                if ((v->levels[t] = level_of(w[i + 1 + t])) < 0)
                    return false;
        } else if (strcmp(w[i], "blood") == 0) {
            if (!abot__to_int(w[i + 1], 0, DAB_HAND, &v->blood))
                return false;
        }
    }
    if (v->first)
        v->levels[0] = v->levels[1] = v->level;
    return true;
}

static bool on_deal_event(void *view, const abot_match *m, char **w, int n)
{
    (void)m;
    bot *b = view;
    abot_dab_view *v = &b->v;
    const char *e = w[0];
    int s, x, c;
    dab_hand h;
    dab_play p;
    /* the most frequent first: a play, a card drawn, a trick gathered */
    if (strcmp(e, "play") == 0) {
        if (n < 3 || !to_seat(w[1], &s) || !to_play(w[2], &p))
            return false;
        on_play(b, s, &p);
    } else if (strcmp(e, "trick") == 0) {
        /* trick WINNER POINTS points TEAM0 TEAM1 */
        int pts[2];
        if (n < 6 || !to_seat(w[1], &s) || !abot__to_int(w[4], 0, 10000, &pts[0])
            || !abot__to_int(w[5], 0, 10000, &pts[1]))
            return false;
        v->points[0] = pts[0];
        v->points[1] = pts[1];
        v->last_winner = s;
        v->tricks++;
        reset_trick(b);
    } else if (strcmp(e, "draw") == 0) {
        if (n < 2 || !to_card(w[1], &c))
            return false;
        hand_add(&v->hand, c);
    } else if (strcmp(e, "deal") == 0) {
        if (n >= 3 && strcmp(w[1], "seat") == 0)
            return game_deal(b, w, n);
        if (n < 4 || strcmp(w[2], "seat") != 0 || !abot__to_int(w[1], 0, INT32_MAX, &x) || !to_seat(w[3], &s))
            return false;
        reset_deal(b, x, s);
    } else if (strcmp(e, "redeal") == 0) {
        if (n < 2 || !abot__to_int(w[1], 0, INT32_MAX, &x))
            return false;
        reset_draw(b);
        v->redeals = x;
    } else if (strcmp(e, "declare") == 0) {
        /* declare SEAT CARDS[:SUIT] (or CARDS SUIT); a pass is only ours */
        if (n < 3 || !to_seat(w[1], &s))
            return false;
        if (strcmp(w[2], "pass") == 0)
            return true;
        char cards[32];
        snprintf(cards, sizeof cards, "%s", w[2]);
        char *colon = strchr(cards, ':');
        if (colon)
            *colon = 0;
        if (!to_hand(cards, DAB_MAX_PLAY, &h) || h.total == 0)
            return false;
        v->decl_seat = s;
        v->decl_cards = h;
    } else if (strcmp(e, "trump") == 0) {
        /* trump SUIT level L dajia SEAT by HOW */
        int suit = n >= 2 ? dab_suit_parse(w[1]) : -1;
        if (suit < 0)
            return false;
        for (int i = 2; i + 1 < n; i++) {
            if (strcmp(w[i], "level") == 0 && (v->level = level_of(w[i + 1])) < 0)
                return false;
            if (strcmp(w[i], "dajia") == 0 && !to_seat(w[i + 1], &v->dajia))
                return false;
        }
        v->trump_suit = suit;
        dab_trump_init(&b->trump, v->level, suit);
        v->trump = &b->trump;
        if (v->first)
            v->levels[0] = v->levels[1] = v->level;
    } else if (strcmp(e, "tribute") == 0 || strcmp(e, "return") == 0) {
        /* tribute SEAT [CARD]: the giver and, to the two concerned, the card */
        if (n < 2 || !to_seat(w[1], &s))
            return false;
        if (n < 3)
            return true;
        if (!to_card(w[2], &c))
            return false;
        if (s == v->seat)
            hand_remove(&v->hand, c);
        else
            hand_add(&v->hand, c);   /* shown the card and not the giver: the receiver */
    } else if (strcmp(e, "kitty") == 0) {
        if (n < 2 || !to_hand(w[1], DAB_KITTY, &h))
            return false;
        v->kitty = h;
        v->kitty_known = true;
    } else if (strcmp(e, "take") == 0) {
        /* take CARDS (the 打家 itself) or take SEAT */
        if (n < 2)
            return false;
        if (to_seat(w[1], &s)) {
            v->dajia = s;
            return true;
        }
        if (!to_hand(w[1], DAB_KITTY, &h))
            return false;
        v->dajia = v->seat;
        v->kitty = h;
        v->kitty_known = true;
        hand_add_all(&v->hand, &h);
        v->buried_known = true;
        memset(&v->buried, 0, sizeof v->buried);
    } else if (strcmp(e, "dry") == 0) {
        v->dry = true;
    } else if (strcmp(e, "bury") == 0) {
        if (n < 2 || !to_seat(w[1], &s))
            return false;
        if (n >= 3) {
            if (!to_card(w[2], &c))
                return false;
            if (s == v->seat)
                hand_remove(&v->hand, c);
            hand_add(&v->buried, c);
        }
    } else if (strcmp(e, "joker") == 0) {
        if (n < 3 || !to_seat(w[1], &s))
            return false;
        if (strcmp(w[2], "pass") == 0)
            return true;
        if (!to_card(w[2], &c) || !dab_joker(c))
            return false;
        if (s == v->seat)
            hand_remove(&v->hand, c);
    } else if (strcmp(e, "buried") == 0) {
        if (n < 2 || !to_hand(w[1], DAB_KITTY + 3, &h))
            return false;
        v->buried = h;
        v->buried_known = true;
    } else if (strcmp(e, "takeback") == 0) {
        if (n < 3 || !to_seat(w[1], &s) || !to_card(w[2], &c))
            return false;
        if (s == v->seat)
            hand_add(&v->hand, c);
        hand_remove(&v->buried, c);
    } else if (strcmp(e, "penalty") == 0) {
        if (n < 2 || !to_seat(w[1], &s))
            return false;
        v->penalties[s]++;
        if (s == v->seat)
            v->own_penalties++;
    } else if (strcmp(e, "result") == 0) {
        if (n >= 2 && strcmp(w[1], "points") == 0)
            return game_result(b, w, n);
        add_result(b, w, n);
    }
    /* flip, note and events added later need no tracking here */
    return true;
}

/* ---- Requests ---------------------------------------------------------------- */

/* The reply line for the core to write; always true (the reply is ready). */
#define reply(b, ...) abot__reply((b)->reply, (b)->reply_cap, __VA_ARGS__)

/* One legal item as cards (and a suit for three jokers). */
static bool read_item(abot_dab_decision d, const char *item, dab_play *p, int8_t *suit)
{
    *suit = -1;
    memset(p, 0, sizeof *p);
    if (strcmp(item, "pass") == 0)
        return d == ABOT_DAB_DECLARE || d == ABOT_DAB_JOKER;
    char cards[32];
    snprintf(cards, sizeof cards, "%s", item);
    char *colon = strchr(cards, ':');
    if (colon) {
        if (d != ABOT_DAB_DECLARE || (*suit = (int8_t)dab_suit_parse(colon + 1)) < 0)
            return false;
        *colon = 0;
    }
    if (!to_play(cards, p))
        return false;
    return d == ABOT_DAB_DECLARE || d == ABOT_DAB_PLAY || p->n == 1;
}

/* ---- The order of the legal list (docs/bot-authors.md) ------------------- */

/* The key of a card: (side card before trump, power, id) once the trump is
 * known, (rank, id) before — as the Python SDK's order_key. */
static void card_key(const abot_dab_view *v, int c, uint8_t out[3])
{
    if (v->trump) {
        out[0] = dab_is_trump(v->trump, c) ? 1 : 0;
        out[1] = v->trump->power[c];
    } else {
        out[0] = 0;
        out[1] = (uint8_t)(c >= 52 ? 13 + (c - 52) : c / 4);
    }
    out[2] = (uint8_t)c;
}

static void choice_key(const abot_dab_view *v, const dab_play *p, int suit, const char *text, abot__okey *k)
{
    memset(k, 0, offsetof(abot__okey, p));
    k->text = text;
    if (p->n == 0)
        return;
    k->cls = 1;
    k->ncards = p->n;
    k->tier = (uint8_t)(suit + 1);
    uint8_t keys[DAB_MAX_PLAY][3];
    int n = p->n < DAB_MAX_PLAY ? p->n : DAB_MAX_PLAY;
    for (int i = 0; i < n; i++)
        card_key(v, p->c[i], keys[i]);
    /* the cards from the lowest key */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && memcmp(keys[j - 1], keys[j], 3) > 0; j--) {
            uint8_t t[3];
            memcpy(t, keys[j], 3);
            memcpy(keys[j], keys[j - 1], 3);
            memcpy(keys[j - 1], t, 3);
        }
    memcpy(k->p, keys, (size_t)n * 3);
    k->np = (uint8_t)(n * 3);
}

/* Sort choices[0, k) (suits and texts along) into the documented order. */
static void order_choices(bot *b, int k, bool declare)
{
    for (int i = 0; i < k; i++) {
        choice_key(&b->v, &b->choices[i], declare && i < MAX_ITEMS ? b->suits[i] : -1, b->texts[i], &b->keys[i]);
        b->keys[i].idx = i;
    }
    abot__sort_keys(b->keys, k, b->order);
    int8_t suits[MAX_ITEMS];
    for (int i = 0; i < k; i++) {
        int from = b->order[i]->idx;
        b->sorted[i] = b->choices[from];
        if (declare && i < MAX_ITEMS)
            suits[i] = from < MAX_ITEMS ? b->suits[from] : -1;
        b->texts[i] = b->order[i]->text;
    }
    memcpy(b->choices, b->sorted, (size_t)k * sizeof *b->choices);
    if (declare)
        memcpy(b->suits, suits, (size_t)(k < MAX_ITEMS ? k : MAX_ITEMS));
}

typedef struct match_ctx {
    bot *b;
    const abot_dab_request *r;
} match_ctx;

/* The choice words name another way: the same cards in another order or
 * case ("5h5H"), three jokers' suit after a space. -1 none. */
static int match_words(void *ctx, const char *text)
{
    const match_ctx *mc = ctx;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = buf; *p; p++)
        *p = *p == ' ' ? ':' : (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    dab_play p;
    int8_t suit;
    if (!read_item(mc->r->decision, buf, &p, &suit))
        return -1;
    for (int i = 0; i < mc->r->nchoices; i++) {
        const dab_play *c = &mc->r->choices[i];
        int8_t csuit = mc->r->suits ? mc->r->suits[i] : -1;
        if (c->n == p.n && memcmp(c->c, p.c, p.n) == 0 && csuit == suit)
            return i;
    }
    return -1;
}

static int pick(bot *b, const abot_dab_request *r)
{
    int i = b->choose(&b->v, r, b->ctx);
    int pass_at = r->nchoices > 0 && r->choices[0].n == 0 ? 0 : -1;
    match_ctx mc = {b, r};
    const char *own = NULL;
    i = abot__resolve(i, r->nchoices, b->texts, pass_at, b->strict, decision_words[r->decision], match_words, &mc,
                      &own);
    if (i == ABOT_ANSWER)
        abot__reply(b->reply, b->reply_cap, "%s", own);
    return i;
}

static bool ask(bot *b, abot_dab_request *r, char **items, int nitems, bool have_list, const dab_play *led)
{
    abot_dab_view *v = &b->v;
    int k = 0, bad = 0;
    const char *first_bad = NULL;
    if (have_list) {
        int cap = r->decision == ABOT_DAB_PLAY ? DAB_MAX_PLAYS : MAX_ITEMS;
        for (int i = 0; i < nitems && k < cap; i++) {
            int8_t suit;
            if (!read_item(r->decision, items[i], &b->choices[k], &suit)) {
                if (!bad++)
                    first_bad = items[i];
                continue;
            }
            if (k < MAX_ITEMS)
                b->suits[k] = suit;
            b->items[k++] = items[i];
        }
        if (bad)
            abot__diag("%d legal item(s) of ask %s unreadable, the first \"%.80s\"; left out", bad,
                       decision_words[r->decision], first_bad);
    } else if (r->decision == ABOT_DAB_PLAY && v->trump) {
        k = led ? dab_follows(v->trump, &v->hand, led, b->choices, DAB_MAX_PLAYS)
                : dab_leads(v->trump, &v->hand, b->choices, DAB_MAX_PLAYS);
        if (k < 0) {
            abot__diag("no legal play (%s)", arb_strerror(k));
            k = 0;
        }
    } else if (r->decision == ABOT_DAB_PLAY) {
        abot__diag("asked to play before the trump is known");
    }
    if (k == 0) {
        abot__diag("ask %s without a legal choice; passing", decision_words[r->decision]);
        return reply(b, "pass");
    }
    for (int i = 0; i < k; i++) {
        if (have_list) {
            b->texts[i] = b->items[i];
        } else {
            if (dab_format_play(&b->choices[i], b->formatted[i], sizeof b->formatted[i]) < 0)
                snprintf(b->formatted[i], sizeof b->formatted[i], "pass");
            b->texts[i] = b->formatted[i];
        }
    }
    order_choices(b, k, r->decision == ABOT_DAB_DECLARE);
    r->choices = b->choices;
    r->nchoices = k;
    r->suits = r->decision == ABOT_DAB_DECLARE ? b->suits : NULL;
    int i = pick(b, r);
    if (i == ABOT_NO_REPLY)
        return false;
    if (i == ABOT_ANSWER)
        return true;       /* pick wrote it */
    const char *word = decision_words[r->decision];
    if (strcmp(b->texts[i], "pass") == 0 || b->choices[i].n == 0)
        return reply(b, "pass");
    return reply(b, "%s %s", word, b->texts[i]);
}

/* ask DECISION [follow SEAT LED winner SEAT PLAY] time MOVE DEAL BANK [legal ITEM ...] */
static bool on_ask(bot *b, char **w, int n)
{
    abot_dab_request r = {.move_ms = -1, .deal_ms = -1, .bank_ms = -1};
    int d = -1;
    for (int i = 0; i < (int)(sizeof decision_words / sizeof decision_words[0]); i++)
        if (n >= 2 && strcmp(w[1], decision_words[i]) == 0)
            d = i;
    if (d < 0) {
        abot__diag("unknown request \"%.40s\"; passing", n >= 2 ? w[1] : "");
        return reply(b, "pass");
    }
    r.decision = (abot_dab_decision)d;
    bool follow = false, have_list = false;
    dab_play led = {0};
    int legal_at = n;
    for (int i = 2; i < n; i++) {
        if (strcmp(w[i], "follow") == 0 && i + 2 < n) {
            int s;
            if (!to_seat(w[i + 1], &s) || !to_play(w[i + 2], &led)) {
                abot__diag("cannot read the led play in ask %s", w[1]);
                return reply(b, "pass");
            }
            follow = true;
            i += 2;
        } else if (strcmp(w[i], "winner") == 0 && i + 2 < n) {
            i += 2;      /* the tracked trick says the same */
        } else if (strcmp(w[i], "time") == 0 && i + 3 < n) {
            long long t[3];
            abot__read_time(w + i + 1, w[1], t);
            r.move_ms = t[0];
            r.deal_ms = t[1];
            r.bank_ms = t[2];
            i += 3;
        } else if (strcmp(w[i], "legal") == 0) {
            legal_at = i + 1;
            have_list = true;
            break;
        } else {
            abot__diag("unexpected \"%.40s\" in ask %s; ignored", w[i], w[1]);
        }
    }
    if (r.decision == ABOT_DAB_PLAY && !follow && b->v.ntrick)
        reset_trick(b);     /* the request says this seat leads */
    return ask(b, &r, w + legal_at, n - legal_at, have_list, follow ? &led : NULL);
}

/* ---- The match ------------------------------------------------------------ */

static void on_match(void *view, const abot_match *m, char **w, int n)
{
    bot *b = view;
    abot_dab_view *v = &b->v;
    dab_rules_preset(&b->rules, "standard");
    for (int i = 1; i + 1 < n; i += 2) {
        if (strcmp(w[i], "players") == 0 && m->players != DAB_SEATS)
            abot__diag("cannot play Da Bang with \"%.20s\" players", w[i + 1]);
        else if (strcmp(w[i], "rules") == 0 && dab_rules_preset(&b->rules, w[i + 1]) != 0)
            dab_rules_preset(&b->rules, "standard");
    }
    v->deals = m->deals;
    v->seed = m->seed;
}

static int set_option(void *view, const char *key, const char *value, char *err, size_t errlen)
{
    return dab_rules_set(&((bot *)view)->rules, key, value, err, errlen);
}

/* ---- The view's side of the core (abot_core.h) ---------------------------- */

static bool dab_on_request(void *view, const abot_match *m, char **w, int n, char *out, size_t cap)
{
    (void)m;
    bot *b = view;
    b->reply = out;
    b->reply_cap = cap;
    return on_ask(b, w, n);
}

static void dab_observed(void *view, const char *line)
{
    bot *b = view;
    if (b->observe)
        b->observe(&b->v, line, b->ctx);
}

static const abot_game dab_game = {
    .name = "dabang",
    .on_match = on_match,
    .set_option = set_option,
    .on_event = on_deal_event,
    .on_request = dab_on_request,
    .observed = dab_observed,
};

int abot_dab_run_fds(const char *name, int in_fd, int out_fd, abot_dab_choose choose, void *ctx,
                    const abot_dab_options *opt)
{
    int rc = 0;
    bot *b = calloc(1, sizeof *b);
    if (!b)
        return ARB_ENOMEM;
    abot_dab_view *v = &b->v;
    b->choose = choose;
    b->ctx = ctx;
    b->observe = opt ? opt->observe : NULL;
    b->choices = malloc(DAB_MAX_PLAYS * sizeof *b->choices);
    b->items = malloc(DAB_MAX_PLAYS * sizeof *b->items);
    b->order = malloc((DAB_MAX_PLAYS) * sizeof *b->order);
    b->keys = malloc(DAB_MAX_PLAYS * sizeof *b->keys);
    b->sorted = malloc(DAB_MAX_PLAYS * sizeof *b->sorted);
    b->texts = malloc(DAB_MAX_PLAYS * sizeof *b->texts);
    b->formatted = malloc(DAB_MAX_PLAYS * sizeof *b->formatted);
    b->strict = (opt && opt->strict) || abot__env_strict();
    if (!b->choices || !b->items || !b->keys || !b->order || !b->sorted || !b->texts || !b->formatted) {
        rc = ARB_ENOMEM;
        goto out;
    }
    dab_rules_preset(&b->rules, "standard");
    v->rules = &b->rules;
    reset_deal(b, -1, 0);
    const abot_view_fields fields = {&v->clock_move_ms, &v->clock_deal_ms, &v->clock_bank_ms, &v->total, &v->over};
    rc = abot__run(&dab_game, b, &fields, name, in_fd, out_fd, opt && opt->ask_legal, opt && opt->verbose);
out:
    free(b->results);
    free(b->formatted);
    free(b->texts);
    free(b->sorted);
    free(b->keys);
    free(b->order);
    free(b->items);
    free(b->choices);
    free(b);
    return rc;
}

int abot_dab_run(const char *name, abot_dab_choose choose, void *ctx)
{
    abot_dab_options opt = {.verbose = abot__env_verbose()};
    return abot_dab_run_fds(name, 0, 1, choose, ctx, &opt);
}

/* ---- Helpers for strategies ---------------------------------------------- */

dab_hand abot_dab_outstanding(const abot_dab_view *v)
{
    dab_hand out = {0};
    for (int c = 0; c < DAB_NCARDS; c++) {
        int gone = v->hand.n[c] + v->seen.n[c] + (v->buried_known ? v->buried.n[c] : 0);
        if (gone < DAB_COPIES) {
            out.n[c] = (uint8_t)(DAB_COPIES - gone);
            out.total = (uint8_t)(out.total + out.n[c]);
        }
    }
    return out;
}

int abot_dab_trumps(const abot_dab_view *v, const dab_hand *h)
{
    int n = 0;
    if (v->trump)
        for (int c = 0; c < DAB_NCARDS; c++)
            if (dab_is_trump(v->trump, c))
                n += h->n[c];
    return n;
}

int abot_dab_power(const abot_dab_view *v, const dab_play *p)
{
    int best = -1;
    for (int i = 0; i < p->n; i++) {
        int pw = v->trump ? v->trump->power[p->c[i]] : p->c[i];
        if (pw > best)
            best = pw;
    }
    return best;
}

abot_dab_role abot_dab_role_of(const abot_dab_view *v, int seat)
{
    if (v->dajia < 0 || seat < 0 || seat >= DAB_SEATS)
        return ABOT_DAB_ROLE_UNKNOWN;
    return (abot_dab_role)((seat - v->dajia + DAB_SEATS) % DAB_SEATS);
}

int abot_dab_seat_of(const abot_dab_view *v, abot_dab_role role)
{
    if (v->dajia < 0 || role < ABOT_DAB_ROLE_DECLARER || role > ABOT_DAB_ROLE_DECLARER_UP)
        return -1;
    return (v->dajia + (int)role) % DAB_SEATS;
}

const char *abot_dab_role_name(abot_dab_role role)
{
    static const char *const names[] = {"declarer", "declarer_down", "declarer_partner", "declarer_up"};
    return role >= 0 && role <= ABOT_DAB_ROLE_DECLARER_UP ? names[role] : "unknown";
}
