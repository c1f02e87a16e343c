/* test_pool.c — the scheduler's side of the failure model (scheduler.h,
 * schemas/worker-protocol.md), at the protocol level: a real scheduler on
 * loopback tcp with CURVE and a real PostgreSQL, and referee workers played
 * by hand from DEALER sockets in this thread (no referee process). Hellos of
 * other versions are refused, strangers told to say hello, malformed frames
 * counted and survived; assignments come with their leases and programs;
 * void, stale and handed-back results do what the record says; a silent
 * worker's leases go back to the queue; a restarted scheduler adopts a
 * lease its holder names under the right generation only; the metrics agree
 * with the counters.
 *
 * The scheduler is not thread-safe: it runs in a thread of its own
 * (sched_serve, then sched_tournament until the stop flag), and this thread
 * only talks to it over the sockets, reads its atomic counters and reads
 * the database. Nothing is asserted on timing: every wait is for a state,
 * with a generous deadline.
 *
 * argv[1]: a bot program (the SDK's random_bot): the entrants' command, so
 * that assignments carry a program bundle to fetch. The database:
 * ARBITER_TEST_DB when set, else a private cluster (as test_store). */
#include "scheduler.h"
#include "ddz.h"
#include "arb_file.h"
#include "arb_num.h"
#include "bundle.h"
#include "pgctl.h"
#include "store.h"
#include "wire.h"
#include "fake_worker.h"
#include "test_db.h"
#include "zap.h"
#include "arb_error.h"
#include "arb_log.h"
#include "arb_rng.h"
#include "arb_time.h"
#include "../unit/test_util.h"

#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#define HEARTBEAT_MS 100
#define MISSES 5
#define BEAT_EVERY_MS 50          /* the fake workers beat twice per period */
#define WAIT_MS 10000             /* a deadline for anything that should happen */
#define MAX_FAKES 16
#define MAX_HELD 8

static PGconn *pg;                /* this test's own view of the record */
static char bot_copy[700];        /* the entrants' program: a copy of argv[1], removed once recorded */

/* ---- The record, read directly ------------------------------------------ */

/* The first column of the first row as text ("" for NULL; false when no
 * row or an error). Parameters are text, NULL-terminated list of up to 2. */
static bool q1(char *out, size_t cap, const char *sql, const char *p1, const char *p2)
{
    const char *params[2] = {p1, p2};
    int n = p1 ? (p2 ? 2 : 1) : 0;
    PGresult *r = PQexecParams(pg, sql, n, NULL, params, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0;
    if (ok)
        snprintf(out, cap, "%s", PQgetvalue(r, 0, 0));
    else if (PQresultStatus(r) != PGRES_TUPLES_OK)
        fprintf(stderr, "query failed: %s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    return ok;
}

static long count_of(const char *sql, const char *p1, const char *p2)
{
    char v[64];
    return q1(v, sizeof v, sql, p1, p2) ? strtol(v, NULL, 10) : -1;
}

typedef struct mrow {
    char state[16];
    char by[128];          /* leased_by, "" when NULL */
    int  gen;
    char error[256];
} mrow;

static mrow match_row(int64_t id)
{
    mrow m = {"?", "", -1, ""};
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, id);
    const char *params[] = {mid};
    PGresult *r = PQexecParams(pg, "SELECT state, leased_by, lease_gen, error FROM matches WHERE id = $1", 1,
                               NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
        snprintf(m.state, sizeof m.state, "%s", PQgetvalue(r, 0, 0));
        snprintf(m.by, sizeof m.by, "%s", PQgetvalue(r, 0, 1));
        m.gen = (int)arb_cell_int(PQgetvalue(r, 0, 2));
        snprintf(m.error, sizeof m.error, "%s", PQgetvalue(r, 0, 3));
    }
    PQclear(r);
    return m;
}

static bool match_is(int64_t id, const char *state, const char *by, int gen)
{
    mrow m = match_row(id);
    bool ok = strcmp(m.state, state) == 0 && (!by || strcmp(m.by, by) == 0) && (gen < 0 || m.gen == gen);
    if (!ok)
        fprintf(stderr, "match %" PRId64 ": %s by \"%s\" generation %d (wanted %s by \"%s\" generation %d)\n", id,
                m.state, m.by, m.gen, state, by ? by : "*", gen);
    return ok;
}

static void worker_state(const char *name, char *state, size_t cap)
{
    if (!q1(state, cap, "SELECT state FROM workers WHERE name = $1", name, NULL))
        snprintf(state, cap, "(none)");
}

/* ---- Fake referee workers: DEALER sockets spoken by hand --------------- */

typedef fw_frame frame;

typedef struct fake {
    char     name[64];
    void    *sock;
    int      slots;
    int      free_report;           /* free slots its heartbeats say; -1: slots - nheld */
    bool     beating;
    uint64_t next_beat;
    wire_lease held[MAX_HELD];      /* what its heartbeats name */
    int      nheld;
    int      assigns;               /* WIRE_ASSIGN received, all told */
    int      beats_heard;           /* the scheduler's heartbeats */
    fw_inbox in;                    /* everything else, in order */
} fake;

static void *zctx;
static char spub[ZAP_KEY_TEXT], ssec[ZAP_KEY_TEXT];
/* Every fake worker has a key of its own, listed with its name: the
 * scheduler knows it by that name (its ZAP User-Id), whatever it says. */
static const char *const key_names[] = {"w-one", "w-ghost", "w-junk", "w-v1", "w-v3", "w-a", "w-b", "w-c"};
#define NKEYS (int)(sizeof key_names / sizeof key_names[0])
static char wpub[NKEYS][ZAP_KEY_TEXT], wsec[NKEYS][ZAP_KEY_TEXT];
static char key_entry[NKEYS][ZAP_KEY_TEXT + 16];   /* "KEY name", as zap_start takes them */
static fake *fakes[MAX_FAKES];
static int nfakes;

static fake *fake_open(const char *name, int key, int slots, int free_report, const char *endpoint)
{
    fake *f = calloc(1, sizeof *f);
    if (!f || nfakes == MAX_FAKES) {
        fprintf(stderr, "out of fakes\n");
        exit(2);
    }
    snprintf(f->name, sizeof f->name, "%s", name);
    /* the key is the one listed under this name (key, the old index, is
     * kept for the callers' readability only) */
    for (key = 0; key < NKEYS && strcmp(key_names[key], name) != 0; key++)
        ;
    if (key == NKEYS) {
        fprintf(stderr, "%s: no key\n", name);
        exit(2);
    }
    f->slots = slots;
    f->free_report = free_report;
    f->sock = fw_dealer(zctx, wpub[key], wsec[key], spub, NULL, endpoint);   /* a route nobody can guess */
    fakes[nfakes++] = f;
    return f;
}

static void fake_close(fake *f)
{
    for (int i = 0; i < nfakes; i++)
        if (fakes[i] == f)
            fakes[i] = fakes[--nfakes];
    zmq_close(f->sock);
    fw_inbox_free(&f->in);
    free(f);
}

/* Send a frame the encoders made (and free it). */
static void send_owned(fake *f, uint8_t *data, size_t len)
{
    if (zmq_send(f->sock, data, len, 0) != (int)len)
        fprintf(stderr, "%s: send failed: %s\n", f->name, zmq_strerror(errno));
    free(data);
}

static void send_raw(fake *f, const void *data, size_t len)
{
    if (zmq_send(f->sock, data, len, 0) != (int)len)
        fprintf(stderr, "%s: send failed: %s\n", f->name, zmq_strerror(errno));
}

static void beat(fake *f)
{
    uint8_t *b;
    size_t len;
    int fr = f->free_report >= 0 ? f->free_report : f->slots - f->nheld;
    if (wire_heartbeat(fr, f->held, f->nheld, &b, &len) == 0)
        send_owned(f, b, len);
}

static void hold(fake *f, int64_t id, int gen)
{
    if (f->nheld < MAX_HELD)
        f->held[f->nheld++] = (wire_lease){id, gen};
}

static void unhold(fake *f, int64_t id)
{
    for (int i = 0; i < f->nheld; i++)
        if (f->held[i].match_id == id)
            f->held[i--] = f->held[--f->nheld];
}

/* Everything waiting on f's socket: the scheduler's heartbeats counted,
 * assignments held (a worker accepts what it is given), all but heartbeats
 * kept in the inbox. */
static void drain(fake *f)
{
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        int n = zmq_msg_recv(&m, f->sock, ZMQ_DONTWAIT);
        if (n < 0) {
            zmq_msg_close(&m);
            return;
        }
        const uint8_t *d = zmq_msg_data(&m);
        int kind = wire_kind_of(d, (size_t)n);
        if (kind == WIRE_HEARTBEAT) {
            f->beats_heard++;
        } else {
            if (kind == WIRE_ASSIGN && f->in.n < FW_INBOX) {
                wire_assign *a = malloc(sizeof *a);
                if (a && wire_decode_assign(d, (size_t)n, a) == 0)
                    hold(f, a->match_id, a->lease_gen);
                free(a);
                f->assigns++;
            }
            fw_keep(&f->in, d, (size_t)n);
        }
        zmq_msg_close(&m);
    }
}

