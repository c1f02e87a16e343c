/* dabang_greedy.c — an example Da Bang bot that plays trick by trick:
 *
 * - declares the option that makes the most of its cards trumps, once a
 *   third of what it holds would be;
 * - gives and buries its lowest side cards without points; buries a joker
 *   (DB-59) only with a strong hand;
 * - leads side aces, else its cheapest side cards without points;
 * - follows: adds points to a trick its partner is winning, wins a trick
 *   that carries points with its cheapest winning play (trumping when void
 *   in the suit led), and otherwise follows as cheaply as it can.
 *
 * Deterministic: the same match replays exactly. */
#include "arbiter_bot.h"

/* How dear a card is to give away: points first, then trumps, then power. */
static int card_cost(const abot_dab_view *v, int c)
{
    int cost = 8 * dab_card_points(c);
    if (v->trump)
        cost += v->trump->power[c] + (dab_is_trump(v->trump, c) ? 30 : 0);
    else
        cost += dab_joker(c) ? 60 : 3 * ((dab_rank(c) - v->level + 13) % 13);
    return cost;
}

static int play_cost(const abot_dab_view *v, const dab_play *p)
{
    int cost = 0;
    for (int i = 0; i < p->n; i++)
        cost += card_cost(v, p->c[i]);
    return cost;
}

/* The cheapest choice (fewest cards first when `fewer`), or -1. */
static int cheapest(const abot_dab_view *v, const abot_dab_request *r)
{
    int best = -1, best_cost = 0;
    for (int i = 0; i < r->nchoices; i++) {
        if (r->choices[i].n == 0)
            continue;
        int cost = play_cost(v, &r->choices[i]);
        if (best < 0 || cost < best_cost) {
            best = i;
            best_cost = cost;
        }
    }
    return best < 0 ? 0 : best;
}

static int pass_index(const abot_dab_request *r)
{
    for (int i = 0; i < r->nchoices; i++)
        if (r->choices[i].n == 0)
            return i;
    return -1;
}

/* Cards that would be trumps with this level and suit. */
static int trumps_with(const abot_dab_view *v, int suit)
{
    dab_trump t;
    dab_trump_init(&t, v->level, suit);
    int n = 0;
    for (int c = 0; c < DAB_NCARDS; c++)
        if (dab_is_trump(&t, c))
            n += v->hand.n[c];
    return n;
}

static int declare(const abot_dab_view *v, const abot_dab_request *r)
{
    int best = -1, best_n = -1;
    for (int i = 0; i < r->nchoices; i++) {
        const dab_play *p = &r->choices[i];
        if (p->n == 0)
            continue;
        int suit = r->suits[i] >= 0 ? r->suits[i] : dab_suit(p->c[0]);
        /* the first deal's big joker names no suit yet: its best suit counts */
        int n = 0;
        for (int u = 0; u < 4; u++)
            if (suit < 0 || u == suit)
                n = trumps_with(v, u) > n ? trumps_with(v, u) : n;
        n += p->n;      /* a stronger declaration is harder to overturn */
        if (n > best_n) {
            best = i;
            best_n = n;
        }
    }
    int pass = pass_index(r);
    if (best < 0 || (pass >= 0 && 3 * best_n < v->hand.total + 3))
        return pass >= 0 ? pass : 0;
    return best;
}

static int play(const abot_dab_view *v, const abot_dab_request *r)
{
    if (!v->trump)
        return 0;
    if (v->ntrick == 0 || !v->winning) {
        /* lead: side aces, the more the better; else the cheapest side play */
        int best = -1;
        for (int i = 0; i < r->nchoices; i++) {
            const dab_play *p = &r->choices[i];
            if (dab_rank(p->c[0]) == DAB_RA && !dab_is_trump(v->trump, p->c[0])
                && (best < 0 || p->n > r->choices[best].n))
                best = i;
        }
        if (best >= 0)
            return best;
        int cost = 0;
        for (int i = 0; i < r->nchoices; i++) {
            const dab_play *p = &r->choices[i];
            int c = play_cost(v, p) * 2 / p->n - 4 * p->n;   /* per card, sets first */
            if (best < 0 || c < cost) {
                best = i;
                cost = c;
            }
        }
        return best;
    }
    int points = 0;
    for (int i = 0; i < v->ntrick; i++)
        points += dab_play_points(&v->trick[i]);
    if (abot_dab_partner(v, v->winner)) {
        /* the partner is winning: give it the most points, then cheaply */
        int best = 0, best_key = 0;
        for (int i = 0; i < r->nchoices; i++) {
            const dab_play *p = &r->choices[i];
            int key = 100 * dab_play_points(p) - play_cost(v, p);
            if (dab_beats(v->trump, p, v->winning))
                key -= 5;      /* no need to take it over */
            if (i == 0 || key > best_key) {
                best = i;
                best_key = key;
            }
        }
        return best;
    }
    bool led_trump = dab_is_trump(v->trump, v->trick[0].c[0]);
    int win = -1, win_cost = 0;
    for (int i = 0; i < r->nchoices; i++) {
        const dab_play *p = &r->choices[i];
        if (!dab_beats(v->trump, p, v->winning))
            continue;
        int c = play_cost(v, p) - 8 * dab_play_points(p);   /* points of our own are safe when we win */
        if (win < 0 || c < win_cost) {
            win = i;
            win_cost = c;
        }
    }
    if (win >= 0) {
        bool trumping = !led_trump && dab_is_trump(v->trump, r->choices[win].c[0]);
        if (points > 0 || trumping || dab_play_points(&r->choices[win]) > 0)
            return win;
    }
    return cheapest(v, r);
}

static int choose(const abot_dab_view *v, const abot_dab_request *r, void *ctx)
{
    (void)ctx;
    switch (r->decision) {
    case ABOT_DAB_DECLARE:
        return declare(v, r);
    case ABOT_DAB_JOKER: {
        int pass = pass_index(r);
        bool strong = 2 * abot_dab_trumps(v, &v->hand) >= v->hand.total;
        for (int i = 0; strong && i < r->nchoices; i++)
            if (i != pass)
                return i;      /* the joker */
        return pass >= 0 ? pass : 0;
    }
    case ABOT_DAB_PLAY:
        return play(v, r);
    case ABOT_DAB_TRIBUTE:      /* the list is the highest non-point cards: any */
    case ABOT_DAB_RETURN:
    case ABOT_DAB_BURY:
    case ABOT_DAB_TAKEBACK:
    default:
        return cheapest(v, r);
    }
}

int main(int argc, char **argv)
{
    return abot_dab_run(abot_name_arg(argc, argv, "dabang_greedy"), choose, NULL) == 0 ? 0 : 1;
}
