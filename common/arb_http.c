/* arb_http.c — the daemons' metrics endpoint, and the Prometheus text
 * writers (see arb_http.h).
 *
 * The endpoint answers two paths to scrapers on one thread of its own: a
 * poll(2) loop over the listening socket and at most
 * ARB_HTTP_MAX_CONNECTIONS connections, each of which sends one request
 * head (at most ARB_HTTP_HEAD_CAP bytes) and gets one answer, then is
 * closed. It does not use libmicrohttpd, which the web (web/) uses: the
 * referee daemon serves metrics too, and a referee — the process that
 * runs untrusted bots — should carry no HTTP library it does not need
 * (issue 27: `ldd arbiter-referee` shows no libmicrohttpd). What it
 * needs is small: two fixed paths, GET and HEAD, no body read, no
 * keep-alive, and the limits a hostile client meets are all here:
 *
 *   - connections in all and per address (ARB_HTTP_MAX_CONNECTIONS,
 *     ARB_HTTP_MAX_PER_IP): past them a new connection is closed at once;
 *   - silence (ARB_HTTP_IDLE_TIMEOUT_S) and a whole request's time
 *     (ARB_HTTP_REQUEST_DEADLINE_S, so that a byte a second cannot hold a
 *     place for ever);
 *   - the head's size (431 past ARB_HTTP_HEAD_CAP), the answer's
 *     (ARB_HTTP_BODY_CAP: a render that fills it is a 500). */
#include "arb_http.h"
#include "arb_limits.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char METRICS_TYPE[] = "text/plain; version=0.0.4";
static const char TEXT_TYPE[] = "text/plain; charset=utf-8";

enum conn_state { C_FREE, C_READING, C_WRITING, C_DRAINING };

/* One client connection: its request head as it arrives, then its answer
 * as it leaves. */
typedef struct conn {
    enum conn_state state;
    int fd;
    uint32_t addr;          /* IPv4, network order: the per-address limit */
    uint64_t born_ms, last_ms;
    size_t got;             /* bytes of the head in `in` */
    char *in;               /* ARB_HTTP_HEAD_CAP + 1 bytes, while reading */
    char *out;              /* the whole answer, while writing */
    size_t outlen, sent;
} conn;

struct arb_http {
    arb_http_render render;
    void *ctx;
    char *body;              /* ARB_HTTP_BODY_CAP bytes; touched only on the server thread */
    int port;                /* as bound, read back from the socket */
    int listen_fd;
    int wake[2];             /* a byte here stops the thread */
    bool running;            /* the thread was started (joined by arb_http_stop) */
    pthread_t thread;
    conn conns[ARB_HTTP_MAX_CONNECTIONS];
};

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void conn_close(conn *c)
{
    if (c->state == C_FREE)
        return;
    close(c->fd);
    free(c->in);
    free(c->out);
    *c = (conn){.state = C_FREE, .fd = -1};
}

static const char *status_text(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    default: return "Internal Server Error";
    }
}

/* Queue the answer and stop reading: `body` is sent only when `with_body`
 * (HEAD gets the headers of the GET, Content-Length included). */
static void answer(conn *c, int status, const char *type, const char *body, size_t len, bool with_body,
                   const char *allow)
{
    char head[320];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s%s%sConnection: close\r\n\r\n",
                     status, status_text(status), type, len, allow ? "Allow: " : "", allow ? allow : "",
                     allow ? "\r\n" : "");
    size_t hlen = n > 0 && (size_t)n < sizeof head ? (size_t)n : 0;
    size_t blen = with_body ? len : 0;
    free(c->in);
    c->in = NULL;
    c->out = malloc(hlen + blen);
    if (!c->out || !hlen) {
        conn_close(c);
        return;
    }
    memcpy(c->out, head, hlen);
    if (blen)
        memcpy(c->out + hlen, body, blen);
    c->outlen = hlen + blen;
    c->sent = 0;
    c->state = C_WRITING;
}

static void answer_text(conn *c, int status, const char *text, bool with_body, const char *allow)
{
    answer(c, status, TEXT_TYPE, text, strlen(text), with_body, allow);
}

/* A whole head is in c->in: decide the answer from its request line alone
 * (a body, a POST's, is never read). */
