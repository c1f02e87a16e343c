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
#include <pthread.h>
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
    bool  fresh[ARB_MAX_SEATS];        /* started, handshake not yet read: its CPU is start-up */
    uint64_t started_ns[ARB_MAX_SEATS]; /* when its current process was let run: its start-up
                                          budget counts from then (match_startup_ns) */
    /* The next process of each bot, made ahead (l_prepare): its sandbox
     * built and held at its gate, none of its code run; and where it runs. */
    struct prep *next[ARB_MAX_SEATS];
    uint64_t end_by[ARB_MAX_SEATS];    /* told "end": its grace to exit ends then (0: not told) */
    bool  prepare_off;      /* a start made ahead had no cgroup: none is made again (atomic) */
};

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw);

static void remove_dir(const live_driver *l, const char *dir)
{
    if (dir[0] && !l->opt.keep_workdir)
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* When a bot told "end" now must have exited by (live_options.end_grace_ms). */
static uint64_t grace_from(const live_driver *l, uint64_t now)
{
    uint32_t ms = l->opt.end_grace_ms ? l->opt.end_grace_ms : ARB_BOT_END_GRACE_MS;
    return now + (uint64_t)ms * 1000000u;
}


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

/* Start a process of bot `bot` (cfg) in directory dir: a fresh, empty
 * directory of its own per process (match.h, restart_bots: a bot
 * restarted between duplicate seatings must not find what its previous
 * process wrote). gated: held before its program runs (seat_release). */
static void name_dir(live_driver *l, int bot, const match_bot_cfg *cfg, char *dir, size_t dirlen)
{
    unsigned k = l->starts[bot]++;
    if (k == 0)
        snprintf(dir, dirlen, "%s/bot%d-%s", l->base, bot, cfg->name);
    else
        snprintf(dir, dirlen, "%s/bot%d-%s.%u", l->base, bot, cfg->name, k);
}

/* Reads only what no other thread writes while a match runs (the options,
 * the uid block, the bubblewrap found): l_prepare calls it from a thread
 * of its own. */
static seat *start_seat(const live_driver *l, int bot, const match_bot_cfg *cfg, const char *dir, bool gated,
                        int *err)
{
    char *argv[ARB_MAX_BOT_ARGS + 1];
    for (int i = 0; i < cfg->argc && i < ARB_MAX_BOT_ARGS; i++)
        argv[i] = (char *)cfg->argv[i];
    argv[cfg->argc < ARB_MAX_BOT_ARGS ? cfg->argc : ARB_MAX_BOT_ARGS] = NULL;
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
    lim.gated = gated;
    lim.env = cfg->nenv > 0 ? cfg->env : NULL;
    seat *s = seat_start(argv, dir, &lim, err);
    if (s && gated && (!seat_gated(s) || !seat_has_cgroup(s))) {
        /* Not held at a gate, or no cgroup to keep its kill apart from
         * the current process's (same uid): not made ahead after all (its
         * stop spares the uid: seat_stop of a gated seat), and not tried
         * again by this driver. */
        seat_stop(s);
        s = NULL;
        __atomic_store_n(&((live_driver *)l)->prepare_off, true, __ATOMIC_RELAXED);
    }
    return s;
}

/* Starts made ahead, one thread per bot (l_prepare): the fork and the
 * wait for bubblewrap's namespaces run beside the match, not in its way,
 * and the bots' sandboxes are built side by side. The thread lives as long
 * as the driver: a process's parent-death signal (PR_SET_PDEATHSIG, set
 * for every bot) follows the thread that forked it, so a thread that ended
 * would take its bots with it. */
typedef struct prep {
    pthread_t thread;
    bool running;                   /* the thread exists */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    enum { PREP_IDLE, PREP_ASKED, PREP_DONE, PREP_QUIT } state;
    const live_driver *l;
    int bot;
    const match_bot_cfg *cfg;
    char dir[600];
    seat *s;   /* PREP_DONE: the seat, or NULL (l_start starts it then, and says why) */
} prep;

static void *prep_main(void *arg)
{
    prep *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->state != PREP_ASKED && p->state != PREP_QUIT)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->state == PREP_QUIT)
            break;
        pthread_mutex_unlock(&p->mu);
        int err;
        seat *s = start_seat(p->l, p->bot, p->cfg, p->dir, true, &err);
        pthread_mutex_lock(&p->mu);
        p->s = s;
        p->state = PREP_DONE;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The seat made ahead for bot b, once its thread is done (NULL if none). */
