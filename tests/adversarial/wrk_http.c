/* wrk_http.c — slow clients (slowloris) against the metrics endpoint
 * (arb_http): 40 connections on loopback that send a request a byte at a
 * time, each within the idle timeout, for longer than it. Before the fix
 * 16 such connections filled the server and /healthz failed for as long as
 * they trickled (26 s in the issue); now the connection limits are per
 * address and in total (ARB_HTTP_MAX_PER_IP, ARB_HTTP_MAX_CONNECTIONS) and
 * /healthz, from the same address, answers within a second or two all
 * along; and a connection that trickles is closed when its request
 * deadline (ARB_HTTP_REQUEST_DEADLINE_S) passes. */
#include "arb_http.h"
#include "arb_limits.h"
#include "arb_time.h"
#include "../unit/test_util.h"
#include "test_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define SLOW 40                  /* more than the old limit of 16 */
#define TRICKLE_MS 1000          /* a byte per connection this often: below the idle timeout */
#define RUN_MS 8000              /* longer than the idle timeout */
#define ANSWER_MS 2000

static size_t render(void *ctx, char *buf, size_t cap)
{
    size_t off = 0;
    arb_prom(buf, cap, &off, "wrk_up", "gauge", "Up", 1);
    return off;
}

static uint64_t now_ms(void) { return arb_now_ns() / 1000000u; }

static int connect_to(int port, int timeout_ms) { return test_connect_loopback(port, timeout_ms); }

/* GET /healthz: true when "200" and "ok" came back within ANSWER_MS. */
static bool healthy(int port, uint64_t *took_ms)
{
    uint64_t t0 = now_ms();
    int fd = connect_to(port, ANSWER_MS);
    char resp[512] = "";
    size_t got = 0;
    if (fd >= 0) {
        static const char req[] = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        if (send(fd, req, sizeof req - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof req - 1))
            for (ssize_t n; got + 1 < sizeof resp && (n = recv(fd, resp + got, sizeof resp - 1 - got, 0)) > 0;)
                got += (size_t)n;
        close(fd);
    }
    resp[got] = 0;
    *took_ms = now_ms() - t0;
    return strstr(resp, " 200 ") && strstr(resp, "ok") && *took_ms <= ANSWER_MS;
}

int main(void)
{
    char err[256];
    arb_http *h = arb_http_start("127.0.0.1:0", render, NULL, err, sizeof err);
    CHECKF(h != NULL, "%s", err);
    if (!h)
        return TEST_DONE("wrk_http");
    int port = arb_http_port(h);
    uint64_t took;
    CHECK(healthy(port, &took));

    static const char slow_req[] = "GET /metrics HTTP/1.1\r\nHost: slow\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaa";
    int fds[SLOW], sent[SLOW] = {0};
    uint64_t start = now_ms();
    for (int i = 0; i < SLOW; i++)
        fds[i] = connect_to(port, 200);
    int asked = 0, answered = 0;
    uint64_t worst = 0, end = now_ms() + RUN_MS, next = 0;
    while (now_ms() < end) {
        if (now_ms() >= next) {   /* one more byte on every slow connection */
            for (int i = 0; i < SLOW; i++)
                if (fds[i] >= 0 && slow_req[sent[i]] && send(fds[i], slow_req + sent[i], 1, MSG_NOSIGNAL) == 1)
                    sent[i]++;
            next = now_ms() + TRICKLE_MS;
        }
        asked++;
        if (healthy(port, &took))
            answered++;
        else
            fprintf(stderr, "/healthz did not answer in %llu ms\n", (unsigned long long)took);
        if (took > worst)
            worst = took;
        usleep(200000);
    }
    printf("/healthz with %d slow connections: %d of %d answered, slowest %llu ms\n", SLOW, answered, asked,
           (unsigned long long)worst);
    CHECKF(asked > 5 && answered == asked, "%d of %d answered", answered, asked);
    int open_slow = 0;   /* the slow ones were held, not refused (the attack was real) */
    for (int i = 0; i < SLOW; i++)
        open_slow += fds[i] >= 0 && sent[i] > 3;
    CHECKF(open_slow == SLOW, "%d slow connections got going", open_slow);
    /* ... and not for ever: past ARB_HTTP_REQUEST_DEADLINE_S from its
     * accept, a connection that has not finished its request is closed,
     * however steadily it trickles (recv sees the end, or a reset). */
    uint64_t deadline = start + ARB_HTTP_REQUEST_DEADLINE_S * 1000u + 1500u;
    while (now_ms() < deadline) {   /* still a byte a second, as before */
        for (int i = 0; i < SLOW; i++)
            if (fds[i] >= 0 && slow_req[sent[i]] && send(fds[i], slow_req + sent[i], 1, MSG_NOSIGNAL) == 1)
                sent[i]++;
        usleep(TRICKLE_MS * 1000);
    }
    int closed = 0;
    for (int i = 0; i < SLOW; i++) {
        char c;
        struct timeval tv = {0, 200000};
        if (fds[i] < 0)
            continue;
        setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        send(fds[i], "a", 1, MSG_NOSIGNAL);
        closed += recv(fds[i], &c, 1, 0) <= 0 && errno != EAGAIN;
    }
    CHECKF(closed == SLOW, "%d of %d trickling connections closed after the request deadline", closed, SLOW);
    for (int i = 0; i < SLOW; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    arb_http_stop(h);
    return TEST_DONE("wrk_http");
}
