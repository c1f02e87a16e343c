/* dabang.h — the Da Bang (打棒) rules engine: four players in two
 * partnerships, three packs (162 cards), trumps, declaring, the kitty,
 * tribute, tricks of singles, pairs and triples, and levels from 3 through
 * 10. Pure: no I/O, no clock, no allocation, no global state. The rules it
 * implements are docs/rules/dabang.md; rule ids (DB-n) in comments point
 * there. The arb_game adapter is games/db_game.c. */
#ifndef DABANG_H
#define DABANG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arb_rng.h"

/* ---- Cards (DB-1) -------------------------------------------------------- */

enum {
    DB_NCARDS = 54,     /* distinct cards: rank * 4 + suit, then the jokers */
    DB_COPIES = 3,      /* three packs: up to three identical cards */
    DB_DECK = 162,
    DB_SEATS = 4,
    DB_HAND = 39,
    DB_KITTY = 6,
    DB_BJ = 52,         /* small joker */
    DB_RJ = 53,         /* big joker */
    /* Ranks 3456789TJQKA2 = 0..12. */
    DB_R3 = 0, DB_R5 = 2, DB_RT = 7, DB_RK = 10, DB_RA = 11, DB_R2 = 12,
    /* Suits S H C D = 0..3; following treats all trumps as one suit. */
    DB_TRUMP = 4,
    DB_NSUITS = 5,
    DB_MAX_PLAY = 3,    /* a triple */
    /* Redeals of one deal before its fallback (DB-47). */
    DB_MAX_REDEALS = 8,
    /* Levels: 3..10 are rank indices 0..7; passing 10 is 8 (DB-62). */
    DB_LEVEL_MAX = DB_RT,
    DB_LEVEL_PASSED = DB_RT + 1,
};

static inline int db_rank(int c) { return c / 4; }   /* 13 for both jokers */
static inline int db_suit(int c) { return c < DB_BJ ? c % 4 : -1; }
static inline bool db_joker(int c) { return c >= DB_BJ; }
/* DB-4: 5 = 5, T and K = 10. */
static inline int db_card_points(int c)
{
    int r = db_rank(c);
    return r == DB_R5 ? 5 : (r == DB_RT || r == DB_RK) ? 10 : 0;
}

/* A multiset of cards: how many of each of the 54 distinct cards (0..3). */
typedef struct db_hand {
    uint8_t n[DB_NCARDS];
    uint8_t total;
} db_hand;

/* A play: 1..3 cards, ascending card ids. */
typedef struct db_play {
    uint8_t n;
    uint8_t c[DB_MAX_PLAY];
} db_play;

typedef enum db_shape { DB_SINGLE, DB_PAIR, DB_TRIPLE, DB_MIXED } db_shape;

/* Parse cards ("5H5HKS", "bjrj": any order and case, no separator)
 * into counts added to *h (which the caller zeroes); at most `max` cards
 * and DB_COPIES of each. 0, or ARB_EPARSE with the reason and the column. */
int db_parse_cards(const char *text, int max, db_hand *h, char *err, size_t errlen);
/* One card ("5H", "RJ") at *s; advances *s. The card id, or -1. */
int db_parse_card(const char **s);
/* Cards in the canonical order (card id ascending, identical cards
 * repeated): "3S3S5HKSBJ". Characters written (without the NUL), or -1
 * when it does not fit. "" for no cards. */
int db_format_hand(const db_hand *h, char *buf, size_t len);
int db_format_play(const db_play *p, char *buf, size_t len);
int db_format_card(int c, char *buf, size_t len);
/* A play from counts (1..3 cards); ARB_EINVAL otherwise. */
int db_play_from_hand(const db_hand *h, db_play *p);
void db_play_to_hand(const db_play *p, db_hand *h);
int db_hand_points(const db_hand *h);
int db_play_points(const db_play *p);
/* The play's shape: identical cards make a pair or triple; else mixed. */
db_shape db_play_shape(const db_play *p);

/* The 2-bit-per-card packing of game.h's arb_action.cards: card c has
 * its count in bits 2(c mod 32).. of word c / 32. */
