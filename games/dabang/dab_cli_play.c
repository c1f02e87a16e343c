/* dab_cli_play.c — `arbiter play --game dabang`: a seeded self-play match of
 * up to K deals between four copies of a built-in policy, driven through
 * the game interface (match_init, deal, deal_setup, legal, check, apply,
 * match_deal_done) as the referee drives bots, and printed move by move:
 * the declaring, the trump suit, the tribute and its return, the kitty and
 * the burying, every trick, the result and the levels. Deal k uses seed
 * arb_seed_childn(N, "deal", k); the same seed prints the same match. */
#include "dab_cli.h"
#include "arb_error.h"
#include "arb_rng.h"
#include "game.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char level_chars[] = "3456789T";
static const char suit_chars[] = "SHCD";

/* A level after a deal: 3..T, or past the goal (DB-62). */
static const char *level_text(int level)
{
    static const char *const names[] = {"3", "4", "5", "6", "7", "8", "9", "T"};
    return level > DAB_LEVEL_MAX ? "passed" : names[level];
}

static void print_hand(const char *label, const dab_hand *h)
{
    char text[2 * DAB_DECK + 1];
    dab_format_hand(h, text, sizeof text);
    printf("  %s %s\n", label, text);
}

static void print_cards(const char *label, const uint8_t *ids, int n)
{
    dab_hand h = {0};
    for (int i = 0; i < n; i++)
        h.n[ids[i]]++;
    h.total = (uint8_t)n;
    print_hand(label, &h);
}

/* What happened between two states without anybody deciding: a redeal,
 * the trump suit fixed, the kitty shown or taken, a dry pot, the burial
 * finished, a trick gathered, the deal's end. */
static void progress(const dab_state *b, const dab_state *a)
{
    static const char *const how[] = {"declared", "the flip (DB-43)", "a kitty card drawn (DB-46)"};
    char card[4], label[48];
    bool trump_before = b->trump_known;
    if (a->redeals != b->redeals) {
        printf("  redeal %u (DB-47)\n", a->redeals);
        trump_before = false;
    }
    if (!trump_before && a->trump_known) {
        if (a->trump_from == 1) {
            printf("  flip");
            for (int i = 0; i < 4; i++) {
                dab_format_card(a->flips[i], card, sizeof card);
                printf(" %s", card);
            }
            printf("\n");
        }
        printf("  trump %c, level %c, dajia seat%d (team %d) by %s\n", suit_chars[a->trump.suit],
               level_chars[a->level], a->dajia, dab_team(a->dajia), how[a->trump_from]);
        for (int p = 0; p < DAB_SEATS; p++) {
            snprintf(label, sizeof label, "seat%d holds", p);
            print_hand(label, &a->dealt[p]);
        }
        print_cards(a->kitty_shown ? "kitty (shown)" : "kitty", a->kitty_orig, DAB_KITTY);
    }
    if (!b->dry && a->dry)
        printf("  dry pot: the kitty stays buried as it is (DB-56)\n");
    else if (b->phase < DAB_PH_BURY && a->phase >= DAB_PH_BURY && a->phase != DAB_PH_OVER && !a->dry) {
        snprintf(label, sizeof label, "seat%d takes the kitty", a->dajia);
        print_cards(label, a->kitty_orig, DAB_KITTY);
    }
    if (b->phase == DAB_PH_BURY && a->phase > DAB_PH_BURY)
        print_hand(a->kitty_public ? "buried (shown: jokers, DB-58)" : "buried", &a->kitty);
    if (b->phase < DAB_PH_TRICKS && a->phase == DAB_PH_TRICKS)
        printf("  seat%d leads the first trick\n", a->leader);
    if (a->tricks_done > b->tricks_done) {
        int pts = 0;
        printf("  trick %2u:", a->tricks_done);
        for (int i = 0; i < DAB_SEATS; i++) {
            char text[3 * DAB_MAX_PLAY + 1];
            dab_format_play(&a->last_trick[i], text, sizeof text);
            printf(" seat%d %-7s", (a->last_leader + i) % DAB_SEATS, text);
            pts += dab_play_points(&a->last_trick[i]);
        }
        printf(" -> seat%d", a->last_winner);
        if (pts)
            printf(" +%d", pts);
        printf("\n");
    }
    if (b->phase != DAB_PH_OVER && a->phase == DAB_PH_OVER) {
        const dab_outcome *o = &a->out;
        int ateam = 1 - dab_team(a->dajia);
        snprintf(label, sizeof label, "kitty at the end (%d points)", o->kitty_points);
        print_hand(label, &a->kitty);
        printf("  result: the attackers (team %d) %d points (tricks %d%s), case %d (DB-32)", ateam, o->points,
               a->points[ateam], o->dug ? ", the last trick: kitty doubled in" : "", o->kase);
        if (o->rise_team >= 0)
            printf(", team %d up %d", o->rise_team, o->rise);
        else
            printf(", no level changes");
        printf("\n  levels %s %s, next dajia seat%d, blood %u", level_text(o->level_after[0]),
               level_text(o->level_after[1]), o->next_dajia, o->blood_next);
        if (o->winner >= 0)
            printf(", team %d wins the match", o->winner);
        printf("\n");
    }
}

