/* run.c — the scheduler: the pool of referee workers and the tournament loop (run.h). */
#include "run.h"
#include "bundle.h"
#include "pgctl.h"
#include "plan.h"
#include "zap.h"
#include "wire.h"
#include "arb_error.h"
#include "arb_http.h"
#include "arb_limits.h"
#include "arb_log.h"
#include "arb_time.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#define DPS_WINDOW 10        /* seconds over which decisions per second are averaged */

static const char *SUB = "scheduler";

/* A lease a worker holds. */
typedef struct held {
    st_match m;
    uint64_t since_ns;       /* when it was assigned or adopted */
    wire_progress_info prog; /* the last progress heard */
} held;

/* A referee worker process of the pool: one DEALER, several slots. It is
 * known by the identity its CURVE key was admitted as (the ZAP User-Id),
 * never by a name it chooses: one key, one peer. */
typedef struct peer {
    char     id[ZAP_ID_MAX + 1];      /* its key's identity: the lease holder in the record */
    uint8_t  rid[256];                /* the routing id of its latest hello: where frames go */
    size_t   ridlen;
    int      slots, free_reported;
    held    *held;                    /* ARB_WORKER_MAX_SLOTS entries */
    int      nheld;
    uint64_t last_heard;
    int64_t  done, lost;
    bool     dead;                    /* unroutable: removed at the next sweep */
    bool     local;
} peer;

/* What one identity may still send (a token bucket of frames,
 * ARB_WORKER_FRAMES_PER_S), and when it was last told to say hello. */
typedef struct budget {
    char     id[ZAP_ID_MAX + 1];
    double   tokens;
    uint64_t last_ns;
    uint64_t next_rehello;
    uint64_t dropped;         /* frames over budget since the last warning */
} budget;

/* A program the scheduler can ship: its digest and the files it packs. */
typedef struct program {
    char digest[65];
    int  nfiles;
    char (*files)[4096];
} program;

/* One entrant's bot as every match starts it, and the files of it that a
 * worker on another host fetches. */
typedef struct entrant_bot {
    match_bot_cfg bot;
    int  nfiles;
    int  argi[ARB_MAX_BOT_ARGS];
    char rel[ARB_MAX_BOT_ARGS][ARB_BUNDLE_MAX_PATH + 1];
    char digest[65];
} entrant_bot;

/* The tournament being run. */
typedef struct tour {
    const run_options *o;
    run_outcome *out;
    int64_t tid;
    entrant_bot *bots;
    char last[512];
    int round;
    uint64_t t0;
    uint8_t secret[32];     /* the tournament's secret: match keys derive from it (docs/rng.md) */
} tour;

struct sched {
    sched_options o;
    void *ctx, *router;
    zap *zapper;
    char endpoint[256];
    int hb_ms, misses, lease_s;
    peer *peers;
    int npeers;
    budget *budgets;          /* ARB_WORKER_BUDGETS, one per identity heard */
    int nbudgets;
    program *progs;
    int nprogs;
    bool released;            /* STOP sent (sched_release_workers) */
    bool wdir_apart;
    char lpub[ZAP_KEY_TEXT], lsec[ZAP_KEY_TEXT], wdir[700], tdir[700];
    uint64_t next_hb, next_renew, next_pool, next_dps;
    uint64_t dps_ring[DPS_WINDOW];
    int dps_i;
    sched_stats st;
    char fatal[256];
};

sched_stats *sched_stats_of(sched *s) { return &s->st; }
const char *sched_endpoint(const sched *s) { return s->endpoint; }

/* Who sent the frame being handled: the identity its key was admitted as
 * (every decision about authority uses it) and the routing id of its
 * connection (only to answer it). */
typedef struct sender {
    const char    *id;
    const uint8_t *rid;
    size_t         ridlen;
} sender;

/* ---- Sending ----------------------------------------------------------- */

static int send_to(sched *s, const uint8_t *rid, size_t ridlen, uint8_t *frame, size_t len)
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

