/* cmd_bench_match.c — `arbiter bench match`: where a whole match's time
 * goes. It plays short duplicate matches of three copies of a fast C bot
 * (the SDK's random_bot: 2 deals, rotate, so 9 bot processes a match) at
 * each sandbox level and prints, as medians and 90th percentiles over the
 * matches:
 *
 *   - per decision: the time the deals took over the decisions made,
 *     beside a bare pipe round trip between two processes (the floor a
 *     decision cannot beat: one request, one reply);
 *   - per bot start: the rest of the match (sandbox, exec, handshake, the
 *     bot's end and teardown) over the processes started, beside a bare
 *     fork+exec+wait of /bin/true and a bare `bwrap --unshare-all ...
 *     /bin/true` (what a namespace costs on this kernel);
 *   - per match: the wall time, and the referee's own user and system
 *     CPU (getrusage of this process: the benchmark is the referee).
 *
 * Every baseline is measured in the same run, so the ratios hold from one
 * machine to another when the seconds do not. It never fails on time. */
#include "cli.h"
#include "bench_util.h"
#include "live.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define BASE_RUNS 40      /* starts of each bare baseline */
#define MAX_MATCHES 1000

/* The match's driver, counted: how many bot processes it started. */
typedef struct counted {
    match_driver drv;
    const match_driver *inner;
    unsigned starts;
    /* ns spent in each callback: where the time outside the deals goes */
    uint64_t start_ns, hello_ns, stop_ns, prepare_ns;
} counted;

static int c_start(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len)
{
    counted *c = ctx;
    c->starts++;
    uint64_t t = arb_now_ns();
    int rc = c->inner->start(c->inner->ctx, bot, cfg, sandbox, len);
    c->start_ns += arb_now_ns() - t;
    return rc;
}
static int c_send(void *ctx, int bot, const char *line)
{
    counted *c = ctx;
    return c->inner->send(c->inner->ctx, bot, line);
}
static void c_ask(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r)
{
    counted *c = ctx;
    uint64_t t = arb_now_ns();
    c->inner->ask(c->inner->ctx, bot, request, budget_ns, r);
    if (!request)   /* the handshake (or a late reply, rare with this bot) */
        c->hello_ns += arb_now_ns() - t;
}
static void c_ending(void *ctx, int bot)
{
    counted *c = ctx;
    uint64_t t = arb_now_ns();
    if (c->inner->ending)
        c->inner->ending(c->inner->ctx, bot);
    c->stop_ns += arb_now_ns() - t;
}
static void c_prepare(void *ctx, int bot, const match_bot_cfg *cfg)
{
    counted *c = ctx;
    uint64_t t = arb_now_ns();
    if (c->inner->prepare)
        c->inner->prepare(c->inner->ctx, bot, cfg);
    c->prepare_ns += arb_now_ns() - t;
}
static void c_stop(void *ctx, int bot, const char **text, size_t *len, int *status)
{
    counted *c = ctx;
    uint64_t t = arb_now_ns();
    c->inner->stop(c->inner->ctx, bot, text, len, status);
    c->stop_ns += arb_now_ns() - t;
}

/* Time inside the deals (each deal's start to its end, summed). */
typedef struct deal_time {
    uint64_t started, inside;
} deal_time;

static void dt_start(void *ctx, const match_deal *d, const void *state)
{
    (void)d; (void)state;
    ((deal_time *)ctx)->started = arb_now_ns();
}
static void dt_end(void *ctx, const match_deal *d, const void *state)
{
    (void)d; (void)state;
    deal_time *t = ctx;
    t->inside += arb_now_ns() - t->started;
}

static double tv_us(struct timeval tv) { return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec; }

/* One match's figures. */
typedef struct match_fig {
    double decision_us, start_us, match_ms, user_ms, sys_ms;
    double pipe_us, decision_vs_pipe;   /* a pipe round trip timed just before the match, and the ratio */
    double in_start_ms, in_hello_ms, in_stop_ms, in_prepare_ms;   /* per match, in the driver's calls */
    unsigned starts, decisions;
    char sandbox[32];
} match_fig;

static bool no_prepare;   /* --no-prepare: every start made when the match needs it */

