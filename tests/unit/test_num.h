/* test_num.h — a number in a test's input (its arguments, its data files)
 * read by strtol with its end and range checked, where atoi would read
 * junk as 0 and a typo as a smaller number. */
#ifndef ARB_TEST_NUM_H
#define ARB_TEST_NUM_H
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* The decimal number text starts with, in [lo, hi]; it must end where the
 * word does (a NUL, a blank or a newline follows). Anything else is a
 * broken test input: said on stderr, and the test exits with 2. */
static inline long test_num(const char *text, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r') || v < lo
        || v > hi) {
        fprintf(stderr, "test input: \"%.40s\" is not a number in %ld..%ld\n", text, lo, hi);
        exit(2);
    }
    return v;
}

#endif
