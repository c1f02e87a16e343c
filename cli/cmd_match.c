/* cmd_match.c — `arbiter match`: one match between bot programs, judged
 * live, with a result table and a transcript. */
#include "cli.h"
#include "arb_text.h"
#include "live.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter match --bot NAME=CMD --bot NAME=CMD --bot NAME=CMD [options]\n"
        "\n"
        "Plays one match between bot programs and prints the result. CMD is a\n"
        "program and its arguments separated by spaces (no shell); the program is\n"
        "looked up in PATH, and arguments naming existing files are made absolute.\n"
        "\n"
        "  --game NAME            doudizhu (default)\n"
        "  --rules PRESET         standard | rlcard | douzero | four-player (default standard)\n"
        "  --set k=v,...          rule options (`arbiter rules` lists them)\n"
        "  --deals N              distinct deals (default 1)\n"
        "  --seed N               match seed (default 1): the match's public label\n"
        "  --secret-file F        the 32-byte secret (64 hex digits, mode 0600) the deals\n"
        "                         are derived from with the seed; same seed and secret,\n"
        "                         same match. Default: a fresh random secret, printed\n"
        "                         (revealed) when the match is over\n"
        "  --duplicate MODE       off | rotate | all: replay each deal with the seats\n"
        "                         rotated (n seatings) or permuted (n! seatings)\n"
        "  --fixed-seats          without duplicate, bot i always sits in seat i\n"
        "  --move-ms N            free time per decision (default 1000)\n"
        "  --deal-ms N            time per deal per bot, -1 for none (default -1)\n"
        "  --bank-ms N            overrun bank for the match (default 30000)\n"
        "  --startup-ms N         time to answer the handshake (default 5000)\n"
        "  --policy P             autoplay | forfeit-deal | forfeit-match (default autoplay)\n"
        "  --strikes N            autoplay strikes before forfeiting the match (default 3)\n"
        "  --forfeit-points N     the forfeit stake P (default 6)\n"
        "  --transcript FILE      write the transcript (msgpack, SHA-256 digest)\n"
        "  --sandbox MODE         auto | bwrap | none (default auto: bubblewrap when it works)\n"
        "  --workdir DIR          where the bots' working directories go (default a temp dir)\n"
        "  --keep-workdir         leave the bots' files behind\n"
        "  --json                 print the result as JSON\n"
        "  --quiet                no per-penalty lines\n");
}

static int parse_i64(const char *opt, const char *val, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (errno || *end || end == val || v < lo || v > hi) {
        fprintf(stderr, "arbiter: %s \"%s\": expected an integer in %" PRId64 "..%" PRId64 "\n", opt, val, lo, hi);
        return 1;
    }
    *out = v;
    return 0;
}

typedef struct show_ctx {
    const match_config *cfg;
    bool quiet;
} show_ctx;

static void on_penalty(void *ctx, const match_deal *d, int seat_no, int bot, match_reason r,
                       const char *consequence, const char *detail)
{
    show_ctx *c = ctx;
    if (c->quiet)
        return;
    char name[256], what[1024];   /* a reply, a name: a bot's bytes, escaped for the terminal */
    arb_term(c->cfg->bots[bot].name, name, sizeof name);
    arb_term(detail, what, sizeof what);
    if (d)
        fprintf(stderr, "penalty: bot %s (seat %d), game %u, decision %u: %s — %s; %s\n",
                name, seat_no, d->game, d->decisions, match_reason_name(r), what, consequence);
    else
        fprintf(stderr, "penalty: bot %s: %s — %s; %s\n", name, match_reason_name(r), what, consequence);
}

