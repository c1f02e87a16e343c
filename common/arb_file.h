/* arb_file.h — reading a whole file with a hard cap on its size: the one
 * whole-file reader (tournament files, configuration, transcripts). */
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

#endif
