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
 * The view and the request belong to the library and are valid during the
 * call only; copy what must outlive it. Everything in the view comes from
 * the lines the referee sent this seat: never more than a player at the
 * table sees. */
#ifndef ARBITER_BOT_H
#define ARBITER_BOT_H
#include "ddz.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum abot_decision {
    ABOT_BID = 0,      /* values: 0 = pass, else the bid */
    ABOT_CALL,         /* values: 0 = pass, 1 = call */
    ABOT_ROB,          /* 0 = pass, 1 = rob */
    ABOT_DOUBLE,       /* 0 = pass, 1 = double */
    ABOT_SHOW,         /* 0 = pass, 1 = show the hand */
    ABOT_CLAIM,        /* 0 = pass, 1 = claim the deal (four jokers) */
    ABOT_PLAY,         /* moves: legal plays; when following the last is the pass */
} abot_decision;

/* One play or pass of the current deal, in the order the table saw them. */
typedef struct abot_play {
    int       seat;
    ddz_move  move;            /* the reading that counts; kind DDZ_PASS for a pass */
    ddz_cards cards;           /* the cards that left the hand (wild cards as themselves) */
} abot_play;

/* One finished deal (a `result` line). */
typedef struct abot_result {
    int     deal;
    int     seat;              /* this bot's seat in that deal */
    int64_t scores[DDZ_MAX_SEATS];  /* per seat, sum zero */
} abot_result;

/* What the seat has seen. */
typedef struct abot_view {
    int        seat;            /* this deal's seat, 0..players-1 */
    int        players;
    int        deal;            /* deal number in the match, from 0 (-1 before the first) */
    int        deals;           /* deals this bot plays in the match */
    const ddz_rules *rules;     /* the match's rules, every option applied */
    uint64_t   seed;            /* this bot's own seed for the match (`match ... seed`) */
    int64_t    clock_move_ms;   /* the match's clock (`clock`): free time per decision, */
    int64_t    clock_deal_ms;   /* per deal (-1 none), */
    int64_t    clock_bank_ms;   /* and the bank at the start; each request says what is left */

    /* The auction. */
    int        first;           /* seat that speaks first, -1 unknown */
    int        redeals;         /* redeals in this deal so far */
    int        bids[DDZ_MAX_SEATS];    /* each seat's last bid/call/rob value, -1 before it spoke */
    bool       doubled[DDZ_MAX_SEATS];
    int        landlord;        /* -1 until known */
    int64_t    stake;           /* from `landlord` */
    ddz_cards  kitty;           /* once turned up */
    uint16_t   wild_ranks;      /* bit r: rank r is wild */
    int        shown_seat;      /* the landlord when it showed its hand, else -1 */
    ddz_cards  shown;           /* the shown hand, minus the plays made since */

    /* Play. */
    ddz_cards  hand;            /* the cards in hand now (the kitty included for the landlord) */
    int        counts[DDZ_MAX_SEATS];  /* cards left per seat */
    ddz_cards  played[DDZ_MAX_SEATS];  /* cards each seat has played this deal */
    const ddz_move *to_beat;    /* the play to beat, NULL when leading (with wild cards in
                                 * the engine's form: the cards played, `subst` saying
                                 * what the wild ones stand for) */
    int        to_beat_seat;    /* who made it (-1 when leading) */
    const abot_play *history;   /* this deal's plays and passes, oldest first */
    int        nhistory;

    /* The match so far. */
    int        penalties[DDZ_MAX_SEATS];  /* penalties announced per seat this deal */
    int        own_penalties;   /* penalties against this bot in the match */
    const abot_result *results; /* every finished deal, oldest first */
    int        nresults;
    int64_t    total;           /* this bot's total: the sum of its results, then `end` */
    bool       over;            /* `end` was read (seen only by an observer) */
} abot_view;

typedef struct abot_request {
    abot_decision decision;
    const ddz_move *moves;      /* ABOT_PLAY: every legal play; a follow ends with the pass */
    int            nmoves;
    const int8_t  *values;      /* other decisions: the legal values, as the referee listed them */
    int            nvalues;
    int64_t        move_ms;     /* free time for this decision (-1: not given) */
    int64_t        deal_ms;     /* left of the deal's limit, -1 none */
    int64_t        bank_ms;     /* left in the bank */
} abot_request;

/* Returns an index into r->moves (plays) or r->values (the rest). An index
 * out of range is a bug of the bot: the library says so on stderr and plays
 * the first choice. ABOT_NO_REPLY means the bot wrote its reply on stdout
 * itself (only the test bots that misbehave on purpose need this). */
#define ABOT_NO_REPLY (-2)
typedef int (*abot_choose)(const abot_view *v, const abot_request *r, void *ctx);

/* Called with the updated view after every event line the library has
 * read (unknown ones included; `end` last), with the line's first 255
 * bytes. Not called for requests: those go to choose. */
typedef void (*abot_observe)(const abot_view *v, const char *line, void *ctx);

typedef struct abot_options {
    bool ask_legal;         /* ask the referee for legal play lists (`bot 1 NAME legal`);
                             * the moves then come from its list, not the engine */
    bool verbose;           /* echo every protocol line to stderr */
    abot_observe observe;   /* may be NULL; gets the same ctx as choose */
} abot_options;

/* Play a whole match on stdin/stdout. `name`: 1..32 of [A-Za-z0-9_.-]
 * (other characters become '_'). The environment variable
 * ARBITER_BOT_VERBOSE set turns on abot_options.verbose. Returns 0 at the
 * end of the match or of input, or a negative arb_err when it could not
 * start (no memory). */
int abot_run(const char *name, abot_choose choose, void *ctx);
/* The same on given descriptors, with options (may be NULL). The
 * descriptors stay open. */
int abot_run_fds(const char *name, int in_fd, int out_fd, abot_choose choose, void *ctx,
                 const abot_options *opt);

/* `--name NAME` from a bot's command line, else `fallback`; any other
 * argument is reported on stderr and ignored. */
const char *abot_name_arg(int argc, char **argv, const char *fallback);

/* Small helpers for strategies. */
bool abot_is_bomb(const ddz_move *m);                 /* bomb or rocket */
int  abot_strength(ddz_cards hand);                   /* jokers, 2s and bombs: 0 .. ~20 */
bool abot_partner(const abot_view *v, int seat);      /* same side as this bot (itself included) */
/* Cards neither in this hand nor played yet: what the other seats hold
 * between them (with the kitty while it is face down). */
ddz_cards abot_outstanding(const abot_view *v);

#endif