static uint64_t now_ms(void)
{
    return arb_now_ns() / 1000000u;
}

/* Let ms pass: every beating fake beats on time, every socket is read. */
static void pump_all(int ms)
{
    uint64_t end = now_ms() + (uint64_t)ms;
    do {
        uint64_t now = now_ms();
        for (int i = 0; i < nfakes; i++)
            if (fakes[i]->beating && now >= fakes[i]->next_beat) {
                beat(fakes[i]);
                fakes[i]->next_beat = now + BEAT_EVERY_MS;
            }
        zmq_pollitem_t items[MAX_FAKES];
        for (int i = 0; i < nfakes; i++)
            items[i] = (zmq_pollitem_t){fakes[i]->sock, 0, ZMQ_POLLIN, 0};
        now = now_ms();
        long left = now < end ? (long)(end - now) : 0;
        zmq_poll(items, nfakes, left < 10 ? left : 10);
        for (int i = 0; i < nfakes; i++)
            drain(fakes[i]);
    } while (now_ms() < end);
}

/* The first frame of this kind f has received, waiting up to ms for it;
 * data NULL when none came. The caller frees data. */
static frame take(fake *f, int kind, int ms) { return fw_take_wait(&f->in, kind, ms, pump_all); }

static int inbox_count(const fake *f, int kind) { return fw_count_kind(&f->in, kind); }

/* Wait (pumping the fakes) until cond holds or the deadline passes; the
 * caller then checks cond. */
#define WAIT_FOR(cond)                                        \
    do {                                                      \
        uint64_t end_ = now_ms() + WAIT_MS;                   \
        while (!(cond) && now_ms() < end_)                    \
            pump_all(20);                                     \
    } while (0)

static bool take_welcome(fake *f)
{
    frame fr = take(f, WIRE_WELCOME, WAIT_MS);
    int version = -1, hb = -1;
    bool ok = fr.data && wire_decode_welcome(fr.data, fr.len, &version, &hb) == 0 && version == WIRE_VERSION
              && hb == HEARTBEAT_MS;
    if (!ok)
        fprintf(stderr, "%s: no welcome (version %d, heartbeat %d)\n", f->name, version, hb);
    free(fr.data);
    return ok;
}

/* The next assignment f got: 0 and *a filled, or -1. */
static int take_assign(fake *f, wire_assign *a)
{
    frame fr = take(f, WIRE_ASSIGN, WAIT_MS);
    int rc = fr.data && wire_decode_assign(fr.data, fr.len, a) == 0 ? 0 : -1;
    free(fr.data);
    return rc;
}

