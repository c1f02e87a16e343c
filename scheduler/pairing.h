/* pairing.h — the pure logic of tournament formats: which entrants share a
 * table, in which seats, round by round. No I/O, no clock, no database: every
 * function is a function of its arguments and of the tournament seed, so a
 * resumed tournament pairs exactly as an uninterrupted one would.
 *
 * Entrants are indices 0..n-1 (n <= PR_MAX_ENTRANTS). Every random choice
 * comes from an arb_rng seeded with arb_seed_child(seed, "pairing/...") (the
 * labels are given with each function), never from anything else.
 *
 * Errors: functions return a count or 0 on success, or a negative arb_err:
 * ARB_EINVAL for arguments out of their documented domain, ARB_ENOSPC when an
 * output array is too small (nothing useful is written then), ARB_ENOMEM,
 * ARB_ESTATE for an operation the bracket is not ready for. The caller owns
 * every array it passes; objects from x_new() are freed with x_free(). */
#ifndef ARB_PAIRING_H
#define ARB_PAIRING_H
#include "arb_limits.h"

#include <stddef.h>
#include <stdint.h>

/* Entrant indices are stored in uint16_t seats. */
#define PR_MAX_ENTRANTS 65535

/* One table: the entrant in each seat (seat[0] plays first / bids first,
 * whatever the game makes of seat order), k seats used. */
typedef struct pr_table {
    uint16_t seat[ARB_MAX_SEATS];
    uint8_t  k;
} pr_table;

/* ---- Seat balancing ----------------------------------------------------
 * Reorders the seats inside each table (never who sits at which table) so
 * that every entrant sits every seat as equally often as possible.
 * seat_count (n*k, entrant-major: seat_count[e*k + s]) holds the counts of
 * earlier rounds on entry and includes these tables on return, so a
 * tournament keeps one array and calls this once per round. All tables must
 * have the same k (2..ARB_MAX_SEATS) and seats < n.
 *
 * Method: a greedy pass (each table takes the seat permutation that adds
 * least to the sum of squared counts), then Kempe-chain repairs: while an
 * entrant sits seat a at least twice more than seat b, an alternating path
 * of tables (a-seat, b-seat, a-seat...) is flipped, which moves one of its a
 * seats to b and changes nobody else but the path's far end, who had more b
 * than a.
 * Guarantee: when seat_count is all zero on entry, afterwards every entrant's
 * k seat counts differ by at most 1 (the bipartite entrants x tables graph
 * always has such an equitable colouring — de Werra 1971 — and the repair
 * never gets stuck on it). With earlier counts it is best effort: the greedy
 * (per table, the permutation whose worst entrant ends least unbalanced)
 * and those repairs that exist within these tables. Round by round over a
 * Swiss event (one table per entrant per round) that stays within 3 in the
 * tests, not 1: three entrants short of the same seat can meet at a table.
 * Returns 0, ARB_EINVAL or ARB_ENOMEM (tables then keep the greedy order). */
int pr_balance_seats(pr_table *t, size_t ntables, int n, uint32_t *seat_count);

/* ---- Round robin and gauntlet ------------------------------------------
 * Round robin: every k-subset of the n entrants (2 <= k <= ARB_MAX_SEATS,
 * k <= n) meets exactly `cycles` (>= 1) times and no other table is made.
 * The order of the tables is shuffled (label "pairing/round-robin"), seats
 * are balanced from zero counts (so within 1, see pr_balance_seats). One
 * round holding every table: the caller may play them in any order.
 * Returns the number of tables, ARB_ENOSPC if more than cap, ARB_ERANGE if
 * more than INT_MAX. */
int pr_round_robin(int n, int k, uint32_t cycles, uint64_t seed, pr_table *out, size_t cap);
/* C(n, k) * cycles (saturating at SIZE_MAX; 0 for arguments out of range). */
size_t pr_round_robin_count(int n, int k, uint32_t cycles);

