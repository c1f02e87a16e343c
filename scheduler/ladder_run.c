/* ladder_run.c — a ladder in the scheduler's set (sched_int.h;
 * docs/ladders.md). A ladder is never planned in rounds: at each step of
 * the loop the scheduler
 *
 *   1. starts the programs of entries that joined since (`arbiter ladder
 *      join` writes them into the record, the scheduler reads them here),
 *      suspending an entry whose files no longer give the digest recorded
 *      when it joined;
 *   2. starts each new entry's validation match (copies of itself, or the
 *      file's reference bot: ladder.validation) and judges it when it is
 *      recorded: no penalty and no forfeit, the entry is active; else it
 *      is rejected with the first penalty as the verdict;
 *   3. makes matches (ladder.h: ladder_match) while fewer than
 *      ladder.concurrent are in flight, each choice from a seed keyed by
 *      the ladder's secret and the round it becomes, the seed and the
 *      reasons recorded beside the round (rounds.note).
 *
 * A ladder with ladder.matches ends when it has made and played that many.
 * In a partnership game each entry sits every seat of its side (its
 * partner is a copy of itself): ladder_match pairs entries as sides. */
#include "sched_int.h"
#include "tr_blob.h"
#include "arb_num.h"
#include "ladder.h"
#include "plan.h"
#include "rating.h"
#include "arb_error.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
#include "arb_log.h"

#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SUB = SCHED_SUB;

/* The programs of entries t has not loaded yet (entrant >= t->nbots). A
 * program that cannot be started, or whose files changed since it joined,
 * suspends its entry with the reason; its bot stays empty (argc 0) and a
 * match that would start it is void. */
