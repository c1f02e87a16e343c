/* web_svg.c — the pictures of the pages, drawn server-side as inline SVG
 * (no script needed to see them): a knockout's bracket from the record's
 * matches, and rating histories as lines (web_int.h). */
#include "web_int.h"
#include "arb_num.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the bracket --------------------------------------------------------- */

/* A box of the drawing: a match (a link to its page), a bye, or a group of
 * the group stage with its members and qualifiers. Each knockout round is
 * a column; a double elimination's losers' bracket is a band of its own
 * under the winners' (where the grand final and its reset stand too). A
 * line goes from an entrant's row to the next box it plays in, as an
 * orthogonal elbow; in a double elimination a loser's drop is said in its
 * box ("loser → L2") instead of drawn across the bands. */
#define BOX_W 190
#define COL_W 240
#define ROW_H 16
#define GAP 14
#define BAND_GAP 44

enum box_kind { BOX_MATCH, BOX_BYE, BOX_GROUP };
enum box_section { SEC_MAIN, SEC_WINNERS, SEC_LOSERS, SEC_FINAL, SEC_RESET };

typedef struct box {
    enum box_kind kind;
    enum box_section section;
    int first, last;     /* BOX_MATCH: its seat rows [first, last); BOX_GROUP: its members in order[first, last) */
    int entrant;         /* BOX_BYE: who */
    int round, col, band;
    int x, y, h;
    char code[24];       /* the box's heading ("W1", "Grand final", "Group A", "bye"; "" none) */
    char drop[40];       /* double elimination: where its loser goes ("loser → L2"; "" none) */
} box;

typedef struct bracket {
    const store_rows *r;
    box *bx;
    int n, nmatch;       /* boxes; the first nmatch are the matches, in the report's order */
    int ne;              /* entrant indexes are below it */
    int *order;          /* BOX_GROUP members, group by group */
    double *gpoints;     /* each entrant's group-stage match points */
    bool *in_ko;         /* whether the entrant played a knockout match */
    int *name_row;       /* a seat row of each entrant's: its name */
    int ncols, ko_col;   /* columns; the first knockout column */
    int band_h[2];
    int *col_h;          /* [2 * ncols]: each band's column height so far */
} bracket;

static int seat_entrant(const store_rows *r, int row) { return (int)arb_cell_int(store_cell(r, row, STORE_WSEATS_ENTRANT)); }
static bool is_group(const store_rows *r, int row) { return strcmp(store_cell(r, row, STORE_WSEATS_STAGE), "group") == 0; }
static int seat_rank(const store_rows *r, int row)
{
    const char *v = store_cell(r, row, STORE_WSEATS_RANK);
    return v[0] ? (int)arb_cell_int(v) : 0;
}

/* Whether the seat lost its match: a rank below the table's best. */
static bool seat_lost(const store_rows *r, const box *b, int row)
{
    int best = 0;
    for (int i = b->first; i < b->last; i++)
        if (seat_rank(r, i) > 0 && (best == 0 || seat_rank(r, i) < best))
            best = seat_rank(r, i);
    return best > 0 && seat_rank(r, row) > best;
}

/* The first match after round `after` that seats entrant u, or -1. */
static int next_match(const bracket *k, int after, int u)
{
    int best = -1;
    for (int m = 0; m < k->nmatch; m++) {
        const box *b = &k->bx[m];
        if (b->round <= after || (best >= 0 && b->round >= k->bx[best].round))
            continue;
        for (int i = b->first; i < b->last; i++)
            if (seat_entrant(k->r, i) == u)
                best = m;
    }
    return best;
}

/* A box's rows: a match's seats, a group's members, a bye's one. */
static int box_rows(const box *b) { return b->kind == BOX_BYE ? 1 : b->last - b->first; }
static int box_head(const box *b) { return b->code[0] ? ROW_H : 0; }
/* The y of row i's middle, in the band's coordinates. */
static int row_mid(const box *b, int i) { return b->y + 4 + box_head(b) + i * ROW_H + ROW_H / 2; }

static void place(bracket *k, box *b)
{
    b->h = box_head(b) + box_rows(b) * ROW_H + (b->drop[0] ? ROW_H : 0) + 8;
    b->x = 10 + b->col * COL_W;
    int *h = &k->col_h[b->band * k->ncols + b->col];
    b->y = *h;
    *h += b->h + GAP;
    if (*h > k->band_h[b->band])
        k->band_h[b->band] = *h;
}

