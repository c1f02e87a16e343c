/* wire.h — the scheduler <-> referee worker messages (schemas/worker-protocol.md):
 * msgpack arrays in single ZeroMQ frames. Encoded with msgpack-c's packer,
 * decoded with the bounded reader arb_mp: a frame from the network is
 * checked against its own length before anything is believed. */
#ifndef ARB_WIRE_H
#define ARB_WIRE_H
#include "arb_limits.h"
#include "match_def.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Version 6: a worker sends the transcript itself, in chunks
 * (WIRE_TRANSCRIPT, at most ARB_WIRE_TRANSCRIPT_CHUNK bytes each), before
 * the result that names its digest, and again with every resend of that
 * result until it is acknowledged: the scheduler checks the bytes against
 * the signed digest and keeps them in the record (docs/transcripts.md, "In
 * the record"). Version 5: the hello carries the worker's transcript-signing public key
 * (Ed25519, arb_sign.h) and a result the signature of its transcript's
 * digest, which the scheduler checks against the key of the worker that
 * sent it; and a result carries its penalties one by one (game, decision,
 * seat, bot, reason, consequence, note: the first ARB_MAX_RESULT_PENALTIES
 * and a count of the rest), which the scheduler writes to the record's
 * penalties table. Version 4: a result carries the fixed teams' standings
 * (team of each bot, each team's total and rank). Version 3: the
 * assignment carries the match key (keyed seeds, docs/rng.md) with its
 * label and the commitment, and names no transcript path (the
 * worker chooses where it writes, under its own directory); every text
 * field is checked (wire_valid_text) by the decoders. Version 2 added
 * heartbeats, progress, program bundles by digest, hand-backs and a
 * scheduler that refuses other versions by name. A peer speaking another
 * version is told (WIRE_REFUSE) and ignored. Version 7: a bot of the
 * assignment may carry its entrant's start-up budget and environment
 * ([name, argv, startup_ms, [NAME=value ...]]; a bot declaring neither is
 * [name, argv] as before). */
#define WIRE_VERSION 7

/* Over CURVE a worker connects with a routing id of this many random
 * bytes (a new one per connection) and the scheduler drops frames from
 * shorter ones: a route nobody can guess, so nobody can take it over. */
#define WIRE_ROUTING_ID_BYTES 16

typedef enum wire_kind {
    WIRE_HELLO = 0,   /* w->s [0, version, name, slots, running] */
    WIRE_ASSIGN,      /* s->w [1, match, gen, config, programs] */
    WIRE_RESULT,      /* w->s [2, match, gen, ok, error, digest, signature|nil, transcript, result];
                         result [ndeals, decisions, wall_ns, winners, [bot...], [deal...], teams,
                          [dropped, [[game, decision, seat, bot, reason, consequence, note]...]]] */
    WIRE_ACK,         /* s->w [3, match, gen] — the result is in the record */
    WIRE_STOP,        /* s->w [4] — finish the matches in hand and leave */
    WIRE_HEARTBEAT,   /* w->s [5, free slots, running]; s->w [5] */
    WIRE_PROGRESS,    /* w->s [6, match, gen, games done, games, decisions, timeouts, penalties] */
    WIRE_REFUSE,      /* s->w [7, version, reason] — not admitted; the worker stops */
    WIRE_FETCH,       /* w->s [8, digest] — send me this program */
    WIRE_PROGRAM,     /* s->w [9, digest, bundle or nil, error] */
    WIRE_RELEASE,     /* w->s [10, match, gen, reason] — a lease handed back unplayed */
    WIRE_WELCOME,     /* s->w [11, version, heartbeat_ms] — hello accepted */
    WIRE_REHELLO,     /* s->w [12] — I do not know you (I restarted): say hello again */
    WIRE_TRANSCRIPT,  /* w->s [13, match, gen, total, offset, bytes] — a chunk of the transcript of
                         the result that follows (offset + |bytes| <= total <= ARB_MAX_TRANSCRIPT) */
    WIRE_NKINDS
} wire_kind;

/* A lease a worker holds: a match and the generation it was leased under. */
typedef struct wire_lease {
    int64_t match_id;
    int     gen;
} wire_lease;

/* A file of a bot's program, fetched by the bundle's digest: argv[argi] of
 * bot `bot` becomes <cache>/<digest>/<path> on the worker. */
typedef struct wire_program {
    int  bot, argi;
    char digest[65];
    char path[256];
} wire_program;

typedef struct wire_assign {
    int64_t  match_id;
    int      lease_gen;
    match_config cfg;
    int      nprograms;
    wire_program programs[ARB_WIRE_MAX_PROGRAMS];
} wire_assign;

typedef struct wire_result {
    int64_t  match_id;
    int      lease_gen;
    bool     ok;
    char     error[512];
    char     digest[65];
    bool     is_signed;        /* signature holds the worker's signature of digest */
    uint8_t  signature[64];    /* ARB_SIGN_BYTES (arb_sign.h) */
    char     transcript[512];  /* where the worker wrote it (its own directory) */
    match_result res;      /* res.deals is owned (match_result_release) */
} wire_result;

/* Encoders: a malloc'ed frame in *out (free it), its length in *len. */
/* sign_pk: the worker's transcript-signing public key (32 bytes). */
int wire_hello(const char *name, int slots, const wire_lease *running, int nrunning, const uint8_t sign_pk[32],
               uint8_t **out, size_t *len);
int wire_encode_assign(const wire_assign *a, uint8_t **out, size_t *len);
int wire_encode_result(const wire_result *r, uint8_t **out, size_t *len);
int wire_ack(int64_t match_id, int gen, uint8_t **out, size_t *len);
int wire_stop(uint8_t **out, size_t *len);
/* The worker's heartbeat (free slots and the leases it holds); the
 * scheduler's is wire_heartbeat(-1, NULL, 0, ...): just [5]. */
int wire_heartbeat(int free_slots, const wire_lease *running, int nrunning, uint8_t **out, size_t *len);
/* How far a match has got: games played of all, and the decisions, bot
 * timeouts and penalties so far (cumulative for the match). */
typedef struct wire_progress_info {
    int64_t  match_id;
    int      gen;
    uint32_t done, games;
    uint64_t decisions;
    uint32_t timeouts, penalties;
} wire_progress_info;
int wire_progress(const wire_progress_info *p, uint8_t **out, size_t *len);
int wire_refuse(const char *reason, uint8_t **out, size_t *len);
int wire_fetch(const char *digest, uint8_t **out, size_t *len);
/* bundle NULL: the scheduler does not have it (error says why). */
int wire_program_msg(const char *digest, const uint8_t *bundle, size_t blen, const char *error, uint8_t **out, size_t *len);
int wire_release(int64_t match_id, int gen, const char *reason, uint8_t **out, size_t *len);
int wire_welcome(int heartbeat_ms, uint8_t **out, size_t *len);
/* A chunk of a transcript: bytes [offset, offset + n) of total bytes, of
 * the match and generation whose result follows. n at most
 * ARB_WIRE_TRANSCRIPT_CHUNK, offset + n at most total, total at most
 * ARB_MAX_TRANSCRIPT (else ARB_EINVAL). */
typedef struct wire_chunk {
    int64_t        match_id;
    int            gen;
    uint64_t       total, offset;
    const uint8_t *bytes;    /* decoded: points into the frame */
    size_t         n;
} wire_chunk;
int wire_transcript_chunk(const wire_chunk *c, uint8_t **out, size_t *len);
int wire_rehello(uint8_t **out, size_t *len);

/* A text field from the wire: valid UTF-8 (no overlong forms, surrogates
 * or code points past U+10FFFF), no control characters (C0, DEL, C1), at
 * most max bytes. Every decoder checks every string with it (or with the
 * stricter rules below) before the frame is believed: nothing else reaches
 * SQL, a log line or a file name. */
bool wire_valid_text(const char *s, size_t max);
/* Make s valid text in place: every byte that is not part of a valid
 * character, and every control character, becomes '?'; cut at a character
 * boundary to at most max bytes. What a worker says about a failure (a
 * bot's own words may be in it) is cleaned before it is sent. */
void wire_clean_text(char *s, size_t max);
/* A worker's name in a hello: 1..ARB_WORKER_ID_MAX of [A-Za-z0-9] and the
 * punctuation of Z85 but for '/' and '*' (a host name, "local:0", or
 * "key:" and most of a Z85 key: logs only). */
bool wire_valid_name(const char *s);
/* A program digest as the wire carries it: 64 lowercase hex digits. */
bool wire_is_digest(const char *d);

/* The kind of a frame, or ARB_ECORRUPT. */
int wire_kind_of(const uint8_t *frame, size_t len);
/* Decoders: 0, or ARB_ECORRUPT (malformed), ARB_EUNSUPPORTED (version:
 * *version is set, the rest is not read). Nothing is allocated from a
 * count a frame claims before the bytes are there; running[] takes at most
 * cap leases (more is malformed). */
int wire_decode_hello(const uint8_t *frame, size_t len, int *version, char *name, size_t namelen, int *slots,
                      wire_lease *running, int cap, int *nrunning, uint8_t sign_pk[32]);
int wire_decode_assign(const uint8_t *frame, size_t len, wire_assign *a);
int wire_decode_result(const uint8_t *frame, size_t len, wire_result *r);
int wire_decode_ack(const uint8_t *frame, size_t len, int64_t *match_id, int *gen);
/* The worker's heartbeat: *free_slots = -1 for the scheduler's bare [5]. */
int wire_decode_heartbeat(const uint8_t *frame, size_t len, int *free_slots, wire_lease *running, int cap, int *nrunning);
int wire_decode_progress(const uint8_t *frame, size_t len, wire_progress_info *p);
int wire_decode_refuse(const uint8_t *frame, size_t len, int *version, char *reason, size_t cap);
int wire_decode_fetch(const uint8_t *frame, size_t len, char digest[65]);
/* *bundle points into frame (NULL when the scheduler had none). */
int wire_decode_program(const uint8_t *frame, size_t len, char digest[65], const uint8_t **bundle, size_t *blen,
                        char *error, size_t cap);
int wire_decode_release(const uint8_t *frame, size_t len, int64_t *match_id, int *gen, char *reason, size_t cap);
int wire_decode_welcome(const uint8_t *frame, size_t len, int *version, int *heartbeat_ms);
/* A chunk whose bounds break the rules above is malformed (ARB_ECORRUPT);
 * c->bytes points into frame. */
int wire_decode_transcript_chunk(const uint8_t *frame, size_t len, wire_chunk *c);

#endif
