/* bundle.c — bot programs packed, named by digest, fetched and cached (bundle.h). */
#include "bundle.h"
#include "bundle_int.h"
#include "wire.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_mp.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdir_mode(const char *path)
{
    /* 0755 whatever the umask: bots run under uids of their own and must
     * reach their programs */
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    return chmod(path, 0755);
}

void bundle_digest(const uint8_t *b, size_t len, char digest[65])
{
    arb_sha256_hex(b, len, digest);
}

static int read_all(const char *path, uint8_t **out, size_t *len, mode_t *mode, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0)
        return ARB_EIO;
    int rc = ARB_EIO;
    uint8_t *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        goto out;
    /* The file opened must be the one its (resolved) path names: a
     * directory on the way swapped for a link after the path was
     * resolved and checked (bundle_confine) would lead anywhere. Where
     * /proc is missing, O_NOFOLLOW alone guards the last component. */
    char proc[64], actual[PATH_MAX];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    ssize_t an = readlink(proc, actual, sizeof actual - 1);
    if (an >= 0) {
        actual[an] = 0;
        if (strcmp(actual, path) != 0) {
            rc = ARB_EINVAL;
            goto out;
        }
    }
    if ((size_t)st.st_size > cap) {
        rc = ARB_ETOOBIG;
        goto out;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        rc = ARB_ENOMEM;
        goto out;
    }
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0)
            goto out;
        got += (size_t)n;
    }
    *out = buf;
    buf = NULL;
    *len = got;
    *mode = st.st_mode & 0111 ? 0755 : 0644;
    rc = 0;
out:
    free(buf);
    close(fd);
    return rc;
}

typedef struct entry {
    const char *rel;
    int idx;
} entry;

static int by_rel(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->rel, ((const entry *)b)->rel);
}

int bundle_build(const char *const *files, int nfiles, uint8_t **out, size_t *len, char digest[65],
                 char rel[][ARB_BUNDLE_MAX_PATH + 1], char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (nfiles < 1 || nfiles > ARB_BUNDLE_MAX_FILES) {
        snprintf(err, errlen, "a program has 1..%d files", ARB_BUNDLE_MAX_FILES);
        return ARB_EINVAL;
    }
    /* The root: the longest directory prefix common to all the files. */
    size_t root = strlen(files[0]);
    for (int i = 0; i < nfiles; i++) {
        if (files[i][0] != '/') {
            snprintf(err, errlen, "%s: not an absolute path", files[i]);
            return ARB_EINVAL;
        }
        size_t k = 0;
        while (k < root && files[i][k] && files[i][k] == files[0][k])
            k++;
        root = k;
    }
    while (root > 0 && files[0][root - 1] != '/')
        root--;
    entry ents[ARB_BUNDLE_MAX_FILES];
    for (int i = 0; i < nfiles; i++) {
        if (!bundle_word_path(files[i] + root)) {
            /* refused here, at the tournament's start, rather than by every
             * worker that would fetch it */
            snprintf(err, errlen, "%s: a program's file names are letters, digits and . _ + - (at most %d bytes)",
                     files[i], ARB_BUNDLE_MAX_PATH);
            return ARB_EINVAL;
        }
        snprintf(rel[i], ARB_BUNDLE_MAX_PATH + 1, "%s", files[i] + root);
        ents[i] = (entry){rel[i], i};
    }
    qsort(ents, (size_t)nfiles, sizeof *ents, by_rel);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int n = 0;
    for (int i = 0; i < nfiles; i++)   /* the same file named twice is packed once */
        n += i == 0 || strcmp(ents[i].rel, ents[i - 1].rel) != 0;
    msgpack_pack_array(&pk, (size_t)n);
    int rc = 0;
    for (int i = 0; i < nfiles; i++) {
        if (i > 0 && strcmp(ents[i].rel, ents[i - 1].rel) == 0)
            continue;
        uint8_t *data = NULL;
        size_t dlen = 0;
        mode_t mode = 0644;
        rc = read_all(files[ents[i].idx], &data, &dlen, &mode, ARB_BUNDLE_MAX_FILE_BYTES);
        if (rc) {
            snprintf(err, errlen, "%s: %s", files[ents[i].idx],
                     rc == ARB_ETOOBIG ? "too large to ship"
                     : rc == ARB_EINVAL ? "reached through a symbolic link (changed since it was resolved): refused"
                     : "cannot read");
            goto out;
        }
        msgpack_pack_array(&pk, 3);
        msgpack_pack_str_with_body(&pk, ents[i].rel, strlen(ents[i].rel));
        msgpack_pack_uint32(&pk, (uint32_t)mode);
        msgpack_pack_bin_with_body(&pk, data, dlen);
        free(data);
        if (sb.size > ARB_WIRE_MAX_BUNDLE) {
            snprintf(err, errlen, "program of %s is over %zu bytes", files[0], (size_t)ARB_WIRE_MAX_BUNDLE);
            rc = ARB_ETOOBIG;
            goto out;
        }
    }
    bundle_digest((const uint8_t *)sb.data, sb.size, digest);
    *out = (uint8_t *)sb.data;
    *len = sb.size;
    return 0;
out:
    msgpack_sbuffer_destroy(&sb);
    return rc;
}

