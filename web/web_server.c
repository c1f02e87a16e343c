/* web_server.c — `arbiter serve`: the pages and API of web_pages.c on
 * libmicrohttpd, read only and bounded (docs/web.md, "Serving a crowd"):
 * GET and HEAD only, its own routes only (assets by name from the binary,
 * never a path from the URL), security headers on every answer; renders
 * on a pool of read-only sessions with no lock around them, kept in a
 * cache by what they show (web_cache.c); per-client bounds answered 429
 * and global ones 503, both with Retry-After, never a silent close
 * (web_clients.c); a header deadline that cuts slow senders; the live
 * event streams (Server-Sent Events), ended when their tournament is; a
 * match's transcript streamed as JSON lines a chunk at a time, never
 * built whole (docs/web.md, "Streamed transcripts"). */
#include "web_int.h"
#include "web_srv.h"
#include "web_api.h"
#include "arb_http.h"
#include "arb_time.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif


/* A connection the deadline reaper watches. */
typedef struct web_conn {
    int fd;
    uint64_t since_ns;           /* opened, or its last answer completed: the header's clock */
    atomic_bool in_request;      /* its header came whole: the deadline no longer applies */
    bool cut;                    /* the reaper answered it 408 */
    struct web_conn *prev, *next;
} web_conn;

struct web_server {
    struct MHD_Daemon *mhd;
    web_hooks hooks;
    /* the pool of read-only sessions: a render takes one and gives it back */
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_freed;
    store *session[ARB_WEB_POOL_SESSIONS];
    bool busy[ARB_WEB_POOL_SESSIONS];
    /* the record's change number (store_web_change), read at most once a
     * second, under sig_lock; "" when it cannot be read (nothing cached) */
    pthread_mutex_t sig_lock;
    char sig[64];
    uint64_t sig_ns;             /* when it was read (0: read again now) */
    wc_cache cache;
    wcl_table clients;           /* per-client counts in flight */
    wcl_net trusted[ARB_WEB_MAX_TRUSTED_PROXIES];
    int ntrusted;
    int nice;                    /* web_options.nice */
    atomic_int heavy;            /* heavy renders in flight (ARB_WEB_HEAVY_MAX) */
    atomic_size_t stream_bytes;  /* raw transcripts held by streams (ARB_WEB_STREAM_BYTES) */
    atomic_int streams;          /* event streams open (ARB_WEB_MAX_EVENT_STREAMS) */
    /* the progress last read per tournament streamed, under live_lock: the
     * streams of one tournament share a read a second (web_live_progress) */
    pthread_mutex_t live_lock;
    struct {
        int64_t tid;
        uint64_t at_ns;
        web_progress pg;
    } live[ARB_WEB_MAX_EVENT_STREAMS];
    /* the connections open, for the header deadline, under conn_lock */
    pthread_mutex_t conn_lock;
    pthread_cond_t conn_stop;
    web_conn *conns;
    atomic_int nconns;
    pthread_t reaper;
    bool reaping;
    char (*asset_etag)[24];      /* the embedded assets' ETags, by their index */
    atomic_bool stopping;        /* set before the daemon stops: streams end */
    int port;
    web_api *api;                /* the participant API (/api/v1/, web_api.c) */
    char *tls_cert, *tls_key;    /* PEM, when serving HTTPS */
    atomic_flag said;            /* the library's first message is in why */
    char why[256];
};

/* What a request holds until it completes (MHD_OPTION_NOTIFY_COMPLETED). */
typedef struct web_req {
    web_conn *conn;
    int client;                  /* its slot in w->clients, -1 none */
    bool request, heavy, stream; /* the counts it took */
    bool heavy_all;              /* ... and its share of ARB_WEB_HEAVY_MAX (given back after its render) */
    bool head;                   /* a HEAD: headers only */
    bool api;                    /* a request of the participant API: api_state is its */
    web_api_req *api_state;
} web_req;

#define SEC_NS 1000000000ull

static const char NDJSON[] = "application/x-ndjson";
/* What never changes (a finished match's transcript) */
static const char IMMUTABLE[] = "public, max-age=31536000, immutable";

/* The library's first message: why starting failed (as arb_http.c). */
static void web_logger(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void web_logger(void *cls, const char *fmt, va_list ap)
{
    web_server *w = cls;
    if (!atomic_flag_test_and_set(&w->said))
        vsnprintf(w->why, sizeof w->why, fmt, ap);
}

/* ---- answers ------------------------------------------------------------- */

/* The headers every answer carries: no script but ours, no sniffing, no
 * referrer leaving for another site. */
int web__secure(struct MHD_Response *r)
{
    static const char *const h[][2] = {
        {"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Frame-Options", "DENY"},
    };
    for (size_t i = 0; i < sizeof h / sizeof *h; i++)
        if (MHD_add_response_header(r, h[i][0], h[i][1]) != MHD_YES)
            return -1;
    return 0;
}

/* Queue r with the usual headers, type and cache (either may be NULL),
 * and give it up. */
static web_result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r, const char *type,
                        const char *cache)
{
    web_result rc = MHD_NO;
    if (!r)
        return MHD_NO;
    if (web__secure(r) == 0 && (!type || MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) == MHD_YES)
        && (!cache || MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cache) == MHD_YES)
        && (status != MHD_HTTP_METHOD_NOT_ALLOWED || MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") == MHD_YES))
        rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static struct MHD_Response *text_response(const char *text)
{
    return MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
}

static web_result send_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    return queue(c, status, text_response(text), "text/plain; charset=utf-8", "no-store");
}

/* The same for a message of the moment (copied), a line of it. */
static web_result send_text_copy(struct MHD_Connection *c, unsigned status, const char *text)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%s\n", text);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    return queue(c, status, MHD_create_response_from_buffer(len, line, MHD_RESPMEM_MUST_COPY),
                 "text/plain; charset=utf-8", "no-store");
}

/* A bound reached: 429 (this client's) or 503 (the server's), with
 * Retry-After; close: the connection is closed after it (the server is
 * busy with connections). */
