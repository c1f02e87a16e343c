/* arb_buf.h — a growable byte buffer with a hard size cap (after curl's
 * dynbuf): every append past the cap fails with ARB_ETOOBIG and leaves the
 * contents as they were. */
#ifndef ARB_BUF_H
#define ARB_BUF_H
#include <stddef.h>
#include <stdarg.h>

typedef struct arb_buf {
    char  *data;   /* NUL-terminated when len > 0 or after any append */
    size_t len;
    size_t alloc;
    size_t cap;    /* maximum len (excluding the NUL) */
} arb_buf;

/* Embedded lifecycle. cap 0 means ARB_BUF_DEFAULT_CAP. */
void arb_buf_init(arb_buf *b, size_t cap);
void arb_buf_release(arb_buf *b);
/* Empty the buffer, keep its memory. */
void arb_buf_reset(arb_buf *b);
int  arb_buf_append(arb_buf *b, const void *data, size_t len);
int  arb_buf_puts(arb_buf *b, const char *s);
int  arb_buf_putc(arb_buf *b, char c);
int  arb_buf_printf(arb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int  arb_buf_vprintf(arb_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* The contents as a C string ("" when empty; never NULL). */
const char *arb_buf_str(const arb_buf *b);

#endif