static int sync_programs(sched *s, tour *t, char *err, size_t errlen)
{
    store_rows rows;
    int rc = store_ladder_programs(s->o.db, t->tid, t->nbots, &rows, err, errlen);
    if (rc || rows.nrows == 0) {
        store_rows_release(&rows);
        return rc;
    }
    int want = t->nbots + rows.nrows;
    if (want > ARB_LADDER_MAX_ENTRIES) {
        store_rows_release(&rows);
        snprintf(err, errlen, "more than %d entries", ARB_LADDER_MAX_ENTRIES);
        return ARB_ETOOBIG;
    }
    entrant_bot *bots = realloc(t->bots, (size_t)want * sizeof *bots);
    if (!bots) {
        store_rows_release(&rows);
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    t->bots = bots;
    for (int i = 0; i < rows.nrows; i++) {
        int idx = (int)arb_cell_int(store_cell(&rows, i, STORE_PROGRAMS_ENTRANT));
        if (idx != t->nbots) {   /* entrants are numbered from 0 without gaps */
            store_rows_release(&rows);
            snprintf(err, errlen, "entrant %d of the record follows %d", idx, t->nbots - 1);
            return ARB_EIO;
        }
        entrant_bot *eb = &t->bots[t->nbots++];
        memset(eb, 0, sizeof *eb);
        tn_entrant *e = calloc(1, sizeof *e);
        if (!e) {
            store_rows_release(&rows);
            return ARB_ENOMEM;
        }
        snprintf(e->name, sizeof e->name, "%s", store_cell(&rows, i, STORE_PROGRAMS_NAME));
        snprintf(e->command, sizeof e->command, "%s", store_cell(&rows, i, STORE_PROGRAMS_COMMAND));
        snprintf(e->files, sizeof e->files, "%s", store_cell(&rows, i, STORE_PROGRAMS_FILES));
        e->startup_ms = arb_cell_int(store_cell(&rows, i, STORE_PROGRAMS_STARTUP));
        snprintf(e->env, sizeof e->env, "%s", store_cell(&rows, i, STORE_PROGRAMS_ENV));
        const char *dir = store_cell(&rows, i, STORE_PROGRAMS_DIR),
                   *digest = store_cell(&rows, i, STORE_PROGRAMS_DIGEST),
                   *status = store_cell(&rows, i, STORE_PROGRAMS_STATUS);
        char why[1024] = "";
        bool uploaded = strcmp(store_cell(&rows, i, STORE_PROGRAMS_UPLOADED), "t") == 0;
        if (uploaded) {
            /* joined through the API: its program is the record's, never a
             * directory on this disk */
            store_entrant_prog *rec = calloc(1, sizeof *rec);
            int got = rec ? store_entrant_program_get(s->o.db, t->tid, idx, rec, why, sizeof why) : ARB_ENOMEM;
            if (got == 1) {
                /* its relative words are its bundle's, never this host's
                 * (a word "run/postgresql" would otherwise be /run's) */
                e->registered = true;
                int brc = sched__from_record(s, eb, e, "/", rec, why, sizeof why);
                if (brc != 0) {
                    eb->bot.argc = 0;
                    if (strcmp(status, "active") == 0 || strcmp(status, "validating") == 0) {
                        arb_warn(SUB, "ladder %s: %s suspended: %s", t->o.cfg->name, e->name, why);
                        store_ladder_set(s->o.db, t->tid, idx, "suspended", why);
                    }
                }
            }
            free(rec);
            free(e);
            if (got < 0) {
                store_rows_release(&rows);
                snprintf(err, errlen, "%s", why);
                return ARB_EIO;
            }
            continue;
        }
        int brc = sched__entrant_bot(s, eb, e, dir[0] ? dir : "/", dir[0] ? dir : "/", why, sizeof why);
        if (brc == 0 && strcmp(eb->digest, digest) != 0) {
            snprintf(why, sizeof why, "its program's files changed since it joined (digest %.12s, now %.12s): join "
                     "again", digest[0] ? digest : "(none)", eb->digest[0] ? eb->digest : "(none)");
            brc = ARB_ESTATE;
        }
        if (brc == 0 && sched__record_program(s, t->tid, idx, eb, err, errlen) != 0) {
            store_rows_release(&rows);
            free(e);
            return ARB_EIO;
        }
        if (brc) {
            eb->bot.argc = 0;
            if (strcmp(status, "active") == 0 || strcmp(status, "validating") == 0) {
                arb_warn(SUB, "ladder %s: %s suspended: %s", t->o.cfg->name, e->name, why);
                store_ladder_set(s->o.db, t->tid, idx, "suspended", why);
            }
        }
        free(e);
    }
    store_rows_release(&rows);
    return 0;
}

int sched__ladder_begin(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    char dirbuf[512], base[512];
    snprintf(dirbuf, sizeof dirbuf, "%s", cfg->path);
    snprintf(base, sizeof base, "%s", dirname(dirbuf));
    t->ladder = true;
    if (store_ladder_settings(s->o.db, t->tid, (int)cfg->ladder.provisional, (int)cfg->ladder.inactive_days,
                              tn_startup_max(cfg)) != 0) {
        snprintf(err, errlen, "database lost");
        return ARB_EIO;
    }
    /* the file's entries: the organiser's, active from the start */
    for (int i = 0; i < cfg->nentrants; i++) {
        const tn_entrant *e = &cfg->entrants[i];
        int version;
        char name[ARB_MAX_BOT_NAME + 1];
        store_ladder_entry_in j = {.base = e->name, .command = e->command, .files = e->files, .dir = base,
                               .digest = t->bots[i].digest[0] ? t->bots[i].digest : NULL, .entrant = i,
                               .startup_ms = e->startup_ms, .env = e->env};
        int rc = store_ladder_join(s->o.db, t->tid, &j, &version, name, sizeof name, err, errlen);
        if (rc)
            return rc;
    }
    int in_flight, pending, leased;
    if (store_ladder_counts(s->o.db, t->tid, &in_flight, &pending, &leased, &t->ladder_created) != 0) {
        snprintf(err, errlen, "database lost");
        return ARB_EIO;
    }
    return sync_programs(s, t, err, errlen);
}

/* The seats of a table and, in a partnership game, each seat's side. */
typedef struct table_shape {
    int seats, sides;               /* sides 0: every seat its own entry */
    int side_of[ARB_MAX_SEATS];
} table_shape;

static int shape_of(const tn_config *cfg, table_shape *sh, char *err, size_t errlen)
{
    sh->sides = plan_seat_sides(cfg, &sh->seats, sh->side_of);
    if (sh->sides < 0) {
        snprintf(err, errlen, "the rules %s do not build", cfg->match.preset);
        return ARB_EINVAL;
    }
    return 0;
}

/* The end of the entry's stderr in its validation match (pending row i):
 * the bot's own words, from the transcript in the record. The entry sits
 * in the table's first seat, bot 0 (validations). Its length, 0 none. */
static size_t stderr_of(sched *s, const store_rows *rows, int i, char *out, size_t cap)
{
    uint8_t *data = NULL;
    size_t len = 0, n = 0;
    char err[256];
    out[0] = 0;
    if (store_transcript_load(s->o.db, store_cell(rows, i, STORE_PENDING_DIGEST),
                              store_cell(rows, i, STORE_PENDING_TRANSCRIPT), &data, &len, err, sizeof err) == 0)
        n = trb_stderr_tail(data, len, 0, ARB_LADDER_VERDICT_STDERR_LINES, out, cap);
    free(data);
    return n;
}

/* Step 2: validations started, and judged once played. */
static int validations(sched *s, tour *t, const table_shape *sh, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    store_rows rows;
    int rc = store_ladder_pending(s->o.db, t->tid, &rows, err, errlen);
    if (rc)
        return rc;
    int ref = -1;
    for (int i = 0; i < cfg->nentrants; i++)
        if (strcmp(cfg->entrants[i].name, cfg->ladder.validation) == 0)
            ref = i;
    for (int i = 0; i < rows.nrows && rc == 0; i++) {
        int e = (int)arb_cell_int(store_cell(&rows, i, STORE_PENDING_ENTRANT));
        const char *vm = store_cell(&rows, i, STORE_PENDING_MATCH), *state = store_cell(&rows, i, STORE_PENDING_STATE);
        const char *name = e < t->nbots ? t->bots[e].bot.name : "?";
        char verdict[1200];
        if (strcmp(cfg->ladder.validation, "none") == 0) {
            store_ladder_set(s->o.db, t->tid, e, "active", "no validation (ladder.validation: none)");
        } else if (!vm[0]) {
            if (e >= t->nbots || t->bots[e].bot.argc == 0)
                continue;   /* its program is not loaded (suspended) */
            store_table tb = {.nslots = sh->seats};
            int pos[ARB_MAX_SEATS] = {0};
            /* the entry in its first seat (its side in partnership play),
             * copies of itself or the reference bot in the others */
            for (int k = 0; k < sh->seats; k++) {
                bool own = ref < 0 || k == 0 || (sh->sides && sh->side_of[k] == sh->side_of[0]);
                tb.entrant[k] = own ? e : ref;
            }
            char note[256];
            snprintf(note, sizeof note, "validation of %s: %s", name, ref < 0 ? "copies of itself" : "against the reference bot");
            rc = store_ladder_add(s->o.db, t->tid, t->round + 1, "validation", &tb, pos, cfg->seed, note, err, errlen);
            if (rc == 0) {
                t->round++;
                arb_info(SUB, "ladder %s: %s plays its validation match (round %d)", cfg->name, name, t->round);
            }
        } else if (strcmp(state, "done") == 0) {
            int pens = (int)arb_cell_int(store_cell(&rows, i, STORE_PENDING_PENALTIES));
            bool forfeited = store_cell(&rows, i, STORE_PENDING_FORFEITED)[0] == 't';
            int deals = (int)arb_cell_int(store_cell(&rows, i, STORE_PENDING_GAMES));
            bool ok = pens == 0 && !forfeited;
            char said[ARB_LADDER_VERDICT_STDERR + 1] = "";
            if (!ok)
                stderr_of(s, &rows, i, said, sizeof said);
            if (ok)
                snprintf(verdict, sizeof verdict, "validated by match %s: %d deals, no penalty", vm, deals);
            else
                /* the transcript is in the record (the referee's file is gone) */
                snprintf(verdict, sizeof verdict, "rejected by match %s: %d penalt%s%s%s%.500s%s%s%s; its transcript: "
                         "arbiter replay --match %s", vm, pens, pens == 1 ? "y" : "ies", forfeited ? ", forfeited" : "",
                         store_cell(&rows, i, STORE_PENDING_FIRST_PENALTY)[0] ? "; first: " : "",
                         store_cell(&rows, i, STORE_PENDING_FIRST_PENALTY),
                         said[0] ? "; its stderr ends: \"" : "", said,
                         said[0] ? "\"" : "", vm);
            arb_info(SUB, "ladder %s: %s %s", cfg->name, name, verdict);
            store_ladder_set(s->o.db, t->tid, e, ok ? "active" : "rejected", verdict);
        } else if (strcmp(state, "void") == 0) {
            snprintf(verdict, sizeof verdict, "rejected: validation match %s is void: %.900s", vm,
                     store_cell(&rows, i, STORE_PENDING_ERROR));
            store_ladder_set(s->o.db, t->tid, e, "rejected", verdict);
        }
    }
    store_rows_release(&rows);
    return rc;
}

typedef struct usable_ctx {
    const tour *t;
} usable_ctx;

static bool loaded(void *ctx, int entrant)
{
    const tour *t = ((usable_ctx *)ctx)->t;
    return entrant < t->nbots && t->bots[entrant].bot.argc > 0;
}

/* The view: every entry's matchmaking state as the record last gave it,
 * indexed by entrant. Each decision reads only what changed since
 * (store_ladder_changes), so its cost follows the ladder's activity, not
 * its size; the first read takes everything. */
typedef struct view_entry {
    bool     known, active;
    double   mu, sigma;             /* NAN: not rated yet */
    int      games, in_flight, last_hour;
    int64_t  last_started;          /* epoch seconds; -1: never */
    int      nrecent;
    int      recent[LADDER_MAX_RECENT];
    uint32_t seats[4];
} view_entry;

struct sched_ladder_view {
    int64_t     tid;
    int64_t     seen;               /* the highest change number read */
    view_entry *e;
    int         n;                  /* entrants 0..n-1 */
    ladder_entry *scratch;          /* n of them, for ladder_match */
};

sched_ladder_view *sched_ladder_view_new(void)
{
    sched_ladder_view *v = calloc(1, sizeof *v);
    if (v)
        v->tid = -1;
    return v;
}

void sched_ladder_view_free(sched_ladder_view *v)
{
    if (!v)
        return;
    free(v->e);
    free(v->scratch);
    free(v);
}

/* "{1,2,3}" into v (cap of them): the count. */
static int int_array(const char *s, int *v, int cap)
{
    int n = 0;
    while (*s && n < cap) {
        while (*s == '{' || *s == ',' || *s == ' ')
            s++;
        if (*s == '}' || !*s)
            break;
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s)
            break;
        v[n++] = (int)x;
        s = end;
    }
    return n;
}

