/* config.c — the tournament YAML loader (config.h), on libyaml's document
 * API: the whole file is parsed into nodes that carry their positions, then
 * walked with a table of known keys. A first pass over libyaml's events
 * bounds the nesting before the document is built. */
#include "config.h"
#include "rating.h"
#include "bundle.h"
#include "plan.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_names.h"

#include <ctype.h>
#include <sodium.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <yaml.h>

typedef struct loader {
    const char *path;
    yaml_document_t doc;
    tn_config *cfg;
    void *rules;
    const char *root_label;   /* how errors name cfg->files_root */
    char base[PATH_MAX];      /* the file's directory, resolved */
    char *err;
    size_t errlen;
    int rc;
    const yaml_node_t *startup_max;   /* clock.startup_ms_max's value, where given */
    bool submitted;           /* the text came over the API: it may name no file of this host */
} loader;

static int at(loader *L, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int at(loader *L, const yaml_node_t *n, const char *fmt, ...)
{
    if (L->rc)
        return L->rc;
    int k = snprintf(L->err, L->errlen, "%s:%zu:%zu: ", L->path, n ? n->start_mark.line + 1 : 1,
                     n ? n->start_mark.column + 1 : 1);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && (size_t)k < L->errlen)
        vsnprintf(L->err + k, L->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return L->rc = ARB_EINVAL;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *node_kind(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a value";
}

static int unknown(loader *L, const yaml_node_t *n, const char *what, const char *word, const char *const *names)
{
    const char *s = arb_suggest(word, names, 3);
    if (s)
        return at(L, n, "unknown %s \"%s\" (did you mean \"%s\"?)", what, word, s);
    char list[512] = "";
    size_t k = 0;
    for (int i = 0; names[i] && k < sizeof list; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", names[i]);
    return at(L, n, "unknown %s \"%s\" (expected one of: %s)", what, word, list);
}

static int get_int(loader *L, const yaml_node_t *n, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const char *s = scalar(n);
    if (!s)
        return at(L, n, "%s: expected a number, found %s", key, node_kind(n));
    /* strtoll alone would take " 12", "+12" and "12abc"'s prefix */
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!(isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))) || *end)
        return at(L, n, "%s: expected a whole number from %" PRId64 " to %" PRId64 ", found \"%s\"", key, lo, hi, s);
    if (errno == ERANGE || v < lo || v > hi)
        return at(L, n, "%s: %s is out of range (%" PRId64 "..%" PRId64 ")", key, s, lo, hi);
    *out = v;
    return 0;
}

static int get_u64(loader *L, const yaml_node_t *n, const char *key, uint64_t *out)
{
    const char *s = scalar(n);
    if (!s)
        return at(L, n, "%s: expected a number, found %s", key, node_kind(n));
    /* decimal, or hexadecimal after 0x; a leading 0 is not octal */
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(digits, &end, hex ? 16 : 10);
    if (!isxdigit((unsigned char)digits[0]) || errno || *end)
        return at(L, n, "%s: expected a number from 0 to 18446744073709551615, found \"%s\"", key, s);
    *out = v;
    return 0;
}

static int get_str(loader *L, const yaml_node_t *n, const char *key, char *out, size_t cap)
{
    const char *s = scalar(n);
    if (!s)
        return at(L, n, "%s: expected text, found %s", key, node_kind(n));
    if (strlen(s) >= cap)
        return at(L, n, "%s: longer than %zu characters", key, cap - 1);
    if (!*s)
        return at(L, n, "%s: must not be empty", key);
    for (const char *c = s; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return at(L, n, "%s: control character 0x%02x at offset %zu (expected printable text)", key,
                      (unsigned)(unsigned char)*c, (size_t)(c - s));
    snprintf(out, cap, "%s", s);
    return 0;
}

/* Walk a mapping: for each key, call fn (which reports unknown keys). Keys
 * must be scalars and appear once. */
typedef int (*key_fn)(loader *L, const yaml_node_t *key, const char *k, yaml_node_t *val, void *ctx);

static int each_key(loader *L, yaml_node_t *map, const char *what, key_fn fn, void *ctx)
{
    if (map->type != YAML_MAPPING_NODE)
        return at(L, map, "%s: expected a mapping of key: value, found %s", what, node_kind(map));
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top && !L->rc; p++) {
        yaml_node_t *k = yaml_document_get_node(&L->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&L->doc, p->value);
        const char *key = scalar(k);
        if (!key)
            return at(L, k, "%s: a key must be a plain word, found %s", what, node_kind(k));
        for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
            const char *other = scalar(yaml_document_get_node(&L->doc, q->key));
            if (other && strcmp(other, key) == 0)
                return at(L, k, "%s: \"%s\" is given twice", what, key);
        }
        fn(L, k, key, v, ctx);
    }
    return L->rc;
}

static const char *const clock_keys[] = {"move_ms", "deal_ms", "bank_ms", "startup_ms", "startup_ms_max", NULL};

static int clock_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctx)
{
    tn_config *c = L->cfg;
    (void)ctx;
    if (strcmp(k, "move_ms") == 0) return get_int(L, v, "clock.move_ms", 1, 3600000, &c->match.move_ms);
    if (strcmp(k, "deal_ms") == 0) return get_int(L, v, "clock.deal_ms", -1, 86400000, &c->match.deal_ms);
    if (strcmp(k, "bank_ms") == 0) return get_int(L, v, "clock.bank_ms", 0, 86400000, &c->match.bank_ms);
    if (strcmp(k, "startup_ms") == 0)
        return get_int(L, v, "clock.startup_ms", 1, ARB_MAX_STARTUP_MS, &c->match.startup_ms);
    if (strcmp(k, "startup_ms_max") == 0) {
        L->startup_max = v;
        return get_int(L, v, "clock.startup_ms_max", 1, ARB_MAX_STARTUP_MS, &c->startup_ms_max);
    }
    return unknown(L, kn, "clock key", k, clock_keys);
}

static const char *const policy_keys[] = {"on_fault", "strikes", "forfeit_points", NULL};

static int policy_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctx)
{
    tn_config *c = L->cfg;
    int64_t x;
    (void)ctx;
    if (strcmp(k, "on_fault") == 0) {
        const char *s = scalar(v);
        match_policy p;
        static const char *const names[] = {"autoplay", "forfeit-deal", "forfeit-match", NULL};
        if (!s)
            return at(L, v, "policy.on_fault: expected autoplay, forfeit-deal or forfeit-match, found %s", node_kind(v));
        if (match_policy_parse(s, &p))
            return unknown(L, v, "policy", s, names);
        c->match.policy = (uint8_t)p;
        return 0;
    }
    if (strcmp(k, "strikes") == 0) {
        if (!get_int(L, v, "policy.strikes", 0, 1000000, &x))
            c->match.strikes = (uint32_t)x;
        return L->rc;
    }
    if (strcmp(k, "forfeit_points") == 0) return get_int(L, v, "policy.forfeit_points", 0, 1000000000, &c->match.forfeit_points);
    return unknown(L, kn, "policy key", k, policy_keys);
}

static int option_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctx)
{
    (void)kn; (void)ctx;
    const char *s = scalar(v);
    if (!s)
        return at(L, v, "options.%s: expected a value, found %s", k, node_kind(v));
    char why[256];
    if (L->cfg->match.game->rules_set(L->rules, k, s, why, sizeof why) != 0)
        return at(L, v, "options: %s", why);
    size_t len = strlen(L->cfg->match.options);
    if (len + strlen(k) + strlen(s) + 3 > sizeof L->cfg->match.options)
        return at(L, v, "options: too many");
    snprintf(L->cfg->match.options + len, sizeof L->cfg->match.options - len, "%s=%s\n", k, s);
    return 0;
}

static const char *const entrant_keys[] = {"name", "command", "files", "seed", "rating", "team", "members",
                                           "startup_ms", "env", NULL};
static const char *const member_keys[] = {"name", "command", "files", "startup_ms", "env", NULL};

/* startup_ms: the bot's start-up budget, within the tournament's
 * (clock.startup_ms_max, else clock.startup_ms): the clock is read before
 * the entrants (top_key). */
static int entrant_startup(loader *L, yaml_node_t *v, tn_entrant *e)
{
    int64_t max = tn_startup_max(L->cfg);
    if (get_int(L, v, "startup_ms", 1, ARB_MAX_STARTUP_MS, &e->startup_ms))
        return L->rc;
    if (e->startup_ms > max)
        return at(L, v, "startup_ms: %" PRId64 " is over this tournament's limit, %" PRId64 " ms (%s)", e->startup_ms,
                  max, L->cfg->startup_ms_max ? "clock.startup_ms_max" : "clock.startup_ms; an organiser allows more "
                  "with clock.startup_ms_max");
    return 0;
}

