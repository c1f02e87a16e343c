/* game.h — the one interface every game engine implements, so the referee,
 * the replay tool, the bots SDK and the scheduler handle Dou Dizhu (three or
 * four players) and Da Bang alike. docs/game-interface.md explains each
 * entry and how Da Bang's needs (partnerships, suits, three packs, tricks,
 * trumps, declaring, burying, tribute) fit it.
 *
 * The interface is a table of functions over opaque, fixed-size values: the
 * caller allocates `rules_size` and `state_size` bytes (no allocation inside
 * the engine), and a state is a plain value that may be copied. */
#ifndef ARB_GAME_H
#define ARB_GAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arb_limits.h"

/* What the seat to act is asked: a small id the game defines, not a closed
 * list every game must edit. Only two values are generic; a game numbers
 * its own decisions from ARB_DEC_GAME upwards (below 256: arb_action keeps
 * the id in a byte) and names each through decision_name. Dou Dizhu's bid,
 * call, rob, double, show and claim are in ddz.h; Da Bang adds its own
 * (declare trumps, bury the kitty, pay tribute) and plays tricks through
 * ARB_DEC_PLAY. */
typedef int arb_decision;
enum {
    ARB_DEC_NONE = 0,   /* nobody: the deal is over */
    ARB_DEC_PLAY = 1,   /* cards (a play, a follow to a trick, or a pass) */
    ARB_DEC_GAME = 2,   /* the first id a game may define */
};

/* One decision, generic enough for every game. `cards` is a game-defined
 * packing of a multiset of cards: Dou Dizhu uses cards[0] (ddz_cards, four
 * bits per rank); Da Bang needs suits and three packs: 54 distinct cards x
 * up to 3 copies, two bits each = 108 bits in cards[0..1]. `primary` names a
 * reading when a set of cards has several (Dou Dizhu's "333444+56"). */
typedef struct arb_action {
    uint8_t  decision;  /* arb_decision: ARB_DEC_* or the game's own id */
    int8_t   value;
    uint8_t  kind;      /* game-defined category of a play (after checking) */
    uint8_t  rank;      /* game-defined comparison key */
    uint8_t  len;
    uint8_t  ncards;
    uint16_t reserved;
    uint64_t cards[2];
    uint64_t primary[2];
} arb_action;

/* Where a match stands, as the game counts it (match_result). Players are
 * the match's participants (its bots, 0..n-1); a deal seats them, player
 * player_at[seat] in each seat. */
typedef struct arb_standing {
    int64_t score[ARB_MAX_SEATS];       /* per player: its match score so far */
    int     nteams;                     /* fixed teams; 0: none (standings per player) */
    int8_t  team[ARB_MAX_SEATS];        /* per player: its team, -1 without fixed teams */
    int64_t team_score[ARB_MAX_SEATS];  /* per team: its match score so far */
    /* A match a team won outright (Da Bang: passing 10, a special ending,
     * the tie-break at the deal limit) ranks that team first whatever the
     * scores; scores then only order the others. */
    bool    decided;
    int8_t  winner_team;
} arb_standing;

/* Receives one line of protocol text (bot-protocol.md), NUL-terminated. */
typedef void (*arb_emit_fn)(void *ctx, const char *line);

/* A line formatted printf-style (at most 511 bytes, cut beyond) and given
 * to emit: what the tables' start_events and action_events write with. */
