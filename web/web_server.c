/* web_server.c — `arbiter serve`: the pages and API of web_pages.c on
 * libmicrohttpd, read only and bounded (docs/web.md): GET and HEAD only,
 * its own routes only (assets by name from the binary, never a path from
 * the URL), connections, request size and silence capped
 * (arb_limits.h), security headers on every answer, and the live event
 * streams (Server-Sent Events). */
#include "web_int.h"
#include "arb_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#if MHD_VERSION < 0x00097002
typedef int web_result;
#else
typedef enum MHD_Result web_result;
#endif

struct web_server {
    struct MHD_Daemon *mhd;
    store *st;                   /* one read-only session, used under lock */
    pthread_mutex_t lock;        /* the store's connection: one statement at a time */
    web_hooks hooks;
    atomic_int streams;          /* event streams open (ARB_WEB_MAX_EVENT_STREAMS) */
    /* the progress last read per tournament streamed, under lock: the
     * streams of one tournament share a read a second (web_live_progress) */
    struct {
        int64_t tid;
        struct timespec at;
        web_progress pg;
    } live[ARB_WEB_MAX_EVENT_STREAMS];
    atomic_bool stopping;        /* set before the daemon stops: streams end */
    int port;
    atomic_flag said;            /* the library's first message is in why */
    char why[256];
};

/* The library's first message: why starting failed (as arb_http.c). */
static void web_logger(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void web_logger(void *cls, const char *fmt, va_list ap)
{
    web_server *w = cls;
    if (!atomic_flag_test_and_set(&w->said))
        vsnprintf(w->why, sizeof w->why, fmt, ap);
}

/* The headers every answer carries: no script but ours, no sniffing, no
 * referrer leaving for another site. */
static int secure(struct MHD_Response *r)
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

static web_result send_buf(struct MHD_Connection *c, unsigned status, const char *type, const void *data, size_t len,
                           enum MHD_ResponseMemoryMode mode, const char *cache)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, mode);
    web_result rc = MHD_NO;
    if (!r)
        return MHD_NO;
    if (secure(r) == 0 && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) == MHD_YES
        && MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cache) == MHD_YES
        && (status != MHD_HTTP_METHOD_NOT_ALLOWED || MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") == MHD_YES))
        rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static web_result send_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    return send_buf(c, status, "text/plain; charset=utf-8", text, strlen(text), MHD_RESPMEM_PERSISTENT, "no-store");
}

/* ---- the live stream ----------------------------------------------------- */

typedef struct stream {
    web_server *w;
    web_live lv;
    arb_buf pending;             /* events not yet handed to the library */
    size_t off;
    struct timespec last_poll, last_sent;
    bool polled;
} stream;

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Tournament tid's progress, read at most once a second whatever the
 * number of streams watching it (under w->lock): *pg points into the
 * server's table. The oldest entry gives way to a tournament not in it. */
static int live_progress(web_server *w, int64_t tid, const web_progress **pg)
{
    size_t n = sizeof w->live / sizeof *w->live, slot = n, oldest = 0;
    for (size_t i = 0; i < n && slot == n; i++) {
        if (w->live[i].tid == tid)
            slot = i;
        else if (w->live[oldest].tid != 0
                 && (w->live[i].tid == 0 || since(&w->live[i].at) > since(&w->live[oldest].at)))
            oldest = i;
    }
    if (slot < n && since(&w->live[slot].at) < 1.0) {
        *pg = &w->live[slot].pg;
        return 0;
    }
    if (slot == n)
        slot = oldest;
    int rc = web_live_progress(w->st, tid, &w->live[slot].pg);
    if (rc) {
        w->live[slot].tid = 0;
        return rc;
    }
    w->live[slot].tid = tid;
    clock_gettime(CLOCK_MONOTONIC, &w->live[slot].at);
    *pg = &w->live[slot].pg;
    return 0;
}

