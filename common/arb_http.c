/* arb_http.c — the metrics endpoint on libmicrohttpd, and the Prometheus
 * text writers (see arb_http.h). */
#include "arb_http.h"
#include "arb_limits.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

/* Per-connection memory for the request line and headers. An honest request
 * is a few hundred bytes; a longer one is refused with 431 by the library. */
#define HTTP_REQUEST_MEMORY (16u << 10)

/* Older libraries spell the internal thread SELECT_INTERNALLY. */
#if MHD_VERSION < 0x00095400
#define MHD_USE_INTERNAL_POLLING_THREAD MHD_USE_SELECT_INTERNALLY
#endif
/* Before enum MHD_Result (the library's own advice on the cut-off) handlers
 * returned int. */
#if MHD_VERSION < 0x00097002
typedef int http_result;
#else
typedef enum MHD_Result http_result;
#endif

static const char METRICS_TYPE[] = "text/plain; version=0.0.4";
static const char TEXT_TYPE[] = "text/plain; charset=utf-8";

struct arb_http {
    struct MHD_Daemon *mhd;
    arb_http_render render;
    void *ctx;
    char *body;              /* ARB_HTTP_BODY_CAP bytes; touched only on the server thread */
    int port;                /* as bound, read back from the socket */
    atomic_flag said;        /* set once the library's first message is in `why` */
    char why[256];           /* that message: the reason when starting fails */
};

/* The library reports why it failed only through its logger ("Failed to
 * bind to port 80: Address already in use"). The first message is kept
 * (the later ones follow from it); it is read only after MHD_start_daemon
 * has failed, when no server thread is left. Later messages (a client's
 * malformed request) are dropped: library code does not log. The format
 * attribute tells the compiler fmt is the library's printf format (and
 * keeps clang's -Wformat-nonliteral quiet about the vsnprintf). */
static void http_logger(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void http_logger(void *cls, const char *fmt, va_list ap)
{
    arb_http *h = cls;
    if (atomic_flag_test_and_set(&h->said))
        return;
    vsnprintf(h->why, sizeof h->why, fmt, ap);
    size_t n = strlen(h->why);
    while (n > 0 && (h->why[n - 1] == '\n' || h->why[n - 1] == '\r' || h->why[n - 1] == '.'))
        h->why[--n] = 0;
}

/* Queue a copy of body; the library owns the copy, so the render buffer is
 * free for the next request even while this answer is still being sent. */
static http_result reply(struct MHD_Connection *conn, unsigned int status, const char *type, const char *body,
                         size_t len, const char *allow)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    http_result rc = MHD_NO;
    if (!resp)
        goto out;
    if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type) != MHD_YES)
        goto out;
    if (allow && MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow) != MHD_YES)
        goto out;
    rc = MHD_queue_response(conn, status, resp);
out:
    if (resp)
        MHD_destroy_response(resp);
    return rc;
}

static http_result reply_text(struct MHD_Connection *conn, unsigned int status, const char *text, const char *allow)
{
    return reply(conn, status, TEXT_TYPE, text, strlen(text), allow);
}

static http_result serve_metrics(arb_http *h, struct MHD_Connection *conn)
{
    size_t len = h->render(h->ctx, h->body, ARB_HTTP_BODY_CAP);
    /* A cut-off body would end mid-line: Prometheus would drop the scrape
     * with a parse error that hides the cause, or keep a partial one. */
    if (len >= ARB_HTTP_BODY_CAP)
        return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "metrics exceed the 256 KiB answer limit\n", NULL);
    return reply(conn, MHD_HTTP_OK, METRICS_TYPE, h->body, len, NULL);
}

/* Every answer is decided from the request line alone, on the first call:
 * a body (a POST's) is never read, and the library closes the connection
 * after answering one it has not consumed. HEAD is answered as GET without
 * the body, which the library leaves out by itself. */
