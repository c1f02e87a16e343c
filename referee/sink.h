/* sink.h — where the match core puts what happens: one record per line
 * sent, request, reply, verdict, penalty and score, in order. The core
 * knows nothing else of transcripts: a writer (transcript_writer.h) stores
 * and hashes the records, a verifier (transcript_verify.h) checks each
 * against a recording and keeps the first divergence. Both are sinks. */
#ifndef ARB_SINK_H
#define ARB_SINK_H
#include "match_def.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A bot's reply, as a driver returns it and a sink records it. */
typedef enum md_kind {
    MD_LINE = 0, MD_TIMEOUT, MD_TOO_LONG, MD_CLOSED, MD_EXITED, MD_CRASHED,
} md_kind;

typedef struct md_reply {
    uint8_t  kind;                            /* md_kind */
    char     line[ARB_MAX_LINE + 1];          /* MD_LINE */
    uint64_t wall_ns;                         /* from the request to the reply */
    uint64_t cpu_ns;                          /* the bot's CPU time meanwhile */
} md_reply;

/* The records, in the order the core produces them (docs/transcripts.md
 * gives each one's stored form). */
typedef enum match_rec_type {
    MR_HEADER = 0,   /* cfg, text = the full rules description */
    MR_INFO,         /* text = the engine's version */
    MR_DEAL,         /* deal, nseats */
    MR_SEND,         /* bot, text = the line */
    MR_ASK,          /* bot, game, decision, text = the request, nlegal (-1: no list sent) */
    MR_RECV,         /* bot, reply */
    MR_VERDICT,      /* game, decision, seat, bot, text = the action, by_referee */
    MR_PENALTY,      /* game, decision, seat, bot, reason, consequence, text = the detail */
    MR_RESULT,       /* deal, nseats */
    MR_BOTEND,       /* bot, text = sandbox, status, err_text/err_len = its stderr */
    MR_END,          /* res */
    MR_RESTART,      /* bot, game, seating */
} match_rec_type;

/* One record: the type says which fields mean something. Pointers are
 * borrowed for the call. */
typedef struct match_rec {
    match_rec_type type;
    uint64_t t;                     /* ns since the match started (a verifier may replace it) */
    int      bot, seat;
    uint32_t game, decision, seating;
    int      nseats, nlegal;
    int      status;
    bool     by_referee;
    match_reason reason;
    const char *text;
    const char *consequence;
    const char *err_text;
    size_t   err_len;
    const match_config *cfg;
    const match_deal *deal;
    const md_reply *reply;
    const match_result *res;
} match_rec;

typedef struct match_sink {
    void *ctx;
    /* Take one record: 0, or an error that ends the match (a transcript
     * that cannot be written; verifying, ARB_ECORRUPT at a divergence). */
    int (*record)(void *ctx, const match_rec *rec);
    /* Why a record was refused, in words ("" when none was). */
    const char *(*why)(const void *ctx);
} match_sink;

#endif
