/* sbx_peek.c — what a bot of a non-root referee daemon (as root: this test
 * as an unprivileged uid) can read of its worker's directory: with bubblewrap, neither
 * another entrant's program in the program cache, nor the cache's listing,
 * nor the transcript being written, while its own program's files stay
 * readable. The seat gets what referee/worker.c gives it: the worker's
 * directory and the transcript's hidden, the cache as `programs`. */
#include "seat.h"
#include "arb_file.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"
#include "../unit/test_util.h"

#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* As root, the unprivileged referee runs as this uid: no account, used
 * by nothing else (not nobody, whose processes other tests may need). */
#define SBX_TEST_UID 64992

static void put(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    chmod(path, mode);
}

static int peek(const char *script)
{
    const char *bw = seat_probe_bwrap(0);
    if (!bw) {
        printf("sbx_peek: SKIP: bubblewrap cannot make a sandbox for uid %d here; without it a bot of the "
               "referee's uid reads everything the referee can (docs/security.md)\n", (int)getuid());
        return 77;
    }
    char wd[] = "/tmp/sbx-peek-XXXXXX";
    if (!mkdtemp(wd))
        return 1;
    char cache[300], mine[400], theirs[400], prog[500], other[500], neighbour[500], tdir[300], tr[400], bot[400];
    snprintf(cache, sizeof cache, "%s/programs", wd);
    snprintf(mine, sizeof mine, "%s/aaaa", cache);
    snprintf(theirs, sizeof theirs, "%s/bbbb", cache);
    snprintf(tdir, sizeof tdir, "%s/transcripts", wd);
    mkdir(cache, 0755);
    mkdir(mine, 0755);
    mkdir(theirs, 0755);
    mkdir(tdir, 0700);
    snprintf(prog, sizeof prog, "%s/peek.sh", mine);
    snprintf(neighbour, sizeof neighbour, "%s/weights.txt", mine);
    snprintf(other, sizeof other, "%s/secret_bot.py", theirs);
    snprintf(tr, sizeof tr, "%s/match-1.arbt", tdir);
    snprintf(bot, sizeof bot, "%s/match-1-1/bot0-peek", wd);
    FILE *in = fopen(script, "r"), *out = fopen(prog, "w");
    for (int c; in && out && (c = fgetc(in)) != EOF;)
        fputc(c, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    chmod(prog, 0755);
    put(neighbour, "my weights\n", 0644);
    put(other, "print('the other entrant's strategy')\n", 0644);
    put(tr, "every hand\n", 0600);   /* as tr_writer_open makes it */
    char md[400];
    snprintf(md, sizeof md, "%s/match-1-1", wd);
    mkdir(md, 0711);
    /* p=PATH: the paths to try, not file arguments of the bot's own */
    char a1[520], a2[520], a3[520], a4[520];
    snprintf(a1, sizeof a1, "p=%s", other);
    snprintf(a2, sizeof a2, "p=%s", tr);
    snprintf(a3, sizeof a3, "p=%s", cache);
    snprintf(a4, sizeof a4, "p=%s", neighbour);
    char *argv[] = {prog, a1, a2, a3, a4, NULL};
    seat_limits lim = {.bwrap = bw, .programs = cache, .require = SEAT_NEED_BWRAP};
    lim.hide[0] = wd;     /* the worker's directory */
    lim.hide[1] = tdir;   /* the transcript's */
    int err;
    seat *s = seat_start(argv, bot, &lim, &err);
    CHECKF(s != NULL, "start: %s", arb_strerror(err));
    char line[ARB_MAX_LINE + 1] = "";
    if (s) {
        CHECK(seat_recv(s, line, sizeof line, arb_now_ns() + 10000000000u) == SEAT_LINE);
        seat_stop(s);
    }
    printf("sbx_peek: %s\n", line);
    CHECKF(strstr(line, "other:hidden"), "another entrant's program was readable: %s", line);
    CHECKF(strstr(line, "transcript:hidden"), "the transcript being written was readable: %s", line);
    CHECKF(strstr(line, "listed:1"), "the cache listed more than the bot's own program: %s", line);
    CHECKF(strstr(line, "own:read"), "the bot's own program files were not readable: %s", line);
    if (arb_remove_tree(wd) != 0)
        fprintf(stderr, "sbx_peek: could not remove %s\n", wd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (geteuid() != 0) {
        int rc = peek(argv[1]);
        return rc ? rc : TEST_DONE("sbx_peek");
    }
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        if (setgroups(0, NULL) != 0 || setgid(SBX_TEST_UID) != 0 || setuid(SBX_TEST_UID) != 0)
            _exit(3);
        int rc = peek(argv[1]);
        fflush(NULL);
        _exit(rc ? rc : TEST_DONE("sbx_peek (as an unprivileged uid)"));
    }
    int st = 0;
    waitpid(p, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
