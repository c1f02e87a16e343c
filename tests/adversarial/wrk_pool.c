/* wrk_pool.c — a hostile worker key holder against a real scheduler (CURVE
 * tcp on loopback, ZAP, a real PostgreSQL): mallory holds a listed key and
 * tries what issue 10 found working. Each check below failed before the
 * fix it guards (docs/security.md, "Worker and scheduler key holders"):
 *   - another worker's name (as routing id and in hello) took its route
 *     and could adopt its lease: now the identity is the key's (ZAP
 *     User-Id) and routes are unguessable;
 *   - a result, void or hand-back for a match leased to another worker
 *     was recorded: now only the holder's are;
 *   - a frame with \xff in a string stopped the scheduler (PostgreSQL
 *     encoding error): now every wire string is checked; and a statement
 *     that fails for one frame (a number past bigint) no longer stops it;
 *   - a result for its own lease whose transcript was signed by another
 *     key than the one its hello announced, or not signed, was recorded:
 *     now it is refused and the match void;
 *   - many connections of one key were many workers: now one key is one
 *     peer, its handshakes and frames are budgeted;
 *   - transcript chunks (wire version 6): for another's lease, out of
 *     order, overlapping, past their total, changing their total: refused
 *     and bounded; a transcript whose bytes are not the signed digest's
 *     voids its match with the reason in the record;
 * while the honest worker keeps its lease and records its result. Key
 * lists that would make identities ambiguous are refused at start.
 *
 * argv[1]: a bot program (the entrants' command). The database:
 * ARBITER_TEST_DB when set, else a private cluster in a temp dir. */
#include "scheduler.h"
#include "ddz.h"
#include "arb_file.h"
#include "pgctl.h"
#include "store.h"
#include "wire.h"
#include "zap.h"
#include "fake_worker.h"
#include "test_db.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_log.h"
#include "arb_sign.h"
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
#include <unistd.h>
#include <zmq.h>

#define HEARTBEAT_MS 100
#define WAIT_MS 10000
#define MANY 40                 /* connections mallory opens with one key */
#define FLOOD 20000             /* frames mallory sends as fast as it can */

static PGconn *pg;
static void *zctx;
static char spub[ZAP_KEY_TEXT], ssec[ZAP_KEY_TEXT];
static char hpub[ZAP_KEY_TEXT], hsec[ZAP_KEY_TEXT], mpub[ZAP_KEY_TEXT], msec[ZAP_KEY_TEXT];
static char mallory[ZAP_KEY_TEXT + 8];   /* the identity of mallory's key */

static uint64_t now_ms(void) { return arb_now_ns() / 1000000u; }

/* ---- The record --------------------------------------------------------- */

static long count_of(const char *sql, const char *p1)
{
    const char *params[1] = {p1};
    PGresult *r = PQexecParams(pg, sql, p1 ? 1 : 0, NULL, params, NULL, NULL, 0);
    long n = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? strtol(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    return n;
}

/* state, holder and generation of a match as one string "leased honest 1" */
static void match_says(int64_t id, char *out, size_t cap)
{
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, id);
    const char *params[] = {mid};
    PGresult *r = PQexecParams(pg, "SELECT state || ' ' || coalesce(leased_by, '-') || ' ' || lease_gen "
                                   "FROM matches WHERE id = $1", 1, NULL, params, NULL, NULL, 0);
    snprintf(out, cap, "%s", PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "?");
    PQclear(r);
}

/* One column of a match's row as text ("" when NULL). */
static void match_col(int64_t id, const char *col, char *out, size_t cap)
{
    char mid[24], sql[160];
    snprintf(mid, sizeof mid, "%" PRId64, id);
    snprintf(sql, sizeof sql, "SELECT coalesce(%s::text, '') FROM matches WHERE id = $1::bigint", col);
    const char *p[] = {mid};
    PGresult *r = PQexecParams(pg, sql, 1, NULL, p, NULL, NULL, 0);
    out[0] = 0;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        snprintf(out, cap, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
}

static bool match_is(int64_t id, const char *want)
{
    char got[160];
    match_says(id, got, sizeof got);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "match %" PRId64 ": \"%s\", wanted \"%s\"\n", id, got, want);
    return strcmp(got, want) == 0;
}

/* ---- Workers spoken by hand --------------------------------------------- */

typedef fw_frame frame;

