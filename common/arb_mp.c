/* arb_mp.c — the bounded msgpack reader (arb_mp.h). Each read looks at the
 * type byte, checks that the whole fixed-size header is present, assembles
 * any length big-endian byte by byte, and checks that length against the
 * bytes left before moving past it. */
#include "arb_mp.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <string.h>

void arb_mp_init(arb_mp *r, const void *data, size_t len)
{
    r->p = data;
    r->end = len ? r->p + len : r->p;   /* NULL + 0 is undefined */
    r->err = 0;
}

size_t arb_mp_left(const arb_mp *r) { return (size_t)(r->end - r->p); }

/* Record an error in the data (the first one stays) and return it. */
static int fail(arb_mp *r, int err)
{
    if (!r->err)
        r->err = err;
    return r->err;
}

/* Big-endian unsigned of n bytes at p (n <= 8), assembled byte by byte. */
static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* The two's-complement value of a 64-bit pattern, without relying on the
 * implementation-defined conversion of large unsigned values. */
static int64_t as_signed(uint64_t u)
{
    return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* Read the type byte and the n-byte big-endian field after it. */
static int field(arb_mp *r, int n, uint64_t *v)
{
    if (arb_mp_left(r) < (size_t)n + 1)
        return fail(r, ARB_ECORRUPT);
    *v = be(r->p + 1, n);
    r->p += 1 + n;
    return 0;
}

int arb_mp_peek(const arb_mp *r)
{
    if (r->err)
        return r->err;
    if (r->p >= r->end)
        return ARB_ECORRUPT;
    uint8_t b = *r->p;
    if (b <= 0x7f || (b >= 0xcc && b <= 0xcf)) return ARB_MP_UINT;
    if (b >= 0xe0 || (b >= 0xd0 && b <= 0xd3)) return ARB_MP_INT;
    if ((b & 0xf0) == 0x80 || b == 0xde || b == 0xdf) return ARB_MP_MAP;
    if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) return ARB_MP_ARRAY;
    if ((b & 0xe0) == 0xa0 || (b >= 0xd9 && b <= 0xdb)) return ARB_MP_STR;
    if (b == 0xc0) return ARB_MP_NIL;
    if (b == 0xc2 || b == 0xc3) return ARB_MP_BOOL;
    if (b >= 0xc4 && b <= 0xc6) return ARB_MP_BIN;
    if (b == 0xca || b == 0xcb) return ARB_MP_FLOAT;
    if ((b >= 0xc7 && b <= 0xc9) || (b >= 0xd4 && b <= 0xd8)) return ARB_MP_EXT;
    return ARB_ECORRUPT;   /* 0xc1: never used */
}

/* 0 when the next object is of `type`; a sticky error at the end or on bad
 * data; ARB_EPARSE (not sticky, nothing consumed) for another type. */
static int expect(arb_mp *r, int type)
{
    int t = arb_mp_peek(r);
    if (t < 0)
        return fail(r, t);
    return t == type ? 0 : ARB_EPARSE;
}

/* Array or map header; `per` is the least bytes one counted element takes. */
static int container(arb_mp *r, int type, uint32_t *n, unsigned per)
{
    *n = 0;
    int rc = expect(r, type);
    if (rc)
        return rc;
    uint8_t b = *r->p;
    uint64_t v;
    if ((b & 0xf0) == (type == ARB_MP_MAP ? 0x80 : 0x90)) {
        v = b & 0x0f;
        r->p++;
    } else if (field(r, (b == 0xdc || b == 0xde) ? 2 : 4, &v)) {
        return r->err;
    }
    /* Every element takes at least one byte: a count larger than what is
     * left is a lie, refused before anyone sizes anything by it. */
    if (v * per > arb_mp_left(r))
        return fail(r, ARB_ECORRUPT);
    *n = (uint32_t)v;
    return 0;
}

int arb_mp_array(arb_mp *r, uint32_t *n) { return container(r, ARB_MP_ARRAY, n, 1); }
int arb_mp_map(arb_mp *r, uint32_t *n) { return container(r, ARB_MP_MAP, n, 2); }

/* Any integer as a sign and a 64-bit magnitude pattern: *neg is set for a
 * negative value, whose two's-complement bits are in *u. */
static int integer(arb_mp *r, uint64_t *u, bool *neg)
{
    *u = 0;
    *neg = false;
    int t = arb_mp_peek(r);
    if (t < 0)
        return fail(r, t);
    if (t != ARB_MP_UINT && t != ARB_MP_INT)
        return ARB_EPARSE;
    uint8_t b = *r->p;
    if (b <= 0x7f) {
        *u = b;
        r->p++;
        return 0;
    }
    if (b >= 0xe0) {   /* negative fixint: -32..-1 */
        *u = ~(uint64_t)0 << 8 | b;
        *neg = true;
        r->p++;
        return 0;
    }
    if (b >= 0xcc && b <= 0xcf)
        return field(r, 1 << (b - 0xcc), u);
    int n = 1 << (b - 0xd0);   /* int8..64 */
    if (field(r, n, u))
        return r->err;
    if ((*u >> (8 * n - 1)) & 1) {
        if (n < 8)
            *u |= ~(uint64_t)0 << (8 * n);   /* sign-extend */
        *neg = true;
    }
    return 0;
}

int arb_mp_uint(arb_mp *r, uint64_t *v)
{
    const uint8_t *save = r->p;
    bool neg;
    int rc = integer(r, v, &neg);
    if (rc)
        return rc;
    if (neg) {
        r->p = save;
        *v = 0;
        return ARB_ERANGE;
    }
    return 0;
}

