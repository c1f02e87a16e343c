/* results.c — results and voids from workers (sched_int.h): each recorded
 * once, under the lease generation that holds its match and only from the
 * identity holding it, then acknowledged; progress reports per tournament. */
#include "sched_int.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_log.h"
#include "arb_sign.h"
#include "arb_time.h"
#include "tr_blob.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SUB = SCHED_SUB;

static void describe(const tour *t, const store_match *m, const match_result *res, char *buf, size_t len)
{
    int order[ARB_MAX_SEATS], n = res->nbots;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && res->bots[order[j]].rank < res->bots[order[j - 1]].rank; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    size_t k = 0;
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s %+" PRId64, i ? " > " : "",
                              m->entrant[order[i]] >= 0 && m->entrant[order[i]] < t->nbots
                                  ? t->bots[m->entrant[order[i]]].bot.name : "?", res->bots[order[i]].total);
}

static void report_progress(sched *s, tour *t)
{
    const sched_tournament_options *o = &t->o;
    if (!o->progress)
        return;
    int pt, lt, dt, vt;
    store_counts(s->o.db, t->tid, -1, &pt, &lt, &dt, &vt);
    double el = (double)(arb_now_ns() - t->t0) / 1e9;
    sched_progress pr = {.tid = t->tid, .name = o->cfg->name, .round = t->round, .done = dt + vt, .total = pt + lt + dt + vt,
                       .rate = el > 0 ? t->out.matches / el : 0, .last = t->last};
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
int sched__on_result(sched *s, const sender *from, peer *p, const uint8_t *data, size_t n, char *err, size_t errlen)
{
    wire_result *w = malloc(sizeof *w);
    if (!w)
        return ARB_ENOMEM;
    if (wire_decode_result(data, n, w) != 0) {
        atomic_fetch_add(&s->st.malformed, 1);
        free(w);
        return 0;
    }
    held *h = p ? sched__find_held(p, w->match_id, w->lease_gen) : NULL;
    store_match m = h ? h->m : (store_match){.id = w->match_id, .lease_gen = w->lease_gen};
    int rc = 0, rrc;
    char why[512] = "", key_hex[65], sig_hex[2 * sizeof w->signature + 1];
    uint8_t digest[32];
    /* The key to check its signature with: the one its hello announced;
     * for a worker not heard since we restarted, the one its last hello
     * announced, kept in the record. */
    uint8_t sign_pk[32];
    bool have_key = p != NULL;
    if (p)
        memcpy(sign_pk, p->sign_pk, sizeof sign_pk);
    else if (w->ok && store_worker_key_get(s->o.db, from->id, key_hex) == 1)
        have_key = arb_unhex(key_hex, sign_pk, sizeof sign_pk) == 0;
    if (w->ok && !have_key) {
        /* No key known for it at all: not acknowledged; it comes again
         * (backing off) and is checked once it has said hello. */
        match_result_release(&w->res);
        free(w);
        return 0;
    }
    /* The transcript's signature, by the key this worker announced: a
     * result it cannot sign is not its to give (docs/transcripts.md). */
    bool sig_ok = w->ok && w->is_signed && arb_unhex(w->digest, digest, sizeof digest) == 0
                  && arb_sign_verify(sign_pk, digest, w->signature);
    bool sig_refused = w->ok && !sig_ok;
    if (sig_refused) {   /* void, when the lease is the sender's (else stale or another's, below) */
        w->ok = false;
        snprintf(w->error, sizeof w->error, "a result whose transcript signature does not verify (%s)",
                 w->is_signed ? "forged or altered" : "unsigned");
    }
    /* The transcript the chunks before it brought: the record keeps it,
     * once its bytes prove to be the transcript whose digest was signed. */
    uint8_t *body = NULL;
    size_t blen = 0;
    char twhy[400];
    int took = sched__take_transcript(s, from->id, w->match_id, w->lease_gen, &body, &blen, twhy, sizeof twhy);
    char lease_holder[ZAP_ID_MAX + 1] = "";
    int held_by = w->ok && took == 0 && !h
                      ? store_lease_holder(s->o.db, w->match_id, w->lease_gen, lease_holder, sizeof lease_holder) : 1;
    bool no_transcript = w->ok && took == 0;
    if (no_transcript && (h || held_by < 0 || strcmp(lease_holder, from->id) == 0)) {
        /* none, or part of it (a chunk lost, over a bound held), for a
         * lease the sender holds (or the record could not say): not
         * acknowledged, so the worker sends it all again. For a lease it
         * does not hold the record answers below, stale or another's, and
         * acknowledges; a result is never recorded without its transcript. */
        if (held_by < 0 && !store_connected(s->o.db)) {
            snprintf(err, errlen, "database lost");
            match_result_release(&w->res);
            free(w);
            return ARB_EIO;
        }
        arb_warn(SUB, "match %" PRId64 " generation %d from %s: %s; not acknowledged, the worker will resend it",
                 w->match_id, w->lease_gen, from->id, twhy);
        match_result_release(&w->res);
        free(w);
        return 0;
    }
    bool tr_refused = false;
    if (w->ok && !no_transcript) {
        const uint8_t *rec_pk = NULL, *rec_sig = NULL;
        if (took < 0 || trb_check(body, blen, w->digest, &rec_pk, &rec_sig, twhy, sizeof twhy) != 0) {
            tr_refused = true;
        } else if (!rec_pk || memcmp(rec_pk, sign_pk, 32) != 0
                   || memcmp(rec_sig, w->signature, sizeof w->signature) != 0) {
            snprintf(twhy, sizeof twhy, "its transcript does not carry the signature of the result");
            tr_refused = true;
        }
        if (tr_refused) {
            w->ok = false;
            snprintf(w->error, sizeof w->error, "a result whose transcript is refused: %.400s", twhy);
        }
    }
    if (no_transcript) {
        rrc = ARB_ESTATE;   /* not the sender's lease: stale or another's, told apart below */
    } else if (w->ok) {
        arb_key_hex(sign_pk, key_hex);
        arb_hex(w->signature, sizeof w->signature, sig_hex);
        store_signed sg = {.signer_key = key_hex, .signature = sig_hex};
        rrc = store_record(s->o.db, &m, &w->res, w->digest, w->transcript, body, blen, &sg, from->id, why,
                           sizeof why);
        if (rrc == 0)
            atomic_fetch_add(&s->st.transcripts_stored, 1);
    } else {
        rrc = store_void(s->o.db, &m, w->error, from->id);
    }
    if (sig_refused && rrc == 0) {
        atomic_fetch_add(&s->st.forged, 1);
        char detail[400];
        snprintf(detail, sizeof detail,
                 "match %" PRId64 " generation %d: the result from %s %s: refused, the match is void", w->match_id,
                 w->lease_gen, from->id,
                 w->is_signed ? "carries a signature its signing key does not verify" : "is not signed");
        arb_warn(SUB, "%s", detail);
        store_match_event(s->o.db, w->match_id, "refused-result", detail);
    }
    if (tr_refused && rrc == 0) {
        atomic_fetch_add(&s->st.forged, 1);
        char detail[600];
        snprintf(detail, sizeof detail, "match %" PRId64 " generation %d: the result from %s: %.400s: refused, the "
                 "match is void", w->match_id, w->lease_gen, from->id, twhy);
        arb_warn(SUB, "%s", detail);
        store_match_event(s->o.db, w->match_id, "refused-result", detail);
    }
    free(body);
    tour *t = m.nslots ? sched__tour_of(s, m.tournament) : NULL;
    bool ours = t != NULL;
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
            t->dirty = true;
            if (w->ok) {
                t->out.matches++;
                describe(t, &m, &w->res, t->last, sizeof t->last);
            } else {
                t->out.voided++;
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
                t->out.stale++;
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
        sched__send_to(s, from->rid, from->ridlen, ack, alen);
    if (h && (rrc == 0 || rrc == ARB_ESTATE)) {
        sched__drop_held(p, h);
        if (!p->draining && p->free_reported < p->slots - p->nheld)
            p->free_reported++;
    }
    match_result_release(&w->res);
    free(w);
    if (rrc == 0 && ours)
        report_progress(s, t);
    return rc;
}
