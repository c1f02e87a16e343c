/* test_wire.c — the scheduler <-> worker messages (wire.h) and program
 * bundles (bundle.h) against hostile frames: every kind round-trips; every
 * truncation, random frames and single-byte mutations are refused or
 * decoded without a crash (each copied into a buffer of exactly its size,
 * so ASan sees a read past the end); headers claiming billions of elements
 * are refused before anything is sized by them; versions, caps, indexes and
 * digests are checked; bundles keep their layout and modes, and a bundle
 * naming an unsafe path, a path twice, a strange mode or trailing bytes is
 * refused leaving nothing behind in the cache.
 *
 * `test_wire --write-corpus DIR` writes one valid frame of each kind (and
 * three bundles) into DIR: the seed corpus of tests/fuzz/fuzz_wire.c. */
#include "wire.h"
#include "bundle.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_mp.h"
#include "arb_rng.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* the signing key a hello carries (decoded into, encoded from) */
static uint8_t hpk[32] = {1, 2, 3};

static msgpack_sbuffer sb;
static msgpack_packer pk;

static void fresh(void) { msgpack_sbuffer_clear(&sb); }

/* For checks run hundreds of thousands of times: only a failure counts. */
#define FAIL_IF(cond, ...) do { if (cond) CHECKF(!(cond), __VA_ARGS__); } while (0)

static void pstr(const char *s) { msgpack_pack_str_with_body(&pk, s, strlen(s)); }

/* A copy in a heap block of exactly len bytes: one byte read past the end
 * is an ASan report. */
