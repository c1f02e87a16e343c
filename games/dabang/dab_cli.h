/* dab_cli.h — Da Bang's command-line module (game_cli.h): the oracles
 * (moves, trick) in dab_cli_moves.c, self-play in dab_cli_play.c, the benchmark in
 * dab_cli_bench.c, registered in dab_cli.c. */
#ifndef ARB_DAB_CLI_H
#define ARB_DAB_CLI_H
#include "game_cli.h"
#include "dabang.h"

extern const game_cli game_cli_dabang;

int dab_cli_moves(const void *rules, const cli_context *ctx, bool readings);
int dab_cli_trick(const void *rules, const cli_context *ctx);
int dab_cli_play(const void *rules, const cli_play_options *o);
int dab_cli_bench(const void *rules, double seconds, cli_format format);

/* `arbiter replay --show`: a finished deal — the four hands as dealt,
 * trumps and level, the kitty as dealt and as buried, points and the
 * outcome. */
void dab_cli_show_deal(const void *state, const char *const *names);

#endif
