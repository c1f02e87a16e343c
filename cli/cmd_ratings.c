/* cmd_ratings.c — `arbiter ratings NAME`: the leaderboard of a tournament
 * that keeps ratings (rating: in its file; docs/ratings.md), ranked by the
 * conservative estimate, and the proof that the stored ratings are what
 * the record's history gives: every rated match replayed in the order it
 * was applied, from newcomers' defaults, through the same rating_match,
 * must land on the stored values (to 1e-9), or the command fails. */
#include "cli.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_text.h"
#include "rating.h"
#include "tournament.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter ratings NAME [--format table|json] [--state DIR | --db CONNINFO]\n\n"
               "The ratings of tournament NAME, best first by the conservative estimate\n"
               "(openskill: mu - 3 sigma; glicko2: rating - 2 RD; elo: the rating), each with its\n"
               "games; then every rating recomputed from the record's history and compared\n"
               "with the stored one: exit 1 when any differs by more than 1e-9.\n");
}

typedef struct row {
    int entrant, games;
    const char *name, *updated;
    rated r;
    double score;
} row;

static int by_score(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return x->score > y->score ? -1 : x->score < y->score ? 1 : x->entrant - y->entrant;
}

/* Replay the history: the ratings it gives, by entrant, into got (size
 * cap, entrants past cap ignored). Returns the largest difference from the
 * stored rows, or -1 when a match cannot be replayed. */
static double recompute(const store_rows *h, int system, int model, const row *rows, int nrows, rated *got, int cap,
                        int *matches)
{
    bool *seen = calloc((size_t)cap, sizeof *seen);
    if (!seen)
        return -1;
    *matches = 0;
    double worst = 0;
    for (int i = 0; i < h->nrows;) {
        const char *mid = store_cell(h, i, STORE_HISTORY_MATCH);
        int j = i, n = 0, ent[WL_MAX_TEAMS], rank[WL_MAX_TEAMS], side[WL_MAX_TEAMS];
        rated r[WL_MAX_TEAMS];
        while (j < h->nrows && strcmp(store_cell(h, j, STORE_HISTORY_MATCH), mid) == 0 && n < WL_MAX_TEAMS) {
            int e = (int)arb_cell_int(store_cell(h, j, STORE_HISTORY_ENTRANT));
            if (e < 0 || e >= cap) {
                free(seen);
                return -1;
            }
            ent[n] = e;
            rank[n] = (int)arb_cell_int(store_cell(h, j, STORE_HISTORY_RANK));
            side[n] = (int)arb_cell_int(store_cell(h, j, STORE_HISTORY_SIDE));
            r[n] = seen[e] ? got[e] : rated_default(system, model);
            n++;
            j++;
        }
        if (rating_match(system, model, r, rank, side, n) != 0) {
            free(seen);
            return -1;
        }
        for (int k = 0; k < n; k++) {
            got[ent[k]] = r[k];
            seen[ent[k]] = true;
            /* each step against the history's own record of it, too */
            double d = fmax(fabs(r[k].mu - arb_cell_float(store_cell(h, i + k, STORE_HISTORY_MU))), fabs(r[k].sigma - arb_cell_float(store_cell(h, i + k, STORE_HISTORY_SIGMA))));
            worst = fmax(worst, d);
        }
        ++*matches;
        i = j;
    }
    for (int i = 0; i < nrows; i++) {
        int e = rows[i].entrant;
        if (e < 0 || e >= cap || !seen[e] || got[e].games != rows[i].games) {
            free(seen);
            return INFINITY;
        }
        worst = fmax(worst, fmax(fabs(got[e].mu - rows[i].r.mu), fabs(got[e].sigma - rows[i].r.sigma)));
        worst = fmax(worst, fabs(got[e].vol - rows[i].r.vol));
    }
    free(seen);
    return worst;
}

