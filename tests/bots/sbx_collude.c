/* sbx_collude.c — two colluding bots for the adversarial suite: the sender
 * signals through every kernel channel two co-located sandboxes might share,
 * the receiver tries each one and reports what arrived. Both play honestly
 * (a random legal choice from the match seed) meanwhile.
 *
 *   sbx_collude send TAG     on every decision: hold a flock on /usr/bin/F1,
 *                            a fcntl read lock on /usr/bin/F2, files
 *                            sbx-collude-TAG in /tmp, /dev/shm, /var/tmp and
 *                            /run/lock, a SysV message queue and shared memory
 *                            keyed by TAG, an abstract unix socket named after
 *                            TAG, a key in the user keyring; and open
 *                            /usr/bin/F3 (seen by an inotify watch)
 *   sbx_collude recv TAG     on every decision: try each channel; print to
 *                            stderr one line "collude: NAME=0|1 ..." (1 =
 *                            something arrived; "denied" counts as 0)
 *
 * proc=1 means the receiver saw the sender in /proc (so could signal or
 * trace it), referee=1 that it saw a process named test_sbx* (its referee),
 * cgroup=1 that it could see the referee's cgroups (every bot's counters:
 * the sender could fork N children to say N), pts=1 that it saw a
 * pseudo-terminal in /dev/pts (the sender opens one: a hand written to it
 * can be read by whoever opens it).
 *
 * Kernel-global counters: on every other decision the sender holds
 * SWING_PTYS pseudo-terminals (/dev/ptmx), SWING_FILES files in /tmp,
 * SWING_KIDS sleeping children and SWING_SHM bytes of shared memory, and
 * lets them go on the decisions between: N of them would say N. The
 * receiver reads each counter on every decision; NAME=1 when it saw the
 * counter move by at least that counter's threshold between its reads
 * (the sender's swing, less room for the kernel's per-cpu rounding; noise
 * on the host only adds to a swing, so 0 means the counter is hidden,
 * fixed or empty): ptynr (/proc/sys/kernel/pty/nr), filenr and inodenr
 * (/proc/sys/fs/file-nr, inode-nr), loadavg (its count of threads),
 * stat (its count of forks), meminfo (Shmem), vmstat (nr_shmem); pressure
 * and uptime when /proc/pressure/cpu's stall total or /proc/uptime's idle
 * time moved at all (the sender's burnt CPU moves them); globals when any
 * other global counter file of /proc reads non-empty (interrupts,
 * softirqs, schedstat, diskstats, locks, buddyinfo, zoneinfo, swaps,
 * cgroups, sys/kernel/random/entropy_avail, and
 * /sys/devices/system/node/node0/meminfo); dev=1 when /dev holds
 * anything beyond null, zero, full, random, urandom, fd, stdin, stdout,
 * stderr and shm (a tty or a ptmx to open, say); sysinfo=1 when
 * sysinfo(2)'s count of threads moved by the sender's children (no mount
 * hides a system call: open at every level, docs/security.md says so).
 * TAG is a number (the test's pid), so runs never see each other's leftovers.
 * With --dabang first (sbx_collude --dabang send|recv TAG) the two sit at a
 * Da Bang table, as partners: the pair that gains most from a side channel. */
#include "arbiter_bot.h"
#include "arb_num.h"
#include "arb_rng.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* Files every sandbox sees read-only; the first three that exist. */
static const char *const candidates[] = {"/usr/bin/env", "/usr/bin/tail", "/usr/bin/head", "/usr/bin/sort",
                                         "/usr/bin/cut", "/usr/bin/tr", "/usr/bin/wc", "/usr/bin/id"};

enum { C_FLOCK, C_FCNTL, C_TMP, C_SHM, C_VARTMP, C_RUNLOCK, C_MSG, C_SYSVSHM, C_ABSTRACT, C_INOTIFY, C_KEYRING,
       C_PROC, C_REFEREE, C_CGROUP, C_PTS, C_PTYNR, C_FILENR, C_INODENR, C_LOADAVG, C_STAT, C_MEMINFO, C_VMSTAT,
       C_PRESSURE, C_UPTIME, C_GLOBALS, C_DEV, C_SYSINFO, C_COUNT };
