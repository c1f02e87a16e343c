/* cmd_play.c — `arbiter play`: seeded self-play deals between a game's
 * built-in policies, printed move by move. The options are parsed here;
 * the play is the game's own (game_cli.h: each game's module in cli/). */
#include "cli.h"
#include "game_cli.h"
#include "arb_limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f, const game_cli *m)
{
    fprintf(f,
        "usage: arbiter play [--game NAME] [--rules PRESET] [--set k=v,...] [--seed N] [--deals N]\n"
        "                    [--policy %s] [--quiet]\n"
        "  Plays seeded self-play deals between built-in policies and prints every\n"
        "  decision, the hands and the score. Deal k uses seed arb_seed_childn(N,\"deal\",k).\n"
        "  --game NAME  the game (default %s); --quiet prints the totals only\n",
        m && m->play_policies ? m->play_policies : "POLICY", CLI_DEFAULT_GAME);
}

int cmd_play(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"game", required_argument, NULL, 'g'},
        {"rules", required_argument, NULL, 'r'},
        {"set", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'S'},
        {"deals", required_argument, NULL, 'd'},
        {"policy", required_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL, *preset = NULL;
    char sets[ARB_MAX_OPTIONS_TEXT] = "";
    cli_play_options po = {.seed = 1, .deals = 1};
    bool help = false, bad = false;
    long long n;
    int c;
    cli_opts_begin();
    while (!bad && (c = cli_getopt("play", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': help = true; break;
        case 'g': game = optarg; break;
        case 'r': preset = optarg; break;
        case 'p': po.policy = optarg; break;
        case 'q': po.quiet = true; break;
        case 's':
            if (cli_append_option(sets, sizeof sets, optarg)) {
                fprintf(stderr, "arbiter: play: --set: too many options\n");
                bad = true;
            }
            break;
        case 'S': {
            char *end;
            errno = 0;
            po.seed = strtoull(optarg, &end, 0);
            if (errno || *end || end == optarg || optarg[0] == '-') {
                fprintf(stderr, "arbiter: play: --seed \"%s\": expected a non-negative integer\n", optarg);
                bad = true;
            }
            break;
        }
        case 'd':
            bad = cli_int_arg("play", "deals", optarg, 1, ARB_MAX_DEALS, &n) != 0;
            po.deals = (unsigned long)n;
            break;
        default: bad = true; break;
        }
    }
    if (!bad && optind < argc) {
        fprintf(stderr, "arbiter: play: unexpected \"%s\"\n", argv[optind]);
        bad = true;
    }
    const game_cli *m;
    void *rules;
    int exit_now = game_cli_begin("play", GAME_CLI_PLAY, game, preset, sets, help, bad, usage, &m, &rules);
    if (exit_now >= 0)
        return exit_now;
    int rc = m->play(rules, &po);
    free(rules);
    return rc;
}
