/* test_curve.c — who may join the worker pool, on real ZeroMQ sockets over
 * loopback TCP: a worker whose CURVE key is listed reaches the scheduler's
 * ROUTER and hears back; an unknown key and a plaintext client are refused
 * by the ZAP handler; a frame over the size limit cuts its sender off; and
 * random bytes, truncated frames and a header claiming a huge array are
 * refused by the decoders without harm. */
#include "zap.h"
#include "wire.h"
#include "arb_error.h"
#include "arb_rng.h"
#include "../unit/test_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

static char endpoint[128];

/* Send from a DEALER, and see whether the ROUTER gets it within ms. */
static int deliver(void *router, void *dealer, const void *msg, size_t len, int ms)
{
    zmq_send(dealer, msg, len, 0);
    zmq_pollitem_t item = {router, 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&item, 1, ms) <= 0)
        return 0;
    char id[256], buf[4096];
    zmq_recv(router, id, sizeof id, 0);
    int n = zmq_recv(router, buf, sizeof buf, 0);
    return n >= 0 ? n : 0;
}

static void *dealer(void *ctx, const char *pub, const char *sec, const char *server_pub)
{
    void *d = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 0;
    zmq_setsockopt(d, ZMQ_LINGER, &linger, sizeof linger);
    if (pub)
        zap_curve_client(d, pub, sec, server_pub);
    zmq_connect(d, endpoint);
    return d;
}

int main(void)
{
    void *ctx = zmq_ctx_new();
    char spub[ZAP_KEY_TEXT], ssec[ZAP_KEY_TEXT], wpub[ZAP_KEY_TEXT], wsec[ZAP_KEY_TEXT], xpub[ZAP_KEY_TEXT],
        xsec[ZAP_KEY_TEXT];
    CHECK(zap_keygen(spub, ssec) == 0 && zap_keygen(wpub, wsec) == 0 && zap_keygen(xpub, xsec) == 0);
    CHECK(strlen(spub) == 40 && strcmp(spub, wpub) != 0);
    char err[256];
    const char *bad[] = {"not a key"};
    CHECK(zap_start(ctx, bad, 1, err, sizeof err) == NULL);
    /* The handler first, then the socket. */
    const char *listed[] = {wpub};
    zap *z = zap_start(ctx, listed, 1, err, sizeof err);
    CHECKF(z != NULL, "%s", err);
    if (!z)
        return TEST_DONE("curve");
    void *router = zmq_socket(ctx, ZMQ_ROUTER);
    int64_t max = 1024;
    int linger = 0;
    zmq_setsockopt(router, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(router, ZMQ_LINGER, &linger, sizeof linger);
    CHECK(zap_curve_server(router, ssec) == 0);
    CHECK(zmq_bind(router, "tcp://127.0.0.1:*") == 0);
    size_t elen = sizeof endpoint;
    zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, endpoint, &elen);

    /* A listed worker is admitted, and hears back. */
    void *w = dealer(ctx, wpub, wsec, spub);
    uint8_t *hello;
    size_t hlen;
    static const uint8_t zero_pk[32];
    wire_hello("worker-1", 2, NULL, 0, zero_pk, &hello, &hlen);
    CHECK(deliver(router, w, hello, hlen, 3000) == (int)hlen);
    /* An unknown key and a plaintext client never get through. */
    void *x = dealer(ctx, xpub, xsec, spub);
    CHECK(deliver(router, x, hello, hlen, 1000) == 0);
    void *p = dealer(ctx, NULL, NULL, NULL);
    CHECK(deliver(router, p, hello, hlen, 1000) == 0);
    unsigned long ok, refused;
    zap_counts(z, &ok, &refused);
    CHECKF(ok >= 1 && refused >= 1, "admitted %lu refused %lu", ok, refused);
    CHECK(zap_alive(z));
    /* Over ZMQ_MAXMSGSIZE: the sender is cut off, the router goes on. */
    static uint8_t big[2048];
    CHECK(deliver(router, w, big, sizeof big, 1000) == 0);
    void *w2 = dealer(ctx, wpub, wsec, spub);
    CHECK(deliver(router, w2, hello, hlen, 3000) == (int)hlen);

    /* Frames from the network: random bytes, every truncation, a lie. */
    arb_rng rng;
    arb_rng_seed(&rng, 5);
    int accepted = 0, kinds_ok = 0;
    for (int i = 0; i < 20000; i++) {
        uint8_t junk[64];
        size_t n = (size_t)arb_rng_below(&rng, sizeof junk) + 1;
        for (size_t k = 0; k < n; k++)
            junk[k] = (uint8_t)arb_rng_next(&rng);
        wire_assign a;
        wire_result r;
        int kind = wire_kind_of(junk, n);
        int rc1 = wire_decode_assign(junk, n, &a), rc2 = wire_decode_result(junk, n, &r);
        if (rc2 == 0)
            match_result_release(&r.res);
        kinds_ok += kind == ARB_ECORRUPT || (kind >= 0 && kind < WIRE_NKINDS);
        accepted += rc1 == 0 || rc2 == 0;
    }
    CHECK(kinds_ok == 20000);
    CHECKF(accepted == 0, "%d random frames accepted as an assignment or a result", accepted);
    int refused_cuts = 0;
    for (size_t cut = 0; cut < hlen; cut++) {
        int v, s, nrun;
        char name[64];
        wire_lease run[4];
        uint8_t pk[32];
        refused_cuts += wire_decode_hello(hello, cut, &v, name, sizeof name, &s, run, 4, &nrun, pk) != 0;
    }
    CHECK(refused_cuts == (int)hlen);
    static const uint8_t huge[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x02};
    CHECK(wire_kind_of(huge, sizeof huge) == ARB_ECORRUPT);
    free(hello);

    zmq_close(w);
    zmq_close(w2);
    zmq_close(x);
    zmq_close(p);
    zmq_close(router);
    zap_stop(z);
    zmq_ctx_term(ctx);
    return TEST_DONE("curve");
}