typedef struct fake {
    void *sock;
    fw_inbox in;
    int welcomes, assigns;
} fake;

/* A DEALER with key (pub, sec); rid NULL: 16 random bytes, as a worker. */
static fake *fake_open(const char *pub, const char *sec, const char *rid, const char *endpoint)
{
    fake *f = calloc(1, sizeof *f);
    if (!f)
        exit(2);
    f->sock = fw_dealer(zctx, pub, sec, spub, rid, endpoint);
    return f;
}

static void fake_close(fake *f)
{
    zmq_close(f->sock);
    fw_inbox_free(&f->in);
    free(f);
}

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
        int kind = wire_kind_of(zmq_msg_data(&m), (size_t)n);
        f->welcomes += kind == WIRE_WELCOME;
        f->assigns += kind == WIRE_ASSIGN;
        if (kind != WIRE_HEARTBEAT)
            fw_keep(&f->in, zmq_msg_data(&m), (size_t)n);
        zmq_msg_close(&m);
    }
}

static fake *all[MANY + 8];
static int nall;
static fake *beating;                  /* the honest worker: it beats while we wait */
static wire_lease beat_held[1];
static int nbeat_held;

static void pump(int ms)
{
    static uint64_t next_beat;
    uint64_t end = now_ms() + (uint64_t)ms;
    do {
        if (beating && now_ms() >= next_beat) {
            uint8_t *b;
            size_t len;
            if (wire_heartbeat(1 - nbeat_held, beat_held, nbeat_held, &b, &len) == 0) {
                zmq_send(beating->sock, b, len, 0);
                free(b);
            }
            next_beat = now_ms() + HEARTBEAT_MS / 2;
        }
        zmq_pollitem_t items[MANY + 8];
        for (int i = 0; i < nall; i++)
            items[i] = (zmq_pollitem_t){all[i]->sock, 0, ZMQ_POLLIN, 0};
        zmq_poll(items, nall, 10);
        for (int i = 0; i < nall; i++)
            drain(all[i]);
    } while (now_ms() < end);
}

static frame take(fake *f, int kind, int ms) { return fw_take_wait(&f->in, kind, ms, pump); }

static bool take_ack(fake *f, int64_t id, int gen, int ms)
{
    frame fr = take(f, WIRE_ACK, ms);
    int64_t got = -1;
    int g = -1;
    bool ok = fr.data && wire_decode_ack(fr.data, fr.len, &got, &g) == 0 && got == id && g == gen;
    free(fr.data);
    return ok;
}

static void send_owned(fake *f, uint8_t *b, size_t len)
{
    zmq_send(f->sock, b, len, 0);
    free(b);
}

static void hello(fake *f, const char *name, int slots, const wire_lease *run, int nrun)
{
    uint8_t *b;
    size_t len;
    if (wire_hello(name, slots, run, nrun, fw_sign_pk(), &b, &len) == 0)
        send_owned(f, b, len);
}

/* A result frame for (id, gen): ok with one deal, or void with `error`;
 * decisions as given (a number the record cannot hold makes its
 * statement fail). */
static void result_of(fake *f, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                      uint64_t decisions)
{
    fw_send_result(f->sock, id, gen, ok, error, transcript, decisions);
}

static void result(fake *f, int64_t id, int gen, bool ok, const char *error, const char *transcript)
{
    result_of(f, id, gen, ok, error, transcript, 12);
}

/* ---- The scheduler, in its own thread ----------------------------------- */

static volatile sig_atomic_t stop_flag;

typedef struct server {
    sched *s;
    const sched_tournament_options *ro;
    atomic_bool running;
    int rc;
    sched_outcome out;
    char err[512];
} server;

static void *server_main(void *arg)
{
    server *sv = arg;
    sv->rc = sched_tournament(sv->s, sv->ro, &sv->out, sv->err, sizeof sv->err);
    if (sv->rc)
        fprintf(stderr, "scheduler stopped: %s\n", sv->err);
    atomic_store(&sv->running, false);
    return NULL;
}

#define ULL(x) ((unsigned long long)atomic_load(&(x)))
#define WAIT_FOR(cond)                                  \
    do {                                                \
        uint64_t end_ = now_ms() + WAIT_MS;             \
        while (!(cond) && now_ms() < end_)              \
            pump(20);                                   \
    } while (0)

/* A transcript chunk as a hostile worker writes it, bounds unchecked:
 * [13, id, gen, total, offset, bin of n zero bytes]. */
