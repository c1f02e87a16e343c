/* cli_base.h — what every arbiter program shares, the referee daemon
 * included, without the record or the web: exit codes, key files, the
 * daemons' entry points. cli.h adds what the commands share. */
#ifndef ARB_CLI_BASE_H
#define ARB_CLI_BASE_H

/* Exit codes, the same for every command and both daemons (docs/cli.md). */
enum {
    CLI_EXIT_OK = 0,            /* done as asked (also --help, --version) */
    CLI_EXIT_FAIL = 1,          /* what was asked failed: a tournament error, a replay that
                                   diverges, a file that does not check, a match that broke */
    CLI_EXIT_USAGE = 2,         /* usage or configuration: an unknown option, a bad value, a
                                   file that cannot be read, a database that cannot be reached */
    CLI_EXIT_NORECORD = 3,      /* a command that reads the record found none there (no state
                                   directory, no cluster, no tournament of that name) */
    CLI_EXIT_UNSUPPORTED = 4,   /* this system lacks what is needed (a libzmq without CURVE) */
    CLI_EXIT_INTERRUPTED = 130, /* stopped by SIGINT/SIGTERM; the same command resumes */
};

int cmd_scheduler(int argc, char **argv);
int cmd_referee(int argc, char **argv);

/* A key file's first line: 40 Z85 characters. 0 or -1. */
int cli_read_key(const char *path, char key[41]);
/* A line of a worker keys file: a key (40), blanks and a name (64). */
#define CLI_KEY_LINE 112
/* Public keys one a line, each with an optional name after it ("KEY" or
 * "KEY NAME": the worker's identity, zap.h; '#' starts a comment line)
 * into keys: the count, or -1 (with a FILE:LINE message on stderr). */
int cli_read_keys(const char *path, char (*keys)[CLI_KEY_LINE], int cap);

#endif
