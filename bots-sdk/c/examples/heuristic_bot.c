/* heuristic_bot.c — an example bot stronger than greedy: it plans its hand
 * into the fewest plays (chains, pair chains and airplanes searched, trios
 * carrying kickers), picks the play that leaves the best plan, keeps bombs
 * and high cards for when they decide the deal, lets its partner through,
 * and bids on how quickly its hand can go out. Uses only what its seat has
 * seen. */
#include "arbiter_bot.h"

#include <stdlib.h>
#include <string.h>

/* Plans are memoised by (cards, kicker room): the same rests of a hand come
 * up again for every candidate play of a decision and across decisions. */
#define MEMO_BITS 16

typedef struct memo_entry {
    ddz_cards cards;
    uint8_t   absorb;
    int8_t    plays;          /* 0: empty slot (a plan of a non-empty hand is >= 1) */
} memo_entry;

typedef struct planner {
    const ddz_rules *rules;
    memo_entry memo[1u << MEMO_BITS];
} planner;

static bool on(const planner *p, ddz_kind k) { return p->rules->kind[k].on; }

/* Plays left once no more chains are taken: a rocket, bombs, trios (each
 * carrying one solo or pair, as may `absorb` airplane trios), pairs, solos. */
static int leftover(const planner *p, ddz_cards h, int absorb)
{
    int c[DDZ_NRANKS];
    for (int x = 0; x < DDZ_NRANKS; x++)
        c[x] = (int)ddz_count(h, x);
    int plays = 0, trios = 0, pairs = 0, solos = 0;
    if (on(p, DDZ_ROCKET)) {
        int need = p->rules->packs;
        if (c[DDZ_RB] >= need && c[DDZ_RR] >= need) {
            plays++;
            c[DDZ_RB] -= need;
            c[DDZ_RR] -= need;
        }
    }
    for (int x = 0; x < DDZ_NRANKS; x++) {
        if (c[x] >= 4)
            plays++;
        else if (c[x] == 3)
            trios++;
        else if (c[x] == 2)
            pairs++;
        else if (c[x] == 1)
            solos++;
    }
    int room = absorb + (on(p, DDZ_TRIO_SOLO) || on(p, DDZ_TRIO_PAIR) ? trios : 0);
    int loose = solos + pairs;
    return plays + trios + loose - (room < loose ? room : loose);
}

/* Fewest plays that empty `h` (an estimate: four-with-kickers and kickers
 * inside chains are not tried). */
