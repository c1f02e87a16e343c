/* plan_ties.c — ties at a table and placement in the knockout formats
 * (docs/rules/placement.md): the game's places, head-to-head, then the
 * seeded draw; where each unit stands at the end. */
#include "plan_int.h"
#include "arb_seeds.h"
#include "arb_kdf.h"
#include "arb_rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The match points of place p at table t of a round: k-1 for the first
 * place down to 0, tied places sharing theirs evenly (the record's
 * match_seats.points). */
double plan__place_points(const plan_round *pr, int t, int p, int k)
{
    if (!pr->rank)
        return k - 1 - p;
    int lo = p, hi = p;
    while (lo > 0 && pr->rank[t][lo - 1] == pr->rank[t][p])
        lo--;
    while (hi + 1 < pr->order[t].nslots && pr->rank[t][hi + 1] == pr->rank[t][p])
        hi++;
    double sum = 0;
    for (int q = lo; q <= hi; q++)
        sum += k - 1 - q;
    return sum / (hi - lo + 1);
}

void plan__ko_note_tie(ko_track *tr, const char *note)
{
    if (!tr || !note[0] || tr->nties >= 64)
        return;
    size_t n = strnlen(note, STORE_NOTE_MAX - 1);   /* a long note is cut: the record keeps STORE_NOTE_MAX */
    memcpy(tr->ties[tr->nties], note, n);
    tr->ties[tr->nties++][n] = 0;
}

/* A draw among units u[0..m) (rule P2's last link): a key per unit from
 * the tournament's draw seed (plan_seed: keyed with its secret) and the
 * label, dealt in the order of the units' indices so that the seats they
 * sat in change nothing; the lowest key is placed first. */
void plan__draw_keys(const tn_config *cfg, const plan_record *rec, const char *label, const int *u, int m,
                      uint64_t *key)
{
    int idx[ARB_MAX_TN_TIE];
    for (int i = 0; i < m; i++)
        idx[i] = i;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && u[idx[j]] < u[idx[j - 1]]; j--) {
            int x = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = x;
        }
    arb_rng rng;
    arb_rng_seed(&rng, arb_seed_child(plan__seed(cfg, rec), label));
    for (int i = 0; i < m; i++)
        key[idx[i]] = arb_rng_next(&rng);
}

/* Units tied at table t of round r (u[0..m), from place p0) put in order
 * by the chain of rule P2 after the game's verdict: head-to-head (each
 * one's summed score at the earlier tables of this tournament where all
 * of them sat; more first), then the draw. note: what was done. */
static void settle_tie(const tn_config *cfg, const plan_record *rec, int r, int t, int p0, int64_t each, int *u, int m,
                       char *note, size_t notelen)
{
    int64_t h2h[ARB_MAX_TN_TIE] = {0};
    uint64_t key[ARB_MAX_TN_TIE];
    int met = 0;
    for (int r2 = 1; r2 < r; r2++) {
        const plan_round *pr = &rec->rounds[r2 - 1];
        for (int t2 = 0; pr->total && t2 < pr->ntables; t2++) {
            const store_table *o = &pr->order[t2];
            int at[ARB_MAX_TN_TIE], found = 0;
            for (int i = 0; i < m; i++)
                for (int p = 0; p < o->nslots; p++)
                    if (o->entrant[p] == u[i]) {
                        at[i] = p;
                        found++;
                        break;
                    }
            if (found != m)
                continue;
            met++;
            for (int i = 0; i < m; i++)
                h2h[i] += pr->total[t2][at[i]];
        }
    }
    char label[64];
    arb_seeds_tiebreak_label(label, sizeof label, r, t);
    plan__draw_keys(cfg, rec, label, u, m, key);
    int before[ARB_MAX_TN_TIE];
    memcpy(before, u, (size_t)m * sizeof *u);
    int64_t hb[ARB_MAX_TN_TIE];
    memcpy(hb, h2h, sizeof hb);
    bool drawn = false;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0; j--) {
            bool swap = h2h[j] > h2h[j - 1] || (h2h[j] == h2h[j - 1] && key[j] < key[j - 1]);
            if (!swap)
                break;
            int x = u[j]; u[j] = u[j - 1]; u[j - 1] = x;
            int64_t y = h2h[j]; h2h[j] = h2h[j - 1]; h2h[j - 1] = y;
            uint64_t z = key[j]; key[j] = key[j - 1]; key[j - 1] = z;
        }
    for (int i = 1; i < m; i++)
        drawn = drawn || h2h[i] == h2h[i - 1];
    size_t k = (size_t)snprintf(note, notelen, "round %d table %d: ", r, t + 1);
    for (int i = 0; i < m && k < notelen; i++)
        k += (size_t)snprintf(note + k, notelen - k, "%s%s", i ? ", " : "", plan__unit_name(cfg, before[i]));
    if (k < notelen)
        k += (size_t)snprintf(note + k, notelen - k, " tied at place %d (%+" PRId64 " each); head-to-head ", p0 + 1, each);
    if (met == 0 && k < notelen)
        k += (size_t)snprintf(note + k, notelen - k, "none (never met)");
    for (int i = 0; met > 0 && i < m && k < notelen; i++)
        k += (size_t)snprintf(note + k, notelen - k, "%s%s %+" PRId64, i ? ", " : "", plan__unit_name(cfg, before[i]), hb[i]);
    if (k < notelen && drawn)
        k += (size_t)snprintf(note + k, notelen - k, "%s; then the seeded draw", met ? " over the earlier tables" : "");
    if (k < notelen)
        k += (size_t)snprintf(note + k, notelen - k, ": ");
    for (int i = 0; i < m && k < notelen; i++)
        k += (size_t)snprintf(note + k, notelen - k, "%s%s", i ? " > " : "", plan__unit_name(cfg, u[i]));
}

