/* transcript_read.c — reading transcripts (transcript.h): the whole file
 * under ARB_MAX_TRANSCRIPT, the header into a match configuration, the
 * digest checked, records walked and described — all with the bounded
 * reader arb_mp (never msgpack-c's unpacker, which allocates whatever a
 * header claims). */
#include "transcript.h"
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_mp.h"
#include "arb_sign.h"
#include "arb_text.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const type_names[TR_NTYPES] = {
    "header", "info", "deal", "send", "ask", "recv", "verdict", "penalty", "result",
    "botend", "end", "digest", "restart", "signature",
};

const char *tr_type_name(int type)
{
    return type >= 0 && type < TR_NTYPES ? type_names[type] : "?";
}

bool tr_compared(int type)
{
    return type != TR_INFO && type != TR_BOTEND && type != TR_DIGEST && type != TR_SIGNATURE;
}

/* Extent and type of the record at data[pos..]: 0, or an error. */
int tr_record_at(const uint8_t *data, size_t len, size_t pos, size_t *rec_len, int *type, uint64_t *t)
{
    arb_mp r;
    arb_mp_init(&r, data + pos, len - pos);
    uint32_t n;
    uint64_t ty = 0, tt = 0;
    if (arb_mp_array(&r, &n) || n < 2 || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &tt) || ty >= TR_NTYPES)
        return ARB_ECORRUPT;
    for (uint32_t i = 2; i < n; i++)
        if (arb_mp_skip(&r))
            return ARB_ECORRUPT;
    *rec_len = (len - pos) - arb_mp_left(&r);
    *type = (int)ty;
    if (t)
        *t = tt;
    return 0;
}

int tr_load(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    char *text = NULL;
    int rc = arb_read_file(path, ARB_MAX_TRANSCRIPT, "a transcript, ARB_MAX_TRANSCRIPT", &text, len, err, errlen);
    *data = (uint8_t *)text;
    return rc;
}

int tr_next(const uint8_t *data, size_t len, size_t *off, int *type, const uint8_t **rec, size_t *n)
{
    if (*off >= len)
        return 1;
    if (tr_record_at(data, len, *off, n, type, NULL))
        return ARB_ECORRUPT;
    *rec = data + *off;
    *off += *n;
    return 0;
}

int tr_each(const uint8_t *data, size_t len, int (*fn)(void *ctx, int type, const uint8_t *rec, size_t n), void *ctx)
{
    size_t off = 0, n;
    int type, rc;
    const uint8_t *rec;
    while ((rc = tr_next(data, len, &off, &type, &rec, &n)) == 0)
        if ((rc = fn(ctx, type, rec, n)) != 0)
            return rc;
    return rc < 0 ? rc : 0;
}

static int read_str_field(arb_mp *r, char *buf, size_t cap)
{
    return arb_mp_str_copy(r, buf, cap);
}