static web_result send_limit(struct MHD_Connection *c, unsigned status, const char *text, bool close)
{
    struct MHD_Response *r = text_response(text);
    char after[16];
    snprintf(after, sizeof after, "%u", ARB_WEB_RETRY_AFTER_S);
    if (r && (MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, after) != MHD_YES
              || (close && MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES))) {
        MHD_destroy_response(r);
        return MHD_NO;
    }
    return queue(c, status, r, "text/plain; charset=utf-8", "no-store");
}

/* Whether the request's If-None-Match names etag (or is "*"). */
static bool not_modified(struct MHD_Connection *c, const char *etag)
{
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    if (!inm)
        return false;
    size_t n = strlen(etag);
    for (const char *p = inm; *p;) {
        p += strspn(p, " \t,");
        if (strncmp(p, "W/", 2) == 0)
            p += 2;
        size_t len = strcspn(p, ",");
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if ((len == 1 && *p == '*') || (len == n && strncmp(p, etag, n) == 0))
            return true;
        p += strcspn(p, ",");
    }
    return false;
}

/* 304 for a cached answer the client has, else the answer: its headers
 * (ETag, Cache-Control) either way. */
static web_result send_tagged(struct MHD_Connection *c, unsigned status, const char *type, const void *data,
                              size_t len, const char *etag, const char *cache, MHD_ContentReaderFreeCallback done,
                              void *cls)
{
    /* etag may live in what done gives back (a cache entry): copied first */
    char tag[64];
    snprintf(tag, sizeof tag, "%s", etag);
    bool same = status == MHD_HTTP_OK && not_modified(c, tag);
    struct MHD_Response *r = same ? MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT)
                           : done ? MHD_create_response_from_buffer_with_free_callback_cls(len, (void *)data, done, cls)
                                  : MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_PERSISTENT);
    if (done && (same || !r))
        done(cls);
    if (!r)
        return MHD_NO;
    if (status == MHD_HTTP_OK && MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, tag) != MHD_YES) {
        MHD_destroy_response(r);
        return MHD_NO;
    }
    return queue(c, same ? MHD_HTTP_NOT_MODIFIED : status, r, same ? NULL : type, cache);
}

/* ---- the session pool ---------------------------------------------------- */

/* A free session's index, waiting up to ARB_WEB_POOL_WAIT_MS; -1 none. */
static int pool_take(web_server *w)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)ARB_WEB_POOL_WAIT_MS * 1000000u;
    until.tv_sec += (time_t)(ns / SEC_NS);
    until.tv_nsec = (long)(ns % SEC_NS);
    int got = -1;
    pthread_mutex_lock(&w->pool_lock);
    for (;;) {
        for (int i = 0; i < (int)ARB_WEB_POOL_SESSIONS && got < 0; i++)
            if (!w->busy[i])
                got = i;
        if (got >= 0 || pthread_cond_timedwait(&w->pool_freed, &w->pool_lock, &until) != 0)
            break;
    }
    if (got >= 0)
        w->busy[got] = true;
    pthread_mutex_unlock(&w->pool_lock);
    return got;
}

static void pool_give(web_server *w, int i)
{
    if (i < 0)
        return;
    pthread_mutex_lock(&w->pool_lock);
    w->busy[i] = false;
    pthread_cond_signal(&w->pool_freed);
    pthread_mutex_unlock(&w->pool_lock);
}

/* The record's change number into out ("" unknown), read at most once a
 * second: the first request to find it due claims the read (the others go
 * on with the number they find, holding no session meanwhile) and takes a
 * session into *held for it (the caller gives it back, or renders on it). */
static void change_number(web_server *w, char out[64], int *held)
{
    pthread_mutex_lock(&w->sig_lock);
    bool due = w->sig_ns == 0 || arb_now_ns() - w->sig_ns >= SEC_NS;
    if (due)
        w->sig_ns = arb_now_ns();   /* claimed: one reader a second */
    snprintf(out, 64, "%s", w->sig);
    pthread_mutex_unlock(&w->sig_lock);
    if (!due)
        return;
    if (*held < 0)
        *held = pool_take(w);
    char now[sizeof w->sig], err[256];
    int rc = *held < 0 ? -1 : store_web_change(w->session[*held], now, sizeof now, err, sizeof err);
    pthread_mutex_lock(&w->sig_lock);
    if (rc == 0)
        snprintf(w->sig, sizeof w->sig, "%s", now);
    else
        w->sig_ns = 0;              /* not read: the next request tries */
    snprintf(out, 64, "%s", rc == 0 ? w->sig : "");
    pthread_mutex_unlock(&w->sig_lock);
}

/* The change number is read again at the next request (an event stream
 * saw the record change: the standings its page fetches next are new). */
static void change_seen(web_server *w)
{
    pthread_mutex_lock(&w->sig_lock);
    w->sig_ns = 0;
    pthread_mutex_unlock(&w->sig_lock);
}

/* ---- the live stream ----------------------------------------------------- */

typedef struct stream {
    web_server *w;
    web_live lv;
    arb_buf pending;             /* events not yet handed to the library */
    size_t off;
    uint64_t last_poll, last_sent;
    bool polled, ending;         /* ending: the end event is in pending */
} stream;

static double since(uint64_t t) { return (double)(arb_now_ns() - t) / 1e9; }

/* Tournament tid's progress into *pg, read on session st at most once a
 * second whatever the number of streams watching it (under live_lock).
 * The oldest entry gives way to a tournament not in the table. */
static int live_progress(web_server *w, store *st, int64_t tid, web_progress *pg)
{
    size_t n = sizeof w->live / sizeof *w->live, slot = n, oldest = 0;
    for (size_t i = 0; i < n && slot == n; i++) {
        if (w->live[i].tid == tid)
            slot = i;
        else if (w->live[oldest].tid != 0 && (w->live[i].tid == 0 || w->live[i].at_ns < w->live[oldest].at_ns))
            oldest = i;
    }
    if (slot < n && since(w->live[slot].at_ns) < 1.0) {
        *pg = w->live[slot].pg;
        return 0;
    }
    web_progress before = slot < n ? w->live[slot].pg : (web_progress){0};
    if (slot == n)
        slot = oldest;
    int rc = web_live_progress(st, tid, &w->live[slot].pg);
    if (rc) {
        w->live[slot].tid = 0;
        return rc;
    }
    w->live[slot].tid = tid;
    w->live[slot].at_ns = arb_now_ns();
    *pg = w->live[slot].pg;
    if (strcmp(before.json, pg->json) != 0 || strcmp(before.last, pg->last) != 0)
        change_seen(w);
    return 0;
}

