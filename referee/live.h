/* live.h — the match driver for real bot processes: each bot in a seat
 * (seat.h) with its own working directory under a base directory, the
 * sandbox chosen once per driver. */
#ifndef ARB_LIVE_H
#define ARB_LIVE_H
#include "match.h"
#include "seat.h"

#define LIVE_MAX_HIDE 6   /* paths hidden from bots (at most SEAT_MAX_HIDE) */

typedef struct live_options {
    const char *workdir;      /* base directory for the bots' working directories (created) */
    bool        keep_workdir; /* leave the bots' files behind (default: removed at the end) */
    seat_limits limits;       /* rlimits; uid and bwrap are filled in per bot */
    /* As root: bot b runs as base + b, where base is the first block of
     * ARB_MAX_SEATS uids from uid_base (0: 61000) that no other driver on
     * the host holds (a flock in LIVE_LOCK_DIR). At the end every process of
     * the bot's uid is killed, so uids are never shared. */
    uid_t       uid_base;
    int         sandbox;      /* LIVE_SANDBOX_* */
    const char *bwrap;        /* AUTO: a bubblewrap probed already (skips the probe); NULL probes */
    /* Paths bots must not see (the transcript, a state directory, the
     * tournament's tree of entrants' files), filled from the front. */
    const char *hide[LIVE_MAX_HIDE];
    const char *programs;     /* the program cache (one directory per program): a bot sees only its own */
    /* SEAT_NEED_* bits every bot's seat must get (live_required): a seat
     * that comes up weaker fails its start with ARB_ESANDBOX and the match
     * fails with a "sandbox:" reason; it is never played weaker. */
    unsigned    require;
    /* After "end", how long a bot may take to exit by itself before it is
     * killed (0: ARB_BOT_END_GRACE_MS). Its stderr until then is kept. */
    uint32_t    end_grace_ms;
    /* Never build a bot's next sandbox ahead (match_driver.prepare): every
     * restart starts its process then (benchmarks compare the two). */
    bool        no_prepare;
} live_options;

enum { LIVE_SANDBOX_AUTO = 0, LIVE_SANDBOX_NONE, LIVE_SANDBOX_BWRAP };

typedef struct live_driver live_driver;

/* The SEAT_NEED_* bits a tournament requires of every bot: what this
 * referee has now (bubblewrap probed, root for a uid of its own). */
unsigned live_required(const char *bwrap);

/* Why a referee has neither bubblewrap nor root, and what to do, in one
 * sentence for an error message (not root: bubblewrap missing, or present
 * but unable to make a sandbox here). */
const char *live_no_sandbox_why(void);

/* Where the uid block locks live: a root-owned 0700 directory. */
#define LIVE_LOCK_DIR "/run/arbiter"

/* NULL and a message in err when the sandbox asked for cannot be had. */
live_driver *live_new(const live_options *opt, char *err, size_t errlen);
const match_driver *live_driver_of(live_driver *l);
/* The first uid of the block this driver holds (0 when not root). */
uid_t live_uid_base(const live_driver *l);
void live_free(live_driver *l);

/* The sandbox every match of a worker gets (docs/security.md): bubblewrap
 * probed unless `sandbox` is LIVE_SANDBOX_NONE, and what this referee has
 * now required of every seat (a match that comes up weaker is void, never
 * played weaker). Neither bubblewrap nor root contains nothing: refused
 * with a message naming the opt-in (`optin`) unless allow_unsandboxed. */
int live_choose_sandbox(live_options *live, int sandbox, bool allow_unsandboxed, const char *optin, char *err,
                        size_t errlen);

#endif
