/* test_config.c — the tournament YAML loader against its corpus
 * (tests/data/configs): every broken NAME.yaml must give exactly the text of
 * NAME.err, every ok-NAME.yaml must load into exactly the fields listed in
 * ok-NAME.fields. Then the limits (file size, entrant count, a megabyte of
 * "["), unreadable files, and every truncation of a good file (no crash, an
 * error that names the file). Usage: test_config CORPUS_DIR [FILE...] (extra files must load:
 * the examples in config/). */
#include "config.h"
#include "arb_error.h"
#include "test_util.h"
#include "test_files.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The .err files are written as `arbiter check` prints them from the source
 * root; the test reads the corpus wherever meson says it is. */
#define CORPUS_PREFIX "tests/data/configs/"

static char tmpdir[256];

/* Append one "key = value" line to a growing dump. */
static void put(char *buf, size_t cap, const char *key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t cap, const char *key, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n >= cap)
        return;
    n += (size_t)snprintf(buf + n, cap - n, "%s = ", key);
    if (n >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    n += (size_t)vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
    if (n < cap)
        snprintf(buf + n, cap - n, "\n");
}

/* Every field of a loaded configuration but its path, one per line. */
static void dump(const tn_config *c, char *buf, size_t cap)
{
    char opts[ARB_MAX_OPTIONS_TEXT * 2];
    size_t k = 0;
    for (const char *p = c->match.options; *p && k + 3 < sizeof opts; p++) {
        if (*p == '\n') {
            opts[k++] = '\\';
            opts[k++] = 'n';
        } else {
            opts[k++] = *p;
        }
    }
    opts[k] = 0;
    buf[0] = 0;
    put(buf, cap, "name", "%s", c->name);
    put(buf, cap, "game", "%s", c->match.game ? c->match.game->name : "(none)");
    put(buf, cap, "rules", "%s", c->match.preset);
    put(buf, cap, "options", "%s", opts);
    put(buf, cap, "format", "%s", tn_format_name((tn_format)c->format));
    put(buf, cap, "cycles", "%" PRIu32, c->cycles);
    put(buf, cap, "rounds", "%" PRIu32, c->rounds);
    put(buf, cap, "advance", "%" PRIu32, c->advance);
    put(buf, cap, "groups", "%" PRIu32, c->groups);
    put(buf, cap, "gauntlet", "%s", c->gauntlet);
    put(buf, cap, "deals", "%" PRIu32, c->match.deals);
    put(buf, cap, "duplicate", "%s", match_duplicate_name((match_duplicate)c->match.duplicate));
    put(buf, cap, "clock.move_ms", "%" PRId64, c->match.move_ms);
    put(buf, cap, "clock.deal_ms", "%" PRId64, c->match.deal_ms);
    put(buf, cap, "clock.bank_ms", "%" PRId64, c->match.bank_ms);
    put(buf, cap, "clock.startup_ms", "%" PRId64, c->match.startup_ms);
    put(buf, cap, "policy.on_fault", "%s", match_policy_name((match_policy)c->match.policy));
    put(buf, cap, "policy.strikes", "%" PRIu32, c->match.strikes);
    put(buf, cap, "policy.forfeit_points", "%" PRId64, c->match.forfeit_points);
    put(buf, cap, "seed", "%" PRIu64, c->seed);
    put(buf, cap, "entrants", "%d", c->nentrants);
    for (int i = 0; i < c->nentrants; i++) {
        const tn_entrant *e = &c->entrants[i];
        char key[64];
        snprintf(key, sizeof key, "entrant.%d", i + 1);
        put(buf, cap, key, "name=%s command=[%s] seed=%" PRIu32 " rating=%g team=%s line=%d%s%s%s", e->name,
            e->command, e->seed, e->rating, e->team, e->line, e->files[0] ? " files=[" : "", e->files,
            e->files[0] ? "]" : "");
    }
    if (c->format == TN_LADDER) {
        const tn_ladder *l = &c->ladder;
        put(buf, cap, "rating", "%s", tn_rating_name((tn_rating)c->rating));
        put(buf, cap, "ladder", "provisional=%" PRIu32 " rate=%g concurrent=%" PRIu32 " max_in_flight=%" PRIu32
            " new_boost=%g inactive_days=%" PRIu32 " matches=%" PRIu64 " validation=%s", l->provisional, l->rate,
            l->concurrent, l->max_in_flight, l->new_boost, l->inactive_days, l->matches, l->validation);
    }
    if (c->registration.open) {
        const tn_registration *r = &c->registration;
        put(buf, cap, "registration", "until=%" PRId64 " per_account=%" PRIu32 " max_entrants=%" PRIu32
            " validation=%s", r->until, r->per_account, r->max_entrants, r->validation == TN_REG_NONE ? "none" : "check");
    }
    if (c->nteams > 0)
        put(buf, cap, "teams", "%d of %d a table", c->nteams, c->sides);
    for (int i = 0; i < c->nteams; i++) {
        const tn_team *t = &c->teams[i];
        char key[64], members[256] = "";
        size_t used = 0;
        for (int m = 0; m < t->nmembers && used < sizeof members; m++)
            used += (size_t)snprintf(members + used, sizeof members - used, "%s%s", m ? "," : "", c->entrants[t->member[m]].name);
        snprintf(key, sizeof key, "team.%d", i + 1);
        put(buf, cap, key, "name=%s seed=%" PRIu32 " rating=%g members=%s line=%d", t->name, t->seed, t->rating,
            members, t->line);
    }
}

