/* cmd_match.c — `arbiter match`: one match between bot programs, judged
 * live, with a result table and a transcript. */
#include "cli.h"
#include "arb_text.h"
#include "live.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
#include "arb_limits.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    /* the default game's forfeit stake, as an example of "the game's own" */
    const arb_game *dg = arb_game_find(CLI_DEFAULT_GAME);
    fprintf(f,
        "usage: arbiter match --bot NAME=CMD --bot NAME=CMD ... [options]   (a --bot per seat)\n"
        "       arbiter match --game GAME --team NAME=CMD1,CMD2 --team NAME=CMD3,CMD4 [options]\n"
        "\n"
        "Plays one match between bot programs and prints the result. CMD is a\n"
        "program and its arguments separated by spaces (no shell); the program is\n"
        "looked up in PATH, and arguments naming existing files are made absolute.\n"
        "For a partnership game, --team gives a team's two partners (NAME=CMD:\n"
        "the same program twice); they sit opposite, bots NAME-1 and NAME-2.\n"
        "\n"
        "  --game NAME            the game (default " CLI_DEFAULT_GAME "; `arbiter rules --game NAME`)\n"
        "  --rules PRESET         the game's preset (default its own; `arbiter rules --presets`)\n"
        "  --set k=v,...          rule options (`arbiter rules` lists them)\n"
        "  --deals N              distinct deals (default 1)\n"
        "  --seed N               match seed (default 1): the match's public label\n"
        "  --secret-file F        the 32-byte secret (64 hex digits, mode 0600) the deals\n"
        "                         are derived from with the seed; same seed and secret,\n"
        "                         same match. Default: a fresh random secret, printed\n"
        "                         (revealed) when the match is over\n"
        "  --duplicate MODE       off | rotate | all | swap: replay each deal with the\n"
        "                         seats rotated (n seatings), permuted (n! seatings) or,\n"
        "                         for two teams, swapped (2 seatings: each team in the\n"
        "                         other's seats). A game whose match may end early\n"
        "                         plays each seating as a match of its own (a table);\n"
        "                         swap then compares the two tables deal by deal\n"
        "  --compare-deals N      with --duplicate swap: play seeded matches (seed,\n"
        "                         seed+1, ...) until N deals were played at both tables,\n"
        "                         and compare them all (transcripts FILE.1, FILE.2, ...)\n"
        "  --fixed-seats          without duplicate, bot i always sits in seat i\n"
        "  --move-ms N            free time per decision (default 1000)\n"
        "  --deal-ms N            time per deal per bot, -1 for none (default -1)\n"
        "  --bank-ms N            overrun bank for the match (default 30000)\n"
        "  --startup-ms N         time to answer the handshake (default 5000)\n"
        "  --policy P             autoplay | forfeit-deal | forfeit-match (default autoplay)\n"
        "  --strikes N            autoplay strikes before forfeiting the match (default 3)\n"
        "  --forfeit-points N     the forfeit stake P (default: the game's own, %lld for %s)\n"
        "  --transcript FILE      write the transcript (msgpack, SHA-256 digest)\n"
        "  --sandbox MODE         auto | bwrap | none (default auto: bubblewrap when it works)\n"
        "  --workdir DIR          where the bots' working directories go (default a temp dir)\n"
        "  --keep-workdir         leave the bots' files behind\n"
        "  --end-grace-ms N       after \"end\", how long a bot may take to exit by\n"
        "                         itself before it is killed (default 1000)\n"
        "  --format table|json    the result as a table (default) or one JSON object\n"
        "  --json                 the same as --format json\n"
        "  --quiet                no per-penalty lines\n",
        dg ? (long long)dg->default_forfeit_points : 0LL, dg ? dg->name : "?");
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
    printf("match %s/%s, %u deal%s, seed %" PRIu64 ", duplicate %s: %u game%s, %" PRIu64 " decisions, %.2f s\n\n",
           cfg->game->name, cfg->preset, cfg->deals, cfg->deals == 1 ? "" : "s", cfg->seed,
           match_duplicate_name((match_duplicate)cfg->duplicate), res->ndeals, res->ndeals == 1 ? "" : "s",
           res->decisions, res->wall_ns / 1e9);
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
    if (res->nteams > 0) {
        if (res->ntables)
            printf("\n%-4s %-33s %8s %6s\n", "rank", "team", "score", "tables");
        else
            printf("\n%-4s %-33s %8s\n", "rank", "team", "score");
        for (int rank = 1; rank <= res->nteams; rank++)
            for (int t = 0; t < res->nteams; t++) {
                if (res->team_rank[t] != rank)
                    continue;
                char members[80] = "", name[256];
                for (int b = 0; b < res->nbots; b++)
                    if (res->team_of_bot[b] == t) {
                        size_t l = strlen(members);
                        snprintf(members + l, sizeof members - l, "%s%s", l ? " + " : "",
                                 arb_term(res->bots[b].name, name, sizeof name));
                    }
                if (res->ntables)
                    printf("%-4d %-33s %8" PRId64 " %6u\n", res->team_rank[t], members, res->team_total[t],
                           res->tables_won[t]);
                else
                    printf("%-4d %-33s %8" PRId64 "\n", res->team_rank[t], members, res->team_total[t]);
            }
        for (uint32_t i = 0; i < res->ntables; i++) {
            const match_table *tb = &res->tables[i];
            printf("%s table %u: %u game%s, ", i ? "" : "\n", i + 1, tb->games, tb->games == 1 ? "" : "s");
            for (int t = 0; t < res->nteams; t++)
                printf("%steam %d %" PRId64, t ? ", " : "scores ", t, tb->team_score[t]);
            if (tb->winner_team >= 0)
                printf("; won by team %d\n", tb->winner_team);
            else
                printf("; no winner\n");
        }
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

/* The match as one JSON object, without a newline (a series embeds it). */
static void print_json(const match_config *cfg, const match_result *res, const char *digest, const char *secret)
{
    printf("{\"game\":");
    cli_json_string(stdout, cfg->game->name);
    printf(",\"rules\":");
    cli_json_string(stdout, cfg->preset);
    printf(",\"seed\":%" PRIu64 ",\"games\":%u,\"decisions\":%" PRIu64 ",\"sha256\":\"%s\",\"commitment\":\"%s\",",
           cfg->seed, res->ndeals, res->decisions, digest, cfg->commitment);
    if (secret[0])
        printf("\"secret\":\"%s\",", secret);
    printf("\"bots\":[");
    for (int b = 0; b < res->nbots; b++) {
        const match_bot_stats *s = &res->bots[b];
        printf("%s{\"name\":", b ? "," : "");
        cli_json_string(stdout, s->name);
        printf(",\"rank\":%d,\"total\":%" PRId64 ",\"won\":%u,\"decisions\":%u,\"wall_ns\":%" PRIu64
               ",\"cpu_ns\":%" PRIu64 ",\"strikes\":%u,\"penalties\":%u,\"forfeited\":%s,\"sandbox\":",
               s->rank, s->total, s->deals_won, s->decisions, s->wall_ns, s->cpu_ns, s->strikes, s->penalties,
               s->forfeited ? "true" : "false");
        cli_json_string(stdout, s->sandbox);
        printf("}");
    }
    printf("]");
    if (res->nteams > 0) {
        printf(",\"teams\":[");
        for (int t = 0; t < res->nteams; t++) {
            printf("%s{\"rank\":%d,\"score\":%" PRId64 ",\"members\":[", t ? "," : "", res->team_rank[t],
                   res->team_total[t]);
            bool first = true;
            for (int b = 0; b < res->nbots; b++)
                if (res->team_of_bot[b] == t) {
                    printf("%s", first ? "" : ",");
                    cli_json_string(stdout, res->bots[b].name);
                    first = false;
                }
            printf("]");
            if (res->ntables)
                printf(",\"tables_won\":%u", res->tables_won[t]);
            printf("}");
        }
        printf("]");
    }
    if (res->ntables) {
        printf(",\"tables\":[");
        for (uint32_t i = 0; i < res->ntables; i++) {
            const match_table *tb = &res->tables[i];
            printf("%s{\"games\":%u,\"winner_team\":%d,\"team_scores\":[", i ? "," : "", tb->games,
                   tb->winner_team);
            for (int t = 0; t < res->nteams; t++)
                printf("%s%" PRId64, t ? "," : "", tb->team_score[t]);
            printf("]}");
        }
        printf("]");
    }
}

/* ---- Duplicate swap: the two tables compared deal by deal ---------------
 * Team A is bot 0's team (the first --team), B bot 1's. At table 1 A holds
 * the hands of seats 0 and 2, at table 2 B holds them (every bot one seat
 * on). Deal i, played at both tables, is compared by its paired
 * difference
 *     d_i = ((A1 - B2) + (A2 - B1)) / 2
 * where A1 is A's score in deal i at table 1 and so on: A1 - B2 is what A
 * made of the hands of seats 0+2 less what B made of the same hands, A2 -
 * B1 the same for the hands of seats 1+3. The luck of the cards cancels;
 * the tables' levels and declarers may differ (each table is its own
 * match), which is the part of luck that does not. The margin is the mean
 * of d_i over the deals compared, with a 95% confidence interval from
 * Student's t with n - 1 degrees of freedom (the d_i taken as independent
 * draws; docs/cli.md). */
typedef struct dup_pair {
    uint64_t match_seed;
    uint32_t deal;
    uint64_t seed[2];        /* the deal's seed at each table (equal: the same cards) */
    int64_t  a[2], b[2];     /* team A's and team B's score at each table */
    double   diff;
} dup_pair;

typedef struct dup_cmp {
    dup_pair *pairs;
    size_t n, cap;
} dup_cmp;

static int seat_in(const match_deal *d, int nbots, int bot)
{
    for (int s = 0; s < nbots; s++)
        if (d->bot_at[s] == bot)
            return s;
    return 0;
}

/* Append the deals of a swap match played at both tables. */
static int dup_collect(const match_config *cfg, const match_result *res, dup_cmp *c)
{
    if (res->ntables != 2 || res->nteams != 2)
        return 0;
    const match_table *t1 = &res->tables[0], *t2 = &res->tables[1];
    uint32_t both = t1->games < t2->games ? t1->games : t2->games;
    for (uint32_t i = 0; i < both; i++) {
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 256;
            dup_pair *p = realloc(c->pairs, cap * sizeof *p);
            if (!p)
                return -1;
            c->pairs = p;
            c->cap = cap;
        }
        const match_deal *d[2] = {&res->deals[t1->first + i], &res->deals[t2->first + i]};
        dup_pair *p = &c->pairs[c->n++];
        p->match_seed = cfg->seed;
        p->deal = d[0]->deal;
        for (int k = 0; k < 2; k++) {
            p->seed[k] = d[k]->seed;
            p->a[k] = d[k]->score[seat_in(d[k], res->nbots, 0)];
            p->b[k] = d[k]->score[seat_in(d[k], res->nbots, 1)];
        }
        p->diff = ((double)(p->a[0] - p->b[1]) + (double)(p->a[1] - p->b[0])) / 2;
    }
    return 0;
}

