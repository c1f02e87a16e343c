/* game_cli.h — what the command line does that only a game knows: the
 * rules oracle (`arbiter moves`), self-play with built-in policies
 * (`arbiter play`), the rules engine's benchmark (`arbiter bench rules`).
 * Each game with such commands has a module cli/<game>_*.c and one entry
 * in game_cli.c; the commands themselves (cmd_moves.c, cmd_play.c,
 * cmd_bench.c) parse the generic options, build the rules through the
 * arb_game interface and hand over. A game without a module, or a module
 * without a handler, is told as such, never run as another game. */
#ifndef ARB_GAME_CLI_H
#define ARB_GAME_CLI_H
#include "cli.h"

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

typedef struct game_cli {
    const char *game;       /* the arb_game's name */
    /* `arbiter moves`: read lines on stdin, answer each on stdout. The
     * input lines' form, for the command's --help. */
    int (*moves)(const void *rules, bool readings);
    const char *moves_help;
    /* `arbiter play`: seeded deals between built-in policies; the policy
     * names, for the command's --help. */
    int (*play)(const void *rules, const cli_play_options *o);
    const char *play_policies;
    /* `arbiter bench rules`: "name value unit" lines, or JSON. */
    int (*bench_rules)(const void *rules, double seconds, cli_format format);
} game_cli;

/* The module of game g, or NULL when the game has none. */
const game_cli *game_cli_find(const arb_game *g);
/* "arbiter: COMMAND: GAME has no ..." unless has (m and its handler for
 * COMMAND are there):
 * nonzero then. */
int game_cli_lacks(const game_cli *m, bool has, const arb_game *g, const char *command);

/* What a command asks of a game's module. */
typedef enum game_cli_op { GAME_CLI_MOVES, GAME_CLI_PLAY, GAME_CLI_BENCH_RULES } game_cli_op;
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

extern const game_cli game_cli_doudizhu;

#endif
