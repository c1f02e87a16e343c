/* transcript_verify.c — the checking sink (transcript_verify.h): each
 * record is encoded as the writer would, with the recorded timestamp (and,
 * loose, the recorded timings) put in, and compared byte for byte. */
#include "transcript_verify.h"
#include "transcript_enc.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_mp.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tr_verifier {
    const uint8_t *data;
    size_t len, pos;           /* pos: start of the next recorded record */
    bool loose;
    const uint8_t *orig;       /* the recorded record being matched */
    size_t orig_len;
    uint64_t orig_t, orig_wall, orig_cpu;
    char divergence[1536];
    tr_enc enc;
    int err;                   /* first error, sticky */
    /* where we are, for the divergence's words */
    uint32_t game, deal, seating, decision;
    bool in_game;
};

tr_verifier *tr_verifier_new(const uint8_t *data, size_t len, bool loose, int *err)
{
    tr_verifier *v = calloc(1, sizeof *v);
    if (!v) {
        *err = ARB_ENOMEM;
        return NULL;
    }
    v->data = data;
    v->len = len;
    v->loose = loose;
    tr_enc_init(&v->enc);
    *err = 0;
    return v;
}

const char *tr_divergence(const tr_verifier *v) { return v->divergence; }

static void diverge(tr_verifier *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diverge(tr_verifier *v, const char *fmt, ...)
{
    if (v->divergence[0])
        return;
    int n = 0;
    if (v->in_game)
        n = snprintf(v->divergence, sizeof v->divergence, "game %" PRIu32 " (deal %" PRIu32 ", seating %" PRIu32
                     "), decision %" PRIu32 ": ", v->game, v->deal, v->seating, v->decision);
    else
        n = snprintf(v->divergence, sizeof v->divergence, "before the first deal: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->divergence + n, sizeof v->divergence - (size_t)n, fmt, ap);
    va_end(ap);
    v->err = ARB_ECORRUPT;
}

/* Find the next recorded record that is compared. */
static int next_orig(tr_verifier *v, int *type)
{
    while (v->pos < v->len) {
        size_t n;
        int ty;
        uint64_t t;
        if (tr_record_at(v->data, v->len, v->pos, &n, &ty, &t)) {
            diverge(v, "the recording is corrupt at byte %zu", v->pos);
            return ARB_ECORRUPT;
        }
        if (!tr_compared(ty)) {
            v->pos += n;
            continue;
        }
        v->orig = v->data + v->pos;
        v->orig_len = n;
        v->orig_t = t;
        *type = ty;
        return 0;
    }
    v->orig = NULL;
    v->orig_len = 0;
    *type = -1;
    return ARB_ENOTFOUND;
}

/* The recorded reply's timings (fields 5 and 6 of a RECV record). */
static void recv_timings(tr_verifier *v)
{
    arb_mp r;
    arb_mp_init(&r, v->orig, v->orig_len);
    uint32_t n;
    if (arb_mp_array(&r, &n) || n != 7)
        return;
    for (int i = 0; i < 5; i++)
        arb_mp_skip(&r);
    arb_mp_uint(&r, &v->orig_wall);
    arb_mp_uint(&r, &v->orig_cpu);
}

/* Track where we are, for divergence messages. */
static void note_context(tr_verifier *v, const uint8_t *rec, size_t len)
{
    arb_mp r;
    arb_mp_init(&r, rec, len);
    uint32_t n;
    uint64_t ty, t, a = 0, b = 0, c = 0;
    if (arb_mp_array(&r, &n) || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &t))
        return;
    if (ty == TR_DEAL && !arb_mp_uint(&r, &a) && !arb_mp_uint(&r, &b) && !arb_mp_uint(&r, &c)) {
        v->game = (uint32_t)a;
        v->deal = (uint32_t)b;
        v->seating = (uint32_t)c;
        v->decision = 0;
        v->in_game = true;
    } else if (ty == TR_ASK && !arb_mp_uint(&r, &a) && !arb_mp_uint(&r, &b) && !arb_mp_uint(&r, &c)) {
        v->decision = (uint32_t)c;
    }
}

static int v_record(void *ctx, const match_rec *rec)
{
    tr_verifier *v = ctx;
    if (v->err)
        return v->err;
    tr_type type = tr_enc_type(rec->type);
    if (!tr_compared(type))
        return 0;
    /* Timestamps are not judged: the recorded one is put in. Re-running
     * live bots (loose), neither are the replies' timings. */
    match_rec r = *rec;
    md_reply reply;
    int ot;
    if (next_orig(v, &ot) == 0 && ot == (int)type) {
        r.t = v->orig_t;
        if (type == TR_RECV)
            recv_timings(v);
    }
    if (type == TR_RECV && v->loose && v->orig) {
        reply = *rec->reply;
        reply.wall_ns = v->orig_wall;
        reply.cpu_ns = v->orig_cpu;
        r.reply = &reply;
    }
    if (v->err)
        return v->err;
    tr_enc_record(&v->enc, &r);
    const uint8_t *bytes = (const uint8_t *)v->enc.sb.data;
    size_t len = v->enc.sb.size;
    note_context(v, bytes, len);
    char want[1024], got[1024];
    tr_describe(bytes, len, want, sizeof want);
    if (!v->orig) {
        diverge(v, "the judge produced %s, the recording ends here", want);
        return v->err;
    }
    if (v->orig_len != len || memcmp(v->orig, bytes, len) != 0) {
        tr_describe(v->orig, v->orig_len, got, sizeof got);
        diverge(v, "expected %s, recorded %s", want, got);
        return v->err;
    }
    v->pos = (size_t)(v->orig - v->data) + v->orig_len;
    v->orig = NULL;
    return 0;
}

static const char *v_why(const void *ctx) { return ((const tr_verifier *)ctx)->divergence; }

match_sink tr_verifier_sink(tr_verifier *v)
{
    return (match_sink){.ctx = v, .record = v_record, .why = v_why};
}

int tr_next_reply(tr_verifier *v, int bot, md_reply *r)
{
    if (v->err)
        return v->err;
    int type;
    memset(r, 0, sizeof *r);
    if (next_orig(v, &type) != 0) {
        diverge(v, "the judge waits for a reply from bot %d, the recording ends here", bot);
        return v->err;
    }
    char got[1024];
    arb_mp m;
    arb_mp_init(&m, v->orig, v->orig_len);
    uint32_t n;
    uint64_t ty, t, kind = 0, wall = 0, cpu = 0;
    int64_t b = -1;
    const char *line = NULL;
    uint32_t llen = 0;
    if (type == TR_RECV && !arb_mp_array(&m, &n) && n == 7 && !arb_mp_uint(&m, &ty) && !arb_mp_uint(&m, &t)
        && !arb_mp_int(&m, &b) && !arb_mp_uint(&m, &kind) && kind <= MD_CRASHED) {
        if (kind == MD_LINE ? arb_mp_str(&m, &line, &llen) == 0 && llen <= ARB_MAX_LINE : arb_mp_nil(&m) == 0) {
            if (b == bot && !arb_mp_uint(&m, &wall) && !arb_mp_uint(&m, &cpu)) {
                r->kind = (uint8_t)kind;
                if (line) {
                    memcpy(r->line, line, llen);
                    r->line[llen] = 0;
                    if (memchr(r->line, 0, llen))   /* a NUL inside: not a line a bot could send */
                        goto bad;
                }
                r->wall_ns = wall;
                r->cpu_ns = cpu;
                v->orig_wall = wall;
                v->orig_cpu = cpu;
                return 0;
            }
        }
    }
bad:
    tr_describe(v->orig, v->orig_len, got, sizeof got);
    diverge(v, "the judge waits for a reply from bot %d, recorded %s", bot, got);
    return v->err;
}

int tr_verifier_close(tr_verifier *v, char *div, size_t divlen)
{
    int rc = v->err;
    if (!rc) {
        int type;
        if (next_orig(v, &type) == 0) {
            char got[1024];
            tr_describe(v->orig, v->orig_len, got, sizeof got);
            diverge(v, "the judge has finished, the recording goes on with %s", got);
            rc = v->err;
        } else if (v->divergence[0]) {
            rc = ARB_ECORRUPT;
        }
    }
    if (div && divlen)
        snprintf(div, divlen, "%s", v->divergence);
    tr_enc_release(&v->enc);
    free(v);
    return rc;
}
