/* cmd_bench.c — `arbiter bench WHAT`: the benchmarks, dispatched from here
 * (rules: the game's own, through its command-line module; referee,
 * tournament, dispatch: cmd_bench_referee.c, cmd_bench_tournament.c;
 * ladder, web: cmd_bench_ladder.c, cmd_bench_web.c). They print figures;
 * they never fail on time. */
#include "cli.h"
#include "bench_util.h"
#include "game_cli.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter bench rules [--game NAME] [--rules PRESET] [--set k=v,...] [--seconds S]\n"
        "                           [--format table|json]\n"
        "       arbiter bench referee --bot PATH [--game NAME] [--deals N] [--sandbox auto|none]\n"
        "                           [--format table|json]   (pipe round trip vs referee)\n"
        "       arbiter bench match --bot PATH [--matches N] [--deals N] [--sandbox auto,none]\n"
        "                           (per decision, per bot start, per match, at each sandbox level)\n"
        "       arbiter bench tournament --bot PATH            (record vs referee alone; Swiss 10k)\n"
        "       arbiter bench dispatch --bot PATH [--workers N] (N referee daemons vs arbiter run)\n"
        "       arbiter bench ladder [--sizes N,N] [--per-entry M] (leaderboard, matchmaking, rating update)\n"
        "       arbiter bench web [--entrants N] [--entries L] [--runs K] (pages over HTTP, 1,000 and 10,000)\n"
        "       arbiter bench web --crowd --bot PATH [--clients N] [--seconds S] (1,000 clients, the scheduler)\n"
        "\n"
        "  rules: the game's rules engine on one core (Dou Dizhu: lead and follow\n"
        "  enumerations per second, random self-play deals per second). Figures are\n"
        "  printed one per line as `name value unit`, medians of several runs, or as\n"
        "  one JSON object with --format json.\n");
}

static int bench_rules(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"game", required_argument, NULL, 'g'},
        {"rules", required_argument, NULL, 'r'},
        {"set", required_argument, NULL, 's'},
        {"seconds", required_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL, *preset = NULL;
    char sets[ARB_MAX_OPTIONS_TEXT] = "";
    double seconds = 0.4;
    cli_format format = CLI_FORMAT_TABLE;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("bench rules", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'g': game = optarg; break;
        case 'r': preset = optarg; break;
        case 's':
            if (cli_append_option(sets, sizeof sets, optarg)) {
                fprintf(stderr, "arbiter: bench rules: --set: too many options\n");
                return CLI_EXIT_USAGE;
            }
            break;
        case 'S': {
            char *end;
            seconds = strtod(optarg, &end);
            if (*end || end == optarg || !(seconds > 0 && seconds <= 3600)) {
                fprintf(stderr, "arbiter: bench rules: --seconds \"%s\": expected a number of seconds in (0, 3600]\n",
                        optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case 'f':
            if (cli_format_parse("bench rules", optarg, CLI_FORMATS_TJ, &format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "arbiter: bench rules: unexpected \"%s\"\n", argv[optind]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const game_cli *m;
    void *rules;
    int exit_now = game_cli_begin("bench rules", GAME_CLI_BENCH_RULES, game, preset, sets, false, false, NULL, &m, &rules);
    if (exit_now >= 0)
        return exit_now;
    int rc = m->bench_rules(rules, seconds, format);
    free(rules);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } benches[] = {
        {"rules", bench_rules},
        {"referee", bench_referee},
        {"match", bench_match},
        {"tournament", bench_tournament},
        {"ladder", bench_ladder},
        {"dispatch", bench_dispatch},
        {"web", bench_web},
    };
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
        if (strcmp(argv[1], benches[i].name) == 0)
            return benches[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "arbiter: bench: unknown benchmark \"%s\" (rules, referee, match, tournament, dispatch, ladder, web)\n", argv[1]);
    usage(stderr);
    return CLI_EXIT_USAGE;
}
