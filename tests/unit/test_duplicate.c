/* test_duplicate.c — duplicate play: the seatings of every mode
 * (match_games, match_seating, match_restarts_before), which games play
 * at tables (match_tables) and what match_config_rules refuses; then a
 * duplicate swap Da Bang match through match_run with in-process bots,
 * whose tables end early: the rest of each block is skipped, the second
 * table deals the first table's cards with the teams' seats swapped, the
 * result is per table and per team, and the transcript re-judges. */
#include "game.h"
#include "ddz.h"
#include "dabang.h"
#include "match.h"
#include "record.h"
#include "replay.h"
#include "transcript.h"
#include "arb_error.h"
#include "test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void config(match_config *cfg, const arb_game *g, const char *preset, int nbots, uint32_t deals,
                   match_duplicate dup)
{
    match_config_init(cfg, g);
    if (preset)
        snprintf(cfg->preset, sizeof cfg->preset, "%s", preset);
    cfg->nbots = nbots;
    cfg->deals = deals;
    cfg->duplicate = (uint8_t)dup;
    uint8_t secret[32] = {9, 9, 9};
    CHECK(match_set_key(cfg, secret, "duplicate-test") == 0);
    for (int b = 0; b < nbots; b++) {
        snprintf(cfg->bots[b].name, sizeof cfg->bots[b].name, "b%d", b);
        snprintf(cfg->bots[b].argv[0], sizeof cfg->bots[b].argv[0], "/bin/true");
        cfg->bots[b].argc = 1;
    }
}

static int rules_ok(const match_config *cfg, char *err, size_t len)
{
    void *rules = calloc(1, cfg->game->rules_size);
    int rc = match_config_rules(cfg, rules, err, len);
    free(rules);
    return rc;
}

/* ---- Seatings ----------------------------------------------------------- */

static void test_names(void)
{
    match_duplicate d;
    CHECK(match_duplicate_parse("swap", &d) == 0 && d == MATCH_DUP_SWAP);
    CHECK(strcmp(match_duplicate_name(MATCH_DUP_SWAP), "swap") == 0);
    CHECK(match_duplicate_parse("rotate", &d) == 0 && d == MATCH_DUP_ROTATE);
    CHECK(match_duplicate_parse("swapped", &d) == ARB_ENOTFOUND);
    CHECK(strcmp(match_duplicate_name(MATCH_DUP_COUNT), "?") == 0);
}

/* Swap: two seating blocks, as drawn then every bot one seat on; deal i of
 * each block is deal i; a restart before the second block only. */
static void test_swap_seating(void)
{
    match_config cfg;
    config(&cfg, &arb_game_dabang, NULL, 4, 5, MATCH_DUP_SWAP);
    CHECK(match_games(&cfg) == 10 && match_seatings(&cfg) == 2 && match_tables(&cfg) == 2);
    for (uint32_t g = 0; g < 10; g++) {
        uint32_t deal, seating;
        uint8_t at[ARB_MAX_SEATS];
        match_seating(&cfg, g, &deal, &seating, at);
        CHECK(deal == g % 5 && seating == g / 5);
        for (int b = 0; b < 4; b++)
            CHECKF(at[(b + (int)seating) % 4] == b, "game %u: bot %d not in seat %u", g, b, (b + seating) % 4);
        /* partners opposite, and at the second table each team in the other's seats */
        CHECK(at[0] % 2 == at[2] % 2 && at[1] % 2 == at[3] % 2 && at[0] % 2 == seating % 2);
        CHECK(match_restarts_before(&cfg, g) == (g == 5));
    }
    char err[256];
    CHECKF(rules_ok(&cfg, err, sizeof err) == 0, "%s", err);
}

