/* test_botsdk.c — the C bot library on scripted conversations: the library
 * runs in a thread on pipes, the test plays the referee, and every reply
 * and every view the bot function was shown is checked against the rules
 * engine. */
#include "arbiter_bot.h"
#include "arb_limits.h"
#include "test_util.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How the scripted bot picks. */
typedef enum policy {
    PICK_FIRST = 0,
    PICK_LAST,          /* the last choice that is not a pass */
    PICK_CARDS,         /* the play of exactly `target` cards, else the first */
    PICK_BAD,           /* an index out of range */
    PICK_ANSWER,        /* abot_answer(h->answer) */
} policy;

/* The next harness runs in strict mode (abot_options.strict). */
static bool start_strict;

/* What the bot function saw at its last call. */
typedef struct seen {
    int calls;
    abot_view v;                 /* pointers in it are not followed after the call */
    ddz_move to_beat;
    bool leading;
    abot_play last_history;
    abot_request r;
    int8_t values[32];
    ddz_move *moves;             /* ARB_MAX_MOVES */
} seen;

typedef struct harness {
    int to_bot[2], from_bot[2];
    pthread_t thread;
    const char *name;
    abot_options opt;
    int rc;
    bool finished;

    pthread_mutex_t lock;
    policy how;
    ddz_cards target;
    const char *answer;          /* PICK_ANSWER's words */
    seen s;
    int observed;                /* lines the observer got */
    bool observed_over;
    int observed_beat_seat;      /* to_beat_seat after the last event */
    char last_observed[64];      /* the last event line */
    int beat_after_pass2;        /* to_beat_seat right after the last "pass 2" */
    int64_t observed_total;

    char in[1 << 16];            /* replies read but not yet returned */
    size_t inlen;
    char line[ARB_MAX_LINE + 2];
} harness;

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    harness *h = ctx;
    pthread_mutex_lock(&h->lock);
    seen *s = &h->s;
    s->calls++;
    s->v = *v;
    s->leading = v->to_beat == NULL;
    if (v->to_beat)
        s->to_beat = *v->to_beat;
    if (v->nhistory > 0)
        s->last_history = v->history[v->nhistory - 1];
    s->r = *r;
    if (r->decision == ABOT_PLAY)
        memcpy(s->moves, r->moves, (size_t)r->nmoves * sizeof *r->moves);
    else
        memcpy(s->values, r->values, (size_t)r->nvalues);
    int n = r->decision == ABOT_PLAY ? r->nmoves : r->nvalues;
    int pick = 0;
    switch (h->how) {
    case PICK_FIRST:
        break;
    case PICK_LAST:
        pick = n - 1;
        if (r->decision == ABOT_PLAY && pick > 0 && r->moves[pick].kind == DDZ_PASS)
            pick--;
        break;
    case PICK_CARDS:
        for (int i = 0; r->decision == ABOT_PLAY && i < n; i++)
            if (r->moves[i].cards == h->target)
                pick = i;
        break;
    case PICK_BAD:
        pick = n + 7;
        break;
    case PICK_ANSWER:
        pick = abot_answer(h->answer);
        break;
    }
    pthread_mutex_unlock(&h->lock);
    return pick;
}

static void observe(const abot_view *v, const char *line, void *ctx)
{
    harness *h = ctx;
    (void)line;
    pthread_mutex_lock(&h->lock);
    h->observed++;
    h->observed_over = v->over;
    h->observed_total = v->total;
    h->observed_beat_seat = v->to_beat ? v->to_beat_seat : -1;
    snprintf(h->last_observed, sizeof h->last_observed, "%s", line);
    if (strcmp(line, "pass 2") == 0)
        h->beat_after_pass2 = h->observed_beat_seat;
    pthread_mutex_unlock(&h->lock);
}

static void *bot_thread(void *arg)
{
    harness *h = arg;
    h->rc = abot_run_fds(h->name, h->to_bot[0], h->from_bot[1], choose, h, &h->opt);
    close(h->to_bot[0]);
    close(h->from_bot[1]);   /* the test then reads end of input */
    return NULL;
}

static harness *start(const char *name, policy how, bool ask_legal)
{
    harness *h = calloc(1, sizeof *h);
    if (!h || pipe(h->to_bot) || pipe(h->from_bot))
        exit(2);
    h->s.moves = malloc(ARB_MAX_MOVES * sizeof *h->s.moves);
    if (!h->s.moves)
        exit(2);
    h->name = name;
    h->how = how;
    h->opt.ask_legal = ask_legal;
    h->opt.strict = start_strict;
    h->opt.observe = observe;
    pthread_mutex_init(&h->lock, NULL);
    if (pthread_create(&h->thread, NULL, bot_thread, h))
        exit(2);
    return h;
}

