/* test_common.c — common/: pinned random vectors (computed by an independent
 * Python implementation of docs/rng.md), bounded draws, shuffles, child seeds,
 * keyed seeds and commitments (vectors from Python's hashlib), bounded
 * buffers, error texts, JSON log lines, clocks. */
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_kdf.h"
#include "arb_log.h"
#include "arb_num.h"
#include "arb_rng.h"
#include "arb_seeds.h"
#include "arb_time.h"
#include "test_util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_rng_vectors(void)
{
    static const uint64_t v0[5] = {0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL,
                                   0x6aa594f1262d2d2cULL, 0xbba5ad4a1f842e59ULL};
    static const uint64_t v42[5] = {0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL,
                                    0xecb8ad4703b360a1ULL, 0xfde6dc7fe2ec5e64ULL};
    arb_rng a, b;
    arb_rng_seed(&a, 0);
    arb_rng_seed(&b, 42);
    for (int i = 0; i < 5; i++) {
        CHECK(arb_rng_next(&a) == v0[i]);
        CHECK(arb_rng_next(&b) == v42[i]);
    }
    CHECK(arb_seed_child(7, "match/1") == 0x527b194dcd30ee22ULL);
    CHECK(arb_seed_child(7, "deal/3") == 0x5de32b5a93a7e8c4ULL);
    CHECK(arb_seed_childn(7, "deal", 3) == arb_seed_child(7, "deal/3"));
    CHECK(arb_seed_child(7, "deal/3") != arb_seed_child(8, "deal/3"));
}

/* Keyed derivations: vectors computed independently with Python's
 * hashlib.blake2b(label, key=bytes(range(32)), digest_size=32) and
 * hashlib.sha256(bytes(range(32))). */
static void test_kdf_vectors(void)
{
    uint8_t k[ARB_KEY_BYTES], d[ARB_KEY_BYTES], p[ARB_KEY_BYTES];
    for (int i = 0; i < ARB_KEY_BYTES; i++)
        k[i] = (uint8_t)i;
    char hex[65];
    CHECK(arb_key_derive(k, "match|7|1|2", d) == 0);
    arb_key_hex(d, hex);
    CHECK(strcmp(hex, "b927223ff6cb6636dcde1bfb0deeaf954a2ad852cc563f641ce417cfe1389610") == 0);
    CHECK(arb_seed_keyed(k, "deal/0") == 0x636fcf5784b38744ULL);
    CHECK(arb_seed_keyed(k, "bot/1") == 0x771d4caf510bd229ULL);
    CHECK(arb_seed_keyedn(k, "bot", 1) == arb_seed_keyed(k, "bot/1"));
    arb_key_commitment(k, hex);
    CHECK(strcmp(hex, "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd") == 0);
    uint8_t k2[ARB_KEY_BYTES];
    memset(k2, 0xab, sizeof k2);
    CHECK(arb_key_derive(k2, "", d) == 0);
    arb_key_hex(d, hex);
    CHECK(strcmp(hex, "6cbbebacc3bca1a89cc6123c10300c642c8bd4ad85edb8e3e40d6f8478fd192a") == 0);
    /* derive in place */
    memcpy(p, k, sizeof p);
    CHECK(arb_key_derive(p, "match|7|1|2", p) == 0);
    CHECK(arb_seed_keyed(k, "match|7|1|2") == 0x3666cbf63f2227b9ULL);
    /* hex round trip and parse errors */
    arb_key_hex(k, hex);
    CHECK(arb_key_parse(hex, p) == 0 && arb_key_equal(p, k));
    CHECK(arb_key_parse("  000102030405060708090A0B0C0D0E0F101112131415161718191a1b1c1d1e1f\n", p) == 0
          && arb_key_equal(p, k));
    CHECK(arb_key_parse("0001", p) == ARB_EINVAL);
    CHECK(arb_key_parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fff", p) == ARB_EINVAL);
    CHECK(arb_key_parse("g00102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", p) == ARB_EINVAL);
    /* a secret file readable by others is refused */
    char path[] = "/tmp/arb-kdf-test-XXXXXX", err[256];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, hex, 64) == 64);
    close(fd);
    chmod(path, 0600);
    CHECK(arb_key_read_file(path, p, err, sizeof err) == 0 && arb_key_equal(p, k));
    chmod(path, 0644);
    CHECK(arb_key_read_file(path, p, err, sizeof err) == ARB_EINVAL && strstr(err, "readable by group or others"));
    unlink(path);
}

