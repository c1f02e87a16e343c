/* store_dispute.c — disputes in the record (store.h, "disputes";
 * record/sql/008_disputes.sql; docs/disputes.md): opened on a match,
 * shown with the record's evidence, resolved by upholding, voiding or
 * rerunning it. A resolution is one transaction under the tournament's
 * row lock: what it replaces is copied into `superseded` first (nothing is
 * deleted from the record without its copy), later matches that the
 * change invalidates are superseded and their rounds planned again, every
 * rating is derived again from the results as they now stand, and the
 * event log says who did what and why. All SQL is parameterised. */
#include "store_int.h"
#include "arb_num.h"
#include "arb_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tournament's event of a dispute, then COMMIT (with the audit row
 * of an API write, store_audit_next): 0 or ARB_EIO (the transaction
 * rolled back). */
static int event_commit(store *s, const char *tid, const char *detail, char *err, size_t errlen)
{
    const char *pe[] = {tid, detail};
    if (exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, 'dispute', $2)", 2, pe)
        || store__commit(s, err, errlen)) {
        rollback(s);
        return ARB_EIO;
    }
    return 0;
}

int store_dispute_open(store *s, int64_t match, const char *by, const char *reason, int64_t *dispute, char *err,
                       size_t errlen)
{
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, match);
    const char *p[] = {mid, by, reason};
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    PGresult *r = q(s, err, errlen,
                    "SELECT m.state, (SELECT count(*) FROM disputes d WHERE d.match_id = m.id AND d.state = 'open') "
                    "FROM matches m WHERE m.id = $1 FOR UPDATE", 1, p);
    if (!r)
        goto fail;
    int rc = 0;
    if (PQntuples(r) != 1)
        rc = ARB_ENOTFOUND, snprintf(err, errlen, "no match %s in the record", mid);
    else if (strcmp(PQgetvalue(r, 0, 0), "done") != 0)
        rc = ARB_ESTATE, snprintf(err, errlen, "match %s is %s: only a finished match can be disputed", mid,
                                  PQgetvalue(r, 0, 0));
    else if ((int)arb_cell_int(PQgetvalue(r, 0, 1)) > 0)
        rc = ARB_ESTATE, snprintf(err, errlen, "match %s has an open dispute already (arbiter dispute show %s)", mid,
                                  mid);
    PQclear(r);
    if (rc) {
        rollback(s);
        return rc;
    }
    r = q(s, err, errlen,
          "INSERT INTO disputes (tournament_id, match_id, round, tbl, opened_by, reason) "
          "SELECT tournament_id, id, round, tbl, $2, $3 FROM matches WHERE id = $1 RETURNING id, tournament_id", 3, p);
    if (!r)
        goto fail;
    *dispute = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    char tid[24], detail[1400];
    snprintf(tid, sizeof tid, "%s", PQgetvalue(r, 0, 1));
    PQclear(r);
    snprintf(detail, sizeof detail, "dispute %" PRId64 " on match %s opened by %.100s: %.1000s", *dispute, mid, by,
             reason);
    return event_commit(s, tid, detail, err, errlen);
fail:
    rollback(s);
    return ARB_EIO;
}

/* The copy of matches ($1: their ids) kept before they change: the match
 * row and everything of its result. */
#define SNAPSHOT                                                                                                   \
    "INSERT INTO superseded (tournament_id, match_id, round, tbl, attempt, dispute_id, why, snapshot) "           \
    "SELECT m.tournament_id, m.id, m.round, m.tbl, m.attempt, $2, $3, jsonb_build_object('match', to_jsonb(m), " \
    "  'seats', (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.slot), '[]') FROM match_seats x "              \
    "            WHERE x.match_id = m.id), "                                                                     \
    "  'sides', (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.side), '[]') FROM match_sides x "              \
    "            WHERE x.match_id = m.id), "                                                                     \
    "  'deals', (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.game), '[]') FROM deals x "                    \
    "            WHERE x.match_id = m.id), "                                                                     \
    "  'penalties', (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.n), '[]') FROM penalties x "              \
    "            WHERE x.match_id = m.id), "                                                                     \
    "  'rating_history', (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.seq), '[]') FROM rating_history x "  \
    "            WHERE x.match_id = m.id)) "                                                                     \
    "FROM matches m WHERE m.id = ANY($1::bigint[])"

