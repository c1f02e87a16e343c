/* dab_hostile.c — the hostile bot suite at a Da Bang table: whole
 * matches between real bot processes (three honest C bots on the bot
 * library, dabang_random, and tests/bots/hostile_bot.c --dabang in seat
 * 1), each hostile behaviour of test_match.c's suite under bubblewrap and
 * the cases that lean on the sandbox again without it. For each: the
 * verdict and its reason code, the referee stays up, the honest seats are
 * never penalised, no process or descriptor is left behind, and the
 * transcript re-judges. Then what a partnership game adds: a forfeit hits
 * the offender's team (both partners score alike, the partner keeps its
 * own statistics clean, the team ranks last), and the referee's autoplay
 * is the smallest legal choice — for a trick, the cheapest legal follow by
 * power (schemas/bot-protocol.md, Da Bang, "Autoplay") — checked play by
 * play against the engine's lists while the transcript is re-judged.
 *
 * argv: dabang_random hostile_bot */
/* before live.h: seat.h names a type `seat`, dabang.h a parameter */
#include "dabang.h"
#include "arb_file.h"
#include "live.h"
#include "match.h"
#include "replay.h"
#include "record.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "../unit/test_util.h"
#include "../lib/test_live.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *random_bot, *hostile_bot;
static char tmpdir[256];
static int sandbox_mode = LIVE_SANDBOX_AUTO;
static int last_uid_base = -1;   /* the bot uids of the last match (root only) */

enum { HOSTILE = 1, PARTNER = 3 };   /* the hostile bot and its partner (bots 1 and 3: team 1) */

static int leftovers(void)
{
    return test_leftovers(last_uid_base);
}

static void set_bot(match_bot_cfg *b, const char *name, const char *prog, const char *a1, const char *a2, const char *a3, const char *a4)
{
    test_set_bot(b, name, (const char *const[]){prog, a1, a2, a3, a4, NULL});
}

static void base_config(match_config *cfg, uint32_t deals, uint64_t seed)
{
    match_config_init(cfg, &arb_game_dabang);
    cfg->deals = deals;
    cfg->seed = seed;
    uint8_t secret[32];
    for (int i = 0; i < 32; i++)
        secret[i] = (uint8_t)(0xa5 ^ i);
    char label[64];
    snprintf(label, sizeof label, "match|%llu", (unsigned long long)seed);
    CHECK(match_set_key(cfg, secret, label) == 0);
    cfg->nbots = 4;
    cfg->move_ms = 500;    /* honest bots need ~1 ms; the margin is for a loaded machine */
    cfg->bank_ms = 1000;
    cfg->startup_ms = 3000;
    set_bot(&cfg->bots[0], "r0", random_bot, NULL, NULL, NULL, NULL);
    set_bot(&cfg->bots[1], "r1", random_bot, NULL, NULL, NULL, NULL);
    set_bot(&cfg->bots[2], "r2", random_bot, NULL, NULL, NULL, NULL);
    set_bot(&cfg->bots[3], "r3", random_bot, NULL, NULL, NULL, NULL);
}

static int play(const match_config *cfg, const char *path, match_result *res, char digest[65])
{
    return test_play_live(cfg, path, sandbox_mode, res, digest, &last_uid_base);
}

static void load(const char *path, uint8_t **data, size_t *len)
{
    test_load_transcript(path, data, len);
}

static int seat_of(const match_deal *d, int bot)
{
    for (int s = 0; s < DAB_SEATS; s++)
        if (d->bot_at[s] == bot)
            return s;
    return -1;
}

