/* test_mp.c — the bounded msgpack reader against msgpack-c's packer: every
 * integer width at its edges, strings, binaries, containers of every header
 * size, floats and exts skipped; then hostile input: every truncation of a
 * valid buffer (copied flush against a PROT_NONE page, so a read past the
 * end crashes even without ASan), headers that claim more than is there,
 * nesting without end, the sticky error, type confusion. */
#include "arb_mp.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "test_util.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static msgpack_sbuffer sb;
static msgpack_packer pk;

static void fresh(void)
{
    msgpack_sbuffer_clear(&sb);
}

static const uint8_t *packed(void) { return (const uint8_t *)sb.data; }

static void reader(arb_mp *r)
{
    arb_mp_init(r, sb.data, sb.size);
}

/* A buffer whose last byte is followed by an inaccessible page: data placed
 * with guard_place() ends exactly at the page, so reading one byte past the
 * end is a SIGSEGV. */
static uint8_t *guard_base;
static size_t guard_len;

static void guard_init(size_t max)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    guard_len = (max + page - 1) / page * page;
    if (!guard_len)
        guard_len = page;
    void *m = mmap(NULL, guard_len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect((uint8_t *)m + guard_len, page, PROT_NONE) != 0) {
        perror("guard page");
        exit(2);
    }
    guard_base = m;
}

static const uint8_t *guard_place(const void *data, size_t len)
{
    uint8_t *p = guard_base + guard_len - len;
    memcpy(p, data, len);
    return p;
}

/* ---- integers ---- */