int tr_read_header(const uint8_t *data, size_t len, match_config *cfg, char *err, size_t errlen)
{
    size_t n;
    int type;
    if (tr_record_at(data, len, 0, &n, &type, NULL) || type != TR_HEADER) {
        snprintf(err, errlen, "not an arbiter transcript (no header record)");
        return ARB_ECORRUPT;
    }
    arb_mp r;
    arb_mp_init(&r, data, n);
    uint32_t cnt, nkeys;
    uint64_t u;
    arb_mp_array(&r, &cnt);
    arb_mp_uint(&r, &u);
    arb_mp_uint(&r, &u);
    if (arb_mp_map(&r, &nkeys)) {
        snprintf(err, errlen, "header: not a map");
        return ARB_ECORRUPT;
    }
    char game[32] = "", format[32] = "", dup[32] = "", policy[32] = "";
    uint64_t version = 0;
    bool have_key = false;
    match_config_init(cfg, NULL);
    cfg->nbots = 0;
    int rc = 0;
    for (uint32_t k = 0; k < nkeys && !rc; k++) {
        int64_t i64;
        uint32_t m;
        bool bv;
        if (arb_mp_key(&r, "format")) rc = read_str_field(&r, format, sizeof format);
        else if (arb_mp_key(&r, "version")) rc = arb_mp_uint(&r, &version);
        else if (arb_mp_key(&r, "game")) rc = read_str_field(&r, game, sizeof game);
        else if (arb_mp_key(&r, "rules")) rc = read_str_field(&r, cfg->preset, sizeof cfg->preset);
        else if (arb_mp_key(&r, "options")) rc = read_str_field(&r, cfg->options, sizeof cfg->options);
        else if (arb_mp_key(&r, "seed")) rc = arb_mp_uint(&r, &cfg->seed);
        else if (arb_mp_key(&r, "key")) {
            const uint8_t *kb;
            uint32_t kl;
            rc = arb_mp_bin(&r, &kb, &kl);
            if (!rc && kl != sizeof cfg->key)
                rc = ARB_ECORRUPT;
            if (!rc) {
                memcpy(cfg->key, kb, sizeof cfg->key);
                have_key = true;
            }
        } else if (arb_mp_key(&r, "key_label")) rc = read_str_field(&r, cfg->key_label, sizeof cfg->key_label);
        else if (arb_mp_key(&r, "commitment")) rc = read_str_field(&r, cfg->commitment, sizeof cfg->commitment);
        else if (arb_mp_key(&r, "deals")) {
            rc = arb_mp_uint(&r, &u);
            cfg->deals = (uint32_t)(u > ARB_MAX_DEALS ? 0 : u);
        } else if (arb_mp_key(&r, "duplicate")) rc = read_str_field(&r, dup, sizeof dup);
        else if (arb_mp_key(&r, "fixed_seats")) {
            rc = arb_mp_bool(&r, &bv);
            cfg->fixed_seats = bv;
        } else if (arb_mp_key(&r, "clock")) {
            int64_t *dst[4] = {&cfg->move_ms, &cfg->deal_ms, &cfg->bank_ms, &cfg->startup_ms};
            rc = arb_mp_array(&r, &m);
            for (uint32_t i = 0; i < m && !rc; i++) {
                rc = arb_mp_int(&r, &i64);
                if (i < 4)
                    *dst[i] = i64;
            }
        } else if (arb_mp_key(&r, "policy")) rc = read_str_field(&r, policy, sizeof policy);
        else if (arb_mp_key(&r, "strikes")) {
            rc = arb_mp_uint(&r, &u);
            cfg->strikes = (uint32_t)(u > 1000000 ? 1000000 : u);
        } else if (arb_mp_key(&r, "forfeit_points")) rc = arb_mp_int(&r, &cfg->forfeit_points);
        else if (arb_mp_key(&r, "players")) rc = arb_mp_int(&r, &i64);
        else if (arb_mp_key(&r, "bots")) {
            rc = arb_mp_array(&r, &m);
            if (!rc && m > ARB_MAX_SEATS)
                rc = ARB_ERANGE;
            for (uint32_t b = 0; b < m && !rc; b++) {
                match_bot_cfg *bc = &cfg->bots[b];
                uint32_t bk;
                rc = arb_mp_map(&r, &bk);
                for (uint32_t j = 0; j < bk && !rc; j++) {
                    if (arb_mp_key(&r, "name"))
                        rc = read_str_field(&r, bc->name, sizeof bc->name);
                    else if (arb_mp_key(&r, "argv")) {
                        uint32_t na;
                        rc = arb_mp_array(&r, &na);
                        if (!rc && na > ARB_MAX_BOT_ARGS)
                            rc = ARB_ERANGE;
                        for (uint32_t a = 0; a < na && !rc; a++)
                            rc = read_str_field(&r, bc->argv[a], sizeof bc->argv[a]);
                        bc->argc = (int)na;
                    } else if (arb_mp_key(&r, "startup_ms")) {
                        rc = arb_mp_int(&r, &bc->startup_ms);
                        if (!rc && (bc->startup_ms < 1 || bc->startup_ms > ARB_MAX_STARTUP_MS))
                            rc = ARB_ERANGE;
                    } else if (arb_mp_key(&r, "env")) {
                        /* each variable checked as when it was declared */
                        uint32_t ne;
                        char entry[ARB_MAX_BOT_ENV_TEXT], why[256];
                        rc = arb_mp_array(&r, &ne);
                        if (!rc && ne > ARB_MAX_BOT_ENV)
                            rc = ARB_ERANGE;
                        for (uint32_t a = 0; a < ne && !rc; a++)
                            if (!(rc = read_str_field(&r, entry, sizeof entry)) && match_env_add(bc, entry, why, sizeof why))
                                rc = ARB_EINVAL;
                    } else if (!(rc = arb_mp_skip(&r)))
                        rc = arb_mp_skip(&r);
                }
            }
            cfg->nbots = (int)m;
        } else if (!(rc = arb_mp_skip(&r)))
            rc = arb_mp_skip(&r);   /* an unknown key and its value */
    }
    if (rc) {
        snprintf(err, errlen, "header: malformed (%s)", arb_strerror(rc));
        return ARB_ECORRUPT;
    }
    if (strcmp(format, "arbiter-transcript") != 0) {
        snprintf(err, errlen, "not an arbiter transcript (format \"%s\")", format);
        return ARB_ECORRUPT;
    }
    if (version == 1) {
        snprintf(err, errlen, "transcript format version 1 (deals seeded from the bare match seed, before keyed "
                 "seeds) is no longer read: this arbiter reads versions %d to %d", TR_VERSION_OLDEST, TR_VERSION);
        return ARB_EUNSUPPORTED;
    }
    if (version < TR_VERSION_OLDEST || version > TR_VERSION) {
        snprintf(err, errlen, "transcript version %" PRIu64 ", this arbiter reads versions %d to %d", version,
                 TR_VERSION_OLDEST, TR_VERSION);
        return ARB_EUNSUPPORTED;
    }
    cfg->late_reply_notes = version >= 3;
    if (!have_key) {
        snprintf(err, errlen, "header: no match key");
        return ARB_ECORRUPT;
    }
    cfg->game = arb_game_find(game);
    if (!cfg->game) {
        snprintf(err, errlen, "unknown game \"%s\"", game);
        return ARB_ENOTFOUND;
    }
    match_duplicate d;
    match_policy p;
    if (match_duplicate_parse(dup, &d) || match_policy_parse(policy, &p)) {
        snprintf(err, errlen, "header: unknown duplicate mode \"%s\" or policy \"%s\"", dup, policy);
        return ARB_ECORRUPT;
    }
    cfg->duplicate = (uint8_t)d;
    cfg->policy = (uint8_t)p;
    return 0;
}

