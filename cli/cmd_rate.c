/* cmd_rate.c — `arbiter rate`: ratings from results read on stdin, for
 * checking arbiter's rating code against other implementations (README,
 * "Ratings"; docs/ratings.md). `--system openskill` reads one match a line
 * (`NAME:RANK` or `NAME+NAME:RANK` per team), applies Weng–Lin updates in
 * order from default ratings and prints `NAME MU SIGMA` per name, sorted
 * bytewise. `--system glicko2` and `--system elo` read games "A B S"
 * (Glicko-2 in rating periods closed by "---") and print NAME RATING RD
 * VOLATILITY, or NAME RATING. The reading, the name table and the
 * printing are here; the arithmetic is scheduler/rating_wl.c's and
 * rating_g2.c's. */
#include "cli.h"
#include "rating.h"
#include "arb_limits.h"

#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter rate --system openskill [--model plackett-luce|bradley-terry|thurstone-mosteller]\n"
               "       arbiter rate --system glicko2|elo\n\n"
               "Reads results on stdin, applies them in order from default ratings and prints\n"
               "every name's rating at the end, one a line, sorted bytewise by name.\n"
               "  --system openskill  Weng-Lin as the openskill library (version 5) computes it;\n"
               "                      a line is a match: NAME:RANK or NAME+NAME:RANK per team,\n"
               "                      separated by blanks (rank 1 is best, equal ranks tie);\n"
               "                      prints NAME MU SIGMA\n"
               "  --model M           plackett-luce (the default), bradley-terry or\n"
               "                      thurstone-mosteller (both with full pairing)\n"
               "  --system glicko2    games \"A B S\" (S = A's score: 1, 0.5 or 0); a line \"---\"\n"
               "                      closes a rating period; prints NAME RATING RD VOLATILITY\n"
               "  --system elo        the same games one by one (K = 32, \"---\" skipped);\n"
               "                      prints NAME RATING\n");
}

/* ---- the names met so far ------------------------------------------------
 * Names and ratings in the order first met; an open-addressing hash of
 * their indices finds a name in O(1), so a season of 10^5 names costs no
 * more per match than a season of ten. */

