/* bench_fixtures.h — large records for the benchmarks (`arbiter bench
 * ladder`, `arbiter bench web`), built inside the server with
 * generate_series: raw SQL kept apart from the record's normal write API,
 * which would take minutes to write 10,000 entries and their matches one
 * by one. Not for tournaments: nothing here is played. */
#ifndef BENCH_FIXTURES_H
#define BENCH_FIXTURES_H

#include "store.h"

/* The record names the game and rules the caller gives (a game of three
 * seats: the fixtures seat three per match); the record knows no game. */

/* `arbiter bench ladder`: a ladder called name (one of that name before is
 * dropped) with `entries` active entries and `matches` rated matches of
 * three seats, their seats and rating history, built inside the server
 * (generate_series) from the indices alone. 0 with its id, or < 0. */
int store_bench_ladder(store *s, const char *name, const char *game, const char *rules, int entries, int64_t matches,
                       int64_t *tid, char *err, size_t errlen);

/* `arbiter bench web`: a finished Swiss called name (one of that name
 * before is dropped) of `entrants` entrants over `rounds` rounds of
 * three-seat tables (the entrants left over sit out the round), every seat
 * with a result (totals, points, ranks from a fixed strength per entrant
 * plus a per-round draw), rated (ratings and a history row per seat),
 * built inside the server from the indices alone: the same record every
 * run. 0 with its id, or < 0. */
int store_bench_tournament(store *s, const char *name, const char *game, const char *rules, int entrants, int rounds,
                           int64_t *tid, char *err, size_t errlen);

/* The benchmark's baseline: the same record without rating updates
 * (system "none"), then with them again. 0 or < 0. */
int store_bench_set_rating(store *s, int64_t tid, const char *system);

#endif
