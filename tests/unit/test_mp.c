/* test_mp.c — the bounded msgpack reader against msgpack-c's packer: every
 * integer width at its edges, strings, binaries, containers, skipping; then
 * hostile input: every truncation of a valid buffer, headers that claim more
 * than is there, nesting without end, type confusion. */
#include "arb_mp.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "test_util.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

static msgpack_sbuffer sb;
static msgpack_packer pk;

static void fresh(void)
{
    msgpack_sbuffer_clear(&sb);
}

static void test_integers(void)
{
    static const uint64_t us[] = {0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295u, 4294967296u, UINT64_MAX};
    for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
        fresh();
        msgpack_pack_uint64(&pk, us[i]);
        arb_mp r;
        uint64_t v = 7;
        arb_mp_init(&r, sb.data, sb.size);
        CHECKF(arb_mp_uint(&r, &v) == 0 && v == us[i] && arb_mp_left(&r) == 0, "uint %llu", (unsigned long long)us[i]);
        int64_t s;
        arb_mp_init(&r, sb.data, sb.size);
        CHECK(us[i] > INT64_MAX ? arb_mp_int(&r, &s) == ARB_ERANGE : (arb_mp_int(&r, &s) == 0 && (uint64_t)s == us[i]));
    }
    static const int64_t ss[] = {-1, -32, -33, -128, -129, -32768, -32769, INT32_MIN, (int64_t)INT32_MIN - 1, INT64_MIN, 5};
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
        fresh();
        msgpack_pack_int64(&pk, ss[i]);
        arb_mp r;
        int64_t v = 0;
        arb_mp_init(&r, sb.data, sb.size);
        CHECKF(arb_mp_int(&r, &v) == 0 && v == ss[i], "int %lld", (long long)ss[i]);
        uint64_t u;
        arb_mp_init(&r, sb.data, sb.size);
        CHECK(ss[i] < 0 ? arb_mp_uint(&r, &u) == ARB_ERANGE : arb_mp_uint(&r, &u) == 0);
    }
}

static void test_strings_and_containers(void)
{
    static char big[70000];
    memset(big, 'a', sizeof big);
    const size_t lens[] = {0, 5, 31, 32, 255, 256, 65535, 65536, sizeof big};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        fresh();
        msgpack_pack_str_with_body(&pk, big, lens[i]);
        msgpack_pack_bin_with_body(&pk, big, lens[i]);
        arb_mp r;
        arb_mp_init(&r, sb.data, sb.size);
        const char *s;
        const uint8_t *b;
        uint32_t n, m;
        CHECKF(arb_mp_str(&r, &s, &n) == 0 && n == lens[i] && arb_mp_bin(&r, &b, &m) == 0 && m == lens[i]
               && arb_mp_left(&r) == 0, "str/bin of %zu", lens[i]);
    }
    /* a map with nested arrays, a float, an ext, skipped as one object */
    fresh();
    msgpack_pack_map(&pk, 3);
    msgpack_pack_str_with_body(&pk, "k", 1);
    msgpack_pack_array(&pk, 20);
    for (int i = 0; i < 20; i++)
        msgpack_pack_double(&pk, i / 3.0);
    msgpack_pack_str_with_body(&pk, "e", 1);
    msgpack_pack_ext_with_body(&pk, "xyz", 3, 5);
    msgpack_pack_str_with_body(&pk, "n", 1);
    msgpack_pack_array(&pk, 70000);
    for (int i = 0; i < 70000; i++)
        msgpack_pack_nil(&pk);
    msgpack_pack_true(&pk);
    arb_mp r;
    arb_mp_init(&r, sb.data, sb.size);
    CHECK(arb_mp_skip(&r) == 0);
    bool t = false;
    CHECK(arb_mp_bool(&r, &t) == 0 && t && arb_mp_left(&r) == 0);
    /* keys */
    arb_mp_init(&r, sb.data, sb.size);
    uint32_t n;
    CHECK(arb_mp_map(&r, &n) == 0 && n == 3);
    CHECK(!arb_mp_key(&r, "x") && arb_mp_key(&r, "k"));
    /* a type mismatch is reported, not sticky */
    uint64_t u;
    CHECK(arb_mp_uint(&r, &u) == ARB_EPARSE && r.err == 0);
    CHECK(arb_mp_array(&r, &n) == 0 && n == 20);
    /* str_copy bounds */
    fresh();
    msgpack_pack_str_with_body(&pk, "hello", 5);
    char buf[8];
    arb_mp_init(&r, sb.data, sb.size);
    CHECK(arb_mp_str_copy(&r, buf, 5) == ARB_ETOOBIG);
    CHECK(arb_mp_str_copy(&r, buf, 6) == 0 && strcmp(buf, "hello") == 0);
    fresh();
    msgpack_pack_str_with_body(&pk, "a\0b", 3);
    arb_mp_init(&r, sb.data, sb.size);
    CHECK(arb_mp_str_copy(&r, buf, sizeof buf) == ARB_ECORRUPT);
}

