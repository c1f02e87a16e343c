/* cmd_bench_referee.c — `arbiter bench referee`: what the referee costs per
 * bot decision, measured beside the floor it cannot beat: a bare pipe round
 * trip between two processes, timed in the same run. Prints "name value
 * unit" lines (medians of several runs); never fails on time.
 *
 * The decisions are timed while the deals are played, from the first
 * deal's start to the last deal's end (an observer of the match): the
 * bots' start-up (a sandbox each, the handshake) and their stop are timed
 * apart and reported on their own line. A whole-match rate would charge
 * the start-up to however many decisions the match happens to last: a Da
 * Bang match ends once a team passes its goal level, after a handful of
 * deals, while a Dou Dizhu match plays every deal asked for, and the two
 * ratios would compare match lengths rather than the referee. */
#include "cli.h"
#include "bench_util.h"
#include "live.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNS 5

/* When the first deal started and the last one ended, on the clock and
 * in the referee's CPU time (the match is judged on this thread). */
typedef struct deal_clock {
    uint64_t first_start_ns, last_end_ns;
    uint64_t first_start_cpu_ns, last_end_cpu_ns;
} deal_clock;

static void clock_deal_start(void *ctx, const match_deal *d, const void *state)
{
    (void)d; (void)state;
    deal_clock *c = ctx;
    if (!c->first_start_ns) {
        c->first_start_ns = arb_now_ns();
        c->first_start_cpu_ns = arb_thread_cpu_ns();
    }
}

static void clock_deal_end(void *ctx, const match_deal *d, const void *state)
{
    (void)d; (void)state;
    deal_clock *c = ctx;
    c->last_end_ns = arb_now_ns();
    c->last_end_cpu_ns = arb_thread_cpu_ns();
}

/* One match: decisions and deals per second while dealing, the referee's
 * and the bots' CPU per decision (the bots' from their turn's start to the
 * end of their reply, reading the events included), and the rest of the
 * match's time (the bots' start-up and stop) in ms. */
static int referee_match(const arb_game *g, const char *bot, uint32_t deals, int sandbox, double *decisions_per_s,
                       double *deals_per_s, double *cpu_us, double *bots_cpu_us, double *outside_ms, int *nbots)
{
    match_config cfg;
    match_config_init(&cfg, g);
    cfg.deals = deals;
    cfg.seed = 2026;
    cfg.move_ms = 5000;
    /* as many copies of the bot as the game's default rules seat */
    void *rules = cli_rules_new(g, NULL, NULL);
    if (!rules)
        return 1;
    cfg.nbots = g->seats(rules);
    free(rules);
    for (int b = 0; b < cfg.nbots; b++) {
        snprintf(cfg.bots[b].name, sizeof cfg.bots[b].name, "random%d", b);
        snprintf(cfg.bots[b].argv[0], sizeof cfg.bots[b].argv[0], "%s", bot);
        cfg.bots[b].argc = 1;
    }
    char err[256];
    live_options lo = {.sandbox = sandbox};
    live_driver *l = live_new(&lo, err, sizeof err);
    if (!l) {
        fprintf(stderr, "arbiter: bench: %s\n", err);
        return 1;
    }
    match_result res;
    char hex[65];
    deal_clock clock = {0, 0, 0, 0};
    const match_observer obs = {.ctx = &clock, .deal_start = clock_deal_start, .deal_end = clock_deal_end};
    uint64_t t0 = arb_now_ns();
    int rc = record_match(NULL, &cfg, live_driver_of(l), &obs, &res, hex);   /* the digest is computed, nothing stored */
    uint64_t t1 = arb_now_ns();
    live_free(l);
    if (rc == 0 && (!clock.first_start_ns || clock.last_end_ns <= clock.first_start_ns)) {
        rc = ARB_ESTATE;
        snprintf(res.error, sizeof res.error, "no deal was timed");
    }
    if (rc) {
        fprintf(stderr, "arbiter: bench: match failed: %s\n", res.error);
        match_result_release(&res);
        return 1;
    }
    uint32_t pen = 0;
    uint64_t bots_cpu_ns = 0;
    for (int b = 0; b < res.nbots; b++) {
        pen += res.bots[b].penalties;
        bots_cpu_ns += res.bots[b].cpu_ns;
    }
    if (pen)
        fprintf(stderr, "arbiter: bench: %u penalties: the figures include them\n", pen);
    double s = (double)(clock.last_end_ns - clock.first_start_ns) / 1e9;
    *nbots = res.nbots;
    *decisions_per_s = (double)res.decisions / s;
    *deals_per_s = res.ndeals / s;
    *cpu_us = res.decisions ? (double)(clock.last_end_cpu_ns - clock.first_start_cpu_ns) / 1e3 / (double)res.decisions
                            : 0;
    *bots_cpu_us = res.decisions ? (double)bots_cpu_ns / 1e3 / (double)res.decisions : 0;
    *outside_ms = (double)(t1 - t0 - (clock.last_end_ns - clock.first_start_ns)) / 1e6;
    match_result_release(&res);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter bench referee --bot PATH [--game NAME] [--deals N] [--sandbox auto|none]\n"
               "                             [--format table|json]\n"
               "  PATH: a fast bot (the SDK's random_bot). Prints the bare pipe round trip\n"
               "  beside the referee's decisions per second and deals per second, timed\n"
               "  while the deals are played, and the bots' start-up and stop apart.\n");
}

