/* cmd_run.c — `arbiter run FILE`: run (or resume) a tournament, with a
 * private PostgreSQL under a state directory unless a database is given;
 * `arbiter status` and `arbiter standings` read the record. */
#include "cli.h"
#include "arb_num.h"
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
#include "arb_file.h"
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
    __atomic_store_n(&interrupted, 1, __ATOMIC_RELAXED);
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
    bool rerun;
    if (store_fairness(st, tid, commitment, secret, &rerun) != 0 || !commitment[0])
        return;
    printf("\ncommitment (sha256 of the secret): %s\n", commitment);
    if (secret[0] && rerun)   /* `arbiter status` says rerun: a dispute reopened it */
        printf("secret (revealed when the tournament first ended; disputed matches are being played again): %s\n",
               secret);
    else if (secret[0])
        printf("secret (revealed: the tournament is over): %s\n", secret);
    else
        printf("secret: sealed until the tournament is over\n");
}
/* A cell of the record for the terminal: names come from YAML (already
 * restricted), but reasons and worker names come from workers and bots. */
#define CELL(j) arb_term(store_cell(&r, i, (j)), b[(j)], sizeof b[(j)])

/* The standings of a tournament: its teams' (partnership play), then
 * every entrant's; for the others, the entrants' alone. JSON: an array of
 * entrants, or {"teams": [...], "entrants": [...]} with teams. */
static void print_standings_of(store_standing *rows, int n, const char *what, cli_format format);
static void print_standings_csv(const store_standing *rows, int n, const char *kind, bool placed);

/* The teams' crosstable, in standings order: each cell is the row team's
 * wins-losses against the column's (ties are the rest of their
 * matches); "." where they have not met. */
static void print_team_crosstable(store *st, int64_t tid, const store_standing *teams, int nt)
{
    store_rows r;
    char err[256];
    if (nt > 32 || store_report(st, STORE_REPORT_TEAM_CROSSTABLE, tid, &r, err, sizeof err) != 0)
        return;   /* past 32 teams a grid is no help on a terminal */
    int pos[ARB_TN_MAX_ENTRANTS];
    for (int i = 0; i < ARB_TN_MAX_ENTRANTS; i++)
        pos[i] = -1;
    for (int i = 0; i < nt; i++)
        if (teams[i].entrant >= 0 && teams[i].entrant < ARB_TN_MAX_ENTRANTS)
            pos[teams[i].entrant] = i;
    static char cell[32][32][16];
    memset(cell, 0, sizeof cell);
    for (int i = 0; i < r.nrows; i++) {
        int a = (int)arb_cell_int(store_cell(&r, i, STORE_TEAMX_TEAM)), b = (int)arb_cell_int(store_cell(&r, i, STORE_TEAMX_OPPONENT));
        int m = (int)arb_cell_int(store_cell(&r, i, STORE_TEAMX_MATCHES)), won = (int)arb_cell_int(store_cell(&r, i, STORE_TEAMX_WON));
        double pts = arb_cell_float(store_cell(&r, i, STORE_TEAMX_POINTS));
        int lost = m - won - (int)((pts - won) * 2 + 0.5);   /* points = wins + ties / 2 */
        if (a >= 0 && a < ARB_TN_MAX_ENTRANTS && b >= 0 && b < ARB_TN_MAX_ENTRANTS && pos[a] >= 0 && pos[b] >= 0)
            snprintf(cell[pos[a]][pos[b]], sizeof cell[0][0], "%d-%d", won, lost);
    }
    store_rows_release(&r);
    printf("\ncrosstable (row's wins-losses against the column)\n%-4s %-20s", "", "");
    for (int j = 0; j < nt; j++)
        printf(" %6d", j + 1);
    printf("\n");
    for (int i = 0; i < nt; i++) {
        char name[256];
        printf("%-4d %-20s", i + 1, arb_term(teams[i].name, name, sizeof name));
        for (int j = 0; j < nt; j++)
            printf(" %6s", i == j ? "x" : cell[i][j][0] ? cell[i][j] : ".");
        printf("\n");
    }
}

