/* store_ladder.c — a ladder's entries in the record (store.h, "ladders";
 * record/sql/006_ladders.sql): joins and retirements, validation, the
 * state matchmaking reads, and its matches. All SQL is parameterised. */
#include "store_int.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_seeds.h"
#include "arb_limits.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int store__rows(PGresult *r, store_rows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int rows = PQntuples(r), cols = PQnfields(r);
    out->cell = calloc((size_t)rows * (size_t)cols + 1, sizeof *out->cell);
    if (!out->cell)
        goto oom;
    out->nrows = rows;
    out->ncols = cols;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            if (!(out->cell[i * cols + j] = strdup(PQgetvalue(r, i, j))))
                goto oom;
    PQclear(r);
    return 0;
oom:
    PQclear(r);
    store_rows_release(out);
    snprintf(err, errlen, "out of memory");
    return ARB_ENOMEM;
}

int store__rows_q(store *s, const char *sql, int n, const char *const *p, store_rows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    PGresult *r = q(s, err, errlen, sql, n, p);
    return r ? store__rows(r, out, err, errlen) : ARB_EIO;
}

int store_ladder_join(store *s, int64_t tid, const store_ladder_entry_in *j, int *version, char *name, size_t namelen,
                      char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    const char *p1[] = {id};
    /* the ladder's row locked: joins (and their versions) one at a time */
    PGresult *r = q(s, err, errlen, "SELECT format, state, coalesce(ladder_startup_max, 0) FROM tournaments "
                                    "WHERE id = $1 FOR UPDATE", 1, p1);
    if (!r)
        goto fail;
    int rc = 0;
    if (PQntuples(r) != 1 || strcmp(PQgetvalue(r, 0, 0), "ladder") != 0)
        rc = ARB_ESTATE, snprintf(err, errlen, "tournament %s is not a ladder", id);
    else if (strcmp(PQgetvalue(r, 0, 1), "running") != 0)
        rc = ARB_ESTATE, snprintf(err, errlen, "the ladder is over (it played its ladder.matches)");
    else if (j->validate && j->startup_ms > 0 && j->startup_ms > (int64_t)arb_cell_int(PQgetvalue(r, 0, 2)))
        rc = ARB_EINVAL,
        snprintf(err, errlen, arb_cell_int(PQgetvalue(r, 0, 2)) > 0
                                  ? "--startup-ms %" PRId64 " is over the ladder's limit, %" PRId64 " ms (its file's "
                                    "clock.startup_ms_max, else clock.startup_ms)"
                                  : "--startup-ms %" PRId64 ": the ladder's limit is not in the record yet (%" PRId64
                                    "; its scheduler writes it when it takes the ladder up)",
                 j->startup_ms, (int64_t)arb_cell_int(PQgetvalue(r, 0, 2)));
    PQclear(r);
    if (rc)
        goto refuse;
    char ent[16];
    snprintf(ent, sizeof ent, "%d", j->entrant);
    if (j->entrant >= 0) {
        const char *pe[] = {id, ent};
        r = q(s, err, errlen, "SELECT 1 FROM ladder_entries WHERE tournament_id = $1 AND entrant = $2", 2, pe);
        if (!r)
            goto fail;
        bool have = PQntuples(r) == 1;
        PQclear(r);
        if (have) {   /* a resume: the file's entry is there */
            *version = 1;
            snprintf(name, namelen, "%s", j->base);
            return exec0(s, err, errlen, "COMMIT", 0, NULL);
        }
    } else {
        r = q(s, err, errlen, "SELECT coalesce(max(idx) + 1, 0), count(*) FROM entrants WHERE tournament_id = $1", 1,
              p1);
        if (!r)
            goto fail;
        int next = (int)arb_cell_int(PQgetvalue(r, 0, 0)), count = (int)arb_cell_int(PQgetvalue(r, 0, 1));
        PQclear(r);
        if (count >= ARB_LADDER_MAX_ENTRIES) {
            snprintf(err, errlen, "the ladder has %d entries, its limit (ARB_LADDER_MAX_ENTRIES)", count);
            rc = ARB_ETOOBIG;
            goto refuse;
        }
        snprintf(ent, sizeof ent, "%d", next);
    }
    const char *pb[] = {id, j->base};
    r = q(s, err, errlen,
          "SELECT coalesce(max(version), 0) + 1, "
          "  (SELECT entrant FROM ladder_entries WHERE tournament_id = $1 AND base = $2 ORDER BY version DESC LIMIT 1) "
          "FROM ladder_entries WHERE tournament_id = $1 AND base = $2", 2, pb);
    if (!r)
        goto fail;
    *version = (int)arb_cell_int(PQgetvalue(r, 0, 0));
    char prev[16] = "";
    if (!PQgetisnull(r, 0, 1))
        snprintf(prev, sizeof prev, "%s", PQgetvalue(r, 0, 1));
    PQclear(r);
    char nm[ARB_MAX_BOT_NAME + 16];
    if (*version == 1)
        snprintf(nm, sizeof nm, "%s", j->base);
    else
        snprintf(nm, sizeof nm, "%s.v%d", j->base, *version);
    if (strlen(nm) > ARB_MAX_BOT_NAME) {
        snprintf(err, errlen, "\"%s\" is longer than %d characters (a version's name is NAME.vN)", nm,
                 ARB_MAX_BOT_NAME);
        rc = ARB_EINVAL;
        goto refuse;
    }
    snprintf(name, namelen, "%s", nm);
    if (j->entrant < 0) {
        const char *pn[] = {id, nm};
        r = q(s, err, errlen, "SELECT 1 FROM entrants WHERE tournament_id = $1 AND name = $2", 2, pn);
        if (!r)
            goto fail;
        bool taken = PQntuples(r) > 0;
        PQclear(r);
        if (taken) {
            snprintf(err, errlen, "the name \"%s\" is taken in this ladder", nm);
            rc = ARB_EINVAL;
            goto refuse;
        }
        const char *pi[] = {id, ent, nm, j->command};
        if (exec0(s, err, errlen, "INSERT INTO entrants (tournament_id, idx, name, command) VALUES ($1, $2, $3, $4)",
                  4, pi))
            goto fail;
    }
    char ver[16], startup[24];
    snprintf(ver, sizeof ver, "%d", *version);
    snprintf(startup, sizeof startup, "%" PRId64, j->startup_ms);
    const char *pl[] = {id, ent, j->base, ver, prev[0] ? prev : NULL, j->replace ? "true" : "false",
                        j->validate ? "validating" : "active",
                        j->validate ? "" : "the organiser's entry (from the ladder's file)", j->digest,
                        j->dir ? j->dir : "", j->files ? j->files : "", j->startup_ms > 0 ? startup : NULL,
                        j->env ? j->env : ""};
    /* env: one "NAME=value" a line, into an array (a value holds no newline: match_env_check) */
    if (exec0(s, err, errlen,
              "INSERT INTO ladder_entries (tournament_id, entrant, base, version, previous, replaces, status, verdict, "
              "  digest, dir, files, startup_ms, env) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
              "  array_remove(string_to_array($13, E'\\n'), ''))", 13, pl))
        goto fail;
    char detail[256];
    snprintf(detail, sizeof detail, "%s joined (version %d%s%s)", nm, *version, prev[0] ? ", after entrant " : "",
             prev);
    const char *pv[] = {id, detail};
    if (exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, 'join', $2)", 2, pv))
        goto fail;
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
refuse:
    rollback(s);
    return rc;
}