static int one_match(const arb_game *g, const char *bot, uint32_t deals, int sandbox, uint64_t seed, match_fig *f)
{
    /* The floor, timed beside each match: on a virtual machine a round
     * trip costs 2 us while both vCPUs are busy and 30 us when one must be
     * woken, and the state drifts during a run; a ratio of figures taken
     * minutes apart would measure the drift. */
    double unused;
    f->pipe_us = 1e6 / bench_pipe_round_trips(5000, 64, &unused);
    match_config cfg;
    match_config_init(&cfg, g);
    cfg.deals = deals;
    cfg.seed = seed;
    cfg.duplicate = MATCH_DUP_ROTATE;
    cfg.move_ms = 5000;
    cfg.nbots = 3;
    for (int b = 0; b < cfg.nbots; b++) {
        snprintf(cfg.bots[b].name, sizeof cfg.bots[b].name, "random%d", b);
        snprintf(cfg.bots[b].argv[0], sizeof cfg.bots[b].argv[0], "%s", bot);
        cfg.bots[b].argc = 1;
    }
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    uint64_t t0 = arb_now_ns();
    char err[256];
    live_options lo = {.sandbox = sandbox, .no_prepare = no_prepare};
    live_driver *l = live_new(&lo, err, sizeof err);
    if (!l) {
        fprintf(stderr, "arbiter: bench match: %s\n", err);
        return 1;
    }
    counted c = {{0}, live_driver_of(l), 0, 0, 0, 0, 0};
    c.drv = (match_driver){.ctx = &c, .start = c_start, .send = c_send, .ask = c_ask, .stop = c_stop,
                           .ending = c_ending, .prepare = c_prepare};
    deal_time dt = {0, 0};
    const match_observer obs = {.ctx = &dt, .deal_start = dt_start, .deal_end = dt_end};
    match_result res;
    char hex[65];
    int rc = record_match(NULL, &cfg, &c.drv, &obs, &res, hex);   /* digest computed, nothing stored */
    live_free(l);
    uint64_t t1 = arb_now_ns();
    getrusage(RUSAGE_SELF, &r1);
    if (rc == 0 && (!res.decisions || !c.starts)) {
        rc = ARB_ESTATE;
        snprintf(res.error, sizeof res.error, "no decision was made");
    }
    if (rc) {
        fprintf(stderr, "arbiter: bench match: match failed: %s\n", res.error);
        match_result_release(&res);
        return 1;
    }
    uint32_t pen = 0;
    for (int b = 0; b < res.nbots; b++)
        pen += res.bots[b].penalties;
    if (pen)
        fprintf(stderr, "arbiter: bench match: %u penalties: the figures include them\n", pen);
    f->decisions = (unsigned)res.decisions;
    f->starts = c.starts;
    f->decision_us = (double)dt.inside / 1e3 / (double)res.decisions;
    f->decision_vs_pipe = f->decision_us / f->pipe_us;
    f->start_us = (double)(t1 - t0 - dt.inside) / 1e3 / c.starts;
    f->match_ms = (double)(t1 - t0) / 1e6;
    f->in_start_ms = (double)c.start_ns / 1e6;
    f->in_hello_ms = (double)c.hello_ns / 1e6;
    f->in_stop_ms = (double)c.stop_ns / 1e6;
    f->in_prepare_ms = (double)c.prepare_ns / 1e6;
    f->user_ms = (tv_us(r1.ru_utime) - tv_us(r0.ru_utime)) / 1e3;
    f->sys_ms = (tv_us(r1.ru_stime) - tv_us(r0.ru_stime)) / 1e3;
    snprintf(f->sandbox, sizeof f->sandbox, "%s", res.bots[0].sandbox);
    match_result_release(&res);
    return 0;
}

/* Start argv and wait for it to exit: the µs it took, or -1. */
static double run_wait(char *const argv[])
{
    uint64_t t0 = arb_now_ns();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    return (double)(arb_now_ns() - t0) / 1e3;
}