static void peer_send(sched *s, peer *p, uint8_t *frame, size_t len)
{
    if (send_to(s, p->rid, p->ridlen, frame, len) != 0)
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

static void pool_row(sched *s, peer *p, const char *state)
{
    store_worker(s->o.db, p->id, p->slots, state, p->nheld, p->done, p->lost);
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
    arb_warn(SUB, "worker %s is gone (%s): %d leases back to the queue", p->id, why, back);
    p->nheld = 0;
    pool_row(s, p, "gone");
    free(p->held);
    *p = s->peers[--s->npeers];
    update_pool_gauges(s);
}

static held *find_held(peer *p, int64_t id, int gen)
{
    for (int i = 0; i < p->nheld; i++)
        if (p->held[i].m.id == id && (gen < 0 || p->held[i].m.lease_gen == gen))
            return &p->held[i];
    return NULL;
}

static void drop_held(peer *p, held *h)
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
        if (find_held(p, run[i].match_id, run[i].gen) || p->nheld >= ARB_WORKER_MAX_SLOTS)
            continue;
        st_match m;
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
        drop_held(p, &p->held[i]);
        i--;
    }
}

/* ---- Programs ---------------------------------------------------------- */

/* The files of a bot's command that a worker elsewhere needs: every
 * argument naming a regular file outside the system's directories (the
 * program, a script), packed into a bundle named by its digest. */
static int entrant_program(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base, const char *root,
                           char *err, size_t errlen)
{
    const char *files[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES];
    char extra[ARB_BUNDLE_MAX_FILES][4096], args[ARB_MAX_BOT_ARGS][4096];
    eb->nfiles = 0;
    for (int i = 0; i < eb->bot.argc; i++) {
        struct stat st;
        const char *a = eb->bot.argv[i];
        /* resolved: bundle_build opens exactly the path it is given */
        if (a[0] == '/' && !bundle_system_path(a) && stat(a, &st) == 0 && S_ISREG(st.st_mode)
            && realpath(a, args[eb->nfiles])) {
            eb->argi[eb->nfiles] = i;
            files[eb->nfiles] = args[eb->nfiles];
            eb->nfiles++;
        }
    }
    /* the entrant's other files (files:), relative to the tournament file
     * and inside its tree (root), checked again now that they are packed */
    int nall = eb->nfiles, nextra = 0;
    char list[ARB_TN_MAX_COMMAND], *save = NULL;
    snprintf(list, sizeof list, "%s", e->files);
    for (char *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        char why[4200];
        if (nextra == ARB_BUNDLE_MAX_FILES || bundle_confine(root, base, f, extra[nextra], sizeof extra[nextra], why, sizeof why)) {
            snprintf(err, errlen, "entrant %s: files: \"%s\" %s", e->name, f, nextra == ARB_BUNDLE_MAX_FILES ? "is one too many" : why);
            return ARB_ENOTFOUND;
        }
        files[nall++] = extra[nextra++];
    }
    if (nall == 0)
        return 0;
    uint8_t *b;
    size_t len;
    char rel[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES][ARB_BUNDLE_MAX_PATH + 1];
    int rc = bundle_build(files, nall, &b, &len, eb->digest, rel, err, errlen);
    if (rc)
        return rc;
    free(b);
    for (int i = 0; i < eb->nfiles; i++)   /* where each argument lies in the bundle */
        snprintf(eb->rel[i], sizeof eb->rel[i], "%.255s", rel[i]);
    for (int i = 0; i < s->nprogs; i++)
        if (strcmp(s->progs[i].digest, eb->digest) == 0)
            return 0;
    if (s->nprogs == ARB_POOL_MAX_PROGRAMS) {
        snprintf(err, errlen, "more than %d distinct programs", ARB_POOL_MAX_PROGRAMS);
        return ARB_ETOOBIG;
    }
    program *p = &s->progs[s->nprogs];
    p->files = calloc((size_t)nall, sizeof *p->files);
    if (!p->files)
        return ARB_ENOMEM;
    for (int i = 0; i < nall; i++)
        snprintf(p->files[i], sizeof p->files[i], "%s", files[i]);
    p->nfiles = nall;
    snprintf(p->digest, sizeof p->digest, "%s", eb->digest);
    s->nprogs++;
    return 0;
}

