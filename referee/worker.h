/* worker.h — a referee worker: connects a DEALER to the scheduler, says
 * hello, plays every match it is assigned with the live driver, writes the
 * transcript, and sends the result until the scheduler acknowledges it
 * (schemas/worker-protocol.md). `arbiter run` runs several in threads over
 * inproc; the distributed daemon (issue 5) runs the same loop over tcp. */
#ifndef ARB_WORKER_H
#define ARB_WORKER_H
#include "live.h"

#include <signal.h>

typedef struct worker_options {
    void       *zmq_ctx;         /* shared ZeroMQ context */
    const char *endpoint;        /* the scheduler's ROUTER */
    const char *name;            /* for logs and leases */
    const char *workdir;         /* base for the bots' working directories */
    live_options live;           /* sandbox and limits for every match */
    volatile sig_atomic_t *stop; /* set by a signal handler: leave after the current message */
    /* CURVE (tcp endpoints): this worker's key pair and the scheduler's
     * public key, Z85; NULL for inproc. */
    const char *public_key, *secret_key, *server_key;
} worker_options;

/* Serve until the scheduler says stop (or *stop is set). 0 or an error. */
int worker_run(const worker_options *o);

#endif
