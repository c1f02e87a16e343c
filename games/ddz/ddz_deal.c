/* ddz_deal.c — one Dou Dizhu deal as a state machine: the seeded shuffle and
 * deal, landlord selection (score bidding, call-and-rob, fixed), doubling,
 * showing the hand, play, and scoring with every multiplier. Rule ids DDZ-n
 * refer to docs/rules/doudizhu.md. */
#include "ddz.h"
#include "arb_error.h"
#include "arb_rng.h"

#include <stdio.h>
#include <string.h>

/* Internal to ddz_moves.c: does `play` use part of a bomb held in `hand`
 * while split_bomb is off? */
bool ddz__splits_bomb(const ddz_rules *r, ddz_cards hand, ddz_cards play);

static const char *const phase_names[] = {
    "bid", "call", "rob", "double", "show", "claim", "play", "over",
};

const char *ddz_phase_name(ddz_phase p)
{
    return (unsigned)p <= DDZ_PHASE_OVER ? phase_names[p] : "?";
}

static uint8_t next_seat(const ddz_state *s, int seat)
{
    return (uint8_t)((seat + 1) % s->nseats);
}

static void set_why(char *why, size_t len, const char *text)
{
    if (why && len)
        snprintf(why, len, "%s", text);
}

/* Where a card id lies in the deck order, or -1. */
static int deck_position(const ddz_state *s, int id)
{
    int n = 54 * s->rules->packs;
    for (int i = 0; i < n; i++)
        if (s->deck[i] == id)
            return i;
    return -1;
}

/* First bidder by the holder of 3♥, or 4♥ ... when it is in the kitty
 * (DDZ-42). With two packs, the first such heart dealt. */
static uint8_t heart_holder(const ddz_state *s)
{
    int dealt = s->nseats * s->rules->hand_size;
    for (int rank = 0; rank <= DDZ_R2; rank++) {
        int best = -1;
        for (int pack = 0; pack < s->rules->packs; pack++) {
            int pos = deck_position(s, pack * 54 + rank * 4 + 1);
            if (pos >= 0 && pos < dealt && (best < 0 || pos < best))
                best = pos;
        }
        if (best >= 0)
            return (uint8_t)(best / s->rules->hand_size);
    }
    return 0;
}

static void enter_play(ddz_state *s)
{
    s->phase = DDZ_PHASE_PLAY;
    s->to_act = s->landlord;
    s->last_seat = DDZ_NONE;
    s->last = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
    s->round_passes = 0;
}

static bool holds_four_jokers(const ddz_state *s)
{
    ddz_cards h = s->hand[s->landlord];
    return s->rules->packs == 2 && ddz_count(h, DDZ_RB) == 2 && ddz_count(h, DDZ_RR) == 2;
}

/* After doubling: showing the hand, claiming four jokers, then play. */
static void after_doubling(ddz_state *s)
{
    const ddz_rules *r = s->rules;
    s->turns = 0;
    if (r->show_mult > 0) {
        s->phase = DDZ_PHASE_SHOW;
        s->to_act = s->landlord;
    } else if (r->four_jokers_claim && holds_four_jokers(s)) {
        s->phase = DDZ_PHASE_CLAIM;
        s->to_act = s->landlord;
    } else {
        enter_play(s);
    }
}

/* Draw a wild rank 3..2 not yet wild (DDZ-80) from the deal's stream
 * arb_seed_childn(seed, label, redeals). */
static void draw_wild(ddz_state *s, const char *label)
{
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_childn(s->seed, label, s->redeals));
    int free_ranks = 13 - __builtin_popcount(s->wild_ranks);
    int k = (int)arb_rng_below(&rng, (uint64_t)free_ranks);
    for (int x = 0; x <= DDZ_R2; x++)
        if (!(s->wild_ranks >> x & 1) && k-- == 0) {
            s->wild_ranks |= (uint16_t)(1u << x);
            return;
        }
}