static const char *const names[C_COUNT] = {"flock", "fcntl", "tmp", "devshm", "vartmp", "runlock", "msgq",
                                           "sysvshm", "abstract", "inotify", "keyring", "proc", "referee",
                                           "cgroup", "pts", "ptynr", "filenr", "inodenr", "loadavg", "stat",
                                           "meminfo", "vmstat", "pressure", "uptime", "globals", "dev",
                                           "sysinfo"};
static const char *const dirs[] = {"/tmp", "/dev/shm", "/var/tmp", "/run/lock"};

/* The sender's swing (within RLIMIT_NOFILE 64 and NPROC 64) */
#define SWING_PTYS 40
#define SWING_FILES 40
#define SWING_KIDS 16
#define SWING_SHM (16u << 20)

/* A counter the receiver watches: the first number after `key` (at the
 * start of the file when key is ""), the swing that counts as a signal. */
typedef struct counter {
    int ch;
    const char *path, *key;
    long long threshold;
} counter;

static const counter counters[] = {
    {C_PTYNR, "/proc/sys/kernel/pty/nr", "", SWING_PTYS * 3 / 4},
    {C_FILENR, "/proc/sys/fs/file-nr", "", 16},
    {C_INODENR, "/proc/sys/fs/inode-nr", "", SWING_FILES * 3 / 4},
    {C_LOADAVG, "/proc/loadavg", "/", SWING_KIDS * 3 / 4},
    {C_STAT, "/proc/stat", "processes", SWING_KIDS * 3 / 4},
    {C_MEMINFO, "/proc/meminfo", "Shmem:", (SWING_SHM >> 10) / 2},
    {C_VMSTAT, "/proc/vmstat", "nr_shmem", (SWING_SHM >> 12) / 2},
    {C_PRESSURE, "/proc/pressure/cpu", "total=", 1},
    {C_UPTIME, "/proc/uptime", " ", 1},
};
#define NCOUNTERS (sizeof counters / sizeof counters[0])

/* Global counter files that are visible or not (any content is a leak). */
static const char *const global_files[] = {
    "/proc/interrupts", "/proc/softirqs", "/proc/schedstat", "/proc/diskstats", "/proc/locks",
    "/proc/buddyinfo", "/proc/zoneinfo", "/proc/swaps", "/proc/cgroups",
    "/proc/sys/kernel/random/entropy_avail", "/sys/devices/system/node/node0/meminfo"};

/* What a bot's /dev may hold. */
static const char *const dev_allowed[] = {".", "..", "null", "zero", "full", "random", "urandom", "fd", "stdin",
                                          "stdout", "stderr", "shm"};

typedef struct colluder {
    bool sender;
    long tag;
    const char *files[3];
    bool set_up;
    int lock_fd[2], sock, inotify, pty;
    bool got[C_COUNT];
    /* the sender's swing: held or not, what it holds */
    bool holding;
    int ptys[SWING_PTYS], kids_pipe;
    pid_t kids[SWING_KIDS];
    void *shm;
    /* the receiver's readings: lowest and highest of each counter */
    long long lo[NCOUNTERS], hi[NCOUNTERS];
    bool seen[NCOUNTERS];
    long long procs_lo, procs_hi;   /* sysinfo(2)'s threads */
    arb_rng rng;
    uint64_t seeded_with;
    bool seeded;
} colluder;

static key_t ipc_key(const colluder *c) { return (key_t)(0x5b000000 | (c->tag & 0xffffff)); }

