/* cmd_bench_crowd.c — `arbiter bench web --crowd`: the web under an
 * audience (issue 29). In a private PostgreSQL (or --db) it builds a
 * finished Swiss and a ladder (bench_fixtures.c) and plays small real round
 * robins (bench_rr_config: matches with transcripts), then:
 *
 *  1. the scheduler's question: the same round robin recorded by
 *     local_run_tournament (scheduler, one local worker, the record) with
 *     the scheduler's own pages (web_server_open in this process at
 *     WEB_SCHEDULER_NICE, as the scheduler daemon's `web:`) idle, then
 *     loaded by the crowd on the running tournament's pages and live
 *     stream; matches/s both ways and their ratio. The crowd runs in this
 *     process too (a thread, at the pages' niceness: it stands for
 *     visitors on other machines), so its CPU is still taken from the same
 *     two cores: the ratio is an upper bound of what the pages cost the
 *     recording;
 *  2. the crowd (crowd.c: --clients, 1,000 by default, for --seconds, 20)
 *     against `arbiter serve` run as a child process on the record, from
 *     127.0.0.2..127.0.0.250 and a quarter of the requesters through "a
 *     trusted proxy" (127.0.0.1 with X-Forwarded-For; `--trusted-proxy
 *     127.0.0.1`, left out with a note when this serve does not know it):
 *     pages, API, the heavy transcript route, live streams and slow
 *     clients. Answers by status per route, p50/p99 beside the goals, and
 *     the server's memory from /proc (VmRSS, VmHWM).
 *
 * Figures only: it fails when the record or a server cannot be set up,
 * never on a figure. */
#include "cli.h"
#include "bench_util.h"
#include "bench_fixtures.h"
#include "config.h"
#include "crowd.h"
#include "live.h"
#include "local_worker.h"
#include "scheduler.h"
#include "store.h"
#include "store_cols.h"
#include "web.h"
#include "arb_error.h"
#include "arb_log.h"
#include "arb_time.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define CROWD_MAX_CLIENTS 20000      /* a bench option's bound: 2 descriptors' worth each under ulimit */
#define ENTRANTS 9                   /* the round robin: C(9, 3) = 84 matches */
#define SCHED_RUNS 2                 /* quiet and loaded, each this many times, in turn */
#define CACHED_GOAL_MS 100.0         /* issue 29: p99 of cached pages */
#define API_GOAL_MS 250.0            /* issue 29: p99 of API routes */
#define SERVE_START_S 30             /* a child serve prints its port within this */

typedef struct crowd_opts {
    const char *db, *bot;
    int clients, seconds, think_ms, entrants, entries;
    bool scheduler;                  /* measure the scheduler's question */
    cli_format format;
} crowd_opts;

/* ---- the routes ------------------------------------------------------------ */

enum { R_FRONT, R_TOURNAMENT, R_STANDINGS, R_ENTRANT, R_MATCH, R_TRANSCRIPT, R_LADDER, R_EVENTS, R_SLOW, R_N };

/* The mix: pages and API of tournament tid (entrant `entrant`), match mid
 * and its transcript, ladder lid,
 * the live stream of stream_tid, slow clients on the front page. */