static uint8_t *exact(const void *data, size_t len)
{
    uint8_t *p = malloc(len);
    if (!p && len) {
        perror("malloc");
        exit(2);
    }
    if (len)
        memcpy(p, data, len);
    return p;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char D1[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
static const char D2[] = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

/* ---- sample messages ---- */

static void sample_assign(wire_assign *a)
{
    memset(a, 0, sizeof *a);
    match_config *c = &a->cfg;
    match_config_init(c, arb_game_find("doudizhu"));
    a->match_id = 4200000000123;
    a->lease_gen = 7;
    snprintf(c->options, sizeof c->options, "bombs=4\nspring=on\n");
    c->seed = UINT64_MAX - 5;
    for (int i = 0; i < 32; i++)
        c->key[i] = (uint8_t)(0xc0 + i);
    snprintf(c->key_label, sizeof c->key_label, "match|7|2|3");
    snprintf(c->commitment, sizeof c->commitment, "%064d", 0);
    c->deals = 12;
    c->duplicate = MATCH_DUP_ROTATE;
    c->fixed_seats = true;
    c->move_ms = 1500;
    c->deal_ms = -1;
    c->bank_ms = 30000;
    c->startup_ms = 5000;
    c->policy = MATCH_FORFEIT_DEAL;
    c->strikes = 5;
    c->forfeit_points = -6;
    c->nbots = 3;
    static const char *const names[] = {"alpha", "beta", "gamma"};
    static const char *const argv[3][3] = {
        {"/usr/bin/python3", "/srv/bots/alpha/run.py", NULL},
        {"/srv/bots/beta/beta", NULL, NULL},
        {"/usr/bin/node", "--stack-size=4096", "/srv/bots/gamma/main.js"},
    };
    for (int b = 0; b < 3; b++) {
        snprintf(c->bots[b].name, sizeof c->bots[b].name, "%s", names[b]);
        for (int i = 0; i < 3 && argv[b][i]; i++)
            snprintf(c->bots[b].argv[c->bots[b].argc++], sizeof c->bots[b].argv[0], "%s", argv[b][i]);
    }
    a->nprograms = 2;
    a->programs[0] = (wire_program){.bot = 0, .argi = 1};
    snprintf(a->programs[0].digest, sizeof a->programs[0].digest, "%s", D1);
    snprintf(a->programs[0].path, sizeof a->programs[0].path, "run.py");
    a->programs[1] = (wire_program){.bot = 2, .argi = 2};
    snprintf(a->programs[1].digest, sizeof a->programs[1].digest, "%s", D2);
    snprintf(a->programs[1].path, sizeof a->programs[1].path, "js/main.js");
}

/* res.deals is malloc'ed: match_result_release. */
static void sample_result(wire_result *r, uint32_t ndeals, bool ok)
{
    memset(r, 0, sizeof *r);
    r->match_id = 99;
    r->lease_gen = 3;
    r->ok = ok;
    snprintf(r->error, sizeof r->error, "%s", ok ? "" : "bot beta did not start");
    snprintf(r->digest, sizeof r->digest, "%s", ok ? D2 : "");
    snprintf(r->transcript, sizeof r->transcript, "%s", ok ? "/var/lib/arbiter/transcripts/99.arbt" : "");
    r->is_signed = ok;
    for (size_t i = 0; ok && i < sizeof r->signature; i++)
        r->signature[i] = (uint8_t)(i * 7 + 1);
    match_result *res = &r->res;
    res->nbots = 3;
    static const char *const names[] = {"alpha", "beta", "gamma"};
    for (int b = 0; b < 3; b++) {
        match_bot_stats *s = &res->bots[b];
        snprintf(s->name, sizeof s->name, "%s", names[b]);
        snprintf(s->sandbox, sizeof s->sandbox, "landlock");
        s->total = (b - 1) * 12;
        s->rank = 3 - b;
        s->forfeited = b == 0;
        s->decisions = 100u + (uint32_t)b;
        s->wall_ns = 123456789ull * (uint64_t)(b + 1);
        s->cpu_ns = 98765ull * (uint64_t)(b + 1);
        s->strikes = (uint32_t)b;
        s->penalties = 2u * (uint32_t)b;
    }
    res->ndeals = ndeals;
    res->decisions = 12345;
    res->wall_ns = UINT64_MAX / 3;
    res->winners = 0x4;
    res->deals = ndeals ? calloc(ndeals, sizeof *res->deals) : NULL;
    for (uint32_t g = 0; g < ndeals; g++) {
        match_deal *d = &res->deals[g];
        d->game = g;
        d->deal = g / 3;
        d->seating = g % 3;
        d->seed = 0x9e3779b97f4a7c15ull * (g + 1);
        for (int k = 0; k < 3; k++) {
            d->bot_at[k] = (uint8_t)((k + g) % 3);
            d->score[k] = (int64_t)k * 4 - 4 - (int64_t)g;
        }
        d->forfeit_bot = g == 1 ? 2 : -1;
    }
    /* a played match: two penalties (a handshake's, seat -1; an illegal
     * play's, its note quoting the bot in UTF-8) and three more dropped */
    if (ok && ndeals) {
        res->penalties = calloc(2, sizeof *res->penalties);
        res->npenalties = 2;
        res->penalties_dropped = 3;
        res->penalties[0] = (match_penalty){.seat = -1, .bot = 1, .reason = MATCH_R_HANDSHAKE,
                                            .consequence = MATCH_FORFEIT_MATCH};
        snprintf(res->penalties[0].note, sizeof res->penalties[0].note, "no handshake (timeout)");
        res->penalties[1] = (match_penalty){.game = 1, .decision = 7, .seat = 2, .bot = 0, .reason = MATCH_R_ILLEGAL,
                                            .consequence = MATCH_AUTOPLAY};
        snprintf(res->penalties[1].note, sizeof res->penalties[1].note,
                 "not a play of this hand (reply \"3 \xc2\xbd \xe2\x99\xa0\")");
    }
}

static const wire_lease sample_leases[3] = {{1, 0}, {4200000000123, 7}, {INT64_MAX, INT32_MAX}};
static const wire_progress_info sample_progress = {
    .match_id = 77, .gen = 2, .done = 5, .games = 36, .decisions = 1ull << 40, .timeouts = 3, .penalties = 1,
};
/* [["x", 0644, "y"]], a bundle of one file, and its digest */
static const uint8_t sample_bundle[] = {0x91, 0x93, 0xa1, 'x', 0xcd, 0x01, 0xa4, 0xc4, 0x01, 'y'};
static char sample_bundle_digest[65];

/* ---- comparisons ---- */

static bool same_cfg(const match_config *a, const match_config *b)
{
    if (a->game != b->game || strcmp(a->preset, b->preset) || strcmp(a->options, b->options) || a->seed != b->seed
        || a->deals != b->deals || a->duplicate != b->duplicate || a->fixed_seats != b->fixed_seats
        || a->move_ms != b->move_ms || a->deal_ms != b->deal_ms || a->bank_ms != b->bank_ms
        || a->startup_ms != b->startup_ms || a->policy != b->policy || a->strikes != b->strikes
        || a->forfeit_points != b->forfeit_points || a->nbots != b->nbots
        || memcmp(a->key, b->key, sizeof a->key) || strcmp(a->key_label, b->key_label)
        || strcmp(a->commitment, b->commitment))
        return false;
    for (int i = 0; i < a->nbots; i++) {
        if (strcmp(a->bots[i].name, b->bots[i].name) || a->bots[i].argc != b->bots[i].argc
            || a->bots[i].startup_ms != b->bots[i].startup_ms || a->bots[i].nenv != b->bots[i].nenv
            || strcmp(a->bots[i].env, b->bots[i].env))
            return false;
        for (int k = 0; k < a->bots[i].argc; k++)
            if (strcmp(a->bots[i].argv[k], b->bots[i].argv[k]))
                return false;
    }
    return true;
}

static bool same_assign(const wire_assign *a, const wire_assign *b)
{
    if (a->match_id != b->match_id || a->lease_gen != b->lease_gen || !same_cfg(&a->cfg, &b->cfg)
        || a->nprograms != b->nprograms)
        return false;
    for (int i = 0; i < a->nprograms; i++) {
        const wire_program *p = &a->programs[i], *q = &b->programs[i];
        if (p->bot != q->bot || p->argi != q->argi || strcmp(p->digest, q->digest) || strcmp(p->path, q->path))
            return false;
    }
    return true;
}

static bool same_result(const wire_result *a, const wire_result *b)
{
    const match_result *x = &a->res, *y = &b->res;
    if (a->match_id != b->match_id || a->lease_gen != b->lease_gen || a->ok != b->ok || strcmp(a->error, b->error)
        || strcmp(a->digest, b->digest) || a->is_signed != b->is_signed
        || memcmp(a->signature, b->signature, sizeof a->signature) || strcmp(a->transcript, b->transcript) || x->nbots != y->nbots
        || x->ndeals != y->ndeals || x->decisions != y->decisions || x->wall_ns != y->wall_ns
        || x->winners != y->winners)
        return false;
    for (int i = 0; i < x->nbots; i++) {
        const match_bot_stats *s = &x->bots[i], *t = &y->bots[i];
        if (strcmp(s->name, t->name) || s->total != t->total || s->rank != t->rank || s->forfeited != t->forfeited
            || s->decisions != t->decisions || s->wall_ns != t->wall_ns || s->cpu_ns != t->cpu_ns
            || s->strikes != t->strikes || s->penalties != t->penalties || strcmp(s->sandbox, t->sandbox))
            return false;
    }
    if (x->nteams != y->nteams)
        return false;
    for (int t = 0; t < x->nteams; t++)
        if (x->team_total[t] != y->team_total[t] || x->team_rank[t] != y->team_rank[t])
            return false;
    for (int i = 0; x->nteams && i < x->nbots; i++)
        if (x->team_of_bot[i] != y->team_of_bot[i])
            return false;
    if (x->npenalties != y->npenalties || x->penalties_dropped != y->penalties_dropped)
        return false;
    for (uint32_t i = 0; i < x->npenalties; i++) {
        const match_penalty *p = &x->penalties[i], *q = &y->penalties[i];
        if (p->game != q->game || p->decision != q->decision || p->seat != q->seat || p->bot != q->bot
            || p->reason != q->reason || p->consequence != q->consequence || strcmp(p->note, q->note))
            return false;
    }
    for (uint32_t g = 0; g < x->ndeals; g++) {
        const match_deal *d = &x->deals[g], *e = &y->deals[g];
        if (d->game != e->game || d->deal != e->deal || d->seating != e->seating || d->seed != e->seed
            || d->forfeit_bot != e->forfeit_bot)
            return false;
        for (int k = 0; k < x->nbots; k++)
            if (d->bot_at[k] != e->bot_at[k] || d->score[k] != e->score[k])
                return false;
    }
    return true;
}

/* ---- the valid frames, one or more of every kind ---- */

typedef struct frame {
    int kind;
    const char *name;
    uint8_t *data;
    size_t len;
} frame;

static frame frames[32];
static int nframes;

static void add(int kind, const char *name, int rc, uint8_t *data, size_t len)
{
    CHECKF(rc == 0, "encoding %s: %d", name, rc);
    if (rc)
        return;
    frames[nframes++] = (frame){kind, name, data, len};
}

static void make_frames(void)
{
    static wire_assign a;
    wire_result r;
    uint8_t *f;
    size_t n;
    int rc;
    rc = wire_hello("worker-1", 4, sample_leases, 3, hpk, &f, &n);
    add(WIRE_HELLO, "hello", rc, f, n);
    rc = wire_hello("w", 0, NULL, 0, hpk, &f, &n);
    add(WIRE_HELLO, "hello-idle", rc, f, n);
    sample_assign(&a);
    rc = wire_encode_assign(&a, &f, &n);
    add(WIRE_ASSIGN, "assign", rc, f, n);
    a.nprograms = 0;
    rc = wire_encode_assign(&a, &f, &n);
    add(WIRE_ASSIGN, "assign-no-programs", rc, f, n);
    sample_result(&r, 3, true);
    rc = wire_encode_result(&r, &f, &n);
    add(WIRE_RESULT, "result", rc, f, n);
    match_result_release(&r.res);
    sample_result(&r, 0, false);
    rc = wire_encode_result(&r, &f, &n);
    add(WIRE_RESULT, "result-void", rc, f, n);
    rc = wire_ack(99, 3, &f, &n);
    add(WIRE_ACK, "ack", rc, f, n);
    rc = wire_stop(&f, &n);
    add(WIRE_STOP, "stop", rc, f, n);
    rc = wire_heartbeat(2, sample_leases, 2, &f, &n);
    add(WIRE_HEARTBEAT, "heartbeat-worker", rc, f, n);
    rc = wire_heartbeat(-1, NULL, 0, &f, &n);
    add(WIRE_HEARTBEAT, "heartbeat-scheduler", rc, f, n);
    rc = wire_progress(&sample_progress, &f, &n);
    add(WIRE_PROGRESS, "progress", rc, f, n);
    rc = wire_refuse("protocol version 1 is not spoken here", &f, &n);
    add(WIRE_REFUSE, "refuse", rc, f, n);
    rc = wire_fetch(D1, &f, &n);
    add(WIRE_FETCH, "fetch", rc, f, n);
    bundle_digest(sample_bundle, sizeof sample_bundle, sample_bundle_digest);
    rc = wire_program_msg(sample_bundle_digest, sample_bundle, sizeof sample_bundle, NULL, &f, &n);
    add(WIRE_PROGRAM, "program", rc, f, n);
    rc = wire_program_msg(D2, NULL, 0, "no such program", &f, &n);
    add(WIRE_PROGRAM, "program-none", rc, f, n);
    rc = wire_release(99, 3, "draining", &f, &n);
    add(WIRE_RELEASE, "release", rc, f, n);
    rc = wire_welcome(5000, &f, &n);
    add(WIRE_WELCOME, "welcome", rc, f, n);
    rc = wire_rehello(&f, &n);
    add(WIRE_REHELLO, "rehello", rc, f, n);
    static const uint8_t chunk_bytes[] = "a transcript's bytes";
    wire_chunk ch = {.match_id = 17, .gen = 3, .total = 1000, .offset = 200, .bytes = chunk_bytes,
                     .n = sizeof chunk_bytes};
    rc = wire_transcript_chunk(&ch, &f, &n);
    add(WIRE_TRANSCRIPT, "transcript", rc, f, n);
}

static const frame *frame_named(const char *name)
{
    for (int i = 0; i < nframes; i++)
        if (strcmp(frames[i].name, name) == 0)
            return &frames[i];
    fprintf(stderr, "no frame %s\n", name);
    exit(2);
}

/* ---- decoding by kind ---- */

static wire_assign dec_assign;
static wire_result dec_result;

/* The decoder of `kind` on the frame: 0 or its error (stop and rehello,
 * which have no decoder: wire_kind_of). A decoded result is released. */
static int decode_as(int kind, const uint8_t *f, size_t len)
{
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    char name[ARB_WORKER_ID_MAX + 1], text[512], digest[65];
    int v, s, n, rc;
    int64_t id;
    const uint8_t *b;
    size_t blen;
    wire_progress_info p;
    switch (kind) {
    case WIRE_HELLO:
        return wire_decode_hello(f, len, &v, name, sizeof name, &s, run, ARB_WORKER_MAX_SLOTS, &n, hpk);
    case WIRE_ASSIGN:
        return wire_decode_assign(f, len, &dec_assign);
    case WIRE_RESULT:
        rc = wire_decode_result(f, len, &dec_result);
        if (rc == 0)
            match_result_release(&dec_result.res);
        return rc;
    case WIRE_ACK:
        return wire_decode_ack(f, len, &id, &v);
    case WIRE_HEARTBEAT:
        return wire_decode_heartbeat(f, len, &s, run, ARB_WORKER_MAX_SLOTS, &n);
    case WIRE_PROGRESS:
        return wire_decode_progress(f, len, &p);
    case WIRE_REFUSE:
        return wire_decode_refuse(f, len, &v, text, sizeof text);
    case WIRE_FETCH:
        return wire_decode_fetch(f, len, digest);
    case WIRE_PROGRAM:
        return wire_decode_program(f, len, digest, &b, &blen, text, sizeof text);
    case WIRE_RELEASE:
        return wire_decode_release(f, len, &id, &v, text, sizeof text);
    case WIRE_WELCOME:
        return wire_decode_welcome(f, len, &v, &s);
    case WIRE_TRANSCRIPT: {
        wire_chunk c;
        return wire_decode_transcript_chunk(f, len, &c);
    }
    default:
        rc = wire_kind_of(f, len);
        return rc == kind ? 0 : rc < 0 ? rc : ARB_ECORRUPT;
    }
}

static bool has_decoder(int kind) { return kind != WIRE_STOP && kind != WIRE_REHELLO; }

/* Every decoder on the frame: bit k set when kind k's decoder accepted. */
static unsigned run_all(const uint8_t *f, size_t len)
{
    unsigned accepted = 0;
    int k = wire_kind_of(f, len);
    FAIL_IF(k != ARB_ECORRUPT && (k < 0 || k >= WIRE_NKINDS), "wire_kind_of: %d", k);
    for (int kind = 0; kind < WIRE_NKINDS; kind++)
        if (has_decoder(kind) && decode_as(kind, f, len) == 0) {
            accepted |= 1u << kind;
            FAIL_IF(k != kind, "decoder %d accepted a frame wire_kind_of calls %d", kind, k);
        }
    return accepted;
}

/* Decode a frame its decoder accepts, encode what came out, decode and
 * encode that again: both decodings agree (ids, generations, counts) and
 * both encodings are the same bytes. false on any disagreement. */
static bool reencodes(int kind, const uint8_t *f, size_t len)
{
    uint8_t *e1 = NULL, *e2 = NULL;
    size_t n1 = 0, n2 = 0;
    bool ok = false;
    switch (kind) {
    case WIRE_HELLO: {
        wire_lease r1[ARB_WORKER_MAX_SLOTS], r2[ARB_WORKER_MAX_SLOTS];
        char m1[ARB_WORKER_ID_MAX + 1], m2[ARB_WORKER_ID_MAX + 1];
        int v1, v2, s1, s2, c1, c2;
        if (wire_decode_hello(f, len, &v1, m1, sizeof m1, &s1, r1, ARB_WORKER_MAX_SLOTS, &c1, hpk) != 0)
            return true;
        ok = wire_hello(m1, s1, r1, c1, hpk, &e1, &n1) == 0
             && wire_decode_hello(e1, n1, &v2, m2, sizeof m2, &s2, r2, ARB_WORKER_MAX_SLOTS, &c2, hpk) == 0
             && wire_hello(m2, s2, r2, c2, hpk, &e2, &n2) == 0 && strcmp(m1, m2) == 0 && s1 == s2 && c1 == c2
             && v2 == WIRE_VERSION;
        for (int i = 0; ok && i < c1; i++)
            ok = r1[i].match_id == r2[i].match_id && r1[i].gen == r2[i].gen;
        break;
    }
    case WIRE_ASSIGN: {
        static wire_assign a1, a2;
        if (wire_decode_assign(f, len, &a1) != 0)
            return true;
        ok = wire_encode_assign(&a1, &e1, &n1) == 0 && wire_decode_assign(e1, n1, &a2) == 0
             && wire_encode_assign(&a2, &e2, &n2) == 0 && same_assign(&a1, &a2);
        break;
    }
    case WIRE_RESULT: {
        static wire_result r1, r2;
        if (wire_decode_result(f, len, &r1) != 0)
            return true;
        ok = wire_encode_result(&r1, &e1, &n1) == 0 && wire_decode_result(e1, n1, &r2) == 0;
        if (ok) {
            ok = wire_encode_result(&r2, &e2, &n2) == 0 && same_result(&r1, &r2);
            match_result_release(&r2.res);
        }
        match_result_release(&r1.res);
        break;
    }
    case WIRE_ACK: {
        int64_t i1, i2;
        int g1, g2;
        if (wire_decode_ack(f, len, &i1, &g1) != 0)
            return true;
        ok = wire_ack(i1, g1, &e1, &n1) == 0 && wire_decode_ack(e1, n1, &i2, &g2) == 0
             && wire_ack(i2, g2, &e2, &n2) == 0 && i1 == i2 && g1 == g2;
        break;
    }
    case WIRE_HEARTBEAT: {
        wire_lease r1[ARB_WORKER_MAX_SLOTS], r2[ARB_WORKER_MAX_SLOTS];
        int f1, f2, c1, c2;
        if (wire_decode_heartbeat(f, len, &f1, r1, ARB_WORKER_MAX_SLOTS, &c1) != 0)
            return true;
        ok = wire_heartbeat(f1, r1, c1, &e1, &n1) == 0
             && wire_decode_heartbeat(e1, n1, &f2, r2, ARB_WORKER_MAX_SLOTS, &c2) == 0
             && wire_heartbeat(f2, r2, c2, &e2, &n2) == 0 && f1 == f2 && c1 == c2;
        for (int i = 0; ok && i < c1; i++)
            ok = r1[i].match_id == r2[i].match_id && r1[i].gen == r2[i].gen;
        break;
    }
    case WIRE_PROGRESS: {
        wire_progress_info p1, p2;
        if (wire_decode_progress(f, len, &p1) != 0)
            return true;
        ok = wire_progress(&p1, &e1, &n1) == 0 && wire_decode_progress(e1, n1, &p2) == 0
             && wire_progress(&p2, &e2, &n2) == 0 && p1.match_id == p2.match_id && p1.gen == p2.gen
             && p1.done == p2.done && p1.games == p2.games && p1.decisions == p2.decisions;
        break;
    }
    case WIRE_REFUSE: {
        char t1[512], t2[512];
        int v1, v2;
        if (wire_decode_refuse(f, len, &v1, t1, sizeof t1) != 0)
            return true;
        ok = wire_refuse(t1, &e1, &n1) == 0 && wire_decode_refuse(e1, n1, &v2, t2, sizeof t2) == 0
             && wire_refuse(t2, &e2, &n2) == 0 && strcmp(t1, t2) == 0 && v2 == WIRE_VERSION;
        break;
    }
    case WIRE_FETCH: {
        char d1[65], d2[65];
        if (wire_decode_fetch(f, len, d1) != 0)
            return true;
        ok = wire_fetch(d1, &e1, &n1) == 0 && wire_decode_fetch(e1, n1, d2) == 0 && wire_fetch(d2, &e2, &n2) == 0
             && strcmp(d1, d2) == 0;
        break;
    }
    case WIRE_PROGRAM: {
        char d1[65], d2[65], t1[512], t2[512];
        const uint8_t *b1, *b2;
        size_t l1, l2;
        if (wire_decode_program(f, len, d1, &b1, &l1, t1, sizeof t1) != 0)
            return true;
        ok = wire_program_msg(d1, b1, l1, t1, &e1, &n1) == 0
             && wire_decode_program(e1, n1, d2, &b2, &l2, t2, sizeof t2) == 0
             && wire_program_msg(d2, b2, l2, t2, &e2, &n2) == 0 && strcmp(d1, d2) == 0 && !b1 == !b2 && l1 == l2
             && (!b1 || memcmp(b1, b2, l1) == 0) && strcmp(t1, t2) == 0;
        break;
    }
    case WIRE_RELEASE: {
        char t1[512], t2[512];
        int64_t i1, i2;
        int g1, g2;
        if (wire_decode_release(f, len, &i1, &g1, t1, sizeof t1) != 0)
            return true;
        ok = wire_release(i1, g1, t1, &e1, &n1) == 0 && wire_decode_release(e1, n1, &i2, &g2, t2, sizeof t2) == 0
             && wire_release(i2, g2, t2, &e2, &n2) == 0 && i1 == i2 && g1 == g2 && strcmp(t1, t2) == 0;
        break;
    }
    case WIRE_TRANSCRIPT: {
        wire_chunk c1, c2;
        if (wire_decode_transcript_chunk(f, len, &c1) != 0)
            return true;
        ok = wire_transcript_chunk(&c1, &e1, &n1) == 0 && wire_decode_transcript_chunk(e1, n1, &c2) == 0
             && wire_transcript_chunk(&c2, &e2, &n2) == 0 && c1.match_id == c2.match_id && c1.gen == c2.gen
             && c1.total == c2.total && c1.offset == c2.offset && c1.n == c2.n && memcmp(c1.bytes, c2.bytes, c1.n) == 0;
        break;
    }
    case WIRE_WELCOME: {
        int v1, v2, h1, h2;
        if (wire_decode_welcome(f, len, &v1, &h1) != 0)
            return true;
        ok = wire_welcome(h1, &e1, &n1) == 0 && wire_decode_welcome(e1, n1, &v2, &h2) == 0
             && wire_welcome(h2, &e2, &n2) == 0 && h1 == h2 && v2 == WIRE_VERSION;
        break;
    }
    default:
        return true;
    }
    ok = ok && n1 == n2 && memcmp(e1, e2, n1) == 0;
    free(e1);
    free(e2);
    return ok;
}

/* ---- 1. every kind round-trips ---- */

static void test_round_trips(void)
{
    for (int i = 0; i < nframes; i++)
        CHECKF(wire_kind_of(frames[i].data, frames[i].len) == frames[i].kind, "wire_kind_of(%s) = %d",
               frames[i].name, wire_kind_of(frames[i].data, frames[i].len));
    /* every kind has a frame */
    unsigned kinds = 0;
    for (int i = 0; i < nframes; i++)
        kinds |= 1u << frames[i].kind;
    CHECK(kinds == (1u << WIRE_NKINDS) - 1);

    const frame *f = frame_named("hello");
    int version = -1, slots = -1, n = -1;
    char name[ARB_WORKER_ID_MAX + 1];
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    CHECK(wire_decode_hello(f->data, f->len, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk) == 0);
    CHECK(version == WIRE_VERSION && strcmp(name, "worker-1") == 0 && slots == 4 && n == 3);
    for (int i = 0; i < 3 && n == 3; i++)
        CHECK(run[i].match_id == sample_leases[i].match_id && run[i].gen == sample_leases[i].gen);
    f = frame_named("hello-idle");
    CHECK(wire_decode_hello(f->data, f->len, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk) == 0);
    CHECK(strcmp(name, "w") == 0 && slots == 0 && n == 0);

    static wire_assign want;
    sample_assign(&want);
    f = frame_named("assign");
    CHECK(wire_decode_assign(f->data, f->len, &dec_assign) == 0 && same_assign(&want, &dec_assign));
    CHECK(dec_assign.nprograms == 2 && dec_assign.programs[1].bot == 2
          && strcmp(dec_assign.programs[1].path, "js/main.js") == 0);
    want.nprograms = 0;
    f = frame_named("assign-no-programs");
    CHECK(wire_decode_assign(f->data, f->len, &dec_assign) == 0 && same_assign(&want, &dec_assign));

    wire_result r;
    sample_result(&r, 3, true);
    f = frame_named("result");
    CHECK(wire_decode_result(f->data, f->len, &dec_result) == 0 && same_result(&r, &dec_result));
    CHECK(dec_result.res.ndeals == 3 && dec_result.res.deals && dec_result.res.deals[1].forfeit_bot == 2);
    match_result_release(&dec_result.res);
    match_result_release(&r.res);
    sample_result(&r, 0, false);
    f = frame_named("result-void");
    CHECK(wire_decode_result(f->data, f->len, &dec_result) == 0 && same_result(&r, &dec_result));
    CHECK(!dec_result.ok && strcmp(dec_result.error, "bot beta did not start") == 0 && !dec_result.res.deals);
    match_result_release(&dec_result.res);

    /* teams (a partnership game): the verdict per team travels beside the
     * bots' totals; a malformed team block is refused */
    sample_result(&r, 2, true);
    r.res.nteams = 2;
    for (int b = 0; b < 3; b++)
        r.res.team_of_bot[b] = (int8_t)(b % 2);
    r.res.team_total[0] = 7;
    r.res.team_total[1] = 7;
    r.res.team_rank[0] = 2;   /* equal totals, and team 1 won: the engine's word, not the totals' */
    r.res.team_rank[1] = 1;
    uint8_t *tf;
    size_t tn;
    CHECK(wire_encode_result(&r, &tf, &tn) == 0);
    CHECK(wire_decode_result(tf, tn, &dec_result) == 0 && same_result(&r, &dec_result)
          && dec_result.res.team_rank[1] == 1 && dec_result.res.team_of_bot[2] == 0);
    match_result_release(&dec_result.res);
    free(tf);
    static const struct { int nteams, bad_team, bad_rank; const char *what; } bad[] = {
        {1, -1, 0, "one team"},  {3, -1, 0, "a team without a member"},
        {2, 2, 0, "a bot in no team"}, {2, -1, 3, "a rank past the teams"}, {2, -1, -1, "rank 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        wire_result x = r;
        x.res.nteams = bad[i].nteams;
        if (bad[i].bad_team >= 0)
            x.res.team_of_bot[1] = (int8_t)bad[i].bad_team;
        x.res.team_rank[0] = bad[i].bad_rank > 0 ? bad[i].bad_rank : bad[i].bad_rank < 0 ? 0 : 2;
        if (bad[i].nteams == 3)
            x.res.team_rank[2] = 3;
        CHECK(wire_encode_result(&x, &tf, &tn) == 0);
        CHECKF(wire_decode_result(tf, tn, &dec_result) == ARB_ECORRUPT, "%s: accepted", bad[i].what);
        free(tf);
    }
    match_result_release(&r.res);

    int64_t id = 0;
    int gen = 0;
    f = frame_named("ack");
    CHECK(wire_decode_ack(f->data, f->len, &id, &gen) == 0 && id == 99 && gen == 3);

    f = frame_named("stop");
    CHECK(f->len == 2 && f->data[0] == 0x91 && f->data[1] == WIRE_STOP);
    f = frame_named("rehello");
    CHECK(f->len == 2 && f->data[0] == 0x91 && f->data[1] == WIRE_REHELLO);

    int fr = -7;
    f = frame_named("heartbeat-worker");
    CHECK(wire_decode_heartbeat(f->data, f->len, &fr, run, ARB_WORKER_MAX_SLOTS, &n) == 0 && fr == 2 && n == 2);
    CHECK(run[1].match_id == sample_leases[1].match_id && run[1].gen == sample_leases[1].gen);
    f = frame_named("heartbeat-scheduler");
    CHECK(f->len == 2);
    CHECK(wire_decode_heartbeat(f->data, f->len, &fr, run, ARB_WORKER_MAX_SLOTS, &n) == 0 && fr == -1 && n == 0);
    /* a worker's heartbeat with nothing running */
    uint8_t *e;
    size_t elen;
    CHECK(wire_heartbeat(0, NULL, 0, &e, &elen) == 0);
    CHECK(wire_decode_heartbeat(e, elen, &fr, run, ARB_WORKER_MAX_SLOTS, &n) == 0 && fr == 0 && n == 0);
    free(e);

    wire_progress_info p;
    f = frame_named("progress");
    CHECK(wire_decode_progress(f->data, f->len, &p) == 0);
    CHECK(p.match_id == 77 && p.gen == 2 && p.done == 5 && p.games == 36 && p.decisions == 1ull << 40
          && p.timeouts == 3 && p.penalties == 1);

    char text[512], digest[65];
    f = frame_named("refuse");
    CHECK(wire_decode_refuse(f->data, f->len, &version, text, sizeof text) == 0 && version == WIRE_VERSION
          && strcmp(text, "protocol version 1 is not spoken here") == 0);

    f = frame_named("fetch");
    CHECK(wire_decode_fetch(f->data, f->len, digest) == 0 && strcmp(digest, D1) == 0);

    const uint8_t *b = NULL;
    size_t blen = 0;
    f = frame_named("program");
    CHECK(wire_decode_program(f->data, f->len, digest, &b, &blen, text, sizeof text) == 0);
    CHECK(strcmp(digest, sample_bundle_digest) == 0 && blen == sizeof sample_bundle && b
          && memcmp(b, sample_bundle, blen) == 0 && b > f->data && b + blen <= f->data + f->len && text[0] == 0);
    f = frame_named("program-none");
    CHECK(wire_decode_program(f->data, f->len, digest, &b, &blen, text, sizeof text) == 0);
    CHECK(strcmp(digest, D2) == 0 && !b && blen == 0 && strcmp(text, "no such program") == 0);

    f = frame_named("release");
    CHECK(wire_decode_release(f->data, f->len, &id, &gen, text, sizeof text) == 0 && id == 99 && gen == 3
          && strcmp(text, "draining") == 0);

    int hb = 0;
    f = frame_named("welcome");
    CHECK(wire_decode_welcome(f->data, f->len, &version, &hb) == 0 && version == WIRE_VERSION && hb == 5000);

    wire_chunk ch;
    f = frame_named("transcript");
    CHECK(wire_decode_transcript_chunk(f->data, f->len, &ch) == 0 && ch.match_id == 17 && ch.gen == 3
          && ch.total == 1000 && ch.offset == 200 && ch.n == 21 && memcmp(ch.bytes, "a transcript's bytes", 21) == 0
          && ch.bytes > f->data && ch.bytes + ch.n <= f->data + f->len);

    /* each valid frame re-encodes to the same message */
    for (int i = 0; i < nframes; i++)
        CHECKF(reencodes(frames[i].kind, frames[i].data, frames[i].len), "%s re-encoded differs", frames[i].name);
    /* and no other decoder takes it */
    for (int i = 0; i < nframes; i++) {
        unsigned acc = run_all(frames[i].data, frames[i].len);
        unsigned want_acc = has_decoder(frames[i].kind) ? 1u << frames[i].kind : 0;
        CHECKF(acc == want_acc, "%s accepted by decoders 0x%x", frames[i].name, acc);
    }
}

/* ---- 2. truncations ---- */

static void test_truncations(void)
{
    int refused = 0, cuts = 0;
    for (int i = 0; i < nframes; i++) {
        const frame *f = &frames[i];
        for (size_t k = 0; k < f->len; k++) {
            uint8_t *cut = exact(f->data, k);
            int rc = decode_as(f->kind, cut, k);
            CHECKF(rc == ARB_ECORRUPT, "%s cut to %zu bytes: %d", f->name, k, rc);
            refused += rc == ARB_ECORRUPT;
            cuts++;
            run_all(cut, k);   /* the others: no crash */
            free(cut);
        }
    }
    printf("truncations: %d of %d refused\n", refused, cuts);
}

/* ---- 3. random frames and mutations ---- */

static void test_random(void)
{
    arb_rng rng;
    arb_rng_seed(&rng, 0x3172e5);
    int accepted[WIRE_NKINDS] = {0};
    int structured_accepted = 0;
    uint8_t buf[128];
    for (int t = 0; t < 100000; t++) {
        size_t len = (size_t)arb_rng_below(&rng, sizeof buf + 1);
        for (size_t k = 0; k < len; k++)
            buf[k] = (uint8_t)arb_rng_next(&rng);
        /* half of them look like a message: a fixarray and a kind */
        bool structured = t & 1;
        if (structured && len >= 2) {
            buf[0] = (uint8_t)(0x90 | arb_rng_below(&rng, 9));
            buf[1] = (uint8_t)arb_rng_below(&rng, WIRE_NKINDS);
        }
        uint8_t *f = exact(buf, len);
        unsigned acc = run_all(f, len);
        for (int k = 0; k < WIRE_NKINDS; k++)
            if (acc & (1u << k)) {
                if (structured)
                    structured_accepted++;
                else
                    accepted[k]++;
                FAIL_IF(!reencodes(k, f, len), "random frame %d accepted as kind %d re-encodes differently", t, k);
            }
        free(f);
    }
    printf("random: 100000 frames; of the 50000 unstructured, accepted: hello %d assign %d result %d ack %d "
           "heartbeat %d progress %d refuse %d fetch %d program %d release %d welcome %d; structured accepted %d\n",
           accepted[WIRE_HELLO], accepted[WIRE_ASSIGN], accepted[WIRE_RESULT], accepted[WIRE_ACK],
           accepted[WIRE_HEARTBEAT], accepted[WIRE_PROGRESS], accepted[WIRE_REFUSE], accepted[WIRE_FETCH],
           accepted[WIRE_PROGRAM], accepted[WIRE_RELEASE], accepted[WIRE_WELCOME], structured_accepted);
    CHECK(accepted[WIRE_ASSIGN] == 0 && accepted[WIRE_RESULT] == 0);

    int own = 0;
    for (int t = 0; t < 100000; t++) {
        const frame *f = &frames[arb_rng_below(&rng, (uint64_t)nframes)];
        size_t at = (size_t)arb_rng_below(&rng, f->len);
        uint8_t v = (uint8_t)arb_rng_below(&rng, 255);
        uint8_t *m = exact(f->data, f->len);
        m[at] = v >= m[at] ? (uint8_t)(v + 1) : v;   /* never the byte it was */
        unsigned acc = run_all(m, f->len);
        for (int k = 0; k < WIRE_NKINDS; k++)
            if (acc & (1u << k))
                FAIL_IF(!reencodes(k, m, f->len), "%s with byte %zu = 0x%02x re-encodes differently", f->name, at,
                        m[at]);
        own += (acc >> f->kind) & 1;
        free(m);
    }
    printf("mutations: 100000 single-byte changes, %d still accepted as their kind\n", own);
}

/* ---- 4. headers claiming far more than the frame holds ---- */

/* Offset of the object at `path` (indexes into nested arrays), or -1. */
static long locate(const uint8_t *f, size_t len, const int *path, int depth)
{
    arb_mp r;
    arb_mp_init(&r, f, len);
    for (int d = 0; d < depth; d++) {
        uint32_t n;
        if (arb_mp_array(&r, &n) || (uint32_t)path[d] >= n)
            return -1;
        for (int i = 0; i < path[d]; i++)
            if (arb_mp_skip(&r))
                return -1;
    }
    return (long)(r.p - f);
}

/* sb = frame f with the object at `path` replaced by what pack() writes. */
static void replace_at(const frame *f, const int *path, int depth, void (*pack)(const void *), const void *arg)
{
    long off = locate(f->data, f->len, path, depth);
    CHECK(off >= 0);
    if (off < 0)
        return;
    arb_mp r;
    arb_mp_init(&r, f->data + off, f->len - (size_t)off);
    CHECK(arb_mp_skip(&r) == 0);
    fresh();
    msgpack_sbuffer_write(&sb, (const char *)f->data, (size_t)off);
    pack(arg);
    msgpack_sbuffer_write(&sb, (const char *)r.p, arb_mp_left(&r));
}

static void pack_str(const void *s) { pstr(s); }

static void test_huge_headers(void)
{
    static const struct { uint8_t h[5]; size_t n; const char *what; } heads[] = {
        {{0xdd, 0xff, 0xff, 0xff, 0xff}, 5, "array32"},
        {{0xdf, 0xff, 0xff, 0xff, 0xff}, 5, "map32"},
        {{0xdb, 0xff, 0xff, 0xff, 0xff}, 5, "str32"},
        {{0xc6, 0xff, 0xff, 0xff, 0xff}, 5, "bin32"},
        {{0xdd, 0x7f, 0xff, 0xff, 0xff}, 5, "array32/2"},
        {{0xdc, 0xff, 0xff}, 3, "array16"},
        {{0xde, 0xff, 0xff}, 3, "map16"},
        {{0xda, 0xff, 0xff}, 3, "str16"},
        {{0xc5, 0xff, 0xff}, 3, "bin16"},
    };
    static const struct { const char *frame; int path[4]; int depth; const char *what; } at[] = {
        {"hello", {0}, 0, "hello"},
        {"hello", {2}, 1, "hello name"},
        {"hello", {4}, 1, "hello running"},
        {"hello", {4, 1}, 2, "hello lease"},
        {"hello", {5}, 1, "hello signing key"},
        {"heartbeat-worker", {0}, 0, "heartbeat"},
        {"heartbeat-worker", {2}, 1, "heartbeat running"},
        {"assign", {0}, 0, "assign"},
        {"assign", {3}, 1, "assign config"},
        {"assign", {3, 0}, 2, "assign game"},
        {"assign", {3, 2}, 2, "assign options"},
        {"assign", {3, 17}, 2, "assign bots"},
        {"assign", {3, 17, 1}, 3, "assign bot"},
        {"assign", {3, 17, 2, 1}, 4, "assign argv"},
        {"assign", {4}, 1, "assign transcript"},
        {"assign", {4}, 1, "assign programs"},
        {"assign", {4, 1}, 2, "assign program"},
        {"assign", {4, 0, 3}, 3, "assign program path"},
        {"result", {0}, 0, "result"},
        {"result", {4}, 1, "result error"},
        {"result", {6}, 1, "result signature"},
        {"result", {8}, 1, "result stats"},
        {"result", {8, 4}, 2, "result bots"},
        {"result", {8, 4, 2}, 3, "result bot"},
        {"result", {8, 5}, 2, "result deals"},
        {"result", {8, 5, 1}, 3, "result deal"},
        {"result", {8, 5, 2, 4}, 4, "result bot_at"},
        {"result", {8, 5, 2, 5}, 4, "result scores"},
        {"result", {8, 7}, 2, "result penalties"},
        {"result", {8, 7, 1}, 3, "result penalty list"},
        {"result", {8, 7, 1, 1}, 4, "result penalty"},
        {"ack", {0}, 0, "ack"},
        {"progress", {0}, 0, "progress"},
        {"refuse", {2}, 1, "refuse reason"},
        {"fetch", {1}, 1, "fetch digest"},
        {"program", {0}, 0, "program"},
        {"program", {1}, 1, "program digest"},
        {"program", {2}, 1, "program bundle"},
        {"program-none", {2}, 1, "program nil bundle"},
        {"program", {3}, 1, "program error"},
        {"release", {3}, 1, "release reason"},
        {"welcome", {0}, 0, "welcome"},
    };
    double worst = 0;
    int tried = 0;
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        const frame *f = frame_named(at[i].frame);
        long off = locate(f->data, f->len, at[i].path, at[i].depth);
        CHECKF(off >= 0, "no %s in %s", at[i].what, f->name);
        if (off < 0)
            continue;
        for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
            /* the header inserted before the object: everything after it
             * is still there, but nowhere near what it claims */
            size_t len = f->len + heads[h].n;
            uint8_t *m = malloc(len);
            memcpy(m, f->data, (size_t)off);
            memcpy(m + off, heads[h].h, heads[h].n);
            memcpy(m + off + heads[h].n, f->data + off, f->len - (size_t)off);
            double t0 = now_s();
            int rc = decode_as(f->kind, m, len);
            double dt = now_s() - t0;
            worst = dt > worst ? dt : worst;
            CHECKF(rc == ARB_ECORRUPT, "%s with an %s header: %d", at[i].what, heads[h].what, rc);
            run_all(m, len);
            free(m);
            tried++;
        }
    }
    printf("huge headers: %d frames refused, slowest %.6f s\n", tried, worst);
    CHECKF(worst < 0.1, "a lying header took %.3f s to refuse", worst);

    /* A deals array whose count matches the result's own ndeals (the most
     * the decoder allows) but whose bytes are not there: refused before
     * the deals are allocated. */
    static const uint32_t counts[] = {ARB_MAX_DEALS, 65536, 1000};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        wire_result r;
        sample_result(&r, 0, true);
        fresh();
        msgpack_pack_array(&pk, 9);
        msgpack_pack_int(&pk, WIRE_RESULT);
        msgpack_pack_int64(&pk, r.match_id);
        msgpack_pack_int(&pk, r.lease_gen);
        msgpack_pack_true(&pk);
        pstr("");
        pstr(D1);
        msgpack_pack_bin_with_body(&pk, r.signature, sizeof r.signature);
        pstr("/t");
        msgpack_pack_array(&pk, 8);
        msgpack_pack_uint32(&pk, counts[i]);
        msgpack_pack_uint64(&pk, 1);
        msgpack_pack_uint64(&pk, 1);
        msgpack_pack_uint32(&pk, 1);
        msgpack_pack_array(&pk, 0);
        msgpack_pack_array(&pk, counts[i]);
        uint8_t *m = exact(sb.data, sb.size);
        double t0 = now_s();
        CHECKF(wire_decode_result(m, sb.size, &dec_result) == ARB_ECORRUPT, "%u deals claimed", counts[i]);
        CHECK(dec_result.res.deals == NULL);
        CHECK(now_s() - t0 < 0.1);
        free(m);
        /* one deal more than ARB_MAX_DEALS: refused at the count */
    }
    fresh();
    msgpack_pack_array(&pk, 8);
    msgpack_pack_int(&pk, WIRE_RESULT);
    msgpack_pack_int(&pk, 1);
    msgpack_pack_int(&pk, 1);
    msgpack_pack_true(&pk);
    pstr("");
    pstr(D1);
    pstr("/t");
    msgpack_pack_array(&pk, 6);
    msgpack_pack_uint32(&pk, ARB_MAX_DEALS + 1);
    {
        uint8_t *m = exact(sb.data, sb.size);
        CHECK(wire_decode_result(m, sb.size, &dec_result) == ARB_ECORRUPT);
        free(m);
    }

    /* A bundle of exactly ARB_WIRE_MAX_BUNDLE bytes is taken, one more is not
     * (a frame that size is still under ARB_WIRE_MAX_FRAME). */
    for (uint32_t extra = 0; extra < 2; extra++) {
        uint32_t n = ARB_WIRE_MAX_BUNDLE + extra;
        fresh();
        msgpack_pack_array(&pk, 4);
        msgpack_pack_int(&pk, WIRE_PROGRAM);
        pstr(D1);
        msgpack_pack_bin(&pk, n);
        size_t head = sb.size;
        size_t len = head + n + 1;
        uint8_t *m = malloc(len);
        memcpy(m, sb.data, head);
        memset(m + head, 0x5a, n);
        m[head + n] = 0xa0;   /* "" */
        char digest[65], text[64];
        const uint8_t *b;
        size_t blen;
        int rc = wire_decode_program(m, len, digest, &b, &blen, text, sizeof text);
        if (extra)
            CHECKF(rc == ARB_ECORRUPT, "a bundle of ARB_WIRE_MAX_BUNDLE + 1 bytes: %d", rc);
        else
            CHECKF(rc == 0 && blen == n && b == m + head, "a bundle of ARB_WIRE_MAX_BUNDLE bytes: %d", rc);
        free(m);
    }
}

