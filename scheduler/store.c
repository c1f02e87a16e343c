/* store.c — the tournament record in PostgreSQL (store.h). */
#include "store_int.h"
#include "rating.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The migrations, embedded at build time from schemas/sql (migrations.c). */
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

/* Run a parameterised statement; returns the result (caller clears) or NULL
 * with err set. */
/* A statement's result, or NULL (cleared) with err set when it failed. */
static PGresult *checked(PGresult *r, char *err, size_t errlen)
{
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        fail_msg(err, errlen, "database", PQresultErrorMessage(r));
        PQclear(r);
        return NULL;
    }
    return r;
}

PGresult *store__q(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params)
{
    return checked(PQexecParams(s->db, sql, n, NULL, params, NULL, NULL, 0), err, errlen);
}

PGresult *store__qp(store *s, int k, char *err, size_t errlen, const char *sql, int n, const char *const *params)
{
    char name[16];
    snprintf(name, sizeof name, "arb_%d", k);
    if (k < 0 || k >= 64)
        return q(s, err, errlen, sql, n, params);
    if (!(s->prepared & (1ull << k))) {
        PGresult *r = checked(PQprepare(s->db, name, sql, n, NULL), err, errlen);
        if (!r)
            return NULL;
        PQclear(r);
        s->prepared |= 1ull << k;
    }
    return checked(PQexecPrepared(s->db, name, n, params, NULL, NULL, 0), err, errlen);
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
    PQclear(PQexec(s->db, "ROLLBACK"));
}

int store_migrate(store *s, char *err, size_t errlen)
{
    int rc = exec0(s, err, errlen,
                   "CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, "
                   "applied_at timestamptz NOT NULL DEFAULT now())", 0, NULL);
    if (rc)
        return rc;
    for (int i = 0; i < arb_nmigrations; i++) {
        char v[16];
        snprintf(v, sizeof v, "%d", arb_migration_versions[i]);
        const char *p[] = {v};
        if ((rc = exec0(s, err, errlen, "BEGIN", 0, NULL)) != 0)
            return rc;
        /* one scheduler at a time applies migrations */
        if ((rc = exec0(s, err, errlen, "SELECT pg_advisory_xact_lock(4242)", 0, NULL)) != 0)
            goto fail;
        PGresult *r = q(s, err, errlen, "SELECT 1 FROM schema_migrations WHERE version = $1", 1, p);
        if (!r) {
            rc = ARB_EIO;
            goto fail;
        }
        bool applied = PQntuples(r) > 0;
        PQclear(r);
        if (!applied) {
            r = PQexec(s->db, arb_migrations[i]);
            if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
                char what[64];
                snprintf(what, sizeof what, "migration %03d", arb_migration_versions[i]);
                fail_msg(err, errlen, what, PQresultErrorMessage(r));
                PQclear(r);
                rc = ARB_EIO;
                goto fail;
            }
            PQclear(r);
            if ((rc = exec0(s, err, errlen, "INSERT INTO schema_migrations (version) VALUES ($1)", 1, p)) != 0)
                goto fail;
        }
        if ((rc = exec0(s, err, errlen, "COMMIT", 0, NULL)) != 0)
            return rc;
        continue;
    fail:
        rollback(s);
        return rc;
    }
    return 0;
}

