/* bundle_tree.c — bundles of any size: a directory packed whole, a bundle
 * from outside checked without unpacking it (its entries, paths, limits and
 * links), and the index both share with bundle_unpack (bundle_int.h). */
#include "bundle.h"
#include "bundle_int.h"
#include "arb_error.h"
#include "arb_mp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Comparing paths that are not NUL-terminated ----------------------- */

static int pcmp(const char *a, size_t al, const char *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : al < bl ? -1 : al > bl ? 1 : 0;
}

/* The first entry not below (key, kl) in the sorted index. */
static uint32_t lower_bound(const bundle_ent *e, uint32_t n, const char *key, size_t kl)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pcmp(e[mid].path, e[mid].plen, key, kl) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The entry named exactly (key, kl), or -1. */
static long find_exact(const bundle_ent *e, uint32_t n, const char *key, size_t kl)
{
    uint32_t i = lower_bound(e, n, key, kl);
    return i < n && e[i].plen == kl && memcmp(e[i].path, key, kl) == 0 ? (long)i : -1;
}

/* Is (key, kl) a directory of the bundle: some entry's path starts with KEY/? */
static bool is_dir(const bundle_ent *e, uint32_t n, const char *key, size_t kl)
{
    char buf[ARB_BUNDLE_MAX_PATH + 2];
    if (kl == 0)
        return true;   /* the root */
    if (kl > ARB_BUNDLE_MAX_PATH)
        return false;
    memcpy(buf, key, kl);
    buf[kl] = '/';
    uint32_t i = lower_bound(e, n, buf, kl + 1);
    return i < n && e[i].plen > kl + 1 && memcmp(e[i].path, buf, kl + 1) == 0;
}

/* An absolute link target a bundle may hold: the system's interpreters and
 * libraries (/usr/..., /bin/...), which every sandbox shows read-only to
 * every bot (a venv's bin/python -> /usr/bin/python3). Clean components
 * only. */
bool bundle_system_target(const char *t, size_t tl)
{
    char buf[ARB_BUNDLE_MAX_LINK + 1];
    if (tl > ARB_BUNDLE_MAX_LINK || tl < 6)
        return false;
    memcpy(buf, t, tl);
    buf[tl] = 0;
    if (strncmp(buf, "/usr/", 5) != 0 && strncmp(buf, "/bin/", 5) != 0)
        return false;
    return bundle_word_path(buf + 1);
}

/* Resolve link i's target as the kernel would inside the unpacked bundle,
 * following the bundle's links: 0 when it ends on a file or directory of the
 * bundle (or a system path, bundle_system_target), else a message. *steps
 * counts components over the whole check (ARB_BUNDLE_MAX_LINK_STEPS). */