static void test_rng_bounded(void)
{
    arb_rng r;
    arb_rng_seed(&r, 1);
    long counts[6] = {0};
    const long n = 600000;
    for (long i = 0; i < n; i++)
        counts[arb_rng_below(&r, 6)]++;
    double chi = 0;
    for (int i = 0; i < 6; i++) {
        double e = n / 6.0, d = (double)counts[i] - e;
        chi += d * d / e;
    }
    CHECKF(chi < 20.5, "chi-square %.2f with 5 degrees of freedom", chi);  /* p ~ 0.001 */
    for (int i = 0; i < 100; i++)
        CHECK(arb_rng_below(&r, 1) == 0);
    uint8_t items[54], again[54];
    for (int i = 0; i < 54; i++)
        items[i] = again[i] = (uint8_t)i;
    arb_rng s1, s2;
    arb_rng_seed(&s1, 9);
    arb_rng_seed(&s2, 9);
    arb_rng_shuffle_u8(&s1, items, 54);
    arb_rng_shuffle_u8(&s2, again, 54);
    CHECK(memcmp(items, again, 54) == 0);
    int seen[54] = {0}, moved = 0;
    for (int i = 0; i < 54; i++) {
        seen[items[i]]++;
        moved += items[i] != i;
    }
    int perm = 1;
    for (int i = 0; i < 54; i++)
        perm &= seen[i] == 1;
    CHECK(perm);
    CHECK(moved > 40);
}

static void test_buf(void)
{
    arb_buf b;
    arb_buf_init(&b, 10);
    CHECK(strcmp(arb_buf_str(&b), "") == 0);
    CHECK(arb_buf_puts(&b, "hello") == 0);
    CHECK(arb_buf_printf(&b, "%d", 1234) == 0);
    CHECK(strcmp(arb_buf_str(&b), "hello1234") == 0);
    CHECK(arb_buf_puts(&b, "xy") == ARB_ETOOBIG);
    CHECK(strcmp(arb_buf_str(&b), "hello1234") == 0 && b.len == 9);
    CHECK(arb_buf_putc(&b, '!') == 0 && b.len == 10);
    CHECK(arb_buf_putc(&b, '!') == ARB_ETOOBIG);
    arb_buf_reset(&b);
    CHECK(b.len == 0 && strcmp(arb_buf_str(&b), "") == 0);
    arb_buf_release(&b);
    arb_buf_init(&b, 0);
    for (int i = 0; i < 1000; i++)
        CHECK(arb_buf_printf(&b, "%04d", i) == 0);
    CHECK(b.len == 4000);
    arb_buf_release(&b);
}

static void test_errors(void)
{
    int codes[] = {ARB_OK, ARB_EINVAL, ARB_ENOMEM, ARB_ENOSPC, ARB_ERANGE, ARB_EPARSE, ARB_EILLEGAL,
                   ARB_ESTATE, ARB_EIO, ARB_ETIMEOUT, ARB_ENOTFOUND, ARB_EUNSUPPORTED, ARB_ETOOBIG,
                   ARB_ECORRUPT};
    int n = (int)(sizeof codes / sizeof codes[0]);
    for (int i = 0; i < n; i++) {
        CHECK(strlen(arb_strerror(codes[i])) > 0);
        CHECK(strcmp(arb_errname(codes[i]), "EUNKNOWN") != 0);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(arb_errname(codes[i]), arb_errname(codes[j])) != 0);
    }
    CHECK(strcmp(arb_errname(-999), "EUNKNOWN") == 0);
}