/* ---- 4b. a result's penalties: bounded, checked ---- */

/* [dropped, [n penalties]], each a valid one but for its note of note_len
 * bytes ('x'), or note when not NULL. */
typedef struct pen_block {
    uint32_t n;
    size_t note_len;
    const char *note, *reason;
    int seat, bot;
} pen_block;

static void pack_penalties(const void *arg)
{
    const pen_block *b = arg;
    char *note = malloc(b->note_len + 1);
    memset(note, 'x', b->note_len);
    note[b->note_len] = 0;
    msgpack_pack_array(&pk, 2);
    msgpack_pack_uint32(&pk, 0);
    msgpack_pack_array(&pk, b->n);
    for (uint32_t i = 0; i < b->n; i++) {
        msgpack_pack_array(&pk, 7);
        msgpack_pack_uint32(&pk, i);
        msgpack_pack_uint32(&pk, 1);
        msgpack_pack_int(&pk, b->seat);
        msgpack_pack_int(&pk, b->bot);
        pstr(b->reason ? b->reason : "timeout");
        pstr("autoplay");
        pstr(b->note ? b->note : note);
    }
    free(note);
}

static void test_penalties(void)
{
    /* the sample's penalties arrive as sent, the dropped count with them */
    const frame *f = frame_named("result");
    CHECK(wire_decode_result(f->data, f->len, &dec_result) == 0);
    const match_result *res = &dec_result.res;
    CHECK(res->npenalties == 2 && res->penalties_dropped == 3 && res->penalties);
    if (res->npenalties == 2) {
        CHECK(res->penalties[0].seat == -1 && res->penalties[0].bot == 1
              && res->penalties[0].reason == MATCH_R_HANDSHAKE && res->penalties[0].consequence == MATCH_FORFEIT_MATCH);
        CHECK(res->penalties[1].game == 1 && res->penalties[1].decision == 7 && res->penalties[1].seat == 2
              && res->penalties[1].reason == MATCH_R_ILLEGAL && strstr(res->penalties[1].note, "\xe2\x99\xa0"));
    }
    match_result_release(&dec_result.res);

    /* ARB_MAX_RESULT_PENALTIES with notes of ARB_MAX_PENALTY_NOTE bytes: taken;
     * one penalty more, or a note one byte longer: refused */
    static const int at[] = {8, 7};
    static const struct { pen_block b; int rc; const char *what; } cases[] = {
        {{ARB_MAX_RESULT_PENALTIES, ARB_MAX_PENALTY_NOTE, NULL, NULL, 0, 2}, 0, "the most, the longest notes"},
        {{ARB_MAX_RESULT_PENALTIES + 1, 8, NULL, NULL, 0, 2}, ARB_ECORRUPT, "one penalty past the limit"},
        {{1000000, 8, NULL, NULL, 0, 2}, ARB_ECORRUPT, "a million penalties"},
        {{1, ARB_MAX_PENALTY_NOTE + 1, NULL, NULL, 0, 2}, ARB_ECORRUPT, "a note one byte too long"},
        {{1, 0, "clear \x1b[2J screen", NULL, 0, 2}, ARB_ECORRUPT, "an escape in a note"},
        {{1, 0, "a\nb", NULL, 0, 2}, ARB_ECORRUPT, "a line feed in a note"},
        {{1, 0, "bad \xff byte", NULL, 0, 2}, ARB_ECORRUPT, "invalid UTF-8 in a note"},
        {{1, 0, "c1 \xc2\x9b control", NULL, 0, 2}, ARB_ECORRUPT, "a C1 control in a note"},
        {{1, 0, "overlong \xc0\xaf", NULL, 0, 2}, ARB_ECORRUPT, "an overlong form in a note"},
        {{1, 0, "\"quoted\" \xe2\x80\x94 ok", NULL, 0, 2}, 0, "quotes and a dash"},
        {{1, 4, NULL, "cheating", 0, 2}, ARB_ECORRUPT, "an unknown reason"},
        {{1, 4, NULL, "none", 0, 2}, ARB_ECORRUPT, "reason none"},
        {{1, 4, NULL, NULL, 3, 2}, ARB_ECORRUPT, "a seat past the table"},
        {{1, 4, NULL, NULL, -2, 2}, ARB_ECORRUPT, "seat -2"},
        {{1, 4, NULL, NULL, -1, 3}, ARB_ECORRUPT, "a bot past the match's"},
        {{1, 4, NULL, NULL, -1, -1}, ARB_ECORRUPT, "bot -1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        replace_at(f, at, 2, pack_penalties, &cases[i].b);
        uint8_t *m = exact(sb.data, sb.size);
        int rc = wire_decode_result(m, sb.size, &dec_result);
        CHECKF(rc == cases[i].rc, "%s: %d", cases[i].what, rc);
        if (rc == 0) {
            CHECK(dec_result.res.npenalties == cases[i].b.n && dec_result.res.penalties_dropped == 0);
            CHECK(strlen(dec_result.res.penalties[cases[i].b.n - 1].note)
                  == (cases[i].b.note ? strlen(cases[i].b.note) : cases[i].b.note_len));
            /* and it is written again byte for byte */
            uint8_t *e;
            size_t n;
            CHECK(wire_encode_result(&dec_result, &e, &n) == 0 && n == sb.size && memcmp(e, m, n) == 0);
            free(e);
        } else {
            CHECK(dec_result.res.penalties == NULL && dec_result.res.deals == NULL);
        }
        match_result_release(&dec_result.res);
        free(m);
    }
    /* the block itself: not [dropped, list], or a dropped count past 32 bits */
    static const uint8_t blocks[][12] = {
        {0x91, 0x00},                                            /* [0] */
        {0x93, 0x00, 0x90, 0x00},                                /* [0, [], 0] */
        {0x92, 0xcf, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x90}, /* [2^32, []] */
        {0x92, 0xff, 0x90},                                      /* [-1, []] */
        {0x92, 0x00, 0x80},                                      /* [0, {}] */
        {0xc0},                                                  /* nil */
    };
    static const size_t blen[] = {2, 4, 11, 3, 3, 1};
    for (size_t i = 0; i < sizeof blen / sizeof *blen; i++) {
        long off = locate(f->data, f->len, at, 2);
        arb_mp r;
        arb_mp_init(&r, f->data + off, f->len - (size_t)off);
        CHECK(arb_mp_skip(&r) == 0);
        fresh();
        msgpack_sbuffer_write(&sb, (const char *)f->data, (size_t)off);
        msgpack_sbuffer_write(&sb, (const char *)blocks[i], blen[i]);
        msgpack_sbuffer_write(&sb, (const char *)r.p, arb_mp_left(&r));
        uint8_t *m = exact(sb.data, sb.size);
        CHECKF(wire_decode_result(m, sb.size, &dec_result) == ARB_ECORRUPT, "penalty block %zu accepted", i);
        free(m);
    }
    /* a version-4 result (no penalty block): refused, not half read */
    {
        long off = locate(f->data, f->len, at, 2);
        static const int stats[] = {7};
        long soff = locate(f->data, f->len, stats, 1);
        fresh();
        msgpack_sbuffer_write(&sb, (const char *)f->data, (size_t)soff);
        msgpack_pack_array(&pk, 7);
        msgpack_sbuffer_write(&sb, (const char *)f->data + soff + 1, (size_t)(off - soff - 1));
        uint8_t *m = exact(sb.data, sb.size);
        CHECK(wire_decode_result(m, sb.size, &dec_result) == ARB_ECORRUPT);
        free(m);
    }
}

/* ---- 5. versions, caps, indexes, digests ---- */

/* A transcript chunk [13, match, gen, total, offset, bytes] as a hostile
 * worker may write it: decoded only within its bounds. */
static int chunk_frame(int64_t match, int64_t gen, uint64_t total, uint64_t offset, size_t n)
{
    fresh();
    msgpack_pack_array(&pk, 6);
    msgpack_pack_int(&pk, WIRE_TRANSCRIPT);
    msgpack_pack_int64(&pk, match);
    msgpack_pack_int64(&pk, gen);
    msgpack_pack_uint64(&pk, total);
    msgpack_pack_uint64(&pk, offset);
    uint8_t *body = calloc(n ? n : 1, 1);
    msgpack_pack_bin_with_body(&pk, body, n);
    free(body);
    uint8_t *m = exact(sb.data, sb.size);
    wire_chunk c;
    int rc = wire_decode_transcript_chunk(m, sb.size, &c);
    free(m);
    return rc;
}

static void test_chunks(void)
{
    CHECK(chunk_frame(5, 1, 100, 0, 100) == 0);
    CHECK(chunk_frame(5, 1, 100, 60, 40) == 0);
    CHECK(chunk_frame(5, 1, 0, 0, 0) == 0);   /* bounds hold; the scheduler refuses an empty one */
    CHECK(chunk_frame(5, 1, 100, 60, 41) == ARB_ECORRUPT);              /* past its total */
    CHECK(chunk_frame(5, 1, 100, 101, 0) == ARB_ECORRUPT);              /* starts past it */
    CHECK(chunk_frame(5, 1, UINT64_MAX, UINT64_MAX - 1, 10) == ARB_ECORRUPT);   /* wraps */
    CHECK(chunk_frame(5, 1, (uint64_t)ARB_MAX_TRANSCRIPT + 1, 0, 10) == ARB_ECORRUPT);   /* total too big */
    CHECK(chunk_frame(5, 1, 4u << 20, 0, ARB_WIRE_TRANSCRIPT_CHUNK) == 0);
    CHECK(chunk_frame(5, 1, 4u << 20, 0, ARB_WIRE_TRANSCRIPT_CHUNK + 1) == ARB_ECORRUPT);   /* chunk too big */
    CHECK(chunk_frame(0, 1, 100, 0, 10) == ARB_ECORRUPT);               /* no such match */
    CHECK(chunk_frame(-3, 1, 100, 0, 10) == ARB_ECORRUPT);
    CHECK(chunk_frame(5, -1, 100, 0, 10) == ARB_ECORRUPT);              /* no such generation */
    /* the encoder refuses what the decoder would */
    uint8_t *f = NULL, b[4] = {0};
    size_t n;
    wire_chunk c = {.match_id = 5, .gen = 1, .total = 3, .offset = 0, .bytes = b, .n = 4};
    CHECK(wire_transcript_chunk(&c, &f, &n) == ARB_EINVAL && !f);
    c.total = (uint64_t)ARB_MAX_TRANSCRIPT + 1;
    CHECK(wire_transcript_chunk(&c, &f, &n) == ARB_EINVAL && !f);
}

static void test_checks(void)
{
    int version = -1, slots, n;
    char name[ARB_WORKER_ID_MAX + 1];
    wire_lease run[ARB_WORKER_MAX_SLOTS];

    /* a hello from the next version: refused by version, which is reported */
    fresh();
    msgpack_pack_array(&pk, 5);
    msgpack_pack_int(&pk, WIRE_HELLO);
    msgpack_pack_int(&pk, WIRE_VERSION + 1);
    pstr("w");
    msgpack_pack_int(&pk, 4);
    msgpack_pack_array(&pk, 0);
    uint8_t *m = exact(sb.data, sb.size);
    CHECK(wire_decode_hello(m, sb.size, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk)
          == ARB_EUNSUPPORTED);
    CHECK(version == WIRE_VERSION + 1);
    free(m);
    /* a version-1 peer: [0, 1, name, slots] */
    version = -1;
    fresh();
    msgpack_pack_array(&pk, 4);
    msgpack_pack_int(&pk, WIRE_HELLO);
    msgpack_pack_int(&pk, 1);
    pstr("name");
    msgpack_pack_int(&pk, 1);
    m = exact(sb.data, sb.size);
    CHECK(wire_decode_hello(m, sb.size, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk)
          == ARB_EUNSUPPORTED);
    CHECK(version == 1);
    free(m);
    /* version 2 in the shape of version 1: malformed */
    fresh();
    msgpack_pack_array(&pk, 4);
    msgpack_pack_int(&pk, WIRE_HELLO);
    msgpack_pack_int(&pk, WIRE_VERSION);
    pstr("name");
    msgpack_pack_int(&pk, 1);
    m = exact(sb.data, sb.size);
    CHECK(wire_decode_hello(m, sb.size, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk)
          == ARB_ECORRUPT);
    free(m);
    /* an empty name; more slots than ARB_WORKER_MAX_SLOTS; a negative generation */
    uint8_t *f;
    size_t len;
    CHECK(wire_hello("", 1, NULL, 0, hpk, &f, &len) == 0);
    CHECK(wire_decode_hello(f, len, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk) == ARB_ECORRUPT);
    free(f);
    CHECK(wire_hello("w", ARB_WORKER_MAX_SLOTS + 1, NULL, 0, hpk, &f, &len) == 0);
    CHECK(wire_decode_hello(f, len, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk) == ARB_ECORRUPT);
    free(f);
    wire_lease neg = {5, -1};
    CHECK(wire_hello("w", 1, &neg, 1, hpk, &f, &len) == 0);
    CHECK(wire_decode_hello(f, len, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk) == ARB_ECORRUPT);
    free(f);
    /* a name longer than the caller's buffer */
    char longname[ARB_WORKER_ID_MAX + 2];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    CHECK(wire_hello(longname, 1, NULL, 0, hpk, &f, &len) == 0);
    CHECK(wire_decode_hello(f, len, &version, name, sizeof name, &slots, run, ARB_WORKER_MAX_SLOTS, &n, hpk) == ARB_ECORRUPT);
    free(f);

    /* running lists: three leases against a cap of two and of three */
    CHECK(wire_hello("w", 4, sample_leases, 3, hpk, &f, &len) == 0);
    CHECK(wire_decode_hello(f, len, &version, name, sizeof name, &slots, run, 2, &n, hpk) == ARB_ECORRUPT);
    CHECK(wire_decode_hello(f, len, &version, name, sizeof name, &slots, run, 3, &n, hpk) == 0 && n == 3);
    free(f);
    int fr;
    CHECK(wire_heartbeat(1, sample_leases, 3, &f, &len) == 0);
    CHECK(wire_decode_heartbeat(f, len, &fr, run, 2, &n) == ARB_ECORRUPT);
    CHECK(wire_decode_heartbeat(f, len, &fr, run, 3, &n) == 0 && n == 3 && fr == 1);
    CHECK(wire_decode_heartbeat(f, len, &fr, run, 0, &n) == ARB_ECORRUPT);
    free(f);

    /* an assignment's programs must name a bot and an argv entry it has */
    static wire_assign a;
    static const struct { int bot, argi; bool ok; } progs[] = {
        {0, 0, true}, {0, 1, true}, {2, 2, true}, {1, 0, true},
        {3, 0, false}, {-1, 0, false}, {ARB_MAX_SEATS, 0, false}, {1, 1, false}, {0, 2, false},
        {2, 3, false}, {0, ARB_MAX_BOT_ARGS - 1, false}, {0, ARB_MAX_BOT_ARGS, false}, {0, -1, false},
        {INT32_MAX, 0, false},
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        sample_assign(&a);
        a.programs[1].bot = progs[i].bot;
        a.programs[1].argi = progs[i].argi;
        CHECK(wire_encode_assign(&a, &f, &len) == 0);
        int rc = wire_decode_assign(f, len, &dec_assign);
        CHECKF(progs[i].ok ? rc == 0 : rc == ARB_ECORRUPT, "program of bot %d argv[%d]: %d", progs[i].bot,
               progs[i].argi, rc);
        free(f);
    }
    /* every duplicate mode crosses the wire (swap was once refused by the
     * decoder, and a tournament's matches went back to the queue forever);
     * one past the last is corrupt */
    for (int d = 0; d <= MATCH_DUP_COUNT; d++) {
        sample_assign(&a);
        a.cfg.duplicate = (uint8_t)d;
        CHECK(wire_encode_assign(&a, &f, &len) == 0);
        int rc = wire_decode_assign(f, len, &dec_assign);
        CHECKF(d < MATCH_DUP_COUNT ? rc == 0 && dec_assign.cfg.duplicate == d : rc == ARB_ECORRUPT,
               "duplicate %d: %d", d, rc);
        free(f);
    }
    /* more programs than ARB_WIRE_MAX_PROGRAMS; an unknown game; no bots */
    sample_assign(&a);
    a.nprograms = ARB_WIRE_MAX_PROGRAMS;
    for (int i = 0; i < a.nprograms; i++)
        a.programs[i] = a.programs[i % 2];
    CHECK(wire_encode_assign(&a, &f, &len) == 0);
    CHECK(wire_decode_assign(f, len, &dec_assign) == 0 && dec_assign.nprograms == ARB_WIRE_MAX_PROGRAMS);
    free(f);
    fresh();   /* the same with one program more, by hand (the struct has no room) */
    {
        const frame *base = frame_named("assign");
        int path[] = {4};
        long off = locate(base->data, base->len, path, 1);
        CHECK(off > 0);
        msgpack_sbuffer_write(&sb, (const char *)base->data, (size_t)off);
        msgpack_pack_array(&pk, ARB_WIRE_MAX_PROGRAMS + 1);
        for (int i = 0; i <= ARB_WIRE_MAX_PROGRAMS; i++) {
            msgpack_pack_array(&pk, 4);
            msgpack_pack_int(&pk, 0);
            msgpack_pack_int(&pk, 0);
            pstr(D1);
            pstr("p");
        }
        m = exact(sb.data, sb.size);
        CHECK(wire_decode_assign(m, sb.size, &dec_assign) == ARB_ECORRUPT);
        free(m);
    }
    static const int game_at[] = {3, 0};
    replace_at(frame_named("assign"), game_at, 2, pack_str, "mahjong");
    m = exact(sb.data, sb.size);
    CHECK(wire_decode_assign(m, sb.size, &dec_assign) == ARB_ECORRUPT);
    free(m);
    replace_at(frame_named("assign"), game_at, 2, pack_str, "doudizhu");
    m = exact(sb.data, sb.size);
    CHECK(wire_decode_assign(m, sb.size, &dec_assign) == 0);
    free(m);
    sample_assign(&a);
    a.cfg.nbots = 0;
    a.nprograms = 0;
    CHECK(wire_encode_assign(&a, &f, &len) == 0);
    CHECK(wire_decode_assign(f, len, &dec_assign) == ARB_ECORRUPT);
    free(f);
    sample_assign(&a);
    a.cfg.deals = ARB_MAX_DEALS + 1;
    CHECK(wire_encode_assign(&a, &f, &len) == 0);
    CHECK(wire_decode_assign(f, len, &dec_assign) == ARB_ECORRUPT);
    free(f);

    /* digests: exactly 64 lowercase hex digits */
    static const char *const bad[] = {
        "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg",
        "0123456789abcdef0123456789abcdef 123456789abcdef0123456789abcdef",
        "../../../../../../../../../../../../../../../../../../../etc/pwd",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char digest[65], text[64];
        const uint8_t *b;
        size_t blen;
        CHECK(wire_fetch(bad[i], &f, &len) == 0);
        CHECKF(wire_decode_fetch(f, len, digest) == ARB_ECORRUPT, "fetch of \"%s\"", bad[i]);
        free(f);
        CHECK(wire_program_msg(bad[i], sample_bundle, sizeof sample_bundle, NULL, &f, &len) == 0);
        CHECKF(wire_decode_program(f, len, digest, &b, &blen, text, sizeof text) == ARB_ECORRUPT,
               "program of \"%s\"", bad[i]);
        free(f);
        CHECK(wire_program_msg(bad[i], NULL, 0, "none", &f, &len) == 0);
        CHECKF(wire_decode_program(f, len, digest, &b, &blen, text, sizeof text) == ARB_ECORRUPT,
               "no program of \"%s\"", bad[i]);
        free(f);
        static const int digest_at[] = {4, 1, 2};   /* the struct holds no 65th digit: by hand */
        replace_at(frame_named("assign"), digest_at, 3, pack_str, bad[i]);
        m = exact(sb.data, sb.size);
        CHECKF(wire_decode_assign(m, sb.size, &dec_assign) == ARB_ECORRUPT, "assign with \"%s\"", bad[i]);
        free(m);
        replace_at(frame_named("assign"), digest_at, 3, pack_str, D1);
        m = exact(sb.data, sb.size);
        CHECK(wire_decode_assign(m, sb.size, &dec_assign) == 0);
        free(m);
    }
    /* an error text longer than the caller's buffer */
    {
        char digest[65], text[8];
        const uint8_t *b;
        size_t blen;
        CHECK(wire_program_msg(D1, NULL, 0, "a rather long error", &f, &len) == 0);
        CHECK(wire_decode_program(f, len, digest, &b, &blen, text, sizeof text) == ARB_ECORRUPT);
        free(f);
    }

    /* welcome: heartbeat period within 1 ms .. 1 h */
    static const struct { int hb; bool ok; } hbs[] = {
        {0, false}, {1, true}, {3600000, true}, {3600001, false}, {-5, false},
    };
    for (size_t i = 0; i < sizeof hbs / sizeof hbs[0]; i++) {
        int v, h;
        CHECK(wire_welcome(hbs[i].hb, &f, &len) == 0);
        CHECKF((wire_decode_welcome(f, len, &v, &h) == 0) == hbs[i].ok, "welcome with %d ms", hbs[i].hb);
        free(f);
    }

    /* trailing bytes after a complete message */
    for (int i = 0; i < nframes; i++) {
        const frame *fr0 = &frames[i];
        if (!has_decoder(fr0->kind))
            continue;
        m = malloc(fr0->len + 1);
        memcpy(m, fr0->data, fr0->len);
        m[fr0->len] = 0xc0;
        int rc = decode_as(fr0->kind, m, fr0->len + 1);
        /* wire_decode_ack, unlike the others, does not check that the
         * generation ends the frame: not asserted until that is settled */
        if (fr0->kind != WIRE_ACK)
            CHECKF(rc == ARB_ECORRUPT, "%s with a trailing byte: %d", fr0->name, rc);
        free(m);
    }
}

/* ---- 6. bundles ---- */

static char tmp_base[64];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void rm_rf(const char *path)
{
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Entries of a directory (not . and ..), their names into list. */
static int list_dir(const char *path, char *list, size_t cap)
{
    DIR *d = opendir(path);
    int n = 0;
    size_t k = 0;
    if (cap)
        list[0] = 0;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        if (k < cap)
            k += (size_t)snprintf(list + k, cap - k, "%s ", e->d_name);
    }
    closedir(d);
    return n;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fchmod(fd, mode) != 0) {
        perror(path);
        exit(2);
    }
    close(fd);
}

