/* test_ladder.c — a ladder's matchmaking (scheduler/ladder.c), pure: who
 * anchors the next table, who joins it, seats, and what a long run of
 * choices does to the pool's share. */
#include "ladder.h"
#include "arb_error.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static ladder_params params(int seats)
{
    return (ladder_params){.seats = seats, .provisional = 10, .new_boost = 2, .sigma0 = 25.0 / 3,
                           .beta = 25.0 / 6, .max_in_flight = 1};
}

static ladder_entry entry(int64_t id, double mu, double sigma, int games)
{
    ladder_entry e;
    memset(&e, 0, sizeof e);
    e.id = id;
    e.mu = mu;
    e.sigma = sigma;
    e.games = games;
    e.idle_s = 60;
    return e;
}

static bool in_table(const int *t, int k, int i)
{
    for (int s = 0; s < k; s++)
        if (t[s] == i)
            return true;
    return false;
}

static void test_choices(void)
{
    ladder_params p = params(2);
    int t[4];
    char why[256];
    ladder_entry e[6];
    for (int i = 0; i < 6; i++)
        e[i] = entry(i + 1, 25 + 3 * i, 2, 50);
    /* too few free */
    e[0].in_flight = e[1].in_flight = e[2].in_flight = e[3].in_flight = e[4].in_flight = 1;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 0);
    for (int i = 0; i < 6; i++)
        e[i].in_flight = 0;
    CHECK(ladder_match(&(ladder_params){.seats = 5}, e, 6, 1, t, NULL, 0) == ARB_EINVAL);
    /* a new entry anchors, and meets the closest rating */
    e[3].games = 2;
    e[3].sigma = 6;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 1 && in_table(t, 2, 3));
    CHECKF(in_table(t, 2, 2) || in_table(t, 2, 4), "%s", why);
    CHECKF(strstr(why, "anchor 4 ") != NULL, "%s", why);
    /* no immediate rematch: having just met 3 (id 3) and 5 (id 5) alike... */
    e[3].recent[0] = 3;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 1 && in_table(t, 2, 3) && in_table(t, 2, 4));
    /* ...and over its rate, an entry waits */
    e[3].rate = 2;
    e[3].last_hour = 2;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 1 && !in_table(t, 2, 3));
    e[3].last_hour = 1;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 1 && in_table(t, 2, 3));
    /* seats: an entry that sat seat 0 more goes to seat 1 */
    e[3].seat_count[0] = 9;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 1 && t[1] == 3);
    e[3].seat_count[0] = 0;
    e[3].seat_count[1] = 9;
    CHECK(ladder_match(&p, e, 6, 1, t, why, sizeof why) == 1 && t[0] == 3);
    /* the same seed, the same table; among equals, the seed decides */
    ladder_entry eq[8];
    for (int i = 0; i < 8; i++)
        eq[i] = entry(i + 1, 25, 5, 20);
    int anchors[8] = {0}, t2[4];
    ladder_params p3 = params(3);
    for (uint64_t s = 1; s <= 400; s++) {
        CHECK(ladder_match(&p3, eq, 8, s, t, NULL, 0) == 1 && ladder_match(&p3, eq, 8, s, t2, NULL, 0) == 1
              && memcmp(t, t2, 3 * sizeof *t) == 0);
        CHECK(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
        anchors[t[0]]++;
    }
    int seen = 0;
    for (int i = 0; i < 8; i++)
        seen += anchors[i] > 0;
    CHECKF(seen == 8, "the seed spreads ties: %d of 8 anchored", seen);
}

/* A day of a ladder: 12 entries, one match at a time, each played at
 * once (in_flight stays 0), ratings drifting apart as a simulated skill
 * says; new entries (two join at games 0) play more, everyone plays, the
 * rate caps the busiest, and seats even out. */
static void test_pool_share(void)
{
    ladder_params p = params(3);
    ladder_entry e[12];
    for (int i = 0; i < 12; i++)
        e[i] = entry(i + 1, 20 + i, i < 10 ? 3 : 8.3, i < 10 ? 40 : 0);
    int played[12] = {0}, early[12] = {0}, t[4];
    for (int step = 0; step < 3000; step++) {
        if (step == 200)
            memcpy(early, played, sizeof early);
        for (int i = 0; i < 12; i++)
            e[i].idle_s += 10;
        CHECK(ladder_match(&p, e, 12, 1000 + (uint64_t)step, t, NULL, 0) == 1);
        for (int s = 0; s < 3; s++) {
            ladder_entry *x = &e[t[s]];
            played[t[s]]++;
            x->games++;
            x->idle_s = 0;
            x->seat_count[s]++;
            x->sigma = fmax(1, x->sigma * 0.97);
            memmove(x->recent + 2, x->recent, (LADDER_MAX_RECENT - 2) * sizeof *x->recent);
            x->recent[0] = e[t[(s + 1) % 3]].id;
            x->recent[1] = e[t[(s + 2) % 3]].id;
        }
    }
    int old_max = 0;
    for (int i = 0; i < 10; i++)
        old_max = early[i] > old_max ? early[i] : old_max;
    CHECKF(early[10] > old_max && early[11] > old_max, "new entries play more at first: %d %d against at most %d",
           early[10], early[11], old_max);
    int least = played[0];
    for (int i = 0; i < 12; i++)
        least = played[i] < least ? played[i] : least;
    CHECKF(least > 300, "everyone plays: the least %d of 3000 tables", least);
    /* seats: each entry's three seats within 20% of each other */
    bool even = true;
    for (int i = 0; i < 12; i++) {
        uint32_t lo = e[i].seat_count[0], hi = lo;
        for (int s = 1; s < 3; s++) {
            lo = e[i].seat_count[s] < lo ? e[i].seat_count[s] : lo;
            hi = e[i].seat_count[s] > hi ? e[i].seat_count[s] : hi;
        }
        even = even && hi - lo <= (hi + 4) / 5;
    }
    CHECK(even);
}

int main(void)
{
    test_choices();
    test_pool_share();
    return TEST_DONE("ladder");
}
