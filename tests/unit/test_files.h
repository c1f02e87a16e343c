/* test_files.h — files for the tests that read corpora and write scratch
 * files (test_conf, test_config): whole files through arbiter's own bounded
 * reader, a trailing newline cut, a file written whole. */
#ifndef ARB_TEST_FILES_H
#define ARB_TEST_FILES_H
#include "arb_file.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file, whole and NUL-terminated (the caller frees it), or NULL. */
static inline char *test_slurp(const char *path, size_t *lenp)
{
    char *s = NULL, err[256];
    size_t len = 0;
    if (arb_read_file(path, 64u << 20, "a test file", &s, &len, err, sizeof err) != 0)
        return NULL;
    if (lenp)
        *lenp = len;
    return s;
}

static inline void test_chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

static inline bool test_write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Show the first line where two texts differ. */
static inline void test_show_diff(const char *what, const char *want, const char *got)
{
    int line = 1;
    const char *w = want, *g = got;
    while (*w && *w == *g) {
        line += *w == '\n';
        w++;
        g++;
    }
    while (w > want && w[-1] != '\n') w--;
    while (g > got && g[-1] != '\n') g--;
    fprintf(stderr, "%s: line %d differs\n  want: %.*s\n  got:  %.*s\n", what, line, (int)strcspn(w, "\n"), w,
            (int)strcspn(g, "\n"), g);
}

static inline int test_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rule-file runners' walk: a file runs as itself; a directory runs
 * every *.txt in it, in name order. The number of files run (0: a
 * directory without any, which a runner counts as a failure). */
static inline int test_each_txt(const char *path, void (*run_file)(const char *file))
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        run_file(path);
        return 1;
    }
    DIR *d = opendir(path);
    char *names[256];
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < 256;) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".txt") == 0) {
            names[n] = malloc(strlen(path) + l + 2);
            if (names[n])
                snprintf(names[n++], strlen(path) + l + 2, "%s/%s", path, e->d_name);
        }
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof names[0], test_cmp_names);
    for (int i = 0; i < n; i++) {
        run_file(names[i]);
        free(names[i]);
    }
    return n;
}

/* The rule-file runners' reading: each line of `file` without its comment
 * (from `#`) and leading blanks, blank lines skipped, given to fn with its
 * number in *lineno. False when the file cannot be opened. */
static inline bool test_each_directive(const char *file, int *lineno, void (*fn)(void *ctx, char *line), void *ctx)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    static char line[1 << 16];
    *lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++*lineno;
        line[strcspn(line, "\r\n")] = 0;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p)
            fn(ctx, p);
    }
    fclose(f);
    return true;
}

#endif
