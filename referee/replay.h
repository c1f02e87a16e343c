/* replay.h — settle a dispute: re-judge a transcript with the rules engine
 * (the same match core, fed the recorded replies) and say whether the
 * recorded result is reproduced, or where it first is not; or run the same
 * bots again on the same inputs and say where their replies differ. */
#ifndef ARB_REPLAY_H
#define ARB_REPLAY_H
#include "live.h"
#include "match.h"

#include <stdbool.h>

typedef struct replay_report {
    int    digest_rc;            /* 0: the digest matches the content */
    char   digest[65];
    char   digest_msg[256];
    int    sig_rc;               /* 0: signed, and the signature verifies; ARB_ENOTFOUND: unsigned */
    char   signer[65];           /* the signing key, hex, when signed */
    char   sig_msg[256];
    bool   reproduced;           /* every record and the result re-derived */
    char   divergence[1536];     /* the first difference, when not */
    match_config cfg;            /* from the header */
    match_result res;            /* as re-judged (release with match_result_release) */
} replay_report;

/* The referee's signature in words (docs/transcripts.md, "Signatures"):
 * "ok (ed25519, referee key K)", "none (...)" for an unsigned file, or
 * "FAILED: ..." when it does not verify, or when want (a key in hex, NULL:
 * any) names another key than the one that signed, or a key at all for an
 * unsigned file; whose_want says who wants it ("--signer", "the record").
 * 0 when it passes. */
int replay_signature_verdict(const replay_report *rep, const char *want, const char *whose_want, char *out,
                             size_t cap);

/* Re-judge data[0..len). Returns 0 when the transcript could be read (the
 * verdict is in rep), or an error with rep->divergence explaining. */
int replay_judge(const uint8_t *data, size_t len, const match_observer *obs, replay_report *rep);

/* Provable fairness: the secret must be the one the header commits to
 * (SHA-256(secret) == commitment) and the header's match key must follow
 * from it (arb_key_derive(secret, key_label) == key). Then, when the
 * transcript is also reproduced by replay_judge (which re-deals every deal
 * from that key and compares the cards sent to the bots), every deal
 * follows from seed + secret. 0, or ARB_ECORRUPT with what differs in msg. */
int replay_check_secret(const match_config *cfg, const uint8_t secret[32], char *msg, size_t len);

/* Start the recorded bots again (their argv from the header) under `lo`
 * and compare their replies, ignoring timings. */
int replay_rerun(const uint8_t *data, size_t len, const live_options *lo, replay_report *rep);

#endif