static void test_hostile(void)
{
    /* every truncation of a valid nested object fails cleanly */
    fresh();
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint64(&pk, UINT64_MAX);
    msgpack_pack_str_with_body(&pk, "a string of some length", 23);
    msgpack_pack_map(&pk, 1);
    msgpack_pack_int64(&pk, INT64_MIN);
    msgpack_pack_bin_with_body(&pk, "\1\2\3", 3);
    msgpack_pack_double(&pk, 1.5);
    size_t full = sb.size;
    int clean = 0;
    for (size_t cut = 0; cut < full; cut++) {
        /* a fresh heap copy of exactly `cut` bytes: ASan sees any overread */
        uint8_t *p = malloc(cut ? cut : 1);
        memcpy(p, sb.data, cut);
        arb_mp r;
        arb_mp_init(&r, p, cut);
        clean += arb_mp_skip(&r) == ARB_ECORRUPT;
        free(p);
    }
    CHECKF(clean == (int)full, "%d of %zu truncations refused", clean, full);
    arb_mp r;
    arb_mp_init(&r, sb.data, full);
    CHECK(arb_mp_skip(&r) == 0 && arb_mp_left(&r) == 0);

    /* headers claiming more than is there, refused before anything else */
    static const uint8_t arr32[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5};
    static const uint8_t map32[] = {0xdf, 0x00, 0x00, 0x00, 0x05, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const uint8_t str32[] = {0xdb, 0x7f, 0xff, 0xff, 0xff, 'a'};
    static const uint8_t bin16[] = {0xc5, 0x01, 0x00, 'a'};
    static const uint8_t ext32[] = {0xc9, 0xff, 0xff, 0xff, 0xff, 1};
    static const uint8_t unused[] = {0xc1};
    uint32_t n;
    const char *s;
    const uint8_t *b;
    arb_mp_init(&r, arr32, sizeof arr32);
    CHECK(arb_mp_array(&r, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, map32, sizeof map32);
    CHECK(arb_mp_map(&r, &n) == ARB_ECORRUPT);   /* 5 pairs need >= 10 bytes, 9 left */
    arb_mp_init(&r, str32, sizeof str32);
    CHECK(arb_mp_str(&r, &s, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, bin16, sizeof bin16);
    CHECK(arb_mp_bin(&r, &b, &n) == ARB_ECORRUPT);
    arb_mp_init(&r, ext32, sizeof ext32);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    arb_mp_init(&r, unused, sizeof unused);
    CHECK(arb_mp_skip(&r) == ARB_ECORRUPT);
    /* and the error is sticky */
    uint64_t u;
    CHECK(arb_mp_uint(&r, &u) == ARB_ECORRUPT);

    /* nesting without end: refused at ARB_MP_MAX_DEPTH, no recursion */
    static uint8_t deep[10000];
    memset(deep, 0x91, sizeof deep - 1);   /* fixarray of 1, 9,999 deep */
    deep[sizeof deep - 1] = 0xc0;
    arb_mp_init(&r, deep, sizeof deep);
    CHECK(arb_mp_skip(&r) == ARB_ETOOBIG);
    arb_mp_init(&r, deep + sizeof deep - ARB_MP_MAX_DEPTH - 1, ARB_MP_MAX_DEPTH + 1);
    CHECK(arb_mp_skip(&r) == 0);
}

int main(void)
{
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    test_integers();
    test_strings_and_containers();
    test_hostile();
    msgpack_sbuffer_destroy(&sb);
    return TEST_DONE("msgpack-reader");
}
