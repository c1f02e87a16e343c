/* web_esc.c — the one HTML escape and the one JSON escape of the web
 * pages (web.h): every byte from a bot, a configuration or the record goes
 * through one of them. */
#include "web.h"
#include "arb_error.h"
#include "arb_text.h"

#include <stdint.h>
#include <string.h>

static const char REPLACEMENT[] = "&#xFFFD;";

/* The length of the valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    /* overlong forms, surrogates, past U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    /* C1 controls and the bidirectional overrides hide or reorder text */
    if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
        return 0;
    return len;
}

int web_html(arb_buf *b, const char *in, size_t len)
{
    const unsigned char *p = (const unsigned char *)in;
    size_t i = 0;
    int rc = 0;
    while (i < len && rc == 0) {
        /* the longest run that needs nothing */
        size_t run = i;
        while (run < len && p[run] >= 0x20 && p[run] < 0x7f && !strchr("&<>\"'", p[run]))
            run++;
        if (run > i) {
            rc = arb_buf_append(b, p + i, run - i);
            i = run;
            continue;
        }
        unsigned c = p[i];
        size_t n = 1;
        switch (c) {
        case '&': rc = arb_buf_puts(b, "&amp;"); break;
        case '<': rc = arb_buf_puts(b, "&lt;"); break;
        case '>': rc = arb_buf_puts(b, "&gt;"); break;
        case '"': rc = arb_buf_puts(b, "&quot;"); break;
        case '\'': rc = arb_buf_puts(b, "&#39;"); break;
        case '\n':
        case '\t': rc = arb_buf_putc(b, (char)c); break;
        default:
            n = c >= 0x80 ? utf8_len(p + i, len - i) : 0;
            if (n)
                rc = arb_buf_append(b, p + i, n);
            else
                rc = arb_buf_puts(b, REPLACEMENT);
            n = n ? n : 1;
        }
        i += n;
    }
    return rc;
}

int web_h(arb_buf *b, const char *s)
{
    return s ? web_html(b, s, strlen(s)) : 0;
}

int web_j(arb_buf *b, const char *s)
{
    return s ? web_json(b, s, strlen(s)) : web_json(b, "", 0);
}

int web_json(arb_buf *b, const char *in, size_t len)
{
    arb_buf tmp;
    arb_buf_init(&tmp, b->cap);
    int rc = arb_json_str(&tmp, in, len);
    for (size_t i = 0; rc == 0 && i < tmp.len; i++) {
        char c = tmp.data[i];
        /* only inside the string: JSON's structure has none of them */
        if (c == '<')
            rc = arb_buf_puts(b, "\\u003c");
        else if (c == '>')
            rc = arb_buf_puts(b, "\\u003e");
        else if (c == '&')
            rc = arb_buf_puts(b, "\\u0026");
        else
            rc = arb_buf_putc(b, c);
    }
    arb_buf_release(&tmp);
    return rc;
}
