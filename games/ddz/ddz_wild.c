/* ddz_wild.c — wild cards (赖子, seed 004; DDZ-80..89): the four cards of a
 * wild rank stand for any rank 3..2, never a joker. A play is the cards
 * played plus what its wild cards stand for; its reading is the reading of
 * the represented cards under the ordinary rules. Bombs rank soft (a wild
 * card stands for another rank) < hard (natural) < the pure wild bomb (four
 * wild cards as themselves; with two wild ranks, the higher rank's) < the
 * rocket.
 *
 * Not a hot path: enumeration tries every way the wild cards in hand can be
 * read over the ordinary enumerator, which stays the single source of the
 * rules; the exhaustive test checks it against validation of every
 * sub-multiset. */
#include "ddz.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Internals of ddz_moves.c. */
bool ddz__splits_bomb(const ddz_rules *r, ddz_cards hand, ddz_cards play);
int ddz__classify_raw(const ddz_rules *r, ddz_cards cards, ddz_move *out, size_t cap);
bool ddz__better(const ddz_move *a, const ddz_move *b);

#define NIB(c, r) ((unsigned)((c) >> (4 * (r))) & 15u)
#define SOFT_BASE 1    /* soft bomb of rank x: 1 + x */
#define HARD_BASE 14   /* hard bomb of rank x: 14 + x */
#define PURE_BASE 27   /* four wild cards of rank x as themselves: 27 + x */

/* The wild cards among `c`. */
static ddz_cards wild_part(ddz_cards c, uint16_t wild)
{
    ddz_cards w = 0;
    for (int x = 0; x <= DDZ_R2; x++)
        if (wild >> x & 1)
            w |= c & ((ddz_cards)15 << (4 * x));
    return w;
}

static uint32_t encode_subst(ddz_cards s)
{
    uint32_t e = 0;
    int shift = 0;
    for (int x = 0; x <= DDZ_R2; x++)
        for (unsigned k = NIB(s, x); k; k--, shift += 4)
            e |= (uint32_t)(x + 1) << shift;
    return e;
}

static ddz_cards decode_subst(uint32_t e)
{
    ddz_cards s = 0;
    for (; e; e >>= 4)
        s += DDZ_ONE((e & 15) - 1);
    return s;
}

ddz_cards ddz_move_represented(const ddz_move *m, uint16_t wild_ranks)
{
    if (!m->subst)
        return m->cards;
    return m->cards - wild_part(m->cards, wild_ranks) + decode_subst(m->subst);
}

/* Set a reading's cards to the actual play and bombs to the wild scale. */
static void fix_reading(ddz_move *m, ddz_cards actual, ddz_cards used_wild, ddz_cards s)
{
    m->cards = actual;
    m->ncards = (uint8_t)ddz_total(actual);
    m->subst = used_wild ? encode_subst(s) : 0;
    if (m->kind == DDZ_BOMB && m->rank > 0) {
        int x = m->rank - 1;   /* one pack: power 1 + rank */
        if (s != used_wild)
            m->rank = (uint8_t)(SOFT_BASE + x);
        else if (used_wild == actual)
            m->rank = (uint8_t)(PURE_BASE + x);   /* DDZ-83: two pure bombs by rank */
        else
            m->rank = (uint8_t)(HARD_BASE + x);
    }
}

/* DDZ-83: when a play beats the previous one under several readings, the
 * one that counts is the strongest: the rocket, then a bomb, then the
 * same-kind reading of the highest rank. */
static int strength_class(const ddz_move *m)
{
    return m->kind == DDZ_ROCKET ? 3 : m->kind == DDZ_BOMB ? 2 : 1;
}

static bool stronger(const ddz_move *a, const ddz_move *b)
{
    int ca = strength_class(a), cb = strength_class(b);
    return ca != cb ? ca > cb : a->rank > b->rank;
}

/* Calls fn for every multiset of `k` ranks 3..2 that keeps each represented
 * count of base + S at most 4. */
