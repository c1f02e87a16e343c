/* arb_error.h — the one error enum of arbiter and its one strerror. */
#ifndef ARB_ERROR_H
#define ARB_ERROR_H

/* Functions return 0 on success or one of these negative codes; constructors
 * return NULL. Codes are stable: they appear in logs and transcripts. */
typedef enum arb_err {
    ARB_OK          = 0,
    ARB_EINVAL      = -1,   /* malformed argument or input */
    ARB_ENOMEM      = -2,   /* allocation failed */
    ARB_ENOSPC      = -3,   /* a bounded buffer or output array is full */
    ARB_ERANGE      = -4,   /* a number outside its documented range */
    ARB_EPARSE      = -5,   /* text that does not follow its notation */
    ARB_EILLEGAL    = -6,   /* a move the rules do not allow */
    ARB_ESTATE      = -7,   /* an operation not valid in the current state */
    ARB_EIO         = -8,   /* a system call failed (see errno) */
    ARB_ETIMEOUT    = -9,   /* a deadline passed */
    ARB_ENOTFOUND   = -10,  /* a named thing does not exist */
    ARB_EUNSUPPORTED= -11,  /* a feature not available in this build */
    ARB_ETOOBIG     = -12,  /* input larger than its limit in arb_limits.h */
    ARB_ECORRUPT    = -13,  /* data that fails an integrity check */
    ARB_ESANDBOX    = -14,  /* the sandbox required for a bot could not be had */
} arb_err;

/* Human-readable text for an arb_err (never NULL; unknown codes get a
 * generic text naming the number). */
const char *arb_strerror(int err);

/* Stable short name of the code ("EINVAL"), for logs and transcripts. */
const char *arb_errname(int err);

#endif
