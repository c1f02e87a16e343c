/* test_ddz_exhaustive.c — the enumerator against brute force. For each of
 * many random small hands (8..12 cards), every sub-multiset is classified by
 * the slow classifier; the legal leads (and the legal follows to a random
 * previous play) found that way must be exactly what ddz_leads/ddz_follows
 * return, with the same reading. Run for every preset and for a permissive
 * rule set with every optional category and kicker switch turned on. */
#include "ddz.h"
#include "test_num.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static ddz_move *buf, *buf2;
static uint64_t *brute, *fast;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every non-empty sub-multiset of hand, by odometer over the ranks. */
static int submultisets(ddz_cards hand, uint64_t *out, int cap)
{
    int n = 0;
    ddz_cards cur = 0;
    for (;;) {
        int x = 0;
        while (x < DDZ_NRANKS && ddz_count(cur, x) == ddz_count(hand, x)) {
            cur -= (ddz_cards)ddz_count(cur, x) << (4 * x);
            x++;
        }
        if (x == DDZ_NRANKS)
            return n;
        cur += DDZ_ONE(x);
        if (n < cap)
            out[n++] = cur;
    }
}

static ddz_cards random_hand(const ddz_rules *r, arb_rng *rng, int size)
{
    uint8_t deck[DDZ_MAX_CARDS];
    int nc = 54 * r->packs;
    for (int i = 0; i < nc; i++)
        deck[i] = (uint8_t)i;
    arb_rng_shuffle_u8(rng, deck, (size_t)nc);
    ddz_cards c = 0;
    for (int i = 0; i < size; i++)
        c += DDZ_ONE(ddz_card_rank(deck[i]));
    return c;
}

/* A hand biased towards trios and bombs, where kicker rules matter. */
static ddz_cards heavy_hand(const ddz_rules *r, arb_rng *rng, int size)
{
    ddz_cards c = 0;
    int n = 0, maxc = 4 * r->packs;
    while (n < size) {
        int x = (int)arb_rng_below(rng, 15);
        unsigned lim = x >= DDZ_RB ? r->packs : (unsigned)maxc;
        int want = 1 + (int)arb_rng_below(rng, 4);
        while (want-- > 0 && n < size && ddz_count(c, x) < lim) {
            c += DDZ_ONE(x);
            n++;
        }
    }
    return c;
}

static uint16_t wild;   /* wild ranks for the current rule set, 0 without */

static void check_hand(const ddz_rules *r, ddz_cards hand, const ddz_move *prev, const char *label)
{
    static uint64_t subs[1 << 16];
    int ns = submultisets(hand, subs, 1 << 16);
    int nb = 0;
    for (int i = 0; i < ns; i++) {
        ddz_move chosen;
        if (ddz_validate_w(r, wild, hand, prev, subs[i], 0, 0, &chosen, NULL, 0) == 0)
            brute[nb++] = subs[i];
    }
    if (prev)
        brute[nb++] = 0;   /* pass */
    int nf = prev ? ddz_follows_w(r, wild, hand, prev, buf, ARB_MAX_MOVES)
                  : ddz_leads_w(r, wild, hand, buf, ARB_MAX_MOVES);
    CHECK(nf >= 0);
    if (nf < 0)
        return;
    bool readings_ok = true;
    for (int i = 0; i < nf; i++) {
        fast[i] = buf[i].cards;
        ddz_move chosen;
        if (ddz_validate_w(r, wild, hand, prev, buf[i].cards, 0, 0, &chosen, NULL, 0) == 0 && buf[i].cards
            && (chosen.kind != buf[i].kind || chosen.rank != buf[i].rank || chosen.len != buf[i].len))
            readings_ok = false;
        /* A play validates with the reading and wild cards it was listed with. */
        if (buf[i].cards && ddz_validate_w(r, wild, hand, prev, buf[i].cards,
                                           ddz_move_represented(&buf[i], wild), 0, &chosen, NULL, 0) != 0)
            readings_ok = false;
    }
    qsort(brute, (size_t)nb, sizeof *brute, cmp_u64);
    qsort(fast, (size_t)nf, sizeof *fast, cmp_u64);
    bool same = nb == nf && memcmp(brute, fast, (size_t)nb * sizeof *brute) == 0;
    char h[128], p[128] = "";
    if (!same || !readings_ok) {
        ddz_cards_format(hand, h, sizeof h);
        if (prev)
            ddz_move_format_w(prev, wild, p, sizeof p);
        int i = 0, j = 0, shown = 0;
        while ((i < nb || j < nf) && shown < 5) {
            char t[128];
            if (j >= nf || (i < nb && brute[i] < fast[j])) {
                ddz_cards_format(brute[i++], t, sizeof t);
                fprintf(stderr, "  [%s] hand %s prev %s: enumerator misses %s\n", label, h, p, t);
                shown++;
            } else if (i >= nb || fast[j] < brute[i]) {
                ddz_cards_format(fast[j++], t, sizeof t);
                fprintf(stderr, "  [%s] hand %s prev %s: enumerator adds %s\n", label, h, p, t);
                shown++;
            } else {
                i++;
                j++;
            }
        }
    }
    CHECKF(same, "[%s] hand %s prev %s: %d brute-force moves, %d enumerated", label, h, p[0] ? p : "-", nb, nf);
    CHECKF(readings_ok, "[%s] hand %s: an enumerated reading differs from the validated one", label, h);
}