/* Room for entrant e: 0, or < 0. */
static int view_grow(sched_ladder_view *v, int e, char *err, size_t errlen)
{
    if (e < v->n)
        return 0;
    if (e < 0 || e >= ARB_LADDER_MAX_ENTRIES) {
        snprintf(err, errlen, "entrant %d of the record is outside 0..%d", e, ARB_LADDER_MAX_ENTRIES - 1);
        return ARB_EIO;
    }
    int n = v->n ? v->n : 64;
    while (n <= e)
        n *= 2;
    if (n > ARB_LADDER_MAX_ENTRIES)
        n = ARB_LADDER_MAX_ENTRIES;
    view_entry *ve = realloc(v->e, (size_t)n * sizeof *ve);
    ladder_entry *sc = ve ? realloc(v->scratch, (size_t)n * sizeof *sc) : NULL;
    if (ve)
        v->e = ve;
    if (!sc) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    v->scratch = sc;
    memset(ve + v->n, 0, (size_t)(n - v->n) * sizeof *ve);
    for (int i = v->n; i < n; i++)
        ve[i].mu = ve[i].sigma = NAN, ve[i].last_started = -1;
    v->n = n;
    return 0;
}

/* What changed since the view's last read, applied; *now the database's
 * clock. 0 or < 0. */