/* Every deal zero-sum with partners alike; the bots' totals their team's. */
static void check_teams(const char *what, const match_result *res)
{
    CHECKF(res->nteams == 2, "%s: %d teams", what, res->nteams);
    for (int b = 0; b < 4; b++)
        CHECKF(res->team_of_bot[b] == b % 2, "%s: bot %d in team %d", what, b, res->team_of_bot[b]);
    CHECKF(res->bots[0].total == res->bots[2].total && res->bots[1].total == res->bots[3].total,
           "%s: partners' totals differ (%lld %lld %lld %lld)", what, (long long)res->bots[0].total,
           (long long)res->bots[1].total, (long long)res->bots[2].total, (long long)res->bots[3].total);
    for (int t = 0; t < 2; t++)
        CHECKF(res->team_total[t] == res->bots[t].total, "%s: team %d total %lld, its bots %lld", what, t,
               (long long)res->team_total[t], (long long)res->bots[t].total);
    for (uint32_t g = 0; g < res->ndeals; g++) {
        const match_deal *d = &res->deals[g];
        int64_t sum = 0;
        for (int s = 0; s < DAB_SEATS; s++)
            sum += d->score[s];
        CHECKF(sum == 0, "%s: game %u does not sum to zero", what, g);
        CHECKF(d->score[0] == d->score[2] && d->score[1] == d->score[3], "%s: game %u: partners scored apart",
               what, g);
    }
}

typedef struct hostile_case {
    const char *mode;
    const char *arg;          /* N (the decision it misbehaves at) */
    const char *arg2;
    match_reason reason;      /* MATCH_R_NONE: no penalty expected */
    uint8_t policy;
    match_reason alt;         /* also accepted (MATCH_R_NONE: nothing else) */
    const char *detail;       /* the penalty's detail must say this (NULL: not checked) */
} hostile_case;

/* The offender's team pays a forfeited deal: both partners -P, both
 * opponents +P (DB-72). */
static void check_team_forfeit(const hostile_case *c, const match_config *cfg, const match_result *res)
{
    int forfeits = 0;
    for (uint32_t g = 0; g < res->ndeals; g++) {
        const match_deal *d = &res->deals[g];
        if (d->forfeit_bot < 0)
            continue;
        forfeits++;
        CHECKF(d->forfeit_bot == HOSTILE, "%s: game %u forfeited by bot %d", c->mode, g, d->forfeit_bot);
        int s1 = seat_of(d, HOSTILE), s3 = seat_of(d, PARTNER), s0 = seat_of(d, 0), s2 = seat_of(d, 2);
        CHECKF(d->score[s1] == -cfg->forfeit_points && d->score[s3] == -cfg->forfeit_points,
               "%s: game %u: the offender's team scored %lld and %lld", c->mode, g, (long long)d->score[s1],
               (long long)d->score[s3]);
        CHECKF(d->score[s0] == cfg->forfeit_points && d->score[s2] == cfg->forfeit_points,
               "%s: game %u: the other team scored %lld and %lld", c->mode, g, (long long)d->score[s0],
               (long long)d->score[s2]);
    }
    CHECKF(forfeits >= 1, "%s: no deal forfeited", c->mode);
    /* the partner's result follows its team; its own record stays clean */
    CHECKF(res->bots[PARTNER].total == res->bots[HOSTILE].total, "%s: the partner's total left its team", c->mode);
    CHECKF(res->bots[PARTNER].penalties == 0 && !res->bots[PARTNER].forfeited,
           "%s: the partner was charged with the offence", c->mode);
    if (c->policy == MATCH_FORFEIT_MATCH) {
        /* every deal after the offence is the other team's: it is ahead.
         * (Under forfeit-deal the other deals are played on by random bots,
         * whose luck may outweigh one forfeited deal: the SDK's documented
         * legal order, issue 30, changed their choices and so the totals.) */
        CHECKF(res->team_total[0] > res->team_total[1], "%s: the other team is not ahead (%lld vs %lld)", c->mode,
               (long long)res->team_total[0], (long long)res->team_total[1]);
        CHECKF(res->bots[HOSTILE].forfeited && res->bots[HOSTILE].rank == 4, "%s: forfeit-match not applied (rank %d)",
               c->mode, res->bots[HOSTILE].rank);
        CHECKF(res->team_rank[1] == 2 && res->team_rank[0] == 1, "%s: team ranks %d %d", c->mode, res->team_rank[0],
               res->team_rank[1]);
        CHECKF(res->bots[PARTNER].rank > res->bots[0].rank && res->bots[PARTNER].rank > res->bots[2].rank,
               "%s: the partner ranks %d, above the winners", c->mode, res->bots[PARTNER].rank);
        /* every deal after the offence is forfeited unplayed */
        bool after = false;
        for (uint32_t g = 0; g < res->ndeals; g++) {
            after |= res->deals[g].forfeit_bot == HOSTILE;
            CHECKF(!after || res->deals[g].forfeit_bot == HOSTILE, "%s: game %u played after a forfeit-match",
                   c->mode, g);
        }
    }
}

