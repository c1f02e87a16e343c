/* test_highcard.c — the match core over a game it was not written for:
 * "high card" (highcard.c, registered by its constructor) played by
 * in-process bots through match_run. What it checks is what the match
 * interface promises: a match that ends when a side reaches its goal, the
 * deal set up from the match (who leads), per-team standings, team-aware
 * forfeits, duplicate play at tables for a match that may end early, and
 * a recorded transcript that re-judges. */
#include "game.h"
#include "match.h"
#include "record.h"
#include "replay.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "../unit/test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- In-process bots --------------------------------------------------- */

enum { PLAY_HIGH, PLAY_LOW, PLAY_GARBAGE };

typedef struct bots {
    int style[ARB_MAX_SEATS];
    char log[ARB_MAX_SEATS][16384];   /* every line each bot was sent */
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
    size_t n = strlen(b->log[bot]);
    snprintf(b->log[bot] + n, sizeof b->log[bot] - n, "%s\n", line);
    return 0;
}

static void b_ask(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r)
{
    bots *b = ctx;
    (void)budget_ns;
    memset(r, 0, sizeof *r);
    r->kind = MD_LINE;
    if (!request) {
        snprintf(r->line, sizeof r->line, "bot 1 b%d", bot);
        return;
    }
    const char *legal = strstr(request, " legal ");
    CHECKF(legal != NULL, "a request without its legal cards: %s", request);
    if (!legal || b->style[bot] == PLAY_GARBAGE) {
        snprintf(r->line, sizeof r->line, "play the ace of spades");
        return;
    }
    /* items are in rank order: the first is the lowest */
    const char *items = legal + 7;
    char card = b->style[bot] == PLAY_LOW ? items[0] : items[strlen(items) - 1];
    snprintf(r->line, sizeof r->line, "play %c", card);
}

static void b_stop(void *ctx, int bot, const char **text, size_t *len, int *status)
{
    (void)ctx; (void)bot;
    *text = "";
    *len = 0;
    *status = 0;
}

static void config(match_config *cfg, const char *preset, const char *options, uint32_t deals, int nbots)
{
    const arb_game *g = arb_game_find("highcard");
    CHECK(g != NULL);
    match_config_init(cfg, g);
    CHECK(strcmp(cfg->preset, "short") == 0 && cfg->forfeit_points == 2);
    snprintf(cfg->preset, sizeof cfg->preset, "%s", preset);
    snprintf(cfg->options, sizeof cfg->options, "%s", options);
    cfg->deals = deals;
    cfg->nbots = nbots;
    uint8_t secret[32] = {7};
    CHECK(match_set_key(cfg, secret, "highcard-test") == 0);
    for (int b = 0; b < nbots; b++) {
        snprintf(cfg->bots[b].name, sizeof cfg->bots[b].name, "b%d", b);
        snprintf(cfg->bots[b].argv[0], sizeof cfg->bots[b].argv[0], "/bin/true");
        cfg->bots[b].argc = 1;
    }
}

static int play(const match_config *cfg, bots *b, const char *path, match_result *res, char digest[65])
{
    match_driver drv = {.ctx = b, .start = b_start, .send = b_send, .ask = b_ask, .stop = b_stop};
    return record_match(path, cfg, &drv, NULL, res, digest);
}

/* The last "trick SEAT" and the first "lead SEAT" after "deal GAME". */
static int event_in_deal(const char *log, uint32_t game, const char *word, bool last)
{
    char mark[32];
    snprintf(mark, sizeof mark, "deal %u seat", game);
    const char *p = strstr(log, mark), *end = NULL;
    if (!p)
        return -1;
    char next[32];
    snprintf(next, sizeof next, "deal %u seat", game + 1);
    end = strstr(p, next);
    int found = -1;
    size_t wl = strlen(word);
    for (const char *l = p; l && (!end || l < end); l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, word, wl) == 0 && l[wl] == ' ') {
            if (sscanf(l + wl + 1, "%d", &found) != 1)
                found = -1;
            if (!last)
                break;
        }
    }
    return found;
}

