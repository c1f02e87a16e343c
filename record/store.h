/* store.h — the tournament record in PostgreSQL (libpq). The database is the
 * truth: tournaments, entrants, rounds, matches and their state, seats,
 * deals, penalties, events (record/sql/). Every write is
 * idempotent, matches are claimed with FOR UPDATE SKIP LOCKED and a lease,
 * and a result is accepted only from the lease generation that holds the
 * match, in the same transaction as the state change. All SQL is
 * parameterised. */
#ifndef ARB_STORE_H
#define ARB_STORE_H
#include "match_def.h"
#include "store_cols.h"
#include "tournament.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct store store;

/* Connect (conninfo as libpq takes it). NULL and a message on failure. */
store *store_open(const char *conninfo, char *err, size_t errlen);
void store_close(store *s);
/* The PostgreSQL advisory lock (one bigint key) that store_migrate holds
 * while it reads and applies migrations: any process that migrates the
 * record (a scheduler, arbiter run, submit, dispute) takes it, so that
 * processes starting at once on a fresh database apply each migration
 * once and the others wait and find the schema current. 4242 is the key
 * earlier versions took per migration (pg_advisory_xact_lock), kept so
 * that they and this one still exclude each other; another application
 * sharing the database must not use it. */
#define STORE_MIGRATION_LOCK "4242"

/* Apply the embedded migrations (record/sql/NNN_*.sql) not yet applied,
 * all in one transaction with their version rows (a process killed part
 * way leaves the record as it was), all of it (schema_migrations created if
 * missing, versions read, migrations applied) under the session-level
 * advisory lock STORE_MIGRATION_LOCK, released before returning. */
int store_migrate(store *s, char *err, size_t errlen);
/* For a command that reads the record: wait for a process migrating it
 * (STORE_MIGRATION_LOCK) and apply what migrations this version adds, so
 * no reader sees a half-migrated schema; but create nothing where there
 * is no record, and write nothing to a record already up to date (so a
 * reader works on a read-only hot standby, docs/operations.md). 0 when
 * ready; ARB_ENOTFOUND (an empty database) or ARB_EINVAL (tables of
 * something else, no schema_migrations) with "no arbiter record in
 * database ..." and what to do in err; ARB_EINVAL too for a standby whose
 * record lacks this version's migrations (the primary's to apply). */
int store_ready(store *s, char *err, size_t errlen);

/* The tournament for this configuration: created with its entrants the
 * first time (then *created is true), found again on every later start with
 * the same name and file digest (a resume). A name whose latest
 * tournament came from another file (another digest) is refused,
 * ARB_EEXIST with "FILE:LINE: ..." and the choices in err, unless fresh
 * (arbiter run --new): then another tournament of that name is started,
 * told apart by its id. */
int store_tournament(store *s, const tn_config *cfg, const char *yaml, const char *digest, bool fresh,
                     int64_t *tid, bool *created, char *err, size_t errlen);

/* The tournament's secret (docs/rng.md): set once, at its first start or
 * submission — `given` when the organiser gave one, else drawn at random —
 * and read back on every later start. Its SHA-256 is recorded as the
 * public commitment. A given secret that differs from the recorded one is
 * refused (ARB_ESTATE, both commitments in err): the deals already played
 * follow from the recorded one. */
int store_secret(store *s, int64_t tid, const uint8_t *given, uint8_t secret[32], char commitment[65],
                 char *err, size_t errlen);
/* What may be shown of the secret: the commitment (always, "" when none
 * yet) and, once the tournament is done (revealed_at), the secret as hex
 * (else ""); *rerun (when not NULL): it was revealed and the tournament
 * runs again (a dispute's rerun). 0, or < 0. */
int store_fairness(store *s, int64_t tid, char commitment[65], char secret_hex[65], bool *rerun);
/* The recorded secret, if any: 1 with secret filled, 0 none, < 0 error. */
int store_secret_get(store *s, int64_t tid, uint8_t secret[32]);

/* The longest note on a tie-break (placements, events). */
#define STORE_NOTE_MAX 240

/* One table of a round: the entrant in each match slot. */
typedef struct store_table {
    int nslots;
    int entrant[ARB_MAX_SEATS];
} store_table;

/* Create a round's matches (idempotent: a round created again is left as it
 * is). The match seed of table t is arb_seeds_match_seed(tournament seed,
 * R, t): a public label (arb_seeds.h). */
int store_add_round(store *s, int64_t tid, int round, const char *stage, const store_table *tables,
                    int ntables, uint64_t tseed, char *err, size_t errlen);

typedef struct store_match {
    int64_t  id;
    int64_t  tournament;
    int      round, tbl;
    uint64_t seed;
    int      lease_gen;
    int      nslots;
    int      entrant[ARB_MAX_SEATS];
} store_match;

/* Claim the next pending match (or one whose lease expired) for `worker`
 * for lease_secs. 1 with *m filled, 0 when none is claimable, or < 0. */
int store_claim(store *s, int64_t tid, const char *worker, int lease_secs, store_match *m,
                char *err, size_t errlen);
/* Extend a lease still held (same generation). 0, or ARB_ESTATE if lost. */
int store_renew(store *s, const store_match *m, int lease_secs);
/* Return every lease held by `worker` to the queue (a restarted local run:
 * its previous workers are gone). Returns how many. */
int store_release_leases(store *s, int64_t tid, const char *worker);

/* Take over a lease a worker says it holds (the scheduler restarted, or
 * the worker's link came back): 1 with *m filled when the match is still
 * under that generation and was leased to this same worker — leased, or
 * returned to the queue and not claimed since (a claim bumps the
 * generation) — and is now leased to it again; 0 when the lease has moved
 * on, was another worker's, or the match is finished; < 0. */
