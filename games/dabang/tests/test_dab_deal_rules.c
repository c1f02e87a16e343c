/* test_dab_deal_rules.c — runs Da Bang's data-driven scenario files in
 * games/dabang/tests/data/deal/: deals built at one step (a stacked deck, the
 * closing round, the tribute, a buried kitty) or from a seed, then the
 * options the engine offers, decisions applied through dab_do_*, and the
 * state they lead to; and matches fed deal by deal. The language is in
 * games/dabang/tests/data/README.md ("Deal scenarios"). */
#include "dabang.h"
#include "test_num.h"
#include "arb_error.h"
#include "arb_rng.h"
#include "game.h"

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

static const char suit_chars[] = "SHCD";
static const char level_chars[] = "3456789TW";
static const char *const phase_names[] = {"draw", "close", "tribute", "return", "bury", "jokers", "take", "tricks",
                                          "over"};

/* One file's world: the @set values, the cards @hand and @kitty put down
 * for the next builder, and what the builders made (a deal or a match). */
typedef struct world {
    int level, suit, other;
    dab_rules rules;
    int seq[DAB_SEATS][DAB_HAND + DAB_KITTY];   /* @hand: cards in the order given */
    int nseq[DAB_SEATS];
    int kitty[DAB_KITTY];
    int nkitty;
    enum { NONE, DEAL, MATCH } mode;
    dab_state s;
    dab_context ctx;               /* the deal's context, for seeded rebuilds */
    dab_match m;
    uint8_t player_at[DAB_SEATS];
} world;

static void world_reset(world *w)
{
    memset(w, 0, sizeof *w);
    w->level = DAB_R5;
    w->suit = 1;
    w->other = DAB_R5;
    dab_rules_preset(&w->rules, "standard");
    for (int i = 0; i < DAB_SEATS; i++)
        w->player_at[i] = (uint8_t)i;
}

/* ---- Cards and declarations as text -------------------------------------- */

/* Cards in the order written, into out (at most max); "-" is none. The
 * count, or -1. */
static int parse_seq(const char *text, int *out, int max)
{
    if (strcmp(text, "-") == 0)
        return 0;
    int n = 0;
    while (*text) {
        int c = dab_parse_card(&text);
        if (c < 0 || n >= max)
            return -1;
        out[n++] = c;
    }
    return n;
}

static int parse_hand(const char *text, dab_hand *h)
{
    int seq[DAB_DECK];
    int n = parse_seq(text, seq, DAB_DECK);
    memset(h, 0, sizeof *h);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        h->n[seq[i]]++;
        h->total++;
    }
    return 0;
}

static int card_of(const char *text)
{
    const char *p = text;
    int c = dab_parse_card(&p);
    return *p ? -1 : c;
}

static void hand_text(const dab_hand *h, char *buf, size_t len)
{
    if (h->total == 0 || dab_format_hand(h, buf, len) < 0)
        snprintf(buf, len, "-");
}

static void card_text(int c, char *buf, size_t len)
{
    if (dab_format_card(c, buf, len) < 0)
        snprintf(buf, len, "?");
}

/* A declaration as the cards shown: "5H", "5H5H", "BJBJBJ:S", "RJ" (the
 * first deal's big joker). */
static void decl_text(const dab_decl *d, int level, char *buf, size_t len)
{
    char c[8];
    switch (d->kind) {
    case DAB_DECL_LEVEL:
        card_text(level * 4 + d->suit, c, sizeof c);
        snprintf(buf, len, "%s%s%s", c, d->count > 1 ? c : "", d->count > 2 ? c : "");
        break;
    case DAB_DECL_BJ3: snprintf(buf, len, "BJBJBJ:%c", suit_chars[d->suit]); break;
    case DAB_DECL_RJ3: snprintf(buf, len, "RJRJRJ:%c", suit_chars[d->suit]); break;
    case DAB_DECL_BIGJOKER: snprintf(buf, len, "RJ"); break;
    default: snprintf(buf, len, "none");
    }
}

static int parse_decl(const char *text, int level, dab_decl *d)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s", text);
    char *colon = strchr(buf, ':');
    int suit = -1;
    if (colon) {
        *colon = 0;
        const char *sc = strchr(suit_chars, colon[1]);
        if (!colon[1] || colon[2] || !sc)
            return -1;
        suit = (int)(sc - suit_chars);
    }
    dab_hand h;
    if (parse_hand(buf, &h) || h.total == 0 || h.total > 3)
        return -1;
    if (h.n[DAB_RJ] == 1 && h.total == 1 && suit < 0) {
        *d = (dab_decl){DAB_DECL_BIGJOKER, 1, -1};
        return 0;
    }
    if ((h.n[DAB_BJ] == 3 || h.n[DAB_RJ] == 3) && suit >= 0) {
        *d = (dab_decl){h.n[DAB_BJ] ? DAB_DECL_BJ3 : DAB_DECL_RJ3, 3, (int8_t)suit};
        return 0;
    }
    for (int u = 0; u < 4; u++)
        if (h.n[level * 4 + u] == h.total && suit < 0) {
            *d = (dab_decl){DAB_DECL_LEVEL, (int8_t)h.total, (int8_t)u};
            return 0;
        }
    return -1;
}

/* ---- Comparing lists of words ---------------------------------------------- */