static bool file_is(const char *path, const char *text, mode_t mode)
{
    struct stat st;
    char buf[256];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf);
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == mode && n >= 0
              && (size_t)n == strlen(text) && memcmp(buf, text, (size_t)n) == 0;
    close(fd);
    return ok;
}

typedef struct hand_entry {
    const char *path;   /* NULL: a bin instead of a str */
    uint64_t mode;
    const char *data;
} hand_entry;

/* A bundle packed by hand in sb: [[path, mode, data], ...]. */
static void hand_bundle(const hand_entry *e, int n)
{
    fresh();
    msgpack_pack_array(&pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_array(&pk, 3);
        if (e[i].path)
            msgpack_pack_str_with_body(&pk, e[i].path, strlen(e[i].path));
        else
            msgpack_pack_bin_with_body(&pk, "x", 1);
        msgpack_pack_uint64(&pk, e[i].mode);
        msgpack_pack_bin_with_body(&pk, e[i].data, strlen(e[i].data));
    }
}

/* Unpack sb (with its own digest) into cache: the result. A refused
 * bundle leaves the cache as it was (no temporary directory either). */
static int unpack_sb(const char *cache, const char *what)
{
    char digest[65], err[512], before[1024], after[1024];
    int n0 = list_dir(cache, before, sizeof before);
    uint8_t *b = exact(sb.data, sb.size);
    bundle_digest(b, sb.size, digest);
    err[0] = 0;
    int rc = bundle_unpack(b, sb.size, digest, cache, err, sizeof err);
    free(b);
    if (rc) {
        int n1 = list_dir(cache, after, sizeof after);
        CHECKF(n1 == n0 && strcmp(before, after) == 0, "refused bundle (%s) left the cache holding %s", what, after);
        CHECKF(err[0] != 0, "refused bundle (%s) without a message", what);
    }
    return rc;
}

