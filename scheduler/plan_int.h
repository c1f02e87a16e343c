/* plan_int.h — what the format files of plan (plan.c, plan_rr.c,
 * plan_swiss.c, plan_knockout.c, plan_de.c, plan_groups.c, plan_ties.c,
 * plan_draw.c) share, and what tests/unit/test_plan.c reaches: not part
 * of plan.h's interface. A "unit" is what a format pairs: a team in
 * partnership play, else an entrant (tournament.h, tn_units). */
#ifndef ARB_PLAN_INT_H
#define ARB_PLAN_INT_H
#include "plan.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most units tied at once: at a table (its seats), or in a final
 * round robin (fewer than two tables' worth). */
#define ARB_MAX_TN_TIE (2 * ARB_MAX_SEATS)

/* What a knockout replay notes besides who is alive: per unit the round
 * it was last seated in (or given a bye), the round it went out in (0:
 * not out) and its place then (0 best: at its table, or in the final
 * round robin); the ties settled; and, when buf is set, the bracket as
 * text. Heap-allocated (calloc): its arrays are large. */
typedef struct ko_track {
    int    seen_round[ARB_TN_MAX_ENTRANTS];
    int    out_round[ARB_TN_MAX_ENTRANTS];
    int    out_place[ARB_TN_MAX_ENTRANTS];
    int    final_round;          /* the round that left one unit (0: not yet) */
    int    grand_final_round;    /* double elimination: the grand final's round (0: none yet, or another format) */
    int    nties;
    char   ties[64][STORE_NOTE_MAX]; /* the first 64 (a draw of thousands notes no more) */
    char  *buf;                  /* the bracket's text (NULL: none), len bytes, used so far */
    size_t len, used;
} ko_track;

/* Who has met whom, sparse: a sorted list of pairs (lo << 32 | hi), one
 * entry per meeting. A dense n x n matrix would be 200 MB at 10,000
 * entrants; this is a few hundred KB for a few rounds. */
typedef struct met_set {
    uint64_t *pair;              /* owned (free); sorted with plan__cmp_u64 before plan__met_count */
    size_t n, cap;
} met_set;

/* ---- plan.c: the table, seats and seeding every format shares ---------- */
int plan__seats_of(const tn_config *cfg);
int plan__units_k(const tn_config *cfg);
const char *plan__unit_name(const tn_config *cfg, int u);
bool plan__seat_teams(const tn_config *cfg, int k, int *team);
bool plan__keeps_partners(const tn_entrant *ent, const int *seat_team, const int *e, const int *perm, int k);
void plan__balance(store_table *t, int nt, int n, int k, const tn_entrant *ent, const int *seat_team);
void plan__shuffle_tables(store_table *t, int nt, uint64_t seed, const char *label);
uint64_t plan__seed(const tn_config *cfg, const plan_record *rec);
void plan__seed_order(const tn_config *cfg, uint64_t pseed, int *order);
int plan__standings_order(const plan_record *rec, int n, int *order);

/* ---- plan_rr.c ---------------------------------------------------------- */
int plan__subsets(const int *pool, int n, int k, store_table *out, int cap, int fixed);
int plan__all_tables(const tn_config *cfg, int k, int hero, store_table *out, int cap);

/* ---- plan_swiss.c ------------------------------------------------------- */
int plan__met_add(met_set *m, int a, int b);
int plan__cmp_u64(const void *x, const void *y);
int plan__met_count(const met_set *m, int a, int b);
int plan__swiss_pair(int n, int k, const int *order, const int *played, int round, const met_set *met,
                     store_table *out, int cap);
int plan__swiss_round(const tn_config *cfg, const plan_record *rec, int k, int round, store_table *out, int cap);

/* ---- plan_groups.c ------------------------------------------------------ */
int plan__group_standings(const tn_config *cfg, const plan_record *rec, int *order);
void plan__groups_of(const tn_config *cfg, uint64_t pseed, int *group);

/* ---- plan_knockout.c ---------------------------------------------------- */
int plan__knockout_tables(const int *alive, int m, int k, int a, store_table *out, int cap, int *nbyes,
                          bool *final_rr);
int plan__knockout_alive(const tn_config *cfg, const plan_record *rec, int k, const int *start, int nstart,
                         int first, int last, int *alive, store_table *scratch, int cap, ko_track *tr);
int plan__knockout_start(const tn_config *cfg, const plan_record *rec, int *start, int *first);
int plan__ko_replay(const tn_config *cfg, const plan_record *rec, ko_track *tr, int *start, int *ns, int *alive);

/* ---- plan_de.c ---------------------------------------------------------- */
int plan__de_tables(const int *order, int n, const uint8_t *losses, store_table *out, uint8_t *bracket, int cap,
                    const char **stage);
int plan__de_replay(const tn_config *cfg, const plan_record *rec, const int *order, int last, uint8_t *losses,
                    store_table *scratch, uint8_t *bracket, int cap, ko_track *tr);

/* ---- plan_ties.c -------------------------------------------------------- */
double plan__place_points(const plan_round *pr, int t, int p, int k);
void plan__ko_note_tie(ko_track *tr, const char *note);
void plan__draw_keys(const tn_config *cfg, const plan_record *rec, const char *label, const int *u, int m,
                     uint64_t *key);
void plan__settled_order(const tn_config *cfg, const plan_record *rec, int r, int t, store_table *out, char *note,
                         size_t notelen);

/* ---- plan_draw.c -------------------------------------------------------- */
void plan__ko_print(ko_track *tr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void plan__ko_print_names(ko_track *tr, const tn_config *cfg, const store_table *o, const char *sep);

#endif
