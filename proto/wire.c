/* wire.c — encode and decode the scheduler <-> worker messages (wire.h). */
#include "wire.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_mp.h"
#include "arb_names.h"
#include "bundle.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

typedef struct enc {
    msgpack_sbuffer sb;
    msgpack_packer pk;
} enc;

static void enc_init(enc *e)
{
    msgpack_sbuffer_init(&e->sb);
    msgpack_packer_init(&e->pk, &e->sb, msgpack_sbuffer_write);
}

static int enc_done_cap(enc *e, uint8_t **out, size_t *len, size_t cap)
{
    /* hand the buffer over: the caller frees it */
    *out = (uint8_t *)e->sb.data;
    *len = e->sb.size;
    if (!*out)
        return ARB_ENOMEM;
    return *len > cap ? (free(*out), *out = NULL, ARB_ETOOBIG) : 0;
}

static int enc_done(enc *e, uint8_t **out, size_t *len)
{
    return enc_done_cap(e, out, len, ARB_WIRE_MAX_FRAME);
}

static void str(enc *e, const char *s)
{
    msgpack_pack_str_with_body(&e->pk, s, strlen(s));
}

static void boolean(enc *e, bool b)
{
    b ? msgpack_pack_true(&e->pk) : msgpack_pack_false(&e->pk);
}

static void leases(enc *e, const wire_lease *running, int n)
{
    msgpack_pack_array(&e->pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_array(&e->pk, 2);
        msgpack_pack_int64(&e->pk, running[i].match_id);
        msgpack_pack_int(&e->pk, running[i].gen);
    }
}

int wire_hello(const char *name, int slots, const wire_lease *running, int nrunning, const uint8_t sign_pk[32],
               uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 6);
    msgpack_pack_int(&e.pk, WIRE_HELLO);
    msgpack_pack_int(&e.pk, WIRE_VERSION);
    str(&e, name);
    msgpack_pack_int(&e.pk, slots);
    leases(&e, running, nrunning);
    msgpack_pack_bin_with_body(&e.pk, sign_pk, 32);
    return enc_done(&e, out, len);
}

int wire_heartbeat(int free_slots, const wire_lease *running, int nrunning, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, free_slots < 0 ? 1 : 3);
    msgpack_pack_int(&e.pk, WIRE_HEARTBEAT);
    if (free_slots >= 0) {
        msgpack_pack_int(&e.pk, free_slots);
        leases(&e, running, nrunning);
    }
    return enc_done(&e, out, len);
}

int wire_progress(const wire_progress_info *p, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 8);
    msgpack_pack_int(&e.pk, WIRE_PROGRESS);
    msgpack_pack_int64(&e.pk, p->match_id);
    msgpack_pack_int(&e.pk, p->gen);
    msgpack_pack_uint32(&e.pk, p->done);
    msgpack_pack_uint32(&e.pk, p->games);
    msgpack_pack_uint64(&e.pk, p->decisions);
    msgpack_pack_uint32(&e.pk, p->timeouts);
    msgpack_pack_uint32(&e.pk, p->penalties);
    return enc_done(&e, out, len);
}

int wire_refuse(const char *reason, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 3);
    msgpack_pack_int(&e.pk, WIRE_REFUSE);
    msgpack_pack_int(&e.pk, WIRE_VERSION);
    str(&e, reason);
    return enc_done(&e, out, len);
}

int wire_fetch(const char *digest, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 2);
    msgpack_pack_int(&e.pk, WIRE_FETCH);
    str(&e, digest);
    return enc_done(&e, out, len);
}

int wire_program_msg(const char *digest, const uint8_t *bundle, size_t blen, const char *error, uint8_t **out,
                     size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 4);
    msgpack_pack_int(&e.pk, WIRE_PROGRAM);
    str(&e, digest);
    if (bundle) {
        msgpack_pack_bin(&e.pk, blen);
        msgpack_pack_bin_body(&e.pk, bundle, blen);
    } else {
        msgpack_pack_nil(&e.pk);
    }
    str(&e, error ? error : "");
    /* the one frame larger than ARB_WIRE_MAX_FRAME: to a worker only */
    return enc_done_cap(&e, out, len, ARB_WIRE_MAX_PROGRAM_FRAME);
}

int wire_release(int64_t match_id, int gen, const char *reason, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 4);
    msgpack_pack_int(&e.pk, WIRE_RELEASE);
    msgpack_pack_int64(&e.pk, match_id);
    msgpack_pack_int(&e.pk, gen);
    str(&e, reason);
    return enc_done(&e, out, len);
}

int wire_welcome(int heartbeat_ms, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 3);
    msgpack_pack_int(&e.pk, WIRE_WELCOME);
    msgpack_pack_int(&e.pk, WIRE_VERSION);
    msgpack_pack_int(&e.pk, heartbeat_ms);
    return enc_done(&e, out, len);
}