static void send_raw(harness *h, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(h->to_bot[1], p, n);
        if (w <= 0) {
            fprintf(stderr, "test_botsdk: the bot stopped reading\n");
            exit(2);
        }
        p += w;
        n -= (size_t)w;
    }
}

static void send_line(harness *h, const char *line)
{
    send_raw(h, line, strlen(line));
    send_raw(h, "\n", 1);
}

static void send_lines(harness *h, const char *const *lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        send_line(h, lines[i]);
}

/* The bot's next reply line, or NULL after 5 s without one or at its end
 * of output: a reply that is not flushed at once fails here. */
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
        if (h->inlen == sizeof h->in)
            return NULL;
        struct pollfd p = {h->from_bot[0], POLLIN, 0};
        if (poll(&p, 1, 5000) != 1)
            return NULL;
        ssize_t r = read(h->from_bot[0], h->in + h->inlen, sizeof h->in - h->inlen);
        if (r <= 0)
            return NULL;
        h->inlen += (size_t)r;
    }
}

static bool reply_is(harness *h, const char *want)
{
    const char *got = recv_line(h);
    if (got && strcmp(got, want) == 0)
        return true;
    fprintf(stderr, "  expected \"%s\", got \"%s\"\n", want, got ? got : "(nothing)");
    return false;
}

/* Close the referee's side and wait for the library to return. */
static int finish(harness *h)
{
    close(h->to_bot[1]);
    pthread_join(h->thread, NULL);
    close(h->from_bot[0]);
    int rc = h->rc;
    pthread_mutex_destroy(&h->lock);
    free(h->s.moves);
    free(h);
    return rc;
}

static void set_policy(harness *h, policy how, ddz_cards target)
{
    pthread_mutex_lock(&h->lock);
    h->how = how;
    h->target = target;
    pthread_mutex_unlock(&h->lock);
}

static ddz_cards cards_of(const ddz_rules *r, const char *text)
{
    ddz_cards c = 0;
    if (strcmp(text, "-") != 0 && ddz_cards_parse(r, text, &c) != 0) {
        fprintf(stderr, "test_botsdk: bad cards in the test: %s\n", text);
        exit(2);
    }
    return c;
}

static bool same_move(const ddz_move *a, const ddz_move *b)
{
    return a->cards == b->cards && a->kind == b->kind && a->rank == b->rank && a->len == b->len
           && a->ncards == b->ncards && a->subst == b->subst;
}

/* The same moves, in any order (the library sorts the engine's list into
 * the documented order: test_order_* check that order). The engine lists
 * each set of cards once, so a match for each is enough. */
static bool same_moves(const ddz_move *a, const ddz_move *b, int n)
{
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int j = 0; j < n && !found; j++)
            found = same_move(&a[i], &b[j]);
        if (!found)
            return false;
    }
    return true;
}