/* Gauntlet: the hero at every table, with each (k-1)-subset of the other
 * n-1 entrants, `cycles` times; shuffled ("pairing/gauntlet") and balanced
 * like a round robin. */
int pr_gauntlet(int n, int k, int hero, uint32_t cycles, uint64_t seed, pr_table *out, size_t cap);
/* C(n-1, k-1) * cycles (saturating; 0 for arguments out of range). */
size_t pr_gauntlet_count(int n, int k, uint32_t cycles);

/* ---- Meetings so far ---------------------------------------------------
 * Who has shared a table with whom, and how often: a hash set of pairs, so
 * it costs memory in the meetings played (about 24 bytes a pair), not n*n
 * (10,000 entrants would need 200 MB as a matrix of uint16). */
typedef struct pr_met pr_met;
pr_met *pr_met_new(int n);                          /* NULL on bad n / no memory */
void pr_met_free(pr_met *m);
/* One more meeting of a and b (a != b, both < n): 0, ARB_EINVAL, ARB_ENOMEM. */
int pr_met_add(pr_met *m, int a, int b);
/* Every pair at the table. */
int pr_met_add_table(pr_met *m, const pr_table *t);
/* Times a and b met (0 for m == NULL). */
uint32_t pr_met_count(const pr_met *m, int a, int b);

/* ---- Swiss -------------------------------------------------------------
 * One Swiss round. score[n]: the standings so far (higher is better).
 * met: meetings so far (NULL: none). bye_count[n]: byes each had so far
 * (NULL: none). round numbers the draw ("pairing/swiss/<round>").
 *
 * 1. Ranking: score descending, ties in an order drawn from the seed.
 * 2. Byes: n mod k entrants sit out: those with the fewest byes so far, and
 *    among them the lowest ranked. Nobody gets a second bye while someone
 *    has none. Written to byes[] (room for k-1), their number to *nbyes;
 *    awarding points for a bye is the caller's decision.
 * 3. Tables from the top down: each table's leader is the best-ranked
 *    entrant not yet seated; the other seats go to the entrants among the
 *    next PR_SWISS_WINDOW unseated (in rank order) that add the fewest
 *    repeat meetings, the best ranked on a tie. So within a score group the
 *    best play the best, and a repeat is avoided by reaching a little down.
 * 4. Repair (only with met): the greedy leaves repeats at the bottom and
 *    in the lowest score group, whose members have mostly met already. For
 *    each table with a repeat, the swap of two entrants with a table at
 *    most PR_SWISS_SPAN away that removes the most repeats is made, the
 *    one widening the two tables' score spreads least on a tie; at most
 *    PR_SWISS_PASSES passes. As in FIDE's rules, avoiding a repeat outranks
 *    score groups, so an entrant may "float" to a neighbouring group.
 * 5. Output: seats in rank order (best first), tables ordered by their
 *    best-ranked entrant — so each table's best scores at least as much as
 *    anyone at a later table. Seats are not balanced: call
 *    pr_balance_seats with the tournament's running counts.
 * Measured (tests/unit/test_pairing.c, k = 3, 7 rounds of random results):
 * no repeat while everyone has met at most a third of the field, none at
 * all from 30 entrants on; at most 15% of tables span more than one table
 * won from 30 entrants on. Cost: O(n log n) plus the window and the repair,
 * about a millisecond per 1,000 entrants (tests/bench/bench_pairing.c).
 * n < k is allowed: no table, everyone a bye (byes[] then needs n <= k-1
 * entries, which holds). Returns the number of tables (n / k). */
#define PR_SWISS_WINDOW 32
#define PR_SWISS_SPAN 64
#define PR_SWISS_PASSES 8
int pr_swiss(int n, int k, const int64_t *score, const pr_met *met, const uint32_t *bye_count,
             uint32_t round, uint64_t seed, pr_table *out, size_t cap, int *byes, int *nbyes);

/* Buchholz of every entrant: the sum over its meetings of the opponent's
 * score (an opponent met twice counts twice). out[n]. */