/* The landlord is known: take the kitty (shown to all, DDZ-45). */
static void set_landlord(ddz_state *s, uint8_t seat)
{
    if (s->rules->wild && !s->rules->wild_ranks)
        draw_wild(s, "wild-after");
    s->landlord = seat;
    s->hand[seat] += s->kitty;
    s->turns = 0;
    if (s->rules->doubling) {
        /* DDZ-70: from the landlord round the table, each seat once. */
        s->phase = DDZ_PHASE_DOUBLE;
        s->to_act = seat;
    } else {
        after_doubling(s);
    }
}

static void start_auction(ddz_state *s)
{
    const ddz_rules *r = s->rules;
    s->bid = 0;
    s->high_bidder = DDZ_NONE;
    s->caller = DDZ_NONE;
    s->turns = 0;
    s->passes = 0;
    s->robs = 0;
    switch (r->bidding) {
    case DDZ_BID_SCORE:
        s->phase = DDZ_PHASE_BID;
        s->to_act = s->first_bidder;
        break;
    case DDZ_BID_CALL_ROB:
        s->phase = DDZ_PHASE_CALL;
        s->to_act = s->first_bidder;
        break;
    default:
        set_landlord(s, r->fixed_landlord);
        break;
    }
}

/* Shuffle and deal from the deal's seed and the redeal count (DDZ-1..3):
 * the stream arb_seed_childn(seed, "shuffle", redeals) shuffles the card ids
 * 0..54*packs-1 (Fisher-Yates, see docs/rng.md); seat i receives positions
 * i*hand_size .. i*hand_size+hand_size-1, the kitty the rest. The same
 * stream then draws the first bidder (random) or the face-up card.
 * `order` (a deal set's, ddz_deal_ordered), when not NULL, replaces the
 * shuffled ids; the stream is drawn as for the shuffle all the same, so
 * that a deal exported with its seed and dealt again from its order is
 * the same deal. */
static void shuffle_and_deal(ddz_state *s, const uint8_t *order)
{
    const ddz_rules *r = s->rules;
    int ncards = 54 * r->packs;
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_childn(s->seed, "shuffle", s->redeals));
    for (int i = 0; i < ncards; i++)
        s->deck[i] = (uint8_t)i;
    arb_rng_shuffle_u8(&rng, s->deck, (size_t)ncards);
    if (order)
        memcpy(s->deck, order, (size_t)ncards);
    memset(s->hand, 0, sizeof s->hand);
    memset(s->dealt, 0, sizeof s->dealt);
    s->kitty = 0;
    int dealt = s->nseats * r->hand_size;
    for (int i = 0; i < ncards; i++) {
        ddz_cards one = DDZ_ONE(ddz_card_rank(s->deck[i]));
        if (i < dealt)
            s->hand[i / r->hand_size] += one;
        else
            s->kitty += one;
    }
    memcpy(s->dealt, s->hand, sizeof s->hand);
    s->faceup_card = DDZ_NONE;
    /* Named wild ranks (DDZ-84) are in force from the deal on; else they
     * are drawn (DDZ-80). */
    s->wild_ranks = r->wild_ranks;
    if (r->wild == 2 && !r->wild_ranks)
        draw_wild(s, "wild-before");
    switch (r->first_bidder) {
    case DDZ_FIRST_FACEUP: {
        /* The turned card is always one that reaches a player (DDZ-41). */
        int pos = (int)arb_rng_below(&rng, (uint64_t)dealt);
        s->faceup_card = s->deck[pos];
        s->first_bidder = (uint8_t)(pos / r->hand_size);
        break;
    }
    case DDZ_FIRST_HEART3:
        s->first_bidder = heart_holder(s);
        break;
    default:
        s->first_bidder = (uint8_t)arb_rng_below(&rng, s->nseats);
        break;
    }
}

static int deal_init(ddz_state *s, const ddz_rules *r, uint64_t seed, const uint8_t *order)
{
    char err[160];
    int rc = ddz_rules_check(r, err, sizeof err);
    if (rc)
        return rc;
    memset(s, 0, sizeof *s);
    s->rules = r;
    s->seed = seed;
    s->nseats = r->players;
    s->landlord = DDZ_NONE;
    s->winner = DDZ_NONE;
    s->last_seat = DDZ_NONE;
    shuffle_and_deal(s, order);
    start_auction(s);
    return 0;
}

