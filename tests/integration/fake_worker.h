/* fake_worker.h — referee workers spoken by hand, for the tests of the
 * scheduler's side of the worker protocol (test_pool, wrk_pool): a CURVE
 * DEALER with a route nobody can guess, an inbox of what the scheduler
 * sent, and the result frame of a played match. Each test keeps its own
 * fakes (what they hold, when they beat) around these pieces. */
#ifndef ARB_FAKE_WORKER_H
#define ARB_FAKE_WORKER_H
#include "match_def.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fw_frame {
    uint8_t *data;                 /* owned; NULL: none */
    size_t   len;
} fw_frame;

#define FW_INBOX 256
typedef struct fw_inbox {
    fw_frame frames[FW_INBOX];     /* in the order they came */
    int      n;
    bool     overflow;             /* a frame came when it was full */
} fw_inbox;

/* A DEALER in zctx with the key pair (pub, sec), connected over CURVE to
 * the scheduler whose public key is server_pub; routing id rid, or (NULL)
 * WIRE_ROUTING_ID_BYTES random bytes as a real worker makes it. Exits the
 * test (status 2) when it cannot be made. */
void *fw_dealer(void *zctx, const char *pub, const char *sec, const char *server_pub, const char *rid,
                const char *endpoint);

/* Keep a copy of a frame; sets overflow when full. */
void fw_keep(fw_inbox *in, const void *data, size_t len);
/* The first kept frame of this kind, taken out (the caller frees data);
 * data NULL when there is none. */
fw_frame fw_take_kind(fw_inbox *in, int kind);
/* The first frame of this kind, waiting up to ms for it while pump(10)
 * moves frames into the inbox; data NULL when none came. */
fw_frame fw_take_wait(fw_inbox *in, int kind, int ms, void (*pump)(int ms));
/* Frames of this kind kept. */
int fw_count_kind(const fw_inbox *in, int kind);
void fw_inbox_free(fw_inbox *in);

/* The transcript-signing key every fake worker announces in its hello
 * and signs its results with (arb_sign.h; a fixed seed). */
struct arb_sign_key;
const struct arb_sign_key *fw_sign_key(void);
/* Its public half, for wire_hello. */
const uint8_t *fw_sign_pk(void);

/* A played match of three bots, one deal, bot 0 the winner (2, 0, -2). */
void fw_played(match_result *res);
/* Send the result of (id, gen): played (fw_played, with `decisions`) when
 * ok, else void with `error`; transcript and digest as a worker reports
 * them. Returns zmq_send's count, or -1. */
int fw_send_result(void *sock, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                   uint64_t decisions);
/* The same, signed by key (NULL: sent unsigned) instead of fw_sign_key().
 * A played result goes after its transcript (fw_transcript, one chunk). */
int fw_send_result_signed(void *sock, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                          uint64_t decisions, const struct arb_sign_key *key);
/* The same; send_transcript false: the result alone (its chunks were sent
 * by the caller, or are meant to be missing). */
int fw_send_result_with(void *sock, int64_t id, int gen, bool ok, const char *error, const char *transcript,
                        uint64_t decisions, const struct arb_sign_key *key, bool send_transcript);
/* The transcript a fake worker sends for (id, gen): a line of text, its
 * digest record and (key not NULL) its signature record by key: *out
 * (free it), *len, its digest (hex) and the signature (64 bytes). */
int fw_transcript(int64_t id, int gen, const struct arb_sign_key *key, uint8_t **out, size_t *len, char digest[65],
                  uint8_t sig[64]);
/* A WIRE_TRANSCRIPT chunk sent as it is (bounds not checked here beyond
 * the encoder's): zmq_send's count, or -1 when it cannot be encoded. */
int fw_send_chunk(void *sock, int64_t id, int gen, uint64_t total, uint64_t offset, const uint8_t *bytes, size_t n);
#endif
