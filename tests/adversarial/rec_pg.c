/* rec_pg.c — the private PostgreSQL against local users and against its own
 * client (docs/security.md, "Local users, the record and tournament
 * files"): the modes of the state directory, socket directory, socket and
 * password files; no connection without the password, for any role; as
 * root, another uid (nobody) cannot reach the socket even holding the
 * password, nor read the password files; the arbiter role is no superuser
 * and can neither run a host program (COPY ... TO PROGRAM), read a host
 * file, nor make itself or anyone a superuser; a cluster made by the old
 * code (trust authentication) is refused with what to do. Every check here
 * failed on the code before the fix (trust, superuser arbiter, a 0755
 * socket directory, a 0777 socket). Usage: rec_pg */
#include "pgctl.h"
#include "arb_file.h"
#include "arb_error.h"
#include "arb_num.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned mode_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0xffffu;
}

/* Run sql as conninfo's role: 1 when it succeeded, 0 when refused, -1 when
 * the connection failed. */
static int try_sql(const char *conninfo, const char *sql, char *why, size_t whylen)
{
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        snprintf(why, whylen, "%s", PQerrorMessage(c));
        PQfinish(c);
        return -1;
    }
    PGresult *r = PQexec(c, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    snprintf(why, whylen, "%s", ok && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return ok;
}

/* As uid/gid nobody in a child: can it connect (with the password given in
 * the conninfo), can it read path? Exit code bit 0: connected, bit 1: read. */
static int as_nobody(const char *conninfo, const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(100);
        int got = 0;
        PGconn *c = PQconnectdb(conninfo);
        if (PQstatus(c) == CONNECTION_OK)
            got |= 1;
        PQfinish(c);
        FILE *f = fopen(path, "r");
        if (f) {
            got |= 2;
            fclose(f);
        }
        _exit(got);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

/* initdb with trust into old/pg, as the old code made clusters (as root,
 * owned by and run as postgres): posix_spawn with an argv, no shell. */
static int old_cluster(const char *old, bool root)
{
    char bin[600] = "", initdb[700], data[300];
    DIR *d = opendir("/usr/lib/postgresql");
    int best = -1;
    for (struct dirent *e; d && (e = readdir(d));) {
        int v;
        if (arb_parse_int(e->d_name, 0, 9999, &v) == 0 && v > best) {
            best = v;
            snprintf(bin, sizeof bin, "/usr/lib/postgresql/%s/bin", e->d_name);
        }
    }
    if (d)
        closedir(d);
    int n1 = snprintf(initdb, sizeof initdb, "%s/initdb", bin), n2 = snprintf(data, sizeof data, "%s/pg", old);
    if (best < 0 || n1 < 0 || (size_t)n1 >= sizeof initdb || n2 < 0 || (size_t)n2 >= sizeof data)
        return -1;
    if (mkdir(data, 0700) != 0 && errno != EEXIST)
        return -1;
    struct passwd *pw = root ? getpwnam("postgres") : NULL;
    if (root && (!pw || chown(data, pw->pw_uid, pw->pw_gid) != 0))
        return -1;
    char *plain[] = {initdb, "-D", data, "-A", "trust", "-U", "arbiter", "--no-sync", "-E", "UTF8", NULL};
    char *as_pg[] = {"runuser", "-u", "postgres", "--", initdb, "-D", data, "-A", "trust", "-U", "arbiter",
                     "--no-sync", "-E", "UTF8", NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, root ? "runuser" : initdb, &fa, NULL, root ? as_pg : plain, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status;
    if (rc != 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(void)
{
    char dir[128], state[200], old[200], path[700], why[1024], ci[1600];
    bool root = geteuid() == 0;
    snprintf(dir, sizeof dir, "/tmp/arbiter-rec-pg-%d", (int)getpid());
    snprintf(state, sizeof state, "%s/state", dir);
    snprintf(old, sizeof old, "%s/old", dir);
    mkdir(dir, 0755);
    mkdir(state, 0755);   /* as the old code (and place.c) made it: tightened on start */
    pgctl pg;
    int rc = pgctl_start(&pg, state, why, sizeof why);
    CHECKF(rc == 0, "pgctl_start: %s", why);
    if (rc != 0)
        return TEST_DONE("rec_pg");

    /* ---- modes ---- */
    CHECKF(mode_of(pg.dir) == (root ? 0711u : 0700u), "state directory mode %o", mode_of(pg.dir));
    CHECKF(mode_of(pg.sockdir) == 0700u, "socket directory mode %o", mode_of(pg.sockdir));
    snprintf(path, sizeof path, "%s/.s.PGSQL.5432", pg.sockdir);
    CHECKF((mode_of(path) & 0777) == 0700u, "socket mode %o", mode_of(path));
    CHECKF(mode_of(pg.data) == 0700u, "data directory mode %o", mode_of(pg.data));
    char upf[700], apf[700];
    snprintf(upf, sizeof upf, "%s/pg-arbiter.pgpass", pg.dir);
    snprintf(apf, sizeof apf, "%s/pg-admin.pgpass", pg.dir);
    CHECKF(mode_of(upf) == 0600u && mode_of(apf) == 0600u, "password files %o %o", mode_of(upf), mode_of(apf));
    CHECKF(strstr(pg.conninfo, "password=") == NULL, "no password in the conninfo: %s", pg.conninfo);

    /* ---- what the arbiter role may do ---- */
    CHECKF(try_sql(pg.conninfo, "SELECT current_user || ':' || rolsuper || rolcreaterole FROM pg_roles "
                                "WHERE rolname = current_user", why, sizeof why) == 1
           && strcmp(why, "arbiter:falsefalse") == 0, "arbiter is not a superuser: %s", why);
    char marker[300], sql[600];
    snprintf(marker, sizeof marker, "%s/copy-to-program-ran", dir);
    snprintf(sql, sizeof sql, "COPY (SELECT 1) TO PROGRAM 'touch %s'", marker);
    CHECKF(try_sql(pg.conninfo, sql, why, sizeof why) == 0 && access(marker, F_OK) != 0,
           "COPY TO PROGRAM refused: %s", why);
    CHECKF(try_sql(pg.conninfo, "SELECT pg_read_file('/etc/passwd')", why, sizeof why) == 0,
           "pg_read_file refused: %s", why);
    CHECKF(try_sql(pg.conninfo, "COPY (SELECT 1) TO '/tmp/rec-pg-copy-out'", why, sizeof why) == 0,
           "COPY TO a server file refused: %s", why);
    CHECKF(try_sql(pg.conninfo, "ALTER ROLE arbiter SUPERUSER", why, sizeof why) == 0, "ALTER ROLE SUPERUSER: %s", why);
    CHECKF(try_sql(pg.conninfo, "CREATE ROLE rec_evil SUPERUSER LOGIN PASSWORD 'x'", why, sizeof why) == 0,
           "CREATE ROLE SUPERUSER: %s", why);
    CHECKF(try_sql(pg.conninfo, "GRANT pg_execute_server_program TO arbiter", why, sizeof why) == 0,
           "GRANT pg_execute_server_program: %s", why);
    CHECKF(try_sql(pg.conninfo, "ALTER ROLE arbiter_admin PASSWORD 'x'", why, sizeof why) == 0,
           "ALTER ROLE arbiter_admin PASSWORD: %s", why);
    /* what it needs: its tables in its database, and databases of its own (the tests) */
    CHECKF(try_sql(pg.conninfo, "CREATE TABLE rec_t (x int); DROP TABLE rec_t", why, sizeof why) == 1, "%s", why);

    /* ---- no password, no entry: any role, any database ---- */
    const char *roles[] = {"arbiter", "arbiter_admin", "postgres", "root", NULL};
    for (int i = 0; roles[i]; i++) {
        snprintf(ci, sizeof ci, "host=%s port=5432 user=%s dbname=postgres passfile=/nonexistent/pgpass", pg.sockdir, roles[i]);
        int got = try_sql(ci, "SELECT 1", why, sizeof why);
        CHECKF(got == -1 && (strstr(why, "password") || strstr(why, "does not exist")),
               "%s without a password: refused (%s)", roles[i], why);
    }
    snprintf(ci, sizeof ci, "host=%s port=5432 user=arbiter dbname=arbiter password=wrong passfile=/nonexistent/pgpass", pg.sockdir);
    CHECKF(try_sql(ci, "SELECT 1", why, sizeof why) == -1, "a wrong password: refused (%s)", why);

    /* ---- another local uid ---- */
    if (root) {
        FILE *f = fopen(upf, "r");
        char line[256] = "", pw[65] = "";
        if (f && fgets(line, sizeof line, f))
            snprintf(pw, sizeof pw, "%.64s", line + strlen("*:*:*:arbiter:"));
        if (f)
            fclose(f);
        /* even told the password, nobody cannot reach the socket */
        snprintf(ci, sizeof ci, "host=%s port=5432 user=arbiter dbname=arbiter password=%s passfile=/nonexistent/pgpass",
                 pg.sockdir, pw);
        CHECKF(try_sql(ci, "SELECT 1", why, sizeof why) == 1, "root with the password connects (%s)", why);
        int got = as_nobody(ci, upf);
        CHECKF(got != 100 && !(got & 1), "nobody cannot connect, even with the password (%d)", got);
        CHECKF(got != 100 && !(got & 2), "nobody cannot read the password file (%d)", got);
        got = as_nobody(pg.conninfo, apf);
        CHECKF(got != 100 && got == 0, "nobody with arbiter's own conninfo: nothing (%d)", got);
    } else {
        printf("rec_pg: skip: the check from another uid needs root (setuid to nobody); the modes above stand "
               "for it\n");
    }

    /* ---- started again: the same passwords, the attributes put back ---- */
    pgctl_stop(&pg);
    rc = pgctl_start(&pg, state, why, sizeof why);
    CHECKF(rc == 0, "started again: %s", why);
    CHECKF(rc == 0 && try_sql(pg.conninfo, "SELECT current_user", why, sizeof why) == 1, "reconnect: %s", why);
    pgctl_stop(&pg);

    /* ---- a cluster the old code made (trust) is refused ---- */
    mkdir(old, 0755);
    /* as root the data directory is postgres's and initdb runs as postgres, as the old code did */
    CHECKF(old_cluster(old, root) == 0, "an old-style cluster made in %s/pg", old);
    pgctl pg2;
    rc = pgctl_start(&pg2, old, why, sizeof why);
    CHECKF(rc == ARB_ESTATE && strstr(why, "trust") && strstr(why, "mv "), "the old cluster refused: %d %s", rc, why);
    if (rc == 0)
        pgctl_stop(&pg2);

    if (arb_remove_tree(dir) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return TEST_DONE("rec_pg");
}
