/* store_cols.h — the columns of the record's reports, each listed once:
 * X(NAME, SQL expression) in result order. One list makes both the SELECT
 * list (record/store.c) and the enum a reader indexes rows by
 * (store_cell(&rows, i, STORE_RATINGS_MU)), so no reader counts columns
 * and the order lives here alone. Kept in record/: the expressions are SQL. */
#ifndef STORE_COLS_H
#define STORE_COLS_H

/* STORE_REPORT_RATINGS, of one tournament, by entrant */
#define STORE_RATINGS_COLS(X)                                                  \
    X(RATINGS_ENTRANT, "r.entrant")                                            \
    X(RATINGS_NAME, "e.name")                                                  \
    X(RATINGS_MU, "r.mu")                                                      \
    X(RATINGS_SIGMA, "r.sigma")                                                \
    X(RATINGS_VOL, "coalesce(r.vol, 0)")                                       \
    X(RATINGS_GAMES, "r.games")                                                \
    X(RATINGS_SYSTEM, "t.rating_system")                                       \
    X(RATINGS_MODEL, "coalesce(t.rating_model, '')")                           \
    X(RATINGS_UPDATED, "coalesce(to_char(r.updated_at, 'YYYY-MM-DD HH24:MI'), '')")

/* STORE_REPORT_RATING_HISTORY, of one tournament, in the order applied:
 * the values after each match (side -1: none) */
#define STORE_HISTORY_COLS(X)                                                  \
    X(HISTORY_MATCH, "h.match_id")                                             \
    X(HISTORY_ENTRANT, "h.entrant")                                            \
    X(HISTORY_RANK, "h.rank")                                                  \
    X(HISTORY_SIDE, "coalesce(h.side, -1)")                                    \
    X(HISTORY_MU, "h.mu_after")                                                \
    X(HISTORY_SIGMA, "h.sigma_after")                                          \
    X(HISTORY_VOL, "coalesce(h.vol_after, 0)")

/* STORE_REPORT_DONE_MATCHES, of one tournament, by round and table */
#define STORE_DONE_COLS(X)                                                     \
    X(DONE_ROUND, "round")                                                     \
    X(DONE_TABLE, "tbl")                                                       \
    X(DONE_TRANSCRIPT, "coalesce(transcript, '')")                             \
    X(DONE_DIGEST, "coalesce(digest, '')")                                     \
    X(DONE_ID, "id")                                                           \
    X(DONE_SIGNER_KEY, "coalesce(signer_key, '')")                             \
    X(DONE_TOTALS, "coalesce((SELECT string_agg(s.total::text, ',' ORDER BY s.slot) " \
                   "FROM match_seats s WHERE s.match_id = matches.id), '')")

/* STORE_REPORT_TEAM_CROSSTABLE, of one tournament (teams.idx) */
#define STORE_TEAMX_COLS(X)                                                    \
    X(TEAMX_TEAM, "team")                                                      \
    X(TEAMX_OPPONENT, "opponent")                                              \
    X(TEAMX_MATCHES, "matches")                                                \
    X(TEAMX_WON, "won")                                                        \
    X(TEAMX_POINTS, "points")

/* STORE_REPORT_LADDER, of one ladder, by entrant; lean: one row per entry
 * of a ladder of 10,000 (docs/ladders.md). mu, sigma, vol "" while
 * unrated; times in epoch seconds ("" never); the last five are the
 * ladder's, the same on every row. */