int ddz_deal_init(ddz_state *s, const ddz_rules *r, uint64_t seed) { return deal_init(s, r, seed, NULL); }

int ddz_deal_ordered(ddz_state *s, const ddz_rules *r, uint64_t seed, const uint8_t *order, size_t n)
{
    /* A permutation of the card ids 0..54*packs-1, each once. */
    size_t ncards = (size_t)54 * r->packs;
    uint8_t seen[DDZ_MAX_CARDS] = {0};
    if (r->packs < 1 || r->packs > 2 || n != ncards)
        return ARB_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (order[i] >= ncards || seen[order[i]])
            return ARB_EINVAL;
        seen[order[i]] = 1;
    }
    return deal_init(s, r, seed, order);
}

/* Nobody took the landlord: redeal, or apply the exhaustion rule (DDZ-46). */
static void redeal(ddz_state *s)
{
    const ddz_rules *r = s->rules;
    if (s->redeals >= r->redeal_limit) {
        if (r->exhausted == DDZ_EXHAUST_VOID) {
            s->voided = true;
            s->phase = DDZ_PHASE_OVER;
            s->to_act = DDZ_NONE;
            return;
        }
        /* Forced: the first bidder is landlord at the lowest stake. */
        if (r->bidding == DDZ_BID_SCORE)
            s->bid = 1;
        else
            s->caller = s->first_bidder;
        s->high_bidder = s->first_bidder;
        set_landlord(s, s->first_bidder);
        return;
    }
    s->redeals++;
    shuffle_and_deal(s, NULL);
    start_auction(s);
}

const ddz_move *ddz_to_beat(const ddz_state *s)
{
    return s->last_seat == DDZ_NONE ? NULL : &s->last;
}

int ddz_values(const ddz_state *s, int8_t *vals, size_t cap)
{
    size_t n = 0;
    switch (s->phase) {
    case DDZ_PHASE_BID:
        if (cap < 1)
            return ARB_ENOSPC;
        vals[n++] = 0;
        for (int v = s->bid + 1; v <= s->rules->max_bid; v++) {
            if (n >= cap)
                return ARB_ENOSPC;
            vals[n++] = (int8_t)v;
        }
        return (int)n;
    case DDZ_PHASE_CALL: case DDZ_PHASE_ROB: case DDZ_PHASE_DOUBLE:
    case DDZ_PHASE_SHOW: case DDZ_PHASE_CLAIM:
        if (cap < 2)
            return ARB_ENOSPC;
        vals[0] = 0;
        vals[1] = 1;
        return 2;
    default:
        return 0;
    }
}

/* DDZ-96: after a claim the landlord's jokers are no bomb to keep whole,
 * whatever split_bomb says; the landlord's other bombs still are. True when
 * the seat to act plays under that exception. */
static bool claimed_jokers_free(const ddz_state *s)
{
    return s->jokers_claimed && s->to_act == s->landlord && !s->rules->split_bomb;
}

/* Does `play` split a bomb of `hand` other than the jokers? */
static bool splits_rank_bomb(const ddz_rules *r, ddz_cards hand, ddz_cards play)
{
    ddz_cards jokers = ((ddz_cards)0xff) << (4 * DDZ_RB);
    return ddz__splits_bomb(r, hand & ~jokers, play & ~jokers);
}

int ddz_plays(const ddz_state *s, ddz_move *out, size_t cap)
{
    if (s->phase != DDZ_PHASE_PLAY)
        return ARB_ESTATE;
    ddz_cards hand = s->hand[s->to_act];
    const ddz_move *prev = ddz_to_beat(s);
    if (claimed_jokers_free(s)) {
        ddz_rules open = *s->rules;
        open.split_bomb = true;
        int n = prev ? ddz_follows(&open, hand, prev, out, cap) : ddz_leads(&open, hand, out, cap);
        int w = 0;
        for (int i = 0; i < n; i++)
            if (!splits_rank_bomb(s->rules, hand, out[i].cards))
                out[w++] = out[i];
        return n < 0 ? n : w;
    }
    return prev ? ddz_follows_w(s->rules, s->wild_ranks, hand, prev, out, cap)
                : ddz_leads_w(s->rules, s->wild_ranks, hand, out, cap);
}

