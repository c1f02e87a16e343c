/* cmd_verify.c — `arbiter verify NAME`: once a tournament is over, prove
 * from the record that every deal of every match followed from the
 * tournament's seed and its revealed secret (docs/rng.md): each
 * transcript's digest is the recorded one, its match key derives from the
 * secret under its own match's label, the secret is the one committed to,
 * and re-judging it re-deals exactly the cards that were sent. */
#include "cli.h"
#include "replay.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_num.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
#include "store.h"

#include <inttypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter verify NAME [--state DIR | --db CONNINFO] [--format table|json]\n"
        "\n"
        "For a finished tournament: checks every recorded transcript against the\n"
        "revealed secret (its commitment, the match key, the deals re-dealt) and the\n"
        "recorded digest, the signature by the referee key the record names, and\n"
        "each seat's total in the record against the transcript's re-judged result;\n"
        "the transcripts come from the record. One pruned by\n"
        "retention is listed and counted apart, not as a failure. Exit status 0\n"
        "when every deal checked follows from seed + secret,\n"
        "1 when one does not (or the tournament is not over), 3 when there is no\n"
        "record or no tournament NAME in it.\n");
}

/* One match: 0 verified, 1 not (why says so, naming the transcript), 2
 * its transcript was pruned by retention (why says when). Its
 * transcript comes from the record (store_transcript_load: by the
 * recorded digest, checked as it is read; the file at path for a record
 * made before transcripts were kept in it). */
static int verify_one(store *st, const char *mid, const char *file, const char *want_digest, const char *want_label,
                      const char *want_signer, const char *want_totals, const uint8_t secret[32], char *why,
                      size_t whylen)
{
    uint8_t *data = NULL;
    size_t len;
    char err[512], msg[512];
    int bad = 1;
    replay_report rep;
    memset(&rep, 0, sizeof rep);
    int lrc = store_transcript_load(st, want_digest, file, &data, &len, err, sizeof err);
    if (lrc) {
        snprintf(why, whylen, "match %s: %s", mid, err);
        return lrc == ARB_ESTATE ? 2 : 1;
    }
    char path[32];   /* what names it below */
    snprintf(path, sizeof path, "match %.20s", mid);
    if (replay_judge(data, len, NULL, &rep) != 0) {
        snprintf(why, whylen, "%s: %s", path, rep.divergence);
        goto out;
    }
    if (rep.digest_rc != 0 || strcmp(rep.digest, want_digest) != 0) {
        snprintf(why, whylen, "%s: digest %s, the record says %s%s%s", path, rep.digest[0] ? rep.digest : "none",
                 want_digest, rep.digest_msg[0] ? ": " : "", rep.digest_msg);
        goto out;
    }
    if (strcmp(rep.cfg.key_label, want_label) != 0) {
        snprintf(why, whylen, "%s: keyed for \"%s\", this match is \"%s\"", path, rep.cfg.key_label, want_label);
        goto out;
    }
    if (replay_check_secret(&rep.cfg, secret, msg, sizeof msg) != 0) {
        snprintf(why, whylen, "%s: %s", path, msg);
        goto out;
    }
    if (!rep.reproduced) {
        snprintf(why, whylen, "%s: not reproduced: %s", path, rep.divergence);
        goto out;
    }
    /* signed by the key the record names (none named: an unsigned record's) */
    if (want_signer[0] && replay_signature_verdict(&rep, want_signer, "the record", msg, sizeof msg) != 0) {
        snprintf(why, whylen, "%s: signature %s", path, msg);
        goto out;
    }
    /* the record's result is the one the transcript re-derives: each
     * seat's total, in slot order (what standings are made of) */
    char totals[ARB_MAX_SEATS * 24] = "";
    for (int b = 0; b < rep.res.nbots; b++)
        snprintf(totals + strlen(totals), sizeof totals - strlen(totals), "%s%" PRId64, b ? "," : "",
                 rep.res.bots[b].total);
    if (strcmp(totals, want_totals) != 0) {
        snprintf(why, whylen, "%s: the record's totals are %s, its transcript's %s", path, want_totals, totals);
        goto out;
    }
    bad = 0;
out:
    match_result_release(&rep.res);
    free(data);
    return bad;
}

