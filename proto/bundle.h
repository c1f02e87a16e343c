/* bundle.h — bot programs by content: the files of an entrant's program
 * packed into one msgpack blob named by its SHA-256, so that a referee
 * worker on another host fetches what it lacks from the scheduler once,
 * checks it against the digest and keeps it in a cache (a worker host needs
 * nothing installed but arbiter and the interpreters its bots name).
 *
 * A bundle is [[path, mode, bytes], ...], sorted by path: the files of one
 * program with their layout relative to the deepest directory holding them
 * all (a script and the module it imports from ../ keep their places).
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

/* Is the bundle `digest` unpacked in cache_dir (as cache_dir/DIGEST/)? */
bool bundle_cached(const char *cache_dir, const char *digest);

/* Check the bundle against `digest` and unpack it as cache_dir/DIGEST/.
 * 0 (also when it was there already), ARB_ECORRUPT for a bundle that does
 * not match its digest or holds a bad entry, ARB_EDISKFULL when the cache's
 * disk is full, ARB_EIO for another failure, with a message naming the
 * path and the cause. */
int bundle_unpack(const uint8_t *b, size_t len, const char *digest, const char *cache_dir, char *err,
                  size_t errlen);

/* A path inside a bundle: relative, components of [A-Za-z0-9._+-] that
 * are neither "." nor "..", no empty component, at most ARB_BUNDLE_MAX_PATH. */
bool bundle_safe_path(const char *p);

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