static int resolve_link(const bundle_ent *e, uint32_t n, uint32_t li, uint64_t *steps, char *why, size_t whylen)
{
    char cur[ARB_BUNDLE_MAX_PATH + 2];
    char pend[2 * ARB_BUNDLE_MAX_LINK + 4], tmp[sizeof pend];
    size_t cl = 0, pl = 0;
    /* start in the link's directory */
    for (size_t k = e[li].plen; k > 0; k--)
        if (e[li].path[k - 1] == '/') {
            cl = k - 1;
            break;
        }
    memcpy(cur, e[li].path, cl);
    memcpy(pend, e[li].data, e[li].dlen);
    pl = e[li].dlen;
    int hops = 0;
    size_t at = 0;   /* next component in pend */
    while (at < pl) {
        if (++*steps > ARB_BUNDLE_MAX_LINK_STEPS) {
            snprintf(why, whylen, "its links take more than %u steps to resolve", ARB_BUNDLE_MAX_LINK_STEPS);
            return ARB_ETOOBIG;
        }
        size_t s = at;
        while (at < pl && pend[at] != '/')
            at++;
        size_t cn = at - s;
        if (at < pl)
            at++;   /* the slash */
        if (cn == 0 || (cn == 1 && pend[s] == '.'))
            continue;
        if (cn == 2 && pend[s] == '.' && pend[s + 1] == '.') {
            if (cl == 0) {
                snprintf(why, whylen, "leads out of the bundle");
                return ARB_ECORRUPT;
            }
            while (cl > 0 && cur[cl - 1] != '/')
                cl--;
            if (cl > 0)
                cl--;
            continue;
        }
        size_t ol = cl;
        if (cl + (cl > 0) + cn > ARB_BUNDLE_MAX_PATH) {
            snprintf(why, whylen, "names a path longer than %d bytes", ARB_BUNDLE_MAX_PATH);
            return ARB_ECORRUPT;
        }
        if (cl > 0)
            cur[cl++] = '/';
        memcpy(cur + cl, pend + s, cn);
        cl += cn;
        long j = find_exact(e, n, cur, cl);
        if (j >= 0 && e[j].mode == BUNDLE_MODE_LINK) {
            if (++hops > ARB_BUNDLE_MAX_HOPS) {
                snprintf(why, whylen, "goes through more than %d links (a loop?)", ARB_BUNDLE_MAX_HOPS);
                return ARB_ECORRUPT;
            }
            if (e[j].data[0] == '/') {
                /* to the system: what follows is the system's, but never
                 * above it (a/../../etc, a -> /usr/bin, names the host's
                 * /etc: the referee resolves a command's words on the host) */
                for (size_t q = at; q < pl;) {
                    size_t qs = q;
                    while (q < pl && pend[q] != '/')
                        q++;
                    if (q - qs == 2 && pend[qs] == '.' && pend[qs + 1] == '.') {
                        snprintf(why, whylen, "climbs out of the system path %.*s it goes through", (int)cl, cur);
                        return ARB_ECORRUPT;
                    }
                    q++;
                }
                return 0;
            }
            cl = ol;   /* the link's directory */
            size_t rest = pl - at;
            if (e[j].dlen + 1 + rest > sizeof tmp) {
                snprintf(why, whylen, "resolves through a path too long");
                return ARB_ECORRUPT;
            }
            memcpy(tmp, e[j].data, e[j].dlen);
            tmp[e[j].dlen] = '/';
            memcpy(tmp + e[j].dlen + 1, pend + at, rest);
            pl = e[j].dlen + 1 + rest;
            memcpy(pend, tmp, pl);
            at = 0;
            continue;
        }
        if (j >= 0 && at < pl) {   /* a file with more to come: a file is no directory */
            snprintf(why, whylen, "goes through the file %.*s", (int)cl, cur);
            return ARB_ECORRUPT;
        }
    }
    if (find_exact(e, n, cur, cl) >= 0 || is_dir(e, n, cur, cl))
        return 0;
    snprintf(why, whylen, "names nothing in the bundle (%.*s)", (int)cl, cur);
    return ARB_ECORRUPT;
}

