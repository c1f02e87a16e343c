/* dab_cli_bench.c — `arbiter bench rules --game dabang`: throughput of the Da
 * Bang engine on one core, printed as "name value unit" lines or JSON
 * (medians of several runs): legal follows enumerated, tricks judged, and
 * whole random deals (the draw with declaring, tribute, the kitty, 39
 * tricks, the score) played through the engine's own API and through the
 * game interface. Not a test: it never fails on time; it reports. */
#include "dab_cli.h"
#include "bench_util.h"
#include "arb_error.h"
#include "arb_rng.h"
#include "arb_time.h"
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOOL 4096
#define RUNS 5

/* A position: a deal's trumps, a hand of 39 cards, a led play from
 * another hand of the same deal, and a whole trick. */
typedef struct position {
    dab_trump trump;
    dab_hand hand;
    dab_play led;
    dab_play trick[DAB_SEATS];
} position;

static void make_pool(position *pool, int n, arb_rng *rng)
{
    uint8_t deck[DAB_DECK];
    for (int k = 0; k < n; k++) {
        position *p = &pool[k];
        for (int i = 0; i < DAB_DECK; i++)
            deck[i] = (uint8_t)(i / DAB_COPIES);
        arb_rng_shuffle_u8(rng, deck, DAB_DECK);
        dab_trump_init(&p->trump, (int)arb_rng_below(rng, DAB_LEVEL_MAX + 1), (int)arb_rng_below(rng, 4));
        dab_hand hands[DAB_SEATS];
        memset(hands, 0, sizeof hands);
        for (int i = 0; i < DAB_SEATS * DAB_HAND; i++) {
            hands[i % DAB_SEATS].n[deck[i]]++;
            hands[i % DAB_SEATS].total++;
        }
        p->hand = hands[0];
        dab_random_lead(&p->trump, &hands[1], rng, &p->led);
        p->trick[0] = p->led;
        for (int s = 1; s < DAB_SEATS; s++)
            dab_random_follow(&p->trump, &hands[(s + 1) % DAB_SEATS], &p->led, rng, &p->trick[s]);
    }
}

static volatile uint64_t sink;

static double bench_follows(const position *pool, dab_play *buf, double seconds, double *plays_per)
{
    uint64_t t0 = arb_now_ns(), n = 0, plays = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    do {
        for (int i = 0; i < NPOOL; i++) {
            int k = dab_follows(&pool[i].trump, &pool[i].hand, &pool[i].led, buf, DAB_MAX_PLAYS);
            plays += (uint64_t)k;
            sink += buf[0].c[0];
        }
        n += NPOOL;
    } while (arb_now_ns() - t0 < limit);
    *plays_per = (double)plays / (double)n;
    return (double)n / ((double)(arb_now_ns() - t0) / 1e9);
}

static double bench_tricks(const position *pool, double seconds)
{
    uint64_t t0 = arb_now_ns(), n = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    do {
        for (int i = 0; i < NPOOL; i++) {
            int w = dab_trick_winner(&pool[i].trump, pool[i].trick, DAB_SEATS);
            int pts = 0;
            for (int s = 0; s < DAB_SEATS; s++)
                pts += dab_play_points(&pool[i].trick[s]);
            sink += (uint64_t)(w + pts);
        }
        n += NPOOL;
    } while (arb_now_ns() - t0 < limit);
    return (double)n / ((double)(arb_now_ns() - t0) / 1e9);
}

/* One deal of a match played at random through the engine's API: every
 * decision chosen uniformly among its options (plays: dab_random_lead and
 * dab_random_follow, not uniform over the plays). Returns the decisions. */
static int random_deal(dab_state *s, dab_match *m, const dab_rules *r, uint64_t seed, arb_rng *rng)
{
    static const uint8_t player_at[DAB_SEATS] = {0, 1, 2, 3};
    char why[160];
    int decisions = 0;
    if (dab_match_over(m))
        dab_match_init(m, r, 0);
    dab_context ctx;
    dab_match_context(m, player_at, &ctx);
    dab_deal_in(s, r, seed, &ctx);
    int rc = 0;
    while (s->phase != DAB_PH_OVER && rc == 0) {
        decisions++;
        rc = dab_random_act(s, rng, why, sizeof why);
    }
    if (rc) {
        fprintf(stderr, "arbiter: bench rules: deal %llu: %s\n", (unsigned long long)seed, why);
        abort();
    }
    dab_match_fold(m, s, player_at, -1);
    return decisions;
}

