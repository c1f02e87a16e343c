/* plan.h — the rounds of a tournament format, one at a time: given the
 * configuration and the results recorded so far, the tables of the next
 * round, or that the tournament is over. A pure function of the config,
 * the tournament's seed and secret and the recorded results (plan_record,
 * read from the store by plan_record_load and passed in), so a resumed
 * run creates exactly the rounds an uninterrupted one would. */
#ifndef ARB_PLAN_H
#define ARB_PLAN_H
#include "store.h"
#include "tournament.h"

/* A round as recorded: its tables' results so far. */
typedef struct plan_round {
    int          ntables;
    bool         in_play;        /* some match of it is not finished */
    store_table *order;          /* per table, its entrants (teams, in partnership play) best first
                                    (finished ones) */
    int (*rank)[ARB_MAX_SEATS];  /* per table and place: the game's rank (1 best, equal in a tie,
                                    99 none); NULL: not known (every place apart) */
    int64_t (*total)[ARB_MAX_SEATS]; /* per table and place: the score there (NULL: not known) */
} plan_round;

/* What the record holds of a tournament, as the formats need it: the
 * data plan_next and plan_draw are functions of (with the config). */
typedef struct plan_record {
    bool     has_secret;         /* false: draws from the bare seed */
    uint8_t  secret[32];         /* the tournament's (docs/rng.md): keys the draws */
    int      nrounds;            /* rounds created so far */
    plan_round *rounds;          /* rounds[r - 1] is round r */
    int      nstandings;
    store_standing *standings;   /* best first */
} plan_record;

/* The tables of round rec->nrounds + 1 into tables (cap of them), or
 * *done. rec NULL: nothing recorded yet. */
int plan_next(const tn_config *cfg, const plan_record *rec, store_table *tables, int cap, int *ntables,
              const char **stage, bool *done, char *err, size_t errlen);

/* The store feeds plan: read a tournament's record (owned by rec until
 * plan_record_release) — with teams (partnership play: cfg->nteams > 0),
 * in teams: results per side and team standings, what the formats pair
 * then. 0, or ARB_EIO with a message. */
int plan_record_load(store *s, int64_t tid, bool teams, plan_record *rec, char *err, size_t errlen);
void plan_record_release(plan_record *rec);

/* Would the format's largest round (a round robin, a gauntlet, the group
 * stage of groups-knockout: every table at once) hold more than
 * ARB_MAX_TABLES tables? 0, or ARB_ETOOBIG with the reason in err. One
 * check for the loader (so `arbiter check` refuses what `run` would) and
 * plan_next. */
int plan_check_size(const tn_config *cfg, char *err, size_t errlen);

/* The seats of the tournament's table (*seats) and, when the game fixes
 * its teams before play (Da Bang: 0+2 against 1+3), each seat's side:
 * returns the number of sides, 0 without fixed teams, -1 when the rules
 * do not build. */
int plan_seat_sides(const tn_config *cfg, int *seats, int side_of_seat[ARB_MAX_SEATS]);

/* The bracket of a knockout format as text for a terminal (empty for the
 * other formats). */
size_t plan_draw(const tn_config *cfg, const plan_record *rec, char *buf, size_t len);

/* Where each unit (entrant, or team in partnership play) stands in a
 * knockout format (single and double elimination, groups then knockout;
 * docs/rules/placement.md): by the stage reached, then its place at the
 * table it went out at (ties there settled by head-to-head, then the
 * seeded draw), then (out in the group stage) its place in the group,
 * then the standings. Into out[0..cap), best first; the ties settled so
 * far into ties[0..tcap) (*nties). Returns the count placed: 0 for the
 * other formats (they rank by points) and before a knockout begins. */
int plan_placement(const tn_config *cfg, const plan_record *rec, store_place *out, int cap,
                   char (*ties)[STORE_NOTE_MAX], int tcap, int *nties);

#endif