int store_adopt(store *s, int64_t match_id, int gen, const char *worker, int lease_secs, store_match *m);
/* Return one lease to the queue (its worker went silent or handed it
 * back), only if it is still held under that generation — and by holder,
 * when holder is not NULL (a worker hands back only its own lease);
 * leased_by keeps the last holder (it may take the lease back,
 * store_adopt). 1 returned, 0 not (moved on, another's, or finished),
 * < 0 error. */
int store_release(store *s, int64_t match_id, int gen, const char *holder);
/* Who holds a match under generation gen: 1 with its identity in holder,
 * 0 when it is not leased under that generation, < 0 error. */
int store_lease_holder(store *s, int64_t match_id, int gen, char *holder, size_t cap);
/* The connection to the database is up (tried once again if it was not):
 * false is "database lost", the scheduler stops; a statement that failed
 * on a live connection concerns one frame only. */
/* The connection is up as far as libpq knows (no try to make it again). */
bool store_connected_now(store *s);
bool store_connected(store *s);
/* Whether a failure is one to wait out rather than give up on, by its
 * SQLSTATE: class 08 (the connection), class 53 (insufficient resources:
 * 53100 disk full, 53200 out of memory, 53300 too many connections),
 * 57P01..57P03 (the server shuts down, restarts, cannot take
 * connections yet), 40001 and 40P01 (a serialization failure, a
 * deadlock). NULL or "" is not. */
bool store_sqlstate_transient(const char *sqlstate);
/* Whether the last statement on s that failed (since the last one that
 * succeeded) failed for such a passing reason, or the connection is down:
 * the caller tries again later instead of giving the work up. */
bool store_failed_transiently(store *s);
/* That last failure as "SQLSTATE: message" on one line ("" when the last
 * statement succeeded), for a log line where the caller had no message. */
const char *store_last_failure(store *s);
/* The pool as `arbiter status` shows it: a worker said hello, was heard,
 * drains or is gone. state: "connected", "draining" or "gone"; slots and
 * running are set, done, lost and handed_back ADDED to the row's counters
 * (the caller passes what it counted since its last write), so they add
 * up over the worker's reconnections and the scheduler's restarts. */
int store_worker(store *s, const char *name, int slots, const char *state, int running, int64_t done,
                 int64_t lost, int64_t handed_back);
/* The transcript-signing key a worker announced in its hello (hex), kept
 * so that a restarted scheduler can check the results it resends before it
 * says hello again; and read back: 1 found, 0 none, < 0 error. */
int store_worker_key(store *s, const char *name, const char *key_hex);
int store_worker_key_get(store *s, const char *name, char key_hex[65]);
/* A scheduler starting: every worker is gone until heard again. */
int store_workers_reset(store *s);
/* The file a tournament came from (for the scheduler daemon to resume it). */
int store_set_path(store *s, int64_t tid, const char *path);
/* A tournament submitted over the API (no file: its text is the record's):
 * its text (malloc'd, NUL-terminated; free it) and who submitted it. 1
 * found, 0 not one submitted over the API, < 0 error. */
int store_tournament_text(store *s, int64_t tid, char **text, size_t *len, char *by, size_t bylen, char *err,
                          size_t errlen);
/* The oldest tournament still running that is not in skip[]: its id, file
 * and digest. 1 found, 0 none, < 0 error. */
int store_next_running(store *s, const int64_t *skip, int nskip, int64_t *tid, char *path, size_t pathlen,
                       char digest[65]);

/* The referee's signature of a transcript's digest (arb_sign.h), as hex:
 * its public key and the signature, already checked by the caller. */
typedef struct store_signed {
    const char *signer_key, *signature;
} store_signed;
/* Record a finished match — its seats, sides, deals and the penalties it
 * carries (res->penalties, one row each; their notes must be valid text,
 * as the wire's decoder checks) — in one transaction, with the referee's
 * signature (sig NULL: an unsigned transcript): 0; ARB_ESTATE when
 * the lease is stale, held by
 * another worker than holder (when holder is not NULL: the identity the
 * result came from) or the match is already recorded (nothing is written:
 * counted once). body (len bytes; NULL: none) is the transcript itself,
 * already checked against digest by the caller: it is compressed and kept
 * in the transcripts table (store_transcript_put) in the same transaction;
 * transcript names where the worker wrote it (informative). */
int store_record(store *s, const store_match *m, const match_result *res, const char *digest,
                 const char *transcript, const uint8_t *body, size_t len, const store_signed *sig,
                 const char *holder, char *err, size_t errlen);

/* ---- Transcripts in the record (store_transcript.c, docs/transcripts.md) */

/* A transcript compressed for the record: zstd level 3, or as it is
 * ("none") when that is not smaller. */
typedef struct store_packed {
    const char *codec;       /* "zstd" or "none" */
    uint8_t    *body;        /* len bytes, owned */
    size_t      len, raw;    /* stored and raw sizes */
    char        raw_text[24];
} store_packed;
int  store_transcript_pack(const uint8_t *data, size_t len, store_packed *out, char *err, size_t errlen);
void store_packed_release(store_packed *p);
/* Keep a transcript (checked against digest first: ARB_ECORRUPT when its
 * bytes do not hash to it) under its digest; kept already: nothing
 * changes. 0 or < 0 with a message. */
int store_transcript_put(store *s, const char *digest, const uint8_t *data, size_t len, char *err, size_t errlen);
/* The transcript of this digest from the record, decompressed and checked
 * (its raw size, SHA-256 == digest): 0 with *data (malloc'ed) and *len;
 * ARB_ENOTFOUND when the record has none; ARB_ECORRUPT when what it holds
 * is not that transcript (err says how). */
