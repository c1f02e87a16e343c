/* db_cli.h — Da Bang's command-line module (game_cli.h): the oracles
 * (moves, trick) in db_moves.c, self-play in db_play.c, the benchmark in
 * db_bench.c, registered in db_cli.c. */
#ifndef ARB_DB_CLI_H
#define ARB_DB_CLI_H
#include "game_cli.h"
#include "dabang.h"

int db_cli_moves(const void *rules, const cli_context *ctx, bool readings);
int db_cli_trick(const void *rules, const cli_context *ctx);
int db_cli_play(const void *rules, const cli_play_options *o);
int db_cli_bench(const void *rules, double seconds, cli_format format);

/* `arbiter replay --show`: a finished deal — the four hands as dealt,
 * trumps and level, the kitty as dealt and as buried, points and the
 * outcome. */
void db_cli_show_deal(const void *state, const char *const *names);

#endif
