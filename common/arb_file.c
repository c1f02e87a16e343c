/* arb_file.c — the bounded whole-file reader (arb_file.h). */
#include "arb_file.h"
#include "arb_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arb_read_file(const char *path, size_t max, char **out, size_t *len, char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    int rc = 0;
    char *buf = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    /* One byte more than allowed tells a file at the cap from a longer one. */
    buf = malloc(max + 2);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = ARB_ENOMEM;
        goto out;
    }
    size_t n = fread(buf, 1, max + 1, f);
    if (ferror(f)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = ARB_EIO;
        goto out;
    }
    if (n > max) {
        snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
        rc = ARB_ETOOBIG;
        goto out;
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    buf = NULL;
out:
    free(buf);
    fclose(f);
    return rc;
}
