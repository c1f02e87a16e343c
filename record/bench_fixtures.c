/* bench_fixtures.c — the benchmarks' large records (bench_fixtures.h). */
#include "bench_fixtures.h"
#include "store_int.h"
#include "arb_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int store_bench_ladder(store *s, const char *name, const char *game, const char *rules, int entries, int64_t matches,
                       int64_t *tid, char *err, size_t errlen)
{
    char n[16], m[24];
    snprintf(n, sizeof n, "%d", entries);
    snprintf(m, sizeof m, "%" PRId64, matches);
    const char *p0[] = {name, game, rules};
    if (exec0(s, err, errlen, "DELETE FROM tournaments WHERE name = $1", 1, p0) || exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    PGresult *r = q(s, err, errlen,
                    "INSERT INTO tournaments (name, config_digest, config_text, game, rules, format, seed, "
                    "  rating_system, rating_model) VALUES ($1, 'bench', '', $2, $3, 'ladder', 1, "
                    "  'openskill', 'plackett-luce') RETURNING id", 3, p0);
    if (!r)
        goto fail;
    char id[24];
    snprintf(id, sizeof id, "%s", PQgetvalue(r, 0, 0));
    *tid = strtoll(id, NULL, 10);
    PQclear(r);
    const char *p[] = {id, n, m};
    /* numbers from the indices alone: the same record every run. A match
     * r seats entrants (3r + k * step) mod N, k = 0..2, all distinct. */
    static const char *const gen[] = {
        "INSERT INTO entrants (tournament_id, idx, name, command) "
        "SELECT $1, i, 'e' || i, '/bin/true' FROM generate_series(0, $2::int - 1) i",
        "INSERT INTO ladder_entries (tournament_id, entrant, base, version, status, recent, seats, last_started) "
        "SELECT $1, i, 'e' || i, 1, 'active', ARRAY[(i + 1) % $2::int, (i + 2) % $2::int], '{33,33,34,0}', "
        "  now() - (i % 1000) * interval '1 minute' FROM generate_series(0, $2::int - 1) i",
        "INSERT INTO rounds (tournament_id, round, stage, note, created_at) "
        "SELECT $1, r, 'ladder', 'bench', now() - ($3::bigint - r) * interval '1 second' "
        "FROM generate_series(1, $3::bigint) r WHERE $2::int > 0",
        "INSERT INTO matches (tournament_id, round, tbl, seed, state, rated, finished_at, games) "
        "SELECT $1, r, 0, r, 'done', true, now(), 3 FROM generate_series(1, $3::bigint) r WHERE $2::int > 0",
        "INSERT INTO match_seats (match_id, slot, entrant, total, points, rank, forfeited, penalties) "
        "SELECT m.id, k, ((3 * m.round + k * ($2::int / 3)) % $2::int), 3 - 2 * k, 2 - k, k + 1, false, 0 "
        "FROM matches m CROSS JOIN generate_series(0, 2) k WHERE m.tournament_id = $1",
        "INSERT INTO rating_history (match_id, entrant, mu_before, sigma_before, mu_after, sigma_after, rank) "
        "SELECT s.match_id, s.entrant, 25, 8, 25 + (1 - s.slot) * 0.1, 7.9, s.rank FROM match_seats s "
        "JOIN matches m ON m.id = s.match_id WHERE m.tournament_id = $1",
        "INSERT INTO ratings (tournament_id, entrant, mu, sigma, games) "
        "SELECT $1, i, 20 + (i * 7919 % 1000) / 100.0, 1 + (i * 104729 % 700) / 100.0, "
        "  3 * $3::bigint / $2::int FROM generate_series(0, $2::int - 1) i",
    };
    for (size_t i = 0; i < sizeof gen / sizeof *gen; i++) {
        int np = strstr(gen[i], "$3") ? 3 : strstr(gen[i], "$2") ? 2 : 1;   /* the server counts them */
        if (exec0(s, err, errlen, gen[i], np, p))
            goto fail;
    }
    if (exec0(s, err, errlen, "COMMIT", 0, NULL))
        return ARB_EIO;
    return exec0(s, err, errlen, "ANALYZE tournaments, entrants, ladder_entries, rounds, matches, match_seats, "
                                 "rating_history, ratings", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_bench_set_rating(store *s, int64_t tid, const char *system)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id, system};
    return exec0(s, NULL, 0, "UPDATE tournaments SET rating_system = $2 WHERE id = $1", 2, p);
}

int store_bench_tournament(store *s, const char *name, const char *game, const char *rules, int entrants, int rounds,
                           int64_t *tid, char *err, size_t errlen)
{
    char n[16], r[16];
    snprintf(n, sizeof n, "%d", entrants);
    snprintf(r, sizeof r, "%d", rounds);
    const char *p0[] = {name, game, rules};
    if (store__exec0(s, err, errlen, "DELETE FROM tournaments WHERE name = $1", 1, p0)
        || store__exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    PGresult *res = store__q(s, err, errlen,
                             "INSERT INTO tournaments (name, config_digest, config_text, game, rules, format, seed, "
                             "  rating_system, rating_model, state, finished_at) VALUES ($1, 'bench', '', $2, "
                             "  $3, 'swiss', 1, 'openskill', 'plackett-luce', 'done', now()) RETURNING id",
                             3, p0);
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