static void routes_for(crowd_route *r, int64_t tid, int entrant, int64_t mid, int64_t lid, int64_t stream_tid)
{
    static const struct {
        const char *name;
        crowd_kind kind;
        int weight;
        double goal;
    } mix[R_N] = {
        [R_FRONT] = {"front_page", CROWD_GET, 15, CACHED_GOAL_MS},
        [R_TOURNAMENT] = {"tournament_page", CROWD_GET, 15, CACHED_GOAL_MS},
        [R_STANDINGS] = {"standings_api", CROWD_GET, 15, API_GOAL_MS},
        [R_ENTRANT] = {"entrant_page", CROWD_GET, 15, CACHED_GOAL_MS},
        [R_MATCH] = {"match_page", CROWD_GET, 15, CACHED_GOAL_MS},
        [R_TRANSCRIPT] = {"transcript_api", CROWD_GET, 5, API_GOAL_MS},
        [R_LADDER] = {"ladder_page", CROWD_GET, 10, CACHED_GOAL_MS},
        [R_EVENTS] = {"live_events", CROWD_STREAM, 0, 0},
        [R_SLOW] = {"slow_client", CROWD_SLOW, 0, 0},
    };
    memset(r, 0, sizeof *r * R_N);
    for (int i = 0; i < R_N; i++) {
        r[i].name = mix[i].name;
        r[i].kind = mix[i].kind;
        r[i].weight = mix[i].weight;
        r[i].goal_ms = mix[i].goal;
    }
    snprintf(r[R_FRONT].path, sizeof r->path, "/");
    snprintf(r[R_TOURNAMENT].path, sizeof r->path, "/t/%" PRId64, tid);
    snprintf(r[R_STANDINGS].path, sizeof r->path, "/api/t/%" PRId64 "/standings", tid);
    snprintf(r[R_ENTRANT].path, sizeof r->path, "/t/%" PRId64 "/e/%d", tid, entrant);
    snprintf(r[R_MATCH].path, sizeof r->path, "/m/%" PRId64, mid);
    snprintf(r[R_TRANSCRIPT].path, sizeof r->path, "/api/m/%" PRId64 "/transcript", mid);
    snprintf(r[R_LADDER].path, sizeof r->path, "/l/%" PRId64, lid);
    snprintf(r[R_EVENTS].path, sizeof r->path, "/api/t/%" PRId64 "/events", stream_tid);
    snprintf(r[R_SLOW].path, sizeof r->path, "/");
}

static crowd_spec spec_for(const crowd_opts *o, int port, crowd_route *routes, bool proxy)
{
    return (crowd_spec){
        .port = port, .clients = o->clients, .streams = o->clients / 20, .slow = o->clients / 50,
        .proxy_pct = proxy ? 25 : 0, .think_ms = o->think_ms, .seconds = o->seconds, .grace_s = 5,
        .routes = routes, .nroutes = R_N,
    };
}

/* ---- what the crowd got ----------------------------------------------------- */

static void print_route(crowd_route *r, const char *who, cli_format format)
{
    char title[ARB_WEB_MAX_URL + 160];
    snprintf(title, sizeof title, "%s: %s GET %s", who, r->name, r->path);
    long answered = r->attempted - r->answers[CROWD_NONE];
    double p50 = crowd_quantile(r, 0.5), p99 = crowd_quantile(r, 0.99);
    if (r->kind == CROWD_SLOW) {
        long with_status = r->attempted - r->answers[CROWD_NONE] - r->unfinished;
        bench_figure f[] = {
            {"connections", (double)r->attempted, "count", 0},
            {"cut_with_a_status", (double)with_status, "count", 0},
            {"cut_by_a_close", (double)r->answers[CROWD_NONE], "count", 0},
            {"not_cut_by_the_end", (double)r->unfinished, "count", 0},
            {"time_to_cut_p50", p50, "ms", 0},
        };
        bench_print(title, f, sizeof f / sizeof *f, format);
        return;
    }
    bench_figure f[20];
    size_t n = 0;
    f[n++] = (bench_figure){"attempted", (double)r->attempted, "count", 0};
    f[n++] = (bench_figure){"answered", (double)answered, "count", 0};
    static const char *const cls[CROWD_NCLASSES] = {"status_200", "status_304", "status_429", "status_503",
                                                    "status_other", "none"};
    for (int k = 0; k < CROWD_NCLASSES; k++)
        f[n++] = (bench_figure){cls[k], (double)r->answers[k], "count", 0};
    f[n++] = (bench_figure){"none_unfinished_at_end", (double)r->unfinished, "count", 0};
    f[n++] = (bench_figure){"truncated", (double)r->truncated, "count", 0};
    bool stream = r->kind == CROWD_STREAM;
    f[n++] = (bench_figure){stream ? "to_headers_p50" : "p50", p50, "ms", 1};
    f[n++] = (bench_figure){stream ? "to_headers_p99" : "p99", p99, "ms", 1};
    if (stream) {
        f[n++] = (bench_figure){"events", (double)r->events, "count", 0};
        f[n++] = (bench_figure){"streams_ended_by_server", (double)r->ended, "count", 0};
    } else {
        f[n++] = (bench_figure){"goal_p99", r->goal_ms, "ms", 0};
        f[n++] = (bench_figure){"meets_goal", r->nms > 0 && p99 < r->goal_ms, "bool", 0};
    }
    f[n++] = (bench_figure){"body", (double)r->bytes / 1e6, "MB", 1};
    bench_print(title, f, n, format);
}

