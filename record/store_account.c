/* store_account.c — accounts, their tokens (only a SHA-256 kept) and the
 * participant API's reads and writes (018_accounts.sql, docs/api.md). The
 * API's writes go through the SECURITY DEFINER functions of the migration,
 * so that the web's database role (arbiter_web) needs no write privilege
 * on any table; each writes its audit row in its own transaction. */
#include "store_int.h"
#include "arb_error.h"
#include "arb_num.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ROLES[] = {"participant", "arbiter", "organiser"};

const char *store_role_name(store_role r)
{
    return r >= STORE_PARTICIPANT && r <= STORE_ORGANISER ? ROLES[r] : "?";
}

int store_role_parse(const char *s, store_role *r)
{
    for (int i = 0; i < 3; i++)
        if (s && strcmp(s, ROLES[i]) == 0) {
            *r = (store_role)i;
            return 0;
        }
    return ARB_EINVAL;
}

void store_token_new(char token[STORE_TOKEN_LEN + 1])
{
    uint8_t raw[32];
    char hex[65];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
    snprintf(token, STORE_TOKEN_LEN + 1, "arb1_%s", hex);
    sodium_memzero(raw, sizeof raw);
    sodium_memzero(hex, sizeof hex);
}

bool store_token_wellformed(const char *t)
{
    if (!t || strncmp(t, "arb1_", 5) != 0 || strlen(t) != STORE_TOKEN_LEN)
        return false;
    for (const char *c = t + 5; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

void store_token_hash(const char *token, char hash[65])
{
    uint8_t h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)token, strlen(token));
    sodium_bin2hex(hash, 65, h, sizeof h);
}

