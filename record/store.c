/* store.c — the tournament record in PostgreSQL (store.h). */
#include "store_int.h"
#include "arb_num.h"
#include "rating.h"
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The migrations, embedded at build time from record/sql (migrations.c). */
extern const char *const arb_migrations[];
extern const int arb_migration_versions[];
extern const int arb_nmigrations;

static int fail_msg(char *err, size_t errlen, const char *what, const char *detail)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: %s", what, detail);
    return ARB_EIO;
}

store *store_open(const char *conninfo, char *err, size_t errlen)
{
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->db = PQconnectdb(conninfo);
    if (PQstatus(s->db) != CONNECTION_OK) {
        fail_msg(err, errlen, "database", PQerrorMessage(s->db));
        store_close(s);
        return NULL;
    }
    PQclear(PQexec(s->db, "SET client_min_messages = warning"));
    return s;
}

void store_close(store *s)
{
    if (!s)
        return;
    PQfinish(s->db);
    free(s);
}

/* The SQLSTATE of a failed result kept on s (store_failed_transiently);
 * a failure libpq makes itself (the connection is gone: no result, or one
 * without a SQLSTATE) is 08006, connection failure. */
static void note_failure(store *s, const PGresult *r)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorMessage(r) : "";
    snprintf(s->sqlstate, sizeof s->sqlstate, "%s", state && state[0] ? state : "08006");
    snprintf(s->failure, sizeof s->failure, "%s: %s", s->sqlstate, msg && msg[0] ? msg : PQerrorMessage(s->db));
    for (char *c = s->failure; *c; c++)   /* PostgreSQL's messages have lines: one log line */
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
}

/* A statement's result, or NULL (cleared) with err set when it failed. */
PGresult *store__checked(store *s, PGresult *r, char *err, size_t errlen)
{
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        note_failure(s, r);
        fail_msg(err, errlen, "database", r ? PQresultErrorMessage(r) : PQerrorMessage(s->db));
        PQclear(r);
        return NULL;
    }
    s->sqlstate[0] = 0;
    return r;
}

bool store_sqlstate_transient(const char *state)
{
    if (!state || strlen(state) != 5)
        return false;
    return strncmp(state, "08", 2) == 0 || strncmp(state, "53", 2) == 0 || strcmp(state, "57P01") == 0
           || strcmp(state, "57P02") == 0 || strcmp(state, "57P03") == 0 || strcmp(state, "40001") == 0
           || strcmp(state, "40P01") == 0;
}

const char *store_last_failure(store *s)
{
    return s->sqlstate[0] ? s->failure : "";
}

bool store_failed_transiently(store *s)
{
    return PQstatus(s->db) != CONNECTION_OK || store_sqlstate_transient(s->sqlstate);
}

PGresult *store__q(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params)
{
    return store__checked(s, PQexecParams(s->db, sql, n, NULL, params, NULL, NULL, 0), err, errlen);
}

PGresult *store__qp(store *s, int k, char *err, size_t errlen, const char *sql, int n, const char *const *params)
{
    char name[16];
    snprintf(name, sizeof name, "arb_%d", k);
    if (k < 0 || k >= 64)
        return q(s, err, errlen, sql, n, params);
    if (!(s->prepared & (1ull << k))) {
        PGresult *r = store__checked(s, PQprepare(s->db, name, sql, n, NULL), err, errlen);
        if (!r)
            return NULL;
        PQclear(r);
        s->prepared |= 1ull << k;
    }
    return store__checked(s, PQexecPrepared(s->db, name, n, params, NULL, NULL, 0), err, errlen);
}

int store__pipe_begin(store_pipe *p, store *s, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    if (PQenterPipelineMode(s->db) != 1)
        return fail_msg(err, errlen, "database", PQerrorMessage(s->db));
    return 0;
}

int store__pipe_send(store_pipe *p, int k, const char *sql, int n, const char *const *params)
{
    if (p->broken || p->n + 2 > STORE_PIPE_MAX) {
        p->broken = true;
        return -1;
    }
    char name[16];
    snprintf(name, sizeof name, "arb_%d", k);
    bool prepared = k >= 0 && k < 64;
    if (prepared && !(p->s->prepared & (1ull << k))) {
        if (PQsendPrepare(p->s->db, name, sql, n, NULL) != 1) {
            p->broken = true;
            return -1;
        }
        p->prep[p->n++] = k;
    }
    int ok = prepared ? PQsendQueryPrepared(p->s->db, name, n, params, NULL, NULL, 0)
                      : PQsendQueryParams(p->s->db, sql, n, NULL, params, NULL, NULL, 0);
    if (ok != 1) {
        p->broken = true;
        return -1;
    }
    p->prep[p->n] = -1;
    return p->n++;
}

int store__pipe_end(store_pipe *p, char *err, size_t errlen)
{
    PGconn *db = p->s->db;
    int rc = 0;
    if (p->broken)
        rc = fail_msg(err, errlen, "database", PQerrorMessage(db));
    if (PQpipelineSync(db) != 1) {
        if (!rc)
            rc = fail_msg(err, errlen, "database", PQerrorMessage(db));
        PQexitPipelineMode(db);
        return rc;
    }
    for (int i = 0; i < p->n; i++) {
        PGresult *r = PQgetResult(db);
        if (!r) {   /* the connection is gone */
            if (!rc)
                rc = fail_msg(err, errlen, "database", PQerrorMessage(db));
            note_failure(p->s, NULL);
            break;
        }
        PGresult *end;
        while ((end = PQgetResult(db)) != NULL)   /* each statement's results end with NULL */
            PQclear(end);
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
            if (p->prep[i] >= 0)
                p->s->prepared |= 1ull << p->prep[i];
        } else if (!rc) {
            if (st != PGRES_PIPELINE_ABORTED)
                note_failure(p->s, r);
            rc = fail_msg(err, errlen, "database",
                          st == PGRES_PIPELINE_ABORTED ? "a statement before it failed" : PQresultErrorMessage(r));
        }
        p->res[i] = r;
    }
    PGresult *r;
    while ((r = PQgetResult(db)) != NULL) {   /* the sync's own result */
        bool sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (sync)
            break;
    }
    if (PQexitPipelineMode(db) != 1 && !rc)
        rc = fail_msg(err, errlen, "database", PQerrorMessage(db));
    if (rc == 0)
        p->s->sqlstate[0] = 0;
    return rc;
}

void store__pipe_release(store_pipe *p)
{
    for (int i = 0; i < p->n; i++)
        PQclear(p->res[i]);
    memset(p->res, 0, sizeof p->res);
}

int store__arr_put(arb_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = arb_buf_putc(b, b->len ? ',' : '{') ? ARB_ENOMEM : arb_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

int store__arr_text(arb_buf *b, const char *text)
{
    int rc = arb_buf_putc(b, b->len ? ',' : '{') || arb_buf_putc(b, '"');
    for (const char *c = text; *c && !rc; c++)
        rc = (*c == '"' || *c == '\\' ? arb_buf_putc(b, '\\') : 0) || arb_buf_putc(b, *c);
    return rc || arb_buf_putc(b, '"') ? ARB_ENOMEM : 0;
}

int store__arr_close(arb_buf *b)
{
    return (b->len ? arb_buf_putc(b, '}') : arb_buf_puts(b, "{}")) ? ARB_ENOMEM : 0;
}

int store__exec0(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params)
{
    PGresult *r = store__q(s, err, errlen, sql, n, params);
    if (!r)
        return ARB_EIO;
    PQclear(r);
    return 0;
}

void store__rollback(store *s)
{
    s->audit_pending = false;
    PQclear(PQexec(s->db, "ROLLBACK"));
}

void store_audit_next(store *s, const char *account, const char *action, const char *target, const char *detail,
                      const char *address)
{
    store_audit *a = &s->audit;
    snprintf(a->account, sizeof a->account, "%s", account ? account : "");
    snprintf(a->action, sizeof a->action, "%s", action ? action : "");
    snprintf(a->target, sizeof a->target, "%s", target ? target : "");
    snprintf(a->detail, sizeof a->detail, "%s", detail ? detail : "");
    snprintf(a->address, sizeof a->address, "%s", address ? address : "");
    s->audit_pending = true;
}

void store_audit_drop(store *s) { s->audit_pending = false; }

int store__commit(store *s, char *err, size_t errlen)
{
    if (s->audit_pending) {
        s->audit_pending = false;
        const store_audit *a = &s->audit;
        const char *p[] = {a->account, a->action, a->target, a->detail, a->address};
        if (exec0(s, err, errlen,
                  "INSERT INTO audit_log (account, action, target, detail, address) VALUES ($1, $2, $3, $4, $5)", 5,
                  p)) {
            rollback(s);
            return ARB_EIO;
        }
    }
    if (exec0(s, err, errlen, "COMMIT", 0, NULL)) {
        rollback(s);
        return ARB_EIO;
    }
    return 0;
}

/* Apply the migrations not yet applied, the caller holding the migration
 * lock, all in ONE transaction with their version rows and
 * schema_migrations itself: a process killed part way (SIGKILL during a
 * first start) leaves the record as it was, never half migrated (009
 * applied, 010 not, and readers failing on a missing column). */
static int migrate_locked(store *s, char *err, size_t errlen)
{
    int rc = exec0(s, err, errlen, "BEGIN", 0, NULL);
    if (rc)
        return rc;
    rc = exec0(s, err, errlen,
               "CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, "
               "applied_at timestamptz NOT NULL DEFAULT now())", 0, NULL);
    for (int i = 0; i < arb_nmigrations && !rc; i++) {
        char v[16];
        snprintf(v, sizeof v, "%d", arb_migration_versions[i]);
        const char *p[] = {v};
        PGresult *r = q(s, err, errlen, "SELECT 1 FROM schema_migrations WHERE version = $1", 1, p);
        if (!r) {
            rc = ARB_EIO;
            break;
        }
        bool applied = PQntuples(r) > 0;
        PQclear(r);
        if (applied)
            continue;
        r = PQexec(s->db, arb_migrations[i]);
        if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
            char what[64];
            snprintf(what, sizeof what, "migration %03d", arb_migration_versions[i]);
            rc = fail_msg(err, errlen, what, PQresultErrorMessage(r));
        }
        PQclear(r);
        if (!rc)
            rc = exec0(s, err, errlen, "INSERT INTO schema_migrations (version) VALUES ($1)", 1, p);
    }
    if (rc) {
        rollback(s);
        return rc;
    }
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
}

