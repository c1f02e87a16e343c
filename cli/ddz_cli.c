/* ddz_cli.c — Dou Dizhu's entry among the command-line modules
 * (game_cli.h). */
#include "ddz_cli.h"

const game_cli game_cli_doudizhu = {
    .game = "doudizhu",
    .moves = ddz_cli_moves,
    .moves_help =
        "  Reads lines from stdin: HAND -> every legal lead; HAND PREV -> every legal\n"
        "  follow to PREV, ending with pass. Cards are ranks 3456789TJQKA2BR (B small\n"
        "  joker, R big joker), e.g. 333444BR. PREV may name its reading with '+'\n"
        "  (333444+56). --readings prints each move with its reading. With wild cards\n"
        "  name the ranks (--set wild=1,wild_ranks=7); plays then read 3377=3333.\n"
        "  Invalid lines get \"error: <reason>\" and reading goes on.\n",
    .play = ddz_cli_play,
    .play_policies = "greedy|random",
    .bench_rules = ddz_cli_bench,
};
