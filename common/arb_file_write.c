/* arb_file_write.c — writing where a user points without following
 * another user's links: the report's directory, export's archive,
 * transcripts get's file (arb_file.h, "writing where a user points"). */
#include "arb_file.h"
#include "arb_error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int io_error(int cause)
{
    return cause == ENOSPC || cause == EDQUOT ? ARB_EDISKFULL : ARB_EIO;
}

/* Why names looked up in this directory cannot be trusted (another user
 * can swap them), or NULL when they can: root's or the caller's, and
 * closed to group and others unless sticky (there an entry is its
 * owner's to rename or remove). */
static const char *untrusted(const struct stat *st, char *why, size_t len)
{
    if (!S_ISDIR(st->st_mode))
        snprintf(why, len, "not a directory");
    else if (st->st_uid != 0 && st->st_uid != geteuid())
        snprintf(why, len, "owned by uid %d, neither you (uid %d) nor root, who could swap what is under it: "
                 "choose a directory of yours", (int)st->st_uid, (int)geteuid());
    else if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
        snprintf(why, len, "writable by others (mode %04o, no sticky bit), who could swap what is under it: "
                 "choose a directory only you can write", (unsigned)(st->st_mode & 07777));
    else
        return NULL;
    return why;
}

/* Why a directory to write into is not the caller's alone, or NULL.
 * todo: what to do instead. */
static const char *not_own(const struct stat *st, const char *todo, char *why, size_t len)
{
    if (!S_ISDIR(st->st_mode))
        snprintf(why, len, "not a directory: %s", todo);
    else if (st->st_uid != geteuid())
        snprintf(why, len, "owned by uid %d, not you (uid %d): choose a directory you own, or %s",
                 (int)st->st_uid, (int)geteuid(), todo);
    else if (st->st_mode & (S_IWGRP | S_IWOTH))
        snprintf(why, len, "writable by others (mode %04o): choose a directory only you can write, or %s",
                 (unsigned)(st->st_mode & 07777), todo);
    else
        return NULL;
    return why;
}

/* path split into its directory and its last name (trailing slashes
 * dropped). False when it names no entry of a directory ("", "/"). */
static bool split_path(const char *path, char *dir, size_t dlen, char *name, size_t nlen)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *end = path + n, *slash = memrchr(path, '/', n);
    const char *base = slash ? slash + 1 : path;
    if (base == end || (size_t)(end - base) >= nlen || n >= dlen)
        return false;
    snprintf(name, nlen, "%.*s", (int)(end - base), base);
    if (!slash)
        snprintf(dir, dlen, ".");
    else if (slash == path)
        snprintf(dir, dlen, "/");
    else
        snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
    return true;
}

/* Every directory in which a name of dir is looked up, as the path is
 * written (links followed, as the kernel will): trusted (untrusted()),
 * and every link on the way root's or the caller's.
 * Stops at the first that does not exist (made later, by us). */
static int check_lookups(const char *dir, char *err, size_t errlen)
{
    char prefix[PATH_MAX], why[256];
    size_t n = strlen(dir);
    if (n >= sizeof prefix) {
        snprintf(err, errlen, "%.80s...: path too long", dir);
        return ARB_EINVAL;
    }
    snprintf(prefix, sizeof prefix, "%s", dir[0] == '/' ? "/" : ".");
    for (size_t i = 1; i <= n + 1; i++) {
        struct stat st;
        if (lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode) && st.st_uid != 0 && st.st_uid != geteuid()) {
            /* planted in a sticky directory (/tmp): followed, it would
             * choose where we write */
            snprintf(err, errlen, "%s is a symbolic link of uid %d's, neither you (uid %d) nor root: "
                     "name the directory itself", prefix, (int)st.st_uid, (int)geteuid());
            return ARB_EINVAL;
        }
        if (stat(prefix, &st) != 0) {
            if (errno == ENOENT)
                return 0;
            snprintf(err, errlen, "%s: %s", prefix, strerror(errno));
            return ARB_EIO;
        }
        if (untrusted(&st, why, sizeof why)) {
            snprintf(err, errlen, "%s is %s", prefix, why);
            return ARB_EINVAL;
        }
        while (i < n && dir[i] != '/')
            i++;
        if (i > n)
            break;   /* dir itself checked too: a link at its last name */
        snprintf(prefix, sizeof prefix, "%.*s", (int)i, dir);
    }
    return 0;
}