void db_pack(const db_hand *h, uint64_t out[2]);
int  db_unpack(const uint64_t in[2], db_hand *h);   /* ARB_EINVAL: a count of 3+ overflowing */

/* ---- Trumps (DB-10..DB-12) ------------------------------------------------ */

/* What a deal's level rank and trump suit make of every card: its power
 * (DB-11; equal powers are equal cards for winning) and its suit for
 * following (DB-12), and each suit's cards by ascending power. */
typedef struct db_trump {
    uint8_t level;                      /* rank 0..7 (3..T) */
    uint8_t suit;                       /* 0..3 */
    uint8_t power[DB_NCARDS];
    uint8_t fsuit[DB_NCARDS];           /* 0..3, DB_TRUMP */
    uint8_t nmember[DB_NSUITS];
    uint8_t member[DB_NSUITS][24];      /* the suit's cards, ascending power */
} db_trump;

void db_trump_init(db_trump *t, int level, int suit);
static inline bool db_is_trump(const db_trump *t, int c) { return t->fsuit[c] == DB_TRUMP; }
/* Parse "level=5,trump=H" style values: a level rank in 3456789T, a suit
 * in SHCD (case-insensitive); -1 when not one. */
int db_level_parse(const char *s);
int db_suit_parse(const char *s);

/* ---- Plays and tricks (DB-20..DB-29) ---------------------------------- */

/* The number of distinct plays a hand can have for one lead or follow:
 * three cards chosen from up to 39 distinct cards, with repeats. */
enum { DB_MAX_PLAYS = 12000 };

/* Every distinct legal lead (DB-20): singles, identical pairs and
 * triples. Count, or ARB_ENOSPC when cap is too small. */
int db_leads(const db_trump *t, const db_hand *h, db_play *out, int cap);
/* Every distinct legal follow to `led` (DB-21..DB-24). */
int db_follows(const db_trump *t, const db_hand *h, const db_play *led, db_play *out, int cap);
/* Check a lead or a follow (led NULL: a lead). 0, or ARB_EILLEGAL with
 * the rule broken in why. */
int db_check_play(const db_trump *t, const db_hand *h, const db_play *led, const db_play *p, char *why,
                  size_t whylen);
/* Does `p` beat the trick's current winner `w` (DB-25..DB-27)? */
bool db_beats(const db_trump *t, const db_play *p, const db_play *w);
/* The index of the winning play among the n plays of a trick, plays[0]
 * the lead. */
int db_trick_winner(const db_trump *t, const db_play *plays, int n);
/* A legal follow chosen at random without listing them all (self-play,
 * benchmarks): every legal follow may come out, not uniformly. */
void db_random_follow(const db_trump *t, const db_hand *h, const db_play *led, arb_rng *rng, db_play *out);
void db_random_lead(const db_trump *t, const db_hand *h, arb_rng *rng, db_play *out);

/* ---- Rules and options (DB-80) ------------------------------------------ */

typedef struct db_rules {
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
} db_rules;

int db_rules_preset(db_rules *r, const char *preset);    /* "standard", "short" */
int db_rules_set(db_rules *r, const char *key, const char *value, char *err, size_t errlen);
int db_rules_check(const db_rules *r, char *err, size_t errlen);
size_t db_rules_describe(const db_rules *r, char *buf, size_t len);
const char *const *db_presets(void);

/* ---- A deal (DB-2, DB-40..DB-64) ----------------------------------------- */

/* Decisions (game.h numbers a game's own from ARB_DEC_GAME). */
enum {
    DB_DEC_DECLARE = 2,     /* show level cards or jokers, or pass (DB-42..DB-48) */
    DB_DEC_TRIBUTE = 3,     /* give the 打家 a card (DB-52) */
    DB_DEC_RETURN = 4,      /* give a card back (DB-53) */
    DB_DEC_BURY = 5,        /* the 打家 buries one kitty card (DB-57) */
    DB_DEC_JOKER = 6,       /* bury a joker, or pass (DB-59) */
    DB_DEC_TAKE = 7,        /* which of the kitty's equal smallest cards to take back (DB-59) */
    /* plays: ARB_DEC_PLAY (1) */
};

