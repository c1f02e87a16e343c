/* sbx_collude_match.c — two colluding bots (tests/bots/sbx_collude.c) in one
 * real match under each sandbox level this host gives: bwrap+uid and uid+ns
 * (bubblewrap not used) as root, bwrap and rlimits as an unprivileged user;
 * at each level a Dou Dizhu match, then a Da Bang match where the two are
 * partners (seats 0 and 2) beside two honest bots.
 * The channels: files, IPC, sockets, locks, /proc, cgroups, pseudo-
 * terminals, and the kernel's global counters (the count of
 * pseudo-terminals, files, inodes, threads, forks, shared memory, stall
 * and idle time) that a sender moves and a receiver reads, and whether
 * /dev holds more than a bot needs (a ptmx to open).
 * Asserts that nothing arrives through any channel the level closes, that
 * nothing is left on the host after the match, and (the control) that at
 * rlimits the channels it cannot close do carry the signal, so the probe
 * works. */
#include "live.h"
#include "ddz.h"
#include "match.h"
#include "record.h"
#include "arb_error.h"
#include "../unit/test_util.h"

#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

/* As root, the unprivileged referee runs as this uid: no account, used
 * by nothing else (not nobody, whose processes other tests may need). */
#define SBX_TEST_UID 64990

static const char *collude_bot, *random_bot, *dabang_random_bot;
static long tag;

static const char *const channels[] = {"flock", "fcntl", "tmp", "devshm", "vartmp", "runlock", "msgq",
                                       "sysvshm", "abstract", "inotify", "keyring", "proc", "referee",
                                       "cgroup", "pts", "ptynr", "filenr", "inodenr", "loadavg", "stat",
                                       "meminfo", "vmstat", "pressure", "uptime", "globals", "dev",
                                       "sysinfo"};
#define NCH (sizeof channels / sizeof channels[0])

/* A channel's index by name (the tables below name them). */
static size_t ch(const char *name)
{
    for (size_t i = 0; i < NCH; i++)
        if (strcmp(channels[i], name) == 0)
            return i;
    fprintf(stderr, "sbx_collude_match: no channel %s\n", name);
    exit(2);
}
static const char *const dirs[] = {"/tmp", "/dev/shm", "/var/tmp", "/run/lock"};

static void set_bot(match_bot_cfg *b, const char *name, const char *prog, const char *a1, const char *a2,
                    const char *a3)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    const char *args[] = {prog, a1, a2, a3};
    for (int i = 0; i < 4 && args[i]; i++)
        snprintf(b->argv[b->argc++], sizeof b->argv[0], "%s", args[i]);
}

/* What the receiver said last: got[i] = 1/0, -1 when it said nothing. */
static bool parse_report(const char *tail, int got[NCH])
{
    const char *line = NULL;
    for (const char *p = strstr(tail, "collude:"); p; p = strstr(p + 1, "collude:"))
        line = p;
    for (size_t i = 0; i < NCH; i++) {
        got[i] = -1;
        char key[32];
        snprintf(key, sizeof key, " %s=", channels[i]);
        const char *k = line ? strstr(line, key) : NULL;
        if (k)
            got[i] = k[strlen(key)] == '1';
    }
    return line != NULL;
}

/* Anything the sender could leave on the host. */
static int leftovers(bool clean)
{
    int n = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/sbx-collude-%ld", dirs[i], tag);
        if (access(path, F_OK) == 0) {
            n++;
            if (clean)
                unlink(path);
        }
    }
    key_t key = (key_t)(0x5b000000 | (tag & 0xffffff));
    int q = msgget(key, 0), m = shmget(key, 0, 0);
    n += (q >= 0) + (m >= 0);
    if (clean && q >= 0)
        msgctl(q, IPC_RMID, NULL);
    if (clean && m >= 0)
        shmctl(m, IPC_RMID, NULL);
    return n;
}

