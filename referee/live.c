/* live.c — the live match driver: bots as sandboxed processes (live.h). */
#define _XOPEN_SOURCE 700
#include "live.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* CPU a bot may use between its turns (reading the events sent to it)
 * before it counts as thinking on the others' time. */
#define PONDER_NS 20000000u

struct live_driver {
    match_driver drv;
    live_options opt;
    const char *bwrap;
    char base[512];
    bool made_base;
    seat *seats[ARB_MAX_SEATS];
    char dirs[ARB_MAX_SEATS][600];
    char *stderr_copy;      /* the last stopped bot's stderr, valid until the next stop */
    uid_t uid_base;         /* the block of uids this driver holds (as root) */
    bool  ponders[ARB_MAX_SEATS];      /* caught using CPU between its turns */
    uint64_t cpu_after[ARB_MAX_SEATS]; /* its CPU time when its last turn ended */
    int   uid_lock;         /* flock'ed file that holds the block, -1 none */
    unsigned starts[ARB_MAX_SEATS];    /* processes started per bot (restarts, match.h) */
    int   uid_lock_old;     /* the same block's lock where older referees look, -1 none */
};

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw);

/* The lock directory, made safe to create files in: a directory (not a
 * symlink) owned by root and closed to everyone else. /run/lock is
 * world-writable: a lock file there could be planted as a symlink to any
 * file root would then create or lock. */
static int lock_dir(char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(LIVE_LOCK_DIR, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", LIVE_LOCK_DIR, strerror(errno));
        return ARB_EIO;
    }
    if (lstat(LIVE_LOCK_DIR, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 077)) {
        snprintf(err, errlen, "%s: not a root-owned 0700 directory (a symlink, or opened to others): refusing "
                 "to keep bot uid locks there", LIVE_LOCK_DIR);
        return ARB_EIO;
    }
    return 0;
}

/* As root, claim a block of ARB_MAX_SEATS uids no other referee on this
 * host is using: an exclusive flock on a file named after the block. The
 * kernel drops the lock when the process ends, however it ends. */