static http_result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                          const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    arb_http *h = cls;
    int is_metrics = strcmp(url, "/metrics") == 0;
    int is_health = strcmp(url, "/healthz") == 0;
    if (!is_metrics && !is_health)
        return reply_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics or /healthz\n", NULL);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: GET or HEAD\n", "GET, HEAD");
    if (is_health)
        return reply_text(conn, MHD_HTTP_OK, "ok\n", NULL);
    return serve_metrics(h, conn);
}

int arb_http_parse_listen(const char *listen, struct sockaddr_in *sa, char *err, size_t errlen)
{
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_addr.s_addr = htonl(INADDR_ANY);
    if (!listen || !*listen) {
        snprintf(err, errlen, "listen address is empty (expected HOST:PORT, :PORT or PORT)");
        return -1;
    }
    const char *colon = strrchr(listen, ':');
    const char *port = colon ? colon + 1 : listen;
    if (colon && colon != listen) {
        char host[INET_ADDRSTRLEN];
        size_t hlen = (size_t)(colon - listen);
        int ok = hlen < sizeof host;
        if (ok) {
            memcpy(host, listen, hlen);
            host[hlen] = 0;
            ok = inet_pton(AF_INET, host, &sa->sin_addr) == 1;
        }
        if (!ok) {
            snprintf(err, errlen, "listen \"%s\": \"%.*s\" is not an IPv4 address such as 127.0.0.1", listen,
                     (int)(hlen > 64 ? 64 : hlen), listen);
            return -1;
        }
    }
    /* Digits only: strtol would take signs, spaces and "0x". */
    unsigned long n = 0;
    size_t digits = strspn(port, "0123456789");
    int ok = digits > 0 && digits <= 5 && port[digits] == 0;
    for (size_t i = 0; ok && i < digits; i++)
        n = n * 10 + (unsigned long)(port[i] - '0');
    if (!ok || n > 65535) {
        snprintf(err, errlen, "listen \"%s\": port \"%.16s\" is not a number from 0 to 65535", listen, port);
        return -1;
    }
    sa->sin_port = htons((unsigned short)n);
    return 0;
}

int arb_http_bound_port(struct MHD_Daemon *mhd)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(mhd, MHD_DAEMON_INFO_LISTEN_FD);
    if (!info)
        return -1;
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    if (getsockname(info->listen_fd, (struct sockaddr *)&sa, &len) != 0 || sa.sin_family != AF_INET)
        return -1;
    return ntohs(sa.sin_port);
}

arb_http *arb_http_start(const char *listen, arb_http_render render, void *ctx, char *err, size_t errlen)
{
    arb_http *h = NULL;
    arb_http *result = NULL;
    struct sockaddr_in sa;
    char where[32];

    if (errlen)
        err[0] = 0;
    if (arb_http_parse_listen(listen, &sa, err, errlen) != 0)
        goto out;
    if (!render) {
        snprintf(err, errlen, "listen %s: no render function", listen);
        goto out;
    }
    char host[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &sa.sin_addr, host, sizeof host);
    snprintf(where, sizeof where, "%s:%u", host, (unsigned)ntohs(sa.sin_port));
    h = calloc(1, sizeof *h);
    if (h)
        h->body = malloc(ARB_HTTP_BODY_CAP);
    if (!h || !h->body) {
        snprintf(err, errlen, "listen %s: out of memory", where);
        goto out;
    }
    h->render = render;
    h->ctx = ctx;
    atomic_flag_clear(&h->said);

    /* One internal thread polls every connection: with AUTO it is epoll on
     * Linux, so a listening descriptor above FD_SETSIZE (a referee holds
     * many bot pipes) still works. The socket is bound to exactly sa. */
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
#if MHD_VERSION >= 0x00095400
    flags |= MHD_USE_AUTO;
#endif
    /* The logger must be the first option: the library complains about it
     * otherwise, on its default logger (stderr), and reports that message. */
    h->mhd = MHD_start_daemon(flags, ntohs(sa.sin_port), NULL, NULL, handle, h,
                              MHD_OPTION_EXTERNAL_LOGGER, http_logger, h,
                              MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&sa,
                              MHD_OPTION_CONNECTION_LIMIT, ARB_HTTP_MAX_CONNECTIONS,
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT, ARB_HTTP_MAX_PER_IP,
                              MHD_OPTION_CONNECTION_TIMEOUT, ARB_HTTP_IDLE_TIMEOUT_S,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_REQUEST_MEMORY,
                              MHD_OPTION_END);
    if (!h->mhd) {
        snprintf(err, errlen, "listen %s: %s", where, h->why[0] ? h->why : "cannot start the HTTP server");
        goto out;
    }
    h->port = arb_http_bound_port(h->mhd);
    if (h->port < 0) {
        snprintf(err, errlen, "listen %s: cannot read the bound port: %s", where, strerror(errno));
        goto out;
    }
    result = h;
    h = NULL;
out:
    arb_http_stop(h);
    return result;
}

