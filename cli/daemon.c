/* daemon.c — what the two daemons (cmd_scheduler.c: arbiter-scheduler and
 * arbiter submit; cmd_referee.c: arbiter-referee) share: their signals, the
 * keys of their YAML files that mean the same, their key pairs, the
 * metrics endpoint and their argument errors. It links neither the record
 * nor the web, so that arbiter-referee links neither. */
#include "daemon.h"
#include "cli_base.h"
#include "live.h"
#include "arb_conf.h"
#include "arb_error.h"
#include "arb_http.h"
#include "arb_log.h"
#include "arb_names.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

volatile sig_atomic_t stopping, stop_now;

/* The first SIGTERM/SIGINT drains; a second one stops at once. */
static void on_signal(int sig)
{
    (void)sig;
    if (__atomic_load_n(&stopping, __ATOMIC_RELAXED))
        __atomic_store_n(&stop_now, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
}

void catch_signals(void)
{
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

const char *const log_levels[] = {"debug", "info", "warn", "error", NULL};
const char *const log_formats[] = {"json", "text", NULL};
const char *const sandboxes[] = {"auto", "bwrap", "none", NULL};

int sandbox_of(int choice)
{
    return choice == 1 ? LIVE_SANDBOX_BWRAP : choice == 2 ? LIVE_SANDBOX_NONE : LIVE_SANDBOX_AUTO;
}

/* A key pair NAME.key / NAME.pub. */
int key_pair(const char *name, char pub[41], char sec[41], char *err, size_t errlen)
{
    char path[1100];
    snprintf(path, sizeof path, "%s.key", name);
    if (!name[0] || cli_read_key(path, sec) != 0) {
        snprintf(err, errlen, "key %s: cannot read %s (make one with `arbiter keygen %s`)", name, path, name);
        return ARB_EIO;
    }
    snprintf(path, sizeof path, "%s.pub", name);
    if (cli_read_key(path, pub) != 0) {
        snprintf(err, errlen, "key %s: %s is not a public key", name, path);
        return ARB_EIO;
    }
    return 0;
}

/* A daemon's argument that is none of its keys: the key meant, if one is
 * near ("--heartbeat-m" -> --heartbeat-ms). The daemons read their options
 * with arb_conf_args, one table for the YAML file and the flags, rather
 * than getopt_long: a flag is a key of the file. */
void unexpected(const char *daemon, const char *arg, const arb_conf_key *keys)
{
    const char *names[64];
    char flags[64][64];
    size_t n = 0;
    for (; keys[n].name && n + 1 < sizeof names / sizeof names[0]; n++) {
        snprintf(flags[n], sizeof flags[n], "%s", keys[n].name);
        for (char *p = flags[n]; *p; p++)
            *p = *p == '_' ? '-' : *p;
        names[n] = flags[n];
    }
    names[n] = NULL;
    const char *near = strncmp(arg, "--", 2) == 0 ? arb_suggest(arg + 2, names, 3) : NULL;
    if (near)
        fprintf(stderr, "%s: unknown option %s (did you mean --%s?)\n", daemon, arg, near);
    else
        fprintf(stderr, "%s: unexpected \"%s\" (%s --help)\n", daemon, arg, daemon);
}

/* The metrics endpoint, or NULL with the reason logged. A port taken (a
 * second referee on this host with the default) says which port and what
 * to do, rather than a bare "Address already in use". */
arb_http *start_metrics(const char *daemon, const char *addr, arb_http_render render, void *ctx)
{
    char err[512];
    arb_http *h = arb_http_start(addr, render, ctx, err, sizeof err);
    if (h)
        return h;
    if (strstr(err, "in use"))
        arb_error(daemon, "metrics %s: the port is taken (another %s on this host?): give each daemon on a "
                  "host its own port (metrics: HOST:PORT in its file, or --metrics HOST:PORT), or --metrics \"\" "
                  "to serve none (%s)", addr, daemon, err);
    else
        arb_error(daemon, "metrics: %s", err);
    return NULL;
}

bool asks_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}
