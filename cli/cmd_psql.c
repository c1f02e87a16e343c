/* cmd_psql.c — `arbiter psql`: psql on the record of a state directory,
 * its private cluster started for the session and stopped after. */
#include "cli.h"
#include "arb_error.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void psql_usage(FILE *f)
{
    fprintf(f, "usage: arbiter psql [--state DIR | --db CONNINFO] [--] [PSQL-ARGUMENTS...]\n\n"
               "psql connected to the record: the private cluster of state directory DIR\n"
               "(default arbiter-state; started if it is not running, stopped after when\n"
               "nothing else uses it) as role arbiter, database arbiter; or CONNINFO.\n"
               "The arguments after the options go to psql as they are, e.g.\n"
               "  arbiter psql --state DIR -c 'select * from standings'\n"
               "psql's exit status is the command's. Exits 3 when DIR holds no record.\n");
}

int cmd_psql(int argc, char **argv)
{
    const char *state = "arbiter-state", *db = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            psql_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        const char **to = strcmp(a, "--state") == 0 ? &state : strcmp(a, "--db") == 0 ? &db : NULL;
        if (to) {
            if (i + 1 >= argc) {
                fprintf(stderr, "arbiter: psql: option %s needs a value\n", a);
                psql_usage(stderr);
                return CLI_EXIT_USAGE;
            }
            *to = argv[++i];
        } else if (strncmp(a, "--state=", 8) == 0) {
            state = a + 8;
        } else if (strncmp(a, "--db=", 5) == 0) {
            db = a + 5;
        } else {
            break;   /* psql's own from here */
        }
    }
    db_place place;
    char err[1024];
    int rc = cli_open_record(&place, state, db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: psql: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    /* psql from the cluster's own bin directory when it is private, else PATH */
    char prog[300];
    if (place.private_pg)
        snprintf(prog, sizeof prog, "%s/psql", place.pg.bin);
    else
        snprintf(prog, sizeof prog, "psql");
    char **args = calloc((size_t)(argc - i) + 4, sizeof *args);
    int status = CLI_EXIT_FAIL;
    if (!args) {
        fprintf(stderr, "arbiter: psql: out of memory\n");
        goto out;
    }
    int n = 0;
    args[n++] = "psql";
    args[n++] = "-d";
    args[n++] = place.conninfo;   /* conninfo, never a password: those are in the passfile */
    for (int k = i; k < argc; k++)
        args[n++] = argv[k];
    args[n] = NULL;
    /* a child, not exec: the cluster is stopped after psql, when nothing
     * else uses it (pgctl.h) */
    void (*was)(int) = signal(SIGINT, SIG_IGN);   /* ^C is psql's (it cancels a query) */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, was);
        if (place.private_pg)
            execv(prog, args);
        else
            execvp(prog, args);
        fprintf(stderr, "arbiter: psql: %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    int ws = 0;
    while (pid > 0 && waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (pid < 0)
        fprintf(stderr, "arbiter: psql: fork: %s\n", strerror(errno));
    else
        status = WIFEXITED(ws) ? WEXITSTATUS(ws) : CLI_EXIT_FAIL;
out:
    free(args);
    cli_close_place(&place);
    return status;
}
