/* cmd_replay.c — `arbiter replay FILE`: check a transcript's digest,
 * re-judge it with the rules engine and say whether the recorded result is
 * reproduced (or where it first is not); --show prints the match move by
 * move with every hand; --rerun plays the recorded bots again on the same
 * inputs; --dump lists the records; --secret proves the deals fair. */
#include "cli.h"
#include "game_cli.h"
#include "arb_text.h"
#include "replay.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter replay FILE [--show] [--rerun] [--dump] [--digest HEX]\n"
        "                           [--secret-file F | --secret HEX]\n"
        "\n"
        "Re-judges a transcript written by `arbiter match --transcript`: checks its\n"
        "SHA-256 digest, replays every recorded reply through the rules engine and\n"
        "the clocks, and compares every verdict, penalty and score with the record.\n"
        "Exit status 0 when the transcript is intact and its result is reproduced,\n"
        "1 when it is not, 2 when it cannot be read.\n"
        "\n"
        "  --show          print the match move by move, with what each seat was dealt\n"
        "  --rerun         start the recorded bots again and compare their replies\n"
        "  --dump          print every record\n"
        "  --digest HEX    also require this digest (from the tournament record)\n"
        "  --secret-file F, --secret HEX\n"
        "                  the tournament's secret (revealed when it is over): check\n"
        "                  that it is the one committed to, that the match key follows\n"
        "                  from it, and so that every deal follows from seed + secret\n");
}

typedef struct show_ctx {
    const match_config *cfg;
    const arb_game *g;
} show_ctx;

/* A deal's start as the seats see it, from the game's own start events
 * (game.h): what every seat is told is printed once, what one seat alone
 * is told (its hand, whatever the game hides) after that seat's name. No
 * line's form is assumed: a game's events are shown as they are. */
#define SHOW_MAX_LINES 32
typedef struct seat_lines {
    int n;
    char line[SHOW_MAX_LINES][512];
} seat_lines;

static void collect_line(void *ctx, const char *line)
{
    seat_lines *l = ctx;
    if (l->n < SHOW_MAX_LINES)
        snprintf(l->line[l->n++], sizeof l->line[0], "%s", line);
}

static bool told_to_all(const seat_lines *all, int nseats, const char *line)
{
    for (int s = 0; s < nseats; s++) {
        bool found = false;
        for (int k = 0; k < all[s].n && !found; k++)
            found = strcmp(all[s].line[k], line) == 0;
        if (!found)
            return false;
    }
    return true;
}

/* One seat's own lines (those not told to every seat), from line `from`
 * on, after `prefix` and its name: a run of "WORD X" lines (cards drawn
 * one by one) joined as "WORD X Y Z". */
static void print_own_lines(const seat_lines *all, int nseats, int s, int from, const char *prefix, const char *bot)
{
    char joined[4096] = "", line[8192], name[256];
    size_t used = 0, wlen = 0;
    arb_term(bot, name, sizeof name);
    for (int k = from; k <= all[s].n; k++) {
        const char *l = k < all[s].n ? all[s].line[k] : NULL;
        if (l && told_to_all(all, nseats, l))
            continue;
        const char *sp = l ? strchr(l, ' ') : NULL;
        bool one_arg = sp && !strchr(sp + 1, ' ');
        if (used && one_arg && (size_t)(sp - l) == wlen && strncmp(joined, l, wlen) == 0
            && used + strlen(sp) < sizeof joined) {
            used += (size_t)snprintf(joined + used, sizeof joined - used, "%s", sp);
            continue;
        }
        if (used)
            printf("%s%d %-12s %s\n", prefix, s, name, arb_term(joined, line, sizeof line));
        used = l ? (size_t)snprintf(joined, sizeof joined, "%s", l) : 0;
        wlen = one_arg ? (size_t)(sp - l) : 0;
    }
}

static void show_deal_hands(void *ctx, const match_deal *d, const void *state)
{
    show_ctx *c = ctx;
    static seat_lines all[ARB_MAX_SEATS];
    int nseats = c->cfg->nbots < ARB_MAX_SEATS ? c->cfg->nbots : ARB_MAX_SEATS;
    char text[2048];
    printf("\ngame %u: deal %u, seating %u, seed %" PRIu64 "\n", d->game, d->deal, d->seating, d->seed);
    for (int s = 0; s < nseats; s++) {
        all[s].n = 0;
        c->g->start_events(state, s, collect_line, &all[s]);
    }
    for (int s = 0; s < nseats; s++)
        print_own_lines(all, nseats, s, 0, "  seat ", c->cfg->bots[d->bot_at[s]].name);
    for (int k = 0; nseats > 0 && k < all[0].n; k++)
        if (told_to_all(all, nseats, all[0].line[k]))
            printf("  %s\n", arb_term(all[0].line[k], text, sizeof text));
}