/* got (n words) against the expected words in rhs ("-": none), as sets. */
static void compare_sets(const char *what, char got[][24], int n, char *rhs)
{
    char *want[128], *gp[128];
    int nw = 0;
    for (char *save = NULL, *t = strtok_r(rhs, " \t", &save); t && nw < 128; t = strtok_r(NULL, " \t", &save))
        if (strcmp(t, "-") != 0)
            want[nw++] = t;
    for (int i = 0; i < n; i++)
        gp[i] = got[i];
    qsort(want, (size_t)nw, sizeof want[0], test_cmp_names);
    qsort(gp, (size_t)n, sizeof gp[0], test_cmp_names);
    bool same = n == nw;
    for (int i = 0; same && i < n; i++)
        same = strcmp(gp[i], want[i]) == 0;
    if (!same) {
        fprintf(stderr, "%s:%d: %s differ: got", path, lineno, what);
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %s", gp[i]);
        fprintf(stderr, ", expected");
        for (int i = 0; i < nw; i++)
            fprintf(stderr, " %s", want[i]);
        fputc('\n', stderr);
        failed++;
        return;
    }
    passed++;
}

/* ---- Builders ------------------------------------------------------------- */

/* What dab_deal's restart does after the shuffle: the kitty from the deck's
 * last six, nobody declared, nothing played. */
static void fresh(dab_state *s)
{
    for (int i = 0; i < DAB_KITTY; i++) {
        s->kitty_orig[i] = s->deck[DAB_DECK - DAB_KITTY + i];
        s->kitty.n[s->kitty_orig[i]]++;
    }
    s->kitty.total = DAB_KITTY;
    s->decl_seat = -1;
    s->winner_idx = -1;
    s->last_winner = -1;
    s->leader = -1;
    s->last_leader = -1;
    memset(s->flips, -1, sizeof s->flips);
    s->out.rise_team = -1;
    s->out.winner = -1;
}

/* A builder takes the cards @hand and @kitty put down: the next scenario
 * lists its own. */
static void consume(world *w)
{
    memset(w->nseq, 0, sizeof w->nseq);
    w->nkitty = 0;
    w->mode = DEAL;
}

/* Keys shared by the builders: first=0|1 dajia=D drawer=F blood=N seed=N. */
typedef struct keys {
    int first, dajia, drawer, blood, shown;
    uint64_t seed;
    char decl[32];
} keys;

static int parse_keys(char **w, int nw, keys *k)
{
    *k = (keys){.first = 0, .dajia = 0, .drawer = -1, .blood = 0, .shown = 1, .seed = 1};
    for (int i = 0; i < nw; i++) {
        char *eq = strchr(w[i], '=');
        if (!eq)
            return -1;
        *eq = 0;
        const char *v = eq + 1;
        if (strcmp(w[i], "first") == 0) k->first = (int)test_num(v, INT_MIN, INT_MAX);
        else if (strcmp(w[i], "dajia") == 0) k->dajia = (int)test_num(v, INT_MIN, INT_MAX);
        else if (strcmp(w[i], "drawer") == 0) k->drawer = (int)test_num(v, INT_MIN, INT_MAX);
        else if (strcmp(w[i], "blood") == 0) k->blood = (int)test_num(v, INT_MIN, INT_MAX);
        else if (strcmp(w[i], "shown") == 0) k->shown = (int)test_num(v, INT_MIN, INT_MAX);
        else if (strcmp(w[i], "seed") == 0) k->seed = strtoull(v, NULL, 10);
        else if (strcmp(w[i], "decl") == 0) snprintf(k->decl, sizeof k->decl, "%s", v);
        else return -1;
        *eq = '=';
    }
    if (k->dajia < 0 || k->dajia >= DAB_SEATS || k->drawer >= DAB_SEATS)
        return -1;
    if (k->drawer < 0)
        k->drawer = k->dajia;
    return 0;
}

/* The deal's context from the world: the declarers (the 打家's team) at
 * `level`, the others at `other`; the first deal both at `level`. */
static void context_of(const world *w, const keys *k, dab_context *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->first = k->first;
    ctx->dajia = (int8_t)(k->first ? -1 : k->dajia);
    ctx->level[dab_team(k->dajia)] = (uint8_t)w->level;
    ctx->level[1 - dab_team(k->dajia)] = (uint8_t)(k->first ? w->level : w->other);
    ctx->blood = (uint8_t)k->blood;
}

/* @deal first|later KEYS: a stacked deck. Each seat draws its @hand cards
 * in the order written, then filler: distinct cards in id order that are
 * neither jokers nor of the deal's level rank nor among its listed cards;
 * the kitty is @kitty, in order. The draw then runs as the engine runs it
 * (dab_advance), to its first question. */
static void build_deal(world *w, char **wd, int nw)
{
    keys k;
    if (nw < 2 || (strcmp(wd[1], "first") && strcmp(wd[1], "later")) || parse_keys(wd + 2, nw - 2, &k))
        FAIL("bad @deal");
    k.first = strcmp(wd[1], "first") == 0;
    if (!k.first)
        k.drawer = k.dajia;                                      /* DB-41 */
    if (w->nkitty != DAB_KITTY)
        FAIL("@deal needs a six-card @kitty");
    dab_state *s = &w->s;
    memset(s, 0, sizeof *s);
    s->rules = w->rules;
    s->seed = k.seed;
    context_of(w, &k, &s->ctx);
    w->ctx = s->ctx;
    s->first_drawer = (uint8_t)k.drawer;
    s->dajia = (int8_t)(k.first ? -1 : k.dajia);
    s->level = (uint8_t)w->level;
    for (int seat = 0; seat < DAB_SEATS; seat++) {
        if (w->nseq[seat] > DAB_HAND)
            FAIL("seat %d lists more than 39 cards", seat);
        int filler = 0;
        for (int i = 0; i < DAB_HAND; i++) {
            int c;
            if (i < w->nseq[seat]) {
                c = w->seq[seat][i];
            } else {
                for (;; filler++) {
                    if (filler >= DAB_BJ)
                        FAIL("no filler left for seat %d", seat);
                    bool listed = false;
                    for (int j = 0; j < w->nseq[seat]; j++)
                        listed |= w->seq[seat][j] == filler;
                    if (!listed && dab_rank(filler) != w->level)
                        break;
                }
                c = filler++;
            }
            int p = ((seat - k.drawer + DAB_SEATS) % DAB_SEATS) + DAB_SEATS * i;
            s->deck[p] = (uint8_t)c;
        }
    }
    for (int i = 0; i < DAB_KITTY; i++)
        s->deck[DAB_DECK - DAB_KITTY + i] = (uint8_t)w->kitty[i];
    fresh(s);
    s->phase = DAB_PH_DRAW;
    dab_advance(s);
    consume(w);
    passed++;
}

