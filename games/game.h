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

/* What the seat to act is asked. Dou Dizhu uses BID..PLAY; Da Bang adds
 * DECLARE (show trump cards while the cards are drawn), BURY (the declarer
 * returns the kitty), TRIBUTE (give the highest card to the declarer) and
 * plays tricks through PLAY. */
typedef enum arb_decision {
    ARB_DEC_NONE = 0,   /* nobody: the deal is over */
    ARB_DEC_BID,        /* value: 0 = pass, 1..max = bid */
    ARB_DEC_CALL,       /* value: 0/1 */
    ARB_DEC_ROB,        /* value: 0/1 */
    ARB_DEC_DOUBLE,     /* value: 0/1 */
    ARB_DEC_SHOW,       /* value: 0/1 */
    ARB_DEC_CLAIM,      /* value: 0/1 */
    ARB_DEC_PLAY,       /* cards (a play, a follow to a trick, or a pass) */
    ARB_DEC_DECLARE,    /* cards shown to declare or overturn trump; none = decline */
    ARB_DEC_BURY,       /* cards put back into the kitty */
    ARB_DEC_TRIBUTE,    /* the card given */
} arb_decision;

/* One decision, generic enough for every game. `cards` is a game-defined
 * packing of a multiset of cards: Dou Dizhu uses cards[0] (ddz_cards, four
 * bits per rank); Da Bang needs suits and three packs: 54 distinct cards x
 * up to 3 copies, two bits each = 108 bits in cards[0..1]. `primary` names a
 * reading when a set of cards has several (Dou Dizhu's "333444+56"). */
typedef struct arb_action {
    uint8_t  decision;  /* arb_decision */
    int8_t   value;
    uint8_t  kind;      /* game-defined category of a play (after checking) */
    uint8_t  rank;      /* game-defined comparison key */
    uint8_t  len;
    uint8_t  ncards;
    uint16_t reserved;
    uint64_t cards[2];
    uint64_t primary[2];
} arb_action;

/* Receives one line of protocol text (bot-protocol.md), NUL-terminated. */
typedef void (*arb_emit_fn)(void *ctx, const char *line);

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

    /* A deal from a seed: every random choice comes from it (docs/rng.md). */
    int  (*deal)(void *state, const void *rules, uint64_t seed);
    int  (*to_act)(const void *state);              /* seat, or -1 when over */
    arb_decision (*decision)(const void *state);
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
} arb_game;

/* Registered games, and lookup by name. */
const arb_game *arb_game_find(const char *name);
const arb_game *const *arb_games(void);

extern const arb_game arb_game_doudizhu;

#endif