static void print_table(const match_config *cfg, const match_result *res, const char *digest, const char *path)
{
    printf("match %s/%s, %u deals, seed %" PRIu64 ", duplicate %s: %u games, %" PRIu64 " decisions, %.2f s\n\n",
           cfg->game->name, cfg->preset, cfg->deals, cfg->seed,
           match_duplicate_name((match_duplicate)cfg->duplicate), res->ndeals, res->decisions, res->wall_ns / 1e9);
    printf("%-4s %-16s %8s %6s %9s %9s %9s %9s %7s %9s  %s\n", "rank", "bot", "total", "won", "decisions",
           "avg ms", "max ms", "cpu ms", "strikes", "penalties", "sandbox");
    for (int rank = 1; rank <= res->nbots; rank++)
        for (int b = 0; b < res->nbots; b++) {
            const match_bot_stats *s = &res->bots[b];
            if (s->rank != rank)
                continue;
            char name[256];
            printf("%-4d %-16s %+8" PRId64 " %6u %9u %9.2f %9.2f %9.2f %7u %9u  %s%s\n", s->rank,
                   arb_term(s->name, name, sizeof name), s->total,
                   s->deals_won, s->decisions, s->decisions ? s->wall_ns / 1e6 / s->decisions : 0.0,
                   s->max_wall_ns / 1e6, s->cpu_ns / 1e6, s->strikes, s->penalties, s->sandbox,
                   s->forfeited ? "  FORFEITED" : "");
        }
    printf("\nwinner:");
    for (int b = 0; b < res->nbots; b++) {
        char name[256];
        if (res->winners >> b & 1)
            printf(" %s", arb_term(res->bots[b].name, name, sizeof name));
    }
    printf("\n");
    if (path)
        printf("transcript: %s (sha256 %s)\n", path, digest);
    else
        printf("sha256 of the transcript: %s (not kept: --transcript FILE keeps it)\n", digest);
}

static void print_json(const match_config *cfg, const match_result *res, const char *digest, const char *secret)
{
    printf("{\"game\":\"%s\",\"rules\":\"%s\",\"seed\":%" PRIu64 ",\"games\":%u,\"decisions\":%" PRIu64
           ",\"sha256\":\"%s\",\"commitment\":\"%s\",", cfg->game->name, cfg->preset, cfg->seed, res->ndeals,
           res->decisions, digest, cfg->commitment);
    if (secret[0])
        printf("\"secret\":\"%s\",", secret);
    printf("\"bots\":[");
    for (int b = 0; b < res->nbots; b++) {
        const match_bot_stats *s = &res->bots[b];
        printf("%s{\"name\":\"%s\",\"rank\":%d,\"total\":%" PRId64 ",\"won\":%u,\"decisions\":%u,\"wall_ns\":%" PRIu64
               ",\"cpu_ns\":%" PRIu64 ",\"strikes\":%u,\"penalties\":%u,\"forfeited\":%s,\"sandbox\":\"%s\"}",
               b ? "," : "", s->name, s->rank, s->total, s->deals_won, s->decisions, s->wall_ns, s->cpu_ns,
               s->strikes, s->penalties, s->forfeited ? "true" : "false", s->sandbox);
    }
    printf("]}\n");
}

