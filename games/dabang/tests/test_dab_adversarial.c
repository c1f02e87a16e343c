/* test_dab_adversarial.c — Da Bang's game interface against hostile bots and
 * curious ones: replies that are not actions (empty, odd, oversized) are
 * parse errors and never some other action; what a seat is told never
 * depends on another seat being asked and passing (DB-48: being asked shows
 * what one holds). Usage: test_dab_adversarial */
#include "dabang.h"
#include "arb_error.h"
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const arb_game *g;

/* ---- Lines told to one seat ---------------------------------------------- */

enum { MAX_LINES = 4096 };

typedef struct lines {
    int n;
    char text[MAX_LINES][96];
} lines;

static void collect(void *ctx, const char *line)
{
    lines *l = ctx;
    if (l->n < MAX_LINES)
        snprintf(l->text[l->n++], sizeof l->text[0], "%s", line);
}

/* The first later deal from `seed` that stops to ask someone to declare. */
static bool later_deal_asking(dab_state *s, uint64_t *seed, int level)
{
    dab_rules r;
    dab_rules_preset(&r, "standard");
    for (; *seed < 500; (*seed)++) {
        dab_context ctx = {false, (int8_t)(*seed % 4), {(uint8_t)level, (uint8_t)level}, 0};
        dab_deal_in(s, &r, *seed, &ctx);
        if (dab_decision(s) == DAB_DEC_DECLARE && s->phase == DAB_PH_DRAW && s->redeals == 0)
            return true;
    }
    return false;
}

/* ---- Replies that are not actions ---------------------------------------- */

/* A reply with no cards is not a declaration. It once read as "level cards
 * of count 0", whose option bit fell on three level cards of clubs: an
 * empty line from a bot holding them declared them. */
static void empty_declarations(void)
{
    static dab_state s;
    int tried = 0;
    for (uint64_t seed = 1; seed < 400 && tried < 40; seed++) {
        uint64_t at = seed;
        if (!later_deal_asking(&s, &at, (int)(seed % 8)))
            break;
        seed = at;
        static const char *const empty[] = {"", "declare ", " ", "declare  ", "play ", "pass ", "declare pass x"};
        for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
            arb_action a;
            char err[300] = "";
            int rc = g->parse_action(&s, empty[i], &a, err, sizeof err);
            CHECKF(rc == ARB_EPARSE && strstr(err, "cannot read") != NULL,
                   "seed %llu: reply \"%s\" read as an action (value %d): %s", (unsigned long long)seed, empty[i],
                   a.value, err);
        }
        tried++;
    }
    CHECK(tried >= 20);
}

/* Each decision's reply text at the edges: too long, cards that are not
 * cards, more cards than the decision takes, a joker burial without its
 * take, a play of four cards. */
static void odd_replies(void)
{
    static dab_state s;
    uint64_t seed = 1;
    CHECK(later_deal_asking(&s, &seed, 2));
    char big[600];
    memset(big, 'S', sizeof big - 1);
    big[sizeof big - 1] = 0;
    static const char *const bad[] = {"5H5H5H5H", "5H5C", "5H 5H", "BJBJBJ", "BJBJBJ X", "RJRJ S", "RJ",
                                      "5X", "5", "declare5H", "\x01", "5H\t", "BJBJBJ SH"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        arb_action a;
        char err[300] = "";
        CHECKF(g->parse_action(&s, bad[i], &a, err, sizeof err) == ARB_EPARSE, "declare \"%s\" read", bad[i]);
    }
    arb_action a;
    char err[300] = "";
    CHECK(g->parse_action(&s, big, &a, err, sizeof err) == ARB_ETOOBIG);
}

/* ---- What others are told when a seat passes (DB-48) -------------------- */

static bool line_is_draw_of_one(const char *line)
{
    return strncmp(line, "draw ", 5) == 0 && strlen(line) == 7;
}

/* A later deal in which every seat asked to declare passes: what each seat
 * is told from the start to the trump line must be its own cards one by
 * one in the order drawn, exactly as if nobody had been asked — the lines
 * once came in batches broken wherever someone was asked, so a seat could
 * tell that another held level cards and kept them hidden. */
