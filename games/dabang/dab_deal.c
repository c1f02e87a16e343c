/* dab_deal.c — a Da Bang deal from the shuffle to the score (DB-2,
 * DB-40..DB-64) and the match of many deals (DB-70..DB-73). The deal is a
 * state machine: dab_deal/dab_setup and every dab_do_* run it forward through
 * the steps nobody decides (a card drawn, the trump suit fixed, the kitty
 * shown, a trick gathered) and stop at the next decision. */
#include "dabang.h"

#include <stdio.h>
#include <string.h>

#include "arb_error.h"
#include "game.h"

/* ---- Declaring options (DB-42..DB-45) -------------------------------------- */

/* Option bits: level cards of suit s shown c times: s*3 + c-1 (0..11);
 * three small jokers naming s: 12+s; three big jokers naming s: 16+s;
 * the first deal's big joker: 20. */
enum { BIT_BJ3 = 12, BIT_RJ3 = 16, BIT_BIG = 20 };

int dab_decl_bit(const dab_decl *d)
{
    switch (d->kind) {
    case DAB_DECL_LEVEL: return d->suit * 3 + d->count - 1;
    case DAB_DECL_BJ3: return BIT_BJ3 + d->suit;
    case DAB_DECL_RJ3: return BIT_RJ3 + d->suit;
    case DAB_DECL_BIGJOKER: return BIT_BIG;
    default: return -1;
    }
}

void dab_decl_of_bit(int bit, dab_decl *d)
{
    if (bit == BIT_BIG)
        *d = (dab_decl){DAB_DECL_BIGJOKER, 1, -1};
    else if (bit >= BIT_RJ3)
        *d = (dab_decl){DAB_DECL_RJ3, 3, (int8_t)(bit - BIT_RJ3)};
    else if (bit >= BIT_BJ3)
        *d = (dab_decl){DAB_DECL_BJ3, 3, (int8_t)(bit - BIT_BJ3)};
    else
        *d = (dab_decl){DAB_DECL_LEVEL, (int8_t)(bit % 3 + 1), (int8_t)(bit / 3)};
}

/* DB-45: strength as one number, kinds first. */
static int strength(const dab_decl *d)
{
    switch (d->kind) {
    case DAB_DECL_LEVEL: return d->count;
    case DAB_DECL_BJ3: return 10;
    case DAB_DECL_RJ3: return 11;
    case DAB_DECL_BIGJOKER: return 12;
    default: return 0;
    }
}

uint32_t dab_declare_options(const dab_state *s, int p)
{
    const dab_hand *h = &s->hand[p];
    uint32_t m = 0;
    if (s->ctx.first) {
        /* DB-42: one big joker, first come; nothing overturns it */
        if (s->decl.kind == DAB_DECL_NONE && h->n[DAB_RJ])
            m |= 1u << BIT_BIG;
        return m;
    }
    int cur = strength(&s->decl);
    bool mine = s->decl.kind != DAB_DECL_NONE && s->decl_seat == p;
    for (int u = 0; u < 4; u++) {
        int have = h->n[s->level * 4 + u];
        for (int c = 1; c <= have; c++) {
            if (c <= cur)
                continue;
            /* DB-45: his own declaration only reinforced, in its suit */
            if (mine && s->decl.kind == DAB_DECL_LEVEL && u != s->decl.suit)
                continue;
            m |= 1u << (u * 3 + c - 1);
        }
        if (h->n[DAB_BJ] == 3 && cur < 10)
            m |= 1u << (BIT_BJ3 + u);
        if (h->n[DAB_RJ] == 3 && cur < 11)
            m |= 1u << (BIT_RJ3 + u);
    }
    return m;
}

/* ---- The shuffle and the draw (DB-2, DB-40, DB-41) ------------------------ */

static void advance(dab_state *s);

static void shuffle(dab_state *s)
{
    for (int i = 0; i < DAB_DECK; i++)
        s->deck[i] = (uint8_t)(i / DAB_COPIES);
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_childn(s->seed, "shuffle", s->redeals));
    arb_rng_shuffle_u8(&rng, s->deck, DAB_DECK);
    if (s->ordered && s->redeals == 0)
        memcpy(s->deck, s->order, DAB_DECK);
}

