/* loop.c — the set of tournaments a scheduler runs (scheduler.h): each gets
 * its next round when one is over (plan.h, fed from the store), free slots
 * take matches from them fairly, and the daemon's loop takes up newly
 * submitted tournaments while the others play. One event loop for all:
 * `arbiter run` is a set of one. */
#include "sched_int.h"
#include "config.h"
#include "plan.h"
#include "arb_error.h"
#include "arb_seeds.h"
#include "arb_log.h"
#include "arb_time.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SUB = SCHED_SUB;

/* Tournaments the daemon gave up on (file gone or changed, a round that
 * cannot be planned): not taken up again until it restarts. Each takes
 * about 21 bytes of store_next_running's id list. */
#define SKIPPED_MAX 128
/* How often the daemon looks for newly submitted tournaments, and how
 * often a tournament with no news is counted again (a lease given back or
 * expired moves a match to the queue without a result). */
#define PICKUP_NS 1000000000ull
#define RECOUNT_NS 1000000000ull

/* The daemon's side of the loop (sched_serve_all). */
typedef struct serve_all {
    void  (*progress)(void *ctx, const sched_progress *p);
    void   *ctx;
    int64_t skipped[SKIPPED_MAX];
    int     nskipped;
    uint64_t next_pickup;
} serve_all;

/* The stop flag is set by a signal handler or another thread (the CLI's
 * local worker, the tests): read atomically. */
static bool stopping(const sched *s) { return s->o.stop && __atomic_load_n(s->o.stop, __ATOMIC_RELAXED); }

tour *sched__tour_of(sched *s, int64_t tid)
{
    for (int i = 0; i < s->ntours; i++)
        if (s->tours[i]->tid == tid)
            return s->tours[i];
    return NULL;
}

static void tour_free(tour *t)
{
    if (!t)
        return;
    sodium_memzero(t->secret, sizeof t->secret);
    free(t->bots);
    sched_ladder_view_free(t->view);
    if (t->owned)
        tn_config_release(&t->own);
    if (t->has_field)
        tn_config_release(&t->field);
    free(t);
}

static void set_remove(sched *s, tour *t)
{
    for (int i = 0; i < s->ntours; i++)
        if (s->tours[i] == t) {
            memmove(&s->tours[i], &s->tours[i + 1], (size_t)(s->ntours - i - 1) * sizeof *s->tours);
            s->ntours--;
            break;
        }
    atomic_store(&s->st.tournaments, s->ntours);
}

static int tour_start(sched *s, tour *t, bool created, char *err, size_t errlen);

/* Take a tournament up: its record (created the first time, found again
 * on a resume), its secret, its bots and their programs; an open
 * tournament before its deadline only the first two (t->registering). */
static int tour_begin(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    store *db = s->o.db;
    bool created;
    int rc = store_tournament(db, cfg, t->o.yaml, t->o.digest, t->o.fresh, &t->tid, &created, err, errlen);
    if (rc)
        return rc;
    t->out.tid = t->tid;
    t->out.resumed = !created;
    t->t0 = arb_now_ns();
    char commitment[65];
    rc = store_secret(db, t->tid, t->o.secret, t->secret, commitment, err, errlen);
    if (rc)
        return rc;
    arb_info(SUB, "tournament %s (%" PRId64 "): commitment to its secret %s", cfg->name, t->tid, commitment);
    char abspath[4096];
    if (realpath(cfg->path, abspath))
        store_set_path(db, t->tid, abspath);
    /* Our previous run's local worker is gone: its leases go back. (This
     * run's local worker holds none of them: only tournaments of the set
     * are dispatched, and t joins it now.) */
    store_release_leases(db, t->tid, "local:");
    if (cfg->registration.open) {
        store_reg_state st;
        if (store_registration_state(db, t->tid, &st, err, errlen) != 1) {
            snprintf(err, errlen, "database lost");
            return ARB_EIO;
        }
        if (st.open) {   /* it starts when registration closes (run_set asks every second) */
            t->registering = true;
            arb_info(SUB, "tournament %s (%" PRId64 "): registration open until %" PRId64 " (Unix time), %d registered",
                     cfg->name, t->tid, st.until, st.registered);
            return 0;
        }
    }
    return tour_start(s, t, created, err, errlen);
}