/* One poll of the record into s->pending: 0, ARB_ENOTFOUND, or < 0. No
 * free session: nothing this time (the next poll is a second later). */
static int stream_poll(stream *s)
{
    web_server *w = s->w;
    int si = pool_take(w);
    if (si < 0)
        return 0;
    web_progress pg;
    pthread_mutex_lock(&w->live_lock);
    int rc = live_progress(w, w->session[si], s->lv.tid, &pg);
    pthread_mutex_unlock(&w->live_lock);
    if (rc == 0)
        rc = web_live_poll(w->session[si], &s->lv, &pg, &s->pending);
    pool_give(w, si);
    if (rc == 0 && pg.over) {
        /* the tournament is over: a last word, then the stream ends */
        arb_buf_printf(&s->pending, "event: end\ndata: %s\n\n", pg.json);
        s->ending = true;
    }
    return rc;
}

/* The library asks for the stream's next bytes on the connection's own
 * thread (a thread per connection), so waiting here stalls no one else:
 * the record is polled once a second. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    stream *s = cls;
    (void)pos;
    for (;;) {
        if (s->off < s->pending.len) {
            size_t n = s->pending.len - s->off < max ? s->pending.len - s->off : max;
            memcpy(buf, s->pending.data + s->off, n);
            s->off += n;
            s->last_sent = arb_now_ns();
            return (ssize_t)n;
        }
        if (atomic_load(&s->w->stopping) || s->ending)
            return MHD_CONTENT_READER_END_OF_STREAM;
        arb_buf_reset(&s->pending);
        s->off = 0;
        if (s->polled && since(s->last_poll) < 1.0) {
            struct timespec nap = {0, 100 * 1000 * 1000};
            nanosleep(&nap, NULL);
            continue;
        }
        int rc = stream_poll(s);
        s->last_poll = arb_now_ns();
        s->polled = true;
        if (rc == ARB_ENOTFOUND)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (rc)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        if (s->pending.len == 0 && since(s->last_sent) >= ARB_WEB_KEEPALIVE_S)
            arb_buf_puts(&s->pending, ": keepalive\n\n");
    }
}

static void stream_free(void *cls)
{
    stream *s = cls;
    atomic_fetch_sub(&s->w->streams, 1);
    arb_buf_release(&s->pending);
    free(s);
}

static web_result serve_events(web_server *w, struct MHD_Connection *c, int64_t tid)
{
    if (atomic_fetch_add(&w->streams, 1) >= (int)ARB_WEB_MAX_EVENT_STREAMS) {
        atomic_fetch_sub(&w->streams, 1);
        return send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "too many live pages open: try again later\n", false);
    }
    stream *s = calloc(1, sizeof *s);
    if (!s) {
        atomic_fetch_sub(&w->streams, 1);
        return send_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
    }
    s->w = w;
    s->lv.tid = tid;
    arb_buf_init(&s->pending, 1u << 20);
    s->last_sent = arb_now_ns();
    /* the stream tells the browser how soon to come back after a drop */
    arb_buf_puts(&s->pending, "retry: 3000\n\n");
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, s, stream_free);
    if (!r) {
        stream_free(s);
        return MHD_NO;
    }
    return queue(c, MHD_HTTP_OK, r, "text/event-stream", "no-store");
}

/* The ID of a URL pre + ID + post, else 0. */
static int64_t id_between(const char *url, const char *pre, const char *post)
{
    size_t n = strlen(url), a = strlen(pre), b = strlen(post);
    int64_t id;
    if (n <= a + b || strncmp(url, pre, a) != 0 || strcmp(url + n - b, post) != 0
        || !web_parse_id(url + a, n - a - b, &id))
        return 0;
    return id;
}

/* "/api/t/ID/events": the tournament's id, else 0. */
static int64_t events_of(const char *url) { return id_between(url, "/api/t/", "/events"); }

/* "/api/m/ID/transcript": the match's id, else 0. */
static int64_t transcript_of(const char *url) { return id_between(url, "/api/m/", "/transcript"); }

/* The URL as it came: no percent-decoding. Every route is plain ASCII, so
 * a '%' is never one of ours (404), and "%00", "%2e%2e" or "%2f" cannot
 * turn into a NUL, a "..", a '/' or another route. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *uri)
{
    (void)cls;
    (void)c;
    return strlen(uri);
}

/* ---- clients and their bounds -------------------------------------------- */

typedef struct xff_acc {
    arb_buf b;
} xff_acc;

static web_result xff_each(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    xff_acc *x = cls;
    (void)kind;
    if (key && value && strcasecmp(key, "X-Forwarded-For") == 0) {
        if (x->b.len)
            arb_buf_putc(&x->b, ',');
        arb_buf_puts(&x->b, value);
    }
    return MHD_YES;
}

/* The request's client: its peer, or behind a trusted proxy the right-most
 * untrusted address of its X-Forwarded-For headers. */
