/* tournament.h — a tournament as configured: the validated structure the
 * YAML loader (config.c) produces and everything else (pairing, the store,
 * `arbiter run`) consumes. Plain values; entrants are owned. */
#ifndef ARB_TOURNAMENT_H
#define ARB_TOURNAMENT_H
#include "match_def.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum tn_format {
    TN_ROUND_ROBIN = 0,     /* every table of k entrants meets `cycles` times */
    TN_GAUNTLET,            /* one entrant (gauntlet:) against every table of the rest */
    TN_SINGLE_ELIM,         /* tables of k, the best `advance` go on */
    TN_DOUBLE_ELIM,         /* two-sided games only (k = 2); grand final with reset */
    TN_SWISS,               /* `rounds` rounds, score groups, no repeat meetings where avoidable */
    TN_GROUPS_KNOCKOUT,     /* `groups` round-robin groups, the best `advance` of each to a knockout */
    TN_LADDER,              /* long-lived: entries join and retire while it runs, matchmaking by rating */
    TN_NFORMATS
} tn_format;


/* The game of a tournament file that names none (`game:`): the registry's
 * default (games/game.h). */
#define TN_DEFAULT_GAME ARB_DEFAULT_GAME

/* The rating system a tournament keeps in its record (docs/ratings.md). */
typedef enum tn_rating {
    TN_RATING_NONE = 0,
    TN_RATING_OPENSKILL,        /* Weng–Lin: every game, teams in partnership play */
    TN_RATING_GLICKO2,          /* each match a rating period of its own */
    TN_RATING_ELO,
    TN_NRATINGS
} tn_rating;

const char *tn_rating_name(tn_rating r);     /* "none", "openskill", ... */
int tn_rating_parse(const char *s, tn_rating *out);

typedef struct tn_entrant {
    char     name[ARB_MAX_BOT_NAME + 1];
    char     command[ARB_TN_MAX_COMMAND];   /* program and arguments, space separated */
    char     files[ARB_TN_MAX_COMMAND];     /* more files of the program (a module it imports, weights),
                                           space separated, relative to the file; shipped with it
                                           to referee workers on other hosts */
    uint32_t seed;                      /* seeding rank (1 = top), 0 = unseeded */
    double   rating;                    /* 0 = none */
    char     team[ARB_MAX_BOT_NAME + 1];/* partnership games; "" = none */
    int64_t  startup_ms;                /* its declared start-up budget (startup_ms:), within the
                                           tournament's tn_startup_max; 0 = the clock's startup_ms */
    char     env[ARB_MAX_BOT_ENV_TEXT]; /* its declared variables (env:), "NAME=value\n" each,
                                           checked by match_env_add; "" = none */
    int      line;                      /* where it was declared (for errors); 0 for a registration */
    bool     registered;                /* came by registration (registration:), not from the file: it
                                           plays its recorded program, never files on the host */
} tn_entrant;

/* A team of a partnership game (a game whose teams are fixed before play:
 * Da Bang's 0+2 against 1+3): the unit its formats pair, standings rank
 * and brackets draw. Its members are entrants (each a bot, with its own
 * statistics) that always sit on one side. Declared in the file as an
 * entrant with `members:`, or gathered from entrants naming one `team:`. */
typedef struct tn_team {
    char     name[ARB_MAX_BOT_NAME + 1];
    uint32_t seed;                      /* seeding rank (1 = top), 0 = unseeded */
    double   rating;                    /* 0 = none */
    int      nmembers;
    int      member[ARB_MAX_SEATS];     /* entrant indices, in the order declared */
    int      line;
} tn_team;

/* A ladder's settings (`ladder:` in its file; docs/ladders.md). */
typedef struct tn_ladder {
    uint32_t provisional;              /* games under which an entry is provisional (default 10) */
    double   rate;                     /* matches per hour an entry may start (0: no limit) */
    uint32_t concurrent;               /* ladder matches in flight at once (default 2) */
    uint32_t max_in_flight;            /* matches one entry plays at once (default 1) */
    double   new_boost;                /* how much more often a provisional entry plays (default 2) */
    uint32_t inactive_days;            /* no match for this long: listed as inactive (default 30) */
    uint64_t matches;                  /* stop after this many ladder matches (0: until stopped) */
    char     validation[ARB_MAX_BOT_NAME + 1]; /* "self" (copies of itself), "none", or a reference entrant */
} tn_ladder;

