/* bench_util.h — what the benchmarks share (cmd_bench*.c, the games'
 * bench handlers): medians, and figures printed as "name value unit"
 * lines or as JSON. Depends on nothing of theirs: the benchmarks call it,
 * never the other way. */
#ifndef ARB_BENCH_UTIL_H
#define ARB_BENCH_UTIL_H
#include "cli.h"
#include "pgctl.h"
#include "store.h"

#include <stdbool.h>

/* The median of v[0..n) (sorts v): benchmarks report medians. */
double bench_median(double *v, int n);

/* One reported figure. */
typedef struct bench_figure {
    const char *name;       /* lead_enumerations_20cards */
    double value;
    const char *unit;       /* per_second, ns, x */
    int decimals;           /* in the text form */
} bench_figure;
/* The figures under a title line ("rules standard"; NULL: none): as
 * "name value unit" lines, or one JSON object {"title":..., "figures":
 * [{"name":..., "value":..., "unit":...}, ...]}. */
void bench_print(const char *title, const bench_figure *figs, size_t n, cli_format format);

/* Whether --bot names a program the benchmark can start: an absolute path
 * to an executable regular file. false after a message on stderr naming
 * the benchmark ("referee"): a benchmark of a bot that cannot run would
 * measure nothing and print figures all the same. */
bool bench_bot_usable(const char *bench, const char *bot);

/* The record a benchmark builds in: --db's, or a private PostgreSQL in a
 * temporary directory (/tmp/arbiter-bench-NAME.XXXXXX), migrated. */
typedef struct bench_db {
    char dir[64];            /* the temporary directory (state/ is the cluster's) */
    pgctl pg;                /* the private cluster, when no --db */
    bool own;                /* we started pg */
    char conninfo[1200];     /* where the record is */
    store *st;               /* the benchmark's connection */
} bench_db;
/* Open it for benchmark bench ("ladder"); db NULL: a private cluster. 0,
 * or CLI_EXIT_FAIL after a message (bench_db_close still due). */
int bench_db_open(bench_db *r, const char *bench, const char *db);
/* Close the connection, stop the private cluster, remove the directory. */
void bench_db_close(bench_db *r, const char *bench);

/* A round robin of `entrants` copies of bot, one deal a match, written
 * to dir/bench.yaml and loaded into cfg (`arbiter bench tournament`,
 * `dispatch`, `web --crowd`: the same small real tournament). 0 or < 0
 * with a message in err. */
struct tn_config;
int bench_rr_config(const char *dir, const char *bot, int entrants, struct tn_config *cfg, char *err, size_t errlen);

/* Round trips per second of a line of `len` bytes (at most 512) through
 * two pipes to a child that echoes it: the floor of one request and one
 * reply. *cpu_us: the asking side's CPU per round trip. */
double bench_pipe_round_trips(int count, size_t len, double *cpu_us);

/* `arbiter bench match` (cmd_bench_match.c): where a match's time goes. */
int bench_match(int argc, char **argv);
/* `arbiter bench referee` (cmd_bench_referee.c); argv[0] is "referee". */
int bench_referee(int argc, char **argv);
/* `arbiter bench tournament` and `arbiter bench dispatch` (cmd_bench_tournament.c). */
int bench_tournament(int argc, char **argv);
int bench_dispatch(int argc, char **argv);
/* `arbiter bench ladder` (cmd_bench_ladder.c). */
int bench_ladder(int argc, char **argv);
/* `arbiter bench web` (cmd_bench_web.c). */
int bench_web(int argc, char **argv);
/* `arbiter bench web --crowd` (cmd_bench_crowd.c): argv as bench_web's. */
int bench_crowd(int argc, char **argv);

#endif