/* An open tournament whose registration is over: closed in the record
 * (the registered made entrants, in the secret's order) and its field
 * made: the file's configuration with them appended (t->field). A field
 * too small to play (fewer than a table) is the tournament's end: not
 * started, and why (ARB_ESTATE). */
static int registration_close(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    store_rows rows;
    int rc = store_registration_close(s->o.db, t->tid, cfg->nfile_entrants, &rows, err, errlen);
    if (rc)
        return rc;
    tn_entrant *add = calloc((size_t)rows.nrows + 1, sizeof *add);
    t->field = *cfg;
    t->field.text = NULL;   /* the file's text stays the loaded configuration's */
    t->field.teams = NULL;  /* registration refuses teams */
    t->field.nteams = 0;
    t->field.entrants = malloc(((size_t)cfg->nentrants + 1) * sizeof *cfg->entrants);
    t->has_field = true;
    if (!add || !t->field.entrants) {
        store_rows_release(&rows);
        free(add);
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    memcpy(t->field.entrants, cfg->entrants, (size_t)cfg->nentrants * sizeof *cfg->entrants);
    for (int i = 0; i < rows.nrows; i++) {
        snprintf(add[i].name, sizeof add[i].name, "%s", store_cell(&rows, i, 1));
        snprintf(add[i].command, sizeof add[i].command, "%s", store_cell(&rows, i, 2));
    }
    char why[1024];
    rc = tn_config_registered(&t->field, add, rows.nrows, why, sizeof why);
    free(add);
    store_rows_release(&rows);
    if (rc) {
        store_not_started(s->o.db, t->tid, why);
        snprintf(err, errlen, "tournament %s (%" PRId64 ") does not start: %s", cfg->name, t->tid, why);
        return ARB_ESTATE;
    }
    t->o.cfg = &t->field;
    return 0;
}

/* The rest of taking a tournament up: its field (an open tournament's,
 * once registration closed), its bots and their programs, its rounds. */
static int tour_start(sched *s, tour *t, bool created, char *err, size_t errlen)
{
    store *db = s->o.db;
    int rc = 0;
    t->registering = false;
    if (t->o.cfg->registration.open && (rc = registration_close(s, t, err, errlen)) != 0)
        return rc;
    const tn_config *cfg = t->o.cfg;
    rc = sched__load_bots(s, t, err, errlen);
    if (rc == 0 && cfg->format == TN_LADDER)
        rc = sched__ladder_begin(s, t, err, errlen);
    if (rc)
        return rc;
    t->round = store_last_round(db, t->tid);
    t->dirty = true;
    arb_info(SUB, "tournament %s (%" PRId64 "): %s, %d entrants", cfg->name, t->tid, created ? "started" : "resumed",
             cfg->nentrants);
    return 0;
}

/* A knockout's placement after each round (plan_placement): written over
 * the previous one, with every tie settled filed as an event once. */
static int record_placement(store *db, tour *t, const plan_record *rec, char *err, size_t errlen)
{
    store_place *places = malloc(ARB_TN_MAX_ENTRANTS * sizeof *places);
    char (*ties)[STORE_NOTE_MAX] = malloc(64 * sizeof *ties);
    int nties = 0, rc = ARB_ENOMEM;
    int n = places && ties ? plan_placement(t->o.cfg, rec, places, ARB_TN_MAX_ENTRANTS, ties, 64, &nties) : ARB_ENOMEM;
    if (n < 0)
        snprintf(err, errlen, "tournament %" PRId64 ": the placement cannot be made (%s)", t->tid, arb_strerror(n));
    rc = n < 0 ? n : n > 0 ? store_placements(db, t->tid, t->o.cfg->nteams > 0, places, n,
                                                   (const char (*)[STORE_NOTE_MAX])ties, nties, err, errlen) : 0;
    free(places);
    free(ties);
    return rc;
}

/* The next rounds of t while its current one is over, or its end; then
 * its counts. 0, or an error with a message. */
static int tour_advance(sched *s, tour *t, store_table *tables, char *err, size_t errlen)
{
    store *db = s->o.db;
    const tn_config *cfg = t->o.cfg;
    if (t->ladder) {
        int rc = sched__ladder_advance(s, t, err, errlen);
        t->dirty = false;
        t->counted_ns = arb_now_ns();
        return rc;
    }
    for (;;) {
        int p, l, d, v;
        if (store_counts(db, t->tid, t->round, &p, &l, &d, &v) != 0) {
            snprintf(err, errlen, "database lost");
            return ARB_EIO;
        }
        if (p || l)
            break;
        int nt = 0;
        const char *stage = "main";
        bool done = false;
        plan_record rec;
        int rc = plan_record_load(db, t->tid, t->o.cfg->nteams > 0, &rec, err, errlen);
        if (rc)
            return rc;
        rc = plan_next(cfg, &rec, tables, ARB_MAX_TABLES, &nt, &stage, &done, err, errlen);
        if (rc == 0)
            rc = record_placement(db, t, &rec, err, errlen);
        plan_record_release(&rec);
        if (rc)
            return rc;
        if (done) {
            store_finish(db, t->tid);
            t->out.finished = true;
            t->done = true;
            t->queued = t->leased = 0;
            arb_info(SUB, "tournament %s (%" PRId64 ") finished: %d matches recorded by this run", cfg->name, t->tid,
                     t->out.matches);
            return 0;
        }
        rc = store_add_round(db, t->tid, t->round + 1, stage, tables, nt, cfg->seed, err, errlen);
        if (rc)
            return rc;
        t->round++;
    }
    int pt, lt, dt, vt;
    if (store_counts(db, t->tid, -1, &pt, &lt, &dt, &vt) == 0) {
        t->queued = pt;
        t->leased = lt;
    }
    t->dirty = false;
    t->counted_ns = arb_now_ns();
    return 0;
}

/* An open tournament waiting for its deadline (or to be full): asked
 * again every RECOUNT_NS; started once registration is over. */
static int registration_wait(sched *s, tour *t, char *err, size_t errlen)
{
    store_reg_state st;
    t->counted_ns = arb_now_ns();
    t->dirty = false;
    if (store_registration_state(s->o.db, t->tid, &st, err, errlen) != 1) {
        snprintf(err, errlen, "database lost");
        return ARB_EIO;
    }
    if (st.open)
        return 0;
    /* not started (ARB_ESTATE: over, and said so in its record) or
     * failed: arbiter run says why, the daemon skips it */
    return tour_start(s, t, false, err, errlen);
}

/* The assignment for a claimed match: the tournament's match template
 * (rules, clocks, policy), its bots from the entrants' commands, a seed and
 * key of its own, the programs. */
static int make_assign(const tour *t, const store_match *m, wire_assign *a)
{
    const tn_config *cfg = t->o.cfg;
    memset(a, 0, sizeof *a);
    a->match_id = m->id;
    a->lease_gen = m->lease_gen;
    match_config *c = &a->cfg;
    *c = cfg->match;
    c->seed = m->seed;
    /* The match key: one-way from the tournament's secret and the match's
     * identity; the worker gets the key, never the secret. */
    char label[ARB_MAX_KEY_LABEL];
    arb_seeds_match_label(label, cfg->seed, m->round, m->tbl);
    match_set_key(c, t->secret, label);
    c->nbots = m->nslots;
    for (int b = 0; b < m->nslots; b++) {
        if (m->entrant[b] < 0 || m->entrant[b] >= t->nbots || t->bots[m->entrant[b]].bot.argc == 0)
            return ARB_ENOTFOUND;   /* a ladder entry suspended since: its program is not there */
        const entrant_bot *eb = &t->bots[m->entrant[b]];
        c->bots[b] = eb->bot;
        for (int f = 0; f < eb->nfiles && a->nprograms < ARB_WIRE_MAX_PROGRAMS; f++) {
            wire_program *p = &a->programs[a->nprograms++];
            p->bot = b;
            p->argi = eb->argi[f];
            snprintf(p->digest, sizeof p->digest, "%s", eb->digest);
            snprintf(p->path, sizeof p->path, "%s", eb->rel[f]);
        }
    }
    return 0;
}

/* The tournament a free slot serves next: of those that may have a match
 * to claim, the one with the fewest matches in flight (each running
 * tournament gets an equal share of the pool, whatever its matches last),
 * ties in turn from where the last claim left off. */
static int fairest(const sched *s)
{
    int best = -1;
    for (int k = 0; k < s->ntours; k++) {
        int i = (int)((s->next_tour + (unsigned)k) % (unsigned)s->ntours);
        const tour *t = s->tours[i];
        if (t->done || t->exhausted)
            continue;
        if (best < 0 || t->leased < s->tours[best]->leased)
            best = i;
    }
    return best;
}

/* Give every worker with a free slot a match, fairly across the set. */
static int dispatch(sched *s, char *err, size_t errlen)
{
    wire_assign *a = NULL;
    int rc = 0;
    for (int i = 0; i < s->ntours; i++)
        s->tours[i]->exhausted = false;
    for (int i = 0; i < s->npeers; i++) {
        peer *p = &s->peers[i];
        while (!p->dead && p->nheld < p->slots && p->free_reported > 0) {
            int ti = fairest(s);
            if (ti < 0)
                goto out;
            tour *t = s->tours[ti];
            store_match m;
            int got = store_claim(s->o.db, t->tid, p->id, s->lease_s, &m, err, errlen);
            if (got < 0) {
                rc = got;
                goto out;
            }
            if (got == 0) {
                t->exhausted = true;
                continue;
            }
            s->next_tour = (unsigned)ti + 1;
            t->leased++;
            if (t->queued > 0)
                t->queued--;
            m.tournament = t->tid;
            if (!a && !(a = malloc(sizeof *a))) {
                store_release(s->o.db, m.id, m.lease_gen, p->id);
                rc = ARB_ENOMEM;
                goto out;
            }
            uint8_t *f;
            size_t len;
            if (make_assign(t, &m, a) != 0) {
                store_void(s->o.db, &m, "a bot's program is not available (its ladder entry was suspended)", p->id);
                t->dirty = true;
                continue;
            }
            if (wire_encode_assign(a, &f, &len) != 0) {
                store_void(s->o.db, &m, "the assignment cannot be encoded", p->id);
                continue;
            }
            p->held[p->nheld++] = (held){.m = m, .since_ns = arb_now_ns()};
            p->free_reported--;
            sched__peer_send(s, p, f, len);   /* unroutable: the sweep gives the lease back */
        }
    }
out:
    free(a);
    return rc;
}

/* A tournament the daemon cannot run: an event on its record, skipped
 * until the daemon restarts. */
static void skip(sched *s, serve_all *all, int64_t tid, const char *why)
{
    arb_error(SUB, "tournament %" PRId64 " skipped: %s", tid, why);
    store_event(s->o.db, tid, "skipped", why);
    if (all->nskipped < SKIPPED_MAX)
        all->skipped[all->nskipped++] = tid;
}

/* Take up every running tournament of the record that is not in the set
 * (nor skipped), while the set has room. */
static int take_up(sched *s, serve_all *all, char *err, size_t errlen)
{
    while (s->ntours < ARB_SCHED_MAX_TOURNAMENTS) {
        int64_t known[ARB_SCHED_MAX_TOURNAMENTS + SKIPPED_MAX], tid;
        int nknown = 0;
        for (int i = 0; i < s->ntours; i++)
            known[nknown++] = s->tours[i]->tid;
        for (int i = 0; i < all->nskipped; i++)
            known[nknown++] = all->skipped[i];
        char path[4096], digest[65];
        int found = store_next_running(s->o.db, known, nknown, &tid, path, sizeof path, digest);
        if (found < 0) {
            snprintf(err, errlen, "database lost");
            return ARB_EIO;
        }
        if (found == 0)
            return 0;
        tour *t = calloc(1, sizeof *t);
        if (!t) {
            snprintf(err, errlen, "out of memory");
            return ARB_ENOMEM;
        }
        /* The tournament as submitted: its file, unchanged since. */
        char why[2048];
        int rc = ARB_ENOTFOUND;
        if (!path[0]) {
            /* submitted over the API: its text is the record's, read as
             * it was checked then (naming no file of this host) */
            char *text = NULL, by[ARB_ACCOUNT_MAX_NAME + 1], label[128];
            size_t len = 0;
            int got = store_tournament_text(s->o.db, tid, &text, &len, by, sizeof by, why, sizeof why);
            snprintf(label, sizeof label, "tournament %" PRId64 " (submitted by %s)", tid, got == 1 ? by : "?");
            if (got == 0)
                snprintf(why, sizeof why, "tournament %" PRId64 " has no file on record (submitted by an older arbiter)",
                         tid);
            else if (got == 1 && (rc = tn_config_load_text(label, text, len, &t->own, why, sizeof why)) == 0) {
                t->owned = true;
                snprintf(t->own.submitted_by, sizeof t->own.submitted_by, "%s", by);
            } else if (got < 0)
                rc = got;
            free(text);
        } else if ((rc = tn_config_load(path, &t->own, why, sizeof why)) == 0)
            t->owned = true;
        if (rc == 0 && strcmp(t->own.digest, digest) != 0) {
            snprintf(why, sizeof why, "%.1900s changed since it was submitted: restore it, or submit it under a new "
                     "name", path);
            rc = ARB_ESTATE;
        }
        if (rc == 0) {
            t->o = (sched_tournament_options){.cfg = &t->own, .yaml = t->own.text, .digest = t->own.digest,
                                              .progress = all->progress, .ctx = all->ctx};
            rc = tour_begin(s, t, why, sizeof why);
        }
        if (rc && store_failed_transiently(s->o.db)) {
            /* not skipped: taken up again once the database answers
             * (sched_serve_all waits it out) */
            snprintf(err, errlen, "tournament %" PRId64 " not taken up yet: %s", tid, why);
            tour_free(t);
            return ARB_EAGAIN;
        }
        if (rc) {
            skip(s, all, tid, why);
            tour_free(t);
            continue;
        }
        s->tours[s->ntours++] = t;
        atomic_store(&s->st.tournaments, s->ntours);
    }
    return 0;
}

/* The one event loop: until *stop, or until `only` is done (a set of
 * one), or for ever taking up tournaments (all). */
static int run_set(sched *s, serve_all *all, tour *only, char *err, size_t errlen)
{
    store_table *tables = calloc(ARB_MAX_TABLES, sizeof *tables);
    if (!tables) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    int rc = 0;
    while (rc == 0 && !stopping(s)) {
        uint64_t now = arb_now_ns();
        if (all && now >= all->next_pickup) {
            all->next_pickup = now + PICKUP_NS;
            if ((rc = take_up(s, all, err, errlen)) != 0)
                break;
        }
        for (int i = 0; i < s->ntours && rc == 0; i++) {
            tour *t = s->tours[i];
            if (t->done || (!t->dirty && now - t->counted_ns < RECOUNT_NS))
                continue;
            char why[2048];
            int trc = t->registering ? registration_wait(s, t, why, sizeof why)
                                     : tour_advance(s, t, tables, why, sizeof why);
            if (trc == 0)
                continue;
            if (!all || store_failed_transiently(s->o.db)) {
                /* the daemon waits a passing failure out (sched_serve_all):
                 * the tournament stays in the set, its next round planned
                 * once the database answers */
                snprintf(err, errlen, "%s", why);
                rc = all ? ARB_EAGAIN : trc;
            } else {
                skip(s, all, t->tid, why);   /* the others play on */
                t->done = true;
            }
        }
        if (rc || (only && only->done))
            break;
        int queued = 0, leased = 0;
        for (int i = 0; i < s->ntours; i++) {
            tour *t = s->tours[i];
            if (t->done && all) {
                set_remove(s, t);
                tour_free(t);
                i--;
                continue;
            }
            queued += t->queued;
            leased += t->leased;
        }
        atomic_store(&s->st.queued, queued);
        atomic_store(&s->st.leased, leased);
        rc = dispatch(s, err, errlen);
        if (rc == 0)
            rc = sched__pump(s, 200, err, errlen);
    }
    free(tables);
    return rc;
}

int sched_tournament(sched *s, const sched_tournament_options *o, sched_outcome *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (s->ntours == ARB_SCHED_MAX_TOURNAMENTS) {
        snprintf(err, errlen, "this scheduler runs %d tournaments already", ARB_SCHED_MAX_TOURNAMENTS);
        return ARB_ETOOBIG;
    }
    tour *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    t->o = *o;
    int rc = tour_begin(s, t, err, errlen);
    if (rc == 0) {
        s->tours[s->ntours++] = t;
        atomic_store(&s->st.tournaments, s->ntours);
        rc = run_set(s, NULL, t, err, errlen);
        set_remove(s, t);
    }
    atomic_store(&s->st.queued, 0);
    atomic_store(&s->st.leased, 0);
    *out = t->out;
    tour_free(t);
    return rc;
}

/* The database failed for a passing reason (store_failed_transiently):
 * nothing is given up. Said once per try, the pool kept alive meanwhile
 * (heartbeats answered; a result that cannot be recorded is not
 * acknowledged, and its worker sends it again), then the database asked
 * again after *delay_ms, which doubles up to ARB_DB_RETRY_MAX_MS and
 * starts again from ARB_DB_RETRY_FIRST_MS after a minute without a
 * failure. */
static void wait_out_database(sched *s, serve_all *all, const char *why, uint64_t *delay_ms, uint64_t *out_since,
                             uint64_t began)
{
    uint64_t now = arb_now_ns();
    if (now - began >= (uint64_t)ARB_DB_RETRY_MAX_MS * 1000000u) {   /* it ran well for a while */
        *delay_ms = ARB_DB_RETRY_FIRST_MS;
        *out_since = 0;
    }
    if (!*out_since)
        *out_since = now;
    /* the failed statement's own words (SQLSTATE: message, one line), else
     * what the loop said */
    const char *detail = store_last_failure(s->o.db);
    char line[512];
    snprintf(line, sizeof line, "%s", detail[0] ? detail : why);
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    arb_warn(SUB, "the database failed (%s): no tournament is dropped; trying again in %.0f s (failing for %.0f s)",
             line, (double)*delay_ms / 1000, (double)(now - *out_since) / 1e9);
    uint64_t until = now + *delay_ms * 1000000u, probe = now + (uint64_t)ARB_DB_RETRY_FIRST_MS * 1000000u;
    /* a lost connection (a restart, a failover: 08xxx, 57P0x) is asked for
     * again every ARB_DB_RETRY_FIRST_MS, and the tournaments go on as soon
     * as it is back: the backoff paces only a database that answers and
     * fails (a full disk), which asking sooner would not mend */
    bool link = strncmp(line, "08", 2) == 0 || strncmp(line, "57P", 3) == 0 || !store_connected_now(s->o.db);
    char perr[256];
    while (!stopping(s) && arb_now_ns() < until) {   /* results fail unacknowledged: resent later */
        if (sched__pump(s, 200, perr, sizeof perr) != 0 && !store_failed_transiently(s->o.db))
            break;   /* not the database (the ZAP handler): the loop says it */
        if (link && arb_now_ns() >= probe) {
            if (store_connected(s->o.db))
                break;
            probe = arb_now_ns() + (uint64_t)ARB_DB_RETRY_FIRST_MS * 1000000u;
        }
    }
    if (stopping(s))
        return;
    *delay_ms = *delay_ms * 2 > ARB_DB_RETRY_MAX_MS ? ARB_DB_RETRY_MAX_MS : *delay_ms * 2;
    if (store_connected(s->o.db))   /* a lost connection made again (once): the tournaments go on */
        arb_info(SUB, "the database answers: trying the tournaments again");
    else
        arb_warn(SUB, "the database does not answer yet: %s", store_last_failure(s->o.db));
    all->next_pickup = 0;
}

int sched_serve_all(sched *s, void (*progress)(void *ctx, const sched_progress *p), void *ctx, char *err,
                    size_t errlen)
{
    serve_all *all = calloc(1, sizeof *all);
    if (!all) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    all->progress = progress;
    all->ctx = ctx;
    int rc;
    uint64_t delay_ms = ARB_DB_RETRY_FIRST_MS, out_since = 0;
    for (;;) {
        uint64_t began = arb_now_ns();
        rc = run_set(s, all, NULL, err, errlen);
        if (rc == 0 || stopping(s) || (rc != ARB_EAGAIN && !store_failed_transiently(s->o.db)))
            break;
        wait_out_database(s, all, err, &delay_ms, &out_since, began);
        rc = 0;
    }
    while (s->ntours > 0) {
        tour *t = s->tours[s->ntours - 1];
        set_remove(s, t);
        tour_free(t);
    }
    atomic_store(&s->st.queued, 0);
    atomic_store(&s->st.leased, 0);
    free(all);
    return rc;
}
