/* test_dab_brute.c — Da Bang's follow enumerator against brute force: on
 * many small random hands, every sub-multiset of the led play's size is
 * classified by a naive reading of docs/rules/dabang.md DB-21..DB-24,
 * written here apart from the engine, and the legal ones must be exactly
 * dab_follows' list; dab_check_play must accept those and refuse the rest.
 * Leads (DB-20) and dab_random_follow are checked the same way.
 * Usage: test_dab_brute [HANDS] */
#include "dabang.h"
#include "test_num.h"
#include "arb_rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* ---- The naive rules, from the doc's words ------------------------------ */

/* DB-10, DB-12: the suit a card follows as; 4 = trump. */
static int naive_suit(int card, int level, int trump)
{
    if (card >= 52)
        return 4;                       /* jokers */
    int rank = card / 4, suit = card % 4;
    if (rank == 12 || rank == level || suit == trump)
        return 4;                       /* 2s, level cards, the trump suit */
    return suit;
}

/* Is `play` (counts per card, `n` cards) a legal follow from `hand` to a
 * play of `n` cards led in suit f? */
static bool naive_legal(const int *hand, const int *play, int n, int f, int level, int trump)
{
    int held = 0, in = 0;
    bool has_pair = false, has_triple = false;
    for (int c = 0; c < 54; c++) {
        if (naive_suit(c, level, trump) != f)
            continue;
        held += hand[c];
        in += play[c];
        has_pair |= hand[c] == 2;       /* exactly twice: a triple is not a pair */
        has_triple |= hand[c] == 3;
    }
    /* the play's identical group of the led suit, if any */
    int same_in_suit = 0;
    for (int c = 0; c < 54; c++)
        if (naive_suit(c, level, trump) == f && play[c] > same_in_suit)
            same_in_suit = play[c];
    int most = held < n ? held : n;
    if (n == 1)                         /* DB-22 */
        return in == most;
    if (n == 2) {                       /* DB-23 */
        if (has_pair)
            return same_in_suit == 2;
        return in == most;
    }
    /* DB-24 */
    if (has_triple)
        return same_in_suit == 3;
    if (has_pair) {
        if (same_in_suit < 2)
            return false;
        /* "plus one more card of the suit if it holds one besides that
         * pair, else plus any card" */
        bool another = held - 2 > 0;
        return another ? in == 3 : in == 2;
    }
    return in == most;
}

/* ---- Enumeration ------------------------------------------------------------ */

static unsigned key3(int n, const int *cards)
{
    unsigned k = (unsigned)n;
    for (int i = 0; i < 3; i++)
        k = k * 64 + (unsigned)(i < n ? cards[i] : 0);
    return k;
}

static unsigned key_play(const dab_play *p)
{
    int c[3] = {p->c[0], p->c[1], p->c[2]};
    return key3(p->n, c);
}

static int cmp_u(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Every distinct sub-multiset of n cards of the hand, as sorted keys. */
static int submultisets(const dab_hand *h, int n, unsigned *out)
{
    int inst[DAB_HAND], ni = 0, k = 0;
    for (int c = 0; c < DAB_NCARDS; c++)
        for (int j = 0; j < h->n[c]; j++)
            inst[ni++] = c;
    for (unsigned m = 0; m < 1u << ni; m++) {
        if (__builtin_popcount(m) != n)
            continue;
        int cards[3], nc = 0;
        for (int i = 0; i < ni; i++)
            if (m >> i & 1u)
                cards[nc++] = inst[i];     /* ascending: inst is sorted */
        out[k++] = key3(n, cards);
    }
    qsort(out, (size_t)k, sizeof *out, cmp_u);
    int d = 0;
    for (int i = 0; i < k; i++)
        if (!d || out[i] != out[d - 1])
            out[d++] = out[i];
    return d;
}

static void play_of_key(unsigned k, dab_play *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 2; i >= 0; i--) {
        p->c[i] = (uint8_t)(k % 64);
        k /= 64;
    }
    p->n = (uint8_t)k;
}

static void report(const char *what, const dab_hand *h, const dab_play *led, int level, int trump, unsigned key)
{
    char hs[128], ls[16] = "-", ps[16];
    dab_play p;
    dab_format_hand(h, hs, sizeof hs);
    if (led)
        dab_format_play(led, ls, sizeof ls);
    play_of_key(key, &p);
    dab_format_play(&p, ps, sizeof ps);
    fprintf(stderr, "  %s: level=%c,trump=%c hand %s led %s play %s\n", what, "3456789T"[level], "SHCD"[trump], hs,
            ls, ps);
}

/* A random small hand, often with pairs and triples of a few cards, often
 * in the led suit. */
static void random_hand(arb_rng *rng, const dab_trump *t, int f, dab_hand *h)
{
    memset(h, 0, sizeof *h);
    int size = 3 + (int)arb_rng_below(rng, 7);   /* 3..9 */
    int pool[8], npool = 1 + (int)arb_rng_below(rng, 6);
    for (int i = 0; i < npool; i++) {
        if (arb_rng_below(rng, 2))
            pool[i] = t->member[f][arb_rng_below(rng, t->nmember[f])];
        else
            pool[i] = (int)arb_rng_below(rng, DAB_NCARDS);
    }
    while (h->total < size) {
        int c = arb_rng_below(rng, 4) ? pool[arb_rng_below(rng, (uint64_t)npool)]
                                      : (int)arb_rng_below(rng, DAB_NCARDS);
        if (h->n[c] < DAB_COPIES) {
            h->n[c]++;
            h->total++;
        }
    }
}

static dab_play plays[DAB_MAX_PLAYS];
static unsigned all[1 << 9], want[1 << 9], got[DAB_MAX_PLAYS];