static wcl_addr client_of(web_server *w, struct MHD_Connection *c)
{
    wcl_addr peer = {{0}};
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET) {
        peer.b[10] = peer.b[11] = 0xff;
        memcpy(peer.b + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    } else if (sa && sa->sa_family == AF_INET6) {
        memcpy(peer.b, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
    }
    if (!w->ntrusted || !wcl_in(&peer, w->trusted, w->ntrusted))
        return peer;
    xff_acc x;
    arb_buf_init(&x.b, ARB_WEB_REQUEST_MEMORY);
    MHD_get_connection_values(c, MHD_HEADER_KIND, xff_each, &x);
    wcl_addr a = wcl_client(&peer, x.b.len ? arb_buf_str(&x.b) : NULL, w->trusted, w->ntrusted);
    arb_buf_release(&x.b);
    return a;
}

/* Count one of kind for the request's client: 0, or the limit's answer
 * already queued into *rc. */
static int take(web_server *w, struct MHD_Connection *c, web_req *rq, const wcl_addr *a, wcl_kind kind,
                web_result *rc)
{
    int slot;
    int got = wcl_take(&w->clients, a, kind, &slot);
    if (got == WCL_OK) {
        rq->client = slot;
        *(kind == WCL_HEAVY ? &rq->heavy : kind == WCL_STREAM ? &rq->stream : &rq->request) = true;
        return 0;
    }
    static const char *const why[] = {
        [WCL_REQUEST] = "too many requests from your address at once: try again in a moment\n",
        [WCL_HEAVY] = "too many transcripts or large pages from your address at once: try again in a moment\n",
        [WCL_STREAM] = "too many live pages open from your address: close one, or try again later\n",
    };
    *rc = got == WCL_FULL ? send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is busy: try again in a moment\n", false)
                          : send_limit(c, MHD_HTTP_TOO_MANY_REQUESTS, why[kind], false);
    return -1;
}

/* A heavy request: this client's bound, then the server's (below the
 * pool's size, so that light pages always find a session). */
static int take_heavy(web_server *w, struct MHD_Connection *c, web_req *rq, const wcl_addr *a, web_result *rc)
{
    if (take(w, c, rq, a, WCL_HEAVY, rc) != 0)
        return -1;
    if (atomic_fetch_add(&w->heavy, 1) >= (int)ARB_WEB_HEAVY_MAX) {
        atomic_fetch_sub(&w->heavy, 1);
        wcl_give(&w->clients, rq->client, WCL_HEAVY);
        rq->heavy = false;
        *rc = send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is busy with large answers: try again in a moment\n",
                         false);
        return -1;
    }
    rq->heavy_all = true;
    return 0;
}

/* The render is done: its share of the server's bound goes back (the
 * client's is held until the answer is sent). */
static void heavy_rendered(web_server *w, web_req *rq)
{
    if (rq->heavy_all)
        atomic_fetch_sub(&w->heavy, 1);
    rq->heavy_all = false;
}

/* ---- pages --------------------------------------------------------------- */

enum { LIGHT, HEAVY_IF_RENDERED, HEAVY_ALWAYS };

/* How heavy a route is: a transcript always (megabytes to render and to
 * send), a tournament's or a ladder's page when it must be rendered. */
static int heaviness(const char *url)
{
    const char *u = strncmp(url, "/api/", 5) == 0 ? url + 4 : url;
    size_t n = strlen(u);
    if (strncmp(u, "/m/", 3) == 0 && n > 11 && strcmp(u + n - 11, "/transcript") == 0)
        return HEAVY_ALWAYS;
    if ((strncmp(u, "/t/", 3) == 0 || strncmp(u, "/l/", 3) == 0) && strchr(u + 3, '/') == NULL)
        return HEAVY_IF_RENDERED;
    return LIGHT;
}

typedef struct held_entry {
    web_server *w;
    wc_entry *e;
} held_entry;

static void held_free(void *cls)
{
    held_entry *h = cls;
    wc_put(&h->w->cache, h->e);
    free(h);
}

/* Send a cached (or just rendered) answer with Cache-Control cc, the
 * entry's hold passing to the response (given back when the library is
 * done with it). */
static web_result send_entry_as(web_server *w, struct MHD_Connection *c, wc_entry *e, const char *cc)
{
    held_entry *h = malloc(sizeof *h);
    if (!h) {
        wc_put(&w->cache, e);
        return send_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
    }
    h->w = w;
    h->e = e;
    return send_tagged(c, (unsigned)e->status, e->type, e->body.data ? e->body.data : "", e->body.len, e->etag,
                       e->status != MHD_HTTP_OK ? "no-store" : cc, held_free, h);
}

/* A page's answer: cached for a second (its ETag revalidates it). */
static web_result send_entry(web_server *w, struct MHD_Connection *c, wc_entry *e)
{
    return send_entry_as(w, c, e, "public, max-age=1");
}

/* Render url on a session (taken now unless *held is one) into e. */
static int render_into(web_server *w, const char *url, wc_entry *e, int *held)
{
    if (*held < 0)
        *held = pool_take(w);
    if (*held < 0)
        return -1;
    web_out out;
    web_out_init(&out);
    web_render(w->session[*held], &w->hooks, WEB_SERVED, url, &out);
    pool_give(w, *held);
    *held = -1;
    wc_publish(&w->cache, e, &out, url);
    web_out_release(&out);
    return 0;
}

/* ---- a transcript, streamed ---------------------------------------------- */

/* A transcript answer being sent: its JSON lines made a chunk at a time
 * as the client reads, from the raw transcript (docs/web.md, "Serving a
 * crowd"). The request's heavy counts are held until it completes. */
typedef struct tstream {
    web_server *w;
    char route[WC_KEY];          /* its cache key, less wc_keep's '!' */
    char etag[24];               /* "" none: the answer is not kept */
    uint8_t *data;               /* the transcript (NULL for HEAD) */
    size_t len;
    web_lines at;
    arb_buf chunk;               /* the lines made and not all handed over */
    size_t sent;                 /* of chunk */
    arb_buf tee;                 /* the whole answer while under ARB_WEB_STREAM_KEEP_MAX */
    size_t counted;              /* its share of ARB_WEB_STREAM_BYTES */
    bool teeing;
} tstream;

static void tstream_free(void *cls)
{
    tstream *s = cls;
    if (s->counted)
        atomic_fetch_sub(&s->w->stream_bytes, s->counted);
    free(s->data);
    arb_buf_release(&s->chunk);
    arb_buf_release(&s->tee);
    free(s);
}

/* The next chunk of lines (none at the end): 0, or -1 (they do not read). */
static int tstream_fill(tstream *s)
{
    char err[256];
    arb_buf_reset(&s->chunk);
    s->sent = 0;
    if (s->at.off >= s->len)
        return 0;
    if (s->w->hooks.json_lines_from(s->w->hooks.ctx, s->data, s->len, &s->at, &s->chunk, ARB_WEB_STREAM_CHUNK, err,
                                    sizeof err) != 0)
        return -1;
    if (s->teeing && arb_buf_append(&s->tee, s->chunk.data, s->chunk.len) != 0) {
        arb_buf_release(&s->tee);
        s->teeing = false;   /* too long to keep: made again per request */
    }
    return 0;
}

