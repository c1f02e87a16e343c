/* rsrc_bot.c — a bot that takes more than its share through processes it
 * starts, for the resource tests (rsrc_test.c). It plays honestly (a random
 * legal choice from its seed) and, from its first decision, does what MODE
 * says:
 *
 *   rsrc_bot MODE [ARG] [ARG2]
 *
 *   honest          nothing else
 *   slow MS         sleep MS ms before each answer
 *   ponder          fork a child that burns CPU without end (it thinks on
 *                   the others' time); before each answer, report on stderr
 *                   "ponder: cpu_ms=C progress=P" (the child's own CPU time
 *                   and loop count, from shared memory)
 *   pondersid       the same, the child in a session of its own (setsid)
 *   memhog K MB     fork K children that each allocate and touch MB MiB and
 *                   keep it; answer when all have it or died; report
 *                   "memhog: K children, H held" on stderr
 *   tmphog MB       write /tmp/fill-N files of 8 MiB up to MB MiB; report
 *                   "tmphog: wrote W MiB, stopped: ERR" or "... done"
 *   dirhog MB       the same in its working directory (fill-N)
 *   mixhog MB       MB MiB into /tmp and MB into its working directory,
 *                   then one child of 900 MiB: within every single cap,
 *                   over the bot's total; report "mixhog: ..." */
#include "arbiter_bot.h"
#include "arb_num.h"
#include "arb_rng.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct shared_progress {
    volatile uint64_t cpu_ns;      /* the child's CLOCK_PROCESS_CPUTIME_ID */
    volatile uint64_t loops;
} shared_progress;

typedef struct rbot {
    const char *mode, *arg, *arg2;
    bool started;
    arb_rng rng;
    bool seeded;
    shared_progress *sp;
} rbot;

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

static void spinner(shared_progress *sp)
{
    for (uint64_t i = 0;; i++) {
        if ((i & 0xfffff) == 0) {
            struct timespec ts;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
            sp->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
            sp->loops = i;
        }
    }
}

static void start_ponder(rbot *b, bool new_session)
{
    b->sp = mmap(NULL, sizeof *b->sp, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (b->sp == MAP_FAILED) {
        b->sp = NULL;
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        if (new_session)
            setsid();
        close(0);
        close(1);
        spinner(b->sp);
    }
}

/* K children of MB MiB each; returns how many reported holding it. */
static int memhog(int k, long mb)
{
    int p[2];
    if (pipe(p) != 0)
        return 0;
    for (int i = 0; i < k; i++) {
        if (fork() == 0) {
            close(p[0]);
            close(0);
            close(1);
            size_t n = (size_t)mb << 20;
            char *m = malloc(n);
            if (!m)
                _exit(1);
            for (size_t o = 0; o < n; o += 4096)
                m[o] = 1;
            (void)!write(p[1], "x", 1);
            for (;;)
                pause();
        }
    }
    close(p[1]);
    int held = 0;
    char c;
    while (held < k && read(p[0], &c, 1) == 1)
        held++;
    close(p[0]);
    return held;
}

static void fill(const char *dir, long mb)
{
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    long wrote = 0;
    const char *why = NULL;
    for (int f = 0; wrote < mb && !why; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/fill-%d", dir, f);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) {
            why = strerror(errno);
            break;
        }
        for (int i = 0; i < 8 && wrote < mb; i++) {
            ssize_t w = write(fd, block, sizeof block);
            if (w != (ssize_t)sizeof block) {
                why = w < 0 ? strerror(errno) : "short write";
                break;
            }
            wrote++;
        }
        close(fd);
    }
    if (why)
        fprintf(stderr, "%s: wrote %ld MiB, stopped: %s\n", dir[0] == '/' ? "tmphog" : "dirhog", wrote, why);
    else
        fprintf(stderr, "%s: wrote %ld MiB, done\n", dir[0] == '/' ? "tmphog" : "dirhog", wrote);
}

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    rbot *b = ctx;
    if (!b->seeded) {
        arb_rng_seed(&b->rng, v->seed);
        b->seeded = true;
    }
    int n = r->decision == ABOT_PLAY ? r->nmoves : r->nvalues;
    int honest = (int)arb_rng_below(&b->rng, (uint64_t)n);
    bool first = !b->started;
    b->started = true;
    if (strcmp(b->mode, "slow") == 0) {
        sleep_ms(arb_num_or(b->arg, 20));
    } else if (strncmp(b->mode, "ponder", 6) == 0) {
        if (first)
            start_ponder(b, strcmp(b->mode, "pondersid") == 0);
        if (b->sp)
            fprintf(stderr, "ponder: cpu_ms=%llu progress=%llu\n", (unsigned long long)(b->sp->cpu_ns / 1000000u),
                    (unsigned long long)b->sp->loops);
    } else if (first && strcmp(b->mode, "memhog") == 0) {
        int k = (int)arb_num_or(b->arg, 5);
        int held = memhog(k, arb_num_or(b->arg2, 500));
        fprintf(stderr, "memhog: %d children, %d held\n", k, held);
    } else if (first && strcmp(b->mode, "tmphog") == 0) {
        fill("/tmp", arb_num_or(b->arg, 2048));
    } else if (first && strcmp(b->mode, "dirhog") == 0) {
        fill(".", arb_num_or(b->arg, 2048));
    } else if (first && strcmp(b->mode, "mixhog") == 0) {
        long mb = arb_num_or(b->arg, 240);
        fill("/tmp", mb);
        fill(".", mb);
        int held = memhog(1, 900);
        fprintf(stderr, "mixhog: %ld MiB in files, %d child of 900 MiB held\n", 2 * mb, held);
    }
    return honest;
}

int main(int argc, char **argv)
{
    rbot b = {.mode = argc > 1 ? argv[1] : "honest", .arg = argc > 2 ? argv[2] : NULL,
              .arg2 = argc > 3 ? argv[3] : NULL};
    static const char *const modes[] = {"honest", "slow", "ponder", "pondersid", "memhog", "tmphog", "dirhog",
                                        "mixhog"};
    bool known = false;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        known |= strcmp(b.mode, modes[i]) == 0;
    if (!known) {
        fprintf(stderr, "usage: rsrc_bot MODE [ARG] [ARG2]; unknown mode \"%s\"\n", b.mode);
        return 2;
    }
    signal(SIGCHLD, SIG_IGN);   /* children it forks are never waited for */
    return abot_run("rsrc", choose, &b) == 0 ? 0 : 1;
}