int cmd_ratings(int argc, char **argv)
{
    cli_reader rd;
    int exit_now = cli_reader_open("ratings", argc, argv, CLI_FORMATS_TJ, true, usage, &rd);
    if (exit_now >= 0)
        return exit_now;
    int status = CLI_EXIT_OK;
    int64_t tid;
    uint64_t seed;
    bool revealed;
    store_rows rr = {0}, hr = {0};
    row *rows = NULL;
    rated *got = NULL;
    char err[512];
    if (store_tournament_named(rd.st, rd.name, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: no tournament named \"%s\" in the record\n", rd.name);
        status = CLI_EXIT_NORECORD;
        goto out;
    }
    if (store_report(rd.st, STORE_REPORT_RATINGS, tid, &rr, err, sizeof err)
        || store_report(rd.st, STORE_REPORT_RATING_HISTORY, tid, &hr, err, sizeof err)) {
        fprintf(stderr, "arbiter: ratings: %s\n", err);
        status = CLI_EXIT_FAIL;
        goto out;
    }
    if (rr.nrows == 0) {
        fprintf(stderr, "arbiter: ratings: \"%s\" has no ratings (rating: in its file names none, or no match is "
                "finished yet)\n", rd.name);
        status = CLI_EXIT_FAIL;
        goto out;
    }
    tn_rating sys = TN_RATING_NONE;
    wl_model model = WL_PLACKETT_LUCE;
    tn_rating_parse(store_cell(&rr, 0, STORE_RATINGS_SYSTEM), &sys);
    if (store_cell(&rr, 0, STORE_RATINGS_MODEL)[0])
        wl_model_parse(store_cell(&rr, 0, STORE_RATINGS_MODEL), &model);
    rows = calloc((size_t)rr.nrows, sizeof *rows);
    got = calloc(ARB_TN_MAX_ENTRANTS, sizeof *got);
    if (!rows || !got) {
        status = CLI_EXIT_FAIL;
        goto out;
    }
    for (int i = 0; i < rr.nrows; i++) {
        row *w = &rows[i];
        w->entrant = (int)arb_cell_int(store_cell(&rr, i, STORE_RATINGS_ENTRANT));
        w->name = store_cell(&rr, i, STORE_RATINGS_NAME);
        w->r = (rated){arb_cell_float(store_cell(&rr, i, STORE_RATINGS_MU)), arb_cell_float(store_cell(&rr, i, STORE_RATINGS_SIGMA)), arb_cell_float(store_cell(&rr, i, STORE_RATINGS_VOL)),
                       (int)arb_cell_int(store_cell(&rr, i, STORE_RATINGS_GAMES))};
        w->games = w->r.games;
        w->updated = store_cell(&rr, i, STORE_RATINGS_UPDATED);
        w->score = rated_score((int)sys, w->r);
    }
    int matches = 0;
    double worst = recompute(&hr, (int)sys, (int)model, rows, rr.nrows, got, ARB_TN_MAX_ENTRANTS, &matches);
    qsort(rows, (size_t)rr.nrows, sizeof *rows, by_score);
    bool equal = worst >= 0 && worst <= 1e-9;
    if (rd.format == CLI_FORMAT_JSON) {
        printf("{\"system\":\"%s\",\"model\":", tn_rating_name(sys));
        if (sys == TN_RATING_OPENSKILL)
            printf("\"%s\"", wl_model_name(model));
        else
            printf("null");
        printf(",\"recomputed\":{\"matches\":%d,\"equal\":%s,\"max_difference\":%.3g},\"ratings\":[", matches,
               equal ? "true" : "false", worst < 0 || isinf(worst) ? -1.0 : worst);
        for (int i = 0; i < rr.nrows; i++) {
            printf("%s{\"rank\":%d,\"name\":", i ? "," : "", i + 1);
            cli_json_string(stdout, rows[i].name);
            printf(",\"score\":%.17g,\"mu\":%.17g,\"sigma\":%.17g,\"vol\":%.17g,\"games\":%d}", rows[i].score,
                   rows[i].r.mu, rows[i].r.sigma, rows[i].r.vol, rows[i].games);
        }
        printf("]}\n");
    } else {
        const char *m = sys == TN_RATING_OPENSKILL ? wl_model_name(model) : "";
        printf("%s ratings%s%s%s\n\n", tn_rating_name(sys), m[0] ? " (" : "", m, m[0] ? ")" : "");
        printf("%-4s %-20s %10s %10s %10s %6s  %s\n", "rank", "entrant", sys == TN_RATING_OPENSKILL ? "mu-3sigma" :
               sys == TN_RATING_GLICKO2 ? "rating-2RD" : "rating", sys == TN_RATING_GLICKO2 ? "rating" : "mu",
               sys == TN_RATING_GLICKO2 ? "RD" : "sigma", "games", "updated");
        for (int i = 0; i < rr.nrows; i++) {
            char name[256];
            printf("%-4d %-20s %10.3f %10.3f %10.3f %6d  %s\n", i + 1, arb_term(rows[i].name, name, sizeof name),
                   rows[i].score, rows[i].r.mu, rows[i].r.sigma, rows[i].games, rows[i].updated);
        }
        if (equal)
            printf("\nrecomputed from the record's history (%d matches): equal (largest difference %.3g)\n", matches,
                   worst);
    }
    if (!equal) {
        fprintf(stderr, "arbiter: ratings: recomputed from the history (%d matches), the stored ratings differ%s\n",
                matches, worst < 0 ? " (a match could not be replayed)" : isinf(worst) ? " (an entrant's games)" : "");
        status = CLI_EXIT_FAIL;
    }
out:
    free(rows);
    free(got);
    store_rows_release(&rr);
    store_rows_release(&hr);
    cli_reader_close(&rd);
    return status;
}