static bool chunk_in_bounds(uint64_t total, uint64_t offset, uint64_t n)
{
    return total <= ARB_MAX_TRANSCRIPT && n <= ARB_WIRE_TRANSCRIPT_CHUNK && offset <= total && n <= total - offset;
}

int wire_transcript_chunk(const wire_chunk *c, uint8_t **out, size_t *len)
{
    if (c->match_id <= 0 || !chunk_in_bounds(c->total, c->offset, c->n))
        return ARB_EINVAL;
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 6);
    msgpack_pack_int(&e.pk, WIRE_TRANSCRIPT);
    msgpack_pack_int64(&e.pk, c->match_id);
    msgpack_pack_int(&e.pk, c->gen);
    msgpack_pack_uint64(&e.pk, c->total);
    msgpack_pack_uint64(&e.pk, c->offset);
    msgpack_pack_bin_with_body(&e.pk, c->bytes, c->n);
    return enc_done(&e, out, len);
}

int wire_rehello(uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 1);
    msgpack_pack_int(&e.pk, WIRE_REHELLO);
    return enc_done(&e, out, len);
}

int wire_ack(int64_t match_id, int gen, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 3);
    msgpack_pack_int(&e.pk, WIRE_ACK);
    msgpack_pack_int64(&e.pk, match_id);
    msgpack_pack_int(&e.pk, gen);
    return enc_done(&e, out, len);
}

int wire_stop(uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    msgpack_pack_array(&e.pk, 1);
    msgpack_pack_int(&e.pk, WIRE_STOP);
    return enc_done(&e, out, len);
}

int wire_encode_assign(const wire_assign *a, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    const match_config *c = &a->cfg;
    msgpack_pack_array(&e.pk, 5);
    msgpack_pack_int(&e.pk, WIRE_ASSIGN);
    msgpack_pack_int64(&e.pk, a->match_id);
    msgpack_pack_int(&e.pk, a->lease_gen);
    msgpack_pack_array(&e.pk, 18);
    str(&e, c->game->name);
    str(&e, c->preset);
    str(&e, c->options);
    msgpack_pack_uint64(&e.pk, c->seed);
    msgpack_pack_bin_with_body(&e.pk, c->key, sizeof c->key);   /* the match key, never the secret */
    str(&e, c->key_label);
    str(&e, c->commitment);
    msgpack_pack_uint32(&e.pk, c->deals);
    msgpack_pack_uint8(&e.pk, c->duplicate);
    boolean(&e, c->fixed_seats);
    msgpack_pack_int64(&e.pk, c->move_ms);
    msgpack_pack_int64(&e.pk, c->deal_ms);
    msgpack_pack_int64(&e.pk, c->bank_ms);
    msgpack_pack_int64(&e.pk, c->startup_ms);
    msgpack_pack_uint8(&e.pk, c->policy);
    msgpack_pack_uint32(&e.pk, c->strikes);
    msgpack_pack_int64(&e.pk, c->forfeit_points);
    msgpack_pack_array(&e.pk, (size_t)c->nbots);
    for (int b = 0; b < c->nbots; b++) {
        const match_bot_cfg *bc = &c->bots[b];
        bool extras = bc->startup_ms > 0 || bc->nenv > 0;
        msgpack_pack_array(&e.pk, extras ? 4 : 2);
        str(&e, bc->name);
        msgpack_pack_array(&e.pk, (size_t)bc->argc);
        for (int i = 0; i < bc->argc; i++)
            str(&e, bc->argv[i]);
        if (!extras)
            continue;
        /* its start-up budget and its variables, one "NAME=value" each */
        msgpack_pack_int64(&e.pk, bc->startup_ms);
        msgpack_pack_array(&e.pk, (size_t)bc->nenv);
        for (const char *line = bc->env; *line;) {
            const char *nl = strchr(line, '\n');
            size_t n = nl ? (size_t)(nl - line) : strlen(line);
            msgpack_pack_str_with_body(&e.pk, line, n);
            line += n + (nl != NULL);
        }
    }
    msgpack_pack_array(&e.pk, (size_t)a->nprograms);
    for (int i = 0; i < a->nprograms; i++) {
        const wire_program *p = &a->programs[i];
        msgpack_pack_array(&e.pk, 4);
        msgpack_pack_int(&e.pk, p->bot);
        msgpack_pack_int(&e.pk, p->argi);
        str(&e, p->digest);
        str(&e, p->path);
    }
    return enc_done(&e, out, len);
}

/* A result's penalties: [dropped, [[game, decision, seat, bot, reason,
 * consequence, note] ...]], at most ARB_MAX_RESULT_PENALTIES of them (the
 * rest counted in dropped). */
