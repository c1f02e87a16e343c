/* run.h — running a tournament: the scheduler loop of `arbiter run`. It
 * binds a ZeroMQ ROUTER, starts local referee workers on it (threads, the
 * same message path distributed workers use), creates rounds as the format
 * says (plan.h), leases matches to idle workers from PostgreSQL, records
 * each result once, and stops when the format has nothing left to play.
 * Killed at any moment, the same call resumes: finished matches stand,
 * matches in flight are played again. */
#ifndef ARB_RUN_H
#define ARB_RUN_H
#include "store.h"
#include "tournament.h"

#include <signal.h>
#include <stdbool.h>

typedef struct run_progress {
    int      round;
    int      done, total;        /* matches recorded / created so far */
    double   rate;               /* matches per second in this run */
    double   eta_s;              /* for the matches created so far */
    const char *last;            /* "ann 2 > bob 1 > cy 0", the last result */
} run_progress;

typedef struct run_options {
    const tn_config *cfg;
    const char *yaml;            /* the file's text (stored with the tournament) */
    const char *digest;          /* sha256 of it */
    const char *state_dir;       /* transcripts and bot directories go here */
    store      *db;
    int         workers;         /* local referee workers */
    int         sandbox;         /* LIVE_SANDBOX_* */
    volatile sig_atomic_t *stop;
    /* Remote workers: bind the ROUTER here (tcp://...) with CURVE, this
     * scheduler's secret key, admitting only worker_keys (Z85 public
     * keys). NULL: inproc, local workers only. */
    const char *listen;
    const char *secret_key, *public_key;
    const char *const *worker_keys;
    int         nworker_keys;
    int         lease_secs;      /* remote leases (default 600); a dead worker's match returns after it */
    void      (*progress)(void *ctx, const run_progress *p);
    void       *ctx;
} run_options;

typedef struct run_outcome {
    int64_t tid;
    bool    resumed;             /* the tournament existed: this run resumed it */
    bool    finished;            /* nothing left to play */
    int     matches;             /* recorded by this run */
    int     stale;               /* results discarded (stale lease or recorded twice) */
    int     voided;
} run_outcome;

/* Run (or resume) the tournament. 0 when it finished or was stopped
 * cleanly; an error with a message in err. */
int run_tournament(const run_options *o, run_outcome *out, char *err, size_t errlen);

#endif
