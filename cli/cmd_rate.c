/* cmd_rate.c — `arbiter rate`: the rating systems (scheduler/rating.h) on
 * the command line, so that anyone can check them against the libraries
 * they know (docs/ratings.md). Input on stdin, one record a line; the
 * ratings of every name at the end, sorted bytewise by name.
 *
 *   --system glicko2   games "A B S" (S = A's score: 1, 0.5 or 0); a line
 *                      "---" closes a rating period (the end of input closes
 *                      the last; a trailing "---" adds none; "---" after
 *                      "---" is an empty period); prints NAME RATING RD VOL
 *   --system elo       the same games, one by one (K = 32), "---" skipped;
 *                      prints NAME RATING
 * Blank lines are skipped. A bad line stops the command with
 * "<stdin>:LINE: what" (exit 1). */
#include "cli.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "rating.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names: an open-addressing table, indices in order of first sight ---- */

typedef struct rate_names {
    char **name;                 /* by index */
    int n, cap;
    int *slot;                   /* hash slots: index + 1, 0 empty */
    size_t nslots;
} rate_names;

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The index of name, added when new: >= 0, or -1 out of memory or past
 * ARB_RATE_MAX_NAMES. */
static int rate_name(rate_names *t, const char *name)
{
    if ((size_t)(t->n + 1) * 2 > t->nslots) {
        size_t ns = t->nslots ? 2 * t->nslots : 1024;
        int *slot = calloc(ns, sizeof *slot);
        if (!slot)
            return -1;
        for (int i = 0; i < t->n; i++) {
            size_t h = name_hash(t->name[i]) & (ns - 1);
            while (slot[h])
                h = (h + 1) & (ns - 1);
            slot[h] = i + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslots = ns;
    }
    size_t h = name_hash(name) & (t->nslots - 1);
    while (t->slot[h]) {
        if (strcmp(t->name[t->slot[h] - 1], name) == 0)
            return t->slot[h] - 1;
        h = (h + 1) & (t->nslots - 1);
    }
    if (t->n >= ARB_RATE_MAX_NAMES)
        return -1;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        char **nn = realloc(t->name, (size_t)cap * sizeof *nn);
        if (!nn)
            return -1;
        t->name = nn;
        t->cap = cap;
    }
    if (!(t->name[t->n] = strdup(name)))
        return -1;
    t->slot[h] = t->n + 1;
    return t->n++;
}

static void rate_names_free(rate_names *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->name[i]);
    free(t->name);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static const rate_names *sort_names;
static int by_name(const void *a, const void *b)
{
    return strcmp(sort_names->name[*(const int *)a], sort_names->name[*(const int *)b]);
}

/* The indices of the names sorted bytewise (strcmp compares as unsigned
 * char): caller frees. */
