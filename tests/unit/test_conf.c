/* test_conf.c — the daemons' configuration loader (arb_conf.h) against its
 * corpus (tests/data/daemon-configs, see its README): every broken NAME.yaml
 * gives exactly NAME.err and leaves the struct as it was, every ok-NAME.yaml
 * loads into exactly ok-NAME.fields; then every truncation of the good files,
 * the 1 MiB limit, unreadable files, --flags, --config and --help, and the
 * sample configs in config/ against the daemons' documented keys.
 * Usage: test_conf CORPUS_DIR SCHEDULER_YAML REFEREE_YAML */
#include "arb_conf.h"
#include "arb_error.h"
#include "test_util.h"
#include "test_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The .err files name their file as it is written from the source root;
 * the test reads the corpus wherever meson says it is and puts this prefix
 * in place of the directory it was given. */
#define CORPUS_PREFIX "tests/data/daemon-configs/"

/* ---- a table with every type ---- */

typedef struct tconf {
    char listen[64];
    char tiny[8];
    int workers;
    int heartbeat_ms;
    int offset;
    bool verbose;
    int log_level;
    arb_conf_list files;
} tconf;

static const char *const levels[] = {"debug", "info", "warn", "error", NULL};

#define STR(f, h) ARB_CONF_STR, offsetof(tconf, f), sizeof(((tconf *)0)->f), 0, 0, NULL, h
#define INT(f, lo, hi, h) ARB_CONF_INT, offsetof(tconf, f), sizeof(int), lo, hi, NULL, h
static const arb_conf_key tkeys[] = {
    {"listen", STR(listen, "where to listen")},
    {"tiny", STR(tiny, "a short string (7 bytes at most)")},
    {"workers", INT(workers, 0, 256, "worker slots")},
    {"heartbeat_ms", INT(heartbeat_ms, 100, 60000, "interval of heartbeats")},
    {"offset", INT(offset, -50, 50, "a signed number")},
    {"verbose", ARB_CONF_BOOL, offsetof(tconf, verbose), sizeof(bool), 0, 0, NULL, "say more"},
    {"log_level", ARB_CONF_ENUM, offsetof(tconf, log_level), sizeof(int), 0, 0, levels, "least level logged"},
    {"files", ARB_CONF_STRLIST, offsetof(tconf, files), sizeof(arb_conf_list), 0, 0, NULL, "files to read"},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL},
};

/* Defaults over a zeroed struct, so that memcmp can tell "unchanged". */
static void tdefaults(tconf *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->listen, sizeof c->listen, "tcp://0.0.0.0:5555");
    snprintf(c->tiny, sizeof c->tiny, "abc");
    c->workers = 4;
    c->heartbeat_ms = 1000;
    c->offset = 0;
    c->verbose = false;
    c->log_level = 1;
}

