/* dabang.h — the Da Bang (打棒) rules engine: four players in two
 * partnerships, three packs (162 cards), trumps, declaring, the kitty,
 * tribute, tricks of singles, pairs and triples, and levels from 3 through
 * 10. Pure: no I/O, no clock, no allocation, no global state. The rules it
 * implements are docs/rules/dabang.md; rule ids (DB-n) in comments point
 * there. The arb_game adapter is games/dab_game.c. */
#ifndef DABANG_H
#define DABANG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arb_rng.h"

/* ---- Cards (DB-1) -------------------------------------------------------- */

enum {
    DAB_NCARDS = 54,     /* distinct cards: rank * 4 + suit, then the jokers */
    DAB_COPIES = 3,      /* three packs: up to three identical cards */
    DAB_DECK = 162,
    DAB_SEATS = 4,
    DAB_HAND = 39,
    DAB_KITTY = 6,
    DAB_BJ = 52,         /* small joker */
    DAB_RJ = 53,         /* big joker */
    /* Ranks 3456789TJQKA2 = 0..12. */
    DAB_R3 = 0, DAB_R5 = 2, DAB_RT = 7, DAB_RK = 10, DAB_RA = 11, DAB_R2 = 12,
    /* Suits S H C D = 0..3; following treats all trumps as one suit. */
    DAB_TRUMP = 4,
    DAB_NSUITS = 5,
    DAB_MAX_PLAY = 3,    /* a triple */
    /* Redeals of one deal before its fallback (DB-47). */
    DAB_MAX_REDEALS = 8,
    /* Levels: 3..10 are rank indices 0..7; passing 10 is 8 (DB-62). */
    DAB_LEVEL_MAX = DAB_RT,
    DAB_LEVEL_PASSED = DAB_RT + 1,
};

static inline int dab_rank(int c) { return c / 4; }   /* 13 for both jokers */
static inline int dab_suit(int c) { return c < DAB_BJ ? c % 4 : -1; }
static inline bool dab_joker(int c) { return c >= DAB_BJ; }
/* DB-4: 5 = 5, T and K = 10. */
static inline int dab_card_points(int c)
{
    int r = dab_rank(c);
    return r == DAB_R5 ? 5 : (r == DAB_RT || r == DAB_RK) ? 10 : 0;
}

/* A multiset of cards: how many of each of the 54 distinct cards (0..3). */
typedef struct dab_hand {
    uint8_t n[DAB_NCARDS];
    uint8_t total;
} dab_hand;

/* A play: 1..3 cards, ascending card ids. */
typedef struct dab_play {
    uint8_t n;
    uint8_t c[DAB_MAX_PLAY];
} dab_play;

typedef enum dab_shape { DAB_SINGLE, DAB_PAIR, DAB_TRIPLE, DAB_MIXED } dab_shape;

/* Parse cards ("5H5HKS", "bjrj": any order and case, no separator)
 * into counts added to *h (which the caller zeroes); at most `max` cards
 * and DAB_COPIES of each. 0, or ARB_EPARSE with the reason and the column. */
int dab_parse_cards(const char *text, int max, dab_hand *h, char *err, size_t errlen);
/* One card ("5H", "RJ") at *s; advances *s. The card id, or -1. */
int dab_parse_card(const char **s);
/* Cards in the canonical order (card id ascending, identical cards
 * repeated): "3S3S5HKSBJ". Characters written (without the NUL), or -1
 * when it does not fit. "" for no cards. */
int dab_format_hand(const dab_hand *h, char *buf, size_t len);
int dab_format_play(const dab_play *p, char *buf, size_t len);
int dab_format_card(int c, char *buf, size_t len);
/* A play from counts (1..3 cards); ARB_EINVAL otherwise. */
int dab_play_from_hand(const dab_hand *h, dab_play *p);
void dab_play_to_hand(const dab_play *p, dab_hand *h);
int dab_hand_points(const dab_hand *h);
int dab_play_points(const dab_play *p);
/* The play's shape: identical cards make a pair or triple; else mixed. */
dab_shape dab_play_shape(const dab_play *p);

/* The 2-bit-per-card packing of game.h's arb_action.cards: card c has
 * its count in bits 2(c mod 32).. of word c / 32. */
void dab_pack(const dab_hand *h, uint64_t out[2]);
int  dab_unpack(const uint64_t in[2], dab_hand *h);   /* ARB_EINVAL: a count of 3+ overflowing */

/* ---- Trumps (DB-10..DB-12) ------------------------------------------------ */

/* What a deal's level rank and trump suit make of every card: its power
 * (DB-11; equal powers are equal cards for winning) and its suit for
 * following (DB-12), and each suit's cards by ascending power. */
