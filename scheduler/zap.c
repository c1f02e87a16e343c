/* zap.c — the ZAP handler and CURVE set-up (zap.h). */
#include "zap.h"
#include "arb_error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

struct zap {
    void *ctx;
    void *sock;                /* REP on inproc://zeromq.zap.01 */
    pthread_t thread;
    uint8_t (*keys)[32];       /* admitted public keys, binary */
    int nkeys;
    atomic_bool alive;
    atomic_bool stop;
    atomic_ulong admitted, refused;
};

int zap_keygen(char public_key[ZAP_KEY_TEXT], char secret_key[ZAP_KEY_TEXT])
{
    if (!zmq_has("curve"))
        return ARB_EUNSUPPORTED;
    return zmq_curve_keypair(public_key, secret_key) == 0 ? 0 : ARB_EIO;
}

/* One request frame into buf (bounded); its length, or -1. */
static int frame(void *sock, char *buf, size_t cap, bool *more)
{
    int n = zmq_recv(sock, buf, cap, 0);
    int m = 0;
    size_t ml = sizeof m;
    zmq_getsockopt(sock, ZMQ_RCVMORE, &m, &ml);
    *more = m != 0;
    return n < 0 || (size_t)n > cap ? -1 : n;
}

static void reply(void *sock, const char *id, int idlen, const char *code, const char *text)
{
    zmq_send(sock, "1.0", 3, ZMQ_SNDMORE);
    zmq_send(sock, id, (size_t)idlen, ZMQ_SNDMORE);
    zmq_send(sock, code, strlen(code), ZMQ_SNDMORE);
    zmq_send(sock, text, strlen(text), ZMQ_SNDMORE);
    zmq_send(sock, "", 0, ZMQ_SNDMORE);   /* user id */
    zmq_send(sock, "", 0, 0);             /* metadata */
}

static void *serve(void *arg)
{
    zap *z = arg;
    while (!atomic_load(&z->stop)) {
        /* version, request id, domain, address, identity, mechanism, credentials... */
        char parts[8][256];
        int len[8], n = 0;
        bool more = true;
        zmq_pollitem_t item = {z->sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&item, 1, 100) <= 0)
            continue;
        while (more && n < 8) {
            len[n] = frame(z->sock, parts[n], sizeof parts[n], &more);
            if (len[n] < 0)
                break;
            n++;
        }
        while (more) {   /* drain anything past what a ZAP request holds */
            char skip[256];
            if (frame(z->sock, skip, sizeof skip, &more) < 0)
                break;
        }
        if (n < 7 || len[0] != 3 || memcmp(parts[0], "1.0", 3) != 0) {
            reply(z->sock, n > 1 ? parts[1] : "", n > 1 && len[1] > 0 ? len[1] : 0, "400", "malformed request");
            atomic_fetch_add(&z->refused, 1);
            continue;
        }
        bool curve = len[5] == 5 && memcmp(parts[5], "CURVE", 5) == 0;
        bool listed = false;
        for (int i = 0; curve && len[6] == 32 && i < z->nkeys && !listed; i++)
            listed = memcmp(parts[6], z->keys[i], 32) == 0;
        if (listed) {
            reply(z->sock, parts[1], len[1], "200", "OK");
            atomic_fetch_add(&z->admitted, 1);
        } else {
            reply(z->sock, parts[1], len[1], "400", curve ? "key not listed" : "CURVE required");
            atomic_fetch_add(&z->refused, 1);
        }
    }
    atomic_store(&z->alive, false);
    return NULL;
}

zap *zap_start(void *zmq_ctx, const char *const *keys, int nkeys, char *err, size_t errlen)
{
    if (!zmq_has("curve")) {
        snprintf(err, errlen, "this libzmq has no CURVE security");
        return NULL;
    }
    if (nkeys < 0 || nkeys > ZAP_MAX_KEYS) {
        snprintf(err, errlen, "%d worker keys (at most %d)", nkeys, ZAP_MAX_KEYS);
        return NULL;
    }
    zap *z = calloc(1, sizeof *z);
    if (!z || !(z->keys = calloc((size_t)(nkeys ? nkeys : 1), sizeof *z->keys))) {
        free(z);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < nkeys; i++)
        if (strlen(keys[i]) != 40 || !zmq_z85_decode(z->keys[i], keys[i])) {
            snprintf(err, errlen, "worker key %d is not a 40-character Z85 CURVE public key", i + 1);
            free(z->keys);
            free(z);
            return NULL;
        }
    z->nkeys = nkeys;
    z->ctx = zmq_ctx;
    z->sock = zmq_socket(zmq_ctx, ZMQ_REP);
    int linger = 0;
    if (z->sock)
        zmq_setsockopt(z->sock, ZMQ_LINGER, &linger, sizeof linger);
    if (!z->sock || zmq_bind(z->sock, "inproc://zeromq.zap.01") != 0) {
        snprintf(err, errlen, "ZAP handler: %s", zmq_strerror(zmq_errno()));
        if (z->sock)
            zmq_close(z->sock);
        free(z->keys);
        free(z);
        return NULL;
    }
    atomic_store(&z->alive, true);
    if (pthread_create(&z->thread, NULL, serve, z) != 0) {
        zmq_close(z->sock);
        free(z->keys);
        free(z);
        snprintf(err, errlen, "ZAP handler: no thread");
        return NULL;
    }
    return z;
}

void zap_counts(const zap *z, unsigned long *admitted, unsigned long *refused)
{
    *admitted = atomic_load(&((zap *)z)->admitted);
    *refused = atomic_load(&((zap *)z)->refused);
}

bool zap_alive(const zap *z) { return atomic_load(&((zap *)z)->alive); }

void zap_stop(zap *z)
{
    if (!z)
        return;
    atomic_store(&z->stop, true);
    pthread_join(z->thread, NULL);
    zmq_close(z->sock);
    free(z->keys);
    free(z);
}

int zap_curve_server(void *socket, const char *secret_key)
{
    int one = 1;
    if (zmq_setsockopt(socket, ZMQ_CURVE_SERVER, &one, sizeof one) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, secret_key, 40) != 0
        || zmq_setsockopt(socket, ZMQ_ZAP_DOMAIN, "arbiter", 7) != 0)
        return ARB_EIO;
    return 0;
}

int zap_curve_client(void *socket, const char *public_key, const char *secret_key, const char *server_public)
{
    if (zmq_setsockopt(socket, ZMQ_CURVE_SERVERKEY, server_public, 40) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_PUBLICKEY, public_key, 40) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, secret_key, 40) != 0)
        return ARB_EIO;
    return 0;
}