/* The longest part of dir that exists, canonical (realpath), in real,
 * and the rest in rest (names to make, no "." or ".."). */
static int canonical(const char *dir, char *real, char *rest, size_t len, char *err, size_t errlen)
{
    char head[PATH_MAX];
    snprintf(head, sizeof head, "%s", dir);
    rest[0] = 0;
    while (!realpath(head, real)) {
        char *slash = strrchr(head, '/');
        if (errno != ENOENT || !slash || slash == head) {
            snprintf(err, errlen, "%s: %s", head, strerror(errno));
            return ARB_EIO;
        }
        const char *name = slash + 1;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            snprintf(err, errlen, "%s: \"%s\" after a directory that does not exist", dir, name);
            return ARB_EINVAL;
        }
        char tail[PATH_MAX];
        snprintf(tail, sizeof tail, "%s%s%s", name, rest[0] ? "/" : "", rest);
        snprintf(rest, len, "%s", tail);
        *slash = 0;
    }
    return 0;
}

/* dir opened from / one directory at a time without following links,
 * each checked on its descriptor (a swap after check_lookups is caught
 * here); the missing ones made (0755) when create. A descriptor, or < 0
 * with a message. */
static int walk_open(const char *dir, bool create, char *err, size_t errlen)
{
    char real[PATH_MAX], rest[PATH_MAX], full[2 * PATH_MAX + 2], why[256];
    int rc = check_lookups(dir, err, errlen);
    if (rc || (rc = canonical(dir, real, rest, sizeof rest, err, errlen)) != 0)
        return rc;
    snprintf(full, sizeof full, "%s/%s", real, rest);
    int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    char *save = NULL;
    for (char *name = strtok_r(full, "/", &save); fd >= 0 && name; name = strtok_r(NULL, "/", &save)) {
        int next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 && errno == ENOENT && create && (mkdirat(fd, name, 0755) == 0 || errno == EEXIST))
            next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        int cause = next < 0 || fstat(next, &st) != 0 ? errno : 0;
        const char *bad = cause == ELOOP || cause == ENOTDIR ? "a symbolic link or not a directory (never followed)"
                        : cause ? strerror(cause) : untrusted(&st, why, sizeof why);
        close(fd);
        fd = next;
        if (bad) {
            snprintf(err, errlen, "%s (in %s) is %s", name, dir, bad);
            if (fd >= 0)
                close(fd);
            return cause && cause != ELOOP && cause != ENOTDIR ? ARB_EIO : ARB_EINVAL;
        }
    }
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return ARB_EIO;
    }
    return fd;
}

/* Directory name of dirfd, opened without following a link and checked
 * as the caller's alone; made (0755) when missing. */
static int own_dir_at(int dirfd, const char *name, const char *shown, const char *todo, int *out, char *err,
                      size_t errlen)
{
    *out = -1;
    bool made = mkdirat(dirfd, name, 0755) == 0;
    if (!made && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create it: %s", shown, strerror(errno));
        return io_error(errno);
    }
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int cause = errno;
        snprintf(err, errlen, "%s: %s", shown, cause == ELOOP || cause == ENOTDIR
                 ? "a symbolic link or not a directory (never followed): remove it, or name another directory"
                 : strerror(cause));
        return cause == ELOOP || cause == ENOTDIR ? ARB_EINVAL : ARB_EIO;
    }
    struct stat st;
    char why[256];
    const char *bad = fstat(fd, &st) != 0 ? strerror(errno) : not_own(&st, todo, why, sizeof why);
    if (!bad && made && fchmod(fd, 0755) != 0)   /* past the umask: a report is to be read */
        bad = strerror(errno);
    if (bad) {
        snprintf(err, errlen, "%s is %s", shown, bad);
        close(fd);
        return ARB_EINVAL;
    }
    *out = fd;
    return 0;
}

