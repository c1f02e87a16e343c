/* arb_seeds.c — every seed and key label of arbiter in one place
 * (arb_seeds.h, docs/rng.md). */
#include "arb_seeds.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <stdio.h>

void arb_seeds_match_label(char out[ARB_MAX_KEY_LABEL], uint64_t tournament_seed, int round, int table)
{
    snprintf(out, ARB_MAX_KEY_LABEL, "match|%" PRIu64 "|%d|%d", tournament_seed, round, table);
}

void arb_seeds_single_label(char out[ARB_MAX_KEY_LABEL], uint64_t seed)
{
    snprintf(out, ARB_MAX_KEY_LABEL, "match|%" PRIu64, seed);
}

void arb_seeds_eval_label(char out[ARB_MAX_KEY_LABEL], size_t base, int role)
{
    snprintf(out, ARB_MAX_KEY_LABEL, "eval|%zu|%d", base, role);
}

uint64_t arb_seeds_eval_deal(uint64_t set_seed, uint64_t i)
{
    return arb_seed_childn(set_seed, "eval", i);
}

uint64_t arb_seeds_match_seed(uint64_t tournament_seed, int round, int table)
{
    char label[64];
    snprintf(label, sizeof label, "round/%d/table/%d", round, table);
    return arb_seed_child(tournament_seed, label);
}

uint64_t arb_seeds_deal(const uint8_t key[ARB_KEY_BYTES], uint64_t deal)
{
    return arb_seed_keyedn(key, "deal", deal);
}

uint64_t arb_seeds_bot(const uint8_t key[ARB_KEY_BYTES], uint64_t bot)
{
    return arb_seed_keyedn(key, "bot", bot);
}

uint64_t arb_seeds_plan(const uint8_t secret[ARB_KEY_BYTES], uint64_t tournament_seed)
{
    char label[64];
    snprintf(label, sizeof label, "plan|%" PRIu64, tournament_seed);
    return arb_seed_keyed(secret, label);
}

void arb_seeds_tiebreak_label(char *out, size_t len, int round, int table)
{
    snprintf(out, len, "tiebreak/round/%d/table/%d", round, table);
}

void arb_seeds_final_tiebreak_label(char *out, size_t len, int round)
{
    snprintf(out, len, "tiebreak/round/%d/final", round);
}

uint64_t arb_seeds_ladder(const uint8_t secret[ARB_KEY_BYTES], uint64_t round)
{
    return arb_seed_keyedn(secret, "ladder", round);
}
