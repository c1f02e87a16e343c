/* cmd_bench_tournament.c — `arbiter bench tournament`: matches recorded per
 * second end to end (scheduler, ZeroMQ, PostgreSQL, one local worker)
 * beside the referee alone playing the same number of matches in the same
 * run — the ratio is what the record costs — and the time to pair one Swiss
 * round of 10,000 entrants. `arbiter bench dispatch`: the same tournament
 * dispatched to N arbiter-referee daemons over CURVE tcp (programs fetched
 * by digest) beside `arbiter run` with N local slots — the ratio is what
 * distribution costs. "name value unit" lines, medians; never fails on
 * time. */
#include "cli.h"
#include "arb_file.h"
#include "bench_util.h"
#include "config.h"
#include "live.h"
#include "local_worker.h"
#include "pgctl.h"
#include "plan_int.h"   /* the Swiss pairing alone (plan__swiss_pair) */
#include "scheduler.h"
#include "store.h"
#include "record.h"
#include "arb_error.h"
#include "arb_log.h"
#include "arb_rng.h"
#include "arb_time.h"
#include "zap.h"

#include <dirent.h>
#include <fnmatch.h>
#include <libgen.h>
#include <signal.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Remove the referees' program caches, dir/w*-dir (rm -rf dir/w*-dir
 * without a shell). */
static int remove_caches(const char *dir)
{
    int rc = 0;
    DIR *d = opendir(dir);
    if (!d)
        return ARB_EIO;
    for (struct dirent *e; (e = readdir(d));) {
        char path[1200];
        if (fnmatch("w*-dir", e->d_name, 0) != 0)
            continue;
        int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (n < 0 || (size_t)n >= sizeof path || arb_remove_tree(path) != 0)
            rc = ARB_EIO;
    }
    closedir(d);
    return rc;
}

#define RUNS 3
#define ENTRANTS 9   /* C(9, 3) = 84 matches */

/* Pair one Swiss round of n entrants (tables of k) after `rounds_before`
 * random rounds (a random order stands for the standings); *ntables made. */
static int bench_swiss(int n, int k, int rounds_before, uint64_t seed, int *ntables)
{
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    int *order = calloc((size_t)n, sizeof *order), *played = calloc((size_t)n, sizeof *played);
    store_table *t = calloc((size_t)(n / k + 1), sizeof *t);
    met_set met = {0};
    int rc = ARB_ENOMEM;
    if (!order || !played || !t)
        goto out;
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* earlier rounds: random tables, every entrant once a round */
    for (int r = 0; r < rounds_before; r++) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)arb_rng_below(&rng, (uint64_t)i + 1), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        for (int i = 0; i + k <= n; i += k)
            for (int a = 0; a < k; a++) {
                played[order[i + a]]++;
                for (int b = a + 1; b < k; b++)
                    plan__met_add(&met, order[i + a], order[i + b]);
            }
    }
    if (met.n)   /* none met yet (round 1): met.pair is NULL, which qsort may not take */
        qsort(met.pair, met.n, sizeof *met.pair, plan__cmp_u64);
    /* standings: a random order stands for the scores */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)arb_rng_below(&rng, (uint64_t)i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    rc = plan__swiss_pair(n, k, order, played, rounds_before + 1, &met, t, n / k + 1);
    if (rc >= 0) {
        *ntables = rc;
        rc = 0;
    }
out:
    free(order);
    free(played);
    free(t);
    free(met.pair);
    return rc;
}

/* A private cluster under dir/state with the schema: the record the
 * benchmarks write to. NULL (and a message) on failure. */
