/* fuzz_dab_parser.c — libFuzzer target for Da Bang's card and play parser
 * (dab_parse_cards, dab_parse_card) and the adapter's parse_action at every
 * kind of decision: any bytes must be refused cleanly or read into cards
 * that format back into the same cards, and an action read at a decision
 * must format and read back as itself. */
#include "dabang.h"
#include "arb_error.h"
#include "game.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One state per decision kind, found once by playing seeded deals. */
static dab_state states[8];
static int nstates;

static void find_states(void)
{
    const arb_game *g = arb_game_find("dabang");
    dab_rules r;
    dab_rules_preset(&r, "standard");
    bool have[8] = {false};
    static arb_action acts[DAB_MAX_PLAYS + 64];
    for (uint64_t seed = 1; seed < 40 && nstates < 7; seed++) {
        dab_state s;
        dab_deal(&s, &r, seed);
        if (seed % 2 == 0) {
            /* a later deal: level cards, tribute */
            dab_context ctx = {false, (int8_t)(seed % 4), {2, 4}, 3};
            dab_setup(&s, &ctx);
        }
        arb_rng rng;
        arb_rng_seed(&rng, seed);
        while (s.phase != DAB_PH_OVER) {
            int d = dab_decision(&s);
            int slot = d == ARB_DEC_PLAY ? (s.ntrick ? 6 : 1) : d;
            if (slot < 8 && !have[slot]) {
                have[slot] = true;
                states[nstates++] = s;
            }
            int n = g->legal(&s, acts, sizeof acts / sizeof acts[0]);
            if (n <= 0)
                abort();
            arb_action fixed;
            char why[200];
            int k = (int)arb_rng_below(&rng, (uint64_t)n);
            if (g->check(&s, &acts[k], &fixed, why, sizeof why) || g->apply(&s, &fixed))
                abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512)
        return 0;
    char text[513];
    memcpy(text, data, size);
    text[size] = 0;
    if (!nstates)
        find_states();

    /* cards: read, format, read again */
    dab_hand h;
    memset(&h, 0, sizeof h);
    char err[256], out[512];
    int rc = dab_parse_cards(text, DAB_DECK, &h, err, sizeof err);
    if (rc != 0 && rc != ARB_EPARSE)
        abort();
    if (rc == 0) {
        int total = 0;
        for (int c = 0; c < DAB_NCARDS; c++) {
            if (h.n[c] > DAB_COPIES)
                abort();
            total += h.n[c];
        }
        if (total != h.total || dab_format_hand(&h, out, sizeof out) != 2 * total)
            abort();
        dab_hand again;
        memset(&again, 0, sizeof again);
        if (dab_parse_cards(out, DAB_DECK, &again, err, sizeof err) || memcmp(&again, &h, sizeof h))
            abort();
        uint64_t packed[2];
        dab_pack(&h, packed);
        if (dab_unpack(packed, &again) || memcmp(&again, &h, sizeof h))
            abort();
        dab_play p;
        if (dab_play_from_hand(&h, &p) == 0) {
            /* a play of 1..3 cards: its check never crashes, as a lead or a follow */
            dab_trump t;
            dab_trump_init(&t, (int)(size % 8), (int)(size % 4));
            char why[200];
            dab_check_play(&t, &h, NULL, &p, why, sizeof why);
            dab_play led = {1, {p.c[0]}};
            dab_check_play(&t, &h, &led, &p, why, sizeof why);
            dab_beats(&t, &p, &led);
        }
    }
    const char *s = text;
    int c = dab_parse_card(&s);
    if ((c < -1 || c >= DAB_NCARDS) || (c >= 0 && s != text + 2) || (c < 0 && s != text))
        abort();

    /* actions: every decision kind reads the text or refuses it */
    const arb_game *g = arb_game_find("dabang");
    for (int i = 0; i < nstates; i++) {
        arb_action a, b, fixed;
        char item[128], why[200];
        rc = g->parse_action(&states[i], text, &a, err, sizeof err);
        if (rc != 0) {
            if (rc != ARB_EPARSE && rc != ARB_ETOOBIG)
                abort();
            continue;
        }
        if (g->format_item(&states[i], &a, item, sizeof item) < 0)
            abort();
        if (g->parse_action(&states[i], item, &b, err, sizeof err) || memcmp(&a, &b, sizeof a))
            abort();
        if (g->check(&states[i], &a, &fixed, why, sizeof why) == 0) {
            dab_state copy = states[i];
            if (g->apply(&copy, &fixed))
                abort();
        }
    }
    return 0;
}