static void print_standings(store *st, int64_t tid, cli_format format)
{
    static store_standing teams[ARB_TN_MAX_ENTRANTS], rows[ARB_TN_MAX_ENTRANTS];
    int nt = store_standings_placed(st, tid, true, teams, ARB_TN_MAX_ENTRANTS);
    int n = store_standings_placed(st, tid, false, rows, ARB_TN_MAX_ENTRANTS);
    if (nt <= 0) {
        print_standings_of(rows, n < 0 ? 0 : n, "entrant", format);
        if (format == CLI_FORMAT_JSON)
            printf("\n");
        return;
    }
    if (format == CLI_FORMAT_JSON) {
        printf("{\"teams\":");
        print_standings_of(teams, nt, "team", format);
        printf(",\"entrants\":");
        print_standings_of(rows, n < 0 ? 0 : n, "entrant", format);
        printf("}\n");
        return;
    }
    if (format == CLI_FORMAT_CSV) {
        /* one table (two one after the other read as one to no CSV reader):
         * the teams, then the members, told apart by the first column */
        n = n < 0 ? 0 : n;
        bool placed = false;
        for (int i = 0; i < nt; i++)
            placed = placed || teams[i].place > 0;
        for (int i = 0; i < n; i++)
            placed = placed || rows[i].place > 0;
        printf("kind,rank,name,played,points,score,wins,penalties,forfeited%s\n", placed ? ",reached,tiebreak" : "");
        print_standings_csv(teams, nt, "team", placed);
        print_standings_csv(rows, n, "member", placed);
        return;
    }
    print_standings_of(teams, nt, "team", format);
    if (format == CLI_FORMAT_TABLE)
        print_team_crosstable(st, tid, teams, nt);
    printf("\nmembers (each bot's own matches, points and penalties)\n");
    print_standings_of(rows, n < 0 ? 0 : n, "entrant", format);
}

/* CSV rows (no header): "KIND," first when kind is not NULL; the
 * placement's two columns when placed. */
static void print_standings_csv(const store_standing *rows, int n, const char *kind, bool placed)
{
    for (int i = 0; i < n; i++) {
        if (kind)
            printf("%s,", kind);
        printf("%d,", i + 1);
        cli_csv_field(stdout, rows[i].name);
        printf(",%d,%.1f,%" PRId64 ",%d,%d,%s", rows[i].played, rows[i].points, rows[i].score, rows[i].wins,
               rows[i].penalties, rows[i].forfeited ? "true" : "false");
        if (placed) {
            printf(",");
            cli_csv_field(stdout, rows[i].reached);
            printf(",");
            cli_csv_field(stdout, rows[i].tiebreak);
        }
        printf("\n");
    }
}

