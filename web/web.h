/* web.h — arbiter in the browser (docs/web.md): the pages and JSON API over
 * the record, served read-only by `arbiter serve` (web_server) or written
 * as static files by `arbiter report` (web_report). The web layer reads
 * the record through the store (record/store.h) and nothing else of the
 * scheduler; transcripts come through hooks the caller gives (cli/ passes
 * the referee's reader), so the web layer never links the referee. */
#ifndef ARB_WEB_H
#define ARB_WEB_H
#include "arb_buf.h"
#include "arb_limits.h"
#include "store.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- escaping (web_esc.c): one function per language, used everywhere -- */

/* Append len bytes of in to b as HTML text or an attribute value (quoted
 * with "): & < > " ' as entities; tab and newline as they are; every other
 * control character and each byte of invalid UTF-8 as U+FFFD (so no byte
 * can open a tag, end an attribute or hide text). 0, or ARB_ETOOBIG past
 * b's cap. */
int web_html(arb_buf *b, const char *in, size_t len);
/* The same for a NUL-terminated string (NULL is ""). */
int web_h(arb_buf *b, const char *s);
/* A JSON string, quotes included (arb_json_str); also escapes '<', '>' and
 * '&' as \u003c.. so that JSON placed in a page's script or a static
 * report's transcript.js can never close a script element. NULL is "". */
int web_j(arb_buf *b, const char *s);
/* The same for len bytes of in, a NUL among them (as \u0000). */
int web_json(arb_buf *b, const char *in, size_t len);

/* ---- assets (web_assets.c, generated from web/assets/) ---------------- */

typedef struct web_asset {
    const char *name;            /* its path under web/assets/ ("style.css", "viewer/viewer.js") */
    const char *type;            /* its Content-Type */
    const unsigned char *data;
    size_t len;
} web_asset;
/* The asset of that name, or NULL: a name is looked up, never a path opened. */
const web_asset *web_asset_find(const char *name);
/* Every asset: *n of them. */
const web_asset *web_assets(size_t *n);

/* ---- pages (web_pages.c) ---------------------------------------------- */

/* What the web layer asks of a transcript's bytes (which it reads from
 * the record, store_transcript_load; the caller's reader parses them:
 * cli/ uses the referee's). json_lines: its records as JSON lines
 * (`arbiter replay FILE --json`), into out, the stderr of the bots in the
 * mask hide emptied as web_lines.hide_stderr says; botends: for each bot's end,
 * its index, how it ended and its stderr tail, through each. Both 0 or < 0
 * with a message in err. Either may be NULL (then the transcript is not
 * shown). */
/* Where a transcript's JSON lines stand, for json_lines_from: the
 * caller's, zeroed to start. */
typedef struct web_lines {
    size_t off;                  /* the next record's offset in the transcript (its length: all done) */
    bool told_end[ARB_MAX_SEATS];   /* what the lines so far told of the bots' ends */
    unsigned hide_stderr;        /* bit b: bot b's stderr is private here: its botend line says
                                    "stderr":"" and "stderr_private":true (docs/api.md) */
} web_lines;

typedef struct web_hooks {
    int (*json_lines)(void *ctx, const uint8_t *data, size_t len, unsigned hide, arb_buf *out, char *err,
                      size_t errlen);
    int (*botends)(void *ctx, const uint8_t *data, size_t len,
                   void (*each)(void *arg, int bot, const char *ended, const char *err, size_t errlen),
                   void *arg, char *err, size_t errlen);
    void *ctx;
    /* json_lines a piece at a time (the server streams a transcript): the
     * lines of the records from at->off on, appended to out until it holds
     * want bytes or more (or the records end: at->off == len); at moves on.
     * 0 or < 0 with a message in err. */
    int (*json_lines_from)(void *ctx, const uint8_t *data, size_t len, web_lines *at, arb_buf *out, size_t want,
                           char *err, size_t errlen);
    /* A tournament file that came over the API (POST /api/v1/tournaments,
     * docs/api.md): checked as `arbiter submit` checks a file, by the
     * scheduler's loader for text from outside (label its name in
     * messages; nothing in it may name a file of the host), then put in
     * the record on st with submitted_by = account, the audit row that
     * store_audit_next set committed with it. 0 with *tid, *created and
     * its name; ARB_EEXIST (its name is another file's); another < 0 with
     * "LABEL:LINE:COL: message" in err for a file refused (*bad: the
     * file's fault, 400) or the record's failure (!*bad). */
    int (*submit)(void *ctx, store *st, const char *label, const char *text, size_t len, const char *account,
                  int64_t *tid, bool *created, char *name, size_t namelen, bool *bad, char *err, size_t errlen);
} web_hooks;