/* Which matches play at tables, and what is still refused. */
static void test_tables_and_refusals(void)
{
    match_config cfg;
    char err[256];
    config(&cfg, &arb_game_dabang, NULL, 4, 9, MATCH_DUP_OFF);
    CHECK(match_tables(&cfg) == 0 && match_games(&cfg) == 9);
    CHECKF(rules_ok(&cfg, err, sizeof err) == 0, "%s", err);
    config(&cfg, &arb_game_dabang, NULL, 4, 9, MATCH_DUP_ROTATE);
    CHECK(match_tables(&cfg) == 4 && match_games(&cfg) == 36);
    CHECKF(rules_ok(&cfg, err, sizeof err) == 0, "rotate keeps partners opposite: %s", err);
    config(&cfg, &arb_game_dabang, NULL, 4, 9, MATCH_DUP_ALL);
    CHECK(rules_ok(&cfg, err, sizeof err) == ARB_EINVAL && strstr(err, "split"));
    /* Dou Dizhu never plays at tables: one match over every seating, as before */
    config(&cfg, &arb_game_doudizhu, NULL, 3, 4, MATCH_DUP_ROTATE);
    CHECK(match_tables(&cfg) == 0 && match_games(&cfg) == 12);
    CHECKF(rules_ok(&cfg, err, sizeof err) == 0, "%s", err);
    config(&cfg, &arb_game_doudizhu, NULL, 3, 4, MATCH_DUP_SWAP);
    CHECK(rules_ok(&cfg, err, sizeof err) == ARB_EINVAL && strstr(err, "no two fixed teams"));
    /* seating-major rotation for Dou Dizhu, unchanged */
    for (uint32_t g = 0; g < 12; g++) {
        uint32_t deal, seating;
        uint8_t at[ARB_MAX_SEATS];
        config(&cfg, &arb_game_doudizhu, NULL, 3, 4, MATCH_DUP_ROTATE);
        match_seating(&cfg, g, &deal, &seating, at);
        CHECK(deal == g % 4 && seating == g / 4 && at[seating % 3] == 0);
    }
    config(&cfg, &arb_game_dabang, NULL, 4, 9, MATCH_DUP_COUNT);
    CHECK(rules_ok(&cfg, err, sizeof err) == ARB_EINVAL);
}

/* ---- A Da Bang match at two tables ------------------------------------ */

/* In-process bots: each asks for legal lists and plays the first (team 0)
 * or the last (team 1) item it is offered. */
typedef struct bots {
    char log[ARB_MAX_SEATS][1 << 20];
    size_t len[ARB_MAX_SEATS];
} bots;

static int b_start(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len)
{
    (void)ctx; (void)bot; (void)cfg;
    snprintf(sandbox, len, "inproc");
    return 0;
}

static int b_send(void *ctx, int bot, const char *line)
{
    bots *b = ctx;
    size_t n = strlen(line);
    if (b->len[bot] + n + 2 < sizeof b->log[bot]) {
        memcpy(b->log[bot] + b->len[bot], line, n);
        b->len[bot] += n;
        b->log[bot][b->len[bot]++] = '\n';
        b->log[bot][b->len[bot]] = 0;
    }
    return 0;
}

static void b_ask(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r)
{
    (void)ctx; (void)budget_ns;
    memset(r, 0, sizeof *r);
    r->kind = MD_LINE;
    if (!request) {
        snprintf(r->line, sizeof r->line, "bot 1 b%d legal", bot);
        return;
    }
    const char *legal = strstr(request, " legal ");
    CHECKF(legal != NULL, "a request without its legal items: %.200s", request);
    if (!legal) {
        snprintf(r->line, sizeof r->line, "pass");
        return;
    }
    const char *item = legal + 7;
    if (bot % 2 == 1) {
        const char *sp = strrchr(item, ' ');
        if (sp)
            item = sp + 1;
    }
    size_t n = strcspn(item, " ");
    snprintf(r->line, sizeof r->line, "%.*s", (int)n, item);
}

