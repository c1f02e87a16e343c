/* test_botsdk_dabang.c — the C bot library's Da Bang view (arbiter_bot.h,
 * abot_dab_*) against the rules engine: the library runs in a thread on
 * pipes, the test plays the referee with the game's own interface
 * (arb_game_dabang: what each seat is told, the requests, the legal
 * items), the bot sits in seat 0 of whole matches and the other seats play
 * at random. At every decision the view the bot was shown is compared
 * with the engine's state (hand, trumps, 打家, level, points, the trick and
 * its winner, cards played), the plays with dab_leads / dab_follows, the
 * other choices with the legal list, and every reply must be legal. */
#include "arbiter_bot.h"
#include "arb_limits.h"
#include "arb_rng.h"
#include "game.h"
#include "test_util.h"

#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct harness {
    int to_bot[2], from_bot[2];
    pthread_t thread;
    abot_dab_options opt;
    int rc;
    pthread_mutex_t lock;
    /* what the bot function saw at its last call */
    int calls;
    abot_dab_view v;
    dab_trump trump;
    bool has_trump, has_winning;
    dab_play winning;
    abot_dab_request r;
    dab_play *choices;          /* DAB_MAX_PLAYS */
    int pick_salt;
    bool observed_over;
    char in[1 << 16];
    size_t inlen;
    char line[ARB_MAX_LINE + 2];
} harness;

static int choose(const abot_dab_view *v, const abot_dab_request *r, void *ctx)
{
    harness *h = ctx;
    pthread_mutex_lock(&h->lock);
    h->calls++;
    h->v = *v;
    h->has_trump = v->trump != NULL;
    if (v->trump)
        h->trump = *v->trump;
    h->has_winning = v->winning != NULL;
    if (v->winning)
        h->winning = *v->winning;
    h->r = *r;
    memcpy(h->choices, r->choices, (size_t)r->nchoices * sizeof *r->choices);
    /* spread over the choices, deterministically */
    int pick = (int)((unsigned)(h->calls * 7919 + h->pick_salt) % (unsigned)r->nchoices);
    pthread_mutex_unlock(&h->lock);
    return pick;
}

static void observe(const abot_dab_view *v, const char *line, void *ctx)
{
    harness *h = ctx;
    (void)line;
    pthread_mutex_lock(&h->lock);
    h->observed_over = v->over;
    pthread_mutex_unlock(&h->lock);
}

static void *bot_thread(void *arg)
{
    harness *h = arg;
    h->rc = abot_dab_run_fds("dbtest", h->to_bot[0], h->from_bot[1], choose, h, &h->opt);
    close(h->to_bot[0]);
    close(h->from_bot[1]);
    return NULL;
}

static harness *start(bool ask_legal, int salt)
{
    harness *h = calloc(1, sizeof *h);
    if (!h || pipe(h->to_bot) || pipe(h->from_bot))
        exit(2);
    h->choices = malloc(DAB_MAX_PLAYS * sizeof *h->choices);
    if (!h->choices)
        exit(2);
    h->opt.ask_legal = ask_legal;
    h->opt.observe = observe;
    h->pick_salt = salt;
    pthread_mutex_init(&h->lock, NULL);
    if (pthread_create(&h->thread, NULL, bot_thread, h))
        exit(2);
    return h;
}

static void send_line(harness *h, const char *line)
{
    size_t n = strlen(line);
    char buf[ARB_MAX_LINE + 2];
    memcpy(buf, line, n);
    buf[n++] = '\n';
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(h->to_bot[1], p, n);
        if (w <= 0) {
            fprintf(stderr, "test_botsdk_dabang: the bot stopped reading\n");
            exit(2);
        }
        p += w;
        n -= (size_t)w;
    }
}

static void emit_to_bot(void *ctx, const char *line) { send_line(ctx, line); }

static const char *recv_line(harness *h)
{
    for (;;) {
        char *nl = memchr(h->in, '\n', h->inlen);
        if (nl) {
            size_t n = (size_t)(nl - h->in);
            size_t keep = n < sizeof h->line - 1 ? n : sizeof h->line - 1;
            memcpy(h->line, h->in, keep);
            h->line[keep] = 0;
            memmove(h->in, nl + 1, h->inlen - n - 1);
            h->inlen -= n + 1;
            return h->line;
        }
        struct pollfd p = {h->from_bot[0], POLLIN, 0};
        if (h->inlen == sizeof h->in || poll(&p, 1, 5000) != 1)
            return NULL;
        ssize_t r = read(h->from_bot[0], h->in + h->inlen, sizeof h->in - h->inlen);
        if (r <= 0)
            return NULL;
        h->inlen += (size_t)r;
    }
}