static store *bench_record(const char *dir, pgctl *pg, char *state, size_t len)
{
    char err[1024];
    snprintf(state, len, "%s/state", dir);
    if (pgctl_start(pg, state, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench: %s\n", err);
        return NULL;
    }
    store *st = store_open(pg->conninfo, err, sizeof err);
    if (!st || store_migrate(st, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench: %s\n", err);
        store_close(st);
        pgctl_stop(pg);
        return NULL;
    }
    return st;
}

/* The referee alone: the same number of three-bot matches, one after the
 * other, each with its transcript written. Matches per second. */
static double referee_alone(const char *bot, const char *dir, int matches, const char *bwrap)
{
    uint64_t t0 = arb_now_ns();
    for (int m = 0; m < matches; m++) {
        match_config cfg;
        match_config_init(&cfg, cli_game(NULL));   /* the game bench.yaml names by default */
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
        match_result res;
        char hex[65];
        if (l) {
            record_match(path, &cfg, live_driver_of(l), NULL, &res, hex);
            match_result_release(&res);
        }
        live_free(l);
        unlink(path);
    }
    return matches / ((double)(arb_now_ns() - t0) / 1e9);
}

int bench_tournament(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"bot", required_argument, NULL, 'b'},
        {NULL, 0, NULL, 0},
    };
    const char *bot = NULL;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("bench tournament", argc, argv, ":h", opts)) != -1) {
        if (c == 'b') {
            bot = optarg;
            continue;
        }
        bool help = c == 'h';
        fprintf(help ? stdout : stderr, "usage: arbiter bench tournament --bot /abs/path/random_bot\n"
                "  Matches recorded per second end to end beside the referee alone; Swiss\n"
                "  pairing of 10,000 entrants. Figures as `name value unit` lines.\n");
        return help ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    arb_log_setup(ARB_LOG_WARN, ARB_LOG_TEXT);   /* figures only */
    if (!bot || bot[0] != '/' || optind < argc) {
        fprintf(stderr, "usage: arbiter bench tournament --bot /abs/path/random_bot\n");
        return CLI_EXIT_USAGE;
    }
    if (!bench_bot_usable("tournament", bot))
        return CLI_EXIT_USAGE;
    /* Swiss pairing, 10,000 entrants, after three rounds. */
    double swiss[5];
    int tables = 0;
    for (int r = 0; r < 5; r++) {
        uint64_t t0 = arb_now_ns();
        if (bench_swiss(10000, 3, 3, 42u + (uint64_t)r, &tables) != 0)
            return 1;
        swiss[r] = (double)(arb_now_ns() - t0) / 1e6;
    }
    printf("swiss_pairing_10000_entrants %.2f ms\n", bench_median(swiss, 5));
    printf("swiss_tables_10000_entrants %d tables\n", tables);

    char dir[] = "/tmp/arbiter-bench-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    chmod(dir, 0755);   /* the private cluster runs as postgres when we are root */
    char err[1024];
    tn_config cfg;
    if (bench_rr_config(dir, bot, ENTRANTS, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    pgctl pg;
    char state[700];
    store *st = bench_record(dir, &pg, state, sizeof state);
    if (!st)
        return 1;
    double e2e[RUNS], e2e2[RUNS], alone[RUNS];
    int matches = 84;
    for (int r = 0; r < RUNS; r++) {
        for (int w = 1; w <= 2; w++) {
            snprintf(cfg.name, sizeof cfg.name, "bench-%d-%d", r, w);
            sched_tournament_options ro = {.cfg = &cfg, .yaml = "bench", .digest = cfg.name};
            local_run lr = {.state_dir = state, .db = st, .workers = w, .sandbox = LIVE_SANDBOX_AUTO};
            sched_outcome out;
            uint64_t t0 = arb_now_ns();
            if (local_run_tournament(&lr, &ro, &out, err, sizeof err) != 0) {
                fprintf(stderr, "arbiter: bench: %s\n", err);
                break;
            }
            double rate = out.matches / ((double)(arb_now_ns() - t0) / 1e9);
            matches = out.matches;
            (w == 1 ? e2e : e2e2)[r] = rate;
        }
        alone[r] = referee_alone(bot, dir, matches, seat_probe_bwrap(geteuid() == 0 ? 61000 : 0));
    }
    double a = bench_median(alone, RUNS), e1 = bench_median(e2e, RUNS), e2 = bench_median(e2e2, RUNS);
    printf("referee_alone %.1f matches_per_second\n", a);
    printf("tournament_1_worker %.1f matches_per_second\n", e1);
    printf("tournament_2_workers %.1f matches_per_second\n", e2);
    printf("record_cost_1_worker_vs_referee_alone %.2f x\n", a / e1);
    store_close(st);
    pgctl_stop(&pg);
    tn_config_release(&cfg);
    if (arb_remove_tree(dir) != 0)
        fprintf(stderr, "arbiter: bench: could not remove %s\n", dir);
    return 0;
}

/* Start n arbiter-referee daemons (one slot each) for endpoint; their pids
 * into pids. The keys were written to dir/wK.{key,pub}. */
static int start_referees(const char *exe, const char *dir, const char *endpoint, int n, pid_t *pids)
{
    for (int k = 0; k < n; k++) {
        char key[700], server[700], work[700], name[32];
        snprintf(key, sizeof key, "%s/w%d", dir, k);
        snprintf(server, sizeof server, "%s/sched.pub", dir);
        snprintf(work, sizeof work, "%s/w%d-dir", dir, k);
        snprintf(name, sizeof name, "bench-%d", k);
        pids[k] = fork();
        if (pids[k] < 0)
            return ARB_EIO;
        if (pids[k] == 0) {
            int devnull = open("/dev/null", O_WRONLY);
            if (devnull >= 0)
                dup2(devnull, 2);
            execl(exe, exe, "--connect", endpoint, "--server-key", server, "--key", key, "--name", name, "--slots", "1",
                  "--workdir", work, "--metrics", "", "--log-level", "error", (char *)NULL);
            _exit(127);
        }
    }
    return 0;
}

static void stop_referees(pid_t *pids, int n)
{
    for (int k = 0; k < n; k++)
        if (pids[k] > 0)
            kill(pids[k], SIGTERM);
    for (int k = 0; k < n; k++)
        if (pids[k] > 0)
            waitpid(pids[k], NULL, 0);
}

static int write_key(const char *dir, const char *name, const char *pub, const char *sec)
{
    char path[700];
    const char *text[2] = {pub, sec};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s.%s", dir, name, i ? "key" : "pub");
        FILE *f = fopen(path, "w");
        if (!f)
            return ARB_EIO;
        fprintf(f, "%s\n", text[i]);
        fclose(f);
    }
    return 0;
}

int bench_dispatch(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"bot", required_argument, NULL, 'b'},
        {"workers", required_argument, NULL, 'w'},
        {NULL, 0, NULL, 0},
    };
    static const char use[] = "usage: arbiter bench dispatch --bot /abs/path/random_bot [--workers 1..32]\n";
    const char *bot = NULL;
    long long workers = 4;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("bench dispatch", argc, argv, ":h", opts)) != -1) {
        if (c == 'b') {
            bot = optarg;
        } else if (c == 'w') {
            if (cli_int_arg("bench dispatch", "workers", optarg, 1, 32, &workers))
                return CLI_EXIT_USAGE;
        } else if (c == 'h') {
            printf("%s  The same tournament dispatched to N arbiter-referee daemons over CURVE\n"
                   "  beside arbiter run with N local slots. Figures as `name value unit` lines.\n", use);
            return CLI_EXIT_OK;
        } else {
            fputs(use, stderr);
            return CLI_EXIT_USAGE;
        }
    }
    arb_log_setup(ARB_LOG_WARN, ARB_LOG_TEXT);   /* figures only */
    if (!bot || bot[0] != '/' || optind < argc) {
        fputs(use, stderr);
        return CLI_EXIT_USAGE;
    }
    if (!bench_bot_usable("dispatch", bot))
        return CLI_EXIT_USAGE;
    int n = (int)workers;
    char exe[600], self[512];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0)
        return 1;
    self[sl] = 0;
    snprintf(exe, sizeof exe, "%s/arbiter-referee", dirname(self));
    if (access(exe, X_OK) != 0) {
        fprintf(stderr, "arbiter: bench: %s not found (built beside arbiter)\n", exe);
        return 1;
    }
    char dir[] = "/tmp/arbiter-bench-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    chmod(dir, 0755);
    char err[1024], state[700];
    tn_config cfg;
    if (bench_rr_config(dir, bot, ENTRANTS, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* keys: the scheduler's and one per referee */
    char spub[ZAP_KEY_TEXT], ssec[ZAP_KEY_TEXT], wpub[32][ZAP_KEY_TEXT], wsec[ZAP_KEY_TEXT];
    const char *wkeys[32];
    zap_keygen(spub, ssec);
    write_key(dir, "sched", spub, ssec);
    for (int k = 0; k < n; k++) {
        char name[16];
        zap_keygen(wpub[k], wsec);
        snprintf(name, sizeof name, "w%d", k);
        write_key(dir, name, wpub[k], wsec);
        wkeys[k] = wpub[k];
    }
    pgctl pg;
    store *st = bench_record(dir, &pg, state, sizeof state);
    if (!st)
        return 1;
    double local[RUNS], remote[RUNS];
    int matches = 0;
    for (int r = 0; r < RUNS; r++) {
        /* arbiter run: one process, n local slots over inproc */
        snprintf(cfg.name, sizeof cfg.name, "local-%d", r);
        sched_tournament_options ro = {.cfg = &cfg, .yaml = "bench", .digest = cfg.name};
        local_run lr = {.state_dir = state, .db = st, .workers = n, .sandbox = LIVE_SANDBOX_AUTO};
        sched_outcome out;
        uint64_t t0 = arb_now_ns();
        if (local_run_tournament(&lr, &ro, &out, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: bench: %s\n", err);
            break;
        }
        local[r] = out.matches / ((double)(arb_now_ns() - t0) / 1e9);
        matches = out.matches;
        /* the pool: n referee daemons over CURVE tcp, programs fetched by
         * digest (a fresh cache each run), timed once all have joined */
        sched_options so = {.db = st, .state_dir = state, .listen = "tcp://127.0.0.1:*", .secret_key = ssec,
                            .public_key = spub, .worker_keys = wkeys, .nworker_keys = n, .heartbeat_ms = 500,
                            .keep_remote = true};
        sched *s = sched_new(&so, err, sizeof err);
        if (!s) {
            fprintf(stderr, "arbiter: bench: %s\n", err);
            break;
        }
        pid_t pids[32] = {0};
        if (remove_caches(dir) != 0)
            fprintf(stderr, "arbiter: bench: could not empty the program caches\n");
        start_referees(exe, dir, sched_endpoint(s), n, pids);
        for (int k = 0; k < 200 && atomic_load(&sched_stats_of(s)->workers) < n; k++)
            sched_serve(s, 50, err, sizeof err);
        snprintf(cfg.name, sizeof cfg.name, "remote-%d", r);
        ro.digest = cfg.name;
        t0 = arb_now_ns();
        int rc = sched_tournament(s, &ro, &out, err, sizeof err);
        remote[r] = out.matches / ((double)(arb_now_ns() - t0) / 1e9);
        stop_referees(pids, n);
        sched_free(s);
        if (rc) {
            fprintf(stderr, "arbiter: bench: %s\n", err);
            break;
        }
    }
    double l = bench_median(local, RUNS), d = bench_median(remote, RUNS);
    printf("dispatch_matches %d matches (one deal, three C bots, sandboxed)\n", matches);
    printf("arbiter_run_%d_local_slots %.1f matches_per_second\n", n, l);
    printf("pool_%d_referee_daemons %.1f matches_per_second\n", n, d);
    printf("distribution_cost %.2f x (arbiter run / pool; 1.00 = free)\n", l / d);
    store_close(st);
    pgctl_stop(&pg);
    tn_config_release(&cfg);
    if (arb_remove_tree(dir) != 0)
        fprintf(stderr, "arbiter: bench: could not remove %s\n", dir);
    return 0;
}
