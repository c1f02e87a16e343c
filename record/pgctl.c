/* pgctl.c — the private PostgreSQL cluster, closed to everyone but arbiter (pgctl.h). */
#include "pgctl.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The newest /usr/lib/postgresql/N/bin, or the directory of initdb in PATH. */
static int find_bin(char *out, size_t len)
{
    int best = -1;
    DIR *d = opendir("/usr/lib/postgresql");
    for (struct dirent *e; d && (e = readdir(d));) {
        int v;   /* a major version: "15" */
        if (arb_parse_int(e->d_name, 0, 9999, &v) != 0)
            continue;
        char path[600];
        snprintf(path, sizeof path, "/usr/lib/postgresql/%s/bin/initdb", e->d_name);
        if (v > best && access(path, X_OK) == 0) {
            best = v;
            snprintf(out, len, "/usr/lib/postgresql/%.200s/bin", e->d_name);
        }
    }
    if (d)
        closedir(d);
    if (best >= 0)
        return 0;
    if (access("/usr/bin/initdb", X_OK) == 0) {
        snprintf(out, len, "/usr/bin");
        return 0;
    }
    return ARB_ENOTFOUND;
}

/* Become the postgres user (in a child, as root). */
static int drop_to_postgres(void)
{
    struct passwd *pw = getpwnam("postgres");
    if (!pw || setgroups(0, NULL) || setgid(pw->pw_gid) || setuid(pw->pw_uid))
        return -1;
    return 0;
}

/* Run a PostgreSQL program (no shell), as `postgres` when we are root, in
 * directory `cwd` (NULL: ours); its output goes to `log`, `input` (or
 * nothing) to its stdin through a pipe (a password never goes on a command
 * line). Returns its exit status. */
static int run(const pgctl *pg, const char *prog, char *const args[], const char *log, const char *input,
               const char *cwd)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", pg->bin, prog);
    int in[2] = {-1, -1};
    if (input && pipe2(in, O_CLOEXEC) != 0)
        return 128;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (input)
            dup2(in[0], 0);
        else if (nul >= 0)
            dup2(nul, 0);
        if (cwd && chdir(cwd) != 0)
            _exit(125);
        if (geteuid() == 0 && drop_to_postgres() != 0)
            _exit(125);
        char *argv[32];
        int n = 0;
        argv[n++] = path;
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(path, argv);
        _exit(127);
    }
    if (input) {
        close(in[0]);
        size_t len = strlen(input), off = 0;
        while (pid > 0 && off < len) {
            ssize_t w = write(in[1], input + off, len - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        close(in[1]);
    }
    int status = -1;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Can the postgres user reach `dir`? (A 0700 ancestor says no.) */
static bool postgres_can_enter(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(drop_to_postgres() == 0 && access(dir, X_OK) == 0 ? 0 : 1);
    int status = -1;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* A directory of ours with exactly `mode`, owned by uid/gid: made if
 * missing; a symbolic link is refused, and so is (unless we are root, who
 * takes it over) one somebody else made first (a shared /tmp). */
static int own_dir(const char *path, mode_t mode, uid_t uid, gid_t gid, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(path, mode) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory (a symbolic link?): refusing it", path);
        return ARB_EINVAL;
    }
    if (geteuid() != 0 && st.st_uid != geteuid() && st.st_uid != uid) {   /* root takes it over below */
        snprintf(err, errlen, "%s belongs to uid %u, not to us: refusing it (remove it and run again)", path,
                 (unsigned)st.st_uid);
        return ARB_EINVAL;
    }
    if ((st.st_uid != uid || st.st_gid != gid) && chown(path, uid, gid) != 0) {
        snprintf(err, errlen, "%s: chown: %s", path, strerror(errno));
        return ARB_EIO;
    }
    if (chmod(path, mode) != 0) {
        snprintf(err, errlen, "%s: chmod: %s", path, strerror(errno));
        return ARB_EIO;
    }
    return 0;
}

/* 32 random bytes as 64 hex digits. */
static int new_password(char out[65])
{
    unsigned char b[32];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0 && errno != EINTR)
            return ARB_EIO;
        if (n > 0)
            got += (size_t)n;
    }
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return 0;
}

/* A libpq password file "*:*:*:ROLE:PASSWORD", 0600, ours: the password is
 * read from it if it is there, else made and written (O_EXCL: never through
 * a link somebody left). */