int main(int argc, char **argv)
{
    long hands = argc > 1 ? test_num(argv[1], 0, LONG_MAX) : 200000;
    arb_rng rng;
    arb_rng_seed(&rng, 20240612);
    long mismatches = 0, subsets = 0, shown = 0;
    long by_shape[4] = {0};
    for (long it = 0; it < hands; it++) {
        int level = (int)arb_rng_below(&rng, 8), trump = (int)arb_rng_below(&rng, 4);
        dab_trump t;
        dab_trump_init(&t, level, trump);
        /* the led play: a single, pair or triple of a random card */
        int lc = (int)arb_rng_below(&rng, DAB_NCARDS);
        dab_play led = {(uint8_t)(1 + arb_rng_below(&rng, 3)), {0}};
        for (int i = 0; i < led.n; i++)
            led.c[i] = (uint8_t)lc;
        int f = naive_suit(lc, level, trump);
        dab_hand h;
        random_hand(&rng, &t, t.fsuit[lc], &h);
        int hand[54], pc[54];
        for (int c = 0; c < 54; c++)
            hand[c] = h.n[c];

        /* follows: brute force against the enumerator and the checker */
        int na = submultisets(&h, led.n, all), nw = 0;
        for (int i = 0; i < na; i++) {
            dab_play p;
            play_of_key(all[i], &p);
            memset(pc, 0, sizeof pc);
            for (int j = 0; j < p.n; j++)
                pc[p.c[j]]++;
            bool legal = naive_legal(hand, pc, led.n, f, level, trump);
            if (legal)
                want[nw++] = all[i];
            char why[200];
            bool ok = dab_check_play(&t, &h, &led, &p, why, sizeof why) == 0;
            if (ok != legal) {
                mismatches++;
                if (shown++ < 20)
                    report(legal ? "dab_check_play refuses a legal follow" : "dab_check_play accepts an illegal follow",
                           &h, &led, level, trump, all[i]);
            }
            subsets++;
        }
        int n = dab_follows(&t, &h, &led, plays, DAB_MAX_PLAYS);
        CHECK(n >= 0);
        for (int i = 0; i < n; i++)
            got[i] = key_play(&plays[i]);
        qsort(got, (size_t)(n > 0 ? n : 0), sizeof *got, cmp_u);
        bool same = n == nw && memcmp(got, want, (size_t)nw * sizeof *got) == 0;
        if (!same) {
            mismatches++;
            if (shown++ < 20) {
                int i = 0, j = 0;
                while (i < n || j < nw) {
                    if (j >= nw || (i < n && got[i] < want[j]))
                        report("dab_follows lists an illegal follow", &h, &led, level, trump, got[i++]);
                    else if (i >= n || want[j] < got[i])
                        report("dab_follows misses a legal follow", &h, &led, level, trump, want[j++]);
                    else
                        i++, j++;
                }
            }
        }
        CHECK(nw > 0);                      /* some follow is always legal */
        by_shape[led.n]++;

        /* dab_random_follow: always one of the legal follows; with a small
         * list, every one of them comes out within many draws */
        if (nw > 0 && nw <= 12 && it % 8 == 0) {
            bool seen[1 << 9] = {false};
            int nseen = 0;
            for (int k = 0; k < 600; k++) {
                dab_play p;
                dab_random_follow(&t, &h, &led, &rng, &p);
                unsigned key = key_play(&p);
                unsigned *at = bsearch(&key, want, (size_t)nw, sizeof *want, cmp_u);
                if (!at) {
                    mismatches++;
                    if (shown++ < 20)
                        report("dab_random_follow plays an illegal follow", &h, &led, level, trump, key);
                    break;
                }
                if (!seen[at - want]) {
                    seen[at - want] = true;
                    nseen++;
                }
            }
            CHECKF(nseen == nw, "random follow reached %d of %d follows", nseen, nw);
        }

        /* leads (DB-20): every identical single, pair and triple, nothing else */
        if (it % 4 == 0) {
            int nl = 0;
            for (int size = 1; size <= 3; size++) {
                int ns = submultisets(&h, size, all);
                for (int i = 0; i < ns; i++) {
                    dab_play p;
                    play_of_key(all[i], &p);
                    bool ident = p.c[0] == p.c[p.n - 1];
                    char why[200];
                    if ((dab_check_play(&t, &h, NULL, &p, why, sizeof why) == 0) != ident) {
                        mismatches++;
                        if (shown++ < 20)
                            report("dab_check_play misjudges a lead", &h, NULL, level, trump, all[i]);
                    }
                    if (ident)
                        want[nl++] = all[i];
                }
            }
            qsort(want, (size_t)nl, sizeof *want, cmp_u);
            n = dab_leads(&t, &h, plays, DAB_MAX_PLAYS);
            for (int i = 0; i < n; i++)
                got[i] = key_play(&plays[i]);
            qsort(got, (size_t)(n > 0 ? n : 0), sizeof *got, cmp_u);
            CHECKF(n == nl && memcmp(got, want, (size_t)nl * sizeof *got) == 0, "leads differ (%d vs %d)", n, nl);
            dab_play p;
            dab_random_lead(&t, &h, &rng, &p);
            unsigned key = key_play(&p);
            CHECK(bsearch(&key, want, (size_t)nl, sizeof *want, cmp_u) != NULL);
        }
    }
    CHECKF(mismatches == 0, "%ld mismatches", mismatches);
    CHECK(by_shape[1] > 0 && by_shape[2] > 0 && by_shape[3] > 0);
    printf("%ld hands (%ld singles, %ld pairs, %ld triples led), %ld subsets classified\n", hands, by_shape[1],
           by_shape[2], by_shape[3], subsets);
    return TEST_DONE("dab-brute");
}
