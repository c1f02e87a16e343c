/* dab_cli.c — Da Bang's entry among the command-line modules
 * (game_cli.h). */
#include "dab_cli.h"

#include <stdio.h>

/* The deal the oracles answer within: not rules (docs/rules/notation.md). */
static const char *const context_keys[] = {"level", "trump", NULL};

const game_cli game_cli_dabang = {
    .game = "dabang",
    .context_keys = context_keys,
    .moves = dab_cli_moves,
    .moves_help =
        "  Da Bang: --set level=L,trump=S (L one of 3456789T, S one of SHCD) names the\n"
        "  deal. Reads lines from stdin: HAND -> every legal lead; HAND LED -> every\n"
        "  legal follow to the led play LED. Cards are rank then suit (5H, TS) or BJ, RJ,\n"
        "  concatenated (5H5HKS). Plays are printed singles first, then pairs, then\n"
        "  triples, each group in card order. Invalid lines get \"error: <reason>\".\n",
    .trick = dab_cli_trick,
    .trick_help =
        "  Da Bang: --set level=L,trump=S names the deal. Reads lines P0 P1 P2 P3, the\n"
        "  four plays of a trick in playing order (P0 the lead), and answers\n"
        "  \"WINNER POINTS\": the index 0..3 of the winning play and the trick's points.\n"
        "  Invalid lines get \"error: <reason>\".\n",
    .play = dab_cli_play,
    .play_policies = "random|greedy",
    .bench_rules = dab_cli_bench,
    .show_deal = dab_cli_show_deal,
};

void dab_cli_show_deal(const void *state, const char *const *names)
{
    const dab_state *s = state;
    static const char ranks[] = "3456789TJQKA2", suits[] = "SHCD";
    char buf[512];
    printf("  the deal as drawn: 打家 seat %d, trumps %c at level %c\n", s->dajia,
           s->trump_known && s->trump.suit < 4 ? suits[s->trump.suit] : '-',
           s->level < sizeof ranks - 1 ? ranks[s->level] : '?');
    for (int seat = 0; seat < DAB_SEATS; seat++) {
        dab_format_hand(&s->dealt[seat], buf, sizeof buf);
        printf("    seat %d %-12.12s %s\n", seat, names[seat], buf);
    }
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < DAB_KITTY && k < sizeof buf; i++)
        k += (size_t)dab_format_card(s->kitty_orig[i], buf + k, sizeof buf - k);
    printf("    kitty as dealt  %s\n", buf);
    dab_format_hand(&s->kitty, buf, sizeof buf);
    printf("    kitty at the end %s%s\n", buf, s->dry ? "  (dry pot)" : "");
    const dab_outcome *o = &s->out;
    if (s->phase != DAB_PH_OVER)
        return;
    printf("    points: the attackers %d (%d in the kitty%s), case %d", o->points, o->kitty_points,
           o->dug ? ", dug" : "", o->kase);
    if (o->rise_team >= 0)
        printf("; team %d goes up %d", o->rise_team, o->rise);
    printf("; levels %c %c", o->level_after[0] < sizeof ranks - 1 ? ranks[o->level_after[0]] : '+',
           o->level_after[1] < sizeof ranks - 1 ? ranks[o->level_after[1]] : '+');
    if (o->winner >= 0)
        printf("; team %d wins the match", o->winner);
    printf("\n");
}