int tr_check_digest(const uint8_t *data, size_t len, char hex[65], char *err, size_t errlen)
{
    size_t pos = 0, n = 0;
    int type = -1;
    hex[0] = 0;
    while (pos < len) {
        if (tr_record_at(data, len, pos, &n, &type, NULL)) {
            snprintf(err, errlen, "corrupt record at byte %zu", pos);
            return ARB_ECORRUPT;
        }
        if (type == TR_DIGEST)
            break;
        pos += n;
    }
    if (type != TR_DIGEST) {
        snprintf(err, errlen, "no digest: the transcript was cut short");
        return ARB_ENOTFOUND;
    }
    /* after the digest, at most the referee's signature of it */
    size_t sn = 0;
    int stype = -1;
    if (pos + n < len && (tr_record_at(data, len, pos + n, &sn, &stype, NULL) || stype != TR_SIGNATURE))
        sn = 0;
    if (pos + n + sn != len) {
        snprintf(err, errlen, "%zu bytes after the digest record", len - pos - n);
        return ARB_ECORRUPT;
    }
    arb_mp r;
    arb_mp_init(&r, data + pos, n);
    uint32_t cnt, blen;
    uint64_t u;
    const char *alg;
    uint32_t alen;
    const uint8_t *bin;
    if (arb_mp_array(&r, &cnt) || cnt != 4 || arb_mp_uint(&r, &u) || arb_mp_uint(&r, &u)
        || arb_mp_str(&r, &alg, &alen) || alen != 6 || memcmp(alg, "sha256", 6) != 0
        || arb_mp_bin(&r, &bin, &blen) || blen != crypto_hash_sha256_BYTES) {
        snprintf(err, errlen, "malformed digest record");
        return ARB_ECORRUPT;
    }
    uint8_t digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, data, pos);
    arb_key_hex(bin, hex);
    if (sodium_memcmp(digest, bin, sizeof digest) != 0) {
        char actual[65];
        arb_key_hex(digest, actual);
        snprintf(err, errlen, "digest mismatch: recorded %s, content hashes to %s (the transcript was altered)",
                 hex, actual);
        return ARB_ECORRUPT;
    }
    return 0;
}