typedef struct dab_trump {
    uint8_t level;                      /* rank 0..7 (3..T) */
    uint8_t suit;                       /* 0..3 */
    uint8_t power[DAB_NCARDS];
    uint8_t fsuit[DAB_NCARDS];           /* 0..3, DAB_TRUMP */
    uint8_t nmember[DAB_NSUITS];
    uint8_t member[DAB_NSUITS][24];      /* the suit's cards, ascending power */
} dab_trump;

void dab_trump_init(dab_trump *t, int level, int suit);
static inline bool dab_is_trump(const dab_trump *t, int c) { return t->fsuit[c] == DAB_TRUMP; }
/* Parse "level=5,trump=H" style values: a level rank in 3456789T, a suit
 * in SHCD (case-insensitive); -1 when not one. */
int dab_level_parse(const char *s);
int dab_suit_parse(const char *s);

/* ---- Plays and tricks (DB-20..DB-29) ---------------------------------- */

/* The number of distinct plays a hand can have for one lead or follow:
 * three cards chosen from up to 39 distinct cards, with repeats. */
enum { DAB_MAX_PLAYS = 12000 };

/* Every distinct legal lead (DB-20): singles, identical pairs and
 * triples. Count, or ARB_ENOSPC when cap is too small. */
int dab_leads(const dab_trump *t, const dab_hand *h, dab_play *out, int cap);
/* Every distinct legal follow to `led` (DB-21..DB-24). */
int dab_follows(const dab_trump *t, const dab_hand *h, const dab_play *led, dab_play *out, int cap);
/* Check a lead or a follow (led NULL: a lead). 0, or ARB_EILLEGAL with
 * the rule broken in why. */
int dab_check_play(const dab_trump *t, const dab_hand *h, const dab_play *led, const dab_play *p, char *why,
                  size_t whylen);
/* Does `p` beat the trick's current winner `w` (DB-25..DB-27)? */
bool dab_beats(const dab_trump *t, const dab_play *p, const dab_play *w);
/* The index of the winning play among the n plays of a trick, plays[0]
 * the lead. */
int dab_trick_winner(const dab_trump *t, const dab_play *plays, int n);
/* A legal follow chosen at random without listing them all (self-play,
 * benchmarks): every legal follow may come out, not uniformly. */
void dab_random_follow(const dab_trump *t, const dab_hand *h, const dab_play *led, arb_rng *rng, dab_play *out);
void dab_random_lead(const dab_trump *t, const dab_hand *h, arb_rng *rng, dab_play *out);

/* ---- Rules and options (DB-80) ------------------------------------------ */

typedef struct dab_rules {
    uint8_t kitty_multiplier;   /* DB-31: 2 (4) */
    bool    tribute;            /* DB-50..DB-53 */
    bool    dry_pot;            /* DB-56 */
    bool    special_endings;    /* DB-63 */
    bool    three_jokers_end;   /* DB-64 */
    bool    next_same;          /* DB-60: the 打家 stays (false: his partner) */
    uint8_t start_level;        /* DB-70: rank 0..7 */
    uint8_t goal_level;         /* DB-62: the level to pass, rank 0..7 */
    uint8_t base_step;          /* DB-61 */
    uint32_t deal_limit;        /* DB-71: used when the match names none */
} dab_rules;

int dab_rules_preset(dab_rules *r, const char *preset);    /* "standard", "short" */
int dab_rules_set(dab_rules *r, const char *key, const char *value, char *err, size_t errlen);
int dab_rules_check(const dab_rules *r, char *err, size_t errlen);
size_t dab_rules_describe(const dab_rules *r, char *buf, size_t len);
const char *const *dab_presets(void);

/* ---- A deal (DB-2, DB-40..DB-64) ----------------------------------------- */

/* Decisions (game.h numbers a game's own from ARB_DEC_GAME). */
enum {
    DAB_DEC_DECLARE = 2,     /* show level cards or jokers, or pass (DB-42..DB-48) */
    DAB_DEC_TRIBUTE = 3,     /* give the 打家 a card (DB-52) */
    DAB_DEC_RETURN = 4,      /* give a card back (DB-53) */
    DAB_DEC_BURY = 5,        /* the 打家 buries one kitty card (DB-57) */
    DAB_DEC_JOKER = 6,       /* bury a joker, or pass (DB-59) */
    DAB_DEC_TAKE = 7,        /* which of the kitty's equal smallest cards to take back (DB-59) */
    /* plays: ARB_DEC_PLAY (1) */
};

