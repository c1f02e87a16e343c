/* place.c — what several commands share: where the record is (a private
 * cluster under a state directory, or a server), and key files. */
#include "cli.h"
#include "arb_error.h"
#include "arb_file.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the record is: --db, $ARBITER_DB, or the private cluster of the
 * state directory (started if needed). With a database, only an exclusive
 * user (a run, the scheduler: transcripts and bots' directories go under
 * the state directory) makes the state directory and takes its lock; a
 * command that only puts things in the record (submit) touches nothing. */
int cli_open_place(db_place *p, const char *state, const char *db, bool exclusive, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->lock_fd = -1;
    if (!db)
        db = getenv("ARBITER_DB");
    if (db && *db && !exclusive) {
        snprintf(p->conninfo, sizeof p->conninfo, "%s", db);
        return 0;
    }
    /* It holds the record's passwords (a private cluster) and transcripts:
     * 0700, or 0711 as root (bots under uids of their own pass through to
     * their working directories, docs/operations.md). */
    int rc = arb_make_dir(state, geteuid() == 0 ? 0711 : 0700, "state directory (state:, --state)", err, errlen);
    if (rc)
        return rc;
    /* One run per state directory at a time: the lock is a writer's (a
     * run, the scheduler: transcripts and bots' directories). Everyone
     * else (import, submit, the readers) takes no part in it: the cluster
     * has its own count of users (pgctl.h), so a run starts, ends and
     * resumes whoever else uses the record meanwhile. */
    if (exclusive) {
        char lock[700];
        snprintf(lock, sizeof lock, "%s/lock", state);
        p->lock_fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (p->lock_fd < 0 || flock(p->lock_fd, LOCK_EX | LOCK_NB) != 0) {
            snprintf(err, errlen, "%s is in use by another arbiter run", state);
            return ARB_ESTATE;
        }
    }
    if (db && *db) {
        snprintf(p->conninfo, sizeof p->conninfo, "%s", db);
        return 0;
    }
    rc = pgctl_start(&p->pg, state, err, errlen);
    if (rc)
        return rc;
    p->private_pg = true;
    snprintf(p->conninfo, sizeof p->conninfo, "%s", p->pg.conninfo);
    return 0;
}

int cli_open_record(db_place *p, const char *state, const char *db, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->lock_fd = -1;
    if (!db)
        db = getenv("ARBITER_DB");
    if (db && *db) {
        snprintf(p->conninfo, sizeof p->conninfo, "%s", db);
        return 0;
    }
    /* A private cluster is DIR/pg, or as root the one DIR/cluster names
     * (pgctl.h): only an existing cluster of this state directory is
     * started; anything else (none, a stale or a foreign DIR/cluster) is
     * nothing to read, and nothing is made. */
    char data[700];
    if (pgctl_locate(state, data, sizeof data) != 0) {
        char named[700];
        struct stat st;
        snprintf(named, sizeof named, "%s/cluster", state);
        snprintf(err, errlen, "no record in %s (%srun a tournament first, or --state DIR / --db CONNINFO)", state,
                 stat(named, &st) == 0 ? "its file `cluster` names no cluster of this state directory; " : "");
        return ARB_ENOTFOUND;
    }
    /* A reader holds no lock of the state directory's (a run's, taken by
     * cli_open_place): serve started first must not keep a run from
     * starting. It is one more user of the cluster (pgctl.h): started
     * here if nobody runs it, stopped by whoever is its last user, so a
     * reader that started it never stops it under a run that came later,
     * nor a run under a reader. */
    int rc = pgctl_start(&p->pg, state, err, errlen);
    if (rc)
        return rc;
    p->private_pg = true;
    snprintf(p->conninfo, sizeof p->conninfo, "%s", p->pg.conninfo);
    return 0;
}

void cli_say_unreachable(const char *cmd, char *err)
{
    const char *why = strncmp(err, "database: ", 10) == 0 ? err + 10 : err;   /* store_open's prefix */
    size_t n = strlen(err);
    while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
        err[--n] = 0;
    fprintf(stderr, "arbiter: %s: the database cannot be reached: %s\n", cmd, why);
}

void cli_close_place(db_place *p)
{
    if (p->private_pg)
        pgctl_stop(&p->pg);
    if (p->lock_fd >= 0)
        close(p->lock_fd);
}

/* Every entrant whose command's files cannot be found has its program in
 * the record, under the tournament this file resumes (said on stderr). */
bool cli_programs_recorded(store *st, const tn_config *cfg)
{
    tn_config *one = malloc(sizeof *one);
    bool all = one != NULL;
    for (int i = 0; all && i < cfg->nentrants; i++) {
        char why[1024];
        *one = *cfg;   /* the one entrant checked alone */
        one->entrants = &cfg->entrants[i];
        one->nentrants = 1;
        if (tn_config_check_commands(one, why, sizeof why) == 0)
            continue;
        all = store_program_recorded(st, cfg->name, cfg->digest, i) == 1;
        if (all)
            fprintf(stderr, "arbiter: %s: its program in the record plays\n", why);
    }
    free(one);
    return all;
}