/* @state close|tribute|buried KEYS: the hands are @hand, the kitty @kitty;
 * the trump suit is @set's (its level the declarers'). close: every card
 * drawn, the closing round from the first drawer, decl=CARDS@SEAT
 * standing; tribute: declaring over (shown=0 when nobody declared), blood
 * owed; buried: the 打家 has buried @kitty. Then dab_advance. */
static void build_state(world *w, char **wd, int nw)
{
    keys k;
    if (nw < 2 || parse_keys(wd + 2, nw - 2, &k))
        FAIL("bad @state");
    const char *ph = wd[1];
    if (strcmp(ph, "close") && strcmp(ph, "tribute") && strcmp(ph, "buried"))
        FAIL("unknown @state phase %s", ph);
    if (w->nkitty != DAB_KITTY)
        FAIL("@state needs a six-card @kitty");
    dab_state *s = &w->s;
    memset(s, 0, sizeof *s);
    s->rules = w->rules;
    s->seed = k.seed;
    context_of(w, &k, &s->ctx);
    w->ctx = s->ctx;
    s->level = (uint8_t)w->level;
    for (int i = 0; i < DAB_KITTY; i++)
        s->deck[DAB_DECK - DAB_KITTY + i] = (uint8_t)w->kitty[i];
    fresh(s);
    for (int seat = 0; seat < DAB_SEATS; seat++)
        for (int i = 0; i < w->nseq[seat]; i++) {
            s->hand[seat].n[w->seq[seat][i]]++;
            s->hand[seat].total++;
        }
    s->drawn = DAB_DECK - DAB_KITTY;
    s->first_drawer = (uint8_t)k.drawer;
    s->dajia = (int8_t)(k.first && !strcmp(ph, "close") ? -1 : k.dajia);
    if (k.decl[0]) {
        char *at = strchr(k.decl, '@');
        if (!at)
            FAIL("decl=CARDS@SEAT");
        *at = 0;
        if (parse_decl(k.decl, w->level, &s->decl))
            FAIL("bad declaration %s", k.decl);
        s->decl_seat = (int8_t)(int)test_num(at + 1, INT_MIN, INT_MAX);
        if (s->decl.kind == DAB_DECL_BIGJOKER)
            s->decl.suit = (int8_t)w->suit;
    }
    if (strcmp(ph, "close") == 0) {
        /* the closing round's first question: every option offered anew */
        s->phase = DAB_PH_CLOSE;
        s->to_act = (int8_t)k.drawer;
    } else {
        s->decl.suit = (int8_t)w->suit;
        dab_trump_init(&s->trump, w->level, w->suit);
        s->trump_known = true;
        s->kitty_shown = k.shown;
        s->trump_from = k.shown ? 0 : 2;
        memcpy(s->dealt, s->hand, sizeof s->dealt);
        if (strcmp(ph, "tribute") == 0) {
            s->blood_left = (uint8_t)(k.first || !w->rules.tribute ? 0 : k.blood);
            s->phase = DAB_PH_TRIBUTE;
        } else {
            s->buried = DAB_KITTY;
            s->phase = DAB_PH_BURY;
        }
    }
    dab_advance(s);
    consume(w);
    passed++;
}

/* @seed N first|later KEYS: dab_deal / dab_deal_in, to the first question. */
static void build_seed(world *w, char **wd, int nw)
{
    keys k;
    if (nw < 3 || (strcmp(wd[2], "first") && strcmp(wd[2], "later")) || parse_keys(wd + 3, nw - 3, &k))
        FAIL("bad @seed");
    k.first = strcmp(wd[2], "first") == 0;
    uint64_t seed = strtoull(wd[1], NULL, 10);
    context_of(w, &k, &w->ctx);
    int rc = k.first ? dab_deal(&w->s, &w->rules, seed) : dab_deal_in(&w->s, &w->rules, seed, &w->ctx);
    if (rc)
        FAIL("deal refused: %s", arb_strerror(rc));
    if (k.first)
        w->ctx = w->s.ctx;
    w->mode = DEAL;
    passed++;
}

/* ---- Deal directives ------------------------------------------------------- */

static int pass_all(dab_state *s);

static void options_of(const world *w, int seat, char got[][24], int *n)
{
    uint32_t m = dab_declare_options(&w->s, seat);
    *n = 0;
    for (int b = 0; b < 32; b++)
        if (m >> b & 1u) {
            dab_decl d;
            dab_decl_of_bit(b, &d);
            decl_text(&d, w->s.level, got[(*n)++], 24);
        }
}

/* declare-options SEAT => OPTION ... | - */
static void run_declare_options(world *w, char **wd, int nw, char *rhs)
{
    if (w->mode != DEAL || nw != 2 || !rhs)
        FAIL("bad declare-options");
    int seat = (int)test_num(wd[1], INT_MIN, INT_MAX);
    if (seat < 0 || seat >= DAB_SEATS)
        FAIL("bad seat");
    char got[32][24];
    int n;
    options_of(w, seat, got, &n);
    compare_sets("declaring options", got, n, rhs);
}