/* A worker asks for a program: packed again from its files, and sent only
 * if it is still what the digest names (a file changed since is refused,
 * not shipped under an old name). */
static void serve_program(sched *s, const sender *from, const char *digest)
{
    uint8_t *b = NULL, *frame;
    size_t len = 0, flen;
    char err[512] = "unknown digest", got[65] = "";
    for (int i = 0; i < s->nprogs; i++) {
        if (strcmp(s->progs[i].digest, digest) != 0)
            continue;
        const char *files[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES];
        char rel[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES][ARB_BUNDLE_MAX_PATH + 1];
        for (int k = 0; k < s->progs[i].nfiles; k++)
            files[k] = s->progs[i].files[k];
        if (bundle_build(files, s->progs[i].nfiles, &b, &len, got, rel, err, sizeof err) == 0
            && strcmp(got, digest) != 0) {
            snprintf(err, sizeof err, "the program's files changed since the tournament started");
            free(b);
            b = NULL;
        }
        break;
    }
    if (wire_program_msg(digest, b, len, b ? NULL : err, &frame, &flen) == 0) {
        send_to(s, from->rid, from->ridlen, frame, flen);
        atomic_fetch_add(&s->st.programs_served, 1);
        arb_info(SUB, "program %.12s to %s: %s", digest, from->id, b ? "sent" : err);
    }
    free(b);
}

/* ---- Results ----------------------------------------------------------- */

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

static void report_progress(sched *s, tour *t)
{
    const run_options *o = t->o;
    if (!o->progress)
        return;
    int pt, lt, dt, vt;
    store_counts(s->o.db, t->tid, -1, &pt, &lt, &dt, &vt);
    double el = (double)(arb_now_ns() - t->t0) / 1e9;
    run_progress pr = {.round = t->round, .done = dt + vt, .total = pt + lt + dt + vt,
                       .rate = el > 0 ? t->out->matches / el : 0, .last = t->last};
    pr.eta_s = pr.rate > 0 ? (pr.total - pr.done) / pr.rate : 0;
    o->progress(o->ctx, &pr);
}

/* A result: recorded once under its lease, and only from the identity
 * that holds it, then acknowledged. Whatever the outcome the record gives
 * (recorded, stale, recorded already, not the sender's lease) the sender
 * gets the same acknowledgement: it stops resending, and a forger learns
 * nothing, while the holder is not disturbed. A statement that fails on a
 * live database concerns this frame only (no acknowledgement: the worker
 * resends later); a lost database stops the scheduler. */
