/* arb_rng.c — SplitMix64-seeded xoshiro256**, bounded draws, shuffles and
 * child seeds (docs/rng.md). Only 64-bit integer arithmetic: the output is
 * the same on every machine and compiler. */
#include "arb_rng.h"
#include "arb_limits.h"

#include <stdio.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void arb_rng_seed(arb_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
}

uint64_t arb_rng_next(arb_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t arb_rng_below(arb_rng *rng, uint64_t bound)
{
    /* Lemire, "Fast random integer generation in an interval" (2019). */
    u128 m = (u128)arb_rng_next(rng) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            m = (u128)arb_rng_next(rng) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

void arb_rng_shuffle_u8(arb_rng *rng, uint8_t *items, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)arb_rng_below(rng, i);
        uint8_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}

uint64_t arb_seed_child(uint64_t parent, const char *label)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; label[i] && i < ARB_MAX_SEED_LABEL; i++) {
        h ^= (uint8_t)label[i];
        h *= 0x100000001b3ULL;
    }
    uint64_t x = parent ^ h;
    return splitmix64(&x);
}

uint64_t arb_seed_childn(uint64_t parent, const char *label, uint64_t n)
{
    char buf[ARB_MAX_SEED_LABEL + 24];
    snprintf(buf, sizeof buf, "%.*s/%llu", ARB_MAX_SEED_LABEL, label, (unsigned long long)n);
    return arb_seed_child(parent, buf);
}