static int finish(harness *h)
{
    close(h->to_bot[1]);
    pthread_join(h->thread, NULL);
    close(h->from_bot[0]);
    int rc = h->rc;
    pthread_mutex_destroy(&h->lock);
    free(h->choices);
    free(h);
    return rc;
}

static bool same_hand(const dab_hand *a, const dab_hand *b)
{
    return a->total == b->total && memcmp(a->n, b->n, sizeof a->n) == 0;
}

static bool same_play(const dab_play *a, const dab_play *b)
{
    return a->n == b->n && memcmp(a->c, b->c, a->n) == 0;
}

/* The bot's view at its decision against the engine's state. */
static void check_view(harness *h, const dab_state *s, int deal, const dab_hand played[DAB_SEATS])
{
    const abot_dab_view *v = &h->v;
    CHECKF(v->seat == 0 && v->partner == 2 && v->deal == deal, "seat %d partner %d deal %d", v->seat, v->partner,
           v->deal);
    CHECKF(same_hand(&v->hand, &s->hand[0]), "deal %d: tracked hand of %d cards, the engine's %d", deal,
           v->hand.total, s->hand[0].total);
    CHECK(v->level == s->level);
    CHECK(v->first == s->ctx.first);
    if (s->trump_known) {
        CHECK(h->has_trump && v->trump_suit == s->trump.suit && h->trump.level == s->level);
        CHECKF(v->dajia == s->dajia, "dajia %d, the engine's %d", v->dajia, s->dajia);
    } else {
        CHECK(!h->has_trump && v->trump_suit == -1);
    }
    if (s->phase == DAB_PH_TRICKS) {
        CHECK(v->points[0] == s->points[0] && v->points[1] == s->points[1]);
        CHECK(v->tricks == s->tricks_done);
        CHECKF(v->ntrick == s->ntrick, "trick of %d plays, the engine's %d", v->ntrick, s->ntrick);
        if (s->ntrick) {
            CHECK(v->leader == s->leader);
            CHECKF(v->winner == (s->leader + s->winner_idx) % DAB_SEATS, "winner %d, the engine's %d", v->winner,
                   (s->leader + s->winner_idx) % DAB_SEATS);
            CHECK(h->has_winning && same_play(&h->winning, &s->trick[s->winner_idx]));
            for (int i = 0; i < s->ntrick; i++)
                CHECK(same_play(&v->trick[i], &s->trick[i]));
        }
        for (int p = 0; p < DAB_SEATS; p++)
            CHECK(same_hand(&v->played[p], &played[p]));
    }
    if (s->dajia == 0 && s->phase >= DAB_PH_BURY && !s->dry) {
        CHECK(v->kitty_known);
        CHECK(v->buried_known);
    }
}

/* The choices against the engine: plays as dab_leads/dab_follows list them,
 * anything else as many as the legal actions. */
static void check_choices(harness *h, const dab_state *s, int nlegal, bool listed)
{
    const abot_dab_request *r = &h->r;
    if (dab_decision(s) == ARB_DEC_PLAY) {
        CHECK(r->decision == ABOT_DAB_PLAY);
        static dab_play want[DAB_MAX_PLAYS];
        int n = s->ntrick ? dab_follows(&s->trump, &s->hand[0], &s->trick[0], want, DAB_MAX_PLAYS)
                          : dab_leads(&s->trump, &s->hand[0], want, DAB_MAX_PLAYS);
        CHECKF(r->nchoices == n && (listed || n == nlegal), "%d plays, the engine %d, legal %d", r->nchoices, n,
               nlegal);
        if (!listed && r->nchoices == n)      /* the same plays, sorted into the documented order */
            for (int i = 0; i < n; i++) {
                bool found = false;
                for (int j = 0; j < n && !found; j++)
                    found = same_play(&h->choices[j], &want[i]);
                CHECK(found);
            }
    } else {
        CHECKF(r->nchoices == nlegal, "decision %d: %d choices, %d legal", dab_decision(s), r->nchoices, nlegal);
        CHECK(r->decision != ABOT_DAB_PLAY);
        CHECK((r->decision == ABOT_DAB_DECLARE) == (r->suits != NULL));
    }
}

