/* worker.h — a referee worker: one DEALER connected to the scheduler's
 * ROUTER, N match slots played in parallel (a thread each), heartbeats both
 * ways, and every result kept until the scheduler acknowledges it
 * (schemas/worker-protocol.md). `arbiter run` runs one in a thread over
 * inproc; the `arbiter-referee` daemon runs one over tcp with CURVE.
 *
 * Failure model, from the worker's side:
 * - the scheduler silent for heartbeat_misses heartbeats (it died, the link
 *   is cut): the socket is made anew (a new random routing id), hello says
 *   which leases are in hand, and every unacknowledged result is due again;
 * - an assignment names no file: the transcript is written under
 *   transcript_dir with a name made of the match id and generation,
 *   created exclusively (never a file that exists, never through a link);
 * - the scheduler says it does not know us (it restarted): hello again;
 * - a result is sent again after 1 s, 2 s, 4 s ... (at most 32 s apart)
 *   until any acknowledgement comes (ARB_RESEND_*), each time after its
 *   transcript's bytes (WIRE_TRANSCRIPT chunks, read from the file);
 *   acknowledged, the file is removed unless keep_transcripts; a file that
 *   cannot be read any more hands the match back (WIRE_RELEASE);
 * - *stop set (SIGTERM): no new matches; the matches in hand are finished
 *   and their results acknowledged, for at most drain_s; what is left is
 *   handed back (WIRE_RELEASE) and the worker returns. *stop_now (a second
 *   signal) hands back at once. */
#ifndef ARB_WORKER_H
#define ARB_WORKER_H
#include "live.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* What a worker has done, for its metrics endpoint: written by the worker,
 * read from any thread. */
typedef struct worker_stats {
    atomic_int      slots, running, connected;
    atomic_int      unacked;            /* results sent, not yet acknowledged */
    atomic_ullong   matches_done, matches_failed, released;
    atomic_ullong   reconnects, programs_fetched, frames_dropped;
    atomic_ullong   decisions, timeouts, penalties;
} worker_stats;

typedef struct worker_options {
    void       *zmq_ctx;         /* shared ZeroMQ context */
    const char *endpoint;        /* the scheduler's ROUTER */
    const char *name;            /* identity, for logs and leases (ARB_WORKER_ID_MAX) */
    const char *workdir;         /* bots' working directories, the program cache */
    const char *transcript_dir;  /* where transcripts go (NULL: <workdir>/transcripts), named by the worker */
    live_options live;           /* sandbox and limits for every match */
    int         slots;           /* matches at once (1..ARB_WORKER_MAX_SLOTS) */
    int         heartbeat_ms;    /* 0: 1000 */
    int         heartbeat_misses;/* 0: 5 */
    int         drain_s;         /* after *stop: finish for at most this long (0: hand back at once) */
    bool        fetch_programs;  /* bot programs come from the scheduler by digest (another host) */
    bool        keep_transcripts;/* keep each transcript file after the scheduler acknowledged it */
    volatile sig_atomic_t *stop;     /* drain and leave */
    volatile sig_atomic_t *stop_now; /* hand back and leave (may be NULL) */
    /* CURVE (tcp endpoints): this worker's key pair and the scheduler's
     * public key, Z85; NULL for inproc. */
    const char *public_key, *secret_key, *server_key;
    worker_stats *stats;         /* may be NULL */
    /* Called on the worker's thread when this host's disk is full (a
     * program could not be unpacked, a transcript not written: the match
     * was handed back, the scheduler gives it to a worker with room); why
     * names the path and the cause. NULL: logged only. `arbiter run`
     * stops on it: its only worker would be given the match again and
     * again. */
    void (*disk_full)(void *ctx, const char *why);
    void *disk_full_ctx;
} worker_options;

/* Serve until told to stop (WIRE_STOP, *stop, *stop_now) or refused. 0, or
 * ARB_EUNSUPPORTED (the scheduler refused us: another protocol version), or
 * another error. */
int worker_run(const worker_options *o);

#endif
