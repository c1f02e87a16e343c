/* local_worker.c — referee workers beside a scheduler (local_worker.h). */
#include "local_worker.h"
#include "bundle.h"
#include "seat.h"
#include "wire.h"
#include "worker.h"
#include "arb_error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

struct local_worker {
    worker_options o;
    pthread_t thread;
    volatile sig_atomic_t stop_now;
    volatile sig_atomic_t *interrupted;
    bool stop_on_disk_full;
    pthread_mutex_t lock;            /* guards full */
    char full[512];                  /* "": no full disk met; else what and why */
};

static void *worker_main(void *arg)
{
    worker_run(arg);
    return NULL;
}

/* worker_options.disk_full, on the worker's thread: the first reason
 * kept; the run stopped when it stops on it. */
static void on_disk_full(void *ctx, const char *why)
{
    local_worker *w = ctx;
    pthread_mutex_lock(&w->lock);
    if (!w->full[0])
        snprintf(w->full, sizeof w->full, "%s", why);
    pthread_mutex_unlock(&w->lock);
    if (w->stop_on_disk_full && w->interrupted)
        __atomic_store_n(w->interrupted, 1, __ATOMIC_RELAXED);
}

bool local_worker_disk_full(local_worker *w, char *why, size_t cap)
{
    if (!w)
        return false;
    pthread_mutex_lock(&w->lock);
    bool full = w->full[0] != 0;
    snprintf(why, cap, "%s", w->full);
    pthread_mutex_unlock(&w->lock);
    return full;
}

local_worker *local_worker_start(sched *s, const local_worker_options *o, char *err, size_t errlen)
{
    local_worker *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sched_local sl;
    sched_local_of(s, &sl);
    w->interrupted = o->stop;
    w->stop_on_disk_full = o->stop_on_disk_full;
    pthread_mutex_init(&w->lock, NULL);
    worker_options *wo = &w->o;
    *wo = (worker_options){.zmq_ctx = sl.zmq_ctx, .endpoint = sl.endpoint, .name = "local:0",
                           .workdir = sl.workdir, .transcript_dir = sl.transcript_dir,
                           .slots = o->slots, .heartbeat_ms = sl.heartbeat_ms,
                           .heartbeat_misses = sl.heartbeat_misses, .stop_now = &w->stop_now,
                           .public_key = sl.public_key, .secret_key = sl.secret_key, .server_key = sl.server_key,
                           .disk_full = on_disk_full, .disk_full_ctx = w};
    if (live_choose_sandbox(&wo->live, o->sandbox, o->allow_unsandboxed, "--allow-unsandboxed", err, errlen) != 0) {
        free(w);
        return NULL;
    }
    int nh = 0;
    wo->live.hide[nh++] = o->state_dir;   /* the record, transcripts; the bots' own dirs are bound back */
    if (sl.workdir_apart)
        wo->live.hide[nh++] = sl.workdir;
    /* The entrants' files where the organiser keeps them: a bot gets its
     * own program from the cache (by digest, like a remote worker), and
     * sees no other entrant's. */
    if (bundle_hideable_tree(o->hide_tree)) {
        wo->live.hide[nh++] = o->hide_tree;
        wo->fetch_programs = true;
    }
    if (pthread_create(&w->thread, NULL, worker_main, wo) != 0) {
        snprintf(err, errlen, "cannot start the local worker");
        free(w);
        return NULL;
    }
    return w;
}

void local_worker_stop(local_worker *w, sched *s)
{
    if (!w)
        return;
    bool interrupted = w->interrupted && __atomic_load_n(w->interrupted, __ATOMIC_RELAXED);
    sched_release_workers(s);
    if (interrupted || sched_workers(s) == 0)
        __atomic_store_n(&w->stop_now, 1, __ATOMIC_RELAXED);
    if (interrupted) {
        pthread_detach(w->thread);   /* the process is about to end; its bots die with it */
        return;                      /* w stays: the thread still reads it */
    }
    /* it drains: nothing is in hand at the end of a tournament */
    for (int k = 0; k < 50 && pthread_tryjoin_np(w->thread, NULL) != 0; k++) {
        char e[64];
        sched_serve(s, 100, e, sizeof e);
    }
    __atomic_store_n(&w->stop_now, 1, __ATOMIC_RELAXED);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

int local_run_tournament(const local_run *l, const sched_tournament_options *o, sched_outcome *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int slots = l->workers < 0 ? 0 : l->workers > ARB_WORKER_MAX_SLOTS ? ARB_WORKER_MAX_SLOTS : l->workers;
    if (slots == 0 && !l->listen)
        slots = 1;   /* nobody else could play */
    void *ctx = zmq_ctx_new();
    if (!ctx) {
        snprintf(err, errlen, "cannot make a ZeroMQ context");
        return ARB_EIO;
    }
    sched_options so = {.db = l->db, .state_dir = l->state_dir, .zmq_ctx = ctx, .stop = l->stop,
                        .listen = l->listen, .secret_key = l->secret_key, .public_key = l->public_key,
                        .worker_keys = l->worker_keys, .nworker_keys = l->nworker_keys,
                        .lease_s = l->lease_secs > 0 ? l->lease_secs : 60};
    sched *s = sched_new(&so, err, errlen);
    if (!s) {
        zmq_ctx_term(ctx);
        return ARB_EIO;
    }
    local_worker *w = NULL;
    if (slots > 0) {
        local_worker_options lo = {.slots = slots, .sandbox = l->sandbox, .allow_unsandboxed = l->allow_unsandboxed,
                                   .state_dir = l->state_dir, .hide_tree = o->cfg->files_root, .stop = l->stop,
                                   .stop_on_disk_full = true};
        if (!(w = local_worker_start(s, &lo, err, errlen))) {
            sched_free(s);
            zmq_ctx_term(ctx);
            return ARB_ESANDBOX;
        }
    }
    int rc = sched_tournament(s, o, out, err, errlen);
    char full[512];
    if (rc == 0 && local_worker_disk_full(w, full, sizeof full)) {
        /* stopped, not interrupted: the operator frees space and resumes */
        snprintf(err, errlen, "the state directory %s is on a full disk: %s; nothing recorded is lost: free space "
                 "there and run the same command to resume", l->state_dir, full);
        rc = ARB_EDISKFULL;
    }
    bool interrupted = l->stop && __atomic_load_n(l->stop, __ATOMIC_RELAXED);
    local_worker_stop(w, s);
    sched_free(s);
    /* a worker abandoned on an interrupt may still hold sockets: the
     * context ends with the process */
    if (!interrupted || !w)
        zmq_ctx_term(ctx);
    return rc;
}
