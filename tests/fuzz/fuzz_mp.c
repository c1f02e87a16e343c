/* fuzz_mp.c — libFuzzer target for the bounded msgpack reader arb_mp: any
 * bytes are walked object by object (peek + skip), read again with the typed
 * readers (which must agree with skip on every verdict and length), read as
 * a keyed map the way our schemas are; and, where msgpack-c's own unpacker
 * can be trusted with the input, its verdict and object are compared with
 * ours: same length, same values, refused when it refuses. Any disagreement
 * or invariant broken is an abort(). */
#include "arb_mp.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(cond) do { if (!(cond)) abort(); } while (0)

static const uint8_t *base, *limit;   /* the input being fuzzed */

/* What holds after every call: the cursor within the input, the end fixed,
 * an error only ever the first one. */
static void sane(const arb_mp *r, int err_before)
{
    MUST(r->p >= base && r->p <= limit && r->end == limit);
    if (err_before)
        MUST(r->err == err_before);
}

static bool is_data_error(int rc) { return rc == ARB_ECORRUPT || rc == ARB_ETOOBIG; }

/* ---- the typed readers against skip ---- */

/* Read one object with the typed readers, as a careful caller would: 0 or
 * the error, with the same depth rule as arb_mp_skip (a container inside
 * ARB_MP_MAX_DEPTH others is ARB_ETOOBIG). */
static int read_any(arb_mp *r, int depth)
{
    int err0 = r->err;
    const uint8_t *start = r->p;
    int t = arb_mp_peek(r);
    if (t < 0) {
        MUST(t == ARB_ECORRUPT || t == r->err);
        return t;
    }
    /* a reading of another type is refused without consuming or sticking */
    if (t != ARB_MP_NIL) {
        MUST(arb_mp_nil(r) == ARB_EPARSE && r->p == start && r->err == err0);
    } else {
        bool b = true;
        MUST(arb_mp_bool(r, &b) == ARB_EPARSE && !b && r->p == start && r->err == err0);
    }
    if ((t == ARB_MP_ARRAY || t == ARB_MP_MAP) && depth == ARB_MP_MAX_DEPTH)
        return ARB_ETOOBIG;
    int rc;
    uint32_t n = 0;
    switch (t) {
    case ARB_MP_NIL:
        rc = arb_mp_nil(r);
        break;
    case ARB_MP_BOOL: {
        bool b;
        rc = arb_mp_bool(r, &b);
        break;
    }
    case ARB_MP_UINT: case ARB_MP_INT: {
        /* both readings of one integer agree where both succeed */
        arb_mp copy = *r;
        uint64_t u = 1;
        int64_t i = 1;
        int ru = arb_mp_uint(&copy, &u);
        rc = arb_mp_int(r, &i);
        if (rc == ARB_ERANGE) {
            MUST(ru == 0 && u > INT64_MAX && i == 0 && r->p == start && r->err == 0);
            *r = copy;
            rc = 0;
        } else if (rc == 0) {
            MUST(i < 0 ? ru == ARB_ERANGE && u == 0 && copy.p == start : ru == 0 && u == (uint64_t)i && copy.p == r->p);
            MUST(t == ARB_MP_INT || i >= 0);
        } else {
            MUST(ru == rc && is_data_error(rc));
        }
        break;
    }
    case ARB_MP_STR: {
        const char *s;
        arb_mp copy = *r;
        char buf[16];
        int rcopy = arb_mp_str_copy(&copy, buf, sizeof buf);
        rc = arb_mp_str(r, &s, &n);
        if (rc == 0) {
            MUST((const uint8_t *)s >= base && (const uint8_t *)s + n == r->p);
            if (n >= sizeof buf)
                MUST(rcopy == ARB_ETOOBIG && copy.p == start && copy.err == 0 && buf[0] == 0);
            else if (memchr(s, 0, n))
                MUST(rcopy == ARB_ECORRUPT);
            else
                MUST(rcopy == 0 && strlen(buf) == n && memcmp(buf, s, n) == 0 && copy.p == r->p);
        } else {
            MUST(rcopy == rc && n == 0 && s && *s == 0);
        }
        break;
    }
    case ARB_MP_BIN: {
        const uint8_t *b;
        rc = arb_mp_bin(r, &b, &n);
        if (rc == 0)
            MUST(b >= base && b + n == r->p);
        break;
    }
    case ARB_MP_ARRAY: case ARB_MP_MAP:
        rc = t == ARB_MP_ARRAY ? arb_mp_array(r, &n) : arb_mp_map(r, &n);
        if (rc)
            break;
        /* the count was checked against the bytes left */
        MUST((uint64_t)n * (t == ARB_MP_MAP ? 2 : 1) <= arb_mp_left(r));
        for (uint64_t k = 0; k < (uint64_t)n * (t == ARB_MP_MAP ? 2 : 1) && !rc; k++)
            rc = read_any(r, depth + 1);
        break;
    default:   /* float, ext: no typed reader */
        rc = arb_mp_skip(r);
        break;
    }
    sane(r, err0);
    MUST(rc || r->p > start);
    return rc;
}

