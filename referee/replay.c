/* replay.c — re-judging and re-running transcripts (replay.h). */
#include "replay.h"
#include "transcript.h"
#include "transcript_verify.h"
#include "arb_error.h"
#include "arb_kdf.h"

#include <stdio.h>
#include <string.h>

/* The replay driver: every reply comes from the recording, through the
 * verifier sink that also checks everything the judge does with it. */
static int r_start(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len)
{
    (void)ctx; (void)bot; (void)cfg;
    snprintf(sandbox, len, "replay");
    return 0;
}

static int r_send(void *ctx, int bot, const char *line)
{
    (void)ctx; (void)bot; (void)line;
    return 0;
}

static void r_ask(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r)
{
    (void)request; (void)budget_ns;
    if (tr_next_reply(ctx, bot, r) != 0) {
        memset(r, 0, sizeof *r);
        r->kind = MD_EXITED;   /* the sink has the divergence; the judge stops at its next record */
    }
}

static void r_stop(void *ctx, int bot, const char **text, size_t *len, int *status)
{
    (void)ctx; (void)bot;
    *text = "";
    *len = 0;
    *status = 0;
}

/* The rerun driver: the live bots answer, but the judge's clocks run on
 * the recorded timings, so that a bank, a deal clock and every later
 * request's "time" field evolve as they did in the match. What is compared
 * is then what the bots answered, never the clocks: a bot whose reply took
 * 1 ms longer than in the match is reproduced all the same. */
typedef struct rerun_ctx {
    const match_driver *live;
    tr_verifier *v;
} rerun_ctx;

static int rr_start(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len)
{
    rerun_ctx *c = ctx;
    return c->live->start(c->live->ctx, bot, cfg, sandbox, len);
}

static void rr_ending(void *ctx, int bot)
{
    rerun_ctx *c = ctx;
    if (c->live->ending)
        c->live->ending(c->live->ctx, bot);
}

static void rr_prepare(void *ctx, int bot, const match_bot_cfg *cfg)
{
    rerun_ctx *c = ctx;
    if (c->live->prepare)
        c->live->prepare(c->live->ctx, bot, cfg);
}

static int rr_send(void *ctx, int bot, const char *line)
{
    rerun_ctx *c = ctx;
    return c->live->send(c->live->ctx, bot, line);
}

static void rr_ask(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r)
{
    rerun_ctx *c = ctx;
    static md_reply recorded;   /* ARB_MAX_LINE bytes: not on the stack; replay runs one match at a time */
    c->live->ask(c->live->ctx, bot, request, budget_ns, r);
    if (tr_next_reply(c->v, bot, &recorded) == 0) {   /* else the verifier has the divergence */
        r->wall_ns = recorded.wall_ns;
        r->cpu_ns = recorded.cpu_ns;
    }
}

static void rr_stop(void *ctx, int bot, const char **text, size_t *len, int *status)
{
    rerun_ctx *c = ctx;
    c->live->stop(c->live->ctx, bot, text, len, status);
}

static int prepare(const uint8_t *data, size_t len, replay_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->digest_rc = tr_check_digest(data, len, rep->digest, rep->digest_msg, sizeof rep->digest_msg);
    rep->sig_rc = tr_check_signature(data, len, rep->signer, rep->sig_msg, sizeof rep->sig_msg);
    int rc = tr_read_header(data, len, &rep->cfg, rep->divergence, sizeof rep->divergence);
    return rc;
}

/* Run the judge against the recording: with the recorded replies (live
 * NULL) or with live bots (their replies judged on the recorded timings). */
static int verify(const uint8_t *data, size_t len, const match_driver *live, const match_observer *obs,
                  replay_report *rep)
{
    int rc;
    tr_verifier *v = tr_verifier_new(data, len, live != NULL, &rc);
    if (!v)
        return rc;
    match_driver recorded = {.ctx = v, .start = r_start, .send = r_send, .ask = r_ask, .stop = r_stop};
    rerun_ctx rr = {live, v};
    match_driver rerun = {.ctx = &rr, .start = rr_start, .send = rr_send, .ask = rr_ask, .stop = rr_stop,
                          .ending = rr_ending, .prepare = rr_prepare};
    match_sink sink = tr_verifier_sink(v);
    rc = match_run(&rep->cfg, live ? &rerun : &recorded, &sink, obs, &rep->res);
    char div[sizeof rep->divergence];
    int crc = tr_verifier_close(v, div, sizeof div);
    if (rc == 0 && crc != 0 && !rep->res.error[0])
        rc = crc;
    rep->reproduced = rc == 0 && crc == 0;
    if (!rep->reproduced) {
        snprintf(rep->divergence, sizeof rep->divergence, "%s",
                 rep->res.error[0] ? rep->res.error : div[0] ? div : arb_strerror(rc ? rc : crc));
    }
    return 0;
}

int replay_judge(const uint8_t *data, size_t len, const match_observer *obs, replay_report *rep)
{
    int rc = prepare(data, len, rep);
    if (rc)
        return rc;
    return verify(data, len, NULL, obs, rep);
}

int replay_check_secret(const match_config *cfg, const uint8_t secret[32], char *msg, size_t len)
{
    char commit[65], want[65], got[65];
    uint8_t key[32];
    arb_key_commitment(secret, commit);
    if (!cfg->commitment[0]) {
        snprintf(msg, len, "the transcript carries no commitment to a secret");
        return ARB_ECORRUPT;
    }
    if (strcmp(commit, cfg->commitment) != 0) {
        snprintf(msg, len, "wrong secret: its sha256 is %s, the transcript commits to %s", commit, cfg->commitment);
        return ARB_ECORRUPT;
    }
    if (arb_key_derive(secret, cfg->key_label, key) != 0) {
        snprintf(msg, len, "cannot derive keys (libsodium)");
        return ARB_EUNSUPPORTED;
    }
    if (!arb_key_equal(key, cfg->key)) {
        arb_key_hex(key, want);
        arb_key_hex(cfg->key, got);
        snprintf(msg, len, "the match key does not follow from the secret: \"%s\" derives %s, the transcript "
                 "holds %s", cfg->key_label, want, got);
        return ARB_ECORRUPT;
    }
    snprintf(msg, len, "secret matches commitment %s; key follows from \"%s\"", cfg->commitment, cfg->key_label);
    return 0;
}

int replay_rerun(const uint8_t *data, size_t len, const live_options *lo, replay_report *rep)
{
    int rc = prepare(data, len, rep);
    if (rc)
        return rc;
    live_driver *l = live_new(lo, rep->divergence, sizeof rep->divergence);
    if (!l)
        return ARB_EUNSUPPORTED;
    rc = verify(data, len, live_driver_of(l), NULL, rep);
    live_free(l);
    return rc;
}

int replay_signature_verdict(const replay_report *rep, const char *want, const char *whose_want, char *out,
                             size_t cap)
{
    if (rep->sig_rc == ARB_ENOTFOUND) {
        if (want)
            snprintf(out, cap, "FAILED: the file is unsigned; %s says key %s signed it", whose_want, want);
        else
            snprintf(out, cap, "none (written unsigned: `arbiter match`, or before signatures)");
        return want ? 1 : 0;
    }
    if (rep->sig_rc) {
        snprintf(out, cap, "FAILED: %s", rep->sig_msg);
        return 1;
    }
    if (want && strcmp(want, rep->signer) != 0) {
        snprintf(out, cap, "FAILED: signed by key %s, but %s says key %s: not that referee's transcript", rep->signer,
                 whose_want, want);
        return 1;
    }
    snprintf(out, cap, "ok (ed25519, referee key %s)", rep->signer);
    return 0;
}
