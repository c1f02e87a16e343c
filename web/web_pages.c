/* web_pages.c — every page and JSON answer of the web layer (docs/web.md),
 * one renderer per route for both `arbiter serve` and `arbiter report`,
 * and the live stream's poll. Everything from the record goes out through
 * web_h (HTML) or web_j (JSON). */
#include "web_int.h"
#include "arb_num.h"
#include "rating.h"
#include "tournament.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char HTML_TYPE[] = "text/html; charset=utf-8";
static const char JSON_TYPE[] = "application/json";
static const char TEXT_TYPE[] = "text/plain; charset=utf-8";
static const char NDJSON_TYPE[] = "application/x-ndjson";

void web_out_init(web_out *o)
{
    o->status = 200;
    o->type = HTML_TYPE;
    o->immutable[0] = '\0';
    arb_buf_init(&o->body, ARB_WEB_PAGE_CAP);
}

void web_out_release(web_out *o) { arb_buf_release(&o->body); }

/* ---- links --------------------------------------------------------------- */

bool web_parse_id(const char *s, size_t len, int64_t *id)
{
    if (len == 0 || len > 18 || (s[0] == '0' && len > 1))
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *id = v;
    return true;
}

/* The route split at '/': at most 6 parts, none empty. */
typedef struct route {
    int n;
    const char *part[6];
    size_t len[6];
} route;

static bool split(const char *path, route *r)
{
    r->n = 0;
    if (path[0] != '/')
        return false;
    const char *p = path + 1;
    if (!*p)
        return true;
    while (*p) {
        size_t l = strcspn(p, "/");
        if (l == 0 || r->n == 6)
            return false;
        r->part[r->n] = p;
        r->len[r->n++] = l;
        p += l;
        if (*p == '/' && !*++p)
            return false;   /* a trailing slash: not one of ours */
    }
    return true;
}

static bool is(const route *r, int i, const char *word)
{
    return i < r->n && r->len[i] == strlen(word) && memcmp(r->part[i], word, r->len[i]) == 0;
}

static bool id_at(const route *r, int i, int64_t *id) { return i < r->n && web_parse_id(r->part[i], r->len[i], id); }

const char *web_static_file(const char *path, char *buf, size_t cap)
{
    route r;
    int64_t a, b;
    if (strlen(path) > ARB_WEB_MAX_URL || !split(path, &r))
        return NULL;
    int n = -1;
    if (r.n == 0 || (r.n == 2 && is(&r, 0, "t") && id_at(&r, 1, &a)))
        n = snprintf(buf, cap, "index.html");
    else if (r.n == 4 && is(&r, 0, "t") && id_at(&r, 1, &a) && is(&r, 2, "e") && id_at(&r, 3, &b))
        n = snprintf(buf, cap, "e/%" PRId64 ".html", b);
    else if (r.n == 2 && is(&r, 0, "m") && id_at(&r, 1, &a))
        n = snprintf(buf, cap, "m/%" PRId64 ".html", a);
    else if (r.n == 3 && is(&r, 0, "m") && id_at(&r, 1, &a) && is(&r, 2, "replay"))
        n = snprintf(buf, cap, "m/%" PRId64 "/replay.html", a);
    else if (r.n >= 2 && is(&r, 0, "assets"))
        n = snprintf(buf, cap, "%s", path + 1);
    else if (r.n == 3 && is(&r, 0, "api") && is(&r, 1, "t") && id_at(&r, 2, &a))
        n = snprintf(buf, cap, "api/t.json");
    else if (r.n == 4 && is(&r, 0, "api") && is(&r, 1, "t") && id_at(&r, 2, &a) && is(&r, 3, "standings"))
        n = snprintf(buf, cap, "api/standings.json");
    else if (r.n == 5 && is(&r, 0, "api") && is(&r, 1, "t") && id_at(&r, 2, &a) && is(&r, 3, "e") && id_at(&r, 4, &b))
        n = snprintf(buf, cap, "api/e/%" PRId64 ".json", b);
    else if (r.n == 3 && is(&r, 0, "api") && is(&r, 1, "m") && id_at(&r, 2, &a))
        n = snprintf(buf, cap, "api/m/%" PRId64 ".json", a);
    return n > 0 && (size_t)n < cap ? buf : NULL;
}

