/* test_dab_rules.c — runs Da Bang's data-driven rule files in
 * games/dabang/tests/data/: each line a position and its expected legal plays,
 * verdicts, trick winners or scores (format in games/dabang/tests/data/README.md),
 * so the cases read against docs/rules/dabang.md rule by rule. */
#include "dabang.h"
#include "test_num.h"
#include "arb_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_dab_set.h"
#include "test_files.h"

static int passed, failed;
static const char *path;
static int lineno;

#define FAIL(...) do { fprintf(stderr, "%s:%d: ", path, lineno); fprintf(stderr, __VA_ARGS__); \
                       fputc('\n', stderr); failed++; return; } while (0)

/* What @set builds up: the trumps and, for `last`, the rules and the
 * attackers' level. */
typedef struct setting {
    int level, suit, other;
    dab_rules rules;
    dab_trump t;
} setting;

static void setting_reset(setting *st)
{
    st->level = DAB_R5;   /* level 5, trump hearts: the doc's examples */
    st->suit = 1;
    st->other = DAB_R5;
    dab_rules_preset(&st->rules, "standard");
    dab_trump_init(&st->t, st->level, st->suit);
}

static int parse_hand(const char *text, dab_hand *h)
{
    char err[160];
    memset(h, 0, sizeof *h);
    if (strcmp(text, "-") == 0)
        return 0;
    return dab_parse_cards(text, DAB_DECK, h, err, sizeof err);
}

static int parse_play(const char *text, dab_play *p)
{
    dab_hand h;
    if (parse_hand(text, &h))
        return -1;
    return dab_play_from_hand(&h, p) ? -1 : 0;
}

static int card_of(const char *text)
{
    const char *p = text;
    int c = dab_parse_card(&p);
    return *p ? -1 : c;
}

/* A play as one number for sorting and comparing sets. */
static unsigned key_of(const dab_play *p)
{
    unsigned k = p->n;
    for (int i = 0; i < DAB_MAX_PLAY; i++)
        k = k * 64 + (i < p->n ? p->c[i] : 0);
    return k;
}