static void put(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* Every field, one "key = value" line each; list items as files.1 = ... */
static void tdump(const tconf *c, char *buf, size_t cap)
{
    buf[0] = 0;
    put(buf, cap, "listen = %s\n", c->listen);
    put(buf, cap, "tiny = %s\n", c->tiny);
    put(buf, cap, "workers = %d\n", c->workers);
    put(buf, cap, "heartbeat_ms = %d\n", c->heartbeat_ms);
    put(buf, cap, "offset = %d\n", c->offset);
    put(buf, cap, "verbose = %s\n", c->verbose ? "true" : "false");
    put(buf, cap, "log_level = %s\n", c->log_level >= 0 && c->log_level < 4 ? levels[c->log_level] : "?");
    put(buf, cap, "files = %d\n", c->files.n);
    for (int i = 0; i < c->files.n && i < ARB_CONF_LIST_MAX; i++)
        put(buf, cap, "files.%d = %s\n", i + 1, c->files.item[i]);
}

/* ---- files ---- */

static char tmpdir[256];

/* ---- the corpus ---- */

/* The code a few broken files must give, beyond their message. */
static const struct { const char *base; int rc; } codes[] = {
    {"unknown-key", ARB_ENOTFOUND}, {"int-high", ARB_ERANGE},       {"int-overflow", ARB_ERANGE},
    {"int-text", ARB_EINVAL},       {"str-too-long", ARB_ETOOBIG},  {"list-too-many", ARB_ETOOBIG},
    {"syntax-unclosed", ARB_EPARSE}, {"bad-utf8", ARB_EPARSE},      {"duplicate-key", ARB_EINVAL},
    {"two-documents", ARB_EINVAL},  {"control-nul", ARB_EINVAL},
};

static void check_broken(const char *dir, const char *base)
{
    char path[1024], errpath[1024], got[2048], norm[3072];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, base);
    snprintf(errpath, sizeof errpath, "%s/%s.err", dir, base);
    tconf c, before;
    tdefaults(&c);
    /* a list the file cannot reach, to see that a failed load keeps it */
    c.files.n = 1;
    snprintf(c.files.item[0], sizeof c.files.item[0], "kept.yaml");
    memcpy(&before, &c, sizeof c);
    got[0] = 0;
    int rc = arb_conf_load(path, tkeys, &c, got, sizeof got);
    CHECKF(rc < 0, "%s: loaded, expected an error", base);
    if (rc == 0)
        return;
    CHECKF(memcmp(&c, &before, sizeof c) == 0, "%s: a failed load changed the struct", base);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(codes[i].base, base) == 0)
            CHECKF(rc == codes[i].rc, "%s: code %d (%s), expected %d", base, rc, arb_errname(rc), codes[i].rc);
    size_t plen = strlen(path);
    bool named = strncmp(got, path, plen) == 0 && got[plen] == ':';
    CHECKF(named, "%s: the error does not start with the path: %s", base, got);
    snprintf(norm, sizeof norm, CORPUS_PREFIX "%s.yaml%s", base, named ? got + plen : got);
    unsigned line, col;
    char colon;
    CHECKF(sscanf(norm + strlen(CORPUS_PREFIX) + strlen(base) + 5, ":%u:%u%c", &line, &col, &colon) == 3 &&
               colon == ':' && line >= 1 && col >= 1,
           "%s: no LINE:COL in [%s]", base, norm);
    CHECKF(!strchr(norm, '\n'), "%s: the message is more than one line: %s", base, norm);
    char *want = test_slurp(errpath, NULL);
    CHECKF(want != NULL, "%s: no %s.err; the error is:\n%s", base, base, norm);
    if (!want)
        return;
    test_chomp(want);
    CHECKF(strcmp(norm, want) == 0, "%s\n  want: %s\n  got:  %s", base, want, norm);
    free(want);
}

static void check_good(const char *dir, const char *base)
{
    char path[1024], fields[1024], err[2048];
    static char got[1 << 16];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, base);
    snprintf(fields, sizeof fields, "%s/%s.fields", dir, base);
    tconf c;
    tdefaults(&c);
    int rc = arb_conf_load(path, tkeys, &c, err, sizeof err);
    CHECKF(rc == 0, "%s: %s", base, err);
    if (rc)
        return;
    tdump(&c, got, sizeof got);
    char *want = test_slurp(fields, NULL);
    CHECKF(want != NULL, "%s: no %s.fields; it loads into:\n%s", base, base, got);
    if (!want)
        return;
    bool same = strcmp(want, got) == 0;
    CHECKF(same, "%s: fields differ from %s.fields", base, base);
    if (!same)
        test_show_diff(base, want, got);
    free(want);
}

/* Every prefix of a good file loads or is refused with a message that
 * names the file; none crashes (the ASan build watches the rest). */
static void check_truncations(const char *dir, const char *base)
{
    char path[1024], cut[512], err[2048];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, base);
    snprintf(cut, sizeof cut, "%s/cut.yaml", tmpdir);
    size_t len;
    char *text = test_slurp(path, &len);
    CHECKF(text != NULL, "%s: unreadable", path);
    if (!text)
        return;
    int bad = 0;
    for (size_t n = 0; n <= len; n++) {
        if (!test_write_file(cut, text, n)) {
            bad++;
            continue;
        }
        tconf c;
        tdefaults(&c);
        err[0] = 0;
        int rc = arb_conf_load(cut, tkeys, &c, err, sizeof err);
        if (rc > 0 || (rc < 0 && (strncmp(err, cut, strlen(cut)) != 0 || err[strlen(cut)] != ':'))) {
            if (bad++ < 3)
                fprintf(stderr, "%s cut at %zu: rc %d, [%s]\n", base, n, rc, err);
        }
    }
    CHECKF(bad == 0, "%s: %d truncations misbehaved", base, bad);
    free(text);
    unlink(cut);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_corpus(const char *dir)
{
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "%s: %s", dir, strerror(errno));
    if (!d)
        return;
    char *names[512];
    int n = 0, good = 0, broken = 0;
    for (struct dirent *e = readdir(d); e && n < 512; e = readdir(d)) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".yaml") == 0)
            names[n++] = strndup(e->d_name, l - 5);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++) {
        if (strncmp(names[i], "ok-", 3) == 0) {
            check_good(dir, names[i]);
            check_truncations(dir, names[i]);
            good++;
        } else {
            check_broken(dir, names[i]);
            broken++;
        }
        free(names[i]);
    }
    printf("corpus: %d good files, %d broken files\n", good, broken);
    CHECKF(good >= 5 && broken >= 20, "the corpus is too small: %d good, %d broken", good, broken);
}