int bundle_index(const uint8_t *b, size_t len, bundle_ent **out, uint32_t *count, bundle_info *info, char *err,
                 size_t errlen)
{
    arb_mp r;
    uint32_t n;
    bundle_info in = {0};
    *out = NULL;
    *count = 0;
    if (len > ARB_BUNDLE_MAX_ENCODED) {
        snprintf(err, errlen, "bundle of %zu bytes: over %zu", len, (size_t)ARB_BUNDLE_MAX_ENCODED);
        return ARB_ETOOBIG;
    }
    arb_mp_init(&r, b, len);
    if (arb_mp_array(&r, &n) || n < 1) {
        snprintf(err, errlen, "bundle: not a list of entries [path, mode, bytes]");
        return ARB_ECORRUPT;
    }
    if (n > ARB_BUNDLE_MAX_ENTRIES) {
        snprintf(err, errlen, "bundle: %u entries, over %d", n, ARB_BUNDLE_MAX_ENTRIES);
        return ARB_ETOOBIG;
    }
    bundle_ent *e = calloc(n, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "bundle: out of memory for %u entries", n);
        return ARB_ENOMEM;
    }
    int rc = ARB_ECORRUPT;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t three, pl, dl;
        uint64_t mode;
        const char *p;
        const uint8_t *d;
        char path[ARB_BUNDLE_MAX_PATH + 1];
        if (arb_mp_array(&r, &three) || three != 3 || arb_mp_str(&r, &p, &pl) || arb_mp_uint(&r, &mode)
            || arb_mp_bin(&r, &d, &dl)) {
            snprintf(err, errlen, "bundle entry %u: not [path, mode, bytes]", i);
            goto fail;
        }
        if (pl == 0 || pl > ARB_BUNDLE_MAX_PATH || memchr(p, 0, pl)) {
            snprintf(err, errlen, "bundle entry %u: a path of %u bytes (1..%d, no NUL)", i, pl, ARB_BUNDLE_MAX_PATH);
            goto fail;
        }
        memcpy(path, p, pl);
        path[pl] = 0;
        if (!bundle_safe_path(path)) {
            snprintf(err, errlen, "bundle entry %u (%s): %s", i, path, BUNDLE_SAFE_PATH_RULE);
            goto fail;
        }
        int depth = 1;
        for (uint32_t k = 0; k < pl; k++)
            depth += p[k] == '/';
        if (depth > ARB_BUNDLE_MAX_DEPTH) {
            snprintf(err, errlen, "bundle entry %u (%s): %d deep, over %d", i, path, depth, ARB_BUNDLE_MAX_DEPTH);
            rc = ARB_ETOOBIG;
            goto fail;
        }
        if (depth > in.depth)
            in.depth = depth;
        if (i > 0 && pcmp(e[i - 1].path, e[i - 1].plen, p, pl) >= 0) {
            snprintf(err, errlen, "bundle entry %u (%s): out of order or named twice", i, path);
            goto fail;
        }
        if (mode == 0644 || mode == 0755) {
            if (dl > ARB_BUNDLE_MAX_FILE_BYTES) {
                snprintf(err, errlen, "bundle entry %u (%s): %u bytes, over %u for one file", i, path, dl,
                         ARB_BUNDLE_MAX_FILE_BYTES);
                rc = ARB_ETOOBIG;
                goto fail;
            }
            in.bytes += dl;
            in.files++;
            if (in.bytes > ARB_BUNDLE_MAX_BYTES) {
                snprintf(err, errlen, "bundle entry %u (%s): the files reach %llu bytes, over %u", i, path,
                         (unsigned long long)in.bytes, ARB_BUNDLE_MAX_BYTES);
                rc = ARB_ETOOBIG;
                goto fail;
            }
        } else if (mode == BUNDLE_MODE_LINK) {
            if (dl == 0 || dl > ARB_BUNDLE_MAX_LINK || memchr(d, 0, dl)) {
                snprintf(err, errlen, "bundle entry %u (%s): a link's target of %u bytes (1..%d, no NUL)", i, path,
                         dl, ARB_BUNDLE_MAX_LINK);
                goto fail;
            }
            if (d[0] == '/' && !bundle_system_target((const char *)d, dl)) {
                snprintf(err, errlen, "bundle entry %u (%s): a link to the absolute path %.*s (only /usr/ and /bin/ "
                         "may be named, the system's)", i, path, (int)dl, (const char *)d);
                goto fail;
            }
            in.links++;
        } else {
            snprintf(err, errlen, "bundle entry %u (%s): mode %llo is none of 0644, 0755 (a file), %o (a link)", i,
                     path, (unsigned long long)mode, BUNDLE_MODE_LINK);
            goto fail;
        }
        e[i] = (bundle_ent){p, pl, (uint32_t)mode, d, dl};
    }
    if (arb_mp_left(&r) != 0) {
        snprintf(err, errlen, "bundle: bytes after the last entry");
        goto fail;
    }
    /* no entry under a file or a link: unpacking would write through it */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 1; k < e[i].plen; k++)
            if (e[i].path[k] == '/') {
                long j = find_exact(e, n, e[i].path, k);
                if (j >= 0) {
                    snprintf(err, errlen, "bundle entry %u (%.*s): lies under the %s %.*s", i, (int)e[i].plen,
                             e[i].path, e[j].mode == BUNDLE_MODE_LINK ? "link" : "file", (int)k, e[i].path);
                    goto fail;
                }
            }
    uint64_t steps = 0;
    for (uint32_t i = 0; i < n; i++) {
        char why[200];
        if (e[i].mode != BUNDLE_MODE_LINK || e[i].data[0] == '/')
            continue;
        int lr = resolve_link(e, n, i, &steps, why, sizeof why);
        if (lr) {
            snprintf(err, errlen, "bundle entry %u (%.*s): the link to %.*s%s %s", i, (int)e[i].plen, e[i].path,
                     (int)(e[i].dlen > 120 ? 120 : e[i].dlen), (const char *)e[i].data, e[i].dlen > 120 ? "..." : "",
                     why);
            rc = lr;
            goto fail;
        }
    }
    if (info)
        *info = in;
    *out = e;
    *count = n;
    return 0;
