/* web_int.h — what the web layer's files share (web.h is the public side):
 * the page being rendered and how it links, and the SVG drawings. */
#ifndef ARB_WEB_INT_H
#define ARB_WEB_INT_H
#include "web.h"
#include "arb_error.h"
#include "arb_limits.h"

/* An id of a route: decimal digits, 1..18 of them, no leading zero (one
 * URL per page: "/t/012" is not "/t/12"; "0" is 0, an entrant's index). */
bool web_parse_id(const char *s, size_t len, int64_t *id);

/* One page being rendered. */
typedef struct web_page {
    store *st;
    const web_hooks *h;
    web_mode mode;
    int depth;                   /* WEB_STATIC: directories between the page's file and the report's root */
    web_out *out;
    arb_buf *b;                  /* &out->body */
} web_page;

/* Append the href of a route (printf-formatted from our own numbers; never
 * a text from the record): as is when served, relative to the page's file
 * in a report ("#" for a route a report does not hold). Escaped. */
void web_link(web_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The transcript of a STORE_WEB_MATCH row, from the record (the file it
 * names for a record made before transcripts were kept in it): 0 with
 * *data (free it), or < 0 with why in err ("transcript pruned on ... by
 * retention"). web_has_transcript: whether the row has one at all. */
int  web_transcript(store *st, const store_rows *m, uint8_t **data, size_t *len, char *err, size_t errlen);
bool web_has_transcript(const store_rows *m);
/* Of a STORE_WEB_MATCH row, for the public (docs/security.md, "Whose
 * stderr"): whether the match is private to its seats' owners and the
 * arbiters (a ladder's validation match when the record has accounts:
 * the public routes answer 404), and the mask of bots whose stderr the
 * public may not read (every bot's when the tournament's stderr is
 * private: visibility.stderr, or by default when the record has
 * accounts; 0 when public). */
bool web_match_private(const store_rows *m);
unsigned web_public_hide(const store_rows *m);
/* Match mid's transcript for the server's stream (web_server.c): its
 * digest ("" none) and whether the match is done (then it never
 * changes); with data non-NULL the transcript's bytes too (free them).
 * 0, or the status to answer (404, 500) with why in err. With hide
 * non-NULL the reader is the public: 404 for a match private to its
 * seats' owners (web_match_private), and *hide the bots whose stderr it
 * may not read (web_public_hide). */
int  web_match_transcript(store *st, int64_t mid, unsigned *hide, char digest[72], bool *done, uint8_t **data, size_t *len,
                          char *err, size_t errlen);

/* A line of a chart: the entrant (index) and its name. */
typedef struct web_series {
    int entrant;
    const char *name;
} web_series;
/* The knockout formats' brackets. */
typedef enum web_bracket_kind {
    WEB_BRACKET_SINGLE,          /* single elimination: a column per round */
    WEB_BRACKET_DOUBLE,          /* double elimination: winners' and losers' brackets, the grand final, its reset */
    WEB_BRACKET_GROUPS,          /* groups then knockout: the groups with their qualifiers, then the knockout */
} web_bracket_kind;
/* The bracket from STORE_WEB_SEATS rows (STORE_WEB_TEAM_SEATS in
 * partnership play: a team a row), champions in bold in the last box.
 * 0 or < 0. */
int web_svg_bracket(web_page *p, const store_rows *seats, web_bracket_kind kind, const int *champions, int nchampions);
/* Rating lines of s[0..ns) from STORE_WEB_HISTORY rows h. 0 or < 0. */
int web_svg_chart(web_page *p, const char *title, const web_series *s, int ns, const store_rows *h);

#endif
