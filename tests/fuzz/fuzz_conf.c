/* fuzz_conf.c — libFuzzer target for the daemons' configuration loader
 * (arb_conf.h), which reads files and command lines that operators write.
 * The input is loaded as a YAML file (a temporary file made once per
 * process and rewritten each run) with a key table that has every type,
 * and split into words for arb_conf_args. Either way: a refusal leaves the
 * struct byte for byte as it was, with a one-line message that starts with
 * the file's path (a load) and that a shorter buffer only cuts; a success
 * leaves every field within its key's bounds, and setting each key again
 * from its value with arb_conf_set gives the same configuration. What a
 * file loads is also written back as YAML (every string double-quoted, any
 * character past ASCII escaped) and must load into the same configuration.
 * Any broken rule is an abort().
 *
 * The words are taken as they are, but for two changes: a '/' becomes '_',
 * so that --config can only name files in the current directory (never
 * /dev/stdin or a FIFO to hang on), and the word "%" (or "--config=%")
 * names the input's own file. */
#include "arb_conf.h"
#include "arb_error.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(cond) do { if (!(cond)) abort(); } while (0)

/* ---- a table with every type: tests/unit/test_conf.c's, and the daemons'
 * keys, so that the sample configs in config/ load as they are ---- */

typedef struct fconf {
    /* test_conf.c's table */
    char listen[64];
    char tiny[8];
    int workers;
    int heartbeat_ms;
    int offset;
    bool verbose;
    int log_level;
    arb_conf_list files;
    /* the daemons' other keys (cli/cmd_daemons.c) */
    char key[256], worker_keys[256], db[512], state[256], metrics[64];
    char connect[256], server_key[256], name[64], workdir[256];
    arb_conf_list tournaments;
    int local_workers, heartbeat_misses, lease_s, slots, drain_s;
    int log_format, sandbox;
    bool check;
} fconf;

static const char *const levels[] = {"debug", "info", "warn", "error", NULL};
static const char *const formats[] = {"json", "text", NULL};
static const char *const sandboxes[] = {"auto", "bwrap", "none", NULL};

#define STR(f, h) ARB_CONF_STR, offsetof(fconf, f), sizeof(((fconf *)0)->f), 0, 0, NULL, h
#define INT(f, lo, hi, h) ARB_CONF_INT, offsetof(fconf, f), sizeof(int), lo, hi, NULL, h
#define BOOL(f, h) ARB_CONF_BOOL, offsetof(fconf, f), sizeof(bool), 0, 0, NULL, h
#define ENUM(f, c, h) ARB_CONF_ENUM, offsetof(fconf, f), sizeof(int), 0, 0, c, h
#define LIST(f, h) ARB_CONF_STRLIST, offsetof(fconf, f), sizeof(arb_conf_list), 0, 0, NULL, h
static const arb_conf_key fkeys[] = {
    {"listen", STR(listen, "where to listen")},
    {"tiny", STR(tiny, "a short string (7 bytes at most)")},
    {"workers", INT(workers, 0, 256, "worker slots")},
    {"heartbeat_ms", INT(heartbeat_ms, 100, 60000, "interval of heartbeats")},
    {"offset", INT(offset, -50, 50, "a signed number")},
    {"verbose", BOOL(verbose, "say more")},
    {"log_level", ENUM(log_level, levels, "least level logged")},
    {"files", LIST(files, "files to read")},
    {"key", STR(key, "a key pair")},
    {"worker_keys", STR(worker_keys, "admitted keys")},
    {"db", STR(db, "conninfo")},
    {"state", STR(state, "a directory")},
    {"metrics", STR(metrics, "HOST:PORT")},
    {"connect", STR(connect, "an endpoint")},
    {"server_key", STR(server_key, "a public key")},
    {"name", STR(name, "a worker's name")},
    {"workdir", STR(workdir, "a directory")},
    {"tournaments", LIST(tournaments, "tournament files")},
    {"local_workers", INT(local_workers, 0, 256, "local slots")},
    {"heartbeat_misses", INT(heartbeat_misses, 2, 100, "silent heartbeats")},
    {"lease_s", INT(lease_s, 5, 86400, "a lease's life")},
    {"slots", INT(slots, 0, 256, "matches at once")},
    {"drain_s", INT(drain_s, 0, 86400, "time to drain")},
    {"log_format", ENUM(log_format, formats, "json or text")},
    {"sandbox", ENUM(sandbox, sandboxes, "auto, bwrap or none")},
    {"check", BOOL(check, "check and exit")},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL},
};

