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
#include "dabang.h"
#include "ddz.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum abot_decision {
    ABOT_BID = 0,      /* values: 0 = pass, else the bid */
    ABOT_CALL,         /* values: 0 = pass, 1 = call */
    ABOT_ROB,          /* 0 = pass, 1 = rob */
    ABOT_DOUBLE,       /* 0 = pass, 1 = double */
    ABOT_SHOW,         /* 0 = pass, 1 = show the hand */
    ABOT_CLAIM,        /* 0 = pass, 1 = claim the deal (four jokers) */
    ABOT_PLAY,         /* moves: legal plays, in the documented order (the pass first when legal) */
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

/* The legal list's order, the same in the Python SDK (docs/bot-authors.md
 * "The order of the legal list"): the pass first when legal; then by kind
 * (ddz_kind order: solo, pair, trio, ... bomb, rocket); fewer cards first;
 * bombs soft (a wild card stands in), natural, pure wild; then the reading's
 * primary part, its kickers and the cards played, each compared rank by
 * rank from the lowest. Auction values: pass (0) first, then ascending. */
typedef struct abot_request {
    abot_decision decision;
    const ddz_move *moves;      /* ABOT_PLAY: every legal play, in that order; m->cards the cards
                                 * played, the reading kind/rank/len/subst (abot_move_text) */
    int            nmoves;
    const int8_t  *values;      /* other decisions: the legal values, pass (0) first, then ascending */
    int            nvalues;
    int64_t        move_ms;     /* free time for this decision (-1: not given) */
    int64_t        deal_ms;     /* left of the deal's limit, -1 none */
    int64_t        bank_ms;     /* left in the bank */
} abot_request;

/* Returns an index into r->moves (plays) or r->values (the rest), or
 * abot_answer(TEXT) to answer in words ("play 33344456", "pass", "bid 2").
 * An index out of range, or words naming no legal choice, is a bug of the
 * bot: the library says so on stderr (what was chosen, what it answered)
 * and answers the pass where passing is legal, else the smallest legal
 * choice (the first of the ordered list). In strict mode
 * (abot_options.strict, or ARBITER_BOT_STRICT=1) it sends the bot's own
 * words instead — `error` for an index out of range — for the referee to
 * judge and penalise as the tournament's policy says. ABOT_NO_REPLY means
 * the bot wrote its reply on stdout itself (only the test bots that
 * misbehave on purpose need this). */
#define ABOT_NO_REPLY (-2)
#define ABOT_ANSWER (-3)
/* Keep `text` (its first line, up to ARB_MAX_LINE bytes) as this
 * decision's answer and return ABOT_ANSWER: `return abot_answer("pass");`. */
int abot_answer(const char *text);
typedef int (*abot_choose)(const abot_view *v, const abot_request *r, void *ctx);

/* Called with the updated view after every event line the library has
 * read (unknown ones included; `end` last), with the line's first 255
 * bytes. Not called for requests: those go to choose. */
typedef void (*abot_observe)(const abot_view *v, const char *line, void *ctx);

