/* cmd_ladder.c — `arbiter ladder`: entries come and go while a ladder runs
 * (docs/ladders.md). join puts an entry in the record (a new version of a
 * name is a new entry linked to the one before), with its program's digest;
 * the scheduler running the ladder picks it up within a second, validates
 * it, then matches it. retire takes one out of matchmaking. list is the
 * leaderboard, history one entry's ratings match by match. */
#include "cli.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_names.h"
#include "arb_text.h"
#include "match_def.h"
#include "rating.h"
#include "scheduler.h"
#include "tournament.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter ladder join LADDER NAME --command CMD [--files FILE]... [--replace]\n"
            "                           [--startup-ms N] [--env NAME=VALUE]...\n"
            "       arbiter ladder retire LADDER NAME\n"
            "       arbiter ladder list LADDER [--all] [--format table|json]\n"
            "       arbiter ladder history LADDER NAME [--format table|json]\n"
            "       (each with [--state DIR | --db CONNINFO])\n\n"
            "join     a new entry NAME running CMD (paths relative to this directory; --files: more\n"
            "         files of the program, inside this directory). A NAME already in the ladder\n"
            "         joins as its next version, NAME.v2, ...; --replace retires the version before\n"
            "         once the new one is validated. The program's files are recorded by digest:\n"
            "         changed later, the entry is suspended, not run with other code.\n"
            "         --startup-ms: its start-up budget (from its start to its handshake, once per\n"
            "         process), within the ladder's clock.startup_ms_max; --env: a variable its\n"
            "         bot is given (repeatable; docs/security.md says which names). Both are part\n"
            "         of the entry: to change them, join again (a new version).\n"
            "retire   NAME (an entry's name: NAME or NAME.vN) plays no new match.\n"
            "list     the leaderboard: active entries by conservative rating (openskill: mu - 3 sigma;\n"
            "         glicko2: rating - 2 RD; elo: rating), provisional under N games, inactive\n"
            "         after days without a match; then entries validating, suspended or rejected,\n"
            "         with their verdicts (a rejected entry's: the end of its stderr); --all adds\n"
            "         the retired.\n"
            "history  an entry's rating after each of its matches.\n");
}

typedef struct opts {
    const char *state, *db, *command;
    char files[ARB_TN_MAX_COMMAND];
    bool replace, all;
    bool state_given;           /* --state was on the command line (a hint repeats it) */
    cli_format format;
    int64_t startup_ms;         /* --startup-ms, 0 none */
    match_bot_cfg *env;         /* --env, checked as given (match_env_add); NULL none */
} opts;

/* A word as a POSIX shell reads it back: as it is when it holds only
 * characters no shell treats specially, else in single quotes (a quote
 * inside as '\''). For hints meant to be pasted. */
static void shell_word(FILE *f, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (const char *c = w; *c; c++)
        if (*c == '\'')
            fputs("'\\''", f);
        else
            fputc(*c, f);
    fputc('\'', f);
}

/* The record's place as the user gave it, for a hint: " --db C" or
 * " --state DIR" (nothing for the default state directory). */
static void place_words(FILE *f, const opts *o)
{
    if (o->db) {
        fputs(" --db ", f);
        shell_word(f, o->db);
    } else if (o->state_given) {
        fputs(" --state ", f);
        shell_word(f, o->state);
    }
}

