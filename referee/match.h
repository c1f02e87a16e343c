/* match.h — one match between bots: N deals of a game under a rules preset
 * and options, a seating, a seed, clocks and a penalty policy; duplicate
 * mode replays each deal's cards with the seats rotated so luck cancels.
 *
 * The match core is the referee's judgement and nothing else: it talks to
 * bots through a driver (match_driver: live processes in seats, or the
 * replies recorded in a transcript) and writes every line and verdict to a
 * transcript sink (transcript.h) that either records them or checks them
 * against a recording. One code path judges a live match, re-judges a
 * transcript (`arbiter replay`) and re-runs its bots (`--rerun`). */
#ifndef ARB_MATCH_H
#define ARB_MATCH_H
#include "match_def.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tr_sink tr_sink;

/* ---- Drivers: how the core reaches the bots ---------------------------- */

typedef enum md_kind {
    MD_LINE = 0, MD_TIMEOUT, MD_TOO_LONG, MD_CLOSED, MD_EXITED, MD_CRASHED,
} md_kind;

typedef struct md_reply {
    uint8_t  kind;                            /* md_kind */
    char     line[ARB_MAX_LINE + 1];          /* MD_LINE */
    uint64_t wall_ns;                         /* from the request to the reply */
    uint64_t cpu_ns;                          /* the bot's CPU time meanwhile */
} md_reply;

typedef struct match_driver {
    void *ctx;
    /* Start bot b; its sandbox level into sandbox. */
    int  (*start)(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len);
    /* Queue a line for bot b without waiting (an event). */
    int  (*send)(void *ctx, int bot, const char *line);
    /* Send a request and wait up to budget_ns for the reply (request
     * NULL: wait for another line, time counted from the call). */
    void (*ask)(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r);
    /* Stop bot b; its captured stderr (may be NULL) and wait status. */
    void (*stop)(void *ctx, int bot, const char **stderr_text, size_t *stderr_len, int *status);
} match_driver;

/* Follow a match as it is judged (progress, `replay --show`). Any may be NULL. */
typedef struct match_observer {
    void *ctx;
    void (*deal_start)(void *ctx, const match_deal *d, const void *state);
    void (*action)(void *ctx, const match_deal *d, const void *before, const void *after,
                   int seat, const arb_action *a, bool by_referee);
    void (*penalty)(void *ctx, const match_deal *d, int seat, int bot, match_reason r,
                    const char *consequence, const char *detail);
    void (*deal_end)(void *ctx, const match_deal *d, const void *state);
} match_observer;

/* Play (or re-judge) the match. Returns 0 when the match was judged to its
 * end (bots that misbehaved are penalised, that is not an error), or a
 * negative arb_err with res->error set: a configuration error, a transcript
 * that cannot be written, or (verifying) the first divergence. */
int match_run(const match_config *cfg, const match_driver *drv, tr_sink *sink,
              const match_observer *obs, match_result *res);

#endif
