/* crowd.c — the crowd of HTTP clients for `arbiter bench web --crowd`
 * (crowd.h): one thread, epoll, a state machine per client, loopback only. */
#include "crowd.h"
#include "arb_rng.h"
#include "arb_time.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define REQ_MAX 600              /* a request: the path (ARB_WEB_MAX_URL) and a few headers */
#define HEAD_MAX 8192            /* an answer's headers: ours are a few hundred bytes */
#define SLOW_REQ_BYTES 400       /* a slow client's request: longer than a run sends a byte a second */
#define RECONNECT_MS 1000        /* a stream or slow client begins again this long after an end */
#define EVENT_MARK "\nevent:"    /* an SSE event's start in a stream's body */
#define NS_PER_MS 1000000ull

typedef enum cstate {
    C_WAIT,         /* between requests (fd open: a kept-alive connection) */
    C_CONNECTING,
    C_SENDING,
    C_READING,
    C_DRIBBLE,      /* a slow client: a byte a second, reading what the server says */
} cstate;

typedef enum rstate {
    R_HEAD, R_LEN, R_CHUNK_SIZE, R_CHUNK_DATA, R_CHUNK_END, R_TRAILER, R_EOF,
} rstate;

typedef struct client {
    int fd;                    /* -1: none */
    int id;
    crowd_kind kind;
    crowd_route *route;        /* the request's */
    cstate st;
    uint32_t interest;         /* epoll events asked for */
    bool keepalive;            /* HTTP/1.1 keep-alive (else Connection: close) */
    bool proxy;                /* from 127.0.0.1 with X-Forwarded-For */
    bool in_flight;            /* a request begun and not accounted for */
    bool reused;               /* the request went on a kept-alive connection */
    uint64_t t0;               /* the request began (ns) */
    uint64_t at;               /* C_WAIT: begin then; C_DRIBBLE: the next byte then */
    char req[REQ_MAX];
    int reqlen, sent;
    /* the answer */
    rstate rs;
    char head[HEAD_MAX];
    size_t headlen;
    int status;                /* 0: no status line yet */
    bool server_closes;        /* Connection: close, or a body to the close */
    uint64_t remain;           /* R_LEN, R_CHUNK_DATA */
    size_t linelen;            /* R_CHUNK_SIZE, R_TRAILER: the line so far */
    char line[24];
    size_t mark;               /* CROWD_STREAM: bytes of EVENT_MARK matched */
} client;

typedef struct crowd {
    const crowd_spec *spec;
    client *c;
    int ep;
    arb_rng rng;
    int total_weight;
    crowd_route *stream_route, *slow_route;
    bool stopping;
} crowd;

static void add_ms(crowd_route *r, double ms)
{
    if (r->nms == r->capms) {
        size_t cap = r->capms ? r->capms * 2 : 1024;
        double *m = realloc(r->ms, cap * sizeof *m);
        if (!m)
            return;   /* the time is lost, the answer still counted */
        r->ms = m;
        r->capms = cap;
    }
    r->ms[r->nms++] = ms;
}

static int status_class(int status)
{
    switch (status) {
    case 200: return CROWD_200;
    case 304: return CROWD_304;
    case 429: return CROWD_429;
    case 503: return CROWD_503;
    case 0: return CROWD_NONE;
    default: return CROWD_OTHER;
    }
}

static void set_interest(crowd *cr, client *c, uint32_t ev)
{
    if (c->fd < 0 || c->interest == ev)
        return;
    struct epoll_event e = {.events = ev, .data.u32 = (uint32_t)c->id};
    epoll_ctl(cr->ep, EPOLL_CTL_MOD, c->fd, &e);
    c->interest = ev;
}

static void drop_fd(client *c)
{
    if (c->fd >= 0)
        close(c->fd);   /* leaves the epoll set with it */
    c->fd = -1;
    c->interest = 0;
}

static uint64_t think_ns(crowd *cr)
{
    int t = cr->spec->think_ms;
    return t > 0 ? arb_rng_below(&cr->rng, (uint64_t)2 * (uint64_t)t + 1) * NS_PER_MS : 0;
}

/* The request is over, with an answer of status (0: none) or without:
 * account for it and decide what the client does next. */
