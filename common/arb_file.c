/* arb_file.c — the bounded whole-file reader (arb_file.h). */
#include "arb_file.h"
#include "arb_error.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int arb_read_file(const char *path, size_t max, const char *what, char **out, size_t *len, char *err,
                  size_t errlen)
{
    *out = NULL;
    *len = 0;
    int rc = 0;
    char *buf = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    /* A regular file says how long it is: one allocation of that size
     * (never more than the cap); anything else (a pipe) grows as it comes.
     * Reading goes on to one byte past the cap either way, which tells a
     * file at the cap from a longer one (or one that grew meanwhile). */
    struct stat st;
    size_t cap = 4096;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > max)
            goto too_big;
        cap = (size_t)st.st_size + 2;
    }
    if (cap > max + 2)
        cap = max + 2;
    size_t n = 0;
    buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = ARB_ENOMEM;
            goto out;
        }
        if (n + 1 == cap) {
            if (cap == max + 2)
                break;
            size_t bigger = cap > (max + 2) / 2 ? max + 2 : cap * 2;
            char *b = realloc(buf, bigger);
            if (!b) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = b;
            cap = bigger;
        }
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            rc = ARB_EIO;
            goto out;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    if (n > max)
        goto too_big;
    buf[n] = 0;
    *out = buf;
    *len = n;
    buf = NULL;
    goto out;
too_big:
    snprintf(err, errlen, "%s: larger than %zu bytes (the limit for %s)", path, max, what ? what : "this file");
    rc = ARB_ETOOBIG;
out:
    free(buf);
    close(fd);
    return rc;
}