typedef struct rate_names {
    char **name;
    wl_rating *rating;
    int *seen;                  /* the last line a name played on: a name twice in a match */
    int count, cap;
    int32_t *slot;              /* index + 1, 0 empty; nslots a power of two */
    size_t nslots;
} rate_names;

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;       /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void names_release(rate_names *t)
{
    for (int i = 0; i < t->count; i++)
        free(t->name[i]);
    free(t->name);
    free(t->rating);
    free(t->seen);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static int names_rehash(rate_names *t, size_t nslots)
{
    int32_t *slot = calloc(nslots, sizeof *slot);
    if (!slot)
        return -1;
    for (int i = 0; i < t->count; i++) {
        size_t k = hash_name(t->name[i], strlen(t->name[i])) & (nslots - 1);
        while (slot[k])
            k = (k + 1) & (nslots - 1);
        slot[k] = i + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslots = nslots;
    return 0;
}

/* The index of name s[0..n), added with rating r0 when new: -1 out of
 * memory, -2 past ARB_RATE_MAX_NAMES. */
static int names_find(rate_names *t, const char *s, size_t n, wl_rating r0)
{
    if (!t->slot && names_rehash(t, 1024))
        return -1;
    size_t k = hash_name(s, n) & (t->nslots - 1);
    for (; t->slot[k]; k = (k + 1) & (t->nslots - 1)) {
        int i = t->slot[k] - 1;
        if (strncmp(t->name[i], s, n) == 0 && t->name[i][n] == '\0')
            return i;
    }
    if (t->count >= ARB_RATE_MAX_NAMES)
        return -2;
    if (t->count == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        char **name = realloc(t->name, (size_t)cap * sizeof *name);
        if (name)
            t->name = name;
        wl_rating *rating = realloc(t->rating, (size_t)cap * sizeof *rating);
        if (rating)
            t->rating = rating;
        int *seen = realloc(t->seen, (size_t)cap * sizeof *seen);
        if (seen)
            t->seen = seen;
        if (!name || !rating || !seen)
            return -1;
        t->cap = cap;
    }
    char *copy = malloc(n + 1);
    if (!copy)
        return -1;
    memcpy(copy, s, n);
    copy[n] = '\0';
    int i = t->count++;
    t->name[i] = copy;
    t->rating[i] = r0;
    t->seen[i] = 0;
    t->slot[k] = i + 1;
    /* at most half full: probes stay short */
    if ((size_t)t->count * 2 > t->nslots && names_rehash(t, t->nslots * 2))
        return -1;
    return i;
}

static int by_name(const void *a, const void *b, void *names)
{
    char *const *n = names;
    return strcmp(n[*(const int *)a], n[*(const int *)b]);   /* strcmp compares bytes as unsigned char */
}

/* The names' indices sorted bytewise by name (caller frees), or NULL out
 * of memory. */
static int *names_sorted(const rate_names *t)
{
    int *order = malloc((size_t)(t->count ? t->count : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (int i = 0; i < t->count; i++)
        order[i] = i;
    qsort_r(order, (size_t)t->count, sizeof *order, by_name, t->name);
    return order;
}

/* ---- reading matches ------------------------------------------------------ */

/* One line of at most ARB_RATE_MAX_LINE bytes into buf (NUL-terminated,
 * without "\n" or "\r\n"): its length, -1 at the end of input, -2 too
 * long, -3 a NUL byte in it. */
static long read_line(FILE *in, char *buf)
{
    long n = 0;
    int c;
    bool nul = false;
    while ((c = getc_unlocked(in)) != EOF && c != '\n') {
        if (n == ARB_RATE_MAX_LINE + 1) {   /* +1: room for a "\r" before the newline */
            while ((c = getc_unlocked(in)) != EOF && c != '\n')
                ;
            return -2;
        }
        nul = nul || c == '\0';
        buf[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return -1;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    if (n > ARB_RATE_MAX_LINE)
        return -2;
    buf[n] = '\0';
    return nul ? -3 : n;
}

/* A match as read: per team its players (indices into the names) and
 * rank, in the order of the line. */
typedef struct rate_match {
    int nteams, nplayers;
    int first[WL_MAX_TEAMS], size[WL_MAX_TEAMS], rank[WL_MAX_TEAMS];
    int player[ARB_RATE_MAX_PLAYERS];
} rate_match;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* A rank: 1..999999999 in decimal. */
static int parse_rank(const char *s, size_t n, int *out)
{
    if (n == 0 || n > 9)
        return -1;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    if (v < 1)
        return -1;
    *out = v;
    return 0;
}

/* The entries of line `lineno` into m, names looked up (and added) in t.
 * 0, or -1 after "<stdin>:LINE: what" on err. */
static int parse_match(const char *line, int lineno, rate_names *t, const wl_params *p, rate_match *m, FILE *err)
{
    m->nteams = m->nplayers = 0;
    const char *s = line;
    for (;;) {
        while (is_blank(*s))
            s++;
        if (!*s)
            break;
        const char *end = s;
        while (*end && !is_blank(*end))
            end++;
        int len = (int)(end - s);
        const char *colon = NULL;
        for (const char *c = s; c < end; c++)
            if (*c == ':')
                colon = c;
        if (!colon) {
            fprintf(err, "arbiter: rate: <stdin>:%d: \"%.*s\" has no rank (NAME:RANK, or NAME+NAME:RANK for a team)\n",
                    lineno, len, s);
            return -1;
        }
        if (m->nteams == WL_MAX_TEAMS) {
            fprintf(err, "arbiter: rate: <stdin>:%d: more than %d teams in a match\n", lineno, WL_MAX_TEAMS);
            return -1;
        }
        int rank;
        if (parse_rank(colon + 1, (size_t)(end - colon - 1), &rank)) {
            fprintf(err, "arbiter: rate: <stdin>:%d: \"%.*s\": the rank must be a whole number from 1 to 999999999\n",
                    lineno, len, s);
            return -1;
        }
        int team = m->nteams++;
        m->first[team] = m->nplayers;
        m->rank[team] = rank;
        for (const char *name = s; name <= colon;) {
            const char *stop = name;
            while (stop < colon && *stop != '+')
                stop++;
            size_t n = (size_t)(stop - name);
            if (n == 0) {
                fprintf(err, "arbiter: rate: <stdin>:%d: \"%.*s\": an empty name\n", lineno, len, s);
                return -1;
            }
            if (n > ARB_RATE_MAX_NAME) {
                fprintf(err, "arbiter: rate: <stdin>:%d: a name longer than %d bytes\n", lineno, ARB_RATE_MAX_NAME);
                return -1;
            }
            for (size_t i = 0; i < n; i++)
                if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) {
                    fprintf(err, "arbiter: rate: <stdin>:%d: a control character in a name\n", lineno);
                    return -1;
                }
            if (m->nplayers == ARB_RATE_MAX_PLAYERS) {
                fprintf(err, "arbiter: rate: <stdin>:%d: more than %d players in a match\n", lineno,
                        ARB_RATE_MAX_PLAYERS);
                return -1;
            }
            int i = names_find(t, name, n, (wl_rating){p->mu, p->sigma});
            if (i < 0) {
                if (i == -2)
                    fprintf(err, "arbiter: rate: <stdin>:%d: more than %d names\n", lineno, ARB_RATE_MAX_NAMES);
                else
                    fprintf(err, "arbiter: rate: out of memory\n");
                return -1;
            }
            if (t->seen[i] == lineno) {
                fprintf(err, "arbiter: rate: <stdin>:%d: \"%s\" plays twice in this match\n", lineno, t->name[i]);
                return -1;
            }
            t->seen[i] = lineno;
            m->player[m->nplayers++] = i;
            name = stop + 1;
        }
        m->size[team] = m->nplayers - m->first[team];
        s = end;
    }
    if (m->nteams < 2) {
        fprintf(err, "arbiter: rate: <stdin>:%d: a match needs two teams or more\n", lineno);
        return -1;
    }
    return 0;
}

int rate_openskill(wl_model model, FILE *in, FILE *out, FILE *err)
{
    wl_params p;
    wl_defaults(&p, model);
    rate_names t = {0};
    char *line = malloc(ARB_RATE_MAX_LINE + 2);
    int *order = NULL;
    int rc = CLI_EXIT_FAIL;
    if (!line) {
        fprintf(err, "arbiter: rate: out of memory\n");
        goto out;
    }
    rate_match m;
    wl_rating r[ARB_RATE_MAX_PLAYERS];
    long n;
    for (int lineno = 1; (n = read_line(in, line)) != -1; lineno++) {
        if (n == -2) {
            fprintf(err, "arbiter: rate: <stdin>:%d: a line longer than %d bytes\n", lineno, ARB_RATE_MAX_LINE);
            goto out;
        }
        if (n == -3) {
            fprintf(err, "arbiter: rate: <stdin>:%d: a NUL byte\n", lineno);
            goto out;
        }
        if (strspn(line, " \t") == (size_t)n)
            continue;           /* a blank line is no match */
        if (parse_match(line, lineno, &t, &p, &m, err))
            goto out;
        for (int i = 0; i < m.nplayers; i++)
            r[i] = t.rating[m.player[i]];
        if (wl_rate(&p, r, m.first, m.size, m.rank, m.nteams) != 0) {
            fprintf(err, "arbiter: rate: <stdin>:%d: this match cannot be rated\n", lineno);
            goto out;
        }
        for (int i = 0; i < m.nplayers; i++)
            t.rating[m.player[i]] = r[i];
    }
    if (ferror(in)) {
        fprintf(err, "arbiter: rate: <stdin>: read error\n");
        goto out;
    }
    if (!(order = names_sorted(&t))) {
        fprintf(err, "arbiter: rate: out of memory\n");
        goto out;
    }
    for (int i = 0; i < t.count; i++)
        fprintf(out, "%s %.15g %.15g\n", t.name[order[i]], t.rating[order[i]].mu, t.rating[order[i]].sigma);
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(err, "arbiter: rate: cannot write the ratings: %s\n", strerror(errno));
        goto out;
    }
    rc = CLI_EXIT_OK;
out:
    free(order);
    free(line);
    names_release(&t);
    return rc;
}

/* ---- Glicko-2 and Elo: games "A B S" ------------------------------------- */

/* A game "A B S" of line (its own copy, cut by strtok_r) into names and
 * A's score; false with the message on err. */
static bool parse_game(char *line, int lineno, rate_names *t, int *a, int *b, double *score, FILE *err)
{
    char *save, *w[4];
    int n = 0;
    for (char *x = strtok_r(line, " \t", &save); x; x = strtok_r(NULL, " \t", &save))
        if (n < 4)
            w[n++] = x;
        else
            n = 5;
    if (n != 3) {
        fprintf(err, "arbiter: rate: <stdin>:%d: expected a game \"A B S\" (S = A's score: 1, 0.5 or 0) or \"---\"\n",
                lineno);
        return false;
    }
    static const struct { const char *text; double v; } scores[] = {
        {"1", 1}, {"1.0", 1}, {"0.5", 0.5}, {".5", 0.5}, {"0", 0}, {"0.0", 0}};
    bool ok = false;
    for (size_t i = 0; i < sizeof scores / sizeof *scores && !ok; i++)
        if (strcmp(w[2], scores[i].text) == 0) {
            *score = scores[i].v;
            ok = true;
        }
    if (!ok) {
        fprintf(err, "arbiter: rate: <stdin>:%d: score \"%.40s\": expected 1, 0.5 or 0\n", lineno, w[2]);
        return false;
    }
    for (int i = 0; i < 2; i++)
        if (strlen(w[i]) > ARB_RATE_MAX_NAME) {
            fprintf(err, "arbiter: rate: <stdin>:%d: a name longer than %d bytes\n", lineno, ARB_RATE_MAX_NAME);
            return false;
        }
    if (strcmp(w[0], w[1]) == 0) {
        fprintf(err, "arbiter: rate: <stdin>:%d: %.64s against itself\n", lineno, w[0]);
        return false;
    }
    int ia = names_find(t, w[0], strlen(w[0]), (wl_rating){0, 0});
    int ib = ia < 0 ? ia : names_find(t, w[1], strlen(w[1]), (wl_rating){0, 0});
    if (ia < 0 || ib < 0) {
        if (ia == -2 || ib == -2)
            fprintf(err, "arbiter: rate: <stdin>:%d: more than %d names\n", lineno, ARB_RATE_MAX_NAMES);
        else
            fprintf(err, "arbiter: rate: <stdin>:%d: out of memory\n", lineno);
        return false;
    }
    *a = ia;
    *b = ib;
    return true;
}

/* Ratings by name index beside the names table, and the games of the
 * rating period being read. */
typedef struct pair_state {
    g2_params gp;
    g2_rating *g2;
    bool *has_played;            /* Glicko-2: has played, so is rated from then on */
    double *elo;
    int cap;
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
    bool *has_played = realloc(st->has_played, (size_t)cap * sizeof *has_played);
    if (has_played)
        st->has_played = has_played;
    double *elo = realloc(st->elo, (size_t)cap * sizeof *elo);
    if (elo)
        st->elo = elo;
    if (!g2 || !has_played || !elo)
        return -1;
    for (int i = st->cap; i < cap; i++) {
        st->g2[i] = (g2_rating){st->gp.rating, st->gp.rd, st->gp.vol};
        st->has_played[i] = false;
        st->elo[i] = 1500;
    }
    st->cap = cap;
    return 0;
}

static int add_game(pair_state *st, int a, int b, double s)
{
    if (st->ngames == st->gcap) {
        int cap = st->gcap ? 2 * st->gcap : 1024;
        int *ga = realloc(st->ga, (size_t)cap * sizeof *ga);
        if (ga)
            st->ga = ga;
        int *gb = realloc(st->gb, (size_t)cap * sizeof *gb);
        if (gb)
            st->gb = gb;
        double *gs = realloc(st->gs, (size_t)cap * sizeof *gs);
        if (gs)
            st->gs = gs;
        if (!ga || !gb || !gs)
            return -1;
        st->gcap = cap;
    }
    st->ga[st->ngames] = a;
    st->gb[st->ngames] = b;
    st->gs[st->ngames++] = s;
    st->has_played[a] = st->has_played[b] = true;
    return 0;
}

/* Close a Glicko-2 rating period: every player rated so far updated from
 * the ratings before it (each one's games grouped by a counting sort). */
static int close_period(pair_state *st, int n)
{
    g2_rating *before = malloc((size_t)(n ? n : 1) * sizeof *before);
    int *count = calloc((size_t)(n ? n : 1), sizeof *count), *first = calloc((size_t)n + 1, sizeof *first);
    g2_game *games = malloc((size_t)(2 * st->ngames + 1) * sizeof *games);
    int rc = -1;
    if (!before || !count || !first || !games)
        goto out;
    memcpy(before, st->g2, (size_t)n * sizeof *before);
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
        if (st->has_played[p])
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

/* `--system glicko2` (glicko true) or `--system elo`: games "A B S"; for
 * Glicko-2 "---" closes a rating period (the end of input closes the
 * last, a trailing "---" adds none, "---" after "---" is an empty
 * period); Elo applies the games one by one and skips "---". */
int rate_pairs(bool glicko, FILE *in, FILE *out, FILE *err)
{
    rate_names t = {0};
    pair_state st = {0};
    g2_defaults(&st.gp);
    char *line = malloc(ARB_RATE_MAX_LINE + 2);
    int *order = NULL, rc = CLI_EXIT_FAIL;
    bool open_period = false;   /* a game since the last "---" */
    if (!line) {
        fprintf(err, "arbiter: rate: out of memory\n");
        goto out;
    }
    long n;
    for (int lineno = 1; (n = read_line(in, line)) != -1; lineno++) {
        if (n == -2 || n == -3) {
            fprintf(err, n == -2 ? "arbiter: rate: <stdin>:%d: a line longer than %d bytes\n"
                                 : "arbiter: rate: <stdin>:%d: a NUL byte\n", lineno, ARB_RATE_MAX_LINE);
            goto out;
        }
        char *w = line + strspn(line, " \t");
        if (!*w)
            continue;
        if (strncmp(w, "---", 3) == 0 && !w[3 + strspn(w + 3, " \t")]) {
            if (glicko && close_period(&st, t.count)) {
                fprintf(err, "arbiter: rate: out of memory\n");
                goto out;
            }
            open_period = false;
            continue;
        }
        int a, b;
        double s;
        if (!parse_game(w, lineno, &t, &a, &b, &s, err))
            goto out;
        if (grow_players(&st, t.count) || (glicko && add_game(&st, a, b, s))) {
            fprintf(err, "arbiter: rate: out of memory\n");
            goto out;
        }
        if (!glicko)
            elo_update(&st.elo[a], &st.elo[b], s, 32);
        open_period = glicko;
    }
    if (open_period && close_period(&st, t.count)) {
        fprintf(err, "arbiter: rate: out of memory\n");
        goto out;
    }
    if (!(order = names_sorted(&t))) {
        fprintf(err, "arbiter: rate: out of memory\n");
        goto out;
    }
    for (int i = 0; i < t.count; i++) {
        int p = order[i];
        if (glicko)
            fprintf(out, "%s %.17g %.17g %.17g\n", t.name[p], st.g2[p].rating, st.g2[p].rd, st.g2[p].vol);
        else
            fprintf(out, "%s %.17g\n", t.name[p], st.elo[p]);
    }
    rc = fflush(out) == 0 && !ferror(out) ? CLI_EXIT_OK : CLI_EXIT_FAIL;
out:
    free(order);
    free(line);
    names_release(&t);
    free(st.g2);
    free(st.has_played);
    free(st.elo);
    free(st.ga);
    free(st.gb);
    free(st.gs);
    return rc;
}

int cmd_rate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"system", required_argument, NULL, 's'},
        {"model", required_argument, NULL, 'm'},
        {NULL, 0, NULL, 0},
    };
    const char *system = NULL, *model_name = NULL;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("rate", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': system = optarg; break;
        case 'm': model_name = optarg; break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "arbiter: rate: unexpected \"%s\" (the results come on stdin)\n", argv[optind]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!system) {
        fprintf(stderr, "arbiter: rate: --system is required\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    bool glicko = strcmp(system, "glicko2") == 0, elo = strcmp(system, "elo") == 0;
    if (strcmp(system, "openskill") != 0 && !glicko && !elo) {
        fprintf(stderr, "arbiter: rate: unknown system \"%s\" (openskill, glicko2, elo)\n", system);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if ((glicko || elo) && model_name) {
        fprintf(stderr, "arbiter: rate: --model is openskill's\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (glicko || elo)
        return rate_pairs(glicko, stdin, stdout, stderr);
    wl_model model = WL_PLACKETT_LUCE;
    if (model_name && wl_model_parse(model_name, &model) != 0) {
        fprintf(stderr, "arbiter: rate: unknown model \"%s\" (plackett-luce, bradley-terry, thurstone-mosteller)\n",
                model_name);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return rate_openskill(model, stdin, stdout, stderr);
}