/* The group stage: entrants who shared a table are in one group (union by
 * tables); a group box per group, its members by group-stage points. */
static void add_groups(bracket *k)
{
    const store_rows *r = k->r;
    int *parent = k->order + k->ne;   /* scratch: the second half */
    for (int u = 0; u < k->ne; u++)
        parent[u] = -1;
    for (int i = 0; i < r->nrows; i++)
        if (is_group(r, i)) {
            int u = seat_entrant(r, i);
            if (parent[u] < 0)
                parent[u] = u;
            k->gpoints[u] += arb_cell_float(store_cell(r, i, STORE_WSEATS_POINTS));
        }
    for (int i = 1; i < r->nrows; i++)   /* the seats of one match: join each to the first's */
        if (is_group(r, i) && strcmp(store_cell(r, i, STORE_WSEATS_MATCH), store_cell(r, i - 1, STORE_WSEATS_MATCH)) == 0) {
            int a = seat_entrant(r, i - 1), b = seat_entrant(r, i);
            while (parent[a] != a)
                a = parent[a];
            while (parent[b] != b)
                b = parent[b];
            if (a != b)
                parent[b] = a;
        }
    int used = 0, ngroups = 0, last_round = 0;
    for (int i = 0; i < r->nrows; i++)
        if (is_group(r, i) && (int)arb_cell_int(store_cell(r, i, STORE_WSEATS_ROUND)) > last_round)
            last_round = (int)arb_cell_int(store_cell(r, i, STORE_WSEATS_ROUND));
    for (int i = 0; i < r->nrows; i++) {   /* groups in the order their first table comes */
        int root = is_group(r, i) ? seat_entrant(r, i) : -1;
        while (root >= 0 && parent[root] != root)
            root = parent[root];
        bool seen = false;
        for (int g = k->nmatch; root >= 0 && g < k->n; g++)
            seen = seen || k->bx[g].entrant == root;
        if (root < 0 || seen)
            continue;
        box *b = &k->bx[k->n++];
        *b = (box){.kind = BOX_GROUP, .first = used, .entrant = root, .round = last_round, .col = 0};
        snprintf(b->code, sizeof b->code, "Group %c%s", 'A' + ngroups % 26, ngroups >= 26 ? "'" : "");
        ngroups++;
        for (int u = 0; u < k->ne; u++) {
            int x = u;
            while (x >= 0 && parent[x] != x)
                x = parent[x];
            if (x != root)
                continue;
            int at = used++;   /* insertion by points, then index */
            while (at > b->first && k->gpoints[k->order[at - 1]] < k->gpoints[u]) {
                k->order[at] = k->order[at - 1];
                at--;
            }
            k->order[at] = u;
        }
        b->last = used;
        place(k, b);
    }
}

/* Classify the matches of a double elimination by the losses of the
 * entrants they seat, replayed in order: none, the winners' bracket; the
 * format's final and reset by their stage; else the losers' bracket. */
static void double_sections(bracket *k)
{
    uint8_t *losses = (uint8_t *)(k->order + k->ne);   /* scratch */
    memset(losses, 0, (size_t)k->ne);
    int nw = 0, nl = 0;
    for (int m = 0; m < k->nmatch; m++) {
        box *b = &k->bx[m];
        const char *stage = store_cell(k->r, b->first, STORE_WSEATS_STAGE);
        bool clean = true;
        for (int i = b->first; i < b->last; i++)
            clean = clean && losses[seat_entrant(k->r, i)] == 0;
        if (strcmp(stage, "final") == 0) {
            b->section = SEC_FINAL;
            snprintf(b->code, sizeof b->code, "Grand final");
        } else if (strcmp(stage, "reset") == 0) {
            b->section = SEC_RESET;
            snprintf(b->code, sizeof b->code, "Grand final reset");
        } else {
            b->section = clean ? SEC_WINNERS : SEC_LOSERS;
            snprintf(b->code, sizeof b->code, "%c%d", clean ? 'W' : 'L', clean ? ++nw : ++nl);
        }
        b->band = b->section == SEC_LOSERS;
        for (int i = b->first; i < b->last; i++)
            if (seat_lost(k->r, b, i) && losses[seat_entrant(k->r, i)] < 2)
                losses[seat_entrant(k->r, i)]++;
    }
    for (int m = 0; m < k->nmatch; m++) {   /* where each loser goes */
        box *b = &k->bx[m];
        for (int i = b->first; i < b->last; i++)
            if (seat_lost(k->r, b, i)) {
                int to = next_match(k, b->round, seat_entrant(k->r, i));
                if (to >= 0)
                    snprintf(b->drop, sizeof b->drop, "loser → %s", k->bx[to].code);
                else
                    snprintf(b->drop, sizeof b->drop, "loser is out");
                break;
            }
    }
}

