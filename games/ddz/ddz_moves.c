/* ddz_moves.c — Dou Dizhu plays: classification of a set of cards into its
 * readings, comparison, and enumeration of every legal lead and follow.
 *
 * The enumerator is the hot path of the whole system (bots, the referee and
 * the benchmarks call it for every decision), so it works on the packed
 * count representation (ddz_cards), writes into a caller-owned array, and
 * never allocates. The classifier is the slow, obviously-correct twin used to
 * validate a play; games/ddz/tests/test_ddz_exhaustive.c checks that the two agree
 * on every sub-multiset of hundreds of thousands of hands. */
#include "ddz.h"
#include "arb_error.h"

#include <stdlib.h>
#include <string.h>

/* The shape of each kind: a run of `len` groups of `width` equal cards (the
 * primary part), plus `per` kicker units per group, each unit a solo
 * (kick 1) or a pair (kick 2). `chain` kinds run over 3..A and have a length
 * range; the others are a single group of any rank. */
typedef struct family {
    uint8_t width, kick, per;
    bool    chain;
} family;

static const family fam[DDZ_NKINDS] = {
    [DDZ_SOLO]          = {1, 0, 0, false},
    [DDZ_PAIR]          = {2, 0, 0, false},
    [DDZ_TRIO]          = {3, 0, 0, false},
    [DDZ_TRIO_SOLO]     = {3, 1, 1, false},
    [DDZ_TRIO_PAIR]     = {3, 2, 1, false},
    [DDZ_CHAIN]         = {1, 0, 0, true},
    [DDZ_PAIR_CHAIN]    = {2, 0, 0, true},
    [DDZ_AIRPLANE]      = {3, 0, 0, true},
    [DDZ_AIRPLANE_SOLO] = {3, 1, 1, true},
    [DDZ_AIRPLANE_PAIR] = {3, 2, 1, true},
    [DDZ_FOUR_TWO_SOLO] = {4, 1, 2, false},
    [DDZ_FOUR_TWO_PAIR] = {4, 2, 2, false},
    [DDZ_SHUTTLE]       = {4, 0, 0, true},
    [DDZ_SHUTTLE_SOLO]  = {4, 1, 2, true},
    [DDZ_SHUTTLE_PAIR]  = {4, 2, 2, true},
};

#define NIB(c, r) ((unsigned)((c) >> (4 * (r))) & 15u)
#define WRONG_RANK 0xff   /* DouZero's TYPE_15_WRONG: only bombs follow */

bool ddz_subset(ddz_cards sub, ddz_cards set)
{
    /* When every bit of `sub` is also set in `set`, each count is <= its
     * counterpart (a bit-subset is numerically smaller): the common case of
     * one word operation. Otherwise compare the counts one by one. */
    ddz_cards diff = sub & ~set;
    if (diff == 0)
        return true;
    for (int r = 0; r < DDZ_NRANKS; r++)
        if (NIB(sub, r) > NIB(set, r))
            return false;
    return true;
}

ddz_cards ddz_move_primary(const ddz_move *m)
{
    const family *f = &fam[m->kind];
    if (m->kind >= DDZ_NKINDS || f->kick == 0)
        return m->cards;
    ddz_cards p = 0;
    for (int x = m->rank; x < m->rank + m->len; x++)
        p += (ddz_cards)f->width << (4 * x);
    return p;
}

/* Cards in the primary part: what the default lead reading maximises. */
static int primary_size(const ddz_move *m)
{
    const family *f = &fam[m->kind];
    return f->kick ? f->width * m->len : m->ncards;
}

/* Is reading a preferred over reading b of the same cards (DDZ-15)? */
static bool better(const ddz_move *a, const ddz_move *b)
{
    int pa = primary_size(a), pb = primary_size(b);
    if (pa != pb)
        return pa > pb;
    if (a->rank != b->rank)
        return a->rank > b->rank;
    return a->kind < b->kind;
}

bool ddz_beats(const ddz_move *m, const ddz_move *prev)
{
    if (m->kind == DDZ_PASS || prev->kind == DDZ_ROCKET)
        return false;
    if (m->kind == DDZ_ROCKET)
        return true;
    if (m->kind == DDZ_BOMB)
        return prev->kind != DDZ_BOMB || m->rank > prev->rank;
    if (prev->kind == DDZ_BOMB)
        return false;
    return m->kind == prev->kind && m->len == prev->len && prev->rank != WRONG_RANK
        && m->rank > prev->rank;
}

/* ---- Kicker rules, the single source of truth for the classifier -------- */

static bool solo_repeat_allowed(const ddz_rules *r, int kind)
{
    return fam[kind].width == 3 ? r->airplane_solo_repeat : r->four_solo_pair;
}