/* tribute-options / return-options / bury-options / take-options => CARD ... */
static void run_card_options(world *w, char **wd, int nw, char *rhs)
{
    if (w->mode != DEAL || nw != 1 || !rhs)
        FAIL("bad %s", wd[0]);
    dab_phase want = strcmp(wd[0], "tribute-options") == 0 ? DAB_PH_TRIBUTE
                    : strcmp(wd[0], "return-options") == 0 ? DAB_PH_RETURN
                    : strcmp(wd[0], "take-options") == 0 ? DAB_PH_TAKE : DAB_PH_BURY;
    if (w->s.phase != want)
        FAIL("%s in phase %s", wd[0], phase_names[w->s.phase]);
    dab_hand h;
    dab_card_options(&w->s, &h);
    char got[DAB_NCARDS][24];
    int n = 0;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (h.n[c])
            card_text(c, got[n++], 24);
    compare_sets(wd[0], got, n, rhs);
}

/* joker-options => JOKER | - */
static void run_joker_options(world *w, int nw, char *rhs)
{
    if (w->mode != DEAL || nw != 1 || !rhs)
        FAIL("bad joker-options");
    dab_hand j;
    dab_joker_options(&w->s, &j);
    char got[2][24];
    int n = 0;
    for (int a = DAB_BJ; a <= DAB_RJ; a++)
        if (j.n[a])
            card_text(a, got[n++], 24);
    compare_sets("joker options", got, n, rhs);
}

