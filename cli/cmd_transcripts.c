/* cmd_transcripts.c — `arbiter transcripts`: the transcripts the record
 * keeps (docs/transcripts.md, "In the record"): `size` says how much they
 * take; `prune` removes those of matches older than a number of days
 * (retention), never a disputed or a knockout match's. */
#include "cli.h"
#include "arb_error.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter transcripts size [--state DIR | --db CONNINFO]\n"
        "       arbiter transcripts prune --older-than DAYS [--tournament NAME | --ladder NAME]\n"
        "                                 [--state DIR | --db CONNINFO]\n"
        "\n"
        "The record keeps every match's transcript, compressed, under its digest.\n"
        "size   how many, their raw and stored bytes, the table's and the database's size.\n"
        "prune  retention: removes the transcripts of matches that finished more than\n"
        "       DAYS days ago (of one tournament or ladder, else of all), and notes each\n"
        "       removal: verify, dispute show and replay then say \"transcript pruned on\n"
        "       DATE by retention\". The transcript of a disputed match (or of a result a\n"
        "       dispute replaced) and of a knockout match (single or double elimination,\n"
        "       the knockout stage after groups) is never removed. The matches' results,\n"
        "       digests and signatures stay.\n");
}

int cmd_transcripts(int argc, char **argv)
{
    int rc = cli_sub_help(argc, argv, usage);
    if (rc >= 0)
        return rc;
    const char *sub = argv[1];
    bool prune = strcmp(sub, "prune") == 0;
    if (!prune && strcmp(sub, "size") != 0) {
        fprintf(stderr, "arbiter: transcripts: no subcommand \"%.60s\" (size, prune)\n", sub);
        return CLI_EXIT_USAGE;
    }
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},        {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},    {"older-than", required_argument, NULL, 'o'},
        {"tournament", required_argument, NULL, 't'}, {"ladder", required_argument, NULL, 'l'},
        {NULL, 0, NULL, 0},
    };
    const char *state = NULL, *db = NULL, *name = NULL;
    long days = -1;
    char *end;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("transcripts", argc - 1, argv + 1, ":h", lo)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': state = optarg; break;
        case 'd': db = optarg; break;
        case 'o':
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
    if (optind != argc - 1) {
        fprintf(stderr, "arbiter: transcripts %s: unexpected \"%.60s\"\n", sub, argv[1 + optind]);
        return CLI_EXIT_USAGE;
    }
    if (prune && days < 0) {
        fprintf(stderr, "arbiter: transcripts prune: --older-than DAYS is needed\n");
        return CLI_EXIT_USAGE;
    }
    if (!prune && (days >= 0 || name)) {
        fprintf(stderr, "arbiter: transcripts size: --older-than, --tournament and --ladder are for prune\n");
        return CLI_EXIT_USAGE;
    }
    char err[1024];
    db_place place;
    rc = cli_open_record(&place, state, db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: transcripts: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    store *st = store_open(place.conninfo, err, sizeof err);
    if (!st) {
        cli_say_unreachable("transcripts", err);
        cli_close_place(&place);
        return CLI_EXIT_USAGE;
    }
    int ready = cli_record_ready("transcripts", st, &place);
    if (ready >= 0)
        return ready;
    int status = CLI_EXIT_OK;
    if (prune) {
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
    store_close(st);
    cli_close_place(&place);
    return status;
}
