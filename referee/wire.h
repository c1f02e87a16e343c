/* wire.h — the scheduler <-> referee worker messages (schemas/worker-protocol.md):
 * msgpack arrays in single ZeroMQ frames. Encoded with msgpack-c's packer,
 * decoded with the bounded reader arb_mp: a frame from the network is
 * checked against its own length before anything is believed. */
#ifndef ARB_WIRE_H
#define ARB_WIRE_H
#include "match.h"

#include <stddef.h>
#include <stdint.h>

#define WIRE_VERSION 1
/* A frame is at most this long (ZMQ_MAXMSGSIZE): a result of ARB_MAX_DEALS
 * deals is ~10 MB; an assignment a few KB. */
#define WIRE_MAX_FRAME (32u << 20)

typedef enum wire_kind {
    WIRE_HELLO = 0,   /* worker -> scheduler: [0, version, name, slots] */
    WIRE_ASSIGN,      /* scheduler -> worker: [1, match, gen, config, transcript path] */
    WIRE_RESULT,      /* worker -> scheduler: [2, match, gen, ok, error, digest, transcript, result] */
    WIRE_ACK,         /* scheduler -> worker: [3, match, gen] */
    WIRE_STOP,        /* scheduler -> worker: [4] — finish and leave */
    WIRE_NKINDS
} wire_kind;

typedef struct wire_assign {
    int64_t  match_id;
    int      lease_gen;
    match_config cfg;
    char     transcript[512];
} wire_assign;

typedef struct wire_result {
    int64_t  match_id;
    int      lease_gen;
    bool     ok;
    char     error[512];
    char     digest[65];
    char     transcript[512];
    match_result res;      /* res.deals is owned (match_result_release) */
} wire_result;

/* Encoders: a malloc'ed frame in *out (free it), its length in *len. */
int wire_hello(const char *name, int slots, uint8_t **out, size_t *len);
int wire_encode_assign(const wire_assign *a, uint8_t **out, size_t *len);
int wire_encode_result(const wire_result *r, uint8_t **out, size_t *len);
int wire_ack(int64_t match_id, int gen, uint8_t **out, size_t *len);
int wire_stop(uint8_t **out, size_t *len);

/* The kind of a frame, or ARB_ECORRUPT. */
int wire_kind_of(const uint8_t *frame, size_t len);
/* Decoders: 0, or ARB_ECORRUPT (malformed), ARB_EUNSUPPORTED (version). */
int wire_decode_hello(const uint8_t *frame, size_t len, int *version, char *name, size_t namelen, int *slots);
int wire_decode_assign(const uint8_t *frame, size_t len, wire_assign *a);
int wire_decode_result(const uint8_t *frame, size_t len, wire_result *r);
int wire_decode_ack(const uint8_t *frame, size_t len, int64_t *match_id, int *gen);

#endif
