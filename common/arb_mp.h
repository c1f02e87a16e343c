/* arb_mp.h — a bounded, allocation-free msgpack reader for data from outside
 * (transcripts, wire frames). Every length is checked against the bytes
 * present before it is used, counts of arrays and maps against the bytes
 * left (each element takes at least one byte), nesting against
 * ARB_MP_MAX_DEPTH; nothing is allocated, strings point into the buffer.
 * (msgpack-c's unpacker allocates whatever a header claims, so it is only
 * used for writing.)
 *
 * Errors. Every reader returns 0 or a negative arb_err:
 *   ARB_ECORRUPT  truncated or ill-formed data (a length or count larger
 *                 than the bytes left, the unused byte 0xc1, an embedded NUL
 *                 for arb_mp_str_copy);
 *   ARB_ETOOBIG   nesting deeper than ARB_MP_MAX_DEPTH (arb_mp_skip);
 *   ARB_EPARSE    the next object is of another type;
 *   ARB_ERANGE    an integer that does not fit the requested type.
 * ECORRUPT and ETOOBIG from the data are sticky: the first is kept in
 * r->err and every later call fails at once with it, so a caller may check
 * once after a run of reads. EPARSE, ERANGE, and ETOOBIG from
 * arb_mp_str_copy's own buffer, say nothing about the data: they consume
 * nothing, leave r->err alone, and the caller may try another reading of the
 * same object (nil or int, say). On any failure the outputs are zeroed (a
 * string output points to an empty string), never left undefined. */
#ifndef ARB_MP_H
#define ARB_MP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A cursor over a caller-owned buffer, which must outlive every pointer the
 * reader hands out. A plain value: copy it to save a position. */
typedef struct arb_mp {
    const uint8_t *p, *end;   /* next byte to read; one past the last byte */
    int err;                  /* first error in the data, sticky; 0 if none */
} arb_mp;

typedef enum arb_mp_type {
    ARB_MP_NIL = 0, ARB_MP_BOOL, ARB_MP_UINT, ARB_MP_INT, ARB_MP_FLOAT,
    ARB_MP_STR, ARB_MP_BIN, ARB_MP_ARRAY, ARB_MP_MAP, ARB_MP_EXT,
} arb_mp_type;

/* `data` may be NULL when `len` is 0. */
void   arb_mp_init(arb_mp *r, const void *data, size_t len);
size_t arb_mp_left(const arb_mp *r);
/* The arb_mp_type of the next object (UINT for positive fixint and
 * uint8..64, INT for negative fixint and int8..64 whatever their value), or
 * r->err, or ARB_ECORRUPT at the end or on 0xc1. Consumes nothing and sets
 * nothing. */
int arb_mp_peek(const arb_mp *r);
/* Container headers: *n elements (an array) or *n key/value pairs (a map)
 * follow. A count the bytes left cannot hold is ARB_ECORRUPT. */
int arb_mp_array(arb_mp *r, uint32_t *n);
int arb_mp_map(arb_mp *r, uint32_t *n);
/* Integers of any encoding: arb_mp_uint takes non-negative values (a
 * negative one is ARB_ERANGE), arb_mp_int anything up to INT64_MAX (a
 * larger uint64 is ARB_ERANGE). */
int arb_mp_uint(arb_mp *r, uint64_t *v);
int arb_mp_int(arb_mp *r, int64_t *v);
int arb_mp_bool(arb_mp *r, bool *v);
int arb_mp_nil(arb_mp *r);
/* str / bin: *s points into the buffer, *len bytes, not NUL-terminated. */
int arb_mp_str(arb_mp *r, const char **s, uint32_t *len);
int arb_mp_bin(arb_mp *r, const uint8_t **b, uint32_t *len);
/* A str copied NUL-terminated into buf[cap]: ARB_ETOOBIG (not sticky,
 * nothing consumed) when it does not fit, ARB_ECORRUPT for an embedded NUL.
 * On any failure buf holds "" (when cap > 0). */
int arb_mp_str_copy(arb_mp *r, char *buf, size_t cap);
/* Skip one whole object of any type, containers with everything inside
 * them. Iterative; a container nested inside ARB_MP_MAX_DEPTH others is
 * ARB_ETOOBIG. */
int arb_mp_skip(arb_mp *r);
/* If the next object is the string `key`, consume it and return true;
 * otherwise consume nothing and return false (keeping any error in the
 * data in r->err). */
bool arb_mp_key(arb_mp *r, const char *key);

#endif
