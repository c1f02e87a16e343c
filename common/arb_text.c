/* arb_text.c — text from outside made safe for a terminal (arb_text.h). */
#include "arb_text.h"

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

char *arb_escape_term(const char *in, size_t len, char *out, size_t cap, int flags)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0, i = 0;
    if (cap == 0)
        return out;
    while (i < len) {
        char piece[16];
        size_t plen;
        uint32_t c = 0;
        size_t k = utf8_len(s + i, len - i, &c);
        if (k == 0) {   /* a byte of invalid UTF-8 */
            plen = (size_t)snprintf(piece, sizeof piece, "\\x%02x", s[i]);
            k = 1;
        } else if (c == '\\') {
            plen = (size_t)snprintf(piece, sizeof piece, "\\\\");
        } else if (c == 0x1b) {
            plen = (size_t)snprintf(piece, sizeof piece, "\\e");
        } else if (c == '\t') {
            plen = (size_t)snprintf(piece, sizeof piece, "\\t");
        } else if (c == '\n' && (flags & ARB_TERM_KEEP_NL)) {
            plen = (size_t)snprintf(piece, sizeof piece, "\n");
        } else if (!shown_as_is(c)) {
            plen = 0;
            for (size_t j = 0; j < k; j++)
                plen += (size_t)snprintf(piece + plen, sizeof piece - plen, "\\x%02x", s[i + j]);
        } else {
            memcpy(piece, s + i, k);
            plen = k;
        }
        /* room for this piece, and for "..." should anything follow */
        size_t need = plen + (i + k < len ? 3 : 0);
        if (o + need + 1 > cap && !(i + k == len && o + plen + 1 <= cap)) {
            const char *dots = "...";
            size_t d = cap - 1 - o < 3 ? cap - 1 - o : 3;
            memcpy(out + o, dots, d);
            o += d;
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen;
        i += k;
    }
    out[o] = 0;
    return out;
}

char *arb_term(const char *s, char *out, size_t cap)
{
    return arb_escape_term(s ? s : "", s ? strlen(s) : 0, out, cap, 0);
}