int bundle_confine(const char *root, const char *base, const char *name, char *resolved, size_t cap, char *why,
                   size_t whylen)
{
    if (root[0] != '/') {   /* a configuration not made by the loader: nothing to confine to */
        snprintf(why, whylen, "has no tournament tree to lie in");
        return ARB_EINVAL;
    }
    if (name[0] == '/') {
        snprintf(why, whylen, "is an absolute path");
        return ARB_EINVAL;
    }
    char dir[PATH_MAX], lex[PATH_MAX + 2], real[PATH_MAX];
    if (!realpath(base, dir)) {
        snprintf(why, whylen, "cannot be read: %s: %s", base, strerror(errno));
        return ARB_EINVAL;
    }
    /* By the letter first: BASE/NAME with "." and ".." folded must stay
     * under root, even when nothing of it exists yet. */
    size_t len = strlen(dir);
    memcpy(lex, dir, len + 1);
    for (const char *c = name; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            while (len > 0 && lex[len - 1] != '/')
                len--;
            if (len > 1)
                len--;   /* the slash, unless it is the root's */
            lex[len] = 0;
        } else if (n > 0 && !(n == 1 && c[0] == '.')) {
            if (len + 1 + n >= sizeof lex) {
                snprintf(why, whylen, "a path longer than %d bytes", PATH_MAX);
                return ARB_EINVAL;
            }
            if (lex[len - 1] != '/')
                lex[len++] = '/';
            memcpy(lex + len, c, n);
            len += n;
            lex[len] = 0;
        }
        c += n;
        c += *c == '/';
    }
    size_t rl = strlen(root);
    bool root_is_slash = strcmp(root, "/") == 0;
    if (!root_is_slash && !(strncmp(lex, root, rl) == 0 && lex[rl] == '/')) {
        snprintf(why, whylen, "climbs out with \"..\"");
        return ARB_EINVAL;
    }
    if (!realpath(lex, real)) {
        snprintf(why, whylen, "cannot be read: %s", strerror(errno));
        return errno == ENOENT || errno == ENOTDIR ? ARB_ENOTFOUND : ARB_EINVAL;
    }
    /* then where it really is: a symbolic link (the file, or a directory
     * on its way) may point anywhere */
    if (!root_is_slash && !(strncmp(real, root, rl) == 0 && real[rl] == '/')) {
        snprintf(why, whylen, "resolves to %s (a symbolic link out)", real);
        return ARB_EINVAL;
    }
    if (strlen(real) >= cap) {
        snprintf(why, whylen, "a path longer than %zu bytes", cap - 1);
        return ARB_EINVAL;
    }
    memcpy(resolved, real, strlen(real) + 1);
    return 0;
}

bool bundle_cached(const char *cache_dir, const char *digest)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", cache_dir, digest);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A path's shape, with the characters a component may hold beyond
 * [A-Za-z0-9._+-] (extra) and whether a component may begin or end with a
 * space (never). */
static bool path_ok(const char *p, const char *extra)
{
    if (!*p || *p == '/' || strlen(p) > ARB_BUNDLE_MAX_PATH)
        return false;
    const char *c = p;
    while (*c) {
        size_t n = strcspn(c, "/");
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        if (c[0] == ' ' || c[n - 1] == ' ')
            return false;
        for (size_t i = 0; i < n; i++) {
            char ch = c[i];
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.'
                  || ch == '_' || ch == '-' || ch == '+' || (ch && strchr(extra, ch))))
                return false;
        }
        c += n;
        if (*c == '/')
            c++;
        if (!*c && c[-1] == '/')
            return false;
    }
    return true;
}

bool bundle_safe_path(const char *p)
{
    /* what packages ship: setuptools' "launcher manifest.xml" and
     * "script (dev).tmpl" are in every default venv of Python 3.11 */
    return path_ok(p, " (),=@~[]{}!%#&");
}

bool bundle_word_path(const char *p)
{
    return path_ok(p, "");
}