int store_tournament(store *s, const tn_config *cfg, const char *yaml, const char *digest,
                     int64_t *tid, bool *created, char *err, size_t errlen)
{
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
    const char *ev[] = {id, *created ? "start" : "resume"};
    if (exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind) VALUES ($1, $2)", 2, ev))
        goto fail;
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_fairness(store *s, int64_t tid, char commitment[65], char secret_hex[65])
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    commitment[0] = secret_hex[0] = 0;
    PGresult *r = q(s, NULL, 0, "SELECT coalesce(commitment, ''), CASE WHEN revealed_at IS NOT NULL "
                                "THEN encode(secret, 'hex') ELSE '' END FROM tournaments WHERE id = $1", 1, p);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) == 1) {
        snprintf(commitment, 65, "%.64s", PQgetvalue(r, 0, 0));
        snprintf(secret_hex, 65, "%.64s", PQgetvalue(r, 0, 1));
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
        char label[64], seed[24], tb[16];
        snprintf(label, sizeof label, "round/%d/table/%d", round, t);
        snprintf(seed, sizeof seed, "%" PRIu64, arb_seed_child(tseed, label));
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
        m->entrant[i] = atoi(PQgetvalue(r, i, 0));
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
    m->round = atoi(PQgetvalue(r, 0, 1));
    m->tbl = atoi(PQgetvalue(r, 0, 2));
    m->seed = strtoull(PQgetvalue(r, 0, 3), NULL, 10);
    m->lease_gen = atoi(PQgetvalue(r, 0, 4));
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
    int n = atoi(PQcmdTuples(r));
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
    int n = atoi(PQcmdTuples(r));
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
    m->round = atoi(PQgetvalue(r, 0, 1));
    m->tbl = atoi(PQgetvalue(r, 0, 2));
    m->seed = strtoull(PQgetvalue(r, 0, 3), NULL, 10);
    m->lease_gen = atoi(PQgetvalue(r, 0, 4));
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
    int n = atoi(PQcmdTuples(r));
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

bool store_connected(store *s)
{
    if (PQstatus(s->db) == CONNECTION_OK)
        return true;
    PQreset(s->db);   /* one try: a restarted server is back, a lost one is not */
    s->prepared = 0;  /* a new session: nothing prepared on it */
    return PQstatus(s->db) == CONNECTION_OK;
}

int store_worker(store *s, const char *name, int slots, const char *state, int running, int64_t done, int64_t lost)
{
    char sl[16], run[16], dn[24], ls[24];
    snprintf(sl, sizeof sl, "%d", slots);
    snprintf(run, sizeof run, "%d", running);
    snprintf(dn, sizeof dn, "%" PRId64, done);
    snprintf(ls, sizeof ls, "%" PRId64, lost);
    const char *p[] = {name, sl, state, run, dn, ls};
    return exec0(s, NULL, 0,
                 "INSERT INTO workers (name, slots, state, running, matches_done, leases_lost) "
                 "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO UPDATE SET slots = $2, state = $3, "
                 "  running = $4, matches_done = $5, leases_lost = $6, last_seen = now()", 6, p);
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

/* COPY rows (tab-separated text lines) into a table within the open
 * transaction: one round trip for all of a match's deals. */
static int copy_rows(store *s, const char *sql, const char *rows, size_t len, char *err, size_t errlen)
{
    PGresult *r = PQexec(s->db, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        fail_msg(err, errlen, "database", PQresultErrorMessage(r));
        PQclear(r);
        return ARB_EIO;
    }
    PQclear(r);
    if (PQputCopyData(s->db, rows, (int)len) != 1 || PQputCopyEnd(s->db, NULL) != 1)
        return fail_msg(err, errlen, "database", PQerrorMessage(s->db));
    int rc = 0;
    while ((r = PQgetResult(s->db)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            rc = fail_msg(err, errlen, "database", PQresultErrorMessage(r));
        PQclear(r);
    }
    return rc;
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

/* The sides of a match of fixed teams (match_sides): each side's team is
 * the team of its first member, found through the seat's entrant. */
static int record_sides(store *s, const char *mid, const match_result *res, char *err, size_t errlen)
{
    for (int t = 0; t < res->nteams; t++) {
        int first = -1;
        bool forfeited = false;
        for (int b = 0; b < res->nbots; b++)
            if (res->team_of_bot[b] == t) {
                if (first < 0)
                    first = b;
                forfeited |= res->bots[b].forfeited;
            }
        char side[16], slot[16], total[24], rank[16], points[32];
        snprintf(side, sizeof side, "%d", t);
        snprintf(slot, sizeof slot, "%d", first);
        snprintf(total, sizeof total, "%" PRId64, res->team_total[t]);
        snprintf(rank, sizeof rank, "%d", res->team_rank[t]);
        snprintf(points, sizeof points, "%.1f", match_points(res->team_rank, res->nteams, t));
        const char *p[] = {mid, side, total, rank, points, forfeited ? "true" : "false", slot};
        if (exec0(s, err, errlen,
                  "INSERT INTO match_sides (match_id, side, team, total, rank, points, forfeited) "
                  "SELECT $1, $2, e.team_idx, $3, $4, $5, $6 FROM matches m "
                  "JOIN match_seats st ON st.match_id = m.id AND st.slot = $7 "
                  "LEFT JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = st.entrant "
                  "WHERE m.id = $1", 7, p))
            return ARB_EIO;
    }
    return 0;
}

/* The match's ratings, in its result's transaction (docs/ratings.md):
 * when its tournament keeps ratings, each entrant's current rating (a
 * newcomer's default) locked, updated by rating_match from the places
 * (teams' places in a partnership game) and written back with a history
 * row each. The history's key (match, entrant) and the result's own
 * once-only UPDATE mean a match never rates twice. */
static int rate_match(store *s, const char *mid, const match_result *res, char *err, size_t errlen);
static int load_result(store *s, const char *mid, match_result *res, char *err, size_t errlen);

/* Rate, in the plan's order (round, table), every finished match not yet
 * rated that has no unfinished match before it: the one just recorded and
 * any that waited for it. A void match is passed over. */
/* exec0 for a prepared statement (store__qp). */
static int exec_p(store *s, int k, char *err, size_t errlen, const char *sql, int n, const char *const *params)
{
    PGresult *r = qp(s, k, err, errlen, sql, n, params);
    if (!r)
        return ARB_EIO;
    PQclear(r);
    return 0;
}

static int record_ratings(store *s, const char *mid, char *err, size_t errlen)
{
    const char *p1[] = {mid};
    PGresult *r = qp(s, 1, err, errlen,
                    "SELECT m.id, m.state FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
                    "WHERE m.tournament_id = (SELECT tournament_id FROM matches WHERE id = $1) "
                    "  AND t.rating_system <> 'none' AND NOT m.rated AND m.state <> 'void' "
                    "ORDER BY m.round, m.tbl", 1, p1);
    if (!r)
        return ARB_EIO;
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && !rc; i++) {
        if (strcmp(PQgetvalue(r, i, 1), "done") != 0)
            break;   /* an earlier match is still to come: the rest wait for it */
        const char *id = PQgetvalue(r, i, 0);
        /* from the record, the match just written too: every match rated
         * by the same reading, whenever its turn comes */
        match_result *rec = calloc(1, sizeof *rec);
        rc = rec ? load_result(s, id, rec, err, errlen) : ARB_ENOMEM;
        if (!rc)
            rc = rate_match(s, id, rec, err, errlen);
        free(rec);
        const char *pm[] = {id};
        if (!rc)
            rc = exec_p(s, 7, err, errlen, "UPDATE matches SET rated = true WHERE id = $1", 1, pm) ? ARB_EIO : 0;
    }
    PQclear(r);
    return rc;
}

/* What rate_match needs of a match recorded earlier: its bots' ranks and
 * their teams' (match_seats, match_sides). */
static int load_result(store *s, const char *mid, match_result *res, char *err, size_t errlen)
{
    const char *p1[] = {mid};
    PGresult *r = qp(s, 2, err, errlen, "SELECT slot, coalesce(rank, 99), coalesce(forfeited, false) FROM match_seats "
                                    "WHERE match_id = $1 ORDER BY slot", 1, p1);
    if (!r)
        return ARB_EIO;
    res->nbots = PQntuples(r) < ARB_MAX_SEATS ? PQntuples(r) : ARB_MAX_SEATS;
    for (int b = 0; b < res->nbots; b++) {
        res->bots[b].rank = atoi(PQgetvalue(r, b, 1));
        res->bots[b].forfeited = PQgetvalue(r, b, 2)[0] == 't';
        res->team_of_bot[b] = -1;
    }
    PQclear(r);
    /* the sides: each bot's side (match_seats.side) and its team's place */
    r = qp(s, 3, err, errlen,
          "SELECT st.slot, st.side, sd.rank FROM match_seats st JOIN match_sides sd "
          "  ON sd.match_id = st.match_id AND sd.side = st.side WHERE st.match_id = $1 ORDER BY st.slot", 1, p1);
    if (!r)
        return ARB_EIO;
    res->nteams = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        int slot = atoi(PQgetvalue(r, i, 0)), side = atoi(PQgetvalue(r, i, 1));
        if (side < 0 || side >= ARB_MAX_SEATS || slot < 0 || slot >= res->nbots)
            continue;
        res->team_of_bot[slot] = (int8_t)side;
        res->team_rank[side] = atoi(PQgetvalue(r, i, 2));
        if (side + 1 > res->nteams)
            res->nteams = side + 1;
    }
    PQclear(r);
    return 0;
}

/* One match's ratings (see record_ratings). */
static int rate_match(store *s, const char *mid, const match_result *res, char *err, size_t errlen)
{
    const char *p1[] = {mid};
    PGresult *r = qp(s, 4, err, errlen,
                    "SELECT t.id, t.rating_system, coalesce(t.rating_model, '') FROM tournaments t "
                    "JOIN matches m ON m.tournament_id = t.id WHERE m.id = $1", 1, p1);
    if (!r)
        return ARB_EIO;
    tn_rating sys = TN_RATING_NONE;
    wl_model model = WL_PLACKETT_LUCE;
    char tid[24] = "";
    if (PQntuples(r) == 1) {
        snprintf(tid, sizeof tid, "%s", PQgetvalue(r, 0, 0));
        if (tn_rating_parse(PQgetvalue(r, 0, 1), &sys) || (PQgetvalue(r, 0, 2)[0] && wl_model_parse(PQgetvalue(r, 0, 2), &model)))
            sys = TN_RATING_NONE;
    }
    PQclear(r);
    if (sys == TN_RATING_NONE || res->nbots < 2)
        return 0;
    int n = res->nbots, entrant[ARB_MAX_SEATS], rank[ARB_MAX_SEATS], side[ARB_MAX_SEATS];
    rated before[ARB_MAX_SEATS], after[ARB_MAX_SEATS];
    /* the entrants' rows locked first (one scheduler records results one
     * at a time; the lock keeps any other writer out until we commit) */
    r = qp(s, 5, err, errlen,
          "SELECT 1 FROM ratings rt JOIN matches m ON m.tournament_id = rt.tournament_id "
          "JOIN match_seats st ON st.match_id = m.id AND st.entrant = rt.entrant "
          "WHERE m.id = $1 FOR UPDATE OF rt", 1, p1);
    if (!r)
        return ARB_EIO;
    PQclear(r);
    r = qp(s, 6, err, errlen,
          "SELECT st.slot, st.entrant, rt.mu, rt.sigma, rt.vol, rt.games FROM match_seats st "
          "JOIN matches m ON m.id = st.match_id "
          "LEFT JOIN ratings rt ON rt.tournament_id = m.tournament_id AND rt.entrant = st.entrant "
          "WHERE st.match_id = $1 ORDER BY st.slot", 1, p1);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) != n) {
        PQclear(r);
        snprintf(err, errlen, "match %s: %d seats recorded for %d bots", mid, PQntuples(r), n);
        return ARB_EIO;
    }
    for (int b = 0; b < n; b++) {
        entrant[b] = atoi(PQgetvalue(r, b, 1));
        before[b] = rated_default(sys, model);
        if (!PQgetisnull(r, b, 2))
            before[b] = (rated){atof(PQgetvalue(r, b, 2)), atof(PQgetvalue(r, b, 3)),
                                PQgetisnull(r, b, 4) ? 0 : atof(PQgetvalue(r, b, 4)), atoi(PQgetvalue(r, b, 5))};
        bool teams = res->nteams > 0 && res->team_of_bot[b] >= 0;
        side[b] = teams ? res->team_of_bot[b] : -1;
        rank[b] = teams ? res->team_rank[res->team_of_bot[b]] : res->bots[b].rank;
        after[b] = before[b];
    }
    PQclear(r);
    /* an entrant in several slots (a ladder's partnership entry sits both
     * seats of its side with a copy of itself) is one player: its first slot */
    int m = 0;
    for (int b = 0; b < n; b++) {
        bool again = false;
        for (int c = 0; c < m && !again; c++)
            again = entrant[c] == entrant[b];
        if (again)
            continue;
        entrant[m] = entrant[b], rank[m] = rank[b], side[m] = side[b], before[m] = before[b], after[m] = after[b];
        m++;
    }
    n = m;
    if (n < 2)
        return 0;
    if (rating_match((int)sys, (int)model, after, rank, side, n) != 0) {
        snprintf(err, errlen, "match %s: the ratings cannot be updated", mid);
        return ARB_EINVAL;
    }
    /* every entrant's row at once (arrays, one statement per table): a
     * result's transaction makes two round trips for them, not two each */
    enum { E, MB, SB, VB, MA, SA, VA, G, RK, SD, NCOL };
    char col[NCOL][ARB_MAX_SEATS * 28 + 8];
    bool vol = sys == TN_RATING_GLICKO2;
    for (int c = 0; c < NCOL; c++) {
        size_t len = 0;
        col[c][len++] = '{';
        for (int b = 0; b < n; b++) {
            const char *sep = b ? "," : "";
            size_t cap = sizeof col[c] - len;
            switch (c) {
            case E: len += (size_t)snprintf(col[c] + len, cap, "%s%d", sep, entrant[b]); break;
            case MB: len += (size_t)snprintf(col[c] + len, cap, "%s%.17g", sep, before[b].mu); break;
            case SB: len += (size_t)snprintf(col[c] + len, cap, "%s%.17g", sep, before[b].sigma); break;
            case MA: len += (size_t)snprintf(col[c] + len, cap, "%s%.17g", sep, after[b].mu); break;
            case SA: len += (size_t)snprintf(col[c] + len, cap, "%s%.17g", sep, after[b].sigma); break;
            case VB: case VA:
                if (vol)
                    len += (size_t)snprintf(col[c] + len, cap, "%s%.17g", sep, c == VB ? before[b].vol : after[b].vol);
                else
                    len += (size_t)snprintf(col[c] + len, cap, "%sNULL", sep);
                break;
            case G: len += (size_t)snprintf(col[c] + len, cap, "%s%d", sep, after[b].games); break;
            case RK: len += (size_t)snprintf(col[c] + len, cap, "%s%d", sep, rank[b]); break;
            default:
                if (side[b] >= 0)
                    len += (size_t)snprintf(col[c] + len, cap, "%s%d", sep, side[b]);
                else
                    len += (size_t)snprintf(col[c] + len, cap, "%sNULL", sep);
                break;
            }
        }
        snprintf(col[c] + len, sizeof col[c] - len, "}");
    }
    /* in slot order: the history's seq follows it, and a recomputation
     * replays each match's players in that order */
    const char *hp[] = {mid, col[E], col[MB], col[SB], col[VB], col[MA], col[SA], col[VA], col[RK], col[SD]};
    const char *rp[] = {tid, col[E], col[MA], col[SA], col[VA], col[G], mid};
    if (exec_p(s, 8, err, errlen,
               "INSERT INTO rating_history (match_id, entrant, mu_before, sigma_before, vol_before, mu_after, "
               "  sigma_after, vol_after, rank, side) "
               "SELECT $1, e, mb, sb, vb, ma, sa, va, rk, sd FROM unnest($2::int[], $3::float8[], $4::float8[], "
               "  $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::int[], $10::int[]) "
               "  WITH ORDINALITY AS x(e, mb, sb, vb, ma, sa, va, rk, sd, ord) ORDER BY ord", 10, hp)
        || exec_p(s, 9, err, errlen,
                  "INSERT INTO ratings (tournament_id, entrant, mu, sigma, vol, games, last_match) "
                  "SELECT $1, e, ma, sa, va, g, $7 FROM unnest($2::int[], $3::float8[], $4::float8[], $5::float8[], "
                  "  $6::int[]) AS x(e, ma, sa, va, g) "
                  "ON CONFLICT (tournament_id, entrant) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                  "  vol = excluded.vol, games = excluded.games, last_match = excluded.last_match, updated_at = now()",
                  7, rp))
        return ARB_EIO;
    return 0;
}