/* Two players to a goal of 6: the match ends as soon as a side has it,
 * well before its 40 deals; each deal is led by whoever took the last
 * trick of the one before. */
static void test_goal(void)
{
    match_config cfg;
    config(&cfg, "short", "goal=6", 40, 2);
    bots b = {.style = {PLAY_HIGH, PLAY_LOW}};
    char path[] = "/tmp/highcard-XXXXXX", digest[65];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    match_result res;
    int rc = play(&cfg, &b, path, &res, digest);
    CHECKF(rc == 0, "match: %s", res.error);
    CHECKF(res.ndeals >= 1 && res.ndeals < 40, "%u deals", res.ndeals);
    int64_t top = res.bots[0].total > res.bots[1].total ? res.bots[0].total : res.bots[1].total;
    CHECKF(top >= 6, "the match ended at %" PRId64 " points", top);
    CHECK(res.bots[0].total + res.bots[1].total == 0);
    CHECK(res.nteams == 0 && res.team_of_bot[0] == -1);
    /* before the last deal nobody had the goal */
    int64_t before[2] = {0, 0};
    for (uint32_t i = 0; i + 1 < res.ndeals; i++)
        for (int s = 0; s < 2; s++)
            before[res.deals[i].bot_at[s]] += res.deals[i].score[s];
    CHECK(before[0] < 6 && before[1] < 6);
    CHECKF(res.ndeals >= 3, "%u deals", res.ndeals);
    /* the leader of deal g+1 took the last trick of deal g */
    for (uint32_t g = 0; g + 1 < res.ndeals; g++) {
        int took = event_in_deal(b.log[0], g, "trick", true);
        int lead = event_in_deal(b.log[0], g + 1, "lead", false);
        CHECKF(took >= 0 && lead >= 0, "deal %u: trick %d, lead %d", g, took, lead);
        if (took >= 0 && lead >= 0)
            CHECKF(res.deals[g].bot_at[took] == res.deals[g + 1].bot_at[lead],
                   "deal %u was led by bot %d, the last trick before went to bot %d", g + 1,
                   res.deals[g + 1].bot_at[lead], res.deals[g].bot_at[took]);
    }
    /* "match ... deals N": the bots are told the bound */
    CHECK(strstr(b.log[1], "match players 2 deals 40 rules short") != NULL);
    replay_report rep;
    uint8_t *data;
    size_t len;
    char err[256];
    CHECK(tr_load(path, &data, &len, err, sizeof err) == 0);
    CHECK(replay_judge(data, len, NULL, &rep) == 0);
    CHECKF(rep.reproduced && rep.digest_rc == 0 && strcmp(rep.digest, digest) == 0, "replay: %s", rep.divergence);
    CHECK(rep.res.ndeals == res.ndeals && rep.res.bots[0].total == res.bots[0].total);
    match_result_release(&rep.res);
    free(data);
    match_result_release(&res);
    unlink(path);
}

/* Four players in partnerships: standings per team, partners' totals
 * equal; a bot that sends garbage under forfeit-deal loses the deal for
 * its side, not for itself alone. */