static void raw_chunk(fake *f, int64_t id, int gen, uint64_t total, uint64_t offset, uint32_t n)
{
    size_t len = 1 + 1 + 9 + 5 + 9 + 9 + 5 + n, k = 0;
    uint8_t *b = calloc(1, len);
    b[k++] = 0x96;
    b[k++] = WIRE_TRANSCRIPT;
    uint64_t v[3] = {(uint64_t)id, total, offset};
    for (int i = 0; i < 3; i++) {
        if (i == 1) {   /* gen, int32 */
            b[k++] = 0xd2;
            for (int s = 24; s >= 0; s -= 8)
                b[k++] = (uint8_t)((uint32_t)gen >> s);
        }
        b[k++] = 0xcf;
        for (int s = 56; s >= 0; s -= 8)
            b[k++] = (uint8_t)(v[i] >> s);
    }
    b[k++] = 0xc6;
    for (int s = 24; s >= 0; s -= 8)
        b[k++] = (uint8_t)(n >> s);
    zmq_send(f->sock, b, k + n, 0);
    free(b);
}

/* 8. Transcript chunks from a hostile worker (and a confused honest one):
 * each refused and counted, nothing held past its bounds, the scheduler
 * going on; a transcript whose bytes are not those of the signed digest
 * voids its match with the reason. */
static void chunks(sched_stats *st, fake *honest, fake *m, int64_t z, int gen)
{
    uint8_t *tr, sig[64];
    size_t tlen;
    char digest[65];
    fw_transcript(z, gen, fw_sign_key(), &tr, &tlen, digest, sig);
    size_t half = tlen / 2;
    unsigned long long refused0 = ULL(st->transcripts_refused), malformed0 = ULL(st->malformed);
    /* for the honest worker's lease, from mallory */
    fw_send_chunk(m->sock, z, gen, tlen, 0, tr, tlen);
    /* out of order: a chunk with nothing before it */
    fw_send_chunk(honest->sock, z, gen, tlen, 5, tr + 5, 10);
    /* overlapping: the second chunk starts inside the first */
    fw_send_chunk(honest->sock, z, gen, tlen, 0, tr, half);
    fw_send_chunk(honest->sock, z, gen, tlen, half - 3, tr + half - 3, 10);
    WAIT_FOR(ULL(st->transcripts_refused) >= refused0 + 3);
    CHECKF(ULL(st->transcripts_refused) == refused0 + 3, "refused +%llu", ULL(st->transcripts_refused) - refused0);
    /* so its result came without a whole transcript: not acknowledged
     * (resent with its chunks), not recorded */
    fw_send_result_with(honest->sock, z, gen, true, "", "", 12, fw_sign_key(), false);
    CHECK(!take_ack(honest, z, gen, 500));
    char held_as[40];
    snprintf(held_as, sizeof held_as, "leased honest %d", gen);
    CHECK(match_is(z, held_as));
    /* past its total, a chunk larger than ARB_WIRE_TRANSCRIPT_CHUNK, a
     * total past ARB_MAX_TRANSCRIPT: malformed, never held */
    raw_chunk(honest, z, gen, 100, 90, 20);
    raw_chunk(honest, z, gen, 4u << 20, 0, ARB_WIRE_TRANSCRIPT_CHUNK + 1);
    raw_chunk(honest, z, gen, (uint64_t)ARB_MAX_TRANSCRIPT + 1, 0, 10);
    WAIT_FOR(ULL(st->malformed) >= malformed0 + 3);
    CHECKF(ULL(st->malformed) == malformed0 + 3, "malformed +%llu", ULL(st->malformed) - malformed0);
    /* its total changing half-way: refused, and what came of it dropped */
    refused0 = ULL(st->transcripts_refused);
    fw_send_chunk(honest->sock, z, gen, tlen, 0, tr, half);
    fw_send_chunk(honest->sock, z, gen, tlen + 7, half, tr + half, tlen - half);
    WAIT_FOR(ULL(st->transcripts_refused) >= refused0 + 1);
    CHECK(ULL(st->transcripts_refused) == refused0 + 1);
    /* A whole transcript, its digest signed, but one byte of it not what
     * was signed: the result is refused, the match void, and the record
     * says why. */
    tr[3] ^= 1;
    unsigned long long forged0 = ULL(st->forged), done0 = ULL(st->done);
    fw_send_chunk(honest->sock, z, gen, tlen, 0, tr, half);
    fw_send_chunk(honest->sock, z, gen, tlen, half, tr + half, tlen - half);
    fw_send_result_with(honest->sock, z, gen, true, "", "", 12, fw_sign_key(), false);
    CHECK(take_ack(honest, z, gen, WAIT_MS));
    CHECKF(ULL(st->forged) == forged0 + 1 && ULL(st->done) == done0, "forged +%llu done +%llu",
           ULL(st->forged) - forged0, ULL(st->done) - done0);
    char state[16] = "", error[600] = "", zmid[24];
    match_col(z, "state", state, sizeof state);
    match_col(z, "error", error, sizeof error);
    CHECKF(strcmp(state, "void") == 0 && strstr(error, "transcript is refused") && strstr(error, "hash to"),
           "match %" PRId64 ": %s: %s", z, state, error);
    snprintf(zmid, sizeof zmid, "%" PRId64, z);
    CHECK(count_of("SELECT count(*) FROM events WHERE kind = 'refused-result' AND strpos(detail, 'match ' || $1 || ' ') > 0 "
                   "AND detail LIKE '%transcript%'", zmid) == 1);
    CHECK(count_of("SELECT count(*) FROM transcripts WHERE digest = $1", digest) == 0);
    nbeat_held = 0;
    free(tr);
}