int store_record(store *s, const store_match *m, const match_result *res, const char *digest,
                 const char *transcript, const char *holder, char *err, size_t errlen)
{
    char mid[24], gen[16], games[16], dec[24], wall[24];
    snprintf(mid, sizeof mid, "%" PRId64, m->id);
    snprintf(gen, sizeof gen, "%d", m->lease_gen);
    snprintf(games, sizeof games, "%u", res->ndeals);
    snprintf(dec, sizeof dec, "%" PRIu64, res->decisions);
    snprintf(wall, sizeof wall, "%" PRIu64, res->wall_ns / 1000000);
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    const char *p[] = {mid, gen, digest, transcript, games, dec, wall, holder};
    PGresult *r = q(s, err, errlen,
                    "UPDATE matches SET state = 'done', finished_at = now(), digest = $3, transcript = $4, "
                    "  games = $5, decisions = $6, wall_ms = $7, lease_until = NULL "
                    "WHERE id = $1 AND lease_gen = $2 AND state = 'leased' "
                    "  AND ($8::text IS NULL OR leased_by = $8::text)", 8, p);
    if (!r)
        goto fail;
    int n = atoi(PQcmdTuples(r));
    PQclear(r);
    if (n != 1) {
        /* A stale lease, or recorded already: nothing is written twice. */
        rollback(s);
        snprintf(err, errlen, "match %" PRId64 " generation %d: stale lease or already recorded", m->id, m->lease_gen);
        return ARB_ESTATE;
    }
    for (int b = 0; b < res->nbots; b++) {
        const match_bot_stats *st = &res->bots[b];
        char slot[16], total[24], points[32], rank[16], decs[16], wns[24], cns[24], strikes[16], pens[16];
        snprintf(slot, sizeof slot, "%d", b);
        snprintf(total, sizeof total, "%" PRId64, st->total);
        int ranks[ARB_MAX_SEATS];
        for (int o = 0; o < res->nbots; o++)
            ranks[o] = res->bots[o].rank;
        snprintf(points, sizeof points, "%.1f", match_points(ranks, res->nbots, b));
        snprintf(rank, sizeof rank, "%d", st->rank);
        snprintf(decs, sizeof decs, "%u", st->decisions);
        snprintf(wns, sizeof wns, "%" PRIu64, st->wall_ns);
        snprintf(cns, sizeof cns, "%" PRIu64, st->cpu_ns);
        snprintf(strikes, sizeof strikes, "%u", st->strikes);
        snprintf(pens, sizeof pens, "%u", st->penalties);
        char side[16];
        snprintf(side, sizeof side, "%d", res->nteams ? res->team_of_bot[b] : -1);
        const char *sp[] = {mid, slot, total, points, rank, st->forfeited ? "true" : "false", decs, wns, cns,
                            strikes, pens, st->sandbox, res->nteams && res->team_of_bot[b] >= 0 ? side : NULL};
        if (exec0(s, err, errlen,
                  "UPDATE match_seats SET total = $3, points = $4, rank = $5, forfeited = $6, decisions = $7, "
                  "  wall_ns = $8, cpu_ns = $9, strikes = $10, penalties = $11, sandbox = $12, side = $13 "
                  "WHERE match_id = $1 AND slot = $2", 13, sp))
            goto fail;
    }
    if (record_sides(s, mid, res, err, errlen) || record_ratings(s, mid, err, errlen))
        goto fail;
    /* The deals: COPY, one round trip. Values are numbers we format. */
    size_t cap = (size_t)res->ndeals * 256 + 1, len = 0;
    char *rows = malloc(cap);
    if (!rows)
        goto fail;
    for (uint32_t g = 0; g < res->ndeals; g++) {
        const match_deal *d = &res->deals[g];
        len += (size_t)snprintf(rows + len, cap - len, "%s\t%u\t%u\t%u\t%" PRIu64 "\t{", mid, d->game, d->deal,
                                d->seating, d->seed);
        for (int k = 0; k < res->nbots; k++)
            len += (size_t)snprintf(rows + len, cap - len, "%s%u", k ? "," : "", d->bot_at[k]);
        len += (size_t)snprintf(rows + len, cap - len, "}\t{");
        for (int k = 0; k < res->nbots; k++)
            len += (size_t)snprintf(rows + len, cap - len, "%s%" PRId64, k ? "," : "", d->score[k]);
        if (d->forfeit_bot >= 0)
            len += (size_t)snprintf(rows + len, cap - len, "}\t%d\n", d->forfeit_bot);
        else
            len += (size_t)snprintf(rows + len, cap - len, "}\t\\N\n");
    }
    int rc = res->ndeals ? copy_rows(s, "COPY deals (match_id, game, deal, seating, seed, seat_slots, scores, "
                                        "forfeit_slot) FROM STDIN", rows, len, err, errlen) : 0;
    free(rows);
    if (rc)
        goto fail;
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
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
    int n = atoi(PQcmdTuples(r));
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
    *pending = atoi(PQgetvalue(r, 0, 0));
    *leased = atoi(PQgetvalue(r, 0, 1));
    *done = atoi(PQgetvalue(r, 0, 2));
    *voided = atoi(PQgetvalue(r, 0, 3));
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
    int n = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

int store_round_results(store *s, int64_t tid, int round, bool teams, store_table *order, int ntables)
{
    char id[24], rd[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(rd, sizeof rd, "%d", round);
    const char *p[] = {id, rd};
    PGresult *r = q(s, NULL, 0,
                    teams ? "SELECT m.tbl, sd.team FROM matches m JOIN match_sides sd ON sd.match_id = m.id "
                            "WHERE m.tournament_id = $1 AND m.round = $2 AND sd.team IS NOT NULL "
                            "ORDER BY m.tbl, sd.rank, sd.total DESC, sd.side"
                          : "SELECT m.tbl, s.entrant FROM matches m JOIN match_seats s ON s.match_id = m.id "
                            "WHERE m.tournament_id = $1 AND m.round = $2 "
                            "ORDER BY m.tbl, coalesce(s.rank, 99), s.total DESC NULLS LAST, s.slot", 2, p);
    if (!r)
        return ARB_EIO;
    for (int t = 0; t < ntables; t++)
        order[t].nslots = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        int t = atoi(PQgetvalue(r, i, 0));
        if (t < 0 || t >= ntables || order[t].nslots >= ARB_MAX_SEATS)
            continue;
        order[t].entrant[order[t].nslots++] = atoi(PQgetvalue(r, i, 1));
    }
    PQclear(r);
    return 0;
}

int store_standings(store *s, int64_t tid, bool teams, store_standing *rows, int cap)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    PGresult *r = q(s, NULL, 0,
                    teams ? "SELECT team, name, played, wins, points, score, penalties, ever_forfeited "
                            "FROM team_standings WHERE tournament_id = $1 "
                            "ORDER BY points DESC, score DESC, wins DESC, team"
                          : "SELECT entrant, name, played, wins, points, score, penalties, ever_forfeited "
                            "FROM standings WHERE tournament_id = $1 "
                            "ORDER BY points DESC, score DESC, wins DESC, entrant", 1, p);
    if (!r)
        return ARB_EIO;
    int n = PQntuples(r) < cap ? PQntuples(r) : cap;
    for (int i = 0; i < n; i++) {
        store_standing *row = &rows[i];
        row->entrant = atoi(PQgetvalue(r, i, 0));
        snprintf(row->name, sizeof row->name, "%s", PQgetvalue(r, i, 1));
        row->played = atoi(PQgetvalue(r, i, 2));
        row->wins = atoi(PQgetvalue(r, i, 3));
        row->points = atof(PQgetvalue(r, i, 4));
        row->score = strtoll(PQgetvalue(r, i, 5), NULL, 10);
        row->penalties = atoi(PQgetvalue(r, i, 6));
        row->forfeited = PQgetvalue(r, i, 7)[0] == 't';
    }
    PQclear(r);
    return n;
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
    const char *p[] = {name};
    PGresult *r = q(s, NULL, 0, "SELECT id, seed, revealed_at IS NOT NULL FROM tournaments WHERE name = $1 "
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
    [STORE_REPORT_TOURNAMENTS] =
        "SELECT t.name, t.format, t.state, "
        "  count(m.*) FILTER (WHERE m.state = 'pending'), count(m.*) FILTER (WHERE m.state = 'leased'), "
        "  count(m.*) FILTER (WHERE m.state = 'done'), count(m.*) FILTER (WHERE m.state = 'void'), "
        "  coalesce(max(m.round), 0), to_char(t.created_at, 'YYYY-MM-DD HH24:MI') "
        "FROM tournaments t LEFT JOIN matches m ON m.tournament_id = t.id "
        "GROUP BY t.id ORDER BY t.id",
    [STORE_REPORT_SECRETS] =
        "SELECT name, coalesce(commitment, ''), CASE WHEN revealed_at IS NOT NULL "
        "THEN encode(secret, 'hex') ELSE '' END FROM tournaments ORDER BY id",
    [STORE_REPORT_POOL] =
        "SELECT name, slots, state, running, matches_done, leases_lost, "
        "  to_char(last_seen, 'YYYY-MM-DD HH24:MI:SS') FROM workers "
        "ORDER BY state = 'gone', last_seen DESC LIMIT 200",
    [STORE_REPORT_DONE_BY_WORKER] =
        "SELECT t.name, m.leased_by, count(*) FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "WHERE m.state = 'done' AND m.leased_by IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2",
    [STORE_REPORT_VOIDS] =
        "SELECT t.name, m.round, m.tbl, coalesce(m.leased_by, ''), left(coalesce(m.error, ''), 300) "
        "FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.state = 'void' "
        "ORDER BY m.id DESC LIMIT 10",
    [STORE_REPORT_DONE_MATCHES] =
        "SELECT round, tbl, coalesce(transcript, ''), coalesce(digest, '') FROM matches "
        "WHERE tournament_id = $1 AND state = 'done' ORDER BY round, tbl",
    [STORE_REPORT_TEAM_CROSSTABLE] =
        "SELECT team, opponent, matches, won, points FROM team_crosstable "
        "WHERE tournament_id = $1 AND team IS NOT NULL AND opponent IS NOT NULL ORDER BY team, opponent",
    [STORE_REPORT_RATINGS] =
        "SELECT r.entrant, e.name, r.mu, r.sigma, coalesce(r.vol, 0), r.games, t.rating_system, "
        "  coalesce(t.rating_model, ''), coalesce(to_char(r.updated_at, 'YYYY-MM-DD HH24:MI'), '') "
        "FROM ratings r JOIN entrants e ON e.tournament_id = r.tournament_id AND e.idx = r.entrant "
        "JOIN tournaments t ON t.id = r.tournament_id WHERE r.tournament_id = $1 ORDER BY r.entrant",
    [STORE_REPORT_RATING_HISTORY] =
        "SELECT h.match_id, h.entrant, h.rank, coalesce(h.side, -1), h.mu_after, h.sigma_after, "
        "  coalesce(h.vol_after, 0) FROM rating_history h JOIN matches m ON m.id = h.match_id "
        "WHERE m.tournament_id = $1 ORDER BY h.seq",
    [STORE_REPORT_LADDER] =
        "SELECT le.entrant, e.name, le.base, le.version, le.status, le.verdict, coalesce(r.mu::text, ''), "
        "  coalesce(r.sigma::text, ''), coalesce(r.vol::text, ''), coalesce(r.games, 0), "
        "  coalesce(to_char(greatest(le.last_started, r.updated_at), 'YYYY-MM-DD HH24:MI'), ''), "
        "  to_char(le.joined_at, 'YYYY-MM-DD HH24:MI'), coalesce(p.name, ''), "
        "  coalesce(le.validation_match::text, ''), coalesce(le.digest, ''), "
        "  coalesce(extract(epoch FROM now() - greatest(le.last_started, r.updated_at))::bigint, -1), "
        "  t.rating_system, coalesce(t.rating_model, ''), coalesce(t.ladder_provisional, 10), "
        "  coalesce(t.ladder_inactive_days, 30) "
        "FROM ladder_entries le JOIN tournaments t ON t.id = le.tournament_id JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant "
        "LEFT JOIN ratings r ON r.tournament_id = le.tournament_id AND r.entrant = le.entrant "
        "LEFT JOIN entrants p ON p.tournament_id = le.tournament_id AND p.idx = le.previous "
        "WHERE le.tournament_id = $1 ORDER BY le.entrant",
};

int store_report(store *s, store_report_kind kind, int64_t tid, store_rows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)kind >= sizeof report_sql / sizeof *report_sql) {
        snprintf(err, errlen, "no such report");
        return ARB_EINVAL;
    }
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    PGresult *r = q(s, err, errlen, report_sql[kind],
                    kind >= STORE_REPORT_DONE_MATCHES ? 1 : 0, p);
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
