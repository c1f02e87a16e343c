/* worker.c — the referee worker loop (worker.h). */
#include "worker.h"
#include "transcript.h"
#include "wire.h"
#include "arb_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zmq.h>

static int send_frame(void *sock, uint8_t *frame, size_t len)
{
    int rc = zmq_send(sock, frame, len, 0) == (int)len ? 0 : ARB_EIO;
    free(frame);
    return rc;
}

/* A worker on another host has no scheduler's state directory: the
 * transcript goes to its own working directory instead (named in the
 * result). */
static tr_sink *fallback_transcript(const worker_options *o, const wire_assign *a, char *path, size_t len, int *rc)
{
    const char *base = strrchr(a->transcript, '/');
    char dir[600];
    snprintf(dir, sizeof dir, "%s/transcripts", o->workdir);
    mkdir(dir, 0700);
    if ((size_t)snprintf(path, len, "%.400s/%lld-%.60s", dir, (long long)a->match_id, base ? base + 1 : "match.arbt") >= len)
        return NULL;
    return tr_writer_open(path, rc);
}

/* Play one assignment; the result frame in *out. */
static int play(const worker_options *o, const wire_assign *a, uint8_t **out, size_t *len)
{
    wire_result w;
    memset(&w, 0, sizeof w);
    w.match_id = a->match_id;
    w.lease_gen = a->lease_gen;
    snprintf(w.transcript, sizeof w.transcript, "%s", a->transcript);
    live_options lo = o->live;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/match-%lld", o->workdir, (long long)a->match_id);
    lo.workdir = dir;
    char err[512];
    live_driver *l = live_new(&lo, err, sizeof err);
    int rc = 0;
    tr_sink *sink = NULL;
    if (!l) {
        snprintf(w.error, sizeof w.error, "%s", err);
    } else if (!(sink = tr_writer_open(a->transcript[0] ? a->transcript : NULL, &rc))
               && !(sink = fallback_transcript(o, a, w.transcript, sizeof w.transcript, &rc))) {
        snprintf(w.error, sizeof w.error, "transcript %.300s: %s", a->transcript, arb_strerror(rc));
    } else {
        rc = match_run(&a->cfg, live_driver_of(l), sink, NULL, &w.res);
        int crc = tr_close(sink, w.digest);
        if (rc || crc)
            snprintf(w.error, sizeof w.error, "%s", w.res.error[0] ? w.res.error : arb_strerror(rc ? rc : crc));
        else
            w.ok = true;
    }
    if (l)
        live_free(l);
    rmdir(dir);
    rc = wire_encode_result(&w, out, len);
    match_result_release(&w.res);
    return rc;
}

int worker_run(const worker_options *o)
{
    void *sock = zmq_socket(o->zmq_ctx, ZMQ_DEALER);
    if (!sock)
        return ARB_EIO;
    int64_t max = WIRE_MAX_FRAME;
    int linger = 0, timeout = 200;
    zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(sock, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(sock, ZMQ_IDENTITY, o->name, strlen(o->name));
    int rc = 0;
    if (o->server_key && (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, o->server_key, 40) != 0
                          || zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, o->public_key, 40) != 0
                          || zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, o->secret_key, 40) != 0)) {
        rc = ARB_EIO;
        goto out;
    }
    if (zmq_connect(sock, o->endpoint) != 0) {
        rc = ARB_EIO;
        goto out;
    }
    uint8_t *frame;
    size_t len;
    if (wire_hello(o->name, 1, &frame, &len) != 0 || send_frame(sock, frame, len) != 0) {
        rc = ARB_EIO;
        goto out;
    }
    uint8_t *pending = NULL;      /* a result sent and not yet acknowledged */
    size_t pending_len = 0;
    int64_t pending_id = -1;
    int idle = 0;
    while (!(o->stop && *o->stop)) {
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        int n = zmq_msg_recv(&msg, sock, 0);
        if (n < 0) {
            zmq_msg_close(&msg);
            if (errno != EAGAIN)
                break;
            /* Nothing for a while: resend an unacknowledged result (the
             * scheduler may have restarted), else remind it we are here. */
            if (++idle % 25 == 0) {
                if (pending) {
                    uint8_t *copy = malloc(pending_len);
                    if (copy) {
                        memcpy(copy, pending, pending_len);
                        send_frame(sock, copy, pending_len);
                    }
                } else if (wire_hello(o->name, 1, &frame, &len) == 0) {
                    send_frame(sock, frame, len);
                }
            }
            continue;
        }
        idle = 0;
        const uint8_t *data = zmq_msg_data(&msg);
        int kind = wire_kind_of(data, (size_t)n);
        if (kind == WIRE_STOP) {
            zmq_msg_close(&msg);
            break;
        }
        if (kind == WIRE_ACK) {
            int64_t id;
            int gen;
            if (wire_decode_ack(data, (size_t)n, &id, &gen) == 0 && id == pending_id) {
                free(pending);
                pending = NULL;
                pending_id = -1;
            }
        } else if (kind == WIRE_ASSIGN) {
            wire_assign *a = malloc(sizeof *a);
            if (a && wire_decode_assign(data, (size_t)n, a) == 0) {
                free(pending);
                pending = NULL;
                if (play(o, a, &pending, &pending_len) == 0) {
                    pending_id = a->match_id;
                    uint8_t *copy = malloc(pending_len);
                    if (copy) {
                        memcpy(copy, pending, pending_len);
                        send_frame(sock, copy, pending_len);
                    }
                }
            }
            free(a);
        }
        /* anything else (a malformed frame) is dropped: never fatal */
        zmq_msg_close(&msg);
    }
    free(pending);
out:
    zmq_close(sock);
    return rc;
}
