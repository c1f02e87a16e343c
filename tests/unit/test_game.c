/* test_game.c — the generic game interface (game.h) over Dou Dizhu: whole
 * deals driven only through the function table, every decision sent as text
 * the way the bot protocol will carry it (format_action -> parse_action ->
 * check -> apply), and results identical to the engine driven directly. */
#include "game.h"
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
    return TEST_DONE("game-interface");
}
