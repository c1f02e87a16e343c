/* seat.c — bot processes: start in a sandbox, bounded line I/O with
 * deadlines and a non-blocking output queue, CPU time, stderr capture, and
 * a kill that takes everything the bot started (seat.h). */
#include "seat.h"
#include "arb_num.h"
#include "cgroup.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"
#include "sandbox_seccomp.h"

#include <limits.h>
#include <dirent.h>
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct seat {
    pid_t  pid;          /* the process we started (bubblewrap, or the bot) */
    pid_t  bot_pid;      /* the bot itself (inside bubblewrap: its host pid) */
    int    in_fd;        /* the bot's stdin (we write) */
    int    out_fd;       /* the bot's stdout (we read) */
    int    err_fd;       /* the bot's stderr (we read) */
    bool   reaped;
    int    status;
    clockid_t cpu_clock;
    bool   has_cpu_clock;
    uint64_t last_cpu;
    char   sandbox[16];
    uid_t  uid;          /* the bot's own uid (0: ours) */
    /* A line of ARB_MAX_LINE bytes with its "\r\n" fits; a full buffer
     * without a newline is a line too long. */
    char   line[ARB_MAX_LINE + 2];
    size_t line_len;     /* bytes buffered from stdout */
    bool   discarding;   /* skipping the rest of an overlong line */
    char  *out;          /* queued output not yet written */
    size_t out_off, out_len, out_alloc;
    char  *errbuf;
    size_t errlen, errcap;   /* errbuf holds errcap + SEAT_NOTE_ROOM bytes */
    /* Every process of the bot (cgroup.h): its group, or who it is for a
     * walk of its processes (cgroup.h), and what the last walk found. */
    bcg   *cg;
    bcg_who who;
    bcg_known known;         /* processes seen as the bot's (scans) */
    uint64_t mem_cap;        /* total memory (UINT64_MAX: none) */
    uint64_t others_ns;      /* CPU of its other processes at the last scan */
    uint64_t scan_ns;        /* when that scan was (monotonic) */
    uint64_t scan_rss;       /* their summed RSS then, and its tmpfs files */
    char  *workdir;          /* where it runs (its private tmpfs is counted) */
    bool   killed;           /* killed by seat_watch */
    int    gate_fd;          /* bubblewrap's --block-fd, written by seat_release (-1: none) */
    int    pidfd;            /* the started process as a pidfd (its exit polled), -1 without */
};

#define ARB_STR_(x) #x
#define ARB_STR(x) ARB_STR_(x)

/* Room past the stderr cap for the referee's own notes (why it killed). */
#define SEAT_NOTE_ROOM 256

/* Who the bot is for a walk of its processes. Once the process we started is
 * reaped its pid (and session id) may be reused by anything, so only its
 * own uid still names the bot. */
static bcg_who scan_who(const seat *s)
{
    bcg_who w = s->who;
    if (s->reaped)
        w = (bcg_who){.uid = s->who.uid};
    return w;
}

#define DEFAULT_AS (1ull << 30)
#define DEFAULT_CPU 600
#define DEFAULT_NPROC 64
#define DEFAULT_FSIZE (16ull << 20)
#define DEFAULT_NOFILE 64

/* What the child reports on its status pipe just before execve. */
enum { CHILD_UID = 1, CHILD_NETNS = 2, CHILD_BWRAP = 4, CHILD_MNTNS = 8, CHILD_CGROUP = 0x10, CHILD_SANDBOX_FAILED = 0x40,
       CHILD_FAILED = 0x80 };

/* Directories every bot gets empty and of its own (a tmpfs), so nothing
 * written there reaches another bot or outlives the match. /run holds the
 * host's sockets (the database's among them) and /run/lock. */
static const char *const private_roots[] = {"/tmp", "/var/tmp", "/dev/shm", "/run"};
#define NROOTS (sizeof private_roots / sizeof private_roots[0])

/* Directories of the bot's own program bound back read-only after the
 * hiding (at most this many; each path at most SEAT_BIND_LEN). */
#define SEAT_MAX_BINDS 8
#define SEAT_BIND_LEN 512

static void set_limit(int resource, uint64_t value)
{
    struct rlimit rl = {(rlim_t)value, (rlim_t)value};
    setrlimit(resource, &rl);
}

/* Length of dir without trailing slashes, when path lies strictly below it
 * (0 otherwise). */
static size_t below(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return n > 1 && strncmp(path, dir, n) == 0 && path[n] == '/' && path[n + 1] ? n : 0;
}

/* The directory (or file) to bind back for a program or file argument at
 * `path`: the first component below the program cache, below the deepest
 * hidden directory holding it, or below a private root; "" when the path
 * stays visible as it is. A script finds the modules beside it. */
static void bind_root(const char *path, const seat_limits *lim, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    if (lim->programs)
        n = below(path, lim->programs);
    for (int i = 0; !n && i < SEAT_MAX_HIDE && lim->hide[i]; i++) {
        size_t k = below(path, lim->hide[i]);
        n = k > n ? k : n;
    }
    for (size_t i = 0; !n && i < NROOTS; i++)
        n = below(path, private_roots[i]);
    if (!n)
        return;
    const char *slash = strchr(path + n + 1, '/');
    size_t len = slash ? (size_t)(slash - path) : strlen(path);
    if (len < cap) {
        memcpy(out, path, len);
        out[len] = 0;
    }
}

/* Whether a bind root lies below something hidden (so it is bound after
 * the hiding), and whether it would expose something hidden: the hidden
 * path itself, or, bound after the hiding, a hidden path below it. A root
 * bound before the hiding may hold hidden paths: they are hidden on top. */
static bool under_hidden(const char *root, const seat_limits *lim)
{
    if (lim->programs && below(root, lim->programs))
        return true;
    for (int i = 0; i < SEAT_MAX_HIDE && lim->hide[i]; i++)
        if (below(root, lim->hide[i]))
            return true;
    return false;
}

static bool exposes_hidden(const char *root, const seat_limits *lim)
{
    bool late = under_hidden(root, lim);
    for (int i = 0; i < SEAT_MAX_HIDE && lim->hide[i]; i++)
        if (strcmp(root, lim->hide[i]) == 0 || (late && below(lim->hide[i], root)))
            return true;
    return lim->programs && (strcmp(root, lim->programs) == 0 || (late && below(lim->programs, root)));
}

/* The bind-back list for argv: existing absolute paths, each root once;
 * those below a hidden directory last (bound after the hiding), their
 * number in *late. */
static int program_binds(char *const argv[], const seat_limits *lim, char binds[][SEAT_BIND_LEN], int *late)
{
    char found[SEAT_MAX_BINDS][SEAT_BIND_LEN];
    int n = 0;
    for (int i = 0; argv[i] && n < SEAT_MAX_BINDS; i++) {
        if (argv[i][0] != '/' || access(argv[i], F_OK) != 0)
            continue;
        bind_root(argv[i], lim, found[n], SEAT_BIND_LEN);
        bool skip = !found[n][0] || exposes_hidden(found[n], lim);
        for (int t = 0; t < n && !skip; t++)
            skip = strcmp(found[t], found[n]) == 0;
        if (!skip)
            n++;
    }
    int k = 0;
    *late = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++)
            if (under_hidden(found[i], lim) == (pass == 1)) {
                memcpy(binds[k++], found[i], SEAT_BIND_LEN);
                *late += pass;
            }
    return n;
}

/* What a bot in a system view sees of the host (seat_limits.system_view),
 * read-only: what programs and interpreters need to run. */
static const char *const system_dirs[] = {"/usr", "/etc", "/opt", "/sys", "/bin", "/sbin",
                                          "/lib", "/lib32", "/lib64", "/libx32"};
#define SEAT_SYSTEM_DIRS ((int)(sizeof system_dirs / sizeof system_dirs[0]))

/* A bot's /dev: these devices and the stdio links, nothing else. No ptmx,
 * no pts, no tty: the count of pseudo-terminals is kernel-global (a bot
 * that held N open said N to every bot reading /proc/sys/kernel/pty/nr). */