/* A bye: an entrant whose first knockout match is after the first
 * knockout round sat out the round before it. */
static void add_byes(bracket *k)
{
    for (int m = 0; m < k->nmatch; m++) {
        const box *t = &k->bx[m];
        for (int i = t->first; i < t->last && t->col > k->ko_col; i++) {
            int u = seat_entrant(k->r, i);
            bool earlier = false;
            for (int e = 0; e < m && !earlier; e++)
                for (int j = k->bx[e].first; j < k->bx[e].last; j++)
                    earlier = earlier || seat_entrant(k->r, j) == u;
            if (earlier)
                continue;
            box *b = &k->bx[k->n++];
            *b = (box){.kind = BOX_BYE, .entrant = u, .round = t->round - 1, .col = t->col - 1, .band = t->band,
                       .first = i};
            snprintf(b->code, sizeof b->code, "bye");
            place(k, b);
        }
    }
}

/* The lines: from each row that goes on to the box it goes to. */
static void draw_links(web_page *p, const bracket *k, bool double_elim, const int *top)
{
    for (int a = 0; a < k->n; a++) {
        const box *b = &k->bx[a];
        for (int i = 0; i < box_rows(b); i++) {
            int u = b->kind == BOX_MATCH ? seat_entrant(k->r, b->first + i)
                    : b->kind == BOX_GROUP ? k->order[b->first + i] : b->entrant;
            if (b->kind == BOX_MATCH && double_elim && seat_lost(k->r, b, b->first + i))
                continue;   /* said in the box, not drawn */
            int to = next_match(k, b->round, u);
            if (to < 0)
                continue;
            /* a group's qualifier with a bye goes to its bye */
            for (int y = k->nmatch; b->kind == BOX_GROUP && y < k->n; y++)
                if (k->bx[y].kind == BOX_BYE && k->bx[y].entrant == u)
                    to = y;
            const box *t = &k->bx[to];
            int x1 = b->x + BOX_W, y1 = top[b->band] + row_mid(b, i), x2 = t->x, y2 = top[t->band] + t->y + t->h / 2;
            int xm = x2 - (COL_W - BOX_W) / 2;
            arb_buf_printf(p->b, "<path class=\"link\" fill=\"none\" d=\"M%d %dH%dV%dH%d\"/>", x1, y1, xm, y2, x2);
        }
    }
}

static void draw_box(web_page *p, const bracket *k, int a, int top, const int *champions, int nchampions)
{
    arb_buf *o = p->b;
    const box *b = &k->bx[a];
    const store_rows *r = k->r;
    int y = top + b->y;
    if (b->kind == BOX_MATCH) {
        arb_buf_puts(o, "<a href=\"");
        web_link(p, "/m/%s", store_cell(r, b->first, STORE_WSEATS_MATCH));
        arb_buf_printf(o, "\"><rect class=\"box\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>", b->x, y,
                       BOX_W, b->h);
    } else {
        arb_buf_printf(o, "<g><rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>",
                       b->kind == BOX_GROUP ? "group" : "bye", b->x, y, BOX_W, b->h);
    }
    if (b->code[0])
        arb_buf_printf(o, "<text class=\"code\" x=\"%d\" y=\"%d\">%s</text>", b->x + 6, y + 4 + ROW_H - 3, b->code);
    for (int i = 0; i < box_rows(b); i++) {
        int ty = y + 4 + box_head(b) + (i + 1) * ROW_H - 3;
        if (b->kind == BOX_MATCH) {
            int row = b->first + i;
            const char *total = store_cell(r, row, STORE_WSEATS_TOTAL);
            bool won = seat_rank(r, row) == 1;
            if (a == k->nmatch - 1 && nchampions > 0) {   /* the final: its champion, after any tie-break */
                won = false;
                for (int c = 0; c < nchampions; c++)
                    won = won || champions[c] == seat_entrant(r, row);
            }
            arb_buf_printf(o, "<text x=\"%d\" y=\"%d\"%s>", b->x + 6, ty, won ? " class=\"won\"" : "");
            web_h(o, store_cell(r, row, STORE_WSEATS_NAME));
            if (total[0]) {
                arb_buf_puts(o, " (");
                web_h(o, total);
                arb_buf_puts(o, ")");
            }
        } else {
            int u = b->kind == BOX_GROUP ? k->order[b->first + i] : b->entrant;
            bool q = b->kind == BOX_GROUP && u < k->ne && k->in_ko[u];
            arb_buf_printf(o, "<text x=\"%d\" y=\"%d\"%s>", b->x + 6, ty, q ? " class=\"won\"" : "");
            web_h(o, store_cell(r, k->name_row[u], STORE_WSEATS_NAME));
            if (b->kind == BOX_GROUP)
                arb_buf_printf(o, " (%.4g pts)%s", k->gpoints[u], q ? " ✓ qualified" : "");
        }
        arb_buf_puts(o, "</text>");
    }
    if (b->drop[0])
        arb_buf_printf(o, "<text class=\"drop\" x=\"%d\" y=\"%d\">%s</text>", b->x + 6, y + b->h - 7, b->drop);
    arb_buf_puts(o, b->kind == BOX_MATCH ? "</a>" : "</g>");
}

