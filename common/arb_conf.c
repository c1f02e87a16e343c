/* arb_conf.c — the daemons' configuration (arb_conf.h): one key table read
 * from a flat YAML file with libyaml's event API, and from --flags. */
#include "arb_conf.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_names.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* ---- the key table ---- */

/* Key names compare with '-' and '_' as one, so "heartbeat-ms" (a flag) and
 * "heartbeat_ms" (a key) are the same name. */
static bool same_name(const char *a, size_t alen, const char *b)
{
    size_t i = 0;
    for (; i < alen && b[i]; i++) {
        char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];
        if (x != y)
            return false;
    }
    return i == alen && !b[i];
}

static const arb_conf_key *find_key(const arb_conf_key *keys, const char *name, size_t len)
{
    for (const arb_conf_key *k = keys; k->name; k++)
        if (same_name(name, len, k->name))
            return k;
    return NULL;
}

static size_t count_keys(const arb_conf_key *keys)
{
    size_t n = 0;
    while (keys[n].name)
        n++;
    return n;
}

/* The table is code: a field whose size does not fit its type is a bug in
 * the caller, caught the first time the table is used. */
static void check_table(const arb_conf_key *keys)
{
    for (const arb_conf_key *k = keys; k->name; k++) {
        assert(strcmp(k->name, "config") != 0);
        assert(k->type != ARB_CONF_STR || k->size >= 1);
        assert(k->type != ARB_CONF_INT || (k->size == sizeof(int) && k->lo <= k->hi && k->lo >= INT_MIN &&
                                           k->hi <= INT_MAX));
        assert(k->type != ARB_CONF_BOOL || k->size == sizeof(bool));
        assert(k->type != ARB_CONF_ENUM || (k->size == sizeof(int) && k->choices && k->choices[0]));
        assert(k->type != ARB_CONF_STRLIST || k->size == sizeof(arb_conf_list));
    }
}

/* The closest known key to a misspelt one, as arb_suggest would choose it
 * (fewer than 3 edits), without building a list of names. */
static const char *suggest_key(const arb_conf_key *keys, const char *word)
{
    const char *best = NULL;
    size_t bestd = 3;
    for (const arb_conf_key *k = keys; k->name; k++) {
        size_t d = arb_edit_distance(word, k->name);
        if (d < bestd) {
            bestd = d;
            best = k->name;
        }
    }
    return best;
}

/* A copy of every field the table names, so that a load or a command line
 * that fails part-way leaves the caller's struct as it was. */
static void *snapshot(const arb_conf_key *keys, const void *out)
{
    size_t total = 0;
    for (const arb_conf_key *k = keys; k->name; k++)
        total += k->size;
    unsigned char *s = malloc(total ? total : 1);
    if (!s)
        return NULL;
    size_t at = 0;
    for (const arb_conf_key *k = keys; k->name; k++) {
        memcpy(s + at, (const unsigned char *)out + k->offset, k->size);
        at += k->size;
    }
    return s;
}

static void restore(const arb_conf_key *keys, void *out, const void *snap)
{
    const unsigned char *s = snap;
    size_t at = 0;
    for (const arb_conf_key *k = keys; k->name; k++) {
        memcpy((unsigned char *)out + k->offset, s + at, k->size);
        at += k->size;
    }
}

/* ---- values: one checker for the file and the flags ---- */

/* A value as the checkers see it: its text, or a shape that is not text. */
typedef enum shape { SHAPE_TEXT, SHAPE_NOTHING, SHAPE_LIST, SHAPE_MAPPING, SHAPE_ALIAS } shape;

static const char *shape_name(shape s)
{
    switch (s) {
    case SHAPE_NOTHING: return "nothing";
    case SHAPE_LIST: return "a list";
    case SHAPE_MAPPING: return "a mapping";
    case SHAPE_ALIAS: return "an alias";
    case SHAPE_TEXT: break;
    }
    return "text";
}

/* Text people wrote, quoted for a message: at most 60 bytes of it, control
 * characters and quotes escaped, so one message stays one line. */
