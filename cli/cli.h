/* cli.h — the arbiter command-line tool: one cmd_<name> per file, dispatched
 * from the table in arbiter.c (after git's builtin/), and what the commands
 * share: exit codes, option parsing, output formats, the game a command is
 * about, where the record is. Nothing here knows a particular game: what
 * only a game knows is in its module (game_cli.h). */
#ifndef ARB_CLI_H
#define ARB_CLI_H
#include "cli_base.h"
#include "arb_buf.h"
#include "game.h"
#include "pgctl.h"
#include "rating.h"
#include "store.h"

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

int cmd_moves(int argc, char **argv);
int cmd_trick(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_transcripts(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* The transcript hooks the web layer is given (web_hooks.c): the referee's
 * reader, for arbiter serve, arbiter report and the scheduler's pages. */
struct web_hooks;
struct tr_botend;
const struct web_hooks *cli_web_hooks(void);
int cmd_keygen(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_standings(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_ratings(int argc, char **argv);
int cmd_ladder(int argc, char **argv);
int cmd_register(int argc, char **argv);
int cmd_dispute(int argc, char **argv);
int cmd_account(int argc, char **argv);
int cmd_matches(int argc, char **argv);
int cmd_match_info(int argc, char **argv);
int cmd_crosstable(int argc, char **argv);
int cmd_psql(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
/* The participant API's client (cmd_remote.c, remote.c): linked into the
 * arbiter binary only, with libcurl. */
int cmd_join(int argc, char **argv);
int cmd_remote(int argc, char **argv);

/* ---- arbiter rate (cmd_rate.c) ------------------------------------------ */

/* `--system openskill`: the matches read from `in` (one a line, README
 * "Ratings") applied in order from default ratings with `model`, then
 * `NAME MU SIGMA` per name on `out`, sorted bytewise. A mistake in the
 * input: "arbiter: rate: <stdin>:LINE: what" on `err`, nothing on `out`.
 * CLI_EXIT_OK or CLI_EXIT_FAIL. */
int rate_openskill(wl_model model, FILE *in, FILE *out, FILE *err);
/* `--system glicko2` (glicko) or `--system elo`: games "A B S" read from
 * `in` (README "Ratings"), the ratings per name on `out` as above. */
int rate_pairs(bool glicko, FILE *in, FILE *out, FILE *err);

/* ---- options (options.c) ------------------------------------------------ */

/* getopt_long for command `cmd` ("run", "bench rules"): call cli_opts_begin
 * once before the loop (one process may parse several argument vectors).
 * shortopts should start with ':'. An unknown option, or one without its
 * value, is said on stderr ("arbiter: run: unknown option --wrokers (did
 * you mean --workers?)") and '?' returned: the command then prints its
 * usage on stderr and exits CLI_EXIT_USAGE. Operands are left, in order,
 * in argv[optind..argc). */
void cli_opts_begin(void);
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts);
/* An integer option's value in lo..hi, else a message and nonzero. */
int cli_int_arg(const char *cmd, const char *opt, const char *val, long long lo, long long hi, long long *out);
/* A match id (a positive decimal integer, nothing else), else a message
 * naming `what` with the text escaped, and nonzero. */
int cli_match_id(const char *cmd, const char *what, const char *val, int64_t *id);
/* A command with subcommands (`dispute`, `ladder`): none given prints usage
 * to stderr (CLI_EXIT_USAGE), --help/-h to stdout (CLI_EXIT_OK); -1 when a
 * subcommand follows. */
int cli_sub_help(int argc, char **argv, void (*usage)(FILE *f));
/* As root every bot runs under a uid of its own, which must reach its
 * program (and a script it names by path): the bots' programs checked
 * before the first match (arb_others_can_reach), and for one that cannot
 * be reached "arbiter: CMD: bot NAME: PATH cannot be reached by the bots'
 * own uids: DIR is closed to others (mode 0700); ..." with what to do.
 * 0 when every bot can reach its files (or we are not root), else -1. */
struct match_bot_cfg;
int cli_bots_reachable(const char *cmd, const struct match_bot_cfg *bots, int nbots);
/* Append a --set value to a comma-separated list (bounded; nonzero when full). */
int cli_append_option(char *list, size_t cap, const char *val);

/* ---- output formats ---------------------------------------------------- */

typedef enum cli_format { CLI_FORMAT_TABLE, CLI_FORMAT_CSV, CLI_FORMAT_JSON } cli_format;
#define CLI_FORMATS_TJ (1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_JSON)
#define CLI_FORMATS_ALL (CLI_FORMATS_TJ | 1u << CLI_FORMAT_CSV)
/* --format TEXT among the allowed formats (a mask of 1 << cli_format). */
int cli_format_parse(const char *cmd, const char *text, unsigned allowed, cli_format *out);
/* An option's whole number: the int text is, or -1 when it is none ("",
 * "12x", out of int's range), which every caller's range check refuses
 * with its usage line (the options it is for take no negative values). */
int cli_count_opt(const char *text);
/* s as a JSON string, quotes included: control bytes, quotes and
 * backslashes escaped; bytes of 0x80 and above pass (the text is UTF-8 or
 * the names' restricted alphabet). */
void cli_json_string(FILE *f, const char *s);
/* s as a CSV field: quoted when it holds a comma, a quote or a newline. */
void cli_csv_field(FILE *f, const char *s);

/* ---- a transcript's bot processes (bot_ends.c) --------------------------- */

/* How each bot's processes ended, from a transcript's botend records
 * (`arbiter replay --stderr`, `arbiter dispute show`). bot >= 0: that
 * bot's processes are shown, each as "--- process N (sandbox S): STATUS;
 * K bytes of stderr kept" (STATUS decoded: "killed by SIGSEGV") and its
 * stderr, escaped for a terminal with its newlines kept, every line after
 * indent; tail > 0 shows only the last tail bytes of each stderr (and
 * says so). json: each process as a JSON object instead ({bot, process,
 * sandbox, status, stderr_bytes, stderr}), each after the first of all
 * the walks with c preceded by a comma. */
typedef struct cli_bot_ends {
    int         bot;                         /* whose processes to show, -1 none */
    const char *indent;                      /* before each line shown (NULL: none) */
    size_t      tail;                        /* > 0: the last tail bytes of each stderr */
    bool        json;                        /* JSON objects rather than text */
    int         objects;                     /* JSON objects shown by every walk so far */
    int         processes;                   /* out: bot's botend records */
    int         last_status[ARB_MAX_SEATS];  /* out: each bot's last wait status, -1 none */
    bool        told_end[ARB_MAX_SEATS];     /* each bot was sent "end" since its process started */
} cli_bot_ends;
/* Walk the transcript's records: 0, ARB_ECORRUPT for a corrupt record, or
 * ARB_ENOMEM. */
int cli_bot_ends_walk(const uint8_t *data, size_t len, cli_bot_ends *c);
/* A transcript's record (type, rec[0..n)) seen on a walk: told[bot] set
 * when it sends a bot "end" (the match's, or a seating's before a
 * restart), cleared when the bot's process ends (botend). */
void cli_bot_told_end(int type, const uint8_t *rec, size_t n, bool *told);
/* How a bot's process ended, in words that say who ended it: its wait
 * status; a SIGKILL is the referee's (the kernel's OOM kill is noted by
 * the referee too): after "end" (told) it stopped a bot still running at
 * the match's end, else the reason the referee noted at the end of the
 * bot's stderr ("arbiter: killed: ..."). */
void cli_bot_end_words(const struct tr_botend *be, bool told, char *buf, size_t cap);
#define CLI_BOT_END_WORDS 640   /* cli_bot_end_words' room: a referee's note (SEAT_NOTE_ROOM) escaped, and words */
/* A record as JSON (tr_json: `arbiter replay --json`, the web's transcript
 * lines); a botend's with "ended" too: cli_bot_end_words, told as
 * cli_bot_told_end left it before this record. 0 or < 0. */
int cli_tr_json(int type, const uint8_t *rec, size_t n, const bool *told, arb_buf *out);

/* ---- the game a command is about ---------------------------------------- */

/* What `--game` means when it is not given: the registry's default
 * (games/game.h), which the README's commands predate other games with. */
#define CLI_DEFAULT_GAME ARB_DEFAULT_GAME
/* The registered game called name (NULL: CLI_DEFAULT_GAME), or NULL after
 * "arbiter: unknown game ..." with the registered names on stderr. */
const arb_game *cli_game(const char *name);
/* Rules of game g from a preset (NULL: the game's default) and options
 * ("k=v,k=v"): a calloc'ed value of g->rules_size the caller frees, or NULL
 * after a message on stderr naming the preset, the option or the check
 * that failed. */
void *cli_rules_new(const arb_game *g, const char *preset, const char *options);

/* A ladder's leaderboard (cmd_ladder.c): active entries ranked by the
 * conservative rating, then those validating or suspended; all: the
 * retired and rejected too. An exit code. */
int cli_ladder_board(store *st, int64_t tid, const char *ladder, bool all, cli_format format);

/* ---- the record (place.c) ----------------------------------------------- */

/* Where the record is (place.c): --db, $ARBITER_DB, or the private
 * cluster of the state directory (started if needed). exclusive: this
 * process runs tournaments there (one at a time per state directory: it
 * holds the directory's lock); everyone else holds no lock of it and
 * shares the cluster, whoever started it (pgctl.h). */
typedef struct db_place {
    pgctl pg;
    bool private_pg;       /* pg is ours to stop (pgctl_stop: if we are its last user) */
    char conninfo[1200];
    int lock_fd;           /* STATE/lock, held exclusive by a run (-1: not held) */
} db_place;
int cli_open_place(db_place *p, const char *state, const char *db, bool exclusive, char *err, size_t errlen);
/* The same for the commands that only read (status, standings, verify):
 * nothing is created — a state directory without a cluster is
 * ARB_ENOTFOUND with "no record in DIR (...)" in err (CLI_EXIT_NORECORD). */
int cli_open_record(db_place *p, const char *state, const char *db, char *err, size_t errlen);
/* A tournament file whose entrants' files cannot all be found may still be
 * resumed or rerun: true when every such entrant has its program in the
 * record under the tournament this file is (said on stderr, an entrant a
 * line). The scheduler then plays the recorded program (programs.c). */
bool cli_programs_recorded(store *st, const tn_config *cfg);
/* What `arbiter submit` does with a file loaded (cmd_scheduler.c), shared
 * with the API's POST /api/v1/tournaments (web_hooks.c): its commands
 * checked (a program in PATH, files present unless the record holds the
 * programs: st may be NULL), then the tournament put in the record (its
 * path kept when it came from a file; the organiser's secret when given).
 * 0, or an error in err. */
int cli_submit_check(const tn_config *cfg, store *st, char *err, size_t errlen);
int cli_submit_config(store *st, const tn_config *cfg, const uint8_t *secret, int64_t *tid, bool *created, char *err,
                      size_t errlen);
/* A command that reads the record (status, standings, verify): its
 * options --state DIR, --db CONNINFO, --format (among `formats`) and, with
 * want_name, one positional NAME, then the record opened (cli_open_record)
 * into r->place and connected to (r->st). Returns -1 when the command goes
 * on (cli_reader_close at the end), else the exit code to return at once:
 * help printed (OK), a usage mistake or a database that cannot be reached
 * (USAGE), no record there (NORECORD). */
typedef struct cli_reader {
    const char *state, *db, *name;
    cli_format  format;
    db_place    place;
    store      *st;
} cli_reader;
int cli_reader_open(const char *cmd, int argc, char **argv, unsigned formats, bool want_name, void (*usage)(FILE *),
                    cli_reader *r);
void cli_reader_close(cli_reader *r);
/* The second half of cli_reader_open, for a command that reads its own
 * options: r->state and r->db set, the record opened and connected. -1 to
 * go on (cli_reader_close at the end), else the exit code (said). */
int cli_reader_connect(const char *cmd, cli_reader *r);
/* Match mid's transcript from the record (store_transcript_load: by its
 * digest, checked as read; a pruned one said as such), with the digest and
 * the referee key the record holds: 0 with *data (free it), else the exit
 * code with the reason said on stderr (no such match: NORECORD; pruned,
 * altered or unreadable: USAGE). */
int cli_match_transcript(const char *cmd, store *st, int64_t mid, uint8_t **data, size_t *len, char digest[65],
                         char signer[65]);
/* "arbiter: CMD: the database cannot be reached: WHY" on stderr, WHY from
 * store_open's err (CLI_EXIT_USAGE follows). */
void cli_say_unreachable(const char *cmd, char *err);
/* A reader's record made ready (store_ready: migrations this version adds
 * applied, a migrating process waited for): -1 to go on; else the message
 * said, st and the place closed, and the exit code: NORECORD for an empty
 * database, USAGE for a database of something else or an error. */
int cli_record_ready(const char *cmd, store *st, db_place *place);
void cli_close_place(db_place *p);

#endif
