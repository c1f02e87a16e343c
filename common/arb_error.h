/* arb_error.h — the one error enum of arbiter and its one strerror. */
#ifndef ARB_ERROR_H
#define ARB_ERROR_H

/* Every code once: its name, its number and its text (as libuv's
 * UV_ERRNO_MAP). The enum, arb_strerror and arb_errname are all made from
 * this list, so a code cannot be added without its text. Codes are stable:
 * they appear in logs, transcripts and exit statuses. */
#define ARB_ERRORS(X)                                                          \
    X(OK,           0, "success")                                              \
    X(EINVAL,      -1, "invalid argument")                  /* malformed argument or input */ \
    X(ENOMEM,      -2, "out of memory")                                        \
    X(ENOSPC,      -3, "no space left in a bounded buffer") /* or an output array */ \
    X(ERANGE,      -4, "value out of range")                /* a number outside its documented range */ \
    X(EPARSE,      -5, "cannot parse")                      /* text that does not follow its notation */ \
    X(EILLEGAL,    -6, "illegal move")                      /* a move the rules do not allow */ \
    X(ESTATE,      -7, "not allowed in the current state")                     \
    X(EIO,         -8, "input/output error")                /* a system call failed (see errno) */ \
    X(ETIMEOUT,    -9, "timed out")                         /* a deadline passed */ \
    X(ENOTFOUND,  -10, "not found")                         /* a named thing does not exist */ \
    X(EUNSUPPORTED,-11, "not supported")                    /* not in this build or on this host */ \
    X(ETOOBIG,    -12, "input larger than its limit")       /* see arb_limits.h */ \
    X(ECORRUPT,   -13, "data fails an integrity check")                        \
    X(ESANDBOX,   -14, "the required sandbox could not be had")                \
    X(EEXIST,     -15, "exists already")                    /* a name taken by another thing */ \
    X(EDISKFULL,  -16, "no space left on device")           /* ENOSPC or EDQUOT: free space, then retry */ \
    X(EAGAIN,     -17, "failed for now: try again later")   /* a database restarting, full, unreachable */

/* Functions return 0 on success or one of these negative codes;
 * constructors return NULL. */
typedef enum arb_err {
#define ARB_ERR_ENUM(name, code, text) ARB_##name = code,
    ARB_ERRORS(ARB_ERR_ENUM)
#undef ARB_ERR_ENUM
} arb_err;

/* Human-readable text for an arb_err (never NULL; unknown codes get a
 * generic text). */
const char *arb_strerror(int err);

/* Stable short name of the code ("EINVAL"), for logs and transcripts. */
const char *arb_errname(int err);

#endif