static const char *const bot_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};
#define SEAT_DEVICES ((int)(sizeof bot_devices / sizeof bot_devices[0]))
static const char *const bot_dev_links[][2] = {
    {"/proc/self/fd", "/dev/fd"}, {"/proc/self/fd/0", "/dev/stdin"},
    {"/proc/self/fd/1", "/dev/stdout"}, {"/proc/self/fd/2", "/dev/stderr"}};
#define SEAT_DEV_LINKS ((int)(sizeof bot_dev_links / sizeof bot_dev_links[0]))

/* Kernel-global counters in /proc (and /sys) that one bot moves and another reads
 * (open files and inodes, threads, forks, shared memory, stall and idle
 * time, interrupts, locks, …): a directory is masked by an empty
 * read-only tmpfs, a file by /dev/null (it reads empty, so a program
 * that parses it finds nothing rather than an error); those this kernel lacks are
 * skipped. What stays visible: docs/security.md, "Known limits". */
static const char *const masked_proc[] = {
    "/proc/sys", "/proc/pressure", "/proc/loadavg", "/proc/stat", "/proc/meminfo", "/proc/vmstat",
    "/proc/uptime", "/proc/interrupts", "/proc/softirqs", "/proc/schedstat", "/proc/diskstats", "/proc/locks",
    "/proc/buddyinfo", "/proc/zoneinfo", "/proc/pagetypeinfo", "/proc/slabinfo", "/proc/swaps", "/proc/cgroups",
    "/proc/key-users", "/proc/sched_debug", "/proc/timer_list", "/proc/vmallocinfo", "/proc/latency_stats",
    "/proc/spl",
    /* the same memory counters per NUMA node (Shmem, nr_shmem) */
    "/sys/devices/system/node"};
#define SEAT_MASKED ((int)(sizeof masked_proc / sizeof masked_proc[0]))

/* bubblewrap's arguments for that /dev and /proc (after --proc);
 * 3 per entry at most. */