/* Everything from the first card drawn, under the deal's context. */
static void restart(dab_state *s)
{
    dab_rules r = s->rules;
    dab_context ctx = s->ctx;
    uint64_t seed = s->seed;
    uint8_t redeals = s->redeals;
    bool ordered = s->ordered;
    uint8_t order[DAB_DECK];
    memcpy(order, s->order, sizeof order);
    memset(s, 0, sizeof *s);
    s->rules = r;
    s->ctx = ctx;
    s->seed = seed;
    s->redeals = redeals;
    s->ordered = ordered;
    memcpy(s->order, order, sizeof order);
    shuffle(s);
    if (ctx.first) {
        arb_rng rng;
        arb_rng_seed(&rng, arb_seed_child(seed, "first"));
        s->first_drawer = (uint8_t)arb_rng_below(&rng, DAB_SEATS);     /* DB-40 */
        s->dajia = -1;
        s->level = ctx.level[0];
    } else {
        s->first_drawer = (uint8_t)ctx.dajia;                         /* DB-41 */
        s->dajia = ctx.dajia;
        s->level = ctx.level[dab_team(ctx.dajia)];
    }
    for (int i = 0; i < DAB_KITTY; i++) {
        s->kitty_orig[i] = s->deck[DAB_DECK - DAB_KITTY + i];
        s->kitty.n[s->kitty_orig[i]]++;
    }
    s->kitty.total = DAB_KITTY;
    s->decl_seat = -1;
    s->winner_idx = -1;
    s->last_winner = -1;
    s->leader = -1;
    s->last_leader = -1;
    memset(s->flips, -1, sizeof s->flips);
    s->took = -1;
    s->out.rise_team = -1;
    s->out.winner = -1;
    s->phase = DAB_PH_DRAW;
    advance(s);
}

int dab_deal(dab_state *s, const dab_rules *r, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->rules = *r;
    s->seed = seed;
    s->ctx.first = true;
    s->ctx.dajia = -1;
    s->ctx.level[0] = s->ctx.level[1] = r->start_level;
    restart(s);
    return 0;
}

int dab_deal_ordered(dab_state *s, const dab_rules *r, uint64_t seed, const uint8_t *order, size_t n)
{
    uint8_t count[DAB_DECK / DAB_COPIES] = {0};
    if (n != DAB_DECK)
        return ARB_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (order[i] >= DAB_DECK / DAB_COPIES || ++count[order[i]] > DAB_COPIES)
            return ARB_EINVAL;
    memset(s, 0, sizeof *s);
    s->rules = *r;
    s->seed = seed;
    s->ordered = true;
    memcpy(s->order, order, DAB_DECK);
    s->ctx.first = true;
    s->ctx.dajia = -1;
    s->ctx.level[0] = s->ctx.level[1] = r->start_level;
    restart(s);
    return 0;
}

int dab_deal_in(dab_state *s, const dab_rules *r, uint64_t seed, const dab_context *ctx)
{
    memset(s, 0, sizeof *s);
    s->rules = *r;
    s->seed = seed;
    return dab_setup(s, ctx);
}

int dab_setup(dab_state *s, const dab_context *ctx)
{
    if (!ctx->first && (ctx->dajia < 0 || ctx->dajia >= DAB_SEATS))
        return ARB_EINVAL;
    if (ctx->level[0] > DAB_LEVEL_MAX || ctx->level[1] > DAB_LEVEL_MAX)
        return ARB_EINVAL;
    s->ctx = *ctx;
    s->redeals = 0;
    restart(s);
    return 0;
}

/* DB-47: the same seed's next shuffle; past the bound, spades. */
static bool redeal(dab_state *s)
{
    if (s->redeals >= DAB_MAX_REDEALS)
        return false;
    s->redeals++;
    restart(s);
    return true;
}

/* DB-46: a random kitty card names the suit; jokers are put aside. -1 when
 * the kitty is all jokers. */
static int kitty_draw_suit(const dab_state *s)
{
    uint8_t pool[DAB_KITTY];
    int n = DAB_KITTY;
    memcpy(pool, s->kitty_orig, sizeof pool);
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_childn(s->seed, "kitty", s->redeals));
    while (n > 0) {
        int j = (int)arb_rng_below(&rng, (uint64_t)n);
        if (!dab_joker(pool[j]))
            return dab_suit(pool[j]);
        pool[j] = pool[--n];
    }
    return -1;
}

/* DB-43: the first deal's flip. The flipper's seat, -1 when every flip is
 * a joker; the suit in *suit. */
static int flip(dab_state *s, int *suit)
{
    int best = -1, best_rank = -1;
    for (int i = 0; i < 4; i++) {
        int c = s->kitty_orig[i];
        s->flips[i] = (int8_t)c;
        if (dab_joker(c))
            continue;
        int r = dab_rank(c);
        int key = r == s->level ? 100 : r == DAB_R2 ? 99 : r;   /* 3 > 2 > A > ... */
        if (key > best_rank) {
            best_rank = key;
            best = i;
        }
    }
    if (best < 0)
        return -1;
    *suit = dab_suit(s->kitty_orig[best]);
    return (s->first_drawer + best) % DAB_SEATS;
}