static void penalties(enc *e, const match_result *res)
{
    uint32_t n = res->npenalties < ARB_MAX_RESULT_PENALTIES ? res->npenalties : ARB_MAX_RESULT_PENALTIES;
    msgpack_pack_array(&e->pk, 2);
    msgpack_pack_uint32(&e->pk, res->penalties_dropped + (res->npenalties - n));
    msgpack_pack_array(&e->pk, n);
    for (uint32_t i = 0; i < n; i++) {
        const match_penalty *p = &res->penalties[i];
        msgpack_pack_array(&e->pk, 7);
        msgpack_pack_uint32(&e->pk, p->game);
        msgpack_pack_uint32(&e->pk, p->decision);
        msgpack_pack_int(&e->pk, p->seat);
        msgpack_pack_uint8(&e->pk, p->bot);
        str(e, match_reason_name((match_reason)p->reason));
        str(e, match_policy_name((match_policy)p->consequence));
        str(e, p->note);
    }
}

int wire_encode_result(const wire_result *r, uint8_t **out, size_t *len)
{
    enc e;
    enc_init(&e);
    const match_result *res = &r->res;
    msgpack_pack_array(&e.pk, 9);
    msgpack_pack_int(&e.pk, WIRE_RESULT);
    msgpack_pack_int64(&e.pk, r->match_id);
    msgpack_pack_int(&e.pk, r->lease_gen);
    boolean(&e, r->ok);
    str(&e, r->error);
    str(&e, r->digest);
    if (r->is_signed)
        msgpack_pack_bin_with_body(&e.pk, r->signature, sizeof r->signature);
    else
        msgpack_pack_nil(&e.pk);
    str(&e, r->transcript);
    msgpack_pack_array(&e.pk, 8);
    msgpack_pack_uint32(&e.pk, res->ndeals);
    msgpack_pack_uint64(&e.pk, res->decisions);
    msgpack_pack_uint64(&e.pk, res->wall_ns);
    msgpack_pack_uint32(&e.pk, res->winners);
    msgpack_pack_array(&e.pk, (size_t)res->nbots);
    for (int b = 0; b < res->nbots; b++) {
        const match_bot_stats *s = &res->bots[b];
        msgpack_pack_array(&e.pk, 10);
        str(&e, s->name);
        msgpack_pack_int64(&e.pk, s->total);
        msgpack_pack_int(&e.pk, s->rank);
        boolean(&e, s->forfeited);
        msgpack_pack_uint32(&e.pk, s->decisions);
        msgpack_pack_uint64(&e.pk, s->wall_ns);
        msgpack_pack_uint64(&e.pk, s->cpu_ns);
        msgpack_pack_uint32(&e.pk, s->strikes);
        msgpack_pack_uint32(&e.pk, s->penalties);
        str(&e, s->sandbox);
    }
    msgpack_pack_array(&e.pk, res->ndeals);
    for (uint32_t g = 0; g < res->ndeals; g++) {
        const match_deal *d = &res->deals[g];
        msgpack_pack_array(&e.pk, 7);
        msgpack_pack_uint32(&e.pk, d->game);
        msgpack_pack_uint32(&e.pk, d->deal);
        msgpack_pack_uint32(&e.pk, d->seating);
        msgpack_pack_uint64(&e.pk, d->seed);
        msgpack_pack_array(&e.pk, (size_t)res->nbots);
        for (int k = 0; k < res->nbots; k++)
            msgpack_pack_uint8(&e.pk, d->bot_at[k]);
        msgpack_pack_array(&e.pk, (size_t)res->nbots);
        for (int k = 0; k < res->nbots; k++)
            msgpack_pack_int64(&e.pk, d->score[k]);
        msgpack_pack_int(&e.pk, d->forfeit_bot);
    }
    /* fixed teams: [nteams, [team of each bot], [[total, rank] per team]] */
    msgpack_pack_array(&e.pk, 3);
    msgpack_pack_int(&e.pk, res->nteams);
    msgpack_pack_array(&e.pk, (size_t)(res->nteams ? res->nbots : 0));
    for (int b = 0; res->nteams && b < res->nbots; b++)
        msgpack_pack_int(&e.pk, res->team_of_bot[b]);
    msgpack_pack_array(&e.pk, (size_t)res->nteams);
    for (int t = 0; t < res->nteams; t++) {
        msgpack_pack_array(&e.pk, 2);
        msgpack_pack_int64(&e.pk, res->team_total[t]);
        msgpack_pack_int(&e.pk, res->team_rank[t]);
    }
    penalties(&e, res);
    return enc_done(&e, out, len);
}

/* ---- Decoding: every count against what the frame can hold ------------ */

static int head(arb_mp *r, const uint8_t *frame, size_t len, int kind, uint32_t n)
{
    uint32_t cnt;
    uint64_t k;
    arb_mp_init(r, frame, len);
    if (arb_mp_array(r, &cnt) || cnt != n || arb_mp_uint(r, &k) || k != (uint64_t)kind)
        return ARB_ECORRUPT;
    return 0;
}

