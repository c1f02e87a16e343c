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
#include "ladder.h"
#include "plan.h"
#include "rating.h"
#include "arb_error.h"
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
        int idx = atoi(store_cell(&rows, i, 0));
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
        snprintf(e->name, sizeof e->name, "%s", store_cell(&rows, i, 1));
        snprintf(e->command, sizeof e->command, "%s", store_cell(&rows, i, 2));
        snprintf(e->files, sizeof e->files, "%s", store_cell(&rows, i, 3));
        const char *dir = store_cell(&rows, i, 4), *digest = store_cell(&rows, i, 5),
                   *status = store_cell(&rows, i, 6);
        char why[1024] = "";
        int brc = sched__entrant_bot(s, eb, e, dir[0] ? dir : "/", dir[0] ? dir : "/", why, sizeof why);
        if (brc == 0 && strcmp(eb->digest, digest) != 0) {
            snprintf(why, sizeof why, "its program's files changed since it joined (digest %.12s, now %.12s): join "
                     "again", digest[0] ? digest : "(none)", eb->digest[0] ? eb->digest : "(none)");
            brc = ARB_ESTATE;
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
    if (store_ladder_settings(s->o.db, t->tid, (int)cfg->ladder.provisional, (int)cfg->ladder.inactive_days) != 0) {
        snprintf(err, errlen, "database lost");
        return ARB_EIO;
    }
    /* the file's entries: the organiser's, active from the start */
    for (int i = 0; i < cfg->nentrants; i++) {
        const tn_entrant *e = &cfg->entrants[i];
        int version;
        char name[ARB_MAX_BOT_NAME + 1];
        store_ladder_entry_in j = {.base = e->name, .command = e->command, .files = e->files, .dir = base,
                               .digest = t->bots[i].digest[0] ? t->bots[i].digest : NULL, .entrant = i};
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
        int e = atoi(store_cell(&rows, i, 0));
        const char *vm = store_cell(&rows, i, 1), *state = store_cell(&rows, i, 2);
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
            int pens = atoi(store_cell(&rows, i, 3));
            bool forfeited = store_cell(&rows, i, 4)[0] == 't';
            int deals = atoi(store_cell(&rows, i, 6));
            bool ok = pens == 0 && !forfeited;
            if (ok)
                snprintf(verdict, sizeof verdict, "validated by match %s: %d deals, no penalty", vm, deals);
            else
                snprintf(verdict, sizeof verdict, "rejected by match %s: %d penalt%s%s%s%.500s; transcript %.400s", vm,
                         pens, pens == 1 ? "y" : "ies", forfeited ? ", forfeited" : "",
                         store_cell(&rows, i, 7)[0] ? "; first: " : "", store_cell(&rows, i, 7), store_cell(&rows, i, 8));
            arb_info(SUB, "ladder %s: %s %s", cfg->name, name, verdict);
            store_ladder_set(s->o.db, t->tid, e, ok ? "active" : "rejected", verdict);
        } else if (strcmp(state, "void") == 0) {
            snprintf(verdict, sizeof verdict, "rejected: validation match %s is void: %.900s", vm, store_cell(&rows, i, 5));
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

int sched_ladder_choose(store *db, int64_t tid, const tn_config *cfg, bool (*usable)(void *ctx, int entrant),
                        void *ctx, uint64_t seed, sched_ladder_pick *out, char *err, size_t errlen)
{
    const tn_ladder *L = &cfg->ladder;
    table_shape sh;
    int rc = shape_of(cfg, &sh, err, errlen);
    if (rc)
        return rc;
    store_ladder_state *st;
    int n;
    rc = store_ladder_states(db, tid, L->rate > 0, &st, &n, err, errlen);
    if (rc)
        return rc;
    ladder_entry *le = calloc((size_t)n + 1, sizeof *le);
    if (!le) {
        free(st);
        return ARB_ENOMEM;
    }
    rated d = rated_default(cfg->rating, cfg->rating_model);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (usable && !usable(ctx, st[i].entrant))
            continue;
        ladder_entry *e = &le[m++];
        e->id = st[i].entrant + 1;   /* 0 means "none" among recent opponents */
        e->mu = isnan(st[i].mu) ? d.mu : st[i].mu;
        e->sigma = isnan(st[i].sigma) ? d.sigma : st[i].sigma;
        e->games = st[i].games;
        e->in_flight = st[i].in_flight;
        e->last_hour = st[i].last_hour;
        e->rate = L->rate;
        e->idle_s = st[i].idle_s;
        for (int k = 0; k < st[i].nrecent && k < LADDER_MAX_RECENT; k++)
            e->recent[k] = st[i].recent[k] + 1;
        memcpy(e->seat_count, st[i].seats, sizeof e->seat_count);
    }
    free(st);
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
    free(le);
    return got;
}

/* Step 3: one match, if one can be made now. 1 made, 0 not, < 0 error. */
static int make_match(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    int round = t->round + 1;
    sched_ladder_pick pk;
    usable_ctx u = {t};
    int got = sched_ladder_choose(s->o.db, t->tid, cfg, loaded, &u, arb_seed_keyedn(t->secret, "ladder", (uint64_t)round),
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
