/* cmd_eval.c — `arbiter eval`: two agents A and B compared over a fixed set
 * of deals, each deal played in both roles (DouZero's protocol for Dou
 * Dizhu: A as landlord against B, B then B as landlord against A, A; for a
 * partnership game each team in both pairs of seats), with win
 * percentages, average score differences, an Elo difference and an
 * optional SPRT; deal sets exported and imported as JSON lines
 * (docs/evaluation.md). */
#include "cli.h"
#include "game_cli.h"
#include "eval_stats.h"
#include "arb_text.h"
#include "live.h"
#include "match.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_kdf.h"
#include "arb_seeds.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "transcript_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A line of a deal-set file: a deal's 162 ids at most, its hands and kitty. */
#define EVAL_MAX_LINE 8192

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter eval --bot A=CMD --bot B=CMD (--seed S --deals N | --deals-file FILE) [options]\n"
        "       arbiter eval --export-deals FILE --seed S --deals N [--game G] [--rules P] [--set k=v]\n"
        "\n"
        "Compares two agents over a fixed set of deals, each deal played in both\n"
        "roles: in a game of two fixed teams of two, each deal a match of its own at\n"
        "two tables, A's team in seats 0+2, then in seats 1+3; in another game, the\n"
        "roles its command-line module fixes (Dou Dizhu: DouZero's protocol, no\n"
        "bidding, the landlord in seat 0 takes the kitty): A in seat 0 against B in\n"
        "every other seat, then B against A. Reports per role the win\n"
        "percentage (WP, Wilson 95%% interval) and the average points per deal (ADP,\n"
        "Student's t 95%% interval), the Elo difference of A over B with its\n"
        "interval, and with --sprt a sequential test that may stop early.\n"
        "docs/evaluation.md defines every figure and the deal-set format.\n"
        "\n"
        "  --bot NAME=CMD         twice: agent A, then agent B\n"
        "  --game NAME            the game (default " CLI_DEFAULT_GAME "; a deals file names its own)\n"
        "  --rules PRESET         the preset (default: the one the game's module names for\n"
        "                         eval, douzero for Dou Dizhu, else the game's default)\n"
        "  --set k=v,...          rule options\n"
        "  --seed S               the deal set: deal i has seed child(S, \"eval/i\") (default 1)\n"
        "  --deals N              deals in the set (default 100)\n"
        "  --deals-file FILE      play the deals of a deal set (JSON lines) instead\n"
        "  --export-deals FILE    write the set --seed and --deals make as JSON lines, and exit\n"
        "  --sprt E0,E1,A,B       stop when the SPRT of H0 elo=E0 against H1 elo=E1\n"
        "                         (logistic Elo over deal pairs, fishtest's GSPRT, error\n"
        "                         rates alpha A, beta B) decides; never before %d pairs\n"
        "  --batch N              deals per pair of matches (roles fixed by the game;\n"
        "                         default 25)\n"
        "  --bot-seed N           the bots' seeds' source (default 1)\n"
        "  --format table|json|csv  the summary (table, default), everything as one\n"
        "                         JSON object, or the per-deal rows as CSV\n"
        "  --output-json FILE     also write the JSON object to FILE\n"
        "  --output-csv FILE      also write the per-deal rows to FILE\n"
        "  --move-ms N, --deal-ms N, --bank-ms N, --startup-ms N   clocks (as arbiter match)\n"
        "  --sandbox MODE         auto | bwrap | none (default auto)\n"
        "  --keep DIR             keep each match's transcript (DIR/deal-N-ROLE.tr, for\n"
        "                         arbiter replay) and its bots' stderr (.stderr) in DIR\n"
        "  --quiet                no per-penalty lines\n", ARB_EVAL_MIN_PAIRS);
}

/* ---- The deal set --------------------------------------------------------- */

typedef struct eval_deal {
    uint64_t seed;
    uint16_t ncards;                 /* 0: dealt from the seed alone */
    uint8_t  order[ARB_MAX_DECK];
} eval_deal;

typedef struct eval_set {
    eval_deal *deals;
    size_t n;
    char game[32], preset[32];       /* from a file ("" when it names none) */
} eval_set;

static void set_free(eval_set *s) { free(s->deals); s->deals = NULL; }

/* A deal's seed in a set made from seed S: child(S, "eval/i"). */
static uint64_t set_seed(uint64_t s, size_t i) { return arb_seeds_eval_deal(s, i); }

static int set_from_seed(eval_set *s, uint64_t seed, size_t n)
{
    memset(s, 0, sizeof *s);
    s->deals = calloc(n, sizeof *s->deals);
    if (!s->deals)
        return ARB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        s->deals[i].seed = set_seed(seed, i);
    s->n = n;
    return 0;
}

/* Where "KEY": starts in a line, just after the colon and blanks; NULL if absent. */
static const char *json_key(const char *line, const char *key)
{
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(line, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != ':')
        return NULL;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A string value (no escapes: names and card text) into out. */
static int json_str(const char *line, const char *key, char *out, size_t cap)
{
    const char *p = json_key(line, key);
    if (!p)
        return 1;
    if (*p != '"')
        return -1;
    const char *e = strchr(p + 1, '"');
    if (!e || (size_t)(e - p - 1) >= cap || memchr(p + 1, '\\', (size_t)(e - p - 1)))
        return -1;
    snprintf(out, cap, "%.*s", (int)(e - p - 1), p + 1);
    return 0;
}

/* The idx-th string of an array value. */
static int json_str_at(const char *line, const char *key, int idx, char *out, size_t cap)
{
    const char *p = json_key(line, key);
    if (!p)
        return 1;
    if (*p != '[')
        return -1;
    p++;
    for (int i = 0;; i++) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p != '"')
            return -1;
        const char *e = strchr(p + 1, '"');
        if (!e)
            return -1;
        if (i == idx) {
            if ((size_t)(e - p - 1) >= cap)
                return -1;
            snprintf(out, cap, "%.*s", (int)(e - p - 1), p + 1);
            return 0;
        }
        p = e + 1;
    }
}