static void test_log_json(void)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    int saved = dup(2);
    dup2(fds[1], 2);
    arb_log_setup(ARB_LOG_INFO, ARB_LOG_JSON);
    arb_debug("test", "hidden");
    arb_info("seat", "bot \"a\"\nsaid\x01 hi");
    dup2(saved, 2);
    close(saved);
    close(fds[1]);
    char line[512] = "";
    ssize_t n = read(fds[0], line, sizeof line - 1);
    close(fds[0]);
    line[n > 0 ? n : 0] = 0;
    CHECKF(strstr(line, "\"level\":\"info\",\"sub\":\"seat\",\"msg\":\"bot \\\"a\\\"\\nsaid\\u0001 hi\"}\n") != NULL,
           "got %s", line);
    CHECK(strncmp(line, "{\"ts\":\"", 7) == 0);
    CHECK(strstr(line, "hidden") == NULL);
    arb_log_level lv;
    CHECK(arb_log_level_parse("warn", &lv) == 0 && lv == ARB_LOG_WARN);
    CHECK(arb_log_level_parse("loud", &lv) == ARB_EINVAL);
}

static void test_time(void)
{
    uint64_t a = arb_now_ns(), b = arb_now_ns();
    CHECK(b >= a);
    char ts[32];
    arb_wall_iso8601(ts, sizeof ts);
    CHECK(strlen(ts) == 24 && ts[23] == 'Z' && ts[10] == 'T');
}

/* The one whole-file reader: a file at its cap, one byte past it, a file
 * whose size the kernel does not tell (/proc), a missing file. */
