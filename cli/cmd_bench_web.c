/* cmd_bench_web.c — `arbiter bench web`: how long `arbiter serve` takes to
 * answer for a large record (issue 16: a 1,000-entrant tournament's
 * standings and a 10,000-entry ladder in under 100 ms). A finished Swiss
 * of 1,000 entrants (store_bench_tournament) and a ladder of 10,000
 * entries (store_bench_ladder) are built inside a private PostgreSQL, the
 * server is started on 127.0.0.1 (a free port) over that record, and each
 * page is fetched whole over real HTTP, RUNS times, the pages taken in
 * turn: connect, request, read to the end. Printed per page: median and
 * 90th percentile in ms, the body's bytes, the median over the baseline's
 * (a small embedded asset, fetched in the same run) and whether the median
 * is under the target. Timing never fails the command; a page that is not
 * 200 or does not hold the rows the record has (the builder built nothing,
 * a page lost its table) does. */
#include "cli.h"
#include "arb_num.h"
#include "bench_util.h"
#include "bench_fixtures.h"
#include "store.h"
#include "web.h"
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MIN_RUNS 21
#define TARGET_MS 100.0      /* the target for a page of a large record */

/* One GET of path on 127.0.0.1:port, read to the end (Connection: close):
 * the status, the body in body (its cap: the server's page cap), and the
 * ms it took from connect to the last byte. < 0 when the exchange failed. */
