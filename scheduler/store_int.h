/* store_int.h — what the store's files share (store.h is the public side):
 * the connection and the three ways every statement is run. store.c holds
 * tournaments, matches and results; store_ladder.c a ladder's entries and
 * matchmaking state. */
#ifndef ARB_STORE_INT_H
#define ARB_STORE_INT_H
#include "store.h"

#include <libpq-fe.h>

struct store {
    PGconn *db;
};

/* A parameterised statement: its result (the caller clears it), or NULL
 * with "database: WHY" in err. */
PGresult *store__q(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params);
/* The same, its result dropped: 0 or ARB_EIO. */
int store__exec0(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params);
void store__rollback(store *s);

/* store.c's own short names for them. */
#define q store__q
#define exec0 store__exec0
#define rollback store__rollback

#endif