int pr_swiss_buchholz(const pr_met *met, int n, const int64_t *score, int64_t *out);
/* Final Swiss standings into order[n] (best first): score descending, then
 * Buchholz descending (buchholz may be NULL: skipped), then a draw from the
 * seed ("pairing/swiss-rank") — never the entrant's index. */
int pr_swiss_rank(int n, const int64_t *score, const int64_t *buchholz, uint64_t seed, int *order);

/* ---- Seed order --------------------------------------------------------
 * seeding_rank[n] (NULL: all unseeded): 1 is the top seed, 0 unseeded. Seed
 * order: seeded entrants by rank, then the unseeded in an order drawn from
 * the seed with the label given; equal ranks are drawn too. order[n]. */
int pr_seed_order(int n, const uint32_t *seeding_rank, uint64_t seed, const char *label, int *order);

/* ---- Knockout (single elimination with tables of k) --------------------
 * n entrants, tables of k (2..ARB_MAX_SEATS), the best a (1 <= a < k) of
 * each table go on; n >= k (a table is never played short-handed).
 * Seed order: pr_seed_order with label "pairing/knockout".
 *
 * Shape. A table removes d = k - a entrants, so the number alive keeps its
 * residue mod d; the final stage therefore has f = k + (n - k) mod d
 * entrants: a single final table when f == k, otherwise (k = 3, a = 1 with
 * an even n, say) a final round robin of all C(f, k) tables among them
 * (f <= 2k - 2), ranked by points (k-1 for a table won, ..., 0 for last),
 * then tables won, then seed. Before it, the largest "full" sizes are built
 * backwards from f (F0 = f, F(j+1) = Fj + d*floor(Fj / a): the most
 * entrants one round can bring down to Fj), and round 1 brings n down to
 * the full size below it. Byes: round 1 has the byes that make the bracket
 * full; a later round has Fj mod a byes (none when a == 1). Byes always go
 * to the best seeds alive.
 * Placement: each round, the entrants playing it (seed order, after the
 * byes) are dealt into the tables in a serpentine (1..T, T..1, ...), so
 * the T best seeds alive are at T different tables: the top two seeds can
 * only meet in the final stage, whatever n. Seats are balanced with the
 * bracket's own running counts.
 * Rounds are numbered from 1; round r's tables are known once every table
 * of round r-1 is reported. */
typedef struct pr_bracket pr_bracket;
int pr_knockout_new(int n, int k, int a, const uint32_t *seeding_rank, uint64_t seed, pr_bracket **out);
void pr_knockout_free(pr_bracket *b);
/* Rounds in all (the final stage included). */
int pr_knockout_nrounds(const pr_bracket *b);
/* The round being played (nrounds + 1 once a champion is known). */
int pr_knockout_current(const pr_bracket *b);
/* Round r's tables (any round up to the current one): their number, or
 * ARB_ERANGE (no such round), ARB_ESTATE (not known yet), ARB_ENOSPC. */
int pr_knockout_round(const pr_bracket *b, int round, pr_table *out, size_t cap);
/* Round r's byes, best seed first: their number (same errors). */
int pr_knockout_byes(const pr_bracket *b, int round, int *out, size_t cap);
/* Record a table of the current round: finish_order holds the table's k
 * entrants, best first. ARB_ESTATE for another round or a table already
 * reported, ARB_EINVAL if finish_order is not the table's entrants. */
int pr_knockout_report(pr_bracket *b, int round, int table, const int *finish_order);
/* The champion, or ARB_ESTATE before the final stage is complete. */
int pr_knockout_champion(const pr_bracket *b);
/* Where an entrant went out: *round (the round it last played: nrounds
 * for everyone in the final stage) and *place (0-based finish at that table,
 * or in the final round robin's ranking; the champion has nrounds, 0).
 * ARB_ESTATE while it is still in. */
int pr_knockout_placement(const pr_bracket *b, int entrant, int *round, int *place);
/* Final standings (order[n], best first): the champion, then by the round
 * they went out in (later is better), then place at that table, then seed.
 * ARB_ESTATE before the end. */