static ssize_t tstream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    tstream *s = cls;
    (void)pos;
    if (atomic_load(&s->w->stopping))
        return MHD_CONTENT_READER_END_WITH_ERROR;
    if (s->sent == s->chunk.len && tstream_fill(s) != 0)
        return MHD_CONTENT_READER_END_WITH_ERROR;
    if (s->sent == s->chunk.len) {
        if (s->teeing)
            wc_keep(&s->w->cache, s->route, NDJSON, &s->tee, s->etag);
        s->teeing = false;
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    size_t n = s->chunk.len - s->sent < max ? s->chunk.len - s->sent : max;
    memcpy(buf, s->chunk.data + s->sent, n);
    s->sent += n;
    return (ssize_t)n;
}

/* A transcript's ETag from its digest (it names the bytes the answer is
 * made from): "" when the digest is not hex. */
static void digest_etag(const char *digest, char out[24])
{
    out[0] = '\0';
    if (strlen(digest) < 16 || strspn(digest, "0123456789abcdef") < 16)
        return;
    snprintf(out, 24, "\"t%.16s\"", digest);
}

/* The answer streaming s; for HEAD an empty one (the library would end a
 * streamed answer with its last chunk even then), s given up. NULL when
 * memory ran out (s given up too). */
static struct MHD_Response *transcript_response(tstream *s, bool head)
{
    struct MHD_Response *r
        = head ? MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT)
               : MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, ARB_WEB_STREAM_CHUNK, tstream_read, s, tstream_free);
    if (head || !r)
        tstream_free(s);
    return r;
}

/* Match mid's transcript on a session given back before the first byte:
 * 304 when the client has it (the transcript not read), headers only for
 * HEAD, else the lines streamed. */
static web_result serve_transcript(web_server *w, struct MHD_Connection *c, int64_t mid, const char *url, bool head)
{
    int si = pool_take(w);
    if (si < 0)
        return send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "every database session is busy: try again in a moment\n",
                          false);
    tstream *s = calloc(1, sizeof *s);
    char digest[72] = "", etag[24] = "", err[600] = "out of memory";
    bool done = false;
    unsigned hide = 0;
    int status = s ? web_match_transcript(w->session[si], mid, &hide, digest, &done, NULL, NULL, err, sizeof err) : 500;
    if (status == 0 && done)
        digest_etag(digest, etag);
    /* the lines without stderr are other bytes than those with: another
     * tag (a record that gains accounts hides what it showed) */
    if (etag[0] && hide)
        etag[1] = 'h';
    /* for good only under a link naming the digest (?d=, web_pages.c's
     * transcript_link): a dispute may void or rerun a finished match, and
     * the plain route then answers anew (revalidated by its ETag) */
    const char *d = etag[0] ? MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "d") : NULL;
    const char *cc = !etag[0] ? "public, max-age=1" : d && strncmp(d, digest, 16) == 0 && strlen(d) == 16
                   ? IMMUTABLE : "public, no-cache";
    bool have = status == 0 && etag[0] && not_modified(c, etag);
    char key[WC_KEY], look[WC_KEY + 1];
    snprintf(key, sizeof key, "%s#%s", url, etag);
    snprintf(look, sizeof look, "%s!", key);
    wc_entry *kept = status == 0 && !have && etag[0] ? wc_find(&w->cache, look) : NULL;
    if (status == 0 && !have && !head && !kept)
        status = web_match_transcript(w->session[si], mid, &hide, digest, &done, &s->data, &s->len, err, sizeof err);
    pool_give(w, si);
    if (s && s->data) {
        s->w = w;
        s->counted = s->len;
        if (atomic_fetch_add(&w->stream_bytes, s->len) + s->len > ARB_WEB_STREAM_BYTES) {
            tstream_free(s);
            return send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                              "the server is busy sending transcripts: try again in a moment\n", false);
        }
    }
    if (status != 0 || have || kept) {
        if (s)
            tstream_free(s);
        return kept ? send_entry_as(w, c, kept, cc)
               : have ? send_tagged(c, MHD_HTTP_OK, NULL, "", 0, etag, cc, NULL, NULL)
                      : send_text_copy(c, (unsigned)status, err);
    }
    s->w = w;
    s->at.hide_stderr = hide;
    snprintf(s->route, sizeof s->route, "%s", key);   /* kept under it (wc_keep) */
    arb_buf_init(&s->chunk, ARB_WEB_TRANSCRIPT_CAP);
    arb_buf_init(&s->tee, ARB_WEB_STREAM_KEEP_MAX);
    snprintf(s->etag, sizeof s->etag, "%s", etag);
    /* the lines are some three times the records they show (3.3 for Dou
     * Dizhu): a transcript over a third of the cap would not be kept, so
     * it is not copied aside for nothing */
    s->teeing = etag[0] && s->len <= ARB_WEB_STREAM_KEEP_MAX / 3;
    struct MHD_Response *r = transcript_response(s, head);
    if (!r)
        return MHD_NO;
    if (etag[0] && MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag) != MHD_YES) {
        MHD_destroy_response(r);
        return MHD_NO;
    }
    return queue(c, MHD_HTTP_OK, r, NDJSON, cc);
}

/* A page or API answer: from the cache when it holds what the record
 * shows now, else rendered (one render per answer at a time) and kept. */
static web_result serve_page(web_server *w, struct MHD_Connection *c, web_req *rq, const wcl_addr *a,
                             const char *url)
{
    web_result rc = MHD_NO;
    int heavy = heaviness(url), held = -1;
    /* a transcript: the client's heavy count (the stream's memory is
     * bounded by ARB_WEB_STREAM_BYTES, its lines made as it is read) */
    if (heavy == HEAVY_ALWAYS && take(w, c, rq, a, WCL_HEAVY, &rc) != 0)
        return rc;
    char key[WC_KEY], sig[64];
    int64_t mid = w->hooks.json_lines_from ? transcript_of(url) : 0;
    if (mid > 0)
        return serve_transcript(w, c, mid, url, rq->head);
    wc_entry *e;
    change_number(w, sig, &held);
    /* no session is held while waiting for another request's render */
    pool_give(w, held);
    held = -1;
    bool mine = true;
    if (sig[0]) {
        snprintf(key, sizeof key, "%s@", url);
        e = wc_claim(&w->cache, key, sig, &mine);
    } else {
        e = wc_own();
    }
    if (e && !mine) {
        pool_give(w, held);
        return send_entry(w, c, e);
    }
    if (!e || (heavy == HEAVY_IF_RENDERED && take_heavy(w, c, rq, a, &rc) != 0)) {
        pool_give(w, held);
        if (e)
            wc_abandon(&w->cache, e);
        return e ? rc : send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is busy: try again in a moment\n", false);
    }
    int rendered = render_into(w, url, e, &held);
    heavy_rendered(w, rq);
    if (rendered != 0) {
        wc_abandon(&w->cache, e);
        return send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "every database session is busy: try again in a moment\n",
                          false);
    }
    return send_entry(w, c, e);
}

