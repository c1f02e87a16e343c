/* pool.c — the scheduler's pool of referee workers (sched_int.h): the
 * ROUTER, hellos and heartbeats, frame budgets per identity, the leases
 * each worker holds, the timers and the event pump. */
#include "sched_int.h"
#include "pgctl.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_log.h"
#include "arb_time.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *SUB = SCHED_SUB;

sched_stats *sched_stats_of(sched *s) { return &s->st; }
const char *sched_endpoint(const sched *s) { return s->endpoint; }

/* ---- Sending ----------------------------------------------------------- */

int sched__send_to(sched *s, const uint8_t *rid, size_t ridlen, uint8_t *frame, size_t len)
{
    int rc = 0;
    if (zmq_send(s->router, rid, ridlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0
        || zmq_send(s->router, frame, len, ZMQ_DONTWAIT) != (int)len)
        rc = ARB_EIO;   /* unroutable (ZMQ_ROUTER_MANDATORY) or slow: treated as gone */
    free(frame);
    return rc;
}

static peer *find_peer(sched *s, const char *id)
{
    for (int i = 0; i < s->npeers; i++)
        if (strcmp(s->peers[i].id, id) == 0)
            return &s->peers[i];
    return NULL;
}

void sched__peer_send(sched *s, peer *p, uint8_t *frame, size_t len)
{
    if (sched__send_to(s, p->rid, p->ridlen, frame, len) != 0)
        p->dead = true;
}

static void update_pool_gauges(sched *s)
{
    int slots = 0;
    for (int i = 0; i < s->npeers; i++)
        slots += s->peers[i].slots;
    atomic_store(&s->st.workers, s->npeers);
    atomic_store(&s->st.slots, slots);
}

/* The worker's row: its counters add what this connection counted since
 * the last write, so they add up over its reconnections and the
 * scheduler's restarts (a row written over with this connection's own
 * counts showed "lost 0" after ten leases lost). */
static void pool_row(sched *s, peer *p, const char *state)
{
    if (store_worker(s->o.db, p->id, p->slots, state, p->nheld, p->done - p->done_rec, p->lost - p->lost_rec,
                     p->handed_back - p->back_rec) == 0) {
        p->done_rec = p->done;
        p->lost_rec = p->lost;
        p->back_rec = p->handed_back;
    }
}

/* A worker is gone (silent, unroutable): its leases go back to the queue,
 * each only if still held under the generation it was given. */
static void peer_gone(sched *s, peer *p, const char *why)
{
    int back = 0;
    for (int i = 0; i < p->nheld; i++) {
        if (store_release(s->o.db, p->held[i].m.id, p->held[i].m.lease_gen, p->id) == 1) {
            back++;
            char detail[256];
            snprintf(detail, sizeof detail, "match %" PRId64 " generation %d: worker %s %s", p->held[i].m.id,
                     p->held[i].m.lease_gen, p->id, why);
            store_match_event(s->o.db, p->held[i].m.id, "lease-expired", detail);
        }
    }
    p->lost += back;
    atomic_fetch_add(&s->st.leases_expired, (unsigned long long)back);
    /* After STOP (sched_release_workers) a worker is expected to leave:
     * worth a warning only when it takes leases with it. */
    if (s->released && back == 0)
        arb_info(SUB, "worker %s left after it was told to stop (%s)", p->id, why);
    else
        arb_warn(SUB, "worker %s is gone (%s): %d leases back to the queue", p->id, why, back);
    p->nheld = 0;
    pool_row(s, p, "gone");
    free(p->held);
    *p = s->peers[--s->npeers];
    update_pool_gauges(s);
}

held *sched__find_held(peer *p, int64_t id, int gen)
{
    for (int i = 0; i < p->nheld; i++)
        if (p->held[i].m.id == id && (gen < 0 || p->held[i].m.lease_gen == gen))
            return &p->held[i];
    return NULL;
}

void sched__drop_held(peer *p, held *h)
{
    *h = p->held[--p->nheld];
}

/* What a worker says it holds against what we think it holds: leases it
 * holds that we do not know (we restarted) are adopted if the record still
 * has them under that generation; leases we gave it that it does not name
 * (and were not given just now, still in flight) are lost: back to the
 * queue. */
static void reconcile(sched *s, peer *p, const wire_lease *run, int n)
{
    uint64_t now = arb_now_ns(), grace = 2ull * (uint64_t)s->hb_ms * 1000000u;
    for (int i = 0; i < n; i++) {
        if (sched__find_held(p, run[i].match_id, run[i].gen) || p->nheld >= ARB_WORKER_MAX_SLOTS)
            continue;
        store_match m;
        if (store_adopt(s->o.db, run[i].match_id, run[i].gen, p->id, s->lease_s, &m) == 1) {
            p->held[p->nheld++] = (held){.m = m, .since_ns = now};
            arb_info(SUB, "worker %s: match %" PRId64 " generation %d adopted", p->id, m.id, m.lease_gen);
        }
    }
    for (int i = 0; i < p->nheld; i++) {
        bool named = false;
        for (int k = 0; k < n && !named; k++)
            named = run[k].match_id == p->held[i].m.id && run[k].gen == p->held[i].m.lease_gen;
        if (named || now - p->held[i].since_ns < grace)
            continue;
        if (store_release(s->o.db, p->held[i].m.id, p->held[i].m.lease_gen, p->id) == 1) {
            atomic_fetch_add(&s->st.leases_expired, 1);
            p->lost++;
            /* filed like a silent worker's: a worker restarted under the
             * same key comes back at once and names none of them */
            char detail[256];
            snprintf(detail, sizeof detail, "match %" PRId64 " generation %d: worker %s no longer holds it",
                     p->held[i].m.id, p->held[i].m.lease_gen, p->id);
            store_match_event(s->o.db, p->held[i].m.id, "lease-expired", detail);
        }
        arb_warn(SUB, "worker %s no longer holds match %" PRId64 ": back to the queue", p->id, p->held[i].m.id);
        sched__drop_held(p, &p->held[i]);
        i--;
    }
}
/* ---- Messages ---------------------------------------------------------- */

/* "Say hello again", at most once per heartbeat period per identity: a
 * stranger's every frame would otherwise be answered, and each answer
 * makes a worker repeat itself. */
static void rehello(sched *s, const sender *from, budget *b)
{
    uint8_t *f;
    size_t len;
    uint64_t now = arb_now_ns();
    if (b && now < b->next_rehello)
        return;
    if (b)
        b->next_rehello = now + (uint64_t)s->hb_ms * 1000000u;
    if (wire_rehello(&f, &len) == 0)
        sched__send_to(s, from->rid, from->ridlen, f, len);
}

static void on_hello(sched *s, const sender *from, const uint8_t *data, size_t n)
{
    int version, slots, nrun;
    char name[ARB_WORKER_ID_MAX + 1];
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    uint8_t *f;
    size_t len;
    uint8_t sign_pk[32];
    int rc = wire_decode_hello(data, n, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &nrun,
                               sign_pk);
    if (rc == ARB_EUNSUPPORTED) {
        char why[160];
        snprintf(why, sizeof why, "protocol version %d is not spoken here (this scheduler speaks %d)", version,
                 WIRE_VERSION);
        if (wire_refuse(why, &f, &len) == 0)
            sched__send_to(s, from->rid, from->ridlen, f, len);
        atomic_fetch_add(&s->st.refused, 1);
        arb_warn(SUB, "worker %s refused: %s", from->id, why);
        return;
    }
    if (rc) {
        atomic_fetch_add(&s->st.malformed, 1);
        return;
    }
    /* The identity wins over the name a hello gives (logged once per hello). */
    if (strcmp(name, from->id) != 0)
        arb_info(SUB, "worker %s says it is \"%s\": known by its key as %s", from->id, name, from->id);
    peer *p = find_peer(s, from->id);
    if (!p) {
        if (s->npeers == ARB_POOL_MAX_WORKERS) {
            if (wire_refuse("the pool is full", &f, &len) == 0)
                sched__send_to(s, from->rid, from->ridlen, f, len);
            atomic_fetch_add(&s->st.refused, 1);
            return;
        }
        p = &s->peers[s->npeers];
        *p = (peer){0};
        p->held = calloc(ARB_WORKER_MAX_SLOTS, sizeof *p->held);
        if (!p->held)
            return;
        snprintf(p->id, sizeof p->id, "%s", from->id);
        p->local = strncmp(from->id, "local:", 6) == 0;
        s->npeers++;
        arb_info(SUB, "worker %s joined with %d slots, %d matches in hand", from->id, slots, nrun);
    } else if (p->ridlen != from->ridlen || memcmp(p->rid, from->rid, from->ridlen) != 0) {
        /* A second connection of the same key: the newest hello wins (a
         * worker that reconnected); the leases stay with the identity. */
        arb_info(SUB, "worker %s said hello on a new connection: it replaces the old one", from->id);
    }
    memcpy(p->rid, from->rid, from->ridlen);
    p->ridlen = from->ridlen;
    /* The key its transcripts are signed with: announced over the
     * connection its CURVE key authenticated, so no other worker can
     * announce one for it; a hello from a new process may bring a new one. */
    if (memcmp(p->sign_pk, sign_pk, sizeof sign_pk) != 0) {
        char hex[65];
        arb_key_hex(sign_pk, hex);
        arb_info(SUB, "worker %s signs transcripts with ed25519 key %s", from->id, hex);
        memcpy(p->sign_pk, sign_pk, sizeof sign_pk);
    }
    p->slots = slots;
    p->free_reported = slots - nrun;
    p->draining = false;   /* a hello is a new process */
    p->last_heard = arb_now_ns();
    p->dead = false;
    reconcile(s, p, run, nrun);
    if (wire_welcome(s->hb_ms, &f, &len) == 0)
        sched__peer_send(s, p, f, len);
    pool_row(s, p, "connected");
    char key_hex[65];
    arb_key_hex(p->sign_pk, key_hex);
    store_worker_key(s->o.db, p->id, key_hex);   /* after the row: it may be new */
    update_pool_gauges(s);
}

static void on_heartbeat(sched *s, peer *p, const uint8_t *data, size_t n)
{
    int fr, nrun;
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    if (wire_decode_heartbeat(data, n, &fr, run, ARB_WORKER_MAX_SLOTS, &nrun) != 0 || fr < 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        return;
    }
    p->free_reported = fr;
    /* 0 free with slots idle is a referee draining (SIGTERM): it never
     * takes a match again, so a result it sends later opens no slot (a
     * match assigned then would cross its exit and be lost) */
    if (fr == 0 && nrun < p->slots)
        p->draining = true;
    reconcile(s, p, run, nrun);
}

static void on_progress(sched *s, peer *p, const uint8_t *data, size_t n)
{
    wire_progress_info pi;
    if (wire_decode_progress(data, n, &pi) != 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        return;
    }
    held *h = sched__find_held(p, pi.match_id, pi.gen);   /* only the holder's progress counts */
    if (!h)
        return;
    /* cumulative per match: count what is new */
    if (pi.decisions > h->prog.decisions)
        atomic_fetch_add(&s->st.decisions, pi.decisions - h->prog.decisions);
    if (pi.timeouts > h->prog.timeouts)
        atomic_fetch_add(&s->st.timeouts, pi.timeouts - h->prog.timeouts);
    if (pi.penalties > h->prog.penalties)
        atomic_fetch_add(&s->st.penalties, pi.penalties - h->prog.penalties);
    h->prog = pi;
}

/* A hand-back: the lease returns to the queue only if the sender holds it
 * (p NULL: a worker we do not know yet; the record decides). */
static void on_release(sched *s, const sender *from, peer *p, const uint8_t *data, size_t n)
{
    int64_t id;
    int gen;
    char why[ARB_WIRE_MAX_TEXT + 1];
    if (wire_decode_release(data, n, &id, &gen, why, sizeof why) != 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        return;
    }
    held *h = p ? sched__find_held(p, id, gen) : NULL;
    if (h)   /* before the pool's row is written: it counts what is still running */
        sched__drop_held(p, h);
    if (store_release(s->o.db, id, gen, from->id) == 1) {
        atomic_fetch_add(&s->st.released, 1);
        arb_info(SUB, "worker %s handed back match %" PRId64 ": %s", from->id, id, why);
        if (p) {
            p->handed_back++;
            pool_row(s, p, p->draining ? "draining" : "connected");
        }
    }
}

/* The frame budget of an identity (created on its first frame; when the
 * table is full the longest idle one is reused). */
static budget *budget_of(sched *s, const char *id)
{
    budget *oldest = NULL;
    for (int i = 0; i < s->nbudgets; i++) {
        if (strcmp(s->budgets[i].id, id) == 0)
            return &s->budgets[i];
        if (!oldest || s->budgets[i].last_ns < oldest->last_ns)
            oldest = &s->budgets[i];
    }
    budget *b = s->nbudgets < ARB_WORKER_BUDGETS ? &s->budgets[s->nbudgets++] : oldest;
    *b = (budget){.tokens = ARB_WORKER_FRAME_BURST, .last_ns = arb_now_ns()};
    snprintf(b->id, sizeof b->id, "%s", id);
    return b;
}

/* One frame more from this identity: false when it is over its budget. */
static bool within_budget(sched *s, budget *b)
{
    uint64_t now = arb_now_ns();
    b->tokens += (double)(now - b->last_ns) / 1e9 * ARB_WORKER_FRAMES_PER_S;
    if (b->tokens > ARB_WORKER_FRAME_BURST)
        b->tokens = ARB_WORKER_FRAME_BURST;
    b->last_ns = now;
    if (b->tokens >= 1) {
        b->tokens -= 1;
        if (b->dropped) {
            arb_warn(SUB, "worker %s: %" PRIu64 " frames over its budget of %d a second were dropped", b->id,
                     b->dropped, ARB_WORKER_FRAMES_PER_S);
            b->dropped = 0;
        }
        return true;
    }
    b->dropped++;
    atomic_fetch_add(&s->st.flooded, 1);
    return false;
}

/* The identity of a frame: the ZAP User-Id of its connection (CURVE: the
 * key it was admitted as); over inproc, where only this process's own
 * worker can connect, its routing id. false: no identity (dropped). */
static bool identity_of(sched *s, zmq_msg_t *msg, const uint8_t *rid, size_t ridlen, char *id, size_t cap)
{
    if (s->zapper) {
        const char *uid = zmq_msg_gets(msg, "User-Id");
        if (ridlen < WIRE_ROUTING_ID_BYTES)
            return false;   /* a guessable route (docs/security.md) */
        /* our own ZAP handler's answer: a key's name, or "key:" and its
         * Z85 (printable, no blank, quote or backslash) */
        if (!uid || !uid[0] || strlen(uid) > ZAP_ID_MAX)
            return false;
        snprintf(id, cap, "%s", uid);
        return true;
    }
    if (ridlen == 0 || ridlen >= cap)
        return false;
    memcpy(id, rid, ridlen);
    id[ridlen] = 0;
    return strlen(id) == ridlen && wire_valid_name(id);
}

/* One message from the router: routing id and frame. */
static int handle(sched *s, char *err, size_t errlen)
{
    zmq_msg_t ridm, msg;
    zmq_msg_init(&ridm);
    if (zmq_msg_recv(&ridm, s->router, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&ridm);
        return 1;   /* nothing more */
    }
    zmq_msg_init(&msg);
    int more = 0, rc = 0;
    size_t ml = sizeof more;
    zmq_getsockopt(s->router, ZMQ_RCVMORE, &more, &ml);
    int n = more ? zmq_msg_recv(&msg, s->router, 0) : -1;
    /* anything after the one frame is not ours: drained */
    zmq_getsockopt(s->router, ZMQ_RCVMORE, &more, &ml);
    bool extra = false;
    while (more) {
        zmq_msg_t x;
        zmq_msg_init(&x);
        zmq_msg_recv(&x, s->router, 0);
        zmq_msg_close(&x);
        zmq_getsockopt(s->router, ZMQ_RCVMORE, &more, &ml);
        extra = true;
    }
    char id[ZAP_ID_MAX + 1];
    sender from = {.id = id, .rid = zmq_msg_data(&ridm), .ridlen = zmq_msg_size(&ridm)};
    if (n < 0 || !identity_of(s, &msg, from.rid, from.ridlen, id, sizeof id)) {
        atomic_fetch_add(&s->st.malformed, 1);
        goto out;
    }
    budget *b = budget_of(s, id);
    if (!within_budget(s, b))
        goto out;   /* a flood: not even decoded */
    const uint8_t *data = zmq_msg_data(&msg);
    int kind = n > 0 && !extra ? wire_kind_of(data, (size_t)n) : ARB_ECORRUPT;
    peer *p = find_peer(s, id);
    if (p)
        p->last_heard = arb_now_ns();
    switch (kind) {
    case WIRE_HELLO:
        on_hello(s, &from, data, (size_t)n);
        break;
    case WIRE_RESULT:
        rc = sched__on_result(s, &from, p, data, (size_t)n, err, errlen);
        if (!p)
            rehello(s, &from, b);
        break;
    case WIRE_TRANSCRIPT:
        sched__on_chunk(s, &from, p, data, (size_t)n);
        break;
    case WIRE_RELEASE:
        on_release(s, &from, p, data, (size_t)n);
        if (!p)
            rehello(s, &from, b);
        break;
    case WIRE_HEARTBEAT:
    case WIRE_PROGRESS:
        if (!p)
            rehello(s, &from, b);   /* we restarted, or it was given up for silent */
        else if (kind == WIRE_HEARTBEAT)
            on_heartbeat(s, p, data, (size_t)n);
        else
            on_progress(s, p, data, (size_t)n);
        break;
    case WIRE_FETCH: {
        char digest[65];
        if (wire_decode_fetch(data, (size_t)n, digest) == 0)
            sched__serve_program(s, &from, digest);
        else
            atomic_fetch_add(&s->st.malformed, 1);
        break;
    }
    default:   /* malformed, or a scheduler's message: counted and dropped, never fatal */
        atomic_fetch_add(&s->st.malformed, 1);
        arb_debug(SUB, "frame of %d bytes from %s dropped (kind %d)", n, id, kind);
    }
out:
    zmq_msg_close(&msg);
    zmq_msg_close(&ridm);
    return rc;
}

/* Heartbeats out, silent workers given up, leases renewed, the pool row
 * and the decision rate updated — each on its own period. */
static void timers(sched *s)
{
    uint64_t now = arb_now_ns(), hb = (uint64_t)s->hb_ms * 1000000u;
    if (now >= s->next_hb) {
        s->next_hb = now + hb;
        for (int i = 0; i < s->npeers; i++) {
            uint8_t *f;
            size_t len;
            if (wire_heartbeat(-1, NULL, 0, &f, &len) == 0)
                sched__peer_send(s, &s->peers[i], f, len);
        }
        for (int i = 0; i < s->npeers; i++) {
            peer *p = &s->peers[i];
            char why[96];
            if (p->dead || now - p->last_heard > hb * (uint64_t)s->misses) {
                snprintf(why, sizeof why, p->dead ? "unroutable" : "silent for %d heartbeats", s->misses);
                peer_gone(s, p, why);
                i--;
            }
        }
    }
    if (now >= s->next_renew) {
        s->next_renew = now + (uint64_t)s->lease_s * 1000000000u / 3;
        for (int i = 0; i < s->npeers; i++) {
            peer *p = &s->peers[i];
            for (int k = 0; k < p->nheld; k++)
                if (store_renew(s->o.db, &p->held[k].m, s->lease_s) == ARB_ESTATE) {
                    sched__drop_held(p, &p->held[k]);   /* the lease moved on */
                    k--;
                }
        }
    }
    if (now >= s->next_pool) {
        s->next_pool = now + 2000000000u;
        sched__expire_transcripts(s, now);
        for (int i = 0; i < s->npeers; i++)
            pool_row(s, &s->peers[i], s->peers[i].free_reported == 0 && s->peers[i].nheld < s->peers[i].slots
                                              ? "draining" : "connected");
    }
    if (now >= s->next_dps) {
        s->next_dps = now + 1000000000u;
        uint64_t total = atomic_load(&s->st.decisions);
        uint64_t old = s->dps_ring[s->dps_i];
        s->dps_ring[s->dps_i] = total;
        s->dps_i = (s->dps_i + 1) % DPS_WINDOW;
        if (old)
            atomic_store(&s->st.decisions_per_s_x1000, (total - old) * 1000 / DPS_WINDOW);
    }
}

int sched__pump(sched *s, int ms, char *err, size_t errlen)
{
    if (s->zapper && !zap_alive(s->zapper)) {
        /* without its gatekeeper the pool would admit anyone */
        snprintf(err, errlen, "the ZAP handler stopped: the scheduler stops");
        return ARB_ESTATE;   /* not the database's: nothing to wait out */
    }
    zmq_pollitem_t item = {s->router, 0, ZMQ_POLLIN, 0};
    int rc = 0;
    if (zmq_poll(&item, 1, ms) > 0)
        for (int k = 0; k < 1000 && rc == 0; k++) {
            int r = handle(s, err, errlen);
            if (r == 1)
                break;
            rc = r;
        }
    timers(s);
    return rc;
}

int sched_serve(sched *s, int ms, char *err, size_t errlen)
{
    uint64_t end = arb_now_ns() + (uint64_t)ms * 1000000u;
    int rc = 0;
    while (rc == 0 && arb_now_ns() < end && !(s->o.stop && __atomic_load_n(s->o.stop, __ATOMIC_RELAXED)))
        rc = sched__pump(s, 100, err, errlen);
    return rc;
}

/* ---- The pool ---------------------------------------------------------- */

sched *sched_new(const sched_options *o, char *err, size_t errlen)
{
    sched *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->o = *o;
    s->hb_ms = o->heartbeat_ms > 0 ? o->heartbeat_ms : 1000;
    s->misses = o->heartbeat_misses > 0 ? o->heartbeat_misses : 5;
    s->lease_s = o->lease_s > 0 ? o->lease_s : 60;
    s->peers = calloc(ARB_POOL_MAX_WORKERS, sizeof *s->peers);
    s->budgets = calloc(ARB_WORKER_BUDGETS, sizeof *s->budgets);
    s->progs = calloc(ARB_POOL_MAX_PROGRAMS, sizeof *s->progs);
    s->ctx = o->zmq_ctx ? o->zmq_ctx : zmq_ctx_new();
    s->router = s->ctx ? zmq_socket(s->ctx, ZMQ_ROUTER) : NULL;
    if (!s->peers || !s->budgets || !s->progs || !s->router) {
        snprintf(err, errlen, "out of memory or ZeroMQ unavailable");
        goto fail;
    }
    int one = 1, linger = 0, hwm = 100000, rcvhwm = ARB_WORKER_RCVHWM;
    int64_t max = ARB_WIRE_MAX_FRAME;
    zmq_setsockopt(s->router, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    /* No handover: a connection naming a routing id in use is refused, so
     * no one takes another's route (workers pick 16 random bytes per
     * connection, WIRE_ROUTING_ID_BYTES; a reconnection is a new id). */
    zmq_setsockopt(s->router, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(s->router, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s->router, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(s->router, ZMQ_RCVHWM, &rcvhwm, sizeof rcvhwm);
    snprintf(s->endpoint, sizeof s->endpoint, "inproc://arbiter-%d-%p", (int)getpid(), (void *)s);
    /* Remote workers: the ZAP handler first (without it libzmq admits any
     * key), then CURVE, then the bind. The local worker gets a key of its
     * own, listed with the others. */
    if (o->listen) {
        const char *keys[ARB_ZAP_MAX_KEYS + 1];
        char local_entry[ZAP_KEY_TEXT + 16];
        int nk = 0;
        if (zap_keygen(s->lpub, s->lsec) != 0) {
            snprintf(err, errlen, "no CURVE in this libzmq");
            goto fail;
        }
        /* the local worker's identity is fixed; no listed key may take it */
        snprintf(local_entry, sizeof local_entry, "%s local:0", s->lpub);
        keys[nk++] = local_entry;
        for (int i = 0; i < o->nworker_keys && nk < ARB_ZAP_MAX_KEYS; i++) {
            const char *name = strpbrk(o->worker_keys[i], " \t");
            if (name && strstr(name, "local:")) {
                snprintf(err, errlen, "worker key %d: names starting with \"local:\" are the scheduler's own", i + 1);
                goto fail;
            }
            keys[nk++] = o->worker_keys[i];
        }
        s->zapper = zap_start(s->ctx, keys, nk, err, errlen);
        if (!s->zapper || zap_curve_server(s->router, o->secret_key) != 0)
            goto fail;
        snprintf(s->endpoint, sizeof s->endpoint, "%s", o->listen);
    }
    if (zmq_bind(s->router, s->endpoint) != 0) {
        snprintf(err, errlen, "cannot listen on %s: %s", s->endpoint, zmq_strerror(errno));
        goto fail;
    }
    if (o->listen) {
        size_t elen = sizeof s->endpoint;
        zmq_getsockopt(s->router, ZMQ_LAST_ENDPOINT, s->endpoint, &elen);   /* a wildcard port, resolved */
    }
    store_workers_reset(o->db);
    /* bots under uids of their own must reach it: outside a state
     * directory under a 0700 ancestor (pgctl.h) */
    bool wdir_apart = pgctl_side_dir(o->state_dir, "work", s->wdir, sizeof s->wdir);
    mkdir(s->wdir, 0711);
    /* The local worker writes its transcripts here (names it chooses from
     * the match id); they hold every hand: 0700, hidden in the sandbox. */
    snprintf(s->tdir, sizeof s->tdir, "%s/transcripts", o->state_dir);
    mkdir(s->tdir, 0700);
    s->wdir_apart = wdir_apart;
    return s;
fail:
    sched_free(s);
    return NULL;
}

void sched_release_workers(sched *s)
{
    if (s->released)
        return;
    s->released = true;
    bool interrupted = s->o.stop && __atomic_load_n(s->o.stop, __ATOMIC_RELAXED);
    /* Workers of this process leave; remote workers leave too when this
     * was a one-shot run (arbiter run --listen), not when a daemon stops
     * (they wait for the next scheduler and resend to it). */
    for (int i = 0; i < s->npeers; i++) {
        uint8_t *f;
        size_t len;
        if ((s->peers[i].local || !s->o.keep_remote) && !interrupted && wire_stop(&f, &len) == 0)
            sched__send_to(s, s->peers[i].rid, s->peers[i].ridlen, f, len);
    }
}

int sched_workers(const sched *s) { return s->npeers; }

void sched_local_of(const sched *s, sched_local *out)
{
    *out = (sched_local){.zmq_ctx = s->ctx, .endpoint = s->endpoint, .workdir = s->wdir,
                         .transcript_dir = s->tdir, .workdir_apart = s->wdir_apart,
                         .heartbeat_ms = s->hb_ms, .heartbeat_misses = s->misses};
    if (s->o.listen) {
        out->public_key = s->lpub;
        out->secret_key = s->lsec;
        out->server_key = s->o.public_key;
    }
}

void sched_free(sched *s)
{
    if (!s)
        return;
    sched_release_workers(s);
    for (int i = 0; i < s->npeers; i++) {
        pool_row(s, &s->peers[i], "gone");
        free(s->peers[i].held);
    }
    if (s->router)
        zmq_close(s->router);
    if (s->zapper)
        zap_stop(s->zapper);
    if (s->ctx && !s->o.zmq_ctx)   /* a context of the caller's is the caller's */
        zmq_ctx_term(s->ctx);
    sched__free_transcripts(s);
    for (int i = 0; i < s->nprogs; i++) {
        free(s->progs[i].files);
        free(s->progs[i].tree);
    }
    free(s->progs);
    free(s->budgets);
    free(s->peers);
    free(s);
}
