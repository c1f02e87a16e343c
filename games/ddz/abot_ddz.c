/* abot_ddz.c — the Dou Dizhu view of the C bot library (arbiter_bot.h):
 * tracks what the seat has seen from the events, computes the legal moves
 * with the rules engine and words the bot's replies; the protocol core
 * (abot_core.c) reads the lines and writes them. */
#include "arbiter_bot.h"
#include "abot_core.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Plays and passes in one deal: every play sheds at least one card and at
 * most players-1 passes follow it, so a deal of the largest hands fits. */
#define MAX_HISTORY (DDZ_MAX_CARDS * DDZ_MAX_SEATS)

typedef struct bot {
    abot_choose choose;
    void *ctx;
    abot_observe observe;      /* may be NULL */

    char *reply;               /* the current request's reply line, reply_cap bytes (the core's) */
    size_t reply_cap;

    ddz_move *moves;           /* ARB_MAX_MOVES */
    const char **items;        /* ARB_MAX_MOVES: the referee's text of each move, when it sent a list */
    struct okey *keys;         /* 2 * ARB_MAX_MOVES: the legal list's sort keys, then scratch for sorting them */
    ddz_move *sorted;          /* ARB_MAX_MOVES: scratch for reordering moves */
    const char **sorted_items; /* ARB_MAX_MOVES */
    char (*texts)[ARB_MAX_PLAY_TEXT + 8]; /* ARB_MAX_MOVES: the engine's moves as replies */
    bool strict;               /* abot_options.strict: the bot's own answer goes out */

    ddz_rules rules;
    abot_view v;
    ddz_move beat;             /* storage for v.to_beat */
    ddz_cards beat_cards;      /* the cards of that play as they left the hand */
    int passes;                /* passes since the last play */
    bool kitty_known;          /* `kitty` read this deal */
    bool kitty_taken;          /* ... and counted in the landlord's hand */
    abot_play history[MAX_HISTORY];
    abot_result *results;
    int results_cap;
} bot;

/* ---- Small parsers: every number and seat is checked ------------------- */

static bool to_seat(const bot *b, const char *s, int *seat)
{
    return abot__to_int(s, 0, b->v.players - 1, seat);
}

/* A set of cards, "-" for none. */
static bool to_cards(const bot *b, const char *s, ddz_cards *out)
{
    if (strcmp(s, "-") == 0) {
        *out = 0;
        return true;
    }
    return ddz_cards_parse(&b->rules, s, out) == 0;
}

/* a + b, refused when a rank would pass what a nibble holds (only lying
 * input gets there). */
static bool add_cards(ddz_cards a, ddz_cards c, ddz_cards *out)
{
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (ddz_count(a, x) + ddz_count(c, x) > 15)
            return false;
    *out = a + c;
    return true;
}

/* The reading of a play as the referee wrote it ("333444+56 airplane_solo",
 * "3377=333+7 trio_solo"): the cards as written, read as the cards they
 * stand for, with the kind named. *actual gets the cards that left the
 * hand. */
static int read_play(const bot *b, const char *cards_text, const char *kind_text, ddz_move *out, ddz_cards *actual)
{
    ddz_cards cards, represented, primary;
    ddz_kind kind;
    if (ddz_play_parse_w(&b->rules, cards_text, &cards, &represented, &primary) != 0 || cards == 0)
        return ARB_EPARSE;
    if (ddz_kind_parse(kind_text, &kind) != 0)
        return ARB_EPARSE;
    ddz_cards as = represented ? represented : cards;
    *actual = cards;
    if (b->v.wild_ranks) {
        /* The engine keeps wild plays as the actual cards with what they
         * stand for, and ranks bombs on its own scale (soft, hard, all
         * wild): its validation of the play, as a lead from a hand of
         * exactly these cards, gives that form. */
        char why[8];
        ddz_cards named = primary == as ? 0 : primary;
        if (ddz_validate_w(&b->rules, b->v.wild_ranks, cards, NULL, cards, represented, named, out, why, sizeof why)
                == 0
            && out->kind == kind)
            return 0;
    }
    ddz_move readings[64];
    int n = ddz_classify(&b->rules, as, readings, sizeof readings / sizeof readings[0]);
    int pick = -1;
    /* Without a '+' the primary part is the whole play; the kind then
     * decides, and among readings of that kind the strongest counts. */
    for (int i = 0; i < n; i++)
        if (readings[i].kind == kind && (primary == as || ddz_move_primary(&readings[i]) == primary)
            && (pick < 0 || readings[i].rank > readings[pick].rank))
            pick = i;
    if (pick < 0)
        return ARB_EPARSE;
    *out = readings[pick];
    return 0;
}

