/* cmd_bench.c — `arbiter bench rules`: throughput of the rules engine, one
 * core, printed as "name value unit" lines (medians of several runs). Not a
 * test: it never fails on time; it reports. */
#include "cli.h"
#include "policy.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "arb_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NHANDS 4096
#define RUNS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double cli_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

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

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter bench rules [--rules PRESET] [--seconds S]\n"
               "       arbiter bench referee --bot PATH [--deals N]   (pipe round trip vs referee)\n"
               "       arbiter bench tournament --bot PATH            (record vs referee alone; Swiss 10k)\n"
               "       arbiter bench dispatch --bot PATH [--workers N] (N referee daemons vs arbiter run)\n"
               "  Prints, one per line as `name value unit`, medians of %d runs:\n"
               "  lead enumerations per second (random 20-card hands), follow\n"
               "  enumerations per second (17-card hands against a random play), and full\n"
               "  random self-play deals per second including landlord selection.\n", RUNS);
}

int cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "referee") == 0)
        return bench_referee(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "tournament") == 0)
        return bench_tournament(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "dispatch") == 0)
        return bench_dispatch(argc, argv);
    if (argc < 2 || strcmp(argv[1], "rules") != 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    double seconds = 0.4;
    for (int i = 2; i < argc; i++) {
        if ((strcmp(argv[i], "--rules") == 0 || strcmp(argv[i], "--set") == 0) && i + 1 < argc) {
            if (cli_rules_option(&r, argv[i], argv[i + 1]))
                return 2;
            i++;
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else {
            usage(stderr);
            return 2;
        }
    }
    ddz_move *buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    ddz_cards *hands = malloc(NHANDS * sizeof *hands);
    ddz_cards *fhands = malloc(NHANDS * sizeof *fhands);
    ddz_move *prevs = malloc(NHANDS * sizeof *prevs);
    if (!buf || !hands || !fhands || !prevs)
        return 1;
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
    double lm = cli_median(lead, RUNS), fm = cli_median(follow, RUNS), dm = cli_median(deal, RUNS);
    printf("rules %s\n", r.preset);
    printf("lead_enumerations_%dcards %.0f per_second\n", lead_size, lm);
    printf("lead_moves_per_hand %.1f moves\n", mpl);
    printf("lead_ns_per_hand %.1f ns\n", 1e9 / lm);
    printf("follow_enumerations_%dcards %.0f per_second\n", r.hand_size, fm);
    printf("selfplay_deals %.0f per_second\n", dm);
    printf("selfplay_decisions_per_deal %.1f decisions\n", decisions);
    printf("selfplay_ns_per_decision %.1f ns\n", 1e9 / (dm * decisions));
    printf("lead_ratio_vs_goal %.2f x_of_1000000\n", lm / 1e6);
    printf("deal_ratio_vs_goal %.2f x_of_100000\n", dm / 1e5);
    free(buf);
    free(hands);
    free(fhands);
    free(prevs);
    return 0;
}