/* Read a deal set: one JSON object a line (docs/evaluation.md). */
static int set_from_file(eval_set *s, const char *path)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arbiter: eval: --deals-file %s: %s\n", path, strerror(errno));
        return -1;
    }
    char *line = malloc(EVAL_MAX_LINE + 2);
    size_t cap = 0;
    int rc = -1;
    unsigned lineno = 0;
    if (!line)
        goto out;
    while (fgets(line, EVAL_MAX_LINE + 2, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len > EVAL_MAX_LINE) {
            fprintf(stderr, "arbiter: eval: %s:%u: line longer than %d bytes\n", path, lineno, EVAL_MAX_LINE);
            goto out;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = 0;
        if (len == 0)
            continue;
        if (line[0] != '{') {
            fprintf(stderr, "arbiter: eval: %s:%u: expected a JSON object\n", path, lineno);
            goto out;
        }
        if (s->n >= ARB_MAX_DEALS) {
            fprintf(stderr, "arbiter: eval: %s:%u: more than %d deals\n", path, lineno, ARB_MAX_DEALS);
            goto out;
        }
        if (s->n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            eval_deal *d = realloc(s->deals, ncap * sizeof *d);
            if (!d)
                goto out;
            s->deals = d;
            cap = ncap;
        }
        eval_deal *d = &s->deals[s->n];
        memset(d, 0, sizeof *d);
        char game[32] = "", preset[32] = "";
        if (json_str(line, "game", game, sizeof game) < 0 || json_str(line, "rules", preset, sizeof preset) < 0) {
            fprintf(stderr, "arbiter: eval: %s:%u: \"game\" and \"rules\" are short strings\n", path, lineno);
            goto out;
        }
        if ((s->n && (strcmp(game, s->game) || strcmp(preset, s->preset)))) {
            fprintf(stderr, "arbiter: eval: %s:%u: game %s/%s differs from the first line's %s/%s\n", path, lineno,
                    game, preset, s->game, s->preset);
            goto out;
        }
        snprintf(s->game, sizeof s->game, "%s", game);
        snprintf(s->preset, sizeof s->preset, "%s", preset);
        const char *p = json_key(line, "seed");
        char *end;
        errno = 0;
        d->seed = p ? strtoull(p, &end, 10) : 0;
        if (!p || errno || end == p || *p == '-') {
            fprintf(stderr, "arbiter: eval: %s:%u: \"seed\": expected an unsigned integer\n", path, lineno);
            goto out;
        }
        p = json_key(line, "order");
        if (p) {
            if (*p != '[') {
                fprintf(stderr, "arbiter: eval: %s:%u: \"order\": expected an array of card ids\n", path, lineno);
                goto out;
            }
            p++;
            for (;;) {
                while (*p == ' ')
                    p++;
                if (*p == ']')
                    break;
                errno = 0;
                unsigned long v = strtoul(p, &end, 10);
                if (errno || end == p || v > 255 || d->ncards >= ARB_MAX_DECK) {
                    fprintf(stderr, "arbiter: eval: %s:%u: \"order\": card id %u is not a number 0..255, or "
                                    "more than %d of them\n", path, lineno, d->ncards + 1u, ARB_MAX_DECK);
                    goto out;
                }
                d->order[d->ncards++] = (uint8_t)v;
                p = end;
                while (*p == ' ')
                    p++;
                if (*p == ',')
                    p++;
                else if (*p != ']') {
                    fprintf(stderr, "arbiter: eval: %s:%u: \"order\": expected , or ]\n", path, lineno);
                    goto out;
                }
            }
        }
        s->n++;
        /* The line is kept for the check against the cards dealt: see set_check. */
    }
    if (ferror(f)) {
        fprintf(stderr, "arbiter: eval: %s: %s\n", path, strerror(errno));
        goto out;
    }
    if (s->n == 0) {
        fprintf(stderr, "arbiter: eval: %s: no deals\n", path);
        goto out;
    }
    rc = 0;
out:
    free(line);
    fclose(f);
    if (rc)
        set_free(s);
    return rc;
}

/* Deal entry d of a set into state. */
static int deal_entry(const arb_game *g, const eval_deal *d, void *state, const void *rules)
{
    if (d->ncards == 0)
        return g->deal(state, rules, d->seed);
    if (!g->deal_ordered)
        return ARB_EUNSUPPORTED;
    return g->deal_ordered(state, rules, d->seed, d->order, d->ncards);
}

/* A deal's cards as the deal set's text: hands and kitty (format_cards). */
static int deal_text(const arb_game *g, const arb_deal_cards *c, char hands[ARB_MAX_SEATS][512], char kitty[512])
{
    for (int s = 0; s < c->nseats; s++)
        if (g->format_cards(c->hand[s], hands[s], 512) < 0)
            return -1;
    return g->format_cards(c->kitty, kitty, 512) < 0 ? -1 : 0;
}

/* Every deal of a file dealt once under the rules: an order that is not a
 * shuffle of the game's cards, or hands and kitty that are not what the
 * order deals, are refused with the line's number. */
static int set_check(const arb_game *g, const eval_set *s, const void *rules, const char *path)
{
    void *state = calloc(1, g->state_size);
    char *line = malloc(EVAL_MAX_LINE + 2);
    FILE *f = path ? fopen(path, "r") : NULL;
    int rc = -1;
    size_t i = 0;
    unsigned lineno = 0;
    if (!state || !line || (path && !f))
        goto out;
    while (i < s->n && (!f || fgets(line, EVAL_MAX_LINE + 2, f))) {
        lineno++;
        if (f && strspn(line, " \r\n") == strlen(line))
            continue;
        int r = deal_entry(g, &s->deals[i], state, rules);
        if (r) {
            fprintf(stderr, "arbiter: eval: %s:%u: the deal cannot be dealt: %s\n", path ? path : "-", lineno,
                    r == ARB_EINVAL ? "\"order\" is not a shuffle of the game's cards" : arb_strerror(r));
            goto out;
        }
        if (f && g->deal_cards) {
            arb_deal_cards c;
            char hands[ARB_MAX_SEATS][512], kitty[512], want[512];
            if (g->deal_cards(state, &c) || deal_text(g, &c, hands, kitty))
                goto out;
            for (int k = 0; k < c.nseats; k++) {
                int got = json_str_at(line, "hands", k, want, sizeof want);
                if (got < 0 || (got == 0 && strcmp(want, hands[k]))) {
                    fprintf(stderr, "arbiter: eval: %s:%u: hand %d is %s in the file, the deal gives %s\n", path,
                            lineno, k, got < 0 ? "unreadable" : want, hands[k]);
                    goto out;
                }
            }
            int got = json_str(line, "kitty", want, sizeof want);
            if (got < 0 || (got == 0 && strcmp(want, kitty))) {
                fprintf(stderr, "arbiter: eval: %s:%u: the kitty is %s in the file, the deal gives %s\n", path, lineno,
                        got < 0 ? "unreadable" : want, kitty);
                goto out;
            }
        }
        i++;
    }
    rc = i == s->n ? 0 : -1;
out:
    if (f)
        fclose(f);
    free(line);
    free(state);
    return rc;
}

