/* seat.h — a bot program in its seat: started from an argv (never a shell)
 * in a session and process group of its own, in its own working directory,
 * with a clean environment, no inherited descriptors and rlimits; when the
 * referee runs as root, under a dedicated unprivileged uid and without a
 * network; where bubblewrap works, inside it (no network, read-only system,
 * private /tmp, its own pid namespace). Talked to by bounded lines with
 * deadlines; its CPU time read per decision; killed with everything it
 * started and reaped at the end. Everything here works without bubblewrap. */
#ifndef ARB_SEAT_H
#define ARB_SEAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct seat seat;

typedef struct seat_limits {
    uint64_t address_space;   /* RLIMIT_AS bytes (0 = default 1 GiB, UINT64_MAX = none) */
    uint64_t cpu_seconds;     /* RLIMIT_CPU backstop (0 = default 600) */
    uint64_t processes;       /* RLIMIT_NPROC (0 = default 64; counted per uid) */
    uint64_t file_size;       /* RLIMIT_FSIZE bytes (0 = default 16 MiB) */
    uint64_t open_files;      /* RLIMIT_NOFILE (0 = default 64) */
    size_t   stderr_cap;      /* bytes of stderr kept (0 = ARB_STDERR_CAP) */
    /* When the referee runs as root: the uid (and gid) the bot runs as. It
     * should be used by nothing else on the host (no account is needed),
     * and differ between bots that run at the same time, so that one bot
     * cannot signal or ptrace another and RLIMIT_NPROC is its own.
     * 0 = do not change uid (refused as root unless allow_root is set). */
    uid_t    uid;
    bool     allow_root;      /* let a bot run as root (tests of the bare path only) */
    /* bubblewrap binary to run the bot under, or NULL for none. Use
     * seat_probe_bwrap() to find one that works on this host. */
    const char *bwrap;
    /* Paths the bot must not see inside bubblewrap (NULL-terminated, at
     * most SEAT_MAX_HIDE): the transcript being written holds every hand,
     * a state directory holds every transcript. Directories are covered by
     * an empty tmpfs, files by /dev/null. */
    const char *hide[8];
    /* A directory holding every entrant's program, one subdirectory each
     * (a worker's program cache), or NULL. It is hidden like `hide`, and
     * the subdirectory that holds this bot's own program is bound back
     * read-only: a bot sees only its own program's files. */
    const char *programs;
    /* Inside bubblewrap: the system's directories (/usr, /etc, /opt, /sys,
     * /bin, /lib...) instead of the whole file system, read-only. For bots
     * whose programs come from the cache (a tournament): they see neither
     * the organiser's files nor another tournament's state, whatever the
     * referee's uid may read. */
    bool system_view;
    /* SEAT_NEED_* bits: what the seat must get, or the start fails with
     * ARB_ESANDBOX instead of running the bot in a weaker sandbox. */
    unsigned require;
    /* Every process of the bot together (referee/cgroup.h): memory in bytes,
     * its tmpfs pages included (0 = ARB_BOT_MEMORY; UINT64_MAX = no cap and
     * no cgroup); its private /tmp and its working directory, size-capped
     * tmpfs mounts (0 = ARB_BOT_TMPFS / ARB_BOT_WORKDIR; UINT64_MAX for the
     * working directory = the real directory, bound, kept after the bot). */
    uint64_t memory;
    uint64_t tmpfs;
    uint64_t workdir_size;
    /* Inside bubblewrap: build the sandbox now but hold it before the bot's
     * program runs (bubblewrap's --block-fd, read after every namespace and
     * mount is made and every privilege dropped, before the seccomp filter
     * and the exec): not one instruction of the bot runs until
     * seat_release. A sandbox made ahead while the previous process of the
     * same bot still plays (live.c) costs the match nothing when its turn
     * comes. Ignored without bubblewrap (seat_gated says whether it held). */
    bool gated;
    /* Variables the bot is given beside PATH, HOME, LANG and ARBITER_BOT:
     * "NAME=value\n" each, at most ARB_MAX_BOT_ENV of them in
     * ARB_MAX_BOT_ENV_TEXT bytes (its entrant's env:, checked by
     * match_env_check), or NULL. A name of the referee's four is never
     * passed twice: the referee's wins. */
    const char *env;
} seat_limits;

