/* abot_core.c — the protocol core of the C bot library (abot_core.h):
 * reads the referee's lines, answers the handshake, reads the generic match
 * lines and writes one reply per request; a game's view does the rest. */
#include "abot_core.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* A line and its newline; one more byte lets a last line without newline
 * get one at the end of input. */
#define LINE_CAP ((size_t)ARB_MAX_REQUEST + 1)
/* Words of the longest request: every legal play plus the fixed part. */
#define MAX_WORDS (ARB_MAX_MOVES + 64)

typedef struct core {
    const abot_game *game;
    void *view;
    abot_view_fields fields;
    char name[ARB_MAX_BOT_NAME + 1];
    bool ask_legal;
    bool verbose;
    int in_fd, out_fd;

    char *buf;                 /* input, LINE_CAP + 1 bytes */
    size_t start;              /* the unread part is buf[start, len) */
    size_t len;
    size_t scanned;            /* bytes after start known to hold no newline */
    bool discarding;           /* inside a line too long to keep */
    bool eof;
    char **words;              /* MAX_WORDS, pointing into buf */

    abot_match m;
} core;

void abot__diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("arbiter_bot: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool abot__reply(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return true;
}

void abot__read_time(char **w, const char *request, long long t[3])
{
    for (int j = 0; j < 3; j++)
        if (!abot__to_ll(w[j], -1, INT64_MAX / 4, &t[j])) {
            abot__diag("cannot read the clock in ask %s", request);
            t[j] = -1;
        }
}

void *abot__grow(void *items, int *cap, size_t size)
{
    int want = *cap ? 2 * *cap : 64;
    void *grown = realloc(items, (size_t)want * size);
    if (!grown) {
        abot__diag("no memory for results");
        return NULL;
    }
    *cap = want;
    return grown;
}

