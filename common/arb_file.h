/* arb_file.h — reading a whole file with a hard cap on its size: the one
 * whole-file reader (tournament files, configuration, transcripts); the
 * daemons' own directories, made when missing; and whether a uid of nobody's
 * (what a bot's own uid is, as root) can reach a path. */
#ifndef ARB_FILE_H
#define ARB_FILE_H
#include <stddef.h>

/* The file at path, whole, NUL-terminated (the NUL not counted in *len),
 * malloc'ed: the caller frees it. A file of more than max bytes is refused
 * (ARB_ETOOBIG: "PATH: larger than MAX bytes (the limit for WHAT)"), not
 * cut short: a truncated tournament file or transcript would be read as
 * another one. Returns 0, or ARB_EIO / ARB_ETOOBIG / ARB_ENOMEM with a
 * message naming the file in err (*out NULL). */
int arb_read_file(const char *path, size_t max, const char *what, char **out, size_t *len, char *err,
                  size_t errlen);

/* The directory path, made when missing with the directories above it
 * (0755) and itself with mode (0700 where it holds secrets), owned by the
 * running user; one that exists is kept as it is (its mode is the
 * operator's) but must be a directory this user can write and enter.
 * what names it for the operator ("state (state:, --state)"). Returns 0,
 * or ARB_EIO with "WHAT PATH: REASON: WHAT TO DO" in err. */
int arb_make_dir(const char *path, unsigned mode, const char *what, char *err, size_t errlen);

/* Remove path and everything under it (rm -rf without a shell: symbolic
 * links are removed, never followed). A path that does not exist is
 * removed already. Returns 0, or ARB_EIO (errno set) when something is
 * left. */
int arb_remove_tree(const char *path);

/* Can a uid that owns nothing (65534, as a bot's own uid under root owns
 * nothing) reach path with access mode amode (X_OK for a program, R_OK for
 * a script, X_OK for a directory to pass through)? Asked in a child that
 * drops to that uid, so that every ancestor's mode, ACL and mount option
 * counts. 1 when it can; 0 when it cannot, with the first ancestor it
 * cannot enter (a 0700 home directory, mktemp -d), or path itself, in
 * blocked; -1 when it could not be asked (not root: the caller's bots then
 * run under the caller's uid, and reach what it reaches). */
int arb_others_can_reach(const char *path, int amode, char *blocked, size_t len);

#endif