static void test_bundles(void)
{
    snprintf(tmp_base, sizeof tmp_base, "/tmp/test_wire.XXXXXX");
    if (!mkdtemp(tmp_base)) {
        perror("mkdtemp");
        exit(2);
    }
    char src[128], dir[160], run_py[192], mod_py[192], cache[128], cache2[128];
    snprintf(src, sizeof src, "%s/src", tmp_base);
    mkdir(src, 0755);
    snprintf(dir, sizeof dir, "%s/bot", src);
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/bot/a", src);
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/bot/lib", src);
    mkdir(dir, 0755);
    snprintf(run_py, sizeof run_py, "%s/bot/a/run.py", src);
    snprintf(mod_py, sizeof mod_py, "%s/bot/lib/mod.py", src);
    static const char run_text[] = "#!/usr/bin/env python3\nimport mod\nprint('hi')\n";
    static const char mod_text[] = "X = 1\n";
    write_file(run_py, run_text, 0755);
    write_file(mod_py, mod_text, 0600);   /* not executable: 0644 in the bundle */

    /* build: the layout relative to the deepest common directory */
    const char *files[] = {run_py, mod_py};
    uint8_t *b = NULL, *b2 = NULL;
    size_t blen = 0, blen2 = 0;
    char digest[65], digest2[65], err[512], rel[2][ARB_BUNDLE_MAX_PATH + 1], list[512];
    CHECKF(bundle_build(files, 2, &b, &blen, digest, rel, err, sizeof err) == 0, "%s", err);
    CHECK(strcmp(rel[0], "a/run.py") == 0 && strcmp(rel[1], "lib/mod.py") == 0);
    char check[65];
    bundle_digest(b, blen, check);
    CHECK(strlen(digest) == 64 && strcmp(check, digest) == 0);
    /* the order the files are named in does not change the bundle */
    const char *files2[] = {mod_py, run_py};
    CHECK(bundle_build(files2, 2, &b2, &blen2, digest2, rel, err, sizeof err) == 0);
    CHECK(strcmp(digest, digest2) == 0 && blen == blen2 && memcmp(b, b2, blen) == 0);
    CHECK(strcmp(rel[0], "lib/mod.py") == 0 && strcmp(rel[1], "a/run.py") == 0);
    free(b2);
    /* a relative path is refused */
    const char *relative[] = {"bot/a/run.py"};
    CHECK(bundle_build(relative, 1, &b2, &blen2, digest2, rel, err, sizeof err) == ARB_EINVAL && !b2);

    /* unpack into a cache that does not exist yet */
    snprintf(cache, sizeof cache, "%s/cache", tmp_base);
    CHECK(!bundle_cached(cache, digest));
    int rc = bundle_unpack(b, blen, digest, cache, err, sizeof err);
    CHECKF(rc == 0, "unpack: %d %s", rc, err);
    CHECK(bundle_cached(cache, digest));
    char path[512];
    snprintf(path, sizeof path, "%s/%s/a/run.py", cache, digest);
    CHECKF(file_is(path, run_text, 0755), "%s", path);
    snprintf(path, sizeof path, "%s/%s/lib/mod.py", cache, digest);
    CHECKF(file_is(path, mod_text, 0644), "%s", path);
    CHECKF(list_dir(cache, list, sizeof list) == 1, "cache holds %s", list);
    snprintf(path, sizeof path, "%s/%s", cache, digest);
    CHECKF(list_dir(path, list, sizeof list) == 2, "bundle dir holds %s", list);
    /* again: nothing to do */
    CHECK(bundle_unpack(b, blen, digest, cache, err, sizeof err) == 0);
    CHECK(list_dir(cache, list, sizeof list) == 1);

    /* a wrong digest: nothing written, not even the cache directory */
    snprintf(cache2, sizeof cache2, "%s/cache2", tmp_base);
    char wrong[65];
    snprintf(wrong, sizeof wrong, "%s", digest);
    wrong[10] = wrong[10] == '0' ? '1' : '0';
    CHECK(bundle_unpack(b, blen, wrong, cache2, err, sizeof err) == ARB_ECORRUPT && err[0]);
    CHECK(list_dir(cache2, list, sizeof list) == -1);
    mkdir(cache2, 0755);
    CHECK(bundle_unpack(b, blen, wrong, cache2, err, sizeof err) == ARB_ECORRUPT);
    CHECK(bundle_unpack(b, blen, "../../evil", cache2, err, sizeof err) == ARB_ECORRUPT);
    CHECK(bundle_unpack(b, blen - 1, digest, cache2, err, sizeof err) == ARB_ECORRUPT);
    CHECK(list_dir(cache2, list, sizeof list) == 0);
    free(b);

    /* hand-built bundles with bad names, alone and after a good file that
     * is written first (and must be cleaned away) */
    static const char *const bad_names[] = {
        "../evil", "/abs", "a/../b", "a//b", "./x", "", "dir/", " lead space", "trail space ", "quo\"te", "dollar$x", "ctl\x01", "tab\tx", "new\nline",
        "..", ".", "a/./b", "a/..", "a/.", "/", "//", "x\\y", "q?", "star*", "uni\xc3\xa9", "a/b/../../../evil",
    };
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        hand_entry e[2] = {{"ok/first.py", 0644, "first"}, {bad_names[i], 0644, "x"}};
        hand_bundle(&e[1], 1);
        CHECKF(unpack_sb(cache2, bad_names[i]) == ARB_ECORRUPT, "bundle naming \"%s\"", bad_names[i]);
        hand_bundle(e, 2);
        CHECKF(unpack_sb(cache2, bad_names[i]) == ARB_ECORRUPT, "bundle naming ok/first.py and \"%s\"", bad_names[i]);
    }
    snprintf(path, sizeof path, "%s/evil", tmp_base);
    CHECK(access(path, F_OK) != 0);
    /* the same path twice (also through directories) */
    {
        hand_entry e[] = {{"x", 0644, "1"}, {"x", 0755, "2"}};
        hand_bundle(e, 2);
        CHECK(unpack_sb(cache2, "x twice") == ARB_ECORRUPT);
        hand_entry e2[] = {{"d/a", 0644, "1"}, {"d/b", 0644, "1"}, {"d/a", 0644, "2"}};
        hand_bundle(e2, 3);
        CHECK(unpack_sb(cache2, "d/a twice") == ARB_ECORRUPT);
        /* a file and a directory of one name: refused (as ARB_EIO today:
         * unpack meets it as a failed open, not as a malformed bundle) */
        hand_entry e3[] = {{"d", 0644, "1"}, {"d/b", 0644, "1"}};
        hand_bundle(e3, 2);
        CHECK(unpack_sb(cache2, "d and d/b") < 0);
        hand_entry e4[] = {{"d/b", 0644, "1"}, {"d", 0644, "1"}};
        hand_bundle(e4, 2);
        CHECK(unpack_sb(cache2, "d/b and d") < 0);
    }
    /* modes: 0755 and 0644 only */
    static const uint64_t modes[] = {0, 0600, 0700, 0777, 0666, 0444, 04755, 02755, 01777, 0100644, 0755 + 1,
                                     UINT64_MAX};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        hand_entry e[] = {{"f", modes[i], "1"}};
        hand_bundle(e, 1);
        CHECKF(unpack_sb(cache2, "mode") == ARB_ECORRUPT, "mode 0%llo", (unsigned long long)modes[i]);
    }
    /* malformed shapes: trailing bytes, empty, too many files, wrong types */
    {
        hand_entry e[] = {{"f", 0644, "1"}};
        hand_bundle(e, 1);
        msgpack_pack_nil(&pk);
        CHECK(unpack_sb(cache2, "trailing nil") == ARB_ECORRUPT);
        hand_bundle(e, 1);
        msgpack_pack_array(&pk, 0);
        CHECK(unpack_sb(cache2, "trailing array") == ARB_ECORRUPT);
        hand_bundle(e, 0);
        CHECK(unpack_sb(cache2, "empty") == ARB_ECORRUPT);
        hand_entry nb[] = {{NULL, 0644, "1"}};
        hand_bundle(nb, 1);
        CHECK(unpack_sb(cache2, "name as bin") == ARB_ECORRUPT);
        fresh();
        msgpack_pack_array(&pk, 1);
        msgpack_pack_array(&pk, 3);
        pstr("f");
        msgpack_pack_int(&pk, 0644);
        pstr("data as str");
        CHECK(unpack_sb(cache2, "data as str") == ARB_ECORRUPT);
        fresh();
        msgpack_pack_array(&pk, 1);
        msgpack_pack_array(&pk, 2);
        pstr("f");
        msgpack_pack_int(&pk, 0644);
        CHECK(unpack_sb(cache2, "two fields") == ARB_ECORRUPT);
        fresh();
        msgpack_pack_array(&pk, 1);
        msgpack_pack_array(&pk, 3);
        pstr("f");
        msgpack_pack_int(&pk, -0644);
        msgpack_pack_bin_with_body(&pk, "1", 1);
        CHECK(unpack_sb(cache2, "negative mode") == ARB_ECORRUPT);
        fresh();
        msgpack_pack_map(&pk, 1);
        pstr("f");
        pstr("1");
        CHECK(unpack_sb(cache2, "a map") == ARB_ECORRUPT);
        /* lying headers inside a bundle */
        static const uint8_t lies[][12] = {
            {0xdd, 0xff, 0xff, 0xff, 0xff, 0x93, 0xa1, 'f', 0xcd, 0x01, 0xa4, 0xc0},
            {0x91, 0x93, 0xdb, 0xff, 0xff, 0xff, 0xff, 'f', 0xcd, 0x01, 0xa4, 0xc0},
            {0x91, 0x93, 0xa1, 'f', 0xcd, 0x01, 0xa4, 0xc6, 0xff, 0xff, 0xff, 0xff},
            {0x91, 0xdd, 0xff, 0xff, 0xff, 0xff, 0xa1, 'f', 0xcd, 0x01, 0xa4, 0xc0},
        };
        for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
            fresh();
            msgpack_sbuffer_write(&sb, (const char *)lies[i], sizeof lies[i]);
            CHECKF(unpack_sb(cache2, "lying header") == ARB_ECORRUPT, "lying bundle %zu", i);
        }
    }
    /* ARB_BUNDLE_MAX_ENTRIES files, and one more */
    {
        static hand_entry many[ARB_BUNDLE_MAX_ENTRIES + 1];
        static char names[ARB_BUNDLE_MAX_ENTRIES + 1][16];
        for (int i = 0; i <= ARB_BUNDLE_MAX_ENTRIES; i++) {
            snprintf(names[i], sizeof names[i], "f%05d", i);
            many[i] = (hand_entry){names[i], 0644, "1"};
        }
        hand_bundle(many, ARB_BUNDLE_MAX_ENTRIES + 1);
        CHECK(unpack_sb(cache2, "too many files") == ARB_ECORRUPT);
        hand_bundle(many, ARB_BUNDLE_MAX_ENTRIES);
        CHECK(unpack_sb(cache2, "the most files") == 0);
    }
    /* names at the length limit, and one over */
    {
        char longest[ARB_BUNDLE_MAX_PATH + 2];
        memset(longest, 'n', sizeof longest - 1);
        longest[ARB_BUNDLE_MAX_PATH] = 0;   /* 255 bytes: one component at NAME_MAX */
        hand_entry e[] = {{longest, 0755, "#!/bin/sh\n"}};
        hand_bundle(e, 1);
        CHECK(unpack_sb(cache2, "255-byte name") == 0);
        longest[ARB_BUNDLE_MAX_PATH] = 'n';
        longest[ARB_BUNDLE_MAX_PATH + 1] = 0;
        hand_bundle(e, 1);
        CHECK(unpack_sb(cache2, "256-byte name") == ARB_ECORRUPT);
    }
    /* a good hand-built bundle with nested directories and odd but legal
     * names */
    {
        hand_entry e[] = {{".hidden", 0644, "h"}, {"a-b_c+d/e.f/...", 0755, "dots"}, {"z/y/x/w", 0644, "deep"}};
        hand_bundle(e, 3);
        char d[65];
        bundle_digest((const uint8_t *)sb.data, sb.size, d);
        CHECK(unpack_sb(cache2, "good") == 0);
        snprintf(path, sizeof path, "%s/%s/a-b_c+d/e.f/...", cache2, d);
        CHECK(file_is(path, "dots", 0755));
        snprintf(path, sizeof path, "%s/%s/z/y/x/w", cache2, d);
        CHECK(file_is(path, "deep", 0644));
    }
    /* the refused ones left no temporary directory anywhere in the cache */
    int nleft = list_dir(cache2, list, sizeof list);
    CHECKF(nleft == 3 && !strstr(list, ".tmp"), "cache2 holds %d: %s", nleft, list);
    CHECKF(list_dir(tmp_base, list, sizeof list) == 3, "the test directory holds %s", list);
    rm_rf(tmp_base);
}

