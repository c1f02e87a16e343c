/* db_cli.c — Da Bang's entry among the command-line modules
 * (game_cli.h). */
#include "db_cli.h"

/* The deal the oracles answer within: not rules (docs/rules/notation.md). */
static const char *const context_keys[] = {"level", "trump", NULL};

const game_cli game_cli_dabang = {
    .game = "dabang",
    .context_keys = context_keys,
    .moves = db_cli_moves,
    .moves_help =
        "  Da Bang: --set level=L,trump=S (L one of 3456789T, S one of SHCD) names the\n"
        "  deal. Reads lines from stdin: HAND -> every legal lead; HAND LED -> every\n"
        "  legal follow to the led play LED. Cards are rank then suit (5H, TS) or BJ, RJ,\n"
        "  concatenated (5H5HKS). Plays are printed singles first, then pairs, then\n"
        "  triples, each group in card order. Invalid lines get \"error: <reason>\".\n",
    .trick = db_cli_trick,
    .trick_help =
        "  Da Bang: --set level=L,trump=S names the deal. Reads lines P0 P1 P2 P3, the\n"
        "  four plays of a trick in playing order (P0 the lead), and answers\n"
        "  \"WINNER POINTS\": the index 0..3 of the winning play and the trick's points.\n"
        "  Invalid lines get \"error: <reason>\".\n",
    .play = db_cli_play,
    .play_policies = "random|greedy",
    .bench_rules = db_cli_bench,
};
