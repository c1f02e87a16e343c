/* cmd_moves.c — `arbiter moves`: the rules oracle of a game. The options
 * are parsed here; the lines read and answered are the game's own
 * (game_cli.h: each game's module in cli/). */
#include "cli.h"
#include "game_cli.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f, const game_cli *m)
{
    fprintf(f, "usage: arbiter moves [--game NAME] [--rules PRESET] [--set key=value,...] [--readings]\n"
               "  The rules oracle: answers lines read from stdin with every legal move.\n"
               "  --game NAME  the game (default %s)\n", CLI_DEFAULT_GAME);
    if (m && m->moves_help)
        fputs(m->moves_help, f);
}

int cmd_moves(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"game", required_argument, NULL, 'g'},
        {"rules", required_argument, NULL, 'r'},
        {"set", required_argument, NULL, 's'},
        {"readings", no_argument, NULL, 'R'},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL, *preset = NULL;
    char sets[ARB_MAX_OPTIONS_TEXT] = "";
    bool readings = false, help = false, bad = false;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("moves", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': help = true; break;
        case 'g': game = optarg; break;
        case 'r': preset = optarg; break;
        case 'R': readings = true; break;
        case 's':
            if (cli_append_option(sets, sizeof sets, optarg)) {
                fprintf(stderr, "arbiter: moves: --set: too many options\n");
                return CLI_EXIT_USAGE;
            }
            break;
        default: bad = true; break;
        }
        if (bad)
            break;
    }
    if (!bad && optind < argc) {
        fprintf(stderr, "arbiter: moves: unexpected \"%s\" (the lines come on stdin)\n", argv[optind]);
        bad = true;
    }
    const game_cli *m;
    void *rules;
    cli_context ctx;
    int exit_now = game_cli_begin_context("moves", GAME_CLI_MOVES, game, preset, sets, help, bad, usage, &m, &rules,
                                          &ctx);
    if (exit_now >= 0)
        return exit_now;
    int rc = m->moves(rules, &ctx, readings);
    free(rules);
    return rc;
}