static int bwrap_dev_proc(char **out, int n)
{
    out[n++] = "--tmpfs";
    out[n++] = "/dev";
    for (int i = 0; i < SEAT_DEVICES; i++) {
        out[n++] = "--dev-bind";
        out[n++] = (char *)bot_devices[i];
        out[n++] = (char *)bot_devices[i];
    }
    for (int i = 0; i < SEAT_DEV_LINKS; i++) {
        out[n++] = "--symlink";
        out[n++] = (char *)bot_dev_links[i][0];
        out[n++] = (char *)bot_dev_links[i][1];
    }
    out[n++] = "--proc";
    out[n++] = "/proc";
    for (int i = 0; i < SEAT_MASKED; i++) {
        struct stat st;
        if (lstat(masked_proc[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            out[n++] = "--tmpfs";
            out[n++] = (char *)masked_proc[i];
            out[n++] = "--remount-ro";
            out[n++] = (char *)masked_proc[i];
        } else {
            /* a device bind: read-only it would be nodev, and unreadable */
            out[n++] = "--dev-bind";
            out[n++] = "/dev/null";
            out[n++] = (char *)masked_proc[i];
        }
    }
    return n;
}
#define SEAT_DEV_PROC_ARGS (2 + 3 * SEAT_DEVICES + 3 * SEAT_DEV_LINKS + 2 + 4 * SEAT_MASKED)

/* What the bot must not see: the paths of `hide`, then the program cache
 * (its own program is bound back after). Returns how many. */
static int hidden_paths(const seat_limits *lim, const char *hide[SEAT_MAX_HIDE + 1])
{
    int nh = 0;
    for (int i = 0; i < SEAT_MAX_HIDE && lim->hide[i]; i++)
        hide[nh++] = lim->hide[i];
    if (lim->programs)
        hide[nh++] = lim->programs;
    return nh;
}

/* bubblewrap's command line: no network, no IPC, own pid namespace with the
 * bot as its pid 1 (so --info-fd names the bot and its CPU clock is the
 * bot's), the whole system read-only, private /tmp, /var/tmp, /dev/shm and
 * /run, what it must not see hidden (the program cache too), the bot's own
 * program directories bound back read-only, the working directory
 * writable (a tmpfs of wd_size bytes unless wd_size is NULL), the seccomp
 * filter from fd 4. /tmp and the working directory are capped in size
 * (ARB_BOT_TMPFS, ARB_BOT_WORKDIR): the total a bot writes is bounded, not
 * only each file (RLIMIT_FSIZE). */
static int bwrap_argv(const char *bwrap, const char *workdir, char *const argv[], const seat_limits *lim,
                      char binds[][SEAT_BIND_LEN], int nbinds, int late, bool seccomp, bool gated,
                      const char *tmp_size, const char *wd_size, char targets[SEAT_SYSTEM_DIRS][SEAT_BIND_LEN],
                      char **out, int cap)
{
    static const char size[] = ARB_STR(ARB_BOT_TMPFS_BYTES);
    const char *start[] = {bwrap, "--unshare-all", "--die-with-parent", "--as-pid-1"};
    int n = 0;
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++)
        out[n++] = (char *)start[i];
    if (lim->system_view) {
        /* The system's directories only (symlinks such as /bin -> usr/bin
         * kept as links): not the organiser's home, another tournament's
         * state directory, a secret file — whatever the referee's uid
         * could read. The bot's own program is bound below. The links'
         * targets go to the caller's `targets` (never a static: every
         * worker slot's thread starts bots). */
        for (int i = 0; i < SEAT_SYSTEM_DIRS; i++) {
            struct stat st;
            if (lstat(system_dirs[i], &st) != 0)
                continue;
            if (S_ISLNK(st.st_mode)) {
                ssize_t k = readlink(system_dirs[i], targets[i], sizeof targets[i] - 1);
                if (k <= 0)
                    continue;
                targets[i][k] = 0;
                out[n++] = "--symlink";
                out[n++] = targets[i];
                out[n++] = (char *)system_dirs[i];
            } else if (S_ISDIR(st.st_mode)) {
                out[n++] = "--ro-bind";
                out[n++] = (char *)system_dirs[i];
                out[n++] = (char *)system_dirs[i];
            }
        }
    } else {
        out[n++] = "--ro-bind";
        out[n++] = "/";
        out[n++] = "/";
    }
    n = bwrap_dev_proc(out, n);
    const char *pre[] = {
        "--size", tmp_size, "--tmpfs", "/tmp", "--size", size, "--tmpfs", "/var/tmp",
        "--size", size, "--tmpfs", "/dev/shm", "--size", size, "--tmpfs", "/run",
        "--perms", "1777", "--dir", "/run/lock",
        /* Every bot's cgroup counters (pids.current, memory use) are a
         * channel between bots, and the referee's parent group remembers
         * across restarts (pids.peak): none of the host's cgroups shows. */
        "--size", "4096", "--tmpfs", "/sys/fs/cgroup",
    };
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        out[n++] = (char *)pre[i];
    for (int i = 0; i < nbinds - late; i++) {
        out[n++] = "--ro-bind";
        out[n++] = binds[i];
        out[n++] = binds[i];
    }
    const char *hide[SEAT_MAX_HIDE + 1];
    int nh = hidden_paths(lim, hide);
    for (int i = 0; i < nh; i++) {
        struct stat st;
        if (n >= cap - 16 || stat(hide[i], &st) != 0)
            continue;
        out[n++] = S_ISDIR(st.st_mode) ? "--tmpfs" : "--ro-bind";
        if (!S_ISDIR(st.st_mode))
            out[n++] = "/dev/null";
        out[n++] = (char *)hide[i];
    }
    for (int i = nbinds - late; i < nbinds; i++) {
        if (n >= cap - 16)
            return -1;
        out[n++] = "--ro-bind";
        out[n++] = binds[i];
        out[n++] = binds[i];
    }
    if (n >= cap - 16)
        return -1;
    if (wd_size) {
        out[n++] = "--size";
        out[n++] = (char *)wd_size;
        out[n++] = "--tmpfs";
    } else {
        out[n++] = "--bind";
        out[n++] = (char *)workdir;
    }
    const char *post[] = {workdir, "--chdir", workdir, "--info-fd", "3"};
    for (size_t i = 0; i < sizeof post / sizeof post[0]; i++)
        out[n++] = (char *)post[i];
    if (seccomp) {
        out[n++] = "--seccomp";
        out[n++] = "4";
    }
    if (gated) {
        /* Read once everything is built and every privilege dropped, just
         * before the filter and the exec (seat_release). */
        out[n++] = "--block-fd";
        out[n++] = "5";
    }
    out[n++] = "--";
    for (int i = 0; argv[i]; i++) {
        if (n >= cap - 1)
            return -1;
        out[n++] = argv[i];
    }
    out[n] = NULL;
    return n;
}

/* mkdir -p, in the child (path is a copy it may cut). */
static int mkdirs(char *path, bool last_is_file)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int rc = mkdir(path, 0755);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    if (last_is_file) {
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            return -1;
        close(fd);
        return 0;
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* Bind what fd refers to (opened before the tmpfs went over it) at target. */
static int bind_fd(int fd, const char *target, bool ro)
{
    struct stat st;
    char tgt[SEAT_BIND_LEN + 64], src[64];
    if (fstat(fd, &st) != 0 || strlen(target) >= sizeof tgt)
        return -1;
    memcpy(tgt, target, strlen(target) + 1);
    if (mkdirs(tgt, !S_ISDIR(st.st_mode)) != 0)
        return -1;
    snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
    if (mount(src, target, NULL, MS_BIND | MS_REC, NULL) != 0)
        return -1;
    if (ro && mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
        return -1;
    return 0;
}

/* As root without bubblewrap: a fresh /dev of bot_devices, the stdio
 * links and an empty shm directory (the private roots mount over it). */
static int private_dev(void)
{
    int rc = -1, dfd[SEAT_DEVICES];
    for (int i = 0; i < SEAT_DEVICES; i++)
        dfd[i] = open(bot_devices[i], O_PATH | O_CLOEXEC);
    for (int i = 0; i < SEAT_DEVICES; i++)
        if (dfd[i] < 0)
            goto out;
    if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") != 0)
        goto out;
    for (int i = 0; i < SEAT_DEVICES; i++)
        if (bind_fd(dfd[i], bot_devices[i], false) != 0)
            goto out;
    for (int i = 0; i < SEAT_DEV_LINKS; i++)
        if (symlink(bot_dev_links[i][0], bot_dev_links[i][1]) != 0)
            goto out;
    if (mkdir("/dev/shm", 01777) != 0)
        goto out;
    rc = 0;
out:
    for (int i = 0; i < SEAT_DEVICES; i++)
        if (dfd[i] >= 0)
            close(dfd[i]);
    return rc;
}

/* As root without bubblewrap, over the bot's fresh /proc (and /sys): masked_proc. */
static int private_proc_masks(void)
{
    for (int i = 0; i < SEAT_MASKED; i++) {
        struct stat st;
        const char *p = masked_proc[i];
        if (lstat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)
                ? mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "size=4k,mode=0555") != 0
                : mount("/dev/null", p, NULL, MS_BIND, NULL) != 0
                      || mount(NULL, p, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL) != 0)
            return -1;
    }
    return 0;
}

/* As root without bubblewrap, in the child's own mount namespace (before
 * the uid change): fresh tmpfs on the private roots and over what is
 * hidden, the program directories and the working directory bound back,
 * and a /proc where the bot sees only its own processes. Everything dies
 * with the namespace: nothing is left after the match. */
static int private_mounts(const char *workdir, const seat_limits *lim, char binds[][SEAT_BIND_LEN], int nbinds,
                          int late, const char *tmp_opts, const char *wd_opts)
{
    int rc = -1, wfd = -1, bfd[SEAT_MAX_BINDS];
    for (int i = 0; i < SEAT_MAX_BINDS; i++)
        bfd[i] = -1;
    if ((wfd = open(workdir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
        goto out;
    for (int i = 0; i < nbinds; i++)
        if ((bfd[i] = open(binds[i], O_PATH | O_CLOEXEC)) < 0)
            goto out;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        goto out;
    static const char opts[] = "mode=1777,size=" ARB_STR(ARB_BOT_TMPFS_BYTES);
    if (private_dev() != 0)
        goto out;
    bool fresh_run = false;
    for (size_t i = 0; i < NROOTS; i++) {
        struct stat st;
        if (lstat(private_roots[i], &st) != 0 || !S_ISDIR(st.st_mode))
            continue;   /* a symlink is not mounted over (its target is the host's) */
        if (mount("tmpfs", private_roots[i], "tmpfs", MS_NOSUID | MS_NODEV, i == 0 ? tmp_opts : opts) != 0)
            goto out;
        fresh_run |= strcmp(private_roots[i], "/run") == 0;
    }
    /* /run/lock (and /var/lock through its link) in the fresh /run only:
     * never a chmod on the host's */
    if (fresh_run && (mkdir("/run/lock", 01777) != 0 || chmod("/run/lock", 01777) != 0))
        goto out;
    /* The host's cgroups (every bot's counters, a channel; the referee's
     * parent group remembers across restarts) hidden under an empty tmpfs. */
    struct stat cst;
    if (lstat("/sys/fs/cgroup", &cst) == 0 && S_ISDIR(cst.st_mode)
        && mount("tmpfs", "/sys/fs/cgroup", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "size=4k") != 0)
        goto out;
    for (int i = 0; i < nbinds - late; i++)
        if (bind_fd(bfd[i], binds[i], true) != 0)
            goto out;
    const char *hide[SEAT_MAX_HIDE + 1];
    int nh = hidden_paths(lim, hide);
    for (int i = 0; i < nh; i++) {
        struct stat st;
        if (stat(hide[i], &st) != 0)
            continue;   /* under a private root already: gone */
        if (S_ISDIR(st.st_mode) ? mount("tmpfs", hide[i], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
                                : mount("/dev/null", hide[i], NULL, MS_BIND, NULL))
            goto out;
    }
    for (int i = nbinds - late; i < nbinds; i++)
        if (bind_fd(bfd[i], binds[i], true) != 0)
            goto out;
    /* The working directory: a capped tmpfs of the bot's own (ARB_BOT_WORKDIR),
     * or the real one bound back (kept after the bot: --keep-workdir). */
    if (wd_opts) {
        char wd[SEAT_BIND_LEN + 64];
        if (strlen(workdir) >= sizeof wd)
            goto out;
        memcpy(wd, workdir, strlen(workdir) + 1);
        if (mkdirs(wd, false) != 0 || mount("tmpfs", workdir, "tmpfs", MS_NOSUID | MS_NODEV, wd_opts) != 0)
            goto out;
    } else if (bind_fd(wfd, workdir, false) != 0) {
        goto out;
    }
    /* hidepid=invisible (Linux 5.8) where it exists, else hidepid=2. */
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible") != 0
        && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") != 0)
        goto out;
    if (private_proc_masks() != 0)
        goto out;
    rc = chdir(workdir);
out:
    if (wfd >= 0)
        close(wfd);
    for (int i = 0; i < SEAT_MAX_BINDS; i++)
        if (bfd[i] >= 0)
            close(bfd[i]);
    return rc;
}

/* What the child is given: descriptors, the bind-back list, the filter. */
typedef struct child_args {
    /* stdin, stdout, stderr, status pipe, bubblewrap's info pipe, seccomp
     * memfd, the gate bubblewrap blocks on (each -1 when not had) */
    int fds[7];
    char (*binds)[SEAT_BIND_LEN];
    int nbinds, late;   /* binds, the last `late` of them below something hidden */
    const struct sock_filter *filter;
    int nfilter;  /* instructions (0: none on this architecture) */
    const bcg *cg;      /* the bot's cgroup to join first, or NULL (cgroup.h) */
    /* Sizes of its /tmp and working directory, made before the fork (no
     * formatting in the child): bubblewrap's --size arguments, and mount
     * options without bubblewrap; wd NULL: the real directory. */
    char tmp_size[24], wd_size[24], tmp_opts[64], wd_opts[96];
    bool wd_tmpfs;
} child_args;

/* In the child, before exec: only async-signal-safe calls. */
/* The entrant's variables ("NAME=value\n" each) into envp (at most max,
 * NULL after the last), their text copied into buf: in the child between
 * fork and exec, so nothing is allocated. A name of the referee's (PATH,
 * HOME, LANG, ARBITER_*) is skipped, were one ever to come this far:
 * the first of two equal names is the one a program's getenv finds. */
static void child_env(const char *env, char *buf, size_t cap, char **envp, int max)
{
    int n = 0;
    size_t len = env ? strlen(env) : 0;
    if (len >= cap)
        len = 0;   /* never more than the match's bound: none rather than part */
    memcpy(buf, env ? env : "", len);
    buf[len] = 0;
    for (char *line = buf; *line && n < max;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (strncmp(line, "PATH=", 5) != 0 && strncmp(line, "HOME=", 5) != 0 && strncmp(line, "LANG=", 5) != 0
            && strncmp(line, "ARBITER_", 8) != 0 && strchr(line, '='))
            envp[n++] = line;
        if (!nl)
            break;
        line = nl + 1;
    }
    envp[n] = NULL;
}

static void child_exec(char *const argv[], const char *workdir, const seat_limits *lim, child_args *ca,
                       pid_t parent)
{
    int *fds = ca->fds;
    unsigned char flags = 0;
    /* Into the bot's cgroup first, while we are still who we were: all it
     * ever starts is born inside. */
    if (ca->cg && bcg_join_self(ca->cg) == 0)
        flags |= CHILD_CGROUP;
    if (ca->cg)
        bcg_close_child(ca->cg);
    /* A session of our own: a new process group for the group kill, and no
     * controlling terminal to inject keystrokes into. */
    setsid();
    if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0)
        _exit(126);
    int status_fd = fcntl(fds[3], F_DUPFD_CLOEXEC, 10);
    /* bubblewrap's info pipe on 3, its seccomp program on 4: move the
     * memfd out of the way first in case it sits on 3. */
    int sfd = fds[5] >= 0 ? fcntl(fds[5], F_DUPFD_CLOEXEC, 10) : -1;
    int gfd = fds[6] >= 0 ? fcntl(fds[6], F_DUPFD_CLOEXEC, 10) : -1;   /* the gate, on 5 */
    if (fds[4] >= 0 && dup2(fds[4], 3) < 0)
        _exit(126);
    if (sfd >= 0 && dup2(sfd, 4) < 0)
        _exit(126);
    if (gfd >= 0 && dup2(gfd, 5) < 0)
        _exit(126);
    int keep = gfd >= 0 ? 6 : sfd >= 0 ? 5 : fds[4] >= 0 ? 4 : 3;
    /* No inherited descriptors beyond 0, 1, 2 (and 3, 4, 5 for
     * bubblewrap), except the close-on-exec status pipe (at 10 or above):
     * every other one, whatever its number, in two calls (close_range,
     * Linux 5.9); else one close per descriptor up to 1024. */
    if (status_fd < keep || syscall(SYS_close_range, (unsigned)keep, (unsigned)status_fd - 1, 0u) != 0
        || syscall(SYS_close_range, (unsigned)status_fd + 1, ~0u, 0u) != 0)
        for (int fd = keep; fd < 1024; fd++)
            if (fd != status_fd)
                close(fd);
    if (chdir(workdir) != 0)
        _exit(126);
    if (geteuid() == 0 && !lim->bwrap) {
        /* Its own mount, IPC and network namespaces: private tmp
         * directories, SysV IPC, abstract sockets and no network. */
        if (unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET) != 0
            || private_mounts(workdir, lim, ca->binds, ca->nbinds, ca->late, ca->tmp_opts,
                              ca->wd_tmpfs ? ca->wd_opts : NULL) != 0)
            goto sandbox_failed;
        flags |= CHILD_NETNS | CHILD_MNTNS;
    }
    /* Inside bubblewrap the network namespace is bubblewrap's own
     * (--unshare-all): a second one made here cost a namespace creation
     * and teardown per bot start for nothing (on some kernels 100 ms). */
    if (lim->uid) {
        gid_t gid = (gid_t)lim->uid;
        if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(lim->uid) != 0)
            goto sandbox_failed;
        flags |= CHILD_UID;
    }
    /* If the referee dies (even by SIGKILL), so does the bot. Set after the
     * uid change, which clears it; a referee already gone is noticed. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent)
        _exit(126);
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_AS, lim->address_space);
    set_limit(RLIMIT_CPU, lim->cpu_seconds);
    set_limit(RLIMIT_NPROC, lim->processes);
    set_limit(RLIMIT_FSIZE, lim->file_size);
    set_limit(RLIMIT_NOFILE, lim->open_files);
    signal(SIGPIPE, SIG_DFL);
    char home[ARB_MAX_LINE];
    snprintf(home, sizeof home, "HOME=%s", workdir);
    char *envp[4 + ARB_MAX_BOT_ENV + 1] = {"PATH=/usr/local/bin:/usr/bin:/bin", home, "LANG=C.UTF-8",
                                           "ARBITER_BOT=1"};
    char extra[ARB_MAX_BOT_ENV_TEXT];
    child_env(lim->env, extra, sizeof extra, envp + 4, ARB_MAX_BOT_ENV);
    char *bargv[256 + SEAT_DEV_PROC_ARGS];
    char targets[SEAT_SYSTEM_DIRS][SEAT_BIND_LEN];
    if (lim->bwrap) {
        if (bwrap_argv(lim->bwrap, workdir, argv, lim, ca->binds, ca->nbinds, ca->late, sfd >= 0, gfd >= 0,
                       ca->tmp_size, ca->wd_tmpfs ? ca->wd_size : NULL, targets, bargv,
                       sizeof bargv / sizeof bargv[0]) < 0)
            _exit(126);
        flags |= CHILD_BWRAP;
    } else if (ca->nfilter > 0 && sbx_seccomp_install(ca->filter, (size_t)ca->nfilter) != 0) {
        goto sandbox_failed;
    }
    (void)!write(status_fd, &flags, 1);
    execve(lim->bwrap ? lim->bwrap : argv[0], lim->bwrap ? bargv : argv, envp);
    flags = CHILD_FAILED;
    (void)!write(status_fd, &flags, 1);
    _exit(127);
sandbox_failed:
    flags = CHILD_SANDBOX_FAILED;
    (void)!write(status_fd, &flags, 1);
    _exit(126);
}

static void close_pair(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0)
            close(p[i]);
}

/* Read bubblewrap's {"child-pid": N} from the info pipe (it comes as soon
 * as the sandbox exists). */
static pid_t read_child_pid(int fd, int timeout_ms)
{
    char buf[256];
    size_t len = 0;
    uint64_t deadline = arb_now_ns() + (uint64_t)timeout_ms * 1000000u;
    while (len < sizeof buf - 1) {
        struct pollfd p = {fd, POLLIN, 0};
        uint64_t now = arb_now_ns();
        if (now >= deadline || poll(&p, 1, (int)((deadline - now) / 1000000u) + 1) <= 0)
            break;
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = 0;
        if (strchr(buf, '}'))
            break;
    }
    buf[len] = 0;
    const char *k = strstr(buf, "\"child-pid\"");
    long pid = 0;
    if (k && (k = strchr(k, ':')))
        pid = strtol(k + 1, NULL, 10);
    return pid > 0 ? (pid_t)pid : -1;
}

/* The limits asked, each left at 0 given its default. */
static seat_limits limits_or_defaults(const seat_limits *limits)
{
    seat_limits lim = limits ? *limits : (seat_limits){0};
    if (!lim.address_space) lim.address_space = DEFAULT_AS;
    if (!lim.cpu_seconds) lim.cpu_seconds = DEFAULT_CPU;
    if (!lim.processes) lim.processes = DEFAULT_NPROC;
    if (!lim.file_size) lim.file_size = DEFAULT_FSIZE;
    if (!lim.open_files) lim.open_files = DEFAULT_NOFILE;
    if (!lim.stderr_cap) lim.stderr_cap = ARB_STDERR_CAP;
    if (!lim.memory) lim.memory = ARB_BOT_MEMORY;
    if (!lim.tmpfs) lim.tmpfs = ARB_BOT_TMPFS;
    if (!lim.workdir_size) lim.workdir_size = ARB_BOT_WORKDIR;
    return lim;
}

/* Before a bot is forked: refuse what must never run (a command that is
 * not an absolute path; root's uid by accident), settle the uid (*lim),
 * make the referee a subreaper deaf to SIGPIPE, and make the bot's work
 * directory (its own when it has a uid). 0, or ARB_EINVAL, ARB_EIO. */
static int seat_prepare(char *const argv[], const char *workdir, seat_limits *lim)
{
    if (!argv || !argv[0] || argv[0][0] != '/')
        return ARB_EINVAL;   /* an absolute path: no PATH search, no shell */
    if (geteuid() == 0 && !lim->uid && !lim->allow_root)
        return ARB_EINVAL;   /* never run an untrusted bot as root by accident */
    if (geteuid() != 0)
        lim->uid = 0;        /* only root can change uid; stay who we are */
    /* A bot that closes its stdin must not kill the referee. */
    signal(SIGPIPE, SIG_IGN);
    /* Orphans a bot leaves behind are re-parented to us, not to init, so
     * seat_stop can reap them: no zombies whatever the bot did. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    if (mkdir(workdir, 0700) != 0 && errno != EEXIST)
        return ARB_EIO;
    if (lim->uid && chown(workdir, lim->uid, (gid_t)lim->uid) != 0)
        return ARB_EIO;
    return 0;
}

/* The status pipe (fd): the child's flags, then EOF when execve succeeded
 * (close-on-exec); a second byte when it failed; EOF at once when the
 * child died before it could exec. *n1, *n2: what each read gave (*n2 0
 * when the first gave no byte). */
static void read_child_status(int fd, unsigned char *flags, ssize_t *n1, ssize_t *n2)
{
    unsigned char fail_byte = 0;
    *n2 = 0;
    while ((*n1 = read(fd, flags, 1)) < 0 && errno == EINTR)
        ;
    if (*n1 == 1)
        while ((*n2 = read(fd, &fail_byte, 1)) < 0 && errno == EINTR)
            ;
}

/* A bot forked that must not play (it did not exec, or its sandbox is not
 * the one required): its pipes closed (info and gate: what is left of
 * them), its process group killed and reaped, the seat freed. */
static void seat_abort_started(seat *s, pid_t pid, int info[2], int gate[2])
{
    close(s->in_fd);
    close(s->out_fd);
    close(s->err_fd);
    close_pair(info);
    close_pair(gate);
    if (s->pidfd >= 0)
        close(s->pidfd);
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    bcg_free(s->cg);
    free(s->workdir);
    free(s->errbuf);
    free(s);
}

/* The sandbox the bot runs in, as recorded per seat ("bwrap+uid+cg2",
 * "rlimits", ...), from the child's flags and the cgroup had. */
static void name_sandbox(seat *s, unsigned flags)
{
    snprintf(s->sandbox, sizeof s->sandbox, "%s%s",
             (flags & CHILD_BWRAP) ? ((flags & CHILD_UID) ? "bwrap+uid" : "bwrap")
             : (flags & CHILD_UID) ? ((flags & CHILD_MNTNS) ? "uid+ns" : "uid")
             : (flags & CHILD_MNTNS) ? "ns" : "rlimits",
             bcg_kind_of(s->cg) == BCG_V2 ? "+cg2" : bcg_kind_of(s->cg) == BCG_V1 ? "+cg1" : "");
}

seat *seat_start(char *const argv[], const char *workdir, const seat_limits *limits, int *err)
{
    seat_limits lim = limits_or_defaults(limits);
    *err = seat_prepare(argv, workdir, &lim);
    if (*err)
        return NULL;
    seat *s = calloc(1, sizeof *s);
    int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1}, st[2] = {-1, -1}, info[2] = {-1, -1};
    int gate[2] = {-1, -1};
    int filter_fd = -1;
    /* The seccomp filter, built here (the child only installs it), and
     * for bubblewrap a memfd holding it. */
    struct sock_filter filter[SBX_SECCOMP_MAX];
    int nfilter = sbx_seccomp_build(filter, SBX_SECCOMP_MAX);
    if (nfilter == ARB_ENOSPC) {
        *err = ARB_ESANDBOX;
        free(s);
        return NULL;
    }
    if (nfilter > 0 && lim.bwrap && (filter_fd = sbx_seccomp_memfd()) < 0) {
        *err = ARB_ESANDBOX;
        free(s);
        return NULL;
    }
    char binds[SEAT_MAX_BINDS][SEAT_BIND_LEN];
    int late = 0, nbinds = program_binds(argv, &lim, binds, &late);
    if (!s || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)
        || pipe2(st, O_CLOEXEC) || (lim.bwrap && pipe2(info, O_CLOEXEC))
        || (lim.bwrap && lim.gated && pipe2(gate, O_CLOEXEC)))
        goto fail;
    s->gate_fd = s->pidfd = -1;
    s->errcap = lim.stderr_cap;
    s->errbuf = malloc(s->errcap + SEAT_NOTE_ROOM + 1);
    if (!s->errbuf)
        goto fail;
    s->errbuf[0] = 0;
    s->workdir = strdup(workdir);
    if (!s->workdir)
        goto fail;
    s->mem_cap = lim.memory;
    /* The bot's own cgroup when one can be had (else the /proc scan):
     * made before the fork so the child joins it before it execs. */
    if (lim.memory != UINT64_MAX)
        s->cg = bcg_new(lim.memory, lim.processes, NULL);
    child_args ca = {{in[0], out[1], errp[1], st[1], info[1], filter_fd, gate[0]}, binds, nbinds, late, filter,
                     nfilter > 0 ? nfilter : 0, s->cg, "", "", "", "", lim.workdir_size != UINT64_MAX};
    snprintf(ca.tmp_size, sizeof ca.tmp_size, "%" PRIu64, lim.tmpfs);
    snprintf(ca.wd_size, sizeof ca.wd_size, "%" PRIu64, lim.workdir_size);
    snprintf(ca.tmp_opts, sizeof ca.tmp_opts, "mode=1777,size=%" PRIu64, lim.tmpfs);
    snprintf(ca.wd_opts, sizeof ca.wd_opts, "mode=0700,uid=%u,gid=%u,size=%" PRIu64, (unsigned)lim.uid,
             (unsigned)lim.uid, lim.workdir_size);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0)
        child_exec(argv, workdir, &lim, &ca, parent);
    if (filter_fd >= 0)
        close(filter_fd);
    filter_fd = -1;
    /* No setpgid here: the child's setsid() makes it a session and group
     * leader, and a setpgid racing ahead of it would make setsid fail. The
     * status read below waits until the child is past setsid. */
    close(in[0]);
    close(out[1]);
    close(errp[1]);
    close(st[1]);
    in[0] = out[1] = errp[1] = st[1] = -1;
    if (info[1] >= 0) {
        close(info[1]);
        info[1] = -1;
    }
    if (gate[0] >= 0) {
        close(gate[0]);
        gate[0] = -1;
    }
    /* Its exit, to be waited for with poll (Linux 5.3; else polled). */
    s->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    s->pid = s->bot_pid = pid;
    s->in_fd = in[1];
    s->out_fd = out[0];
    s->err_fd = errp[0];
    in[1] = out[0] = errp[0] = -1;
    /* The status pipe: the child's flags, then EOF when execve succeeded
     * (close-on-exec); a second byte when it failed; EOF at once when the
     * child died before it could exec. */
    unsigned char flags = 0;
    ssize_t n1, n2;
    read_child_status(st[0], &flags, &n1, &n2);
    close(st[0]);
    st[0] = -1;
    /* bubblewrap names the bot's pid once the sandbox exists; a bubblewrap
     * that exits first could not build it (its uid out of processes, user
     * namespaces refused): the seat fails, it never runs weaker. */
    pid_t child = -1;
    if (n1 == 1 && n2 == 0 && (flags & CHILD_BWRAP)) {
        child = read_child_pid(info[0], 5000);
        close(info[0]);
        info[0] = -1;
        if (child <= 0)
            flags |= CHILD_SANDBOX_FAILED;
    }
    bool weaker = ((lim.require & SEAT_NEED_BWRAP) && !(flags & CHILD_BWRAP))
                  || ((lim.require & SEAT_NEED_UID) && !(flags & CHILD_UID));
    if (n1 != 1 || n2 != 0 || (flags & CHILD_SANDBOX_FAILED) || weaker) {
        seat_abort_started(s, pid, info, gate);
        *err = n1 == 1 && ((flags & CHILD_SANDBOX_FAILED) || weaker) ? ARB_ESANDBOX : ARB_ENOTFOUND;
        return NULL;
    }
    if (child > 0)
        s->bot_pid = child;
    s->gate_fd = gate[1];   /* held until seat_release */
    gate[1] = -1;
    s->uid = (flags & CHILD_UID) ? lim.uid : 0;
    if (s->cg && !(flags & CHILD_CGROUP)) {
        bcg_free(s->cg);   /* the child could not join: the scan instead */
        s->cg = NULL;
    }
    s->who = (bcg_who){.main = s->bot_pid, .pid = s->pid, .sid = s->pid, .uid = s->uid};
    name_sandbox(s, flags);
    fcntl(s->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->err_fd, F_SETFL, O_NONBLOCK);
    s->has_cpu_clock = clock_getcpuclockid(s->bot_pid, &s->cpu_clock) == 0;
    return s;
fail:
    *err = errno == ENOMEM ? ARB_ENOMEM : ARB_EIO;
    if (filter_fd >= 0)
        close(filter_fd);
    close_pair(in);
    close_pair(out);
    close_pair(errp);
    close_pair(st);
    close_pair(info);
    close_pair(gate);
    if (s) {
        bcg_free(s->cg);
        free(s->workdir);
        free(s->errbuf);
    }
    free(s);
    return NULL;
}

pid_t seat_pid(const seat *s) { return s->pid; }
bool seat_gated(const seat *s) { return s->gate_fd >= 0; }
bool seat_has_cgroup(const seat *s) { return s->cg != NULL; }

void seat_release(seat *s)
{
    if (s->gate_fd < 0)
        return;
    (void)!write(s->gate_fd, "g", 1);
    close(s->gate_fd);
    s->gate_fd = -1;
}

void seat_pause(seat *s, bool paused)
{
    if (s->reaped)
        return;
    if (s->cg) {
        bcg_stop(s->cg, paused);
        return;
    }
    int sig = paused ? SIGSTOP : SIGCONT;
    /* Every process of the bot a scan finds (a child in a session of its
     * own escapes the group signals below); twice when stopping, for one
     * forked during the first pass. */
    bcg_usage u;
    bcg_who w = scan_who(s);
    bcg_scan(&w, &s->known, sig, &u);
    if (paused)
        bcg_scan(&w, &s->known, sig, &u);
    kill(-s->pid, sig);
    if (s->bot_pid != s->pid) {
        kill(s->bot_pid, sig);
        kill(-s->bot_pid, sig);   /* the bot's own group inside its namespace */
    }
}
const char *seat_sandbox(const seat *s) { return s->sandbox; }

const char *seat_sandbox_text(const char *level)
{
    static const struct {
        const char *level, *text;
    } texts[] = {
        {"bwrap+uid", "bubblewrap under a uid of its own: no network, read-only system, private /tmp, "
                      "/dev/shm, IPC and pids, only its own program visible, file locks and inotify "
                      "neutralised; it cannot see or signal the referee or other bots"},
        {"bwrap", "bubblewrap, sharing the referee's uid: no network, read-only system, private /tmp, "
                  "/dev/shm, IPC and pids, only its own program visible, file locks and inotify "
                  "neutralised; RLIMIT_NPROC is shared with every bot and the referee's user"},
        {"uid+ns", "a uid of its own with private mounts, IPC and no network: it sees only its own "
                   "processes and its own program, but can read whatever the host leaves world-readable"},
        {"uid", "a uid of its own only: it can read whatever the host leaves world-readable"},
        {"ns", "private mounts, IPC and no network, but as the referee's uid"},
        {"rlimits", "rlimits only: this bot can read your files and the other bots' programs, signal "
                    "and trace the referee and the other bots, and reach the network"},
    };
    /* "+cg1"/"+cg2" (its processes held in a cgroup) says nothing about
     * what the bot can see: the level is what comes before it. */
    const char *cg = strstr(level, "+cg");
    size_t len = cg ? (size_t)(cg - level) : strlen(level);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strlen(texts[i].level) == len && strncmp(level, texts[i].level, len) == 0)
            return texts[i].text;
    return "unknown sandbox level";
}