/* Are `kick` valid kickers for `kind` with primary groups lo..hi (DDZ-20..29)? */
static bool kick_valid(const ddz_rules *r, int kind, ddz_cards kick, int lo, int hi)
{
    const family *f = &fam[kind];
    unsigned b = NIB(kick, DDZ_RB), rr = NIB(kick, DDZ_RR);
    if (!r->kicker_same_rank)
        for (int x = lo; x <= hi; x++)
            if (NIB(kick, x))
                return false;
    if (!r->kicker_bomb) {
        for (int x = 0; x <= DDZ_R2; x++)
            if (NIB(kick, x) >= 4)
                return false;
        if (r->packs == 2 && b == 2 && rr == 2)
            return false;
    }
    if (f->kick == 1) {
        if (!solo_repeat_allowed(r, kind) && f->per * (hi - lo + 1) > 1)
            for (int x = 0; x < DDZ_NRANKS; x++)
                if (NIB(kick, x) > 1)
                    return false;
        if (r->packs == 1 && !r->kicker_both_jokers && b && rr)
            return false;
        if (f->width == 3 && !r->kicker_trio_adjacent) {
            if (lo > 0 && NIB(kick, lo - 1) >= 3)
                return false;
            if (hi < DDZ_RA && NIB(kick, hi + 1) >= 3)
                return false;
        }
        return true;
    }
    /* Pair kickers. */
    for (int x = 0; x <= DDZ_R2; x++) {
        unsigned k = NIB(kick, x);
        if (k & 1)
            return false;
        if (!r->pair_kickers_same && k > 2)
            return false;
    }
    if (b + rr) {
        if (r->packs == 1 || !r->joker_pair || !r->joker_pair_kicker || ((b + rr) & 1))
            return false;
        if (!r->pair_kickers_same && b + rr > 2)
            return false;
    }
    return true;
}

/* ---- The enumerator -------------------------------------------------------- */

typedef struct gen {
    const ddz_rules *r;
    ddz_cards hand;
    uint8_t   c[DDZ_NRANKS];
    ddz_move *out;
    size_t    cap, n;
    int       err;
    bool      protect;   /* split_bomb off and the hand holds a bomb */
    uint16_t  mask[5];   /* mask[w]: bit x set when the hand holds >= w of rank x */
} gen;

/* Does a play break up a bomb or the rocket held in hand (DDZ-28)? */
bool ddz__splits_bomb(const ddz_rules *r, ddz_cards hand, ddz_cards play);
static bool splits_bomb(const gen *g, ddz_cards m)
{
    unsigned bombsize = 4;
    for (int x = 0; x <= DDZ_R2; x++) {
        unsigned k = NIB(m, x);
        if (g->c[x] >= bombsize && k && k != g->c[x])
            return true;
    }
    unsigned jh = g->c[DDZ_RB] + g->c[DDZ_RR];
    bool rocket = g->r->packs == 1 ? (g->c[DDZ_RB] && g->c[DDZ_RR])
                                   : (g->c[DDZ_RB] == 2 && g->c[DDZ_RR] == 2);
    unsigned jm = NIB(m, DDZ_RB) + NIB(m, DDZ_RR);
    return rocket && jm && jm != jh;
}

static inline void emitn(gen *g, ddz_cards cards, int kind, int rank, int len, int ncards)
{
    if (g->protect && splits_bomb(g, cards))
        return;
    if (g->n >= g->cap) {
        g->err = ARB_ENOSPC;
        return;
    }
    ddz_move *m = &g->out[g->n++];
    m->cards = cards;
    m->kind = (uint8_t)kind;
    m->rank = (uint8_t)rank;
    m->len = (uint8_t)len;
    m->ncards = (uint8_t)ncards;
    m->subst = 0;
}

static inline void emit(gen *g, ddz_cards cards, int kind, int rank, int len)
{
    emitn(g, cards, kind, rank, len, (int)ddz_total(cards));
}

