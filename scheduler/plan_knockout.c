/* plan_knockout.c — single elimination, and the knockout after groups:
 * rebuilt from the recorded results every time (the alive units in seed
 * order, the top seeds given the byes a round needs, tables filled in a
 * serpentine so top seeds meet late, the best `advance` of each table
 * going on). */
#include "plan_int.h"
#include "arb_seeds.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One knockout round over `alive` (in seed order). Tables of k send their
 * best `a` on; the top seeds take byes. The number of tables is chosen so
 * that the next round still fills a table (or has a single survivor): a
 * table cannot be played short-handed. When not even one such table fits
 * (k < m < 2k, say), the last m play a final round robin, ranked by points
 * (*final_rr). */
int plan__knockout_tables(const int *alive, int m, int k, int a, store_table *out, int cap, int *nbyes, bool *final_rr)
{
    *final_rr = false;
    *nbyes = 0;
    if (m == k) {
        out[0].nslots = k;
        memcpy(out[0].entrant, alive, (size_t)k * sizeof *alive);
        return 1;
    }
    int nt = m / k;
    int keep = (m - k) / (k - a);   /* tables that leave at least k alive */
    if (keep < nt)
        nt = keep;
    if (nt < 1) {
        *final_rr = true;
        return plan__subsets(alive, m, k, out, cap, -1);
    }
    int byes = m - nt * k;
    *nbyes = byes;
    if (nt > cap)
        return ARB_ENOSPC;
    for (int t = 0; t < nt; t++)
        out[t].nslots = 0;
    for (int i = byes, row = 0; i < m; row++)
        for (int c = 0; c < nt && i < m; c++, i++) {
            int t = row % 2 == 0 ? c : nt - 1 - c;
            out[t].entrant[out[t].nslots++] = alive[i];
        }
    return nt;
}

/* Replay a knockout from round `first` to `last`: who is alive now (in
 * seed order). Returns the count (1: a champion, alive[0]). Every table's
 * order is settled_order's; tr (NULL: none) notes who went out where, the
 * ties, and the bracket. */