/* Read whatever stderr holds, keeping at most errcap bytes. */
static void drain_stderr(seat *s)
{
    char tmp[4096];
    for (;;) {
        ssize_t n = read(s->err_fd, tmp, sizeof tmp);
        if (n <= 0)
            return;
        size_t room = s->errlen < s->errcap ? s->errcap - s->errlen : 0;   /* a note may be past the cap */
        size_t k = (size_t)n < room ? (size_t)n : room;
        memcpy(s->errbuf + s->errlen, tmp, k);
        s->errlen += k;
        s->errbuf[s->errlen] = 0;
    }
}

const char *seat_stderr(seat *s, size_t *len)
{
    drain_stderr(s);
    if (len)
        *len = s->errlen;
    return s->errbuf;
}

/* Without a cgroup: rescan the bot's processes when the last scan is older
 * than ARB_BOT_WATCH_MS. */
static void rescan(seat *s)
{
    uint64_t now = arb_now_ns();
    if (s->cg || s->reaped || now - s->scan_ns < (uint64_t)ARB_BOT_WATCH_MS * 1000000u)
        return;
    bcg_usage u;
    bcg_who w = scan_who(s);
    bcg_scan(&w, &s->known, 0, &u);
    s->scan_ns = now;
    /* Its private /tmp and working directory are RAM too. */
    s->scan_rss = u.rss + bcg_private_fs_used(s->bot_pid, "/tmp") + bcg_private_fs_used(s->bot_pid, s->workdir);
    if (u.cpu_ns > u.main_ns)
        s->others_ns = u.cpu_ns - u.main_ns;
}

