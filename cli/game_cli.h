/* game_cli.h — what the command line does that only a game knows: the
 * rules oracle (`arbiter moves`), the trick judge of a trick-taking game
 * (`arbiter trick`), self-play with built-in policies (`arbiter play`),
 * the rules engine's benchmark (`arbiter bench rules`). Each game with such
 * commands has a module in its folder (games/<game>/, its game_cli table
 * named in its meson.build's game_cli_modules); the
 * commands themselves (cmd_moves.c, cmd_trick.c, cmd_play.c, cmd_bench.c)
 * parse the generic options, build the rules through the arb_game
 * interface and hand over. A game without a module, or a module
 * without a handler, is told as such, never run as another game. */
#ifndef ARB_GAME_CLI_H
#define ARB_GAME_CLI_H
#include "cli.h"
#include "arb_limits.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

/* `arbiter play`'s options, parsed by cmd_play.c. */
typedef struct cli_play_options {
    uint64_t seed;          /* deal k uses arb_seed_childn(seed, "deal", k) */
    unsigned long deals;
    const char *policy;     /* a policy the module knows (NULL: its default) */
    bool quiet;             /* totals only */
} cli_play_options;

/* What an oracle needs beyond the rules: the deal it answers within
 * (Da Bang: the level and the trump suit). Such keys are not rules — no
 * tournament sets them — but they come on the command line with the rules,
 * in --set: game_cli_begin takes the keys the module names in
 * context_keys out of --set before the rules are built and hands them over
 * here. Values point into text. */
enum { CLI_MAX_CONTEXT = 8 };
typedef struct cli_context {
    int n;
    const char *key[CLI_MAX_CONTEXT];       /* as named in context_keys */
    const char *value[CLI_MAX_CONTEXT];
    char text[ARB_MAX_OPTIONS_TEXT];
} cli_context;
/* The value given for key (the last one when given twice), or NULL. */
const char *cli_context_get(const cli_context *c, const char *key);

/* How `arbiter eval` (cmd_eval.c) seats agent A and agent B in a game
 * whose sides are not two fixed teams of two: options added to the rules
 * that fix role 0 to seat 0 and role 1 to every other seat (Dou Dizhu: no
 * bidding, the landlord in seat 0), and the roles' names in the report.
 * Eval plays each deal with A in role 0 against B, then the other way. */
typedef struct game_cli_roles {
    const char *options;     /* "k=v,k=v" added to the user's --set */
    const char *name[2];     /* role 0 (seat 0), role 1 (the other seats) */
} game_cli_roles;

typedef struct game_cli {
    const char *game;       /* the arb_game's name */
    /* --set keys that are the oracle's context (moves, trick), not rules;
     * NULL-terminated, NULL for none. */
    const char *const *context_keys;
    /* `arbiter moves`: read lines on stdin, answer each on stdout. The
     * input lines' form, for the command's --help. */
    int (*moves)(const void *rules, const cli_context *ctx, bool readings);
    const char *moves_help;
    /* `arbiter trick`: read the plays of a trick a line, answer who wins
     * it and its points; the lines' form, for --help. */
    int (*trick)(const void *rules, const cli_context *ctx);
    const char *trick_help;
    /* `arbiter play`: seeded deals between built-in policies; the policy
     * names, for the command's --help. */
    int (*play)(const void *rules, const cli_play_options *o);
    const char *play_policies;
    /* `arbiter bench rules`: "name value unit" lines, or JSON. */
    int (*bench_rules)(const void *rules, double seconds, cli_format format);
    /* `arbiter replay --show`: the deal as a whole once it is over (every
     * hand as dealt, what the game hides until the end), lines to stdout
     * indented by two; names[s] is the bot at seat s. NULL: nothing more
     * than the moves. */
    void (*show_deal)(const void *state, const char *const *names);
    /* `arbiter eval`: the preset it plays when none is named (NULL: the
     * game's default preset). */
    const char *eval_preset;
    /* `arbiter eval` in a game without two fixed teams of two: how A and
     * B take the roles. NULL: eval plays such a game not at all (a game of
     * two fixed teams of two needs nothing here: A's team sits in seats
     * 0+2 at one table and 1+3 at the other). */
    const game_cli_roles *eval_roles;
} game_cli;

/* The module of game g, or NULL when the game has none. */
const game_cli *game_cli_find(const arb_game *g);
/* "arbiter: COMMAND: GAME has no ..." unless has (m and its handler for
 * COMMAND are there):
 * nonzero then. */
int game_cli_lacks(const game_cli *m, bool has, const arb_game *g, const char *command);

/* What a command asks of a game's module. */
typedef enum game_cli_op { GAME_CLI_MOVES, GAME_CLI_PLAY, GAME_CLI_BENCH_RULES, GAME_CLI_TRICK } game_cli_op;
/* The part every such command shares once its options are parsed: with
 * help or bad, the usage (to stdout or stderr; usage gets the module of
 * the game asked for, when it has one, to describe its own lines) and
 * OK or USAGE; else the game (`game`, NULL: the default), its module, its
 * rules from the preset and "key=value" options. Returns -1 with *m and
 * *rules (the caller frees rules) when the command goes on; otherwise the
 * exit code, with the reason on stderr: the game unknown, without the
 * module or handler, or rules that do not build. */
int game_cli_begin(const char *command, game_cli_op op, const char *game, const char *preset, const char *sets,
                   bool help, bool bad, void (*usage)(FILE *f, const game_cli *m), const game_cli **m,
                   void **rules);
/* The same for a command that answers within a context (moves, trick):
 * first the module's context_keys are taken out of sets into *ctx. */
int game_cli_begin_context(const char *command, game_cli_op op, const char *game, const char *preset,
                           const char *sets, bool help, bool bad, void (*usage)(FILE *f, const game_cli *m),
                           const game_cli **m, void **rules, cli_context *ctx);

/* Read one line of a line-oriented command (moves, trick): its bytes up
 * to the newline (neither it nor a '\r' before it counted) into buf, which
 * holds ARB_MAX_LINE + 2. A line is read to its newline whatever it holds,
 * so every input line gets exactly one answer and the answers stay in
 * step. Returns 1 for a line, 0 at EOF, -1 for a line longer than
 * ARB_MAX_LINE bytes, -2 for one holding a NUL byte (which a C string
 * would cut short). */
int game_cli_read_line(FILE *in, char *buf);

/* Every line of `in` through answer (which prints one answer line for it
 * on stdout), a line that cannot be read answered with the error that
 * says why; stdout is flushed after each answer, so that a caller writing
 * a line and reading its answer is never kept waiting. */
void game_cli_answer_lines(FILE *in, void (*answer)(void *ctx, char *line), void *ctx);

#endif
