/* daemon.h — what arbiter-scheduler and arbiter-referee share (daemon.c). */
#ifndef ARB_DAEMON_H
#define ARB_DAEMON_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "arb_conf.h"
#include "arb_http.h"

/* Set by SIGTERM/SIGINT: the first drains (stopping), a second stops at
 * once (stop_now). catch_signals installs the handler and ignores SIGPIPE. */
extern volatile sig_atomic_t stopping, stop_now;
void catch_signals(void);

/* The values of the log_level, log_format and sandbox keys. */
extern const char *const log_levels[];
extern const char *const log_formats[];
extern const char *const sandboxes[];
int sandbox_of(int choice);   /* a `sandboxes` index -> LIVE_SANDBOX_* */

/* A key pair NAME.key / NAME.pub: 0, or an error saying how to make one. */
int key_pair(const char *name, char pub[41], char sec[41], char *err, size_t errlen);
/* A daemon's argument that is none of its keys, said with the key meant. */
void unexpected(const char *daemon, const char *arg, const arb_conf_key *keys);
/* The metrics endpoint, or NULL with the reason logged. */
arb_http *start_metrics(const char *daemon, const char *addr, arb_http_render render, void *ctx);
bool asks_help(int argc, char **argv);   /* --help or -h anywhere */

#endif