/* ---- msgpack-c, where it is safe to run ---- */

/* msgpack-c allocates a container's elements as soon as it reads the count
 * (FIXME "security guard" in its unpack_template.h), so it only sees inputs
 * where no 16- or 32-bit count, read at any offset, claims more than the
 * bytes after it, and where all such counts together stay small. The check
 * does not use arb_mp, so it cannot hide a bug there. */
static bool safe_for_msgpack_c(const uint8_t *p, size_t size)
{
    if (size >= 4096)
        return false;
    uint64_t total = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t b = p[i];
        if (b < 0xdc || b > 0xdf)
            continue;
        size_t w = (b == 0xdc || b == 0xde) ? 2 : 4;
        if (size - i - 1 < w)
            continue;   /* a truncated header allocates nothing */
        uint64_t n = 0;
        for (size_t k = 0; k < w; k++)
            n = n << 8 | p[i + 1 + k];
        n *= (b >= 0xde) ? 2 : 1;
        if (n > size - i - 1 - w)
            return false;
        total += n;
    }
    return total <= (1u << 16);
}

/* Nesting depth of containers: 0 for a scalar, 1 for a flat array. */
static int depth_of(const msgpack_object *o)
{
    int d = 0;
    if (o->type == MSGPACK_OBJECT_ARRAY) {
        for (uint32_t k = 0; k < o->via.array.size; k++) {
            int c = depth_of(&o->via.array.ptr[k]);
            d = c > d ? c : d;
        }
        return d + 1;
    }
    if (o->type == MSGPACK_OBJECT_MAP) {
        for (uint32_t k = 0; k < o->via.map.size; k++) {
            int ck = depth_of(&o->via.map.ptr[k].key), cv = depth_of(&o->via.map.ptr[k].val);
            d = ck > d ? ck : d;
            d = cv > d ? cv : d;
        }
        return d + 1;
    }
    return 0;
}

/* Read o's encoding with arb_mp and compare every value. */
static void same(arb_mp *r, const msgpack_object *o)
{
    uint32_t n;
    const char *s;
    const uint8_t *b;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        MUST(arb_mp_nil(r) == 0);
        break;
    case MSGPACK_OBJECT_BOOLEAN: {
        bool v;
        MUST(arb_mp_bool(r, &v) == 0 && v == o->via.boolean);
        break;
    }
    case MSGPACK_OBJECT_POSITIVE_INTEGER: {
        uint64_t v;
        MUST(arb_mp_uint(r, &v) == 0 && v == o->via.u64);
        break;
    }
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: {
        int64_t v;
        MUST(arb_mp_int(r, &v) == 0 && v == o->via.i64 && v < 0);
        break;
    }
    case MSGPACK_OBJECT_FLOAT32: case MSGPACK_OBJECT_FLOAT64:
        MUST(arb_mp_peek(r) == ARB_MP_FLOAT && arb_mp_skip(r) == 0);
        break;
    /* both point into the input (msgpack-c's pointer for an empty body is
     * not specified) */
    case MSGPACK_OBJECT_STR:
        MUST(arb_mp_str(r, &s, &n) == 0 && n == o->via.str.size && (n == 0 || s == o->via.str.ptr));
        break;
    case MSGPACK_OBJECT_BIN:
        MUST(arb_mp_bin(r, &b, &n) == 0 && n == o->via.bin.size && (n == 0 || (const char *)b == o->via.bin.ptr));
        break;
    case MSGPACK_OBJECT_EXT:
        MUST(arb_mp_peek(r) == ARB_MP_EXT && arb_mp_skip(r) == 0);
        MUST(o->via.ext.size == 0 || (const char *)r->p == o->via.ext.ptr + o->via.ext.size);
        break;
    case MSGPACK_OBJECT_ARRAY:
        MUST(arb_mp_array(r, &n) == 0 && n == o->via.array.size);
        for (uint32_t k = 0; k < n; k++)
            same(r, &o->via.array.ptr[k]);
        break;
    case MSGPACK_OBJECT_MAP:
        MUST(arb_mp_map(r, &n) == 0 && n == o->via.map.size);
        for (uint32_t k = 0; k < n; k++) {
            same(r, &o->via.map.ptr[k].key);
            same(r, &o->via.map.ptr[k].val);
        }
        break;
    default:
        abort();
    }
}

