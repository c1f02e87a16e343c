/* store_web.c — what the web pages and `arbiter report` read of the record
 * (web/, docs/web.md) that the terminal reports do not: a tournament's
 * header, its matches with their stages, an entrant's penalties, a match's
 * signature, the progress a live page polls. Read only, parameterised. */
#include "store_int.h"
#include "arb_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEB_STR_(x) #x
#define WEB_STR(x) WEB_STR_(x)   /* a limit's digits in a statement */

/* By store_web_kind; $1 is the id, $2 (when used) the argument. The
 * kinds in web_cols below start after their columns (store_cols.h). */
static const char *const web_sql[] = {
    [STORE_WEB_TOURNAMENT] =
        "FROM tournaments t WHERE t.id = $1",
    [STORE_WEB_SEATS] =
        "FROM matches m JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
        "WHERE m.tournament_id = $1 ORDER BY m.round, m.tbl, s.slot",
    [STORE_WEB_ENTRANT] =
        "FROM entrants e WHERE e.tournament_id = $1 AND e.idx = $2::int",
    [STORE_WEB_ENTRANT_PENALTIES] =
        "FROM penalties p JOIN matches m ON m.id = p.match_id "
        "JOIN match_seats s ON s.match_id = m.id AND s.slot = p.slot "
        "WHERE m.tournament_id = $1 AND s.entrant = $2::int ORDER BY m.round, m.tbl, p.n",
    [STORE_WEB_MATCH] =
        "FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = $1",
    [STORE_WEB_PROGRESS] =
        "FROM tournaments t "
        "LEFT JOIN (SELECT state, count(*) AS n FROM matches WHERE tournament_id = $1 GROUP BY state) c ON true "
        "WHERE t.id = $1 GROUP BY t.id",
    /* the results recorded after $2 (a UTC time as STORE_WEB_PROGRESS
     * gives it), a row per seat, the 50 earliest matches */
    [STORE_WEB_RESULTS_SINCE] =
        "FROM (SELECT * FROM matches WHERE tournament_id = $1 AND state = 'done' "
        "      AND finished_at > ($2::timestamp AT TIME ZONE 'UTC') ORDER BY finished_at, id LIMIT 50) m "
        "JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "ORDER BY m.finished_at, m.id, s.slot",
    /* the rating history of the entrants in $2 (an int array), in order */
    [STORE_WEB_HISTORY] =
        "FROM rating_history h JOIN matches m ON m.id = h.match_id "
        "WHERE m.tournament_id = $1 AND h.entrant = ANY ($2::int[]) ORDER BY h.seq",
    /* STORE_WEB_SEATS for one entrant: its matches found by its seats
     * (index match_seats_entrant), not by reading the tournament's */
    /* the entrant's matches once each, however many of their seats it
     * holds (a ladder's validation match seats copies of the entry) */
    [STORE_WEB_ENTRANT_SEATS] =
        "FROM (SELECT mm.* FROM matches mm WHERE mm.tournament_id = $1 AND EXISTS "
        "      (SELECT 1 FROM match_seats me WHERE me.match_id = mm.id AND me.entrant = $2::int)) m "
        "JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
        "ORDER BY m.round, m.tbl, s.slot",
    /* STORE_WEB_SEATS by team: each match's teams from its members' seats
     * (so a match not yet played has its teams too), their sides' results */
    [STORE_WEB_TEAM_SEATS] =
        "FROM matches m "
        "JOIN (SELECT x.match_id, min(x.slot) AS slot, me.team_idx AS entrant, max(d.total) AS total, "
        "             max(d.points) AS points, max(d.rank) AS rank "
        "      FROM match_seats x JOIN matches mm ON mm.id = x.match_id AND mm.tournament_id = $1 "
        "      JOIN entrants me ON me.tournament_id = $1 AND me.idx = x.entrant AND me.team_idx IS NOT NULL "
        "      LEFT JOIN match_sides d ON d.match_id = x.match_id AND d.team = me.team_idx "
        "      GROUP BY x.match_id, me.team_idx) s ON s.match_id = m.id "
        "JOIN teams e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
        "WHERE m.tournament_id = $1 ORDER BY m.round, m.tbl, s.slot",
    /* whole statements: their columns are in store.h */
    [STORE_WEB_LADDER_BEFORE] =
        "SELECT DISTINCT ON (h.entrant) h.entrant, h.mu_before, h.sigma_before, coalesce(h.vol_before::text, ''), "
        "       count(*) OVER (PARTITION BY h.entrant) "
        "FROM rating_history h "
        "WHERE h.match_id IN (SELECT id FROM matches WHERE tournament_id = $1 AND state = 'done' "
        "                     ORDER BY finished_at DESC, id DESC LIMIT $2::int) "
        "ORDER BY h.entrant, h.seq",
    [STORE_WEB_LADDER_FORM] =
        "SELECT entrant, result FROM ("
        "  SELECT entrant, result, row_number() OVER (PARTITION BY entrant ORDER BY fin DESC, mid DESC) AS k FROM ("
        "    SELECT s.entrant, m.finished_at AS fin, m.id AS mid, "
        "           CASE WHEN min(s.rank) OVER w = max(s.rank) OVER w THEN 'D' WHEN s.rank = min(s.rank) OVER w THEN 'W' "
        "                WHEN s.rank = max(s.rank) OVER w THEN 'L' ELSE 'D' END AS result "
        "    FROM (SELECT id, finished_at FROM matches WHERE tournament_id = $1 AND state = 'done' "
        "          ORDER BY finished_at DESC, id DESC LIMIT $2::int) m "
        "    JOIN match_seats s ON s.match_id = m.id AND s.rank IS NOT NULL "
        "    WINDOW w AS (PARTITION BY s.match_id)) a) b "
        "WHERE k <= " WEB_STR(ARB_WEB_FORM) " ORDER BY entrant, k DESC",
};