static void test_pairs(void)
{
    match_config cfg;
    config(&cfg, "pairs", "goal=1000", 4, 4);
    bots b = {.style = {PLAY_HIGH, PLAY_LOW, PLAY_HIGH, PLAY_LOW}};
    match_result res;
    char digest[65];
    int rc = play(&cfg, &b, NULL, &res, digest);
    CHECKF(rc == 0, "match: %s", res.error);
    CHECK(res.ndeals == 4 && digest[0]);
    CHECK(res.nteams == 2);
    CHECK(res.team_of_bot[0] == 0 && res.team_of_bot[1] == 1 && res.team_of_bot[2] == 0 && res.team_of_bot[3] == 1);
    CHECK(res.bots[0].total == res.bots[2].total && res.bots[1].total == res.bots[3].total);
    CHECK(res.team_total[0] == res.bots[0].total && res.team_total[1] == res.bots[1].total);
    CHECK(res.team_total[0] + res.team_total[1] == 0);
    CHECK(res.team_rank[0] == (res.team_total[0] >= res.team_total[1] ? 1 : 2));
    /* partners stay partners as the seats rotate */
    for (uint32_t g = 0; g < res.ndeals; g++)
        CHECK(res.deals[g].bot_at[0] % 2 == res.deals[g].bot_at[2] % 2);
    match_result_release(&res);

    config(&cfg, "pairs", "", 2, 4);
    cfg.policy = MATCH_FORFEIT_DEAL;
    cfg.forfeit_points = 5;
    memset(&b, 0, sizeof b);
    b.style[1] = PLAY_GARBAGE;
    rc = play(&cfg, &b, NULL, &res, digest);
    CHECKF(rc == 0, "match: %s", res.error);
    for (uint32_t g = 0; g < res.ndeals; g++) {
        const match_deal *d = &res.deals[g];
        CHECK(d->forfeit_bot == 1);
        for (int s = 0; s < 4; s++)
            CHECKF(d->score[s] == (d->bot_at[s] % 2 == 1 ? -5 : 5), "deal %u seat %d: %" PRId64, g, s, d->score[s]);
    }
    CHECK(res.team_total[1] == -10 && res.team_rank[1] == 2 && res.team_rank[0] == 1);
    match_result_release(&res);
}

/* A match that may end early plays duplicate at tables: each seating
 * block a match of its own, cut short when a side reaches the goal. What
 * is still refused: swap without two teams, all with partners. */
static void test_duplicate_tables(void)
{
    match_config cfg;
    config(&cfg, "short", "goal=6", 40, 2);
    cfg.duplicate = MATCH_DUP_ROTATE;
    static bots b;
    b.style[0] = PLAY_HIGH;
    b.style[1] = PLAY_LOW;
    match_result res;
    char digest[65];
    int rc = play(&cfg, &b, NULL, &res, digest);
    CHECKF(rc == 0, "rc %d: %s", rc, res.error);
    CHECK(res.ntables == 2 && res.nteams == 0);
    CHECKF(res.tables[0].games < 40 && res.tables[1].games < 40, "tables of %u and %u games", res.tables[0].games,
           res.tables[1].games);
    CHECK(res.ndeals == res.tables[0].games + res.tables[1].games);
    CHECK(res.deals[res.tables[1].first].game == 40 && res.deals[res.tables[1].first].seed == res.deals[0].seed);
    /* totals: the tables' standings summed; zero-sum as each table is */
    CHECK(res.bots[0].total + res.bots[1].total == 0);
    match_result_release(&res);

    config(&cfg, "short", "", 3, 2);
    cfg.duplicate = MATCH_DUP_SWAP;
    rc = play(&cfg, &b, NULL, &res, digest);
    CHECKF(rc == ARB_EINVAL && strstr(res.error, "no two fixed teams"), "rc %d: %s", rc, res.error);
    match_result_release(&res);
    config(&cfg, "pairs", "", 3, 4);
    cfg.duplicate = MATCH_DUP_ALL;
    rc = play(&cfg, &b, NULL, &res, digest);
    CHECKF(rc == ARB_EINVAL && strstr(res.error, "split"), "rc %d: %s", rc, res.error);
    match_result_release(&res);
    config(&cfg, "short", "players=3", 3, 2);
    rc = play(&cfg, &b, NULL, &res, digest);
    CHECKF(rc == ARB_EINVAL && strstr(res.error, "players: 2 or 4"), "rc %d: %s", rc, res.error);
    match_result_release(&res);
}

int main(void)
{
    CHECK(arb_game_missing(arb_game_find("highcard")) == NULL);
    test_goal();
    test_pairs();
    test_duplicate_tables();
    return TEST_DONE("highcard");
}