int tr_check_signature(const uint8_t *data, size_t len, char public_key[65], char *msg, size_t msglen)
{
    char hex[65];
    public_key[0] = 0;
    int rc = tr_check_digest(data, len, hex, msg, msglen);
    if (rc == ARB_ENOTFOUND)
        return ARB_ECORRUPT;   /* cut short: nothing a signature could cover */
    if (rc)
        return rc;
    /* the digest is the last record or the one before the signature */
    size_t pos = 0, n = 0;
    int type = -1;
    while (pos < len && !tr_record_at(data, len, pos, &n, &type, NULL) && type != TR_SIGNATURE)
        pos += n;
    if (type != TR_SIGNATURE) {
        snprintf(msg, msglen, "unsigned");
        return ARB_ENOTFOUND;
    }
    arb_mp r;
    arb_mp_init(&r, data + pos, n);
    uint32_t cnt, alen, klen, slen;
    uint64_t u;
    const char *alg;
    const uint8_t *pk, *sig;
    if (arb_mp_array(&r, &cnt) || cnt != 5 || arb_mp_uint(&r, &u) || arb_mp_uint(&r, &u)
        || arb_mp_str(&r, &alg, &alen) || alen != 7 || memcmp(alg, "ed25519", 7) != 0
        || arb_mp_bin(&r, &pk, &klen) || klen != ARB_SIGN_PK_BYTES || arb_mp_bin(&r, &sig, &slen)
        || slen != ARB_SIGN_BYTES || arb_mp_left(&r) != 0) {
        snprintf(msg, msglen, "malformed signature record");
        return ARB_ECORRUPT;
    }
    uint8_t digest[32];
    arb_unhex(hex, digest, sizeof digest);
    arb_key_hex(pk, public_key);
    if (!arb_sign_verify(pk, digest, sig)) {
        snprintf(msg, msglen, "the signature is not key %.16s...'s signature of digest %.16s...: forged or altered",
                 public_key, hex);
        return ARB_ECORRUPT;
    }
    snprintf(msg, msglen, "ed25519 signature of the digest by key %s", public_key);
    return 0;
}

/* One object as text, bounded. */
static void describe_obj(arb_mp *r, char *buf, size_t cap, size_t *n, int depth)
{
#define OUT(...) do { if (*n < cap) *n += (size_t)snprintf(buf + *n, cap - *n, __VA_ARGS__); if (*n > cap) *n = cap; } while (0)
    int t = arb_mp_peek(r);
    uint64_t u;
    int64_t i;
    bool b;
    const char *s;
    uint32_t len;
    if (depth > ARB_MP_MAX_DEPTH) {
        arb_mp_skip(r);
        OUT("...");
        return;
    }
    switch (t) {
    case ARB_MP_UINT: arb_mp_uint(r, &u); OUT("%" PRIu64, u); break;
    case ARB_MP_INT: arb_mp_int(r, &i); OUT("%" PRId64, i); break;
    case ARB_MP_BOOL: arb_mp_bool(r, &b); OUT("%s", b ? "true" : "false"); break;
    case ARB_MP_NIL: arb_mp_nil(r); OUT("nil"); break;
    case ARB_MP_STR: arb_mp_str(r, &s, &len); OUT("\"%.*s\"", (int)(len > INT32_MAX ? INT32_MAX : len), s); break;
    case ARB_MP_BIN: { const uint8_t *p; arb_mp_bin(r, &p, &len); OUT("<%u bytes>", len); break; }
    case ARB_MP_ARRAY:
        arb_mp_array(r, &len);
        OUT("[");
        for (uint32_t k = 0; k < len && !r->err; k++) {
            if (k) OUT(", ");
            describe_obj(r, buf, cap, n, depth + 1);
        }
        OUT("]");
        break;
    case ARB_MP_MAP:
        arb_mp_map(r, &len);
        OUT("{");
        for (uint32_t k = 0; k < len && !r->err; k++) {
            if (k) OUT(", ");
            describe_obj(r, buf, cap, n, depth + 1);
            OUT(": ");
            describe_obj(r, buf, cap, n, depth + 1);
        }
        OUT("}");
        break;
    default:
        if (arb_mp_skip(r) == 0)
            OUT("?");
        break;
    }
#undef OUT
}