/* env: a mapping of NAME: value, each checked (match_env_check: the
 * names a bot may set, printable values, bounded) where it is written. */
static int entrant_env(loader *L, yaml_node_t *v, tn_entrant *e)
{
    if (v->type != YAML_MAPPING_NODE)
        return at(L, v, "env: expected a mapping of NAME: value, found %s", node_kind(v));
    match_bot_cfg *b = calloc(1, sizeof *b);
    if (!b)
        return L->rc = ARB_ENOMEM;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !L->rc; p++) {
        yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key), *vn = yaml_document_get_node(&L->doc, p->value);
        const char *name = scalar(kn), *value = scalar(vn);
        char entry[ARB_MAX_BOT_ENV_TEXT + 8], why[256];
        if (!name || !value) {
            at(L, name ? vn : kn, "env: expected NAME: value, found %s", node_kind(name ? vn : kn));
            break;
        }
        int w = snprintf(entry, sizeof entry, "%s=%s", name, value);
        if (w < 0 || (size_t)w >= sizeof entry) {
            at(L, vn, "env: %s: longer than %d bytes (ARB_MAX_BOT_ENV_TEXT)", name, ARB_MAX_BOT_ENV_TEXT);
            break;
        }
        if (match_env_add(b, entry, why, sizeof why) != 0)
            at(L, kn, "env: %s", why);
    }
    if (!L->rc)
        snprintf(e->env, sizeof e->env, "%s", b->env);
    free(b);
    return L->rc;
}

/* files: one path, or a list of them; each without spaces (they are
 * joined with spaces, like the command). */
static int entrant_files(loader *L, yaml_node_t *v, tn_entrant *e)
{
    bool list = v->type == YAML_SEQUENCE_NODE;
    size_t n = list ? (size_t)(v->data.sequence.items.top - v->data.sequence.items.start) : 1, len = 0;
    if (L->submitted)
        return at(L, v, "files: a tournament submitted over the API names no file of the host (its entrants run "
                  "programs in PATH; participants' programs come by registration)");
    if (n == 0)
        return at(L, v, "files: expected one or more paths, found an empty list");
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *node = list ? yaml_document_get_node(&L->doc, v->data.sequence.items.start[i]) : v;
        char path[ARB_TN_MAX_COMMAND];
        if (get_str(L, node, "files", path, sizeof path))
            return L->rc;
        if (strpbrk(path, " \t"))
            return at(L, node, "files: \"%s\": a path without spaces", path);
        /* Inside the tournament's tree, by the letter and (when it exists)
         * where it really is; one that does not exist yet is left to
         * `check --programs` and to the scheduler, which checks again
         * just before it packs the bundle. */
        char resolved[PATH_MAX], why[PATH_MAX + 64];
        if (bundle_confine(L->cfg->files_root, L->base, path, resolved, sizeof resolved, why, sizeof why) == ARB_EINVAL)
            return at(L, node, "files: \"%s\" %s: an entrant's files lie inside %s", path, why, L->root_label);
        if (len + strlen(path) + 2 > sizeof e->files)
            return at(L, node, "files: longer than %zu characters in all", sizeof e->files - 1);
        len += (size_t)snprintf(e->files + len, sizeof e->files - len, "%s%s", len ? " " : "", path);
    }
    return 0;
}

/* One entry of `entrants:` as read: a bot (command, files), or a team of
 * a partnership game (members:), with what both may carry. */
typedef struct entry {
    tn_entrant e;                 /* a bot's fields; a team's name, seed, rating */
    yaml_node_t *members;         /* the list, when a team */
    const yaml_node_t *command, *files, *team;   /* where they were written */
    const yaml_node_t *bot_only;  /* startup_ms: or env:, where written (a team has neither) */
} entry;

static int member_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctx)
{
    tn_entrant *e = ctx;
    if (strcmp(k, "name") == 0) {
        if (get_str(L, v, "name", e->name, sizeof e->name))
            return L->rc;
        return arb_valid_name(e->name) ? 0 : at(L, v, "name \"%s\": 1..%d characters of A-Z a-z 0-9 _ . -", e->name,
                                            ARB_MAX_BOT_NAME);
    }
    if (strcmp(k, "command") == 0) {
        if (get_str(L, v, "command", e->command, sizeof e->command))
            return L->rc;
        /* the command is split on spaces: spaces alone name no program */
        const char *prog = e->command + strspn(e->command, " ");
        if (!*prog)
            return at(L, v, "command: blank (expected a program and its arguments)");
        if (L->submitted && memchr(prog, '/', strcspn(prog, " ")))
            return at(L, v, "command: \"%.*s\": a tournament submitted over the API names no file of the host (a "
                      "program in PATH; participants' programs come by registration)", (int)strcspn(prog, " "), prog);
        if (L->submitted && strchr(prog, '/'))   /* an argument naming a path: a file of the host */
            return at(L, v, "command: \"%.100s\": a tournament submitted over the API names no file of the host (an "
                      "argument with a /; participants' programs come by registration)", prog);
        return 0;
    }
    if (strcmp(k, "files") == 0) return entrant_files(L, v, e);
    if (strcmp(k, "startup_ms") == 0) return entrant_startup(L, v, e);
    if (strcmp(k, "env") == 0) return entrant_env(L, v, e);
    return unknown(L, kn, "member key", k, member_keys);
}

static int entrant_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctx)
{
    entry *en = ctx;
    tn_entrant *e = &en->e;
    int64_t x;
    if (strcmp(k, "name") == 0 || strcmp(k, "command") == 0 || strcmp(k, "files") == 0
        || strcmp(k, "startup_ms") == 0 || strcmp(k, "env") == 0) {
        if (k[0] == 'c')
            en->command = kn;
        if (k[0] == 'f')
            en->files = kn;
        if (k[0] == 's' || k[0] == 'e')
            en->bot_only = kn;
        return member_key(L, kn, k, v, e);
    }
    if (strcmp(k, "seed") == 0) {
        if (!get_int(L, v, "seed", 1, ARB_TN_MAX_ENTRANTS, &x))
            e->seed = (uint32_t)x;
        return L->rc;
    }
    if (strcmp(k, "rating") == 0) {
        const char *s = scalar(v);
        if (!s)
            return at(L, v, "rating: expected a number from 0 to 10000, found %s", node_kind(v));
        char *end;
        double r = strtod(s, &end);
        /* written as !(in range) so that NaN is refused too */
        if (!(isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '.') || *end || !(r >= 0 && r <= 10000))
            return at(L, v, "rating: expected a number from 0 to 10000, found \"%s\"", s);
        e->rating = r;
        return 0;
    }
    if (strcmp(k, "team") == 0) {
        en->team = kn;
        if (get_str(L, v, "team", e->team, sizeof e->team))
            return L->rc;
        return arb_valid_name(e->team) ? 0 : at(L, v, "team \"%s\": 1..%d characters of A-Z a-z 0-9 _ . -", e->team,
                                            ARB_MAX_BOT_NAME);
    }
    if (strcmp(k, "members") == 0) {
        if (v->type != YAML_SEQUENCE_NODE)
            return at(L, v, "members: expected a list of the team's members (each a command, or name: and "
                            "command:), found %s", node_kind(v));
        en->members = v;
        return 0;
    }
    return unknown(L, kn, "entrant key", k, entrant_keys);
}

/* The bots of the file so far: a new one, its name checked against all
 * before it. */
static tn_entrant *add_bot(loader *L, const yaml_node_t *where, const tn_entrant *b)
{
    tn_config *c = L->cfg;
    for (int j = 0; j < c->nentrants; j++)
        if (strcmp(c->entrants[j].name, b->name) == 0) {
            at(L, where, "entrant %s: the name is taken by the entrant at line %d", b->name, c->entrants[j].line);
            return NULL;
        }
    if (c->nentrants >= ARB_TN_MAX_ENTRANTS) {
        at(L, where, "entrants: more than %d bots", ARB_TN_MAX_ENTRANTS);
        return NULL;
    }
    c->entrants[c->nentrants] = *b;
    return &c->entrants[c->nentrants++];
}

/* A team entry's members: each a command (the same program twice is
 * written twice), or a mapping of name, command, files. A member without
 * a name is TEAM-1, TEAM-2 ... in order. */
