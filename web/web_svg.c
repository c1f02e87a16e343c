/* web_svg.c — the pictures of the pages, drawn server-side as inline SVG
 * (no script needed to see them): a knockout's bracket from the record's
 * matches, and rating histories as lines (web_int.h). */
#include "web_int.h"
#include "arb_num.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the bracket --------------------------------------------------------- */

#define BOX_W 170
#define COL_W 220
#define ROW_H 16
#define GAP 14

typedef struct box {
    int first, last;     /* seat rows [first, last) of the match in the seats report */
    int round, col;
    int x, y, h;
} box;

static int seat_entrant(const store_rows *r, int row) { return (int)arb_cell_int(store_cell(r, row, STORE_WSEATS_ENTRANT)); }

/* The box of the first match after box b's round that seats entrant u, or -1. */
static int next_box(const store_rows *r, const box *bx, int n, int b, int u)
{
    for (int k = b + 1; k < n; k++) {
        if (bx[k].round <= bx[b].round)
            continue;
        for (int i = bx[k].first; i < bx[k].last; i++)
            if (seat_entrant(r, i) == u)
                return k;
    }
    return -1;
}

int web_svg_bracket(web_page *p, const store_rows *r, bool skip_groups, const int *champions, int nchampions)
{
    int cap = 0;
    for (int i = 0; i < r->nrows; i++)
        cap += i == 0 || strcmp(store_cell(r, i, STORE_WSEATS_MATCH), store_cell(r, i - 1, STORE_WSEATS_MATCH)) != 0;
    box *bx = calloc((size_t)cap + 1, sizeof *bx);
    int *height = calloc((size_t)cap + 1, sizeof *height);
    if (!bx || !height) {
        free(bx);
        free(height);
        return ARB_ENOMEM;
    }
    int n = 0, ncols = 0, last_round = -1, maxh = 0;
    for (int i = 0; i < r->nrows;) {
        int j = i + 1;
        while (j < r->nrows && strcmp(store_cell(r, j, STORE_WSEATS_MATCH), store_cell(r, i, STORE_WSEATS_MATCH)) == 0)
            j++;
        int round = (int)arb_cell_int(store_cell(r, i, STORE_WSEATS_ROUND));
        if (!(skip_groups && strcmp(store_cell(r, i, STORE_WSEATS_STAGE), "group") == 0)) {
            if (round != last_round) {
                ncols++;
                last_round = round;
            }
            box *b = &bx[n++];
            b->first = i;
            b->last = j;
            b->round = round;
            b->col = ncols - 1;
            b->h = (j - i) * ROW_H + 8;
            b->x = 10 + b->col * COL_W;
            b->y = 30 + height[b->col];
            height[b->col] += b->h + GAP;
            if (height[b->col] > maxh)
                maxh = height[b->col];
        }
        i = j;
    }
    int rc = 0;
    if (n == 0)
        goto out;
    arb_buf *o = p->b;
    arb_buf_printf(o, "<div class=\"scroll\" tabindex=\"0\"><svg class=\"bracket\" role=\"group\" aria-labelledby=\"bracket-title\" "
                      "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
                      "<title id=\"bracket-title\">The bracket: each round a column, each table a box, "
                      "the winner in bold; lines follow each entrant to its next table (dashed: after a loss)</title>",
                   ncols * COL_W, maxh + 40, ncols * COL_W, maxh + 40);
    for (int c = 0, k = 0; c < ncols; c++) {
        while (k < n && bx[k].col < c)
            k++;
        if (k < n)
            arb_buf_printf(o, "<text x=\"%d\" y=\"18\">round %d</text>", 10 + c * COL_W, bx[k].round);
    }
    for (int k = 0; k < n; k++) {
        const box *b = &bx[k];
        for (int i = b->first; i < b->last; i++) {
            int to = next_box(r, bx, n, k, seat_entrant(r, i));
            if (to < 0)
                continue;
            const box *t = &bx[to];
            int y1 = b->y + 4 + (i - b->first) * ROW_H + ROW_H / 2 + 2, y2 = t->y + t->h / 2;
            int x1 = b->x + BOX_W, x2 = t->x, xm = x1 + (COL_W - BOX_W) / 2;
            bool won = strcmp(store_cell(r, i, STORE_WSEATS_RANK), "1") == 0;
            arb_buf_printf(o, "<path class=\"link%s\" d=\"M%d %dH%dV%dH%d\"/>", won ? "" : " lost", x1, y1, xm, y2, x2);
        }
    }
    for (int k = 0; k < n; k++) {
        const box *b = &bx[k];
        arb_buf_printf(o, "<a href=\"");
        web_link(p, "/m/%s", store_cell(r, b->first, STORE_WSEATS_MATCH));
        arb_buf_printf(o, "\"><rect class=\"box\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>", b->x, b->y,
                       BOX_W, b->h);
        for (int i = b->first; i < b->last; i++) {
            const char *rank = store_cell(r, i, STORE_WSEATS_RANK), *total = store_cell(r, i, STORE_WSEATS_TOTAL);
            bool won = strcmp(rank, "1") == 0;
            if (k == n - 1 && nchampions > 0) {   /* the final: its champion, after any tie-break */
                won = false;
                for (int c = 0; c < nchampions; c++)
                    won = won || champions[c] == seat_entrant(r, i);
            }
            arb_buf_printf(o, "<text x=\"%d\" y=\"%d\"%s>", b->x + 6, b->y + 4 + (i - b->first + 1) * ROW_H - 3,
                           won ? " class=\"won\"" : "");
            web_h(o, store_cell(r, i, STORE_WSEATS_NAME));
            if (total[0]) {
                arb_buf_puts(o, " (");
                web_h(o, total);
                arb_buf_puts(o, ")");
            }
            arb_buf_puts(o, "</text>");
        }
        arb_buf_puts(o, "</a>");
    }
    rc = arb_buf_puts(o, "</svg></div>\n");
out:
    free(bx);
    free(height);
    return rc;
}

