/* cgroup.c — a bot's processes as one: its own control group (v2, else v1),
 * or a scan of /proc where there is none (cgroup.h). */
#include "cgroup.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_limits.h"

#include <limits.h>
#include <dirent.h>
#include <errno.h>
#include <linux/magic.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define BCG_PATH 512
/* v1 controllers a bot's group needs: memory (cap), pids (cap), freezer
 * (stop it between turns), cpuacct (its CPU). */
enum { R_MEM, R_PIDS, R_FRZ, R_CPU, R_COUNT };
static const char *const v1_names[R_COUNT] = {"memory", "pids", "freezer", "cpuacct"};

struct bcg {
    bcg_kind kind;
    int  ndirs;                      /* distinct group directories (v2: 1) */
    char dir[R_COUNT][BCG_PATH];     /* the bot's group, per distinct hierarchy */
    char parent[R_COUNT][BCG_PATH];  /* arbiter/<pid> above it, removed when empty */
    char top[R_COUNT][BCG_PATH];     /* arbiter above that, likewise */
    int  join_fd[R_COUNT];           /* cgroup.procs of each, written by the child */
    int  cpu_fd;                     /* cpuacct.usage (v1) or cpu.stat (v2) */
    int  oom_fd;                     /* memory.oom_control (v1) or memory.events (v2) */
    int  mem_fd;                     /* memory.usage_in_bytes (v1) or memory.current (v2) */
    int  freeze_fd;                  /* freezer.state (v1) or cgroup.freeze (v2) */
    char procs[BCG_PATH + 32];       /* cgroup.procs to list members (kill) */
    char kill_path[BCG_PATH + 32];   /* v2 cgroup.kill, "" when absent */
    bool stopped;                    /* bcg_stop(g, true) in force */
};

/* Write a string to a file: 0 or -errno. */
static int put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = write(fd, text, strlen(text));
    int e = n < 0 ? -errno : 0;
    close(fd);
    return e;
}