static int members(loader *L, const yaml_node_t *item, entry *en)
{
    tn_config *c = L->cfg;
    if (en->command || en->files || en->team || en->bot_only)
        return at(L, en->command ? en->command : en->files ? en->files : en->team ? en->team : en->bot_only,
                  "entrant %s: a team (members:) names no %s of its own: its members have them", en->e.name,
                  en->command ? "command" : en->files ? "files" : en->team ? "team" : scalar(en->bot_only));
    size_t n = (size_t)(en->members->data.sequence.items.top - en->members->data.sequence.items.start);
    if (n == 0 || n > ARB_MAX_SEATS)
        return at(L, en->members, "team %s: %zu members (a team fills one side of a table: 1..%d)", en->e.name, n,
                  ARB_MAX_SEATS);
    if (c->nteams >= ARB_TN_MAX_ENTRANTS)
        return at(L, item, "entrants: more than %d teams", ARB_TN_MAX_ENTRANTS);
    tn_team *t = &c->teams[c->nteams];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", en->e.name);
    t->seed = en->e.seed;
    t->rating = en->e.rating;
    t->line = en->e.line;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *mn = yaml_document_get_node(&L->doc, en->members->data.sequence.items.start[i]);
        tn_entrant b = {.line = (int)mn->start_mark.line + 1};
        if (mn->type == YAML_SCALAR_NODE) {
            if (member_key(L, mn, "command", mn, &b))
                return L->rc;
        } else if (mn->type != YAML_MAPPING_NODE) {
            return at(L, mn, "team %s: a member is a command, or a mapping of name:, command:, files:; found %s",
                      en->e.name, node_kind(mn));
        } else if (each_key(L, mn, "member", member_key, &b)) {
            return L->rc;
        }
        if (!b.command[0])
            return at(L, mn, "team %s: member %zu has no command", en->e.name, i + 1);
        if (!b.name[0]) {
            int w = snprintf(b.name, sizeof b.name, "%s-%zu", en->e.name, i + 1);
            if (w < 0 || (size_t)w >= sizeof b.name)
                return at(L, mn, "team %s: its member's name %s-%zu is longer than %d characters; name it (name: ...)",
                          en->e.name, en->e.name, i + 1, ARB_MAX_BOT_NAME);
        }
        snprintf(b.team, sizeof b.team, "%s", en->e.name);
        tn_entrant *m = add_bot(L, mn, &b);
        if (!m)
            return L->rc;
        t->member[t->nmembers++] = c->nentrants - 1;
    }
    c->nteams++;
    return 0;
}

static int entrants(loader *L, yaml_node_t *seq)
{
    tn_config *c = L->cfg;
    if (seq->type != YAML_SEQUENCE_NODE)
        return at(L, seq, "entrants: expected a list of entrants (- name: ..., command: ...)");
    size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    if (n > ARB_TN_MAX_ENTRANTS)
        return at(L, seq, "entrants: %zu entrants, at most %d", n, ARB_TN_MAX_ENTRANTS);
    /* a team brings up to ARB_MAX_SEATS bots; the bots stay within ARB_TN_MAX_ENTRANTS (add_bot) */
    size_t cap = n * ARB_MAX_SEATS < ARB_TN_MAX_ENTRANTS ? n * ARB_MAX_SEATS : ARB_TN_MAX_ENTRANTS;
    c->entrants = calloc(cap ? cap : 1, sizeof *c->entrants);
    c->teams = calloc(n ? n : 1, sizeof *c->teams);
    if (!c->entrants || !c->teams)
        return L->rc = ARB_ENOMEM;
    /* seeds of the entries (bots or teams), for uniqueness */
    uint32_t *seed = calloc(n ? n : 1, sizeof *seed);
    const char **seed_of = calloc(n ? n : 1, sizeof *seed_of);
    if (!seed || !seed_of) {
        free(seed);
        free(seed_of);
        return L->rc = ARB_ENOMEM;
    }
    for (size_t i = 0; i < n && !L->rc; i++) {
        yaml_node_t *item = yaml_document_get_node(&L->doc, seq->data.sequence.items.start[i]);
        entry en = {.e.line = (int)item->start_mark.line + 1};
        if (item->type == YAML_SCALAR_NODE) {
            at(L, item, "entrant: expected a mapping (name: ..., command: ...), found \"%s\"", scalar(item));
            break;
        }
        if (each_key(L, item, "entrant", entrant_key, &en))
            break;
        if (!en.e.name[0]) {
            at(L, item, "entrant: a name is required");
            break;
        }
        for (size_t j = 0; j < i && en.e.seed; j++)
            if (seed[j] == en.e.seed) {
                at(L, item, "entrant %s: seed %u is taken by %s", en.e.name, en.e.seed, seed_of[j]);
                break;
            }
        if (L->rc)
            break;
        if (en.members) {
            for (int j = 0; j < c->nteams; j++)
                if (strcmp(c->teams[j].name, en.e.name) == 0) {
                    at(L, item, "team %s: the name is taken by the team at line %d", en.e.name, c->teams[j].line);
                    break;
                }
            if (L->rc || members(L, item, &en))
                break;
            seed_of[i] = c->teams[c->nteams - 1].name;
        } else {
            if (!en.e.command[0]) {
                at(L, item, "entrant %s: a command is required", en.e.name);
                break;
            }
            tn_entrant *b = add_bot(L, item, &en.e);
            if (!b)
                break;
            seed_of[i] = b->name;
        }
        seed[i] = en.e.seed;
    }
    free(seed);
    free(seed_of);
    return L->rc;
}

/* The value of `key` in an entrant's mapping, or NULL. */
static const yaml_node_t *entrant_value(loader *L, const yaml_node_t *item, const char *key)
{
    for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
        const char *k = scalar(yaml_document_get_node(&L->doc, p->key));
        if (k && strcmp(k, key) == 0)
            return yaml_document_get_node(&L->doc, p->value);
    }
    return NULL;
}

/* The entry of entrants: that declared a bot (by its line). */
static const yaml_node_t *entry_at(loader *L, yaml_node_t *seq, int line)
{
    const yaml_node_t *found = NULL;
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
        const yaml_node_t *item = yaml_document_get_node(&L->doc, *it);
        if ((int)item->start_mark.line + 1 <= line)
            found = item;
    }
    return found;
}

/* Partners of a game of fixed teams (the built rules say how many, and k
 * seats make sides of k / nteams). A team is an entry with members:, or
 * the entrants naming one team:. Once any team is named, every entrant is
 * in one and every team fills exactly one side: the formats pair teams and
 * seat partners on one side, and a team of another size could only be
 * split or left short. Without fixed teams, members: is refused and team:
 * only recorded; with no team at all, entrants sit on any side, as the
 * format pairs them. */