/* A whole match with the bot in seat 0; returns the deals played. */
static int play_match(bool ask_legal, uint64_t seed, int salt)
{
    const arb_game *g = &arb_game_dabang;
    harness *h = start(ask_legal, salt);
    send_line(h, "arbiter 1 dabang");
    const char *hello = recv_line(h);
    CHECKF(hello && strcmp(hello, ask_legal ? "bot 1 dbtest legal" : "bot 1 dbtest") == 0, "handshake \"%s\"",
           hello ? hello : "(nothing)");
    char line[ARB_MAX_LINE];
    enum { DEALS = 6 };
    snprintf(line, sizeof line, "match players 4 deals %d rules standard seed %llu", DEALS,
             (unsigned long long)seed);
    send_line(h, line);
    send_line(h, "clock move 1000 deal -1 bank 30000");
    dab_rules rules;
    dab_rules_preset(&rules, "standard");
    dab_match m;
    g->match_init(&m, &rules, DEALS);
    static const uint8_t player_at[DAB_SEATS] = {0, 1, 2, 3};
    static arb_action legal[ARB_MAX_MOVES];
    arb_rng rng;
    arb_rng_seed(&rng, seed);
    int64_t total = 0;
    int deal = 0;
    static char req[ARB_MAX_REQUEST];
    for (; deal < DEALS && !g->match_over(&m); deal++) {
        dab_state s, before;
        if (g->deal(&s, &rules, seed * 131 + (uint64_t)deal) || g->deal_setup(&s, &m, player_at)) {
            CHECK(!"deal");
            break;
        }
        snprintf(line, sizeof line, "deal %d seat 0", deal);
        send_line(h, line);
        g->start_events(&s, 0, emit_to_bot, h);
        dab_hand played[DAB_SEATS];
        memset(played, 0, sizeof played);
        while (!g->over(&s)) {
            int nl = g->legal(&s, legal, ARB_MAX_MOVES);
            if (nl <= 0) {
                CHECK(!"no legal action");
                break;
            }
            int actor = g->to_act(&s);
            arb_action a, fixed;
            char why[256];
            if (actor == 0) {
                int len = snprintf(req, sizeof req, "ask ");
                len += g->request(&s, req + len, sizeof req - (size_t)len);
                len += snprintf(req + len, sizeof req - (size_t)len, " time 1000 -1 30000");
                bool items = g->items_on_request(&s) || ask_legal;
                if (items) {
                    len += snprintf(req + len, sizeof req - (size_t)len, " legal");
                    for (int i = 0; i < nl; i++) {
                        req[len++] = ' ';
                        len += g->format_item(&s, &legal[i], req + len, sizeof req - (size_t)len);
                    }
                }
                send_line(h, req);
                const char *rep = recv_line(h);
                if (!rep) {
                    CHECK(!"a reply");
                    break;
                }
                pthread_mutex_lock(&h->lock);
                check_view(h, &s, deal, played);
                check_choices(h, &s, nl, ask_legal);
                pthread_mutex_unlock(&h->lock);
                char err[256];
                int rc = g->parse_action(&s, rep, &a, err, sizeof err);
                CHECKF(rc == 0, "reply \"%s\": %s", rep, err);
                if (rc == 0) {
                    rc = g->check(&s, &a, &fixed, why, sizeof why);
                    CHECKF(rc == 0, "reply \"%s\" illegal: %s", rep, why);
                }
                if (rc != 0)
                    fixed = legal[0];
            } else {
                a = legal[arb_rng_below(&rng, (uint64_t)nl)];
                if (g->check(&s, &a, &fixed, why, sizeof why)) {
                    CHECK(!"a legal action checks");
                    break;
                }
            }
            before = s;
            g->apply(&s, &fixed);
            if (fixed.decision == ARB_DEC_PLAY) {
                dab_hand ph;
                dab_unpack(fixed.cards, &ph);
                for (int c = 0; c < DAB_NCARDS; c++)
                    played[actor].n[c] = (uint8_t)(played[actor].n[c] + ph.n[c]), played[actor].total += ph.n[c];
            }
            g->action_events(&before, &s, actor, &fixed, 0, emit_to_bot, h);
        }
        int64_t sc[DAB_SEATS] = {0};
        g->score(&s, sc, DAB_SEATS);
        snprintf(line, sizeof line, "result %lld %lld %lld %lld", (long long)sc[0], (long long)sc[1],
                 (long long)sc[2], (long long)sc[3]);
        send_line(h, line);
        total += sc[0];
        g->match_deal_done(&m, &s, player_at, sc, -1);
        /* the view's record of the deal: the game's line and the scores */
        send_line(h, "ask play time 1000 -1 30000 legal 3S");   /* a round trip: the bot has read it all */
        recv_line(h);
        pthread_mutex_lock(&h->lock);
        CHECKF(h->v.nresults == deal + 1, "%d results after deal %d", h->v.nresults, deal);
        if (h->v.nresults == deal + 1) {
            const abot_dab_result *r = &h->v.results[deal];
            CHECK(r->scores[0] == sc[0] && r->scores[1] == sc[1] && r->points == s.out.points);
            CHECK(r->rise_team == s.out.rise_team && r->rise == s.out.rise);
            CHECK(r->levels_after[0] == s.out.level_after[0] && r->levels_after[1] == s.out.level_after[1]);
        }
        CHECK(h->v.total == total);
        pthread_mutex_unlock(&h->lock);
    }
    snprintf(line, sizeof line, "end %lld", (long long)total);
    send_line(h, line);
    CHECK(recv_line(h) == NULL);     /* the library stops at `end` */
    CHECK(h->observed_over);
    CHECK(finish(h) == 0);
    return deal;
}

