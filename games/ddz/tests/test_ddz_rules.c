/* test_ddz_rules.c — runs the data-driven rule files in games/ddz/tests/data/rules/:
 * each line a position and its expected legal moves, readings or verdicts
 * (format in games/ddz/tests/data/rules/README.md). A file of positions is easier to
 * review against docs/rules/doudizhu.md than code is. */
#include "ddz.h"
#include "test_num.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
static ddz_move *buf;

#define FAIL(...) do { fprintf(stderr, "%s:%d: ", path, lineno); fprintf(stderr, __VA_ARGS__); \
                       fputc('\n', stderr); failed++; return; } while (0)

static const char *path;
static int lineno;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Format one reading as kind:len:R (see README.md). */
static void reading_text(const ddz_move *m, char *out, size_t len)
{
    if (m->rank == 0xff) {
        snprintf(out, len, "undetected");   /* DouZero's TYPE_15_WRONG */
    } else if (m->kind == DDZ_ROCKET || m->kind == DDZ_PASS) {
        snprintf(out, len, "%s", ddz_kind_name(m->kind));
    } else if (m->kind == DDZ_BOMB) {
        if (m->rank == 0) {
            snprintf(out, len, "bomb:small3");
        } else {
            int x = (m->rank - 1) % 13;
            snprintf(out, len, "bomb:%u:%c", m->len, ddz_rank_chars[x]);
        }
    } else if (m->kind == DDZ_PAIR && m->rank >= 13) {
        static const char *const jp[] = {"BB", "BR", "RR"};
        snprintf(out, len, "pair:1:%s", jp[m->rank - 13]);
    } else {
        snprintf(out, len, "%s:%u:%c", ddz_kind_name(m->kind), m->len, ddz_rank_chars[m->rank]);
    }
}

/* Add word to the words in buf (a blank between), cut short at cap. */
static void append_word(char *out, size_t cap, const char *word)
{
    size_t l = strlen(out);
    if (l + 1 < cap)
        snprintf(out + l, cap - l, "%s%s", l ? " " : "", word);
}

/* Parse a list of plays ("pass" allowed) into sorted card sets. */
static int parse_list(const ddz_rules *r, char *text, uint64_t *out, int cap)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        ddz_cards c, p;
        if (n >= cap || ddz_play_parse(r, t, &c, &p))
            return -1;
        out[n++] = c;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_u64);
    return n;
}

static void show_diff(const uint64_t *got, int ng, const uint64_t *want, int nw)
{
    char t[256];
    int i = 0, j = 0, shown = 0;
    while ((i < ng || j < nw) && shown < 12) {
        if (j >= nw || (i < ng && got[i] < want[j])) {
            ddz_cards_format(got[i], t, sizeof t);
            fprintf(stderr, "    unexpected: %s\n", got[i] ? t : "pass");
            i++;
            shown++;
        } else if (i >= ng || want[j] < got[i]) {
            ddz_cards_format(want[j], t, sizeof t);
            fprintf(stderr, "    missing:    %s\n", want[j] ? t : "pass");
            j++;
            shown++;
        } else {
            i++;
            j++;
        }
    }
}

static int prev_reading(const ddz_rules *r, const char *text, ddz_move *prev)
{
    ddz_cards c, p;
    if (ddz_play_parse(r, text, &c, &p) || c == 0)
        return -1;
    return ddz_validate(r, c, NULL, c, p, prev, NULL, 0);
}

/* Every enumerated move must validate with the reading the enumerator gave. */
static int cross_check(const ddz_rules *r, ddz_cards hand, const ddz_move *prev, int n)
{
    for (int i = 0; i < n; i++) {
        ddz_move chosen;
        char why[128];
        if (ddz_validate(r, hand, prev, buf[i].cards, 0, &chosen, why, sizeof why)) {
            char t[128];
            ddz_move_format(&buf[i], t, sizeof t);
            fprintf(stderr, "%s:%d: enumerated %s does not validate: %s\n", path, lineno, t, why);
            return -1;
        }
    }
    return 0;
}

