/* dab_cards.c — Da Bang's cards, trumps, plays and tricks (DB-1..DB-29):
 * notation, the power of every card under a level and a trump suit, the
 * legal leads and follows, and who wins a trick. Pure and allocation-free. */
#include "dabang.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "arb_error.h"

static const char rank_chars[] = "3456789TJQKA2";
static const char suit_chars[] = "SHCD";

/* ---- Notation (DB-1) ------------------------------------------------------ */

int dab_parse_card(const char **s)
{
    const char *p = *s;
    int a = toupper((unsigned char)p[0]);
    if (!a)
        return -1;
    int b = toupper((unsigned char)p[1]);
    if ((a == 'B' || a == 'R') && b == 'J') {
        *s = p + 2;
        return a == 'B' ? DAB_BJ : DAB_RJ;
    }
    const char *r = strchr(rank_chars, a);
    const char *u = b ? strchr(suit_chars, b) : NULL;
    if (!r || !u)
        return -1;
    *s = p + 2;
    return (int)(r - rank_chars) * 4 + (int)(u - suit_chars);
}

int dab_parse_cards(const char *text, int max, dab_hand *h, char *err, size_t errlen)
{
    const char *p = text;
    int total = h->total;
    while (*p) {
        const char *at = p;
        int c = dab_parse_card(&p);
        if (c < 0) {
            snprintf(err, errlen, "column %d: \"%.2s\" is not a card (rank 3456789TJQKA2 then suit SHCD, or BJ, RJ)",
                     (int)(at - text) + 1, at);
            return ARB_EPARSE;
        }
        if (h->n[c] >= DAB_COPIES) {
            snprintf(err, errlen, "column %d: more than %d of %.2s (three packs)", (int)(at - text) + 1, DAB_COPIES,
                     at);
            return ARB_EPARSE;
        }
        if (++total > max) {
            snprintf(err, errlen, "column %d: more than %d cards", (int)(at - text) + 1, max);
            return ARB_EPARSE;
        }
        h->n[c]++;
    }
    h->total = (uint8_t)total;
    return 0;
}

int dab_format_card(int c, char *buf, size_t len)
{
    if (len < 3 || c < 0 || c >= DAB_NCARDS)
        return -1;
    if (c >= DAB_BJ) {
        buf[0] = c == DAB_BJ ? 'B' : 'R';
        buf[1] = 'J';
    } else {
        buf[0] = rank_chars[dab_rank(c)];
        buf[1] = suit_chars[dab_suit(c)];
    }
    buf[2] = 0;
    return 2;
}

int dab_format_hand(const dab_hand *h, char *buf, size_t len)
{
    size_t at = 0;
    if (len == 0)
        return -1;
    buf[0] = 0;
    for (int c = 0; c < DAB_NCARDS; c++)
        for (int k = 0; k < h->n[c]; k++) {
            if (dab_format_card(c, buf + at, len - at) < 0)
                return -1;
            at += 2;
        }
    return (int)at;
}

int dab_format_play(const dab_play *p, char *buf, size_t len)
{
    dab_hand h;
    dab_play_to_hand(p, &h);
    return dab_format_hand(&h, buf, len);
}

void dab_play_to_hand(const dab_play *p, dab_hand *h)
{
    memset(h, 0, sizeof *h);
    for (int i = 0; i < p->n && i < DAB_MAX_PLAY; i++)
        h->n[p->c[i]]++;
    h->total = p->n;
}

int dab_play_from_hand(const dab_hand *h, dab_play *p)
{
    memset(p, 0, sizeof *p);
    for (int c = 0; c < DAB_NCARDS; c++)
        for (int k = 0; k < h->n[c]; k++) {
            if (p->n >= DAB_MAX_PLAY)
                return ARB_EINVAL;
            p->c[p->n++] = (uint8_t)c;
        }
    return p->n ? 0 : ARB_EINVAL;
}

int dab_hand_points(const dab_hand *h)
{
    int pts = 0;
    for (int r = 0; r < 4; r++) {
        pts += 5 * h->n[DAB_R5 * 4 + r];
        pts += 10 * (h->n[DAB_RT * 4 + r] + h->n[DAB_RK * 4 + r]);
    }
    return pts;
}