void web_link(web_page *p, const char *fmt, ...)
{
    char route_[ARB_WEB_MAX_URL + 1], file[ARB_WEB_MAX_URL + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(route_, sizeof route_, fmt, ap);
    va_end(ap);
    if (p->mode == WEB_SERVED) {
        web_h(p->b, route_);
        return;
    }
    if (!web_static_file(route_, file, sizeof file)) {
        arb_buf_puts(p->b, "#");
        return;
    }
    for (int i = 0; i < p->depth; i++)
        arb_buf_puts(p->b, "../");
    web_h(p->b, file);
}

/* ---- answers ------------------------------------------------------------- */

static void fail(web_page *p, int status, const char *msg)
{
    arb_buf_reset(p->b);
    p->out->status = status;
    p->out->type = TEXT_TYPE;
    arb_buf_puts(p->b, msg);
    arb_buf_puts(p->b, "\n");
}

static void head(web_page *p, const char *title, int64_t live)
{
    arb_buf *b = p->b;
    arb_buf_puts(b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    /* no icon: a browser would otherwise ask for /favicon.ico */
                    "<link rel=\"icon\" href=\"data:,\"><title>");
    web_h(b, title);
    arb_buf_puts(b, " — arbiter</title><link rel=\"stylesheet\" href=\"");
    web_link(p, "/assets/style.css");
    arb_buf_puts(b, "\"></head>\n<body><header class=\"site\"><span class=\"brand\">arbiter</span>"
                    "<nav aria-label=\"site\"><ul><li><a href=\"");
    web_link(p, "/");
    arb_buf_puts(b, p->mode == WEB_SERVED ? "\">Tournaments</a></li><li><a href=\"/pool\">Workers</a></li>"
                                          : "\">Tournament</a></li>");
    arb_buf_puts(b, "</ul></nav></header>\n<main id=\"main\"");
    if (live > 0 && p->mode == WEB_SERVED)
        arb_buf_printf(b, " data-live=\"%" PRId64 "\"", live);
    arb_buf_puts(b, ">\n");
}

static void foot(web_page *p, bool live)
{
    arb_buf_puts(p->b, "</main>\n<footer>arbiter — read-only view of the record</footer>\n");
    if (live && p->mode == WEB_SERVED) {
        arb_buf_puts(p->b, "<script src=\"");
        web_link(p, "/assets/live.js");
        arb_buf_puts(p->b, "\"></script>\n");
    }
    arb_buf_puts(p->b, "</body></html>\n");
}

/* A report of the store as rows, or 500. */
static bool rows(web_page *p, store_report_kind kind, int64_t id, store_rows *r)
{
    char err[512];
    if (store_report(p->st, kind, id, r, err, sizeof err) == 0)
        return true;
    fail(p, 500, err);
    return false;
}

static bool wrows(web_page *p, store_web_kind kind, int64_t id, const char *arg, store_rows *r)
{
    char err[512];
    if (store_web(p->st, kind, id, arg, r, err, sizeof err) == 0)
        return true;
    fail(p, 500, err);
    return false;
}

static const char *C(const store_rows *r, int i, int j) { return store_cell(r, i, j); }

/* A number from the record, or null. */
static void jnum(arb_buf *b, const char *v) { arb_buf_puts(b, v[0] ? v : "null"); }

static void th(arb_buf *b, const char *const *cols, int n)
{
    arb_buf_puts(b, "<thead><tr>");
    for (int i = 0; i < n; i++)
        arb_buf_printf(b, "<th scope=\"col\">%s</th>", cols[i]);
    arb_buf_puts(b, "</tr></thead>");
}

static void td(arb_buf *b, const char *v, bool num)
{
    arb_buf_puts(b, num ? "<td class=\"num\">" : "<td>");
    web_h(b, v);
    arb_buf_puts(b, "</td>");
}

/* Rows of r as a table: column 0 a row header, column k a number when bit
 * k of nums is set. */
static void rows_table(web_page *p, const char *const *cols, int ncols, const store_rows *r, unsigned nums)
{
    arb_buf *b = p->b;
    arb_buf_puts(b, "<div class=\"scroll\" tabindex=\"0\"><table>");
    th(b, cols, ncols);
    arb_buf_puts(b, "<tbody>");
    for (int i = 0; i < r->nrows; i++) {
        arb_buf_puts(b, "<tr><th scope=\"row\">");
        web_h(b, C(r, i, 0));
        arb_buf_puts(b, "</th>");
        for (int k = 1; k < ncols; k++)
            td(b, C(r, i, k), nums >> k & 1);
        arb_buf_puts(b, "</tr>\n");
    }
    arb_buf_puts(b, "</tbody></table></div>\n");
}

/* Rows of r as a JSON array of objects: keys[k] names column k, a string
 * when bit k of strings is set, else a number (null when empty). */
static void rows_json(arb_buf *b, const store_rows *r, const char *const *keys, int nkeys, unsigned strings)
{
    arb_buf_puts(b, "[");
    for (int i = 0; i < r->nrows; i++) {
        arb_buf_puts(b, i ? ",{" : "{");
        for (int k = 0; k < nkeys; k++) {
            arb_buf_printf(b, "%s\"%s\":", k ? "," : "", keys[k]);
            if (strings >> k & 1)
                web_j(b, C(r, i, k));
            else
                jnum(b, C(r, i, k));
        }
        arb_buf_puts(b, "}");
    }
    arb_buf_puts(b, "]\n");
}

/* ---- / : the tournaments ------------------------------------------------- */

static void page_tournaments(web_page *p, bool json)
{
    store_rows r;
    if (!rows(p, STORE_REPORT_TOURNAMENTS, 0, &r))
        return;
    arb_buf *b = p->b;
    /* the columns shown, by name (the game's is not shown here) */
    static const char *const keys[] = {
        [STORE_TOURNAMENTS_ID] = "id", [STORE_TOURNAMENTS_NAME] = "name", [STORE_TOURNAMENTS_FORMAT] = "format",
        [STORE_TOURNAMENTS_STATE] = "state", [STORE_TOURNAMENTS_PENDING] = "pending",
        [STORE_TOURNAMENTS_LEASED] = "leased", [STORE_TOURNAMENTS_DONE] = "done", [STORE_TOURNAMENTS_VOID] = "void",
        [STORE_TOURNAMENTS_ROUND] = "round", [STORE_TOURNAMENTS_CREATED] = "created"};
    enum { SHOWN = STORE_TOURNAMENTS_CREATED + 1 };
    _Static_assert(sizeof keys / sizeof *keys == SHOWN, "the shown columns come first");
    if (json) {
        rows_json(b, &r, keys, SHOWN, 1u << STORE_TOURNAMENTS_NAME | 1u << STORE_TOURNAMENTS_FORMAT
                                          | 1u << STORE_TOURNAMENTS_STATE | 1u << STORE_TOURNAMENTS_CREATED);
    } else {
        head(p, "Tournaments", 0);
        arb_buf_puts(b, "<h1>Tournaments</h1>\n");
        if (r.nrows == 0)
            arb_buf_puts(b, "<p>The record holds no tournament yet.</p>\n");
        else {
            arb_buf_puts(b, "<div class=\"scroll\" tabindex=\"0\"><table>");
            th(b, keys, SHOWN);
            arb_buf_puts(b, "<tbody>");
            for (int i = 0; i < r.nrows; i++) {
                bool ladder = strcmp(C(&r, i, STORE_TOURNAMENTS_FORMAT), "ladder") == 0;
                arb_buf_printf(b, "<tr><th scope=\"row\">%s</th><td><a href=\"", C(&r, i, STORE_TOURNAMENTS_ID));
                web_link(p, ladder ? "/l/%s" : "/t/%s", C(&r, i, STORE_TOURNAMENTS_ID));
                arb_buf_puts(b, "\">");
                web_h(b, C(&r, i, STORE_TOURNAMENTS_NAME));
                arb_buf_puts(b, "</a></td>");
                for (int k = STORE_TOURNAMENTS_FORMAT; k < SHOWN; k++)
                    td(b, C(&r, i, k), k >= STORE_TOURNAMENTS_PENDING && k <= STORE_TOURNAMENTS_ROUND);
                arb_buf_puts(b, "</tr>\n");
            }
            arb_buf_puts(b, "</tbody></table></div>\n");
        }
        foot(p, false);
    }
    store_rows_release(&r);
}

/* ---- standings ----------------------------------------------------------- */

typedef struct standings {
    store_standing *rows, *teams;
    int n, nt;
    bool placed;
} standings;

static bool standings_load(web_page *p, int64_t tid, standings *s)
{
    memset(s, 0, sizeof *s);
    s->rows = calloc(ARB_TN_MAX_ENTRANTS, sizeof *s->rows);
    s->teams = calloc(ARB_TN_MAX_ENTRANTS, sizeof *s->teams);
    if (!s->rows || !s->teams) {
        fail(p, 500, "out of memory");
        return false;
    }
    s->nt = store_standings_placed(p->st, tid, true, s->teams, ARB_TN_MAX_ENTRANTS);
    s->n = store_standings_placed(p->st, tid, false, s->rows, ARB_TN_MAX_ENTRANTS);
    if (s->n < 0 || s->nt < 0) {
        fail(p, 500, "the standings cannot be read from the record");
        return false;
    }
    for (int i = 0; i < s->n; i++)
        s->placed = s->placed || s->rows[i].place > 0;
    return true;
}

static void standings_release(standings *s)
{
    free(s->rows);
    free(s->teams);
}

/* The same objects as `arbiter standings --format json`. */
static void standings_json_of(arb_buf *b, const store_standing *rows, int n)
{
    bool placed = false;
    for (int i = 0; i < n; i++)
        placed = placed || rows[i].place > 0;
    arb_buf_puts(b, "[");
    for (int i = 0; i < n; i++) {
        arb_buf_printf(b, "%s{\"rank\":%d,\"name\":", i ? "," : "", i + 1);
        web_j(b, rows[i].name);
        arb_buf_printf(b, ",\"played\":%d,\"points\":%.1f,\"score\":%" PRId64 ",\"wins\":%d,"
                          "\"penalties\":%d,\"forfeited\":%s", rows[i].played, rows[i].points,
                       rows[i].score, rows[i].wins, rows[i].penalties, rows[i].forfeited ? "true" : "false");
        if (placed) {
            arb_buf_puts(b, ",\"reached\":");
            web_j(b, rows[i].reached);
            arb_buf_puts(b, ",\"tiebreak\":");
            if (rows[i].tiebreak[0])
                web_j(b, rows[i].tiebreak);
            else
                arb_buf_puts(b, "null");
        }
        arb_buf_puts(b, "}");
    }
    arb_buf_puts(b, "]");
}

static void standings_json(arb_buf *b, const standings *s)
{
    if (s->nt <= 0) {
        standings_json_of(b, s->rows, s->n);
        return;
    }
    arb_buf_puts(b, "{\"teams\":");
    standings_json_of(b, s->teams, s->nt);
    arb_buf_puts(b, ",\"entrants\":");
    standings_json_of(b, s->rows, s->n);
    arb_buf_puts(b, "}");
}

static void standings_table(web_page *p, int64_t tid, const store_standing *rows, int n, bool entrants, const char *id)
{
    arb_buf *b = p->b;
    bool placed = false;
    for (int i = 0; i < n; i++)
        placed = placed || rows[i].place > 0;
    static const char *const cols[] = {"Rank", "Name", "Played", "Points", "Score", "Wins", "Penalties", "Reached"};
    arb_buf_printf(b, "<div class=\"scroll\" tabindex=\"0\"><table id=\"%s\"><caption class=\"muted\">%s</caption>", id,
                   placed ? "placed by the stage reached, then the place at that table, then points"
                          : "match points, then deal scores, then matches won");
    th(b, cols, placed ? 8 : 7);
    arb_buf_puts(b, "<tbody>");
    for (int i = 0; i < n; i++) {
        arb_buf_printf(b, "<tr><th scope=\"row\">%d</th><td>", i + 1);
        if (entrants) {
            arb_buf_puts(b, "<a href=\"");
            web_link(p, "/t/%" PRId64 "/e/%d", tid, rows[i].entrant);
            arb_buf_puts(b, "\">");
        }
        web_h(b, rows[i].name);
        arb_buf_printf(b, "%s%s</td><td class=\"num\">%d</td><td class=\"num\">%.1f</td>"
                          "<td class=\"num\">%" PRId64 "</td><td class=\"num\">%d</td><td class=\"num\">%d</td>",
                       entrants ? "</a>" : "", rows[i].forfeited ? " <span class=\"bad\">(forfeited)</span>" : "",
                       rows[i].played, rows[i].points, rows[i].score, rows[i].wins, rows[i].penalties);
        if (placed) {
            td(b, rows[i].reached, false);
        }
        arb_buf_puts(b, "</tr>\n");
    }
    arb_buf_puts(b, "</tbody></table></div>\n");
}

/* ---- a tournament -------------------------------------------------------- */

/* The tournament's header row; false (404 or 500 said) when there is none. */
static bool tournament_row(web_page *p, int64_t tid, store_rows *t)
{
    if (!wrows(p, STORE_WEB_TOURNAMENT, tid, NULL, t))
        return false;
    if (t->nrows == 1)
        return true;
    store_rows_release(t);
    fail(p, 404, "no such tournament in the record");
    return false;
}

static void progress_json(arb_buf *b, const store_rows *g)
{
    arb_buf_puts(b, "{\"state\":");
    web_j(b, C(g, 0, STORE_WPROGRESS_STATE));
    arb_buf_printf(b, ",\"pending\":%s,\"leased\":%s,\"done\":%s,\"void\":%s,\"round\":%s}",
                   C(g, 0, STORE_WPROGRESS_PENDING), C(g, 0, STORE_WPROGRESS_LEASED),
                   C(g, 0, STORE_WPROGRESS_DONE), C(g, 0, STORE_WPROGRESS_VOID), C(g, 0, STORE_WPROGRESS_ROUND));
}

/* The matches of seats rows [from, to) as JSON: seats by slot. */
static void match_seats_json(arb_buf *b, const store_rows *r, int from, int to)
{
    arb_buf_printf(b, "{\"id\":%s,\"round\":%s,\"stage\":", C(r, from, STORE_WSEATS_MATCH), C(r, from, STORE_WSEATS_ROUND));
    web_j(b, C(r, from, STORE_WSEATS_STAGE));
    arb_buf_printf(b, ",\"table\":%s,\"state\":", C(r, from, STORE_WSEATS_TABLE));
    web_j(b, C(r, from, STORE_WSEATS_STATE));
    arb_buf_puts(b, ",\"seats\":[");
    for (int i = from; i < to; i++) {
        arb_buf_printf(b, "%s{\"slot\":%s,\"entrant\":%s,\"name\":", i > from ? "," : "", C(r, i, STORE_WSEATS_SLOT), C(r, i, STORE_WSEATS_ENTRANT));
        web_j(b, C(r, i, STORE_WSEATS_NAME));
        arb_buf_puts(b, ",\"total\":");
        jnum(b, C(r, i, STORE_WSEATS_TOTAL));
        arb_buf_puts(b, ",\"points\":");
        jnum(b, C(r, i, STORE_WSEATS_POINTS));
        arb_buf_puts(b, ",\"rank\":");
        jnum(b, C(r, i, STORE_WSEATS_RANK));
        arb_buf_puts(b, "}");
    }
    arb_buf_puts(b, "]}");
}

static int match_end(const store_rows *r, int from)
{
    int to = from + 1;
    while (to < r->nrows && strcmp(C(r, to, STORE_WSEATS_MATCH), C(r, from, STORE_WSEATS_MATCH)) == 0)
        to++;
    return to;
}

/* One match of the seats rows as a table row. */
static void match_row_html(web_page *p, const store_rows *r, int from, int to)
{
    arb_buf *b = p->b;
    arb_buf_puts(b, "<tr><th scope=\"row\"><a href=\"");
    web_link(p, "/m/%s", C(r, from, STORE_WSEATS_MATCH));
    arb_buf_printf(b, "\">%s</a></th><td class=\"num\">%s</td><td class=\"num\">%s</td>", C(r, from, STORE_WSEATS_MATCH), C(r, from, STORE_WSEATS_ROUND),
                   C(r, from, STORE_WSEATS_TABLE));
    td(b, C(r, from, STORE_WSEATS_STATE), false);
    arb_buf_puts(b, "<td>");
    for (int i = from; i < to; i++) {
        if (i > from)
            arb_buf_puts(b, "; ");
        bool won = strcmp(C(r, i, STORE_WSEATS_RANK), "1") == 0;
        arb_buf_puts(b, won ? "<strong>" : "");
        web_h(b, C(r, i, STORE_WSEATS_NAME));
        arb_buf_puts(b, won ? "</strong>" : "");
        if (C(r, i, STORE_WSEATS_TOTAL)[0]) {
            arb_buf_puts(b, " ");
            web_h(b, C(r, i, STORE_WSEATS_TOTAL));
            arb_buf_puts(b, " (#");
            web_h(b, C(r, i, STORE_WSEATS_RANK));
            arb_buf_puts(b, ")");
        }
    }
    arb_buf_puts(b, "</td></tr>\n");
}

static const char *const match_cols[] = {"Match", "Round", "Table", "State", "Seats: score (rank)"};

static void crosstable_html(web_page *p, const standings *s, const store_rows *x)
{
    arb_buf *b = p->b;
    int n = s->n;
    arb_buf_puts(b, "<div class=\"scroll\" tabindex=\"0\"><table id=\"crosstable\"><caption class=\"muted\">the row's match points "
                    "against the column (matches met in)</caption><thead><tr><th scope=\"col\">Entrant</th>");
    for (int j = 0; j < n; j++)
        arb_buf_printf(b, "<th scope=\"col\" class=\"num\">%d</th>", j + 1);
    arb_buf_puts(b, "</tr></thead><tbody>");
    for (int i = 0; i < n; i++) {
        arb_buf_printf(b, "<tr><th scope=\"row\">%d. ", i + 1);
        web_h(b, s->rows[i].name);
        arb_buf_puts(b, "</th>");
        for (int j = 0; j < n; j++) {
            const char *cell = i == j ? "×" : "·";
            char buf[64] = "";
            for (int k = 0; i != j && k < x->nrows; k++)
                if (strcmp(C(x, k, STORE_XTABLE_ENTRANT), s->rows[i].name) == 0 && strcmp(C(x, k, STORE_XTABLE_OPPONENT), s->rows[j].name) == 0) {
                    snprintf(buf, sizeof buf, "%.4g (%s)", arb_cell_float(C(x, k, STORE_XTABLE_POINTS)), C(x, k, STORE_XTABLE_MATCHES));
                    cell = buf;
                }
            td(b, cell, true);
        }
        arb_buf_puts(b, "</tr>\n");
    }
    arb_buf_puts(b, "</tbody></table></div>\n");
}

/* The row of the team crosstable x for teams a and b (team indexes), with
 * the row team's wins and losses (as `arbiter standings` counts them), or
 * -1 where they have not met. */
static int team_result(const store_rows *x, int a, int b, int *won, int *lost)
{
    for (int k = 0; k < x->nrows; k++)
        if (arb_cell_int(C(x, k, STORE_TEAMX_TEAM)) == a && arb_cell_int(C(x, k, STORE_TEAMX_OPPONENT)) == b) {
            int m = (int)arb_cell_int(C(x, k, STORE_TEAMX_MATCHES));
            double pts = arb_cell_float(C(x, k, STORE_TEAMX_POINTS));
            *won = (int)arb_cell_int(C(x, k, STORE_TEAMX_WON));
            *lost = m - *won - (int)((pts - *won) * 2 + 0.5);   /* points = wins + ties / 2 */
            return k;
        }
    return -1;
}

/* Partnership play: teams against teams (partners are never each
 * other's opponents), in the teams' standings order. */
static void team_crosstable_html(web_page *p, const standings *s, const store_rows *x)
{
    arb_buf *b = p->b;
    arb_buf_puts(b, "<div class=\"scroll\" tabindex=\"0\"><table id=\"team-crosstable\"><caption class=\"muted\">the row team's "
                    "wins-losses against the column team</caption><thead><tr><th scope=\"col\">Team</th>");
    for (int j = 0; j < s->nt; j++)
        arb_buf_printf(b, "<th scope=\"col\" class=\"num\">%d</th>", j + 1);
    arb_buf_puts(b, "</tr></thead><tbody>");
    for (int i = 0; i < s->nt; i++) {
        arb_buf_printf(b, "<tr><th scope=\"row\">%d. ", i + 1);
        web_h(b, s->teams[i].name);
        arb_buf_puts(b, "</th>");
        for (int j = 0; j < s->nt; j++) {
            char cell[32] = "·";
            int won, lost;
            if (i == j)
                snprintf(cell, sizeof cell, "×");
            else if (team_result(x, s->teams[i].entrant, s->teams[j].entrant, &won, &lost) >= 0)
                snprintf(cell, sizeof cell, "%d-%d", won, lost);
            td(b, cell, true);
        }
        arb_buf_puts(b, "</tr>\n");
    }
    arb_buf_puts(b, "</tbody></table></div>\n");
}

/* The JSON crosstable: entrant against entrant, or team against team in
 * partnership play (then "won" and "lost" too, no "score"). */
static void crosstable_json(arb_buf *b, const standings *s, const store_rows *x)
{
    arb_buf_printf(b, ",\"crosstable_of\":\"%s\",\"crosstable\":[", s->nt > 0 ? "teams" : "entrants");
    int shown = 0;
    for (int i = 0; i < s->nt; i++)
        for (int j = 0; j < s->nt; j++) {
            int won, lost, row = i == j ? -1 : team_result(x, s->teams[i].entrant, s->teams[j].entrant, &won, &lost);
            if (row < 0)
                continue;
            arb_buf_puts(b, shown++ ? ",{\"entrant\":" : "{\"entrant\":");
            web_j(b, s->teams[i].name);
            arb_buf_puts(b, ",\"opponent\":");
            web_j(b, s->teams[j].name);
            arb_buf_printf(b, ",\"matches\":%s,\"points\":%s,\"won\":%d,\"lost\":%d}", C(x, row, STORE_TEAMX_MATCHES),
                           C(x, row, STORE_TEAMX_POINTS), won, lost);
        }
    for (int i = 0; s->nt <= 0 && i < x->nrows; i++) {
        arb_buf_puts(b, i ? ",{\"entrant\":" : "{\"entrant\":");
        web_j(b, C(x, i, STORE_XTABLE_ENTRANT));
        arb_buf_puts(b, ",\"opponent\":");
        web_j(b, C(x, i, STORE_XTABLE_OPPONENT));
        arb_buf_printf(b, ",\"matches\":%s,\"points\":%s,\"score\":%s}", C(x, i, STORE_XTABLE_MATCHES),
                       C(x, i, STORE_XTABLE_POINTS), C(x, i, STORE_XTABLE_SCORE));
    }
    arb_buf_puts(b, "]");
}

static web_bracket_kind bracket_kind(const char *format)
{
    return strcmp(format, "double-elimination") == 0 ? WEB_BRACKET_DOUBLE
           : strcmp(format, "groups-knockout") == 0  ? WEB_BRACKET_GROUPS
                                                     : WEB_BRACKET_SINGLE;
}

static bool knockout(const char *format)
{
    return strcmp(format, "single-elimination") == 0 || strcmp(format, "double-elimination") == 0
           || strcmp(format, "groups-knockout") == 0;
}

static void page_ladder(web_page *p, int64_t tid, bool json);

static void page_tournament(web_page *p, int64_t tid, bool json, bool standings_only)
{
    store_rows t = {0}, g = {0}, seats = {0}, tseats = {0}, x = {0};
    standings s = {0};
    if (!tournament_row(p, tid, &t))
        return;
    if (strcmp(C(&t, 0, STORE_WTOUR_FORMAT), "ladder") == 0 && !standings_only) {
        store_rows_release(&t);
        page_ladder(p, tid, json);
        return;
    }
    if (!standings_load(p, tid, &s))
        goto out;
    arb_buf *b = p->b;
    if (standings_only) {
        standings_json(b, &s);
        arb_buf_puts(b, "\n");
        goto out;
    }
    /* the crosstable's pairs only where they are shown: the JSON, or a grid */
    if (!wrows(p, STORE_WEB_PROGRESS, tid, NULL, &g) || !wrows(p, STORE_WEB_SEATS, tid, NULL, &seats)
        || (s.nt > 0 && !wrows(p, STORE_WEB_TEAM_SEATS, tid, NULL, &tseats))
        || ((json || s.n <= ARB_WEB_GRID_MAX)
            && !rows(p, s.nt > 0 ? STORE_REPORT_TEAM_CROSSTABLE : STORE_REPORT_CROSSTABLE, tid, &x)))
        goto out;
    static const char *const tkeys[] = {"id", "name", "game", "rules", "format", "state", "created", "finished",
                                        "rating_system", "commitment", "secret"};
    if (json) {
        arb_buf_puts(b, "{");
        for (int k = 0; k < 11; k++) {
            arb_buf_printf(b, "%s\"%s\":", k ? "," : "", tkeys[k]);
            if (k == 0)
                arb_buf_puts(b, C(&t, 0, STORE_WTOUR_ID));
            else
                web_j(b, C(&t, 0, k));
        }
        arb_buf_puts(b, ",\"progress\":");
        progress_json(b, &g);
        arb_buf_puts(b, ",\"standings\":");
        standings_json(b, &s);
        crosstable_json(b, &s, &x);
        arb_buf_puts(b, ",\"matches\":[");
        for (int from = 0, to; from < seats.nrows; from = to) {
            to = match_end(&seats, from);
            if (from)
                arb_buf_puts(b, ",");
            match_seats_json(b, &seats, from, to);
        }
        arb_buf_puts(b, "]");
        if (s.nt > 0) {   /* the same matches by team */
            arb_buf_puts(b, ",\"team_matches\":[");
            for (int from = 0, to; from < tseats.nrows; from = to) {
                to = match_end(&tseats, from);
                arb_buf_puts(b, from ? "," : "");
                match_seats_json(b, &tseats, from, to);
            }
            arb_buf_puts(b, "]");
        }
        arb_buf_puts(b, "}\n");
        goto out;
    }
    bool running = strcmp(C(&t, 0, STORE_WTOUR_STATE), "running") == 0;
    head(p, C(&t, 0, STORE_WTOUR_NAME), running ? tid : 0);
    arb_buf_puts(b, "<h1>");
    web_h(b, C(&t, 0, STORE_WTOUR_NAME));
    arb_buf_puts(b, "</h1>\n<p class=\"meta\">");
    web_h(b, C(&t, 0, STORE_WTOUR_GAME));
    arb_buf_puts(b, ", rules ");
    web_h(b, C(&t, 0, STORE_WTOUR_RULES));
    arb_buf_puts(b, ", ");
    web_h(b, C(&t, 0, STORE_WTOUR_FORMAT));
    arb_buf_printf(b, " — id %" PRId64 ", started ", tid);
    web_h(b, C(&t, 0, STORE_WTOUR_CREATED));
    if (C(&t, 0, STORE_WTOUR_FINISHED)[0]) {
        arb_buf_puts(b, ", finished ");
        web_h(b, C(&t, 0, STORE_WTOUR_FINISHED));
    }
    arb_buf_puts(b, "</p>\n<p>State <span data-count=\"state\">");
    web_h(b, C(&g, 0, STORE_WPROGRESS_STATE));
    arb_buf_printf(b, "</span>: <span data-count=\"done\">%s</span> matches done, <span data-count=\"leased\">%s</span> "
                      "playing, <span data-count=\"pending\">%s</span> waiting, <span data-count=\"void\">%s</span> "
                      "void; round <span data-count=\"round\">%s</span>.</p>\n",
                   C(&g, 0, STORE_WPROGRESS_DONE), C(&g, 0, STORE_WPROGRESS_LEASED), C(&g, 0, STORE_WPROGRESS_PENDING),
                   C(&g, 0, STORE_WPROGRESS_VOID), C(&g, 0, STORE_WPROGRESS_ROUND));
    if (running && p->mode == WEB_SERVED)
        arb_buf_puts(b, "<p id=\"live-status\" class=\"muted\" aria-live=\"polite\">This page was current when "
                        "loaded.</p>\n");
    if (s.nt > 0) {
        arb_buf_puts(b, "<h2>Teams</h2>\n");
        standings_table(p, tid, s.teams, s.nt, false, "team-standings");
    }
    arb_buf_puts(b, "<h2 id=\"standings-heading\">Standings</h2>\n");
    standings_table(p, tid, s.rows, s.n, true, "standings");
    if (knockout(C(&t, 0, STORE_WTOUR_FORMAT))) {
        arb_buf_puts(b, "<h2>Bracket</h2>\n");
        /* the champion (a team in partnership play), bold in the last box: a
           tie at the final's table is settled by the chain, not by the ranks */
        const store_standing *units = s.nt > 0 ? s.teams : s.rows;
        int champ[ARB_TN_MAX_ENTRANTS], nchamp = 0;
        for (int i = 0; i < (s.nt > 0 ? s.nt : s.n); i++)
            if (strcmp(units[i].reached, "champion") == 0)
                champ[nchamp++] = units[i].entrant;
        web_svg_bracket(p, s.nt > 0 ? &tseats : &seats, bracket_kind(C(&t, 0, STORE_WTOUR_FORMAT)), champ, nchamp);
    }
    arb_buf_puts(b, "<h2>Crosstable</h2>\n");
    if (s.n > ARB_WEB_GRID_MAX) {
        arb_buf_printf(b, "<p class=\"muted\">More than %d entrants: the crosstable is in the <a href=\"",
                       ARB_WEB_GRID_MAX);
        web_link(p, "/api/t/%" PRId64, tid);
        arb_buf_puts(b, "\">JSON</a>.</p>\n");
    } else if (s.nt > 0) {
        team_crosstable_html(p, &s, &x);
    } else {
        crosstable_html(p, &s, &x);
    }
    arb_buf_puts(b, "<h2>Rounds</h2>\n");
    int last = -1, listed = 0, more = 0;
    for (int from = 0, to; from < seats.nrows; from = to) {
        to = match_end(&seats, from);
        if (listed == ARB_WEB_LIST_MATCHES) {
            more++;
            continue;
        }
        listed++;
        int round = (int)arb_cell_int(C(&seats, from, STORE_WSEATS_ROUND));
        if (round != last) {
            if (last >= 0)
                arb_buf_puts(b, "</tbody></table></div>\n");
            arb_buf_printf(b, "<h3>Round %d <span class=\"muted\">(", round);
            web_h(b, C(&seats, from, STORE_WSEATS_STAGE));
            arb_buf_puts(b, ")</span></h3>\n<div class=\"scroll\" tabindex=\"0\"><table>");
            th(b, match_cols, 5);
            arb_buf_puts(b, "<tbody>");
            last = round;
        }
        match_row_html(p, &seats, from, to);
    }
    if (last >= 0)
        arb_buf_puts(b, "</tbody></table></div>\n");
    if (more) {
        arb_buf_printf(b, "<p class=\"muted\" id=\"more-matches\">%d more matches after these %d: every match is "
                          "in the <a href=\"", more, listed);
        web_link(p, "/api/t/%" PRId64, tid);
        arb_buf_puts(b, "\">JSON</a> and on each entrant's page.</p>\n");
    }
    arb_buf_puts(b, "<h2>Fairness</h2>\n<p>Commitment to the secret: <code>");
    web_h(b, C(&t, 0, STORE_WTOUR_COMMITMENT)[0] ? C(&t, 0, STORE_WTOUR_COMMITMENT) : "none yet");
    arb_buf_puts(b, "</code><br>Secret: <code>");
    web_h(b, C(&t, 0, STORE_WTOUR_SECRET)[0] ? C(&t, 0, STORE_WTOUR_SECRET) : "sealed until the tournament is over");
    arb_buf_puts(b, "</code></p>\n<p><a href=\"");
    web_link(p, "/api/t/%" PRId64, tid);
    arb_buf_puts(b, "\">This page as JSON</a></p>\n");
    foot(p, running);
out:
    standings_release(&s);
    store_rows_release(&t);
    store_rows_release(&g);
    store_rows_release(&seats);
    store_rows_release(&tseats);
    store_rows_release(&x);
}

/* ---- an entrant ---------------------------------------------------------- */

static void page_entrant(web_page *p, int64_t tid, int64_t idx, bool json)
{
    store_rows t = {0}, e = {0}, seats = {0}, pen = {0}, rat = {0}, hist = {0};
    char arg[24];
    snprintf(arg, sizeof arg, "%" PRId64, idx > 1000000 ? -1 : idx);
    if (!tournament_row(p, tid, &t))
        return;
    if (!wrows(p, STORE_WEB_ENTRANT, tid, arg, &e))
        goto out;
    if (e.nrows != 1) {
        fail(p, 404, "no such entrant in this tournament");
        goto out;
    }
    char set[32];
    snprintf(set, sizeof set, "{%s}", arg);
    if (!wrows(p, STORE_WEB_ENTRANT_SEATS, tid, arg, &seats) || !wrows(p, STORE_WEB_ENTRANT_PENALTIES, tid, arg, &pen)
        || !rows(p, STORE_REPORT_RATINGS, tid, &rat) || !wrows(p, STORE_WEB_HISTORY, tid, set, &hist))
        goto out;
    arb_buf *b = p->b;
    int rating_row = -1;
    for (int i = 0; i < rat.nrows; i++)
        if (strcmp(C(&rat, i, STORE_RATINGS_ENTRANT), arg) == 0)
            rating_row = i;
    if (json) {
        arb_buf_printf(b, "{\"tournament\":%" PRId64 ",\"entrant\":%s,\"name\":", tid, arg);
        web_j(b, C(&e, 0, STORE_WENTRANT_NAME));
        arb_buf_puts(b, ",\"seed_rank\":");
        jnum(b, C(&e, 0, STORE_WENTRANT_SEED_RANK));
        arb_buf_puts(b, ",\"team\":");
        web_j(b, C(&e, 0, STORE_WENTRANT_TEAM));
        arb_buf_puts(b, ",\"matches\":[");
        int shown = 0;
        for (int from = 0, to; from < seats.nrows; from = to) {
            to = match_end(&seats, from);
            bool in = false;
            for (int i = from; i < to; i++)
                in = in || strcmp(C(&seats, i, STORE_WSEATS_ENTRANT), arg) == 0;
            if (in) {
                arb_buf_puts(b, shown++ ? "," : "");
                match_seats_json(b, &seats, from, to);
            }
        }
        arb_buf_puts(b, "],\"penalties\":[");
        for (int i = 0; i < pen.nrows; i++) {
            arb_buf_printf(b, "%s{\"match\":%s,\"round\":%s,\"table\":%s,\"game\":%s,\"decision\":%s,\"reason\":",
                           i ? "," : "", C(&pen, i, STORE_WPENS_MATCH), C(&pen, i, STORE_WPENS_ROUND),
                           C(&pen, i, STORE_WPENS_TABLE), C(&pen, i, STORE_WPENS_GAME),
                           C(&pen, i, STORE_WPENS_DECISION));
            web_j(b, C(&pen, i, STORE_WPENS_REASON));
            arb_buf_puts(b, ",\"consequence\":");
            web_j(b, C(&pen, i, STORE_WPENS_CONSEQUENCE));
            arb_buf_puts(b, "}");
        }
        arb_buf_puts(b, "],\"rating\":");
        if (rating_row < 0)
            arb_buf_puts(b, "null");
        else {
            arb_buf_printf(b, "{\"mu\":%s,\"sigma\":%s,\"games\":%s,\"system\":", C(&rat, rating_row, STORE_RATINGS_MU),
                           C(&rat, rating_row, STORE_RATINGS_SIGMA), C(&rat, rating_row, STORE_RATINGS_GAMES));
            web_j(b, C(&rat, rating_row, STORE_RATINGS_SYSTEM));
            arb_buf_puts(b, "}");
        }
        arb_buf_puts(b, ",\"history\":[");
        for (int i = 0; i < hist.nrows; i++)
            arb_buf_printf(b, "%s{\"match\":%s,\"mu\":%s,\"sigma\":%s}", i ? "," : "",
                           C(&hist, i, STORE_WHISTORY_MATCH), C(&hist, i, STORE_WHISTORY_MU),
                           C(&hist, i, STORE_WHISTORY_SIGMA));
        arb_buf_puts(b, "]}\n");
        goto out;
    }
    head(p, C(&e, 0, STORE_WENTRANT_NAME), 0);
    arb_buf_puts(b, "<h1>");
    web_h(b, C(&e, 0, STORE_WENTRANT_NAME));
    arb_buf_puts(b, "</h1>\n<p class=\"meta\">Entrant ");
    web_h(b, arg);
    arb_buf_puts(b, " of <a href=\"");
    web_link(p, "/t/%" PRId64, tid);
    arb_buf_puts(b, "\">");
    web_h(b, C(&t, 0, STORE_WTOUR_NAME));
    arb_buf_puts(b, "</a>");
    if (C(&e, 0, STORE_WENTRANT_TEAM)[0]) {
        arb_buf_puts(b, ", team ");
        web_h(b, C(&e, 0, STORE_WENTRANT_TEAM));
    }
    if (C(&e, 0, STORE_WENTRANT_SEED_RANK)[0]) {
        arb_buf_puts(b, ", seed ");
        web_h(b, C(&e, 0, STORE_WENTRANT_SEED_RANK));
    }
    arb_buf_puts(b, "</p>\n<h2>Matches</h2>\n<div class=\"scroll\" tabindex=\"0\"><table>");
    th(b, match_cols, 5);
    arb_buf_puts(b, "<tbody>");
    for (int from = 0, to; from < seats.nrows; from = to) {
        to = match_end(&seats, from);
        bool in = false;
        for (int i = from; i < to; i++)
            in = in || strcmp(C(&seats, i, STORE_WSEATS_ENTRANT), arg) == 0;
        if (in)
            match_row_html(p, &seats, from, to);
    }
    arb_buf_printf(b, "</tbody></table></div>\n<h2>Penalties (%d)</h2>\n", pen.nrows);
    if (pen.nrows) {
        static const char *const cols[] = {"Match", "Round", "Table", "Game", "Decision", "Reason", "Consequence"};
        arb_buf_puts(b, "<div class=\"scroll\" tabindex=\"0\"><table>");
        th(b, cols, 7);
        arb_buf_puts(b, "<tbody>");
        for (int i = 0; i < pen.nrows; i++) {
            arb_buf_puts(b, "<tr><th scope=\"row\"><a href=\"");
            web_link(p, "/m/%s", C(&pen, i, STORE_WPENS_MATCH));
            arb_buf_printf(b, "\">%s</a></th>", C(&pen, i, STORE_WPENS_MATCH));
            for (int k = 1; k < 7; k++)
                td(b, C(&pen, i, k), k < 5);
            arb_buf_puts(b, "</tr>\n");
        }
        arb_buf_puts(b, "</tbody></table></div>\n");
    }
    arb_buf_puts(b, "<h2>Rating</h2>\n");
    if (rating_row < 0) {
        arb_buf_puts(b, "<p class=\"muted\">Not rated.</p>\n");
    } else {
        arb_buf_puts(b, "<p>");
        web_h(b, C(&rat, rating_row, STORE_RATINGS_SYSTEM));
        arb_buf_puts(b, ": <span title=\"");
        web_h(b, C(&rat, rating_row, STORE_RATINGS_MU));
        arb_buf_printf(b, "\">μ %.2f</span>, <span title=\"", arb_cell_float(C(&rat, rating_row, STORE_RATINGS_MU)));
        web_h(b, C(&rat, rating_row, STORE_RATINGS_SIGMA));
        arb_buf_printf(b, "\">σ %.2f</span> after %s games.</p>\n", arb_cell_float(C(&rat, rating_row, STORE_RATINGS_SIGMA)),
                       C(&rat, rating_row, STORE_RATINGS_GAMES));
        web_series one = {(int)idx, C(&e, 0, STORE_WENTRANT_NAME)};
        web_svg_chart(p, "rating history", &one, 1, &hist);
    }
    foot(p, false);
out:
    store_rows_release(&t);
    store_rows_release(&e);
    store_rows_release(&seats);
    store_rows_release(&pen);
    store_rows_release(&rat);
    store_rows_release(&hist);
}

/* ---- a match ------------------------------------------------------------- */

typedef struct botend_ctx {
    arb_buf *b;
    bool json;
    int n;
    unsigned hide;       /* bots whose stderr is not shown here (web_public_hide) */
} botend_ctx;

static void botend_each(void *arg, int bot, const char *ended, const char *err, size_t errlen)
{
    botend_ctx *c = arg;
    bool hidden = bot >= 0 && bot < 32 && (c->hide & (1u << bot));
    if (hidden)
        errlen = 0;
    if (c->json) {
        arb_buf_printf(c->b, "%s{\"bot\":%d,\"ended\":", c->n ? "," : "", bot);
        web_j(c->b, ended);
        arb_buf_puts(c->b, ",\"stderr\":");
        web_json(c->b, err, errlen);   /* every byte: a NUL too */
        arb_buf_puts(c->b, hidden ? ",\"stderr_private\":true}" : "}");
    } else if (hidden) {
        arb_buf_printf(c->b, "<h3>Bot %d</h3>\n<p>", bot);
        web_h(c->b, ended);
        arb_buf_puts(c->b, "</p>\n<p class=\"muted\">Its stderr is private to its owner and the arbiters.</p>\n");
    } else {
        arb_buf_printf(c->b, "<h3>Bot %d</h3>\n<p>", bot);
        web_h(c->b, ended);
        arb_buf_puts(c->b, "</p>\n");
        if (errlen) {
            arb_buf_puts(c->b, "<pre>");
            web_html(c->b, err, errlen);
            arb_buf_puts(c->b, "</pre>\n");
        }
    }
    c->n++;
}

bool web_match_private(const store_rows *m)
{
    return m->nrows == 1 && strcmp(C(m, 0, STORE_WMATCH_PRIVATE), "t") == 0;
}

unsigned web_public_hide(const store_rows *m)
{
    return m->nrows == 1 && strcmp(C(m, 0, STORE_WMATCH_STDERR_PRIVATE), "f") != 0 ? ~0u : 0;
}

bool web_has_transcript(const store_rows *m)
{
    return m->nrows == 1 && (C(m, 0, STORE_WMATCH_DIGEST)[0] || C(m, 0, STORE_WMATCH_TRANSCRIPT)[0]);
}

int web_transcript(store *st, const store_rows *m, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    return store_transcript_load(st, C(m, 0, STORE_WMATCH_DIGEST), C(m, 0, STORE_WMATCH_TRANSCRIPT), data, len, err,
                                 errlen);
}

/* The served link to match mid's transcript: a finished match's names the
 * digest it shows (?d= its first 16 hex digits), so that the server may
 * let it be cached for good; a dispute that voids or reruns the match
 * changes the digest, and so the link (docs/web.md, "Caching"). */
static void transcript_link(web_page *p, const store_rows *m, int64_t mid)
{
    const char *d = C(m, 0, STORE_WMATCH_DIGEST);
    if (strcmp(C(m, 0, STORE_WMATCH_STATE), "done") == 0 && strlen(d) >= 16 && strspn(d, "0123456789abcdef") >= 16)
        web_link(p, "/api/m/%" PRId64 "/transcript?d=%.16s", mid, d);
    else
        web_link(p, "/api/m/%" PRId64 "/transcript", mid);
}

/* Each bot's end from the transcript, through the hook: 0, or < 0 with
 * why in err (the transcript is not at hand, or does not read). */
static int bot_ends(web_page *p, const store_rows *m, botend_ctx *c, char *err, size_t errlen)
{
    uint8_t *data = NULL;
    size_t len = 0;
    if (!p->h || !p->h->botends)
        return 0;
    int rc = web_transcript(p->st, m, &data, &len, err, errlen);
    if (rc == 0)
        rc = p->h->botends(p->h->ctx, data, len, botend_each, c, err, errlen);
    free(data);
    return rc;
}

static void page_match(web_page *p, int64_t mid, bool json)
{
    store_rows m = {0}, seats = {0}, deals = {0}, pen = {0};
    if (!wrows(p, STORE_WEB_MATCH, mid, NULL, &m))
        return;
    if (m.nrows != 1 || web_match_private(&m)) {
        fail(p, 404, "no such match in the record");
        goto out;
    }
    if (!rows(p, STORE_REPORT_MATCH, mid, &seats) || !rows(p, STORE_REPORT_MATCH_DEALS, mid, &deals)
        || !rows(p, STORE_REPORT_MATCH_PENALTIES, mid, &pen))
        goto out;
    arb_buf *b = p->b;
    const char *signer = C(&m, 0, STORE_WMATCH_SIGNER_KEY), *sig = C(&m, 0, STORE_WMATCH_SIGNATURE);
    bool has_transcript = web_has_transcript(&m);
    const char *signature = signer[0] && sig[0] ? "signed" : "unsigned";
    char herr[256] = "";
    if (json) {
        static const char *const keys[] = {"id", "tournament", "tournament_name", "round", "table", "state", "digest",
                                           "transcript", "error", "games", "decisions", "wall_ms", "finished",
                                           "worker", "signer_key", "signature"};
        arb_buf_puts(b, "{");
        for (int k = 0; k < 16; k++) {
            arb_buf_printf(b, "%s\"%s\":", k ? "," : "", keys[k]);
            if (k == 0 || k == 1 || k == 3 || k == 4 || (k >= 9 && k <= 11))
                jnum(b, C(&m, 0, k));
            else
                web_j(b, C(&m, 0, k));
        }
        arb_buf_printf(b, ",\"signature_status\":\"%s\",\"seats\":[", signature);
        for (int i = 0; i < seats.nrows; i++) {
            arb_buf_printf(b, "%s{\"slot\":%s,\"name\":", i ? "," : "", C(&seats, i, STORE_MATCH_SLOT));
            web_j(b, C(&seats, i, STORE_MATCH_ENTRANT));
            arb_buf_puts(b, ",\"total\":");
            jnum(b, C(&seats, i, STORE_MATCH_TOTAL));
            arb_buf_puts(b, ",\"points\":");
            jnum(b, C(&seats, i, STORE_MATCH_POINTS));
            arb_buf_puts(b, ",\"rank\":");
            jnum(b, C(&seats, i, STORE_MATCH_RANK));
            arb_buf_printf(b, ",\"forfeited\":%s,\"penalties\":%s}",
                           strcmp(C(&seats, i, STORE_MATCH_FORFEITED), "t") == 0 ? "true" : "false",
                           C(&seats, i, STORE_MATCH_PENALTIES));
        }
        arb_buf_puts(b, "],\"deals\":[");
        for (int i = 0; i < deals.nrows; i++) {
            const char *ff = C(&deals, i, STORE_DEALS_FORFEIT_SLOT);
            arb_buf_printf(b, "%s{\"game\":%s,\"deal\":%s,\"seating\":%s,\"seat_slots\":[%s],\"scores\":[%s],"
                              "\"forfeit_slot\":%s}", i ? "," : "", C(&deals, i, STORE_DEALS_GAME),
                           C(&deals, i, STORE_DEALS_DEAL), C(&deals, i, STORE_DEALS_SEATING),
                           C(&deals, i, STORE_DEALS_SEAT_SLOTS), C(&deals, i, STORE_DEALS_SCORES), ff[0] ? ff : "null");
        }
        arb_buf_puts(b, "],\"penalties\":[");
        for (int i = 0; i < pen.nrows; i++) {
            arb_buf_printf(b, "%s{\"n\":%s,\"game\":%s,\"decision\":%s,\"slot\":%s,\"reason\":", i ? "," : "",
                           C(&pen, i, STORE_PENS_N), C(&pen, i, STORE_PENS_GAME), C(&pen, i, STORE_PENS_DECISION),
                           C(&pen, i, STORE_PENS_SLOT));
            web_j(b, C(&pen, i, STORE_PENS_REASON));
            arb_buf_puts(b, ",\"consequence\":");
            web_j(b, C(&pen, i, STORE_PENS_CONSEQUENCE));
            arb_buf_puts(b, "}");
        }
        arb_buf_puts(b, "],\"bots\":[");
        botend_ctx c = {b, true, 0, web_public_hide(&m)};
        if (has_transcript)
            bot_ends(p, &m, &c, herr, sizeof herr);
        arb_buf_puts(b, "]}\n");
        goto out;
    }
    char title[64];
    snprintf(title, sizeof title, "Match %" PRId64, mid);
    head(p, title, 0);
    arb_buf_printf(b, "<h1>Match %" PRId64 "</h1>\n<p class=\"meta\"><a href=\"", mid);
    web_link(p, "/t/%s", C(&m, 0, STORE_WMATCH_TOURNAMENT_ID));
    arb_buf_puts(b, "\">");
    web_h(b, C(&m, 0, STORE_WMATCH_TOURNAMENT));
    arb_buf_printf(b, "</a>, round %s, table %s: ", C(&m, 0, STORE_WMATCH_ROUND), C(&m, 0, STORE_WMATCH_TABLE));
    web_h(b, C(&m, 0, STORE_WMATCH_STATE));
    if (C(&m, 0, STORE_WMATCH_FINISHED)[0]) {
        arb_buf_puts(b, ", finished ");
        web_h(b, C(&m, 0, STORE_WMATCH_FINISHED));
    }
    if (C(&m, 0, STORE_WMATCH_REFEREE)[0]) {
        arb_buf_puts(b, " by worker ");
        web_h(b, C(&m, 0, STORE_WMATCH_REFEREE));
    }
    arb_buf_puts(b, "</p>\n");
    if (C(&m, 0, STORE_WMATCH_ERROR)[0]) {
        arb_buf_puts(b, "<p class=\"bad\">Void: ");
        web_h(b, C(&m, 0, STORE_WMATCH_ERROR));
        arb_buf_puts(b, "</p>\n");
    }
    static const char *const scols[] = {"Slot", "Entrant", "Score", "Points", "Rank", "Forfeited", "Penalties"};
    arb_buf_puts(b, "<h2>Seats</h2>\n<div class=\"scroll\" tabindex=\"0\"><table>");
    th(b, scols, 7);
    arb_buf_puts(b, "<tbody>");
    for (int i = 0; i < seats.nrows; i++) {
        arb_buf_printf(b, "<tr%s><th scope=\"row\">%s</th>",
                       strcmp(C(&seats, i, STORE_MATCH_RANK), "1") == 0 ? " class=\"win\"" : "",
                       C(&seats, i, STORE_MATCH_SLOT));
        td(b, C(&seats, i, STORE_MATCH_ENTRANT), false);
        for (int k = 9; k <= 11; k++)
            td(b, C(&seats, i, k), true);
        td(b, strcmp(C(&seats, i, STORE_MATCH_FORFEITED), "t") == 0 ? "yes" : "no", false);
        td(b, C(&seats, i, STORE_MATCH_PENALTIES), true);
        arb_buf_puts(b, "</tr>\n");
    }
    arb_buf_printf(b, "</tbody></table></div>\n<h2>Deals (%d)</h2>\n", deals.nrows);
    if (deals.nrows) {
        static const char *const dcols[] = {"Game", "Deal", "Seating", "Seat → slot", "Scores per seat", "Forfeit by slot"};
        rows_table(p, dcols, 6, &deals, 0x6);
    }
    arb_buf_printf(b, "<h2>Penalties (%d)</h2>\n", pen.nrows);
    if (pen.nrows) {
        static const char *const pcols[] = {"#", "Game", "Decision", "Slot", "Reason", "Consequence"};
        rows_table(p, pcols, 6, &pen, 0xe);
    }
    arb_buf_puts(b, "<h2>Transcript</h2>\n<p>Digest (SHA-256): <code>");
    web_h(b, C(&m, 0, STORE_WMATCH_DIGEST)[0] ? C(&m, 0, STORE_WMATCH_DIGEST) : "none (not played)");
    arb_buf_printf(b, "</code><br>Signature: %s", signature);
    if (signer[0]) {
        arb_buf_puts(b, " (key <code>");
        web_h(b, signer);
        arb_buf_puts(b, "</code>; check it with <code>arbiter verify</code>)");
    }
    arb_buf_puts(b, "</p>\n");
    if (has_transcript) {
        arb_buf_puts(b, "<p><a href=\"");
        web_link(p, "/m/%" PRId64 "/replay", mid);
        arb_buf_puts(b, "\">Replay it deal by deal</a>");
        if (p->mode == WEB_SERVED) {
            arb_buf_puts(b, " · <a href=\"");
            transcript_link(p, &m, mid);
            arb_buf_puts(b, "\">its records as JSON lines</a>");
        }
        arb_buf_puts(b, "</p>\n<h2>How the bots ended</h2>\n");
        botend_ctx c = {b, false, 0, web_public_hide(&m)};
        if (bot_ends(p, &m, &c, herr, sizeof herr) != 0) {
            arb_buf_puts(b, "<p class=\"muted\">The transcript cannot be read here: ");
            web_h(b, herr);
            arb_buf_puts(b, "</p>\n");
        }
    }
    foot(p, false);
out:
    store_rows_release(&m);
    store_rows_release(&seats);
    store_rows_release(&deals);
    store_rows_release(&pen);
}

/* The replay viewer's page (web/assets/viewer/, docs/web.md): the viewer
 * finds the transcript through #arb-viewer's data-transcript-url (served:
 * the NDJSON API) or, in a report, window.ARB_TRANSCRIPT from transcript.js. */
static void page_replay(web_page *p, int64_t mid)
{
    store_rows m = {0};
    if (!wrows(p, STORE_WEB_MATCH, mid, NULL, &m))
        return;
    if (!web_has_transcript(&m) || web_match_private(&m)) {
        fail(p, 404, m.nrows != 1 || web_match_private(&m) ? "no such match in the record" : "this match has no transcript");
        goto out;
    }
    arb_buf *b = p->b;
    char title[64];
    snprintf(title, sizeof title, "Replay of match %" PRId64, mid);
    head(p, title, 0);
    bool viewer = web_asset_find("viewer/viewer.js") != NULL;
    if (viewer) {
        arb_buf_puts(b, "<link rel=\"stylesheet\" href=\"");
        web_link(p, "/assets/viewer/viewer.css");
        arb_buf_puts(b, "\">\n");
    }
    arb_buf_printf(b, "<h1>%s</h1>\n<p class=\"meta\"><a href=\"", title);
    web_link(p, "/m/%" PRId64, mid);
    arb_buf_puts(b, "\">Back to the match</a></p>\n<section id=\"arb-viewer\" aria-label=\"replay\" data-match=\"");
    arb_buf_printf(b, "%" PRId64 "\" data-transcript-url=\"", mid);
    if (p->mode == WEB_SERVED)
        transcript_link(p, &m, mid);
    arb_buf_puts(b, "\">");
    if (!viewer)
        arb_buf_puts(b, "<p>This build has no replay viewer.</p>");
    arb_buf_puts(b, "<noscript><p>The replay viewer needs JavaScript.</p></noscript></section>\n</main>\n");
    if (p->mode == WEB_STATIC)
        arb_buf_puts(b, "<script src=\"transcript.js\"></script>\n");
    if (viewer) {
        arb_buf_puts(b, "<script src=\"");
        web_link(p, "/assets/viewer/viewer.js");
        arb_buf_puts(b, "\"></script>\n");
    }
    arb_buf_puts(b, "</body></html>\n");
out:
    store_rows_release(&m);
}

static void api_transcript(web_page *p, int64_t mid)
{
    store_rows m = {0};
    if (!wrows(p, STORE_WEB_MATCH, mid, NULL, &m))
        return;
    if (!web_has_transcript(&m) || web_match_private(&m) || !p->h || !p->h->json_lines) {
        fail(p, 404, m.nrows != 1 || web_match_private(&m) ? "no such match in the record"
                                                            : "this match has no transcript to show");
        goto out;
    }
    char err[600] = "";
    uint8_t *data = NULL;
    size_t len = 0;
    int rc = web_transcript(p->st, &m, &data, &len, err, sizeof err);
    if (rc == 0) {
        arb_buf_release(p->b);
        arb_buf_init(p->b, ARB_WEB_TRANSCRIPT_CAP);
        rc = p->h->json_lines(p->h->ctx, data, len, web_public_hide(&m), p->b, err, sizeof err);
    }
    free(data);
    if (rc) {
        fail(p, rc == ARB_ETOOBIG ? 500 : 404, err[0] ? err : "the transcript cannot be read");
        goto out;
    }
    p->out->type = NDJSON_TYPE;
    /* a finished match's transcript is its digest's: it never changes */
    if (strcmp(C(&m, 0, STORE_WMATCH_STATE), "done") == 0)
        snprintf(p->out->immutable, sizeof p->out->immutable, "%s", C(&m, 0, STORE_WMATCH_DIGEST));
out:
    store_rows_release(&m);
}

int web_match_transcript(store *st, int64_t mid, unsigned *hide, char digest[72], bool *done, uint8_t **data,
                         size_t *len, char *err, size_t errlen)
{
    store_rows m = {0};
    int status = 0;
    if (store_web(st, STORE_WEB_MATCH, mid, NULL, &m, err, errlen) != 0)
        return 500;
    bool hidden = hide && web_match_private(&m);
    if (!web_has_transcript(&m) || hidden) {
        snprintf(err, errlen, "%s", m.nrows != 1 || hidden ? "no such match in the record"
                                                           : "this match has no transcript to show");
        status = 404;
    } else {
        if (hide)
            *hide = web_public_hide(&m);
        snprintf(digest, 72, "%s", C(&m, 0, STORE_WMATCH_DIGEST));
        *done = strcmp(C(&m, 0, STORE_WMATCH_STATE), "done") == 0;
        int rc = data ? web_transcript(st, &m, data, len, err, errlen) : 0;
        status = rc == 0 ? 0 : rc == ARB_ETOOBIG ? 500 : 404;
    }
    store_rows_release(&m);
    return status;
}

/* ---- a ladder ------------------------------------------------------------ */

typedef struct board {
    int row;
    int order;           /* 0 ranked, 1 provisional, 2 validating, 3 suspended; others are not shown */
    double score;
    int entrant;
    int before;          /* the place it held ARB_WEB_RANK_WINDOW matches ago (0: it had no rating then) */
    char form[ARB_WEB_FORM + 1]; /* its latest results, oldest first: W, L, D */
} board;

static int by_board(const void *a, const void *b)
{
    const board *x = a, *y = b;
    if (x->order != y->order)
        return x->order - y->order;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->row - y->row;
}

/* The status order of an entry: 0 ranked, 1 provisional (fewer than
 * `provisional` games), 2 validating, 3 suspended, -1 not shown. */
static int board_order(const char *status, int games, int provisional)
{
    int order = strcmp(status, "active") == 0 ? 0 : strcmp(status, "validating") == 0 ? 2
                : strcmp(status, "suspended") == 0 ? 3 : -1;
    return order == 0 && games < provisional ? 1 : order;
}

/* The board's index of each entrant (entrant -> k, -1 not shown) over
 * entrants [0, *n): NULL when out of memory. */
static int *board_index(const board *e, int n, int *ne)
{
    *ne = 1;
    for (int k = 0; k < n; k++)
        *ne = e[k].entrant >= *ne ? e[k].entrant + 1 : *ne;
    int *pos = malloc((size_t)*ne * sizeof *pos);
    for (int u = 0; pos && u < *ne; u++)
        pos[u] = -1;
    for (int k = 0; pos && k < n; k++)
        if (e[k].entrant >= 0)
            pos[e[k].entrant] = k;
    return pos;
}

static int board_at(const int *pos, int ne, const char *entrant)
{
    int64_t u = arb_cell_int(entrant);
    return u >= 0 && u < ne ? pos[u] : -1;
}

/* Each shown entry's place ARB_WEB_RANK_WINDOW matches ago: the board
 * ordered by the ratings they had before those matches (each entry's
 * rating before its first rated match among them; an entry not rated in
 * them had the rating it has now), entries without a rating then left
 * out (before 0: new). Its latest results from f (STORE_WEB_LADDER_FORM). */
static void board_history(board *e, int n, const store_rows *r, const store_rows *bf, const store_rows *f, int sys,
                          int provisional)
{
    int ne;
    int *pos = board_index(e, n, &ne);
    board *old = calloc((size_t)n + 1, sizeof *old);
    rated *then = calloc((size_t)n + 1, sizeof *then);
    if (!pos || !old || !then)
        goto out;
    for (int k = 0; k < n; k++) {
        int i = e[k].row;
        then[k] = (rated){arb_cell_float(C(r, i, STORE_LADDER_MU)), arb_cell_float(C(r, i, STORE_LADDER_SIGMA)),
                          arb_cell_float(C(r, i, STORE_LADDER_VOL)),
                          C(r, i, STORE_LADDER_MU)[0] ? (int)arb_cell_int(C(r, i, STORE_LADDER_GAMES)) : 0};
    }
    for (int j = 0; j < bf->nrows; j++) {
        int k = board_at(pos, ne, C(bf, j, 0));
        if (k >= 0)
            then[k] = (rated){arb_cell_float(C(bf, j, 1)), arb_cell_float(C(bf, j, 2)), arb_cell_float(C(bf, j, 3)),
                              then[k].games - (int)arb_cell_int(C(bf, j, 4))};
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (then[k].games <= 0)
            continue;   /* no rating then */
        int order = board_order(C(r, e[k].row, STORE_LADDER_STATUS), then[k].games, provisional);
        old[m++] = (board){.row = k, .order = order < 0 ? 3 : order, .score = rated_score(sys, then[k])};
    }
    qsort(old, (size_t)m, sizeof *old, by_board);
    for (int j = 0; j < m; j++)
        e[old[j].row].before = j + 1;
    for (int j = 0; j < f->nrows; j++) {   /* oldest first, at most ARB_WEB_FORM an entrant */
        int k = board_at(pos, ne, C(f, j, 0));
        size_t len = k >= 0 ? strlen(e[k].form) : ARB_WEB_FORM;
        if (len < ARB_WEB_FORM) {
            e[k].form[len] = C(f, j, 1)[0];
            e[k].form[len + 1] = 0;
        }
    }
out:
    free(pos);
    free(old);
    free(then);
}

/* A number to two decimals (a page's), its full value in a tooltip. */
static void td_rounded(arb_buf *b, const char *v)
{
    if (!v[0]) {
        arb_buf_puts(b, "<td class=\"num\"></td>");
        return;
    }
    arb_buf_puts(b, "<td class=\"num\" title=\"");
    web_h(b, v);
    double x = arb_cell_float(v);
    arb_buf_printf(b, "\">%.2f</td>", fabs(x) < 0.005 ? 0.0 : x);
}

static void move_td(arb_buf *b, const board *x, int rank)
{
    int d = x->before - rank;
    if (!x->before)
        arb_buf_puts(b, "<td class=\"move\">new</td>");
    else if (d == 0)
        arb_buf_puts(b, "<td class=\"move\">–</td>");
    else
        arb_buf_printf(b, "<td class=\"move %s\" title=\"%s %d (was %d)\">%s%d</td>", d > 0 ? "up" : "down",
                       d > 0 ? "up" : "down", abs(d), x->before, d > 0 ? "▲" : "▼", abs(d));
}

static void form_td(arb_buf *b, const char *form)
{
    arb_buf_puts(b, "<td class=\"form\">");
    for (const char *c = form; *c; c++)
        arb_buf_printf(b, "<span class=\"form-%c\" title=\"%s\">%c</span>", *c == 'W' ? 'w' : *c == 'L' ? 'l' : 'd',
                       *c == 'W' ? "first at its table" : *c == 'L' ? "last at its table" : "neither first nor last",
                       *c == 'W' ? 'W' : *c == 'L' ? 'L' : 'D');
    arb_buf_puts(b, "</td>");
}

static void page_ladder(web_page *p, int64_t tid, bool json)
{
    store_rows t = {0}, r = {0}, hist = {0}, bf = {0}, form = {0};
    board *e = NULL;
    if (!tournament_row(p, tid, &t))
        return;
    if (strcmp(C(&t, 0, STORE_WTOUR_FORMAT), "ladder") != 0) {
        fail(p, 404, "this tournament is not a ladder");
        goto out;
    }
    if (!rows(p, STORE_REPORT_LADDER, tid, &r))
        goto out;
    e = calloc((size_t)r.nrows + 1, sizeof *e);
    if (!e) {
        fail(p, 500, "out of memory");
        goto out;
    }
    tn_rating sys = TN_RATING_OPENSKILL;
    wl_model model = WL_PLACKETT_LUCE;
    int provisional = 10;
    if (r.nrows) {
        tn_rating_parse(C(&r, 0, STORE_LADDER_SYSTEM), &sys);
        if (C(&r, 0, STORE_LADDER_MODEL)[0])
            wl_model_parse(C(&r, 0, STORE_LADDER_MODEL), &model);
        provisional = (int)arb_cell_int(C(&r, 0, STORE_LADDER_PROVISIONAL));
    }
    rated d = rated_default((int)sys, (int)model);
    int n = 0;
    for (int i = 0; i < r.nrows; i++) {
        int order = board_order(C(&r, i, STORE_LADDER_STATUS), (int)arb_cell_int(C(&r, i, STORE_LADDER_GAMES)), provisional);
        if (order < 0)
            continue;
        rated x = C(&r, i, STORE_LADDER_MU)[0] ? (rated){arb_cell_float(C(&r, i, STORE_LADDER_MU)),
                                                         arb_cell_float(C(&r, i, STORE_LADDER_SIGMA)),
                                                         arb_cell_float(C(&r, i, STORE_LADDER_VOL)),
                                                         (int)arb_cell_int(C(&r, i, STORE_LADDER_GAMES))}
                                               : d;
        e[n++] = (board){.row = i, .order = order, .score = rated_score((int)sys, x),
                         .entrant = (int)arb_cell_int(C(&r, i, STORE_LADDER_ENTRANT))};
    }
    qsort(e, (size_t)n, sizeof *e, by_board);
    char window[16], scan[16];
    snprintf(window, sizeof window, "%d", ARB_WEB_RANK_WINDOW);
    snprintf(scan, sizeof scan, "%d", ARB_WEB_FORM_SCAN);
    if (!wrows(p, STORE_WEB_LADDER_BEFORE, tid, window, &bf) || !wrows(p, STORE_WEB_LADDER_FORM, tid, scan, &form))
        goto out;
    board_history(e, n, &r, &bf, &form, (int)sys, provisional);
    /* the chart: the leaders' histories */
    int nlines = n < ARB_WEB_CHART_LINES ? n : ARB_WEB_CHART_LINES;
    web_series lines[ARB_WEB_CHART_LINES];
    char set[ARB_WEB_CHART_LINES * 12 + 4] = "{";
    for (int k = 0; k < nlines; k++) {
        lines[k] = (web_series){(int)arb_cell_int(C(&r, e[k].row, STORE_LADDER_ENTRANT)), C(&r, e[k].row, STORE_LADDER_NAME)};
        snprintf(set + strlen(set), sizeof set - strlen(set), "%s%d", k ? "," : "", lines[k].entrant);
    }
    snprintf(set + strlen(set), sizeof set - strlen(set), "}");   /* sized for it: never cut */
    if (!wrows(p, STORE_WEB_HISTORY, tid, set, &hist))
        goto out;
    arb_buf *b = p->b;
    static const char *const st_names[] = {"ranked", "provisional", "validating", "suspended"};
    if (json) {
        arb_buf_printf(b, "{\"id\":%" PRId64 ",\"name\":", tid);
        web_j(b, C(&t, 0, STORE_WTOUR_NAME));
        arb_buf_puts(b, ",\"game\":");
        web_j(b, C(&t, 0, STORE_WTOUR_GAME));
        arb_buf_puts(b, ",\"state\":");
        web_j(b, C(&t, 0, STORE_WTOUR_STATE));
        arb_buf_puts(b, ",\"rating_system\":");
        web_j(b, C(&t, 0, STORE_WTOUR_RATING_SYSTEM));
        arb_buf_puts(b, ",\"leaderboard\":[");
        for (int k = 0; k < n; k++) {
            int i = e[k].row;
            arb_buf_printf(b, "%s{\"rank\":%d,\"entrant\":%s,\"name\":", k ? "," : "", k + 1,
                           C(&r, i, STORE_LADDER_ENTRANT));
            web_j(b, C(&r, i, STORE_LADDER_NAME));
            arb_buf_printf(b, ",\"version\":%s,\"status\":\"%s\",\"score\":%.6g,\"mu\":",
                           C(&r, i, STORE_LADDER_VERSION),
                           st_names[e[k].order], e[k].score);
            jnum(b, C(&r, i, STORE_LADDER_MU));
            arb_buf_puts(b, ",\"sigma\":");
            jnum(b, C(&r, i, STORE_LADDER_SIGMA));
            arb_buf_printf(b, ",\"games\":%s,\"previous_rank\":", C(&r, i, STORE_LADDER_GAMES));
            if (e[k].before)
                arb_buf_printf(b, "%d,\"rank_change\":%d", e[k].before, e[k].before - (k + 1));
            else
                arb_buf_puts(b, "null,\"rank_change\":null");
            arb_buf_puts(b, ",\"form\":[");
            for (const char *c = e[k].form; *c; c++)
                arb_buf_printf(b, "%s\"%c\"", c > e[k].form ? "," : "", *c);
            arb_buf_puts(b, "]}");
        }
        arb_buf_printf(b, "],\"rank_window\":%d,\"history\":[", ARB_WEB_RANK_WINDOW);
        for (int i = 0; i < hist.nrows; i++)
            arb_buf_printf(b, "%s{\"entrant\":%s,\"match\":%s,\"mu\":%s,\"sigma\":%s}", i ? "," : "",
                           C(&hist, i, STORE_WHISTORY_ENTRANT), C(&hist, i, STORE_WHISTORY_MATCH),
                           C(&hist, i, STORE_WHISTORY_MU), C(&hist, i, STORE_WHISTORY_SIGMA));
        arb_buf_puts(b, "]}\n");
        goto out;
    }
    head(p, C(&t, 0, STORE_WTOUR_NAME), 0);
    arb_buf_puts(b, "<h1>");
    web_h(b, C(&t, 0, STORE_WTOUR_NAME));
    arb_buf_puts(b, "</h1>\n<p class=\"meta\">Ladder of ");
    web_h(b, C(&t, 0, STORE_WTOUR_GAME));
    arb_buf_puts(b, ", rated by ");
    web_h(b, C(&t, 0, STORE_WTOUR_RATING_SYSTEM));
    arb_buf_printf(b, "; %d entries shown (provisional: fewer than %d games).</p>\n<h2>Leaderboard</h2>\n", n,
                   provisional);
    static const char *const cols[] = {"Rank", "Move", "Entry", "Status", "Score", "μ", "σ", "Games", "Form"};
    arb_buf_printf(b, "<div class=\"scroll\" tabindex=\"0\"><table id=\"leaderboard\"><caption class=\"muted\">Move: places gained "
                      "(▲) or lost (▼) over the ladder's last %d matches (new: no rating before them). Form: the "
                      "last %d results, oldest first — W first at its table, L last, D neither. Numbers to two "
                      "decimals (the full value on hover, and in the JSON).</caption>",
                   ARB_WEB_RANK_WINDOW, ARB_WEB_FORM);
    th(b, cols, 9);
    arb_buf_puts(b, "<tbody>");
    for (int k = 0; k < n; k++) {
        int i = e[k].row;
        arb_buf_printf(b, "<tr><th scope=\"row\">%d</th>", k + 1);
        move_td(b, &e[k], k + 1);
        arb_buf_puts(b, "<td><a href=\"");
        web_link(p, "/t/%" PRId64 "/e/%s", tid, C(&r, i, STORE_LADDER_ENTRANT));
        arb_buf_puts(b, "\">");
        web_h(b, C(&r, i, STORE_LADDER_NAME));
        char score[32];
        snprintf(score, sizeof score, "%.17g", e[k].score);
        arb_buf_printf(b, "</a></td><td>%s</td>", st_names[e[k].order]);
        td_rounded(b, score);
        td_rounded(b, C(&r, i, STORE_LADDER_MU));
        td_rounded(b, C(&r, i, STORE_LADDER_SIGMA));
        td(b, C(&r, i, STORE_LADDER_GAMES), true);
        form_td(b, e[k].form);
        arb_buf_puts(b, "</tr>\n");
    }
    arb_buf_puts(b, "</tbody></table></div>\n<h2>Rating history of the leaders</h2>\n");
    web_svg_chart(p, "rating history of the leaders", lines, nlines, &hist);
    foot(p, false);
out:
    free(e);
    store_rows_release(&t);
    store_rows_release(&r);
    store_rows_release(&hist);
    store_rows_release(&bf);
    store_rows_release(&form);
}

/* ---- the pool ------------------------------------------------------------ */

static void page_pool(web_page *p, bool json)
{
    store_rows r;
    if (!rows(p, STORE_REPORT_POOL, 0, &r))
        return;
    arb_buf *b = p->b;
    static const char *const keys[] = {"worker", "slots", "state", "running", "done", "lost", "handed_back", "last_heard"};
    if (json) {
        rows_json(b, &r, keys, 8, 1u << 0 | 1u << 2 | 1u << 7);
    } else {
        head(p, "Workers", 0);
        arb_buf_puts(b, "<h1>Workers</h1>\n");
        if (r.nrows == 0)
            arb_buf_puts(b, "<p>No referee worker has said hello to a scheduler of this record.</p>\n");
        else {
            static const char *const cols[] = {"Worker", "Slots", "State", "Running", "Done", "Lost", "Handed back",
                                               "Last heard"};
            rows_table(p, cols, 8, &r, 0x7a);
        }
        foot(p, false);
    }
    store_rows_release(&r);
}

/* ---- routing ------------------------------------------------------------- */

void web_render(store *st, const web_hooks *h, web_mode mode, const char *path, web_out *out)
{
    web_page pg = {.st = st, .h = h, .mode = mode, .out = out, .b = &out->body};
    web_page *p = &pg;
    route r;
    int64_t a, b;
    out->status = 200;
    out->type = HTML_TYPE;
    out->immutable[0] = '\0';
    arb_buf_reset(&out->body);
    if (mode == WEB_STATIC) {
        char file[ARB_WEB_MAX_URL + 1];
        const char *f = web_static_file(path, file, sizeof file);
        for (; f && *f; f++)
            pg.depth += *f == '/';
    }
    if (strlen(path) > ARB_WEB_MAX_URL || !split(path, &r)) {
        fail(p, 404, "not found (docs/web.md lists the routes)");
        return;
    }
    bool api = is(&r, 0, "api");
    int o = api ? 1 : 0;        /* the page's parts start here */
    if (api)
        out->type = JSON_TYPE;
    int n = r.n - o;
    if ((!api && r.n == 0) || (api && n == 1 && is(&r, o, "tournaments")))
        page_tournaments(p, api);
    else if (n == 2 && is(&r, o, "t") && id_at(&r, o + 1, &a))
        page_tournament(p, a, api, false);
    else if (api && n == 3 && is(&r, o, "t") && id_at(&r, o + 1, &a) && is(&r, o + 2, "standings"))
        page_tournament(p, a, true, true);
    else if (n == 4 && is(&r, o, "t") && id_at(&r, o + 1, &a) && is(&r, o + 2, "e") && id_at(&r, o + 3, &b))
        page_entrant(p, a, b, api);
    else if (n == 2 && is(&r, o, "l") && id_at(&r, o + 1, &a))
        page_ladder(p, a, api);
    else if (n == 2 && is(&r, o, "m") && id_at(&r, o + 1, &a))
        page_match(p, a, api);
    else if (api && n == 3 && is(&r, o, "m") && id_at(&r, o + 1, &a) && is(&r, o + 2, "transcript"))
        api_transcript(p, a);
    else if (!api && n == 3 && is(&r, o, "m") && id_at(&r, o + 1, &a) && is(&r, o + 2, "replay"))
        page_replay(p, a);
    else if (n == 1 && is(&r, o, "pool"))
        page_pool(p, api);
    else
        fail(p, 404, "not found (docs/web.md lists the routes)");
    /* a page past ARB_WEB_PAGE_CAP lost an append somewhere: never send it cut */
    if (out->status == 200 && out->body.len + 64 >= out->body.cap)
        fail(p, 500, "the answer is larger than the server's limit");
}

/* ---- the live stream ----------------------------------------------------- */

int web_live_progress(store *st, int64_t tid, web_progress *pg)
{
    store_rows g = {0};
    char err[256];
    int rc = store_web(st, STORE_WEB_PROGRESS, tid, NULL, &g, err, sizeof err);
    if (rc)
        return rc;
    if (g.nrows != 1) {
        store_rows_release(&g);
        return ARB_ENOTFOUND;
    }
    arb_buf pj;
    arb_buf_init(&pj, sizeof pg->json - 1);
    progress_json(&pj, &g);
    snprintf(pg->json, sizeof pg->json, "%s", arb_buf_str(&pj));
    snprintf(pg->last, sizeof pg->last, "%s", C(&g, 0, STORE_WPROGRESS_LAST_RESULT));
    pg->over = strcmp(C(&g, 0, STORE_WPROGRESS_STATE), "done") == 0;
    arb_buf_release(&pj);
    store_rows_release(&g);
    return 0;
}

int web_live_poll(store *st, web_live *lv, const web_progress *pg, arb_buf *out)
{
    store_rows r = {0};
    char err[256];
    int rc = 0;
    if (!lv->started || strcmp(pg->json, lv->progress) != 0) {
        snprintf(lv->progress, sizeof lv->progress, "%s", pg->json);
        arb_buf_printf(out, "event: progress\ndata: %s\n\n", lv->progress);
    }
    const char *last = pg->last;
    if (!lv->started) {
        /* only what lands from now on: the page shows what is there */
        snprintf(lv->since, sizeof lv->since, "%s", last);
        lv->started = true;
    } else if (last[0] && strcmp(last, lv->since) > 0) {
        rc = store_web(st, STORE_WEB_RESULTS_SINCE, lv->tid, lv->since[0] ? lv->since : "1970-01-01T00:00:00", &r,
                       err, sizeof err);
        for (int from = 0, to; rc == 0 && from < r.nrows; from = to) {
            to = match_end(&r, from);
            arb_buf_printf(out, "event: result\ndata: {\"id\":%s,\"round\":%s,\"table\":%s,\"seats\":[", C(&r, from, STORE_WRESULTS_MATCH),
                           C(&r, from, STORE_WRESULTS_ROUND), C(&r, from, STORE_WRESULTS_TABLE));
            for (int i = from; i < to; i++) {
                arb_buf_printf(out, "%s{\"slot\":%s,\"name\":", i > from ? "," : "", C(&r, i, STORE_WRESULTS_SLOT));
                web_j(out, C(&r, i, STORE_WRESULTS_NAME));
                arb_buf_puts(out, ",\"total\":");
                jnum(out, C(&r, i, STORE_WRESULTS_TOTAL));
                arb_buf_puts(out, ",\"points\":");
                jnum(out, C(&r, i, STORE_WRESULTS_POINTS));
                arb_buf_puts(out, ",\"rank\":");
                jnum(out, C(&r, i, STORE_WRESULTS_RANK));
                arb_buf_puts(out, "}");
            }
            arb_buf_puts(out, "]}\n\n");
            snprintf(lv->since, sizeof lv->since, "%s", C(&r, from, STORE_WRESULTS_FINISHED));
        }
    }
    store_rows_release(&r);
    return rc;
}