static web_result serve_asset(web_server *w, struct MHD_Connection *c, const char *name)
{
    const web_asset *a = web_asset_find(name);
    if (!a)
        return send_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
    size_t n;
    const web_asset *all = web_assets(&n);
    return send_tagged(c, MHD_HTTP_OK, a->type, a->data, a->len, w->asset_etag[a - all], "public, max-age=300", NULL,
                       NULL);
}

/* ---- requests ------------------------------------------------------------ */

/* A connection's thread (a thread per connection) takes the server's
 * niceness on its first request: the scheduler's own pages yield to the
 * recording and the bots (web_options.nice). Linux keeps niceness per
 * thread. */
static void yield_cpu(const web_server *w)
{
    static _Thread_local bool done;
    if (w->nice == 0 || done)
        return;
    done = true;
    id_t tid = (id_t)syscall(SYS_gettid);
    errno = 0;
    int now = getpriority(PRIO_PROCESS, tid);
    if (now != -1 || errno == 0)
        (void)setpriority(PRIO_PROCESS, tid, now + w->nice);
}

/* Every answer is decided from the request line and headers alone, on the
 * first call: a body is never read (a GET has none; anything else is
 * refused), and the library closes a connection whose body it was not
 * asked to read. */
static web_result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                         const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    web_server *w = cls;
    (void)version;
    web_req *rq = *con_cls;
    if (rq && rq->api)   /* the API's next call: its body, then its answer */
        return web_api_handle(w->api, c, url, method, upload_data, upload_data_size, &rq->api_state, NULL);
    if (rq)
        return MHD_NO;   /* a body the server did not ask for */
    yield_cpu(w);
    rq = calloc(1, sizeof *rq);
    if (!rq)
        return MHD_NO;
    rq->client = -1;
    *con_cls = rq;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    rq->conn = ci ? ci->socket_context : NULL;
    if (rq->conn)
        atomic_store(&rq->conn->in_request, true);
    rq->head = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    if (strncmp(url, "/api/v1/", 8) == 0 && w->api) {
        /* the participant API: its own methods and bodies (web_api.c),
         * under the same per-client bounds as every page */
        if (strlen(url) > ARB_WEB_MAX_URL)
            return send_text(c, MHD_HTTP_URI_TOO_LONG, "URL too long: not one of ours\n");
        if (atomic_load(&w->nconns) > (int)ARB_WEB_BUSY_CONNECTIONS)
            return send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is busy: try again in a moment\n", true);
        wcl_addr a = client_of(w, c);
        web_result rc = MHD_NO;
        if (take(w, c, rq, &a, WCL_REQUEST, &rc) != 0)
            return rc;
        rq->api = true;
        return web_api_handle(w->api, c, url, method, upload_data, upload_data_size, &rq->api_state, &a);
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && !rq->head)
        return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: this server only reads (GET, HEAD)\n");
    if (strlen(url) > ARB_WEB_MAX_URL)
        return send_text(c, MHD_HTTP_URI_TOO_LONG, "URL too long: not one of ours\n");
    if (atomic_load(&w->nconns) > (int)ARB_WEB_BUSY_CONNECTIONS)
        return send_limit(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is busy: try again in a moment\n", true);
    if (strncmp(url, "/assets/", 8) == 0)
        return serve_asset(w, c, url + 8);
    wcl_addr a = client_of(w, c);
    web_result rc = MHD_NO;
    int64_t tid = events_of(url);
    if (tid > 0)
        return take(w, c, rq, &a, WCL_STREAM, &rc) == 0 ? serve_events(w, c, tid) : rc;
    if (take(w, c, rq, &a, WCL_REQUEST, &rc) != 0)
        return rc;
    return serve_page(w, c, rq, &a, url);
}

/* A request is over (answered, or its connection gone): what it held is
 * given back, and its connection's header clock starts again. */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    web_server *w = cls;
    web_req *rq = *con_cls;
    (void)c;
    (void)toe;
    if (!rq)
        return;
    if (rq->heavy)
        wcl_give(&w->clients, rq->client, WCL_HEAVY);
    heavy_rendered(w, rq);
    if (rq->request)
        wcl_give(&w->clients, rq->client, WCL_REQUEST);
    if (rq->stream)
        wcl_give(&w->clients, rq->client, WCL_STREAM);
    web_api_done(rq->api_state);
    if (rq->conn) {
        pthread_mutex_lock(&w->conn_lock);
        rq->conn->since_ns = arb_now_ns();
        atomic_store(&rq->conn->in_request, false);
        pthread_mutex_unlock(&w->conn_lock);
    }
    free(rq);
    *con_cls = NULL;
}

/* ---- connections and the header deadline --------------------------------- */

static void connection(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode toe)
{
    web_server *w = cls;
    web_conn *k = *socket_context;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        k = calloc(1, sizeof *k);
        if (!k || !ci) {
            free(k);
            *socket_context = NULL;
            return;
        }
        k->fd = ci->connect_fd;
        k->since_ns = arb_now_ns();
        pthread_mutex_lock(&w->conn_lock);
        k->next = w->conns;
        if (w->conns)
            w->conns->prev = k;
        w->conns = k;
        pthread_mutex_unlock(&w->conn_lock);
        atomic_fetch_add(&w->nconns, 1);
        *socket_context = k;
        return;
    }
    if (!k)
        return;
    /* closed: out of the list before the library closes its socket, so the
     * reaper never writes to a number the system has given to another */
    pthread_mutex_lock(&w->conn_lock);
    if (k->prev)
        k->prev->next = k->next;
    else
        w->conns = k->next;
    if (k->next)
        k->next->prev = k->prev;
    pthread_mutex_unlock(&w->conn_lock);
    atomic_fetch_sub(&w->nconns, 1);
    free(k);
    *socket_context = NULL;
}

