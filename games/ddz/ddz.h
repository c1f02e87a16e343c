/* ddz.h — the Dou Dizhu rules engine (three players one pack, four players two
 * packs): cards, plays, classification, legal-move enumeration, landlord
 * selection, play and scoring. Pure: no I/O, no clock, no allocation, no
 * global state. The rules it implements are docs/rules/doudizhu.md; rule ids
 * (DDZ-n) in comments point there. */
#ifndef DDZ_H
#define DDZ_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Ranks and card sets ------------------------------------------------ */

/* Rank indices, low to high: 3 4 5 6 7 8 9 T J Q K A 2, then the small (B)
 * and big (R) jokers. Chains may use ranks DDZ_R3..DDZ_RA only. */
enum {
    DDZ_R3 = 0, DDZ_RT = 7, DDZ_RA = 11, DDZ_R2 = 12,
    DDZ_RB = 13, DDZ_RR = 14, DDZ_NRANKS = 15,
};

/* A multiset of cards: four bits of count per rank (rank r in bits 4r..4r+3).
 * Counts go up to 8 (two packs), so adding or subtracting two sets that fit
 * a hand is one integer operation, and a set is compared or hashed as one
 * word. Suits never matter in Dou Dizhu, so they are not represented here
 * (the deal keeps card identities; see ddz_state.deck). */
typedef uint64_t ddz_cards;

#define DDZ_ONE(r) ((ddz_cards)1 << (4 * (r)))

static inline unsigned ddz_count(ddz_cards c, int r) { return (unsigned)(c >> (4 * r)) & 15u; }

/* Number of cards in a set. */
static inline unsigned ddz_total(ddz_cards c)
{
    uint64_t b = (c & 0x0f0f0f0f0f0f0f0fULL) + ((c >> 4) & 0x0f0f0f0f0f0f0f0fULL);
    return (unsigned)((b * 0x0101010101010101ULL) >> 56);
}

/* True when every count of `sub` is at most the count in `set`. */
bool ddz_subset(ddz_cards sub, ddz_cards set);

/* ---- Plays --------------------------------------------------------------- */

typedef enum ddz_kind {
    DDZ_PASS = 0,
    DDZ_SOLO,            /* 1 card */
    DDZ_PAIR,            /* 2 of a rank; in two packs also any two jokers (DDZ-24) */
    DDZ_TRIO,            /* 3 of a rank */
    DDZ_TRIO_SOLO,       /* trio + 1 card */
    DDZ_TRIO_PAIR,       /* trio + pair */
    DDZ_CHAIN,           /* >= 5 consecutive singles */
    DDZ_PAIR_CHAIN,      /* >= 3 consecutive pairs */
    DDZ_AIRPLANE,        /* >= 2 consecutive trios */
    DDZ_AIRPLANE_SOLO,   /* n trios + n solo kickers */
    DDZ_AIRPLANE_PAIR,   /* n trios + n pair kickers */
    DDZ_FOUR_TWO_SOLO,   /* four + 2 solo kickers (not a bomb) */
    DDZ_FOUR_TWO_PAIR,   /* four + 2 pair kickers */
    DDZ_SHUTTLE,         /* >= 2 consecutive fours (space shuttle, off by default) */
    DDZ_SHUTTLE_SOLO,    /* n fours + 2n solos */
    DDZ_SHUTTLE_PAIR,    /* n fours + 2n pairs */
    DDZ_BOMB,            /* n of a kind (4..8), or the small-three bomb 222+joker */
    DDZ_ROCKET,          /* the joker bomb: B+R with one pack, B+B+R+R with two */
    DDZ_NKINDS
} ddz_kind;

/* One reading of a play. `rank` is the comparison key of the primary part:
 * the lowest rank of a chain or trio/four group; for a pair of jokers in two
 * packs 13 (BB), 14 (BR) or 15 (RR); for a bomb its power (DDZ-30). `len` is
 * the number of units in the primary part (chain length, trios of an
 * airplane, fours of a shuttle; 1 otherwise; the size of an n-of-a-kind
 * bomb). Two readings of the same kind and len compare by rank alone. */
