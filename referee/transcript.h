/* transcript.h — the match transcript: a versioned msgpack record stream
 * holding the configuration, every line to and from every bot with
 * monotonic timestamps and CPU times, every verdict, penalty and score,
 * and a SHA-256 digest over all of it (docs/transcripts.md).
 *
 * A sink receives the records as the match core produces them. A writer
 * sink appends them to a file and hashes them; a verifier sink compares
 * each against the next record of an existing transcript and remembers the
 * first divergence — that is all `arbiter replay` needs, because replaying
 * is running the same judge on the recorded replies. */
#ifndef ARB_TRANSCRIPT_H
#define ARB_TRANSCRIPT_H
#include "match.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Version 2: keyed seeds. The header holds the match key, the label it was
 * derived under and the commitment to the tournament's secret; deals and
 * bot seeds follow from the key; duplicate games are seating-major with
 * RESTART records. Version 1 transcripts (seeds from the bare match seed)
 * are refused by name. */
#define TR_VERSION 2

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
    TR_END,          /* [10, t, {totals, winners, forfeited, games, decisions}] */
    TR_DIGEST,       /* [11, 0, "sha256", bin 32] over every byte before it */
    TR_RESTART,      /* [12, t, bot, game, seating] the bot's process is replaced by a fresh one */
    TR_NTYPES
} tr_type;

/* A writer to `path` (created or truncated, mode 0644); path NULL keeps
 * nothing but still computes the digest. */
tr_sink *tr_writer_open(const char *path, int *err);
/* A verifier against the transcript in data[0..len) (not copied: keep it
 * alive). loose: ignore reply timings (re-running live bots). */
tr_sink *tr_verifier_new(const uint8_t *data, size_t len, bool loose, int *err);
/* Close: the writer appends the digest, flushes and fsyncs; the verifier
 * checks that nothing comparable is left over. hex receives the digest
 * (65 bytes). Returns 0, or an error (verifier: ARB_ECORRUPT, see
 * tr_divergence). Frees the sink. */
int tr_close(tr_sink *s, char hex[65]);
void tr_abandon(tr_sink *s);

/* The first divergence found by a verifier ("" when none). */
const char *tr_divergence(const tr_sink *s);
/* Bytes written or compared so far. */
uint64_t tr_size(const tr_sink *s);

/* Records, in the order the match core produces them. t is nanoseconds
 * since the match started. */
int tr_header(tr_sink *s, const match_config *cfg, const char *options);
int tr_info(tr_sink *s, const char *engine_version);
int tr_deal(tr_sink *s, uint64_t t, const match_deal *d, int nseats);
int tr_send(tr_sink *s, uint64_t t, int bot, const char *line);
int tr_ask(tr_sink *s, uint64_t t, int bot, uint32_t game, uint32_t decision, const char *request, int nlegal);
int tr_recv(tr_sink *s, uint64_t t, int bot, const md_reply *r);
int tr_verdict(tr_sink *s, uint64_t t, uint32_t game, uint32_t decision, int seat, int bot,
               const char *action, bool by_referee);
int tr_penalty(tr_sink *s, uint64_t t, uint32_t game, uint32_t decision, int seat, int bot,
               match_reason reason, const char *consequence, const char *detail);
int tr_result(tr_sink *s, uint64_t t, const match_deal *d, int nseats);
int tr_botend(tr_sink *s, uint64_t t, int bot, const char *sandbox, int status,
              const char *err_text, size_t err_len);
int tr_end(tr_sink *s, uint64_t t, const match_result *res);
int tr_restart(tr_sink *s, uint64_t t, int bot, uint32_t game, uint32_t seating);

/* Verifier only: the next recorded record must be a reply from `bot`; it is
 * consumed (and compared when the core records it back) and returned in r.
 * ARB_ECORRUPT with a divergence when the transcript has something else. */
int tr_next_reply(tr_sink *s, int bot, md_reply *r);

/* ---- Reading a transcript file ---------------------------------------- */

/* Read a whole transcript (at most ARB_MAX_TRANSCRIPT bytes). */
int tr_load(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen);
/* The configuration in the header; the full option text into options. */
int tr_read_header(const uint8_t *data, size_t len, match_config *cfg, char *err, size_t errlen);
/* Check the digest record against the bytes before it. 0 when it matches
 * (hex = the digest), ARB_ECORRUPT when it does not, ARB_ENOTFOUND when
 * the transcript has none (it was cut short). */
int tr_check_digest(const uint8_t *data, size_t len, char hex[65], char *err, size_t errlen);
/* Describe one record as text (for divergences and `replay --dump`). */
int tr_describe(const uint8_t *rec, size_t len, char *buf, size_t cap);
/* Walk the records: calls fn with each record's bytes; stops on nonzero. */
int tr_each(const uint8_t *data, size_t len, int (*fn)(void *ctx, int type, const uint8_t *rec, size_t n), void *ctx);

#endif