/* Take the migration lock, run fn, give the lock back (on every path; and
 * PostgreSQL gives it back if the connection is lost). */
static int under_migration_lock(store *s, int (*fn)(store *, char *, size_t), char *err, size_t errlen)
{
    int rc = exec0(s, err, errlen, "SELECT pg_advisory_lock(" STORE_MIGRATION_LOCK ")", 0, NULL);
    if (rc)
        return rc;
    rc = fn(s, err, errlen);
    char uerr[256];
    int urc = exec0(s, uerr, sizeof uerr, "SELECT pg_advisory_unlock(" STORE_MIGRATION_LOCK ")", 0, NULL);
    if (urc && !rc) {
        snprintf(err, errlen, "%s", uerr);
        rc = urc;
    }
    return rc;
}

int store_migrate(store *s, char *err, size_t errlen)
{
    /* Everything under one session-level advisory lock, schema_migrations'
     * own CREATE TABLE IF NOT EXISTS included: that statement is not safe
     * against itself (two at once on a fresh database and one fails on
     * pg_type's unique index), and reading which versions are applied
     * must not interleave with another process applying them. A second
     * process waits here and then finds every version applied. */
    return under_migration_lock(s, migrate_locked, err, errlen);
}

/* How many of this binary's migrations the record lacks (0: up to
 * date), and its newest applied version; < 0 with a message. */
static int missing_migrations(store *s, int *newest, char *err, size_t errlen)
{
    PGresult *r = q(s, err, errlen, "SELECT version FROM schema_migrations ORDER BY version", 0, NULL);
    if (!r)
        return ARB_EIO;
    int missing = 0, n = PQntuples(r);
    *newest = n ? (int)strtol(PQgetvalue(r, n - 1, 0), NULL, 10) : 0;
    for (int i = 0; i < arb_nmigrations; i++) {
        bool applied = false;
        for (int k = 0; k < n && !applied; k++)
            applied = strtol(PQgetvalue(r, k, 0), NULL, 10) == arb_migration_versions[i];
        missing += !applied;
    }
    PQclear(r);
    return missing;
}

/* A record of ours, under the lock: up to date, nothing written (a reader
 * on a read-only standby, or under a role that may not write, is served
 * as it is); else migrated, or, on a standby, which cannot be, refused
 * with what to do. */
static int ready_ours(store *s, char *err, size_t errlen)
{
    int newest, missing = missing_migrations(s, &newest, err, errlen);
    if (missing <= 0)
        return missing;
    PGresult *r = q(s, err, errlen, "SELECT pg_is_in_recovery()", 0, NULL);
    if (!r)
        return ARB_EIO;
    bool standby = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!standby)
        return migrate_locked(s, err, errlen);
    const char *db = PQdb(s->db);
    snprintf(err, errlen, "the record in database \"%s\" is on a read-only standby and older than this arbiter "
             "(its schema at version %03d, %d migration%s to apply, up to %03d): upgrade the record on the primary "
             "first (any command of this arbiter against the primary applies them, e.g. arbiter serve --db "
             "PRIMARY), let the standby replay it, then start this again",
             db ? db : "?", newest, missing, missing == 1 ? "" : "s", arb_migration_versions[arb_nmigrations - 1]);
    return ARB_EINVAL;
}

/* store_ready under the lock: a record (schema_migrations) is brought up
 * to date; no record is told apart from someone else's tables. */
static int ready_locked(store *s, char *err, size_t errlen)
{
    PGresult *r = q(s, err, errlen,
                    "SELECT to_regclass('schema_migrations') IS NOT NULL, "
                    "(SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema())", 0, NULL);
    if (!r)
        return ARB_EIO;
    bool ours = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    long tables = strtol(PQgetvalue(r, 0, 1), NULL, 10);
    PQclear(r);
    if (ours)
        return ready_ours(s, err, errlen);
    const char *db = PQdb(s->db);
    if (tables == 0)
        snprintf(err, errlen, "no arbiter record in database \"%s\" (it is empty: start a tournament there with "
                 "arbiter run FILE --db ..., or name the database that holds the record)", db ? db : "?");
    else
        snprintf(err, errlen, "no arbiter record in database \"%s\" (it holds %ld tables of something else and no "
                 "schema_migrations: name the database that holds the record)", db ? db : "?", tables);
    return tables == 0 ? ARB_ENOTFOUND : ARB_EINVAL;
}

int store_ready(store *s, char *err, size_t errlen)
{
    return under_migration_lock(s, ready_locked, err, errlen);
}

/* The line of the file's top-level `name:` (1 when not found). */
static int name_line(const char *text)
{
    int line = 1;
    for (const char *c = text; c && *c; c++) {
        if ((c == text || c[-1] == '\n') && strncmp(c, "name:", 5) == 0)
            return line;
        line += *c == '\n';
    }
    return 1;
}