typedef enum web_mode {
    WEB_SERVED,                  /* links absolute ("/t/3"), the live script, the viewer fetching the API */
    WEB_STATIC,                  /* a report's files: links relative, no live updates */
} web_mode;

/* One answer. */
typedef struct web_out {
    int status;                  /* 200, 404, 500 ... */
    const char *type;            /* Content-Type (a constant) */
    arb_buf body;                /* capped at ARB_WEB_PAGE_CAP (the transcript's: ARB_WEB_TRANSCRIPT_CAP) */
    char immutable[72];          /* set when the answer can never change: the finished match's
                                    transcript digest it is made from ("" otherwise) */
} web_out;
void web_out_init(web_out *o);
void web_out_release(web_out *o);

/* The page or API answer for path (the URL's path, no query), from the
 * record in st: 200 with the body, 404 for what is not one of the routes
 * (docs/web.md) or not in the record, 500 with a message. The caller has
 * already refused methods other than GET and HEAD. Assets, the event
 * stream and static-file names are the server's and the report's. */
void web_render(store *st, const web_hooks *h, web_mode mode, const char *path, web_out *out);

/* In WEB_STATIC mode: the file a route is written to, relative to the
 * report's directory ("/t/3" -> "index.html", "/m/12" -> "m/12.html"), or
 * NULL for a route a report does not hold. */
const char *web_static_file(const char *route, char *buf, size_t cap);

/* ---- the live stream (web_pages.c) ------------------------------------ */

/* The state an event stream compares against the record each second. */
typedef struct web_live {
    int64_t tid;
    char progress[256];          /* the last progress sent (its JSON) */
    char since[40];              /* results after this time are sent next ("" none yet: only new ones) */
    bool started;
} web_live;
/* A tournament's progress as a live page sees it: the counts (the JSON of
 * a progress event) and the time of its last result ("" none). */
typedef struct web_progress {
    char json[256];
    char last[40];
    bool over;                   /* the tournament is done: its stream ends */
} web_progress;
/* Read it: 0, ARB_ENOTFOUND (no such tournament), or < 0. One read serves
 * every stream of that tournament for a second (web_server.c), so many
 * spectators of a large ladder cost the record one read a second. */
int web_live_progress(store *st, int64_t tid, web_progress *pg);
/* Append to out the events since the last call, given the progress just
 * read: `event: progress` when the counts changed (always on the first
 * call), `event: result` per match recorded since. 0 or < 0. */
int web_live_poll(store *st, web_live *lv, const web_progress *pg, arb_buf *out);

/* ---- the server (web_server.c) ---------------------------------------- */

typedef struct web_server web_server;
/* How a server takes its clients. */
typedef struct web_options {
    /* peers whose X-Forwarded-For is believed ("ADDR" or "ADDR/BITS",
     * IPv4 or IPv6): the client is then the right-most address of it that
     * is not one of them (docs/web.md, "Serving a crowd") */
    const char *const *trusted_proxy;
    int ntrusted_proxy;
    /* added to the niceness of the threads that answer (0: as the
     * process): the scheduler daemon's own pages run at
     * WEB_SCHEDULER_NICE, so that recording results and the referee's
     * bots come before spectators when the CPU is short */
    int nice;
    /* HTTPS (libmicrohttpd with GnuTLS): the certificate (chain) and its
     * key, PEM files; both or neither (docs/operations.md, "TLS") */
    const char *tls_cert, *tls_key;
    /* what the server says at start about its database role (the API's
     * and the pages' sessions as arbiter_web, or why not), when not NULL */
    char *role_note;
    size_t role_note_len;
} web_options;
#define WEB_SCHEDULER_NICE 10
/* Serve the record at conninfo on listen ("HOST:PORT"; PORT 0 any free
 * one): a pool of read-only sessions of its own (store_read_only). NULL
 * with a message on failure (a bad trusted proxy among them). hooks are
 * copied; their ctx must outlive the server; opt may be NULL. */
web_server *web_server_open(const char *conninfo, const char *listen, const web_hooks *hooks,
                            const web_options *opt, char *err, size_t errlen);
/* web_server_open with no options. */
web_server *web_server_start(const char *conninfo, const char *listen, const web_hooks *hooks, char *err,
                             size_t errlen);
int web_server_port(const web_server *w);
void web_server_stop(web_server *w);   /* NULL is fine */

/* ---- the report (web_report.c) ---------------------------------------- */

/* Write tournament tid's pages, their JSON, its matches' pages and
 * transcripts (m/ID/transcript.js) and the assets under dir (made when
 * missing). *files: how many were written. 0 or < 0 with a message. */
int web_report(store *st, const web_hooks *h, int64_t tid, const char *dir, int *files, char *err, size_t errlen);

#endif