void arb_emitf(arb_emit_fn emit, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A deal's cards as data (deal sets, docs/evaluation.md): the first
 * shuffle as card ids in dealing order (the game's own ids: deal_ordered
 * takes them back), and, to read, each seat's cards as dealt and the kitty
 * in format_cards' packing. */
#define ARB_MAX_DECK 162   /* Da Bang's three packs */
typedef struct arb_deal_cards {
    uint16_t ncards;                   /* entries of order */
    uint8_t  order[ARB_MAX_DECK];
    int      nseats;
    uint64_t hand[ARB_MAX_SEATS][2];   /* per seat, before the kitty goes anywhere */
    uint64_t kitty[2];
} arb_deal_cards;

typedef struct arb_game {
    const char *name;          /* "doudizhu" */
    const char *title;         /* "Dou Dizhu (斗地主)" */
    size_t rules_size;         /* bytes of a rules value */
    size_t state_size;         /* bytes of a state value */
    const char *default_preset;/* the rules a match gets when it names none */
    /* The preset names, NULL-terminated (`arbiter rules`, error hints). */
    const char *const *(*presets)(void);

    /* Rules: a preset, then named options; errors as text in err. */
    int  (*rules_preset)(void *rules, const char *preset);
    int  (*rules_set)(void *rules, const char *key, const char *value, char *err, size_t errlen);
    int  (*rules_check)(const void *rules, char *err, size_t errlen);
    size_t (*rules_describe)(const void *rules, char *buf, size_t len);

    /* Seats and teams. Dou Dizhu's teams are known only when the landlord is
     * (team_of returns -1 before); Da Bang's are fixed (seats 0+2, 1+3). */
    int  (*seats)(const void *rules);
    int  (*team_of)(const void *state, int seat);
    /* Fixed teams: their number, and the team of each seat in team_of_seat
     * (seats(rules) entries); 0 when teams are not fixed (Dou Dizhu), and
     * team_of_seat is then left alone. */
    int  (*teams)(const void *rules, int8_t *team_of_seat);

    /* ---- The match: what passes from deal to deal ---------------------
     * A match is deals between players (its bots); every deal seats them,
     * player_at[seat] in each seat. What the match carries (Dou Dizhu:
     * nothing but the scores; Da Bang: levels, the declaring team, blood
     * owed) is a plain value of match_state_size bytes that the caller
     * allocates, as a deal's state; the engine allocates nothing. The
     * referee runs: match_init; then, until match_over: deal, deal_setup,
     * play (or forfeit), match_deal_done; then match_result. */
    size_t match_state_size;
    /* The stake P of a forfeited deal when the match names none. */
    int64_t default_forfeit_points;
    /* True when match_over can end a match before its deal limit (a side
     * reached its goal): the number of deals is then a bound, not a
     * promise, and duplicate play, which must deal the same cards to every
     * seating, is played at tables: each seating block a match of its own
     * (match_init again), cut short at its own match_over (match_def.h,
     * match_tables). */
    bool match_ends_early;
    /* A new match of at most deal_limit deals under these rules. */
    int  (*match_init)(void *mstate, const void *rules, uint32_t deal_limit);
    /* Set a deal just dealt (deal) up from the match, before anyone sees
     * it: the level played, the declarer, who leads. NULL: nothing to do. */
    int  (*deal_setup)(void *state, const void *mstate, const uint8_t *player_at);
    /* The scores per seat of a deal that the player in `seat` forfeits
     * with stake P (zero-sum: Dou Dizhu: the offender pays P to each other
     * seat; a partnership game: the offender's team loses). */
    int  (*forfeit)(const void *mstate, int seat, int64_t stake, int64_t *scores);
    /* Fold a finished deal into the match: its scores per seat (played or
     * forfeited), the deal (NULL when it was forfeited before it was
     * dealt) and the seat that forfeited it (-1 none). */
    int  (*match_deal_done)(void *mstate, const void *state, const uint8_t *player_at,
                            const int64_t *scores, int forfeit_seat);
    /* A side passed the goal, or the deal limit is reached. */
    bool (*match_over)(const void *mstate);
    /* Where the match stands (at any time; at the end, its result). */
    int  (*match_result)(const void *mstate, arb_standing *out);

    /* A deal from a seed: every random choice comes from it (docs/rng.md). */
    int  (*deal)(void *state, const void *rules, uint64_t seed);
    int  (*to_act)(const void *state);              /* seat, or -1 when over */
    arb_decision (*decision)(const void *state);
    /* A decision's name ("bid", "play"), NULL for an id the game lacks. */
    const char *(*decision_name)(arb_decision d);
    /* Every legal action for the seat to act; count or negative error. */
    int  (*legal)(const void *state, arb_action *out, size_t cap);
    /* Check an action; on success *fixed is what will be applied (with the
     * reading that counts); on ARB_EILLEGAL a reason in why. */
    int  (*check)(const void *state, const arb_action *a, arb_action *fixed, char *why, size_t whylen);
    int  (*apply)(void *state, const arb_action *fixed);
    bool (*over)(const void *state);
    /* Scores per seat at the end (zero-sum for Dou Dizhu). */
    int  (*score)(const void *state, int64_t *scores, int nseats);

    /* Text form of an action for the seat to act ("bid 2", "play 333444+56",
     * "pass", "double", "declare S5"), as the bot protocol carries it. */
    int  (*parse_action)(const void *state, const char *text, arb_action *a, char *err, size_t errlen);
    int  (*format_action)(const void *state, const arb_action *a, char *buf, size_t len);
    /* Cards as text (a hand, the kitty): "33445TJQKA2B". */
    int  (*format_cards)(const uint64_t cards[2], char *buf, size_t len);

    /* What a seat sees, as the bot protocol's event lines. The game decides
     * this, not the referee: only the game knows what is hidden. */
    /* Lines a seat receives when a deal starts (its own hand, what is public). */
    int  (*start_events)(const void *state, int seat, arb_emit_fn emit, void *ctx);
    /* Lines a seat receives after `actor` took action `fixed` (as checked),
     * which took the deal from `before` to `after`: the action itself and
     * everything it revealed. */
    int  (*action_events)(const void *before, const void *after, int actor, const arb_action *fixed,
                          int seat, arb_emit_fn emit, void *ctx);
    /* The request for the seat to act, without clock or legal list: "bid",
     * "play", "play beat 0 888+3 trio_solo". */
    int  (*request)(const void *state, char *buf, size_t len);
    /* A legal action as a protocol item, itself a complete reply: "2",
     * "pass", "call", "333444+56". */
    int  (*format_item)(const void *state, const arb_action *a, char *buf, size_t len);
    /* Value decisions always list their items in requests; plays only for
     * bots that ask (true when the decision is a play). */
    bool (*items_on_request)(const void *state);
    /* The action a referee takes for a seat it plays for (autoplay): pass
     * when legal, else the smallest legal action. Index into legal[0..n). */
    int  (*fallback)(const void *state, const arb_action *legal, int n);

    /* ---- Deals as data (optional: NULL when the game has none) ----------
     * What a deal just dealt (deal, deal_ordered; deal_setup done) was
     * dealt: its order, hands and kitty. */
    int  (*deal_cards)(const void *state, arb_deal_cards *out);
    /* A deal as `deal` makes it, but with its first shuffle given as n
     * card ids (deal_cards' order) instead of drawn from the seed; every
     * other random choice still comes from the seed, so the order and
     * seed deal_cards read from a deal give that same deal again.
     * ARB_EINVAL when order is not a shuffle of the game's cards. */
    int  (*deal_ordered)(void *state, const void *rules, uint64_t seed, const uint8_t *order, size_t n);
} arb_game;

/* Registered games (NULL-terminated), and lookup by name. */
const arb_game *arb_game_find(const char *name);
const arb_game *const *arb_games(void);
/* Add a game to the registry: the games of games/ are built in; another engine (a
 * test game, a game built outside games/) registers itself before use,
 * e.g. from a constructor, at most ARB_MAX_GAMES in all. The table is kept,
 * not copied. ARB_EINVAL when an entry is missing or the name is taken,
 * ARB_ENOSPC when the registry is full. Not thread-safe: register before
 * starting threads. */
int arb_game_register(const arb_game *g);
/* The first entry a table lacks, or NULL when it is complete. */
const char *arb_game_missing(const arb_game *g);

/* The game a command or tournament plays when it names none. */
#define ARB_DEFAULT_GAME "doudizhu"

#endif
