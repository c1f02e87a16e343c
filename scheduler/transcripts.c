/* transcripts.c — transcripts arriving from workers in chunks (sched_int.h):
 * assembled per sender, match and generation until the result that names
 * their digest takes them (results.c). Everything a worker sends is bounded
 * here: chunks in order only, the total fixed by the first chunk, the bytes
 * held per identity and in all capped (arb_limits.h), a chunk for a lease
 * the sender does not hold refused, an assembly nobody finished dropped
 * after a while. */
#include "sched_int.h"
#include "arb_error.h"
#include "arb_log.h"
#include "arb_time.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *SUB = SCHED_SUB;

/* An assembly untouched this long is dropped: a worker resends its result
 * (and the chunks before it) at most ARB_RESEND_MAX_MS apart. */
#define ASSEMBLY_IDLE_NS (2ull * ARB_RESEND_MAX_MS * 1000000u)

static tr_asm *find_asm(sched *s, const char *id, int64_t match_id, int gen)
{
    for (int i = 0; i < s->nasms; i++)
        if (s->asms[i].match_id == match_id && s->asms[i].gen == gen && strcmp(s->asms[i].id, id) == 0)
            return &s->asms[i];
    return NULL;
}

static void drop_asm(sched *s, tr_asm *a)
{
    s->asm_bytes -= a->cap;
    free(a->buf);
    *a = s->asms[--s->nasms];
}

/* What one identity holds: assemblies and bytes. */
static void held_by(const sched *s, const char *id, int *count, uint64_t *bytes)
{
    *count = 0;
    *bytes = 0;
    for (int i = 0; i < s->nasms; i++)
        if (strcmp(s->asms[i].id, id) == 0) {
            (*count)++;
            *bytes += s->asms[i].cap;
        }
}

static void refuse(sched *s, const sender *from, const wire_chunk *c, const char *why)
{
    atomic_fetch_add(&s->st.transcripts_refused, 1);
    arb_warn(SUB, "match %" PRId64 " generation %d: a transcript chunk from %s (bytes %" PRIu64 "..%" PRIu64
             " of %" PRIu64 ") refused: %s", c->match_id, c->gen, from->id, c->offset, c->offset + c->n, c->total,
             why);
}

