/* ddz_cli.h — Dou Dizhu's command-line module (game_cli.h): the handlers
 * in ddz_cli_moves.c, ddz_cli_play.c and ddz_cli_bench.c, registered in ddz_cli.c. */
#ifndef ARB_DDZ_CLI_H
#define ARB_DDZ_CLI_H
#include "game_cli.h"
#include "ddz.h"

extern const game_cli game_cli_doudizhu;

int ddz_cli_moves(const void *rules, const cli_context *ctx, bool readings);
int ddz_cli_play(const void *rules, const cli_play_options *o);
int ddz_cli_bench(const void *rules, double seconds, cli_format format);
void ddz_cli_show_deal(const void *state, const char *const *names);

#endif