/* ---- limits and unreadable files ---- */

static void check_limits(void)
{
    char path[512], err[2048], want[1024];
    snprintf(path, sizeof path, "%s/big.yaml", tmpdir);
    size_t max = ARB_CONF_MAX_FILE;
    char *text = malloc(max + 1);
    CHECK(text != NULL);
    if (!text)
        return;
    /* exactly the limit: comment lines, then one key at the very end */
    const char *tail = "workers: 9\n";
    memset(text, ' ', max);
    for (size_t i = 0; i + 80 <= max - strlen(tail); i += 80) {
        text[i] = '#';
        text[i + 79] = '\n';
    }
    size_t body = max - strlen(tail);
    text[body - 1] = '\n';
    memcpy(text + body, tail, strlen(tail));
    CHECK(test_write_file(path, text, max));
    tconf c;
    tdefaults(&c);
    int rc = arb_conf_load(path, tkeys, &c, err, sizeof err);
    CHECKF(rc == 0 && c.workers == 9, "a file of exactly %zu bytes: rc %d, %s", max, rc, err);
    /* one byte more */
    text[max] = '\n';
    CHECK(test_write_file(path, text, max + 1));
    tdefaults(&c);
    rc = arb_conf_load(path, tkeys, &c, err, sizeof err);
    snprintf(want, sizeof want, "%s: larger than 1048576 bytes (the limit for a configuration file)", path);
    CHECKF(rc == ARB_ETOOBIG && strcmp(err, want) == 0, "1 MiB + 1: rc %d, [%s]", rc, err);
    CHECK(c.workers == 4);
    /* nesting within the limit: libyaml alone would take minutes over
     * half a million lines of "[" */
    for (size_t i = 0; i + 2 <= max; i += 2)
        memcpy(text + i, "[\n", 2);
    CHECK(test_write_file(path, text, max));
    rc = arb_conf_load(path, tkeys, &c, err, sizeof err);
    snprintf(want, sizeof want, "%s:33:1: nested deeper than 32 levels (expected a flat mapping of key: value)", path);
    CHECKF(rc == ARB_EINVAL && strcmp(err, want) == 0, "deep: rc %d, [%s]", rc, err);
    unlink(path);
    free(text);

    /* unreadable: no such file, a directory */
    snprintf(path, sizeof path, "%s/missing.yaml", tmpdir);
    rc = arb_conf_load(path, tkeys, &c, err, sizeof err);
    snprintf(want, sizeof want, "%s: %s", path, strerror(ENOENT));
    CHECKF(rc == ARB_EIO && strcmp(err, want) == 0, "missing: rc %d, [%s]", rc, err);
    rc = arb_conf_load(tmpdir, tkeys, &c, err, sizeof err);
    snprintf(want, sizeof want, "%s: %s", tmpdir, strerror(EISDIR));
    CHECKF(rc == ARB_EIO && strcmp(err, want) == 0, "directory: rc %d, [%s]", rc, err);

    /* a small err buffer is cut, never overrun */
    char small[16];
    memset(small, 'x', sizeof small);
    rc = arb_conf_load(path, tkeys, &c, small, 12);
    CHECK(rc == ARB_EIO && strlen(small) == 11 && small[12] == 'x');
}

/* ---- one key from text ---- */

