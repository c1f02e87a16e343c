/* match.h — one match between bots: N deals of a game under a rules preset
 * and options, a seating, a seed, clocks and a penalty policy; duplicate
 * mode replays each deal's cards with the seats rotated (or, for two
 * teams, swapped) so luck cancels — for a game whose match may end early,
 * at tables, each seating block a match of its own (match_def.h).
 *
 * The match core is the referee's judgement and nothing else: it talks to
 * bots through a driver (match_driver: live processes in seats, or the
 * replies recorded in a transcript) and puts every line and verdict into
 * a sink (sink.h) that either records them or checks them against a
 * recording. One code path judges a live match, re-judges a transcript
 * (`arbiter replay`) and re-runs its bots (`--rerun`).
 *
 * What the game decides, it decides through its table (game.h): the
 * deals, what each seat sees, the scores of a forfeited deal, what passes
 * from deal to deal, when the match is over and its standings. */
#ifndef ARB_MATCH_H
#define ARB_MATCH_H
#include "match_def.h"
#include "sink.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Drivers: how the core reaches the bots ---------------------------- */

typedef struct match_driver {
    void *ctx;
    /* Start bot b; its sandbox level into sandbox. */
    int  (*start)(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len);
    /* Queue a line for bot b without waiting (an event). */
    int  (*send)(void *ctx, int bot, const char *line);
    /* Send a request and wait up to budget_ns for the reply (request
     * NULL: wait for another line, time counted from the call). */
    void (*ask)(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r);
    /* Stop bot b; its captured stderr (may be NULL) and wait status. A bot
     * told "end" gets a grace to exit by itself before it is killed. */
    void (*stop)(void *ctx, int bot, const char **stderr_text, size_t *stderr_len, int *status);
    /* Optional (NULL: not offered). Bot b was just told "end": deliver it
     * now, so that every bot's grace to exit runs at once, not one after
     * the other. */
    void (*ending)(void *ctx, int bot);
    /* Optional. The next start of bot b (a restart between duplicate
     * seatings) may be made ready now, while its current process plays on:
     * a sandbox built ahead, holding a fresh process of cfg that runs none
     * of its code until start() takes it. */
    void (*prepare)(void *ctx, int bot, const match_bot_cfg *cfg);
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
 * negative arb_err with res->error set: a configuration error, a sink that
 * refused a record (a transcript that cannot be written; verifying, the
 * first divergence). The match ends when the game says so (match_over)
 * or after its match_games(cfg) deals, whichever is first; at tables
 * (match_tables), each table ends so and the next begins. To play into
 * a transcript file, use record_match (record.h). */
int match_run(const match_config *cfg, const match_driver *drv, const match_sink *sink,
              const match_observer *obs, match_result *res);

/* Where the deals come from when not from the match key: a deal set
 * (arbiter eval, docs/evaluation.md). deal() deals the cards numbered
 * `deal` (match_deal.deal) into state under rules — the game's deal or
 * deal_ordered, deal_setup is still the core's — and puts the deal's seed,
 * which the record keeps, in *seed. A transcript of such a match records
 * those seeds, not a key's: it re-judges only where they deal the same
 * cards (a set exported from seeds), so arbiter eval keeps none. */
typedef struct match_deal_source {
    void *ctx;
    int (*deal)(void *ctx, uint32_t deal, void *state, const void *rules, uint64_t *seed);
} match_deal_source;

/* match_run with the deals from src (NULL: from the key, as match_run). */
int match_run_dealt(const match_config *cfg, const match_driver *drv, const match_sink *sink,
                    const match_observer *obs, const match_deal_source *src, match_result *res);

#endif