static int teams(loader *L, yaml_node_t *seq, int k)
{
    tn_config *c = L->cfg;
    int8_t team_of_seat[ARB_MAX_SEATS];
    int nteams = c->match.game->teams(L->rules, team_of_seat);
    bool any = false;
    for (int i = 0; i < c->nentrants; i++)
        any |= c->entrants[i].team[0] != 0;
    if (nteams <= 0 && c->nteams > 0)
        return at(L, entrant_value(L, entry_at(L, seq, c->teams[0].line), "members"), "team %s: %s has no fixed "
                  "teams, so an entrant is one bot (name:, command:), not members:", c->teams[0].name,
                  c->match.game->name);
    if (nteams <= 0 || !any) {
        c->nteams = 0;
        return 0;
    }
    int side = k / nteams, declared = c->nteams;
    /* teams gathered from team: (in order of first appearance), beside those declared with members: */
    for (int i = 0; i < c->nentrants; i++) {
        const tn_entrant *e = &c->entrants[i];
        const yaml_node_t *item = entry_at(L, seq, e->line);
        if (!e->team[0])
            return at(L, item, "entrant %s: no team, and %s's teams are fixed: once one entrant names a team, "
                      "every entrant names one (team: NAME, or a team of members:)", e->name, c->match.game->name);
        bool member = false;
        for (int t = 0; t < declared && !member; t++)
            for (int m = 0; m < c->teams[t].nmembers; m++)
                member |= c->teams[t].member[m] == i;
        if (member)
            continue;   /* a member of a team of members: */
        int t = 0;
        while (t < c->nteams && strcmp(c->teams[t].name, e->team) != 0)
            t++;
        tn_team *team = &c->teams[t];
        if (t < declared)
            return at(L, entrant_value(L, item, "team"), "entrant %s: team %s is declared with members: at line %d; "
                      "list the member there", e->name, e->team, team->line);
        if (t == c->nteams) {
            if (c->nteams >= ARB_TN_MAX_ENTRANTS)
                return at(L, item, "entrants: more than %d teams", ARB_TN_MAX_ENTRANTS);
            team = &c->teams[c->nteams++];
            memset(team, 0, sizeof *team);
            snprintf(team->name, sizeof team->name, "%s", e->team);
            team->line = e->line;
        } else if (team->nmembers >= ARB_MAX_SEATS) {
            return at(L, entrant_value(L, item, "team"), "team %s: more than %d members", e->team, ARB_MAX_SEATS);
        }
        team->member[team->nmembers++] = i;
        if (e->seed && (!team->seed || e->seed < team->seed))
            team->seed = e->seed;   /* a team gathered from team: is seeded by its best-seeded member */
    }
    for (int t = 0; t < c->nteams; t++) {
        const tn_team *team = &c->teams[t];
        if (team->nmembers == side)
            continue;
        const yaml_node_t *item = entry_at(L, seq, team->line);
        const yaml_node_t *where = entrant_value(L, item, "members");
        return at(L, where ? where : entrant_value(L, item, "team"), "team %s: %d member%s, and a %s side has %d "
                  "seats: a team needs exactly %d", team->name, team->nmembers, team->nmembers == 1 ? "" : "s",
                  c->match.game->name, side, side);
    }
    /* the teams in the order the file lists them (by their first members) */
    for (int i = 1; i < c->nteams; i++)
        for (int j = i; j > 0 && c->teams[j].member[0] < c->teams[j - 1].member[0]; j--) {
            tn_team x = c->teams[j];
            c->teams[j] = c->teams[j - 1];
            c->teams[j - 1] = x;
        }
    c->sides = nteams;
    return 0;
}

static const char *const top_keys[] = {"name", "game", "rules", "options", "format", "cycles", "rounds", "advance",
                                       "groups", "gauntlet", "deals", "duplicate", "clock", "policy", "seed",
                                       "files_root", "entrants", "rating", "rating_model", "ladder", "registration",
                                       "visibility", NULL};

typedef struct top_ctx {
    yaml_node_t *options, *entrants, *game, *rules, *gauntlet, *format, *advance, *groups, *deals, *files_root;
    yaml_node_t *rounds;
    const yaml_node_t *duplicate;   /* the key, where a refusal of the mode points */
    const yaml_node_t *rating_model, *rating, *ladder, *validation;
    const yaml_node_t *registration, *reg_until, *reg_max;
} top_ctx;

static const char *const ladder_keys[] = {"provisional", "rate", "concurrent", "max_in_flight", "new_boost",
                                          "inactive_days", "matches", "validation", NULL};

/* A positive number (rate, new_boost): 0 .. hi. */
static int get_num(loader *L, const yaml_node_t *n, const char *key, double lo, double hi, double *out)
{
    const char *s = scalar(n);
    char *end;
    if (!s)
        return at(L, n, "%s: expected a number, found %s", key, node_kind(n));
    errno = 0;
    double v = strtod(s, &end);
    if (!(isdigit((unsigned char)s[0])) || *end || errno || !(v >= lo && v <= hi))
        return at(L, n, "%s: expected a number from %g to %g, found \"%s\"", key, lo, hi, s);
    *out = v;
    return 0;
}

static int ladder_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctxp)
{
    tn_ladder *d = &L->cfg->ladder;
    top_ctx *t = ctxp;
    int64_t x;
    if (strcmp(k, "provisional") == 0) { if (!get_int(L, v, "ladder.provisional", 0, 100000, &x)) d->provisional = (uint32_t)x; return L->rc; }
    if (strcmp(k, "concurrent") == 0) { if (!get_int(L, v, "ladder.concurrent", 1, ARB_LADDER_MAX_CONCURRENT, &x)) d->concurrent = (uint32_t)x; return L->rc; }
    if (strcmp(k, "max_in_flight") == 0) { if (!get_int(L, v, "ladder.max_in_flight", 1, 64, &x)) d->max_in_flight = (uint32_t)x; return L->rc; }
    if (strcmp(k, "inactive_days") == 0) { if (!get_int(L, v, "ladder.inactive_days", 1, 36500, &x)) d->inactive_days = (uint32_t)x; return L->rc; }
    if (strcmp(k, "matches") == 0) { if (!get_int(L, v, "ladder.matches", 0, INT32_MAX, &x)) d->matches = (uint64_t)x; return L->rc; }
    if (strcmp(k, "rate") == 0) return get_num(L, v, "ladder.rate", 0, 1e6, &d->rate);
    if (strcmp(k, "new_boost") == 0) return get_num(L, v, "ladder.new_boost", 1, 100, &d->new_boost);
    if (strcmp(k, "validation") == 0) {
        t->validation = v;
        return get_str(L, v, "ladder.validation", d->validation, sizeof d->validation);
    }
    return unknown(L, kn, "ladder key", k, ladder_keys);
}

static const char *const visibility_keys[] = {"stderr", NULL};

static int visibility_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctxp)
{
    (void)ctxp;
    if (strcmp(k, "stderr") == 0) {
        static const char *const names[] = {"private", "public", NULL};
        const char *s = scalar(v);
        if (!s)
            return at(L, v, "visibility.stderr: expected private or public, found %s", node_kind(v));
        if (strcmp(s, "private") == 0)
            L->cfg->stderr_visibility = TN_VIS_PRIVATE;
        else if (strcmp(s, "public") == 0)
            L->cfg->stderr_visibility = TN_VIS_PUBLIC;
        else
            return unknown(L, v, "visibility.stderr", s, names);
        return 0;
    }
    return unknown(L, kn, "visibility key", k, visibility_keys);
}

static const char *const registration_keys[] = {"until", "per_account", "max_entrants", "validation", NULL};

/* An instant as ISO 8601 in UTC, to the second: 2026-12-01T18:00:00Z.
 * Only this form: a deadline read in the host's zone would move with it. */
static int get_utc(loader *L, const yaml_node_t *n, const char *key, int64_t *out)
{
    const char *s = scalar(n);
    struct tm tm = {0};
    int used = 0;
    if (!s)
        return at(L, n, "%s: expected an instant in UTC (2026-12-01T18:00:00Z), found %s", key, node_kind(n));
    if (strlen(s) != 20
        || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &used) != 6 || used != 20 || !isdigit((unsigned char)s[0]))
        return at(L, n, "%s: expected an instant in UTC (2026-12-01T18:00:00Z), found \"%s\"", key, s);
    int year = tm.tm_year, mon = tm.tm_mon, mday = tm.tm_mday;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    time_t t = timegm(&tm);
    /* timegm normalises 02-30 into March: a date that moved was not a date */
    if (year < 2000 || t == (time_t)-1 || tm.tm_year != year - 1900 || tm.tm_mon != mon - 1 || tm.tm_mday != mday
        || tm.tm_hour > 23 || tm.tm_sec > 59)
        return at(L, n, "%s: \"%s\" is not a date and time (UTC, from the year 2000)", key, s);
    *out = (int64_t)t;
    return 0;
}

static int registration_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctxp)
{
    tn_registration *r = &L->cfg->registration;
    top_ctx *t = ctxp;
    int64_t x;
    if (strcmp(k, "until") == 0) {
        t->reg_until = v;
        return get_utc(L, v, "registration.until", &r->until);
    }
    if (strcmp(k, "per_account") == 0) {
        if (!get_int(L, v, "registration.per_account", 1, ARB_REG_MAX_PER_ACCOUNT, &x))
            r->per_account = (uint32_t)x;
        return L->rc;
    }
    if (strcmp(k, "max_entrants") == 0) {
        t->reg_max = v;
        if (!get_int(L, v, "registration.max_entrants", 1, ARB_TN_MAX_ENTRANTS, &x))
            r->max_entrants = (uint32_t)x;
        return L->rc;
    }
    if (strcmp(k, "validation") == 0) {
        static const char *const names[] = {"check", "none", NULL};
        const char *s = scalar(v);
        if (s && strcmp(s, "check") == 0)
            r->validation = TN_REG_CHECK;
        else if (s && strcmp(s, "none") == 0)
            r->validation = TN_REG_NONE;
        else if (s && strcmp(s, "self") == 0)
            return at(L, v, "registration.validation: self (a validation match before the deadline) is not done for "
                      "tournaments yet; check (the default: the bundle and the command's program checked at "
                      "registration) or none");
        else
            return s ? unknown(L, v, "registration.validation", s, names)
                     : at(L, v, "registration.validation: expected check or none, found %s", node_kind(v));
        return 0;
    }
    return unknown(L, kn, "registration key", k, registration_keys);
}

