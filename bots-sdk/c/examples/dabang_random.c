/* dabang_random.c — an example Da Bang bot: a uniformly random legal
 * choice for every decision, drawn from the seed the referee gives it, so
 * the same match replays exactly. */
#include "arbiter_bot.h"
#include "arb_rng.h"

typedef struct state {
    arb_rng rng;
    uint64_t seeded_with;
    bool seeded;
} state;

static int choose(const abot_dab_view *v, const abot_dab_request *r, void *ctx)
{
    state *st = ctx;
    /* the seed arrives with `match`, after the bot started */
    if (!st->seeded || st->seeded_with != v->seed) {
        arb_rng_seed(&st->rng, v->seed);
        st->seeded_with = v->seed;
        st->seeded = true;
    }
    return (int)arb_rng_below(&st->rng, (uint64_t)r->nchoices);
}

int main(int argc, char **argv)
{
    state st = {0};
    return abot_dab_run(abot_name_arg(argc, argv, "dabang_random"), choose, &st) == 0 ? 0 : 1;
}
