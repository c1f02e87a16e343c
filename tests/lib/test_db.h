/* test_db.h — a fresh PostgreSQL database for a C test: in the cluster
 * $ARBITER_TEST_DB names (CI starts one), else in a private cluster of the
 * test's own under /tmp (pgctl.h), removed at the end. */
#ifndef ARB_TEST_DB_H
#define ARB_TEST_DB_H
#include "pgctl.h"
#include "store.h"

#include <libpq-fe.h>
#include <stdbool.h>

typedef struct test_db {
    pgctl pg;
    bool  own_cluster;           /* started here, stopped and removed by test_db_close */
    char  dir[128];
    char  base[1200];            /* the cluster */
    char  name[64];              /* arbiter_<tag>_<pid> */
    char  conninfo[1400];        /* the fresh database */
} test_db;

/* Create the database arbiter_<tag>_<pid> (dropped first if left over).
 * Exits the test with status 2 when no database can be had. */
void test_db_open(test_db *t, const char *tag);
/* The record in it: store_open and store_migrate, and (pg not NULL) a
 * connection of the test's own to look at the rows. Exits the test with
 * status 2 when either fails. */
store *test_db_store(const test_db *t, PGconn **pg);
/* Drop it; stop and remove a private cluster. */
void test_db_close(test_db *t);

#endif