static int bracket_load(bracket *k, const store_rows *r, web_bracket_kind kind)
{
    int matches = 0, last_ko = -1;
    k->r = r;
    k->ne = 1;
    for (int i = 0; i < r->nrows; i++) {
        matches += i == 0 || strcmp(store_cell(r, i, STORE_WSEATS_MATCH), store_cell(r, i - 1, STORE_WSEATS_MATCH)) != 0;
        int u = seat_entrant(r, i);
        if (u < 0 || u >= ARB_TN_MAX_ENTRANTS)
            return ARB_ECORRUPT;
        k->ne = u + 1 > k->ne ? u + 1 : k->ne;
    }
    k->bx = calloc((size_t)(matches + r->nrows + 1), sizeof *k->bx);
    k->order = calloc((size_t)k->ne * 2 + 8, sizeof *k->order);
    k->gpoints = calloc((size_t)k->ne, sizeof *k->gpoints);
    k->in_ko = calloc((size_t)k->ne, sizeof *k->in_ko);
    k->col_h = calloc((size_t)(matches + 2) * 2, sizeof *k->col_h);
    k->name_row = calloc((size_t)k->ne, sizeof *k->name_row);
    if (!k->bx || !k->order || !k->gpoints || !k->in_ko || !k->col_h || !k->name_row)
        return ARB_ENOMEM;
    for (int i = r->nrows - 1; i >= 0; i--)
        k->name_row[seat_entrant(r, i)] = i;
    k->ko_col = kind == WEB_BRACKET_GROUPS ? 1 : 0;
    k->ncols = k->ko_col;
    for (int i = 0; i < r->nrows;) {
        int j = i + 1;
        while (j < r->nrows && strcmp(store_cell(r, j, STORE_WSEATS_MATCH), store_cell(r, i, STORE_WSEATS_MATCH)) == 0)
            j++;
        int round = (int)arb_cell_int(store_cell(r, i, STORE_WSEATS_ROUND));
        if (!is_group(r, i)) {
            if (round != last_ko) {
                k->ncols++;
                last_ko = round;
            }
            k->bx[k->nmatch++] = (box){.kind = BOX_MATCH, .first = i, .last = j, .round = round, .col = k->ncols - 1};
            for (int s = i; s < j; s++)
                k->in_ko[seat_entrant(r, s)] = true;
        }
        i = j;
    }
    k->n = k->nmatch;
    return 0;
}

static void bracket_release(bracket *k)
{
    free(k->bx);
    free(k->order);
    free(k->gpoints);
    free(k->in_ko);
    free(k->col_h);
    free(k->name_row);
}

