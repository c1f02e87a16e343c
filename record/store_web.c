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

/* By store_web_kind; $1 is the id, $2 (when used) the argument. */
static const char *const web_sql[] = {
    [STORE_WEB_TOURNAMENT] =
        "SELECT t.id, t.name, t.game, t.rules, t.format, t.state, "
        "  to_char(t.created_at, 'YYYY-MM-DD HH24:MI'), coalesce(to_char(t.finished_at, 'YYYY-MM-DD HH24:MI'), ''), "
        "  t.rating_system, coalesce(t.commitment, ''), "
        "  CASE WHEN t.revealed_at IS NOT NULL THEN coalesce(encode(t.secret, 'hex'), '') ELSE '' END, "
        "  EXISTS (SELECT 1 FROM teams tm WHERE tm.tournament_id = t.id) "
        "FROM tournaments t WHERE t.id = $1",
    [STORE_WEB_SEATS] =
        "SELECT m.id, m.round, coalesce(r.stage, 'main'), m.tbl, m.state, s.slot, s.entrant, e.name, "
        "  coalesce(s.total::text, ''), coalesce(s.points::text, ''), coalesce(s.rank::text, '') "
        "FROM matches m JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
        "WHERE m.tournament_id = $1 ORDER BY m.round, m.tbl, s.slot",
    [STORE_WEB_ENTRANT] =
        "SELECT e.idx, e.name, coalesce(e.seed_rank::text, ''), coalesce(e.team, '') "
        "FROM entrants e WHERE e.tournament_id = $1 AND e.idx = $2::int",
    [STORE_WEB_ENTRANT_PENALTIES] =
        "SELECT m.id, m.round, m.tbl, p.game, p.decision, p.reason, p.consequence "
        "FROM penalties p JOIN matches m ON m.id = p.match_id "
        "JOIN match_seats s ON s.match_id = m.id AND s.slot = p.slot "
        "WHERE m.tournament_id = $1 AND s.entrant = $2::int ORDER BY m.round, m.tbl, p.n",
    /* to_jsonb(m): the signature's columns when the record has them
     * (migration 011), NULL before, with one statement for both */
    [STORE_WEB_MATCH] =
        "SELECT m.id, m.tournament_id, t.name, m.round, m.tbl, m.state, coalesce(m.digest, ''), "
        "  coalesce(m.transcript, ''), coalesce(m.error, ''), coalesce(m.games::text, ''), "
        "  coalesce(m.decisions::text, ''), coalesce(m.wall_ms::text, ''), "
        "  coalesce(to_char(m.finished_at, 'YYYY-MM-DD HH24:MI:SS'), ''), coalesce(m.leased_by, ''), "
        "  coalesce(to_jsonb(m) ->> 'signer_key', ''), coalesce(to_jsonb(m) ->> 'signature', ''), t.format "
        "FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = $1",
    /* the counts by state from the index matches_claim alone, the last
     * round and the last result's time each one index probe (matches_finished,
     * migration 014): a live page of a large ladder polls this */
    [STORE_WEB_PROGRESS] =
        "SELECT t.state, coalesce(sum(c.n) FILTER (WHERE c.state = 'pending'), 0), "
        "  coalesce(sum(c.n) FILTER (WHERE c.state = 'leased'), 0), coalesce(sum(c.n) FILTER (WHERE c.state = 'done'), 0), "
        "  coalesce(sum(c.n) FILTER (WHERE c.state = 'void'), 0), "
        "  coalesce((SELECT max(round) FROM matches WHERE tournament_id = t.id), 0), "
        "  coalesce((SELECT to_char(max(finished_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US') "
        "            FROM matches WHERE tournament_id = t.id AND state = 'done'), '') "
        "FROM tournaments t "
        "LEFT JOIN (SELECT state, count(*) AS n FROM matches WHERE tournament_id = $1 GROUP BY state) c ON true "
        "WHERE t.id = $1 GROUP BY t.id",
    /* the results recorded after $2 (a UTC time as STORE_WEB_PROGRESS
     * gives it), a row per seat, the 50 earliest matches */
    [STORE_WEB_RESULTS_SINCE] =
        "SELECT m.id, m.round, m.tbl, to_char(m.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US'), "
        "  s.slot, e.name, coalesce(s.total::text, ''), coalesce(s.points::text, ''), coalesce(s.rank::text, '') "
        "FROM (SELECT * FROM matches WHERE tournament_id = $1 AND state = 'done' "
        "      AND finished_at > ($2::timestamp AT TIME ZONE 'UTC') ORDER BY finished_at, id LIMIT 50) m "
        "JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "ORDER BY m.finished_at, m.id, s.slot",
    /* the rating history of the entrants in $2 (an int array), in order */
    [STORE_WEB_HISTORY] =
        "SELECT h.entrant, h.match_id, h.mu_after, h.sigma_after "
        "FROM rating_history h JOIN matches m ON m.id = h.match_id "
        "WHERE m.tournament_id = $1 AND h.entrant = ANY ($2::int[]) ORDER BY h.seq",
    /* STORE_WEB_SEATS for one entrant: its matches found by its seats
     * (index match_seats_entrant), not by reading the tournament's */
    [STORE_WEB_ENTRANT_SEATS] =
        "SELECT m.id, m.round, coalesce(r.stage, 'main'), m.tbl, m.state, s.slot, s.entrant, e.name, "
        "  coalesce(s.total::text, ''), coalesce(s.points::text, ''), coalesce(s.rank::text, '') "
        "FROM (SELECT mm.* FROM match_seats me JOIN matches mm ON mm.id = me.match_id "
        "      WHERE me.entrant = $2::int AND mm.tournament_id = $1) m "
        "JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
        "ORDER BY m.round, m.tbl, s.slot",
};

