/* arb_text.c — text from outside made safe for a terminal (arb_text.h). */
#include "arb_text.h"
#include "arb_buf.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0:
 * no overlong forms, no surrogates, nothing past U+10FFFF. *cp gets the
 * code point. */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t k;
    uint32_t c, min;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    } else if ((s[0] & 0xe0) == 0xc0) {
        k = 2, c = s[0] & 0x1f, min = 0x80;
    } else if ((s[0] & 0xf0) == 0xe0) {
        k = 3, c = s[0] & 0x0f, min = 0x800;
    } else if ((s[0] & 0xf8) == 0xf0) {
        k = 4, c = s[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (k > n)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return k;
}

static bool shown_as_is(uint32_t c)
{
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
        return false;
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        return false;   /* bidirectional overrides: text that reads otherwise than it is */
    return true;
}

/* The rendering of the character at s (n bytes left) into piece[16]:
 * its length; *used gets the bytes of s it stands for. */
static size_t render(const unsigned char *s, size_t n, char piece[16], size_t *used, int flags)
{
    uint32_t c = 0;
    size_t k = utf8_len(s, n, &c), plen = 0;
    if (k == 0) {   /* a byte of invalid UTF-8 */
        *used = 1;
        return (size_t)snprintf(piece, 16, "\\x%02x", s[0]);
    }
    *used = k;
    if (c == '\\')
        return (size_t)snprintf(piece, 16, "\\\\");
    if (c == 0x1b)
        return (size_t)snprintf(piece, 16, "\\e");
    if (c == '\t')
        return (size_t)snprintf(piece, 16, "\\t");
    if (c == '\n' && (flags & ARB_TERM_KEEP_NL))
        return (size_t)snprintf(piece, 16, "\n");
    if (!shown_as_is(c)) {
        for (size_t j = 0; j < k; j++)
            plen += (size_t)snprintf(piece + plen, 16 - plen, "\\x%02x", s[j]);
        return plen;
    }
    memcpy(piece, s, k);
    return k;
}

char *arb_escape_term(const char *in, size_t len, char *out, size_t cap, int flags)
{
    const unsigned char *s = (const unsigned char *)in;
    char piece[16];
    size_t used, total = 0, o = 0;
    if (cap == 0)
        return out;
    for (size_t i = 0; i < len; i += used)
        total += render(s + i, len - i, piece, &used, flags);
    /* all of it when it fits; else whole pieces leaving room for "..." */
    size_t room = total + 1 <= cap ? cap - 1 : (cap - 1 >= 3 ? cap - 1 - 3 : 0);
    for (size_t i = 0; i < len; i += used) {
        size_t plen = render(s + i, len - i, piece, &used, flags);
        if (o + plen > room)
            break;
        memcpy(out + o, piece, plen);
        o += plen;
    }
    if (total + 1 > cap) {
        size_t d = cap - 1 - o < 3 ? cap - 1 - o : 3;
        memcpy(out + o, "...", d);
        o += d;
    }
    out[o] = 0;
    return out;
}

char *arb_term(const char *s, char *out, size_t cap)
{
    return arb_escape_term(s ? s : "", s ? strlen(s) : 0, out, cap, 0);
}

int arb_json_str(arb_buf *b, const char *in, size_t len)
{
    const unsigned char *s = (const unsigned char *)in;
    int rc = arb_buf_putc(b, '"');
    for (size_t i = 0; i < len && !rc;) {
        uint32_t c = 0;
        size_t k = utf8_len(s + i, len - i, &c);
        if (k == 0) {   /* a byte of invalid UTF-8: its value as a code point */
            rc = arb_buf_printf(b, "\\u%04x", s[i]);
            i++;
            continue;
        }
        if (c == '"' || c == '\\')
            rc = arb_buf_printf(b, "\\%c", (char)c);
        else if (c == '\n' || c == '\t')
            rc = arb_buf_puts(b, c == '\n' ? "\\n" : "\\t");
        else if (!shown_as_is(c))
            rc = arb_buf_printf(b, "\\u%04x", (unsigned)c);
        else
            rc = arb_buf_append(b, s + i, k);
        i += k;
    }
    return rc ? rc : arb_buf_putc(b, '"');
}