typedef struct abot_options {
    bool ask_legal;         /* ask the referee for legal play lists (`bot 1 NAME legal`);
                             * the moves then come from its list, not the engine */
    bool verbose;           /* echo every protocol line to stderr */
    bool strict;            /* send the bot's own answer, legal or not (also ARBITER_BOT_STRICT=1) */
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
/* A seat's role relative to the landlord, its distance from the landlord in
 * turn order: DOWN (下家) plays right after the landlord, UP (上家) right
 * before, ACROSS only at a table of four. UNKNOWN before the landlord is. */
typedef enum abot_role {
    ABOT_ROLE_UNKNOWN = -1,
    ABOT_ROLE_LANDLORD = 0,
    ABOT_ROLE_LANDLORD_DOWN = 1,
    ABOT_ROLE_LANDLORD_ACROSS = 2,
    ABOT_ROLE_LANDLORD_UP = 3,
} abot_role;
abot_role abot_role_of(const abot_view *v, int seat);
int abot_seat_of(const abot_view *v, abot_role role);  /* -1: unknown, or no such seat */
const char *abot_role_name(abot_role role);           /* "landlord_down", as the Python SDK's role() */
/* A move as the referee writes it (its reply text: "333444+56",
 * "3377=333+7", "pass") and its reading alone ("333444+56", "333+7"); the
 * cards that leave the hand are m->cards (ddz_cards_format). snprintf's
 * return. */
int abot_move_text(const abot_view *v, const ddz_move *m, char *buf, size_t len);
int abot_move_reading(const abot_view *v, const ddz_move *m, char *buf, size_t len);
/* Cards neither in this hand nor played yet: what the other seats hold
 * between them (with the kitty while it is face down). */
ddz_cards abot_outstanding(const abot_view *v);

/* ---- Da Bang (打棒) ---------------------------------------------------------
 *
 * The same library for the four-player partnership game (dabang.h, the
 * rules in docs/rules/dabang.md): abot_dab_run plays a match of Da Bang on
 * stdin/stdout with an abot_dab_choose. The plays come from the engine
 * (dab_leads / dab_follows with the deal's trumps); the other decisions
 * (declare, tribute, return, bury, joker, takeback) from the legal items
 * the referee lists with every such request. Seats 0 and 2 play against
 * 1 and 3; a seat's partner sits opposite (seat + 2). */

typedef enum abot_dab_decision {
    ABOT_DAB_DECLARE = 0,   /* choices: pass (no cards), level cards, three jokers and a suit, RJ */
    ABOT_DAB_TRIBUTE,       /* one card to give the 打家 */
    ABOT_DAB_RETURN,        /* one card the 打家 gives back */
    ABOT_DAB_BURY,          /* one card the 打家 buries in the kitty */
    ABOT_DAB_JOKER,         /* a joker to bury, or pass */
    ABOT_DAB_TAKEBACK,      /* which of the kitty's equal smallest cards to take back */
    ABOT_DAB_PLAY,          /* a lead or a follow */
} abot_dab_decision;

/* One finished deal: the game's `result points ...` line and the
 * referee's scores. */
typedef struct abot_dab_result {
    int     deal;
    int     seat;                 /* this bot's seat in that deal */
    int     dajia;                /* the deal's 打家 */
    int     points;               /* the attackers' points, kitty included */
    int     rise_team;            /* the team that went up (seat % 2), -1 none */
    int     rise;                 /* levels */
    int     levels_after[2];      /* per team: rank 0..7, DAB_LEVEL_PASSED once past 10 */
    int64_t scores[DAB_SEATS];     /* per seat, sum zero: levels gained and lost */
} abot_dab_result;

/* What the seat has seen. Cards are dab_hand multisets (three packs). */
typedef struct abot_dab_view {
    int        seat;              /* this deal's seat, 0..3 */
    int        partner;           /* seat + 2 mod 4 */
    int        deal;              /* deal number in the match, from 0 (-1 before the first) */
    int        deals;             /* the match's deal limit */
    const dab_rules *rules;        /* the match's rules, every option applied */
    uint64_t   seed;              /* this bot's own seed for the match */
    int64_t    clock_move_ms;     /* the match's clock, -1 none (see abot_view) */
    int64_t    clock_deal_ms;
    int64_t    clock_bank_ms;

    /* The deal before the tricks. */
    bool       first;             /* the match's first deal: no 打家 yet */
    int        first_drawer;      /* first deal: who draws first, else -1 */
    int        level;             /* the deal's level rank, 0..7 for 3..T */
    int        levels[2];         /* per team (seat % 2) at the start of the deal, 0..7 */
    int        blood;             /* tribute owed to the 打家 this deal */
    int        dajia;             /* the 打家 (declarer), -1 until known */
    int        redeals;
    int        decl_seat;         /* the standing declaration: who, -1 none */
    dab_hand    decl_cards;        /* ... and the cards shown */
    int        trump_suit;        /* 0..3 (S H C D), -1 until known */
    const dab_trump *trump;        /* powers and following suits, NULL until known */
    bool       kitty_known;       /* the six kitty cards were seen (shown, or taken by this 打家) */
    dab_hand    kitty;             /* ... as drawn */
    bool       buried_known;      /* the buried kitty is known (this bot buried it, or it was shown) */
    dab_hand    buried;            /* ... as it lies now (jokers buried and cards taken back included) */
    bool       dry;               /* dry pot (干锅): no kitty taken */

    /* Play. */
    dab_hand    hand;              /* the cards in hand now */
    int        points[2];         /* per team, from the tricks so far */
    int        tricks;            /* tricks finished this deal */
    int        leader;            /* who led the current trick, -1 before its lead */
    int        ntrick;            /* plays in the current trick */
    dab_play    trick[DAB_SEATS];   /* by playing order, trick[0] the lead */
    int        winner;            /* who is winning the current trick, -1 before its lead */
    const dab_play *winning;       /* ... with what (NULL before the lead) */
    int        last_winner;       /* who won the last finished trick, -1 none */
    dab_hand    played[DAB_SEATS];  /* cards each seat has played this deal */
    dab_hand    seen;              /* every card seen played this deal */

    /* The match so far. */
    int        penalties[DAB_SEATS];
    int        own_penalties;
    const abot_dab_result *results;   /* every finished deal, oldest first */
    int        nresults;
    int64_t    total;             /* this bot's total: the sum of its scores, then `end` */
    bool       over;
} abot_dab_view;

typedef struct abot_dab_request {
    abot_dab_decision decision;
    /* Every legal choice as cards: a play, the card to give, bury or take
     * back, the joker, the cards of a declaration; n == 0 is the pass. */
    const dab_play *choices;
    int            nchoices;
    const int8_t  *suits;         /* ABOT_DAB_DECLARE: the suit named with three jokers, else -1 */
    int64_t        move_ms;
    int64_t        deal_ms;
    int64_t        bank_ms;
} abot_dab_request;

/* Returns an index into r->choices, in the documented order (the pass
 * first; then fewer cards; then the cards from the lowest by side card
 * before trump, power, card id once the trump is known, by rank and card id
 * before; the suit three jokers name). Out of range or abot_answer words
 * naming no choice: as for abot_choose (pass where legal, else the
 * smallest; strict mode sends the bot's own). */
typedef int (*abot_dab_choose)(const abot_dab_view *v, const abot_dab_request *r, void *ctx);
typedef void (*abot_dab_observe)(const abot_dab_view *v, const char *line, void *ctx);

typedef struct abot_dab_options {
    bool ask_legal;             /* plays from the referee's list, not the engine */
    bool verbose;
    bool strict;                /* as abot_options.strict */
    abot_dab_observe observe;    /* may be NULL */
} abot_dab_options;

int abot_dab_run(const char *name, abot_dab_choose choose, void *ctx);
int abot_dab_run_fds(const char *name, int in_fd, int out_fd, abot_dab_choose choose, void *ctx,
                    const abot_dab_options *opt);

/* A seat's role relative to the 打家, its distance from him in turn order:
 * DOWN his 下家 (an attacker), PARTNER opposite, UP his 上家 (the other
 * attacker); UNKNOWN before the 打家 is known. */
typedef enum abot_dab_role {
    ABOT_DAB_ROLE_UNKNOWN = -1,
    ABOT_DAB_ROLE_DECLARER = 0,
    ABOT_DAB_ROLE_DECLARER_DOWN = 1,
    ABOT_DAB_ROLE_DECLARER_PARTNER = 2,
    ABOT_DAB_ROLE_DECLARER_UP = 3,
} abot_dab_role;
abot_dab_role abot_dab_role_of(const abot_dab_view *v, int seat);
int abot_dab_seat_of(const abot_dab_view *v, abot_dab_role role);   /* -1 before the 打家 is known */
const char *abot_dab_role_name(abot_dab_role role);                 /* "declarer_up", as in Python */

/* Helpers for strategies. */
static inline bool abot_dab_partner(const abot_dab_view *v, int seat) { return seat >= 0 && seat % 2 == v->seat % 2; }
/* Cards not in this hand and not seen played: what the other hands and an
 * unknown kitty hold between them (the buried kitty left out when known). */
dab_hand abot_dab_outstanding(const abot_dab_view *v);
/* Trumps in a hand (0 while the trump is unknown). */
int abot_dab_trumps(const abot_dab_view *v, const dab_hand *h);
/* The play's strength for winning: its highest card's power (DB-11). */
int abot_dab_power(const abot_dab_view *v, const dab_play *p);

#endif