static int top_key(loader *L, const yaml_node_t *kn, const char *k, yaml_node_t *v, void *ctxp)
{
    tn_config *c = L->cfg;
    top_ctx *t = ctxp;
    int64_t x;
    if (strcmp(k, "name") == 0) return get_str(L, v, "name", c->name, sizeof c->name);
    if (strcmp(k, "game") == 0) { t->game = v; return 0; }
    if (strcmp(k, "rules") == 0) { t->rules = v; return 0; }
    if (strcmp(k, "options") == 0) { t->options = v; return 0; }
    if (strcmp(k, "entrants") == 0) { t->entrants = v; return 0; }
    if (strcmp(k, "files_root") == 0) {
        t->files_root = v;
        return L->submitted ? at(L, kn, "files_root: a tournament submitted over the API names no directory of "
                                 "the host") : 0;
    }
    if (strcmp(k, "gauntlet") == 0) {
        t->gauntlet = v;
        return get_str(L, v, "gauntlet", c->gauntlet, sizeof c->gauntlet);
    }
    if (strcmp(k, "format") == 0) {
        t->format = v;
        static const char *const names[] = {"round-robin", "gauntlet", "single-elimination", "double-elimination",
                                            "swiss", "groups-knockout", "ladder", NULL};
        const char *s = scalar(v);
        tn_format f;
        if (!s)
            return at(L, v, "format: expected one of round-robin, gauntlet, single-elimination, "
                            "double-elimination, swiss, groups-knockout, ladder, found %s", node_kind(v));
        if (tn_format_parse(s, &f))
            return unknown(L, v, "format", s, names);
        c->format = (uint8_t)f;
        return 0;
    }
    if (strcmp(k, "cycles") == 0) { if (!get_int(L, v, "cycles", 1, 1000, &x)) c->cycles = (uint32_t)x; return L->rc; }
    if (strcmp(k, "rounds") == 0) { t->rounds = v; if (!get_int(L, v, "rounds", 1, 1000, &x)) c->rounds = (uint32_t)x; return L->rc; }
    if (strcmp(k, "advance") == 0) { t->advance = v; if (!get_int(L, v, "advance", 1, 3, &x)) c->advance = (uint32_t)x; return L->rc; }
    if (strcmp(k, "groups") == 0) { t->groups = v; if (!get_int(L, v, "groups", 1, 1024, &x)) c->groups = (uint32_t)x; return L->rc; }
    if (strcmp(k, "deals") == 0) { t->deals = v; if (!get_int(L, v, "deals", 1, ARB_MAX_DEALS, &x)) c->match.deals = (uint32_t)x; return L->rc; }
    if (strcmp(k, "seed") == 0) return get_u64(L, v, "seed", &c->seed);
    if (strcmp(k, "duplicate") == 0) {
        static const char *const names[] = {"off", "rotate", "all", "swap", NULL};
        const char *s = scalar(v);
        match_duplicate d;
        if (!s)
            return at(L, v, "duplicate: expected " MATCH_DUPLICATE_NAMES ", found %s", node_kind(v));
        if (match_duplicate_parse(s, &d))
            return unknown(L, v, "duplicate mode", s, names);
        c->match.duplicate = (uint8_t)d;
        t->duplicate = kn;
        return 0;
    }
    if (strcmp(k, "ladder") == 0) {
        t->ladder = v;
        return each_key(L, v, "ladder", ladder_key, t);
    }
    if (strcmp(k, "visibility") == 0)
        return each_key(L, v, "visibility", visibility_key, NULL);
    if (strcmp(k, "registration") == 0) {
        t->registration = v;
        c->registration.open = true;
        return each_key(L, v, "registration", registration_key, t);
    }
    if (strcmp(k, "rating") == 0) {
        t->rating = v;
        static const char *const names[] = {"none", "openskill", "glicko2", "elo", NULL};
        const char *s = scalar(v);
        tn_rating r;
        if (!s)
            return at(L, v, "rating: expected none, openskill, glicko2 or elo, found %s", node_kind(v));
        if (tn_rating_parse(s, &r))
            return unknown(L, v, "rating system", s, names);
        c->rating = (uint8_t)r;
        return 0;
    }
    if (strcmp(k, "rating_model") == 0) {
        t->rating_model = v;
        const char *s = scalar(v);
        wl_model m;
        if (!s)
            return at(L, v, "rating_model: expected plackett-luce, bradley-terry or thurstone-mosteller, found %s",
                      node_kind(v));
        if (wl_model_parse(s, &m)) {
            static const char *const names[] = {"plackett-luce", "bradley-terry", "thurstone-mosteller", NULL};
            return unknown(L, v, "rating model", s, names);
        }
        c->rating_model = (uint8_t)m;
        return 0;
    }
    if (strcmp(k, "clock") == 0) return each_key(L, v, "clock", clock_key, NULL);
    if (strcmp(k, "policy") == 0) return each_key(L, v, "policy", policy_key, NULL);
    return unknown(L, kn, "key", k, top_keys);
}

static void defaults(tn_config *c)
{
    memset(c, 0, sizeof *c);
    /* The match template's defaults are a match's: match_config_init. The
     * game when the file names none: through the registry, like any. */
    match_config_init(&c->match, arb_game_find(TN_DEFAULT_GAME));
    c->match.forfeit_points = -1;   /* the game's (finish), unless policy.forfeit_points says */
    c->format = TN_ROUND_ROBIN;
    c->cycles = 1;
    c->advance = 1;
    c->seed = c->match.seed;
    c->ladder = (tn_ladder){.provisional = 10, .concurrent = 2, .max_in_flight = 1, .new_boost = 2,
                            .inactive_days = 30, .validation = "self"};
}

/* The tree entrants' files must lie in: the tournament file's own
 * directory, or the directory files_root: names (relative to the file, or
 * absolute) — the organiser's choice, written at the top of the file,
 * never an entrant's. */
static int files_root(loader *L, const yaml_node_t *node)
{
    tn_config *c = L->cfg;
    char file[PATH_MAX], dir[PATH_MAX + 600], given[512] = "";
    if (!realpath(c->path, file))
        return at(L, node, "%s: %s", c->path, strerror(errno));
    *strrchr(file, '/') = 0;   /* a resolved path has a slash */
    snprintf(L->base, sizeof L->base, "%s", file[0] ? file : "/");
    snprintf(dir, sizeof dir, "%s", L->base);
    L->root_label = "the tournament file's directory";
    if (node) {
        if (get_str(L, node, "files_root", given, sizeof given))
            return L->rc;
        if (given[0] == '/')
            snprintf(dir, sizeof dir, "%s", given);
        else
            snprintf(dir, sizeof dir, "%s/%s", file, given);
        L->root_label = "files_root";
    }
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(dir, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
        return at(L, node, "files_root: \"%s\" is not a directory", given);
    if (strlen(real) >= sizeof c->files_root)
        return at(L, node, "files_root: longer than %zu bytes once resolved", sizeof c->files_root - 1);
    snprintf(c->files_root, sizeof c->files_root, "%s", real);
    return 0;
}

/* What match_config_rules will insist on, said here with a place. A game
 * whose match may end early plays duplicate at tables, each seating block a
 * match of its own (match_def.h, match_tables). */
static int match_checks(loader *L, top_ctx *t, int k)
{
    tn_config *c = L->cfg;
    int8_t team_of_seat[ARB_MAX_SEATS];
    int nteams = c->match.game->teams(L->rules, team_of_seat);
    if (c->match.duplicate == MATCH_DUP_SWAP && nteams != 2)
        return at(L, t->duplicate, "duplicate: swap swaps two teams' seats, and %s has no two fixed teams; use "
                  "rotate or all", c->match.game->name);
    if (c->match.duplicate == MATCH_DUP_ALL && nteams > 0)
        return at(L, t->duplicate, "duplicate: all would split %s's partners (some permutations of the seats put "
                  "partners side by side); use swap or rotate", c->match.game->name);
    uint64_t seatings = 1;
    if (c->match.duplicate == MATCH_DUP_ROTATE)
        seatings = (uint64_t)k;
    if (c->match.duplicate == MATCH_DUP_SWAP)
        seatings = 2;
    for (int i = 2; i <= k && c->match.duplicate == MATCH_DUP_ALL; i++)
        seatings *= (uint64_t)i;
    if ((uint64_t)c->match.deals * seatings > ARB_MAX_DEALS)
        return at(L, t->deals, "deals: %u deals x %" PRIu64 " seatings (duplicate: %s) make %" PRIu64
                  " games in a match, more than %d", c->match.deals, seatings,
                  match_duplicate_name((match_duplicate)c->match.duplicate), (uint64_t)c->match.deals * seatings, ARB_MAX_DEALS);
    return 0;
}

/* A ladder: entries from the file are the organiser's (active from the
 * start, never validated); more join while it runs. Its entries are
 * programs: in a partnership game each plays with a copy of itself as
 * partner, so team entrants are refused. It keeps ratings (openskill
 * unless the file says). */
/* A key that only some formats read is refused under the others (advance:
 * under a double elimination was accepted and ignored): the place of its
 * value, the format, and where it applies. */
static int format_keys(loader *L, const top_ctx *t)
{
    const struct {
        const char *key;
        const yaml_node_t *node;   /* its value, NULL when absent */
        unsigned formats;          /* 1 << tn_format where it applies */
        const char *where;
    } keys[] = {
        {"advance", t->advance, 1u << TN_SINGLE_ELIM | 1u << TN_GROUPS_KNOCKOUT, "single-elimination and groups-knockout"},
        {"groups", t->groups, 1u << TN_GROUPS_KNOCKOUT, "groups-knockout"},
        {"gauntlet", t->gauntlet, 1u << TN_GAUNTLET, "gauntlet"},
        {"rounds", t->rounds, 1u << TN_SWISS, "swiss"},
    };
    unsigned f = L->cfg->format;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].node && !(keys[i].formats >> f & 1))
            return at(L, keys[i].node, "%s: does not apply to format %s (only to %s)", keys[i].key,
                      tn_format_name((tn_format)f), keys[i].where);
    return 0;
}

