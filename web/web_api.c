/* web_api.c — the participant API, version 1 (docs/api.md): served under
 * /api/v1/ by the same server as the pages, only when the record has
 * accounts. Every request is decided from its request line and headers
 * first — the route, the bearer token (its SHA-256 looked up, compared in
 * constant time), the address's bad-token count, the account's requests
 * this minute, its role, a body's Content-Length against the route's bound
 * (413 before a byte of the body is read, the connection closed) and its
 * Content-Type — and only then is a body read, into a buffer no larger
 * than the Content-Length it announced. The API's writes go through the
 * record's SECURITY DEFINER functions (018_accounts.sql) on sessions of
 * their own, as the role arbiter_web when the login may take it; each
 * write and each refusal after auth is in the audit log. A token is never
 * logged: the Authorization header is read here and nowhere else. */
#include "web_api.h"
#include "web_int.h"
#include "arb_mp.h"
#include "arb_num.h"
#include "arb_time.h"
#include "bundle.h"
#include "match_def.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* ---- the counters: requests per account, bad tokens per address ---------- */

typedef struct rate_slot {
    uint8_t key[16];             /* an address, or an account id */
    bool account;
    uint64_t minute;             /* the minute it counts (epoch minutes) */
    unsigned n;
} rate_slot;

struct web_api {
    web_hooks hooks;
    pthread_mutex_t lock;        /* the sessions and the counters */
    pthread_cond_t freed;
    store *session[ARB_API_SESSIONS];
    bool busy[ARB_API_SESSIONS];
    rate_slot rate[ARB_API_RATE_SLOTS];
    int on;                      /* the record has accounts: 1, 0, -1 unknown */
    /* The writes whose logic is the record layer's C (a registration as
     * `arbiter register` adds it, a dispute opened and resolved as
     * `arbiter dispute` does, ratings derived again; a tournament as
     * `arbiter submit` puts it): one session of the login role, not
     * arbiter_web, one write at a time, reached only after auth and the
     * route's role (docs/api.md, "Writes"). */
    pthread_mutex_t wlock;
    store *writer;
    size_t body_bytes;           /* reserved by the bodies being read or held (ARB_API_BODIES_MAX) */
    uint64_t on_ns;              /* when `on` was read */
};

struct web_api_req {
    int route;
    store_account acct;
    char addr[64];
    char url[ARB_WEB_MAX_URL + 1];
    const char *type;            /* the body's Content-Type as one of ours */
    arb_buf body;
    size_t expect;               /* Content-Length */
    web_api *api;                /* its reservation of expect bytes, given back by web_api_done */
    size_t reserved;
    bool reading, overflow;
};

static uint64_t minute_now(void) { return (uint64_t)time(NULL) / 60; }

/* Count one for key in this minute: the count after it; 0 when the table
 * is full of this minute's keys (then the caller refuses: 429). peek: do
 * not count, only read. */
static unsigned rate_count(web_api *a, const uint8_t key[16], bool account, bool peek)
{
    uint64_t now = minute_now(), h = 1469598103934665603ull;
    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 1099511628211ull;
    h ^= account;
    unsigned got = 0;
    pthread_mutex_lock(&a->lock);
    for (unsigned k = 0; k < 64; k++) {   /* a bounded probe */
        rate_slot *s = &a->rate[(h + k) % ARB_API_RATE_SLOTS];
        bool mine = s->minute == now && s->account == account && memcmp(s->key, key, 16) == 0;
        if (!mine && s->minute == now)
            continue;
        if (!mine) {
            if (peek)
                break;
            memcpy(s->key, key, 16);
            s->account = account;
            s->minute = now;
            s->n = 0;
        }
        got = peek ? s->n : ++s->n;
        break;
    }
    pthread_mutex_unlock(&a->lock);
    return got == 0 && !peek ? UINT32_MAX : got;
}

static void key_of_account(int64_t id, uint8_t key[16])
{
    memset(key, 0, 16);
    memcpy(key, &id, sizeof id);
}

/* ---- sessions ------------------------------------------------------------- */

static int api_take(web_api *a)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)ARB_WEB_POOL_WAIT_MS * 1000000u;
    until.tv_sec += (time_t)(ns / 1000000000u);
    until.tv_nsec = (long)(ns % 1000000000u);
    int got = -1;
    pthread_mutex_lock(&a->lock);
    for (;;) {
        for (int i = 0; i < (int)ARB_API_SESSIONS && got < 0; i++)
            if (!a->busy[i])
                got = i;
        if (got >= 0 || pthread_cond_timedwait(&a->freed, &a->lock, &until) != 0)
            break;
    }
    if (got >= 0)
        a->busy[got] = true;
    pthread_mutex_unlock(&a->lock);
    return got;
}

static void api_give(web_api *a, int i)
{
    if (i < 0)
        return;
    pthread_mutex_lock(&a->lock);
    a->busy[i] = false;
    pthread_cond_signal(&a->freed);
    pthread_mutex_unlock(&a->lock);
}

web_api *web_api_open(const char *conninfo, const web_hooks *hooks, bool *as_role, char *why, size_t whylen,
                      char *err, size_t errlen)
{
    web_api *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (hooks)
        a->hooks = *hooks;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&a->freed, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&a->lock, NULL);
    pthread_mutex_init(&a->wlock, NULL);
    a->on = -1;
    *as_role = true;
    why[0] = 0;
    if (!(a->writer = store_open(conninfo, err, errlen))) {
        web_api_close(a);
        return NULL;
    }
    for (unsigned i = 0; i < ARB_API_SESSIONS; i++) {
        a->session[i] = store_open(conninfo, err, errlen);
        if (!a->session[i]) {
            web_api_close(a);
            return NULL;
        }
        char w[512];
        if (store_web_role(a->session[i], w, sizeof w) != 0) {
            *as_role = false;
            if (!why[0])
                snprintf(why, whylen, "%s", w);
        }
    }
    return a;
}

void web_api_close(web_api *a)
{
    if (!a)
        return;
    for (unsigned i = 0; i < ARB_API_SESSIONS; i++)
        store_close(a->session[i]);
    store_close(a->writer);
    pthread_mutex_destroy(&a->wlock);
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->freed);
    free(a);
}

void web_api_done(web_api_req *r)
{
    if (!r)
        return;
    if (r->reserved) {
        pthread_mutex_lock(&r->api->lock);
        r->api->body_bytes -= r->reserved;
        pthread_mutex_unlock(&r->api->lock);
    }
    arb_buf_release(&r->body);
    free(r);
}

/* ---- answers -------------------------------------------------------------- */

static const char JSON[] = "application/json";

static web_result send_json_hdr(struct MHD_Connection *c, unsigned status, arb_buf *b, const char *h1,
                                const char *v1, bool close)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(b->len, b->data ? b->data : (void *)"",
                                                             MHD_RESPMEM_MUST_COPY);
    web_result rc = MHD_NO;
    if (r && web__secure(r) == 0 && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, JSON) == MHD_YES
        && MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store") == MHD_YES
        && (!h1 || MHD_add_response_header(r, h1, v1) == MHD_YES)
        && (!close || MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") == MHD_YES))
        rc = MHD_queue_response(c, status, r);
    if (r)
        MHD_destroy_response(r);
    return rc;
}

static web_result send_json(struct MHD_Connection *c, unsigned status, arb_buf *b)
{
    return send_json_hdr(c, status, b, NULL, NULL, false);
}

/* {"error":"..."} with status, and a header. */
static web_result send_error_hdr(struct MHD_Connection *c, unsigned status, const char *msg, const char *h1,
                                 const char *v1, bool close)
{
    arb_buf b;
    arb_buf_init(&b, 8192);
    arb_buf_puts(&b, "{\"error\":");
    web_j(&b, msg);
    arb_buf_puts(&b, "}\n");
    web_result rc = send_json_hdr(c, status, &b, h1, v1, close);
    arb_buf_release(&b);
    return rc;
}

static web_result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    return send_error_hdr(c, status, msg, NULL, NULL, false);
}