/* ---- Tracking the view ---------------------------------------------------- */

static void end_round(bot *b)
{
    b->v.to_beat = NULL;
    b->v.to_beat_seat = -1;
    b->passes = 0;
}

/* What an auction starts from (a new deal or a redeal). */
static void reset_auction(bot *b)
{
    abot_view *v = &b->v;
    v->hand = 0;
    v->first = -1;
    v->landlord = -1;
    v->stake = 0;
    v->kitty = 0;
    v->shown_seat = -1;
    v->shown = 0;
    v->nhistory = 0;
    b->kitty_known = b->kitty_taken = false;
    for (int i = 0; i < DDZ_MAX_SEATS; i++) {
        v->bids[i] = -1;
        v->doubled[i] = false;
        v->counts[i] = i < v->players ? b->rules.hand_size : 0;
        v->played[i] = 0;
    }
    end_round(b);
}

static void reset_deal(bot *b, int deal, int seat)
{
    abot_view *v = &b->v;
    v->deal = deal;
    v->seat = seat;
    v->redeals = 0;
    v->wild_ranks = 0;
    for (int i = 0; i < DDZ_MAX_SEATS; i++)
        v->penalties[i] = 0;
    reset_auction(b);
}

/* The kitty goes to the landlord once both are known, in either order. */
static void take_kitty(bot *b)
{
    abot_view *v = &b->v;
    if (!b->kitty_known || v->landlord < 0 || b->kitty_taken)
        return;
    b->kitty_taken = true;
    v->counts[v->landlord] += (int)ddz_total(v->kitty);
    if (v->landlord == v->seat && !add_cards(v->hand, v->kitty, &v->hand))
        abot__diag("the kitty does not fit in the hand");
}

static void record(bot *b, int seat, const ddz_move *m, ddz_cards cards)
{
    abot_view *v = &b->v;
    if (v->nhistory >= MAX_HISTORY)
        return;                /* more plays than a deal can hold: lying input */
    abot_play *p = &b->history[v->nhistory++];
    p->seat = seat;
    p->move = *m;
    p->cards = cards;
}

static void on_play(bot *b, int s, const ddz_move *m, ddz_cards actual)
{
    abot_view *v = &b->v;
    if (s == v->seat) {
        if (ddz_subset(actual, v->hand))
            v->hand -= actual;
        else
            abot__diag("played cards that are not in the tracked hand");
    }
    if (s == v->shown_seat && ddz_subset(actual, v->shown))
        v->shown -= actual;
    if (!add_cards(v->played[s], actual, &v->played[s]))
        abot__diag("more cards played than there are");
    v->counts[s] -= (int)ddz_total(actual);
    if (v->counts[s] < 0)
        v->counts[s] = 0;
    b->beat = *m;
    b->beat_cards = actual;
    v->to_beat = &b->beat;
    v->to_beat_seat = s;
    b->passes = 0;
    record(b, s, m, actual);
}

static void add_result(bot *b, char **w, int n)
{
    abot_view *v = &b->v;
    abot_result r = {.deal = v->deal, .seat = v->seat};
    if (n - 1 != v->players) {
        abot__diag("a result with %d scores for %d players", n - 1, v->players);
        return;
    }
    for (int i = 0; i < v->players; i++) {
        long long x;
        if (!abot__to_ll(w[i + 1], INT64_MIN / 4, INT64_MAX / 4, &x)) {
            abot__diag("cannot read the score \"%.40s\"", w[i + 1]);
            return;
        }
        r.scores[i] = x;
    }
    if (v->nresults >= ARB_MAX_DEALS) {
        abot__diag("more results than a match has deals (%d); not kept", ARB_MAX_DEALS);
        return;
    }
    if (v->nresults == b->results_cap) {
        void *grown = abot__grow(b->results, &b->results_cap, sizeof *b->results);
        if (!grown)
            return;
        b->results = grown;
    }
    b->results[v->nresults++] = r;
    v->results = b->results;
    if (v->seat >= 0)
        v->total += r.scores[v->seat];
}

/* Apply one event line. Returns false when a known event could not be
 * read (the line is then ignored). Unknown events are ignored silently:
 * version 1 may add events. */
