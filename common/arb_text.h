/* arb_text.h — bytes from outside (a bot's reply, stderr and name, a
 * transcript, a worker's reason) rendered for a terminal, so that none of
 * them can move the cursor, retitle the window, rewrite earlier lines or
 * hide text (ANSI/OSC escape sequences, carriage returns, bidirectional
 * overrides). Every terminal output of match, run, replay and status goes
 * through it. */
#ifndef ARB_TEXT_H
#define ARB_TEXT_H
#include <stdbool.h>
#include <stddef.h>

/* Keep newlines (a multi-line stderr tail); otherwise they are escaped. */
#define ARB_TERM_KEEP_NL 1

/* Render len bytes of in into out (cap bytes, NUL-terminated, cap >= 1):
 * printable ASCII and valid printable UTF-8 as they are; a backslash as
 * "\\"; ESC as "\e"; tab as "\t"; every other C0 control, DEL, the C1
 * controls (U+0080..U+009F), the bidirectional overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069) and every byte of invalid UTF-8 as
 * "\xHH". Output that does not fit is cut at a character boundary and ends
 * with "..." (never half an escape). Returns out. */
char *arb_escape_term(const char *in, size_t len, char *out, size_t cap, int flags);

/* The same for a NUL-terminated string (NULL renders as ""). */
char *arb_term(const char *s, char *out, size_t cap);

struct arb_buf;
/* Append len bytes of in to b as one JSON string, quotes included: valid
 * printable UTF-8 as it is; '"' and '\\' escaped; newline and tab
 * as \n and \t; every character
 * arb_escape_term would escape (controls, C1, the bidirectional overrides)
 * as \uXXXX, so JSON on a terminal is as safe as text; each byte of
 * invalid UTF-8 as \u00XX (its value as a code point: the output stays
 * valid JSON, and no byte is dropped). 0, or ARB_ETOOBIG past b's cap. */
int arb_json_str(struct arb_buf *b, const char *in, size_t len);

#endif
