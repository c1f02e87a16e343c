/* bundle.h — bot programs by content: the files of an entrant's program
 * packed into one msgpack blob named by its SHA-256, so that a referee
 * worker on another host fetches what it lacks from the scheduler once,
 * checks it against the digest and keeps it in a cache (a worker host needs
 * nothing installed but arbiter and the interpreters its bots name).
 *
 * A bundle is [[path, mode, bytes], ...], sorted by path (strcmp, each path
 * once): the files of one program with their layout relative to the
 * deepest directory holding them all (a script and the module it imports
 * from ../ keep their places), or to the directory or archive it was
 * packed from. mode is 0644 or 0755 for a regular file (bytes: its
 * contents), BUNDLE_MODE_LINK for a symbolic link (bytes: its target, a
 * relative path that resolves, following the bundle's other links, to a
 * file or directory of the bundle: never out of it). No entry lies under a
 * link or under a file. A bundle without links is what it always was
 * (same bytes, same digest).
 * Unpacking trusts nothing: the digest is checked before anything is
 * written, every path is relative without "." or ".." components, the
 * entries are bounded in count and size, and the result appears in the
 * cache atomically (a directory renamed into place). */
#ifndef ARB_BUNDLE_H
#define ARB_BUNDLE_H
#include "arb_limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* Pack the files (absolute, resolved paths of regular files: no symbolic
 * link on the way) into a bundle: each is opened exactly where its path
 * says, and one reached through a link that appeared since its path was
 * resolved is refused (ARB_EINVAL). *out
 * (malloc'ed) and *len, its digest (64 hex digits), and for each file its
 * path inside the bundle (rel[i]). 0, or an error with a message. */
int bundle_build(const char *const *files, int nfiles, uint8_t **out, size_t *len, char digest[65],
                 char rel[][ARB_BUNDLE_MAX_PATH + 1], char *err, size_t errlen);

/* The mode of a symbolic link entry: S_IFLNK | 0777. */
#define BUNDLE_MODE_LINK 0120777u

/* Pack the tree under `dir` (a directory; itself may be reached through a
 * link, nothing under it is followed) whole: regular files (0755 when any
 * execute bit is set, else 0644) and symbolic links (kept as links; their
 * targets must be relative and resolve inside the tree). Refused, naming
 * the path and the reason: a device, fifo or socket, a link that is
 * absolute or leads out, a name bundle_safe_path refuses, more than
 * ARB_BUNDLE_MAX_ENTRIES entries, ARB_BUNDLE_MAX_FILE_BYTES in one file,
 * ARB_BUNDLE_MAX_BYTES in all, ARB_BUNDLE_MAX_DEPTH directories deep, and
 * an empty tree. *out malloc'ed. 0, ARB_EINVAL (refused), ARB_ETOOBIG (a
 * limit), ARB_EIO (cannot read), ARB_ENOMEM. */
int bundle_from_dir(const char *dir, uint8_t **out, size_t *len, char digest[65], char *err, size_t errlen);

/* Convert an archive in memory (tar, tar.gz, tar.xz, tar.zst, zip; at most
 * ARB_BUNDLE_MAX_ARCHIVE bytes) to a bundle: the archive's root is the
 * bundle's ("./" in front of names is dropped; directories are implied by
 * the files under them). A first pass reads the headers only and refuses,
 * before any contents is read: more than ARB_BUNDLE_MAX_ENTRIES entries, a
 * declared size over ARB_BUNDLE_MAX_FILE_BYTES or, summed,
 * ARB_BUNDLE_MAX_BYTES, a path too deep or too long or that
 * bundle_safe_path refuses (absolute, "..", odd characters), a hard link, a
 * device, fifo or socket, an absolute symbolic link, a file without a
 * declared size. Then the contents (never more than declared), and the
 * links must resolve inside (bundle_check). Nothing is written to disk. */
int bundle_from_archive(const uint8_t *a, size_t alen, uint8_t **out, size_t *len, char digest[65], char *err,
                        size_t errlen);

/* What a bundle holds. */
typedef struct bundle_info {
    int files, links, depth;   /* regular files, symbolic links, deepest path's components */
    uint64_t bytes;            /* the files' bytes together */
} bundle_info;

/* Check a bundle from outside without unpacking it: well-formed msgpack,
 * 1..ARB_BUNDLE_MAX_ENTRIES entries of [str path, uint mode, bin bytes]
 * sorted and unique, safe paths (bundle_safe_path) at most
 * ARB_BUNDLE_MAX_DEPTH deep, modes 0644/0755/BUNDLE_MODE_LINK, the limits
 * on bytes, no entry under a file or a link, every link's target relative
 * and resolving inside (at most ARB_BUNDLE_MAX_HOPS links followed), no
 * byte after the last entry. 0 with *info filled (info may be NULL), or
 * ARB_ECORRUPT / ARB_ETOOBIG with a message naming the entry. */
int bundle_check(const uint8_t *b, size_t len, bundle_info *info, char *err, size_t errlen);

/* Call each(ctx, path, mode) for every entry of a bundle that passes
 * bundle_check, in order (path NUL-terminated, valid during the call).
 * 0, or bundle_check's error. */
int bundle_list(const uint8_t *b, size_t len, void (*each)(void *ctx, const char *path, unsigned mode), void *ctx);
/* Does the bundle hold `path` (a file or a link; *mode set when not NULL)? */
bool bundle_has(const uint8_t *b, size_t len, const char *path, unsigned *mode);

/* Is the bundle `digest` unpacked in cache_dir (as cache_dir/DIGEST/)? */
bool bundle_cached(const char *cache_dir, const char *digest);

/* Check the bundle against `digest` and unpack it as cache_dir/DIGEST/.
 * 0 (also when it was there already), ARB_ECORRUPT for a bundle that does
 * not match its digest or holds a bad entry, ARB_EDISKFULL when the cache's
 * disk is full, ARB_EIO for another failure, with a message naming the
 * path and the cause. */
int bundle_unpack(const uint8_t *b, size_t len, const char *digest, const char *cache_dir, char *err,
                  size_t errlen);

/* A path inside a bundle: relative, components of [A-Za-z0-9._+-] and
 * " (),=@~[]{}!%#&" (what packages' file names hold; no component begins
 * or ends with a space) that are neither "." nor "..", no empty component,
 * at most ARB_BUNDLE_MAX_PATH. Never a shell's input: files are written
 * by openat and named in argv words. */
bool bundle_safe_path(const char *p);
/* A path a command's word names (a bundle's program or argument, recorded
 * as argi/paths and sent to workers): bundle_safe_path's rule with
 * [A-Za-z0-9._+-] alone, since a command is split on blanks. */
bool bundle_word_path(const char *p);

/* An entrant's file (files:), named relative to directory `base` (the
 * tournament file's), resolved into resolved[cap] only if it lies inside
 * `root` (an absolute, resolved directory: the tournament's tree).
 * Refused: an absolute name, a ".." that climbs out of root, and a name
 * that resolves (through symbolic links) outside root. 0; ARB_EINVAL with the reason in why;
 * ARB_ENOTFOUND when it does not exist (yet). The loader checks every
 * files: entry with it, and the scheduler again just before packing the
 * bundle (a link swapped after `arbiter check` is caught there). */
int bundle_confine(const char *root, const char *base, const char *name, char *resolved, size_t cap, char *why,
                   size_t whylen);

/* The SHA-256 of bytes as 64 hex digits. */
void bundle_digest(const uint8_t *b, size_t len, char digest[65]);

/* A path under the system's directories (/usr, /bin, /lib*, /etc …): a
 * command's argument there is the system's, never packed into a bundle. */
bool bundle_system_path(const char *path);
/* A tree that can be hidden from bots: absolute, neither "/" nor one of
 * the system's directories nor a directory holding one (bots need the
 * system to run). */
bool bundle_hideable_tree(const char *dir);

#endif