/* Student's t, two-sided 95% (the 0.975 quantile): exact to three places
 * up to 30 degrees of freedom, then the Cornish-Fisher expansion around
 * the normal's 1.96 (error below 0.001 from 30 on). */
static double t975(uint64_t df)
{
    static const double table[31] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                                     2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
                                     2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df >= 1 && df <= 30)
        return table[df];
    double z = 1.959964, v = (double)df;
    return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

typedef struct dup_summary {
    size_t n;
    double mean, sd, half;   /* half: the CI's half width; NAN below 2 deals */
    size_t seeds_equal;      /* deals whose two tables had the same seed */
} dup_summary;

static dup_summary dup_summarise(const dup_cmp *c)
{
    dup_summary s = {.n = c->n, .half = NAN};
    double sum = 0, ss = 0;
    for (size_t i = 0; i < c->n; i++) {
        sum += c->pairs[i].diff;
        s.seeds_equal += c->pairs[i].seed[0] == c->pairs[i].seed[1];
    }
    s.mean = c->n ? sum / (double)c->n : 0;
    for (size_t i = 0; i < c->n; i++)
        ss += (c->pairs[i].diff - s.mean) * (c->pairs[i].diff - s.mean);
    if (c->n >= 2) {
        s.sd = sqrt(ss / (double)(c->n - 1));
        s.half = t975(c->n - 1) * s.sd / sqrt((double)c->n);
    }
    return s;
}

