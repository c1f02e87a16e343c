/* rating_match.c — one finished match of the record as a rating update
 * (rating.h): the same function when the result is recorded and when
 * `arbiter ratings --recompute` replays the history, so both agree. */
#include "rating.h"
#include "arb_error.h"

#include <math.h>

rated rated_default(int system, int model)
{
    if (system == RATING_OPENSKILL) {
        wl_params p;
        wl_defaults(&p, (wl_model)model);
        return (rated){p.mu, p.sigma, 0, 0};
    }
    if (system == RATING_GLICKO2) {
        g2_params p;
        g2_defaults(&p);
        return (rated){p.rating, p.rd, p.vol, 0};
    }
    return (rated){1500, 0, 0, 0};
}

double rated_score(int system, rated r)
{
    return system == RATING_OPENSKILL ? r.mu - 3 * r.sigma : system == RATING_GLICKO2 ? r.mu - 2 * r.sigma : r.mu;
}

static bool opponents(const int *side, int i, int j)
{
    return i != j && (side[i] < 0 || side[j] < 0 || side[i] != side[j]);
}

static double score(const int *rank, int i, int j)
{
    return rank[i] < rank[j] ? 1 : rank[i] == rank[j] ? 0.5 : 0;
}

int rating_match(int system, int model, rated *r, const int *rank, const int *side, int n)
{
    if (n < 2 || n > WL_MAX_TEAMS)
        return ARB_EINVAL;
    if (system == RATING_OPENSKILL) {
        /* teams: the players of one side together, in order of first sight */
        wl_params p;
        wl_defaults(&p, (wl_model)model);
        wl_rating w[WL_MAX_TEAMS];
        int team_of[WL_MAX_TEAMS], first[WL_MAX_TEAMS], size[WL_MAX_TEAMS], trank[WL_MAX_TEAMS], nt = 0, k = 0;
        for (int i = 0; i < n; i++) {
            team_of[i] = -1;
            for (int j = 0; j < i && side[i] >= 0; j++)
                if (side[j] == side[i])
                    team_of[i] = team_of[j];
            if (team_of[i] < 0)
                team_of[i] = nt++;
        }
        int map[WL_MAX_TEAMS];
        for (int t = 0; t < nt; t++) {
            first[t] = k;
            size[t] = 0;
            for (int i = 0; i < n; i++)
                if (team_of[i] == t) {
                    map[k] = i;
                    w[k++] = (wl_rating){r[i].mu, r[i].sigma};
                    size[t]++;
                    trank[t] = rank[i];
                }
        }
        if (nt < 2)
            return ARB_EINVAL;
        int rc = wl_rate(&p, w, first, size, trank, nt);
        if (rc)
            return rc;
        for (int i = 0; i < k; i++) {
            r[map[i]].mu = w[i].mu;
            r[map[i]].sigma = w[i].sigma;
        }
    } else if (system == RATING_GLICKO2) {
        g2_params p;
        g2_defaults(&p);
        g2_rating before[WL_MAX_TEAMS];
        for (int i = 0; i < n; i++)
            before[i] = (g2_rating){r[i].mu, r[i].sigma, r[i].vol};
        for (int i = 0; i < n; i++) {
            g2_game games[WL_MAX_TEAMS];
            int ng = 0;
            for (int j = 0; j < n; j++)
                if (opponents(side, i, j))
                    games[ng++] = (g2_game){j, score(rank, i, j)};
            g2_rating out;
            g2_update(&p, before[i], before, games, ng, &out);
            r[i].mu = out.rating;
            r[i].sigma = out.rd;
            r[i].vol = out.vol;
        }
    } else if (system == RATING_ELO) {
        double before[WL_MAX_TEAMS];
        for (int i = 0; i < n; i++)
            before[i] = r[i].mu;
        for (int i = 0; i < n; i++) {
            int nopp = 0;
            double delta = 0;
            for (int j = 0; j < n; j++)
                if (opponents(side, i, j)) {
                    nopp++;
                    delta += score(rank, i, j) - elo_expected(before[i], before[j]);
                }
            if (nopp)
                r[i].mu = before[i] + 32 * delta / nopp;
        }
    } else {
        return ARB_EINVAL;
    }
    for (int i = 0; i < n; i++)
        r[i].games++;
    return 0;
}
