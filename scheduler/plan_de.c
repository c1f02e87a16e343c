/* plan_de.c — double elimination (two-sided tables): out after two
 * losses, a grand final and its reset. */
#include "plan_int.h"

#include <string.h>

/* Double elimination, for two-sided tables (two players, or two teams):
 * nobody is out before losing twice. The state is each unit's losses,
 * replayed from the recorded rounds; each round pairs, in seed order (top
 * seeds take the byes, tables in a serpentine as in single elimination),
 * the units without a loss (the winners' bracket) and, beside them, those
 * with one (the losers' bracket, where each winners' round drops its
 * losers). When one unit without a loss and one with a loss are left,
 * they meet in the grand final; if the losers' bracket's unit wins it,
 * both have lost once and they meet again (the reset). A round's tables
 * are its winners' tables first, then its losers'. */
enum { DE_WINNERS, DE_LOSERS, DE_FINAL, DE_RESET };
static const char *const de_bracket_names[] = {"winners", "losers", "grand final", "grand final reset"};

int plan__de_tables(const int *order, int n, const uint8_t *losses, store_table *out, uint8_t *bracket, int cap,
                     const char **stage)
{
    int w[ARB_TN_MAX_ENTRANTS], l[ARB_TN_MAX_ENTRANTS], nw = 0, nl = 0, nt = 0, byes;
    bool rr;
    for (int i = 0; i < n; i++) {
        if (losses[order[i]] == 0)
            w[nw++] = order[i];
        else if (losses[order[i]] == 1)
            l[nl++] = order[i];
    }
    if (nw + nl <= 1)
        return 0;
    if (cap < 1)
        return ARB_ENOSPC;
    if (nw <= 1 && nl <= 2 && nw + nl == 2) {   /* the grand final, or its reset */
        out[0].nslots = 2;
        out[0].entrant[0] = nw ? w[0] : l[0];
        out[0].entrant[1] = l[nw ? 0 : 1];
        bracket[0] = nw ? DE_FINAL : DE_RESET;
        *stage = nw ? "final" : "reset";
        return 1;
    }
    *stage = "knockout";
    if (nw >= 2) {
        int got = plan__knockout_tables(w, nw, 2, 1, out, cap, &byes, &rr);
        if (got < 0)
            return got;
        for (int t = 0; t < got; t++)
            bracket[nt + t] = DE_WINNERS;
        nt += got;
    }
    if (nl >= 2) {
        int got = plan__knockout_tables(l, nl, 2, 1, out + nt, cap - nt, &byes, &rr);
        if (got < 0)
            return got;
        for (int t = 0; t < got; t++)
            bracket[nt + t] = DE_LOSERS;
        nt += got;
    }
    return nt;
}

/* Replay rounds 1..last: each unit's losses after them (a table without a
 * result yet changes nothing; a tie is settled as in every knockout,
 * settled_order). tr (NULL: none) notes the round each unit went out in,
 * the ties and, with its buf, each round's tables as the bracket shows
 * them. Returns the units left (with fewer than two losses), or < 0. */
int plan__de_replay(const tn_config *cfg, const plan_record *rec, const int *order, int last, uint8_t *losses,
                     store_table *scratch, uint8_t *bracket, int cap, ko_track *tr)
{
    int n = tn_units(cfg);
    memset(losses, 0, (size_t)n);
    for (int r = 1; r <= last; r++) {
        const char *stage;
        int nt = plan__de_tables(order, n, losses, scratch, bracket, cap, &stage);
        if (nt <= 0)
            return nt < 0 ? nt : ARB_EIO;   /* the record has a round the format would not make */
        const plan_round *pr = r <= rec->nrounds ? &rec->rounds[r - 1] : NULL;
        plan__ko_print(tr, "round %d%s\n", r, pr && pr->in_play ? " (in play)" : "");
        for (int t = 0; t < nt; t++) {
            store_table o;
            char note[STORE_NOTE_MAX * 2];
            plan__settled_order(cfg, rec, r, t, &o, note, sizeof note);
            bool decided = o.nslots == 2;
            if (decided && ++losses[o.entrant[1]] == 2 && tr)
                tr->out_round[o.entrant[1]] = r;
            for (int e = 0; tr && e < 2; e++)
                tr->seen_round[scratch[t].entrant[e]] = r;
            if (tr && bracket[t] == DE_FINAL)
                tr->grand_final_round = r;
            plan__ko_note_tie(tr, note);
            plan__ko_print(tr, "  %-17s %s %s %s%s%s\n", de_bracket_names[bracket[t]],
                     plan__unit_name(cfg, decided ? o.entrant[0] : scratch[t].entrant[0]), decided ? ">" : "vs",
                     plan__unit_name(cfg, decided ? o.entrant[1] : scratch[t].entrant[1]), note[0] ? "    tie: " : "", note);
        }
    }
    int left = 0;
    for (int i = 0; i < n; i++)
        left += losses[i] < 2;
    return left;
}