int tr_describe(const uint8_t *rec, size_t len, char *buf, size_t cap)
{
    arb_mp r;
    arb_mp_init(&r, rec, len);
    uint32_t cnt;
    uint64_t ty, t;
    size_t n = 0;
    buf[0] = 0;
    if (arb_mp_array(&r, &cnt) || cnt < 2 || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &t) || ty >= TR_NTYPES)
        return snprintf(buf, cap, "(corrupt record)");
    n = (size_t)snprintf(buf, cap, "%s", tr_type_name((int)ty));
    for (uint32_t k = 2; k < cnt && !r.err && n < cap; k++) {
        n += (size_t)snprintf(buf + n, cap - n, " ");
        if (n < cap)
            describe_obj(&r, buf, cap, &n, 1);
    }
    return (int)n;
}

/* ---- JSON (replay --json) ---------------------------------------------- */

/* The names of each record type's fields after [type, t], in order. */
static const char *const field_names[TR_NTYPES][8] = {
    [TR_HEADER] = {"config"},
    [TR_INFO] = {"info"},
    [TR_DEAL] = {"game", "deal", "seating", "seed", "bot_at"},
    [TR_SEND] = {"bot", "line"},
    [TR_ASK] = {"bot", "game", "decision", "request", "nlegal"},
    [TR_RECV] = {"bot", "kind", "line", "wall_ns", "cpu_ns"},
    [TR_VERDICT] = {"game", "decision", "seat", "bot", "action", "by_referee"},
    [TR_PENALTY] = {"game", "decision", "seat", "bot", "reason", "consequence", "detail"},
    [TR_RESULT] = {"game", "score", "forfeit_bot"},
    [TR_BOTEND] = {"bot", "sandbox", "status", "stderr"},
    [TR_END] = {"summary"},
    [TR_DIGEST] = {"algorithm", "digest"},
    [TR_RESTART] = {"bot", "game", "seating"},
    [TR_SIGNATURE] = {"algorithm", "public_key", "signature"},
};

static const char *const reply_kinds[] = {"line", "timeout", "too-long", "closed", "exited", "crashed"};

/* How json_obj writes what it meets. */
enum {
    JSON_TEXT_BIN = 1,     /* a bin is a string (a bot's stderr), not hex */
    JSON_INT_STRING = 2,   /* an integer is a string of its digits: a seed, 64 bits that a JSON
                            * reader with doubles (JavaScript) would round past 2^53 */
};

/* Whether the msgpack string at r is the key "seed" (r not moved). */
static bool is_seed_key(const arb_mp *r)
{
    arb_mp at = *r;
    const char *s;
    uint32_t len;
    return arb_mp_str(&at, &s, &len) == 0 && len == 4 && memcmp(s, "seed", 4) == 0;
}

/* One msgpack object as JSON. A bin is hex, except a bot's stderr
 * (JSON_TEXT_BIN), which is a string like any other bytes from outside; a
 * map key that is not a string becomes the string of its JSON; the value
 * of a key "seed" is JSON_INT_STRING. */
