/* arb_sign.c — transcript signatures, Ed25519 by libsodium (arb_sign.h). */
#include "arb_sign.h"
#include "arb_error.h"
#include "arb_kdf.h"

#include <sodium.h>
#include <string.h>

/* The domain label: what a signature says it signs. */
static const char label[] = "arbiter transcript v1";

_Static_assert(crypto_sign_PUBLICKEYBYTES == ARB_SIGN_PK_BYTES, "Ed25519 public key");
_Static_assert(crypto_sign_SECRETKEYBYTES == ARB_SIGN_SK_BYTES, "Ed25519 secret key");
_Static_assert(crypto_sign_BYTES == ARB_SIGN_BYTES, "Ed25519 signature");
_Static_assert(crypto_sign_SEEDBYTES == ARB_KEY_BYTES, "a derived key seeds a key pair");

int arb_sign_from_secret(const uint8_t secret[32], arb_sign_key *key)
{
    uint8_t seed[ARB_KEY_BYTES];
    int rc = arb_key_derive(secret, "arbiter/referee/transcript-signing", seed);
    if (rc)
        return rc;
    crypto_sign_seed_keypair(key->pk, key->sk, seed);
    sodium_memzero(seed, sizeof seed);
    return 0;
}

int arb_sign_random(arb_sign_key *key)
{
    if (sodium_init() < 0)
        return ARB_EUNSUPPORTED;
    crypto_sign_keypair(key->pk, key->sk);
    return 0;
}

static void message(const uint8_t digest[32], uint8_t m[sizeof label - 1 + 32])
{
    memcpy(m, label, sizeof label - 1);
    memcpy(m + sizeof label - 1, digest, 32);
}

void arb_sign_digest(const arb_sign_key *key, const uint8_t digest[32], uint8_t sig[ARB_SIGN_BYTES])
{
    uint8_t m[sizeof label - 1 + 32];
    message(digest, m);
    crypto_sign_detached(sig, NULL, m, sizeof m, key->sk);
}

bool arb_sign_verify(const uint8_t pk[ARB_SIGN_PK_BYTES], const uint8_t digest[32], const uint8_t sig[ARB_SIGN_BYTES])
{
    if (sodium_init() < 0)
        return false;
    uint8_t m[sizeof label - 1 + 32];
    message(digest, m);
    return crypto_sign_verify_detached(sig, m, sizeof m, pk) == 0;
}

void arb_sign_wipe(arb_sign_key *key)
{
    sodium_memzero(key->sk, sizeof key->sk);
}
