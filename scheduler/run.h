/* run.h — the scheduler: a ROUTER that referee workers (local threads over
 * inproc, remote daemons over CURVE tcp) connect to, the pool of those
 * workers with their heartbeats and leases, and the tournament loop that
 * creates rounds as the format says (plan.h), leases matches to workers
 * with free slots from PostgreSQL and records each result once.
 *
 * `arbiter run` makes a scheduler, runs one tournament and frees it;
 * `arbiter-scheduler` keeps one for its whole life and runs every
 * tournament in the record, one after another. Killed at any moment,
 * either resumes: finished matches stand, matches in flight are adopted
 * from the workers that still hold them or played again.
 *
 * The failure model (schemas/worker-protocol.md):
 * - a worker silent for heartbeat_misses heartbeats, or unroutable, is
 *   gone: its leases return to the queue at once (guarded by generation);
 * - a lease lasts lease_s in the database and is renewed while its worker
 *   is heard, so leases of a scheduler that died expire by themselves;
 * - a result is recorded only under the generation that holds the match,
 *   in the transaction that marks it done, then acknowledged; a result
 *   recorded already, or stale, is acknowledged and discarded. */
#ifndef ARB_RUN_H
#define ARB_RUN_H
#include "store.h"
#include "tournament.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct sched sched;

typedef struct sched_options {
    store      *db;
    const char *state_dir;       /* transcripts and local bot directories go here */
    int         local_slots;     /* a referee worker in this process with this many slots (0: none) */
    int         sandbox;         /* LIVE_SANDBOX_* for the local worker */
    bool        allow_unsandboxed; /* opt-in: play with neither bubblewrap nor root (docs/security.md) */
    /* A directory the local worker's bots must not see (arbiter run: the
     * tournament's tree, where every entrant's files lie): each bot gets
     * its own program from the program cache, by digest, as a remote
     * worker does. NULL, "/" or a directory holding the system's: none. */
    const char *hide_tree;
    volatile sig_atomic_t *stop; /* set by a signal: stop dispatching */
    /* Remote workers: bind the ROUTER here (tcp://...) with CURVE, this
     * scheduler's key pair, admitting only worker_keys (Z85 public keys).
     * NULL: inproc, local workers only. */
    const char *listen;
    const char *secret_key, *public_key;
    const char *const *worker_keys;
    int         nworker_keys;
    int         heartbeat_ms;    /* 0: 1000 */
    int         heartbeat_misses;/* 0: 5 */
    int         lease_s;         /* 0: 60 */
    bool        keep_remote;     /* a daemon: remote workers are not told to stop when it stops */
} sched_options;

/* What the scheduler has done, for its metrics endpoint (read from any
 * thread). */
typedef struct sched_stats {
    atomic_int    workers, slots;                 /* connected now */
    atomic_int    queued, leased;                 /* matches of the running tournament */
    atomic_ullong done, voided, stale, leases_expired, released, malformed, refused, programs_served;
    atomic_ullong forged;                         /* results/voids from a key that does not hold the lease */
    atomic_ullong flooded;                        /* frames dropped: their key was over its budget */
    atomic_ullong store_errors;                   /* a statement failed for one frame (database still up) */
    atomic_ullong decisions, timeouts, penalties;
    atomic_ullong decisions_per_s_x1000;          /* over the last 10 s */
} sched_stats;

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
    void      (*progress)(void *ctx, const run_progress *p);
    void       *ctx;
    /* arbiter run's one-shot scheduler (run_tournament): */
    const char *state_dir;
    store      *db;
    int         workers;         /* local referee slots */
    int         sandbox;
    bool        allow_unsandboxed;
    volatile sig_atomic_t *stop;
    const char *listen;
    const char *secret_key, *public_key;
    const char *const *worker_keys;
    int         nworker_keys;
    int         lease_secs;
    /* The organiser's secret (--secret-file), 32 bytes, or NULL: drawn at
     * random at the first start. Refused when the record holds another. */
    const uint8_t *secret;
} run_options;

typedef struct run_outcome {
    int64_t tid;
    bool    resumed;             /* the tournament existed: this run resumed it */
    bool    finished;            /* nothing left to play */
    int     matches;             /* recorded by this run */
    int     stale;               /* results discarded (stale lease or recorded twice) */
    int     voided;
} run_outcome;

/* Bind, start the ZAP handler (before the bind) and the local worker. NULL
 * and a message on failure. */
sched *sched_new(const sched_options *o, char *err, size_t errlen);
sched_stats *sched_stats_of(sched *s);
/* The endpoint workers connect to (a wildcard port resolved). */
const char *sched_endpoint(const sched *s);
/* Run (or resume) one tournament with the pool. 0 when it finished or
 * was stopped; an error with a message in err. */
int sched_tournament(sched *s, const run_options *o, run_outcome *out, char *err, size_t errlen);
/* Serve the pool (hello, heartbeats, late results, programs) for ms
 * milliseconds when no tournament runs. 0, or an error (the ZAP handler
 * died). */
int sched_serve(sched *s, int ms, char *err, size_t errlen);
/* Tell every worker to stop (STOP: they finish what they hold), close.
 * With *stop set, local matches in flight are abandoned (played again on
 * the next start). */
void sched_free(sched *s);
/* The Prometheus text of a scheduler (arb_http_render). */
size_t sched_metrics(void *s, char *buf, size_t cap);

/* arbiter run: sched_new + sched_tournament + sched_free. */
int run_tournament(const run_options *o, run_outcome *out, char *err, size_t errlen);

#endif
