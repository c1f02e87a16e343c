/* web_report.c — `arbiter report`: a tournament's pages written as static
 * files (docs/web.md) — the same renderers as the server in WEB_STATIC
 * mode, relative links, so the directory can be opened from disk or put
 * on any web host. Written safely (arb_file.h, "writing where a user
 * points"): into a directory made here or the caller's alone, never
 * through a link; a report run again replaces each file in place by a
 * rename, so a web host publishing the directory serves the old page or
 * the new one, never half of one. */
#include "web_int.h"
#include "arb_file.h"

#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct report {
    store *st;
    const web_hooks *h;
    const char *dir;
    int dirfd;            /* dir, opened by arb_wdir_open */
    int files;
    char *err;
    size_t errlen;
} report;

/* dir/rel, rel's directories made first: each opened from the report's
 * directory without following a link, the caller's alone (arb_file.h),
 * the file written beside its name and renamed over it. 0 or < 0 with a
 * message. */
static int put_file(report *r, const char *rel, const void *data, size_t len)
{
    char shown[4096], name[4096];
    if ((size_t)snprintf(shown, sizeof shown, "%s/%s", r->dir, rel) >= sizeof shown) {
        snprintf(r->err, r->errlen, "%s/%s: path too long", r->dir, rel);
        return ARB_EINVAL;
    }
    snprintf(name, sizeof name, "%s", rel);
    int fd = r->dirfd, rc = 0;
    char *part = name;
    for (char *slash; !rc && (slash = strchr(part, '/')) != NULL; part = slash + 1) {
        *slash = 0;
        shown[strlen(r->dir) + 1 + (size_t)(slash - name)] = 0;   /* dir/ up to this directory */
        int sub = -1;
        rc = arb_wdir_sub(fd, part, shown, &sub, r->err, r->errlen);
        shown[strlen(shown)] = '/';
        if (fd != r->dirfd)
            close(fd);
        fd = sub;
    }
    if (!rc)
        rc = arb_wdir_put(fd, part, data, len, 0644, shown, r->err, r->errlen);
    if (fd >= 0 && fd != r->dirfd)
        close(fd);
    if (!rc)
        r->files++;
    return rc;
}