int store_dispute_resolve(store *s, int64_t match, store_verdict v, const char *by, const char *reason, char *summary,
                          size_t sumlen, char *err, size_t errlen)
{
    static const char *const state_of[] = {"upheld", "voided", "rerun"};
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, match);
    summary[0] = 0;
    if (exec0(s, err, errlen, "BEGIN", 0, NULL))
        return ARB_EIO;
    const char *p1[] = {mid};
    /* the tournament's row first: results, ratings and plans wait for us */
    PGresult *r = q(s, err, errlen,
                    "SELECT t.id, t.format, m.round, m.tbl, m.state, t.state FROM matches m "
                    "JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = $1 FOR NO KEY UPDATE OF t", 1, p1);
    if (!r)
        goto fail;
    if (PQntuples(r) != 1) {
        PQclear(r);
        rollback(s);
        snprintf(err, errlen, "no match %s in the record", mid);
        return ARB_ENOTFOUND;
    }
    char tid[24], format[32], round[16], tbl[16], tstate[16];
    snprintf(tid, sizeof tid, "%s", PQgetvalue(r, 0, 0));
    snprintf(format, sizeof format, "%s", PQgetvalue(r, 0, 1));
    snprintf(round, sizeof round, "%s", PQgetvalue(r, 0, 2));
    snprintf(tbl, sizeof tbl, "%s", PQgetvalue(r, 0, 3));
    snprintf(tstate, sizeof tstate, "%s", PQgetvalue(r, 0, 5));
    PQclear(r);
    r = q(s, err, errlen, "SELECT id FROM disputes WHERE match_id = $1 AND state = 'open' FOR UPDATE", 1, p1);
    if (!r)
        goto fail;
    if (PQntuples(r) != 1) {
        PQclear(r);
        rollback(s);
        snprintf(err, errlen, "match %s has no open dispute (arbiter dispute open %s --reason TEXT)", mid, mid);
        return ARB_ESTATE;
    }
    char did[24];
    snprintf(did, sizeof did, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    int later = 0;
    bool reopen = false;
    if (v != STORE_UPHOLD) {
        /* later matches whose tables were drawn from this result: every
         * later round of a format planned from results (a knockout after
         * groups: its knockout rounds) */
        bool dependent = strcmp(format, "round-robin") != 0 && strcmp(format, "gauntlet") != 0
                         && strcmp(format, "ladder") != 0;
        char ids[8192] = "{}";
        if (dependent) {
            const char *pl[] = {tid, round, format};
            r = q(s, err, errlen,
                  "SELECT coalesce(array_agg(m.id ORDER BY m.round, m.tbl)::text, '{}'), count(*) FROM matches m "
                  "JOIN rounds rd ON rd.tournament_id = m.tournament_id AND rd.round = m.round "
                  "WHERE m.tournament_id = $1 AND m.round > $2 AND ($3 <> 'groups-knockout' OR rd.stage = 'knockout')",
                  3, pl);
            if (!r)
                goto fail;
            later = (int)arb_cell_int(PQgetvalue(r, 0, 1));
            if (strlen(PQgetvalue(r, 0, 0)) >= sizeof ids) {
                PQclear(r);
                rollback(s);
                snprintf(err, errlen, "too many later matches to invalidate in one dispute");
                return ARB_ETOOBIG;
            }
            snprintf(ids, sizeof ids, "%s", PQgetvalue(r, 0, 0));
            PQclear(r);
        }
        char self[32], why_later[64];
        snprintf(self, sizeof self, "{%s}", mid);
        snprintf(why_later, sizeof why_later, "invalidated by match %s", mid);
        const char *ps[] = {self, did, state_of[v]}, *pd[] = {ids, did, why_later};
        const char *pc[] = {mid, v == STORE_RERUN ? "pending" : "void", did, reason}, *pr[] = {tid, round};
        if (exec0(s, err, errlen, SNAPSHOT, 3, ps) || (later && exec0(s, err, errlen, SNAPSHOT, 3, pd))
            || (later && exec0(s, err, errlen, "DELETE FROM matches WHERE id = ANY($1::bigint[])", 1, (const char *[]){ids}))
            || (later && exec0(s, err, errlen,
                               "DELETE FROM rounds rd WHERE rd.tournament_id = $1 AND rd.round > $2 AND NOT EXISTS "
                               "(SELECT 1 FROM matches m WHERE m.tournament_id = $1 AND m.round = rd.round)", 2, pr))
            || exec0(s, err, errlen, "DELETE FROM deals WHERE match_id = $1", 1, p1)
            || exec0(s, err, errlen, "DELETE FROM match_sides WHERE match_id = $1", 1, p1)
            || exec0(s, err, errlen, "DELETE FROM penalties WHERE match_id = $1", 1, p1)
            || exec0(s, err, errlen,
                     "UPDATE match_seats SET total = NULL, points = NULL, rank = NULL, forfeited = NULL, "
                     "  decisions = NULL, wall_ns = NULL, cpu_ns = NULL, strikes = NULL, penalties = NULL, "
                     "  sandbox = NULL, side = NULL WHERE match_id = $1", 1, p1)
            || exec0(s, err, errlen,
                     "UPDATE matches SET state = $2, rated = false, leased_by = NULL, lease_until = NULL, "
                     "  finished_at = CASE WHEN $2 = 'void' THEN now() END, digest = NULL, transcript = NULL, signer_key = NULL, signature = NULL, "
                     "  games = NULL, decisions = NULL, wall_ms = NULL, "
                     "  attempt = attempt + CASE WHEN $2 = 'pending' THEN 1 ELSE 0 END, "
                     "  error = CASE WHEN $2 = 'void' THEN 'voided by dispute ' || $3 || ': ' || $4 END "
                     "WHERE id = $1", 4, pc))
            goto fail;
        /* where each entrant finished (a knockout's placements) followed
         * from the old result: the scheduler writes them again after the
         * next round it records */
        const char *pp[] = {tid};
        if (dependent && exec0(s, err, errlen, "DELETE FROM placements WHERE tournament_id = $1", 1, pp))
            goto fail;
        int rc = store__rerate(s, tid, err, errlen);
        if (rc) {
            rollback(s);
            return rc;
        }
        reopen = (v == STORE_RERUN || later > 0) && strcmp(tstate, "done") == 0;
        const char *pt[] = {tid};
        if (reopen && exec0(s, err, errlen, "UPDATE tournaments SET state = 'running', finished_at = NULL WHERE id = $1",
                            1, pt))
            goto fail;
    }
    const char *pu[] = {did, state_of[v], by, reason};
    if (exec0(s, err, errlen,
              "UPDATE disputes SET state = $2, resolved_at = now(), resolved_by = $3, resolution = $4 WHERE id = $1", 4,
              pu))
        goto fail;
    char invalidated[96] = "";   /* how many, said (it was a bare "[4]" at the end) */
    if (later)
        snprintf(invalidated, sizeof invalidated, "; %d later match%s invalidated, to be planned again", later,
                 later == 1 ? "" : "es");
    snprintf(summary, sumlen, "match %s (round %s, table %s) %s%s%s", mid, round, tbl,
             v == STORE_UPHOLD ? "upheld: the result stands"
             : v == STORE_VOID ? "voided: it counts for nothing"
                               : "to be played again with the same seeds and deals",
             invalidated,
             reopen ? "; the tournament is running again, `arbiter status` says rerun until it is done (arbiter run "
                      "resumes it)" : "");
    char detail[2000];
    snprintf(detail, sizeof detail, "dispute %s resolved by %.100s: %s. Reason: %.1000s", did, by, summary, reason);
    return event_commit(s, tid, detail, err, errlen);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_dispute_evidence(store *s, int64_t match, store_rows out[STORE_EVIDENCE_PARTS], char *err, size_t errlen)
{
    static const char *const mc[] = {STORE_EVM_COLS(STORE_COL_EXPR3)};
    static const char *const sc[] = {STORE_EVS_COLS(STORE_COL_EXPR3)};
    static const char *const dc[] = {STORE_EVD_COLS(STORE_COL_EXPR3)};
    static const char *const pc[] = {STORE_EVP_COLS(STORE_COL_EXPR3)};
    static const char *const xc[] = {STORE_EVX_COLS(STORE_COL_EXPR3)};
    static const char *const uc[] = {STORE_EVU_COLS(STORE_COL_EXPR3)};
    /* the match, its seats, deals, penalties, disputes, the results it replaced */
    static const struct { const char *const *cols; int n; const char *rest; } part[STORE_EVIDENCE_PARTS] = {
        {mc, STORE_EVM_NCOLS, "FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = $1"},
        {sc, STORE_EVS_NCOLS, "FROM match_seats st JOIN matches m ON m.id = st.match_id "
                              "JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = st.entrant "
                              "WHERE st.match_id = $1 ORDER BY st.slot"},
        {dc, STORE_EVD_NCOLS, "FROM deals WHERE match_id = $1 ORDER BY game"},
        {pc, STORE_EVP_NCOLS, "FROM penalties WHERE match_id = $1 ORDER BY n"},
        {xc, STORE_EVX_NCOLS, "FROM disputes WHERE match_id = $1 ORDER BY id"},
        {uc, STORE_EVU_NCOLS, "FROM superseded WHERE match_id = $1 ORDER BY id"},
    };
    char mid[24];
    snprintf(mid, sizeof mid, "%" PRId64, match);
    const char *p[] = {mid};
    memset(out, 0, STORE_EVIDENCE_PARTS * sizeof *out);
    for (int i = 0; i < STORE_EVIDENCE_PARTS; i++) {
        char sql[STORE_SELECT_MAX];
        int rc = store__select(sql, sizeof sql, part[i].cols, part[i].n, part[i].rest);
        if (rc)
            snprintf(err, errlen, "evidence part %d: statement too long", i);
        else
            rc = store__rows_q(s, sql, 1, p, &out[i], err, errlen);
        if (rc) {
            for (int j = 0; j < i; j++)
                store_rows_release(&out[j]);
            return rc;
        }
    }
    if (out[0].nrows == 0) {
        for (int j = 0; j < STORE_EVIDENCE_PARTS; j++)
            store_rows_release(&out[j]);
        snprintf(err, errlen, "no match %s in the record", mid);
        return ARB_ENOTFOUND;
    }
    return 0;
}

int store_dispute_list(store *s, int64_t tid, store_rows *out, char *err, size_t errlen)
{
    return store_dispute_list_by(s, tid, NULL, out, err, errlen);
}

int store_dispute_list_by(store *s, int64_t tid, const char *by, store_rows *out, char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    const char *p[] = {id, by};
    static const char *const cols[] = {STORE_DISPUTES_COLS(STORE_COL_EXPR3)};
    char sql[STORE_SELECT_MAX];
    if (store__select(sql, sizeof sql, cols, STORE_DISPUTES_NCOLS,
                      "FROM disputes d JOIN tournaments t ON t.id = d.tournament_id "
                      "WHERE ($1::bigint = 0 OR d.tournament_id = $1::bigint) "
                      "AND ($2::text IS NULL OR d.opened_by = $2::text) ORDER BY d.id") != 0) {
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "dispute list: statement too long");
        return ARB_ETOOBIG;
    }
    return store__rows_q(s, sql, 2, p, out, err, errlen);
}

int store_dispute_match(store *s, int64_t id, int64_t *match, bool *open, char *err, size_t errlen)
{
    char d[24];
    snprintf(d, sizeof d, "%" PRId64, id);
    const char *p[] = {d};
    PGresult *r = q(s, err, errlen, "SELECT match_id, state = 'open' FROM disputes WHERE id = $1", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found) {
        *match = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        *open = PQgetvalue(r, 0, 1)[0] == 't';
    }
    PQclear(r);
    return found;
}