#define SEAT_MAX_HIDE 7

/* Bits of seat_limits.require. */
enum {
    SEAT_NEED_BWRAP = 1,   /* inside bubblewrap (bwrap must be set and work) */
    SEAT_NEED_UID = 2,     /* under a uid of its own (the referee is root) */
};

/* Outcome of waiting for a line. */
typedef enum seat_read {
    SEAT_LINE = 0,        /* a complete line (without its newline) */
    SEAT_TIMEOUT,         /* the deadline passed */
    SEAT_EOF,             /* the bot closed stdout or exited: see seat_gone() */
    SEAT_TOO_LONG,        /* more than ARB_MAX_LINE bytes without a newline */
} seat_read;

/* Why a bot stopped talking (after SEAT_EOF). */
typedef enum seat_gone_reason {
    SEAT_RUNNING = 0,     /* still running: it closed its stdout */
    SEAT_EXITED,          /* exited by itself (any status) */
    SEAT_CRASHED,         /* killed by a signal (a crash or a resource limit) */
} seat_gone_reason;

/* Start argv[0] (an absolute path; PATH is not searched) with argv in
 * directory `workdir` (created if missing, and given to limits->uid when
 * one is set). Every bot runs under the seccomp filter of
 * sandbox_seccomp.h. Inside bubblewrap: private /tmp, /var/tmp, /dev/shm,
 * /run, IPC, network and pids. As root without bubblewrap: its own mount,
 * IPC and network namespaces with fresh tmpfs on /tmp, /var/tmp, /dev/shm
 * and /run/lock, and a /proc that shows only its own processes
 * (hidepid=invisible). Returns NULL and sets *err (an arb_err) on failure:
 * ARB_EINVAL for a relative path or a root bot without allow_root,
 * ARB_ENOTFOUND when argv[0] cannot be executed, ARB_ESANDBOX when the
 * sandbox could not be built (bubblewrap failed to start, e.g. its uid out
 * of processes) or is weaker than limits->require. */
seat *seat_start(char *const argv[], const char *workdir, const seat_limits *limits, int *err);

/* Queue one line (a newline is appended) and write as much as the bot's
 * stdin takes. With deadline_ns 0 it never waits: what does not fit stays
 * queued and goes out during later calls (a bot that is busy thinking does
 * not hold up the referee). Otherwise it waits until everything queued is
 * written or the deadline (monotonic ns) passes: ARB_ETIMEOUT. ARB_EIO when
 * the bot no longer reads; ARB_ETOOBIG when more than ARB_MAX_QUEUE bytes
 * are waiting (a bot that never reads). line NULL: only write what is
 * queued. */
int seat_send(seat *s, const char *line, uint64_t deadline_ns);

/* Queue one line without writing it unless the queue is large (64 KiB):
 * events wait for the bot's next request and go out with it, one write and
 * one wake-up for the bot instead of one per line. Errors as seat_send. */
int seat_queue(seat *s, const char *line);

/* Wait for the next line until deadline_ns (monotonic), writing queued
 * output meanwhile. On SEAT_LINE the line is in buf (NUL-terminated, at
 * most cap-1 bytes; cap >= ARB_MAX_LINE + 1): up to ARB_MAX_LINE bytes
 * before the newline (a "\r" before it is dropped) are a line, one more is
 * SEAT_TOO_LONG. A NUL byte inside a line is replaced by SEAT_NUL_MARK,
 * which no protocol word or card contains, so the reply is malformed (and
 * the transcript shows where the NUL was) instead of cut short. */
