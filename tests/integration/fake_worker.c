/* fake_worker.c — referee workers spoken by hand (fake_worker.h). */
#include "fake_worker.h"
#include "arb_kdf.h"
#include "arb_sign.h"
#include "arb_time.h"
#include "wire.h"
#include "zap.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <zmq.h>

void *fw_dealer(void *zctx, const char *pub, const char *sec, const char *server_pub, const char *rid,
                const char *endpoint)
{
    void *sock = zmq_socket(zctx, ZMQ_DEALER);
    int linger = 0, hwm = 0;
    if (!sock)
        exit(2);
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    if (rid) {
        zmq_setsockopt(sock, ZMQ_ROUTING_ID, rid, strlen(rid));
    } else {
        uint8_t r[WIRE_ROUTING_ID_BYTES];
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
            exit(2);
        r[0] |= 0x80;   /* libzmq reserves ids that start with a zero byte */
        zmq_setsockopt(sock, ZMQ_ROUTING_ID, r, sizeof r);
    }
    if (zap_curve_client(sock, pub, sec, server_pub) != 0 || zmq_connect(sock, endpoint) != 0) {
        fprintf(stderr, "fake worker: cannot connect to %s\n", endpoint);
        exit(2);
    }
    return sock;
}

void fw_keep(fw_inbox *in, const void *data, size_t len)
{
    if (in->n == FW_INBOX) {
        in->overflow = true;
        return;
    }
    fw_frame *fr = &in->frames[in->n];
    fr->data = malloc(len + 1);
    if (!fr->data)
        exit(2);
    memcpy(fr->data, data, len);
    fr->len = len;
    in->n++;
}

fw_frame fw_take_kind(fw_inbox *in, int kind)
{
    for (int i = 0; i < in->n; i++)
        if (wire_kind_of(in->frames[i].data, in->frames[i].len) == kind) {
            fw_frame fr = in->frames[i];
            memmove(&in->frames[i], &in->frames[i + 1], (size_t)(in->n - i - 1) * sizeof fr);
            in->n--;
            return fr;
        }
    return (fw_frame){NULL, 0};
}

int fw_count_kind(const fw_inbox *in, int kind)
{
    int n = 0;
    for (int i = 0; i < in->n; i++)
        n += wire_kind_of(in->frames[i].data, in->frames[i].len) == kind;
    return n;
}

void fw_inbox_free(fw_inbox *in)
{
    for (int i = 0; i < in->n; i++)
        free(in->frames[i].data);
    in->n = 0;
}

void fw_played(match_result *res)
{
    memset(res, 0, sizeof *res);
    res->nbots = 3;
    res->ndeals = 1;
    res->deals = calloc(1, sizeof *res->deals);
    if (!res->deals)
        exit(2);
    const int64_t totals[3] = {2, 0, -2};
    for (int b = 0; b < 3; b++) {
        snprintf(res->bots[b].name, sizeof res->bots[b].name, "bot%d", b);
        res->bots[b].total = totals[b];
        res->bots[b].rank = b + 1;
        snprintf(res->bots[b].sandbox, sizeof res->bots[b].sandbox, "rlimits");
        res->deals[0].bot_at[b] = (uint8_t)b;
        res->deals[0].score[b] = totals[b];
    }
    res->deals[0].seed = 42;
    res->deals[0].forfeit_bot = -1;
    res->winners = 1;
}

const arb_sign_key *fw_sign_key(void)
{
    static arb_sign_key key;
    static bool made;
    if (!made) {
        uint8_t seed[32] = {'f', 'a', 'k', 'e'};
        if (arb_sign_from_secret(seed, &key) != 0)
            exit(2);
        made = true;
    }
    return &key;
}

const uint8_t *fw_sign_pk(void)
{
    return fw_sign_key()->pk;
}

int fw_send_result(void *sock, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                   uint64_t decisions)
{
    return fw_send_result_signed(sock, id, gen, ok, error, transcript, decisions, fw_sign_key());
}