static int export_deals(const arb_game *g, const char *preset, const void *rules, uint64_t seed, size_t n,
                        const char *path)
{
    if (!g->deal_cards) {
        fprintf(stderr, "arbiter: eval: %s cannot export its deals (no deal_cards)\n", g->name);
        return CLI_EXIT_UNSUPPORTED;
    }
    arb_out file = {.fd = -1, .dirfd = -1};
    char err[1300];
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : arb_out_fopen(&file, path, 0644, err, sizeof err);
    if (!f) {
        fprintf(stderr, "arbiter: eval: --export-deals %s\n", err);
        return CLI_EXIT_USAGE;
    }
    void *state = calloc(1, g->state_size);
    int status = CLI_EXIT_FAIL;
    if (!state)
        goto out;
    for (size_t i = 0; i < n; i++) {
        arb_deal_cards c;
        char hands[ARB_MAX_SEATS][512], kitty[512];
        uint64_t s = set_seed(seed, i);
        if (g->deal(state, rules, s) || g->deal_cards(state, &c) || deal_text(g, &c, hands, kitty)) {
            fprintf(stderr, "arbiter: eval: deal %zu cannot be exported\n", i);
            goto out;
        }
        fprintf(f, "{\"deal\":%zu,\"game\":\"%s\",\"rules\":\"%s\",\"seed\":%" PRIu64 ",\"hands\":[", i, g->name,
                preset, s);
        for (int k = 0; k < c.nseats; k++)
            fprintf(f, "%s\"%s\"", k ? "," : "", hands[k]);
        fprintf(f, "],\"kitty\":\"%s\",\"order\":[", kitty);
        for (int k = 0; k < c.ncards; k++)
            fprintf(f, "%s%u", k ? "," : "", c.order[k]);
        fprintf(f, "]}\n");
    }
    status = CLI_EXIT_OK;
out:
    free(state);
    if (!to_stdout && status == CLI_EXIT_OK && arb_out_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: eval: --export-deals %s\n", err);
        status = CLI_EXIT_FAIL;
    }
    arb_out_abort(&file);   /* a failed export leaves nothing */
    return status;
}

/* ---- Playing -------------------------------------------------------------- */

/* Deals of a match come from the set, from `base` on. */
typedef struct source_ctx {
    const arb_game *g;
    const eval_set *set;
    size_t base;
} source_ctx;

static int source_deal(void *ctx, uint32_t deal, void *state, const void *rules, uint64_t *seed)
{
    source_ctx *c = ctx;
    if (c->base + deal >= c->set->n)
        return ARB_EINVAL;
    const eval_deal *d = &c->set->deals[c->base + deal];
    *seed = d->seed;
    return deal_entry(c->g, d, state, rules);
}

static int null_record(void *ctx, const match_rec *rec) { (void)ctx; (void)rec; return 0; }
static const char *null_why(const void *ctx) { (void)ctx; return ""; }

/* One deal in one role: A's and B's scores (sums over their seats) and
 * A's points (its side's score over the larger side's seats). */
typedef struct eval_row {
    size_t   deal;
    uint64_t seed;
    int      role;
    int64_t  a, b;
    double   points;
    int      result;     /* 1 win, 0 draw, -1 loss (A's side) */
    int      penalised;  /* a penalty decided it: 0 none, 1 A's, 2 B's, 3 both */
} eval_row;

typedef struct eval_run {
    const arb_game *g;
    match_config base;       /* clocks, policy, rules; bots filled per match */
    match_bot_cfg a, b;      /* the two agents' commands */
    bool partnership;        /* fixed teams: Da Bang's two tables */
    int  nseats;
    const char *role_name[2];
    live_options lo;
    bool quiet;
    uint64_t bot_seed;
    eval_row *rows;
    size_t nrows, cap;
    uint32_t penalties[2];   /* A's, B's */
    const char *keep;        /* --keep DIR: transcripts and stderr kept there, NULL none */
    int keep_fd;             /* DIR, opened by the rule of arb_wdir_open (-1: none) */
} eval_run;

static void on_penalty(void *ctx, const match_deal *d, int seat_no, int bot, match_reason r, const char *consequence,
                       const char *detail)
{
    const match_config *cfg = ctx;
    char name[256], what[1024];
    arb_term(cfg->bots[bot].name, name, sizeof name);
    arb_term(detail, what, sizeof what);
    fprintf(stderr, "penalty: bot %s (seat %d), deal %u: %s — %s; %s\n", name, seat_no, d ? d->deal : 0,
            match_reason_name(r), what, consequence);
}

static void name_bot(match_bot_cfg *out, const match_bot_cfg *agent, int k)
{
    *out = *agent;
    /* k is a seat, one digit: NAME-k stays within a bot name */
    snprintf(out->name, sizeof out->name, "%.*s-%c", ARB_MAX_BOT_NAME - 2, agent->name, (char)('0' + k % 10));
}

static int add_row(eval_run *e, const eval_row *r)
{
    if (e->nrows == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 256;
        eval_row *p = realloc(e->rows, cap * sizeof *p);
        if (!p)
            return -1;
        e->rows = p;
        e->cap = cap;
    }
    e->rows[e->nrows++] = *r;
    return 0;
}

/* --keep: beside the transcript, each bot's stderr as the match kept it
 * (its end), in NAME.stderr: readable without arbiter replay --stderr. */
static void keep_stderr(const eval_run *e, const char *name, const char *tpath, const match_result *res)
{
    char fname[300], path[4200];
    snprintf(fname, sizeof fname, "%.250s.stderr", name);
    snprintf(path, sizeof path, "%.4090s.stderr", tpath);
    arb_out file;
    char err[1300];
    if (arb_out_openat(&file, e->keep_fd, fname, path, 0600, err, sizeof err) != 0
        || !(file.f = fdopen(file.fd, "w"))) {
        fprintf(stderr, "arbiter: eval: --keep: %s\n", file.fd < 0 ? err : strerror(errno));
        arb_out_abort(&file);
        return;
    }
    FILE *f = file.f;
    for (int b = 0; b < res->nbots; b++) {
        const match_bot_stats *s = &res->bots[b];
        fprintf(f, "== bot %s%s%s ==\n%s%s", s->name, s->forfeited ? " (forfeited)" : "", s->gone ? " (gone)" : "",
                s->stderr_tail, s->stderr_tail[0] && s->stderr_tail[strlen(s->stderr_tail) - 1] != '\n' ? "\n" : "");
    }
    if (arb_out_commit(&file, err, sizeof err) != 0)
        fprintf(stderr, "arbiter: eval: --keep: %s\n", err);
}

/* --keep: the transcript NAME in DIR (already checked: arb_wdir_open), a
 * fresh file renamed over NAME when the match is over (arb_out_openat);
 * in *w its writer. 0, or -1 said on stderr. */