static void team_label(const match_config *cfg, int b, char *out, size_t len)
{
    char x[256], y[256];
    snprintf(out, len, "%s + %s", arb_term(cfg->bots[b].name, x, sizeof x), arb_term(cfg->bots[b + 2].name, y, sizeof y));
}

static void dup_print_table(const match_config *cfg, const dup_cmp *c, bool series)
{
    char ta[600], tb[600];
    team_label(cfg, 0, ta, sizeof ta);
    team_label(cfg, 1, tb, sizeof tb);
    dup_summary s = dup_summarise(c);
    printf("\nduplicate swap, deal by deal: team A = %s (seats 0+2 at table 1, 1+3 at table 2), "
           "team B = %s\n", ta, tb);
    printf("%s%5s %20s %7s %7s %7s %7s %8s\n", series ? "  seed " : "", "deal", "deal seed", "A t1", "B t1",
           "A t2", "B t2", "diff");
    for (size_t i = 0; i < c->n; i++) {
        const dup_pair *p = &c->pairs[i];
        if (series)
            printf("%6" PRIu64 " ", p->match_seed);
        printf("%5u %20" PRIu64 " %+7" PRId64 " %+7" PRId64 " %+7" PRId64 " %+7" PRId64 " %+8.1f%s\n", p->deal,
               p->seed[0], p->a[0], p->b[0], p->a[1], p->b[1], p->diff,
               p->seed[0] == p->seed[1] ? "" : "  (seeds differ)");
    }
    if (s.n >= 2)
        printf("margin of A over B: %+.3f per deal over %zu deals compared, 95%% CI [%+.3f, %+.3f] "
               "(paired, t with %zu df; sd %.3f)\n", s.mean, s.n, s.mean - s.half, s.mean + s.half, s.n - 1, s.sd);
    else
        printf("margin of A over B: %+.3f per deal over %zu deal%s compared (no interval below 2 deals)\n", s.mean,
               s.n, s.n == 1 ? "" : "s");
}