int plan__knockout_alive(const tn_config *cfg, const plan_record *rec, int k, const int *start, int nstart, int first,
                          int last, int *alive, store_table *scratch, int cap, ko_track *tr)
{
    int m = nstart;
    memcpy(alive, start, (size_t)m * sizeof *alive);
    int rank[ARB_TN_MAX_ENTRANTS];
    for (int i = 0; i < nstart; i++)
        rank[start[i]] = i;
    for (int r = first; r <= last && m > 1; r++) {
        int byes;
        bool final_rr;
        int nt = plan__knockout_tables(alive, m, k, (int)cfg->advance, scratch, cap, &byes, &final_rr);
        if (nt < 0)
            return nt;
        store_table *order = calloc((size_t)nt, sizeof *order);
        if (!order)
            return ARB_ENOMEM;
        const plan_round *pr = rec && r <= rec->nrounds ? &rec->rounds[r - 1] : NULL;
        plan__ko_print(tr, "round %d%s%s\n", r, final_rr ? " (the final, a round robin)" : m == k ? " (the final)" : "",
                 pr && pr->in_play ? " (in play)" : "");
        if (byes > 0) {
            plan__ko_print(tr, "  byes: ");
            for (int i = 0; i < byes; i++)
                plan__ko_print(tr, "%s%s", i ? ", " : "", plan__unit_name(cfg, alive[i]));
            plan__ko_print(tr, "\n");
        }
        for (int i = 0; tr && i < m; i++)
            tr->seen_round[alive[i]] = r;
        for (int t = 0; t < nt; t++) {
            char note[STORE_NOTE_MAX * 2];
            plan__settled_order(cfg, rec, r, t, &order[t], note, sizeof note);
            if (final_rr)   /* the final round robin counts points, tied places sharing theirs: nothing settled */
                note[0] = 0;
            plan__ko_note_tie(tr, note);
            plan__ko_print(tr, "  ");
            if (order[t].nslots)
                plan__ko_print_names(tr, cfg, &order[t], " > ");
            else
                plan__ko_print_names(tr, cfg, &scratch[t], " vs ");
            plan__ko_print(tr, "%s%s\n", note[0] ? "    tie: " : "", note);
        }
        int next[ARB_TN_MAX_ENTRANTS], nn = 0;
        if (final_rr || m == k) {
            /* the final: most places won (k-1 for a first place, ...),
             * then the score in the final, then the draw */
            double pts[ARB_TN_MAX_ENTRANTS] = {0};
            int64_t tot[ARB_TN_MAX_ENTRANTS] = {0};
            for (int t = 0; pr && t < pr->ntables; t++)
                for (int p = 0; p < pr->order[t].nslots; p++)
                    pts[pr->order[t].entrant[p]] += plan__place_points(pr, t, p, k);
            for (int t = 0; pr && pr->total && t < pr->ntables; t++)
                for (int p = 0; p < pr->order[t].nslots; p++)
                    tot[pr->order[t].entrant[p]] += pr->total[t][p];
            int fo[ARB_TN_MAX_ENTRANTS];
            uint64_t key[ARB_TN_MAX_ENTRANTS];
            memcpy(fo, alive, (size_t)m * sizeof *fo);
            bool drawn = false;
            if (final_rr && m <= ARB_MAX_TN_TIE) {
                char label[64];
                arb_seeds_final_tiebreak_label(label, sizeof label, r);
                plan__draw_keys(cfg, rec, label, fo, m, key);
                for (int i = 1; i < m; i++)
                    for (int j = i; j > 0; j--) {
                        int a = fo[j - 1], b = fo[j];
                        bool swap = pts[b] > pts[a] || (pts[b] == pts[a] && (tot[b] > tot[a]
                                    || (tot[b] == tot[a] && key[j] < key[j - 1])));
                        if (!swap)
                            break;
                        fo[j - 1] = b;
                        fo[j] = a;
                        uint64_t z = key[j]; key[j] = key[j - 1]; key[j - 1] = z;
                    }
                for (int i = 1; i < m; i++)
                    drawn = drawn || (pts[fo[i]] == pts[fo[i - 1]] && tot[fo[i]] == tot[fo[i - 1]]);
            } else if (m == k) {
                memcpy(fo, order[0].entrant, (size_t)order[0].nslots * sizeof *fo);
            }
            bool decided = pr && !pr->in_play;
            if (m == k && order[0].nslots != m)
                memcpy(fo, alive, (size_t)m * sizeof *fo);   /* a void final: the top seed, as before */
            if (final_rr && decided) {
                plan__ko_print(tr, "  the final's order (points, then score, then the draw): ");
                for (int i = 0; i < m; i++)
                    plan__ko_print(tr, "%s%s %.0f (%+" PRId64 ")", i ? " > " : "", plan__unit_name(cfg, fo[i]), pts[fo[i]], tot[fo[i]]);
                plan__ko_print(tr, "\n");
                if (drawn && tr) {
                    char note[STORE_NOTE_MAX];
                    size_t u = (size_t)snprintf(note, sizeof note, "round %d, the final round robin: level on points and "
                                                "score, the seeded draw: ", r);
                    for (int i = 0; i < m && u < sizeof note; i++)
                        u += (size_t)snprintf(note + u, sizeof note - u, "%s%s", i ? " > " : "", plan__unit_name(cfg, fo[i]));
                    plan__ko_note_tie(tr, note);
                }
            }
            if (decided) {
                next[nn++] = fo[0];
                for (int i = 1; tr && i < m; i++) {
                    tr->out_round[fo[i]] = r;
                    tr->out_place[fo[i]] = i;
                }
                if (tr)
                    tr->final_round = r;
            } else {
                memcpy(next, alive, (size_t)m * sizeof *next);   /* in play: nobody is out yet */
                nn = m;
            }
        } else {
            for (int i = 0; i < byes; i++)
                next[nn++] = alive[i];
            for (int t = 0; t < nt; t++) {
                for (int p = 0; p < (int)cfg->advance && p < order[t].nslots; p++)
                    next[nn++] = order[t].entrant[p];
                for (int p = (int)cfg->advance; tr && p < order[t].nslots; p++) {
                    tr->out_round[order[t].entrant[p]] = r;
                    tr->out_place[order[t].entrant[p]] = p;
                }
            }
        }
        free(order);
        /* keep seed order: top seeds stay apart */
        for (int i = 1; i < nn; i++)
            for (int j = i; j > 0 && rank[next[j]] < rank[next[j - 1]]; j--) {
                int x = next[j];
                next[j] = next[j - 1];
                next[j - 1] = x;
            }
        memcpy(alive, next, (size_t)nn * sizeof *alive);
        m = nn;
    }
    return m;
}