/* The median of BASE_RUNS starts of argv (µs); -1 when it cannot run here. */
static double base_start(char *const argv[])
{
    double v[BASE_RUNS];
    for (int i = 0; i < BASE_RUNS; i++)
        if ((v[i] = run_wait(argv)) < 0)
            return -1;
    return bench_median(v, BASE_RUNS);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter bench match --bot PATH [--matches N] [--deals N] [--sandbox auto,none]\n"
               "                           [--no-prepare] [--format table|json]\n"
               "  PATH: a fast bot (the SDK's random_bot). Plays N (default 10) duplicate\n"
               "  matches (rotate, default 2 deals) of three copies at each sandbox level\n"
               "  and prints, median and p90: per decision beside a bare pipe round trip,\n"
               "  per bot start beside bare fork+exec and a bare bwrap, per match, and the\n"
               "  referee's user and system CPU per match. --no-prepare: no sandbox is built\n"
               "  ahead (every start when the match needs it), for comparison.\n");
}

/* "auto,none" into sandbox levels; the count, or -1. */
static int parse_levels(const char *s, int *levels, const char **names)
{
    int n = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == 2)
            return -1;
        if (strcmp(t, "auto") == 0) {
            levels[n] = LIVE_SANDBOX_AUTO;
            names[n++] = "auto";
        } else if (strcmp(t, "none") == 0) {
            levels[n] = LIVE_SANDBOX_NONE;
            names[n++] = "none";
        } else {
            return -1;
        }
    }
    return n;
}

static double quantile(double *v, int n, double q)
{
    bench_median(v, n);   /* sorts */
    int i = (int)(q * (n - 1) + 0.5);
    return v[i];
}

