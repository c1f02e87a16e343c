/* fuzz_wire.c — libFuzzer target for the scheduler <-> worker frames
 * (wire.h) and program bundles (bundle.h), both read from the network.
 * Every input goes through wire_kind_of and every decoder: at most one
 * accepts it, of the kind wire_kind_of names, with what it returns inside
 * its documented bounds; what a decoder accepts is encoded, decoded and
 * encoded again, and must come back the same (ids, generations, counts,
 * and byte for byte the second time). Then the input is unpacked as a
 * bundle under its own digest (and a program frame's bundle under its
 * digest) into a cache three directories below a scratch directory: a
 * refusal leaves the cache empty, a success leaves exactly cache/DIGEST
 * with regular files of mode 0644 or 0755 and symbolic links that resolve
 * inside it (or name /usr/ or /bin/), and nothing ever appears
 * beside the cache or above it. Any broken rule is an abort(). */
#include "wire.h"
#include "bundle.h"
#include "arb_error.h"

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the signing key a hello carries (decoded into, encoded from) */
static uint8_t hpk[32] = {1, 2, 3};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(cond) do { if (!(cond)) abort(); } while (0)

/* Both encodings exist and are the same bytes; frees them. */
static void same_bytes(uint8_t *e1, size_t n1, uint8_t *e2, size_t n2)
{
    MUST(e1 && e2 && n1 == n2 && memcmp(e1, e2, n1) == 0);
    free(e1);
    free(e2);
}

/* ---- the decoders, each with its re-encoding ---- */