static void quote(char *dst, size_t cap, const char *s, size_t len)
{
    size_t k = 0;
    if (cap < 8) {
        if (cap)
            dst[0] = 0;
        return;
    }
    dst[k++] = '"';
    for (size_t i = 0; i < len && k + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 60) {
            k += (size_t)snprintf(dst + k, cap - k, "...");
            break;
        }
        if (c == '"' || c == '\\')
            k += (size_t)snprintf(dst + k, cap - k, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            k += (size_t)snprintf(dst + k, cap - k, "\\x%02x", c);
        else
            dst[k++] = (char)c;
    }
    dst[k++] = '"';
    dst[k] = 0;
}

/* What a key expects, for "expected ..., found ..." messages. */
static void expectation(const arb_conf_key *k, char *dst, size_t cap)
{
    size_t n = 0;
    switch (k->type) {
    case ARB_CONF_STR: snprintf(dst, cap, "a string"); return;
    case ARB_CONF_INT: snprintf(dst, cap, "an integer in %lld..%lld", k->lo, k->hi); return;
    case ARB_CONF_BOOL: snprintf(dst, cap, "true or false (yes/no, on/off)"); return;
    case ARB_CONF_STRLIST: snprintf(dst, cap, "a string or a list of strings"); return;
    case ARB_CONF_ENUM:
        n = (size_t)snprintf(dst, cap, "one of:");
        for (int i = 0; k->choices[i] && n < cap; i++)
            n += (size_t)snprintf(dst + n, cap - n, "%s %s", i ? "," : "", k->choices[i]);
        return;
    }
    snprintf(dst, cap, "a value");
}

/* The first control character of a string (C0, DEL, or a C1 code point
 * written in UTF-8 as C2 80..C2 9F), or -1. Such characters in a path or an
 * endpoint are always a mistake, and in a log line they forge structure. */
static long control_at(const char *s, size_t len, unsigned *code)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            *code = c;
            return (long)i;
        }
        if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f) {
            *code = (unsigned char)s[i + 1];
            return (long)i;
        }
    }
    return -1;
}

static int check_string(const char *s, size_t len, size_t cap, char *why, size_t whylen)
{
    unsigned code = 0;
    if (len >= cap) {
        snprintf(why, whylen, "%zu bytes, longer than the limit of %zu", len, cap - 1);
        return ARB_ETOOBIG;
    }
    long at = control_at(s, len, &code);
    if (at >= 0) {
        snprintf(why, whylen, "control character 0x%02x at offset %ld (expected printable text)", code, at);
        return ARB_EINVAL;
    }
    return 0;
}

static int parse_int(const arb_conf_key *k, const char *s, size_t len, int *out, char *why, size_t whylen)
{
    char want[64], found[80];
    size_t i = s[0] == '-' ? 1 : 0;
    bool digits = i < len;
    for (size_t j = i; j < len; j++)
        digits &= s[j] >= '0' && s[j] <= '9';
    /* Only digits reach strtoll: it would take " 12", "+12" and "12abc"'s
     * prefix, and stop at a NUL inside the text. A leading zero is refused:
     * "050" is 40 to YAML 1.1 and 50 to YAML 1.2. */
    bool leading_zero = digits && s[i] == '0' && i + 1 < len;
    digits &= !leading_zero;
    long long v = 0;
    errno = 0;
    if (digits)
        v = strtoll(s, NULL, 10);
    if (!digits || errno == ERANGE || v < k->lo || v > k->hi) {
        expectation(k, want, sizeof want);
        quote(found, sizeof found, s, len);
        snprintf(why, whylen, "expected %s, found %s%s", want, found,
                 leading_zero ? " (a leading 0 reads as octal to some)" : "");
        return digits ? ARB_ERANGE : ARB_EINVAL;
    }
    *out = (int)v;
    return 0;
}