/* Defaults over a zeroed struct, so that memcmp can tell "unchanged". */
static void fdefaults(fconf *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->listen, sizeof c->listen, "tcp://0.0.0.0:5555");
    snprintf(c->tiny, sizeof c->tiny, "abc");
    c->workers = 4;
    c->heartbeat_ms = 1000;
    c->log_level = 1;
    c->heartbeat_misses = 5;
    c->lease_s = 60;
    c->drain_s = 600;
}

/* ---- what holds of every configuration ---- */

static int nchoices(const arb_conf_key *k)
{
    int n = 0;
    while (k->choices[n])
        n++;
    return n;
}

/* Text the loader may keep: terminated within its field, no C0, DEL or C1
 * control character. */
static void sane_text(const char *s, size_t cap)
{
    size_t len = strnlen(s, cap);
    MUST(len < cap);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        MUST(c >= 0x20 && c != 0x7f);
        MUST(!(c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f));
    }
}

static void sane(const fconf *c)
{
    const unsigned char *base = (const unsigned char *)c;
    for (const arb_conf_key *k = fkeys; k->name; k++) {
        const unsigned char *field = base + k->offset;
        int v;
        unsigned char b;
        const arb_conf_list *list;
        switch (k->type) {
        case ARB_CONF_STR:
            sane_text((const char *)field, k->size);
            break;
        case ARB_CONF_INT:
            memcpy(&v, field, sizeof v);
            MUST(v >= k->lo && v <= k->hi);
            break;
        case ARB_CONF_BOOL:
            memcpy(&b, field, 1);
            MUST(b == 0 || b == 1);
            break;
        case ARB_CONF_ENUM:
            memcpy(&v, field, sizeof v);
            MUST(v >= 0 && v < nchoices(k));
            break;
        case ARB_CONF_STRLIST:
            list = (const arb_conf_list *)(const void *)field;
            MUST(list->n >= 0 && list->n <= ARB_CONF_LIST_MAX);
            for (int i = 0; i < list->n; i++) {
                sane_text(list->item[i], sizeof list->item[i]);
                MUST(list->item[i][0]);
            }
            break;
        }
    }
}

/* The same configuration, field by field (bytes past a string's end may
 * differ). */
static bool same(const fconf *a, const fconf *b)
{
    for (const arb_conf_key *k = fkeys; k->name; k++) {
        const unsigned char *x = (const unsigned char *)a + k->offset, *y = (const unsigned char *)b + k->offset;
        const arb_conf_list *lx = (const arb_conf_list *)(const void *)x, *ly = (const arb_conf_list *)(const void *)y;
        switch (k->type) {
        case ARB_CONF_STR:
            if (strcmp((const char *)x, (const char *)y))
                return false;
            break;
        case ARB_CONF_STRLIST:
            if (lx->n != ly->n)
                return false;
            for (int i = 0; i < lx->n; i++)
                if (strcmp(lx->item[i], ly->item[i]))
                    return false;
            break;
        default:
            if (memcmp(x, y, k->size))
                return false;
        }
    }
    return true;
}

/* Each key set again from its value, over the defaults, as flags would:
 * the same configuration. */
static void set_again(const fconf *c)
{
    fconf d;
    char err[1024], num[16];
    fdefaults(&d);
    for (const arb_conf_key *k = fkeys; k->name; k++) {
        const unsigned char *field = (const unsigned char *)c + k->offset;
        const arb_conf_list *list = (const arb_conf_list *)(const void *)field;
        int v;
        bool b;
        switch (k->type) {
        case ARB_CONF_STR:
            MUST(arb_conf_set(fkeys, &d, k->name, (const char *)field, err, sizeof err) == 0);
            break;
        case ARB_CONF_INT:
            memcpy(&v, field, sizeof v);
            snprintf(num, sizeof num, "%d", v);
            MUST(arb_conf_set(fkeys, &d, k->name, num, err, sizeof err) == 0);
            break;
        case ARB_CONF_BOOL:
            memcpy(&b, field, sizeof b);
            MUST(arb_conf_set(fkeys, &d, k->name, b ? "true" : "false", err, sizeof err) == 0);
            break;
        case ARB_CONF_ENUM:
            memcpy(&v, field, sizeof v);
            MUST(arb_conf_set(fkeys, &d, k->name, k->choices[v], err, sizeof err) == 0);
            break;
        case ARB_CONF_STRLIST:
            /* the defaults' lists are empty, and a flag appends */
            for (int i = 0; i < list->n; i++)
                MUST(arb_conf_set(fkeys, &d, k->name, list->item[i], err, sizeof err) == 0);
            break;
        }
    }
    MUST(same(c, &d));
}