static int keep_open(const eval_run *e, const char *name, const char *tpath, arb_out *out, tr_writer **w)
{
    char err[1300];
    int wrc = 0;
    *w = NULL;
    if (arb_out_openat(out, e->keep_fd, name, tpath, 0600, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: eval: --keep: %s\n", err);
        return -1;
    }
    int fd = fcntl(out->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0 || !(*w = tr_writer_open_fd(fd, &wrc))) {
        fprintf(stderr, "arbiter: eval: --keep: %s: %s\n", tpath, fd < 0 ? strerror(errno) : arb_strerror(wrc));
        arb_out_abort(out);
        return -1;
    }
    return 0;
}

/* --keep: the writer closed and, when its every write went through, the
 * transcript renamed over its name (kept even for a match that failed:
 * what it played is what its author needs). The writer's code. */
static int keep_close(tr_writer *w, arb_out *out, char digest[65])
{
    int crc = tr_writer_close(w, digest);
    char err[1300];
    if (crc)
        arb_out_abort(out);
    else if (arb_out_commit(out, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: eval: --keep: %s\n", err);
        crc = ARB_EIO;
    }
    return crc;
}

/* Play one match whose bots is_a[b] says are A's; every deal played
 * becomes a row of `role`, deal index base + its deal. */
static int play_match(eval_run *e, match_config *cfg, const bool *is_a, const eval_set *set, size_t base,
                      int role_of_table[2])
{
    char err[512], label[ARB_MAX_KEY_LABEL];
    uint8_t secret[32] = {0};
    for (int k = 0; k < 8; k++)
        secret[k] = (uint8_t)(e->bot_seed >> (8 * k));
    arb_seeds_eval_label(label, base, role_of_table[0]);
    if (match_set_key(cfg, secret, label) != 0)
        return CLI_EXIT_FAIL;
    /* --keep: the transcript (every hand and every bot's stderr, for
     * arbiter replay) in DIR, hidden from the bots like the directory. */
    char name[256], tpath[4400] = "", digest[65];
    tr_writer *w = NULL;
    arb_out out = {.fd = -1, .dirfd = -1};
    match_sink sink = {NULL, null_record, null_why};
    if (e->keep) {
        snprintf(name, sizeof name, "deal-%zu-%s.tr", base, e->role_name[role_of_table[0]]);
        snprintf(tpath, sizeof tpath, "%.4000s/%s", e->keep, name);
        if (keep_open(e, name, tpath, &out, &w) != 0)
            return CLI_EXIT_FAIL;
        sink = tr_writer_sink(w);
    }
    live_driver *live = live_new(&e->lo, err, sizeof err);
    if (!live) {
        fprintf(stderr, "arbiter: %s\n", err);
        if (w)
            tr_writer_abandon(w);
        arb_out_abort(&out);
        return CLI_EXIT_USAGE;
    }
    source_ctx sc = {e->g, set, base};
    match_deal_source src = {&sc, source_deal};
    match_observer obs = {.ctx = cfg, .penalty = e->quiet ? NULL : on_penalty};
    match_result res;
    int rc = match_run_dealt(cfg, live_driver_of(live), &sink, &obs, &src, &res);
    live_free(live);
    if (w) {
        int crc = keep_close(w, &out, digest);
        if (!rc && crc) {
            fprintf(stderr, "arbiter: eval: --keep: %s: %s\n", tpath, arb_strerror(crc));
            match_result_release(&res);
            return CLI_EXIT_FAIL;
        }
        keep_stderr(e, name, tpath, &res);
    }
    if (rc) {
        fprintf(stderr, "arbiter: eval: match failed: %s\n", res.error[0] ? res.error : arb_strerror(rc));
        match_result_release(&res);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_OK;
    for (int b = 0; b < res.nbots; b++)
        e->penalties[is_a[b] ? 0 : 1] += res.bots[b].penalties;
    for (uint32_t i = 0; i < res.ndeals; i++) {
        const match_deal *d = &res.deals[i];
        int table = res.ntables == 2 && i >= res.tables[1].first ? 1 : 0;
        eval_row r = {.deal = base + d->deal, .seed = d->seed, .role = role_of_table[table]};
        int na = 0, nb = 0;
        for (int s = 0; s < cfg->nbots; s++) {
            if (is_a[d->bot_at[s]]) {
                r.a += d->score[s];
                na++;
            } else {
                r.b += d->score[s];
                nb++;
            }
        }
        r.points = (double)r.a / (na > nb ? na : nb);
        r.result = r.a > 0 ? 1 : r.a < 0 ? -1 : 0;
        /* decided by a penalty: forfeited, or a bot played for by the
         * referee (autoplay) in this game */
        if (d->forfeit_bot >= 0)
            r.penalised |= is_a[d->forfeit_bot] ? 1 : 2;
        for (uint32_t k = 0; k < res.npenalties; k++)
            if (res.penalties[k].game == d->game)
                r.penalised |= is_a[res.penalties[k].bot] ? 1 : 2;
        if (add_row(e, &r)) {
            status = CLI_EXIT_FAIL;
            break;
        }
    }
    match_result_release(&res);
    return status;
}

/* Deals [base, base+n) in both roles. */
static int play_batch(eval_run *e, const eval_set *set, size_t base, size_t n)
{
    match_config cfg = e->base;
    bool is_a[ARB_MAX_SEATS] = {false};
    if (e->partnership) {
        /* A's team in seats 0+2 at table 1, 1+3 at table 2 (every bot one
         * seat on); one deal a match, so that each deal starts afresh. */
        int roles[2] = {0, 1};
        for (size_t k = 0; k < n; k++) {
            cfg.nbots = 4;
            cfg.deals = 1;
            cfg.duplicate = MATCH_DUP_SWAP;
            name_bot(&cfg.bots[0], &e->a, 1);
            name_bot(&cfg.bots[1], &e->b, 1);
            name_bot(&cfg.bots[2], &e->a, 2);
            name_bot(&cfg.bots[3], &e->b, 2);
            is_a[0] = is_a[2] = true;
            is_a[1] = is_a[3] = false;
            int rc = play_match(e, &cfg, is_a, set, base + k, roles);
            if (rc)
                return rc;
        }
        return CLI_EXIT_OK;
    }
    /* The landlord is seat 0 (bidding=fixed): A there and B everywhere
     * else, then the other way round. */
    for (int role = 0; role < 2; role++) {
        int roles[2] = {role, role};
        cfg.nbots = e->nseats;
        cfg.deals = (uint32_t)n;
        cfg.duplicate = MATCH_DUP_OFF;
        cfg.fixed_seats = true;
        for (int s = 0; s < e->nseats; s++) {
            bool a = (s == 0) == (role == 0);
            is_a[s] = a;
            name_bot(&cfg.bots[s], a ? &e->a : &e->b, s == 0 ? 1 : s);
        }
        int rc = play_match(e, &cfg, is_a, set, base, roles);
        if (rc)
            return rc;
    }
    return CLI_EXIT_OK;
}

/* ---- Summaries ------------------------------------------------------------ */

typedef struct role_sum {
    uint64_t n, wins, draws, losses;
    double wp, wp_lo, wp_hi;
    es_mean adp;
} role_sum;

static role_sum summarise(const eval_run *e, int role)
{
    role_sum s = {0};
    double *pts = malloc((e->nrows ? e->nrows : 1) * sizeof *pts);
    for (size_t i = 0; i < e->nrows; i++) {
        const eval_row *r = &e->rows[i];
        if (role >= 0 && r->role != role)
            continue;
        if (pts)
            pts[s.n] = r->points;
        s.n++;
        s.wins += r->result > 0;
        s.draws += r->result == 0;
        s.losses += r->result < 0;
    }
    s.wp = s.n ? (double)s.wins / (double)s.n : 0;
    es_wilson(s.wins, s.n, ES_Z95, &s.wp_lo, &s.wp_hi);
    s.adp = pts ? es_mean_of(pts, s.n) : (es_mean){0};
    free(pts);
    return s;
}

/* Deal pairs: a deal played in both roles is one pair of the pentanomial
 * (eval_stats.h). *penalised (may be NULL) counts the pairs a penalty
 * decided in either role. */
static es_penta pairs_of(const eval_run *e, uint64_t *penalised)
{
    es_penta s = {0};
    /* each deal's result per role, by deal index (-2: not played) */
    size_t n = 0;
    if (penalised)
        *penalised = 0;
    for (size_t i = 0; i < e->nrows; i++)
        if (e->rows[i].deal + 1 > n)
            n = e->rows[i].deal + 1;
    int8_t *res = malloc(2 * (n ? n : 1));
    bool *pen = calloc(n ? n : 1, sizeof *pen);
    if (!res || !pen) {
        free(res);
        free(pen);
        return s;
    }
    memset(res, -2, 2 * (n ? n : 1));
    for (size_t i = 0; i < e->nrows; i++) {
        res[2 * e->rows[i].deal + (size_t)e->rows[i].role] = (int8_t)e->rows[i].result;
        pen[e->rows[i].deal] |= e->rows[i].penalised != 0;
    }
    for (size_t d = 0; d < n; d++)
        if (res[2 * d] != -2 && res[2 * d + 1] != -2) {
            es_penta_add(&s, res[2 * d], res[2 * d + 1]);
            if (penalised && pen[d])
                (*penalised)++;
        }
    free(res);
    free(pen);
    return s;
}

/* Deals (rows) a penalty decided, by whose penalty: [0] A's, [1] B's. */
static void penalised_deals(const eval_run *e, uint64_t by[2], uint64_t *any)
{
    by[0] = by[1] = *any = 0;
    for (size_t i = 0; i < e->nrows; i++) {
        by[0] += (e->rows[i].penalised & 1) != 0;
        by[1] += (e->rows[i].penalised & 2) != 0;
        *any += e->rows[i].penalised != 0;
    }
}

typedef struct sprt_cfg {
    bool on;
    es_sprt t;
    double llr;
    int verdict;        /* 0 none yet, 1 H1 accepted, -1 H0 accepted */
} sprt_cfg;

/* The SPRT's verdict in plain words (docs/evaluation.md), into out. */
static void sprt_words(const sprt_cfg *sp, uint64_t pairs, char *out, size_t len)
{
    const es_sprt *t = &sp->t;
    if (sp->verdict > 0)
        snprintf(out, len, "A is more than %+g Elo better than B, at %g %% (H1 elo %+g accepted: a bot no "
                 "better than %+g passes at most %g %% of the time) after %" PRIu64 " pairs", t->elo0,
                 100 * (1 - t->alpha), t->elo1, t->elo0, 100 * t->alpha, pairs);
    else if (sp->verdict < 0)
        snprintf(out, len, "A is not %+g Elo better than B, at %g %% (H0 elo %+g accepted: a bot %+g Elo "
                 "better fails at most %g %% of the time) after %" PRIu64 " pairs", t->elo1, 100 * (1 - t->beta),
                 t->elo0, t->elo1, 100 * t->beta, pairs);
    else if (pairs < ARB_EVAL_MIN_PAIRS)
        snprintf(out, len, "no verdict: too few pairs (%" PRIu64 " of the %d the SPRT needs before it decides)",
                 pairs, ARB_EVAL_MIN_PAIRS);
    else
        snprintf(out, len, "no verdict yet after %" PRIu64 " pairs (LLR %.3f between %.3f and %.3f): play more "
                 "deals", pairs, sp->llr, t->lower, t->upper);
}

/* Why an interval is missing, in words ("" when there is one). */
static const char *ci_words(es_ci_why why)
{
    switch (why) {
    case ES_CI_FEW: return "too few pairs for an interval";
    case ES_CI_NO_SPREAD: return "every pair scored the same: no spread seen, no interval";
    default: return "";
    }
}

static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.6f", x);
    else
        fprintf(f, "null");
}

static void write_csv(FILE *f, const eval_run *e)
{
    fprintf(f, "deal,seed,role,a_score,b_score,diff,points,result\n");
    for (size_t i = 0; i < e->nrows; i++) {
        const eval_row *r = &e->rows[i];
        fprintf(f, "%zu,%" PRIu64 ",%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",%g,%s\n", r->deal, r->seed,
                e->role_name[r->role], r->a, r->b, r->a - r->b, r->points,
                r->result > 0 ? "win" : r->result < 0 ? "loss" : "draw");
    }
}

static void json_role(FILE *f, const char *name, const role_sum *s)
{
    fprintf(f, "{\"role\":\"%s\",\"deals\":%" PRIu64 ",\"wins\":%" PRIu64 ",\"draws\":%" PRIu64 ",\"losses\":%" PRIu64
               ",\"wp\":", name, s->n, s->wins, s->draws, s->losses);
    json_num(f, s->wp);
    fprintf(f, ",\"wp_ci95\":[");
    json_num(f, s->wp_lo);
    fprintf(f, ",");
    json_num(f, s->wp_hi);
    fprintf(f, "],\"adp\":");
    json_num(f, s->adp.mean);
    fprintf(f, ",\"adp_sd\":");
    json_num(f, s->adp.sd);
    fprintf(f, ",\"adp_ci95\":[");
    json_num(f, s->adp.mean - s->adp.half);
    fprintf(f, ",");
    json_num(f, s->adp.mean + s->adp.half);
    fprintf(f, "]}");
}

static void write_json(FILE *f, const eval_run *e, const char *preset, const sprt_cfg *sp, size_t set_size)
{
    fprintf(f, "{\"game\":\"%s\",\"rules\":", e->g->name);
    cli_json_string(f, preset);
    fprintf(f, ",\"a\":");
    cli_json_string(f, e->a.name);
    fprintf(f, ",\"b\":");
    cli_json_string(f, e->b.name);
    fprintf(f, ",\"set_deals\":%zu,\"penalties\":{\"a\":%u,\"b\":%u},\"roles\":[", set_size, e->penalties[0],
            e->penalties[1]);
    for (int r = 0; r < 2; r++) {
        role_sum s = summarise(e, r);
        if (r)
            fprintf(f, ",");
        json_role(f, e->role_name[r], &s);
    }
    role_sum all = summarise(e, -1);
    fprintf(f, "],\"overall\":");
    json_role(f, "overall", &all);
    uint64_t pen_pairs, by[2], pen_deals;
    es_penta ps = pairs_of(e, &pen_pairs);
    penalised_deals(e, by, &pen_deals);
    es_elo_est el = es_elo_of(&ps);
    fprintf(f, ",\"penalised\":{\"deals\":%" PRIu64 ",\"pairs\":%" PRIu64 ",\"by_a\":%" PRIu64
               ",\"by_b\":%" PRIu64 "}", pen_deals, pen_pairs, by[0], by[1]);
    fprintf(f, ",\"elo\":{\"pairs\":%" PRIu64 ",\"pentanomial\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 "],\"score\":", ps.n, ps.count[0], ps.count[1], ps.count[2], ps.count[3], ps.count[4]);
    json_num(f, el.score);
    fprintf(f, ",\"se\":");
    json_num(f, el.se);
    fprintf(f, ",\"elo\":");
    json_num(f, el.elo);
    fprintf(f, ",\"ci95\":[");
    json_num(f, el.lo);
    fprintf(f, ",");
    json_num(f, el.hi);
    fprintf(f, "],\"ci_note\":");
    cli_json_string(f, ci_words(el.why));
    fprintf(f, "},\"sprt\":");
    if (sp->on) {
        char words[512];
        sprt_words(sp, ps.n, words, sizeof words);
        fprintf(f, "{\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"min_pairs\":%d,\"llr\":", sp->t.elo0,
                sp->t.elo1, sp->t.alpha, sp->t.beta, ARB_EVAL_MIN_PAIRS);
        json_num(f, sp->llr);
        fprintf(f, ",\"lower\":%.6f,\"upper\":%.6f,\"verdict\":\"%s\",\"words\":", sp->t.lower, sp->t.upper,
                sp->verdict > 0 ? "H1" : sp->verdict < 0 ? "H0" : "none");
        cli_json_string(f, words);
        fprintf(f, "}");
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ",\"rows\":[");
    for (size_t i = 0; i < e->nrows; i++) {
        const eval_row *r = &e->rows[i];
        fprintf(f, "%s{\"deal\":%zu,\"seed\":%" PRIu64 ",\"role\":\"%s\",\"a_score\":%" PRId64 ",\"b_score\":%" PRId64
                   ",\"diff\":%" PRId64 ",\"points\":%g,\"result\":\"%s\",\"penalised\":%s}",
                i ? "," : "", r->deal, r->seed, e->role_name[r->role], r->a, r->b, r->a - r->b, r->points,
                r->result > 0 ? "win" : r->result < 0 ? "loss" : "draw", r->penalised ? "true" : "false");
    }
    fprintf(f, "]}\n");
}

static void print_table(const eval_run *e, const char *preset, const sprt_cfg *sp, size_t set_size)
{
    char a[256], b[256];
    arb_term(e->a.name, a, sizeof a);
    arb_term(e->b.name, b, sizeof b);
    role_sum all = summarise(e, -1);
    printf("eval %s/%s: A = %s against B = %s, %" PRIu64 " of %zu deals, each in both roles\n\n", e->g->name,
           preset, a, b, all.n / 2, set_size);
    printf("%-12s %6s %5s %5s %5s %8s %17s %9s %21s\n", "role of A", "deals", "won", "drawn", "lost", "WP",
           "WP 95% CI", "ADP", "ADP 95% CI");
    for (int r = -1; r < 2; r++) {
        int role = r < 1 ? r + 1 : -1;   /* the two roles, then everything */
        role_sum s = summarise(e, role);
        printf("%-12s %6" PRIu64 " %5" PRIu64 " %5" PRIu64 " %5" PRIu64 " %7.1f%% [%5.1f%%, %5.1f%%] %+9.3f ",
               role < 0 ? "overall" : e->role_name[role], s.n, s.wins, s.draws, s.losses, 100 * s.wp,
               100 * s.wp_lo, 100 * s.wp_hi, s.adp.mean);
        if (isfinite(s.adp.half))
            printf("[%+8.3f, %+8.3f]\n", s.adp.mean - s.adp.half, s.adp.mean + s.adp.half);
        else
            printf("%21s\n", s.n >= 2 ? "- (no spread)" : "-");
    }
    uint64_t pen_pairs, by[2], pen_deals;
    es_penta ps = pairs_of(e, &pen_pairs);
    penalised_deals(e, by, &pen_deals);
    es_elo_est el = es_elo_of(&ps);
    printf("\nElo of A over B: %+.1f, ", el.elo);
    if (el.why == ES_CI_OK)
        printf("95%% CI [%+.1f, %+.1f] (Student's t)", el.lo, el.hi);
    else
        printf("no interval: %s", ci_words(el.why));
    printf(" (score %.4f over %" PRIu64 " deal pairs: %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
           " scored 0 ¼ ½ ¾ 1)\n", el.score, ps.n, ps.count[0], ps.count[1], ps.count[2], ps.count[3], ps.count[4]);
    if (sp->on) {
        char words[512];
        sprt_words(sp, ps.n, words, sizeof words);
        printf("SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.3f, bounds [%.3f, %.3f]\nverdict: %s\n", sp->t.elo0,
               sp->t.elo1, sp->t.alpha, sp->t.beta, sp->llr, sp->t.lower, sp->t.upper, words);
    }
    if (e->penalties[0] || e->penalties[1])
        printf("penalties: A %u, B %u\n", e->penalties[0], e->penalties[1]);
    if (pen_deals)
        printf("penalties decided %" PRIu64 " of %zu deals played (A's %" PRIu64 ", B's %" PRIu64 "), in %" PRIu64
               " of %" PRIu64 " pairs: those results are the referee's, not the play's; the figures above count "
               "them%s\n", pen_deals, e->nrows, by[0], by[1], pen_pairs, ps.n,
               e->keep ? " (transcripts and stderr in --keep DIR)" : " (--keep DIR keeps the transcripts)");
}

static int parse_bot(const char *v, match_bot_cfg *out)
{
    const char *eq = strchr(v, '=');
    char name[ARB_MAX_BOT_NAME + 1], err[512];
    if (!eq || eq == v || (size_t)(eq - v) > ARB_MAX_BOT_NAME - 2) {
        fprintf(stderr, "arbiter: eval: --bot \"%s\": expected NAME=COMMAND (a name of 1..%d characters)\n", v,
                ARB_MAX_BOT_NAME - 2);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
    if (match_bot_command(out, name, eq + 1, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        return -1;
    }
    return 0;
}

static int parse_sprt(const char *v, sprt_cfg *sp)
{
    char extra;
    double elo0, elo1, alpha, beta;
    if (sscanf(v, "%lf,%lf,%lf,%lf%c", &elo0, &elo1, &alpha, &beta, &extra) != 4
        || !(elo1 > elo0) || !(alpha > 0 && alpha < 1) || !(beta > 0 && beta < 1)) {
        fprintf(stderr, "arbiter: eval: --sprt \"%s\": expected ELO0,ELO1,ALPHA,BETA with ELO0 < ELO1 and "
                        "0 < ALPHA, BETA < 1 (e.g. 0,10,0.05,0.05)\n", v);
        return -1;
    }
    sp->on = true;
    es_sprt_init(&sp->t, elo0, elo1, alpha, beta);
    return 0;
}

/* ---- The command ---------------------------------------------------------- */

/* What the command line asks for, before the game and the deal set are
 * known. */
typedef struct eval_opts {
    const char *game, *preset;       /* NULL: from the deals file, else the defaults */
    const char *deals_file, *export_path, *json_path, *csv_path;
    char sets[ARB_MAX_OPTIONS_TEXT]; /* --set, then the game's role options */
    uint64_t seed;
    size_t ndeals, batch;
    int nbots;                       /* --bot given: A, then B */
    cli_format format;
    int64_t move_ms, deal_ms, bank_ms, startup_ms;   /* -2: not given */
} eval_opts;

static const struct option eval_longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"bot", required_argument, NULL, 'b'},
    {"game", required_argument, NULL, 'g'},
    {"rules", required_argument, NULL, 'r'},
    {"set", required_argument, NULL, 's'},
    {"seed", required_argument, NULL, 'S'},
    {"deals", required_argument, NULL, 'd'},
    {"deals-file", required_argument, NULL, 'F'},
    {"export-deals", required_argument, NULL, 'E'},
    {"sprt", required_argument, NULL, 'P'},
    {"batch", required_argument, NULL, 'n'},
    {"bot-seed", required_argument, NULL, 'Q'},
    {"format", required_argument, NULL, 'f'},
    {"output-json", required_argument, NULL, 'J'},
    {"output-csv", required_argument, NULL, 'C'},
    {"move-ms", required_argument, NULL, 'm'},
    {"deal-ms", required_argument, NULL, 'M'},
    {"bank-ms", required_argument, NULL, 'B'},
    {"startup-ms", required_argument, NULL, 'u'},
    {"sandbox", required_argument, NULL, 'x'},
    {"quiet", no_argument, NULL, 'q'},
    {"keep", required_argument, NULL, 'K'},
    {NULL, 0, NULL, 0},
};

/* The options into *o, the agents and run flags into *e, --sprt into *sp.
 * -1 when the command goes on, else its exit code. */
static int parse_options(int argc, char **argv, eval_opts *o, eval_run *e, sprt_cfg *sp)
{
    *o = (eval_opts){.seed = 1, .ndeals = 100, .batch = 25, .format = CLI_FORMAT_TABLE,
                     .move_ms = -2, .deal_ms = -2, .bank_ms = -2, .startup_ms = -2};
    e->bot_seed = 1;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("eval", argc, argv, ":h", eval_longopts)) != -1) {
        const char *v = optarg;
        long long n;
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'b':
            if (o->nbots >= 2) {
                fprintf(stderr, "arbiter: eval: --bot twice: A, then B\n");
                return CLI_EXIT_USAGE;
            }
            if (parse_bot(v, o->nbots ? &e->b : &e->a))
                return CLI_EXIT_USAGE;
            o->nbots++;
            break;
        case 'g': o->game = v; break;
        case 'r': o->preset = v; break;
        case 's':
            if (cli_append_option(o->sets, sizeof o->sets, v)) {
                fprintf(stderr, "arbiter: eval: --set: too many options\n");
                return CLI_EXIT_USAGE;
            }
            break;
        case 'S': {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            if (errno || *end || end == v || v[0] == '-') {
                fprintf(stderr, "arbiter: eval: --seed \"%s\": expected a non-negative integer\n", v);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case 'Q':
            if (cli_int_arg("eval", "bot-seed", v, 0, INT64_MAX, &n)) return CLI_EXIT_USAGE;
            e->bot_seed = (uint64_t)n;
            break;
        case 'd':
            if (cli_int_arg("eval", "deals", v, 1, ARB_MAX_DEALS, &n)) return CLI_EXIT_USAGE;
            o->ndeals = (size_t)n;
            break;
        case 'n':
            if (cli_int_arg("eval", "batch", v, 1, ARB_MAX_DEALS, &n)) return CLI_EXIT_USAGE;
            o->batch = (size_t)n;
            break;
        case 'F': o->deals_file = v; break;
        case 'E': o->export_path = v; break;
        case 'P':
            if (parse_sprt(v, sp)) return CLI_EXIT_USAGE;
            break;
        case 'f':
            if (cli_format_parse("eval", v, CLI_FORMATS_ALL, &o->format)) return CLI_EXIT_USAGE;
            break;
        case 'J': o->json_path = v; break;
        case 'C': o->csv_path = v; break;
        case 'm':
            if (cli_int_arg("eval", "move-ms", v, 1, 3600000, &n)) return CLI_EXIT_USAGE;
            o->move_ms = n;
            break;
        case 'M':
            if (cli_int_arg("eval", "deal-ms", v, -1, 86400000, &n)) return CLI_EXIT_USAGE;
            o->deal_ms = n;
            break;
        case 'B':
            if (cli_int_arg("eval", "bank-ms", v, 0, 86400000, &n)) return CLI_EXIT_USAGE;
            o->bank_ms = n;
            break;
        case 'u':
            if (cli_int_arg("eval", "startup-ms", v, 1, 600000, &n)) return CLI_EXIT_USAGE;
            o->startup_ms = n;
            break;
        case 'x':
            if (strcmp(v, "auto") == 0) e->lo.sandbox = LIVE_SANDBOX_AUTO;
            else if (strcmp(v, "none") == 0) e->lo.sandbox = LIVE_SANDBOX_NONE;
            else if (strcmp(v, "bwrap") == 0) e->lo.sandbox = LIVE_SANDBOX_BWRAP;
            else {
                fprintf(stderr, "arbiter: eval: --sandbox \"%s\": expected auto, bwrap or none\n", v);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'q': e->quiet = true; break;
        case 'K': e->keep = v; break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "arbiter: eval: unexpected \"%s\" (arbiter eval --help)\n", argv[optind]);
        return CLI_EXIT_USAGE;
    }
    if (o->deals_file && o->export_path) {
        fprintf(stderr, "arbiter: eval: --export-deals writes a set from --seed; --deals-file reads one\n");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* A deals file names its game and preset: read it into *set, and take
 * them from it unless the command line named others (an error). */
static int read_deals_file(eval_opts *o, eval_set *set)
{
    if (set_from_file(set, o->deals_file))
        return -1;
    if (set->game[0] && o->game && strcmp(o->game, set->game)) {
        fprintf(stderr, "arbiter: eval: %s holds %s deals, not %s\n", o->deals_file, set->game, o->game);
        return -1;
    }
    if (set->preset[0] && o->preset && strcmp(o->preset, set->preset)) {
        fprintf(stderr, "arbiter: eval: %s holds deals of the %s rules, not %s\n", o->deals_file, set->preset,
                o->preset);
        return -1;
    }
    if (!o->game && set->game[0])
        o->game = set->game;
    if (!o->preset && set->preset[0])
        o->preset = set->preset;
    return 0;
}

/* The game, its preset and rules (*rules, the caller frees them), and how
 * A and B meet: two tables of two fixed teams of two, or the roles the
 * game's command-line module fixes (game_cli_roles, added to the rules).
 * -1 when the command goes on, else its exit code. */
static int choose_rules(eval_run *e, eval_opts *o, void **rules)
{
    e->g = cli_game(o->game);
    if (!e->g)
        return CLI_EXIT_USAGE;
    const game_cli *m = game_cli_find(e->g);
    if (!o->preset)
        o->preset = m && m->eval_preset ? m->eval_preset : e->g->default_preset;
    match_config_init(&e->base, e->g);
    snprintf(e->base.preset, sizeof e->base.preset, "%s", o->preset);
    *rules = cli_rules_new(e->g, o->preset, o->sets[0] ? o->sets : NULL);
    if (!*rules)
        return CLI_EXIT_USAGE;
    int8_t team_of_seat[ARB_MAX_SEATS];
    e->partnership = e->g->teams(*rules, team_of_seat) == 2 && e->g->seats(*rules) == 4;
    e->nseats = e->g->seats(*rules);
    if (e->partnership) {
        e->role_name[0] = "seats-0-2";
        e->role_name[1] = "seats-1-3";
    } else {
        const game_cli_roles *r = m ? m->eval_roles : NULL;
        if (!r) {
            fprintf(stderr, "arbiter: eval: %s has neither roles for eval (cli/game_cli.h) nor two fixed teams "
                    "of two: no protocol\n", e->g->name);
            return CLI_EXIT_UNSUPPORTED;
        }
        if (r->options && cli_append_option(o->sets, sizeof o->sets, r->options)) {
            fprintf(stderr, "arbiter: eval: --set: too many options\n");
            return CLI_EXIT_USAGE;
        }
        free(*rules);
        *rules = cli_rules_new(e->g, o->preset, o->sets);
        if (!*rules)
            return CLI_EXIT_USAGE;
        e->role_name[0] = r->name[0];
        e->role_name[1] = r->name[1];
    }
    snprintf(e->base.options, sizeof e->base.options, "%s", o->sets);
    return -1;
}

/* Before the first match: two distinct agents a bot's uid can reach, the
 * --keep directory (0700, hidden from the bots; its real path into
 * keep_real), the deal set, the clocks. -1 when the command goes on. */
static int prepare_run(eval_run *e, const eval_opts *o, eval_set *set, const void *rules, char *keep_real,
                       size_t keep_len)
{
    if (o->nbots != 2) {
        fprintf(stderr, "arbiter: eval: --bot A=CMD --bot B=CMD: the two agents\n");
        return CLI_EXIT_USAGE;
    }
    if (strcmp(e->a.name, e->b.name) == 0) {
        fprintf(stderr, "arbiter: eval: two agents named \"%s\"\n", e->a.name);
        return CLI_EXIT_USAGE;
    }
    /* as root, a bot its own uid cannot reach would forfeit every deal:
     * refused before the first match (cli_bots_reachable) */
    match_bot_cfg agents[2] = {e->a, e->b};
    if (cli_bots_reachable("eval", agents, 2) != 0)
        return CLI_EXIT_USAGE;
    if (e->keep) {
        char err[600];
        /* checked by the rule (docs/cli.md, "Files arbiter writes")
         * before any match: made 0700 when missing (every hand is in it) */
        struct stat st;
        bool made = lstat(e->keep, &st) != 0 && errno == ENOENT;
        if (arb_wdir_open(e->keep, "eval --keep", &e->keep_fd, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: eval: --keep: %s\n", err);
            return CLI_EXIT_USAGE;
        }
        if ((made && fchmod(e->keep_fd, 0700) != 0) || arb_fd_path(e->keep_fd, keep_real, keep_len) != 0) {
            fprintf(stderr, "arbiter: eval: --keep %s: %s\n", e->keep, made ? strerror(errno) : "path too long");
            return CLI_EXIT_USAGE;
        }
        e->lo.hide[0] = keep_real;
    }
    if (!o->deals_file && set_from_seed(set, o->seed, o->ndeals))
        return CLI_EXIT_FAIL;
    if (o->deals_file && set_check(e->g, set, rules, o->deals_file))
        return CLI_EXIT_USAGE;
    if (o->move_ms != -2) e->base.move_ms = o->move_ms;
    if (o->deal_ms != -2) e->base.deal_ms = o->deal_ms;
    if (o->bank_ms != -2) e->base.bank_ms = o->bank_ms;
    if (o->startup_ms != -2) e->base.startup_ms = o->startup_ms;
    e->base.seed = o->seed;
    return -1;
}

/* Batches of deals in both roles, the SPRT looked at after each. */
static int play_set(eval_run *e, const eval_set *set, size_t batch, sprt_cfg *sp)
{
    int status = CLI_EXIT_OK;
    size_t step = e->partnership ? 1 : batch;
    for (size_t base = 0; base < set->n && status == CLI_EXIT_OK; base += step) {
        size_t n = set->n - base < step ? set->n - base : step;
        status = play_batch(e, set, base, n);
        if (status == CLI_EXIT_OK && sp->on) {
            es_penta ps = pairs_of(e, NULL);
            sp->verdict = es_sprt_decide(&sp->t, &ps, &sp->llr);
            if (sp->verdict)
                break;
        }
    }
    return status;
}

/* The summary on stdout in the chosen format, and the JSON object and the
 * CSV rows to their files when asked. */
static int report(const eval_run *e, const eval_opts *o, const sprt_cfg *sp, size_t set_size)
{
    int status = CLI_EXIT_OK;
    if (o->format == CLI_FORMAT_JSON)
        write_json(stdout, e, o->preset, sp, set_size);
    else if (o->format == CLI_FORMAT_CSV)
        write_csv(stdout, e);
    else
        print_table(e, o->preset, sp, set_size);
    const char *paths[2] = {o->json_path, o->csv_path};
    for (int k = 0; k < 2; k++) {
        if (!paths[k])
            continue;
        arb_out file;
        char err[1300];
        FILE *f = arb_out_fopen(&file, paths[k], 0644, err, sizeof err);
        if (f && k == 0)
            write_json(f, e, o->preset, sp, set_size);
        else if (f)
            write_csv(f, e);
        if (!f || arb_out_commit(&file, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: eval: %s\n", err);
            status = CLI_EXIT_FAIL;
        }
    }
    return status;
}

int cmd_eval(int argc, char **argv)
{
    eval_run e = {.keep_fd = -1};
    sprt_cfg sp = {0};
    eval_set set = {0};
    eval_opts o;
    void *rules = NULL;
    char keep_real[PATH_MAX];
    int status = parse_options(argc, argv, &o, &e, &sp);
    if (status != -1)
        return status;
    status = CLI_EXIT_USAGE;
    if (o.deals_file && read_deals_file(&o, &set))
        goto out;
    status = choose_rules(&e, &o, &rules);
    if (status != -1)
        goto out;
    if (o.export_path) {
        status = export_deals(e.g, o.preset, rules, o.seed, o.ndeals, o.export_path);
        goto out;
    }
    status = prepare_run(&e, &o, &set, rules, keep_real, sizeof keep_real);
    if (status != -1)
        goto out;
    status = play_set(&e, &set, o.batch, &sp);
    if (status == CLI_EXIT_OK)
        status = report(&e, &o, &sp, set.n);
out:
    if (e.keep_fd >= 0)
        close(e.keep_fd);
    free(rules);
    free(e.rows);
    set_free(&set);
    return status;
}
