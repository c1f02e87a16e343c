/* cmd_bench_referee.c — `arbiter bench referee`: what the referee costs per
 * bot decision, measured beside the floor it cannot beat: a bare pipe round
 * trip between two processes, timed in the same run. Prints "name value
 * unit" lines (medians of several runs); never fails on time. */
#include "cli.h"
#include "live.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "arb_time.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNS 5

/* Round trips per second of a line of `len` bytes through two pipes to a
 * child process that echoes it: the cost of one request and one reply with
 * nothing else done on either side. */
static double pipe_round_trips(int count, size_t len)
{
    int down[2], up[2];
    if (pipe(down) || pipe(up))
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        char buf[4096];
        for (;;) {
            ssize_t n = read(down[0], buf, sizeof buf);
            if (n <= 0 || write(up[1], buf, (size_t)n) != n)
                _exit(0);
        }
    }
    close(down[0]);
    close(up[1]);
    char line[512], back[512];
    memset(line, 'x', len - 1);
    line[len - 1] = '\n';
    uint64_t t0 = arb_now_ns();
    for (int i = 0; i < count; i++) {
        if (write(down[1], line, len) != (ssize_t)len)
            break;
        size_t got = 0;
        while (got < len) {
            ssize_t n = read(up[0], back + got, sizeof back - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
    }
    double s = (double)(arb_now_ns() - t0) / 1e9;
    close(down[1]);
    close(up[0]);
    waitpid(pid, NULL, 0);
    return count / s;
}

static int bench_match(const char *bot, uint32_t deals, int sandbox, double *decisions_per_s, double *deals_per_s)
{
    match_config cfg;
    match_config_init(&cfg, &arb_game_doudizhu);
    cfg.deals = deals;
    cfg.seed = 2026;
    cfg.nbots = 3;
    cfg.move_ms = 5000;
    for (int b = 0; b < 3; b++) {
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
    uint64_t t0 = arb_now_ns();
    int rc = record_match(NULL, &cfg, live_driver_of(l), NULL, &res, hex);   /* the digest is computed, nothing stored */
    double s = (double)(arb_now_ns() - t0) / 1e9;
    live_free(l);
    if (rc) {
        fprintf(stderr, "arbiter: bench: match failed: %s\n", res.error);
        match_result_release(&res);
        return 1;
    }
    uint32_t pen = 0;
    for (int b = 0; b < 3; b++)
        pen += res.bots[b].penalties;
    if (pen)
        fprintf(stderr, "arbiter: bench: %u penalties: the figures include them\n", pen);
    *decisions_per_s = (double)res.decisions / s;
    *deals_per_s = res.ndeals / s;
    match_result_release(&res);
    return 0;
}

int bench_referee(int argc, char **argv)
{
    const char *bot = NULL;
    uint32_t deals = 200;
    int sandbox = LIVE_SANDBOX_AUTO;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--bot") == 0 && i + 1 < argc) {
            bot = argv[++i];
        } else if (strcmp(argv[i], "--deals") == 0 && i + 1 < argc) {
            deals = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--sandbox") == 0 && i + 1 < argc) {
            i++;
            sandbox = strcmp(argv[i], "none") == 0 ? LIVE_SANDBOX_NONE : LIVE_SANDBOX_AUTO;
        } else {
            fprintf(stderr, "usage: arbiter bench referee --bot PATH [--deals N] [--sandbox auto|none]\n"
                            "  PATH: a fast bot (the SDK's random_bot). Prints the bare pipe round trip\n"
                            "  beside the referee's decisions per second and deals per second.\n");
            return 2;
        }
    }
    if (!bot || bot[0] != '/') {
        fprintf(stderr, "arbiter: bench referee: --bot needs an absolute path to a bot (random_bot)\n");
        return 2;
    }
    if (deals < 1)
        deals = 1;
    double rt[RUNS], dec[RUNS], dl[RUNS];
    for (int run = 0; run < RUNS; run++) {
        rt[run] = pipe_round_trips(20000, 64);
        if (bench_match(bot, deals, sandbox, &dec[run], &dl[run]))
            return 1;
    }
    double rtm = cli_median(rt, RUNS), decm = cli_median(dec, RUNS), dlm = cli_median(dl, RUNS);
    printf("pipe_round_trips %.0f per_second\n", rtm);
    printf("pipe_round_trip_us %.2f us\n", 1e6 / rtm);
    printf("referee_decisions %.0f per_second\n", decm);
    printf("referee_us_per_decision %.2f us\n", 1e6 / decm);
    printf("referee_deals_3_bots %.1f per_second\n", dlm);
    printf("decision_cost_vs_pipe_round_trip %.2f x\n", rtm / decm);
    return 0;
}