/* Cut a connection past its header deadline: a 408 written straight to
 * its socket (the library is still reading the header, never writing),
 * then the socket shut, which ends the library's read. */
static void cut(web_conn *k)
{
    static const char body[] = "the request's header did not arrive within the deadline: closed\n";
    char msg[256];
    int n = snprintf(msg, sizeof msg,
                     "HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"
                     "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                     sizeof body - 1, body);
    if (send(k->fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
        /* the client is gone or not reading: shut it all the same */
    }
    shutdown(k->fd, SHUT_RDWR);
    k->cut = true;
}

static void *reaper(void *cls)
{
    web_server *w = cls;
    pthread_mutex_lock(&w->conn_lock);
    while (!atomic_load(&w->stopping)) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += 250 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&w->conn_stop, &w->conn_lock, &until);
        uint64_t now = arb_now_ns();
        for (web_conn *k = w->conns; k; k = k->next)
            if (!k->cut && !atomic_load(&k->in_request)
                && now - k->since_ns > (uint64_t)ARB_WEB_HEADER_DEADLINE_S * SEC_NS)
                cut(k);
    }
    pthread_mutex_unlock(&w->conn_lock);
    return NULL;
}

/* ---- the server ---------------------------------------------------------- */

/* A connection is a socket: the soft limit on open files raised to the
 * hard one, so that ARB_WEB_MAX_CONNECTIONS are not refused by the system
 * first. */
static void raise_nofile(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
}

static int init_locks(web_server *w)
{
    pthread_condattr_t a;
    if (pthread_condattr_init(&a) != 0)
        return -1;
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&w->pool_freed, &a) || pthread_cond_init(&w->conn_stop, &a) ? -1 : 0;
    pthread_condattr_destroy(&a);
    pthread_mutex_init(&w->pool_lock, NULL);
    pthread_mutex_init(&w->sig_lock, NULL);
    pthread_mutex_init(&w->live_lock, NULL);
    pthread_mutex_init(&w->conn_lock, NULL);
    wcl_init(&w->clients);
    return rc || wc_init(&w->cache) ? -1 : 0;
}

/* The pages' sessions, read only, as the web's role (arbiter_web) when the
 * login may take it; and the API's (web_api.c). note: what the role is,
 * said at start. */
static int open_sessions(web_server *w, const char *conninfo, const web_options *opt, char *err, size_t errlen)
{
    bool as_role = true;
    char why[512] = "";
    for (unsigned i = 0; i < ARB_WEB_POOL_SESSIONS; i++) {
        w->session[i] = store_open(conninfo, err, errlen);
        if (!w->session[i])
            return -1;
        char wr[512];
        if (store_web_role(w->session[i], wr, sizeof wr) != 0) {
            as_role = false;
            if (!why[0])
                snprintf(why, sizeof why, "%s", wr);
        }
        if (store_read_only(w->session[i], err, errlen) != 0)
            return -1;
    }
    bool api_role = true;
    char api_why[512] = "";
    w->api = web_api_open(conninfo, &w->hooks, &api_role, api_why, sizeof api_why, err, errlen);
    if (!w->api)
        return -1;
    if (opt && opt->role_note) {
        if (as_role && api_role)
            snprintf(opt->role_note, opt->role_note_len, "its sessions are the database role arbiter_web");
        else
            snprintf(opt->role_note, opt->role_note_len,
                     "its sessions keep the login's role, not arbiter_web (%s): give serve a login that is only "
                     "arbiter_web's (docs/operations.md)", why[0] ? why : api_why);
    }
    return 0;
}

/* A PEM file read whole (at most 1 MiB): NULL with a message. */
static char *read_pem(const char *what, const char *path, bool secret, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
        return NULL;
    }
    /* a private key every user of the host may read is no longer private
     * (a group, e.g. Debian's ssl-cert, may) */
    struct stat st;
    if (secret && (fstat(fileno(f), &st) != 0 || (st.st_mode & 007))) {
        snprintf(err, errlen, "%s %s: open to every user of this host (mode %04o): chmod o-rwx %s", what, path,
                 (unsigned)(st.st_mode & 07777), path);
        fclose(f);
        return NULL;
    }
    size_t cap = 1u << 20, n = 0;
    char *b = malloc(cap + 1);
    if (b)
        n = fread(b, 1, cap + 1, f);
    fclose(f);
    if (!b || n == 0 || n > cap || !memmem(b, n, "-----BEGIN ", 11)) {
        snprintf(err, errlen, "%s %s: %s", what, path, !b ? "out of memory" : n > cap ? "larger than 1 MiB"
                                                                                : "not a PEM file");
        free(b);
        return NULL;
    }
    b[n] = 0;
    return b;
}

static int load_tls(web_server *w, const web_options *opt, char *err, size_t errlen)
{
    if (!opt || (!opt->tls_cert && !opt->tls_key))
        return 0;
    if (!opt->tls_cert || !opt->tls_key) {
        snprintf(err, errlen, "--tls-cert and --tls-key go together");
        return -1;
    }
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
        snprintf(err, errlen, "this libmicrohttpd has no TLS (built without GnuTLS): serve HTTP behind a TLS proxy "
                              "(--trusted-proxy, docs/operations.md)");
        return -1;
    }
    if (!(w->tls_cert = read_pem("--tls-cert", opt->tls_cert, false, err, errlen))
        || !(w->tls_key = read_pem("--tls-key", opt->tls_key, true, err, errlen)))
        return -1;
    return 0;
}

static int trust(web_server *w, const web_options *opt, char *err, size_t errlen)
{
    for (int i = 0; opt && i < opt->ntrusted_proxy; i++) {
        if (w->ntrusted == ARB_WEB_MAX_TRUSTED_PROXIES) {
            snprintf(err, errlen, "more than %d trusted proxies", ARB_WEB_MAX_TRUSTED_PROXIES);
            return -1;
        }
        if (wcl_net_parse(opt->trusted_proxy[i], &w->trusted[w->ntrusted++]) != 0) {
            snprintf(err, errlen, "trusted proxy \"%.100s\": not ADDR or ADDR/BITS (an IPv4 or IPv6 address)",
                     opt->trusted_proxy[i]);
            return -1;
        }
    }
    return 0;
}

