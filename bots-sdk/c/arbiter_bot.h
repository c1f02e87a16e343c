/* arbiter_bot.h — the C library for arbiter bots: a bot is a function that
 * picks a move. The library runs the protocol (schemas/bot-protocol.md) on
 * stdin/stdout, keeps track of what the seat has seen, and computes the legal
 * moves with the referee's own rules engine (ddz.h), so a bot never has to
 * parse a line or know a rule to play legally.
 *
 *     static int choose(const abot_view *v, const abot_request *r, void *ctx)
 *     {
 *         return 0;                       // the first legal choice
 *     }
 *     int main(void) { return abot_run("first", choose, NULL); }
 *
 * The view and the request are valid during the call only. */
#ifndef ARBITER_BOT_H
#define ARBITER_BOT_H
#include "ddz.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum abot_decision {
    ABOT_BID = 0,      /* values: 0 = pass, else the bid */
    ABOT_CALL,         /* values: 0 = pass, 1 = call */
    ABOT_ROB,
    ABOT_DOUBLE,
    ABOT_SHOW,
    ABOT_CLAIM,
    ABOT_PLAY,         /* moves: legal plays; when following the last is the pass */
} abot_decision;

/* What the seat has seen (never more than a player at the table sees). */
typedef struct abot_view {
    int        seat;            /* this deal's seat */
    int        players;
    int        deal;            /* deal number in the match, from 0 */
    int        deals;           /* deals this bot plays in the match */
    const ddz_rules *rules;     /* the match's rules, every option applied */
    ddz_cards  hand;            /* the cards in hand now */
    int        landlord;        /* -1 until known */
    int64_t    stake;
    ddz_cards  kitty;           /* once turned up */
    uint16_t   wild_ranks;      /* bit r: rank r is wild */
    int        counts[DDZ_MAX_SEATS];  /* cards left per seat */
    ddz_cards  played[DDZ_MAX_SEATS];  /* cards each seat has played this deal */
    const ddz_move *to_beat;    /* the play to beat, NULL when leading */
    int        to_beat_seat;    /* who made it (-1 when leading) */
    uint64_t   seed;            /* this bot's own seed for the match */
    int64_t    last_scores[DDZ_MAX_SEATS];  /* the previous deal's scores per seat */
    int64_t    total;           /* this bot's total so far (from results) */
} abot_view;

typedef struct abot_request {
    abot_decision decision;
    const ddz_move *moves;      /* ABOT_PLAY */
    int            nmoves;
    const int8_t  *values;      /* the other decisions */
    int            nvalues;
    int64_t        move_ms;     /* free time for this decision */
    int64_t        deal_ms;     /* left of the deal's limit, -1 none */
    int64_t        bank_ms;     /* left in the bank */
} abot_request;

/* Returns an index into r->moves (plays) or r->values (the rest). An index
 * out of range is a bug of the bot: the library says so on stderr and plays
 * the first choice. ABOT_NO_REPLY means the bot wrote its reply on stdout
 * itself (only the test bots that misbehave on purpose need this). */
#define ABOT_NO_REPLY (-2)
typedef int (*abot_choose)(const abot_view *v, const abot_request *r, void *ctx);

typedef struct abot_options {
    bool ask_legal;     /* also ask the referee for legal lists (not needed) */
    bool verbose;       /* echo every protocol line to stderr */
} abot_options;

/* Play a whole match on stdin/stdout. `name`: 1..32 of [A-Za-z0-9_.-].
 * Returns 0 at the end of the match (or of input), nonzero on a fatal
 * protocol error. */
int abot_run(const char *name, abot_choose choose, void *ctx);
/* The same on given descriptors, with options (may be NULL): for tests. */
int abot_run_fds(const char *name, int in_fd, int out_fd, abot_choose choose, void *ctx, const abot_options *opt);

/* Small helpers for strategies. */
bool abot_is_bomb(const ddz_move *m);                 /* bomb or rocket */
int  abot_strength(ddz_cards hand);                   /* jokers, 2s and bombs: 0 .. ~20 */
bool abot_partner(const abot_view *v, int seat);      /* same side as this bot */

#endif