int web_svg_bracket(web_page *p, const store_rows *r, web_bracket_kind kind, const int *champions, int nchampions)
{
    bracket k = {0};
    int rc = bracket_load(&k, r, kind);
    if (rc || k.nmatch == 0)
        goto out;
    bool double_elim = kind == WEB_BRACKET_DOUBLE;
    if (double_elim)
        double_sections(&k);
    for (int m = 0; m < k.nmatch; m++)
        place(&k, &k.bx[m]);
    if (kind == WEB_BRACKET_GROUPS)
        add_groups(&k);
    add_byes(&k);
    int top[2] = {double_elim ? 50 : 30, 0};
    top[1] = top[0] + k.band_h[0] + BAND_GAP;
    int width = k.ncols * COL_W, height = (k.band_h[1] ? top[1] + k.band_h[1] : top[0] + k.band_h[0]) + 10;
    arb_buf *o = p->b;
    arb_buf_printf(o, "<div class=\"scroll\" tabindex=\"0\"><svg class=\"bracket\" role=\"group\" aria-labelledby=\"bracket-title\" "
                      "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
                      "<title id=\"bracket-title\">The bracket: each round a column, each table a box, the winner in "
                      "bold; a line from each entrant that goes on to its next table%s</title>",
                   width, height, width, height,
                   double_elim ? ". Winners' bracket above, losers' bracket below; each box says where its loser "
                                 "goes; the grand final and its reset at the end"
                   : kind == WEB_BRACKET_GROUPS ? ". First the groups, their qualifiers ticked; a bye is a box of its own"
                                                : "");
    if (kind == WEB_BRACKET_GROUPS)
        arb_buf_puts(o, "<text class=\"head\" x=\"10\" y=\"18\">Groups</text>");
    for (int c = k.ko_col, m = 0; c < k.ncols; c++) {
        while (m < k.nmatch && k.bx[m].col < c)
            m++;
        if (m < k.nmatch)
            arb_buf_printf(o, "<text x=\"%d\" y=\"18\">round %d</text>", 10 + c * COL_W, k.bx[m].round);
    }
    if (double_elim) {
        arb_buf_printf(o, "<text class=\"head\" x=\"10\" y=\"%d\">Winners' bracket</text>", top[0] - 10);
        if (k.band_h[1])
            arb_buf_printf(o, "<text class=\"head\" x=\"10\" y=\"%d\">Losers' bracket</text>", top[1] - 10);
    }
    draw_links(p, &k, double_elim, top);
    for (int a = 0; a < k.n; a++)
        draw_box(p, &k, a, top[k.bx[a].band], champions, nchampions);
    rc = arb_buf_puts(o, "</svg></div>\n");
out:
    bracket_release(&k);
    return rc;
}

/* ---- rating histories ---------------------------------------------------- */

#define CHART_W 680
#define CHART_H 300
#define PAD_L 56
#define PAD_R 160
#define PAD_T 14
#define PAD_B 44

static const char *const palette[] = {"#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c",
                                      "#0e7490", "#a16207", "#be185d", "#4d7c0f", "#475569"};

/* A step of 1, 2 or 5 times a power of ten giving about `want` ticks over
 * span; *decimals: the digits after the point its labels need. */
static double nice_step(double span, int want, int *decimals)
{
    double raw = span / want, mag = pow(10, floor(log10(raw))), f = raw / mag;
    double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    int d = (int)-floor(log10(step) + 1e-9);
    *decimals = d > 0 ? d : 0;
    return step;
}

/* A tick's label: no "-0" (a value within half a step's last digit of 0). */
static void tick_label(arb_buf *o, double v, double step, int decimals)
{
    if (fabs(v) < step * 1e-6)
        v = 0;
    arb_buf_printf(o, "%.*f", decimals, v);
}

/* The axes: y ticks at round values of mu over [lo, hi] (widened to them),
 * x ticks at round counts of rated matches; their labels and the axes'
 * names. */
static void chart_axes(arb_buf *o, double lo, double hi, double ystep, int ydec, int n, double xs, double ys)
{
    int x0 = PAD_L, y0 = CHART_H - PAD_B, x1 = CHART_W - PAD_R;
    arb_buf_printf(o, "<path class=\"axis\" fill=\"none\" d=\"M%d %dV%dH%d\"/>", x0, PAD_T, y0, x1);
    for (double v = lo; v <= hi + ystep * 1e-6; v += ystep) {
        double y = y0 - (v - lo) * ys;
        arb_buf_printf(o, "<path class=\"grid\" fill=\"none\" d=\"M%d %.1fH%d\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" "
                          "text-anchor=\"end\">", x0 - 4, y, x1, x0 - 7, y + 4);
        tick_label(o, v, ystep, ydec);
        arb_buf_puts(o, "</text>");
    }
    int dec;
    double xstep = n > 1 ? nice_step(n - 1, 6, &dec) : 1;
    xstep = xstep < 1 ? 1 : xstep;
    for (double v = 0; v <= n - 1 + 1e-9; v += xstep)
        arb_buf_printf(o, "<path class=\"axis\" fill=\"none\" d=\"M%.1f %dV%d\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\" "
                          "text-anchor=\"middle\">%.0f</text>", x0 + v * xs, y0, y0 + 4, x0 + v * xs, y0 + 16, v + 1);
    arb_buf_printf(o, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">rating updates of these entries "
                      "(one a rated match each), in the order applied</text>", (x0 + x1) / 2, CHART_H - 6);
    arb_buf_printf(o, "<text class=\"label\" transform=\"rotate(-90)\" x=\"%d\" y=\"14\" text-anchor=\"middle\">"
                      "rating μ</text>", -(PAD_T + y0) / 2);
}

