/* game.c — the registry of games: every engine registers here with its
 * arb_game table (game.h), and nothing above games/ names an engine. Adding
 * a game is an engine, its table and one line below. */
#include "game.h"

#include <string.h>

static const arb_game *const registry[] = {&arb_game_doudizhu, NULL};

const arb_game *const *arb_games(void) { return registry; }

const arb_game *arb_game_find(const char *name)
{
    for (size_t i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