static void attacks(server *sv, sched_stats *st, const char *ep)
{
    WAIT_FOR(count_of("SELECT count(*) FROM matches WHERE state = 'pending'", NULL) == 4);
    CHECK(count_of("SELECT count(*) FROM matches WHERE state = 'pending'", NULL) == 4);

    /* The honest worker: one slot, one lease. */
    fake *honest = all[nall++] = fake_open(hpub, hsec, NULL, ep);
    hello(honest, "honest", 1, NULL, 0);
    frame fr = take(honest, WIRE_ASSIGN, WAIT_MS);
    wire_assign *a = calloc(1, sizeof *a);
    CHECK(fr.data && wire_decode_assign(fr.data, fr.len, a) == 0);
    free(fr.data);
    int64_t x = a->match_id;
    free(a);
    beat_held[0] = (wire_lease){x, 1};
    nbeat_held = 1;
    beating = honest;
    CHECK(x > 0 && match_is(x, "leased honest 1"));

    /* 1. Another's name. A connection whose routing id is the honest
     * worker's name (the old route: handover gave it the honest worker's
     * frames) is not even heard: routes are 16 random bytes. */
    unsigned long long malformed0 = ULL(st->malformed);
    fake *thief = all[nall++] = fake_open(mpub, msec, "honest", ep);
    wire_lease claim = {x, 1};
    hello(thief, "honest", 1, &claim, 1);
    WAIT_FOR(ULL(st->malformed) >= malformed0 + 1);
    pump(300);
    CHECKF(thief->welcomes == 0 && thief->assigns == 0, "a guessable route got %d welcomes", thief->welcomes);
    /* With a proper route and the honest worker's name in its hello, and
     * the honest lease named as its own: it is mallory (its key), and
     * adopts nothing. */
    fake *m = all[nall++] = fake_open(mpub, msec, NULL, ep);
    hello(m, "honest", 0, &claim, 1);
    fr = take(m, WIRE_WELCOME, WAIT_MS);
    CHECK(fr.data != NULL);
    free(fr.data);
    pump(300);
    CHECK(match_is(x, "leased honest 1"));
    CHECK(count_of("SELECT count(*) FROM workers WHERE name = $1", mallory) == 1);
    CHECK(count_of("SELECT count(*) FROM workers WHERE name = 'honest'", NULL) == 1);
    CHECK(atomic_load(&st->workers) == 2);

    /* 2. Forged result, void and hand-back for the honest lease: the same
     * acknowledgement as a stale one (nothing learnt), nothing recorded. */
    unsigned long long forged0 = ULL(st->forged), done0 = ULL(st->done);
    result(m, x, 1, true, "", "/nowhere/forged.arbt");
    CHECK(take_ack(m, x, 1, WAIT_MS));
    CHECKF(ULL(st->forged) == forged0 + 1 && ULL(st->done) == done0, "forged +%llu done +%llu",
           ULL(st->forged) - forged0, ULL(st->done) - done0);
    CHECK(match_is(x, "leased honest 1"));
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, x);
    CHECK(count_of("SELECT count(*) FROM deals WHERE match_id = $1", mid) == 0);
    CHECK(count_of("SELECT count(*) FROM events WHERE kind = 'refused-result' AND strpos(detail, $1) > 0", mallory)
          == 1);
    result(m, x, 1, false, "forged: nothing could play it", "");
    CHECK(take_ack(m, x, 1, WAIT_MS));
    CHECK(match_is(x, "leased honest 1") && ULL(st->forged) == forged0 + 2);
    unsigned long long released0 = ULL(st->released);
    uint8_t *b;
    size_t len;
    if (wire_release(x, 1, "forged hand-back", &b, &len) == 0)
        send_owned(m, b, len);
    pump(500);
    CHECK(match_is(x, "leased honest 1") && ULL(st->released) == released0);
    int acks = 0;   /* the holder heard nothing of it */
    acks += fw_count_kind(&honest->in, WIRE_ACK);
    CHECK(acks == 0);

    /* 3. Poison strings: refused as malformed before SQL or a log line;
     * the scheduler goes on. */
    malformed0 = ULL(st->malformed);
    result(m, x, 1, false, "\xff\xfe not UTF-8", "");
    result(m, x, 1, true, "", "/tmp/\x1b]0;pwned\x07.arbt");
    result(m, x, 1, false, "bell\x07 and \xc0\xaf overlong", "");
    hello(m, "ev\xffil", 0, NULL, 0);
    hello(m, "new\nline", 0, NULL, 0);
    if (wire_release(x, 1, "\xed\xa0\x80 surrogate", &b, &len) == 0)
        send_owned(m, b, len);
    WAIT_FOR(ULL(st->malformed) >= malformed0 + 6);
    pump(300);
    CHECKF(ULL(st->malformed) == malformed0 + 6, "malformed +%llu", ULL(st->malformed) - malformed0);
    CHECK(atomic_load(&sv->running));
    CHECK(match_is(x, "leased honest 1"));
    CHECK(count_of("SELECT count(*) FROM workers WHERE name NOT IN ('honest', $1)", mallory) == 0);

    /* 4. Many connections of one key: one peer, and past
     * ARB_ZAP_HANDSHAKES_PER_MIN no handshake at all. */
    int welcomed = 0;
    fake *many[MANY];
    for (int i = 0; i < MANY; i++) {
        many[i] = all[nall++] = fake_open(mpub, msec, NULL, ep);
        hello(many[i], "many", 0, NULL, 0);
    }
    pump(2000);
    for (int i = 0; i < MANY; i++)
        welcomed += many[i]->welcomes > 0;
    CHECKF(welcomed >= 1 && welcomed <= ARB_ZAP_HANDSHAKES_PER_MIN, "%d of %d connections of one key welcomed",
           welcomed, MANY);
    CHECKF(atomic_load(&st->workers) == 2, "%d workers", atomic_load(&st->workers));

    /* 5. A flood from one key: dropped unread past its budget; the honest
     * worker's result is recorded and acknowledged all the same. */
    unsigned long long flooded0 = ULL(st->flooded);
    if (wire_heartbeat(0, NULL, 0, &b, &len) == 0) {
        for (int i = 0; i < FLOOD; i++)
            zmq_send(m->sock, b, len, 0);
        free(b);
    }
    /* 6. A statement that fails for one frame (decisions past bigint) on a
     * live database: not acknowledged, counted, the scheduler goes on (it
     * stopped before) and records the worker's next try. */
    unsigned long long errors0 = ULL(st->store_errors);
    result_of(honest, x, 1, true, "", "/var/lib/arbiter/transcripts/m1-g1.arbt", UINT64_MAX);
    WAIT_FOR(ULL(st->store_errors) > errors0);
    CHECKF(ULL(st->store_errors) == errors0 + 1, "store errors +%llu", ULL(st->store_errors) - errors0);
    CHECK(atomic_load(&sv->running) && match_is(x, "leased honest 1"));
    CHECK(!take_ack(honest, x, 1, 300));
    nbeat_held = 0;
    result(honest, x, 1, true, "", "/var/lib/arbiter/transcripts/m1-g1.arbt");
    CHECK(take_ack(honest, x, 1, WAIT_MS));
    CHECK(match_is(x, "done honest 1"));
    CHECK(count_of("SELECT count(*) FROM deals WHERE match_id = $1", mid) == 1);
    /* ... with the signature it carried, by the key its hello announced */
    char key_hex[65], sig_hex[129], digest_hex[65];
    arb_key_hex(fw_sign_pk(), key_hex);
    match_col(x, "signer_key", key_hex, sizeof key_hex);
    match_col(x, "signature", sig_hex, sizeof sig_hex);
    match_col(x, "digest", digest_hex, sizeof digest_hex);
    uint8_t pk_b[32], sig_b[64], dig_b[32];
    CHECK(arb_unhex(key_hex, pk_b, 32) == 0 && memcmp(pk_b, fw_sign_pk(), 32) == 0);
    CHECK(arb_unhex(sig_hex, sig_b, 64) == 0 && arb_unhex(digest_hex, dig_b, 32) == 0
          && arb_sign_verify(pk_b, dig_b, sig_b));
    /* ... and its transcript in the record under that digest */
    CHECK(count_of("SELECT count(*) FROM transcripts WHERE digest = $1 AND raw_size > 0", digest_hex) == 1);

    /* 7. Its own lease, a result signed by a key it did not announce, and
     * one not signed at all: refused, counted as forged, the match void
     * and the refusal in the events (the scheduler recorded both before
     * transcripts were signed). */
    arb_sign_key other;
    CHECK(arb_sign_random(&other) == 0);
    for (int k = 0; k < 2; k++) {
        fr = take(honest, WIRE_ASSIGN, WAIT_MS);
        wire_assign *na = calloc(1, sizeof *na);
        CHECK(fr.data && wire_decode_assign(fr.data, fr.len, na) == 0);
        free(fr.data);
        int64_t y = na->match_id;
        int gen = na->lease_gen;
        free(na);
        forged0 = ULL(st->forged);
        done0 = ULL(st->done);
        fw_send_result_signed(honest->sock, y, gen, true, "", "/var/lib/arbiter/transcripts/y.arbt", 12,
                              k == 0 ? &other : NULL);
        CHECK(take_ack(honest, y, gen, WAIT_MS));
        CHECKF(ULL(st->forged) == forged0 + 1 && ULL(st->done) == done0, "%s: forged +%llu done +%llu",
               k ? "unsigned" : "another key", ULL(st->forged) - forged0, ULL(st->done) - done0);
        char ymid[24], state[16] = "";
        snprintf(ymid, sizeof ymid, "%" PRId64, y);
        match_col(y, "state", state, sizeof state);
        CHECKF(strcmp(state, "void") == 0, "match %" PRId64 " is %s", y, state);
        CHECK(count_of("SELECT count(*) FROM deals WHERE match_id = $1", ymid) == 0);
        CHECK(count_of("SELECT count(*) FROM events WHERE kind = 'refused-result' "
                       "AND strpos(detail, 'match ' || $1 || ' ') > 0 AND detail LIKE '%sign%'", ymid) == 1);
    }
    WAIT_FOR(ULL(st->flooded) > flooded0);
    CHECKF(ULL(st->flooded) > flooded0, "flooded +%llu", ULL(st->flooded) - flooded0);
    CHECK(atomic_load(&sv->running));
    /* the last match, to the honest worker: held (its heartbeats name it)
     * while mallory's budget refills, so that its frames below are heard */
    fr = take(honest, WIRE_ASSIGN, WAIT_MS);
    wire_assign *za = calloc(1, sizeof *za);
    CHECK(fr.data && wire_decode_assign(fr.data, fr.len, za) == 0);
    free(fr.data);
    beat_held[0] = (wire_lease){za->match_id, za->lease_gen};
    nbeat_held = 1;
    pump(1200);
    chunks(st, honest, m, za->match_id, za->lease_gen);
    free(za);
    beating = NULL;
}

