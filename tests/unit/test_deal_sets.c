/* test_deal_sets.c — deals as data (game.h: deal_cards, deal_ordered): for
 * every preset of Dou Dizhu and for Da Bang, a deal dealt from a seed, read
 * back as its order, and dealt again from that order and seed is the same
 * deal — the same hands, kitty and first decision, and played through with
 * the same actions the same scores — also after the match's deal_setup (the
 * referee's path); orders that are not a shuffle of the cards are refused. */
#include "game.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

/* Play both states through with the fallback action (pass, or the
 * smallest legal one), checking they agree step by step. */
static void play_both(const arb_game *g, void *s1, void *s2, arb_action *legal)
{
    int steps = 0;
    while (!g->over(s1) && steps++ < 5000) {
        CHECK(!g->over(s2));
        CHECK(g->to_act(s1) == g->to_act(s2) && g->decision(s1) == g->decision(s2));
        int n1 = g->legal(s1, legal, ARB_MAX_MOVES);
        CHECK(n1 > 0);
        if (n1 <= 0)
            return;
        arb_action a = legal[g->fallback(s1, legal, n1)];
        int n2 = g->legal(s2, legal, ARB_MAX_MOVES);
        CHECK(n2 == n1);
        CHECK(g->apply(s1, &a) == 0 && g->apply(s2, &a) == 0);
    }
    CHECK(g->over(s2));
    int64_t sc1[ARB_MAX_SEATS] = {0}, sc2[ARB_MAX_SEATS] = {0};
    g->score(s1, sc1, ARB_MAX_SEATS);
    g->score(s2, sc2, ARB_MAX_SEATS);
    CHECK(memcmp(sc1, sc2, sizeof sc1) == 0);
}

static void round_trip(const char *game, const char *preset, const char *opt_k, const char *opt_v, int deals)
{
    const arb_game *g = arb_game_find(game);
    CHECK(g && g->deal_cards && g->deal_ordered);
    if (!g)
        return;
    void *rules = calloc(1, g->rules_size), *s1 = calloc(1, g->state_size), *s2 = calloc(1, g->state_size);
    void *m = calloc(1, g->match_state_size ? g->match_state_size : 1);
    arb_action *legal = calloc(ARB_MAX_MOVES, sizeof *legal);
    char err[128];
    CHECK(g->rules_preset(rules, preset) == 0);
    if (opt_k)
        CHECK(g->rules_set(rules, opt_k, opt_v, err, sizeof err) == 0);
    uint8_t player_at[ARB_MAX_SEATS] = {0, 1, 2, 3};
    for (int i = 0; i < deals; i++) {
        uint64_t seed = arb_seed_childn(77, "deal-set", (uint64_t)i);
        arb_deal_cards c1, c2;
        CHECK(g->deal(s1, rules, seed) == 0);
        CHECK(g->deal_cards(s1, &c1) == 0);
        CHECK(g->deal_ordered(s2, rules, seed, c1.order, c1.ncards) == 0);
        /* as the referee does: the match sets the deal up, then it is read */
        if (g->deal_setup) {
            CHECK(g->match_init(m, rules, 1) == 0);
            CHECK(g->deal_setup(s1, m, player_at) == 0 && g->deal_setup(s2, m, player_at) == 0);
        }
        CHECK(g->deal_cards(s1, &c1) == 0 && g->deal_cards(s2, &c2) == 0);
        CHECK(memcmp(&c1, &c2, sizeof c1) == 0);
        CHECK(c1.nseats == g->seats(rules) && c1.ncards > 0);
        play_both(g, s1, s2, legal);

        /* A different order deals different cards from the same seed. */
        uint8_t other[ARB_MAX_DECK];
        memcpy(other, c1.order, c1.ncards);
        int j = 0;
        while (j + 1 < c1.ncards && other[j] == other[c1.ncards - 1])
            j++;
        uint8_t t = other[j];
        other[j] = other[c1.ncards - 1];
        other[c1.ncards - 1] = t;
        CHECK(g->deal_ordered(s2, rules, seed, other, c1.ncards) == 0);
        CHECK(g->deal_cards(s2, &c2) == 0 && memcmp(c2.order, other, c1.ncards) == 0);
        CHECK(memcmp(&c1, &c2, sizeof c1) != 0);
    }
    /* Not a shuffle of the cards: refused. */
    arb_deal_cards c;
    CHECK(g->deal(s1, rules, 5) == 0 && g->deal_cards(s1, &c) == 0);
    CHECK(g->deal_ordered(s2, rules, 5, c.order, c.ncards - 1u) == ARB_EINVAL);
    uint8_t bad[ARB_MAX_DECK];
    memcpy(bad, c.order, c.ncards);
    bad[0] = bad[1];   /* Da Bang has three of each: make it four */
    bad[2] = bad[1];
    bad[3] = bad[1];
    CHECK(g->deal_ordered(s2, rules, 5, bad, c.ncards) == ARB_EINVAL);
    bad[0] = 250;
    CHECK(g->deal_ordered(s2, rules, 5, bad, c.ncards) == ARB_EINVAL);
    free(rules);
    free(s1);
    free(s2);
    free(m);
    free(legal);
}

int main(void)
{
    round_trip("doudizhu", "standard", NULL, NULL, 100);
    round_trip("doudizhu", "douzero", NULL, NULL, 100);
    round_trip("doudizhu", "four-player", NULL, NULL, 50);
    round_trip("doudizhu", "four-player", "bidding", "fixed", 50);
    round_trip("doudizhu", "standard", "first_bidder", "faceup", 50);
    round_trip("dabang", "standard", NULL, NULL, 50);
    return TEST_DONE("deal-sets");
}