static void dup_print_json(const dup_cmp *c)
{
    dup_summary s = dup_summarise(c);
    printf("\"duplicate\":{\"compared\":%zu,\"seeds_equal\":%zu,\"mean\":%.6f,", s.n, s.seeds_equal, s.mean);
    if (s.n >= 2)
        printf("\"sd\":%.6f,\"ci95\":[%.6f,%.6f],", s.sd, s.mean - s.half, s.mean + s.half);
    else
        printf("\"sd\":null,\"ci95\":null,");
    printf("\"deals\":[");
    for (size_t i = 0; i < c->n; i++) {
        const dup_pair *p = &c->pairs[i];
        printf("%s{\"match_seed\":%" PRIu64 ",\"deal\":%u,\"seed\":[%" PRIu64 ",%" PRIu64 "],\"a\":[%" PRId64
               ",%" PRId64 "],\"b\":[%" PRId64 ",%" PRId64 "],\"diff\":%.1f}", i ? "," : "", p->match_seed, p->deal,
               p->seed[0], p->seed[1], p->a[0], p->a[1], p->b[0], p->b[1], p->diff);
    }
    printf("]}");
}

typedef struct team_arg {
    char name[ARB_MAX_BOT_NAME + 1];
    char cmd[2][2048];
} team_arg;

/* --team: the game must have two fixed teams of two; team t's partners
 * become players t and t + 2 (they sit opposite in every seating). */
static int add_teams(match_config *cfg, const void *teams_arg, int nteams)
{
    const team_arg *teams = teams_arg;
    int8_t seat_team[ARB_MAX_SEATS];
    char err[512];
    if (cfg->nbots || nteams != 2) {
        fprintf(stderr, "arbiter: match: --team twice, for the two teams, and no --bot with them\n");
        return -1;
    }
    void *rules = calloc(1, cfg->game->rules_size);
    bool have = rules != NULL;
    int nt = have && match_rules_build(cfg->game, cfg->preset, cfg->options, rules, err, sizeof err) == 0
                 ? cfg->game->teams(rules, seat_team) : -1;
    int seats = nt == 2 ? cfg->game->seats(rules) : 0;
    free(rules);
    if (nt < 0) {
        fprintf(stderr, "arbiter: %s\n", have ? err : "out of memory");
        return -1;
    }
    if (nt != 2 || seats != 4) {
        fprintf(stderr, "arbiter: match: %s has no two fixed teams of two: give a --bot per seat\n",
                cfg->game->name);
        return -1;
    }
    if (strcmp(teams[0].name, teams[1].name) == 0) {
        fprintf(stderr, "arbiter: two teams named \"%s\"\n", teams[0].name);
        return -1;
    }
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < 2; t++) {
            char name[ARB_MAX_BOT_NAME + 1];
            snprintf(name, sizeof name, "%.*s-%d", ARB_MAX_BOT_NAME - 2, teams[t].name, k + 1);
            if (match_bot_command(&cfg->bots[cfg->nbots], name, teams[t].cmd[k], NULL, err, sizeof err) != 0) {
                fprintf(stderr, "arbiter: %s\n", err);
                return -1;
            }
            cfg->nbots++;
        }
    return 0;
}

/* --transcript FILE: the fresh file beside FILE (arb_out_open: no link
 * followed, no directory another user can write), and its real path in
 * hidden, for the bots' sandboxes to hide; in *wfd a descriptor of it
 * for the writer. 0, or -1 said on stderr. */