int arb_wdir_open(const char *path, const char *cmd, int *dirfd, char *err, size_t errlen)
{
    *dirfd = -1;
    char dir[PATH_MAX], name[NAME_MAX + 1], real[PATH_MAX], todo[128];
    if (!split_path(path, dir, sizeof dir, name, sizeof name)) {
        snprintf(err, errlen, "%s -o \"%.80s\": name a directory", cmd, path);
        return ARB_EINVAL;
    }
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {   /* -o . : the directory it is */
        if (!realpath(path, real) || !split_path(real, dir, sizeof dir, name, sizeof name)) {
            snprintf(err, errlen, "%s -o %s: %s", cmd, path, strerror(errno));
            return ARB_EIO;
        }
    }
    int pfd = walk_open(dir, true, err, errlen);
    if (pfd < 0)
        return pfd;
    snprintf(todo, sizeof todo, "let %s create it (name one that does not exist)", cmd);
    struct stat st;
    int rc;
    if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
        snprintf(err, errlen, "%s is a symbolic link (never followed): name the directory itself, or %s", path, todo);
        rc = ARB_EINVAL;
    } else {
        rc = own_dir_at(pfd, name, path, todo, dirfd, err, errlen);
    }
    close(pfd);
    return rc;
}

int arb_fd_path(int fd, char *out, size_t len)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, len);
    if (n <= 0 || (size_t)n >= len || out[0] != '/')
        return -1;
    out[n] = 0;
    return 0;
}

int arb_wdir_sub(int dirfd, const char *name, const char *shown, int *subfd, char *err, size_t errlen)
{
    return own_dir_at(dirfd, name, shown, "remove it", subfd, err, errlen);
}

/* A fresh file beside name in dirfd (".NAME.RANDOM", O_EXCL: never an
 * entry that was there, never through a link), 0600; its name in tmp. */