static int passfile(const char *path, const char *role, char pw[65], char *err, size_t errlen)
{
    char want[128], line[256] = "";
    int n = snprintf(want, sizeof want, "*:*:*:%s:", role);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        struct stat st;
        ssize_t got = fstat(fd, &st) == 0 ? read(fd, line, sizeof line - 1) : -1;
        close(fd);
        if (got < n + 64 || st.st_uid != geteuid() || (st.st_mode & 077) || strncmp(line, want, (size_t)n) != 0) {
            snprintf(err, errlen, "%s: not a password file of ours (0600, \"%s<64 hex digits>\")", path, want);
            return ARB_EINVAL;
        }
        memcpy(pw, line + n, 64);
        pw[64] = 0;
        return 0;
    }
    if (errno != ENOENT || new_password(pw) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    /* written beside it and renamed: a kill midway leaves no half file
     * that the next start would refuse */
    char tmp[720];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    unlink(tmp);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int len = snprintf(line, sizeof line, "%s%s\n", want, pw);
    if (fd < 0 || fchmod(fd, 0600) != 0 || write(fd, line, (size_t)len) != len || fsync(fd) != 0
        || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        return ARB_EIO;
    }
    close(fd);
    return 0;
}

static void no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message;   /* "role is not a member of ...": the set-up says nothing when all is well */
}

/* A statement that succeeds; with `dup_ok`, one that fails because what it
 * creates is there also counts (42710 duplicate_object, 42P04
 * duplicate_database, 23505 unique_violation: a CREATE DATABASE that a
 * killed start had sent went on in the server and committed first). */
static bool sql_run(PGconn *c, const char *sql, const char *const *params, int n, bool dup_ok, char *err,
                    size_t errlen)
{
    PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (!ok && dup_ok && state
        && (strcmp(state, "42710") == 0 || strcmp(state, "42P04") == 0 || strcmp(state, "23505") == 0))
        ok = true;
    if (!ok)
        snprintf(err, errlen, "private cluster set-up: %s", PQerrorMessage(c));
    PQclear(r);
    return ok;
}

static bool sql_ok(PGconn *c, const char *sql, const char *const *params, int n, char *err, size_t errlen)
{
    return sql_run(c, sql, params, n, false, err, errlen);
}

/* The role arbiter (not a superuser, may create databases: the tests make
 * their own) with its password, and its database. Run at every start: it
 * also puts back attributes somebody changed. The password goes to the
 * server as a SCRAM verifier, never in clear. */
static int setup_roles(const pgctl *pg, const char *user_pw, char *err, size_t errlen)
{
    PGconn *c = PQconnectdb(pg->admin_conninfo);
    int rc = ARB_EIO;
    char *verifier = NULL;
    if (PQstatus(c) != CONNECTION_OK) {
        snprintf(err, errlen, "private cluster: cannot connect as its superuser: %s", PQerrorMessage(c));
        goto out;
    }
    PQsetNoticeProcessor(c, no_notices, NULL);
    PGresult *r = PQexec(c, "SELECT 1 FROM pg_roles WHERE rolname = 'arbiter'");
    bool have_role = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    PQclear(r);
    if (!have_role && !sql_run(c, "CREATE ROLE arbiter LOGIN", NULL, 0, true, err, errlen))
        goto out;
    verifier = PQencryptPasswordConn(c, user_pw, "arbiter", "scram-sha-256");
    if (!verifier) {
        snprintf(err, errlen, "private cluster set-up: %s", PQerrorMessage(c));
        goto out;
    }
    /* a verifier is hex, base64 and '$:=': safe inside quotes */
    char sql[1024];
    snprintf(sql, sizeof sql, "ALTER ROLE arbiter LOGIN NOSUPERUSER NOCREATEROLE CREATEDB NOREPLICATION NOBYPASSRLS "
             "PASSWORD '%s'", verifier);
    if (!sql_ok(c, sql, NULL, 0, err, errlen))
        goto out;
    /* no path to the host's programs or files, even if granted by hand */
    if (!sql_ok(c, "REVOKE pg_execute_server_program, pg_read_server_files, pg_write_server_files FROM arbiter",
                NULL, 0, err, errlen))
        goto out;
    /* the web's role (018_accounts.sql): NOLOGIN, taken by `arbiter serve`
     * with SET ROLE, which arbiter may do as its member */
    r = PQexec(c, "SELECT 1 FROM pg_roles WHERE rolname = 'arbiter_web'");
    bool have_web = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    PQclear(r);
    if ((!have_web && !sql_run(c, "CREATE ROLE arbiter_web NOLOGIN", NULL, 0, true, err, errlen))
        || !sql_ok(c, "ALTER ROLE arbiter_web NOLOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOINHERIT", NULL, 0, err,
                   errlen)
        || !sql_ok(c, "GRANT arbiter_web TO arbiter", NULL, 0, err, errlen))
        goto out;
    r = PQexec(c, "SELECT 1 FROM pg_database WHERE datname = 'arbiter'");
    bool have_db = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    PQclear(r);
    if (!have_db && !sql_run(c, "CREATE DATABASE arbiter OWNER arbiter", NULL, 0, true, err, errlen))
        goto out;
    rc = 0;
out:
    PQfreemem(verifier);
    PQfinish(c);
    return rc;
}