static void run_line(ddz_rules *r, char *line)
{
    char *arrow = strstr(line, "=>");
    char *rhs = NULL;
    if (arrow) {
        *arrow = 0;
        rhs = arrow + 2;
    }
    char *words[4];
    int nw = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && nw < 4; t = strtok_r(NULL, " \t", &save))
        words[nw++] = t;
    if (nw == 0)
        FAIL("empty directive");
    const char *op = words[0];
    static char err[256];

    if (strcmp(op, "@rules") == 0) {
        if (nw != 2 || ddz_rules_preset(r, words[1]))
            FAIL("bad @rules");
        return;
    }
    if (strcmp(op, "@set") == 0) {
        if (nw != 2 || ddz_rules_set_list(r, words[1], err, sizeof err))
            FAIL("bad @set: %s", err);
        return;
    }
    bool is_follow = strncmp(op, "follows", 7) == 0;
    if (strncmp(op, "leads", 5) == 0 || is_follow || strcmp(op, "count") == 0) {
        ddz_cards hand;
        ddz_move prev;
        if (nw < 2 || ddz_cards_parse(r, words[1], &hand))
            FAIL("bad hand");
        int n;
        if (is_follow) {
            if (nw < 3 || prev_reading(r, words[2], &prev))
                FAIL("bad previous play %s", nw < 3 ? "" : words[2]);
            n = ddz_follows(r, hand, &prev, buf, ARB_MAX_MOVES);
        } else {
            n = ddz_leads(r, hand, buf, ARB_MAX_MOVES);
        }
        if (n < 0)
            FAIL("enumeration failed: %s", arb_strerror(n));
        if (cross_check(r, hand, is_follow ? &prev : NULL, n)) {
            failed++;
            return;
        }
        if (!rhs)
            FAIL("missing =>");
        static uint64_t got[ARB_MAX_MOVES], want[ARB_MAX_MOVES];
        for (int i = 0; i < n; i++)
            got[i] = buf[i].cards;
        qsort(got, (size_t)n, sizeof got[0], cmp_u64);
        for (int i = 1; i < n; i++)
            if (got[i] == got[i - 1])
                FAIL("enumerator produced a set of cards twice");
        if (strcmp(op, "count") == 0) {
            int want_n = (int)test_num(rhs, INT_MIN, INT_MAX);
            if (n != want_n)
                FAIL("expected %d leads, got %d", want_n, n);
            passed++;
            return;
        }
        int nwant = parse_list(r, rhs, want, ARB_MAX_MOVES);
        if (nwant < 0)
            FAIL("bad expected list");
        const char *mode = strchr(op, '-') ? strchr(op, '-') + 1 : "";
        if (*mode == 0) {
            if (n != nwant || memcmp(got, want, (size_t)n * sizeof got[0]) != 0) {
                fprintf(stderr, "%s:%d: %s differ (got %d, expected %d)\n", path, lineno, op, n, nwant);
                show_diff(got, n, want, nwant);
                failed++;
                return;
            }
        } else {
            bool has = strcmp(mode, "has") == 0;
            if (!has && strcmp(mode, "lacks") != 0)
                FAIL("unknown directive %s", op);
            for (int j = 0; j < nwant; j++) {
                bool found = bsearch(&want[j], got, (size_t)n, sizeof got[0], cmp_u64) != NULL;
                if (found != has) {
                    char t[128];
                    ddz_cards_format(want[j], t, sizeof t);
                    FAIL("%s: %s %s", op, want[j] ? t : "pass", has ? "missing" : "present");
                }
            }
        }
        passed++;
        return;
    }
    if (strcmp(op, "classify") == 0 || strcmp(op, "illegal") == 0) {
        ddz_cards c, p;
        if (nw != 2 || ddz_play_parse(r, words[1], &c, &p))
            FAIL("bad cards");
        ddz_move rd[64];
        int n = ddz_classify(r, c, rd, 64);
        char got[1024] = "";
        for (int i = 0; i < n; i++) {
            char t[64];
            reading_text(&rd[i], t, sizeof t);
            append_word(got, sizeof got, t);
        }
        if (strcmp(op, "illegal") == 0) {
            if (n != 0)
                FAIL("expected no reading, got %s", got);
            passed++;
            return;
        }
        char want[1024] = "";
        for (char *save = NULL, *t = strtok_r(rhs ? rhs : (char *)"", " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
            append_word(want, sizeof want, t);
        }
        if (strcmp(got, want) != 0)
            FAIL("readings: expected \"%s\", got \"%s\"", want, got);
        passed++;
        return;
    }
    if (strcmp(op, "beats") == 0 || strcmp(op, "nobeat") == 0 || strcmp(op, "reads") == 0) {
        ddz_cards c, p;
        ddz_move prev, chosen;
        if (nw < 2 || ddz_play_parse(r, words[1], &c, &p))
            FAIL("bad play");
        bool follow = nw >= 3;
        if (follow && prev_reading(r, words[2], &prev))
            FAIL("bad previous play %s", words[2]);
        char why[128] = "";
        int rc = ddz_validate(r, c, follow ? &prev : NULL, c, p, &chosen, why, sizeof why);
        if (strcmp(op, "nobeat") == 0) {
            if (rc == 0)
                FAIL("%s should not beat %s", words[1], words[2]);
        } else if (rc != 0) {
            FAIL("%s rejected: %s", words[1], why);
        } else if (strcmp(op, "reads") == 0) {
            char t[64], w[64] = "";
            reading_text(&chosen, t, sizeof t);
            if (rhs)
                sscanf(rhs, "%63s", w);
            if (strcmp(t, w) != 0)
                FAIL("reading: expected %s, got %s", w, t);
        }
        passed++;
        return;
    }
    FAIL("unknown directive \"%s\"", op);
}

static void run_file(const char *file)
{
    FILE *f = fopen(file, "r");
    path = file;
    lineno = 0;
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", file);
        failed++;
        return;
    }
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    static char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == 0 || *p == '#')
            continue;
        run_line(&r, p);
    }
    fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory runs every *.txt file in it, in name order. */
static void run_path(const char *p)
{
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(p);
        char *names[512];
        int n = 0;
        for (struct dirent *e; d && (e = readdir(d)) && n < 512;) {
            size_t l = strlen(e->d_name);
            if (l > 4 && strcmp(e->d_name + l - 4, ".txt") == 0) {
                size_t cap = strlen(p) + l + 2;
                names[n] = malloc(cap);
                if (names[n])
                    snprintf(names[n++], cap, "%s/%s", p, e->d_name);
            }
        }
        if (d)
            closedir(d);
        qsort(names, (size_t)n, sizeof names[0], cmp_str);
        for (int i = 0; i < n; i++) {
            run_file(names[i]);
            free(names[i]);
        }
        return;
    }
    run_file(p);
}

int main(int argc, char **argv)
{
    buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    if (!buf)
        return 1;
    if (argc < 2) {
        fprintf(stderr, "usage: test_ddz_rules FILE...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        run_path(argv[i]);
    printf("rules: %d passed, %d failed\n", passed, failed);
    free(buf);
    return failed ? 1 : 0;
}