typedef struct ddz_move {
    ddz_cards cards;     /* the cards played */
    uint8_t   kind;
    uint8_t   rank;
    uint8_t   len;
    uint8_t   ncards;
    /* Wild cards (DDZ-80..): the ranks the play's wild cards stand for, in
     * ascending order, one nibble each (rank + 1), low nibble first; 0 when
     * the play holds no wild card. The reading is that of the represented
     * cards (ddz_move_represented). */
    uint32_t  subst;
} ddz_move;

/* ---- Rules ------------------------------------------------------------- */

typedef enum ddz_bidding {
    DDZ_BID_SCORE = 0,   /* 叫分: bid 1..max_bid (DDZ-40..) */
    DDZ_BID_CALL_ROB,    /* 叫地主/抢地主 (DDZ-50..) */
    DDZ_BID_FIXED,       /* no auction: a fixed landlord seat (research) */
} ddz_bidding;

typedef enum ddz_first_bidder {
    DDZ_FIRST_RANDOM = 0, /* a seat drawn from the deal's seed */
    DDZ_FIRST_FACEUP,     /* holder of a card turned face up during the deal */
    DDZ_FIRST_HEART3,     /* holder of 3♥, else 4♥, ... if it lies in the kitty */
} ddz_first_bidder;

typedef enum ddz_rob_stake {
    DDZ_ROB_FROM1 = 0,   /* stake 1 on the call, x2 per rob (seed 001) */
    DDZ_ROB_FROM3,       /* stake 3 on the call, x2 per rob (seed 000) */
} ddz_rob_stake;

typedef enum ddz_exhausted {
    DDZ_EXHAUST_FORCE = 0, /* first bidder becomes landlord at the lowest stake */
    DDZ_EXHAUST_VOID,      /* the deal is void: it scores 0 for everybody */
} ddz_exhausted;

/* What a claim of the four jokers does (DDZ-95, DDZ-96). */
typedef enum ddz_claim_mode {
    DDZ_CLAIM_WIN = 0,    /* the claim wins the deal at once (DDZ-95) */
    DDZ_CLAIM_SEPARATE,   /* the claim counts the joker bomb; the jokers play on apart (DDZ-96) */
} ddz_claim_mode;

/* How a played set of cards is read for the next player (DDZ-16). */
typedef enum ddz_compare {
    DDZ_COMPARE_STANDARD = 0, /* leads: best reading; follows: strongest beating reading */
    DDZ_COMPARE_DOUZERO,      /* DouZero's move detector and selector, quirks included */
} ddz_compare;

/* Per-kind switch and length bounds (in units: cards of a chain, pairs of a
 * pair chain, trios of an airplane, fours of a shuttle). A chain
 * kind's lengths start at DDZ_MIN_CHAIN_UNITS: one unit is another kind. */
#define DDZ_MIN_CHAIN_UNITS 2
typedef struct ddz_kind_rule {
    bool    on;
    uint8_t min_len;
    uint8_t max_len;
} ddz_kind_rule;

/* Everything that varies between rule sets. A plain value; build it with
 * ddz_rules_preset() and adjust with ddz_rules_set(). */
