/* pgctl.h — a private PostgreSQL cluster under a state directory, for
 * `arbiter run` and the tests when no database is configured: initdb on
 * first use, listening on a Unix socket only (no TCP), started and stopped
 * with pg_ctl. As root the server runs as the `postgres` user (PostgreSQL
 * refuses root). A cluster left running by a run that was killed is found
 * and used again. */
#ifndef ARB_PGCTL_H
#define ARB_PGCTL_H
#include <stdbool.h>
#include <stddef.h>

typedef struct pgctl {
    char dir[512];        /* the state directory */
    char data[600];       /* its cluster: DIR/pg */
    char sockdir[600];    /* where the socket is */
    char bin[256];        /* PostgreSQL's bin directory */
    char conninfo[1024];
    bool started;         /* we started it (and stop it) */
} pgctl;

/* Start (creating it if needed) the cluster of state directory `dir`.
 * Fills pg->conninfo. Returns 0 or an error with a message in err. */
int pgctl_start(pgctl *pg, const char *dir, char *err, size_t errlen);
/* Stop it if we started it. */
void pgctl_stop(pgctl *pg);

#endif