int store_transcript_get(store *s, const char *digest, uint8_t **data, size_t *len, char *err, size_t errlen);
/* A match's transcript as every reader takes it: from the record by
 * digest; else, for a record made before transcripts were kept in it, the
 * file at path (the bound ARB_MAX_TRANSCRIPT); a transcript removed by
 * retention is ARB_ESTATE (its only use here) with "transcript pruned on
 * DATE by retention" in err. The caller frees *data. */
int store_transcript_load(store *s, const char *digest, const char *path, uint8_t **data, size_t *len, char *err,
                          size_t errlen);
/* Retention: remove the transcripts of matches finished more than days
 * ago (of the tournament or ladder name, or of all when NULL), never one
 * of a disputed match (or a result a dispute superseded) nor of a knockout
 * match; each removal noted (transcripts_pruned). */
typedef struct store_prune_counts {
    long long pruned, bytes;   /* removed, and the stored bytes they held */
    long long kept_old;        /* old enough, kept: disputed or knockout */
    long long left;            /* transcripts of the scope still in the record */
} store_prune_counts;
int store_transcript_prune(store *s, const char *name, int days, store_prune_counts *out, char *err, size_t errlen);
/* How much the transcripts take: rows, raw and stored bytes, the table
 * with its TOAST and indexes, and the whole database. */
typedef struct store_tr_sizes {
    long long count, raw, stored, table, database;
} store_tr_sizes;
int store_transcript_sizes(store *s, store_tr_sizes *out, char *err, size_t errlen);
/* A match that cannot be played (a bot that cannot be started is not such
 * a case: it forfeits): 0, or ARB_ESTATE when the lease is stale, another
 * holder's, or the match finished already (nothing is written). */
int store_void(store *s, const store_match *m, const char *why, const char *holder);

/* Matches of a round (-1: all) by state. */
int store_counts(store *s, int64_t tid, int round, int *pending, int *leased, int *done, int *voided);
/* The highest round created so far (0 when none). */
int store_last_round(store *s, int64_t tid);

/* Results of a round, for the next round's pairing: per table, the
 * entrants in finishing order (best first) — or with teams, the teams
 * (match_sides: the game's verdict per side). tables must hold ntables. */
int store_round_results(store *s, int64_t tid, int round, bool teams, store_table *order, int (*rank)[ARB_MAX_SEATS],
                        int64_t (*total)[ARB_MAX_SEATS], int ntables);

typedef struct store_standing {
    int     entrant;
    char    name[ARB_MAX_BOT_NAME + 1];
    int     played, wins;
    double  points;
    int64_t score;
    int     penalties;
    bool    forfeited;
    int     place;              /* store_standings_placed: the recorded placement (0: none) */
    char    reached[32];        /* its stage reached ("" none) */
    char    tiebreak[STORE_NOTE_MAX]; /* how a tie at its table was settled ("" none) */
} store_standing;

/* Standings from the `standings` view (teams: `team_standings`, the
 * team's index in `entrant`), best first. Returns the count. */
int store_standings(store *s, int64_t tid, bool teams, store_standing *rows, int cap);
/* The standings as shown (arbiter run, arbiter standings): the recorded
 * placement first (knockout formats: stage reached, then the tie-break
 * chain, docs/rules/placement.md), then as store_standings. */
int store_standings_placed(store *s, int64_t tid, bool teams, store_standing *rows, int cap);

/* Where a unit (entrant, or team in partnership play) finished in a
 * knockout format (plan_placement). */
typedef struct store_place {
    int  unit;
    int  place;                 /* 1 = champion */
    char reached[32];           /* "champion", "final", "semi-final", "round 2", "group stage" ... */
    char tiebreak[STORE_NOTE_MAX]; /* "" or how a tie at its table was settled */
} store_place;
/* Replace the tournament's placements with pl[0..n) and file each of
 * ties[0..nties) as a `tie-break` event once (a transaction). 0 or < 0. */
int store_placements(store *s, int64_t tid, bool teams, const store_place *pl, int n, const char (*ties)[STORE_NOTE_MAX],
                     int nties, char *err, size_t errlen);
int store_event(store *s, int64_t tid, const char *kind, const char *detail);
/* An event about a match, filed under its tournament. */
int store_match_event(store *s, int64_t match_id, const char *kind, const char *detail);
/* The tournament `name` selects — "#ID" the one of that id, anything
 * else the latest of that name (docs/cli.md): 1 with its id, seed and
 * whether its secret is revealed (it is over), 0 none, < 0 error. */
int store_tournament_named(store *s, const char *name, int64_t *tid, uint64_t *seed, bool *revealed);

/* A tournament's format as recorded ("ladder", "round-robin", ...): 1
 * found, 0 none, < 0 error. */
int store_tournament_format(store *s, int64_t tid, char *format, size_t len);

/* The reports `arbiter status` and `arbiter verify` print, as text cells
 * (every column as PostgreSQL renders it; the caller escapes them for a
 * terminal). */