static seat *take_prepared(live_driver *l, int bot, char *dir, size_t dirlen)
{
    prep *p = l->next[bot];
    if (!p)
        return NULL;
    pthread_mutex_lock(&p->mu);
    if (p->state == PREP_IDLE) {
        pthread_mutex_unlock(&p->mu);
        return NULL;
    }
    while (p->state != PREP_DONE)
        pthread_cond_wait(&p->cv, &p->mu);
    seat *s = p->s;
    p->s = NULL;
    p->state = PREP_IDLE;
    pthread_mutex_unlock(&p->mu);
    if (s)
        snprintf(dir, dirlen, "%s", p->dir);
    else
        remove_dir(l, p->dir);
    return s;
}

static void prep_free(prep *p)
{
    if (!p)
        return;
    if (p->running) {
        pthread_mutex_lock(&p->mu);
        p->state = PREP_QUIT;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
    }
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}

static int l_start(void *ctx, int bot, const match_bot_cfg *cfg, char *sandbox, size_t len)
{
    live_driver *l = ctx;
    remove_dir(l, l->dirs[bot]);   /* the previous process's, gone with it */
    int err = 0;
    seat *ready = take_prepared(l, bot, l->dirs[bot], sizeof l->dirs[bot]);
    if (ready && seat_gone(ready, 0, NULL) != SEAT_RUNNING) {
        seat_stop(ready);   /* it did not survive the wait (killed): started afresh below */
        remove_dir(l, l->dirs[bot]);
        ready = NULL;
    }
    if ((l->seats[bot] = ready) != NULL) {
        /* Made ahead while the previous process played: let it run. */
        seat_release(l->seats[bot]);
    } else {
        name_dir(l, bot, cfg, l->dirs[bot], sizeof l->dirs[bot]);
        l->seats[bot] = start_seat(l, bot, cfg, l->dirs[bot], false, &err);
    }
    l->cpu_after[bot] = 0;   /* a new process: its CPU counts from zero */
    l->fresh[bot] = true;
    l->started_ns[bot] = arb_now_ns();
    l->end_by[bot] = 0;
    if (!l->seats[bot])
        return err;
    snprintf(sandbox, len, "%s", seat_sandbox(l->seats[bot]));
    return 0;
}

/* The next process of the bot, made now (match_driver.prepare): inside
 * bubblewrap, held at its gate until l_start takes it, so that no code of
 * it runs while the current process plays (a process that could run would
 * be one that could listen, by a timing channel, to its predecessor's
 * cards). Only where a cgroup holds each process: the kill of the current
 * one then takes exactly its processes, not the next one's, which has the
 * same uid. Anything else: nothing is made, and l_start starts it then. */
