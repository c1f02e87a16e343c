/* rec_text.c — arb_escape_term byte by byte: what a terminal may see of a
 * bot's bytes. Each vector is an attack or a text that must survive as it
 * is; truncation never cuts an escape in half. Usage: rec_text */
#include "arb_text.h"
#include "test_util.h"

#include <string.h>

static void expect(const char *in, size_t len, int flags, const char *want)
{
    char out[256];
    arb_escape_term(in, len, out, sizeof out, flags);
    CHECKF(strcmp(out, want) == 0, "[%s] wanted [%s]", out, want);
}

int main(void)
{
    expect("plain 333 444+5", 15, 0, "plain 333 444+5");
    expect("\x1b[2J\x1b]0;t\x07", 10, 0, "\\e[2J\\e]0;t\\x07");          /* clear screen, window title */
    expect("a\rb\bc\x7f", 6, 0, "a\\x0db\\x08c\\x7f");                    /* CR, backspace, DEL */
    expect("a\nb", 3, 0, "a\\x0ab");
    expect("a\nb", 3, ARB_TERM_KEEP_NL, "a\nb");
    expect("a\tb\\", 4, 0, "a\\tb\\\\");
    expect("\xc2\x9b" "31m", 5, 0, "\\xc2\\x9b31m");                      /* C1 CSI in UTF-8 */
    expect("\x9b" "31m", 4, 0, "\\x9b31m");                               /* C1 CSI as a raw byte */
    expect("\xe2\x80\xae" "txt", 6, 0, "\\xe2\\x80\\xaetxt");              /* right-to-left override */
    expect("\xe2\x81\xa6", 3, 0, "\\xe2\\x81\\xa6");                       /* left-to-right isolate */
    expect("\xc3\xa9t\xc3\xa9 \xe7\x89\x8c \xf0\x9f\x83\x8f", 14, 0, "\xc3\xa9t\xc3\xa9 \xe7\x89\x8c \xf0\x9f\x83\x8f");
    expect("\xc0\xaf", 2, 0, "\\xc0\\xaf");                                /* overlong '/' */
    expect("\xed\xa0\x80", 3, 0, "\\xed\\xa0\\x80");                       /* a surrogate */
    expect("\xf4\x90\x80\x80", 4, 0, "\\xf4\\x90\\x80\\x80");              /* past U+10FFFF */
    expect("\xe2\x82", 2, 0, "\\xe2\\x82");                                /* cut short */
    expect("a\0b", 3, 0, "a\\x00b");
    /* truncation: whole escapes, then "..." */
    char small[12];
    arb_escape_term("\x1b\x1b\x1b\x1b\x1b\x1b", 6, small, sizeof small, 0);
    CHECKF(strcmp(small, "\\e\\e\\e\\e...") == 0, "[%s]", small);
    arb_escape_term("abcdefghijk", 11, small, sizeof small, 0);
    CHECKF(strcmp(small, "abcdefghijk") == 0, "fits exactly: [%s]", small);
    arb_escape_term("abcdefghijkl", 12, small, sizeof small, 0);
    CHECKF(strcmp(small, "abcdefgh...") == 0, "[%s]", small);
    char one[1];
    arb_escape_term("x", 1, one, sizeof one, 0);
    CHECK(one[0] == 0);
    char buf[32];
    CHECK(strcmp(arb_term(NULL, buf, sizeof buf), "") == 0);
    return TEST_DONE("rec_text");
}
