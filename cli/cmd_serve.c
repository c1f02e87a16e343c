/* cmd_serve.c — arbiter in the browser (docs/web.md): `arbiter serve` (the
 * record's pages and JSON API, read only, over HTTP) and `arbiter report`
 * (a tournament's pages as static files). The web layer (web/) never links
 * the referee: cli_web_hooks() (web_hooks.c) gives it the referee's reader. */
#include "cli.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_text.h"
#include "web.h"

#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>


/* Every --NAME VALUE (or --NAME=VALUE, or -S VALUE) taken out of argv
 * into values (at most max of them; with max 1 the last one given wins),
 * *n counting them, the rest left for cli_reader_open: 0, or an exit code
 * after a message. */
static int take_values(const char *cmd, int *argc, char **argv, const char *name, const char *shortname,
                       const char **values, int max, int *n)
{
    int kept = 1;
    size_t nl = strlen(name);
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, name) == 0 || (shortname && strcmp(a, shortname) == 0)) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "arbiter: %s: %s needs a value\n", cmd, a);
                return CLI_EXIT_USAGE;
            }
            v = argv[++i];
        } else if (strncmp(a, name, nl) == 0 && a[nl] == '=') {
            v = a + nl + 1;
        } else {
            argv[kept++] = argv[i];
            continue;
        }
        if (*n == max && max > 1) {
            fprintf(stderr, "arbiter: %s: %s given more than %d times\n", cmd, name, max);
            return CLI_EXIT_USAGE;
        }
        values[*n == max ? max - 1 : (*n)++] = v;
    }
    *argc = kept;
    argv[kept] = NULL;
    return 0;
}

/* One --NAME VALUE (the last given wins). */
static int take_option(const char *cmd, int *argc, char **argv, const char *name, const char *shortname,
                       const char **value)
{
    int n = 0;
    return take_values(cmd, argc, argv, name, shortname, value, 1, &n);
}

/* ---- arbiter serve -------------------------------------------------------- */

static void serve_usage(FILE *f)
{
    fprintf(f, "usage: arbiter serve [--listen HOST:PORT] [--trusted-proxy ADDR[/BITS] ...]\n"
               "                     [--tls-cert FILE --tls-key FILE] [--state DIR | --db CONNINFO]\n\n"
               "Serve the record's pages and JSON API over HTTP, read only (docs/web.md),\n"
               "and the participant API (/api/v1/, docs/api.md) when the record has accounts\n"
               "(arbiter account add). --tls-cert/--tls-key (PEM files): HTTPS.\n"
               "tournaments, standings, crosstables, brackets, ladders, entrants, matches,\n"
               "the worker pool, live updates of running tournaments, the replay viewer.\n"
               "--listen defaults to 127.0.0.1:8080 (loopback only; PORT 0: any free port,\n"
               "printed at start). --trusted-proxy (repeatable): a reverse proxy whose\n"
               "X-Forwarded-For is believed: behind it a client is the right-most address\n"
               "of that header that is not a trusted proxy (per-client limits apply to it).\n"
               "Runs until SIGINT or SIGTERM.\n");
}

int cmd_serve(int argc, char **argv)
{
    const char *listen = "127.0.0.1:8080", *proxies[ARB_WEB_MAX_TRUSTED_PROXIES];
    char note[700] = "";
    web_options opt = {.trusted_proxy = proxies, .role_note = note, .role_note_len = sizeof note};
    if (take_option("serve", &argc, argv, "--listen", NULL, &listen)
        || take_option("serve", &argc, argv, "--tls-cert", NULL, &opt.tls_cert)
        || take_option("serve", &argc, argv, "--tls-key", NULL, &opt.tls_key)
        || take_values("serve", &argc, argv, "--trusted-proxy", NULL, proxies, ARB_WEB_MAX_TRUSTED_PROXIES,
                       &opt.ntrusted_proxy)) {
        serve_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    cli_reader rd;
    int exit_now = cli_reader_open("serve", argc, argv, 0, false, serve_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    /* the reader's session is not the server's: close it, keep the place */
    store_close(rd.st);
    rd.st = NULL;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    /* blocked before the server's threads start, so they inherit it and
     * the signal comes to sigwait below */
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    char err[1024];
    web_server *w = web_server_open(rd.place.conninfo, listen, cli_web_hooks(), &opt, err, sizeof err);
    if (!w) {
        fprintf(stderr, "arbiter: serve: %s\n", err);
        cli_reader_close(&rd);
        return CLI_EXIT_USAGE;
    }
    char host[64];
    snprintf(host, sizeof host, "%.*s", (int)strcspn(listen, ":"), listen);
    printf("arbiter: serving the record on %s://%s:%d/ (pages read only; the participant API at /api/v1/ when "
           "the record has accounts; SIGINT or SIGTERM stops)\n",
           opt.tls_cert ? "https" : "http", host[0] ? host : "0.0.0.0", web_server_port(w));
    if (note[0])
        printf("arbiter: serve: %s\n", note);
    fflush(stdout);
    int sig = 0;
    sigwait(&set, &sig);
    web_server_stop(w);
    cli_reader_close(&rd);
    return CLI_EXIT_OK;
}

/* ---- arbiter report ------------------------------------------------------- */

static void report_usage(FILE *f)
{
    fprintf(f, "usage: arbiter report TOURNAMENT -o DIR [--state DIR | --db CONNINFO]\n\n"
               "Write tournament TOURNAMENT (the latest of that name, or #ID) as static\n"
               "files under DIR (docs/web.md): index.html with standings, crosstable,\n"
               "bracket and rounds, a page per entrant and per match, their JSON, the\n"
               "replay viewer with each transcript (m/ID/transcript.js) and the assets.\n"
               "Links are relative: open DIR/index.html from disk or publish DIR as it is.\n"
               "Exits 3 when there is no record or no such tournament.\n");
}

int cmd_report(int argc, char **argv)
{
    const char *dir = NULL;
    if (take_option("report", &argc, argv, "--output", "-o", &dir)) {
        report_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    cli_reader rd;
    int exit_now = cli_reader_open("report", argc, argv, 0, true, report_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    int status = CLI_EXIT_OK;
    char err[1024], term[300];
    if (!dir) {
        fprintf(stderr, "arbiter: report: -o DIR is needed (where to write the pages)\n");
        status = CLI_EXIT_USAGE;
        goto out;
    }
    int64_t tid;
    uint64_t seed;
    bool revealed;
    if (store_tournament_named(rd.st, rd.name, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: report: no tournament named \"%s\" in the record\n", arb_term(rd.name, term, sizeof term));
        status = CLI_EXIT_NORECORD;
        goto out;
    }
    if (store_read_only(rd.st, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: report: %s\n", err);
        status = CLI_EXIT_FAIL;
        goto out;
    }
    int files = 0;
    if (web_report(rd.st, cli_web_hooks(), tid, dir, &files, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: report: %s\n", arb_term(err, term, sizeof term));
        status = CLI_EXIT_FAIL;
        goto out;
    }
    printf("arbiter: report: %d files under %s (open %s/index.html)\n", files, arb_term(dir, term, sizeof term),
           arb_term(dir, err, sizeof err));
out:
    cli_reader_close(&rd);
    return status;
}