static void l_prepare(void *ctx, int bot, const match_bot_cfg *cfg)
{
    live_driver *l = ctx;
    if (!l->bwrap || l->opt.no_prepare || __atomic_load_n(&l->prepare_off, __ATOMIC_RELAXED))
        return;
    /* The current process's kill must be its cgroup's: without one it is
     * found by uid, and the next would go with it. */
    if (l->seats[bot] && !seat_has_cgroup(l->seats[bot]))
        return;
    prep *p = l->next[bot];
    if (!p) {
        if (!(p = calloc(1, sizeof *p)))
            return;   /* l_start starts it then */
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        p->l = l;
        p->bot = bot;
        if (pthread_create(&p->thread, NULL, prep_main, p) != 0) {
            prep_free(p);
            return;
        }
        p->running = true;
        l->next[bot] = p;
    }
    pthread_mutex_lock(&p->mu);
    if (p->state == PREP_IDLE) {
        p->cfg = cfg;
        name_dir(l, bot, cfg, p->dir, sizeof p->dir);
        p->state = PREP_ASKED;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
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
    /* Its handshake: what it used until now is its start-up (the sandbox's
     * setup is charged to its group too), not time between turns. Counted
     * as such, every bot whose start took more than PONDER_NS was stopped
     * and continued at every one of its turns for the whole match. */
    bool handshake = l->fresh[bot] && !request;
    if (l->fresh[bot])
        l->cpu_after[bot] = seat_cpu_ns(s);
    l->fresh[bot] = false;
    seat_pause(s, false);   /* its turn: it runs */
    uint64_t t0 = arb_now_ns(), deadline = t0 + budget_ns;
    /* Its handshake: the start-up budget counts from its start (l_start),
     * not from when the core turns to it after the bots before it, and
     * the reply's wall time is how long its start took. A budget already
     * spent still reads what the bot wrote meanwhile. */
    if (handshake && l->started_ns[bot] && l->started_ns[bot] <= t0) {
        deadline = l->started_ns[bot] + budget_ns;
        if (deadline < t0 + 1000000u)
            deadline = t0 + 1000000u;
        t0 = l->started_ns[bot];
    }
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
    /* Its CPU since its last turn ended, every process of it (seat_cpu_ns),
     * a child that left its session included: what it used between turns
     * (before it was caught pondering) counts too. One reading a turn: it
     * ends this turn and starts the next gap, so nothing falls between
     * two. A bot whose CPU since then is more than this turn's wall time
     * by PONDER_NS used it outside its turn (or on several cores at once
     * in it): it is thinking on the others' time, and from now on it is
     * stopped between its turns. */
    uint64_t cpu1 = seat_cpu_ns(s);
    r->cpu_ns = cpu1 - l->cpu_after[bot];
    if (!l->ponders[bot] && r->cpu_ns > r->wall_ns + PONDER_NS)
        l->ponders[bot] = true;
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
    /* Told "end" (l_ending) or not: it gets its grace to exit by itself,
     * and only a bot still running after it is killed. */
    uint64_t by = l->end_by[bot] ? l->end_by[bot] : grace_from(l, arb_now_ns());
    seat_send(s, NULL, by);   /* what is queued ("end"), bounded by the grace */
    uint64_t now = arb_now_ns();
    if (now < by)
        seat_gone(s, (int)((by - now + 999999) / 1000000), NULL);
    if (seat_gone(s, 0, NULL) == SEAT_RUNNING && l->end_by[bot]) {
        char note[128];
        snprintf(note, sizeof note, "arbiter: killed: still running %u ms after \"end\" (its grace to exit)",
                 l->opt.end_grace_ms ? l->opt.end_grace_ms : ARB_BOT_END_GRACE_MS);
        seat_annotate(s, note);
    }
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

static void l_ending(void *ctx, int bot)
{
    live_driver *l = ctx;
    seat *s = l->seats[bot];
    if (!s)
        return;
    l->end_by[bot] = grace_from(l, arb_now_ns());
    seat_send(s, NULL, 0);   /* deliver "end" now, without waiting */
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
    l->drv = (match_driver){.ctx = l, .start = l_start, .send = l_send, .ask = l_ask, .stop = l_stop,
                            .ending = l_ending, .prepare = l_prepare};
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
    for (int b = 0; b < ARB_MAX_SEATS; b++) {
        if (l->seats[b])
            seat_stop(l->seats[b]);
        char dir[600];
        seat *n = take_prepared(l, b, dir, sizeof dir);
        if (n) {
            seat_stop(n);   /* made ahead, never taken: it ran none of its code */
            remove_dir(l, dir);
        }
        prep_free(l->next[b]);
        l->next[b] = NULL;
    }
    if (!l->opt.keep_workdir) {
        for (int b = 0; b < ARB_MAX_SEATS; b++) {
            remove_dir(l, l->dirs[b]);
        }
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

int live_choose_sandbox(live_options *live, int sandbox, bool allow_unsandboxed, const char *optin, char *err,
                        size_t errlen)
{
    live->sandbox = sandbox;
    live->bwrap = sandbox == LIVE_SANDBOX_NONE ? NULL : seat_probe_bwrap(geteuid() == 0 ? 61000 : 0);
    /* The sandbox never drops while the worker lives: every match gets
     * what this referee has now, or is void with a "sandbox:" reason. */
    live->require = live_required(live->bwrap);
    if ((sandbox == LIVE_SANDBOX_NONE || live->require == 0) && !allow_unsandboxed) {
        snprintf(err, errlen, "sandbox: %s: bots would run with rlimits only (they could read your files, "
                 "signal the referee and each other, reach the network); refusing without the opt-in (%s)",
                 sandbox == LIVE_SANDBOX_NONE ? "--sandbox none" : live_no_sandbox_why(), optin);
        return ARB_ESANDBOX;
    }
    return 0;
}