int bench_referee(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"bot", required_argument, NULL, 'b'},
        {"game", required_argument, NULL, 'g'},
        {"deals", required_argument, NULL, 'd'},
        {"sandbox", required_argument, NULL, 's'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    const char *bot = NULL, *game = NULL;
    long long deals = 200;
    int sandbox = LIVE_SANDBOX_AUTO;
    cli_format format = CLI_FORMAT_TABLE;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("bench referee", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'b': bot = optarg; break;
        case 'g': game = optarg; break;
        case 'd':
            if (cli_int_arg("bench referee", "deals", optarg, 1, ARB_MAX_DEALS, &deals))
                return CLI_EXIT_USAGE;
            break;
        case 's':
            if (strcmp(optarg, "none") && strcmp(optarg, "auto")) {
                fprintf(stderr, "arbiter: bench referee: --sandbox \"%s\": expected auto or none\n", optarg);
                return CLI_EXIT_USAGE;
            }
            sandbox = strcmp(optarg, "none") == 0 ? LIVE_SANDBOX_NONE : LIVE_SANDBOX_AUTO;
            break;
        case 'f':
            if (cli_format_parse("bench referee", optarg, CLI_FORMATS_TJ, &format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!bench_bot_usable("referee", bot))
        return CLI_EXIT_USAGE;
    const arb_game *g = cli_game(game);
    if (!g)
        return CLI_EXIT_USAGE;
    double rt[RUNS], rt_cpu[RUNS], dec[RUNS], dec_cpu[RUNS], bots_cpu[RUNS], dl[RUNS], out[RUNS];
    int nbots = 0;
    for (int run = 0; run < RUNS; run++) {
        rt[run] = bench_pipe_round_trips(20000, 64, &rt_cpu[run]);
        if (referee_match(g, bot, (uint32_t)deals, sandbox, &dec[run], &dl[run], &dec_cpu[run], &bots_cpu[run], &out[run],
                        &nbots))
            return CLI_EXIT_FAIL;
    }
    double rtm = bench_median(rt, RUNS), decm = bench_median(dec, RUNS), dlm = bench_median(dl, RUNS);
    double outm = bench_median(out, RUNS), rt_cpum = bench_median(rt_cpu, RUNS), dec_cpum = bench_median(dec_cpu, RUNS);
    double bots_cpum = bench_median(bots_cpu, RUNS);
    char deals_name[64];
    snprintf(deals_name, sizeof deals_name, "referee_deals_%d_bots", nbots);
    const bench_figure figs[] = {
        {"pipe_round_trips", rtm, "per_second", 0},
        {"pipe_round_trip_us", 1e6 / rtm, "us", 2},
        {"referee_decisions", decm, "per_second", 0},
        {"referee_us_per_decision", 1e6 / decm, "us", 2},
        {deals_name, dlm, "per_second", 1},
        {"decision_cost_vs_pipe_round_trip", rtm / decm, "x", 2},
        {"pipe_cpu_us_per_round_trip", rt_cpum, "us", 2},
        {"referee_cpu_us_per_decision", dec_cpum, "us", 2},
        {"bots_cpu_us_per_decision", bots_cpum, "us", 2},
        {"match_start_stop_ms", outm, "ms", 1},
    };
    char title[96];
    snprintf(title, sizeof title, "referee %s", g->name);
    bench_print(format == CLI_FORMAT_JSON ? title : NULL, figs, sizeof figs / sizeof figs[0], format);
    return 0;
}
