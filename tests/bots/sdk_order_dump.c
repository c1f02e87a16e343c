/* sdk_order_dump.c — the C bot library's legal lists, for the test that
 * runs the same requests through the Python SDK (bots-sdk/python
 * test_arbiter_bot.py CrossSdk): reads one seat's referee lines on stdin
 * (a recorded match), answers each request with its first choice (to
 * /dev/null: the events carry the recorded match on), and prints every
 * request's choices, in the library's order, on stdout:
 *     DECISION ITEM ITEM ...
 * Usage: sdk_order_dump doudizhu|dabang
 *        sdk_order_dump bench REPEATS   (the per-decision cost: a median) */
#include "arbiter_bot.h"
#include "arb_limits.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const ddz_words[] = {"bid", "call", "rob", "double", "show", "claim", "play"};
static const char *const dab_words[] = {"declare", "tribute", "return", "bury", "joker", "takeback", "play"};

static int ddz_choose(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)ctx;
    fputs(ddz_words[r->decision], stdout);
    char text[ARB_MAX_PLAY_TEXT + 8];
    if (r->decision == ABOT_PLAY)
        for (int i = 0; i < r->nmoves; i++) {
            abot_move_text(v, &r->moves[i], text, sizeof text);
            printf(" %s", text);
        }
    else
        for (int i = 0; i < r->nvalues; i++) {
            if (r->values[i] == 0)
                printf(" pass");
            else if (r->decision == ABOT_BID)
                printf(" %d", r->values[i]);
            else
                printf(" %s", ddz_words[r->decision]);
        }
    putchar('\n');
    return 0;
}

static int dab_choose(const abot_dab_view *v, const abot_dab_request *r, void *ctx)
{
    (void)v, (void)ctx;
    fputs(dab_words[r->decision], stdout);
    char text[3 * DAB_MAX_PLAY + 8];
    for (int i = 0; i < r->nchoices; i++) {
        if (r->choices[i].n == 0) {
            printf(" pass");
            continue;
        }
        dab_format_play(&r->choices[i], text, sizeof text);
        printf(" %s", text);
        if (r->suits && r->suits[i] >= 0)
            printf(":%c", "SHCD"[r->suits[i]]);
    }
    putchar('\n');
    return 0;
}

/* ---- bench: a typical lead and follow, the library's whole turn ---------- */

static double stamps[1 << 16];
static int nstamps;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int bench_choose(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)v, (void)r, (void)ctx;
    if (nstamps < (int)(sizeof stamps / sizeof stamps[0]))
        stamps[nstamps++] = now_ns();
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int bench(int repeats)
{
    char path[] = "/tmp/sdk_bench_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 2;
    unlink(path);
    FILE *f = fdopen(fd, "w+");
    fprintf(f, "arbiter 1 doudizhu\nmatch players 3 deals 1 rules standard seed 1\noption players=3\n"
               "deal 0 seat 0\nhand 3334445566789TJQKA2BR\nlandlord 0 3\n");
    /* a lead from a 20-card hand, then a follow to a trio with a kicker */
    for (int i = 0; i < repeats; i++)
        fprintf(f, "ask play time 1000 -1 30000\nask play beat 2 555+9 trio_solo time 1000 -1 30000\n");
    fprintf(f, "end 0\n");
    fflush(f);
    lseek(fd, 0, SEEK_SET);
    int out = open("/dev/null", O_WRONLY);
    double start = now_ns();
    abot_options opt = {0};
    abot_run_fds("bench", fd, out, bench_choose, NULL, &opt);
    (void)start;
    /* between two requests: reading one, the legal list and its order, the
     * reply; a pair of them is one lead and one follow */
    static double lead[1 << 15], follow[1 << 15];
    int nl = 0, nf = 0;
    for (int i = 1; i < nstamps; i++)
        if (i % 2)
            follow[nf++] = stamps[i] - stamps[i - 1];
        else
            lead[nl++] = stamps[i] - stamps[i - 1];
    qsort(lead, (size_t)nl, sizeof *lead, cmp_double);
    qsort(follow, (size_t)nf, sizeof *follow, cmp_double);
    printf("per decision (median of %d): lead %.1f us, follow %.1f us\n", nl, nl ? lead[nl / 2] / 1e3 : 0,
           nf ? follow[nf / 2] / 1e3 : 0);
    fclose(f);
    close(out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "bench") == 0)
        return bench(argc >= 3 ? (int)strtol(argv[2], NULL, 10) : 2000);
    int out = open("/dev/null", O_WRONLY);
    if (argc < 2 || out < 0) {
        fprintf(stderr, "usage: sdk_order_dump doudizhu|dabang|bench [N]\n");
        return 2;
    }
    if (strcmp(argv[1], "dabang") == 0)
        return abot_dab_run_fds("dump", 0, out, dab_choose, NULL, NULL) == 0 ? 0 : 1;
    return abot_run_fds("dump", 0, out, ddz_choose, NULL, NULL) == 0 ? 0 : 1;
}