bool store_account_name_ok(const char *n)
{
    size_t len = n ? strlen(n) : 0;
    if (len == 0 || len > ARB_ACCOUNT_MAX_NAME || n[0] == '-' || n[0] == '_')
        return false;
    for (const char *c = n; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
            return false;
    return true;
}

/* A statement whose refusal is a message of ours (RAISE ... USING ERRCODE
 * 'ARnnn'): its result, or NULL with the primary message in err and the
 * HTTP status of an ARnnn code in *status (else 0: a failure of the
 * record, "database: ..." in err). */
static PGresult *api_q(store *s, int *status, char *err, size_t errlen, const char *sql, int n,
                       const char *const *p, const int *lengths, const int *binary)
{
    *status = 0;
    PGresult *r = PQexecParams(s->db, sql, n, NULL, p, lengths, binary, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        s->sqlstate[0] = 0;
        return r;
    }
    const char *code = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    if (code && strncmp(code, "AR", 2) == 0 && msg) {
        *status = (int)arb_cell_int(code + 2);
        snprintf(err, errlen, "%s", msg);
        PQclear(r);
        return NULL;
    }
    return store__checked(s, r, err, errlen);
}

int store_account_add(store *s, const char *name, store_role role, const store_quota *qt, const char *hash,
                      const char *by, char *err, size_t errlen)
{
    char up[24] = "", bytes[24] = "", ent[24] = "";
    if (qt && qt->uploads_per_day >= 0)
        snprintf(up, sizeof up, "%lld", qt->uploads_per_day);
    if (qt && qt->bytes_per_day >= 0)
        snprintf(bytes, sizeof bytes, "%lld", qt->bytes_per_day);
    if (qt && qt->entries_max >= 0)
        snprintf(ent, sizeof ent, "%lld", qt->entries_max);
    /* the web's grants, in case the role came after the record's migration */
    if (exec0(s, err, errlen, "SELECT arb_web_grants()", 0, NULL) != 0)
        return ARB_EIO;
    const char *p[] = {name, store_role_name(role), hash, up[0] ? up : NULL, bytes[0] ? bytes : NULL,
                       ent[0] ? ent : NULL, by};
    PGresult *r = q(s, err, errlen,
                    "WITH a AS (INSERT INTO accounts (name, role, token_hash, uploads_per_day, bytes_per_day, "
                    "  entries_max) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING RETURNING name, role) "
                    "INSERT INTO audit_log (account, action, target, detail) "
                    "SELECT $7, 'account add', name, 'role ' || role FROM a RETURNING 1",
                    7, p);
    if (!r)
        return ARB_EIO;
    int n = PQntuples(r);
    PQclear(r);
    if (n == 0) {
        snprintf(err, errlen, "an account called \"%s\" exists already", name);
        return ARB_EEXIST;
    }
    return 0;
}

int store_account_list(store *s, store_rows *out, char *err, size_t errlen)
{
    return store__rows_q(s,
                         "SELECT name, role, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
                         "  coalesce(to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), ''), "
                         "  coalesce(to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), ''), "
                         "  coalesce(uploads_per_day::text, ''), coalesce(bytes_per_day::text, ''), "
                         "  coalesce(entries_max::text, '') "
                         "FROM accounts ORDER BY name",
                         0, NULL, out, err, errlen);
}

/* One account's row changed with its audit row: 1, 0 (none matched), < 0. */
static int account_change(store *s, const char *sql, const char *name, const char *hash, const char *by,
                          const char *action, char *err, size_t errlen)
{
    const char *p[] = {name, by, action, hash};
    char full[1024];
    snprintf(full, sizeof full,
             "WITH a AS (%s RETURNING name) INSERT INTO audit_log (account, action, target) "
             "SELECT $2, $3, name FROM a RETURNING 1", sql);
    PGresult *r = q(s, err, errlen, full, hash ? 4 : 3, p);
    if (!r)
        return ARB_EIO;
    int n = PQntuples(r);
    PQclear(r);
    return n;
}

int store_account_revoke(store *s, const char *name, const char *by, char *err, size_t errlen)
{
    return account_change(s, "UPDATE accounts SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL", name,
                          NULL, by, "account revoke", err, errlen);
}

int store_account_rotate(store *s, const char *name, const char *hash, const char *by, char *err, size_t errlen)
{
    return account_change(s,
                          "UPDATE accounts SET token_hash = $4, rotated_at = now() WHERE name = $1 "
                          "AND revoked_at IS NULL",
                          name, hash, by, "account rotate", err, errlen);
}

int store_web_role(store *s, char *err, size_t errlen)
{
    PGresult *r = q(s, err, errlen, "SELECT 1 FROM pg_roles WHERE rolname = 'arbiter_web'", 0, NULL);
    if (!r)
        return ARB_EIO;
    int have = PQntuples(r);
    PQclear(r);
    if (!have) {
        snprintf(err, errlen, "the record's cluster has no role arbiter_web (018_accounts.sql makes it when the "
                              "migrating login may create roles)");
        return ARB_ENOTFOUND;
    }
    if (exec0(s, err, errlen, "SET ROLE arbiter_web", 0, NULL) != 0)
        return ARB_ESTATE;
    return 0;
}

int store_api_on(store *s)
{
    PGresult *r = q(s, NULL, 0, "SELECT arb_api_on()", 0, NULL);
    if (!r)
        return ARB_EIO;
    int on = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return on;
}

int store_api_auth(store *s, const char *hash, store_account *a, char *err, size_t errlen)
{
    const char *p[] = {hash};
    PGresult *r = q(s, err, errlen, "SELECT id, name, role, token_hash, revoked FROM arb_api_auth($1)", 1, p);
    if (!r)
        return ARB_EIO;
    int found = 0;
    if (PQntuples(r) == 1 && strlen(PQgetvalue(r, 0, 3)) == 64
        && sodium_memcmp(PQgetvalue(r, 0, 3), hash, 64) == 0) {
        memset(a, 0, sizeof *a);
        a->id = arb_cell_int(PQgetvalue(r, 0, 0));
        snprintf(a->name, sizeof a->name, "%s", PQgetvalue(r, 0, 1));
        a->revoked = strcmp(PQgetvalue(r, 0, 4), "t") == 0;
        found = store_role_parse(PQgetvalue(r, 0, 2), &a->role) == 0 && !a->revoked;
    }
    PQclear(r);
    return found;
}

int store_api_quota(store *s, int64_t account, store_quota *qt, char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, account);
    const char *p[] = {id};
    PGresult *r = q(s, err, errlen, "SELECT * FROM arb_api_quota($1)", 1, p);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) != 1) {
        PQclear(r);
        snprintf(err, errlen, "no such account");
        return ARB_ENOTFOUND;
    }
    long long v[6];
    static const long long dflt[6] = {0, ARB_API_UPLOADS_PER_DAY, 0, ARB_API_BYTES_PER_DAY, 0,
                                      ARB_API_ENTRIES_PER_LADDER};
    for (int i = 0; i < 6; i++)
        v[i] = PQgetisnull(r, 0, i) ? dflt[i] : arb_cell_int(PQgetvalue(r, 0, i));
    PQclear(r);
    *qt = (store_quota){v[0], v[1], v[2], v[3], v[4], v[5]};
    return 0;
}

int store_api_audit(store *s, const char *account, const char *action, const char *target, const char *detail,
                    const char *address, bool ok)
{
    const char *p[] = {account, action, target ? target : "", detail ? detail : "", address ? address : "",
                       ok ? "true" : "false"};
    return exec0(s, NULL, 0, "SELECT arb_api_audit($1, $2, $3, $4, $5, $6)", 6, p);
}

