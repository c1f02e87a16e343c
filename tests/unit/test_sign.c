/* test_sign.c — the referee's signature on a transcript against hostile
 * files and frames (docs/transcripts.md, "Signatures"; arb_sign.h):
 *   - a signing key follows from a CURVE secret, the same every time, and
 *     two secrets give two keys;
 *   - a transcript written signed checks; unsigned says so (not an error);
 *   - a flipped signature byte, another key's signature under the first
 *     key's name, a signature record cut short, a second signature record,
 *     another algorithm's name, and a signature before the digest: refused;
 *   - the wire: a signature of 63 bytes, a signature on a result with no
 *     digest, a hello's key of 31 bytes: refused. */
#include "transcript.h"
#include "transcript_enc.h"
#include "transcript_writer.h"
#include "wire.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_sign.h"
#include "test_util.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A transcript of no records, written by the writer (signed by key when
 * not NULL), read back whole. */
static uint8_t *written(const arb_sign_key *key, size_t *len)
{
    char path[] = "/tmp/arb-test-sign-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    int err;
    tr_writer *w = tr_writer_open(path, &err);
    CHECK(w != NULL);
    char hex[65];
    uint8_t sig[ARB_SIGN_BYTES];
    CHECK(w && tr_writer_close_signed(w, key, hex, sig) == 0);
    uint8_t *data = NULL;
    char msg[256];
    CHECK(tr_load(path, &data, len, msg, sizeof msg) == 0);
    unlink(path);
    return data;
}

static int verdict(const uint8_t *data, size_t len, char pk[65])
{
    char msg[256];
    return tr_check_signature(data, len, pk, msg, sizeof msg);
}

static void test_keys(void)
{
    uint8_t s1[32] = {1}, s2[32] = {2};
    arb_sign_key a, b, c;
    CHECK(arb_sign_from_secret(s1, &a) == 0 && arb_sign_from_secret(s1, &b) == 0
          && arb_sign_from_secret(s2, &c) == 0);
    CHECK(memcmp(a.pk, b.pk, 32) == 0 && memcmp(a.pk, c.pk, 32) != 0);
    /* the public key is not the secret, nor a copy of any part of it */
    CHECK(memcmp(a.pk, s1, 32) != 0);
    uint8_t d[32] = {7}, sig[64];
    arb_sign_digest(&a, d, sig);
    CHECK(arb_sign_verify(a.pk, d, sig) && !arb_sign_verify(c.pk, d, sig));
    d[0] ^= 1;
    CHECK(!arb_sign_verify(a.pk, d, sig));
}

static void test_files(void)
{
    uint8_t s1[32] = {1}, s2[32] = {2};
    arb_sign_key a, other;
    arb_sign_from_secret(s1, &a);
    arb_sign_from_secret(s2, &other);
    char pk[65], want[65];
    size_t len, ulen;
    uint8_t *data = written(&a, &len), *unsigned_ = written(NULL, &ulen);
    if (!data || !unsigned_)
        return;
    arb_key_hex(a.pk, want);
    CHECK(verdict(data, len, pk) == 0 && strcmp(pk, want) == 0);
    CHECK(verdict(unsigned_, ulen, pk) == ARB_ENOTFOUND);

    uint8_t *m = malloc(len + 200);
    /* the signature's last byte flipped: the digest still checks, the signature not */
    memcpy(m, data, len);
    m[len - 1] ^= 1;
    char hex[65], msg[256];
    CHECK(tr_check_digest(m, len, hex, msg, sizeof msg) == 0);
    CHECK(verdict(m, len, pk) == ARB_ECORRUPT);
    /* another key's signature of the same digest under a's name: refused;
     * under its own name it verifies, and names the other key */
    size_t dlen = ulen;   /* the digest record ends the unsigned file */
    uint8_t digest[32], sig[64];
    arb_unhex(hex, digest, sizeof digest);
    arb_sign_digest(&other, digest, sig);
    tr_enc e;
    tr_enc_init(&e);
    tr_enc_signature(&e, a.pk, sig);
    memcpy(m, data, dlen);
    memcpy(m + dlen, e.sb.data, e.sb.size);
    CHECK(dlen + e.sb.size == len && verdict(m, len, pk) == ARB_ECORRUPT);
    tr_enc_signature(&e, other.pk, sig);
    memcpy(m + dlen, e.sb.data, e.sb.size);
    arb_key_hex(other.pk, want);
    CHECK(verdict(m, len, pk) == 0 && strcmp(pk, want) == 0);
    /* cut short: the last byte gone */
    memcpy(m, data, len);
    CHECK(verdict(m, len - 1, pk) == ARB_ECORRUPT);
    /* a second signature record after the first */
    memcpy(m, data, len);
    memcpy(m + len, data + dlen, len - dlen);
    CHECK(verdict(m, len + (len - dlen), pk) == ARB_ECORRUPT);
    /* another algorithm's name, the same length */
    memcpy(m, data, len);
    uint8_t *alg = memmem(m + dlen, len - dlen, "ed25519", 7);
    CHECK(alg != NULL);
    if (alg) {
        alg[6] = '8';
        CHECK(verdict(m, len, pk) == ARB_ECORRUPT);
    }
    /* the signature record before the digest: the digest no longer covers
     * what comes before it */
    memcpy(m, data + dlen, len - dlen);
    memcpy(m + (len - dlen), data, dlen);
    CHECK(verdict(m, len, pk) != 0);
    tr_enc_release(&e);
    free(m);
    free(data);
    free(unsigned_);
}

static void test_frames(void)
{
    wire_result r;
    memset(&r, 0, sizeof r);
    r.match_id = 5;
    r.lease_gen = 1;
    r.ok = false;
    snprintf(r.error, sizeof r.error, "void");
    uint8_t *f;
    size_t n;
    wire_result back;
    /* a signature on a void result without a digest: nothing it could sign */
    r.is_signed = true;
    CHECK(wire_encode_result(&r, &f, &n) == 0);
    CHECK(wire_decode_result(f, n, &back) == ARB_ECORRUPT);
    /* a signature one byte short: the 0xc4 0x40 header says 64; make it 63 */
    snprintf(r.digest, sizeof r.digest, "%064d", 3);
    r.ok = true;
    free(f);
    CHECK(wire_encode_result(&r, &f, &n) == 0);
    uint8_t *at = memmem(f, n, "\xc4\x40", 2);
    CHECK(at != NULL);
    if (at) {
        at[1] = 0x3f;
        memmove(at + 2 + 63, at + 2 + 64, n - (size_t)(at + 2 + 64 - f));
        CHECK(wire_decode_result(f, n - 1, &back) == ARB_ECORRUPT);
    }
    free(f);
    /* a hello's key of 31 bytes */
    uint8_t pk[32] = {1}, pk_back[32];
    CHECK(wire_hello("w", 1, NULL, 0, pk, &f, &n) == 0);
    at = memmem(f, n, "\xc4\x20", 2);
    CHECK(at != NULL && at + 2 + 32 == f + n);
    if (at) {
        at[1] = 0x1f;
        int v, s, nr;
        char name[64];
        wire_lease run[1];
        CHECK(wire_decode_hello(f, n - 1, &v, name, sizeof name, &s, run, 1, &nr, pk_back) == ARB_ECORRUPT);
    }
    free(f);
}

int main(void)
{
    test_keys();
    test_files();
    test_frames();
    printf("sign: %d passed, %d failed\n", t_passed, t_failed);
    return t_failed ? 1 : 0;
}