static void passes_unseen(void)
{
    static dab_state s, before;
    int deals = 0, asks = 0;
    for (uint64_t seed = 1; seed < 400 && deals < 30; seed++) {
        uint64_t at = seed;
        if (!later_deal_asking(&s, &at, (int)(seed % 8)))
            break;
        seed = at;
        static lines told[DAB_SEATS];
        for (int p = 0; p < DAB_SEATS; p++) {
            told[p].n = 0;
            g->start_events(&s, p, collect, &told[p]);
        }
        bool redealt = false;
        while (dab_decision(&s) == DAB_DEC_DECLARE) {
            arb_action act, fixed;
            char err[200], why[200];
            CHECK(g->parse_action(&s, "pass", &act, err, sizeof err) == 0);
            CHECK(g->check(&s, &act, &fixed, why, sizeof why) == 0);
            int actor = g->to_act(&s);
            before = s;
            CHECK(g->apply(&s, &fixed) == 0);
            redealt |= s.redeals != before.redeals;
            for (int p = 0; p < DAB_SEATS; p++) {
                int n0 = told[p].n;
                g->action_events(&before, &s, actor, &fixed, p, collect, &told[p]);
                /* while drawing goes on, a pass tells the others only their own draws */
                if (p != actor && s.phase == DAB_PH_DRAW)
                    for (int i = n0; i < told[p].n; i++)
                        CHECKF(line_is_draw_of_one(told[p].text[i]), "seed %llu: seat %d passed, seat %d told \"%s\"",
                               (unsigned long long)seed, actor, p, told[p].text[i]);
            }
            asks++;
        }
        if (redealt)
            continue;
        for (int p = 0; p < DAB_SEATS; p++) {
            static lines want;
            want.n = 0;
            for (int i = 0; i < DAB_DECK - DAB_KITTY; i++)
                if ((s.first_drawer + i) % DAB_SEATS == p) {
                    char c[4];
                    dab_format_card(s.deck[i], c, sizeof c);
                    snprintf(want.text[want.n++], sizeof want.text[0], "draw %s", c);
                }
            /* told: the deal line, then this seat's own pass lines aside */
            int k = 0;
            bool same = true;
            for (int i = 1; i < told[p].n && same; i++) {
                if (strncmp(told[p].text[i], "declare ", 8) == 0)
                    continue;
                if (strncmp(told[p].text[i], "trump ", 6) == 0)
                    break;
                same = k < want.n && strcmp(told[p].text[i], want.text[k]) == 0;
                k++;
            }
            CHECKF(same && k == want.n, "seed %llu seat %d: told %d draw lines, not its %d cards one by one",
                   (unsigned long long)seed, p, k, want.n);
        }
        deals++;
    }
    CHECK(deals >= 20 && asks >= deals);
}

/* DB-59: a player asked whether to bury a joker is not told which kitty
 * card he would take back (the kitty may still be hidden): the items are
 * `pass` and the joker only, and a choice among equal cards comes as its
 * own decision after the kitty, joker included, was shown to every seat. */
static void joker_options_hide_the_kitty(void)
{
    static arb_action legal[ARB_MAX_MOVES];
    static lines seen[DAB_SEATS];
    dab_rules r;
    g->rules_preset(&r, "standard");
    int asked = 0, choices = 0;
    arb_rng rng;
    arb_rng_seed(&rng, 5);
    for (uint64_t seed = 1; seed <= 400 && choices < 20; seed++) {
        dab_state s, before;
        g->deal(&s, &r, seed);
        for (int p = 0; p < DAB_SEATS; p++) {
            seen[p].n = 0;
            g->start_events(&s, p, collect, &seen[p]);
        }
        while (!g->over(&s)) {
            int n = g->legal(&s, legal, ARB_MAX_MOVES);
            CHECK(n > 0);
            if (n <= 0)
                break;
            int d = g->decision(&s);
            if (d == DAB_DEC_JOKER) {
                asked++;
                for (int i = 0; i < n; i++) {
                    char item[64];
                    g->format_item(&s, &legal[i], item, sizeof item);
                    CHECKF(!strcmp(item, "pass") || !strcmp(item, "RJ") || !strcmp(item, "BJ"),
                           "seed %llu: joker item \"%s\"", (unsigned long long)seed, item);
                }
            }
            if (d == DAB_DEC_TAKE) {
                choices++;
                bool shown = false;
                for (int p = 0; p < DAB_SEATS; p++) {
                    bool here = false;
                    for (int i = 0; i < seen[p].n; i++)
                        here |= strncmp(seen[p].text[i], "buried ", 7) == 0;
                    shown = p == 0 ? here : shown && here;
                }
                CHECKF(shown, "seed %llu: a take-back choice before the kitty was shown", (unsigned long long)seed);
            }
            /* bury jokers whenever one may, to reach the choices */
            int k = d == DAB_DEC_JOKER && n > 1 ? 1 : (int)arb_rng_below(&rng, (uint64_t)n);
            arb_action fixed;
            char why[160];
            int actor = g->to_act(&s);
            CHECK(g->check(&s, &legal[k], &fixed, why, sizeof why) == 0);
            before = s;
            CHECK(g->apply(&s, &fixed) == 0);
            for (int p = 0; p < DAB_SEATS; p++)
                g->action_events(&before, &s, actor, &fixed, p, collect, &seen[p]);
        }
    }
    CHECK(asked > 0 && choices > 0);
    printf("joker questions %d, choices among equal cards %d\n", asked, choices);
}

int main(void)
{
    g = arb_game_find("dabang");
    CHECK(g != NULL);
    if (!g)
        return 1;
    empty_declarations();
    odd_replies();
    passes_unseen();
    joker_options_hide_the_kitty();
    printf("test_dab_adversarial: %d passed, %d failed\n", t_passed, t_failed);
    return t_failed != 0;
}