static int plan(planner *p, ddz_cards h, int absorb)
{
    if (h == 0)
        return 0;
    uint64_t key = (h ^ ((uint64_t)absorb * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
    memo_entry *e = &p->memo[key >> (64 - MEMO_BITS)];
    if (e->plays && e->cards == h && e->absorb == absorb)
        return e->plays;
    int best = leftover(p, h, absorb);
    static const struct { ddz_kind kind; unsigned width; } chains[] = {
        {DDZ_CHAIN, 1}, {DDZ_PAIR_CHAIN, 2}, {DDZ_AIRPLANE, 3},
    };
    for (size_t k = 0; k < sizeof chains / sizeof chains[0]; k++) {
        const ddz_kind_rule *kr = &p->rules->kind[chains[k].kind];
        if (!kr->on)
            continue;
        unsigned w = chains[k].width;
        for (int s = DDZ_R3; s <= DDZ_RA; s++) {
            ddz_cards taken = 0;
            for (int len = 1; s + len - 1 <= DDZ_RA && len <= kr->max_len; len++) {
                int x = s + len - 1;
                if (ddz_count(h, x) < w)
                    break;
                taken += (ddz_cards)w << (4 * x);
                if (len < kr->min_len)
                    continue;
                int room = absorb + (chains[k].kind == DDZ_AIRPLANE && on(p, DDZ_AIRPLANE_SOLO) ? len : 0);
                if (room > 20)
                    room = 20;
                int v = 1 + plan(p, h - taken, room);
                if (v < best)
                    best = v;
            }
        }
    }
    e->cards = h;
    e->absorb = (uint8_t)absorb;
    e->plays = (int8_t)best;
    return best;
}

/* Cards that win a trick on their own late in a deal. */
static int controls(ddz_cards h)
{
    int n = (int)ddz_count(h, DDZ_RR) * 2 + (int)ddz_count(h, DDZ_RB) + (int)ddz_count(h, DDZ_R2);
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (ddz_count(h, x) >= 4)
            n += 2;
    return n;
}

static int choose_value(planner *p, const abot_view *v, const abot_request *r)
{
    int plays = plan(p, v->hand, 0);
    int st = abot_strength(v->hand) + controls(v->hand);
    /* a hand that goes out in few plays needs fewer high cards */
    int worth = st + (9 - plays);
    int want;
    switch (r->decision) {
    case ABOT_BID: want = worth >= 14 ? 3 : worth >= 11 ? 2 : worth >= 9 ? 1 : 0; break;
    case ABOT_CALL: case ABOT_ROB: want = worth >= 11; break;
    case ABOT_DOUBLE: want = worth >= 15; break;
    case ABOT_SHOW: want = plays <= 3 && controls(v->hand) >= 3; break;
    case ABOT_CLAIM: want = 1; break;
    default: want = 0; break;
    }
    int best = 0;
    for (int i = 0; i < r->nvalues; i++)
        if (r->values[i] <= want && r->values[i] > r->values[best])
            best = i;
    return best;
}

static int next_seat(const abot_view *v, int s) { return (s + 1) % v->players; }

static int fewest_opponent_cards(const abot_view *v)
{
    int least = DDZ_MAX_CARDS;
    for (int s = 0; s < v->players; s++)
        if (!abot_partner(v, s) && v->counts[s] < least)
            least = v->counts[s];
    return least;
}

static int highest_rank(ddz_cards c)
{
    for (int x = DDZ_NRANKS - 1; x >= 0; x--)
        if (ddz_count(c, x))
            return x;
    return -1;
}

/* What keeping `after` in hand costs, in tenths of a play. */
static int hand_cost(planner *p, ddz_cards after)
{
    return 10 * plan(p, after, 0) - 2 * controls(after);
}

/* Extra cost of spending `m` now: bombs and high cards are worth more later. */
static int spend_cost(const abot_view *v, const ddz_move *m, int urgency)
{
    int c = 0;
    if (abot_is_bomb(m))
        c += urgency ? 2 : 25;
    else if ((m->kind == DDZ_SOLO || m->kind == DDZ_PAIR) && m->rank >= DDZ_R2)
        c += urgency ? 0 : 6;
    /* breaking a bomb to play part of it */
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (ddz_count(v->hand, x) >= 4 && ddz_count(m->cards, x) && !abot_is_bomb(m))
            c += 15;
    return c;
}

static int lead(planner *p, const abot_view *v, const abot_request *r)
{
    const ddz_move *m = r->moves;
    int n = r->nmoves;
    int best = 0, best_cost = 1 << 30;
    int opp_low = fewest_opponent_cards(v);
    int after_me = next_seat(v, v->seat);
    bool feed = v->landlord >= 0 && abot_partner(v, after_me) && after_me != v->seat && v->counts[after_me] <= 2;
    int top_out = highest_rank(abot_outstanding(v));
    for (int i = 0; i < n; i++) {
        ddz_cards after = v->hand - m[i].cards;
        if (after == 0)
            return i;           /* goes out */
        int cost = hand_cost(p, after) + spend_cost(v, &m[i], opp_low <= 2);
        /* an opponent about to go out: no play it can follow with the
         * same number of cards, unless nothing outstanding beats it */
        if ((int)m[i].ncards <= opp_low && (m[i].kind == DDZ_SOLO || m[i].kind == DDZ_PAIR)
            && m[i].rank < top_out)
            cost += 40;
        /* the partner next with one or two cards: give it a low play */
        if (feed && (int)m[i].ncards == v->counts[after_me] && (m[i].kind == DDZ_SOLO || m[i].kind == DDZ_PAIR))
            cost -= 40 + (DDZ_NRANKS - m[i].rank);
        /* among equals: low ranks first, more cards first */
        cost = cost * 32 + m[i].rank - (int)m[i].ncards;
        if (cost < best_cost) {
            best_cost = cost;
            best = i;
        }
    }
    return best;
}

static int follow(planner *p, const abot_view *v, const abot_request *r)
{
    const ddz_move *m = r->moves;
    int n = r->nmoves;
    int pass = 0;       /* follows start with the pass (the documented order) */
    for (int i = pass + 1; i < n; i++)
        if (v->hand == m[i].cards)
            return i;           /* goes out */
    int opp_low = fewest_opponent_cards(v);
    bool partner = abot_partner(v, v->to_beat_seat);
    int now = hand_cost(p, v->hand);
    if (partner) {
        /* let the partner's play stand, unless a cheap one improves the
         * hand and the partner is not about to go out anyway */
        if (v->counts[v->to_beat_seat] <= 3 || v->to_beat->rank >= DDZ_RA - 1 /* K */)
            return pass;
        int best = pass, best_cost = now;
        for (int i = pass + 1; i < n; i++) {
            if (abot_is_bomb(&m[i]) || m[i].rank >= DDZ_RA)
                continue;
            int cost = hand_cost(p, v->hand - m[i].cards) + 10;
            if (cost < best_cost) {
                best_cost = cost;
                best = i;
            }
        }
        return best;
    }
    /* an opponent's play: passing costs the lead, more when it is close */
    bool urgent = opp_low <= 2 || v->counts[v->to_beat_seat] <= 4;
    int best = pass, best_cost = now + (urgent ? 40 : 8);
    for (int i = pass + 1; i < n; i++) {
        ddz_cards after = v->hand - m[i].cards;
        int cost = hand_cost(p, after) + spend_cost(v, &m[i], urgent);
        /* a bomb that leaves one play wins the deal */
        if (abot_is_bomb(&m[i]) && plan(p, after, 0) <= 1)
            cost -= 30;
        if (cost < best_cost || (cost == best_cost && best != pass && m[i].rank < m[best].rank)) {
            best_cost = cost;
            best = i;
        }
    }
    return best;
}

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    planner *p = ctx;
    if (p->rules != v->rules) {
        p->rules = v->rules;
        memset(p->memo, 0, sizeof p->memo);
    }
    if (r->decision != ABOT_PLAY)
        return choose_value(p, v, r);
    return v->to_beat ? follow(p, v, r) : lead(p, v, r);
}

int main(int argc, char **argv)
{
    planner *p = calloc(1, sizeof *p);
    if (!p)
        return 1;
    int rc = abot_run(abot_name_arg(argc, argv, "heuristic"), choose, p);
    free(p);
    return rc == 0 ? 0 : 1;
}
