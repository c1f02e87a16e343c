/* cmd_scheduler.c — the scheduler daemon of a distributed deployment and
 * the way tournaments reach it: `arbiter-scheduler` (also `arbiter
 * scheduler`) owns the tournaments in the record and the pool of workers;
 * `arbiter submit FILE` puts a tournament in the record for the scheduler
 * to run. It reads a commented YAML file (config/scheduler.yaml) and the
 * same keys as flags, logs JSON lines on stderr and serves Prometheus
 * metrics (daemon.c: what it shares with the referee daemon). */
#include "cli.h"
#include "daemon.h"
#include "config.h"
#include "live.h"
#include "local_worker.h"
#include "scheduler.h"
#include "store.h"
#include "wire.h"
#include "web.h"
#include "worker.h"
#include "zap.h"
#include "arb_conf.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_kdf.h"
#include "arb_http.h"
#include "arb_log.h"
#include "arb_names.h"
#include "arb_time.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

/* ---- arbiter-scheduler ------------------------------------------------- */

typedef struct sched_conf {
    char listen[256], key[512], worker_keys[512], db[1024], state[512], metrics[128], web[128];
    char web_tls_cert[512], web_tls_key[512];
    arb_conf_list tournaments, web_trusted_proxy;
    int local_workers, heartbeat_ms, heartbeat_misses, lease_s;
    int log_level, log_format, sandbox;
    bool check, allow_unsandboxed;
} sched_conf;

#define S(f) offsetof(sched_conf, f), sizeof(((sched_conf *)0)->f)
static const arb_conf_key sched_keys[] = {
    {"listen", ARB_CONF_STR, S(listen), 0, 0, NULL, "the endpoint workers connect to (tcp://HOST:PORT)"},
    {"key", ARB_CONF_STR, S(key), 0, 0, NULL, "this scheduler's key pair NAME (NAME.key, NAME.pub)"},
    {"worker_keys", ARB_CONF_STR, S(worker_keys), 0, 0, NULL, "file of admitted worker public keys"},
    {"db", ARB_CONF_STR, S(db), 0, 0, NULL, "PostgreSQL conninfo (empty: a private cluster under state)"},
    {"state", ARB_CONF_STR, S(state), 0, 0, NULL, "transcripts, programs, the private cluster"},
    {"tournaments", ARB_CONF_STRLIST, S(tournaments), 0, 0, NULL, "tournament files to run (more: arbiter submit)"},
    {"local_workers", ARB_CONF_INT, S(local_workers), 0, 256, NULL, "match slots inside the scheduler"},
    {"heartbeat_ms", ARB_CONF_INT, S(heartbeat_ms), 100, 60000, NULL, "heartbeat period"},
    {"heartbeat_misses", ARB_CONF_INT, S(heartbeat_misses), 2, 100, NULL, "silent heartbeats before a worker is gone"},
    {"lease_s", ARB_CONF_INT, S(lease_s), 5, 86400, NULL, "a lease's life in the record without renewal"},
    {"metrics", ARB_CONF_STR, S(metrics), 0, 0, NULL, "Prometheus endpoint HOST:PORT (empty: off)"},
    {"web", ARB_CONF_STR, S(web), 0, 0, NULL, "the record's pages and JSON API HOST:PORT, as arbiter serve (empty: off)"},
    {"web_trusted_proxy", ARB_CONF_STRLIST, S(web_trusted_proxy), 0, 0, NULL,
     "reverse proxies (ADDR or ADDR/BITS) whose X-Forwarded-For the pages believe, as serve --trusted-proxy"},
    {"web_tls_cert", ARB_CONF_STR, S(web_tls_cert), 0, 0, NULL,
     "the pages over HTTPS: the certificate (chain), a PEM file, as serve --tls-cert (with web_tls_key)"},
    {"web_tls_key", ARB_CONF_STR, S(web_tls_key), 0, 0, NULL, "its private key, a PEM file, as serve --tls-key"},
    {"log_level", ARB_CONF_ENUM, S(log_level), 0, 0, log_levels, "debug, info, warn or error"},
    {"log_format", ARB_CONF_ENUM, S(log_format), 0, 0, log_formats, "json or text"},
    {"sandbox", ARB_CONF_ENUM, S(sandbox), 0, 0, sandboxes, "the local workers' sandbox: auto, bwrap or none"},
    {"allow_unsandboxed", ARB_CONF_BOOL, S(allow_unsandboxed), 0, 0, NULL,
     "local workers may play with neither bubblewrap nor root, or sandbox none"},
    {"check", ARB_CONF_BOOL, S(check), 0, 0, NULL, "check the configuration and exit"},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL},
};
#undef S

