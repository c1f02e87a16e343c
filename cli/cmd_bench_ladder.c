/* cmd_bench_ladder.c — `arbiter bench ladder`: what a ladder costs when its
 * record is large. For each size (1,000 and 10,000 entries by default) a
 * ladder is built inside PostgreSQL with 100 matches per entry (10,000
 * entries: 1,000,000 matches, 3,000,000 seats and rating-history rows),
 * then, medians of RUNS:
 *   leaderboard      the leaderboard's query and its ranking (what
 *                    `arbiter ladder list` does before printing);
 *   matchmaking      one decision as the scheduler makes it
 *                    (sched_ladder_choose): its view of the entries brought
 *                    up to date with what changed in the record since the
 *                    decision before (a result recorded, a match made),
 *                    then ladder_match over every active entry; and, apart,
 *                    the view's first read of the whole ladder (once, when
 *                    a scheduler takes the ladder up);
 *   record           a match's result recorded (store_record), in a rated
 *                    ladder, and the same with rating switched off: the
 *                    difference is the rating update inside the result's
 *                    transaction.
 * and how each grows from the first size to the last. "name value unit"
 * lines (or JSON); never fails on time. */
#include "cli.h"
#include "arb_num.h"
#include "bench_util.h"
#include "config.h"
#include "rating.h"
#include "scheduler.h"
#include "bench_fixtures.h"
#include "store.h"
#include "arb_error.h"
#include "arb_time.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RUNS 21
#define MAX_SIZES 4

static int by_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* The leaderboard as `arbiter ladder list` computes it: ms. */
static double leaderboard_ms(store *st, int64_t tid)
{
    uint64_t t0 = arb_now_ns();
    store_rows rows;
    char err[512];
    if (store_report(st, STORE_REPORT_LADDER, tid, &rows, err, sizeof err) != 0)
        return -1;
    double *score = calloc((size_t)rows.nrows + 1, sizeof *score);
    for (int i = 0; score && i < rows.nrows; i++) {
        rated r = {arb_cell_float(store_cell(&rows, i, STORE_LADDER_MU)), arb_cell_float(store_cell(&rows, i, STORE_LADDER_SIGMA)), 0,
                   (int)arb_cell_int(store_cell(&rows, i, STORE_LADDER_GAMES))};
        score[i] = rated_score(TN_RATING_OPENSKILL, r);
    }
    if (score)
        qsort(score, (size_t)rows.nrows, sizeof *score, by_desc);
    free(score);
    store_rows_release(&rows);
    return (double)(arb_now_ns() - t0) / 1e6;
}

/* One result recorded: a match made, claimed, and its result stored. ms
 * of store_record, or -1. */