/* Declaring is over: the trump suit and the 打家 are known (DB-42..DB-47). */
static bool fix_trumps(dab_state *s)
{
    int suit = -1;
    if (s->ctx.first) {
        if (s->decl.kind == DAB_DECL_BIGJOKER) {
            s->dajia = s->decl_seat;
            s->kitty_shown = true;
            suit = s->decl.suit;
            s->trump_from = 0;
        } else {
            int seat = flip(s, &suit);
            if (seat < 0) {
                /* every flip a joker: redeal; past the bound, the first
                 * drawer declares and the kitty names the suit (DB-46) */
                if (redeal(s))
                    return false;
                seat = s->first_drawer;
                suit = -1;
            }
            s->dajia = (int8_t)seat;
            s->trump_from = 1;
        }
    } else if (s->decl.kind != DAB_DECL_NONE) {
        suit = s->decl.suit;
        s->kitty_shown = true;
        s->trump_from = 0;
    }
    if (suit < 0) {
        /* DB-46: a kitty that names the suit is not shown */
        suit = kitty_draw_suit(s);
        s->trump_from = 2;
        s->kitty_shown = false;
        if (suit < 0) {
            if (redeal(s))
                return false;
            suit = 0;
        }
    }
    s->decl.suit = (int8_t)suit;
    s->level = s->ctx.first ? s->ctx.level[0] : s->ctx.level[dab_team(s->dajia)];
    dab_trump_init(&s->trump, s->level, suit);
    s->trump_known = true;
    memcpy(s->dealt, s->hand, sizeof s->dealt);
    s->blood_left = s->ctx.first || !s->rules.tribute ? 0 : s->ctx.blood;
    s->phase = DAB_PH_TRIBUTE;
    return true;
}

/* ---- Tribute and the kitty (DB-50..DB-59) --------------------------------- */

static int tribute_giver(const dab_state *s) { return (s->dajia + 3) % DAB_SEATS; }

static bool eligible_take(int c) { return !dab_joker(c) && !dab_card_points(c); }

/* DB-59: smallest = non-trump first, then lower power. */
static int take_key(const dab_trump *t, int c) { return 100 * dab_is_trump(t, c) + t->power[c]; }

/* DB-59: the kitty's smallest cards that may be taken back, ties all
 * listed; none when the kitty holds no eligible card. */
static void smallest_takes(const dab_state *s, dab_hand *takes)
{
    memset(takes, 0, sizeof *takes);
    int best = 1000;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (s->kitty.n[c] && eligible_take(c) && take_key(&s->trump, c) < best)
            best = take_key(&s->trump, c);
    for (int c = 0; best < 1000 && c < DAB_NCARDS; c++)
        if (s->kitty.n[c] && eligible_take(c) && take_key(&s->trump, c) == best) {
            takes->n[c] = 1;
            takes->total++;
        }
}

/* DB-52: higher power is higher; side cards of two suits with one rank
 * are equal. */
static int tribute_key(const dab_state *s, int c) { return s->trump.power[c]; }

void dab_card_options(const dab_state *s, dab_hand *out)
{
    memset(out, 0, sizeof *out);
    /* The loops below run for every card given or buried in random
     * self-play: they branch on the rules, not on what the hand holds. */
    if (s->phase == DAB_PH_TRIBUTE) {
        /* DB-52: the highest non-point cards, equals all offered */
        const dab_hand *h = &s->hand[tribute_giver(s)];
        int best = -1;
        for (int c = 0; c < DAB_NCARDS; c++)
            if (h->n[c] && !dab_card_points(c) && tribute_key(s, c) > best)
                best = tribute_key(s, c);
        for (int c = 0; c < DAB_NCARDS; c++)
            if (h->n[c] && !dab_card_points(c) && tribute_key(s, c) == best) {
                out->n[c] = 1;
                out->total++;
            }
    } else if (s->phase == DAB_PH_TAKE) {
        smallest_takes(s, out);                              /* DB-59 */
    } else if (s->phase == DAB_PH_RETURN || s->phase == DAB_PH_BURY) {
        const dab_hand *h = &s->hand[s->dajia];
        int total = 0;
        for (int c = 0; c < DAB_NCARDS; c++) {
            out->n[c] = h->n[c] != 0;
            total += out->n[c];
        }
        /* DB-57: a small joker only when no big joker is held */
        if (s->phase == DAB_PH_BURY && out->n[DAB_BJ] && h->n[DAB_RJ]) {
            out->n[DAB_BJ] = 0;
            total--;
        }
        out->total = (uint8_t)total;
    }
}


