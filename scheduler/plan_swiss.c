/* plan_swiss.c — Swiss: pairs round by round from the standings, those
 * who met least together. */
#include "plan_int.h"

#include <stdlib.h>

int plan__met_add(met_set *m, int a, int b)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        uint64_t *p = realloc(m->pair, cap * sizeof *p);
        if (!p)
            return ARB_ENOMEM;
        m->pair = p;
        m->cap = cap;
    }
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    m->pair[m->n++] = (uint64_t)lo << 32 | hi;
    return 0;
}

int plan__cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* How often a and b met (the list sorted). */
int plan__met_count(const met_set *m, int a, int b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    uint64_t key = (uint64_t)lo << 32 | hi;
    size_t l = 0, r = m->n;
    while (l < r) {
        size_t mid = (l + r) / 2;
        if (m->pair[mid] < key)
            l = mid + 1;
        else
            r = mid;
    }
    int c = 0;
    while (l < m->n && m->pair[l] == key) {
        c++;
        l++;
    }
    return c;
}

/* Repeat meetings inside one table. */
static int table_cost(const store_table *t, const met_set *met)
{
    int c = 0;
    for (int a = 0; a < t->nslots; a++)
        for (int b = a + 1; b < t->nslots; b++)
            c += plan__met_count(met, t->entrant[a], t->entrant[b]);
    return c;
}

/* Swiss pairing (pure): `order` is the standings, best first; `played` the
 * matches each entrant has played; `met` who met whom (sorted). From the
 * top down, each table takes the highest entrant not yet placed and the
 * next ones it has met least (fewest repeat meetings, then the closest in
 * the standings). The n mod k lowest-placed entrants who have played most
 * (have not sat out) sit out. Returns the number of tables. */
int plan__swiss_pair(int n, int k, const int *order, const int *played, int round, const met_set *met,
                      store_table *out, int cap)
{
    bool *placed = calloc((size_t)n, sizeof *placed);
    if (!placed)
        return ARB_ENOMEM;
    int byes = n % k;
    for (int i = n - 1; i >= 0 && byes > 0; i--)
        if (played[order[i]] == round - 1) {
            placed[order[i]] = true;
            byes--;
        }
    for (int i = n - 1; i >= 0 && byes > 0; i--)
        if (!placed[order[i]]) {
            placed[order[i]] = true;
            byes--;
        }
    int nt = 0, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        int top = order[i];
        if (placed[top])
            continue;
        if (nt >= cap) {
            rc = ARB_ENOSPC;
            break;
        }
        store_table *t = &out[nt++];
        t->nslots = 0;
        t->entrant[t->nslots++] = top;
        placed[top] = true;
        while (t->nslots < k) {
            int best = -1, best_cost = 1 << 30;
            for (int j = i + 1; j < n; j++) {
                int e = order[j];
                if (placed[e])
                    continue;
                int cost = 0;
                for (int a = 0; a < t->nslots; a++)
                    cost += plan__met_count(met, t->entrant[a], e);
                if (cost < best_cost) {
                    best = e;
                    best_cost = cost;
                }
                if (cost == 0)
                    break;
            }
            if (best < 0)
                break;
            t->entrant[t->nslots++] = best;
            placed[best] = true;
        }
    }
    free(placed);
    if (rc)
        return rc;
    /* Repair: the greedy pass can strand the last entrants with old
     * table-mates. Swap an entrant of a table with a repeat meeting for one
     * at another table whenever that lowers the repeats of the two. */
    for (int pass = 0; pass < 4; pass++) {
        bool improved = false;
        for (int i = 0; i < nt; i++) {
            if (table_cost(&out[i], met) == 0)
                continue;
            for (int x = 0; x < out[i].nslots && table_cost(&out[i], met) > 0; x++)
                for (int j = nt - 1; j >= 0; j--) {
                    if (j == i)
                        continue;
                    int before = table_cost(&out[i], met) + table_cost(&out[j], met), done = 0;
                    for (int y = 0; y < out[j].nslots; y++) {
                        int e = out[i].entrant[x];
                        out[i].entrant[x] = out[j].entrant[y];
                        out[j].entrant[y] = e;
                        if (table_cost(&out[i], met) + table_cost(&out[j], met) < before) {
                            improved = true;
                            done = 1;
                            break;
                        }
                        out[j].entrant[y] = out[i].entrant[x];
                        out[i].entrant[x] = e;
                    }
                    if (done)
                        break;
                }
        }
        if (!improved)
            break;
    }
    return nt;
}

int plan__swiss_round(const tn_config *cfg, const plan_record *rec, int k, int round, store_table *out, int cap)
{
    int n = tn_units(cfg), rc = 0;
    int *order = calloc((size_t)n, sizeof *order);
    int *played = calloc((size_t)n, sizeof *played);
    met_set met = {0};
    if (!order || !played) {
        rc = ARB_ENOMEM;
        goto out;
    }
    if (round == 1) {
        plan__seed_order(cfg, plan__seed(cfg, rec), order);
    } else if (plan__standings_order(rec, n, order) != n) {
        rc = ARB_EIO;
        goto out;
    }
    for (int r = 1; r < round; r++) {
        if (r > rec->nrounds) {
            rc = ARB_EIO;   /* the record lacks a round it should have */
            goto out;
        }
        const store_table *res = rec->rounds[r - 1].order;
        for (int t = 0; t < rec->rounds[r - 1].ntables; t++)
            for (int a = 0; a < res[t].nslots; a++) {
                played[res[t].entrant[a]]++;
                for (int b = a + 1; b < res[t].nslots; b++)
                    plan__met_add(&met, res[t].entrant[a], res[t].entrant[b]);
            }
    }
    if (met.n)   /* none met yet (round 1): met.pair is NULL, which qsort may not take */
        qsort(met.pair, met.n, sizeof *met.pair, plan__cmp_u64);
    rc = plan__swiss_pair(n, k, order, played, round, &met, out, cap);
out:
    free(order);
    free(played);
    free(met.pair);
    return rc;
}