static void test_uints(void)
{
    static const struct { uint64_t v; uint8_t marker; size_t size; } cases[] = {
        {0, 0x00, 1}, {1, 0x01, 1}, {127, 0x7f, 1},
        {128, 0xcc, 2}, {255, 0xcc, 2},
        {256, 0xcd, 3}, {65535, 0xcd, 3},
        {65536, 0xce, 5}, {4294967295u, 0xce, 5},
        {4294967296u, 0xcf, 9}, {(uint64_t)INT64_MAX, 0xcf, 9},
        {(uint64_t)INT64_MAX + 1, 0xcf, 9}, {UINT64_MAX, 0xcf, 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t want = cases[i].v;
        fresh();
        msgpack_pack_uint64(&pk, want);
        CHECKF(sb.size == cases[i].size && packed()[0] == cases[i].marker, "uint %llu encoded as 0x%02x",
               (unsigned long long)want, packed()[0]);
        arb_mp r;
        reader(&r);
        CHECK(arb_mp_peek(&r) == ARB_MP_UINT);
        uint64_t v = 7;
        CHECKF(arb_mp_uint(&r, &v) == 0 && v == want && arb_mp_left(&r) == 0, "uint %llu", (unsigned long long)want);
        int64_t s = 7;
        reader(&r);
        if (want > INT64_MAX) {
            /* does not fit: refused, nothing consumed, not sticky */
            CHECK(arb_mp_int(&r, &s) == ARB_ERANGE && s == 0 && arb_mp_left(&r) == sb.size && r.err == 0);
            CHECK(arb_mp_uint(&r, &v) == 0 && v == want);
        } else {
            CHECK(arb_mp_int(&r, &s) == 0 && (uint64_t)s == want && arb_mp_left(&r) == 0);
        }
        reader(&r);
        CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    }
}

static void test_ints(void)
{
    static const struct { int64_t v; uint8_t marker; size_t size; } cases[] = {
        {-1, 0xff, 1}, {-32, 0xe0, 1},
        {-33, 0xd0, 2}, {-128, 0xd0, 2},
        {-129, 0xd1, 3}, {-32768, 0xd1, 3},
        {-32769, 0xd2, 5}, {INT32_MIN, 0xd2, 5},
        {(int64_t)INT32_MIN - 1, 0xd3, 9}, {INT64_MIN + 1, 0xd3, 9}, {INT64_MIN, 0xd3, 9},
        {5, 0x05, 1}, {INT64_MAX, 0xcf, 9},   /* msgpack-c packs non-negatives as uint */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t want = cases[i].v;
        fresh();
        msgpack_pack_int64(&pk, want);
        CHECKF(sb.size == cases[i].size && packed()[0] == cases[i].marker, "int %lld encoded as 0x%02x",
               (long long)want, packed()[0]);
        arb_mp r;
        reader(&r);
        CHECK(arb_mp_peek(&r) == (want < 0 ? ARB_MP_INT : ARB_MP_UINT));
        int64_t v = 7;
        CHECKF(arb_mp_int(&r, &v) == 0 && v == want && arb_mp_left(&r) == 0, "int %lld", (long long)want);
        uint64_t u = 7;
        reader(&r);
        if (want < 0)
            CHECK(arb_mp_uint(&r, &u) == ARB_ERANGE && u == 0 && arb_mp_left(&r) == sb.size && r.err == 0);
        else
            CHECK(arb_mp_uint(&r, &u) == 0 && u == (uint64_t)want);
        reader(&r);
        CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    }
}

/* The fixed-width encodings a packer may choose whatever the value:
 * uint8..64 holding small numbers, int8..64 holding non-negative ones. */
static void test_fixed_widths(void)
{
    struct { int64_t v; uint8_t marker; } s[] = {
        {0, 0xd0}, {127, 0xd0}, {-128, 0xd0},
        {0, 0xd1}, {32767, 0xd1}, {-32768, 0xd1},
        {0, 0xd2}, {INT32_MAX, 0xd2}, {INT32_MIN, 0xd2},
        {0, 0xd3}, {INT64_MAX, 0xd3}, {INT64_MIN, 0xd3},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        fresh();
        switch (s[i].marker) {
        case 0xd0: msgpack_pack_fix_int8(&pk, (int8_t)s[i].v); break;
        case 0xd1: msgpack_pack_fix_int16(&pk, (int16_t)s[i].v); break;
        case 0xd2: msgpack_pack_fix_int32(&pk, (int32_t)s[i].v); break;
        default: msgpack_pack_fix_int64(&pk, s[i].v); break;
        }
        CHECK(packed()[0] == s[i].marker);
        arb_mp r;
        reader(&r);
        CHECK(arb_mp_peek(&r) == ARB_MP_INT);
        int64_t v;
        CHECKF(arb_mp_int(&r, &v) == 0 && v == s[i].v && arb_mp_left(&r) == 0, "fix int 0x%02x %lld",
               s[i].marker, (long long)s[i].v);
        uint64_t u;
        reader(&r);
        if (s[i].v >= 0)
            CHECKF(arb_mp_uint(&r, &u) == 0 && u == (uint64_t)s[i].v && arb_mp_left(&r) == 0,
                   "non-negative int 0x%02x %lld as uint", s[i].marker, (long long)s[i].v);
        else
            CHECK(arb_mp_uint(&r, &u) == ARB_ERANGE && arb_mp_left(&r) == sb.size);
    }
    struct { uint64_t v; uint8_t marker; } u[] = {
        {0, 0xcc}, {255, 0xcc}, {0, 0xcd}, {65535, 0xcd}, {1, 0xce}, {UINT32_MAX, 0xce}, {2, 0xcf}, {UINT64_MAX, 0xcf},
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        fresh();
        switch (u[i].marker) {
        case 0xcc: msgpack_pack_fix_uint8(&pk, (uint8_t)u[i].v); break;
        case 0xcd: msgpack_pack_fix_uint16(&pk, (uint16_t)u[i].v); break;
        case 0xce: msgpack_pack_fix_uint32(&pk, (uint32_t)u[i].v); break;
        default: msgpack_pack_fix_uint64(&pk, u[i].v); break;
        }
        CHECK(packed()[0] == u[i].marker);
        arb_mp r;
        reader(&r);
        uint64_t v;
        CHECKF(arb_mp_uint(&r, &v) == 0 && v == u[i].v && arb_mp_left(&r) == 0, "fix uint 0x%02x", u[i].marker);
    }
}

/* ---- strings, binaries, scalars ---- */

static void test_str_bin(void)
{
    static char big[70000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    static const struct { size_t len; uint8_t str, bin; } cases[] = {
        {0, 0xa0, 0xc4}, {5, 0xa5, 0xc4}, {31, 0xbf, 0xc4}, {32, 0xd9, 0xc4}, {255, 0xd9, 0xc4},
        {256, 0xda, 0xc5}, {65535, 0xda, 0xc5}, {65536, 0xdb, 0xc6}, {sizeof big, 0xdb, 0xc6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len;
        fresh();
        msgpack_pack_str_with_body(&pk, big, len);
        size_t str_size = sb.size;
        msgpack_pack_bin_with_body(&pk, big, len);
        CHECKF(packed()[0] == cases[i].str && packed()[str_size] == cases[i].bin, "str/bin %zu markers", len);
        arb_mp r;
        reader(&r);
        CHECK(arb_mp_peek(&r) == ARB_MP_STR);
        const char *s;
        const uint8_t *b;
        uint32_t n = 0, m = 0;
        CHECKF(arb_mp_str(&r, &s, &n) == 0 && n == len && memcmp(s, big, len) == 0
               && s >= sb.data && s + n <= sb.data + sb.size, "str of %zu", len);
        CHECK(arb_mp_peek(&r) == ARB_MP_BIN);
        CHECKF(arb_mp_bin(&r, &b, &m) == 0 && m == len && memcmp(b, big, len) == 0 && arb_mp_left(&r) == 0,
               "bin of %zu", len);
        /* a str is not a bin and the other way round */
        reader(&r);
        CHECK(arb_mp_bin(&r, &b, &m) == ARB_EPARSE && m == 0 && r.err == 0);
        CHECK(arb_mp_skip(&r) == 0 && arb_mp_str(&r, &s, &n) == ARB_EPARSE && arb_mp_skip(&r) == 0
              && arb_mp_left(&r) == 0);
    }
    /* str_copy: bounds, NUL */
    fresh();
    msgpack_pack_str_with_body(&pk, "hello", 5);
    char buf[8];
    arb_mp r;
    reader(&r);
    CHECK(arb_mp_str_copy(&r, buf, 5) == ARB_ETOOBIG && buf[0] == 0 && r.err == 0 && arb_mp_left(&r) == sb.size);
    CHECK(arb_mp_str_copy(&r, NULL, 0) == ARB_ETOOBIG);
    CHECK(arb_mp_str_copy(&r, buf, 6) == 0 && strcmp(buf, "hello") == 0 && arb_mp_left(&r) == 0);
    fresh();
    msgpack_pack_str_with_body(&pk, "", 0);
    reader(&r);
    CHECK(arb_mp_str_copy(&r, buf, 1) == 0 && buf[0] == 0);
    fresh();
    msgpack_pack_str_with_body(&pk, "a\0b", 3);
    reader(&r);
    CHECK(arb_mp_str_copy(&r, buf, sizeof buf) == ARB_ECORRUPT && r.err == ARB_ECORRUPT);
    fresh();
    msgpack_pack_uint64(&pk, 1);
    reader(&r);
    CHECK(arb_mp_str_copy(&r, buf, sizeof buf) == ARB_EPARSE && r.err == 0);

    /* nil and bool */
    fresh();
    msgpack_pack_nil(&pk);
    msgpack_pack_true(&pk);
    msgpack_pack_false(&pk);
    reader(&r);
    bool t = false, f = true;
    CHECK(arb_mp_peek(&r) == ARB_MP_NIL && arb_mp_bool(&r, &t) == ARB_EPARSE && arb_mp_nil(&r) == 0);
    CHECK(arb_mp_peek(&r) == ARB_MP_BOOL && arb_mp_nil(&r) == ARB_EPARSE);
    CHECK(arb_mp_bool(&r, &t) == 0 && t && arb_mp_bool(&r, &f) == 0 && !f && arb_mp_left(&r) == 0);
}

/* ---- containers ---- */

static void test_containers(void)
{
    static const struct { uint32_t n; uint8_t arr, map; } cases[] = {
        {0, 0x90, 0x80}, {1, 0x91, 0x81}, {15, 0x9f, 0x8f}, {16, 0xdc, 0xde},
        {65535, 0xdc, 0xde}, {65536, 0xdd, 0xdf}, {100000, 0xdd, 0xdf},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t want = cases[i].n;
        fresh();
        msgpack_pack_array(&pk, want);
        for (uint32_t k = 0; k < want; k++)
            msgpack_pack_uint64(&pk, k);
        arb_mp r;
        reader(&r);
        CHECK(packed()[0] == cases[i].arr && arb_mp_peek(&r) == ARB_MP_ARRAY);
        CHECK(arb_mp_map(&r, &(uint32_t){0}) == ARB_EPARSE && r.err == 0);
        uint32_t n = 0;
        int bad = 0;
        CHECKF(arb_mp_array(&r, &n) == 0 && n == want, "array of %u", want);
        for (uint32_t k = 0; k < n; k++) {
            uint64_t v;
            bad += arb_mp_uint(&r, &v) != 0 || v != k;
        }
        CHECKF(bad == 0 && arb_mp_left(&r) == 0, "array of %u: %d bad elements", want, bad);
        reader(&r);
        CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);

        fresh();
        msgpack_pack_map(&pk, want);
        for (uint32_t k = 0; k < want; k++) {
            msgpack_pack_uint64(&pk, k);
            msgpack_pack_int64(&pk, -(int64_t)k - 1);
        }
        reader(&r);
        CHECK(packed()[0] == cases[i].map && arb_mp_peek(&r) == ARB_MP_MAP);
        CHECK(arb_mp_array(&r, &n) == ARB_EPARSE && n == 0 && r.err == 0);
        CHECKF(arb_mp_map(&r, &n) == 0 && n == want, "map of %u", want);
        bad = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint64_t key;
            int64_t v;
            bad += arb_mp_uint(&r, &key) != 0 || key != k || arb_mp_int(&r, &v) != 0 || v != -(int64_t)k - 1;
        }
        CHECKF(bad == 0 && arb_mp_left(&r) == 0, "map of %u: %d bad pairs", want, bad);
        reader(&r);
        CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    }
}

/* Floats and exts have no typed reader: peek names them, skip steps over
 * exactly their bytes, typed reads refuse them. */
static void test_float_ext(void)
{
    fresh();
    msgpack_pack_float(&pk, 1.5f);
    msgpack_pack_double(&pk, -2.25);
    arb_mp r;
    reader(&r);
    uint64_t u;
    CHECK(packed()[0] == 0xca && packed()[5] == 0xcb && sb.size == 14);
    CHECK(arb_mp_peek(&r) == ARB_MP_FLOAT && arb_mp_uint(&r, &u) == ARB_EPARSE && r.err == 0);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 9);
    CHECK(arb_mp_peek(&r) == ARB_MP_FLOAT && arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);

    static uint8_t data[70000];
    static const struct { size_t len; uint8_t marker; size_t head; } cases[] = {
        {1, 0xd4, 2}, {2, 0xd5, 2}, {4, 0xd6, 2}, {8, 0xd7, 2}, {16, 0xd8, 2},
        {0, 0xc7, 3}, {3, 0xc7, 3}, {17, 0xc7, 3}, {255, 0xc7, 3},
        {256, 0xc8, 4}, {65535, 0xc8, 4}, {65536, 0xc9, 6}, {sizeof data, 0xc9, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fresh();
        msgpack_pack_ext_with_body(&pk, data, cases[i].len, (int8_t)(i - 3));
        msgpack_pack_true(&pk);
        reader(&r);
        CHECKF(packed()[0] == cases[i].marker && sb.size == cases[i].head + cases[i].len + 1,
               "ext of %zu encoded as 0x%02x", cases[i].len, packed()[0]);
        bool t = false;
        CHECK(arb_mp_peek(&r) == ARB_MP_EXT && arb_mp_bin(&r, &(const uint8_t *){NULL}, &(uint32_t){0}) == ARB_EPARSE);
        CHECKF(arb_mp_skip(&r) == 0 && arb_mp_bool(&r, &t) == 0 && t && arb_mp_left(&r) == 0, "ext of %zu skipped",
               cases[i].len);
    }
}

/* A map holding one of everything, nested, skipped as one object. */
static void pack_nested(int levels)
{
    msgpack_pack_map(&pk, 4);
    msgpack_pack_str_with_body(&pk, "f", 1);
    msgpack_pack_array(&pk, 20);
    for (int i = 0; i < 20; i++)
        msgpack_pack_double(&pk, i / 3.0);
    msgpack_pack_str_with_body(&pk, "e", 1);
    msgpack_pack_ext_with_body(&pk, "xyz", 3, 5);
    msgpack_pack_str_with_body(&pk, "n", 1);
    msgpack_pack_array(&pk, 3);
    msgpack_pack_nil(&pk);
    msgpack_pack_bin_with_body(&pk, "\0\1", 2);
    msgpack_pack_map(&pk, 0);
    msgpack_pack_str_with_body(&pk, "down", 4);
    if (levels > 1)
        pack_nested(levels - 1);
    else
        msgpack_pack_int64(&pk, -1000);
}

static void test_skip_and_keys(void)
{
    fresh();
    /* pack_nested(L) puts its deepest container, an empty map, inside L + 1
     * others: at the limit, then one past it */
    pack_nested(ARB_MP_MAX_DEPTH - 2);
    msgpack_pack_true(&pk);
    arb_mp r;
    reader(&r);
    CHECK(arb_mp_skip(&r) == 0);
    bool t = false;
    CHECK(arb_mp_bool(&r, &t) == 0 && t && arb_mp_left(&r) == 0);
    fresh();
    pack_nested(ARB_MP_MAX_DEPTH - 1);
    reader(&r);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG && r.err == ARB_ETOOBIG);

    /* keys */
    fresh();
    pack_nested(1);
    reader(&r);
    uint32_t n;
    CHECK(arb_mp_map(&r, &n) == 0 && n == 4);
    CHECK(!arb_mp_key(&r, "x") && !arb_mp_key(&r, "") && !arb_mp_key(&r, "ff") && arb_mp_key(&r, "f"));
    CHECK(!arb_mp_key(&r, "f"));   /* an array is no key */
    /* a type mismatch is reported, not sticky */
    uint64_t u;
    CHECK(arb_mp_uint(&r, &u) == ARB_EPARSE && r.err == 0);
    CHECK(arb_mp_array(&r, &n) == 0 && n == 20);
}

