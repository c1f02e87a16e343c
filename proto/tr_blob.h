/* tr_blob.h — a whole transcript as bytes, checked against the digest it
 * names, without the referee's reader: what the scheduler does with the
 * transcript a worker sends, and the record with one it reads back
 * (docs/transcripts.md, "In the record"). A transcript ends with its
 * digest record ([11, 0, "sha256", bin 32]: the SHA-256 of every byte
 * before it) and, when a referee signed it, the signature record after
 * that ([13, 0, "ed25519", bin 32 key, bin 64 signature]). */
#ifndef ARB_TR_BLOB_H
#define ARB_TR_BLOB_H
#include <stddef.h>
#include <stdint.h>

/* Its tail, located and checked: the digest record (the last record, or the
 * one before a signature record) names the digest hex, and the SHA-256 of
 * every byte before it is that digest. 0, or ARB_ECORRUPT with err saying
 * what is wrong ("the transcript's bytes hash to X, not to the digest D
 * of the result"). When a signature record follows, *sig_pk and *sig point
 * at its key (32 bytes) and signature (64) inside data; else both NULL.
 * Either pointer may be NULL when the caller does not ask. */
int trb_check(const uint8_t *data, size_t len, const char *hex, const uint8_t **sig_pk, const uint8_t **sig,
              char *err, size_t errlen);

/* The end of bot `bot`'s stderr as the transcript keeps it (its last
 * non-empty botend record: [9, t, bot, sandbox, status, bin stderr]), for
 * people: at most max_lines lines, joined by " | ", each byte outside
 * printable ASCII a '?', into out (at most cap - 1 bytes; the first bytes
 * dropped, "..." said). Returns the length written (0: none, or a record
 * it cannot read). The transcript's digest is not checked here. */
size_t trb_stderr_tail(const uint8_t *data, size_t len, int bot, int max_lines, char *out, size_t cap);

#endif