/* ---- the input's file ---- */

static char path[64];
static int fd = -1;

static void remove_file(void)
{
    unlink(path);
}

static void put_file(const void *data, size_t size)
{
    if (fd < 0) {
        snprintf(path, sizeof path, "/tmp/arbiter-fuzz-conf.XXXXXX");
        fd = mkstemp(path);
        MUST(fd >= 0);
        atexit(remove_file);
    }
    MUST(ftruncate(fd, 0) == 0);
    const unsigned char *p = data;
    size_t done = 0;
    while (done < size) {
        ssize_t k = pwrite(fd, p + done, size - done, (off_t)done);
        MUST(k > 0);
        done += (size_t)k;
    }
}

/* ---- a configuration written back as YAML ---- */

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    if (!t->s) {
        t->cap = 4096;
        t->s = malloc(t->cap);
        MUST(t->s != NULL);
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        MUST(k >= 0);
        if ((size_t)k < t->cap - t->len) {
            t->len += (size_t)k;
            return;
        }
        t->cap = t->cap * 2 + (size_t)k;
        t->s = realloc(t->s, t->cap);
        MUST(t->s != NULL);
    }
}

/* s double-quoted, every character past ASCII as an escape: what libyaml
 * kept is UTF-8 (its reader refuses anything else), so it decodes. */
static void add_quoted(text *t, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    add(t, "\"");
    while (*s) {
        unsigned c = *s, n = 0;
        if (c < 0x80) {
            if (c == '"' || c == '\\')
                add(t, "\\%c", (char)c);
            else
                add(t, "%c", (char)c);
            s++;
            continue;
        }
        if ((c & 0xe0) == 0xc0) {
            n = 1;
            c &= 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2;
            c &= 0x0f;
        } else {
            MUST((c & 0xf8) == 0xf0);
            n = 3;
            c &= 0x07;
        }
        s++;
        for (unsigned i = 0; i < n; i++, s++) {
            MUST((*s & 0xc0) == 0x80);
            c = c << 6 | (*s & 0x3f);
        }
        add(t, "\\U%08x", c);
    }
    add(t, "\"");
}

static void write_back(const fconf *c, text *t)
{
    t->len = 0;
    add(t, "# written back by fuzz_conf\n");
    for (const arb_conf_key *k = fkeys; k->name; k++) {
        const unsigned char *field = (const unsigned char *)c + k->offset;
        const arb_conf_list *list = (const arb_conf_list *)(const void *)field;
        int v;
        bool b;
        add(t, "%s: ", k->name);
        switch (k->type) {
        case ARB_CONF_STR:
            add_quoted(t, (const char *)field);
            break;
        case ARB_CONF_INT:
            memcpy(&v, field, sizeof v);
            add(t, "%d", v);
            break;
        case ARB_CONF_BOOL:
            memcpy(&b, field, sizeof b);
            add(t, "%s", b ? "yes" : "no");
            break;
        case ARB_CONF_ENUM:
            memcpy(&v, field, sizeof v);
            add(t, "%s", k->choices[v]);
            break;
        case ARB_CONF_STRLIST:
            add(t, "[");
            for (int i = 0; i < list->n; i++) {
                add(t, "%s", i ? ", " : "");
                add_quoted(t, list->item[i]);
            }
            add(t, "]");
            break;
        }
        add(t, "\n");
    }
}

/* ---- the two ways in ---- */

/* A refused load or command line: a message, one line, and a buffer of any
 * size holds its beginning. */
static void check_message(const char *err)
{
    MUST(err[0] && !strchr(err, '\n'));
}

/* --help with the values as defaults: quoted, one line each. */
static void usage(const fconf *c)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    MUST(devnull != NULL);
    arb_conf_usage(devnull, fkeys, c);
}