static int json_obj(arb_mp *r, arb_buf *b, int depth, int how)
{
    bool text_bin = how & JSON_TEXT_BIN, int_string = how & JSON_INT_STRING;
    uint64_t u;
    int64_t i;
    bool v;
    const char *s;
    const uint8_t *p;
    uint32_t len;
    if (depth > ARB_MP_MAX_DEPTH)
        return ARB_ETOOBIG;
    int rc = 0;
    switch (arb_mp_peek(r)) {
    case ARB_MP_UINT:
        rc = arb_mp_uint(r, &u) ? ARB_ECORRUPT : arb_buf_printf(b, int_string ? "\"%" PRIu64 "\"" : "%" PRIu64, u);
        break;
    case ARB_MP_INT:
        rc = arb_mp_int(r, &i) ? ARB_ECORRUPT : arb_buf_printf(b, int_string ? "\"%" PRId64 "\"" : "%" PRId64, i);
        break;
    case ARB_MP_BOOL: rc = arb_mp_bool(r, &v) ? ARB_ECORRUPT : arb_buf_puts(b, v ? "true" : "false"); break;
    case ARB_MP_NIL: rc = arb_mp_nil(r) ? ARB_ECORRUPT : arb_buf_puts(b, "null"); break;
    case ARB_MP_STR: rc = arb_mp_str(r, &s, &len) ? ARB_ECORRUPT : arb_json_str(b, s, len); break;
    case ARB_MP_BIN:
        if (arb_mp_bin(r, &p, &len))
            return ARB_ECORRUPT;
        if (text_bin)
            return arb_json_str(b, (const char *)p, len);
        rc = arb_buf_putc(b, '"');
        for (uint32_t k = 0; k < len && !rc; k++)
            rc = arb_buf_printf(b, "%02x", p[k]);
        return rc ? rc : arb_buf_putc(b, '"');
    case ARB_MP_ARRAY:
        if (arb_mp_array(r, &len))
            return ARB_ECORRUPT;
        rc = arb_buf_putc(b, '[');
        for (uint32_t k = 0; k < len && !rc; k++)
            if (!(rc = k ? arb_buf_putc(b, ',') : 0))
                rc = json_obj(r, b, depth + 1, 0);
        return rc ? rc : arb_buf_putc(b, ']');
    case ARB_MP_MAP:
        if (arb_mp_map(r, &len))
            return ARB_ECORRUPT;
        rc = arb_buf_putc(b, '{');
        for (uint32_t k = 0; k < len && !rc; k++) {
            if (k && (rc = arb_buf_putc(b, ',')))
                break;
            bool seed = arb_mp_peek(r) == ARB_MP_STR && is_seed_key(r);
            if (arb_mp_peek(r) == ARB_MP_STR) {
                rc = json_obj(r, b, depth + 1, 0);
            } else {   /* a key of another type: the string of its JSON */
                arb_buf key;
                arb_buf_init(&key, b->cap);
                rc = json_obj(r, &key, depth + 1, 0);
                if (!rc)
                    rc = arb_json_str(b, key.data ? key.data : "", key.len);
                arb_buf_release(&key);
            }
            if (!rc && !(rc = arb_buf_putc(b, ':')))
                rc = json_obj(r, b, depth + 1, seed ? JSON_INT_STRING : 0);
        }
        return rc ? rc : arb_buf_putc(b, '}');
    default:
        /* float, ext: no writer of ours makes them; skipped, shown as null */
        rc = arb_mp_skip(r) ? ARB_ECORRUPT : arb_buf_puts(b, "null");
        break;
    }
    return rc;
}