static void run_hostile(const hostile_case *c)
{
    match_config cfg;
    base_config(&cfg, 2, 7);
    cfg.policy = c->policy;
    set_bot(&cfg.bots[HOSTILE], "hostile", hostile_bot, "--dabang", c->mode, c->arg ? c->arg : "2", c->arg2);
    char path[300], digest[65];
    snprintf(path, sizeof path, "%s/hostile-%s.arbt", tmpdir, c->mode);
    int fds = test_open_fds();
    match_result res;
    int rc = play(&cfg, path, &res, digest);
    CHECKF(rc == 0, "%s: match_run %s", c->mode, arb_strerror(rc));
    /* The referee finished the match; every game has a result. */
    CHECKF(res.ndeals == 2, "%s: %u games", c->mode, res.ndeals);
    check_teams(c->mode, &res);
    /* The honest bots were never penalised. */
    for (int b = 0; b < 4; b++)
        if (b != HOSTILE)
            CHECKF(res.bots[b].penalties == 0, "%s: honest bot %d penalised (timeout %u crashed %u exited %u "
                   "handshake %u)", c->mode, b, res.bots[b].by_reason[MATCH_R_TIMEOUT],
                   res.bots[b].by_reason[MATCH_R_CRASHED], res.bots[b].by_reason[MATCH_R_EXITED],
                   res.bots[b].by_reason[MATCH_R_HANDSHAKE]);
    const match_bot_stats *h = &res.bots[HOSTILE];
    if (c->alt != MATCH_R_NONE && h->by_reason[c->alt] >= 1)
        CHECK(h->penalties == h->by_reason[c->alt]);
    else if (c->reason == MATCH_R_NONE)
        CHECKF(h->penalties == 0, "%s: %u unexpected penalties", c->mode, h->penalties);
    else
        CHECKF(h->by_reason[c->reason] >= 1, "%s: expected %s, got %u penalties (timeout %u illegal %u "
               "malformed %u long %u closed %u exited %u crashed %u handshake %u)", c->mode,
               match_reason_name(c->reason), h->penalties, h->by_reason[1], h->by_reason[2], h->by_reason[3],
               h->by_reason[4], h->by_reason[5], h->by_reason[6], h->by_reason[7], h->by_reason[8]);
    if (c->reason != MATCH_R_NONE && c->policy != MATCH_AUTOPLAY)
        check_team_forfeit(c, &cfg, &res);
    if (c->reason == MATCH_R_HANDSHAKE)   /* a handshake failure always forfeits the match */
        CHECKF(h->forfeited && res.team_rank[1] == 2 && res.bots[PARTNER].total == h->total,
               "%s: the team did not pay the forfeit", c->mode);
    if (c->reason != MATCH_R_NONE && c->reason != MATCH_R_HANDSHAKE && c->policy == MATCH_AUTOPLAY
        && h->by_reason[c->reason] >= 1) {
        /* a strike per autoplay; a bot that goes on misbehaving (gone, or
         * still asleep) strikes out, and its team pays the forfeit */
        CHECKF(h->strikes >= 1, "%s: autoplay without a strike", c->mode);
        CHECKF(h->forfeited == (h->strikes > cfg.strikes), "%s: %u strikes, forfeited %d", c->mode, h->strikes,
               h->forfeited);
        if (h->forfeited) {
            hostile_case struck = *c;
            struck.policy = MATCH_FORFEIT_MATCH;
            check_team_forfeit(&struck, &cfg, &res);
        }
    }
    /* Nothing left behind. */
    CHECKF(test_open_fds() == fds, "%s: descriptors %d before, %d after", c->mode, fds, test_open_fds());
    CHECKF(leftovers() == 0, "%s: processes left", c->mode);
    /* And the transcript re-judges to the same result. */
    uint8_t *data;
    size_t len;
    load(path, &data, &len);
    if (c->detail)   /* the penalty record's detail, as the transcript keeps it */
        CHECKF(memmem(data, len, c->detail, strlen(c->detail)) != NULL, "%s: no penalty says \"%s\"", c->mode,
               c->detail);
    if (strcmp(c->mode, "stderr") == 0) {
        CHECKF(strlen(h->stderr_tail) > 0, "stderr: nothing kept");
        CHECKF(len < (size_t)ARB_STDERR_CAP + 400000, "stderr: transcript of %zu bytes", len);
    }
    if (strcmp(c->mode, "network") == 0) {
        /* The sandbox has no network: the bot's own report, in its stderr tail. */
        CHECKF(strstr(h->stderr_tail, "network: 127.0.0.1:9 refused") != NULL, "network: %s", h->stderr_tail);
        CHECKF(strstr(h->stderr_tail, "network: 1.1.1.1:53 refused") != NULL, "network: %s", h->stderr_tail);
        CHECKF(strstr(h->stderr_tail, "connected") == NULL, "network: %s", h->stderr_tail);
    }
    replay_report rep;
    CHECK(replay_judge(data, len, NULL, &rep) == 0);
    CHECKF(rep.reproduced, "%s: replay: %s", c->mode, rep.divergence);
    match_result_release(&rep.res);
    free(data);
    match_result_release(&res);
}