typedef void (*subst_fn)(ddz_cards s, void *ctx);

static void each_subst(ddz_cards base, int k, int from, ddz_cards acc, subst_fn fn, void *ctx)
{
    if (k == 0) {
        fn(acc, ctx);
        return;
    }
    for (int x = from; x <= DDZ_R2; x++)
        if (NIB(base, x) + NIB(acc, x) < 4)
            each_subst(base, k - 1, x, acc + DDZ_ONE(x), fn, ctx);
}

/* ---- Validation ------------------------------------------------------------- */

typedef struct vctx {
    const ddz_rules *r;
    ddz_cards natural, wild, represented, primary;
    const ddz_move *prev;
    ddz_move best;
    bool found, any_reading;
} vctx;

static void validate_one(ddz_cards s, void *p)
{
    vctx *v = p;
    ddz_cards rep = v->natural + s;
    if (v->represented && rep != v->represented)
        return;
    ddz_move rd[64];
    int n = ddz__classify_raw(v->r, rep, rd, 64);
    for (int i = 0; i < n; i++) {
        ddz_move m = rd[i];
        if (v->primary && v->primary != rep && ddz_move_primary(&m) != v->primary)
            continue;
        fix_reading(&m, v->natural + v->wild, v->wild, s);
        v->any_reading = true;
        if (v->prev) {
            if (!ddz_beats(&m, v->prev))
                continue;
            if (v->found && !stronger(&m, &v->best))
                continue;
        } else if (v->found && !ddz__better(&m, &v->best)) {
            continue;
        }
        v->best = m;
        v->found = true;
    }
}

static void set_why(char *why, size_t len, const char *text)
{
    if (why && len)
        snprintf(why, len, "%s", text);
}

int ddz_validate_w(const ddz_rules *r, uint16_t wild_ranks, ddz_cards hand, const ddz_move *prev,
                   ddz_cards cards, ddz_cards represented, ddz_cards primary, ddz_move *chosen,
                   char *why, size_t whylen)
{
    if (!wild_ranks) {
        if (represented && represented != cards) {
            set_why(why, whylen, "no wild cards in this game");
            return ARB_EILLEGAL;
        }
        return ddz_validate(r, hand, prev, cards, primary, chosen, why, whylen);
    }
    bool lead = prev == NULL || prev->kind == DDZ_PASS;
    if (cards == 0)
        return ddz_validate(r, hand, prev, 0, 0, chosen, why, whylen);
    if (!ddz_subset(cards, hand)) {
        set_why(why, whylen, "cards not in hand");
        return ARB_EILLEGAL;
    }
    if (ddz__splits_bomb(r, hand, cards)) {
        set_why(why, whylen, "splits a bomb (split_bomb is off)");
        return ARB_EILLEGAL;
    }
    vctx v = {r, 0, 0, represented, primary, lead ? NULL : prev, {0}, false, false};
    v.wild = wild_part(cards, wild_ranks);
    v.natural = cards - v.wild;
    each_subst(v.natural, (int)ddz_total(v.wild), 0, 0, validate_one, &v);
    if (!v.found) {
        set_why(why, whylen, !v.any_reading ? "not a legal combination however the wild cards are read"
                                            : "does not beat the previous play");
        return ARB_EILLEGAL;
    }
    *chosen = v.best;
    return 0;
}

/* ---- Enumeration ------------------------------------------------------------ */

typedef struct ectx {
    const ddz_rules *r;      /* split_bomb forced on: checked on the actual cards */
    const ddz_rules *orig;
    ddz_cards hand, natural, used_wild;
    const ddz_move *prev;
    ddz_move *out, *scratch;
    size_t cap, scap, n;
    int err;
} ectx;

static int cmp_move(const void *pa, const void *pb)
{
    const ddz_move *a = pa, *b = pb;
    if (a->cards != b->cards)
        return a->cards < b->cards ? -1 : 1;
    return 0;
}

/* Keep one entry per set of cards: the best lead reading, or the strongest
 * reading that beats the previous play. */