/* One decision of the seat to act, read by the decision asked. */
static int apply(world *w, const char *act, char *why, size_t whylen)
{
    dab_state *s = &w->s;
    bool pass = strcmp(act, "pass") == 0;
    switch (dab_decision(s)) {
    case DAB_DEC_DECLARE: {
        dab_decl d = {DAB_DECL_NONE, 0, -1};
        if (!pass && parse_decl(act, s->level, &d))
            return -2;
        return dab_do_declare(s, &d, why, whylen);
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY:
    case DAB_DEC_TAKE: {
        int c = card_of(act);
        return c < 0 ? -2 : dab_do_card(s, c, why, whylen);
    }
    case DAB_DEC_JOKER: {
        if (pass)
            return dab_do_joker(s, -1, why, whylen);
        int j = card_of(act);
        return j < 0 ? -2 : dab_do_joker(s, j, why, whylen);
    }
    case ARB_DEC_PLAY: {
        dab_hand h;
        dab_play p;
        if (parse_hand(act, &h) || dab_play_from_hand(&h, &p))
            return -2;
        return dab_do_play(s, &p, why, whylen);
    }
    default:
        snprintf(why, whylen, "the deal is over");
        return ARB_EILLEGAL;
    }
}

/* do ACTION [ACTION ...] — each accepted in turn; do ACTION => refused WORD:
 * refused, the reason naming WORD, and the state unchanged. */
static void run_do(world *w, char **wd, int nw, char *rhs)
{
    if (w->mode != DEAL || nw < 2)
        FAIL("bad do");
    char word[64] = "";
    bool refuse = false;
    if (rhs) {
        char what[16] = "";
        if (sscanf(rhs, "%15s %63s", what, word) < 1 || strcmp(what, "refused") != 0 || nw != 2)
            FAIL("do ACTION => refused [WORD]");
        refuse = true;
    }
    for (int i = 1; i < nw; i++) {
        char why[256] = "";
        static dab_state before;
        memcpy(&before, &w->s, sizeof before);
        int rc = apply(w, wd[i], why, sizeof why);
        if (rc == -2)
            FAIL("cannot read %s as a %s decision", wd[i], phase_names[w->s.phase]);
        if (refuse) {
            if (rc != ARB_EILLEGAL)
                FAIL("%s accepted", wd[i]);
            if (!strstr(why, word))
                FAIL("reason \"%s\" does not name %s", why, word);
            if (memcmp(&before, &w->s, sizeof before) != 0)
                FAIL("a refused %s changed the deal", wd[i]);
        } else if (rc) {
            FAIL("%s refused: %s", wd[i], why);
        }
    }
    passed++;
}

/* pass-all [=> N]: every declaring question passed until declaring ends;
 * N: how many questions were asked. */
static void run_pass_all(world *w, char *rhs)
{
    if (w->mode != DEAL)
        FAIL("pass-all without a deal");
    int asked = pass_all(&w->s);
    if (asked < 0)
        FAIL("a pass was refused");
    if (rhs && (int)test_num(rhs, INT_MIN, INT_MAX) != asked)
        FAIL("%d questions, expected %s", asked, rhs);
    passed++;
}

/* The value of a deal key as text. */
static int deal_value(const world *w, const char *key, char *v, size_t len)
{
    const dab_state *s = &w->s;
    const dab_outcome *o = &s->out;
    if (strcmp(key, "phase") == 0) snprintf(v, len, "%s", phase_names[s->phase]);
    else if (strcmp(key, "to_act") == 0) snprintf(v, len, "%d", dab_to_act(s));
    else if (strcmp(key, "drawn") == 0) snprintf(v, len, "%d", s->drawn);
    else if (strcmp(key, "first") == 0) snprintf(v, len, "%d", s->first_drawer);
    else if (strcmp(key, "dajia") == 0) snprintf(v, len, "%d", s->dajia);
    else if (strcmp(key, "trump") == 0) snprintf(v, len, "%c", s->trump_known ? suit_chars[s->trump.suit] : '-');
    else if (strcmp(key, "level") == 0) snprintf(v, len, "%c", level_chars[s->level]);
    else if (strcmp(key, "from") == 0)
        snprintf(v, len, "%s", !s->trump_known ? "-" : s->trump_from == 0 ? "declared" : s->trump_from == 1 ? "flip" : "kitty");
    else if (strcmp(key, "decl") == 0) {
        char d[24];
        decl_text(&s->decl, s->level, d, sizeof d);
        if (s->decl.kind == DAB_DECL_NONE)
            snprintf(v, len, "none");
        else
            snprintf(v, len, "%s@%d", d, s->decl_seat);
    } else if (strcmp(key, "flips") == 0) {
        /* in the order flipped */
        size_t at = 0;
        v[0] = 0;
        for (int i = 0; i < 4 && s->flips[i] >= 0 && at + 3 <= len; i++) {
            card_text(s->flips[i], v + at, len - at);
            at += strlen(v + at);
        }
        if (at == 0)
            snprintf(v, len, "-");
    }
    else if (strcmp(key, "redeals") == 0) snprintf(v, len, "%d", s->redeals);
    else if (strcmp(key, "shown") == 0) snprintf(v, len, "%d", s->kitty_shown);
    else if (strcmp(key, "dry") == 0) snprintf(v, len, "%d", s->dry);
    else if (strcmp(key, "public") == 0) snprintf(v, len, "%d", s->kitty_public);
    else if (strcmp(key, "took") == 0) card_text(s->took, v, len);
    else if (strcmp(key, "others") == 0) snprintf(v, len, "%d", s->others_may);
    else if (strcmp(key, "blood") == 0) snprintf(v, len, "%d", s->blood_left);
    else if (strcmp(key, "given") == 0) snprintf(v, len, "%d", s->ntribute);
    else if (strcmp(key, "kitty") == 0) hand_text(&s->kitty, v, len);
    else if (strncmp(key, "hand.", 5) == 0 && key[5] >= '0' && key[5] <= '3' && !key[6])
        hand_text(&s->hand[key[5] - '0'], v, len);
    else if (strcmp(key, "points") == 0) snprintf(v, len, "%d", o->points);
    else if (strcmp(key, "case") == 0) snprintf(v, len, "%d", o->kase);
    else if (strcmp(key, "rise") == 0) snprintf(v, len, o->rise_team < 0 ? "none" : "%d:%d", o->rise_team, o->rise);
    else if (strcmp(key, "levels") == 0)
        snprintf(v, len, "%c%c", level_chars[o->level_after[0] > 8 ? 8 : o->level_after[0]],
                 level_chars[o->level_after[1] > 8 ? 8 : o->level_after[1]]);
    else if (strcmp(key, "next") == 0) snprintf(v, len, "%d", o->next_dajia);
    else if (strcmp(key, "blood_next") == 0) snprintf(v, len, "%d", o->blood_next);
    else if (strcmp(key, "winner") == 0) snprintf(v, len, "%d", o->winner);
    else return -1;
    return 0;
}

/* The value of a match key as text. */
static int match_value(const world *w, const char *key, char *v, size_t len)
{
    const dab_match *m = &w->m;
    arb_standing st;
    const arb_game *g = arb_game_find("dabang");
    if (!g || g->match_result(m, &st))
        return -1;
    if (strcmp(key, "levels") == 0)
        snprintf(v, len, "%c%c", level_chars[m->level[0]], level_chars[m->level[1]]);
    else if (strcmp(key, "stage") == 0) snprintf(v, len, "%d", m->stage_team);
    else if (strcmp(key, "dajia") == 0) snprintf(v, len, "%d", m->dajia_player);
    else if (strcmp(key, "blood") == 0) snprintf(v, len, "%d", m->blood);
    else if (strcmp(key, "played") == 0) snprintf(v, len, "%u", m->played);
    else if (strcmp(key, "over") == 0) snprintf(v, len, "%d", dab_match_over(m));
    else if (strcmp(key, "winner") == 0) snprintf(v, len, "%d", dab_match_winner(m));
    else if (strcmp(key, "score") == 0) snprintf(v, len, "%lld:%lld", (long long)st.team_score[0], (long long)st.team_score[1]);
    else if (strcmp(key, "decided") == 0) snprintf(v, len, "%d", st.decided);
    else if (strcmp(key, "winner_team") == 0) snprintf(v, len, "%d", st.winner_team);
    else return -1;
    return 0;
}

/* expect key=value ...: the deal's state, or the match's. */
static void run_expect(world *w, char **wd, int nw)
{
    if (w->mode == NONE || nw < 2)
        FAIL("expect without a deal or a match");
    for (int i = 1; i < nw; i++) {
        char *eq = strchr(wd[i], '=');
        if (!eq)
            FAIL("bad key %s", wd[i]);
        *eq = 0;
        char got[400], want[400];
        int rc = w->mode == DEAL ? deal_value(w, wd[i], got, sizeof got) : match_value(w, wd[i], got, sizeof got);
        if (rc)
            FAIL("unknown key %s", wd[i]);
        snprintf(want, sizeof want, "%s", eq + 1);
        /* cards held are a multiset: written in any order */
        if (w->mode == DEAL && (strcmp(wd[i], "kitty") == 0 || strncmp(wd[i], "hand.", 5) == 0)) {
            dab_hand h;
            if (parse_hand(eq + 1, &h))
                FAIL("bad cards %s", eq + 1);
            hand_text(&h, want, sizeof want);
        }
        if (strcmp(got, want) != 0)
            FAIL("%s: expected %s, got %s", wd[i], eq + 1, got);
    }
    passed++;
}

/* ---- Seeded deals: facts computed from the shuffle ----------------------------- */

/* Every declaring question passed until declaring ends: how many were
 * asked, or -1 when a pass is refused. */
static int pass_all(dab_state *s)
{
    int asked = 0;
    while (dab_decision(s) == DAB_DEC_DECLARE && asked < 10000) {
        char why[200];
        dab_decl d = {DAB_DECL_NONE, 0, -1};
        if (dab_do_declare(s, &d, why, sizeof why))
            return -1;
        asked++;
    }
    return asked;
}

/* The shuffle of DB-2, computed here from the documented stream. */
static void shuffle_of(uint64_t seed, int redeals, uint8_t *deck)
{
    for (int i = 0; i < DAB_DECK; i++)
        deck[i] = (uint8_t)(i / DAB_COPIES);
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_childn(seed, "shuffle", (uint64_t)redeals));
    arb_rng_shuffle_u8(&rng, deck, DAB_DECK);
}

