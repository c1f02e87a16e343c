/* scheduler.h — the scheduler: a ROUTER that referee workers (local threads over
 * inproc, remote daemons over CURVE tcp) connect to, the pool of those
 * workers with their heartbeats and leases, and the tournament loop that
 * creates rounds as the format says (plan.h), leases matches to workers
 * with free slots from PostgreSQL and records each result once.
 *
 * A scheduler runs a set of tournaments in one event loop: the pool is
 * pumped, each tournament gets its next round when one is done, and free
 * slots take matches from the tournaments fairly (the one with the fewest
 * matches in flight first, ties in turn), so a long ladder never blocks a
 * short cup. `arbiter run` (cli/local_worker.c) makes a scheduler and a
 * referee worker beside it and runs a set of one (sched_tournament);
 * `arbiter-scheduler` keeps one for its whole life and runs every
 * tournament in the record at once (sched_serve_all), taking up new ones
 * as they are submitted. Killed at any moment, either resumes: finished
 * matches stand, matches in flight are adopted from the workers that
 * still hold them or played again.
 *
 * The code: pool.c (workers), programs.c (bundles), results.c, loop.c
 * (the set of tournaments), metrics.c; sched_int.h between them.
 *
 * The failure model (schemas/worker-protocol.md):
 * - a worker silent for heartbeat_misses heartbeats, or unroutable, is
 *   gone: its leases return to the queue at once (guarded by generation);
 * - a lease lasts lease_s in the database and is renewed while its worker
 *   is heard, so leases of a scheduler that died expire by themselves;
 * - a result is recorded only under the generation that holds the match,
 *   in the transaction that marks it done, then acknowledged; a result
 *   recorded already, or stale, is acknowledged and discarded. */
#ifndef ARB_SCHEDULER_H
#define ARB_SCHEDULER_H
#include "store.h"
#include "tournament.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct sched sched;

typedef struct sched_options {
    store      *db;
    const char *state_dir;       /* transcripts and local bot directories go here */
    /* The ZeroMQ context to use, or NULL: one of its own. A process that
     * runs referee workers beside its scheduler (cli/local_worker.c) owns
     * the context both use, and ends it itself. */
    void       *zmq_ctx;
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
    atomic_int    tournaments;                    /* in the running set */
    atomic_int    queued, leased;                 /* matches of the running tournaments */
    atomic_ullong done, voided, stale, leases_expired, released, malformed, refused, programs_served;
    atomic_ullong forged;                         /* results/voids from a key that does not hold the lease */
    atomic_ullong flooded;                        /* frames dropped: their key was over its budget */
    atomic_ullong store_errors;                   /* a statement failed for one frame (database still up) */
    atomic_ullong transcripts_refused;            /* transcript chunks refused (order, bounds, another's lease) */
    atomic_ullong transcripts_stored;             /* transcripts checked against their digest and recorded */
    atomic_ullong decisions, timeouts, penalties;
    atomic_ullong decisions_per_s_x1000;          /* over the last 10 s */
} sched_stats;

typedef struct sched_progress {
    int64_t  tid;
    const char *name;            /* the tournament's */
    int      round;
    int      done, total;        /* matches recorded / created so far */
    double   rate;               /* matches per second in this run */
    double   eta_s;              /* for the matches created so far */
    const char *last;            /* "ann 2 > bob 1 > cy 0", the last result */
} sched_progress;

typedef struct sched_tournament_options {
    const tn_config *cfg;
    const char *yaml;            /* the file's text (stored with the tournament) */
    const char *digest;          /* sha256 of it */
    void      (*progress)(void *ctx, const sched_progress *p);
    void       *ctx;
    /* The organiser's secret (--secret-file), 32 bytes, or NULL: drawn at
     * random at the first start. Refused when the record holds another. */
    const uint8_t *secret;
    /* arbiter run --new: start another tournament of this name even when
     * its latest came from another file (store_tournament). */
    bool        fresh;
} sched_tournament_options;

typedef struct sched_outcome {
    int64_t tid;
    bool    resumed;             /* the tournament existed: this run resumed it */
    bool    finished;            /* nothing left to play */
    int     matches;             /* recorded by this run */
    int     stale;               /* results discarded (stale lease or recorded twice) */
    int     voided;
} sched_outcome;

/* The digest of a bot's program as the scheduler packs it (proto/bundle.h):
 * the files its command names (relative paths from dir) and its `files`
 * (space separated, inside dir); "" when it has none of its own (a system
 * program). `arbiter ladder join` records it; the scheduler suspends an
 * entry whose files no longer give it. 0, or an error with a message. */
