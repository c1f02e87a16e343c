/* arb_num.c — numbers from text, bounded (arb_num.h). */
#include "arb_num.h"
#include "arb_error.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

int arb_parse_ll(const char *s, long long min, long long max, long long *out)
{
    if (!s)
        return ARB_EINVAL;
    const char *d = s[0] == '-' ? s + 1 : s;
    if (*d < '0' || *d > '9')            /* strtoll would skip spaces, take '+' */
        return ARB_EINVAL;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0')
        return ARB_EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return ARB_ERANGE;
    *out = v;
    return 0;
}

int arb_parse_int(const char *s, int min, int max, int *out)
{
    long long v;
    int rc = arb_parse_ll(s, min, max, &v);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

int arb_parse_double(const char *s, double *out)
{
    if (!s || !s[0] || s[0] == ' ' || s[0] == '\t' || s[0] == '\n')
        return ARB_EINVAL;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end != '\0' || end == s)
        return ARB_EINVAL;
    if (errno == ERANGE || !isfinite(v))
        return ARB_ERANGE;
    *out = v;
    return 0;
}

long long arb_num_or(const char *s, long long dflt)
{
    long long v;
    return arb_parse_ll(s, LLONG_MIN, LLONG_MAX, &v) == 0 ? v : dflt;
}

long long arb_cell_int(const char *s)
{
    return arb_num_or(s, 0);
}

double arb_cell_float(const char *s)
{
    double v = 0;
    if (arb_parse_double(s, &v) != 0)
        return 0;
    return v;
}