typedef enum dab_phase {
    DAB_PH_DRAW,       /* drawing; the drawer may be asked to declare */
    DAB_PH_CLOSE,      /* the closing round of declaring */
    DAB_PH_TRIBUTE,
    DAB_PH_RETURN,
    DAB_PH_BURY,
    DAB_PH_JOKERS,     /* the others bury jokers */
    DAB_PH_TAKE,       /* one of them chooses the card taken back */
    DAB_PH_TRICKS,
    DAB_PH_OVER,
} dab_phase;

/* A declaration: how strong and which suit (DB-45). Kinds ascend in
 * strength; count 1..3 for level cards. */
enum { DAB_DECL_NONE, DAB_DECL_LEVEL, DAB_DECL_BJ3, DAB_DECL_RJ3, DAB_DECL_BIGJOKER /* first deal */ };

/* One declaring option, as an action's value: kind, count and suit. */
typedef struct dab_decl {
    int8_t kind;      /* DAB_DECL_*; NONE: pass */
    int8_t count;     /* level cards shown (1..3), 3 for jokers, 1 for the big joker */
    int8_t suit;      /* named suit; -1 while the first deal's big joker waits for one */
} dab_decl;

/* What the match tells a deal before anyone sees it (deal_setup). */
typedef struct dab_context {
    bool    first;            /* the match's first deal (DB-42, DB-43) */
    int8_t  dajia;            /* seat of the 打家 (later deals) */
    uint8_t level[2];         /* per team (seat % 2): rank 0..7 */
    uint8_t blood;            /* owed to the 打家 (DB-50, DB-51) */
} dab_context;

/* How a finished deal came out (DB-30..DB-32, DB-60..DB-64). */
typedef struct dab_outcome {
    int16_t points;           /* the attackers', kitty included */
    int16_t kitty_points;     /* points buried in the kitty */
    bool    dug;              /* the attackers won the last trick */
    int8_t  kase;             /* DB-32 case 1..4 */
    int8_t  rise_team;        /* the team going up, -1 none */
    int8_t  rise;             /* levels */
    int8_t  next_dajia;       /* seat */
    uint8_t blood_next;       /* owed to the next 打家 */
    int8_t  winner;           /* team that won the match outright, -1 */
    uint8_t level_after[2];   /* per team, DAB_LEVEL_PASSED once passed */
} dab_outcome;

typedef struct dab_state {
    dab_rules rules;
    dab_context ctx;
    uint64_t seed;
    uint8_t redeals;
    uint8_t deck[DAB_DECK];      /* the shuffle: DB-2 */
    bool    ordered;            /* the first shuffle is `order` (dab_deal_ordered) */
    uint8_t order[DAB_DECK];     /* a deal set's first shuffle, when ordered */
    dab_phase phase;
    int8_t to_act;
    uint8_t first_drawer;
    uint8_t drawn;              /* cards drawn so far (0..156) */
    dab_hand hand[DAB_SEATS];
    dab_hand dealt[DAB_SEATS];    /* after drawing, before tribute and the kitty */
    dab_hand kitty;              /* the six kitty cards */
    uint8_t kitty_orig[DAB_KITTY];
    /* Declaring */
    int8_t dajia;               /* seat, -1 before known (first deal) */
    dab_decl decl;               /* the standing declaration */
    int8_t decl_seat;
    bool    trump_pending;      /* first deal: the big joker waits for a suited draw */
    uint32_t offered[DAB_SEATS]; /* declaring options offered since the last declaration (DB-48) */
    uint8_t evaluated;          /* seats whose options were computed since the last declaration */
    uint8_t close_passes;       /* consecutive passes in the closing round */
    int8_t  flips[4];           /* DB-43: the flipped kitty cards, -1 none */
    int8_t  trump_from;         /* how trumps came: 0 declared, 1 flip, 2 kitty draw */
    dab_trump trump;
    bool    trump_known;
    uint8_t level;              /* the deal's level rank */
    /* Tribute and the kitty */
    uint8_t blood_left;
    uint8_t returns_left;
    uint8_t tribute_given[DAB_HAND];
    uint8_t ntribute;
    bool    kitty_shown;        /* DB-55 */
    bool    dry;                /* DB-56 */
    uint8_t buried;             /* cards the 打家 buried so far */
    bool    kitty_public;       /* DB-58: the buried kitty was shown */
    bool    others_may;         /* DB-59 */
    uint8_t joker_turn;         /* 1..3: which of the others is asked */
    int8_t  took;               /* the card taken back after the last joker buried, -1 */
    int8_t  kitty_jokers_by[2]; /* per team: jokers buried (not counting) */
    /* Tricks */
    int8_t leader;
    uint8_t ntrick;             /* plays in the current trick */
    dab_play trick[DAB_SEATS];    /* by playing order */
    int8_t winner_idx;
    uint8_t tricks_done;
    int16_t points[2];          /* per team, from tricks */
    int8_t last_winner;         /* seat that won the last finished trick */
    dab_play last_trick[DAB_SEATS];
    int8_t last_leader;
    dab_outcome out;
} dab_state;

