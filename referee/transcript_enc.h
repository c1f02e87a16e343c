/* transcript_enc.h — the bytes of each transcript record, for the writer
 * and the verifier only: both encode a record the same way, one to store
 * it, the other to compare it with the recording. */
#ifndef ARB_TRANSCRIPT_ENC_H
#define ARB_TRANSCRIPT_ENC_H
#include "sink.h"
#include "transcript.h"

#include <msgpack.h>

typedef struct tr_enc {
    msgpack_sbuffer sb;      /* the last record encoded */
    msgpack_packer pk;
} tr_enc;

void tr_enc_init(tr_enc *e);
void tr_enc_release(tr_enc *e);
/* The transcript type of a match record. */
tr_type tr_enc_type(match_rec_type t);
/* Encode one record into e->sb (replacing what it held). */
void tr_enc_record(tr_enc *e, const match_rec *rec);
/* Encode the digest record over the bytes before it. */
void tr_enc_digest(tr_enc *e, const uint8_t digest[32]);
/* Encode the referee's signature record (after the digest's). */
void tr_enc_signature(tr_enc *e, const uint8_t pk[32], const uint8_t sig[64]);

#endif
