/* test_web_clients.c — who a web client is (web/web_clients.c): the peer,
 * or behind a configured trusted proxy the right-most untrusted address of
 * X-Forwarded-For. Hostile headers: from an untrusted peer, garbage, an
 * address with a port or brackets, a value longer than any address, more
 * hops than ARB_WEB_XFF_HOPS, a forged left-most entry; and the trusted
 * networks' own parser refusing what is not a network. */
#include "web_srv.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static wcl_addr addr(const char *s)
{
    wcl_net n;
    CHECK(wcl_net_parse(s, &n) == 0);
    return n.a;
}

/* The client of a request from peer with that X-Forwarded-For, as text. */
static const char *client(const char *peer, const char *xff, const wcl_net *nets, int n)
{
    static char out[64];
    wcl_addr p = addr(peer), c = wcl_client(&p, xff, nets, n);
    wcl_format(&c, out, sizeof out);
    return out;
}

int main(void)
{
    wcl_net nets[2];
    CHECK(wcl_net_parse("127.0.0.1", &nets[0]) == 0);
    CHECK(wcl_net_parse("10.0.0.0/8", &nets[1]) == 0);

    /* what is not a network is refused */
    wcl_net bad;
    CHECK(wcl_net_parse("", &bad) != 0);
    CHECK(wcl_net_parse("10.0.0.0/33", &bad) != 0);
    CHECK(wcl_net_parse("10.0.0.0/-1", &bad) != 0);
    CHECK(wcl_net_parse("10.0.0.0/8x", &bad) != 0);
    CHECK(wcl_net_parse("not-an-address", &bad) != 0);
    CHECK(wcl_net_parse("::1/129", &bad) != 0);

    /* an untrusted peer: its header is ignored, whatever it says */
    CHECK(strcmp(client("127.0.0.2", "198.51.100.1", nets, 2), "127.0.0.2") == 0);
    CHECK(strcmp(client("127.0.0.2", NULL, nets, 2), "127.0.0.2") == 0);
    /* the trusted proxy without a header: the proxy itself */
    CHECK(strcmp(client("127.0.0.1", NULL, nets, 2), "127.0.0.1") == 0);
    /* the right-most untrusted entry: a forged left-most one is not believed */
    CHECK(strcmp(client("127.0.0.1", "203.0.113.7, 198.51.100.1", nets, 2), "198.51.100.1") == 0);
    CHECK(strcmp(client("127.0.0.1", "198.51.100.2, 10.1.2.3", nets, 2), "198.51.100.2") == 0);
    /* spaces, a port, brackets, IPv6 */
    CHECK(strcmp(client("127.0.0.1", "  198.51.100.3:4711 ", nets, 2), "198.51.100.3") == 0);
    CHECK(strcmp(client("127.0.0.1", "[2001:db8::1]:443", nets, 2), "2001:db8::1") == 0);
    CHECK(strcmp(client("127.0.0.1", "2001:db8::2", nets, 2), "2001:db8::2") == 0);
    /* garbage ends the walk: the last trusted hop is the client */
    CHECK(strcmp(client("127.0.0.1", "<script>", nets, 2), "127.0.0.1") == 0);
    CHECK(strcmp(client("127.0.0.1", "198.51.100.4, junk, 10.9.9.9", nets, 2), "10.9.9.9") == 0);
    CHECK(strcmp(client("127.0.0.1", ",,,", nets, 2), "127.0.0.1") == 0);
    CHECK(strcmp(client("127.0.0.1", "[2001:db8::1", nets, 2), "127.0.0.1") == 0);
    /* a value longer than any address (32 KiB) is not one */
    size_t big = 32u << 10;
    char *xff = malloc(big + 1);
    CHECK(xff != NULL);
    memset(xff, '1', big);
    xff[big] = '\0';
    CHECK(strcmp(client("127.0.0.1", xff, nets, 2), "127.0.0.1") == 0);
    /* more trusted hops than ARB_WEB_XFF_HOPS: the walk stops at the last
     * one it looked at (a trusted address), never reaching the forged one */
    arb_buf chain;
    arb_buf_init(&chain, 0);
    arb_buf_puts(&chain, "198.51.100.9");
    for (int i = 0; i < (int)ARB_WEB_XFF_HOPS + 4; i++)
        arb_buf_printf(&chain, ", 10.0.0.%d", i + 1);
    CHECK(strcmp(client("127.0.0.1", arb_buf_str(&chain), nets, 2), "198.51.100.9") != 0);
    CHECK(strncmp(client("127.0.0.1", arb_buf_str(&chain), nets, 2), "10.0.0.", 7) == 0);
    arb_buf_release(&chain);
    free(xff);
    return TEST_DONE("web-clients");
}
