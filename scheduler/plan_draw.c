/* plan_draw.c — the bracket of a knockout format as text for a terminal
 * (arbiter run's end, arbiter standings). */
#include "plan_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void plan__ko_print(ko_track *tr, const char *fmt, ...)
{
    if (!tr || !tr->buf || tr->used >= tr->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tr->buf + tr->used, tr->len - tr->used, fmt, ap);
    va_end(ap);
    if (k > 0)
        tr->used += (size_t)k;
}

void plan__ko_print_names(ko_track *tr, const tn_config *cfg, const store_table *o, const char *sep)
{
    for (int e = 0; e < o->nslots; e++)
        plan__ko_print(tr, "%s%s", e ? sep : "", plan__unit_name(cfg, o->entrant[e]));
}

size_t plan_draw(const tn_config *cfg, const plan_record *rec, char *buf, size_t len)
{
    if (len == 0)
        return 0;
    buf[0] = 0;
    int k = plan__units_k(cfg), n = tn_units(cfg);
    bool de = cfg->format == TN_DOUBLE_ELIM && k == 2;
    if (!de && cfg->format != TN_SINGLE_ELIM && cfg->format != TN_GROUPS_KNOCKOUT)
        return 0;
    ko_track *tr = calloc(1, sizeof *tr);
    int *start = malloc(2 * ARB_TN_MAX_ENTRANTS * sizeof *start);
    if (!tr || !start) {
        free(tr);
        free(start);
        return 0;
    }
    tr->buf = buf;
    tr->len = len;
    if (cfg->format == TN_GROUPS_KNOCKOUT && rec->nrounds >= 1) {
        /* the group stage: each group in its standings order, those going on marked */
        int group[ARB_TN_MAX_ENTRANTS], gorder[ARB_TN_MAX_ENTRANTS];
        plan__groups_of(cfg, plan__seed(cfg, rec), group);
        int ngo = plan__group_standings(cfg, rec, gorder);
        plan__ko_print(tr, "group stage (round 1%s): %u groups, the first %u of each go on (*)\n",
                 rec->rounds[0].in_play ? ", in play" : "", cfg->groups, cfg->advance);
        for (uint32_t g = 0; g < cfg->groups; g++) {
            plan__ko_print(tr, "  group %u:", g + 1);
            uint32_t seen = 0;
            for (int i = 0; i < ngo; i++) {
                int u = gorder[i];
                if (group[u] == (int)g)
                    plan__ko_print(tr, " %s%s", seen++ < cfg->advance && !rec->rounds[0].in_play ? "*" : "", plan__unit_name(cfg, u));
            }
            plan__ko_print(tr, "\n");
        }
    }
    if (de)
        plan__ko_print(tr, "double elimination of %d %s (out after two losses; top seeds take the byes)\n", n,
                 cfg->nteams ? "teams" : "entrants");
    else if (cfg->format == TN_SINGLE_ELIM || (rec->nrounds >= 1 && !rec->rounds[0].in_play))
        plan__ko_print(tr, "knockout of %d %s(tables of %d, the first %u go on; top seeds take the byes; a tie at a table: "
                 "head-to-head, then the seeded draw)\n", cfg->format == TN_SINGLE_ELIM ? n : (int)(cfg->groups * cfg->advance),
                 cfg->nteams ? "teams " : "", k, cfg->advance);
    int ns, left = plan__ko_replay(cfg, rec, tr, start, &ns, start + ARB_TN_MAX_ENTRANTS);
    if (left == 1 && tr->final_round)
        plan__ko_print(tr, "champion: %s\n", plan__unit_name(cfg, start[ARB_TN_MAX_ENTRANTS]));
    size_t used = tr->used < len ? tr->used : len - 1;
    free(tr);
    free(start);
    return used;
}
