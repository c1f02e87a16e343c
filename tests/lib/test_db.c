/* test_db.c — a fresh database for a C test (test_db.h). */
#include "test_db.h"
#include "arb_file.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void sql(const char *base, const char *stmt, bool must)
{
    PGconn *c = PQconnectdb(base);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "database: %s", PQerrorMessage(c));
        exit(2);
    }
    PGresult *r = PQexec(c, stmt);
    if (must && PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "%s: %s", stmt, PQresultErrorMessage(r));
        exit(2);
    }
    PQclear(r);
    PQfinish(c);
}

void test_db_open(test_db *t, const char *tag)
{
    memset(t, 0, sizeof *t);
    const char *env = getenv("ARBITER_TEST_DB");
    if (env && *env) {
        snprintf(t->base, sizeof t->base, "%s", env);
    } else {
        char err[512];
        snprintf(t->dir, sizeof t->dir, "/tmp/arbiter-%s-test-%d", tag, (int)getpid());
        if (pgctl_start(&t->pg, t->dir, err, sizeof err) != 0) {
            fprintf(stderr, "no database: %s\n", err);
            exit(2);
        }
        t->own_cluster = true;
        snprintf(t->base, sizeof t->base, "%s", t->pg.conninfo);
    }
    char stmt[160];
    snprintf(t->name, sizeof t->name, "arbiter_%s_%d", tag, (int)getpid());
    snprintf(stmt, sizeof stmt, "DROP DATABASE IF EXISTS %s", t->name);
    sql(t->base, stmt, false);
    snprintf(stmt, sizeof stmt, "CREATE DATABASE %s", t->name);
    sql(t->base, stmt, true);
    snprintf(t->conninfo, sizeof t->conninfo, "%s dbname=%s", t->base, t->name);
}

void test_db_close(test_db *t)
{
    char stmt[160];
    snprintf(stmt, sizeof stmt, "DROP DATABASE IF EXISTS %s", t->name);
    sql(t->base, stmt, false);
    if (t->own_cluster) {
        pgctl_stop(&t->pg);
        if (arb_remove_tree(t->dir) != 0)
            fprintf(stderr, "could not remove %s\n", t->dir);
    }
}

store *test_db_store(const test_db *t, PGconn **pg)
{
    char err[512] = "";
    store *db = store_open(t->conninfo, err, sizeof err);
    if (pg)
        *pg = PQconnectdb(t->conninfo);
    if (!db || store_migrate(db, err, sizeof err) != 0 || (pg && PQstatus(*pg) != CONNECTION_OK)) {
        fprintf(stderr, "database: %s\n", err[0] ? err : PQerrorMessage(*pg));
        exit(2);
    }
    return db;
}