/* The joker the seat to act may bury: a big one while he holds one (DB-57
 * applies to every burial). Being asked tells him only that the kitty has
 * a card to give back; which one he learns once the kitty is shown. */
void dab_joker_options(const dab_state *s, dab_hand *jokers)
{
    memset(jokers, 0, sizeof *jokers);
    if (s->phase != DAB_PH_JOKERS || !s->others_may)
        return;
    dab_hand takes;
    smallest_takes(s, &takes);
    if (!takes.total)
        return;
    const dab_hand *h = &s->hand[s->to_act];
    if (h->n[DAB_RJ])
        jokers->n[DAB_RJ] = 1;
    else if (h->n[DAB_BJ])
        jokers->n[DAB_BJ] = 1;
    jokers->total = (uint8_t)(jokers->n[DAB_RJ] + jokers->n[DAB_BJ]);
}

/* DB-56: a dry pot — the kitty, shown, holds no trump-suit card (level
 * cards aside) or nothing but trumps. Never in the first deal. */
static bool dry_pot(const dab_state *s)
{
    if (!s->rules.dry_pot || s->ctx.first || !s->kitty_shown)
        return false;
    int suited = 0, trumps = 0;
    for (int i = 0; i < DAB_KITTY; i++) {
        int c = s->kitty_orig[i];
        suited += dab_suit(c) == s->trump.suit && dab_rank(c) != s->level;
        trumps += dab_is_trump(&s->trump, c);
    }
    return suited == 0 || trumps == DAB_KITTY;
}

static void add_card(dab_hand *h, int c) { h->n[c]++; h->total++; }
static void remove_card(dab_hand *h, int c) { h->n[c]--; h->total--; }

static void start_tricks(dab_state *s)
{
    s->phase = DAB_PH_TRICKS;
    s->leader = s->dajia;                 /* DB-28 */
    s->ntrick = 0;
    s->winner_idx = -1;
}

/* ---- Scoring (DB-30..DB-32, DB-50, DB-51, DB-60..DB-64) -------------------- */

static void score_deal(dab_state *s)
{
    dab_outcome *o = &s->out;
    const dab_rules *r = &s->rules;
    int dteam = dab_team(s->dajia), ateam = 1 - dteam;
    o->kitty_points = (int16_t)dab_hand_points(&s->kitty);
    o->dug = dab_team(s->last_winner) == ateam;                          /* DB-31 */
    o->points = (int16_t)(s->points[ateam] + (o->dug ? o->kitty_points * r->kitty_multiplier : 0));
    bool made = o->points >= 120;
    o->kase = (int8_t)(!made ? (o->dug ? 2 : 1) : (o->dug ? 4 : 3));   /* DB-32 */
    int nrj = s->dry ? 0 : s->kitty.n[DAB_RJ], nbj = s->dry ? 0 : s->kitty.n[DAB_BJ];
    bool enjoy = o->kase != 2 && !s->dry;                               /* DB-51 */
    int joker_levels = enjoy ? 2 * nrj + nbj : 0;
    o->level_after[0] = s->ctx.level[0];
    o->level_after[1] = s->ctx.level[1];
    if (s->ctx.first)
        o->level_after[0] = o->level_after[1] = s->level;
    o->rise_team = -1;
    if (o->kase == 1 || o->kase == 4) {                                 /* DB-61, DB-62 */
        int t = o->kase == 1 ? dteam : ateam;
        int before = o->level_after[t];
        o->rise_team = (int8_t)t;
        o->rise = (int8_t)(r->base_step + joker_levels);
        if (o->kase == 1 && before == r->goal_level)
            o->level_after[t] = DAB_LEVEL_PASSED;
        else
            o->level_after[t] = (uint8_t)(before + o->rise > r->goal_level ? r->goal_level : before + o->rise);
    }
    bool stay = o->kase <= 2;                                           /* DB-60 */
    o->next_dajia = (int8_t)(stay ? (r->next_same ? s->dajia : (s->dajia + 2) % DAB_SEATS)
                                  : (s->dajia + 1) % DAB_SEATS);
    int blood = 0;                                                      /* DB-50 */
    int tens = o->points / 10 * 10;
    if (o->points < 120)
        blood = (120 - tens) / 10;
    else if (o->points > 160)
        blood = (tens - 160) / 10;
    blood += enjoy ? 2 * nrj + nbj : 0;
    o->blood_next = (uint8_t)(r->tribute ? blood : 0);
    o->winner = -1;
    if (o->rise_team >= 0 && o->level_after[o->rise_team] == DAB_LEVEL_PASSED)
        o->winner = o->rise_team;
    if (r->special_endings && o->points == 0)                           /* DB-63 */
        o->winner = (int8_t)dteam;
    if (r->special_endings && o->points >= 400)
        o->winner = (int8_t)ateam;
    if (r->three_jokers_end && (nrj == 3 || nbj == 3)) {                /* DB-64 */
        if (o->kase == 1)
            o->winner = (int8_t)dteam;
        else if (o->kase == 4)
            o->winner = (int8_t)ateam;
    }
    s->phase = DAB_PH_OVER;
    s->to_act = -1;
}