int dab_play_points(const dab_play *p)
{
    int pts = 0;
    for (int i = 0; i < p->n; i++)
        pts += dab_card_points(p->c[i]);
    return pts;
}

dab_shape dab_play_shape(const dab_play *p)
{
    if (p->n == 1)
        return DAB_SINGLE;
    for (int i = 1; i < p->n; i++)
        if (p->c[i] != p->c[0])
            return DAB_MIXED;
    return p->n == 2 ? DAB_PAIR : p->n == 3 ? DAB_TRIPLE : DAB_MIXED;
}

void dab_pack(const dab_hand *h, uint64_t out[2])
{
    out[0] = out[1] = 0;
    for (int c = 0; c < DAB_NCARDS; c++)
        out[c / 32] |= (uint64_t)h->n[c] << (2 * (c % 32));
}

int dab_unpack(const uint64_t in[2], dab_hand *h)
{
    memset(h, 0, sizeof *h);
    if (in[1] >> (2 * (DAB_NCARDS - 32)))
        return ARB_EINVAL;
    int total = 0;
    for (int c = 0; c < DAB_NCARDS; c++) {
        h->n[c] = (uint8_t)((in[c / 32] >> (2 * (c % 32))) & 3u);
        total += h->n[c];
    }
    h->total = (uint8_t)total;
    return 0;
}

/* ---- Trumps (DB-10..DB-12) ------------------------------------------------- */

int dab_level_parse(const char *s)
{
    if (!s || !s[0] || s[1])
        return -1;
    const char *r = strchr(rank_chars, toupper((unsigned char)s[0]));
    return r && r - rank_chars <= DAB_LEVEL_MAX ? (int)(r - rank_chars) : -1;
}

int dab_suit_parse(const char *s)
{
    if (!s || !s[0] || s[1])
        return -1;
    const char *u = strchr(suit_chars, toupper((unsigned char)s[0]));
    return u ? (int)(u - suit_chars) : -1;
}

/* DB-11 as numbers: side cards 0..11 by rank; the trump suit's plain cards
 * 20 + rank; the 2s 40 (other suits) and 41 (trump suit); level cards 42
 * and 43; BJ 44, RJ 45. Equal numbers are equal cards. */
void dab_trump_init(dab_trump *t, int level, int suit)
{
    memset(t, 0, sizeof *t);
    t->level = (uint8_t)level;
    t->suit = (uint8_t)suit;
    for (int c = 0; c < DAB_NCARDS; c++) {
        int r = dab_rank(c), u = dab_suit(c);
        uint8_t pw, fs = DAB_TRUMP;
        if (c == DAB_RJ)
            pw = 45;
        else if (c == DAB_BJ)
            pw = 44;
        else if (r == level)
            pw = u == suit ? 43 : 42;
        else if (r == DAB_R2)
            pw = u == suit ? 41 : 40;
        else if (u == suit)
            pw = (uint8_t)(20 + r);
        else {
            pw = (uint8_t)r;
            fs = (uint8_t)u;
        }
        t->power[c] = pw;
        t->fsuit[c] = fs;
    }
    /* Each suit's members by ascending power (ties by card id): a
     * counting sort over the 46 powers. */
    uint8_t start[47] = {0};
    uint8_t order[DAB_NCARDS];
    for (int c = 0; c < DAB_NCARDS; c++)
        start[t->power[c] + 1]++;
    for (int pw = 0; pw < 46; pw++)
        start[pw + 1] = (uint8_t)(start[pw + 1] + start[pw]);
    for (int c = 0; c < DAB_NCARDS; c++)
        order[start[t->power[c]]++] = (uint8_t)c;
    for (int i = 0; i < DAB_NCARDS; i++) {
        int f = t->fsuit[order[i]];
        t->member[f][t->nmember[f]++] = order[i];
    }
}

/* ---- Leads and follows (DB-20..DB-24) ------------------------------------ */