static int asset_etags(web_server *w)
{
    size_t n;
    const web_asset *a = web_assets(&n);
    w->asset_etag = calloc(n ? n : 1, sizeof *w->asset_etag);
    if (!w->asset_etag)
        return -1;
    for (size_t i = 0; i < n; i++)
        wc_etag(200, a[i].data, a[i].len, w->asset_etag[i]);
    return 0;
}

static struct MHD_Daemon *start_daemon(web_server *w, const struct sockaddr_in *sa)
{
    /* a thread per connection: an event stream waits on the record between
     * its polls without holding up any other request */
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
#if MHD_VERSION >= 0x00095400
    flags |= MHD_USE_AUTO;
#endif
    if (w->tls_cert)
        return MHD_start_daemon(flags | MHD_USE_TLS, ntohs(sa->sin_port), NULL, NULL, handle, w,
                                MHD_OPTION_HTTPS_MEM_CERT, w->tls_cert,
                                MHD_OPTION_HTTPS_MEM_KEY, w->tls_key,
                                MHD_OPTION_EXTERNAL_LOGGER, web_logger, w,
                                MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
                                MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)sa,
                                MHD_OPTION_CONNECTION_LIMIT, ARB_WEB_MAX_CONNECTIONS,
                                MHD_OPTION_CONNECTION_TIMEOUT, ARB_WEB_IDLE_TIMEOUT_S,
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)ARB_WEB_REQUEST_MEMORY,
                                MHD_OPTION_THREAD_STACK_SIZE, (size_t)(1u << 20),
                                MHD_OPTION_NOTIFY_COMPLETED, completed, w,
                                MHD_OPTION_NOTIFY_CONNECTION, connection, w,
                                MHD_OPTION_END);
    return MHD_start_daemon(flags, ntohs(sa->sin_port), NULL, NULL, handle, w,
                            MHD_OPTION_EXTERNAL_LOGGER, web_logger, w,
                            MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)sa,
                            MHD_OPTION_CONNECTION_LIMIT, ARB_WEB_MAX_CONNECTIONS,
                            MHD_OPTION_CONNECTION_TIMEOUT, ARB_WEB_IDLE_TIMEOUT_S,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)ARB_WEB_REQUEST_MEMORY,
                            MHD_OPTION_THREAD_STACK_SIZE, (size_t)(1u << 20),
                            MHD_OPTION_NOTIFY_COMPLETED, completed, w,
                            MHD_OPTION_NOTIFY_CONNECTION, connection, w,
                            MHD_OPTION_END);
}

web_server *web_server_open(const char *conninfo, const char *listen, const web_hooks *hooks,
                            const web_options *opt, char *err, size_t errlen)
{
    struct sockaddr_in sa;
    if (arb_http_parse_listen(listen, &sa, err, errlen) != 0)
        return NULL;
    web_server *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    atomic_flag_clear(&w->said);
    if (hooks)
        w->hooks = *hooks;
    if (init_locks(w) != 0 || asset_etags(w) != 0) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    w->nice = opt ? opt->nice : 0;
    if (trust(w, opt, err, errlen) != 0 || load_tls(w, opt, err, errlen) != 0
        || open_sessions(w, conninfo, opt, err, errlen) != 0)
        goto fail;
    raise_nofile();
#ifdef __GLIBC__
    /* a thread per connection, each with its arena: a transcript's bytes
     * and chunks (megabytes, freed when sent) are mapped apart and given
     * back to the system when freed, not kept in the arena of a thread
     * that may never need them again (docs/web.md, "Streamed transcripts") */
    mallopt(M_MMAP_THRESHOLD, ARB_WEB_STREAM_CHUNK * 4);
#endif
    if (pthread_create(&w->reaper, NULL, reaper, w) != 0) {
        snprintf(err, errlen, "cannot start a thread");
        goto fail;
    }
    w->reaping = true;
    w->mhd = start_daemon(w, &sa);
    if (w->mhd) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(w->mhd, MHD_DAEMON_INFO_LISTEN_FD);
        w->port = info ? arb_http_socket_port(info->listen_fd) : -1;
        return w;
    }
    char host[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &sa.sin_addr, host, sizeof host);
    snprintf(err, errlen, "listen %s:%u: %s", host, (unsigned)ntohs(sa.sin_port),
             w->why[0] ? w->why : "cannot start the HTTP server");
fail:
    web_server_stop(w);
    return NULL;
}

web_server *web_server_start(const char *conninfo, const char *listen, const web_hooks *hooks, char *err,
                             size_t errlen)
{
    return web_server_open(conninfo, listen, hooks, NULL, err, errlen);
}

void web_server_stop(web_server *w)
{
    if (!w)
        return;
    atomic_store(&w->stopping, true);
    if (w->mhd)
        MHD_stop_daemon(w->mhd);
    if (w->reaping) {
        pthread_mutex_lock(&w->conn_lock);
        pthread_cond_signal(&w->conn_stop);
        pthread_mutex_unlock(&w->conn_lock);
        pthread_join(w->reaper, NULL);
    }
    for (unsigned i = 0; i < ARB_WEB_POOL_SESSIONS; i++)
        store_close(w->session[i]);
    web_api_close(w->api);
    if (w->tls_key)
        memset(w->tls_key, 0, strlen(w->tls_key));
    free(w->tls_cert);
    free(w->tls_key);
    wc_release(&w->cache);
    wcl_release(&w->clients);
    pthread_cond_destroy(&w->pool_freed);
    pthread_cond_destroy(&w->conn_stop);
    pthread_mutex_destroy(&w->pool_lock);
    pthread_mutex_destroy(&w->sig_lock);
    pthread_mutex_destroy(&w->live_lock);
    pthread_mutex_destroy(&w->conn_lock);
    free(w->asset_etag);
    free(w);
}

int web_server_port(const web_server *w) { return w ? w->port : -1; }
