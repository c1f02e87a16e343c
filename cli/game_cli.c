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