/* How many parameters each statement takes. */
static int web_params(store_web_kind kind)
{
    switch (kind) {
    case STORE_WEB_ENTRANT:
    case STORE_WEB_ENTRANT_PENALTIES:
    case STORE_WEB_RESULTS_SINCE:
    case STORE_WEB_HISTORY:
    case STORE_WEB_ENTRANT_SEATS:
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
    return store__rows_q(s, web_sql[kind], web_params(kind), p, out, err, errlen);
}

int store_read_only(store *s, char *err, size_t errlen)
{
    /* random_page_cost: the pages look up a small part of a large record
     * (one tournament's seats among a ladder's millions) by index; at the
     * default 4 the planner reads every seat instead (`arbiter bench web`) */
    return store__exec0(s, err, errlen, "SET default_transaction_read_only = on", 0, NULL)
           || store__exec0(s, err, errlen, "SET random_page_cost = 1.1", 0, NULL) ? ARB_EIO : 0;
}

int store_bench_tournament(store *s, const char *name, int entrants, int rounds, int64_t *tid, char *err,
                           size_t errlen)
{
    char n[16], r[16];
    snprintf(n, sizeof n, "%d", entrants);
    snprintf(r, sizeof r, "%d", rounds);
    const char *p0[] = {name};
    if (store__exec0(s, err, errlen, "DELETE FROM tournaments WHERE name = $1", 1, p0)
        || store__exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    PGresult *res = store__q(s, err, errlen,
                             "INSERT INTO tournaments (name, config_digest, config_text, game, rules, format, seed, "
                             "  rating_system, rating_model, state, finished_at) VALUES ($1, 'bench', '', 'doudizhu', "
                             "  'standard', 'swiss', 1, 'openskill', 'plackett-luce', 'done', now()) RETURNING id",
                             1, p0);
    if (!res)
        goto fail;
    char id[24];
    snprintf(id, sizeof id, "%s", PQgetvalue(res, 0, 0));
    *tid = strtoll(id, NULL, 10);
    PQclear(res);
    const char *p[] = {id, n, r};
    /* Round r seats the entrants in the order of md5(r:i): table p / 3 + 1,
     * slot p % 3; the last N mod 3 of that order sit out. A seat's rank at
     * its table follows strength (i * 7919 mod 1000) plus a draw of 0..599
     * from md5(i:r): the strong usually win, not always. Points 2, 1, 0 by
     * rank; totals sum to zero at each table. */
    static const char *const gen[] = {
        "INSERT INTO entrants (tournament_id, idx, name, command, seed_rank) "
        "SELECT $1, i, 'player-' || i, '/bin/true', i + 1 FROM generate_series(0, $2::int - 1) i",
        "INSERT INTO rounds (tournament_id, round, stage, created_at) "
        "SELECT $1, r, 'main', now() - ($3::int - r + 1) * interval '1 hour' FROM generate_series(1, $3::int) r "
        "WHERE $2::int > 0",
        "INSERT INTO matches (tournament_id, round, tbl, seed, state, rated, finished_at, games, decisions, wall_ms) "
        "SELECT $1, r, t, r * 100000 + t, 'done', true, now() - ($3::int - r) * interval '1 hour' + t * interval "
        "'1 second', 6, 300, 2000 FROM generate_series(1, $3::int) r, generate_series(1, $2::int / 3) t",
        "INSERT INTO match_seats (match_id, slot, entrant, total, points, rank, forfeited, decisions, penalties) "
        "SELECT m.id, x.pos % 3, x.i, CASE x.rk WHEN 1 THEN 6 + m.id % 5 WHEN 2 THEN -1 ELSE -5 - m.id % 5 END, "
        "  3 - x.rk, x.rk, false, 100, 0 "
        "FROM (SELECT o.r, o.i, o.pos, rank() OVER (PARTITION BY o.r, o.pos / 3 ORDER BY o.strength DESC, o.i) rk "
        "      FROM (SELECT r, i, row_number() OVER (PARTITION BY r ORDER BY md5(r || ':' || i)) - 1 pos, "
        "              i * 7919 % 1000 + ('x' || substr(md5(i || ':' || r), 1, 4))::bit(16)::int % 600 strength "
        "            FROM generate_series(1, $3::int) r, generate_series(0, $2::int - 1) i) o "
        "      WHERE o.pos < $2::int / 3 * 3) x "
        "JOIN matches m ON m.tournament_id = $1 AND m.round = x.r AND m.tbl = x.pos / 3 + 1",
        "INSERT INTO rating_history (match_id, entrant, mu_before, sigma_before, mu_after, sigma_after, rank) "
        "SELECT s.match_id, s.entrant, 25 + m.round * (2 - s.rank) * 0.3, 8.3 - m.round * 0.3, "
        "  25 + (m.round + 1) * (2 - s.rank) * 0.3, 8 - m.round * 0.3, s.rank "
        "FROM match_seats s JOIN matches m ON m.id = s.match_id WHERE m.tournament_id = $1 ORDER BY m.id, s.slot",
        "INSERT INTO ratings (tournament_id, entrant, mu, sigma, games) "
        "SELECT $1, e.idx, 25 + sum(2 - s.rank) * 0.3, 8.33 - count(s.*) * 0.3, count(s.*) "
        "FROM entrants e JOIN match_seats s ON s.entrant = e.idx "
        "JOIN matches m ON m.id = s.match_id AND m.tournament_id = e.tournament_id "
        "WHERE e.tournament_id = $1 GROUP BY e.idx",
    };
    for (size_t i = 0; i < sizeof gen / sizeof *gen; i++) {
        int np = strstr(gen[i], "$3") ? 3 : strstr(gen[i], "$2") ? 2 : 1;   /* the server counts them */
        if (store__exec0(s, err, errlen, gen[i], np, p))
            goto fail;
    }
    if (store__exec0(s, err, errlen, "COMMIT", 0, NULL))
        return ARB_EIO;
    return store__exec0(s, err, errlen, "ANALYZE tournaments, entrants, rounds, matches, match_seats, "
                                        "rating_history, ratings", 0, NULL);
fail:
    store__rollback(s);
    return ARB_EIO;
}
