/* tr_blob.c — a transcript's tail checked against its digest (tr_blob.h):
 * the two closing records decoded with the bounded reader, the content
 * before them hashed. */
#include "tr_blob.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_mp.h"

#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The encodings' sizes (transcript_enc.c): fixarray, two fixints, a fixstr
 * and bin 8 headers, the bytes. */
#define DIGEST_REC_BYTES (1 + 1 + 1 + 1 + 6 + 2 + 32)
#define SIG_REC_BYTES (1 + 1 + 1 + 1 + 7 + 2 + 32 + 2 + 64)

/* Is data[0..n) exactly a record [type, 0, alg, bin...] with these bin
 * lengths? The bins' places into bins[]. */
static bool closing_record(const uint8_t *data, size_t n, uint64_t type, const char *alg, int nbins,
                           const uint32_t *lens, const uint8_t **bins)
{
    arb_mp r;
    uint32_t cnt, alen, blen;
    uint64_t ty, t;
    const char *a;
    arb_mp_init(&r, data, n);
    if (arb_mp_array(&r, &cnt) || cnt != (uint32_t)(3 + nbins) || arb_mp_uint(&r, &ty) || ty != type
        || arb_mp_uint(&r, &t) || t != 0 || arb_mp_str(&r, &a, &alen) || alen != strlen(alg)
        || memcmp(a, alg, alen) != 0)
        return false;
    for (int i = 0; i < nbins; i++)
        if (arb_mp_bin(&r, &bins[i], &blen) || blen != lens[i])
            return false;
    return arb_mp_left(&r) == 0;
}

int trb_check(const uint8_t *data, size_t len, const char *hex, const uint8_t **sig_pk, const uint8_t **sig,
              char *err, size_t errlen)
{
    const uint8_t *bins[2] = {NULL, NULL}, *dbin[1] = {NULL};
    static const uint32_t sig_lens[2] = {32, 64}, dig_lens[1] = {32};
    size_t end = len;
    if (sig_pk)
        *sig_pk = NULL;
    if (sig)
        *sig = NULL;
    if (len >= DIGEST_REC_BYTES + SIG_REC_BYTES
        && closing_record(data + len - SIG_REC_BYTES, SIG_REC_BYTES, 13, "ed25519", 2, sig_lens, bins))
        end = len - SIG_REC_BYTES;
    if (end < DIGEST_REC_BYTES
        || !closing_record(data + end - DIGEST_REC_BYTES, DIGEST_REC_BYTES, 11, "sha256", 1, dig_lens, dbin)) {
        snprintf(err, errlen, "%zu bytes that do not end with a digest record: not a whole transcript", len);
        return ARB_ECORRUPT;
    }
    uint8_t want[32], got[32];
    char got_hex[65], rec_hex[65];
    if (!hex || strlen(hex) != 64 || arb_unhex(hex, want, sizeof want) != 0) {
        snprintf(err, errlen, "no digest to check the transcript against");
        return ARB_ECORRUPT;
    }
    arb_key_hex(dbin[0], rec_hex);
    if (sodium_memcmp(dbin[0], want, sizeof want) != 0) {
        snprintf(err, errlen, "the transcript's digest record names %s, not the digest %.64s", rec_hex, hex);
        return ARB_ECORRUPT;
    }
    crypto_hash_sha256(got, data, end - DIGEST_REC_BYTES);
    if (sodium_memcmp(got, want, sizeof want) != 0) {
        arb_key_hex(got, got_hex);
        snprintf(err, errlen, "the transcript's bytes hash to %s, not to its digest %.64s", got_hex, hex);
        return ARB_ECORRUPT;
    }
    if (bins[0]) {
        if (sig_pk)
            *sig_pk = bins[0];
        if (sig)
            *sig = bins[1];
    }
    return 0;
}

size_t trb_stderr_tail(const uint8_t *data, size_t len, int bot, int max_lines, char *out, size_t cap)
{
    arb_mp r;
    const uint8_t *text = NULL;
    uint32_t tlen = 0;
    if (cap == 0)
        return 0;
    out[0] = 0;
    arb_mp_init(&r, data, len);
    while (arb_mp_left(&r) > 0) {
        uint32_t cnt, n, sl, bl;
        uint64_t type, t;
        int64_t b, status;
        const char *sandbox;
        const uint8_t *bytes;
        if (arb_mp_array(&r, &cnt) || cnt < 1 || arb_mp_uint(&r, &type))
            return 0;
        n = cnt - 1;
        if (type == 9 && cnt == 6) {
            if (arb_mp_uint(&r, &t) || arb_mp_int(&r, &b) || arb_mp_str(&r, &sandbox, &sl)
                || arb_mp_int(&r, &status) || arb_mp_bin(&r, &bytes, &bl))
                return 0;
            if (b == bot && bl > 0) {
                text = bytes;
                tlen = bl;
            }
            continue;
        }
        for (uint32_t i = 0; i < n; i++)
            if (arb_mp_skip(&r))
                return 0;
    }
    if (!text)
        return 0;
    /* from the end: max_lines lines (a final newline ends the last, it
     * does not make an empty one) */
    size_t end = tlen, start = tlen;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
        end--;
    int lines = 1;
    start = end;
    while (start > 0 && !(text[start - 1] == '\n' && ++lines > max_lines))
        start--;
    size_t room = cap - 1, k = 0;
    bool cut = end - start > room;
    if (cut && room > 3) {
        start = end - (room - 3);
        memcpy(out, "...", 3);
        k = 3;
    } else if (cut) {
        start = end - room;
    }
    for (size_t i = start; i < end && k < room; i++) {
        uint8_t c = text[i];
        if (c == '\n') {
            if (k + 3 > room)
                break;
            memcpy(out + k, " | ", 3);
            k += 3;
        } else if (c != '\r') {
            out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
    }
    out[k] = 0;
    return k;
}