typedef enum db_phase {
    DB_PH_DRAW,       /* drawing; the drawer may be asked to declare */
    DB_PH_CLOSE,      /* the closing round of declaring */
    DB_PH_TRIBUTE,
    DB_PH_RETURN,
    DB_PH_BURY,
    DB_PH_JOKERS,     /* the others bury jokers */
    DB_PH_TAKE,       /* one of them chooses the card taken back */
    DB_PH_TRICKS,
    DB_PH_OVER,
} db_phase;

/* A declaration: how strong and which suit (DB-45). Kinds ascend in
 * strength; count 1..3 for level cards. */
enum { DB_DECL_NONE, DB_DECL_LEVEL, DB_DECL_BJ3, DB_DECL_RJ3, DB_DECL_BIGJOKER /* first deal */ };

/* One declaring option, as an action's value: kind, count and suit. */
typedef struct db_decl {
    int8_t kind;      /* DB_DECL_*; NONE: pass */
    int8_t count;     /* level cards shown (1..3), 3 for jokers, 1 for the big joker */
    int8_t suit;      /* named suit; -1 while the first deal's big joker waits for one */
} db_decl;

/* What the match tells a deal before anyone sees it (deal_setup). */
typedef struct db_context {
    bool    first;            /* the match's first deal (DB-42, DB-43) */
    int8_t  dajia;            /* seat of the 打家 (later deals) */
    uint8_t level[2];         /* per team (seat % 2): rank 0..7 */
    uint8_t blood;            /* owed to the 打家 (DB-50, DB-51) */
} db_context;

/* How a finished deal came out (DB-30..DB-32, DB-60..DB-64). */
typedef struct db_outcome {
    int16_t points;           /* the attackers', kitty included */
    int16_t kitty_points;     /* points buried in the kitty */
    bool    dug;              /* the attackers won the last trick */
    int8_t  kase;             /* DB-32 case 1..4 */
    int8_t  rise_team;        /* the team going up, -1 none */
    int8_t  rise;             /* levels */
    int8_t  next_dajia;       /* seat */
    uint8_t blood_next;       /* owed to the next 打家 */
    int8_t  winner;           /* team that won the match outright, -1 */
    uint8_t level_after[2];   /* per team, DB_LEVEL_PASSED once passed */
} db_outcome;

typedef struct db_state {
    db_rules rules;
    db_context ctx;
    uint64_t seed;
    uint8_t redeals;
    uint8_t deck[DB_DECK];      /* the shuffle: DB-2 */
    bool    ordered;            /* the first shuffle is `order` (db_deal_ordered) */
    uint8_t order[DB_DECK];     /* a deal set's first shuffle, when ordered */
    db_phase phase;
    int8_t to_act;
    uint8_t first_drawer;
    uint8_t drawn;              /* cards drawn so far (0..156) */
    db_hand hand[DB_SEATS];
    db_hand dealt[DB_SEATS];    /* after drawing, before tribute and the kitty */
    db_hand kitty;              /* the six kitty cards */
    uint8_t kitty_orig[DB_KITTY];
    /* Declaring */
    int8_t dajia;               /* seat, -1 before known (first deal) */
    db_decl decl;               /* the standing declaration */
    int8_t decl_seat;
    bool    trump_pending;      /* first deal: the big joker waits for a suited draw */
    uint32_t offered[DB_SEATS]; /* declaring options offered since the last declaration (DB-48) */
    uint8_t evaluated;          /* seats whose options were computed since the last declaration */
    uint8_t close_passes;       /* consecutive passes in the closing round */
    int8_t  flips[4];           /* DB-43: the flipped kitty cards, -1 none */
    int8_t  trump_from;         /* how trumps came: 0 declared, 1 flip, 2 kitty draw */
    db_trump trump;
    bool    trump_known;
    uint8_t level;              /* the deal's level rank */
    /* Tribute and the kitty */
    uint8_t blood_left;
    uint8_t returns_left;
    uint8_t tribute_given[DB_HAND];
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
    db_play trick[DB_SEATS];    /* by playing order */
    int8_t winner_idx;
    uint8_t tricks_done;
    int16_t points[2];          /* per team, from tricks */
    int8_t last_winner;         /* seat that won the last finished trick */
    db_play last_trick[DB_SEATS];
    int8_t last_leader;
    db_outcome out;
} db_state;

