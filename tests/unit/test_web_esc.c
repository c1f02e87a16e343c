/* test_web_esc.c — the web pages' escaping (web/web_esc.c): HTML text and
 * attributes, JSON that may sit in a script, static-file names of routes;
 * hostile bytes (tags, quotes, controls, invalid UTF-8, bidirectional
 * overrides) always come out as text. */
#include "web.h"
#include "arb_error.h"
#include "test_util.h"

#include <string.h>

static const char *html(const char *in, size_t len)
{
    static arb_buf b;
    arb_buf_release(&b);
    arb_buf_init(&b, 0);
    CHECK(web_html(&b, in, len) == 0);
    return arb_buf_str(&b);
}

static const char *json(const char *in)
{
    static arb_buf b;
    arb_buf_release(&b);
    arb_buf_init(&b, 0);
    CHECK(web_j(&b, in) == 0);
    return arb_buf_str(&b);
}

#define H(s) html(s, sizeof s - 1)

int main(void)
{
    /* HTML */
    CHECK(strcmp(H("plain name-1.v2"), "plain name-1.v2") == 0);
    CHECK(strcmp(H("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;") == 0);
    CHECK(strcmp(H("a&b \"q\" 'p'"), "a&amp;b &quot;q&quot; &#39;p&#39;") == 0);
    CHECK(strcmp(H("\" onmouseover=\"x"), "&quot; onmouseover=&quot;x") == 0);
    CHECK(strcmp(H("line\nnext\tcol"), "line\nnext\tcol") == 0);
    CHECK(strcmp(H("esc\033[31mred\r"), "esc&#xFFFD;[31mred&#xFFFD;") == 0);
    CHECK(strcmp(H("nul\0x"), "nul&#xFFFD;x") == 0);
    CHECK(strcmp(H("黑桃♠"), "黑桃♠") == 0);                              /* valid UTF-8 kept */
    CHECK(strcmp(H("\xff\xfe<"), "&#xFFFD;&#xFFFD;&lt;") == 0);           /* invalid bytes */
    CHECK(strcmp(H("\xc0\xbc"), "&#xFFFD;&#xFFFD;") == 0);                /* overlong '<' */
    CHECK(strcmp(H("\xed\xa0\x80"), "&#xFFFD;&#xFFFD;&#xFFFD;") == 0);    /* a surrogate */
    CHECK(strcmp(H("a\xe2\x80\xae" "b"), "a&#xFFFD;&#xFFFD;&#xFFFD;b") == 0); /* RLO override */
    CHECK(strcmp(H("\xc2\x85"), "&#xFFFD;&#xFFFD;") == 0);                /* C1 NEL */
    CHECK(strcmp(H("\xe4\xb8"), "&#xFFFD;&#xFFFD;") == 0);                /* cut sequence */
    CHECK(strcmp(html(NULL, 0), "") == 0);
    arb_buf small;
    arb_buf_init(&small, 8);
    CHECK(web_h(&small, "<<<<") == ARB_ETOOBIG);   /* past the cap: refused, never cut mid-entity */
    CHECK(strchr(arb_buf_str(&small), '&') == NULL || strlen(arb_buf_str(&small)) % 4 == 0);
    arb_buf_release(&small);

    /* JSON: valid, and no byte can close a script element */
    CHECK(strcmp(json("x"), "\"x\"") == 0);
    CHECK(strcmp(json("</script><b>&"), "\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\"") == 0);
    CHECK(strcmp(json("q\"b\\"), "\"q\\\"b\\\\\"") == 0);
    CHECK(strcmp(json("\033"), "\"\\u001b\"") == 0);
    CHECK(strcmp(json(NULL), "\"\"") == 0);

    /* routes to a report's files: ours only, never a path from the URL */
    char f[256];
    CHECK(web_static_file("/t/3", f, sizeof f) && strcmp(f, "index.html") == 0);
    CHECK(web_static_file("/t/3/e/12", f, sizeof f) && strcmp(f, "e/12.html") == 0);
    CHECK(web_static_file("/m/7", f, sizeof f) && strcmp(f, "m/7.html") == 0);
    CHECK(web_static_file("/m/7/replay", f, sizeof f) && strcmp(f, "m/7/replay.html") == 0);
    CHECK(web_static_file("/api/m/7", f, sizeof f) && strcmp(f, "api/m/7.json") == 0);
    CHECK(web_static_file("/../etc/passwd", f, sizeof f) == NULL);
    CHECK(web_static_file("/m/../../x", f, sizeof f) == NULL);
    CHECK(web_static_file("/m/7/", f, sizeof f) == NULL);
    CHECK(web_static_file("/m/-1", f, sizeof f) == NULL);
    CHECK(web_static_file("/m/1234567890123456789", f, sizeof f) == NULL);   /* past a bigint */
    CHECK(web_static_file("//m/7", f, sizeof f) == NULL);
    return TEST_DONE("web-escape");
}
