/* test_seat.c — real bot processes in their seats: a well-behaved bot, and
 * hostile ones (never answers, floods without a newline, exits at once,
 * leaves children, closes stdout, floods stderr, spins the CPU). Each case
 * asserts the outcome, that the referee's process stays healthy, and that
 * no process and no descriptor is left behind. */
#include "seat.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"
#include "../unit/test_util.h"

#include <dirent.h>
#include <inttypes.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bots;
static char workdir[256];


/* As root, bots run as a dedicated uid (seat.h); otherwise as ourselves. */
static seat_limits limits;

static seat *start(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", bots, name);
    char *argv[] = {path, NULL};
    int err;
    seat *s = seat_start(argv, workdir, &limits, &err);
    if (!s) {
        fprintf(stderr, "start %s: %s\n", name, arb_strerror(err));
        exit(1);
    }
    return s;
}

static uint64_t in_ms(int ms) { return arb_now_ns() + (uint64_t)ms * 1000000u; }

/* How long to wait for what must come (a line, the end, a process gone, CPU
 * burnt): long, because a loaded machine (CI's parallel tests, -j on two
 * cores) stretches every start and every time slice, and waiting costs
 * nothing when it comes. Only waits whose expected answer is a timeout stay
 * short. */
#define PATIENCE_MS 60000

/* Wait until the seat has used more than ns of CPU (PATIENCE_MS at most):
 * how much CPU a spinning bot gets in a fixed time depends on the load. */
static uint64_t cpu_reaches(seat *s, uint64_t base, uint64_t ns)
{
    uint64_t end = in_ms(PATIENCE_MS), used = 0;
    while ((used = seat_cpu_ns(s) - base) <= ns && arb_now_ns() < end)
        usleep(10000);
    return used;
}

/* Wait until the seat's CPU count stops moving (two readings 100 ms apart
 * within 1 ms, PATIENCE_MS at most): a held sandbox's setup (bubblewrap)
 * is done, however long a loaded machine made it take. */
static uint64_t cpu_settles(seat *s)
{
    uint64_t end = in_ms(PATIENCE_MS), a = seat_cpu_ns(s);
    for (;;) {
        usleep(100000);
        uint64_t b = seat_cpu_ns(s);
        if (b - a < 1000000u || arb_now_ns() >= end)
            return b;
        a = b;
    }
}

/* True when no process of the group is left (kill(-pgid, 0) fails). */
static bool group_gone(pid_t pgid)
{
    uint64_t end = in_ms(PATIENCE_MS);
    do {
        if (kill(-pgid, 0) != 0 && errno == ESRCH)
            return true;
        usleep(10000);
    } while (arb_now_ns() < end);
    return false;
}

static void test_echo(void)
{
    seat *s = start("echo.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_send(s, "hello bot", in_ms(PATIENCE_MS)) == 0);
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE);
    CHECK(strcmp(line, "echo hello bot") == 0);
    for (int i = 0; i < 200; i++) {
        char msg[32];
        snprintf(msg, sizeof msg, "n %d", i);
        seat_send(s, msg, in_ms(PATIENCE_MS));
        CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE);
    }
    CHECK(strcmp(line, "echo n 199") == 0);
    pid_t pg = seat_pid(s);
    seat_stop(s);
    CHECK(group_gone(pg));
}

static void test_sleeper(void)
{
    seat *s = start("sleeper.sh");
    char line[ARB_MAX_LINE + 1];
    uint64_t t0 = arb_now_ns();
    CHECK(seat_recv(s, line, sizeof line, in_ms(200)) == SEAT_TIMEOUT);
    CHECK(arb_now_ns() - t0 >= 190000000u);
    pid_t pg = seat_pid(s);
    seat_stop(s);
    CHECK(group_gone(pg));
}