typedef enum store_report_kind {
    STORE_REPORT_TOURNAMENTS,   /* id, name, format, state, pending, leased, done, void, round, created, game */
    STORE_REPORT_SECRETS,       /* name, commitment ("" none yet), secret ("" sealed until it is over) */
    STORE_REPORT_POOL,          /* worker, slots, state, running, done, lost, handed back, last heard (200 at most) */
    STORE_REPORT_DONE_BY_WORKER,/* tournament, worker, matches done */
    STORE_REPORT_VOIDS,         /* tournament, round, table, worker, reason (the last 10) */
    STORE_REPORT_DONE_MATCHES,  /* of tournament tid: round, table, transcript, digest */
    STORE_REPORT_TEAM_CROSSTABLE,/* of tournament tid: team, opponent (teams.idx), matches, won, points */
    STORE_REPORT_RATINGS,       /* of tid: entrant, name, mu, sigma, vol, games, system, model, updated */
    STORE_REPORT_RATING_HISTORY,/* of tid, in the order applied: match, entrant, rank, side, mu, sigma, vol after */
    STORE_REPORT_LADDER,        /* of tid, by entrant: entrant, name, base, version, status, verdict, mu, sigma,
                                   vol, games (mu/sigma/vol "" when unrated), last active and joined (epoch
                                   seconds; "" never), previous version's name, validation match, digest,
                                   the database's clock (epoch seconds), rating system, model, provisional
                                   games, inactive days */
    STORE_REPORT_MATCHES,       /* of tid, a row per seat by round, table, slot: match id, round, table, state,
                                   transcript, digest, slot, entrant name, total, points, rank ("" none yet) */
    STORE_REPORT_CROSSTABLE,    /* of tid: entrant, opponent (names), matches, points, score (done matches) */
    /* (these three: tid is a match id) */
    STORE_REPORT_MATCH,         /* a row per seat: tournament, round, table, state, transcript, digest, void
                                   reason, slot, entrant, total, points, rank, forfeited, penalties */
    STORE_REPORT_MATCH_DEALS,   /* game, deal, seating, seat slots, scores (per seat, comma-separated),
                                   forfeit slot ("" none) */
    STORE_REPORT_MATCH_PENALTIES,/* n, game, decision, slot, reason, consequence, note */
    /* (every kind from STORE_REPORT_DONE_MATCHES on is of one tournament or match) */
} store_report_kind;
/* The reports DONE_MATCHES, TEAM_CROSSTABLE, RATINGS, RATING_HISTORY and
 * LADDER list their columns once, in store_cols.h: index their rows by
 * its names (STORE_LADDER_MU), never by a number. */
/* A row of the audit log (018_accounts.sql) waiting for a write's commit. */
typedef struct store_audit {
    char account[ARB_ACCOUNT_MAX_NAME + 8], action[32], target[300], detail[1024], address[64];
} store_audit;

typedef struct store_rows {
    int    nrows, ncols;
    char **cell;                /* nrows * ncols, row by row (owned) */
} store_rows;
/* 0 with *out filled (store_rows_release), or < 0 with a message. tid:
 * for the reports of one tournament. */
int store_report(store *s, store_report_kind kind, int64_t tid, store_rows *out, char *err, size_t errlen);
const char *store_cell(const store_rows *r, int row, int col);
void store_rows_release(store_rows *r);

/* ---- ladders (store_ladder.c; docs/ladders.md) --------------------------- */

/* An entry joining a ladder: a name (versions share it), its command and
 * files as given in directory dir, its program's digest (NULL: no file of
 * its own), and whether it waits for a validation match (false: active at
 * once, the organiser's entries from the file). replace: once validated,
 * the previous version retires. */
typedef struct store_ladder_entry_in {
    const char *base, *command, *files, *dir, *digest;
    bool validate, replace;
    int  entrant;               /* the file's entrants: their index (they exist already); -1: a new one */
    int64_t startup_ms;         /* its declared start-up budget (0: the ladder's clock.startup_ms); a
                                   validated join past the ladder's limit is refused (ARB_EINVAL) */
    const char *env;            /* its declared variables, "NAME=value\n" each (checked by
                                   match_env_add before), NULL or "": none */
} store_ladder_entry_in;
/* Add an entry (a transaction; the ladder's row locked so joins queue):
 * its version (1 + the latest of its name) and entrant name (base, or
 * base.vN from version 2) into *version and name. ARB_ESTATE when the
 * tournament is no ladder or is over, ARB_ETOOBIG at
 * ARB_LADDER_MAX_ENTRIES, ARB_EINVAL for a name that is taken. The
 * file's entries (entrant >= 0) are idempotent: a resume adds nothing. */
int store_ladder_join(store *s, int64_t tid, const store_ladder_entry_in *j, int *version, char *name, size_t namelen,
                      char *err, size_t errlen);
/* Retire the entry called name (an entrant name: base or base.vN): it
 * plays no new match; its matches in flight finish and are rated. 1
 * retired, 0 no such entry still playing, < 0 error. */
int store_ladder_retire(store *s, int64_t tid, const char *name, char *err, size_t errlen);
/* An entry's new state with its verdict (validation, suspension); made
 * active with replaces set, the version before it retires. 0 or < 0. */
int store_ladder_set(store *s, int64_t tid, int entrant, const char *status, const char *verdict);

/* What the leaderboard reads of the ladder's file, and the longest
 * start-up budget a join may declare (tn_startup_max): 0 or < 0. */
int store_ladder_settings(store *s, int64_t tid, int provisional, int inactive_days, int64_t startup_max);
/* The entries' programs as the scheduler starts them, from entrant `from`
 * on: columns STORE_PROGRAMS_* (store_cols.h). */
int store_ladder_programs(store *s, int64_t tid, int from, store_rows *out, char *err, size_t errlen);
/* Entries waiting for validation: entrant, validation match ("" none yet),
 * its state, the entry's penalties in it, whether it forfeited, the void
 * reason, deals played, the first penalty's reason and consequence, its
 * transcript (columns STORE_PENDING_*, store_cols.h). */
int store_ladder_pending(store *s, int64_t tid, store_rows *out, char *err, size_t errlen);