/* ---- the seed corpus ---- */

static int write_corpus(const char *dir)
{
    char path[1024];
    for (int i = 0; i < nframes; i++) {
        snprintf(path, sizeof path, "%s/%s.mp", dir, frames[i].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(frames[i].data, 1, frames[i].len, f) != frames[i].len || fclose(f) != 0) {
            perror(path);
            return 2;
        }
    }
    /* bundles too: the target unpacks every input as one */
    hand_entry e1[] = {{"a/run.py", 0755, "#!/usr/bin/env python3\nimport mod\n"}, {"lib/mod.py", 0644, "X = 1\n"}};
    hand_entry e2[] = {{"bot", 0755, "#!/bin/sh\nexec cat\n"}};
    hand_entry e3[] = {{".hidden", 0644, "h"}, {"a/b/c", 0755, "x"}, {"a/d", 0644, "y"}};
    for (int k = 0; k < 3; k++) {
        if (k == 0)
            hand_bundle(e1, 2);
        else if (k == 1)
            hand_bundle(e2, 1);
        else
            hand_bundle(e3, 3);
        snprintf(path, sizeof path, "%s/bundle-%d.mp", dir, k + 1);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(sb.data, 1, sb.size, f) != sb.size || fclose(f) != 0) {
            perror(path);
            return 2;
        }
    }
    printf("wrote %d frames and 3 bundles to %s\n", nframes, dir);
    return 0;
}