static inline int dab_team(int seat) { return seat % 2; }

/* A deal from a seed, with the context of a match's first deal; then
 * dab_setup for a later one. Both run the deal up to its first decision. */
int  dab_deal(dab_state *s, const dab_rules *r, uint64_t seed);
/* dab_deal with the first shuffle given (a deal set: docs/evaluation.md):
 * `order` is the DAB_DECK cards (0..53, each DAB_COPIES times) in drawing
 * order, kept in the state so that dab_setup deals it again; the first
 * drawer, the kitty draw and a redeal's shuffle (DB-47) still come from
 * the seed. ARB_EINVAL when order is not the deck. */
int  dab_deal_ordered(dab_state *s, const dab_rules *r, uint64_t seed, const uint8_t *order, size_t n);
int  dab_setup(dab_state *s, const dab_context *ctx);
/* dab_deal then dab_setup in one step: the deal is run once. */
int  dab_deal_in(dab_state *s, const dab_rules *r, uint64_t seed, const dab_context *ctx);
/* Run the deal forward to its next decision, as dab_deal, dab_setup and
 * every dab_do_* do: for a state filled in by hand at one step of the deal
 * (a position to study, a rule test), which then stops exactly where the
 * engine would — the seat asked, or the steps nobody decides done. */
void dab_advance(dab_state *s);
int  dab_to_act(const dab_state *s);
int  dab_decision(const dab_state *s);
/* Legal actions as plays or declarations: see dab_game.c for the packing. */
/* Declaring options for seat p now: a bitmask (DB-45; bit = dab_decl_bit). */
uint32_t dab_declare_options(const dab_state *s, int p);
int  dab_decl_bit(const dab_decl *d);
void dab_decl_of_bit(int bit, dab_decl *d);
/* Apply a decision of the seat to act. Each returns 0 or ARB_EILLEGAL
 * (with the rule in why). */
int dab_do_declare(dab_state *s, const dab_decl *d, char *why, size_t whylen);
int dab_do_card(dab_state *s, int card, char *why, size_t whylen);   /* tribute, return, bury, take back */
/* DB-59: bury a joker (-1: pass); the kitty is then shown and the
 * smallest eligible card taken back at once, or, among equals, by a
 * DAB_DEC_TAKE decision (dab_do_card). */
int dab_do_joker(dab_state *s, int joker, char *why, size_t whylen);
int dab_do_play(dab_state *s, const dab_play *p, char *why, size_t whylen);
/* The cards a decision may take: tribute (the highest non-point cards),
 * return and bury (any card held), take back (the kitty's smallest
 * eligible cards, equals all listed), as a hand of candidates. */
void dab_card_options(const dab_state *s, dab_hand *out);
/* DB-59: the joker the seat to act may bury now (none when he may not). */
void dab_joker_options(const dab_state *s, dab_hand *jokers);

/* One decision for the seat to act, chosen at random among its options
 * (plays: dab_random_lead / dab_random_follow): self-play and benchmarks. */
int dab_random_act(dab_state *s, arb_rng *rng, char *why, size_t whylen);

/* ---- The match (DB-70..DB-73) -------------------------------------------- */

typedef struct dab_match {
    dab_rules rules;
    uint32_t limit;
    uint32_t played;
    uint8_t level[2];          /* per team of players (player % 2) */
    int8_t  stage_team;        /* the declaring team of the next deal; -1 before the first */
    int8_t  dajia_player;      /* the next 打家 (a player), -1 first deal */
    uint8_t blood;
    int8_t  winner;            /* -1 while undecided */
    bool    passed[2];         /* the team played through the goal level (DB-62) */
} dab_match;

void dab_match_init(dab_match *m, const dab_rules *r, uint32_t deal_limit);
/* The context of the next deal, its seats given by player_at. */
void dab_match_context(const dab_match *m, const uint8_t *player_at, dab_context *ctx);
/* Fold a deal in: played (s over), or forfeited by forfeit_seat. */
void dab_match_fold(dab_match *m, const dab_state *s, const uint8_t *player_at, int forfeit_seat);
bool dab_match_over(const dab_match *m);
/* The winning team (by player % 2), -1 while the match goes on (DB-71). */
int  dab_match_winner(const dab_match *m);

/* The game's table in the registry (games/game.c, game.h). */
extern const struct arb_game arb_game_dabang;

#endif