/* The acknowledgement of (id, gen): true when it came and echoes both. */
static bool take_ack(fake *f, int64_t id, int gen)
{
    frame fr = take(f, WIRE_ACK, WAIT_MS);
    int64_t got = -1;
    int ggot = -1;
    bool ok = fr.data && wire_decode_ack(fr.data, fr.len, &got, &ggot) == 0 && got == id && ggot == gen;
    if (!ok)
        fprintf(stderr, "%s: ack for %" PRId64 "/%d: got %" PRId64 "/%d\n", f->name, id, gen, got, ggot);
    free(fr.data);
    return ok;
}

static void say_hello(fake *f, const wire_lease *running, int nrunning)
{
    uint8_t *h;
    size_t len;
    if (wire_hello(f->name, f->slots, running, nrunning, fw_sign_pk(), &h, &len) == 0)
        send_owned(f, h, len);
}

static void send_result(fake *f, int64_t id, int gen, bool ok, const char *error)
{
    char transcript[64] = "";
    if (ok)
        snprintf(transcript, sizeof transcript, "/nowhere/%" PRId64 ".arbt", id);
    if (fw_send_result(f->sock, id, gen, ok, error, transcript, 0) < 0)
        fprintf(stderr, "%s: send failed: %s\n", f->name, zmq_strerror(errno));
}

/* ---- The scheduler, in a thread of its own ------------------------------ */

static volatile sig_atomic_t stop_flag;

typedef struct server {
    sched *s;
    const sched_tournament_options *ro;          /* NULL: serve the pool only */
    atomic_int tournament_go;       /* stop serving, run the tournament */
    int rc;
    sched_outcome out;
    char err[512];
} server;

static void *server_main(void *arg)
{
    server *sv = arg;
    while (sv->rc == 0 && !__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)
           && !(sv->ro && atomic_load(&sv->tournament_go)))
        sv->rc = sched_serve(sv->s, 100, sv->err, sizeof sv->err);
    if (sv->ro && sv->rc == 0 && !__atomic_load_n(&stop_flag, __ATOMIC_RELAXED))
        sv->rc = sched_tournament(sv->s, sv->ro, &sv->out, sv->err, sizeof sv->err);
    if (sv->rc)
        fprintf(stderr, "scheduler stopped: %s\n", sv->err);
    return NULL;
}

/* A value of the Prometheus text, or -1 when the metric is missing. */
static double metric(const char *text, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, name, nl) == 0 && p[nl] == ' ')
            return strtod(p + nl + 1, NULL);
    return -1;
}

