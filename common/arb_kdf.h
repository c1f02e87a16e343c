/* arb_kdf.h — keyed one-way derivations from a secret (docs/rng.md, "Keyed
 * seeds"): match keys and seeds that no bot can invert, the public
 * commitment to a secret, and the hex text a secret travels as. */
#ifndef ARB_KDF_H
#define ARB_KDF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARB_KEY_BYTES 32

/* out = BLAKE2b-256 keyed with `key` over the bytes of `label` (at most
 * ARB_MAX_SEED_LABEL of them). One-way: out reveals nothing of key. out may
 * be key. Returns 0, or ARB_EUNSUPPORTED when libsodium cannot start. */
int arb_key_derive(const uint8_t key[ARB_KEY_BYTES], const char *label, uint8_t out[ARB_KEY_BYTES]);
/* The first 8 bytes of arb_key_derive(key, label), little-endian: a seed
 * for arb_rng that says nothing about key or about any other label's. */
uint64_t arb_seed_keyed(const uint8_t key[ARB_KEY_BYTES], const char *label);
/* Same with an integer component: arb_seed_keyed(key, "<label>/<n>"). */
uint64_t arb_seed_keyedn(const uint8_t key[ARB_KEY_BYTES], const char *label, uint64_t n);
/* The public commitment to a secret: SHA-256(secret), lowercase hex (65 bytes). */
void arb_key_commitment(const uint8_t key[ARB_KEY_BYTES], char hex[65]);
/* SHA-256 of len bytes as lowercase hex (65 bytes with the NUL): the one
 * digest-to-text of the tree (tournament files, program bundles,
 * commitments). */
void arb_sha256_hex(const void *data, size_t len, char hex[65]);
/* A fresh random key from the system's generator. */
int arb_key_random(uint8_t key[ARB_KEY_BYTES]);
/* Hex text <-> key. arb_key_parse takes exactly 64 hex digits, optionally
 * surrounded by white space; ARB_EINVAL otherwise. */
void arb_key_hex(const uint8_t key[ARB_KEY_BYTES], char hex[65]);
/* Lowercase hex of n bytes into out (2n+1 bytes); and back from exactly 2n
 * hex digits (a signature, a signing key): 0, or ARB_EINVAL. */
void arb_hex(const uint8_t *bytes, size_t n, char *out);
int arb_unhex(const char *text, uint8_t *bytes, size_t n);
int arb_key_parse(const char *text, uint8_t key[ARB_KEY_BYTES]);
/* Read a secret file: 64 hex digits. Refused (ARB_EINVAL) when group or
 * others may read it, since whoever reads it can deal every deal. Errors
 * as text naming the file. */
int arb_key_read_file(const char *path, uint8_t key[ARB_KEY_BYTES], char *err, size_t errlen);
/* Constant-time comparison of two keys. */
bool arb_key_equal(const uint8_t a[ARB_KEY_BYTES], const uint8_t b[ARB_KEY_BYTES]);

#endif
