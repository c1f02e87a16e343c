/* bundle_archive.c — a bot given as an archive (tar, tar.gz/xz/zst, zip),
 * converted to a bundle in memory with libarchive (bundle.h). Two passes
 * over the bytes: the headers first, every limit and refusal decided on
 * what they declare before any file's contents is read; then the contents,
 * never more than declared. */
#include "bundle.h"
#include "bundle_int.h"
#include "arb_error.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct archive *open_mem(const uint8_t *a, size_t alen)
{
    struct archive *ar = archive_read_new();
    if (!ar)
        return NULL;
    /* Only the filters built into libarchive: one that would run an
     * external program (ARCHIVE_WARN) is not wanted, but cannot be taken
     * back once registered, so none is registered twice. */
    archive_read_support_filter_gzip(ar);
    archive_read_support_filter_xz(ar);
    archive_read_support_filter_zstd(ar);
    archive_read_support_format_tar(ar);
    archive_read_support_format_zip(ar);
    if (archive_read_open_memory(ar, a, alen) != ARCHIVE_OK) {
        archive_read_free(ar);
        return NULL;
    }
    return ar;
}

/* The entry's name as a bundle path: "./" in front and "/" behind dropped.
 * "" for the archive's root. */
static const char *clean_name(const char *name, char *buf, size_t cap)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    while (name[0] == '/' && name[1] == 0)
        name++;
    size_t n = strlen(name);
    if (n >= cap)
        return NULL;
    memcpy(buf, name, n + 1);
    while (n > 0 && buf[n - 1] == '/')
        buf[--n] = 0;
    if (strcmp(buf, ".") == 0)
        buf[0] = 0;
    return buf;
}

static const char *kind_of(unsigned t)
{
    switch (t) {
    case AE_IFCHR:
    case AE_IFBLK: return "device";
    case AE_IFIFO: return "fifo";
    case AE_IFSOCK: return "socket";
    default: return "special file";
    }
}

/* The first pass: headers only. */
static int headers(const uint8_t *a, size_t alen, char *err, size_t errlen)
{
    struct archive *ar = open_mem(a, alen);
    if (!ar) {
        snprintf(err, errlen, "archive: cannot be read (a tar, tar.gz, tar.xz, tar.zst or zip)");
        return ARB_EINVAL;
    }
    struct archive_entry *e;
    int r, rc = 0;
    long entries = 0;
    uint64_t bytes = 0;
    char name[ARB_BUNDLE_MAX_PATH + 2];
    while (rc == 0 && (r = archive_read_next_header(ar, &e)) == ARCHIVE_OK) {
        const char *raw = archive_entry_pathname(e);
        unsigned type = archive_entry_filetype(e);
        if (++entries > ARB_BUNDLE_MAX_ENTRIES) {
            snprintf(err, errlen, "archive: more than %d entries", ARB_BUNDLE_MAX_ENTRIES);
            rc = ARB_ETOOBIG;
            break;
        }
        /* what was decompressed to get here: declared contents and headers */
        if ((uint64_t)archive_filter_bytes(ar, 0) > (uint64_t)ARB_BUNDLE_MAX_ARCHIVE) {
            snprintf(err, errlen, "archive: more than %zu bytes uncompressed", (size_t)ARB_BUNDLE_MAX_ARCHIVE);
            rc = ARB_ETOOBIG;
            break;
        }
        if (!raw) {
            snprintf(err, errlen, "archive entry %ld: no name", entries);
            rc = ARB_EINVAL;
            break;
        }
        const char *p = clean_name(raw, name, sizeof name);
        if (!p) {
            snprintf(err, errlen, "archive entry %ld (%.80s...): a path longer than %d bytes", entries, raw,
                     ARB_BUNDLE_MAX_PATH);
            rc = ARB_EINVAL;
            break;
        }
        if (archive_entry_hardlink(e)) {
            snprintf(err, errlen, "%s: a hard link (to %.200s): refused, pack the file itself", raw,
                     archive_entry_hardlink(e));
            rc = ARB_EINVAL;
            break;
        }
        if (type == AE_IFDIR && !p[0])
            continue;   /* the root */
        if (!bundle_safe_path(p)) {
            snprintf(err, errlen, "%s: %s", raw,
                     raw[0] == '/' ? "an absolute path: refused"
                     : strstr(raw, "..") ? "a path with \"..\": refused"
                     : BUNDLE_SAFE_PATH_RULE);
            rc = ARB_EINVAL;
            break;
        }
        int depth = 1 + (type == AE_IFDIR);
        for (const char *c = p; *c; c++)
            depth += *c == '/';
        if (depth > ARB_BUNDLE_MAX_DEPTH) {
            snprintf(err, errlen, "%s: more than %d directories deep", raw, ARB_BUNDLE_MAX_DEPTH - 1);
            rc = ARB_ETOOBIG;
            break;
        }
        if (type == AE_IFDIR)
            continue;
        if (type == AE_IFREG) {
            if (!archive_entry_size_is_set(e)) {
                snprintf(err, errlen, "%s: the archive does not say its size", raw);
                rc = ARB_EINVAL;
                break;
            }
            la_int64_t sz = archive_entry_size(e);
            if (sz < 0 || (uint64_t)sz > ARB_BUNDLE_MAX_FILE_BYTES) {
                snprintf(err, errlen, "%s: %lld bytes, over %u for one file", raw, (long long)sz,
                         ARB_BUNDLE_MAX_FILE_BYTES);
                rc = ARB_ETOOBIG;
                break;
            }
            if ((bytes += (uint64_t)sz) > ARB_BUNDLE_MAX_BYTES) {
                snprintf(err, errlen, "%s: the files reach %llu bytes, over %u for a program", raw,
                         (unsigned long long)bytes, ARB_BUNDLE_MAX_BYTES);
                rc = ARB_ETOOBIG;
                break;
            }
        } else if (type == AE_IFLNK) {
            const char *t = archive_entry_symlink(e);
            size_t tl = t ? strlen(t) : 0;
            if (tl == 0 || tl > ARB_BUNDLE_MAX_LINK) {
                snprintf(err, errlen, "%s: a symbolic link's target of %zu bytes (1..%d)", raw, tl,
                         ARB_BUNDLE_MAX_LINK);
                rc = ARB_EINVAL;
                break;
            }
            if (t[0] == '/' && !bundle_system_target(t, tl)) {
                snprintf(err, errlen, "%s: a symbolic link to the absolute path %.200s: refused (only the "
                         "system's /usr/ and /bin/ may be named)", raw, t);
                rc = ARB_EINVAL;
                break;
            }
        } else {
            snprintf(err, errlen, "%s: a %s: a program holds files, directories and links only", raw, kind_of(type));
            rc = ARB_EINVAL;
            break;
        }
        /* archive_read_next_header skips this entry's contents unread */
    }
    if (rc == 0 && r != ARCHIVE_EOF) {
        snprintf(err, errlen, "archive: %s", archive_error_string(ar) ? archive_error_string(ar) : "cannot be read");
        rc = ARB_EINVAL;
    }
    if (rc == 0 && entries == 0) {
        snprintf(err, errlen, "archive: empty");
        rc = ARB_EINVAL;
    }
    archive_read_free(ar);
    return rc;
}