/* Lines the library cannot read are reported and ignored; a request it
 * cannot read still gets one reply. */
static void test_garbage(void)
{
    harness *h = start(false, 0);
    send_line(h, "arbiter 1 dabang");
    CHECK(recv_line(h) != NULL);
    send_line(h, "match players 4 deals 1 rules standard seed 1");
    send_line(h, "deal 0 seat 1");
    send_line(h, "deal seat 1 first drawer 2 level 3");
    send_line(h, "draw 5H");
    send_line(h, "draw XX");
    send_line(h, "draw 5H");
    send_line(h, "play 9 5H");
    send_line(h, "trump Q level 3 dajia 0 by declared");
    send_line(h, "ask declare time 1000 -1 30000 legal pass 5H 5H5H BJBJBJ:S ZZ");
    const char *rep = recv_line(h);
    pthread_mutex_lock(&h->lock);
    CHECK(h->v.hand.total == 2 && h->v.hand.n[dab_parse_card(&(const char *){"5H"})] == 2);
    CHECK(h->v.seat == 1 && h->v.partner == 3 && h->v.first && h->v.first_drawer == 2);
    CHECK(h->v.trump == NULL);
    CHECKF(h->r.nchoices == 4, "%d choices", h->r.nchoices);    /* ZZ left out */
    CHECK(h->r.decision == ABOT_DAB_DECLARE && h->r.suits && h->r.suits[3] == 0 && h->r.suits[1] == -1);
    CHECK(h->choices[0].n == 0 && h->choices[2].n == 2 && h->choices[3].n == 3);
    int pick = (h->calls * 7919) % 4;
    pthread_mutex_unlock(&h->lock);
    static const char *const want[] = {"pass", "declare 5H", "declare 5H5H", "declare BJBJBJ:S"};
    CHECKF(rep && strcmp(rep, want[pick]) == 0, "reply \"%s\", want \"%s\"", rep ? rep : "", want[pick]);
    send_line(h, "ask nonsense");
    rep = recv_line(h);
    CHECK(rep && strcmp(rep, "pass") == 0);
    send_line(h, "ask play follow 0 ZZ winner 0 ZZ time 1 1 1");
    rep = recv_line(h);
    CHECK(rep && strcmp(rep, "pass") == 0);
    CHECK(finish(h) == 0);
}

int main(void)
{
    int deals = 0;
    for (uint64_t seed = 1; seed <= 6; seed++)
        deals += play_match(false, seed, (int)seed);
    for (uint64_t seed = 11; seed <= 12; seed++)
        deals += play_match(true, seed, 3);
    CHECKF(deals >= 8, "%d deals", deals);
    test_garbage();
    return TEST_DONE("botsdk_dabang");
}