#define STORE_LADDER_COLS(X)                                                   \
    X(LADDER_ENTRANT, "le.entrant")                                            \
    X(LADDER_NAME, "e.name")                                                   \
    X(LADDER_BASE, "le.base")                                                  \
    X(LADDER_VERSION, "le.version")                                            \
    X(LADDER_STATUS, "le.status")                                              \
    X(LADDER_VERDICT, "le.verdict")                                            \
    X(LADDER_MU, "r.mu")                                                       \
    X(LADDER_SIGMA, "r.sigma")                                                 \
    X(LADDER_VOL, "r.vol")                                                     \
    X(LADDER_GAMES, "coalesce(r.games, 0)")                                    \
    X(LADDER_LAST_ACTIVE, "extract(epoch FROM greatest(le.last_started, r.updated_at))::bigint") \
    X(LADDER_JOINED, "extract(epoch FROM le.joined_at)::bigint")              \
    X(LADDER_PREVIOUS, "CASE WHEN le.previous IS NOT NULL THEN (SELECT p.name FROM entrants p " \
                       "WHERE p.tournament_id = $1 AND p.idx = le.previous) END") \
    X(LADDER_VALIDATION, "le.validation_match")                                \
    X(LADDER_DIGEST, "le.digest")                                              \
    X(LADDER_NOW, "(SELECT extract(epoch FROM now())::bigint)")                \
    X(LADDER_SYSTEM, "(SELECT rating_system FROM tournaments WHERE id = $1)")  \
    X(LADDER_MODEL, "(SELECT coalesce(rating_model, '') FROM tournaments WHERE id = $1)") \
    X(LADDER_PROVISIONAL, "(SELECT coalesce(ladder_provisional, 10) FROM tournaments WHERE id = $1)") \
    X(LADDER_INACTIVE_DAYS, "(SELECT coalesce(ladder_inactive_days, 30) FROM tournaments WHERE id = $1)")

/* STORE_REPORT_MATCHES, of one tournament, a row per seat by round,
 * table, slot ("" for a result not in yet) */
#define STORE_MATCHES_COLS(X)                                                  \
    X(MATCHES_ID, "m.id")                                                      \
    X(MATCHES_ROUND, "m.round")                                                \
    X(MATCHES_TABLE, "m.tbl")                                                  \
    X(MATCHES_STATE, "m.state")                                                \
    X(MATCHES_TRANSCRIPT, "coalesce(m.transcript, '')")                        \
    X(MATCHES_DIGEST, "coalesce(m.digest, '')")                                \
    X(MATCHES_SLOT, "s.slot")                                                  \
    X(MATCHES_ENTRANT, "e.name")                                               \
    X(MATCHES_TOTAL, "coalesce(s.total::text, '')")                            \
    X(MATCHES_POINTS, "coalesce(s.points::text, '')")                          \
    X(MATCHES_RANK, "coalesce(s.rank::text, '')")

/* STORE_REPORT_MATCH, of one match, a row per seat; the match's own
 * columns repeat on every row */
#define STORE_MATCH_COLS(X)                                                    \
    X(MATCH_TOURNAMENT, "t.name")                                              \
    X(MATCH_ROUND, "m.round")                                                  \
    X(MATCH_TABLE, "m.tbl")                                                    \
    X(MATCH_STATE, "m.state")                                                  \
    X(MATCH_TRANSCRIPT, "coalesce(m.transcript, '')")                          \
    X(MATCH_DIGEST, "coalesce(m.digest, '')")                                  \
    X(MATCH_ERROR, "coalesce(m.error, '')")                                    \
    X(MATCH_SLOT, "s.slot")                                                    \
    X(MATCH_ENTRANT, "e.name")                                                 \
    X(MATCH_TOTAL, "coalesce(s.total::text, '')")                              \
    X(MATCH_POINTS, "coalesce(s.points::text, '')")                            \
    X(MATCH_RANK, "coalesce(s.rank::text, '')")                                \
    X(MATCH_FORFEITED, "coalesce(s.forfeited, false)")                         \
    X(MATCH_PENALTIES, "coalesce(s.penalties, 0)")                             \
    X(MATCH_REFEREE, "coalesce(m.leased_by, '')")                              \
    X(MATCH_SIGNER_KEY, "coalesce(m.signer_key, '')")                          \
    X(MATCH_SIGNATURE, "coalesce(m.signature, '')")

/* STORE_REPORT_MATCH_DEALS, of one match, by game: seat slots and scores
 * comma-separated, forfeit slot "" for none */
#define STORE_DEALS_COLS(X)                                                    \
    X(DEALS_GAME, "game")                                                      \
    X(DEALS_DEAL, "deal")                                                      \
    X(DEALS_SEATING, "seating")                                                \
    X(DEALS_SEAT_SLOTS, "array_to_string(seat_slots, ',')")                    \
    X(DEALS_SCORES, "array_to_string(scores, ',')")                            \
    X(DEALS_FORFEIT_SLOT, "coalesce(forfeit_slot::text, '')")

