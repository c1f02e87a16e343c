/* ddz_cli_moves.c — `arbiter moves` for Dou Dizhu: the rules oracle. Reads
 * "HAND" or "HAND PREV" lines on stdin and answers each with every legal
 * lead or follow (docs/cli.md). The quickest way for a bot author to check
 * a rule. With wild cards the ranks are named (wild_ranks, DDZ-84): the
 * oracle has no deal to draw them from. */
#include "ddz_cli.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_error(const ddz_rules *r, const char *what, int rc)
{
    if (rc == ARB_ERANGE)
        printf("error: %s: more cards of one rank than %u pack%s hold%s\n", what, r->packs,
               r->packs == 1 ? "" : "s", r->packs == 1 ? "s" : "");
    else if (rc == ARB_EPARSE)
        printf("error: %s: not a set of cards (ranks are 3456789TJQKA2BR, '+' names a reading%s)\n", what,
               r->wild_ranks ? ", '=' what wild cards stand for" : "");
    else
        printf("error: %s: %s\n", what, arb_strerror(rc));
}

/* A move as listed: its cards, then, when wild cards stand for other ranks,
 * '=' and what they stand for (DDZ-82); with the reading ('+') when asked. */
static void format_move(const ddz_move *m, uint16_t wild, bool readings, char *buf, size_t len)
{
    ddz_cards rep = ddz_move_represented(m, wild);
    if (rep == m->cards) {
        ddz_move plain = *m;
        plain.subst = 0;
        if (readings)
            ddz_move_format_reading(&plain, buf, len);
        else
            ddz_move_format(&plain, buf, len);
        return;
    }
    if (readings) {
        ddz_move_format_w(m, wild, buf, len);
        return;
    }
    int n = ddz_cards_format(m->cards, buf, len);
    if (n >= 0 && (size_t)n + 1 < len) {
        buf[n] = '=';
        ddz_cards_format(rep, buf + n + 1, len - (size_t)n - 1);
    }
}

static void answer(const ddz_rules *r, char *line, ddz_move *buf, size_t cap, bool readings)
{
    char *tok[3];
    int nt = 0;
    for (char *save = NULL, *p = strtok_r(line, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
        if (nt == 2) {
            printf("error: expected HAND or HAND PREV, got more words\n");
            return;
        }
        tok[nt++] = p;
    }
    if (nt == 0) {
        printf("error: empty line\n");
        return;
    }
    ddz_cards hand, prev_cards, prev_primary, prev_represented;
    uint16_t wild = r->wild_ranks;
    int rc = ddz_cards_parse(r, tok[0], &hand);
    if (rc) {
        print_error(r, "hand", rc);
        return;
    }
    int n;
    if (nt == 1) {
        n = ddz_leads_w(r, wild, hand, buf, cap);
    } else {
        rc = ddz_play_parse_w(r, tok[1], &prev_cards, &prev_represented, &prev_primary);
        if (rc) {
            print_error(r, "previous play", rc);
            return;
        }
        if (prev_cards == 0) {
            printf("error: previous play: a pass is not a play to follow\n");
            return;
        }
        ddz_move prev;
        char why[128];
        /* The previous play is read as a lead would be (or as named). */
        rc = ddz_validate_w(r, wild, prev_cards, NULL, prev_cards, prev_represented, prev_primary, &prev,
                            why, sizeof why);
        if (rc) {
            printf("error: previous play: %s\n", why);
            return;
        }
        n = ddz_follows_w(r, wild, hand, &prev, buf, cap);
    }
    if (n < 0) {
        print_error(r, "enumeration", n);
        return;
    }
    char text[2 * DDZ_MAX_CARDS + 8];
    for (int i = 0; i < n; i++) {
        format_move(&buf[i], wild, readings, text, sizeof text);
        fputs(text, stdout);
        if (readings && buf[i].kind != DDZ_PASS)
            printf("/%s", ddz_kind_name(buf[i].kind));
        putchar(i + 1 < n ? ' ' : '\n');
    }
    if (n == 0)
        putchar('\n');
}

/* What each line of stdin is answered with. */
typedef struct line_ctx {
    const ddz_rules *r;
    ddz_move *buf;         /* ARB_MAX_MOVES */
    bool readings;
} line_ctx;

static void answer_line(void *ctx, char *line)
{
    const line_ctx *c = ctx;
    answer(c->r, line, c->buf, ARB_MAX_MOVES, c->readings);
}

int ddz_cli_moves(const void *rules, const cli_context *ctx, bool readings)
{
    const ddz_rules *r = rules;
    (void)ctx;      /* Dou Dizhu names no context keys: everything in --set is a rule */
    if (r->wild && !r->wild_ranks) {
        /* A deal draws its wild ranks; the oracle has no deal (DDZ-84). */
        fprintf(stderr, "arbiter: moves: wild=%u: name the wild rank%s for the oracle, e.g. --set wild=%u,"
                        "wild_ranks=%s\n", r->wild, r->wild == 1 ? "" : "s", r->wild, r->wild == 1 ? "7" : "7T");
        return CLI_EXIT_USAGE;
    }
    ddz_move *buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "arbiter moves: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    line_ctx c = {r, buf, readings};
    game_cli_answer_lines(stdin, answer_line, &c);
    free(buf);
    return CLI_EXIT_OK;
}