static void finish(crowd *cr, client *c, bool truncated)
{
    crowd_route *r = c->route;
    uint64_t now = arb_now_ns();
    if (c->in_flight) {
        r->answers[status_class(c->status)]++;
        r->truncated += truncated && c->status;
        if (c->status || c->kind == CROWD_SLOW)
            add_ms(r, (double)(now - c->t0) / 1e6);
    } else if (c->kind == CROWD_STREAM && c->status == 200) {
        r->ended++;   /* a stream answered, then ended by the server */
    }
    c->in_flight = false;
    bool keep = c->kind == CROWD_GET && c->keepalive && c->status && !c->server_closes && !truncated;
    if (!keep)
        drop_fd(c);
    else
        set_interest(cr, c, EPOLLIN | EPOLLRDHUP);   /* to see the server close it while idle */
    c->st = C_WAIT;
    c->at = now + (c->kind == CROWD_GET ? think_ns(cr) : RECONNECT_MS * NS_PER_MS);
}

static crowd_route *pick_route(crowd *cr)
{
    int64_t x = (int64_t)arb_rng_below(&cr->rng, (uint64_t)cr->total_weight);
    for (int i = 0; i < cr->spec->nroutes; i++) {
        crowd_route *r = &cr->spec->routes[i];
        if (r->kind != CROWD_GET)
            continue;
        x -= r->weight;
        if (x < 0)
            return r;
    }
    return NULL;
}

static void build_request(client *c)
{
    int n;
    if (c->kind == CROWD_SLOW) {
        n = snprintf(c->req, sizeof c->req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", c->route->path);
        memset(c->req + n, 'a', SLOW_REQ_BYTES - (size_t)n);
        memcpy(c->req + SLOW_REQ_BYTES - 4, "\r\n\r\n", 4);
        c->reqlen = SLOW_REQ_BYTES;
        return;
    }
    char xff[64] = "";
    if (c->proxy)   /* a visitor behind the proxy: a header's text, never an address connected to */
        snprintf(xff, sizeof xff, "X-Forwarded-For: 10.%d.%d.%d\r\n", (c->id >> 16) & 255, (c->id >> 8) & 255,
                 c->id & 255);
    n = snprintf(c->req, sizeof c->req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: arbiter-crowd\r\n%s"
                 "Connection: %s\r\n\r\n", c->route->path, xff, c->keepalive ? "keep-alive" : "close");
    c->reqlen = n < (int)sizeof c->req ? n : (int)sizeof c->req - 1;
}

/* A new connection from the client's address: 0, or -1 (counted as none). */
static int connect_client(crowd *cr, client *c)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
#ifdef IP_BIND_ADDRESS_NO_PORT
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);   /* the port chosen at connect */
#endif
    setsockopt(fd, IPPROTO_TCP, 1 /* TCP_NODELAY */, &one, sizeof one);
    uint32_t src = c->proxy ? 0x7f000001u : 0x7f000002u + (uint32_t)(c->id % 249);   /* 127.0.0.2..250 */
    struct sockaddr_in from = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(src)};
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)cr->spec->port)};
    to.sin_addr.s_addr = htonl(0x7f000001u);
    if (bind(fd, (struct sockaddr *)&from, sizeof from) != 0) {
        close(fd);
        return -1;
    }
    int rc = connect(fd, (struct sockaddr *)&to, sizeof to);
    if (rc != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    c->fd = fd;
    c->interest = EPOLLOUT;
    struct epoll_event e = {.events = EPOLLOUT, .data.u32 = (uint32_t)c->id};
    if (epoll_ctl(cr->ep, EPOLL_CTL_ADD, fd, &e) != 0) {
        drop_fd(c);
        return -1;
    }
    c->st = C_CONNECTING;
    return 0;
}

static void begin(crowd *cr, client *c)
{
    c->route = c->kind == CROWD_STREAM ? cr->stream_route : c->kind == CROWD_SLOW ? cr->slow_route : pick_route(cr);
    c->route->attempted++;
    c->in_flight = true;
    c->t0 = arb_now_ns();
    c->rs = R_HEAD;
    c->headlen = 0;
    c->status = 0;
    c->server_closes = false;
    c->linelen = 0;
    c->mark = 0;
    c->sent = 0;
    build_request(c);
    c->reused = c->fd >= 0;
    if (c->reused) {   /* kept alive */
        c->st = C_SENDING;
        set_interest(cr, c, EPOLLOUT);
    } else if (connect_client(cr, c) != 0) {
        finish(cr, c, false);
    }
}

