/* cmd_run.c — `arbiter run FILE`: run (or resume) a tournament, with a
 * private PostgreSQL under a state directory unless a database is given;
 * `arbiter status` and `arbiter standings` read the record. */
#include "cli.h"
#include "arb_text.h"
#include "config.h"
#include "live.h"
#include "local_worker.h"
#include "pgctl.h"
#include "plan.h"
#include "scheduler.h"
#include "store.h"
#include "worker.h"
#include "zap.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_log.h"

#include <errno.h>
#include <pthread.h>
#include <zmq.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct progress_ctx {
    bool tty, quiet;
    uint64_t last_print;
} progress_ctx;

static void on_progress(void *ctx, const sched_progress *pr)
{
    progress_ctx *c = ctx;
    if (c->quiet)
        return;
    int pct = pr->total ? 100 * pr->done / pr->total : 0;
    int eta = (int)(pr->eta_s + 0.5);
    char last[1024];
    arb_term(pr->last, last, sizeof last);
    if (c->tty) {
        fprintf(stderr, "\r\033[K[%4d/%-4d %3d%%] round %d  %.1f matches/s  ETA %d:%02d  %.60s", pr->done, pr->total,
                pct, pr->round, pr->rate, eta / 60, eta % 60, last);
    } else {
        fprintf(stderr, "progress: %d/%d matches (%d%%), round %d, %.1f matches/s, eta %ds; last: %s\n", pr->done,
                pr->total, pct, pr->round, pr->rate, eta, last);
    }
}

/* The commitment to the tournament's secret and, once it is over, the
 * secret itself: with it anyone can check every deal (arbiter replay
 * --secret, docs/rng.md). */
static void print_fairness(store *st, int64_t tid)
{
    char commitment[65], secret[65];
    if (store_fairness(st, tid, commitment, secret) != 0 || !commitment[0])
        return;
    printf("\ncommitment (sha256 of the secret): %s\n", commitment);
    if (secret[0])
        printf("secret (revealed: the tournament is over): %s\n", secret);
    else
        printf("secret: sealed until the tournament is over\n");
}
/* A cell of the record for the terminal: names come from YAML (already
 * restricted), but reasons and worker names come from workers and bots. */
#define CELL(j) arb_term(store_cell(&r, i, (j)), b[(j)], sizeof b[(j)])

static void print_standings(store_standing *rows, int n, const char *format)
{
    if (strcmp(format, "csv") == 0) {
        printf("rank,name,played,points,score,wins,penalties,forfeited\n");
        for (int i = 0; i < n; i++)
            printf("%d,%s,%d,%.1f,%" PRId64 ",%d,%d,%s\n", i + 1, rows[i].name, rows[i].played, rows[i].points,
                   rows[i].score, rows[i].wins, rows[i].penalties, rows[i].forfeited ? "true" : "false");
        return;
    }
    if (strcmp(format, "json") == 0) {
        printf("[");
        for (int i = 0; i < n; i++)
            printf("%s{\"rank\":%d,\"name\":\"%s\",\"played\":%d,\"points\":%.1f,\"score\":%" PRId64
                   ",\"wins\":%d,\"penalties\":%d,\"forfeited\":%s}", i ? "," : "", i + 1, rows[i].name,
                   rows[i].played, rows[i].points, rows[i].score, rows[i].wins, rows[i].penalties,
                   rows[i].forfeited ? "true" : "false");
        printf("]\n");
        return;
    }
    printf("%-4s %-20s %6s %8s %9s %5s %9s\n", "rank", "entrant", "played", "points", "score", "wins", "penalties");
    for (int i = 0; i < n; i++) {
        char name[256];
        printf("%-4d %-20s %6d %8.1f %+9" PRId64 " %5d %9d%s\n", i + 1, arb_term(rows[i].name, name, sizeof name),
               rows[i].played, rows[i].points, rows[i].score, rows[i].wins, rows[i].penalties,
               rows[i].forfeited ? "  (forfeited)" : "");
    }
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter run FILE [--state DIR] [--db CONNINFO] [--workers N] [--sandbox auto|bwrap|none] [--allow-unsandboxed]\n"
        "                        [--secret-file F] [--quiet]\n"
        "\n"
        "Runs the tournament FILE describes (schemas/tournament.md): pairs, plays\n"
        "every match with local referee workers, records everything in PostgreSQL,\n"
        "prints standings (and the bracket). Interrupted or killed, the same command\n"
        "resumes: no finished match is played again, none is lost.\n"
        "\n"
        "  --sandbox MODE   auto (default: bubblewrap when it works, a uid per bot as root),\n"
        "                   bwrap, or none; whatever the start got, no match is played weaker\n"
        "  --allow-unsandboxed  play even with neither bubblewrap nor root (or --sandbox none):\n"
        "                   bots could then read your files and signal each other; warned, recorded\n"
        "  --state DIR      transcripts, bot directories and, without --db, a private\n"
        "                   PostgreSQL cluster (default ./arbiter-state)\n"
        "  --db CONNINFO    a PostgreSQL server instead ($ARBITER_DB too)\n"
        "  --workers N      local referee workers (default: the number of cores; 0 with --listen)\n"
        "  --listen EP      also take remote referee workers (arbiter referee) on EP, e.g.\n"
        "                   tcp://0.0.0.0:5555, CURVE-encrypted; needs --key NAME (arbiter keygen\n"
        "                   NAME) and --worker-keys FILE (their .pub lines; no one else is admitted)\n"
        "  --secret-file F  the tournament's secret: 64 hex digits in a file only its owner\n"
        "                   may read; every deal follows from the seed and it (docs/rng.md).\n"
        "                   Default: drawn at random at the first start. Its sha256 is shown\n"
        "                   from the start, the secret itself when the tournament is over\n");
}

