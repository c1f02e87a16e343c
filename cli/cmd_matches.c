/* cmd_matches.c — finding things in the record: `arbiter matches` (a
 * tournament's matches), `arbiter match-info` (one match, deal by deal),
 * `arbiter crosstable` (entrant against entrant). Read only. */
#include "cli.h"
#include "arb_num.h"
#include "arb_text.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cell escaped for the terminal (names and paths are anyone's bytes). */
static const char *term(const char *v, char *b, size_t cap)
{
    return arb_term(v, b, cap);
}

/* The latest tournament called rd->name: its id, or 0 after saying there is none. */
static int64_t tournament(const char *cmd, cli_reader *rd)
{
    int64_t tid;
    uint64_t seed;
    bool revealed;
    if (store_tournament_named(rd->st, rd->name, &tid, &seed, &revealed) == 1)
        return tid;
    char b[300];
    fprintf(stderr, "arbiter: %s: no tournament named \"%s\" in the record\n", cmd, term(rd->name, b, sizeof b));
    return 0;
}

static int report(cli_reader *rd, store_report_kind kind, int64_t id, store_rows *r)
{
    char err[1024];
    if (store_report(rd->st, kind, id, r, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "arbiter: %s\n", err);
    return -1;
}

/* Report `kind` of the latest tournament called rd->name into r: an exit code. */
static int tournament_rows(const char *cmd, cli_reader *rd, store_report_kind kind, store_rows *r)
{
    int64_t tid = tournament(cmd, rd);
    if (!tid)
        return CLI_EXIT_NORECORD;
    return report(rd, kind, tid, r) != 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* ---- arbiter matches ------------------------------------------------------ */

static void matches_usage(FILE *f)
{
    fprintf(f, "usage: arbiter matches TOURNAMENT [--round R] [--entrant NAME] [--format table|csv|json]\n"
               "                       [--state DIR | --db CONNINFO]\n\n"
               "The matches of tournament TOURNAMENT (the latest of that name), by round and\n"
               "table: id, round, table, state, the entrants in their seats (slot order),\n"
               "their scores, match points and ranks (empty until the match is done), the\n"
               "transcript and its digest. --round R: that round only; --entrant NAME: the\n"
               "matches NAME played. Reads only: exits 3 when there is no record, no such\n"
               "tournament or no such entrant.\n");
}

/* A cell of a report by its column's name (store_cols.h): MCELL(r, i,
 * ROUND) of STORE_REPORT_MATCHES; SEAT, DEAL, PEN of one match's seats,
 * deals, penalties; XCELL of the crosstable. */
#define MCELL(r, i, col) store_cell((r), (i), STORE_MATCHES_##col)
#define SEAT(i, col) store_cell(&seats, (i), STORE_MATCH_##col)
#define DEAL(i, col) store_cell(&deals, (i), STORE_DEALS_##col)
#define PEN(i, col) store_cell(&pens, (i), STORE_PENS_##col)
#define XCELL(i, col) store_cell(&r, (i), STORE_XTABLE_##col)

/* Row indexes [from, to) of one match in the per-seat report. */
static int match_end(const store_rows *r, int from)
{
    int to = from + 1;
    while (to < r->nrows && strcmp(MCELL(r, to, ID), MCELL(r, from, ID)) == 0)
        to++;
    return to;
}

static bool has_entrant(const store_rows *r, int from, int to, const char *name)
{
    for (int i = from; i < to; i++)
        if (strcmp(MCELL(r, i, ENTRANT), name) == 0)
            return true;
    return false;
}

/* Column c of seats [from, to) joined by sep, for a table (escaped) or csv. */
static void joined(const store_rows *r, int from, int to, int c, const char *sep, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (int i = from; i < to && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", i > from ? sep : "", store_cell(r, i, c));
}

static void print_match_json(const store_rows *r, int from, int to)
{
    printf("{\"id\":%s,\"round\":%s,\"table\":%s,\"state\":", MCELL(r, from, ID), MCELL(r, from, ROUND),
           MCELL(r, from, TABLE));
    cli_json_string(stdout, MCELL(r, from, STATE));
    printf(",\"seats\":[");
    for (int i = from; i < to; i++) {
        const char *tot = MCELL(r, i, TOTAL), *pts = MCELL(r, i, POINTS), *rank = MCELL(r, i, RANK);
        printf("%s{\"slot\":%s,\"entrant\":", i > from ? "," : "", MCELL(r, i, SLOT));
        cli_json_string(stdout, MCELL(r, i, ENTRANT));
        printf(",\"total\":%s,\"points\":%s,\"rank\":%s}", tot[0] ? tot : "null", pts[0] ? pts : "null",
               rank[0] ? rank : "null");
    }
    printf("],\"transcript\":");
    cli_json_string(stdout, MCELL(r, from, TRANSCRIPT));
    printf(",\"digest\":");
    cli_json_string(stdout, MCELL(r, from, DIGEST));
    printf("}");
}

/* --round R and --entrant NAME taken out of argv (the rest goes to
 * cli_reader_open): 0, or an exit code after a message. */
static int matches_filters(int *argc, char **argv, const char **round, const char **entrant)
{
    int n = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        const char **to = strcmp(a, "--round") == 0 ? round : strcmp(a, "--entrant") == 0 ? entrant : NULL;
        if (to) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "arbiter: matches: option %s needs a value\n", a);
                return CLI_EXIT_USAGE;
            }
            *to = argv[++i];
        } else if (strncmp(a, "--round=", 8) == 0) {
            *round = a + 8;
        } else if (strncmp(a, "--entrant=", 10) == 0) {
            *entrant = a + 10;
        } else {
            argv[n++] = argv[i];
        }
    }
    *argc = n;
    argv[n] = NULL;
    return 0;
}

