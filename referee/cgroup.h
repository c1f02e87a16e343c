/* cgroup.h — a bot's processes as one: a control group of its own (cgroup
 * v2, else v1 memory+pids+freezer+cpuacct) that the bot joins before it
 * execs, so everything it ever starts is CPU-accounted, memory- and
 * pid-capped, stopped and killed together; and, where no cgroup can be had,
 * the same questions answered by walking the bot's processes in /proc
 * (polled, not enforced by the kernel). docs/security.md, "Resources". */
#ifndef ARB_CGROUP_H
#define ARB_CGROUP_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "arb_limits.h"

typedef enum bcg_kind { BCG_NONE = 0, BCG_V1, BCG_V2 } bcg_kind;

typedef struct bcg bcg;

/* A group for one bot under arbiter/<referee pid>/ in the referee's own
 * cgroup, capped at `memory` bytes (no swap) and `pids` tasks. NULL when no
 * usable cgroup exists here (not root, no delegation, controllers missing,
 * or ARBITER_NO_CGROUP=1 in the environment): *why then says which (a
 * static string). The caller falls back to bcg_scan. */
bcg *bcg_new(uint64_t memory, uint64_t pids, const char **why);

/* In the forked child, before it changes uid or execs, while it is a
 * single thread: move the calling process into the group (v1: its one
 * thread, by `tasks`). Only async-signal-safe calls (write on descriptors
 * opened by bcg_new). 0, or -1 when a controller refused. */
int bcg_join_self(const bcg *g);

/* Close the descriptors bcg_join_self writes to (the parent's copies are
 * kept for reading; this is for the child after it joined). Async-signal-safe. */
void bcg_close_child(const bcg *g);

bcg_kind bcg_kind_of(const bcg *g);

/* CPU time of every process the group ever held (reaped ones included), ns. */
uint64_t bcg_cpu_ns(bcg *g);

/* Times the kernel killed a process of the group for memory (its OOM
 * killer at the cap). A bot that hit its cap is then killed whole. */
uint64_t bcg_oom_kills(bcg *g);

/* Bytes charged to the group now (processes, page cache, tmpfs pages). */
uint64_t bcg_memory(bcg *g);

/* Stop (SIGSTOP) or continue every process of the group. The freezer holds
 * the group still while they are signalled, so none forks past it. */
void bcg_stop(bcg *g, bool stopped);

/* SIGKILL every process of the group (thawing it so the kill lands) and wait,
 * bounded, until the group is empty. */
void bcg_kill(bcg *g);

/* Kill what is left, remove the group (and arbiter/<pid> when it is the
 * last), close and free. NULL is a no-op. */
void bcg_free(bcg *g);

/* ---- Without a cgroup: the bot's processes found in /proc ------------- */

/* Who belongs to a bot: the process started (and every descendant: inside
 * bubblewrap that is its whole pid namespace, whose orphans go to the bot
 * as its pid 1), its session, and when it has a uid of its own (0: none)
 * the processes of that uid re-parented to us. */
typedef struct bcg_who {
    pid_t main;          /* the bot itself: its own CPU is reported apart (main_ns) */
    pid_t pid;           /* the process started (bubblewrap, or the bot) */
    pid_t sid;           /* its session */
    uid_t uid;
} bcg_who;

typedef struct bcg_usage {
    uint64_t cpu_ns;     /* utime+stime+cutime+cstime summed, ns (tick resolution) */
    uint64_t rss;        /* resident bytes summed (shared pages counted per process) */
    uint64_t main_ns;    /* the main process's own utime+stime, ns */
    int      procs;      /* processes found */
} bcg_usage;

/* The processes a scan has seen as the bot's (pid and start time, so a
 * reused pid is not taken for one). Zero-initialised by the caller. */
typedef struct bcg_known {
    int      n;
    pid_t    pid[ARB_BOT_KNOWN_PROCS];
    uint64_t start[ARB_BOT_KNOWN_PROCS];
} bcg_known;

/* One walk of the bot's processes (bcg_who, and those in `known` still
 * alive, whose descendants are walked too): sum what they use and send
 * `sig` to each (0: none); every one found is added to `known` (may be
 * NULL). ARB_ENOMEM past ARB_BOT_SCAN_MAX processes (the sums cover what
 * was seen), ARB_EIO without /proc/PID/task/TID/children. */
int bcg_scan(const bcg_who *who, bcg_known *known, int sig, bcg_usage *u);

/* Bytes in use on the filesystem `path` names as process `pid` sees it
 * (/proc/PID/root/PATH), when that is a filesystem of its own (not the one
 * we see at `path`): the bot's private tmpfs. 0 otherwise. */
uint64_t bcg_private_fs_used(pid_t pid, const char *path);

/* After they were killed: reap those of `known` that are our children (the
 * same processes: start times checked), so no zombie is left. */
void bcg_reap_known(const bcg_known *known);

#endif
