/* abot_core.h — the game-independent half of the C bot library
 * (arbiter_bot.h), and the interface a game's view plugs into.
 *
 * The core speaks what every game shares in the protocol
 * (schemas/bot-protocol.md): it reads the referee's lines (bounded by
 * ARB_MAX_REQUEST), answers the handshake `arbiter 1 GAME` with
 * `bot 1 NAME [legal]`, reads the generic parts of `match` (players, deals,
 * seed), `clock` and `end`, shows `note`/`error` to the author, and writes
 * exactly one reply line per request. Everything else — what the seat has
 * seen, the legal moves, the reply's words — belongs to the game's view,
 * one module per game behind an abot_game table: games/ddz/abot_ddz.c for Dou Dizhu
 * (the public abot_view / abot_run of arbiter_bot.h), games/dabang/abot_dabang.c for
 * Da Bang (abot_dab_view / abot_dab_run), over this same core.
 *
 * Internal to the library: not installed. Names with two underscores are
 * the library's own. */
#ifndef ABOT_CORE_H
#define ABOT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arb_limits.h"
#include "arbiter_bot.h"

#define ABOT_OKEY_CARDS ARB_MAX_PLAY_CARDS

/* What the core reads of the match for every game. */
typedef struct abot_match {
    int      players;        /* `match players N` (0 while unknown or unreadable: the view judges the range) */
    int      deals;          /* `match deals N`: deals this bot plays */
    uint64_t seed;           /* `match seed N`: the bot's own seed */
    int64_t  clock_move_ms;  /* `clock move MS deal MS bank MS`, -1 until given */
    int64_t  clock_deal_ms;
    int64_t  clock_bank_ms;
    bool     over;           /* `end` was read: the loop stops after the view has seen it */
    bool     has_total;      /* `end TOTAL` gave a readable total */
    int64_t  total;
} abot_match;

/* A game's view: what the core calls. `view` is the game module's own state. */
typedef struct abot_game {
    const char *name;        /* the game of the handshake, `arbiter 1 NAME` ("doudizhu") */
    /* `match`, after the core has read its generic part into `m`: the
     * view's rules start from the preset it names (the `option` lines that
     * follow are the whole rules). */
    void (*on_match)(void *view, const abot_match *m, char **w, int n);
    /* One `option KEY=VALUE`: the game's rules_set (game.h) on the view's
     * rules. The core reads the line and reports a refusal. */
    int (*set_option)(void *view, const char *key, const char *value, char *err, size_t errlen);
    /* Every other line except the handshake and requests — the deal's
     * events, `note`, and unknown events — split into words. Returns
     * false when a known event could not be read (the core reports the
     * line). */
    bool (*on_event)(void *view, const abot_match *m, char **w, int n);
    /* A request (`ask ...`). Writes the reply line (without newline) into
     * reply and returns true; returns false when the bot wrote its reply
     * itself (ABOT_NO_REPLY). One request, one reply: when nothing can be
     * read, the view replies `pass`. */
    bool (*on_request)(void *view, const abot_match *m, char **w, int n, char *reply, size_t cap);
    /* After every event line, with the line's first 255 bytes; may be NULL. */
    void (*observed)(void *view, const char *line);
} abot_game;

/* The fields of a view's public struct that mean the same in every game
 * (abot_view, abot_dab_view): the core fills them from `clock` and `end`. */
typedef struct abot_view_fields {
    int64_t *clock_move_ms;  /* `clock move MS deal MS bank MS` */
    int64_t *clock_deal_ms;
    int64_t *clock_bank_ms;
    int64_t *total;          /* `end TOTAL`, when readable */
    bool    *over;           /* `end` was read */
} abot_view_fields;

/* Play a whole match on the descriptors (they stay open) for `game`:
 * `name` is made valid (1..ARB_MAX_BOT_NAME of [A-Za-z0-9_.-]); `fields`
 * point at the view's shared fields (the core sets the clock's to -1 and
 * keeps them all); `ask_legal` asks the referee for legal lists (`bot 1 NAME
 * legal`); `verbose` echoes every line both ways to stderr. Returns 0 at
 * `end` or at the end of input, ARB_ENOMEM when it could not start. */
int abot__run(const abot_game *game, void *view, const abot_view_fields *fields, const char *name, int in_fd,
              int out_fd, bool ask_legal, bool verbose);

/* ARBITER_BOT_VERBOSE set (and not "0"): what abot_run's verbose follows. */
bool abot__env_verbose(void);

/* A diagnostic for the bot's author on stderr, "arbiter_bot: ..." */
void abot__diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The reply line of a request, formatted into the core's buffer (out,
 * cap); always true, what a view's on_request returns when it replied. */
bool abot__reply(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* `time MOVE DEAL BANK` in a request (the three words after `time`):
 * each readable number in t, -1 with a diagnostic naming the request
 * otherwise. */
void abot__read_time(char **w, const char *request, long long t[3]);

/* The results array `items` of `size`-byte elements made twice `*cap`
 * long (64 at first): the new array, or NULL with a diagnostic when
 * memory ran out (the array and cap are left as they were). */
void *abot__grow(void *items, int *cap, size_t size);

/* Whole decimal numbers within [lo, hi], nothing else on the word. */
bool abot__to_ll(const char *s, long long lo, long long hi, long long *out);
bool abot__to_int(const char *s, int lo, int hi, int *out);

/* ARBITER_BOT_STRICT set (and not "0"): strict mode (abot_options.strict). */
bool abot__env_strict(void);

/* ---- The legal list's order and the answer (docs/bot-authors.md) --------- */

/* A legal choice's sort key. Compared field by field in this order: cls,
 * major, ncards, tier, then p, k and c as sequences (element by element, a
 * prefix first), then text, then idx (the list stays stable). Each game
 * fills it as its Python twin's order_key does. */
typedef struct abot__okey {
    int idx;                 /* the choice's index before sorting */
    uint8_t cls;             /* 0 pass, then the game's classes */
    uint8_t major;           /* Dou Dizhu: the kind */
    uint8_t tier;            /* Dou Dizhu bombs: soft 0, natural 1, pure wild 2; Da Bang: suit + 1 */
    int ncards;
    uint8_t np, nk, nc;
    uint8_t p[ABOT_OKEY_CARDS], k[ABOT_OKEY_CARDS], c[ABOT_OKEY_CARDS];
    const char *text;        /* the reply text */
} abot__okey;
/* Sorts pointers, not the keys (a key is a few hundred bytes): sorted[i]
 * points at the i-th key in order. */
void abot__sort_keys(const abot__okey *keys, int n, const abot__okey **sorted);

/* What stands for the index `i` the bot's choose returned among n choices
 * (texts[j]: choice j as a reply; pass_at: the pass, -1 none):
 *   - ABOT_NO_REPLY as it is;
 *   - a legal index as it is;
 *   - ABOT_ANSWER (abot_answer's text): the choice `match` finds for the
 *     text (may be NULL: case-insensitive equality with texts), else in
 *     strict mode ABOT_ANSWER with *own the text to send;
 *   - anything else: in strict mode ABOT_ANSWER with *own "error" (a reply
 *     the referee refuses); otherwise the pass where there is one, else
 *     choice 0 (the smallest), said on stderr with what was chosen and why. */
typedef int (*abot__match)(void *ctx, const char *text);
int abot__resolve(int i, int n, const char *const *texts, int pass_at, bool strict, const char *word,
                  abot__match match, void *match_ctx, const char **own);

/* `--name NAME` from a bot's command line (public: arbiter_bot.h). */
const char *abot_name_arg(int argc, char **argv, const char *fallback);

#endif
