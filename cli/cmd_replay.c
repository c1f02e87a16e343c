/* cmd_replay.c — `arbiter replay FILE`: check a transcript's digest,
 * re-judge it with the rules engine and say whether the recorded result is
 * reproduced (or where it first is not); --show prints the match move by
 * move with every hand; --rerun plays the recorded bots again on the same
 * inputs; --dump lists the records, --json the same as JSON lines;
 * --stderr shows what a bot wrote on stderr; --secret proves the deals
 * fair. --match ID takes the transcript from the tournament record. */
#include "cli.h"
#include "game_cli.h"
#include "arb_buf.h"
#include "arb_text.h"
#include "replay.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_mp.h"
#include "store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter replay FILE [--show] [--rerun] [--dump | --json] [--game N]\n"
        "                           [--digest HEX] [--signer KEY]\n"
        "                           [--secret-file F | --secret HEX]\n"
        "       arbiter replay FILE --stderr BOT\n"
        "       arbiter replay --match ID [--state DIR | --db CONNINFO] [the same options]\n"
        "\n"
        "Re-judges a transcript written by `arbiter match --transcript`, or with\n"
        "--match the transcript of match ID as the tournament record keeps it (its\n"
        "recorded digest and referee key then required as --digest and --signer\n"
        "would): checks its\n"
        "SHA-256 digest and the referee's Ed25519 signature of it, replays every\n"
        "recorded reply through the rules engine and the clocks, and compares every\n"
        "verdict, penalty and score with the record.\n"
        "Exit status 0 when the transcript is intact and its result is reproduced,\n"
        "1 when it is not, 2 when it cannot be read.\n"
        "\n"
        "  --show          print the match move by move, with what each seat was dealt,\n"
        "                  who took the contract (landlord, 打家) and the kitty\n"
        "  --rerun         start the recorded bots again and compare their replies\n"
        "                  (what they answered; never the clocks)\n"
        "  --dump          print every record\n"
        "  --json          print every record as one JSON object a line, then a\n"
        "                  {\"type\": \"replay\"} line with the digest and the verdict\n"
        "  --game N        --show, --dump, --json: game N only (from 0)\n"
        "  --stderr BOT    print what BOT (its index from 0, or its name) wrote on\n"
        "                  stderr, as kept (its first ARB_STDERR_CAP bytes), and how it\n"
        "                  ended; nothing is judged\n"
        "  --digest HEX    also require this digest (from the tournament record)\n"
        "  --signer KEY    also require a signature by this referee key (64 hex digits:\n"
        "                  `arbiter match-info`, or the referee's log at start)\n"
        "  --secret-file F, --secret HEX\n"
        "                  the tournament's secret (revealed when it is over): check\n"
        "                  that it is the one committed to, that the match key follows\n"
        "                  from it, and so that every deal follows from seed + secret\n");
}

#define ALL_GAMES UINT32_MAX

typedef struct show_ctx {
    const match_config *cfg;
    const arb_game *g;
    uint32_t only_game;        /* --game N, else ALL_GAMES */
    int end_status[ARB_MAX_SEATS];   /* each bot's last wait status (botend), -1 none */
    uint32_t started;          /* the last game whose start was shown, ALL_GAMES none */
} show_ctx;

static bool shown(const show_ctx *c, const match_deal *d)
{
    return c->only_game == ALL_GAMES || d->game == c->only_game;
}

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
    if (!shown(c, d))
        return;
    printf("\ngame %u: deal %u, seating %u, seed %" PRIu64 "\n", d->game, d->deal, d->seating, d->seed);
    c->started = d->game;
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
    char text[256], shown_text[1024], name[256];
    if (!shown(c, d))
        return;
    c->g->format_action(before, a, text, sizeof text);
    printf("  %-3u seat %d %-12s %-24s%s\n", d->decisions, seat_no,
           arb_term(c->cfg->bots[d->bot_at[seat_no]].name, name, sizeof name), arb_term(text, shown_text, sizeof shown_text),
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
    char name[256], what[1024], how[64] = "";
    if (d && !shown(c, d))
        return;
    /* a bot gone: how it ended, from its botend record */
    if ((r == MATCH_R_CRASHED || r == MATCH_R_EXITED) && bot >= 0 && bot < ARB_MAX_SEATS
        && c->end_status[bot] != -1) {
        char words[48];
        tr_status_text(c->end_status[bot], words, sizeof words);
        snprintf(how, sizeof how, " (%s)", words);
    }
    printf("  !!  %s (seat %d): %s — %s%s; %s\n", arb_term(c->cfg->bots[bot].name, name, sizeof name), seat_no,
           match_reason_name(r), arb_term(detail, what, sizeof what), how, consequence);
}