static int finish_ladder(loader *L, yaml_node_t *root, top_ctx *t)
{
    tn_config *c = L->cfg;
    (void)root;
    if (c->nteams)
        return at(L, t->entrants, "team %s: a ladder's entries are programs, not teams (in a partnership game each "
                  "entry plays with a copy of itself as partner)", c->teams[0].name);
    for (int i = 0; i < c->nentrants; i++)
        if (c->entrants[i].team[0])
            return at(L, t->entrants, "entrant %s: a ladder's entries are programs, not members of teams (in a "
                      "partnership game each entry plays with a copy of itself as partner)", c->entrants[i].name);
    if (!t->rating)
        c->rating = TN_RATING_OPENSKILL;
    if (c->rating == TN_RATING_NONE)
        return at(L, t->rating, "rating: none, and a ladder ranks its entries by rating (openskill, glicko2 or elo)");
    int8_t team_of_seat[ARB_MAX_SEATS];
    int nteams = c->match.game->teams(L->rules, team_of_seat);
    if ((c->rating == TN_RATING_GLICKO2 || c->rating == TN_RATING_ELO) && c->match.game->seats(L->rules) > 2
        && nteams != 2)
        return at(L, t->rating, "rating: %s rates two-sided play, and a %s table seats %d players; use openskill",
                  tn_rating_name((tn_rating)c->rating), c->match.game->name, c->match.game->seats(L->rules));
    if (t->rating_model && c->rating != TN_RATING_OPENSKILL)
        return at(L, t->rating_model, "rating_model: a model of openskill's, and the rating is %s",
                  tn_rating_name((tn_rating)c->rating));
    if (match_checks(L, t, c->match.game->seats(L->rules)))
        return L->rc;
    const char *v = c->ladder.validation;
    if (strcmp(v, "self") != 0 && strcmp(v, "none") != 0) {
        bool found = false;
        for (int i = 0; i < c->nentrants; i++)
            found |= strcmp(c->entrants[i].name, v) == 0;
        if (!found)
            return at(L, t->validation, "ladder.validation: expected self, none or the name of an entrant of this "
                      "file (the reference bot), found \"%s\"", v);
    }
    return 0;
}

/* Swiss: enough rounds to separate the field, ceil(log_k(n)) + 1. */
static uint32_t swiss_rounds(int ku, int units)
{
    uint32_t r = 1;
    for (int span = ku; span < units; span *= ku)
        r++;
    return r + 1;
}

static int registration_checks(loader *L, top_ctx *t);

static int finish(loader *L, yaml_node_t *root, top_ctx *t)
{
    tn_config *c = L->cfg;
    if (t->game) {
        const char *g = scalar(t->game);
        c->match.game = g ? arb_game_find(g) : NULL;
        if (!c->match.game) {
            const char *names[16];
            int n = 0;
            for (const arb_game *const *r = arb_games(); *r && n < 15; r++)
                names[n++] = (*r)->name;
            names[n] = NULL;
            return g ? unknown(L, t->game, "game", g, names)
                     : at(L, t->game, "game: expected a game name, found %s", node_kind(t->game));
        }
    }
    L->rules = calloc(1, c->match.game->rules_size);
    if (!L->rules)
        return L->rc = ARB_ENOMEM;
    if (t->game && !t->rules)   /* the game's own default preset */
        snprintf(c->match.preset, sizeof c->match.preset, "%s", c->match.game->default_preset);
    if (c->match.forfeit_points < 0)
        c->match.forfeit_points = c->match.game->default_forfeit_points;
    if (t->rules && get_str(L, t->rules, "rules", c->match.preset, sizeof c->match.preset))
        return L->rc;
    if (c->match.game->rules_preset(L->rules, c->match.preset) != 0) {
        return unknown(L, t->rules, "rules preset", c->match.preset, c->match.game->presets());
    }
    if (t->options && each_key(L, t->options, "options", option_key, NULL))
        return L->rc;
    char why[256];
    if (c->match.game->rules_check(L->rules, why, sizeof why) != 0)
        return at(L, t->options ? t->options : t->rules, "rules: %s", why);
    if (!c->name[0])
        return at(L, root, "a tournament needs a name (name: ...)");
    bool ladder = c->format == TN_LADDER, reg = c->registration.open;
    if (!t->entrants && !ladder && !reg)
        return at(L, root, "no entrants (entrants: - name: ..., command: ...)");
    if (reg && ladder)
        return at(L, t->registration, "registration: a ladder's entries join while it runs (arbiter ladder join); "
                  "registration is for a tournament that starts at a deadline");
    if (t->ladder && !ladder)
        return at(L, t->ladder, "ladder: settings of a ladder, and the format is %s (format: ladder)",
                  tn_format_name((tn_format)c->format));
    /* a file that came over the API has no directory of the host (its
     * files_root: was refused, and so is every files:) */
    if (!L->submitted && files_root(L, t->files_root))
        return L->rc;
    if (c->startup_ms_max && c->startup_ms_max < c->match.startup_ms)
        return at(L, L->startup_max, "clock.startup_ms_max: %" PRId64 " is below clock.startup_ms, %" PRId64
                  " (the budget of every bot that declares none)", c->startup_ms_max, c->match.startup_ms);
    if (t->entrants && entrants(L, t->entrants))
        return L->rc;
    if (format_keys(L, t))
        return L->rc;
    int k = c->match.game->seats(L->rules);
    if (ladder)
        return finish_ladder(L, root, t);
    if (teams(L, t->entrants, k))
        return L->rc;
    c->nfile_entrants = c->nentrants;
    if (reg && registration_checks(L, t))
        return L->rc;
    if (c->nentrants < k && !reg)
        return at(L, t->entrants, "%d entrants, and a %s table has %d seats: at least %d are needed", c->nentrants,
                  c->match.game->name, k, k);
    /* what a format pairs: teams in partnership play (sides of a table), else entrants (seats) */
    int units = tn_units(c), ku = c->nteams ? c->sides : k;
    const char *unit = c->nteams ? "team" : "entrant";
    if (c->nteams && c->nteams < ku && !reg)
        return at(L, t->entrants, "%d team%s, and a %s table seats %d teams: at least %d are needed", c->nteams,
                  c->nteams == 1 ? "" : "s", c->match.game->name, ku, ku);
    if (c->format == TN_GAUNTLET && !c->gauntlet[0])
        return at(L, t->format, "format gauntlet: name the %s who plays the field (gauntlet: NAME)", unit);
    if (t->gauntlet) {
        bool found = false;
        for (int i = 0; i < units; i++)
            found |= strcmp(c->nteams ? c->teams[i].name : c->entrants[i].name, c->gauntlet) == 0;
        if (!found)
            return at(L, t->gauntlet, "gauntlet: no %s is named \"%s\"", unit, c->gauntlet);
    }
    if (match_checks(L, t, k))
        return L->rc;
    if (c->format == TN_DOUBLE_ELIM && ku != 2)
        return at(L, t->format, "format double-elimination is for two-sided matches (two players, or two teams); %s "
                  "seats %d %ss at a table", c->match.game->name, ku, unit);
    if ((c->format == TN_SINGLE_ELIM || c->format == TN_GROUPS_KNOCKOUT) && (int)c->advance >= ku)
        return at(L, t->advance ? t->advance : t->format, "advance: %u of a %d-%s table cannot go on (1..%d)",
                  c->advance, ku, c->nteams ? "team" : "seat", ku - 1);
    if (c->format == TN_GROUPS_KNOCKOUT) {
        if (!c->groups)
            return at(L, t->format, "format groups-knockout: say how many groups (groups: N)");
        if ((int)(c->groups * c->advance) < ku)
            return at(L, t->groups, "groups: %u groups sending %u each make a knockout of %u, less than a table of %d",
                      c->groups, c->advance, c->groups * c->advance, ku);
        if (units / (int)c->groups < ku && !reg)
            return at(L, t->groups, "groups: %u groups of %d %ss leave fewer than %d at a table", c->groups,
                      units, unit, ku);
    }
    if (!reg && plan_check_size(c, why, sizeof why))   /* what the scheduler would refuse, refused here with a place */
        return at(L, t->entrants, "entrants: %s", why);
    if (t->rating_model && c->rating != TN_RATING_OPENSKILL)
        return at(L, t->rating_model, "rating_model: a model of openskill's, and the rating is %s",
                  tn_rating_name((tn_rating)c->rating));
    if (c->format == TN_SWISS && !c->rounds && !reg)
        c->rounds = swiss_rounds(ku, units);
    return 0;
}

