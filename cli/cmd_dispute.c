/* cmd_dispute.c — `arbiter dispute`: a disputed match from open to
 * resolved (docs/disputes.md). `open` records the complaint; `show` lays
 * out the evidence — the record's result, seats with their clocks and CPU
 * time, deals, penalties, the transcript re-judged with the rules engine
 * and checked against the digest in the record (the first divergence when
 * it is not reproduced), earlier disputes and superseded results; `resolve`
 * upholds, voids or reruns the match (store_dispute_resolve: nothing is
 * deleted, later matches that depended on it are planned again, ratings
 * follow); `list` lists disputes. */
#include "cli.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_text.h"
#include "replay.h"
#include "store.h"
#include "transcript.h"

#include <getopt.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter dispute open MATCH --reason TEXT [--by NAME]\n"
            "       arbiter dispute show MATCH [--format table|json]\n"
            "       arbiter dispute resolve MATCH --uphold|--void|--rerun --reason TEXT [--by NAME]\n"
            "       arbiter dispute list [TOURNAMENT] [--format table|json]\n"
            "       (each with [--state DIR | --db CONNINFO])\n\n"
            "MATCH is a match id (arbiter dispute show, the transcript's name m<ID>-g<N>.arbt).\n"
            "open     records a complaint about a finished match, with who (--by, else the\n"
            "         login name) and why.\n"
            "show     the evidence: the result in the record, each seat's decisions, clocks and\n"
            "         CPU time, the deals, the penalties, the transcript re-judged by the rules\n"
            "         engine and checked against the record's digest, earlier disputes and\n"
            "         the results a dispute replaced.\n"
            "resolve  --uphold: the result stands. --void: the match counts for nothing.\n"
            "         --rerun: it is played again with the same seeds and deals (arbiter run\n"
            "         resumes the tournament). Voided or rerun, the old result is kept\n"
            "         (superseded, never deleted), later matches of a format planned from\n"
            "         results are invalidated and planned again, and every rating is derived\n"
            "         again.\n");
}

typedef struct opts {
    const char *state, *db, *reason, *by;
    int verdict;   /* -1 none, else store_verdict */
    cli_format format;
} opts;

