/* ddz_policy.c — random and greedy Dou Dizhu policies (see ddz_policy.h). */
#include "ddz_policy.h"

int policy_random(const ddz_state *s, const ddz_move *moves, const int8_t *values, int n, void *ctx)
{
    (void)s; (void)moves; (void)values;
    return (int)arb_rng_below(&((policy_ctx *)ctx)->rng, (uint64_t)n);
}

/* Hand strength for bidding: high cards and bombs. */
static int strength(ddz_cards h)
{
    int v = 2 * (int)ddz_count(h, DDZ_RR) + 2 * (int)ddz_count(h, DDZ_RB) + (int)ddz_count(h, DDZ_R2);
    for (int x = 0; x <= DDZ_R2; x++)
        if (ddz_count(h, x) >= 4)
            v += 3;
    return v;
}

static bool partners(const ddz_state *s, int a, int b)
{
    return s->landlord != DDZ_NONE && a != s->landlord && b != s->landlord;
}

int policy_greedy(const ddz_state *s, const ddz_move *moves, const int8_t *values, int n, void *ctx)
{
    (void)ctx;
    int seat = s->to_act;
    if (!moves) {
        int st = strength(s->hand[seat]);
        int want = s->phase == DDZ_PHASE_BID ? (st >= 7 ? 3 : st >= 5 ? 2 : st >= 3 ? 1 : 0)
                 : (st >= 5 ? 1 : 0);
        int best = 0;
        for (int i = 0; i < n; i++)
            if (values[i] <= want && values[i] > values[best])
                best = i;
        return best;
    }
    const ddz_move *prev = ddz_to_beat(s);
    if (!prev) {
        /* Lead: shed the most cards, lowest rank first, bombs last. */
        int best = -1;
        for (int i = 0; i < n; i++) {
            const ddz_move *m = &moves[i];
            if (m->kind == DDZ_BOMB || m->kind == DDZ_ROCKET)
                continue;
            if (best < 0 || m->ncards > moves[best].ncards
                || (m->ncards == moves[best].ncards && m->rank < moves[best].rank))
                best = i;
        }
        return best < 0 ? 0 : best;
    }
    /* Follow: never beat a partner; else the smallest non-bomb that wins;
     * a bomb only when the player to beat is close to going out. */
    int pass = n - 1;
    if (partners(s, seat, s->last_seat))
        return pass;
    int best = -1;
    for (int i = 0; i < pass; i++) {
        const ddz_move *m = &moves[i];
        bool bomb = m->kind == DDZ_BOMB || m->kind == DDZ_ROCKET;
        if (bomb && ddz_total(s->hand[s->last_seat]) > 4)
            continue;
        bool best_bomb = best >= 0 && (moves[best].kind == DDZ_BOMB || moves[best].kind == DDZ_ROCKET);
        if (best < 0 || (best_bomb && !bomb) || (best_bomb == bomb && m->rank < moves[best].rank))
            best = i;
    }
    return best < 0 ? pass : best;
}