uint64_t seat_cpu_ns(seat *s)
{
    struct timespec ts;
    uint64_t v = 0;
    if (s->cg && !s->reaped) {
        v = bcg_cpu_ns(s->cg);
    } else if (s->has_cpu_clock && !s->reaped && clock_gettime(s->cpu_clock, &ts) == 0) {
        rescan(s);
        v = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + s->others_ns;
    }
    if (v > s->last_cpu)
        s->last_cpu = v;
    return s->last_cpu;
}

/* A line from the referee at the end of the bot's stderr (past the cap if
 * need be: SEAT_NOTE_ROOM is kept for it). */
static void seat_note(seat *s, const char *text)
{
    size_t room = s->errcap + SEAT_NOTE_ROOM - s->errlen;
    bool fresh_line = s->errlen == 0 || s->errbuf[s->errlen - 1] == '\n';
    int n = snprintf(s->errbuf + s->errlen, room + 1, "%s%s\n", fresh_line ? "" : "\n", text);
    if (n > 0)
        s->errlen += (size_t)n < room ? (size_t)n : room;
}

void seat_annotate(seat *s, const char *text)
{
    drain_stderr(s);
    seat_note(s, text);
}

/* Every process of the bot, now. */
static void kill_all(seat *s)
{
    if (s->cg) {
        bcg_kill(s->cg);
    } else {
        bcg_usage u;
        bcg_who w = scan_who(s);
        /* Twice: a child forked while the first pass ran is caught by the
         * second (re-parented to us, in the session or remembered). */
        bcg_scan(&w, &s->known, SIGKILL, &u);
        bcg_scan(&w, &s->known, SIGKILL, &u);
    }
    kill(-s->pid, SIGKILL);
    if (s->bot_pid != s->pid)
        kill(s->bot_pid, SIGKILL);
}