static int putf(const char *dir, const char *file, const char *text)
{
    char path[BCG_PATH + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return put(path, text);
}

static int open_in(const char *dir, const char *file, int flags)
{
    char path[BCG_PATH + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return open(path, flags | O_CLOEXEC);
}

/* Read a whole small file (at most cap-1 bytes) into buf; its length or -1. */
static ssize_t slurp(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t len = 0;
    ssize_t n;
    while (len < cap - 1 && (n = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)n;
    close(fd);
    buf[len] = 0;
    return (ssize_t)len;
}

/* Re-read an open cgroup file from its start. */
static ssize_t reread(int fd, char *buf, size_t cap)
{
    if (fd < 0)
        return -1;
    ssize_t n = pread(fd, buf, cap - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    return n;
}

/* The value after "key " on a line of a flat keyed file (cpu.stat,
 * memory.events, memory.oom_control). */
static uint64_t keyed(const char *text, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, key, k) == 0 && p[k] == ' ')
            return strtoull(p + k + 1, NULL, 10);
    return 0;
}

/* Is `word` one of the comma-separated items of list[0..len)? */
static bool in_list(const char *list, size_t len, const char *word)
{
    size_t w = strlen(word);
    const char *end = list + len;
    for (const char *p = list; p < end;) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        size_t n = c ? (size_t)(c - p) : (size_t)(end - p);
        if (n == w && memcmp(p, word, w) == 0)
            return true;
        p += n + 1;
    }
    return false;
}

/* Our own group in the v1 hierarchy that holds `ctl` (from
 * /proc/self/cgroup: "N:ctl,ctl:/path"), or in v2 when ctl is NULL. */
static int own_path(const char *ctl, char *out, size_t cap)
{
    char buf[4096];
    if (slurp("/proc/self/cgroup", buf, sizeof buf) <= 0)
        return -1;
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c1 && c2) {
            bool match = ctl ? in_list(c1 + 1, (size_t)(c2 - c1 - 1), ctl) : (c2 == c1 + 1 && line[0] == '0');
            if (match && strlen(c2 + 1) < cap) {
                snprintf(out, cap, "%s", c2 + 1);
                return 0;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    return -1;
}

/* Where the v1 hierarchy holding `ctl` is mounted, and the group inside
 * it that the mount shows as its root (a container sees a subtree). */
static int v1_mount(const char *ctl, char *mnt, char *root, size_t cap)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    char line[4096];
    int rc = -1;
    while (rc != 0 && fgets(line, sizeof line, f)) {
        char *dash = strstr(line, " - ");
        if (!dash)
            continue;
        char fstype[64], src[256], opts[1024], r[BCG_PATH], m[BCG_PATH];
        if (sscanf(dash + 3, "%63s %255s %1023s", fstype, src, opts) != 3 || strcmp(fstype, "cgroup") != 0)
            continue;
        if (!in_list(opts, strlen(opts), ctl))
            continue;
        if (sscanf(line, "%*s %*s %*s %511s %511s", r, m) != 2 || strlen(r) >= cap || strlen(m) >= cap)
            continue;
        snprintf(mnt, cap, "%s", m);
        snprintf(root, cap, "%s", r);
        rc = 0;
    }
    fclose(f);
    return rc;
}

/* mnt + own path seen from the mount's root. */
static int join_path(char *out, size_t cap, const char *mnt, const char *root, const char *own)
{
    size_t rl = strlen(root);
    if (strcmp(root, "/") != 0 && strncmp(own, root, rl) == 0)
        own += rl;
    if (strcmp(own, "/") == 0)
        own = "";
    int n = snprintf(out, cap, "%s%s", mnt, own);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static bcg *alloc_bcg(void)
{
    bcg *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    for (int i = 0; i < R_COUNT; i++)
        g->join_fd[i] = -1;
    g->cpu_fd = g->oom_fd = g->mem_fd = g->freeze_fd = -1;
    return g;
}

/* Send sig to every pid listed in a cgroup.procs file; how many there were. */
static int signal_listed(const char *procs, int sig)
{
    char buf[16384];
    if (slurp(procs, buf, sizeof buf) <= 0)
        return 0;
    int n = 0;
    for (char *p = buf; *p;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        if (pid > 0) {
            kill((pid_t)pid, sig);
            n++;
        }
        p = end;
        while (*p == '\n')
            p++;
    }
    return n;
}

/* Remove what referees that are gone (killed, so their own cleanup never
 * ran) left in arbiter/: empty groups, since their bots died with them. A
 * pid that is alive is left alone, whoever it is now. */
static void sweep_dead(const char *top)
{
    DIR *d = opendir(top);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        long long pid;
        if (arb_parse_ll(e->d_name, 1, INT_MAX, &pid) != 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char dir[BCG_PATH + 32], sub[BCG_PATH + 300], file[BCG_PATH + 340];
        snprintf(dir, sizeof dir, "%s/%s", top, e->d_name);
        DIR *b = opendir(dir);
        for (struct dirent *f; b && (f = readdir(b));) {
            if (f->d_name[0] != 'b' || f->d_type != DT_DIR)
                continue;
            /* Its bots should have died with it; kill what did not (a
             * process frozen by an older referee, a bare bot's orphan). */
            snprintf(sub, sizeof sub, "%s/%s", dir, f->d_name);
            snprintf(file, sizeof file, "%s/cgroup.procs", sub);
            signal_listed(file, SIGKILL);
            snprintf(file, sizeof file, "%s/freezer.state", sub);
            put(file, "THAWED");
            snprintf(file, sizeof file, "%s/cgroup.freeze", sub);
            put(file, "0");
            for (int t = 0; t < 100 && rmdir(sub) != 0 && errno == EBUSY; t++) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
        }
        if (b)
            closedir(b);
        rmdir(dir);
    }
    if (d)
        closedir(d);
}

/* Make base/arbiter/<pid>/b<N> for the first free N (mkdir is the claim):
 * the same N in every hierarchy. Fills dir/parent/top. */
static int make_dirs(bcg *g, char base[][BCG_PATH], int nbase, const char *v2_controllers)
{
    char num[32];
    snprintf(num, sizeof num, "%ld", (long)getpid());
    for (int i = 0; i < nbase; i++) {
        int n1 = snprintf(g->top[i], BCG_PATH, "%s/arbiter", base[i]);
        int n2 = snprintf(g->parent[i], BCG_PATH, "%s/%s", g->top[i], num);
        if (n1 >= BCG_PATH || n2 >= BCG_PATH - 16)
            return -1;
    }
    /* Another thread's (or referee's) bcg_free may remove arbiter/<pid> or
     * arbiter/ between our mkdirs when its last bot ends: start over then. */
    for (int attempt = 0; attempt < 8; attempt++) {
        for (int i = 0; i < nbase; i++) {
            if (mkdir(g->top[i], 0755) != 0 && errno == EEXIST)
                sweep_dead(g->top[i]);
            if ((mkdir(g->top[i], 0755) != 0 && errno != EEXIST)
                || (v2_controllers && putf(g->top[i], "cgroup.subtree_control", v2_controllers) != 0)
                || (mkdir(g->parent[i], 0755) != 0 && errno != EEXIST)
                || (v2_controllers && putf(g->parent[i], "cgroup.subtree_control", v2_controllers) != 0))
                break;
        }
        for (int n = 0; n < 4096; n++) {
            int made = 0;
            for (; made < nbase; made++) {
                int w = snprintf(g->dir[made], BCG_PATH, "%s/b%d", g->parent[made], n);
                if (w < 0 || w >= BCG_PATH) {   /* parent is checked above: not reached */
                    for (int i = 0; i < made; i++)
                        rmdir(g->dir[i]);
                    return -1;
                }
                if (mkdir(g->dir[made], 0755) != 0)
                    break;
            }
            if (made == nbase) {
                g->ndirs = nbase;
                return 0;
            }
            int e = errno;
            for (int i = 0; i < made; i++)
                rmdir(g->dir[i]);
            if (e == ENOENT)
                break;      /* a parent went away: make it again */
            if (e != EEXIST)
                return -1;
        }
    }
    return -1;
}

static bcg *new_v2(uint64_t memory, uint64_t pids, const char **why)
{
    char own[BCG_PATH], base[1][BCG_PATH], ctl[256];
    if (own_path(NULL, own, sizeof own) != 0 || join_path(base[0], BCG_PATH, "/sys/fs/cgroup", "/", own) != 0) {
        *why = "cgroup v2: our own group is not in /proc/self/cgroup";
        return NULL;
    }
    char path[BCG_PATH + 64];
    snprintf(path, sizeof path, "%s/cgroup.controllers", base[0]);
    if (slurp(path, ctl, sizeof ctl) < 0 || !strstr(ctl, "memory") || !strstr(ctl, "pids")) {
        *why = "cgroup v2: the memory and pids controllers are not available to our group";
        return NULL;
    }
    /* Our group must hand memory and pids down; it cannot while it holds
     * processes itself unless it is the root (the "no internal processes"
     * rule): such a referee needs a delegated subtree (docs/security.md). */
    if (putf(base[0], "cgroup.subtree_control", "+memory +pids") != 0) {
        *why = "cgroup v2: cannot enable memory and pids below our group (not delegated, or it holds processes)";
        return NULL;
    }
    bcg *g = alloc_bcg();
    if (!g) {
        *why = "out of memory";
        return NULL;
    }
    g->kind = BCG_V2;
    if (make_dirs(g, base, 1, "+memory +pids") != 0) {
        *why = "cgroup v2: cannot create arbiter/<pid>/b<N> (not writable)";
        goto fail;
    }
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, memory);
    if (putf(g->dir[0], "memory.max", num) != 0) {
        *why = "cgroup v2: memory.max refused";
        goto fail;
    }
    putf(g->dir[0], "memory.swap.max", "0");     /* absent without swap accounting: fine */
    putf(g->dir[0], "memory.oom.group", "1");    /* an OOM kill takes the whole bot */
    snprintf(num, sizeof num, "%" PRIu64, pids);
    if (putf(g->dir[0], "pids.max", num) != 0) {
        *why = "cgroup v2: pids.max refused";
        goto fail;
    }
    g->join_fd[0] = open_in(g->dir[0], "cgroup.procs", O_WRONLY);
    g->cpu_fd = open_in(g->dir[0], "cpu.stat", O_RDONLY);
    g->oom_fd = open_in(g->dir[0], "memory.events", O_RDONLY);
    g->mem_fd = open_in(g->dir[0], "memory.current", O_RDONLY);
    g->freeze_fd = open_in(g->dir[0], "cgroup.freeze", O_WRONLY);
    if (g->join_fd[0] < 0 || g->cpu_fd < 0 || g->oom_fd < 0 || g->mem_fd < 0 || g->freeze_fd < 0) {
        *why = "cgroup v2: a control file of the bot's group cannot be opened (kernel older than 5.2?)";
        goto fail;
    }
    snprintf(g->procs, sizeof g->procs, "%s/cgroup.procs", g->dir[0]);
    snprintf(g->kill_path, sizeof g->kill_path, "%s/cgroup.kill", g->dir[0]);
    if (access(g->kill_path, W_OK) != 0)
        g->kill_path[0] = 0;
    return g;
fail:
    bcg_free(g);
    return NULL;
}

static bcg *new_v1(uint64_t memory, uint64_t pids, const char **why)
{
    char base[R_COUNT][BCG_PATH];
    int role_dir[R_COUNT], nbase = 0;
    for (int r = 0; r < R_COUNT; r++) {
        char mnt[BCG_PATH], root[BCG_PATH], own[BCG_PATH], full[BCG_PATH];
        if (v1_mount(v1_names[r], mnt, root, sizeof mnt) != 0 || own_path(v1_names[r], own, sizeof own) != 0
            || join_path(full, sizeof full, mnt, root, own) != 0) {
            *why = "no cgroup v2 with memory and pids, and a cgroup v1 controller (memory, pids, freezer, cpuacct) "
                   "is not mounted";
            return NULL;
        }
        role_dir[r] = -1;
        for (int i = 0; i < nbase; i++)
            if (strcmp(base[i], full) == 0)
                role_dir[r] = i;   /* co-mounted with an earlier controller */
        if (role_dir[r] < 0) {
            snprintf(base[nbase], BCG_PATH, "%s", full);
            role_dir[r] = nbase++;
        }
    }
    bcg *g = alloc_bcg();
    if (!g) {
        *why = "out of memory";
        return NULL;
    }
    g->kind = BCG_V1;
    if (make_dirs(g, base, nbase, NULL) != 0) {
        *why = "cgroup v1: cannot create arbiter/<pid>/b<N> (not writable: not root?)";
        goto fail;
    }
    const char *mem = g->dir[role_dir[R_MEM]];
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, memory);
    if (putf(mem, "memory.limit_in_bytes", num) != 0) {
        *why = "cgroup v1: memory.limit_in_bytes refused";
        goto fail;
    }
    putf(mem, "memory.memsw.limit_in_bytes", num);   /* no swap either, where swap is accounted */
    snprintf(num, sizeof num, "%" PRIu64, pids);
    if (putf(g->dir[role_dir[R_PIDS]], "pids.max", num) != 0) {
        *why = "cgroup v1: pids.max refused";
        goto fail;
    }
    for (int i = 0; i < nbase; i++)
        /* The child joins by writing "0" to `tasks`: it is one thread then
         * (just forked), so this moves the whole process, and a single
         * thread moving itself is spared the kernel's global threadgroup
         * lock, which cgroup.procs takes: its first writer after a quiet
         * spell waits out an RCU grace period (6 to 24 ms here, measured:
         * the first start of every match paid it). */
        g->join_fd[i] = open_in(g->dir[i], "tasks", O_WRONLY);
    g->cpu_fd = open_in(g->dir[role_dir[R_CPU]], "cpuacct.usage", O_RDONLY);
    g->oom_fd = open_in(mem, "memory.oom_control", O_RDONLY);
    g->mem_fd = open_in(mem, "memory.usage_in_bytes", O_RDONLY);
    g->freeze_fd = open_in(g->dir[role_dir[R_FRZ]], "freezer.state", O_WRONLY);
    snprintf(g->procs, sizeof g->procs, "%s/cgroup.procs", g->dir[role_dir[R_FRZ]]);
    for (int i = 0; i < nbase; i++)
        if (g->join_fd[i] < 0)
            goto open_fail;
    if (g->cpu_fd < 0 || g->oom_fd < 0 || g->mem_fd < 0 || g->freeze_fd < 0)
        goto open_fail;
    return g;
open_fail:
    *why = "cgroup v1: a control file of the bot's group cannot be opened";
fail:
    bcg_free(g);
    return NULL;
}

