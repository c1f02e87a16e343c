/* transcript.h — the match transcript: a versioned msgpack record stream
 * holding the configuration, every line to and from every bot with
 * monotonic timestamps and CPU times, every verdict, penalty and score,
 * and a SHA-256 digest over all of it (docs/transcripts.md).
 *
 * Three modules share this format: the writer (transcript_writer.h), a
 * match sink that stores and hashes the records; the verifier
 * (transcript_verify.h), a match sink that compares each record with a
 * recording; and the reader below, which parses a transcript file with
 * bounds on everything. None of them plays a match: record.h and replay.h
 * put a sink and the match core together. */
#ifndef ARB_TRANSCRIPT_H
#define ARB_TRANSCRIPT_H
#include "match_def.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Version 2: keyed seeds. The header holds the match key, the label it was
 * derived under and the commitment to the tournament's secret; deals and
 * bot seeds follow from the key; duplicate games are seating-major with
 * RESTART records. Version 1 transcripts (seeds from the bare match seed)
 * are refused by name.
 * Version 3: the records of version 2; a penalty's note may end with "the
 * reply answers request ...: a stray line on stdout?" (match_config's
 * late_reply_notes). Version 2 is still read, and judged without them. */
#define TR_VERSION 3
#define TR_VERSION_OLDEST 2

typedef enum tr_type {
    TR_HEADER = 0,   /* [0, 0, {config}] */
    TR_INFO,         /* [1, t, {engine, started}]          not compared */
    TR_DEAL,         /* [2, t, game, deal, seating, seed, [bot per seat]] */
    TR_SEND,         /* [3, t, bot, line] */
    TR_ASK,          /* [4, t, bot, game, decision, request, nlegal] (legal list not stored) */
    TR_RECV,         /* [5, t, bot, kind, line|nil, wall_ns, cpu_ns] */
    TR_VERDICT,      /* [6, t, game, decision, seat, bot, action, by_referee] */
    TR_PENALTY,      /* [7, t, game, decision, seat, bot, reason, consequence, detail] */
    TR_RESULT,       /* [8, t, game, [score per seat], forfeit_bot] */
    TR_BOTEND,       /* [9, t, bot, sandbox, status, stderr]  not compared */
    TR_END,          /* [10, t, {totals, winners, forfeited, games, decisions[, teams]}] */
    TR_DIGEST,       /* [11, 0, "sha256", bin 32] over every byte before it */
    TR_RESTART,      /* [12, t, bot, game, seating] the bot's process is replaced by a fresh one */
    TR_SIGNATURE,    /* [13, 0, "ed25519", public key bin 32, signature bin 64] of the digest;
                      * after the digest record, outside what it covers (arb_sign.h) */
    TR_NTYPES
} tr_type;

/* "header", "deal" ... */
const char *tr_type_name(int type);
/* True for the records a verifier compares (not info, botend, digest). */
bool tr_compared(int type);

/* ---- Reading a transcript (transcript_read.c) ------------------------- */

/* Read a whole transcript (at most ARB_MAX_TRANSCRIPT bytes). */
int tr_load(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen);
/* The configuration in the header; the full option text into options. */
int tr_read_header(const uint8_t *data, size_t len, match_config *cfg, char *err, size_t errlen);
/* Check the digest record against the bytes before it. 0 when it matches
 * (hex = the digest), ARB_ECORRUPT when it does not, ARB_ENOTFOUND when
 * the transcript has none (it was cut short). */
int tr_check_digest(const uint8_t *data, size_t len, char hex[65], char *err, size_t errlen);
/* The referee's signature after the digest record (arb_sign.h): 0 when
 * it is the signature of the transcript's digest by the key it names
 * (public_key = that key, hex); ARB_ENOTFOUND when the transcript carries
 * none (written unsigned, or before signatures); ARB_ECORRUPT when it does
 * not verify, or the digest itself does not (msg says which). */
int tr_check_signature(const uint8_t *data, size_t len, char public_key[65], char *msg, size_t msglen);
/* Describe one record as text (for divergences and `replay --dump`). */
int tr_describe(const uint8_t *rec, size_t len, char *buf, size_t cap);
/* One record as one JSON object, appended to out (replay --json): its
 * type by name, t, and every field by name (transcripts.md); strings and a
 * bot's stderr as JSON strings (arb_json_str), other bins as hex, a botend's
 * wait status also in words (status_text), a reply's kind also by name.
 * ARB_ECORRUPT for a record that is not one, ARB_ETOOBIG past out's cap. */
struct arb_buf;
int tr_json(const uint8_t *rec, size_t len, struct arb_buf *out);
/* A wait status in words: "exited with status 3", "killed by SIGSEGV",
 * "never started" (-1: the bot's process was never started). */
void tr_status_text(int status, char *buf, size_t cap);
/* A botend record's fields; pointers into rec. */
typedef struct tr_botend {
    uint64_t t;
    int bot;
    const char *sandbox;   /* sandbox_len bytes */
    size_t sandbox_len;
    int status;            /* wait status, -1 never started */
    const char *err;       /* the stderr tail the referee kept, err_len bytes */
    size_t err_len;
} tr_botend;
int tr_read_botend(const uint8_t *rec, size_t len, tr_botend *out);
/* The record at *off, resumable: 0 with its type and bytes (*rec, *n)
 * and *off moved past it, 1 at the end (*off == len), or ARB_ECORRUPT
 * (tr_record_at's checks: the whole walk is that of tr_each). */
int tr_next(const uint8_t *data, size_t len, size_t *off, int *type, const uint8_t **rec, size_t *n);
/* Walk the records (tr_next): calls fn with each record's bytes; stops on nonzero. */
int tr_each(const uint8_t *data, size_t len, int (*fn)(void *ctx, int type, const uint8_t *rec, size_t n), void *ctx);
/* Extent, type and time of the record at data[pos..]: 0, or ARB_ECORRUPT. */
int tr_record_at(const uint8_t *data, size_t len, size_t pos, size_t *rec_len, int *type, uint64_t *t);

#endif