fail:
    free(e);
    return rc;
}

int bundle_check(const uint8_t *b, size_t len, bundle_info *info, char *err, size_t errlen)
{
    bundle_ent *e;
    uint32_t n;
    int rc = bundle_index(b, len, &e, &n, info, err, errlen);
    free(e);
    return rc;
}

int bundle_list(const uint8_t *b, size_t len, void (*each)(void *ctx, const char *path, unsigned mode), void *ctx)
{
    bundle_ent *e;
    uint32_t n;
    char err[256], path[ARB_BUNDLE_MAX_PATH + 1];
    int rc = bundle_index(b, len, &e, &n, NULL, err, sizeof err);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(path, e[i].path, e[i].plen);
        path[e[i].plen] = 0;
        each(ctx, path, e[i].mode);
    }
    free(e);
    return 0;
}

bool bundle_has(const uint8_t *b, size_t len, const char *path, unsigned *mode)
{
    bundle_ent *e;
    uint32_t n;
    char err[256];
    if (bundle_index(b, len, &e, &n, NULL, err, sizeof err))
        return false;
    long j = find_exact(e, n, path, strlen(path));
    if (j >= 0 && mode)
        *mode = e[j].mode;
    free(e);
    return j >= 0;
}

/* ---- Packing entries gathered from a tree or an archive ---------------- */

void bundle_ents_free(bundle_src *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].path);
        free(s->v[i].data);
    }
    free(s->v);
    *s = (bundle_src){0};
}

int bundle_ents_add(bundle_src *s, const char *path, unsigned mode, uint8_t *data, size_t len, char *err,
                    size_t errlen)
{
    if (s->n >= ARB_BUNDLE_MAX_ENTRIES) {
        snprintf(err, errlen, "%s: one entry too many (at most %d files and links)", path, ARB_BUNDLE_MAX_ENTRIES);
        free(data);
        return ARB_ETOOBIG;
    }
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        bundle_src_ent *v = realloc(s->v, nc * sizeof *v);
        if (!v) {
            free(data);
            snprintf(err, errlen, "%s: out of memory", path);
            return ARB_ENOMEM;
        }
        s->v = v;
        s->cap = nc;
    }
    char *p = strdup(path);
    if (!p) {
        free(data);
        snprintf(err, errlen, "%s: out of memory", path);
        return ARB_ENOMEM;
    }
    s->v[s->n++] = (bundle_src_ent){p, mode, data, len};
    return 0;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const bundle_src_ent *)a)->path, ((const bundle_src_ent *)b)->path);
}