static void show_action(void *ctx, const match_deal *d, const void *before, const void *after, int seat_no,
                        const arb_action *a, bool by_referee)
{
    show_ctx *c = ctx;
    char text[256], shown[1024], name[256];
    c->g->format_action(before, a, text, sizeof text);
    printf("  %-3u seat %d %-12s %-24s%s\n", d->decisions, seat_no,
           arb_term(c->cfg->bots[d->bot_at[seat_no]].name, name, sizeof name), arb_term(text, shown, sizeof shown),
           by_referee ? "  (played by the referee)" : "");
    /* What the action revealed, from the game's own events (game.h): the
     * first line each seat is told is the action itself, shown above;
     * the rest — a trick's winner and points, trumps, a kitty shown, a
     * card drawn — is printed once when every seat is told it, and after
     * the seat's name when one seat alone is. */
    static seat_lines all[ARB_MAX_SEATS];
    int nseats = c->cfg->nbots < ARB_MAX_SEATS ? c->cfg->nbots : ARB_MAX_SEATS;
    for (int s = 0; s < nseats; s++) {
        all[s].n = 0;
        c->g->action_events(before, after, seat_no, a, s, collect_line, &all[s]);
    }
    char line[2048];
    for (int k = 1; nseats > 0 && k < all[0].n; k++)
        if (told_to_all(all, nseats, all[0].line[k]))
            printf("      %s\n", arb_term(all[0].line[k], line, sizeof line));
    for (int s = 0; s < nseats; s++)
        print_own_lines(all, nseats, s, 1, "      to seat ", c->cfg->bots[d->bot_at[s]].name);
}

static void show_penalty(void *ctx, const match_deal *d, int seat_no, int bot, match_reason r,
                         const char *consequence, const char *detail)
{
    show_ctx *c = ctx;
    char name[256], what[1024];
    printf("  !!  %s (seat %d): %s — %s; %s\n", arb_term(c->cfg->bots[bot].name, name, sizeof name), seat_no,
           match_reason_name(r), arb_term(detail, what, sizeof what), consequence);
    (void)d;
}

static void show_end(void *ctx, const match_deal *d, const void *state)
{
    show_ctx *c = ctx;
    printf("  result:");
    for (int s = 0; s < c->cfg->nbots; s++) {
        char name[256];
        printf(" %s %+" PRId64, arb_term(c->cfg->bots[d->bot_at[s]].name, name, sizeof name), d->score[s]);
    }
    printf("%s\n", d->forfeit_bot >= 0 ? "  (forfeit)" : "");
    const game_cli *m = game_cli_find(c->g);
    if (m && m->show_deal && state) {
        /* names from the transcript, as a terminal may show them */
        static char shown_names[ARB_MAX_SEATS][256];
        const char *names[ARB_MAX_SEATS];
        for (int s = 0; s < c->cfg->nbots && s < ARB_MAX_SEATS; s++)
            names[s] = arb_term(c->cfg->bots[d->bot_at[s]].name, shown_names[s], sizeof shown_names[s]);
        m->show_deal(state, names);
    }
}