seat_read seat_recv(seat *s, char *buf, size_t cap, uint64_t deadline_ns);

/* ASCII SUB ("substitute"): what a NUL byte in a bot's line becomes. */
#define SEAT_NUL_MARK '\x1a'

/* After SEAT_EOF: whether the bot is still running, exited or crashed
 * (waits up to wait_ms for it to finish exiting). *status is the wait
 * status when it has ended. */
seat_gone_reason seat_gone(seat *s, int wait_ms, int *status);

/* CPU time used by the bot so far (user + system, ns): every process it
 * ever started, children that left its session or were reaped included.
 * With a cgroup, the group's usage; without, the bot's own CPU clock plus
 * what a walk of its other processes (its descendants, its orphans among
 * ours, those seen before: cgroup.h) found, redone at most every
 * ARB_BOT_WATCH_MS. Never
 * decreases; the last reading once it has ended. */
uint64_t seat_cpu_ns(seat *s);

/* Check the bot's total memory against its cap: past it (the kernel's OOM
 * killer hit one of its processes, or without a cgroup their summed RSS is
 * over the cap) every process of the bot is killed and a line saying so is
 * added to its stderr. Returns 0, or ARB_ETOOBIG when it was killed (it
 * then reads as crashed). Call it while the bot thinks and between turns;
 * it rescans /proc only without a cgroup, at most every ARB_BOT_WATCH_MS. */
int seat_watch(seat *s);

/* The bot's stderr captured so far (at most the cap), drained without
 * blocking. */
const char *seat_stderr(seat *s, size_t *len);

/* Add a line of the referee's (why it was killed) at the end of the bot's
 * stderr as kept, past the cap if need be. */
void seat_annotate(seat *s, const char *text);

/* Stop or continue every process of the bot: its cgroup frozen, else
 * SIGSTOP (SIGCONT) to its process group, its sandbox and each process a
 * scan finds (see seat_cpu_ns): a bot runs only while it is asked, so
 * whatever it does between its turns (spinning, forking, a child in a
 * session of its own) cannot take CPU from the bot whose turn it is. */
void seat_pause(seat *s, bool paused);

/* Whether the seat was started gated (seat_limits.gated) and is still
 * held; seat_release lets the bot's program start. */
bool seat_gated(const seat *s);
void seat_release(seat *s);

/* Whether the bot's processes are held in a cgroup of their own: then its
 * kill takes exactly its processes, and another process of the same uid
 * (the next process of the same bot) is untouched. */
bool seat_has_cgroup(const seat *s);

/* The process group (and session) id: the pid of the process started. */
pid_t seat_pid(const seat *s);

/* The sandbox the bot runs in: "bwrap", "bwrap+uid", "uid+ns" (root
 * without bubblewrap: own uid, mount, IPC and network namespaces), "uid",
 * or "rlimits" (the bare minimum every bot gets: rlimits and the seccomp
 * filter), with "+cg1" or "+cg2" when its processes are held in a cgroup
 * (v1, v2). seat_sandbox_text says what each one contains. */
const char *seat_sandbox(const seat *s);

/* One sentence for people: what a bot at this level can and cannot do
 * (docs/security.md, "Bots and co-located bots"). */
const char *seat_sandbox_text(const char *level);

/* Kill the whole process group (and, inside bubblewrap, the bot's pid
 * namespace), reap the bot and every orphan it left, close every
 * descriptor and free. Returns the bot's wait status. */
int seat_stop(seat *s);

/* A bubblewrap that can start a sandbox on this host (as the uid bots run
 * as), or NULL: bubblewrap may be missing, or user namespaces forbidden.
 * `uid` as in seat_limits. Costs one short process start the first time
 * for a uid; the answer is kept for the life of the process (thread-safe):
 * every match of a command or a referee asks the same question. */
const char *seat_probe_bwrap(uid_t uid);

#endif
