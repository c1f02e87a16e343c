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
 * TAG is a number (the test's pid), so runs never see each other's leftovers.
 * With --dabang first (sbx_collude --dabang send|recv TAG) the two sit at a
 * Da Bang table, as partners: the pair that gains most from a side channel. */
#include "arbiter_bot.h"
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
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

/* Files every sandbox sees read-only; the first three that exist. */
static const char *const candidates[] = {"/usr/bin/env", "/usr/bin/tail", "/usr/bin/head", "/usr/bin/sort",
                                         "/usr/bin/cut", "/usr/bin/tr", "/usr/bin/wc", "/usr/bin/id"};

enum { C_FLOCK, C_FCNTL, C_TMP, C_SHM, C_VARTMP, C_RUNLOCK, C_MSG, C_SYSVSHM, C_ABSTRACT, C_INOTIFY, C_KEYRING,
       C_PROC, C_REFEREE, C_CGROUP, C_PTS, C_COUNT };
static const char *const names[C_COUNT] = {"flock", "fcntl", "tmp", "devshm", "vartmp", "runlock", "msgq",
                                           "sysvshm", "abstract", "inotify", "keyring", "proc", "referee",
                                           "cgroup", "pts"};
static const char *const dirs[] = {"/tmp", "/dev/shm", "/var/tmp", "/run/lock"};

typedef struct colluder {
    bool sender;
    long tag;
    const char *files[3];
    bool set_up;
    int lock_fd[2], sock, inotify, pty;
    bool got[C_COUNT];
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

static void send_all(colluder *c)
{
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

static bool proc_has(const char *needle, const char *also)
{
    bool found = false;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
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
    char line[512];
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

static int choose_db(const abot_db_view *v, const abot_db_request *r, void *ctx)
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
    colluder c = {.sender = strcmp(argv[1], "send") == 0, .tag = atol(argv[2]), .lock_fd = {-1, -1}, .sock = -1,
                  .inotify = -1};
    int k = 0;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && k < 3; i++)
        if (access(candidates[i], R_OK) == 0)
            c.files[k++] = candidates[i];
    if (k < 3)
        return 2;
    setvbuf(stderr, NULL, _IOLBF, 0);
    if (dabang)
        return abot_db_run(c.sender ? "sender" : "receiver", choose_db, &c) == 0 ? 0 : 1;
    return abot_run(c.sender ? "sender" : "receiver", choose, &c) == 0 ? 0 : 1;
}