/* A tournament file read once and checked (its commands too), or an error:
 * submit reads every file this way before it opens the record. The record
 * takes the text the loader parsed and its digest (cfg->text, cfg->digest),
 * never a second read of the file, which might be another text by then or,
 * for a pipe, nothing. */
static int submit_load(const char *file, tn_config *cfg, store *st, char *err, size_t errlen)
{
    int rc = tn_config_load(file, cfg, err, errlen);
    return rc ? rc : cli_submit_check(cfg, st, err, errlen);
}

int cli_submit_check(const tn_config *cfg, store *st, char *err, size_t errlen)
{
    int rc = tn_config_check_commands(cfg, err, errlen);
    if (rc == ARB_ENOTFOUND && st && cli_programs_recorded(st, cfg))
        rc = 0;   /* files gone, programs in the record (a resume, a rerun) */
    return rc;
}

int cli_submit_config(store *st, const tn_config *cfg, const uint8_t *secret, int64_t *tid, bool *created, char *err,
                      size_t errlen)
{
    char abspath[4096];
    int rc = store_tournament(st, cfg, cfg->text, cfg->digest, false, tid, created, err, errlen);
    if (rc == 0 && !cfg->submitted && realpath(cfg->path, abspath))
        store_set_path(st, *tid, abspath);
    /* The organiser's secret (else one is drawn at the first start). */
    uint8_t recorded[32];
    char commitment[65];
    if (rc == 0 && secret)
        rc = store_secret(st, *tid, secret, recorded, commitment, err, errlen);
    return rc;
}

/* Put a tournament file in the record. 0, or an error with FILE:LINE:COL
 * in err. */
static int submit(store *st, const char *file, const uint8_t *secret, int64_t *tid, bool *created, char *err,
                  size_t errlen)
{
    tn_config cfg;
    int rc = submit_load(file, &cfg, st, err, errlen);
    if (rc == 0)
        rc = cli_submit_config(st, &cfg, secret, tid, created, err, errlen);
    tn_config_release(&cfg);
    return rc;
}

/* Progress lines, at most one per tournament every 5 s (and its last). */
typedef struct progress_log {
    int64_t  tid[ARB_SCHED_MAX_TOURNAMENTS];
    uint64_t last[ARB_SCHED_MAX_TOURNAMENTS];
    unsigned next;
} progress_log;

static void log_progress(void *ctx, const sched_progress *p)
{
    progress_log *pl = ctx;
    uint64_t now = arb_now_ns() / 1000000000u;
    int i = 0;
    while (i < ARB_SCHED_MAX_TOURNAMENTS && pl->tid[i] != p->tid)
        i++;
    if (i == ARB_SCHED_MAX_TOURNAMENTS) {   /* a new one takes the oldest place */
        i = (int)(pl->next++ % ARB_SCHED_MAX_TOURNAMENTS);
        pl->tid[i] = p->tid;
        pl->last[i] = 0;
    }
    if (now - pl->last[i] < 5 && p->done < p->total)
        return;
    pl->last[i] = now;
    arb_info("scheduler", "tournament %s: %d/%d matches, round %d, %.1f matches/s, eta %.0f s; last: %s", p->name,
             p->done, p->total, p->round, p->rate, p->eta_s, p->last ? p->last : "");
}

/* The record's pages (`web: HOST:PORT`), as `arbiter serve` gives them:
 * a read-only session of their own, so they never stand in the
 * scheduler's way. Its threads start with SIGINT and SIGTERM blocked, so
 * a stop reaches the scheduler's loop, never a page's thread. NULL with
 * the reason logged. */
