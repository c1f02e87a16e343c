/* web_hooks.c — what the web layer (web/) asks of a transcript's bytes
 * (read from the record by the web layer), answered with the referee's
 * reader: `arbiter serve`, `arbiter report` and the
 * scheduler daemon's pages (its `web` key) all pass cli_web_hooks(), so
 * the web layer never links the referee; and a tournament file that came
 * over the API, checked by the scheduler's loader and submitted as
 * `arbiter submit` does, so the web never links the scheduler. */
#include "cli.h"
#include "arb_error.h"
#include "transcript.h"
#include "config.h"
#include "web.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The end of the JSON value at v (a string, or an object or array of
 * them): its length, 0 when it is not one. */
static size_t json_value_len(const char *v, size_t n)
{
    size_t i = 0;
    int depth = 0;
    bool str = false;
    do {
        if (i >= n)
            return 0;
        char ch = v[i++];
        if (str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                str = false;
        } else if (ch == '"') {
            str = true;
        } else if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            depth--;
        } else if (depth == 0 && (ch == ',')) {
            return i - 1;
        }
    } while (str || depth > 0);
    return i;
}

/* A botend line (out from start) whose stderr is private: its value
 * emptied and "stderr_private":true added (docs/api.md). */
static int hide_stderr(arb_buf *out, size_t start)
{
    static const char key[] = ",\"stderr\":";
    char *line = out->data + start, *at = NULL;
    size_t n = out->len - start;
    for (size_t i = 0; i + sizeof key - 1 <= n && !at; i++)
        if (memcmp(line + i, key, sizeof key - 1) == 0)
            at = line + i + sizeof key - 1;
    if (!at)
        return 0;
    size_t off = (size_t)(at - out->data), vlen = json_value_len(at, out->len - off);
    if (vlen == 0)
        return ARB_ECORRUPT;
    size_t rest = out->len - off - vlen;
    memmove(at + 2, at + vlen, rest);
    at[0] = at[1] = '"';
    out->len = off + 2 + rest;
    if (out->len == 0 || out->data[out->len - 1] != '}')
        return ARB_ECORRUPT;
    out->len--;
    return arb_buf_puts(out, ",\"stderr_private\":true}") ? ARB_ETOOBIG : 0;
}

/* The records as `arbiter replay FILE --json` prints them (without its
 * closing summary line: that is the re-judgement, not the record), from
 * at->off until out holds want bytes. */
static int hook_json_lines_from(void *ctx, const uint8_t *data, size_t len, web_lines *at, arb_buf *out, size_t want,
                                char *err, size_t errlen)
{
    (void)ctx;
    int type, rc = 0;
    const uint8_t *rec;
    size_t n;
    while (out->len < want && (rc = tr_next(data, len, &at->off, &type, &rec, &n)) == 0) {
        size_t start = out->len;
        rc = cli_tr_json(type, rec, n, at->told_end, out);
        tr_botend be;
        if (rc == 0 && at->hide_stderr && type == TR_BOTEND && tr_read_botend(rec, n, &be) == 0 && be.bot >= 0
            && be.bot < 32 && (at->hide_stderr & (1u << be.bot)))
            rc = hide_stderr(out, start);
        cli_bot_told_end(type, rec, n, at->told_end);
        if (rc || (rc = arb_buf_putc(out, '\n')) != 0)
            break;
    }
    if (rc < 0)
        snprintf(err, errlen, "the transcript: %s", rc == ARB_ETOOBIG ? "too large to show" : arb_strerror(rc));
    return rc < 0 ? rc : 0;
}

/* All of them at once. */
static int hook_json_lines(void *ctx, const uint8_t *data, size_t len, unsigned hide, arb_buf *out, char *err,
                           size_t errlen)
{
    web_lines at = {.hide_stderr = hide};
    return hook_json_lines_from(ctx, data, len, &at, out, SIZE_MAX, err, errlen);
}

typedef struct ends_ctx {
    void (*each)(void *arg, int bot, const char *ended, const char *err, size_t errlen);
    void *arg;
    bool told_end[ARB_MAX_SEATS];   /* cli_bot_told_end */
} ends_ctx;

static int end_each(void *ctx, int type, const uint8_t *rec, size_t n)
{
    ends_ctx *c = ctx;
    tr_botend be;
    if (type != TR_BOTEND || tr_read_botend(rec, n, &be) != 0) {
        cli_bot_told_end(type, rec, n, c->told_end);
        return 0;
    }
    char words[CLI_BOT_END_WORDS];
    cli_bot_end_words(&be, be.bot >= 0 && be.bot < ARB_MAX_SEATS && c->told_end[be.bot], words, sizeof words);
    cli_bot_told_end(type, rec, n, c->told_end);
    c->each(c->arg, be.bot, words, be.err, be.err_len);
    return 0;
}

static int hook_botends(void *ctx, const uint8_t *data, size_t len,
                        void (*each)(void *arg, int bot, const char *ended, const char *err, size_t errlen), void *arg,
                        char *err, size_t errlen)
{
    ends_ctx c = {each, arg, {false}};
    int rc = tr_each(data, len, end_each, &c);
    if (rc < 0)
        snprintf(err, errlen, "the transcript: %s", arb_strerror(rc));
    return rc < 0 ? rc : 0;
}

static int hook_submit(void *ctx, store *st, const char *label, const char *text, size_t len, const char *account,
                       int64_t *tid, bool *created, char *name, size_t namelen, bool *bad, char *err, size_t errlen)
{
    (void)ctx;
    tn_config cfg;
    *bad = true;
    int rc = tn_config_load_text(label, text, len, &cfg, err, errlen);
    if (rc == 0)
        rc = cli_submit_check(&cfg, NULL, err, errlen);
    if (rc == 0) {
        *bad = false;
        snprintf(cfg.submitted_by, sizeof cfg.submitted_by, "%s", account);
        snprintf(name, namelen, "%s", cfg.name);
        rc = cli_submit_config(st, &cfg, NULL, tid, created, err, errlen);
    }
    tn_config_release(&cfg);
    return rc;
}

static const web_hooks hooks = {
    .json_lines = hook_json_lines,
    .botends = hook_botends,
    .json_lines_from = hook_json_lines_from,
    .submit = hook_submit,
};

const web_hooks *cli_web_hooks(void)
{
    return &hooks;
}
