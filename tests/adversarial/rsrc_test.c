/* rsrc_test.c — a bot's processes held together (issue 10, "Resources" in
 * docs/security.md): real matches with a bot that forks a child to think
 * on the others' time (in its session, or a session of its own), five
 * processes that together take more memory than a bot may, and writers
 * that fill /tmp and the working directory. Each runs inside bubblewrap and
 * bare, with the bot's cgroup and with ARBITER_NO_CGROUP=1 (the /proc scan
 * and polled watchdog), and asserts: the child's CPU is in the bot's
 * recorded CPU and the child hardly runs while others are asked; the
 * memory hog is killed (a crash whose stderr says "memory") while the
 * host's available memory never drops by much more than the cap; the
 * writers stop at their caps; the honest bots are never penalised.
 *
 * argv: rsrc_bot (absolute). RSRC_ONLY=N in the environment runs only the
 * Nth of the four setups (0 bubblewrap+cgroup, 1 bubblewrap, 2 bare+cgroup,
 * 3 bare), for debugging. */
#include "live.h"
#include "ddz.h"
#include "arb_num.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "../unit/test_util.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *bot;
static char tmpdir[256];

static void set_bot(match_bot_cfg *b, const char *name, const char *a1, const char *a2, const char *a3)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    const char *args[] = {bot, a1, a2, a3};
    for (int i = 0; i < 4 && args[i]; i++)
        snprintf(b->argv[b->argc++], sizeof b->argv[0], "%s", args[i]);
}

/* MemAvailable in bytes. */
static int64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    int64_t kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNd64 " kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

/* A thread that samples MemAvailable every 5 ms and keeps the lowest. */
typedef struct watcher {
    atomic_bool stop;
    int64_t lowest;
    pthread_t th;
} watcher;

static void *watch_memory(void *arg)
{
    watcher *w = arg;
    while (!atomic_load(&w->stop)) {
        int64_t m = mem_available();
        if (m >= 0 && m < w->lowest)
            w->lowest = m;
        struct timespec t = {0, 5000000};
        nanosleep(&t, NULL);
    }
    return NULL;
}

/* Processes of the test bot on the host now (zombies included). */
static int count_bots(void)
{
    /* The bot and its children (rsrc_bot), and a bubblewrap whose command
     * line names the bot (outer, or the sandbox's pid 1 before it execs
     * the bot): one left stopped would hold the bot's namespace alive. */
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], comm[64] = "", cmd[4096];
        snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (!fgets(comm, sizeof comm, f))
            comm[0] = 0;
        fclose(f);
        if (strcmp(comm, "rsrc_bot\n") == 0) {
            n++;
            continue;
        }
        if (strcmp(comm, "bwrap\n") != 0)
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        size_t len = fread(cmd, 1, sizeof cmd, f);
        fclose(f);
        if (len > 0 && memmem(cmd, len, bot, strlen(bot)))
            n++;
    }
    if (d)
        closedir(d);
    return n;
}

/* Whether a process named rsrc_bot runs: the bot has exec'd. */
static bool bot_running(void)
{
    bool found = false;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d)) && !found;) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        found = fgets(comm, sizeof comm, f) && strcmp(comm, "rsrc_bot\n") == 0;
        fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

/* Processes of the test bot still on the host after a match: a child it
 * left in a session of its own must go with it. Waits up to 2 s for killed
 * ones to be gone. */
static int leftovers(void)
{
    int n = count_bots();
    for (int tries = 0; n > 0 && tries < 200; tries++) {
        struct timespec t = {0, 10000000};
        nanosleep(&t, NULL);
        n = count_bots();
    }
    return n;
}

typedef struct run_opts {
    int sandbox;            /* LIVE_SANDBOX_* */
    bool no_cgroup;         /* ARBITER_NO_CGROUP=1 */
    const char *label;
} run_opts;

/* Play 3 bots (bot 1 the one under test) for `deals` deals; the lowest
 * MemAvailable seen meanwhile into *lowest (when not NULL). */