/* ---- hostile input ---- */

/* One of every encoding, small enough to cut at every byte. */
static void pack_sink(void)
{
    static char body[300];
    memset(body, 'z', sizeof body);
    msgpack_pack_array(&pk, 17);
    msgpack_pack_uint64(&pk, 7);
    msgpack_pack_fix_uint8(&pk, 200);
    msgpack_pack_fix_uint16(&pk, 60000);
    msgpack_pack_fix_uint32(&pk, 4000000000u);
    msgpack_pack_uint64(&pk, UINT64_MAX);
    msgpack_pack_int64(&pk, -5);
    msgpack_pack_fix_int8(&pk, -100);
    msgpack_pack_fix_int16(&pk, -30000);
    msgpack_pack_fix_int32(&pk, -2000000000);
    msgpack_pack_int64(&pk, INT64_MIN);
    msgpack_pack_str_with_body(&pk, body, 31);
    msgpack_pack_str_with_body(&pk, body, 200);
    msgpack_pack_str_with_body(&pk, body, 300);
    msgpack_pack_bin_with_body(&pk, body, 3);
    msgpack_pack_bin_with_body(&pk, body, 300);
    msgpack_pack_map(&pk, 16);
    for (int k = 0; k < 16; k++) {
        msgpack_pack_str_with_body(&pk, "k", 1);
        if (k % 2)
            msgpack_pack_nil(&pk);
        else
            msgpack_pack_true(&pk);
    }
    msgpack_pack_array(&pk, 18);
    msgpack_pack_float(&pk, 0.5f);
    msgpack_pack_double(&pk, 0.25);
    msgpack_pack_ext_with_body(&pk, body, 1, 1);
    msgpack_pack_ext_with_body(&pk, body, 16, 2);
    msgpack_pack_ext_with_body(&pk, body, 5, 3);
    msgpack_pack_ext_with_body(&pk, body, 300, 4);
    for (int k = 0; k < 12; k++)
        msgpack_pack_array(&pk, 0);
}