static int on_result(sched *s, tour *t, const sender *from, peer *p, const uint8_t *data, size_t n, char *err,
                     size_t errlen)
{
    wire_result *w = malloc(sizeof *w);
    if (!w)
        return ARB_ENOMEM;
    if (wire_decode_result(data, n, w) != 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        free(w);
        return 0;
    }
    held *h = p ? find_held(p, w->match_id, w->lease_gen) : NULL;
    st_match m = h ? h->m : (st_match){.id = w->match_id, .lease_gen = w->lease_gen};
    int rc = 0, rrc;
    char why[512] = "";
    if (w->ok)
        rrc = store_record(s->o.db, &m, &w->res, w->digest, w->transcript, from->id, why, sizeof why);
    else
        rrc = store_void(s->o.db, &m, w->error, from->id);
    bool ours = t && m.tournament == t->tid && m.nslots;
    if (rrc == 0) {
        if (w->ok) {
            atomic_fetch_add(&s->st.done, 1);
            if (p)
                p->done++;
        } else {
            atomic_fetch_add(&s->st.voided, 1);
            arb_warn(SUB, "match %" PRId64 " void: %s", w->match_id, w->error);
        }
        if (ours) {
            if (w->ok) {
                t->out->matches++;
                describe(t->o->cfg, &m, &w->res, t->last, sizeof t->last);
            } else {
                t->out->voided++;
            }
        }
    } else if (rrc == ARB_ESTATE) {
        char holder[ZAP_ID_MAX + 1] = "", detail[400];
        if (store_lease_holder(s->o.db, w->match_id, w->lease_gen, holder, sizeof holder) == 1
            && strcmp(holder, from->id) != 0) {
            /* a live lease of another worker: a forgery, or a confused key */
            atomic_fetch_add(&s->st.forged, 1);
            snprintf(detail, sizeof detail, "match %" PRId64 " generation %d: a result from %s, which does not hold it",
                     w->match_id, w->lease_gen, from->id);
            arb_warn(SUB, "%s: refused", detail);
            store_match_event(s->o.db, w->match_id, "refused-result", detail);
        } else {
            atomic_fetch_add(&s->st.stale, 1);
            if (ours)
                t->out->stale++;
            snprintf(detail, sizeof detail, "match %" PRId64 " generation %d from %s: stale or recorded already",
                     w->match_id, w->lease_gen, from->id);
            arb_info(SUB, "%s, discarded", detail);
            store_match_event(s->o.db, w->match_id, "stale-result", detail);
        }
    } else if (store_connected(s->o.db)) {
        atomic_fetch_add(&s->st.store_errors, 1);
        for (char *c = why; *c; c++)   /* PostgreSQL's message has lines: one log line */
            if (*c == '\n' || *c == '\r' || *c == '\t')
                *c = ' ';
        arb_error(SUB, "match %" PRId64 " generation %d from %s: not recorded (%s); the worker will resend it",
                  w->match_id, w->lease_gen, from->id, why[0] ? why : arb_strerror(rrc));
    } else {
        snprintf(err, errlen, "database lost");
        rc = ARB_EIO;
    }
    /* Acknowledge once it is in the database (or known not to belong
     * there): the worker may forget it now. */
    uint8_t *ack;
    size_t alen;
    if ((rrc == 0 || rrc == ARB_ESTATE) && wire_ack(w->match_id, w->lease_gen, &ack, &alen) == 0)
        send_to(s, from->rid, from->ridlen, ack, alen);
    if (h && (rrc == 0 || rrc == ARB_ESTATE)) {
        drop_held(p, h);
        if (p->free_reported < p->slots - p->nheld)
            p->free_reported++;
    }
    match_result_release(&w->res);
    free(w);
    if (rrc == 0 && ours)
        report_progress(s, t);
    return rc;
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
        send_to(s, from->rid, from->ridlen, f, len);
}