static void expect_set(const char *name, const char *value, int want_rc, const char *want_err)
{
    tconf c, before;
    char err[1024] = "";
    tdefaults(&c);
    memcpy(&before, &c, sizeof c);
    int rc = arb_conf_set(tkeys, &c, name, value, err, sizeof err);
    CHECKF(rc == want_rc, "set %s=%s: rc %d, expected %d [%s]", name, value, rc, want_rc, err);
    if (want_err)
        CHECKF(strcmp(err, want_err) == 0, "set %s=%s\n  want: %s\n  got:  %s", name, value, want_err, err);
    if (rc)
        CHECKF(memcmp(&c, &before, sizeof c) == 0, "set %s=%s: a refused value changed the struct", name, value);
}

static void check_set(void)
{
    tconf c;
    char err[1024];
    expect_set("heartbeat_ms", "x", ARB_EINVAL, "--heartbeat-ms: expected an integer in 100..60000, found \"x\"");
    expect_set("heartbeat_ms", "60001", ARB_ERANGE,
               "--heartbeat-ms: expected an integer in 100..60000, found \"60001\"");
    expect_set("workers", "-1", ARB_ERANGE, "--workers: expected an integer in 0..256, found \"-1\"");
    expect_set("workers", "", ARB_EINVAL, "--workers: expected an integer in 0..256, found \"\"");
    expect_set("workers", " 5", ARB_EINVAL, NULL);
    expect_set("workers", "5 ", ARB_EINVAL, NULL);
    expect_set("workers", "+5", ARB_EINVAL, NULL);
    expect_set("workers", "-", ARB_EINVAL, NULL);
    expect_set("workers", "0x10", ARB_EINVAL, NULL);
    expect_set("workers", "99999999999999999999", ARB_ERANGE, NULL);
    expect_set("workers", "256", 0, NULL);
    expect_set("offset", "-50", 0, NULL);
    expect_set("heartbeat-ms", "500", 0, NULL);
    expect_set("heartbeat_m", "500", ARB_ENOTFOUND, "--heartbeat-m: unknown option (did you mean --heartbeat-ms?)");
    expect_set("colour", "red", ARB_ENOTFOUND, "--colour: unknown option");
    expect_set("log_level", "inf", ARB_EINVAL, "--log-level: unknown value \"inf\" (did you mean \"info\"?)");
    expect_set("log-level", "loud", ARB_EINVAL,
               "--log-level: unknown value \"loud\" (expected one of: debug, info, warn, error)");
    expect_set("verbose", "maybe", ARB_EINVAL,
               "--verbose: expected true or false (yes/no, on/off), found \"maybe\"");
    expect_set("tiny", "12345678", ARB_ETOOBIG, "--tiny: 8 bytes, longer than the limit of 7");
    expect_set("tiny", "1234567", 0, NULL);
    expect_set("tiny", "", 0, NULL);
    expect_set("listen", "a\tb", ARB_EINVAL, "--listen: control character 0x09 at offset 1 (expected printable text)");
    expect_set("listen", "a\xc2\x85", ARB_EINVAL,
               "--listen: control character 0x85 at offset 1 (expected printable text)");
    expect_set("listen", "caf\xc3\xa9", 0, NULL);
    expect_set("files", "", ARB_EINVAL, "--files: expected a non-empty string, found \"\"");
    {
        char long_item[600];
        memset(long_item, 'y', sizeof long_item - 1);
        long_item[sizeof long_item - 1] = 0;
        expect_set("files", long_item, ARB_ETOOBIG, "--files: 599 bytes, longer than the limit of 511");
    }
    /* a long value is quoted short in the message */
    expect_set("workers", "123456789012345678901234567890123456789012345678901234567890123456789", ARB_ERANGE,
               "--workers: expected an integer in 0..256, found "
               "\"123456789012345678901234567890123456789012345678901234567890...\"");
    expect_set("workers", "\x1b[31m", ARB_EINVAL, "--workers: expected an integer in 0..256, found \"\\x1b[31m\"");

    /* values land where they should */
    tdefaults(&c);
    CHECK(arb_conf_set(tkeys, &c, "verbose", "ON", err, sizeof err) == 0 && c.verbose);
    CHECK(arb_conf_set(tkeys, &c, "verbose", "no", err, sizeof err) == 0 && !c.verbose);
    CHECK(arb_conf_set(tkeys, &c, "log_level", "warn", err, sizeof err) == 0 && c.log_level == 2);
    CHECK(arb_conf_set(tkeys, &c, "offset", "-7", err, sizeof err) == 0 && c.offset == -7);
    CHECK(arb_conf_set(tkeys, &c, "listen", "", err, sizeof err) == 0 && c.listen[0] == 0);
    /* a list grows by one per value, up to its limit */
    for (int i = 0; i < ARB_CONF_LIST_MAX; i++) {
        char v[32];
        snprintf(v, sizeof v, "t%d.yaml", i);
        CHECK(arb_conf_set(tkeys, &c, "files", v, err, sizeof err) == 0);
    }
    CHECK(c.files.n == ARB_CONF_LIST_MAX && strcmp(c.files.item[63], "t63.yaml") == 0);
    int rc = arb_conf_set(tkeys, &c, "files", "one-more.yaml", err, sizeof err);
    CHECKF(rc == ARB_ETOOBIG && strcmp(err, "--files: more than 64 items") == 0, "65th item: %d [%s]", rc, err);
    CHECK(c.files.n == ARB_CONF_LIST_MAX);
}