/* The led suit's cards in a hand: how many, and whether some card of it
 * is held exactly twice (a pair, DB-23) or three times (DB-24). */
typedef struct suit_view {
    int held;
    bool pair, triple;
} suit_view;

static suit_view view(const dab_trump *t, const dab_hand *h, int f)
{
    suit_view v = {0, false, false};
    for (int i = 0; i < t->nmember[f]; i++) {
        int n = h->n[t->member[f][i]];
        v.held += n;
        v.pair |= n == 2;
        v.triple |= n == 3;
    }
    return v;
}

typedef struct sink {
    dab_play *out;
    int cap, n;
} sink;

static void put(sink *k, int n, int a, int b, int c)
{
    if (k->n < k->cap) {
        dab_play *p = &k->out[k->n];
        p->n = (uint8_t)n;
        p->c[0] = (uint8_t)a;
        p->c[1] = (uint8_t)b;
        p->c[2] = (uint8_t)c;
        /* ascending ids */
        if (n >= 2 && p->c[1] < p->c[0]) {
            uint8_t x = p->c[0]; p->c[0] = p->c[1]; p->c[1] = x;
        }
        if (n == 3) {
            if (p->c[2] < p->c[1]) {
                uint8_t x = p->c[1]; p->c[1] = p->c[2]; p->c[2] = x;
            }
            if (p->c[1] < p->c[0]) {
                uint8_t x = p->c[0]; p->c[0] = p->c[1]; p->c[1] = x;
            }
        }
        if (n < 3)
            p->c[2] = 0;
        if (n < 2)
            p->c[1] = 0;
    }
    k->n++;
}

int dab_leads(const dab_trump *t, const dab_hand *h, dab_play *out, int cap)
{
    (void)t;
    sink k = {out, cap, 0};
    for (int c = 0; c < DAB_NCARDS; c++) {
        if (h->n[c] >= 1)
            put(&k, 1, c, 0, 0);
        if (h->n[c] >= 2)
            put(&k, 2, c, c, 0);
        if (h->n[c] >= 3)
            put(&k, 3, c, c, c);
    }
    return k.n > cap ? ARB_ENOSPC : k.n;
}

/* The distinct cards of a hand within a set of ids, as (id, count) lists. */
typedef struct cardlist {
    int n;
    uint8_t id[DAB_NCARDS];
    uint8_t cnt[DAB_NCARDS];
} cardlist;

/* Every multiset of `need` cards from list l (counts bounded), each
 * combined with the fixed cards pre[0..npre). */
static void multisets(sink *k, const cardlist *l, int need, const int *pre, int npre)
{
    int c[3] = {0, 0, 0};
    for (int i = 0; i < npre; i++)
        c[i] = pre[i];
    int total = npre + need;
    if (need == 0) {
        put(k, total, c[0], c[1], c[2]);
        return;
    }
    for (int i = 0; i < l->n; i++) {
        c[npre] = l->id[i];
        if (need == 1) {
            put(k, total, c[0], c[1], c[2]);
            continue;
        }
        for (int j = i; j < l->n; j++) {
            if (j == i && l->cnt[i] < 2)
                continue;
            c[npre + 1] = l->id[j];
            if (need == 2) {
                put(k, total, c[0], c[1], c[2]);
                continue;
            }
            for (int m = j; m < l->n; m++) {
                int used = (m == i) + (m == j);
                if (l->cnt[m] < used + 1)
                    continue;
                c[npre + 2] = l->id[m];
                put(k, total, c[0], c[1], c[2]);
            }
        }
    }
}

/* The hand's cards in suit f (in_suit) or outside it, less `minus`. */
static void list_cards(const dab_trump *t, const dab_hand *h, int f, bool in_suit, const dab_hand *minus,
                       cardlist *l)
{
    l->n = 0;
    for (int c = 0; c < DAB_NCARDS; c++) {
        if ((t->fsuit[c] == f) != in_suit)
            continue;
        int n = h->n[c] - (minus ? minus->n[c] : 0);
        if (n > 0) {
            l->id[l->n] = (uint8_t)c;
            l->cnt[l->n++] = (uint8_t)n;
        }
    }
}

