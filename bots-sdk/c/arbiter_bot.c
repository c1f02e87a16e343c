/* arbiter_bot.c — the protocol loop of the C bot library (arbiter_bot.h):
 * reads the referee's lines, tracks the seat's view, computes legal moves
 * with the rules engine and writes the bot's replies. */
#include "arbiter_bot.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct bot {
    const char *name;
    abot_choose choose;
    void *ctx;
    abot_options opt;
    int in_fd, out_fd;
    char *buf;                 /* input: ARB_MAX_REQUEST + 2 bytes */
    size_t len;
    size_t taken;              /* bytes of the current line, newline included */
    bool discarding;
    bool eof;
    ddz_rules rules;
    abot_view v;
    ddz_move beat;             /* storage for v.to_beat */
    int passes;                /* passes since the last play */
    ddz_move *moves;           /* ARB_MAX_MOVES */
} bot;

static void say(bot *b, const char *line)
{
    size_t n = strlen(line);
    char out[ARB_MAX_LINE + 2];
    if (n > ARB_MAX_LINE)
        n = ARB_MAX_LINE;
    memcpy(out, line, n);
    out[n] = '\n';
    size_t off = 0;
    while (off < n + 1) {
        ssize_t w = write(b->out_fd, out + off, n + 1 - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        off += (size_t)w;
    }
    if (b->opt.verbose)
        fprintf(stderr, "< %s\n", line);
}

/* Next line from the referee (NUL-terminated, newline removed), or NULL at
 * the end of input. Lines longer than ARB_MAX_REQUEST are skipped. */
static char *next_line(bot *b)
{
    static const size_t cap = ARB_MAX_REQUEST + 1;
    for (;;) {
        char *nl = memchr(b->buf, '\n', b->len);
        if (nl) {
            size_t n = (size_t)(nl - b->buf);
            if (b->discarding) {
                memmove(b->buf, nl + 1, b->len - n - 1);
                b->len -= n + 1;
                b->discarding = false;
                continue;
            }
            /* the line stays at the start of the buffer until consume_line */
            *nl = 0;
            b->taken = n + 1;
            if (n > 0 && b->buf[n - 1] == '\r')
                b->buf[n - 1] = 0;
            return b->buf;
        }
        if (b->len >= cap) {
            fprintf(stderr, "arbiter_bot: a referee line longer than %u bytes; skipped\n", ARB_MAX_REQUEST);
            b->len = 0;
            b->discarding = true;
        }
        if (b->eof)
            return NULL;
        ssize_t r = read(b->in_fd, b->buf + b->len, cap - b->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            b->eof = true;
            if (b->len == 0 || b->discarding)
                return NULL;
            b->buf[b->len++] = '\n';   /* a last line without newline */
            continue;
        }
        b->len += (size_t)r;
    }
}

/* Drop the line returned by next_line. */
static void consume_line(bot *b)
{
    memmove(b->buf, b->buf + b->taken, b->len - b->taken);
    b->len -= b->taken;
    b->taken = 0;
}

static void reset_deal(bot *b, int deal, int seat)
{
    abot_view *v = &b->v;
    v->deal = deal;
    v->seat = seat;
    v->hand = 0;
    v->landlord = -1;
    v->stake = 0;
    v->kitty = 0;
    v->wild_ranks = 0;
    v->to_beat = NULL;
    v->to_beat_seat = -1;
    b->passes = 0;
    for (int i = 0; i < DDZ_MAX_SEATS; i++) {
        v->counts[i] = b->rules.hand_size;
        v->played[i] = 0;
    }
}

/* The reading of a play as the referee wrote it ("333444+56 airplane_solo",
 * "3377=333+7 trio_solo"), for comparisons. */
static int read_play(bot *b, const char *cards_text, const char *kind_text, ddz_move *out, ddz_cards *actual)
{
    ddz_cards cards, represented, primary;
    if (ddz_play_parse_w(&b->rules, cards_text, &cards, &represented, &primary) != 0)
        return ARB_EPARSE;
    ddz_kind kind;
    if (ddz_kind_parse(kind_text, &kind) != 0)
        return ARB_EPARSE;
    ddz_move readings[64];
    ddz_cards as = represented ? represented : cards;
    int n = ddz_classify(&b->rules, as, readings, 64);
    int pick = -1;
    for (int i = 0; i < n; i++)
        if (readings[i].kind == kind && (primary == as || ddz_move_primary(&readings[i]) == primary)) {
            if (pick < 0 || readings[i].rank > readings[pick].rank)
                pick = i;
        }
    if (pick < 0)
        return ARB_EPARSE;
    *out = readings[pick];
    *actual = cards;
    return 0;
}

static void on_event(bot *b, char **w, int n)
{
    abot_view *v = &b->v;
    const char *e = w[0];
    if (strcmp(e, "deal") == 0 && n >= 4) {
        reset_deal(b, atoi(w[1]), atoi(w[3]));
    } else if (strcmp(e, "hand") == 0 && n >= 2) {
        ddz_cards c = 0;
        if (strcmp(w[1], "-") != 0 && ddz_cards_parse(&b->rules, w[1], &c) != 0)
            fprintf(stderr, "arbiter_bot: cannot read hand \"%s\"\n", w[1]);
        v->hand = c;
        for (int i = 0; i < v->players; i++)
            v->counts[i] = (int)ddz_total(c);
    } else if (strcmp(e, "wild") == 0 && n >= 2) {
        v->wild_ranks = 0;
        for (const char *p = w[1]; *p; p++) {
            const char *at = strchr(ddz_rank_chars, *p);
            if (at)
                v->wild_ranks |= (uint16_t)(1u << (at - ddz_rank_chars));
        }
    } else if (strcmp(e, "landlord") == 0 && n >= 3) {
        v->landlord = atoi(w[1]);
        v->stake = atoll(w[2]);
    } else if (strcmp(e, "kitty") == 0 && n >= 2) {
        ddz_cards c = 0;
        if (strcmp(w[1], "-") != 0)
            ddz_cards_parse(&b->rules, w[1], &c);
        v->kitty = c;
        if (v->landlord >= 0) {
            v->counts[v->landlord] += (int)ddz_total(c);
            if (v->landlord == v->seat)
                v->hand += c;
        }
    } else if (strcmp(e, "play") == 0 && n >= 4) {
        int s = atoi(w[1]);
        ddz_move m;
        ddz_cards actual;
        if (read_play(b, w[2], w[3], &m, &actual) != 0) {
            fprintf(stderr, "arbiter_bot: cannot read play \"%s %s\"\n", w[2], w[3]);
            return;
        }
        if (s == v->seat && ddz_subset(actual, v->hand))
            v->hand -= actual;
        if (s >= 0 && s < DDZ_MAX_SEATS)
            v->played[s] += actual;
        b->beat = m;
        v->to_beat = &b->beat;
        v->to_beat_seat = s;
        b->passes = 0;
    } else if (strcmp(e, "pass") == 0) {
        if (++b->passes >= v->players - 1) {
            v->to_beat = NULL;
            v->to_beat_seat = -1;
        }
    } else if (strcmp(e, "counts") == 0) {
        for (int i = 1; i < n && i <= DDZ_MAX_SEATS; i++)
            v->counts[i - 1] = atoi(w[i]);
    } else if (strcmp(e, "result") == 0) {
        for (int i = 1; i < n && i <= DDZ_MAX_SEATS; i++)
            v->last_scores[i - 1] = atoll(w[i]);
        if (v->seat + 1 < n)
            v->total += atoll(w[v->seat + 1]);
    } else if (strcmp(e, "note") == 0 || strcmp(e, "error") == 0) {
        fprintf(stderr, "arbiter_bot: referee says:");
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %s", w[i]);
        fprintf(stderr, "\n");
    }
    /* Everything else (first, bid, call, rob, double, show, shown, claim,
     * redeal, penalty, ...) needs no tracking here; unknown events are
     * ignored as the protocol requires. */
}

static const char *const decision_words[] = {"bid", "call", "rob", "double", "show", "claim", "play"};

static int pick(bot *b, const abot_request *r, int n)
{
    int i = b->choose(&b->v, r, b->ctx);
    if (i == ABOT_NO_REPLY)
        return i;
    if (i < 0 || i >= n) {
        fprintf(stderr, "arbiter_bot: the bot chose %d of %d choices; playing the first\n", i, n);
        i = 0;
    }
    return i;
}

static void on_ask(bot *b, char **w, int n)
{
    abot_request r = {.move_ms = -1, .deal_ms = -1, .bank_ms = -1};
    int d = -1;
    for (int i = 0; i < 7; i++)
        if (n >= 2 && strcmp(w[1], decision_words[i]) == 0)
            d = i;
    if (d < 0) {
        fprintf(stderr, "arbiter_bot: unknown request \"%s\"; passing\n", n >= 2 ? w[1] : "");
        say(b, "pass");
        return;
    }
    r.decision = (abot_decision)d;
    int legal_at = n;
    for (int i = 2; i < n; i++) {
        if (strcmp(w[i], "beat") == 0 && i + 3 < n) {
            ddz_move m;
            ddz_cards actual;
            if (read_play(b, w[i + 2], w[i + 3], &m, &actual) == 0) {
                b->beat = m;
                b->v.to_beat = &b->beat;
                b->v.to_beat_seat = atoi(w[i + 1]);
            }
            i += 3;
        } else if (strcmp(w[i], "time") == 0 && i + 3 < n) {
            r.move_ms = atoll(w[i + 1]);
            r.deal_ms = atoll(w[i + 2]);
            r.bank_ms = atoll(w[i + 3]);
            i += 3;
        } else if (strcmp(w[i], "legal") == 0) {
            legal_at = i + 1;
            break;
        }
    }
    if (r.decision == ABOT_PLAY) {
        bool leading = true;
        for (int i = 2; i < n && i < legal_at; i++)
            if (strcmp(w[i], "beat") == 0)
                leading = false;
        if (leading) {
            b->v.to_beat = NULL;
            b->v.to_beat_seat = -1;
        }
        int k = b->v.to_beat
                    ? ddz_follows_w(&b->rules, b->v.wild_ranks, b->v.hand, b->v.to_beat, b->moves, ARB_MAX_MOVES)
                    : ddz_leads_w(&b->rules, b->v.wild_ranks, b->v.hand, b->moves, ARB_MAX_MOVES);
        if (k <= 0) {
            fprintf(stderr, "arbiter_bot: no legal play computed (%d); passing\n", k);
            say(b, "pass");
            return;
        }
        r.moves = b->moves;
        r.nmoves = k;
        int i = pick(b, &r, k);
        if (i == ABOT_NO_REPLY)
            return;
        const ddz_move *m = &b->moves[i];
        if (m->kind == DDZ_PASS) {
            say(b, "pass");
            return;
        }
        char text[ARB_MAX_PLAY_TEXT + 8] = "play ";
        ddz_move_format_w(m, b->v.wild_ranks, text + 5, sizeof text - 5);
        say(b, text);
        return;
    }
    int8_t values[32];
    int nv = 0;
    for (int i = legal_at; i < n && nv < 32; i++)
        values[nv++] = (int8_t)(strcmp(w[i], "pass") == 0 ? 0 : (w[i][0] >= '0' && w[i][0] <= '9') ? atoi(w[i]) : 1);
    if (nv == 0)
        values[nv++] = 0;
    r.values = values;
    r.nvalues = nv;
    int i = pick(b, &r, nv);
    if (i == ABOT_NO_REPLY)
        return;
    int v = values[i];
    char text[32];
    if (v == 0)
        snprintf(text, sizeof text, "pass");
    else if (r.decision == ABOT_BID)
        snprintf(text, sizeof text, "bid %d", v);
    else
        snprintf(text, sizeof text, "%s", decision_words[r.decision]);
    say(b, text);
}

/* Split a line into words in place. */
static int split(char *line, char **w, int cap)
{
    int n = 0;
    for (char *p = line; *p && n < cap;) {
        while (*p == ' ')
            *p++ = 0;
        if (!*p)
            break;
        w[n++] = p;
        while (*p && *p != ' ')
            p++;
    }
    return n;
}

int abot_run_fds(const char *name, int in_fd, int out_fd, abot_choose choose, void *ctx, const abot_options *opt)
{
    bot *b = calloc(1, sizeof *b);
    if (!b)
        return 1;
    b->name = name;
    b->choose = choose;
    b->ctx = ctx;
    if (opt)
        b->opt = *opt;
    b->in_fd = in_fd;
    b->out_fd = out_fd;
    b->buf = malloc(ARB_MAX_REQUEST + 2);
    b->moves = malloc(ARB_MAX_MOVES * sizeof *b->moves);
    /* Words of the longest request: every legal item plus the fixed part. */
    char **w = malloc((ARB_MAX_MOVES + 64) * sizeof *w);
    int rc = 0;
    if (!b->buf || !b->moves || !w) {
        rc = 1;
        goto out;
    }
    ddz_rules_preset(&b->rules, "standard");
    b->v.rules = &b->rules;
    b->v.players = 3;
    b->v.landlord = -1;
    b->v.to_beat_seat = -1;
    for (char *line; (line = next_line(b)) != NULL; consume_line(b)) {
        if (b->opt.verbose)
            fprintf(stderr, "> %.200s\n", line);
        int n = split(line, w, ARB_MAX_MOVES + 64);
        if (n == 0)
            continue;
        if (strcmp(w[0], "ask") == 0) {
            on_ask(b, w, n);
        } else if (strcmp(w[0], "arbiter") == 0) {
            char hello[128];
            snprintf(hello, sizeof hello, "bot 1 %s%s", name, b->opt.ask_legal ? " legal" : "");
            say(b, hello);
        } else if (strcmp(w[0], "match") == 0) {
            for (int i = 1; i + 1 < n; i += 2) {
                if (strcmp(w[i], "players") == 0) b->v.players = atoi(w[i + 1]);
                else if (strcmp(w[i], "deals") == 0) b->v.deals = atoi(w[i + 1]);
                else if (strcmp(w[i], "seed") == 0) b->v.seed = strtoull(w[i + 1], NULL, 10);
                else if (strcmp(w[i], "rules") == 0 && ddz_rules_preset(&b->rules, w[i + 1]) != 0)
                    ddz_rules_preset(&b->rules, "standard");
            }
        } else if (strcmp(w[0], "option") == 0 && n >= 2) {
            char *eq = strchr(w[1], '=');
            char err[256];
            if (eq) {
                *eq = 0;
                if (strcmp(w[1], "preset") != 0 && ddz_rules_set(&b->rules, w[1], eq + 1, err, sizeof err) != 0)
                    fprintf(stderr, "arbiter_bot: option %s: %s\n", w[1], err);
            }
        } else if (strcmp(w[0], "end") == 0) {
            break;
        } else {
            on_event(b, w, n);
        }
    }
out:
    free(w);
    free(b->moves);
    free(b->buf);
    free(b);
    return rc;
}

int abot_run(const char *name, abot_choose choose, void *ctx)
{
    abot_options opt = {.verbose = getenv("ARBITER_BOT_VERBOSE") != NULL};
    return abot_run_fds(name, 0, 1, choose, ctx, &opt);
}

bool abot_is_bomb(const ddz_move *m) { return m->kind == DDZ_BOMB || m->kind == DDZ_ROCKET; }

int abot_strength(ddz_cards h)
{
    int s = 2 * (int)ddz_count(h, DDZ_RR) + 2 * (int)ddz_count(h, DDZ_RB) + (int)ddz_count(h, DDZ_R2);
    for (int x = 0; x <= DDZ_R2; x++)
        if (ddz_count(h, x) >= 4)
            s += 3;
    return s;
}

bool abot_partner(const abot_view *v, int seat)
{
    return seat == v->seat || (v->landlord >= 0 && seat != v->landlord && v->seat != v->landlord);
}