int store_tournament(store *s, const tn_config *cfg, const char *yaml, const char *digest, bool fresh,
                     int64_t *tid, bool *created, char *err, size_t errlen)
{
    if (!fresh) {
        /* the name is taken by a tournament of another file: a changed file
         * is not silently a second tournament of the same name */
        const char *pn[] = {cfg->name, digest};
        PGresult *r = q(s, err, errlen,
                        "SELECT id, config_digest, EXISTS (SELECT 1 FROM tournaments WHERE name = $1 "
                        "AND config_digest = $2) FROM tournaments WHERE name = $1 ORDER BY id DESC LIMIT 1", 2, pn);
        if (!r)
            return ARB_EIO;
        bool other = PQntuples(r) == 1 && PQgetvalue(r, 0, 2)[0] == 'f';
        if (other) {
            const char *path = cfg->path[0] ? cfg->path : "the file";
            snprintf(err, errlen,
                     "%s:%d: tournament \"%s\" (id %s) was started from a different file (sha256 %.12s..., this "
                     "file's %.12s...): run it under a new name (name: at %s:%d), or pass --new to start another "
                     "tournament named \"%s\" (then select each by id: \"#%s\"), or restore the file to resume it",
                     path, name_line(yaml), cfg->name, PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), digest, path,
                     name_line(yaml), cfg->name, PQgetvalue(r, 0, 0));
            PQclear(r);
            return ARB_EEXIST;
        }
        PQclear(r);
    }
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, cfg->seed);
    const char *p[] = {cfg->name, digest, yaml, cfg->match.game->name, cfg->match.preset,
                       tn_format_name((tn_format)cfg->format), seed, tn_rating_name((tn_rating)cfg->rating),
                       cfg->rating == TN_RATING_OPENSKILL ? wl_model_name((wl_model)cfg->rating_model) : NULL};
    int rc = exec0(s, err, errlen, "BEGIN", 0, NULL);
    if (rc)
        return rc;
    PGresult *r = q(s, err, errlen,
                    "INSERT INTO tournaments (name, config_digest, config_text, game, rules, format, seed, "
                    "  rating_system, rating_model) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (name, config_digest) DO NOTHING RETURNING id",
                    9, p);
    if (!r)
        goto fail;
    *created = PQntuples(r) == 1;
    PQclear(r);
    r = q(s, err, errlen, "SELECT id FROM tournaments WHERE name = $1 AND config_digest = $2", 2, p);
    if (!r || PQntuples(r) != 1) {
        if (r)
            PQclear(r);
        goto fail;
    }
    *tid = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, *tid);
    for (int i = 0; i < cfg->nteams; i++) {
        const tn_team *t = &cfg->teams[i];
        char idx[16], rank[16], rating[40];
        snprintf(idx, sizeof idx, "%d", i);
        snprintf(rank, sizeof rank, "%u", t->seed);
        snprintf(rating, sizeof rating, "%.17g", t->rating);
        const char *tp[] = {id, idx, t->name, t->seed ? rank : NULL, t->rating ? rating : NULL};
        if (exec0(s, err, errlen,
                  "INSERT INTO teams (tournament_id, idx, name, seed_rank, rating) "
                  "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING", 5, tp))
            goto fail;
    }
    for (int i = 0; i < cfg->nentrants; i++) {
        const tn_entrant *e = &cfg->entrants[i];
        char idx[16], rank[16], rating[40], team[16];
        snprintf(idx, sizeof idx, "%d", i);
        snprintf(rank, sizeof rank, "%u", e->seed);
        snprintf(rating, sizeof rating, "%.17g", e->rating);
        int ti = -1;
        for (int t = 0; t < cfg->nteams && ti < 0; t++)
            for (int m = 0; m < cfg->teams[t].nmembers; m++)
                if (cfg->teams[t].member[m] == i)
                    ti = t;
        snprintf(team, sizeof team, "%d", ti);
        const char *ep[] = {id, idx, e->name, e->command, e->seed ? rank : NULL, e->rating ? rating : NULL,
                            e->team[0] ? e->team : NULL, ti >= 0 ? team : NULL};
        if (exec0(s, err, errlen,
                  "INSERT INTO entrants (tournament_id, idx, name, command, seed_rank, rating, team, team_idx) "
                  "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING", 8, ep))
            goto fail;
    }
    if (*created && cfg->registration.open) {
        char until[24], max[16], per[16];
        snprintf(until, sizeof until, "%" PRId64, cfg->registration.until);
        snprintf(max, sizeof max, "%" PRIu32, cfg->registration.max_entrants);
        snprintf(per, sizeof per, "%" PRIu32, cfg->registration.per_account);
        const char *rp[] = {id, until, max, per};
        if (exec0(s, err, errlen,
                  "UPDATE tournaments SET registration_until = to_timestamp($2::bigint), registration_max = $3, "
                  "registration_per_account = $4 WHERE id = $1", 4, rp))
            goto fail;
    }
    if (*created && cfg->stderr_visibility != TN_VIS_DEFAULT) {
        const char *vp[] = {id, cfg->stderr_visibility == TN_VIS_PRIVATE ? "private" : "public"};
        if (exec0(s, err, errlen, "UPDATE tournaments SET stderr_visibility = $2 WHERE id = $1", 2, vp))
            goto fail;
    }
    if (*created && cfg->submitted_by[0]) {
        const char *sp[] = {id, cfg->submitted_by};
        if (exec0(s, err, errlen, "UPDATE tournaments SET submitted_by = $2 WHERE id = $1", 2, sp))
            goto fail;
    }
    const char *ev[] = {id, *created ? "start" : "resume"};
    if (exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind) VALUES ($1, $2)", 2, ev))
        goto fail;
    return store__commit(s, err, errlen);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_fairness(store *s, int64_t tid, char commitment[65], char secret_hex[65], bool *rerun)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    commitment[0] = secret_hex[0] = 0;
    if (rerun)
        *rerun = false;
    PGresult *r = q(s, NULL, 0, "SELECT coalesce(commitment, ''), CASE WHEN revealed_at IS NOT NULL "
                                "THEN encode(secret, 'hex') ELSE '' END, state = 'running' AND revealed_at IS NOT NULL "
                                "FROM tournaments WHERE id = $1", 1, p);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) == 1) {
        snprintf(commitment, 65, "%.64s", PQgetvalue(r, 0, 0));
        snprintf(secret_hex, 65, "%.64s", PQgetvalue(r, 0, 1));
        if (rerun)
            *rerun = strcmp(PQgetvalue(r, 0, 2), "t") == 0;
    }
    PQclear(r);
    return 0;
}

int store_secret_get(store *s, int64_t tid, uint8_t secret[32])
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    PGresult *r = q(s, NULL, 0, "SELECT encode(secret, 'hex') FROM tournaments WHERE id = $1 AND secret IS NOT NULL",
                    1, p);
    if (!r)
        return ARB_EIO;
    int rc = PQntuples(r) == 1 && arb_key_parse(PQgetvalue(r, 0, 0), secret) == 0 ? 1 : 0;
    PQclear(r);
    return rc;
}

int store_secret(store *s, int64_t tid, const uint8_t *given, uint8_t secret[32], char commitment[65],
                 char *err, size_t errlen)
{
    uint8_t fresh[32];
    char id[24], hex[65], commit[65];
    snprintf(id, sizeof id, "%" PRId64, tid);
    if (given)
        memcpy(fresh, given, sizeof fresh);
    else if (arb_key_random(fresh) != 0) {
        snprintf(err, errlen, "tournament %" PRId64 ": no random source for its secret", tid);
        return ARB_EUNSUPPORTED;
    }
    arb_key_hex(fresh, hex);
    arb_key_commitment(fresh, commit);
    const char *p[] = {id, hex, commit};
    /* Only the first start sets it: concurrent starts agree on one. */
    int rc = exec0(s, err, errlen, "UPDATE tournaments SET secret = decode($2, 'hex'), commitment = $3 "
                                   "WHERE id = $1 AND secret IS NULL", 3, p);
    sodium_memzero(hex, sizeof hex);
    if (rc)
        return rc;
    rc = store_secret_get(s, tid, secret);
    if (rc != 1) {
        snprintf(err, errlen, "tournament %" PRId64 ": its secret cannot be read back", tid);
        return rc < 0 ? rc : ARB_EIO;
    }
    arb_key_commitment(secret, commitment);
    if (given && !arb_key_equal(given, secret)) {
        snprintf(err, errlen, "tournament %" PRId64 " was started with another secret (commitment %s); the secret "
                 "given has commitment %s", tid, commitment, commit);
        return ARB_ESTATE;
    }
    return 0;
}

int store_add_round(store *s, int64_t tid, int round, const char *stage, const store_table *tables,
                    int ntables, uint64_t tseed, char *err, size_t errlen)
{
    char id[24], rd[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(rd, sizeof rd, "%d", round);
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    const char *rp[] = {id, rd, stage};
    PGresult *r = q(s, err, errlen,
                    "INSERT INTO rounds (tournament_id, round, stage) VALUES ($1, $2, $3) "
                    "ON CONFLICT DO NOTHING RETURNING round", 3, rp);
    if (!r)
        goto fail;
    bool fresh = PQntuples(r) == 1;
    PQclear(r);
    if (!fresh)   /* created before (a resume): it stands as it is */
        return exec0(s, err, errlen, "COMMIT", 0, NULL);
    for (int t = 0; t < ntables; t++) {
        char seed[24], tb[16];
        snprintf(seed, sizeof seed, "%" PRIu64, arb_seeds_match_seed(tseed, round, t));
        snprintf(tb, sizeof tb, "%d", t);
        const char *mp[] = {id, rd, tb, seed};
        r = q(s, err, errlen,
              "INSERT INTO matches (tournament_id, round, tbl, seed) VALUES ($1, $2, $3, $4) RETURNING id", 4, mp);
        if (!r)
            goto fail;
        char mid[24];
        snprintf(mid, sizeof mid, "%s", PQgetvalue(r, 0, 0));
        PQclear(r);
        for (int k = 0; k < tables[t].nslots; k++) {
            char slot[16], ent[16];
            snprintf(slot, sizeof slot, "%d", k);
            snprintf(ent, sizeof ent, "%d", tables[t].entrant[k]);
            const char *sp[] = {mid, slot, ent};
            if (exec0(s, err, errlen, "INSERT INTO match_seats (match_id, slot, entrant) VALUES ($1, $2, $3)", 3, sp))
                goto fail;
        }
    }
    char detail[64];
    snprintf(detail, sizeof detail, "round %d: %d matches", round, ntables);
    const char *ev[] = {id, detail};
    if (exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, 'round', $2)", 2, ev))
        goto fail;
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
}

static int load_slots(store *s, store_match *m, char *err, size_t errlen)
{
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, m->id);
    const char *p[] = {mid};
    PGresult *r = q(s, err, errlen, "SELECT entrant FROM match_seats WHERE match_id = $1 ORDER BY slot", 1, p);
    if (!r)
        return ARB_EIO;
    m->nslots = PQntuples(r) < ARB_MAX_SEATS ? PQntuples(r) : ARB_MAX_SEATS;
    for (int i = 0; i < m->nslots; i++)
        m->entrant[i] = (int)arb_cell_int(PQgetvalue(r, i, 0));
    PQclear(r);
    return 0;
}