/* Every multiset of `need` cards out of the whole hand less `minus`. */
static void any_cards(sink *k, const dab_hand *h, const dab_hand *minus, int need, const int *pre, int npre)
{
    cardlist l = {0};
    for (int c = 0; c < DAB_NCARDS; c++) {
        int n = h->n[c] - (minus ? minus->n[c] : 0);
        if (n > 0) {
            l.id[l.n] = (uint8_t)c;
            l.cnt[l.n++] = (uint8_t)n;
        }
    }
    multisets(k, &l, need, pre, npre);
}

int dab_follows(const dab_trump *t, const dab_hand *h, const dab_play *led, dab_play *out, int cap)
{
    sink k = {out, cap, 0};
    int f = t->fsuit[led->c[0]];
    suit_view v = view(t, h, f);
    cardlist s;
    list_cards(t, h, f, true, NULL, &s);
    int need = led->n;
    if (need == 2 && v.pair) {
        /* DB-23: a pair of the led suit (a pair out of a triple too) */
        for (int i = 0; i < s.n; i++)
            if (s.cnt[i] >= 2)
                put(&k, 2, s.id[i], s.id[i], 0);
    } else if (need == 3 && v.triple) {
        /* DB-24: a triple of the led suit */
        for (int i = 0; i < s.n; i++)
            if (s.cnt[i] == 3)
                put(&k, 3, s.id[i], s.id[i], s.id[i]);
    } else if (need == 3 && v.pair) {
        /* DB-24: a pair of the suit, plus another card of it, else any */
        for (int i = 0; i < s.n; i++) {
            if (s.cnt[i] != 2)
                continue;
            int pre[2] = {s.id[i], s.id[i]};
            dab_hand minus = {0};
            minus.n[s.id[i]] = 2;
            if (v.held > 2) {
                cardlist rest;
                list_cards(t, h, f, true, &minus, &rest);
                multisets(&k, &rest, 1, pre, 2);
            } else {
                any_cards(&k, h, &minus, 1, pre, 2);
            }
        }
    } else if (v.held >= need) {
        /* DB-22..DB-24: as many cards of the suit as were led */
        multisets(&k, &s, need, NULL, 0);
    } else {
        /* all the suit's cards, filled with any others */
        int pre[3] = {0, 0, 0}, np = 0;
        for (int i = 0; i < s.n; i++)
            for (int j = 0; j < s.cnt[i]; j++)
                pre[np++] = s.id[i];
        cardlist rest;
        list_cards(t, h, f, false, NULL, &rest);
        multisets(&k, &rest, need - np, pre, np);
    }
    return k.n > cap ? ARB_ENOSPC : k.n;
}

/* The play's cards are in the hand (ids ascending: equal cards adjacent). */
static bool held(const dab_hand *h, const dab_play *p)
{
    for (int i = 0; i < p->n; i++) {
        int same = 1;
        for (int j = i + 1; j < p->n && p->c[j] == p->c[i]; j++)
            same++;
        if (h->n[p->c[i]] < same)
            return false;
        i += same - 1;
    }
    return true;
}