static void print_standings_of(store_standing *rows, int n, const char *what, cli_format format)
{
    /* a knockout's placement (docs/rules/placement.md): the stage reached
     * and any tie-break, in every format */
    bool placed = false;
    for (int i = 0; i < n; i++)
        placed = placed || rows[i].place > 0;
    if (format == CLI_FORMAT_CSV) {
        printf("rank,%s,played,points,score,wins,penalties,forfeited%s\n", strcmp(what, "team") == 0 ? "team" : "name",
               placed ? ",reached,tiebreak" : "");
        print_standings_csv(rows, n, NULL, placed);
        return;
    }
    if (format == CLI_FORMAT_JSON) {
        printf("[");
        for (int i = 0; i < n; i++) {
            printf("%s{\"rank\":%d,\"name\":", i ? "," : "", i + 1);
            cli_json_string(stdout, rows[i].name);
            printf(",\"played\":%d,\"points\":%.1f,\"score\":%" PRId64 ",\"wins\":%d,\"penalties\":%d,"
                   "\"forfeited\":%s", rows[i].played, rows[i].points, rows[i].score, rows[i].wins,
                   rows[i].penalties, rows[i].forfeited ? "true" : "false");
            if (placed) {
                printf(",\"reached\":");
                cli_json_string(stdout, rows[i].reached);
                printf(",\"tiebreak\":");
                if (rows[i].tiebreak[0])
                    cli_json_string(stdout, rows[i].tiebreak);
                else
                    printf("null");
            }
            printf("}");
        }
        printf("]");   /* the caller ends the line */
        return;
    }
    printf("%-4s %-20s %6s %8s %9s %5s %9s%s\n", "rank", what, "played", "points", "score", "wins", "penalties",
           placed ? "  reached" : "");
    for (int i = 0; i < n; i++) {
        char name[256], reached[64];
        printf("%-4d %-20s %6d %8.1f %+9" PRId64 " %5d %9d", i + 1, arb_term(rows[i].name, name, sizeof name),
               rows[i].played, rows[i].points, rows[i].score, rows[i].wins, rows[i].penalties);
        if (placed)
            printf("  %-16s", arb_term(rows[i].reached, reached, sizeof reached));
        printf("%s%s\n", rows[i].forfeited ? "  (forfeited)" : "", placed && rows[i].tiebreak[0] ? "  (tie-break)" : "");
    }
    if (!placed)
        return;
    /* each tie once, in the words of the record's `tie-break` events */
    bool any = false;
    for (int i = 0; i < n; i++) {
        bool seen = !rows[i].tiebreak[0];
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(rows[j].tiebreak, rows[i].tiebreak) == 0;
        if (seen)
            continue;
        char note[STORE_NOTE_MAX * 2];
        printf("%s  %s\n", any ? "" : "\nties settled (docs/rules/placement.md, rule P2):\n",
               arb_term(rows[i].tiebreak, note, sizeof note));
        any = true;
    }
    printf("\nplaced by the stage reached, then the place at that table, then points (rule P1)\n");
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter run FILE [--state DIR] [--db CONNINFO] [--workers N] [--sandbox auto|bwrap|none] [--allow-unsandboxed]\n"
        "                        [--secret-file F] [--listen EP --key NAME --worker-keys FILE] [--new] [--quiet]\n"
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
        "                   from the start, the secret itself when the tournament is over\n"
        "  --new            start another tournament of this name: without it, a file changed since\n"
        "                   its name's tournament started is refused (the record keeps both, each\n"
        "                   selected by its id, \"#ID\", as `arbiter run` and `status` print it)\n"
        "  --quiet          no progress line; the standings still\n"
        "\n"
        "Exit status 0 when the tournament ran (or is over), 1 on a tournament error,\n"
        "2 for a bad option or file, 130 when interrupted (run it again to resume).\n");
}

/* What the command line asked of `arbiter run`. */
typedef struct run_opts {
    const char *file, *state, *db, *listen, *keyname, *wkeys, *secret_file;
    int workers, sandbox;
    bool quiet, allow_unsandboxed, fresh;
} run_opts;

/* Read the options into *o: -1 to go on, else the exit code (a message
 * said). */