/* Quoted for a libpq conninfo string: in single quotes, with ' and \
 * backslash-escaped. Returns false when it does not fit. */
static bool conninfo_quote(char *out, size_t len, const char *v)
{
    size_t n = 0;
    if (len < 3)
        return false;
    out[n++] = '\'';
    for (; *v; v++) {
        if (n + 4 > len)
            return false;
        if (*v == '\'' || *v == '\\')
            out[n++] = '\\';
        out[n++] = *v;
    }
    out[n++] = '\'';
    out[n] = 0;
    return true;
}

/* The socket directory as a postgres option for pg_ctl -o, which pg_ctl
 * hands to /bin/sh: a list entry for unix_socket_directories in double
 * quotes (" doubled: a comma or a blank is then part of the name), all of
 * it in shell single quotes (' as '\''). Returns false when it does not
 * fit. */
static bool socket_option(char *out, size_t len, const char *sockdir)
{
    size_t n = 0;
    const char *head = "-k '\"";
    for (; *head && n < len; head++)
        out[n++] = *head;
    for (; *sockdir; sockdir++) {
        if (n + 8 > len)
            return false;
        if (*sockdir == '"')
            out[n++] = '"';
        if (*sockdir == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            out[n++] = *sockdir;
        }
    }
    if (n + 3 > len)
        return false;
    memcpy(out + n, "\"'", 3);
    return true;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* A data directory of ours: a directory (not a link) of the server's
 * user, closed to others, with its PG_VERSION. */
static bool is_cluster(const char *data, uid_t suid)
{
    struct stat st;
    char version[700];
    int w = snprintf(version, sizeof version, "%s/PG_VERSION", data);
    if (w < 0 || (size_t)w >= sizeof version)
        return false;   /* a path too long to be ours: never a cut one checked */
    return lstat(data, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == suid && !(st.st_mode & 0007)
           && lstat(version, &st) == 0 && S_ISREG(st.st_mode);
}

int pgctl_locate(const char *dir, char *data, size_t len)
{
    char real[PATH_MAX], at[700];
    if (!realpath(dir, real) || strlen(real) >= sizeof ((pgctl *)0)->dir)
        return ARB_ENOTFOUND;
    bool root = geteuid() == 0;
    struct passwd *pw = root ? getpwnam("postgres") : NULL;
    if (root && !pw)
        return ARB_ENOTFOUND;
    uid_t suid = pw ? pw->pw_uid : geteuid();
    /* the places pgctl_start looks, in its order */
    snprintf(at, sizeof at, "%s/pg", real);
    if (!is_cluster(at, suid) && root)
        snprintf(at, sizeof at, "%s/%016" PRIx64 "/pg", PGCTL_CLUSTERS, fnv1a(real));
    if (!is_cluster(at, suid))
        return ARB_ENOTFOUND;
    snprintf(data, len, "%s", at);
    return 0;
}

/* DIR/NAME opened (made if missing) and locked with `how` (waiting for
 * it): the descriptor, or -1. */
static int lock_file(const char *dir, const char *name, int how)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    while (fd >= 0 && flock(fd, how) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int start_locked(pgctl *pg, bool root, uid_t suid, gid_t sgid, char *err, size_t errlen);
static void stop_locked(pgctl *pg);

int pgctl_start(pgctl *pg, const char *dir, char *err, size_t errlen)
{
    memset(pg, 0, sizeof *pg);
    pg->users_fd = -1;
    if (find_bin(pg->bin, sizeof pg->bin) != 0) {
        snprintf(err, errlen, "PostgreSQL is not installed (no initdb); install postgresql or give --db");
        return ARB_ENOTFOUND;
    }
    bool root = geteuid() == 0;
    struct passwd *pw = root ? getpwnam("postgres") : NULL;
    if (root && !pw) {
        snprintf(err, errlen, "running as root and there is no `postgres` user to run the server as");
        return ARB_EINVAL;
    }
    uid_t suid = pw ? pw->pw_uid : geteuid();   /* the server's user */
    gid_t sgid = pw ? pw->pw_gid : getegid();
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return ARB_EIO;
    }
    if (!realpath(dir, pg->dir)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return ARB_EIO;
    }
    /* The state directory: ours, closed (as root, bots under uids of their
     * own enter it to reach their working directories: traversal only). */
    int rc = own_dir(pg->dir, root ? 0711 : 0700, geteuid(), getegid(), err, errlen);
    if (rc)
        return rc;
    /* pgctl.h: a user of the cluster from here to pgctl_stop; the start
     * (and any set-up) one at a time */
    int ctl = lock_file(pg->dir, "pg-ctl", LOCK_EX);
    pg->users_fd = ctl >= 0 ? lock_file(pg->dir, "pg-users", LOCK_SH) : -1;
    if (pg->users_fd < 0) {
        snprintf(err, errlen, "%s: its lock files pg-ctl, pg-users: %s", pg->dir, strerror(errno));
        if (ctl >= 0)
            close(ctl);
        return ARB_EIO;
    }
    rc = start_locked(pg, root, suid, sgid, err, errlen);
    if (rc) {
        close(pg->users_fd);
        pg->users_fd = -1;
    }
    close(ctl);
    return rc;
}

/* pg_ctl start failed: was it because a server is starting already? A
 * run killed during its first start leaves its server coming up on its
 * own (pg_ctl puts the server in a session of its own, out of reach of a
 * kill of the run's process group), and before that server has written
 * its postmaster.pid `pg_ctl status` says nothing runs: this start then
 * finds the other's lock file and gives up. If a server answers within
 * pg_ctl's 60 s, it is the one to use (the pg-started marker is already
 * there, so the last user stops it). */
static bool came_up(pgctl *pg, char **status, const char *log)
{
    for (int tries = 0; tries < 600; tries++) {
        if (run(pg, "pg_ctl", status, log, NULL, NULL) == 0 && PQping(pg->admin_conninfo) == PQPING_OK)
            return true;
        if (tries >= 50 && run(pg, "pg_ctl", status, log, NULL, NULL) != 0)
            return false;   /* 5 s and still nothing running: no other start */
        sleep_ms(100);
    }
    return false;
}


/* pgctl_start once the state directory is ours and DIR/pg-ctl held. */
static int start_locked(pgctl *pg, bool root, uid_t suid, gid_t sgid, char *err, size_t errlen)
{
    int rc;
    uint64_t h = fnv1a(pg->dir);
    char home[480], admin_pf[700], user_pf[700], log[700], version[700], pointer[700];
    snprintf(home, sizeof home, "%s/%016" PRIx64, PGCTL_CLUSTERS, h);
    snprintf(pointer, sizeof pointer, "%s/cluster", pg->dir);
    snprintf(admin_pf, sizeof admin_pf, "%s/pg-admin.pgpass", pg->dir);
    snprintf(user_pf, sizeof user_pf, "%s/pg-arbiter.pgpass", pg->dir);
    snprintf(pg->data, sizeof pg->data, "%s/pg", pg->dir);
    snprintf(version, sizeof version, "%s/PG_VERSION", pg->data);
    bool in_home = false;
    if (root && !exists(version)) {
        /* a cluster made before under PGCTL_CLUSTERS, or a new one there
         * when the postgres user cannot reach the state directory */
        char v2[700];
        snprintf(v2, sizeof v2, "%s/pg/PG_VERSION", home);
        in_home = exists(v2) || !postgres_can_enter(pg->dir);
    }
    if (in_home) {
        if (own_dir(PGCTL_CLUSTERS, 0755, 0, 0, err, errlen) || own_dir(home, 0700, suid, sgid, err, errlen))
            return ARB_EIO;
        snprintf(pg->data, sizeof pg->data, "%s/pg", home);
        snprintf(pg->sockdir, sizeof pg->sockdir, "%s/run", home);
        snprintf(log, sizeof log, "%s/postgres.log", home);
        FILE *f = fopen(pointer, "we");
        if (f) {   /* for people: where this state directory's record is */
            fprintf(f, "%s\n", home);
            fclose(f);
        }
    } else {
        /* A Unix socket path is at most 107 bytes: a deep state directory
         * puts its socket in /tmp instead, named after it and its user. */
        if (strlen(pg->dir) + 24 < 100)
            snprintf(pg->sockdir, sizeof pg->sockdir, "%s/run", pg->dir);
        else
            snprintf(pg->sockdir, sizeof pg->sockdir, "/tmp/arbiter-pg-%016" PRIx64 "-%u", h, (unsigned)geteuid());
        snprintf(log, sizeof log, "%s/postgres.log", pg->dir);
    }
    snprintf(version, sizeof version, "%s/PG_VERSION", pg->data);
    /* A cluster an older arbiter made: trust authentication, its superuser
     * named arbiter. Refused, with what to do (docs/operations.md). */
    if (exists(version) && (!exists(admin_pf) || !exists(user_pf))) {
        snprintf(err, errlen,
                 "%s: this cluster was made by an older arbiter with trust authentication (any local user could "
                 "connect to it as a superuser). Stop it (%s/pg_ctl -D %s -m fast stop%s), move it aside "
                 "(mv %s %s.trust) and run again: a new cluster is made, and the tournament is played again from "
                 "its file (same seed: same deals); keep the old record first with pg_dump if you need it",
                 pg->data, pg->bin, pg->data, root ? ", as postgres" : "", pg->data, pg->data);
        return ARB_ESTATE;
    }
    char admin_pw[65], user_pw[65];
    if ((rc = passfile(admin_pf, "arbiter_admin", admin_pw, err, errlen)) != 0
        || (rc = passfile(user_pf, "arbiter", user_pw, err, errlen)) != 0)
        return rc;
    if ((rc = own_dir(pg->sockdir, 0700, suid, sgid, err, errlen)) != 0)
        return rc;
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) {
        if (fchown(fd, suid, sgid) != 0 || fchmod(fd, 0600) != 0) { /* the server can still log elsewhere */ }
        close(fd);
    }
    char fresh[620];   /* initdb works here; renamed to pg->data when whole */
    snprintf(fresh, sizeof fresh, "%s.new", pg->data);
    if (!exists(version)) {
        /* what a killed set-up left: a half initdb; an empty pg (older
         * arbiters ran initdb in place) */
        nftw(fresh, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        rmdir(pg->data);
        if ((rc = own_dir(fresh, 0700, suid, sgid, err, errlen)) != 0)
            return rc;
        /* initdb reads the superuser's password from a file: one of the
         * server's user, 0600, in the socket directory (0700), for the
         * moment initdb runs */
        char line[80], pwf[700], opt[720];
        int len = snprintf(line, sizeof line, "%s\n", admin_pw);
        snprintf(pwf, sizeof pwf, "%s/.initdb-pw", pg->sockdir);
        snprintf(opt, sizeof opt, "--pwfile=%s", pwf);
        unlink(pwf);
        int pfd = open(pwf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        bool written = pfd >= 0 && fchown(pfd, suid, sgid) == 0 && write(pfd, line, (size_t)len) == len;
        if (pfd >= 0)
            close(pfd);
        char *args[] = {"-D", fresh, "-A", "scram-sha-256", "-U", "arbiter_admin", opt, "--no-sync", "-E", "UTF8",
                        NULL};
        int st = written ? run(pg, "initdb", args, log, NULL, NULL) : -1;
        unlink(pwf);
        if (st != 0 || rename(fresh, pg->data) != 0) {
            snprintf(err, errlen, "initdb failed: see %s", log);
            return ARB_EIO;
        }
    }
    /* paths in conninfo values quoted: a state directory may hold blanks,
     * quotes, backslashes */
    char q_sock[1300], q_user[1500], q_admin[1500];
    if (!conninfo_quote(q_sock, sizeof q_sock, pg->sockdir) || !conninfo_quote(q_user, sizeof q_user, user_pf)
        || !conninfo_quote(q_admin, sizeof q_admin, admin_pf)
        || snprintf(pg->conninfo, sizeof pg->conninfo, "host=%s port=5432 user=arbiter dbname=arbiter passfile=%s",
                    q_sock, q_user) >= (int)sizeof pg->conninfo
        || snprintf(pg->admin_conninfo, sizeof pg->admin_conninfo,
                    "host=%s port=5432 user=arbiter_admin dbname=postgres passfile=%s", q_sock, q_admin)
               >= (int)sizeof pg->admin_conninfo) {
        snprintf(err, errlen, "%s: the state directory's path is too long", pg->dir);
        return ARB_ERANGE;
    }
    /* Running and accepting connections: use it. Running but not ready
     * (shutting down, starting up: somebody outside the lock, a server
     * that got the terminal's SIGINT): wait until it is one or the other. */
    char *status[] = {"-D", pg->data, "status", NULL};
    bool running = false;
    for (int tries = 0; tries < 600; tries++) {   /* 60 s, as pg_ctl -t 60 */
        running = run(pg, "pg_ctl", status, log, NULL, NULL) == 0;
        if (!running || PQping(pg->admin_conninfo) == PQPING_OK)
            break;
        running = false;
        sleep_ms(100);
    }
    char marker[700];
    snprintf(marker, sizeof marker, "%s/pg-started", pg->dir);
    if (!running && run(pg, "pg_ctl", status, log, NULL, NULL) == 0) {
        snprintf(err, errlen, "the database is running but does not accept connections: see %s", log);
        return ARB_EIO;
    }
    if (!running) {
        /* pg_ctl start runs the server through /bin/sh with -D and -l in
         * double quotes and -o as it is: run it in the directory of the
         * cluster and its log (pg and postgres.log there, plain names),
         * the socket directory quoted for the shell (socket_option) */
        char opts[2600], sockopt[2400], parent[600];
        if (!socket_option(sockopt, sizeof sockopt, pg->sockdir)) {
            snprintf(err, errlen, "%s: the state directory's path is too long", pg->dir);
            return ARB_ERANGE;
        }
        snprintf(opts, sizeof opts,
                 "%s -c listen_addresses='' -p 5432 -c fsync=on -c unix_socket_permissions=0700 "
                 "-c password_encryption=scram-sha-256", sockopt);
        snprintf(parent, sizeof parent, "%s", pg->data);
        *strrchr(parent, '/') = 0;   /* pg->data is PARENT/pg, its log PARENT/postgres.log */
        char *start[] = {"-D", "pg", "-o", opts, "-l", "postgres.log", "-w", "-t", "60", "start", NULL};
        /* the marker before the server: a start killed midway leaves a
         * server that the next last user stops */
        int mfd = open(marker, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (mfd >= 0)
            close(mfd);
        if (run(pg, "pg_ctl", start, log, NULL, parent) != 0 && !came_up(pg, status, log)) {
            snprintf(err, errlen, "the database would not start: see %s", log);
            return ARB_EIO;
        }
        pg->started = true;
    }   /* else left running by an earlier run or by hand: use it */
    rc = setup_roles(pg, user_pw, err, errlen);
    if (rc && pg->started) {
        stop_locked(pg);
        unlink(marker);
    }
    return rc;
}

bool pgctl_side_dir(const char *state_dir, const char *what, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", state_dir, what);
    if (geteuid() != 0)
        return false;
    char blocked[4096];
    if (arb_others_can_reach(state_dir, X_OK, blocked, sizeof blocked) == 1)   /* what a bot's own uid can reach */
        return false;
    char base[128], err[256];
    snprintf(base, sizeof base, "/var/lib/arbiter-%.32s", what);
    if (own_dir(base, 0711, 0, 0, err, sizeof err))
        return false;
    snprintf(out, len, "%s/%016" PRIx64, base, fnv1a(state_dir));
    mkdir(out, 0711);
    return true;
}

static void stop_locked(pgctl *pg)
{
    char log[700];
    snprintf(log, sizeof log, "%s/../postgres.log", pg->data);
    char *stop[] = {"-D", pg->data, "-m", "fast", "-w", "stop", NULL};
    run(pg, "pg_ctl", stop, log, NULL, NULL);
    pg->started = false;
}

void pgctl_stop(pgctl *pg)
{
    if (pg->users_fd < 0)
        return;
    /* pgctl.h: under DIR/pg-ctl nobody comes or goes; pg-users exclusive
     * then means nobody else uses the cluster */
    int ctl = lock_file(pg->dir, "pg-ctl", LOCK_EX);
    char marker[700];
    snprintf(marker, sizeof marker, "%s/pg-started", pg->dir);
    if (ctl >= 0 && flock(pg->users_fd, LOCK_EX | LOCK_NB) == 0 && exists(marker)) {
        stop_locked(pg);
        char *status[] = {"-D", pg->data, "status", NULL};
        char log[700];
        snprintf(log, sizeof log, "%s/../postgres.log", pg->data);
        if (run(pg, "pg_ctl", status, log, NULL, NULL) != 0)
            unlink(marker);
    }
    pg->started = false;
    close(pg->users_fd);
    pg->users_fd = -1;
    if (ctl >= 0)
        close(ctl);
}