/* What matchmaking reads of an active entry (ladder.h's ladder_entry with
 * the record's numbers; mu/sigma NAN while unrated). */
/* What a ladder's matchmaking must know that changed since change number
 * `since` (007_changes.sql; 0: everything), one fact per row, columns
 * kind, entrant, status, recent, seats, number, changed, mu, sigma, games:
 *   e  an entry's row: status, recent opponents and seat counts as array
 *      text ("{3,1}"), number = its last start (epoch seconds, -1: never);
 *   r  its rating: mu, sigma, games;
 *   f  the matches it is in now (pending or leased): number;
 *   h  the ladder matches it started in the last hour (only when rate):
 *      number;
 *   n  the database's clock: number (epoch seconds).
 * changed is the row's change number (e, r). Columns STORE_CHANGES_*
 * (store_cols.h). 0 or < 0 with a message. */
int store_ladder_changes(store *s, int64_t tid, int64_t since, bool rate, store_rows *out, char *err, size_t errlen);
/* Create a ladder's round `round`: one table (entrant per slot), the match
 * seed from tseed as store_add_round's; stage "ladder" (rated; each entry's
 * recent opponents, seats (pos[slot]: the seat or side it counts as) and
 * last start updated) or "validation" (never rated; the entry's
 * validation_match set to it — the entry is table->entrant[0]). note: the
 * choice's seed and reasons. Idempotent: a round created before is left.
 * 0 or < 0. */
int store_ladder_add(store *s, int64_t tid, int round, const char *stage, const store_table *table, const int *pos,
                     uint64_t tseed, const char *note, char *err, size_t errlen);
/* Ladder matches (stage "ladder") in flight (pending or leased), the
 * ladder's matches of every stage pending and leased, and, when created is
 * not NULL, ladder matches created in all (a scan of the ladder's rounds:
 * once, at its start); 0 or < 0. */
int store_ladder_counts(store *s, int64_t tid, int *in_flight, int *pending, int *leased, int64_t *created);
/* An entry's rating history in the order applied: match, round, rank,
 * mu, sigma, vol after, when. */
int store_ladder_history(store *s, int64_t tid, int entrant, store_rows *out, char *err, size_t errlen);

/* Disputes (store_dispute.c; docs/disputes.md). Open one on a finished
 * match: its id; ARB_ENOTFOUND (no such match), ARB_ESTATE (not finished,
 * or one is open already), with a message. */
int store_dispute_open(store *s, int64_t match, const char *by, const char *reason, int64_t *dispute, char *err,
                       size_t errlen);
typedef enum store_verdict { STORE_UPHOLD, STORE_VOID, STORE_RERUN } store_verdict;
/* Resolve match's open dispute, in one transaction: upheld, nothing
 * changes; voided or rerun, its result (and every later match of a format
 * planned from results) copied into `superseded`, the later matches
 * removed for planning again, the match void or pending again (attempt + 1:
 * the same seeds), every rating of the tournament derived again, a
 * finished tournament running again when something must be played. What
 * changed in summary. 0, ARB_ENOTFOUND, ARB_ESTATE (no open dispute), or
 * < 0, with a message. */
int store_dispute_resolve(store *s, int64_t match, store_verdict v, const char *by, const char *reason, char *summary,
                          size_t sumlen, char *err, size_t errlen);
/* The record's evidence on a match, in six parts (store_rows each):
 *   0 the match: id, tournament, round, table, state, attempt, digest,
 *     transcript, games, decisions, wall ms, error, finished, worker,
 *     match seed, tournament seed, tournament id;
 *   1 seats: slot, entrant, total, rank, forfeited, decisions, wall ns,
 *     cpu ns, strikes, penalties, sandbox;
 *   2 deals: game, deal, seating, seed, seat slots, scores, forfeit slot;
 *   3 penalties: n, game, decision, slot, reason, consequence, note;
 *   4 disputes: id, opened, by, reason, state, resolved, by, resolution;
 *   5 superseded results: id, attempt, why, when, digest, transcript.
 * 0, ARB_ENOTFOUND, or < 0. */
#define STORE_EVIDENCE_PARTS 6
int store_dispute_evidence(store *s, int64_t match, store_rows out[STORE_EVIDENCE_PARTS], char *err, size_t errlen);
/* Disputes of tournament tid (0: all): id, match, tournament, round,
 * table, state, opened by, opened, reason, resolution. */
int store_dispute_list(store *s, int64_t tid, store_rows *out, char *err, size_t errlen);
/* The same, only those opened by `by` when by is not NULL (an API
 * account's own). */
int store_dispute_list_by(store *s, int64_t tid, const char *by, store_rows *out, char *err, size_t errlen);
/* The match of dispute id: 1 found (*match, *open whether it is open),
 * 0 none, < 0. */
int store_dispute_match(store *s, int64_t id, int64_t *match, bool *open, char *err, size_t errlen);

/* The tournament is done: its state, finished_at, and revealed_at (from
 * now on its secret is shown). */
int store_finish(store *s, int64_t tid);

/* ---- programs (store_program.c; 017_programs.sql) ------------------------ */

/* Keep a program bundle (proto/bundle.h) under its digest, compressed
 * (zstd): checked against the digest first; kept once (content-addressed:
 * a digest already there is left as it is). 0, ARB_ECORRUPT (the bytes
 * are not the digest's), ARB_EINVAL, or ARB_EIO, with a message. */
int store_program_put(store *s, const char *digest, const uint8_t *b, size_t len, char *err, size_t errlen);
/* The bundle of that digest, uncompressed and checked against it: 1 with
 * *out (malloc'ed, the caller frees) and *len; 0 when the record has none;
 * ARB_ECORRUPT (it does not decompress to its size or digest), ARB_ETOOBIG
 * (over ARB_WIRE_MAX_BUNDLE) or ARB_EIO, with a message. */
