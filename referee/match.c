/* match.c — the match core: handshake, deals, requests under the clock,
 * verdicts, penalties by policy, scores, the match carried from deal to
 * deal by the game; every line and verdict goes to the sink (match.h,
 * sink.h, bot-protocol.md). */
#include "match.h"
#include "arb_error.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_names.h"
#include "arb_rng.h"
#include "arb_time.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The run ------------------------------------------------------------ */

typedef struct bot_rt {
    bool     legal_lists;   /* asked for legal plays in the handshake */
    bool     gone;          /* will never answer again */
    uint8_t  gone_reason;
    bool     forfeited;
    uint32_t owed;          /* replies owed to timed-out requests */
    bool     refused;       /* this process sent a line that was refused (malformed, illegal) */
    bool     asked;         /* asked before: asked_state, asked_game, asked_decision hold */
    uint32_t asked_game, asked_decision;   /* its last request */
    int64_t  bank_ns;
    int64_t  deal_used_ns;
} bot_rt;

typedef struct run {
    const match_config *cfg;
    const arb_game *g;
    const match_driver *drv;
    const match_sink *sink;
    const match_observer *obs;
    const match_deal_source *src;   /* NULL: deals from the match key */
    match_result *res;
    void *rules, *state, *before;
    void *mstate;           /* what the game carries from deal to deal */
    void *asked_state;      /* per bot, g->state_size each: the position of its last request */
    arb_action *legal;
    char *req;              /* ARB_MAX_REQUEST bytes */
    char options[ARB_MAX_OPTIONS_TEXT];
    uint64_t t0;
    bot_rt bot[ARB_MAX_SEATS];
    md_reply reply;
    match_deal *d;
    int rc;
    /* Tables (match_tables): each seating block a match of its own. */
    uint32_t ntables;
    int64_t table_base[ARB_MAX_SEATS];    /* per bot: its scores at the tables already closed */
    int64_t table_score[ARB_MAX_SEATS];   /* per bot: its score at the current (or last) table */
    arb_standing last_table;              /* the standing of the last table closed */
} run;

static uint64_t now_t(const run *r) { return arb_now_ns() - r->t0; }

static int fail(run *r, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(run *r, int rc, const char *fmt, ...)
{
    if (!r->res->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->res->error, sizeof r->res->error, fmt, ap);
        va_end(ap);
    }
    if (!r->rc)
        r->rc = rc;
    return rc;
}

/* Put a record into the sink, stamped with the match's clock; a refusal
 * becomes the match's error (a divergence when verifying). */
static int put(run *r, match_rec rec)
{
    rec.t = now_t(r);
    int rc = r->sink->record(r->sink->ctx, &rec);
    if (rc && !r->rc) {
        const char *why = r->sink->why(r->sink->ctx);
        fail(r, rc, "%s", why[0] ? why : arb_strerror(rc));
    }
    return rc;
}

static void tell(run *r, int bot, const char *line)
{
    if (r->rc || r->bot[bot].gone)
        return;
    if (put(r, (match_rec){.type = MR_SEND, .bot = bot, .text = line}))
        return;
    r->drv->send(r->drv->ctx, bot, line);   /* a bot that does not read is caught at its next request */
}

typedef struct emit_ctx {
    run *r;
    int bot;
} emit_ctx;

static void emit_to_bot(void *ctx, const char *line)
{
    emit_ctx *e = ctx;
    tell(e->r, e->bot, line);
}

