/* game.c — the registry of games: every engine registers here with its
 * arb_game table (game.h), and nothing above games/ names an engine.
 * Dou Dizhu is built in; other engines are added at start-up with
 * arb_game_register (a test game does it from a constructor). */
#include "game.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The one mutable table of games/: written only while a program starts. */
static const arb_game *registry[ARB_MAX_GAMES + 1] = {&arb_game_doudizhu, &arb_game_dabang, NULL};

const arb_game *const *arb_games(void) { return registry; }

const arb_game *arb_game_find(const char *name)
{
    for (size_t i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const char *arb_game_missing(const arb_game *g)
{
#define NEED(field) do { if (!g->field) return #field; } while (0)
    NEED(name); NEED(title); NEED(rules_size); NEED(state_size); NEED(default_preset); NEED(presets);
    NEED(rules_preset); NEED(rules_set); NEED(rules_check); NEED(rules_describe);
    NEED(seats); NEED(team_of); NEED(teams);
    NEED(match_state_size); NEED(match_init); NEED(forfeit); NEED(match_deal_done); NEED(match_over);
    NEED(match_result);
    NEED(deal); NEED(to_act); NEED(decision); NEED(decision_name); NEED(legal); NEED(check); NEED(apply);
    NEED(over); NEED(score); NEED(parse_action); NEED(format_action); NEED(format_cards);
    NEED(start_events); NEED(action_events); NEED(request); NEED(format_item); NEED(items_on_request);
    NEED(fallback);
#undef NEED
    return NULL;   /* deal_setup is optional */
}

int arb_game_register(const arb_game *g)
{
    if (!g || arb_game_missing(g) || arb_game_find(g->name))
        return ARB_EINVAL;
    size_t n = 0;
    while (registry[n])
        n++;
    if (n >= ARB_MAX_GAMES)
        return ARB_ENOSPC;
    registry[n] = g;
    registry[n + 1] = NULL;
    return 0;
}

void arb_emitf(arb_emit_fn emit, void *ctx, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    emit(ctx, line);
}