static int view_refresh(store *db, int64_t tid, bool rate, sched_ladder_view *v, int64_t *now, char *err,
                        size_t errlen)
{
    if (v->tid != tid) {   /* another ladder: start over */
        for (int i = 0; i < v->n; i++)
            v->e[i] = (view_entry){.mu = NAN, .sigma = NAN, .last_started = -1};
        v->tid = tid;
        v->seen = 0;
    }
    store_rows rows;
    int rc = store_ladder_changes(db, tid, v->seen, rate, &rows, err, errlen);
    if (rc)
        return rc;
    for (int i = 0; i < v->n; i++)
        v->e[i].in_flight = v->e[i].last_hour = 0;
    *now = 0;
    int64_t seen = v->seen;
    for (int i = 0; i < rows.nrows && !rc; i++) {
        char kind = store_cell(&rows, i, STORE_CHANGES_KIND)[0];
        int e = (int)arb_cell_int(store_cell(&rows, i, STORE_CHANGES_ENTRANT));
        long long num = strtoll(store_cell(&rows, i, STORE_CHANGES_NUMBER), NULL, 10),
                  changed = strtoll(store_cell(&rows, i, STORE_CHANGES_CHANGED), NULL, 10);
        if (kind == 'n') {
            *now = num;
            continue;
        }
        if ((rc = view_grow(v, e, err, errlen)) != 0)
            break;
        view_entry *ve = &v->e[e];
        if (changed > seen)
            seen = changed;
        switch (kind) {
        case 'e': {
            ve->known = true;
            ve->active = strcmp(store_cell(&rows, i, STORE_CHANGES_STATUS), "active") == 0;
            ve->nrecent = int_array(store_cell(&rows, i, STORE_CHANGES_RECENT), ve->recent, LADDER_MAX_RECENT);
            int seats[4] = {0};
            int ns = int_array(store_cell(&rows, i, STORE_CHANGES_SEATS), seats, 4);
            for (int k = 0; k < 4; k++)
                ve->seats[k] = k < ns && seats[k] > 0 ? (uint32_t)seats[k] : 0;
            ve->last_started = num;
            break;
        }
        case 'r':
            ve->mu = strtod(store_cell(&rows, i, STORE_CHANGES_MU), NULL);
            ve->sigma = strtod(store_cell(&rows, i, STORE_CHANGES_SIGMA), NULL);
            ve->games = (int)arb_cell_int(store_cell(&rows, i, STORE_CHANGES_GAMES));
            break;
        case 'f': ve->in_flight = (int)num; break;
        case 'h': ve->last_hour = (int)num; break;
        default: break;
        }
    }
    store_rows_release(&rows);
    if (!rc)
        v->seen = seen;
    return rc;
}

