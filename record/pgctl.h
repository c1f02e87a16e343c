/* pgctl.h — a private PostgreSQL cluster under a state directory, for
 * `arbiter run` and the tests when no database is configured: initdb on
 * first use, listening on a Unix socket only (no TCP), started and stopped
 * with pg_ctl. As root the server runs as the `postgres` user (PostgreSQL
 * refuses root). A cluster left running by a run that was killed is found
 * and used again.
 *
 * Nobody else gets in (docs/operations.md, docs/security.md): every local
 * connection authenticates with scram-sha-256; the bootstrap superuser
 * (arbiter_admin) and arbiter's own role (arbiter: NOSUPERUSER, NOCREATEROLE,
 * CREATEDB, owner of database `arbiter`) have generated passwords kept in
 * libpq password files (0600) in the state directory, which libpq reads
 * (passfile=), never on a command line or in an environment; the socket
 * directory is 0700 and the socket 0700; the state directory 0700 (0711
 * as root: bots under uids of their own reach their working directories in
 * it, and nothing else). As root, when the postgres user cannot enter the
 * state directory (a 0700 ancestor: a home directory, mktemp -d), the
 * cluster lives in /var/lib/arbiter-clusters/HASH (0700, postgres) and the
 * state directory names it in its file `cluster`. A cluster made by an
 * older arbiter with trust authentication is refused with what to do. */
#ifndef ARB_PGCTL_H
#define ARB_PGCTL_H
#include <stdbool.h>
#include <stddef.h>

/* Where clusters live as root when the state directory is out of the
 * postgres user's reach. */
#define PGCTL_CLUSTERS "/var/lib/arbiter-clusters"   /* not /var/lib/arbiter: the scheduler daemon's */

typedef struct pgctl {
    char dir[512];        /* the state directory */
    char data[600];       /* its cluster: DIR/pg, or PGCTL_CLUSTERS/HASH/pg */
    char sockdir[600];    /* where the socket is (0700) */
    char bin[256];        /* PostgreSQL's bin directory */
    char conninfo[1100];  /* as role arbiter, its password read from a passfile */
    char admin_conninfo[1100]; /* as the superuser: set-up only, never given to the store */
    bool started;         /* we started it (the marker DIR/pg-started says so to the others) */
    int users_fd;         /* DIR/pg-users, held shared while we use the cluster (-1: none) */
} pgctl;

/* Who starts and stops a private cluster. Every user (a run, a reader,
 * `arbiter psql`, the scheduler) holds DIR/pg-users shared from start to
 * stop; DIR/pg-ctl is held exclusive around every start and stop, so a
 * command never meets a cluster that is shutting down or half set up: it
 * waits for the stop to end and starts the cluster again. The last user
 * out stops the cluster if an arbiter started it (the marker
 * DIR/pg-started), whoever that was: a run killed with SIGKILL leaves it
 * running, and whoever uses it next and is last stops it. A cluster
 * somebody started by hand (no marker) is left running. The set-up
 * (password files, initdb into DIR/pg.new renamed to DIR/pg when whole,
 * the role and the database) can be killed at any point and is done again
 * or finished by the next start. */

/* Start (creating it if needed) the cluster of state directory `dir`.
 * Fills pg->conninfo. Returns 0 or an error with a message in err. */
int pgctl_start(pgctl *pg, const char *dir, char *err, size_t errlen);
/* Where the cluster of state directory `dir` is, if it has one, making
 * and starting nothing (for the commands that only read): DIR/pg, or as
 * root PGCTL_CLUSTERS/HASH/pg, when it is a data directory of ours (a
 * directory, not a link, holding PG_VERSION, owned by the server's user,
 * closed to others). 0 with its path in data, or ARB_ENOTFOUND. */
int pgctl_locate(const char *dir, char *data, size_t len);
/* Where a state directory's `what` (the local worker's "work": bots'
 * directories and programs) goes: STATE/what, or, as root when other uids
 * cannot enter the state directory (a 0700 ancestor) and bots under uids
 * of their own could not reach it, /var/lib/arbiter-WHAT/HASH (0711,
 * traversal only). Made if missing. True when it is not under STATE. */
bool pgctl_side_dir(const char *state_dir, const char *what, char *out, size_t len);
/* Done with it: stopped if we are its last user and an arbiter started it. */
void pgctl_stop(pgctl *pg);

#endif