/* With registration: the entrants to come are the file's and the
 * registered, so what depends on their number is checked when it starts
 * (tn_config_registered); here the block itself. */
static int registration_checks(loader *L, top_ctx *t)
{
    tn_config *c = L->cfg;
    tn_registration *r = &c->registration;
    if (!t->reg_until)
        return at(L, t->registration, "registration: say until when (until: 2026-12-01T18:00:00Z, UTC)");
    if (r->until - (int64_t)time(NULL) > ARB_REG_MAX_OPEN_S)
        return at(L, t->reg_until, "registration.until: more than %d days from now", ARB_REG_MAX_OPEN_S / 86400);
    if (c->nteams > 0)
        return at(L, t->entrants, "team %s: registration enters bots one by one, and teams of a partnership game "
                  "cannot register yet", c->teams[0].name);
    for (int i = 0; i < c->nentrants; i++)
        if (c->entrants[i].team[0])
            return at(L, t->entrants, "entrant %s: registration enters bots one by one, and team: would make teams "
                      "of a partnership game", c->entrants[i].name);
    if (!r->per_account)
        r->per_account = 1;
    uint32_t room = (uint32_t)(ARB_TN_MAX_ENTRANTS - c->nentrants);
    if (!r->max_entrants)
        r->max_entrants = room;
    if (r->max_entrants > room)
        return at(L, t->reg_max, "registration.max_entrants: %u, and with the file's %d entrants that is more than "
                  "%d", r->max_entrants, c->nentrants, ARB_TN_MAX_ENTRANTS);
    return 0;
}

/* libyaml's own words for what it could not read, at its position. Reader
 * errors (bad UTF-8, control characters) carry a byte offset, not a mark. */
static void parse_error(const yaml_parser_t *p, const char *path, const char *text, char *err, size_t errlen)
{
    size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
    if (p->error == YAML_READER_ERROR) {
        line = col = 1;
        for (size_t i = 0; i < p->problem_offset; i++) {
            col = text[i] == '\n' ? 1 : col + 1;
            line += text[i] == '\n';
        }
    }
    int k = snprintf(err, errlen, "%s:%zu:%zu: %s", path, line, col, p->problem ? p->problem : "malformed YAML");
    if (k < 0 || (size_t)k >= errlen)
        return;
    if (p->error == YAML_READER_ERROR && p->problem_value != -1)
        snprintf(err + k, errlen - (size_t)k, " (byte 0x%02x)", (unsigned)p->problem_value);
    else if (p->context)
        snprintf(err + k, errlen - (size_t)k, " %s", p->context);
}

/* The whole stream as events, for its nesting alone, before the document
 * loader builds (and the scanner crawls through) anything deeper than
 * ARB_YAML_MAX_DEPTH. A syntax error ends this pass quietly: the loader meets the
 * same error next and reports it in libyaml's words, as it always has. */
static int nesting(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        snprintf(err, errlen, "%s: out of memory", path);
        return ARB_ENOMEM;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    int depth = 0, rc = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev))
            break;
        yaml_event_type_t type = ev.type;
        yaml_mark_t mark = ev.start_mark;
        yaml_event_delete(&ev);
        if (type == YAML_STREAM_END_EVENT)
            break;
        if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT)
            depth++;
        if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT)
            depth--;
        if (depth > ARB_YAML_MAX_DEPTH) {
            snprintf(err, errlen, "%s:%zu:%zu: nested deeper than %d levels (a tournament needs 5: its keys, the "
                     "entrants, an entrant's keys, a team's members, a member's keys)", path, mark.line + 1, mark.column + 1, ARB_YAML_MAX_DEPTH);
            rc = ARB_EINVAL;
            break;
        }
    }
    yaml_parser_delete(&p);
    return rc;
}

static int load_text(const char *path, char *text, size_t len, bool submitted, tn_config *cfg, char *err,
                     size_t errlen);

int tn_config_load_text(const char *label, const char *text, size_t len, tn_config *cfg, char *err, size_t errlen)
{
    defaults(cfg);
    if (strlen(label) >= sizeof cfg->path) {
        snprintf(err, errlen, "%.64s...: the name is longer than %zu bytes", label, sizeof cfg->path - 1);
        return ARB_ERANGE;
    }
    snprintf(cfg->path, sizeof cfg->path, "%s", label);
    if (len > ARB_TN_MAX_FILE) {
        snprintf(err, errlen, "%s: larger than %u bytes (the limit for a tournament file)", label, ARB_TN_MAX_FILE);
        return ARB_ETOOBIG;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        snprintf(err, errlen, "%s: out of memory", label);
        return ARB_ENOMEM;
    }
    memcpy(copy, text, len);
    copy[len] = 0;
    return load_text(label, copy, len, true, cfg, err, errlen);
}

int tn_config_load(const char *path, tn_config *cfg, char *err, size_t errlen)
{
    defaults(cfg);
    if (strlen(path) >= sizeof cfg->path) {
        snprintf(err, errlen, "%.64s...: the path is longer than %zu bytes", path, sizeof cfg->path - 1);
        return ARB_ERANGE;
    }
    snprintf(cfg->path, sizeof cfg->path, "%s", path);
    loader L = {.path = path, .cfg = cfg, .err = err, .errlen = errlen};
    char *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    text = malloc(ARB_TN_MAX_FILE + 1);
    if (!text) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return ARB_ENOMEM;
    }
    /* one byte past the limit tells a file of exactly ARB_TN_MAX_FILE bytes
     * from a larger one */
    size_t len = fread(text, 1, ARB_TN_MAX_FILE + 1, f);
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    if (read_errno) {
        snprintf(err, errlen, "%s: %s", path, strerror(read_errno));
        L.rc = ARB_EIO;
        goto out;
    }
    if (len > ARB_TN_MAX_FILE) {
        snprintf(err, errlen, "%s: larger than %u bytes (the limit for a tournament file)", path, ARB_TN_MAX_FILE);
        L.rc = ARB_ETOOBIG;
        goto out;
    }
    return load_text(path, text, len, false, cfg, err, errlen);
out:
    free(text);
    tn_config_release(cfg);
    return L.rc;
}

/* The text (owned: kept in cfg on success, freed on failure) of the file
 * called path, parsed and checked. submitted: it came over the API and
 * has no directory on this host, so nothing in it may name the host's
 * files. */
