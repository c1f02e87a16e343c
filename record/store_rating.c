/* store_rating.c — ratings in a result's transaction (docs/ratings.md;
 * record/sql/005_ratings.sql).
 *
 * When its tournament keeps ratings, a result rates, in the plan's order
 * (round, table), every finished match not yet rated that has no
 * unfinished match before it: the one just recorded and any that waited
 * for it; a void match is passed over. Two statements whatever their
 * number, each riding in one of the result's pipelines (store_record), so
 * that rating adds no round trip of its own:
 *
 *   1. one read: those matches' seats in order, each with its place (its
 *      side's place in a partnership game) and its entrant's rating as
 *      stored;
 *   2. the updates computed here (rating_match), the ratings carried from
 *      one match to the next in memory, then one statement writes every
 *      history row (in match and slot order: the history's seq follows
 *      it, and a recomputation replays it), every changed rating, and
 *      marks the matches rated.
 *
 * The caller holds the tournament's row lock (store_record's first
 * statement takes it), so results of one tournament are rated one at a
 * time, each reading what the one before committed, and the ratings'
 * change numbers (007_changes.sql) are drawn in commit order. The
 * history's key (match, entrant) and matches.rated mean a match never
 * rates twice. */
#include "store_int.h"
#include "arb_num.h"
#include "rating.h"
#include "arb_buf.h"
#include "arb_error.h"
#include "tournament.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statement numbers (store__qp) of this file: 1 and 2. */
enum { QP_READ = 1, QP_WRITE = 2 };

/* The ratings as they stand while a batch is applied: an open-addressing
 * table from entrant to rating. */
typedef struct cur {
    int     entrant;      /* -1: empty slot */
    bool    changed;
    rated   r;
    int64_t last_match;
} cur;

typedef struct cur_map {
    cur   *slot;
    size_t mask;
} cur_map;

static cur *cur_find(cur_map *m, int entrant)
{
    size_t h = ((uint32_t)entrant * 2654435761u) & m->mask;
    while (m->slot[h].entrant != -1 && m->slot[h].entrant != entrant)
        h = (h + 1) & m->mask;
    return &m->slot[h];
}

/* The columns of the write, as PostgreSQL array literals. */
enum { H_MATCH, H_ENT, H_MB, H_SB, H_VB, H_MA, H_SA, H_VA, H_RANK, H_SIDE,
       R_ENT, R_MU, R_SIGMA, R_VOL, R_GAMES, R_LAST, M_ID, NCOLS };

#define put store__arr_put

static int put_num(arb_buf *b, bool have, double v)
{
    return have ? put(b, "%.17g", v) : put(b, "NULL");
}

/* Rows of the read: match, slot, entrant, rank, side, side's rank, mu,
 * sigma, vol, games (the last four NULL for a newcomer). */
enum { C_MATCH, C_SLOT, C_ENT, C_RANK, C_SIDE, C_SIDE_RANK, C_MU, C_SIGMA, C_VOL, C_GAMES };

int store__rate_read(store_pipe *p, const char *mid, const char *tid)
{
    const char *p1[] = {mid, tid};
    return store__pipe_send(p, QP_READ,
                     "WITH t AS (SELECT id FROM tournaments WHERE id = coalesce($2::bigint, "
                     "             (SELECT tournament_id FROM matches WHERE id = $1::bigint)) "
                     "           AND rating_system <> 'none'), "
                     "  c AS (SELECT id, state, round, tbl FROM matches "
                     "        WHERE tournament_id = (SELECT id FROM t) AND NOT rated AND state <> 'void'), "
                     "  lim AS (SELECT round, tbl FROM c WHERE state <> 'done' ORDER BY round, tbl LIMIT 1), "
                     "  ok AS (SELECT id, round, tbl FROM c WHERE state = 'done' AND (NOT EXISTS (SELECT 1 FROM lim) "
                     "           OR (round, tbl) < (SELECT round, tbl FROM lim))) "
                     "SELECT ok.id, st.slot, st.entrant, coalesce(st.rank, 99), coalesce(st.side, -1), sd.rank, "
                     "  rt.mu, rt.sigma, rt.vol, rt.games "
                     "FROM ok JOIN match_seats st ON st.match_id = ok.id "
                     "LEFT JOIN match_sides sd ON sd.match_id = st.match_id AND sd.side = st.side "
                     "LEFT JOIN ratings rt ON rt.tournament_id = (SELECT id FROM t) AND rt.entrant = st.entrant "
                     "ORDER BY ok.round, ok.tbl, st.slot",
                     2, p1);
}