/* The one text rule of every string from the wire, and the cleaning a
 * worker applies to what it says. */
static void test_text(void)
{
    static const struct { const char *s; bool ok; } cases[] = {
        {"", true}, {"a bot failed: exit 3", true}, {"é à ü — 王 🂡", true},
        {"\xff", false}, {"w\xff", false}, {"\xc0\xaf", false},          /* overlong '/' */
        {"\xe0\x80\xaf", false}, {"\xed\xa0\x80", false},              /* overlong, surrogate */
        {"\xf4\x90\x80\x80", false}, {"\xc2\x85", false},              /* past U+10FFFF, C1 NEL */
        {"\xe2\x82", false}, {"a\nb", false}, {"a\rb", false}, {"\x1b[31m", false}, {"\x7f", false},
        {"tab\there", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECKF(wire_valid_text(cases[i].s, 100) == cases[i].ok, "case %zu", i);
    CHECK(!wire_valid_text("abcdef", 5) && wire_valid_text("abcde", 5));
    CHECK(wire_valid_name("local:0") && wire_valid_name("key:rq:+k^8{Zw]N3xBD=2k#S@!U<sL.FtWRb7-3}$")
          && wire_valid_name("host-7.example.org"));
    CHECK(!wire_valid_name("") && !wire_valid_name("a b") && !wire_valid_name("w\xff") && !wire_valid_name("a/b")
          && !wire_valid_name("a'b") && !wire_valid_name("a\\b"));
    char buf[64];
    snprintf(buf, sizeof buf, "ok \xff\x1b[1m é \xe2\x82");
    wire_clean_text(buf, 100);
    CHECKF(wire_valid_text(buf, 100) && strcmp(buf, "ok ??[1m é ??") == 0, "cleaned to \"%s\"", buf);
    snprintf(buf, sizeof buf, "ééé");
    wire_clean_text(buf, 5);   /* cut at a character boundary */
    CHECKF(strcmp(buf, "éé") == 0, "cut to \"%s\"", buf);
}

/* Version 7: a bot's start-up budget and variables travel with it; a bot
 * declaring neither is encoded as before ([name, argv]); a decoder takes
 * only what the rules allow (match_env_check, ARB_MAX_STARTUP_MS). */
static void test_bot_extras(void)
{
    static wire_assign a, d;
    char why[256];
    uint8_t *f = NULL, *plain = NULL;
    size_t n = 0, pn = 0;
    sample_assign(&a);
    CHECK(wire_encode_assign(&a, &plain, &pn) == 0);
    a.cfg.bots[1].startup_ms = 30000;
    CHECK(match_env_add(&a.cfg.bots[1], "OMP_NUM_THREADS=2", why, sizeof why) == 0);
    CHECK(match_env_add(&a.cfg.bots[1], "MODEL_DIR=/models/a b", why, sizeof why) == 0);
    CHECK(wire_encode_assign(&a, &f, &n) == 0 && n > pn);
    CHECK(wire_decode_assign(f, n, &d) == 0 && same_assign(&a, &d) && d.cfg.bots[1].startup_ms == 30000
          && d.cfg.bots[1].nenv == 2 && strcmp(d.cfg.bots[1].env, a.cfg.bots[1].env) == 0
          && d.cfg.bots[0].startup_ms == 0 && d.cfg.bots[0].nenv == 0);
    /* the same frame with a variable a bot may not set, of the same length */
    uint8_t *at = memmem(f, n, "OMP_NUM_THREADS=2", 17);
    CHECK(at != NULL);
    if (at) {
        memcpy(at, "LD_PRELOAD=/x.so2", 17);
        CHECK(wire_decode_assign(f, n, &d) == ARB_ECORRUPT);
    }
    free(f);
    a.cfg.bots[1].startup_ms = ARB_MAX_STARTUP_MS + 1;   /* the encoder sends what it is given */
    CHECK(wire_encode_assign(&a, &f, &n) == 0 && wire_decode_assign(f, n, &d) == ARB_ECORRUPT);
    free(f);
    /* a bot that declares nothing: the frame of version 6 */
    sample_assign(&a);
    CHECK(wire_encode_assign(&a, &f, &n) == 0 && n == pn && memcmp(f, plain, n) == 0);
    free(f);
    free(plain);
    /* the rules, one by one */
    match_bot_cfg *b = calloc(1, sizeof *b);
    static const char *const refused[] = {"PATH=/x", "HOME=/", "LANG=C", "ARBITER_BOT=0", "LD_PRELOAD=/x.so",
                                          "LD_LIBRARY_PATH=.", "LC_ALL=C", "MALLOC_ARENA_MAX=1", "GLIBC_TUNABLES=x",
                                          "GCONV_PATH=.", "TMPDIR=/t", "lower=1", "1ABC=1", "A-B=1", "=x", "NOEQUALS",
                                          "TAB=a\tb", "NL=a\nb", "HIGH=\xc3\xa9", NULL};
    for (int i = 0; refused[i] && b; i++)
        CHECKF(match_env_check(refused[i], why, sizeof why) == ARB_EINVAL, "%s accepted", refused[i]);
    static const char *const allowed[] = {"PYTHONPATH=vendor", "OMP_NUM_THREADS=1", "_X=", "A1=a b=c", NULL};
    for (int i = 0; allowed[i] && b; i++)
        CHECKF(match_env_check(allowed[i], why, sizeof why) == 0, "%s refused: %s", allowed[i], why);
    if (b) {
        CHECK(match_env_add(b, "A=1", why, sizeof why) == 0 && match_env_add(b, "A=2", why, sizeof why) == ARB_EINVAL);
        for (int i = 1; i < ARB_MAX_BOT_ENV; i++) {
            char e[32];
            snprintf(e, sizeof e, "V%d=1", i);
            CHECK(match_env_add(b, e, why, sizeof why) == 0);
        }
        CHECK(b->nenv == ARB_MAX_BOT_ENV && match_env_add(b, "ONE_MORE=1", why, sizeof why) == ARB_ETOOBIG);
        memset(b, 0, sizeof *b);
        char big[ARB_MAX_BOT_ENV_TEXT];
        memset(big, 'x', sizeof big - 1);
        big[sizeof big - 1] = 0;
        memcpy(big, "BIG=", 4);
        CHECK(match_env_add(b, big, why, sizeof why) == ARB_ETOOBIG && b->nenv == 0);
    }
    free(b);
}

int main(int argc, char **argv)
{
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    make_frames();
    if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0)
        return write_corpus(argv[2]);
    test_round_trips();
    test_truncations();
    test_random();
    test_huge_headers();
    test_penalties();
    test_checks();
    test_chunks();
    test_bundles();
    test_text();
    test_bot_extras();
    for (int i = 0; i < nframes; i++)
        free(frames[i].data);
    msgpack_sbuffer_destroy(&sb);
    return TEST_DONE("wire");
}
