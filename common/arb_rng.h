/* arb_rng.h — the seeded random generator whose output is identical on every
 * machine, and the derivation of child seeds. The algorithm is documented in
 * docs/rng.md and pinned by test vectors in tests/unit/test_common.c; changing
 * it changes every deal of every tournament, so it never changes silently. */
#ifndef ARB_RNG_H
#define ARB_RNG_H
#include <stdint.h>
#include <stddef.h>

/* xoshiro256** state, seeded by SplitMix64 from a 64-bit seed. A plain value:
 * copy it to fork a stream. */
typedef struct arb_rng {
    uint64_t s[4];
} arb_rng;

/* Seed the generator: s[0..3] are four successive SplitMix64 outputs from
 * `seed`. */
void arb_rng_seed(arb_rng *rng, uint64_t seed);
/* Next 64 random bits. */
uint64_t arb_rng_next(arb_rng *rng);
/* Uniform integer in [0, bound) without modulo bias (Lemire's method with
 * rejection); bound must be >= 1. */
uint64_t arb_rng_below(arb_rng *rng, uint64_t bound);
/* Fisher–Yates shuffle of n bytes, from the last index down, each swap index
 * drawn with arb_rng_below(i + 1). */
void arb_rng_shuffle_u8(arb_rng *rng, uint8_t *items, size_t n);

/* Child seed: a seed for the sub-stream of `parent` named by `label` (for
 * example "match/12/deal/3"). Defined as SplitMix64-finalise(parent XOR
 * FNV-1a-64(label)); identical labels give identical children, different
 * labels independent-looking ones. label is NUL-terminated, at most
 * ARB_MAX_SEED_LABEL bytes (longer labels use only their first bytes). */
uint64_t arb_seed_child(uint64_t parent, const char *label);
/* Same with an integer label component: arb_seed_child(parent, "<label>/<n>"). */
uint64_t arb_seed_childn(uint64_t parent, const char *label, uint64_t n);

#endif