static int load_text(const char *path, char *text, size_t len, bool submitted, tn_config *cfg, char *err,
                     size_t errlen)
{
    loader L = {.path = path, .cfg = cfg, .err = err, .errlen = errlen, .submitted = submitted};
    cfg->submitted = submitted;
    yaml_parser_t parser;
    bool parser_ready = false, doc_ready = false;
    L.rc = nesting(path, text, len, err, errlen);
    if (L.rc)
        goto out;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(err, errlen, "%s: out of memory", path);
        L.rc = ARB_ENOMEM;
        goto out;
    }
    parser_ready = true;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &L.doc)) {
        parse_error(&parser, path, text, err, errlen);
        L.rc = parser.error == YAML_MEMORY_ERROR ? ARB_ENOMEM : ARB_EPARSE;
        goto out;
    }
    doc_ready = true;
    yaml_node_t *root = yaml_document_get_root_node(&L.doc);
    if (!root) {
        at(&L, NULL, "the file is empty (expected name:, entrants: ...)");
        goto out;
    }
    /* A second document ("---") would be ignored silently: refuse it. */
    yaml_document_t next;
    if (!yaml_parser_load(&parser, &next)) {
        parse_error(&parser, path, text, err, errlen);
        L.rc = ARB_EPARSE;
        goto out;
    }
    yaml_node_t *second = yaml_document_get_root_node(&next);
    if (second) {
        snprintf(err, errlen, "%s:%zu:%zu: a second YAML document (one tournament per file)", path,
                 next.start_mark.line + 1, next.start_mark.column + 1);
        L.rc = ARB_EINVAL;
    }
    yaml_document_delete(&next);
    if (L.rc)
        goto out;
    /* "\0" in a double-quoted scalar makes a NUL inside the text: every
     * reader of it as a C string would see it cut short (a name that is
     * not the name written, a path that is another path). */
    for (yaml_node_t *n = L.doc.nodes.start; n < L.doc.nodes.top; n++)
        if (n->type == YAML_SCALAR_NODE && memchr(n->data.scalar.value, 0, n->data.scalar.length)) {
            at(&L, n, "a NUL character (\\0) in text at offset %zu (expected printable text)",
               (size_t)((const unsigned char *)memchr(n->data.scalar.value, 0, n->data.scalar.length)
                        - n->data.scalar.value));
            goto out;
        }
    top_ctx t = {0};
    if (each_key(&L, root, "the file", top_key, &t) == 0)
        finish(&L, root, &t);
    if (L.rc == 0) {
        unsigned char hash[crypto_hash_sha256_BYTES];
        crypto_hash_sha256(hash, (const unsigned char *)text, len);
        for (int i = 0; i < 32; i++)
            snprintf(cfg->digest + 2 * i, 3, "%02x", hash[i]);
        text[len] = 0;
        cfg->text = text;
        text = NULL;
    }
out:
    if (L.rc == ARB_ENOMEM && !strstr(err, "out of memory"))
        snprintf(err, errlen, "%s: out of memory", path);
    if (doc_ready)
        yaml_document_delete(&L.doc);
    if (parser_ready)
        yaml_parser_delete(&parser);
    free(text);
    free(L.rules);
    if (L.rc)
        tn_config_release(cfg);
    return L.rc;
}

void tn_config_release(tn_config *cfg)
{
    free(cfg->text);
    cfg->text = NULL;
    free(cfg->entrants);
    cfg->entrants = NULL;
    cfg->nentrants = 0;
    free(cfg->teams);
    cfg->teams = NULL;
    cfg->nteams = 0;
}

int tn_config_check_commands(const tn_config *cfg, char *err, size_t errlen)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", cfg->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    for (int i = 0; i < cfg->nentrants; i++) {
        match_bot_cfg b;
        char why[512];
        /* a program given as a directory or an archive (the only item of
         * files:): its command's words name its files, checked when it is
         * packed (scheduler/programs.c); a program from PATH is looked for */
        bool tree = false;
        {
            char one[ARB_TN_MAX_COMMAND], *sv = NULL, path[PATH_MAX], out[PATH_MAX + 64];
            struct stat st;
            snprintf(one, sizeof one, "%s", cfg->entrants[i].files);
            char *f = strtok_r(one, " ", &sv);
            tree = f && !strtok_r(NULL, " ", &sv)
                   && bundle_confine(cfg->files_root, dir, f, path, sizeof path, out, sizeof out) == 0
                   && stat(path, &st) == 0 && (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && tn_archive_name(f)));
        }
        char first[ARB_TN_MAX_COMMAND];
        snprintf(first, sizeof first, "%s", cfg->entrants[i].command);
        first[strcspn(first, " \t")] = 0;
        if (tree && strchr(first, '/'))
            continue;
        if (match_bot_command(&b, cfg->entrants[i].name, cfg->entrants[i].command, dir, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%d: entrant %s: %s", cfg->path, cfg->entrants[i].line, cfg->entrants[i].name, why);
            return ARB_ENOTFOUND;
        }
        char files[ARB_TN_MAX_COMMAND], *save = NULL;
        snprintf(files, sizeof files, "%s", cfg->entrants[i].files);
        for (char *f = strtok_r(files, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
            char path[PATH_MAX], out[PATH_MAX + 64];
            struct stat st;
            int rc = bundle_confine(cfg->files_root, dir, f, path, sizeof path, out, sizeof out);
            if (rc == ARB_EINVAL) {
                snprintf(err, errlen, "%s:%d: entrant %s: files: \"%s\" %s", cfg->path, cfg->entrants[i].line,
                         cfg->entrants[i].name, f, out);
                return ARB_EINVAL;
            }
            if (rc != 0 || stat(path, &st) != 0 || (!S_ISREG(st.st_mode) && !(tree && S_ISDIR(st.st_mode)))) {
                snprintf(err, errlen, "%s:%d: entrant %s: files: \"%s\" is not a file%s", cfg->path,
                         cfg->entrants[i].line, cfg->entrants[i].name, f,
                         S_ISDIR(st.st_mode) ? " (a directory is the whole program: the only item of files:)" : "");
                return ARB_ENOTFOUND;
            }
        }
    }
    return 0;
}

bool tn_archive_name(const char *f)
{
    static const char *const ext[] = {".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".zip"};
    size_t n = strlen(f);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcmp(f + n - k, ext[i]) == 0)
            return true;
    }
    return false;
}

int tn_config_registered(tn_config *cfg, const tn_entrant *add, int n, char *err, size_t errlen)
{
    if (n < 0 || cfg->nentrants + n > ARB_TN_MAX_ENTRANTS) {
        snprintf(err, errlen, "%d entrants and %d registered: more than %d", cfg->nentrants, n, ARB_TN_MAX_ENTRANTS);
        return ARB_ETOOBIG;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < cfg->nentrants; j++)
            if (strcmp(add[i].name, cfg->entrants[j].name) == 0) {
                snprintf(err, errlen, "registered entrant %s: the name is taken by the file's entrant at line %d",
                         add[i].name, cfg->entrants[j].line);
                return ARB_EINVAL;
            }
    tn_entrant *e = realloc(cfg->entrants, (size_t)(cfg->nentrants + n + 1) * sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    cfg->entrants = e;
    for (int i = 0; i < n; i++) {
        e[cfg->nentrants + i] = add[i];
        e[cfg->nentrants + i].registered = true;
        e[cfg->nentrants + i].seed = 0;   /* registered entrants are unseeded: drawn from the seed and secret */
    }
    cfg->nentrants += n;
    /* what finish() left for now that the field is known */
    int side_of[ARB_MAX_SEATS], k;
    if (plan_seat_sides(cfg, &k, side_of) < 0) {
        snprintf(err, errlen, "the rules %s do not build", cfg->match.preset);
        return ARB_EINVAL;
    }
    if (cfg->nentrants < k) {
        snprintf(err, errlen, "%d entrant%s (%d from the file, %d registered), and a %s table has %d seats: at least "
                 "%d are needed", cfg->nentrants, cfg->nentrants == 1 ? "" : "s", cfg->nentrants - n, n,
                 cfg->match.game->name, k, k);
        return ARB_EINVAL;
    }
    if (cfg->format == TN_GROUPS_KNOCKOUT && cfg->nentrants / (int)cfg->groups < k) {
        snprintf(err, errlen, "%d entrants in %u groups leave fewer than %d at a table", cfg->nentrants, cfg->groups,
                 k);
        return ARB_EINVAL;
    }
    if (plan_check_size(cfg, err, errlen))
        return ARB_ETOOBIG;
    if (cfg->format == TN_SWISS && !cfg->rounds)
        cfg->rounds = swiss_rounds(k, cfg->nentrants);
    return 0;
}