/* What a registration must pass before it is accepted (registration.validation). */
typedef enum tn_reg_validation {
    TN_REG_CHECK = 0,                  /* its bundle checked and its command's program found (in the
                                          bundle, or the host's PATH) when it registers */
    TN_REG_NONE,                       /* its bundle checked only */
} tn_reg_validation;

/* An open tournament's registration (`registration:` in its file;
 * schemas/tournament.md, "Registration"): entrants register themselves
 * (arbiter register, POST /api/v1/tournaments/T/registrations) until the
 * deadline or until max_entrants have, then it starts with the file's
 * entrants and every one registered. */
typedef struct tn_registration {
    bool     open;                     /* the file has a registration: block */
    int64_t  until;                    /* the deadline, Unix seconds (UTC) */
    uint32_t per_account;              /* registrations one account may hold (default 1) */
    uint32_t max_entrants;             /* registrations in all (default: the entrants' limit less the file's) */
    uint8_t  validation;               /* tn_reg_validation */
} tn_registration;

/* visibility.stderr (schemas/tournament.md, "Visibility"): who reads a
 * bot's stderr on the web. */
typedef enum tn_visibility {
    TN_VIS_DEFAULT = 0,                /* not said: private when the record has accounts, else public */
    TN_VIS_PRIVATE,                    /* its owner and the arbiters only (the API) */
    TN_VIS_PUBLIC,                     /* every reader of the web and of a report */
} tn_visibility;

typedef struct tn_config {
    char     path[512];                 /* the file it came from (over the API: a label, no file) */
    bool     submitted;                 /* its text came over the API (tn_config_load_text): it names no
                                           file of the host, and its entrants' words are never files */
    char     submitted_by[ARB_ACCOUNT_MAX_NAME + 1]; /* the account that submitted it ("" a file) */
    char    *text;                      /* the file's text as loaded (owned; NUL-terminated) */
    char     digest[65];                /* its SHA-256 in hex: the tournament's identity with its name */
    char     files_root[512];           /* the resolved directory every entrant's files: lie in (the
                                           file's own directory unless files_root: widens it) */
    char     name[ARB_TN_MAX_NAME];
    /* Every match's configuration starts as this template: game, preset,
     * options, deals, duplicate, clocks, policy, strikes, forfeit stake.
     * Its seed, key, bots and nbots are unused: each match gets its own
     * (the tournament's seed is `seed` below). */
    match_config match;
    int64_t  startup_ms_max;            /* clock.startup_ms_max: the most an entrant may declare
                                           (startup_ms:); 0 = clock.startup_ms (tn_startup_max) */
    uint8_t  format;                    /* tn_format */
    uint32_t cycles;                    /* round robin: meetings of each table (default 1) */
    uint32_t rounds;                    /* swiss (default: enough to rank) */
    uint32_t advance;                   /* knockouts: how many of a table go on (default 1) */
    uint32_t groups;                    /* groups-knockout: number of groups */
    char     gauntlet[ARB_MAX_BOT_NAME + 1]; /* gauntlet: the entrant against the field */
    uint64_t seed;
    uint8_t  rating;                    /* tn_rating: the record keeps ratings (default none) */
    uint8_t  rating_model;              /* wl_model, for openskill */
    tn_ladder ladder;                   /* format ladder */
    tn_registration registration;       /* an open tournament: entrants register until a deadline */
    uint8_t  stderr_visibility;         /* tn_visibility: visibility.stderr (who reads a bot's stderr) */
    int      nfile_entrants;            /* the entrants the file names (the rest came by registration) */
    int      nentrants;
    tn_entrant *entrants;
    /* Partnership play: nteams > 0 when the game fixes its teams before
     * play and the file names teams; then the formats pair teams (a table
     * holds `sides` teams) and every entrant is a member of one. */
    int      nteams;
    tn_team *teams;
    int      sides;                     /* the game's teams at a table (2 for Da Bang), 0 without */
} tn_config;

/* What a format pairs: teams in partnership play, else entrants. */
static inline int tn_units(const tn_config *c)
{
    return c->nteams > 0 ? c->nteams : c->nentrants;
}

/* The longest start-up budget an entrant of c may declare. */
static inline int64_t tn_startup_max(const tn_config *c)
{
    return c->startup_ms_max > 0 ? c->startup_ms_max : c->match.startup_ms;
}

const char *tn_format_name(tn_format f);     /* "round-robin", "gauntlet", ... */
int tn_format_parse(const char *s, tn_format *out);

#endif