int fw_transcript(int64_t id, int gen, const arb_sign_key *key, uint8_t **out, size_t *len, char digest[65],
                  uint8_t sig[64])
{
    char prefix[128];
    int n = snprintf(prefix, sizeof prefix, "a transcript of match %lld generation %d, spoken by hand\n",
                     (long long)id, gen);
    uint8_t *b = malloc((size_t)n + 44 + 111);
    if (!b)
        exit(2);
    memcpy(b, prefix, (size_t)n);
    uint8_t d[32];
    crypto_hash_sha256(d, b, (size_t)n);
    arb_key_hex(d, digest);
    size_t k = (size_t)n;
    /* the digest record [11, 0, "sha256", bin 32], then the signature
     * record [13, 0, "ed25519", bin 32, bin 64], as transcript_enc.c writes them */
    static const uint8_t dh[] = {0x94, 0x0b, 0x00, 0xa6, 's', 'h', 'a', '2', '5', '6', 0xc4, 0x20};
    memcpy(b + k, dh, sizeof dh);
    memcpy(b + k + sizeof dh, d, 32);
    k += sizeof dh + 32;
    if (key) {
        arb_sign_digest(key, d, sig);
        static const uint8_t sh[] = {0x95, 0x0d, 0x00, 0xa7, 'e', 'd', '2', '5', '5', '1', '9', 0xc4, 0x20};
        memcpy(b + k, sh, sizeof sh);
        memcpy(b + k + sizeof sh, key->pk, 32);
        b[k + sizeof sh + 32] = 0xc4;
        b[k + sizeof sh + 33] = 0x40;
        memcpy(b + k + sizeof sh + 34, sig, 64);
        k += sizeof sh + 34 + 64;
    }
    *out = b;
    *len = k;
    return 0;
}

int fw_send_chunk(void *sock, int64_t id, int gen, uint64_t total, uint64_t offset, const uint8_t *bytes, size_t n)
{
    wire_chunk c = {.match_id = id, .gen = gen, .total = total, .offset = offset, .bytes = bytes, .n = n};
    uint8_t *f;
    size_t len;
    if (wire_transcript_chunk(&c, &f, &len) != 0)
        return -1;
    int rc = zmq_send(sock, f, len, 0);
    free(f);
    return rc;
}

int fw_send_result_signed(void *sock, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                          uint64_t decisions, const arb_sign_key *key)
{
    return fw_send_result_with(sock, id, gen, ok, error, transcript, decisions, key, true);
}

int fw_send_result_with(void *sock, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                        uint64_t decisions, const arb_sign_key *key, bool send_transcript)
{
    wire_result *w = calloc(1, sizeof *w);
    if (!w)
        exit(2);
    w->match_id = id;
    w->lease_gen = gen;
    w->ok = ok;
    snprintf(w->error, sizeof w->error, "%s", error);
    snprintf(w->transcript, sizeof w->transcript, "%s", transcript);
    if (ok) {
        /* the transcript first, in one chunk, as a worker sends it */
        uint8_t *tr;
        size_t tlen;
        fw_transcript(id, gen, key, &tr, &tlen, w->digest, w->signature);
        w->is_signed = key != NULL;
        if (send_transcript && fw_send_chunk(sock, id, gen, tlen, 0, tr, tlen) < 0) {
            free(tr);
            free(w);
            return -1;
        }
        free(tr);
        fw_played(&w->res);
        w->res.decisions = decisions;
    }
    uint8_t *b;
    size_t len;
    int rc = -1;
    if (wire_encode_result(w, &b, &len) == 0) {
        rc = zmq_send(sock, b, len, 0);
        free(b);
    }
    match_result_release(&w->res);
    free(w);
    return rc;
}

fw_frame fw_take_wait(fw_inbox *in, int kind, int ms, void (*pump)(int ms))
{
    uint64_t end = arb_now_ns() / 1000000u + (uint64_t)ms;
    for (;;) {
        fw_frame fr = fw_take_kind(in, kind);
        if (fr.data || arb_now_ns() / 1000000u >= end)
            return fr;
        pump(10);
    }
}