typedef struct ddz_rules {
    char    preset[16];      /* name of the preset it started from */
    uint8_t players;         /* 3 or 4 */
    uint8_t packs;           /* 1 or 2 */
    uint8_t hand_size;       /* 17 or 25 */
    uint8_t kitty_size;      /* 3 or 8 */
    ddz_kind_rule kind[DDZ_NKINDS];

    /* Kicker switches (DDZ-20..29): true = allowed. */
    bool kicker_same_rank;   /* a kicker of the same rank as a primary card */
    bool airplane_solo_repeat; /* airplane solo kickers may repeat a rank (33344455) */
    bool four_solo_pair;     /* four + two solos may be a pair (JJJJ77) */
    bool pair_kickers_same;  /* two pair kickers may share a rank (3333+4444) */
    bool kicker_both_jokers; /* one pack: B and R together among kickers (5555BR) */
    bool kicker_bomb;        /* kickers containing n-of-a-kind >= 4 (or BBRR) */
    bool kicker_trio_adjacent; /* solo kickers forming a trio next to the airplane */
    bool joker_pair;         /* two packs: any two jokers are a pair */
    bool joker_pair_kicker;  /* ... and may be a pair kicker */
    bool split_bomb;         /* a play may use part of a held bomb (or rocket) */
    bool small_three_bomb;   /* 222 + a joker is the lowest bomb */
    uint8_t compare;         /* ddz_compare: how plays are read and compared */

    /* Landlord selection (DDZ-40..59). */
    uint8_t bidding;         /* ddz_bidding */
    uint8_t first_bidder;    /* ddz_first_bidder */
    bool    bid_continue;    /* score bidding goes on until the others pass */
    uint8_t max_bid;         /* highest score bid (3) */
    uint8_t rob_stake;       /* ddz_rob_stake */
    uint8_t fixed_landlord;  /* seat for DDZ_BID_FIXED */
    uint8_t redeal_limit;    /* redeals before `exhausted` applies */
    uint8_t exhausted;       /* ddz_exhausted */

    /* Scoring (DDZ-60..79). */
    uint32_t base_stake;     /* points per unit of deal value */
    uint8_t  bomb_mult;      /* per bomb or rocket played (2) */
    uint8_t  spring_mult;    /* spring and anti-spring (2 or 3); 1 = off */
    uint8_t  show_mult;      /* landlord may show the hand: multiplier; 0 = off */
    bool     doubling;       /* each player may double before play */
    bool     four_jokers_claim; /* two packs: landlord with BBRR may claim the deal */
    uint8_t  claim_mode;     /* ddz_claim_mode: what the claim does */
    uint8_t  wild;           /* wild ranks (赖子): 0, 1 (drawn after the landlord), 2 (one before bidding too) */
    uint16_t wild_ranks;     /* bit x: rank x named wild for every deal (DDZ-84); 0 = drawn */
} ddz_rules;

/* Fill `r` with a named preset: "standard", "rlcard", "douzero",
 * "four-player". Returns 0 or ARB_ENOTFOUND. */
int ddz_rules_preset(ddz_rules *r, const char *name);
/* Set one option by name ("kicker_bomb", "bidding", "chain.min", ...) from
 * text. On error returns ARB_ENOTFOUND/ARB_EINVAL/ARB_ERANGE and writes a
 * message into err. ddz_rules_options() lists the names. */
int ddz_rules_set(ddz_rules *r, const char *key, const char *value, char *err, size_t errlen);
/* Apply "key=value,key=value" (also space separated). */
int ddz_rules_set_list(ddz_rules *r, const char *list, char *err, size_t errlen);
/* Check the rules for consistency (players/packs, lengths). */
int ddz_rules_check(const ddz_rules *r, char *err, size_t errlen);
/* Print every option as "key=value" lines into buf; returns bytes needed. */
size_t ddz_rules_describe(const ddz_rules *r, char *buf, size_t len);
/* Null-terminated list of option names. */
const char *const *ddz_rules_options(void);
/* Null-terminated list of preset names. */
const char *const *ddz_rules_presets(void);

/* ---- Notation (docs/rules/notation.md) ---------------------------------- */

/* Rank letters "3456789TJQKA2BR"; lowercase and "10" accepted on input. */
extern const char ddz_rank_chars[DDZ_NRANKS + 1];

/* Parse a set of cards ("333444BR"; "pass" or "" is the empty set is NOT
 * accepted here). Counts are checked against the rules' packs. */
int ddz_cards_parse(const ddz_rules *r, const char *text, ddz_cards *out);
/* Print in ascending rank order; returns the length (buf NUL-terminated). */
int ddz_cards_format(ddz_cards c, char *buf, size_t len);
/* Kind names ("airplane_solo") and their parse. */
const char *ddz_kind_name(ddz_kind k);
int ddz_kind_parse(const char *name, ddz_kind *out);

/* Parse a play: "pass", "333444+56" (a '+' names the reading: primary part,
 * then kickers), or "33344456". Sets *cards and *primary (equal to *cards
 * when no '+' was written, 0 for pass). */