int arb_mp_int(arb_mp *r, int64_t *v)
{
    const uint8_t *save = r->p;
    uint64_t u;
    bool neg;
    *v = 0;
    int rc = integer(r, &u, &neg);
    if (rc)
        return rc;
    if (!neg && u > INT64_MAX) {
        r->p = save;
        return ARB_ERANGE;
    }
    *v = as_signed(u);
    return 0;
}

int arb_mp_bool(arb_mp *r, bool *v)
{
    *v = false;
    int rc = expect(r, ARB_MP_BOOL);
    if (rc)
        return rc;
    *v = *r->p++ == 0xc3;
    return 0;
}

int arb_mp_nil(arb_mp *r)
{
    int rc = expect(r, ARB_MP_NIL);
    if (rc)
        return rc;
    r->p++;
    return 0;
}

/* Length-prefixed body: str or bin. */
static int body(arb_mp *r, int type, const uint8_t **out, uint32_t *len)
{
    static const uint8_t empty[1];
    *out = empty;
    *len = 0;
    int rc = expect(r, type);
    if (rc)
        return rc;
    uint8_t b = *r->p;
    uint64_t n;
    if (type == ARB_MP_STR && (b & 0xe0) == 0xa0) {
        n = b & 0x1f;
        r->p++;
    } else if (field(r, type == ARB_MP_STR ? 1 << (b - 0xd9) : 1 << (b - 0xc4), &n)) {
        return r->err;
    }
    if (n > arb_mp_left(r))
        return fail(r, ARB_ECORRUPT);
    *out = r->p;
    *len = (uint32_t)n;
    r->p += n;
    return 0;
}

int arb_mp_str(arb_mp *r, const char **s, uint32_t *len)
{
    const uint8_t *p;
    int rc = body(r, ARB_MP_STR, &p, len);
    *s = (const char *)p;
    return rc;
}

int arb_mp_bin(arb_mp *r, const uint8_t **b, uint32_t *len) { return body(r, ARB_MP_BIN, b, len); }

int arb_mp_str_copy(arb_mp *r, char *buf, size_t cap)
{
    const uint8_t *save = r->p;
    const char *s;
    uint32_t len;
    if (cap)
        buf[0] = 0;
    int rc = arb_mp_str(r, &s, &len);
    if (rc)
        return rc;
    if ((size_t)len >= cap) {
        r->p = save;
        return ARB_ETOOBIG;
    }
    if (memchr(s, 0, len))
        return fail(r, ARB_ECORRUPT);
    memcpy(buf, s, len);
    buf[len] = 0;
    return 0;
}

/* Skip one ext object: fixext 1/2/4/8/16 (type byte, data) or ext 8/16/32
 * (length, type byte, data). */
static int skip_ext(arb_mp *r)
{
    uint8_t b = *r->p;
    uint64_t len;
    if (b >= 0xd4 && b <= 0xd8) {
        len = 1u << (b - 0xd4);
        if (arb_mp_left(r) < 2 + len)
            return fail(r, ARB_ECORRUPT);
        r->p += 2 + len;
        return 0;
    }
    if (field(r, 1 << (b - 0xc7), &len))
        return r->err;
    if (arb_mp_left(r) < 1 + len)
        return fail(r, ARB_ECORRUPT);
    r->p += 1 + len;
    return 0;
}

/* Skip one object, or only the header of a container: *children is then the
 * number of objects nested directly inside it. */
static int skip_one(arb_mp *r, int type, uint64_t *children)
{
    uint64_t u;
    bool neg;
    const uint8_t *p;
    uint32_t n;
    *children = 0;
    switch (type) {
    case ARB_MP_NIL: case ARB_MP_BOOL:
        r->p++;
        return 0;
    case ARB_MP_UINT: case ARB_MP_INT:
        return integer(r, &u, &neg);
    case ARB_MP_FLOAT:
        return field(r, *r->p == 0xca ? 4 : 8, &u);
    case ARB_MP_STR: case ARB_MP_BIN:
        return body(r, type, &p, &n);
    case ARB_MP_ARRAY:
        if (container(r, type, &n, 1))
            return r->err;
        *children = n;
        return 0;
    case ARB_MP_MAP:
        if (container(r, type, &n, 2))
            return r->err;
        *children = 2 * (uint64_t)n;
        return 0;
    default:
        return skip_ext(r);
    }
}

int arb_mp_skip(arb_mp *r)
{
    /* Iterative: pending[d] counts the objects still to skip inside the
     * container at depth d-1 (pending[0]: the one object asked for). */
    uint64_t pending[ARB_MP_MAX_DEPTH + 1];
    int depth = 0;
    pending[0] = 1;
    while (depth >= 0) {
        if (pending[depth] == 0) {
            depth--;
            continue;
        }
        pending[depth]--;
        int t = arb_mp_peek(r);
        if (t < 0)
            return fail(r, t);
        /* An object at depth d is inside d containers: a container there
         * would open level d+1, past the limit when d is the limit. */
        if ((t == ARB_MP_ARRAY || t == ARB_MP_MAP) && depth == ARB_MP_MAX_DEPTH)
            return fail(r, ARB_ETOOBIG);
        uint64_t children;
        if (skip_one(r, t, &children))
            return r->err;
        if (children)
            pending[++depth] = children;
    }
    return 0;
}

bool arb_mp_key(arb_mp *r, const char *key)
{
    const uint8_t *save = r->p;
    const char *s;
    uint32_t len;
    if (arb_mp_str(r, &s, &len) == 0 && len == strlen(key) && memcmp(s, key, len) == 0)
        return true;
    r->p = save;   /* r->err keeps any error found in the data */
    return false;
}