static bool is_hex64(const char *d)
{
    if (strlen(d) != 64)
        return false;
    for (int i = 0; i < 64; i++)
        if (!((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
            return false;
    return true;
}

#define ULL(x) ((unsigned long long)atomic_load(&(x)))

/* ---- Before a tournament: admission, strangers, malformed frames -------- */

static void test_admission(sched_stats *st, const char *endpoint)
{
    /* A worker of this version is welcomed and counted in the pool. */
    fake *one = fake_open("w-one", 0, 3, -1, endpoint);
    say_hello(one, NULL, 0);
    CHECK(take_welcome(one));
    one->beating = true;
    WAIT_FOR(atomic_load(&st->workers) == 1);
    CHECKF(atomic_load(&st->workers) == 1 && atomic_load(&st->slots) == 3, "workers %d slots %d",
           atomic_load(&st->workers), atomic_load(&st->slots));
    char state[32], slots[16];
    worker_state("w-one", state, sizeof state);
    CHECKF(strcmp(state, "connected") == 0, "w-one is %s", state);
    CHECK(q1(slots, sizeof slots, "SELECT slots FROM workers WHERE name = $1", "w-one", NULL)
          && arb_num_or(slots, -1) == 3);

    /* A heartbeat from a worker that never said hello: say hello. */
    fake *ghost = fake_open("w-ghost", 1, 1, -1, endpoint);
    beat(ghost);
    frame fr = take(ghost, WIRE_REHELLO, WAIT_MS);
    CHECK(fr.data != NULL);
    free(fr.data);
    CHECK(atomic_load(&st->workers) == 1);   /* and it is not in the pool */

    /* Malformed frames: counted, dropped, never fatal. */
    fake *junk = fake_open("w-junk", 0, 1, -1, endpoint);
    unsigned long long malformed0 = ULL(st->malformed);
    int sent = 0;
    arb_rng rng;
    arb_rng_seed(&rng, 20261122);
    for (int i = 0; i < 40; i++) {
        uint8_t b[48];
        size_t n = (size_t)arb_rng_below(&rng, sizeof b) + 1;
        for (size_t k = 0; k < n; k++)
            b[k] = (uint8_t)arb_rng_next(&rng);
        if (wire_kind_of(b, n) >= 0)
            continue;   /* random bytes that happen to start like a message: not this test's point */
        send_raw(junk, b, n);
        sent++;
    }
    uint8_t *hello;
    size_t hlen;
    CHECK(wire_hello("w-junk", 1, NULL, 0, fw_sign_pk(), &hello, &hlen) == 0);
    for (size_t cut = 1; cut < hlen; cut++) {   /* every truncation of a good hello */
        send_raw(junk, hello, cut);
        sent++;
    }
    static const uint8_t huge_array[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x00, 0x02};
    static const uint8_t huge_name[] = {0x95, 0x00, WIRE_VERSION, 0xdb, 0xff, 0xff, 0xff, 0xff, 'w'};
    static const uint8_t huge_leases[] = {0x95, 0x00, WIRE_VERSION, 0xa1, 'w', 0x01, 0xdd, 0xff, 0xff, 0xff, 0xff};
    send_raw(junk, huge_array, sizeof huge_array);
    send_raw(junk, huge_name, sizeof huge_name);
    send_raw(junk, huge_leases, sizeof huge_leases);
    send_raw(junk, "", 0);   /* an empty frame */
    sent += 4;
    /* a message of two frames (each a good hello) */
    zmq_send(junk->sock, hello, hlen, ZMQ_SNDMORE);
    zmq_send(junk->sock, hello, hlen, 0);
    sent++;
    /* a scheduler's message sent by a worker */
    uint8_t *ack;
    size_t alen;
    if (wire_ack(1, 1, &ack, &alen) == 0)
        send_owned(junk, ack, alen);
    sent++;
    WAIT_FOR(ULL(st->malformed) >= malformed0 + (unsigned long long)sent);
    pump_all(200);   /* anything counted twice would show now */
    CHECKF(ULL(st->malformed) == malformed0 + (unsigned long long)sent, "malformed %llu, sent %d",
           ULL(st->malformed) - malformed0, sent);
    CHECK(junk->in.n == 0);   /* no answer to any of them */
    /* ... and the next valid hello is answered. */
    send_raw(junk, hello, hlen);
    free(hello);
    CHECK(take_welcome(junk));
    WAIT_FOR(atomic_load(&st->workers) == 2);
    CHECK(atomic_load(&st->workers) == 2 && atomic_load(&st->slots) == 4);

    /* Both fall silent before the tournament: gone, holding nothing. */
    one->beating = false;
    WAIT_FOR(atomic_load(&st->workers) == 0);
    CHECK(atomic_load(&st->workers) == 0 && atomic_load(&st->slots) == 0);
    worker_state("w-one", state, sizeof state);
    CHECKF(strcmp(state, "gone") == 0, "w-one is %s", state);
    CHECK(ULL(st->leases_expired) == 0);
    fake_close(one);
    fake_close(ghost);
    fake_close(junk);
}

/* ---- A tournament running: leases, programs, results, silence ----------- */

typedef struct pool_state {
    int64_t held_by_c;              /* the match w-c holds when the scheduler stops */
} pool_state;

static void test_tournament(sched_stats *st, const char *endpoint, pool_state *ps)
{
    /* Round 1 of the round robin: 4 matches, all pending. */
    WAIT_FOR(count_of("SELECT count(*) FROM matches WHERE state = 'pending'", NULL, NULL) == 4);
    CHECK(count_of("SELECT count(*) FROM matches WHERE state = 'pending'", NULL, NULL) == 4);

    /* 1. Other versions are refused by name, and given nothing. */
    fake *v1 = fake_open("w-v1", 0, 1, -1, endpoint);
    fake *v3 = fake_open("w-v3", 1, 1, -1, endpoint);   /* a version after ours */
    unsigned long long refused0 = ULL(st->refused);
    static const uint8_t hello_v1[] = {0x94, 0x00, 0x01, 0xa3, 'o', 'l', 'd', 0x01};   /* [0, 1, "old", 1] */
    send_raw(v1, hello_v1, sizeof hello_v1);
    uint8_t *h = NULL;
    size_t hlen = 0;
    CHECK(wire_hello("w-v3", 1, NULL, 0, fw_sign_pk(), &h, &hlen) == 0 && h[0] == 0x96 && h[2] == WIRE_VERSION);
    if (h) {
        h[2] = WIRE_VERSION + 1;   /* [0, 6, "w-v3", 1, [], pk] */
        send_owned(v3, h, hlen);
    }
    for (int i = 0; i < 2; i++) {
        fake *f = i ? v3 : v1;
        frame fr = take(f, WIRE_REFUSE, WAIT_MS);
        int version = -1;
        char reason[256] = "";
        CHECK(fr.data && wire_decode_refuse(fr.data, fr.len, &version, reason, sizeof reason) == 0);
        char theirs[32];
        snprintf(theirs, sizeof theirs, "version %d", i ? WIRE_VERSION + 1 : 1);
        CHECKF(version == WIRE_VERSION && strstr(reason, theirs) && strchr(reason, '0' + WIRE_VERSION),
               "%s: refused with version %d: \"%s\"", f->name, version, reason);
        free(fr.data);
    }
    CHECK(ULL(st->refused) == refused0 + 2);
    pump_all(500);
    CHECK(v1->assigns == 0 && v3->assigns == 0 && inbox_count(v1, WIRE_WELCOME) == 0
          && inbox_count(v3, WIRE_WELCOME) == 0);
    CHECK(atomic_load(&st->workers) == 0);
    CHECK(count_of("SELECT count(*) FROM matches WHERE state = 'pending'", NULL, NULL) == 4);
    CHECK(count_of("SELECT count(*) FROM workers WHERE name IN ('w-v1', 'w-v3')", NULL, NULL) == 0);

    /* 5. A worker with 2 slots gets exactly 2 assignments, each with its
     * lease and its programs. It takes no more (its heartbeats say 0 free). */
    fake *a = fake_open("w-a", 0, 2, 0, endpoint);
    say_hello(a, NULL, 0);
    CHECK(take_welcome(a));
    wire_assign *as = calloc(2, sizeof *as);
    CHECK(take_assign(a, &as[0]) == 0 && take_assign(a, &as[1]) == 0);
    a->beating = true;
    pump_all(600);
    CHECKF(a->assigns == 2, "w-a got %d assignments", a->assigns);
    int64_t a1 = as[0].match_id, a2 = as[1].match_id;
    CHECK(a1 > 0 && a2 > 0 && a1 != a2 && as[0].lease_gen == 1 && as[1].lease_gen == 1);
    CHECK(match_is(a1, "leased", "w-a", 1) && match_is(a2, "leased", "w-a", 1));
    for (int i = 0; i < 2; i++) {
        bool hex = as[i].nprograms > 0;
        for (int k = 0; k < as[i].nprograms; k++)
            hex = hex && is_hex64(as[i].programs[k].digest);
        CHECKF(hex && as[i].cfg.nbots == 3, "assignment %d: %d programs, %d bots", i, as[i].nprograms,
               as[i].cfg.nbots);
    }
    CHECK(atomic_load(&st->workers) == 1 && atomic_load(&st->slots) == 2);

    /* A fetch of a listed program gets the bundle of that digest; an
     * unknown digest gets nil and a reason. */
    char digest[65];
    snprintf(digest, sizeof digest, "%s", as[0].programs[0].digest);
    uint8_t *f8;
    size_t flen;
    if (wire_fetch(digest, &f8, &flen) == 0)
        send_owned(a, f8, flen);
    frame pr = take(a, WIRE_PROGRAM, WAIT_MS);
    char got[65] = "", err[256] = "x", bd[65] = "";
    const uint8_t *bundle = NULL;
    size_t blen = 0;
    CHECK(pr.data && wire_decode_program(pr.data, pr.len, got, &bundle, &blen, err, sizeof err) == 0);
    if (bundle)
        bundle_digest(bundle, blen, bd);
    CHECKF(bundle && blen > 0 && strcmp(got, digest) == 0 && strcmp(bd, digest) == 0 && err[0] == 0,
           "program %s: %zu bytes of digest %s, error \"%s\"", got, blen, bd, err);
    free(pr.data);
    /* The program is in the record (017_programs.sql), as each entrant's,
     * and is served from there: with the file it was packed from gone, a
     * second fetch still gets the bundle of that digest. */
    CHECK(count_of("SELECT count(*) FROM programs WHERE digest = $1 AND codec = 'zstd' AND size = $2", digest,
                   (snprintf(bd, sizeof bd, "%zu", blen), bd)) == 1);
    CHECK(count_of("SELECT count(*) FROM entrant_programs WHERE digest = $1 AND argi = '{0}' AND cardinality(paths) = 1",
                   digest, NULL) == 3);
    CHECKF(unlink(bot_copy) == 0, "%s: %s", bot_copy, strerror(errno));
    if (wire_fetch(digest, &f8, &flen) == 0)
        send_owned(a, f8, flen);
    pr = take(a, WIRE_PROGRAM, WAIT_MS);
    bundle = NULL;
    err[0] = 0;
    bd[0] = 0;
    CHECK(pr.data && wire_decode_program(pr.data, pr.len, got, &bundle, &blen, err, sizeof err) == 0);
    if (bundle)
        bundle_digest(bundle, blen, bd);
    CHECKF(bundle && strcmp(bd, digest) == 0 && err[0] == 0,
           "with its file gone, program %.12s: digest %s, error \"%s\"", digest, bd, err);
    free(pr.data);
    char unknown[65];
    memset(unknown, '0', 64);
    unknown[64] = 0;
    if (wire_fetch(unknown, &f8, &flen) == 0)
        send_owned(a, f8, flen);
    pr = take(a, WIRE_PROGRAM, WAIT_MS);
    bundle = (const uint8_t *)"";
    err[0] = 0;
    CHECK(pr.data && wire_decode_program(pr.data, pr.len, got, &bundle, &blen, err, sizeof err) == 0);
    CHECKF(bundle == NULL && err[0] && strcmp(got, unknown) == 0, "unknown digest: bundle %p, error \"%s\"",
           (const void *)bundle, err);
    free(pr.data);
    CHECK(ULL(st->programs_served) >= 1);

    /* A second worker takes the other two: nothing is pending. */
    fake *b = fake_open("w-b", 1, 2, -1, endpoint);
    say_hello(b, NULL, 0);
    CHECK(take_welcome(b));
    CHECK(take_assign(b, &as[0]) == 0 && take_assign(b, &as[1]) == 0);
    b->beating = true;
    int64_t b1 = as[0].match_id, b2 = as[1].match_id;
    CHECK(b1 != b2 && b1 != a1 && b1 != a2 && b2 != a1 && b2 != a2 && as[0].lease_gen == 1
          && as[1].lease_gen == 1);
    CHECK(count_of("SELECT count(*) FROM matches WHERE state = 'pending'", NULL, NULL) == 0);

    /* 6. A void result is acknowledged and recorded void. */
    unsigned long long voided0 = ULL(st->voided);
    unhold(a, a1);
    send_result(a, a1, 1, false, "test: nothing could play it");
    CHECK(take_ack(a, a1, 1));
    CHECK(ULL(st->voided) == voided0 + 1);
    mrow m = match_row(a1);
    CHECKF(strcmp(m.state, "void") == 0 && strcmp(m.error, "test: nothing could play it") == 0, "%s: %s", m.state,
           m.error);

    /* 7. A hand-back: the match is pending again (nobody has a free slot:
     * w-a says 0 first, then releases). */
    unsigned long long released0 = ULL(st->released);
    beat(a);
    unhold(a, a2);
    uint8_t *rel;
    size_t rlen;
    if (wire_release(a2, 1, "test: handed back", &rel, &rlen) == 0)
        send_owned(a, rel, rlen);
    WAIT_FOR(ULL(st->released) == released0 + 1);
    CHECK(ULL(st->released) == released0 + 1);
    CHECK(match_is(a2, "pending", NULL, 1));
    /* ... recorded as handed back by its worker, not as lost (a referee
     * stopped cleanly showed "lost 1" in `arbiter status`) */
    WAIT_FOR(count_of("SELECT leases_handed_back FROM workers WHERE name = 'w-a'", NULL, NULL) == 1);
    CHECKF(count_of("SELECT leases_handed_back FROM workers WHERE name = 'w-a'", NULL, NULL) == 1
           && count_of("SELECT leases_lost FROM workers WHERE name = 'w-a'", NULL, NULL) == 0,
           "w-a: handed back %ld, lost %ld", count_of("SELECT leases_handed_back FROM workers WHERE name = 'w-a'",
           NULL, NULL), count_of("SELECT leases_lost FROM workers WHERE name = 'w-a'", NULL, NULL));

    /* A worker with one free slot gets it under a new generation. */
    fake *c = fake_open("w-c", 1, 1, -1, endpoint);
    say_hello(c, NULL, 0);
    CHECK(take_welcome(c));
    CHECK(take_assign(c, &as[0]) == 0);
    c->beating = true;
    CHECKF(as[0].match_id == a2 && as[0].lease_gen == 2, "w-c got %" PRId64 "/%d", as[0].match_id,
           as[0].lease_gen);
    CHECK(match_is(a2, "leased", "w-c", 2));

    /* 6. A result from the old generation is acknowledged and discarded. */
    unsigned long long stale0 = ULL(st->stale), done0 = ULL(st->done);
    send_result(a, a2, 1, true, "");
    CHECK(take_ack(a, a2, 1));
    CHECK(ULL(st->stale) == stale0 + 1 && ULL(st->done) == done0);
    CHECK(match_is(a2, "leased", "w-c", 2));
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, a2);
    CHECK(count_of("SELECT count(*) FROM match_seats WHERE match_id = $1 AND total IS NOT NULL", mid, NULL) == 0);
    CHECK(count_of("SELECT count(*) FROM deals WHERE match_id = $1", mid, NULL) == 0);
    CHECK(count_of("SELECT count(*) FROM events WHERE kind = 'stale-result'", NULL, NULL) >= 1);

    /* 8. A worker holding two leases falls silent: gone after a few
     * heartbeats, its leases back in the queue under their generation. */
    unsigned long long expired0 = ULL(st->leases_expired);
    long events0 = count_of("SELECT count(*) FROM events WHERE kind = 'lease-expired'", NULL, NULL);
    b->beating = false;
    WAIT_FOR(ULL(st->leases_expired) >= expired0 + 2 && atomic_load(&st->workers) == 2);
    CHECKF(ULL(st->leases_expired) == expired0 + 2, "leases expired %llu", ULL(st->leases_expired) - expired0);
    CHECK(atomic_load(&st->workers) == 2 && atomic_load(&st->slots) == 3);
    CHECK(match_is(b1, "pending", NULL, 1) && match_is(b2, "pending", NULL, 1));
    CHECK(count_of("SELECT count(*) FROM events WHERE kind = 'lease-expired' AND detail LIKE '%w-b%'", NULL, NULL)
          == events0 + 2);
    char state[32];
    worker_state("w-b", state, sizeof state);
    CHECKF(strcmp(state, "gone") == 0, "w-b is %s", state);
    worker_state("w-a", state, sizeof state);   /* it says it has no free slot: draining, but heard */
    CHECKF(strcmp(state, "connected") == 0 || strcmp(state, "draining") == 0, "w-a is %s", state);

    /* Its late results: acknowledged, told to say hello again, discarded. */
    stale0 = ULL(st->stale);
    voided0 = ULL(st->voided);
    send_result(b, b1, 1, true, "");
    CHECK(take_ack(b, b1, 1));
    frame rh = take(b, WIRE_REHELLO, WAIT_MS);
    CHECK(rh.data != NULL);
    free(rh.data);
    CHECK(ULL(st->stale) == stale0 + 1);
    CHECK(match_is(b1, "pending", NULL, 1));
    /* ... a late void one too: the record is unchanged, and it is counted
     * as stale, not as a match voided (worker-protocol.md, Results). */
    send_result(b, b2, 1, false, "test: late void");
    CHECK(take_ack(b, b2, 1));
    CHECKF(ULL(st->stale) == stale0 + 2, "a stale void result: stale +%llu (want +2)", ULL(st->stale) - stale0);
    CHECKF(ULL(st->voided) == voided0, "a stale void result: voided +%llu (want +0)", ULL(st->voided) - voided0);
    m = match_row(b2);
    CHECKF(strcmp(m.state, "pending") == 0 && m.error[0] == 0 && m.gen == 1, "%s gen %d error \"%s\"", m.state,
           m.gen, m.error);

    /* A result recorded: done, and the worker's freed slot is filled with
     * the next match in order under a new generation. */
    char next[24] = "";
    q1(next, sizeof next, "SELECT id FROM matches WHERE state = 'pending' ORDER BY round, tbl LIMIT 1", NULL, NULL);
    done0 = ULL(st->done);
    unhold(c, a2);
    send_result(c, a2, 2, true, "");
    CHECK(take_ack(c, a2, 2));
    CHECK(ULL(st->done) == done0 + 1);
    CHECK(match_is(a2, "done", NULL, 2));
    CHECK(count_of("SELECT count(*) FROM match_seats WHERE match_id = $1 AND total IS NOT NULL", mid, NULL) == 3);
    CHECK(count_of("SELECT count(*) FROM deals WHERE match_id = $1", mid, NULL) == 1);
    CHECK(take_assign(c, &as[0]) == 0);
    CHECKF(as[0].match_id == strtoll(next, NULL, 10) && as[0].lease_gen == 2, "w-c got %" PRId64 "/%d, want %s/2",
           as[0].match_id, as[0].lease_gen, next);
    ps->held_by_c = as[0].match_id;
    pump_all(300);
    CHECK(match_is(ps->held_by_c, "leased", "w-c", 2));

    CHECK(v1->assigns == 0 && v3->assigns == 0);
    CHECK(!a->in.overflow && !b->in.overflow && !c->in.overflow);
    free(as);
    fake_close(v1);
    fake_close(v3);
    fake_close(b);
    /* w-a and w-c stay until the scheduler stops */
}

static void check_metrics(sched *s, sched_stats *st)
{
    char *text = malloc(1 << 16);
    size_t n = sched_metrics(s, text, 1 << 16);
    CHECK(n > 0 && n < (1 << 16));
    text[n < (1 << 16) ? n : (1 << 16) - 1] = 0;
    CHECKF(metric(text, "arbiter_workers_connected") == atomic_load(&st->workers),
           "arbiter_workers_connected %g, workers %d", metric(text, "arbiter_workers_connected"),
           atomic_load(&st->workers));
    CHECKF(metric(text, "arbiter_matches_done_total") == (double)ULL(st->done), "arbiter_matches_done_total %g, done %llu",
           metric(text, "arbiter_matches_done_total"), ULL(st->done));
    CHECK(metric(text, "arbiter_worker_slots") == atomic_load(&st->slots));
    CHECK(metric(text, "arbiter_matches_void_total") == (double)ULL(st->voided));
    CHECK(metric(text, "arbiter_results_stale_total") == (double)ULL(st->stale));
    CHECK(metric(text, "arbiter_leases_expired_total") == (double)ULL(st->leases_expired));
    CHECK(metric(text, "arbiter_leases_released_total") == (double)ULL(st->released));
    CHECK(metric(text, "arbiter_frames_malformed_total") == (double)ULL(st->malformed));
    CHECK(metric(text, "arbiter_workers_refused_total") == (double)ULL(st->refused));
    free(text);
}

/* ---- A restarted scheduler: adoption ------------------------------------ */

static void test_adoption(sched_stats *st, const char *endpoint, const pool_state *ps)
{
    int64_t x = ps->held_by_c;
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, x);
    char other[24] = "";
    q1(other, sizeof other, "SELECT id FROM matches WHERE state = 'pending' ORDER BY round, tbl LIMIT 1", NULL,
       NULL);
    int64_t y = strtoll(other, NULL, 10);
    CHECK(y > 0 && y != x);
    /* what the first scheduler counted for w-c: this one adds to it */
    long lost0 = count_of("SELECT leases_lost FROM workers WHERE name = 'w-c'", NULL, NULL);
    CHECK(lost0 >= 0);

    /* A hello naming the lease under the wrong generation (and a pending
     * match another worker held last) adopts nothing. */
    fake *d = fake_open("w-c", 1, 2, -1, endpoint);   /* w-c again, after the restart */
    wire_lease wrong[2] = {{x, 1}, {y, 1}};
    say_hello(d, wrong, 2);
    CHECK(take_welcome(d));
    d->beating = true;
    WAIT_FOR(atomic_load(&st->workers) == 1);
    CHECK(atomic_load(&st->workers) == 1 && atomic_load(&st->slots) == 2);
    CHECK(match_is(x, "leased", "w-c", 2));
    CHECK(match_is(y, "pending", NULL, -1));

    /* Under the generation the record holds: adopted, now in its name. */
    wire_lease right = {x, 2};
    say_hello(d, &right, 1);
    CHECK(take_welcome(d));
    hold(d, x, 2);
    CHECK(match_is(x, "leased", "w-c", 2));
    pump_all(4 * HEARTBEAT_MS);   /* past the grace for leases in flight: still held */
    CHECK(match_is(x, "leased", "w-c", 2));
    CHECK(ULL(st->leases_expired) == 0);

    /* Heartbeats that no longer name it: back to the queue. */
    unhold(d, x);
    WAIT_FOR(ULL(st->leases_expired) == 1);
    CHECK(ULL(st->leases_expired) == 1);
    CHECK(match_is(x, "pending", NULL, 2));
#define LOST_C count_of("SELECT leases_lost FROM workers WHERE name = 'w-c'", NULL, NULL)
    WAIT_FOR(LOST_C == lost0 + 1);
    CHECKF(LOST_C == lost0 + 1, "w-c lost %ld, want %ld", LOST_C, lost0 + 1);

    /* It falls silent and comes back on a new connection: its row's
     * counters add up over the reconnection (its hello wrote fresh zeros
     * over them: `arbiter status` said "lost 0" after ten leases lost). */
    d->beating = false;
    WAIT_FOR(atomic_load(&st->workers) == 0);
    CHECK(atomic_load(&st->workers) == 0);
    fake_close(d);
    fake *d2 = fake_open("w-c", 1, 2, -1, endpoint);
    say_hello(d2, &right, 1);   /* x went back to the queue from it, unclaimed since: adopted again */
    CHECK(take_welcome(d2));
    hold(d2, x, 2);
    d2->beating = true;
    WAIT_FOR(match_is(x, "leased", "w-c", 2));
    CHECK(match_is(x, "leased", "w-c", 2));
    pump_all(3 * HEARTBEAT_MS);
    CHECKF(LOST_C == lost0 + 1, "w-c lost %ld after its reconnection, want %ld", LOST_C, lost0 + 1);
    unhold(d2, x);   /* lost again: counted on top */
    WAIT_FOR(LOST_C == lost0 + 2);
    CHECKF(LOST_C == lost0 + 2, "w-c lost %ld after a second loss, want %ld", LOST_C, lost0 + 2);
#undef LOST_C
    /* w-c stays until the scheduler stops */
}

/* ---- The database ------------------------------------------------------- */

static void config(tn_config *cfg, tn_entrant *e, const char *path, const char *bot)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->path, sizeof cfg->path, "%.500s", path);
    snprintf(cfg->name, sizeof cfg->name, "pool test");
    /* every match: one deal, no bank, no strikes, no forfeit stake */
    cfg->match = (match_config){.game = &arb_game_doudizhu, .preset = "standard", .deals = 1,
                                .move_ms = 1000, .deal_ms = 10000, .bank_ms = 0, .startup_ms = 5000};
    cfg->format = TN_ROUND_ROBIN;
    cfg->cycles = 4;   /* 3 entrants at 3-seat tables: one table, met 4 times */
    cfg->seed = 11;
    cfg->nentrants = 3;
    cfg->entrants = e;
    const char *names[] = {"ann", "bob", "cy"};
    for (int i = 0; i < 3; i++) {
        memset(&e[i], 0, sizeof e[i]);
        snprintf(e[i].name, sizeof e[i].name, "%s", names[i]);
        snprintf(e[i].command, sizeof e[i].command, "%s", bot);
    }
}