/* STORE_REPORT_MATCH_PENALTIES, of one match, in order */
#define STORE_PENS_COLS(X)                                                     \
    X(PENS_N, "n")                                                             \
    X(PENS_GAME, "game")                                                       \
    X(PENS_DECISION, "decision")                                               \
    X(PENS_SLOT, "slot")                                                       \
    X(PENS_REASON, "reason")                                                   \
    X(PENS_CONSEQUENCE, "consequence")                                         \
    X(PENS_NOTE, "note")

/* STORE_REPORT_CROSSTABLE, of one tournament: entrant and opponent by
 * name, over their done matches */
#define STORE_XTABLE_COLS(X)                                                   \
    X(XTABLE_ENTRANT, "a.name")                                                \
    X(XTABLE_OPPONENT, "b.name")                                               \
    X(XTABLE_MATCHES, "c.matches")                                             \
    X(XTABLE_POINTS, "c.points")                                               \
    X(XTABLE_SCORE, "c.score")

/* STORE_WEB_SEATS and STORE_WEB_ENTRANT_SEATS, a row per seat by
 * round, table, slot ("" for a result not in yet; stage "main" for a
 * round without one) */
#define STORE_WSEATS_COLS(X)                                                   \
    X(WSEATS_MATCH, "m.id")                                                    \
    X(WSEATS_ROUND, "m.round")                                                 \
    X(WSEATS_STAGE, "coalesce(r.stage, 'main')")                               \
    X(WSEATS_TABLE, "m.tbl")                                                   \
    X(WSEATS_STATE, "m.state")                                                 \
    X(WSEATS_SLOT, "s.slot")                                                   \
    X(WSEATS_ENTRANT, "s.entrant")                                             \
    X(WSEATS_NAME, "e.name")                                                   \
    X(WSEATS_TOTAL, "coalesce(s.total::text, '')")                             \
    X(WSEATS_POINTS, "coalesce(s.points::text, '')")                           \
    X(WSEATS_RANK, "coalesce(s.rank::text, '')")

/* STORE_WEB_RESULTS_SINCE: a row per seat of the first 50 matches done
 * after a time, in the order they finished (the live page's events) */
#define STORE_WRESULTS_COLS(X)                                                 \
    X(WRESULTS_MATCH, "m.id")                                                  \
    X(WRESULTS_ROUND, "m.round")                                               \
    X(WRESULTS_TABLE, "m.tbl")                                                 \
    X(WRESULTS_FINISHED, "to_char(m.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US')") \
    X(WRESULTS_SLOT, "s.slot")                                                 \
    X(WRESULTS_NAME, "e.name")                                                 \
    X(WRESULTS_TOTAL, "coalesce(s.total::text, '')")                           \
    X(WRESULTS_POINTS, "coalesce(s.points::text, '')")                         \
    X(WRESULTS_RANK, "coalesce(s.rank::text, '')")

/* STORE_REPORT_TOURNAMENTS, every tournament by id: the matches counted by
 * state from the CTE c (per tournament and state) */
#define STORE_TOURNAMENTS_COLS(X)                                              \
    X(TOURNAMENTS_ID, "t.id")                                                  \
    X(TOURNAMENTS_NAME, "t.name")                                              \
    X(TOURNAMENTS_FORMAT, "t.format")                                          \
    /* "rerun": running again after it ended, its secret out (a dispute) */ \
    /* "registration open until ... (N registered)", "not started: why" */ \
    X(TOURNAMENTS_STATE, "CASE WHEN t.not_started IS NOT NULL THEN 'not started: ' || t.not_started " \
                         "WHEN t.state = 'running' AND t.registration_until IS NOT NULL " \
                         "  AND t.registration_closed_at IS NULL THEN 'registration open until ' " \
                         "  || to_char(t.registration_until AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') " \
                         "  || ' (' || (SELECT count(*) FROM registrations g WHERE g.tournament_id = t.id) " \
                         "  || ' registered)' " \
                         "WHEN t.state = 'running' AND t.revealed_at IS NOT NULL THEN 'rerun' " \
                         "ELSE t.state END")                                   \
    X(TOURNAMENTS_PENDING, "coalesce(sum(c.n) FILTER (WHERE c.state = 'pending'), 0)") \
    X(TOURNAMENTS_LEASED, "coalesce(sum(c.n) FILTER (WHERE c.state = 'leased'), 0)") \
    X(TOURNAMENTS_DONE, "coalesce(sum(c.n) FILTER (WHERE c.state = 'done'), 0)") \
    X(TOURNAMENTS_VOID, "coalesce(sum(c.n) FILTER (WHERE c.state = 'void'), 0)") \
    X(TOURNAMENTS_ROUND, "coalesce(max(c.r), 0)")                              \
    X(TOURNAMENTS_CREATED, "to_char(t.created_at, 'YYYY-MM-DD HH24:MI')")      \
    X(TOURNAMENTS_GAME, "t.game")

