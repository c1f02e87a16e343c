/* match_def.h — what a match is, shared by everyone who describes,
 * schedules, sends, plays or records one: the configuration (game, rules
 * preset and options, seeds and key, clocks, policy, the bots' argvs), the
 * result (per bot and per deal), the seatings of duplicate play, and the
 * names of policies and penalty reasons. The scheduler builds these, the
 * wire codec carries them, the referee's match core (match.h) plays them.
 * Nothing here runs a bot. */
#ifndef ARB_MATCH_DEF_H
#define ARB_MATCH_DEF_H
#include "game.h"
#include "arb_limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum match_policy {
    MATCH_AUTOPLAY = 0,      /* play for the bot, a strike each time */
    MATCH_FORFEIT_DEAL,      /* the offender loses the deal */
    MATCH_FORFEIT_MATCH,     /* the offender loses the match */
} match_policy;

typedef enum match_duplicate {
    MATCH_DUP_OFF = 0,       /* every deal new cards (seats rotate deal by deal unless fixed) */
    MATCH_DUP_ROTATE,        /* each deal's cards once per cyclic rotation of the seats */
    MATCH_DUP_ALL,           /* each deal's cards once per permutation of the seats */
    MATCH_DUP_SWAP,          /* two seatings: as drawn, then every bot one seat on
                                (a partnership game: the teams' seats swapped, NS <-> EW) */
    MATCH_DUP_COUNT
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
/* "off, rotate, all or swap", for messages. */
#define MATCH_DUPLICATE_NAMES "off, rotate, all or swap"


typedef struct match_bot_cfg {
    char name[ARB_MAX_BOT_NAME + 1];          /* the entrant's name (tables, transcript) */
    int  argc;
    char argv[ARB_MAX_BOT_ARGS][256];           /* argv[0] an absolute path */
    /* What the entrant declared beside its command (schemas/tournament.md:
     * startup_ms:, env:). Both are part of what a match is: they travel
     * to the referee, the transcript's header keeps them, a replay or a
     * rerun uses them. */
    int64_t startup_ms;                       /* its start-up budget, spent once per process; 0: the match's */
    int  nenv;                                /* variables in env */
    char env[ARB_MAX_BOT_ENV_TEXT];           /* "NAME=value\n" each, in the order declared
                                                 (match_env_add); given to every process of
                                                 it beside the referee's four */
} match_bot_cfg;


typedef struct match_config {
    const arb_game *game;
    char     preset[32];
    char     options[ARB_MAX_OPTIONS_TEXT];      /* "key=value" lines applied after the preset */
    uint64_t seed;                            /* the public label of the match (a tournament's:
                                                 arb_seeds_match_seed; arbiter match: --seed);
                                                 no deal, key or draw follows from it */
    /* Every deal and every bot's seed is derived from this key with keyed
     * BLAKE2b (docs/rng.md): the key is arb_key_derive(secret, key_label),
     * where the secret is the tournament's and only its SHA-256 (the
     * commitment) is public until the tournament is over. A bot sees
     * neither key nor secret, and nothing it sees lets it compute them. */
    uint8_t  key[32];
    char     key_label[ARB_MAX_KEY_LABEL];  /* what the key was derived under */
    char     commitment[65];                  /* SHA-256 of the secret, hex ("" unknown) */
    uint32_t deals;                           /* distinct deals (cards); for a game whose match
                                                 may end early (game.h), the most it lasts */
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
    /* A refused reply that answers the bot's previous request is said so in
     * its penalty note (a stray line on stdout puts every later reply one
     * request late). True for every match played now; replay sets it from
     * the transcript's version (false before version 3), so that an older
     * transcript's notes are judged as they were written. */
    bool     late_reply_notes;
} match_config;

/* Defaults: the game's default preset, 1 deal, duplicate off, 1000 ms per
 * move, no deal limit, 30 s bank, 5 s start-up, autoplay with 3 strikes,
 * the game's forfeit stake P (Dou Dizhu: standard, 6). game may be NULL
 * (a configuration about to be read): no preset, P = 0. */
void match_config_init(match_config *cfg, const arb_game *game);
/* The start-up budget of bot b's processes, in ns: its own (an
 * entrant's startup_ms), else the match's (cfg->startup_ms). */
uint64_t match_startup_ns(const match_config *cfg, int bot);

/* A bot's environment (docs/security.md, "A bot's environment"): beside
 * PATH, HOME, LANG and ARBITER_BOT, which the referee sets, the variables
 * its entrant declared. One is "NAME=value": NAME of [A-Z_][A-Z0-9_]*, at
 * most ARB_MAX_BOT_ENV_NAME characters, none of the referee's (PATH, HOME,
 * LANG, ARBITER_*) and none that changes how a program is loaded or how
 * the C library behaves before the bot's code runs (LD_*, LC_*, MALLOC_*,
 * GLIBC_*, GCONV_PATH, TMPDIR ...: bubblewrap, which builds the sandbox
 * with the referee's privileges, starts with the same environment);
 * value printable ASCII. 0, or ARB_EINVAL with the reason in err. */
int match_env_check(const char *entry, char *err, size_t errlen);
/* Add one checked entry to b->env: ARB_EINVAL (refused, or its name is
 * declared already), ARB_ETOOBIG (more than ARB_MAX_BOT_ENV, or past
 * ARB_MAX_BOT_ENV_TEXT bytes). Errors name the variable. */
int match_env_add(match_bot_cfg *b, const char *entry, char *err, size_t errlen);
/* Every line of text ("NAME=value" a line; "" none) added to b->env. */
int match_env_set(match_bot_cfg *b, const char *text, char *err, size_t errlen);

/* A game's rules from a preset (NULL or "": the game's default) and
 * "key=value" options separated by commas, blanks or newlines, checked:
 * into `rules` (g->rules_size bytes). Errors as text in err (an unknown
 * preset lists the game's presets). */
int match_rules_build(const arb_game *g, const char *preset, const char *options, void *rules, char *err,
                      size_t errlen);
/* Check the configuration and build the rules it names into `rules`
 * (game->rules_size bytes). Errors as text in err. */
int match_config_rules(const match_config *cfg, void *rules, char *err, size_t errlen);

typedef struct match_bot_stats {
    char     name[ARB_MAX_BOT_NAME + 1];
    char     hello[ARB_MAX_BOT_NAME + 1];     /* the name the bot gave itself */
    char     sandbox[16];
    int64_t  total;                           /* its match score, as the game counts it */
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

/* One table of a duplicate match of a game whose match may end early
 * (match_tables): a seating block played as a whole match of its own. */
typedef struct match_table {
    uint32_t first;                           /* index in match_result.deals of its first game */
    uint32_t games;                           /* games it played (its match may end before cfg->deals) */
    int8_t   winner_team;                     /* the team the game declared the winner, -1 none */
    int64_t  team_score[ARB_MAX_SEATS];       /* each team's standing at the table's end */
} match_table;

/* One penalty as the referee gave it (the transcript's penalty record). */
typedef struct match_penalty {
    uint32_t game;                            /* index in the match (0 for a handshake) */
    uint32_t decision;                        /* the game's decision number (0 for a handshake) */
    int8_t   seat;                            /* the bot's seat in the game, -1 at the handshake */
    uint8_t  bot;                             /* the bot's index in the match (the record's slot) */
    uint8_t  reason;                          /* match_reason */
    uint8_t  consequence;                     /* match_policy: what it cost */
    char     note[ARB_MAX_PENALTY_NOTE + 1];  /* the referee's words; may quote the bot (hostile) */
} match_penalty;

typedef struct match_result {
    int      nbots;
    match_bot_stats bots[ARB_MAX_SEATS];
    match_deal *deals;                        /* ndeals entries, owned, in the order played; a
                                                 table cut short leaves no gap (deals[i].game
                                                 is the game's index in the match) */
    uint32_t ndeals;
    uint32_t winners;                         /* bit b: bot b has the best total */
    /* Fixed teams (a partnership game): the game's standings per team.
     * nteams 0: none, standings are per bot only (Dou Dizhu). */
    int      nteams;
    int8_t   team_of_bot[ARB_MAX_SEATS];      /* -1 without fixed teams */
    int64_t  team_total[ARB_MAX_SEATS];
    int      team_rank[ARB_MAX_SEATS];        /* 1 = best; ties share a rank */
    /* Tables (match_tables > 0): each seating block's own match, and per
     * team the tables it won. The match's team_total is then the sum of
     * the tables' team scores, bots[].total the sum of the bot's, and a
     * team ranks by tables won, then by team_total; a bot has its team's
     * rank. ntables 0: one match over every game. */
    uint32_t ntables;
    match_table tables[ARB_MAX_MATCH_TABLES];
    uint32_t tables_won[ARB_MAX_SEATS];
    uint64_t decisions;
    uint64_t wall_ns;
    /* The penalties in the order given: the first ARB_MAX_RESULT_PENALTIES,
     * and how many more there were (each seat's count has them all). */
    match_penalty *penalties;                 /* npenalties entries, owned (NULL when none) */
    uint32_t npenalties;
    uint32_t penalties_dropped;
    char     error[512];                      /* why match_run failed, if it did */
} match_result;

/* Frees the deals and the penalties. */
void match_result_release(match_result *res);

/* Seatings of a match: number of games and, for game g, the bot in each
 * seat and which deal's cards it uses. Duplicate games are seating-major:
 * every deal under seating 0, then every deal under seating 1 ... and the
 * bots are restarted (fresh processes, empty working directories) between
 * two seating blocks, so that no process meets the same cards twice.
 *
 * A game whose match may end early (game.h, match_ends_early) plays at
 * most match_games games. Without duplicate that is one match. With
 * duplicate, each seating block is a table (match_tables): a whole match
 * of its own, of at most cfg->deals deals, begun afresh (levels and all)
 * with deal i of every table dealt deal i's cards; when the game ends a
 * table's match, the rest of that block is not played and the next table
 * begins. Deals played at every table saw the same cards in every
 * seating; deals a table did not reach are simply not compared. */
uint32_t match_games(const match_config *cfg);
/* Seatings of the match: 1 without duplicate, n for rotate, n! for all,
 * 2 for swap. */
uint32_t match_seatings(const match_config *cfg);
/* Tables of the match: its seatings when each seating block is a match of
 * its own (duplicate play of a game whose match may end early), else 0. */
uint32_t match_tables(const match_config *cfg);
void match_seating(const match_config *cfg, uint32_t g, uint32_t *deal, uint32_t *seating,
                   uint8_t bot_at[ARB_MAX_SEATS]);
/* True when the bots are restarted before game g (the first game of a
 * seating block after the first). */
bool match_restarts_before(const match_config *cfg, uint32_t g);
/* Set the match key from a secret: key = arb_key_derive(secret, label),
 * commitment = SHA-256(secret). */
int match_set_key(match_config *cfg, const uint8_t secret[32], const char *label);

/* A bot's command line ("prog arg arg", split on spaces, no shell) as an
 * argv: the program is found the way a user expects but by us — relative
 * to base_dir (NULL: the current directory) when it has a '/', else in the
 * bot's own PATH and then the caller's; arguments that name existing files
 * are made absolute, since the bot runs in a directory of its own. Errors
 * name the bot. */
int match_bot_command(match_bot_cfg *b, const char *name, const char *command, const char *base_dir,
                      char *err, size_t errlen);

#endif