/* Read the sink back field by field; 0 or the first error (-100 for a wrong
 * value). Reads go on after a failure: the sticky error makes each one fail
 * at once, and the first error is the one reported. */
static int read_sink(arb_mp *r)
{
    uint32_t n = 0;
    uint64_t u;
    int64_t i;
    const char *s;
    const uint8_t *b;
    bool t;
    static const uint64_t us[] = {7, 200, 60000, 4000000000u, UINT64_MAX};
    static const int64_t is[] = {-5, -100, -30000, -2000000000, INT64_MIN};
    static const uint32_t lens[] = {31, 200, 300};
    int wrong = 0;
    int rc = arb_mp_array(r, &n);
    wrong += n != 17;
    for (int k = 0; k < 5; k++) {
        int e = arb_mp_uint(r, &u);
        rc = rc ? rc : e;
        wrong += u != us[k];
    }
    for (int k = 0; k < 5; k++) {
        int e = arb_mp_int(r, &i);
        rc = rc ? rc : e;
        wrong += i != is[k];
    }
    for (int k = 0; k < 3; k++) {
        int e = arb_mp_str(r, &s, &n);
        rc = rc ? rc : e;
        wrong += n != lens[k];
    }
    for (int k = 0; k < 2; k++) {
        int e = arb_mp_bin(r, &b, &n);
        rc = rc ? rc : e;
        wrong += n != (k ? 300u : 3u);
    }
    int e = arb_mp_map(r, &n);
    rc = rc ? rc : e;
    wrong += n != 16;
    for (int k = 0; k < 16; k++) {
        wrong += !arb_mp_key(r, "k");
        e = k % 2 ? arb_mp_nil(r) : arb_mp_bool(r, &t);
        rc = rc ? rc : e;
    }
    e = arb_mp_skip(r);
    rc = rc ? rc : e;
    if (rc)
        return rc;
    return wrong ? -100 : 0;
}