static void test_flood(void)
{
    seat *s = start("flood_no_newline.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_TOO_LONG);
    pid_t pg = seat_pid(s);
    seat_stop(s);
    CHECK(group_gone(pg));
}

/* The line limit is what the protocol says, and a NUL never cuts a line
 * short (sbx_lines.sh). */
static void test_line_bytes(void)
{
    seat *s = start("sbx_lines.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE && strlen(line) == ARB_MAX_LINE);
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE && strlen(line) == ARB_MAX_LINE
          && line[ARB_MAX_LINE - 1] == 'x');
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_TOO_LONG);
    seat_read r = seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS));
    CHECKF(r == SEAT_LINE && strlen(line) == 9 && strcmp(line, "pass") != 0 && line[4] == SEAT_NUL_MARK,
           "NUL line: %d \"%s\"", r, line);
    r = seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS));
    CHECKF(r == SEAT_LINE && strlen(line) == 5 && line[4] == SEAT_NUL_MARK, "trailing NUL: %d \"%s\"", r, line);
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE && strcmp(line, "after") == 0);
    seat_stop(s);
}

static void test_exit_at_once(void)
{
    seat *s = start("exit_at_once.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_EOF);
    /* Writing to a bot that is gone fails cleanly (no SIGPIPE). */
    int rc = 0;
    for (int i = 0; i < 100 && rc == 0; i++)
        rc = seat_send(s, "anyone?", in_ms(100));
    CHECK(rc == ARB_EIO);
    int status = seat_stop(s);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
}

static void test_children(void)
{
    seat *s = start("leave_children.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE);
    pid_t pg = seat_pid(s);
    CHECK(kill(-pg, 0) == 0);
    seat_stop(s);
    CHECK(group_gone(pg));   /* the children went with the group */
}

static void test_close_stdout(void)
{
    seat *s = start("close_stdout.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_EOF);
    pid_t pg = seat_pid(s);
    seat_stop(s);
    CHECK(group_gone(pg));
}

static void test_stderr_flood(void)
{
    seat *s = start("stderr_flood.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_send(s, "ping", in_ms(PATIENCE_MS)) == 0);
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE);
    CHECK(strcmp(line, "ok ping") == 0);
    size_t len;
    const char *err = seat_stderr(s, &len);
    CHECK(len == 64u << 10);             /* capped at the default 64 KiB */
    CHECK(strncmp(err, "noise", 5) == 0);
    seat_stop(s);
}

static void test_spin(void)
{
    seat *s = start("spin.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(300)) == SEAT_TIMEOUT);
    uint64_t cpu = cpu_reaches(s, 0, 50000000u);
    CHECKF(cpu > 50000000u, "cpu %llu ns", (unsigned long long)cpu);  /* it did burn CPU */
    seat_stop(s);
}

static void test_environment(void)
{
    seat *s = start("env_and_fds.sh");
    char line[ARB_MAX_LINE + 1];
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE);
    int env = -1, fds = -1;
    char core[16] = "", cwd[256] = "";
    CHECKF(sscanf(line, "env %d fds %d core %15s cwd %255s", &env, &fds, core, cwd) == 4, "%s", line);
    CHECKF(env <= 6, "environment has %d entries", env);   /* only ours (sh adds PWD etc.) */
    CHECKF(fds <= 4, "bot sees %d descriptors", fds);       /* 0, 1, 2 (+ ls's own) */
    CHECK(strcmp(core, "0") == 0);
    CHECK(strcmp(cwd, workdir) == 0);
    seat_stop(s);
    /* A referee with many descriptors (a scheduler with its workers, the
     * database and web clients) holds some past 1024: none reaches a bot.
     * The child closed only up to 1024, so a descriptor at 1500 — here a
     * file of the referee's — was the bot's to read. */
    struct rlimit rl, raised;
    getrlimit(RLIMIT_NOFILE, &rl);
    raised = rl;
    if (raised.rlim_cur < 2048 && raised.rlim_max >= 2048)
        raised.rlim_cur = 2048;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0 && raised.rlim_cur >= 2048) {
        int high = dup2(1, 1500);
        CHECK(high == 1500);
        s = start("env_and_fds.sh");
        CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE);
        fds = -1;
        CHECKF(sscanf(line, "env %d fds %d", &env, &fds) == 2, "%s", line);
        CHECKF(fds <= 4, "with a descriptor at 1500 in the referee, the bot sees %d descriptors", fds);
        seat_stop(s);
        close(1500);
        setrlimit(RLIMIT_NOFILE, &rl);
    } else {
        fprintf(stderr, "environment: descriptors past 1024 not tried (RLIMIT_NOFILE hard limit below 2048)\n");
    }
}

static const char *hostile;

static seat *start_hostile(const char *mode)
{
    char *argv[] = {(char *)hostile, (char *)mode, NULL};
    int err;
    seat *s = seat_start(argv, workdir, &limits, &err);
    if (!s) {
        fprintf(stderr, "start hostile %s: %s\n", mode, arb_strerror(err));
        exit(1);
    }
    return s;
}

static void test_hostile_binaries(void)
{
    char line[ARB_MAX_LINE + 1];
    /* Allocates without end: RLIMIT_AS (1 GiB) stops it, the referee is fine. */
    seat *s = start_hostile("alloc");
    seat_read r = seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS));
    CHECKF(r == SEAT_EOF || (r == SEAT_LINE && strncmp(line, "oom after", 9) == 0), "alloc: %d %s", r, line);
    seat_stop(s);
    /* Writes a file without end: RLIMIT_FSIZE (16 MiB) stops it. (In the
     * real directory, not the capped tmpfs a bot gets by default, so the
     * file can be measured here afterwards.) */
    limits.workdir_size = UINT64_MAX;
    s = start_hostile("bigfile");
    limits.workdir_size = 0;
    r = seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS));
    CHECK(r == SEAT_EOF || r == SEAT_LINE);
    seat_stop(s);
    char big[512];
    snprintf(big, sizeof big, "%s/big.bin", workdir);
    FILE *f = fopen(big, "rb");
    long size = -1;
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fclose(f);
    }
    CHECKF(size >= 0 && size <= (16l << 20), "big.bin is %ld bytes", size);
    unlink(big);
    /* Crashes: the referee sees the end of its output and the signal. */
    s = start_hostile("crash");
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_EOF);
    int status = seat_stop(s);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV && !WCOREDUMP(status));
    /* One enormous line: refused as too long, and the next line still reads. */
    s = start_hostile("hugeline");
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_TOO_LONG);
    CHECK(seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE && strcmp(line, "after") == 0);
    seat_stop(s);
}

