/* seat.h — a bot program in its seat: started from an argv (never a shell)
 * in its own process group and working directory, with a clean environment,
 * no inherited descriptors and rlimits; talked to by bounded lines with
 * deadlines; its CPU time read per decision; killed with its whole process
 * group and reaped at the end. Bubblewrap and the dedicated uid come on top
 * of this (issue 3); everything here works without them. */
#ifndef ARB_SEAT_H
#define ARB_SEAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct seat seat;

typedef struct seat_limits {
    uint64_t address_space;   /* RLIMIT_AS bytes (0 = default 1 GiB) */
    uint64_t cpu_seconds;     /* RLIMIT_CPU backstop (0 = default 600) */
    uint64_t processes;       /* RLIMIT_NPROC (0 = default 64; per uid, see seat.c) */
    uint64_t file_size;       /* RLIMIT_FSIZE bytes (0 = default 16 MiB) */
    uint64_t open_files;      /* RLIMIT_NOFILE (0 = default 64) */
    size_t   stderr_cap;      /* bytes of stderr kept (0 = default 64 KiB) */
} seat_limits;

/* Outcome of waiting for a line. */
typedef enum seat_read {
    SEAT_LINE = 0,        /* a complete line (without its newline) */
    SEAT_TIMEOUT,         /* the deadline passed */
    SEAT_EOF,             /* the bot closed stdout or exited */
    SEAT_TOO_LONG,        /* more than ARB_MAX_LINE bytes without a newline */
} seat_read;

/* Start argv[0] (a path; PATH is not searched) with argv in directory
 * `workdir` (created if missing). Returns NULL and sets *err (an arb_err)
 * on failure. */
seat *seat_start(char *const argv[], const char *workdir, const seat_limits *limits, int *err);

/* Write one line (a newline is appended). Fails with ARB_EIO when the bot
 * no longer reads, ARB_ETIMEOUT when it does not drain its stdin before the
 * deadline (monotonic ns). */
int seat_send(seat *s, const char *line, uint64_t deadline_ns);

/* Wait for the next line until deadline_ns (monotonic). On SEAT_LINE the line
 * is in buf (NUL-terminated, at most cap-1 bytes; cap >= ARB_MAX_LINE + 1). */
seat_read seat_recv(seat *s, char *buf, size_t cap, uint64_t deadline_ns);

/* CPU time used by the bot process so far (user + system, ns), read with
 * clock_getcpuclockid while it runs; 0 when unavailable. */
uint64_t seat_cpu_ns(seat *s);

/* The bot's stderr captured so far (at most the cap), drained without
 * blocking. */
const char *seat_stderr(seat *s, size_t *len);

pid_t seat_pid(const seat *s);

/* Kill the whole process group, reap the bot, close every descriptor and
 * free. Returns the bot's wait status (or -1 if it had to be killed). */
int seat_stop(seat *s);

#endif