/* A broken file: its error, with the corpus directory written as the source
 * root's relative path, must be the text of NAME.err. */
static void check_broken(const char *dir, const char *base, const char *errpath)
{
    char path[1024], got[2048], want_path[1024];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, base);
    char *want = test_slurp(errpath, NULL);
    CHECKF(want != NULL, "%s: unreadable", errpath);
    if (!want)
        return;
    test_chomp(want);
    tn_config cfg;
    got[0] = 0;
    int rc = tn_config_load(path, &cfg, got, sizeof got);
    CHECKF(rc < 0, "%s: loaded, expected [%s]", path, want);
    if (rc == 0) {
        tn_config_release(&cfg);
        free(want);
        return;
    }
    CHECKF(cfg.entrants == NULL && cfg.nentrants == 0, "%s: a failed load must leave no entrants", path);
    /* The message must start with the path it was given, then LINE:COL. */
    size_t plen = strlen(path);
    CHECKF(strncmp(got, path, plen) == 0 && got[plen] == ':', "%s: the error does not start with the path: %s", path,
           got);
    snprintf(want_path, sizeof want_path, CORPUS_PREFIX "%s.yaml", base);
    char norm[2048 + 1024];
    snprintf(norm, sizeof norm, "%s%s", want_path, strncmp(got, path, plen) == 0 ? got + plen : got);
    CHECKF(strcmp(norm, want) == 0, "%s\n  want: %s\n  got:  %s", base, want, norm);
    unsigned line, col;
    char colon;
    CHECKF(sscanf(norm + strlen(want_path), ":%u:%u%c", &line, &col, &colon) == 3 && colon == ':' && line >= 1 &&
               col >= 1,
           "%s: no LINE:COL in [%s]", base, norm);
    free(want);
}