static void fuzz_load(void)
{
    static fconf c, before, again;
    static text back;
    char err[2048], small[96];
    fdefaults(&c);
    before = c;
    int rc = arb_conf_load(path, fkeys, &c, err, sizeof err);
    if (rc) {
        MUST(rc == ARB_EIO || rc == ARB_ETOOBIG || rc == ARB_EPARSE || rc == ARB_ENOTFOUND || rc == ARB_ERANGE ||
             rc == ARB_EINVAL || rc == ARB_ENOMEM);
        MUST(memcmp(&c, &before, sizeof c) == 0);
        check_message(err);
        size_t plen = strlen(path);
        MUST(strncmp(err, path, plen) == 0 && err[plen] == ':');
        /* the same refusal, cut to a buffer of 30..93 bytes (the path
         * alone is 29) */
        size_t cap = 30 + strlen(err) % 64, len = strlen(err);
        memset(small, 'x', sizeof small);
        MUST(arb_conf_load(path, fkeys, &c, small, cap) == rc);
        MUST(strlen(small) == (len < cap ? len : cap - 1) && strncmp(small, err, strlen(small)) == 0);
        MUST(small[cap] == 'x');
        return;
    }
    sane(&c);
    set_again(&c);
    usage(&c);
    /* loading over the result changes nothing (a list in the file replaces
     * the list held) */
    again = c;
    MUST(arb_conf_load(path, fkeys, &again, err, sizeof err) == 0 && same(&c, &again));
    /* written back as YAML, it loads into the same configuration */
    write_back(&c, &back);
    put_file(back.s, back.len);
    fdefaults(&again);
    rc = arb_conf_load(path, fkeys, &again, err, sizeof err);
    if (rc || !same(&c, &again)) {
        fprintf(stderr, "written back:\n%.*s\nreloaded: %d %s\n", (int)back.len, back.s, rc, rc ? err : "");
        abort();
    }
}

#define MAX_WORDS 128
#define REST_CAP 8

static void fuzz_args(const uint8_t *data, size_t size)
{
    static fconf c, before, again;
    char *words[MAX_WORDS];
    int argc = 0;
    char *buf = malloc(size + 1);
    MUST(buf != NULL);
    memcpy(buf, data, size);
    buf[size] = 0;
    for (size_t i = 0; i < size; i++) {
        if (buf[i] == '/')
            buf[i] = '_';
        if (strchr(" \t\n\r\v\f", buf[i]))
            buf[i] = 0;
    }
    for (size_t i = 0; i < size && argc < MAX_WORDS; i++) {
        if (!buf[i] || (i && buf[i - 1]))
            continue;
        char *w = buf + i;
        size_t len = strlen(w);
        if (strcmp(w, "%") == 0 || strcmp(w, "--config=%") == 0) {
            size_t head = len - 1;
            w = malloc(head + strlen(path) + 1);
            MUST(w != NULL);
            memcpy(w, buf + i, head);
            memcpy(w + head, path, strlen(path) + 1);
        } else {
            w = strdup(w);
            MUST(w != NULL);
        }
        words[argc++] = w;
    }
    int rest[REST_CAP], nrest = -1;
    char err[2048];
    fdefaults(&c);
    before = c;
    int rc = arb_conf_args(fkeys, &c, argc, words, rest, REST_CAP, &nrest, err, sizeof err);
    if (rc) {
        MUST(rc < 0 && memcmp(&c, &before, sizeof c) == 0);
        check_message(err);
    } else {
        MUST(nrest >= 0 && nrest <= REST_CAP);
        for (int i = 0; i < nrest; i++)
            MUST(rest[i] >= 0 && rest[i] < argc && (i == 0 || rest[i] > rest[i - 1]));
        sane(&c);
        set_again(&c);
        /* the same command line, the same verdict */
        fdefaults(&again);
        int rest2[REST_CAP], nrest2;
        MUST(arb_conf_args(fkeys, &again, argc, words, rest2, REST_CAP, &nrest2, err, sizeof err) == 0);
        MUST(same(&c, &again) && nrest2 == nrest && memcmp(rest, rest2, (size_t)nrest * sizeof *rest) == 0);
    }
    for (int i = 0; i < argc; i++)
        free(words[i]);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    put_file(data, size);
    fuzz_args(data, size);
    fuzz_load();
    return 0;
}