/* ---- rating histories ---------------------------------------------------- */

#define CHART_W 640
#define CHART_H 260
#define PAD_L 48
#define PAD_R 150
#define PAD_T 12
#define PAD_B 28

static const char *const palette[] = {"#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c",
                                      "#0e7490", "#a16207", "#be185d", "#4d7c0f", "#475569"};

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
    double xs = (double)(CHART_W - PAD_L - PAD_R) / (h->nrows > 1 ? h->nrows - 1 : 1);
    double ys = (CHART_H - PAD_T - PAD_B) / (hi - lo);
    arb_buf_printf(o, "<div class=\"scroll\" tabindex=\"0\"><svg class=\"chart\" role=\"img\" aria-label=\"");
    web_h(o, title);
    arb_buf_printf(o, "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">",
                   CHART_W, CHART_H, CHART_W, CHART_H);
    arb_buf_printf(o, "<path class=\"axis\" d=\"M%d %dV%dH%d\"/>", PAD_L, PAD_T, CHART_H - PAD_B, CHART_W - PAD_R);
    arb_buf_printf(o, "<text x=\"4\" y=\"%d\">%.1f</text><text x=\"4\" y=\"%d\">%.1f</text>", PAD_T + 10, hi,
                   CHART_H - PAD_B, lo);
    arb_buf_printf(o, "<text x=\"%d\" y=\"%d\">rating (mu) after each rated match, in order</text>", PAD_L,
                   CHART_H - 8);
    for (int k = 0; k < ns; k++) {
        const char *color = palette[k % (int)(sizeof palette / sizeof *palette)];
        arb_buf_printf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color);
        for (int i = 0; i < h->nrows; i++)
            if ((int)arb_cell_int(store_cell(h, i, STORE_WHISTORY_ENTRANT)) == s[k].entrant)
                arb_buf_printf(o, "%.1f,%.1f ", PAD_L + i * xs,
                               CHART_H - PAD_B - (arb_cell_float(store_cell(h, i, STORE_WHISTORY_MU)) - lo) * ys);
        arb_buf_printf(o, "\"/><rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                       CHART_W - PAD_R + 10, PAD_T + k * 16, color, CHART_W - PAD_R + 24, PAD_T + k * 16 + 9);
        web_h(o, s[k].name);
        arb_buf_puts(o, "</text>");
    }
    return arb_buf_puts(o, "</svg></div>\n");
}