static void handle(arb_http *h, conn *c)
{
    char method[16], target[256], version[16];
    const char *line = c->in;
    size_t llen = strcspn(line, "\r\n");
    const char *sp1 = memchr(line, ' ', llen);
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', llen - (size_t)(sp1 + 1 - line)) : NULL;
    size_t mlen = sp1 ? (size_t)(sp1 - line) : 0;
    size_t tlen = sp2 ? (size_t)(sp2 - sp1 - 1) : 0;
    size_t vlen = sp2 ? llen - (size_t)(sp2 + 1 - line) : 0;
    if (!sp2 || mlen == 0 || mlen >= sizeof method || tlen == 0 || tlen >= sizeof target || vlen >= sizeof version) {
        answer_text(c, 400, "bad request\n", true, NULL);
        return;
    }
    memcpy(method, line, mlen);
    method[mlen] = 0;
    memcpy(target, sp1 + 1, tlen);
    target[tlen] = 0;
    memcpy(version, sp2 + 1, vlen);
    version[vlen] = 0;
    if (strncmp(version, "HTTP/1.", 7) != 0 || strspn(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != mlen) {
        answer_text(c, 400, "bad request\n", true, NULL);
        return;
    }
    target[strcspn(target, "?")] = 0;   /* a query changes nothing */
    bool is_metrics = strcmp(target, "/metrics") == 0, is_health = strcmp(target, "/healthz") == 0;
    bool get = strcmp(method, "GET") == 0, head = strcmp(method, "HEAD") == 0;
    if (!is_metrics && !is_health) {
        answer_text(c, 404, "not found: try /metrics or /healthz\n", !head, NULL);
        return;
    }
    if (!get && !head) {
        answer_text(c, 405, "method not allowed: GET or HEAD\n", true, "GET, HEAD");
        return;
    }
    if (is_health) {
        answer_text(c, 200, "ok\n", get, NULL);
        return;
    }
    size_t len = h->render(h->ctx, h->body, ARB_HTTP_BODY_CAP);
    /* A cut-off body would end mid-line: Prometheus would drop the scrape
     * with a parse error that hides the cause, or keep a partial one. */
    if (len >= ARB_HTTP_BODY_CAP) {
        answer_text(c, 500, "metrics exceed the 256 KiB answer limit\n", get, NULL);
        return;
    }
    answer(c, 200, METRICS_TYPE, h->body, len, get, NULL);
}

static void on_readable(arb_http *h, conn *c, uint64_t now)
{
    if (c->state == C_DRAINING) {
        /* after the answer: what the client still sends is read and
         * dropped until it hangs up, so that closing does not reset the
         * connection before it has read the answer */
        char sink[4096];
        ssize_t n = recv(c->fd, sink, sizeof sink, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            conn_close(c);
        return;
    }
    ssize_t n = recv(c->fd, c->in + c->got, ARB_HTTP_HEAD_CAP - c->got, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        conn_close(c);
        return;
    }
    if (n < 0)
        return;
    c->got += (size_t)n;
    c->in[c->got] = 0;
    c->last_ms = now;
    if (memchr(c->in, 0, c->got)) {
        answer_text(c, 400, "bad request\n", true, NULL);
        return;
    }
    if (strstr(c->in, "\r\n\r\n") || strstr(c->in, "\n\n"))
        handle(h, c);
    else if (c->got >= ARB_HTTP_HEAD_CAP)
        answer_text(c, 431, "request header too large\n", true, NULL);
}

static void on_writable(conn *c, uint64_t now)
{
    ssize_t n = send(c->fd, c->out + c->sent, c->outlen - c->sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
        conn_close(c);
        return;
    }
    if (n > 0) {
        c->sent += (size_t)n;
        c->last_ms = now;
    }
    if (c->sent == c->outlen) {
        free(c->out);
        c->out = NULL;
        shutdown(c->fd, SHUT_WR);
        c->state = C_DRAINING;
    }
}

static void accept_all(arb_http *h, uint64_t now)
{
    for (;;) {
        struct sockaddr_in sa;
        socklen_t len = sizeof sa;
        int fd = accept4(h->listen_fd, (struct sockaddr *)&sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;   /* EAGAIN: all taken; anything else: try again next round */
        conn *slot = NULL;
        unsigned same = 0;
        for (unsigned i = 0; i < ARB_HTTP_MAX_CONNECTIONS; i++) {
            conn *c = &h->conns[i];
            if (c->state == C_FREE)
                slot = slot ? slot : c;
            else if (c->addr == sa.sin_addr.s_addr)
                same++;
        }
        char *in = slot && same < ARB_HTTP_MAX_PER_IP ? malloc(ARB_HTTP_HEAD_CAP + 1) : NULL;
        if (!in) {   /* full, this address holds its share, or no memory */
            close(fd);
            continue;
        }
        in[0] = 0;
        *slot = (conn){.state = C_READING, .fd = fd, .addr = sa.sin_addr.s_addr, .born_ms = now, .last_ms = now,
                       .in = in};
    }
}

static void *serve(void *arg)
{
    arb_http *h = arg;
    struct pollfd pfd[ARB_HTTP_MAX_CONNECTIONS + 2];
    unsigned which[ARB_HTTP_MAX_CONNECTIONS];
    for (;;) {
        uint64_t now = mono_ms();
        int timeout = 1000;
        unsigned n = 2;
        pfd[0] = (struct pollfd){h->wake[0], POLLIN, 0};
        pfd[1] = (struct pollfd){h->listen_fd, POLLIN, 0};
        for (unsigned i = 0; i < ARB_HTTP_MAX_CONNECTIONS; i++) {
            conn *c = &h->conns[i];
            if (c->state == C_FREE)
                continue;
            uint64_t idle_end = c->last_ms + ARB_HTTP_IDLE_TIMEOUT_S * 1000u;
            uint64_t end = c->born_ms + ARB_HTTP_REQUEST_DEADLINE_S * 1000u;
            if (idle_end < end)
                end = idle_end;
            if (now >= end) {
                conn_close(c);
                continue;
            }
            if (end - now < (uint64_t)timeout)
                timeout = (int)(end - now);
            which[n - 2] = i;
            pfd[n++] = (struct pollfd){c->fd, c->state == C_WRITING ? POLLOUT : POLLIN, 0};
        }
        if (poll(pfd, n, timeout) < 0 && errno != EINTR)
            break;
        if (pfd[0].revents)
            break;
        now = mono_ms();
        for (unsigned k = 2; k < n; k++) {
            conn *c = &h->conns[which[k - 2]];
            if (!pfd[k].revents)
                continue;
            if (c->state == C_WRITING && (pfd[k].revents & POLLOUT))
                on_writable(c, now);
            else if (pfd[k].revents & (POLLERR | POLLNVAL))
                conn_close(c);
            else
                on_readable(h, c, now);
        }
        if (pfd[1].revents & POLLIN)
            accept_all(h, now);
    }
    return NULL;
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

/* listen(2), out of the way of the `listen` parameters below. */
static int listen_on(int fd) { return listen(fd, 64); }

int arb_http_socket_port(int fd)
{
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    if (fd < 0 || getsockname(fd, (struct sockaddr *)&sa, &len) != 0 || sa.sin_family != AF_INET)
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
    if (h) {
        h->listen_fd = h->wake[0] = h->wake[1] = -1;
        for (unsigned i = 0; i < ARB_HTTP_MAX_CONNECTIONS; i++)
            h->conns[i] = (conn){.state = C_FREE, .fd = -1};
        h->body = malloc(ARB_HTTP_BODY_CAP);
    }
    if (!h || !h->body) {
        snprintf(err, errlen, "listen %s: out of memory", where);
        goto out;
    }
    h->render = render;
    h->ctx = ctx;
    h->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (h->listen_fd < 0 || setsockopt(h->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0
        || bind(h->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen_on(h->listen_fd) != 0) {
        snprintf(err, errlen, "listen %s: %s", where, strerror(errno));
        goto out;
    }
    h->port = arb_http_socket_port(h->listen_fd);
    if (h->port < 0) {
        snprintf(err, errlen, "listen %s: cannot read the bound port: %s", where, strerror(errno));
        goto out;
    }
    if (pipe2(h->wake, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "listen %s: %s", where, strerror(errno));
        goto out;
    }
    /* The server thread takes no signal: a daemon's SIGTERM reaches its
     * main loop, never this thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&h->thread, NULL, serve, h);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "listen %s: cannot start the server thread: %s", where, strerror(rc));
        goto out;
    }
    h->running = true;
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
    if (h->running) {
        ssize_t w;
        do
            w = write(h->wake[1], "x", 1);
        while (w < 0 && errno == EINTR);
        pthread_join(h->thread, NULL);
    }
    for (unsigned i = 0; i < ARB_HTTP_MAX_CONNECTIONS; i++)
        conn_close(&h->conns[i]);
    if (h->listen_fd >= 0)
        close(h->listen_fd);
    if (h->wake[0] >= 0)
        close(h->wake[0]);
    if (h->wake[1] >= 0)
        close(h->wake[1]);
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
