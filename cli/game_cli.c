/* game_cli.c — the per-game command-line modules (game_cli.h): one line
 * per game that has one. */
#include "game_cli.h"

#include <string.h>

static const game_cli *const modules[] = {&game_cli_doudizhu, NULL};

const game_cli *game_cli_find(const arb_game *g)
{
    for (size_t i = 0; modules[i]; i++)
        if (strcmp(modules[i]->game, g->name) == 0)
            return modules[i];
    return NULL;
}

int game_cli_lacks(const game_cli *m, bool has, const arb_game *g, const char *command)
{
    if (has)
        return 0;
    fprintf(stderr, "arbiter: %s: the game %s has no `arbiter %s` (%s)\n", command, g->name, command,
            m ? "its command-line module does not offer it" : "it has no command-line module: cli/game_cli.h");
    return 1;
}

int game_cli_begin(const char *command, game_cli_op op, const char *game, const char *preset, const char *sets,
                   bool help, bool bad, void (*usage)(FILE *f, const game_cli *m), const game_cli **m,
                   void **rules)
{
    if (help || bad) {
        const arb_game *hg = arb_game_find(game ? game : CLI_DEFAULT_GAME);
        usage(help ? stdout : stderr, hg ? game_cli_find(hg) : NULL);
        return help ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    const arb_game *g = cli_game(game);
    if (!g)
        return CLI_EXIT_USAGE;
    *m = game_cli_find(g);
    bool has = *m && (op == GAME_CLI_MOVES ? (*m)->moves != NULL
                      : op == GAME_CLI_PLAY ? (*m)->play != NULL : (*m)->bench_rules != NULL);
    if (game_cli_lacks(*m, has, g, command))
        return CLI_EXIT_USAGE;
    *rules = cli_rules_new(g, preset, sets);
    return *rules ? -1 : CLI_EXIT_USAGE;
}
