/* arb_buf.c — bounded growable buffer (see arb_buf.h). */
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void arb_buf_init(arb_buf *b, size_t cap)
{
    b->data = NULL;
    b->len = 0;
    b->alloc = 0;
    b->cap = cap ? cap : ARB_BUF_DEFAULT_CAP;
}

void arb_buf_release(arb_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->alloc = 0;
}

void arb_buf_reset(arb_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = 0;
}

/* Make room for `extra` more bytes plus the NUL. */
static int grow(arb_buf *b, size_t extra)
{
    if (extra > b->cap - b->len)
        return ARB_ETOOBIG;
    size_t need = b->len + extra + 1;
    if (need <= b->alloc)
        return 0;
    size_t n = b->alloc ? b->alloc : 64;
    while (n < need)
        n *= 2;
    if (n > b->cap + 1)
        n = b->cap + 1;
    char *p = realloc(b->data, n);
    if (!p)
        return ARB_ENOMEM;
    b->data = p;
    b->alloc = n;
    return 0;
}

int arb_buf_append(arb_buf *b, const void *data, size_t len)
{
    int rc = grow(b, len);
    if (rc)
        return rc;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = 0;
    return 0;
}

int arb_buf_puts(arb_buf *b, const char *s) { return arb_buf_append(b, s, strlen(s)); }
int arb_buf_putc(arb_buf *b, char c) { return arb_buf_append(b, &c, 1); }

int arb_buf_vprintf(arb_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return ARB_EINVAL;
    int rc = grow(b, (size_t)n);
    if (rc)
        return rc;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int arb_buf_printf(arb_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = arb_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

const char *arb_buf_str(const arb_buf *b)
{
    return b->data ? b->data : "";
}
