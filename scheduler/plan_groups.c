/* plan_groups.c — the group stage of groups then knockout: the units
 * dealt into groups, and each group's standings. */
#include "plan_int.h"

#include <stdlib.h>

/* The group stage's standings (round 1 alone: what the knockout rounds
 * add changes no group's order), best first: match points, score, tables
 * won, then the unit's index — the order of the `standings` view. */
int plan__group_standings(const tn_config *cfg, const plan_record *rec, int *order)
{
    int n = tn_units(cfg), k = plan__units_k(cfg);
    if (!rec || rec->nrounds < 1)
        return 0;
    struct { double pts[ARB_TN_MAX_ENTRANTS]; int64_t score[ARB_TN_MAX_ENTRANTS]; int wins[ARB_TN_MAX_ENTRANTS]; }
        *g = calloc(1, sizeof *g);
    if (!g)
        return 0;
    double *pts = g->pts;
    int64_t *score = g->score;
    int *wins = g->wins;
    const plan_round *pr = &rec->rounds[0];
    for (int t = 0; t < pr->ntables; t++)
        for (int p = 0; p < pr->order[t].nslots; p++) {
            int u = pr->order[t].entrant[p];
            if (u < 0 || u >= n)
                continue;
            pts[u] += plan__place_points(pr, t, p, k);
            score[u] += pr->total ? pr->total[t][p] : 0;
            wins[u] += pr->rank ? pr->rank[t][p] == 1 : p == 0;
        }
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            bool swap = pts[b] > pts[a] || (pts[b] == pts[a] && (score[b] > score[a]
                        || (score[b] == score[a] && (wins[b] > wins[a] || (wins[b] == wins[a] && b < a)))));
            if (!swap)
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    free(g);
    return n;
}

/* Groups: entrants dealt into groups in a serpentine of seed order. */
void plan__groups_of(const tn_config *cfg, uint64_t pseed, int *group)
{
    int order[ARB_TN_MAX_ENTRANTS], g = (int)cfg->groups;
    plan__seed_order(cfg, pseed, order);
    for (int i = 0; i < tn_units(cfg); i++) {
        int row = i / g, c = i % g;
        group[order[i]] = row % 2 == 0 ? c : g - 1 - c;
    }
}