int wire_kind_of(const uint8_t *frame, size_t len)
{
    arb_mp r;
    uint32_t cnt;
    uint64_t k;
    arb_mp_init(&r, frame, len);
    if (len > ARB_WIRE_MAX_PROGRAM_FRAME || arb_mp_array(&r, &cnt) || cnt < 1 || arb_mp_uint(&r, &k) || k >= WIRE_NKINDS
        || (len > ARB_WIRE_MAX_FRAME && k != WIRE_PROGRAM))
        return ARB_ECORRUPT;
    return (int)k;
}

static int small_int(arb_mp *r, int64_t lo, int64_t hi, int64_t *v)
{
    if (arb_mp_int(r, v) || *v < lo || *v > hi)
        return ARB_ECORRUPT;
    return 0;
}

/* [[match, gen], ...] into running[] (at most cap). */
static int decode_leases(arb_mp *r, wire_lease *running, int cap, int *n)
{
    uint32_t cnt;
    if (arb_mp_array(r, &cnt) || cnt > (uint32_t)cap)
        return ARB_ECORRUPT;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t two;
        int64_t g;
        if (arb_mp_array(r, &two) || two != 2 || arb_mp_int(r, &running[i].match_id)
            || small_int(r, 0, INT32_MAX, &g))
            return ARB_ECORRUPT;
        running[i].gen = (int)g;
    }
    *n = (int)cnt;
    return 0;
}

/* wire_valid_text, with line feeds allowed or not. */
static bool valid_text(const char *s, size_t max, bool lines)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    if (n > max)
        return false;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        if ((c < 0x20 && !(lines && c == '\n')) || c == 0x7f)
            return false;
        if (c < 0x80) {
            i++;
            continue;
        }
        int len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (!len || i + (size_t)len > n)
            return false;
        uint32_t cp = c & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
        for (int k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        /* overlong, surrogates, past Unicode, C1 controls */
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))
            || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
            return false;
        i += (size_t)len;
    }
    return true;
}

bool wire_valid_text(const char *s, size_t max)
{
    return valid_text(s, max, false);
}

void wire_clean_text(char *s, size_t max)
{
    size_t n = strlen(s), out = 0;
    for (size_t i = 0; i < n && out < max;) {
        /* the longest valid character starting here, or one byte as '?' */
        size_t len = 1;
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80)
            for (len = 4; len > 1; len--) {
                char ch[5] = {0};
                if (i + len <= n) {
                    memcpy(ch, s + i, len);
                    if (wire_valid_text(ch, 4))
                        break;
                }
            }
        bool ok = c >= 0x80 ? len > 1 : !(c < 0x20 || c == 0x7f);
        if (!ok) {
            s[out++] = '?';
            i++;
            continue;
        }
        if (out + len > max)
            break;
        memmove(s + out, s + i, len);
        out += len;
        i += len;
    }
    s[out] = 0;
}

bool wire_valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > ARB_WORKER_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
              || strchr("_.:-+=^!?&<>()[]{}@%$#", c)))
            return false;
    }
    return true;
}

/* A string of at most cap - 1 bytes that is valid text (wire_valid_text). */
static int text(arb_mp *r, char *buf, size_t cap)
{
    if (arb_mp_str_copy(r, buf, cap) || !wire_valid_text(buf, cap - 1))
        return ARB_ECORRUPT;
    return 0;
}

/* The rules' options: "key=value" lines, so text with line feeds. */
static int text_lines(arb_mp *r, char *buf, size_t cap)
{
    if (arb_mp_str_copy(r, buf, cap) || !valid_text(buf, cap - 1, true))
        return ARB_ECORRUPT;
    return 0;
}

/* A match id: positive (it names a file on the worker). */
static int match_id(arb_mp *r, int64_t *id)
{
    if (arb_mp_int(r, id) || *id <= 0)
        return ARB_ECORRUPT;
    return 0;
}