static size_t compact(ddz_move *out, size_t n, bool follow)
{
    qsort(out, n, sizeof *out, cmp_move);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (w && out[w - 1].cards == out[i].cards) {
            ddz_move *k = &out[w - 1];
            if (follow ? stronger(&out[i], k) : ddz__better(&out[i], k))
                *k = out[i];
            continue;
        }
        out[w++] = out[i];
    }
    return w;
}

static void emit(ectx *e, const ddz_move *m)
{
    if (e->orig->split_bomb == false && ddz__splits_bomb(e->orig, e->hand, m->cards))
        return;
    if (e->n >= e->cap) {
        /* Different readings of the wild cards repeat plays: fold them. */
        e->n = compact(e->out, e->n, e->prev != NULL);
        if (e->n >= e->cap - e->cap / 16) {
            e->err = ARB_ENOSPC;
            return;
        }
    }
    e->out[e->n++] = *m;
}

static void enum_one(ddz_cards s, void *p)
{
    ectx *e = p;
    if (e->err)
        return;
    ddz_cards v = e->natural + s;
    bool bombs_only = e->prev && (e->prev->kind == DDZ_BOMB || e->prev->kind == DDZ_ROCKET);
    int n = 0;
    if (!bombs_only) {
        n = e->prev ? ddz_follows(e->r, v, e->prev, e->scratch, e->scap)
                    : ddz_leads(e->r, v, e->scratch, e->scap);
        if (n < 0) {
            e->err = n;
            return;
        }
    }
    for (int i = 0; i < n; i++) {
        ddz_move m = e->scratch[i];
        /* Bombs and the pass are handled below on the wild scale. */
        if (m.kind == DDZ_PASS || (e->prev && (m.kind == DDZ_BOMB || m.kind == DDZ_ROCKET)))
            continue;
        if (!ddz_subset(s, m.cards))
            continue;   /* this play does not use every represented wild card */
        bool over = false;
        for (int x = 0; x <= DDZ_R2; x++)
            over |= NIB(m.cards, x) > 4;
        if (over)
            continue;
        ddz_cards actual = m.cards - s + e->used_wild;
        fix_reading(&m, actual, e->used_wild, s);
        emit(e, &m);
    }
    if (!e->prev)
        return;
    /* Follows: every bomb and the rocket the represented hand holds. */
    ddz_move rd[64];
    ddz_cards cand[DDZ_NRANKS + 3];
    int nc = 0;
    for (int x = 0; x <= DDZ_R2; x++)
        if (NIB(v, x) >= 4 && NIB(s, x) <= 4)
            cand[nc++] = 4 * DDZ_ONE(x);
    if (e->r->small_three_bomb && NIB(v, DDZ_R2) >= 3) {
        if (NIB(v, DDZ_RB))
            cand[nc++] = 3 * DDZ_ONE(DDZ_R2) + DDZ_ONE(DDZ_RB);
        if (NIB(v, DDZ_RR))
            cand[nc++] = 3 * DDZ_ONE(DDZ_R2) + DDZ_ONE(DDZ_RR);
    }
    if (NIB(v, DDZ_RB) && NIB(v, DDZ_RR))
        cand[nc++] = DDZ_ONE(DDZ_RB) + DDZ_ONE(DDZ_RR);
    for (int i = 0; i < nc; i++) {
        if (!ddz_subset(s, cand[i]))
            continue;
        int k = ddz__classify_raw(e->r, cand[i], rd, 64);
        for (int j = 0; j < k; j++) {
            ddz_move m = rd[j];
            fix_reading(&m, cand[i] - s + e->used_wild, e->used_wild, s);
            if (ddz_beats(&m, e->prev))
                emit(e, &m);
        }
    }
}

