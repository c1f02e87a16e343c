/* local_worker.h — referee workers in the scheduler's own process: the
 * worker of `arbiter run` and of a scheduler daemon's `local_workers`.
 * The scheduler (scheduler/scheduler.h) knows nothing of the referee; this is
 * where the two are put side by side, on one ZeroMQ context, the worker
 * on a thread of its own connected to the scheduler's endpoint. */
#ifndef ARB_LOCAL_WORKER_H
#define ARB_LOCAL_WORKER_H
#include "live.h"
#include "scheduler.h"

#include <signal.h>
#include <stdbool.h>

typedef struct local_worker_options {
    int         slots;               /* matches at once (1..ARB_WORKER_MAX_SLOTS) */
    int         sandbox;             /* LIVE_SANDBOX_* */
    bool        allow_unsandboxed;
    const char *state_dir;           /* hidden from bots: the record, transcripts */
    /* A directory the bots must not see (arbiter run: the tournament's
     * tree, where every entrant's files lie): each bot gets its own
     * program from the program cache, by digest, as on a remote worker.
     * NULL, "/" or a directory holding the system's: none. */
    const char *hide_tree;
    volatile sig_atomic_t *stop;     /* set by a signal: abandon matches in flight */
    /* A full disk (worker_options.disk_full) sets *stop, the reason kept
     * for local_worker_disk_full: `arbiter run`, whose one worker would be
     * handed the same match for ever. Else it is logged, the match handed
     * back. */
    bool stop_on_disk_full;
} local_worker_options;

typedef struct local_worker local_worker;

/* Start a worker with o->slots slots connected to s. NULL and a message. */
local_worker *local_worker_start(sched *s, const local_worker_options *o, char *err, size_t errlen);
/* Release the scheduler's workers and let this one drain (pumping the
 * scheduler meanwhile) or, after an interrupt, abandon it; free it. */
void local_worker_stop(local_worker *w, sched *s);
/* Whether the worker stopped on a full disk (stop_on_disk_full): true
 * with what could not be written, and why, in why. */
bool local_worker_disk_full(local_worker *w, char *why, size_t cap);

/* `arbiter run`: a scheduler for one tournament with local workers (and
 * remote ones when listening), run to its end or to *stop, freed. */
typedef struct local_run {
    const char *state_dir;
    store      *db;
    int         workers;             /* local referee slots (0 with listen: remote only) */
    int         sandbox;
    bool        allow_unsandboxed;
    volatile sig_atomic_t *stop;
    const char *listen;
    const char *secret_key, *public_key;
    const char *const *worker_keys;
    int         nworker_keys;
    int         lease_secs;
} local_run;
int local_run_tournament(const local_run *l, const sched_tournament_options *o, sched_outcome *out, char *err, size_t errlen);

#endif