int dab_check_play(const dab_trump *t, const dab_hand *h, const dab_play *led, const dab_play *p, char *why,
                  size_t whylen)
{
    if (p->n < 1 || p->n > DAB_MAX_PLAY) {
        snprintf(why, whylen, "a play is one, two or three cards (DB-20)");
        return ARB_EILLEGAL;
    }
    for (int i = 0; i < p->n; i++)
        if (p->c[i] >= DAB_NCARDS || (i && p->c[i] < p->c[i - 1])) {
            snprintf(why, whylen, "not a play");
            return ARB_EILLEGAL;
        }
    if (!held(h, p)) {
        snprintf(why, whylen, "cards not in the hand");
        return ARB_EILLEGAL;
    }
    if (!led) {
        if (dab_play_shape(p) == DAB_MIXED) {
            snprintf(why, whylen, "a lead is a single, two identical cards or three identical cards (DB-20)");
            return ARB_EILLEGAL;
        }
        return 0;
    }
    if (p->n != led->n) {
        snprintf(why, whylen, "play %d card%s, as many as were led (DB-21)", led->n, led->n > 1 ? "s" : "");
        return ARB_EILLEGAL;
    }
    int f = t->fsuit[led->c[0]];
    if (led->n == 1 && t->fsuit[p->c[0]] == f)
        return 0;                                   /* DB-22, without counting the suit */
    suit_view v = view(t, h, f);
    int in = 0;
    for (int i = 0; i < p->n; i++)
        in += t->fsuit[p->c[i]] == f;
    dab_shape sh = dab_play_shape(p);
    const char *suit = f == DAB_TRUMP ? "trumps" : (const char[][9]){"spades", "hearts", "clubs", "diamonds"}[f];
    if (led->n == 2 && v.pair) {
        if (sh != DAB_PAIR || in != 2) {
            snprintf(why, whylen, "you hold a pair in %s: play a pair of %s (DB-23)", suit, suit);
            return ARB_EILLEGAL;
        }
        return 0;
    }
    if (led->n == 3 && v.triple) {
        if (sh != DAB_TRIPLE || in != 3) {
            snprintf(why, whylen, "you hold a triple in %s: play a triple of %s (DB-24)", suit, suit);
            return ARB_EILLEGAL;
        }
        return 0;
    }
    if (led->n == 3 && v.pair) {
        bool pair = (p->c[0] == p->c[1] && t->fsuit[p->c[0]] == f) || (p->c[1] == p->c[2] && t->fsuit[p->c[1]] == f);
        int want = v.held >= 3 ? 3 : 2;
        if (!pair || in != want) {
            snprintf(why, whylen, "you hold a pair in %s: play a pair of %s and %s (DB-24)", suit, suit,
                     v.held >= 3 ? "another card of the suit" : "any other card");
            return ARB_EILLEGAL;
        }
        return 0;
    }
    int want = v.held < led->n ? v.held : led->n;
    if (in != want) {
        snprintf(why, whylen, "play %d card%s of %s: as many of the led suit as you hold, up to %d (DB-%d)", want,
                 want == 1 ? "" : "s", suit, led->n, led->n == 1 ? 22 : led->n == 2 ? 23 : 24);
        return ARB_EILLEGAL;
    }
    return 0;
}

/* ---- Winning a trick (DB-25..DB-27) ---------------------------------------- */

bool dab_beats(const dab_trump *t, const dab_play *p, const dab_play *w)
{
    dab_shape s = dab_play_shape(p);
    if (s == DAB_MIXED || s != dab_play_shape(w))
        return false;                                   /* DB-27 */
    int fp = t->fsuit[p->c[0]], fw = t->fsuit[w->c[0]];
    if (fp == fw)
        return t->power[p->c[0]] > t->power[w->c[0]];   /* DB-25 (a), DB-26 */
    return fw != DAB_TRUMP && fp == DAB_TRUMP;            /* DB-25 (b) */
}

int dab_trick_winner(const dab_trump *t, const dab_play *plays, int n)
{
    int w = 0;
    for (int i = 1; i < n; i++)
        if (dab_beats(t, &plays[i], &plays[w]))
            w = i;
    return w;
}

/* ---- Random legal plays (self-play) ---------------------------------------- */

/* Card instances of a hand in or out of suit f, less `minus`. */
static int instances(const dab_trump *t, const dab_hand *h, int f, bool in_suit, const dab_hand *minus, uint8_t *out)
{
    int n = 0;
    for (int c = 0; c < DAB_NCARDS; c++) {
        if (f >= 0 && (t->fsuit[c] == f) != in_suit)
            continue;
        int k = h->n[c] - (minus ? minus->n[c] : 0);
        for (int j = 0; j < k; j++)
            out[n++] = (uint8_t)c;
    }
    return n;
}

static void take_random(arb_rng *rng, uint8_t *pool, int npool, int need, dab_play *out)
{
    for (int i = 0; i < need && npool > 0; i++) {
        int j = (int)arb_rng_below(rng, (uint64_t)npool);
        out->c[out->n++] = pool[j];
        pool[j] = pool[--npool];
    }
}