/* ---- the command line ---- */

static int args(tconf *c, char *err, int *rest, int restcap, int *nrest, ...)
{
    char *argv[64];
    int argc = 0;
    va_list ap;
    va_start(ap, nrest);
    for (char *a = va_arg(ap, char *); a && argc < 63; a = va_arg(ap, char *))
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return arb_conf_args(tkeys, c, argc, argv, rest, restcap, nrest, err, 1024);
}

static void check_args(void)
{
    char file[512], bad[512], eq[600], err[1024], want[2048];
    int rest[8], nrest = -1;
    tconf c, before;
    snprintf(file, sizeof file, "%s/args.yaml", tmpdir);
    const char *text = "workers: 3\nheartbeat_ms: 2000\nfiles: [from-file.yaml]\nlog_level: warn\n";
    CHECK(test_write_file(file, text, strlen(text)));
    snprintf(bad, sizeof bad, "%s/bad.yaml", tmpdir);
    CHECK(test_write_file(bad, "workers: lots\n", 14));
    snprintf(eq, sizeof eq, "--config=%s", file);

    /* flags override the file, wherever --config stands; lists append */
    tdefaults(&c);
    int rc = args(&c, err, rest, 8, &nrest, "--workers", "7", "--files=extra.yaml", "--config", file, "--verbose",
                  "yes", NULL);
    CHECKF(rc == 0, "args: %s", err);
    CHECK(c.workers == 7 && c.heartbeat_ms == 2000 && c.verbose && c.log_level == 2);
    CHECK(c.files.n == 2 && strcmp(c.files.item[0], "from-file.yaml") == 0 &&
          strcmp(c.files.item[1], "extra.yaml") == 0);
    CHECK(nrest == 0);

    /* --config=FILE; --name=value; unknown flags and words are left, in order */
    tdefaults(&c);
    rc = args(&c, err, rest, 8, &nrest, "serve", eq, "--frobnicate", "--heartbeat-ms=250", "-v", "--log_level",
              "debug", NULL);
    CHECKF(rc == 0, "args: %s", err);
    CHECK(c.workers == 3 && c.heartbeat_ms == 250 && c.log_level == 0);
    CHECKF(nrest == 3 && rest[0] == 0 && rest[1] == 2 && rest[2] == 4, "rest: %d [%d %d %d]", nrest, rest[0],
           rest[1], rest[2]);

    /* "--" ends the options: what follows is left unread */
    tdefaults(&c);
    rc = args(&c, err, rest, 8, &nrest, "--workers", "1", "--", "--workers", "2", NULL);
    CHECK(rc == 0 && c.workers == 1 && nrest == 2 && rest[0] == 3 && rest[1] == 4);

    /* a boolean alone is true; a yes/no word after it is its value */
    tdefaults(&c);
    rc = args(&c, err, rest, 8, &nrest, "--verbose", NULL);
    CHECK(rc == 0 && c.verbose && nrest == 0);
    rc = args(&c, err, rest, 8, &nrest, "--verbose", "off", "--workers", "2", NULL);
    CHECK(rc == 0 && !c.verbose && c.workers == 2 && nrest == 0);
    rc = args(&c, err, rest, 8, &nrest, "--verbose", "serve", NULL);
    CHECK(rc == 0 && c.verbose && nrest == 1 && rest[0] == 1);
    tdefaults(&c);
    rc = args(&c, err, rest, 8, &nrest, "--verbose", "--workers", "3", NULL);
    CHECK(rc == 0 && c.verbose && c.workers == 3 && nrest == 0);
    rc = args(&c, err, rest, 8, &nrest, "--verbose=maybe", NULL);
    CHECKF(rc == ARB_EINVAL && strcmp(err, "--verbose: expected true or false (yes/no, on/off), found \"maybe\"") == 0,
           "[%s]", err);

    /* a value that looks like a flag is still the value */
    tdefaults(&c);
    rc = args(&c, err, rest, 8, &nrest, "--listen", "--config", NULL);
    CHECKF(rc == 0 && strcmp(c.listen, "--config") == 0 && nrest == 0, "rc %d [%s] listen %s", rc, err, c.listen);

    /* errors leave the struct as it was */
    struct {
        const char *a[4];
        int rc;
        const char *err;
    } cases[] = {
        {{"--workers=abc"}, ARB_EINVAL, "--workers: expected an integer in 0..256, found \"abc\""},
        {{"--workers"}, ARB_EINVAL, "--workers: expected a value"},
        {{"--tiny", "overlong!"}, ARB_ETOOBIG, "--tiny: 9 bytes, longer than the limit of 7"},
        {{"--config"}, ARB_EINVAL, "--config: expected a file name"},
        {{"--config="}, ARB_EINVAL, "--config: expected a file name"},
        {{"--files", "x", eq, eq}, ARB_EINVAL, NULL},
        {{"--files", "x", "--config", bad}, ARB_EINVAL, NULL},
        {{"--files", "x", "--workers", "300"}, ARB_ERANGE, "--workers: expected an integer in 0..256, found \"300\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tdefaults(&c);
        memcpy(&before, &c, sizeof c);
        rc = args(&c, err, rest, 8, &nrest, cases[i].a[0], cases[i].a[1], cases[i].a[2], cases[i].a[3], NULL);
        CHECKF(rc == cases[i].rc, "case %zu: rc %d [%s]", i, rc, err);
        if (cases[i].err)
            CHECKF(strcmp(err, cases[i].err) == 0, "case %zu\n  want: %s\n  got:  %s", i, cases[i].err, err);
        CHECKF(memcmp(&c, &before, sizeof c) == 0, "case %zu: a refused command line changed the struct", i);
    }
    snprintf(want, sizeof want, "--config: given twice (%s, then %s)", file, file);
    tdefaults(&c);
    rc = args(&c, err, rest, 8, &nrest, eq, eq, NULL);
    CHECKF(rc == ARB_EINVAL && strcmp(err, want) == 0, "twice: [%s]", err);
    snprintf(want, sizeof want, "%s:1:10: workers: expected an integer in 0..256, found \"lots\"", bad);
    rc = args(&c, err, rest, 8, &nrest, "--config", bad, NULL);
    CHECKF(rc == ARB_EINVAL && strcmp(err, want) == 0, "bad file: [%s]", err);

    /* more words than rest[] holds */
    tdefaults(&c);
    rc = args(&c, err, rest, 2, &nrest, "a", "b", "c", NULL);
    CHECKF(rc == ARB_ENOSPC && strcmp(err, "c: more than 2 arguments that are not options") == 0, "[%s]", err);
    rc = args(&c, err, NULL, 0, &nrest, "--workers", "5", NULL);
    CHECK(rc == 0 && nrest == 0 && c.workers == 5);
    unlink(file);
    unlink(bad);
}

/* ---- --help ---- */

static void check_usage(void)
{
    tconf c;
    tdefaults(&c);
    c.files.n = 2;
    snprintf(c.files.item[0], sizeof c.files.item[0], "a.yaml");
    snprintf(c.files.item[1], sizeof c.files.item[1], "b.yaml");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f)
        return;
    arb_conf_usage(f, tkeys, &c);
    fclose(f);
    const char *lines[] = {
        "  --config FILE                     read the settings from this YAML file first\n",
        "  --listen TEXT                     where to listen (default \"tcp://0.0.0.0:5555\")\n",
        "  --heartbeat-ms N                  interval of heartbeats (100..60000; default 1000)\n",
        "  --verbose [BOOL]                  say more (default false)\n",
        "  --log-level debug|info|warn|error  least level logged (default info)\n",
        "  --files TEXT                      files to read (repeatable; default \"a.yaml\", \"b.yaml\")\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        CHECKF(strstr(buf, lines[i]) != NULL, "--help lacks [%s]; it is:\n%s", lines[i], buf);
    int n = 0;
    for (char *p = buf; *p; p++)
        n += *p == '\n';
    CHECKF(n == 9, "--help has %d lines, expected 9 (--config and 8 keys)", n);
    free(buf);
}

/* ---- the sample configs, against the daemons' documented keys ---- */

typedef struct sched_conf {
    char listen[256], key[256], worker_keys[256], db[1024], state[256], metrics[256], web[256];
    char web_tls_cert[256], web_tls_key[256];
    arb_conf_list tournaments, web_trusted_proxy;
    int local_workers, heartbeat_ms, heartbeat_misses, lease_s, log_level, log_format, sandbox;
    bool allow_unsandboxed;
} sched_conf;

typedef struct ref_conf {
    char connect[256], server_key[256], key[256], name[128], workdir[256], metrics[256];
    int slots, heartbeat_ms, heartbeat_misses, drain_s, log_level, log_format, sandbox;
    bool allow_unsandboxed, keep_transcripts;
} ref_conf;

static const char *const formats[] = {"json", "text", NULL};
static const char *const sandboxes[] = {"auto", "bwrap", "none", NULL};

#define S_STR(T, f) ARB_CONF_STR, offsetof(T, f), sizeof(((T *)0)->f), 0, 0, NULL, #f
#define S_INT(T, f, lo, hi) ARB_CONF_INT, offsetof(T, f), sizeof(int), lo, hi, NULL, #f
#define S_ENUM(T, f, ch) ARB_CONF_ENUM, offsetof(T, f), sizeof(int), 0, 0, ch, #f
static const arb_conf_key sched_keys[] = {
    {"listen", S_STR(sched_conf, listen)},
    {"key", S_STR(sched_conf, key)},
    {"worker_keys", S_STR(sched_conf, worker_keys)},
    {"db", S_STR(sched_conf, db)},
    {"state", S_STR(sched_conf, state)},
    {"tournaments", ARB_CONF_STRLIST, offsetof(sched_conf, tournaments), sizeof(arb_conf_list), 0, 0, NULL, "t"},
    {"local_workers", S_INT(sched_conf, local_workers, 0, 256)},
    {"heartbeat_ms", S_INT(sched_conf, heartbeat_ms, 100, 60000)},
    {"heartbeat_misses", S_INT(sched_conf, heartbeat_misses, 2, 100)},
    {"lease_s", S_INT(sched_conf, lease_s, 5, 86400)},
    {"metrics", S_STR(sched_conf, metrics)},
    {"web", S_STR(sched_conf, web)},
    {"web_trusted_proxy", ARB_CONF_STRLIST, offsetof(sched_conf, web_trusted_proxy), sizeof(arb_conf_list), 0, 0,
     NULL, "w"},
    {"web_tls_cert", S_STR(sched_conf, web_tls_cert)},
    {"web_tls_key", S_STR(sched_conf, web_tls_key)},
    {"log_level", S_ENUM(sched_conf, log_level, levels)},
    {"log_format", S_ENUM(sched_conf, log_format, formats)},
    {"sandbox", S_ENUM(sched_conf, sandbox, sandboxes)},
    {"allow_unsandboxed", ARB_CONF_BOOL, offsetof(sched_conf, allow_unsandboxed), sizeof(bool), 0, 0, NULL, "a"},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL},
};
static const arb_conf_key ref_keys[] = {
    {"connect", S_STR(ref_conf, connect)},
    {"server_key", S_STR(ref_conf, server_key)},
    {"key", S_STR(ref_conf, key)},
    {"name", S_STR(ref_conf, name)},
    {"slots", S_INT(ref_conf, slots, 0, 256)},
    {"workdir", S_STR(ref_conf, workdir)},
    {"heartbeat_ms", S_INT(ref_conf, heartbeat_ms, 100, 60000)},
    {"heartbeat_misses", S_INT(ref_conf, heartbeat_misses, 2, 100)},
    {"keep_transcripts", ARB_CONF_BOOL, offsetof(ref_conf, keep_transcripts), sizeof(bool), 0, 0, NULL, "k"},
    {"drain_s", S_INT(ref_conf, drain_s, 0, 86400)},
    {"metrics", S_STR(ref_conf, metrics)},
    {"log_level", S_ENUM(ref_conf, log_level, levels)},
    {"log_format", S_ENUM(ref_conf, log_format, formats)},
    {"sandbox", S_ENUM(ref_conf, sandbox, sandboxes)},
    {"allow_unsandboxed", ARB_CONF_BOOL, offsetof(ref_conf, allow_unsandboxed), sizeof(bool), 0, 0, NULL, "a"},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL},
};