int ddz_check(const ddz_state *s, const ddz_action *a, ddz_action *fixed, char *why, size_t whylen)
{
    if (s->phase == DDZ_PHASE_OVER) {
        set_why(why, whylen, "the deal is over");
        return ARB_ESTATE;
    }
    if (a->phase != s->phase) {
        if (why && whylen)
            snprintf(why, whylen, "expected a %s decision, got %s",
                     ddz_phase_name(s->phase), ddz_phase_name(a->phase));
        return ARB_EILLEGAL;
    }
    *fixed = *a;
    if (s->phase == DDZ_PHASE_PLAY && claimed_jokers_free(s)) {
        ddz_rules open = *s->rules;
        open.split_bomb = true;
        ddz_cards hand = s->hand[s->to_act];
        if (a->represented && a->represented != a->move.cards) {
            set_why(why, whylen, "no wild cards in this game");
            return ARB_EILLEGAL;
        }
        if (splits_rank_bomb(s->rules, hand, a->move.cards) && ddz_subset(a->move.cards, hand)) {
            set_why(why, whylen, "splits a bomb (split_bomb is off)");
            return ARB_EILLEGAL;
        }
        fixed->value = 0;
        return ddz_validate(&open, hand, ddz_to_beat(s), a->move.cards, a->primary, &fixed->move, why, whylen);
    }
    if (s->phase == DDZ_PHASE_PLAY) {
        int rc = ddz_validate_w(s->rules, s->wild_ranks, s->hand[s->to_act], ddz_to_beat(s),
                                a->move.cards, a->represented, a->primary, &fixed->move, why, whylen);
        fixed->value = 0;
        return rc;
    }
    int8_t vals[16];
    int n = ddz_values(s, vals, sizeof vals);
    for (int i = 0; i < n; i++)
        if (vals[i] == a->value) {
            fixed->move = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
            fixed->primary = 0;
            fixed->represented = 0;
            return 0;
        }
    if (why && whylen) {
        if (s->phase == DDZ_PHASE_BID)
            snprintf(why, whylen, "bid %d not allowed: pass (0) or %d..%d", a->value,
                     s->bid + 1, s->rules->max_bid);
        else
            snprintf(why, whylen, "%s expects 0 or 1, got %d", ddz_phase_name(s->phase), a->value);
    }
    return ARB_EILLEGAL;
}

static void apply_bid(ddz_state *s, int v)
{
    const ddz_rules *r = s->rules;
    uint8_t seat = s->to_act;
    s->turns++;
    if (v > 0) {
        s->bid = (uint8_t)v;
        s->high_bidder = seat;
        s->passes = 0;
        if (v >= r->max_bid) {
            set_landlord(s, seat);
            return;
        }
    } else {
        s->passes++;
    }
    bool done;
    if (r->bid_continue)  /* DDZ-44: until all the others pass a bid */
        done = s->high_bidder == DDZ_NONE ? s->passes >= s->nseats
                                          : s->passes >= s->nseats - 1;
    else                  /* DDZ-43: each seat speaks once */
        done = s->turns >= s->nseats;
    if (!done) {
        s->to_act = next_seat(s, seat);
        return;
    }
    if (s->high_bidder == DDZ_NONE)
        redeal(s);
    else
        set_landlord(s, s->high_bidder);
}

static void apply_call(ddz_state *s, int v)
{
    uint8_t seat = s->to_act;
    s->turns++;
    if (v) {
        s->caller = seat;
        s->high_bidder = seat;
        s->phase = DDZ_PHASE_ROB;
        s->turns = 0;
        s->robs = 0;
        s->to_act = next_seat(s, seat);
        return;
    }
    if (s->turns >= s->nseats)
        redeal(s);
    else
        s->to_act = next_seat(s, seat);
}

