/* ladder.c — a ladder's matchmaking (ladder.h).
 *
 * Who plays next: among the entries free to play (fewer matches in flight
 * than max_in_flight, and under their rate of matches per hour), the one
 * with the highest priority is the table's anchor:
 *
 *   priority = (1 + sigma / sigma0) * (new_boost if games < provisional)
 *              * (1 + log1p(idle hours))
 *
 * so that uncertain and new entries play more and nobody waits forever;
 * ties go to a draw from the seed. The anchor's opponents are then added
 * one by one, each the free entry with the best closeness to those
 * already at the table,
 *
 *   closeness(a, b) = exp(-(mu_a - mu_b)^2 / (2 (2 beta^2 + sigma_a^2 + sigma_b^2)))
 *
 * (the shape of Weng–Lin's match quality: near 1 for a close game),
 * times 0.1 for each time they met among each other's latest opponents
 * (no immediate rematch while anyone else is free), and a small draw from
 * the seed to break ties. Seats: the permutation of the table that adds
 * least to the squares of each entry's seat counts, as tournaments
 * balance seats. */
#include "ladder.h"
#include "arb_error.h"
#include "arb_rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool is_free(const ladder_params *p, const ladder_entry *e)
{
    int max = p->max_in_flight > 0 ? p->max_in_flight : 1;
    return e->in_flight < max && (e->rate <= 0 || e->last_hour < e->rate);
}

static double priority(const ladder_params *p, const ladder_entry *e)
{
    double pr = 1 + (p->sigma0 > 0 ? e->sigma / p->sigma0 : 0);
    if (e->games < p->provisional)
        pr *= p->new_boost > 0 ? p->new_boost : 2;
    double idle_h = e->idle_s > 0 ? (double)e->idle_s / 3600 : 0;
    return pr * (1 + log1p(idle_h));
}

static int met(const ladder_entry *a, const ladder_entry *b)
{
    int n = 0;
    for (int i = 0; i < LADDER_MAX_RECENT; i++)
        n += (a->recent[i] && a->recent[i] == b->id) + (b->recent[i] && b->recent[i] == a->id);
    return n;
}

static double closeness(const ladder_params *p, const ladder_entry *a, const ladder_entry *b)
{
    double d = a->mu - b->mu, c2 = 2 * p->beta * p->beta + a->sigma * a->sigma + b->sigma * b->sigma;
    double q = c2 > 0 ? exp(-d * d / (2 * c2)) : (d == 0 ? 1 : 0);
    for (int m = met(a, b); m > 0; m--)
        q *= 0.1;
    return q;
}

int ladder_match(const ladder_params *p, const ladder_entry *e, int n, uint64_t seed, int *table, char *why,
                 size_t whylen)
{
    int k = p->seats;
    if (k < 2 || k > 4 || n < 0)
        return ARB_EINVAL;
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    int nfree = 0, anchor = -1;
    double best = -1;
    for (int i = 0; i < n; i++) {
        if (!is_free(p, &e[i]))
            continue;
        nfree++;
        /* a draw in [0, 1e-9) breaks exact ties without outweighing any real difference */
        double pr = priority(p, &e[i]) + (double)arb_rng_below(&rng, 1000) * 1e-12;
        if (pr > best) {
            best = pr;
            anchor = i;
        }
    }
    if (nfree < k)
        return 0;
    int chosen[4] = {anchor}, m = 1;
    double quality = 1;
    while (m < k) {
        int pick = -1;
        double pick_q = -1;
        for (int i = 0; i < n; i++) {
            bool taken = false;
            for (int j = 0; j < m; j++)
                taken |= chosen[j] == i;
            if (taken || !is_free(p, &e[i]))
                continue;
            double q = 1;
            for (int j = 0; j < m; j++)
                q *= closeness(p, &e[chosen[j]], &e[i]);
            q += (double)arb_rng_below(&rng, 1000) * 1e-15;
            if (q > pick_q) {
                pick_q = q;
                pick = i;
            }
        }
        if (pick < 0)
            return 0;
        quality *= pick_q;
        chosen[m++] = pick;
    }
    /* seats: the permutation adding least to the squares of the counts */
    int perm[4] = {0, 1, 2, 3}, best_perm[4] = {0, 1, 2, 3};
    uint64_t best_cost = UINT64_MAX;
    for (;;) {
        uint64_t cost = 0;
        for (int s = 0; s < k; s++)
            cost += 2 * (uint64_t)e[chosen[perm[s]]].seat_count[s] + 1;
        if (cost < best_cost) {
            best_cost = cost;
            memcpy(best_perm, perm, sizeof perm);
        }
        int i = k - 2;   /* the next permutation of perm[0..k) */
        while (i >= 0 && perm[i] > perm[i + 1])
            i--;
        if (i < 0)
            break;
        int j = k - 1;
        while (perm[j] < perm[i])
            j--;
        int x = perm[i]; perm[i] = perm[j]; perm[j] = x;
        for (int a = i + 1, b = k - 1; a < b; a++, b--) {
            x = perm[a]; perm[a] = perm[b]; perm[b] = x;
        }
    }
    for (int s = 0; s < k; s++)
        table[s] = chosen[best_perm[s]];
    if (why && whylen) {
        size_t used = (size_t)snprintf(why, whylen, "anchor %lld (priority %.3f, %d free), table",
                                       (long long)e[anchor].id, best, nfree);
        for (int s = 0; s < k && used < whylen; s++)
            used += (size_t)snprintf(why + used, whylen - used, " %lld", (long long)e[table[s]].id);
        if (used < whylen)
            snprintf(why + used, whylen - used, ", closeness %.4f", quality);
    }
    return 1;
}