static int parse_run_opts(int argc, char **argv, run_opts *o)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"quiet", no_argument, NULL, 'q'},
        {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},
        {"workers", required_argument, NULL, 'w'},
        {"listen", required_argument, NULL, 'l'},
        {"key", required_argument, NULL, 'k'},
        {"worker-keys", required_argument, NULL, 'K'},
        {"secret-file", required_argument, NULL, 'S'},
        {"allow-unsandboxed", no_argument, NULL, 'A'},
        {"sandbox", required_argument, NULL, 'x'},
        {"new", no_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    *o = (run_opts){.state = "arbiter-state", .workers = (int)sysconf(_SC_NPROCESSORS_ONLN),
                    .sandbox = LIVE_SANDBOX_AUTO};
    long long nworkers;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("run", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'q': o->quiet = true; break;
        case 's': o->state = optarg; break;
        case 'd': o->db = optarg; break;
        case 'w':
            if (cli_int_arg("run", "workers", optarg, 0, 256, &nworkers))
                return CLI_EXIT_USAGE;
            o->workers = (int)nworkers;
            break;
        case 'l': o->listen = optarg; break;
        case 'k': o->keyname = optarg; break;
        case 'K': o->wkeys = optarg; break;
        case 'S': o->secret_file = optarg; break;
        case 'A': o->allow_unsandboxed = true; break;
        case 'n': o->fresh = true; break;
        case 'x':
            if (strcmp(optarg, "none") && strcmp(optarg, "bwrap") && strcmp(optarg, "auto")) {
                fprintf(stderr, "arbiter: run: --sandbox \"%s\": expected auto, bwrap or none\n", optarg);
                return CLI_EXIT_USAGE;
            }
            o->sandbox = strcmp(optarg, "none") == 0 ? LIVE_SANDBOX_NONE : strcmp(optarg, "bwrap") == 0
                    ? LIVE_SANDBOX_BWRAP : LIVE_SANDBOX_AUTO;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    o->file = argv[optind];
    return -1;
}

/* --listen: this scheduler's key pair (--key NAME) and the workers' keys
 * (--worker-keys) into sec, pub and keyp[0..*nkeys) (pointing into static
 * storage). 0, or 2 with a message said. */
static int read_listen_keys(const run_opts *o, char sec[41], char pub[41], const char **keyp, int *nkeys)
{
    static char keys[ARB_ZAP_MAX_KEYS][CLI_KEY_LINE];
    char path[1024];
    snprintf(path, sizeof path, "%s.key", o->keyname ? o->keyname : "");
    if (!o->keyname || cli_read_key(path, sec) != 0) {
        fprintf(stderr, "arbiter: --listen needs --key NAME with NAME.key and NAME.pub (arbiter keygen NAME)\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s.pub", o->keyname);
    if (cli_read_key(path, pub) != 0) {
        fprintf(stderr, "arbiter: %s: not a public key\n", path);
        return 2;
    }
    *nkeys = o->wkeys ? cli_read_keys(o->wkeys, keys, ARB_ZAP_MAX_KEYS) : 0;
    if (*nkeys < 0) {
        fprintf(stderr, "arbiter: --worker-keys %s: cannot read\n", o->wkeys);
        return 2;
    }
    for (int i = 0; i < *nkeys; i++)
        keyp[i] = keys[i];
    return 0;
}

/* The record: the database given (--db, ARBITER_DB), reached before the
 * state directory is made, else the state directory's own; migrated.
 * The store, or NULL with a message said (*place may be open: close it). */
static store *open_record(const run_opts *o, db_place *place, char *err, size_t errlen)
{
    store *st = NULL;
    const char *given = o->db ? o->db : getenv("ARBITER_DB");
    if (given && *given && !(st = store_open(given, err, errlen))) {
        cli_say_unreachable("run", err);
        return NULL;
    }
    if (cli_open_place(place, o->state, o->db, true, err, errlen) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        store_close(st);
        return NULL;
    }
    if (!st)
        st = store_open(place->conninfo, err, errlen);
    if (!st || store_migrate(st, err, errlen) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        store_close(st);
        return NULL;
    }
    return st;
}

/* After the run: the ladder's board, or the standings, the bracket and
 * what was void or stale; the status (CLI_EXIT_FAIL when every match was
 * void). */
static int print_outcome(store *st, const tn_config *cfg, const sched_outcome *outc, int rc, int status)
{
    if (cfg->format == TN_LADDER && !rc) {
        printf("\n%s — %s\n\n", cfg->name, outc->finished ? "final leaderboard" : "leaderboard so far");
        cli_ladder_board(st, outc->tid, cfg->name, false, CLI_FORMAT_TABLE);
        if (outc->voided)
            printf("%d matches void (see `arbiter status`)\n", outc->voided);
        print_fairness(st, outc->tid);
        return status;
    }
    static store_standing rows[ARB_TN_MAX_ENTRANTS];
    int n = store_standings(st, outc->tid, false, rows, ARB_TN_MAX_ENTRANTS);
    /* finished with no match played: every one was void, and all-zero
     * standings would pass for a result */
    int played = 0;
    for (int i = 0; i < n; i++)
        played += rows[i].played;
    if (n > 0 && !rc && !interrupted && outc->finished && played == 0) {
        fprintf(stderr, "arbiter: %s: every match was void, no result (why: `arbiter status`)\n", cfg->name);
        status = CLI_EXIT_FAIL;
    } else if (n > 0 && !interrupted) {
        printf("\n%s (id %" PRId64 ", select it as \"#%" PRId64 "\") — %s%s\n\n", cfg->name, outc->tid, outc->tid,
               outc->finished ? "final standings" : "standings so far", outc->resumed ? " (resumed)" : "");
        print_standings(st, outc->tid, CLI_FORMAT_TABLE);
        char bracket[16384], why[256];
        plan_record rec;
        if (plan_record_load(st, outc->tid, cfg->nteams > 0, &rec, why, sizeof why) == 0) {
            if (plan_draw(cfg, &rec, bracket, sizeof bracket) > 0)
                printf("\n%s", bracket);
            plan_record_release(&rec);
        }
        if (outc->stale)
            printf("\n%d stale results discarded (a lease had moved on)\n", outc->stale);
        if (outc->voided)
            printf("%d matches void (see `arbiter status`)\n", outc->voided);
        print_fairness(st, outc->tid);
    }
    return status;
}

int cmd_run(int argc, char **argv)
{
    run_opts o;
    int status = parse_run_opts(argc, argv, &o);
    if (status >= 0)
        return status;
    char pub[41] = "", sec[41] = "";
    const char *keyp[ARB_ZAP_MAX_KEYS];
    int nkeys = 0;
    if (o.listen) {
        if (read_listen_keys(&o, sec, pub, keyp, &nkeys) != 0)
            return 2;
    } else if (o.workers < 1) {
        o.workers = 1;
    }
    char err[1024];
    uint8_t secret[32];
    if (o.secret_file && arb_key_read_file(o.secret_file, secret, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", err);
        return 2;
    }
    tn_config cfg;
    if (tn_config_load(o.file, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        tn_config_release(&cfg);
        return 2;
    }
    /* a bot's files gone: only a resume whose record holds its program
     * goes on (the scheduler plays the recorded one, docs/disputes.md) */
    char missing[1024] = "";
    if (tn_config_check_commands(&cfg, missing, sizeof missing) != 0 && o.fresh) {
        fprintf(stderr, "%s\n", missing);
        tn_config_release(&cfg);
        return 2;
    }
    db_place place = {.lock_fd = -1};
    status = 0;
    store *st = open_record(&o, &place, err, sizeof err);
    if (!st) {
        status = CLI_EXIT_USAGE;
        goto out;
    }
    if (missing[0] && !cli_programs_recorded(st, &cfg)) {
        fprintf(stderr, "%s\n", missing);
        status = CLI_EXIT_USAGE;
        goto out;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* the progress line speaks to people; the pool's log only when it matters */
    arb_log_setup(o.quiet ? ARB_LOG_ERROR : ARB_LOG_WARN, ARB_LOG_TEXT);
    char abs_state[512];
    if (!realpath(o.state, abs_state))
        snprintf(abs_state, sizeof abs_state, "%s", o.state);
    progress_ctx pc = {.tty = isatty(2), .quiet = o.quiet};
    sched_tournament_options ro = {.cfg = &cfg, .yaml = cfg.text, .digest = cfg.digest, .progress = on_progress,
                                   .ctx = &pc, .secret = o.secret_file ? secret : NULL, .fresh = o.fresh};
    local_run lr = {.state_dir = abs_state, .db = st, .workers = o.workers, .sandbox = o.sandbox,
                    .allow_unsandboxed = o.allow_unsandboxed, .stop = &interrupted, .listen = o.listen,
                    .secret_key = sec, .public_key = pub, .worker_keys = keyp, .nworker_keys = nkeys};
    if (o.allow_unsandboxed)
        fprintf(stderr, "arbiter: WARNING: --allow-unsandboxed: where neither bubblewrap nor root is had, bots "
                "run with rlimits only and can read your files, signal the referee and each other, and reach "
                "the network (recorded per seat as sandbox \"rlimits\")\n");
    sched_outcome outc;
    if (!o.quiet)
        fprintf(stderr, "arbiter: %s: %s, %s/%s, %d entrants, %d workers, record in %s\n", cfg.name,
                tn_format_name((tn_format)cfg.format), cfg.match.game->name, cfg.match.preset, cfg.nentrants,
                o.workers, place.private_pg ? place.pg.data : "the given database");
    int rc = local_run_tournament(&lr, &ro, &outc, err, sizeof err);
    if (pc.tty && !o.quiet)
        fprintf(stderr, "\n");
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        if (rc != ARB_EDISKFULL && store_failed_transiently(st))   /* said, never dropped in silence */
            fprintf(stderr, "arbiter: the database failed for a passing reason (%s): nothing recorded is lost; run "
                    "the same command to resume tournament \"%s\" once it answers\n", store_last_failure(st),
                    cfg.name);
        status = rc == ARB_EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
        if (rc == ARB_EEXIST)   /* nothing of it ran: the other tournament's standings would mislead */
            goto out;
    } else if (interrupted) {
        fprintf(stderr, "arbiter: stopped; run the same command to resume tournament \"%s\" (id %" PRId64 ") "
                "(%d matches recorded in this run)\n", cfg.name, outc.tid, outc.matches);
        status = CLI_EXIT_INTERRUPTED;
    }
    status = print_outcome(st, &cfg, &outc, rc, status);
out:
    store_close(st);
    cli_close_place(&place);
    tn_config_release(&cfg);
    return status;
}

/* A result's rows as a JSON array of objects: names[k] is column k's key,
 * types[k] 'n' for a number (bare), 's' for a string. */
static void print_rows_json(const store_rows *r, const char *const *names, const char *types)
{
    printf("[");
    for (int i = 0; i < r->nrows; i++) {
        printf("%s{", i ? "," : "");
        for (int k = 0; names[k]; k++) {
            const char *v = store_cell(r, i, k);
            printf("%s\"%s\":", k ? "," : "", names[k]);
            if (types[k] == 'n')
                fputs(v[0] ? v : "null", stdout);
            else
                cli_json_string(stdout, v);
        }
        printf("}");
    }
    printf("]");
}

/* What `arbiter status` shows: one report of the store's each, as a JSON
 * array under `key` or as a table: a title (none for the first), a header
 * line of the column names or none, and each cell after its prefix in its
 * width (negative: left-justified; 0: as is), escaped for the terminal; an
 * empty cell reads `blank` when one is given. */
typedef struct status_report {
    store_report_kind kind;
    const char *key;
    const char *title;
    bool header;
    const char *types;                 /* per column: 's' string, 'n' number */
    struct { const char *name, *pre; int width; const char *blank; } col[11];
} status_report;

static const status_report status_reports[] = {
    {STORE_REPORT_TOURNAMENTS, "tournaments", NULL, true, "nsssnnnnnss",
     {{"id", "", -5, NULL}, {"tournament", " ", -24, NULL}, {"format", " ", -18, NULL}, {"state", " ", -8, NULL}, {"pending", " ", 7, NULL},
      {"leased", " ", 6, NULL}, {"done", " ", 5, NULL}, {"void", " ", 4, NULL}, {"round", " ", 5, NULL},
      {"created", "  ", -16, NULL}, {"game", "  ", 0, NULL}}},
    /* Fairness: the commitment from the start, the secret once it is over. */
    {STORE_REPORT_SECRETS, "secrets", "secrets (docs/rng.md)", false, "sss",
     {{"tournament", "  ", -24, NULL}, {"commitment", " commitment ", 0, "(none yet)"},
      {"secret", "  secret ", 0, "sealed until the tournament is over"}}},
    /* The pool: the referee workers a scheduler has heard from. */
    /* lost: back to the queue because it went silent; back: handed back by
     * its own word (a clean stop), which costs nothing but the replay. */
    {STORE_REPORT_POOL, "pool", "pool", true, "snsnnnns",
     {{"worker", "  ", -32, NULL}, {"slots", " ", 5, NULL}, {"state", " ", -10, NULL}, {"running", " ", 7, NULL},
      {"done", " ", 7, NULL}, {"lost", " ", 5, NULL}, {"back", " ", 5, NULL}, {"last_heard", "  ", 0, NULL}}},
    /* Matches done by each referee worker (the last lease holder). */
    {STORE_REPORT_DONE_BY_WORKER, "done_by_worker", "matches done by worker", false, "ssn",
     {{"tournament", "  ", -24, NULL}, {"worker", " ", -32, NULL}, {"done", " ", 0, NULL}}},
    /* Why matches are void: the last few reasons. */
    {STORE_REPORT_VOIDS, "void", "void matches (latest first)", false, "snnss",
     {{"tournament", "  ", 0, NULL}, {"round", " round ", 0, NULL}, {"table", " table ", 0, NULL},
      {"worker", " on ", 0, NULL}, {"error", ": ", 0, NULL}}},
};

static void print_rows_table(const store_rows *r, const status_report *sr)
{
    if (sr->title)
        printf("\n%s:\n", sr->title);
    for (int i = sr->header ? -1 : 0; i < r->nrows; i++) {
        for (int k = 0; k < 11 && sr->col[k].name; k++) {
            char b[400];
            const char *v = i < 0 ? sr->col[k].name : store_cell(r, i, k);
            if (!v[0] && sr->col[k].blank)
                v = sr->col[k].blank;
            if (i < 0 && strcmp(v, "last_heard") == 0)
                v = "last heard";
            printf("%s%*s", sr->col[k].pre, sr->col[k].width, arb_term(v, b, sizeof b));
        }
        printf("\n");
    }
}

static void status_usage(FILE *f)
{
    fprintf(f, "usage: arbiter status [--state DIR | --db CONNINFO] [--format table|json]\n\n"
               "The tournaments in the record (matches pending, leased, done, void; the\n"
               "round), their secrets' commitments (the secret once a tournament is over),\n"
               "the pool of referee workers, and why the latest void matches are void.\n"
               "Reads only: without a record there (no cluster under DIR) it says so and\n"
               "exits 3, creating nothing.\n");
}

/* `arbiter status`: the tournaments in the record and their matches. */
int cmd_status(int argc, char **argv)
{
    cli_reader rd;
    int exit_now = cli_reader_open("status", argc, argv, CLI_FORMATS_TJ, false, status_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    bool json = rd.format == CLI_FORMAT_JSON;
    store *st = rd.st;
    char err[1024];
    int status = CLI_EXIT_OK;
    if (json)
        printf("{");
    for (size_t k = 0; k < sizeof status_reports / sizeof status_reports[0]; k++) {
        const status_report *sr = &status_reports[k];
        store_rows r;
        if (store_report(st, sr->kind, 0, &r, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: %s\n", err);
            status = CLI_EXIT_FAIL;
            break;
        }
        if (json) {
            const char *names[12] = {0};
            for (int c = 0; c < 11 && sr->col[c].name; c++)
                names[c] = sr->col[c].name;
            printf("%s\"%s\":", k ? "," : "", sr->key);
            print_rows_json(&r, names, sr->types);
        } else if (r.nrows > 0 || k == 0) {
            print_rows_table(&r, sr);
        }
        store_rows_release(&r);
    }
    if (json)
        printf("}\n");
    cli_reader_close(&rd);
    return status;
}

static void standings_usage(FILE *f)
{
    fprintf(f, "usage: arbiter standings NAME|#ID [--format table|csv|json] [--state DIR | --db CONNINFO]\n\n"
               "The standings of tournament NAME (the latest of that name) or #ID (its id, as\n"
               "`arbiter run` and `arbiter status` print it): rank, entrant, matches played,\n"
               "points, score, wins, penalties; in a knockout format ranked by the stage\n"
               "reached, with that stage and any tie-break (docs/rules/placement.md).\n"
               "Reads only: exits 3 when there is no record or no such tournament in it.\n");
}

/* `arbiter standings NAME [--format table|csv|json]`. */
int cmd_standings(int argc, char **argv)
{
    cli_reader rd;
    int exit_now = cli_reader_open("standings", argc, argv, CLI_FORMATS_ALL, true, standings_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    const char *name = rd.name;
    cli_format format = rd.format;
    store *st = rd.st;
    int status = 0;
    int64_t tid;
    uint64_t seed;
    bool revealed;
    if (store_tournament_named(st, name, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: no tournament %s \"%s\" in the record (`arbiter status` lists them)\n",
                name[0] == '#' ? "of id" : "named", name);
        status = CLI_EXIT_NORECORD;
    } else {
        print_standings(st, tid, format);
        if (format == CLI_FORMAT_TABLE)
            print_fairness(st, tid);
    }
    cli_reader_close(&rd);
    return status;
}