/* DDZ-51: after a call, every other seat in turn may rob once; if anyone
 * robbed, the caller may rob back once more. The last to call or rob is
 * the landlord. */
static void apply_rob(ddz_state *s, int v)
{
    uint8_t seat = s->to_act;
    s->turns++;
    if (v) {
        s->robs++;
        s->high_bidder = seat;
    }
    int others = s->nseats - 1;
    if (s->turns < others) {
        s->to_act = next_seat(s, seat);
        return;
    }
    if (s->turns == others && s->robs > 0) {
        s->to_act = s->caller;
        return;
    }
    set_landlord(s, s->high_bidder);
}

static void apply_play(ddz_state *s, const ddz_move *m)
{
    uint8_t seat = s->to_act;
    if (m->kind == DDZ_PASS) {
        s->round_passes++;
        s->to_act = next_seat(s, seat);
        if (s->round_passes >= s->nseats - 1) {
            /* Everyone else passed: the last player leads again. */
            s->last_seat = DDZ_NONE;
            s->last = (ddz_move){0, DDZ_PASS, 0, 0, 0, 0};
            s->round_passes = 0;
        }
        return;
    }
    s->hand[seat] -= m->cards;
    s->plays[seat]++;
    /* DDZ-96: the claimed jokers played together were counted by the claim. */
    bool claimed_rocket = s->jokers_claimed && seat == s->landlord && m->kind == DDZ_ROCKET;
    if ((m->kind == DDZ_BOMB || m->kind == DDZ_ROCKET) && !claimed_rocket)
        s->bombs++;
    s->last = *m;
    s->last_seat = seat;
    s->round_passes = 0;
    if (s->hand[seat] == 0) {
        s->winner = seat;
        s->phase = DDZ_PHASE_OVER;
        s->to_act = DDZ_NONE;
        return;
    }
    s->to_act = next_seat(s, seat);
}

int ddz_apply(ddz_state *s, const ddz_action *a)
{
    if (s->phase == DDZ_PHASE_OVER || a->phase != s->phase)
        return ARB_EILLEGAL;
    s->decisions++;
    switch (s->phase) {
    case DDZ_PHASE_BID:
        apply_bid(s, a->value);
        break;
    case DDZ_PHASE_CALL:
        apply_call(s, a->value);
        break;
    case DDZ_PHASE_ROB:
        apply_rob(s, a->value);
        break;
    case DDZ_PHASE_DOUBLE:
        s->doubled[s->to_act] = a->value ? 1 : 0;
        if (++s->turns >= s->nseats)
            after_doubling(s);
        else
            s->to_act = next_seat(s, s->to_act);
        break;
    case DDZ_PHASE_SHOW:
        s->shown = a->value != 0;
        if (s->rules->four_jokers_claim && holds_four_jokers(s)) {
            s->phase = DDZ_PHASE_CLAIM;
            s->to_act = s->landlord;
        } else {
            enter_play(s);
        }
        break;
    case DDZ_PHASE_CLAIM:
        if (a->value && s->rules->claim_mode == DDZ_CLAIM_SEPARATE) {
            /* DDZ-96: the claim counts as the joker bomb; play goes on with
             * the jokers free to be played apart. */
            s->bombs++;
            s->jokers_claimed = true;
            enter_play(s);
        } else if (a->value) {
            /* DDZ-95: the claim wins the deal and counts as the joker bomb. */
            s->bombs++;
            s->winner = s->landlord;
            s->phase = DDZ_PHASE_OVER;
            s->to_act = DDZ_NONE;
        } else {
            enter_play(s);
        }
        break;
    case DDZ_PHASE_PLAY:
        apply_play(s, &a->move);
        break;
    default:
        return ARB_ESTATE;
    }
    return 0;
}

int64_t ddz_stake(const ddz_state *s)
{
    const ddz_rules *r = s->rules;
    switch (r->bidding) {
    case DDZ_BID_SCORE:
        return s->bid ? s->bid : 1;
    case DDZ_BID_CALL_ROB:
        return (r->rob_stake == DDZ_ROB_FROM3 ? 3 : 1) * ((int64_t)1 << s->robs);
    default:
        return 1;
    }
}