static void run_rules(const char *label, const ddz_rules *r, long samples, uint64_t seed)
{
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    int before = t_failed;
    for (long s = 0; s < samples && t_failed - before < 10; s++) {
        int size = 8 + (int)arb_rng_below(&rng, 5);
        ddz_cards hand = (s & 1) ? heavy_hand(r, &rng, size) : random_hand(r, &rng, size);
        check_hand(r, hand, NULL, label);
        /* A previous play: a random lead of another heavy hand. */
        ddz_cards other = heavy_hand(r, &rng, 12);
        int n = ddz_leads_w(r, wild, other, buf2, ARB_MAX_MOVES);
        if (n > 0) {
            ddz_move prev = buf2[arb_rng_below(&rng, (uint64_t)n)];
            check_hand(r, hand, &prev, label);
        }
    }
}

int main(int argc, char **argv)
{
    long samples = argc > 1 ? test_num(argv[1], 0, LONG_MAX) : 20000;
    buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    buf2 = malloc(ARB_MAX_MOVES * sizeof *buf2);
    brute = malloc((1 << 16) * sizeof *brute);
    fast = malloc(ARB_MAX_MOVES * sizeof *fast);
    if (!buf || !buf2 || !brute || !fast)
        return 1;
    static const char *const presets[] = {"standard", "rlcard", "douzero", "four-player"};
    for (int i = 0; i < 4; i++) {
        ddz_rules r;
        ddz_rules_preset(&r, presets[i]);
        run_rules(presets[i], &r, samples, 1000 + (uint64_t)i);
    }
    /* Everything optional on, and bombs protected. */
    const char *variants[] = {
        ("shuttle=true,shuttle_solo=true,shuttle_pair=true,kicker_same_rank=true,kicker_bomb=true,"
         "kicker_both_jokers=true,pair_kickers_same=true,small_three_bomb=true"),
        "split_bomb=false,airplane_solo_repeat=false,four_solo_pair=false,kicker_trio_adjacent=false",
        "split_bomb=false,small_three_bomb=true,chain.min=3,chain.max=7,airplane.max=2",
    };
    for (int i = 0; i < 3; i++) {
        ddz_rules r;
        char err[256];
        ddz_rules_preset(&r, "standard");
        CHECKF(ddz_rules_set_list(&r, variants[i], err, sizeof err) == 0, "%s", err);
        run_rules(variants[i], &r, samples / 2, 2000 + (uint64_t)i);
    }
    {
        ddz_rules r;
        char err[256];
        ddz_rules_preset(&r, "four-player");
        CHECKF(ddz_rules_set_list(&r, "split_bomb=false,shuttle=true,shuttle_pair=true,pair_kickers_same=true,"
                                      "kicker_bomb=true", err, sizeof err) == 0, "%s", err);
        run_rules("four-player permissive", &r, samples / 2, 3000);
    }
    /* Wild cards: one or two wild ranks drawn per sample batch. */
    for (int i = 0; i < 2; i++) {
        ddz_rules r;
        ddz_rules_preset(&r, "standard");
        if (i == 1)
            r.small_three_bomb = true, r.split_bomb = false;
        arb_rng wr;
        arb_rng_seed(&wr, 4000 + (uint64_t)i);
        for (int batch = 0; batch < 20; batch++) {
            wild = (uint16_t)(1u << arb_rng_below(&wr, 13));
            if (batch & 1)
                wild |= (uint16_t)(1u << arb_rng_below(&wr, 13));
            run_rules(i ? "wild, small3, no split" : "wild", &r, samples / 200 + 1, 5000 + (uint64_t)batch);
        }
        wild = 0;
    }
    free(buf);
    free(buf2);
    free(brute);
    free(fast);
    return TEST_DONE("ddz-exhaustive");
}