bool wire_is_digest(const char *d)
{
    if (strlen(d) != 64)
        return false;
    for (int i = 0; i < 64; i++)
        if (!((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
            return false;
    return true;
}

int wire_decode_hello(const uint8_t *frame, size_t len, int *version, char *name, size_t namelen, int *slots,
                      wire_lease *running, int cap, int *nrunning, uint8_t sign_pk[32])
{
    arb_mp r;
    int64_t v, s;
    uint32_t cnt, klen;
    const uint8_t *pk;
    uint64_t k;
    /* The version first, whatever the rest: a peer of another version is
     * told so, not just dropped. */
    arb_mp_init(&r, frame, len);
    if (arb_mp_array(&r, &cnt) || cnt < 2 || arb_mp_uint(&r, &k) || k != WIRE_HELLO || small_int(&r, 0, 1000000, &v))
        return ARB_ECORRUPT;
    *version = (int)v;
    if (v != WIRE_VERSION)
        return ARB_EUNSUPPORTED;
    if (cnt != 6 || arb_mp_str_copy(&r, name, namelen) || !wire_valid_name(name) || small_int(&r, 0, ARB_WORKER_MAX_SLOTS, &s)
        || decode_leases(&r, running, cap, nrunning) || arb_mp_bin(&r, &pk, &klen) || klen != 32
        || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    *slots = (int)s;
    memcpy(sign_pk, pk, 32);
    return 0;
}

int wire_decode_heartbeat(const uint8_t *frame, size_t len, int *free_slots, wire_lease *running, int cap,
                          int *nrunning)
{
    arb_mp r;
    uint32_t cnt;
    uint64_t k;
    int64_t f;
    arb_mp_init(&r, frame, len);
    if (arb_mp_array(&r, &cnt) || (cnt != 1 && cnt != 3) || arb_mp_uint(&r, &k) || k != WIRE_HEARTBEAT)
        return ARB_ECORRUPT;
    *free_slots = -1;
    *nrunning = 0;
    if (cnt == 3) {
        if (small_int(&r, 0, ARB_WORKER_MAX_SLOTS, &f) || decode_leases(&r, running, cap, nrunning))
            return ARB_ECORRUPT;
        *free_slots = (int)f;
    }
    return arb_mp_left(&r) == 0 ? 0 : ARB_ECORRUPT;
}

int wire_decode_progress(const uint8_t *frame, size_t len, wire_progress_info *p)
{
    arb_mp r;
    int64_t g, d, n, t, pen;
    memset(p, 0, sizeof *p);
    if (head(&r, frame, len, WIRE_PROGRESS, 8) || match_id(&r, &p->match_id) || small_int(&r, 0, INT32_MAX, &g)
        || small_int(&r, 0, UINT32_MAX, &d) || small_int(&r, 0, UINT32_MAX, &n) || arb_mp_uint(&r, &p->decisions)
        || small_int(&r, 0, UINT32_MAX, &t) || small_int(&r, 0, UINT32_MAX, &pen) || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    p->gen = (int)g;
    p->done = (uint32_t)d;
    p->games = (uint32_t)n;
    p->timeouts = (uint32_t)t;
    p->penalties = (uint32_t)pen;
    return 0;
}

int wire_decode_refuse(const uint8_t *frame, size_t len, int *version, char *reason, size_t cap)
{
    arb_mp r;
    int64_t v;
    if (head(&r, frame, len, WIRE_REFUSE, 3) || small_int(&r, 0, 1000000, &v) || text(&r, reason, cap)
        || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    *version = (int)v;
    return 0;
}

int wire_decode_fetch(const uint8_t *frame, size_t len, char digest[65])
{
    arb_mp r;
    if (head(&r, frame, len, WIRE_FETCH, 2) || arb_mp_str_copy(&r, digest, 65) || !wire_is_digest(digest)
        || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    return 0;
}

int wire_decode_program(const uint8_t *frame, size_t len, char digest[65], const uint8_t **bundle, size_t *blen,
                        char *error, size_t cap)
{
    arb_mp r;
    if (head(&r, frame, len, WIRE_PROGRAM, 4) || arb_mp_str_copy(&r, digest, 65) || !wire_is_digest(digest))
        return ARB_ECORRUPT;
    *bundle = NULL;
    *blen = 0;
    if (arb_mp_peek(&r) == ARB_MP_NIL) {
        if (arb_mp_nil(&r))
            return ARB_ECORRUPT;
    } else {
        uint32_t n;
        if (arb_mp_bin(&r, bundle, &n) || n > ARB_WIRE_MAX_BUNDLE)
            return ARB_ECORRUPT;
        *blen = n;
    }
    if (text(&r, error, cap) || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    return 0;
}

int wire_decode_release(const uint8_t *frame, size_t len, int64_t *match_id, int *gen, char *reason, size_t cap)
{
    arb_mp r;
    int64_t g;
    if (head(&r, frame, len, WIRE_RELEASE, 4) || arb_mp_int(&r, match_id) || *match_id <= 0
        || small_int(&r, 0, INT32_MAX, &g) || text(&r, reason, cap) || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    *gen = (int)g;
    return 0;
}

int wire_decode_welcome(const uint8_t *frame, size_t len, int *version, int *heartbeat_ms)
{
    arb_mp r;
    int64_t v, h;
    if (head(&r, frame, len, WIRE_WELCOME, 3) || small_int(&r, 0, 1000000, &v) || small_int(&r, 1, 3600000, &h)
        || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    *version = (int)v;
    *heartbeat_ms = (int)h;
    return 0;
}

int wire_decode_transcript_chunk(const uint8_t *frame, size_t len, wire_chunk *c)
{
    arb_mp r;
    int64_t g;
    uint32_t n;
    if (head(&r, frame, len, WIRE_TRANSCRIPT, 6) || arb_mp_int(&r, &c->match_id) || c->match_id <= 0
        || small_int(&r, 0, INT32_MAX, &g) || arb_mp_uint(&r, &c->total) || arb_mp_uint(&r, &c->offset)
        || arb_mp_bin(&r, &c->bytes, &n) || arb_mp_left(&r) != 0 || !chunk_in_bounds(c->total, c->offset, n))
        return ARB_ECORRUPT;
    c->gen = (int)g;
    c->n = n;
    return 0;
}

int wire_decode_ack(const uint8_t *frame, size_t len, int64_t *match_id, int *gen)
{
    arb_mp r;
    int64_t g;
    if (head(&r, frame, len, WIRE_ACK, 3) || arb_mp_int(&r, match_id) || *match_id <= 0
        || small_int(&r, 0, INT32_MAX, &g)
        || arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    *gen = (int)g;
    return 0;
}

/* A bot's start-up budget (0: the match's, else 1..ARB_MAX_STARTUP_MS)
 * and its variables, each checked as the scheduler checked it
 * (match_env_add): a worker never passes a bot what the rules refuse. */
static int bot_extras(arb_mp *r, match_bot_cfg *bc)
{
    uint32_t ne;
    char entry[ARB_MAX_BOT_ENV_TEXT], why[256];
    if (arb_mp_int(r, &bc->startup_ms) || bc->startup_ms < 0 || bc->startup_ms > ARB_MAX_STARTUP_MS
        || arb_mp_array(r, &ne) || ne > ARB_MAX_BOT_ENV)
        return ARB_ECORRUPT;
    for (uint32_t i = 0; i < ne; i++)
        if (arb_mp_str_copy(r, entry, sizeof entry) || match_env_add(bc, entry, why, sizeof why))
            return ARB_ECORRUPT;
    return 0;
}

int wire_decode_assign(const uint8_t *frame, size_t len, wire_assign *a)
{
    arb_mp r;
    int64_t v;
    uint64_t u;
    uint32_t n, nb;
    bool bv;
    char game[32];
    memset(a, 0, sizeof *a);
    match_config *c = &a->cfg;
    match_config_init(c, NULL);
    if (head(&r, frame, len, WIRE_ASSIGN, 5) || match_id(&r, &a->match_id) || small_int(&r, 0, INT32_MAX, &v))
        return ARB_ECORRUPT;
    a->lease_gen = (int)v;
    const uint8_t *key;
    uint32_t klen;
    if (arb_mp_array(&r, &n) || n != 18 || text(&r, game, sizeof game) || text(&r, c->preset, sizeof c->preset)
        || text_lines(&r, c->options, sizeof c->options)
        || arb_mp_uint(&r, &c->seed) || arb_mp_bin(&r, &key, &klen) || klen != sizeof c->key
        || text(&r, c->key_label, sizeof c->key_label) || text(&r, c->commitment, sizeof c->commitment)
        || arb_mp_uint(&r, &u) || u > ARB_MAX_DEALS)
        return ARB_ECORRUPT;
    memcpy(c->key, key, sizeof c->key);
    c->deals = (uint32_t)u;
    if (small_int(&r, 0, MATCH_DUP_COUNT - 1, &v))
        return ARB_ECORRUPT;
    c->duplicate = (uint8_t)v;
    if (arb_mp_bool(&r, &bv) || arb_mp_int(&r, &c->move_ms) || arb_mp_int(&r, &c->deal_ms)
        || arb_mp_int(&r, &c->bank_ms) || arb_mp_int(&r, &c->startup_ms) || small_int(&r, 0, 2, &v))
        return ARB_ECORRUPT;
    c->fixed_seats = bv;
    c->policy = (uint8_t)v;
    if (small_int(&r, 0, 1000000, &v))
        return ARB_ECORRUPT;
    c->strikes = (uint32_t)v;
    if (arb_mp_int(&r, &c->forfeit_points) || arb_mp_array(&r, &nb) || nb < 1 || nb > ARB_MAX_SEATS)
        return ARB_ECORRUPT;
    c->nbots = (int)nb;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t two, na;
        if (arb_mp_array(&r, &two) || (two != 2 && two != 4)
            || arb_mp_str_copy(&r, c->bots[b].name, sizeof c->bots[b].name)
            || !arb_valid_name(c->bots[b].name) || arb_mp_array(&r, &na) || na < 1 || na > ARB_MAX_BOT_ARGS)
            return ARB_ECORRUPT;
        for (uint32_t i = 0; i < na; i++)
            if (text(&r, c->bots[b].argv[i], sizeof c->bots[b].argv[i]))
                return ARB_ECORRUPT;
        c->bots[b].argc = (int)na;
        if (two == 4 && bot_extras(&r, &c->bots[b]))
            return ARB_ECORRUPT;
    }
    if (arb_mp_array(&r, &n) || n > ARB_WIRE_MAX_PROGRAMS)
        return ARB_ECORRUPT;
    a->nprograms = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        wire_program *p = &a->programs[i];
        uint32_t four;
        int64_t bot, argi;
        if (arb_mp_array(&r, &four) || four != 4 || small_int(&r, 0, (int64_t)nb - 1, &bot)
            || small_int(&r, 0, ARB_MAX_BOT_ARGS - 1, &argi) || arb_mp_str_copy(&r, p->digest, sizeof p->digest)
            || !wire_is_digest(p->digest) || arb_mp_str_copy(&r, p->path, sizeof p->path) || !bundle_word_path(p->path))
            return ARB_ECORRUPT;
        p->bot = (int)bot;
        p->argi = (int)argi;
        if (p->argi >= c->bots[p->bot].argc)
            return ARB_ECORRUPT;
    }
    if (arb_mp_left(&r) != 0)
        return ARB_ECORRUPT;
    c->game = arb_game_find(game);
    return c->game ? 0 : ARB_ECORRUPT;
}

/* A name the match core gives (a reason, a consequence): the i in
 * [from, n) that name(i) spells, or -1. */
static int known_name(const char *s, const char *(*name)(int), int from, int n)
{
    for (int i = from; i < n; i++)
        if (strcmp(s, name(i)) == 0)
            return i;
    return -1;
}

static const char *reason_name(int i) { return match_reason_name((match_reason)i); }
static const char *policy_name(int i) { return match_policy_name((match_policy)i); }

/* [dropped, [[game, decision, seat, bot, reason, consequence, note] ...]]
 * into res: at most ARB_MAX_RESULT_PENALTIES (more is malformed, checked
 * before anything is allocated), each bot one of the result's, each seat
 * one of the table's or -1, the reason and consequence the core's names,
 * the note valid text of at most ARB_MAX_PENALTY_NOTE bytes. */
static int decode_penalties(arb_mp *r, match_result *res)
{
    uint32_t n, np;
    uint64_t dropped;
    if (arb_mp_array(r, &n) || n != 2 || arb_mp_uint(r, &dropped) || dropped > UINT32_MAX
        || arb_mp_array(r, &np) || np > ARB_MAX_RESULT_PENALTIES)
        return ARB_ECORRUPT;
    res->penalties_dropped = (uint32_t)dropped;
    if (!np)
        return 0;
    res->penalties = calloc(np, sizeof *res->penalties);
    if (!res->penalties)
        return ARB_ENOMEM;
    for (uint32_t i = 0; i < np; i++) {
        match_penalty *p = &res->penalties[i];
        uint64_t game, dec;
        int64_t seat, bot;
        char reason[32], cost[32];
        if (arb_mp_array(r, &n) || n != 7 || arb_mp_uint(r, &game) || game > UINT32_MAX || arb_mp_uint(r, &dec)
            || dec > UINT32_MAX || small_int(r, -1, res->nbots - 1, &seat) || small_int(r, 0, res->nbots - 1, &bot)
            || text(r, reason, sizeof reason) || text(r, cost, sizeof cost) || text(r, p->note, sizeof p->note))
            return ARB_ECORRUPT;
        int why = known_name(reason, reason_name, MATCH_R_NONE + 1, MATCH_R_COUNT),
            what = known_name(cost, policy_name, 0, MATCH_FORFEIT_MATCH + 1);
        if (why < 0 || what < 0)
            return ARB_ECORRUPT;
        p->game = (uint32_t)game;
        p->decision = (uint32_t)dec;
        p->seat = (int8_t)seat;
        p->bot = (uint8_t)bot;
        p->reason = (uint8_t)why;
        p->consequence = (uint8_t)what;
    }
    res->npenalties = np;
    return 0;
}

int wire_decode_result(const uint8_t *frame, size_t len, wire_result *w)
{
    arb_mp r;
    int64_t v;
    uint64_t u;
    uint32_t n, nb, nd;
    memset(w, 0, sizeof *w);
    match_result *res = &w->res;
    if (head(&r, frame, len, WIRE_RESULT, 9) || match_id(&r, &w->match_id) || small_int(&r, 0, INT32_MAX, &v)
        || arb_mp_bool(&r, &w->ok) || text(&r, w->error, ARB_WIRE_MAX_TEXT + 1)
        || arb_mp_str_copy(&r, w->digest, sizeof w->digest) || (w->ok && !wire_is_digest(w->digest))
        || (!w->ok && w->digest[0] && !wire_is_digest(w->digest)))
        return ARB_ECORRUPT;
    /* the signature of the digest, or nil (no transcript, or none signed) */
    if (arb_mp_peek(&r) == ARB_MP_NIL) {
        if (arb_mp_nil(&r))
            return ARB_ECORRUPT;
    } else {
        const uint8_t *sig;
        uint32_t slen;
        if (arb_mp_bin(&r, &sig, &slen) || slen != sizeof w->signature || !w->digest[0])
            return ARB_ECORRUPT;
        memcpy(w->signature, sig, sizeof w->signature);
        w->is_signed = true;
    }
    if (text(&r, w->transcript, ARB_WIRE_MAX_TEXT + 1) || arb_mp_array(&r, &n) || n != 8)
        return ARB_ECORRUPT;
    w->lease_gen = (int)v;
    if (arb_mp_uint(&r, &u) || u > ARB_MAX_DEALS)
        return ARB_ECORRUPT;
    res->ndeals = (uint32_t)u;
    if (arb_mp_uint(&r, &res->decisions) || arb_mp_uint(&r, &res->wall_ns) || arb_mp_uint(&r, &u)
        || u > UINT32_MAX || arb_mp_array(&r, &nb) || nb > ARB_MAX_SEATS)
        return ARB_ECORRUPT;
    res->winners = (uint32_t)u;
    res->nbots = (int)nb;
    for (uint32_t b = 0; b < nb; b++) {
        match_bot_stats *s = &res->bots[b];
        bool f;
        uint64_t dec, wall, cpu, strikes, pens;
        if (arb_mp_array(&r, &n) || n != 10 || text(&r, s->name, sizeof s->name)
            || arb_mp_int(&r, &s->total) || small_int(&r, 0, ARB_MAX_SEATS, &v) || arb_mp_bool(&r, &f)
            || arb_mp_uint(&r, &dec) || arb_mp_uint(&r, &wall) || arb_mp_uint(&r, &cpu) || arb_mp_uint(&r, &strikes)
            || arb_mp_uint(&r, &pens) || text(&r, s->sandbox, sizeof s->sandbox) || dec > UINT32_MAX
            || strikes > UINT32_MAX || pens > UINT32_MAX)
            return ARB_ECORRUPT;
        s->rank = (int)v;
        s->forfeited = f;
        s->decisions = (uint32_t)dec;
        s->wall_ns = wall;
        s->cpu_ns = cpu;
        s->strikes = (uint32_t)strikes;
        s->penalties = (uint32_t)pens;
    }
    /* a deal takes at least 8 + 2 * nbots bytes (an array of seven, four
     * fixints, two arrays of nbots fixints, a fixint): a count the frame
     * cannot hold is refused before anything is allocated for it */
    if (arb_mp_array(&r, &nd) || nd != res->ndeals || (uint64_t)nd * (8u + 2u * nb) > arb_mp_left(&r))
        return ARB_ECORRUPT;
    res->deals = nd ? calloc(nd, sizeof *res->deals) : NULL;
    if (nd && !res->deals)
        return ARB_ENOMEM;
    for (uint32_t g = 0; g < nd; g++) {
        match_deal *d = &res->deals[g];
        uint64_t a, b, c;
        uint32_t k1, k2;
        if (arb_mp_array(&r, &n) || n != 7 || arb_mp_uint(&r, &a) || arb_mp_uint(&r, &b) || arb_mp_uint(&r, &c)
            || arb_mp_uint(&r, &d->seed) || arb_mp_array(&r, &k1) || k1 != nb || a > UINT32_MAX || b > UINT32_MAX
            || c > UINT32_MAX)
            goto bad;
        d->game = (uint32_t)a;
        d->deal = (uint32_t)b;
        d->seating = (uint32_t)c;
        for (uint32_t k = 0; k < k1; k++) {
            if (small_int(&r, 0, ARB_MAX_SEATS - 1, &v))
                goto bad;
            d->bot_at[k] = (uint8_t)v;
        }
        if (arb_mp_array(&r, &k2) || k2 != nb)
            goto bad;
        for (uint32_t k = 0; k < k2; k++)
            if (arb_mp_int(&r, &d->score[k]))
                goto bad;
        if (small_int(&r, -1, ARB_MAX_SEATS - 1, &v))
            goto bad;
        d->forfeit_bot = (int8_t)v;
    }
    /* the teams: none, or 2..nbots of them, each bot in one (every team
     * with a member), each rank 1..nteams */
    uint32_t nt, nm;
    if (arb_mp_array(&r, &n) || n != 3 || small_int(&r, 0, nb, &v) || v == 1)
        goto bad;
    res->nteams = (int)v;
    if (arb_mp_array(&r, &nm) || nm != (res->nteams ? nb : 0))
        goto bad;
    for (int b = 0; b < res->nbots; b++)
        res->team_of_bot[b] = -1;
    bool has_member[ARB_MAX_SEATS] = {false};
    for (uint32_t b = 0; b < nm; b++) {
        if (small_int(&r, 0, res->nteams - 1, &v))
            goto bad;
        res->team_of_bot[b] = (int8_t)v;
        has_member[(int)v] = true;
    }
    if (arb_mp_array(&r, &nt) || nt != (uint32_t)res->nteams)
        goto bad;
    for (uint32_t t = 0; t < nt; t++) {
        if (arb_mp_array(&r, &n) || n != 2 || arb_mp_int(&r, &res->team_total[t])
            || small_int(&r, 1, res->nteams, &v) || !has_member[t])
            goto bad;
        res->team_rank[t] = (int)v;
    }
    int rc = decode_penalties(&r, res);
    if (rc == ARB_ENOMEM) {
        match_result_release(res);
        return rc;
    }
    if (rc || arb_mp_left(&r) != 0)
        goto bad;
    return 0;
bad:
    match_result_release(res);
    return ARB_ECORRUPT;
}