/* Every route, then the totals: answered/attempted and the goal of every
 * request answered with a status. */
static void print_crowd(crowd_route *routes, const char *who, cli_format format)
{
    long attempted = 0, none = 0;
    for (int i = 0; i < R_N; i++) {
        print_route(&routes[i], who, format);
        if (routes[i].kind != CROWD_SLOW) {
            attempted += routes[i].attempted;
            none += routes[i].answers[CROWD_NONE];
        }
    }
    char title[200];
    snprintf(title, sizeof title, "%s: all requests (slow clients apart)", who);
    bench_figure f[] = {
        {"attempted", (double)attempted, "count", 0},
        {"answered", (double)(attempted - none), "count", 0},
        {"none_closed_without_a_status", (double)none, "count", 0},
        {"goal_every_request_answered", none == 0, "bool", 0},
    };
    bench_print(title, f, sizeof f / sizeof *f, format);
}

/* ---- arbiter serve as a child --------------------------------------------- */

typedef struct child_serve {
    pid_t pid;
    int out;          /* its stdout (kept open: it may write again) */
    int port;
} child_serve;

/* kB of field ("VmHWM") in /proc/PID/status, or -1. */
static long proc_kb(pid_t pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    size_t fl = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, fl) == 0 && line[fl] == ':')
            kb = strtol(line + fl + 1, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

static void serve_stop(child_serve *cs)
{
    if (cs->pid <= 0)
        return;
    kill(cs->pid, SIGTERM);
    int status;
    for (int i = 0; i < 100 && waitpid(cs->pid, &status, WNOHANG) == 0; i++)
        usleep(100 * 1000);
    if (waitpid(cs->pid, &status, WNOHANG) == 0) {
        kill(cs->pid, SIGKILL);
        waitpid(cs->pid, &status, 0);
    }
    close(cs->out);
    cs->pid = 0;
}

/* `arbiter serve --db conninfo --listen 127.0.0.1:0 [--trusted-proxy
 * 127.0.0.1]`, its stderr to errpath: 0 with its port, or its exit status
 * (> 0) when it ended before serving, or -1. */
static int serve_start(child_serve *cs, const char *conninfo, bool proxy, const char *errpath)
{
    char self[512];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    int p[2];
    if (sl <= 0 || pipe2(p, O_CLOEXEC) != 0)
        return -1;
    self[sl] = '\0';
    memset(cs, 0, sizeof *cs);
    cs->pid = fork();
    if (cs->pid == 0) {
        int e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (e < 0 || dup2(p[1], 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        execl(self, "arbiter", "serve", "--db", conninfo, "--listen", "127.0.0.1:0",
              proxy ? "--trusted-proxy" : (char *)NULL, "127.0.0.1", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    cs->out = p[0];
    if (cs->pid < 0) {
        close(p[0]);
        return -1;
    }
    char buf[1024];
    size_t len = 0;
    uint64_t until = arb_now_ns() + SERVE_START_S * 1000000000ull;
    while (arb_now_ns() < until && len + 1 < sizeof buf) {
        struct pollfd pf = {.fd = cs->out, .events = POLLIN};
        if (poll(&pf, 1, 200) <= 0)
            continue;
        ssize_t r = read(cs->out, buf + len, sizeof buf - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = '\0';
        const char *at = strstr(buf, "http://127.0.0.1:");
        if (at && strchr(at, '\n')) {
            cs->port = (int)strtol(at + 17, NULL, 10);
            return cs->port > 0 ? 0 : -1;
        }
    }
    int status = 0;
    kill(cs->pid, SIGTERM);
    waitpid(cs->pid, &status, 0);
    close(cs->out);
    cs->pid = 0;
    return WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status) : -1;
}

/* The crowd against a child serve on the record: the figures, and the
 * server's memory. */
static int crowd_on_serve(const crowd_opts *o, const char *conninfo, const char *dir, crowd_route *routes)
{
    char errpath[128], err[512];
    snprintf(errpath, sizeof errpath, "%s/serve.err", dir);
    child_serve cs;
    bool proxy = true;
    int rc = serve_start(&cs, conninfo, proxy, errpath);
    if (rc == CLI_EXIT_USAGE) {
        printf("note: this arbiter serve has no --trusted-proxy: the crowd runs without the proxy's share "
               "(every requester from its own address)\n");
        proxy = false;
        rc = serve_start(&cs, conninfo, proxy, errpath);
    }
    if (rc != 0) {
        fprintf(stderr, "arbiter: bench web --crowd: arbiter serve did not start (see %s)\n", errpath);
        return CLI_EXIT_FAIL;
    }
    long rss0 = proc_kb(cs.pid, "VmRSS");
    crowd_spec spec = spec_for(o, cs.port, routes, proxy);
    rc = crowd_run(&spec, err, sizeof err);
    long hwm = proc_kb(cs.pid, "VmHWM"), rss1 = proc_kb(cs.pid, "VmRSS");
    bool alive = kill(cs.pid, 0) == 0 && waitpid(cs.pid, NULL, WNOHANG) == 0;
    serve_stop(&cs);
    if (rc != 0) {
        fprintf(stderr, "arbiter: bench web --crowd: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    char who[160];
    snprintf(who, sizeof who, "crowd of %d on arbiter serve (%s)", o->clients,
             proxy ? "a quarter through --trusted-proxy 127.0.0.1" : "no proxy share");
    print_crowd(routes, who, o->format);
    bench_figure mem[] = {
        {"server_rss_before", (double)rss0 / 1024, "MB", 1},
        {"server_peak_rss", (double)hwm / 1024, "MB", 1},
        {"server_rss_after", (double)rss1 / 1024, "MB", 1},
        {"server_alive_after", alive, "bool", 0},
    };
    bench_print("arbiter serve's memory (/proc: VmRSS, VmHWM); goal: bounded", mem, sizeof mem / sizeof *mem, o->format);
    return CLI_EXIT_OK;
}

/* ---- the scheduler's question ----------------------------------------------- */

/* The crowd on the scheduler's own pages while a tournament runs: it
 * waits for the tournament's id (the progress callback), then loads its
 * pages until stop. */
typedef struct sched_load {
    const crowd_opts *o;
    int port;
    int64_t mid;               /* a recorded match (with its transcript) */
    int64_t lid;               /* the record's ladder */
    _Atomic int64_t tid;       /* the running tournament, once known */
    atomic_bool stop;
    crowd_route routes[R_N];
    int rc;
    char err[256];
} sched_load;

static void note_tid(void *ctx, const sched_progress *p)
{
    sched_load *l = ctx;
    atomic_store(&l->tid, p->tid);
}

static void *load_thread(void *arg)
{
    sched_load *l = arg;
    /* the crowd stands for visitors on other machines: its own CPU on
     * these cores is taken at the pages' niceness, not the recording's */
    id_t tid_self = (id_t)syscall(SYS_gettid);
    errno = 0;
    int pri = getpriority(PRIO_PROCESS, tid_self);
    if (pri != -1 || errno == 0)
        (void)setpriority(PRIO_PROCESS, tid_self, pri + WEB_SCHEDULER_NICE);
    while (!atomic_load(&l->tid) && !atomic_load(&l->stop))
        usleep(2000);
    int64_t tid = atomic_load(&l->tid);
    if (!tid)
        return NULL;
    routes_for(l->routes, tid, 1, l->mid, l->lid, tid);
    crowd_spec spec = spec_for(l->o, l->port, l->routes, false);
    spec.seconds = 3600;
    spec.stop = &l->stop;
    l->rc = crowd_run(&spec, l->err, sizeof l->err);
    return NULL;
}

/* One round robin recorded (its name: name), with the crowd on the pages
 * of port when load is given: matches per second, or < 0. */
static double record_rate(const char *state, store *st, tn_config *cfg, const char *name, sched_load *load)
{
    char err[1024];
    snprintf(cfg->name, sizeof cfg->name, "%s", name);
    sched_tournament_options ro = {.cfg = cfg, .yaml = "bench", .digest = cfg->name, .ctx = load,
                                   .progress = load ? note_tid : NULL};
    local_run lr = {.state_dir = state, .db = st, .workers = 1, .sandbox = LIVE_SANDBOX_AUTO};
    pthread_t th;
    if (load && pthread_create(&th, NULL, load_thread, load) != 0)
        return -1;
    sched_outcome out = {0};
    uint64_t t0 = arb_now_ns();
    int rc = local_run_tournament(&lr, &ro, &out, err, sizeof err);
    double s = (double)(arb_now_ns() - t0) / 1e9;
    if (load) {
        atomic_store(&load->stop, true);
        pthread_join(th, NULL);
    }
    if (rc != 0) {
        fprintf(stderr, "arbiter: bench web --crowd: %s: %s\n", name, err);
        return -1;
    }
    return out.matches / s;
}

/* A match of tournament `name` (its first), or 0. */
static int64_t first_match(store *st, const char *name)
{
    int64_t tid, mid = 0;
    uint64_t seed;
    bool revealed;
    store_rows rows = {0};
    char err[256];
    if (store_tournament_named(st, name, &tid, &seed, &revealed) == 1
        && store_web(st, STORE_WEB_SEATS, tid, NULL, &rows, err, sizeof err) == 0 && rows.nrows > 0)
        mid = strtoll(store_cell(&rows, 0, STORE_WSEATS_MATCH), NULL, 10);
    store_rows_release(&rows);
    return mid;
}

static void print_rates(const crowd_opts *o, double *quiet, double *loaded)
{
    double q = bench_median(quiet, SCHED_RUNS), l = bench_median(loaded, SCHED_RUNS);
    bench_figure f[] = {
        {"recording_quiet", q, "matches_per_second", 2},
        {"recording_loaded", l, "matches_per_second", 2},
        {"loaded_vs_quiet", q > 0 ? l / q : 0, "x", 3},
        {"goal_within_10_percent", q > 0 && l / q >= 0.9, "bool", 0},
    };
    bench_print("the scheduler's recording rate (round robin of 9 bots, 84 matches, 1 local worker; the larger of "
                "2 runs each) with its own pages quiet vs under the crowd (pages and crowd at nice +10, as the daemon's pages; the crowd's CPU is on the same cores)",
                f, sizeof f / sizeof *f, o->format);
}

/* The round robin recorded with the scheduler's pages quiet and loaded,
 * in turn (with --no-scheduler: once, quiet, for its matches); *mid: a
 * match recorded, with its transcript. */
static int scheduler_question(const crowd_opts *o, bench_db *bdb, int64_t lid, int64_t *mid)
{
    char err[1024], state[128];
    snprintf(state, sizeof state, "%s/state", bdb->dir);
    tn_config cfg;
    if (bench_rr_config(bdb->dir, o->bot, ENTRANTS, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench web --crowd: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    web_server *w = NULL;
    web_options wo = {.nice = WEB_SCHEDULER_NICE};   /* as the daemon's pages */
    if (o->scheduler && !(w = web_server_open(bdb->conninfo, "127.0.0.1:0", cli_web_hooks(), &wo, err, sizeof err)))
        fprintf(stderr, "arbiter: bench web --crowd: the scheduler's pages: %s\n", err);
    double quiet[SCHED_RUNS] = {0}, loaded[SCHED_RUNS] = {0};
    sched_load *load = calloc(1, sizeof *load);
    int status = load && (w || !o->scheduler) ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    for (int r = 0; r < (o->scheduler ? SCHED_RUNS : 1) && status == CLI_EXIT_OK; r++) {
        char name[64];
        snprintf(name, sizeof name, "crowd quiet %d", r + 1);
        quiet[r] = record_rate(state, bdb->st, &cfg, name, NULL);
        if (r == 0)
            *mid = first_match(bdb->st, name);
        if (o->scheduler) {
            crowd_release(load->routes, R_N);
            *load = (sched_load){.o = o, .port = web_server_port(w), .mid = *mid, .lid = lid};
            snprintf(name, sizeof name, "crowd loaded %d", r + 1);
            loaded[r] = record_rate(state, bdb->st, &cfg, name, load);
        }
        if (quiet[r] < 0 || loaded[r] < 0 || load->rc != 0 || !*mid) {
            fprintf(stderr, "arbiter: bench web --crowd: the round robins failed %s\n", load->err);
            status = CLI_EXIT_FAIL;
        }
    }
    web_server_stop(w);
    if (status == CLI_EXIT_OK && o->scheduler) {
        char who[160];
        snprintf(who, sizeof who, "crowd of %d on the scheduler's own pages (in its process), last loaded run",
                 o->clients);
        print_crowd(load->routes, who, o->format);
        print_rates(o, quiet, loaded);
    }
    if (load)
        crowd_release(load->routes, R_N);
    free(load);
    tn_config_release(&cfg);
    return status;
}

/* ---- the command ------------------------------------------------------------ */

static int parse(int argc, char **argv, crowd_opts *o)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'}, {"crowd", no_argument, NULL, 'C'},
        {"db", required_argument, NULL, 'd'}, {"bot", required_argument, NULL, 'b'},
        {"clients", required_argument, NULL, 'c'}, {"seconds", required_argument, NULL, 's'},
        {"think-ms", required_argument, NULL, 't'}, {"entrants", required_argument, NULL, 'e'},
        {"entries", required_argument, NULL, 'l'}, {"no-scheduler", no_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0},
    };
    *o = (crowd_opts){.clients = 1000, .seconds = 20, .think_ms = 100, .entrants = 1000, .entries = 2000,
                      .scheduler = true, .format = CLI_FORMAT_TABLE};
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("bench web", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h':
            printf("usage: arbiter bench web --crowd --bot PATH [--clients N] [--seconds S] [--think-ms T]\n"
                   "           [--entrants N] [--entries L] [--no-scheduler] [--db CONNINFO] [--format table|json]\n\n"
                   "N clients (1000) for S seconds (20) against `arbiter serve` (a child process) on a\n"
                   "record of a Swiss of N entrants (1000), a ladder of L entries (2000) and round\n"
                   "robins of the bot PATH: pages, API, transcripts, live streams (1 in 20) and slow\n"
                   "clients (1 in 50), from 249 loopback addresses and a quarter of the requests\n"
                   "through a trusted proxy; each requester waits 0..2T ms (T 100) between requests.\n"
                   "Prints answers by status and p50/p99 per route beside the goals (p99 %.0f ms\n"
                   "for pages, %.0f ms for API), the server's peak memory, and the scheduler's\n"
                   "recording rate with its own pages quiet and under the same crowd (unless\n"
                   "--no-scheduler). Fails only when it cannot set up, never on a figure.\n",
                   CACHED_GOAL_MS, API_GOAL_MS);
            return CLI_EXIT_OK;
        case 'C': break;
        case 'd': o->db = optarg; break;
        case 'b': o->bot = optarg; break;
        case 'c': o->clients = cli_count_opt(optarg); break;
        case 's': o->seconds = cli_count_opt(optarg); break;
        case 't': o->think_ms = cli_count_opt(optarg); break;
        case 'e': o->entrants = cli_count_opt(optarg); break;
        case 'l': o->entries = cli_count_opt(optarg); break;
        case 'S': o->scheduler = false; break;
        case 'f':
            if (cli_format_parse("bench web", optarg, CLI_FORMATS_TJ, &o->format))
                return CLI_EXIT_USAGE;
            break;
        default: return CLI_EXIT_USAGE;
        }
    }
    if (o->clients < 60 || o->clients > CROWD_MAX_CLIENTS || o->seconds < 1 || o->seconds > 3600
        || o->think_ms < 0 || o->think_ms > 60000 || o->entrants < 3 || o->entrants > ARB_TN_MAX_ENTRANTS
        || o->entries < 6 || o->entries > ARB_LADDER_MAX_ENTRIES || optind < argc) {
        fprintf(stderr, "arbiter: bench web --crowd: --clients 60..%d, --seconds 1..3600, --think-ms 0..60000, "
                        "--entrants 3..%d, --entries 6..%d\n", CROWD_MAX_CLIENTS, ARB_TN_MAX_ENTRANTS,
                ARB_LADDER_MAX_ENTRIES);
        return CLI_EXIT_USAGE;
    }
    if (!bench_bot_usable("web --crowd", o->bot))
        return CLI_EXIT_USAGE;
    return -1;
}

/* The Swiss and the ladder of the record: 0, or CLI_EXIT_FAIL. */
static int build_record(const crowd_opts *o, store *st, int64_t *tid, int64_t *lid)
{
    char err[1024];
    const char *game = ARB_DEFAULT_GAME, *rules = arb_game_find(ARB_DEFAULT_GAME)->default_preset;
    if (store_bench_tournament(st, "crowd swiss", game, rules, o->entrants, 10, tid, err, sizeof err) != 0
        || store_bench_ladder(st, "crowd ladder", game, rules, o->entries, (int64_t)o->entries * 10, lid, err,
                              sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench web --crowd: the record: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

int bench_crowd(int argc, char **argv)
{
    crowd_opts o;
    int status = parse(argc, argv, &o);
    if (status >= 0)
        return status;
    arb_log_setup(ARB_LOG_WARN, ARB_LOG_TEXT);   /* figures only */
    signal(SIGPIPE, SIG_IGN);
    bench_db bdb;
    crowd_route routes[R_N];
    memset(routes, 0, sizeof routes);
    status = CLI_EXIT_FAIL;
    int64_t tid, lid, mid = 0;
    if (bench_db_open(&bdb, "crowd", o.db) != 0 || chmod(bdb.dir, 0755) != 0
        || build_record(&o, bdb.st, &tid, &lid) != 0)
        goto out;
    if (scheduler_question(&o, &bdb, lid, &mid) != CLI_EXIT_OK)
        goto out;
    routes_for(routes, tid, o.entrants / 2, mid, lid, 0);
    int64_t stream_tid;
    uint64_t seed;
    bool revealed;
    if (store_tournament_named(bdb.st, "crowd quiet 1", &stream_tid, &seed, &revealed) != 1)
        goto out;
    snprintf(routes[R_EVENTS].path, sizeof routes[R_EVENTS].path, "/api/t/%" PRId64 "/events", stream_tid);
    status = crowd_on_serve(&o, bdb.conninfo, bdb.dir, routes);
out:
    crowd_release(routes, R_N);
    bench_db_close(&bdb, "crowd");
    return status;
}