static inline int db_team(int seat) { return seat % 2; }

/* A deal from a seed, with the context of a match's first deal; then
 * db_setup for a later one. Both run the deal up to its first decision. */
int  db_deal(db_state *s, const db_rules *r, uint64_t seed);
/* db_deal with the first shuffle given (a deal set: docs/evaluation.md):
 * `order` is the DB_DECK cards (0..53, each DB_COPIES times) in drawing
 * order, kept in the state so that db_setup deals it again; the first
 * drawer, the kitty draw and a redeal's shuffle (DB-47) still come from
 * the seed. ARB_EINVAL when order is not the deck. */
int  db_deal_ordered(db_state *s, const db_rules *r, uint64_t seed, const uint8_t *order, size_t n);
int  db_setup(db_state *s, const db_context *ctx);
/* db_deal then db_setup in one step: the deal is run once. */
int  db_deal_in(db_state *s, const db_rules *r, uint64_t seed, const db_context *ctx);
/* Run the deal forward to its next decision, as db_deal, db_setup and
 * every db_do_* do: for a state filled in by hand at one step of the deal
 * (a position to study, a rule test), which then stops exactly where the
 * engine would — the seat asked, or the steps nobody decides done. */
void db_advance(db_state *s);
int  db_to_act(const db_state *s);
int  db_decision(const db_state *s);
/* Legal actions as plays or declarations: see db_game.c for the packing. */
/* Declaring options for seat p now: a bitmask (DB-45; bit = db_decl_bit). */
uint32_t db_declare_options(const db_state *s, int p);
int  db_decl_bit(const db_decl *d);
void db_decl_of_bit(int bit, db_decl *d);
/* Apply a decision of the seat to act. Each returns 0 or ARB_EILLEGAL
 * (with the rule in why). */
int db_do_declare(db_state *s, const db_decl *d, char *why, size_t whylen);
int db_do_card(db_state *s, int card, char *why, size_t whylen);   /* tribute, return, bury, take back */
/* DB-59: bury a joker (-1: pass); the kitty is then shown and the
 * smallest eligible card taken back at once, or, among equals, by a
 * DB_DEC_TAKE decision (db_do_card). */
int db_do_joker(db_state *s, int joker, char *why, size_t whylen);
int db_do_play(db_state *s, const db_play *p, char *why, size_t whylen);
/* The cards a decision may take: tribute (the highest non-point cards),
 * return and bury (any card held), take back (the kitty's smallest
 * eligible cards, equals all listed), as a hand of candidates. */
void db_card_options(const db_state *s, db_hand *out);
/* DB-59: the joker the seat to act may bury now (none when he may not). */
void db_joker_options(const db_state *s, db_hand *jokers);

/* One decision for the seat to act, chosen at random among its options
 * (plays: db_random_lead / db_random_follow): self-play and benchmarks. */
int db_random_act(db_state *s, arb_rng *rng, char *why, size_t whylen);

/* ---- The match (DB-70..DB-73) -------------------------------------------- */

typedef struct db_match {
    db_rules rules;
    uint32_t limit;
    uint32_t played;
    uint8_t level[2];          /* per team of players (player % 2) */
    int8_t  stage_team;        /* the declaring team of the next deal; -1 before the first */
    int8_t  dajia_player;      /* the next 打家 (a player), -1 first deal */
    uint8_t blood;
    int8_t  winner;            /* -1 while undecided */
    bool    passed[2];         /* the team played through the goal level (DB-62) */
} db_match;

void db_match_init(db_match *m, const db_rules *r, uint32_t deal_limit);
/* The context of the next deal, its seats given by player_at. */
void db_match_context(const db_match *m, const uint8_t *player_at, db_context *ctx);
/* Fold a deal in: played (s over), or forfeited by forfeit_seat. */
void db_match_fold(db_match *m, const db_state *s, const uint8_t *player_at, int forfeit_seat);
bool db_match_over(const db_match *m);
/* The winning team (by player % 2), -1 while the match goes on (DB-71). */
int  db_match_winner(const db_match *m);

#endif