int cmd_matches(int argc, char **argv)
{
    const char *round_arg = NULL, *entrant = NULL;
    if (matches_filters(&argc, argv, &round_arg, &entrant)) {
        matches_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    long long round = -1;
    if (round_arg && cli_int_arg("matches", "--round", round_arg, 1, 1000000, &round))
        return CLI_EXIT_USAGE;
    cli_reader rd;
    int exit_now = cli_reader_open("matches", argc, argv, CLI_FORMATS_ALL, true, matches_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    store_rows r = {0};
    int status = tournament_rows("matches", &rd, STORE_REPORT_MATCHES, &r);
    if (status)
        goto out;
    if (entrant) {
        bool known = false;
        for (int i = 0; i < r.nrows && !known; i++)
            known = strcmp(MCELL(&r, i, ENTRANT), entrant) == 0;
        if (!known) {
            char b[300], t[300];
            fprintf(stderr, "arbiter: matches: --entrant \"%s\": no entrant of that name played in \"%s\"\n",
                    term(entrant, b, sizeof b), term(rd.name, t, sizeof t));
            status = CLI_EXIT_NORECORD;
            goto out;
        }
    }
    cli_format f = rd.format;
    if (f == CLI_FORMAT_TABLE)
        printf("%-8s %5s %5s %-6s %-32s %-20s %-12s %s\n", "id", "round", "table", "state", "seats", "scores", "ranks",
               "transcript digest");
    else if (f == CLI_FORMAT_CSV)
        printf("id,round,table,state,seats,scores,points,ranks,transcript,digest\n");
    else
        printf("[");
    int shown = 0;
    for (int from = 0, to; from < r.nrows; from = to) {
        to = match_end(&r, from);
        if ((round >= 0 && arb_cell_int(MCELL(&r, from, ROUND)) != round) || (entrant && !has_entrant(&r, from, to, entrant)))
            continue;
        if (f == CLI_FORMAT_JSON) {
            printf("%s", shown ? "," : "");
            print_match_json(&r, from, to);
        } else {
            char seats[800], scores[200], points[200], ranks[100], b[2][900];
            const char *sep = f == CLI_FORMAT_CSV ? ";" : " ";
            joined(&r, from, to, STORE_MATCHES_ENTRANT, sep, seats, sizeof seats);
            joined(&r, from, to, STORE_MATCHES_TOTAL, sep, scores, sizeof scores);
            joined(&r, from, to, STORE_MATCHES_POINTS, sep, points, sizeof points);
            joined(&r, from, to, STORE_MATCHES_RANK, sep, ranks, sizeof ranks);
            if (f == CLI_FORMAT_TABLE) {
                printf("%-8s %5s %5s %-6s %-32s %-20s %-12s %s %s\n", MCELL(&r, from, ID),
                       MCELL(&r, from, ROUND), MCELL(&r, from, TABLE), MCELL(&r, from, STATE),
                       term(seats, b[0], sizeof b[0]), scores, ranks,
                       term(MCELL(&r, from, TRANSCRIPT), b[1], sizeof b[1]), MCELL(&r, from, DIGEST));
            } else {
                printf("%s,%s,%s,%s,", MCELL(&r, from, ID), MCELL(&r, from, ROUND), MCELL(&r, from, TABLE),
                       MCELL(&r, from, STATE));
                cli_csv_field(stdout, seats);
                printf(",%s,%s,%s,", scores, points, ranks);
                cli_csv_field(stdout, MCELL(&r, from, TRANSCRIPT));
                printf(",%s\n", MCELL(&r, from, DIGEST));
            }
        }
        shown++;
    }
    if (f == CLI_FORMAT_JSON)
        printf("]\n");
out:
    store_rows_release(&r);
    cli_reader_close(&rd);
    return status;
}

/* ---- arbiter match-info --------------------------------------------------- */

static void match_info_usage(FILE *f)
{
    fprintf(f, "usage: arbiter match-info ID [--format table|json] [--state DIR | --db CONNINFO]\n\n"
               "One match of the record by its id (`arbiter matches` lists them): its\n"
               "tournament, round, table, state, transcript and digest; the seats with\n"
               "each entrant's score, match points, rank, whether it forfeited and its\n"
               "penalties; the penalties one by one; the deals one by one with the score\n"
               "of each seat. Reads only: exits 3 when there is no such match.\n");
}

int cmd_match_info(int argc, char **argv)
{
    cli_reader rd;
    int exit_now = cli_reader_open("match-info", argc, argv, CLI_FORMATS_TJ, true, match_info_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    int status = CLI_EXIT_OK;
    store_rows seats = {0}, deals = {0}, pens = {0};
    int64_t id;
    if (cli_match_id("match-info", "ID", rd.name, &id)) {
        status = CLI_EXIT_USAGE;
        goto out;
    }
    if (report(&rd, STORE_REPORT_MATCH, id, &seats) || report(&rd, STORE_REPORT_MATCH_DEALS, id, &deals)
        || report(&rd, STORE_REPORT_MATCH_PENALTIES, id, &pens)) {
        status = CLI_EXIT_FAIL;
        goto out;
    }
    if (seats.nrows == 0) {
        fprintf(stderr, "arbiter: match-info: ID %" PRId64 ": no such match in the record\n", id);
        status = CLI_EXIT_NORECORD;
        goto out;
    }
    if (rd.format == CLI_FORMAT_JSON) {
        printf("{\"id\":%" PRId64 ",\"tournament\":", id);
        cli_json_string(stdout, SEAT(0, TOURNAMENT));
        printf(",\"round\":%s,\"table\":%s,\"state\":", SEAT(0, ROUND), SEAT(0, TABLE));
        cli_json_string(stdout, SEAT(0, STATE));
        static const struct { const char *key; int col; } texts[] = {
            {"transcript", STORE_MATCH_TRANSCRIPT}, {"digest", STORE_MATCH_DIGEST}, {"error", STORE_MATCH_ERROR},
            {"referee", STORE_MATCH_REFEREE}, {"signer_key", STORE_MATCH_SIGNER_KEY},
            {"signature", STORE_MATCH_SIGNATURE},
        };
        for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
            printf(",\"%s\":", texts[k].key);
            cli_json_string(stdout, store_cell(&seats, 0, texts[k].col));
        }
        printf(",\"seats\":[");
        for (int i = 0; i < seats.nrows; i++) {
            const char *tot = SEAT(i, TOTAL), *pts = SEAT(i, POINTS), *rk = SEAT(i, RANK);
            printf("%s{\"slot\":%s,\"entrant\":", i ? "," : "", SEAT(i, SLOT));
            cli_json_string(stdout, SEAT(i, ENTRANT));
            printf(",\"total\":%s,\"points\":%s,\"rank\":%s,\"forfeited\":%s,\"penalties\":%s}", tot[0] ? tot : "null",
                   pts[0] ? pts : "null", rk[0] ? rk : "null",
                   strcmp(SEAT(i, FORFEITED), "t") == 0 ? "true" : "false", SEAT(i, PENALTIES));
        }
        printf("],\"penalties\":[");
        for (int i = 0; i < pens.nrows; i++) {
            printf("%s{\"n\":%s,\"game\":%s,\"decision\":%s,\"slot\":%s,\"reason\":", i ? "," : "",
                   PEN(i, N), PEN(i, GAME), PEN(i, DECISION), PEN(i, SLOT));
            cli_json_string(stdout, PEN(i, REASON));
            printf(",\"consequence\":");
            cli_json_string(stdout, PEN(i, CONSEQUENCE));
            printf(",\"note\":");
            cli_json_string(stdout, PEN(i, NOTE));
            printf("}");
        }
        printf("],\"deals\":[");
        for (int i = 0; i < deals.nrows; i++) {
            const char *ff = DEAL(i, FORFEIT_SLOT);
            printf("%s{\"game\":%s,\"deal\":%s,\"seating\":%s,\"seat_slots\":[%s],\"scores\":[%s],\"forfeit_slot\":%s}",
                   i ? "," : "", DEAL(i, GAME), DEAL(i, DEAL), DEAL(i, SEATING),
                   DEAL(i, SEAT_SLOTS), DEAL(i, SCORES), ff[0] ? ff : "null");
        }
        printf("]}\n");
        goto out;
    }
    char b[2][900];
    printf("match %" PRId64 ": %s round %s table %s, %s\n", id, term(SEAT(0, TOURNAMENT), b[0], sizeof b[0]),
           SEAT(0, ROUND), SEAT(0, TABLE), SEAT(0, STATE));
    printf("transcript %s\ndigest %s\n", term(SEAT(0, TRANSCRIPT), b[1], sizeof b[1]), SEAT(0, DIGEST));
    if (SEAT(0, SIGNER_KEY)[0])
        printf("signed by referee %s, ed25519 key %s (check: arbiter replay FILE --signer KEY)\n",
               term(SEAT(0, REFEREE), b[0], sizeof b[0]), SEAT(0, SIGNER_KEY));
    if (SEAT(0, ERROR)[0])
        printf("void: %s\n", term(SEAT(0, ERROR), b[0], sizeof b[0]));
    printf("\nslot entrant              score   points rank forfeited penalties\n");
    for (int i = 0; i < seats.nrows; i++)
        printf("%-4s %-20s %6s %8s %4s %-9s %s\n", SEAT(i, SLOT), term(SEAT(i, ENTRANT), b[0], 64),
               SEAT(i, TOTAL), SEAT(i, POINTS), SEAT(i, RANK),
               strcmp(SEAT(i, FORFEITED), "t") == 0 ? "yes" : "no", SEAT(i, PENALTIES));
    int counted = 0;
    for (int i = 0; i < seats.nrows; i++)
        counted += (int)arb_cell_int(SEAT(i, PENALTIES));
    printf("\npenalties: %d", counted > pens.nrows ? counted : pens.nrows);
    if (counted > pens.nrows)   /* the result carries the first ARB_MAX_RESULT_PENALTIES */
        printf(" (the first %d in the record; every one is in the transcript)", pens.nrows);
    printf("\n");
    for (int i = 0; i < pens.nrows; i++) {
        char note[ARB_MAX_PENALTY_NOTE * 4 + 1];
        printf("  game %s decision %s slot %s: %s: %s\n", PEN(i, GAME), PEN(i, DECISION),
               PEN(i, SLOT), term(PEN(i, REASON), b[0], sizeof b[0]),
               term(PEN(i, CONSEQUENCE), b[1], sizeof b[1]));
        if (PEN(i, NOTE)[0])
            printf("    %s\n", term(PEN(i, NOTE), note, sizeof note));
    }
    printf("\ngame deal seating seat slots  scores\n");
    for (int i = 0; i < deals.nrows; i++)
        printf("%-4s %4s %7s %-11s %s%s%s\n", DEAL(i, GAME), DEAL(i, DEAL),
               DEAL(i, SEATING), DEAL(i, SEAT_SLOTS), DEAL(i, SCORES),
               DEAL(i, FORFEIT_SLOT)[0] ? " forfeit by slot " : "", DEAL(i, FORFEIT_SLOT));
out:
    store_rows_release(&seats);
    store_rows_release(&deals);
    store_rows_release(&pens);
    cli_reader_close(&rd);
    return status;
}

/* ---- arbiter crosstable --------------------------------------------------- */

static void crosstable_usage(FILE *f)
{
    fprintf(f, "usage: arbiter crosstable TOURNAMENT [--format table|csv|json] [--state DIR | --db CONNINFO]\n\n"
               "Entrant against entrant in tournament TOURNAMENT, over its done matches:\n"
               "the matches they met in, the entrant's match points and score in them\n"
               "(the record's view `crosstable`). Reads only: exits 3 when there is no\n"
               "record or no such tournament.\n");
}

int cmd_crosstable(int argc, char **argv)
{
    cli_reader rd;
    int exit_now = cli_reader_open("crosstable", argc, argv, CLI_FORMATS_ALL, true, crosstable_usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    store_rows r = {0};
    int status = tournament_rows("crosstable", &rd, STORE_REPORT_CROSSTABLE, &r);
    if (status)
        goto out;
    if (rd.format == CLI_FORMAT_TABLE)
        printf("%-20s %-20s %7s %8s %8s\n", "entrant", "opponent", "matches", "points", "score");
    else if (rd.format == CLI_FORMAT_CSV)
        printf("entrant,opponent,matches,points,score\n");
    else
        printf("[");
    for (int i = 0; i < r.nrows; i++) {
        const char *a = XCELL(i, ENTRANT), *o = XCELL(i, OPPONENT);
        if (rd.format == CLI_FORMAT_TABLE) {
            char b[2][200];
            printf("%-20s %-20s %7s %8s %8s\n", term(a, b[0], sizeof b[0]), term(o, b[1], sizeof b[1]),
                   XCELL(i, MATCHES), XCELL(i, POINTS), XCELL(i, SCORE));
        } else if (rd.format == CLI_FORMAT_CSV) {
            cli_csv_field(stdout, a);
            printf(",");
            cli_csv_field(stdout, o);
            printf(",%s,%s,%s\n", XCELL(i, MATCHES), XCELL(i, POINTS), XCELL(i, SCORE));
        } else {
            printf("%s{\"entrant\":", i ? "," : "");
            cli_json_string(stdout, a);
            printf(",\"opponent\":");
            cli_json_string(stdout, o);
            printf(",\"matches\":%s,\"points\":%s,\"score\":%s}", XCELL(i, MATCHES), XCELL(i, POINTS),
                   XCELL(i, SCORE));
        }
    }
    if (rd.format == CLI_FORMAT_JSON)
        printf("]\n");
out:
    store_rows_release(&r);
    cli_reader_close(&rd);
    return status;
}