static void on_hello(sched *s, const sender *from, const uint8_t *data, size_t n)
{
    int version, slots, nrun;
    char name[ARB_WORKER_ID_MAX + 1];
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    uint8_t *f;
    size_t len;
    int rc = wire_decode_hello(data, n, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &nrun);
    if (rc == ARB_EUNSUPPORTED) {
        char why[160];
        snprintf(why, sizeof why, "protocol version %d is not spoken here (this scheduler speaks %d)", version,
                 WIRE_VERSION);
        if (wire_refuse(why, &f, &len) == 0)
            send_to(s, from->rid, from->ridlen, f, len);
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
                send_to(s, from->rid, from->ridlen, f, len);
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
    p->slots = slots;
    p->free_reported = slots - nrun;
    p->last_heard = arb_now_ns();
    p->dead = false;
    reconcile(s, p, run, nrun);
    if (wire_welcome(s->hb_ms, &f, &len) == 0)
        peer_send(s, p, f, len);
    pool_row(s, p, "connected");
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
    reconcile(s, p, run, nrun);
}

static void on_progress(sched *s, peer *p, const uint8_t *data, size_t n)
{
    wire_progress_info pi;
    if (wire_decode_progress(data, n, &pi) != 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        return;
    }
    held *h = find_held(p, pi.match_id, pi.gen);   /* only the holder's progress counts */
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
    held *h = p ? find_held(p, id, gen) : NULL;
    if (store_release(s->o.db, id, gen, from->id) == 1) {
        atomic_fetch_add(&s->st.released, 1);
        arb_info(SUB, "worker %s handed back match %" PRId64 ": %s", from->id, id, why);
    }
    if (h)
        drop_held(p, h);
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
static int handle(sched *s, tour *t, char *err, size_t errlen)
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
        rc = on_result(s, t, &from, p, data, (size_t)n, err, errlen);
        if (!p)
            rehello(s, &from, b);
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
            serve_program(s, &from, digest);
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
                peer_send(s, &s->peers[i], f, len);
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
                    drop_held(p, &p->held[k]);   /* the lease moved on */
                    k--;
                }
        }
    }
    if (now >= s->next_pool) {
        s->next_pool = now + 2000000000u;
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

/* Everything that arrives within ms, then the timers. */
static int pump(sched *s, tour *t, int ms, char *err, size_t errlen)
{
    if (s->zapper && !zap_alive(s->zapper)) {
        /* without its gatekeeper the pool would admit anyone */
        snprintf(err, errlen, "the ZAP handler stopped: the scheduler stops");
        return ARB_EIO;
    }
    zmq_pollitem_t item = {s->router, 0, ZMQ_POLLIN, 0};
    int rc = 0;
    if (zmq_poll(&item, 1, ms) > 0)
        for (int k = 0; k < 1000 && rc == 0; k++) {
            int r = handle(s, t, err, errlen);
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
    while (rc == 0 && arb_now_ns() < end && !(s->o.stop && *s->o.stop))
        rc = pump(s, NULL, 100, err, errlen);
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
    bool interrupted = s->o.stop && *s->o.stop;
    /* Workers of this process leave; remote workers leave too when this
     * was a one-shot run (arbiter run --listen), not when a daemon stops
     * (they wait for the next scheduler and resend to it). */
    for (int i = 0; i < s->npeers; i++) {
        uint8_t *f;
        size_t len;
        if ((s->peers[i].local || !s->o.keep_remote) && !interrupted && wire_stop(&f, &len) == 0)
            send_to(s, s->peers[i].rid, s->peers[i].ridlen, f, len);
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
    for (int i = 0; i < s->nprogs; i++)
        free(s->progs[i].files);
    free(s->progs);
    free(s->budgets);
    free(s->peers);
    free(s);
}

/* ---- A tournament ------------------------------------------------------ */

/* The assignment for a claimed match: its bots from the entrants' commands,
 * the tournament's rules and clocks, a seed of its own, the programs. */
static void make_assign(const tour *t, const st_match *m, wire_assign *a)
{
    const tn_config *cfg = t->o->cfg;
    memset(a, 0, sizeof *a);
    a->match_id = m->id;
    a->lease_gen = m->lease_gen;
    match_config *c = &a->cfg;
    match_config_init(c, cfg->game);
    snprintf(c->preset, sizeof c->preset, "%s", cfg->rules);
    snprintf(c->options, sizeof c->options, "%s", cfg->options);
    c->seed = m->seed;
    /* The match key: one-way from the tournament's secret and the match's
     * identity; the worker gets the key, never the secret. */
    char label[ARB_MAX_KEY_LABEL];
    snprintf(label, sizeof label, "match|%" PRIu64 "|%d|%d", cfg->seed, m->round, m->tbl);
    match_set_key(c, t->secret, label);
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
        const entrant_bot *eb = &t->bots[m->entrant[b]];
        c->bots[b] = eb->bot;
        for (int f = 0; f < eb->nfiles && a->nprograms < ARB_WIRE_MAX_PROGRAMS; f++) {
            wire_program *p = &a->programs[a->nprograms++];
            p->bot = b;
            p->argi = eb->argi[f];
            snprintf(p->digest, sizeof p->digest, "%s", eb->digest);
            snprintf(p->path, sizeof p->path, "%s", eb->rel[f]);
        }
    }
}

/* Give every worker with a free slot a match. */
static int dispatch(sched *s, tour *t, char *err, size_t errlen)
{
    wire_assign *a = NULL;
    for (int i = 0; i < s->npeers; i++) {
        peer *p = &s->peers[i];
        while (!p->dead && p->nheld < p->slots && p->free_reported > 0) {
            st_match m;
            int got = store_claim(s->o.db, t->tid, p->id, s->lease_s, &m, err, errlen);
            if (got < 0) {
                free(a);
                return got;
            }
            if (got == 0) {
                free(a);
                return 0;
            }
            m.tournament = t->tid;
            if (!a && !(a = malloc(sizeof *a))) {
                store_release(s->o.db, m.id, m.lease_gen, p->id);
                return ARB_ENOMEM;
            }
            make_assign(t, &m, a);
            uint8_t *f;
            size_t len;
            if (wire_encode_assign(a, &f, &len) != 0) {
                store_void(s->o.db, &m, "the assignment cannot be encoded", p->id);
                continue;
            }
            p->held[p->nheld++] = (held){.m = m, .since_ns = arb_now_ns()};
            p->free_reported--;
            peer_send(s, p, f, len);   /* unroutable: the sweep gives the lease back */
        }
    }
    free(a);
    return 0;
}

static int load_bots(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o->cfg;
    char dirbuf[512], base[512];
    snprintf(dirbuf, sizeof dirbuf, "%s", cfg->path);
    snprintf(base, sizeof base, "%s", dirname(dirbuf));
    t->bots = calloc((size_t)cfg->nentrants, sizeof *t->bots);
    if (!t->bots)
        return ARB_ENOMEM;
    for (int i = 0; i < cfg->nentrants; i++) {
        const tn_entrant *e = &cfg->entrants[i];
        int rc = match_bot_command(&t->bots[i].bot, e->name, e->command, base, err, errlen);
        if (rc == 0)
            rc = entrant_program(s, &t->bots[i], e, base, cfg->files_root, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

int sched_tournament(sched *s, const run_options *o, run_outcome *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const tn_config *cfg = o->cfg;
    store *db = s->o.db;
    bool created;
    int rc = store_tournament(db, cfg, o->yaml, o->digest, &out->tid, &created, err, errlen);
    if (rc)
        return rc;
    out->resumed = !created;
    char commitment[65];
    tour t = {.o = o, .out = out, .tid = out->tid, .t0 = arb_now_ns()};
    rc = store_secret(db, out->tid, o->secret, t.secret, commitment, err, errlen);
    if (rc)
        return rc;
    arb_info(SUB, "tournament %s (%" PRId64 "): commitment to its secret %s", cfg->name, out->tid, commitment);
    char abspath[4096];
    if (realpath(cfg->path, abspath))
        store_set_path(db, out->tid, abspath);
    /* Our previous run's local worker is gone: its leases go back. */
    store_release_leases(db, out->tid, "local:");

    st_table *tables = calloc(ARB_MAX_TABLES, sizeof *tables);
    if (!tables) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    rc = load_bots(s, &t, err, errlen);
    if (rc)
        goto out;
    arb_info(SUB, "tournament %s (%" PRId64 "): %s, %d entrants", cfg->name, out->tid,
             created ? "started" : "resumed", cfg->nentrants);
    t.round = store_last_round(db, out->tid);
    bool done = false;
    while (!(s->o.stop && *s->o.stop)) {
        /* The next round, when the current one is finished. */
        int p, l, d, v;
        if (store_counts(db, out->tid, t.round, &p, &l, &d, &v) != 0) {
            snprintf(err, errlen, "database lost");
            rc = ARB_EIO;
            break;
        }
        if (p == 0 && l == 0) {
            int nt = 0;
            const char *stage = "main";
            rc = plan_next(cfg, db, out->tid, t.round, tables, ARB_MAX_TABLES, &nt, &stage, &done, err, errlen);
            if (rc || done)
                break;
            rc = store_add_round(db, out->tid, t.round + 1, stage, tables, nt, cfg->seed, err, errlen);
            if (rc)
                break;
            t.round++;
            continue;
        }
        int pt, lt, dt, vt;
        if (store_counts(db, out->tid, -1, &pt, &lt, &dt, &vt) == 0) {
            atomic_store(&s->st.queued, pt);
            atomic_store(&s->st.leased, lt);
        }
        rc = dispatch(s, &t, err, errlen);
        if (rc == 0)
            rc = pump(s, &t, 200, err, errlen);
        if (rc)
            break;
    }
    out->finished = done;
    if (done) {
        store_finish(db, out->tid);
        atomic_store(&s->st.queued, 0);
        atomic_store(&s->st.leased, 0);
        arb_info(SUB, "tournament %s (%" PRId64 ") finished: %d matches recorded by this run", cfg->name, out->tid,
                 out->matches);
    }
out:
    sodium_memzero(t.secret, sizeof t.secret);
    free(t.bots);
    free(tables);
    return rc;
}

/* ---- Metrics ----------------------------------------------------------- */

size_t sched_metrics(void *ctx, char *buf, size_t cap)
{
    sched_stats *st = &((sched *)ctx)->st;
    size_t off = 0;
    arb_prom(buf, cap, &off, "arbiter_matches_queued", "gauge", "Matches waiting for a worker (running tournament)",
             atomic_load(&st->queued));
    arb_prom(buf, cap, &off, "arbiter_matches_leased", "gauge", "Matches leased to workers (running tournament)",
             atomic_load(&st->leased));
    arb_prom(buf, cap, &off, "arbiter_matches_done_total", "counter", "Results recorded by this scheduler",
             (double)atomic_load(&st->done));
    arb_prom(buf, cap, &off, "arbiter_matches_void_total", "counter", "Matches recorded void",
             (double)atomic_load(&st->voided));
    arb_prom(buf, cap, &off, "arbiter_results_stale_total", "counter",
             "Results discarded: stale lease or recorded already", (double)atomic_load(&st->stale));
    arb_prom(buf, cap, &off, "arbiter_workers_connected", "gauge", "Referee worker processes in the pool",
             atomic_load(&st->workers));
    arb_prom(buf, cap, &off, "arbiter_worker_slots", "gauge", "Match slots of the pool", atomic_load(&st->slots));
    arb_prom(buf, cap, &off, "arbiter_leases_expired_total", "counter",
             "Leases returned to the queue because their worker went silent or dropped them",
             (double)atomic_load(&st->leases_expired));
    arb_prom(buf, cap, &off, "arbiter_leases_released_total", "counter", "Leases handed back by workers",
             (double)atomic_load(&st->released));
    arb_prom(buf, cap, &off, "arbiter_frames_malformed_total", "counter", "Frames dropped as malformed",
             (double)atomic_load(&st->malformed));
    arb_prom(buf, cap, &off, "arbiter_workers_refused_total", "counter", "Hellos refused (protocol version, pool full)",
             (double)atomic_load(&st->refused));
    arb_prom(buf, cap, &off, "arbiter_results_refused_total", "counter",
             "Results, voids refused: the sender's key does not hold the lease", (double)atomic_load(&st->forged));
    arb_prom(buf, cap, &off, "arbiter_frames_flooded_total", "counter",
             "Frames dropped unread: their key was over its frame budget", (double)atomic_load(&st->flooded));
    arb_prom(buf, cap, &off, "arbiter_store_errors_total", "counter",
             "Frames whose statement failed on a live database (not acknowledged: resent)",
             (double)atomic_load(&st->store_errors));
    arb_prom(buf, cap, &off, "arbiter_programs_served_total", "counter", "Program bundles sent to workers",
             (double)atomic_load(&st->programs_served));
    arb_prom(buf, cap, &off, "arbiter_bot_timeouts_total", "counter", "Bot decisions that ran out of time",
             (double)atomic_load(&st->timeouts));
    arb_prom(buf, cap, &off, "arbiter_bot_penalties_total", "counter", "Penalties given to bots",
             (double)atomic_load(&st->penalties));
    arb_prom(buf, cap, &off, "arbiter_decisions_total", "counter", "Bot decisions judged",
             (double)atomic_load(&st->decisions));
    arb_prom(buf, cap, &off, "arbiter_decisions_per_second", "gauge", "Bot decisions per second over the last 10 s",
             (double)atomic_load(&st->decisions_per_s_x1000) / 1000.0);
    return off;
}
