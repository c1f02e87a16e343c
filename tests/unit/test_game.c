/* test_game.c — the generic game interface (game.h) over Dou Dizhu: whole
 * deals driven only through the function table, every decision sent as text
 * the way the bot protocol will carry it (format_action -> parse_action ->
 * check -> apply), and results identical to the engine driven directly. */
#include "game.h"
#include "dabang.h"
#include "ddz.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static void run_through_interface(const char *preset, const char *wild, uint64_t seed, int64_t *out_scores)
{
    const arb_game *g = arb_game_find("doudizhu");
    CHECK(g != NULL);
    void *rules = calloc(1, g->rules_size), *state = calloc(1, g->state_size);
    arb_action *legal = calloc(ARB_MAX_MOVES, sizeof *legal);
    CHECK(g->rules_preset(rules, preset) == 0);
    char err[128];
    if (wild)
        CHECK(g->rules_set(rules, "wild", wild, err, sizeof err) == 0);
    CHECK(g->deal(state, rules, seed) == 0);
    arb_rng rng;
    arb_rng_seed(&rng, seed ^ 0x5555);
    int steps = 0;
    while (!g->over(state) && steps++ < 2000) {
        int seat = g->to_act(state);
        CHECK(seat >= 0 && seat < g->seats(rules));
        int n = g->legal(state, legal, ARB_MAX_MOVES);
        CHECKF(n > 0, "legal returned %d", n);
        if (n <= 0)
            break;
        const arb_action *pick = &legal[arb_rng_below(&rng, (uint64_t)n)];
        CHECK(pick->decision == g->decision(state));
        const char *dn = g->decision_name(pick->decision);
        CHECKF(dn && dn[0], "decision %d has no name", pick->decision);
        char text[256], why[256];
        CHECK(g->format_action(state, pick, text, sizeof text) > 0);
        arb_action parsed, fixed;
        int rc = g->parse_action(state, text, &parsed, err, sizeof err);
        CHECKF(rc == 0, "parse \"%s\": %s", text, err);
        rc = g->check(state, &parsed, &fixed, why, sizeof why);
        CHECKF(rc == 0, "check \"%s\": %s", text, why);
        if (rc)
            break;
        CHECK(fixed.cards[0] == pick->cards[0] && fixed.value == pick->value);
        CHECK(g->apply(state, &fixed) == 0);
    }
    CHECK(g->over(state));
    CHECK(g->to_act(state) == -1 && g->decision(state) == ARB_DEC_NONE);
    CHECK(g->score(state, out_scores, g->seats(rules)) == 0);
    free(rules);
    free(state);
    free(legal);
}