static void against_msgpack_c(const uint8_t *data, size_t size)
{
    if (!safe_for_msgpack_c(data, size))
        return;
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    size_t off = 0;
    msgpack_unpack_return ret = msgpack_unpack_next(&up, (const char *)data, size, &off);
    arb_mp r;
    arb_mp_init(&r, data, size);
    int rc = arb_mp_skip(&r);
    if (ret == MSGPACK_UNPACK_SUCCESS || ret == MSGPACK_UNPACK_EXTRA_BYTES) {
        if (depth_of(&up.data) > ARB_MP_MAX_DEPTH) {
            MUST(rc == ARB_ETOOBIG);
        } else {
            /* the same object, the same length, the same values */
            MUST(rc == 0 && (size_t)(r.p - data) == off);
            arb_mp_init(&r, data, size);
            same(&r, &up.data);
            MUST(r.err == 0 && (size_t)(r.p - data) == off);
        }
    } else {
        /* truncated (CONTINUE), 0xc1 (PARSE_ERROR), nesting past msgpack-c's
         * own stack of 32 (NOMEM_ERROR): refused by us too */
        MUST(is_data_error(rc));
    }
    msgpack_unpacked_destroy(&up);
}

/* ---- a schema-like read: a map of known keys, the rest skipped ---- */

static void keyed_read(const uint8_t *data, size_t size)
{
    arb_mp r;
    arb_mp_init(&r, data, size);
    uint32_t n;
    if (arb_mp_map(&r, &n) != 0)
        return;
    char name[ARB_MAX_BOT_NAME + 1];
    uint64_t version;
    int64_t points;
    for (uint32_t k = 0; k < n && !r.err; k++) {
        const uint8_t *at = r.p;
        int rc;
        if (arb_mp_key(&r, "version")) {
            rc = arb_mp_uint(&r, &version);
        } else if (arb_mp_key(&r, "name")) {
            rc = arb_mp_str_copy(&r, name, sizeof name);
            if (rc == 0)
                MUST(strlen(name) <= ARB_MAX_BOT_NAME);
        } else if (arb_mp_key(&r, "points")) {
            rc = arb_mp_int(&r, &points);
        } else if (arb_mp_key(&r, "seats")) {
            uint32_t m;
            rc = arb_mp_array(&r, &m);
            for (uint32_t j = 0; j < m && !rc; j++) {
                uint64_t seat;
                rc = arb_mp_uint(&r, &seat);
            }
        } else {
            MUST(r.p == at);
            rc = arb_mp_skip(&r);   /* an unknown key */
        }
        if (rc && !r.err)
            rc = arb_mp_skip(&r);   /* a value of the wrong type: skip it */
        if (rc == 0 && !r.err)
            rc = arb_mp_skip(&r);   /* ... and whatever follows an unknown key */
        sane(&r, 0);
        if (rc)
            break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t none[1];
    if (!data)
        data = none;   /* an empty input may come as NULL */
    base = data;
    limit = data + size;

    /* 1. peek + skip, object after object, to the end or the first error */
    arb_mp a;
    arb_mp_init(&a, data, size);
    while (arb_mp_left(&a) > 0) {
        const uint8_t *start = a.p;
        int t = arb_mp_peek(&a);
        int rc = arb_mp_skip(&a);
        sane(&a, 0);
        if (t < 0) {
            MUST(t == ARB_ECORRUPT && rc == t && a.err == t && a.p == start);
            break;
        }
        if (rc) {
            MUST(is_data_error(rc) && a.err == rc && arb_mp_peek(&a) == rc);
            /* sticky: every reader fails with it from now on */
            uint64_t u;
            MUST(arb_mp_uint(&a, &u) == rc && arb_mp_skip(&a) == rc && !arb_mp_key(&a, ""));
            sane(&a, rc);
            break;
        }
        MUST(a.p > start && a.err == 0);

        /* 2. the same object read with the typed readers: same verdict */
        arb_mp b;
        arb_mp_init(&b, start, (size_t)(limit - start));
        MUST(read_any(&b, 0) == 0 && b.p == a.p);
    }
    /* the failing object too: typed readers refuse it with the same error */
    if (a.err) {
        arb_mp b = a;
        b.err = 0;
        /* find where the failing object began: re-walk */
        arb_mp w;
        arb_mp_init(&w, data, size);
        const uint8_t *start = w.p;
        while (arb_mp_left(&w) > 0) {
            start = w.p;
            if (arb_mp_skip(&w))
                break;
        }
        arb_mp_init(&b, start, (size_t)(limit - start));
        MUST(read_any(&b, 0) == a.err);
    }

    /* 3. as a keyed map */
    keyed_read(data, size);

    /* 4. against msgpack-c */
    against_msgpack_c(data, size);
    return 0;
}
