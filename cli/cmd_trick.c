/* cmd_trick.c — `arbiter trick`: the trick judge of a trick-taking game
 * (Da Bang): reads the plays of one trick a line and answers who wins it
 * and the points in it. The options are parsed here; the lines are the
 * game's own (game_cli.h: each game's module in cli/). */
#include "cli.h"
#include "game_cli.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f, const game_cli *m)
{
    fprintf(f, "usage: arbiter trick [--game NAME] [--rules PRESET] [--set key=value,...]\n"
               "  The trick judge: answers each trick read from stdin with its winner and points.\n"
               "  --game NAME  the game (default %s; a trick-taking game:", CLI_DEFAULT_GAME);
    /* the games whose command-line module judges tricks */
    for (const arb_game *const *g = arb_games(); *g; g++) {
        const game_cli *gm = game_cli_find(*g);
        if (gm && gm->trick)
            fprintf(f, " %s", (*g)->name);
    }
    fputs(")\n", f);
    if (m && m->trick_help)
        fputs(m->trick_help, f);
}

int cmd_trick(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"game", required_argument, NULL, 'g'},
        {"rules", required_argument, NULL, 'r'},
        {"set", required_argument, NULL, 's'},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL, *preset = NULL;
    char sets[ARB_MAX_OPTIONS_TEXT] = "";
    bool help = false, bad = false;
    int c;
    cli_opts_begin();
    while (!bad && (c = cli_getopt("trick", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': help = true; break;
        case 'g': game = optarg; break;
        case 'r': preset = optarg; break;
        case 's':
            if (cli_append_option(sets, sizeof sets, optarg)) {
                fprintf(stderr, "arbiter: trick: --set: too many options\n");
                return CLI_EXIT_USAGE;
            }
            break;
        default: bad = true; break;
        }
    }
    if (!bad && optind < argc) {
        fprintf(stderr, "arbiter: trick: unexpected \"%s\" (the tricks come on stdin)\n", argv[optind]);
        bad = true;
    }
    const game_cli *m;
    void *rules;
    cli_context ctx;
    int exit_now = game_cli_begin_context("trick", GAME_CLI_TRICK, game, preset, sets, help, bad, usage, &m, &rules,
                                          &ctx);
    if (exit_now >= 0)
        return exit_now;
    int rc = m->trick(rules, &ctx);
    free(rules);
    return rc;
}