/* A good file: it loads, and its fields are exactly NAME.fields. */
static void check_good(const char *dir, const char *base)
{
    char path[1024], fields[1024], err[2048];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, base);
    snprintf(fields, sizeof fields, "%s/%s.fields", dir, base);
    tn_config cfg;
    int rc = tn_config_load(path, &cfg, err, sizeof err);
    CHECKF(rc == 0, "%s: %s", path, err);
    if (rc)
        return;
    CHECKF(strcmp(cfg.path, path) == 0, "%s: path recorded as %s", base, cfg.path);
    char *want = test_slurp(fields, NULL);
    static char got[1 << 16];
    dump(&cfg, got, sizeof got);
    CHECKF(want != NULL, "%s: no %s.fields listing what it loads into; it loads into:\n%s", base, base, got);
    if (want) {
        CHECK(strcmp(want, got) == 0);
        if (strcmp(want, got))
            test_show_diff(fields, want, got);
        free(want);
    }
    tn_config_release(&cfg);
    CHECK(cfg.entrants == NULL && cfg.nentrants == 0);
    tn_config_release(&cfg); /* twice is harmless */
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void run_corpus(const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    CHECKF(n > 0, "%s: cannot list the corpus", dir);
    int broken = 0, good = 0;
    for (int i = 0; i < n; i++) {
        const char *f = ents[i]->d_name;
        size_t len = strlen(f);
        if (len > 5 && strcmp(f + len - 5, ".yaml") == 0) {
            char base[512], errpath[1024];
            snprintf(base, sizeof base, "%.*s", (int)(len - 5), f);
            snprintf(errpath, sizeof errpath, "%s/%s.err", dir, base);
            bool has_err = access(errpath, F_OK) == 0;
            if (strncmp(base, "ok-", 3) == 0) {
                CHECKF(!has_err, "%s: an ok- file with a .err", base);
                check_good(dir, base);
                good++;
            } else {
                CHECKF(has_err, "%s.yaml: neither ok-* nor with a .err", base);
                if (has_err)
                    check_broken(dir, base, errpath);
                broken++;
            }
        }
        free(ents[i]);
    }
    if (n > 0)
        free(ents);
    printf("corpus: %d broken files, %d good files\n", broken, good);
    CHECKF(broken >= 25, "only %d broken files", broken);
    CHECKF(good >= 3, "only %d good files", good);
}

static void test_formats(void)
{
    for (int f = 0; f < TN_NFORMATS; f++) {
        tn_format g = TN_NFORMATS;
        CHECK(tn_format_parse(tn_format_name((tn_format)f), &g) == 0 && g == (tn_format)f);
    }
    tn_format g;
    CHECK(tn_format_parse("swis", &g) == ARB_ENOTFOUND);
    CHECK(tn_format_parse("", &g) == ARB_ENOTFOUND);
    CHECK(strcmp(tn_format_name(TN_NFORMATS), "?") == 0);
    CHECK(strcmp(tn_format_name(TN_SWISS), "swiss") == 0);
}

static int load_text(const char *name, const char *text, size_t len, tn_config *cfg, char *err, size_t errlen)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    if (!test_write_file(path, text, len)) {
        snprintf(err, errlen, "cannot write %s", path);
        return 1;
    }
    return tn_config_load(path, cfg, err, errlen);
}

/* A Swiss tournament: the largest field a round robin takes is far
 * smaller (plan_check_size), tested below. */
static const char header[] = "name: limits\nformat: swiss\n";

/* n entrants "eI" as a file, after header. */
static char *entrants_file_as(const char *head, int n, size_t *len)
{
    size_t cap = 64 + (size_t)n * 64;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t k = (size_t)snprintf(s, cap, "%sentrants:\n", head);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, "  - {name: e%d, command: /bin/true}\n", i);
    *len = k;
    return s;
}

static char *entrants_file(int n, size_t *len)
{
    return entrants_file_as(header, n, len);
}

