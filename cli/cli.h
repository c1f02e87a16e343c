/* cli.h — the arbiter command-line tool: one cmd_<name> per file, dispatched
 * from the table in arbiter.c (after git's builtin/). */
#ifndef ARB_CLI_H
#define ARB_CLI_H
#include "ddz.h"
#include "pgctl.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

int cmd_moves(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_referee(int argc, char **argv);
int cmd_scheduler(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_standings(int argc, char **argv);
/* The median of v[0..n) (sorts v): benchmarks report medians. */
double cli_median(double *v, int n);
/* `arbiter bench referee` (cmd_bench_referee.c). */
int bench_referee(int argc, char **argv);
/* `arbiter bench tournament` (cmd_bench_tournament.c). */
int bench_tournament(int argc, char **argv);
/* `arbiter bench dispatch` (cmd_bench_tournament.c). */
int bench_dispatch(int argc, char **argv);

/* Where the record is (place.c): --db, $ARBITER_DB, or the private
 * cluster of the state directory (started if needed). exclusive: this
 * process runs tournaments there (one at a time per state directory);
 * readers share the cluster a run has started. */
typedef struct db_place {
    pgctl pg;
    bool private_pg;
    char conninfo[1200];
    int lock_fd;
} db_place;
int cli_open_place(db_place *p, const char *state, const char *db, bool exclusive, char *err, size_t errlen);
void cli_close_place(db_place *p);
/* A key file's first line: 40 Z85 characters. 0 or -1. */
int cli_read_key(const char *path, char key[41]);
/* A line of a worker keys file: a key (40), blanks and a name (64). */
#define CLI_KEY_LINE 112
/* Public keys one a line, each with an optional name after it ("KEY" or
 * "KEY NAME": the worker's identity, zap.h; '#' starts a comment line)
 * into keys: the count, or -1 (with a FILE:LINE message on stderr). */
int cli_read_keys(const char *path, char (*keys)[CLI_KEY_LINE], int cap);
/* A file of at most 1 MiB, NUL-terminated (malloc'ed), or NULL. */
char *cli_slurp(const char *path, size_t *len);
/* A tournament file's SHA-256 as hex. */
void cli_digest(const char *text, size_t len, char digest[65]);

/* Shared option handling: --rules PRESET and --set k=v,... into *r. On error
 * prints "arbiter: ..." to stderr and returns nonzero. */
int cli_rules_option(ddz_rules *r, const char *opt, const char *val);

#endif
