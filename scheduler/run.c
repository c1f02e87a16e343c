/* run.c — the scheduler loop of `arbiter run` (run.h). */
#include "run.h"
#include "plan.h"
#include "worker.h"
#include "zap.h"
#include "wire.h"
#include "arb_error.h"
#include "arb_time.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#define MAX_WORKERS 256
#define LEASE_SECS 3600     /* local workers: a lease outlives any sane match; a restart releases ours */
#define MAX_TABLES 100000

typedef struct slot {
    char     id[64];       /* the worker's ZeroMQ identity */
    bool     busy;
    st_match match;
} slot;

typedef struct worker_thread {
    pthread_t thread;
    worker_options opt;
    char name[64];
} worker_thread;

static void *worker_main(void *arg)
{
    worker_thread *w = arg;
    worker_run(&w->opt);
    return NULL;
}

static int send_to(void *router, const char *id, uint8_t *frame, size_t len)
{
    int rc = 0;
    if (zmq_send(router, id, strlen(id), ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0
        || zmq_send(router, frame, len, ZMQ_DONTWAIT) != (int)len)
        rc = ARB_EIO;   /* unroutable (ZMQ_ROUTER_MANDATORY) or slow: treated as gone */
    free(frame);
    return rc;
}

static slot *find_slot(slot *slots, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(slots[i].id, id) == 0)
            return &slots[i];
    return NULL;
}

/* The assignment for a claimed match: its bots from the entrants' commands,
 * the tournament's rules and clocks, a seed of its own. */
