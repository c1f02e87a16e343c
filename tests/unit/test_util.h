/* test_util.h — the tiny check macros shared by the unit tests: each failed
 * check prints file:line and the expression; main prints the closing line
 * "<name>: N passed, M failed" and exits nonzero on failure. */
#ifndef ARB_TEST_UTIL_H
#define ARB_TEST_UTIL_H
#include <stdio.h>

static int t_passed, t_failed;

#define CHECK(cond) do { if (cond) t_passed++; else { t_failed++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECKF(cond, ...) do { if (cond) t_passed++; else { t_failed++; \
    fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)
/* Sanitizer builds: their binaries reserve terabytes of shadow address
 * space, so tests that start them under RLIMIT_AS lift that limit, and
 * skip what would then allocate without bound. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/* Descriptors this process has open (a test that starts and stops bots
 * checks none is left). */
#include <dirent.h>
static inline int test_open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1;   /* the directory's own descriptor */
}

#define TEST_DONE(name) (printf("%s: %d passed, %d failed\n", name, t_passed, t_failed), t_failed ? 1 : 0)

#endif