int cmd_run(int argc, char **argv)
{
    const char *file = NULL, *state = "arbiter-state", *db = NULL, *listen = NULL, *keyname = NULL, *wkeys = NULL;
    const char *secret_file = NULL;
    int workers = (int)sysconf(_SC_NPROCESSORS_ONLN), sandbox = LIVE_SANDBOX_AUTO;
    bool quiet = false, allow_unsandboxed = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "--state") == 0 && v) {
            state = argv[++i];
        } else if (strcmp(a, "--db") == 0 && v) {
            db = argv[++i];
        } else if (strcmp(a, "--workers") == 0 && v) {
            workers = atoi(argv[++i]);
            if (workers < 0 || workers > 256) {
                fprintf(stderr, "arbiter: --workers %s: expected 0..256\n", v);
                return 2;
            }
        } else if (strcmp(a, "--listen") == 0 && v) {
            listen = argv[++i];
        } else if (strcmp(a, "--key") == 0 && v) {
            keyname = argv[++i];
        } else if (strcmp(a, "--worker-keys") == 0 && v) {
            wkeys = argv[++i];
        } else if (strcmp(a, "--secret-file") == 0 && v) {
            secret_file = argv[++i];
        } else if (strcmp(a, "--allow-unsandboxed") == 0) {
            allow_unsandboxed = true;
        } else if (strcmp(a, "--sandbox") == 0 && v) {
            i++;
            sandbox = strcmp(v, "none") == 0 ? LIVE_SANDBOX_NONE : strcmp(v, "bwrap") == 0 ? LIVE_SANDBOX_BWRAP
                    : LIVE_SANDBOX_AUTO;
        } else if (a[0] != '-' && !file) {
            file = a;
        } else {
            fprintf(stderr, "arbiter: run: unexpected \"%s\" (arbiter run --help)\n", a);
            return 2;
        }
    }
    if (!file) {
        usage(stderr);
        return 2;
    }
    static char keys[ARB_ZAP_MAX_KEYS][CLI_KEY_LINE];
    char pub[41] = "", sec[41] = "";
    const char *keyp[ARB_ZAP_MAX_KEYS];
    int nkeys = 0;
    if (listen) {
        char path[1024];
        snprintf(path, sizeof path, "%s.key", keyname ? keyname : "");
        if (!keyname || cli_read_key(path, sec) != 0) {
            fprintf(stderr, "arbiter: --listen needs --key NAME with NAME.key and NAME.pub (arbiter keygen NAME)\n");
            return 2;
        }
        snprintf(path, sizeof path, "%s.pub", keyname);
        if (cli_read_key(path, pub) != 0) {
            fprintf(stderr, "arbiter: %s: not a public key\n", path);
            return 2;
        }
        nkeys = wkeys ? cli_read_keys(wkeys, keys, ARB_ZAP_MAX_KEYS) : 0;
        if (nkeys < 0) {
            fprintf(stderr, "arbiter: --worker-keys %s: cannot read\n", wkeys);
            return 2;
        }
        for (int i = 0; i < nkeys; i++)
            keyp[i] = keys[i];
    } else if (workers < 1) {
        workers = 1;
    }
    char err[1024];
    uint8_t secret[32];
    if (secret_file && arb_key_read_file(secret_file, secret, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", err);
        return 2;
    }
    tn_config cfg;
    if (tn_config_load(file, &cfg, err, sizeof err) != 0 || tn_config_check_commands(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        tn_config_release(&cfg);
        return 2;
    }
    size_t ylen = 0;
    char *yaml = cli_slurp(file, &ylen);
    char digest[65];
    if (!yaml || sodium_init() < 0) {
        fprintf(stderr, "arbiter: %s: cannot read\n", file);
        tn_config_release(&cfg);
        free(yaml);
        return 2;
    }
    cli_digest(yaml, ylen, digest);
    db_place place;
    int status = 0;
    store *st = NULL;
    if (cli_open_place(&place, state, db, true, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        status = 2;
        goto out;
    }
    st = store_open(place.conninfo, err, sizeof err);
    if (!st || store_migrate(st, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        status = 2;
        goto out;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* the progress line speaks to people; the pool's log only when it matters */
    arb_log_setup(quiet ? ARB_LOG_ERROR : ARB_LOG_WARN, ARB_LOG_TEXT);
    char abs_state[512];
    if (!realpath(state, abs_state))
        snprintf(abs_state, sizeof abs_state, "%s", state);
    progress_ctx pc = {.tty = isatty(2), .quiet = quiet};
    sched_tournament_options ro = {.cfg = &cfg, .yaml = yaml, .digest = digest, .progress = on_progress, .ctx = &pc,
                      .secret = secret_file ? secret : NULL};
    local_run lr = {.state_dir = abs_state, .db = st, .workers = workers, .sandbox = sandbox,
                    .allow_unsandboxed = allow_unsandboxed, .stop = &interrupted, .listen = listen,
                    .secret_key = sec, .public_key = pub, .worker_keys = keyp, .nworker_keys = nkeys};
    if (allow_unsandboxed)
        fprintf(stderr, "arbiter: WARNING: --allow-unsandboxed: where neither bubblewrap nor root is had, bots "
                "run with rlimits only and can read your files, signal the referee and each other, and reach "
                "the network (recorded per seat as sandbox \"rlimits\")\n");
    sched_outcome outc;
    if (!quiet)
        fprintf(stderr, "arbiter: %s: %s, %s/%s, %d entrants, %d workers, record in %s\n", cfg.name,
                tn_format_name((tn_format)cfg.format), cfg.game->name, cfg.rules, cfg.nentrants, workers,
                place.private_pg ? place.pg.data : "the given database");
    int rc = local_run_tournament(&lr, &ro, &outc, err, sizeof err);
    if (pc.tty && !quiet)
        fprintf(stderr, "\n");
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        status = 1;
    } else if (interrupted) {
        fprintf(stderr, "arbiter: stopped; run the same command to resume (%d matches recorded in this run)\n",
                outc.matches);
        status = 130;
    }
    store_standing rows[ARB_TN_MAX_ENTRANTS];
    int n = store_standings(st, outc.tid, rows, ARB_TN_MAX_ENTRANTS);
    if (n > 0 && !interrupted) {
        printf("\n%s — %s%s\n\n", cfg.name, outc.finished ? "final standings" : "standings so far",
               outc.resumed ? " (resumed)" : "");
        print_standings(rows, n, "table");
        char bracket[16384], why[256];
        plan_record rec;
        if (plan_record_load(st, outc.tid, &rec, why, sizeof why) == 0) {
            if (plan_draw(&cfg, &rec, bracket, sizeof bracket) > 0)
                printf("\n%s", bracket);
            plan_record_release(&rec);
        }
        if (outc.stale)
            printf("\n%d stale results discarded (a lease had moved on)\n", outc.stale);
        if (outc.voided)
            printf("%d matches void (see `arbiter status`)\n", outc.voided);
        print_fairness(st, outc.tid);
    }
out:
    store_close(st);
    cli_close_place(&place);
    tn_config_release(&cfg);
    free(yaml);
    return status;
}

/* `arbiter status`: the tournaments in the record and their matches. */
int cmd_status(int argc, char **argv)
{
    const char *state = "arbiter-state", *db = NULL;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--state") == 0) state = argv[++i];
        else if (strcmp(argv[i], "--db") == 0) db = argv[++i];
    }
    db_place place;
    char err[1024];
    if (cli_open_place(&place, state, db, false, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        return 2;
    }
    int status = 0;
    store *st = store_open(place.conninfo, err, sizeof err);
    store_rows r;
    int rc = st ? store_report(st, STORE_REPORT_TOURNAMENTS, 0, &r, err, sizeof err) : ARB_EIO;
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        status = 2;
    } else {
        printf("%-24s %-18s %-8s %7s %6s %5s %4s %5s  %s\n", "tournament", "format", "state", "pending", "leased",
               "done", "void", "round", "created");
        for (int i = 0; i < r.nrows; i++) {
            char b[9][400];
            printf("%-24s %-18s %-8s %7s %6s %5s %4s %5s  %s\n", CELL(0), CELL(1), CELL(2), CELL(3), CELL(4),
                   CELL(5), CELL(6), CELL(7), CELL(8));
        }
    }
    if (rc == 0)
        store_rows_release(&r);
    /* Fairness: the commitment from the start, the secret once it is over. */
    rc = st ? store_report(st, STORE_REPORT_SECRETS, 0, &r, err, sizeof err) : ARB_EIO;
    if (rc == 0 && r.nrows > 0) {
        printf("\nsecrets (docs/rng.md):\n");
        for (int i = 0; i < r.nrows; i++)
            printf("  %-24s commitment %s  secret %s\n", store_cell(&r, i, 0),
                   store_cell(&r, i, 1)[0] ? store_cell(&r, i, 1) : "(none yet)",
                   store_cell(&r, i, 2)[0] ? store_cell(&r, i, 2) : "sealed until the tournament is over");
    }
    if (rc == 0)
        store_rows_release(&r);
    /* The pool: the referee workers a scheduler has heard from. */
    rc = st ? store_report(st, STORE_REPORT_POOL, 0, &r, err, sizeof err) : ARB_EIO;
    if (rc == 0 && r.nrows > 0) {
        printf("\npool:\n  %-32s %5s %-10s %7s %7s %5s  %s\n", "worker", "slots", "state", "running", "done",
               "lost", "last heard");
        for (int i = 0; i < r.nrows; i++) {
            char b[9][400];
            printf("  %-32s %5s %-10s %7s %7s %5s  %s\n", CELL(0), CELL(1), CELL(2), CELL(3), CELL(4), CELL(5),
                   CELL(6));
        }
    }
    if (rc == 0)
        store_rows_release(&r);
    /* Matches done by each referee worker (the last lease holder). */
    rc = st ? store_report(st, STORE_REPORT_DONE_BY_WORKER, 0, &r, err, sizeof err) : ARB_EIO;
    if (rc == 0 && r.nrows > 0) {
        printf("\nmatches done by worker:\n");
        for (int i = 0; i < r.nrows; i++) {
            char b[9][400];
            printf("  %-24s %-32s %s\n", CELL(0), CELL(1), CELL(2));
        }
    }
    if (rc == 0)
        store_rows_release(&r);
    /* Why matches are void: the last few reasons. */
    rc = st ? store_report(st, STORE_REPORT_VOIDS, 0, &r, err, sizeof err) : ARB_EIO;
    if (rc == 0 && r.nrows > 0) {
        printf("\nvoid matches (latest first):\n");
        for (int i = 0; i < r.nrows; i++) {
            char b[9][400];
            printf("  %s round %s table %s on %s: %s\n", CELL(0), CELL(1), CELL(2), CELL(3), CELL(4));
        }
    }
    if (rc == 0)
        store_rows_release(&r);
    store_close(st);
    cli_close_place(&place);
    return status;
}

/* `arbiter standings NAME [--format table|csv|json]`. */
int cmd_standings(int argc, char **argv)
{
    const char *state = "arbiter-state", *db = NULL, *name = NULL, *format = "table";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--state") == 0 && i + 1 < argc) state = argv[++i];
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) db = argv[++i];
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) format = argv[++i];
        else if (argv[i][0] != '-' && !name) name = argv[i];
        else {
            fprintf(stderr, "usage: arbiter standings NAME [--format table|csv|json] [--state DIR] [--db CONNINFO]\n");
            return 2;
        }
    }
    if (!name || (strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json"))) {
        fprintf(stderr, "usage: arbiter standings NAME [--format table|csv|json] [--state DIR] [--db CONNINFO]\n");
        return 2;
    }
    db_place place;
    char err[1024];
    if (cli_open_place(&place, state, db, false, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        return 2;
    }
    int status = 0;
    store *st = store_open(place.conninfo, err, sizeof err);
    int64_t tid;
    uint64_t seed;
    bool revealed;
    if (!st || store_tournament_named(st, name, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: no tournament named \"%s\" in the record\n", name);
        status = 1;
    } else {
        static store_standing rows[ARB_TN_MAX_ENTRANTS];
        int n = store_standings(st, tid, rows, ARB_TN_MAX_ENTRANTS);
        print_standings(rows, n < 0 ? 0 : n, format);
        if (strcmp(format, "table") == 0)
            print_fairness(st, tid);
    }
    store_close(st);
    cli_close_place(&place);
    return status;
}