int store_claim(store *s, int64_t tid, const char *worker, int lease_secs, store_match *m, char *err, size_t errlen)
{
    char id[24], secs[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(secs, sizeof secs, "%d", lease_secs);
    const char *p[] = {id, worker, secs};
    PGresult *r = q(s, err, errlen,
                    "UPDATE matches SET state = 'leased', lease_gen = lease_gen + 1, leased_by = $2, "
                    "  lease_until = now() + make_interval(secs => $3::int) "
                    "WHERE id = (SELECT id FROM matches WHERE tournament_id = $1 "
                    "  AND (state = 'pending' OR (state = 'leased' AND lease_until < now())) "
                    "  ORDER BY round, tbl FOR UPDATE SKIP LOCKED LIMIT 1) "
                    "RETURNING id, round, tbl, seed, lease_gen", 3, p);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 0;
    }
    memset(m, 0, sizeof *m);
    m->id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    m->tournament = tid;
    m->round = (int)arb_cell_int(PQgetvalue(r, 0, 1));
    m->tbl = (int)arb_cell_int(PQgetvalue(r, 0, 2));
    m->seed = strtoull(PQgetvalue(r, 0, 3), NULL, 10);
    m->lease_gen = (int)arb_cell_int(PQgetvalue(r, 0, 4));
    PQclear(r);
    return load_slots(s, m, err, errlen) ? ARB_EIO : 1;
}

int store_renew(store *s, const store_match *m, int lease_secs)
{
    char mid[24], gen[16], secs[16];
    snprintf(mid, sizeof mid, "%" PRId64, m->id);
    snprintf(gen, sizeof gen, "%d", m->lease_gen);
    snprintf(secs, sizeof secs, "%d", lease_secs);
    const char *p[] = {mid, gen, secs};
    PGresult *r = q(s, NULL, 0,
                    "UPDATE matches SET lease_until = now() + make_interval(secs => $3::int) "
                    "WHERE id = $1 AND lease_gen = $2 AND state = 'leased'", 3, p);
    if (!r)
        return ARB_EIO;
    int n = (int)arb_cell_int(PQcmdTuples(r));
    PQclear(r);
    return n == 1 ? 0 : ARB_ESTATE;
}

int store_release_leases(store *s, int64_t tid, const char *worker)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id, worker};
    PGresult *r = q(s, NULL, 0,
                    "UPDATE matches SET state = 'pending', leased_by = NULL, lease_until = NULL "
                    "WHERE tournament_id = $1 AND state = 'leased' AND leased_by LIKE $2 || '%'", 2, p);
    if (!r)
        return ARB_EIO;
    int n = (int)arb_cell_int(PQcmdTuples(r));
    PQclear(r);
    if (n > 0) {
        char detail[64];
        snprintf(detail, sizeof detail, "%d leases of a stopped run returned", n);
        store_event(s, tid, "lease-expired", detail);
    }
    return n;
}

int store_adopt(store *s, int64_t match_id, int gen, const char *worker, int lease_secs, store_match *m)
{
    char mid[24], g[16], secs[16];
    snprintf(mid, sizeof mid, "%" PRId64, match_id);
    snprintf(g, sizeof g, "%d", gen);
    snprintf(secs, sizeof secs, "%d", lease_secs);
    const char *p[] = {mid, g, worker, secs};
    PGresult *r = q(s, NULL, 0,
                    "UPDATE matches SET state = 'leased', leased_by = $3, "
                    "  lease_until = now() + make_interval(secs => $4::int) "
                    "WHERE id = $1 AND lease_gen = $2 AND leased_by = $3 AND state IN ('leased', 'pending') "
                    "RETURNING id, round, tbl, seed, lease_gen, tournament_id", 4, p);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return 0;
    }
    memset(m, 0, sizeof *m);
    m->id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    m->round = (int)arb_cell_int(PQgetvalue(r, 0, 1));
    m->tbl = (int)arb_cell_int(PQgetvalue(r, 0, 2));
    m->seed = strtoull(PQgetvalue(r, 0, 3), NULL, 10);
    m->lease_gen = (int)arb_cell_int(PQgetvalue(r, 0, 4));
    m->tournament = strtoll(PQgetvalue(r, 0, 5), NULL, 10);
    PQclear(r);
    return load_slots(s, m, NULL, 0) ? ARB_EIO : 1;
}

int store_release(store *s, int64_t match_id, int gen, const char *holder)
{
    char mid[24], g[16];
    snprintf(mid, sizeof mid, "%" PRId64, match_id);
    snprintf(g, sizeof g, "%d", gen);
    const char *p[] = {mid, g, holder};
    PGresult *r = q(s, NULL, 0,
                    "UPDATE matches SET state = 'pending', lease_until = NULL "
                    "WHERE id = $1 AND lease_gen = $2 AND state = 'leased' "
                    "  AND ($3::text IS NULL OR leased_by = $3::text)", 3, p);
    if (!r)
        return ARB_EIO;
    int n = (int)arb_cell_int(PQcmdTuples(r));
    PQclear(r);
    return n;
}

int store_lease_holder(store *s, int64_t match_id, int gen, char *holder, size_t cap)
{
    char mid[24], g[16];
    snprintf(mid, sizeof mid, "%" PRId64, match_id);
    snprintf(g, sizeof g, "%d", gen);
    const char *p[] = {mid, g};
    PGresult *r = q(s, NULL, 0,
                    "SELECT coalesce(leased_by, '') FROM matches WHERE id = $1 AND lease_gen = $2 AND state = 'leased'",
                    2, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found)
        snprintf(holder, cap, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return found;
}

bool store_connected_now(store *s)
{
    return PQstatus(s->db) == CONNECTION_OK;
}

bool store_connected(store *s)
{
    if (PQstatus(s->db) == CONNECTION_OK)
        return true;
    PQreset(s->db);   /* one try: a restarted server is back, a lost one is not */
    s->prepared = 0;  /* a new session: nothing prepared on it */
    return PQstatus(s->db) == CONNECTION_OK;
}

int store_worker(store *s, const char *name, int slots, const char *state, int running, int64_t done, int64_t lost,
                 int64_t handed_back)
{
    char sl[16], run[16], dn[24], ls[24], hb[24];
    snprintf(sl, sizeof sl, "%d", slots);
    snprintf(run, sizeof run, "%d", running);
    snprintf(dn, sizeof dn, "%" PRId64, done);
    snprintf(ls, sizeof ls, "%" PRId64, lost);
    snprintf(hb, sizeof hb, "%" PRId64, handed_back);
    const char *p[] = {name, sl, state, run, dn, ls, hb};
    return exec0(s, NULL, 0,
                 "INSERT INTO workers (name, slots, state, running, matches_done, leases_lost, leases_handed_back) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO UPDATE SET slots = $2, state = $3, "
                 "  running = $4, matches_done = workers.matches_done + $5, leases_lost = workers.leases_lost + $6, "
                 "  leases_handed_back = workers.leases_handed_back + $7, last_seen = now()",
                 7, p);
}

int store_worker_key(store *s, const char *name, const char *key_hex)
{
    const char *p[] = {name, key_hex};
    return exec0(s, NULL, 0, "UPDATE workers SET sign_key = $2 WHERE name = $1", 2, p);
}

int store_worker_key_get(store *s, const char *name, char key_hex[65])
{
    const char *p[] = {name};
    PGresult *r = q(s, NULL, 0, "SELECT coalesce(sign_key, '') FROM workers WHERE name = $1", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1 && strlen(PQgetvalue(r, 0, 0)) == 64;
    snprintf(key_hex, 65, "%s", found ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return found;
}

int store_workers_reset(store *s)
{
    return exec0(s, NULL, 0, "UPDATE workers SET state = 'gone', running = 0 WHERE state <> 'gone'", 0, NULL);
}

int store_set_path(store *s, int64_t tid, const char *path)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id, path};
    return exec0(s, NULL, 0, "UPDATE tournaments SET config_path = $2 WHERE id = $1", 2, p);
}

int store_tournament_text(store *s, int64_t tid, char **text, size_t *len, char *by, size_t bylen, char *err,
                          size_t errlen)
{
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, tid);
    const char *p[] = {t};
    *text = NULL;
    *len = 0;
    PGresult *r = q(s, err, errlen,
                    "SELECT config_text, submitted_by FROM tournaments WHERE id = $1 AND submitted_by IS NOT NULL "
                    "AND config_text IS NOT NULL", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found) {
        size_t n = (size_t)PQgetlength(r, 0, 0);
        *text = malloc(n + 1);
        if (!*text) {
            PQclear(r);
            snprintf(err, errlen, "out of memory");
            return ARB_ENOMEM;
        }
        memcpy(*text, PQgetvalue(r, 0, 0), n + 1);
        *len = n;
        snprintf(by, bylen, "%s", PQgetvalue(r, 0, 1));
    }
    PQclear(r);
    return found;
}