/* A route rendered into its file; a route the record lacks is skipped. */
static int put_route(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put_route(report *r, const char *fmt, ...)
{
    char route[ARB_WEB_MAX_URL + 1], file[ARB_WEB_MAX_URL + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(route, sizeof route, fmt, ap);
    va_end(ap);
    if (!web_static_file(route, file, sizeof file))
        return 0;
    web_out out;
    web_out_init(&out);
    web_render(r->st, r->h, WEB_STATIC, route, &out);
    int rc = 0;
    if (out.status == 200)
        rc = put_file(r, file, out.body.data ? out.body.data : "", out.body.len);
    else if (out.status != 404) {
        snprintf(r->err, r->errlen, "%s: %s", route, arb_buf_str(&out.body));
        rc = ARB_EIO;
    }
    web_out_release(&out);
    return rc;
}

/* m/ID/transcript.js: the records for the viewer, as a script (a page
 * opened from disk cannot fetch JSON): one string of NDJSON, which a
 * browser parses far faster than the same records as an array literal
 * (a 1,000-deal match is half a million records); web_j escapes <, > and
 * &, so no record can close the script element. */
static int put_transcript(report *r, const char *mid, const store_rows *m)
{
    if (!r->h || !r->h->json_lines)
        return 0;
    uint8_t *data = NULL;
    size_t len = 0;
    arb_buf lines, js;
    arb_buf_init(&lines, ARB_WEB_TRANSCRIPT_CAP);
    arb_buf_init(&js, 2 * (size_t)ARB_WEB_TRANSCRIPT_CAP + 64);   /* escaped: \" for " */
    char err[512] = "", rel[64];
    int rc = 0;
    if (web_transcript(r->st, m, &data, &len, err, sizeof err) != 0
        || r->h->json_lines(r->h->ctx, data, len, web_public_hide(m), &lines, err, sizeof err) != 0)
        goto out;   /* pruned, or (an old record) not on this host: the match page says so */
    arb_buf_puts(&js, "window.ARB_TRANSCRIPT = ");
    if (web_j(&js, arb_buf_str(&lines)) != 0 || arb_buf_puts(&js, ";\n") != 0) {
        snprintf(r->err, r->errlen, "match %s: its transcript is past the report's limit", mid);
        rc = ARB_ETOOBIG;
        goto out;
    }
    snprintf(rel, sizeof rel, "m/%s/transcript.js", mid);
    rc = put_file(r, rel, js.data, js.len);
out:
    free(data);
    arb_buf_release(&lines);
    arb_buf_release(&js);
    return rc;
}

int web_report(store *st, const web_hooks *h, int64_t tid, const char *dir, int *files, char *err, size_t errlen)
{
    report r = {st, h, dir, -1, 0, err, errlen};
    store_rows seats = {0}, ents = {0};
    int rc = arb_wdir_open(dir, "report", &r.dirfd, err, errlen);
    if (rc)
        return rc;
    if ((rc = store_web(st, STORE_WEB_SEATS, tid, NULL, &seats, err, errlen)) != 0
        || (rc = store_report(st, STORE_REPORT_LADDER, tid, &ents, err, errlen)) != 0)
        goto out;
    if ((rc = put_route(&r, "/t/%" PRId64, tid)) || (rc = put_route(&r, "/api/t/%" PRId64, tid))
        || (rc = put_route(&r, "/api/t/%" PRId64 "/standings", tid)))
        goto out;
    /* the entrants: those seated in a match, and a ladder's entries */
    store_standing *sr = calloc(ARB_TN_MAX_ENTRANTS, sizeof *sr);
    int n = sr ? store_standings(st, tid, false, sr, ARB_TN_MAX_ENTRANTS) : -1;
    for (int i = 0; i < n && !rc; i++)
        if (!(rc = put_route(&r, "/t/%" PRId64 "/e/%d", tid, sr[i].entrant)))
            rc = put_route(&r, "/api/t/%" PRId64 "/e/%d", tid, sr[i].entrant);
    free(sr);
    for (int i = 0; i < seats.nrows && !rc; i++) {
        if (i > 0
            && strcmp(store_cell(&seats, i, STORE_WSEATS_MATCH), store_cell(&seats, i - 1, STORE_WSEATS_MATCH)) == 0)
            continue;
        const char *mid = store_cell(&seats, i, STORE_WSEATS_MATCH);
        store_rows m;
        int64_t id = strtoll(mid, NULL, 10);
        if ((rc = store_web(st, STORE_WEB_MATCH, id, NULL, &m, err, errlen)) != 0)
            break;
        /* a validation match is its entry owner's: not in a report (the
         * public's) when the record has accounts */
        if (web_match_private(&m)) {
            store_rows_release(&m);
            continue;
        }
        if ((rc = put_route(&r, "/m/%s", mid)) || (rc = put_route(&r, "/api/m/%s", mid))) {
            store_rows_release(&m);
            break;
        }
        if (web_has_transcript(&m) && !(rc = put_route(&r, "/m/%s/replay", mid)))
            rc = put_transcript(&r, mid, &m);
        store_rows_release(&m);
    }
    size_t na;
    const web_asset *a = web_assets(&na);
    for (size_t i = 0; i < na && !rc; i++) {
        char rel[ARB_WEB_MAX_URL + 16];
        snprintf(rel, sizeof rel, "assets/%s", a[i].name);
        if (a[i].name[0])
            rc = put_file(&r, rel, a[i].data, a[i].len);
    }
out:
    store_rows_release(&seats);
    store_rows_release(&ents);
    close(r.dirfd);
    *files = r.files;
    return rc;
}