int bench_match(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"bot", required_argument, NULL, 'b'},
        {"matches", required_argument, NULL, 'm'},
        {"deals", required_argument, NULL, 'd'},
        {"sandbox", required_argument, NULL, 's'},
        {"format", required_argument, NULL, 'f'},
        {"no-prepare", no_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    const char *bot = NULL, *sandboxes = "auto,none";
    long long matches = 10, deals = 2;
    cli_format format = CLI_FORMAT_TABLE;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("bench match", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'b': bot = optarg; break;
        case 'm':
            if (cli_int_arg("bench match", "matches", optarg, 1, MAX_MATCHES, &matches))
                return CLI_EXIT_USAGE;
            break;
        case 'd':
            if (cli_int_arg("bench match", "deals", optarg, 1, 100, &deals))
                return CLI_EXIT_USAGE;
            break;
        case 's': sandboxes = optarg; break;
        case 'n': no_prepare = true; break;
        case 'f':
            if (cli_format_parse("bench match", optarg, CLI_FORMATS_TJ, &format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    int levels[2];
    const char *level_names[2];
    int nlevels = parse_levels(sandboxes, levels, level_names);
    if (nlevels <= 0) {
        fprintf(stderr, "arbiter: bench match: --sandbox \"%s\": expected auto, none or auto,none\n", sandboxes);
        return CLI_EXIT_USAGE;
    }
    if (!bench_bot_usable("match", bot))
        return CLI_EXIT_USAGE;
    const arb_game *g = cli_game(CLI_DEFAULT_GAME);
    if (!g)
        return CLI_EXIT_FAIL;

    /* The floors, measured now. */
    double rt_cpu = 0, rts[5];
    for (int i = 0; i < 5; i++)
        rts[i] = 1e6 / bench_pipe_round_trips(20000, 64, &rt_cpu);
    double pipe_us = bench_median(rts, 5);
    char *const truth[] = {"/bin/true", NULL};
    double fork_us = base_start(truth);
    const char *bw = access("/usr/bin/bwrap", X_OK) == 0 ? "/usr/bin/bwrap"
                     : access("/usr/local/bin/bwrap", X_OK) == 0 ? "/usr/local/bin/bwrap" : NULL;
    double bwrap_us = -1;
    if (bw) {
        char *const bargv[] = {(char *)bw, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/",
                               "--dev", "/dev", "--proc", "/proc", "/bin/true", NULL};
        bwrap_us = base_start(bargv);
    }
    bench_figure figs[96];
    size_t nf = 0;
    figs[nf++] = (bench_figure){"pipe_round_trip_us", pipe_us, "us", 2};
    figs[nf++] = (bench_figure){"fork_exec_us", fork_us, "us", 1};
    figs[nf++] = (bench_figure){"bwrap_true_us", bwrap_us, "us", 1};

    static char names[2][40][64];
    match_fig *mf = calloc((size_t)matches, sizeof *mf);
    double *v = calloc((size_t)matches, sizeof *v);
    if (!mf || !v) {
        free(mf);
        free(v);
        fprintf(stderr, "arbiter: bench match: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    for (int li = 0; li < nlevels; li++) {
        for (int m = 0; m < matches; m++)
            if (one_match(g, bot, (uint32_t)deals, levels[li], 2026 + (uint64_t)m, &mf[m])) {
                free(mf);
                free(v);
                return CLI_EXIT_FAIL;
            }
        /* What the level gave, on stderr: the figures' names stay fixed. */
        fprintf(stderr, "bench match: --sandbox %s: %s, %u decisions and %u bot starts a match\n",
                level_names[li], mf[0].sandbox, mf[0].decisions, mf[0].starts);
        struct {
            const char *what, *unit;
            size_t off;
            double floor;
            const char *vs;
        } rows[] = {
            {"decision", "us", offsetof(match_fig, decision_us), 0, NULL},
            {"decision_vs_pipe", "x", offsetof(match_fig, decision_vs_pipe), 0, NULL},
            {"pipe_round_trip_beside", "us", offsetof(match_fig, pipe_us), 0, NULL},
            {"bot_start", "us", offsetof(match_fig, start_us), fork_us, "fork_exec"},
            {"match", "ms", offsetof(match_fig, match_ms), 0, NULL},
            {"in_start", "ms", offsetof(match_fig, in_start_ms), 0, NULL},
            {"in_handshake", "ms", offsetof(match_fig, in_hello_ms), 0, NULL},
            {"in_stop", "ms", offsetof(match_fig, in_stop_ms), 0, NULL},
            {"in_prepare", "ms", offsetof(match_fig, in_prepare_ms), 0, NULL},
            {"referee_user_cpu", "ms", offsetof(match_fig, user_ms), 0, NULL},
            {"referee_sys_cpu", "ms", offsetof(match_fig, sys_ms), 0, NULL},
        };
        int k = 0;
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            for (int m = 0; m < matches; m++)
                v[m] = *(double *)((char *)&mf[m] + rows[r].off);
            double med = quantile(v, (int)matches, 0.5), p90 = quantile(v, (int)matches, 0.9);
            /* a ratio's name says so already: auto_decision_vs_pipe_x would stutter */
            if (strcmp(rows[r].unit, "x") == 0)
                snprintf(names[li][k], 64, "%s_%s", level_names[li], rows[r].what);
            else
                snprintf(names[li][k], 64, "%s_%s_%s", level_names[li], rows[r].what, rows[r].unit);
            figs[nf++] = (bench_figure){names[li][k++], med, rows[r].unit, 2};
            if (strcmp(rows[r].unit, "x") == 0)
                snprintf(names[li][k], 64, "%s_%s_p90", level_names[li], rows[r].what);
            else
                snprintf(names[li][k], 64, "%s_%s_%s_p90", level_names[li], rows[r].what, rows[r].unit);
            figs[nf++] = (bench_figure){names[li][k++], p90, rows[r].unit, 2};
            if (rows[r].vs) {
                snprintf(names[li][k], 64, "%s_%s_vs_%s", level_names[li], rows[r].what, rows[r].vs);
                figs[nf++] = (bench_figure){names[li][k++], med / rows[r].floor, "x", 2};
            }
            if (strncmp(rows[r].what, "referee_", 8) == 0) {
                /* getrusage splits user and system time by tick samples:
                 * a match's figure is a few ticks, its median coarse; the
                 * mean over the matches is not */
                double sum = 0;
                for (int m = 0; m < matches; m++)
                    sum += v[m];
                snprintf(names[li][k], 64, "%s_%s_%s_mean", level_names[li], rows[r].what, rows[r].unit);
                figs[nf++] = (bench_figure){names[li][k++], sum / (double)matches, rows[r].unit, 2};
            }
            if (strcmp(rows[r].what, "bot_start") == 0 && bwrap_us > 0) {
                snprintf(names[li][k], 64, "%s_bot_start_vs_bwrap", level_names[li]);
                figs[nf++] = (bench_figure){names[li][k++], med / bwrap_us, "x", 2};
            }
        }
    }
    free(mf);
    free(v);
    char title[96];
    snprintf(title, sizeof title, "match %s duplicate rotate", g->name);
    bench_print(format == CLI_FORMAT_JSON ? title : NULL, figs, nf, format);
    return 0;
}
