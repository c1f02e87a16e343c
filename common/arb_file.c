/* arb_file.c — the bounded whole-file reader and the daemons' directories (arb_file.h). */
#include "arb_file.h"
#include "arb_error.h"

#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

int arb_make_dir(const char *path, unsigned mode, const char *what, char *err, size_t errlen)
{
    char buf[4096];
    struct stat st;
    if (!path[0] || strlen(path) >= sizeof buf) {
        snprintf(err, errlen, "%s \"%.64s\": not a usable path", what, path);
        return ARB_EIO;
    }
    snprintf(buf, sizeof buf, "%s", path);
    /* the parents first, as mkdir -p: a fresh host has no /var/lib/x/y */
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s %s: cannot create %s: %s: create it (owned by uid %d, who runs this daemon) "
                     "or name another directory", what, path, buf, strerror(errno), (int)geteuid());
            return ARB_EIO;
        }
        *p = '/';
    }
    if (mkdir(path, (mode_t)mode) == 0) {
        if (chmod(path, (mode_t)mode) != 0) {   /* past the umask */
            snprintf(err, errlen, "%s %s: chmod %o: %s", what, path, mode, strerror(errno));
            return ARB_EIO;
        }
        return 0;
    }
    if (errno != EEXIST) {
        snprintf(err, errlen, "%s %s: cannot create it: %s: create it (owned by uid %d, who runs this daemon) "
                 "or name another directory", what, path, strerror(errno), (int)geteuid());
        return ARB_EIO;
    }
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s %s: exists and is not a directory: move it aside or name another directory",
                 what, path);
        return ARB_EIO;
    }
    if (access(path, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "%s %s: not writable by uid %d, who runs this daemon (owner uid %d, mode %03o): "
                 "chown it to that user or name another directory", what, path, (int)geteuid(), (int)st.st_uid,
                 (unsigned)(st.st_mode & 0777));
        return ARB_EIO;
    }
    return 0;
}

int arb_others_can_reach(const char *path, int amode, char *blocked, size_t len)
{
    if (geteuid() != 0)
        return -1;
    /* The child walks the ancestors and exits with the length of the first
     * prefix it cannot enter (0: every one, and path itself, reachable). */
    size_t n = strlen(path);
    if (n == 0 || n >= 4096)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
            _exit(255);
        char prefix[4096];
        for (size_t i = 1; i < n; i++)
            if (path[i] == '/') {
                memcpy(prefix, path, i);
                prefix[i] = 0;
                if (access(prefix, X_OK) != 0)
                    _exit(i < 254 ? (int)i : 254);   /* the exit status holds a byte: longer prefixes say 254 */
            }
        _exit(access(path, amode) == 0 ? 0 : 253);
    }
    int status = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) == 255)
        return -1;
    int code = WEXITSTATUS(status);
    if (code == 0)
        return 1;
    if (code == 253 || code == 254) {
        /* path itself, or a prefix too long for the status: find it here by
         * mode bits alone (others' x), the child said there is one */
        snprintf(blocked, len, "%s", path);
        if (code == 254) {
            char prefix[4096];
            for (size_t i = 1; i < n; i++) {
                if (path[i] != '/')
                    continue;
                struct stat st;
                memcpy(prefix, path, i);
                prefix[i] = 0;
                if (stat(prefix, &st) == 0 && !(st.st_mode & S_IXOTH)) {
                    snprintf(blocked, len, "%s", prefix);
                    break;
                }
            }
        }
        return 0;
    }
    /* The child named the first prefix it could not enter. A directory
     * whose mode lets others through, named so, is no answer to trust (a
     * child that exited with a status of its own: under valgrind it
     * exits 1, which read as "/ is closed to others (mode 0755)"): then
     * it cannot be told, and nothing is refused for it. */
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%.*s", code, path);
    struct stat st;
    if (code < 1 || (size_t)code >= n || path[code] != '/'
        || (stat(prefix, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_IXOTH)))
        return -1;
    snprintf(blocked, len, "%s", prefix);
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    int rc = flag == FTW_DP ? rmdir(path) : unlink(path);
    return rc != 0 && errno != ENOENT ? -1 : 0;
}

int arb_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : ARB_EIO;
    if (!S_ISDIR(st.st_mode))
        return unlink(path) == 0 || errno == ENOENT ? 0 : ARB_EIO;
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : ARB_EIO;
}