int cmd_match(int argc, char **argv)
{
    match_config cfg;
    match_config_init(&cfg, &arb_game_doudizhu);
    live_options lo = {0};
    const char *transcript = NULL, *secret_file = NULL;
    bool json = false, quiet = false, preset_given = false, forfeit_given = false;
    char sets[ARB_MAX_OPTIONS_TEXT] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--fixed-seats") == 0) { cfg.fixed_seats = true; continue; }
        if (strcmp(a, "--keep-workdir") == 0) { lo.keep_workdir = true; continue; }
        if (strcmp(a, "--json") == 0) { json = true; continue; }
        if (strcmp(a, "--quiet") == 0) { quiet = true; continue; }
        if (!v) {
            fprintf(stderr, "arbiter: %s needs a value (arbiter match --help)\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--game") == 0) {
            cfg.game = arb_game_find(v);
            if (!cfg.game) {
                fprintf(stderr, "arbiter: unknown game \"%s\" (doudizhu)\n", v);
                return 2;
            }
        } else if (strcmp(a, "--rules") == 0) {
            snprintf(cfg.preset, sizeof cfg.preset, "%s", v);
            preset_given = true;
        } else if (strcmp(a, "--set") == 0) {
            size_t l = strlen(sets);
            snprintf(sets + l, sizeof sets - l, "%s%s", l ? "," : "", v);
        } else if (strcmp(a, "--bot") == 0) {
            if (cfg.nbots >= ARB_MAX_SEATS) {
                fprintf(stderr, "arbiter: at most %d bots\n", ARB_MAX_SEATS);
                return 2;
            }
            const char *eq = strchr(v, '=');
            char name[ARB_MAX_BOT_NAME + 1], err[512];
            if (!eq || eq == v || (size_t)(eq - v) > ARB_MAX_BOT_NAME) {
                fprintf(stderr, "arbiter: --bot \"%s\": expected NAME=COMMAND (a name of 1..%d characters)\n",
                        v, ARB_MAX_BOT_NAME);
                return 2;
            }
            snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
            if (match_bot_command(&cfg.bots[cfg.nbots], name, eq + 1, NULL, err, sizeof err) != 0) {
                fprintf(stderr, "arbiter: %s\n", err);
                return 2;
            }
            for (int b = 0; b < cfg.nbots; b++)
                if (strcmp(cfg.bots[b].name, cfg.bots[cfg.nbots].name) == 0) {
                    fprintf(stderr, "arbiter: two bots named \"%s\"\n", cfg.bots[b].name);
                    return 2;
                }
            cfg.nbots++;
        } else if (strcmp(a, "--deals") == 0) {
            if (parse_i64(a, v, 1, ARB_MAX_DEALS, &n)) return 2;
            cfg.deals = (uint32_t)n;
        } else if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            cfg.seed = strtoull(v, &end, 0);
            if (errno || *end || v[0] == '-') {
                fprintf(stderr, "arbiter: --seed \"%s\": expected a non-negative integer\n", v);
                return 2;
            }
        } else if (strcmp(a, "--duplicate") == 0) {
            match_duplicate d;
            if (match_duplicate_parse(v, &d)) {
                fprintf(stderr, "arbiter: --duplicate \"%s\": expected off, rotate or all\n", v);
                return 2;
            }
            cfg.duplicate = (uint8_t)d;
        } else if (strcmp(a, "--policy") == 0) {
            match_policy p;
            if (match_policy_parse(v, &p)) {
                fprintf(stderr, "arbiter: --policy \"%s\": expected autoplay, forfeit-deal or forfeit-match\n", v);
                return 2;
            }
            cfg.policy = (uint8_t)p;
        } else if (strcmp(a, "--move-ms") == 0) {
            if (parse_i64(a, v, 1, 3600000, &cfg.move_ms)) return 2;
        } else if (strcmp(a, "--deal-ms") == 0) {
            if (parse_i64(a, v, -1, 86400000, &cfg.deal_ms)) return 2;
        } else if (strcmp(a, "--bank-ms") == 0) {
            if (parse_i64(a, v, 0, 86400000, &cfg.bank_ms)) return 2;
        } else if (strcmp(a, "--startup-ms") == 0) {
            if (parse_i64(a, v, 1, 600000, &cfg.startup_ms)) return 2;
        } else if (strcmp(a, "--strikes") == 0) {
            if (parse_i64(a, v, 0, 1000000, &n)) return 2;
            cfg.strikes = (uint32_t)n;
        } else if (strcmp(a, "--forfeit-points") == 0) {
            if (parse_i64(a, v, 0, 1000000000, &cfg.forfeit_points)) return 2;
            forfeit_given = true;
        } else if (strcmp(a, "--transcript") == 0) {
            transcript = v;
        } else if (strcmp(a, "--secret-file") == 0) {
            secret_file = v;
        } else if (strcmp(a, "--workdir") == 0) {
            lo.workdir = v;
        } else if (strcmp(a, "--sandbox") == 0) {
            if (strcmp(v, "auto") == 0) lo.sandbox = LIVE_SANDBOX_AUTO;
            else if (strcmp(v, "none") == 0) lo.sandbox = LIVE_SANDBOX_NONE;
            else if (strcmp(v, "bwrap") == 0) lo.sandbox = LIVE_SANDBOX_BWRAP;
            else {
                fprintf(stderr, "arbiter: --sandbox \"%s\": expected auto, bwrap or none\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "arbiter: match: unknown option \"%s\" (arbiter match --help)\n", a);
            return 2;
        }
    }
    snprintf(cfg.options, sizeof cfg.options, "%s", sets);
    /* The game's own defaults where none was given (--game may come last). */
    if (!preset_given)
        snprintf(cfg.preset, sizeof cfg.preset, "%s", cfg.game->default_preset);
    if (!forfeit_given)
        cfg.forfeit_points = cfg.game->default_forfeit_points;
    void *rules = calloc(1, cfg.game->rules_size);
    char err[512];
    if (!rules || match_config_rules(&cfg, rules, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", rules ? err : "out of memory");
        free(rules);
        return 2;
    }
    free(rules);
    /* The deals follow from the secret and the seed (docs/rng.md); no bot
     * ever sees either. */
    uint8_t secret[32];
    if (secret_file ? arb_key_read_file(secret_file, secret, err, sizeof err) != 0 : arb_key_random(secret) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", secret_file ? err : "-: no random source");
        return 2;
    }
    char label[ARB_MAX_KEY_LABEL];
    snprintf(label, sizeof label, "match|%" PRIu64, cfg.seed);
    if (match_set_key(&cfg, secret, label) != 0) {
        fprintf(stderr, "arbiter: cannot derive the match key\n");
        return 2;
    }
    if (!json)
        printf("commitment (sha256 of the secret): %s\n", cfg.commitment);
    live_driver *live = live_new(&lo, err, sizeof err);
    if (!live) {
        fprintf(stderr, "arbiter: %s\n", err);
        return 2;
    }
    /* The transcript being written holds every hand: created (0600) now and
     * hidden from the bots. */
    int fd = transcript ? open(transcript, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    if (transcript && fd < 0) {
        fprintf(stderr, "arbiter: --transcript %s: %s\n", transcript, strerror(errno));
        live_free(live);
        return 2;
    }
    if (fd >= 0)
        close(fd);
    char hidden[4096];
    if (transcript && realpath(transcript, hidden)) {
        lo.hide[0] = hidden;
        live_free(live);
        live = live_new(&lo, err, sizeof err);
        if (!live) {
            fprintf(stderr, "arbiter: %s\n", err);
            return 2;
        }
    }
    show_ctx sc = {&cfg, quiet};
    match_observer obs = {.ctx = &sc, .penalty = on_penalty};
    match_result res;
    char digest[65];
    int rc = record_match(transcript, &cfg, live_driver_of(live), &obs, &res, digest);
    live_free(live);
    if (rc) {
        fprintf(stderr, "arbiter: match failed: %s\n", res.error[0] ? res.error : arb_strerror(rc));
        match_result_release(&res);
        return 1;
    }
    /* A bot that could not play: its own last words help its author most. */
    for (int b = 0; b < res.nbots && !quiet; b++) {
        const match_bot_stats *s = &res.bots[b];
        if ((s->forfeited || s->gone) && s->stderr_tail[0]) {
            /* its own bytes: lines kept, everything a terminal would obey escaped */
            char name[256], tail[4 * sizeof s->stderr_tail + 4];
            arb_escape_term(s->stderr_tail, strlen(s->stderr_tail), tail, sizeof tail, ARB_TERM_KEEP_NL);
            fprintf(stderr, "bot %s: the end of its stderr:\n%s%s", arb_term(s->name, name, sizeof name), tail,
                    tail[strlen(tail) - 1] == '\n' ? "" : "\n");
        }
    }
    /* What the sandbox each bot got contains, said plainly (docs/security.md). */
    for (int b = 0; b < res.nbots && !quiet; b++) {
        bool seen = false;
        for (int c = 0; c < b; c++)
            seen |= strcmp(res.bots[c].sandbox, res.bots[b].sandbox) == 0;
        if (!seen && res.bots[b].sandbox[0])
            fprintf(stderr, "sandbox %s: %s\n", res.bots[b].sandbox, seat_sandbox_text(res.bots[b].sandbox));
    }
    /* The match is over: a secret drawn for it is revealed, so that anyone
     * can check its deals (arbiter replay --secret). A secret from a file is
     * the organiser's and stays where it is. */
    char hex[65] = "";
    if (!secret_file)
        arb_key_hex(secret, hex);
    if (json) {
        print_json(&cfg, &res, digest, hex);
    } else {
        print_table(&cfg, &res, digest, transcript);
        if (hex[0])
            printf("secret (revealed now that the match is over): %s\n", hex);
    }
    match_result_release(&res);
    return 0;
}