/* DB-2, DB-3: the deal (declaring over) is the documented shuffle drawn
 * one card at a time from the first drawer: 39 each, the kitty the last
 * six; and the same seed and context deal it again. */
static bool check_deal(const world *w, char *why, size_t len)
{
    const dab_state *s = &w->s;
    uint8_t deck[DAB_DECK];
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(s->seed, "first"));
    int drawer = w->ctx.first ? (int)arb_rng_below(&rng, DAB_SEATS) : w->ctx.dajia;     /* DB-40, DB-41 */
    if (s->first_drawer != drawer) {
        snprintf(why, len, "first drawer %d, expected %d", s->first_drawer, drawer);
        return false;
    }
    shuffle_of(s->seed, s->redeals, deck);
    if (memcmp(deck, s->deck, sizeof deck) != 0) {
        snprintf(why, len, "the deck is not the seed's shuffle %d", s->redeals);
        return false;
    }
    int count[DAB_NCARDS] = {0};
    for (int i = 0; i < DAB_DECK; i++)
        count[deck[i]]++;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (count[c] != DAB_COPIES) {
            snprintf(why, len, "card %d appears %d times", c, count[c]);
            return false;
        }
    dab_hand want[DAB_SEATS];
    memset(want, 0, sizeof want);
    for (int p = 0; p < DAB_DECK - DAB_KITTY; p++) {
        want[(s->first_drawer + p) % DAB_SEATS].n[deck[p]]++;
        want[(s->first_drawer + p) % DAB_SEATS].total++;
    }
    for (int seat = 0; seat < DAB_SEATS; seat++)
        if (want[seat].total != DAB_HAND || memcmp(&want[seat], &s->dealt[seat], sizeof want[seat]) != 0) {
            snprintf(why, len, "seat %d was not dealt its 39 cards of the deck", seat);
            return false;
        }
    if (memcmp(s->kitty_orig, deck + DAB_DECK - DAB_KITTY, DAB_KITTY) != 0) {
        snprintf(why, len, "the kitty is not the deck's last six cards");
        return false;
    }
    static dab_state again;
    if (w->ctx.first)
        dab_deal(&again, &s->rules, s->seed);
    else
        dab_deal_in(&again, &s->rules, s->seed, &w->ctx);
    pass_all(&again);
    if (memcmp(again.deck, s->deck, sizeof deck) != 0 || memcmp(again.dealt, s->dealt, sizeof s->dealt) != 0
        || again.first_drawer != s->first_drawer) {
        snprintf(why, len, "the same seed dealt another deal");
        return false;
    }
    return true;
}

/* deal-check: check_deal on the current deal, declaring passed. */
static void run_deal_check(world *w)
{
    char why[200];
    if (w->mode != DEAL || dab_decision(&w->s) == DAB_DEC_DECLARE)
        FAIL("deal-check needs a seeded deal past declaring");
    if (!check_deal(w, why, sizeof why))
        FAIL("%s", why);
    passed++;
}

/* DB-48: where the first question of a seeded deal must come, from the
 * deck alone: the first draw after which the drawer holds a declaration —
 * in the first deal a big joker (DB-42), later a level card or three
 * identical jokers (DB-44, DB-45). -1: nobody is asked while drawing. */
static int first_question(const uint8_t *deck, int first_drawer, bool first, int level)
{
    int bj[DAB_SEATS] = {0}, rj[DAB_SEATS] = {0};
    for (int p = 0; p < DAB_DECK - DAB_KITTY; p++) {
        int seat = (first_drawer + p) % DAB_SEATS, c = deck[p];
        bj[seat] += c == DAB_BJ;
        rj[seat] += c == DAB_RJ;
        if (first ? c == DAB_RJ : dab_rank(c) == level || (c == DAB_BJ && bj[seat] == 3) || (c == DAB_RJ && rj[seat] == 3))
            return p;
    }
    return -1;
}

/* sweep N deal|ask: over seeds 1..N under the world's context (@set, and
 * `first`/`later dajia=D`): `deal` — check_deal after every question
 * passed; `ask` — the first question comes where first_question says, to
 * that drawer, offering what he then holds; none while drawing: declaring
 * is over or the closing round asks. */
