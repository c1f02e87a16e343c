/* ddz_cli.c — Dou Dizhu's entry among the command-line modules
 * (game_cli.h). */
#include "ddz_cli.h"

#include <stdio.h>

/* DouZero's protocol: no bidding, the landlord in seat 0 takes the kitty. */
static const game_cli_roles eval_roles = {
    .options = "bidding=fixed,fixed_landlord=0",
    .name = {"landlord", "peasants"},
};

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
    .show_deal = ddz_cli_show_deal,
    .eval_preset = "douzero",
    .eval_roles = &eval_roles,
};

/* Who became the landlord and what the kitty held: the kitty is told to the
 * seats only once a landlord takes it, and a deal that ends in the auction
 * (everybody passed, a forfeit) never tells it, so replay --show says both
 * here for every deal. */
void ddz_cli_show_deal(const void *state, const char *const *names)
{
    const ddz_state *s = state;
    char kitty[256];
    if (ddz_cards_format(s->kitty, kitty, sizeof kitty) < 0)
        snprintf(kitty, sizeof kitty, "?");
    if (s->landlord < s->nseats)
        printf("  landlord: seat %d %s (bid %d%s)\n", s->landlord, names[s->landlord], s->bid,
               s->shown ? ", hand shown" : "");
    else
        printf("  landlord: none (%s)\n", s->voided ? "everybody passed: the deal is void"
               : "the deal ended before the auction did");
    printf("  kitty: %s\n", kitty);
}