static void abstract_name(const colluder *c, struct sockaddr_un *a, socklen_t *len)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    int n = snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "sbx-collude-%ld", c->tag);
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* Take or let go of everything the counters count. */
static void swing(colluder *c)
{
    c->holding = !c->holding;
    if (c->holding) {
        for (int i = 0; i < SWING_PTYS; i++)
            c->ptys[i] = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
        for (int i = 0; i < SWING_FILES; i++) {
            char path[64];
            snprintf(path, sizeof path, "/tmp/sbx-swing-%ld-%d", c->tag, i);
            int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
            if (fd >= 0)
                close(fd);
        }
        int p[2];
        c->kids_pipe = pipe(p) == 0 ? p[1] : -1;
        for (int i = 0; i < SWING_KIDS && c->kids_pipe >= 0; i++) {
            c->kids[i] = fork();
            if (c->kids[i] == 0) {
                char b;
                close(p[1]);
                (void)!read(p[0], &b, 1);   /* until the sender lets go */
                _exit(0);
            }
        }
        if (c->kids_pipe >= 0)
            close(p[0]);
        c->shm = mmap(NULL, SWING_SHM, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (c->shm == MAP_FAILED)
            c->shm = NULL;
        else
            memset(c->shm, 1, SWING_SHM);
        return;
    }
    for (int i = 0; i < SWING_PTYS; i++)
        if (c->ptys[i] >= 0)
            close(c->ptys[i]);
    for (int i = 0; i < SWING_FILES; i++) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/sbx-swing-%ld-%d", c->tag, i);
        unlink(path);
    }
    if (c->kids_pipe >= 0) {
        close(c->kids_pipe);
        for (int i = 0; i < SWING_KIDS; i++)
            if (c->kids[i] > 0)
                waitpid(c->kids[i], NULL, 0);
    }
    if (c->shm)
        munmap(c->shm, SWING_SHM);
    c->shm = NULL;
}

static void send_all(colluder *c)
{
    swing(c);
    /* the file opened every time: an inotify watch on /usr/bin sees it */
    int f3 = open(c->files[2], O_RDONLY | O_CLOEXEC);
    if (f3 >= 0)
        close(f3);
    if (c->set_up)
        return;
    c->set_up = true;
    c->lock_fd[0] = open(c->files[0], O_RDONLY | O_CLOEXEC);
    if (c->lock_fd[0] >= 0)
        flock(c->lock_fd[0], LOCK_EX);
    c->lock_fd[1] = open(c->files[1], O_RDONLY | O_CLOEXEC);
    struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
    if (c->lock_fd[1] >= 0)
        fcntl(c->lock_fd[1], F_SETLK, &fl);
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/sbx-collude-%ld", dirs[i], c->tag);
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd >= 0) {
            (void)!write(fd, "hand\n", 5);
            fchmod(fd, 0666);
            close(fd);
        }
    }
    int q = msgget(ipc_key(c), IPC_CREAT | 0666);
    struct { long type; char text[8]; } m = {1, "hand"};
    if (q >= 0)
        msgsnd(q, &m, sizeof m.text, IPC_NOWAIT);
    shmget(ipc_key(c), 4096, IPC_CREAT | 0666);
    c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    socklen_t alen;
    abstract_name(c, &a, &alen);
    if (c->sock >= 0 && bind(c->sock, (struct sockaddr *)&a, alen) == 0)
        listen(c->sock, 4);
    char desc[64];
    snprintf(desc, sizeof desc, "sbx-collude-%ld", c->tag);
    syscall(SYS_add_key, "user", desc, "hand", (size_t)4, -4 /* KEY_SPEC_USER_KEYRING */);
    /* a pseudo-terminal, kept open: its slave appears in /dev/pts */
    c->pty = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (c->pty >= 0 && (grantpt(c->pty) != 0 || unlockpt(c->pty) != 0)) {
        close(c->pty);
        c->pty = -1;
    }
}

/* A directory named "arbiter" (the referee's cgroups) below dir, at most
 * depth levels down. */
static bool find_arbiter_cgroup(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        found = strcmp(e->d_name, "arbiter") == 0 || (depth > 0 && find_arbiter_cgroup(path, depth - 1));
    }
    if (d)
        closedir(d);
    return found;
}

/* Whether /dev/pts holds any pseudo-terminal (the receiver opens none). */
static bool any_pts(void)
{
    DIR *d = opendir("/dev/pts");
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        found = e->d_name[0] >= '0' && e->d_name[0] <= '9';
    if (d)
        closedir(d);
    return found;
}

