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
#include "game.h"
#include "arb_limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tr_sink tr_sink;

typedef enum match_policy {
    MATCH_AUTOPLAY = 0,      /* play for the bot, a strike each time */
    MATCH_FORFEIT_DEAL,      /* the offender loses the deal */
    MATCH_FORFEIT_MATCH,     /* the offender loses the match */
} match_policy;

typedef enum match_duplicate {
    MATCH_DUP_OFF = 0,       /* every deal new cards (seats rotate deal by deal unless fixed) */
    MATCH_DUP_ROTATE,        /* each deal's cards once per cyclic rotation of the seats */
    MATCH_DUP_ALL,           /* each deal's cards once per permutation of the seats */
} match_duplicate;

/* Penalty reasons (bot-protocol.md, "Penalties and reason codes"). */
typedef enum match_reason {
    MATCH_R_NONE = 0,
    MATCH_R_TIMEOUT,
    MATCH_R_ILLEGAL,
    MATCH_R_MALFORMED,
    MATCH_R_TOO_LONG,
    MATCH_R_CLOSED,
    MATCH_R_EXITED,
    MATCH_R_CRASHED,
    MATCH_R_HANDSHAKE,
    MATCH_R_COUNT
} match_reason;

const char *match_reason_name(match_reason r);   /* "timeout", "line-too-long" ... */
const char *match_policy_name(match_policy p);   /* "autoplay", "forfeit-deal", "forfeit-match" */
const char *match_duplicate_name(match_duplicate d);
int match_policy_parse(const char *s, match_policy *out);
int match_duplicate_parse(const char *s, match_duplicate *out);

#define MATCH_MAX_ARGS 32
#define MATCH_MAX_OPTIONS 4096   /* bytes of "key=value\n" option text */

typedef struct match_bot_cfg {
    char name[ARB_MAX_BOT_NAME + 1];          /* the entrant's name (tables, transcript) */
    int  argc;
    char argv[MATCH_MAX_ARGS][256];           /* argv[0] an absolute path */
} match_bot_cfg;

/* The label a match key is derived under (arb_key_derive(secret, label)):
 * "match|<tournament seed>|<round>|<table>" or "match|<seed>". */
#define MATCH_MAX_KEY_LABEL 128

typedef struct match_config {
    const arb_game *game;
    char     preset[32];
    char     options[MATCH_MAX_OPTIONS];      /* "key=value" lines applied after the preset */
    uint64_t seed;                            /* the public label of the match; deals no longer follow from it */
    /* Every deal and every bot's seed is derived from this key with keyed
     * BLAKE2b (docs/rng.md): the key is arb_key_derive(secret, key_label),
     * where the secret is the tournament's and only its SHA-256 (the
     * commitment) is public until the tournament is over. A bot sees
     * neither key nor secret, and nothing it sees lets it compute them. */
    uint8_t  key[32];
    char     key_label[MATCH_MAX_KEY_LABEL];  /* what the key was derived under */
    char     commitment[65];                  /* SHA-256 of the secret, hex ("" unknown) */
    uint32_t deals;                           /* distinct deals (cards) */
    uint8_t  duplicate;                       /* match_duplicate */
    bool     fixed_seats;                     /* MATCH_DUP_OFF: bot i always in seat i */
    int64_t  move_ms;                         /* free time per decision */
    int64_t  deal_ms;                         /* per deal, -1 = none */
    int64_t  bank_ms;                         /* overrun bank for the match */
    int64_t  startup_ms;                      /* handshake */
    uint8_t  policy;                          /* match_policy */
    uint32_t strikes;                         /* autoplay strikes before the match is forfeited */
    int64_t  forfeit_points;                  /* P in bot-protocol.md */
    int      nbots;                           /* = the game's seats */
    match_bot_cfg bots[ARB_MAX_SEATS];
} match_config;

/* Defaults: standard rules, 1 deal, duplicate off, 1000 ms per move, no
 * deal limit, 30 s bank, 5 s start-up, autoplay with 3 strikes, P = 6. */
void match_config_init(match_config *cfg, const arb_game *game);
/* Check the configuration and build the rules it names into `rules`
 * (game->rules_size bytes). Errors as text in err. */
int match_config_rules(const match_config *cfg, void *rules, char *err, size_t errlen);

typedef struct match_bot_stats {
    char     name[ARB_MAX_BOT_NAME + 1];
    char     hello[ARB_MAX_BOT_NAME + 1];     /* the name the bot gave itself */
    char     sandbox[16];
    int64_t  total;
    uint32_t deals_won;                       /* deals with a positive score */
    uint32_t decisions;                       /* replies it gave (autoplays excluded) */
    uint64_t wall_ns, cpu_ns, max_wall_ns;
    uint32_t strikes, penalties;
    uint32_t by_reason[MATCH_R_COUNT];
    bool     forfeited;                       /* lost the match by forfeit */
    bool     gone;                            /* exited, crashed or closed its stdout */
    int64_t  bank_left_ms;
    int      rank;                            /* 1 = best; ties share a rank */
    char     stderr_tail[512];                /* the end of its stderr (live matches) */
} match_bot_stats;

typedef struct match_deal {
    uint32_t game;                            /* index in the match */
    uint32_t deal;                            /* which cards (0 .. deals-1) */
    uint32_t seating;                         /* which rotation/permutation */
    uint64_t seed;
    uint8_t  bot_at[ARB_MAX_SEATS];           /* bot in each seat */
    int64_t  score[ARB_MAX_SEATS];            /* per seat */
    int8_t   forfeit_bot;                     /* bot that forfeited it, -1 none */
    uint32_t decisions;
} match_deal;

typedef struct match_result {
    int      nbots;
    match_bot_stats bots[ARB_MAX_SEATS];
    match_deal *deals;                        /* ndeals entries, owned */
    uint32_t ndeals;
    uint32_t winners;                         /* bit b: bot b has the best total */
    uint64_t decisions;
    uint64_t wall_ns;
    char     error[512];                      /* why match_run failed, if it did */
} match_result;

void match_result_release(match_result *res);

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

/* Seatings of a match: number of games and, for game g, the bot in each
 * seat and which deal's cards it uses. Duplicate games are seating-major:
 * every deal under seating 0, then every deal under seating 1 ... and the
 * bots are restarted (fresh processes, empty working directories) between
 * two seating blocks, so that no process meets the same cards twice. */
uint32_t match_games(const match_config *cfg);
void match_seating(const match_config *cfg, uint32_t g, uint32_t *deal, uint32_t *seating,
                   uint8_t bot_at[ARB_MAX_SEATS]);
/* True when the bots are restarted before game g (the first game of a
 * seating block after the first). */
bool match_restarts_before(const match_config *cfg, uint32_t g);
/* Set the match key from a secret: key = arb_key_derive(secret, label),
 * commitment = SHA-256(secret). */
int match_set_key(match_config *cfg, const uint8_t secret[32], const char *label);

#endif