/* The ladder's row locked to the end of the transaction, before any
 * change number is drawn (007_changes.sql): 0 or ARB_EIO. */
static int lock_ladder(store *s, const char *id, char *err, size_t errlen)
{
    const char *p[] = {id};
    return exec0(s, err, errlen, "SELECT 1 FROM tournaments WHERE id = $1 FOR NO KEY UPDATE", 1, p);
}

int store_ladder_retire(store *s, int64_t tid, const char *name, char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id, name};
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    if (lock_ladder(s, id, err, errlen))
        goto fail;
    PGresult *r = q(s, err, errlen,
                    "UPDATE ladder_entries le SET status = 'retired', retired_at = now(), "
                    "  verdict = 'retired ' || to_char(now(), 'YYYY-MM-DD HH24:MI'), "
                    "  changed = nextval('record_changes') FROM entrants e "
                    "WHERE le.tournament_id = $1 AND e.tournament_id = $1 AND e.idx = le.entrant AND e.name = $2 "
                    "  AND le.status IN ('validating', 'active', 'suspended')", 2, p);
    if (!r)
        goto fail;
    int n = (int)arb_cell_int(PQcmdTuples(r));
    PQclear(r);
    char detail[200];
    snprintf(detail, sizeof detail, "%.100s retired", name);
    const char *pv[] = {id, detail};
    if (n == 1 && exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, 'retire', $2)",
                        2, pv))
        goto fail;
    if (exec0(s, err, errlen, "COMMIT", 0, NULL))
        return ARB_EIO;
    return n;
