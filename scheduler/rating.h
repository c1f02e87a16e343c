/* rating.h — rating systems, pure code (no I/O, no allocation on the
 * update path): Weng–Lin (the OpenSkill family: Plackett–Luce,
 * Bradley–Terry and Thurstone–Mosteller with full pairing) for
 * multi-player and team results, Glicko-2 and Elo for two-sided play.
 * Numerics follow the libraries people check against (docs/ratings.md):
 * openskill 5 for Weng–Lin, the JavaScript glicko2 library 1.2 for
 * Glicko-2, to 1e-9. Ladders (issue: ladders and ratings) update ratings
 * with these in the result's transaction; `arbiter rate` exposes them on
 * the command line. */
#ifndef ARB_RATING_H
#define ARB_RATING_H
#include <stdbool.h>
#include <stddef.h>

/* ---- Weng–Lin ----------------------------------------------------------- */

typedef enum wl_model {
    WL_PLACKETT_LUCE = 0,       /* the default */
    WL_BRADLEY_TERRY,           /* full pairing */
    WL_THURSTONE_MOSTELLER,     /* full pairing */
    WL_NMODELS
} wl_model;

typedef struct wl_params {
    wl_model model;
    double mu, sigma;           /* a new player's: 25, 25/3 */
    double beta;                /* 25/6 */
    double kappa;               /* the floor of sigma^2 updates: 0.0001 */
    double tau;                 /* dynamics, added in quadrature before each update: 25/300 */
    double epsilon;             /* Thurstone–Mosteller's draw margin: 0.1 */
} wl_params;

typedef struct wl_rating {
    double mu, sigma;
} wl_rating;

/* openskill 5's defaults for `model`. */
void wl_defaults(wl_params *p, wl_model model);
const char *wl_model_name(wl_model m);     /* "plackett-luce", ... */
int wl_model_parse(const char *s, wl_model *out);

/* One match: nteams teams, team t holding size[t] players whose ratings
 * are r[first[t] .. first[t] + size[t]) (updated in place), rank[t] its
 * place (1 best; equal ranks tie; only the order matters). 0, or
 * ARB_EINVAL for fewer than two teams, an empty team, more than
 * WL_MAX_TEAMS teams. */
#define WL_MAX_TEAMS 64
int wl_rate(const wl_params *p, wl_rating *r, const int *first, const int *size, const int *rank, int nteams);

/* The conservative estimate a leaderboard ranks by: mu - 3 sigma. */
static inline double wl_ordinal(wl_rating r)
{
    return r.mu - 3 * r.sigma;
}

/* ---- Glicko-2 ----------------------------------------------------------- */

typedef struct g2_params {
    double rating, rd, vol;     /* a new player's: 1500, 350, 0.06 */
    double tau;                 /* 0.5 */
} g2_params;

typedef struct g2_rating {
    double rating, rd, vol;
} g2_rating;

typedef struct g2_game {
    int opponent;               /* index into the period's ratings */
    double score;               /* 1, 0.5 or 0 */
} g2_game;

void g2_defaults(g2_params *p);
/* One rating period for one player: its games against opponents rated
 * `before` (all updates of a period use the ratings from before it);
 * a player with no game has RD^2 grown by vol^2 (Glicko-2 scale). The
 * result into *out. */
void g2_update(const g2_params *p, g2_rating self, const g2_rating *before, const g2_game *games, int ngames,
               g2_rating *out);

/* ---- Elo ---------------------------------------------------------------- */

/* The expected score of a against b, and one game's update with factor k
 * (32): both players from their ratings before the game. */
double elo_expected(double ra, double rb);
void elo_update(double *ra, double *rb, double score_a, double k);

/* ---- One match of the record ---------------------------------------- */

/* The systems a record keeps (tournament.h's tn_rating numbers them the
 * same way). */
enum { RATING_NONE = 0, RATING_OPENSKILL, RATING_GLICKO2, RATING_ELO };

typedef struct rated {
    double mu, sigma, vol;       /* Weng–Lin mu/sigma; Glicko-2 rating/RD/volatility; Elo rating */
    int    games;
} rated;

/* A newcomer's rating under a system (model: openskill's wl_model). */
rated rated_default(int system, int model);

/* One finished match: n players, player i at place rank[i] (1 best, equal
 * places tie) on side side[i] (its team in a partnership game, -1
 * without). Updates r[0..n) in place and counts the game:
 *  - openskill: one Weng–Lin update, partners one team;
 *  - glicko2: the match is a rating period of its own, each player
 *    playing every player of another side (score 1, 0.5, 0 by place);
 *  - elo: every pair of players of different sides from the ratings
 *    before the match, K = 32 shared out over the player's opponents.
 * 0, or ARB_EINVAL (a system it does not know, n < 2, more than
 * WL_MAX_TEAMS players). */
int rating_match(int system, int model, rated *r, const int *rank, const int *side, int n);

/* The leaderboard's conservative estimate: mu - 3 sigma (openskill),
 * rating - 2 RD (Glicko-2), the rating (Elo). */
double rated_score(int system, rated r);

#endif
