/* store_int.h — what the store's files share (store.h is the public side):
 * the connection and the three ways every statement is run. store.c holds
 * tournaments, matches and results; store_ladder.c a ladder's entries and
 * matchmaking state. */
#ifndef ARB_STORE_INT_H
#define ARB_STORE_INT_H
#include "store.h"

#include <libpq-fe.h>

struct store {
    PGconn  *db;
    uint64_t prepared;     /* bit k: statement "arb_k" is prepared on this connection (store__qp) */
};

/* A parameterised statement: its result (the caller clears it), or NULL
 * with "database: WHY" in err. */
PGresult *store__q(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params);
/* The same, its result dropped: 0 or ARB_EIO. */
int store__exec0(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params);
void store__rollback(store *s);
/* The same as store__q for a statement run on every result (the rating
 * update): prepared once per connection as "arb_K" (K < 64, one per call
 * site), so that PostgreSQL plans it once, not on every result. */
PGresult *store__qp(store *s, int k, char *err, size_t errlen, const char *sql, int n, const char *const *params);

/* A result's cells copied into out (every column as text), the result
 * cleared: 0, or ARB_ENOMEM with "out of memory" in err (store_ladder.c). */
int store__rows(PGresult *r, store_rows *out, char *err, size_t errlen);

/* store.c's own short names for them. */
#define q store__q
#define exec0 store__exec0
#define rollback store__rollback
#define qp store__qp

#endif