/* Lowest set bit of a rank mask, and the mask without it. */
#define FOR_BITS(x, m, body) for (unsigned x##_bits = (m); x##_bits; x##_bits &= x##_bits - 1) { \
        int x = __builtin_ctz(x##_bits); body }

typedef struct kick_ctx {
    gen      *g;
    ddz_cards prim;
    int       kind, lo, hi, len;
    int       nr;
    int       ncards;            /* cards in every play it emits */
    uint8_t   rank[DDZ_NRANKS];
    uint8_t   cap[DDZ_NRANKS];   /* units available per candidate rank */
    uint8_t   suffix[DDZ_NRANKS + 1]; /* units available from index i on */
    uint8_t   unit;              /* cards per unit: 1 or 2 */
    bool      check_jokers, check_adjacent, check_bbrr;
    uint8_t   joker_units;       /* two packs: joker pairs allowed */
} kick_ctx;

static void kick_leaf(kick_ctx *k, ddz_cards acc)
{
    const ddz_rules *r = k->g->r;
    if (k->check_jokers && NIB(acc, DDZ_RB) && NIB(acc, DDZ_RR))
        return;
    if (k->check_bbrr && NIB(acc, DDZ_RB) == 2 && NIB(acc, DDZ_RR) == 2)
        return;
    if (k->check_adjacent) {
        if (k->lo > 0 && NIB(acc, k->lo - 1) >= 3)
            return;
        if (k->hi < DDZ_RA && NIB(acc, k->hi + 1) >= 3)
            return;
    }
    ddz_cards all = k->prim + acc;
    /* 222 + a joker is the small-three bomb, never a trio with a kicker (DDZ-31). */
    if (r->small_three_bomb && k->kind == DDZ_TRIO_SOLO && k->lo == DDZ_R2
        && (acc == DDZ_ONE(DDZ_RB) || acc == DDZ_ONE(DDZ_RR)))
        return;
    if (r->kicker_same_rank) {
        /* A set of one rank only is a bomb (or a trio), never a kicker play. */
        int distinct = 0;
        for (int x = 0; x < DDZ_NRANKS; x++)
            distinct += NIB(all, x) != 0;
        if (distinct < 2)
            return;
    }
    emitn(k->g, all, k->kind, k->lo, k->len, k->ncards);
}

static void kick_rec(kick_ctx *k, int i, int left, ddz_cards acc)
{
    if (left == 0) {
        kick_leaf(k, acc);
        return;
    }
    if (i == k->nr) {
        /* Two packs: the jokers may make up the remaining pair units. */
        if (k->joker_units && left <= k->joker_units) {
            unsigned need = 2u * (unsigned)left;
            unsigned hb = k->g->c[DDZ_RB], hr = k->g->c[DDZ_RR];
            for (unsigned b = 0; b <= hb && b <= need; b++)
                if (need - b <= hr)
                    kick_leaf(k, acc + b * DDZ_ONE(DDZ_RB) + (need - b) * DDZ_ONE(DDZ_RR));
        }
        return;
    }
    if (k->suffix[i] + k->joker_units < left)
        return;
    int x = k->rank[i];
    int m = k->cap[i] < left ? k->cap[i] : left;
    ddz_cards step = (ddz_cards)k->unit << (4 * x);
    for (int t = 0; t <= m; t++, acc += step)
        kick_rec(k, i + 1, left - t, acc);
}

static void gen_kickers(gen *g, int kind, ddz_cards prim, int lo, int hi)
{
    const ddz_rules *r = g->r;
    const family *f = &fam[kind];
    kick_ctx k;
    k.g = g;
    k.prim = prim;
    k.kind = kind;
    k.lo = lo;
    k.hi = hi;
    k.len = hi - lo + 1;
    k.nr = 0;
    k.unit = f->kick;
    k.joker_units = 0;
    int units = k.len * f->per;
    k.ncards = k.len * f->width + units * f->kick;
    bool repeat = units > 1 && solo_repeat_allowed(r, kind);
    k.check_jokers = f->kick == 1 && r->packs == 1 && !r->kicker_both_jokers;
    k.check_bbrr = r->packs == 2 && !r->kicker_bomb;
    k.check_adjacent = f->kick == 1 && f->width == 3 && !r->kicker_trio_adjacent;

    int top = f->kick == 1 ? DDZ_RR : DDZ_R2;
    for (int x = 0; x <= top; x++) {
        unsigned a = g->c[x] - NIB(prim, x);
        if (!r->kicker_same_rank && x >= lo && x <= hi)
            a = 0;
        unsigned c;
        if (f->kick == 1) {
            c = repeat ? a : (a ? 1 : 0);
            if (!r->kicker_bomb && c > 3)
                c = 3;
        } else {
            c = a / 2;
            if (!r->pair_kickers_same && c > 1)
                c = 1;
            if (!r->kicker_bomb && c > 1)
                c = 1;
        }
        if (c) {
            k.rank[k.nr] = (uint8_t)x;
            k.cap[k.nr++] = (uint8_t)c;
        }
    }
    if (f->kick == 2 && r->packs == 2 && r->joker_pair && r->joker_pair_kicker) {
        unsigned j = (g->c[DDZ_RB] + g->c[DDZ_RR]) / 2;
        if (!r->pair_kickers_same && j > 1)
            j = 1;
        k.joker_units = (uint8_t)j;
    }
    if (f->kick == 1 && units == 2 && !r->kicker_same_rank) {
        /* Two solo kickers (four + two, a two-trio airplane): every pair
         * of candidate ranks, or one rank twice when it may repeat, without
         * the recursion. Of kick_leaf's checks only the two jokers apply:
         * two cards make neither a trio beside the primary nor BB+RR. */
        for (int i = 0; i < k.nr; i++)
            for (int j = i; j < k.nr; j++) {
                if (j == i && k.cap[i] < 2)
                    continue;
                if (k.check_jokers && k.rank[i] == DDZ_RB && k.rank[j] == DDZ_RR)
                    continue;
                emitn(g, prim + DDZ_ONE(k.rank[i]) + DDZ_ONE(k.rank[j]), kind, lo, k.len, k.ncards);
            }
        return;
    }
    k.suffix[k.nr] = 0;
    for (int i = k.nr - 1; i >= 0; i--) {
        unsigned s = k.suffix[i + 1] + k.cap[i];
        k.suffix[i] = (uint8_t)(s > 255 ? 255 : s);
    }
    kick_rec(&k, 0, units, 0);
}

/* All moves of `kind` with a length in [minlen, maxlen] and a rank above
 * `above` (-1 for every rank). */
static void gen_kind(gen *g, int kind, int minlen, int maxlen, int above)
{
    const ddz_rules *r = g->r;
    const family *f = &fam[kind];
    int w = f->width;
    if (!r->kind[kind].on)
        return;
    if (!f->chain) {
        int top = kind == DDZ_SOLO ? DDZ_RR : DDZ_R2;
        unsigned below = above < 0 ? 0u : (2u << above) - 1;
        unsigned ranks = g->mask[w] & ((2u << top) - 1) & ~below;
        /* Fast path for one kicker unit (trio + solo, trio + pair): the
         * kicker candidates are a rank mask, no recursion needed. */
        bool fast = f->kick && f->per == 1 && !r->kicker_same_rank
            && !(f->kick == 2 && r->packs == 2 && r->joker_pair && r->joker_pair_kicker);
        if (fast) {
            unsigned cand = f->kick == 1 ? g->mask[1] : g->mask[2] & 0x1fffu;
            int n = w + f->kick;
            FOR_BITS(x, ranks, {
                ddz_cards prim = (ddz_cards)w << (4 * x);
                unsigned kc = cand & ~(1u << x);
                if (x == DDZ_R2 && f->kick == 1 && r->small_three_bomb)
                    kc &= ~(3u << DDZ_RB);   /* 222+joker is a bomb (DDZ-31) */
                FOR_BITS(k, kc, {
                    emitn(g, prim + ((ddz_cards)f->kick << (4 * k)), kind, x, 1, n);
                })
            })
        } else {
            FOR_BITS(x, ranks, {
                ddz_cards prim = (ddz_cards)w << (4 * x);
                if (f->kick)
                    gen_kickers(g, kind, prim, x, x);
                else
                    emitn(g, prim, kind, x, 1, w);
            })
        }
        if (kind == DDZ_PAIR && r->packs == 2 && r->joker_pair) {
            /* Two packs: BB < BR < RR, all above a pair of 2s (DDZ-24). */
            unsigned b = g->c[DDZ_RB], rr = g->c[DDZ_RR];
            if (b >= 2 && above < 13)
                emit(g, 2 * DDZ_ONE(DDZ_RB), DDZ_PAIR, 13, 1);
            if (b && rr && above < 14)
                emit(g, DDZ_ONE(DDZ_RB) + DDZ_ONE(DDZ_RR), DDZ_PAIR, 14, 1);
            if (rr >= 2 && above < 15)
                emit(g, 2 * DDZ_ONE(DDZ_RR), DDZ_PAIR, 15, 1);
        }
        return;
    }
    if (minlen < r->kind[kind].min_len)
        minlen = r->kind[kind].min_len;
    if (maxlen > r->kind[kind].max_len)
        maxlen = r->kind[kind].max_len;
    unsigned run = g->mask[w] & 0xfffu;   /* chains use 3..A only */
    /* The starts whose run reaches minlen: bit s when s .. s+minlen-1 are
     * all held (above `above`). */
    unsigned starts = run & (~0u << (above + 1));
    for (int i = 1; i < minlen && starts; i++)
        starts &= run >> i;
    FOR_BITS(s, starts, {
        ddz_cards prim = 0;
        for (int e = s; e <= DDZ_RA && (run >> e & 1); e++) {
            int len = e - s + 1;
            prim += (ddz_cards)w << (4 * e);
            if (len < minlen)
                continue;
            if (len > maxlen)
                break;
            if (f->kick)
                gen_kickers(g, kind, prim, s, e);
            else
                emitn(g, prim, kind, s, len, w * len);
        }
    })
}

/* Bomb power (DDZ-30): small-three bomb 0; one pack 1 + rank; two packs
 * 1 + (size - 4) * 13 + rank. The rocket is its own kind. */
static void gen_bombs(gen *g, int above)
{
    const ddz_rules *r = g->r;
    if (r->small_three_bomb && g->c[DDZ_R2] >= 3 && above < 0) {
        if (g->c[DDZ_RB])
            emit(g, 3 * DDZ_ONE(DDZ_R2) + DDZ_ONE(DDZ_RB), DDZ_BOMB, 0, 4);
        if (g->c[DDZ_RR])
            emit(g, 3 * DDZ_ONE(DDZ_R2) + DDZ_ONE(DDZ_RR), DDZ_BOMB, 0, 4);
    }
    if (!(g->mask[4] & 0x1fffu))
        return;
    int maxsize = r->packs == 1 ? 4 : 8;
    for (int size = 4; size <= maxsize; size++)
        FOR_BITS(x, g->mask[4] & 0x1fffu, {
            int power = 1 + (size - 4) * 13 + x;
            if (g->c[x] >= size && power > above)
                emitn(g, (ddz_cards)size << (4 * x), DDZ_BOMB, power, size, size);
        })
}

static void gen_rocket(gen *g)
{
    if (g->r->packs == 1 ? (g->c[DDZ_RB] && g->c[DDZ_RR])
                         : (g->c[DDZ_RB] == 2 && g->c[DDZ_RR] == 2)) {
        int n = g->r->packs;
        emit(g, n * DDZ_ONE(DDZ_RB) + n * DDZ_ONE(DDZ_RR), DDZ_ROCKET, 0, 1);
    }
}

static void gen_init(gen *g, const ddz_rules *r, ddz_cards hand, ddz_move *out, size_t cap)
{
    g->r = r;
    g->hand = hand;
    g->out = out;
    g->cap = cap;
    g->n = 0;
    g->err = 0;
    g->protect = false;
    unsigned m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    for (int x = 0; x < DDZ_NRANKS; x++) {
        unsigned k = NIB(hand, x);
        g->c[x] = (uint8_t)k;
        m1 |= (unsigned)(k >= 1) << x;
        m2 |= (unsigned)(k >= 2) << x;
        m3 |= (unsigned)(k >= 3) << x;
        m4 |= (unsigned)(k >= 4) << x;
    }
    g->mask[0] = 0;
    g->mask[1] = (uint16_t)m1;
    g->mask[2] = (uint16_t)m2;
    g->mask[3] = (uint16_t)m3;
    g->mask[4] = (uint16_t)m4;
    if (!r->split_bomb) {
        for (int x = 0; x <= DDZ_R2; x++)
            g->protect |= g->c[x] >= 4;
        g->protect |= r->packs == 1 ? (g->c[DDZ_RB] && g->c[DDZ_RR])
                                    : (g->c[DDZ_RB] == 2 && g->c[DDZ_RR] == 2);
    }
}

/* Kinds whose sets of cards can have more than one reading: everything else
 * is produced exactly once by construction (see docs/rules/doudizhu.md,
 * DDZ-15), so only these need the duplicate pass. */
static bool collidable(const ddz_rules *r, int kind)
{
    switch (kind) {
    case DDZ_AIRPLANE: case DDZ_AIRPLANE_SOLO: case DDZ_AIRPLANE_PAIR:
    case DDZ_FOUR_TWO_PAIR: case DDZ_SHUTTLE: case DDZ_SHUTTLE_SOLO: case DDZ_SHUTTLE_PAIR:
        return true;
    default:
        return r->kicker_same_rank && fam[kind].kick;
    }
}

static int cmp_cards_then_better(const void *pa, const void *pb)
{
    const ddz_move *a = pa, *b = pb;
    if (a->cards != b->cards)
        return a->cards < b->cards ? -1 : 1;
    if (better(a, b))
        return -1;
    return better(b, a) ? 1 : 0;
}

/* Keep one reading per set of cards in m[start..n): the preferred one. */
static size_t dedupe(ddz_move *m, size_t start, size_t n)
{
    size_t k = n - start;
    if (k < 2)
        return n;
    if (k > 4096) {
        qsort(m + start, k, sizeof *m, cmp_cards_then_better);
        size_t w = start + 1;
        for (size_t i = start + 1; i < n; i++)
            if (m[i].cards != m[w - 1].cards)
                m[w++] = m[i];
        return w;
    }
    uint16_t tab[8192];
    unsigned bits = 4;
    while ((1u << bits) < 2 * k)
        bits++;
    size_t size = (size_t)1 << bits;
    memset(tab, 0xff, size * sizeof tab[0]);
    size_t w = start;
    for (size_t i = start; i < n; i++) {
        size_t h = (size_t)((m[i].cards * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
        for (;;) {
            if (tab[h] == 0xffff) {
                tab[h] = (uint16_t)(w - start);
                m[w++] = m[i];
                break;
            }
            ddz_move *o = &m[start + tab[h]];
            if (o->cards == m[i].cards) {
                if (better(&m[i], o))
                    *o = m[i];
                break;
            }
            h = (h + 1) & (size - 1);
        }
    }
    return w;
}

/* ---- DouZero compatibility (DDZ-16; the douzero preset) -------------------- */

/* DouZero treats 2 and the jokers as not consecutive with anything. */
static bool douzero_consecutive(const uint8_t *ranks, int n)
{
    for (int i = 1; i < n; i++)
        if (ranks[i] != ranks[i - 1] + 1 || ranks[i] > DDZ_RA)
            return false;
    return true;
}

/* The single reading DouZero's move detector gives a set of cards (its
 * get_move_type), with airplanes keyed by the highest rank held exactly three
 * times as its move selector compares them. */
static ddz_move douzero_detect(ddz_cards cards)
{
    /* Anything the detector rejects (TYPE_15_WRONG) may be answered only by
     * a bomb or the rocket: a reading no play of its kind can beat. */
    ddz_move m = {cards, DDZ_AIRPLANE_SOLO, WRONG_RANK, 0, (uint8_t)ddz_total(cards), 0};
    uint8_t ranks[DDZ_NRANKS], trios[DDZ_NRANKS];
    int d = 0, nt = 0, cnt[9] = {0}, n = m.ncards;
    for (int x = 0; x < DDZ_NRANKS; x++) {
        unsigned k = NIB(cards, x);
        if (k) {
            ranks[d++] = (uint8_t)x;
            cnt[k > 8 ? 8 : k]++;
        }
        if (k == 3)
            trios[nt++] = (uint8_t)x;
    }
    int single_rank = -1, four_rank = -1;
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (NIB(cards, x) == 4)
            four_rank = x;   /* the highest four */
    if (d == 1)
        single_rank = ranks[0];
#define SET(k, rk, l) do { m.kind = (k); m.rank = (uint8_t)(rk); m.len = (uint8_t)(l); return m; } while (0)
    if (n == 0)
        SET(DDZ_PASS, 0, 0);
    if (n == 1)
        SET(DDZ_SOLO, ranks[0], 1);
    if (n == 2) {
        if (d == 1)
            SET(DDZ_PAIR, single_rank, 1);
        if (NIB(cards, DDZ_RB) && NIB(cards, DDZ_RR))
            SET(DDZ_ROCKET, 0, 1);
        return m;
    }
    if (n == 3) {
        if (d == 1)
            SET(DDZ_TRIO, single_rank, 1);
        return m;
    }
    if (n == 4) {
        if (d == 1)
            SET(DDZ_BOMB, 1 + single_rank, 4);
        if (d == 2 && cnt[3] == 1)
            SET(DDZ_TRIO_SOLO, trios[0], 1);
        return m;
    }
    if (cnt[1] == d && douzero_consecutive(ranks, d))
        SET(DDZ_CHAIN, ranks[0], d);
    if (n == 5) {
        if (d == 2)
            SET(DDZ_TRIO_PAIR, nt ? trios[0] : four_rank, 1);
        return m;
    }
    if (n == 6 && (d == 2 || d == 3) && cnt[4] == 1 && (cnt[2] == 1 || cnt[1] == 2))
        SET(DDZ_FOUR_TWO_SOLO, four_rank, 1);
    if (n == 8 && (((d == 3 || d == 2) && cnt[4] == 1 && cnt[2] == 2) || cnt[4] == 2))
        SET(DDZ_FOUR_TWO_PAIR, four_rank, 1);
    if (cnt[2] == d && douzero_consecutive(ranks, d))
        SET(DDZ_PAIR_CHAIN, ranks[0], d);
    if (cnt[3] == d && douzero_consecutive(ranks, d))
        SET(DDZ_AIRPLANE, ranks[0], d);
    if (nt >= 2) {
        if (cnt[1] + cnt[2] + cnt[3] != d)
            return m;
        /* rank is the chain's start as everywhere else; DouZero's
         * comparison key (douzero_airplane_key) is derived from the cards. */
        if (douzero_consecutive(trios, nt)) {
            if (nt == cnt[1] + 2 * cnt[2])
                SET(DDZ_AIRPLANE_SOLO, trios[0], nt);
            if (nt == cnt[2] && d == 2 * nt)
                SET(DDZ_AIRPLANE_PAIR, trios[0], nt);
        }
        if (nt == 4 && douzero_consecutive(trios + 1, 3))
            SET(DDZ_AIRPLANE_SOLO, trios[1], 3);
        if (nt == 4 && douzero_consecutive(trios, 3))
            SET(DDZ_AIRPLANE_SOLO, trios[0], 3);
    }
#undef SET
    return m;
}

/* Highest rank held exactly three times: DouZero's airplane key. */
static int douzero_airplane_key(ddz_cards cards)
{
    for (int x = DDZ_RR; x >= 0; x--)
        if (NIB(cards, x) == 3)
            return x;
    return -1;
}

/* ---- Public enumeration ----------------------------------------------------- */

static const uint8_t lead_order[] = {
    DDZ_SOLO, DDZ_PAIR, DDZ_TRIO, DDZ_TRIO_SOLO, DDZ_TRIO_PAIR, DDZ_CHAIN,
    DDZ_PAIR_CHAIN, DDZ_FOUR_TWO_SOLO,
    /* collidable kinds last, so the duplicate pass covers only them */
    DDZ_AIRPLANE, DDZ_AIRPLANE_SOLO, DDZ_AIRPLANE_PAIR, DDZ_FOUR_TWO_PAIR,
    DDZ_SHUTTLE, DDZ_SHUTTLE_SOLO, DDZ_SHUTTLE_PAIR,
};

int ddz_leads(const ddz_rules *r, ddz_cards hand, ddz_move *out, size_t cap)
{
    gen g;
    gen_init(&g, r, hand, out, cap);
    size_t tail = (size_t)-1;
    for (size_t i = 0; i < sizeof lead_order; i++) {
        int kind = lead_order[i];
        if (tail == (size_t)-1 && collidable(r, kind))
            tail = g.n;
        gen_kind(&g, kind, 1, DDZ_NRANKS, -1);
    }
    if (g.err)
        return g.err;
    g.n = dedupe(out, tail == (size_t)-1 ? g.n : tail, g.n);
    gen_bombs(&g, -1);
    gen_rocket(&g);
    if (g.err)
        return g.err;
    if (r->compare == DDZ_COMPARE_DOUZERO)
        for (size_t i = 0; i < g.n; i++)
            out[i] = douzero_detect(out[i].cards);
    return (int)g.n;
}

int ddz_follows(const ddz_rules *r, ddz_cards hand, const ddz_move *prev, ddz_move *out, size_t cap)
{
    gen g;
    gen_init(&g, r, hand, out, cap);
    bool douzero = r->compare == DDZ_COMPARE_DOUZERO;
    if (prev->kind == DDZ_BOMB) {
        gen_bombs(&g, prev->rank);
        gen_rocket(&g);
    } else if (prev->kind != DDZ_ROCKET && prev->kind != DDZ_PASS) {
        int kind = prev->kind;
        bool dzair = douzero && (kind == DDZ_AIRPLANE_SOLO || kind == DDZ_AIRPLANE_PAIR);
        if (prev->rank != WRONG_RANK && kind < DDZ_BOMB) {
            gen_kind(&g, kind, prev->len, prev->len, dzair ? -1 : prev->rank);
            if (dzair) {
                /* DouZero compares airplanes by the highest trio rank. */
                size_t w = 0;
                int prev_key = douzero_airplane_key(prev->cards);
                for (size_t i = 0; i < g.n; i++)
                    if (douzero_airplane_key(out[i].cards) > prev_key)
                        out[w++] = out[i];
                g.n = w;
            }
            if (collidable(r, kind))
                g.n = dedupe(out, 0, g.n);
        }
        gen_bombs(&g, -1);
        gen_rocket(&g);
    }
    if (g.err)
        return g.err;
    if (douzero)
        for (size_t i = 0; i < g.n; i++)
            out[i] = douzero_detect(out[i].cards);
    if (g.n >= cap)
        return ARB_ENOSPC;
    out[g.n] = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
    return (int)g.n + 1;
}

/* ---- Classification -------------------------------------------------------- */

typedef struct readings {
    ddz_move *out;
    size_t    cap, n;
} readings;

static void add_reading(readings *rd, ddz_cards cards, int kind, int rank, int len)
{
    if (rd->n < rd->cap)
        rd->out[rd->n] = (ddz_move){cards, (uint8_t)kind, (uint8_t)rank, (uint8_t)len,
                                    (uint8_t)ddz_total(cards), 0};
    rd->n++;
}

static bool len_ok(const ddz_rules *r, int kind, int len)
{
    return r->kind[kind].on && (!fam[kind].chain
        || (len >= r->kind[kind].min_len && len <= r->kind[kind].max_len));
}

/* Internal classifier: every reading under the rules, in no order. */
int ddz__classify_raw(const ddz_rules *r, ddz_cards cards, ddz_move *out, size_t cap);
bool ddz__better(const ddz_move *a, const ddz_move *b);
static void classify(const ddz_rules *r, ddz_cards cards, readings *rd)
{
    uint8_t c[DDZ_NRANKS];
    int n = 0, d = 0, lo = -1, hi = -1;
    unsigned maxc = 0, minc = 99;
    for (int x = 0; x < DDZ_NRANKS; x++) {
        c[x] = (uint8_t)NIB(cards, x);
        if (!c[x])
            continue;
        n += c[x];
        d++;
        if (lo < 0)
            lo = x;
        hi = x;
        if (c[x] > maxc)
            maxc = c[x];
        if (c[x] < minc)
            minc = c[x];
    }
    if (n == 0)
        return;
    unsigned jb = c[DDZ_RB], jr = c[DDZ_RR];
    /* Limits of the packs: larger counts are not cards of this game. */
    for (int x = 0; x <= DDZ_R2; x++)
        if (c[x] > 4 * r->packs)
            return;
    if (jb > r->packs || jr > r->packs)
        return;

    /* The rocket and bombs are only ever themselves (DDZ-31). */
    if (r->packs == 1 ? (n == 2 && jb == 1 && jr == 1) : (n == 4 && jb == 2 && jr == 2)) {
        add_reading(rd, cards, DDZ_ROCKET, 0, 1);
        return;
    }
    if (d == 1) {
        int x = lo;
        if (c[x] == 1 && r->kind[DDZ_SOLO].on)
            add_reading(rd, cards, DDZ_SOLO, x, 1);
        else if (c[x] == 2 && x <= DDZ_R2 && r->kind[DDZ_PAIR].on)
            add_reading(rd, cards, DDZ_PAIR, x, 1);
        else if (c[x] == 2 && r->packs == 2 && r->joker_pair && r->kind[DDZ_PAIR].on)
            add_reading(rd, cards, DDZ_PAIR, x == DDZ_RB ? 13 : 15, 1);
        else if (c[x] == 3 && x <= DDZ_R2 && r->kind[DDZ_TRIO].on)
            add_reading(rd, cards, DDZ_TRIO, x, 1);
        else if (c[x] >= 4 && x <= DDZ_R2)
            add_reading(rd, cards, DDZ_BOMB, 1 + (c[x] - 4) * 13 + x, c[x]);
        return;
    }
    if (r->small_three_bomb && n == 4 && c[DDZ_R2] == 3 && jb + jr == 1) {
        add_reading(rd, cards, DDZ_BOMB, 0, 4);
        return;
    }
    if (n == 2 && jb == 1 && jr == 1 && r->packs == 2 && r->joker_pair && r->kind[DDZ_PAIR].on)
        add_reading(rd, cards, DDZ_PAIR, 14, 1);

    /* Pure chains: every rank the same count, consecutive within 3..A. */
    if (minc == maxc && hi <= DDZ_RA && hi - lo + 1 == d && d >= 2) {
        static const uint8_t pure[5] = {0, DDZ_CHAIN, DDZ_PAIR_CHAIN, DDZ_AIRPLANE, DDZ_SHUTTLE};
        if (maxc <= 4 && len_ok(r, pure[maxc], d))
            add_reading(rd, cards, pure[maxc], lo, d);
    }

    /* Kicker kinds: try every primary run that fits. */
    static const uint8_t kicked[] = {
        DDZ_TRIO_SOLO, DDZ_TRIO_PAIR, DDZ_AIRPLANE_SOLO, DDZ_AIRPLANE_PAIR,
        DDZ_FOUR_TWO_SOLO, DDZ_FOUR_TWO_PAIR, DDZ_SHUTTLE_SOLO, DDZ_SHUTTLE_PAIR,
    };
    for (size_t i = 0; i < sizeof kicked; i++) {
        int kind = kicked[i];
        const family *f = &fam[kind];
        int unit = f->width + f->per * f->kick;
        if (!r->kind[kind].on || n % unit)
            continue;
        int len = n / unit;
        if (!len_ok(r, kind, len))
            continue;
        if (!f->chain && len != 1)
            continue;
        int top = f->chain ? DDZ_RA : DDZ_R2;
        for (int s = 0; s + len - 1 <= top; s++) {
            ddz_cards prim = 0;
            bool fits = true;
            for (int x = s; x < s + len; x++) {
                if (c[x] < f->width) {
                    fits = false;
                    break;
                }
                prim += (ddz_cards)f->width << (4 * x);
            }
            if (fits && kick_valid(r, kind, cards - prim, s, s + len - 1))
                add_reading(rd, cards, kind, s, len);
        }
    }
}

static void sort_readings(ddz_move *m, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        ddz_move t = m[i];
        size_t j = i;
        while (j > 0 && better(&t, &m[j - 1])) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = t;
    }
}

#define MAX_READINGS 64

int ddz_classify(const ddz_rules *r, ddz_cards cards, ddz_move *out, size_t cap)
{
    ddz_move buf[MAX_READINGS];
    readings rd = {buf, MAX_READINGS, 0};
    classify(r, cards, &rd);
    if (rd.n > MAX_READINGS)
        return ARB_ENOSPC;
    sort_readings(buf, rd.n);
    if (r->compare == DDZ_COMPARE_DOUZERO && rd.n) {
        buf[0] = douzero_detect(cards);
        rd.n = 1;
    }
    if (rd.n > cap)
        return ARB_ENOSPC;
    memcpy(out, buf, rd.n * sizeof *buf);
    return (int)rd.n;
}

static void set_why(char *why, size_t len, const char *text)
{
    if (why && len) {
        size_t n = strlen(text);
        if (n >= len)
            n = len - 1;
        memcpy(why, text, n);
        why[n] = 0;
    }
}

int ddz_validate(const ddz_rules *r, ddz_cards hand, const ddz_move *prev,
                 ddz_cards cards, ddz_cards primary, ddz_move *chosen,
                 char *why, size_t whylen)
{
    bool lead = prev == NULL || prev->kind == DDZ_PASS;
    if (cards == 0) {
        if (lead) {
            set_why(why, whylen, "a lead may not be a pass");
            return ARB_EILLEGAL;
        }
        *chosen = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
        return 0;
    }
    if (!ddz_subset(cards, hand)) {
        set_why(why, whylen, "cards not in hand");
        return ARB_EILLEGAL;
    }
    gen g;
    gen_init(&g, r, hand, NULL, 0);
    if (g.protect && splits_bomb(&g, cards)) {
        set_why(why, whylen, "splits a bomb (split_bomb is off)");
        return ARB_EILLEGAL;
    }
    ddz_move buf[MAX_READINGS];
    readings rd = {buf, MAX_READINGS, 0};
    classify(r, cards, &rd);
    if (rd.n > MAX_READINGS)
        return ARB_ENOSPC;
    size_t n = 0;
    for (size_t i = 0; i < rd.n; i++)
        if (primary == 0 || primary == cards || ddz_move_primary(&buf[i]) == primary)
            buf[n++] = buf[i];
    if (n == 0) {
        set_why(why, whylen, rd.n ? "no reading with that primary part"
                                  : "not a legal combination under these rules");
        return ARB_EILLEGAL;
    }
    sort_readings(buf, n);
    bool douzero = r->compare == DDZ_COMPARE_DOUZERO;
    if (lead) {
        *chosen = douzero ? douzero_detect(cards) : buf[0];
        return 0;
    }
    const ddz_move *best = NULL;
    ddz_move dzprev = *prev;
    if (douzero && prev->rank != WRONG_RANK
        && (prev->kind == DDZ_AIRPLANE_SOLO || prev->kind == DDZ_AIRPLANE_PAIR))
        dzprev.rank = (uint8_t)douzero_airplane_key(prev->cards);
    for (size_t i = 0; i < n; i++) {
        ddz_move m = buf[i];
        if (douzero && (m.kind == DDZ_AIRPLANE_SOLO || m.kind == DDZ_AIRPLANE_PAIR))
            m.rank = (uint8_t)douzero_airplane_key(cards);
        if (ddz_beats(&m, douzero ? &dzprev : prev) && (!best || m.rank > best->rank)) {
            buf[i] = m;
            best = &buf[i];
        }
    }
    if (!best) {
        set_why(why, whylen, prev->kind == DDZ_ROCKET ? "nothing beats the rocket"
                           : "does not beat the previous play");
        return ARB_EILLEGAL;
    }
    *chosen = douzero ? douzero_detect(cards) : *best;
    return 0;
}

/* ---- Internals shared with ddz_wild.c --------------------------------------- */

bool ddz__splits_bomb(const ddz_rules *r, ddz_cards hand, ddz_cards play)
{
    gen g;
    gen_init(&g, r, hand, NULL, 0);
    return g.protect && splits_bomb(&g, play);
}

/* Every reading of `cards`, unsorted, ignoring the compare mode. */
int ddz__classify_raw(const ddz_rules *r, ddz_cards cards, ddz_move *out, size_t cap)
{
    readings rd = {out, cap, 0};
    classify(r, cards, &rd);
    return rd.n > cap ? ARB_ENOSPC : (int)rd.n;
}

bool ddz__better(const ddz_move *a, const ddz_move *b)
{
    return better(a, b);
}