/* One decision as seat `seat` took it (from b to s), with what it moved. */
static void show_action(const arb_game *g, const dab_state *b, const dab_state *s, int seat, const arb_action *a)
{
    char item[64];
    if (g->format_item(b, a, item, sizeof item) < 0)
        snprintf(item, sizeof item, "?");
    bool pass = strcmp(item, "pass") == 0;
    switch (a->decision) {
    case DAB_DEC_DECLARE:
        if (pass)
            printf("  seat%d does not declare\n", seat);
        else if (b->phase == DAB_PH_DRAW)
            printf("  seat%d declares %s (card %u of %d drawn)\n", seat, item, b->drawn, DAB_DECK - DAB_KITTY);
        else
            printf("  seat%d declares %s (closing round)\n", seat, item);
        break;
    case DAB_DEC_TRIBUTE:
        printf("  seat%d pays tribute %s to seat%d (DB-52)\n", seat, item, b->dajia);
        break;
    case DAB_DEC_RETURN:
        printf("  seat%d gives back %s to seat%d (DB-53)\n", seat, item, (b->dajia + 3) % DAB_SEATS);
        break;
    case DAB_DEC_BURY:
        printf("  seat%d buries %s\n", seat, item);
        break;
    case DAB_DEC_JOKER:
        if (pass) {
            printf("  seat%d buries no joker\n", seat);
        } else {
            char joker[4];
            dab_format_card(a->value, joker, sizeof joker);
            printf("  seat%d buries %s (DB-59)\n", seat, joker);
            if (s->phase != DAB_PH_TAKE && s->took >= 0) {
                char take[4];
                dab_format_card(s->took, take, sizeof take);
                printf("  seat%d takes back %s, the kitty's smallest (DB-59)\n", seat, take);
            }
        }
        break;
    case DAB_DEC_TAKE:
        printf("  seat%d takes back %s, one of the kitty's equal smallest (DB-59)\n", seat, item);
        break;
    default:
        break;          /* plays: the whole trick, when gathered */
    }
}

/* ---- Policies --------------------------------------------------------------- */

static dab_play play_of(const arb_action *a)
{
    dab_hand h;
    dab_play p = {0};
    if (dab_unpack(a->cards, &h) == 0)
        dab_play_from_hand(&h, &p);
    return p;
}

/* How much a card is worth keeping: trumps above side cards, by power. */
static int card_key(const dab_trump *t, int c) { return t->power[c] + 50 * dab_is_trump(t, c); }

static int play_key(const dab_trump *t, const dab_play *p)
{
    int k = 0;
    for (int i = 0; i < p->n; i++)
        k += card_key(t, p->c[i]);
    return k;
}

/* Greedy: declare as strongly as it may; bury and give back its cheapest
 * non-point cards; keep its jokers; lead its strongest triple, pair or
 * single; to a trick the partner holds, add points cheaply; else win it as
 * cheaply as it can, or throw its cheapest cards away. */
static int greedy(const dab_state *s, const arb_action *legal, int n)
{
    const dab_trump *t = &s->trump;
    int best = 0;
    long best_key = -(1L << 40);
    for (int i = 0; i < n; i++) {
        const arb_action *a = &legal[i];
        long key = 0;
        switch (a->decision) {
        case DAB_DEC_DECLARE: key = a->value < 0 ? 0 : 1 + 100L * a->len + a->value; break;
        case DAB_DEC_JOKER: key = a->value < 0; break;
        case DAB_DEC_TAKE: key = -card_key(t, a->value); break;
        case DAB_DEC_TRIBUTE: key = 0; break;
        case DAB_DEC_RETURN:
        case DAB_DEC_BURY: key = -(card_key(t, a->value) + 100 * dab_card_points(a->value)); break;
        case ARB_DEC_PLAY: {
            dab_play p = play_of(a);
            int pts = dab_play_points(&p), cost = play_key(t, &p);
            if (s->ntrick == 0) {
                key = 1000L * dab_play_shape(&p) * (dab_play_shape(&p) != DAB_MIXED) + t->power[p.c[0]]
                      + 50 * dab_is_trump(t, p.c[0]);
                break;
            }
            int winner_seat = (s->leader + s->winner_idx) % DAB_SEATS;
            if (dab_team(winner_seat) == dab_team(s->to_act))
                key = 100L * pts - cost;
            else if (dab_beats(t, &p, &s->trick[s->winner_idx]))
                key = 100000L - cost;
            else
                key = -cost - 100L * pts;
            break;
        }
        default: break;
        }
        if (key > best_key) {
            best_key = key;
            best = i;
        }
    }
    return best;
}