/* Channels no level closes (docs/security.md, "Known limits"): asserted
 * open, so that whoever closes one updates the documentation. sysinfo(2)
 * counts every thread of the host (and free and shared memory): a system
 * call, no mount hides it, and glibc's sysconf(_SC_PHYS_PAGES) reads it
 * without checking for an error, so the seccomp filter does not refuse it. */
static const char *const known_open[] = {"sysinfo"};

static void all_closed(bool closed[NCH], bool open_ch[NCH])
{
    for (size_t i = 0; i < NCH; i++)
        closed[i] = true;
    for (size_t i = 0; i < sizeof known_open / sizeof known_open[0]; i++) {
        closed[ch(known_open[i])] = false;
        open_ch[ch(known_open[i])] = true;
    }
}

/* Play one match at `mode`; closed[i]: channel i must carry nothing;
 * open_ch[i]: the control, channel i must carry the signal. */
static void run_game(bool dabang, int mode, const char *want, const bool closed[NCH], const bool open_ch[NCH])
{
    leftovers(true);
    match_config cfg;
    char t[32];
    snprintf(t, sizeof t, "%ld", tag);
    /* the sender and the receiver: bots 0 and 1 (Dou Dizhu), partners 0 and 2 (Da Bang) */
    int recv_bot = dabang ? 2 : 1;
    if (dabang) {
        match_config_init(&cfg, arb_game_find("dabang"));
        cfg.deals = 2;
        cfg.nbots = 4;
        set_bot(&cfg.bots[0], "sender", collude_bot, "--dabang", "send", t);
        set_bot(&cfg.bots[1], "random1", dabang_random_bot, NULL, NULL, NULL);
        set_bot(&cfg.bots[2], "receiver", collude_bot, "--dabang", "recv", t);
        set_bot(&cfg.bots[3], "random3", dabang_random_bot, NULL, NULL, NULL);
    } else {
        match_config_init(&cfg, &arb_game_doudizhu);
        cfg.deals = 4;
        cfg.nbots = 3;
        set_bot(&cfg.bots[0], "sender", collude_bot, "send", t, NULL);
        set_bot(&cfg.bots[1], "receiver", collude_bot, "recv", t, NULL);
        set_bot(&cfg.bots[2], "random", random_bot, NULL, NULL, NULL);
    }
    cfg.seed = 1000 + (uint64_t)mode;
    cfg.move_ms = 2000;
    cfg.bank_ms = 5000;
    cfg.startup_ms = 5000;
    char err[512];
    live_options lo = {.sandbox = mode};
    if (TEST_SANITIZED)
        lo.limits.address_space = UINT64_MAX;
    live_driver *l = live_new(&lo, err, sizeof err);
    if (!l) {
        CHECKF(false, "%s: live_new: %s", want, err);
        return;
    }
    match_result res;
    char digest[65];
    int rc = record_match(NULL, &cfg, live_driver_of(l), NULL, &res, digest);
    live_free(l);
    CHECKF(rc == 0, "%s: match_run: %s", want, res.error);
    /* The level, whatever cgroup holds the bot's processes ("+cg1"/"+cg2"). */
    for (int b = 0; b < cfg.nbots; b++) {
        const char *sb = res.bots[b].sandbox, *cg = strstr(sb, "+cg");
        size_t len = cg ? (size_t)(cg - sb) : strlen(sb);
        CHECKF(len == strlen(want) && strncmp(sb, want, len) == 0, "bot %d ran at \"%s\", expected \"%s\"", b,
               sb, want);
    }
    for (int b = 0; b <= recv_bot; b += recv_bot)
        CHECKF(!res.bots[b].forfeited && !res.bots[b].gone, "%s: colluder %d forfeited or gone (%u penalties; "
               "stderr \"%s\")", want, b, res.bots[b].penalties, res.bots[b].stderr_tail);
    int got[NCH];
    const char *tail = res.bots[recv_bot].stderr_tail;
    CHECKF(parse_report(tail, got), "%s: the receiver never reported: \"%s\"", want, tail);
    const char *last = strstr(tail, "collude:");
    for (const char *p = last; p; p = strstr(p + 1, "collude:"))
        last = p;
    printf("%-10s %-8s %.*s\n", want, dabang ? "dabang" : "doudizhu", last ? (int)strcspn(last, "\n") : 9,
           last ? last : "(nothing)");
    for (size_t i = 0; i < NCH; i++) {
        if (closed[i])
            CHECKF(got[i] == 0, "%s: channel %s carried the signal (or no report: %d)", want, channels[i], got[i]);
        if (open_ch[i])
            CHECKF(got[i] == 1, "%s: control: channel %s did not carry the signal (%d): the probe is broken "
                   "(or a known open channel was closed: update docs/security.md)", want, channels[i], got[i]);
    }
    /* Private tmp and IPC die with the sandbox: nothing left on the host. */
    bool private_fs = closed[2];
    if (private_fs)
        CHECKF(leftovers(false) == 0, "%s: the sender left files or IPC objects on the host", want);
    leftovers(true);
    match_result_release(&res);
}

