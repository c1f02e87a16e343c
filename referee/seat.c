/* seat.c — bot processes: start, bounded line I/O with deadlines, CPU time,
 * stderr capture, and a kill that takes the whole process group (seat.h). */
#include "seat.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
    pid_t  pid;
    int    in_fd;        /* the bot's stdin (we write) */
    int    out_fd;       /* the bot's stdout (we read) */
    int    err_fd;       /* the bot's stderr (we read) */
    bool   exited;
    int    status;
    clockid_t cpu_clock;
    bool   has_cpu_clock;
    uint64_t last_cpu;
    char   line[ARB_MAX_LINE + 1];
    size_t line_len;     /* bytes buffered from stdout */
    bool   discarding;   /* skipping the rest of an overlong line */
    char  *errbuf;
    size_t errlen, errcap;
};

#define DEFAULT_AS (1ull << 30)
#define DEFAULT_CPU 600
#define DEFAULT_NPROC 64
#define DEFAULT_FSIZE (16ull << 20)
#define DEFAULT_NOFILE 64
#define DEFAULT_STDERR (64u << 10)

static void set_limit(int resource, uint64_t value)
{
    struct rlimit rl = {(rlim_t)value, (rlim_t)value};
    setrlimit(resource, &rl);
}

/* In the child, before exec: only async-signal-safe calls. */
static void child_exec(char *const argv[], const char *workdir, const seat_limits *lim, int fds[3])
{
    setpgid(0, 0);
    if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0)
        _exit(126);
    /* No inherited descriptors beyond 0, 1, 2. */
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
    {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            close((int)fd);
    }
    if (chdir(workdir) != 0)
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
    execve(argv[0], argv, envp);
    _exit(127);
}

seat *seat_start(char *const argv[], const char *workdir, const seat_limits *limits, int *err)
{
    seat_limits lim = limits ? *limits : (seat_limits){0};
    if (!lim.address_space) lim.address_space = DEFAULT_AS;
    if (!lim.cpu_seconds) lim.cpu_seconds = DEFAULT_CPU;
    if (!lim.processes) lim.processes = DEFAULT_NPROC;
    if (!lim.file_size) lim.file_size = DEFAULT_FSIZE;
    if (!lim.open_files) lim.open_files = DEFAULT_NOFILE;
    if (!lim.stderr_cap) lim.stderr_cap = DEFAULT_STDERR;
    *err = 0;
    if (!argv || !argv[0] || argv[0][0] != '/') {
        *err = ARB_EINVAL;   /* an absolute path: no PATH search, no shell */
        return NULL;
    }
    /* A bot that closes its stdin must not kill the referee. */
    signal(SIGPIPE, SIG_IGN);
    /* Orphans a bot leaves behind are re-parented to us, not to init, so
     * seat_stop can reap them: no zombies whatever the bot did. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    if (mkdir(workdir, 0700) != 0 && errno != EEXIST) {
        *err = ARB_EIO;
        return NULL;
    }
    seat *s = calloc(1, sizeof *s);
    int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1};
    if (!s || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
        goto fail;
    s->errcap = lim.stderr_cap;
    s->errbuf = malloc(s->errcap + 1);
    if (!s->errbuf)
        goto fail;
    s->errbuf[0] = 0;
    pid_t pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0) {
        int fds[3] = {in[0], out[1], errp[1]};
        child_exec(argv, workdir, &lim, fds);
    }
    setpgid(pid, pid);   /* also in the parent: no window before kill works */
    close(in[0]);
    close(out[1]);
    close(errp[1]);
    s->pid = pid;
    s->in_fd = in[1];
    s->out_fd = out[0];
    s->err_fd = errp[0];
    fcntl(s->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(s->err_fd, F_SETFL, O_NONBLOCK);
    s->has_cpu_clock = clock_getcpuclockid(pid, &s->cpu_clock) == 0;
    return s;
fail:
    *err = errno == ENOMEM ? ARB_ENOMEM : ARB_EIO;
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0) close(in[i]);
        if (out[i] >= 0) close(out[i]);
        if (errp[i] >= 0) close(errp[i]);
    }
    if (s)
        free(s->errbuf);
    free(s);
    return NULL;
}

pid_t seat_pid(const seat *s) { return s->pid; }

/* Read whatever stderr holds, keeping at most errcap bytes. */
static void drain_stderr(seat *s)
{
    char tmp[4096];
    for (;;) {
        ssize_t n = read(s->err_fd, tmp, sizeof tmp);
        if (n <= 0)
            return;
        size_t room = s->errcap - s->errlen;
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

uint64_t seat_cpu_ns(seat *s)
{
    struct timespec ts;
    if (s->has_cpu_clock && !s->exited && clock_gettime(s->cpu_clock, &ts) == 0)
        s->last_cpu = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return s->last_cpu;
}

static int remaining_ms(uint64_t deadline_ns)
{
    uint64_t now = arb_now_ns();
    if (now >= deadline_ns)
        return 0;
    uint64_t ms = (deadline_ns - now + 999999) / 1000000;
    return ms > 1000000 ? 1000000 : (int)ms;
}

int seat_send(seat *s, const char *line, uint64_t deadline_ns)
{
    size_t len = strlen(line);
    const char *parts[2] = {line, "\n"};
    size_t lens[2] = {len, 1};
    for (int p = 0; p < 2; p++) {
        size_t off = 0;
        while (off < lens[p]) {
            ssize_t n = write(s->in_fd, parts[p] + off, lens[p] - off);
            if (n > 0) {
                off += (size_t)n;
                continue;
            }
            if (n < 0 && errno != EAGAIN && errno != EINTR)
                return ARB_EIO;
            struct pollfd pfd = {s->in_fd, POLLOUT, 0};
            int ms = remaining_ms(deadline_ns);
            if (ms == 0)
                return ARB_ETIMEOUT;
            if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
                return ARB_EIO;
            if (pfd.revents & (POLLERR | POLLHUP))
                return ARB_EIO;
        }
    }
    return 0;
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
        struct pollfd pfd[2] = {{s->out_fd, POLLIN, 0}, {s->err_fd, POLLIN, 0}};
        int ms = remaining_ms(deadline_ns);
        if (ms == 0)
            return SEAT_TIMEOUT;
        int rc = poll(pfd, 2, ms);
        if (rc < 0 && errno != EINTR)
            return SEAT_EOF;
        if (pfd[1].revents)
            drain_stderr(s);
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

int seat_stop(seat *s)
{
    if (!s)
        return -1;
    seat_cpu_ns(s);
    drain_stderr(s);
    /* The whole group: children a bot left behind go with it. */
    kill(-s->pid, SIGKILL);
    int status = -1;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
        ;
    /* Reap the group's orphans (they are ours as the subreaper). */
    for (;;) {
        pid_t r = waitpid(-s->pid, NULL, 0);
        if (r < 0 && errno != EINTR)
            break;
    }
    close(s->in_fd);
    close(s->out_fd);
    close(s->err_fd);
    free(s->errbuf);
    free(s);
    return status;
}