/* A bot cannot read what the referee keeps from it: a 0600 transcript
 * (closed to the bot's uid as root) and, inside bubblewrap, anything hidden. */
static void test_hidden_files(void)
{
    char secret[300], path[512], line[ARB_MAX_LINE + 1];
    snprintf(secret, sizeof secret, "/var/tmp/arbiter-secret-%d.arbt", (int)getpid());
    FILE *f = fopen(secret, "w");
    fputs("every hand\n", f);
    fclose(f);
    chmod(secret, 0644);   /* readable by anyone: only hiding protects it */
    snprintf(path, sizeof path, "%s/peek.sh", bots);
    char *argv[] = {path, secret, NULL};
    const char *bw = seat_probe_bwrap(limits.uid);
    if (bw) {
        seat_limits lim = limits;
        lim.bwrap = bw;
        lim.hide[0] = secret;
        int err;
        seat *s = seat_start(argv, workdir, &lim, &err);
        CHECK(s && seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE && strcmp(line, "hidden") == 0);
        if (s)
            seat_stop(s);
    } else {
        fprintf(stderr, "seat: bubblewrap unavailable; hidden-file check inside it skipped\n");
    }
    if (geteuid() == 0) {
        chmod(secret, 0600);   /* as written by the transcript writer */
        int err;
        seat *s = seat_start(argv, workdir, &limits, &err);
        CHECK(s && seat_recv(s, line, sizeof line, in_ms(PATIENCE_MS)) == SEAT_LINE && strcmp(line, "hidden") == 0);
        if (s)
            seat_stop(s);
    }
    unlink(secret);
}