int sched_ladder_choose(store *db, int64_t tid, const tn_config *cfg, sched_ladder_view *v,
                        bool (*usable)(void *ctx, int entrant), void *ctx, uint64_t seed, sched_ladder_pick *out,
                        char *err, size_t errlen)
{
    const tn_ladder *L = &cfg->ladder;
    table_shape sh;
    int rc = shape_of(cfg, &sh, err, errlen);
    int64_t now;
    if (!rc)
        rc = view_refresh(db, tid, L->rate > 0, v, &now, err, errlen);
    if (rc)
        return rc;
    rated d = rated_default(cfg->rating, cfg->rating_model);
    ladder_entry *le = v->scratch;
    int m = 0;
    for (int i = 0; i < v->n; i++) {
        const view_entry *ve = &v->e[i];
        if (!ve->known || !ve->active || (usable && !usable(ctx, i)))
            continue;
        ladder_entry *e = &le[m++];
        memset(e, 0, sizeof *e);
        e->id = i + 1;   /* 0 means "none" among recent opponents */
        e->mu = isnan(ve->mu) ? d.mu : ve->mu;
        e->sigma = isnan(ve->sigma) ? d.sigma : ve->sigma;
        e->games = ve->games;
        e->in_flight = ve->in_flight;
        e->last_hour = ve->last_hour;
        e->rate = L->rate;
        e->idle_s = ve->last_started < 0 ? INT64_MAX : (now > ve->last_started ? now - ve->last_started : 0);
        for (int k = 0; k < ve->nrecent; k++)
            e->recent[k] = ve->recent[k] + 1;
        memcpy(e->seat_count, ve->seats, sizeof e->seat_count);
    }
    ladder_params p = {.seats = sh.sides ? sh.sides : sh.seats, .provisional = (int)L->provisional,
                       .new_boost = L->new_boost, .max_in_flight = (int)L->max_in_flight,
                       .sigma0 = cfg->rating == TN_RATING_ELO ? 0 : d.sigma,
                       .beta = cfg->rating == TN_RATING_OPENSKILL ? d.mu / 6 : 200};
    int pick[ARB_MAX_SEATS];
    char why[400];
    int got = ladder_match(&p, le, m, seed, pick, why, sizeof why);
    if (got == 1) {
        out->table = (store_table){.nslots = sh.seats};
        for (int k = 0; k < sh.seats; k++) {
            int unit = sh.sides ? sh.side_of[k] : k;
            out->table.entrant[k] = (int)le[pick[unit]].id - 1;
            out->pos[k] = unit;
        }
        snprintf(out->note, sizeof out->note, "seed %" PRIu64 ": %s (ids are entrant + 1)", seed, why);
    }
    return got;
}