static void test_hostile_suite(void)
{
    /* test_match.c's suite, case for case; illegal and othercards cheat at
     * a play (cards not held; a card another hand or the kitty holds). */
    static const hostile_case cases[] = {
        {"sleep", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"spin", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"flood", NULL, NULL, MATCH_R_TOO_LONG, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"hugeline", NULL, NULL, MATCH_R_TOO_LONG, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"exit", NULL, NULL, MATCH_R_EXITED, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"crash", "5", NULL, MATCH_R_CRASHED, MATCH_FORFEIT_MATCH, MATCH_R_NONE, NULL},
        {"children", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"forkbomb", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"alloc", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_TIMEOUT, NULL},
        {"bigfile", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"network", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"closeout", NULL, NULL, MATCH_R_CLOSED, MATCH_AUTOPLAY, MATCH_R_TIMEOUT, NULL},
        {"garbage", NULL, NULL, MATCH_R_MALFORMED, MATCH_FORFEIT_DEAL, MATCH_R_NONE, NULL},
        /* three jokers not held, at its first request to declare; cards not held, at its first play */
        {"illegal", "1", "declare", MATCH_R_ILLEGAL, MATCH_AUTOPLAY, MATCH_R_NONE, "not a declaration you can make now"},
        {"illegal", "1", "play", MATCH_R_ILLEGAL, MATCH_AUTOPLAY, MATCH_R_NONE, "cards not in the hand"},
        {"othercards", "4", NULL, MATCH_R_ILLEGAL, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"late", NULL, "900", MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"stderr", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"badhello", NULL, NULL, MATCH_R_HANDSHAKE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"silenthello", NULL, NULL, MATCH_R_HANDSHAKE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"exitnow", NULL, NULL, MATCH_R_HANDSHAKE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        /* a forfeit hits the team: a deal, then the match */
        {"illegal", NULL, NULL, MATCH_R_ILLEGAL, MATCH_FORFEIT_DEAL, MATCH_R_NONE, NULL},
        {"sleep", "30", NULL, MATCH_R_TIMEOUT, MATCH_FORFEIT_MATCH, MATCH_R_NONE, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (TEST_SANITIZED && strcmp(cases[i].mode, "alloc") == 0) {
            fprintf(stderr, "hostile (dabang): alloc skipped: sanitizer build, no address-space limit\n");
            continue;
        }
        hostile_case c = cases[i];
        if (TEST_SANITIZED && c.reason == MATCH_R_CRASHED)
            c.alt = MATCH_R_EXITED;   /* ASan reports the fault and exits */
        fprintf(stderr, "hostile (dabang): %s, %s\n", c.mode, match_policy_name((match_policy)c.policy));
        run_hostile(&c);
    }
    static const hostile_case bare[] = {
        {"crash", "5", NULL, MATCH_R_CRASHED, MATCH_FORFEIT_MATCH, MATCH_R_NONE, NULL},
        {"children", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"forkbomb", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"closeout", NULL, NULL, MATCH_R_CLOSED, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"exit", NULL, NULL, MATCH_R_EXITED, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
        {"network", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE, NULL},
    };
    sandbox_mode = LIVE_SANDBOX_NONE;
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        if (strcmp(bare[i].mode, "network") == 0 && geteuid() != 0) {
            fprintf(stderr, "hostile (dabang, no bubblewrap): network skipped: not root, no network namespace\n");
            continue;
        }
        hostile_case c = bare[i];
        if (TEST_SANITIZED && c.reason == MATCH_R_CRASHED)
            c.alt = MATCH_R_EXITED;
        fprintf(stderr, "hostile (dabang, no bubblewrap): %s\n", c.mode);
        run_hostile(&c);
    }
    sandbox_mode = LIVE_SANDBOX_AUTO;
}

/* ---- Autoplay: the smallest legal choice ------------------------------------ */

typedef struct autoplay_watch {
    int bot;                  /* whose actions are checked */
    int plays, follows, passes, cards, others;
    int wrong;
} autoplay_watch;

/* A play's weight by the documented order: power (DB-11), trumps above
 * every side card. */
static int weight(const dab_state *s, const dab_play *p)
{
    int w = 0;
    for (int i = 0; i < p->n; i++)
        w += s->trump.power[p->c[i]] + 50 * dab_is_trump(&s->trump, p->c[i]);
    return w;
}

static void watch_action(void *ctx, const match_deal *d, const void *before, const void *after, int at,
                         const arb_action *a, bool by_referee)
{
    (void)after;
    autoplay_watch *w = ctx;
    if (!by_referee)
        return;
    CHECKF(d->bot_at[at] == w->bot, "autoplay for bot %d, an honest bot", d->bot_at[at]);
    const dab_state *s = before;
    dab_hand h;
    dab_unpack(a->cards, &h);
    if (a->decision == DAB_DEC_DECLARE || a->decision == DAB_DEC_JOKER) {
        /* pass where passing is legal: always, for these two */
        w->passes++;
        if (a->value >= 0) {
            w->wrong++;
            fprintf(stderr, "autoplay: a %s, not a pass\n", a->decision == DAB_DEC_DECLARE ? "declaration" : "joker");
        }
        return;
    }
    if (a->decision != ARB_DEC_PLAY) {
        /* one card of the options: the lowest by power */
        dab_hand opts;
        dab_card_options(s, &opts);
        int c = -1;
        for (int k = 0; k < DAB_NCARDS; k++)
            if (h.n[k])
                c = k;
        w->cards++;
        for (int k = 0; k < DAB_NCARDS; k++)
            if (opts.n[k] && c >= 0 && s->trump_known
                && s->trump.power[k] + 50 * dab_is_trump(&s->trump, k)
                       < s->trump.power[c] + 50 * dab_is_trump(&s->trump, c)) {
                w->wrong++;
                fprintf(stderr, "autoplay: card %d given where %d is lower\n", c, k);
                break;
            }
        return;
    }
    static dab_play legal[DAB_MAX_PLAYS];
    dab_play p;
    CHECK(dab_play_from_hand(&h, &p) == 0);
    const dab_play *led = s->ntrick > 0 ? &s->trick[0] : NULL;
    char why[128];
    CHECKF(dab_check_play(&s->trump, &s->hand[at], led, &p, why, sizeof why) == 0, "autoplay illegal: %s", why);
    int n = led ? dab_follows(&s->trump, &s->hand[at], led, legal, DAB_MAX_PLAYS)
                : dab_leads(&s->trump, &s->hand[at], legal, DAB_MAX_PLAYS);
    CHECK(n > 0);
    w->plays++;
    w->follows += led != NULL;
    for (int i = 0; i < n; i++)
        if (weight(s, &legal[i]) < weight(s, &p) || (weight(s, &legal[i]) == weight(s, &p) && legal[i].n < p.n)) {
            char a1[16], a2[16];
            dab_format_play(&p, a1, sizeof a1);
            dab_format_play(&legal[i], a2, sizeof a2);
            fprintf(stderr, "autoplay: %s played where %s is smaller\n", a1, a2);
            w->wrong++;
            break;
        }
}

/* A bot gone at its first decision is auto-played for the rest of the
 * match (strikes lifted): every choice made for it is the smallest legal
 * one, declarations and jokers passed. Re-judging the transcript replays
 * the referee's every choice, so the check runs there. */
static void test_autoplay(void)
{
    match_config cfg;
    base_config(&cfg, 2, 19);
    cfg.strikes = 100000;
    set_bot(&cfg.bots[HOSTILE], "quitter", hostile_bot, "--dabang", "exit", "1", NULL);
    char path[300], digest[65];
    snprintf(path, sizeof path, "%s/autoplay.arbt", tmpdir);
    match_result res;
    CHECK(play(&cfg, path, &res, digest) == 0);
    /* gone at once: every later decision is auto-played (one `exited` each) */
    CHECKF(res.bots[HOSTILE].by_reason[MATCH_R_EXITED] >= 10 && !res.bots[HOSTILE].forfeited,
           "exited %u, forfeited %d", res.bots[HOSTILE].by_reason[MATCH_R_EXITED], res.bots[HOSTILE].forfeited);
    CHECK(res.ndeals == 2);
    check_teams("autoplay", &res);
    uint8_t *data;
    size_t len;
    load(path, &data, &len);
    autoplay_watch w = {.bot = HOSTILE};
    match_observer obs = {.ctx = &w, .action = watch_action};
    replay_report rep;
    CHECK(replay_judge(data, len, &obs, &rep) == 0);
    CHECKF(rep.reproduced, "autoplay: replay: %s", rep.divergence);
    match_result_release(&rep.res);
    fprintf(stderr, "autoplay: %d plays (%d follows), %d passes, %d cards given or buried, %d wrong\n", w.plays,
            w.follows, w.passes, w.cards, w.wrong);
    CHECKF(w.plays >= 2 * 30 && w.follows >= 2 * 20, "autoplay: only %d plays, %d follows", w.plays, w.follows);
    CHECK(w.wrong == 0);
    free(data);
    match_result_release(&res);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: dab_hostile DABANG_RANDOM HOSTILE_BOT\n");
        return 2;
    }
    random_bot = argv[1];
    hostile_bot = argv[2];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-match-dabang-%d", (int)getpid());
    mkdir(tmpdir, 0755);
    int fds = test_open_fds();
    test_autoplay();
    test_hostile_suite();
    CHECKF(test_open_fds() == fds, "descriptors: %d before, %d after", fds, test_open_fds());
    CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
    if (arb_remove_tree(tmpdir) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return TEST_DONE("dab_hostile");
}