static web_result send_401(struct MHD_Connection *c, const char *msg)
{
    return send_error_hdr(c, MHD_HTTP_UNAUTHORIZED, msg, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer", false);
}

static web_result send_429(struct MHD_Connection *c, const char *msg, unsigned after)
{
    char v[16];
    snprintf(v, sizeof v, "%u", after ? after : 1);
    return send_error_hdr(c, MHD_HTTP_TOO_MANY_REQUESTS, msg, MHD_HTTP_HEADER_RETRY_AFTER, v, false);
}

/* Seconds to the next minute (a rate's window). */
static unsigned to_next_minute(void) { return (unsigned)(60 - time(NULL) % 60); }

/* ---- routes --------------------------------------------------------------- */

enum {
    R_NONE, R_ME, R_JOIN, R_ENTRIES, R_RETIRE, R_LOGS, R_TRANSCRIPT,
    R_REGISTER, R_DISPUTES, R_DISPUTE_OPEN, R_RESOLVE, R_SUBMIT,
};

typedef struct route_args {
    char ladder[ARB_TN_MAX_NAME + 1];   /* a ladder's name, or a tournament's (R_REGISTER) */
    char entry[ARB_MAX_BOT_NAME + 16];
    int64_t match, dispute;
} route_args;

/* A write route's action in the audit log. */
static const char *action_of(int route)
{
    switch (route) {
    case R_JOIN: return "join";
    case R_RETIRE: return "retire";
    case R_REGISTER: return "register";
    case R_DISPUTE_OPEN: return "dispute open";
    case R_RESOLVE: return "dispute resolve";
    case R_SUBMIT: return "submit";
    default: return "?";
    }
}

/* A path segment of a name (a ladder's, an entry's): [A-Za-z0-9._-]+
 * (what names in the record are made of); 0, or -1. */
static int segment(const char **p, char *out, size_t cap)
{
    size_t n = strcspn(*p, "/");
    if (n == 0 || n >= cap)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char ch = (*p)[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.'
              || ch == '_' || ch == '-'))
            return -1;
    }
    memcpy(out, *p, n);
    out[n] = 0;
    *p += n;
    return 0;
}

/* The route of url (past "/api/v1"), its arguments, and whether method
 * fits it (*bad_method). */
static int route_of(const char *u, const char *method, route_args *ra, bool *post, bool *bad_method)
{
    memset(ra, 0, sizeof *ra);
    int r = R_NONE;
    *post = false;
    if (strcmp(u, "/me") == 0)
        r = R_ME;
    else if (strcmp(u, "/entries") == 0)
        r = R_ENTRIES;
    else if (strncmp(u, "/ladders/", 9) == 0) {
        const char *p = u + 9;
        if (segment(&p, ra->ladder, sizeof ra->ladder) == 0 && strncmp(p, "/entries", 8) == 0) {
            p += 8;
            if (*p == 0)
                r = R_JOIN, *post = true;
            else if (*p == '/' && (p++, segment(&p, ra->entry, sizeof ra->entry) == 0)) {
                if (strcmp(p, "/retire") == 0)
                    r = R_RETIRE, *post = true;
                else if (strcmp(p, "/logs") == 0)
                    r = R_LOGS;
            }
        }
    } else if (strncmp(u, "/matches/", 9) == 0) {
        size_t n = strcspn(u + 9, "/");
        if (web_parse_id(u + 9, n, &ra->match) && strcmp(u + 9 + n, "/transcript") == 0 && ra->match > 0)
            r = R_TRANSCRIPT;
    } else if (strcmp(u, "/disputes") == 0) {
        if (strcmp(method, "POST") == 0)
            r = R_DISPUTE_OPEN, *post = true;
        else
            r = R_DISPUTES;
    } else if (strncmp(u, "/disputes/", 10) == 0) {
        size_t n = strcspn(u + 10, "/");
        if (web_parse_id(u + 10, n, &ra->dispute) && strcmp(u + 10 + n, "/resolve") == 0 && ra->dispute > 0)
            r = R_RESOLVE, *post = true;
    } else if (strcmp(u, "/tournaments") == 0) {
        r = R_SUBMIT, *post = true;
    } else if (strncmp(u, "/tournaments/", 13) == 0) {
        const char *p = u + 13;
        if (segment(&p, ra->ladder, sizeof ra->ladder) == 0 && strcmp(p, "/registrations") == 0)
            r = R_REGISTER, *post = true;
    }
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    *bad_method = r != R_NONE && (*post ? strcmp(method, "POST") != 0 : !get);
    return r;
}

static int hexval(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
         : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* A query argument, percent-decoded (and '+' as a space) into out: 1
 * found, 0 absent, -1 malformed (a control character, a bad escape, too
 * long). The library is told not to decode (web_server.c: no_unescape). */
static int arg_decoded(const char *raw, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = raw; *p; p++) {
        int ch = (unsigned char)*p;
        if (ch == '+')
            ch = ' ';
        else if (ch == '%') {
            int hi = hexval(p[1]), lo = hi < 0 ? -1 : hexval(p[2]);
            if (hi < 0 || lo < 0)
                return -1;
            ch = hi * 16 + lo;
            p += 2;
        }
        if (ch < 0x20 || ch == 0x7f || n + 1 >= cap)
            return -1;
        out[n++] = (char)ch;
    }
    out[n] = 0;
    return 1;
}

static int query(struct MHD_Connection *c, const char *key, char *out, size_t cap)
{
    const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
    if (!v) {
        out[0] = 0;
        return 0;
    }
    return arg_decoded(v, out, cap);
}

/* ---- me ------------------------------------------------------------------- */