/* Step 3: one match, if one can be made now. 1 made, 0 not, < 0 error. */
static int make_match(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    int round = t->round + 1;
    sched_ladder_pick pk;
    usable_ctx u = {t};
    if (!t->view && !(t->view = sched_ladder_view_new())) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    int got = sched_ladder_choose(s->o.db, t->tid, cfg, t->view, loaded, &u, arb_seeds_ladder(t->secret, (uint64_t)round),
                                  &pk, err, errlen);
    if (got != 1)
        return got;
    int rc = store_ladder_add(s->o.db, t->tid, round, "ladder", &pk.table, pk.pos, cfg->seed, pk.note, err, errlen);
    if (rc)
        return rc;
    t->round = round;
    t->ladder_created++;
    return 1;
}

int sched__ladder_advance(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    table_shape sh;
    int rc = shape_of(cfg, &sh, err, errlen);
    if (!rc)
        rc = sync_programs(s, t, err, errlen);
    if (!rc)
        rc = validations(s, t, &sh, err, errlen);
    if (rc)
        return rc;
    int in_flight, pending, leased;
    for (;;) {
        if (store_ladder_counts(s->o.db, t->tid, &in_flight, &pending, &leased, NULL) != 0) {
            snprintf(err, errlen, "database lost");
            return ARB_EIO;
        }
        if (in_flight >= (int)cfg->ladder.concurrent
            || (cfg->ladder.matches && t->ladder_created >= (int64_t)cfg->ladder.matches))
            break;
        int got = make_match(s, t, err, errlen);
        if (got < 0)
            return got;
        if (got == 0)
            break;
    }
    t->queued = pending;
    t->leased = leased;
    if (cfg->ladder.matches && t->ladder_created >= (int64_t)cfg->ladder.matches && pending + leased == 0) {
        store_finish(s->o.db, t->tid);
        t->out.finished = true;
        t->done = true;
        arb_info(SUB, "ladder %s (%" PRId64 ") finished: %" PRId64 " ladder matches played", cfg->name, t->tid,
                 t->ladder_created);
    }
    return 0;
}
