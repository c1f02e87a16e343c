/* arb_sign.h — the referee's signature on a transcript (docs/transcripts.md,
 * "Signatures"): Ed25519 (libsodium crypto_sign) over the transcript's
 * SHA-256 digest, under a domain label so that a signature of a transcript
 * can never be taken for a signature of anything else.
 *
 * A referee daemon's signing key is derived from its CURVE secret key
 * (arb_sign_from_secret), so it has one stable public key an organiser can
 * publish beside the CURVE key; a worker without one (the local worker of
 * `arbiter run` over inproc) signs with a fresh key per process. The
 * scheduler learns the public key from the worker's hello, over the
 * worker's authenticated connection, checks every result's signature with
 * it, and records both in the match row. */
#ifndef ARB_SIGN_H
#define ARB_SIGN_H
#include <stdbool.h>
#include <stdint.h>

#define ARB_SIGN_PK_BYTES 32
#define ARB_SIGN_SK_BYTES 64
#define ARB_SIGN_BYTES 64

typedef struct arb_sign_key {
    uint8_t pk[ARB_SIGN_PK_BYTES];
    uint8_t sk[ARB_SIGN_SK_BYTES];
} arb_sign_key;

/* The signing key of a worker whose CURVE secret key is `secret` (32 raw
 * bytes): the Ed25519 key pair seeded by a keyed BLAKE2b derivation of it
 * (one-way: the public signing key says nothing of the CURVE secret).
 * 0, or ARB_EUNSUPPORTED when libsodium cannot start. */
int arb_sign_from_secret(const uint8_t secret[32], arb_sign_key *key);
/* A fresh random signing key. */
int arb_sign_random(arb_sign_key *key);
/* sig = Ed25519 over ("arbiter transcript v1" || digest). */
void arb_sign_digest(const arb_sign_key *key, const uint8_t digest[32], uint8_t sig[ARB_SIGN_BYTES]);
/* True when sig is pk's signature of that digest. */
bool arb_sign_verify(const uint8_t pk[ARB_SIGN_PK_BYTES], const uint8_t digest[32], const uint8_t sig[ARB_SIGN_BYTES]);
/* Wipe the secret half. */
void arb_sign_wipe(arb_sign_key *key);

#endif
