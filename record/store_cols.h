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
    X(DONE_DIGEST, "coalesce(digest, '')")

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

#define STORE_COL_ENUM(name, expr) STORE_##name,
enum { STORE_RATINGS_COLS(STORE_COL_ENUM) STORE_RATINGS_NCOLS };
enum { STORE_HISTORY_COLS(STORE_COL_ENUM) STORE_HISTORY_NCOLS };
enum { STORE_DONE_COLS(STORE_COL_ENUM) STORE_DONE_NCOLS };
enum { STORE_TEAMX_COLS(STORE_COL_ENUM) STORE_TEAMX_NCOLS };
enum { STORE_LADDER_COLS(STORE_COL_ENUM) STORE_LADDER_NCOLS };
#undef STORE_COL_ENUM

#endif