/* ---- Running the deal forward -------------------------------------------- */

static void advance(dab_state *s)
{
    for (;;) {
        switch (s->phase) {
        case DAB_PH_DRAW: {
            if (s->drawn == DAB_DECK - DAB_KITTY) {
                s->phase = DAB_PH_CLOSE;
                s->to_act = (int8_t)s->first_drawer;
                s->close_passes = 0;
                continue;
            }
            int p = (s->first_drawer + s->drawn) % DAB_SEATS;
            int c = s->deck[s->drawn++];
            add_card(&s->hand[p], c);
            if (s->trump_pending && p == s->decl_seat && !dab_joker(c)) {
                s->decl.suit = (int8_t)dab_suit(c);          /* DB-42 */
                s->trump_pending = false;
            }
            /* DB-48. Options change only with a declaration (which clears
             * `evaluated`) or a level card or joker drawn. */
            bool relevant = dab_joker(c) || dab_rank(c) == s->level;
            if (!relevant && (s->evaluated >> p & 1u))
                continue;
            s->evaluated |= (uint8_t)(1u << p);
            uint32_t opts = dab_declare_options(s, p);
            if (opts & ~s->offered[p]) {
                s->offered[p] |= opts;
                s->to_act = (int8_t)p;
                return;
            }
            continue;
        }
        case DAB_PH_CLOSE:
            if (s->close_passes >= DAB_SEATS) {
                if (!fix_trumps(s))
                    return;                                  /* redealt: already advanced */
                continue;
            }
            if (dab_declare_options(s, s->to_act))
                return;
            s->close_passes++;
            s->to_act = (int8_t)((s->to_act + 1) % DAB_SEATS);
            continue;
        case DAB_PH_TRIBUTE: {
            s->to_act = (int8_t)tribute_giver(s);
            bool any = false;
            for (int c = 0; s->blood_left && c < DAB_NCARDS && !any; c++)
                any = s->hand[s->to_act].n[c] && !dab_card_points(c);
            if (any)
                return;
            s->blood_left = 0;
            s->returns_left = s->ntribute;
            s->phase = DAB_PH_RETURN;
            continue;
        }
        case DAB_PH_RETURN:
            s->to_act = s->dajia;
            if (s->returns_left)
                return;
            /* DB-55, DB-56: the kitty shown; a dry pot keeps it as it is */
            s->dry = dry_pot(s);
            if (s->dry) {
                start_tricks(s);
                continue;
            }
            for (int c = 0; c < DAB_NCARDS; c++) {
                s->hand[s->dajia].n[c] += s->kitty.n[c];
                s->kitty.n[c] = 0;
            }
            s->hand[s->dajia].total += DAB_KITTY;
            s->kitty.total = 0;
            s->phase = DAB_PH_BURY;
            continue;
        case DAB_PH_BURY:
            s->to_act = s->dajia;
            if (s->buried < DAB_KITTY)
                return;
            /* DB-58, DB-59 */
            s->kitty_public = s->kitty.n[DAB_BJ] || s->kitty.n[DAB_RJ];
            s->others_may = false;
            for (int c = 0; c < DAB_NCARDS; c++)
                if (s->kitty.n[c] && eligible_take(c))
                    s->others_may = true;
            s->phase = DAB_PH_JOKERS;
            s->joker_turn = 1;
            continue;
        case DAB_PH_JOKERS: {
            if (s->joker_turn > 3 || !s->others_may) {
                start_tricks(s);
                continue;
            }
            s->to_act = (int8_t)((s->dajia + s->joker_turn) % DAB_SEATS);
            dab_hand j;
            dab_joker_options(s, &j);
            if (j.total)
                return;
            s->joker_turn++;
            continue;
        }
        case DAB_PH_TAKE:
            return;
        case DAB_PH_TRICKS:
            if (s->ntrick == DAB_SEATS) {
                int w = (s->leader + s->winner_idx) % DAB_SEATS;
                int pts = 0;
                for (int i = 0; i < DAB_SEATS; i++)
                    pts += dab_play_points(&s->trick[i]);
                s->points[dab_team(w)] = (int16_t)(s->points[dab_team(w)] + pts);   /* DB-29 */
                memcpy(s->last_trick, s->trick, sizeof s->trick);
                s->last_leader = s->leader;
                s->last_winner = (int8_t)w;
                s->tricks_done++;
                s->ntrick = 0;
                s->winner_idx = -1;
                s->leader = (int8_t)w;                       /* DB-28 */
                if (s->hand[0].total == 0) {
                    score_deal(s);
                    return;
                }
            }
            s->to_act = (int8_t)((s->leader + s->ntrick) % DAB_SEATS);
            return;
        case DAB_PH_OVER:
            s->to_act = -1;
            return;
        }
    }
}