int store_api_join(store *s, const store_api_join_in *j, char *entry, size_t entrylen, int *version, char *err,
                   size_t errlen)
{
    uint8_t *z = NULL;
    size_t zlen = 0;
    int rc = store__zstd_pack(j->bundle, j->len, &z, &zlen, err, errlen);
    if (rc)
        return rc;
    const char *codec = "zstd";
    const uint8_t *body = z;
    if (zlen >= j->len) {   /* as it is when that is smaller */
        codec = "none";
        body = j->bundle;
        zlen = j->len;
    }
    arb_buf argi, paths;
    arb_buf_init(&argi, 1u << 12);
    arb_buf_init(&paths, 1u << 16);
    for (int k = 0; k < j->prog->nfiles; k++) {
        store__arr_put(&argi, "%d", j->prog->argi[k]);
        store__arr_text(&paths, j->prog->path[k]);
    }
    store__arr_close(&argi);
    store__arr_close(&paths);
    arb_buf env;
    arb_buf_init(&env, 1u << 12);
    for (const char *l = j->env ? j->env : ""; *l;) {
        size_t n = strcspn(l, "\n");
        char one[ARB_MAX_BOT_ENV_TEXT + 1];
        snprintf(one, sizeof one, "%.*s", (int)n, l);
        if (n)
            store__arr_text(&env, one);
        l += n + (l[n] == '\n');
    }
    store__arr_close(&env);
    char acc[24], size[24], up[24], bytes[24], ent[24], maxe[24], startup[24];
    snprintf(startup, sizeof startup, "%" PRId64, j->startup_ms);
    snprintf(acc, sizeof acc, "%" PRId64, j->account);
    snprintf(size, sizeof size, "%zu", j->len);
    snprintf(up, sizeof up, "%d", ARB_API_UPLOADS_PER_DAY);
    snprintf(bytes, sizeof bytes, "%lld", (long long)ARB_API_BYTES_PER_DAY);
    snprintf(ent, sizeof ent, "%d", ARB_API_ENTRIES_PER_LADDER);
    snprintf(maxe, sizeof maxe, "%d", ARB_LADDER_MAX_ENTRIES);
    const char *p[] = {acc, j->ladder, j->base, j->command, j->digest, size, codec, (const char *)body,
                       arb_buf_str(&argi), arb_buf_str(&paths), j->replace ? "true" : "false",
                       j->address ? j->address : "", up, bytes, ent, maxe, j->startup_ms > 0 ? startup : NULL,
                       arb_buf_str(&env)};
    int lengths[18] = {0}, binary[18] = {0};
    lengths[7] = (int)zlen;
    binary[7] = 1;
    int status = 0;
    PGresult *r = api_q(s, &status, err, errlen,
                        "SELECT entrant, version, entry FROM arb_api_join($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
                        "$11, $12, $13, $14, $15, $16, $17, $18)",
                        18, p, lengths, binary);
    free(z);
    arb_buf_release(&env);
    arb_buf_release(&argi);
    arb_buf_release(&paths);
    if (!r)
        return status ? status : ARB_EIO;
    *version = (int)arb_cell_int(PQgetvalue(r, 0, 1));
    snprintf(entry, entrylen, "%s", PQgetvalue(r, 0, 2));
    PQclear(r);
    return 0;
}