bool abot__to_ll(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

bool abot__to_int(const char *s, int lo, int hi, int *out)
{
    long long x;
    if (!abot__to_ll(s, lo, hi, &x))
        return false;
    *out = (int)x;
    return true;
}

bool abot__env_strict(void)
{
    const char *strict = getenv("ARBITER_BOT_STRICT");
    return strict && *strict && strcmp(strict, "0") != 0;
}

/* ---- The legal list's order and the answer -------------------------------- */

static int cmp_seq(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    for (int i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static int cmp_keys(const void *x, const void *y)
{
    const abot__okey *a = *(const abot__okey *const *)x, *b = *(const abot__okey *const *)y;
    int c;
    if (a->cls != b->cls)
        return a->cls < b->cls ? -1 : 1;
    if (a->major != b->major)
        return a->major < b->major ? -1 : 1;
    if (a->ncards != b->ncards)
        return a->ncards < b->ncards ? -1 : 1;
    if (a->tier != b->tier)
        return a->tier < b->tier ? -1 : 1;
    if ((c = cmp_seq(a->p, a->np, b->p, b->np)) || (c = cmp_seq(a->k, a->nk, b->k, b->nk))
        || (c = cmp_seq(a->c, a->nc, b->c, b->nc)))
        return c;
    if (a->text && b->text && (c = strcmp(a->text, b->text)) != 0)
        return c < 0 ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

void abot__sort_keys(const abot__okey *keys, int n, const abot__okey **sorted)
{
    for (int i = 0; i < n; i++)
        sorted[i] = &keys[i];
    if (n > 1)
        qsort(sorted, (size_t)n, sizeof *sorted, cmp_keys);
}

/* abot_answer's text, for the call of choose that returned ABOT_ANSWER. */
static _Thread_local char answer_text[ARB_MAX_LINE + 1];
static _Thread_local bool answered;

int abot_answer(const char *text)
{
    size_t n = 0;
    for (const char *p = text ? text : ""; *p && *p != '\n' && *p != '\r' && n < ARB_MAX_LINE; p++)
        answer_text[n++] = *p >= ' ' && *p < 127 ? *p : '?';
    while (n > 0 && answer_text[n - 1] == ' ')
        n--;
    answer_text[n] = 0;
    answered = true;
    return ABOT_ANSWER;
}

int abot__resolve(int i, int n, const char *const *texts, int pass_at, bool strict, const char *word,
                  abot__match match, void *match_ctx, const char **own)
{
    char shown[64];
    if (i == ABOT_NO_REPLY)
        return i;
    if (i == ABOT_ANSWER && answered) {
        answered = false;
        const char *t = answer_text;
        while (*t == ' ')
            t++;
        size_t wl = strlen(word);
        if (strncasecmp(t, word, wl) == 0 && t[wl] == ' ')
            t += wl + 1;
        else if (strncasecmp(t, "play ", 5) == 0)
            t += 5;
        while (*t == ' ')
            t++;
        int j = -1;
        for (int k = 0; k < n && j < 0; k++)
            if (strcasecmp(t, texts[k]) == 0)
                j = k;
        if (j < 0 && match && *t)
            j = match(match_ctx, t);
        if (j >= 0 && j < n)
            return j;
        snprintf(shown, sizeof shown, "\"%.40s\"", answer_text);
        if (strict && answer_text[0]) {
            abot__diag("the bot answered %s, not a legal choice; strict mode: sending it for the referee to judge",
                       shown);
            *own = answer_text;
            return ABOT_ANSWER;
        }
    } else if (i >= 0 && i < n) {
        return i;
    } else {
        snprintf(shown, sizeof shown, "%d of %d choices", i, n);
    }
    answered = false;
    if (strict) {
        abot__diag("the bot chose %s, not a legal choice; strict mode: sending \"error\" for the referee to judge",
                   shown);
        *own = "error";
        return ABOT_ANSWER;
    }
    int fb = pass_at >= 0 ? pass_at : 0;
    if (pass_at >= 0)
        abot__diag("the bot chose %s, not a legal choice; answering 'pass' (passing is legal)", shown);
    else
        abot__diag("the bot chose %s, not a legal choice; answering '%.80s' (the smallest legal choice, "
                   "passing is not legal)", shown, texts[fb]);
    return fb;
}

bool abot__env_verbose(void)
{
    const char *verbose = getenv("ARBITER_BOT_VERBOSE");
    return verbose && *verbose && strcmp(verbose, "0") != 0;
}

/* ---- Input and output ---------------------------------------------------- */

/* Write one reply line at once: the referee's clock runs until it has it. */
static void say(core *c, const char *line)
{
    char out[ARB_MAX_LINE + 2];
    size_t n = strlen(line);
    if (n > ARB_MAX_LINE)
        n = ARB_MAX_LINE;
    memcpy(out, line, n);
    out[n] = '\n';
    for (size_t off = 0; off < n + 1;) {
        ssize_t w = write(c->out_fd, out + off, n + 1 - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;            /* the referee is gone; the read side sees EOF soon */
        off += (size_t)w;
    }
    if (c->verbose)
        fprintf(stderr, "< %s\n", line);
}

/* Next line from the referee (NUL-terminated, newline and a trailing \r
 * removed), valid until the next call, or NULL at the end of input. A line
 * longer than ARB_MAX_REQUEST is skipped with a diagnostic. */
static char *next_line(core *c)
{
    for (;;) {
        char *from = c->buf + c->start + c->scanned;
        char *nl = memchr(from, '\n', c->len - c->start - c->scanned);
        if (nl) {
            char *line = c->buf + c->start;
            size_t n = (size_t)(nl - line);
            c->start += n + 1;
            c->scanned = 0;
            if (c->discarding) {
                c->discarding = false;
                continue;
            }
            *nl = 0;
            if (n > 0 && line[n - 1] == '\r')
                line[n - 1] = 0;
            return line;
        }
        c->scanned = c->len - c->start;
        if (c->start > 0) {
            /* keep the partial line at the front: one move per line read */
            memmove(c->buf, c->buf + c->start, c->len - c->start);
            c->len -= c->start;
            c->start = 0;
        }
        if (c->len >= LINE_CAP) {
            if (!c->discarding)
                abot__diag("a referee line longer than %u bytes; skipped", ARB_MAX_REQUEST);
            c->len = 0;
            c->scanned = 0;
            c->discarding = true;
        }
        if (c->eof) {
            if (c->len == 0 || c->discarding)
                return NULL;
            c->buf[c->len++] = '\n';   /* a last line without newline */
            continue;
        }
        ssize_t r = read(c->in_fd, c->buf + c->len, LINE_CAP - c->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            c->eof = true;
        else
            c->len += (size_t)r;
    }
}

/* Split a line into words in place; words past `cap` are left out. */
static int split(char *line, char **w, int cap)
{
    int n = 0;
    for (char *p = line; *p && n < cap;) {
        while (*p == ' ' || *p == '\t')
            *p++ = 0;
        if (!*p)
            break;
        w[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    return n;
}

static void set_name(core *c, const char *name)
{
    size_t n = 0;
    bool changed = false;
    for (const char *p = name ? name : ""; *p; p++) {
        if (n == ARB_MAX_BOT_NAME) {
            changed = true;
            break;
        }
        char ch = *p;
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'
                  || ch == '.' || ch == '-';
        changed |= !ok;
        c->name[n++] = ok ? ch : '_';
    }
    c->name[n] = 0;
    if (n == 0)
        snprintf(c->name, sizeof c->name, "bot");
    if (changed || n == 0)
        abot__diag("bot name \"%.40s\" is not 1..%d of [A-Za-z0-9_.-]; using \"%s\"", name ? name : "",
                   ARB_MAX_BOT_NAME, c->name);
}

/* ---- The lines every game shares ----------------------------------------- */

static void on_handshake(core *c, char **w, int n)
{
    if (n < 3 || strcmp(w[1], "1") != 0 || strcmp(w[2], c->game->name) != 0)
        abot__diag("the referee speaks \"%.80s %.80s\"; answering for version 1 %s", n > 1 ? w[1] : "",
                   n > 2 ? w[2] : "", c->game->name);
    char hello[ARB_MAX_BOT_NAME + 32];
    snprintf(hello, sizeof hello, "bot 1 %s%s", c->name, c->ask_legal ? " legal" : "");
    say(c, hello);
}

/* match players N deals N seed N ...: the game reads the rest (rules). */
static void on_match(core *c, char **w, int n)
{
    c->m.players = 0;
    for (int i = 1; i + 1 < n; i += 2) {
        int x;
        if (strcmp(w[i], "players") == 0) {
            if (abot__to_int(w[i + 1], 1, INT32_MAX, &x))
                c->m.players = x;
        } else if (strcmp(w[i], "deals") == 0) {
            if (abot__to_int(w[i + 1], 0, INT32_MAX, &x))
                c->m.deals = x;
        } else if (strcmp(w[i], "seed") == 0) {
            char *end;
            errno = 0;
            unsigned long long seed = strtoull(w[i + 1], &end, 10);
            if (end != w[i + 1] && !*end && !errno && w[i + 1][0] != '-')
                c->m.seed = seed;
            else
                abot__diag("cannot read the seed \"%.40s\"", w[i + 1]);
        }
    }
}

/* clock move MS deal MS bank MS */
static void on_clock(core *c, char **w, int n)
{
    for (int i = 1; i + 1 < n; i += 2) {
        long long x;
        if (!abot__to_ll(w[i + 1], -1, INT64_MAX / 4, &x))
            abot__diag("cannot read the clock's %.20s \"%.40s\"", w[i], w[i + 1]);
        else if (strcmp(w[i], "move") == 0)
            c->m.clock_move_ms = x;
        else if (strcmp(w[i], "deal") == 0)
            c->m.clock_deal_ms = x;
        else if (strcmp(w[i], "bank") == 0)
            c->m.clock_bank_ms = x;
    }
}

/* `option KEY=VALUE`: applied to the view's rules with the game's
 * rules_set; `preset=` only names where the options started. A malformed
 * or refused option is a diagnostic, and the rules stay. */
static void on_option(core *c, char **w, int n)
{
    char *eq = n >= 2 ? strchr(w[1], '=') : NULL;
    if (!eq) {
        abot__diag("cannot read \"option %.80s\"", n >= 2 ? w[1] : "");
        return;
    }
    *eq = 0;
    char err[256];
    if (strcmp(w[1], "preset") != 0 && c->game->set_option(c->view, w[1], eq + 1, err, sizeof err) != 0)
        abot__diag("option %.80s: %s", w[1], err);
}

/* The lines every game reads alike: `match` (its generic part, then the
 * view's), `option`, `clock` and `end`. false for any other line: the
 * view's. */
static bool on_match_line(core *c, char **w, int n)
{
    const char *e = w[0];
    long long ll;
    if (strcmp(e, "match") == 0) {
        on_match(c, w, n);
        c->game->on_match(c->view, &c->m, w, n);
    } else if (strcmp(e, "option") == 0) {
        on_option(c, w, n);
    } else if (strcmp(e, "clock") == 0) {
        on_clock(c, w, n);
        *c->fields.clock_move_ms = c->m.clock_move_ms;
        *c->fields.clock_deal_ms = c->m.clock_deal_ms;
        *c->fields.clock_bank_ms = c->m.clock_bank_ms;
    } else if (strcmp(e, "end") == 0) {
        c->m.has_total = n >= 2 && abot__to_ll(w[1], INT64_MIN / 4, INT64_MAX / 4, &ll);
        if (c->m.has_total) {
            c->m.total = ll;
            *c->fields.total = ll;
        }
        c->m.over = true;
        *c->fields.over = true;
    } else {
        return false;
    }
    return true;
}

/* A line of the referee's explaining a refusal: worth the author's
 * attention. (The view sees it too.) */
static void show_note(char **w, int n)
{
    fprintf(stderr, "arbiter_bot: referee says:");
    for (int i = 0; i < n && i < 64; i++)
        fprintf(stderr, " %.200s", w[i]);
    fputc('\n', stderr);
}

int abot__run(const abot_game *game, void *view, const abot_view_fields *fields, const char *name, int in_fd,
              int out_fd, bool ask_legal, bool verbose)
{
    int rc = 0;
    core *c = calloc(1, sizeof *c);
    if (!c)
        return ARB_ENOMEM;
    c->game = game;
    c->view = view;
    c->fields = *fields;
    *fields->clock_move_ms = *fields->clock_deal_ms = *fields->clock_bank_ms = -1;
    set_name(c, name);
    c->ask_legal = ask_legal;
    c->verbose = verbose;
    c->in_fd = in_fd;
    c->out_fd = out_fd;
    c->m.clock_move_ms = c->m.clock_deal_ms = c->m.clock_bank_ms = -1;
    c->buf = malloc(LINE_CAP + 1);
    c->words = malloc(MAX_WORDS * sizeof *c->words);
    if (!c->buf || !c->words) {
        rc = ARB_ENOMEM;
        goto out;
    }
    for (char *line; (line = next_line(c)) != NULL;) {
        if (c->verbose)
            fprintf(stderr, "> %.200s\n", line);
        /* the line as read, before splitting cuts it: for the observer
         * and for diagnostics (copied, not formatted: this is done for
         * every line) */
        char shown[256];
        size_t shown_len = strnlen(line, sizeof shown - 1);
        memcpy(shown, line, shown_len);
        shown[shown_len] = 0;
        int n = split(line, c->words, MAX_WORDS);
        char **w = c->words;
        if (n == 0)
            continue;
        if (strcmp(w[0], "ask") == 0) {
            char reply[ARB_MAX_LINE + 1] = "pass";
            if (game->on_request(view, &c->m, w, n, reply, sizeof reply))
                say(c, reply);
            continue;
        }
        if (strcmp(w[0], "arbiter") == 0) {
            on_handshake(c, w, n);
            continue;
        }
        if (strcmp(w[0], "note") == 0 || strcmp(w[0], "error") == 0)
            show_note(w, n);
        if (!on_match_line(c, w, n) && !game->on_event(view, &c->m, w, n)) {
            char safe[128];
            size_t k = 0;
            for (; shown[k] && k < sizeof safe - 1; k++)     /* a terminal is not for control bytes */
                safe[k] = shown[k] >= ' ' && shown[k] < 127 ? shown[k] : '?';
            safe[k] = 0;
            abot__diag("cannot read the event \"%s\"; ignored", safe);
        }
        if (game->observed)
            game->observed(view, shown);
        if (c->m.over)
            break;
    }
out:
    free(c->words);
    free(c->buf);
    free(c);
    return rc;
}

const char *abot_name_arg(int argc, char **argv, const char *fallback)
{
    const char *name = fallback;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            name = argv[++i];
        else
            abot__diag("unknown argument \"%.80s\" (usage: %s [--name NAME])", argv[i], argv[0]);
    }
    return name;
}