static double bench_deals(const dab_rules *r, double seconds, double *decisions_per_deal)
{
    arb_rng rng;
    arb_rng_seed(&rng, 99);
    dab_match m;
    dab_match_init(&m, r, 0);
    dab_state s;
    uint64_t t0 = arb_now_ns(), n = 0, dec = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    do {
        for (int i = 0; i < 64; i++)
            dec += (uint64_t)random_deal(&s, &m, r, n + (uint64_t)i, &rng);
        n += 64;
    } while (arb_now_ns() - t0 < limit);
    *decisions_per_deal = (double)dec / (double)n;
    return (double)n / ((double)(arb_now_ns() - t0) / 1e9);
}

/* The same through the game interface, as the referee plays: every
 * legal action listed, one chosen uniformly, applied. */
static double bench_deals_interface(const dab_rules *r, arb_action *legal, size_t cap, double seconds)
{
    static const uint8_t player_at[DAB_SEATS] = {0, 1, 2, 3};
    const arb_game *g = &arb_game_dabang;
    arb_rng rng;
    arb_rng_seed(&rng, 99);
    dab_match m;
    dab_state s;
    int64_t scores[DAB_SEATS];
    g->match_init(&m, r, 0);
    uint64_t t0 = arb_now_ns(), n = 0;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    do {
        for (int i = 0; i < 16; i++) {
            if (g->match_over(&m))
                g->match_init(&m, r, 0);
            if (g->deal(&s, r, n + (uint64_t)i) || g->deal_setup(&s, &m, player_at))
                abort();
            while (!g->over(&s)) {
                int k = g->legal(&s, legal, cap);
                if (k <= 0 || g->apply(&s, &legal[arb_rng_below(&rng, (uint64_t)k)]))
                    abort();
            }
            g->score(&s, scores, DAB_SEATS);
            g->match_deal_done(&m, &s, player_at, scores, -1);
        }
        n += 16;
    } while (arb_now_ns() - t0 < limit);
    return (double)n / ((double)(arb_now_ns() - t0) / 1e9);
}

int dab_cli_bench(const void *rules, double seconds, cli_format format)
{
    const dab_rules *r = rules;
    size_t cap = DAB_MAX_PLAYS + 64;
    dab_play *buf = malloc(DAB_MAX_PLAYS * sizeof *buf);
    position *pool = malloc(NPOOL * sizeof *pool);
    arb_action *legal = malloc(cap * sizeof *legal);
    if (!buf || !pool || !legal) {
        free(buf);
        free(pool);
        free(legal);
        fprintf(stderr, "arbiter: bench rules: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    arb_rng rng;
    arb_rng_seed(&rng, 20261122);
    make_pool(pool, NPOOL, &rng);
    double follow[RUNS], trick[RUNS], deal[RUNS], via[RUNS], plays_per = 0, decisions = 0;
    for (int run = 0; run < RUNS; run++) {
        follow[run] = bench_follows(pool, buf, seconds, &plays_per);
        trick[run] = bench_tricks(pool, seconds);
        deal[run] = bench_deals(r, seconds, &decisions);
        via[run] = bench_deals_interface(r, legal, cap, seconds);
    }
    double fm = bench_median(follow, RUNS), tm = bench_median(trick, RUNS), dm = bench_median(deal, RUNS);
    double vm = bench_median(via, RUNS);
    bench_figure figs[] = {
        {"follow_enumerations_39cards", fm, "per_second", 0},
        {"follow_plays_per_hand", plays_per, "plays", 1},
        {"tricks_judged", tm, "per_second", 0},
        {"selfplay_deals", dm, "per_second", 0},
        {"selfplay_decisions_per_deal", decisions, "decisions", 1},
        {"selfplay_us_per_deal", 1e6 / dm, "us", 2},
        {"selfplay_deals_via_interface", vm, "per_second", 0},
        {"deal_ratio_vs_goal", dm / 5e4, "x_of_50000", 2},
    };
    char title[64];
    snprintf(title, sizeof title, "rules dabang");
    bench_print(title, figs, sizeof figs / sizeof figs[0], format);
    free(buf);
    free(pool);
    free(legal);
    return CLI_EXIT_OK;
}