int tr_json(const uint8_t *rec, size_t len, arb_buf *out)
{
    arb_mp r;
    arb_mp_init(&r, rec, len);
    uint32_t cnt;
    uint64_t ty, t;
    if (arb_mp_array(&r, &cnt) || cnt < 2 || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &t) || ty >= TR_NTYPES)
        return ARB_ECORRUPT;
    int rc = arb_buf_printf(out, "{\"type\":\"%s\",\"t\":%" PRIu64, tr_type_name((int)ty), t);
    int64_t status = 0;
    bool have_status = false;
    for (uint32_t k = 2; k < cnt && !rc; k++) {
        const char *name = k - 2 < 8 ? field_names[ty][k - 2] : NULL;
        if (!name) {   /* fields this reader does not name, as they are */
            rc = arb_buf_printf(out, ",\"field%u\":", k);
        } else {
            rc = arb_buf_printf(out, ",\"%s\":", name);
        }
        arb_mp at = r;
        if (!rc && ty == TR_BOTEND && k == 4 && arb_mp_int(&at, &status) == 0)
            have_status = true;
        if (!rc)
            rc = json_obj(&r, out, 1, ty == TR_BOTEND && k == 5 ? JSON_TEXT_BIN
                                      : name && strcmp(name, "seed") == 0 ? JSON_INT_STRING : 0);
    }
    if (!rc && ty == TR_RECV && cnt > 3) {   /* the reply's kind by name */
        arb_mp at;
        arb_mp_init(&at, rec, len);
        uint64_t kind = UINT64_MAX;
        uint32_t n;
        /* [5, t, bot, kind, ...]: past the array's header, type, t and bot */
        if (arb_mp_array(&at, &n) || arb_mp_skip(&at) || arb_mp_skip(&at) || arb_mp_skip(&at)
            || arb_mp_uint(&at, &kind))
            kind = UINT64_MAX;
        if (kind < sizeof reply_kinds / sizeof reply_kinds[0])
            rc = arb_buf_printf(out, ",\"kind_name\":\"%s\"", reply_kinds[kind]);
    }
    if (!rc && have_status) {   /* the wait status in words */
        char words[64];
        tr_status_text(status > INT32_MAX || status < INT32_MIN ? -1 : (int)status, words, sizeof words);
        rc = arb_buf_printf(out, ",\"status_text\":\"%s\"", words);
    }
    return rc ? rc : arb_buf_putc(out, '}');
}

/* ---- Bots' ends ---------------------------------------------------------- */

static const struct { int sig; const char *name; } signal_names[] = {
    {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"}, {SIGTRAP, "SIGTRAP"},
    {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
    {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
    {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
};

void tr_status_text(int status, char *buf, size_t cap)
{
    if (status < 0) {
        snprintf(buf, cap, "never started");
    } else if (WIFEXITED(status)) {
        snprintf(buf, cap, "exited with status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        for (size_t k = 0; k < sizeof signal_names / sizeof signal_names[0]; k++)
            if (signal_names[k].sig == sig) {
                snprintf(buf, cap, "killed by %s%s", signal_names[k].name, WCOREDUMP(status) ? " (core dumped)" : "");
                return;
            }
        snprintf(buf, cap, "killed by signal %d", sig);
    } else {
        snprintf(buf, cap, "wait status %d", status);
    }
}

int tr_read_botend(const uint8_t *rec, size_t len, tr_botend *out)
{
    arb_mp r;
    arb_mp_init(&r, rec, len);
    uint32_t cnt, slen, elen;
    uint64_t ty, t;
    int64_t bot, status;
    const char *sandbox;
    const uint8_t *err;
    memset(out, 0, sizeof *out);
    if (arb_mp_array(&r, &cnt) || cnt != 6 || arb_mp_uint(&r, &ty) || ty != TR_BOTEND || arb_mp_uint(&r, &t)
        || arb_mp_int(&r, &bot) || bot < 0 || bot >= ARB_MAX_SEATS || arb_mp_str(&r, &sandbox, &slen)
        || arb_mp_int(&r, &status) || status < INT32_MIN || status > INT32_MAX || arb_mp_bin(&r, &err, &elen))
        return ARB_ECORRUPT;
    out->t = t;
    out->bot = (int)bot;
    out->sandbox = sandbox;
    out->sandbox_len = slen;
    out->status = (int)status;
    out->err = (const char *)err;
    out->err_len = elen;
    return 0;
}