static int mkdirs_for(const char *base, const char *rel)
{
    char path[1400];
    snprintf(path, sizeof path, "%.1000s/%.255s", base, rel);
    for (char *s = path + strlen(base) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = 0;
        if (mkdir_mode(path) != 0)
            return ARB_EIO;
        *s = '/';
    }
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* A half-unpacked directory of our own (a mkdtemp name), links not followed. */
static void remove_tree(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A system call's failure as an arbiter error: a full disk (or quota),
 * which an operator frees, apart from any other. */
static int io_error(int e)
{
    return e == ENOSPC || e == EDQUOT ? ARB_EDISKFULL : ARB_EIO;
}

int bundle_unpack(const uint8_t *b, size_t len, const char *digest, const char *cache_dir, char *err,
                  size_t errlen)
{
    char got[65];
    bundle_digest(b, len, got);
    if (strcmp(got, digest) != 0) {
        snprintf(err, errlen, "bundle does not match its digest %.12s (it is %.12s)", digest, got);
        return ARB_ECORRUPT;
    }
    if (bundle_cached(cache_dir, digest))
        return 0;
    /* The cache itself 0711: a bot may pass through to its own program
     * (a digest it cannot guess), never list the others'. */
    if (mkdir(cache_dir, 0711) == 0 || errno == EEXIST)
        chmod(cache_dir, 0711);
    char tmp[1024], final[1024];
    snprintf(tmp, sizeof tmp, "%s/.tmp-%.16s-XXXXXX", cache_dir, digest);
    snprintf(final, sizeof final, "%s/%s", cache_dir, digest);
    /* every rule bundle_check has, before anything is written: safe
     * paths, none under a file or a link, links inside */
    bundle_ent *ents;
    uint32_t n;
    char why[512];
    int rc = bundle_index(b, len, &ents, &n, NULL, why, sizeof why);
    if (rc) {
        snprintf(err, errlen, "bundle %.12s: %s", digest, why);
        return rc == ARB_ENOMEM ? ARB_ENOMEM : ARB_ECORRUPT;
    }
    if (!mkdtemp(tmp) || chmod(tmp, 0755) != 0) {   /* a name of our own: no stale directory is reused */
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        free(ents);
        return io_error(errno);
    }
    for (uint32_t i = 0; i < n; i++) {
        char rel[ARB_BUNDLE_MAX_PATH + 1], path[1400];
        memcpy(rel, ents[i].path, ents[i].plen);
        rel[ents[i].plen] = 0;
        const uint8_t *data = ents[i].data;
        uint32_t blen = ents[i].dlen;
        mode_t mode = (mode_t)ents[i].mode;
        snprintf(path, sizeof path, "%.1000s/%.255s", tmp, rel);
        if (mkdirs_for(tmp, rel) != 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            rc = io_error(errno);
            goto fail;
        }
        if (ents[i].mode == BUNDLE_MODE_LINK) {
            char target[ARB_BUNDLE_MAX_LINK + 1];
            memcpy(target, data, blen);
            target[blen] = 0;
            if (symlink(target, path) != 0) {
                snprintf(err, errlen, "%s: %s", path, strerror(errno));
                rc = errno == EEXIST ? ARB_ECORRUPT : io_error(errno);
                goto fail;
            }
            continue;
        }
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
        if (fd < 0) {
            snprintf(err, errlen, "%s: %s", path, errno == EEXIST ? "named twice in the bundle" : strerror(errno));
            rc = errno == EEXIST ? ARB_ECORRUPT : io_error(errno);
            goto fail;
        }
        size_t off = 0;
        int cause = 0;
        while (off < blen) {
            ssize_t w = write(fd, data + off, blen - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                cause = w < 0 ? errno : EIO;
                break;
            }
            off += (size_t)w;
        }
        fchmod(fd, mode);   /* whatever the umask said */
        if (close(fd) != 0 && !cause)
            cause = errno;
        if (cause) {   /* named: "No space left on device" says what to do */
            snprintf(err, errlen, "%s: %s", path, strerror(cause));
            rc = io_error(cause);
            goto fail;
        }
    }
    if (rename(tmp, final) != 0) {
        if (bundle_cached(cache_dir, digest)) {   /* another slot unpacked it first */
            remove_tree(tmp);
            free(ents);
            return 0;
        }
        snprintf(err, errlen, "%s: %s", final, strerror(errno));
        rc = ARB_EIO;
        goto fail;
    }
    free(ents);
    return 0;
fail:
    remove_tree(tmp);
    free(ents);
    return rc;
}

/* ---- What belongs to the system, not to an entrant -------------------- */

static const char *const system_dirs[] = {"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/etc/", NULL};

bool bundle_system_path(const char *path)
{
    for (int i = 0; system_dirs[i]; i++)
        if (strncmp(path, system_dirs[i], strlen(system_dirs[i])) == 0)
            return true;
    return false;
}

/* A tree that can be hidden from bots: absolute, neither "/" nor one of
 * the system's directories nor a directory holding one (bots need the
 * system to run). */
bool bundle_hideable_tree(const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    if (n < 2 || dir[0] != '/' || bundle_system_path(dir))
        return false;
    for (int i = 0; system_dirs[i]; i++)
        if (strncmp(system_dirs[i], dir, n) == 0 && (dir[n - 1] == '/' || system_dirs[i][n] == '/'))
            return false;   /* an ancestor of a system directory (or the same) */
    return true;
}

