/* seat.c — bot processes: start in a sandbox, bounded line I/O with
 * deadlines and a non-blocking output queue, CPU time, stderr capture, and
 * a kill that takes everything the bot started (seat.h). */
#include "seat.h"
#include "cgroup.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <dirent.h>
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    char   line[ARB_MAX_LINE + 1];
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
};

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
enum { CHILD_UID = 1, CHILD_NETNS = 2, CHILD_BWRAP = 4, CHILD_CGROUP = 8, CHILD_FAILED = 0x80 };

static void set_limit(int resource, uint64_t value)
{
    struct rlimit rl = {(rlim_t)value, (rlim_t)value};
    setrlimit(resource, &rl);
}

/* bubblewrap's command line: no network, no IPC, own pid namespace with the
 * bot as its pid 1 (so --info-fd names the bot and its CPU clock is the
 * bot's), the whole system read-only, a private /tmp, what it must not see
 * hidden, the working directory writable. A program (or file argument) that
 * lives under /tmp is bound back read-only with its top directory there, so
 * a script finds the modules beside it. */
static int bwrap_argv(const char *bwrap, const char *workdir, char *const argv[], const char *const *hide,
                      const char *tmp_size, const char *wd_size, char tops[][300], char **out, int cap)
{
    /* /tmp and the working directory: tmpfs mounts of a capped size
     * (ARB_BOT_TMPFS, ARB_BOT_WORKDIR), so the total a bot writes is
     * bounded, not only each file (RLIMIT_FSIZE). */
    const char *pre[] = {
        bwrap, "--unshare-all", "--die-with-parent", "--as-pid-1",
        "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--size", tmp_size, "--tmpfs", "/tmp",
    };
    int n = 0, ntops = 0;
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        out[n++] = (char *)pre[i];
    for (int i = 0; argv[i] && ntops < 8; i++) {
        if (strncmp(argv[i], "/tmp/", 5) != 0 || access(argv[i], R_OK) != 0)
            continue;
        const char *slash = strchr(argv[i] + 5, '/');
        size_t len = slash ? (size_t)(slash - argv[i]) : strlen(argv[i]);
        if (len >= 300 || n >= cap - 16)
            return -1;
        memcpy(tops[ntops], argv[i], len);
        tops[ntops][len] = 0;
        bool seen = false;
        for (int t = 0; t < ntops; t++)
            seen |= strcmp(tops[t], tops[ntops]) == 0;
        if (seen)
            continue;
        out[n++] = "--ro-bind";
        out[n++] = tops[ntops];
        out[n++] = tops[ntops];
        ntops++;
    }
    for (int i = 0; hide[i] && i < SEAT_MAX_HIDE; i++) {
        struct stat st;
        if (n >= cap - 16 || stat(hide[i], &st) != 0)
            continue;
        out[n++] = S_ISDIR(st.st_mode) ? "--tmpfs" : "--ro-bind";
        if (!S_ISDIR(st.st_mode))
            out[n++] = "/dev/null";
        out[n++] = (char *)hide[i];
    }
    if (wd_size) {
        out[n++] = "--size";
        out[n++] = (char *)wd_size;
        out[n++] = "--tmpfs";
    } else {
        out[n++] = "--bind";
        out[n++] = (char *)workdir;
    }
    const char *post[] = {workdir, "--chdir", workdir, "--info-fd", "3", "--"};
    for (size_t i = 0; i < sizeof post / sizeof post[0]; i++)
        out[n++] = (char *)post[i];
    for (int i = 0; argv[i]; i++) {
        if (n >= cap - 1)
            return -1;
        out[n++] = argv[i];
    }
    out[n] = NULL;
    return n;
}

/* In the child, before exec: only async-signal-safe calls. fds: stdin,
 * stdout, stderr, the status pipe, bubblewrap's info pipe (or -1). */