int ddz_play_parse(const ddz_rules *r, const char *text, ddz_cards *cards, ddz_cards *primary);
/* Print a move: plain ascending ranks, or "pass". */
int ddz_move_format(const ddz_move *m, char *buf, size_t len);
/* Print a move with its reading: "333444+56" when it has kickers. */
int ddz_move_format_reading(const ddz_move *m, char *buf, size_t len);
/* The primary cards of a reading (cards minus kickers). */
ddz_cards ddz_move_primary(const ddz_move *m);

/* ---- Classification and enumeration (ddz_moves.c) ----------------------- */

/* Every reading of `cards` under the rules, best lead reading first (DDZ-15):
 * the most cards in the primary part, then the highest rank. Returns the
 * number of readings (0: not a legal play) or a negative error. */
int ddz_classify(const ddz_rules *r, ddz_cards cards, ddz_move *out, size_t cap);

/* True when `m` beats `prev` (prev is a non-pass reading). */
bool ddz_beats(const ddz_move *m, const ddz_move *prev);

/* Every legal lead from `hand`, one entry per distinct set of cards carrying
 * its default reading. Returns the count or ARB_ENOSPC. */
int ddz_leads(const ddz_rules *r, ddz_cards hand, ddz_move *out, size_t cap);

/* Every legal follow to `prev` from `hand`: one entry per distinct set of
 * cards, carrying its strongest reading that beats prev, then a final pass.
 * Returns the count (>= 1) or ARB_ENOSPC. */
int ddz_follows(const ddz_rules *r, ddz_cards hand, const ddz_move *prev, ddz_move *out, size_t cap);

/* Validate a play: `cards` from `hand`, optionally restricted to readings
 * whose primary part equals `primary` (0: any). `prev` is NULL for a lead.
 * On success fills *chosen with the reading that counts (the default lead
 * reading, or the strongest reading that beats prev) and returns 0; else
 * returns ARB_EILLEGAL with a reason in why. A pass is cards == 0. */
int ddz_validate(const ddz_rules *r, ddz_cards hand, const ddz_move *prev,
                 ddz_cards cards, ddz_cards primary, ddz_move *chosen,
                 char *why, size_t whylen);

/* ---- Wild cards (ddz_wild.c; DDZ-80..89) ----------------------------- */

/* The cards a play stands for: its natural cards plus the ranks its wild
 * cards represent. Equal to m->cards when m->subst is 0. */
ddz_cards ddz_move_represented(const ddz_move *m, uint16_t wild_ranks);
/* Leads, follows and validation in a game with wild ranks; with
 * wild_ranks == 0 they are exactly ddz_leads, ddz_follows, ddz_validate.
 * Each distinct set of cards played appears once, with the best (lead) or
 * strongest beating (follow) reading over every way its wild cards can be
 * read. `represented` names what the wild cards stand for (0 = any). */
int ddz_leads_w(const ddz_rules *r, uint16_t wild_ranks, ddz_cards hand, ddz_move *out, size_t cap);
int ddz_follows_w(const ddz_rules *r, uint16_t wild_ranks, ddz_cards hand, const ddz_move *prev,
                  ddz_move *out, size_t cap);
int ddz_validate_w(const ddz_rules *r, uint16_t wild_ranks, ddz_cards hand, const ddz_move *prev,
                   ddz_cards cards, ddz_cards represented, ddz_cards primary, ddz_move *chosen,
                   char *why, size_t whylen);
/* Print "ACTUAL=REPRESENTED" with the reading ("3377=333+7") for a play with
 * wild cards, else as ddz_move_format_reading. */
int ddz_move_format_w(const ddz_move *m, uint16_t wild_ranks, char *buf, size_t len);
/* Parse "ACTUAL" or "ACTUAL=REPRESENTED" (the represented part may name its
 * reading with '+'). *represented is 0 when not given. */
int ddz_play_parse_w(const ddz_rules *r, const char *text, ddz_cards *cards,
                     ddz_cards *represented, ddz_cards *primary);

/* ---- A deal (ddz_deal.c) ------------------------------------------------ */

