/* store_registration.c — open tournaments' registrations in the record
 * (store.h, 019_registration.sql): a registration added under the
 * tournament's row lock (deadline, room, an account's share and the name
 * checked in the transaction that adds it), the state the scheduler waits
 * on, and the closing that makes the registered entrants, in an order
 * keyed by the tournament's secret, each with its uploaded program. */
#include "store_int.h"
#include "arb_error.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int store_registration_add(store *s, int64_t tid, const store_registration_in *in, int64_t *id, char *err,
                           size_t errlen)
{
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, tid);
    *id = 0;
    int rc = exec0(s, err, errlen, "BEGIN", 0, NULL);
    if (rc)
        return rc;
    const char *p[] = {t, in->account, in->name};
    /* the row lock orders registrations, and the scheduler's closing, one
     * after the other: the counts below hold until COMMIT */
    PGresult *r = q(s, err, errlen,
                    "SELECT registration_until IS NOT NULL, "
                    "  to_char(registration_until AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
                    "  state = 'running' AND registration_closed_at IS NULL AND now() < registration_until, "
                    "  (SELECT count(*) FROM registrations g WHERE g.tournament_id = t.id) >= registration_max, "
                    "  (SELECT count(*) FROM registrations g WHERE g.tournament_id = t.id AND g.account = $2) "
                    "    >= registration_per_account, "
                    "  EXISTS (SELECT 1 FROM entrants e WHERE e.tournament_id = t.id AND e.name = $3) "
                    "    OR EXISTS (SELECT 1 FROM registrations g WHERE g.tournament_id = t.id AND g.name = $3), "
                    "  registration_max, registration_per_account "
                    "FROM tournaments t WHERE id = $1 FOR UPDATE", 3, p);
    if (!r)
        goto fail;
    if (PQntuples(r) == 0 || PQgetvalue(r, 0, 0)[0] != 't') {
        snprintf(err, errlen, "tournament %s %s", t, PQntuples(r) ? "takes no registrations (its file has no "
                 "registration: block)" : "is not in the record");
        rc = ARB_ENOTFOUND;
    } else if (PQgetvalue(r, 0, 2)[0] != 't') {
        snprintf(err, errlen, "registration is closed (it was open until %s)", PQgetvalue(r, 0, 1));
        rc = ARB_ESTATE;
    } else if (PQgetvalue(r, 0, 3)[0] == 't') {
        snprintf(err, errlen, "registration is full (%s registered, registration.max_entrants)", PQgetvalue(r, 0, 6));
        rc = ARB_ETOOBIG;
    } else if (in->account && PQgetvalue(r, 0, 4)[0] == 't') {
        snprintf(err, errlen, "account %s holds %s registration%s in this tournament already "
                 "(registration.per_account)", in->account, PQgetvalue(r, 0, 7),
                 strcmp(PQgetvalue(r, 0, 7), "1") ? "s" : "");
        rc = ARB_ERANGE;
    } else if (PQgetvalue(r, 0, 5)[0] == 't') {
        snprintf(err, errlen, "name %s is taken in this tournament", in->name);
        rc = ARB_EEXIST;
    }
    PQclear(r);
    if (rc) {
        rollback(s);
        return rc;
    }
    rc = store_program_put(s, in->prog->digest, in->bundle, in->len, err, errlen);
    if (rc) {
        rollback(s);
        return rc;
    }
    arb_buf argi, paths;
    arb_buf_init(&argi, 4096);
    arb_buf_init(&paths, 64u << 10);
    for (int i = 0; !rc && i < in->prog->nfiles; i++)
        rc = store__arr_put(&argi, "%d", in->prog->argi[i]) || store__arr_text(&paths, in->prog->path[i]) ? ARB_ENOMEM
                                                                                                         : 0;
    if (!rc)
        rc = store__arr_close(&argi) || store__arr_close(&paths) ? ARB_ENOMEM : 0;
    if (!rc) {
        const char *ip[] = {t, in->name, in->command, in->account, in->prog->digest, arb_buf_str(&argi),
                            arb_buf_str(&paths)};
        r = q(s, err, errlen,
              "INSERT INTO registrations (tournament_id, name, command, account, digest, argi, paths) "
              "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id", 7, ip);
        rc = r ? 0 : ARB_EIO;
        if (r) {
            *id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
            PQclear(r);
        }
    } else {
        snprintf(err, errlen, "out of memory");
    }
    arb_buf_release(&argi);
    arb_buf_release(&paths);
    if (!rc) {
        char note[256];
        snprintf(note, sizeof note, "%s registered (program %.12s)%s%s", in->name, in->prog->digest,
                 in->account ? " by " : "", in->account ? in->account : "");
        const char *ev[] = {t, note};
        rc = exec0(s, err, errlen, "INSERT INTO events (tournament_id, kind, detail) VALUES ($1, 'registration', $2)",
                   2, ev);
    }
    if (!rc)
        return store__commit(s, err, errlen);
fail:
    rollback(s);
    return rc ? rc : ARB_EIO;
}

