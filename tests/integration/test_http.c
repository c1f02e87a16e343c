/* test_http.c — the metrics endpoint over a real loopback TCP socket, spoken
 * to by hand (no HTTP client library, so the bytes on the wire are what is
 * checked): /metrics in Prometheus text format following a counter the test
 * changes, /healthz, 404 and 405, a 100 KB header line and idle sockets that
 * do not stop the server, a taken port and bad addresses refused with a
 * message, and the text writers never passing their cap. */
#include "arb_http.h"
#include "arb_num.h"
#include "../unit/test_util.h"
#include "test_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* What the render function reads, from the server's thread. */
typedef struct metrics {
    _Atomic long requests;
    atomic_int overflow;   /* nonzero: claim the whole buffer, as a render that did not fit */
    atomic_int many;       /* nonzero: thousands of labeled series, near the cap */
    atomic_int renders;
} metrics;

static size_t render(void *ctx, char *buf, size_t cap)
{
    metrics *m = ctx;
    atomic_fetch_add(&m->renders, 1);
    if (atomic_load(&m->overflow))
        return cap;
    size_t off = 0;
    if (atomic_load(&m->many)) {
        arb_prom_head(buf, cap, &off, "arb_test_series", "gauge", "Many series.");
        for (int i = 0; i < 5000; i++) {
            char labels[32];
            snprintf(labels, sizeof labels, "n=\"%d\"", i);
            arb_prom_labeled(buf, cap, &off, "arb_test_series_with_a_long_name", labels, i);
        }
        return off;
    }
    arb_prom(buf, cap, &off, "arb_test_requests_total", "counter", "Requests seen by the test.",
             (double)atomic_load(&m->requests));
    arb_prom_head(buf, cap, &off, "arb_test_busy", "gauge", "Busy fraction per worker.");
    arb_prom_labeled(buf, cap, &off, "arb_test_busy", "worker=\"w1\"", 0.25);
    arb_prom_labeled(buf, cap, &off, "arb_test_busy", "worker=\"w2\"", 0.1);
    return off;
}

static int connect_to(int port) { return test_connect_loopback(port, 5000); }

/* Send a raw request and read the answer until the server closes (every
 * request says Connection: close, or is HTTP/1.0). The server may hang up
 * before taking all of a request it refuses: that is not an error here.
 * Returns the bytes read, or -1 if nothing came back. */