int store__rate_write(store_pipe *p, const PGresult *r, const char *tid, int sys, int model, char *err,
                      size_t errlen)
{
    int rows = PQntuples(r);
    if (rows == 0)
        return 0;
    size_t cap = 16;
    while (cap < 2 * (size_t)rows)
        cap *= 2;
    cur_map map = {calloc(cap, sizeof(cur)), cap - 1};
    arb_buf col[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        arb_buf_init(&col[c], 256u << 20);
    int rc = map.slot ? 0 : ARB_ENOMEM;
    for (size_t i = 0; map.slot && i < cap; i++)
        map.slot[i].entrant = -1;
    bool vol = sys == TN_RATING_GLICKO2;
    for (int i = 0; i < rows && !rc;) {
        const char *mid = PQgetvalue(r, i, C_MATCH);
        int j = i;
        while (j < rows && strcmp(PQgetvalue(r, j, C_MATCH), mid) == 0)
            j++;
        /* the match's players: an entrant in several slots (a ladder's
         * partnership entry sits both seats of its side) is one player,
         * at its first slot */
        int n = 0, entrant[ARB_MAX_SEATS], rank[ARB_MAX_SEATS], side[ARB_MAX_SEATS];
        rated before[ARB_MAX_SEATS], after[ARB_MAX_SEATS];
        for (int k = i; k < j && n < ARB_MAX_SEATS; k++) {
            int e = (int)arb_cell_int(PQgetvalue(r, k, C_ENT));
            bool again = false;
            for (int c = 0; c < n && !again; c++)
                again = entrant[c] == e;
            if (again)
                continue;
            cur *cu = cur_find(&map, e);
            if (cu->entrant == -1) {   /* first met in this batch: as stored */
                cu->entrant = e;
                cu->r = rated_default(sys, model);
                if (!PQgetisnull(r, k, C_MU))
                    cu->r = (rated){arb_cell_float(PQgetvalue(r, k, C_MU)), arb_cell_float(PQgetvalue(r, k, C_SIGMA)),
                                    PQgetisnull(r, k, C_VOL) ? 0 : arb_cell_float(PQgetvalue(r, k, C_VOL)),
                                    (int)arb_cell_int(PQgetvalue(r, k, C_GAMES))};
            }
            bool teams = !PQgetisnull(r, k, C_SIDE_RANK) && (int)arb_cell_int(PQgetvalue(r, k, C_SIDE)) >= 0;
            entrant[n] = e;
            side[n] = teams ? (int)arb_cell_int(PQgetvalue(r, k, C_SIDE)) : -1;
            rank[n] = (int)arb_cell_int(PQgetvalue(r, k, teams ? C_SIDE_RANK : C_RANK));
            before[n] = after[n] = cu->r;
            n++;
        }
        if (n >= 2 && rating_match(sys, model, after, rank, side, n) != 0) {
            snprintf(err, errlen, "match %s: the ratings cannot be updated", mid);
            rc = ARB_EINVAL;
            break;
        }
        int64_t m = strtoll(mid, NULL, 10);
        for (int b = 0; b < n && n >= 2 && !rc; b++) {
            cur *cu = cur_find(&map, entrant[b]);
            cu->r = after[b];
            cu->changed = true;
            cu->last_match = m;
            rc = put(&col[H_MATCH], "%s", mid) || put(&col[H_ENT], "%d", entrant[b])
                 || put(&col[H_MB], "%.17g", before[b].mu) || put(&col[H_SB], "%.17g", before[b].sigma)
                 || put_num(&col[H_VB], vol, before[b].vol) || put(&col[H_MA], "%.17g", after[b].mu)
                 || put(&col[H_SA], "%.17g", after[b].sigma) || put_num(&col[H_VA], vol, after[b].vol)
                 || put(&col[H_RANK], "%d", rank[b]) || (side[b] >= 0 ? put(&col[H_SIDE], "%d", side[b])
                                                                       : put(&col[H_SIDE], "NULL"))
                     ? ARB_ENOMEM : 0;
        }
        if (!rc && put(&col[M_ID], "%s", mid))
            rc = ARB_ENOMEM;
        i = j;
    }
    for (size_t i = 0; !rc && i < cap; i++) {
        const cur *cu = &map.slot[i];
        if (cu->entrant == -1 || !cu->changed)
            continue;
        rc = put(&col[R_ENT], "%d", cu->entrant) || put(&col[R_MU], "%.17g", cu->r.mu)
             || put(&col[R_SIGMA], "%.17g", cu->r.sigma) || put_num(&col[R_VOL], vol, cu->r.vol)
             || put(&col[R_GAMES], "%d", cu->r.games) || put(&col[R_LAST], "%" PRId64, cu->last_match)
                 ? ARB_ENOMEM : 0;
    }
    free(map.slot);
    const char *p2[NCOLS + 1];
    for (int c = 0; c < NCOLS; c++) {
        if (!rc && store__arr_close(&col[c]))
            rc = ARB_ENOMEM;
        p2[c] = arb_buf_str(&col[c]);
    }
    p2[NCOLS] = tid;
    if (rc == ARB_ENOMEM)
        snprintf(err, errlen, "out of memory");
    /* sent now, run at the pipeline's sync (the arrays must live until
     * then: libpq copies the parameters as it sends) */
    if (!rc
        && store__pipe_send(p, QP_WRITE,
                         "WITH h AS (INSERT INTO rating_history (match_id, entrant, mu_before, sigma_before, "
                         "    vol_before, mu_after, sigma_after, vol_after, rank, side) "
                         "  SELECT mid, e, mb, sb, vb, ma, sa, va, rk, sd FROM unnest($1::bigint[], $2::int[], "
                         "    $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], "
                         "    $9::int[], $10::int[]) WITH ORDINALITY AS x(mid, e, mb, sb, vb, ma, sa, va, rk, sd, ord) "
                         "  ORDER BY ord), "
                         "r AS (INSERT INTO ratings (tournament_id, entrant, mu, sigma, vol, games, last_match) "
                         "  SELECT $18, e, mu, sg, vl, g, lm FROM unnest($11::int[], $12::float8[], $13::float8[], "
                         "    $14::float8[], $15::int[], $16::bigint[]) AS y(e, mu, sg, vl, g, lm) "
                         "  ON CONFLICT (tournament_id, entrant) DO UPDATE SET mu = excluded.mu, "
                         "    sigma = excluded.sigma, vol = excluded.vol, games = excluded.games, "
                         "    last_match = excluded.last_match, changed = excluded.changed, updated_at = now()) "
                         "UPDATE matches SET rated = true WHERE id = ANY($17::bigint[])",
                         NCOLS + 1, p2) < 0) {
        snprintf(err, errlen, "database: the ratings' write could not be sent");
        rc = ARB_EIO;
    }
    for (int c = 0; c < NCOLS; c++)
        arb_buf_release(&col[c]);
    return rc;
}

int store__rerate(store *s, const char *tid, char *err, size_t errlen)
{
    const char *p[] = {tid};
    PGresult *r = q(s, err, errlen, "SELECT rating_system, coalesce(rating_model, '') FROM tournaments WHERE id = $1",
                    1, p);
    if (!r)
        return ARB_EIO;
    tn_rating sys = TN_RATING_NONE;
    wl_model model = WL_PLACKETT_LUCE;
    if (PQntuples(r) == 1
        && (tn_rating_parse(PQgetvalue(r, 0, 0), &sys)
            || (PQgetvalue(r, 0, 1)[0] && wl_model_parse(PQgetvalue(r, 0, 1), &model))))
        sys = TN_RATING_NONE;
    PQclear(r);
    if (sys == TN_RATING_NONE)
        return 0;
    /* every rating derived again from the results as they now stand; a
     * validation match (a ladder's) is never rated */
    if (exec0(s, err, errlen,
              "DELETE FROM rating_history h USING matches m WHERE m.id = h.match_id AND m.tournament_id = $1", 1, p)
        || exec0(s, err, errlen, "DELETE FROM ratings WHERE tournament_id = $1", 1, p)
        || exec0(s, err, errlen,
                 "UPDATE matches m SET rated = false FROM rounds rd WHERE m.tournament_id = $1 "
                 "  AND rd.tournament_id = m.tournament_id AND rd.round = m.round AND rd.stage <> 'validation' "
                 "  AND m.state <> 'void'", 1, p))
        return ARB_EIO;
    store_pipe pp;
    int rc = store__pipe_begin(&pp, s, err, errlen);
    if (rc)
        return rc;
    int read = store__rate_read(&pp, NULL, tid);
    rc = store__pipe_end(&pp, err, errlen);
    store_pipe p2;
    if (!rc && (rc = store__pipe_begin(&p2, s, err, errlen)) == 0) {
        rc = store__rate_write(&p2, pp.res[read], tid, (int)sys, (int)model, err, errlen);
        int wrc = store__pipe_end(&p2, rc ? NULL : err, errlen);
        rc = rc ? rc : wrc;
        store__pipe_release(&p2);
    }
    store__pipe_release(&pp);
    return rc;
}