static void test_truncations(void)
{
    fresh();
    pack_sink();
    size_t full = sb.size;
    arb_mp r;
    reader(&r);
    CHECK(read_sink(&r) == 0 && arb_mp_left(&r) == 0);
    reader(&r);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);

    int skip_refused = 0, read_refused = 0;
    for (size_t cut = 0; cut < full; cut++) {
        /* the first `cut` bytes, ending right before an inaccessible page */
        const uint8_t *p = guard_place(sb.data, cut);
        arb_mp_init(&r, p, cut);
        skip_refused += arb_mp_skip(&r) == ARB_ECORRUPT && r.err == ARB_ECORRUPT && r.p <= r.end;
        arb_mp_init(&r, p, cut);
        read_refused += read_sink(&r) == ARB_ECORRUPT && r.p <= r.end && arb_mp_peek(&r) == ARB_ECORRUPT;
    }
    CHECKF(skip_refused == (int)full, "skip: %d of %zu truncations refused", skip_refused, full);
    CHECKF(read_refused == (int)full, "read: %d of %zu truncations refused", read_refused, full);

    /* the 32-bit length headers, with bodies too big to cut everywhere: cut
     * inside the header, just after it, and just before the end */
    static uint8_t big[70000];
    for (int kind = 0; kind < 5; kind++) {
        fresh();
        switch (kind) {
        case 0: msgpack_pack_str_with_body(&pk, big, sizeof big); break;
        case 1: msgpack_pack_bin_with_body(&pk, big, sizeof big); break;
        case 2: msgpack_pack_ext_with_body(&pk, big, sizeof big, 9); break;
        case 3:
            msgpack_pack_array(&pk, 70000);
            for (int k = 0; k < 70000; k++)
                msgpack_pack_nil(&pk);
            break;
        default:
            msgpack_pack_map(&pk, 70000);
            for (int k = 0; k < 140000; k++)
                msgpack_pack_false(&pk);
            break;
        }
        static const uint8_t markers[] = {0xdb, 0xc6, 0xc9, 0xdd, 0xdf};
        CHECK(packed()[0] == markers[kind]);
        int tried = 0, refused = 0;
        for (size_t cut = 0; cut < sb.size; cut++) {
            if (cut == 12)
                cut = sb.size - 12;
            const uint8_t *p = guard_place(sb.data, cut);
            arb_mp_init(&r, p, cut);
            tried++;
            refused += arb_mp_skip(&r) == ARB_ECORRUPT;
        }
        CHECKF(refused == tried, "32-bit header kind %d: %d of %d truncations refused", kind, refused, tried);
        reader(&r);
        CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    }
}