/* store_ladder_history: one entry's rating after each of its matches */
#define STORE_LHISTORY_COLS(X)                                                 \
    X(LHISTORY_MATCH, "h.match_id")                                            \
    X(LHISTORY_ROUND, "m.round")                                               \
    X(LHISTORY_RANK, "h.rank")                                                 \
    X(LHISTORY_MU, "h.mu_after")                                               \
    X(LHISTORY_SIGMA, "h.sigma_after")                                         \
    X(LHISTORY_VOL, "coalesce(h.vol_after, 0)")                                \
    X(LHISTORY_AT, "to_char(h.at, 'YYYY-MM-DD HH24:MI:SS')")

/* STORE_WEB_MATCH, one row. to_jsonb(m): the signature's columns when the
 * record has them (migration 011), NULL before, one statement for both */
#define STORE_WMATCH_COLS(X)                                                   \
    X(WMATCH_ID, "m.id")                                                       \
    X(WMATCH_TOURNAMENT_ID, "m.tournament_id")                                 \
    X(WMATCH_TOURNAMENT, "t.name")                                             \
    X(WMATCH_ROUND, "m.round")                                                 \
    X(WMATCH_TABLE, "m.tbl")                                                   \
    X(WMATCH_STATE, "m.state")                                                 \
    X(WMATCH_DIGEST, "coalesce(m.digest, '')")                                 \
    X(WMATCH_TRANSCRIPT, "coalesce(m.transcript, '')")                         \
    X(WMATCH_ERROR, "coalesce(m.error, '')")                                   \
    X(WMATCH_GAMES, "coalesce(m.games::text, '')")                             \
    X(WMATCH_DECISIONS, "coalesce(m.decisions::text, '')")                     \
    X(WMATCH_WALL_MS, "coalesce(m.wall_ms::text, '')")                         \
    X(WMATCH_FINISHED, "coalesce(to_char(m.finished_at, 'YYYY-MM-DD HH24:MI:SS'), '')") \
    X(WMATCH_REFEREE, "coalesce(m.leased_by, '')")                             \
    X(WMATCH_SIGNER_KEY, "coalesce(to_jsonb(m) ->> 'signer_key', '')")         \
    X(WMATCH_SIGNATURE, "coalesce(to_jsonb(m) ->> 'signature', '')")           \
    X(WMATCH_FORMAT, "t.format")                                               \
    X(WMATCH_STDERR_PRIVATE, "coalesce(t.stderr_visibility = 'private', arb_api_on())") \
    X(WMATCH_PRIVATE, "arb_api_on() AND EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = m.tournament_id " \
                      "AND r.round = m.round AND r.stage = 'validation')")

/* STORE_WEB_HISTORY: the rating history of some entrants, in order */
#define STORE_WHISTORY_COLS(X)                                                 \
    X(WHISTORY_ENTRANT, "h.entrant")                                           \
    X(WHISTORY_MATCH, "h.match_id")                                            \
    X(WHISTORY_MU, "h.mu_after")                                               \
    X(WHISTORY_SIGMA, "h.sigma_after")