static int parse(int argc, char **argv, opts *o, int *first)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},         {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},     {"command", required_argument, NULL, 'c'},
        {"files", required_argument, NULL, 'F'},  {"replace", no_argument, NULL, 'r'},
        {"all", no_argument, NULL, 'a'},          {"format", required_argument, NULL, 'f'},
        {"startup-ms", required_argument, NULL, 'S'}, {"env", required_argument, NULL, 'E'},
        {NULL, 0, NULL, 0},
    };
    static match_bot_cfg env;   /* --env's variables (one command a process) */
    memset(&env, 0, sizeof env);
    *o = (opts){.state = "arbiter-state", .format = CLI_FORMAT_TABLE};
    int opt;
    size_t used = 0;
    cli_opts_begin();
    while ((opt = cli_getopt("ladder", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': o->state = optarg; o->state_given = true; break;
        case 'S': {
            long long v;
            if (arb_parse_ll(optarg, 1, ARB_MAX_STARTUP_MS, &v) != 0) {
                fprintf(stderr, "arbiter: ladder: --startup-ms %s: expected milliseconds, 1 to %d\n", optarg,
                        ARB_MAX_STARTUP_MS);
                return CLI_EXIT_USAGE;
            }
            o->startup_ms = v;
            break;
        }
        case 'E': {
            char why[256], term[256];
            if (match_env_add(&env, optarg, why, sizeof why) != 0) {
                fprintf(stderr, "arbiter: ladder: --env %s\n", arb_term(why, term, sizeof term));
                return CLI_EXIT_USAGE;
            }
            o->env = &env;
            break;
        }
        case 'd': o->db = optarg; break;
        case 'c': o->command = optarg; break;
        case 'r': o->replace = true; break;
        case 'a': o->all = true; break;
        case 'F': {
            int k = snprintf(o->files + used, sizeof o->files - used, "%s%s", used ? " " : "", optarg);
            if (k < 0 || (size_t)k >= sizeof o->files - used || strchr(optarg, ' ')) {
                fprintf(stderr, "arbiter: ladder: --files %s: %s\n", optarg,
                        strchr(optarg, ' ') ? "a file name with a space" : "too many files");
                return CLI_EXIT_USAGE;
            }
            used += (size_t)k;
            break;
        }
        case 'f':
            if (cli_format_parse("ladder", optarg, CLI_FORMATS_TJ, &o->format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    *first = optind;
    return -1;
}

/* The record opened and the ladder found: -1 to go on, else an exit code. */
static int open_ladder(const opts *o, const char *name, db_place *place, store **st, int64_t *tid)
{
    char err[1024];
    int rc = cli_open_record(place, o->state, o->db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    *st = store_open(place->conninfo, err, sizeof err);
    if (!*st) {
        cli_say_unreachable("ladder", err);
        cli_close_place(place);
        return CLI_EXIT_USAGE;
    }
    int ready = cli_record_ready("ladder", *st, place);
    if (ready >= 0)
        return ready;
    uint64_t seed;
    bool revealed;
    if (store_tournament_named(*st, name, tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: ladder: no ladder named \"%s\" in the record (start it with arbiter run FILE or "
                "submit it to the scheduler)\n", name);
        goto none;
    }
    char format[32];
    if (store_tournament_format(*st, *tid, format, sizeof format) != 1 || strcmp(format, "ladder") != 0) {
        fprintf(stderr, "arbiter: ladder: \"%s\" is a tournament, not a ladder (format: ladder)\n", name);
        goto none;
    }
    return -1;
none:
    store_close(*st);
    cli_close_place(place);
    return CLI_EXIT_NORECORD;
}

/* NAME.vN is what versions are called: a name may not look like one. */
static bool versioned(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot || dot[1] != 'v' || !dot[2])
        return false;
    for (const char *c = dot + 2; *c; c++)
        if (*c < '0' || *c > '9')
            return false;
    return true;
}

/* What join checks before the record is opened: the name, the command
 * (it must start now), the program's digest. -1 to go on, else an exit code. */
static int join_check(const opts *o, const char *name, char *dir, size_t dirlen, char digest[65])
{
    if (!o->command || !*o->command) {
        fprintf(stderr, "arbiter: ladder join: say what the entry runs (--command CMD)\n");
        return CLI_EXIT_USAGE;
    }
    if (!arb_valid_name(name) || versioned(name)) {
        char term[256];
        fprintf(stderr, "arbiter: ladder join: \"%s\" is not a name for an entry (1 to %d of A-Z a-z 0-9 _ . -, "
                "not ending in .vN: versions are called so)\n", arb_term(name, term, sizeof term), ARB_MAX_BOT_NAME);
        return CLI_EXIT_USAGE;
    }
    if (strlen(o->command) >= ARB_TN_MAX_COMMAND) {
        fprintf(stderr, "arbiter: ladder join: --command is longer than %d bytes\n", ARB_TN_MAX_COMMAND - 1);
        return CLI_EXIT_USAGE;
    }
    char err[2048];
    if (!getcwd(dir, dirlen)) {
        fprintf(stderr, "arbiter: ladder join: the current directory cannot be named\n");
        return CLI_EXIT_FAIL;
    }
    /* the program as the scheduler will pack it, now: a command that does
     * not start is refused here, not found out by a validation match */
    if (sched_program_digest(name, o->command, o->files, dir, digest, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: ladder join: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

static int join(const opts *o, store *st, int64_t tid, const char *ladder, const char *name, const char *dir,
                const char *digest)
{
    int status;
    char err[2048];
    store_ladder_entry_in j = {.base = name, .command = o->command, .files = o->files, .dir = dir,
                               .digest = digest[0] ? digest : NULL, .validate = true, .replace = o->replace,
                               .entrant = -1, .startup_ms = o->startup_ms, .env = o->env ? o->env->env : NULL};
    int version;
    char entry[ARB_MAX_BOT_NAME + 1], term[256];
    int rc = store_ladder_join(st, tid, &j, &version, entry, sizeof entry, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: ladder join: %s\n", err);
        status = rc == ARB_EIO ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    } else {
        printf("%s joined %s as version %d%s; program %s\n", arb_term(entry, term, sizeof term), ladder, version,
               o->replace && version > 1 ? " (replaces the version before once validated)" : "",
               digest[0] ? digest : "(a system program, no files of its own)");
        /* a command that works as pasted: the name quoted, the record's place repeated */
        printf("it plays a validation match first; its verdict: arbiter ladder list ");
        shell_word(stdout, ladder);
        place_words(stdout, o);
        printf("\n");
        status = CLI_EXIT_OK;
    }
    return status;
}

static int retire(store *st, int64_t tid, const char *ladder, const char *name)
{
    int status;
    char err[1024], term[256];
    int n = store_ladder_retire(st, tid, name, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "arbiter: ladder retire: %s\n", err);
        status = CLI_EXIT_FAIL;
    } else if (n == 0) {
        fprintf(stderr, "arbiter: ladder retire: no entry of %s called \"%s\" is still playing\n", ladder,
                arb_term(name, term, sizeof term));
        status = CLI_EXIT_NORECORD;
    } else {
        printf("%s retired from %s: it starts no new match (one in play finishes and is rated)\n",
               arb_term(name, term, sizeof term), ladder);
        status = CLI_EXIT_OK;
    }
    return status;
}

typedef struct entry {
    int   row, order;        /* order: 0 ranked, 1 inactive, 2 validating, 3 suspended, 4 rejected, 5 retired */
    double score;
    rated  r;
    bool  rated, provisional;
} entry;

static int status_order(const char *s)
{
    static const char *const names[] = {"active", "", "validating", "suspended", "rejected", "retired"};
    for (int i = 0; i < 6; i++)
        if (names[i][0] && strcmp(s, names[i]) == 0)
            return i;
    return 6;
}

/* Epoch seconds as "YYYY-MM-DD HH:MM" (UTC), "" for "" (never). */
static const char *minute(const char *epoch, char *out, size_t len)
{
    out[0] = 0;
    if (!epoch[0])
        return out;
    time_t t = (time_t)arb_cell_int(epoch);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(out, len, "%Y-%m-%d %H:%M", &tm);
    return out;
}

static int by_board(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->order != y->order)
        return x->order - y->order;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->row - y->row;
}

int cli_ladder_board(store *st, int64_t tid, const char *ladder, bool all, cli_format format)
{
    store_rows rows;
    char err[1024];
    if (store_report(st, STORE_REPORT_LADDER, tid, &rows, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: ladder: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    tn_rating sys = TN_RATING_OPENSKILL;
    wl_model model = WL_PLACKETT_LUCE;
    int provisional = 10, inactive_days = 30;
    if (rows.nrows) {
        tn_rating_parse(store_cell(&rows, 0, STORE_LADDER_SYSTEM), &sys);
        if (store_cell(&rows, 0, STORE_LADDER_MODEL)[0])
            wl_model_parse(store_cell(&rows, 0, STORE_LADDER_MODEL), &model);
        provisional = (int)arb_cell_int(store_cell(&rows, 0, STORE_LADDER_PROVISIONAL));
        inactive_days = (int)arb_cell_int(store_cell(&rows, 0, STORE_LADDER_INACTIVE_DAYS));
    }
    entry *e = calloc((size_t)rows.nrows + 1, sizeof *e);
    if (!e) {
        store_rows_release(&rows);
        return CLI_EXIT_FAIL;
    }
    rated d = rated_default((int)sys, (int)model);
    int n = 0;
    for (int i = 0; i < rows.nrows; i++) {
        entry *x = &e[n];
        x->row = i;
        x->order = status_order(store_cell(&rows, i, STORE_LADDER_STATUS));
        x->rated = store_cell(&rows, i, STORE_LADDER_MU)[0] != 0;
        x->r = x->rated ? (rated){arb_cell_float(store_cell(&rows, i, STORE_LADDER_MU)), arb_cell_float(store_cell(&rows, i, STORE_LADDER_SIGMA)),
                                  arb_cell_float(store_cell(&rows, i, STORE_LADDER_VOL)), (int)arb_cell_int(store_cell(&rows, i, STORE_LADDER_GAMES))} : d;
        x->score = rated_score((int)sys, x->r);
        x->provisional = x->r.games < provisional;
        const char *last = store_cell(&rows, i, STORE_LADDER_LAST_ACTIVE);
        long long idle = last[0] ? arb_cell_int(store_cell(&rows, i, STORE_LADDER_NOW)) - arb_cell_int(last) : -1;
        if (x->order == 0 && idle > (long long)inactive_days * 86400)
            x->order = 1;
        if (!all && x->order >= 5)
            continue;   /* retired: --all (a rejected entry is listed with its verdict) */
        n++;
    }
    qsort(e, (size_t)n, sizeof *e, by_board);
    const char *label = sys == TN_RATING_OPENSKILL ? "mu-3sigma" : sys == TN_RATING_GLICKO2 ? "rating-2RD" : "rating";
    if (format == CLI_FORMAT_JSON) {
        printf("{\"ladder\":");
        cli_json_string(stdout, ladder);
        printf(",\"system\":\"%s\",\"provisional_games\":%d,\"inactive_days\":%d,\"entries\":[", tn_rating_name(sys),
               provisional, inactive_days);
        int rank = 0;
        for (int i = 0; i < n; i++) {
            const entry *x = &e[i];
            int r = x->row;
            printf("%s{\"rank\":", i ? "," : "");
            if (x->order <= 1)
                printf("%d", ++rank);
            else
                printf("null");
            printf(",\"name\":");
            cli_json_string(stdout, store_cell(&rows, r, STORE_LADDER_NAME));
            printf(",\"base\":");
            cli_json_string(stdout, store_cell(&rows, r, STORE_LADDER_BASE));
            printf(",\"version\":%s,\"status\":\"%s\",\"inactive\":%s,\"provisional\":%s,\"score\":%.17g,"
                   "\"mu\":%.17g,\"sigma\":%.17g,\"vol\":%.17g,\"games\":%d,\"verdict\":",
                   store_cell(&rows, r, STORE_LADDER_VERSION), store_cell(&rows, r, STORE_LADDER_STATUS), x->order == 1 ? "true" : "false",
                   x->provisional ? "true" : "false", x->score, x->r.mu, x->r.sigma, x->r.vol, x->r.games);
            cli_json_string(stdout, store_cell(&rows, r, STORE_LADDER_VERDICT));
            char when[32];
            printf(",\"last_active\":");
            cli_json_string(stdout, minute(store_cell(&rows, r, STORE_LADDER_LAST_ACTIVE), when, sizeof when));
            printf(",\"joined\":");
            cli_json_string(stdout, minute(store_cell(&rows, r, STORE_LADDER_JOINED), when, sizeof when));
            printf(",\"previous\":");
            cli_json_string(stdout, store_cell(&rows, r, STORE_LADDER_PREVIOUS));
            printf(",\"digest\":");
            cli_json_string(stdout, store_cell(&rows, r, STORE_LADDER_DIGEST));
            printf("}");
        }
        printf("]}\n");
    } else {
        printf("ladder %s: %s, provisional under %d games (*), inactive after %d days\n\n", ladder,
               tn_rating_name(sys), provisional, inactive_days);
        printf("%-4s %-24s %10s %9s %9s %6s  %-16s %s\n", "rank", "entry", label, sys == TN_RATING_GLICKO2 ? "rating" : "mu",
               sys == TN_RATING_GLICKO2 ? "RD" : "sigma", "games", "last active", "status");
        int rank = 0;
        for (int i = 0; i < n; i++) {
            const entry *x = &e[i];
            int r = x->row;
            char name[256], verdict[600], rk[16] = "-";
            if (x->order <= 1)
                snprintf(rk, sizeof rk, "%d", ++rank);
            const char *stat = x->order == 1 ? "inactive" : store_cell(&rows, r, STORE_LADDER_STATUS);
            arb_term(store_cell(&rows, r, STORE_LADDER_NAME), name, sizeof name);
            arb_term(store_cell(&rows, r, STORE_LADDER_VERDICT), verdict, sizeof verdict);
            char when[32];
            minute(store_cell(&rows, r, STORE_LADDER_LAST_ACTIVE), when, sizeof when);
            printf("%-4s %-24s %10.3f %9.3f %9.3f %5d%s  %-16s %s%s%s\n", rk, name, x->score, x->r.mu, x->r.sigma,
                   x->r.games, x->provisional ? "*" : " ", when[0] ? when : "never",
                   stat, x->order >= 2 && verdict[0] ? ": " : "", x->order >= 2 ? verdict : "");
        }
        if (n == 0) {
            printf("(no entries yet: arbiter ladder join ");
            shell_word(stdout, ladder);
            printf(" NAME --command CMD)\n");
        }
    }
    free(e);
    store_rows_release(&rows);
    return CLI_EXIT_OK;
}

static int history(const opts *o, store *st, int64_t tid, const char *ladder, const char *name)
{
    int status;
    store_rows rows, h = {0};
    char err[1024], term[256];
    int entrant = -1;
    if (store_report(st, STORE_REPORT_LADDER, tid, &rows, err, sizeof err) == 0) {
        for (int i = 0; i < rows.nrows; i++)
            if (strcmp(store_cell(&rows, i, STORE_LADDER_NAME), name) == 0)
                entrant = (int)arb_cell_int(store_cell(&rows, i, STORE_LADDER_ENTRANT));
        store_rows_release(&rows);
    }
    if (entrant < 0) {
        fprintf(stderr, "arbiter: ladder history: no entry of %s called \"%s\"\n", ladder, arb_term(name, term, sizeof term));
        status = CLI_EXIT_NORECORD;
    } else if (store_ladder_history(st, tid, entrant, &h, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: ladder history: %s\n", err);
        status = CLI_EXIT_FAIL;
    } else {
        status = CLI_EXIT_OK;
        if (o->format == CLI_FORMAT_JSON) {
            printf("{\"entry\":");
            cli_json_string(stdout, name);
            printf(",\"history\":[");
            for (int i = 0; i < h.nrows; i++)
                printf("%s{\"match\":%s,\"round\":%s,\"rank\":%s,\"mu\":%s,\"sigma\":%s,\"vol\":%s,\"at\":\"%s\"}",
                       i ? "," : "", store_cell(&h, i, STORE_LHISTORY_MATCH), store_cell(&h, i, STORE_LHISTORY_ROUND), store_cell(&h, i, STORE_LHISTORY_RANK),
                       store_cell(&h, i, STORE_LHISTORY_MU), store_cell(&h, i, STORE_LHISTORY_SIGMA), store_cell(&h, i, STORE_LHISTORY_VOL), store_cell(&h, i, STORE_LHISTORY_AT));
            printf("]}\n");
        } else {
            printf("%s in %s: %d rated matches\n\n%-8s %-6s %-5s %10s %10s  %s\n", arb_term(name, term, sizeof term),
                   ladder, h.nrows, "match", "round", "place", "mu", "sigma", "at");
            for (int i = 0; i < h.nrows; i++)
                printf("%-8s %-6s %-5s %10.4f %10.4f  %s\n", store_cell(&h, i, STORE_LHISTORY_MATCH), store_cell(&h, i, STORE_LHISTORY_ROUND),
                       store_cell(&h, i, STORE_LHISTORY_RANK), arb_cell_float(store_cell(&h, i, STORE_LHISTORY_MU)), arb_cell_float(store_cell(&h, i, STORE_LHISTORY_SIGMA)), store_cell(&h, i, STORE_LHISTORY_AT));
        }
    }
    store_rows_release(&h);
    return status;
}

int cmd_ladder(int argc, char **argv)
{
    int rc = cli_sub_help(argc, argv, usage);
    if (rc >= 0)
        return rc;
    const char *sub = argv[1];
    opts o;
    int first;
    rc = parse(argc - 1, argv + 1, &o, &first);
    if (rc >= 0)
        return rc;
    int npos = argc - 1 - first;
    char **pos = argv + 1 + first;
    struct {
        const char *name;
        int args;
    } subs[] = {{"join", 2}, {"retire", 2}, {"list", 1}, {"history", 2}};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        if (strcmp(sub, subs[i].name) != 0)
            continue;
        if (npos != subs[i].args) {
            fprintf(stderr, "arbiter: ladder %s: expected %s\n", sub, subs[i].args == 1 ? "LADDER" : "LADDER NAME");
            usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if ((o.command || o.files[0] || o.replace || o.startup_ms || o.env) && i != 0) {
            fprintf(stderr, "arbiter: ladder %s: --command, --files, --replace, --startup-ms and --env are for "
                    "join\n", sub);
            return CLI_EXIT_USAGE;
        }
        char dir[4096], digest[65];
        if (i == 0 && (rc = join_check(&o, pos[1], dir, sizeof dir, digest)) >= 0)
            return rc;
        db_place place;
        store *st;
        int64_t tid;
        if ((rc = open_ladder(&o, pos[0], &place, &st, &tid)) >= 0)
            return rc;
        switch (i) {
        case 0: rc = join(&o, st, tid, pos[0], pos[1], dir, digest); break;
        case 1: rc = retire(st, tid, pos[0], pos[1]); break;
        case 2: rc = cli_ladder_board(st, tid, pos[0], o.all, o.format); break;
        default: rc = history(&o, st, tid, pos[0], pos[1]); break;
        }
        store_close(st);
        cli_close_place(&place);
        return rc;
    }
    fprintf(stderr, "arbiter: ladder: no subcommand \"%s\" (join, retire, list, history)\n", sub);
    return CLI_EXIT_USAGE;
}
