/* dab_cli_moves.c — Da Bang's oracles: `arbiter moves` (every legal lead or
 * follow of a hand) and `arbiter trick` (who wins a trick, its points),
 * both within a deal named by --set level=L,trump=S (docs/rules/notation.md,
 * "Da Bang"). Lines in, one answer a line out; a bad line gets
 * "error: <reason>" and reading goes on. */
#include "dab_cli.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The deal's trumps from the context; false after a usage message. */
static bool context_trump(const char *command, const cli_context *ctx, dab_trump *t)
{
    const char *lv = cli_context_get(ctx, "level"), *tr = cli_context_get(ctx, "trump");
    if (!lv || !tr) {
        fprintf(stderr,
                "arbiter: %s: dabang answers within a deal: give %s with --set level=L,trump=S "
                "(L one of 3456789T, S one of SHCD)\n",
                command, !lv && !tr ? "the level and the trump suit" : !lv ? "the level" : "the trump suit");
        return false;
    }
    int level = strcmp(lv, "10") == 0 ? DAB_RT : dab_level_parse(lv);
    if (level < 0) {
        fprintf(stderr, "arbiter: %s: --set level=%s: expected a level, one of 3456789T\n", command, lv);
        return false;
    }
    int suit = dab_suit_parse(tr);
    if (suit < 0) {
        fprintf(stderr, "arbiter: %s: --set trump=%s: expected a suit, one of SHCD\n", command, tr);
        return false;
    }
    dab_trump_init(t, level, suit);
    return true;
}

/* Split a line into at most max words; the count, or max + 1 when there
 * are more. */