static int play(const run_opts *o, match_config *cfg, match_result *res, int64_t *lowest)
{
    if (o->no_cgroup)
        setenv("ARBITER_NO_CGROUP", "1", 1);
    else
        unsetenv("ARBITER_NO_CGROUP");
    char err[256], path[512];
    live_options lo = {.sandbox = o->sandbox};
    if (TEST_SANITIZED)
        lo.limits.address_space = UINT64_MAX;
    live_driver *l = live_new(&lo, err, sizeof err);
    if (!l) {
        fprintf(stderr, "%s: live_new: %s\n", o->label, err);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/match.arbt", tmpdir);
    watcher w = {.lowest = INT64_MAX};
    atomic_init(&w.stop, false);
    if (lowest)
        pthread_create(&w.th, NULL, watch_memory, &w);
    char digest[65];
    int rc = record_match(path, cfg, live_driver_of(l), NULL, res, digest);
    if (lowest) {
        atomic_store(&w.stop, true);
        pthread_join(w.th, NULL);
        *lowest = w.lowest;
    }
    live_free(l);
    unlink(path);
    CHECKF(leftovers() == 0, "%s: %d processes of the bots left behind", o->label, leftovers());
    if (rc)
        fprintf(stderr, "%s: match_run: %s\n", o->label, res->error);
    unsetenv("ARBITER_NO_CGROUP");
    return rc;
}

static void base_config(match_config *cfg, uint32_t deals)
{
    match_config_init(cfg, &arb_game_doudizhu);
    cfg->deals = deals;
    cfg->seed = 11;
    cfg->nbots = 3;
    cfg->move_ms = 3000;     /* the hogs need time to fill what they fill */
    cfg->bank_ms = 10000;
    cfg->startup_ms = 5000;
    cfg->policy = MATCH_AUTOPLAY;
    cfg->strikes = 1000;
}

/* The bot's containment as recorded: "+cg" exactly when it had a cgroup. */
static void check_containment(const run_opts *o, const match_result *res)
{
    const char *sb = res->bots[1].sandbox;
    fprintf(stderr, "%s: sandbox %s\n", o->label, sb);
    if (o->no_cgroup)
        CHECKF(strstr(sb, "+cg") == NULL, "%s: ARBITER_NO_CGROUP=1 but sandbox %s", o->label, sb);
    else if (geteuid() == 0 && (access("/sys/fs/cgroup/memory", W_OK) == 0 || access("/sys/fs/cgroup/cgroup.procs", W_OK) == 0))
        CHECKF(strstr(sb, "+cg") != NULL, "%s: root with writable cgroups, but sandbox %s", o->label, sb);
}

static void check_honest(const run_opts *o, const match_result *res)
{
    CHECKF(res->bots[0].penalties == 0 && res->bots[2].penalties == 0, "%s: an honest bot was penalised (%u, %u; "
           "timeouts %u, %u; crashed %u, %u)", o->label, res->bots[0].penalties, res->bots[2].penalties,
           res->bots[0].by_reason[MATCH_R_TIMEOUT], res->bots[2].by_reason[MATCH_R_TIMEOUT],
           res->bots[0].by_reason[MATCH_R_CRASHED], res->bots[2].by_reason[MATCH_R_CRASHED]);
    if (res->bots[0].penalties || res->bots[2].penalties)
        for (int b = 0; b < 3; b++) {
            fprintf(stderr, "%s: bot %d (%s) penalties:", o->label, b, res->bots[b].sandbox);
            for (int k = 1; k < MATCH_R_COUNT; k++)
                if (res->bots[b].by_reason[k])
                    fprintf(stderr, " %s %u", match_reason_name((match_reason)k), res->bots[b].by_reason[k]);
            fprintf(stderr, "; stderr: %s\n", res->bots[b].stderr_tail);
        }
}

/* The last "KEY..." line of the bot's stderr tail, or NULL. */
static const char *last_line(const match_result *res, const char *key)
{
    const char *t = res->bots[1].stderr_tail, *hit = NULL;
    for (const char *p = strstr(t, key); p; p = strstr(p + 1, key))
        hit = p;
    return hit;
}

/* A child that spins while the others are asked: its CPU is the bot's, and
 * it hardly runs but on the bot's own turns. The other two bots take 40 ms
 * a decision, so a child left running gets seconds of CPU. */
static void test_ponder(const run_opts *o, const char *mode)
{
    match_config cfg;
    base_config(&cfg, 2);
    cfg.move_ms = 1000;
    set_bot(&cfg.bots[0], "slow0", "slow", "40", NULL);
    set_bot(&cfg.bots[1], "ponder", mode, NULL, NULL);
    set_bot(&cfg.bots[2], "slow2", "slow", "40", NULL);
    match_result res;
    int rc = play(o, &cfg, &res, NULL);
    CHECKF(rc == 0, "%s: match_run %s", o->label, arb_strerror(rc));
    check_containment(o, &res);
    check_honest(o, &res);
    CHECKF(res.bots[1].penalties == 0, "%s: the ponderer was penalised %u times", o->label, res.bots[1].penalties);
    const char *p = last_line(&res, "ponder: cpu_ms=");
    unsigned long long child_ms = 0, loops = 0;
    CHECKF(p && sscanf(p, "ponder: cpu_ms=%llu progress=%llu", &child_ms, &loops) == 2, "%s: no report in \"%s\"",
           o->label, res.bots[1].stderr_tail);
    uint64_t others_wall = res.bots[0].wall_ns + res.bots[2].wall_ns, own_wall = res.bots[1].wall_ns;
    fprintf(stderr, "%s %s: child cpu %llu ms (%llu loops); bot recorded cpu %llu ms, own wall %llu ms; others' wall "
            "%llu ms\n", o->label, mode, child_ms, loops, (unsigned long long)(res.bots[1].cpu_ns / 1000000u),
            (unsigned long long)(own_wall / 1000000u), (unsigned long long)(others_wall / 1000000u));
    /* The others really took their time (else nothing is shown). */
    CHECKF(others_wall > 1000000000ull, "%s: the other bots took only %llu ms", o->label,
           (unsigned long long)(others_wall / 1000000u));
    /* The child ran: it spins whenever the bot runs. */
    CHECKF(child_ms >= 5, "%s: the child never ran (%llu ms)", o->label, child_ms);
    /* Stopped between turns: it ran on the bot's own turns and for the one
     * gap before the bot was caught (well under a second), not for the
     * seconds the others were asked (about three seconds here). */
    CHECKF(child_ms * 1000000ull < own_wall + 700000000ull, "%s: the child used %llu ms of CPU, the bot's own turns "
           "were %llu ms: it ran on the others' time", o->label, child_ms, (unsigned long long)(own_wall / 1000000u));
    /* And its CPU is the bot's. */
    CHECKF(res.bots[1].cpu_ns + 50000000ull >= child_ms * 1000000ull, "%s: the bot's recorded CPU %llu ms misses its "
           "child's %llu ms", o->label, (unsigned long long)(res.bots[1].cpu_ns / 1000000u), child_ms);
    match_result_release(&res);
}

/* Five processes of 500 MiB each (under RLIMIT_AS each, 2.5 GiB together):
 * the bot is stopped at ARB_BOT_MEMORY and the host never gives much more. */
static void test_memhog(const run_opts *o)
{
    match_config cfg;
    base_config(&cfg, 1);
    set_bot(&cfg.bots[0], "honest0", "honest", NULL, NULL);
    set_bot(&cfg.bots[1], "memhog", "memhog", "5", "500");
    set_bot(&cfg.bots[2], "honest2", "honest", NULL, NULL);
    int64_t before = mem_available(), lowest = 0;
    match_result res;
    int rc = play(o, &cfg, &res, &lowest);
    CHECKF(rc == 0, "%s: match_run %s", o->label, arb_strerror(rc));
    check_containment(o, &res);
    check_honest(o, &res);
    int64_t drop = before - lowest;
    /* The cap, plus what the watchdog may miss in one polling period
     * without a cgroup, plus the rest of the machine's noise. */
    int64_t slack = 512ll << 20;
    fprintf(stderr, "%s memhog: available memory dropped by %lld MiB (cap %llu MiB); stderr: %s\n", o->label,
            (long long)(drop >> 20), (unsigned long long)(ARB_BOT_MEMORY >> 20), res.bots[1].stderr_tail);
    CHECKF(res.bots[1].by_reason[MATCH_R_CRASHED] >= 1, "%s: the hog was not stopped (penalties %u)", o->label,
           res.bots[1].penalties);
    CHECKF(strstr(res.bots[1].stderr_tail, "arbiter: killed: memory") != NULL, "%s: no memory verdict in \"%s\"",
           o->label, res.bots[1].stderr_tail);
    CHECKF(drop < (int64_t)ARB_BOT_MEMORY + slack, "%s: available memory dropped by %lld MiB", o->label,
           (long long)(drop >> 20));
    match_result_release(&res);
}

/* Files in its tmpfs count: 480 MiB written to /tmp and the working
 * directory, then a process of 900 MiB — each under its own cap, 1.35 GiB
 * together: the bot is killed for memory. */
static void test_mixhog(const run_opts *o)
{
    match_config cfg;
    base_config(&cfg, 1);
    set_bot(&cfg.bots[0], "honest0", "honest", NULL, NULL);
    set_bot(&cfg.bots[1], "mixhog", "mixhog", "240", NULL);
    set_bot(&cfg.bots[2], "honest2", "honest", NULL, NULL);
    match_result res;
    int rc = play(o, &cfg, &res, NULL);
    CHECKF(rc == 0, "%s: match_run %s", o->label, arb_strerror(rc));
    check_honest(o, &res);
    fprintf(stderr, "%s mixhog: stderr: %s\n", o->label, res.bots[1].stderr_tail);
    CHECKF(res.bots[1].by_reason[MATCH_R_CRASHED] >= 1 && strstr(res.bots[1].stderr_tail, "arbiter: killed: memory"),
           "%s: files and a process over the total were not stopped: \"%s\"", o->label, res.bots[1].stderr_tail);
    match_result_release(&res);
}

/* 2 GiB written to /tmp or the working directory, in files under
 * RLIMIT_FSIZE: stopped at the cap (ENOSPC), nothing else happens. */
static void test_fill(const run_opts *o, const char *mode, uint64_t cap)
{
    match_config cfg;
    base_config(&cfg, 1);
    set_bot(&cfg.bots[0], "honest0", "honest", NULL, NULL);
    set_bot(&cfg.bots[1], mode, mode, "2048", NULL);
    set_bot(&cfg.bots[2], "honest2", "honest", NULL, NULL);
    match_result res;
    int rc = play(o, &cfg, &res, NULL);
    CHECKF(rc == 0, "%s: match_run %s", o->label, arb_strerror(rc));
    check_honest(o, &res);
    const char *p = last_line(&res, ": wrote ");
    long wrote = -1;
    char how[64] = "";
    CHECKF(p && sscanf(p, ": wrote %ld MiB, %63[^:\n]", &wrote, how) == 2, "%s %s: no report in \"%s\"", o->label,
           mode, res.bots[1].stderr_tail);
    fprintf(stderr, "%s %s: wrote %ld MiB, %s (cap %llu MiB)\n", o->label, mode, wrote, how,
            (unsigned long long)(cap >> 20));
    CHECKF(strcmp(how, "stopped") == 0 && wrote >= 0 && (uint64_t)wrote <= (cap >> 20), "%s %s: wrote %ld MiB, %s",
           o->label, mode, wrote, how);
    match_result_release(&res);
}

/* A referee killed (SIGKILL) while its bot is stopped between turns: the
 * bot must die with it (the death signal it gets must not wait for a thaw
 * no one will send), not linger stopped or frozen. */
static void test_referee_death(const run_opts *o)
{
    if (o->no_cgroup)
        setenv("ARBITER_NO_CGROUP", "1", 1);
    else
        unsetenv("ARBITER_NO_CGROUP");
    pid_t ref = fork();
    if (ref == 0) {
        char dir[300];
        snprintf(dir, sizeof dir, "%s/death", tmpdir);
        seat_limits lim = {.uid = geteuid() == 0 ? 60970 : 0};
        if (o->sandbox != LIVE_SANDBOX_NONE)
            lim.bwrap = seat_probe_bwrap(lim.uid);
        char *argv[] = {(char *)bot, "ponder", NULL};
        int err;
        seat *st = seat_start(argv, dir, &lim, &err);
        if (!st)
            _exit(3);
        /* A referee pauses a bot between its turns, so after it has
         * exec'd (inside bubblewrap, the sandbox's pid 1 sets its own death
         * signal only then): wait for that, as a match would. */
        for (int t = 0; t < 500 && !bot_running(); t++) {
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        seat_pause(st, true);
        raise(SIGKILL);
    }
    int status = 0;
    waitpid(ref, &status, 0);
    unsetenv("ARBITER_NO_CGROUP");
    CHECKF(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "%s: the referee did not start its bot (%d)", o->label,
           status);
    /* Its bot's processes come to us (a subreaper since our first match):
     * reap them as they die, for up to 2 s. */
    int left = 0;
    for (int t = 0; t < 200; t++) {
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        left = count_bots();
        if (left == 0)
            break;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    CHECKF(left == 0, "%s: %d processes of a stopped bot outlived its referee", o->label, left);
    char dir[300];
    snprintf(dir, sizeof dir, "%s/death", tmpdir);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] != '/') {
        fprintf(stderr, "usage: rsrc_test /abs/path/rsrc_bot\n");
        return 2;
    }
    bot = argv[1];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-rsrc-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    bool root = geteuid() == 0;
    const run_opts runs[] = {
        {LIVE_SANDBOX_AUTO, false, "sandbox+cgroup"},
        {LIVE_SANDBOX_AUTO, true, "sandbox, no cgroup"},
        {LIVE_SANDBOX_NONE, false, "bare+cgroup"},
        {LIVE_SANDBOX_NONE, true, "bare, no cgroup"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const run_opts *o = &runs[i];
        if (getenv("RSRC_ONLY") && arb_num_or(getenv("RSRC_ONLY"), -1) != (long long)i)
            continue;   /* one configuration only (debugging) */
        test_ponder(o, "ponder");
        test_ponder(o, "pondersid");
        test_referee_death(o);
        if (TEST_SANITIZED) {
            fprintf(stderr, "%s: memhog and mixhog skipped: sanitizer build (no address-space limit)\n", o->label);
            continue;
        }
        test_memhog(o);
        if (o->sandbox == LIVE_SANDBOX_NONE && !root)
            fprintf(stderr, "%s: mixhog skipped: not root and no bubblewrap, the bot's files are on the host's "
                    "disk, not in a tmpfs of its own\n", o->label);
        else
            test_mixhog(o);
    }
    /* /tmp and the working directory inside bubblewrap. */
    char err[128];
    const char *bw = seat_probe_bwrap(root ? 60980 : 0);
    if (bw) {
        test_fill(&runs[0], "tmphog", ARB_BOT_TMPFS);
        test_fill(&runs[0], "dirhog", ARB_BOT_WORKDIR);
    } else {
        snprintf(err, sizeof err, "bubblewrap cannot start a sandbox here");
        fprintf(stderr, "rsrc: tmphog and dirhog inside bubblewrap skipped: %s\n", err);
    }
    /* /tmp and the working directory without bubblewrap: capped tmpfs
     * mounts in the bot's own mount namespace, which only root can make. */
    if (root) {
        test_fill(&runs[2], "tmphog", ARB_BOT_TMPFS);
        test_fill(&runs[2], "dirhog", ARB_BOT_WORKDIR);
    } else
        fprintf(stderr, "rsrc: bare tmphog and dirhog skipped: not root, no mount namespace to cap /tmp and the "
                "working directory in (only RLIMIT_FSIZE per file holds there)\n");
    rmdir(tmpdir);
    return TEST_DONE("rsrc");
}
