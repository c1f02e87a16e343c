/* plan_internal.h — the formats' pure helpers that plan.c shares with its
 * unit test (tests/unit/test_plan.c), which links the scheduler library
 * instead of including plan.c. Not part of the scheduler's API: nothing
 * outside scheduler/plan*.c and that test includes this file. */
#ifndef ARB_PLAN_INTERNAL_H
#define ARB_PLAN_INTERNAL_H

#include "plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Who has met whom, sparse: a sorted list of pairs (lo << 32 | hi), one
 * entry per meeting. A dense n x n matrix would be 200 MB at 10,000
 * entrants; this is a few hundred KB for a few rounds. */
typedef struct met_set {
    uint64_t *pair;
    size_t n, cap;
} met_set;

int seats_of(const tn_config *cfg);
bool seat_teams(const tn_config *cfg, int k, int *team);
bool keeps_partners(const tn_entrant *ent, const int *seat_team, const int *e, const int *perm, int k);
void balance(store_table *t, int nt, int n, int k, const tn_entrant *ent, const int *seat_team);
void shuffle_tables(store_table *t, int nt, uint64_t seed, const char *label);
int all_tables(const tn_config *cfg, int k, int hero, store_table *out, int cap);
int knockout_tables(const int *alive, int m, int k, int a, store_table *out, int cap, int *nbyes, bool *final_rr);
int met_add(met_set *m, int a, int b);
int met_count(const met_set *m, int a, int b);
int swiss_pair(int n, int k, const int *order, const int *played, int round, const met_set *met,
               store_table *out, int cap);

#endif