static int claim_uids(live_driver *l, uid_t start, char *err, size_t errlen)
{
    int rc = lock_dir(err, errlen);
    if (rc)
        return rc;
    for (int i = 0; i < 1024; i++) {
        uid_t base = start + (uid_t)(i * ARB_MAX_SEATS);
        char path[128], old[128];
        snprintf(path, sizeof path, "%s/uid-%u.lock", LIVE_LOCK_DIR, (unsigned)base);
        /* Referees of earlier versions on the same host lock this block in
         * /run/lock: held too, so they never share our uids. There, and
         * here, O_NOFOLLOW: a symlink in its place is never followed, and
         * anything but a plain file makes us skip the block. */
        snprintf(old, sizeof old, "/run/lock/arbiter-uid-%u.lock", (unsigned)base);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
        int ofd = open(old, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
        struct stat a, b;
        if (fd >= 0 && ofd >= 0 && fstat(fd, &a) == 0 && fstat(ofd, &b) == 0 && S_ISREG(a.st_mode)
            && S_ISREG(b.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 && flock(ofd, LOCK_EX | LOCK_NB) == 0) {
            l->uid_base = base;
            l->uid_lock = fd;
            l->uid_lock_old = ofd;
            return 0;
        }
        if (fd >= 0)
            close(fd);
        if (ofd >= 0)
            close(ofd);
    }
    snprintf(err, errlen, "no free block of bot uids from %u (1024 referees running?)", (unsigned)start);
    return ARB_ENOSPC;
}

const char *live_no_sandbox_why(void)
{
    if (access("/usr/bin/bwrap", X_OK) != 0 && access("/usr/local/bin/bwrap", X_OK) != 0)
        return "neither bubblewrap nor root is available: install bubblewrap (apt-get install bubblewrap), "
               "or run the referee as root (bots then get uids of their own)";
    return "neither root nor a working bubblewrap: bubblewrap is installed but cannot make a sandbox here "
           "(unprivileged user namespaces are off: sysctl kernel.unprivileged_userns_clone=1 and "
           "user.max_user_namespaces > 0; try: bwrap --unshare-all --ro-bind / / true), or run the referee "
           "as root";
}

unsigned live_required(const char *bwrap)
{
    return (bwrap ? SEAT_NEED_BWRAP : 0u) | (geteuid() == 0 ? SEAT_NEED_UID : 0u);
}

static int l_start(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len)
{
    live_driver *l = ctx;
    char *argv[ARB_MAX_BOT_ARGS + 1];
    for (int i = 0; i < cfg->argc && i < ARB_MAX_BOT_ARGS; i++)
        argv[i] = (char *)cfg->argv[i];
    argv[cfg->argc < ARB_MAX_BOT_ARGS ? cfg->argc : ARB_MAX_BOT_ARGS] = NULL;
    /* Every start gets a fresh, empty directory and the previous one goes:
     * a bot restarted between duplicate seatings must not find what its
     * previous process wrote (match.h, restart_bots). */
    if (l->dirs[bot][0] && !l->opt.keep_workdir)
        nftw(l->dirs[bot], rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    unsigned k = l->starts[bot]++;
    if (k == 0)
        snprintf(l->dirs[bot], sizeof l->dirs[bot], "%s/bot%d-%s", l->base, bot, cfg->name);
    else
        snprintf(l->dirs[bot], sizeof l->dirs[bot], "%s/bot%d-%s.%u", l->base, bot, cfg->name, k);
    l->cpu_after[bot] = 0;   /* a new process's CPU clock starts at 0 */
    seat_limits lim = l->opt.limits;
    if (l->opt.keep_workdir && !lim.workdir_size)
        lim.workdir_size = UINT64_MAX;   /* its files must outlive it: the real directory, uncapped */
    if (geteuid() == 0)
        lim.uid = l->uid_base + (uid_t)bot;
    lim.bwrap = l->bwrap;
    lim.require = l->opt.require;
    lim.programs = l->opt.programs;
    for (int i = 0; i < LIVE_MAX_HIDE && l->opt.hide[i]; i++)
        lim.hide[i] = l->opt.hide[i];
    int err;
    l->seats[bot] = seat_start(argv, l->dirs[bot], &lim, &err);
    l->cpu_after[bot] = 0;   /* a new process: its CPU counts from zero */
    if (!l->seats[bot])
        return err;
    snprintf(sandbox, len, "%s", seat_sandbox(l->seats[bot]));
    return 0;
}

static int l_send(void *ctx, int bot, const char *line)
{
    live_driver *l = ctx;
    return l->seats[bot] ? seat_queue(l->seats[bot], line) : ARB_ESTATE;
}

static void gone_kind(seat *s, md_reply *r)
{
    switch (seat_gone(s, 200, NULL)) {
    case SEAT_RUNNING: r->kind = MD_CLOSED; break;
    case SEAT_EXITED: r->kind = MD_EXITED; break;
    default: r->kind = MD_CRASHED; break;
    }
}

/* seat_recv in steps of ARB_BOT_WATCH_MS: between steps every bot's memory
 * is checked against its cap (seat_watch), the one thinking and the others
 * (a hog between its turns), so a cap without a cgroup to enforce it is
 * still held while a bot thinks. A bot killed for memory reads as gone. */
static seat_read wait_line(live_driver *l, seat *s, char *line, size_t cap, uint64_t deadline)
{
    for (;;) {
        uint64_t step = arb_now_ns() + (uint64_t)ARB_BOT_WATCH_MS * 1000000u;
        seat_read rd = seat_recv(s, line, cap, step < deadline ? step : deadline);
        if (rd != SEAT_TIMEOUT || arb_now_ns() >= deadline)
            return rd;
        for (int b = 0; b < ARB_MAX_SEATS; b++)
            if (l->seats[b])
                seat_watch(l->seats[b]);
    }
}

static void l_ask(void *ctx, int bot, const char *request, uint64_t budget_ns, md_reply *r)
{
    live_driver *l = ctx;
    seat *s = l->seats[bot];
    r->line[0] = 0;
    r->wall_ns = r->cpu_ns = 0;
    if (!s) {
        r->kind = MD_EXITED;
        return;
    }
    /* Over its memory cap since its last turn? Then it is killed now and
     * reads as crashed below. */
    seat_watch(s);
    /* The CPU of every process of the bot (seat_cpu_ns), a child that
     * left its session included. */
    uint64_t cpu0 = seat_cpu_ns(s);
    /* A bot that used CPU since its last turn ended is thinking on the
     * others' time: from now on it is stopped between its turns. */
    if (!l->ponders[bot] && cpu0 - l->cpu_after[bot] > PONDER_NS)
        l->ponders[bot] = true;
    seat_pause(s, false);   /* its turn: it runs */
    uint64_t t0 = arb_now_ns(), deadline = t0 + budget_ns;
    int rc = request ? seat_send(s, request, deadline) : 0;
    if (rc == ARB_ETIMEOUT) {
        r->kind = MD_TIMEOUT;
    } else if (rc) {
        gone_kind(s, r);
    } else {
        switch (wait_line(l, s, r->line, sizeof r->line, deadline)) {
        case SEAT_LINE: r->kind = MD_LINE; break;
        case SEAT_TIMEOUT: r->kind = MD_TIMEOUT; break;
        case SEAT_TOO_LONG: r->kind = MD_TOO_LONG; break;
        default: gone_kind(s, r); break;
        }
    }
    r->wall_ns = arb_now_ns() - t0;
    /* Its CPU since its last turn ended: what it used between turns (before
     * it was caught pondering) counts too. One reading ends this turn and
     * starts the next gap, so nothing falls between two. */
    uint64_t cpu1 = seat_cpu_ns(s);
    r->cpu_ns = cpu1 - l->cpu_after[bot];
    /* Stopped until its next request when it is known to be busy (no
     * reply in time, a line without end) or has been caught pondering. A
     * bot that answered and waits in read() costs nothing: it is left be
     * (stopping every bot every turn would triple the context switches). */
    if (r->kind == MD_TIMEOUT || r->kind == MD_TOO_LONG || (r->kind == MD_LINE && l->ponders[bot]))
        seat_pause(s, true);
    l->cpu_after[bot] = cpu1;
}

static void l_stop(void *ctx, int bot, const char **text, size_t *len, int *status)
{
    live_driver *l = ctx;
    static const char empty[] = "";
    *text = empty;
    *len = 0;
    *status = -1;
    seat *s = l->seats[bot];
    if (!s)
        return;
    seat_send(s, NULL, arb_now_ns() + 50000000u);   /* let it read "end" (bounded wait) */
    /* The stderr text must outlive seat_stop: the driver keeps a copy. */
    size_t n;
    const char *e = seat_stderr(s, &n);
    free(l->stderr_copy);
    l->stderr_copy = malloc(n + 1);
    if (l->stderr_copy) {
        memcpy(l->stderr_copy, e, n);
        l->stderr_copy[n] = 0;
        *text = l->stderr_copy;
        *len = n;
    }
    *status = seat_stop(s);
    l->seats[bot] = NULL;
}

live_driver *live_new(const live_options *opt, char *err, size_t errlen)
{
    live_driver *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->opt = *opt;
    l->uid_lock = l->uid_lock_old = -1;
    uid_t uid = 0;
    if (geteuid() == 0) {
        if (claim_uids(l, opt->uid_base ? opt->uid_base : 61000, err, errlen) != 0) {
            free(l);
            return NULL;
        }
        uid = l->uid_base;
    }
    if (opt->sandbox != LIVE_SANDBOX_NONE) {
        l->bwrap = opt->bwrap ? opt->bwrap : seat_probe_bwrap(uid);
        if (!l->bwrap && opt->sandbox == LIVE_SANDBOX_BWRAP) {
            snprintf(err, errlen, "--sandbox bwrap: bubblewrap is not installed or cannot create a sandbox here");
            live_free(l);
            return NULL;
        }
    }
    unsigned have = live_required(l->bwrap);
    if (opt->require & ~have) {
        snprintf(err, errlen, "sandbox: this match requires %s%s%s, which cannot be had now; not played weaker",
                 (opt->require & ~have & SEAT_NEED_BWRAP) ? "bubblewrap" : "",
                 (opt->require & ~have) == (SEAT_NEED_BWRAP | SEAT_NEED_UID) ? " and " : "",
                 (opt->require & ~have & SEAT_NEED_UID) ? "a uid of its own per bot (root)" : "");
        live_free(l);
        return NULL;
    }
    if (opt->workdir) {
        snprintf(l->base, sizeof l->base, "%s", opt->workdir);
        if (mkdir(l->base, 0711) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: %s", l->base, strerror(errno));
            live_free(l);
            return NULL;
        }
    } else {
        snprintf(l->base, sizeof l->base, "/tmp/arbiter-match-XXXXXX");
        if (!mkdtemp(l->base)) {
            snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
            live_free(l);
            return NULL;
        }
        l->made_base = true;
    }
    /* Bots running as other uids must be able to reach their directories. */
    chmod(l->base, 0711);
    l->drv = (match_driver){.ctx = l, .start = l_start, .send = l_send, .ask = l_ask, .stop = l_stop};
    return l;
}

const match_driver *live_driver_of(live_driver *l) { return &l->drv; }
uid_t live_uid_base(const live_driver *l) { return l->uid_base; }

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

void live_free(live_driver *l)
{
    if (!l)
        return;
    for (int b = 0; b < ARB_MAX_SEATS; b++)
        if (l->seats[b])
            seat_stop(l->seats[b]);
    if (!l->opt.keep_workdir) {
        for (int b = 0; b < ARB_MAX_SEATS; b++)
            if (l->dirs[b][0])
                nftw(l->dirs[b], rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        if (l->made_base)
            rmdir(l->base);
    }
    free(l->stderr_copy);
    if (l->uid_lock >= 0)
        close(l->uid_lock);
    if (l->uid_lock_old >= 0)
        close(l->uid_lock_old);
    free(l);
}