/* STORE_WEB_TOURNAMENT, one row (secret "" until revealed; teams: t/f) */
#define STORE_WTOUR_COLS(X)                                                    \
    X(WTOUR_ID, "t.id")                                                        \
    X(WTOUR_NAME, "t.name")                                                    \
    X(WTOUR_GAME, "t.game")                                                    \
    X(WTOUR_RULES, "t.rules")                                                  \
    X(WTOUR_FORMAT, "t.format")                                                \
    X(WTOUR_STATE, "t.state")                                                  \
    X(WTOUR_CREATED, "to_char(t.created_at, 'YYYY-MM-DD HH24:MI')")            \
    X(WTOUR_FINISHED, "coalesce(to_char(t.finished_at, 'YYYY-MM-DD HH24:MI'), '')") \
    X(WTOUR_RATING_SYSTEM, "t.rating_system")                                  \
    X(WTOUR_COMMITMENT, "coalesce(t.commitment, '')")                          \
    X(WTOUR_SECRET, "CASE WHEN t.revealed_at IS NOT NULL THEN coalesce(encode(t.secret, 'hex'), '') ELSE '' END") \
    X(WTOUR_TEAMS, "EXISTS (SELECT 1 FROM teams tm WHERE tm.tournament_id = t.id)")

/* STORE_WEB_ENTRANT, one row */
#define STORE_WENTRANT_COLS(X)                                                 \
    X(WENTRANT_IDX, "e.idx")                                                   \
    X(WENTRANT_NAME, "e.name")                                                 \
    X(WENTRANT_SEED_RANK, "coalesce(e.seed_rank::text, '')")                   \
    X(WENTRANT_TEAM, "coalesce(e.team, '')")

/* STORE_WEB_ENTRANT_PENALTIES, by round, table, order */
#define STORE_WPENS_COLS(X)                                                    \
    X(WPENS_MATCH, "m.id")                                                     \
    X(WPENS_ROUND, "m.round")                                                  \
    X(WPENS_TABLE, "m.tbl")                                                    \
    X(WPENS_GAME, "p.game")                                                    \
    X(WPENS_DECISION, "p.decision")                                            \
    X(WPENS_REASON, "p.reason")                                                \
    X(WPENS_CONSEQUENCE, "p.consequence")

/* STORE_WEB_PROGRESS, one row: the counts by state from the index
 * matches_claim alone, the last round and the last result's time (UTC)
 * each one index probe (matches_finished, migration 014): a live page of
 * a large ladder polls this */
#define STORE_WPROGRESS_COLS(X)                                                \
    X(WPROGRESS_STATE, "t.state")                                              \
    X(WPROGRESS_PENDING, "coalesce(sum(c.n) FILTER (WHERE c.state = 'pending'), 0)") \
    X(WPROGRESS_LEASED, "coalesce(sum(c.n) FILTER (WHERE c.state = 'leased'), 0)") \
    X(WPROGRESS_DONE, "coalesce(sum(c.n) FILTER (WHERE c.state = 'done'), 0)") \
    X(WPROGRESS_VOID, "coalesce(sum(c.n) FILTER (WHERE c.state = 'void'), 0)") \
    X(WPROGRESS_ROUND, "coalesce((SELECT max(round) FROM matches WHERE tournament_id = t.id), 0)") \
    X(WPROGRESS_LAST_RESULT, "coalesce((SELECT to_char(max(finished_at) AT TIME ZONE 'UTC', " \
                             "'YYYY-MM-DD\"T\"HH24:MI:SS.US') " \
                             "FROM matches WHERE tournament_id = t.id AND state = 'done'), '')")

/* store_ladder_programs: the entrants from `from` on, by index, with
 * their ladder entry's program ("" for a tournament's entrants) */
#define STORE_PROGRAMS_COLS(X)                                                 \
    X(PROGRAMS_ENTRANT, "e.idx")                                               \
    X(PROGRAMS_NAME, "e.name")                                                 \
    X(PROGRAMS_COMMAND, "e.command")                                           \
    X(PROGRAMS_FILES, "coalesce(le.files, '')")                                \
    X(PROGRAMS_DIR, "coalesce(le.dir, '')")                                    \
    X(PROGRAMS_DIGEST, "coalesce(le.digest, '')")                              \
    X(PROGRAMS_STATUS, "coalesce(le.status, '')")                              \
    X(PROGRAMS_STARTUP, "coalesce(le.startup_ms, 0)")                          \
    X(PROGRAMS_ENV, "array_to_string(coalesce(le.env, '{}'), E'\\n')")          \
    X(PROGRAMS_UPLOADED, "coalesce(le.uploaded, false)")