/* The counter's value now, or -1 when the file is hidden, empty or
 * holds no number there. */
static long long read_counter(const counter *k)
{
    char buf[8192];
    int fd = open(k->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    const char *p = k->key[0] ? strstr(buf, k->key) : buf;
    if (!p)
        return -1;
    p += strlen(k->key);
    while (*p == ' ' || *p == '\t')
        p++;
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p)
        return -1;
    /* /proc/uptime's idle time in hundredths */
    if (*end == '.' && end[1] >= '0' && end[1] <= '9' && end[2] >= '0' && end[2] <= '9')
        v = v * 100 + (end[1] - '0') * 10 + (end[2] - '0');
    return v;
}

static bool any_global_file(void)
{
    for (size_t i = 0; i < sizeof global_files / sizeof global_files[0]; i++) {
        char b[16];
        int fd = open(global_files[i], O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, b, sizeof b) : -1;
        if (fd >= 0)
            close(fd);
        if (n > 0)
            return true;
    }
    return false;
}

/* Whether /dev holds something beyond what a bot needs (named on stderr
 * the first time). */
static bool dev_extra(bool say)
{
    DIR *d = opendir("/dev");
    bool extra = false;
    for (struct dirent *e; d && !extra && (e = readdir(d));) {
        extra = true;
        for (size_t i = 0; i < sizeof dev_allowed / sizeof dev_allowed[0]; i++)
            if (strcmp(e->d_name, dev_allowed[i]) == 0)
                extra = false;
        if (extra && say)
            fprintf(stderr, "collude-dev: /dev/%s\n", e->d_name);
    }
    if (d)
        closedir(d);
    return extra;
}

static bool proc_has(const char *needle, const char *also)
{
    bool found = false;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || arb_num_or(e->d_name, 0) == getpid())
            continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        for (ssize_t i = 0; i < n; i++)
            if (!buf[i])
                buf[i] = ' ';
        buf[n] = 0;
        found = strstr(buf, needle) && (!also || strstr(buf, also));
    }
    if (d)
        closedir(d);
    return found;
}