/* ---- The match ----------------------------------------------------------------- */

int dab_cli_play(const void *rules, const cli_play_options *o)
{
    const arb_game *g = &arb_game_dabang;
    const dab_rules *r = rules;
    const char *policy = o->policy ? o->policy : "random";
    if (strcmp(policy, "random") && strcmp(policy, "greedy")) {
        fprintf(stderr, "arbiter: play: unknown policy \"%s\" for dabang (random, greedy)\n", policy);
        return CLI_EXIT_USAGE;
    }
    bool use_greedy = strcmp(policy, "greedy") == 0;
    size_t cap = DAB_MAX_PLAYS + 64;
    arb_action *legal = malloc(cap * sizeof *legal);
    dab_state *s = malloc(sizeof *s), *before = malloc(sizeof *before);
    int status = CLI_EXIT_OK;
    if (!legal || !s || !before) {
        fprintf(stderr, "arbiter: play: out of memory\n");
        status = CLI_EXIT_FAIL;
        goto out;
    }
    dab_match m;
    const uint8_t player_at[DAB_SEATS] = {0, 1, 2, 3};
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(o->seed, "policy"));
    g->match_init(&m, r, (uint32_t)o->deals);
    char rdesc[512];
    g->rules_describe(r, rdesc, sizeof rdesc);
    /* one option a line from the engine; one line here */
    for (char *nl = strchr(rdesc, '\n'); nl; nl = strchr(nl, '\n'))
        *nl = nl[1] ? ' ' : '\0';
    if (!o->quiet)
        printf("match of up to %lu deal%s, seed %" PRIu64 ", policy %s; rules %s\n\n", o->deals,
               o->deals == 1 ? "" : "s", o->seed, policy, rdesc);
    for (unsigned long d = 0; d < o->deals && !g->match_over(&m); d++) {
        uint64_t ds = arb_seed_childn(o->seed, "deal", d);
        char why[160];
        int rc = g->deal(s, r, ds);
        if (!rc)
            rc = g->deal_setup(s, &m, player_at);
        if (rc) {
            fprintf(stderr, "arbiter: play: deal %lu: %s\n", d, arb_strerror(rc));
            status = CLI_EXIT_FAIL;
            goto out;
        }
        if (!o->quiet) {
            if (s->ctx.first)
                printf("deal %lu (seed %" PRIu64 "): the first deal, level %c, seat%d draws first\n", d, ds,
                       level_chars[s->level], s->first_drawer);
            else
                printf("deal %lu (seed %" PRIu64 "): levels %c %c, dajia seat%d plays level %c, blood %u\n", d, ds,
                       level_chars[s->ctx.level[0]], level_chars[s->ctx.level[1]], s->ctx.dajia,
                       level_chars[s->ctx.level[dab_team(s->ctx.dajia)]], r->tribute ? s->ctx.blood : 0);
            memset(before, 0, sizeof *before);
            before->phase = DAB_PH_DRAW;
            before->redeals = s->redeals;
            progress(before, s);
        }
        while (!g->over(s)) {
            int n = g->legal(s, legal, cap);
            if (n <= 0) {
                fprintf(stderr, "arbiter: play: deal %lu: no legal action (%s)\n", d, n < 0 ? arb_strerror(n) : "none");
                status = CLI_EXIT_FAIL;
                goto out;
            }
            int i = use_greedy ? greedy(s, legal, n) : (int)arb_rng_below(&rng, (uint64_t)n);
            arb_action fixed;
            int seat = g->to_act(s);
            rc = g->check(s, &legal[i], &fixed, why, sizeof why);
            if (!rc) {
                *before = *s;
                rc = g->apply(s, &fixed);
            }
            if (rc) {
                fprintf(stderr, "arbiter: play: deal %lu: a legal action refused: %s\n", d,
                        rc == ARB_EILLEGAL ? why : arb_strerror(rc));
                status = CLI_EXIT_FAIL;
                goto out;
            }
            if (!o->quiet) {
                show_action(g, before, s, seat, &fixed);
                progress(before, s);
            }
        }
        int64_t scores[DAB_SEATS];
        g->score(s, scores, DAB_SEATS);
        g->match_deal_done(&m, s, player_at, scores, -1);
        if (!o->quiet)
            printf("\n");
    }
    arb_standing st;
    g->match_result(&m, &st);
    printf("totals after %u deal%s: team 0 (seats 0+2) level %c, team 1 (seats 1+3) level %c; ", m.played,
           m.played == 1 ? "" : "s", level_chars[m.level[0]], level_chars[m.level[1]]);
    if (st.decided)
        printf("team %d wins%s\n", st.winner_team,
               m.winner >= 0 ? "" : " at the deal limit (DB-71)");
    else
        printf("undecided\n");
out:
    free(legal);
    free(s);
    free(before);
    return status;
}