bcg *bcg_new(uint64_t memory, uint64_t pids, const char **why)
{
    const char *unused;
    if (!why)
        why = &unused;   /* the caller does not want the reason */
    const char *off = getenv("ARBITER_NO_CGROUP");
    if (off && *off && strcmp(off, "0") != 0) {
        *why = "ARBITER_NO_CGROUP is set";
        return NULL;
    }
    struct statfs sf;
    if (statfs("/sys/fs/cgroup", &sf) == 0 && (unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC)
        return new_v2(memory, pids, why);
    return new_v1(memory, pids, why);
}

int bcg_join_self(const bcg *g)
{
    for (int i = 0; i < g->ndirs; i++)
        if (g->join_fd[i] < 0 || write(g->join_fd[i], "0", 1) != 1)
            return -1;
    return 0;
}

void bcg_close_child(const bcg *g)
{
    for (int i = 0; i < g->ndirs; i++)
        if (g->join_fd[i] >= 0)
            close(g->join_fd[i]);
    close(g->cpu_fd);
    close(g->oom_fd);
    close(g->mem_fd);
    close(g->freeze_fd);
}

bcg_kind bcg_kind_of(const bcg *g) { return g ? g->kind : BCG_NONE; }

uint64_t bcg_cpu_ns(bcg *g)
{
    char buf[1024];
    if (reread(g->cpu_fd, buf, sizeof buf) <= 0)
        return 0;
    if (g->kind == BCG_V1)
        return strtoull(buf, NULL, 10);
    return keyed(buf, "usage_usec") * 1000u;
}

uint64_t bcg_oom_kills(bcg *g)
{
    char buf[1024];
    if (reread(g->oom_fd, buf, sizeof buf) <= 0)
        return 0;
    return keyed(buf, "oom_kill");
}

uint64_t bcg_memory(bcg *g)
{
    char buf[64];
    if (reread(g->mem_fd, buf, sizeof buf) <= 0)
        return 0;
    return strtoull(buf, NULL, 10);
}

/* The kernel's freezer on the group (true) or off. */
static void set_frozen(bcg *g, bool frozen)
{
    const char *v = g->kind == BCG_V1 ? (frozen ? "FROZEN" : "THAWED") : (frozen ? "1" : "0");
    (void)!pwrite(g->freeze_fd, v, strlen(v), 0);
}

void bcg_stop(bcg *g, bool stopped)
{
    if (g->stopped == stopped)
        return;
    /* Stopping: frozen for the moment the list is read and signalled, so
     * nothing forks past it; the SIGSTOP is taken when the tasks thaw,
     * before they run another instruction. The tasks are left stopped by
     * a signal, not frozen: a frozen task ignores SIGKILL until thawed, so
     * a referee that died (even by SIGKILL) would leave them frozen for
     * ever, while a stopped one still dies of the death signal it gets. */
    if (stopped) {
        set_frozen(g, true);
        signal_listed(g->procs, SIGSTOP);
        set_frozen(g, false);
    } else {
        signal_listed(g->procs, SIGCONT);
    }
    g->stopped = stopped;
}

void bcg_kill(bcg *g)
{
    if (!g)
        return;
    /* Frozen, nothing forks while the list is read; a SIGKILL waits on a
     * frozen task (v1), so thaw after sending it: the tasks die without
     * running another instruction of theirs. v2 has cgroup.kill. */
    for (int i = 0; i < 2000; i++) {
        int n;
        if (g->kill_path[0] && put(g->kill_path, "1") == 0) {
            char buf[64];
            n = slurp(g->procs, buf, sizeof buf) > 0 ? 1 : 0;
        } else {
            set_frozen(g, true);
            n = signal_listed(g->procs, SIGKILL);
            set_frozen(g, false);
        }
        if (n == 0)
            return;
        struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
}

void bcg_free(bcg *g)
{
    if (!g)
        return;
    if (g->ndirs)
        bcg_kill(g);
    for (int i = 0; i < R_COUNT; i++)
        close_fd(&g->join_fd[i]);
    close_fd(&g->cpu_fd);
    close_fd(&g->oom_fd);
    close_fd(&g->mem_fd);
    close_fd(&g->freeze_fd);
    for (int i = 0; i < g->ndirs; i++) {
        /* An exiting task may hold the group a moment longer: retry. */
        for (int t = 0; t < 200 && rmdir(g->dir[i]) != 0 && errno == EBUSY; t++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        rmdir(g->parent[i]);   /* fails while another bot of ours runs: fine */
        rmdir(g->top[i]);      /* fails while another referee's bots run: fine */
    }
    free(g);
}

/* ---- Without a cgroup ------------------------------------------------- */

typedef struct proc_row {
    pid_t pid, ppid, sid;
    uint64_t own_ticks, child_ticks, rss_pages, start;
} proc_row;

/* The real uid of a process (/proc/PID/status: its files' owner follows
 * "dumpable", which a process may clear to look like root). */
static bool real_uid(const char *pid, uid_t *uid)
{
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    if (slurp(path, buf, sizeof buf) <= 0)
        return false;
    const char *u = strstr(buf, "\nUid:");
    if (!u)
        return false;
    *uid = (uid_t)strtoul(u + 5, NULL, 10);
    return true;
}

static bool read_stat(const char *pid, proc_row *r)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    if (slurp(path, buf, sizeof buf) <= 0)
        return false;
    const char *p = strrchr(buf, ')');   /* the command name may hold anything */
    if (!p)
        return false;
    unsigned long long f[8];
    /* fields from 4 (ppid) to 24 (rss); state is field 3, starttime 22 */
    int n = sscanf(p + 2, "%*c %llu %*u %llu %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu %*d %*d %*d %*d %llu %*u %llu",
                   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[7], &f[6]);
    if (n != 8)
        return false;
    r->start = f[7];
    long long id;
    if (arb_parse_ll(pid, 1, INT_MAX, &id) != 0)
        return false;
    r->pid = (pid_t)id;
    r->ppid = (pid_t)f[0];
    r->sid = (pid_t)f[1];
    r->own_ticks = f[2] + f[3];
    r->child_ticks = f[4] + f[5];
    r->rss_pages = f[6];
    return true;
}

/* Append the children of every thread of `pid` (/proc/PID/task/T/children)
 * to list[*n..cap). false when the kernel has no children files. */
static bool children_of(pid_t pid, pid_t *list, size_t *n, size_t cap)
{
    char path[320], buf[8192];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    if (!d)
        return true;   /* gone meanwhile */
    bool have = true;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%ld/task/%s/children", (long)pid, e->d_name);
        if (slurp(path, buf, sizeof buf) < 0) {
            have = errno != ENOENT;
            continue;
        }
        for (char *p = buf, *end; *p && *n < cap; p = end) {
            long c = strtol(p, &end, 10);
            if (end == p)
                break;
            if (c > 0)
                list[(*n)++] = (pid_t)c;
        }
    }
    closedir(d);
    return have;
}

static bool seen_in(const pid_t *list, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == pid)
            return true;
    return false;
}