fail:
    rollback(s);
    return ARB_EIO;
}

int store_ladder_set(store *s, int64_t tid, int entrant, const char *status, const char *verdict)
{
    char id[24], ent[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(ent, sizeof ent, "%d", entrant);
    const char *p[] = {id, ent, status, verdict};
    if (exec0(s, NULL, 0, "BEGIN", 0, NULL))
        return ARB_EIO;
    if (lock_ladder(s, id, NULL, 0)
        || exec0(s, NULL, 0,
                 "UPDATE ladder_entries SET status = $3, verdict = $4, changed = nextval('record_changes') "
                 "WHERE tournament_id = $1 AND entrant = $2", 4, p))
        goto fail;
    /* a new version that replaces the one before: that one retires now */
    if (strcmp(status, "active") == 0
        && exec0(s, NULL, 0,
                 "UPDATE ladder_entries o SET status = 'retired', retired_at = now(), "
                 "  verdict = 'replaced by version ' || n.version, changed = nextval('record_changes') "
                 "FROM ladder_entries n WHERE n.tournament_id = $1 AND n.entrant = $2 AND n.replaces "
                 "  AND o.tournament_id = $1 AND o.entrant = n.previous AND o.status IN ('active', 'suspended')", 2, p))
        goto fail;
    char detail[600];
    snprintf(detail, sizeof detail, "entrant %d %s: %.500s", entrant, status, verdict);
    const char *pv[] = {id, detail};
    if (exec0(s, NULL, 0, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, 'entry', $2)", 2, pv))
        goto fail;
    return exec0(s, NULL, 0, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_ladder_settings(store *s, int64_t tid, int provisional, int inactive_days, int64_t startup_max)
{
    char id[24], pv[16], in[16], sm[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(pv, sizeof pv, "%d", provisional);
    snprintf(in, sizeof in, "%d", inactive_days);
    snprintf(sm, sizeof sm, "%" PRId64, startup_max);
    const char *p[] = {id, pv, in, sm};
    return exec0(s, NULL, 0, "UPDATE tournaments SET ladder_provisional = $2, ladder_inactive_days = $3, "
                             "ladder_startup_max = $4 WHERE id = $1", 4, p);
}

int store_ladder_programs(store *s, int64_t tid, int from, store_rows *out, char *err, size_t errlen)
{
    char id[24], f[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(f, sizeof f, "%d", from);
    const char *p[] = {id, f};
    static const char *const cols[] = {STORE_PROGRAMS_COLS(STORE_COL_EXPR)};
    char sql[STORE_SELECT_MAX];
    if (store__select(sql, sizeof sql, cols, STORE_PROGRAMS_NCOLS,
                      "FROM entrants e LEFT JOIN ladder_entries le ON le.tournament_id = e.tournament_id "
                      "AND le.entrant = e.idx WHERE e.tournament_id = $1 AND e.idx >= $2 ORDER BY e.idx") != 0) {
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "ladder programs: statement too long");
        return ARB_ETOOBIG;
    }
    return store__rows_q(s, sql, 2, p, out, err, errlen);
}

int store_ladder_pending(store *s, int64_t tid, store_rows *out, char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    static const char *const cols[] = {STORE_PENDING_COLS(STORE_COL_EXPR)};
    char sql[STORE_SELECT_MAX];
    if (store__select(sql, sizeof sql, cols, STORE_PENDING_NCOLS,
                      "FROM ladder_entries le LEFT JOIN matches m ON m.id = le.validation_match "
                      "WHERE le.tournament_id = $1 AND le.status = 'validating' ORDER BY le.entrant") != 0) {
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "ladder pending: statement too long");
        return ARB_ETOOBIG;
    }
    return store__rows_q(s, sql, 1, p, out, err, errlen);
}

int store_ladder_changes(store *s, int64_t tid, int64_t since, bool rate, store_rows *out, char *err, size_t errlen)
{
    char id[24], sn[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(sn, sizeof sn, "%" PRId64, since);
    const char *p[] = {id, sn, rate ? "true" : "false"};
    /* one round trip: the entries' and ratings' rows changed since (their
     * indexes on (tournament_id, changed)), the matches not finished (few,
     * found by matches_claim), the last hour's starts (rounds_created) */
    return store__rows_q(s,
                  "SELECT 'e', le.entrant, le.status, le.recent::text, le.seats::text, "
                  "  coalesce(extract(epoch FROM le.last_started)::bigint, -1), le.changed, "
                  "  NULL::float8, NULL::float8, NULL::int "
                  "FROM ladder_entries le WHERE le.tournament_id = $1 AND le.changed > $2 "
                  "UNION ALL SELECT 'r', rt.entrant, NULL, NULL, NULL, NULL, rt.changed, rt.mu, rt.sigma, rt.games "
                  "FROM ratings rt WHERE rt.tournament_id = $1 AND rt.changed > $2 "
                  "UNION ALL SELECT 'f', st.entrant, NULL, NULL, NULL, count(DISTINCT m.id), NULL, NULL, NULL, NULL "
                  "FROM matches m JOIN match_seats st ON st.match_id = m.id "
                  "WHERE m.tournament_id = $1 AND m.state IN ('pending', 'leased') GROUP BY st.entrant "
                  "UNION ALL SELECT 'h', st.entrant, NULL, NULL, NULL, count(DISTINCT m.id), NULL, NULL, NULL, NULL "
                  "FROM rounds rd JOIN matches m ON m.tournament_id = rd.tournament_id AND m.round = rd.round "
                  "JOIN match_seats st ON st.match_id = m.id "
                  "WHERE $3::boolean AND rd.tournament_id = $1 AND rd.created_at > now() - interval '1 hour' "
                  "  AND rd.stage = 'ladder' GROUP BY st.entrant "
                  "UNION ALL SELECT 'n', 0, NULL, NULL, NULL, extract(epoch FROM now())::bigint, NULL, NULL, NULL, NULL",
                  3, p, out, err, errlen);
}

int store_ladder_add(store *s, int64_t tid, int round, const char *stage, const store_table *table, const int *pos,
                     uint64_t tseed, const char *note, char *err, size_t errlen)
{
    char id[24], rd[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(rd, sizeof rd, "%d", round);
    bool ladder = strcmp(stage, "ladder") == 0;
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    if (lock_ladder(s, id, err, errlen))
        goto fail;
    const char *rp[] = {id, rd, stage, note};
    PGresult *r = q(s, err, errlen,
                    "INSERT INTO rounds (tournament_id, round, stage, note) VALUES ($1, $2, $3, $4) "
                    "ON CONFLICT DO NOTHING RETURNING round", 4, rp);
    if (!r)
        goto fail;
    bool fresh = PQntuples(r) == 1;
    PQclear(r);
    if (!fresh)
        return exec0(s, err, errlen, "COMMIT", 0, NULL);
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, arb_seeds_match_seed(tseed, round, 0));
    /* a validation match is never rated: it is created as rated already */
    const char *mp[] = {id, rd, seed, ladder ? "false" : "true"};
    r = q(s, err, errlen,
          "INSERT INTO matches (tournament_id, round, tbl, seed, rated) VALUES ($1, $2, 0, $3, $4) RETURNING id", 4,
          mp);
    if (!r)
        goto fail;
    char mid[24];
    snprintf(mid, sizeof mid, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    for (int k = 0; k < table->nslots; k++) {
        char slot[16], ent[16];
        snprintf(slot, sizeof slot, "%d", k);
        snprintf(ent, sizeof ent, "%d", table->entrant[k]);
        const char *sp[] = {mid, slot, ent};
        if (exec0(s, err, errlen, "INSERT INTO match_seats (match_id, slot, entrant) VALUES ($1, $2, $3)", 3, sp))
            goto fail;
    }
    if (!ladder) {
        char ent[16];
        snprintf(ent, sizeof ent, "%d", table->entrant[0]);
        const char *vp[] = {id, ent, mid};
        if (exec0(s, err, errlen,
                  "UPDATE ladder_entries SET validation_match = $3 WHERE tournament_id = $1 AND entrant = $2", 3, vp))
            goto fail;
    }
    /* each entry once (a partnership entry sits two seats): its opponents
     * latest first, the seat (side) it counts as, when it started */
    for (int k = 0; k < table->nslots && ladder; k++) {
        bool first = true;
        for (int j = 0; j < k; j++)
            first &= table->entrant[j] != table->entrant[k];
        if (!first)
            continue;
        char opp[128] = "{", ent[16], seat[16];
        size_t len = 1;
        for (int j = 0; j < table->nslots; j++) {
            bool dup = table->entrant[j] == table->entrant[k];
            for (int i = 0; i < j && !dup; i++)
                dup = table->entrant[i] == table->entrant[j];
            if (!dup)
                len += (size_t)snprintf(opp + len, sizeof opp - len, "%s%d", len > 1 ? "," : "", table->entrant[j]);
        }
        snprintf(opp + len, sizeof opp - len, "}");
        snprintf(ent, sizeof ent, "%d", table->entrant[k]);
        snprintf(seat, sizeof seat, "%d", pos[k] + 1);
        const char *up[] = {id, ent, opp, seat};
        if (exec0(s, err, errlen,
                  "UPDATE ladder_entries SET recent = ($3::int[] || recent)[1:8], "
                  "  seats[$4::int] = coalesce(seats[$4::int], 0) + 1, last_started = now(), "
                  "  changed = nextval('record_changes') "
                  "WHERE tournament_id = $1 AND entrant = $2", 4, up))
            goto fail;
    }
    return exec0(s, err, errlen, "COMMIT", 0, NULL);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_ladder_counts(store *s, int64_t tid, int *in_flight, int *pending, int *leased, int64_t *created)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id};
    /* the matches not finished: few, found by matches_claim */
    PGresult *r = q(s, NULL, 0,
                    "SELECT count(*) FILTER (WHERE rd.stage = 'ladder'), count(*) FILTER (WHERE m.state = 'pending'), "
                    "  count(*) FILTER (WHERE m.state = 'leased') "
                    "FROM matches m JOIN rounds rd ON rd.tournament_id = m.tournament_id AND rd.round = m.round "
                    "WHERE m.tournament_id = $1 AND m.state IN ('pending', 'leased')", 1, p);
    if (!r)
        return ARB_EIO;
    *in_flight = (int)arb_cell_int(PQgetvalue(r, 0, 0));
    *pending = (int)arb_cell_int(PQgetvalue(r, 0, 1));
    *leased = (int)arb_cell_int(PQgetvalue(r, 0, 2));
    PQclear(r);
    if (!created)
        return 0;
    /* every round of the ladder read once (at its start): counted on in memory after */
    r = q(s, NULL, 0, "SELECT count(*) FROM rounds WHERE tournament_id = $1 AND stage = 'ladder'", 1, p);
    if (!r)
        return ARB_EIO;
    *created = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return 0;
}

int store_ladder_history(store *s, int64_t tid, int entrant, store_rows *out, char *err, size_t errlen)
{
    char id[24], ent[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(ent, sizeof ent, "%d", entrant);
    const char *p[] = {id, ent};
    static const char *const cols[] = {STORE_LHISTORY_COLS(STORE_COL_EXPR)};
    char sql[STORE_SELECT_MAX];
    if (store__select(sql, sizeof sql, cols, STORE_LHISTORY_NCOLS,
                      "FROM rating_history h JOIN matches m ON m.id = h.match_id "
                      "WHERE m.tournament_id = $1 AND h.entrant = $2 ORDER BY h.seq") != 0) {
        snprintf(err, errlen, "ladder history: statement too long");
        return ARB_ETOOBIG;
    }
    return store__rows_q(s, sql, 2, p, out, err, errlen);
}