/* Every key of the table written in the file (not just left at its
 * default): the sample is what an operator copies and edits. */
static void check_every_key_written(const char *path, const arb_conf_key *keys)
{
    char *text = test_slurp(path, NULL);
    CHECKF(text != NULL, "%s: unreadable", path);
    if (!text)
        return;
    for (const arb_conf_key *k = keys; k->name; k++) {
        char needle[128];
        snprintf(needle, sizeof needle, "\n%s:", k->name);
        CHECKF(strstr(text, needle) != NULL, "%s: the key %s is not set (uncommented, at the start of a line)", path,
               k->name);
    }
    free(text);
}

static void check_samples(const char *sched_path, const char *ref_path)
{
    char err[2048];
    sched_conf s;
    memset(&s, 0xa5, sizeof s);  /* so a key the file forgets shows */
    int rc = arb_conf_load(sched_path, sched_keys, &s, err, sizeof err);
    CHECKF(rc == 0, "%s", err);
    if (rc == 0) {
        CHECK(strcmp(s.listen, "tcp://0.0.0.0:5555") == 0);
        CHECK(strcmp(s.key, "/etc/arbiter/scheduler") == 0);
        CHECK(strcmp(s.worker_keys, "/etc/arbiter/worker_keys") == 0);
        CHECK(strcmp(s.db, "") == 0);
        CHECK(strcmp(s.state, "/var/lib/arbiter") == 0);
        CHECK(s.tournaments.n == 0);
        CHECK(s.local_workers == 0 && s.heartbeat_ms == 1000 && s.heartbeat_misses == 5 && s.lease_s == 60);
        CHECK(strcmp(s.metrics, "127.0.0.1:9464") == 0);
        CHECK(strcmp(s.web, "") == 0);
        CHECK(s.web_trusted_proxy.n == 0);
        CHECK(strcmp(s.web_tls_cert, "") == 0 && strcmp(s.web_tls_key, "") == 0);
        CHECK(s.log_level == 1 && s.log_format == 0 && s.sandbox == 0);
    }
    check_every_key_written(sched_path, sched_keys);

    ref_conf r;
    memset(&r, 0xa5, sizeof r);
    rc = arb_conf_load(ref_path, ref_keys, &r, err, sizeof err);
    CHECKF(rc == 0, "%s", err);
    if (rc == 0) {
        CHECK(strcmp(r.connect, "tcp://scheduler.example:5555") == 0);
        CHECK(strcmp(r.server_key, "/etc/arbiter/scheduler.pub") == 0);
        CHECK(strcmp(r.key, "/etc/arbiter/referee") == 0);
        CHECK(strcmp(r.name, "") == 0);
        CHECK(r.slots == 0);
        CHECK(strcmp(r.workdir, "/var/lib/arbiter-referee") == 0);
        CHECK(r.heartbeat_ms == 1000 && r.heartbeat_misses == 5 && r.drain_s == 600);
        CHECK(!r.keep_transcripts);   /* the record keeps them; the referee's file goes once acknowledged */
        CHECK(strcmp(r.metrics, "127.0.0.1:9465") == 0);
        CHECK(r.log_level == 1 && r.log_format == 0 && r.sandbox == 0);
    }
    check_every_key_written(ref_path, ref_keys);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s CORPUS_DIR SCHEDULER_YAML REFEREE_YAML\n", argv[0]);
        return 2;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_conf.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    check_corpus(argv[1]);
    check_limits();
    check_set();
    check_args();
    check_usage();
    check_samples(argv[2], argv[3]);
    rmdir(tmpdir);
    return TEST_DONE("daemon-config");
}
