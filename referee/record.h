/* record.h — play a match into a transcript: open the writer, run the
 * match core, close with the digest. The one way every command, the
 * worker, the benchmarks and the tests play a recorded match. */
#ifndef ARB_RECORD_H
#define ARB_RECORD_H
#include "match.h"

/* Play cfg through drv (observed by obs, which may be NULL) into a
 * transcript at path (NULL: nothing stored, the digest still computed).
 * res is always filled (release it with match_result_release); digest
 * receives the SHA-256 of the transcript, or "" when none could be opened
 * (res->error then names the path). Returns 0 when the match was judged
 * to its end and its transcript is on disk, else the first error with
 * res->error saying why. */
int record_match(const char *path, const match_config *cfg, const match_driver *drv,
                 const match_observer *obs, match_result *res, char digest[65]);
/* The same, the transcript signed by key after its digest (arb_sign.h;
 * key NULL: unsigned); sig receives the signature (ARB_SIGN_BYTES). */
struct arb_sign_key;
int record_match_signed(const char *path, const match_config *cfg, const match_driver *drv,
                        const match_observer *obs, const struct arb_sign_key *key, match_result *res,
                        char digest[65], uint8_t *sig);
/* record_match into fd, a file the caller made (arb_out_open: where a
 * user points) and the writer now owns; shown names it in res->error. */
int record_match_fd(int fd, const char *shown, const match_config *cfg, const match_driver *drv,
                    const match_observer *obs, match_result *res, char digest[65]);

#endif