static void child_exec(char *const argv[], const char *workdir, const seat_limits *lim, const bcg *cg, int fds[5],
                       pid_t parent)
{
    unsigned char flags = 0;
    /* Into the bot's cgroup first, while we are still who we were: all it
     * ever starts is born inside. */
    if (cg && bcg_join_self(cg) == 0)
        flags |= CHILD_CGROUP;
    if (cg)
        bcg_close_child(cg);
    /* A session of our own: a new process group for the group kill, and no
     * controlling terminal to inject keystrokes into. */
    setsid();
    if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0)
        _exit(126);
    int status_fd = fcntl(fds[3], F_DUPFD_CLOEXEC, 10);
    if (fds[4] >= 0 && dup2(fds[4], 3) < 0)
        _exit(126);
    int keep = fds[4] >= 0 ? 4 : 3;
    /* No inherited descriptors beyond 0, 1, 2 (and 3 for bubblewrap), except
     * the close-on-exec status pipe. */
    for (int fd = keep; fd < 1024; fd++)
        if (fd != status_fd)
            close(fd);
    /* Without bubblewrap, as root: /tmp and the working directory capped
     * tmpfs mounts in a mount namespace of the bot's own (before chdir, so
     * the bot is in them). Where the kernel refuses, they stay the host's. */
    if (!lim->bwrap && geteuid() == 0)
        (void)bcg_child_mounts(workdir, lim->workdir_size, lim->tmpfs, lim->uid, argv);
    if (chdir(workdir) != 0)
        _exit(126);
    if (geteuid() == 0 && unshare(CLONE_NEWNET) == 0)
        flags |= CHILD_NETNS;   /* no network even without bubblewrap */
    if (lim->uid) {
        gid_t gid = (gid_t)lim->uid;
        if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(lim->uid) != 0)
            _exit(126);
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
    char *const envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", home, "LANG=C.UTF-8", "ARBITER_BOT=1", NULL};
    char *bargv[256];
    static char tops[8][300];
    char tmp_size[24], wd_size[24];
    snprintf(tmp_size, sizeof tmp_size, "%" PRIu64, lim->tmpfs);
    snprintf(wd_size, sizeof wd_size, "%" PRIu64, lim->workdir_size);
    if (lim->bwrap) {
        if (bwrap_argv(lim->bwrap, workdir, argv, lim->hide, tmp_size,
                       lim->workdir_size == UINT64_MAX ? NULL : wd_size, tops, bargv, 256) < 0)
            _exit(126);
        flags |= CHILD_BWRAP;
    }
    (void)!write(status_fd, &flags, 1);
    execve(lim->bwrap ? lim->bwrap : argv[0], lim->bwrap ? bargv : argv, envp);
    flags = CHILD_FAILED;
    (void)!write(status_fd, &flags, 1);
    _exit(127);
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

seat *seat_start(char *const argv[], const char *workdir, const seat_limits *limits, int *err)
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
    *err = 0;
    if (!argv || !argv[0] || argv[0][0] != '/') {
        *err = ARB_EINVAL;   /* an absolute path: no PATH search, no shell */
        return NULL;
    }
    if (geteuid() == 0 && !lim.uid && !lim.allow_root) {
        *err = ARB_EINVAL;   /* never run an untrusted bot as root by accident */
        return NULL;
    }
    if (geteuid() != 0)
        lim.uid = 0;         /* only root can change uid; stay who we are */
    /* A bot that closes its stdin must not kill the referee. */
    signal(SIGPIPE, SIG_IGN);
    /* Orphans a bot leaves behind are re-parented to us, not to init, so
     * seat_stop can reap them: no zombies whatever the bot did. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    if (mkdir(workdir, 0700) != 0 && errno != EEXIST) {
        *err = ARB_EIO;
        return NULL;
    }
    if (lim.uid && chown(workdir, lim.uid, (gid_t)lim.uid) != 0) {
        *err = ARB_EIO;
        return NULL;
    }
    seat *s = calloc(1, sizeof *s);
    int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1}, st[2] = {-1, -1}, info[2] = {-1, -1};
    if (!s || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)
        || pipe2(st, O_CLOEXEC) || (lim.bwrap && pipe2(info, O_CLOEXEC)))
        goto fail;
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
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0) {
        int fds[5] = {in[0], out[1], errp[1], st[1], info[1]};
        child_exec(argv, workdir, &lim, s->cg, fds, parent);
    }
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
    s->pid = s->bot_pid = pid;
    s->in_fd = in[1];
    s->out_fd = out[0];
    s->err_fd = errp[0];
    in[1] = out[0] = errp[0] = -1;
    /* The status pipe: the child's flags, then EOF when execve succeeded
     * (close-on-exec); a second byte when it failed; EOF at once when the
     * child died before it could exec. */
    unsigned char flags = 0, fail_byte = 0;
    ssize_t n1, n2 = 0;
    while ((n1 = read(st[0], &flags, 1)) < 0 && errno == EINTR)
        ;
    if (n1 == 1)
        while ((n2 = read(st[0], &fail_byte, 1)) < 0 && errno == EINTR)
            ;
    close(st[0]);
    st[0] = -1;
    if (n1 != 1 || n2 != 0) {
        close(s->in_fd);
        close(s->out_fd);
        close(s->err_fd);
        close_pair(info);
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        bcg_free(s->cg);
        free(s->workdir);
        free(s->errbuf);
        free(s);
        *err = ARB_ENOTFOUND;
        return NULL;
    }
    if (flags & CHILD_BWRAP) {
        pid_t child = read_child_pid(info[0], 5000);
        close(info[0]);
        info[0] = -1;
        if (child > 0)
            s->bot_pid = child;
    }
    s->uid = (flags & CHILD_UID) ? lim.uid : 0;
    if (s->cg && !(flags & CHILD_CGROUP)) {
        bcg_free(s->cg);   /* the child could not join: the scan instead */
        s->cg = NULL;
    }
    s->who = (bcg_who){.main = s->bot_pid, .pid = s->pid, .sid = s->pid, .uid = s->uid};
    snprintf(s->sandbox, sizeof s->sandbox, "%s%s",
             (flags & CHILD_BWRAP) ? ((flags & CHILD_UID) ? "bwrap+uid" : "bwrap")
             : (flags & CHILD_UID) ? ((flags & CHILD_NETNS) ? "uid+netns" : "uid")
             : (flags & CHILD_NETNS) ? "netns" : "rlimits",
             bcg_kind_of(s->cg) == BCG_V2 ? "+cg2" : bcg_kind_of(s->cg) == BCG_V1 ? "+cg1" : "");
    fcntl(s->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->err_fd, F_SETFL, O_NONBLOCK);
    s->has_cpu_clock = clock_getcpuclockid(s->bot_pid, &s->cpu_clock) == 0;
    return s;