static int dump_record(void *ctx, int type, const uint8_t *rec, size_t n)
{
    (void)ctx; (void)type;
    char text[2048], shown[8192];
    tr_describe(rec, n, text, sizeof text);
    printf("%s\n", arb_term(text, shown, sizeof shown));
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"show", no_argument, NULL, 's'},
        {"rerun", no_argument, NULL, 'r'},
        {"dump", no_argument, NULL, 'd'},
        {"digest", required_argument, NULL, 'D'},
        {"secret-file", required_argument, NULL, 'K'},
        {"secret", required_argument, NULL, 'k'},
        {NULL, 0, NULL, 0},
    };
    const char *path = NULL, *want_digest = NULL, *secret_file = NULL, *secret_hex = NULL;
    bool show = false, rerun = false, dump = false;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("replay", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': show = true; break;
        case 'r': rerun = true; break;
        case 'd': dump = true; break;
        case 'D': want_digest = optarg; break;
        case 'K': secret_file = optarg; break;
        case 'k': secret_hex = optarg; break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    path = argv[optind];
    char err[512];
    uint8_t secret[32];
    bool have_secret = secret_file || secret_hex;
    if (secret_file && arb_key_read_file(secret_file, secret, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (secret_hex && arb_key_parse(secret_hex, secret) != 0) {
        fprintf(stderr, "arbiter: --secret: expected 64 hex digits (a 32-byte secret)\n");
        return CLI_EXIT_USAGE;
    }
    uint8_t *data;
    size_t len;
    if (tr_load(path, &data, &len, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (dump && tr_each(data, len, dump_record, NULL) != 0)
        printf("(a corrupt record follows)\n");
    replay_report rep;
    int rc;
    show_ctx sc = {&rep.cfg, NULL};
    match_observer obs = {.ctx = &sc, .deal_start = show_deal_hands, .action = show_action,
                          .penalty = show_penalty, .deal_end = show_end};
    if (rerun) {
        live_options lo = {0};
        rc = replay_rerun(data, len, &lo, &rep);
    } else {
        /* the observer needs the game, known once the header is read */
        match_config probe;
        if (tr_read_header(data, len, &probe, err, sizeof err) == 0)
            sc.g = probe.game;
        rc = replay_judge(data, len, show && sc.g ? &obs : NULL, &rep);
    }
    free(data);
    if (rc) {
        char why[4096];
        fprintf(stderr, "arbiter: %s: %s\n", path, rep.divergence[0] ? arb_term(rep.divergence, why, sizeof why) : arb_strerror(rc));
        match_result_release(&rep.res);
        return CLI_EXIT_FAIL;   /* read, but not to be judged: corrupt or diverging */
    }
    int status = 0;
    char shown[4096];
    /* a blank line apart from the deals --show printed, none before the first line */
    printf("%s%s: %s/%s, seed %" PRIu64 ", %u deal%s, duplicate %s\n", show && sc.g ? "\n" : "", path,
           rep.cfg.game->name, arb_term(rep.cfg.preset, shown, sizeof shown), rep.cfg.seed, rep.cfg.deals,
           rep.cfg.deals == 1 ? "" : "s", match_duplicate_name((match_duplicate)rep.cfg.duplicate));
    if (rep.digest_rc == 0)
        printf("digest:  ok (sha256 %s)\n", rep.digest);
    else {
        printf("digest:  FAILED: %s\n", arb_term(rep.digest_msg, shown, sizeof shown));
        status = CLI_EXIT_FAIL;
    }
    if (want_digest && strcmp(want_digest, rep.digest) != 0) {
        printf("digest:  FAILED: the record says %s, the file carries %s\n", want_digest,
               rep.digest[0] ? arb_term(rep.digest, shown, sizeof shown) : "none");
        status = CLI_EXIT_FAIL;
    }
    if (rep.reproduced) {
        printf("%s reproduced: %u games, %" PRIu64 " decisions;", rerun ? "bots' replies" : "verdict",
               rep.res.ndeals, rep.res.decisions);
        for (int b = 0; b < rep.res.nbots; b++)
            printf(" %s %+" PRId64, arb_term(rep.res.bots[b].name, shown, sizeof shown), rep.res.bots[b].total);
        printf("\n");
    } else {
        printf("%s NOT reproduced: %s\n", rerun ? "bots' replies" : "verdict", arb_term(rep.divergence, shown, sizeof shown));
        status = CLI_EXIT_FAIL;
    }
    if (have_secret) {
        char msg[512];
        if (replay_check_secret(&rep.cfg, secret, msg, sizeof msg) != 0) {
            printf("fairness: FAILED: %s\n", msg);
            status = CLI_EXIT_FAIL;
        } else if (!rep.reproduced || rep.digest_rc != 0) {
            printf("fairness: FAILED: %s, but the transcript is not reproduced from it (see above)\n", msg);
            status = CLI_EXIT_FAIL;
        } else {
            printf("fairness: every deal follows from seed + secret: verified (%s)\n", msg);
        }
    } else {
        printf("fairness: not checked (commitment %s; give --secret-file F or --secret HEX once the secret is "
               "revealed)\n", rep.cfg.commitment);
    }
    match_result_release(&rep.res);
    return status;
}