int bundle_ents_pack(bundle_src *s, uint8_t **out, size_t *len, char digest[65], char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (s->n == 0) {
        snprintf(err, errlen, "no file to pack: a program needs at least one");
        return ARB_EINVAL;
    }
    qsort(s->v, s->n, sizeof *s->v, by_path);
    for (size_t i = 1; i < s->n; i++)
        if (strcmp(s->v[i].path, s->v[i - 1].path) == 0) {
            snprintf(err, errlen, "%s: named twice", s->v[i].path);
            return ARB_EINVAL;
        }
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, s->n);
    for (size_t i = 0; i < s->n; i++) {
        msgpack_pack_array(&pk, 3);
        msgpack_pack_str_with_body(&pk, s->v[i].path, strlen(s->v[i].path));
        msgpack_pack_uint32(&pk, s->v[i].mode);
        msgpack_pack_bin_with_body(&pk, s->v[i].data, s->v[i].len);
    }
    if (!sb.data) {
        snprintf(err, errlen, "out of memory packing %zu entries", s->n);
        return ARB_ENOMEM;
    }
    /* the same rules as for a bundle from outside: links inside, limits */
    int rc = bundle_check((const uint8_t *)sb.data, sb.size, NULL, err, errlen);
    if (rc) {
        msgpack_sbuffer_destroy(&sb);
        return rc == ARB_ECORRUPT ? ARB_EINVAL : rc;
    }
    bundle_digest((const uint8_t *)sb.data, sb.size, digest);
    *out = (uint8_t *)sb.data;
    *len = sb.size;
    return 0;
}

/* ---- A directory, whole ----------------------------------------------- */

typedef struct walk {
    bundle_src src;
    uint64_t bytes;
    char *err;
    size_t errlen;
} walk;

static int read_fd(int fd, size_t size, uint8_t **out)
{
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return ARB_ENOMEM;
    size_t got = 0;
    while (got < size) {
        ssize_t k = read(fd, buf + got, size - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            free(buf);
            return ARB_EIO;
        }
        got += (size_t)k;
    }
    *out = buf;
    return 0;
}

