/* arbiter.c — entry point of the `arbiter` tool: dispatches subcommands. */
#include "cli.h"
#include "arb_error.h"

#include <stdio.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"moves", cmd_moves, "legal moves for hands read from stdin (the rules oracle)"},
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
    {"match", cmd_match, "one match between bot programs, judged live"},
    {"replay", cmd_replay, "re-judge a transcript; --show, --rerun"},
    {"verify", cmd_verify, "prove a finished tournament's deals from seed + revealed secret"},
    {"bench", cmd_bench, "benchmarks: `arbiter bench rules`"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n`arbiter <command> --help` describes each command.\n");
}

int cli_rules_option(ddz_rules *r, const char *opt, const char *val)
{
    char err[256];
    if (strcmp(opt, "--rules") == 0) {
        if (ddz_rules_preset(r, val)) {
            fprintf(stderr, "arbiter: unknown rules preset \"%s\" (standard, rlcard, douzero, four-player)\n", val);
            return 1;
        }
        return 0;
    }
    if (ddz_rules_set_list(r, val, err, sizeof err)) {
        fprintf(stderr, "arbiter: --set: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("arbiter %s\n", ARB_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "arbiter: unknown command \"%s\"\n\n", argv[1]);
    usage(stderr);
    return 2;
}