/* store_ladder_pending: entries waiting for validation, with their
 * validation match ("" none yet) and what it gave them */
#define STORE_PENDING_COLS(X)                                                  \
    X(PENDING_ENTRANT, "le.entrant")                                           \
    X(PENDING_MATCH, "coalesce(le.validation_match::text, '')")                \
    X(PENDING_STATE, "coalesce(m.state, '')")                                  \
    X(PENDING_PENALTIES, "coalesce((SELECT sum(st.penalties) FROM match_seats st WHERE st.match_id = m.id " \
                         "AND st.entrant = le.entrant), 0)")                   \
    X(PENDING_FORFEITED, "coalesce((SELECT bool_or(st.forfeited) FROM match_seats st WHERE st.match_id = m.id " \
                         "AND st.entrant = le.entrant), false)")               \
    X(PENDING_ERROR, "coalesce(m.error, '')")                                  \
    X(PENDING_GAMES, "coalesce(m.games, 0)")                                   \
    X(PENDING_FIRST_PENALTY, "coalesce((SELECT pn.reason || ': ' || pn.consequence FROM penalties pn " \
                             "JOIN match_seats st ON st.match_id = pn.match_id AND st.slot = pn.slot " \
                             "WHERE pn.match_id = m.id AND st.entrant = le.entrant ORDER BY pn.n LIMIT 1), '')") \
    X(PENDING_TRANSCRIPT, "coalesce(m.transcript, '')")                        \
    X(PENDING_DIGEST, "coalesce(m.digest, '')")

/* store_ladder_changes: one UNION of row kinds ('e' entry, 'r' rating,
 * 'f' matches in flight, 'h' the last hour's starts, 'n' the clock), so
 * its columns are named here and written out in each branch, in this
 * order: kind, entrant, status, recent, seats, a number (last started,
 * a count, or now), changed, mu, sigma, games. */
enum {
    STORE_CHANGES_KIND, STORE_CHANGES_ENTRANT, STORE_CHANGES_STATUS, STORE_CHANGES_RECENT, STORE_CHANGES_SEATS,
    STORE_CHANGES_NUMBER, STORE_CHANGES_CHANGED, STORE_CHANGES_MU, STORE_CHANGES_SIGMA, STORE_CHANGES_GAMES,
    STORE_CHANGES_NCOLS
};

#define STORE_COL_ENUM(name, expr) STORE_##name,
enum { STORE_RATINGS_COLS(STORE_COL_ENUM) STORE_RATINGS_NCOLS };
enum { STORE_HISTORY_COLS(STORE_COL_ENUM) STORE_HISTORY_NCOLS };
enum { STORE_DONE_COLS(STORE_COL_ENUM) STORE_DONE_NCOLS };
enum { STORE_TEAMX_COLS(STORE_COL_ENUM) STORE_TEAMX_NCOLS };
enum { STORE_LADDER_COLS(STORE_COL_ENUM) STORE_LADDER_NCOLS };
enum { STORE_PROGRAMS_COLS(STORE_COL_ENUM) STORE_PROGRAMS_NCOLS };
enum { STORE_MATCHES_COLS(STORE_COL_ENUM) STORE_MATCHES_NCOLS };
enum { STORE_MATCH_COLS(STORE_COL_ENUM) STORE_MATCH_NCOLS };
enum { STORE_DEALS_COLS(STORE_COL_ENUM) STORE_DEALS_NCOLS };
enum { STORE_PENS_COLS(STORE_COL_ENUM) STORE_PENS_NCOLS };
enum { STORE_XTABLE_COLS(STORE_COL_ENUM) STORE_XTABLE_NCOLS };
enum { STORE_WSEATS_COLS(STORE_COL_ENUM) STORE_WSEATS_NCOLS };
enum { STORE_WMATCH_COLS(STORE_COL_ENUM) STORE_WMATCH_NCOLS };
enum { STORE_WHISTORY_COLS(STORE_COL_ENUM) STORE_WHISTORY_NCOLS };
enum { STORE_WTOUR_COLS(STORE_COL_ENUM) STORE_WTOUR_NCOLS };
enum { STORE_WENTRANT_COLS(STORE_COL_ENUM) STORE_WENTRANT_NCOLS };
enum { STORE_WPENS_COLS(STORE_COL_ENUM) STORE_WPENS_NCOLS };
enum { STORE_WPROGRESS_COLS(STORE_COL_ENUM) STORE_WPROGRESS_NCOLS };
enum { STORE_PENDING_COLS(STORE_COL_ENUM) STORE_PENDING_NCOLS };
enum { STORE_WRESULTS_COLS(STORE_COL_ENUM) STORE_WRESULTS_NCOLS };
enum { STORE_TOURNAMENTS_COLS(STORE_COL_ENUM) STORE_TOURNAMENTS_NCOLS };
enum { STORE_LHISTORY_COLS(STORE_COL_ENUM) STORE_LHISTORY_NCOLS };
#undef STORE_COL_ENUM