/* ---- The database and main ---------------------------------------------- */

int main(int argc, char **argv)
{
    if (argc < 2 || access(argv[1], X_OK) != 0) {
        fprintf(stderr, "usage: wrk_pool BOT-PROGRAM\n");
        return 2;
    }
    arb_log_setup(ARB_LOG_ERROR, ARB_LOG_TEXT);
    char err[512];
    test_db tdb;
    test_db_open(&tdb, "wrk");
    store *db = test_db_store(&tdb, &pg);
    char state_dir[] = "/tmp/arbiter-wrk-pool-XXXXXX";
    if (!mkdtemp(state_dir))
        return 2;
    char yaml_path[600];
    snprintf(yaml_path, sizeof yaml_path, "%s/t.yaml", state_dir);
    const char *yaml = "name: wrk\n";
    FILE *yf = fopen(yaml_path, "w");
    if (yf) {
        fputs(yaml, yf);
        fclose(yf);
    }
    CHECK(zap_keygen(spub, ssec) == 0 && zap_keygen(hpub, hsec) == 0 && zap_keygen(mpub, msec) == 0);
    char hentry[64], mentry[64];
    snprintf(hentry, sizeof hentry, "%s honest", hpub);
    /* mallory's key has no name: its identity is "key:" and the key */
    snprintf(mentry, sizeof mentry, "%s", mpub);
    snprintf(mallory, sizeof mallory, "key:%s", mpub);
    const char *keys[] = {hentry, mentry};
    zctx = zmq_ctx_new();

    tn_config cfg;
    tn_entrant ent[3];
    memset(&cfg, 0, sizeof cfg);
    snprintf(cfg.path, sizeof cfg.path, "%.500s", yaml_path);
    snprintf(cfg.name, sizeof cfg.name, "wrk");
    cfg.match = (match_config){.game = &arb_game_doudizhu, .preset = "standard", .deals = 1,
                               .move_ms = 1000, .deal_ms = 10000, .startup_ms = 5000};
    cfg.format = TN_ROUND_ROBIN;
    cfg.cycles = 4;
    cfg.seed = 5;
    cfg.nentrants = 3;
    cfg.entrants = ent;
    const char *names[] = {"ann", "bob", "cy"};
    for (int i = 0; i < 3; i++) {
        memset(&ent[i], 0, sizeof ent[i]);
        snprintf(ent[i].name, sizeof ent[i].name, "%s", names[i]);
        snprintf(ent[i].command, sizeof ent[i].command, "%s", argv[1]);
    }
    sched_tournament_options ro = {.cfg = &cfg, .yaml = yaml,
                      .digest = "0000000000000000000000000000000000000000000000000000000000000022"};
    sched_options o = {.db = db, .state_dir = state_dir, .stop = &stop_flag, .listen = "tcp://127.0.0.1:*",
                       .secret_key = ssec, .public_key = spub, .worker_keys = keys, .nworker_keys = 2,
                       .heartbeat_ms = HEARTBEAT_MS, .heartbeat_misses = 20, .lease_s = 30, .keep_remote = true};
    /* Key lists that would make identities ambiguous are refused at start:
     * a bad name, a name twice, the local worker's name, a key twice. */
    char bad_name[80], local_name[80], twice_name[80];
    snprintf(bad_name, sizeof bad_name, "%s ev'il", mpub);
    snprintf(local_name, sizeof local_name, "%s local:0", mpub);
    snprintf(twice_name, sizeof twice_name, "%s honest", mpub);
    const char *bad_lists[][2] = {{hentry, bad_name}, {hentry, local_name}, {hentry, twice_name}, {hpub, hentry}};
    for (int i = 0; i < 4; i++) {
        sched_options bo = o;
        bo.worker_keys = bad_lists[i];
        err[0] = 0;
        sched *bs = sched_new(&bo, err, sizeof err);
        CHECKF(bs == NULL && err[0], "key list %d accepted (%s)", i, err);
        sched_free(bs);
    }
    sched *s = sched_new(&o, err, sizeof err);
    CHECKF(s != NULL, "%s", err);
    if (!s)
        return TEST_DONE("wrk_pool");
    server sv = {.s = s, .ro = &ro};
    atomic_store(&sv.running, true);
    char ep[256];
    snprintf(ep, sizeof ep, "%s", sched_endpoint(s));
    pthread_t th;
    if (pthread_create(&th, NULL, server_main, &sv) != 0)
        return 2;
    attacks(&sv, sched_stats_of(s), ep);
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);   /* read by the scheduler's thread */
    pthread_join(th, NULL);
    CHECKF(sv.rc == 0, "scheduler: %s", sv.err);
    sched_free(s);
    for (int i = 0; i < nall; i++)
        fake_close(all[i]);
    zmq_ctx_term(zctx);
    store_close(db);
    PQfinish(pg);
    test_db_close(&tdb);
    if (arb_remove_tree(state_dir) != 0)
        fprintf(stderr, "could not remove %s\n", state_dir);
    return TEST_DONE("wrk_pool");
}