static int walk_dir(walk *w, int dfd, char *rel, size_t rl, int depth)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        snprintf(w->err, w->errlen, "%s: cannot list: %s", rl ? rel : ".", strerror(errno));
        return ARB_EIO;
    }
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        size_t nl = strlen(name);
        if (rl + (rl > 0) + nl > ARB_BUNDLE_MAX_PATH) {
            snprintf(w->err, w->errlen, "%.*s/%s: a path longer than %d bytes", (int)rl, rel, name,
                     ARB_BUNDLE_MAX_PATH);
            rc = ARB_ETOOBIG;
            break;
        }
        size_t ol = rl;
        if (rl > 0)
            rel[rl++] = '/';
        memcpy(rel + rl, name, nl + 1);
        rl += nl;
        struct stat st;
        if (!bundle_safe_path(rel)) {
            snprintf(w->err, w->errlen, "%s: %s", rel, BUNDLE_SAFE_PATH_RULE);
            rc = ARB_EINVAL;
        } else if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            snprintf(w->err, w->errlen, "%s: %s", rel, strerror(errno));
            rc = ARB_EIO;
        } else if (S_ISDIR(st.st_mode)) {
            if (depth + 1 >= ARB_BUNDLE_MAX_DEPTH) {
                snprintf(w->err, w->errlen, "%s/: more than %d directories deep", rel, ARB_BUNDLE_MAX_DEPTH - 1);
                rc = ARB_ETOOBIG;
            } else {
                int sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0) {
                    snprintf(w->err, w->errlen, "%s: %s", rel, strerror(errno));
                    rc = ARB_EIO;
                } else
                    rc = walk_dir(w, sub, rel, rl, depth + 1);
            }
        } else if (S_ISREG(st.st_mode)) {
            int fd = openat(dirfd(d), name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
            uint8_t *data = NULL;
            if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                snprintf(w->err, w->errlen, "%s: %s", rel, fd < 0 ? strerror(errno) : "changed while packed");
                rc = ARB_EIO;
            } else if ((uint64_t)st.st_size > ARB_BUNDLE_MAX_FILE_BYTES) {
                snprintf(w->err, w->errlen, "%s: %lld bytes, over %u for one file", rel, (long long)st.st_size,
                         ARB_BUNDLE_MAX_FILE_BYTES);
                rc = ARB_ETOOBIG;
            } else if ((w->bytes += (uint64_t)st.st_size) > ARB_BUNDLE_MAX_BYTES) {
                snprintf(w->err, w->errlen, "%s: the files reach %llu bytes, over %u for a program", rel,
                         (unsigned long long)w->bytes, ARB_BUNDLE_MAX_BYTES);
                rc = ARB_ETOOBIG;
            } else if ((rc = read_fd(fd, (size_t)st.st_size, &data)) != 0) {
                snprintf(w->err, w->errlen, "%s: cannot read (%s)", rel, rc == ARB_ENOMEM ? "out of memory" : "short");
            } else
                rc = bundle_ents_add(&w->src, rel, st.st_mode & 0111 ? 0755 : 0644, data, (size_t)st.st_size,
                                     w->err, w->errlen);
            if (fd >= 0)
                close(fd);
        } else if (S_ISLNK(st.st_mode)) {
            char t[ARB_BUNDLE_MAX_LINK + 1];
            ssize_t tl = readlinkat(dirfd(d), name, t, sizeof t);
            if (tl < 0) {
                snprintf(w->err, w->errlen, "%s: %s", rel, strerror(errno));
                rc = ARB_EIO;
            } else if (tl == 0 || tl > ARB_BUNDLE_MAX_LINK) {
                snprintf(w->err, w->errlen, "%s: a symbolic link's target longer than %d bytes", rel,
                         ARB_BUNDLE_MAX_LINK);
                rc = ARB_EINVAL;
            } else if (t[0] == '/' && !bundle_system_target(t, (size_t)tl)) {
                snprintf(w->err, w->errlen, "%s: a symbolic link to the absolute path %.*s: refused (only the "
                         "system's /usr/ and /bin/ may be named)", rel, (int)tl, t);
                rc = ARB_EINVAL;
            } else {
                uint8_t *data = malloc((size_t)tl);
                if (!data) {
                    snprintf(w->err, w->errlen, "%s: out of memory", rel);
                    rc = ARB_ENOMEM;
                } else {
                    memcpy(data, t, (size_t)tl);
                    rc = bundle_ents_add(&w->src, rel, BUNDLE_MODE_LINK, data, (size_t)tl, w->err, w->errlen);
                }
            }
        } else {
            snprintf(w->err, w->errlen, "%s: a %s: a program holds files, directories and links only", rel,
                     S_ISFIFO(st.st_mode) ? "fifo" : S_ISSOCK(st.st_mode) ? "socket"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device" : "special file");
            rc = ARB_EINVAL;
        }
        rl = ol;
        rel[rl] = 0;
    }
    if (rc == 0 && errno != 0) {
        snprintf(w->err, w->errlen, "%s: cannot list: %s", rl ? rel : ".", strerror(errno));
        rc = ARB_EIO;
    }
    closedir(d);
    return rc;
}

int bundle_from_dir(const char *dir, uint8_t **out, size_t *len, char digest[65], char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return errno == ENOENT ? ARB_ENOTFOUND : ARB_EIO;
    }
    walk w = {.err = err, .errlen = errlen};
    char rel[ARB_BUNDLE_MAX_PATH + 2] = "";
    char sub[512];
    int rc = walk_dir(&w, fd, rel, 0, 0);
    if (rc == 0)
        rc = bundle_ents_pack(&w.src, out, len, digest, err, errlen);
    if (rc) {   /* name the directory too */
        snprintf(sub, sizeof sub, "%s", err);
        snprintf(err, errlen, "%s: %s", dir, sub);
    }
    bundle_ents_free(&w.src);
    return rc;
}
