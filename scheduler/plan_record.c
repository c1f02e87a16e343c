/* plan_record.c — the store feeds plan (plan.h): a tournament's secret,
 * rounds and standings read into the plain values plan_next and plan_draw
 * are functions of, so that plan.c itself reads nothing. */
#include "plan.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plan_record_load(store *s, int64_t tid, bool teams, plan_record *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    int rc = store_secret_get(s, tid, rec->secret);
    if (rc < 0)
        goto fail;
    rec->has_secret = rc == 1;
    int last = store_last_round(s, tid);
    if (last < 0 || !(rec->rounds = calloc((size_t)(last > 0 ? last : 1), sizeof *rec->rounds)))
        goto fail;
    for (int r = 1; r <= last; r++) {
        plan_round *pr = &rec->rounds[r - 1];
        int p, l, d, v;
        if (store_counts(s, tid, r, &p, &l, &d, &v) != 0)
            goto fail;
        rec->nrounds = r;
        pr->ntables = p + l + d + v;
        pr->in_play = p + l > 0;
        size_t cap = (size_t)(pr->ntables > 0 ? pr->ntables : 1);
        if (!(pr->order = calloc(cap, sizeof *pr->order)) || !(pr->rank = calloc(cap, sizeof *pr->rank))
            || !(pr->total = calloc(cap, sizeof *pr->total))
            || store_round_results(s, tid, r, teams, pr->order, pr->rank, pr->total, pr->ntables) != 0)
            goto fail;
    }
    if (!(rec->standings = calloc(ARB_TN_MAX_ENTRANTS, sizeof *rec->standings)))
        goto fail;
    rec->nstandings = store_standings(s, tid, teams, rec->standings, ARB_TN_MAX_ENTRANTS);
    if (rec->nstandings < 0)
        goto fail;
    return 0;
fail:
    plan_record_release(rec);
    snprintf(err, errlen, "tournament %" PRId64 ": the record cannot be read", tid);
    return ARB_EIO;
}

void plan_record_release(plan_record *rec)
{
    for (int r = 0; r < rec->nrounds; r++) {
        free(rec->rounds[r].order);
        free(rec->rounds[r].rank);
        free(rec->rounds[r].total);
    }
    free(rec->rounds);
    free(rec->standings);
    sodium_memzero(rec->secret, sizeof rec->secret);
    memset(rec, 0, sizeof *rec);
}
