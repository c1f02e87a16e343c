/* transcript_verify.h — the checking sink: each record the match core
 * produces is compared with the next comparable record of an existing
 * transcript, and the first difference is kept, said in words ("game 3
 * (deal 3, seating 0), decision 17: expected verdict ..., recorded ...").
 * Re-judging a transcript is running the same judge into this sink; its
 * recorded replies are what the replay driver answers with. */
#ifndef ARB_TRANSCRIPT_VERIFY_H
#define ARB_TRANSCRIPT_VERIFY_H
#include "sink.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tr_verifier tr_verifier;

/* A verifier against the transcript in data[0..len) (not copied: keep it
 * alive). loose: ignore reply timings (re-running live bots). */
tr_verifier *tr_verifier_new(const uint8_t *data, size_t len, bool loose, int *err);
/* The verifier as the match core's sink (valid until it is closed). */
match_sink tr_verifier_sink(tr_verifier *v);
/* The next recorded record must be a reply from `bot`; it is consumed
 * (and compared when the core records it back) and returned in r.
 * ARB_ECORRUPT with a divergence when the transcript has something else. */
int tr_next_reply(tr_verifier *v, int bot, md_reply *r);
/* The first divergence found ("" when none). */
const char *tr_divergence(const tr_verifier *v);
/* Check that nothing comparable is left over, and free. 0, or
 * ARB_ECORRUPT (the divergence was copied into div, divlen bytes). */
int tr_verifier_close(tr_verifier *v, char *div, size_t divlen);

#endif