fail:
    *err = errno == ENOMEM ? ARB_ENOMEM : ARB_EIO;
    close_pair(in);
    close_pair(out);
    close_pair(errp);
    close_pair(st);
    close_pair(info);
    if (s) {
        bcg_free(s->cg);
        free(s->workdir);
        free(s->errbuf);
    }
    free(s);
    return NULL;
}

pid_t seat_pid(const seat *s) { return s->pid; }

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

/* A complete line in the buffer? Move it out. */
static bool take_line(seat *s, char *buf, size_t cap)
{
    char *nl = memchr(s->line, '\n', s->line_len);
    if (!nl)
        return false;
    size_t n = (size_t)(nl - s->line);
    size_t k = n > 0 && s->line[n - 1] == '\r' ? n - 1 : n;
    if (k >= cap)
        k = cap - 1;
    memcpy(buf, s->line, k);
    buf[k] = 0;
    memmove(s->line, nl + 1, s->line_len - n - 1);
    s->line_len -= n + 1;
    return true;
}

seat_read seat_recv(seat *s, char *buf, size_t cap, uint64_t deadline_ns)
{
    for (;;) {
        if (!s->discarding && take_line(s, buf, cap))
            return SEAT_LINE;
        if (s->line_len >= ARB_MAX_LINE) {
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
        ssize_t n = read(s->out_fd, s->line + s->line_len, ARB_MAX_LINE - s->line_len);
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
        if (arb_now_ns() >= deadline)
            break;
        usleep(2000);
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
    DIR *d = opendir("/proc");
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
        const char *pp = strstr(buf, "PPid:"), *u = strstr(buf, "Uid:");
        if (pp && u && atoi(pp + 5) == getpid() && (uid_t)atol(u + 4) == uid)
            waitpid((pid_t)atol(e->d_name), NULL, 0);
    }
    if (d)
        closedir(d);
}

int seat_stop(seat *s)
{
    if (!s)
        return -1;
    seat_cpu_ns(s);
    drain_stderr(s);
    /* Every process of the bot (its cgroup, else those a scan finds), and
     * the whole group: children a bot left behind go with it. (Inside
     * bubblewrap, killing it takes down the bot's pid namespace.) */
    kill_all(s);
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
    if (s->uid)
        kill_uid(s->uid);
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

const char *seat_probe_bwrap(uid_t uid)
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