void sched__on_chunk(sched *s, const sender *from, peer *p, const uint8_t *data, size_t n)
{
    wire_chunk c;
    if (wire_decode_transcript_chunk(data, n, &c) != 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        return;
    }
    /* Only the holder of a lease sends its transcript; a worker not heard
     * since we restarted (p NULL) is checked by the record when its result
     * comes, and its assemblies are bounded like anyone's meanwhile. */
    if (p && !sched__find_held(p, c.match_id, c.gen)) {
        refuse(s, from, &c, "the sender does not hold that lease");
        return;
    }
    tr_asm *a = find_asm(s, from->id, c.match_id, c.gen);
    if (c.offset == 0 && a) {   /* sent anew (a resend): start over */
        drop_asm(s, a);
        a = NULL;
    }
    if (a && a->refused[0]) {   /* refused already: its result will say why */
        refuse(s, from, &c, a->refused);
        return;
    }
    if (!a && c.offset != 0) {
        refuse(s, from, &c, "no chunk before it (chunks come in order, from byte 0)");
        return;
    }
    if (a && a->total != c.total && a->have == c.offset) {
        /* the same transcript cannot change its length: not the one signed */
        snprintf(a->refused, sizeof a->refused, "its transcript changed length while it was sent (%" PRIu64
                 " bytes, then %" PRIu64 ")", a->total, c.total);
        s->asm_bytes -= a->cap;
        free(a->buf);
        a->buf = NULL;
        a->cap = 0;
        a->have = (size_t)-1;   /* nothing more is taken until it starts over */
        refuse(s, from, &c, a->refused);
        return;
    }
    if (a && (a->total != c.total || a->have != c.offset)) {
        /* a chunk lost on the way (over the frame budget): the result that
         * follows is not acknowledged, and everything comes again */
        char why[160];
        snprintf(why, sizeof why, "expected bytes from %zu of %" PRIu64 " (chunks come in order, the total fixed)",
                 a->have, a->total);
        drop_asm(s, a);
        refuse(s, from, &c, why);
        return;
    }
    int count;
    uint64_t bytes;
    held_by(s, from->id, &count, &bytes);
    if (!a) {
        if (count >= ARB_SCHED_TRANSCRIPTS_IN_FLIGHT || s->nasms >= ARB_SCHED_TRANSCRIPT_ASSEMBLIES) {
            refuse(s, from, &c, "too many transcripts in flight");
            return;
        }
        if (s->nasms == s->asms_cap) {
            int ncap = s->asms_cap ? 2 * s->asms_cap : 16;
            tr_asm *na = realloc(s->asms, (size_t)ncap * sizeof *na);
            if (!na) {
                refuse(s, from, &c, "out of memory");
                return;
            }
            s->asms = na;
            s->asms_cap = ncap;
        }
        a = &s->asms[s->nasms++];
        *a = (tr_asm){.match_id = c.match_id, .gen = c.gen, .total = c.total};
        snprintf(a->id, sizeof a->id, "%s", from->id);
    }
    /* Room grows with the bytes that came, never with what a header
     * claims: a chunk's total alone allocates nothing. */
    size_t need = a->have + c.n;
    if (need > a->cap) {
        size_t ncap = a->cap ? a->cap : c.n;
        while (ncap < need)
            ncap *= 2;
        if (ncap > a->total)
            ncap = (size_t)a->total;
        uint64_t grow = ncap - a->cap;
        const char *over = bytes + grow > ARB_SCHED_TRANSCRIPT_HELD ? "over the bytes held for one worker"
                           : s->asm_bytes + grow > ARB_SCHED_TRANSCRIPT_HELD_TOTAL ? "over the bytes held for all workers"
                                                                                  : NULL;
        uint8_t *nb = over ? NULL : realloc(a->buf, ncap);
        if (!nb) {
            drop_asm(s, a);
            refuse(s, from, &c, over ? over : "out of memory");
            return;
        }
        a->buf = nb;
        a->cap = ncap;
        s->asm_bytes += grow;
    }
    if (c.n)
        memcpy(a->buf + a->have, c.bytes, c.n);
    a->have += c.n;
    a->touched_ns = arb_now_ns();
}

int sched__take_transcript(sched *s, const char *id, int64_t match_id, int gen, uint8_t **buf, size_t *len,
                           char *why, size_t whylen)
{
    *buf = NULL;
    *len = 0;
    tr_asm *a = find_asm(s, id, match_id, gen);
    if (!a) {
        snprintf(why, whylen, "no transcript came with it");
        return 0;
    }
    if (a->refused[0]) {
        snprintf(why, whylen, "%s", a->refused);
        drop_asm(s, a);
        return -1;
    }
    if (a->have != a->total || a->total == 0) {
        snprintf(why, whylen, "its transcript came in part (%zu of %" PRIu64 " bytes)", a->have, a->total);
        drop_asm(s, a);
        return 0;
    }
    *buf = a->buf;
    *len = a->have;
    a->buf = NULL;
    drop_asm(s, a);
    return 1;
}

void sched__expire_transcripts(sched *s, uint64_t now)
{
    for (int i = 0; i < s->nasms; i++)
        if (now - s->asms[i].touched_ns > ASSEMBLY_IDLE_NS) {
            arb_info(SUB, "match %" PRId64 " generation %d: a transcript from %s left unfinished: dropped",
                     s->asms[i].match_id, s->asms[i].gen, s->asms[i].id);
            drop_asm(s, &s->asms[i--]);
        }
}

void sched__free_transcripts(sched *s)
{
    while (s->nasms)
        drop_asm(s, &s->asms[0]);
    free(s->asms);
    s->asms = NULL;
    s->asms_cap = 0;
}