void dab_advance(dab_state *s) { advance(s); }

int dab_to_act(const dab_state *s) { return s->phase == DAB_PH_OVER ? -1 : s->to_act; }

int dab_decision(const dab_state *s)
{
    switch (s->phase) {
    case DAB_PH_DRAW:
    case DAB_PH_CLOSE: return DAB_DEC_DECLARE;
    case DAB_PH_TRIBUTE: return DAB_DEC_TRIBUTE;
    case DAB_PH_RETURN: return DAB_DEC_RETURN;
    case DAB_PH_BURY: return DAB_DEC_BURY;
    case DAB_PH_JOKERS: return DAB_DEC_JOKER;
    case DAB_PH_TAKE: return DAB_DEC_TAKE;
    case DAB_PH_TRICKS: return ARB_DEC_PLAY;
    default: return ARB_DEC_NONE;
    }
}

static int wrong_phase(const dab_state *s, int want, char *why, size_t whylen)
{
    if (dab_decision(s) == want)
        return 0;
    snprintf(why, whylen, "not the decision asked");
    return ARB_EILLEGAL;
}

int dab_do_declare(dab_state *s, const dab_decl *d, char *why, size_t whylen)
{
    if (wrong_phase(s, DAB_DEC_DECLARE, why, whylen))
        return ARB_EILLEGAL;
    int p = s->to_act;
    if (d->kind == DAB_DECL_NONE) {
        if (s->phase == DAB_PH_CLOSE) {
            s->close_passes++;
            s->to_act = (int8_t)((p + 1) % DAB_SEATS);
        }
        advance(s);
        return 0;
    }
    /* The declaration must be exactly the option its bit names: a level
     * declaration of 0 or 4 cards would otherwise land on a neighbour's bit. */
    int bit = dab_decl_bit(d);
    dab_decl named = {DAB_DECL_NONE, 0, -1};
    if (bit >= 0 && bit <= BIT_BIG)
        dab_decl_of_bit(bit, &named);
    if (bit < 0 || bit > BIT_BIG || named.kind != d->kind || named.count != d->count
        || (d->kind != DAB_DECL_BIGJOKER && named.suit != d->suit)
        || !(dab_declare_options(s, p) >> bit & 1u)) {
        snprintf(why, whylen, "not a declaration you can make now (DB-42..DB-45)");
        return ARB_EILLEGAL;
    }
    s->decl = *d;
    s->decl_seat = (int8_t)p;
    if (d->kind == DAB_DECL_BIGJOKER) {
        s->decl.suit = -1;
        s->trump_pending = true;                             /* DB-42 */
    }
    memset(s->offered, 0, sizeof s->offered);                /* DB-48 */
    s->evaluated = 0;
    s->offered[p] = dab_declare_options(s, p);
    if (s->phase == DAB_PH_CLOSE) {
        /* a new round: his own turn counts, then the three others */
        s->to_act = (int8_t)((p + 1) % DAB_SEATS);
        s->close_passes = 1;
    }
    advance(s);
    return 0;
}

/* DB-59: the card taken back goes to the seat that buried the joker. */
static void take_back(dab_state *s, int card)
{
    remove_card(&s->kitty, card);
    add_card(&s->hand[s->to_act], card);
    s->took = (int8_t)card;
    s->phase = DAB_PH_JOKERS;
}

/* One card of dab_card_options, without listing them all. */
static bool card_ok(const dab_state *s, int card)
{
    if (card < 0 || card >= DAB_NCARDS)
        return false;
    if (s->phase == DAB_PH_TRIBUTE) {
        const dab_hand *h = &s->hand[tribute_giver(s)];
        if (!h->n[card] || dab_card_points(card))
            return false;
        for (int c = 0; c < DAB_NCARDS; c++)
            if (h->n[c] && !dab_card_points(c) && tribute_key(s, c) > tribute_key(s, card))
                return false;
        return true;
    }
    const dab_hand *h = &s->hand[s->dajia];
    return h->n[card] && !(s->phase == DAB_PH_BURY && card == DAB_BJ && h->n[DAB_RJ]);
}