static bool on_deal_event(void *view, const abot_match *match, char **w, int n)
{
    (void)match;
    bot *b = view;
    abot_view *v = &b->v;
    const char *e = w[0];
    int s, x;
    long long ll;
    ddz_cards c;
    if (strcmp(e, "deal") == 0) {
        if (n < 4 || strcmp(w[2], "seat") != 0 || !abot__to_int(w[1], 0, INT32_MAX, &x) || !to_seat(b, w[3], &s))
            return false;
        reset_deal(b, x, s);
    } else if (strcmp(e, "hand") == 0) {
        if (n < 2 || !to_cards(b, w[1], &c))
            return false;
        v->hand = c;
        for (int i = 0; i < v->players; i++)
            v->counts[i] = (int)ddz_total(c);
    } else if (strcmp(e, "wild") == 0) {
        if (n < 2)
            return false;
        uint16_t wild = 0;
        for (const char *p = w[1]; *p && strcmp(w[1], "-") != 0; p++) {
            const char *at = strchr(ddz_rank_chars, *p);
            if (!at || !*at)
                return false;
            wild |= (uint16_t)(1u << (at - ddz_rank_chars));
        }
        v->wild_ranks = wild;
    } else if (strcmp(e, "first") == 0) {
        if (n < 2 || !to_seat(b, w[1], &s))
            return false;
        v->first = s;
    } else if (strcmp(e, "redeal") == 0) {
        if (n < 2 || !abot__to_int(w[1], 0, INT32_MAX, &x))
            return false;
        reset_auction(b);
        v->redeals = x;
    } else if (strcmp(e, "bid") == 0 || strcmp(e, "call") == 0 || strcmp(e, "rob") == 0) {
        if (n < 3 || !to_seat(b, w[1], &s) || !abot__to_int(w[2], 0, 99, &x))
            return false;
        v->bids[s] = x;
    } else if (strcmp(e, "double") == 0) {
        if (n < 3 || !to_seat(b, w[1], &s) || !abot__to_int(w[2], 0, 1, &x))
            return false;
        v->doubled[s] = x;
    } else if (strcmp(e, "shown") == 0) {
        if (n < 3 || !to_seat(b, w[1], &s) || !to_cards(b, w[2], &c))
            return false;
        v->shown_seat = s;
        v->shown = c;
    } else if (strcmp(e, "landlord") == 0) {
        if (n < 3 || !to_seat(b, w[1], &s) || !abot__to_ll(w[2], 0, INT64_MAX, &ll))
            return false;
        v->landlord = s;
        v->stake = ll;
        take_kitty(b);
    } else if (strcmp(e, "kitty") == 0) {
        if (n < 2 || !to_cards(b, w[1], &c))
            return false;
        v->kitty = c;
        b->kitty_known = true;
        take_kitty(b);
    } else if (strcmp(e, "play") == 0) {
        ddz_move m;
        if (n < 4 || !to_seat(b, w[1], &s) || read_play(b, w[2], w[3], &m, &c) != 0)
            return false;
        on_play(b, s, &m, c);
    } else if (strcmp(e, "pass") == 0) {
        if (n < 2 || !to_seat(b, w[1], &s))
            return false;
        ddz_move pass = {0};
        record(b, s, &pass, 0);
        /* everybody else passed: the round is over, the last player leads */
        if (++b->passes >= v->players - 1)
            end_round(b);
    } else if (strcmp(e, "counts") == 0) {
        if (n - 1 != v->players)
            return false;
        int counts[DDZ_MAX_SEATS];
        for (int i = 0; i < v->players; i++)
            if (!abot__to_int(w[i + 1], 0, DDZ_MAX_CARDS, &counts[i]))
                return false;
        memcpy(v->counts, counts, sizeof counts[0] * (size_t)v->players);
    } else if (strcmp(e, "penalty") == 0) {
        if (n < 2 || !to_seat(b, w[1], &s))
            return false;
        v->penalties[s]++;
        if (s == v->seat)
            v->own_penalties++;
    } else if (strcmp(e, "result") == 0) {
        add_result(b, w, n);
    }
    /* show, claim, note (the core shows it) and events added later need no
     * tracking here. */
    return true;
}

/* ---- Requests ---------------------------------------------------------------- */

static const char *const decision_words[] = {"bid", "call", "rob", "double", "show", "claim", "play"};

/* ---- The order of the legal list (docs/bot-authors.md) ------------------- */

/* The documented order: pass first; then kind (ddz_kind order); fewer
 * cards; for bombs soft (a wild card stands in), natural, pure wild; the
 * reading's primary part, its kickers, the cards played, each as ranks from
 * the lowest (a prefix first); the text. The Python SDK reads these from the
 * referee's item text; here an engine move's key is built from its fields
 * (no formatting: a lead may have hundreds of moves), and a referee item's
 * from its text, as Python does. */

/* A move's key: head = cls (0 pass, 2 a play), kind, number of cards, bomb
 * tier, packed so that one integer comparison orders them; then the
 * primary part, the kickers and the cards played as card sets (a count per
 * rank: ddz_cards), compared as their ranks from the lowest (seq_cmp). */
