/* pgctl.c — the private PostgreSQL cluster (pgctl.h). */
#include "pgctl.h"
#include "arb_error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The newest /usr/lib/postgresql/N/bin, or the directory of initdb in PATH. */
static int find_bin(char *out, size_t len)
{
    int best = -1;
    DIR *d = opendir("/usr/lib/postgresql");
    for (struct dirent *e; d && (e = readdir(d));) {
        int v = atoi(e->d_name);
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

/* Run a PostgreSQL program (no shell), as `postgres` when we are root;
 * its output goes to `log`. Returns its exit status. */
static int run(const pgctl *pg, const char *prog, char *const args[], const char *log)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", pg->bin, prog);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (nul >= 0)
            dup2(nul, 0);
        if (geteuid() == 0) {
            struct passwd *pw = getpwnam("postgres");
            if (!pw || setgroups(0, NULL) || setgid(pw->pw_gid) || setuid(pw->pw_uid))
                _exit(125);
        }
        char *argv[32];
        int n = 0;
        argv[n++] = path;
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(path, argv);
        _exit(127);
    }
    int status = -1;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int pgctl_start(pgctl *pg, const char *dir, char *err, size_t errlen)
{
    memset(pg, 0, sizeof *pg);
    if (find_bin(pg->bin, sizeof pg->bin) != 0) {
        snprintf(err, errlen, "PostgreSQL is not installed (no initdb); install postgresql or give --db");
        return ARB_ENOTFOUND;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return ARB_EIO;
    }
    if (!realpath(dir, pg->dir)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return ARB_EIO;
    }
    snprintf(pg->data, sizeof pg->data, "%s/pg", pg->dir);
    /* A Unix socket path is at most 107 bytes: a deep state directory puts
     * its socket in /tmp instead, named after it. */
    if (strlen(pg->dir) + 24 < 100) {
        snprintf(pg->sockdir, sizeof pg->sockdir, "%s/run", pg->dir);
    } else {
        unsigned h = 5381;
        for (const char *c = pg->dir; *c; c++)
            h = h * 33 + (unsigned char)*c;
        snprintf(pg->sockdir, sizeof pg->sockdir, "/tmp/arbiter-pg-%08x", h);
    }
    mkdir(pg->sockdir, 0755);
    struct passwd *pw = geteuid() == 0 ? getpwnam("postgres") : NULL;
    if (geteuid() == 0 && !pw) {
        snprintf(err, errlen, "running as root and there is no `postgres` user to run the server as");
        return ARB_EINVAL;
    }
    if (pw && chown(pg->sockdir, pw->pw_uid, pw->pw_gid) != 0) {
        snprintf(err, errlen, "%s: %s", pg->sockdir, strerror(errno));
        return ARB_EIO;
    }
    char log[700], version[700];
    snprintf(log, sizeof log, "%s/postgres.log", pg->dir);
    if (pw) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            if (fchown(fd, pw->pw_uid, pw->pw_gid) != 0) { /* the server can still log elsewhere */ }
            close(fd);
        }
    }
    snprintf(version, sizeof version, "%s/PG_VERSION", pg->data);
    if (access(version, F_OK) != 0) {
        if (mkdir(pg->data, 0700) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: %s", pg->data, strerror(errno));
            return ARB_EIO;
        }
        if (pw && chown(pg->data, pw->pw_uid, pw->pw_gid) != 0) {
            snprintf(err, errlen, "%s: %s", pg->data, strerror(errno));
            return ARB_EIO;
        }
        char *args[] = {"-D", pg->data, "-A", "trust", "-U", "arbiter", "--no-sync", "-E", "UTF8", NULL};
        if (run(pg, "initdb", args, log) != 0) {
            snprintf(err, errlen, "initdb failed: see %s", log);
            return ARB_EIO;
        }
    }
    snprintf(pg->conninfo, sizeof pg->conninfo, "host=%s port=5432 user=arbiter dbname=postgres", pg->sockdir);
    char *status[] = {"-D", pg->data, "status", NULL};
    if (run(pg, "pg_ctl", status, log) == 0)
        return 0;   /* left running by an earlier run: use it */
    char opts[900];
    snprintf(opts, sizeof opts, "-k %s -c listen_addresses='' -p 5432 -c fsync=on", pg->sockdir);
    char *start[] = {"-D", pg->data, "-o", opts, "-l", log, "-w", "-t", "60", "start", NULL};
    if (run(pg, "pg_ctl", start, log) != 0) {
        snprintf(err, errlen, "the database would not start: see %s", log);
        return ARB_EIO;
    }
    pg->started = true;
    return 0;
}

void pgctl_stop(pgctl *pg)
{
    if (!pg->started)
        return;
    char log[700];
    snprintf(log, sizeof log, "%s/postgres.log", pg->dir);
    char *stop[] = {"-D", pg->data, "-m", "fast", "-w", "stop", NULL};
    run(pg, "pg_ctl", stop, log);
    pg->started = false;
}
