/* arb_kdf.c — keyed derivations (BLAKE2b keyed, libsodium's
 * crypto_generichash), commitments (SHA-256) and secret files (arb_kdf.h,
 * docs/rng.md). */
#include "arb_kdf.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int arb_key_derive(const uint8_t key[ARB_KEY_BYTES], const char *label, uint8_t out[ARB_KEY_BYTES])
{
    if (sodium_init() < 0)
        return ARB_EUNSUPPORTED;
    size_t n = strnlen(label, ARB_MAX_SEED_LABEL);
    uint8_t k[ARB_KEY_BYTES];   /* out may alias key */
    memcpy(k, key, sizeof k);
    crypto_generichash(out, ARB_KEY_BYTES, (const unsigned char *)label, n, k, sizeof k);
    sodium_memzero(k, sizeof k);
    return 0;
}

uint64_t arb_seed_keyed(const uint8_t key[ARB_KEY_BYTES], const char *label)
{
    uint8_t d[ARB_KEY_BYTES];
    arb_key_derive(key, label, d);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | d[i];
    return v;
}

uint64_t arb_seed_keyedn(const uint8_t key[ARB_KEY_BYTES], const char *label, uint64_t n)
{
    char buf[ARB_MAX_SEED_LABEL + 24];
    snprintf(buf, sizeof buf, "%.*s/%" PRIu64, ARB_MAX_SEED_LABEL, label, n);
    return arb_seed_keyed(key, buf);
}

void arb_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = 0;
}

void arb_key_hex(const uint8_t key[ARB_KEY_BYTES], char hex[65])
{
    arb_hex(key, ARB_KEY_BYTES, hex);
}

_Static_assert(crypto_hash_sha256_BYTES == ARB_KEY_BYTES, "arb_key_hex writes a SHA-256 digest");

void arb_sha256_hex(const void *data, size_t len, char hex[65])
{
    uint8_t h[crypto_hash_sha256_BYTES];
    if (sodium_init() < 0) {
        hex[0] = 0;
        return;
    }
    crypto_hash_sha256(h, data, len);
    arb_key_hex(h, hex);   /* a digest is as long as a key: 32 bytes */
}

void arb_key_commitment(const uint8_t key[ARB_KEY_BYTES], char hex[65])
{
    arb_sha256_hex(key, ARB_KEY_BYTES, hex);
}

int arb_key_random(uint8_t key[ARB_KEY_BYTES])
{
    if (sodium_init() < 0)
        return ARB_EUNSUPPORTED;
    randombytes_buf(key, ARB_KEY_BYTES);
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int arb_key_parse(const char *text, uint8_t key[ARB_KEY_BYTES])
{
    while (isspace((unsigned char)*text))
        text++;
    for (int i = 0; i < ARB_KEY_BYTES; i++) {
        int hi = hexval((unsigned char)text[2 * i]), lo = hi < 0 ? -1 : hexval((unsigned char)text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return ARB_EINVAL;
        key[i] = (uint8_t)(hi << 4 | lo);
    }
    for (text += 64; *text; text++)
        if (!isspace((unsigned char)*text))
            return ARB_EINVAL;
    return 0;
}

int arb_unhex(const char *text, uint8_t *bytes, size_t n)
{
    if (strlen(text) != 2 * n)
        return ARB_EINVAL;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval((unsigned char)text[2 * i]), lo = hexval((unsigned char)text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return ARB_EINVAL;
        bytes[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

int arb_key_read_file(const char *path, uint8_t key[ARB_KEY_BYTES], char *err, size_t errlen)
{
    char text[ARB_KEY_FILE_MAX + 1];
    int rc = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        rc = ARB_EINVAL;
        goto out;
    }
    /* Whoever reads the secret can deal every deal of the tournament. */
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        snprintf(err, errlen, "%s: readable by group or others (mode %03o): chmod 600 it", path,
                 (unsigned)(st.st_mode & 0777));
        rc = ARB_EINVAL;
        goto out;
    }
    ssize_t n = read(fd, text, sizeof text - 1);
    if (n < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = ARB_EIO;
        goto out;
    }
    text[n] = 0;
    if (arb_key_parse(text, key) != 0) {
        snprintf(err, errlen, "%s: expected 64 hex digits (a 32-byte secret)", path);
        rc = ARB_EINVAL;
    }
    sodium_memzero(text, sizeof text);
out:
    close(fd);
    return rc;
}

bool arb_key_equal(const uint8_t a[ARB_KEY_BYTES], const uint8_t b[ARB_KEY_BYTES])
{
    return sodium_memcmp(a, b, ARB_KEY_BYTES) == 0;
}