typedef struct okey {
    uint32_t head;
    int idx;                   /* the move's index before sorting */
    ddz_cards p, k, c;
    const char *text;          /* a referee item's text; NULL for engine moves */
} okey;

/* The card sets a and b as ranks from the lowest, compared element by
 * element, a prefix first. At the lowest rank x where the counts differ,
 * the set with more of x has x where the other has a higher rank or its
 * end: it is the smaller unless the other ends there. */
static int seq_cmp(ddz_cards a, ddz_cards b)
{
    ddz_cards d = a ^ b;
    if (!d)
        return 0;
    int shift = __builtin_ctzll(d) & ~3;
    unsigned ca = (unsigned)(a >> shift) & 15u, cb = (unsigned)(b >> shift) & 15u;
    int rest = shift + 4;
    if (ca > cb)
        return rest < 64 && (b >> rest) ? -1 : 1;
    return rest < 64 && (a >> rest) ? 1 : -1;
}

static inline int okey_cmp(const okey *a, const okey *b)
{
    int c;
    if (a->head != b->head)
        return a->head < b->head ? -1 : 1;
    if ((c = seq_cmp(a->p, b->p)) || (c = seq_cmp(a->k, b->k)) || (c = seq_cmp(a->c, b->c)))
        return c;
    if (a->text && b->text && (c = strcmp(a->text, b->text)) != 0)
        return c < 0 ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Merge sort of keys[0, n) with tmp[0, n) as scratch (the comparison
 * inlined: a lead's list is a few hundred moves, sorted at every lead). */
static void sort_okeys(okey *keys, okey *tmp, int n)
{
    for (int i = 1; i < n; i++) {   /* runs of 8 by insertion */
        if (i % 8 == 0)
            continue;
        okey t = keys[i];
        int j = i;
        for (; j % 8 && okey_cmp(&keys[j - 1], &t) > 0; j--)
            keys[j] = keys[j - 1];
        keys[j] = t;
    }
    okey *from = keys, *to = tmp;
    for (int w = 8; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                to[o++] = okey_cmp(&from[j], &from[i]) < 0 ? from[j++] : from[i++];
            while (i < mid)
                to[o++] = from[i++];
            while (j < hi)
                to[o++] = from[j++];
        }
        okey *t = from;
        from = to;
        to = t;
    }
    if (from != keys)
        memcpy(keys, from, (size_t)n * sizeof *keys);
}

/* The cards named in the text [from, to), at most 15 of a rank. */
static ddz_cards cards_of(const char *from, const char *to)
{
    ddz_cards c = 0;
    for (const char *p = from; p < to; p++) {
        const char *at = *p ? strchr(ddz_rank_chars, *p) : NULL;
        if (at && ddz_count(c, (int)(at - ddz_rank_chars)) < 15)
            c += DDZ_ONE(at - ddz_rank_chars);
    }
    return c;
}

static uint32_t key_head(const ddz_move *m, bool soft, uint16_t wild)
{
    unsigned ncards = m->ncards ? m->ncards : ddz_total(m->cards), tier = 0;
    if (m->kind == DDZ_BOMB) {
        bool pure = wild != 0;
        for (int x = 0; x < DDZ_NRANKS && pure; x++)
            if (ddz_count(m->cards, x) && !(wild & (1u << x)))
                pure = false;
        tier = soft ? 0 : pure ? 2 : 1;
    }
    return 2u << 28 | (uint32_t)m->kind << 20 | (ncards & 0xfffu) << 8 | tier;
}

/* An engine move's key, as that of its reply text (ddz_move_format_w):
 * CARDS=READING with a wild card standing in, else READING; a reading is
 * PRIMARY+KICKERS or, without kickers, its cards. */
static void move_key(const ddz_move *m, uint16_t wild, okey *k)
{
    *k = (okey){0};
    if (m->kind == DDZ_PASS)
        return;
    k->head = key_head(m, m->subst != 0, wild);
    ddz_move rep = *m;
    rep.cards = m->subst ? ddz_move_represented(m, wild) : m->cards;
    ddz_cards primary = ddz_move_primary(&rep);
    if (primary == 0)
        primary = rep.cards;
    k->p = primary;
    k->k = rep.cards - primary;
    k->c = m->cards;
}

/* A referee item's key, read from its text as the Python SDK does. */
static void item_key(const ddz_move *m, const char *text, uint16_t wild, okey *k)
{
    *k = (okey){0};
    k->text = text;
    if (m->kind == DDZ_PASS)
        return;
    const char *eq = strchr(text, '=');
    k->head = key_head(m, eq != NULL, wild);
    const char *reading = eq ? eq + 1 : text, *end = text + strlen(text);
    const char *plus = strchr(reading, '+');
    k->p = cards_of(reading, plus ? plus : end);
    k->k = cards_of(plus ? plus + 1 : end, end);
    k->c = cards_of(text, eq ? eq : end);
}

/* Sort moves[0, n) (and items, when the referee listed them) into the
 * documented order. Two engine moves of one key have one text (the key
 * holds the cards, the primary part and the kickers), so only items compare
 * their texts. */
static void order_moves(bot *b, int n, bool have_list)
{
    for (int i = 0; i < n; i++) {
        if (have_list)
            item_key(&b->moves[i], b->items[i], b->v.wild_ranks, &b->keys[i]);
        else
            move_key(&b->moves[i], b->v.wild_ranks, &b->keys[i]);
        b->keys[i].idx = i;
    }
    sort_okeys(b->keys, b->keys + ARB_MAX_MOVES, n);
    for (int i = 0; i < n; i++) {
        b->sorted[i] = b->moves[b->keys[i].idx];
        b->sorted_items[i] = have_list ? b->items[b->keys[i].idx] : NULL;
    }
    memcpy(b->moves, b->sorted, (size_t)n * sizeof *b->moves);
    if (have_list)
        memcpy(b->items, b->sorted_items, (size_t)n * sizeof *b->items);
}

/* The reply line for the core to write; always true (the reply is ready). */
#define reply(b, ...) abot__reply((b)->reply, (b)->reply_cap, __VA_ARGS__)

/* The index the bot chose, or what stands for it (abot_core.h
 * abot__resolve): ABOT_NO_REPLY, ABOT_ANSWER with the text to send in
 * *own (strict mode), or a legal index. `texts` are the choices as replies. */
typedef struct match_ctx {
    bot *b;
    const abot_request *r;
} match_ctx;

/* The legal choice that words name another way: the same cards in another
 * order ("4333" for "333+4"), a value as a number. -1 none. */
static int match_words(void *ctx, const char *text)
{
    const match_ctx *mc = ctx;
    const abot_request *r = mc->r;
    if (r->decision != ABOT_PLAY) {
        int x;
        for (int i = 0; i < r->nvalues; i++)
            if (abot__to_int(text, 0, 99, &x) && x == r->values[i])
                return i;
        return -1;
    }
    ddz_cards cards, represented, primary;
    if (ddz_play_parse_w(&mc->b->rules, text, &cards, &represented, &primary) != 0 || cards == 0)
        return -1;
    for (int i = 0; i < r->nmoves; i++)
        if (r->moves[i].cards == cards
            && (!represented || ddz_move_represented(&r->moves[i], mc->b->v.wild_ranks) == represented))
            return i;
    return -1;
}

/* `fill(b, n)`, when not NULL, writes the choices' texts: only a choice
 * that is not one of the list (the bot's own words, an index out of range)
 * needs them all. */
static int pick(bot *b, const abot_request *r, int n, const char *const *texts, int pass_at, const char **own,
                void (*fill)(bot *, int))
{
    int i = b->choose(&b->v, r, b->ctx);
    if (fill && i != ABOT_NO_REPLY && (i < 0 || i >= n))
        fill(b, n);
    match_ctx mc = {b, r};
    return abot__resolve(i, n, texts, pass_at, b->strict, decision_words[r->decision], match_words, &mc, own);
}

/* The reply text of the engine's move i (in the sorted list). */
static const char *move_text(bot *b, int i)
{
    char *t = b->texts[i];
    if (b->moves[i].kind == DDZ_PASS)
        snprintf(t, sizeof b->texts[i], "pass");
    else
        ddz_move_format_w(&b->moves[i], b->v.wild_ranks, t, sizeof b->texts[i]);
    b->sorted_items[i] = t;
    return t;
}

static void fill_move_texts(bot *b, int n)
{
    for (int i = 0; i < n; i++)
        move_text(b, i);
}

/* The referee's list of legal plays, read into moves (with the text of
 * each kept for the reply). The pass item becomes a pass move. */
static int read_items(bot *b, char **items, int nitems)
{
    int k = 0, bad = 0;
    const char *first_bad = NULL;
    for (int i = 0; i < nitems && k < ARB_MAX_MOVES; i++) {
        ddz_move m = {0};
        if (strcmp(items[i], "pass") != 0) {
            ddz_cards cards, represented, primary;
            char why[128];
            /* judged from a hand of exactly its cards: the reading that
             * counts, whatever the tracked hand says */
            if (ddz_play_parse_w(&b->rules, items[i], &cards, &represented, &primary) != 0
                || ddz_validate_w(&b->rules, b->v.wild_ranks, cards, b->v.to_beat, cards, represented,
                                  primary == (represented ? represented : cards) ? 0 : primary, &m, why,
                                  sizeof why) != 0) {
                if (!bad++)
                    first_bad = items[i];
                continue;
            }
        }
        b->items[k] = items[i];
        b->moves[k++] = m;
    }
    /* one line for all of them: a broken list must not flood stderr */
    if (bad)
        abot__diag("%d legal item(s) unreadable here, the first \"%.80s\"; left out", bad, first_bad);
    return k;
}

static bool ask_play(bot *b, abot_request *r, char **items, int nitems, bool have_list)
{
    abot_view *v = &b->v;
    int k;
    if (have_list) {
        k = read_items(b, items, nitems);
    } else {
        k = v->to_beat ? ddz_follows_w(&b->rules, v->wild_ranks, v->hand, v->to_beat, b->moves, ARB_MAX_MOVES)
                       : ddz_leads_w(&b->rules, v->wild_ranks, v->hand, b->moves, ARB_MAX_MOVES);
    }
    if (k <= 0) {
        abot__diag("no legal play (%s); passing", k < 0 ? arb_strerror(k) : "empty list");
        return reply(b, "pass");
    }
    order_moves(b, k, have_list);
    /* every move's reply text: the referee's item, or the engine's reading
     * (written only when needed: move_text) */
    const char **reply_texts = have_list ? b->items : b->sorted_items;
    int pass_at = -1;
    for (int i = 0; i < k; i++)
        if (b->moves[i].kind == DDZ_PASS)
            pass_at = i;
    r->moves = b->moves;
    r->nmoves = k;
    const char *own = NULL;
    int i = pick(b, r, k, reply_texts, pass_at, &own, have_list ? NULL : fill_move_texts);
    if (i == ABOT_NO_REPLY)
        return false;
    if (i == ABOT_ANSWER)
        return reply(b, "%s", own);
    if (b->moves[i].kind == DDZ_PASS)
        return reply(b, "pass");
    return reply(b, "play %s", have_list ? b->items[i] : move_text(b, i));
}

static bool ask_value(bot *b, abot_request *r, char **items, int nitems)
{
    const char *word = decision_words[r->decision];
    int8_t values[32];
    int nv = 0, bad = 0;
    const char *first_bad = NULL;
    for (int i = 0; i < nitems && nv < (int)sizeof values; i++) {
        int x;
        if (strcmp(items[i], "pass") == 0 || strcmp(items[i], "no") == 0)
            values[nv++] = 0;
        else if (r->decision == ABOT_BID && abot__to_int(items[i], 1, 99, &x))
            values[nv++] = (int8_t)x;
        else if (r->decision != ABOT_BID && strcmp(items[i], word) == 0)
            values[nv++] = 1;
        else if (!bad++)
            first_bad = items[i];
    }
    if (bad)
        abot__diag("%d legal item(s) of ask %s unreadable, the first \"%.80s\"; left out", bad, word, first_bad);
    if (nv == 0) {
        abot__diag("ask %s without legal items; passing", word);
        values[nv++] = 0;
    }
    /* the documented order: pass first, then ascending */
    for (int i = 1; i < nv; i++)
        for (int j = i; j > 0 && values[j - 1] > values[j]; j--) {
            int8_t t = values[j];
            values[j] = values[j - 1];
            values[j - 1] = t;
        }
    char vtext[32][8];
    const char *texts[32];
    for (int i = 0; i < nv; i++) {
        if (values[i] == 0)
            snprintf(vtext[i], sizeof vtext[i], "pass");
        else if (r->decision == ABOT_BID)
            snprintf(vtext[i], sizeof vtext[i], "%d", values[i]);
        else
            snprintf(vtext[i], sizeof vtext[i], "%s", word);
        texts[i] = vtext[i];
    }
    r->values = values;
    r->nvalues = nv;
    const char *own = NULL;
    int i = pick(b, r, nv, texts, values[0] == 0 ? 0 : -1, &own, NULL);
    if (i == ABOT_NO_REPLY)
        return false;
    if (i == ABOT_ANSWER)
        return reply(b, "%s", own);
    if (values[i] == 0)
        return reply(b, "pass");
    if (r->decision == ABOT_BID)
        return reply(b, "bid %d", values[i]);
    return reply(b, "%s", word);
}

/* ask DECISION [beat SEAT CARDS KIND] time MOVE DEAL BANK [legal ITEM ...] */
static bool on_ask(bot *b, char **w, int n)
{
    abot_request r = {.move_ms = -1, .deal_ms = -1, .bank_ms = -1};
    int d = -1;
    for (int i = 0; i < (int)(sizeof decision_words / sizeof decision_words[0]); i++)
        if (n >= 2 && strcmp(w[1], decision_words[i]) == 0)
            d = i;
    if (d < 0) {
        /* one request, one reply: a pass keeps the conversation in step */
        abot__diag("unknown request \"%.40s\"; passing", n >= 2 ? w[1] : "");
        return reply(b, "pass");
    }
    r.decision = (abot_decision)d;
    bool beat = false, beat_ok = true, have_list = false;
    int legal_at = n;
    for (int i = 2; i < n; i++) {
        if (strcmp(w[i], "beat") == 0 && i + 3 < n) {
            ddz_move m;
            ddz_cards actual;
            ddz_kind kind;
            int s;
            beat = true;
            beat_ok = to_seat(b, w[i + 1], &s) && ddz_kind_parse(w[i + 3], &kind) == 0;
            /* The play event just before carries the full reading (what
             * wild cards stand for); the request may abbreviate it. Keep
             * the tracked play when the request names the same one. */
            bool same = false;
            if (beat_ok && b->v.to_beat && b->v.to_beat_seat == s && b->v.to_beat->kind == kind) {
                ddz_cards cards, represented, primary;
                same = ddz_play_parse_w(&b->rules, w[i + 2], &cards, &represented, &primary) == 0
                       && cards == b->beat_cards;
            }
            if (beat_ok && !same) {
                beat_ok = read_play(b, w[i + 2], w[i + 3], &m, &actual) == 0;
                if (beat_ok) {
                    b->beat = m;
                    b->beat_cards = actual;
                    b->v.to_beat = &b->beat;
                    b->v.to_beat_seat = s;
                }
            }
            i += 3;
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
    if (r.decision != ABOT_PLAY) {
        return ask_value(b, &r, w + legal_at, n - legal_at);
    }
    /* The request says whether this seat leads: it overrides the tracking. */
    if (!beat)
        end_round(b);
    if (!beat_ok) {
        if (!have_list) {
            abot__diag("cannot read the play to beat; passing");
            return reply(b, "pass");
        }
        /* the referee's list still holds; read its items as leads */
        abot__diag("cannot read the play to beat; using the legal list");
        end_round(b);
    }
    return ask_play(b, &r, w + legal_at, n - legal_at, have_list);
}

/* ---- The match ------------------------------------------------------------ */

/* match players N deals N rules PRESET seed N: the core has read players,
 * deals and seed; the rules start from the preset (the option lines that
 * follow are the whole rules). */
static void on_match(void *view, const abot_match *m, char **w, int n)
{
    bot *b = view;
    abot_view *v = &b->v;
    if (ddz_rules_preset(&b->rules, "standard") != 0)
        abot__diag("no standard preset");
    for (int i = 1; i + 1 < n; i += 2) {
        if (strcmp(w[i], "players") == 0) {
            if (m->players >= 3 && m->players <= DDZ_MAX_SEATS)
                v->players = m->players;
            else
                abot__diag("cannot play with \"%.20s\" players", w[i + 1]);
        } else if (strcmp(w[i], "rules") == 0) {
            if (ddz_rules_preset(&b->rules, w[i + 1]) != 0)
                ddz_rules_preset(&b->rules, "standard");
        }
    }
    v->deals = m->deals;
    v->seed = m->seed;
    for (int i = 0; i < DDZ_MAX_SEATS; i++)
        v->counts[i] = i < v->players ? b->rules.hand_size : 0;
}

static int set_option(void *view, const char *key, const char *value, char *err, size_t errlen)
{
    return ddz_rules_set(&((bot *)view)->rules, key, value, err, errlen);
}

/* ---- The view's side of the core (abot_core.h) ---------------------------- */

static bool ddz_on_request(void *view, const abot_match *m, char **w, int n, char *out, size_t cap)
{
    bot *b = view;
    b->reply = out;
    b->reply_cap = cap;
    return on_ask(b, w, n);
}

static void ddz_observed(void *view, const char *line)
{
    bot *b = view;
    if (b->observe)
        b->observe(&b->v, line, b->ctx);
}

static const abot_game ddz_game = {
    .name = "doudizhu",
    .on_match = on_match,
    .set_option = set_option,
    .on_event = on_deal_event,
    .on_request = ddz_on_request,
    .observed = ddz_observed,
};

int abot_run_fds(const char *name, int in_fd, int out_fd, abot_choose choose, void *ctx, const abot_options *opt)
{
    int rc = 0;
    bot *b = calloc(1, sizeof *b);
    if (!b)
        return ARB_ENOMEM;
    abot_view *v = &b->v;
    b->choose = choose;
    b->ctx = ctx;
    b->observe = opt ? opt->observe : NULL;
    b->moves = malloc(ARB_MAX_MOVES * sizeof *b->moves);
    b->items = malloc(ARB_MAX_MOVES * sizeof *b->items);
    b->keys = malloc(2 * ARB_MAX_MOVES * sizeof *b->keys);
    b->sorted = malloc(ARB_MAX_MOVES * sizeof *b->sorted);
    b->sorted_items = malloc(ARB_MAX_MOVES * sizeof *b->sorted_items);
    b->texts = malloc(ARB_MAX_MOVES * sizeof *b->texts);
    b->strict = (opt && opt->strict) || abot__env_strict();
    if (!b->moves || !b->items || !b->keys || !b->sorted || !b->sorted_items || !b->texts) {
        rc = ARB_ENOMEM;
        goto out;
    }
    ddz_rules_preset(&b->rules, "standard");
    v->rules = &b->rules;
    v->players = 3;
    v->deal = -1;
    v->seat = 0;
    v->history = b->history;
    reset_deal(b, -1, 0);
    const abot_view_fields fields = {&v->clock_move_ms, &v->clock_deal_ms, &v->clock_bank_ms, &v->total, &v->over};
    rc = abot__run(&ddz_game, b, &fields, name, in_fd, out_fd, opt && opt->ask_legal, opt && opt->verbose);
out:
    free(b->results);
    free(b->texts);
    free(b->sorted_items);
    free(b->sorted);
    free(b->keys);
    free(b->items);
    free(b->moves);
    free(b);
    return rc;
}

int abot_run(const char *name, abot_choose choose, void *ctx)
{
    abot_options opt = {.verbose = abot__env_verbose()};
    return abot_run_fds(name, 0, 1, choose, ctx, &opt);
}

/* ---- Helpers for strategies ---------------------------------------------- */

bool abot_is_bomb(const ddz_move *m) { return m->kind == DDZ_BOMB || m->kind == DDZ_ROCKET; }

int abot_strength(ddz_cards h)
{
    int s = 2 * (int)ddz_count(h, DDZ_RR) + 2 * (int)ddz_count(h, DDZ_RB) + (int)ddz_count(h, DDZ_R2);
    for (int x = 0; x <= DDZ_R2; x++)
        if (ddz_count(h, x) >= 4)
            s += 3;
    return s;
}

bool abot_partner(const abot_view *v, int seat)
{
    return seat == v->seat || (v->landlord >= 0 && seat != v->landlord && v->seat != v->landlord);
}

ddz_cards abot_outstanding(const abot_view *v)
{
    unsigned packs = v->rules ? v->rules->packs : 1;
    ddz_cards out = 0;
    for (int x = 0; x < DDZ_NRANKS; x++) {
        unsigned have = x < DDZ_RB ? 4 * packs : packs, gone = ddz_count(v->hand, x);
        /* own plays already left the hand */
        for (int s = 0; s < DDZ_MAX_SEATS; s++)
            if (s != v->seat)
                gone += ddz_count(v->played[s], x);
        if (have > gone)       /* lying input could make it negative */
            out += (ddz_cards)(have - gone) << (4 * x);
    }
    return out;
}

abot_role abot_role_of(const abot_view *v, int seat)
{
    if (v->landlord < 0 || v->players < 3 || seat < 0 || seat >= v->players)
        return ABOT_ROLE_UNKNOWN;
    int d = (seat - v->landlord + v->players) % v->players;
    return d == v->players - 1 && d ? ABOT_ROLE_LANDLORD_UP : (abot_role)d;
}

int abot_seat_of(const abot_view *v, abot_role role)
{
    for (int s = 0; s < v->players && role != ABOT_ROLE_UNKNOWN; s++)
        if (abot_role_of(v, s) == role)
            return s;
    return -1;
}

const char *abot_role_name(abot_role role)
{
    static const char *const names[] = {"landlord", "landlord_down", "landlord_across", "landlord_up"};
    return role >= 0 && role <= ABOT_ROLE_LANDLORD_UP ? names[role] : "unknown";
}

int abot_move_text(const abot_view *v, const ddz_move *m, char *buf, size_t len)
{
    if (m->kind == DDZ_PASS)
        return snprintf(buf, len, "pass");
    return ddz_move_format_w(m, v->wild_ranks, buf, len);
}

int abot_move_reading(const abot_view *v, const ddz_move *m, char *buf, size_t len)
{
    char text[ARB_MAX_PLAY_TEXT + 8];
    abot_move_text(v, m, text, sizeof text);
    const char *eq = strchr(text, '=');
    return snprintf(buf, len, "%s", eq ? eq + 1 : text);
}