static sched *start(store *db, const char *state_dir, char *err, size_t errlen)
{
    const char *keys[NKEYS];
    for (int k = 0; k < NKEYS; k++)
        keys[k] = key_entry[k];
    sched_options o = {.db = db, .state_dir = state_dir, .stop = &stop_flag,
                       .listen = "tcp://127.0.0.1:*", .secret_key = ssec, .public_key = spub,
                       .worker_keys = keys, .nworker_keys = NKEYS, .heartbeat_ms = HEARTBEAT_MS,
                       .heartbeat_misses = MISSES, .lease_s = 5, .keep_remote = true};
    return sched_new(&o, err, errlen);
}

int main(int argc, char **argv)
{
    if (argc < 2 || access(argv[1], X_OK) != 0) {
        fprintf(stderr, "usage: test_pool BOT-PROGRAM\n");
        return 2;
    }
    arb_log_setup(ARB_LOG_WARN, ARB_LOG_TEXT);
    char err[512];
    test_db tdb;
    test_db_open(&tdb, "pool");
    store *db = test_db_store(&tdb, &pg);
    char state_dir[] = "/tmp/arbiter-pool-XXXXXX";
    if (!mkdtemp(state_dir)) {
        perror("mkdtemp");
        return 2;
    }
    char yaml_path[600];
    snprintf(yaml_path, sizeof yaml_path, "%s/pool.yaml", state_dir);
    const char *yaml = "name: pool test\ngame: doudizhu\nformat: round-robin\ncycles: 4\n";
    FILE *yf = fopen(yaml_path, "w");
    if (yf) {
        fputs(yaml, yf);
        fclose(yf);
    }
    CHECK(zap_keygen(spub, ssec) == 0);
    for (int k = 0; k < NKEYS; k++) {
        CHECK(zap_keygen(wpub[k], wsec[k]) == 0);
        snprintf(key_entry[k], sizeof key_entry[k], "%.40s %.15s", wpub[k], key_names[k]);
    }
    zctx = zmq_ctx_new();

    tn_config cfg;
    tn_entrant ent[3];
    /* the entrants play a copy of the bot, removed once the record holds it */
    snprintf(bot_copy, sizeof bot_copy, "%s/bot", state_dir);
    char *botb = NULL;
    size_t botn = 0;
    CHECKF(arb_read_file(argv[1], 64u << 20, "the bot", &botb, &botn, err, sizeof err) == 0, "%s", err);
    FILE *bf = fopen(bot_copy, "wb");
    CHECK(bf && fwrite(botb, 1, botn, bf) == botn && fclose(bf) == 0 && chmod(bot_copy, 0755) == 0);
    free(botb);
    config(&cfg, ent, yaml_path, bot_copy);
    sched_tournament_options ro = {.cfg = &cfg, .yaml = yaml,
                      .digest = "0000000000000000000000000000000000000000000000000000000000000011"};

    /* The first scheduler: the pool alone, then a tournament. */
    sched *s = start(db, state_dir, err, sizeof err);
    CHECKF(s != NULL, "%s", err);
    if (!s)
        return TEST_DONE("pool");
    server sv = {.s = s, .ro = &ro};
    sched_stats *st = sched_stats_of(s);
    char endpoint[256];
    snprintf(endpoint, sizeof endpoint, "%s", sched_endpoint(s));
    CHECKF(strncmp(endpoint, "tcp://127.0.0.1:", 16) == 0 && strcmp(endpoint, "tcp://127.0.0.1:*") != 0, "%s",
           endpoint);
    pthread_t th;
    if (pthread_create(&th, NULL, server_main, &sv) != 0)
        return 2;
    test_admission(st, endpoint);
    atomic_store(&sv.tournament_go, 1);
    pool_state ps = {0};
    test_tournament(st, endpoint, &ps);
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
    pthread_join(th, NULL);
    CHECKF(sv.rc == 0, "scheduler: %s", sv.err);
    /* 10. The metrics say what the counters say. */
    check_metrics(s, st);
    CHECK(ULL(st->done) == 1);
    sched_free(s);
    for (int i = nfakes - 1; i >= 0; i--)
        fake_close(fakes[i]);
    /* Stopped: the pool is gone, the lease it gave stays in the record. */
    CHECK(count_of("SELECT count(*) FROM workers WHERE state <> 'gone'", NULL, NULL) == 0);
    if (ps.held_by_c)
        CHECK(match_is(ps.held_by_c, "leased", "w-c", 2));

    /* 9. The restarted scheduler on the same record. */
    __atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
    s = start(db, state_dir, err, sizeof err);
    CHECKF(s != NULL, "%s", err);
    if (s) {
        server sv2 = {.s = s, .ro = NULL};
        st = sched_stats_of(s);
        snprintf(endpoint, sizeof endpoint, "%s", sched_endpoint(s));
        if (pthread_create(&th, NULL, server_main, &sv2) != 0)
            return 2;
        if (ps.held_by_c)
            test_adoption(st, endpoint, &ps);
        __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
        pthread_join(th, NULL);
        CHECKF(sv2.rc == 0, "scheduler: %s", sv2.err);
        check_metrics(s, st);
        CHECK(ULL(st->done) == 0);
        sched_free(s);
    }
    for (int i = nfakes - 1; i >= 0; i--)
        fake_close(fakes[i]);
    zmq_ctx_term(zctx);

    store_close(db);
    PQfinish(pg);
    test_db_close(&tdb);
    if (arb_remove_tree(state_dir) != 0)
        fprintf(stderr, "could not remove %s\n", state_dir);
    return TEST_DONE("pool");
}