/* The library asks for the stream's next bytes on the connection's own
 * thread (a thread per connection), so waiting here stalls no one else:
 * the record is polled once a second, under the store's lock. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    stream *s = cls;
    for (;;) {
        if (s->off < s->pending.len) {
            size_t n = s->pending.len - s->off < max ? s->pending.len - s->off : max;
            memcpy(buf, s->pending.data + s->off, n);
            s->off += n;
            clock_gettime(CLOCK_MONOTONIC, &s->last_sent);
            return (ssize_t)n;
        }
        if (atomic_load(&s->w->stopping))
            return MHD_CONTENT_READER_END_OF_STREAM;
        arb_buf_reset(&s->pending);
        s->off = 0;
        if (s->polled && since(&s->last_poll) < 1.0) {
            struct timespec nap = {0, 100 * 1000 * 1000};
            nanosleep(&nap, NULL);
            continue;
        }
        pthread_mutex_lock(&s->w->lock);
        const web_progress *pg = NULL;
        int rc = live_progress(s->w, s->lv.tid, &pg);
        if (rc == 0)
            rc = web_live_poll(s->w->st, &s->lv, pg, &s->pending);
        pthread_mutex_unlock(&s->w->lock);
        clock_gettime(CLOCK_MONOTONIC, &s->last_poll);
        s->polled = true;
        if (rc == ARB_ENOTFOUND)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (rc)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        if (s->pending.len == 0 && since(&s->last_sent) >= ARB_WEB_KEEPALIVE_S)
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
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "too many live pages open: try again later\n");
    }
    stream *s = calloc(1, sizeof *s);
    if (!s) {
        atomic_fetch_sub(&w->streams, 1);
        return send_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
    }
    s->w = w;
    s->lv.tid = tid;
    arb_buf_init(&s->pending, 1u << 20);
    clock_gettime(CLOCK_MONOTONIC, &s->last_sent);
    /* the stream tells the browser how soon to come back after a drop */
    arb_buf_puts(&s->pending, "retry: 3000\n\n");
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, s, stream_free);
    if (!r) {
        stream_free(s);
        return MHD_NO;
    }
    web_result rc = MHD_NO;
    if (secure(r) == 0 && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream") == MHD_YES
        && MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store") == MHD_YES)
        rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

/* "/api/t/ID/events": the tournament's id, else 0. */
static int64_t events_of(const char *url)
{
    static const char pre[] = "/api/t/", post[] = "/events";
    size_t n = strlen(url);
    int64_t id;
    if (n < sizeof pre + sizeof post - 1 || strncmp(url, pre, sizeof pre - 1) != 0
        || strcmp(url + n - (sizeof post - 1), post) != 0
        || !web_parse_id(url + sizeof pre - 1, n - (sizeof pre - 1) - (sizeof post - 1), &id))
        return 0;
    return id;
}

/* The URL as it came: no percent-decoding. Every route is plain ASCII, so
 * a '%' is never one of ours (404), and "%00", "%2e%2e" or "%2f" cannot
 * turn into a NUL, a "..", a '/' or another route. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *uri)
{
    (void)cls;
    (void)c;
    return strlen(uri);
}

/* ---- requests ------------------------------------------------------------ */

/* Every answer is decided from the request line alone, on the first call:
 * a body is never read (a GET has none; anything else is refused), and the
 * library closes a connection whose body it was not asked to read. */
static web_result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                         const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    web_server *w = cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: this server only reads (GET, HEAD)\n");
    if (strlen(url) > ARB_WEB_MAX_URL)
        return send_text(c, MHD_HTTP_URI_TOO_LONG, "URL too long: not one of ours\n");
    if (strncmp(url, "/assets/", 8) == 0) {
        const web_asset *a = web_asset_find(url + 8);
        if (!a)
            return send_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
        return send_buf(c, MHD_HTTP_OK, a->type, a->data, a->len, MHD_RESPMEM_PERSISTENT, "max-age=300");
    }
    int64_t tid = events_of(url);
    if (tid > 0)
        return serve_events(w, c, tid);
    web_out out;
    web_out_init(&out);
    pthread_mutex_lock(&w->lock);
    web_render(w->st, &w->hooks, WEB_SERVED, url, &out);
    pthread_mutex_unlock(&w->lock);
    web_result rc = send_buf(c, (unsigned)out.status, out.type, out.body.data ? out.body.data : "", out.body.len,
                             MHD_RESPMEM_MUST_COPY, "no-store");
    web_out_release(&out);
    return rc;
}

web_server *web_server_start(const char *conninfo, const char *listen, const web_hooks *hooks, char *err,
                             size_t errlen)
{
    struct sockaddr_in sa;
    web_server *w;
    if (arb_http_parse_listen(listen, &sa, err, errlen) != 0)
        return NULL;
    w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    atomic_flag_clear(&w->said);
    if (hooks)
        w->hooks = *hooks;
    w->st = store_open(conninfo, err, errlen);
    if (!w->st || store_read_only(w->st, err, errlen) != 0)
        goto fail;
    char host[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &sa.sin_addr, host, sizeof host);
    /* a thread per connection: an event stream waits on the record between
     * its polls without holding up any other request */
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
#if MHD_VERSION >= 0x00095400
    flags |= MHD_USE_AUTO;
#endif
    w->mhd = MHD_start_daemon(flags, ntohs(sa.sin_port), NULL, NULL, handle, w,
                              MHD_OPTION_EXTERNAL_LOGGER, web_logger, w,
                              MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
                              MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&sa,
                              MHD_OPTION_CONNECTION_LIMIT, ARB_WEB_MAX_CONNECTIONS,
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT, ARB_WEB_MAX_PER_IP,
                              MHD_OPTION_CONNECTION_TIMEOUT, ARB_WEB_IDLE_TIMEOUT_S,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)ARB_WEB_REQUEST_MEMORY,
                              MHD_OPTION_THREAD_STACK_SIZE, (size_t)(1u << 20),
                              MHD_OPTION_END);
    if (w->mhd) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(w->mhd, MHD_DAEMON_INFO_LISTEN_FD);
        w->port = info ? arb_http_socket_port(info->listen_fd) : -1;
        return w;
    }
    snprintf(err, errlen, "listen %s:%u: %s", host, (unsigned)ntohs(sa.sin_port),
             w->why[0] ? w->why : "cannot start the HTTP server");
fail:
    web_server_stop(w);
    return NULL;
}

void web_server_stop(web_server *w)
{
    if (!w)
        return;
    atomic_store(&w->stopping, true);
    if (w->mhd)
        MHD_stop_daemon(w->mhd);
    store_close(w->st);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

int web_server_port(const web_server *w) { return w ? w->port : -1; }