/* Table t of round r in the order the knockouts take it: the game's
 * places (rank), every tie (equal ranks) settled by settle_tie. *out is
 * empty for a table without a result; note "" when nothing was tied. */
void plan__settled_order(const tn_config *cfg, const plan_record *rec, int r, int t, store_table *out, char *note,
                          size_t notelen)
{
    note[0] = 0;
    memset(out, 0, sizeof *out);
    if (!rec || r < 1 || r > rec->nrounds || t >= rec->rounds[r - 1].ntables)
        return;
    const plan_round *pr = &rec->rounds[r - 1];
    *out = pr->order[t];
    if (!pr->rank || !pr->total)
        return;
    size_t used = 0;
    for (int i = 0; i < out->nslots;) {
        int j = i + 1;
        while (j < out->nslots && pr->rank[t][j] == pr->rank[t][i])
            j++;
        if (j - i >= 2 && j - i <= ARB_MAX_TN_TIE && used + 2 < notelen) {
            if (used)
                used += (size_t)snprintf(note + used, notelen - used, "; ");
            settle_tie(cfg, rec, r, t, i, pr->total[t][i], out->entrant + i, j - i, note + used, notelen - used);
            used += strlen(note + used);
        }
        i = j;
    }
}

/* The stage a unit went out in, counted back from the final once there
 * is a champion. Double elimination has no semi- or quarter-final: a unit
 * goes out at its second loss, in the final (the grand final or its
 * reset), in the losers' final (the round before the grand final) or in
 * an earlier round of the losers' bracket. */
static void reached_name(const ko_track *tr, int u, bool champion, char *out, size_t len)
{
    static const char *const back[] = {"final", "semi-final", "quarter-final"};
    int r = tr->out_round[u];
    if (champion)
        snprintf(out, len, "champion");
    else if (r == 0)
        snprintf(out, len, "still in (round %d)", tr->seen_round[u]);
    else if (tr->grand_final_round && r >= tr->grand_final_round)
        snprintf(out, len, "final");
    else if (tr->grand_final_round && r == tr->grand_final_round - 1)
        snprintf(out, len, "losers' final");
    else if (tr->grand_final_round)
        snprintf(out, len, "losers' round %d", r);
    else if (tr->final_round && tr->final_round - r < 3)
        snprintf(out, len, "%s", back[tr->final_round - r]);
    else
        snprintf(out, len, "round %d", r);
}