int seat_watch(seat *s)
{
    if (s->reaped || s->killed || s->mem_cap == UINT64_MAX)
        return s->killed ? ARB_ETOOBIG : 0;
    char note[SEAT_NOTE_ROOM];
    if (s->cg) {
        /* The kernel holds the cap; this only notices that its OOM killer
         * ended one process so that the rest go too: at most every
         * ARB_BOT_WATCH_MS, not at every turn (a read of the group's file
         * is a third of a decision's system calls). */
        uint64_t now = arb_now_ns();
        if (now - s->scan_ns < (uint64_t)ARB_BOT_WATCH_MS * 1000000u)
            return 0;
        s->scan_ns = now;
        uint64_t kills = bcg_oom_kills(s->cg);
        if (kills == 0)
            return 0;
        snprintf(note, sizeof note, "arbiter: killed: memory: the bot's processes reached their cap of %" PRIu64
                 " bytes together (the kernel's OOM killer ended %" PRIu64 " of them)", s->mem_cap, kills);
    } else {
        rescan(s);
        if (s->scan_rss <= s->mem_cap)
            return 0;
        snprintf(note, sizeof note, "arbiter: killed: memory: the bot's processes and tmpfs files held %" PRIu64
                 " bytes together, over their cap of %" PRIu64 " (polled)", s->scan_rss, s->mem_cap);
    }
    drain_stderr(s);
    seat_note(s, note);
    kill_all(s);
    s->killed = true;
    return ARB_ETOOBIG;
}