static void show_end(void *ctx, const match_deal *d, const void *state)
{
    show_ctx *c = ctx;
    if (!shown(c, d))
        return;
    if (c->started != d->game)   /* not dealt: a bot had forfeited the match before it */
        printf("\ngame %u: deal %u, seating %u, not dealt (a bot had forfeited the match)\n", d->game, d->deal,
               d->seating);
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

/* --dump and --json: which records to print (--game N: the header, and
 * the records from game N's deal record up to the next deal, restart or
 * end), and how. */
typedef struct dump_ctx {
    bool json;
    uint32_t only_game;
    bool in_game;        /* inside the span of the game asked for */
    arb_buf out;
    bool told_end[ARB_MAX_SEATS];   /* cli_bot_told_end, over every record */
} dump_ctx;

static bool dump_wanted(dump_ctx *c, int type, const uint8_t *rec, size_t n)
{
    if (c->only_game == ALL_GAMES || type == TR_HEADER)
        return true;
    if (type == TR_DEAL || type == TR_RESTART || type == TR_END) {
        arb_mp r;
        uint32_t cnt;
        uint64_t u, game = UINT64_MAX;
        arb_mp_init(&r, rec, n);
        if (type == TR_DEAL && !arb_mp_array(&r, &cnt) && cnt > 2 && !arb_mp_uint(&r, &u) && !arb_mp_uint(&r, &u))
            arb_mp_uint(&r, &game);
        c->in_game = game == c->only_game;
    }
    return c->in_game;
}

static int find_game(void *ctx, int type, const uint8_t *rec, size_t n)
{
    dump_ctx *c = ctx;
    dump_wanted(c, type, rec, n);
    return type == TR_DEAL && c->in_game;   /* nonzero: found, stop */
}

static bool has_game(const uint8_t *data, size_t len, uint32_t game)
{
    dump_ctx c = {.only_game = game};
    return tr_each(data, len, find_game, &c) == 1;
}

static int dump_one(dump_ctx *c, int type, const uint8_t *rec, size_t n)
{
    if (!dump_wanted(c, type, rec, n))
        return 0;
    arb_buf_reset(&c->out);
    if (c->json) {
        int rc = cli_tr_json(type, rec, n, c->told_end, &c->out);
        if (rc)
            return rc;
        printf("%s\n", arb_buf_str(&c->out));
        return 0;
    }
    /* every string whole: the text can be as long as the record's bytes
     * written out, and each byte of it four when escaped */
    size_t cap = n * 24 + 64;
    char *text = malloc(cap), *shown_text = malloc(cap * 4);
    if (!text || !shown_text) {
        free(text);
        free(shown_text);
        return ARB_ENOMEM;
    }
    tr_describe(rec, n, text, cap);
    printf("%s", arb_escape_term(text, strlen(text), shown_text, cap * 4, 0));
    tr_botend be;
    if (type == TR_BOTEND && tr_read_botend(rec, n, &be) == 0) {
        char words[64];
        tr_status_text(be.status, words, sizeof words);
        printf("  (%s)", words);
    }
    printf("\n");
    free(text);
    free(shown_text);
    return 0;
}

static int dump_record(void *ctx, int type, const uint8_t *rec, size_t n)
{
    dump_ctx *c = ctx;
    int rc = dump_one(c, type, rec, n);
    cli_bot_told_end(type, rec, n, c->told_end);
    return rc;
}

/* The bot named by --stderr: its index or its name in the header. */
static int find_bot(const match_config *cfg, const char *which)
{
    char *end;
    long k = strtol(which, &end, 10);
    if (*which && !*end && k >= 0 && k < cfg->nbots)
        return (int)k;
    for (int b = 0; b < cfg->nbots; b++)
        if (strcmp(cfg->bots[b].name, which) == 0)
            return b;
    return -1;
}

static int print_stderr(const char *path, const uint8_t *data, size_t len, const char *which)
{
    match_config cfg;
    char err[512], name[256];
    if (tr_read_header(data, len, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s: %s\n", path, err);
        return CLI_EXIT_USAGE;
    }
    int bot = find_bot(&cfg, which);
    if (bot < 0) {
        fprintf(stderr, "arbiter: replay: --stderr %s: no such bot in %s (%d bots: give an index from 0 or a "
                "name)\n", arb_term(which, name, sizeof name), path, cfg.nbots);
        return CLI_EXIT_USAGE;
    }
    printf("bot %d %s: stderr\n", bot, arb_term(cfg.bots[bot].name, name, sizeof name));
    cli_bot_ends sc = {.bot = bot};
    if (cli_bot_ends_walk(data, len, &sc) != 0) {
        printf("(a corrupt record follows)\n");
        return CLI_EXIT_FAIL;
    }
    if (sc.processes == 0)
        printf("(no botend record: the transcript ends before the bot's process did)\n");
    return CLI_EXIT_OK;
}

enum { FAIR_VERIFIED, FAIR_WRONG_SECRET, FAIR_NOT_REPRODUCED };

/* The secret against the transcript: the commitment and key follow from
 * it, and the transcript is reproduced (so every deal follows too). */
static int fairness(const replay_report *rep, const uint8_t secret[32], char *msg, size_t len)
{
    if (replay_check_secret(&rep->cfg, secret, msg, len) != 0)
        return FAIR_WRONG_SECRET;
    return !rep->reproduced || rep->digest_rc != 0 ? FAIR_NOT_REPRODUCED : FAIR_VERIFIED;
}

/* --json: after the records, one line with what replay found. */
static int json_summary(const replay_report *rep, const char *want_digest, const char *want_signer,
                        const uint8_t *secret)
{
    static const char *const fair_names[] = {"verified", "wrong-secret", "not-reproduced"};
    bool digest_ok = rep->digest_rc == 0 && (!want_digest || strcmp(want_digest, rep->digest) == 0);
    int fair = -1;
    char msg[512] = "";
    if (secret)
        fair = fairness(rep, secret, msg, sizeof msg);
    arb_buf b;
    arb_buf_init(&b, 0);
    arb_buf_printf(&b, "{\"type\":\"replay\",\"digest\":");
    arb_json_str(&b, rep->digest, strlen(rep->digest));
    arb_buf_printf(&b, ",\"digest_ok\":%s,\"digest_error\":", digest_ok ? "true" : "false");
    const char *derr = rep->digest_rc ? rep->digest_msg : digest_ok ? "" : "not the digest given with --digest";
    arb_json_str(&b, derr, strlen(derr));
    char sig_line[512];
    bool sig_fail = replay_signature_verdict(rep, want_signer, "--signer", sig_line, sizeof sig_line) != 0;
    arb_buf_printf(&b, ",\"signed\":%s,\"signer\":", rep->sig_rc != ARB_ENOTFOUND ? "true" : "false");
    arb_json_str(&b, rep->signer, strlen(rep->signer));
    arb_buf_printf(&b, ",\"signature_ok\":%s,\"signature\":", sig_fail ? "false" : "true");
    arb_json_str(&b, sig_line, strlen(sig_line));
    arb_buf_printf(&b, ",\"reproduced\":%s,\"divergence\":", rep->reproduced ? "true" : "false");
    arb_json_str(&b, rep->divergence, strlen(rep->divergence));
    arb_buf_printf(&b, ",\"fairness\":");
    if (fair < 0)
        arb_buf_puts(&b, "null");
    else
        arb_buf_printf(&b, "\"%s\"", fair_names[fair]);
    arb_buf_puts(&b, ",\"fairness_detail\":");
    arb_json_str(&b, msg, strlen(msg));
    arb_buf_puts(&b, "}");
    printf("%s\n", arb_buf_str(&b));
    arb_buf_release(&b);
    return digest_ok && !sig_fail && rep->reproduced && fair <= FAIR_VERIFIED ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* What the command line asked of `arbiter replay`. */
typedef struct replay_opts {
    const char *path;            /* the transcript (--match: "match ID", for messages) */
    int64_t match_id;            /* --match: from the record (0: a file) */
    const char *state, *db;      /* --state, --db: where the record is */
    char match_name[40];
    const char *want_digest;     /* --digest: the digest the record holds (NULL: none given) */
    const char *want_signer;     /* --signer: the public key that must have signed (NULL: any) */
    const char *stderr_of;       /* --stderr BOT: print that bot's stderr and nothing else */
    bool show, rerun, dump, json;
    uint32_t only_game;          /* --game N, else ALL_GAMES */
    bool have_secret;            /* --secret-file or --secret: secret holds it */
    uint8_t secret[32];
} replay_opts;

/* Read the options into *o: -1 to go on, else the exit code (a message
 * said). */
static int parse_replay_opts(int argc, char **argv, replay_opts *o)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"show", no_argument, NULL, 's'},
        {"rerun", no_argument, NULL, 'r'},
        {"dump", no_argument, NULL, 'd'},
        {"json", no_argument, NULL, 'j'},
        {"game", required_argument, NULL, 'g'},
        {"stderr", required_argument, NULL, 'e'},
        {"digest", required_argument, NULL, 'D'},
        {"signer", required_argument, NULL, 'S'},
        {"secret-file", required_argument, NULL, 'K'},
        {"secret", required_argument, NULL, 'k'},
        {"match", required_argument, NULL, 'm'},
        {"state", required_argument, NULL, 'T'},
        {"db", required_argument, NULL, 'B'},
        {NULL, 0, NULL, 0},
    };
    const char *secret_file = NULL, *secret_hex = NULL;
    memset(o, 0, sizeof *o);
    o->only_game = ALL_GAMES;
    char *end;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("replay", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': o->show = true; break;
        case 'r': o->rerun = true; break;
        case 'd': o->dump = true; break;
        case 'j': o->json = true; break;
        case 'e': o->stderr_of = optarg; break;
        case 'g':
            o->only_game = (uint32_t)strtoul(optarg, &end, 10);
            if (!*optarg || *end || *optarg == '-' || o->only_game >= ARB_MAX_DEALS) {
                fprintf(stderr, "arbiter: replay: --game \"%s\": expected a game number from 0\n", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'D': o->want_digest = optarg; break;
        case 'S':
            o->want_signer = optarg;
            if (strlen(optarg) != 64 || strspn(optarg, "0123456789abcdef") != 64) {
                char shown[300];
                fprintf(stderr, "arbiter: replay: --signer \"%s\": expected 64 lowercase hex digits\n",
                        arb_term(optarg, shown, sizeof shown));
                return CLI_EXIT_USAGE;
            }
            break;
        case 'K': secret_file = optarg; break;
        case 'k': secret_hex = optarg; break;
        case 'm':
            if (cli_match_id("replay", "--match", optarg, &o->match_id))
                return CLI_EXIT_USAGE;
            break;
        case 'T': o->state = optarg; break;
        case 'B': o->db = optarg; break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != (o->match_id ? 0 : 1)) {
        if (o->match_id)
            fprintf(stderr, "arbiter: replay: --match ID or FILE, not both\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!o->match_id && (o->state || o->db)) {
        fprintf(stderr, "arbiter: replay: --state and --db are for --match\n");
        return CLI_EXIT_USAGE;
    }
    if (o->json && (o->dump || o->show)) {
        fprintf(stderr, "arbiter: replay: --json prints only JSON: not with --%s\n", o->dump ? "dump" : "show");
        return CLI_EXIT_USAGE;
    }
    snprintf(o->match_name, sizeof o->match_name, "match %" PRId64, o->match_id);
    o->path = o->match_id ? o->match_name : argv[optind];
    char err[512];
    o->have_secret = secret_file || secret_hex;
    if (secret_file && arb_key_read_file(secret_file, o->secret, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (secret_hex && arb_key_parse(secret_hex, o->secret) != 0) {
        fprintf(stderr, "arbiter: --secret: expected 64 hex digits (a 32-byte secret)\n");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* --dump and --json: the records one by one (a corrupt one said). */
static void dump_records(const uint8_t *data, size_t len, const replay_opts *o)
{
    dump_ctx dc = {.json = o->json, .only_game = o->only_game};
    arb_buf_init(&dc.out, len * 8 + 4096);
    int drc = tr_each(data, len, dump_record, &dc);
    arb_buf_release(&dc.out);
    if (drc != 0) {
        if (o->json)
            printf("{\"type\":\"corrupt\",\"error\":\"%s\"}\n", arb_strerror(drc));
        else
            printf("(a corrupt record follows)\n");
    }
}

/* Judge the transcript again (or, --rerun, play its bots again) into
 * *rep, the deals shown as they go with --show; *shown: some were. */
static int judge_again(const uint8_t *data, size_t len, const replay_opts *o, replay_report *rep, bool *shown)
{
    show_ctx sc = {.cfg = &rep->cfg, .only_game = o->only_game, .started = ALL_GAMES};
    cli_bot_ends ends = {.bot = -1};
    for (int b = 0; b < ARB_MAX_SEATS; b++)
        sc.end_status[b] = -1;
    if (cli_bot_ends_walk(data, len, &ends) == 0)
        memcpy(sc.end_status, ends.last_status, sizeof sc.end_status);
    match_observer obs = {.ctx = &sc, .deal_start = show_deal_hands, .action = show_action,
                          .penalty = show_penalty, .deal_end = show_end};
    int rc;
    if (o->rerun) {
        live_options lo = {0};
        rc = replay_rerun(data, len, &lo, rep);
    } else {
        /* the observer needs the game, known once the header is read */
        match_config probe;
        char err[512];
        if (tr_read_header(data, len, &probe, err, sizeof err) == 0)
            sc.g = probe.game;
        rc = replay_judge(data, len, o->show && sc.g ? &obs : NULL, rep);
    }
    *shown = o->show && sc.g;
    return rc;
}

/* A transcript read but not to be judged (corrupt, or diverging): said on
 * stderr, and as JSON with --json. */
static int say_unjudged(const replay_opts *o, replay_report *rep, int rc)
{
    char why[4096];
    const char *what = rep->divergence[0] ? rep->divergence : arb_strerror(rc);
    if (o->json) {
        arb_buf b;
        arb_buf_init(&b, 0);
        arb_buf_puts(&b, "{\"type\":\"replay\",\"error\":");
        arb_json_str(&b, what, strlen(what));
        printf("%s}\n", arb_buf_str(&b));
        arb_buf_release(&b);
    }
    fprintf(stderr, "arbiter: %s: %s\n", o->path, arb_term(what, why, sizeof why));
    return CLI_EXIT_FAIL;
}

/* The verdict as text: the match, its digest, signature, reproduction and
 * fairness, a line each. CLI_EXIT_OK when every check passed. */
static int print_verdict(const replay_opts *o, const replay_report *rep, bool after_deals)
{
    int status = 0;
    char shown[4096];
    /* a blank line apart from the deals --show printed, none before the first line */
    printf("%s%s: %s/%s, seed %" PRIu64 ", %u deal%s, duplicate %s\n", after_deals ? "\n" : "", o->path,
           rep->cfg.game->name, arb_term(rep->cfg.preset, shown, sizeof shown), rep->cfg.seed, rep->cfg.deals,
           rep->cfg.deals == 1 ? "" : "s", match_duplicate_name((match_duplicate)rep->cfg.duplicate));
    if (rep->digest_rc == 0)
        printf("digest:  ok (sha256 %s)\n", rep->digest);
    else {
        printf("digest:  FAILED: %s\n", arb_term(rep->digest_msg, shown, sizeof shown));
        status = CLI_EXIT_FAIL;
    }
    if (o->want_digest && strcmp(o->want_digest, rep->digest) != 0) {
        printf("digest:  FAILED: the record says %s, the file carries %s\n", o->want_digest,
               rep->digest[0] ? arb_term(rep->digest, shown, sizeof shown) : "none");
        status = CLI_EXIT_FAIL;
    }
    char sig_line[512];
    if (replay_signature_verdict(rep, o->want_signer, "--signer", sig_line, sizeof sig_line) != 0)
        status = CLI_EXIT_FAIL;
    printf("signature: %s\n", sig_line);
    if (rep->reproduced) {
        printf("%s reproduced: %u games, %" PRIu64 " decisions;", o->rerun ? "bots' replies" : "verdict",
               rep->res.ndeals, rep->res.decisions);
        for (int b = 0; b < rep->res.nbots; b++)
            printf(" %s %+" PRId64, arb_term(rep->res.bots[b].name, shown, sizeof shown), rep->res.bots[b].total);
        printf("\n");
    } else {
        printf("%s NOT reproduced: %s\n", o->rerun ? "bots' replies" : "verdict", arb_term(rep->divergence, shown, sizeof shown));
        status = CLI_EXIT_FAIL;
    }
    if (o->have_secret) {
        char msg[512];
        int fair = fairness(rep, o->secret, msg, sizeof msg);
        if (fair == FAIR_WRONG_SECRET) {
            printf("fairness: FAILED: %s\n", msg);
            status = CLI_EXIT_FAIL;
        } else if (fair == FAIR_NOT_REPRODUCED) {
            printf("fairness: FAILED: %s, but the transcript is not reproduced from it (see above)\n", msg);
            status = CLI_EXIT_FAIL;
        } else {
            printf("fairness: every deal follows from seed + secret: verified (%s)\n", msg);
        }
    } else {
        printf("fairness: not checked (commitment %s; give --secret-file F or --secret HEX once the secret is "
               "revealed)\n", rep->cfg.commitment);
    }
    return status;
}

/* --match: the match's transcript from the record (store_transcript_load:
 * by its recorded digest, checked as it is read), and the digest and
 * referee key the record holds, required from then on. -1 to go on, else
 * an exit code (said). */
static int from_record(replay_opts *o, uint8_t **data, size_t *len, char digest[65], char signer[65])
{
    cli_reader rd = {.state = o->state ? o->state : "arbiter-state", .db = o->db};   /* as cli_reader_open */
    int status = cli_reader_connect("replay", &rd);
    if (status >= 0)
        return status;
    status = cli_match_transcript("replay", rd.st, o->match_id, data, len, digest, signer);
    cli_reader_close(&rd);
    if (status != CLI_EXIT_OK)
        return status;
    if (!o->want_digest && digest[0])
        o->want_digest = digest;
    if (!o->want_signer && signer[0])
        o->want_signer = signer;
    return -1;
}

int cmd_replay(int argc, char **argv)
{
    replay_opts o;
    int status = parse_replay_opts(argc, argv, &o);
    if (status >= 0)
        return status;
    char err[512], rec_digest[65] = "", rec_signer[65] = "";
    uint8_t *data;
    size_t len;
    if (o.match_id) {
        if ((status = from_record(&o, &data, &len, rec_digest, rec_signer)) >= 0)
            return status;
    } else if (tr_load(o.path, &data, &len, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (o.only_game != ALL_GAMES && !has_game(data, len, o.only_game)) {
        fprintf(stderr, "arbiter: replay: --game %u: %s has no deal record of game %u (games count from 0)\n",
                o.only_game, o.path, o.only_game);
        free(data);
        return CLI_EXIT_USAGE;
    }
    if (o.stderr_of) {
        status = print_stderr(o.path, data, len, o.stderr_of);
        free(data);
        return status;
    }
    if (o.dump || o.json)
        dump_records(data, len, &o);
    replay_report rep;
    bool after_deals;
    int rc = judge_again(data, len, &o, &rep, &after_deals);
    free(data);
    if (rc)
        status = say_unjudged(&o, &rep, rc);
    else if (o.json)
        status = json_summary(&rep, o.want_digest, o.want_signer, o.have_secret ? o.secret : NULL);
    else
        status = print_verdict(&o, &rep, after_deals);
    match_result_release(&rep.res);
    return status;
}
