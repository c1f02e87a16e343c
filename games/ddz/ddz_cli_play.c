/* ddz_cli_play.c — `arbiter play` for Dou Dizhu: seeded self-play deals
 * printed move by move, with built-in policies. Shows the engine honestly:
 * the same seed prints the same deal on every machine. */
#include "ddz_cli.h"
#include "ddz_policy.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct show_ctx {
    bool quiet;
    bool table_shown;   /* the landlord line of this deal is printed */
} show_ctx;

static const char *seat_name(const ddz_state *s, int seat)
{
    static const char *const names[] = {"seat0", "seat1", "seat2", "seat3"};
    (void)s;
    return names[seat & 3];
}

/* The table once the landlord is known: who, the stake, the kitty and the
 * wild ranks. */
static void show_table(const ddz_state *s)
{
    char text[2 * DDZ_MAX_CARDS + 8];
    ddz_cards_format(s->kitty, text, sizeof text);
    printf("  landlord %s, stake %" PRId64 ", kitty %s shown to all\n",
           seat_name(s, s->landlord), ddz_stake(s), s->kitty ? text : "-");
    if (s->wild_ranks) {
        printf("  wild:");
        for (int x = 0; x <= DDZ_R2; x++)
            if (s->wild_ranks >> x & 1)
                printf(" %c", ddz_rank_chars[x]);
        printf("\n");
    }
}

static void observe(const ddz_state *s, int seat, const ddz_action *a, void *ctx)
{
    show_ctx *c = ctx;
    if (c->quiet)
        return;
    /* A fixed landlord is known before any decision: the table comes before
     * the first play. */
    if (a->phase == DDZ_PHASE_PLAY && !c->table_shown && s->landlord != DDZ_NONE) {
        show_table(s);
        c->table_shown = true;
    }
    char text[2 * DDZ_MAX_CARDS + 8], hand[2 * DDZ_MAX_CARDS + 8];
    switch (a->phase) {
    case DDZ_PHASE_BID:
        printf("  %s %s\n", seat_name(s, seat), a->value ? (snprintf(text, sizeof text, "bids %d", a->value), text) : "passes");
        break;
    case DDZ_PHASE_CALL: case DDZ_PHASE_ROB: case DDZ_PHASE_DOUBLE: case DDZ_PHASE_SHOW: case DDZ_PHASE_CLAIM:
        printf("  %s %s %s\n", seat_name(s, seat), a->value ? "does" : "does not", ddz_phase_name(a->phase));
        break;
    case DDZ_PHASE_PLAY:
        ddz_move_format_w(&a->move, s->wild_ranks, text, sizeof text);
        ddz_cards_format(s->hand[seat], hand, sizeof hand);
        if (a->move.kind == DDZ_PASS)
            printf("  %-6s pass\n", seat_name(s, seat));
        else
            printf("  %-6s %-22s %-14s left %2u  %s\n", seat_name(s, seat), text,
                   ddz_kind_name(a->move.kind), ddz_total(s->hand[seat]), hand);
        break;
    default:
        break;
    }
    /* After the auction and what follows it (doubling, showing, the claim):
     * when play begins, or when a claim ends the deal before it (DDZ-95). */
    if (!c->table_shown && s->landlord != DDZ_NONE && a->phase != DDZ_PHASE_PLAY
        && (s->phase == DDZ_PHASE_PLAY || s->phase == DDZ_PHASE_OVER)) {
        show_table(s);
        c->table_shown = true;
    }
}

int ddz_cli_play(const void *rules, const cli_play_options *o)
{
    const ddz_rules r = *(const ddz_rules *)rules;
    uint64_t seed = o->seed;
    unsigned long deals = o->deals;
    const char *policy = o->policy ? o->policy : "greedy";
    if (strcmp(policy, "greedy") && strcmp(policy, "random")) {
        fprintf(stderr, "arbiter play: unknown policy \"%s\" (greedy, random)\n", policy);
        return CLI_EXIT_USAGE;
    }
    bool greedy = strcmp(policy, "greedy") == 0;
    show_ctx sc = {o->quiet, false};
    ddz_move *buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    if (!buf)
        return CLI_EXIT_FAIL;
    int64_t total[DDZ_MAX_SEATS] = {0};
    policy_ctx pc;
    arb_rng_seed(&pc.rng, arb_seed_child(seed, "policy"));
    int status = 0;
    for (unsigned long d = 0; d < deals; d++) {
        ddz_state s;
        int64_t sc4[DDZ_MAX_SEATS];
        uint64_t ds = arb_seed_childn(seed, "deal", d);
        sc.table_shown = false;
        if (!sc.quiet) {
            ddz_deal_init(&s, &r, ds);
            printf("deal %lu (seed %" PRIu64 ", rules %s)\n", d, ds, r.preset);
            for (int i = 0; i < s.nseats; i++) {
                char h[2 * DDZ_MAX_CARDS + 8];
                ddz_cards_format(s.hand[i], h, sizeof h);
                printf("  %s holds %s\n", seat_name(&s, i), h);
            }
            printf("  first to speak: %s\n", seat_name(&s, s.first_bidder));
        }
        int rc = ddz_run_deal(&s, &r, ds, greedy ? policy_greedy : policy_random, &pc,
                              observe, &sc, buf, ARB_MAX_MOVES, sc4);
        if (rc) {
            fprintf(stderr, "arbiter play: deal %lu: %s\n", d, arb_strerror(rc));
            status = CLI_EXIT_FAIL;
            break;
        }
        for (int i = 0; i < s.nseats; i++)
            total[i] += sc4[i];
        if (!sc.quiet) {
            if (s.voided) {
                printf("  void deal after %u redeals\n", s.redeals);
            } else {
                int sp = ddz_spring(&s);
                /* A claim (DDZ-95) ends the deal with cards in hand. */
                printf("  %s %s: %s win; bombs %u%s, deal value %" PRId64 "\n", seat_name(&s, s.winner),
                       s.hand[s.winner] ? "wins by the claim" : "goes out",
                       s.winner == s.landlord ? "landlord" : "peasants", s.bombs, sp > 0 ? ", spring" : sp < 0 ? ", anti-spring" : "", ddz_deal_value(&s));
            }
            printf("  scores:");
            for (int i = 0; i < s.nseats; i++)
                printf(" %s %+" PRId64, seat_name(&s, i), sc4[i]);
            printf("\n\n");
        }
    }
    printf("totals after %lu deal%s:", deals, deals == 1 ? "" : "s");
    for (int i = 0; i < r.players; i++)
        printf(" seat%d %+" PRId64, i, total[i]);
    printf("\n");
    free(buf);
    return status;
}