int dab_do_card(dab_state *s, int card, char *why, size_t whylen)
{
    if (s->phase != DAB_PH_TRIBUTE && s->phase != DAB_PH_RETURN && s->phase != DAB_PH_BURY
        && s->phase != DAB_PH_TAKE) {
        snprintf(why, whylen, "not the decision asked");
        return ARB_EILLEGAL;
    }
    if (s->phase == DAB_PH_TAKE) {
        dab_hand t;
        smallest_takes(s, &t);
        if (card < 0 || card >= DAB_NCARDS || !t.n[card]) {
            snprintf(why, whylen, "take back one of the kitty's smallest cards that are neither point cards nor "
                                  "jokers (DB-59)");
            return ARB_EILLEGAL;
        }
        take_back(s, card);
        advance(s);
        return 0;
    }
    if (!card_ok(s, card)) {
        snprintf(why, whylen, "%s",
                 s->phase == DAB_PH_TRIBUTE ? "give your highest card that is not a point card (DB-52)"
                 : s->phase == DAB_PH_RETURN ? "give back a card you hold (DB-53)"
                 : "bury a card you hold; a small joker only without a big joker (DB-57)");
        return ARB_EILLEGAL;
    }
    int p = s->to_act;
    remove_card(&s->hand[p], card);
    if (s->phase == DAB_PH_TRIBUTE) {
        add_card(&s->hand[s->dajia], card);
        s->tribute_given[s->ntribute++] = (uint8_t)card;
        s->blood_left--;
    } else if (s->phase == DAB_PH_RETURN) {
        add_card(&s->hand[tribute_giver(s)], card);
        s->returns_left--;
    } else {
        add_card(&s->kitty, card);
        s->buried++;
    }
    advance(s);
    return 0;
}

int dab_do_joker(dab_state *s, int joker, char *why, size_t whylen)
{
    if (wrong_phase(s, DAB_DEC_JOKER, why, whylen))
        return ARB_EILLEGAL;
    if (joker < 0) {
        s->took = -1;
        s->joker_turn++;
        advance(s);
        return 0;
    }
    dab_hand j;
    dab_joker_options(s, &j);
    if (joker >= DAB_NCARDS || !j.n[joker]) {
        snprintf(why, whylen, "bury a big joker before a small one, and only while the kitty has a card to give "
                              "back (DB-57, DB-59)");
        return ARB_EILLEGAL;
    }
    s->took = -1;
    remove_card(&s->hand[s->to_act], joker);
    add_card(&s->kitty, joker);
    s->kitty_public = true;                                  /* DB-59: shown */
    dab_hand t;
    smallest_takes(s, &t);
    if (t.total == 1) {
        for (int c = 0; c < DAB_NCARDS; c++)
            if (t.n[c])
                take_back(s, c);
    } else {
        s->phase = DAB_PH_TAKE;                               /* he chooses among equals */
    }
    advance(s);
    return 0;
}

int dab_do_play(dab_state *s, const dab_play *p, char *why, size_t whylen)
{
    if (wrong_phase(s, ARB_DEC_PLAY, why, whylen))
        return ARB_EILLEGAL;
    int seat = s->to_act;
    const dab_play *led = s->ntrick ? &s->trick[0] : NULL;
    int rc = dab_check_play(&s->trump, &s->hand[seat], led, p, why, whylen);
    if (rc)
        return rc;
    for (int i = 0; i < p->n; i++)
        remove_card(&s->hand[seat], p->c[i]);
    s->trick[s->ntrick] = *p;
    if (s->ntrick == 0 || dab_beats(&s->trump, p, &s->trick[s->winner_idx]))
        s->winner_idx = (int8_t)s->ntrick;
    s->ntrick++;
    advance(s);
    return 0;
}

/* ---- Random self-play ------------------------------------------------------ */

/* The k-th (0-based) distinct card of h. */
static int nth_card(const dab_hand *h, int k)
{
    for (int c = 0; c < DAB_NCARDS; c++)
        if (h->n[c] && k-- == 0)
            return c;
    return -1;
}