static web_result route_me(web_api *a, struct MHD_Connection *c, store *st, const web_api_req *rq)
{
    (void)a;
    store_quota qt;
    char err[256];
    if (store_api_quota(st, rq->acct.id, &qt, err, sizeof err) != 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    arb_buf b;
    arb_buf_init(&b, 4096);
    arb_buf_puts(&b, "{\"account\":");
    web_j(&b, rq->acct.name);
    arb_buf_puts(&b, ",\"role\":");
    web_j(&b, store_role_name(rq->acct.role));
    arb_buf_printf(&b,
                   ",\"quota\":{\"uploads_today\":%lld,\"uploads_per_day\":%lld,\"bytes_today\":%lld,"
                   "\"bytes_per_day\":%lld,\"entries\":%lld,\"entries_max\":%lld,\"requests_per_minute\":%u}}\n",
                   qt.uploads_today, qt.uploads_per_day, qt.bytes_today, qt.bytes_per_day, qt.entries, qt.entries_max,
                   ARB_API_REQUESTS_PER_MIN);
    web_result rc = send_json(c, MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return rc;
}

/* ---- entries -------------------------------------------------------------- */

static bool privileged(const store_account *a) { return a->role == STORE_ARBITER || a->role == STORE_ORGANISER; }

static web_result route_entries(struct MHD_Connection *c, store *st, const web_api_req *rq)
{
    char all[8];
    int q = query(c, "all", all, sizeof all);
    bool want_all = q == 1 && strcmp(all, "1") == 0;
    if (want_all && !privileged(&rq->acct))
        return send_error(c, MHD_HTTP_FORBIDDEN, "all=1: only an arbiter or an organiser reads every entry");
    store_rows r;
    char err[512];
    if (store_api_entries(st, rq->acct.id, want_all, &r, err, sizeof err) != 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    arb_buf b;
    arb_buf_init(&b, ARB_WEB_PAGE_CAP);
    arb_buf_puts(&b, "{\"entries\":[");
    for (int i = 0; i < r.nrows; i++) {
        const char *mu = store_cell(&r, i, STORE_API_ENTRY_MU), *val = store_cell(&r, i, STORE_API_ENTRY_VALIDATION),
                   *ret = store_cell(&r, i, STORE_API_ENTRY_RETIRED);
        arb_buf_puts(&b, i ? ",{\"ladder\":" : "{\"ladder\":");
        web_j(&b, store_cell(&r, i, STORE_API_ENTRY_LADDER));
        arb_buf_puts(&b, ",\"entry\":");
        web_j(&b, store_cell(&r, i, STORE_API_ENTRY_NAME));
        arb_buf_puts(&b, ",\"base\":");
        web_j(&b, store_cell(&r, i, STORE_API_ENTRY_BASE));
        arb_buf_printf(&b, ",\"version\":%lld,\"status\":", arb_cell_int(store_cell(&r, i, STORE_API_ENTRY_VERSION)));
        web_j(&b, store_cell(&r, i, STORE_API_ENTRY_STATUS));
        arb_buf_puts(&b, ",\"verdict\":");
        web_j(&b, store_cell(&r, i, STORE_API_ENTRY_VERDICT));
        if (val[0])
            arb_buf_printf(&b, ",\"validation_match\":%lld", arb_cell_int(val));
        else
            arb_buf_puts(&b, ",\"validation_match\":null");
        if (mu[0])
            arb_buf_printf(&b, ",\"rating\":{\"mu\":%.4f,\"sigma\":%.4f,\"games\":%lld}", arb_cell_float(mu),
                           arb_cell_float(store_cell(&r, i, STORE_API_ENTRY_SIGMA)),
                           arb_cell_int(store_cell(&r, i, STORE_API_ENTRY_GAMES)));
        else
            arb_buf_puts(&b, ",\"rating\":null");
        arb_buf_printf(&b, ",\"matches\":%lld,\"joined_at\":",
                       arb_cell_int(store_cell(&r, i, STORE_API_ENTRY_MATCHES)));
        web_j(&b, store_cell(&r, i, STORE_API_ENTRY_JOINED));
        arb_buf_puts(&b, ",\"retired_at\":");
        if (ret[0])
            web_j(&b, ret);
        else
            arb_buf_puts(&b, "null");
        arb_buf_puts(&b, "}");
    }
    store_rows_release(&r);
    arb_buf_puts(&b, "]}\n");
    web_result rc = send_json(c, MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return rc;
}

/* ---- retire --------------------------------------------------------------- */

static web_result route_retire(struct MHD_Connection *c, store *st, const web_api_req *rq, const route_args *ra)
{
    char err[512];
    int rc = store_api_retire(st, rq->acct.id, privileged(&rq->acct), ra->ladder, ra->entry, rq->addr, err,
                              sizeof err);
    if (rc > 0) {
        char target[200];
        snprintf(target, sizeof target, "%s/%s", ra->ladder, ra->entry);
        store_api_audit(st, rq->acct.name, "retire", target, err, rq->addr, false);
        return send_error(c, (unsigned)rc, err);
    }
    if (rc < 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be written now: try again");
    arb_buf b;
    arb_buf_init(&b, 1024);
    arb_buf_puts(&b, "{\"ladder\":");
    web_j(&b, ra->ladder);
    arb_buf_puts(&b, ",\"entry\":");
    web_j(&b, ra->entry);
    arb_buf_puts(&b, ",\"status\":\"retired\"}\n");
    web_result r = send_json(c, MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return r;
}

/* ---- join: an uploaded bundle --------------------------------------------- */

/* A command's first word that is neither a file of the bundle nor a
 * program in the server's PATH is refused (400 naming it). */
static bool in_path(const char *prog)
{
    if (strchr(prog, '/'))
        return prog[0] == '/' && bundle_system_path(prog);
    const char *path = getenv("PATH");
    char dirs[4096], full[4400], *save = NULL;
    snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(full, sizeof full, "%s/%s", d, prog);
        if (access(full, X_OK) == 0)
            return true;
    }
    return false;
}

/* A command word of an upload that is not a file of its bundle, and may
 * stay in its command: the referee resolves a word naming an existing
 * path on the host (realpath) and binds a path under the program cache,
 * /tmp, /run or a hidden tree into the bot's sandbox — another entrant's
 * program, a database's socket directory. So: no ".." component, and
 * absolute only under the system's directories (shown to every bot). */
static bool word_harmless(const char *w)
{
    for (const char *q = w; *q;) {
        size_t n = strcspn(q, "/");
        if (n == 2 && q[0] == '.' && q[1] == '.')
            return false;
        q += n + (q[n] == '/');
    }
    return w[0] != '/' || bundle_system_path(w);
}

/* An uploaded program (a ladder join, a registration): its entry's name
 * and command from the query, its bundle from the body (as sent, checked;
 * or made from an archive), and which of the command's words name the
 * bundle's files (argi/paths). */
typedef struct bot_upload {
    char name[ARB_MAX_BOT_NAME + 1], command[ARB_TN_MAX_COMMAND], digest[65];
    uint8_t *bundle;
    size_t blen;
    store_entrant_prog *prog;
} bot_upload;

static void upload_release(bot_upload *up)
{
    free(up->bundle);
    free(up->prog);
    up->bundle = NULL;
    up->prog = NULL;
}

/* The upload of request rq, whose query names it: 0, or the HTTP status
 * of its refusal with msg (the target of its audit row, where "/NAME" is
 * added once the name is read, in target). */
static unsigned upload_read(struct MHD_Connection *c, web_api_req *rq, bot_upload *up, char *target, size_t tcap,
                            char *msg, size_t msglen)
{
    char err[1024];
    memset(up, 0, sizeof *up);
    int qn = query(c, "name", up->name, sizeof up->name), qc = query(c, "command", up->command, sizeof up->command);
    if (qn != 1 || !up->name[0]
        || strspn(up->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(up->name)) {
        snprintf(msg, msglen, "name: 1-%d of A-Z a-z 0-9 _ - is needed (the entry's name)", ARB_MAX_BOT_NAME);
        return MHD_HTTP_BAD_REQUEST;
    }
    size_t tl = strlen(target);
    snprintf(target + tl, tcap - tl, "/%s", up->name);
    if (qc != 1 || !up->command[0]) {
        snprintf(msg, msglen, "command: the bot's command is needed (its words naming the bundle's files)");
        return MHD_HTTP_BAD_REQUEST;
    }
    if (rq->overflow || rq->body.len != rq->expect) {
        snprintf(msg, msglen, "the body is not the %zu bytes its Content-Length said", rq->expect);
        return MHD_HTTP_BAD_REQUEST;
    }
    /* the bundle: as sent, or made from the archive */
    if (strcmp(rq->type, "application/x-arbiter-bundle") == 0) {
        bundle_info info;
        if (bundle_check((const uint8_t *)rq->body.data, rq->body.len, &info, err, sizeof err) != 0) {
            snprintf(msg, msglen, "entry %s: the bundle: %s", up->name, err);
            return MHD_HTTP_BAD_REQUEST;
        }
        up->bundle = malloc(rq->body.len ? rq->body.len : 1);
        if (!up->bundle) {
            snprintf(msg, msglen, "out of memory");
            return MHD_HTTP_SERVICE_UNAVAILABLE;
        }
        memcpy(up->bundle, rq->body.data, rq->body.len);
        up->blen = rq->body.len;
        bundle_digest(up->bundle, up->blen, up->digest);
    } else if (bundle_from_archive((const uint8_t *)rq->body.data, rq->body.len, &up->bundle, &up->blen, up->digest,
                                   err, sizeof err) != 0) {
        snprintf(msg, msglen, "entry %s: the archive: %s", up->name, err);
        return MHD_HTTP_BAD_REQUEST;
    }
    arb_buf_release(&rq->body);   /* the bundle is what is kept */
    /* the command's words: those naming a file of the bundle are its
     * program's (argi/paths); the first must be one, or a program of
     * the server's PATH */
    store_entrant_prog *prog = up->prog = calloc(1, sizeof *prog);
    if (!prog) {
        snprintf(msg, msglen, "out of memory");
        return MHD_HTTP_SERVICE_UNAVAILABLE;
    }
    char words[ARB_TN_MAX_COMMAND], *save = NULL;
    snprintf(words, sizeof words, "%s", up->command);
    int n = 0;
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save), n++) {
        if (n == ARB_MAX_BOT_ARGS || strlen(w) > 255) {
            snprintf(msg, msglen, "command: more than %d words, or a word over 255 bytes", ARB_MAX_BOT_ARGS);
            return MHD_HTTP_BAD_REQUEST;
        }
        const char *p = strncmp(w, "./", 2) == 0 ? w + 2 : w;
        if (!bundle_safe_path(p) && !word_harmless(w)) {
            snprintf(msg, msglen, "command: the word \"%.200s\" names a path of the server (a word is a file of "
                     "the bundle, a path under /usr/, /bin/ or /etc/ without .., or no path at all)", w);
            return MHD_HTTP_BAD_REQUEST;
        }
        if (bundle_word_path(p) && bundle_has(up->bundle, up->blen, p, NULL)) {
            prog->argi[prog->nfiles] = n;
            snprintf(prog->path[prog->nfiles], sizeof prog->path[0], "%s", p);
            prog->nfiles++;
        } else if (n == 0 && !in_path(w)) {
            snprintf(msg, msglen, "command: \"%.200s\" is neither a file of the bundle nor a program of the server",
                     w);
            return MHD_HTTP_BAD_REQUEST;
        }
    }
    if (n == 0) {
        snprintf(msg, msglen, "command: no words");
        return MHD_HTTP_BAD_REQUEST;
    }
    snprintf(prog->digest, sizeof prog->digest, "%s", up->digest);
    return 0;
}

/* A join's env= arguments (repeatable), each decoded and checked as
 * `ladder join --env` checks it (match_env_add: the name, the names a bot
 * may not set, the value, how many): the first refusal in why. */
typedef struct env_args {
    match_bot_cfg bot;
    bool bad;
    char why[400];
} env_args;

static enum MHD_Result env_each(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    env_args *e = cls;
    if (e->bad || strcmp(key, "env") != 0)
        return MHD_YES;
    char one[ARB_MAX_BOT_ENV_TEXT], why[300];
    if (!value || arg_decoded(value, one, sizeof one) != 1) {
        snprintf(e->why, sizeof e->why, "env: a value that is not NAME=value of printable ASCII, or longer than %d "
                 "bytes", ARB_MAX_BOT_ENV_TEXT - 1);
        e->bad = true;
    } else if (match_env_add(&e->bot, one, why, sizeof why) != 0) {
        snprintf(e->why, sizeof e->why, "env: %s", why);
        e->bad = true;
    }
    return e->bad ? MHD_NO : MHD_YES;
}

/* startup_ms= and env= of a join: 0, or 400 with msg. */
static unsigned join_extras(struct MHD_Connection *c, int64_t *startup_ms, env_args *env, char *msg, size_t msglen)
{
    char v[24];
    int qs = query(c, "startup_ms", v, sizeof v);
    int n = 0;
    *startup_ms = 0;
    if (qs != 0 && (qs < 0 || arb_parse_int(v, 1, ARB_MAX_STARTUP_MS, &n) != 0)) {
        snprintf(msg, msglen, "startup_ms: expected milliseconds, 1 to %d", ARB_MAX_STARTUP_MS);
        return MHD_HTTP_BAD_REQUEST;
    }
    *startup_ms = n;
    memset(env, 0, sizeof *env);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, env_each, env);
    if (env->bad) {
        snprintf(msg, msglen, "%s", env->why);
        return MHD_HTTP_BAD_REQUEST;
    }
    return 0;
}

static web_result route_join(web_api *a, struct MHD_Connection *c, store *st, web_api_req *rq,
                             const route_args *ra)
{
    (void)a;
    char rep[8], msg[1400], err[1024], target[200];
    snprintf(target, sizeof target, "%s", ra->ladder);
    bot_upload up;
    unsigned status = upload_read(c, rq, &up, target, sizeof target, msg, sizeof msg);
    int qr = query(c, "replace", rep, sizeof rep);
    if (!status && (qr < 0 || (qr == 1 && strcmp(rep, "1") != 0 && strcmp(rep, "0") != 0))) {
        status = MHD_HTTP_BAD_REQUEST;
        snprintf(msg, sizeof msg, "replace: 1 or 0");
    }
    int64_t startup_ms = 0;
    env_args *env = calloc(1, sizeof *env);
    if (!status && !env) {
        status = MHD_HTTP_SERVICE_UNAVAILABLE;
        snprintf(msg, sizeof msg, "out of memory");
    }
    if (!status)
        status = join_extras(c, &startup_ms, env, msg, sizeof msg);
    if (status) {
        free(env);
        goto refuse;
    }
    store_api_join_in j = {.account = rq->acct.id, .ladder = ra->ladder, .base = up.name, .command = up.command,
                           .digest = up.digest, .address = rq->addr, .bundle = up.bundle, .len = up.blen,
                           .prog = up.prog, .replace = qr == 1 && strcmp(rep, "1") == 0,
                           .startup_ms = startup_ms, .env = env->bot.env};
    char entry[ARB_MAX_BOT_NAME + 16];
    int version = 0;
    int rc = store_api_join(st, &j, entry, sizeof entry, &version, err, sizeof err);
    free(env);
    if (rc != 0) {
        status = rc > 0 ? (unsigned)rc : MHD_HTTP_SERVICE_UNAVAILABLE;
        if (rc < 0)   /* the record's failure, for the operator (never a token) */
            fprintf(stderr, "arbiter: serve: API join %s: %s\n", target, err);
        snprintf(msg, sizeof msg, "%s", rc > 0 ? err : "the record cannot be written now: try again");
        goto refuse;
    }
    arb_buf b;
    arb_buf_init(&b, 2048);
    arb_buf_puts(&b, "{\"ladder\":");
    web_j(&b, ra->ladder);
    arb_buf_puts(&b, ",\"entry\":");
    web_j(&b, entry);
    arb_buf_printf(&b, ",\"version\":%d,\"digest\":\"%s\",\"status\":\"validating\",\"url\":", version, up.digest);
    char url[400];
    snprintf(url, sizeof url, "/api/v1/ladders/%s/entries/%s", ra->ladder, entry);
    web_j(&b, url);
    arb_buf_puts(&b, "}\n");
    upload_release(&up);
    web_result r = send_json(c, MHD_HTTP_CREATED, &b);
    arb_buf_release(&b);
    return r;
refuse:
    upload_release(&up);
    store_api_audit(st, rq->acct.name, "join", target, msg, rq->addr, false);
    if (status == MHD_HTTP_TOO_MANY_REQUESTS)
        return send_429(c, msg, 3600);
    return send_error(c, status, msg);
}

/* ---- registrations: an open tournament's entrant uploaded ---------------- */

/* A refusal after auth: its audit row (on the API's session), then the
 * answer (429 with Retry-After). */
static web_result refuse_audited(struct MHD_Connection *c, store *st, const web_api_req *rq, const char *action,
                                 const char *target, unsigned status, const char *msg)
{
    store_api_audit(st, rq->acct.name, action, target, msg, rq->addr, false);
    if (status == MHD_HTTP_TOO_MANY_REQUESTS)
        return send_429(c, msg, 3600);
    return send_error(c, status, msg);
}

/* A refusal of a record's write (store.h's codes): 404 not found, 429 a
 * share used up, 409 a conflict (closed, full, taken, not open), else 503. */
static web_result refuse_write(struct MHD_Connection *c, store *st, const web_api_req *rq, const char *action,
                               const char *target, int rc, const char *err)
{
    unsigned status = rc == ARB_ENOTFOUND ? MHD_HTTP_NOT_FOUND
                    : rc == ARB_ERANGE ? MHD_HTTP_TOO_MANY_REQUESTS
                    : rc == ARB_ESTATE || rc == ARB_ETOOBIG || rc == ARB_EEXIST ? MHD_HTTP_CONFLICT
                                                                                 : MHD_HTTP_SERVICE_UNAVAILABLE;
    return refuse_audited(c, st, rq, action, target, status,
                          status != MHD_HTTP_SERVICE_UNAVAILABLE ? err : "the record cannot be written now: try again");
}

/* The writer session, its next commit carrying the audit row of the
 * request's action; writer_end gives it back (the row spent or dropped). */
static store *writer_begin(web_api *a, const web_api_req *rq, const char *action, const char *target,
                           const char *detail)
{
    pthread_mutex_lock(&a->wlock);
    store_audit_next(a->writer, rq->acct.name, action, target, detail, rq->addr);
    return a->writer;
}

static void writer_end(web_api *a)
{
    store_audit_drop(a->writer);
    pthread_mutex_unlock(&a->wlock);
}

static web_result route_register(web_api *a, struct MHD_Connection *c, store *st, web_api_req *rq,
                                 const route_args *ra)
{
    char msg[1400], err[1024], target[200];
    snprintf(target, sizeof target, "%s", ra->ladder);
    bot_upload up;
    unsigned status = upload_read(c, rq, &up, target, sizeof target, msg, sizeof msg);
    /* a registration keeps no budget nor environment (019): refused, never dropped */
    if (!status && (MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "startup_ms")
                    || MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "env"))) {
        status = MHD_HTTP_BAD_REQUEST;
        snprintf(msg, sizeof msg, "startup_ms, env: a registration takes neither (the tournament's clock and a "
                 "bot's plain environment)");
    }
    if (status) {
        upload_release(&up);
        return refuse_audited(c, st, rq, "register", target, status, msg);
    }
    int64_t tid = 0;
    uint64_t seed;
    bool revealed;
    int found = store_tournament_named(st, ra->ladder, &tid, &seed, &revealed);
    if (found != 1) {
        upload_release(&up);
        snprintf(msg, sizeof msg, "no tournament named \"%s\"", ra->ladder);
        return found < 0 ? send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again")
                         : refuse_audited(c, st, rq, "register", target, MHD_HTTP_NOT_FOUND, msg);
    }
    /* what `arbiter register` adds, with the account, its audit row in
     * the same transaction */
    store_registration_in in = {.name = up.name, .command = up.command, .account = rq->acct.name,
                                .bundle = up.bundle, .len = up.blen, .prog = up.prog};
    char detail[200];
    snprintf(detail, sizeof detail, "program %s (%zu bytes)", up.digest, up.blen);
    int64_t id = 0;
    int rc = store_registration_add(writer_begin(a, rq, "register", target, detail), tid, &in, &id, err, sizeof err);
    writer_end(a);
    if (rc != 0) {
        upload_release(&up);
        return refuse_write(c, st, rq, "register", target, rc, err);
    }
    arb_buf b;
    arb_buf_init(&b, 2048);
    arb_buf_puts(&b, "{\"tournament\":");
    web_j(&b, ra->ladder);
    arb_buf_printf(&b, ",\"registration\":%" PRId64 ",\"name\":", id);
    web_j(&b, up.name);
    arb_buf_printf(&b, ",\"digest\":\"%s\",\"status\":\"registered\"}\n", up.digest);
    upload_release(&up);
    web_result r = send_json(c, MHD_HTTP_CREATED, &b);
    arb_buf_release(&b);
    return r;
}

/* ---- disputes ------------------------------------------------------------- */

/* A JSON body's members, read by the record's parser: the string of key
 * (NULL when absent), or *bad set with msg when it is there and not of
 * type want, or a member not in keys is there. */
typedef struct json_in {
    store_rows rows;
    bool read;
} json_in;

static unsigned json_members(store *st, const web_api_req *rq, const char *const *keys, json_in *j, char *msg,
                             size_t msglen)
{
    char err[512];
    memset(j, 0, sizeof *j);
    if (rq->overflow || rq->body.len != rq->expect) {
        snprintf(msg, msglen, "the body is not the %zu bytes its Content-Length said", rq->expect);
        return MHD_HTTP_BAD_REQUEST;
    }
    int rc = store_json_object(st, rq->body.data ? rq->body.data : "", rq->body.len, &j->rows, err, sizeof err);
    if (rc) {
        snprintf(msg, msglen, "%s", rc == ARB_EINVAL ? err : "the record cannot be read now: try again");
        return rc == ARB_EINVAL ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_SERVICE_UNAVAILABLE;
    }
    j->read = true;
    for (int i = 0; i < j->rows.nrows; i++) {
        const char *k = store_cell(&j->rows, i, 0);
        bool known = false;
        for (const char *const *w = keys; *w && !known; w++)
            known = strcmp(*w, k) == 0;
        if (!known) {
            snprintf(msg, msglen, "\"%.60s\": not a field of this body (it takes:", k);
            for (const char *const *w = keys; *w; w++) {
                size_t l = strlen(msg);
                snprintf(msg + l, msglen - l, " %s", *w);
            }
            size_t l = strlen(msg);
            snprintf(msg + l, msglen - l, ")");
            return MHD_HTTP_BAD_REQUEST;
        }
    }
    return 0;
}

/* Member key of type type ("string", "number"): its text, or NULL when
 * absent or of another type (*wrong). */
static const char *json_get(const json_in *j, const char *key, const char *type, bool *wrong)
{
    *wrong = false;
    for (int i = 0; i < j->rows.nrows; i++)
        if (strcmp(store_cell(&j->rows, i, 0), key) == 0) {
            if (strcmp(store_cell(&j->rows, i, 1), type) == 0)
                return store_cell(&j->rows, i, 2);
            *wrong = true;
            return NULL;
        }
    return NULL;
}

static void json_release(json_in *j)
{
    if (j->read)
        store_rows_release(&j->rows);
}

/* The request's JSON body read into j (true), or its refusal answered
 * and audited (false, *answer). */
static bool json_body(struct MHD_Connection *c, store *st, const web_api_req *rq, const char *const *keys,
                      const char *action, const char *target, json_in *j, web_result *answer)
{
    char msg[1400];
    unsigned status = json_members(st, rq, keys, j, msg, sizeof msg);
    if (!status)
        return true;
    json_release(j);
    *answer = refuse_audited(c, st, rq, action, target, status, msg);
    return false;
}

/* A reason as `arbiter dispute` takes one: 1..ARB_DISPUTE_MAX_REASON
 * bytes, no control character but newline and tab. */
static bool reason_ok(const char *r, char *msg, size_t msglen)
{
    size_t n = r ? strlen(r) : 0;
    if (n == 0 || n > ARB_DISPUTE_MAX_REASON) {
        snprintf(msg, msglen, "reason: a string of 1 to %u bytes is needed", ARB_DISPUTE_MAX_REASON);
        return false;
    }
    for (const unsigned char *ch = (const unsigned char *)r; *ch; ch++)
        if ((*ch < 0x20 && *ch != '\n' && *ch != '\t') || *ch == 0x7f) {
            snprintf(msg, msglen, "reason: holds a control character (byte %u)", *ch);
            return false;
        }
    return true;
}

static web_result route_dispute_open(web_api *a, struct MHD_Connection *c, store *st, web_api_req *rq)
{
    static const char *const keys[] = {"match", "reason", NULL};
    char msg[1400], err[1024], target[64] = "match ?";
    json_in j;
    web_result answer;
    unsigned status = 0;
    if (!json_body(c, st, rq, keys, "dispute open", target, &j, &answer))
        return answer;
    bool wm, wr;
    const char *ms = json_get(&j, "match", "number", &wm), *reason = json_get(&j, "reason", "string", &wr);
    int64_t match = 0;
    if (!ms || !web_parse_id(ms, strlen(ms), &match) || match <= 0)
        status = MHD_HTTP_BAD_REQUEST, snprintf(msg, sizeof msg, "match: the id of a match (a number) is needed");
    else if (snprintf(target, sizeof target, "match %" PRId64, match), !reason_ok(reason, msg, sizeof msg))
        status = MHD_HTTP_BAD_REQUEST;
    if (status) {
        json_release(&j);
        return refuse_audited(c, st, rq, "dispute open", target, status, msg);
    }
    /* a participant disputes only a match one of its entrants played; any
     * other is not there for it (404, as for a match that is not) */
    if (!privileged(&rq->acct)) {
        store_rows o;
        bool mine = false;
        if (store_api_match_owners(st, match, &o, err, sizeof err) != 0) {
            json_release(&j);
            return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
        }
        for (int i = 0; i < o.nrows && !mine; i++)
            mine = store_cell(&o, i, 2)[0] && arb_cell_int(store_cell(&o, i, 2)) == rq->acct.id;
        store_rows_release(&o);
        if (!mine) {
            json_release(&j);
            return refuse_audited(c, st, rq, "dispute open", target, MHD_HTTP_NOT_FOUND,
                                  "no such match of yours (a participant disputes its own entrants' matches)");
        }
    }
    int64_t id = 0;
    int rc = store_dispute_open(writer_begin(a, rq, "dispute open", target, reason), match, rq->acct.name, reason,
                                &id, err, sizeof err);
    writer_end(a);
    json_release(&j);
    if (rc != 0)
        return refuse_write(c, st, rq, "dispute open", target, rc, err);
    arb_buf b;
    arb_buf_init(&b, 256);
    arb_buf_printf(&b, "{\"dispute\":%" PRId64 ",\"match\":%" PRId64 ",\"state\":\"open\"}\n", id, match);
    web_result r = send_json(c, MHD_HTTP_CREATED, &b);
    arb_buf_release(&b);
    return r;
}

static web_result route_resolve(web_api *a, struct MHD_Connection *c, store *st, web_api_req *rq,
                                const route_args *ra)
{
    static const char *const keys[] = {"verdict", "reason", NULL};
    static const char *const verdicts[] = {"uphold", "void", "rerun"};
    static const char *const states[] = {"upheld", "voided", "rerun"};
    char msg[1400], err[1024], target[96], summary[1024];
    snprintf(target, sizeof target, "dispute %" PRId64, ra->dispute);
    json_in j;
    web_result answer;
    unsigned status = 0;
    if (!json_body(c, st, rq, keys, "dispute resolve", target, &j, &answer))
        return answer;
    bool wv, wr;
    const char *vs = json_get(&j, "verdict", "string", &wv), *reason = json_get(&j, "reason", "string", &wr);
    int v = -1;
    for (int i = 0; i < 3 && vs; i++)
        if (strcmp(vs, verdicts[i]) == 0)
            v = i;
    if (v < 0)
        status = MHD_HTTP_BAD_REQUEST, snprintf(msg, sizeof msg, "verdict: \"uphold\", \"void\" or \"rerun\"");
    else if (!reason_ok(reason, msg, sizeof msg))
        status = MHD_HTTP_BAD_REQUEST;
    int64_t match = 0;
    bool open = false;
    int found = status ? 1 : store_dispute_match(st, ra->dispute, &match, &open, err, sizeof err);
    if (!status && found < 0) {
        json_release(&j);
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    }
    if (!status && found == 0)
        status = MHD_HTTP_NOT_FOUND, snprintf(msg, sizeof msg, "no dispute %" PRId64, ra->dispute);
    else if (!status && !open)
        status = MHD_HTTP_CONFLICT, snprintf(msg, sizeof msg, "dispute %" PRId64 " is resolved already", ra->dispute);
    if (status) {
        json_release(&j);
        return refuse_audited(c, st, rq, "dispute resolve", target, status, msg);
    }
    /* as `arbiter dispute resolve MATCH --uphold|--void|--rerun --reason`:
     * one transaction (docs/disputes.md); a rerun leaves the match pending
     * for the scheduler that runs the tournament */
    char detail[ARB_DISPUTE_MAX_REASON + 64];
    snprintf(detail, sizeof detail, "%s (match %" PRId64 "): %s", verdicts[v], match, reason);
    int rc = store_dispute_resolve(writer_begin(a, rq, "dispute resolve", target, detail), match, (store_verdict)v,
                                   rq->acct.name, reason, summary, sizeof summary, err, sizeof err);
    writer_end(a);
    json_release(&j);
    if (rc != 0)
        return refuse_write(c, st, rq, "dispute resolve", target, rc, err);
    arb_buf b;
    arb_buf_init(&b, 2048);
    arb_buf_printf(&b, "{\"dispute\":%" PRId64 ",\"match\":%" PRId64 ",\"state\":\"%s\",\"summary\":", ra->dispute,
                   match, states[v]);
    web_j(&b, summary);
    arb_buf_puts(&b, "}\n");
    web_result r = send_json(c, MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return r;
}

static web_result route_disputes(struct MHD_Connection *c, store *st, const web_api_req *rq)
{
    static const char *const cols[] = {STORE_DISPUTES_COLS(STORE_COL_KEY3)};
    store_rows r;
    char err[512];
    if (store_dispute_list_by(st, 0, privileged(&rq->acct) ? NULL : rq->acct.name, &r, err, sizeof err) != 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    arb_buf b;
    arb_buf_init(&b, ARB_WEB_PAGE_CAP);
    arb_buf_puts(&b, "{\"disputes\":[");
    for (int i = 0; i < r.nrows; i++) {
        arb_buf_puts(&b, i ? ",{" : "{");
        for (int k = 0; k < STORE_DISPUTES_NCOLS; k++) {
            const char *v = store_cell(&r, i, k);
            arb_buf_printf(&b, "%s\"%s\":", k ? "," : "", cols[k]);
            if (k == STORE_DISPUTES_ID || k == STORE_DISPUTES_MATCH || k == STORE_DISPUTES_ROUND
                || k == STORE_DISPUTES_TABLE)
                arb_buf_printf(&b, "%lld", arb_cell_int(v));
            else
                web_j(&b, v);
        }
        arb_buf_puts(&b, "}");
    }
    store_rows_release(&r);
    arb_buf_puts(&b, "]}\n");
    web_result rc = send_json(c, MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return rc;
}

/* ---- tournaments: a file submitted --------------------------------------- */

/* The name a submitted file goes by in the checker's messages. */
#define SUBMIT_LABEL "tournament.yaml"

static web_result route_submit(web_api *a, struct MHD_Connection *c, store *st, web_api_req *rq)
{
    char msg[2200], err[2048], name[ARB_TN_MAX_NAME + 1] = "";
    if (rq->overflow || rq->body.len != rq->expect) {
        snprintf(msg, sizeof msg, "the body is not the %zu bytes its Content-Length said", rq->expect);
        return refuse_audited(c, st, rq, "submit", "tournaments", MHD_HTTP_BAD_REQUEST, msg);
    }
    if (!a->hooks.submit)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "this server cannot check tournament files");
    char detail[120];
    snprintf(detail, sizeof detail, "%zu bytes of YAML", rq->body.len);
    int64_t tid = 0;
    bool created = false, bad = false;
    store *w = writer_begin(a, rq, "submit", "tournaments", detail);
    int rc = a->hooks.submit(a->hooks.ctx, w, SUBMIT_LABEL, rq->body.data ? rq->body.data : "", rq->body.len,
                             rq->acct.name, &tid, &created, name, sizeof name, &bad, err, sizeof err);
    writer_end(a);
    if (rc != 0) {
        unsigned status = bad ? MHD_HTTP_BAD_REQUEST : rc == ARB_EEXIST ? MHD_HTTP_CONFLICT
                                                                         : MHD_HTTP_SERVICE_UNAVAILABLE;
        snprintf(msg, sizeof msg, "%s", status != MHD_HTTP_SERVICE_UNAVAILABLE ? err
                                        : "the record cannot be written now: try again");
        return refuse_audited(c, st, rq, "submit", "tournaments", status, msg);
    }
    arb_buf b;
    arb_buf_init(&b, 1024);
    arb_buf_puts(&b, "{\"tournament\":");
    web_j(&b, name);
    arb_buf_printf(&b, ",\"id\":%" PRId64 ",\"created\":%s,\"url\":\"/t/%" PRId64 "\"}\n", tid,
                   created ? "true" : "false", tid);
    web_result r = send_json(c, created ? MHD_HTTP_CREATED : MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return r;
}

/* ---- logs and transcripts ------------------------------------------------- */

typedef struct logs_ctx {
    arb_buf *b;
    unsigned mine;               /* bit: a bot of the entry's */
    int n;
} logs_ctx;

static void logs_each(void *arg, int bot, const char *ended, const char *err, size_t errlen)
{
    logs_ctx *l = arg;
    if (bot < 0 || bot >= 32 || !(l->mine & (1u << bot)))
        return;
    arb_buf_printf(l->b, "%s{\"seat\":%d,\"ended\":", l->n++ ? "," : "", bot);
    web_j(l->b, ended);
    arb_buf_puts(l->b, ",\"stderr\":");
    web_json(l->b, err, errlen);
    arb_buf_puts(l->b, "}");
}

/* The slots of an array text "{0,2}" as a mask. */
static unsigned slot_mask(const char *arr)
{
    unsigned m = 0;
    for (const char *p = arr; *p;) {
        if (*p >= '0' && *p <= '9') {
            long v = strtol(p, (char **)&p, 10);
            if (v >= 0 && v < 32)
                m |= 1u << v;
        } else {
            p++;
        }
    }
    return m;
}

static web_result route_logs(web_api *a, struct MHD_Connection *c, store *st, const web_api_req *rq,
                             const route_args *ra)
{
    char mq[24], err[512];
    int64_t only = 0;
    int q = query(c, "match", mq, sizeof mq);
    if (q < 0 || (q == 1 && (!web_parse_id(mq, strlen(mq), &only) || only <= 0)))
        return send_error(c, MHD_HTTP_BAD_REQUEST, "match: a match id");
    int64_t tid, owner;
    int entrant;
    int found = store_api_entry(st, ra->ladder, ra->entry, &tid, &entrant, &owner, err, sizeof err);
    if (found < 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    if (!found || (owner != rq->acct.id && !privileged(&rq->acct)))
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such entry of yours");
    store_rows m;
    if (store_api_entry_matches(st, tid, entrant, only, &m, err, sizeof err) != 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    arb_buf b;
    arb_buf_init(&b, ARB_WEB_PAGE_CAP);
    arb_buf_puts(&b, "{\"entry\":");
    web_j(&b, ra->entry);
    arb_buf_puts(&b, ",\"matches\":[");
    for (int i = 0; i < m.nrows; i++) {
        arb_buf_printf(&b, "%s{\"match\":%lld,\"role\":", i ? "," : "", arb_cell_int(store_cell(&m, i, 0)));
        web_j(&b, store_cell(&m, i, 1));
        arb_buf_puts(&b, ",\"bots\":[");
        uint8_t *data = NULL;
        size_t len = 0;
        char why[256];
        if (a->hooks.botends
            && store_transcript_load(st, store_cell(&m, i, 3), store_cell(&m, i, 4), &data, &len, why, sizeof why)
                   == 0) {
            logs_ctx l = {&b, slot_mask(store_cell(&m, i, 2)), 0};
            a->hooks.botends(a->hooks.ctx, data, len, logs_each, &l, why, sizeof why);
        }
        free(data);
        arb_buf_puts(&b, "]}");
    }
    store_rows_release(&m);
    arb_buf_puts(&b, "]}\n");
    web_result rc = send_json(c, MHD_HTTP_OK, &b);
    arb_buf_release(&b);
    return rc;
}

static web_result route_transcript(web_api *a, struct MHD_Connection *c, store *st, const web_api_req *rq,
                                   const route_args *ra)
{
    store_rows o;
    char err[512];
    if (store_api_match_owners(st, ra->match, &o, err, sizeof err) != 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
    unsigned hide = 0;
    bool owns = false, validation = false;
    for (int i = 0; i < o.nrows; i++) {
        int slot = (int)arb_cell_int(store_cell(&o, i, 0));
        const char *own = store_cell(&o, i, 2);
        bool mine = own[0] && arb_cell_int(own) == rq->acct.id;
        owns |= mine;
        validation |= strcmp(store_cell(&o, i, 3), "validation") == 0;
        if (!mine && !privileged(&rq->acct) && slot >= 0 && slot < 32)
            hide |= 1u << slot;
    }
    int nrows = o.nrows;
    store_rows_release(&o);
    if (nrows == 0 || (validation && !owns && !privileged(&rq->acct)))
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such match, or not one you may read");
    char digest[72];
    bool done;
    uint8_t *data = NULL;
    size_t len = 0;
    int st_code = web_match_transcript(st, ra->match, NULL, digest, &done, &data, &len, err, sizeof err);
    if (st_code != 0 || !a->hooks.json_lines_from)
        return send_error(c, st_code ? (unsigned)st_code : MHD_HTTP_NOT_FOUND, st_code ? err : "no transcript");
    arb_buf b;
    arb_buf_init(&b, ARB_WEB_TRANSCRIPT_CAP);
    web_lines at = {0};
    at.hide_stderr = hide;
    int rc = a->hooks.json_lines_from(a->hooks.ctx, data, len, &at, &b, SIZE_MAX, err, sizeof err);
    free(data);
    web_result r;
    if (rc != 0) {
        r = send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, err);
    } else {
        struct MHD_Response *resp = MHD_create_response_from_buffer(b.len, b.data ? b.data : (void *)"",
                                                                    MHD_RESPMEM_MUST_COPY);
        r = MHD_NO;
        if (resp && web__secure(resp) == 0
            && MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/x-ndjson") == MHD_YES
            && MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "private, no-store") == MHD_YES)
            r = MHD_queue_response(c, MHD_HTTP_OK, resp);
        if (resp)
            MHD_destroy_response(resp);
    }
    arb_buf_release(&b);
    return r;
}

/* ---- the handler ---------------------------------------------------------- */

/* The types a bundle may come as. */
static const char *upload_type(const char *ct)
{
    static const char *const ok[] = {"application/x-arbiter-bundle", "application/x-tar", "application/gzip",
                                     "application/zip"};
    if (!ct)
        return NULL;
    size_t n = strcspn(ct, "; \t");
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strlen(ok[i]) == n && strncasecmp(ct, ok[i], n) == 0)
            return ok[i];
    return NULL;
}

/* Whether Content-Type ct is type (parameters such as charset aside). */
static bool type_is(const char *ct, const char *type)
{
    size_t n = ct ? strcspn(ct, "; \t") : 0;
    return ct && strlen(type) == n && strncasecmp(ct, type, n) == 0;
}

/* Whether the record has accounts, read at most every 5 s. */
static int api_on(web_api *a, store *st)
{
    pthread_mutex_lock(&a->lock);
    bool fresh = a->on >= 0 && arb_now_ns() - a->on_ns < 5000000000ull;
    int on = a->on;
    pthread_mutex_unlock(&a->lock);
    if (fresh)
        return on;
    on = store_api_on(st);
    pthread_mutex_lock(&a->lock);
    a->on = on < 0 ? -1 : on;
    a->on_ns = arb_now_ns();
    pthread_mutex_unlock(&a->lock);
    return on;
}

/* The first call: everything decided from the header. NULL state is set
 * only when the request goes on to its body or its answer. */
static web_result first(web_api *a, struct MHD_Connection *c, const char *url, const char *method,
                        web_api_req **state, const wcl_addr *client)
{
    route_args ra;
    bool post, bad_method;
    const char *u = url + 7;   /* past "/api/v1" */
    int route = route_of(u, method, &ra, &post, &bad_method);
    char addr[64];
    wcl_format(client, addr, sizeof addr);
    int si = api_take(a);
    if (si < 0)
        return send_error_hdr(c, MHD_HTTP_SERVICE_UNAVAILABLE, "every API session is busy: try again in a moment",
                              MHD_HTTP_HEADER_RETRY_AFTER, "1", false);
    store *st = a->session[si];
    web_result rc;
    int on = api_on(a, st);
    if (on <= 0) {
        api_give(a, si);
        return on < 0 ? send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again")
                      : send_error(c, MHD_HTTP_NOT_FOUND, "this record has no accounts: the API is off");
    }
    if (route == R_NONE) {
        api_give(a, si);
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such route of the API (docs/api.md)");
    }
    if (bad_method) {
        api_give(a, si);
        return send_error_hdr(c, MHD_HTTP_METHOD_NOT_ALLOWED, post ? "this route takes POST" : "this route takes GET",
                              MHD_HTTP_HEADER_ALLOW, post ? "POST" : "GET, HEAD", false);
    }
    /* the address's bad tokens: past the bound, not even looked up */
    uint8_t akey[16];
    memcpy(akey, client->b, 16);
    if (rate_count(a, akey, false, true) >= ARB_API_FAILURES_PER_MIN) {
        api_give(a, si);
        return send_429(c, "too many bad tokens from your address: try again later", to_next_minute());
    }
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    char hash[65];
    store_account acct;
    int found = 0;
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0 && store_token_wellformed(auth + 7)) {
        store_token_hash(auth + 7, hash);
        char err[256];
        found = store_api_auth(st, hash, &acct, err, sizeof err);
        if (found < 0) {
            api_give(a, si);
            return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the record cannot be read now: try again");
        }
    }
    if (!found) {
        api_give(a, si);
        rate_count(a, akey, false, false);
        return send_401(c, !auth ? "Authorization: Bearer TOKEN is needed (arbiter account add prints one)"
                                 : "the token is not one of this record's accounts (wrong, revoked or rotated)");
    }
    uint8_t kkey[16];
    key_of_account(acct.id, kkey);
    if (rate_count(a, kkey, true, false) > ARB_API_REQUESTS_PER_MIN) {
        if (post)
            store_api_audit(st, acct.name, action_of(route), u, "refused: rate limit", addr, false);
        api_give(a, si);
        return send_429(c, "too many requests from your account this minute: try again later", to_next_minute());
    }
    web_api_req *rq = calloc(1, sizeof *rq);
    if (!rq) {
        api_give(a, si);
        return MHD_NO;
    }
    rq->route = route;
    rq->acct = acct;
    snprintf(rq->addr, sizeof rq->addr, "%s", addr);
    snprintf(rq->url, sizeof rq->url, "%s", u);
    /* the roles of the routes only some may take: refused before a body
     * is read */
    const char *denied = route == R_RESOLVE && !privileged(&acct) ? "resolving a dispute is an arbiter's or an organiser's"
                       : route == R_SUBMIT && acct.role != STORE_ORGANISER ? "submitting a tournament is an organiser's"
                                                                            : NULL;
    if (denied) {
        store_api_audit(st, acct.name, action_of(route), u, denied, addr, false);
        api_give(a, si);
        free(rq);
        return send_error(c, MHD_HTTP_FORBIDDEN, denied);
    }
    if (route == R_JOIN || route == R_REGISTER || route == R_DISPUTE_OPEN || route == R_RESOLVE || route == R_SUBMIT) {
        /* each body route's bound and types (docs/api.md) */
        bool json = route == R_DISPUTE_OPEN || route == R_RESOLVE, yaml = route == R_SUBMIT;
        size_t max = json ? ARB_API_JSON_MAX : yaml ? ARB_API_YAML_MAX : ARB_API_BODY_MAX;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
        char *end = NULL;
        unsigned long long len = cl ? strtoull(cl, &end, 10) : 0;
        const char *why = NULL;
        unsigned status = 0;
        char msg[300];
        bool close = false;
        if (!cl || !*cl || *end || cl[0] == '-')
            status = MHD_HTTP_LENGTH_REQUIRED, why = json ? "Content-Length is needed: the JSON body's size"
                                                 : yaml ? "Content-Length is needed: the file's size"
                                                        : "Content-Length is needed: the bundle's size, sent whole";
        else if (len > max) {
            snprintf(msg, sizeof msg, "the body's %llu bytes are more than the %zu %s may have", len, max,
                     json ? "a JSON body" : yaml ? "a tournament file" : "an upload");
            status = 413u, why = msg, close = true;
        } else if (json ? !type_is(ct, "application/json") : yaml ? !type_is(ct, "application/yaml")
                                                                  : !(rq->type = upload_type(ct)))
            status = MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
            why = json ? "Content-Type: application/json"
                : yaml ? "Content-Type: application/yaml"
                       : "Content-Type: application/x-arbiter-bundle, application/x-tar, application/gzip or "
                         "application/zip";
        /* an upload past the account's day (uploads, or bytes with this
         * one's Content-Length) is refused now, before its body costs the
         * server its bandwidth and an archive's decoding; the join's own
         * check, in its transaction, stays the one that counts */
        store_quota qt;
        if (!status && (route == R_JOIN || route == R_REGISTER)
            && store_api_quota(st, acct.id, &qt, msg, sizeof msg) == 0
            && (qt.uploads_today >= qt.uploads_per_day || qt.bytes_today + (long long)len > qt.bytes_per_day)) {
            snprintf(msg, sizeof msg, qt.uploads_today >= qt.uploads_per_day
                                          ? "this account's uploads for today are used up (%lld of %lld): try again "
                                            "tomorrow (UTC)"
                                          : "this upload's bytes would pass this account's bytes for today (%lld of "
                                            "%lld used): try again tomorrow (UTC)",
                     qt.uploads_today >= qt.uploads_per_day ? qt.uploads_today : qt.bytes_today,
                     qt.uploads_today >= qt.uploads_per_day ? qt.uploads_per_day : qt.bytes_per_day);
            status = MHD_HTTP_TOO_MANY_REQUESTS, why = msg, close = true;
        }
        if (status) {
            store_api_audit(st, acct.name, action_of(route), route == R_JOIN ? ra.ladder : u, why, addr, false);
            api_give(a, si);
            free(rq);
            if (status == MHD_HTTP_TOO_MANY_REQUESTS) {
                time_t now = time(NULL);
                char after[24];
                snprintf(after, sizeof after, "%lld", (long long)(86400 - now % 86400));   /* the next UTC day */
                return send_error_hdr(c, status, why, MHD_HTTP_HEADER_RETRY_AFTER, after, true);
            }
            return send_error_hdr(c, status, why, NULL, NULL, close);
        }
        /* the bodies held at once: reserved before a byte is read */
        pthread_mutex_lock(&a->lock);
        bool room = a->body_bytes + (size_t)len <= ARB_API_BODIES_MAX;
        if (room)
            a->body_bytes += (size_t)len;
        pthread_mutex_unlock(&a->lock);
        if (!room) {
            api_give(a, si);
            free(rq);
            return send_error_hdr(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                                  "the server holds as many uploads as it may at once: try again in a moment",
                                  MHD_HTTP_HEADER_RETRY_AFTER, "5", true);
        }
        rq->api = a;
        rq->reserved = (size_t)len;
        rq->expect = (size_t)len;
        arb_buf_init(&rq->body, rq->expect + 1);
        rq->reading = true;
        api_give(a, si);
        *state = rq;
        return MHD_YES;   /* the body next */
    }
    if (route == R_RETIRE) {
        /* no body is read: one that comes is too large */
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strcmp(cl, "0") != 0) {
            store_api_audit(st, acct.name, "retire", u, "refused: a body", addr, false);
            api_give(a, si);
            free(rq);
            return send_error_hdr(c, 413u, "retire takes no body", NULL, NULL, true);
        }
        rq->reading = true;
        api_give(a, si);
        *state = rq;
        return MHD_YES;
    }
    switch (route) {
    case R_ME: rc = route_me(a, c, st, rq); break;
    case R_ENTRIES: rc = route_entries(c, st, rq); break;
    case R_LOGS: rc = route_logs(a, c, st, rq, &ra); break;
    case R_DISPUTES: rc = route_disputes(c, st, rq); break;
    default: rc = route_transcript(a, c, st, rq, &ra); break;
    }
    api_give(a, si);
    web_api_done(rq);
    return rc;
}

web_result web_api_handle(web_api *a, struct MHD_Connection *c, const char *url, const char *method,
                          const char *upload, size_t *upload_size, web_api_req **state, const wcl_addr *client)
{
    web_api_req *rq = *state;
    if (!rq)
        return first(a, c, url, method, state, client);
    if (*upload_size) {   /* a piece of the body: never past its Content-Length */
        if (rq->body.len + *upload_size > rq->expect || arb_buf_append(&rq->body, upload, *upload_size) != 0)
            rq->overflow = true;
        *upload_size = 0;
        return MHD_YES;
    }
    if (!rq->reading)
        return MHD_YES;   /* answered already */
    rq->reading = false;
    route_args ra;
    bool post, bad;
    route_of(rq->url, method, &ra, &post, &bad);
    int si = api_take(a);
    if (si < 0)
        return send_error_hdr(c, MHD_HTTP_SERVICE_UNAVAILABLE, "every API session is busy: try again in a moment",
                              MHD_HTTP_HEADER_RETRY_AFTER, "1", false);
    store *st = a->session[si];
    web_result rc;
    switch (rq->route) {
    case R_JOIN: rc = route_join(a, c, st, rq, &ra); break;
    case R_REGISTER: rc = route_register(a, c, st, rq, &ra); break;
    case R_DISPUTE_OPEN: rc = route_dispute_open(a, c, st, rq); break;
    case R_RESOLVE: rc = route_resolve(a, c, st, rq, &ra); break;
    case R_SUBMIT: rc = route_submit(a, c, st, rq); break;
    default: rc = route_retire(c, st, rq, &ra); break;
    }
    api_give(a, si);
    return rc;
}