static void test_text_errors(void)
{
    const arb_game *g = arb_game_find("doudizhu");
    ddz_rules r;
    ddz_state s;
    g->rules_preset(&r, "standard");
    g->deal(&s, &r, 3);
    arb_action a, f;
    char err[256], why[256];
    CHECK(s.phase == DDZ_PHASE_BID);
    CHECK(g->parse_action(&s, "bid 9", &a, err, sizeof err) == 0);
    CHECK(g->check(&s, &a, &f, why, sizeof why) == ARB_EILLEGAL);
    CHECKF(strstr(why, "bid 9 not allowed") != NULL, "%s", why);
    CHECK(g->parse_action(&s, "bid two", &a, err, sizeof err) == ARB_EPARSE);
    CHECK(strstr(err, "expected \"bid N\"") != NULL);
    CHECK(g->parse_action(&s, "bid 3", &a, err, sizeof err) == 0);
    CHECK(g->check(&s, &a, &f, why, sizeof why) == 0 && g->apply(&s, &f) == 0);
    CHECK(s.phase == DDZ_PHASE_PLAY);
    CHECK(g->parse_action(&s, "play 3X", &a, err, sizeof err) == ARB_EPARSE);
    CHECK(g->parse_action(&s, "pass", &a, err, sizeof err) == 0);
    CHECK(g->check(&s, &a, &f, why, sizeof why) == ARB_EILLEGAL);
    CHECKF(strstr(why, "lead may not be a pass") != NULL, "%s", why);
    /* Another player's cards: not in this hand. */
    char other[64], text[80];
    ddz_cards_format(s.hand[(s.to_act + 1) % 3], other, sizeof other);
    ddz_cards mine = s.hand[s.to_act];
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (ddz_count(s.hand[(s.to_act + 1) % 3], x) && !ddz_count(mine, x)) {
            snprintf(text, sizeof text, "play %c", ddz_rank_chars[x]);
            CHECK(g->parse_action(&s, text, &a, err, sizeof err) == 0);
            CHECK(g->check(&s, &a, &f, why, sizeof why) == ARB_EILLEGAL);
            CHECKF(strstr(why, "not in hand") != NULL, "%s", why);
            break;
        }
    char big[300];
    memset(big, '3', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK(g->parse_action(&s, big, &a, err, sizeof err) == ARB_ETOOBIG);
    CHECK(arb_game_find("chess") == NULL);
}

/* Dou Dizhu's match through the interface: N deals, scores summed per
 * player whatever the seating, forfeits paid by the offender alone. */
static void test_ddz_match(void)
{
    const arb_game *g = arb_game_find("doudizhu");
    ddz_rules r;
    g->rules_preset(&r, "standard");
    CHECK(g->default_forfeit_points == 6 && !g->match_ends_early);
    int8_t team[4] = {9, 9, 9, 9};
    CHECK(g->teams(&r, team) == 0 && team[0] == 9);
    void *m = calloc(1, g->match_state_size);
    CHECK(g->match_init(m, &r, 2) == 0);
    CHECK(!g->match_over(m));
    int64_t sc[4] = {0};
    CHECK(g->forfeit(m, 1, 6, sc) == 0);
    CHECK(sc[0] == 6 && sc[1] == -12 && sc[2] == 6);
    CHECK(g->forfeit(m, 3, 6, sc) == ARB_EINVAL);
    uint8_t at0[3] = {0, 1, 2}, at1[3] = {2, 0, 1};
    CHECK(g->match_deal_done(m, NULL, at0, sc, 1) == 0);
    CHECK(!g->match_over(m));
    int64_t s2[3] = {-4, 2, 2};
    CHECK(g->match_deal_done(m, NULL, at1, s2, -1) == 0);
    CHECK(g->match_over(m));
    arb_standing st;
    CHECK(g->match_result(m, &st) == 0);
    /* player 0: 6 + 2 (seat 1), player 1: -12 + 2 (seat 2), player 2: 6 - 4 */
    CHECK(st.score[0] == 8 && st.score[1] == -10 && st.score[2] == 2);
    CHECK(st.nteams == 0 && st.team[0] == -1);
    free(m);
    CHECK(strcmp(g->decision_name(ARB_DEC_PLAY), "play") == 0);
    CHECK(strcmp(g->decision_name(DDZ_DEC_DOUBLE), "double") == 0);
    CHECK(g->decision_name(DDZ_DEC_END) == NULL);
}

/* The registry: a game registers once, complete, under a free name. */
static void test_registry(void)
{
    CHECK(arb_game_missing(&arb_game_doudizhu) == NULL);
    CHECK(arb_game_register(&arb_game_doudizhu) == ARB_EINVAL);   /* the name is taken */
    arb_game half = arb_game_doudizhu;
    half.name = "half";
    half.match_result = NULL;
    CHECK(arb_game_missing(&half) && strcmp(arb_game_missing(&half), "match_result") == 0);
    CHECK(arb_game_register(&half) == ARB_EINVAL);
    static arb_game copies[ARB_MAX_GAMES];
    static char names[ARB_MAX_GAMES][16];
    int builtin = 0, added = 0, rc = 0;
    for (const arb_game *const *it = arb_games(); *it; it++)
        builtin++;
    CHECK(builtin == 2 && arb_game_find("dabang") == &arb_game_dabang);   /* Dou Dizhu and Da Bang */
    for (int i = 0; i < ARB_MAX_GAMES && rc == 0; i++) {
        copies[i] = arb_game_doudizhu;
        snprintf(names[i], sizeof names[i], "copy%d", i);
        copies[i].name = names[i];
        rc = arb_game_register(&copies[i]);
        added += rc == 0;
    }
    CHECK(rc == ARB_ENOSPC && added == ARB_MAX_GAMES - builtin);
    CHECK(arb_game_find("copy0") == &copies[0]);
    int n = 0;
    for (const arb_game *const *it = arb_games(); *it; it++)
        n++;
    CHECK(n == ARB_MAX_GAMES);
}

int main(void)
{
    static const char *const presets[] = {"standard", "rlcard", "douzero", "four-player"};
    for (int p = 0; p < 4; p++)
        for (uint64_t seed = 0; seed < 300; seed++) {
            int64_t sc[4] = {0};
            run_through_interface(presets[p], NULL, seed, sc);
            int64_t sum = sc[0] + sc[1] + sc[2] + sc[3];
            CHECK(sum == 0);
        }
    /* Wild cards: plays like "play 3377=333+7" survive the text round trip. */
    for (uint64_t seed = 0; seed < 40; seed++) {
        int64_t sc[4] = {0};
        run_through_interface("standard", seed & 1 ? "2" : "1", seed, sc);
        CHECK(sc[0] + sc[1] + sc[2] == 0);
    }
    test_text_errors();
    test_ddz_match();
    test_registry();
    return TEST_DONE("game-interface");
}