int store_program_get(store *s, const char *digest, uint8_t **out, size_t *len, char *err, size_t errlen);
/* Which program an entrant plays and where it goes in its command:
 * argument argi[k] of the command is the bundle's file path[k]. */
typedef struct store_entrant_prog {
    char digest[65];
    int  nfiles;
    int  argi[ARB_MAX_BOT_ARGS];
    char path[ARB_MAX_BOT_ARGS][ARB_BUNDLE_MAX_PATH + 1];
} store_entrant_prog;
/* Record it for entrant `entrant` of tournament tid (its bundle is in
 * programs already): the first one recorded stays (a later call changes
 * nothing). 0 or < 0 with a message. */
int store_entrant_program_put(store *s, int64_t tid, int entrant, const store_entrant_prog *p, char *err,
                              size_t errlen);
/* Whether the latest tournament called name from the file of that digest
 * (the one a run of that file resumes) has entrant's program recorded: 1
 * yes, 0 no, < 0 error. */
int store_program_recorded(store *s, const char *name, const char *config_digest, int entrant);
/* The recorded one: 1 with *p filled, 0 none, < 0 with a message. */
int store_entrant_program_get(store *s, int64_t tid, int entrant, store_entrant_prog *p, char *err, size_t errlen);

/* ---- a tournament's record out and in (store_archive.c; arbiter export,
 * arbiter import; docs/operations.md "Archiving") ------------------------ */

/* The highest migration applied to the record (its schema's version). */
int store_schema_version(store *s, int *version, char *err, size_t errlen);
/* Where the members of an export go, one at a time, in order: 0, or an
 * error with a message (the export stops). */
typedef int (*store_sink)(void *ctx, const char *member, const void *data, size_t len, char *err, size_t errlen);
typedef struct store_export_info {
    char name[ARB_TN_MAX_NAME + 1];
    char state[16];           /* running, done */
    bool revealed;            /* its secret is in the archive (the tournament is over) */
    int  schema;              /* the record's schema version */
    int  programs, transcripts;
} store_export_info;
/* Tournament tid, from one repeatable-read snapshot, as members to sink in
 * the order an import reads them: "record/TABLE.NNNNNN.json" (a JSON array
 * of the table's rows as to_jsonb writes them, at most
 * ARB_ARCHIVE_CHUNK_ROWS each; an empty table is one "[]") for tournaments,
 * teams, entrants, rounds, matches, match_seats, match_sides, deals,
 * penalties, ratings, rating_history, ladder_entries, disputes, superseded,
 * placements and events; "programs/DIGEST" (each bundle its entrants play,
 * its bytes, checked against its digest); entrant_programs's rows;
 * "transcripts/DIGEST" (each transcript of its matches and superseded
 * results the record holds, its bytes: the record does not parse them, the
 * caller checks their digest, tr_check_digest). The secret only when
 * revealed. 0 with *info, or < 0 with a message. */
int store_export(store *s, int64_t tid, store_sink sink, void *ctx, store_export_info *info, char *err,
                 size_t errlen);
/* An import: one transaction, begun here, into which the members go in
 * the order store_export gives them (store_import_member: each checked —
 * its name, its place in the order, its rows' columns against this
 * record's, a program against its digest (a transcript's digest is the
 * caller's to check: tr_check_digest) — with the
 * record's ids drawn anew and every reference mapped; a tournament whose
 * name the record has already is refused, ARB_EEXIST), then committed or
 * rolled back (store_import_end: commit false, or a member that failed,
 * writes nothing; *tid is the new tournament's id once committed). */
typedef struct store_import store_import;
store_import *store_import_begin(store *s, char *err, size_t errlen);
int store_import_member(store_import *im, const char *member, const uint8_t *data, size_t len, char *err,
                        size_t errlen);
/* The name in the tournament's row taken ("" before it). */
const char *store_import_name(const store_import *im);
/* archive_sha: the archive file's SHA-256 (hex), said in the `imported`
 * event written on the new tournament with the distinct signer keys its
 * matches' and superseded results' transcripts carry. */
int store_import_end(store_import *im, bool commit, const char *archive_sha, int64_t *tid, char *err,
                     size_t errlen);

/* ---- the web pages (store_web.c; docs/web.md) ----------------------------- */

/* What the pages read besides store_report's reports, as text cells. id is
 * a tournament's (a match's for STORE_WEB_MATCH); arg as each says. */
