/* arbiter.c — entry point of the `arbiter` tool: dispatches subcommands
 * from one table; `arbiter help COMMAND`, --help, --version. */
#include "cli.h"
#include "arb_names.h"

#include <stdio.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"moves", cmd_moves, "legal moves for lines read from stdin (the rules oracle)"},
    {"trick", cmd_trick, "winner and points of tricks read from stdin (trick-taking games)"},
    {"play",  cmd_play,  "seeded self-play deals printed move by move"},
    {"rules", cmd_rules, "list presets and options, or print a preset"},
    {"run", cmd_run, "run (or resume) a tournament from a YAML file"},
    {"check", cmd_check, "validate tournament files"},
    {"scheduler", cmd_scheduler, "the scheduler daemon (arbiter-scheduler): tournaments and the worker pool"},
    {"referee", cmd_referee, "the referee worker daemon (arbiter-referee) for a scheduler elsewhere"},
    {"submit", cmd_submit, "put tournaments in the record for a running scheduler"},
    {"keygen", cmd_keygen, "a CURVE key pair for a scheduler or a referee worker"},
    {"status", cmd_status, "the tournaments in the record"},
    {"standings", cmd_standings, "standings of a tournament (table, csv, json)"},
    {"matches", cmd_matches, "a tournament's matches: seats, results, transcripts (table, csv, json)"},
    {"match-info", cmd_match_info, "one match of the record: seats, penalties, deal-by-deal scores"},
    {"crosstable", cmd_crosstable, "entrant against entrant in a tournament (table, csv, json)"},
    {"serve", cmd_serve, "the record's pages and JSON API over HTTP, read only (docs/web.md)"},
    {"report", cmd_report, "a tournament's pages as static files (HTML, CSS, JS, JSON)"},
    {"psql", cmd_psql, "psql on the record of a state directory (its cluster started for it)"},
    {"match", cmd_match, "one match between bot programs, judged live"},
    {"eval", cmd_eval, "two agents over a fixed deal set in both roles: WP, ADP, Elo, SPRT"},
    {"replay", cmd_replay, "re-judge a transcript; --show, --rerun"},
    {"ratings", cmd_ratings, "a tournament's ratings, recomputed from its record and checked"},
    {"rate", cmd_rate, "ratings from results on stdin (openskill, glicko2, elo), to check against other libraries"},
    {"account", cmd_account, "accounts of the participant API: add (prints a token once), list, revoke, rotate"},
    {"dispute", cmd_dispute, "a disputed match: open, show (the evidence), resolve (uphold, void, rerun), list"},
    {"register", cmd_register, "an entrant into an open tournament's registration (registration:)"},
    {"ladder", cmd_ladder, "a ladder's entries: join, retire, list (the leaderboard), history"},
    {"join", cmd_join, "a bot into a ladder on a server, from this machine (with an account's token)"},
    {"remote", cmd_remote, "your entries on a server: me, entries, logs, retire, dispute, transcript, register"},
    {"export", cmd_export, "one tournament as one archive file: its record, programs, transcripts"},
    {"import", cmd_import, "a tournament archive (arbiter export) into this record"},
    {"verify", cmd_verify, "prove a finished tournament's deals from seed + revealed secret"},
    {"transcripts", cmd_transcripts, "the transcripts the record keeps: size, prune (retention)"},
    {"bench", cmd_bench, "benchmarks: `arbiter bench rules`"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter <command> [options]\n"
               "       arbiter help <command> | --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n`arbiter <command> --help` describes each command; docs/cli.md has them all,\n"
               "with the exit codes: 0 ok, 1 failed, 2 usage, 3 no record, 4 unsupported.\n");
}

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

static int unknown(const char *name)
{
    const char *names[NCOMMANDS + 2];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    names[NCOMMANDS] = "help";
    names[NCOMMANDS + 1] = NULL;
    const char *near = arb_suggest(name, (const char *const *)names, 3);
    if (near)
        fprintf(stderr, "arbiter: unknown command \"%s\" (did you mean \"%s\"?)\n\n", name, near);
    else
        fprintf(stderr, "arbiter: unknown command \"%s\"\n\n", name);
    usage(stderr);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *a = argv[1];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
        printf("arbiter %s\n", ARB_VERSION);
        return CLI_EXIT_OK;
    }
    if (strcmp(a, "help") == 0) {
        /* help, help --help, help help: the general usage */
        if (argc == 2 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0 ||
            strcmp(argv[2], "help") == 0) {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        const struct command *c = find(argv[2]);
        if (!c)
            return unknown(argv[2]);
        char help[] = "--help";
        char *args[] = {argv[2], help, NULL};
        return c->fn(2, args);
    }
    if (a[0] == '-') {
        fprintf(stderr, "arbiter: unknown option %s (options follow the command: arbiter <command> %s)\n\n", a, a);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const struct command *c = find(a);
    return c ? c->fn(argc - 1, argv + 1) : unknown(a);
}