static web_server *start_web(const char *conninfo, const char *listen, const arb_conf_list *proxies,
                             const char *tls_cert, const char *tls_key)
{
    char err[1024];
    const char *trusted[ARB_CONF_LIST_MAX];
    web_options opt = {.trusted_proxy = trusted, .ntrusted_proxy = proxies->n, .nice = WEB_SCHEDULER_NICE,
                       .tls_cert = tls_cert[0] ? tls_cert : NULL, .tls_key = tls_key[0] ? tls_key : NULL};
    if (!opt.tls_cert != !opt.tls_key) {
        arb_error("scheduler", "web: web_tls_cert and web_tls_key go together (--web-tls-cert, --web-tls-key)");
        return NULL;
    }
    for (int i = 0; i < proxies->n; i++)
        trusted[i] = proxies->item[i];
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    web_server *w = web_server_open(conninfo, listen, cli_web_hooks(), &opt, err, sizeof err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!w) {
        if (strstr(err, "in use"))
            arb_error("scheduler", "web %s: the port is taken (arbiter serve or another daemon?): give it another "
                      "(web: HOST:PORT, or --web HOST:PORT), or --web \"\" to serve no pages (%s)", listen, err);
        else
            arb_error("scheduler", "web: %s", err);
        return NULL;
    }
    arb_info("scheduler", "the record's pages on %s://%.*s:%d/ (read only)", opt.tls_cert ? "https" : "http",
             (int)strcspn(listen, ":"), listen, web_server_port(w));
    return w;
}

