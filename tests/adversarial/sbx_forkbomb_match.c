/* sbx_forkbomb_match.c — a non-root referee (as root: this test as an unprivileged uid)
 * whose bots all share its uid, while a neighbouring bot fork-bombs that
 * uid. Before, bubblewrap could not start for the next bots: they were
 * forfeited as "crashed", and a driver that probed again silently ran them
 * with rlimits only. Now every match either runs at the level required at
 * start (bwrap, every seat) or fails with a "sandbox:" reason; none runs
 * weaker and no bot is penalised for it. */
#include "live.h"
#include "ddz.h"
#include "match.h"
#include "seat.h"
#include "record.h"
#include "arb_error.h"
#include "arb_time.h"
#include "../unit/test_util.h"

#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* As root, the unprivileged referee runs as this uid: no account, used
 * by nothing else (not nobody, whose processes other tests may need). */
#define SBX_TEST_UID 64991

static const char *random_bot, *bomb;

/* The bots' RLIMIT_NPROC in this test, the bomb's too. */
#define NPROC 256

static void one_match(const char *bwrap, unsigned require, int *ran, int *refused, uint64_t seed)
{
    match_config cfg;
    match_config_init(&cfg, &arb_game_doudizhu);
    cfg.deals = 1;
    cfg.seed = seed;
    cfg.nbots = 3;
    cfg.startup_ms = 5000;
    for (int b = 0; b < 3; b++) {
        snprintf(cfg.bots[b].name, sizeof cfg.bots[b].name, "r%d", b);
        snprintf(cfg.bots[b].argv[0], sizeof cfg.bots[b].argv[0], "%s", random_bot);
        cfg.bots[b].argc = 1;
    }
    live_options lo = {.sandbox = LIVE_SANDBOX_AUTO, .bwrap = bwrap, .require = require};
    /* RLIMIT_NPROC counts every process of the uid: room for whatever else
     * the test's user runs (the test runner, a CI job), none for the bomb */
    lo.limits.processes = NPROC;
    if (TEST_SANITIZED)
        lo.limits.address_space = UINT64_MAX;
    char err[512];
    live_driver *l = live_new(&lo, err, sizeof err);
    if (!l) {
        /* the probe itself failed under the bomb: refused, with the reason */
        CHECKF(strncmp(err, "sandbox:", 8) == 0, "live_new refused without a sandbox reason: %s", err);
        (*refused)++;
        return;
    }
    match_result res;
    char digest[65];
    int rc = record_match(NULL, &cfg, live_driver_of(l), NULL, &res, digest);
    live_free(l);
    if (rc == 0) {
        (*ran)++;
        for (int b = 0; b < 3; b++) {
            CHECKF(strcmp(res.bots[b].sandbox, "bwrap") == 0, "bot %d ran at \"%s\" instead of bwrap", b,
                   res.bots[b].sandbox);
            CHECKF(!res.bots[b].forfeited, "bot %d forfeited (penalised for the sandbox's failure?): %s", b,
                   res.bots[b].stderr_tail);
        }
    } else {
        (*refused)++;
        CHECKF(rc == ARB_ESANDBOX && strncmp(res.error, "sandbox:", 8) == 0, "match failed otherwise: %d %s", rc,
               res.error);
    }
    match_result_release(&res);
}

static int unprivileged(void)
{
    const char *bw = seat_probe_bwrap(0);
    if (!bw) {
        printf("sbx_forkbomb: SKIP: bubblewrap cannot make a sandbox for uid %d here\n", (int)getuid());
        return 77;
    }
    unsigned require = live_required(bw);
    CHECK(require == SEAT_NEED_BWRAP);
    int ran = 0, refused = 0;
    one_match(bw, require, &ran, &refused, 1);   /* before the bomb: it plays */
    CHECK(ran == 1 && refused == 0);
    /* The neighbour: same uid (the referee's), no sandbox, the uid filled
     * up to the bots' own limit. */
    char dir[] = "/tmp/sbx-forkbomb-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char *argv[] = {(char *)bomb, NULL};
    seat_limits lim = {.processes = NPROC};
    int err;
    seat *n = seat_start(argv, dir, &lim, &err);
    CHECKF(n != NULL, "neighbour: %s", arb_strerror(err));
    if (!n)
        return 1;
    char line[ARB_MAX_LINE + 1];
    /* "full" when its fork fails (or the shell gives up there): 5 s at most */
    seat_recv(n, line, sizeof line, arb_now_ns() + 5000000000u);
    ran = refused = 0;
    for (int i = 0; i < 3; i++) {
        one_match(bw, require, &ran, &refused, 10 + (uint64_t)i);     /* bubblewrap given, as a tournament does */
        one_match(NULL, require, &ran, &refused, 20 + (uint64_t)i);   /* probed per match */
    }
    printf("sbx_forkbomb: under the bomb %d matches ran in bwrap, %d were refused with a sandbox reason\n", ran,
           refused);
    CHECKF(refused > 0, "the bomb did not keep bubblewrap from starting: the test proves nothing");
    seat_stop(n);
    rmdir(dir);
    /* After the bomb: it plays again. */
    ran = refused = 0;
    one_match(bw, require, &ran, &refused, 2);
    CHECK(ran == 1 && refused == 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_sbx_forkbomb RANDOM_BOT FORKBOMB_SCRIPT\n");
        return 2;
    }
    random_bot = argv[1];
    bomb = argv[2];
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (geteuid() != 0) {
        int rc = unprivileged();
        return rc ? rc : TEST_DONE("sbx_forkbomb");
    }
    /* As root: the referee under test is unprivileged (SBX_TEST_UID). */
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        if (setgroups(0, NULL) != 0 || setgid(SBX_TEST_UID) != 0 || setuid(SBX_TEST_UID) != 0)
            _exit(3);
        int rc = unprivileged();
        fflush(NULL);
        _exit(rc ? rc : TEST_DONE("sbx_forkbomb (as an unprivileged uid)"));
    }
    int st = 0;
    waitpid(p, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