static int *sorted(const rate_names *t)
{
    int *order = malloc((size_t)(t->n ? t->n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (int i = 0; i < t->n; i++)
        order[i] = i;
    sort_names = t;
    qsort(order, (size_t)t->n, sizeof *order, by_name);
    return order;
}

/* ---- input lines ------------------------------------------------------- */

/* The next line of stdin without its newline into buf: 1, 0 at the end,
 * -1 for a line longer than ARB_RATE_MAX_LINE (err says so). */
static int next_line(char *buf, size_t cap, long *lineno, char *err, size_t errlen)
{
    if (!fgets(buf, (int)cap, stdin))
        return 0;
    ++*lineno;
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n')
        buf[--n] = 0;
    else if (!feof(stdin)) {
        snprintf(err, errlen, "<stdin>:%ld: a line longer than %d bytes", *lineno, ARB_RATE_MAX_LINE);
        return -1;
    }
    if (n && buf[n - 1] == '\r')
        buf[--n] = 0;
    return 1;
}

static bool blank(const char *s)
{
    return s[strspn(s, " \t")] == 0;
}

/* A game "A B S" into names a, b and the score; false with err. */
static bool parse_game(char *line, long lineno, char **a, char **b, double *score, char *err, size_t errlen)
{
    char *save, *t[4];
    int n = 0;
    for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (n < 4)
            t[n++] = w;
        else
            n = 5;
    if (n != 3) {
        snprintf(err, errlen, "<stdin>:%ld: expected a game \"A B S\" (S = A's score: 1, 0.5 or 0) or \"---\"", lineno);
        return false;
    }
    if (strcmp(t[2], "1") == 0 || strcmp(t[2], "1.0") == 0)
        *score = 1;
    else if (strcmp(t[2], "0.5") == 0 || strcmp(t[2], ".5") == 0)
        *score = 0.5;
    else if (strcmp(t[2], "0") == 0 || strcmp(t[2], "0.0") == 0)
        *score = 0;
    else {
        snprintf(err, errlen, "<stdin>:%ld: score \"%.40s\": expected 1, 0.5 or 0", lineno, t[2]);
        return false;
    }
    for (int i = 0; i < 2; i++)
        if (strlen(t[i]) > ARB_RATE_MAX_NAME) {
            snprintf(err, errlen, "<stdin>:%ld: a name longer than %d bytes", lineno, ARB_RATE_MAX_NAME);
            return false;
        }
    if (strcmp(t[0], t[1]) == 0) {
        snprintf(err, errlen, "<stdin>:%ld: %.64s against itself", lineno, t[0]);
        return false;
    }
    *a = t[0];
    *b = t[1];
    return true;
}

/* ---- Glicko-2 and Elo -------------------------------------------------- */

typedef struct pair_state {
    rate_names names;
    g2_params gp;
    g2_rating *g2;               /* by name index: its rating now */
    bool *exists;                /* Glicko-2: has played (rated from then on) */
    double *elo;
    int cap;
    /* the period being read */
    int *ga, *gb;
    double *gs;
    int ngames, gcap;
} pair_state;

static int grow_players(pair_state *st, int need)
{
    if (need <= st->cap)
        return 0;
    int cap = st->cap ? st->cap : 256;
    while (cap < need)
        cap *= 2;
    g2_rating *g2 = realloc(st->g2, (size_t)cap * sizeof *g2);
    if (g2)
        st->g2 = g2;
    bool *ex = realloc(st->exists, (size_t)cap * sizeof *ex);
    if (ex)
        st->exists = ex;
    double *elo = realloc(st->elo, (size_t)cap * sizeof *elo);
    if (elo)
        st->elo = elo;
    if (!g2 || !ex || !elo)
        return -1;
    for (int i = st->cap; i < cap; i++) {
        st->g2[i] = (g2_rating){st->gp.rating, st->gp.rd, st->gp.vol};
        st->exists[i] = false;
        st->elo[i] = 1500;
    }
    st->cap = cap;
    return 0;
}

/* Close a Glicko-2 rating period: every player who has played (this
 * period or before) updated from the ratings before it. */
static int close_period(pair_state *st)
{
    int n = st->names.n;
    g2_rating *before = malloc((size_t)(n ? n : 1) * sizeof *before);
    int *count = calloc((size_t)(n ? n : 1), sizeof *count), *first = calloc((size_t)(n + 1), sizeof *first);
    g2_game *games = malloc((size_t)(2 * st->ngames + 1) * sizeof *games);
    int rc = -1;
    if (!before || !count || !first || !games)
        goto out;
    memcpy(before, st->g2, (size_t)n * sizeof *before);
    /* each player's games, grouped (counting sort by player) */
    for (int i = 0; i < st->ngames; i++) {
        count[st->ga[i]]++;
        count[st->gb[i]]++;
    }
    for (int p = 0; p < n; p++)
        first[p + 1] = first[p] + count[p];
    memset(count, 0, (size_t)n * sizeof *count);
    for (int i = 0; i < st->ngames; i++) {
        games[first[st->ga[i]] + count[st->ga[i]]++] = (g2_game){st->gb[i], st->gs[i]};
        games[first[st->gb[i]] + count[st->gb[i]]++] = (g2_game){st->ga[i], 1 - st->gs[i]};
    }
    for (int p = 0; p < n; p++)
        if (st->exists[p])
            g2_update(&st->gp, before[p], before, games + first[p], count[p], &st->g2[p]);
    st->ngames = 0;
    rc = 0;
out:
    free(before);
    free(count);
    free(first);
    free(games);
    return rc;
}

static int rate_pairs(bool glicko, char *err, size_t errlen)
{
    pair_state st = {0};
    g2_defaults(&st.gp);
    static char line[ARB_RATE_MAX_LINE + 2];
    long lineno = 0;
    int rc = 0, got;
    bool period_open = false;   /* something (a game, or nothing) since the last "---" */
    while ((got = next_line(line, sizeof line, &lineno, err, errlen)) == 1) {
        if (blank(line))
            continue;
        char *w = line + strspn(line, " \t");
        if (strncmp(w, "---", 3) == 0 && blank(w + 3)) {
            if (glicko && close_period(&st)) {
                rc = ARB_ENOMEM;
                break;
            }
            period_open = false;
            continue;
        }
        char *a, *b;
        double s;
        if (!parse_game(w, lineno, &a, &b, &s, err, errlen)) {
            rc = ARB_EINVAL;
            break;
        }
        int ia = rate_name(&st.names, a), ib = ia < 0 ? -1 : rate_name(&st.names, b);
        if (ia < 0 || ib < 0 || grow_players(&st, st.names.n)) {
            snprintf(err, errlen, "<stdin>:%ld: out of memory, or more than %d names", lineno, ARB_RATE_MAX_NAMES);
            rc = ARB_ENOMEM;
            break;
        }
        if (!glicko) {
            elo_update(&st.elo[ia], &st.elo[ib], s, 32);
            continue;
        }
        st.exists[ia] = st.exists[ib] = true;
        if (st.ngames == st.gcap) {
            int cap = st.gcap ? 2 * st.gcap : 1024;
            int *ga = realloc(st.ga, (size_t)cap * sizeof *ga);
            if (ga)
                st.ga = ga;
            int *gb = realloc(st.gb, (size_t)cap * sizeof *gb);
            if (gb)
                st.gb = gb;
            double *gs = realloc(st.gs, (size_t)cap * sizeof *gs);
            if (gs)
                st.gs = gs;
            if (!ga || !gb || !gs) {
                rc = ARB_ENOMEM;
                break;
            }
            st.gcap = cap;
        }
        st.ga[st.ngames] = ia;
        st.gb[st.ngames] = ib;
        st.gs[st.ngames++] = s;
        period_open = true;
    }
    if (got < 0)
        rc = ARB_EINVAL;
    if (!rc && glicko && period_open && close_period(&st))
        rc = ARB_ENOMEM;
    if (!rc) {
        int *order = sorted(&st.names);
        if (!order)
            rc = ARB_ENOMEM;
        for (int i = 0; order && i < st.names.n; i++) {
            int p = order[i];
            if (glicko)
                printf("%s %.17g %.17g %.17g\n", st.names.name[p], st.g2[p].rating, st.g2[p].rd, st.g2[p].vol);
            else
                printf("%s %.17g\n", st.names.name[p], st.elo[p]);
        }
        free(order);
    }
    if (rc == ARB_ENOMEM && !err[0])
        snprintf(err, errlen, "out of memory");
    rate_names_free(&st.names);
    free(st.g2);
    free(st.exists);
    free(st.elo);
    free(st.ga);
    free(st.gb);
    free(st.gs);
    return rc;
}

/* ---- the command ------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter rate --system glicko2|elo < GAMES\n\n"
               "Rates players from results read on stdin and prints every name's rating,\n"
               "sorted bytewise by name (docs/ratings.md):\n"
               "  --system glicko2  games \"A B S\" (S = A's score: 1, 0.5 or 0); \"---\" closes a\n"
               "                    rating period; prints NAME RATING RD VOLATILITY\n"
               "  --system elo      the same games one by one (K = 32; \"---\" is skipped);\n"
               "                    prints NAME RATING\n");
}

int cmd_rate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"system", required_argument, NULL, 's'},
        {NULL, 0, NULL, 0},
    };
    const char *system = NULL;
    bool help = false, bad = false;
    int c;
    cli_opts_begin();
    while (!bad && (c = cli_getopt("rate", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': help = true; break;
        case 's': system = optarg; break;
        default: bad = true; break;
        }
    }
    if (help) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (!bad && optind < argc) {
        fprintf(stderr, "arbiter: rate: unexpected \"%s\" (the results come on stdin)\n", argv[optind]);
        bad = true;
    }
    bool glicko = system && strcmp(system, "glicko2") == 0, elo = system && strcmp(system, "elo") == 0;
    if (!bad && !glicko && !elo) {
        fprintf(stderr, "arbiter: rate: --system %s: expected glicko2 or elo\n", system ? system : "(missing)");
        bad = true;
    }
    if (bad) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    char err[512] = "";
    int rc = rate_pairs(glicko, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: rate: %s\n", err[0] ? err : arb_strerror(rc));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}
