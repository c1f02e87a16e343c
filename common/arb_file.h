/* arb_file.h — reading a whole file with a hard cap on its size: the one
 * whole-file reader (tournament files, configuration, transcripts); the
 * daemons' own directories, made when missing; whether a uid of nobody's
 * (what a bot's own uid is, as root) can reach a path; and writing where a
 * user points (arb_file_write.c) without following another user's links. */
#ifndef ARB_FILE_H
#define ARB_FILE_H
#include <stdio.h>
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

/* ---- writing where a user points (arb_file_write.c; docs/cli.md, "Files
 * arbiter writes") ----------------------------------------------------------
 * A command run as root (or as anyone) that writes under a path a user
 * gave must not be turned by another local user into writing somewhere
 * else: a link planted at the file's name, in a directory on the way, or a
 * directory on the way that another user can swap. So:
 *  - every directory in which a name of the path is looked up is owned by
 *    root or by the caller and not writable by group or others, unless it
 *    has the sticky bit (/tmp): else refused, naming it;
 *  - the path is then opened from / one directory at a time without
 *    following links (O_NOFOLLOW), each checked again on its descriptor,
 *    so a swap after the check is refused too;
 *  - a file is written under a fresh name beside its target (openat
 *    O_CREAT|O_EXCL|O_NOFOLLOW) and renamed over it when whole: a link at
 *    the target's name is replaced, never followed, and a reader never
 *    sees half a file. */

/* Directory path, to write files under it (a report): made when missing
 * (with missing parents, 0755), or one that exists must be a directory,
 * not a link, owned by the caller and not writable by group or others.
 * cmd names the command in what to do ("let report create it"). Returns
 * an O_DIRECTORY descriptor (the caller closes it) in *dirfd and 0, or
 * ARB_EINVAL (refused) / ARB_EIO with "DIR is WHY: WHAT TO DO" in err. */
int arb_wdir_open(const char *path, const char *cmd, int *dirfd, char *err, size_t errlen);
/* The real path of the directory (or file) open as fd, in out (len):
 * what a bot's sandbox is to hide. 0, or -1 (too long, or none). */
int arb_fd_path(int fd, char *out, size_t len);
/* Subdirectory name of dirfd (shown: its path for messages), made (0755)
 * when missing, under the same rule as arb_wdir_open. */
int arb_wdir_sub(int dirfd, const char *name, const char *shown, int *subfd, char *err, size_t errlen);
/* File name of dirfd (shown: its path for messages) holding data, mode
 * mode: written under a fresh name and renamed over name (not fsync'ed:
 * a report's hundreds of pages; arb_out for a file that must last). */
int arb_wdir_put(int dirfd, const char *name, const void *data, size_t len, unsigned mode, const char *shown,
                 char *err, size_t errlen);

/* One file where a user points (export -o, transcripts get -o, eval
 * --json, match --transcript): arb_out_open makes the fresh file beside
 * path (refused: path a link, a directory or not a regular file, its
 * directory not as above); write to fd (or the
 * stream of arb_out_fopen); arb_out_commit fsyncs it and renames it
 * over path; arb_out_abort removes it. Nothing is at path until commit. */
typedef struct arb_out {
    int fd;               /* the fresh file, open for writing (-1: none) */
    FILE *f;              /* fd as a stream (arb_out_fopen), or NULL */
    int dirfd;            /* the directory it is in */
    unsigned mode;        /* its mode once renamed */
    char name[256];       /* the target's name in dirfd */
    char tmp[256];        /* the fresh file's name in dirfd */
    char path[1024];      /* the target as given, for messages */
} arb_out;
int arb_out_open(arb_out *o, const char *path, unsigned mode, char *err, size_t errlen);
/* The same for file name of a directory already opened by the rule
 * (arb_wdir_open: eval --keep); shown names it in messages. */
int arb_out_openat(arb_out *o, int dirfd, const char *name, const char *shown, unsigned mode, char *err,
                   size_t errlen);
/* arb_out_open, the fresh file as a stream: NULL with the message in err
 * (nothing left open). Commit and abort close the stream. */
FILE *arb_out_fopen(arb_out *o, const char *path, unsigned mode, char *err, size_t errlen);
int arb_out_commit(arb_out *o, char *err, size_t errlen);
void arb_out_abort(arb_out *o);
/* The whole of data as file path (mode): arb_out_open, write, commit. */
int arb_write_file(const char *path, const void *data, size_t len, unsigned mode, char *err, size_t errlen);

#endif