int store_api_retire(store *s, int64_t account, bool any, const char *ladder, const char *entry,
                     const char *address, char *err, size_t errlen)
{
    char acc[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    const char *p[] = {acc, any ? "true" : "false", ladder, entry, address ? address : ""};
    int status = 0;
    PGresult *r = api_q(s, &status, err, errlen, "SELECT arb_api_retire($1, $2, $3, $4, $5)", 5, p, NULL, NULL);
    if (!r)
        return status ? status : ARB_EIO;
    PQclear(r);
    return 0;
}

int store_api_entries(store *s, int64_t account, bool all, store_rows *out, char *err, size_t errlen)
{
    char acc[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    const char *p[] = {acc, all ? "true" : "false"};
    return store__rows_q(
        s,
        "SELECT t.name, e.name, le.base, le.version, le.status, le.verdict, coalesce(le.validation_match::text, ''), "
        "  coalesce(r.mu::text, ''), coalesce(r.sigma::text, ''), coalesce(r.games::text, ''), "
        "  (SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id "
        "    WHERE m.tournament_id = le.tournament_id AND s.entrant = le.entrant AND m.state = 'done'), "
        "  to_char(le.joined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
        "  coalesce(to_char(le.retired_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), ''), "
        "  coalesce(le.account_id::text, '') "
        "FROM ladder_entries le JOIN tournaments t ON t.id = le.tournament_id "
        "JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant "
        "LEFT JOIN ratings r ON r.tournament_id = le.tournament_id AND r.entrant = le.entrant "
        "WHERE ($2 AND le.account_id IS NOT NULL) OR le.account_id = $1 "
        "ORDER BY t.id, le.entrant LIMIT 1000",
        2, p, out, err, errlen);
}

int store_api_entry(store *s, const char *ladder, const char *entry, int64_t *tid, int *entrant, int64_t *owner,
                    char *err, size_t errlen)
{
    const char *p[] = {ladder, entry};
    PGresult *r = q(s, err, errlen,
                    "SELECT le.tournament_id, le.entrant, coalesce(le.account_id, 0) FROM ladder_entries le "
                    "JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant "
                    "WHERE le.tournament_id = (SELECT id FROM tournaments WHERE name = $1 AND format = 'ladder' "
                    "  ORDER BY id DESC LIMIT 1) AND e.name = $2",
                    2, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found) {
        *tid = arb_cell_int(PQgetvalue(r, 0, 0));
        *entrant = (int)arb_cell_int(PQgetvalue(r, 0, 1));
        *owner = arb_cell_int(PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    return found;
}

int store_api_entry_matches(store *s, int64_t tid, int entrant, int64_t match, store_rows *out, char *err,
                            size_t errlen)
{
    char t[24], e[16], m[24], lim[16];
    snprintf(t, sizeof t, "%" PRId64, tid);
    snprintf(e, sizeof e, "%d", entrant);
    snprintf(m, sizeof m, "%" PRId64, match);
    snprintf(lim, sizeof lim, "%d", ARB_API_LOG_MATCHES);
    const char *p[] = {t, e, m, lim};
    return store__rows_q(s,
                         "SELECT m.id, CASE WHEN r.stage = 'validation' THEN 'validation' ELSE 'ladder' END, "
                         "  array_agg(s.slot ORDER BY s.slot)::text, coalesce(m.digest, ''), "
                         "  coalesce(m.transcript, ''), m.state "
                         "FROM matches m JOIN match_seats s ON s.match_id = m.id "
                         "JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
                         "WHERE m.tournament_id = $1 AND s.entrant = $2 AND ($3 = 0 OR m.id = $3) "
                         "  AND m.state = 'done' "
                         "GROUP BY m.id, r.stage ORDER BY m.id DESC LIMIT $4",
                         4, p, out, err, errlen);
}

int store_api_match_owners(store *s, int64_t match, store_rows *out, char *err, size_t errlen)
{
    char m[24];
    snprintf(m, sizeof m, "%" PRId64, match);
    const char *p[] = {m};
    return store__rows_q(s,
                         "SELECT s.slot, s.entrant, coalesce(le.account_id::text, (SELECT a.id::text FROM registrations g "
                         "  JOIN accounts a ON a.name = g.account WHERE g.tournament_id = m.tournament_id "
                         "  AND g.entrant = s.entrant), ''), coalesce(r.stage, ''), "
                         "  m.tournament_id "
                         "FROM matches m JOIN match_seats s ON s.match_id = m.id "
                         "LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
                         "LEFT JOIN ladder_entries le ON le.tournament_id = m.tournament_id AND le.entrant = s.entrant "
                         "WHERE m.id = $1 ORDER BY s.slot",
                         1, p, out, err, errlen);
}

int store_json_object(store *s, const char *json, size_t len, store_rows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (memchr(json, 0, len)) {
        snprintf(err, errlen, "the body holds a NUL byte: not JSON");
        return ARB_EINVAL;
    }
    char *text = malloc(len + 1);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    memcpy(text, json, len);
    text[len] = 0;
    const char *p[] = {text};
    /* PostgreSQL's parser, not one of ours: its refusal (class 22, data
     * exception) is the body's fault; anything but an object has no
     * members */
    char why[512];
    int rc = store__rows_q(s,
                           "SELECT e.key, jsonb_typeof(e.value), e.value #>> '{}' FROM (SELECT $1::jsonb AS v) x, "
                           "jsonb_each(CASE WHEN jsonb_typeof(x.v) = 'object' THEN x.v END) e ORDER BY e.key",
                           1, p, out, why, sizeof why);
    free(text);
    if (rc && strncmp(s->sqlstate, "22", 2) == 0) {
        const char *m = strstr(why, s->sqlstate);
        snprintf(err, errlen, "the body is not JSON (%.300s)", m ? m + 7 : why);
        s->sqlstate[0] = 0;
        return ARB_EINVAL;
    }
    if (rc)
        snprintf(err, errlen, "%s", why);
    return rc;
}