/* Whether --help or -h is among the arguments. */
int cmd_scheduler(int argc, char **argv)
{
    sched_conf c = {.listen = "tcp://0.0.0.0:5555", .state = "/var/lib/arbiter", .metrics = "127.0.0.1:9464",
                    .heartbeat_ms = 1000, .heartbeat_misses = 5, .lease_s = 60, .log_level = 1};
    /* --help anywhere: the usage and nothing else, before the arguments
     * are read (--config would open its file, a bad key would refuse) */
    if (asks_help(argc, argv)) {
        printf("usage: arbiter-scheduler [--config FILE] [--KEY VALUE ...]\n\n"
               "Owns the tournaments in the record and the pool of referee workers\n"
               "(arbiter-referee) that connect to it; runs every tournament submitted\n"
               "(arbiter submit FILE, or `tournaments:` here) all at once. SIGTERM\n"
               "stops it; the workers keep their results for the next start. Keys\n"
               "(config/scheduler.yaml; flags override the file):\n\n");
        arb_conf_usage(stdout, sched_keys, &c);
        return CLI_EXIT_OK;
    }
    char err[2048];
    int rest[8], nrest = 0;
    if (arb_conf_args(sched_keys, &c, argc - 1, argv + 1, rest, 8, &nrest, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter-scheduler: %s\n", err);
        return 2;
    }
    for (int i = 0; i < nrest; i++) {
        const char *a = argv[1 + rest[i]];
        unexpected("arbiter-scheduler", a, sched_keys);
        return CLI_EXIT_USAGE;
    }
    static char wkeys[ARB_ZAP_MAX_KEYS][CLI_KEY_LINE];
    const char *wkeyp[ARB_ZAP_MAX_KEYS];
    char pub[41], sec[41];
    int nkeys = 0;
    if (c.listen[0]) {
        if (key_pair(c.key, pub, sec, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter-scheduler: %s\n", err);
            return 2;
        }
        nkeys = c.worker_keys[0] ? cli_read_keys(c.worker_keys, wkeys, ARB_ZAP_MAX_KEYS) : 0;
        if (nkeys < 0) {
            fprintf(stderr, "arbiter-scheduler: worker_keys %s: cannot read\n", c.worker_keys);
            return 2;
        }
        if (nkeys == 0 && c.local_workers == 0)
            fprintf(stderr, "arbiter-scheduler: warning: no worker keys listed and no local workers: nobody can play\n");
        for (int i = 0; i < nkeys; i++)
            wkeyp[i] = wkeys[i];
    } else if (c.local_workers == 0) {
        fprintf(stderr, "arbiter-scheduler: no listen endpoint and no local workers: nobody could play\n");
        return 2;
    }
    for (int i = 0; i < c.tournaments.n; i++) {
        tn_config cfg;
        int rc = tn_config_load(c.tournaments.item[i], &cfg, err, sizeof err);
        /* a bot's files missing: checked again once the record is open,
         * where the tournament's programs may be (submit) */
        if (rc == 0 && tn_config_check_commands(&cfg, err, sizeof err) != 0 && c.check)
            rc = ARB_ENOTFOUND;
        tn_config_release(&cfg);
        if (rc) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    }
    struct sockaddr_in web_sa;
    if (c.web[0] && arb_http_parse_listen(c.web, &web_sa, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter-scheduler: web: %s\n", err);
        return 2;
    }
    if (c.check) {
        printf("arbiter-scheduler: configuration ok (%s, %d worker keys, %d tournaments)\n",
               c.listen[0] ? c.listen : "local workers only", nkeys, c.tournaments.n);
        return 0;
    }
    arb_log_setup((arb_log_level)c.log_level, (arb_log_format)c.log_format);
    catch_signals();
    db_place place;
    store *st = NULL;
    sched *s = NULL;
    local_worker *lw = NULL;
    void *zctx = NULL;
    arb_http *http = NULL;
    web_server *web = NULL;
    int status = 0;
    /* A database given is asked first: one that does not answer makes
     * nothing (it created the state directory, and its lock, first). */
    const char *given = c.db[0] ? c.db : getenv("ARBITER_DB");
    if (given && *given && !(st = store_open(given, err, sizeof err))) {
        size_t n = strlen(err);
        while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
            err[--n] = 0;
        for (char *e = err; *e; e++)   /* libpq's message has lines: one log line */
            if (*e == '\n' || *e == '\t')
                *e = ' ';
        arb_error("scheduler", "the database cannot be reached: %s; nothing was made (state directory %s "
                  "untouched): start it or correct db:, then start the scheduler again",
                  strncmp(err, "database: ", 10) == 0 ? err + 10 : err, c.state);
        return 2;
    }
    if (cli_open_place(&place, c.state, c.db[0] ? c.db : NULL, true, err, sizeof err) != 0) {
        arb_error("scheduler", "%s", err);
        store_close(st);
        return 2;
    }
    char abs_state[512];
    if (!realpath(c.state, abs_state))
        snprintf(abs_state, sizeof abs_state, "%s", c.state);
    if (!st)
        st = store_open(place.conninfo, err, sizeof err);
    if (!st || store_migrate(st, err, sizeof err) != 0) {
        arb_error("scheduler", "%s", err);
        status = 2;
        goto out;
    }
    for (int i = 0; i < c.tournaments.n; i++) {
        int64_t tid;
        bool created;
        if (submit(st, c.tournaments.item[i], NULL, &tid, &created, err, sizeof err) != 0) {
            arb_error("scheduler", "%s", err);
            status = 2;
            goto out;
        }
    }
    zctx = zmq_ctx_new();
    sched_options so = {.db = st, .state_dir = abs_state, .zmq_ctx = zctx, .stop = &stopping,
                        .listen = c.listen[0] ? c.listen : NULL,
                        .secret_key = sec, .public_key = pub, .worker_keys = wkeyp, .nworker_keys = nkeys,
                        .heartbeat_ms = c.heartbeat_ms, .heartbeat_misses = c.heartbeat_misses,
                        .lease_s = c.lease_s, .keep_remote = true};
    s = sched_new(&so, err, sizeof err);
    if (!s) {
        arb_error("scheduler", "%s", err);
        status = 2;
        goto out;
    }
    if (c.local_workers > 0) {
        local_worker_options lo = {.slots = c.local_workers, .sandbox = sandbox_of(c.sandbox),
                                   .allow_unsandboxed = c.allow_unsandboxed, .state_dir = abs_state,
                                   .stop = &stopping};
        if (!(lw = local_worker_start(s, &lo, err, sizeof err))) {
            arb_error("scheduler", "%s", err);
            status = 2;
            goto out;
        }
    }
    if (c.metrics[0] && !(http = start_metrics("scheduler", c.metrics, sched_metrics, s))) {
        status = 2;
        goto out;
    }
    if (c.web[0] && !(web = start_web(place.conninfo, c.web, &c.web_trusted_proxy, c.web_tls_cert, c.web_tls_key))) {
        status = 2;
        goto out;
    }
    arb_info("scheduler", "listening on %s (%d worker keys, %d local slots), record in %s, metrics on %s",
             sched_endpoint(s), nkeys, c.local_workers, place.private_pg ? place.pg.data : "the given database",
             c.metrics[0] ? c.metrics : "nothing");
    progress_log pl = {0};
    if (sched_serve_all(s, log_progress, &pl, err, sizeof err) != 0) {
        arb_error("scheduler", "%s", err);
        status = 1;
    }
    arb_info("scheduler", "stopping");
out:
    web_server_stop(web);
    arb_http_stop(http);
    if (s)
        local_worker_stop(lw, s);
    sched_free(s);
    /* a local worker abandoned on a stop may still hold sockets: the
     * context ends with the process then */
    if (zctx && !(lw && stopping))
        zmq_ctx_term(zctx);
    store_close(st);
    cli_close_place(&place);
    return status;
}

/* `arbiter submit FILE...`: tournaments into the record. */
static void submit_usage(FILE *f)
{
    fprintf(f, "usage: arbiter submit FILE... [--state DIR | --db CONNINFO] [--secret-file F]\n"
               "  Puts tournaments in the record; a running arbiter-scheduler plays them.\n"
               "  --secret-file F: the tournaments' secret (64 hex digits, mode 0600; default:\n"
               "  drawn at the first start); deals follow from seed + secret (docs/rng.md).\n");
}

/* The tournaments loaded (cfgs[0..n), from files[]) into the record of
 * place, in order, each line said; *status 2 at the first that fails. */
static void submit_all(db_place *place, const char *const *files, const tn_config *cfgs, int n,
                       const uint8_t *secret, int *status, char *err, size_t errlen)
{
    store *st = store_open(place->conninfo, err, errlen);
    if (!st) {
        cli_say_unreachable("submit", err);
        *status = 2;
    } else if (store_migrate(st, err, errlen) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        *status = 2;
    }
    for (int i = 0; i < n && *status == 0; i++) {
        int64_t tid;
        bool created;
        if (cli_submit_config(st, &cfgs[i], secret, &tid, &created, err, errlen) != 0) {
            fprintf(stderr, "%s\n", err);
            *status = 2;
        } else {
            printf("%s: tournament %" PRId64 " %s\n", files[i], tid, created ? "submitted" : "already in the record");
        }
    }
    store_close(st);
}

int cmd_submit(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},
        {"secret-file", required_argument, NULL, 'S'},
        {NULL, 0, NULL, 0},
    };
    const char *state = "arbiter-state", *db = NULL, *secret_file = NULL;
    const char *files[64];
    int nfiles = 0, c;
    cli_opts_begin();
    while ((c = cli_getopt("submit", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': submit_usage(stdout); return CLI_EXIT_OK;
        case 's': state = optarg; break;
        case 'd': db = optarg; break;
        case 'S': secret_file = optarg; break;
        default: submit_usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind >= argc || argc - optind > 64) {
        submit_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++)
        files[nfiles++] = argv[i];
    db_place place;
    char err[2048];
    uint8_t secret[32];
    if (secret_file && arb_key_read_file(secret_file, secret, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", err);
        return 2;
    }
    /* every file read and checked first: a mistake in one makes nothing;
     * the record then takes the texts read (each file is read once) */
    tn_config *cfgs = calloc((size_t)nfiles + 1, sizeof *cfgs);
    if (!cfgs) {
        fprintf(stderr, "arbiter: out of memory\n");
        return 2;
    }
    int status = 0;
    for (int i = 0; i < nfiles && status == 0; i++)
        if (submit_load(files[i], &cfgs[i], NULL, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            status = 2;
        }
    if (status == 0 && cli_open_place(&place, state, db, false, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        status = 2;
    }
    if (status == 0) {
        submit_all(&place, files, cfgs, nfiles, secret_file ? secret : NULL, &status, err, sizeof err);
        cli_close_place(&place);
    }
    for (int i = 0; i < nfiles; i++)
        tn_config_release(&cfgs[i]);
    free(cfgs);
    return status;
}