int pr_knockout_standings(const pr_bracket *b, int *order);
/* The bracket as text for a terminal: rounds, byes, tables (reported ones
 * in finish order, "|" between those going on and those going out),
 * champion. names[n] may be NULL ("#<index>"). Like snprintf: returns the
 * length of the whole drawing, writes at most len-1 bytes and a NUL. */
size_t pr_knockout_draw(const pr_bracket *b, const char *const *names, char *buf, size_t len);

/* ---- Double elimination (k = 2 only) -----------------------------------
 * Winners' side, losers' side, grand final with reset. Played in stages:
 * each stage holds one round of the winners' side and one of the losers'
 * side, playable at once. Winners' side: round 1 has the byes (best seeds)
 * that leave a power of two, then best-vs-worst seed every round. Losers'
 * side: everyone with one loss so far (the new drop-outs join the next
 * stage); an odd count gives one bye (fewest losers'-side byes, then best
 * seed); pairs are best seed against the worst it has not met yet. When one
 * entrant is left on each side: grand final (PR_GRAND_FINAL, a = the
 * winners'-side finalist); if b wins it, both have lost once and a reset
 * (PR_RESET) decides. Seed order: label "pairing/double". */
typedef enum pr_side {
    PR_WINNERS = 0,
    PR_LOSERS,
    PR_GRAND_FINAL,
    PR_RESET
} pr_side;

typedef struct pr_match {
    uint32_t id;        /* unique within the tournament, for pr_double_report */
    uint16_t a, b;      /* a: the better seed (grand final: winners' side) */
    uint8_t  side;      /* pr_side */
    uint16_t stage;     /* 1, 2, ... */
} pr_match;

typedef struct pr_double pr_double;
/* ARB_EINVAL unless k == 2 and 2 <= n <= PR_MAX_ENTRANTS. */
int pr_double_new(int n, int k, const uint32_t *seeding_rank, uint64_t seed, pr_double **out);
void pr_double_free(pr_double *d);
/* The unreported matches of the current stage: their number (0 once there
 * is a champion), or ARB_ENOSPC. */
int pr_double_next(const pr_double *d, pr_match *out, size_t cap);
/* winner: a or b of match id. ARB_ENOTFOUND (no such match in the current
 * stage), ARB_ESTATE (already reported), ARB_EINVAL (not a player). */
int pr_double_report(pr_double *d, uint32_t id, int winner);
int pr_double_champion(const pr_double *d);                 /* or ARB_ESTATE */
int pr_double_losses(const pr_double *d, int entrant);      /* 0, 1, 2 or ARB_EINVAL */
/* Final standings (order[n]): champion, then by the stage of the second
 * loss (later is better), then seed. ARB_ESTATE before the end. */
int pr_double_standings(const pr_double *d, int *order);

/* ---- Groups, then knockout ---------------------------------------------
 * Deals the n entrants into `groups` groups (1..n) in seed order ("pairing/
 * groups"), snake style: seeds 1..g into groups 0..g-1, seeds g+1..2g into
 * groups g-1..0, ... so every group gets one entrant of each tier.
 * group_of[n]. Each group then plays a round robin (pr_round_robin on the
 * group's members, mapping indices), after which pr_groups_advance gives
 * the knockout's entrants. */
int pr_groups(int n, int groups, const uint32_t *seeding_rank, uint64_t seed, int *group_of);
/* standing[n]: every entrant, best first, by the group stage's results.
 * The best `advance` of each group go on; the knockout's seed order is tier
 * by tier (group winners, then runners-up, ...) and within a tier by
 * `standing`. Writes entrants[] (the knockout's index i is entrant
 * entrants[i]) and seeding_rank[] (i + 1), room for groups * advance; then
 * pr_knockout_new(count, k, a, seeding_rank, seed, &b) and map back through
 * entrants[]. Returns the count. */
int pr_groups_advance(int n, int groups, const int *group_of, const int *standing, int advance,
                      int *entrants, uint32_t *seeding_rank);

#endif