static int cmp_u(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static void key_text(unsigned k, char *out, size_t len)
{
    dab_play p;
    for (int i = DAB_MAX_PLAY - 1; i >= 0; i--) {
        p.c[i] = (uint8_t)(k % 64);
        k /= 64;
    }
    p.n = (uint8_t)k;
    if (dab_format_play(&p, out, len) < 0)
        snprintf(out, len, "?");
}

static void show_diff(const unsigned *got, int ng, const unsigned *want, int nw)
{
    char t[16];
    int i = 0, j = 0;
    while (i < ng || j < nw) {
        if (j >= nw || (i < ng && got[i] < want[j])) {
            key_text(got[i++], t, sizeof t);
            fprintf(stderr, "    unexpected: %s\n", t);
        } else if (i >= ng || want[j] < got[i]) {
            key_text(want[j++], t, sizeof t);
            fprintf(stderr, "    missing:    %s\n", t);
        } else {
            i++;
            j++;
        }
    }
}

static dab_play plays[DAB_MAX_PLAYS];
static unsigned got[DAB_MAX_PLAYS], want[DAB_MAX_PLAYS];

/* leads / follows and their -has / -lacks forms. */
static void run_enum(setting *st, char **w, int nw, char *rhs)
{
    bool follow = strncmp(w[0], "follows", 7) == 0;
    const char *mode = strchr(w[0], '-') ? strchr(w[0], '-') + 1 : "";
    dab_hand h;
    dab_play led;
    if (nw != (follow ? 3 : 2) || parse_hand(w[1], &h))
        FAIL("bad hand");
    if (follow && (parse_play(w[2], &led) || dab_play_shape(&led) == DAB_MIXED))
        FAIL("bad led play %s", w[2]);
    int n = follow ? dab_follows(&st->t, &h, &led, plays, DAB_MAX_PLAYS) : dab_leads(&st->t, &h, plays, DAB_MAX_PLAYS);
    if (n < 0)
        FAIL("enumeration failed: %s", arb_strerror(n));
    for (int i = 0; i < n; i++) {
        char why[200];
        if (dab_check_play(&st->t, &h, follow ? &led : NULL, &plays[i], why, sizeof why)) {
            char t[16];
            dab_format_play(&plays[i], t, sizeof t);
            FAIL("enumerated %s does not validate: %s", t, why);
        }
        got[i] = key_of(&plays[i]);
    }
    qsort(got, (size_t)n, sizeof got[0], cmp_u);
    for (int i = 1; i < n; i++)
        if (got[i] == got[i - 1])
            FAIL("a play listed twice");
    if (!rhs)
        FAIL("missing =>");
    int nwant = 0;
    for (char *save = NULL, *t = strtok_r(rhs, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        dab_play p;
        if (nwant >= DAB_MAX_PLAYS || parse_play(t, &p))
            FAIL("bad expected play %s", t);
        want[nwant++] = key_of(&p);
    }
    qsort(want, (size_t)nwant, sizeof want[0], cmp_u);
    if (!*mode) {
        if (n != nwant || memcmp(got, want, (size_t)n * sizeof got[0]) != 0) {
            fprintf(stderr, "%s:%d: %s differ (got %d, expected %d)\n", path, lineno, w[0], n, nwant);
            show_diff(got, n, want, nwant);
            failed++;
            return;
        }
    } else {
        bool has = strcmp(mode, "has") == 0;
        if (!has && strcmp(mode, "lacks") != 0)
            FAIL("unknown directive %s", w[0]);
        for (int j = 0; j < nwant; j++)
            if ((bsearch(&want[j], got, (size_t)n, sizeof got[0], cmp_u) != NULL) != has) {
                char t[16];
                key_text(want[j], t, sizeof t);
                FAIL("%s: %s %s", w[0], t, has ? "missing" : "present");
            }
    }
    passed++;
}

/* legal HAND LED PLAY; illegal HAND LED PLAY [TEXT] (LED "-": a lead). */
static void run_check(setting *st, char **w, int nw)
{
    bool legal = strcmp(w[0], "legal") == 0;
    dab_hand h;
    dab_play led, p;
    if (nw < 4 || (legal && nw != 4) || (!legal && nw > 5) || parse_hand(w[1], &h))
        FAIL("bad %s directive", w[0]);
    bool lead = strcmp(w[2], "-") == 0;
    if (!lead && parse_play(w[2], &led))
        FAIL("bad led play %s", w[2]);
    /* the play may be anything dab_play can hold: up to three cards */
    dab_hand ph;
    if (parse_hand(w[3], &ph) || ph.total > DAB_MAX_PLAY)
        FAIL("bad play %s", w[3]);
    memset(&p, 0, sizeof p);
    for (int c = 0; c < DAB_NCARDS; c++)
        for (int k = 0; k < ph.n[c]; k++)
            p.c[p.n++] = (uint8_t)c;
    char why[200] = "";
    int rc = dab_check_play(&st->t, &h, lead ? NULL : &led, &p, why, sizeof why);
    if (legal && rc)
        FAIL("%s rejected: %s", w[3], why);
    if (!legal) {
        if (rc != ARB_EILLEGAL)
            FAIL("%s accepted", w[3]);
        if (nw == 5 && !strstr(why, w[4]))
            FAIL("reason \"%s\" does not name %s", why, w[4]);
    }
    passed++;
}

/* trick P0 P1 P2 P3 => W POINTS */
static void run_trick(setting *st, char **w, int nw, char *rhs)
{
    dab_play p[DAB_SEATS];
    int pts = 0;
    if (nw != 5 || !rhs)
        FAIL("bad trick directive");
    for (int i = 0; i < DAB_SEATS; i++) {
        if (parse_play(w[1 + i], &p[i]) || p[i].n != p[0].n)
            FAIL("bad play %s", w[1 + i]);
        pts += dab_play_points(&p[i]);
    }
    int ww, wp;
    if (sscanf(rhs, "%d %d", &ww, &wp) != 2)
        FAIL("bad expectation");
    int gw = dab_trick_winner(&st->t, p, DAB_SEATS);
    if (gw != ww || pts != wp)
        FAIL("expected winner %d with %d points, got %d with %d", ww, wp, gw, pts);
    passed++;
}

/* order C1 > C2 | C1 = C2 | C1 ~ C2 (side cards of two suits: never
 * compare) — power (DB-11) and single against single (DB-25, DB-26). */
static void run_order(setting *st, char **w, int nw)
{
    if (nw != 4)
        FAIL("bad order directive");
    int a = card_of(w[1]), b = card_of(w[3]);
    if (a < 0 || b < 0)
        FAIL("bad card");
    dab_play pa = {1, {(uint8_t)a}}, pb = {1, {(uint8_t)b}};
    bool ab = dab_beats(&st->t, &pa, &pb), ba = dab_beats(&st->t, &pb, &pa);
    int wa = st->t.power[a], wb = st->t.power[b];
    const char *op = w[2];
    if (strcmp(op, ">") == 0) {
        if (!(wa > wb && ab && !ba))
            FAIL("%s > %s: powers %d %d, beats %d %d", w[1], w[3], wa, wb, ab, ba);
    } else if (strcmp(op, "=") == 0) {
        if (!(wa == wb && !ab && !ba))
            FAIL("%s = %s: powers %d %d, beats %d %d", w[1], w[3], wa, wb, ab, ba);
    } else if (strcmp(op, "~") == 0) {
        if (ab || ba || st->t.fsuit[a] == st->t.fsuit[b] || dab_is_trump(&st->t, a) || dab_is_trump(&st->t, b))
            FAIL("%s ~ %s: beats %d %d", w[1], w[3], ab, ba);
    } else {
        FAIL("unknown order %s", op);
    }
    passed++;
}

/* suit CARD => S|H|C|D|trump: the suit for following (DB-10, DB-12). */
static void run_suit(setting *st, char **w, int nw, char *rhs)
{
    char exp[16] = "";
    int c = nw == 2 ? card_of(w[1]) : -1;
    if (c < 0 || !rhs || sscanf(rhs, "%15s", exp) != 1)
        FAIL("bad suit directive");
    const char *names[] = {"S", "H", "C", "D", "trump"};
    if (strcmp(names[st->t.fsuit[c]], exp) != 0)
        FAIL("%s follows as %s, expected %s", w[1], names[st->t.fsuit[c]], exp);
    passed++;
}

/* parse TEXT => CANONICAL | parse TEXT => error; points CARDS => N. */
static void run_parse(char **w, int nw, char *rhs)
{
    char exp[400] = "", out[400], err[200] = "";
    if (nw != 2 || !rhs || sscanf(rhs, "%399s", exp) != 1)
        FAIL("bad %s directive", w[0]);
    dab_hand h;
    memset(&h, 0, sizeof h);
    int rc = dab_parse_cards(w[1], DAB_DECK, &h, err, sizeof err);
    if (strcmp(w[0], "points") == 0) {
        if (rc || dab_hand_points(&h) != (int)test_num(exp, INT_MIN, INT_MAX))
            FAIL("points of %s: %d, expected %s", w[1], dab_hand_points(&h), exp);
        passed++;
        return;
    }
    if (strcmp(exp, "error") == 0) {
        if (rc != ARB_EPARSE || !err[0])
            FAIL("%s parsed", w[1]);
    } else {
        int hn = rc ? -1 : dab_format_hand(&h, out, sizeof out);
        if (hn < 0 || strcmp(out, exp) != 0 || (size_t)hn != strlen(exp))
            FAIL("%s: got \"%s\" (%s), expected %s", w[1], rc ? "" : out, err, exp);
        dab_hand again = {0};
        if (dab_parse_cards(out, DAB_DECK, &again, err, sizeof err) || memcmp(&again, &h, sizeof h))
            FAIL("%s does not read back", out);
    }
    passed++;
}

/* last A LEADER P0 P1 P2 P3 KITTY => POINTS CASE [key=value ...]: the
 * 打家 is seat 0 (team 0 declares at the @set level, team 1 attacks at
 * `other`); the attackers hold A points from earlier tricks; seat LEADER
 * leads the last trick P0..P3 (in playing order) over the final kitty.
 * Keys: rise=TEAM:N, levels=XY (level letters, W passed), next=SEAT,
 * blood=N, winner=TEAM, dug=0|1. */
static void run_last(setting *st, char **w, int nw, char *rhs)
{
    if (nw != 8 || !rhs)
        FAIL("bad last directive");
    dab_state s;
    memset(&s, 0, sizeof s);
    s.rules = st->rules;
    s.ctx.dajia = 0;
    s.ctx.level[0] = (uint8_t)st->level;
    s.ctx.level[1] = (uint8_t)st->other;
    s.dajia = 0;
    s.level = (uint8_t)st->level;
    s.trump = st->t;
    s.trump_known = true;
    s.decl_seat = 0;
    s.last_winner = -1;
    s.last_leader = -1;
    s.out.rise_team = -1;
    s.out.winner = -1;
    int leader = (int)test_num(w[2], INT_MIN, INT_MAX);
    if (leader < 0 || leader >= DAB_SEATS || parse_hand(w[7], &s.kitty) || s.kitty.total != DAB_KITTY)
        FAIL("bad leader or kitty");
    dab_play p[DAB_SEATS];
    int trick_pts = 0;
    for (int i = 0; i < DAB_SEATS; i++) {
        if (parse_play(w[3 + i], &p[i]) || p[i].n != p[0].n)
            FAIL("bad play %s", w[3 + i]);
        dab_play_to_hand(&p[i], &s.hand[(leader + i) % DAB_SEATS]);
        trick_pts += dab_play_points(&p[i]);
    }
    int a = (int)test_num(w[1], INT_MIN, INT_MAX);
    s.points[1] = (int16_t)a;
    s.points[0] = (int16_t)(300 - a - trick_pts - dab_hand_points(&s.kitty));
    if (s.points[0] < 0)
        FAIL("more than 300 points");
    s.phase = DAB_PH_TRICKS;
    s.leader = (int8_t)leader;
    s.to_act = (int8_t)leader;
    s.winner_idx = -1;
    for (int i = 0; i < DAB_SEATS; i++) {
        char why[200];
        if (dab_do_play(&s, &p[i], why, sizeof why))
            FAIL("play %s refused: %s", w[3 + i], why);
    }
    if (s.phase != DAB_PH_OVER)
        FAIL("the deal did not end");
    const dab_outcome *o = &s.out;
    int wp, wk;
    char *kv = rhs;
    if (sscanf(rhs, "%d %d", &wp, &wk) != 2)
        FAIL("bad expectation");
    if (o->points != wp || o->kase != wk)
        FAIL("expected %d points case %d, got %d points case %d", wp, wk, o->points, o->kase);
    if (s.points[0] + s.points[1] + o->kitty_points != 300)
        FAIL("the tricks and the kitty hold %d points", s.points[0] + s.points[1] + o->kitty_points);
    char *save = NULL;
    strtok_r(kv, " \t", &save);
    strtok_r(NULL, " \t", &save);
    static const char lv[] = "3456789TW";
    for (char *t = strtok_r(NULL, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(t, '=');
        if (!eq)
            FAIL("bad key %s", t);
        *eq = 0;
        const char *v = eq + 1;
        char gotv[32];
        if (strcmp(t, "rise") == 0)
            snprintf(gotv, sizeof gotv, o->rise_team < 0 ? "none" : "%d:%d", o->rise_team, o->rise);
        else if (strcmp(t, "levels") == 0)
            snprintf(gotv, sizeof gotv, "%c%c", lv[o->level_after[0] > 8 ? 8 : o->level_after[0]],
                     lv[o->level_after[1] > 8 ? 8 : o->level_after[1]]);
        else if (strcmp(t, "next") == 0)
            snprintf(gotv, sizeof gotv, "%d", o->next_dajia);
        else if (strcmp(t, "blood") == 0)
            snprintf(gotv, sizeof gotv, "%d", o->blood_next);
        else if (strcmp(t, "winner") == 0)
            snprintf(gotv, sizeof gotv, "%d", o->winner);
        else if (strcmp(t, "dug") == 0)
            snprintf(gotv, sizeof gotv, "%d", o->dug);
        else
            FAIL("unknown key %s", t);
        if (strcmp(gotv, v) != 0)
            FAIL("%s: expected %s, got %s", t, v, gotv);
    }
    passed++;
}

static void run_set(setting *st, char *list)
{
    char err[256];
    if (dab_test_set(list, &st->rules, &st->level, &st->suit, &st->other, err, sizeof err))
        FAIL("%s", err);
    dab_trump_init(&st->t, st->level, st->suit);
    passed++;
}

static void run_line(setting *st, char *line)
{
    char *rhs = NULL, *arrow = strstr(line, "=>");
    if (arrow) {
        *arrow = 0;
        rhs = arrow + 2;
    }
    char *w[10];
    int nw = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && nw < 10; t = strtok_r(NULL, " \t", &save))
        w[nw++] = t;
    if (nw == 0)
        FAIL("empty directive");
    const char *op = w[0];
    if (strcmp(op, "@set") == 0) {
        if (nw != 2)
            FAIL("bad @set");
        run_set(st, w[1]);
    } else if (strncmp(op, "leads", 5) == 0 || strncmp(op, "follows", 7) == 0) {
        run_enum(st, w, nw, rhs);
    } else if (strcmp(op, "legal") == 0 || strcmp(op, "illegal") == 0) {
        run_check(st, w, nw);
    } else if (strcmp(op, "trick") == 0) {
        run_trick(st, w, nw, rhs);
    } else if (strcmp(op, "order") == 0) {
        run_order(st, w, nw);
    } else if (strcmp(op, "suit") == 0) {
        run_suit(st, w, nw, rhs);
    } else if (strcmp(op, "parse") == 0 || strcmp(op, "points") == 0) {
        run_parse(w, nw, rhs);
    } else if (strcmp(op, "last") == 0) {
        run_last(st, w, nw, rhs);
    } else {
        FAIL("unknown directive \"%s\"", op);
    }
}

static void each_line(void *ctx, char *line) { run_line(ctx, line); }

static void run_file(const char *file)
{
    path = file;
    setting st;
    setting_reset(&st);
    if (!test_each_directive(file, &lineno, each_line, &st)) {
        fprintf(stderr, "%s: cannot open\n", file);
        failed++;
    }
}

/* A directory runs every *.txt file in it, in name order. */
static void run_path(const char *p)
{
    if (test_each_txt(p, run_file) == 0) {
        fprintf(stderr, "%s: no rule files\n", p);
        failed++;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_dab_rules FILE|DIR...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        run_path(argv[i]);
    printf("dabang-rules: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