static void test_limits(void)
{
    tn_config cfg;
    char err[2048], want[1024];

    /* ARB_TN_MAX_ENTRANTS loads; one more is refused where the list starts. */
    size_t len;
    char *s = entrants_file(ARB_TN_MAX_ENTRANTS, &len);
    CHECK(s && load_text("max.yaml", s, len, &cfg, err, sizeof err) == 0);
    if (s && cfg.entrants) {
        CHECK(cfg.nentrants == ARB_TN_MAX_ENTRANTS);
        CHECK(strcmp(cfg.entrants[ARB_TN_MAX_ENTRANTS - 1].name, "e4095") == 0);
        CHECK(cfg.entrants[ARB_TN_MAX_ENTRANTS - 1].line == ARB_TN_MAX_ENTRANTS + 3);
        tn_config_release(&cfg);
    }
    free(s);
    s = entrants_file(ARB_TN_MAX_ENTRANTS + 1, &len);
    CHECK(s && load_text("over.yaml", s, len, &cfg, err, sizeof err) < 0);
    snprintf(want, sizeof want, "%s/over.yaml:4:3: entrants: 4097 entrants, at most 4096", tmpdir);
    CHECKF(strcmp(err, want) == 0, "got [%s]", err);
    free(s);

    /* A round robin makes every table at once: the loader refuses what the
     * scheduler could not hold (ARB_MAX_TABLES), 4,096 entrants as 86, and
     * takes 85 (98,770 tables of three). */
    const int rr[][2] = {{85, 0}, {86, 102340}, {ARB_TN_MAX_ENTRANTS, 0}};
    for (size_t i = 0; i < sizeof rr / sizeof rr[0]; i++) {
        s = entrants_file_as("name: rr\n", rr[i][0], &len);
        int rc = s ? load_text("rr.yaml", s, len, &cfg, err, sizeof err) : -1;
        if (rr[i][0] == 85) {
            CHECKF(rc == 0, "85 entrants: %s", err);
            tn_config_release(&cfg);
        } else if (rr[i][1]) {
            snprintf(want, sizeof want, "%s/rr.yaml:3:3: entrants: 86 entrants make 102340 tables of 3 in a round "
                     "robin's one round, more than 100000", tmpdir);
            CHECKF(rc < 0 && strcmp(err, want) == 0, "got [%s]", err);
        } else {
            snprintf(want, sizeof want, "%s/rr.yaml:3:3: entrants: 4096 entrants make 11444858880 tables of "
                     "3 in a round robin's one round, more than 100000", tmpdir);
            CHECKF(rc < 0 && strcmp(err, want) == 0, "got [%s]", err);
        }
        free(s);
    }

    /* A file of exactly ARB_TN_MAX_FILE bytes is read (a comment pads it); one
     * byte more is refused before parsing. */
    const char *body = "name: big\nentrants: [{name: a, command: x}, {name: b, command: x}, {name: c, command: x}]\n";
    s = malloc(ARB_TN_MAX_FILE + 2);
    if (s) {
        size_t b = strlen(body);
        memcpy(s, body, b);
        s[b] = '#';
        memset(s + b + 1, 'x', ARB_TN_MAX_FILE - b - 2);
        s[ARB_TN_MAX_FILE - 1] = '\n';
        CHECKF(load_text("full.yaml", s, ARB_TN_MAX_FILE, &cfg, err, sizeof err) == 0, "%s", err);
        tn_config_release(&cfg);
        s[ARB_TN_MAX_FILE - 1] = 'x';
        s[ARB_TN_MAX_FILE] = '\n';
        CHECK(load_text("big.yaml", s, ARB_TN_MAX_FILE + 1, &cfg, err, sizeof err) == ARB_ETOOBIG);
        snprintf(want, sizeof want, "%s/big.yaml: larger than 1048576 bytes (the limit for a tournament file)",
                 tmpdir);
        CHECKF(strcmp(err, want) == 0, "got [%s]", err);
        CHECK(cfg.entrants == NULL);
        free(s);
    }

    /* A megabyte of "[" (one line, then one a line) is refused at the
     * first level past ARB_YAML_MAX_DEPTH, before libyaml's document loader,
     * which would take minutes over it; a hang here is the meson timeout's. */
    s = malloc(ARB_TN_MAX_FILE);
    if (s) {
        memset(s, '[', ARB_TN_MAX_FILE);
        CHECK(load_text("deep.yaml", s, ARB_TN_MAX_FILE, &cfg, err, sizeof err) == ARB_EINVAL);
        snprintf(want, sizeof want, "%s/deep.yaml:1:%d: nested deeper than %d levels (a tournament needs 5: its keys, "
                 "the entrants, an entrant's keys, a team's members, a member's keys)", tmpdir, ARB_YAML_MAX_DEPTH + 1, ARB_YAML_MAX_DEPTH);
        CHECKF(strcmp(err, want) == 0, "got [%s]", err);
        CHECK(cfg.entrants == NULL);
        for (size_t i = 0; i + 2 <= ARB_TN_MAX_FILE; i += 2)
            memcpy(s + i, "[\n", 2);
        CHECK(load_text("deep.yaml", s, ARB_TN_MAX_FILE, &cfg, err, sizeof err) == ARB_EINVAL);
        snprintf(want, sizeof want, "%s/deep.yaml:%d:1: nested deeper than %d levels (a tournament needs 5: its keys, "
                 "the entrants, an entrant's keys, a team's members, a member's keys)", tmpdir, ARB_YAML_MAX_DEPTH + 1, ARB_YAML_MAX_DEPTH);
        CHECKF(strcmp(err, want) == 0, "got [%s]", err);
        free(s);
    }

    /* Missing and unreadable files name themselves and the reason. */
    CHECK(tn_config_load("/nonexistent/t.yaml", &cfg, err, sizeof err) == ARB_EIO);
    CHECKF(strcmp(err, "/nonexistent/t.yaml: No such file or directory") == 0, "got [%s]", err);
    CHECK(tn_config_load(tmpdir, &cfg, err, sizeof err) == ARB_EIO);
    snprintf(want, sizeof want, "%s: Is a directory", tmpdir);
    CHECKF(strcmp(err, want) == 0, "got [%s]", err);

    /* A path longer than the configuration records. */
    char longpath[600];
    memset(longpath, 'p', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = 0;
    CHECK(tn_config_load(longpath, &cfg, err, sizeof err) == ARB_ERANGE);
    CHECKF(strstr(err, "...: the path is longer than 511 bytes") != NULL, "got [%s]", err);

    /* An empty file and a file of comments: nothing to run. */
    CHECK(load_text("empty.yaml", "", 0, &cfg, err, sizeof err) < 0);
    snprintf(want, sizeof want, "%s/empty.yaml:1:1: the file is empty (expected name:, entrants: ...)", tmpdir);
    CHECKF(strcmp(err, want) == 0, "got [%s]", err);
    CHECK(load_text("comments.yaml", "# nothing\n\n# here\n", 18, &cfg, err, sizeof err) < 0);
    snprintf(want, sizeof want, "%s/comments.yaml:1:1: the file is empty (expected name:, entrants: ...)", tmpdir);
    CHECKF(strcmp(err, want) == 0, "got [%s]", err);

    /* A short error buffer is filled, truncated, terminated. */
    char tiny[16];
    memset(tiny, 'z', sizeof tiny);
    CHECK(load_text("tiny.yaml", "name: t\nformt: x\n", 17, &cfg, tiny, sizeof tiny) < 0);
    CHECK(memchr(tiny, 0, sizeof tiny) != NULL);
}

/* Every prefix of a good file either loads or gives an error that starts
 * with the file's name and a position; nothing crashes (the ASan build runs
 * this too). */
static void test_truncations(const char *dir)
{
    char path[1024], tpath[512], err[2048];
    snprintf(path, sizeof path, "%s/ok-full.yaml", dir);
    char *text = test_slurp(path, NULL);
    CHECKF(text != NULL, "%s", path);
    if (!text)
        return;
    snprintf(tpath, sizeof tpath, "%s/cut.yaml", tmpdir);
    size_t n = strlen(text);
    int loaded = 0, refused = 0, bad = 0;
    for (size_t k = 0; k <= n; k++) {
        tn_config cfg;
        if (!test_write_file(tpath, text, k)) {
            bad++;
            continue;
        }
        if (tn_config_load(tpath, &cfg, err, sizeof err) == 0) {
            loaded++;
            tn_config_release(&cfg);
            continue;
        }
        refused++;
        size_t pl = strlen(tpath);
        unsigned line, col;
        if (strncmp(err, tpath, pl) != 0 || sscanf(err + pl, ":%u:%u:", &line, &col) != 2) {
            if (bad++ < 3)
                fprintf(stderr, "truncation at %zu: [%s]\n", k, err);
        }
    }
    CHECKF(bad == 0, "%d truncations gave an error without FILE:LINE:COL", bad);
    CHECK(loaded >= 1 && refused >= 1);
    free(text);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_config CORPUS_DIR [FILE...]\n");
        return 2;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-test-config.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_formats();
    run_corpus(argv[1]);
    for (int i = 2; i < argc; i++) {
        tn_config cfg;
        char err[2048];
        int rc = tn_config_load(argv[i], &cfg, err, sizeof err);
        CHECKF(rc == 0, "%s", err);
        if (rc == 0) {
            CHECKF(cfg.nentrants >= 3, "%s: %d entrants", argv[i], cfg.nentrants);
            tn_config_release(&cfg);
        }
    }
    test_limits();
    test_truncations(argv[1]);

    const char *names[] = {"max.yaml", "over.yaml", "full.yaml", "big.yaml", "empty.yaml", "comments.yaml", "tiny.yaml", "cut.yaml", "deep.yaml"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    return TEST_DONE("config");
}