static void test_read_file(void)
{
    char dir[] = "/tmp/arb-read-file-XXXXXX", path[64], err[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/f", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    for (int i = 0; f && i < 10000; i++)
        fputc('a' + i % 26, f);
    if (f)
        fclose(f);
    char *text = NULL;
    size_t len = 0;
    CHECK(arb_read_file(path, 10000, "a test", &text, &len, err, sizeof err) == 0);
    CHECK(text && len == 10000 && text[9999] == 'a' + 9999 % 26 && text[10000] == 0);
    free(text);
    CHECK(arb_read_file(path, 9999, "a test", &text, &len, err, sizeof err) == ARB_ETOOBIG);
    CHECK(text == NULL && strstr(err, "larger than 9999 bytes (the limit for a test)") != NULL);
    CHECK(arb_read_file("/proc/self/status", 1u << 20, "a test", &text, &len, err, sizeof err) == 0);
    CHECK(text && len > 100 && strncmp(text, "Name:", 5) == 0 && strlen(text) == len);
    free(text);
    CHECK(arb_read_file("/proc/self/status", 10, "a test", &text, &len, err, sizeof err) == ARB_ETOOBIG);
    snprintf(path, sizeof path, "%s/missing", dir);
    CHECK(arb_read_file(path, 10, "a test", &text, &len, err, sizeof err) == ARB_EIO && strstr(err, path));
    snprintf(path, sizeof path, "%s/f", dir);
    unlink(path);
    rmdir(dir);
}

/* The seeds module (arb_seeds.h): every label as docs/rng.md writes it,
 * the values the transcripts recorded so far were made with. */
static void test_seed_labels(void)
{
    uint8_t k[ARB_KEY_BYTES];
    for (int i = 0; i < ARB_KEY_BYTES; i++)
        k[i] = (uint8_t)i;
    char label[ARB_MAX_KEY_LABEL];
    arb_seeds_match_label(label, 7, 1, 2);
    CHECK(strcmp(label, "match|7|1|2") == 0);
    arb_seeds_match_label(label, UINT64_MAX, 12, 0);
    CHECK(strcmp(label, "match|18446744073709551615|12|0") == 0);
    arb_seeds_single_label(label, 42);
    CHECK(strcmp(label, "match|42") == 0);
    arb_seeds_eval_label(label, 30, 1);
    CHECK(strcmp(label, "eval|30|1") == 0);
    CHECK(arb_seeds_eval_deal(9, 4) == arb_seed_child(9, "eval/4"));
    char tl[64];
    arb_seeds_tiebreak_label(tl, sizeof tl, 3, 1);
    CHECK(strcmp(tl, "tiebreak/round/3/table/1") == 0);
    arb_seeds_final_tiebreak_label(tl, sizeof tl, 4);
    CHECK(strcmp(tl, "tiebreak/round/4/final") == 0);
    CHECK(strcmp(ARB_SEEDS_SEEDING, "seeding") == 0 && strcmp(ARB_SEEDS_ROUND_ROBIN, "round-robin") == 0
          && strcmp(ARB_SEEDS_GROUPS, "groups") == 0);
    CHECK(arb_seeds_match_seed(7, 1, 2) == arb_seed_child(7, "round/1/table/2"));
    CHECK(arb_seeds_match_seed(11, 3, 0) == arb_seed_child(11, "round/3/table/0"));
    CHECK(arb_seeds_deal(k, 0) == 0x636fcf5784b38744ULL);
    CHECK(arb_seeds_bot(k, 1) == 0x771d4caf510bd229ULL);
    CHECK(arb_seeds_plan(k, 7) == arb_seed_keyed(k, "plan|7"));
    CHECK(arb_seeds_ladder(k, 3) == arb_seed_keyed(k, "ladder/3"));
}

/* The replacements of atoi and atof (arb_num.h): the whole string or an
 * error, where atoi read "12abc" as 12, " 12" as 12 and "" as 0. */
static void test_num(void)
{
    long long v = 7;
    CHECK(arb_parse_ll("12", 0, 100, &v) == 0 && v == 12);
    CHECK(arb_parse_ll("-5", -10, 10, &v) == 0 && v == -5);
    v = 7;
    CHECK(arb_parse_ll("12abc", 0, 100, &v) == ARB_EINVAL && v == 7);
    CHECK(arb_parse_ll(" 12", 0, 100, &v) == ARB_EINVAL);
    CHECK(arb_parse_ll("+12", 0, 100, &v) == ARB_EINVAL);
    CHECK(arb_parse_ll("", 0, 100, &v) == ARB_EINVAL);
    CHECK(arb_parse_ll("-", 0, 100, &v) == ARB_EINVAL);
    CHECK(arb_parse_ll(NULL, 0, 100, &v) == ARB_EINVAL);
    CHECK(arb_parse_ll("101", 0, 100, &v) == ARB_ERANGE && v == 7);
    CHECK(arb_parse_ll("99999999999999999999", LLONG_MIN, LLONG_MAX, &v) == ARB_ERANGE);
    int i = 0;
    CHECK(arb_parse_int("2147483647", 0, INT_MAX, &i) == 0 && i == INT_MAX);
    CHECK(arb_parse_int("2147483648", 0, INT_MAX, &i) == ARB_ERANGE);
    double d = 0;
    CHECK(arb_parse_double("1.5e3", &d) == 0 && d == 1500.0);
    CHECK(arb_parse_double("1.5x", &d) == ARB_EINVAL);
    CHECK(arb_parse_double(" 1", &d) == ARB_EINVAL);
    CHECK(arb_parse_double("inf", &d) == ARB_ERANGE);
    CHECK(arb_parse_double("1e999", &d) == ARB_ERANGE);
    CHECK(arb_num_or("42", 5) == 42 && arb_num_or(NULL, 5) == 5 && arb_num_or("4x", 5) == 5);
    /* what PostgreSQL prints; NULL ("") is 0 */
    CHECK(arb_cell_int("-3") == -3 && arb_cell_int("") == 0 && arb_cell_int(NULL) == 0);
    CHECK(arb_cell_float("0.25") == 0.25 && arb_cell_float("") == 0);
}

/* rm -rf without a shell: a tree with a link out of it goes, what the link
 * points to stays. */
static void test_remove_tree(void)
{
    char root[] = "/tmp/arbiter-common-rm.XXXXXX", keep[] = "/tmp/arbiter-common-keep.XXXXXX", p[256];
    CHECK(mkdtemp(root) != NULL && mkdtemp(keep) != NULL);
    snprintf(p, sizeof p, "%s/a", root);
    CHECK(mkdir(p, 0700) == 0);
    snprintf(p, sizeof p, "%s/a/f", root);
    int fd = open(p, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    snprintf(p, sizeof p, "%s/a/out", root);
    CHECK(symlink(keep, p) == 0);
    CHECK(arb_remove_tree(root) == 0);
    struct stat st;
    CHECK(lstat(root, &st) != 0);
    CHECK(lstat(keep, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK(arb_remove_tree(root) == 0);            /* gone already */
    CHECK(arb_remove_tree(keep) == 0 && lstat(keep, &st) != 0);
}

int main(void)
{
    test_rng_vectors();
    test_kdf_vectors();
    test_seed_labels();
    test_rng_bounded();
    test_buf();
    test_errors();
    test_log_json();
    test_time();
    test_read_file();
    test_num();
    test_remove_tree();
    return TEST_DONE("common");
}