/* The value of header name in the answer's headers, or NULL. */
static const char *header(const client *c, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(c->head, "\r\n"); p && p[2] != '\r'; p = strstr(p + 2, "\r\n"))
        if (strncasecmp(p + 2, name, nl) == 0 && p[2 + nl] == ':')
            return p + 3 + nl + strspn(p + 3 + nl, " \t");
    return NULL;
}

/* The headers are whole: the status, and how the body ends. true when
 * the answer is over already (no body). */
static bool headers_done(client *c)
{
    c->head[c->headlen] = '\0';
    c->status = 0;
    if (strncmp(c->head, "HTTP/1.", 7) == 0 && c->headlen > 12 && c->head[12] == ' ') {
        int s = (int)strtol(c->head + 9, NULL, 10);
        c->status = s >= 100 && s <= 599 ? s : 0;
    }
    const char *conn = header(c, "Connection"), *te = header(c, "Transfer-Encoding");
    const char *cl = header(c, "Content-Length");
    c->server_closes = conn && strncasecmp(conn, "close", 5) == 0;
    if (c->kind == CROWD_STREAM && c->status) {
        c->route->answers[status_class(c->status)]++;
        add_ms(c->route, (double)(arb_now_ns() - c->t0) / 1e6);
        c->in_flight = false;   /* answered: from here on an open stream */
        c->mark = 1;            /* the body's start is a line's start */
    }
    if (c->status == 304 || c->status == 204 || (c->status >= 100 && c->status < 200))
        return true;
    if (te && strncasecmp(te, "chunked", 7) == 0) {
        c->rs = R_CHUNK_SIZE;
    } else if (cl) {
        c->remain = strtoull(cl, NULL, 10);
        c->rs = R_LEN;
        return c->remain == 0;
    } else {
        c->rs = R_EOF;
        c->server_closes = true;
    }
    return false;
}

static void body(client *c, const char *p, size_t n)
{
    c->route->bytes += n;
    if (c->kind != CROWD_STREAM)
        return;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == EVENT_MARK[c->mark]) {
            if (++c->mark == sizeof EVENT_MARK - 1) {
                c->route->events++;
                c->mark = 0;
            }
        } else {
            c->mark = p[i] == '\n';
        }
    }
}

/* Bytes of the answer: true when it is over (the rest of p, if any, is
 * not this answer's and is dropped: no request is pipelined). */
static bool feed(client *c, const char *p, size_t n)
{
    while (n > 0) {
        size_t take;
        switch (c->rs) {
        case R_HEAD:
            if (c->headlen + 1 >= sizeof c->head) {
                c->server_closes = true;   /* headers past any of ours: given up, as an answer cut short */
                c->rs = R_EOF;
                break;
            }
            c->head[c->headlen++] = *p++;
            n--;
            if (c->headlen >= 4 && memcmp(c->head + c->headlen - 4, "\r\n\r\n", 4) == 0 && headers_done(c))
                return true;
            break;
        case R_LEN:
        case R_CHUNK_DATA:
            take = n < c->remain ? n : (size_t)c->remain;
            body(c, p, take);
            p += take;
            n -= take;
            c->remain -= take;
            if (c->remain == 0 && c->rs == R_LEN)
                return true;
            if (c->remain == 0)
                c->rs = R_CHUNK_END;
            break;
        case R_CHUNK_END:   /* the CRLF after a chunk's data */
            if (*p == '\n')
                c->rs = R_CHUNK_SIZE;
            p++;
            n--;
            break;
        case R_CHUNK_SIZE:
        case R_TRAILER:
            if (*p != '\n') {
                if (*p != '\r' && c->linelen + 1 < sizeof c->line)
                    c->line[c->linelen++] = *p;
                p++;
                n--;
                break;
            }
            p++;
            n--;
            c->line[c->linelen] = '\0';
            if (c->rs == R_TRAILER) {
                if (c->linelen == 0)
                    return true;
            } else {
                c->remain = strtoull(c->line, NULL, 16);
                c->rs = c->remain ? R_CHUNK_DATA : R_TRAILER;
            }
            c->linelen = 0;
            break;
        case R_EOF:
            body(c, p, n);
            n = 0;
            break;
        }
    }
    return false;
}