static void test_bad_start(void)
{
    int err = 0;
    char *rel[] = {"echo.sh", NULL};
    CHECK(seat_start(rel, workdir, &limits, &err) == NULL && err == ARB_EINVAL);
    /* A path that cannot be executed is reported at start, not as a
     * silent bot. */
    char *missing[] = {"/nonexistent/bot", NULL};
    CHECK(seat_start(missing, workdir, &limits, &err) == NULL && err == ARB_ENOTFOUND);
    /* As root, refusing to run a bot as root unless told to. */
    if (geteuid() == 0) {
        char path[512];
        snprintf(path, sizeof path, "%s/echo.sh", bots);
        char *argv[] = {path, NULL};
        CHECK(seat_start(argv, workdir, NULL, &err) == NULL && err == ARB_EINVAL);
    }
}

/* A sandbox built ahead (seat_limits.gated) runs none of the bot's code
 * until it is released: a bot that spins from its first instruction uses
 * no CPU of its own while held (what is counted is bubblewrap's setup),
 * then spins once released. The next process of a bot is built so while
 * its predecessor still plays (live.c): it must not be able to listen. */
static void test_gated(void)
{
    seat_limits lim = limits;
    lim.bwrap = seat_probe_bwrap(lim.uid);
    if (!lim.bwrap) {
        fprintf(stderr, "gated: skipped: no working bubblewrap here\n");
        return;
    }
    lim.gated = true;
    char path[512];
    snprintf(path, sizeof path, "%s/spin.sh", bots);
    char *argv[] = {path, NULL};
    int err;
    seat *s = seat_start(argv, workdir, &lim, &err);
    CHECKF(s != NULL, "gated start: %s", arb_strerror(err));
    if (!s)
        return;
    CHECK(seat_gated(s));
    uint64_t setup = cpu_settles(s);
    usleep(300000);
    uint64_t held = seat_cpu_ns(s) - setup;
    CHECKF(held < 20000000u, "gated: the held bot used %" PRIu64 " ms of CPU in 300 ms", held / 1000000);
    CHECK(seat_gone(s, 0, NULL) == SEAT_RUNNING);
    seat_release(s);
    CHECK(!seat_gated(s));
    uint64_t ran = cpu_reaches(s, seat_cpu_ns(s), 100000000u);
    CHECKF(ran > 100000000u, "gated: released, the bot used only %" PRIu64 " ms of CPU in %d s", ran / 1000000,
           PATIENCE_MS / 1000);
    pid_t pg = seat_pid(s);
    seat_stop(s);
    CHECK(group_gone(pg));
    /* Held and never released: stopped without running at all. */
    s = seat_start(argv, workdir, &lim, &err);
    CHECKF(s != NULL, "gated start: %s", arb_strerror(err));
    if (s) {
        usleep(100000);
        uint64_t before = seat_cpu_ns(s);
        pg = seat_pid(s);
        int status = seat_stop(s);
        CHECK(group_gone(pg));
        CHECKF(before < 50000000u, "gated: %" PRIu64 " ms of CPU before the stop", before / 1000000);
        CHECK(status != -1);
    }
}

int main(int argc, char **argv)
{
    static char abs_bots[4096];
    if (!realpath(argc > 1 ? argv[1] : "tests/bots", abs_bots)) {
        perror("bots directory");
        return 2;
    }
    bots = abs_bots;
    hostile = argc > 2 ? argv[2] : NULL;
    snprintf(workdir, sizeof workdir, "/tmp/arbiter-seat-test-%d", (int)getpid());
    if (geteuid() == 0)
        limits.uid = 60990;   /* outside the blocks the match tests claim */
    int before = test_open_fds();
    test_echo();
    test_sleeper();
    test_flood();
    test_line_bytes();
    test_exit_at_once();
    test_children();
    test_close_stdout();
    test_stderr_flood();
    test_spin();
    test_environment();
    test_bad_start();
    test_hidden_files();
    test_gated();
    /* The hostile binaries test the rlimits themselves (1 GiB of address
     * space): a sanitizer build's binaries cannot even start under it. */
    if (hostile && !TEST_SANITIZED)
        test_hostile_binaries();
    CHECKF(test_open_fds() == before, "descriptors: %d before, %d after", before, test_open_fds());
    /* No zombie: every child was reaped. */
    CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
    rmdir(workdir);
    return TEST_DONE("seat");
}