typedef enum ddz_phase {
    DDZ_PHASE_BID = 0,   /* score bidding: value 0 (pass) or 1..max_bid */
    DDZ_PHASE_CALL,      /* call the landlord: value 0/1 */
    DDZ_PHASE_ROB,       /* rob the landlord: value 0/1 */
    DDZ_PHASE_DOUBLE,    /* double: value 0/1 */
    DDZ_PHASE_SHOW,      /* landlord shows the hand: value 0/1 */
    DDZ_PHASE_CLAIM,     /* landlord with four jokers claims the deal: 0/1 */
    DDZ_PHASE_PLAY,      /* a play or pass */
    DDZ_PHASE_OVER,
} ddz_phase;

/* Dou Dizhu's own decisions in the generic interface (game.h: a game
 * numbers its decisions from ARB_DEC_GAME = 2; plays are ARB_DEC_PLAY = 1).
 * Each value decision is 0 (pass) or 1..max: a bid, or yes. */
enum {
    DDZ_DEC_BID = 2, DDZ_DEC_CALL, DDZ_DEC_ROB, DDZ_DEC_DOUBLE, DDZ_DEC_SHOW, DDZ_DEC_CLAIM,
    DDZ_DEC_END
};

/* One decision: for PLAY phases `move` is the play (kind DDZ_PASS to pass),
 * for every other phase `value`. */
typedef struct ddz_action {
    uint8_t   phase;
    int8_t    value;
    ddz_move  move;
    ddz_cards primary;  /* a play's named primary part; 0 = default reading */
    ddz_cards represented; /* wild games: the cards the play stands for; 0 = any */
} ddz_action;

/* Redeals after everybody declines the landlord: a hard ceiling on the rules
 * option, so a table of always-passing bots cannot loop forever. */
#define DDZ_MAX_REDEALS 100

#define DDZ_MAX_SEATS 4
#define DDZ_MAX_CARDS 108
#define DDZ_NONE 0xff

/* The whole state of a deal. A plain value: copy it to search ahead. Hidden
 * information (other hands, the kitty before it is shown) is in here; what a
 * seat may see is what the referee sends it, never this struct. */
typedef struct ddz_state {
    const ddz_rules *rules;  /* not owned; must outlive the state */
    uint64_t seed;           /* the deal's seed */
    uint8_t  nseats;
    uint8_t  phase;          /* ddz_phase */
    uint8_t  to_act;         /* seat asked for the next decision */
    uint8_t  first_bidder;
    uint8_t  landlord;       /* DDZ_NONE until known */
    uint8_t  redeals;        /* redeals so far in this deal */
    bool     voided;         /* ended void (DDZ_EXHAUST_VOID) */
    bool     shown;          /* the landlord showed the hand */
    uint8_t  faceup_card;    /* card id turned up (DDZ_FIRST_FACEUP), else DDZ_NONE */
    uint16_t wild_ranks;     /* bit x: rank x is wild (DDZ-80), 0 without wild cards */
    uint8_t  deck[DDZ_MAX_CARDS]; /* card ids in dealing order (see ddz_card_id) */
    ddz_cards dealt[DDZ_MAX_SEATS]; /* hands as dealt, before the kitty */
    ddz_cards hand[DDZ_MAX_SEATS];  /* cards in hand now */
    ddz_cards kitty;

    /* Auction. */
    uint8_t  bid;            /* highest score bid so far, 0 = none */
    uint8_t  high_bidder;    /* DDZ_NONE when nobody bid or called */
    uint8_t  turns;          /* decisions taken in the current auction phase */
    uint8_t  passes;         /* consecutive passes in the auction */
    uint8_t  robs;           /* robs made */
    uint8_t  caller;         /* seat that called (call-and-rob) */
    uint8_t  doubled[DDZ_MAX_SEATS];

    /* Play. */
    ddz_move last;           /* last non-pass play of the current round */
    uint8_t  last_seat;      /* who made it (DDZ_NONE at the start of a round) */
    uint8_t  round_passes;   /* consecutive passes since last */
    uint8_t  bombs;          /* bombs and rockets played (or claimed) */
    bool     jokers_claimed; /* the landlord claimed the four jokers and plays on (DDZ-96) */
    uint8_t  winner;         /* seat that went out, DDZ_NONE before */
    uint16_t plays[DDZ_MAX_SEATS]; /* non-pass plays per seat */
    uint32_t decisions;      /* decisions applied so far */
} ddz_state;