static int open_transcript(arb_out *out, const char *tpath, char *hidden, size_t len, int *wfd)
{
    char err[1300], dir[PATH_MAX];
    if (arb_out_open(out, tpath, 0600, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: match: --transcript %s: %s\n", tpath, err);
        return -1;
    }
    *wfd = fcntl(out->fd, F_DUPFD_CLOEXEC, 0);
    if (*wfd < 0 || arb_fd_path(out->dirfd, dir, sizeof dir) != 0
        || (size_t)snprintf(hidden, len, "%s/%s", dir, out->tmp) >= len) {
        fprintf(stderr, "arbiter: match: --transcript %s: cannot name it for the bots' sandboxes to hide\n", tpath);
        if (*wfd >= 0)
            close(*wfd);
        arb_out_abort(out);
        return -1;
    }
    return 0;
}

/* The match over: its transcript renamed over tpath when whole (rc 0),
 * else removed, so that half a transcript never replaces a file. The
 * match's code, or the commit's (res->error saying why). */
static int finish_transcript(arb_out *out, const char *tpath, int rc, match_result *res)
{
    if (!tpath)
        return rc;
    if (rc) {
        arb_out_abort(out);
        return rc;
    }
    char err[1300];
    int crc = arb_out_commit(out, err, sizeof err);
    if (crc)
        snprintf(res->error, sizeof res->error, "%.500s", err);
    return crc;
}

/* One match of the command: key from the secret and cfg->seed, live bots,
 * the transcript at tpath (NULL: none), the result printed (a series: a
 * line per match, or an element of the JSON list) and, for duplicate
 * swap, its deals added to the comparison. CLI_EXIT_OK or an exit code. */
static int play_one(match_config *cfg, const uint8_t secret[32], const char *tpath, const live_options *lo_in,
                    cli_format format, bool quiet, bool series, bool first, bool reveal, dup_cmp *cmp,
                    bool *json_open)
{
    live_options lo = *lo_in;
    char err[512];
    char label[ARB_MAX_KEY_LABEL];
    arb_seeds_single_label(label, cfg->seed);
    if (match_set_key(cfg, secret, label) != 0) {
        fprintf(stderr, "arbiter: cannot derive the match key\n");
        return CLI_EXIT_USAGE;
    }
    /* The transcript being written holds every hand: a fresh 0600 file
     * beside FILE now (docs/cli.md, "Files arbiter writes"), hidden from
     * the bots, renamed over FILE when the match is whole. */
    arb_out out = {.fd = -1, .dirfd = -1};
    char hidden[PATH_MAX + 300];
    int wfd = -1;
    if (tpath && open_transcript(&out, tpath, hidden, sizeof hidden, &wfd) != 0)
        return CLI_EXIT_USAGE;
    if (tpath)
        lo.hide[0] = hidden;
    live_driver *live = live_new(&lo, err, sizeof err);
    if (!live) {
        fprintf(stderr, "arbiter: %s\n", err);
        if (wfd >= 0)
            close(wfd);
        arb_out_abort(&out);
        return CLI_EXIT_USAGE;
    }
    /* the commitment before the first deal, once nothing can refuse to start */
    if (first && format != CLI_FORMAT_JSON)
        printf("commitment (sha256 of the secret): %s\n", cfg->commitment);
    show_ctx sc = {cfg, quiet};
    match_observer obs = {.ctx = &sc, .penalty = on_penalty};
    match_result res;
    char digest[65];
    int rc = record_match_fd(wfd, tpath, cfg, live_driver_of(live), &obs, &res, digest);
    live_free(live);
    rc = finish_transcript(&out, tpath, rc, &res);
    if (rc) {
        fprintf(stderr, "arbiter: match%s failed: %s\n", series ? " (a series)" : "",
                res.error[0] ? res.error : arb_strerror(rc));
        match_result_release(&res);
        return CLI_EXIT_FAIL;
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
    for (int b = 0; b < res.nbots && !quiet && first; b++) {
        bool seen = false;
        for (int c = 0; c < b; c++)
            seen |= strcmp(res.bots[c].sandbox, res.bots[b].sandbox) == 0;
        if (!seen && res.bots[b].sandbox[0])
            fprintf(stderr, "sandbox %s: %s\n", res.bots[b].sandbox, seat_sandbox_text(res.bots[b].sandbox));
    }
    if (cfg->duplicate == MATCH_DUP_SWAP && dup_collect(cfg, &res, cmp) != 0) {
        fprintf(stderr, "arbiter: out of memory\n");
        match_result_release(&res);
        return CLI_EXIT_FAIL;
    }
    char hex[65] = "";
    if (reveal)
        arb_key_hex(secret, hex);
    if (format == CLI_FORMAT_JSON) {
        printf("%s", !series ? "" : first ? "{\"matches\":[" : ",");
        print_json(cfg, &res, digest, hex);
        if (series)
            printf("}");
        *json_open = true;
    } else if (series) {
        printf("match seed %" PRIu64 ": %u games, %" PRIu64 " decisions", cfg->seed, res.ndeals, res.decisions);
        for (uint32_t i = 0; i < res.ntables; i++)
            printf("; table %u: %u games, won by team %d", i + 1, res.tables[i].games, res.tables[i].winner_team);
        printf("; %s (sha256 %.16s...)\n", tpath ? tpath : "no transcript", digest);
    } else {
        print_table(cfg, &res, digest, tpath);
    }
    match_result_release(&res);
    return CLI_EXIT_OK;
}

static const struct option match_opts[] = {
    {"help", no_argument, NULL, 'h'},
    {"bot", required_argument, NULL, 'b'},
    {"team", required_argument, NULL, 'T'},
    {"game", required_argument, NULL, 'g'},
    {"rules", required_argument, NULL, 'r'},
    {"set", required_argument, NULL, 's'},
    {"deals", required_argument, NULL, 'd'},
    {"seed", required_argument, NULL, 'S'},
    {"secret-file", required_argument, NULL, 'K'},
    {"duplicate", required_argument, NULL, 'D'},
    {"compare-deals", required_argument, NULL, 'C'},
    {"fixed-seats", no_argument, NULL, 'F'},
    {"move-ms", required_argument, NULL, 'm'},
    {"deal-ms", required_argument, NULL, 'M'},
    {"bank-ms", required_argument, NULL, 'B'},
    {"startup-ms", required_argument, NULL, 'u'},
    {"policy", required_argument, NULL, 'p'},
    {"strikes", required_argument, NULL, 'k'},
    {"forfeit-points", required_argument, NULL, 'P'},
    {"transcript", required_argument, NULL, 't'},
    {"sandbox", required_argument, NULL, 'x'},
    {"workdir", required_argument, NULL, 'w'},
    {"keep-workdir", no_argument, NULL, 'W'},
    {"end-grace-ms", required_argument, NULL, 'E'},
    {"format", required_argument, NULL, 'f'},
    {"json", no_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0},
};

/* --bot NAME=COMMAND: the next bot of cfg. 0, or CLI_EXIT_USAGE with a
 * message said. */
static int add_bot_arg(match_config *cfg, const char *v)
{
    if (cfg->nbots >= ARB_MAX_SEATS) {
        fprintf(stderr, "arbiter: at most %d bots\n", ARB_MAX_SEATS);
        return CLI_EXIT_USAGE;
    }
    const char *eq = strchr(v, '=');
    char name[ARB_MAX_BOT_NAME + 1], err[512];
    if (!eq || eq == v || (size_t)(eq - v) > ARB_MAX_BOT_NAME) {
        fprintf(stderr, "arbiter: --bot \"%s\": expected NAME=COMMAND (a name of 1..%d characters)\n",
                v, ARB_MAX_BOT_NAME);
        return CLI_EXIT_USAGE;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
    if (match_bot_command(&cfg->bots[cfg->nbots], name, eq + 1, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    for (int b = 0; b < cfg->nbots; b++)
        if (strcmp(cfg->bots[b].name, cfg->bots[cfg->nbots].name) == 0) {
            fprintf(stderr, "arbiter: two bots named \"%s\"\n", cfg->bots[b].name);
            return CLI_EXIT_USAGE;
        }
    cfg->nbots++;
    return 0;
}

/* --team NAME=CMD1,CMD2 (or NAME=CMD, both partners one program): the
 * next of teams[0..2). 0, or CLI_EXIT_USAGE with a message said. */
static int add_team_arg(team_arg *teams, int *nteams, const char *v)
{
    const char *eq = strchr(v, '=');
    if (*nteams >= 2) {
        fprintf(stderr, "arbiter: match: two teams at most (--team)\n");
        return CLI_EXIT_USAGE;
    }
    if (!eq || eq == v || (size_t)(eq - v) > ARB_MAX_BOT_NAME - 2 || !eq[1]) {
        fprintf(stderr, "arbiter: --team \"%s\": expected NAME=CMD1,CMD2 or NAME=CMD (a name of 1..%d "
                        "characters)\n", v, ARB_MAX_BOT_NAME - 2);
        return CLI_EXIT_USAGE;
    }
    const char *comma = strchr(eq + 1, ',');
    size_t l1 = comma ? (size_t)(comma - eq - 1) : strlen(eq + 1);
    const char *c2 = comma ? comma + 1 : eq + 1;
    if (l1 == 0 || !*c2 || strchr(c2, ',') || l1 >= sizeof teams[0].cmd[0]
        || strlen(c2) >= sizeof teams[0].cmd[1]) {
        fprintf(stderr, "arbiter: --team \"%s\": expected NAME=CMD1,CMD2 (two commands) or NAME=CMD\n", v);
        return CLI_EXIT_USAGE;
    }
    snprintf(teams[*nteams].name, sizeof teams[*nteams].name, "%.*s", (int)(eq - v), v);
    snprintf(teams[*nteams].cmd[0], sizeof teams[0].cmd[0], "%.*s", (int)l1, eq + 1);
    snprintf(teams[*nteams].cmd[1], sizeof teams[0].cmd[1], "%s", c2);
    (*nteams)++;
    return 0;
}

/* What the command line asked of `arbiter match`. */
typedef struct match_args {
    match_config cfg;            /* the match (its game, rules, bots, clocks, seed) */
    live_options lo;             /* how bots are run (sandbox, work directory, end grace) */
    team_arg teams[2];           /* --team: two partners each, seated as players t and t + 2 */
    int nteams;
    const char *transcript, *secret_file, *preset;
    cli_format format;
    bool quiet;
    size_t compare_deals;        /* --compare-deals: a series of matches until this many deals compared */
    char sets[ARB_MAX_OPTIONS_TEXT]; /* --set options, joined */
} match_args;

/* Read the options into *a (the game first: the other options fill a
 * match of that game): -1 to go on, else the exit code (a message said). */
static int parse_match_opts(int argc, char **argv, match_args *a)
{
    const char *game = NULL;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("match", argc, argv, ":h", match_opts)) != -1) {
        if (opt == 'h') {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        if (opt == '?') {
            usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (opt == 'g')
            game = optarg;
    }
    if (optind < argc) {
        fprintf(stderr, "arbiter: match: unexpected \"%s\" (arbiter match --help)\n", argv[optind]);
        return CLI_EXIT_USAGE;
    }
    const arb_game *g = cli_game(game);
    if (!g)
        return CLI_EXIT_USAGE;
    match_config_init(&a->cfg, g);
    cli_opts_begin();
    while ((opt = cli_getopt("match", argc, argv, ":h", match_opts)) != -1) {
        const char *v = optarg;
        long long n;
        switch (opt) {
        case 'g': break;
        case 'F': a->cfg.fixed_seats = true; break;
        case 'W': a->lo.keep_workdir = true; break;
        case 'j': a->format = CLI_FORMAT_JSON; break;
        case 'q': a->quiet = true; break;
        case 'f':
            if (cli_format_parse("match", v, CLI_FORMATS_TJ, &a->format))
                return CLI_EXIT_USAGE;
            break;
        case 'r': a->preset = v; break;
        case 's':
            if (cli_append_option(a->sets, sizeof a->sets, v)) {
                fprintf(stderr, "arbiter: match: --set: too many options\n");
                return CLI_EXIT_USAGE;
            }
            break;
        case 'b':
            if (add_bot_arg(&a->cfg, v)) return CLI_EXIT_USAGE;
            break;
        case 'T':
            if (add_team_arg(a->teams, &a->nteams, v)) return CLI_EXIT_USAGE;
            break;
        case 'd':
            if (cli_int_arg("match", "deals", v, 1, ARB_MAX_DEALS, &n)) return CLI_EXIT_USAGE;
            a->cfg.deals = (uint32_t)n;
            break;
        case 'C':
            if (cli_int_arg("match", "compare-deals", v, 1, ARB_MAX_DEALS, &n)) return CLI_EXIT_USAGE;
            a->compare_deals = (size_t)n;
            break;
        case 'S': {
            char *end;
            errno = 0;
            a->cfg.seed = strtoull(v, &end, 0);
            if (errno || *end || end == v || v[0] == '-') {
                fprintf(stderr, "arbiter: --seed \"%s\": expected a non-negative integer\n", v);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case 'D': {
            match_duplicate d;
            if (match_duplicate_parse(v, &d)) {
                fprintf(stderr, "arbiter: --duplicate \"%s\": expected " MATCH_DUPLICATE_NAMES "\n", v);
                return CLI_EXIT_USAGE;
            }
            a->cfg.duplicate = (uint8_t)d;
            break;
        }
        case 'p': {
            match_policy p;
            if (match_policy_parse(v, &p)) {
                fprintf(stderr, "arbiter: --policy \"%s\": expected autoplay, forfeit-deal or forfeit-match\n", v);
                return CLI_EXIT_USAGE;
            }
            a->cfg.policy = (uint8_t)p;
            break;
        }
        case 'm':
            if (cli_int_arg("match", "move-ms", v, 1, 3600000, &n)) return CLI_EXIT_USAGE;
            a->cfg.move_ms = n;
            break;
        case 'M':
            if (cli_int_arg("match", "deal-ms", v, -1, 86400000, &n)) return CLI_EXIT_USAGE;
            a->cfg.deal_ms = n;
            break;
        case 'B':
            if (cli_int_arg("match", "bank-ms", v, 0, 86400000, &n)) return CLI_EXIT_USAGE;
            a->cfg.bank_ms = n;
            break;
        case 'u':
            if (cli_int_arg("match", "startup-ms", v, 1, 600000, &n)) return CLI_EXIT_USAGE;
            a->cfg.startup_ms = n;
            break;
        case 'E':
            if (cli_int_arg("match", "end-grace-ms", v, 1, 600000, &n)) return CLI_EXIT_USAGE;
            a->lo.end_grace_ms = (uint32_t)n;
            break;
        case 'k':
            if (cli_int_arg("match", "strikes", v, 0, 1000000, &n)) return CLI_EXIT_USAGE;
            a->cfg.strikes = (uint32_t)n;
            break;
        case 'P':
            if (cli_int_arg("match", "forfeit-points", v, 0, 1000000000, &n)) return CLI_EXIT_USAGE;
            a->cfg.forfeit_points = n;
            break;
        case 't': a->transcript = v; break;
        case 'K': a->secret_file = v; break;
        case 'w': a->lo.workdir = v; break;
        case 'x':
            if (strcmp(v, "auto") == 0) a->lo.sandbox = LIVE_SANDBOX_AUTO;
            else if (strcmp(v, "none") == 0) a->lo.sandbox = LIVE_SANDBOX_NONE;
            else if (strcmp(v, "bwrap") == 0) a->lo.sandbox = LIVE_SANDBOX_BWRAP;
            else {
                fprintf(stderr, "arbiter: --sandbox \"%s\": expected auto, bwrap or none\n", v);
                return CLI_EXIT_USAGE;
            }
            break;
        default:
            usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (a->preset)
        snprintf(a->cfg.preset, sizeof a->cfg.preset, "%s", a->preset);
    snprintf(a->cfg.options, sizeof a->cfg.options, "%s", a->sets);
    if (a->nteams && add_teams(&a->cfg, a->teams, a->nteams) != 0)
        return CLI_EXIT_USAGE;
    return -1;
}

/* What must hold before a bot starts: the rules build, the bots can be
 * reached, the secret is had (read, or drawn), --compare-deals fits. 0,
 * or CLI_EXIT_USAGE with a message said. */
static int ready_to_play(const match_args *a, uint8_t secret[32])
{
    void *rules = calloc(1, a->cfg.game->rules_size);
    char err[512];
    if (!rules || match_config_rules(&a->cfg, rules, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", rules ? err : "out of memory");
        free(rules);
        return CLI_EXIT_USAGE;
    }
    free(rules);
    /* as root, bots the bots' own uids cannot reach would all forfeit at
     * the handshake: refused here, with the directory and what to do */
    if (cli_bots_reachable("match", a->cfg.bots, a->cfg.nbots) != 0)
        return CLI_EXIT_USAGE;
    /* The deals follow from the secret and the seed (docs/rng.md); no bot
     * ever sees either. */
    if (a->secret_file ? arb_key_read_file(a->secret_file, secret, err, sizeof err) != 0
                       : arb_key_random(secret) != 0) {
        fprintf(stderr, "arbiter: --secret-file %s\n", a->secret_file ? err : "-: no random source");
        return CLI_EXIT_USAGE;
    }
    if (a->compare_deals && (a->cfg.duplicate != MATCH_DUP_SWAP || match_tables(&a->cfg) == 0)) {
        fprintf(stderr, "arbiter: match: --compare-deals needs --duplicate swap and a game whose match may end "
                        "early (a game of fixed partnerships)\n");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Play the match, or (--compare-deals) the series of matches, seed after
 * seed, the duplicate comparison into *cmp. The status. */
static int play_series(match_args *a, const uint8_t secret[32], dup_cmp *cmp, bool *json_open)
{
    bool series = a->compare_deals > 0;
    uint64_t first_seed = a->cfg.seed;
    for (uint32_t m = 0;; m++) {
        a->cfg.seed = first_seed + m;
        char path[4096];
        const char *tpath = a->transcript;
        if (a->transcript && series) {
            snprintf(path, sizeof path, "%s.%u", a->transcript, m + 1);
            tpath = path;
        }
        int rc = play_one(&a->cfg, secret, tpath, &a->lo, a->format, a->quiet, series, m == 0,
                          a->secret_file == NULL, cmp, json_open);
        if (rc)
            return rc;
        if (!series || cmp->n >= a->compare_deals)
            return CLI_EXIT_OK;
        if (m + 1 >= ARB_MAX_DEALS) {
            fprintf(stderr, "arbiter: match: %u matches and only %zu deals compared\n", m + 1, cmp->n);
            return CLI_EXIT_FAIL;
        }
    }
}

int cmd_match(int argc, char **argv)
{
    match_args a = {.format = CLI_FORMAT_TABLE};
    int status = parse_match_opts(argc, argv, &a);
    if (status >= 0)
        return status;
    uint8_t secret[32];
    status = ready_to_play(&a, secret);
    if (status)
        return status;
    bool series = a.compare_deals > 0;
    dup_cmp cmp = {0};
    bool json_open = false;
    status = play_series(&a, secret, &cmp, &json_open);
    if (json_open && series)
        printf("]");
    if (status == CLI_EXIT_OK && a.cfg.duplicate == MATCH_DUP_SWAP && match_tables(&a.cfg)) {
        if (a.format == CLI_FORMAT_JSON) {
            printf(",");
            dup_print_json(&cmp);
        } else {
            dup_print_table(&a.cfg, &cmp, series);
        }
    }
    if (json_open)
        printf("}\n");
    /* The matches are over: a secret drawn for them is revealed, so that
     * anyone can check their deals (arbiter replay --secret). A secret from
     * a file is the organiser's and stays where it is. */
    if (status == CLI_EXIT_OK && !a.secret_file && a.format != CLI_FORMAT_JSON) {
        char hex[65];
        arb_key_hex(secret, hex);
        printf("secret (revealed now that the match%s over): %s\n", series ? "es are" : " is", hex);
    }
    free(cmp.pairs);
    return status;
}