int arb_http_port(const arb_http *h) { return h ? h->port : -1; }

void arb_http_stop(arb_http *h)
{
    if (!h)
        return;
    if (h->mhd)
        MHD_stop_daemon(h->mhd);
    free(h->body);
    free(h);
}

/* ---- Prometheus text format (exposition format 0.0.4) ---- */

/* Append len bytes, or give up: an entry that does not fit leaves *off at
 * cap so the caller (and every later append) sees the overflow. */
static void put(char *buf, size_t cap, size_t *off, const char *s, size_t len)
{
    if (*off >= cap) {
        *off = cap;
        return;
    }
    if (len >= cap - *off) {
        buf[*off] = 0;
        *off = cap;
        return;
    }
    memcpy(buf + *off, s, len);
    *off += len;
    buf[*off] = 0;
}

static void puts_(char *buf, size_t cap, size_t *off, const char *s) { put(buf, cap, off, s, strlen(s)); }

/* HELP text may hold anything; the format wants \ and newline escaped. */
static void put_help(char *buf, size_t cap, size_t *off, const char *help)
{
    for (const char *p = help; *p && *off < cap; p++) {
        if (*p == '\\')
            put(buf, cap, off, "\\\\", 2);
        else if (*p == '\n')
            put(buf, cap, off, "\\n", 2);
        else
            put(buf, cap, off, p, 1);
    }
}

/* Prometheus parses values with Go's ParseFloat and spells the special
 * values NaN, +Inf and -Inf. The shortest of %.15g..%.17g that reads back
 * exactly keeps 0.1 as "0.1", and integers print without decimals. */
static void format_value(char out[32], double v)
{
    if (isnan(v)) {
        snprintf(out, 32, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(out, 32, "%s", v > 0 ? "+Inf" : "-Inf");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, 32, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            return;
    }
}

void arb_prom_head(char *buf, size_t cap, size_t *off, const char *name, const char *type, const char *help)
{
    puts_(buf, cap, off, "# HELP ");
    puts_(buf, cap, off, name);
    puts_(buf, cap, off, " ");
    put_help(buf, cap, off, help ? help : "");
    puts_(buf, cap, off, "\n# TYPE ");
    puts_(buf, cap, off, name);
    puts_(buf, cap, off, " ");
    puts_(buf, cap, off, type);
    puts_(buf, cap, off, "\n");
}

void arb_prom_labeled(char *buf, size_t cap, size_t *off, const char *name, const char *labels, double value)
{
    char num[32];
    format_value(num, value);
    puts_(buf, cap, off, name);
    if (labels && *labels) {
        puts_(buf, cap, off, "{");
        puts_(buf, cap, off, labels);
        puts_(buf, cap, off, "}");
    }
    puts_(buf, cap, off, " ");
    puts_(buf, cap, off, num);
    puts_(buf, cap, off, "\n");
}

void arb_prom(char *buf, size_t cap, size_t *off, const char *name, const char *type, const char *help, double value)
{
    arb_prom_head(buf, cap, off, name, type, help);
    arb_prom_labeled(buf, cap, off, name, NULL, value);
}
