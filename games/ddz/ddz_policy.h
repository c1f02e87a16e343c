/* ddz_policy.h — Dou Dizhu's built-in move choosers used by `arbiter play` and the
 * benchmarks: uniformly random, and greedy (smallest winning play, bids by
 * hand strength). The bots SDK has the same policies for bot programs. */
#ifndef ARB_DDZ_POLICY_H
#define ARB_DDZ_POLICY_H
#include "ddz.h"
#include "arb_rng.h"

typedef struct policy_ctx {
    arb_rng rng;
} policy_ctx;

int policy_random(const ddz_state *s, const ddz_move *moves, const int8_t *values, int n, void *ctx);
int policy_greedy(const ddz_state *s, const ddz_move *moves, const int8_t *values, int n, void *ctx);

#endif
