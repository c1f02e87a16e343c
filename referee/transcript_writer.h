/* transcript_writer.h — the recording sink: every record the match core
 * produces is appended to a transcript file and hashed; closing appends
 * the SHA-256 digest record (docs/transcripts.md). */
#ifndef ARB_TRANSCRIPT_WRITER_H
#define ARB_TRANSCRIPT_WRITER_H
#include "sink.h"

#include <stdint.h>

typedef struct tr_writer tr_writer;

/* A writer to `path` (created or truncated, mode 0600: it holds every
 * hand; a path in the referee's own directory, never one a user gave);
 * path NULL keeps nothing but still computes the digest. NULL with
 * *err set when the file cannot be opened (ARB_EDISKFULL for a full disk,
 * ARB_EIO for any other cause, errno saying which). */
tr_writer *tr_writer_open(const char *path, int *err);
/* The same into fd, a file open for writing that the writer now owns
 * (closed by tr_writer_close, by tr_writer_abandon, or here on failure);
 * fd -1 keeps nothing. For a file made by the caller (arb_out_open: a
 * path a user gave). */
tr_writer *tr_writer_open_fd(int fd, int *err);
/* The writer as the match core's sink (valid until it is closed). */
match_sink tr_writer_sink(tr_writer *w);
/* Append the digest record, flush and fsync, close and free. hex receives
 * the digest (65 bytes). 0, or the first error of any write: ARB_EDISKFULL
 * when the disk (or quota) was full, ARB_EIO for another cause, with errno
 * set to that write's errno for the caller to name (strerror). */
int tr_writer_close(tr_writer *w, char hex[65]);
/* The same, and the referee's signature of the digest after it when key
 * is not NULL (arb_sign.h); sig receives it (ARB_SIGN_BYTES). */
struct arb_sign_key;
int tr_writer_close_signed(tr_writer *w, const struct arb_sign_key *key, char hex[65], uint8_t *sig);
/* Close and free without a digest (the match was never played). */
void tr_writer_abandon(tr_writer *w);

#endif