static void b_stop(void *ctx, int bot, const char **text, size_t *len, int *status)
{
    (void)ctx; (void)bot;
    *text = "";
    *len = 0;
    *status = 0;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_dabang_tables(void)
{
    static bots b;
    match_config cfg;
    /* "short": two levels from the goal; 30 deals a table is far more than
     * a table lasts, so each ends early and the rest of its block is skipped */
    const uint32_t deals = 30;
    config(&cfg, &arb_game_dabang, "short", 4, deals, MATCH_DUP_SWAP);
    char path[] = "/tmp/duplicate-XXXXXX", digest[65];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    match_driver drv = {.ctx = &b, .start = b_start, .send = b_send, .ask = b_ask, .stop = b_stop};
    match_result res;
    int rc = record_match(path, &cfg, &drv, NULL, &res, digest);
    CHECKF(rc == 0, "match: %s", res.error);
    CHECK(res.ntables == 2 && res.nteams == 2);
    const match_table *t1 = &res.tables[0], *t2 = &res.tables[1];
    CHECKF(t1->games >= 1 && t1->games < deals && t2->games >= 1 && t2->games < deals, "tables of %u and %u games",
           t1->games, t2->games);
    CHECK(t1->first == 0 && t2->first == t1->games && res.ndeals == t1->games + t2->games);
    /* each table ended because the game said so: a winner, decided early */
    CHECK(t1->winner_team >= 0 && t2->winner_team >= 0);
    /* table 2 starts at the first game of the second block, deal 0 again */
    CHECK(res.deals[t2->first].game == deals && res.deals[t2->first].deal == 0 && res.deals[t2->first].seating == 1);
    uint32_t both = t1->games < t2->games ? t1->games : t2->games;
    for (uint32_t i = 0; i < both; i++) {
        const match_deal *a = &res.deals[t1->first + i], *c = &res.deals[t2->first + i];
        CHECKF(a->deal == i && c->deal == i && a->seed == c->seed, "deal %u: seeds differ", i);
        for (int s = 0; s < 4; s++)
            CHECK(c->bot_at[(s + 1) % 4] == a->bot_at[s]);
    }
    for (uint32_t i = 0; i < res.ndeals; i++)
        CHECK(res.deals[i].game == (i < t1->games ? i : deals + i - t1->games));
    /* each table begins afresh (a new process told the table's bound; its
     * first deal a first deal, at the start level) */
    CHECK(count(b.log[0], "match players 4 deals 30 rules short") == 2);
    CHECKF(count(b.log[0], " first drawer ") == 2, "%d first deals", count(b.log[0], " first drawer "));
    for (const char *p = strstr(b.log[0], " first drawer "); p; p = strstr(p + 1, " first drawer "))
        CHECKF(strncmp(p + strcspn(p, "l"), "level 9\n", 8) == 0, "a first deal at %.30s", p);
    CHECK(count(b.log[0], "\nend ") == 2);
    /* result: per team tables won and the sum of its table scores; bots share their team's rank */
    for (int t = 0; t < 2; t++) {
        uint32_t won = (t1->winner_team == t) + (t2->winner_team == t);
        CHECK(res.tables_won[t] == won);
        CHECK(res.team_total[t] == t1->team_score[t] + t2->team_score[t]);
    }
    int better = res.tables_won[0] > res.tables_won[1] || (res.tables_won[0] == res.tables_won[1]
                                                             && res.team_total[0] >= res.team_total[1]) ? 0 : 1;
    CHECK(res.team_rank[better] == 1);
    for (int bt = 0; bt < 4; bt++) {
        /* a bot ranks with its team: both partners of the better team
         * first, then both of the other (third, as two are ahead) */
        CHECK(res.bots[bt].rank == (res.team_rank[bt % 2] == 1 ? 1 : 3));
        CHECK(res.bots[bt].total == res.team_total[bt % 2]);
        CHECK(res.bots[bt].penalties == 0);
    }
    /* the transcript re-judges, tables and all */
    uint8_t *data;
    size_t len;
    char err[256];
    CHECK(tr_load(path, &data, &len, err, sizeof err) == 0);
    replay_report rep;
    CHECK(replay_judge(data, len, NULL, &rep) == 0);
    CHECKF(rep.reproduced && rep.digest_rc == 0 && strcmp(rep.digest, digest) == 0, "replay: %s", rep.divergence);
    CHECK(rep.res.ntables == 2 && rep.res.ndeals == res.ndeals && rep.res.tables[1].games == t2->games);
    CHECK(rep.cfg.duplicate == MATCH_DUP_SWAP);
    match_result_release(&rep.res);
    free(data);
    match_result_release(&res);
    unlink(path);
}

int main(void)
{
    test_names();
    test_swap_seating();
    test_tables_and_refusals();
    test_dabang_tables();
    return TEST_DONE("duplicate");
}