int store_registration_state(store *s, int64_t tid, store_reg_state *st, char *err, size_t errlen)
{
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, tid);
    const char *p[] = {t};
    memset(st, 0, sizeof *st);
    PGresult *r = q(s, err, errlen,
                    "SELECT registration_until IS NOT NULL, registration_closed_at IS NOT NULL, "
                    "  coalesce(extract(epoch FROM registration_until)::bigint, 0), "
                    "  (SELECT count(*) FROM registrations g WHERE g.tournament_id = t.id), "
                    "  coalesce(registration_max, 0), now() >= registration_until "
                    "FROM tournaments t WHERE id = $1", 1, p);
    if (!r)
        return ARB_EIO;
    int found = PQntuples(r) == 1;
    if (found) {
        st->has = PQgetvalue(r, 0, 0)[0] == 't';
        st->closed = PQgetvalue(r, 0, 1)[0] == 't';
        st->until = strtoll(PQgetvalue(r, 0, 2), NULL, 10);
        st->registered = (int)strtol(PQgetvalue(r, 0, 3), NULL, 10);
        st->max = (int)strtol(PQgetvalue(r, 0, 4), NULL, 10);
        st->open = st->has && !st->closed && PQgetvalue(r, 0, 5)[0] != 't' && st->registered < st->max;
    }
    PQclear(r);
    return found;
}

int store_registration_close(store *s, int64_t tid, int nfile, store_rows *out, char *err, size_t errlen)
{
    char t[24], n[16];
    snprintf(t, sizeof t, "%" PRId64, tid);
    snprintf(n, sizeof n, "%d", nfile);
    const char *p[] = {t, n};
    memset(out, 0, sizeof *out);
    int rc = exec0(s, err, errlen, "BEGIN", 0, NULL);
    if (rc)
        return rc;
    PGresult *r = q(s, err, errlen,
                    "SELECT registration_closed_at IS NULL, secret IS NOT NULL FROM tournaments "
                    "WHERE id = $1 FOR UPDATE", 1, p);
    if (!r || PQntuples(r) != 1)
        goto fail;
    bool first = PQgetvalue(r, 0, 0)[0] == 't', secret = PQgetvalue(r, 0, 1)[0] == 't';
    PQclear(r);
    if (first && !secret) {
        snprintf(err, errlen, "tournament %s has no secret yet: its registrations cannot be ordered", t);
        goto fail;
    }
    /* The registered entrants' order: SHA-256 of the secret, a label and
     * the name — fixed by the secret drawn (and committed to) before
     * anyone registered, unknown to them until it is revealed at the end,
     * and checkable by anyone then (schemas/tournament.md, "Registration"). */
    if (first
        && (exec0(s, err, errlen,
                  "WITH o AS (SELECT g.id, $2::int - 1 + row_number() OVER (ORDER BY sha256(t.secret "
                  "    || convert_to('arbiter registration order ', 'UTF8') || convert_to(g.name, 'UTF8'))) AS idx "
                  "  FROM registrations g JOIN tournaments t ON t.id = g.tournament_id WHERE g.tournament_id = $1) "
                  "UPDATE registrations g SET entrant = o.idx FROM o WHERE g.id = o.id", 2, p)
            || exec0(s, err, errlen,
                     "INSERT INTO entrants (tournament_id, idx, name, command) "
                     "SELECT tournament_id, entrant, name, command FROM registrations WHERE tournament_id = $1 "
                     "ORDER BY entrant ON CONFLICT DO NOTHING", 1, p)
            || exec0(s, err, errlen,
                     "INSERT INTO entrant_programs (tournament_id, entrant, digest, argi, paths) "
                     "SELECT tournament_id, entrant, digest, argi, paths FROM registrations WHERE tournament_id = $1 "
                     "ON CONFLICT DO NOTHING", 1, p)
            || exec0(s, err, errlen,
                     "UPDATE tournaments SET registration_closed_at = now() WHERE id = $1", 1, p)
            || exec0(s, err, errlen,
                     "INSERT INTO events (tournament_id, kind, detail) SELECT $1, 'registration', "
                     "'registration closed: ' || count(*) || ' registered' FROM registrations WHERE tournament_id = $1",
                     1, p)))
        goto fail;
    if (exec0(s, err, errlen, "COMMIT", 0, NULL))
        return ARB_EIO;
    return store__rows_q(s, "SELECT entrant, name, command FROM registrations WHERE tournament_id = $1 "
                            "ORDER BY entrant", 1, p, out, err, errlen);
fail:
    rollback(s);
    return ARB_EIO;
}

int store_not_started(store *s, int64_t tid, const char *why)
{
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, tid);
    const char *p[] = {t, why};
    int rc = exec0(s, NULL, 0,
                   "UPDATE tournaments SET state = 'done', finished_at = now(), not_started = $2, "
                   "revealed_at = coalesce(revealed_at, now()) WHERE id = $1 AND state = 'running'", 2, p);
    if (!rc)
        store_event(s, tid, "not-started", why);
    return rc;
}

int store_registrations(store *s, int64_t tid, store_rows *out, char *err, size_t errlen)
{
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, tid);
    const char *p[] = {t};
    return store__rows_q(s,
                         "SELECT id, name, coalesce(account, ''), digest, "
                         "  to_char(registered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
                         "  coalesce(entrant::text, '') FROM registrations WHERE tournament_id = $1 ORDER BY id",
                         1, p, out, err, errlen);
}