static void run_sweep(world *w, char **wd, int nw)
{
    keys k;
    if (nw < 4 || (strcmp(wd[3], "first") && strcmp(wd[3], "later")) || parse_keys(wd + 4, nw - 4, &k))
        FAIL("sweep N deal|ask first|later [dajia=D blood=N]");
    k.first = strcmp(wd[3], "first") == 0;
    long n = test_num(wd[1], LONG_MIN, LONG_MAX);
    bool ask = strcmp(wd[2], "ask") == 0;
    if (n <= 0 || (!ask && strcmp(wd[2], "deal") != 0))
        FAIL("bad sweep");
    context_of(w, &k, &w->ctx);
    long asked = 0;
    for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
        if (k.first)
            dab_deal(&w->s, &w->rules, seed);
        else
            dab_deal_in(&w->s, &w->rules, seed, &w->ctx);
        w->mode = DEAL;
        if (k.first)
            w->ctx = w->s.ctx;
        dab_state *s = &w->s;
        char why[200];
        if (!ask) {
            if (pass_all(s) < 0 || !check_deal(w, why, sizeof why))
                FAIL("seed %llu: %s", (unsigned long long)seed, why);
            continue;
        }
        uint8_t deck[DAB_DECK];
        arb_rng rng;
        arb_rng_seed(&rng, arb_seed_child(seed, "first"));
        int drawer = k.first ? (int)arb_rng_below(&rng, DAB_SEATS) : k.dajia;     /* DB-40, DB-41 */
        if (s->first_drawer != drawer)
            FAIL("seed %llu: first drawer %d, expected %d", (unsigned long long)seed, s->first_drawer, drawer);
        /* a deal nobody could declare in may be redealt (DB-43, DB-46):
         * the question then comes in the redeal's draw */
        int p = -1, r = 0;
        for (; r <= s->redeals; r++) {
            shuffle_of(seed, r, deck);
            p = first_question(deck, drawer, k.first, w->level);
            if (p >= 0)
                break;
        }
        if (p < 0) {
            if (s->phase == DAB_PH_DRAW)
                FAIL("seed %llu: asked at draw %d, though nobody could declare", (unsigned long long)seed, s->drawn);
            continue;
        }
        if (r != s->redeals)
            FAIL("seed %llu: redealt %d times, though a question was due in shuffle %d", (unsigned long long)seed,
                 s->redeals, r);
        asked++;
        int seat = (drawer + p) % DAB_SEATS;
        if (s->phase != DAB_PH_DRAW || s->drawn != p + 1 || s->to_act != seat)
            FAIL("seed %llu: first question %s at draw %d to seat %d, expected draw %d to seat %d",
                 (unsigned long long)seed, phase_names[s->phase], s->drawn, s->to_act, p + 1, seat);
        uint32_t m = dab_declare_options(s, seat);
        int c = deck[p];
        uint32_t want = k.first ? 1u << 20
                        : dab_rank(c) == w->level ? 1u << (dab_suit(c) * 3)
                        : 0xFu << (c == DAB_BJ ? 12 : 16);
        if ((m & want) != want || (k.first && m != want))
            FAIL("seed %llu: options %#x lack %#x", (unsigned long long)seed, m, want);
    }
    if (ask && asked < n / 2)
        FAIL("only %ld of %ld deals asked while drawing", asked, n);
    passed++;
}

/* ---- The match --------------------------------------------------------------- */

/* @match [limit=N]: a new match under @set's rules (start_level …). */
static void build_match(world *w, char **wd, int nw)
{
    uint32_t limit = 0;
    for (int i = 1; i < nw; i++)
        if (strncmp(wd[i], "limit=", 6) == 0)
            limit = (uint32_t)test_num(wd[i] + 6, 0, UINT32_MAX);
        else
            FAIL("bad @match key %s", wd[i]);
    dab_match_init(&w->m, &w->rules, limit);
    for (int i = 0; i < DAB_SEATS; i++)
        w->player_at[i] = (uint8_t)i;
    w->mode = MATCH;
    passed++;
}

/* seats ABCD: the players in seats 0..3 for the next deals. */
static void run_seats(world *w, char **wd, int nw)
{
    bool seen[DAB_SEATS] = {false};
    if (w->mode != MATCH || nw != 2 || strlen(wd[1]) != DAB_SEATS)
        FAIL("bad seats");
    for (int i = 0; i < DAB_SEATS; i++) {
        int p = wd[1][i] - '0';
        if (p < 0 || p >= DAB_SEATS || seen[p])
            FAIL("bad seats %s", wd[1]);
        seen[p] = true;
        w->player_at[i] = (uint8_t)p;
    }
    passed++;
}

/* deal A [dug=1] [kitty=CARDS] [dajia=SEAT]: one deal of the match from
 * dab_match_context: the attackers hold A points at the end (the kitty's
 * share, doubled, included when dug); the last trick, one card each, is
 * played through dab_do_play — the 打家 leads a low side card and the
 * attacker after him wins it with the suit's ace when dug; then
 * dab_match_fold. The first deal names its 打家 (dajia=SEAT). */
static void run_match_deal(world *w, char **wd, int nw)
{
    if (w->mode != MATCH || nw < 2)
        FAIL("bad deal");
    int a = (int)test_num(wd[1], INT_MIN, INT_MAX), dug = 0, dajia = -1;
    dab_hand kitty;
    parse_hand("3C3C3C4D4D4D", &kitty);
    for (int i = 2; i < nw; i++) {
        if (strncmp(wd[i], "dug=", 4) == 0)
            dug = (int)test_num(wd[i] + 4, INT_MIN, INT_MAX);
        else if (strncmp(wd[i], "dajia=", 6) == 0)
            dajia = (int)test_num(wd[i] + 6, INT_MIN, INT_MAX);
        else if (strncmp(wd[i], "kitty=", 6) != 0 || parse_hand(wd[i] + 6, &kitty) || kitty.total != DAB_KITTY)
            FAIL("bad deal key %s", wd[i]);
    }
    dab_context ctx;
    dab_match_context(&w->m, w->player_at, &ctx);
    if (!ctx.first && dajia >= 0 && dajia != ctx.dajia)
        FAIL("the match names seat %d the 打家, not %d", ctx.dajia, dajia);
    if (!ctx.first)
        dajia = ctx.dajia;
    if (dajia < 0 || dajia >= DAB_SEATS)
        FAIL("the first deal names its dajia=SEAT");
    dab_state *s = &w->s;
    memset(s, 0, sizeof *s);
    s->rules = w->m.rules;
    s->ctx = ctx;
    s->dajia = (int8_t)dajia;
    s->level = ctx.first ? ctx.level[0] : ctx.level[dab_team(dajia)];
    dab_trump_init(&s->trump, s->level, w->suit);
    s->trump_known = true;
    s->decl = (dab_decl){DAB_DECL_LEVEL, 1, (int8_t)w->suit};
    s->decl_seat = (int8_t)dajia;
    s->kitty = kitty;
    s->last_winner = -1;
    s->last_leader = -1;
    s->out.rise_team = -1;
    s->out.winner = -1;
    int side = (w->suit + 1) % 4, low = s->level == DAB_R3 ? 1 : 0;
    int dteam = dab_team(dajia), ateam = 1 - dteam;
    int kp = dab_hand_points(&kitty);
    s->points[ateam] = (int16_t)(a - (dug ? kp * w->m.rules.kitty_multiplier : 0));
    s->points[dteam] = (int16_t)(300 - kp - s->points[ateam]);
    if (s->points[ateam] < 0 || s->points[dteam] < 0)
        FAIL("%d points cannot be scored with this kitty", a);
    dab_play p[DAB_SEATS];
    for (int i = 0; i < DAB_SEATS; i++) {
        int c = (i == 1 && dug ? DAB_RA : low) * 4 + side;
        p[i] = (dab_play){1, {(uint8_t)c}};
        dab_play_to_hand(&p[i], &s->hand[(dajia + i) % DAB_SEATS]);
    }
    s->phase = DAB_PH_TRICKS;
    s->leader = (int8_t)dajia;
    s->to_act = (int8_t)dajia;
    s->winner_idx = -1;
    for (int i = 0; i < DAB_SEATS; i++) {
        char why[200];
        if (dab_do_play(s, &p[i], why, sizeof why))
            FAIL("last trick refused: %s", why);
    }
    if (s->phase != DAB_PH_OVER || s->out.points != a)
        FAIL("the deal scored %d, not %d", s->out.points, a);
    dab_match_fold(&w->m, s, w->player_at, -1);
    passed++;
}

