/* zap.c — the ZAP handler and CURVE set-up (zap.h). */
#include "zap.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/* An admitted key: its binary form, the identity the scheduler knows its
 * holder by (the ZAP User-Id), and its handshakes in the current minute. */
typedef struct zap_key {
    uint8_t  key[32];
    char     id[ZAP_ID_MAX + 1];
    uint64_t window_ns;        /* start of the current minute */
    int      handshakes;       /* admitted in it */
} zap_key;

struct zap {
    void *ctx;
    void *sock;                /* REP on inproc://zeromq.zap.01 */
    pthread_t thread;
    zap_key *keys;             /* admitted public keys and the identity of each */
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

/* user: the User-Id the scheduler reads from every message of that
 * connection (zmq_msg_gets "User-Id"): the key's identity. */
static void reply(void *sock, const char *id, int idlen, const char *code, const char *text, const char *user)
{
    zmq_send(sock, "1.0", 3, ZMQ_SNDMORE);
    zmq_send(sock, id, (size_t)idlen, ZMQ_SNDMORE);
    zmq_send(sock, code, strlen(code), ZMQ_SNDMORE);
    zmq_send(sock, text, strlen(text), ZMQ_SNDMORE);
    zmq_send(sock, user, strlen(user), ZMQ_SNDMORE);
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
            reply(z->sock, n > 1 ? parts[1] : "", n > 1 && len[1] > 0 ? len[1] : 0, "400", "malformed request", "");
            atomic_fetch_add(&z->refused, 1);
            continue;
        }
        bool curve = len[5] == 5 && memcmp(parts[5], "CURVE", 5) == 0;
        zap_key *k = NULL;
        for (int i = 0; curve && len[6] == 32 && i < z->nkeys && !k; i++)
            if (memcmp(parts[6], z->keys[i].key, 32) == 0)
                k = &z->keys[i];
        /* A key that opens connection after connection is cut off for the
         * rest of the minute (ARB_ZAP_HANDSHAKES_PER_MIN). */
        uint64_t now = arb_now_ns();
        if (k && now - k->window_ns >= 60000000000ull) {
            k->window_ns = now;
            k->handshakes = 0;
        }
        if (k && k->handshakes < ARB_ZAP_HANDSHAKES_PER_MIN) {
            k->handshakes++;
            reply(z->sock, parts[1], len[1], "200", "OK", k->id);
            atomic_fetch_add(&z->admitted, 1);
        } else {
            reply(z->sock, parts[1], len[1], k ? "300" : "400",
                  k ? "too many handshakes" : curve ? "key not listed" : "CURVE required", "");
            atomic_fetch_add(&z->refused, 1);
        }
    }
    atomic_store(&z->alive, false);
    return NULL;
}

bool zap_valid_id(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > ZAP_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_.:-", c)))
            return false;
    }
    return true;
}

/* "KEY" or "KEY NAME": the key in Z85, and the identity its holder is
 * known by (NAME, else "key:" and the key itself). */
static int parse_key(const char *entry, zap_key *k)
{
    size_t kl = strcspn(entry, " \t");
    const char *name = entry + kl + strspn(entry + kl, " \t");
    char z85[ZAP_KEY_TEXT];
    if (kl != 40)
        return ARB_EINVAL;
    memcpy(z85, entry, 40);
    z85[40] = 0;
    if (!zmq_z85_decode(k->key, z85))
        return ARB_EINVAL;
    if (*name) {
        if (!zap_valid_id(name))
            return ARB_EINVAL;
        snprintf(k->id, sizeof k->id, "%s", name);
    } else {
        snprintf(k->id, sizeof k->id, "key:%s", z85);
    }
    return 0;
}

zap *zap_start(void *zmq_ctx, const char *const *keys, int nkeys, char *err, size_t errlen)
{
    if (!zmq_has("curve")) {
        snprintf(err, errlen, "this libzmq has no CURVE security");
        return NULL;
    }
    if (nkeys < 0 || nkeys > ARB_ZAP_MAX_KEYS) {
        snprintf(err, errlen, "%d worker keys (at most %d)", nkeys, ARB_ZAP_MAX_KEYS);
        return NULL;
    }
    zap *z = calloc(1, sizeof *z);
    if (!z || !(z->keys = calloc((size_t)(nkeys ? nkeys : 1), sizeof *z->keys))) {
        free(z);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < nkeys; i++) {
        int rc = parse_key(keys[i], &z->keys[i]);
        for (int k = 0; rc == 0 && k < i; k++)
            if (strcmp(z->keys[k].id, z->keys[i].id) == 0 || memcmp(z->keys[k].key, z->keys[i].key, 32) == 0)
                rc = ARB_ESTATE;
        if (rc) {
            if (rc == ARB_ESTATE)
                snprintf(err, errlen, "worker key %d: the key or its name \"%s\" is listed twice", i + 1,
                         z->keys[i].id);
            else
                snprintf(err, errlen, "worker key %d is not a 40-character Z85 CURVE public key (and an optional "
                         "name of 1..%d of [A-Za-z0-9_.:-])", i + 1, ZAP_ID_MAX);
            free(z->keys);
            free(z);
            return NULL;
        }
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