int store_next_running(store *s, const int64_t *skip, int nskip, int64_t *tid, char *path, size_t pathlen,
                       char digest[65])
{
    /* the skipped ids as an array literal: {1,2,3} */
    char list[4096] = "{";
    size_t k = 1;
    for (int i = 0; i < nskip && k + 24 < sizeof list; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%" PRId64, i ? "," : "", skip[i]);
    snprintf(list + k, sizeof list - k, "}");
    const char *p[] = {list};
    PGresult *r = q(s, NULL, 0,
                    "SELECT id, coalesce(config_path, ''), config_digest FROM tournaments "
                    "WHERE state = 'running' AND NOT (id = ANY ($1::bigint[])) ORDER BY id LIMIT 1", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found) {
        *tid = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        snprintf(path, pathlen, "%s", PQgetvalue(r, 0, 1));
        snprintf(digest, 65, "%s", PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    return found;
}

/* Match points: one for every other finisher (bot, or side) ranked
 * behind, a half for each tie (a bot that forfeited, or a side with a
 * forfeited member, is behind everyone who did not). */
static double match_points(const int *rank, int n, int b)
{
    double p = 0;
    for (int o = 0; o < n; o++) {
        if (o == b)
            continue;
        if (rank[b] < rank[o])
            p += 1;
        else if (rank[b] == rank[o])
            p += 0.5;
    }
    return p;
}

/* The columns of a result's rows, as array literals (store__arr_*). */
enum { S_SLOT, S_TOTAL, S_POINTS, S_RANK, S_FORFEITED, S_DECISIONS, S_WALL, S_CPU, S_STRIKES, S_PENALTIES,
       S_SANDBOX, S_SIDE, T_SIDE, T_FIRST, T_TOTAL, T_RANK, T_POINTS, T_FORFEITED, D_GAME, D_DEAL, D_SEATING,
       D_SEED, D_SLOTS, D_SCORES, D_FORFEIT, P_N, P_GAME, P_DECISION, P_SLOT, P_REASON, P_CONSEQUENCE, P_NOTE,
       NRESCOLS };

/* A result's seats, sides, deals and penalties as the columns of four
 * statements. */
static int result_columns(const match_result *res, arb_buf *col)
{
    int rc = 0;
    int ranks[ARB_MAX_SEATS];
    for (int o = 0; o < res->nbots; o++)
        ranks[o] = res->bots[o].rank;
    for (int b = 0; b < res->nbots && !rc; b++) {
        const match_bot_stats *st = &res->bots[b];
        bool side = res->nteams && res->team_of_bot[b] >= 0;
        rc = store__arr_put(&col[S_SLOT], "%d", b) || store__arr_put(&col[S_TOTAL], "%" PRId64, st->total)
             || store__arr_put(&col[S_POINTS], "%.1f", match_points(ranks, res->nbots, b))
             || store__arr_put(&col[S_RANK], "%d", st->rank)
             || store__arr_put(&col[S_FORFEITED], "%s", st->forfeited ? "t" : "f")
             || store__arr_put(&col[S_DECISIONS], "%u", st->decisions)
             || store__arr_put(&col[S_WALL], "%" PRIu64, st->wall_ns)
             || store__arr_put(&col[S_CPU], "%" PRIu64, st->cpu_ns)
             || store__arr_put(&col[S_STRIKES], "%u", st->strikes)
             || store__arr_put(&col[S_PENALTIES], "%u", st->penalties) || store__arr_text(&col[S_SANDBOX], st->sandbox)
             || (side ? store__arr_put(&col[S_SIDE], "%d", res->team_of_bot[b]) : store__arr_put(&col[S_SIDE], "NULL"));
    }
    /* each side's team is the team of its first member (match_sides) */
    for (int t = 0; t < res->nteams && !rc; t++) {
        int first = -1;
        bool forfeited = false;
        for (int b = 0; b < res->nbots; b++)
            if (res->team_of_bot[b] == t) {
                if (first < 0)
                    first = b;
                forfeited |= res->bots[b].forfeited;
            }
        rc = store__arr_put(&col[T_SIDE], "%d", t) || store__arr_put(&col[T_FIRST], "%d", first)
             || store__arr_put(&col[T_TOTAL], "%" PRId64, res->team_total[t])
             || store__arr_put(&col[T_RANK], "%d", res->team_rank[t])
             || store__arr_put(&col[T_POINTS], "%.1f", match_points(res->team_rank, res->nteams, t))
             || store__arr_put(&col[T_FORFEITED], "%s", forfeited ? "t" : "f");
    }
    for (uint32_t g = 0; g < res->ndeals && !rc; g++) {
        const match_deal *d = &res->deals[g];
        char slots[ARB_MAX_SEATS * 12 + 4] = "{", scores[ARB_MAX_SEATS * 24 + 4] = "{";
        size_t ls = 1, lc = 1;
        for (int k = 0; k < res->nbots; k++) {
            ls += (size_t)snprintf(slots + ls, sizeof slots - ls, "%s%u", k ? "," : "", d->bot_at[k]);
            lc += (size_t)snprintf(scores + lc, sizeof scores - lc, "%s%" PRId64, k ? "," : "", d->score[k]);
        }
        snprintf(slots + ls, sizeof slots - ls, "}");
        snprintf(scores + lc, sizeof scores - lc, "}");
        rc = store__arr_put(&col[D_GAME], "%u", d->game) || store__arr_put(&col[D_DEAL], "%u", d->deal)
             || store__arr_put(&col[D_SEATING], "%u", d->seating) || store__arr_put(&col[D_SEED], "%" PRIu64, d->seed)
             || store__arr_text(&col[D_SLOTS], slots) || store__arr_text(&col[D_SCORES], scores)
             || (d->forfeit_bot >= 0 ? store__arr_put(&col[D_FORFEIT], "%d", d->forfeit_bot)
                                     : store__arr_put(&col[D_FORFEIT], "NULL"));
    }
    /* the penalties the result carries (the first ARB_MAX_RESULT_PENALTIES;
     * the seats' counts hold them all), numbered in the order given */
    for (uint32_t i = 0; i < res->npenalties && !rc; i++) {
        const match_penalty *pn = &res->penalties[i];
        rc = store__arr_put(&col[P_N], "%u", i) || store__arr_put(&col[P_GAME], "%u", pn->game)
             || store__arr_put(&col[P_DECISION], "%u", pn->decision) || store__arr_put(&col[P_SLOT], "%u", pn->bot)
             || store__arr_text(&col[P_REASON], match_reason_name((match_reason)pn->reason))
             || store__arr_text(&col[P_CONSEQUENCE], match_policy_name((match_policy)pn->consequence))
             || store__arr_text(&col[P_NOTE], pn->note);
    }
    for (int c = 0; c < NRESCOLS && !rc; c++)
        rc = store__arr_close(&col[c]);
    return rc ? ARB_ENOMEM : 0;
}

/* A result in three round trips, whatever the match: (1) the match marked
 * done, its tournament's row locked to the commit (its results are
 * recorded, and rated, one at a time: store_rating.c), its seats and
 * sides written, and the matches that can now be rated read; (2) the
 * ratings' write, the deals, the penalties and the commit; (3) a rollback
 * only when something failed. */
int store_record(store *s, const store_match *m, const match_result *res, const char *digest,
                 const char *transcript, const uint8_t *body, size_t len, const store_signed *sig,
                 const char *holder, char *err, size_t errlen)
{
    char mid[24], gen[16], games[16], dec[24], wall[24];
    snprintf(mid, sizeof mid, "%" PRId64, m->id);
    snprintf(gen, sizeof gen, "%d", m->lease_gen);
    snprintf(games, sizeof games, "%u", res->ndeals);
    snprintf(dec, sizeof dec, "%" PRIu64, res->decisions);
    snprintf(wall, sizeof wall, "%" PRIu64, res->wall_ns / 1000000);
    arb_buf col[NRESCOLS];
    for (int c = 0; c < NRESCOLS; c++)
        arb_buf_init(&col[c], 256u << 20);
    store_packed pk = {0};
    int rc = result_columns(res, col);
    if (!rc && body)   /* compressed before the transaction: its locks wait for nothing */
        rc = store_transcript_pack(body, len, &pk, err, errlen);
    const char *cv[NRESCOLS];
    for (int c = 0; c < NRESCOLS; c++)
        cv[c] = arb_buf_str(&col[c]);
    if (rc) {
        if (!body || pk.body)
            snprintf(err, errlen, "out of memory");
        goto out;
    }
    store_pipe pp;
    if ((rc = store__pipe_begin(&pp, s, err, errlen)) != 0)
        goto out;
    const char *p[] = {mid, gen, digest, transcript, games, dec, wall, holder, sig ? sig->signer_key : NULL,
                       sig ? sig->signature : NULL};
    store__pipe_send(&pp, -1, "BEGIN", 0, NULL);
    int done = store__pipe_send(&pp, 10, "UPDATE matches m SET state = 'done', finished_at = now(), digest = $3, "
                                "  transcript = $4, games = $5, decisions = $6, wall_ms = $7, lease_until = NULL, "
                                "  signer_key = $9, signature = $10 "
                                "FROM (SELECT id, rating_system, coalesce(rating_model, '') AS model FROM tournaments "
                                "      WHERE id = (SELECT tournament_id FROM matches WHERE id = $1) FOR NO KEY UPDATE) t "
                                "WHERE m.id = $1 AND m.tournament_id = t.id AND m.lease_gen = $2 AND m.state = 'leased' "
                                "  AND ($8::text IS NULL OR m.leased_by = $8::text) "
                                "RETURNING t.id, t.rating_system, t.model", 10, p);
    const char *sp[] = {mid, cv[S_SLOT], cv[S_TOTAL], cv[S_POINTS], cv[S_RANK], cv[S_FORFEITED], cv[S_DECISIONS],
                        cv[S_WALL], cv[S_CPU], cv[S_STRIKES], cv[S_PENALTIES], cv[S_SANDBOX], cv[S_SIDE]};
    store__pipe_send(&pp, 11, "UPDATE match_seats st SET total = x.total, points = x.points, rank = x.rank, "
                     "  forfeited = x.ff, decisions = x.dec, wall_ns = x.wns, cpu_ns = x.cns, strikes = x.str, "
                     "  penalties = x.pen, sandbox = x.sbx, side = x.side "
                     "FROM unnest($2::int[], $3::bigint[], $4::float8[], $5::int[], $6::boolean[], $7::int[], "
                     "  $8::bigint[], $9::bigint[], $10::int[], $11::int[], $12::text[], $13::int[]) "
                     "  AS x(slot, total, points, rank, ff, dec, wns, cns, str, pen, sbx, side) "
                     "WHERE st.match_id = $1 AND st.slot = x.slot", 13, sp);
    if (res->nteams) {
        const char *tp[] = {mid, cv[T_SIDE], cv[T_FIRST], cv[T_TOTAL], cv[T_RANK], cv[T_POINTS], cv[T_FORFEITED]};
        store__pipe_send(&pp, 12, "INSERT INTO match_sides (match_id, side, team, total, rank, points, forfeited) "
                         "SELECT $1, x.side, e.team_idx, x.total, x.rank, x.points, x.ff "
                         "FROM unnest($2::int[], $3::int[], $4::bigint[], $5::int[], $6::float8[], $7::boolean[]) "
                         "  AS x(side, first, total, rank, points, ff) "
                         "JOIN matches m ON m.id = $1 "
                         "JOIN match_seats st ON st.match_id = m.id AND st.slot = x.first "
                         "LEFT JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = st.entrant", 7, tp);
    }
    if (body)
        store__transcript_send(&pp, digest, &pk);
    int read = store__rate_read(&pp, mid, NULL);
    int prc = store__pipe_end(&pp, err, errlen);
    int n = done >= 0 && pp.res[done] && PQresultStatus(pp.res[done]) == PGRES_TUPLES_OK ? PQntuples(pp.res[done]) : -1;
    if (n == 0) {
        /* A stale lease, or recorded already: nothing is written twice. */
        snprintf(err, errlen, "match %" PRId64 " generation %d: stale lease or already recorded", m->id, m->lease_gen);
        store__pipe_release(&pp);
        rollback(s);
        rc = ARB_ESTATE;
        goto out;
    }
    if (prc) {
        store__pipe_release(&pp);
        rollback(s);
        rc = ARB_EIO;
        goto out;
    }
    char tid[24];
    tn_rating sys = TN_RATING_NONE;
    wl_model model = WL_PLACKETT_LUCE;
    snprintf(tid, sizeof tid, "%s", PQgetvalue(pp.res[done], 0, 0));
    if (tn_rating_parse(PQgetvalue(pp.res[done], 0, 1), &sys)
        || (PQgetvalue(pp.res[done], 0, 2)[0] && wl_model_parse(PQgetvalue(pp.res[done], 0, 2), &model)))
        sys = TN_RATING_NONE;
    store_pipe p2;
    rc = store__pipe_begin(&p2, s, err, errlen);
    if (!rc && sys != TN_RATING_NONE)
        rc = store__rate_write(&p2, pp.res[read], tid, (int)sys, (int)model, err, errlen);
    store__pipe_release(&pp);
    if (!rc) {
        if (res->ndeals) {
            const char *dp[] = {mid, cv[D_GAME], cv[D_DEAL], cv[D_SEATING], cv[D_SEED], cv[D_SLOTS], cv[D_SCORES],
                                cv[D_FORFEIT]};
            store__pipe_send(&p2, 13, "INSERT INTO deals (match_id, game, deal, seating, seed, seat_slots, scores, "
                             "  forfeit_slot) "
                             "SELECT $1, g, d, st, sd, ss::int[], sc::bigint[], fs FROM unnest($2::int[], $3::int[], "
                             "  $4::int[], $5::numeric[], $6::text[], $7::text[], $8::int[]) "
                             "  AS x(g, d, st, sd, ss, sc, fs)", 8, dp);
        }
        if (res->npenalties) {
            const char *pnp[] = {mid, cv[P_N], cv[P_GAME], cv[P_DECISION], cv[P_SLOT], cv[P_REASON],
                                cv[P_CONSEQUENCE], cv[P_NOTE]};
            store__pipe_send(&p2, 14, "INSERT INTO penalties (match_id, n, game, decision, slot, reason, consequence, "
                             "  note) "
                             "SELECT $1, n, g, d, sl, rs, cq, nt FROM unnest($2::int[], $3::int[], $4::int[], "
                             "  $5::int[], $6::text[], $7::text[], $8::text[]) AS x(n, g, d, sl, rs, cq, nt)", 8, pnp);
        }
        store__pipe_send(&p2, -1, "COMMIT", 0, NULL);
        rc = store__pipe_end(&p2, err, errlen);
        store__pipe_release(&p2);
    } else if (p2.s) {
        store__pipe_end(&p2, NULL, 0);
        store__pipe_release(&p2);
    }
    if (rc) {
        rollback(s);   /* a COMMIT skipped after a failure leaves the transaction open */
        rc = rc == ARB_EINVAL || rc == ARB_ENOMEM ? rc : ARB_EIO;
    }
out:
    for (int c = 0; c < NRESCOLS; c++)
        arb_buf_release(&col[c]);
    store_packed_release(&pk);
    return rc;
}

int store_void(store *s, const store_match *m, const char *why, const char *holder)
{
    char mid[24], gen[16];
    snprintf(mid, sizeof mid, "%" PRId64, m->id);
    snprintf(gen, sizeof gen, "%d", m->lease_gen);
    const char *p[] = {mid, gen, why, holder};
    PGresult *r = q(s, NULL, 0,
                    "UPDATE matches SET state = 'void', error = $3, finished_at = now() "
                    "WHERE id = $1 AND lease_gen = $2 AND state = 'leased' "
                    "  AND ($4::text IS NULL OR leased_by = $4::text)", 4, p);
    if (!r)
        return ARB_EIO;
    int n = (int)arb_cell_int(PQcmdTuples(r));
    PQclear(r);
    return n == 1 ? 0 : ARB_ESTATE;   /* a stale lease, or finished already: nothing written */
}

int store_counts(store *s, int64_t tid, int round, int *pending, int *leased, int *done, int *voided)
{
    char id[24], rd[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(rd, sizeof rd, "%d", round);
    const char *p[] = {id, rd};
    PGresult *r = q(s, NULL, 0,
                    "SELECT count(*) FILTER (WHERE state = 'pending'), count(*) FILTER (WHERE state = 'leased'), "
                    "  count(*) FILTER (WHERE state = 'done'), count(*) FILTER (WHERE state = 'void') "
                    "FROM matches WHERE tournament_id = $1 AND ($2::int < 0 OR round = $2::int)", 2, p);
    if (!r)
        return ARB_EIO;
    *pending = (int)arb_cell_int(PQgetvalue(r, 0, 0));
    *leased = (int)arb_cell_int(PQgetvalue(r, 0, 1));
    *done = (int)arb_cell_int(PQgetvalue(r, 0, 2));
    *voided = (int)arb_cell_int(PQgetvalue(r, 0, 3));
    PQclear(r);
    return 0;
}

int store_last_round(store *s, int64_t tid)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    PGresult *r = q(s, NULL, 0, "SELECT coalesce(max(round), 0) FROM rounds WHERE tournament_id = $1", 1, p);
    if (!r)
        return ARB_EIO;
    int n = (int)arb_cell_int(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

int store_round_results(store *s, int64_t tid, int round, bool teams, store_table *order, int (*rank)[ARB_MAX_SEATS],
                        int64_t (*total)[ARB_MAX_SEATS], int ntables)
{
    char id[24], rd[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(rd, sizeof rd, "%d", round);
    const char *p[] = {id, rd};
    PGresult *r = q(s, NULL, 0,
                    teams ? "SELECT m.tbl, sd.team, coalesce(sd.rank, 99), coalesce(sd.total, 0) "
                            "FROM matches m JOIN match_sides sd ON sd.match_id = m.id "
                            "WHERE m.tournament_id = $1 AND m.round = $2 AND sd.team IS NOT NULL "
                            "ORDER BY m.tbl, sd.rank, sd.total DESC, sd.side"
                          : "SELECT m.tbl, s.entrant, coalesce(s.rank, 99), coalesce(s.total, 0) "
                            "FROM matches m JOIN match_seats s ON s.match_id = m.id "
                            "WHERE m.tournament_id = $1 AND m.round = $2 "
                            "ORDER BY m.tbl, coalesce(s.rank, 99), s.total DESC NULLS LAST, s.slot", 2, p);
    if (!r)
        return ARB_EIO;
    for (int t = 0; t < ntables; t++)
        order[t].nslots = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        int t = (int)arb_cell_int(PQgetvalue(r, i, 0));
        if (t < 0 || t >= ntables || order[t].nslots >= ARB_MAX_SEATS)
            continue;
        int place = order[t].nslots++;
        order[t].entrant[place] = (int)arb_cell_int(PQgetvalue(r, i, 1));
        if (rank)
            rank[t][place] = (int)arb_cell_int(PQgetvalue(r, i, 2));
        if (total)
            total[t][place] = strtoll(PQgetvalue(r, i, 3), NULL, 10);
    }
    PQclear(r);
    return 0;
}

/* Standings by points (placed false: what the formats pair by), or as
 * shown: by the recorded placement first (knockouts, 010_placement.sql;
 * a member in partnership play by its team's), then by points. */
static int standings(store *s, int64_t tid, bool teams, bool placed, store_standing *rows, int cap)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    static const char *const sql[2][2] = {
        {"SELECT entrant, name, played, wins, points, score, penalties, ever_forfeited, 0, '', '' "
         "FROM standings WHERE tournament_id = $1 ORDER BY points DESC, score DESC, wins DESC, entrant",
         "SELECT team, name, played, wins, points, score, penalties, ever_forfeited, 0, '', '' "
         "FROM team_standings WHERE tournament_id = $1 ORDER BY points DESC, score DESC, wins DESC, team"},
        {"SELECT st.entrant, st.name, st.played, st.wins, st.points, st.score, st.penalties, st.ever_forfeited, "
         "  coalesce(pl.place, 0), coalesce(pl.reached, ''), coalesce(pl.tiebreak, '') "
         "FROM standings st JOIN entrants e ON e.tournament_id = st.tournament_id AND e.idx = st.entrant "
         "LEFT JOIN placements pl ON pl.tournament_id = st.tournament_id "
         "  AND pl.unit = CASE WHEN pl.teams THEN e.team_idx ELSE e.idx END "
         "WHERE st.tournament_id = $1 "
         "ORDER BY pl.place NULLS LAST, st.points DESC, st.score DESC, st.wins DESC, st.entrant",
         "SELECT st.team, st.name, st.played, st.wins, st.points, st.score, st.penalties, st.ever_forfeited, "
         "  coalesce(pl.place, 0), coalesce(pl.reached, ''), coalesce(pl.tiebreak, '') "
         "FROM team_standings st LEFT JOIN placements pl ON pl.tournament_id = st.tournament_id "
         "  AND pl.teams AND pl.unit = st.team "
         "WHERE st.tournament_id = $1 "
         "ORDER BY pl.place NULLS LAST, st.points DESC, st.score DESC, st.wins DESC, st.team"}};
    PGresult *r = q(s, NULL, 0, sql[placed][teams], 1, p);
    if (!r)
        return ARB_EIO;
    int n = PQntuples(r) < cap ? PQntuples(r) : cap;
    for (int i = 0; i < n; i++) {
        store_standing *row = &rows[i];
        row->entrant = (int)arb_cell_int(PQgetvalue(r, i, 0));
        snprintf(row->name, sizeof row->name, "%s", PQgetvalue(r, i, 1));
        row->played = (int)arb_cell_int(PQgetvalue(r, i, 2));
        row->wins = (int)arb_cell_int(PQgetvalue(r, i, 3));
        row->points = arb_cell_float(PQgetvalue(r, i, 4));
        row->score = strtoll(PQgetvalue(r, i, 5), NULL, 10);
        row->penalties = (int)arb_cell_int(PQgetvalue(r, i, 6));
        row->forfeited = PQgetvalue(r, i, 7)[0] == 't';
        row->place = (int)arb_cell_int(PQgetvalue(r, i, 8));
        snprintf(row->reached, sizeof row->reached, "%s", PQgetvalue(r, i, 9));
        snprintf(row->tiebreak, sizeof row->tiebreak, "%s", PQgetvalue(r, i, 10));
    }
    PQclear(r);
    return n;
}

int store_standings(store *s, int64_t tid, bool teams, store_standing *rows, int cap)
{
    return standings(s, tid, teams, false, rows, cap);
}

int store_standings_placed(store *s, int64_t tid, bool teams, store_standing *rows, int cap)
{
    return standings(s, tid, teams, true, rows, cap);
}

int store_placements(store *s, int64_t tid, bool teams, const store_place *pl, int n, const char (*ties)[STORE_NOTE_MAX],
                     int nties, char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p0[] = {id};
    int rc = exec0(s, err, errlen, "BEGIN", 0, NULL);
    if (rc)
        return rc;
    if ((rc = exec0(s, err, errlen, "DELETE FROM placements WHERE tournament_id = $1", 1, p0)) != 0)
        goto fail;
    for (int i = 0; i < n; i++) {
        char unit[16], place[16];
        snprintf(unit, sizeof unit, "%d", pl[i].unit);
        snprintf(place, sizeof place, "%d", pl[i].place);
        const char *p[] = {id, teams ? "t" : "f", unit, place, pl[i].reached, pl[i].tiebreak};
        if ((rc = exec0(s, err, errlen, "INSERT INTO placements (tournament_id, teams, unit, place, reached, tiebreak) "
                                        "VALUES ($1, $2, $3, $4, $5, $6)", 6, p)) != 0)
            goto fail;
    }
    /* each tie settled is filed once, however often the placement is written */
    for (int i = 0; i < nties; i++) {
        const char *p[] = {id, ties[i]};
        if ((rc = exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind, detail) SELECT $1, 'tie-break', $2 "
                                        "WHERE NOT EXISTS (SELECT 1 FROM events WHERE tournament_id = $1 "
                                        "AND kind = 'tie-break' AND detail = $2)", 2, p)) != 0)
            goto fail;
    }
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return rc;
}

int store_event(store *s, int64_t tid, const char *kind, const char *detail)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id, kind, detail};
    return exec0(s, NULL, 0, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, $2, $3)", 3, p);
}