static int remaining_ms(uint64_t deadline_ns)
{
    uint64_t now = arb_now_ns();
    if (now >= deadline_ns)
        return 0;
    uint64_t ms = (deadline_ns - now + 999999) / 1000000;
    return ms > 1000000 ? 1000000 : (int)ms;
}

/* Write queued output without blocking. 0, or ARB_EIO when the bot's stdin
 * is gone. */
static int flush_some(seat *s)
{
    while (s->out_off < s->out_len) {
        ssize_t n = write(s->in_fd, s->out + s->out_off, s->out_len - s->out_off);
        if (n > 0) {
            s->out_off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        return ARB_EIO;
    }
    s->out_off = s->out_len = 0;
    return 0;
}

static int enqueue(seat *s, const char *line, size_t len)
{
    if (s->out_off > 0 && s->out_off == s->out_len)
        s->out_off = s->out_len = 0;
    size_t pending = s->out_len - s->out_off;
    if (pending + len + 1 > ARB_MAX_QUEUE)
        return ARB_ETOOBIG;
    if (s->out_off > 0 && s->out_len + len + 1 > s->out_alloc) {
        memmove(s->out, s->out + s->out_off, pending);
        s->out_off = 0;
        s->out_len = pending;
    }
    if (s->out_len + len + 1 > s->out_alloc) {
        size_t want = s->out_alloc ? s->out_alloc : 4096;
        while (want < s->out_len + len + 1)
            want *= 2;
        char *p = realloc(s->out, want);
        if (!p)
            return ARB_ENOMEM;
        s->out = p;
        s->out_alloc = want;
    }
    memcpy(s->out + s->out_len, line, len);
    s->out[s->out_len + len] = '\n';
    s->out_len += len + 1;
    return 0;
}

int seat_queue(seat *s, const char *line)
{
    int rc = enqueue(s, line, strlen(line));
    if (rc == 0 && s->out_len - s->out_off >= (64u << 10))
        rc = flush_some(s);
    return rc;
}

int seat_send(seat *s, const char *line, uint64_t deadline_ns)
{
    int rc = line ? enqueue(s, line, strlen(line)) : 0;
    if (rc)
        return rc;
    rc = flush_some(s);
    while (rc == 0 && deadline_ns && s->out_len > s->out_off) {
        struct pollfd pfd = {s->in_fd, POLLOUT, 0};
        int ms = remaining_ms(deadline_ns);
        if (ms == 0)
            return ARB_ETIMEOUT;
        if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
            return ARB_EIO;
        if (pfd.revents & (POLLERR | POLLHUP))
            return ARB_EIO;
        rc = flush_some(s);
    }
    return rc;
}

/* A complete line in the buffer? Move it out: SEAT_LINE, SEAT_TOO_LONG
 * (more than ARB_MAX_LINE bytes before the newline), or -1 for none yet. */
static int take_line(seat *s, char *buf, size_t cap)
{
    char *nl = memchr(s->line, '\n', s->line_len);
    if (!nl)
        return -1;
    size_t n = (size_t)(nl - s->line);
    size_t k = n > 0 && s->line[n - 1] == '\r' ? n - 1 : n;
    int kind = k > ARB_MAX_LINE ? SEAT_TOO_LONG : SEAT_LINE;
    if (kind == SEAT_LINE) {
        if (k >= cap)
            k = cap - 1;
        memcpy(buf, s->line, k);
        buf[k] = 0;
        /* A NUL would cut the reply short ("pass\0junk" read as "pass"):
         * marked instead, so the whole line is judged, and refused. */
        for (char *z = memchr(buf, 0, k); z; z = memchr(z, 0, k - (size_t)(z - buf)))
            *z = SEAT_NUL_MARK;
    }
    memmove(s->line, nl + 1, s->line_len - n - 1);
    s->line_len -= n + 1;
    return kind;
}

seat_read seat_recv(seat *s, char *buf, size_t cap, uint64_t deadline_ns)
{
    for (;;) {
        int kind = s->discarding ? -1 : take_line(s, buf, cap);
        if (kind >= 0)
            return (seat_read)kind;
        if (s->line_len >= sizeof s->line) {
            /* No newline in a full buffer: the line is too long. Drop what
             * is buffered and skip the rest of it on later reads. */
            s->line_len = 0;
            s->discarding = true;
            return SEAT_TOO_LONG;
        }
        bool writing = s->out_len > s->out_off;
        struct pollfd pfd[3] = {{s->out_fd, POLLIN, 0}, {s->err_fd, POLLIN, 0},
                                {writing ? s->in_fd : -1, POLLOUT, 0}};
        int ms = remaining_ms(deadline_ns);
        if (ms == 0)
            return SEAT_TIMEOUT;
        int rc = poll(pfd, 3, ms);
        if (rc < 0 && errno != EINTR)
            return SEAT_EOF;
        if (pfd[1].revents)
            drain_stderr(s);
        if (pfd[2].revents & POLLOUT)
            flush_some(s);
        else if (pfd[2].revents & (POLLERR | POLLHUP))
            s->out_off = s->out_len = 0;   /* nobody reads: drop the queue */
        if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        ssize_t n = read(s->out_fd, s->line + s->line_len, sizeof s->line - s->line_len);
        if (n == 0)
            return SEAT_EOF;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            return SEAT_EOF;
        }
        if (s->discarding) {
            char *nl = memchr(s->line + s->line_len, '\n', (size_t)n);
            if (!nl)
                continue;   /* still inside the overlong line: drop the bytes */
            size_t rest = (size_t)n - (size_t)(nl + 1 - (s->line + s->line_len));
            memmove(s->line, nl + 1, rest);
            s->line_len = rest;
            s->discarding = false;
            continue;
        }
        s->line_len += (size_t)n;
    }
}

