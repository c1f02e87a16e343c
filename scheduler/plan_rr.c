/* plan_rr.c — round robin and gauntlet: one round holding every table
 * (every k-subset of the units, `cycles` times; the gauntlet's hero at
 * each). */
#include "plan_int.h"

/* Every k-subset of pool[0..n) (lexicographic), as tables. */
int plan__subsets(const int *pool, int n, int k, store_table *out, int cap, int fixed)
{
    int idx[ARB_MAX_SEATS], count = 0, m = k - (fixed >= 0);
    for (int i = 0; i < m; i++)
        idx[i] = i;
    if (m > n)
        return 0;
    for (;;) {
        if (count >= cap)
            return ARB_ENOSPC;
        store_table *t = &out[count++];
        t->nslots = k;
        int s = 0;
        if (fixed >= 0)
            t->entrant[s++] = fixed;
        for (int i = 0; i < m; i++)
            t->entrant[s++] = pool[idx[i]];
        int i = m - 1;
        while (i >= 0 && idx[i] == n - m + i)
            i--;
        if (i < 0)
            return count;
        idx[i]++;
        for (int j = i + 1; j < m; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

int plan__all_tables(const tn_config *cfg, int k, int hero, store_table *out, int cap)
{
    int n = tn_units(cfg), pool[ARB_TN_MAX_ENTRANTS], np = 0;
    for (int i = 0; i < n; i++)
        if (i != hero)
            pool[np++] = i;
    int total = 0;
    for (uint32_t c = 0; c < cfg->cycles; c++) {
        int got = plan__subsets(pool, np, k, out + total, cap - total, hero);
        if (got < 0)
            return got;
        total += got;
    }
    return total;
}
