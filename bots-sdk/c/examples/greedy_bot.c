/* greedy_bot.c — an example bot: bids by hand strength, leads by shedding
 * the most cards at the lowest rank, follows with the smallest play that
 * wins, never beats its partner, and keeps bombs for when an opponent is
 * close to going out. Uses only what its seat has seen. */
#include "arbiter_bot.h"

static int choose_value(const abot_view *v, const abot_request *r)
{
    int st = abot_strength(v->hand);
    int want;
    switch (r->decision) {
    case ABOT_BID: want = st >= 7 ? 3 : st >= 5 ? 2 : st >= 3 ? 1 : 0; break;
    case ABOT_DOUBLE: want = st >= 8; break;
    case ABOT_SHOW: want = 0; break;      /* showing only raises what a loss costs */
    case ABOT_CLAIM: want = 1; break;     /* four jokers win the deal outright */
    default: want = st >= 5; break;       /* call, rob */
    }
    /* the highest legal value not above what the hand is worth */
    int best = 0;
    for (int i = 0; i < r->nvalues; i++)
        if (r->values[i] <= want && r->values[i] > r->values[best])
            best = i;
    return best;
}

static int fewest_opponent_cards(const abot_view *v)
{
    int least = DDZ_MAX_CARDS;
    for (int s = 0; s < v->players; s++)
        if (!abot_partner(v, s) && v->counts[s] < least)
            least = v->counts[s];
    return least;
}

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)ctx;
    if (r->decision != ABOT_PLAY)
        return choose_value(v, r);
    const ddz_move *m = r->moves;
    int n = r->nmoves;
    if (!v->to_beat) {
        /* lead: most cards first, then the lowest rank; bombs last */
        int best = -1;
        for (int i = 0; i < n; i++) {
            if (abot_is_bomb(&m[i]))
                continue;
            if (best < 0 || m[i].ncards > m[best].ncards
                || (m[i].ncards == m[best].ncards && m[i].rank < m[best].rank))
                best = i;
        }
        return best < 0 ? 0 : best;
    }
    int pass = 0;       /* follows start with the pass (the documented order) */
    if (abot_partner(v, v->to_beat_seat))
        return pass;
    bool bombs_ok = fewest_opponent_cards(v) <= 4;
    int best = -1;
    for (int i = pass + 1; i < n; i++) {
        bool bomb = abot_is_bomb(&m[i]);
        if (bomb && !bombs_ok)
            continue;
        /* a plain play before any bomb; among equals the lowest rank (a
         * bomb's rank is its power, so the weakest bomb too) */
        bool best_bomb = best >= 0 && abot_is_bomb(&m[best]);
        if (best < 0 || (best_bomb && !bomb) || (best_bomb == bomb && m[i].rank < m[best].rank))
            best = i;
    }
    return best < 0 ? pass : best;
}

int main(int argc, char **argv)
{
    return abot_run(abot_name_arg(argc, argv, "greedy"), choose, NULL) == 0 ? 0 : 1;
}
