/* live.h — the match driver for real bot processes: each bot in a seat
 * (seat.h) with its own working directory under a base directory, the
 * sandbox chosen once per driver. */
#ifndef ARB_LIVE_H
#define ARB_LIVE_H
#include "match.h"
#include "seat.h"

typedef struct live_options {
    const char *workdir;      /* base directory for the bots' working directories (created) */
    bool        keep_workdir; /* leave the bots' files behind (default: removed at the end) */
    seat_limits limits;       /* rlimits; uid and bwrap are filled in per bot */
    /* As root: bot b runs as uid_base + b (0: 61000). At the end every
     * process of that uid is killed, so drivers that run at the same time
     * (a worker's match slots) need bases ARB_MAX_SEATS apart. */
    uid_t       uid_base;
    int         sandbox;      /* LIVE_SANDBOX_* */
} live_options;

enum { LIVE_SANDBOX_AUTO = 0, LIVE_SANDBOX_NONE, LIVE_SANDBOX_BWRAP };

typedef struct live_driver live_driver;

/* NULL and a message in err when the sandbox asked for cannot be had. */
live_driver *live_new(const live_options *opt, char *err, size_t errlen);
const match_driver *live_driver_of(live_driver *l);
void live_free(live_driver *l);

#endif
