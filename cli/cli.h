/* cli.h — the arbiter command-line tool: one cmd_<name> per file, dispatched
 * from the table in arbiter.c (after git's builtin/). */
#ifndef ARB_CLI_H
#define ARB_CLI_H
#include "ddz.h"

int cmd_moves(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_referee(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_standings(int argc, char **argv);
/* The median of v[0..n) (sorts v): benchmarks report medians. */
double cli_median(double *v, int n);
/* `arbiter bench referee` (cmd_bench_referee.c). */
int bench_referee(int argc, char **argv);
/* `arbiter bench tournament` (cmd_bench_tournament.c). */
int bench_tournament(int argc, char **argv);

/* Shared option handling: --rules PRESET and --set k=v,... into *r. On error
 * prints "arbiter: ..." to stderr and returns nonzero. */
int cli_rules_option(ddz_rules *r, const char *opt, const char *val);

#endif
