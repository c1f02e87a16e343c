/* arb_mp.h — a bounded, allocation-free msgpack reader for data from outside
 * (transcripts, wire frames). Every length is checked against the bytes
 * present before it is used, counts of arrays and maps against the bytes
 * left (each element takes at least one byte), nesting against
 * ARB_MP_MAX_DEPTH; nothing is allocated, strings point into the buffer.
 * (msgpack-c's unpacker allocates whatever a header claims, so it is only
 * used for writing.) */
#ifndef ARB_MP_H
#define ARB_MP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct arb_mp {
    const uint8_t *p, *end;
    int err;                  /* first error, sticky: later calls fail with it */
} arb_mp;

typedef enum arb_mp_type {
    ARB_MP_NIL = 0, ARB_MP_BOOL, ARB_MP_UINT, ARB_MP_INT, ARB_MP_FLOAT,
    ARB_MP_STR, ARB_MP_BIN, ARB_MP_ARRAY, ARB_MP_MAP, ARB_MP_EXT,
} arb_mp_type;

void   arb_mp_init(arb_mp *r, const void *data, size_t len);
size_t arb_mp_left(const arb_mp *r);
/* The type of the next object, or a negative error at the end or on a
 * byte that starts no object. Does not consume. */
int arb_mp_peek(const arb_mp *r);
/* Each reads one object of its type: 0, or ARB_ECORRUPT (truncated or
 * ill-formed), ARB_EPARSE (another type), ARB_ERANGE (does not fit). */
int arb_mp_array(arb_mp *r, uint32_t *n);
int arb_mp_map(arb_mp *r, uint32_t *n);
int arb_mp_uint(arb_mp *r, uint64_t *v);
int arb_mp_int(arb_mp *r, int64_t *v);
int arb_mp_bool(arb_mp *r, bool *v);
int arb_mp_nil(arb_mp *r);
int arb_mp_str(arb_mp *r, const char **s, uint32_t *len);
int arb_mp_bin(arb_mp *r, const uint8_t **b, uint32_t *len);
/* A NUL-terminated copy; ARB_ETOOBIG when it does not fit, ARB_ECORRUPT
 * for an embedded NUL. */
int arb_mp_str_copy(arb_mp *r, char *buf, size_t cap);
/* Skip one whole object (nesting bounded by ARB_MP_MAX_DEPTH: ARB_ETOOBIG). */
int arb_mp_skip(arb_mp *r);
/* If the next object is the string `key`, consume it and return true. */
bool arb_mp_key(arb_mp *r, const char *key);

#endif