static int parse_bool(const arb_conf_key *k, const char *s, size_t len, bool *out, char *why, size_t whylen)
{
    static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
    for (int i = 0; i < 3 && len == strlen(s); i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    char want[64], found[80];
    expectation(k, want, sizeof want);
    quote(found, sizeof found, s, len);
    snprintf(why, whylen, "expected %s, found %s", want, found);
    return ARB_EINVAL;
}

static int parse_enum(const arb_conf_key *k, const char *s, size_t len, int *out, char *why, size_t whylen)
{
    for (int i = 0; k->choices[i]; i++) {
        if (len == strlen(k->choices[i]) && memcmp(s, k->choices[i], len) == 0) {
            *out = i;
            return 0;
        }
    }
    char found[80], want[512];
    quote(found, sizeof found, s, len);
    /* a different case first ("INFO"), which edit distance rates far */
    const char *near = NULL;
    for (int i = 0; k->choices[i] && !near && len == strlen(s); i++)
        if (strcasecmp(s, k->choices[i]) == 0)
            near = k->choices[i];
    if (!near && len == strlen(s))
        near = arb_suggest(s, k->choices, 3);
    if (near) {
        snprintf(why, whylen, "unknown value %s (did you mean \"%s\"?)", found, near);
    } else {
        expectation(k, want, sizeof want);
        snprintf(why, whylen, "unknown value %s (expected %s)", found, want);
    }
    return ARB_EINVAL;
}

/* Check one value of key k and, if it is good, store it in out. For a list
 * key the text is appended. The message goes to why without the prefix
 * (FILE:LINE:COL: key, or --flag) that the caller adds. */
static int set_value(const arb_conf_key *k, void *out, shape sh, const char *s, size_t len, char *why, size_t whylen)
{
    unsigned char *field = (unsigned char *)out + k->offset;
    char want[512];
    int rc;
    if (sh == SHAPE_NOTHING && k->type == ARB_CONF_STR) {
        field[0] = 0;
        return 0;
    }
    if (sh != SHAPE_TEXT) {
        expectation(k, want, sizeof want);
        snprintf(why, whylen, "expected %s, found %s", want, shape_name(sh));
        return ARB_EINVAL;
    }
    switch (k->type) {
    case ARB_CONF_STR:
        rc = check_string(s, len, k->size, why, whylen);
        if (rc == 0) {
            memcpy(field, s, len);
            field[len] = 0;
        }
        return rc;
    case ARB_CONF_INT: {
        int v;
        rc = parse_int(k, s, len, &v, why, whylen);
        if (rc == 0)
            memcpy(field, &v, sizeof v);
        return rc;
    }
    case ARB_CONF_BOOL: {
        bool v;
        rc = parse_bool(k, s, len, &v, why, whylen);
        if (rc == 0)
            memcpy(field, &v, sizeof v);
        return rc;
    }
    case ARB_CONF_ENUM: {
        int v;
        rc = parse_enum(k, s, len, &v, why, whylen);
        if (rc == 0)
            memcpy(field, &v, sizeof v);
        return rc;
    }
    case ARB_CONF_STRLIST: {
        arb_conf_list *list = (arb_conf_list *)(void *)field;
        if (list->n >= ARB_CONF_LIST_MAX) {
            snprintf(why, whylen, "more than %d items", ARB_CONF_LIST_MAX);
            return ARB_ETOOBIG;
        }
        if (len == 0) {
            snprintf(why, whylen, "expected a non-empty string, found \"\"");
            return ARB_EINVAL;
        }
        rc = check_string(s, len, sizeof list->item[0], why, whylen);
        if (rc == 0) {
            memcpy(list->item[list->n], s, len);
            list->item[list->n][len] = 0;
            list->n++;
        }
        return rc;
    }
    }
    snprintf(why, whylen, "key of unknown type %d", (int)k->type);
    return ARB_EINVAL;
}

/* ---- the file ---- */

typedef struct loader {
    const char *path;
    const char *text;
    const arb_conf_key *keys;
    void *out;
    yaml_parser_t parser;
    yaml_event_t ev;
    bool have_event;
    char *err;
    size_t errlen;
    int rc;
} loader;

static int at(loader *L, yaml_mark_t m, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int at(loader *L, yaml_mark_t m, int rc, const char *fmt, ...)
{
    if (L->rc)
        return L->rc;
    int k = snprintf(L->err, L->errlen, "%s:%zu:%zu: ", L->path, m.line + 1, m.column + 1);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && (size_t)k < L->errlen)
        vsnprintf(L->err + k, L->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return L->rc = rc;
}

/* libyaml's own words for what it could not read, at its position. Reader
 * errors (bad UTF-8, control characters) carry a byte offset, not a mark:
 * the line and column (in characters, as libyaml counts them) are worked
 * out from the text. */
static int syntax_error(loader *L)
{
    const yaml_parser_t *p = &L->parser;
    if (p->error == YAML_MEMORY_ERROR) {
        snprintf(L->err, L->errlen, "%s: out of memory", L->path);
        return L->rc = ARB_ENOMEM;
    }
    size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
    if (p->error == YAML_READER_ERROR) {
        line = col = 1;
        for (size_t i = 0; i < p->problem_offset; i++) {
            unsigned char c = (unsigned char)L->text[i];
            if (c == '\n') {
                line++;
                col = 1;
            } else if ((c & 0xc0) != 0x80) {
                col++;
            }
        }
    }
    int k = snprintf(L->err, L->errlen, "%s:%zu:%zu: %s", L->path, line, col,
                     p->problem ? p->problem : "malformed YAML");
    if (k > 0 && (size_t)k < L->errlen) {
        if (p->error == YAML_READER_ERROR && p->problem_value != -1)
            snprintf(L->err + k, L->errlen - (size_t)k, " (byte 0x%02x)", (unsigned)p->problem_value);
        else if (p->context)
            snprintf(L->err + k, L->errlen - (size_t)k, " %s", p->context);
    }
    return L->rc = ARB_EPARSE;
}

/* The next event into L->ev (the previous one freed). */
static int next(loader *L)
{
    if (L->have_event)
        yaml_event_delete(&L->ev);
    L->have_event = false;
    if (!yaml_parser_parse(&L->parser, &L->ev))
        return syntax_error(L);
    L->have_event = true;
    return 0;
}


static int syntax(loader *L)
{
    int depth = 0;
    do {
        if (next(L))
            return L->rc;
        if (L->ev.type == YAML_SEQUENCE_START_EVENT || L->ev.type == YAML_MAPPING_START_EVENT)
            depth++;
        if (L->ev.type == YAML_SEQUENCE_END_EVENT || L->ev.type == YAML_MAPPING_END_EVENT)
            depth--;
        if (depth > ARB_YAML_MAX_DEPTH)
            return at(L, L->ev.start_mark, ARB_EINVAL, "nested deeper than %d levels (expected a flat mapping of "
                      "key: value)", ARB_YAML_MAX_DEPTH);
    } while (L->ev.type != YAML_STREAM_END_EVENT);
    yaml_event_delete(&L->ev);
    L->have_event = false;
    return 0;
}

/* YAML's null: nothing at all, or ~ / null written plain. */
static bool is_null(const yaml_event_t *e)
{
    const char *s = (const char *)e->data.scalar.value;
    size_t n = e->data.scalar.length;
    if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    return n == 0 || (n == 1 && s[0] == '~') || (n == 4 && (strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
                                                            strcmp(s, "NULL") == 0));
}

static shape event_shape(const yaml_event_t *e)
{
    switch (e->type) {
    case YAML_SCALAR_EVENT: return is_null(e) ? SHAPE_NOTHING : SHAPE_TEXT;
    case YAML_SEQUENCE_START_EVENT: return SHAPE_LIST;
    case YAML_MAPPING_START_EVENT: return SHAPE_MAPPING;
    default: return SHAPE_ALIAS;
    }
}

/* One value from the current event, for key k. */
static int value_at(loader *L, const arb_conf_key *k, shape sh)
{
    char why[768];
    const char *s = sh == SHAPE_TEXT ? (const char *)L->ev.data.scalar.value : "";
    size_t len = sh == SHAPE_TEXT ? L->ev.data.scalar.length : 0;
    int rc = set_value(k, L->out, sh, s, len, why, sizeof why);
    if (rc)
        return at(L, L->ev.start_mark, rc, "%s: %s", k->name, why);
    return 0;
}

/* A list key's value: one string, nothing (the empty list), or a sequence of
 * strings. It replaces what the caller held. */
static int list_value(loader *L, const arb_conf_key *k)
{
    arb_conf_list *list = (arb_conf_list *)(void *)((unsigned char *)L->out + k->offset);
    shape sh = event_shape(&L->ev);
    list->n = 0;
    if (sh == SHAPE_NOTHING)
        return 0;
    if (sh != SHAPE_LIST)
        return value_at(L, k, sh);
    for (;;) {
        if (next(L))
            return L->rc;
        if (L->ev.type == YAML_SEQUENCE_END_EVENT)
            return 0;
        sh = event_shape(&L->ev);
        if (sh == SHAPE_LIST || sh == SHAPE_MAPPING)
            return at(L, L->ev.start_mark, ARB_EINVAL, "%s: expected a string, found %s", k->name, shape_name(sh));
        if (sh == SHAPE_ALIAS)
            return at(L, L->ev.start_mark, ARB_EINVAL, "%s: aliases (*name) are not supported here", k->name);
        if (sh == SHAPE_NOTHING)
            return at(L, L->ev.start_mark, ARB_EINVAL, "%s: expected a string, found nothing", k->name);
        if (value_at(L, k, SHAPE_TEXT))
            return L->rc;
    }
}

/* The top-level mapping: each key known, given once, its value checked. */
static int mapping(loader *L)
{
    size_t nkeys = count_keys(L->keys);
    /* where each key was first seen (line + 1; 0 = not yet) */
    size_t *seen = calloc(nkeys ? nkeys : 1, sizeof *seen);
    if (!seen) {
        snprintf(L->err, L->errlen, "%s: out of memory", L->path);
        return L->rc = ARB_ENOMEM;
    }
    while (!next(L) && L->ev.type != YAML_MAPPING_END_EVENT) {
        shape sh = event_shape(&L->ev);
        if (sh != SHAPE_TEXT && sh != SHAPE_NOTHING) {
            at(L, L->ev.start_mark, ARB_EINVAL, "expected a key name, found %s", shape_name(sh));
            break;
        }
        const char *name = (const char *)L->ev.data.scalar.value;
        size_t len = L->ev.data.scalar.length;
        /* in the file a key is spelt exactly (flags may use dashes) */
        const arb_conf_key *k = NULL;
        for (const arb_conf_key *c = L->keys; c->name && !k; c++)
            if (len == strlen(c->name) && memcmp(c->name, name, len) == 0)
                k = c;
        if (!k) {
            char q[80];
            quote(q, sizeof q, name, len);
            const char *near = suggest_key(L->keys, name);
            if (near) {
                at(L, L->ev.start_mark, ARB_ENOTFOUND, "unknown key %s (did you mean \"%s\"?)", q, near);
            } else {
                char list[1024];
                size_t n = 0;
                for (const arb_conf_key *c = L->keys; c->name && n < sizeof list; c++)
                    n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", c == L->keys ? "" : ", ", c->name);
                at(L, L->ev.start_mark, ARB_ENOTFOUND, "unknown key %s (expected one of: %s)", q, list);
            }
            break;
        }
        size_t idx = (size_t)(k - L->keys);
        if (seen[idx]) {
            at(L, L->ev.start_mark, ARB_EINVAL, "%s: given twice (first at line %zu)", k->name, seen[idx]);
            break;
        }
        seen[idx] = L->ev.start_mark.line + 1;
        if (next(L))
            break;
        sh = event_shape(&L->ev);
        if (sh == SHAPE_ALIAS) {
            at(L, L->ev.start_mark, ARB_EINVAL, "%s: aliases (*name) are not supported here", k->name);
            break;
        }
        if (k->type == ARB_CONF_STRLIST ? list_value(L, k) : value_at(L, k, sh))
            break;
    }
    free(seen);
    return L->rc;
}

/* The stream: nothing, or one document whose root is a mapping (or empty). */
static int document(loader *L)
{
    if (next(L) || next(L))  /* STREAM-START, then DOCUMENT-START or STREAM-END */
        return L->rc;
    if (L->ev.type == YAML_STREAM_END_EVENT)
        return 0;
    if (next(L))
        return L->rc;
    shape sh = event_shape(&L->ev);
    if (sh == SHAPE_MAPPING) {
        if (mapping(L))
            return L->rc;
    } else if (sh != SHAPE_NOTHING) {
        char found[80] = "";
        if (sh == SHAPE_TEXT)
            quote(found, sizeof found, (const char *)L->ev.data.scalar.value, L->ev.data.scalar.length);
        return at(L, L->ev.start_mark, ARB_EINVAL, "expected a mapping of key: value at the top, found %s",
                  sh == SHAPE_TEXT ? found : shape_name(sh));
    }
    if (next(L) || next(L))  /* DOCUMENT-END, then STREAM-END or another DOCUMENT-START */
        return L->rc;
    if (L->ev.type == YAML_DOCUMENT_START_EVENT)
        return at(L, L->ev.start_mark, ARB_EINVAL, "a second YAML document (one configuration per file)");
    return 0;
}

int arb_conf_load(const char *path, const arb_conf_key *keys, void *out, char *err, size_t errlen)
{
    loader L = {.path = path, .keys = keys, .out = out, .err = err, .errlen = errlen};
    bool parser_ready = false;
    char *text = NULL;
    void *snap = NULL;
    size_t len = 0;
    check_table(keys);
    if (errlen)
        err[0] = 0;
    snap = snapshot(keys, out);
    if (!snap) {
        snprintf(err, errlen, "%s: out of memory", path);
        L.rc = ARB_ENOMEM;
        goto out;
    }
    L.rc = arb_read_file(path, ARB_CONF_MAX_FILE, "a configuration file", &text, &len, err, errlen);
    if (L.rc)
        goto out;
    L.text = text;
    if (!yaml_parser_initialize(&L.parser)) {
        snprintf(err, errlen, "%s: out of memory", path);
        L.rc = ARB_ENOMEM;
        goto out;
    }
    parser_ready = true;
    /* Two passes: the first only parses, so that a syntax error anywhere
     * is what the operator hears about, in libyaml's words, before a key
     * the parser had not yet reached makes less sense ("workers: 2" and an
     * over-indented next line read as the value "2 verbose"). */
    yaml_parser_set_input_string(&L.parser, (const unsigned char *)text, len);
    if (syntax(&L))
        goto out;
    yaml_parser_delete(&L.parser);
    parser_ready = false;
    if (!yaml_parser_initialize(&L.parser)) {
        snprintf(err, errlen, "%s: out of memory", path);
        L.rc = ARB_ENOMEM;
        goto out;
    }
    parser_ready = true;
    yaml_parser_set_input_string(&L.parser, (const unsigned char *)text, len);
    document(&L);
out:
    if (L.have_event)
        yaml_event_delete(&L.ev);
    if (parser_ready)
        yaml_parser_delete(&L.parser);
    if (L.rc && snap)
        restore(keys, out, snap);
    free(snap);
    free(text);
    return L.rc;
}

/* ---- flags ---- */

/* "--heartbeat-ms" for the key heartbeat_ms. */
static void flag_name(char *dst, size_t cap, const char *name, size_t len)
{
    int n = snprintf(dst, cap, "--%.*s", (int)len, name);
    for (int i = 2; i < n && (size_t)i < cap; i++)
        if (dst[i] == '_')
            dst[i] = '-';
}

int arb_conf_set(const arb_conf_key *keys, void *out, const char *name, const char *value, char *err, size_t errlen)
{
    char flag[160], why[768];
    check_table(keys);
    const arb_conf_key *k = find_key(keys, name, strlen(name));
    if (!k) {
        flag_name(flag, sizeof flag, name, strlen(name));
        /* suggestions compare key spellings, underscores and all */
        char word[128];
        snprintf(word, sizeof word, "%s", name);
        for (char *c = word; *c; c++)
            if (*c == '-')
                *c = '_';
        const char *near = suggest_key(keys, word);
        char near_flag[160];
        if (near) {
            flag_name(near_flag, sizeof near_flag, near, strlen(near));
            snprintf(err, errlen, "%s: unknown option (did you mean %s?)", flag, near_flag);
        } else {
            snprintf(err, errlen, "%s: unknown option", flag);
        }
        return ARB_ENOTFOUND;
    }
    flag_name(flag, sizeof flag, k->name, strlen(k->name));
    int rc = set_value(k, out, SHAPE_TEXT, value, strlen(value), why, sizeof why);
    if (rc)
        snprintf(err, errlen, "%s: %s", flag, why);
    return rc;
}

/* What argv[i] is: --config (and its file, NULL when missing), a known
 * key (and its value, NULL when missing), "--", or something else. `took`
 * is how many arguments it spans. Both passes of arb_conf_args read the
 * command line through this, so they agree on which words are values. */
typedef enum arg_kind { ARG_CONFIG, ARG_KEY, ARG_END, ARG_OTHER } arg_kind;

static arg_kind classify(const arb_conf_key *keys, int argc, char **argv, int i, const arb_conf_key **key,
                         const char **value, int *took)
{
    const char *a = argv[i];
    *took = 1;
    *value = NULL;
    *key = NULL;
    if (strcmp(a, "--") == 0)
        return ARG_END;
    if (strncmp(a, "--", 2) != 0)
        return ARG_OTHER;
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    bool is_config = len == 6 && strncmp(name, "config", 6) == 0;
    *key = is_config || !len ? NULL : find_key(keys, name, len);
    if (!is_config && !*key)
        return ARG_OTHER;
    if (eq) {
        *value = eq + 1;
    } else if (*key && (*key)->type == ARB_CONF_BOOL) {
        /* "--check" alone is true; a yes/no word after it is its value */
        bool b;
        char why[8];
        *value = "true";
        if (i + 1 < argc && parse_bool(*key, argv[i + 1], strlen(argv[i + 1]), &b, why, sizeof why) == 0) {
            *value = argv[i + 1];
            *took = 2;
        }
    } else if (i + 1 < argc) {
        *value = argv[i + 1];
        *took = 2;
    }
    return is_config ? ARG_CONFIG : ARG_KEY;
}

/* Leave argv[j] to the caller. */
static int keep(int *rest, int restcap, int *nr, char **argv, int j, char *err, size_t errlen)
{
    if (*nr >= restcap) {
        snprintf(err, errlen, "%s: more than %d arguments that are not options", argv[j], restcap);
        return ARB_ENOSPC;
    }
    rest[(*nr)++] = j;
    return 0;
}

int arb_conf_args(const arb_conf_key *keys, void *out, int argc, char **argv, int *rest, int restcap, int *nrest,
                  char *err, size_t errlen)
{
    int rc = 0, nr = 0, took;
    const char *config = NULL, *value;
    const arb_conf_key *k;
    char flag[160];
    void *snap;
    check_table(keys);
    if (errlen)
        err[0] = 0;
    *nrest = 0;
    snap = snapshot(keys, out);
    if (!snap) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    /* First the file, wherever --config stands, so that flags override it. */
    for (int i = 0; i < argc; i += took) {
        arg_kind kind = classify(keys, argc, argv, i, &k, &value, &took);
        if (kind == ARG_END)
            break;
        if (kind != ARG_CONFIG)
            continue;
        if (!value || !*value) {
            snprintf(err, errlen, "--config: expected a file name");
            rc = ARB_EINVAL;
            goto out;
        }
        if (config) {
            snprintf(err, errlen, "--config: given twice (%s, then %s)", config, value);
            rc = ARB_EINVAL;
            goto out;
        }
        config = value;
    }
    if (config) {
        rc = arb_conf_load(config, keys, out, err, errlen);
        if (rc)
            goto out;
    }
    for (int i = 0; i < argc; i += took) {
        arg_kind kind = classify(keys, argc, argv, i, &k, &value, &took);
        if (kind == ARG_CONFIG)
            continue;
        if (kind == ARG_KEY) {
            if (!value) {
                flag_name(flag, sizeof flag, k->name, strlen(k->name));
                snprintf(err, errlen, "%s: expected a value", flag);
                rc = ARB_EINVAL;
                goto out;
            }
            rc = arb_conf_set(keys, out, k->name, value, err, errlen);
            if (rc)
                goto out;
            continue;
        }
        if (kind == ARG_OTHER) {
            rc = keep(rest, restcap, &nr, argv, i, err, errlen);
            if (rc)
                goto out;
            continue;
        }
        /* "--" itself is consumed; what follows it is left unread */
        for (int j = i + 1; j < argc && rc == 0; j++)
            rc = keep(rest, restcap, &nr, argv, j, err, errlen);
        if (rc)
            goto out;
        break;
    }
    *nrest = nr;
out:
    if (rc)
        restore(keys, out, snap);
    free(snap);
    return rc;
}

/* ---- --help ---- */

static void placeholder(const arb_conf_key *k, char *dst, size_t cap)
{
    size_t n = 0;
    switch (k->type) {
    case ARB_CONF_INT: snprintf(dst, cap, "N"); return;
    case ARB_CONF_BOOL: snprintf(dst, cap, "[BOOL]"); return;
    case ARB_CONF_STR:
    case ARB_CONF_STRLIST: snprintf(dst, cap, "TEXT"); return;
    case ARB_CONF_ENUM:
        dst[0] = 0;
        for (int i = 0; k->choices[i] && n < cap; i++)
            n += (size_t)snprintf(dst + n, cap - n, "%s%s", i ? "|" : "", k->choices[i]);
        return;
    }
    snprintf(dst, cap, "X");
}

/* The current value of a key as --help shows it after "default ". */
static void current(const arb_conf_key *k, const void *out, char *dst, size_t cap)
{
    const unsigned char *field = (const unsigned char *)out + k->offset;
    int v;
    bool b;
    size_t n = 0;
    switch (k->type) {
    case ARB_CONF_STR:
        quote(dst, cap, (const char *)field, strnlen((const char *)field, k->size));
        return;
    case ARB_CONF_INT:
        memcpy(&v, field, sizeof v);
        snprintf(dst, cap, "%d", v);
        return;
    case ARB_CONF_BOOL:
        memcpy(&b, field, sizeof b);
        snprintf(dst, cap, "%s", b ? "true" : "false");
        return;
    case ARB_CONF_ENUM: {
        memcpy(&v, field, sizeof v);
        int nchoices = 0;
        while (k->choices[nchoices])
            nchoices++;
        snprintf(dst, cap, "%s", v >= 0 && v < nchoices ? k->choices[v] : "?");
        return;
    }
    case ARB_CONF_STRLIST: {
        const arb_conf_list *list = (const arb_conf_list *)(const void *)field;
        if (list->n <= 0)
            snprintf(dst, cap, "none");
        for (int i = 0; i < list->n && i < ARB_CONF_LIST_MAX && n + 8 < cap; i++) {
            if (i)
                n += (size_t)snprintf(dst + n, cap - n, ", ");
            quote(dst + n, cap - n, list->item[i], strnlen(list->item[i], sizeof list->item[i]));
            n += strlen(dst + n);
        }
        return;
    }
    }
    snprintf(dst, cap, "?");
}

void arb_conf_usage(FILE *f, const arb_conf_key *keys, const void *out)
{
    /* the help column starts after the longest "--name ARG", within reason */
    size_t width = strlen("--config FILE");
    char flag[160], ph[256], left[512], def[768];
    check_table(keys);
    for (const arb_conf_key *k = keys; k->name; k++) {
        flag_name(flag, sizeof flag, k->name, strlen(k->name));
        placeholder(k, ph, sizeof ph);
        size_t w = strlen(flag) + 1 + strlen(ph);
        if (w > width)
            width = w;
    }
    if (width > 32)
        width = 32;
    fprintf(f, "  %-*s  %s\n", (int)width, "--config FILE", "read the settings from this YAML file first");
    for (const arb_conf_key *k = keys; k->name; k++) {
        flag_name(flag, sizeof flag, k->name, strlen(k->name));
        placeholder(k, ph, sizeof ph);
        snprintf(left, sizeof left, "%s %s", flag, ph);
        current(k, out, def, sizeof def);
        fprintf(f, "  %-*s  %s (", (int)width, left, k->help ? k->help : "");
        if (k->type == ARB_CONF_INT)
            fprintf(f, "%lld..%lld; ", k->lo, k->hi);
        if (k->type == ARB_CONF_STRLIST)
            fprintf(f, "repeatable; ");
        fprintf(f, "default %s)\n", def);
    }
}