static int enumerate(const ddz_rules *r, uint16_t wild, ddz_cards hand, const ddz_move *prev,
                     ddz_move *out, size_t cap)
{
    ddz_rules open = *r;
    open.split_bomb = true;
    /* Scratch for the ordinary enumerator: the upper part of out. */
    if (cap < 256)
        return ARB_ENOSPC;
    size_t scap = cap / 2;
    ectx e = {&open, r, hand, 0, 0, prev, out, out + (cap - scap), cap - scap, scap, 0, 0};
    ddz_cards wc = wild_part(hand, wild);
    e.natural = hand - wc;
    /* Every choice of wild cards to use (up to two wild ranks). */
    int wr[2] = {-1, -1}, nw = 0;
    for (int x = 0; x <= DDZ_R2 && nw < 2; x++)
        if (NIB(wc, x))
            wr[nw++] = x;
    unsigned c0 = nw > 0 ? NIB(wc, wr[0]) : 0, c1 = nw > 1 ? NIB(wc, wr[1]) : 0;
    for (unsigned a = 0; a <= c0; a++)
        for (unsigned b = 0; b <= c1; b++) {
            e.used_wild = (nw > 0 ? a * DDZ_ONE(wr[0]) : 0) + (nw > 1 ? b * DDZ_ONE(wr[1]) : 0);
            /* Any ranks: the virtual hand may hold more than four of a
             * rank; a play never represents more (checked in enum_one). */
            each_subst(0, (int)(a + b), 0, 0, enum_one, &e);
            if (e.err)
                return e.err;
        }
    size_t w = compact(out, e.n, prev != NULL);
    if (prev) {
        if (w >= cap)
            return ARB_ENOSPC;
        out[w++] = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
    }
    return (int)w;
}

int ddz_leads_w(const ddz_rules *r, uint16_t wild_ranks, ddz_cards hand, ddz_move *out, size_t cap)
{
    if (!wild_ranks)
        return ddz_leads(r, hand, out, cap);
    return enumerate(r, wild_ranks, hand, NULL, out, cap);
}

int ddz_follows_w(const ddz_rules *r, uint16_t wild_ranks, ddz_cards hand, const ddz_move *prev,
                  ddz_move *out, size_t cap)
{
    if (!wild_ranks)
        return ddz_follows(r, hand, prev, out, cap);
    if (prev->kind == DDZ_ROCKET) {
        if (cap < 1)
            return ARB_ENOSPC;
        out[0] = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
        return 1;
    }
    return enumerate(r, wild_ranks, hand, prev, out, cap);
}

/* ---- Notation ----------------------------------------------------------------- */

int ddz_move_format_w(const ddz_move *m, uint16_t wild_ranks, char *buf, size_t len)
{
    if (!m->subst)
        return ddz_move_format_reading(m, buf, len);
    char a[2 * DDZ_MAX_CARDS + 1], b[2 * DDZ_MAX_CARDS + 8];
    ddz_move rep = *m;
    rep.cards = ddz_move_represented(m, wild_ranks);
    rep.subst = 0;
    ddz_cards_format(m->cards, a, sizeof a);
    ddz_move_format_reading(&rep, b, sizeof b);
    return snprintf(buf, len, "%s=%s", a, b);
}

int ddz_play_parse_w(const ddz_rules *r, const char *text, ddz_cards *cards,
                     ddz_cards *represented, ddz_cards *primary)
{
    const char *eq = strchr(text, '=');
    if (!eq) {
        *represented = 0;
        return ddz_play_parse(r, text, cards, primary);
    }
    char head[2 * DDZ_MAX_CARDS + 1];
    size_t n = (size_t)(eq - text);
    if (n == 0 || n >= sizeof head)
        return n == 0 ? ARB_EPARSE : ARB_ETOOBIG;
    memcpy(head, text, n);
    head[n] = 0;
    ddz_cards p;
    int rc = ddz_cards_parse(r, head, cards);
    if (rc)
        return rc;
    rc = ddz_play_parse(r, eq + 1, represented, &p);
    if (rc)
        return rc;
    if (*represented == 0 || ddz_total(*represented) != ddz_total(*cards))
        return ARB_EPARSE;
    *primary = p;
    return 0;
}