int plan_placement(const tn_config *cfg, const plan_record *rec, store_place *out, int cap,
                   char (*ties)[STORE_NOTE_MAX], int tcap, int *nties)
{
    *nties = 0;
    ko_track *tr = calloc(1, sizeof *tr);
    int *start = malloc(3 * ARB_TN_MAX_ENTRANTS * sizeof *start);
    int rc = ARB_ENOMEM;
    if (!tr || !start)
        goto out;
    int *alive = start + ARB_TN_MAX_ENTRANTS, *order = alive + ARB_TN_MAX_ENTRANTS, ns;
    int left = plan__ko_replay(cfg, rec, tr, start, &ns, alive);
    rc = left < 0 ? left : 0;
    if (left < 0 || ns == 0)
        goto out;
    int n = tn_units(cfg);
    /* the tie-breaks after the stage: the standings (points, score, wins) */
    int srank[ARB_TN_MAX_ENTRANTS], seed[ARB_TN_MAX_ENTRANTS], gplace[ARB_TN_MAX_ENTRANTS] = {0};
    bool in_ko[ARB_TN_MAX_ENTRANTS] = {false};
    for (int i = 0; i < n; i++)
        srank[i] = seed[i] = n;
    for (int i = 0; i < rec->nstandings; i++)
        if (rec->standings[i].entrant >= 0 && rec->standings[i].entrant < n)
            srank[rec->standings[i].entrant] = i;
    for (int i = 0; i < ns; i++) {
        in_ko[start[i]] = true;
        seed[start[i]] = i;
    }
    if (cfg->format == TN_GROUPS_KNOCKOUT) {   /* place in the group, from the group stage's standings */
        int group[ARB_TN_MAX_ENTRANTS], seen[ARB_TN_MAX_ENTRANTS] = {0}, gorder[ARB_TN_MAX_ENTRANTS];
        plan__groups_of(cfg, plan__seed(cfg, rec), group);
        int got = plan__group_standings(cfg, rec, gorder);
        for (int i = 0; i < got; i++)
            gplace[gorder[i]] = seen[group[gorder[i]]]++;
    }
    bool champion = left == 1 && tr->final_round > 0;
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* in the knockout before out of it; not out before out; out later
     * before out sooner; a better place at the table first; then the
     * group place (out in the group stage); then the standings */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            long ka[5] = {in_ko[a] ? 0 : 1, tr->out_round[a] == 0 ? 0 : 1, tr->out_round[a] == 0 ? -tr->seen_round[a]
                          : -tr->out_round[a], tr->out_round[a] == 0 ? seed[a] : tr->out_place[a], gplace[a]};
            long kb[5] = {in_ko[b] ? 0 : 1, tr->out_round[b] == 0 ? 0 : 1, tr->out_round[b] == 0 ? -tr->seen_round[b]
                          : -tr->out_round[b], tr->out_round[b] == 0 ? seed[b] : tr->out_place[b], gplace[b]};
            int c = 0;
            for (int q = 0; q < 5 && !c; q++)
                c = kb[q] < ka[q] ? -1 : kb[q] > ka[q] ? 1 : 0;
            if (c > 0 || (c == 0 && srank[b] >= srank[a]))
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    int placed = n < cap ? n : cap;
    for (int i = 0; i < placed; i++) {
        int u = order[i];
        out[i] = (store_place){.unit = u, .place = i + 1};
        if (in_ko[u])
            reached_name(tr, u, champion && i == 0, out[i].reached, sizeof out[i].reached);
        else
            snprintf(out[i].reached, sizeof out[i].reached, "group stage");
        /* the unit's own tie, if any: the notes name it */
        for (int t = 0; t < tr->nties && !out[i].tiebreak[0]; t++) {
            const char *name = plan__unit_name(cfg, u), *hit = tr->ties[t];
            size_t ln = strlen(name);
            while ((hit = strstr(hit, name)) != NULL) {
                bool whole = (hit == tr->ties[t] || strchr(" ,>", hit[-1])) && strchr(" ,>()", hit[ln] ? hit[ln] : ' ');
                if (whole) {
                    memcpy(out[i].tiebreak, tr->ties[t], sizeof out[i].tiebreak);
                    break;
                }
                hit += ln;
            }
        }
    }
    for (int t = 0; t < tr->nties && t < tcap; t++)
        memcpy(ties[(*nties)++], tr->ties[t], STORE_NOTE_MAX);
    rc = placed;
out:
    free(tr);
    free(start);
    return rc;
}
