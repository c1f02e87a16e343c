/* cmd_transcripts.c — `arbiter transcripts`: the transcripts the record
 * keeps (docs/transcripts.md, "In the record"): `size` says how much they
 * take; `prune` removes those of matches older than a number of days
 * (retention), never a disputed or a knockout match's; `get` writes one
 * match's transcript out as the file the referee wrote (checked against
 * its recorded digest as it is read): evidence to hand to anyone. */
#include "cli.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_text.h"
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter transcripts size [--state DIR | --db CONNINFO]\n"
        "       arbiter transcripts get MATCH [-o FILE] [--state DIR | --db CONNINFO]\n"
        "       arbiter transcripts prune --older-than DAYS [--tournament NAME | --ladder NAME]\n"
        "                                 [--state DIR | --db CONNINFO]\n"
        "\n"
        "The record keeps every match's transcript, compressed, under its digest.\n"
        "size   how many, their raw and stored bytes, the table's and the database's size.\n"
        "get    match MATCH's transcript, byte for byte as its referee wrote it (checked\n"
        "       against the recorded digest), on stdout or into FILE (made 0600): what\n"
        "       arbiter replay FILE reads, evidence anyone can check with the referee's key.\n"
        "prune  retention: removes the transcripts of matches that finished more than\n"
        "       DAYS days ago (of one tournament or ladder, else of all), and notes each\n"
        "       removal: verify, dispute show and replay then say \"transcript pruned on\n"
        "       DATE by retention\". The transcript of a disputed match (or of a result a\n"
        "       dispute replaced) and of a knockout match (single or double elimination,\n"
        "       the knockout stage after groups) is never removed. The matches' results,\n"
        "       digests and signatures stay.\n");
}

/* `get`: the bytes of match mid's transcript into output (NULL: stdout). */
static int get_one(store *st, int64_t mid, const char *output)
{
    uint8_t *data = NULL;
    size_t len = 0;
    char digest[65], signer[65];
    int status = cli_match_transcript("transcripts get", st, mid, &data, &len, digest, signer);
    if (status != CLI_EXIT_OK)
        return status;
    /* 0600: a transcript holds every hand. FILE is made anew beside itself
     * and renamed into place (arb_write_file): a link planted at FILE is
     * refused, never followed, and an existing file's mode is not kept. */
    char err[1300];
    int rc = 0;
    if (output)
        rc = arb_write_file(output, data, len, 0600, err, sizeof err);
    else if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
        rc = (snprintf(err, sizeof err, "stdout: %s", strerror(errno)), ARB_EIO);
    if (rc) {
        char term[1400];
        fprintf(stderr, "arbiter: transcripts get: %s\n", arb_term(err, term, sizeof term));
        status = CLI_EXIT_FAIL;
    }
    free(data);
    return status;
}

int cmd_transcripts(int argc, char **argv)
{
    int rc = cli_sub_help(argc, argv, usage);
    if (rc >= 0)
        return rc;
    const char *sub = argv[1];
    bool prune = strcmp(sub, "prune") == 0, get = strcmp(sub, "get") == 0;
    if (!prune && !get && strcmp(sub, "size") != 0) {
        fprintf(stderr, "arbiter: transcripts: no subcommand \"%.60s\" (size, get, prune)\n", sub);
        return CLI_EXIT_USAGE;
    }
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},        {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},    {"older-than", required_argument, NULL, 'D'},
        {"tournament", required_argument, NULL, 't'}, {"ladder", required_argument, NULL, 'l'},
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    const char *state = NULL, *db = NULL, *name = NULL, *output = NULL;
    long days = -1;
    char *end;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("transcripts", argc - 1, argv + 1, ":ho:", lo)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'o': output = optarg; break;
        case 's': state = optarg; break;
        case 'd': db = optarg; break;
        case 'D':
            days = strtol(optarg, &end, 10);
            if (!*optarg || *end || days < 0 || days > 100000) {
                fprintf(stderr, "arbiter: transcripts prune: --older-than \"%.40s\": expected a number of days "
                        "(0..100000)\n", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 't':
        case 'l':
            if (name) {
                fprintf(stderr, "arbiter: transcripts prune: one --tournament or --ladder\n");
                return CLI_EXIT_USAGE;
            }
            name = optarg;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    int64_t mid = 0;
    if (get && (optind != argc - 2 || cli_match_id("transcripts get", "MATCH", argv[1 + optind], &mid))) {
        if (optind != argc - 2)
            fprintf(stderr, "arbiter: transcripts get: expected one MATCH\n");
        return CLI_EXIT_USAGE;
    }
    if (!get && optind != argc - 1) {
        fprintf(stderr, "arbiter: transcripts %s: unexpected \"%.60s\"\n", sub, argv[1 + optind]);
        return CLI_EXIT_USAGE;
    }
    if (output && !get) {
        fprintf(stderr, "arbiter: transcripts %s: -o is for get\n", sub);
        return CLI_EXIT_USAGE;
    }
    if (prune && days < 0) {
        fprintf(stderr, "arbiter: transcripts prune: --older-than DAYS is needed\n");
        return CLI_EXIT_USAGE;
    }
    if (!prune && (days >= 0 || name)) {
        fprintf(stderr, "arbiter: transcripts %s: --older-than, --tournament and --ladder are for prune\n", sub);
        return CLI_EXIT_USAGE;
    }
    char err[1024];
    cli_reader rd = {.state = state ? state : "arbiter-state", .db = db};   /* as cli_reader_open */
    int status = cli_reader_connect("transcripts", &rd);
    if (status >= 0)
        return status;
    store *st = rd.st;
    status = CLI_EXIT_OK;
    if (get) {
        status = get_one(st, mid, output);
    } else if (prune) {
        store_prune_counts pc;
        if (store_transcript_prune(st, name, (int)days, &pc, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: transcripts prune: %s\n", err);
            status = CLI_EXIT_FAIL;
        } else {
            printf("pruned %lld transcripts (%lld bytes stored) of matches finished more than %ld days ago; kept %lld "
                   "as old (disputed or knockout); %lld left%s%s\n", pc.pruned, pc.bytes, days, pc.kept_old, pc.left,
                   name ? " in " : "", name ? name : "");
        }
    } else {
        store_tr_sizes sz;
        if (store_transcript_sizes(st, &sz, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: transcripts size: %s\n", err);
            status = CLI_EXIT_FAIL;
        } else {
            printf("transcripts %lld\nraw_bytes %lld\nstored_bytes %lld\nraw_per_transcript %lld\n"
                   "stored_per_transcript %lld\ntable_bytes %lld\ndatabase_bytes %lld\n",
                   sz.count, sz.raw, sz.stored, sz.count ? sz.raw / sz.count : 0, sz.count ? sz.stored / sz.count : 0,
                   sz.table, sz.database);
        }
    }
    cli_reader_close(&rd);
    return status;
}
