/* arb_seeds.h — every seed and key label of arbiter in one place
 * (docs/rng.md): what a match's key is derived under, the seeds of its
 * deals and bots, the tournament's draws, and the match seed (a public
 * label). Changing any of these changes what every recorded transcript
 * proves: they are pinned by tests/unit/test_common.c. */
#ifndef ARB_SEEDS_H
#define ARB_SEEDS_H
#include "arb_kdf.h"
#include "arb_limits.h"

#include <stddef.h>
#include <stdint.h>

/* The label a tournament match's key is derived under (match key =
 * arb_key_derive(tournament secret, label)): "match|<tournament
 * seed>|<round>|<table>", table 0-based. The scheduler writes it into the
 * match's configuration (and so the transcript's key_label); `arbiter
 * verify` derives it again from the record to check the transcript's. */
void arb_seeds_match_label(char out[ARB_MAX_KEY_LABEL], uint64_t tournament_seed, int round, int table);
/* The label of a match played alone (`arbiter match --seed N`): "match|<N>". */
void arb_seeds_single_label(char out[ARB_MAX_KEY_LABEL], uint64_t seed);

/* The label of an `arbiter eval` match (its key derived from the bots'
 * seed): "eval|<first deal's index>|<table 0's role>". */
void arb_seeds_eval_label(char out[ARB_MAX_KEY_LABEL], size_t base, int role);
/* Deal i of an `arbiter eval` deal set made from seed S (the deal sets of
 * docs/evaluation.md): arb_seed_childn(S, "eval", i). */
uint64_t arb_seeds_eval_deal(uint64_t set_seed, uint64_t i);

/* The match seed of table `table` of round `round` (matches.seed, the
 * match configuration's seed, the transcript header's "seed"):
 * arb_seed_child(tournament seed, "round/<round>/table/<table>"). A public
 * label only: no deal, key or draw follows from it (deals follow from the
 * match key). Kept because every transcript written holds it and re-judges
 * with it; derived here and nowhere else. */
uint64_t arb_seeds_match_seed(uint64_t tournament_seed, int round, int table);

/* Deal n of a match (0-based): arb_seed_keyedn(match key, "deal", n). */
uint64_t arb_seeds_deal(const uint8_t key[ARB_KEY_BYTES], uint64_t deal);
/* Bot b's seed in its `match` line: arb_seed_keyedn(match key, "bot", b). */
uint64_t arb_seeds_bot(const uint8_t key[ARB_KEY_BYTES], uint64_t bot);
/* The tournament's draws (seeding order, table shuffles, tie-break draws):
 * arb_seed_keyed(secret, "plan|<tournament seed>"). */
uint64_t arb_seeds_plan(const uint8_t secret[ARB_KEY_BYTES], uint64_t tournament_seed);
/* The tournament's draws are child streams of arb_seeds_plan's seed,
 * under these labels: the seeding order, the round robin's and the group
 * stage's table order, and a tie's draw at table t of round r (or in the
 * final round robin of round r). */
#define ARB_SEEDS_SEEDING "seeding"
#define ARB_SEEDS_ROUND_ROBIN "round-robin"
#define ARB_SEEDS_GROUPS "groups"
void arb_seeds_tiebreak_label(char *out, size_t len, int round, int table);
void arb_seeds_final_tiebreak_label(char *out, size_t len, int round);
/* A ladder's pairing of round r: arb_seed_keyedn(secret, "ladder", r). */
uint64_t arb_seeds_ladder(const uint8_t secret[ARB_KEY_BYTES], uint64_t round);

#endif