int web_svg_chart(web_page *p, const char *title, const web_series *s, int ns, const store_rows *h)
{
    /* h: entrant, match, mu, sigma in the order applied; x is that order */
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < h->nrows; i++) {
        double mu = arb_cell_float(store_cell(h, i, STORE_WHISTORY_MU));
        lo = mu < lo ? mu : lo;
        hi = mu > hi ? mu : hi;
    }
    arb_buf *o = p->b;
    if (h->nrows == 0)
        return arb_buf_puts(o, "<p class=\"muted\">No rated match yet.</p>\n");
    if (hi - lo < 1e-9) {
        hi += 1;
        lo -= 1;
    }
    int ydec;
    double ystep = nice_step(hi - lo, 5, &ydec);
    lo = floor(lo / ystep) * ystep;
    hi = ceil(hi / ystep) * ystep;
    double xs = (double)(CHART_W - PAD_L - PAD_R) / (h->nrows > 1 ? h->nrows - 1 : 1);
    double ys = (CHART_H - PAD_T - PAD_B) / (hi - lo);
    arb_buf_printf(o, "<div class=\"scroll\" tabindex=\"0\"><svg class=\"chart\" role=\"img\" aria-labelledby=\"chart-title\" "
                      "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
                      "<title id=\"chart-title\">", CHART_W, CHART_H, CHART_W, CHART_H);
    web_h(o, title);
    arb_buf_puts(o, ": each entry's rating μ after each rated match, a line per entry named in the legend</title>");
    chart_axes(o, lo, hi, ystep, ydec, h->nrows, xs, ys);
    for (int k = 0; k < ns; k++) {
        /* the colour by attribute (the light scheme's); class cN lets
         * style.css lighten it for the dark scheme (3:1 against its ground) */
        int kc = k % (int)(sizeof palette / sizeof *palette);
        const char *color = palette[kc];
        int last = -1;
        arb_buf_printf(o, "<g><title>");
        web_h(o, s[k].name);
        arb_buf_printf(o, "</title><polyline class=\"line c%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                       kc, color);
        for (int i = 0; i < h->nrows; i++)
            if ((int)arb_cell_int(store_cell(h, i, STORE_WHISTORY_ENTRANT)) == s[k].entrant) {
                arb_buf_printf(o, "%.1f,%.1f ", PAD_L + i * xs,
                               CHART_H - PAD_B - (arb_cell_float(store_cell(h, i, STORE_WHISTORY_MU)) - lo) * ys);
                last = i;
            }
        arb_buf_puts(o, "\"/>");
        if (last >= 0) {   /* its last point: the full values on hover */
            arb_buf_printf(o, "<circle class=\"c%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>", kc,
                           PAD_L + last * xs, CHART_H - PAD_B - (arb_cell_float(store_cell(h, last, STORE_WHISTORY_MU)) - lo) * ys,
                           color);
            web_h(o, s[k].name);
            arb_buf_puts(o, " after match ");
            web_h(o, store_cell(h, last, STORE_WHISTORY_MATCH));
            arb_buf_puts(o, ": μ ");
            web_h(o, store_cell(h, last, STORE_WHISTORY_MU));
            arb_buf_puts(o, ", σ ");
            web_h(o, store_cell(h, last, STORE_WHISTORY_SIGMA));
            arb_buf_puts(o, "</title></circle>");
        }
        /* the legend: a sample of the line, the name and its last mu */
        int ly = PAD_T + k * 18;
        arb_buf_printf(o, "<path class=\"c%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" d=\"M%d %dh18\"/><text "
                          "class=\"legend\" x=\"%d\" y=\"%d\">", kc, color, CHART_W - PAD_R + 12, ly + 6,
                       CHART_W - PAD_R + 36, ly + 10);
        web_h(o, s[k].name);
        if (last >= 0)
            arb_buf_printf(o, " (%.2f)", arb_cell_float(store_cell(h, last, STORE_WHISTORY_MU)));
        arb_buf_puts(o, "</text></g>");
    }
    return arb_buf_puts(o, "</svg></div>\n");
}
