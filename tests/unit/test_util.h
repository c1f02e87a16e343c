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
#define TEST_DONE(name) (printf("%s: %d passed, %d failed\n", name, t_passed, t_failed), t_failed ? 1 : 0)

#endif