int sched_program_digest(const char *name, const char *command, const char *files, const char *dir,
                         char digest[65], char *err, size_t errlen);

/* The same program packed: the bundle (*out, malloc'ed, *len) and where
 * its files go in the command (prog: digest, argi, paths), as a
 * registration records it. ARB_EINVAL when the command names no file of
 * its own (a registration plays an uploaded program, not the host's). */
int sched_program_pack(const char *name, const char *command, const char *files, const char *dir, uint8_t **out,
                       size_t *len, store_entrant_prog *prog, char *err, size_t errlen);

/* A ladder's entries as matchmaking sees them, kept between decisions
 * (scheduler/ladder_run.c): each decision reads from the record only what
 * changed since the one before. */
typedef struct sched_ladder_view sched_ladder_view;
sched_ladder_view *sched_ladder_view_new(void);
void sched_ladder_view_free(sched_ladder_view *v);

/* A ladder's next table (scheduler/ladder_run.c): the view brought up to
 * date with the record, its active entries (those usable() refuses left
 * out; NULL: all), ladder_match (ladder.h) with this seed, the table in seat order
 * (in partnership play each entry on every seat of its side), each seat's
 * position for the seat counts, and the choice explained in note. 1 made,
 * 0 none can be made now, < 0 an error with a message. */
typedef struct sched_ladder_pick {
    store_table table;
    int  pos[ARB_MAX_SEATS];
    char note[600];
} sched_ladder_pick;
int sched_ladder_choose(store *db, int64_t tid, const tn_config *cfg, sched_ladder_view *v,
                        bool (*usable)(void *ctx, int entrant), void *ctx, uint64_t seed, sched_ladder_pick *out,
                        char *err, size_t errlen);

/* Bind and start the ZAP handler (before the bind). NULL and a message on
 * failure. */
sched *sched_new(const sched_options *o, char *err, size_t errlen);
sched_stats *sched_stats_of(sched *s);
/* The endpoint workers connect to (a wildcard port resolved). */
const char *sched_endpoint(const sched *s);
/* Run (or resume) one tournament with the pool: a set of one. 0 when it
 * finished or was stopped; an error with a message in err. */
int sched_tournament(sched *s, const sched_tournament_options *o, sched_outcome *out, char *err, size_t errlen);
/* The daemon's loop: every running tournament in the record, at once,
 * until *stop. A tournament is taken up from the file it was submitted
 * from (store_next_running), checked against the digest recorded; one
 * whose file is gone or changed, or whose round cannot be planned, is
 * skipped with an event and left running in the record. Newly submitted
 * tournaments are taken up within a second or so, while the others play;
 * up to ARB_SCHED_MAX_TOURNAMENTS at once. progress (may be NULL) is told
 * of each result. 0 when stopped; an error (the database lost, the ZAP
 * handler died) with a message in err. */
int sched_serve_all(sched *s, void (*progress)(void *ctx, const sched_progress *p), void *ctx, char *err,
                    size_t errlen);
/* Serve the pool (hello, heartbeats, late results, programs) for ms
 * milliseconds, dispatching nothing. 0, or an error (the ZAP handler
 * died). */
int sched_serve(sched *s, int ms, char *err, size_t errlen);
/* Referee workers in the same process (arbiter run, a scheduler daemon
 * with local_workers) connect here: the context and endpoint, the key
 * pair the ZAP handler admits as "local:0" when listening (NULL keys:
 * inproc without CURVE), the work directory for their bots (0711; apart
 * from the state directory when that is under a 0700 ancestor) and the
 * transcript directory (0700, hidden from bots). */
typedef struct sched_local {
    void       *zmq_ctx;
    const char *endpoint;
    const char *public_key, *secret_key, *server_key;
    const char *workdir, *transcript_dir;
    bool        workdir_apart;
    int         heartbeat_ms, heartbeat_misses;
} sched_local;
void sched_local_of(const sched *s, sched_local *out);
/* Workers that said hello and are still in the pool. */
int sched_workers(const sched *s);
/* Tell the workers to stop (STOP: they finish what they hold): the local
 * ones always, remote ones unless keep_remote; nobody when *stop is set
 * (matches in flight are abandoned, played again on the next start).
 * Pump with sched_serve while local workers drain; sched_free does it too. */
void sched_release_workers(sched *s);
/* Release the workers, close. */
void sched_free(sched *s);
/* The Prometheus text of a scheduler (arb_http_render). */
size_t sched_metrics(void *s, char *buf, size_t cap);

#endif