int bundle_from_archive(const uint8_t *a, size_t alen, uint8_t **out, size_t *len, char digest[65], char *err,
                        size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (alen > ARB_BUNDLE_MAX_ARCHIVE) {
        snprintf(err, errlen, "archive of %zu bytes: over %zu", alen, (size_t)ARB_BUNDLE_MAX_ARCHIVE);
        return ARB_ETOOBIG;
    }
    int rc = headers(a, alen, err, errlen);
    if (rc)
        return rc;
    /* The second pass: the same headers (the bytes are the same), now with
     * the contents. */
    struct archive *ar = open_mem(a, alen);
    if (!ar) {
        snprintf(err, errlen, "archive: cannot be read");
        return ARB_EINVAL;
    }
    bundle_src src = {0};
    struct archive_entry *e;
    int r;
    char name[ARB_BUNDLE_MAX_PATH + 2];
    while (rc == 0 && (r = archive_read_next_header(ar, &e)) == ARCHIVE_OK) {
        const char *raw = archive_entry_pathname(e);
        unsigned type = archive_entry_filetype(e);
        const char *p = raw ? clean_name(raw, name, sizeof name) : NULL;
        if (!p) {
            snprintf(err, errlen, "archive: changed between two readings");
            rc = ARB_EINVAL;
        } else if (type == AE_IFDIR) {
            continue;
        } else if (type == AE_IFLNK) {
            const char *t = archive_entry_symlink(e);
            size_t tl = t ? strlen(t) : 0;
            uint8_t *d = tl ? malloc(tl) : NULL;
            if (!d) {
                snprintf(err, errlen, "%s: %s", raw, tl ? "out of memory" : "changed between two readings");
                rc = tl ? ARB_ENOMEM : ARB_EINVAL;
            } else {
                memcpy(d, t, tl);
                rc = bundle_ents_add(&src, p, BUNDLE_MODE_LINK, d, tl, err, errlen);
            }
        } else if (type == AE_IFREG && archive_entry_size_is_set(e) && archive_entry_size(e) >= 0
                   && (uint64_t)archive_entry_size(e) <= ARB_BUNDLE_MAX_FILE_BYTES) {
            size_t sz = (size_t)archive_entry_size(e), got = 0;
            uint8_t *d = malloc(sz + 1);
            if (!d) {
                snprintf(err, errlen, "%s: out of memory", raw);
                rc = ARB_ENOMEM;
                break;
            }
            /* one byte more than declared is asked for: there must be none */
            for (;;) {
                la_ssize_t k = archive_read_data(ar, d + got, sz + 1 - got);
                if (k < 0) {
                    snprintf(err, errlen, "%s: %s", raw,
                             archive_error_string(ar) ? archive_error_string(ar) : "cannot be read");
                    rc = ARB_EINVAL;
                    break;
                }
                if (k == 0)
                    break;
                got += (size_t)k;
                if (got > sz) {
                    snprintf(err, errlen, "%s: more bytes than its header declares (%zu)", raw, sz);
                    rc = ARB_EINVAL;
                    break;
                }
            }
            if (rc == 0 && got != sz) {
                snprintf(err, errlen, "%s: %zu bytes of the %zu its header declares", raw, got, sz);
                rc = ARB_EINVAL;
            }
            if (rc) {
                free(d);
                break;
            }
            mode_t perm = archive_entry_perm(e);
            rc = bundle_ents_add(&src, p, perm & 0111 ? 0755 : 0644, d, sz, err, errlen);
        } else {
            snprintf(err, errlen, "%s: changed between two readings", raw);
            rc = ARB_EINVAL;
        }
    }
    if (rc == 0 && r != ARCHIVE_EOF) {
        snprintf(err, errlen, "archive: %s", archive_error_string(ar) ? archive_error_string(ar) : "cannot be read");
        rc = ARB_EINVAL;
    }
    archive_read_free(ar);
    if (rc == 0)
        rc = bundle_ents_pack(&src, out, len, digest, err, errlen);
    bundle_ents_free(&src);
    return rc;
}