static int parse(int argc, char **argv, opts *o, int *first)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},      {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},  {"reason", required_argument, NULL, 'r'},
        {"by", required_argument, NULL, 'b'},  {"uphold", no_argument, NULL, 'U'},
        {"void", no_argument, NULL, 'V'},      {"rerun", no_argument, NULL, 'R'},
        {"format", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0},
    };
    *o = (opts){.state = "arbiter-state", .verdict = -1, .format = CLI_FORMAT_TABLE};
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("dispute", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': o->state = optarg; break;
        case 'd': o->db = optarg; break;
        case 'r': o->reason = optarg; break;
        case 'b': o->by = optarg; break;
        case 'U': case 'V': case 'R': {
            int v = opt == 'U' ? STORE_UPHOLD : opt == 'V' ? STORE_VOID : STORE_RERUN;
            if (o->verdict >= 0 && o->verdict != v) {
                fprintf(stderr, "arbiter: dispute: one of --uphold, --void, --rerun\n");
                return CLI_EXIT_USAGE;
            }
            o->verdict = v;
            break;
        }
        case 'f':
            if (cli_format_parse("dispute", optarg, CLI_FORMATS_TJ, &o->format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    *first = optind;
    return -1;
}

/* Text a person gives (a reason, a name): printable, bounded. */
static int check_text(const char *what, const char *s, size_t max)
{
    if (!s || !*s) {
        fprintf(stderr, "arbiter: dispute: %s is required\n", what);
        return -1;
    }
    if (strlen(s) > max) {
        fprintf(stderr, "arbiter: dispute: %s is longer than %zu bytes\n", what, max);
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c < 0x20 && *c != '\n' && *c != '\t') {
            fprintf(stderr, "arbiter: dispute: %s holds a control character (byte %u)\n", what, *c);
            return -1;
        }
    return 0;
}

static const char *who(const opts *o, char *buf, size_t len)
{
    if (o->by)
        return o->by;
    struct passwd *pw = getpwuid(getuid());
    snprintf(buf, len, "%s", pw ? pw->pw_name : "unknown");
    return buf;
}

/* The transcript re-judged and checked against the record's digest; its
 * bytes kept for the bots' ends (free data). */
typedef struct check {
    bool read, digest_ok, reproduced;
    bool signed_ok;          /* the file's signature verifies and is by the key the record names */
    char what[2048];
    char sig[512];           /* the signature's verdict in words */
    char where[700];         /* where it was read: the record, or a file */
    uint8_t *data;   /* the transcript, NULL when it could not be read */
    size_t len;
} check;

/* The transcript comes from the record (by the recorded digest, checked
 * as it is read), or from the file at path for a record made before
 * transcripts were kept in it. */
static void check_transcript(store *st, const char *path, const char *digest, const char *signer,
                             const char *worker, check *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->sig, sizeof c->sig, "not checked");
    snprintf(c->where, sizeof c->where, "-");
    if (!path[0] && !digest[0]) {
        snprintf(c->what, sizeof c->what, "no transcript in the record");
        return;
    }
    uint8_t *data = NULL;
    size_t len;
    char err[600];
    if (path[0])
        snprintf(c->where, sizeof c->where, "%s", path);
    int rc = digest[0] ? store_transcript_get(st, digest, &data, &len, err, sizeof err) : ARB_ENOTFOUND;
    if (rc == 0)   /* the referee's own path says only where it once was */
        snprintf(c->where, sizeof c->where, "in the record%s%.600s%s", path[0] ? " (written by its referee as " : "",
                 path, path[0] ? ")" : "");
    else if (rc == ARB_ENOTFOUND)   /* an older record's file, or pruned (said) */
        rc = store_transcript_load(st, digest, path, &data, &len, err, sizeof err);
    if (rc != 0) {
        snprintf(c->what, sizeof c->what, "the transcript cannot be read: %s", err);
        return;
    }
    replay_report rep;
    memset(&rep, 0, sizeof rep);
    if (replay_judge(data, len, NULL, &rep) != 0) {
        snprintf(c->what, sizeof c->what, "%s cannot be re-judged: %s", path, rep.divergence);
    } else {
        c->read = true;
        c->digest_ok = rep.digest_rc == 0 && strcmp(rep.digest, digest) == 0;
        c->reproduced = rep.reproduced;
        /* the file's signature must verify and be by the key the record
         * names (the one the scheduler checked when it recorded the
         * result); a record without a key (older, or unsigned) asks none */
        char whose[160];
        snprintf(whose, sizeof whose, "the record (referee %.100s)", worker[0] ? worker : "-");
        c->signed_ok = replay_signature_verdict(&rep, signer[0] ? signer : NULL, whose, c->sig, sizeof c->sig) == 0;
        if (!c->digest_ok)
            snprintf(c->what, sizeof c->what, "digest %s, the record says %s%s%s: the file is not the one recorded",
                     rep.digest[0] ? rep.digest : "none", digest, rep.digest_msg[0] ? ": " : "", rep.digest_msg);
        else if (!c->reproduced)
            snprintf(c->what, sizeof c->what, "not reproduced: %s", rep.divergence);
        else
            snprintf(c->what, sizeof c->what,
                     "the digest is the record's and the rules engine re-derives every decision and the result");
    }
    match_result_release(&rep.res);
    c->data = data;
    c->len = len;
}

/* How much of each process's stderr `show` prints: its end, where a crash
 * says why; `arbiter replay --stderr` prints all of it. */
#define SHOW_STDERR_TAIL 2000

/* A cell of the evidence by its column's name (store_cols.h): MV(STATE)
 * of the match; SV, DV, PV, XV, UV (row, name) of its seats, deals,
 * penalties, disputes and superseded results; LV of the disputes list. */
#define MV(col) store_cell(m, 0, STORE_EVM_##col)
#define SV(i, col) store_cell(seats, (i), STORE_EVS_##col)
#define DV(i, col) store_cell(deals, (i), STORE_EVD_##col)
#define PV(i, col) store_cell(pens, (i), STORE_EVP_##col)
#define XV(i, col) store_cell(disp, (i), STORE_EVX_##col)
#define UV(i, col) store_cell(sup, (i), STORE_EVU_##col)
#define LV(i, col) store_cell(&r, (i), STORE_DISPUTES_##col)

/* Each bot's processes as the transcript's botend records tell: the decoded
 * exit status and the end of the stderr the referee kept. */
static void show_bot_ends(const check *c, const store_rows *seats, const char *mid)
{
    printf("\nbot processes (from the transcript: how each ended, the end of its stderr)%s\n",
           c->data ? "" : ": no transcript to read (see its check above)");
    cli_bot_ends be = {.indent = "    ", .tail = SHOW_STDERR_TAIL};
    for (int i = 0; c->data && i < seats->nrows; i++) {
        char name[256];
        be.bot = (int)arb_cell_int(SV(i, SLOT));
        printf("  slot %d %s\n", be.bot, arb_term(SV(i, ENTRANT), name, sizeof name));
        if (cli_bot_ends_walk(c->data, c->len, &be) != 0)
            printf("    (a corrupt record follows)\n");
        else if (be.processes == 0)
            printf("    (no botend record: the transcript ends before the bot's process did)\n");
    }
    if (c->data)
        printf("  (all of a bot's stderr: arbiter replay --match %s --stderr SLOT)\n", mid);
}

static void json_bot_ends(const check *c, const store_rows *seats)
{
    printf(",\"bot_processes\":[");
    cli_bot_ends be = {.json = true, .tail = SHOW_STDERR_TAIL};
    for (int i = 0; c->data && i < seats->nrows; i++) {
        be.bot = (int)arb_cell_int(SV(i, SLOT));
        cli_bot_ends_walk(c->data, c->len, &be);
    }
    printf("]");
}

static void json_rows(const char *key, const store_rows *r, const char *const *cols, int ncols)
{
    printf(",\"%s\":[", key);
    for (int i = 0; i < r->nrows; i++) {
        printf("%s{", i ? "," : "");
        for (int c = 0; c < ncols && c < r->ncols; c++) {
            printf("%s\"%s\":", c ? "," : "", cols[c]);
            cli_json_string(stdout, store_cell(r, i, c));
        }
        printf("}");
    }
    printf("]");
}

static int show(const opts *o, store *st, int64_t mid)
{
    store_rows ev[STORE_EVIDENCE_PARTS];
    char err[1024];
    int rc = store_dispute_evidence(st, mid, ev, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: dispute show: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_FAIL;
    }
    const store_rows *m = &ev[0], *seats = &ev[1], *deals = &ev[2], *pens = &ev[3], *disp = &ev[4], *sup = &ev[5];
    check c;
    check_transcript(st, MV(TRANSCRIPT), MV(DIGEST), MV(SIGNER_KEY), MV(WORKER), &c);
    if (o->format == CLI_FORMAT_JSON) {
        static const char *const mc[] = {STORE_EVM_COLS(STORE_COL_KEY3)};
        static const char *const sc[] = {STORE_EVS_COLS(STORE_COL_KEY3)};
        static const char *const dc[] = {STORE_EVD_COLS(STORE_COL_KEY3)};
        static const char *const pc[] = {STORE_EVP_COLS(STORE_COL_KEY3)};
        static const char *const xc[] = {STORE_EVX_COLS(STORE_COL_KEY3)};
        static const char *const uc[] = {STORE_EVU_COLS(STORE_COL_KEY3)};
        printf("{\"match\":{");
        for (int k = 0; k < STORE_EVM_NCOLS; k++) {
            printf("%s\"%s\":", k ? "," : "", mc[k]);
            cli_json_string(stdout, store_cell(m, 0, k));
        }
        printf("},\"transcript_check\":{\"read\":%s,\"digest_matches\":%s,\"reproduced\":%s,"
               "\"signature_ok\":%s,\"detail\":", c.read ? "true" : "false", c.digest_ok ? "true" : "false",
               c.reproduced ? "true" : "false", c.signed_ok ? "true" : "false");
        cli_json_string(stdout, c.what);
        printf(",\"signature\":");
        cli_json_string(stdout, c.sig);
        printf("}");
        json_rows("seats", seats, sc, STORE_EVS_NCOLS);
        json_rows("deals", deals, dc, STORE_EVD_NCOLS);
        json_rows("penalties", pens, pc, STORE_EVP_NCOLS);
        json_bot_ends(&c, seats);
        json_rows("disputes", disp, xc, STORE_EVX_NCOLS);
        json_rows("superseded", sup, uc, STORE_EVU_NCOLS);
        printf("}\n");
    } else {
        char t1[256], t2[600];
        printf("match %s of %s: round %s, table %s, %s (attempt %s)%s%s\n", MV(ID),
               arb_term(MV(TOURNAMENT), t1, sizeof t1), MV(ROUND), MV(TABLE),
               MV(STATE), MV(ATTEMPT), MV(ERROR)[0] ? ": " : "",
               arb_term(MV(ERROR), t2, sizeof t2));
        printf("  %s games, %s decisions, %s ms; finished %s by %s; match seed %s\n", MV(GAMES),
               MV(DECISIONS), MV(WALL_MS), MV(FINISHED)[0] ? MV(FINISHED) : "-",
               MV(WORKER)[0] ? MV(WORKER) : "-", MV(MATCH_SEED));
        printf("  transcript %s\n  digest     %s\n  check      %s%s\n  signature  %s\n\n",
               c.where, MV(DIGEST)[0] ? MV(DIGEST) : "-",
               c.read && c.digest_ok && c.reproduced ? "OK: " : "FAILED: ", c.what, c.sig);
        printf("%-4s %-24s %7s %4s %9s %9s %10s %10s %7s %9s  %s\n", "slot", "entrant", "total", "rank", "forfeited",
               "decisions", "wall ms", "cpu ms", "strikes", "penalties", "sandbox");
        for (int i = 0; i < seats->nrows; i++)
            printf("%-4s %-24s %7s %4s %9s %9s %10.1f %10.1f %7s %9s  %s\n", SV(i, SLOT),
                   arb_term(SV(i, ENTRANT), t1, sizeof t1), SV(i, TOTAL), SV(i, RANK),
                   SV(i, FORFEITED)[0] == 't' ? "yes" : SV(i, FORFEITED)[0] ? "no" : "",
                   SV(i, DECISIONS), arb_cell_float(SV(i, WALL_NS)) / 1e6, arb_cell_float(SV(i, CPU_NS)) / 1e6,
                   SV(i, STRIKES), SV(i, PENALTIES), arb_term(SV(i, SANDBOX), t2, sizeof t2));
        printf("\ndeals (game: seat slots, scores by seat%s)\n", deals->nrows ? "" : ": none recorded");
        for (int i = 0; i < deals->nrows; i++)
            printf("  %-4s %-12s %-20s%s%s\n", DV(i, GAME), DV(i, SEAT_SLOTS),
                   DV(i, SCORES), DV(i, FORFEIT_SLOT)[0] ? " forfeited by slot " : "",
                   DV(i, FORFEIT_SLOT));
        int counted = 0;
        for (int i = 0; i < seats->nrows; i++)
            counted += (int)arb_cell_int(SV(i, PENALTIES));
        printf("\npenalties%s", pens->nrows ? "" : counted ? "" : ": none");
        if (counted > pens->nrows)
            printf(" (%d in the record of the %d given: the rest are in the transcript)", pens->nrows, counted);
        printf("\n");
        for (int i = 0; i < pens->nrows; i++) {
            char note[ARB_MAX_PENALTY_NOTE * 4 + 1];
            printf("  game %s, decision %s, slot %s: %s: %s\n", PV(i, GAME), PV(i, DECISION),
                   PV(i, SLOT), arb_term(PV(i, REASON), t1, sizeof t1),
                   arb_term(PV(i, CONSEQUENCE), t2, sizeof t2));
            if (PV(i, NOTE)[0])
                printf("    %s\n", arb_term(PV(i, NOTE), note, sizeof note));
        }
        char mids[24];
        snprintf(mids, sizeof mids, "%" PRId64, mid);
        show_bot_ends(&c, seats, mids);
        printf("\ndisputes%s\n", disp->nrows ? "" : ": none");
        for (int i = 0; i < disp->nrows; i++) {
            printf("  #%s opened %s by %s: %s\n", XV(i, ID), XV(i, OPENED),
                   arb_term(XV(i, OPENED_BY), t1, sizeof t1), arb_term(XV(i, REASON), t2, sizeof t2));
            if (strcmp(XV(i, STATE), "open") != 0)
                printf("     %s %s by %s: %s\n", XV(i, STATE), XV(i, RESOLVED),
                       arb_term(XV(i, RESOLVED_BY), t1, sizeof t1), arb_term(XV(i, RESOLUTION), t2, sizeof t2));
            else
                printf("     open: arbiter dispute resolve %s --uphold|--void|--rerun --reason TEXT\n",
                       MV(ID));
        }
        if (sup->nrows)
            printf("\nsuperseded results (kept in the record)\n");
        for (int i = 0; i < sup->nrows; i++)
            printf("  attempt %s, %s %s: transcript %s, digest %.16s\n", UV(i, ATTEMPT), UV(i, WHY),
                   UV(i, AT), UV(i, TRANSCRIPT)[0] ? UV(i, TRANSCRIPT) : "-",
                   UV(i, DIGEST)[0] ? UV(i, DIGEST) : "-");
    }
    free(c.data);
    for (int i = 0; i < STORE_EVIDENCE_PARTS; i++)
        store_rows_release(&ev[i]);
    return c.read && c.digest_ok && c.reproduced && c.signed_ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

static int list(const opts *o, store *st, const char *tournament)
{
    char err[1024];
    int64_t tid = 0;
    if (tournament) {
        uint64_t seed;
        bool revealed;
        if (store_tournament_named(st, tournament, &tid, &seed, &revealed) != 1) {
            char term[256];
            fprintf(stderr, "arbiter: dispute list: no tournament named \"%s\" in the record\n",
                    arb_term(tournament, term, sizeof term));
            return CLI_EXIT_NORECORD;
        }
    }
    store_rows r;
    if (store_dispute_list(st, tid, &r, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: dispute list: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    static const char *const cols[] = {STORE_DISPUTES_COLS(STORE_COL_KEY3)};
    if (o->format == CLI_FORMAT_JSON) {
        printf("{\"disputes\":[");
        for (int i = 0; i < r.nrows; i++) {
            printf("%s{", i ? "," : "");
            for (int c = 0; c < STORE_DISPUTES_NCOLS; c++) {
                printf("%s\"%s\":", c ? "," : "", cols[c]);
                cli_json_string(stdout, store_cell(&r, i, c));
            }
            printf("}");
        }
        printf("]}\n");
    } else {
        printf("%-5s %-7s %-24s %-5s %-5s %-8s %-16s %s\n", "id", "match", "tournament", "round", "table", "state",
               "opened", "reason");
        for (int i = 0; i < r.nrows; i++) {
            char t1[256], t2[600];
            printf("%-5s %-7s %-24s %-5s %-5s %-8s %-16s %s\n", LV(i, ID), LV(i, MATCH),
                   arb_term(LV(i, TOURNAMENT), t1, sizeof t1), LV(i, ROUND), LV(i, TABLE),
                   LV(i, STATE), LV(i, OPENED), arb_term(LV(i, REASON), t2, sizeof t2));
        }
        if (r.nrows == 0)
            printf("(no disputes)\n");
    }
    store_rows_release(&r);
    return CLI_EXIT_OK;
}

int cmd_dispute(int argc, char **argv)
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
    int kind = strcmp(sub, "open") == 0 ? 0 : strcmp(sub, "show") == 0 ? 1 : strcmp(sub, "resolve") == 0 ? 2
             : strcmp(sub, "list") == 0 ? 3 : -1;
    if (kind < 0) {
        char term[128];
        fprintf(stderr, "arbiter: dispute: no subcommand \"%s\" (open, show, resolve, list)\n",
                arb_term(sub, term, sizeof term));
        return CLI_EXIT_USAGE;
    }
    if ((kind < 3 && npos != 1) || (kind == 3 && npos > 1)) {
        fprintf(stderr, "arbiter: dispute %s: expected %s\n", sub, kind < 3 ? "MATCH" : "[TOURNAMENT]");
        return CLI_EXIT_USAGE;
    }
    int64_t mid = 0;
    if (kind < 3 && cli_match_id("dispute", "MATCH", pos[0], &mid))
        return CLI_EXIT_USAGE;
    if ((kind == 0 || kind == 2) && (check_text("--reason", o.reason, ARB_DISPUTE_MAX_REASON) || (o.by && check_text("--by", o.by, 100))))
        return CLI_EXIT_USAGE;
    if (kind == 2 && o.verdict < 0) {
        fprintf(stderr, "arbiter: dispute resolve: one of --uphold, --void, --rerun\n");
        return CLI_EXIT_USAGE;
    }
    if (kind != 2 && o.verdict >= 0) {
        fprintf(stderr, "arbiter: dispute %s: --uphold, --void and --rerun are for resolve\n", sub);
        return CLI_EXIT_USAGE;
    }
    char err[1024];
    db_place place;
    rc = cli_open_record(&place, o.state, o.db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    store *st = store_open(place.conninfo, err, sizeof err);
    if (!st || store_migrate(st, err, sizeof err) != 0) {
        if (!st)
            cli_say_unreachable("dispute", err);
        else   /* reached: a migration failed, not the connection */
            fprintf(stderr, "arbiter: dispute: %s\n", err);
        store_close(st);
        cli_close_place(&place);
        return CLI_EXIT_USAGE;
    }
    char me[128];
    int64_t did;
    char summary[600];
    switch (kind) {
    case 0:
        rc = store_dispute_open(st, mid, who(&o, me, sizeof me), o.reason, &did, err, sizeof err);
        if (rc == 0)
            printf("dispute %" PRId64 " opened on match %" PRId64 " (arbiter dispute show %" PRId64 ")\n", did, mid,
                   mid);
        break;
    case 1: rc = show(&o, st, mid); break;
    case 2:
        rc = store_dispute_resolve(st, mid, (store_verdict)o.verdict, who(&o, me, sizeof me), o.reason, summary,
                                   sizeof summary, err, sizeof err);
        if (rc == 0)
            printf("%s\n", summary);
        break;
    default: rc = list(&o, st, npos ? pos[0] : NULL); break;
    }
    if (kind == 0 || kind == 2) {
        if (rc)
            fprintf(stderr, "arbiter: dispute %s: %s\n", sub, err);
        rc = rc == 0 ? CLI_EXIT_OK : rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_FAIL;
    }
    store_close(st);
    cli_close_place(&place);
    return rc;
}
