/* arb_mp.c — the bounded msgpack reader (arb_mp.h). */
#include "arb_mp.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <string.h>

void arb_mp_init(arb_mp *r, const void *data, size_t len)
{
    r->p = data;
    r->end = r->p + len;
    r->err = 0;
}

size_t arb_mp_left(const arb_mp *r) { return (size_t)(r->end - r->p); }

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

/* Read an n-byte big-endian field after the type byte. */
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
    if (b <= 0x7f || b == 0xcc || b == 0xcd || b == 0xce || b == 0xcf) return ARB_MP_UINT;
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

static int expect(arb_mp *r, int type)
{
    int t = arb_mp_peek(r);
    if (t < 0)
        return fail(r, t);
    return t == type ? 0 : ARB_EPARSE;   /* a type mismatch is not sticky: try another */
}

static int container(arb_mp *r, int type, uint32_t *n, unsigned per)
{
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

int arb_mp_uint(arb_mp *r, uint64_t *v)
{
    int64_t i;
    int t = arb_mp_peek(r);
    if (t < 0)
        return fail(r, t);
    uint8_t b = *r->p;
    if (b <= 0x7f) {
        *v = b;
        r->p++;
        return 0;
    }
    if (b >= 0xcc && b <= 0xcf)
        return field(r, 1 << (b - 0xcc), v);
    if (t == ARB_MP_INT) {
        const uint8_t *save = r->p;
        int rc = arb_mp_int(r, &i);
        if (rc)
            return rc;
        if (i < 0) {
            r->p = save;
            return ARB_ERANGE;
        }
        *v = (uint64_t)i;
        return 0;
    }
    return ARB_EPARSE;
}

int arb_mp_int(arb_mp *r, int64_t *v)
{
    int t = arb_mp_peek(r);
    if (t < 0)
        return fail(r, t);
    uint8_t b = *r->p;
    uint64_t u;
    if (b <= 0x7f || b >= 0xe0) {
        *v = (int8_t)b;
        r->p++;
        return 0;
    }
    if (b >= 0xd0 && b <= 0xd3) {
        int n = 1 << (b - 0xd0);
        if (field(r, n, &u))
            return r->err;
        /* sign-extend from n bytes */
        if (n < 8 && (u >> (8 * n - 1)) & 1)
            u |= ~(uint64_t)0 << (8 * n);
        *v = (int64_t)u;
        return 0;
    }
    if (b >= 0xcc && b <= 0xcf) {
        const uint8_t *save = r->p;
        if (field(r, 1 << (b - 0xcc), &u))
            return r->err;
        if (u > INT64_MAX) {
            r->p = save;
            return ARB_ERANGE;
        }
        *v = (int64_t)u;
        return 0;
    }
    return ARB_EPARSE;
}

int arb_mp_bool(arb_mp *r, bool *v)
{
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
    if (!rc)
        *s = (const char *)p;
    return rc;
}

int arb_mp_bin(arb_mp *r, const uint8_t **b, uint32_t *len) { return body(r, ARB_MP_BIN, b, len); }

int arb_mp_str_copy(arb_mp *r, char *buf, size_t cap)
{
    const arb_mp save = *r;
    const char *s;
    uint32_t len;
    int rc = arb_mp_str(r, &s, &len);
    if (rc)
        return rc;
    if ((size_t)len + 1 > cap) {
        *r = save;
        return ARB_ETOOBIG;
    }
    if (memchr(s, 0, len))
        return fail(r, ARB_ECORRUPT);
    memcpy(buf, s, len);
    buf[len] = 0;
    return 0;
}

/* Skip the header of one object; *children: objects nested inside it. */
static int skip_one(arb_mp *r, uint64_t *children)
{
    *children = 0;
    int t = arb_mp_peek(r);
    if (t < 0)
        return fail(r, t);
    uint8_t b = *r->p;
    uint64_t v;
    const uint8_t *p;
    uint32_t n;
    switch (t) {
    case ARB_MP_NIL: case ARB_MP_BOOL:
        r->p++;
        return 0;
    case ARB_MP_UINT:
        return arb_mp_uint(r, &v);
    case ARB_MP_INT: {
        int64_t i;
        return arb_mp_int(r, &i);
    }
    case ARB_MP_FLOAT:
        return field(r, b == 0xca ? 4 : 8, &v);
    case ARB_MP_STR: case ARB_MP_BIN:
        return body(r, t, &p, &n);
    case ARB_MP_ARRAY: case ARB_MP_MAP:
        if (container(r, t, &n, t == ARB_MP_MAP ? 2 : 1))
            return r->err;
        *children = t == ARB_MP_MAP ? 2 * (uint64_t)n : n;
        return 0;
    default: {   /* ext: fixext 1/2/4/8/16 (type byte + data), ext 8/16/32 (len, type, data) */
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
    }
}

int arb_mp_skip(arb_mp *r)
{
    /* Iterative: pending[d] counts the objects still to skip at depth d. */
    uint64_t pending[ARB_MP_MAX_DEPTH + 1];
    int depth = 0;
    pending[0] = 1;
    while (depth >= 0) {
        if (pending[depth] == 0) {
            depth--;
            continue;
        }
        pending[depth]--;
        uint64_t children;
        if (skip_one(r, &children))
            return r->err;
        if (children) {
            if (depth == ARB_MP_MAX_DEPTH)
                return fail(r, ARB_ETOOBIG);
            pending[++depth] = children;
        }
    }
    return 0;
}

bool arb_mp_key(arb_mp *r, const char *key)
{
    arb_mp save = *r;
    const char *s;
    uint32_t len;
    if (arb_mp_str(r, &s, &len) == 0 && len == strlen(key) && memcmp(s, key, len) == 0)
        return true;
    *r = save;
    return false;
}