static double get_ms(int port, const char *path, int *status, arb_buf *body)
{
    arb_buf_reset(body);
    *status = 0;
    uint64_t t0 = arb_now_ns();
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char req[ARB_WEB_MAX_URL + 128];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    double ms = -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
        goto out;
    for (int sent = 0; sent < n;) {
        ssize_t w = send(fd, req + sent, (size_t)(n - sent), MSG_NOSIGNAL);
        if (w <= 0)
            goto out;
        sent += (int)w;
    }
    char chunk[65536];
    for (;;) {
        ssize_t r = recv(fd, chunk, sizeof chunk, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            goto out;
        if (r == 0)
            break;
        if (arb_buf_append(body, chunk, (size_t)r) != 0)
            goto out;
    }
    ms = (double)(arb_now_ns() - t0) / 1e6;
    /* "HTTP/1.1 200 OK\r\n...\r\n\r\nbody": keep the body alone */
    const char *all = arb_buf_str(body), *end = strstr(all, "\r\n\r\n");
    if (strncmp(all, "HTTP/1.", 7) != 0 || !end) {
        ms = -1;
        goto out;
    }
    /* "HTTP/1.1 NNN ": three digits, else no status (0) */
    *status = 0;
    if (strlen(all) > 12 && all[12] == ' ') {
        char code[4] = {all[9], all[10], all[11], 0};
        if (arb_parse_int(code, 100, 599, status) != 0)
            *status = 0;
    }
    size_t hl = (size_t)(end + 4 - all);
    memmove(body->data, body->data + hl, body->len - hl);
    body->len -= hl;
    body->data[body->len] = '\0';
out:
    close(fd);
    return ms;
}

/* How often needle occurs in hay between the first `from` and the next
 * `to` after it (from NULL: all of hay). */
static int count_in(const char *hay, const char *from, const char *to, const char *needle)
{
    const char *p = from ? strstr(hay, from) : hay, *end = NULL;
    if (!p)
        return -1;
    if (to)
        end = strstr(p, to);
    int n = 0;
    for (p = strstr(p, needle); p && (!end || p < end); p = strstr(p + 1, needle))
        n++;
    return n;
}

/* One page measured. */
typedef struct page {
    const char *name;          /* its figures' prefix */
    char path[ARB_WEB_MAX_URL + 1];
    /* the rows it must hold: needle counted between from and to, == rows */
    const char *from, *to, *needle;
    int rows;                  /* exactly; < 0: at least -rows */
    double ms[1024];
    size_t bytes;
} page;

/* The page as fetched holds what the record has; false after a message. */
static bool page_holds(const page *pg, int status, const arb_buf *body)
{
    if (status != 200) {
        fprintf(stderr, "arbiter: bench web: GET %s: status %d: %.200s\n", pg->path, status, arb_buf_str(body));
        return false;
    }
    if (!pg->needle)
        return true;
    int got = count_in(arb_buf_str(body), pg->from, pg->to, pg->needle);
    if (pg->rows >= 0 ? got != pg->rows : got < -pg->rows) {
        fprintf(stderr, "arbiter: bench web: GET %s: %d rows (%s), expected %s%d\n", pg->path, got, pg->needle,
                pg->rows < 0 ? "at least " : "", pg->rows < 0 ? -pg->rows : pg->rows);
        return false;
    }
    return true;
}

static double p90(double *v, int n)
{
    bench_median(v, n);   /* sorts */
    int k = (int)(0.9 * n + 0.999999) - 1;
    return v[k < 0 ? 0 : k];
}

static int measure(int port, page *pages, int npages, int runs, cli_format format)
{
    arb_buf body;
    arb_buf_init(&body, ARB_WEB_PAGE_CAP + 4096);
    int rc = CLI_EXIT_OK, status;
    /* a first fetch of each, not timed: the check, and every cache warm */
    for (int i = 0; i < npages && rc == 0; i++) {
        if (get_ms(port, pages[i].path, &status, &body) < 0 || !page_holds(&pages[i], status, &body))
            rc = CLI_EXIT_FAIL;
        pages[i].bytes = body.len;
    }
    for (int r = 0; r < runs && rc == 0; r++)
        for (int i = 0; i < npages && rc == 0; i++) {
            pages[i].ms[r] = get_ms(port, pages[i].path, &status, &body);
            if (pages[i].ms[r] < 0 || status != 200) {
                fprintf(stderr, "arbiter: bench web: GET %s failed (status %d)\n", pages[i].path, status);
                rc = CLI_EXIT_FAIL;
            }
        }
    arb_buf_release(&body);
    if (rc)
        return rc;
    double base = bench_median(pages[0].ms, runs);
    for (int i = 0; i < npages; i++) {
        double med = bench_median(pages[i].ms, runs), q = p90(pages[i].ms, runs);
        char title[ARB_WEB_MAX_URL + 64];
        snprintf(title, sizeof title, "GET %s (%s)", pages[i].path, pages[i].name);
        bench_figure f[] = {
            {"median", med, "ms", 2},
            {"p90", q, "ms", 2},
            {"body", (double)pages[i].bytes, "bytes", 0},
            {"vs_baseline", base > 0 ? med / base : 0, "x", 1},
            {"meets_100ms", med < TARGET_MS, "bool", 0},
        };
        bench_print(title, f, sizeof f / sizeof *f, format);
    }
    return CLI_EXIT_OK;
}

/* What a live page of the ladder costs the record each second: one read
 * of its progress (web_live_progress; the server shares it among every
 * stream of that tournament), on a read-only session as the server's. */
static int measure_live(const char *conninfo, int64_t lid, int runs, cli_format format)
{
    char err[512];
    store *st = store_open(conninfo, err, sizeof err);
    if (!st || store_read_only(st, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench web: %s\n", err);
        store_close(st);
        return CLI_EXIT_FAIL;
    }
    double *ms = calloc((size_t)runs, sizeof *ms);
    web_progress pg;
    int rc = ms ? web_live_progress(st, lid, &pg) : ARB_ENOMEM;   /* warm, and checked */
    if (rc == 0 && !strstr(pg.json, "\"done\":"))
        rc = ARB_ECORRUPT;
    for (int r = 0; r < runs && rc == 0; r++) {
        uint64_t t0 = arb_now_ns();
        rc = web_live_progress(st, lid, &pg);
        ms[r] = (double)(arb_now_ns() - t0) / 1e6;
    }
    store_close(st);
    if (rc) {
        fprintf(stderr, "arbiter: bench web: the ladder's live progress: %s\n", arb_strerror(rc));
        free(ms);
        return CLI_EXIT_FAIL;
    }
    bench_figure f[] = {
        {"median", bench_median(ms, runs), "ms", 2},
        {"p90", p90(ms, runs), "ms", 2},
    };
    bench_print("live progress read of the ladder (once a second per tournament streamed)", f, 2, format);
    free(ms);
    return CLI_EXIT_OK;
}

int bench_web(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--crowd") == 0)
            return bench_crowd(argc, argv);   /* cmd_bench_crowd.c */
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'}, {"db", required_argument, NULL, 'd'},
        {"entrants", required_argument, NULL, 'e'}, {"rounds", required_argument, NULL, 'r'},
        {"entries", required_argument, NULL, 'l'}, {"per-entry", required_argument, NULL, 'p'},
        {"runs", required_argument, NULL, 'n'}, {"format", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0},
    };
    const char *db = NULL;
    int entrants = 1000, rounds = 10, entries = 10000, per = 30, runs = MIN_RUNS;
    cli_format format = CLI_FORMAT_TABLE;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("bench web", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h':
            printf("usage: arbiter bench web --crowd ... (the web under a crowd: --crowd --help)\n"
                   "       arbiter bench web [--entrants N] [--rounds R] [--entries L] [--per-entry M] [--runs K]\n"
                   "                         [--db CONNINFO] [--format table|json]\n\n"
                   "The pages of `arbiter serve` fetched over HTTP from a large record built in it: a\n"
                   "finished Swiss of N entrants (default 1000) over R rounds (10) and a ladder of L\n"
                   "entries (10000) with M matches per entry (30). K fetches of each (default and\n"
                   "least %d): median and p90 ms, bytes, the ratio to a static asset's, and whether\n"
                   "the median is under %.0f ms. Without --db a private PostgreSQL in a temporary\n"
                   "directory. Fails when a page is not 200 or lacks the record's rows, never on time.\n",
                   MIN_RUNS, TARGET_MS);
            return CLI_EXIT_OK;
        case 'd': db = optarg; break;
        case 'e': entrants = cli_count_opt(optarg); break;
        case 'r': rounds = cli_count_opt(optarg); break;
        case 'l': entries = cli_count_opt(optarg); break;
        case 'p': per = cli_count_opt(optarg); break;
        case 'n': runs = cli_count_opt(optarg); break;
        case 'f':
            if (cli_format_parse("bench web", optarg, CLI_FORMATS_TJ, &format))
                return CLI_EXIT_USAGE;
            break;
        default: return CLI_EXIT_USAGE;
        }
    }
    if (entrants < 3 || entrants > ARB_TN_MAX_ENTRANTS || rounds < 1 || rounds > 100 || entries < 6
        || entries > ARB_LADDER_MAX_ENTRIES || per < 1 || per > 1000 || runs < MIN_RUNS
        || runs > (int)(sizeof ((page *)0)->ms / sizeof(double))) {
        fprintf(stderr, "arbiter: bench web: --entrants 3..%d, --rounds 1..100, --entries 6..%d, --per-entry 1..1000, "
                        "--runs %d..1024\n", ARB_TN_MAX_ENTRANTS, ARB_LADDER_MAX_ENTRIES, MIN_RUNS);
        return CLI_EXIT_USAGE;
    }
    char err[2048];
    bench_db bdb;
    web_server *w = NULL;
    page *pages = NULL;
    int status = CLI_EXIT_FAIL;
    if (bench_db_open(&bdb, "web", db) != 0)
        goto out;
    store *st = bdb.st;
    int64_t tid, lid;
    uint64_t t0 = arb_now_ns();
    if (store_bench_tournament(st, "bench web swiss", ARB_DEFAULT_GAME, arb_game_find(ARB_DEFAULT_GAME)->default_preset, entrants, rounds, &tid, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench web: the tournament: %s\n", err);
        goto out;
    }
    uint64_t t1 = arb_now_ns();
    if (store_bench_ladder(st, "bench web ladder", ARB_DEFAULT_GAME, arb_game_find(ARB_DEFAULT_GAME)->default_preset, entries, (int64_t)entries * per, &lid, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench web: the ladder: %s\n", err);
        goto out;
    }
    uint64_t t2 = arb_now_ns();
    char title[160];
    snprintf(title, sizeof title, "record: swiss %d entrants, %d rounds; ladder %d entries, %" PRId64 " matches",
             entrants, rounds, entries, (int64_t)entries * per);
    bench_figure built[] = {
        {"tournament_built", (double)(t1 - t0) / 1e9, "s", 1},
        {"ladder_built", (double)(t2 - t1) / 1e9, "s", 1},
    };
    bench_print(title, built, sizeof built / sizeof *built, format);
    web_hooks none = {0};
    w = web_server_start(bdb.conninfo, "127.0.0.1:0", &none, err, sizeof err);
    if (!w) {
        fprintf(stderr, "arbiter: bench web: the server: %s\n", err);
        goto out;
    }
    /* the baseline first (pages[0]); every row a page must hold, counted */
    int mid = entrants / 2, lmid = entries / 2;
    page spec[] = {
        {"baseline_asset", "/assets/style.css", NULL, NULL, NULL, 0, {0}, 0},
        {"tournaments", "/", "<tbody>", "</tbody>", "<tr>", 2, {0}, 0},
        {"tournament_page", "", "<table id=\"standings\">", "</table>", "<tr>", entrants + 1, {0}, 0},
        {"tournament_api", "", "\"standings\":", "],\"crosstable_of\"", "\"rank\":", entrants, {0}, 0},
        {"standings_api", "", NULL, NULL, "\"rank\":", entrants, {0}, 0},
        {"tournament_entrant_page", "", "<h2>Matches</h2>", "</table>", "<tr>", rounds + 1, {0}, 0},
        {"ladder_page", "", "<table id=\"leaderboard\">", "</table>", "<tr>", entries + 1, {0}, 0},
        {"ladder_api", "", "\"leaderboard\":", "],\"history\"", "\"rank\":", entries, {0}, 0},
        {"ladder_entrant_page", "", "<h2>Rating</h2>", NULL, "<polyline", 1, {0}, 0},
    };
    int npages = (int)(sizeof spec / sizeof *spec);
    pages = malloc(sizeof spec);
    if (!pages)
        goto out;
    memcpy(pages, spec, sizeof spec);
    snprintf(pages[2].path, sizeof pages[2].path, "/t/%" PRId64, tid);
    snprintf(pages[3].path, sizeof pages[3].path, "/api/t/%" PRId64, tid);
    snprintf(pages[4].path, sizeof pages[4].path, "/api/t/%" PRId64 "/standings", tid);
    snprintf(pages[5].path, sizeof pages[5].path, "/t/%" PRId64 "/e/%d", tid, mid);
    snprintf(pages[6].path, sizeof pages[6].path, "/l/%" PRId64, lid);
    snprintf(pages[7].path, sizeof pages[7].path, "/api/l/%" PRId64, lid);
    snprintf(pages[8].path, sizeof pages[8].path, "/t/%" PRId64 "/e/%d", lid, lmid);
    /* the Swiss seats every entrant in all but the rounds it sits out */
    pages[5].rows = -2;
    status = measure(web_server_port(w), pages, npages, runs, format);
    if (status == CLI_EXIT_OK)
        status = measure_live(bdb.conninfo, lid, runs, format);
out:
    free(pages);
    web_server_stop(w);
    bench_db_close(&bdb, "web");
    return status;
}