/* Every process of the bot, found by walking down from it: the process
 * started and its descendants (children files), plus our own children
 * that are its orphans (in its session, or of its uid) and theirs. The
 * cost is a few reads per process of the bot, whatever else the host
 * runs. */
/* Remember pid as the bot's (the oldest entry gives way when full). */
static void remember(bcg_known *k, pid_t pid, uint64_t start)
{
    for (int i = 0; i < k->n; i++)
        if (k->pid[i] == pid && k->start[i] == start)
            return;
    if (k->n == ARB_BOT_KNOWN_PROCS) {
        memmove(k->pid, k->pid + 1, (ARB_BOT_KNOWN_PROCS - 1) * sizeof k->pid[0]);
        memmove(k->start, k->start + 1, (ARB_BOT_KNOWN_PROCS - 1) * sizeof k->start[0]);
        k->n--;
    }
    k->pid[k->n] = pid;
    k->start[k->n] = start;
    k->n++;
}

static bool known_as(const bcg_known *k, pid_t pid, uint64_t start)
{
    for (int i = 0; k && i < k->n; i++)
        if (k->pid[i] == pid && k->start[i] == start)
            return true;
    return false;
}

int bcg_scan(const bcg_who *who, bcg_known *known, int sig, bcg_usage *u)
{
    memset(u, 0, sizeof *u);
    size_t cap = ARB_BOT_SCAN_MAX, nq = 0, nseen = 0;
    pid_t *queue = malloc(cap * sizeof *queue), *seen = malloc(cap * sizeof *seen);
    int rc = 0;
    if (!queue || !seen) {
        rc = ARB_ENOMEM;
        goto out;
    }
    pid_t self = getpid();
    if (who->pid > 0)
        queue[nq++] = who->pid;
    if (who->main > 0 && who->main != who->pid)
        queue[nq++] = who->main;
    /* Processes seen as the bot's before (a child whose parent exited is
     * no longer below the bot), checked by start time below. */
    size_t remembered = nq;
    for (int i = 0; known && i < known->n && nq < cap; i++)
        queue[nq++] = known->pid[i];
    size_t remembered_end = nq;
    /* Our children: the seats' processes and the orphans bots left. */
    size_t orphans = nq;
    if (!children_of(self, queue, &nq, cap)) {
        rc = ARB_EIO;   /* no /proc/PID/task/T/children (CONFIG_PROC_CHILDREN) */
        goto out;
    }
    size_t orphans_end = nq;
    long tick = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
    uint64_t ns_per_tick = tick > 0 ? 1000000000u / (uint64_t)tick : 10000000u;
    for (size_t i = 0; i < nq; i++) {
        pid_t pid = queue[i];
        if (pid == self || seen_in(seen, nseen, pid))
            continue;
        char name[24];
        snprintf(name, sizeof name, "%ld", (long)pid);
        proc_row r;
        if (!read_stat(name, &r))
            continue;   /* gone meanwhile */
        if (i >= remembered && i < remembered_end && !known_as(known, pid, r.start))
            continue;   /* that pid is someone else's now */
        if (i >= orphans && i < orphans_end && pid != who->pid && pid != who->main && !known_as(known, pid, r.start)) {
            /* One of our children: the bot's only if in its session or of
             * its own uid (another seat's process is neither). */
            uid_t uid;
            bool mine = (who->sid > 0 && r.sid == who->sid)
                        || (who->uid && real_uid(name, &uid) && uid == who->uid);
            if (!mine)
                continue;
        }
        if (nseen == cap) {
            rc = ARB_ENOMEM;
            break;
        }
        seen[nseen++] = pid;
        if (known)
            remember(known, pid, r.start);
        u->procs++;
        u->cpu_ns += (r.own_ticks + r.child_ticks) * ns_per_tick;
        if (pid == who->main)
            u->main_ns = r.own_ticks * ns_per_tick;
        u->rss += r.rss_pages * (uint64_t)(page > 0 ? page : 4096);
        if (sig)
            kill(pid, sig);
        if (!children_of(pid, queue, &nq, cap))
            break;
    }
out:
    free(queue);
    free(seen);
    return rc;
}