/* Card ids: one pack is 0..53 (rank*4 + suit for ranks 3..2 with suits
 * S,H,C,D = 0..3, then 52 = B and 53 = R); the second pack adds 54. */
static inline int ddz_card_rank(uint8_t id) { id %= 54; return id < 52 ? id / 4 : (id == 52 ? DDZ_RB : DDZ_RR); }

/* Start a deal from a seed: shuffle, deal, choose the first bidder, enter the
 * first phase. Every random choice comes from the seed (docs/rng.md). */
int ddz_deal_init(ddz_state *s, const ddz_rules *r, uint64_t seed);
/* The same with the shuffle given: `order` is the n = 54*packs card ids in
 * dealing order (a permutation); every other random choice (the first
 * bidder, the face-up card, wild ranks, a redeal's shuffle) still comes
 * from the seed. ARB_EINVAL when order is not a permutation of the deck. */
int ddz_deal_ordered(ddz_state *s, const ddz_rules *r, uint64_t seed, const uint8_t *order, size_t n);
/* Legal values for a value phase (BID: 0 and every bid above the current
 * one; CALL/ROB/DOUBLE/SHOW/CLAIM: 0 and 1), into vals (room for 16).
 * Returns the count, 0 in the PLAY phase or at the end. */
int ddz_values(const ddz_state *s, int8_t *vals, size_t cap);
/* Legal plays in the PLAY phase (ddz_leads_w or ddz_follows_w for the seat
 * to act; after a claim under claim_mode=separate the landlord's jokers may
 * be split whatever split_bomb says, DDZ-96). Returns the count, ARB_ESTATE
 * outside the PLAY phase. */
int ddz_plays(const ddz_state *s, ddz_move *out, size_t cap);
/* The play the seat to act must beat, or NULL when it leads. */
const ddz_move *ddz_to_beat(const ddz_state *s);
/* Check an action without applying it; reason into why on ARB_EILLEGAL. A
 * play is judged from move.cards alone (its kind/rank/len are ignored), with
 * the reading named by a->primary (0 = default). On success *fixed is the
 * action as it will be applied, with the reading that counts. */
int ddz_check(const ddz_state *s, const ddz_action *a, ddz_action *fixed,
              char *why, size_t whylen);
/* Apply a checked action (ddz_check's `fixed`). Returns 0 or ARB_EILLEGAL. */
int ddz_apply(ddz_state *s, const ddz_action *a);
/* Final scores per seat (sum zero); ARB_ESTATE before the end. */
int ddz_scores(const ddz_state *s, int64_t scores[DDZ_MAX_SEATS]);
/* The deal value before per-seat doubling (base x stake x bombs x spring x show). */
int64_t ddz_deal_value(const ddz_state *s);
/* Spring state at the end: 1 spring, -1 anti-spring, 0 neither. */
int ddz_spring(const ddz_state *s);
/* Stake from the auction (bid, or call-and-rob multiplier, or 1). */
int64_t ddz_stake(const ddz_state *s);

/* A callback that chooses one decision for the seat to act: in the PLAY
 * phase among `moves` (values is NULL), otherwise among `values` (moves is
 * NULL); n >= 1. Returns an index, or a negative error to abort. */
typedef int (*ddz_chooser)(const ddz_state *s, const ddz_move *moves, const int8_t *values,
                           int n, void *ctx);
/* Observer called after every applied action (may be NULL). */
typedef void (*ddz_observer)(const ddz_state *s, int seat, const ddz_action *a, void *ctx);

/* Run a whole deal: deal -> landlord selection -> play -> score, asking
 * `choose` for every decision. `buf` (capacity cap) is scratch for the
 * legal plays. Returns 0 and fills scores, or a negative error. */
int ddz_run_deal(ddz_state *s, const ddz_rules *r, uint64_t seed,
                 ddz_chooser choose, void *choose_ctx,
                 ddz_observer observe, void *observe_ctx,
                 ddz_move *buf, size_t cap, int64_t scores[DDZ_MAX_SEATS]);

const char *ddz_phase_name(ddz_phase p);

/* The game's table in the registry (games/game.c, game.h). */
extern const struct arb_game arb_game_doudizhu;

#endif