static int fresh_file(int dirfd, const char *name, char tmp[256])
{
    for (int tries = 0; tries < 16; tries++) {
        uint64_t r = 0;
        if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
            return -1;
        snprintf(tmp, 256, ".%.200s.%012llx", name, (unsigned long long)(r & 0xffffffffffffULL));
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

static int write_all(int fd, const void *data, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t n = write(fd, (const char *)data + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0 ? (errno = ENOSPC, -1) : -1;
        off += (size_t)n;
    }
    return 0;
}

int arb_wdir_put(int dirfd, const char *name, const void *data, size_t len, unsigned mode, const char *shown,
                 char *err, size_t errlen)
{
    char tmp[256];
    int fd = fresh_file(dirfd, name, tmp);
    int cause = 0;
    if (fd < 0)
        cause = errno;
    else if (fchmod(fd, (mode_t)mode) != 0 || write_all(fd, data, len) != 0)
        cause = errno;
    if (fd >= 0 && close(fd) != 0 && !cause)
        cause = errno;
    if (!cause && renameat(dirfd, tmp, dirfd, name) != 0)
        cause = errno;
    if (cause) {
        if (fd >= 0)
            unlinkat(dirfd, tmp, 0);
        snprintf(err, errlen, "%s: %s", shown, strerror(cause));
        return io_error(cause);
    }
    return 0;
}

int arb_out_open(arb_out *o, const char *path, unsigned mode, char *err, size_t errlen)
{
    *o = (arb_out){.fd = -1, .dirfd = -1, .mode = mode};
    char dir[PATH_MAX], name[sizeof o->name];
    if (!split_path(path, dir, sizeof dir, name, sizeof name) || strcmp(name, ".") == 0
        || strcmp(name, "..") == 0 || strlen(path) >= sizeof o->path) {
        snprintf(err, errlen, "\"%.80s\": name a file", path);
        return ARB_EINVAL;
    }
    int dirfd = walk_open(dir, false, err, errlen);
    if (dirfd < 0)
        return dirfd;
    int rc = arb_out_openat(o, dirfd, name, path, mode, err, errlen);
    close(dirfd);
    return rc;
}

int arb_out_openat(arb_out *o, int dirfd, const char *name, const char *shown, unsigned mode, char *err,
                   size_t errlen)
{
    *o = (arb_out){.fd = -1, .dirfd = -1, .mode = mode};
    snprintf(o->path, sizeof o->path, "%s", shown);
    if (strlen(name) >= sizeof o->name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        snprintf(err, errlen, "\"%.80s\": name a file", shown);
        return ARB_EINVAL;
    }
    snprintf(o->name, sizeof o->name, "%s", name);
    o->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (o->dirfd < 0) {
        snprintf(err, errlen, "%s: %s", shown, strerror(errno));
        return io_error(errno);
    }
    struct stat st;
    if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
        /* a device (/dev/full) or a FIFO would be replaced by the rename */
        snprintf(err, errlen, "%s is %s", shown, S_ISLNK(st.st_mode)
                 ? "a symbolic link (never followed): name the file itself"
                 : S_ISDIR(st.st_mode) ? "a directory: name a file"
                 : "not a regular file (a device, a FIFO or a socket is never replaced): name a file");
        arb_out_abort(o);
        return ARB_EINVAL;
    }
    o->fd = fresh_file(o->dirfd, o->name, o->tmp);
    if (o->fd < 0) {
        snprintf(err, errlen, "%s: cannot create a file beside it: %s", shown, strerror(errno));
        int rc = io_error(errno);
        o->tmp[0] = 0;
        arb_out_abort(o);
        return rc;
    }
    return 0;
}

FILE *arb_out_fopen(arb_out *o, const char *path, unsigned mode, char *err, size_t errlen)
{
    if (arb_out_open(o, path, mode, err, errlen) != 0)
        return NULL;
    o->f = fdopen(o->fd, "w");
    if (!o->f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        arb_out_abort(o);
    }
    return o->f;
}

int arb_out_commit(arb_out *o, char *err, size_t errlen)
{
    int cause = 0;
    if (o->f && (fflush(o->f) != 0 || ferror(o->f)))
        cause = errno ? errno : EIO;
    if (!cause && (fchmod(o->fd, (mode_t)o->mode) != 0 || fsync(o->fd) != 0))
        cause = errno;
    int closed = o->f ? fclose(o->f) : close(o->fd);   /* the stream closes the descriptor */
    if (closed != 0 && !cause)
        cause = errno;
    o->f = NULL;
    o->fd = -1;
    if (!cause && renameat(o->dirfd, o->tmp, o->dirfd, o->name) != 0)
        cause = errno;
    if (!cause)
        o->tmp[0] = 0;
    else
        snprintf(err, errlen, "%s: %s", o->path, strerror(cause));
    arb_out_abort(o);
    return cause ? io_error(cause) : 0;
}

void arb_out_abort(arb_out *o)
{
    if (o->f)
        fclose(o->f);
    else if (o->fd >= 0)
        close(o->fd);
    if (o->tmp[0] && o->dirfd >= 0)
        unlinkat(o->dirfd, o->tmp, 0);
    if (o->dirfd >= 0)
        close(o->dirfd);
    o->f = NULL;
    o->fd = o->dirfd = -1;
    o->tmp[0] = 0;
}

int arb_write_file(const char *path, const void *data, size_t len, unsigned mode, char *err, size_t errlen)
{
    arb_out o;
    int rc = arb_out_open(&o, path, mode, err, errlen);
    if (rc)
        return rc;
    if (write_all(o.fd, data, len) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = io_error(errno);
        arb_out_abort(&o);
        return rc;
    }
    return arb_out_commit(&o, err, errlen);
}