int ddz_spring(const ddz_state *s)
{
    if (s->phase != DDZ_PHASE_OVER || s->voided || s->landlord == DDZ_NONE)
        return 0;
    uint8_t L = s->landlord;
    unsigned peasant_plays = 0;
    for (int i = 0; i < s->nseats; i++)
        if (i != L)
            peasant_plays += s->plays[i];
    if (s->winner == L)
        return peasant_plays == 0 && s->plays[L] > 0 ? 1 : 0;
    return s->plays[L] == 1 ? -1 : 0;
}

/* Deal values saturate here rather than overflow (DDZ-75). */
#define DDZ_VALUE_CAP ((int64_t)1000000000000000LL)

static int64_t mul_sat(int64_t a, int64_t b)
{
    int64_t p;
    if (__builtin_mul_overflow(a, b, &p) || p > DDZ_VALUE_CAP)
        return DDZ_VALUE_CAP;
    return p;
}

int64_t ddz_deal_value(const ddz_state *s)
{
    const ddz_rules *r = s->rules;
    int64_t v = mul_sat((int64_t)r->base_stake, ddz_stake(s));
    for (int i = 0; i < s->bombs; i++)
        v = mul_sat(v, r->bomb_mult);
    if (ddz_spring(s))
        v = mul_sat(v, r->spring_mult);
    if (s->shown && r->show_mult)
        v = mul_sat(v, r->show_mult);
    return v;
}

int ddz_scores(const ddz_state *s, int64_t scores[DDZ_MAX_SEATS])
{
    memset(scores, 0, sizeof(int64_t) * DDZ_MAX_SEATS);
    if (s->phase != DDZ_PHASE_OVER)
        return ARB_ESTATE;
    if (s->voided)
        return 0;
    uint8_t L = s->landlord;
    int64_t v = ddz_deal_value(s);
    int sign = s->winner == L ? 1 : -1;
    for (int p = 0; p < s->nseats; p++) {
        if (p == L)
            continue;
        int64_t pay = v;
        if (s->doubled[L])
            pay = mul_sat(pay, 2);
        if (s->doubled[p])
            pay = mul_sat(pay, 2);
        scores[p] -= sign * pay;
        scores[L] += sign * pay;
    }
    return 0;
}

int ddz_run_deal(ddz_state *s, const ddz_rules *r, uint64_t seed,
                 ddz_chooser choose, void *choose_ctx,
                 ddz_observer observe, void *observe_ctx,
                 ddz_move *buf, size_t cap, int64_t scores[DDZ_MAX_SEATS])
{
    int rc = ddz_deal_init(s, r, seed);
    if (rc)
        return rc;
    /* A deal ends: every play removes cards and at most nseats-1 passes
     * separate plays; the auction is bounded by redeal_limit. The bound
     * below only guards against a broken state machine. */
    for (unsigned guard = 0; s->phase != DDZ_PHASE_OVER; guard++) {
        if (guard > 100000)
            return ARB_ESTATE;
        ddz_action a = {0};
        a.phase = s->phase;
        int seat = s->to_act;
        if (s->phase == DDZ_PHASE_PLAY) {
            int n = ddz_plays(s, buf, cap);
            if (n < 0)
                return n;
            int i = choose(s, buf, NULL, n, choose_ctx);
            if (i < 0)
                return i;
            if (i >= n)
                return ARB_ERANGE;
            a.move = buf[i];
        } else {
            int8_t vals[16];
            int n = ddz_values(s, vals, sizeof vals);
            if (n < 0)
                return n;
            int i = choose(s, NULL, vals, n, choose_ctx);
            if (i < 0)
                return i;
            if (i >= n)
                return ARB_ERANGE;
            a.value = vals[i];
        }
        rc = ddz_apply(s, &a);
        if (rc)
            return rc;
        if (observe)
            observe(s, seat, &a, observe_ctx);
    }
    return ddz_scores(s, scores);
}
