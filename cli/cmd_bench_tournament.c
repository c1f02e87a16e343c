/* cmd_bench_tournament.c — `arbiter bench tournament`: matches recorded per
 * second end to end (scheduler, ZeroMQ, PostgreSQL, one local worker)
 * beside the referee alone playing the same number of matches in the same
 * run — the ratio is what the record costs — and the time to pair one Swiss
 * round of 10,000 entrants. "name value unit" lines, medians; never fails
 * on time. */
#include "cli.h"
#include "config.h"
#include "live.h"
#include "pgctl.h"
#include "plan.h"
#include "run.h"
#include "store.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RUNS 3
#define ENTRANTS 9   /* C(9, 3) = 84 matches */

/* The referee alone: the same number of three-bot matches, one after the
 * other, each with its transcript written. Matches per second. */
static double referee_alone(const char *bot, const char *dir, int matches, const char *bwrap)
{
    uint64_t t0 = arb_now_ns();
    for (int m = 0; m < matches; m++) {
        match_config cfg;
        match_config_init(&cfg, &arb_game_doudizhu);
        cfg.seed = (uint64_t)m + 1;
        cfg.nbots = 3;
        cfg.move_ms = 5000;
        for (int b = 0; b < 3; b++) {
            snprintf(cfg.bots[b].name, sizeof cfg.bots[b].name, "r%d", b);
            snprintf(cfg.bots[b].argv[0], sizeof cfg.bots[b].argv[0], "%s", bot);
            cfg.bots[b].argc = 1;
        }
        char err[256], path[600];
        snprintf(path, sizeof path, "%s/alone-%d.arbt", dir, m);
        live_options lo = {.bwrap = bwrap};   /* probed once, as the workers do */
        live_driver *l = live_new(&lo, err, sizeof err);
        int rc;
        tr_sink *sink = l ? tr_writer_open(path, &rc) : NULL;
        match_result res;
        if (sink)
            match_run(&cfg, live_driver_of(l), sink, NULL, &res);
        char hex[65];
        if (sink) {
            tr_close(sink, hex);
            match_result_release(&res);
        }
        live_free(l);
        unlink(path);
    }
    return matches / ((double)(arb_now_ns() - t0) / 1e9);
}

int bench_tournament(int argc, char **argv)
{
    const char *bot = NULL;
    for (int i = 2; i + 1 < argc; i++)
        if (strcmp(argv[i], "--bot") == 0)
            bot = argv[++i];
    if (!bot || bot[0] != '/') {
        fprintf(stderr, "usage: arbiter bench tournament --bot /abs/path/random_bot\n");
        return 2;
    }
    /* Swiss pairing, 10,000 entrants, after three rounds. */
    double swiss[5];
    int tables = 0;
    for (int r = 0; r < 5; r++) {
        uint64_t t0 = arb_now_ns();
        if (plan_bench_swiss(10000, 3, 3, 42u + (uint64_t)r, &tables) != 0)
            return 1;
        swiss[r] = (double)(arb_now_ns() - t0) / 1e6;
    }
    printf("swiss_pairing_10000_entrants %.2f ms\n", cli_median(swiss, 5));
    printf("swiss_tables_10000_entrants %d tables\n", tables);

    char dir[] = "/tmp/arbiter-bench-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    chmod(dir, 0755);   /* the private cluster runs as postgres when we are root */
    char path[600], err[1024];
    snprintf(path, sizeof path, "%s/bench.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "name: bench\nformat: round-robin\ndeals: 1\nseed: 3\nclock: {move_ms: 5000}\nentrants:\n");
    for (int i = 0; i < ENTRANTS; i++)
        fprintf(f, "  - name: r%d\n    command: %s\n", i, bot);
    fclose(f);
    tn_config cfg;
    if (tn_config_load(path, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    pgctl pg;
    char state[700];
    snprintf(state, sizeof state, "%s/state", dir);
    if (pgctl_start(&pg, state, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench: %s\n", err);
        return 1;
    }
    store *st = store_open(pg.conninfo, err, sizeof err);
    if (!st || store_migrate(st, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench: %s\n", err);
        pgctl_stop(&pg);
        return 1;
    }
    double e2e[RUNS], e2e2[RUNS], alone[RUNS];
    int matches = 84;
    for (int r = 0; r < RUNS; r++) {
        for (int w = 1; w <= 2; w++) {
            snprintf(cfg.name, sizeof cfg.name, "bench-%d-%d", r, w);
            run_options ro = {.cfg = &cfg, .yaml = "bench", .digest = cfg.name, .state_dir = state, .db = st,
                              .workers = w, .sandbox = LIVE_SANDBOX_AUTO};
            run_outcome out;
            uint64_t t0 = arb_now_ns();
            if (run_tournament(&ro, &out, err, sizeof err) != 0) {
                fprintf(stderr, "arbiter: bench: %s\n", err);
                break;
            }
            double rate = out.matches / ((double)(arb_now_ns() - t0) / 1e9);
            matches = out.matches;
            (w == 1 ? e2e : e2e2)[r] = rate;
        }
        alone[r] = referee_alone(bot, dir, matches, seat_probe_bwrap(geteuid() == 0 ? 61000 : 0));
    }
    double a = cli_median(alone, RUNS), e1 = cli_median(e2e, RUNS), e2 = cli_median(e2e2, RUNS);
    printf("referee_alone %.1f matches_per_second\n", a);
    printf("tournament_1_worker %.1f matches_per_second\n", e1);
    printf("tournament_2_workers %.1f matches_per_second\n", e2);
    printf("record_cost_1_worker_vs_referee_alone %.2f x\n", a / e1);
    store_close(st);
    pgctl_stop(&pg);
    tn_config_release(&cfg);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "arbiter: bench: could not remove %s\n", dir);
    return 0;
}