static void tellf(run *r, int bot, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void tellf(run *r, int bot, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    tell(r, bot, line);
}

/* Send a request and get the reply, discarding the replies still owed to
 * earlier timed-out requests (one request, one reply, in order). The time
 * spent on them counts against this request. */
static void ask(run *r, int bot, const char *request, uint64_t budget_ns, md_reply *rep)
{
    bot_rt *b = &r->bot[bot];
    uint64_t spent = 0, cpu = 0;
    const char *line = request;
    for (;;) {
        r->drv->ask(r->drv->ctx, bot, line, budget_ns - spent, rep);
        line = NULL;
        if (put(r, (match_rec){.type = MR_RECV, .bot = bot, .reply = rep}))
            return;
        spent += rep->wall_ns;
        cpu += rep->cpu_ns;
        if (rep->kind != MD_LINE || b->owed == 0)
            break;
        b->owed--;            /* a late reply to an earlier request: dropped */
        if (spent >= budget_ns) {
            rep->kind = MD_TIMEOUT;
            break;
        }
    }
    rep->wall_ns = spent;
    rep->cpu_ns = cpu;
}

static void penalise(run *r, int seat, int bot, match_reason why, match_policy cost, const char *detail);

/* Start a bot and send it the first line; its answer is read by
 * hello_finish once every bot has been started, so that the bots boot
 * side by side. Returns false when it could not be started. */
static bool hello_start(run *r, int bot)
{
    match_bot_stats *st = &r->res->bots[bot];
    bot_rt *b = &r->bot[bot];
    int rc = r->drv->start(r->drv->ctx, bot, &r->cfg->bots[bot], st->sandbox, sizeof st->sandbox);
    if (rc == ARB_ESANDBOX) {
        /* Not the bot's fault, and never played in a weaker sandbox: the
         * match fails with the reason (a tournament voids it). */
        fail(r, rc, "sandbox: bot %d (%s) could not be started in the sandbox this referee requires "
             "(bubblewrap failed, or its uid is out of processes); not played weaker", bot, r->cfg->bots[bot].name);
        return false;
    }
    if (rc) {
        char detail[128];
        snprintf(detail, sizeof detail, "could not start: %s", arb_strerror(rc));
        b->gone = true;
        b->gone_reason = MATCH_R_EXITED;
        penalise(r, -1, bot, MATCH_R_HANDSHAKE, MATCH_FORFEIT_MATCH, detail);
        b->forfeited = true;
        return false;
    }
    char hello_line[64];
    snprintf(hello_line, sizeof hello_line, "arbiter 1 %s", r->g->name);
    if (put(r, (match_rec){.type = MR_ASK, .bot = bot, .text = hello_line, .nlegal = -1}))
        return false;
    r->drv->send(r->drv->ctx, bot, hello_line);
    return true;
}

/* Read a started bot's handshake and send the match settings; a bot that
 * does not shake hands forfeits the match. */
static void hello_finish(run *r, int bot)
{
    match_bot_stats *st = &r->res->bots[bot];
    bot_rt *b = &r->bot[bot];
    char detail[ARB_MAX_LINE + 64] = "";
    /* Its start-up budget (its own, else the match's), once per process:
     * a driver counts it from the process's start (live.c), so the
     * handshake's reply records how long the start took. */
    ask(r, bot, NULL, match_startup_ns(r->cfg, bot), &r->reply);
    if (r->rc)
        return;
    char word[8] = "", name[ARB_MAX_BOT_NAME + 2] = "", flag[16] = "", extra[2] = "";
    int version = -1;
    int n = r->reply.kind == MD_LINE
                ? sscanf(r->reply.line, "%7s %d %33s %15s %1s", word, &version, name, flag, extra) : 0;
    if (r->reply.kind == MD_LINE && n >= 3 && strcmp(word, "bot") == 0 && version == 1 && arb_valid_name(name)
        && (n == 3 || (n == 4 && strcmp(flag, "legal") == 0))) {
        snprintf(st->hello, sizeof st->hello, "%s", name);
        b->legal_lists = n == 4;
        /* At a table, a process plays that table's match and no other:
         * it is told the table's bound. */
        tellf(r, bot, "match players %d deals %u rules %s seed %" PRIu64, r->cfg->nbots,
              r->ntables ? r->cfg->deals : match_games(r->cfg), r->cfg->preset, arb_seeds_bot(r->cfg->key, (uint64_t)bot));
        char *save = NULL, opts[ARB_MAX_OPTIONS_TEXT];
        snprintf(opts, sizeof opts, "%s", r->options);
        for (char *tok = strtok_r(opts, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save))
            tellf(r, bot, "option %s", tok);
        tellf(r, bot, "clock move %" PRId64 " deal %" PRId64 " bank %" PRId64, r->cfg->move_ms,
              r->cfg->deal_ms, r->cfg->bank_ms);
        tell(r, bot, "ready");
        return;
    }
    if (r->reply.kind == MD_LINE && strcmp(word, "bot") == 0 && version != 1)
        tell(r, bot, "error unsupported-version 1");
    if (r->reply.kind == MD_LINE)
        snprintf(detail, sizeof detail, "expected \"bot 1 NAME [legal]\", got \"%.200s\"", r->reply.line);
    else
        snprintf(detail, sizeof detail, "no handshake (%s)",
                 r->reply.kind == MD_TIMEOUT ? "timeout" : r->reply.kind == MD_TOO_LONG ? "line too long"
                 : r->reply.kind == MD_CRASHED ? "crashed" : "exited");
    if (r->reply.kind >= MD_CLOSED) {
        b->gone = true;
        b->gone_reason = r->reply.kind == MD_CRASHED ? MATCH_R_CRASHED : MATCH_R_EXITED;
    }
    penalise(r, -1, bot, MATCH_R_HANDSHAKE, MATCH_FORFEIT_MATCH, detail);
    b->forfeited = true;
}

/* The penalty into the result's list: the first ARB_MAX_RESULT_PENALTIES
 * (the list is taken whole at the first, so that a match never allocates
 * again), the rest counted. Out of memory, it is counted too. */
static void keep_penalty(run *r, uint32_t game, uint32_t dec, int seat, int bot, match_reason why,
                         match_policy cost, const char *detail)
{
    match_result *res = r->res;
    if (!res->penalties && !res->penalties_dropped)
        res->penalties = calloc(ARB_MAX_RESULT_PENALTIES, sizeof *res->penalties);
    if (!res->penalties || res->npenalties >= ARB_MAX_RESULT_PENALTIES) {
        res->penalties_dropped++;
        return;
    }
    match_penalty *p = &res->penalties[res->npenalties++];
    *p = (match_penalty){.game = game, .decision = dec, .seat = (int8_t)seat, .bot = (uint8_t)bot,
                         .reason = (uint8_t)why, .consequence = (uint8_t)cost};
    snprintf(p->note, sizeof p->note, "%s", detail);
}

static void penalise(run *r, int seat, int bot, match_reason why, match_policy cost, const char *detail)
{
    match_bot_stats *st = &r->res->bots[bot];
    const char *consequence = match_policy_name(cost);
    st->penalties++;
    st->by_reason[why]++;
    uint32_t game = r->d ? r->d->game : 0, dec = r->d ? r->d->decisions : 0;
    keep_penalty(r, game, dec, seat, bot, why, cost, detail);
    if (put(r, (match_rec){.type = MR_PENALTY, .game = game, .decision = dec, .seat = seat, .bot = bot,
                           .reason = why, .consequence = consequence, .text = detail}))
        return;
    if (r->d)
        for (int s = 0; s < r->cfg->nbots; s++)
            tellf(r, r->d->bot_at[s], "penalty %d %s %s", seat, match_reason_name(why), consequence);
    tellf(r, bot, "note %s: %.900s", match_reason_name(why), detail);
    if (r->obs && r->obs->penalty)
        r->obs->penalty(r->obs->ctx, r->d, seat, bot, why, consequence, detail);
}

/* The seat of a bot in the deal, -1 when it does not sit in it. */
static int seat_of(const run *r, const match_deal *d, int bot)
{
    for (int s = 0; s < r->cfg->nbots; s++)
        if (d->bot_at[s] == bot)
            return s;
    return -1;
}

/* The deal is forfeited by a bot: the game says what that scores (the
 * offender alone pays, or its team loses). */
static void forfeit_scores(run *r, match_deal *d, int bot)
{
    int64_t sc[ARB_MAX_SEATS] = {0};
    d->forfeit_bot = (int8_t)bot;
    if (r->g->forfeit(r->mstate, seat_of(r, d, bot), r->cfg->forfeit_points, sc) != 0) {
        fail(r, ARB_ESTATE, "internal: %s cannot score a forfeited deal", r->g->name);
        return;
    }
    memcpy(d->score, sc, sizeof sc);
}

/* The totals as the game counts them, after every deal (at tables: the
 * tables closed, plus the current one's standing). */
static int refresh_totals(run *r, arb_standing *st)
{
    if (r->g->match_result(r->mstate, st) != 0)
        return fail(r, ARB_ESTATE, "internal: %s has no standings for the match", r->g->name);
    for (int b = 0; b < r->cfg->nbots; b++) {
        r->table_score[b] = st->score[b];
        r->res->bots[b].total = r->table_base[b] + st->score[b];
    }
    return 0;
}

/* Append the legal items to the request: " legal A B C". */
static int append_items(run *r, size_t *len, int n)
{
    static const char kw[] = " legal";
    if (*len + sizeof kw >= ARB_MAX_REQUEST)
        return ARB_ETOOBIG;
    memcpy(r->req + *len, kw, sizeof kw);
    *len += sizeof kw - 1;
    for (int i = 0; i < n; i++) {
        if (*len + 2 + ARB_MAX_PLAY_TEXT >= ARB_MAX_REQUEST)
            return ARB_ETOOBIG;
        r->req[(*len)++] = ' ';
        int k = r->g->format_item(r->state, &r->legal[i], r->req + *len, ARB_MAX_REQUEST - *len);
        if (k < 0)
            return k;
        *len += (size_t)k;
    }
    return 0;
}

static int64_t ms_of(int64_t ns) { return ns / 1000000; }

/* A refused reply that would have answered the bot's previous request,
 * from a process that already sent a refused line: the signature of a
 * stray line on stdout (itself read as a reply, and refused), after which
 * every reply comes one request late. The protocol has no request ids: a
 * reply is matched to a request by the position it answers. The late
 * replies that happen to be legal where they land are played; the note
 * goes into the detail of each one refused. */
static void note_late_reply(run *r, int bot, const char *line, char *detail, size_t cap)
{
    const arb_game *g = r->g;
    bot_rt *b = &r->bot[bot];
    if (!r->cfg->late_reply_notes || !b->refused || !b->asked)
        return;
    void *then = (char *)r->asked_state + (size_t)bot * g->state_size;
    arb_action a, fixed;
    char why[256];
    if (g->parse_action(then, line, &a, why, sizeof why) != 0 || g->check(then, &a, &fixed, why, sizeof why) != 0)
        return;
    size_t len = strlen(detail);
    snprintf(detail + len, cap - len, "; the reply answers request %" PRIu32 " of game %" PRIu32
             ", the bot's previous one: a stray line on stdout?", b->asked_decision, b->asked_game);
}

/* One decision of the seat to act. Returns true when the deal goes on. */
static bool decide(run *r, int nlegal)
{
    const arb_game *g = r->g;
    match_deal *d = r->d;
    int seat = g->to_act(r->state);
    int bot = d->bot_at[seat];
    bot_rt *b = &r->bot[bot];
    match_bot_stats *st = &r->res->bots[bot];
    match_reason fault = MATCH_R_NONE;
    char detail[ARB_MAX_LINE + 512] = "";
    arb_action fixed;
    d->decisions++;
    r->res->decisions++;

    if (b->gone) {
        fault = (match_reason)b->gone_reason;
        snprintf(detail, sizeof detail, "the bot is no longer running (%s)", match_reason_name(fault));
    } else {
        int64_t free_ns = r->cfg->move_ms * 1000000;
        int64_t deal_left = -1;
        if (r->cfg->deal_ms >= 0) {
            deal_left = r->cfg->deal_ms * 1000000 - b->deal_used_ns;
            if (deal_left < 0)
                deal_left = 0;
            if (deal_left < free_ns)
                free_ns = deal_left;
        }
        uint64_t budget = (uint64_t)(free_ns + b->bank_ns);
        size_t len = (size_t)snprintf(r->req, ARB_MAX_REQUEST, "ask ");
        int k = g->request(r->state, r->req + len, ARB_MAX_REQUEST - len);
        if (k < 0) {
            fail(r, k, "internal: no request text for the position");
            return false;
        }
        len += (size_t)k;
        len += (size_t)snprintf(r->req + len, ARB_MAX_REQUEST - len, " time %" PRId64 " %" PRId64 " %" PRId64,
                                ms_of(free_ns), deal_left < 0 ? -1 : ms_of(deal_left), ms_of(b->bank_ns));
        size_t recorded = len;
        bool items = g->items_on_request(r->state) || b->legal_lists;
        if (items && append_items(r, &len, nlegal) != 0) {
            fail(r, ARB_ETOOBIG, "internal: legal list longer than ARB_MAX_REQUEST");
            return false;
        }
        /* The transcript keeps the request without its legal list: replay
         * re-derives the list from the position. */
        char saved = r->req[recorded];
        r->req[recorded] = 0;
        if (put(r, (match_rec){.type = MR_ASK, .bot = bot, .game = d->game, .decision = d->decisions,
                               .text = r->req, .nlegal = items ? nlegal : -1}))
            return false;
        r->req[recorded] = saved;
        md_reply *rep = &r->reply;
        ask(r, bot, r->req, budget, rep);
        if (r->rc)
            return false;
        int64_t used = rep->kind == MD_TIMEOUT ? (int64_t)budget : (int64_t)rep->wall_ns;
        if (rep->kind < MD_CLOSED) {
            st->decisions++;
            st->wall_ns += (uint64_t)used;
            st->cpu_ns += rep->cpu_ns;
            if ((uint64_t)used > st->max_wall_ns)
                st->max_wall_ns = (uint64_t)used;
        }
        if (used > free_ns) {
            b->bank_ns -= used - free_ns;
            if (b->bank_ns < 0)
                b->bank_ns = 0;
        }
        b->deal_used_ns += used;
        switch (rep->kind) {
        case MD_LINE: {
            arb_action a;
            char why[512] = "";
            int rc = g->parse_action(r->state, rep->line, &a, why, sizeof why);
            if (rc) {
                fault = MATCH_R_MALFORMED;
                snprintf(detail, sizeof detail, "%s (reply \"%.200s\")", why, rep->line);
            } else if ((rc = g->check(r->state, &a, &fixed, why, sizeof why)) != 0) {
                fault = MATCH_R_ILLEGAL;
                snprintf(detail, sizeof detail, "%s (reply \"%.200s\")", why, rep->line);
            }
            if (rc)
                note_late_reply(r, bot, rep->line, detail, sizeof detail);
            b->refused |= rc != 0;
            break;
        }
        case MD_TIMEOUT:
            fault = MATCH_R_TIMEOUT;
            b->owed++;
            snprintf(detail, sizeof detail, "no reply in %" PRId64 " ms (%" PRId64 " ms free + %" PRId64 " ms bank)",
                     ms_of((int64_t)budget), ms_of(free_ns), ms_of((int64_t)budget - free_ns));
            break;
        case MD_TOO_LONG:
            fault = MATCH_R_TOO_LONG;
            snprintf(detail, sizeof detail, "a reply longer than %d bytes", ARB_MAX_LINE);
            break;
        default:
            fault = rep->kind == MD_CLOSED ? MATCH_R_CLOSED : rep->kind == MD_EXITED ? MATCH_R_EXITED : MATCH_R_CRASHED;
            b->gone = true;
            b->gone_reason = (uint8_t)fault;
            r->res->bots[bot].gone = true;
            snprintf(detail, sizeof detail, "the bot %s", fault == MATCH_R_CLOSED ? "closed its stdout"
                     : fault == MATCH_R_EXITED ? "exited" : "crashed");
            break;
        }
        /* the position this request asked about, for the next reply's note */
        memcpy((char *)r->asked_state + (size_t)bot * g->state_size, r->state, g->state_size);
        b->asked = true;
        b->asked_game = d->game;
        b->asked_decision = d->decisions;
    }

    bool by_referee = false;
    if (fault != MATCH_R_NONE) {
        match_policy p = (match_policy)r->cfg->policy;
        if (p == MATCH_AUTOPLAY && ++st->strikes > r->cfg->strikes)
            p = MATCH_FORFEIT_MATCH;
        penalise(r, seat, bot, fault, p, detail);
        if (r->rc)
            return false;
        if (p != MATCH_AUTOPLAY) {
            forfeit_scores(r, d, bot);
            if (p == MATCH_FORFEIT_MATCH)
                b->forfeited = st->forfeited = true;
            return false;
        }
        int idx = g->fallback(r->state, r->legal, nlegal);
        char why[256];
        if (g->check(r->state, &r->legal[idx], &fixed, why, sizeof why) != 0) {
            fail(r, ARB_ESTATE, "internal: the fallback action is refused: %s", why);
            return false;
        }
        by_referee = true;
    }

    memcpy(r->before, r->state, g->state_size);
    if (g->apply(r->state, &fixed) != 0) {
        fail(r, ARB_ESTATE, "internal: a checked action was not applied");
        return false;
    }
    char text[ARB_MAX_PLAY_TEXT + 32];
    g->format_action(r->before, &fixed, text, sizeof text);
    if (put(r, (match_rec){.type = MR_VERDICT, .game = d->game, .decision = d->decisions, .seat = seat,
                           .bot = bot, .text = text, .by_referee = by_referee}))
        return false;
    for (int s = 0; s < r->cfg->nbots; s++) {
        emit_ctx e = {r, d->bot_at[s]};
        g->action_events(r->before, r->state, seat, &fixed, s, emit_to_bot, &e);
    }
    if (r->obs && r->obs->action)
        r->obs->action(r->obs->ctx, d, r->before, r->state, seat, &fixed, by_referee);
    return !r->rc;
}

/* Play game gi into the next entry of res->deals. */
static void play_game(run *r, uint32_t gi)
{
    const arb_game *g = r->g;
    const match_config *cfg = r->cfg;
    int n = cfg->nbots;
    match_deal *d = &r->res->deals[r->res->ndeals];
    r->d = d;
    memset(d, 0, sizeof *d);
    d->game = gi;
    d->forfeit_bot = -1;
    match_seating(cfg, gi, &d->deal, &d->seating, d->bot_at);
    d->seed = arb_seeds_deal(cfg->key, d->deal);
    /* A deal source deals first: it says the seed the record keeps. */
    int src_rc = r->src ? r->src->deal(r->src->ctx, d->deal, r->state, r->rules, &d->seed) : 0;
    if (src_rc) {
        fail(r, src_rc, "deal %u cannot be dealt from its source: %s", d->deal, arb_strerror(src_rc));
        return;
    }
    if (put(r, (match_rec){.type = MR_DEAL, .deal = d, .nseats = n}))
        return;

    /* A bot that has forfeited the match forfeits every deal it had left
     * (the first such bot in seat order). */
    int forfeiter = -1;
    for (int s = 0; s < n && forfeiter < 0; s++)
        if (r->bot[d->bot_at[s]].forfeited)
            forfeiter = d->bot_at[s];
    if (forfeiter >= 0) {
        forfeit_scores(r, d, forfeiter);
        if (r->rc)
            return;
    } else {
        int rc = r->src ? 0 : g->deal(r->state, r->rules, d->seed);
        if (!rc && g->deal_setup)
            rc = g->deal_setup(r->state, r->mstate, d->bot_at);
        if (rc) {
            fail(r, rc, "internal: deal %u cannot be dealt: %s", d->deal, arb_strerror(rc));
            return;
        }
        for (int s = 0; s < n; s++) {
            int bot = d->bot_at[s];
            r->bot[bot].deal_used_ns = 0;
            tellf(r, bot, "deal %u seat %d", gi, s);
            emit_ctx e = {r, bot};
            g->start_events(r->state, s, emit_to_bot, &e);
        }
        if (r->obs && r->obs->deal_start)
            r->obs->deal_start(r->obs->ctx, d, r->state);
        bool playing = true;
        while (playing && !g->over(r->state) && !r->rc) {
            int nl = g->legal(r->state, r->legal, ARB_MAX_MOVES);
            if (nl <= 0) {
                fail(r, nl < 0 ? nl : ARB_ESTATE, "internal: no legal action in a position that is not over");
                return;
            }
            playing = decide(r, nl);
        }
        if (r->rc)
            return;
        if (d->forfeit_bot < 0) {
            int64_t sc[ARB_MAX_SEATS] = {0};
            g->score(r->state, sc, n);
            memcpy(d->score, sc, sizeof sc);
        }
    }
    if (put(r, (match_rec){.type = MR_RESULT, .deal = d, .nseats = n}))
        return;
    char line[256];
    int len = snprintf(line, sizeof line, "result");
    for (int s = 0; s < n; s++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %" PRId64, d->score[s]);
    for (int s = 0; s < n; s++) {
        tell(r, d->bot_at[s], line);
        r->res->bots[d->bot_at[s]].deals_won += d->score[s] > 0;
    }
    int fseat = d->forfeit_bot >= 0 ? seat_of(r, d, d->forfeit_bot) : -1;
    if (g->match_deal_done(r->mstate, forfeiter >= 0 ? NULL : r->state, d->bot_at, d->score, fseat) != 0) {
        fail(r, ARB_ESTATE, "internal: %s cannot carry deal %u into the match", g->name, d->game);
        return;
    }
    arb_standing standing;
    if (refresh_totals(r, &standing))
        return;
    if (r->obs && r->obs->deal_end)
        r->obs->deal_end(r->obs->ctx, d, forfeiter >= 0 ? NULL : r->state);
}

/* "end" and the bot's total (its table's at tables). */
static void end_line(run *r, int b, char *line, size_t cap)
{
    snprintf(line, cap, "end %" PRId64, r->ntables ? r->table_score[b] : r->res->bots[b].total);
}

/* Deliver "end" to every bot at once (restarting: those that will be
 * restarted), so that their graces to exit run side by side
 * (match_driver.ending); record_end then records each line where the
 * transcript has always had it, just before that bot's stop. */
static void send_ends(run *r, bool restarting)
{
    for (int b = 0; b < r->cfg->nbots && !r->rc; b++) {
        if (r->bot[b].gone || (restarting && r->bot[b].forfeited))
            continue;
        char line[64];
        end_line(r, b, line, sizeof line);
        r->drv->send(r->drv->ctx, b, line);
        if (r->drv->ending)
            r->drv->ending(r->drv->ctx, b);
    }
}

static void record_end(run *r, int b)
{
    char line[64];
    end_line(r, b, line, sizeof line);
    if (!r->rc && !r->bot[b].gone)
        put(r, (match_rec){.type = MR_SEND, .bot = b, .text = line});
}

/* Duplicate play without memory: before a new seating block every bot
 * still playing is stopped and started again as a fresh process in a fresh
 * working directory, so that no process holds the cards of the block it
 * played. It is told "end" with its total so far, as at the end of a match;
 * its bank and strikes carry over. A bot that is gone stays gone, and a
 * bot that forfeited the match is never dealt cards again (every deal at
 * its table is forfeited unplayed), so neither is restarted. */
static void restart_bots(run *r, uint32_t gi)
{
    const match_config *cfg = r->cfg;
    uint32_t seating = gi / cfg->deals;
    bool started[ARB_MAX_SEATS] = {false};
    r->d = NULL;
    send_ends(r, true);
    for (int b = 0; b < cfg->nbots && !r->rc; b++) {
        bot_rt *bt = &r->bot[b];
        match_bot_stats *st = &r->res->bots[b];
        if (bt->gone || bt->forfeited)
            continue;
        record_end(r, b);
        const char *etext = NULL;
        size_t elen = 0;
        int status = 0;
        r->drv->stop(r->drv->ctx, b, &etext, &elen, &status);
        bt->owed = 0;   /* the old process's late replies died with it */
        bt->refused = bt->asked = false;
        if (put(r, (match_rec){.type = MR_BOTEND, .bot = b, .text = st->sandbox, .status = status,
                               .err_text = etext, .err_len = elen})
            || put(r, (match_rec){.type = MR_RESTART, .bot = b, .game = gi, .seating = seating}))
            return;
        started[b] = hello_start(r, b);
    }
    for (int b = 0; b < cfg->nbots && !r->rc; b++)
        if (started[b])
            hello_finish(r, b);
}

/* When a later game of the match restarts the bots (the next duplicate
 * seating), let the driver make their next processes ready now, while
 * these play (match_driver.prepare): the restart then costs the match
 * little more than the handshake. */
static void prepare_next(run *r, uint32_t gi)
{
    if (!r->drv->prepare || r->rc)
        return;
    uint32_t games = match_games(r->cfg);
    bool again = false;
    for (uint32_t g = gi + 1; g < games && !again; g++)
        again = match_restarts_before(r->cfg, g);
    if (!again)
        return;
    for (int b = 0; b < r->cfg->nbots; b++)
        if (!r->bot[b].gone && !r->bot[b].forfeited)
            r->drv->prepare(r->drv->ctx, b, &r->cfg->bots[b]);
}

/* The bots' teams (fixed teams: the game's standing says), and which
 * team has a forfeited member. */
static void teams_of(match_result *res, const arb_standing *st, bool *team_forfeited)
{
    res->nteams = st->nteams > 0 && st->nteams <= ARB_MAX_SEATS ? st->nteams : 0;
    for (int b = 0; b < res->nbots; b++) {
        res->team_of_bot[b] = (int8_t)(res->nteams ? st->team[b] : -1);
        if (res->nteams && st->team[b] >= 0 && st->team[b] < res->nteams)
            team_forfeited[st->team[b]] |= res->bots[b].forfeited;
    }
}

/* Bots' ranks and the winners, the teams ranked: a bot ranks with its
 * team first (the game's verdict, which totals alone may not tell: a tie
 * broken at the deal limit), then — within a team, or without teams — a
 * forfeited bot after the others, then by total. */
static void bot_ranks(match_result *res)
{
    int n = res->nbots;
    for (int b = 0; b < n; b++) {
        int better = 0;
        for (int o = 0; o < n; o++) {
            const match_bot_stats *x = &res->bots[o], *y = &res->bots[b];
            int tx = res->nteams && res->team_of_bot[o] >= 0 ? res->team_rank[res->team_of_bot[o]] : 0;
            int ty = res->nteams && res->team_of_bot[b] >= 0 ? res->team_rank[res->team_of_bot[b]] : 0;
            if (tx < ty || (tx == ty && ((!x->forfeited && y->forfeited)
                                         || (x->forfeited == y->forfeited && x->total > y->total))))
                better++;
        }
        res->bots[b].rank = better + 1;
        if (better == 0)
            res->winners |= 1u << b;
    }
}

/* Winners and ranks: forfeited bots after the others, then by total; with
 * fixed teams, teams alike (a team with a forfeited member after the
 * others). */
static void standings(match_result *res, const arb_standing *st)
{
    bool team_forfeited[ARB_MAX_SEATS] = {false};
    teams_of(res, st, team_forfeited);
    for (int t = 0; t < res->nteams; t++) {
        int better = 0;
        res->team_total[t] = st->team_score[t];
        for (int o = 0; o < res->nteams; o++)
            better += (!team_forfeited[o] && team_forfeited[t])
                      || (team_forfeited[o] == team_forfeited[t]
                          && (st->decided && (o == st->winner_team || t == st->winner_team)
                                  ? o == st->winner_team && t != st->winner_team
                                  : st->team_score[o] > st->team_score[t]));
        res->team_rank[t] = better + 1;
    }
    bot_ranks(res);
}

/* Close table t: its match's standing is kept in res->tables[t] and the
 * bots' scores there are added to their totals. */
static void close_table(run *r, uint32_t t, uint32_t first)
{
    match_result *res = r->res;
    arb_standing *st = &r->last_table;
    if (refresh_totals(r, st))
        return;
    match_table *tb = &res->tables[t];
    tb->first = first;
    tb->games = res->ndeals - first;
    tb->winner_team = (int8_t)(st->decided ? st->winner_team : -1);
    for (int k = 0; k < st->nteams && k < ARB_MAX_SEATS; k++)
        tb->team_score[k] = st->team_score[k];
    for (int b = 0; b < r->cfg->nbots; b++) {
        r->table_base[b] += st->score[b];
        res->bots[b].total = r->table_base[b];
    }
    res->ntables = t + 1;
}

/* The standings of a match played at tables: per team the tables it won
 * and the sum of its scores at them; a team with a forfeited member after
 * the others, then by tables won, then by that sum. A bot has its team's
 * rank; without fixed teams, bots rank by their summed totals. */
static void table_standings(match_result *res, const arb_standing *st)
{
    bool team_forfeited[ARB_MAX_SEATS] = {false};
    teams_of(res, st, team_forfeited);
    for (int t = 0; t < res->nteams; t++) {
        res->team_total[t] = 0;
        res->tables_won[t] = 0;
        for (uint32_t i = 0; i < res->ntables; i++) {
            res->team_total[t] += res->tables[i].team_score[t];
            res->tables_won[t] += res->tables[i].winner_team == t;
        }
    }
    for (int t = 0; t < res->nteams; t++) {
        int better = 0;
        for (int o = 0; o < res->nteams; o++)
            better += (!team_forfeited[o] && team_forfeited[t])
                      || (team_forfeited[o] == team_forfeited[t]
                          && (res->tables_won[o] > res->tables_won[t]
                              || (res->tables_won[o] == res->tables_won[t] && res->team_total[o] > res->team_total[t])));
        res->team_rank[t] = better + 1;
    }
    bot_ranks(res);
}

/* Duplicate play of a game whose match may end early: table after table,
 * each a match begun afresh, cut short when the game says it is over. */
static void play_tables(run *r)
{
    const match_config *cfg = r->cfg;
    for (uint32_t t = 0; t < r->ntables && !r->rc; t++) {
        uint32_t first = r->res->ndeals, gi = t * cfg->deals;
        if (t > 0 && r->g->match_init(r->mstate, r->rules, cfg->deals) != 0) {
            fail(r, ARB_EINVAL, "%s cannot start a match of %u deals", r->g->name, cfg->deals);
            return;
        }
        if (match_restarts_before(cfg, gi))
            restart_bots(r, gi);
        prepare_next(r, gi);
        for (uint32_t k = 0; k < cfg->deals && !r->rc && !r->g->match_over(r->mstate); k++) {
            play_game(r, gi + k);
            r->res->ndeals++;
        }
        if (!r->rc)
            close_table(r, t, first);
    }
}

int match_run(const match_config *cfg, const match_driver *drv, const match_sink *sink,
              const match_observer *obs, match_result *res)
{
    return match_run_dealt(cfg, drv, sink, obs, NULL, res);
}

int match_run_dealt(const match_config *cfg, const match_driver *drv, const match_sink *sink,
                    const match_observer *obs, const match_deal_source *src, match_result *res)
{
    memset(res, 0, sizeof *res);
    run r = {.cfg = cfg, .g = cfg->game, .drv = drv, .sink = sink, .obs = obs, .src = src, .res = res};
    r.t0 = arb_now_ns();
    res->nbots = cfg->nbots;
    for (int b = 0; b < cfg->nbots && b < ARB_MAX_SEATS; b++)
        snprintf(res->bots[b].name, sizeof res->bots[b].name, "%s", cfg->bots[b].name);
    if (!r.g)
        return fail(&r, ARB_EINVAL, "no game");
    r.rules = calloc(1, r.g->rules_size);
    r.state = calloc(1, r.g->state_size);
    r.before = calloc(1, r.g->state_size);
    r.mstate = calloc(1, r.g->match_state_size ? r.g->match_state_size : 1);
    r.asked_state = calloc(ARB_MAX_SEATS, r.g->state_size);
    r.legal = malloc(ARB_MAX_MOVES * sizeof *r.legal);
    r.req = malloc(ARB_MAX_REQUEST);
    uint32_t games = 0;
    arb_standing standing;
    if (!r.rules || !r.state || !r.before || !r.mstate || !r.asked_state || !r.legal || !r.req) {
        fail(&r, ARB_ENOMEM, "out of memory");
        goto out;
    }
    char err[512];
    if (match_config_rules(cfg, r.rules, err, sizeof err) != 0) {
        fail(&r, ARB_EINVAL, "%s", err);
        goto out;
    }
    size_t need = r.g->rules_describe(r.rules, r.options, sizeof r.options);
    if (need >= sizeof r.options) {
        fail(&r, ARB_ETOOBIG, "internal: rules description too long");
        goto out;
    }
    games = match_games(cfg);
    r.ntables = match_tables(cfg);
    res->deals = calloc(games, sizeof *res->deals);
    if (!res->deals) {
        fail(&r, ARB_ENOMEM, "out of memory for %u deals", games);
        goto out;
    }
    /* At tables, each table is a match of at most cfg->deals deals. */
    if (r.g->match_init(r.mstate, r.rules, r.ntables ? cfg->deals : games) != 0) {
        fail(&r, ARB_EINVAL, "%s cannot start a match of %u deals", r.g->name, r.ntables ? cfg->deals : games);
        goto out;
    }
    if (put(&r, (match_rec){.type = MR_HEADER, .cfg = cfg, .text = r.options})
        || put(&r, (match_rec){.type = MR_INFO, .text = ARB_ENGINE_VERSION}))
        goto out;
    for (int b = 0; b < cfg->nbots; b++)
        r.bot[b].bank_ns = cfg->bank_ms * 1000000;   /* one bank for the match, across restarts */
    bool started[ARB_MAX_SEATS] = {false};
    /* Every bot's sandbox built side by side (the driver may), then each
     * started and sent its first line. */
    for (int b = 0; b < cfg->nbots && drv->prepare; b++)
        drv->prepare(drv->ctx, b, &cfg->bots[b]);
    for (int b = 0; b < cfg->nbots && !r.rc; b++)
        started[b] = hello_start(&r, b);
    for (int b = 0; b < cfg->nbots && !r.rc; b++)
        if (started[b])
            hello_finish(&r, b);
    /* The game may end the match early (a side reached its goal); the
     * deals are then a bound (game.h, match_ends_early). */
    if (r.ntables)
        play_tables(&r);
    for (uint32_t gi = 0; !r.ntables && gi < games && !r.rc && !r.g->match_over(r.mstate); gi++) {
        if (match_restarts_before(cfg, gi))
            restart_bots(&r, gi);
        if (gi == 0 || match_restarts_before(cfg, gi))
            prepare_next(&r, gi);
        if (r.rc)
            break;
        play_game(&r, gi);
        res->ndeals = gi + 1;
    }
    r.d = NULL;
    send_ends(&r, false);
    for (int b = 0; b < cfg->nbots; b++) {
        match_bot_stats *st = &res->bots[b];
        record_end(&r, b);
        st->bank_left_ms = ms_of(r.bot[b].bank_ns);
        st->forfeited = r.bot[b].forfeited;
        const char *etext = NULL;
        size_t elen = 0;
        int status = 0;
        drv->stop(drv->ctx, b, &etext, &elen, &status);
        size_t keep = elen < sizeof st->stderr_tail - 1 ? elen : sizeof st->stderr_tail - 1;
        memcpy(st->stderr_tail, etext + elen - keep, keep);
        st->stderr_tail[keep] = 0;
        if (!r.rc)
            put(&r, (match_rec){.type = MR_BOTEND, .bot = b, .text = st->sandbox, .status = status,
                                .err_text = etext, .err_len = elen});
    }
    if (r.ntables) {
        if (res->ntables == r.ntables)
            table_standings(res, &r.last_table);
    } else if (refresh_totals(&r, &standing) == 0) {
        standings(res, &standing);
    }
    res->wall_ns = arb_now_ns() - r.t0;
    if (!r.rc)
        put(&r, (match_rec){.type = MR_END, .res = res});
out:
    free(r.rules);
    free(r.state);
    free(r.before);
    free(r.mstate);
    free(r.asked_state);
    free(r.legal);
    free(r.req);
    return r.rc;
}