void bcg_reap_known(const bcg_known *known)
{
    pid_t self = getpid();
    for (int i = 0; i < known->n; i++) {
        char name[24];
        proc_row r;
        snprintf(name, sizeof name, "%ld", (long)known->pid[i]);
        if (!read_stat(name, &r) || r.start != known->start[i] || r.ppid != self)
            continue;
        while (waitpid(known->pid[i], NULL, 0) < 0 && errno == EINTR)
            ;
    }
}

uint64_t bcg_private_fs_used(pid_t pid, const char *path)
{
    char theirs[BCG_PATH + 64];
    snprintf(theirs, sizeof theirs, "/proc/%ld/root%s", (long)pid, path);
    struct stat a, b;
    struct statfs f;
    if (stat(theirs, &a) != 0 || (stat(path, &b) == 0 && a.st_dev == b.st_dev) || statfs(theirs, &f) != 0)
        return 0;
    /* Its private mounts are tmpfs. While its sandbox is being set up the
     * path may still lead elsewhere (bubblewrap's staging root, the
     * host's own file system): that is not the bot's, and counting it once
     * killed an honest bot at its handshake for "24 GB" of files. */
    if ((unsigned long)f.f_type != TMPFS_MAGIC)
        return 0;
    return (uint64_t)(f.f_blocks - f.f_bfree) * (uint64_t)f.f_bsize;
}