/* The evidence on a match (store_dispute_evidence, six parts) and the
 * disputes list: X(NAME, "json key", SQL expression), the key being what
 * `arbiter dispute show|list --format json` calls the column. */
#define STORE_EVM_COLS(X)                                                      \
    X(EVM_ID, "id", "m.id")                                                    \
    X(EVM_TOURNAMENT, "tournament", "t.name")                                  \
    X(EVM_ROUND, "round", "m.round")                                           \
    X(EVM_TABLE, "table", "m.tbl")                                             \
    X(EVM_STATE, "state", "m.state")                                           \
    X(EVM_ATTEMPT, "attempt", "m.attempt")                                     \
    X(EVM_DIGEST, "digest", "coalesce(m.digest, '')")                          \
    X(EVM_TRANSCRIPT, "transcript", "coalesce(m.transcript, '')")              \
    X(EVM_GAMES, "games", "coalesce(m.games, 0)")                              \
    X(EVM_DECISIONS, "decisions", "coalesce(m.decisions, 0)")                  \
    X(EVM_WALL_MS, "wall_ms", "coalesce(m.wall_ms, 0)")                        \
    X(EVM_ERROR, "error", "coalesce(m.error, '')")                             \
    X(EVM_FINISHED, "finished", "coalesce(to_char(m.finished_at, 'YYYY-MM-DD HH24:MI:SS'), '')") \
    X(EVM_WORKER, "worker", "coalesce(m.leased_by, '')")                       \
    X(EVM_MATCH_SEED, "match_seed", "m.seed::text")                            \
    X(EVM_TOURNAMENT_SEED, "tournament_seed", "t.seed::text")                  \
    X(EVM_TOURNAMENT_ID, "tournament_id", "t.id")                              \
    X(EVM_SIGNER_KEY, "signer_key", "coalesce(m.signer_key, '')")              \
    X(EVM_SIGNATURE, "signature", "coalesce(m.signature, '')")

#define STORE_EVS_COLS(X)                                                      \
    X(EVS_SLOT, "slot", "st.slot")                                             \
    X(EVS_ENTRANT, "entrant", "e.name")                                        \
    X(EVS_TOTAL, "total", "coalesce(st.total::text, '')")                      \
    X(EVS_RANK, "rank", "coalesce(st.rank::text, '')")                         \
    X(EVS_FORFEITED, "forfeited", "coalesce(st.forfeited::text, '')")          \
    X(EVS_DECISIONS, "decisions", "coalesce(st.decisions, 0)")                 \
    X(EVS_WALL_NS, "wall_ns", "coalesce(st.wall_ns, 0)")                       \
    X(EVS_CPU_NS, "cpu_ns", "coalesce(st.cpu_ns, 0)")                          \
    X(EVS_STRIKES, "strikes", "coalesce(st.strikes, 0)")                       \
    X(EVS_PENALTIES, "penalties", "coalesce(st.penalties, 0)")                 \
    X(EVS_SANDBOX, "sandbox", "coalesce(st.sandbox, '')")

#define STORE_EVD_COLS(X)                                                      \
    X(EVD_GAME, "game", "game")                                                \
    X(EVD_DEAL, "deal", "deal")                                                \
    X(EVD_SEATING, "seating", "seating")                                       \
    X(EVD_SEED, "seed", "seed::text")                                          \
    X(EVD_SEAT_SLOTS, "seat_slots", "seat_slots::text")                        \
    X(EVD_SCORES, "scores", "scores::text")                                    \
    X(EVD_FORFEIT_SLOT, "forfeit_slot", "coalesce(forfeit_slot::text, '')")