/* Send the rules the way the referee does: a match line and every option. */
static void send_rules(harness *h, const ddz_rules *r, int players)
{
    char line[256];
    snprintf(line, sizeof line, "match players %d deals 9 rules %s seed 18446744073709551557", players, r->preset);
    send_line(h, line);
    size_t need = ddz_rules_describe(r, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        exit(2);
    ddz_rules_describe(r, text, need + 1);
    char *save = NULL;
    for (char *tok = strtok_r(text, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
        snprintf(line, sizeof line, "option %s", tok);
        send_line(h, line);
    }
    free(text);
    send_line(h, "clock move 1000 deal -1 bank 30000");
    send_line(h, "ready");
}

static const char *const header[] = {
    "match players 3 deals 2 rules standard seed 9263014581240741963",
    "option players=3",
    "option kicker_bomb=false",
    "clock move 1000 deal -1 bank 30000",
    "ready",
    "unknown-event with words",   /* must be ignored */
    "sparkle",
    "deal 0 seat 1",
    "hand 33456789TTJJQKKA2",
    "first 0",
    "future-event 1 2 3 4 5 6 7 8 9",
};

/* ---- The handshake and value decisions ---------------------------------- */

static void test_handshake(void)
{
    harness *h = start("sdktest", PICK_FIRST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 sdktest"));
    CHECK(finish(h) == 0);

    h = start("lister", PICK_FIRST, true);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 lister legal"));
    CHECK(finish(h) == 0);

    /* a name outside the protocol's alphabet is made valid, not sent as is */
    h = start("bad name!", PICK_FIRST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 bad_name_"));
    CHECK(finish(h) == 0);
    h = start("", PICK_FIRST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 bot"));
    CHECK(finish(h) == 0);
}

static void test_values(void)
{
    harness *h = start("sdktest", PICK_LAST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 sdktest"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    send_line(h, "bid 0 1");
    send_line(h, "ask bid time 1000 -1 30000 legal pass 2 3");
    CHECK(reply_is(h, "bid 3"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.r.decision == ABOT_BID);
    CHECK(h->s.r.nvalues == 3 && h->s.values[0] == 0 && h->s.values[1] == 2 && h->s.values[2] == 3);
    CHECK(h->s.r.move_ms == 1000 && h->s.r.deal_ms == -1 && h->s.r.bank_ms == 30000);
    CHECK(h->s.v.seed == 9263014581240741963ULL);
    CHECK(h->s.v.clock_move_ms == 1000 && h->s.v.clock_deal_ms == -1 && h->s.v.clock_bank_ms == 30000);
    CHECK(h->s.v.seat == 1 && h->s.v.deal == 0 && h->s.v.deals == 2 && h->s.v.players == 3);
    CHECK(h->s.v.first == 0 && h->s.v.bids[0] == 1 && h->s.v.bids[1] == -1);
    CHECK(h->s.v.rules->kicker_bomb == false);
    pthread_mutex_unlock(&h->lock);
    /* the other value decisions reply with their own word */
    send_line(h, "ask double time 900 12000 29000 legal pass double");
    CHECK(reply_is(h, "double"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.r.decision == ABOT_DOUBLE && h->s.r.nvalues == 2 && h->s.values[1] == 1);
    CHECK(h->s.r.move_ms == 900 && h->s.r.deal_ms == 12000 && h->s.r.bank_ms == 29000);
    pthread_mutex_unlock(&h->lock);
    set_policy(h, PICK_FIRST, 0);
    send_line(h, "ask rob time 1000 -1 30000 legal pass rob");
    CHECK(reply_is(h, "pass"));
    /* an index out of range is the bot's bug: the pass is played (before:
     * the first item the referee listed, "call") */
    set_policy(h, PICK_BAD, 0);
    send_line(h, "ask call time 1000 -1 30000 legal call pass");
    CHECK(reply_is(h, "pass"));
    send_line(h, "end 0");
    CHECK(finish(h) == 0);
}

/* ---- Tracking the hand and the round ------------------------------------- */

static void test_tracking(void)
{
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    r.kicker_bomb = false;
    char why[256];
    harness *h = start("tracker", PICK_CARDS, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 tracker"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    send_line(h, "bid 0 1");
    send_line(h, "bid 1 3");
    /* the kitty before the landlord is announced works too; here after */
    send_line(h, "landlord 1 3");
    send_line(h, "kitty 4BR");
    set_policy(h, PICK_CARDS, cards_of(&r, "33"));
    send_line(h, "ask play time 1000 -1 30000");
    CHECK(reply_is(h, "play 33"));
    ddz_cards hand = cards_of(&r, "334456789TTJJQKKA2BR");
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.v.hand == hand);
    CHECK(h->s.v.landlord == 1 && h->s.v.stake == 3 && h->s.v.kitty == cards_of(&r, "4BR"));
    CHECK(h->s.v.counts[0] == 17 && h->s.v.counts[1] == 20 && h->s.v.counts[2] == 17);
    CHECK(h->s.leading && h->s.v.to_beat_seat == -1 && h->s.v.nhistory == 0);
    CHECK(h->s.v.bids[1] == 3);
    CHECK(abot_partner(&h->s.v, 1) && !abot_partner(&h->s.v, 0) && !abot_partner(&h->s.v, 2));
    pthread_mutex_unlock(&h->lock);

    /* its own play comes back as an event and leaves the hand */
    send_line(h, "play 1 33 pair");
    send_line(h, "counts 17 18 17");
    send_line(h, "pass 2");       /* one pass: the round goes on */
    hand -= cards_of(&r, "33");
    send_line(h, "play 0 99 pair");
    send_line(h, "counts 15 18 17");
    set_policy(h, PICK_CARDS, cards_of(&r, "TT"));      /* the first is the pass */
    send_line(h, "ask play beat 0 99 pair time 1000 -1 30000");
    const char *line = recv_line(h);
    CHECKF(line && strncmp(line, "play ", 5) == 0, "%s", line ? line : "(nothing)");
    ddz_cards nines = cards_of(&r, "99"), cards = 0, primary = 0;
    ddz_move prev, chosen;
    ddz_classify(&r, nines, &prev, 1);
    if (line && strncmp(line, "play ", 5) == 0)
        CHECK(ddz_play_parse(&r, line + 5, &cards, &primary) == 0);
    CHECKF(ddz_validate(&r, hand, &prev, cards, primary, &chosen, why, sizeof why) == 0 && cards != 0,
           "%s: %s", line ? line : "", why);
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.v.hand == hand);
    CHECK(h->s.v.played[1] == cards_of(&r, "33") && h->s.v.played[0] == nines && h->s.v.played[2] == 0);
    CHECK(h->s.v.counts[0] == 15 && h->s.v.counts[1] == 18);
    CHECK(!h->s.leading && h->s.v.to_beat_seat == 0 && h->s.to_beat.kind == DDZ_PAIR
          && h->s.to_beat.rank == prev.rank);
    CHECK(h->observed_beat_seat == 0);
    CHECK(h->beat_after_pass2 == 1);      /* one pass did not end the round */
    CHECK(h->s.v.nhistory == 3 && h->s.last_history.seat == 0 && h->s.last_history.cards == nines);
    /* the follows: every pair above 99 from the hand, bombs/rocket, then pass */
    ddz_move want[256];
    int nwant = ddz_follows(&r, hand, &prev, want, 256);
    CHECK(h->s.r.nmoves == nwant && same_moves(h->s.moves, want, nwant));
    CHECK(h->s.moves[0].kind == DDZ_PASS);      /* the documented order: the pass first */
    pthread_mutex_unlock(&h->lock);

    /* its reply echoed, two passes: the round is over and it leads */
    char ev[128];
    snprintf(ev, sizeof ev, "play 1 %s pair", line ? line + 5 : "TT");
    send_line(h, ev);
    hand -= cards;
    send_line(h, "pass 2");
    send_line(h, "pass 0");
    set_policy(h, PICK_CARDS, cards_of(&r, "456789"));
    send_line(h, "ask play time 1000 -1 30000");
    CHECK(reply_is(h, "play 456789"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.leading && h->s.v.hand == hand && h->s.v.nhistory == 6);
    CHECK(h->observed_beat_seat == -1);   /* the passes ended the round before the request said so */
    CHECK(h->beat_after_pass2 == 1 && strcmp(h->last_observed, "pass 0") == 0);
    CHECK(h->s.last_history.seat == 0 && h->s.last_history.move.kind == DDZ_PASS);
    ddz_move leads[1024];
    int nleads = ddz_leads(&r, hand, leads, 1024);
    CHECK(h->s.r.nmoves == nleads && same_moves(h->s.moves, leads, nleads));
    pthread_mutex_unlock(&h->lock);

    /* a result, a penalty, the next deal in another seat: a fresh view */
    send_line(h, "penalty 2 timeout autoplay");
    send_line(h, "result -6 12 -6");
    send_line(h, "deal 1 seat 0");
    send_line(h, "hand 3456789TJQKA2BRRR");     /* one R too many: refused, ignored */
    send_line(h, "hand 3456789TJQKA2BR");
    send_line(h, "first 2");
    send_line(h, "ask bid time 1000 -1 30000 legal pass 1 2 3");
    CHECK(reply_is(h, "pass"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.v.deal == 1 && h->s.v.seat == 0 && h->s.v.landlord == -1 && h->s.v.kitty == 0);
    CHECK(h->s.v.hand == cards_of(&r, "3456789TJQKA2BR") && h->s.v.played[1] == 0 && h->s.v.nhistory == 0);
    CHECK(h->s.v.nresults == 1 && h->s.v.results[0].deal == 0 && h->s.v.results[0].seat == 1);
    CHECK(h->s.v.total == 12 && h->s.v.own_penalties == 0);
    CHECK(h->s.v.first == 2);
    pthread_mutex_unlock(&h->lock);
    /* kitty before landlord; a redeal starts the auction again */
    send_line(h, "redeal 1");
    send_line(h, "hand 33445566778899TTJ");
    send_line(h, "kitty QKA");
    send_line(h, "landlord 0 1");
    send_line(h, "shown 0 33445566778899TTJQKA");
    send_line(h, "ask play time 1000 -1 30000");
    CHECK(recv_line(h) != NULL);
    pthread_mutex_lock(&h->lock);
    CHECK(h->observed_beat_seat == -1);
    CHECK(h->s.v.redeals == 1 && h->s.v.hand == cards_of(&r, "33445566778899TTJQKA"));
    CHECK(h->s.v.counts[0] == 20 && h->s.v.shown_seat == 0);
    CHECK(ddz_total(abot_outstanding(&h->s.v)) == 34);
    pthread_mutex_unlock(&h->lock);
    send_line(h, "penalty 0 illegal autoplay");
    send_line(h, "end 15");
    CHECK(finish(h) == 0);
}

/* ---- The legal moves equal the engine's ------------------------------------ */

/* Deal from `seed`, give seat 0 the landlord's hand, compare the leads, then
 * follows to a few plays of seat 1. */
static void compare_deal(harness *h, const ddz_rules *r, uint64_t seed, int deal)
{
    ddz_state st;
    if (ddz_deal_init(&st, r, seed) != 0) {
        CHECKF(0, "deal %llu", (unsigned long long)seed);
        return;
    }
    char text[256], line[512];
    uint16_t wild = r->wild ? (uint16_t)(1u << (seed % 13)) : 0;
    snprintf(line, sizeof line, "deal %d seat 0", deal);
    send_line(h, line);
    ddz_cards_format(st.dealt[0], text, sizeof text);
    snprintf(line, sizeof line, "hand %s", text);
    send_line(h, line);
    send_line(h, "landlord 0 1");
    ddz_cards_format(st.kitty, text, sizeof text);
    snprintf(line, sizeof line, "kitty %s", st.kitty ? text : "-");
    send_line(h, line);
    if (wild) {
        snprintf(line, sizeof line, "wild %c", ddz_rank_chars[seed % 13]);
        send_line(h, line);
    }
    ddz_cards hand = st.dealt[0] + st.kitty;
    ddz_move *want = malloc(ARB_MAX_MOVES * sizeof *want), *other = malloc(ARB_MAX_MOVES * sizeof *other);
    if (!want || !other)
        exit(2);
    int nwant = ddz_leads_w(r, wild, hand, want, ARB_MAX_MOVES);
    send_line(h, "ask play time 1000 -1 30000");
    CHECK(recv_line(h) != NULL);
    pthread_mutex_lock(&h->lock);
    CHECKF(h->s.r.nmoves == nwant && same_moves(h->s.moves, want, nwant), "seed %llu: %d leads, engine %d",
           (unsigned long long)seed, h->s.r.nmoves, nwant);
    pthread_mutex_unlock(&h->lock);
    /* seat 1 leads a few of its plays; seat 0 must follow each */
    int nother = ddz_leads_w(r, wild, st.dealt[1], other, ARB_MAX_MOVES);
    for (int k = 0; k < nother; k += nother / 7 + 1) {
        const ddz_move *prev = &other[k];
        char play[256];
        ddz_move_format_w(prev, wild, play, sizeof play);
        const char *kind = ddz_kind_name((ddz_kind)prev->kind);
        snprintf(line, sizeof line, "play 1 %s %s", play, kind);
        send_line(h, line);
        snprintf(line, sizeof line, "ask play beat 1 %s %s time 1000 -1 30000", play, kind);
        send_line(h, line);
        CHECK(recv_line(h) != NULL);
        nwant = ddz_follows_w(r, wild, hand, prev, want, ARB_MAX_MOVES);
        pthread_mutex_lock(&h->lock);
        CHECKF(h->s.r.nmoves == nwant && same_moves(h->s.moves, want, nwant),
               "seed %llu: %d follows to %s %s, engine %d", (unsigned long long)seed, h->s.r.nmoves, play, kind,
               nwant);
        pthread_mutex_unlock(&h->lock);
        send_line(h, "pass 0");   /* keep the conversation a plausible table */
        send_line(h, "pass 2");
    }
    free(want);
    free(other);
}

static void compare_rules(const ddz_rules *r, int players, uint64_t seed0)
{
    harness *h = start("engine", PICK_FIRST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 engine"));
    send_rules(h, r, players);
    for (int d = 0; d < 4; d++)
        compare_deal(h, r, seed0 + (uint64_t)d * 7919, d);
    send_line(h, "end 0");
    CHECK(finish(h) == 0);
}

static void test_legal_equals_engine(void)
{
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    compare_rules(&r, 3, 11);
    /* options the preset does not have reach the library */
    char err[256];
    ddz_rules_preset(&r, "standard");
    CHECK(ddz_rules_set_list(&r, "kicker_bomb=true,split_bomb=false,shuttle=true,chain.min=6", err, sizeof err)
          == 0);
    compare_rules(&r, 3, 23);
    ddz_rules_preset(&r, "four-player");
    compare_rules(&r, 4, 37);
    ddz_rules_preset(&r, "rlcard");
    compare_rules(&r, 3, 41);
    /* wild cards: plays written ACTUAL=REPRESENTED */
    ddz_rules_preset(&r, "standard");
    CHECK(ddz_rules_set(&r, "wild", "1", err, sizeof err) == 0);
    compare_rules(&r, 3, 53);
}

/* ---- The referee's own list (`bot 1 NAME legal`) -------------------------- */

static void test_referee_list(void)
{
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    harness *h = start("lister", PICK_LAST, true);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 lister legal"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    /* the items are copied verbatim, whatever the tracked hand holds */
    send_line(h, "ask play time 1000 -1 30000 legal 3 33 333+4 345678");
    CHECK(reply_is(h, "play 345678"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.r.nmoves == 4 && h->s.moves[2].kind == DDZ_TRIO_SOLO && h->s.moves[3].kind == DDZ_CHAIN);
    pthread_mutex_unlock(&h->lock);
    set_policy(h, PICK_CARDS, cards_of(&r, "3334"));
    send_line(h, "ask play time 1000 -1 30000 legal 3 33 333+4 345678");
    CHECK(reply_is(h, "play 333+4"));
    send_line(h, "play 0 KK pair");
    send_line(h, "ask play beat 0 KK pair time 1000 -1 30000 legal AA ZZ pass");
    set_policy(h, PICK_LAST, 0);
    CHECK(reply_is(h, "play AA"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.r.nmoves == 2 && h->s.moves[0].kind == DDZ_PASS && !h->s.leading);
    pthread_mutex_unlock(&h->lock);
    set_policy(h, PICK_BAD, 0);
    send_line(h, "ask play beat 0 KK pair time 1000 -1 30000 legal pass");
    CHECK(reply_is(h, "pass"));
    send_line(h, "end 0");
    CHECK(finish(h) == 0);
}

/* ---- Bad input from the referee ----------------------------------------------- */

static void test_garbage(void)
{
    harness *h = start("sturdy", PICK_LAST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 sturdy"));
    static const char *const junk[] = {
        "", "    ", "\t", "match", "match players 9 deals -4 seed -1 rules nosuch", "option", "option noequals",
        "option kicker_bomb=maybe", "option nosuch=1", "deal", "deal x seat 1", "deal 0 seat 99",
        "deal 0 seat -1", "deal 99999999999999999999 seat 0", "hand", "hand QQQQQQQQQ", "hand XYZ", "wild",
        "wild 1", "first 7", "bid 9 9", "bid 0 1000", "landlord -1 x", "landlord 0 -5", "kitty ???",
        "play", "play 9 ZZZ bogus", "play 1 33 nonsense", "play 1 34 pair", "play 1 - pair", "pass", "pass -3",
        "counts", "counts 1 2", "counts a b c", "counts 1 2 3 4 5 6", "result a b c", "result 1",
        "penalty", "penalty 99 x y", "shown 5 33", "redeal x", "double 0 7", "note the referee speaks",
        "\x01\x02\x7f binary \xff\xfe", "end-of-days", "ready ready ready",
    };
    send_lines(h, junk, sizeof junk / sizeof junk[0]);
    /* requests that cannot be understood still get one reply each */
    send_line(h, "ask");
    CHECK(reply_is(h, "pass"));
    send_line(h, "ask dance time 1 2 3");
    CHECK(reply_is(h, "pass"));
    send_line(h, "ask play beat 0 ZZ pair time 1 2 3");
    CHECK(reply_is(h, "pass"));
    send_line(h, "ask bid time x y z legal pass 1 banana 200 -3");
    CHECK(reply_is(h, "bid 1"));
    send_line(h, "ask double time 1000 -1 30000");
    CHECK(reply_is(h, "pass"));
    /* a line of exactly the longest allowed request, of many words */
    size_t big = ARB_MAX_REQUEST;
    char *text = malloc(big + 2000);
    if (!text)
        exit(2);
    for (size_t i = 0; i < big; i += 2)
        memcpy(text + i, "x ", 2);
    text[big] = 0;
    send_line(h, text);
    /* ... a request with a list far longer than a bot could need */
    snprintf(text, big + 1, "%s", "ask bid time 1 2 3 legal");
    for (size_t n = strlen(text); n + 6 < big; n += 5)
        memcpy(text + n, " pass", 6);
    send_line(h, text);
    CHECK(reply_is(h, "pass"));
    /* ... and lines longer than the limit: skipped, with or without newline
     * in the same write */
    memset(text, 'y', big + 1000);
    send_raw(h, text, big + 1000);
    static const char after[] = "\nask bid time 1 2 3 legal pass 1\n";
    send_raw(h, after, strlen(after));
    CHECK(reply_is(h, "bid 1"));
    free(text);
    /* after all that, a proper deal works */
    send_line(h, "match players 3 deals 1 rules standard seed 5");
    send_line(h, "deal 0 seat 2");
    send_line(h, "hand 3456789TJQKA2BRR");
    send_line(h, "hand 3456789TJQKA2BR\r");
    send_line(h, "landlord 2 1");
    send_line(h, "kitty 345");
    send_line(h, "ask play time 1000 -1 30000");
    const char *line = recv_line(h);
    CHECKF(line && strncmp(line, "play ", 5) == 0, "%s", line ? line : "(nothing)");
    pthread_mutex_lock(&h->lock);
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    CHECK(h->s.v.seat == 2 && h->s.v.hand == cards_of(&r, "3344556789TJQKA2BR") && h->s.v.counts[2] == 18);
    pthread_mutex_unlock(&h->lock);
    /* the end of input without `end`: a clean return */
    CHECK(finish(h) == 0);
}

static void test_end(void)
{
    harness *h = start("ender", PICK_FIRST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 ender"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    send_line(h, "end 42");
    pthread_join(h->thread, NULL);
    h->finished = true;
    CHECK(h->rc == 0);
    CHECK(h->observed == (int)(sizeof header / sizeof header[0]) + 1);
    CHECK(h->observed_over && h->observed_total == 42);
    CHECK(recv_line(h) == NULL);
    close(h->to_bot[1]);
    close(h->from_bot[0]);
    free(h->s.moves);
    free(h);
}

/* ---- The order of the legal list, the fallback, strict mode, roles -------- */

/* stderr (fd 2) into a file while the bot thread writes its diagnostics. */
static int saved_stderr = -1;
static FILE *captured;

static void capture_begin(void)
{
    fflush(stderr);
    captured = tmpfile();
    if (!captured)
        exit(2);
    saved_stderr = dup(2);
    dup2(fileno(captured), 2);
}

static char *capture_end(void)
{
    static char text[8192];
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(captured);
    size_t n = fread(text, 1, sizeof text - 1, captured);
    text[n] = 0;
    fclose(captured);
    return text;
}

static void texts_of(const seen *s, char out[][40], int n)
{
    for (int i = 0; i < n; i++)
        abot_move_text(&s->v, &s->moves[i], out[i], sizeof out[i]);
}

static void test_order(void)
{
    /* the engine's leads from 33456789TTJJQKKA2, sorted */
    harness *h = start("order", PICK_FIRST, false);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 order"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    send_line(h, "ask play time 1000 -1 30000");
    CHECK(reply_is(h, "play 3"));
    static char engine[2048][40];
    pthread_mutex_lock(&h->lock);
    int n = h->s.r.nmoves;
    CHECK(n > 30 && n < 2048);
    texts_of(&h->s, engine, n);
    const char *const want[] = {"3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2",
                                "33", "TT", "JJ", "KK", "34567", "45678"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECKF(strcmp(engine[i], want[i]) == 0, "move %zu: %s, want %s", i, engine[i], want[i]);
    /* by kind, then fewer cards, then the primary part's lowest rank */
    for (int i = 1; i < n; i++) {
        const ddz_move *a = &h->s.moves[i - 1], *b = &h->s.moves[i];
        CHECKF(a->kind < b->kind || (a->kind == b->kind && (a->ncards < b->ncards || (a->ncards == b->ncards
               && (ddz_move_primary(a) & -ddz_move_primary(a)) <= (ddz_move_primary(b) & -ddz_move_primary(b))))),
               "%s before %s", engine[i - 1], engine[i]);
    }
    pthread_mutex_unlock(&h->lock);
    send_line(h, "end 0");
    CHECK(finish(h) == 0);

    /* the same moves listed by the referee in reverse: the same order */
    h = start("order", PICK_FIRST, true);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 order legal"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    char *line = malloc(65536);
    size_t at = (size_t)snprintf(line, 65536, "ask play time 1000 -1 30000 legal");
    for (int i = n - 1; i >= 0 && at < 65000; i--)
        at += (size_t)snprintf(line + at, 65536 - at, " %s", engine[i]);
    send_line(h, line);
    free(line);
    CHECK(reply_is(h, "play 3"));
    pthread_mutex_lock(&h->lock);
    CHECK(h->s.r.nmoves == n);
    static char listed[2048][40];
    texts_of(&h->s, listed, n);
    for (int i = 0; i < n; i++)
        CHECKF(strcmp(listed[i], engine[i]) == 0, "listed %d: %s, engine %s", i, listed[i], engine[i]);
    pthread_mutex_unlock(&h->lock);
    send_line(h, "end 0");
    CHECK(finish(h) == 0);
}

static void test_fallback_and_strict(void)
{
    harness *h = start("fallback", PICK_BAD, true);
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 fallback legal"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    send_line(h, "play 0 4 solo");
    capture_begin();
    /* before: the first item, the bomb 5555 */
    send_line(h, "ask play beat 0 4 solo time 1000 -1 30000 legal 5555 6 pass");
    bool ok = reply_is(h, "pass");
    send_line(h, "ask play time 1000 -1 30000 legal 3333 TT 5 4");
    ok &= reply_is(h, "play 4");
    set_policy(h, PICK_ANSWER, 0);
    h->answer = "play 4333";
    send_line(h, "ask play time 1000 -1 30000 legal 3 33 333+4 345678");
    ok &= reply_is(h, "play 333+4");
    h->answer = "KKKK";
    send_line(h, "ask play time 1000 -1 30000 legal 3 33 333+4 345678");
    ok &= reply_is(h, "play 3");
    char *err = capture_end();
    CHECK(ok);
    CHECKF(strstr(err, "the bot chose 10 of 3 choices, not a legal choice; answering 'pass' (passing is legal)"),
           "%s", err);
    CHECKF(strstr(err, "answering '4' (the smallest legal choice, passing is not legal)"), "%s", err);
    CHECKF(strstr(err, "the bot chose \"KKKK\", not a legal choice; answering '3'"), "%s", err);
    send_line(h, "end 0");
    CHECK(finish(h) == 0);

    start_strict = true;
    h = start("strict", PICK_BAD, true);
    start_strict = false;
    send_line(h, "arbiter 1 doudizhu");
    CHECK(reply_is(h, "bot 1 strict legal"));
    send_lines(h, header, sizeof header / sizeof header[0]);
    capture_begin();
    send_line(h, "ask play beat 0 4 solo time 1000 -1 30000 legal 5555 6 pass");
    ok = reply_is(h, "error");
    set_policy(h, PICK_ANSWER, 0);
    h->answer = "KKKK\nmore";
    send_line(h, "ask play time 1000 -1 30000 legal 3 33 333+4 345678");
    ok &= reply_is(h, "KKKK");
    h->answer = "3334";                 /* legal words still name the legal item */
    send_line(h, "ask play time 1000 -1 30000 legal 3 33 333+4 345678");
    ok &= reply_is(h, "play 333+4");
    set_policy(h, PICK_LAST, 0);
    send_line(h, "ask play time 1000 -1 30000 legal 3 33");
    ok &= reply_is(h, "play 33");
    err = capture_end();
    CHECK(ok);
    CHECKF(strstr(err, "strict mode: sending \"error\" for the referee to judge"), "%s", err);
    CHECKF(strstr(err, "the bot answered \"KKKK\", not a legal choice; strict mode: sending it"), "%s", err);
    send_line(h, "end 0");
    CHECK(finish(h) == 0);
}

static void test_roles(void)
{
    abot_view v = {.players = 3, .landlord = -1};
    CHECK(abot_role_of(&v, 0) == ABOT_ROLE_UNKNOWN && abot_seat_of(&v, ABOT_ROLE_LANDLORD) == -1);
    v.landlord = 2;
    CHECK(abot_role_of(&v, 2) == ABOT_ROLE_LANDLORD);
    CHECK(abot_role_of(&v, 0) == ABOT_ROLE_LANDLORD_DOWN);     /* 下家: plays right after seat 2 */
    CHECK(abot_role_of(&v, 1) == ABOT_ROLE_LANDLORD_UP);       /* 上家 */
    CHECK(abot_seat_of(&v, ABOT_ROLE_LANDLORD_UP) == 1 && abot_seat_of(&v, ABOT_ROLE_LANDLORD_ACROSS) == -1);
    CHECK(abot_role_of(&v, 3) == ABOT_ROLE_UNKNOWN);
    v.players = 4;
    v.landlord = 3;
    CHECK(abot_role_of(&v, 0) == ABOT_ROLE_LANDLORD_DOWN && abot_role_of(&v, 1) == ABOT_ROLE_LANDLORD_ACROSS
          && abot_role_of(&v, 2) == ABOT_ROLE_LANDLORD_UP);
    CHECK(strcmp(abot_role_name(abot_role_of(&v, 1)), "landlord_across") == 0);
    abot_dab_view d = {.seat = 2, .dajia = 3};
    CHECK(abot_dab_role_of(&d, 3) == ABOT_DAB_ROLE_DECLARER && abot_dab_role_of(&d, 0) == ABOT_DAB_ROLE_DECLARER_DOWN
          && abot_dab_role_of(&d, 1) == ABOT_DAB_ROLE_DECLARER_PARTNER
          && abot_dab_role_of(&d, 2) == ABOT_DAB_ROLE_DECLARER_UP);
    CHECK(abot_dab_seat_of(&d, ABOT_DAB_ROLE_DECLARER_PARTNER) == 1);
    CHECK(strcmp(abot_dab_role_name(ABOT_DAB_ROLE_DECLARER_UP), "declarer_up") == 0);
    d.dajia = -1;
    CHECK(abot_dab_role_of(&d, 0) == ABOT_DAB_ROLE_UNKNOWN && abot_dab_seat_of(&d, ABOT_DAB_ROLE_DECLARER) == -1);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    test_order();
    test_fallback_and_strict();
    test_roles();
    test_handshake();
    test_values();
    test_tracking();
    test_legal_equals_engine();
    test_referee_list();
    test_garbage();
    test_end();
    return TEST_DONE("botsdk");
}