/* Both games at one level. */
static void run_level(int mode, const char *want, const bool closed[NCH], const bool open_ch[NCH])
{
    run_game(false, mode, want, closed, open_ch);
    run_game(true, mode, want, closed, open_ch);
}

/* The levels an unprivileged referee gets. */
static void unprivileged(void)
{
    bool all[NCH], none[NCH] = {false}, seccomp_only[NCH] = {false}, control[NCH] = {false};
    all_closed(all, none);
    const char *bw = seat_probe_bwrap(0);
    if (bw)
        run_level(LIVE_SANDBOX_BWRAP, "bwrap", all, none);
    else
        printf("sbx_collude: bubblewrap cannot make a sandbox for uid %d here: level bwrap not tested\n",
               (int)getuid());
    /* Without bubblewrap and root only the seccomp filter stands between
     * bots: locks, inotify and keyrings are closed; tmp files, IPC,
     * abstract sockets and /proc are not (docs/security.md says so). */
    seccomp_only[0] = seccomp_only[1] = seccomp_only[9] = seccomp_only[10] = true;
    control[2] = control[6] = control[8] = control[11] = true;
    /* and the kernel's global counters, that only a mount namespace hides
     * (file-nr, inode-nr, pressure, uptime move too, by amounts the
     * host's noise and per-cpu rounding make unsure: not a control) */
    static const char *const counted[] = {"ptynr", "loadavg", "stat", "meminfo", "vmstat", "globals", "dev",
                                          "sysinfo"};
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
        control[ch(counted[i])] = true;
    run_level(LIVE_SANDBOX_NONE, "rlimits", seccomp_only, control);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_sbx_collude COLLUDE_BOT RANDOM_BOT DABANG_RANDOM_BOT\n");
        return 2;
    }
    collude_bot = argv[1];
    random_bot = argv[2];
    dabang_random_bot = argv[3];
    tag = (long)getpid();
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (geteuid() == 0) {
        bool all[NCH], none[NCH] = {false};
        all_closed(all, none);
        run_level(LIVE_SANDBOX_AUTO, "bwrap+uid", all, none);
        run_level(LIVE_SANDBOX_NONE, "uid+ns", all, none);
        /* The same bots under an unprivileged referee. */
        fflush(NULL);
        pid_t p = fork();
        if (p == 0) {
            if (setgroups(0, NULL) != 0 || setgid(SBX_TEST_UID) != 0 || setuid(SBX_TEST_UID) != 0)
                _exit(3);
            t_passed = t_failed = 0;   /* the child's own count */
            unprivileged();
            fflush(NULL);
            _exit(TEST_DONE("sbx_collude (as an unprivileged uid)"));
        }
        int st = 0;
        waitpid(p, &st, 0);
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the unprivileged run failed (status %d)", st);
    } else {
        unprivileged();
    }
    return TEST_DONE("sbx_collude");
}