seat_gone_reason seat_gone(seat *s, int wait_ms, int *status)
{
    uint64_t deadline = arb_now_ns() + (uint64_t)wait_ms * 1000000u;
    while (!s->reaped) {
        seat_cpu_ns(s);   /* last reading while it can still be read */
        int st;
        pid_t r = waitpid(s->pid, &st, WNOHANG);
        if (r == s->pid) {
            s->reaped = true;
            s->status = st;
            break;
        }
        if (r < 0 && errno != EINTR)
            break;
        uint64_t now = arb_now_ns();
        if (now >= deadline)
            break;
        if (s->pidfd >= 0) {
            /* readable once the process has exited: no polling delay */
            struct pollfd p = {s->pidfd, POLLIN, 0};
            int ms = (int)((deadline - now + 999999) / 1000000);
            if (poll(&p, 1, ms > 100 ? 100 : ms) < 0 && errno != EINTR)
                usleep(500);
        } else {
            usleep(500);
        }
    }
    if (!s->reaped)
        return SEAT_RUNNING;
    if (status)
        *status = s->status;
    if (WIFSIGNALED(s->status))
        return SEAT_CRASHED;
    /* bubblewrap exits with 128 + the signal that killed the bot. */
    if (s->bot_pid != s->pid && WIFEXITED(s->status) && WEXITSTATUS(s->status) > 128)
        return SEAT_CRASHED;
    return SEAT_EXITED;
}

/* Reap our children of `uid`: the orphans a bot left that were
 * re-parented to us (we are the subreaper). zombies_only: only those
 * already dead, without waiting — a live process of the same uid that is
 * our child may be the next process of the same bot, built ahead
 * (live.c), and is left alone. Else every one, waiting (they were killed). */
static void reap_uid_children(uid_t uid, bool zombies_only)
{
    DIR *d = opendir("/proc");
    pid_t self = getpid();
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = 0;
        const char *st = strstr(buf, "State:"), *pp = strstr(buf, "PPid:"), *u = strstr(buf, "Uid:");
        long long pid, ppid, puid;   /* "PPid:\t123\n", "Uid:\t1000\t1000..." */
        if (!pp || !u || arb_parse_ll(e->d_name, 1, INT_MAX, &pid) != 0 || sscanf(pp + 5, "%lld", &ppid) != 1
            || sscanf(u + 4, "%lld", &puid) != 1 || ppid != self || puid != (long long)uid)
            continue;
        if (!zombies_only)
            waitpid((pid_t)pid, NULL, 0);
        else if (st && strchr(st + 6, 'Z') && strchr(st + 6, 'Z') < strchr(st, '\n'))
            waitpid((pid_t)pid, NULL, WNOHANG);
    }
    if (d)
        closedir(d);
}

/* Kill every process of `uid`: a helper process that is that uid signals
 * everything it may signal (kill(-1)), which is exactly that uid's
 * processes. This reaches what a bot started in a session of its own,
 * where the group kill cannot. Then reap the orphans re-parented to us. */
static void kill_uid(uid_t uid)
{
    pid_t h = fork();
    if (h == 0) {
        if (setgid((gid_t)uid) == 0 && setuid(uid) == 0)
            kill(-1, SIGKILL);
        _exit(0);
    }
    if (h > 0)
        while (waitpid(h, NULL, 0) < 0 && errno == EINTR)
            ;
    reap_uid_children(uid, false);
}

int seat_stop(seat *s)
{
    if (!s)
        return -1;
    seat_cpu_ns(s);
    drain_stderr(s);
    /* Every process of the bot (its cgroup, else those a scan finds), and
     * the whole group: children a bot left behind go with it. (Inside
     * bubblewrap, killing it takes down the bot's pid namespace.) A
     * sandbox still held at its gate ran none of the bot's code: its
     * processes are bubblewrap's, in its session; the group kill takes
     * them, and a scan (which counts our children of the bot's uid as its
     * own) would take the bot's current process, with the same uid. */
    if (s->gate_fd >= 0) {
        kill(-s->pid, SIGKILL);
        if (s->bot_pid != s->pid)
            kill(s->bot_pid, SIGKILL);
    } else {
        kill_all(s);
    }
    int status = s->status;
    if (!s->reaped)
        while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
            ;
    /* Inside bubblewrap the bot is not in the group; if bubblewrap died
     * first the bot is re-parented to us: wait until it is gone (reaping
     * it if it is ours), bounded. */
    if (s->bot_pid != s->pid)
        for (int i = 0; i < 2000; i++) {
            pid_t r = waitpid(s->bot_pid, NULL, WNOHANG);
            if (r == s->bot_pid || (r < 0 && errno == ECHILD && kill(s->bot_pid, 0) != 0 && errno == ESRCH))
                break;
            usleep(500);
        }
    /* Reap the group's orphans (they are ours as the subreaper). */
    for (;;) {
        pid_t r = waitpid(-s->pid, NULL, 0);
        if (r < 0 && errno != EINTR)
            break;
    }
    /* Without a cgroup, what the bot started under its uid and left outside
     * its session is found by uid. With one, the group held every process
     * it ever started and the kill emptied it: the next process of the same
     * bot (same uid, started ahead: live.c) must not be touched. */
    /* A sandbox still held at its gate ran none of the bot's code: its
     * processes are bubblewrap's, in its session, and the group kill took
     * them. Never the uid-wide kill there: the bot's current process, with
     * the same uid, is playing. */
    if (s->uid && !s->cg && s->gate_fd < 0)
        kill_uid(s->uid);
    else if (s->uid && s->bot_pid == s->pid)
        reap_uid_children(s->uid, true);   /* bare: a child in a session of its own came to us */
    /* A gated sandbox never released: killed above before the gate is
     * closed (bubblewrap would take EOF for the go). */
    if (s->gate_fd >= 0)
        close(s->gate_fd);
    if (s->pidfd >= 0)
        close(s->pidfd);
    if (!s->cg)
        bcg_reap_known(&s->known);   /* killed orphans of its that are ours now */
    bcg_free(s->cg);
    close(s->in_fd);
    close(s->out_fd);
    close(s->err_fd);
    free(s->out);
    free(s->errbuf);
    free(s->workdir);
    free(s);
    return status;
}

/* Wait (bounded) for a bot that is expected to exit by itself, then stop. */
static int stop_after_exit(seat *s, int wait_ms)
{
    int status = -1;
    seat_gone(s, wait_ms, &status);
    /* The probe started nothing that could outlive it: no uid-wide kill,
     * which would reach bots of the same uid (another referee's, or the
     * next match's). */
    s->uid = 0;
    s->who.uid = 0;
    return seat_stop(s);
}

/* Probes done, per uid: every match of a process asks the same question. */
#define PROBE_CACHE 16
static struct {
    uid_t uid;
    const char *answer;
} probes[PROBE_CACHE];
static int nprobes;
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *probe_bwrap(uid_t uid);

const char *seat_probe_bwrap(uid_t uid)
{
    pthread_mutex_lock(&probe_lock);
    for (int i = 0; i < nprobes; i++)
        if (probes[i].uid == uid) {
            const char *a = probes[i].answer;
            pthread_mutex_unlock(&probe_lock);
            return a;
        }
    pthread_mutex_unlock(&probe_lock);
    /* Probed outside the lock (one short process start); two threads that
     * race probe twice and agree. Only a sandbox that worked is kept: a
     * failure may pass (a uid out of processes for a moment). */
    const char *a = probe_bwrap(uid);
    pthread_mutex_lock(&probe_lock);
    if (a && nprobes < PROBE_CACHE) {
        probes[nprobes].uid = uid;
        probes[nprobes++].answer = a;
    }
    pthread_mutex_unlock(&probe_lock);
    return a;
}

static const char *probe_bwrap(uid_t uid)
{
    static const char *const paths[] = {"/usr/bin/bwrap", "/usr/local/bin/bwrap"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (access(paths[i], X_OK) != 0)
            continue;
        char dir[] = "/tmp/arbiter-bwrap-probe-XXXXXX";
        if (!mkdtemp(dir))
            return NULL;
        char *argv[] = {"/bin/true", NULL};
        /* No cgroup for /bin/true (.memory = none). */
        seat_limits lim = {.uid = uid, .bwrap = paths[i], .allow_root = true, .memory = UINT64_MAX};
        int err;
        seat *s = seat_start(argv, dir, &lim, &err);
        int status = s ? stop_after_exit(s, 5000) : -1;
        rmdir(dir);
        if (s && WIFEXITED(status) && WEXITSTATUS(status) == 0)
            return paths[i];
    }
    return NULL;
}
