/* ladder.h — matchmaking for a ladder, pure code: given the entries as the
 * record holds them (rating, uncertainty, games, when they last played,
 * whom they met lately, their share of the pool), the next table to play,
 * chosen to teach the most: similar ratings, uncertain and new entries
 * more often, no immediate rematch, each entry within its rate of matches
 * per hour, seats balanced. Every random choice comes from the seed the
 * caller gives (derived from the ladder's secret and a counter), and the
 * choice is explained in text that the caller records beside the match. */
#ifndef ARB_LADDER_H
#define ARB_LADDER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LADDER_MAX_RECENT 8      /* opponents remembered per entry for "no immediate rematch" */

typedef struct ladder_entry {
    int64_t  id;                  /* the record's entry id */
    double   mu, sigma;           /* rating and its uncertainty (Weng–Lin; Glicko-2 rating/RD; Elo with sigma 0) */
    int      games;
    int      in_flight;           /* matches it is playing now */
    int      last_hour;           /* matches it started in the last hour */
    double   rate;                /* matches per hour allowed (0: no limit) */
    int64_t  idle_s;              /* seconds since it last started a match (large: never) */
    int64_t  recent[LADDER_MAX_RECENT];   /* ids of its latest opponents, latest first (0: none) */
    uint32_t seat_count[4];       /* how often it sat each seat */
} ladder_entry;

typedef struct ladder_params {
    int      seats;               /* k: a table's seats (entries a table holds) */
    int      provisional;         /* games under which an entry is new (played more: new_boost) */
    double   new_boost;           /* priority factor of a new entry (default 2) */
    double   sigma0;              /* the system's initial uncertainty (priority: sigma / sigma0) */
    double   beta;                /* performance spread (closeness: |mu - mu'| against sqrt(2 beta^2 + sigma^2 + sigma'^2)) */
    int      max_in_flight;       /* matches an entry plays at once (default 1) */
} ladder_params;

/* The next table: 1 with table[0..seats) the entries' indices in seat
 * order, 0 when no table can be made now (too few entries free, all over
 * their rate), < 0 on a bad argument. why (may be NULL) explains the
 * choice in one line. */
int ladder_match(const ladder_params *p, const ladder_entry *e, int n, uint64_t seed, int *table, char *why,
                 size_t whylen);

#endif