static void sort_play(dab_play *p)
{
    for (int i = 1; i < p->n; i++)
        for (int j = i; j > 0 && p->c[j] < p->c[j - 1]; j--) {
            uint8_t x = p->c[j];
            p->c[j] = p->c[j - 1];
            p->c[j - 1] = x;
        }
}

static int random_with_count(const dab_trump *t, const dab_hand *h, int f, int atleast, int exactly, arb_rng *rng)
{
    int ids[DAB_NCARDS], n = 0;
    for (int i = 0; i < t->nmember[f]; i++) {
        int c = t->member[f][i];
        if (exactly ? h->n[c] == exactly : h->n[c] >= atleast)
            ids[n++] = c;
    }
    return n ? ids[arb_rng_below(rng, (uint64_t)n)] : -1;
}

/* The k-th card (0-based) of the hand's cards in suit f, counting
 * identical cards one by one. */
static int kth_in_suit(const dab_trump *t, const dab_hand *h, int f, int k)
{
    for (int i = 0; i < t->nmember[f]; i++) {
        int c = t->member[f][i];
        if (k < h->n[c])
            return c;
        k -= h->n[c];
    }
    return -1;
}

static int kth_card(const dab_hand *h, int k)
{
    for (int c = 0; c < DAB_NCARDS; c++) {
        if (k < h->n[c])
            return c;
        k -= h->n[c];
    }
    return -1;
}

void dab_random_follow(const dab_trump *t, const dab_hand *h, const dab_play *led, arb_rng *rng, dab_play *out)
{
    int f = t->fsuit[led->c[0]];
    int need = led->n;
    memset(out, 0, sizeof *out);
    if (need == 1) {
        /* the common case, without building pools: a card of the suit
         * if there is one, else any */
        int held = 0;
        for (int i = 0; i < t->nmember[f]; i++)
            held += h->n[t->member[f][i]];
        out->n = 1;
        out->c[0] = (uint8_t)(held ? kth_in_suit(t, h, f, (int)arb_rng_below(rng, (uint64_t)held))
                                   : kth_card(h, (int)arb_rng_below(rng, h->total)));
        return;
    }
    suit_view v = view(t, h, f);
    uint8_t pool[DAB_DECK];
    if (need == 2 && v.pair) {
        int c = random_with_count(t, h, f, 2, 0, rng);
        out->n = 2;
        out->c[0] = out->c[1] = (uint8_t)c;
        return;
    }
    if (need == 3 && v.triple) {
        int c = random_with_count(t, h, f, 0, 3, rng);
        out->n = 3;
        out->c[0] = out->c[1] = out->c[2] = (uint8_t)c;
        return;
    }
    dab_hand minus = {0};
    if (need == 3 && v.pair) {
        int c = random_with_count(t, h, f, 0, 2, rng);
        out->n = 2;
        out->c[0] = out->c[1] = (uint8_t)c;
        minus.n[c] = 2;
        int np = v.held > 2 ? instances(t, h, f, true, &minus, pool) : instances(t, h, -1, true, &minus, pool);
        take_random(rng, pool, np, 1, out);
        sort_play(out);
        return;
    }
    int np = instances(t, h, f, true, NULL, pool);
    int from_suit = np < need ? np : need;
    take_random(rng, pool, np, from_suit, out);
    if (out->n < need) {
        np = instances(t, h, f, false, NULL, pool);
        take_random(rng, pool, np, need - out->n, out);
    }
    sort_play(out);
}

void dab_random_lead(const dab_trump *t, const dab_hand *h, arb_rng *rng, dab_play *out)
{
    (void)t;
    memset(out, 0, sizeof *out);
    if (!h->total)
        return;
    int c = kth_card(h, (int)arb_rng_below(rng, h->total));
    int k = 1 + (int)arb_rng_below(rng, h->n[c]);
    out->n = (uint8_t)k;
    for (int i = 0; i < k; i++)
        out->c[i] = (uint8_t)c;
}