int store_match_event(store *s, int64_t match_id, const char *kind, const char *detail)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, match_id);
    const char *p[] = {id, kind, detail};
    return exec0(s, NULL, 0,
                 "INSERT INTO events (tournament_id, kind, detail) SELECT tournament_id, $2, $3 FROM matches "
                 "WHERE id = $1", 3, p);
}

int store_finish(store *s, int64_t tid)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    int rc = exec0(s, NULL, 0, "UPDATE tournaments SET state = 'done', finished_at = now(), "
                               "revealed_at = coalesce(revealed_at, now()) WHERE id = $1 AND state = 'running'", 1, p);
    if (!rc)
        store_event(s, tid, "done", "");
    return rc;
}

int store_tournament_format(store *s, int64_t tid, char *format, size_t len)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    PGresult *r = q(s, NULL, 0, "SELECT format FROM tournaments WHERE id = $1", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    snprintf(format, len, "%s", found ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return found;
}

int store_tournament_named(store *s, const char *name, int64_t *tid, uint64_t *seed, bool *revealed)
{
    /* "#12" is the tournament of id 12; anything else a name (the latest
     * of that name) */
    const char *digits = name[0] == '#' ? name + 1 : NULL;
    bool by_id = digits && *digits && strspn(digits, "0123456789") == strlen(digits) && strlen(digits) <= 18;
    const char *p[] = {by_id ? digits : name};
    PGresult *r = q(s, NULL, 0, by_id ? "SELECT id, seed, revealed_at IS NOT NULL FROM tournaments WHERE id = $1::bigint"
                                      : "SELECT id, seed, revealed_at IS NOT NULL FROM tournaments WHERE name = $1 "
                                        "ORDER BY id DESC LIMIT 1", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found) {
        *tid = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        *seed = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
        *revealed = strcmp(PQgetvalue(r, 0, 2), "t") == 0;
    }
    PQclear(r);
    return found;
}

/* The reports' statements, by store_report_kind. */
static const char *const report_sql[] = {
    /* counted from the index matches_claim alone (tournament, state,
     * round): the web's front page beside a ladder of 300,000 matches
     * took 160 ms joining every match row, 50 this way (bench web) */
    [STORE_REPORT_TOURNAMENTS] =
        "FROM tournaments t LEFT JOIN (SELECT tournament_id, state, count(*) AS n, max(round) AS r "
        "  FROM matches GROUP BY 1, 2) c ON c.tournament_id = t.id "
        "GROUP BY t.id ORDER BY t.id",   /* (columns: store_cols.h) */
    [STORE_REPORT_SECRETS] =
        "SELECT name, coalesce(commitment, ''), CASE WHEN revealed_at IS NOT NULL "
        "THEN encode(secret, 'hex') ELSE '' END FROM tournaments ORDER BY id",
    [STORE_REPORT_POOL] =
        "SELECT name, slots, state, running, matches_done, leases_lost, leases_handed_back, "
        "  to_char(last_seen, 'YYYY-MM-DD HH24:MI:SS') FROM workers "
        "ORDER BY state = 'gone', last_seen DESC LIMIT 200",
    [STORE_REPORT_DONE_BY_WORKER] =
        "SELECT t.name, m.leased_by, count(*) FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "WHERE m.state = 'done' AND m.leased_by IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2",
    [STORE_REPORT_VOIDS] =
        "SELECT t.name, m.round, m.tbl, coalesce(m.leased_by, ''), left(coalesce(m.error, ''), 300) "
        "FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.state = 'void' "
        "ORDER BY m.id DESC LIMIT 10",
    /* (these five: the columns in store_cols.h, what follows them here) */
    [STORE_REPORT_DONE_MATCHES] =
        "FROM matches WHERE tournament_id = $1 AND state = 'done' ORDER BY round, tbl",
    [STORE_REPORT_TEAM_CROSSTABLE] =
        "FROM team_crosstable "
        "WHERE tournament_id = $1 AND team IS NOT NULL AND opponent IS NOT NULL ORDER BY team, opponent",
    [STORE_REPORT_RATINGS] =
        "FROM ratings r JOIN entrants e ON e.tournament_id = r.tournament_id AND e.idx = r.entrant "
        "JOIN tournaments t ON t.id = r.tournament_id WHERE r.tournament_id = $1 ORDER BY r.entrant",
    [STORE_REPORT_RATING_HISTORY] =
        "FROM rating_history h JOIN matches m ON m.id = h.match_id WHERE m.tournament_id = $1 ORDER BY h.seq",
    [STORE_REPORT_LADDER] =
        "FROM ladder_entries le JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant "
        "LEFT JOIN ratings r ON r.tournament_id = le.tournament_id AND r.entrant = le.entrant "
        "WHERE le.tournament_id = $1 ORDER BY le.entrant",
    [STORE_REPORT_MATCHES] =   /* (columns: store_cols.h) */
        "FROM matches m JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "WHERE m.tournament_id = $1 ORDER BY m.round, m.tbl, s.slot",
    [STORE_REPORT_CROSSTABLE] =   /* (columns: store_cols.h) */
        "FROM crosstable c "
        "JOIN entrants a ON a.tournament_id = c.tournament_id AND a.idx = c.entrant "
        "JOIN entrants b ON b.tournament_id = c.tournament_id AND b.idx = c.opponent "
        "WHERE c.tournament_id = $1 ORDER BY c.entrant, c.opponent",
    [STORE_REPORT_MATCH] =   /* (and the next two: columns in store_cols.h) */
        "FROM matches m JOIN tournaments t ON t.id = m.tournament_id JOIN match_seats s ON s.match_id = m.id "
        "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant "
        "WHERE m.id = $1 ORDER BY s.slot",
    [STORE_REPORT_MATCH_DEALS] =
        "FROM deals WHERE match_id = $1 ORDER BY game",
    [STORE_REPORT_MATCH_PENALTIES] =
        "FROM penalties WHERE match_id = $1 ORDER BY n",
};

/* The reports whose columns store_cols.h lists: their SELECT lists. */
static const char *const ratings_cols[] = {STORE_RATINGS_COLS(STORE_COL_EXPR)};
static const char *const history_cols[] = {STORE_HISTORY_COLS(STORE_COL_EXPR)};
static const char *const done_cols[] = {STORE_DONE_COLS(STORE_COL_EXPR)};
static const char *const teamx_cols[] = {STORE_TEAMX_COLS(STORE_COL_EXPR)};
static const char *const ladder_cols[] = {STORE_LADDER_COLS(STORE_COL_EXPR)};
static const char *const matches_cols[] = {STORE_MATCHES_COLS(STORE_COL_EXPR)};
static const char *const match_cols[] = {STORE_MATCH_COLS(STORE_COL_EXPR)};
static const char *const deals_cols[] = {STORE_DEALS_COLS(STORE_COL_EXPR)};
static const char *const pens_cols[] = {STORE_PENS_COLS(STORE_COL_EXPR)};
static const char *const xtable_cols[] = {STORE_XTABLE_COLS(STORE_COL_EXPR)};
static const char *const tournaments_cols[] = {STORE_TOURNAMENTS_COLS(STORE_COL_EXPR)};
#define COLS(a) {a, (int)(sizeof a / sizeof *a)}
static const struct report_cols {
    const char *const *expr;
    int n;
} report_cols[] = {
    [STORE_REPORT_RATINGS] = COLS(ratings_cols),
    [STORE_REPORT_RATING_HISTORY] = COLS(history_cols),
    [STORE_REPORT_DONE_MATCHES] = COLS(done_cols),
    [STORE_REPORT_TEAM_CROSSTABLE] = COLS(teamx_cols),
    [STORE_REPORT_LADDER] = COLS(ladder_cols),
    [STORE_REPORT_MATCHES] = COLS(matches_cols),
    [STORE_REPORT_MATCH] = COLS(match_cols),
    [STORE_REPORT_MATCH_DEALS] = COLS(deals_cols),
    [STORE_REPORT_MATCH_PENALTIES] = COLS(pens_cols),
    [STORE_REPORT_CROSSTABLE] = COLS(xtable_cols),
    [STORE_REPORT_TOURNAMENTS] = COLS(tournaments_cols),
};
#undef COLS

int store__select(char *sql, size_t cap, const char *const *cols, int ncols, const char *rest)
{
    size_t off = 0;
    for (int i = 0; i < ncols && off < cap; i++)
        off += (size_t)snprintf(sql + off, cap - off, "%s%s", i ? ", " : "SELECT ", cols[i]);
    if (off < cap)
        off += (size_t)snprintf(sql + off, cap - off, " %s", rest);
    return off < cap ? 0 : ARB_ETOOBIG;
}

/* A report's statement: its listed columns (store_cols.h), or all of it. */
static int report_statement(store_report_kind kind, char *sql, size_t cap)
{
    const struct report_cols *c = (size_t)kind < sizeof report_cols / sizeof *report_cols ? &report_cols[kind] : NULL;
    if (!c || !c->n)
        return snprintf(sql, cap, "%s", report_sql[kind]) < (int)cap ? 0 : ARB_ETOOBIG;
    return store__select(sql, cap, c->expr, c->n, report_sql[kind]);
}

int store_report(store *s, store_report_kind kind, int64_t tid, store_rows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)kind >= sizeof report_sql / sizeof *report_sql) {
        snprintf(err, errlen, "no such report");
        return ARB_EINVAL;
    }
    char sql[STORE_SELECT_MAX];
    if (report_statement(kind, sql, sizeof sql) != 0) {
        snprintf(err, errlen, "report %d: statement longer than %zu bytes", (int)kind, sizeof sql);
        return ARB_ETOOBIG;
    }
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    PGresult *r = q(s, err, errlen, sql, kind >= STORE_REPORT_DONE_MATCHES ? 1 : 0, p);
    if (!r)
        return ARB_EIO;
    return store__rows(r, out, err, errlen);
}

const char *store_cell(const store_rows *r, int row, int col)
{
    const char *c = row < r->nrows && col < r->ncols ? r->cell[row * r->ncols + col] : NULL;
    return c ? c : "";
}

void store_rows_release(store_rows *r)
{
    for (int i = 0; r->cell && i < r->nrows * r->ncols; i++)
        free(r->cell[i]);
    free(r->cell);
    memset(r, 0, sizeof *r);
}
