/* plan.h — the rounds of a tournament format, one at a time: given the
 * configuration and the results recorded so far, the tables of the next
 * round, or that the tournament is over. A pure function of the config,
 * the tournament seed and the recorded results, so a resumed run creates
 * exactly the rounds an uninterrupted one would. */
#ifndef ARB_PLAN_H
#define ARB_PLAN_H
#include "store.h"
#include "tournament.h"

/* The tables of round last_round + 1 into tables (cap of them), or *done. */
int plan_next(const tn_config *cfg, store *s, int64_t tid, int last_round, store_table *tables, int cap,
              int *ntables, const char **stage, bool *done, char *err, size_t errlen);

/* Would the format's largest round (a round robin, a gauntlet, the group
 * stage of groups-knockout: every table at once) hold more than
 * ARB_MAX_TABLES tables? 0, or ARB_ETOOBIG with the reason in err. One
 * check for the loader (so `arbiter check` refuses what `run` would) and
 * plan_next. */
int plan_check_size(const tn_config *cfg, char *err, size_t errlen);

/* The bracket of a knockout format as text for a terminal (empty for the
 * other formats). */
size_t plan_draw(const tn_config *cfg, store *s, int64_t tid, char *buf, size_t len);

/* Benchmark: pair one Swiss round of n entrants (tables of k) after
 * `rounds_before` random rounds; *ntables made. */
int plan_bench_swiss(int n, int k, int rounds_before, uint64_t seed, int *ntables);

#endif