/* forfeit SEAT: the deal forfeited by that seat (DB-72). */
static void run_forfeit(world *w, char **wd, int nw)
{
    if (w->mode != MATCH || nw != 2)
        FAIL("bad forfeit");
    int seat = (int)test_num(wd[1], INT_MIN, INT_MAX);
    if (seat < 0 || seat >= DAB_SEATS)
        FAIL("bad seat");
    dab_match_fold(&w->m, NULL, w->player_at, seat);
    passed++;
}

/* ---- Files ---------------------------------------------------------------------- */

static void run_set(world *w, char *list)
{
    char err[256];
    if (dab_test_set(list, &w->rules, &w->level, &w->suit, &w->other, err, sizeof err))
        FAIL("%s", err);
    passed++;
}

static void run_line(world *w, char *line)
{
    char *rhs = NULL, *arrow = strstr(line, "=>");
    if (arrow) {
        *arrow = 0;
        rhs = arrow + 2;
    }
    char *wd[48];
    int nw = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && nw < 48; t = strtok_r(NULL, " \t", &save))
        wd[nw++] = t;
    if (nw == 0)
        FAIL("empty directive");
    const char *op = wd[0];
    if (strcmp(op, "@set") == 0) {
        if (nw != 2)
            FAIL("bad @set");
        run_set(w, wd[1]);
    } else if (strcmp(op, "@hand") == 0) {
        /* the cards may be spread over several words */
        int seat = nw >= 3 && strlen(wd[1]) == 1 ? wd[1][0] - '0' : -1;
        if (seat < 0 || seat >= DAB_SEATS)
            FAIL("bad @hand seat");
        w->nseq[seat] = 0;
        for (int i = 2; i < nw; i++) {
            int n = parse_seq(wd[i], w->seq[seat] + w->nseq[seat], DAB_HAND + DAB_KITTY - w->nseq[seat]);
            if (n < 0) {
                w->nseq[seat] = 0;
                FAIL("bad @hand cards %s", wd[i]);
            }
            w->nseq[seat] += n;
        }
        passed++;
    } else if (strcmp(op, "@kitty") == 0) {
        if (nw != 2 || (w->nkitty = parse_seq(wd[1], w->kitty, DAB_KITTY)) != DAB_KITTY)
            FAIL("bad @kitty: six cards");
        passed++;
    } else if (strcmp(op, "@deal") == 0) {
        build_deal(w, wd, nw);
    } else if (strcmp(op, "@state") == 0) {
        build_state(w, wd, nw);
    } else if (strcmp(op, "@seed") == 0) {
        build_seed(w, wd, nw);
    } else if (strcmp(op, "@match") == 0) {
        build_match(w, wd, nw);
    } else if (strcmp(op, "declare-options") == 0) {
        run_declare_options(w, wd, nw, rhs);
    } else if (strcmp(op, "tribute-options") == 0 || strcmp(op, "return-options") == 0
               || strcmp(op, "bury-options") == 0 || strcmp(op, "take-options") == 0) {
        run_card_options(w, wd, nw, rhs);
    } else if (strcmp(op, "joker-options") == 0) {
        run_joker_options(w, nw, rhs);
    } else if (strcmp(op, "do") == 0) {
        run_do(w, wd, nw, rhs);
    } else if (strcmp(op, "pass-all") == 0) {
        run_pass_all(w, rhs);
    } else if (strcmp(op, "expect") == 0) {
        run_expect(w, wd, nw);
    } else if (strcmp(op, "deal-check") == 0) {
        run_deal_check(w);
    } else if (strcmp(op, "sweep") == 0) {
        run_sweep(w, wd, nw);
    } else if (strcmp(op, "seats") == 0) {
        run_seats(w, wd, nw);
    } else if (strcmp(op, "deal") == 0) {
        run_match_deal(w, wd, nw);
    } else if (strcmp(op, "forfeit") == 0) {
        run_forfeit(w, wd, nw);
    } else {
        FAIL("unknown directive \"%s\"", op);
    }
}

static void each_line(void *ctx, char *line) { run_line(ctx, line); }

static void run_file(const char *file)
{
    path = file;
    static world w;
    world_reset(&w);
    if (!test_each_directive(file, &lineno, each_line, &w)) {
        fprintf(stderr, "%s: cannot open\n", file);
        failed++;
    }
}

/* A directory runs every *.txt file in it, in name order. */
static void run_path(const char *p)
{
    if (test_each_txt(p, run_file) == 0) {
        fprintf(stderr, "%s: no scenario files\n", p);
        failed++;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_dab_deal_rules FILE|DIR...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        run_path(argv[i]);
    printf("dabang-deal-rules: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