/* The connection closed (or failed) while reading. */
static void closed(crowd *cr, client *c)
{
    if (c->st == C_WAIT) {   /* an idle kept-alive connection, closed by the server */
        drop_fd(c);
        return;
    }
    if (c->reused && c->in_flight && c->headlen == 0) {
        /* a kept-alive connection the server closed as we reused it: sent
         * again on a new one, as browsers do (the time counts from the first) */
        drop_fd(c);
        c->reused = false;
        c->sent = 0;
        if (connect_client(cr, c) == 0)
            return;
    }
    bool whole = c->rs == R_EOF;
    bool truncated = c->status && !whole && c->kind != CROWD_STREAM;
    finish(cr, c, truncated);
}

static void on_readable(crowd *cr, client *c)
{
    char buf[65536];
    for (;;) {
        ssize_t r = recv(c->fd, buf, sizeof buf, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (r <= 0 || c->st == C_WAIT || c->st == C_CONNECTING) {
            closed(cr, c);   /* closed, failed, or bytes nobody asked for */
            return;
        }
        if (feed(c, buf, (size_t)r)) {
            finish(cr, c, false);
            return;
        }
    }
}

static void on_writable(crowd *cr, client *c)
{
    if (c->st == C_CONNECTING) {
        int e = 0;
        socklen_t el = sizeof e;
        if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e, &el) != 0 || e != 0) {
            finish(cr, c, false);
            return;
        }
        if (c->kind == CROWD_SLOW) {
            c->st = C_DRIBBLE;
            c->at = arb_now_ns();
            set_interest(cr, c, EPOLLIN | EPOLLRDHUP);
            return;
        }
        c->st = C_SENDING;
    }
    while (c->st == C_SENDING && c->sent < c->reqlen) {
        ssize_t w = send(c->fd, c->req + c->sent, (size_t)(c->reqlen - c->sent), MSG_NOSIGNAL);
        if (w < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        if (w <= 0) {
            finish(cr, c, false);
            return;
        }
        c->sent += (int)w;
    }
    if (c->st == C_SENDING) {
        c->st = C_READING;
        set_interest(cr, c, EPOLLIN | EPOLLRDHUP);
    }
}

/* A slow client's next byte, when due. */
static void dribble(crowd *cr, client *c, uint64_t now)
{
    if (now < c->at || c->sent >= c->reqlen)
        return;
    ssize_t w = send(c->fd, c->req + c->sent, 1, MSG_NOSIGNAL);
    if (w == 1)
        c->sent++;
    else if (!(w < 0 && (errno == EAGAIN || errno == EINTR)))
        closed(cr, c);   /* the server is gone: it cut us without a word */
    c->at = now + 1000 * NS_PER_MS;
}

static int raise_nofile(int need, char *err, size_t errlen)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= (rlim_t)need)
        return 0;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)need) {
        snprintf(err, errlen, "%d clients need %d descriptors; the hard limit is %llu (ulimit -Hn)", need - 64, need,
                 (unsigned long long)rl.rlim_max);
        return -1;
    }
    rl.rlim_cur = (rlim_t)need;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        snprintf(err, errlen, "cannot raise the descriptors' limit to %d: %s", need, strerror(errno));
        return -1;
    }
    return 0;
}