static int fuzz_hello(const uint8_t *data, size_t size)
{
    wire_lease r1[ARB_WORKER_MAX_SLOTS], r2[ARB_WORKER_MAX_SLOTS], small[2];
    char m1[ARB_WORKER_ID_MAX + 1], m2[ARB_WORKER_ID_MAX + 1];
    int v1 = -1, v2, s1, s2, c1, c2, cs, vs, ss;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_hello(data, size, &v1, m1, sizeof m1, &s1, r1, ARB_WORKER_MAX_SLOTS, &c1, hpk);
    /* the same with room for two leases: refused when more were sent */
    int rs = wire_decode_hello(data, size, &vs, m2, sizeof m2, &ss, small, 2, &cs, hpk);
    if (rc == ARB_EUNSUPPORTED) {
        MUST(v1 >= 0 && v1 != WIRE_VERSION && rs == ARB_EUNSUPPORTED && vs == v1);
        return rc;
    }
    if (rc) {
        MUST(rc == ARB_ECORRUPT && rs == ARB_ECORRUPT);
        return rc;
    }
    MUST(v1 == WIRE_VERSION && m1[0] && strlen(m1) <= ARB_WORKER_ID_MAX && s1 >= 0 && s1 <= ARB_WORKER_MAX_SLOTS);
    MUST(c1 >= 0 && c1 <= ARB_WORKER_MAX_SLOTS);
    MUST(c1 <= 2 ? rs == 0 && cs == c1 && ss == s1 && strcmp(m1, m2) == 0 : rs == ARB_ECORRUPT);
    for (int i = 0; i < c1 && i < 2 && rs == 0; i++)
        MUST(small[i].match_id == r1[i].match_id && small[i].gen == r1[i].gen);
    for (int i = 0; i < c1; i++)
        MUST(r1[i].gen >= 0);
    MUST(wire_hello(m1, s1, r1, c1, hpk, &e1, &n1) == 0);
    MUST(wire_decode_hello(e1, n1, &v2, m2, sizeof m2, &s2, r2, ARB_WORKER_MAX_SLOTS, &c2, hpk) == 0);
    MUST(v2 == WIRE_VERSION && strcmp(m1, m2) == 0 && s1 == s2 && c1 == c2);
    for (int i = 0; i < c1; i++)
        MUST(r1[i].match_id == r2[i].match_id && r1[i].gen == r2[i].gen);
    MUST(wire_hello(m2, s2, r2, c2, hpk, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_heartbeat(const uint8_t *data, size_t size)
{
    wire_lease r1[ARB_WORKER_MAX_SLOTS], r2[ARB_WORKER_MAX_SLOTS];
    int f1, f2, c1, c2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_heartbeat(data, size, &f1, r1, ARB_WORKER_MAX_SLOTS, &c1);
    if (rc)
        return rc;
    MUST(f1 >= -1 && f1 <= ARB_WORKER_MAX_SLOTS && c1 >= 0 && c1 <= ARB_WORKER_MAX_SLOTS && (f1 >= 0 || c1 == 0));
    MUST(wire_heartbeat(f1, r1, c1, &e1, &n1) == 0);
    MUST(wire_decode_heartbeat(e1, n1, &f2, r2, ARB_WORKER_MAX_SLOTS, &c2) == 0 && f1 == f2 && c1 == c2);
    for (int i = 0; i < c1; i++)
        MUST(r1[i].match_id == r2[i].match_id && r1[i].gen == r2[i].gen && r1[i].gen >= 0);
    MUST(wire_heartbeat(f2, r2, c2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_assign(const uint8_t *data, size_t size)
{
    static wire_assign a1, a2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_assign(data, size, &a1);
    if (rc)
        return rc;
    const match_config *c = &a1.cfg;
    MUST(c->game && c->nbots >= 1 && c->nbots <= ARB_MAX_SEATS && c->deals <= ARB_MAX_DEALS && a1.lease_gen >= 0);
    MUST(a1.nprograms >= 0 && a1.nprograms <= ARB_WIRE_MAX_PROGRAMS);
    for (int b = 0; b < c->nbots; b++)
        MUST(c->bots[b].argc >= 1 && c->bots[b].argc <= ARB_MAX_BOT_ARGS);
    for (int i = 0; i < a1.nprograms; i++) {
        const wire_program *p = &a1.programs[i];
        MUST(p->bot >= 0 && p->bot < c->nbots && p->argi >= 0 && p->argi < c->bots[p->bot].argc);
        MUST(wire_is_digest(p->digest) && p->path[0]);
    }
    MUST(wire_encode_assign(&a1, &e1, &n1) == 0);
    MUST(wire_decode_assign(e1, n1, &a2) == 0);
    MUST(a1.match_id == a2.match_id && a1.lease_gen == a2.lease_gen && a1.cfg.nbots == a2.cfg.nbots
         && a1.nprograms == a2.nprograms && a1.cfg.deals == a2.cfg.deals && a1.cfg.seed == a2.cfg.seed
         && a1.cfg.game == a2.cfg.game);
    for (int b = 0; b < c->nbots; b++)
        MUST(a1.cfg.bots[b].argc == a2.cfg.bots[b].argc && strcmp(a1.cfg.bots[b].name, a2.cfg.bots[b].name) == 0);
    for (int i = 0; i < a1.nprograms; i++)
        MUST(a1.programs[i].bot == a2.programs[i].bot && a1.programs[i].argi == a2.programs[i].argi
             && strcmp(a1.programs[i].digest, a2.programs[i].digest) == 0
             && strcmp(a1.programs[i].path, a2.programs[i].path) == 0);
    MUST(wire_encode_assign(&a2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_result(const uint8_t *data, size_t size)
{
    static wire_result r1, r2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_result(data, size, &r1);
    if (rc) {
        MUST(r1.res.deals == NULL && r1.res.penalties == NULL);   /* released on the way out */
        return rc;
    }
    const match_result *x = &r1.res, *y = &r2.res;
    MUST(x->nbots >= 0 && x->nbots <= ARB_MAX_SEATS && x->ndeals <= ARB_MAX_DEALS && r1.lease_gen >= 0);
    MUST(x->ndeals == 0 ? x->deals == NULL : x->deals != NULL);
    for (uint32_t g = 0; g < x->ndeals; g++) {
        MUST(x->deals[g].forfeit_bot >= -1 && x->deals[g].forfeit_bot < ARB_MAX_SEATS);
        for (int k = 0; k < x->nbots; k++)
            MUST(x->deals[g].bot_at[k] < ARB_MAX_SEATS);
    }
    MUST(x->npenalties <= ARB_MAX_RESULT_PENALTIES && (x->npenalties == 0) == (x->penalties == NULL));
    for (uint32_t i = 0; i < x->npenalties; i++) {
        const match_penalty *p = &x->penalties[i];
        MUST(p->bot < x->nbots && p->seat >= -1 && p->seat < x->nbots && p->reason > MATCH_R_NONE
             && p->reason < MATCH_R_COUNT && p->consequence <= MATCH_FORFEIT_MATCH
             && wire_valid_text(p->note, ARB_MAX_PENALTY_NOTE));
    }
    MUST(wire_encode_result(&r1, &e1, &n1) == 0);
    MUST(wire_decode_result(e1, n1, &r2) == 0);
    MUST(x->npenalties == y->npenalties && x->penalties_dropped == y->penalties_dropped);
    for (uint32_t i = 0; i < x->npenalties; i++)
        MUST(strcmp(x->penalties[i].note, y->penalties[i].note) == 0);
    MUST(r1.match_id == r2.match_id && r1.lease_gen == r2.lease_gen && r1.ok == r2.ok && x->nbots == y->nbots
         && x->ndeals == y->ndeals && x->decisions == y->decisions && strcmp(r1.digest, r2.digest) == 0);
    for (int b = 0; b < x->nbots; b++)
        MUST(x->bots[b].total == y->bots[b].total && x->bots[b].rank == y->bots[b].rank);
    for (uint32_t g = 0; g < x->ndeals; g++)
        MUST(x->deals[g].game == y->deals[g].game && x->deals[g].seed == y->deals[g].seed
             && memcmp(x->deals[g].score, y->deals[g].score, sizeof x->deals[g].score) == 0);
    MUST(wire_encode_result(&r2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    match_result_release(&r1.res);
    match_result_release(&r2.res);
    return 0;
}

static int fuzz_ack(const uint8_t *data, size_t size)
{
    int64_t i1, i2;
    int g1, g2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_ack(data, size, &i1, &g1);
    if (rc)
        return rc;
    MUST(g1 >= 0);
    MUST(wire_ack(i1, g1, &e1, &n1) == 0 && wire_decode_ack(e1, n1, &i2, &g2) == 0 && i1 == i2 && g1 == g2);
    MUST(wire_ack(i2, g2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_progress(const uint8_t *data, size_t size)
{
    wire_progress_info p1, p2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_progress(data, size, &p1);
    if (rc)
        return rc;
    MUST(p1.gen >= 0);
    MUST(wire_progress(&p1, &e1, &n1) == 0 && wire_decode_progress(e1, n1, &p2) == 0);
    MUST(p1.match_id == p2.match_id && p1.gen == p2.gen && p1.done == p2.done && p1.games == p2.games
         && p1.decisions == p2.decisions && p1.timeouts == p2.timeouts && p1.penalties == p2.penalties);
    MUST(wire_progress(&p2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_refuse(const uint8_t *data, size_t size)
{
    char t1[256], t2[256];
    int v1, v2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_refuse(data, size, &v1, t1, sizeof t1);
    if (rc)
        return rc;
    MUST(v1 >= 0 && strlen(t1) < sizeof t1);
    /* our encoder always states our version */
    MUST(wire_refuse(t1, &e1, &n1) == 0 && wire_decode_refuse(e1, n1, &v2, t2, sizeof t2) == 0);
    MUST(v2 == WIRE_VERSION && strcmp(t1, t2) == 0);
    MUST(wire_refuse(t2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_fetch(const uint8_t *data, size_t size)
{
    char d1[65], d2[65];
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_fetch(data, size, d1);
    if (rc)
        return rc;
    MUST(wire_is_digest(d1));
    MUST(wire_fetch(d1, &e1, &n1) == 0 && wire_decode_fetch(e1, n1, d2) == 0 && strcmp(d1, d2) == 0);
    MUST(wire_fetch(d2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static void fuzz_bundle(const uint8_t *b, size_t len, const char *digest);

static int fuzz_program(const uint8_t *data, size_t size)
{
    char d1[65], d2[65], t1[256], t2[256];
    const uint8_t *b1, *b2;
    size_t l1, l2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_program(data, size, d1, &b1, &l1, t1, sizeof t1);
    if (rc)
        return rc;
    MUST(wire_is_digest(d1) && l1 <= ARB_WIRE_MAX_BUNDLE);
    MUST(b1 ? b1 >= data && b1 + l1 <= data + size : l1 == 0);
    MUST(wire_program_msg(d1, b1, l1, t1, &e1, &n1) == 0);
    MUST(wire_decode_program(e1, n1, d2, &b2, &l2, t2, sizeof t2) == 0);
    MUST(strcmp(d1, d2) == 0 && !b1 == !b2 && l1 == l2 && (!b1 || memcmp(b1, b2, l1) == 0) && strcmp(t1, t2) == 0);
    MUST(wire_program_msg(d2, b2, l2, t2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    if (b1) {
        /* the worker's path: the bundle under the digest the frame names
         * (refused unless it matches), then under its own */
        char own[65];
        fuzz_bundle(b1, l1, d1);
        bundle_digest(b1, l1, own);
        if (strcmp(own, d1) != 0)
            fuzz_bundle(b1, l1, own);
    }
    return 0;
}

static int fuzz_release(const uint8_t *data, size_t size)
{
    char t1[256], t2[256];
    int64_t i1, i2;
    int g1, g2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_release(data, size, &i1, &g1, t1, sizeof t1);
    if (rc)
        return rc;
    MUST(g1 >= 0);
    MUST(wire_release(i1, g1, t1, &e1, &n1) == 0 && wire_decode_release(e1, n1, &i2, &g2, t2, sizeof t2) == 0);
    MUST(i1 == i2 && g1 == g2 && strcmp(t1, t2) == 0);
    MUST(wire_release(i2, g2, t2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_welcome(const uint8_t *data, size_t size)
{
    int v1, v2, h1, h2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_welcome(data, size, &v1, &h1);
    if (rc)
        return rc;
    MUST(v1 >= 0 && h1 >= 1);
    MUST(wire_welcome(h1, &e1, &n1) == 0 && wire_decode_welcome(e1, n1, &v2, &h2) == 0);
    MUST(v2 == WIRE_VERSION && h1 == h2);
    MUST(wire_welcome(h2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

static int fuzz_transcript(const uint8_t *data, size_t size)
{
    wire_chunk c1, c2;
    uint8_t *e1, *e2;
    size_t n1, n2;
    int rc = wire_decode_transcript_chunk(data, size, &c1);
    if (rc)
        return rc;
    /* within its bounds, and inside the frame */
    MUST(c1.match_id > 0 && c1.gen >= 0 && c1.total <= ARB_MAX_TRANSCRIPT && c1.n <= ARB_WIRE_TRANSCRIPT_CHUNK
         && c1.offset + c1.n <= c1.total && c1.bytes >= data && c1.bytes + c1.n <= data + size);
    MUST(wire_transcript_chunk(&c1, &e1, &n1) == 0 && wire_decode_transcript_chunk(e1, n1, &c2) == 0);
    MUST(c1.match_id == c2.match_id && c1.gen == c2.gen && c1.total == c2.total && c1.offset == c2.offset
         && c1.n == c2.n && memcmp(c1.bytes, c2.bytes, c1.n) == 0);
    MUST(wire_transcript_chunk(&c2, &e2, &n2) == 0);
    same_bytes(e1, n1, e2, n2);
    return 0;
}

/* ---- bundles: a cache three levels below a scratch directory ---- */

static char top[64], cache[128];
static char levels[3][128];   /* top/l1, top/l1/l2, top/l1/l2/cache */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    if (ftw->level == 0)
        return 0;   /* the directory itself stays */
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void empty_dir(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int rm_all(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_scratch(void)
{
    if (top[0])
        nftw(top, rm_all, 16, FTW_DEPTH | FTW_PHYS);
}

static void scratch_once(void)
{
    if (top[0])
        return;
    snprintf(top, sizeof top, "/tmp/fuzz_wire.XXXXXX");
    if (!mkdtemp(top)) {
        perror("mkdtemp");
        abort();
    }
    snprintf(levels[0], sizeof levels[0], "%s/l1", top);
    snprintf(levels[1], sizeof levels[1], "%s/l1/l2", top);
    snprintf(levels[2], sizeof levels[2], "%s/l1/l2/cache", top);
    for (int i = 0; i < 3; i++)
        MUST(mkdir(levels[i], 0755) == 0);
    snprintf(cache, sizeof cache, "%s", levels[2]);
    atexit(remove_scratch);
}

/* The one entry of dir is `only` (NULL: dir is empty). */
static void holds_only(const char *dir, const char *only)
{
    DIR *d = opendir(dir);
    MUST(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        MUST(only && strcmp(e->d_name, only) == 0);
        n++;
    }
    closedir(d);
    MUST(n == (only ? 1 : 0));
}

static int files_seen;
static char mine_real[4096];

static int check_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    if (flag == FTW_D || flag == FTW_DP)
        return 0;
    if (flag == FTW_SL) {   /* a link: to the system's /usr/ or /bin/, or resolving inside */
        char t[4096], real[4096];
        ssize_t n = readlink(path, t, sizeof t - 1);
        MUST(n > 0);
        t[n] = 0;
        if (t[0] == '/')
            MUST(strncmp(t, "/usr/", 5) == 0 || strncmp(t, "/bin/", 5) == 0);
        else if (realpath(path, real))
            MUST(strncmp(real, mine_real, strlen(mine_real)) == 0
                 && (real[strlen(mine_real)] == '/' || real[strlen(mine_real)] == 0));
        else
            MUST(0);
        files_seen++;
        return 0;
    }
    MUST(flag == FTW_F && S_ISREG(st->st_mode));
    MUST((st->st_mode & 07777) == 0644 || (st->st_mode & 07777) == 0755);
    files_seen++;
    return 0;
}

static void fuzz_bundle(const uint8_t *b, size_t len, const char *digest)
{
    char err[512], got[65], mine[256];
    scratch_once();
    bundle_digest(b, len, got);
    int rc = bundle_unpack(b, len, digest, cache, err, sizeof err);
    MUST(rc == 0 || rc == ARB_ECORRUPT || rc == ARB_EIO || rc == ARB_ENOMEM);
    MUST(rc != 0 || strcmp(got, digest) == 0);
    /* nothing beside the cache, at any level above it */
    holds_only(top, "l1");
    holds_only(levels[0], "l2");
    holds_only(levels[1], "cache");
    if (rc == 0) {
        holds_only(cache, digest);
        MUST(bundle_cached(cache, digest));
        snprintf(mine, sizeof mine, "%s/%s", cache, digest);
        files_seen = 0;
        MUST(realpath(mine, mine_real) != NULL);
        MUST(nftw(mine, check_entry, 16, FTW_PHYS) == 0);
        MUST(files_seen >= 1 && files_seen <= ARB_BUNDLE_MAX_ENTRIES);
        /* a second time: there already */
        MUST(bundle_unpack(b, len, digest, cache, err, sizeof err) == 0);
        empty_dir(cache);
    } else {
        holds_only(cache, NULL);   /* no temporary directory left either */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t none[1];
    if (!data)
        data = none;
    int kind = wire_kind_of(data, size);
    MUST(kind == ARB_ECORRUPT || (kind >= 0 && kind < WIRE_NKINDS));
    int (*const decoders[])(const uint8_t *, size_t) = {
        [WIRE_HELLO] = fuzz_hello,       [WIRE_ASSIGN] = fuzz_assign,   [WIRE_RESULT] = fuzz_result,
        [WIRE_ACK] = fuzz_ack,           [WIRE_HEARTBEAT] = fuzz_heartbeat, [WIRE_PROGRESS] = fuzz_progress,
        [WIRE_REFUSE] = fuzz_refuse,     [WIRE_FETCH] = fuzz_fetch,     [WIRE_PROGRAM] = fuzz_program,
        [WIRE_RELEASE] = fuzz_release,   [WIRE_WELCOME] = fuzz_welcome, [WIRE_TRANSCRIPT] = fuzz_transcript,
    };
    for (int k = 0; k < (int)(sizeof decoders / sizeof decoders[0]); k++) {
        if (!decoders[k])
            continue;   /* stop, rehello: wire_kind_of is all there is */
        int rc = decoders[k](data, size);
        MUST(rc == 0 || rc == ARB_ECORRUPT || (k == WIRE_HELLO && rc == ARB_EUNSUPPORTED)
             || (k == WIRE_RESULT && rc == ARB_ENOMEM));
        if (rc == 0 || rc == ARB_EUNSUPPORTED)
            MUST(kind == k);   /* hence at most one decoder takes it */
    }
    char own[65];
    bundle_digest(data, size, own);
    fuzz_bundle(data, size, own);
    return 0;
}