typedef enum store_web_kind {
    STORE_WEB_TOURNAMENT,       /* id, name, game, rules, format, state, created, finished ("" not yet),
                                   rating system, commitment, secret ("" sealed), has teams (t/f) */
    STORE_WEB_SEATS,            /* a row per seat by round, table, slot: match id, round, stage, table, state,
                                   slot, entrant index, name, total, points, rank ("" not yet) */
    STORE_WEB_ENTRANT,          /* arg: the entrant's index: index, name, seed rank, team ("" none) */
    STORE_WEB_ENTRANT_PENALTIES,/* arg: the entrant's index: match id, round, table, game, decision, reason,
                                   consequence */
    STORE_WEB_MATCH,            /* id is a match: id, tournament id, tournament name, round, table, state,
                                   digest, transcript, void reason, games, decisions, wall ms, finished,
                                   worker, signer key, signature ("" when unsigned or not recorded), format,
                                   stderr private to the public (t/f), private match (t/f: a validation
                                   match when the record has accounts) */
    STORE_WEB_PROGRESS,         /* tournament state, pending, leased, done, void, last round, the last
                                   result's time (UTC, microseconds; "" none) */
    STORE_WEB_RESULTS_SINCE,    /* arg: a time as PROGRESS gives it: a row per seat of the first 50 matches
                                   done after it: match id, round, table, finished, slot, name, total,
                                   points, rank */
    STORE_WEB_HISTORY,          /* arg: entrant indexes as an array ("{1,5}"): entrant, match, mu, sigma */
    STORE_WEB_ENTRANT_SEATS,    /* arg: the entrant's index: STORE_WEB_SEATS of the matches it played in */
    STORE_WEB_TEAM_SEATS,       /* partnership play: STORE_WEB_SEATS with a row per team (side) of each match:
                                   slot its members' first, entrant the team's index, name the team's, total,
                                   points and rank its side's ("" not yet) */
    STORE_WEB_LADDER_BEFORE,    /* arg: N: each entrant rated in the ladder's last N done matches, with its
                                   rating before the first of them: entrant, mu, sigma, vol ("" none), the
                                   rated matches of its among them */
    STORE_WEB_LADDER_FORM,      /* arg: N: the results of each entrant in the ladder's last N done matches,
                                   its latest ARB_WEB_FORM, oldest first: entrant, "W" (first at its table),
                                   "L" (last) or "D" (neither: all level, or a middle place) */
} store_web_kind;
int store_web(store *s, store_web_kind kind, int64_t id, const char *arg, store_rows *out, char *err, size_t errlen);
/* The record's change number into out (the PostgreSQL write-ahead log's
 * position, text): unchanged exactly while nothing was committed, so the
 * web server keys its cached pages by it. 0 or < 0 with a message. */
int store_web_change(store *s, char *out, size_t cap, char *err, size_t errlen);
/* Every later transaction of this connection read only (the web server's
 * session: it never writes). 0 or ARB_EIO. */
int store_read_only(store *s, char *err, size_t errlen);


/* ---- Open tournaments' registrations (store_registration.c) ---------- */

/* A registration: an entrant's name and command, who registered it (the
 * account over the API, NULL for `arbiter register`), and its program:
 * the bundle (checked already: proto/bundle.h) with where its files go in
 * the command. */
typedef struct store_registration_in {
    const char *name, *command, *account;
    const uint8_t *bundle;
    size_t len;
    const store_entrant_prog *prog;
} store_registration_in;
/* Add it (one transaction under the tournament's row lock, with its
 * program and a `registration` event): *id. ARB_ENOTFOUND no such
 * tournament or one without registration:, ARB_ESTATE closed (the
 * deadline passed, or it started, or it is over), ARB_ETOOBIG full
 * (max_entrants), ARB_ERANGE the account holds per_account already,
 * ARB_EEXIST the name is taken; each with a message. */
int store_registration_add(store *s, int64_t tid, const store_registration_in *in, int64_t *id, char *err,
                           size_t errlen);
typedef struct store_reg_state {
    bool    has;                /* the tournament takes registrations */
    bool    open;               /* still: before the deadline, not full, not closed */
    bool    closed;             /* the scheduler closed it: the registered are entrants */
    int64_t until;              /* the deadline, Unix seconds */
    int     registered, max;
} store_reg_state;
/* 1 found (into *st), 0 no such tournament, < 0 error. */
int store_registration_state(store *s, int64_t tid, store_reg_state *st, char *err, size_t errlen);
/* Close it (once: a later call only reads): the registered become
 * entrants nfile, nfile + 1, ... ordered by SHA-256(secret || "arbiter
 * registration order " || name), each with its program in
 * entrant_programs. Then every registered entrant: columns entrant
 * (idx), name, command, by idx. 0 or < 0. */
int store_registration_close(store *s, int64_t tid, int nfile, store_rows *out, char *err, size_t errlen);
/* An open tournament that cannot start (too few entrants): done, with
 * why (shown by status and the pages) and a `not-started` event. */
int store_not_started(store *s, int64_t tid, const char *why);
/* Its registrations in the order they came: id, name, account ("" none),
 * digest, registered_at (UTC), entrant ("" until closed). */
int store_registrations(store *s, int64_t tid, store_rows *out, char *err, size_t errlen);
/* A JSON object from outside (a request's body, len bytes, no NUL) read
 * by the record's own parser: its members as rows key, type (jsonb_typeof:
 * number, string, ...), value as text. 0; ARB_EINVAL (not JSON, or not
 * an object) with a message; < 0. */
int store_json_object(store *s, const char *json, size_t len, store_rows *out, char *err, size_t errlen);
/* ---- accounts and the participant API (store_account.c; 018_accounts.sql,
 * docs/api.md) ------------------------------------------------------------ */

typedef enum store_role { STORE_PARTICIPANT, STORE_ARBITER, STORE_ORGANISER } store_role;
/* "participant" ... and back: 0, or ARB_EINVAL. */
const char *store_role_name(store_role r);
int store_role_parse(const char *s, store_role *r);
/* A token: "arb1_" and 64 lowercase hex digits (256 random bits,
 * libsodium); its SHA-256 as 64 hex digits, all the record keeps. */
#define STORE_TOKEN_LEN 69
void store_token_new(char token[STORE_TOKEN_LEN + 1]);
bool store_token_wellformed(const char *token);
void store_token_hash(const char *token, char hash[65]);
/* An account's name: 1..ARB_ACCOUNT_MAX_NAME of [a-z0-9_-], a letter or
 * digit first. */
bool store_account_name_ok(const char *name);
/* Quotas; -1: the default of arb_limits.h. */
typedef struct store_quota {
    long long uploads_today, uploads_per_day, bytes_today, bytes_per_day, entries, entries_max;
} store_quota;
/* Add an account with the token's hash; by: who did it, audited. 0,
 * ARB_EEXIST (the name is taken), or < 0 with a message. */