static int setup(crowd *cr, const crowd_spec *s, char *err, size_t errlen)
{
    memset(cr, 0, sizeof *cr);
    cr->spec = s;
    cr->ep = -1;
    for (int i = 0; i < s->nroutes; i++) {
        crowd_route *r = &s->routes[i];
        cr->total_weight += r->kind == CROWD_GET ? r->weight : 0;
        if (r->kind == CROWD_STREAM && !cr->stream_route)
            cr->stream_route = r;
        if (r->kind == CROWD_SLOW && !cr->slow_route)
            cr->slow_route = r;
    }
    if (cr->total_weight <= 0 || (s->streams && !cr->stream_route) || (s->slow && !cr->slow_route)
        || s->streams + s->slow > s->clients) {
        snprintf(err, errlen, "the crowd has no route for some of its clients");
        return -1;
    }
    if (raise_nofile(s->clients + 64, err, errlen) != 0)
        return -1;
    cr->ep = epoll_create1(EPOLL_CLOEXEC);
    cr->c = calloc((size_t)s->clients, sizeof *cr->c);
    if (cr->ep < 0 || !cr->c) {
        snprintf(err, errlen, "out of memory or descriptors for %d clients", s->clients);
        return -1;
    }
    arb_rng_seed(&cr->rng, 29);
    uint64_t now = arb_now_ns(), spread = (uint64_t)(s->seconds * 1e9 / 4);
    if (spread > 1000 * NS_PER_MS)
        spread = 1000 * NS_PER_MS;   /* the crowd arrives within a second */
    for (int i = 0; i < s->clients; i++) {
        client *c = &cr->c[i];
        c->fd = -1;
        c->id = i;
        c->kind = i < s->streams ? CROWD_STREAM : i < s->streams + s->slow ? CROWD_SLOW : CROWD_GET;
        c->keepalive = i % 2 == 0;
        c->proxy = c->kind == CROWD_GET && i % 100 < s->proxy_pct;
        c->at = now + (spread ? arb_rng_below(&cr->rng, spread) : 0);
    }
    return 0;
}

static void on_event(crowd *cr, client *c, uint32_t ev)
{
    if (c->fd >= 0 && (c->st == C_CONNECTING || (c->st == C_SENDING && (ev & EPOLLOUT))))
        on_writable(cr, c);   /* connected (or failed: SO_ERROR says), then the request sent */
    if (c->fd >= 0 && c->st != C_CONNECTING && (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
        on_readable(cr, c);
}

/* The run's end: what is still waiting is accounted as unfinished. */
static void wind_up(crowd *cr)
{
    for (int i = 0; i < cr->spec->clients; i++) {
        client *c = &cr->c[i];
        if (c->in_flight) {
            c->route->unfinished++;
            c->route->answers[CROWD_NONE] += c->kind != CROWD_SLOW;   /* a slow client not cut: not an answer */
        }
        drop_fd(c);
    }
}

int crowd_run(const crowd_spec *s, char *err, size_t errlen)
{
    crowd cr;
    int rc = setup(&cr, s, err, errlen);
    uint64_t start = arb_now_ns(), stop_at = start + (uint64_t)(s->seconds * 1e9), end = 0;
    struct epoll_event evs[256];
    while (rc == 0) {
        uint64_t now = arb_now_ns();
        if (!cr.stopping && (now >= stop_at || (s->stop && atomic_load(s->stop)))) {
            cr.stopping = true;
            end = now + (uint64_t)(s->grace_s * 1e9);
        }
        int busy = 0;
        for (int i = 0; i < s->clients; i++) {
            client *c = &cr.c[i];
            if (c->st == C_WAIT && !cr.stopping && now >= c->at)
                begin(&cr, c);
            else if (c->st == C_DRIBBLE)
                dribble(&cr, c, now);
            busy += c->in_flight && c->kind == CROWD_GET;
        }
        if (cr.stopping && (busy == 0 || now >= end))
            break;
        int n = epoll_wait(cr.ep, evs, (int)(sizeof evs / sizeof *evs), 5);
        for (int k = 0; k < n; k++)
            on_event(&cr, &cr.c[evs[k].data.u32], evs[k].events);
    }
    if (cr.c)
        wind_up(&cr);
    free(cr.c);
    if (cr.ep >= 0)
        close(cr.ep);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double crowd_quantile(crowd_route *r, double q)
{
    if (!r->nms)
        return 0;
    qsort(r->ms, r->nms, sizeof *r->ms, cmp_double);
    size_t k = (size_t)(q * (double)r->nms);
    return r->ms[k < r->nms ? k : r->nms - 1];
}

void crowd_release(crowd_route *routes, int n)
{
    for (int i = 0; i < n; i++) {
        free(routes[i].ms);
        routes[i].ms = NULL;
        routes[i].nms = routes[i].capms = 0;
    }
}