int cmd_verify(int argc, char **argv)
{
    cli_reader rd;
    int exit_now = cli_reader_open("verify", argc, argv, CLI_FORMATS_TJ, true, usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    const char *name = rd.name;
    cli_format format = rd.format;
    char err[1024];
    int status = CLI_EXIT_USAGE, checked = 0, failed = 0, pruned = 0;
    store_rows m = {0};
    store *st = rd.st;
    int64_t tid;
    uint64_t seed;
    bool revealed;
    char commitment[65] = "", secret_hex[65] = "";
    if (store_tournament_named(st, name, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: verify: no tournament named \"%s\" in the record\n", name);
        status = CLI_EXIT_NORECORD;
        goto out;
    }
    uint8_t secret[32];
    if (store_fairness(st, tid, commitment, secret_hex, NULL) != 0) {
        fprintf(stderr, "arbiter: verify: the record cannot be read\n");
        goto out;
    }
    if (!revealed) {
        fprintf(stderr, "arbiter: verify: %s is not over: its secret is sealed (commitment %s)\n", name,
                commitment[0] ? commitment : "none yet");
        status = CLI_EXIT_FAIL;
        goto out;
    }
    if (arb_key_parse(secret_hex, secret) != 0) {
        fprintf(stderr, "arbiter: verify: %s has no secret on record\n", name);
        status = CLI_EXIT_FAIL;
        goto out;
    }
    if (store_report(st, STORE_REPORT_DONE_MATCHES, tid, &m, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: verify: %s\n", err);
        goto out;
    }
    if (format == CLI_FORMAT_JSON) {
        printf("{\"tournament\":");
        cli_json_string(stdout, name);
        printf(",\"commitment\":\"%s\",\"secret\":\"%s\",\"failures\":[", commitment, secret_hex);
    }
    for (int i = 0; i < m.nrows; i++) {
        char label[ARB_MAX_KEY_LABEL], why[2048];
        arb_seeds_match_label(label, seed, (int)arb_cell_int(store_cell(&m, i, STORE_DONE_ROUND)), (int)arb_cell_int(store_cell(&m, i, STORE_DONE_TABLE)));
        int v = verify_one(st, store_cell(&m, i, STORE_DONE_ID), store_cell(&m, i, STORE_DONE_TRANSCRIPT),
                           store_cell(&m, i, STORE_DONE_DIGEST), label, store_cell(&m, i, STORE_DONE_SIGNER_KEY),
                           store_cell(&m, i, STORE_DONE_TOTALS), secret, why, sizeof why);
        if (v == 2) {   /* removed on purpose, and noted: said, not failed */
            pruned++;
            if (format != CLI_FORMAT_JSON)
                printf("  %s\n", why);
            continue;
        }
        checked++;
        if (v == 0)
            continue;
        if (format == CLI_FORMAT_JSON) {
            printf("%s", failed ? "," : "");
            cli_json_string(stdout, why);
        } else {
            printf("  %s\n", why);
        }
        failed++;
    }
    if (format == CLI_FORMAT_JSON) {
        printf("],\"checked\":%d,\"failed\":%d,\"pruned\":%d,\"verified\":%s}\n", checked, failed, pruned,
               failed ? "false" : "true");
    } else {
        printf("%s: commitment %s, secret %s\n", name, commitment, secret_hex);
        if (failed)
            printf("%s: %d of %d transcripts FAILED the check\n", name, failed, checked);
        else
            printf("%s: %d transcripts: every deal follows from seed + secret: verified\n", name, checked);
        if (pruned)
            printf("%s: %d transcripts pruned by retention: not checked\n", name, pruned);
    }
    status = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
    store_rows_release(&m);
    cli_reader_close(&rd);
    return status;
}