static const char *const wseats_cols[] = {STORE_WSEATS_COLS(STORE_COL_EXPR)};
static const char *const wmatch_cols[] = {STORE_WMATCH_COLS(STORE_COL_EXPR)};
static const char *const whistory_cols[] = {STORE_WHISTORY_COLS(STORE_COL_EXPR)};
static const char *const wtour_cols[] = {STORE_WTOUR_COLS(STORE_COL_EXPR)};
static const char *const wentrant_cols[] = {STORE_WENTRANT_COLS(STORE_COL_EXPR)};
static const char *const wpens_cols[] = {STORE_WPENS_COLS(STORE_COL_EXPR)};
static const char *const wprogress_cols[] = {STORE_WPROGRESS_COLS(STORE_COL_EXPR)};
static const char *const wresults_cols[] = {STORE_WRESULTS_COLS(STORE_COL_EXPR)};
#define COLS(a) {a, (int)(sizeof a / sizeof *a)}
static const struct web_cols {
    const char *const *expr;
    int n;
} web_cols[] = {
    [STORE_WEB_SEATS] = COLS(wseats_cols),
    [STORE_WEB_ENTRANT_SEATS] = COLS(wseats_cols),
    [STORE_WEB_TEAM_SEATS] = COLS(wseats_cols),
    [STORE_WEB_MATCH] = COLS(wmatch_cols),
    [STORE_WEB_HISTORY] = COLS(whistory_cols),
    [STORE_WEB_TOURNAMENT] = COLS(wtour_cols),
    [STORE_WEB_ENTRANT] = COLS(wentrant_cols),
    [STORE_WEB_ENTRANT_PENALTIES] = COLS(wpens_cols),
    [STORE_WEB_PROGRESS] = COLS(wprogress_cols),
    [STORE_WEB_RESULTS_SINCE] = COLS(wresults_cols),
};
#undef COLS

/* How many parameters each statement takes. */
static int web_params(store_web_kind kind)
{
    switch (kind) {
    case STORE_WEB_ENTRANT:
    case STORE_WEB_ENTRANT_PENALTIES:
    case STORE_WEB_RESULTS_SINCE:
    case STORE_WEB_HISTORY:
    case STORE_WEB_ENTRANT_SEATS:
    case STORE_WEB_LADDER_BEFORE:
    case STORE_WEB_LADDER_FORM:
        return 2;
    default:
        return 1;
    }
}

int store_web(store *s, store_web_kind kind, int64_t id, const char *arg, store_rows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)kind >= sizeof web_sql / sizeof *web_sql || !web_sql[kind]) {
        snprintf(err, errlen, "no such web query");
        return ARB_EINVAL;
    }
    char ids[24];
    snprintf(ids, sizeof ids, "%" PRId64, id);
    const char *p[] = {ids, arg ? arg : ""};
    const struct web_cols *c = (size_t)kind < sizeof web_cols / sizeof *web_cols ? &web_cols[kind] : NULL;
    if (!c || !c->n)
        return store__rows_q(s, web_sql[kind], web_params(kind), p, out, err, errlen);
    char sql[STORE_SELECT_MAX];
    if (store__select(sql, sizeof sql, c->expr, c->n, web_sql[kind]) != 0) {
        snprintf(err, errlen, "web query %d: statement longer than %zu bytes", (int)kind, sizeof sql);
        return ARB_ETOOBIG;
    }
    return store__rows_q(s, sql, web_params(kind), p, out, err, errlen);
}

int store_web_change(store *s, char *out, size_t cap, char *err, size_t errlen)
{
    /* the position of the write-ahead log: every commit moves it, so a
     * page rendered after reading it shows every change up to it; a
     * replica's is the position it has replayed */
    store_rows r = {0};
    int rc = store__rows_q(s,
                           "SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() "
                           "ELSE pg_current_wal_lsn() END)::text",
                           0, NULL, &r, err, errlen);
    if (rc == 0 && r.nrows != 1)
        rc = ARB_EIO;
    if (rc == 0)
        snprintf(out, cap, "%s", store_cell(&r, 0, 0));
    store_rows_release(&r);
    return rc;
}

int store_read_only(store *s, char *err, size_t errlen)
{
    /* random_page_cost: the pages look up a small part of a large record
     * (one tournament's seats among a ladder's millions) by index; at the
     * default 4 the planner reads every seat instead (`arbiter bench web`) */
    return store__exec0(s, err, errlen, "SET default_transaction_read_only = on", 0, NULL)
           || store__exec0(s, err, errlen, "SET random_page_cost = 1.1", 0, NULL) ? ARB_EIO : 0;
}