#define STORE_EVP_COLS(X)                                                      \
    X(EVP_N, "n", "n")                                                         \
    X(EVP_GAME, "game", "game")                                                \
    X(EVP_DECISION, "decision", "decision")                                    \
    X(EVP_SLOT, "slot", "slot")                                                \
    X(EVP_REASON, "reason", "reason")                                          \
    X(EVP_CONSEQUENCE, "consequence", "consequence")                           \
    X(EVP_NOTE, "note", "note")

#define STORE_EVX_COLS(X)                                                      \
    X(EVX_ID, "id", "id")                                                      \
    X(EVX_OPENED, "opened", "to_char(opened_at, 'YYYY-MM-DD HH24:MI:SS')")     \
    X(EVX_OPENED_BY, "opened_by", "opened_by")                                 \
    X(EVX_REASON, "reason", "reason")                                          \
    X(EVX_STATE, "state", "state")                                             \
    X(EVX_RESOLVED, "resolved", "coalesce(to_char(resolved_at, 'YYYY-MM-DD HH24:MI:SS'), '')") \
    X(EVX_RESOLVED_BY, "resolved_by", "coalesce(resolved_by, '')")             \
    X(EVX_RESOLUTION, "resolution", "coalesce(resolution, '')")

#define STORE_EVU_COLS(X)                                                      \
    X(EVU_ID, "id", "id")                                                      \
    X(EVU_ATTEMPT, "attempt", "attempt")                                       \
    X(EVU_WHY, "why", "why")                                                   \
    X(EVU_AT, "at", "to_char(at, 'YYYY-MM-DD HH24:MI:SS')")                    \
    X(EVU_DIGEST, "digest", "coalesce(snapshot->'match'->>'digest', '')")      \
    X(EVU_TRANSCRIPT, "transcript", "coalesce(snapshot->'match'->>'transcript', '')")

#define STORE_DISPUTES_COLS(X)                                                 \
    X(DISPUTES_ID, "id", "d.id")                                               \
    X(DISPUTES_MATCH, "match", "d.match_id")                                   \
    X(DISPUTES_TOURNAMENT, "tournament", "t.name")                             \
    X(DISPUTES_ROUND, "round", "d.round")                                      \
    X(DISPUTES_TABLE, "table", "d.tbl")                                        \
    X(DISPUTES_STATE, "state", "d.state")                                      \
    X(DISPUTES_OPENED_BY, "opened_by", "d.opened_by")                          \
    X(DISPUTES_OPENED, "opened", "to_char(d.opened_at, 'YYYY-MM-DD HH24:MI')") \
    X(DISPUTES_REASON, "reason", "d.reason")                                   \
    X(DISPUTES_RESOLUTION, "resolution", "coalesce(d.resolution, '')")  \
    X(DISPUTES_RESOLVED_BY, "resolved_by", "coalesce(d.resolved_by, '')")

#define STORE_COL_ENUM3(name, key, expr) STORE_##name,
enum { STORE_EVM_COLS(STORE_COL_ENUM3) STORE_EVM_NCOLS };
enum { STORE_EVS_COLS(STORE_COL_ENUM3) STORE_EVS_NCOLS };
enum { STORE_EVD_COLS(STORE_COL_ENUM3) STORE_EVD_NCOLS };
enum { STORE_EVP_COLS(STORE_COL_ENUM3) STORE_EVP_NCOLS };
enum { STORE_EVX_COLS(STORE_COL_ENUM3) STORE_EVX_NCOLS };
enum { STORE_EVU_COLS(STORE_COL_ENUM3) STORE_EVU_NCOLS };
enum { STORE_DISPUTES_COLS(STORE_COL_ENUM3) STORE_DISPUTES_NCOLS };
#undef STORE_COL_ENUM3
/* A three-part list's JSON keys, or its expressions. */
#define STORE_COL_KEY3(name, key, expr) key,
#define STORE_COL_EXPR3(name, key, expr) expr,

#endif