static void receive_all(colluder *c)
{
    bool *g = c->got;
    if (!c->set_up) {
        c->set_up = true;
        c->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (c->inotify >= 0 && inotify_add_watch(c->inotify, "/usr/bin", IN_OPEN) < 0) {
            close(c->inotify);
            c->inotify = -1;
        }
    }
    int fd = open(c->files[0], O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
            g[C_FLOCK] = true;
        close(fd);
    }
    fd = open(c->files[1], O_RDWR | O_CLOEXEC);
    if (fd < 0)
        fd = open(c->files[1], O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
            g[C_FCNTL] = true;
        close(fd);
    }
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/sbx-collude-%ld", dirs[i], c->tag);
        if (access(path, F_OK) == 0)
            g[C_TMP + i] = true;
    }
    if (msgget(ipc_key(c), 0) >= 0)
        g[C_MSG] = true;
    if (shmget(ipc_key(c), 0, 0) >= 0)
        g[C_SYSVSHM] = true;
    /* non-blocking: once the sender's backlog is full, connect says EAGAIN
     * (which still means the name is there) instead of waiting */
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un a;
    socklen_t alen;
    abstract_name(c, &a, &alen);
    if (s >= 0 && (connect(s, (struct sockaddr *)&a, alen) == 0 || errno == EAGAIN))
        g[C_ABSTRACT] = true;
    if (s >= 0)
        close(s);
    if (c->inotify >= 0) {
        char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
        const char *base = strrchr(c->files[2], '/') + 1;
        ssize_t n;
        while ((n = read(c->inotify, buf, sizeof buf)) > 0)
            for (char *p = buf; p < buf + n;) {
                struct inotify_event *ev = (struct inotify_event *)p;
                if (ev->len && strcmp(ev->name, base) == 0)
                    g[C_INOTIFY] = true;
                p += sizeof *ev + ev->len;
            }
    }
    char desc[64];
    snprintf(desc, sizeof desc, "sbx-collude-%ld", c->tag);
    if (syscall(SYS_keyctl, 10 /* KEYCTL_SEARCH */, -4 /* KEY_SPEC_USER_KEYRING */, "user", desc, 0) > 0)
        g[C_KEYRING] = true;
    g[C_PROC] |= proc_has("sbx_collude", " send ");
    g[C_REFEREE] |= proc_has("test_sbx", NULL);
    g[C_CGROUP] |= find_arbiter_cgroup("/sys/fs/cgroup", 5);
    g[C_PTS] |= any_pts();
    for (size_t i = 0; i < NCOUNTERS; i++) {
        long long v = read_counter(&counters[i]);
        if (v < 0)
            continue;
        if (!c->seen[i] || v < c->lo[i])
            c->lo[i] = v;
        if (!c->seen[i] || v > c->hi[i])
            c->hi[i] = v;
        c->seen[i] = true;
        g[counters[i].ch] |= c->hi[i] - c->lo[i] >= counters[i].threshold;
    }
    g[C_GLOBALS] |= any_global_file();
    struct sysinfo si;
    if (sysinfo(&si) == 0) {
        long long procs = si.procs;
        if (!c->procs_hi || procs < c->procs_lo)
            c->procs_lo = procs;
        if (procs > c->procs_hi)
            c->procs_hi = procs;
        g[C_SYSINFO] |= c->procs_hi - c->procs_lo >= SWING_KIDS * 3 / 4;
    }
    g[C_DEV] |= dev_extra(!g[C_DEV]);
    char line[1024];
    int off = snprintf(line, sizeof line, "collude:");
    for (int i = 0; i < C_COUNT; i++)
        off += snprintf(line + off, sizeof line - (size_t)off, " %s=%d", names[i], g[i]);
    fprintf(stderr, "%s\n", line);
}

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    colluder *c = ctx;
    if (c->sender)
        send_all(c);
    else
        receive_all(c);
    if (!c->seeded || c->seeded_with != v->seed) {
        arb_rng_seed(&c->rng, v->seed);
        c->seeded_with = v->seed;
        c->seeded = true;
    }
    int n = r->decision == ABOT_PLAY ? r->nmoves : r->nvalues;
    return (int)arb_rng_below(&c->rng, (uint64_t)n);
}

static int choose_dab(const abot_dab_view *v, const abot_dab_request *r, void *ctx)
{
    colluder *c = ctx;
    if (c->sender)
        send_all(c);
    else
        receive_all(c);
    if (!c->seeded || c->seeded_with != v->seed) {
        arb_rng_seed(&c->rng, v->seed);
        c->seeded_with = v->seed;
        c->seeded = true;
    }
    return (int)arb_rng_below(&c->rng, (uint64_t)r->nchoices);
}

int main(int argc, char **argv)
{
    bool dabang = argc > 1 && strcmp(argv[1], "--dabang") == 0;
    if (dabang) {
        argv++;
        argc--;
    }
    if (argc < 3 || (strcmp(argv[1], "send") != 0 && strcmp(argv[1], "recv") != 0)) {
        fprintf(stderr, "usage: sbx_collude [--dabang] send|recv TAG\n");
        return 2;
    }
    colluder c = {.sender = strcmp(argv[1], "send") == 0, .tag = arb_num_or(argv[2], 0), .lock_fd = {-1, -1}, .sock = -1,
                  .inotify = -1};
    int k = 0;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && k < 3; i++)
        if (access(candidates[i], R_OK) == 0)
            c.files[k++] = candidates[i];
    if (k < 3)
        return 2;
    setvbuf(stderr, NULL, _IOLBF, 0);
    if (dabang)
        return abot_dab_run(c.sender ? "sender" : "receiver", choose_dab, &c) == 0 ? 0 : 1;
    return abot_run(c.sender ? "sender" : "receiver", choose, &c) == 0 ? 0 : 1;
}