static long exchange(int port, const char *req, size_t reqlen, char *resp, size_t cap)
{
    int fd = connect_to(port);
    if (fd < 0)
        return -1;
    for (size_t sent = 0; sent < reqlen;) {
        ssize_t n = send(fd, req + sent, reqlen - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        sent += (size_t)n;
    }
    size_t got = 0;
    while (got + 1 < cap) {
        ssize_t n = recv(fd, resp + got, cap - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    resp[got] = 0;
    close(fd);
    return got ? (long)got : -1;
}

static long request(int port, const char *method, const char *path, char *resp, size_t cap)
{
    char req[512];
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", method, path);
    return exchange(port, req, (size_t)n, resp, cap);
}

static int status_of(const char *resp)
{
    int code = 0;
    if (sscanf(resp, "HTTP/1.%*d %d", &code) != 1)
        return 0;
    return code;
}

/* The value of a header (case-insensitive name), copied into out. */
static int header(const char *resp, const char *name, char *out, size_t cap)
{
    const char *end = strstr(resp, "\r\n\r\n");
    size_t nlen = strlen(name);
    for (const char *p = strstr(resp, "\r\n"); p && (!end || p < end); p = strstr(p + 2, "\r\n")) {
        const char *line = p + 2;
        if (strncasecmp(line, name, nlen) == 0 && line[nlen] == ':') {
            const char *v = line + nlen + 1;
            v += strspn(v, " ");
            size_t vlen = strcspn(v, "\r\n");
            if (vlen >= cap)
                vlen = cap - 1;
            memcpy(out, v, vlen);
            out[vlen] = 0;
            return 1;
        }
    }
    return 0;
}

static const char *body_of(const char *resp)
{
    const char *p = strstr(resp, "\r\n\r\n");
    return p ? p + 4 : "";
}

static void check_writers(void)
{
    /* Values as Prometheus reads them. */
    char buf[512];
    size_t off = 0;
    arb_prom_labeled(buf, sizeof buf, &off, "a", NULL, 42);
    arb_prom_labeled(buf, sizeof buf, &off, "b", "x=\"1\"", 0.1);
    arb_prom_labeled(buf, sizeof buf, &off, "c", "", -3);
    arb_prom_labeled(buf, sizeof buf, &off, "d", NULL, NAN);
    arb_prom_labeled(buf, sizeof buf, &off, "e", NULL, INFINITY);
    arb_prom_labeled(buf, sizeof buf, &off, "f", NULL, -INFINITY);
    arb_prom_labeled(buf, sizeof buf, &off, "g", NULL, 1e20);
    arb_prom_labeled(buf, sizeof buf, &off, "h", NULL, 9007199254740993.0);  /* rounds to 2^53 */
    arb_prom_labeled(buf, sizeof buf, &off, "i", NULL, 1.0 / 3.0);
    static const char want[] = "a 42\nb{x=\"1\"} 0.1\nc -3\nd NaN\ne +Inf\nf -Inf\ng 1e+20\n"
                               "h 9007199254740992\ni 0.3333333333333333\n";
    CHECKF(strcmp(buf, want) == 0, "got:\n%s", buf);
    CHECK(off == strlen(want));
    /* HELP is escaped; the format allows anything else in it. */
    off = 0;
    arb_prom(buf, sizeof buf, &off, "m", "gauge", "a \\ and\na newline", 1);
    CHECKF(strcmp(buf, "# HELP m a \\\\ and\\na newline\n# TYPE m gauge\nm 1\n") == 0, "got:\n%s", buf);

    /* A 40-byte buffer with a guard byte after it: the writers stop at the
     * cap, leave *off there, and every later append is a no-op. */
    char small[41];
    memset(small, '#', sizeof small);
    small[40] = 0x5a;
    off = 0;
    arb_prom(small, 40, &off, "arb_a_fairly_long_metric_name_total", "counter", "Long enough to overflow.", 7);
    CHECK(small[40] == 0x5a);
    CHECK(off == 40);
    arb_prom_labeled(small, 40, &off, "x", NULL, 1);
    CHECK(small[40] == 0x5a && off == 40);
    CHECK(memchr(small, 0, 40) != NULL);   /* still a C string */
    /* Byte by byte, over every cap up to the full text: never past it. */
    char full[256];
    size_t need = 0;
    arb_prom(full, sizeof full, &need, "arb_z", "gauge", "Z.", 12.5);
    int past = 0, wrong_off = 0;
    for (size_t cap = 0; cap <= need + 1; cap++) {
        char b[300];
        memset(b, '#', sizeof b);
        size_t o = 0;
        arb_prom(b, cap, &o, "arb_z", "gauge", "Z.", 12.5);
        for (size_t k = cap; k < sizeof b; k++)
            past += b[k] != '#';
        wrong_off += cap > need ? o != need : o != cap;
    }
    CHECK(past == 0);
    CHECK(wrong_off == 0);
    /* An *off already past the cap is clamped, not used. */
    off = 100;
    small[40] = 0x5a;
    arb_prom_labeled(small, 40, &off, "x", NULL, 1);
    CHECK(off == 40 && small[40] == 0x5a);
}

static void check_addresses(int taken_port)
{
    char err[256];
    const char *bad[] = {"300.1.1.1:80", "abc", "1.2.3.4:99999", "", "127.0.0.1:", "127.0.0.1:-1",
                         "127.0.0.1: 80", "localhost:80", "127.0.0.1:0x50", "::1:80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        metrics m = {0};
        arb_http *h = arb_http_start(bad[i], render, &m, err, sizeof err);
        CHECKF(h == NULL, "\"%s\" accepted", bad[i]);
        CHECKF(err[0] != 0 && (!bad[i][0] || strstr(err, bad[i])), "\"%s\": message \"%s\"", bad[i], err);
        arb_http_stop(h);
    }
    CHECK(arb_http_start(NULL, render, NULL, err, sizeof err) == NULL && err[0]);

    /* The port in use: refused, and the message names the address. */
    char addr[64], where[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", taken_port);
    snprintf(where, sizeof where, "127.0.0.1:%d", taken_port);
    err[0] = 0;
    metrics m = {0};
    arb_http *again = arb_http_start(addr, render, &m, err, sizeof err);
    CHECKF(again == NULL, "a second server on %s", addr);
    CHECKF(strstr(err, where) != NULL, "message \"%s\"", err);
    printf("port in use: %s\n", err);
    arb_http_stop(again);

    /* ":PORT" and "PORT" mean every IPv4 address. */
    arb_http *any = arb_http_start("0", render, &m, err, sizeof err);
    CHECKF(any != NULL && arb_http_port(any) > 0, "%s", err);
    arb_http_stop(any);
    any = arb_http_start(":0", render, &m, err, sizeof err);
    CHECKF(any != NULL && arb_http_port(any) > 0, "%s", err);
    arb_http_stop(any);
    arb_http_stop(NULL);
}

int main(void)
{
    static char resp[512 << 10];
    char err[256], value[128];
    metrics m = {0};
    atomic_store(&m.requests, 42);

    check_writers();

    arb_http *h = arb_http_start("127.0.0.1:0", render, &m, err, sizeof err);
    CHECKF(h != NULL, "%s", err);
    if (!h)
        return TEST_DONE("http");
    int port = arb_http_port(h);
    CHECKF(port > 0 && port < 65536, "port %d", port);

    /* /metrics: status, content type, HELP/TYPE/sample with the value now. */
    CHECK(request(port, "GET", "/metrics", resp, sizeof resp) > 0);
    CHECKF(strncmp(resp, "HTTP/1.1 200 OK\r\n", 17) == 0, "%.40s", resp);
    CHECK(header(resp, "Content-Type", value, sizeof value) && strcmp(value, "text/plain; version=0.0.4") == 0);
    const char *body = body_of(resp);
    CHECKF(strstr(body, "# HELP arb_test_requests_total Requests seen by the test.\n"
                        "# TYPE arb_test_requests_total counter\n"
                        "arb_test_requests_total 42\n") == body, "body:\n%s", body);
    CHECKF(strstr(body, "# TYPE arb_test_busy gauge\narb_test_busy{worker=\"w1\"} 0.25\n"
                        "arb_test_busy{worker=\"w2\"} 0.1\n") != NULL, "body:\n%s", body);
    CHECK(header(resp, "Content-Length", value, sizeof value) && arb_num_or(value, -1) == (long long)strlen(body));
    /* The counter moves, the next scrape follows. */
    atomic_store(&m.requests, 1234567);
    CHECK(request(port, "GET", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 200);
    CHECK(strstr(body_of(resp), "\narb_test_requests_total 1234567\n") != NULL);
    CHECK(strstr(body_of(resp), " 42\n") == NULL);
    /* A query string does not change the path. */
    CHECK(request(port, "GET", "/metrics?x=1", resp, sizeof resp) > 0 && status_of(resp) == 200);
    /* HTTP/1.0, as a minimal scraper speaks it. */
    static const char old[] = "GET /metrics HTTP/1.0\r\n\r\n";
    CHECK(exchange(port, old, sizeof old - 1, resp, sizeof resp) > 0 && status_of(resp) == 200);

    /* /healthz */
    CHECK(request(port, "GET", "/healthz", resp, sizeof resp) > 0 && status_of(resp) == 200);
    CHECK(strcmp(body_of(resp), "ok\n") == 0);
    /* HEAD: the headers of GET, no body. */
    CHECK(request(port, "HEAD", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 200);
    CHECK(strcmp(body_of(resp), "") == 0);

    /* Anything else. */
    int renders = atomic_load(&m.renders);
    CHECK(request(port, "GET", "/", resp, sizeof resp) > 0 && status_of(resp) == 404);
    CHECK(request(port, "GET", "/metrics/", resp, sizeof resp) > 0 && status_of(resp) == 404);
    CHECK(request(port, "GET", "/../etc/passwd", resp, sizeof resp) > 0 && status_of(resp) == 404);
    CHECK(request(port, "POST", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 405);
    CHECK(header(resp, "Allow", value, sizeof value) && strcmp(value, "GET, HEAD") == 0);
    CHECK(request(port, "DELETE", "/healthz", resp, sizeof resp) > 0 && status_of(resp) == 405);
    CHECK(atomic_load(&m.renders) == renders);   /* none of those rendered */
    /* A POST with a body it never reads: answered, and the server goes on. */
    static const char post[] = "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                               "Connection: close\r\n\r\nhello";
    CHECK(exchange(port, post, sizeof post - 1, resp, sizeof resp) > 0 && status_of(resp) == 405);

    /* A 100 KB header line: refused (or the connection dropped), and the
     * next request is served as before. */
    size_t biglen = 100 * 1024;
    char *big = malloc(biglen + 128);
    CHECK(big != NULL);
    if (big) {
        int n = snprintf(big, 128, "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");
        memset(big + n, 'a', biglen);
        memcpy(big + n + biglen, "\r\n\r\n", 5);
        long got = exchange(port, big, (size_t)n + biglen + 4, resp, sizeof resp);
        int code = got > 0 ? status_of(resp) : 0;
        CHECKF(got <= 0 || (code >= 400 && code < 500), "answer %d to a 100 KB header", code);
        printf("100 KB header line: %s%d\n", got > 0 ? "answered " : "connection dropped, ", code);
        free(big);
    }
    CHECK(request(port, "GET", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 200);
    /* A request line that is not HTTP at all. */
    static const char junk[] = "\x01\x02garbage\r\n\r\n";
    exchange(port, junk, sizeof junk - 1, resp, sizeof resp);
    CHECK(request(port, "GET", "/healthz", resp, sizeof resp) > 0 && status_of(resp) == 200);

    /* Idle clients (a slow scraper, a port scan) do not hold up the one
     * server thread: below the connection limit, others are still served. */
    int idle[8];
    for (int i = 0; i < 8; i++)
        idle[i] = connect_to(port);
    CHECK(send(idle[0], "GET /metr", 9, MSG_NOSIGNAL) == 9);   /* half a request line */
    CHECK(request(port, "GET", "/healthz", resp, sizeof resp) > 0 && status_of(resp) == 200);
    for (int i = 0; i < 8; i++)
        if (idle[i] >= 0)
            close(idle[i]);

    /* A body near the cap arrives whole (the library's per-connection
     * memory limit bounds the request, not the answer). */
    atomic_store(&m.many, 1);
    CHECK(request(port, "GET", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 200);
    body = body_of(resp);
    CHECKF(strlen(body) > 200000 && strlen(body) < ARB_HTTP_BODY_CAP, "%zu bytes", strlen(body));
    CHECK(header(resp, "Content-Length", value, sizeof value) && arb_num_or(value, -1) == (long long)strlen(body));
    static const char last[] = "\narb_test_series_with_a_long_name{n=\"4999\"} 4999\n";
    CHECK(strlen(body) > sizeof last && strcmp(body + strlen(body) - (sizeof last - 1), last) == 0);
    atomic_store(&m.many, 0);

    /* A render that does not fit: 500, not a cut-off body. */
    atomic_store(&m.overflow, 1);
    CHECK(request(port, "GET", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 500);
    atomic_store(&m.overflow, 0);
    CHECK(request(port, "GET", "/metrics", resp, sizeof resp) > 0 && status_of(resp) == 200);

    check_addresses(port);

    /* Stopped: the port is closed, and render is not called again. */
    arb_http_stop(h);
    renders = atomic_load(&m.renders);
    int fd = connect_to(port);
    CHECK(fd < 0);
    if (fd >= 0)
        close(fd);
    CHECK(atomic_load(&m.renders) == renders);
    return TEST_DONE("http");
}
