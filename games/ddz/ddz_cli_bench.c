/* ddz_cli_bench.c — `arbiter bench rules` for Dou Dizhu: throughput of the
 * rules engine, one core, printed as "name value unit" lines or JSON
 * (medians of several runs). Not a test: it never fails on time; it
 * reports. */
#include "ddz_cli.h"
#include "bench_util.h"
#include "ddz_policy.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "arb_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NHANDS 4096
#define RUNS 5

/* Random hands of `size` cards from shuffled packs. */
static void random_hands(const ddz_rules *r, arb_rng *rng, ddz_cards *hands, int n, int size)
{
    uint8_t deck[DDZ_MAX_CARDS];
    int ncards = 54 * r->packs;
    for (int h = 0; h < n; h++) {
        for (int i = 0; i < ncards; i++)
            deck[i] = (uint8_t)i;
        arb_rng_shuffle_u8(rng, deck, (size_t)ncards);
        ddz_cards c = 0;
        for (int i = 0; i < size; i++)
            c += DDZ_ONE(ddz_card_rank(deck[i]));
        hands[h] = c;
    }
}

static volatile uint64_t sink;

static double bench_leads(const ddz_rules *r, const ddz_cards *hands, ddz_move *buf, double seconds, double *moves_per)
{
    uint64_t t0 = arb_now_ns(), n = 0, moves = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    do {
        for (int i = 0; i < NHANDS; i++) {
            int k = ddz_leads(r, hands[i], buf, ARB_MAX_MOVES);
            moves += (uint64_t)k;
            sink += buf[0].cards;
        }
        n += NHANDS;
    } while (arb_now_ns() - t0 < limit);
    double el = (double)(arb_now_ns() - t0) / 1e9;
    *moves_per = (double)moves / (double)n;
    return (double)n / el;
}

static double bench_follows(const ddz_rules *r, const ddz_cards *hands, const ddz_move *prevs, ddz_move *buf, double seconds)
{
    uint64_t t0 = arb_now_ns(), n = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    do {
        for (int i = 0; i < NHANDS; i++) {
            int k = ddz_follows(r, hands[i], &prevs[i], buf, ARB_MAX_MOVES);
            sink += (uint64_t)k;
        }
        n += NHANDS;
    } while (arb_now_ns() - t0 < limit);
    return (double)n / ((double)(arb_now_ns() - t0) / 1e9);
}

static double bench_deals(const ddz_rules *r, ddz_move *buf, double seconds, double *decisions_per_deal)
{
    policy_ctx pc;
    arb_rng_seed(&pc.rng, 99);
    uint64_t t0 = arb_now_ns(), n = 0, dec = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    ddz_state s;
    int64_t sc[DDZ_MAX_SEATS];
    do {
        for (int i = 0; i < 256; i++) {
            if (ddz_run_deal(&s, r, n + (uint64_t)i, policy_random, &pc, NULL, NULL, buf, ARB_MAX_MOVES, sc))
                abort();
            dec += s.decisions;
        }
        n += 256;
    } while (arb_now_ns() - t0 < limit);
    *decisions_per_deal = (double)dec / (double)n;
    return (double)n / ((double)(arb_now_ns() - t0) / 1e9);
}

int ddz_cli_bench(const void *rules, double seconds, cli_format format)
{
    const ddz_rules r = *(const ddz_rules *)rules;
    ddz_move *buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    ddz_cards *hands = malloc(NHANDS * sizeof *hands);
    ddz_cards *fhands = malloc(NHANDS * sizeof *fhands);
    ddz_move *prevs = malloc(NHANDS * sizeof *prevs);
    if (!buf || !hands || !fhands || !prevs)
        return CLI_EXIT_FAIL;
    arb_rng rng;
    arb_rng_seed(&rng, 20261122);
    int lead_size = r.hand_size + r.kitty_size;
    random_hands(&r, &rng, hands, NHANDS, lead_size);
    random_hands(&r, &rng, fhands, NHANDS, r.hand_size);
    /* Each follow position answers a uniformly chosen lead of another hand. */
    for (int i = 0; i < NHANDS; i++) {
        int k = ddz_leads(&r, hands[(i + 1) % NHANDS], buf, ARB_MAX_MOVES);
        prevs[i] = buf[arb_rng_below(&rng, (uint64_t)k)];
    }
    double lead[RUNS], follow[RUNS], deal[RUNS], mpl = 0;
    double decisions = 0;
    for (int run = 0; run < RUNS; run++) {
        lead[run] = bench_leads(&r, hands, buf, seconds, &mpl);
        follow[run] = bench_follows(&r, fhands, prevs, buf, seconds);
        deal[run] = bench_deals(&r, buf, seconds, &decisions);
    }
    double lm = bench_median(lead, RUNS), fm = bench_median(follow, RUNS), dm = bench_median(deal, RUNS);
    bench_figure figs[] = {
        {"lead_enumerations", lm, "per_second", 0},
        {"lead_moves_per_hand", mpl, "moves", 1},
        {"lead_ns_per_hand", 1e9 / lm, "ns", 1},
        {"follow_enumerations", fm, "per_second", 0},
        {"selfplay_deals", dm, "per_second", 0},
        {"selfplay_decisions_per_deal", decisions, "decisions", 1},
        {"selfplay_ns_per_decision", 1e9 / (dm * decisions), "ns", 1},
        /* 10x the best public C++ generator measured on this machine
         * (about 235,000 twenty-card leads a second at -O3) */
        {"lead_ratio_vs_goal", lm / 2.4e6, "x_of_2400000", 2},
        {"deal_ratio_vs_goal", dm / 1e5, "x_of_100000", 2},
    };
    char lead_name[64], follow_name[64];
    snprintf(lead_name, sizeof lead_name, "lead_enumerations_%dcards", lead_size);
    snprintf(follow_name, sizeof follow_name, "follow_enumerations_%dcards", r.hand_size);
    figs[0].name = lead_name;
    figs[3].name = follow_name;
    char title[64];
    snprintf(title, sizeof title, "rules %s", r.preset);
    bench_print(title, figs, sizeof figs / sizeof figs[0], format);
    free(buf);
    free(hands);
    free(fhands);
    free(prevs);
    return CLI_EXIT_OK;
}