int dab_random_act(dab_state *s, arb_rng *rng, char *why, size_t whylen)
{
    switch (dab_decision(s)) {
    case DAB_DEC_DECLARE: {
        uint32_t opts = dab_declare_options(s, s->to_act);
        int k = (int)arb_rng_below(rng, 1 + (uint64_t)__builtin_popcount(opts));
        dab_decl d = {DAB_DECL_NONE, 0, -1};
        for (int b = 0; b < 32 && k > 0; b++)
            if (opts >> b & 1u && --k == 0)
                dab_decl_of_bit(b, &d);
        return dab_do_declare(s, &d, why, whylen);
    }
    case DAB_DEC_TRIBUTE:
    case DAB_DEC_RETURN:
    case DAB_DEC_BURY:
    case DAB_DEC_TAKE: {
        dab_hand h;
        dab_card_options(s, &h);
        return dab_do_card(s, nth_card(&h, (int)arb_rng_below(rng, h.total)), why, whylen);
    }
    case DAB_DEC_JOKER: {
        dab_hand j;
        dab_joker_options(s, &j);
        int k = (int)arb_rng_below(rng, 1 + (uint64_t)j.total);
        return dab_do_joker(s, k ? nth_card(&j, k - 1) : -1, why, whylen);
    }
    case ARB_DEC_PLAY: {
        dab_play p;
        const dab_hand *h = &s->hand[s->to_act];
        if (s->ntrick)
            dab_random_follow(&s->trump, h, &s->trick[0], rng, &p);
        else
            dab_random_lead(&s->trump, h, rng, &p);
        return dab_do_play(s, &p, why, whylen);
    }
    default:
        snprintf(why, whylen, "the deal is over");
        return ARB_ESTATE;
    }
}

/* ---- The match (DB-70..DB-73) ---------------------------------------------- */

void dab_match_init(dab_match *m, const dab_rules *r, uint32_t deal_limit)
{
    memset(m, 0, sizeof *m);
    m->rules = *r;
    m->limit = deal_limit ? deal_limit : r->deal_limit;
    m->level[0] = m->level[1] = r->start_level;
    m->stage_team = -1;
    m->dajia_player = -1;
    m->winner = -1;
}

/* Partners sit opposite in every deal: the team of a player is the parity
 * of the seats it holds (players p and p + 2 are partners). */
static int seat_of(const uint8_t *player_at, int player)
{
    for (int s = 0; s < DAB_SEATS; s++)
        if (player_at[s] == player)
            return s;
    return -1;
}

void dab_match_context(const dab_match *m, const uint8_t *player_at, dab_context *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->first = m->dajia_player < 0;
    ctx->dajia = (int8_t)(ctx->first ? -1 : seat_of(player_at, m->dajia_player));
    if (!ctx->first && ctx->dajia < 0)
        ctx->first = true;
    for (int t = 0; t < 2; t++)
        ctx->level[t] = m->level[player_at[t] % 2];
    ctx->blood = m->blood;
}

void dab_match_fold(dab_match *m, const dab_state *s, const uint8_t *player_at, int forfeit_seat)
{
    m->played++;
    m->blood = 0;
    if (s && s->phase == DAB_PH_OVER && forfeit_seat < 0) {
        const dab_outcome *o = &s->out;
        for (int t = 0; t < 2; t++) {
            m->level[player_at[t] % 2] = o->level_after[t] > m->rules.goal_level ? m->rules.goal_level
                                                                                   : o->level_after[t];
            if (o->level_after[t] == DAB_LEVEL_PASSED)
                m->passed[player_at[t] % 2] = true;
        }
        m->dajia_player = (int8_t)player_at[o->next_dajia];
        m->stage_team = (int8_t)(player_at[o->next_dajia] % 2);
        m->blood = o->blood_next;
        if (o->winner >= 0)
            m->winner = (int8_t)(player_at[o->winner] % 2);
        return;
    }
    if (forfeit_seat < 0 || forfeit_seat >= DAB_SEATS)
        return;
    /* DB-72: the other side wins the deal by the base step */
    int win = 1 - player_at[forfeit_seat] % 2;
    int dseat = m->dajia_player >= 0 ? seat_of(player_at, m->dajia_player) : -1;
    bool declaring = m->stage_team == win;
    if (dseat < 0)
        dseat = (forfeit_seat + 1) % DAB_SEATS;   /* first deal: the winners' seat after the offender */
    if (declaring && m->level[win] == m->rules.goal_level) {
        m->winner = (int8_t)win;
        m->passed[win] = true;
    } else {
        int l = m->level[win] + m->rules.base_step;
        m->level[win] = (uint8_t)(l > m->rules.goal_level ? m->rules.goal_level : l);
    }
    int next = declaring ? (m->rules.next_same ? dseat : (dseat + 2) % DAB_SEATS)
               : player_at[dseat] % 2 == win ? dseat : (dseat + 1) % DAB_SEATS;
    m->dajia_player = (int8_t)player_at[next];
    m->stage_team = (int8_t)win;
}

bool dab_match_over(const dab_match *m) { return m->winner >= 0 || m->played >= m->limit; }

int dab_match_winner(const dab_match *m)
{
    if (m->winner >= 0)
        return m->winner;
    if (m->played < m->limit)
        return -1;
    if (m->level[0] != m->level[1])                 /* DB-71 */
        return m->level[0] > m->level[1] ? 0 : 1;
    return m->stage_team >= 0 ? m->stage_team : 0;
}