/* The entrants of a knockout in seed order, and its first round: everyone
 * from round 1 (single elimination), or the best of each group from round
 * 2 (groups then knockout: group winners first, then runners-up, ...). */
int plan__knockout_start(const tn_config *cfg, const plan_record *rec, int *start, int *first)
{
    int n = tn_units(cfg);
    uint64_t pseed = plan__seed(cfg, rec);
    if (cfg->format == TN_SINGLE_ELIM) {
        plan__seed_order(cfg, pseed, start);
        *first = 1;
        return n;
    }
    int group[ARB_TN_MAX_ENTRANTS], order[ARB_TN_MAX_ENTRANTS], ns = 0;
    plan__groups_of(cfg, pseed, group);
    int got = plan__group_standings(cfg, rec, order);
    for (uint32_t place = 0; place < cfg->advance; place++)
        for (uint32_t g = 0; g < cfg->groups; g++) {
            uint32_t seen = 0;
            for (int i = 0; i < got; i++)
                if (group[order[i]] == (int)g && seen++ == place)
                    start[ns++] = order[i];
        }
    *first = 2;
    return ns;
}

/* Replay the knockout part of a format into tr (ko_track): the units in
 * it (*in_ko per unit), in seed order into start[0..*ns), and those left
 * (alive[0..return)). 0 units left with *ns 0: no knockout to show (other
 * formats, or the group stage not over). */
int plan__ko_replay(const tn_config *cfg, const plan_record *rec, ko_track *tr, int *start, int *ns, int *alive)
{
    int k = plan__units_k(cfg), first;
    static store_table scratch[ARB_TN_MAX_ENTRANTS];
    *ns = 0;
    if (cfg->format == TN_DOUBLE_ELIM) {
        if (k != 2)
            return 0;
        uint8_t losses[ARB_TN_MAX_ENTRANTS];
        static uint8_t bracket[ARB_TN_MAX_ENTRANTS];
        plan__seed_order(cfg, plan__seed(cfg, rec), start);
        *ns = tn_units(cfg);
        int left = plan__de_replay(cfg, rec, start, rec->nrounds, losses, scratch, bracket, ARB_TN_MAX_ENTRANTS, tr);
        if (left < 0)
            return left;
        int m = 0;
        for (int i = 0; i < *ns; i++)
            if (losses[start[i]] < 2)
                alive[m++] = start[i];
        if (m == 1)
            tr->final_round = rec->nrounds;
        return m;
    }
    if (cfg->format != TN_SINGLE_ELIM && cfg->format != TN_GROUPS_KNOCKOUT)
        return 0;
    if (cfg->format == TN_GROUPS_KNOCKOUT && (rec->nrounds < 1 || rec->rounds[0].in_play))
        return 0;
    *ns = plan__knockout_start(cfg, rec, start, &first);
    return plan__knockout_alive(cfg, rec, k, start, *ns, first, rec->nrounds, alive, scratch, ARB_TN_MAX_ENTRANTS, tr);
}