static void test_lying_headers(void)
{
    arb_mp r;
    uint32_t n = 99;
    const char *s;
    const uint8_t *b;

    /* an array32 claiming 2^32-1 elements in a 10-byte buffer: refused at the
     * header, before a single element is looked at */
    static const uint8_t arr32[10] = {0xdd, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5};
    arb_mp_init(&r, guard_place(arr32, sizeof arr32), sizeof arr32);
    CHECK(arb_mp_array(&r, &n) == ARB_ECORRUPT && n == 0 && r.err == ARB_ECORRUPT && arb_mp_left(&r) == 5);
    arb_mp_init(&r, guard_place(arr32, sizeof arr32), sizeof arr32);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT && arb_mp_left(&r) == 5);
    /* the boundary: as many elements as bytes left is possible, one more is not */
    static const uint8_t arr_ok[] = {0xdd, 0, 0, 0, 5, 1, 2, 3, 4, 5};
    static const uint8_t arr_bad[] = {0xdd, 0, 0, 0, 6, 1, 2, 3, 4, 5};
    static const uint8_t arr16_bad[] = {0xdc, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7};
    static const uint8_t fixarr_bad[] = {0x9f, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    arb_mp_init(&r, arr_ok, sizeof arr_ok);
    CHECK(arb_mp_array(&r, &n) == 0 && n == 5);
    arb_mp_init(&r, arr_ok, sizeof arr_ok);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    arb_mp_init(&r, arr_bad, sizeof arr_bad);
    CHECK(arb_mp_array(&r, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, arr16_bad, sizeof arr16_bad);
    CHECK(arb_mp_array(&r, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, fixarr_bad, sizeof fixarr_bad);
    CHECK(arb_mp_array(&r, &n) == ARB_ECORRUPT);

    /* maps: each pair takes at least two bytes; 2^31 pairs must not wrap */
    static const uint8_t map32_max[10] = {0xdf, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5};
    static const uint8_t map32_wrap[10] = {0xdf, 0x80, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5};
    static const uint8_t map32_ok[] = {0xdf, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6};
    static const uint8_t map32_bad[] = {0xdf, 0, 0, 0, 3, 1, 2, 3, 4, 5};
    static const uint8_t map16_bad[] = {0xde, 0x00, 0x05, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const uint8_t fixmap_bad[] = {0x83, 1, 2, 3, 4, 5};
    arb_mp_init(&r, guard_place(map32_max, sizeof map32_max), sizeof map32_max);
    CHECK(arb_mp_map(&r, &n) == ARB_ECORRUPT && n == 0 && r.err == ARB_ECORRUPT);
    arb_mp_init(&r, guard_place(map32_max, sizeof map32_max), sizeof map32_max);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    arb_mp_init(&r, map32_wrap, sizeof map32_wrap);
    CHECK(arb_mp_map(&r, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, map32_ok, sizeof map32_ok);
    CHECK(arb_mp_map(&r, &n) == 0 && n == 3);
    arb_mp_init(&r, map32_ok, sizeof map32_ok);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    arb_mp_init(&r, map32_bad, sizeof map32_bad);
    CHECK(arb_mp_map(&r, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, map16_bad, sizeof map16_bad);
    CHECK(arb_mp_map(&r, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, fixmap_bad, sizeof fixmap_bad);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);

    /* strings, binaries, exts longer than the buffer */
    static const uint8_t str32[] = {0xdb, 0xff, 0xff, 0xff, 0xff, 'a'};
    static const uint8_t str8[] = {0xd9, 0x02, 'a'};
    static const uint8_t fixstr[] = {0xa3, 'a', 'b'};
    static const uint8_t bin16[] = {0xc5, 0x01, 0x00, 'a'};
    static const uint8_t bin32[] = {0xc6, 0xff, 0xff, 0xff, 0xff};
    static const uint8_t ext32[] = {0xc9, 0xff, 0xff, 0xff, 0xff, 1};
    static const uint8_t ext8[] = {0xc7, 0x01, 0x05};         /* type byte but no data */
    static const uint8_t fixext16[] = {0xd8, 0x05, 1, 2, 3};
    static const uint8_t unused[] = {0xc1};
    arb_mp_init(&r, guard_place(str32, sizeof str32), sizeof str32);
    CHECK(arb_mp_str(&r, &s, &n) == ARB_ECORRUPT && n == 0 && s && *s == 0);
    arb_mp_init(&r, guard_place(str8, sizeof str8), sizeof str8);
    CHECK(arb_mp_str(&r, &s, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, guard_place(fixstr, sizeof fixstr), sizeof fixstr);
    CHECK(!arb_mp_key(&r, "ab") && r.err == ARB_ECORRUPT && arb_mp_left(&r) == sizeof fixstr);
    arb_mp_init(&r, guard_place(bin16, sizeof bin16), sizeof bin16);
    CHECK(arb_mp_bin(&r, &b, &n) == ARB_ECORRUPT && n == 0);
    arb_mp_init(&r, guard_place(bin32, sizeof bin32), sizeof bin32);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    arb_mp_init(&r, guard_place(ext32, sizeof ext32), sizeof ext32);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    arb_mp_init(&r, guard_place(ext8, sizeof ext8), sizeof ext8);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    arb_mp_init(&r, guard_place(fixext16, sizeof fixext16), sizeof fixext16);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    arb_mp_init(&r, unused, sizeof unused);
    CHECK(arb_mp_peek(&r) == ARB_ECORRUPT && arb_mp_skip(&r) == ARB_ECORRUPT && r.err == ARB_ECORRUPT);

    /* nothing at all */
    arb_mp_init(&r, NULL, 0);
    CHECK(arb_mp_left(&r) == 0 && arb_mp_peek(&r) == ARB_ECORRUPT && r.err == 0);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT && r.err == ARB_ECORRUPT);
}

static void test_sticky(void)
{
    /* a valid uint, then a truncated str: after the error every call fails
     * at once with it, even where the bytes would have read */
    static const uint8_t data[] = {0x01, 0xd9, 0x09, 'a', 0xc0, 0xc3, 0x90, 0x80, 0x02};
    arb_mp r;
    arb_mp_init(&r, data, sizeof data);
    uint64_t u = 9;
    int64_t i = 9;
    uint32_t n = 9;
    bool t = true;
    const char *s;
    const uint8_t *b;
    char buf[16] = "x";
    CHECK(arb_mp_uint(&r, &u) == 0 && u == 1 && r.err == 0);
    CHECK(arb_mp_str(&r, &s, &n) == ARB_ECORRUPT && r.err == ARB_ECORRUPT);
    r.p = data + 4;   /* even moved onto good bytes */
    CHECK(arb_mp_peek(&r) == ARB_ECORRUPT);
    CHECK(arb_mp_nil(&r) == ARB_ECORRUPT);
    CHECK(arb_mp_bool(&r, &t) == ARB_ECORRUPT && !t);
    CHECK(arb_mp_array(&r, &n) == ARB_ECORRUPT && n == 0);
    CHECK(arb_mp_map(&r, &n) == ARB_ECORRUPT);
    CHECK(arb_mp_uint(&r, &u) == ARB_ECORRUPT && u == 0);
    CHECK(arb_mp_int(&r, &i) == ARB_ECORRUPT && i == 0);
    CHECK(arb_mp_str(&r, &s, &n) == ARB_ECORRUPT && arb_mp_bin(&r, &b, &n) == ARB_ECORRUPT);
    CHECK(arb_mp_str_copy(&r, buf, sizeof buf) == ARB_ECORRUPT && buf[0] == 0);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT && !arb_mp_key(&r, "a"));
    CHECK(r.err == ARB_ECORRUPT && r.p == data + 4);

    /* the first error stays: a later different one does not replace it */
    static uint8_t deep[40];
    memset(deep, 0x91, sizeof deep);
    arb_mp_init(&r, deep, sizeof deep);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG);
    r.p = data + 1;
    CHECK(arb_mp_str(&r, &s, &n) == ARB_ETOOBIG && r.err == ARB_ETOOBIG);
}

static void test_nesting(void)
{
    /* 10,000 fixarrays of one, then nil: refused at ARB_MP_MAX_DEPTH,
     * iteratively (no recursion to blow the stack) */
    static uint8_t deep[10001];
    memset(deep, 0x91, sizeof deep - 1);
    deep[sizeof deep - 1] = 0xc0;
    arb_mp r;
    arb_mp_init(&r, deep, sizeof deep);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG && r.err == ARB_ETOOBIG);
    /* the same as maps of one pair: {0: {0: ...}} */
    static uint8_t deepmap[20001];
    for (size_t k = 0; k + 1 < sizeof deepmap; k += 2) {
        deepmap[k] = 0x81;
        deepmap[k + 1] = 0x00;
    }
    deepmap[sizeof deepmap - 1] = 0xc0;
    arb_mp_init(&r, deepmap, sizeof deepmap);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG);
    /* exactly at the limit: ARB_MP_MAX_DEPTH containers, a scalar inside */
    const uint8_t *tail = deep + sizeof deep - ARB_MP_MAX_DEPTH - 1;
    arb_mp_init(&r, tail, ARB_MP_MAX_DEPTH + 1);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    arb_mp_init(&r, tail - 1, ARB_MP_MAX_DEPTH + 2);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG);
    /* an empty container one level too deep is a container too deep */
    uint8_t empty_deep[ARB_MP_MAX_DEPTH + 1];
    memset(empty_deep, 0x91, ARB_MP_MAX_DEPTH);
    empty_deep[ARB_MP_MAX_DEPTH] = 0x90;
    arb_mp_init(&r, empty_deep, sizeof empty_deep);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG);
    arb_mp_init(&r, empty_deep + 1, sizeof empty_deep - 1);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
    /* wide is fine: an array of 100,000 empty arrays is one level */
    static uint8_t wide[100005] = {0xdd, 0x00, 0x01, 0x86, 0xa0};
    memset(wide + 5, 0x90, sizeof wide - 5);
    arb_mp_init(&r, wide, sizeof wide);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);
}

int main(void)
{
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    guard_init(1 << 20);
    test_uints();
    test_ints();
    test_fixed_widths();
    test_str_bin();
    test_containers();
    test_float_ext();
    test_skip_and_keys();
    test_truncations();
    test_lying_headers();
    test_sticky();
    test_nesting();
    msgpack_sbuffer_destroy(&sb);
    return TEST_DONE("msgpack-reader");
}