static int words(char *line, char **w, int max)
{
    int n = 0;
    for (char *save = NULL, *p = strtok_r(line, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return max + 1;
        w[n++] = p;
    }
    return n;
}

/* A play as the oracles read it: one to three cards. */
static bool read_play(const char *what, const char *text, dab_play *p)
{
    dab_hand h = {0};
    char err[160];
    if (dab_parse_cards(text, DAB_MAX_PLAY, &h, err, sizeof err)) {
        printf("error: %s: %s\n", what, err);
        return false;
    }
    if (dab_play_from_hand(&h, p)) {
        printf("error: %s: no cards\n", what);
        return false;
    }
    return true;
}

static bool is_lead(const char *what, const dab_play *p)
{
    if (dab_play_shape(p) != DAB_MIXED)
        return true;
    printf("error: %s: a lead is one card, or two or three identical cards (DB-20)\n", what);
    return false;
}

/* Three packs: no card more than three times among all the cards named. */
static bool within_packs(const char *what, const dab_hand *all)
{
    for (int c = 0; c < DAB_NCARDS; c++)
        if (all->n[c] > DAB_COPIES) {
            char card[4];
            dab_format_card(c, card, sizeof card);
            printf("error: %s hold %d of %s (three packs)\n", what, all->n[c], card);
            return false;
        }
    return true;
}

/* The order the oracle prints plays in (docs/rules/notation.md): fewer
 * cards first, then by card ids, lexicographically (a play's ids ascend). */
static int play_order(const void *a, const void *b)
{
    const dab_play *p = a, *q = b;
    if (p->n != q->n)
        return p->n < q->n ? -1 : 1;
    for (int i = 0; i < p->n; i++)
        if (p->c[i] != q->c[i])
            return p->c[i] < q->c[i] ? -1 : 1;
    return 0;
}

static void answer_moves(const dab_trump *t, char *line, dab_play *buf, int cap)
{
    char *w[2];
    int nw = words(line, w, 2);
    if (nw == 0 || nw > 2) {
        printf("error: expected HAND or HAND LED, got %s\n", nw ? "more words" : "an empty line");
        return;
    }
    dab_hand hand = {0};
    char err[160];
    if (dab_parse_cards(w[0], DAB_HAND, &hand, err, sizeof err)) {
        printf("error: hand: %s\n", err);
        return;
    }
    if (hand.total == 0) {
        printf("error: hand: no cards\n");
        return;
    }
    int n;
    if (nw == 1) {
        n = dab_leads(t, &hand, buf, cap);
    } else {
        dab_play led;
        if (!read_play("led play", w[1], &led) || !is_lead("led play", &led))
            return;
        if (hand.total < led.n) {
            printf("error: the hand holds %d card%s, fewer than the %d led\n", hand.total, hand.total == 1 ? "" : "s",
                   led.n);
            return;
        }
        dab_hand all = hand;
        for (int i = 0; i < led.n; i++)
            all.n[led.c[i]]++;
        if (!within_packs("the hand and the led play", &all))
            return;
        n = dab_follows(t, &hand, &led, buf, cap);
    }
    if (n < 0) {
        printf("error: enumeration: %s\n", arb_strerror(n));
        return;
    }
    qsort(buf, (size_t)n, sizeof *buf, play_order);
    char text[3 * DAB_MAX_PLAY + 1];
    for (int i = 0; i < n; i++) {
        dab_format_play(&buf[i], text, sizeof text);
        fputs(text, stdout);
        putchar(i + 1 < n ? ' ' : '\n');
    }
    if (n == 0)
        putchar('\n');
}

static void answer_trick(const dab_trump *t, char *line)
{
    char *w[DAB_SEATS];
    int nw = words(line, w, DAB_SEATS);
    if (nw != DAB_SEATS) {
        printf("error: expected the four plays of a trick, P0 P1 P2 P3, got %s\n",
               nw > DAB_SEATS ? "more words" : nw == 0 ? "an empty line" : "fewer");
        return;
    }
    dab_play plays[DAB_SEATS];
    dab_hand all = {0};
    for (int i = 0; i < DAB_SEATS; i++) {
        char what[8];
        snprintf(what, sizeof what, "P%d", i);
        if (!read_play(what, w[i], &plays[i]))
            return;
        if (i == 0 && !is_lead(what, &plays[0]))
            return;
        if (plays[i].n != plays[0].n) {
            printf("error: %s: %d card%s to a lead of %d (DB-21)\n", what, plays[i].n, plays[i].n == 1 ? "" : "s",
                   plays[0].n);
            return;
        }
        for (int k = 0; k < plays[i].n; k++)
            all.n[plays[i].c[k]]++;
    }
    if (!within_packs("the four plays", &all))
        return;
    int points = 0;
    for (int i = 0; i < DAB_SEATS; i++)
        points += dab_play_points(&plays[i]);
    printf("%d %d\n", dab_trick_winner(t, plays, DAB_SEATS), points);
}

/* What the lines of stdin are answered with: the plays that follow (buf
 * for them) or, for trick, the winner and the points. */
typedef struct line_ctx {
    const dab_trump *t;
    dab_play *buf;
    int cap;
    bool moves;
} line_ctx;

static void answer_line(void *ctx, char *line)
{
    const line_ctx *c = ctx;
    if (c->moves)
        answer_moves(c->t, line, c->buf, c->cap);
    else
        answer_trick(c->t, line);
}

static int read_lines(const dab_trump *t, dab_play *buf, int cap, bool moves)
{
    line_ctx c = {t, buf, cap, moves};
    game_cli_answer_lines(stdin, answer_line, &c);
    return CLI_EXIT_OK;
}

int dab_cli_moves(const void *rules, const cli_context *ctx, bool readings)
{
    (void)rules;    /* following and winning do not depend on the options */
    dab_trump t;
    if (readings) {
        fprintf(stderr, "arbiter: moves: --readings: a Da Bang play has one reading\n");
        return CLI_EXIT_USAGE;
    }
    if (!context_trump("moves", ctx, &t))
        return CLI_EXIT_USAGE;
    dab_play *buf = malloc(DAB_MAX_PLAYS * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "arbiter: moves: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    int rc = read_lines(&t, buf, DAB_MAX_PLAYS, true);
    free(buf);
    return rc;
}

int dab_cli_trick(const void *rules, const cli_context *ctx)
{
    (void)rules;
    dab_trump t;
    if (!context_trump("trick", ctx, &t))
        return CLI_EXIT_USAGE;
    return read_lines(&t, NULL, 0, false);
}