static int make_assign(const run_options *o, const st_match *m, const char *base, wire_assign *a,
                       char *err, size_t errlen)
{
    const tn_config *cfg = o->cfg;
    memset(a, 0, sizeof *a);
    a->match_id = m->id;
    a->lease_gen = m->lease_gen;
    match_config *c = &a->cfg;
    match_config_init(c, cfg->game);
    snprintf(c->preset, sizeof c->preset, "%s", cfg->rules);
    snprintf(c->options, sizeof c->options, "%s", cfg->options);
    c->seed = m->seed;
    c->deals = cfg->deals;
    c->duplicate = cfg->duplicate;
    c->move_ms = cfg->move_ms;
    c->deal_ms = cfg->deal_ms;
    c->bank_ms = cfg->bank_ms;
    c->startup_ms = cfg->startup_ms;
    c->policy = cfg->policy;
    c->strikes = cfg->strikes;
    c->forfeit_points = cfg->forfeit_points;
    c->nbots = m->nslots;
    for (int b = 0; b < m->nslots; b++) {
        const tn_entrant *e = &cfg->entrants[m->entrant[b]];
        int rc = live_bot_command(&c->bots[b], e->name, e->command, base, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

static void describe(const tn_config *cfg, const st_match *m, const match_result *res, char *buf, size_t len)
{
    int order[ARB_MAX_SEATS], n = res->nbots;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && res->bots[order[j]].rank < res->bots[order[j - 1]].rank; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    size_t k = 0;
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s %+" PRId64, i ? " > " : "",
                              cfg->entrants[m->entrant[order[i]]].name, res->bots[order[i]].total);
}

int run_tournament(const run_options *o, run_outcome *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const tn_config *cfg = o->cfg;
    store *db = o->db;
    bool created;
    int rc = store_tournament(db, cfg, o->yaml, o->digest, &out->tid, &created, err, errlen);
    if (rc)
        return rc;
    out->resumed = !created;
    /* Our previous run's workers are gone: their leases go back. */
    store_release_leases(db, out->tid, "local:");

    char base[512], dirbuf[512], tdir[700], wdir[700];
    snprintf(dirbuf, sizeof dirbuf, "%s", cfg->path);
    snprintf(base, sizeof base, "%s", dirname(dirbuf));
    /* Transcripts hold every hand: 0700, and hidden inside the sandbox. */
    snprintf(tdir, sizeof tdir, "%s/transcripts", o->state_dir);
    mkdir(tdir, 0700);
    snprintf(tdir, sizeof tdir, "%s/transcripts/%" PRId64, o->state_dir, out->tid);
    mkdir(tdir, 0700);
    snprintf(wdir, sizeof wdir, "%s/work", o->state_dir);
    mkdir(wdir, 0711);

    st_table *tables = calloc(MAX_TABLES, sizeof *tables);
    slot *slots = calloc(MAX_WORKERS, sizeof *slots);
    worker_thread *threads = calloc(MAX_WORKERS, sizeof *threads);
    void *ctx = zmq_ctx_new();
    void *router = ctx ? zmq_socket(ctx, ZMQ_ROUTER) : NULL;
    int nworkers = o->workers < 0 ? 0 : o->workers > MAX_WORKERS ? MAX_WORKERS : o->workers;
    if (nworkers == 0 && !o->listen)
        nworkers = 1;   /* nobody else could play */
    zap *zapper = NULL;
    int started = 0, nslots = 0;
    rc = 0;
    if (!tables || !slots || !threads || !router) {
        snprintf(err, errlen, "out of memory or ZeroMQ unavailable");
        rc = ARB_ENOMEM;
        goto out;
    }
    int one = 1, linger = 0;
    int64_t max = WIRE_MAX_FRAME;
    zmq_setsockopt(router, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(router, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(router, ZMQ_LINGER, &linger, sizeof linger);
    char endpoint[256];
    snprintf(endpoint, sizeof endpoint, "inproc://arbiter-%d", (int)getpid());
    /* Remote workers: the ZAP handler first (without it libzmq admits any
     * key), then CURVE, then the bind. Local workers get a key of their
     * own, listed with the others. */
    char lpub[ZAP_KEY_TEXT] = "", lsec[ZAP_KEY_TEXT] = "";
    if (o->listen) {
        const char *keys[ZAP_MAX_KEYS + 1];
        int nk = 0;
        if (zap_keygen(lpub, lsec) != 0) {
            snprintf(err, errlen, "no CURVE in this libzmq");
            rc = ARB_EUNSUPPORTED;
            goto out;
        }
        keys[nk++] = lpub;
        for (int i = 0; i < o->nworker_keys && nk < ZAP_MAX_KEYS; i++)
            keys[nk++] = o->worker_keys[i];
        zapper = zap_start(ctx, keys, nk, err, errlen);
        if (!zapper || zap_curve_server(router, o->secret_key) != 0) {
            rc = ARB_EIO;
            goto out;
        }
        snprintf(endpoint, sizeof endpoint, "%s", o->listen);
    }
    if (zmq_bind(router, endpoint) != 0) {
        snprintf(err, errlen, "cannot listen on %s: %s", endpoint, zmq_strerror(errno));
        rc = ARB_EIO;
        goto out;
    }
    if (o->listen) {
        size_t elen = sizeof endpoint;
        zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, endpoint, &elen);   /* a wildcard port, resolved */
    }
    int lease = o->listen ? (o->lease_secs > 0 ? o->lease_secs : 600) : LEASE_SECS;
    const char *bwrap = o->sandbox == LIVE_SANDBOX_NONE ? NULL : seat_probe_bwrap(geteuid() == 0 ? 61000 : 0);
    /* Workers leave when told (WIRE_STOP) or when this flag is set: a
     * worker that has not said hello yet cannot be told. */
    static volatile sig_atomic_t workers_stop;
    workers_stop = 0;
    for (int i = 0; i < nworkers; i++) {
        worker_thread *w = &threads[i];
        snprintf(w->name, sizeof w->name, "local:%d", i);
        w->opt = (worker_options){.zmq_ctx = ctx, .endpoint = endpoint, .name = w->name, .workdir = wdir,
                                  .stop = &workers_stop};
        w->opt.live.sandbox = o->sandbox;
        if (o->listen) {
            w->opt.public_key = lpub;
            w->opt.secret_key = lsec;
            w->opt.server_key = o->public_key;
        }
        w->opt.live.bwrap = bwrap;
        w->opt.live.hide[0] = o->state_dir;   /* the record, transcripts; the bots' own dirs are bound back */
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
            break;
        started++;
    }

    int round = store_last_round(db, out->tid);
    bool done = false;
    uint64_t t0 = arb_now_ns();
    char last[512] = "";
    while (!(o->stop && *o->stop)) {
        if (zapper && !zap_alive(zapper)) {
            /* without its gatekeeper the pool would admit anyone */
            snprintf(err, errlen, "the ZAP handler stopped: the scheduler stops");
            rc = ARB_EIO;
            break;
        }
        /* The next round, when the current one is finished. */
        int p, l, d, v;
        if (store_counts(db, out->tid, round, &p, &l, &d, &v) != 0) {
            snprintf(err, errlen, "database lost");
            rc = ARB_EIO;
            break;
        }
        if (p == 0 && l == 0 && !done) {
            int nt = 0;
            const char *stage = "main";
            rc = plan_next(cfg, db, out->tid, round, tables, MAX_TABLES, &nt, &stage, &done, err, errlen);
            if (rc)
                break;
            if (!done) {
                rc = store_add_round(db, out->tid, round + 1, stage, tables, nt, cfg->seed, err, errlen);
                if (rc)
                    break;
                round++;
                continue;
            }
        }
        int busy = 0;
        for (int i = 0; i < nslots; i++)
            busy += slots[i].busy;
        if (done && busy == 0)
            break;
        /* Give idle workers a match. */
        for (int i = 0; i < nslots && !done; i++) {
            if (slots[i].busy)
                continue;
            st_match m;
            int got = store_claim(db, out->tid, slots[i].id, lease, &m, err, errlen);
            if (got < 0) {
                rc = got;
                goto stop;
            }
            if (got == 0)
                break;
            wire_assign *a = malloc(sizeof *a);
            uint8_t *frame;
            size_t len;
            if (!a || make_assign(o, &m, base, a, err, errlen) != 0) {
                store_void(db, &m, err);
                out->voided++;
                free(a);
                continue;
            }
            snprintf(a->transcript, sizeof a->transcript, "%.480s/r%d-t%d.arbt", tdir, m.round, m.tbl);
            if (wire_encode_assign(a, &frame, &len) == 0 && send_to(router, slots[i].id, frame, len) == 0) {
                slots[i].busy = true;
                slots[i].match = m;
            }
            free(a);
        }
        zmq_pollitem_t item = {router, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&item, 1, 200) <= 0)
            continue;
        char id[64];
        int idn = zmq_recv(router, id, sizeof id - 1, 0);
        if (idn < 0)
            continue;
        id[idn < (int)sizeof id - 1 ? idn : (int)sizeof id - 1] = 0;
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        int n = zmq_msg_recv(&msg, router, 0);
        const uint8_t *data = zmq_msg_data(&msg);
        int kind = n > 0 ? wire_kind_of(data, (size_t)n) : -1;
        slot *s = find_slot(slots, nslots, id);
        if (!s && nslots < MAX_WORKERS && (kind == WIRE_HELLO || kind == WIRE_RESULT)) {
            s = &slots[nslots++];
            snprintf(s->id, sizeof s->id, "%s", id);
        }
        if (kind == WIRE_RESULT && s) {
            wire_result *w = malloc(sizeof *w);
            if (w && wire_decode_result(data, (size_t)n, w) == 0) {
                st_match m = s->busy && s->match.id == w->match_id ? s->match : (st_match){0};
                if (!m.id) {
                    /* a result resent after a restart: find its match */
                    m.id = w->match_id;
                    m.lease_gen = w->lease_gen;
                }
                m.lease_gen = w->lease_gen;
                int rrc;
                if (w->ok) {
                    rrc = store_record(db, &m, &w->res, w->digest, w->transcript, err, errlen);
                } else {
                    rrc = store_void(db, &m, w->error);
                    out->voided++;
                }
                if (rrc == 0 && w->ok) {
                    out->matches++;
                    if (m.nslots)
                        describe(cfg, &m, &w->res, last, sizeof last);
                } else if (rrc == ARB_ESTATE) {
                    out->stale++;
                    store_event(db, out->tid, "stale-result", err);
                } else if (rrc) {
                    rc = rrc;
                }
                /* Acknowledge once it is in the database (or known to be
                 * there already): the worker may forget it now. */
                uint8_t *ack;
                size_t alen;
                if ((rrc == 0 || rrc == ARB_ESTATE) && wire_ack(w->match_id, w->lease_gen, &ack, &alen) == 0)
                    send_to(router, id, ack, alen);
                match_result_release(&w->res);
                if (s->match.id == w->match_id)
                    s->busy = false;
                if (o->progress) {
                    int pt, lt, dt, vt;
                    store_counts(db, out->tid, -1, &pt, &lt, &dt, &vt);
                    double el = (double)(arb_now_ns() - t0) / 1e9;
                    run_progress pr = {.round = round, .done = dt + vt, .total = pt + lt + dt + vt,
                                       .rate = el > 0 ? out->matches / el : 0, .last = last};
                    pr.eta_s = pr.rate > 0 ? (pr.total - pr.done) / pr.rate : 0;
                    o->progress(o->ctx, &pr);
                }
            }
            free(w);
            if (rc)
                { zmq_msg_close(&msg); break; }
        }
        /* HELLO: the slot is known and idle; anything else is dropped. */
        zmq_msg_close(&msg);
    }
stop:
    out->finished = done;
    if (done)
        store_finish(db, out->tid);
    /* Stop the workers: a stop for each, and for a worker mid-match the
     * thread is left to finish its match (its lease is released on the
     * next start, the match played again). */
    for (int i = 0; i < nslots; i++) {
        uint8_t *frame;
        size_t len;
        if (wire_stop(&frame, &len) == 0)
            send_to(router, slots[i].id, frame, len);
    }
out:
    workers_stop = 1;
    if (router)
        zmq_close(router);
    bool interrupted = o->stop && *o->stop;
    for (int i = 0; i < started; i++) {
        if (interrupted)
            pthread_detach(threads[i].thread);   /* the process is about to end */
        else
            pthread_join(threads[i].thread, NULL);
    }
    if (zapper)
        zap_stop(zapper);
    if (ctx && !interrupted)
        zmq_ctx_term(ctx);
    free(tables);
    free(slots);
    free(threads);
    return rc;
}