static double record_ms(store *st, int64_t tid, const tn_config *cfg, sched_ladder_view *v, int round)
{
    char err[512];
    sched_ladder_pick pk;
    if (sched_ladder_choose(st, tid, cfg, v, NULL, NULL, (uint64_t)round, &pk, err, sizeof err) != 1
        || store_ladder_add(st, tid, round, "ladder", &pk.table, pk.pos, 1, pk.note, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench ladder: %s\n", err);
        return -1;
    }
    store_match m;
    if (store_claim(st, tid, "bench", 60, &m, err, sizeof err) != 1)
        return -1;
    match_result *res = calloc(1, sizeof *res);
    if (!res)
        return -1;
    res->nbots = m.nslots;
    for (int b = 0; b < m.nslots; b++) {
        res->bots[b].rank = b + 1;
        res->bots[b].total = 2 - 2 * b;
        res->team_of_bot[b] = -1;
    }
    uint64_t t0 = arb_now_ns();
    int rc = store_record(st, &m, res, "bench", "bench", NULL, 0, NULL, "bench", err, sizeof err);
    double ms = (double)(arb_now_ns() - t0) / 1e6;
    free(res);
    if (rc) {
        fprintf(stderr, "arbiter: bench ladder: %s\n", err);
        return -1;
    }
    return ms;
}

int bench_ladder(int argc, char **argv)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'}, {"db", required_argument, NULL, 'd'},
        {"sizes", required_argument, NULL, 's'}, {"per-entry", required_argument, NULL, 'p'},
        {"format", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0},
    };
    const char *db = NULL;
    int sizes[MAX_SIZES] = {1000, 10000}, nsizes = 2, per = 100;
    cli_format format = CLI_FORMAT_TABLE;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("bench ladder", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h':
            printf("usage: arbiter bench ladder [--sizes N,N,...] [--per-entry M] [--db CONNINFO] [--format table|json]\n\n"
                   "Leaderboard, matchmaking decision and the rating update inside a result's\n"
                   "transaction, on ladders of N entries (default 1000,10000) with M matches per entry\n"
                   "(default 100: 1,000,000 matches at 10,000 entries) built in the record. Without\n"
                   "--db a private PostgreSQL in a temporary directory.\n");
            return CLI_EXIT_OK;
        case 'd': db = optarg; break;
        case 'p': per = cli_count_opt(optarg); break;
        case 's': {
            nsizes = 0;
            char buf[128], *save = NULL;
            snprintf(buf, sizeof buf, "%s", optarg);
            for (char *t = strtok_r(buf, ",", &save); t && nsizes < MAX_SIZES; t = strtok_r(NULL, ",", &save))
                sizes[nsizes++] = cli_count_opt(t);
            break;
        }
        case 'f':
            if (cli_format_parse("bench ladder", optarg, CLI_FORMATS_TJ, &format))
                return CLI_EXIT_USAGE;
            break;
        default: return CLI_EXIT_USAGE;
        }
    }
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] < 6 || sizes[i] > ARB_LADDER_MAX_ENTRIES || per < 1 || per > 1000) {
            fprintf(stderr, "arbiter: bench ladder: sizes 6..%d entries, --per-entry 1..1000\n", ARB_LADDER_MAX_ENTRIES);
            return CLI_EXIT_USAGE;
        }
    char err[2048];
    bench_db bdb;
    int status = CLI_EXIT_OK;
    if (bench_db_open(&bdb, "ladder", db) != 0) {
        status = CLI_EXIT_FAIL;
        goto out;
    }
    store *st = bdb.st;
    char path[800];
    snprintf(path, sizeof path, "%s/ladder.yaml", bdb.dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        status = CLI_EXIT_FAIL;
        goto out;
    }
    fprintf(f, "name: bench ladder\nformat: ladder\nrating: openskill\nladder: {concurrent: 4}\n");
    fclose(f);
    tn_config cfg;
    if (tn_config_load(path, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench ladder: %s\n", err);
        status = CLI_EXIT_FAIL;
        goto out;
    }
    double first[3] = {0}, last[3] = {0};
    for (int si = 0; si < nsizes && status == 0; si++) {
        int n = sizes[si];
        int64_t matches = (int64_t)n * per, tid;
        char name[64];
        snprintf(name, sizeof name, "bench ladder %d", n);
        uint64_t t0 = arb_now_ns();
        if (store_bench_ladder(st, name, ARB_DEFAULT_GAME, arb_game_find(ARB_DEFAULT_GAME)->default_preset, n, matches, &tid, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: bench ladder: %s\n", err);
            status = CLI_EXIT_FAIL;
            break;
        }
        double build_s = (double)(arb_now_ns() - t0) / 1e9;
        double lb[RUNS], mm[RUNS], rec[RUNS], base[RUNS];
        int round = (int)matches + 1;
        sched_ladder_view *view = sched_ladder_view_new();
        sched_ladder_pick pk;
        uint64_t f0 = arb_now_ns();
        if (!view || sched_ladder_choose(st, tid, &cfg, view, NULL, NULL, 0, &pk, err, sizeof err) != 1) {
            fprintf(stderr, "arbiter: bench ladder: the first matchmaking read failed: %s\n", view ? err : "out of memory");
            sched_ladder_view_free(view);
            status = CLI_EXIT_FAIL;
            break;
        }
        double first_read = (double)(arb_now_ns() - f0) / 1e6;
        for (int r = 0; r < RUNS && status == 0; r++) {
            lb[r] = leaderboard_ms(st, tid);
            uint64_t c0 = arb_now_ns();
            int got = sched_ladder_choose(st, tid, &cfg, view, NULL, NULL, (uint64_t)r + 1, &pk, err, sizeof err);
            mm[r] = (double)(arb_now_ns() - c0) / 1e6;
            /* rated and unrated results taken in turn: the same record, the
             * same moment, the rating update the only difference */
            rec[r] = record_ms(st, tid, &cfg, view, round++);
            store_bench_set_rating(st, tid, "none");
            base[r] = record_ms(st, tid, &cfg, view, round++);
            store_bench_set_rating(st, tid, "openskill");
            if (got != 1 || lb[r] < 0 || rec[r] < 0 || base[r] < 0) {
                fprintf(stderr, "arbiter: bench ladder: a measurement failed%s%s\n", got < 0 ? ": " : "", got < 0 ? err : "");
                status = CLI_EXIT_FAIL;
            }
        }
        sched_ladder_view_free(view);
        if (status)
            break;
        double l = bench_median(lb, RUNS), m = bench_median(mm, RUNS), rr = bench_median(rec, RUNS),
               rb = bench_median(base, RUNS);
        double upd = rr - rb;
        char title[96];
        snprintf(title, sizeof title, "ladder %d entries, %" PRId64 " matches", n, matches);
        bench_figure figs[] = {
            {"record_built", build_s, "s", 1},
            {"leaderboard", l, "ms", 2},
            {"matchmaking_first_read", first_read, "ms", 2},
            {"matchmaking_decision", m, "ms", 2},
            {"result_recorded_rated", rr, "ms", 3},
            {"result_recorded_unrated", rb, "ms", 3},
            {"rating_update_in_transaction", upd, "ms", 3},
        };
        bench_print(title, figs, sizeof figs / sizeof *figs, format);
        double now[3] = {l, m, upd};
        for (int k = 0; k < 3; k++) {
            if (si == 0)
                first[k] = now[k];
            last[k] = now[k];
        }
    }
    if (status == 0 && nsizes > 1) {
        char title[96];
        snprintf(title, sizeof title, "growth from %d to %d entries", sizes[0], sizes[nsizes - 1]);
        bench_figure g[] = {
            {"leaderboard", first[0] > 0 ? last[0] / first[0] : 0, "x", 2},
            {"matchmaking_decision", first[1] > 0 ? last[1] / first[1] : 0, "x", 2},
            {"rating_update_in_transaction", first[2] > 0 ? last[2] / first[2] : 0, "x", 2},
        };
        bench_print(title, g, sizeof g / sizeof *g, format);
    }
    tn_config_release(&cfg);
out:
    bench_db_close(&bdb, "ladder");
    return status;
}