int store_account_add(store *s, const char *name, store_role role, const store_quota *q, const char *hash,
                      const char *by, char *err, size_t errlen);
/* name, role, created, last used ("" never), revoked ("" no), uploads a
 * day, bytes a day, entries ("" default): 0 or < 0. */
int store_account_list(store *s, store_rows *out, char *err, size_t errlen);
/* Revoke (1 done, 0 no such account or revoked already) or give a new
 * token's hash (1, 0 no such account; a revoked one is not rotated): the
 * old token refused from the commit on. Audited. < 0 with a message. */
int store_account_revoke(store *s, const char *name, const char *by, char *err, size_t errlen);
int store_account_rotate(store *s, const char *name, const char *hash, const char *by, char *err, size_t errlen);

/* The web's database role (018_accounts.sql): SET ROLE arbiter_web on s.
 * 0; ARB_ENOTFOUND when there is no such role, ARB_ESTATE (or another < 0)
 * when this login may not take it, with a message. */
int store_web_role(store *s, char *err, size_t errlen);
/* Whether the record has accounts (the API is on): 1, 0, < 0. */
int store_api_on(store *s);
/* An account as a request's token names it. */
typedef struct store_account {
    int64_t    id;
    char       name[ARB_ACCOUNT_MAX_NAME + 1];
    store_role role;
    bool       revoked;
} store_account;
/* The account of a token hash, its stored hash compared in constant time:
 * 1 found and not revoked, 0 none (or revoked), < 0 error. */
int store_api_auth(store *s, const char *hash, store_account *a, char *err, size_t errlen);
/* The account's quotas and today's use, defaults filled from arb_limits.h. */
int store_api_quota(store *s, int64_t account, store_quota *q, char *err, size_t errlen);
/* The audit row of the next write on s: store_registration_add,
 * store_dispute_open, store_dispute_resolve and store_tournament write it
 * in their own transaction, just before COMMIT (so a write and its row
 * are both in the record or neither is); spent by that commit or by the
 * write's failure (store_audit_drop). Fields are cut to the log's bounds. */
void store_audit_next(store *s, const char *account, const char *action, const char *target, const char *detail,
                      const char *address);
void store_audit_drop(store *s);
/* An audit row on its own (a refusal after auth; the writes audit in
 * their own transaction). */
int store_api_audit(store *s, const char *account, const char *action, const char *target, const char *detail,
                    const char *address, bool ok);
/* A join through the API, with its uploaded bundle b (len bytes, checked
 * by the caller; its digest given), argi/paths as store_entrant_prog's.
 * 0 with the new entry's name and version; else the refusal's HTTP status
 * (400, 401, 404, 409, 429) or < 0, with a message in err. */
typedef struct store_api_join_in {
    int64_t     account;
    const char *ladder, *base, *command, *digest, *address;
    const uint8_t *bundle;
    size_t      len;
    const store_entrant_prog *prog;
    bool        replace;
    int64_t     startup_ms;        /* its start-up budget (0: the ladder's), checked against the ladder's limit */
    const char *env;               /* "NAME=value\n" each, checked (match_env_check); NULL or "" none */
} store_api_join_in;
int store_api_join(store *s, const store_api_join_in *j, char *entry, size_t entrylen, int *version, char *err,
                   size_t errlen);
/* Retire an entry (the account's own; any when any): 0, or the HTTP
 * status (404, 409) or < 0 with a message. */
int store_api_retire(store *s, int64_t account, bool any, const char *ladder, const char *entry,
                     const char *address, char *err, size_t errlen);
/* The entries of an account (all: every uploaded or owned one): ladder,
 * entry, base, version, status, verdict, validation match ("" none), mu,
 * sigma, games ("" unrated), matches played, joined (ISO 8601), retired
 * ("" none), owner. Columns STORE_API_ENTRY_* below. */
enum { STORE_API_ENTRY_LADDER, STORE_API_ENTRY_NAME, STORE_API_ENTRY_BASE, STORE_API_ENTRY_VERSION,
       STORE_API_ENTRY_STATUS, STORE_API_ENTRY_VERDICT, STORE_API_ENTRY_VALIDATION, STORE_API_ENTRY_MU,
       STORE_API_ENTRY_SIGMA, STORE_API_ENTRY_GAMES, STORE_API_ENTRY_MATCHES, STORE_API_ENTRY_JOINED,
       STORE_API_ENTRY_RETIRED, STORE_API_ENTRY_OWNER, STORE_API_ENTRY_NCOLS };
int store_api_entries(store *s, int64_t account, bool all, store_rows *out, char *err, size_t errlen);
/* One entry of ladder by name: its tournament id, entrant index and owner
 * account (0 none): 1 found, 0 none, < 0. */
int store_api_entry(store *s, const char *ladder, const char *entry, int64_t *tid, int *entrant, int64_t *owner,
                    char *err, size_t errlen);
/* The matches of entrant in tid, latest first (at most ARB_API_LOG_MATCHES;
 * match > 0: that one only): match id, stage (validation|ladder), the
 * entrant's slots ("{0,2}"), digest, transcript path, state. */
int store_api_entry_matches(store *s, int64_t tid, int entrant, int64_t match, store_rows *out, char *err,
                            size_t errlen);
/* A match's seats and their owners: slot, entrant, owner account (""
 * none: a ladder entry's account, or the account that registered the
 * entrant of an open tournament), the match's stage, its tournament's id. */
int store_api_match_owners(store *s, int64_t match, store_rows *out, char *err, size_t errlen);

#endif
